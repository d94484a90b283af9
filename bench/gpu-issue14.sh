#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Issue 14's GPU measurements in one call (docs/performance.md), on a machine prepared with
# tools/gpu-stage.sh and tools/gpu-env.sh (bench_graph on PATH), from the tree's root:
#   bench/gpu-issue14.sh OUTDIR [SECONDS]
# Writes everything into OUTDIR (one summary.txt plus the logs and JSON) and packs it into
# OUTDIR.tar.gz after every step, so that a run cut short still returns what it measured;
# SECONDS (default 540) is the budget: a step that would start after it is skipped.
# Steps, most wanted first:
#   0. the optest files of the GPU-only kernel kinds (vmel-optest on PATH), checked results
#   1. PyTorch's suite times (bench/graph_suite_torch.py)
#   2. the suite's graphs with --no-baseline (twice), between them once with the baseline
#      (shorter batches): whether the baseline device still changes the main numbers
#   3. split-K against unsplit (VMEL_GRAPH_SPLIT_K=1) on the graphs it changes, MATMUL 512 fp32
#   4. the coop kinds: KHR (default where bf16 is offered) against NV (coop-nv) for fp16 and i8,
#      and bf16 at 512 and 4096 with the driver's pipeline statistics (D59)
set -uo pipefail
out=${1:?usage: bench/gpu-issue14.sh OUTDIR [SECONDS]}
budget=${2:-540}
mkdir -p "$out"
t0=$(date +%s)
summary=$out/summary.txt
: > "$summary"
pack() { tar czf "$out.tar.gz" -C "$(dirname "$out")" "$(basename "$out")"; }
step() { # step NAME: 0 when there is time left for it
  local used=$(( $(date +%s) - t0 ))
  if [ "$used" -ge "$budget" ]; then echo "== $1: skipped (budget spent at ${used} s)" >> "$summary"; return 1; fi
  echo "== $1 (at ${used} s)" >> "$summary"
}
left() { local l=$(( budget - ($(date +%s) - t0) )); [ "$l" -gt 5 ] && echo "$l" || echo 5; }
grab() { grep -E "^[a-z0-9_]+ [A-Z0-9]|gpu +median|kernels|wrong|FAIL|fail" "$1" | grep -v "^ *baseline" >> "$summary"; }
bg() { # bg LOG VAR=VALUE... -- bench_graph options
  local log=$1; shift
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  env "${envs[@]}" timeout "$(left)" bench_graph "$@" > "$log" 2>&1
  echo "   rc $? $(basename "$log")" >> "$summary"
}
suite="--graph resnet_fp32_b1 --graph resnet_fp32_b8 --graph resnet_int8_b1 --graph resnet_int8_b8
  --graph mobilenet_fp32_b1 --graph mobilenet_fp32_b8 --graph matmul512_fp32 --graph matmul512_fp16
  --graph matmul512_bf16 --graph matmul512_i8 --graph matmul4096_fp32 --graph matmul4096_fp16
  --graph matmul4096_bf16 --graph matmul4096_i8 --graph branch4_fp32"
opts="--creations 1 --warmup 5 --reps 10 --batch 20"

# 0. correctness of the GPU-only kinds first (the H200's validation layer is Debian's, which does
#    not know the KHR/bf16 structs the layer enables there: without it, then under coop-nv with it)
if command -v vmel-optest > /dev/null && step "optests (coop, fusion, split-K, int-dot)"; then
  d=tests/optest/data
  for run in "VMEL_TEST_NO_VALIDATION=1" "VMEL_TEST_NO_VALIDATION=1 VMEL_GRAPH_KERNELS=coop-khr" \
             "VMEL_GRAPH_KERNELS=coop-nv VMEL_GRAPH_FUSION=1"; do
    # shellcheck disable=SC2086
    env $run timeout "$(left)" vmel-optest $d/matmul_coop.optest $d/conv2d_coop.optest \
      $d/fusion_coop.optest $d/fusion.optest $d/splitk.optest $d/fusion_int_dot.optest \
      > "$out/optest.log" 2>&1
    echo "   $run: $(grep -E 'passed, ' "$out/optest.log" | tail -1)" >> "$summary"
    grep -E "^(FAIL|fail)" "$out/optest.log" | head -5 >> "$summary"
  done
  pack
fi
if step torch; then
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
  if step "suite --no-baseline, round $r"; then
    # shellcheck disable=SC2086
    bg "$out/suite_nobase_$r.txt" VMEL_GRAPH_UNUSED= -- $suite $opts --no-baseline "${torch[@]}" \
      --json "$out/suite_nobase_$r.json"
    sed -n '/^graph  /,$p' "$out/suite_nobase_$r.txt" >> "$summary"
    pack
  fi
  if [ "$r" = 1 ] && step "suite with the baseline"; then
    # shellcheck disable=SC2086
    bg "$out/suite_base.txt" VMEL_GRAPH_UNUSED= -- $suite $base_opts "${torch[@]}" \
      --json "$out/suite_base.json"
    sed -n '/^graph  /,$p' "$out/suite_base.txt" >> "$summary"
    pack
  fi
done
split="--graph resnet_fp32_b1 --graph matmul512_fp32 --graph matmul_64x4096x64_fp32 --no-baseline"
for r in 1 2; do
  for s in 1 auto; do
    if step "split-K $s, round $r"; then
      # shellcheck disable=SC2086
      bg "$out/split_${s}_$r.txt" VMEL_GRAPH_SPLIT_K=$s -- $split $opts
      grab "$out/split_${s}_$r.txt"
      pack
    fi
  done
done
coop="--graph matmul4096_fp16 --graph matmul4096_i8 --graph matmul512_fp16 --graph matmul512_i8
  --graph matmul512_bf16 --graph matmul4096_bf16 --no-baseline"
for k in fast coop-nv; do
  if step "coop kinds: $k"; then
    # shellcheck disable=SC2086
    bg "$out/coop_$k.txt" VMEL_GRAPH_KERNELS=$k -- $coop $opts --pipeline-stats
    grab "$out/coop_$k.txt"
    grep "pipeline statistics:" "$out/coop_$k.txt" | cut -c1-400 >> "$summary"
    pack
  fi
done
cat "$summary"
pack
