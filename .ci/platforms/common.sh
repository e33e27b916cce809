# Sourced by the scripts beside it: a scratch folder removed on exit, apt packages installed on
# demand (CI machines start bare; nothing is cached outside the scratch folder), a host venv.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE=$ROOT/.ci/platforms
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT
export DEBIAN_FRONTEND=noninteractive

# apt_need PACKAGE...: install the Debian packages not installed yet
apt_need() {
    local missing=() p
    for p in "$@"; do dpkg -s "$p" > /dev/null 2>&1 || missing+=("$p"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    apt-get update -q > /dev/null
    apt-get install -y -q --no-install-recommends "${missing[@]}" > /dev/null
}

# host_venv PACKAGE...: a fresh venv in the scratch folder with these PyPI packages; sets PY
host_venv() {
    python3 -m venv "$SCRATCH/venv"
    "$SCRATCH/venv/bin/python" -m pip install -q -U pip "$@"
    PY=$SCRATCH/venv/bin/python
}

# source_tree: the committed tree (git archive of HANDRANK_REV, default HEAD), so that local build outputs do not leak in; sets SRC
source_tree() {
    SRC=$SCRATCH/src
    mkdir -p "$SRC"
    git -C "$ROOT" archive "${HANDRANK_REV:-HEAD}" | tar x -C "$SRC"
}
