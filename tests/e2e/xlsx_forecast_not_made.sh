#!/bin/sh
# recommend and simulate --out when the workbook's 13-week forecast cannot
# be made: the user is told, as of any warning of the run (stderr, the
# JSON's inputs.warnings, the workbook's Summary), and the Forecast sheet
# says so; the command still succeeds and writes the report.
#
# Trace: 5 hours of 2 g5.xlarge inference instances, ending at
# 9999-12-31T23:00:00Z (GP_TIME_LATEST): the forecast would start there,
# with no hour left to forecast ("gpuplan forecast" on it is an error).
# Before, the Forecast sheet said "not computed in this run" and pointed at
# "gpuplan forecast --out", with no word on stderr, in the JSON or on
# Summary.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_forecast_not_made
cat > "$dir/t.csv" <<'EOF'
timestamp,instance_type,instances,workload
9999-12-31T18:00:00Z,g5.xlarge,2,inference
9999-12-31T19:00:00Z,g5.xlarge,2,inference
9999-12-31T20:00:00Z,g5.xlarge,2,inference
9999-12-31T21:00:00Z,g5.xlarge,2,inference
9999-12-31T22:00:00Z,g5.xlarge,2,inference
EOF
export GPUPLAN_TODAY=2026-11-21
set -- --pricing "$src/pricing/aws/us-east-1.json" --trace "$dir/t.csv"
"$bin" recommend "$@" --out "$dir/r.xlsx" --json > "$dir/r.json" \
    2> "$dir/r.err"
"$bin" simulate "$@" --out "$dir/s.xlsx" --json > "$dir/s.json" \
    2> "$dir/s.err"
"$PY" - "$dir" <<'PYEOF'
import json, sys, openpyxl
d = sys.argv[1]
want = ("the workbook's Forecast sheet is empty: the 13-week forecast could "
        "not be made (")
why = "there is no hour left to forecast)"
for run in ("r", "s"):
    err = open("%s/%s.err" % (d, run)).read()
    lines = [l for l in err.splitlines() if want in l]
    assert len(lines) == 1 and lines[0].startswith(
        "gpuplan %s: warning: " % ("recommend" if run == "r" else "simulate")), err
    assert lines[0].endswith(why), lines[0]
    doc = json.load(open("%s/%s.json" % (d, run)))
    warned = [w for w in doc["inputs"]["warnings"] if w.startswith(want)]
    assert len(warned) == 1 and warned[0].endswith(why), doc["inputs"]
    wb = openpyxl.load_workbook("%s/%s.xlsx" % (d, run))
    summary = [c for r in wb["Summary"].iter_rows(values_only=True)
               for c in r if isinstance(c, str) and c.startswith(want)]
    assert summary == warned, summary
    sheet = [c for r in wb["Forecast"].iter_rows(values_only=True)
             for c in r if c is not None]
    assert "not computed in this run" in sheet, sheet
    assert ("the 13-week forecast could not be made: the warnings on "
            "Summary say why") in sheet, sheet
PYEOF
# --quiet keeps it off stderr, but not out of the JSON
"$bin" simulate "$@" --out "$dir/q.xlsx" --json --quiet > "$dir/q.json" \
    2> "$dir/q.err"
test ! -s "$dir/q.err"
grep -q "Forecast sheet is empty" "$dir/q.json"
