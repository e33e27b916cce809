#!/usr/bin/env bash
# The package built with clang (CC=clang-16: the compiler family of macOS and of clang-cl) from
# the sdist, as cibuildwheel builds, and its fast tests run on that build from outside the tree;
# the build fails on any compiler error, and its warnings are listed.
# Usage: [TESTS="tests/test_high.py ..."] [MARK="not slow"] .ci/platforms/clang.sh
# (default: every test file). Needs: Debian's clang-16, PyPI.
. "$(dirname "$0")/common.sh"
apt_need clang-16
source_tree
host_venv build
"$PY" -m build -q --sdist --outdir "$SCRATCH/dist" "$SRC" > /dev/null
tar xzf "$SCRATCH"/dist/handrank-*.tar.gz -C "$SCRATCH"
sdist_dir=$(ls -d "$SCRATCH"/handrank-*/)
python3 -m venv "$SCRATCH/test-venv"
t0=$(date +%s)
CC=clang-16 "$SCRATCH/test-venv/bin/python" -m pip install -v "$sdist_dir[test,rl]" > "$SCRATCH/build.log" 2>&1 \
    || { tail -40 "$SCRATCH/build.log"; exit 1; }
grep -q 'clang-16' "$SCRATCH/build.log" || { echo "the build did not run clang-16"; exit 1; }
echo "clang build and install: $(( $(date +%s) - t0 )) s; warnings from handrank's sources:"
grep -E 'src/handrank/.*: warning:' "$SCRATCH/build.log" | sort -u | head -20 || true
targets=()
for t in ${TESTS:-tests}; do targets+=("$sdist_dir$t"); done
cd "$SCRATCH"
t0=$(date +%s)
PATH="$SCRATCH/test-venv/bin:$PATH" "$SCRATCH/test-venv/bin/python" -m pytest -q -p no:cacheprovider \
    -o addopts=-ra --rootdir "$sdist_dir" -m "${MARK:-not slow}" "${targets[@]}"
echo "tests on the clang build: $(( $(date +%s) - t0 )) s"
