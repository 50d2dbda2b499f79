#!/bin/sh
# The annual figures of renewal rows on recommend's Recommendations sheet
# are scaled over the hours each renewal's savings are over (README, Excel
# workbook: "On-demand spend replaced" is the window's net savings plus
# the commitment's window cost, scaled to a year).  Round-number catalog
# (tests/e2e/data/renewal-lapse-catalog.json): x.large at $10/h on
# demand, a reservation at 3 + 17520 / 8760 = $5/h.  Three weeks (504 h)
# from 2026-03-02 of 3 x.large; owned: 2 reservations ending 2026-03-16
# (336 h in, 168 h left) and 1 ending 2026-04-01, after the window.  The
# plan buys nothing (a third reservation would be used 168 of 504 hours,
# under its 50% break-even).  By hand:
# - renew 2, in the window: saves 2 x (10 - 5) x 168 = $1,680 over 168 h,
#   costs 2 x 5 x 168 = $1,680 there: replaces (1680 + 1680) x 8760 / 168
#   = $175,200 a year (2 x $10 x 8760), annual cost 2 x 5 x 8760 =
#   $87,600, annual net $87,600 (was $58,400 and -$29,200: over 504 h);
# - renew 1, after the window, valued over the whole window: saves
#   (10 - 5) x 504 = $2,520, costs 5 x 504 = $2,520: replaces $87,600 a
#   year, annual cost $43,800, annual net $43,800 (was $43,800 and $0: no
#   window cost, as it starts after the window).
set -eu
bin=$1
src=$2
GPUPLAN_TODAY=${GPUPLAN_TODAY:-2026-11-21}
export GPUPLAN_TODAY
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_renewal_annual
printf 'timestamp,step_s,instance_type,workload,instances\n2026-03-02T00:00:00Z,1814400,x.large,inference,3\n' \
    > "$out/t.csv"
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "commitments": [
 {"type": "reserved", "provider": "aws", "region": "us-east-1",
  "instance_type": "x.large", "count": 2, "term_years": 1,
  "payment": "partial_upfront", "start": "2025-03-16T00:00:00Z"},
 {"type": "reserved", "provider": "aws", "region": "us-east-1",
  "instance_type": "x.large", "count": 1, "term_years": 1,
  "payment": "partial_upfront", "start": "2025-04-01T00:00:00Z"}]}
JSON
"$bin" recommend --quiet --json --out "$out/r.xlsx" --csv "$out/r" \
    --pricing "$src/tests/e2e/data/renewal-lapse-catalog.json" \
    --trace "$out/t.csv" --scenario "$out/s.json" > "$out/r.json"
$PY "$src/tests/e2e/check_xlsx.py" recommend "$out/r.xlsx" "$out/r.json" \
    "$out/r"
$PY - "$out/r.xlsx" "$out/r.json" <<'PY'
import json, sys
import openpyxl
doc = json.load(open(sys.argv[2]))
assert not doc["plans"][1]["commitments"], doc["plans"][1]  # the premise
s = openpyxl.load_workbook(sys.argv[1], data_only=True)["Recommendations"]
head = [c.value for c in s[4]]
col = {h: i for i, h in enumerate(head)}
rows = {}
for r in s.iter_rows(min_row=5, values_only=True):
    if r[col["Action"]] and str(r[col["Action"]]).startswith("Renew: "):
        rows[r[col["Action"]]] = r
want = {
    # window net savings, annual cost, replaced per year, annual net
    # (the Action in plain words, gp_action_plain, since #39)
    "Renew: reserve 2 x.large (aws us-east-1) for 1 year, paid partly "
    "upfront": (1680, 87600, 175200, 87600),
    "Renew: reserve 1 x.large (aws us-east-1) for 1 year, paid partly "
    "upfront": (2520, 43800, 87600, 43800),
}
assert sorted(rows) == sorted(want), rows
for name, (net, annual, replaced, annual_net) in want.items():
    r = rows[name]
    got = (r[col["Net savings in the window"]], r[col["Annual cost"]],
           r[col["On-demand spend replaced per year"]],
           r[col["Annual net savings"]])
    for g, w in zip(got, (net, annual, replaced, annual_net)):
        assert abs(g - w) < 0.005, (name, got)
PY
echo "xlsx_renewal_annual: ok"
