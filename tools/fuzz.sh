#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the libFuzzer targets of tests/fuzz (docs/testing.md "Fuzzing", D41).
#   tools/fuzz.sh [MINUTES] [TARGET...]     each target for MINUTES (default 5) in turn
#   tools/fuzz.sh --merge-seeds [TARGET...] minimise build/fuzz-seeds/<target>/ (made by
#                                           tests/fuzz/make_seeds.sh) into the corpora
#   tools/fuzz.sh --minimise [TARGET...]    re-minimise the corpora (-merge=1 into an empty
#                                           directory, which then replaces the corpus)
# Targets: spirv_reader graph lower cache npy tosa (default: all). Builds build-fuzz/ first when
# needed (clang-14, -DVMEL_FUZZ=ON; the kernels are copied from build/ or from
# $VMEL_PREBUILT_KERNELS_DIR). Each run starts from tests/fuzz/corpus/<target>/, keeps what
# it finds in build-fuzz/fuzz/<target>/new/, and merges the inputs that add coverage into the
# corpus with -merge=1 (file names are content hashes). Findings (crash-*, leak-*, timeout-*,
# oom-*) are left in build-fuzz/fuzz/<target>/ and stop the script with status 1. At the end
# a table gives each target's executions, coverage (cov: edges, ft: features) and corpus size.
# Runs at nice 19, one fuzzer at a time; VMEL_FUZZ_JOBS=N runs N workers per target.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
all="spirv_reader graph lower cache npy tosa"

merge_seeds=0
minimise=0
minutes=5
if [ "${1:-}" = "--merge-seeds" ]; then
  merge_seeds=1
  shift
elif [ "${1:-}" = "--minimise" ]; then
  minimise=1
  shift
elif [ $# -gt 0 ]; then
  minutes=$1
  shift
fi
targets=${*:-$all}

if [ ! -f "$build/build.ninja" ]; then
  kernels=${VMEL_PREBUILT_KERNELS_DIR:-$root/build/generated/kernels}
  set -- -DVMEL_FUZZ=ON
  [ -d "$kernels" ] && set -- "$@" -DVMEL_PREBUILT_KERNELS_DIR="$kernels"
  CC=${CC:-clang-14} cmake -S "$root" -B "$build" -G Ninja "$@"
fi
bins=
for t in $targets; do bins="$bins fuzz_$t"; done
# shellcheck disable=SC2086
ninja -j2 -C "$build" $bins

# The libraries log every refusal; libFuzzer's own output is what matters here.
export VMEL_COMMON_SEVERITY=error VMEL_GRAPH_SEVERITY=error VMEL_TENSOR_SEVERITY=error
opts="-timeout=60 -rss_limit_mb=4096 -close_fd_mask=3 -print_final_stats=1"
status=0
summary=
for t in $targets; do
  bin=$build/tests/fuzz/fuzz_$t
  corpus=$root/tests/fuzz/corpus/$t
  work=$build/fuzz/$t
  mkdir -p "$corpus" "$work/new"
  cd "$work" # merges leave the artifacts of crashing inputs where they run
  if [ $minimise = 1 ]; then
    rm -rf "$work/min"
    mkdir -p "$work/min"
    # shellcheck disable=SC2086
    if nice -n 19 "$bin" $opts -use_counters=0 -merge=1 "$work/min" "$corpus" >"$work/merge.log" 2>&1 &&
       [ -n "$(ls "$work/min")" ]; then
      echo "== $t: $(ls "$corpus" | wc -l) files -> $(ls "$work/min" | wc -l)," \
           "$(cat "$work"/min/* | wc -c) bytes"
      rm -f "$corpus"/*
      cp "$work"/min/* "$corpus/"
    else
      tail -30 "$work/merge.log"
      status=1
    fi
    continue
  fi
  if [ $merge_seeds = 1 ]; then
    seeds=$root/build/fuzz-seeds/$t
    echo "== $t: merging $(ls "$seeds" | wc -l) seeds into $(ls "$corpus" | wc -l) corpus files"
    # shellcheck disable=SC2086
    nice -n 19 "$bin" $opts -use_counters=0 -merge=1 "$corpus" "$seeds" >"$work/merge.log" 2>&1 ||
      { tail -30 "$work/merge.log"; status=1; }
    echo "   $(ls "$corpus" | wc -l) files, $(cat "$corpus"/* 2>/dev/null | wc -c) bytes"
    # The merge restarts its inner process after each crash: a seed that crashes.
    if [ "$(grep -a -c 'MERGE-OUTER: attempt' "$work/merge.log")" -gt 1 ]; then
      echo "   seeds crash the target: run $bin -runs=0 $seeds"
      status=1
    fi
    continue
  fi
  log=$work/fuzz-$(date -u +%Y%m%dT%H%M%S).log
  echo "== $t: $minutes min, log $log"
  jobs=${VMEL_FUZZ_JOBS:-1}
  par=
  [ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"
  rc=0
  rm -f "$work"/fuzz-[0-9]*.log
  # shellcheck disable=SC2086
  (cd "$work" && nice -n 19 "$bin" $opts $par -max_total_time=$((minutes * 60)) \
     -artifact_prefix="$work/" "$work/new" "$corpus") >"$log" 2>&1 || rc=$?
  cat "$work"/fuzz-[0-9]*.log >>"$log" 2>/dev/null || true
  execs=$(grep -a 'stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')
  last=$(grep -a -E '^#[0-9]+' "$log" | tail -1)
  cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
  ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
  if [ $rc != 0 ]; then
    echo "   FINDING (status $rc):"
    grep -a -E 'ERROR:|SUMMARY:|invariant broken|Test unit written' "$log" | head -10
    status=1
  fi
  before=$(ls "$corpus" | wc -l)
  # shellcheck disable=SC2086
  nice -n 19 "$bin" $opts -use_counters=0 -merge=1 "$corpus" "$work/new" >"$work/merge.log" 2>&1 || true
  after=$(ls "$corpus" | wc -l)
  summary="$summary$(printf '%-13s %4s min %12s execs  cov %6s  ft %7s  corpus %5s (+%s)' \
    "$t" "$minutes" "$execs" "${cov:-?}" "${ft:-?}" "$after" $((after - before)))
"
done
if [ -n "$summary" ]; then
  echo
  printf '%s' "$summary"
  echo "corpora: $(cat "$root"/tests/fuzz/corpus/*/* 2>/dev/null | wc -c) bytes"
fi
exit $status
