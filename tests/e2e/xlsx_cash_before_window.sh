#!/bin/sh
# The cash view leaves out an upfront paid before the window, even in the
# window's first month, and the workbook says so where it explains cash.
# Worked by hand (tests/data/engine/aws-test.json: g5.xlarge 1y
# partial_upfront $0.31/h + $2,715.60 upfront; effective 0.31 + 2715.6 /
# 8760 = $0.62/h): one g5.xlarge runs 2026-01-31T22:00 to 2026-02-01T02:00
# (the window, 4 hours); reservation A from 2026-01-15 (before the window),
# reservation B from 2026-02-01T00:00 (in it).
#   January cash: A's fees 2 h x 0.31 = 0.62 (not its 2,715.60 upfront);
#   February cash: A's and B's fees 2 x 2 h x 0.31 = 1.24 + B's upfront
#   2,715.60 = 2,716.84; on demand: none (A covers the instance).
#   Amortized reserved: January 2 x 0.62 = 1.24, February 2 x 2 x 0.62 = 2.48.
# Before, the Monthly cost sheet, Summary's "Cash paid in the window" and
# the Inputs assumptions all said "upfronts in the month they are paid",
# which January's 0.62 is not for an upfront paid on 2026-01-15.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_cash_before_window
cat > "$out/trace.csv" <<'CSV'
timestamp,instance_type,workload,instances
2026-01-31T22:00:00Z,g5.xlarge,inference,1
2026-01-31T23:00:00Z,g5.xlarge,inference,1
2026-02-01T00:00:00Z,g5.xlarge,inference,1
2026-02-01T01:00:00Z,g5.xlarge,inference,1
CSV
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "name": "cash",
 "commitments": [
  {"type": "reserved", "provider": "aws", "region": "us-east-1",
   "instance_type": "g5.xlarge", "count": 1, "term_years": 1,
   "payment": "partial_upfront", "start": "2026-01-15T00:00:00Z"},
  {"type": "reserved", "provider": "aws", "region": "us-east-1",
   "instance_type": "g5.xlarge", "count": 1, "term_years": 1,
   "payment": "partial_upfront", "start": "2026-02-01T00:00:00Z"}]}
JSON
"$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$out/trace.csv" --scenario "$out/s.json" --csv "$out/csv" \
    --out "$out/r.xlsx" > /dev/null
"$PY" - "$out" <<'PYEOF'
import csv, sys
import openpyxl
d = sys.argv[1]
def near(a, b, what):
    assert isinstance(a, (int, float)) and abs(a - b) < 1e-6, \
        "%s: %r, expected %r" % (what, a, b)
m = {r["month"]: r for r in csv.DictReader(open(d + "/csv/monthly.csv"))}
near(float(m["2026-01"]["reserved_cash"]), 0.62, "January cash")
near(float(m["2026-02"]["reserved_cash"]), 2716.84, "February cash")
near(float(m["2026-01"]["reserved_cost"]), 1.24, "January amortized")
near(float(m["2026-02"]["reserved_cost"]), 2.48, "February amortized")
wb = openpyxl.load_workbook(d + "/r.xlsx")
mc = wb["Monthly cost"]
assert mc["A2"].value == (
    "amortized: commitments spread over the hours they are active; cash: "
    "upfront payments in the month they are paid, those paid before the "
    "window left out; a month holds its hours in the window only"), \
    mc["A2"].value
rows = {(r[0].value, r[1].value): r for r in mc.iter_rows(min_row=5)
        if r[0].value == "baseline"}
# the column by its header: a purchasing model added moves it
cash = [c.value for c in mc[4]].index("Reserved (cash)")
near(rows[("baseline", "2026-01")][cash].value, 0.62, "sheet January cash")
near(rows[("baseline", "2026-02")][cash].value, 2716.84, "sheet February cash")
su = wb["Summary"]
cash = [r for r in su.iter_rows() if r[0].value == "Cash paid in the window"]
assert len(cash) == 1, "no cash headline"
near(cash[0][1].value, 2717.46, "Summary cash")
assert cash[0][2].value == "upfronts paid in the window, fees as billed", \
    cash[0][2].value
notes = [c.value for r in wb["Inputs"].iter_rows() for c in r
         if isinstance(c.value, str) and c.value.startswith("Commitments are")]
assert notes == [
    "Commitments are amortized: effective hourly x quantity x the hours "
    "they are active, used or not; the cash view puts upfronts in the month "
    "they are paid, those paid before the window left out."], notes
PYEOF
