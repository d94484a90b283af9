#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Issue 14's GPU measurements in one call (docs/performance.md), on a machine prepared with
# tools/gpu-stage.sh and tools/gpu-env.sh (bench_graph on PATH), from the tree's root:
#   bench/gpu-issue14.sh OUTDIR [SECONDS [STEP...]]
# Writes everything into OUTDIR (one summary.txt plus the logs and JSON) and packs it into
# OUTDIR.tar.gz after every step, so that a run cut short still returns what it measured;
# SECONDS (default 540) is the budget: a step that would start after it is skipped.
# STEPs (default all but suite2, dwconv and intdot, in this order, most wanted first):
#   square   the cooperative-matrix files under coop-khr-square (the KHR 16x16 kind's fp16, fp8
#            and i8 rows, which the H200 otherwise never takes: it lists 16x8 too), checked,
#            then bench_graph's MATMUL 512^2 fp16/i8 under it (the kernel names)
#   optests  the optest files of the GPU-only kernel kinds (vmel-optest on PATH), checked
#            results, three runs (about 75 s each on the H200)
#   torch    PyTorch's suite times (bench/graph_suite_torch.py)
#   suite    the suite's graphs with --no-baseline
#   base     the suite's graphs but the 4096^3 MATMULs with the baseline variant (shorter
#            batches; the reference kernels take 35-125 ms a dispatch at 4096^3)
#   split    split-K against unsplit (--variant VMEL_GRAPH_SPLIT_K=1 --rounds 3: alternating in
#            one process) on the graphs it changes
#   coop     the coop kinds: KHR (default where bf16 is offered) against NV (--variant
#            VMEL_GRAPH_KERNELS=coop-nv --rounds 2) for fp16 and i8, and bf16 at 512 and 4096
#            (NV has none: split tiled) with the driver's pipeline statistics (D59)
#   suite2   the suite --no-baseline again (run-to-run spread)
#   dwconv   the ROW_BLOCK DEPTHWISE_CONV2D (D64) on the GPU under fast-cpu: its optest files
#            checked, dwconv_fp16 and the MobileNet blocks against the default, PyTorch's dwconv
#   intdot   the INT_DOT kind's split-K (D65): the i8 optest files checked, the int8 ResNet
#            blocks against VMEL_GRAPH_SPLIT_K=1
set -uo pipefail
out=${1:?usage: bench/gpu-issue14.sh OUTDIR [SECONDS [STEP...]]}
budget=${2:-540}
shift $(( $# < 2 ? $# : 2 ))
steps=" ${*:-square optests torch suite base split coop} "
mkdir -p "$out"
t0=$(date +%s)
summary=$out/summary.txt
: > "$summary"
# the GPU's clocks, load and power over the run (nvidia-smi, where there is one), for readings
# that differ between runs
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,utilization.gpu,power.draw,pstate \
    --format=csv -lms 200 > "$out/clocks.csv" 2>&1 &
  smi=$!
  trap 'kill $smi 2> /dev/null' EXIT
fi
pack() { tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"; }
step() { # step KEY NAME: 0 when step KEY was asked for and there is time left for it
  case $steps in *" $1 "*) ;; *) return 1 ;; esac
  shift
  local used=$(( $(date +%s) - t0 ))
  if [ "$used" -ge "$budget" ]; then echo "== $1: skipped (budget spent at ${used} s)" >> "$summary"; return 1; fi
  echo "== $1 (at ${used} s, $(date +%T))" >> "$summary"
}
left() { local l=$(( budget - ($(date +%s) - t0) )); [ "$l" -gt 5 ] && echo "$l" || echo 5; }
grab() { # the per-graph lines of bench_graph's log $1 (not its --variant table)
  sed '/^variant .* against the default/,$d' "$1" |
    grep -E "^[a-z0-9_]+ [A-Z0-9]|gpu +median|variant  |kernels|unstable|wrong|FAIL|fail" |
    grep -v "^ *baseline" >> "$summary"
}
bg() { # bg LOG [VAR=VALUE...] -- bench_graph options
  local log=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" timeout "$(left)" bench_graph "$@" > "$log" 2>&1
  echo "   rc $? $(basename "$log")" >> "$summary"
}
ot() { # ot LOG [VAR=VALUE...] -- optest files: vmel-optest's tally and first failures
  local log=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" timeout "$(left)" vmel-optest "$@" > "$log" 2>&1
  echo "   ${envs[*]}: $(grep -E 'passed, ' "$log" | tail -1)" >> "$summary"
  grep -E "^(FAIL|fail)" "$log" | head -5 >> "$summary"
}
small="--graph resnet_fp32_b1 --graph resnet_fp32_b8 --graph resnet_int8_b1 --graph resnet_int8_b8
  --graph mobilenet_fp32_b1 --graph mobilenet_fp32_b8 --graph matmul512_fp32 --graph matmul512_fp16
  --graph matmul512_bf16 --graph matmul512_i8 --graph branch4_fp32"
suite="$small --graph matmul4096_fp32 --graph matmul4096_fp16 --graph matmul4096_bf16
  --graph matmul4096_i8"
# ISSUE14_BATCH: dispatches per submission (default 20); more keeps a GPU busier between the
# fences, so that its clocks stay up on the short graphs
opts="--creations 1 --warmup 5 --reps 10 --batch ${ISSUE14_BATCH:-20}"

d=tests/optest/data
if command -v vmel-optest > /dev/null && step square "optests under coop-khr-square"; then
  # the driver's pipeline statistics name each kernel pipeline the tests created
  ot "$out/square.log" VMEL_TEST_NO_VALIDATION=1 VMEL_GRAPH_KERNELS=coop-khr-square \
    VMEL_GRAPH_PIPELINE_STATS=1 VMEL_GRAPH_SEVERITY=info -- \
    $d/matmul_coop.optest $d/conv2d_coop.optest
  grep -o "pipeline statistics: kernel [a-z0-9_]*" "$out/square.log" | sort | uniq -c |
    sed 's/pipeline statistics: kernel //' >> "$summary"
  bg "$out/square_bench.txt" VMEL_GRAPH_KERNELS=coop-khr-square -- \
    --graph matmul512_fp16 --graph matmul512_i8 --no-baseline --creations 1 --reps 3
  grab "$out/square_bench.txt"
  pack
fi
# 0. correctness of the GPU-only kinds first (the H200's validation layer is Debian's, which does
#    not know the KHR/bf16 structs the layer enables there: without it, then under coop-nv with it)
if command -v vmel-optest > /dev/null && step optests "optests (coop, fusion, split-K, int-dot)"; then
  for run in "VMEL_TEST_NO_VALIDATION=1" "VMEL_TEST_NO_VALIDATION=1 VMEL_GRAPH_KERNELS=coop-khr" \
             "VMEL_GRAPH_KERNELS=coop-nv VMEL_GRAPH_FUSION=1"; do
    # shellcheck disable=SC2086
    ot "$out/optest.log" $run -- $d/matmul_coop.optest $d/conv2d_coop.optest \
      $d/fusion_coop.optest $d/fusion.optest $d/splitk.optest $d/fusion_int_dot.optest
  done
  pack
fi
if step torch torch; then
  (cd bench && timeout "$(left)" python3 graph_suite_torch.py --out "$out/torch_suite.txt" \
     > "$out/torch.log" 2>&1)
  tail -17 "$out/torch.log" >> "$summary"
  pack
fi
torch=()
[ -s "$out/torch_suite.txt" ] && torch=(--torch "$out/torch_suite.txt")
# the baseline's reference kernels take 35-125 ms a dispatch at 4096: fewer, shorter batches
base_opts="--creations 1 --warmup 2 --reps 5 --batch 10"
for r in 1 2; do
  key="suite"; [ "$r" = 2 ] && key=suite2
  if step $key "suite --no-baseline, round $r"; then
    # shellcheck disable=SC2086
    bg "$out/suite_nobase_$r.txt" -- $suite $opts --no-baseline "${torch[@]}" \
      --json "$out/suite_nobase_$r.json"
    sed -n '/^graph  /,$p' "$out/suite_nobase_$r.txt" | grep -v "not measured" >> "$summary"
    pack
  fi
  if [ "$r" = 1 ] && step base "suite with the baseline (no 4096^3 MATMUL)"; then
    # shellcheck disable=SC2086
    bg "$out/suite_base.txt" -- $small $base_opts "${torch[@]}" --json "$out/suite_base.json"
    sed -n '/^graph  /,$p' "$out/suite_base.txt" >> "$summary"
    pack
  fi
done
split="--graph resnet_fp32_b1 --graph matmul512_fp32 --graph matmul_64x4096x64_fp32 --no-baseline"
# the variants alternate with the default in one process (--rounds), so that a change of the
# GPU's clock level between runs does not decide the comparison
variant_table() { sed -n '/^variant .* against the default/,$p' "$1" >> "$summary"; }
if step split "split-K (default) against unsplit (VMEL_GRAPH_SPLIT_K=1), 3 rounds"; then
  # shellcheck disable=SC2086
  bg "$out/split.txt" -- $split $opts --variant VMEL_GRAPH_SPLIT_K=1 --rounds 3
  grab "$out/split.txt"
  variant_table "$out/split.txt"
  pack
fi
coop="--graph matmul4096_fp16 --graph matmul4096_i8 --graph matmul512_fp16 --graph matmul512_i8
  --graph matmul512_bf16 --graph matmul4096_bf16 --no-baseline"
if step coop "coop kinds: the default (KHR) against coop-nv, 2 rounds"; then
  # shellcheck disable=SC2086
  bg "$out/coop.txt" -- $coop $opts --pipeline-stats \
    --variant VMEL_GRAPH_KERNELS=coop-nv --rounds 2
  grab "$out/coop.txt"
  variant_table "$out/coop.txt"
  grep "pipeline statistics:" "$out/coop.txt" | cut -c1-400 | sort -u >> "$summary"
  pack
fi
# the ROW_BLOCK DEPTHWISE_CONV2D (D64), written for CPU devices, on a GPU: VMEL_GRAPH_KERNELS=fast-cpu
# takes it there (and the CPU devices' GEMM choices, which dwconv_fp16 has none of)
if command -v vmel-optest > /dev/null && step dwconv "ROW_BLOCK depthwise under fast-cpu"; then
  ot "$out/dwconv.log" VMEL_TEST_NO_VALIDATION=1 VMEL_GRAPH_KERNELS=fast-cpu -- \
    $d/depthwise_conv2d_rows.optest $d/depthwise_conv2d.optest
  # shellcheck disable=SC2086
  bg "$out/dwconv.txt" -- --graph dwconv_fp16 --graph mobilenet_fp32_b1 --graph mobilenet_fp32_b8 \
    $opts --no-baseline --variant VMEL_GRAPH_KERNELS=fast-cpu --rounds 2
  grab "$out/dwconv.txt"
  variant_table "$out/dwconv.txt"
  (cd bench && timeout "$(left)" python3 conv_family_torch.py > "$out/dwconv_torch.txt" 2>&1)
  grep -i "dwconv" "$out/dwconv_torch.txt" >> "$summary"
  pack
fi
# the INT_DOT kind's split-K (D65): the i8 files checked with the GPU's own choices, then the
# int8 ResNet blocks split (default) against unsplit
if command -v vmel-optest > /dev/null && step intdot "INT_DOT split-K"; then
  ot "$out/intdot.log" VMEL_TEST_NO_VALIDATION=1 -- $d/splitk.optest $d/fusion_int_dot.optest \
    $d/matmul_tiled.optest $d/conv2d_tiled.optest
  # shellcheck disable=SC2086
  bg "$out/intdot.txt" -- --graph resnet_int8_b1 --graph resnet_int8_b8 $opts --no-baseline \
    --variant VMEL_GRAPH_SPLIT_K=1 --rounds 2
  grab "$out/intdot.txt"
  variant_table "$out/intdot.txt"
  # shellcheck disable=SC2086
  bg "$out/intdot3.txt" -- --graph resnet_int8_b1 $opts --no-baseline \
    --variant VMEL_GRAPH_SPLIT_K=3 --rounds 2
  variant_table "$out/intdot3.txt"
  pack
fi
cat "$summary"
pack
