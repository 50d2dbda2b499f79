#!/bin/sh
# Purchase policies replayed over a trace (issue #36, SPEC 7.3), worked by
# hand on tests/e2e/data/policy-catalog.json: x.large at $10/h on demand, a
# 1-year reservation at $5/h effective ($3/h + $17,520 upfront), a 1-year
# compute plan at $6 per instance-hour.  90 days from 2026-01-01 (744 h in
# January, 672 in February, 744 in March; 2,160 h) of 5 x.large: all on
# demand $108,000.  Reviews fall on the first of each month with 30 days of
# history behind them: 2026-02-01 and 2026-03-01.
#
# aws (30-day lookback, 1 year): on Feb 1 the lookback's optimum is 5
# reservations (cheaper than the plan); on Mar 1 nothing more.
#   total  37,200 + 672 x 25 + 744 x 25 = $72,600; ESR 35,400 / 108,000
#   coverage (672 + 744) x 50 / 108,000 = 0.655556; utilization 1
#   upfront in February 5 x 17,520 = $87,600
#   owed after 2026-04-01: 25/h x 7,344 h (to 2027-02-01) = $183,600,
#   over March's $18,600 = 9.871 months
# ladder (4 tranches of a 0.8 target): each review buys a compute plan of
#   0.8 x (5 x $6) / 4 = $6/h, covering one instance:
#   total 37,200 + 672 x 46 + 744 x 42 = $99,360; ESR 8,640 / 108,000 = 0.08
#   coverage (672 x 10 + 744 x 20) / 108,000 = 0.2
#   owed 6 x 7,344 + 6 x 8,016 (to 2027-03-01) = $92,160 = 2.9493 months
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf 'timestamp,step_s,instance_type,workload,instances\n2026-01-01T00:00:00Z,7776000,x.large,inference,5\n' \
    > "$out/t.csv"
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "policies": [
 {"name": "aws", "kind": "aws", "review": "monthly", "lookback": "30d",
  "terms": [1], "payment": "partial_upfront"},
 {"name": "ladder", "kind": "ladder", "tranches": 4, "target_coverage": 0.8,
  "payment": "no_upfront"}]}
JSON
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet --json \
    --pricing "$src/tests/e2e/data/policy-catalog.json" \
    --trace "$out/t.csv" --scenario "$out/s.json" > "$out/r.json"
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet \
    --pricing "$src/tests/e2e/data/policy-catalog.json" \
    --trace "$out/t.csv" --scenario "$out/s.json" --out "$out/r.xlsx" \
    --csv "$out/csv" > "$out/r.txt"
python3 - "$out/r.json" "$out/r.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
aws, ladder = doc["policies"]
def close(a, b, what):
    assert abs(a - b) <= 1e-9 * max(1, abs(b)), (what, a, b)
assert [(c["type"], c["count"], c["bought_at"]) for c in aws["purchases"]] \
    == [("reserved", 5.0, "2026-02-01T00:00:00Z")], aws["purchases"]
close(aws["total_cost"], 72600, "aws total")
close(aws["all_on_demand_cost"], 108000, "all on demand")
close(aws["esr"], 35400 / 108000, "aws esr")
close(aws["coverage"], 70800 / 108000, "aws coverage")
close(aws["commitment_utilization"], 1, "aws utilization")
close(aws["lock_in_cost"], 183600, "aws lock-in")
close(aws["lock_in_months"], 183600 / 18600, "aws lock-in months")
m = {x["month"]: x for x in aws["monthly"]}
close(m["2026-02"]["upfront"], 87600, "aws upfront")
close(m["2026-01"]["esr"], 0, "january esr")
close(m["2026-02"]["esr"], 0.5, "february esr")
assert [(c["kind"], c["hourly_commitment"], c["bought_at"][:10])
        for c in ladder["purchases"]] == [
    ("compute", 6.0, "2026-02-01"), ("compute", 6.0, "2026-03-01")], ladder
close(ladder["total_cost"], 99360, "ladder total")
close(ladder["esr"], 0.08, "ladder esr")
close(ladder["coverage"], 0.2, "ladder coverage")
close(ladder["lock_in_cost"], 92160, "ladder lock-in")
close(ladder["lock_in_months"], 92160 / 31248, "ladder lock-in months")
txt = open(sys.argv[2]).read()
assert "purchase policies, replayed" in txt and "$72,600.00" in txt, txt
PY
python3 - "$out/csv/policies.csv" <<'PY'
import csv, sys
rows = {(r["policy"], r["month"]): r for r in csv.DictReader(open(sys.argv[1]))}
assert abs(float(rows[("aws", "all")]["esr"]) - 35400 / 108000) < 1e-9, rows
assert abs(float(rows[("aws", "2026-02")]["upfront"]) - 87600) < 1e-6, rows
assert abs(float(rows[("ladder", "2026-03")]["esr"]) - (1 - 42 / 50)) < 1e-9
PY
/usr/bin/python3 - "$out/r.xlsx" <<'PY'
import sys
try:
    import openpyxl
except ImportError:
    sys.exit(0)
ws = openpyxl.load_workbook(sys.argv[1])["Policies"]
rows = [r for r in ws.iter_rows(values_only=True) if r and r[0] in ("aws", "ladder")]
by = {r[0]: r for r in rows}
assert abs(by["aws"][4] - 35400 / 108000) < 1e-9, by  # ESR
assert abs(by["ladder"][5] - 0.2) < 1e-9, by          # coverage
assert abs(by["aws"][8] - 183600) < 1e-6, by          # owed after
PY
echo "policies_replay: 1 passed, 0 failed"
