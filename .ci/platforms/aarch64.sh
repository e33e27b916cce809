#!/usr/bin/env bash
# aarch64 Linux under emulation: the extensions cross-built on this x86_64 host with the package's
# own setup.py (Debian's aarch64-linux-gnu-gcc, against an arm64 CPython 3.11 unpacked from
# Debian's packages), then the compiled modules' tests run by that arm64 CPython under
# qemu-aarch64, with the test extra's aarch64 wheels from PyPI (fetched by the host's pip).
# Slow: emulation runs tens of times slower than native; docs/installation.md has the figures.
# Usage: [TESTS="tests/test_high.py ..."] [MARK="not slow"] .ci/platforms/aarch64.sh
# (default TESTS: the evaluators, iso, equity, showdown and the vector environments' kernels).
# Needs: Debian 12 (bookworm) x86_64 as root (dpkg --add-architecture arm64), PyPI.
#
# The cross build is setuptools' own, steered by three variables (the "crossenv" trick):
#   _PYTHON_SYSCONFIGDATA_NAME  the target's sysconfig (CC=aarch64-linux-gnu-gcc, EXT_SUFFIX)
#   PYTHONPATH                  where that _sysconfigdata module is (copied alone)
#   _PYTHON_HOST_PLATFORM       the wheel's platform tag (linux_aarch64)
# and CPPFLAGS (appended, where CFLAGS would replace the target's) puts the target's Python.h first.
. "$(dirname "$0")/common.sh"
apt_need qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross file
t_all=$(date +%s)

# the arm64 CPython: python3.11 and its headers with their library dependencies, unpacked
S=$SCRATCH/sysroot
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
apt-get update -q > /dev/null
mkdir -p "$SCRATCH/debs" "$S"
mapfile -t pkgs < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances --no-pre-depends \
    python3.11:arm64 libpython3.11-dev:arm64 libstdc++6:arm64 2>/dev/null \
    | grep -v '^ ' | grep ':arm64$' | grep -vE '^(dpkg|install-info|tar):' | sort -u)
(cd "$SCRATCH/debs" && apt-get download -q "${pkgs[@]}" > /dev/null 2>&1)
for d in "$SCRATCH"/debs/*.deb; do dpkg -x "$d" "$S"; done
export QEMU_LD_PREFIX=$S
"$S/usr/bin/python3.11" -c 'import platform; print("emulated python:", platform.machine())'

# the test extra's aarch64 wheels, installed by the host's pip (no emulation needed)
python3 -m pip install -q --target "$SCRATCH/arm64-site" --platform manylinux2014_aarch64 \
    --platform manylinux_2_28_aarch64 --python-version 3.11 --implementation cp --abi cp311 \
    --only-binary=:all: numpy pytest hypothesis pytest-benchmark tqdm gymnasium pettingzoo

# the cross build
source_tree
host_venv 'setuptools>=77' 'Cython>=3.0' build wheel
mkdir -p "$SCRATCH/xconf"
cp "$S/usr/lib/python3.11/_sysconfigdata__linux_aarch64-linux-gnu.py" "$SCRATCH/xconf/"
t0=$(date +%s)
(cd "$SRC" && env _PYTHON_HOST_PLATFORM=linux-aarch64 \
    _PYTHON_SYSCONFIGDATA_NAME=_sysconfigdata__linux_aarch64-linux-gnu PYTHONPATH="$SCRATCH/xconf" \
    CPPFLAGS="-I$S/usr/include/python3.11 -idirafter $S/usr/include" \
    "$PY" -m build --wheel --no-isolation --outdir "$SCRATCH/wheel" . > "$SCRATCH/build.log" 2>&1) \
    || { tail -40 "$SCRATCH/build.log"; exit 1; }
echo "cross build: $(( $(date +%s) - t0 )) s"
mkdir -p "$SCRATCH/installed"
python3 -m zipfile -e "$SCRATCH"/wheel/handrank-*linux_aarch64.whl "$SCRATCH/installed"
if find "$SCRATCH/installed" -name '*.so' -exec file {} + | grep -v 'ARM aarch64'; then
    echo "an extension that is not aarch64"; exit 1
fi

# the tests, emulated, from outside the tree against the cross-built extensions
targets=()
for t in ${TESTS:-tests/test_high.py tests/test_lowball.py tests/test_batch_kernels.py tests/test_omaha.py tests/test_shortdeck.py tests/test_iso.py tests/test_equity.py tests/test_showdown.py tests/test_bigtwo_vector.py tests/test_ofc_vector.py}; do
    targets+=("$SRC/$t")
done
cd "$SCRATCH"
t0=$(date +%s)
PYTHONPATH="$SCRATCH/installed:$SCRATCH/arm64-site" "$S/usr/bin/python3.11" -m pytest -q \
    -p no:cacheprovider -o addopts=-ra --rootdir "$SRC" -m "${MARK:-not slow}" "${targets[@]}"
echo "emulated tests: $(( $(date +%s) - t0 )) s; whole script: $(( $(date +%s) - t_all )) s"
