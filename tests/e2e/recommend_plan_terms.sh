#!/bin/sh
# A plan's max_term_years is the longest term it buys (the workbook's
# "Longest term (years)"), and a plan that buys nothing says so.  They
# were the terms each plan was allowed (1, 1, 3) and every risk began
# "1-year terms; ..." even with no commitment in the plan.
#
# 1. Nothing pays: 2 days of the test catalog's p4d.24xlarge
#    (tests/data/engine/aws-test.json: reserved $20.50/h against $32.77 on
#    demand, break-even 62.6%) with 1 instance in 6 of the 48 hours, 12.5%
#    of the hours, and no savings plan for p4d.  All three plans buy
#    nothing: max_term_years null (blank in plans.csv and the workbook), and
#    the risk "buys no commitments; in the low-demand case it saves $0.00
#    over the window" (no commitment, no routing: the low case costs what
#    the policy does).
# 2. The test catalog has 1-year offers only, so on tests/e2e/data/
#    one-pool.csv the aggressive plan, allowed 3-year terms, buys 1-year
#    ones: its max_term_years is 1 (recommend_risk_terms.sh checks its
#    risk).
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_plan_terms
cat="$src/tests/data/engine/aws-test.json"
"$PY" - "$out/t.csv" <<'PYEOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(48):
        t = 1767571200 + h * 3600  # 2026-01-05T00:00:00Z
        f.write(f"{t},p4d.24xlarge,inference,{1 if h % 8 == 0 else 0}\n")
PYEOF
GPUPLAN_TODAY=2026-01-08 "$bin" recommend --quiet --pricing "$cat" \
    --trace "$out/t.csv" --json --csv "$out/csv" --out "$out/r.xlsx" \
    > "$out/r.json"
GPUPLAN_TODAY=2026-01-08 "$bin" recommend --quiet --pricing "$cat" \
    --trace "$src/tests/e2e/data/one-pool.csv" --json > "$out/one.json"
"$PY" - "$out" <<'PYEOF'
import csv, json, sys
import openpyxl
out = sys.argv[1]
rec = json.load(open(f"{out}/r.json"))
assert rec["actions"] == [], rec["actions"]  # the premise
for p in rec["plans"]:
    assert p["commitments"] == [], p
    assert p["max_term_years"] is None, p
    assert p["risk"] == ("buys no commitments; in the low-demand case it "
                         "saves $0.00 over the window"), p["risk"]
with open(f"{out}/csv/plans.csv") as f:
    rows = list(csv.DictReader(f))
assert [r["max_term_years"] for r in rows] == ["", "", ""], rows
ws = openpyxl.load_workbook(f"{out}/r.xlsx")["Plans"]
head = [r for r in ws.iter_rows() if r[0].value == "Plan"][0]
col = [c.value for c in head].index("Longest term (years)") + 1
got = [ws.cell(row=head[0].row + 1 + i, column=col).value for i in range(3)]
assert got == [None, None, None], got

plans = {p["name"]: p for p in json.load(open(f"{out}/one.json"))["plans"]}
for name, p in plans.items():
    terms = {c["term_years"] for c in p["commitments"]}
    assert terms == {1}, (name, p["commitments"])
    assert p["max_term_years"] == 1, (name, p["max_term_years"])
PYEOF
echo "recommend_plan_terms: ok"
