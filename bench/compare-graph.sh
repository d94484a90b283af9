#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Before/after ratios of the graph layer's performance, measured in one run:
#   bench/compare-graph.sh [--rounds N] [--current REV] BASE_REV [bench_graph options...]
#
# Builds the layers of BASE_REV (exported with git archive into
# build-bench-base/src-<sha>, configured with the current build's
# CMAKE_BUILD_TYPE in build-bench-base/<sha>) and the current working tree
# (build-bench, or $VMEL_BENCH_BUILD), then runs the CURRENT bench_graph
# binary against each build's manifests in turn, baseline then current, N
# rounds (default 3), on lavapipe. With --current REV the current side is the
# layers of REV, built as the baseline's (--current BASE_REV: both sides the
# same build, which measures the noise alone). Prints per graph and metric the median over
# the rounds of each side's per-run medians, the ratio current/baseline, and
# each side's spread ((max - min) / median of the per-run medians: the noise).
# bench_graph checks every output against the CPU reference in every run; a
# failure stops the comparison. JOBS (default 2) is the build parallelism.
# The runs' logs and JSON stay in a directory under /tmp (printed at the end).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=3
current_rev=
while [ $# -ge 2 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --current) current_rev=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] ||
  { echo "usage: $0 [--rounds N] [--current REV] BASE_REV [bench_graph options...]" >&2; exit 2; }
case "$rounds" in '' | *[!0-9]* | 0) echo "$0: --rounds needs a positive number" >&2; exit 2 ;; esac
base_rev=$1
shift
jobs=${JOBS:-2}

cur_build=${VMEL_BENCH_BUILD:-$here/build-bench}
base_root=$here/build-bench-base

# The current tree, configured Release unless it is configured already.
if [ ! -f "$cur_build/CMakeCache.txt" ]; then
  cmake -S "$here" -B "$cur_build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
build_type=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$cur_build/CMakeCache.txt")
build_type=${build_type:-Release}

# rev_build REV: builds the layers of REV into build-bench-base/<sha>; sets $rev_sha, $rev_dir.
rev_build() {
  rev_sha=$(git -C "$here" rev-parse --verify --quiet "$1^{commit}") ||
    { echo "$0: $1 is not a commit" >&2; exit 2; }
  local short=${rev_sha:0:12}
  local src=$base_root/src-$short
  rev_dir=$base_root/$short
  # The sources: git archive, so the repository itself is left as it is.
  if [ ! -f "$src.complete" ]; then
    rm -rf "$src"
    mkdir -p "$src"
    git -C "$here" archive "$rev_sha" | tar -x -C "$src"
    touch "$src.complete"
  fi
  echo "== building the layers of $short ($build_type) in $rev_dir"
  cmake -S "$src" -B "$rev_dir" -G Ninja -DCMAKE_BUILD_TYPE="$build_type" \
    -DVMEL_BUILD_TESTS=OFF > "$rev_dir.configure.log" ||
    { cat "$rev_dir.configure.log"; exit 1; }
  cmake --build "$rev_dir" -j "$jobs" --target vmel_manifests
}

rev_build "$base_rev"
sha=$rev_sha
short=${sha:0:12}
base_build=$rev_dir
echo "== building bench_graph and the current tree's layers in $cur_build"
cmake --build "$cur_build" -j "$jobs" --target bench_graph vmel_manifests
cur_layers=$cur_build
cur_what="working tree of $(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet HEAD -- . 2>/dev/null || echo ' + uncommitted changes')"
if [ -n "$current_rev" ]; then
  rev_build "$current_rev"
  cur_layers=$rev_dir
  cur_what="$(git -C "$here" log -1 --format='%h %s' "$rev_sha" | cut -c1-70)"
fi

bench=$cur_build/bench/bench_graph
for dir in "$base_build/manifests" "$cur_layers/manifests"; do
  for m in VkLayer_Graph.json VkLayer_Tensor.json; do
    [ -f "$dir/$m" ] || { echo "$0: $dir/$m missing" >&2; exit 1; }
  done
done

# Nothing from the caller's shell may add layers or change what the graph layer does.
unset VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE VK_LOADER_LAYERS_DISABLE VK_ADD_LAYER_PATH \
  VMEL_GRAPH_PROFILING VMEL_GRAPH_MAX_GROUPS

out=$(mktemp -d /tmp/compare-graph.XXXXXX)
echo "== $rounds rounds, baseline then current; logs in $out"
for r in $(seq 1 "$rounds"); do
  for side in base cur; do
    if [ "$side" = base ]; then dir=$base_build/manifests; else dir=$cur_layers/manifests; fi
    log=$out/$side-$r.log
    if ! "$bench" --manifests "$dir" --json "$out/$side-$r.json" "$@" > "$log" 2>&1; then
      cat "$log"
      echo "$0: bench_graph failed against $dir (round $r)" >&2
      exit 1
    fi
    # The run must have loaded that build's graph layer.
    grep -qF "graph layer: $(dirname "$dir")/" "$log" ||
      { cat "$log"; echo "$0: the graph layer was not $(dirname "$dir")'s" >&2; exit 1; }
    printf '  round %d %-4s done\n' "$r" "$side"
  done
done

head -3 "$out/cur-1.log"
echo
echo "baseline $short = $(git -C "$here" log -1 --format='%h %s' "$sha" | cut -c1-70)"
echo "current  = $cur_what"
echo "medians over $rounds runs of each run's median (ms); spread = (max - min) / median over runs"
echo
# Each results line of bench_graph's JSON holds one graph's metric:
#   {"graph": "conv_fp32", "metric": "dispatch_ms", "median": 1.0, "min": 0.9, "samples": [...]}
for f in "$out"/base-*.json "$out"/cur-*.json; do
  side=$(basename "$f" | cut -d- -f1)
  sed -n 's/.*"graph": "\([a-z0-9_]*\)", "metric": "\([a-z_]*\)", "median": \([0-9.]*\), "min": \([0-9.]*\).*/\1 \2 \3 \4/p' "$f" |
    sed "s/^/$side /"
done | awk -v rounds="$rounds" '
  function median(list, n,    a, i, j, t) {
    split(list, a, " ")
    for (i = 2; i <= n; i++)
      for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  function spread(list, n,    a, i, lo, hi, m) {
    split(list, a, " ")
    lo = hi = a[1] + 0
    for (i = 2; i <= n; i++) { if (a[i] + 0 < lo) lo = a[i] + 0; if (a[i] + 0 > hi) hi = a[i] + 0 }
    m = median(list, n)
    return m > 0 ? (hi - lo) / m * 100 : 0
  }
  {
    key = $2 " " $3
    if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
    med[$1, key] = med[$1, key] " " $4; nmed[$1, key]++
    mins[$1, key] = mins[$1, key] " " $5
  }
  END {
    printf "%-12s %-11s %10s %10s %7s %9s %9s %10s\n", "graph", "metric", "baseline", "current",
           "ratio", "spread B", "spread C", "ratio min"
    for (k = 1; k <= keys; k++) {
      key = order[k]
      nb = nmed["base", key]; nc = nmed["cur", key]
      if (nb != rounds || nc != rounds) { printf "%s: %d/%d runs\n", key, nb, nc; continue }
      b = median(med["base", key], nb); c = median(med["cur", key], nc)
      bm = median(mins["base", key], nb); cm = median(mins["cur", key], nc)
      split(key, p, " ")
      ratio = (b > 0) ? c / b : 0
      ratio_min = (bm > 0) ? cm / bm : 0
      printf "%-12s %-11s %10.3f %10.3f %7.3f %8.1f%% %8.1f%% %10.3f\n", p[1], p[2], b, c,
             ratio, spread(med["base", key], nb), spread(med["cur", key], nc), ratio_min
    }
  }'
echo
echo "(ratio = current / baseline: above 1 is slower; ratio min compares the medians of each run's min)"
echo "logs and JSON: $out"
