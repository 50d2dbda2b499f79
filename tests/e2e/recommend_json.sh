#!/bin/sh
# recommend --json end to end on a case worked by hand (prices:
# tests/data/engine/aws-test.json, where p4d.24xlarge has reservations at
# 20.50/h 1-year no upfront and no savings-plan rates).
#
# Demand: 150 hours, 10 p4d.24xlarge in 100 of them and 20 in the other 50.
# r = 20.50 / 32.77 = 0.6256: the n-th reserved instance pays if demand
# reaches n in at least 62.56% of hours.  Demand >= 10 in 100% of hours,
# >= 11 in 33%: reserve 10.
#   policy cost  (100 x 10 + 50 x 20) x 32.77              = 65,540.00
#   plan cost    10 x 20.50 x 150 + 50 x 10 x 32.77        = 47,135.00
#   net savings                                             = 18,405.00
# Break-even 62.56%; expected utilization 100%.  The hindsight optimum is
# the same plan (it is the (1 - r) quantile), so captured_fraction = 1.
# The low-demand case repeats the window's lowest day; every day here is
# alike (20 at every third hour, 24 being a multiple of 3), so the case is
# the trace itself and the plan saves the same 18,405.00 in it.
set -eu
bin=$1
src=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$bin" recommend --quiet --json \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/one-pool.csv" > "$out"
python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def near(a, b, what, tol=0.005):
    assert abs(a - b) <= tol, "%s: %r, expected %r" % (what, a, b)
for k in ("window", "baseline", "actions", "plan", "hindsight_optimal",
          "captured_fraction", "plans"):
    assert k in doc, k
near(doc["baseline"]["policy_cost"], 65540.0, "policy cost")
near(doc["baseline"]["all_on_demand_cost"], 65540.0, "all on demand")
near(doc["plan"]["total_cost"], 47135.0, "plan cost")
near(doc["plan"]["net_savings"], 18405.0, "plan net savings")
near(doc["hindsight_optimal"]["net_savings"], 18405.0, "hindsight")
near(doc["captured_fraction"], 1.0, "captured", 1e-9)
acts = doc["actions"]
assert len(acts) == 1, acts
a = acts[0]
for k in ("rank", "type", "provider", "region", "instance_type",
          "term_years", "payment", "count", "upfront", "net_savings",
          "savings_pct", "breakeven_utilization", "expected_utilization",
          "downside_net_savings"):
    assert k in a, k
assert a["rank"] == 1 and a["type"] == "reserved"
assert a["instance_type"] == "p4d.24xlarge" and a["count"] == 10
assert a["term_years"] == 1 and a["payment"] == "no_upfront"
near(a["net_savings"], 18405.0, "action net savings")
near(a["breakeven_utilization"], 20.5 / 32.77, "break-even", 1e-9)
near(a["expected_utilization"], 1.0, "expected utilization", 1e-9)
# savings_pct: net savings over the on-demand value of what it reserves,
# 10 x 32.77 x 150 = 49,155
near(a["savings_pct"], 18405.0 / 49155.0, "savings pct", 1e-9)
assert "in 100% of hours" in a["reason"] and "63%" in a["reason"], a["reason"]
assert [p["name"] for p in doc["plans"]] == \
    ["conservative", "balanced", "aggressive"]
near(a["downside_net_savings"], 18405.0, "action, low-demand case")
near(doc["plans"][1]["downside_net_savings"], 18405.0,
     "balanced plan, low-demand case")
print("recommend_json: 1 passed, 0 failed")
PY

# The action, pasted as it is into a scenario's add_commitments (its
# figures are read past), bills to the plan cost worked above: 47,135.00.
scen=$(mktemp)
trap 'rm -f "$out" "$scen"' EXIT
python3 - "$out" "$scen" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["actions"][0]
json.dump({"schema": "gpuplan-scenario/1",
           "strategies": [{"name": "bought", "add_commitments": [a]}]},
          open(sys.argv[2], "w"))
PY
"$bin" simulate --quiet --json --scenario "$scen" \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/one-pool.csv" > "$out"
python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
s = {g["name"]: g for g in doc["strategies"]}
assert abs(s["bought"]["total_cost"] - 47135.0) <= 0.005, s["bought"]
# its upfront is the catalog's (0 for no upfront): no warning about it
assert not [w for w in doc["inputs"]["warnings"]
            if "is not what the catalogs charge" in w], doc["inputs"]["warnings"]
print("recommend_json: action fed back, 1 passed, 0 failed")
PY

# Every action carries SPEC section 5's keys, the routing action too
# (training on spot, first on the bundled sample): it buys nothing, so
# its purchase keys are null and its upfront 0.
"$bin" recommend --quiet --json > "$out"
python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
keys = ("rank", "type", "provider", "region", "term_years", "payment",
        "upfront", "net_savings", "savings_pct", "breakeven_utilization",
        "expected_utilization", "downside_net_savings")
routing = [a for a in doc["actions"] if a["type"] == "routing"]
assert len(routing) == 1, doc["actions"]
for a in doc["actions"]:
    for k in keys:
        assert k in a, (a["type"], k)
    assert "instance_type" in a or "kind" in a, a
    assert "count" in a or "hourly_commitment" in a, a
r = routing[0]
assert r["upfront"] == 0 and r["count"] is None and r["term_years"] is None
# the bundled catalogs mark the sample's two types' commitment rates as
# estimates ("estimate": true): the warning names both
w = [x for x in doc["inputs"]["warnings"] if "estimates" in x]
assert len(w) == 1 and "g6e.xlarge" in w[0] and "p4d.24xlarge" in w[0], w
print("recommend_json: routing keys, 1 passed, 0 failed")
PY
