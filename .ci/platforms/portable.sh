#!/usr/bin/env bash
# The forced-portable build: HANDRANK_PORTABLE=1 makes every kernel take its plain-C path
# (src/handrank/_bits.h: no builtins, no intrinsics, no SSE2, no CPU dispatch), the code that a
# compiler we do not know runs. Installs the package that way in a fresh venv with the [test]
# extra and runs the tests against it, HANDRANK_PORTABLE=1 also set for them so that
# tests/test_bits.py checks the kernels report "portable".
# Usage: [TESTS="tests/test_high.py ..."] [MARK="not slow"] .ci/platforms/portable.sh
# (default: every test file, -m "not slow"). Needs: a C compiler, PyPI.
. "$(dirname "$0")/common.sh"
source_tree
python3 -m venv "$SCRATCH/venv"
t0=$(date +%s)
HANDRANK_PORTABLE=1 "$SCRATCH/venv/bin/python" -m pip install -q "$SRC[test,rl]"
echo "portable build and install: $(( $(date +%s) - t0 )) s"
targets=()
for t in ${TESTS:-tests}; do targets+=("$SRC/$t"); done
cd "$SCRATCH"          # outside the tree: the installed, portable extensions are the ones tested
t0=$(date +%s)
HANDRANK_PORTABLE=1 PATH="$SCRATCH/venv/bin:$PATH" "$SCRATCH/venv/bin/python" -m pytest -q \
    -p no:cacheprovider -o addopts=-ra --rootdir "$SRC" -m "${MARK:-not slow}" "${targets[@]}"
echo "portable tests: $(( $(date +%s) - t0 )) s"
