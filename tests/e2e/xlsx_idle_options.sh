#!/bin/sh
# --idle-threshold and --idle-min-hours change the idle figures of
# simulate's and recommend's workbooks (Idle, Summary's warnings): the
# Inputs sheet lists them among the options given that change the numbers,
# as it does --runs or --step.  It used to leave them out, so a workbook
# made with --idle-threshold 60 showed 4.0 idle GPU-hours on
# tests/e2e/data/idle-host.csv where the default gives 3.0, and said the
# options were "none: the defaults".
# Values as given: 60 reads "60%", 1.5 reads "1.5 hours", 2h reads
# "2 hours" (the option's hours), 1 reads "1 hour"; not given, neither is
# listed.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_idle_options
export GPUPLAN_TODAY=2026-01-07
set -- --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/idle-host.csv"
"$bin" simulate "$@" --idle-threshold 60 --idle-min-hours 1.5 \
    --out "$dir/simulate.xlsx" > /dev/null
"$bin" recommend "$@" --runs 10 --idle-min-hours 2h \
    --out "$dir/recommend.xlsx" > /dev/null
"$bin" simulate "$@" --idle-min-hours 1 --out "$dir/one.xlsx" > /dev/null
"$bin" simulate "$@" --out "$dir/defaults.xlsx" > /dev/null
"$PY" - "$dir" <<'PYEOF'
import sys, openpyxl
d = sys.argv[1]

def options(path):
    """The Inputs sheet's block of options given: {label: value}."""
    rows = [r for r in openpyxl.load_workbook(path)["Inputs"]
            .iter_rows(values_only=True)]
    labels = [r[0] for r in rows]
    i = labels.index("Options given that change the numbers") + 1
    out = {}
    while rows[i][0]:
        out[rows[i][0]] = rows[i][1]
        i += 1
    return out

o = options(d + "/simulate.xlsx")
assert o == {"--idle-threshold": "60% (idle GPUs: gpu_util below it)",
             "--idle-min-hours": "1.5 hours (idle GPUs: spans at least "
             "this long)"}, o
o = options(d + "/recommend.xlsx")
assert o == {"--runs": 10,
             "--idle-min-hours": "2 hours (idle GPUs: spans at least "
             "this long)"}, o
o = options(d + "/one.xlsx")
assert o == {"--idle-min-hours": "1 hour (idle GPUs: spans at least "
             "this long)"}, o
o = options(d + "/defaults.xlsx")
assert o == {"none: the defaults": None}, o
print("xlsx_idle_options: ok")
PYEOF
