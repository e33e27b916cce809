#!/usr/bin/env bash
# The GitHub Actions workflows checked offline (no GitHub, no actionlint binary): check-jsonschema's
# bundled GitHub workflow schema, zizmor --offline (pinning, permissions, injection, credentials;
# policy in .github/zizmor.yml), shellcheck on every bash `run:` block, and cibuildwheel's build
# list for each OS from pyproject's [tool.cibuildwheel]. Fails on any finding.
# Needs: PyPI; shellcheck from Debian.
. "$(dirname "$0")/common.sh"
apt_need shellcheck
host_venv check-jsonschema zizmor cibuildwheel ruamel.yaml
B=$SCRATCH/venv/bin
files=("$ROOT"/.github/workflows/*.yml)
rc=0
echo "== check-jsonschema (vendor.github-workflows, offline)"
"$B/check-jsonschema" --builtin-schema vendor.github-workflows "${files[@]}" || rc=1
echo "== zizmor --offline"
"$B/zizmor" --offline --config "$ROOT/.github/zizmor.yml" "${files[@]}" || rc=1
echo "== shellcheck on the run: blocks"
"$PY" - "${files[@]}" <<'PYEOF' || rc=1
import re, subprocess, sys
from ruamel.yaml import YAML
bad = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        doc = YAML(typ="safe").load(f)
    for job_name, job in (doc.get("jobs") or {}).items():
        shell = (job.get("defaults") or {}).get("run", {}).get("shell", "bash")
        for i, step in enumerate(job.get("steps") or []):
            if "run" not in step or step.get("shell", shell) not in ("bash", "sh"):
                continue
            script = re.sub(r"\$\{\{.*?\}\}", "GHA_EXPR", step["run"])
            done = subprocess.run(["shellcheck", "-s", "bash", "-"], input=script,
                                  capture_output=True, text=True)
            if done.returncode:
                bad += 1
                print(f"{path}: job {job_name} step {i}:\n{done.stdout}")
print(f"shellcheck: {bad} run block(s) with findings")
sys.exit(1 if bad else 0)
PYEOF
echo "== cibuildwheel build identifiers, CIBW_ARCHS=native as the wheels workflow sets it"
for p in linux macos windows; do
    printf '%-8s' "$p"
    (cd "$ROOT" && CIBW_ARCHS=native "$B/cibuildwheel" --print-build-identifiers --platform "$p" | tr '\n' ' ') || rc=1
    echo
done
exit "$rc"
