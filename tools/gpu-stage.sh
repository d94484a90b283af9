#!/usr/bin/env bash
# Stages what a run on another machine (a GPU host with no build tools or Debian packages, e.g.
# the H200 of docs/performance.md) needs into one folder that travels with the tree:
#   tools/gpu-stage.sh BUILD DIR [BINARY...]
# DIR/lib: the two layers and libspirv-cross-c-shared.so.0 (the tensor layer's one Debian
# library); DIR/manifests: the layer manifests with library paths relative to them; DIR/bin:
# the binaries given (bench_graph, vmel-optest, ...). On the other machine, from the tree's
# root: `. tools/gpu-env.sh DIR` (with Debian's loader and validation-layer .debs in
# DIR/debs, see there).
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 BUILD DIR [BINARY...]" >&2; exit 2; }
b=$1 h=$2
shift 2
rm -rf "$h/lib" "$h/manifests" "$h/bin"
mkdir -p "$h/lib" "$h/manifests" "$h/bin"
cp "$b"/graph/libVkLayer_Graph.so "$b"/tensor/libVkLayer_Tensor.so "$h/lib/"
cp -L /lib/x86_64-linux-gnu/libspirv-cross-c-shared.so.0 "$h/lib/"
for j in "$b"/manifests/*.json; do
  sed 's#"library_path": ".*/\(lib[A-Za-z_]*\.so\)"#"library_path": "../lib/\1"#' "$j" \
    > "$h/manifests/$(basename "$j")"
done
for x in "$@"; do cp "$x" "$h/bin/"; done
du -sh "$h"
