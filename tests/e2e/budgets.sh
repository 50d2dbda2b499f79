#!/bin/sh
# Monthly budgets by team and project (issue #38 item 3, SPEC 7.5), run from
# the example scenarios/budgets/scenario.json on a three-month trace priced
# by tests/e2e/data/policy-catalog.json: x.large at $10 an hour on demand
# (it has no spot price, so train-on-spot bills on demand too).  By hand:
#   team research (training): 1 x.large in January (744 h), 2 in February
#     (672 h), 1 in March: $7,440, $13,440, $7,440; its $10,000 budget is
#     crossed in month 2, February, and only then.
#   team platform, project servegen-m-large (inference): 1 x.large all 90
#     days: $7,440, $6,720, $7,440.  Against platform's $20,000: never over.
#     Against the project's $7,000: over in January and March.
#   Forecast after the trace (2026-04-01 to 2026-07-01): the inference
#     series is flat at 1 instance, priced at its own $10 an instance-hour:
#     April 720 h = $7,200, over the project's $7,000, so it is crossed in
#     2026-04; platform's $20,000 by no month (at most May's 744 h, $7,440).
set -eu
bin=$1
src=$2
out=$(mktemp -d)
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl budgets
trap 'rm -rf "$out"' EXIT
cat > "$out/t.csv" <<'CSV'
timestamp,step_s,instance_type,workload,instances,team,project
2026-01-01T00:00:00Z,2678400,x.large,training,1,research,r
2026-02-01T00:00:00Z,2419200,x.large,training,2,research,r
2026-03-01T00:00:00Z,2678400,x.large,training,1,research,r
2026-01-01T00:00:00Z,7776000,x.large,inference,1,platform,servegen-m-large
CSV
run() {
    GPUPLAN_TODAY=2026-04-02 "$bin" simulate --quiet \
        --pricing "$src/tests/e2e/data/policy-catalog.json" \
        --trace "$out/t.csv" --scenario "$src/scenarios/budgets/scenario.json" "$@"
}
run --json > "$out/r.json"
run --out "$out/r.xlsx" --csv "$out/csv" > "$out/r.txt"
python3 - "$out/r.json" "$out/r.txt" "$out/csv/budgets.csv" <<'PY'
import csv, json, sys
doc = json.load(open(sys.argv[1]))
def close(a, b, what):
    assert abs(a - b) <= 1e-6 * max(1, abs(b)), (what, a, b)
want = {("team", "research"): ([7440, 13440, 7440], [False, True, False], 10000),
        ("team", "platform"): ([7440, 6720, 7440], [False, False, False], 20000),
        ("project", "servegen-m-large"): ([7440, 6720, 7440],
                                          [True, False, True], 7000)}
assert [s["name"] for s in doc["strategies"]] == ["baseline", "train-on-spot"]
for s in doc["strategies"]:
    rows = s["budgets"]
    assert len(rows) == 9, rows
    for r in rows:
        kind = "team" if "team" in r else "project"
        spent, over, budget = want[(kind, r[kind])]
        k = ["2026-01", "2026-02", "2026-03"].index(r["month"])
        close(r["spent"], spent[k], (s["name"], r))
        assert r["over"] == over[k], (s["name"], r)
        close(r["budget"], budget, r)
    fc = {(("team" if "team" in f else "project"),
           f.get("team", f.get("project"))): f for f in s["budget_forecast"]}
    assert fc[("project", "servegen-m-large")]["crosses_in"] == "2026-04", fc
    close(fc[("project", "servegen-m-large")]["projected"], 7200, fc)
    assert fc[("team", "platform")]["crosses_in"] is None, fc
    close(fc[("team", "platform")]["projected"], 7440, fc)
text = open(sys.argv[2]).read()
line = [l for l in text.splitlines() if "team research" in l and "2026-02" in l]
assert len(line) == 1 and line[0].count("OVER") == 2, line
assert "project servegen-m-large: baseline 2026-04, train-on-spot 2026-04" \
    in text, text
rows = list(csv.DictReader(open(sys.argv[3])))
assert len(rows) == 18, len(rows)
feb = [r for r in rows if r["team"] == "research" and r["month"] == "2026-02"]
assert [r["over"] for r in feb] == ["true", "true"], feb
close(float(feb[0]["spent"]), 13440, feb)
proj = [r for r in rows if r["project"] == "servegen-m-large"]
assert {r["forecast_crosses_in"] for r in proj} == {"2026-04"}, proj
PY
"$PY" - "$out/r.xlsx" <<'PY'
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
ws = wb["Budgets"]
rows = [r for r in ws.iter_rows(values_only=True) if r[0]]
head = rows.index(next(r for r in rows if r[0] == "Team or project"))
months = rows[head + 1:head + 10]
feb = [r for r in months if r[0] == "team research" and r[1] == "2026-02"][0]
assert feb[2] == 10000 and abs(feb[3] - 13440) < 1e-6, feb
# the red fill: one rule, spent > the row's budget, over the spend columns
rules = [(str(cf.sqref), r.operator, r.formula)
         for cf in ws.conditional_formatting for r in cf.rules]
assert rules == [("D5:E13", "greaterThan", ["$C5"])], rules
PY
echo "budgets: 1 passed, 0 failed"
