#!/bin/sh
# A label longer than an Excel cell holds (32,767 characters, Excel's
# documented limit) still shows in the workbook, cut to 32,767 characters:
# libxlsxwriter refuses a longer string and used to leave the cell empty.
# Trace: 5 hours of one g5.xlarge, team = 40,000 "x" then "é" (2 bytes, so
# the cut is counted in characters), project "p".  Expected, by hand: the
# Chargeback row of the baseline has team = 32,767 "x" (the first 32,767
# characters) and project "p".
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_long_label
"$PY" - "$out/trace.csv" <<'PYEOF'
import sys
team = "x" * 40000 + "\u00e9"
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("timestamp,instance_type,workload,instances,gpu_util,team,project\n")
    for h in range(5):
        f.write("%d,g5.xlarge,training,1,50,%s,p\n" % (1767571200 + h * 3600, team))
PYEOF
"$bin" simulate --quiet --trace "$out/trace.csv" \
    --pricing "$src/tests/data/engine/aws-test.json" --out "$out/r.xlsx" \
    >/dev/null 2>&1
"$PY" - "$out/r.xlsx" <<'PYEOF'
import sys
import openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Chargeback"]
rows = [r for r in ws.iter_rows(values_only=True) if r[0] == "baseline"]
assert len(rows) == 1, rows
team, project = rows[0][1], rows[0][2]
assert team == "x" * 32767, "team cell: %r" % (team if team is None else len(team))
assert project == "p", project
PYEOF
echo "xlsx_long_label: ok"
