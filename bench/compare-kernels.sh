#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The fast kernel variants against the one-output-per-invocation baseline, measured in one run
# of the same build (D44):
#   bench/compare-kernels.sh [--rounds N] [--baseline VAR=VALUE] BUILD_DIR [bench_graph options...]
# runs BUILD_DIR/bench/bench_graph N rounds (default 3), each round once with
# VMEL_GRAPH_KERNELS=reference then once with the default kernels, against BUILD_DIR's layer
# manifests, on whatever device the Vulkan loader gives (lavapipe, or a GPU: set
# VK_DRIVER_FILES / VK_ICD_FILENAMES as for any run). Prints per graph and metric the median
# over the rounds of each side's per-run medians and the speed-up reference / fast (above 1:
# the fast kernels take less time). --baseline sets another variable for the reference side
# instead of VMEL_GRAPH_KERNELS=reference: VMEL_GRAPH_FUSION=0 measures fusion (D52),
# VMEL_GRAPH_SPLIT_K=1 split-K (D56).
# bench_graph checks every output against the CPU reference
# in every run; a failure stops the comparison. Logs and JSON stay in a directory under /tmp.
set -euo pipefail
rounds=3
baseline=VMEL_GRAPH_KERNELS=reference
while [ $# -ge 2 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --baseline) baseline=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--rounds N] [--baseline VAR=VALUE] BUILD_DIR [bench_graph options...]" >&2; exit 2; }
case "$baseline" in VMEL_*=*) ;; *) echo "$0: --baseline takes VMEL_NAME=VALUE" >&2; exit 2 ;; esac
case "$rounds" in '' | *[!0-9]* | 0) echo "$0: --rounds needs a positive number" >&2; exit 2 ;; esac
build=$(cd "$1" && pwd)
shift
bench=$build/bench/bench_graph
[ -x "$bench" ] || { echo "$0: $bench missing" >&2; exit 1; }
unset VK_INSTANCE_LAYERS VK_LOADER_LAYERS_ENABLE VK_LOADER_LAYERS_DISABLE VK_ADD_LAYER_PATH \
  VMEL_GRAPH_PROFILING VMEL_GRAPH_MAX_GROUPS VMEL_GRAPH_KERNELS VMEL_GRAPH_FUSION VMEL_GRAPH_SPLIT_K

out=$(mktemp -d /tmp/compare-kernels.XXXXXX)
echo "== $rounds rounds, reference ($baseline) then fast; logs in $out"
for r in $(seq 1 "$rounds"); do
  for side in ref fast; do
    log=$out/$side-$r.log
    set_env=VMEL_GRAPH_UNUSED=; [ "$side" = ref ] && set_env=$baseline
    if ! env "$set_env" "$bench" --manifests "$build/manifests" --json "$out/$side-$r.json" \
         "$@" > "$log" 2>&1; then
      cat "$log"; echo "$0: bench_graph failed ($side, round $r)" >&2; exit 1
    fi
    printf '  round %d %-4s done\n' "$r" "$side"
  done
done
head -2 "$out/fast-1.log"
echo "medians over $rounds runs of each run's median (ms); speed-up = reference / fast"
printf '%-22s %-16s %12s %12s %9s\n' graph metric reference fast speed-up
for f in "$out"/ref-*.json "$out"/fast-*.json; do
  side=$(basename "$f" | cut -d- -f1)
  sed -n 's/.*"graph": "\([a-z0-9_]*\)", "metric": "\([a-z_]*\)", "median": \([0-9.]*\),.*/\1 \2 \3/p' "$f" |
    sed "s/^/$side /"
done | awk '
  function median(list, n,    a, i, j, t) {
    split(list, a, " ")
    for (i = 2; i <= n; i++)
      for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  {
    key = $2 " " $3
    if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
    vals[$1, key] = vals[$1, key] " " $4; cnt[$1, key]++
  }
  END {
    for (k = 1; k <= keys; k++) {
      key = order[k]
      if (!cnt["ref", key] || !cnt["fast", key]) continue
      r = median(vals["ref", key], cnt["ref", key]); f = median(vals["fast", key], cnt["fast", key])
      split(key, p, " ")
      q = 0
      if (f > 0) q = r / f # (a ">" among printf arguments is a redirection to awk)
      printf "%-22s %-16s %12.3f %12.3f %8.2fx\n", p[1], p[2], r, f, q
    }
  }'
