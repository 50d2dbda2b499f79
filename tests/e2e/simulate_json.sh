#!/bin/sh
# simulate --json and --csv end to end: the SPEC section 5 keys are there and
# the numbers equal a case worked by hand.  Prices: tests/data/engine.
#
# 2 g5.xlarge for 10 hours; a g5.xlarge reservation (1-year partial upfront,
# 0.31/h + 2715.60, effective 0.62/h) from hour 4.
#   baseline:  hours 0-3 on demand 2 x 1.006 x 4 = 8.048
#              hours 4-9 0.62 + 1.006 = 1.626 x 6 = 9.756      total 17.804
#   plus-plan: a $0.50/h compute plan (g5.xlarge rate 0.70) on top:
#              each hour it covers 0.5/0.70 = 0.714286 instance-hours.
#              hours 0-3: 0.5 + (2 - 0.714286) x 1.006 = 1.793429 -> 7.173714
#              hours 4-9: 0.62 + 0.5 + (1 - 0.714286) x 1.006 = 1.407429
#                         -> 8.444571                          total 15.618286
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" simulate --quiet --json --csv "$out/csv" \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/ri-mid-window.csv" \
    --scenario "$src/tests/e2e/data/ri-mid-window.json" > "$out/run.json"
python3 - "$out/run.json" "$out/csv" <<'PY'
import csv, json, sys
doc = json.load(open(sys.argv[1]))
assert set(doc["window"]) >= {"start", "end", "hours"}, doc["window"]
assert doc["window"]["hours"] == 10
keys = {"name", "total_cost", "all_on_demand_cost", "savings", "savings_pct",
        "on_demand_cost", "reserved_cost", "savings_plan_cost", "spot_cost",
        "reserved_utilization", "savings_plan_utilization", "coverage",
        "useful_gpu_hours", "cost_per_useful_gpu_hour", "by_workload", "spot"}
s = {x["name"]: x for x in doc["strategies"]}
for x in s.values():
    missing = keys - set(x)
    assert not missing, missing
    assert {"interruptions_mean", "failed_attempt_cost_mean", "cost_p50",
            "cost_p95"} <= set(x["spot"])
    for w in ("training", "inference"):
        assert {"total_cost", "instance_hours"} <= set(x["by_workload"][w])
def near(a, b, what):
    assert abs(a - b) < 0.005, "%s: %r, expected %r" % (what, a, b)
b, p = s["baseline"], s["plus-plan"]
near(b["total_cost"], 17.804, "baseline total")
near(b["all_on_demand_cost"], 20 * 1.006, "all on demand")
near(b["savings"], 20.12 - 17.804, "baseline savings")
near(b["reserved_cost"], 6 * 0.62, "reserved cost")
near(b["reserved_utilization"], 1.0, "reserved utilization")
# coverage: 6 covered instance-hours of 20 launched, at the same rate
near(b["coverage"], 6 / 20, "coverage")
near(b["by_workload"]["inference"]["total_cost"], 17.804, "inference cost")
near(b["by_workload"]["inference"]["instance_hours"], 20, "inference hours")
near(p["total_cost"], 7.173714 + 8.444571, "plus-plan total")
near(p["savings_plan_utilization"], 1.0, "plan utilization")
assert b["cost_per_useful_gpu_hour"] is None  # no gpu_util in the trace
# the CSV tables agree with the JSON
rows = list(csv.DictReader(open(sys.argv[2] + "/monthly.csv")))
m = {r["strategy"]: r for r in rows}
near(float(m["baseline"]["total_cost"]), 17.804, "monthly csv")
# cash: on demand 14.084 + recurring 6 x 0.31 + upfront 2715.60
near(float(m["baseline"]["total_cash"]), 14.084 + 1.86 + 2715.6, "cash")
hours = [r for r in csv.DictReader(open(sys.argv[2] + "/hourly.csv"))
         if r["strategy"] == "baseline"]
assert len(hours) == 10
near(sum(float(r["total_cost"]) for r in hours), 17.804, "hourly sum")
charge = list(csv.DictReader(open(sys.argv[2] + "/chargeback.csv")))
near(sum(float(r["cost"]) for r in charge if r["strategy"] == "baseline"),
     17.804, "chargeback sum")
print("simulate_json: 1 passed, 0 failed")
PY
