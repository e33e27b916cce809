#!/usr/bin/env bash
# The batch-loop variants of issue 33 (kern.h: copies of the loops, the one before the issue
# included) and OMPEval's loops, timed side by side on the same random hands in one process.
#   bash benchmarks/kernel_variants/run.sh [hands] [rounds]      (after an in-place build)
# 32768 hands and 3000 rounds: the best-of ratios ("best-ratio raw/val") least disturbed by
# other jobs; 4000000 hands: compare.py's memory-bound size.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
generated="$(ls -d "$root"/build/temp.*/generated | head -1)"
# the anchor beside the main checkout, or beside a worktree's parent folder
omp="${OMPEVAL:-$root/../shared/anchors/ompeval}"
[ -d "$omp" ] || omp="$root/../../shared/anchors/ompeval"
out="$(mktemp -d)"
printf '#include "kern.h"\n' > "$out/kern.c"
gcc -O3 -I"$here" -I"$generated" -c "$out/kern.c" -o "$out/kern.o"
g++ -O3 -std=c++11 -I"$generated" -I"$omp" "$here/harness.cpp" "$out/kern.o" \
    "$omp/omp/HandEvaluator.cpp" "$omp/batch.cpp" -o "$out/harness"
"$out/harness" "${1:-32768}" "${2:-3000}"
rm -rf "$out"
