#!/bin/sh
# SPDX-License-Identifier: MIT
# Seeds for the fuzz corpora (D41): every module, cache blob and .npy file the tests use.
#   tests/fuzz/make_seeds.sh [BUILD_DIR]      (default build/, the ordinary gcc build)
# writes BUILD_DIR/fuzz-seeds/<target>/ from
#   - the unit tests that build modules, plans and .npy files in memory (test_decode,
#     test_stage_plan, test_graph_cache_fuzz, test_lower_fuzz, test_npy), linked again with
#     their calls into the fuzzed functions wrapped (seeds/seed_dump.c);
#   - the operator tests' modules (tests/optest/data/*.optest, seeds/seed_optest.c);
#   - the SPIR-V text of tests/data/spirv, tests/unit/lower and vmel-run's examples;
# every graph and tensor module also seeds the SPIR-V reader. tools/fuzz.sh --merge-seeds
# then minimises them into tests/fuzz/corpus/ with libFuzzer's -merge=1.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build}
seeds=$build/fuzz-seeds
ninja -j2 -C "$build" fuzz_seed_dumpers vmel-as >/dev/null
rm -rf "$seeds"
for t in spirv_reader graph lower cache npy; do mkdir -p "$seeds/$t"; done
export VMEL_FUZZ_SEEDS="$seeds" VMEL_COMMON_SEVERITY=error VMEL_GRAPH_SEVERITY=error \
       VMEL_TENSOR_SEVERITY=error
d=$build/tests/fuzz/seeds
for t in test_decode test_stage_plan test_graph_cache_fuzz test_npy; do
  (cd "$build" && "$d/seed_$t" >/dev/null 2>&1) || echo "seed_$t: the test failed (seeds kept)"
done
"$d/seed_test_lower_fuzz" --seconds 3 "$root/tests/unit/lower" >/dev/null 2>&1 || true
"$d/seed_optest" "$root"/tests/optest/data/*.optest 2>/dev/null
as=$build/tools/asm/vmel-as
assemble() { # FILE TARGET
  out=$seeds/$2/asm_$(basename "$1" .spvasm).spv
  "$as" -o "$out" "$1" 2>/dev/null || rm -f "$out"
}
for f in "$root"/tests/data/spirv/graph_*.spvasm "$root"/tools/vmel-run/examples/*.spvasm; do
  assemble "$f" graph
done
for f in "$root"/tests/unit/lower/*.in.spvasm "$root"/tests/data/spirv/tensor_*.spvasm \
         "$root"/tests/data/spirv/compute_*.spvasm; do
  assemble "$f" lower
done
cp "$seeds"/graph/* "$seeds"/lower/* "$seeds/spirv_reader/"
for t in spirv_reader graph lower cache npy; do
  printf '%-13s %5d seeds\n' "$t" "$(ls "$seeds/$t" | wc -l)"
done
