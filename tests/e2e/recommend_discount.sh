#!/bin/sh
# A scenario discount takes the same fraction off every price (README,
# "Billing"), so the upfront cash and the annual cost of what a plan buys
# are the catalog's times 0.8 with "discount": 0.2, and the ratios
# (savings_pct, break-even) are those of the same run without it.  The
# upfront and annual figures were the catalog's undiscounted, beside a
# discounted cash ledger, and a reservation's savings_pct was 0.8 of the
# undiscounted run's.
#
# By hand, on the recommend_json.sh case (one-pool.csv, p4d.24xlarge:
# 10 reserved at $20.50/h no upfront, 150 hours), every figure x 0.8:
#   policy cost  65,540.00 x 0.8 = 52,432.00
#   plan cost    47,135.00 x 0.8 = 37,708.00
#   net savings  18,405.00 x 0.8 = 14,724.00
# That reservation has no upfront (0 x 0.8 = 0 proves nothing), so a
# second case buys one that has: renewal-lapse-catalog.json's x.large
# ($10/h on demand; 1-year partial upfront $3/h + $17,520) run 5 at a
# time for two weeks (336 h).  Reserving all 5 (used every hour, break-even
# 5 / 10 = 50%), with 20% off:
#   upfront      5 x 17,520 x 0.8           = 70,080.00
#   policy cost  5 x 10 x 336 x 0.8         = 13,440.00
#   plan cost    5 x (3 + 17520/8760) x 336 x 0.8 = 5 x 5 x 336 x 0.8
#                                           =  6,720.00
#   net savings                             =  6,720.00, savings_pct 50%
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat=$src/tests/data/engine/aws-test.json
trace=$src/tests/e2e/data/one-pool.csv
printf '{"schema": "gpuplan-scenario/1", "adjustments": {"discount": 0.2}}\n' \
    > "$out/disc.json"
"$bin" recommend --quiet --pricing "$cat" --trace "$trace" --json \
    > "$out/list.json"
"$bin" recommend --quiet --pricing "$cat" --trace "$trace" \
    --scenario "$out/disc.json" --json > "$out/disc.json.out"
python3 - "$cat" "$out/list.json" "$out/disc.json.out" <<'PY'
import json, sys
types = json.load(open(sys.argv[1]))["instance_types"]
plain, disc = (json.load(open(p)) for p in sys.argv[2:4])
def upfront(a):
    if a["type"] == "reserved":
        o = [r for r in types[a["instance_type"]]["reserved"]
             if r["term_years"] == a["term_years"]
             and r["payment"] == a["payment"]][0]
        return a["count"] * o["upfront"]
    share = {"no_upfront": 0, "partial_upfront": 0.5, "all_upfront": 1}
    return a["hourly_commitment"] * 8760 * a["term_years"] * share[a["payment"]]
bought = [a for a in disc["actions"] if a["type"] != "routing"]
assert any(a["type"] == "reserved" for a in bought), disc["actions"]
for a in bought:
    assert abs(a["upfront"] - 0.8 * upfront(a)) < 0.01, (a, upfront(a))
for p in disc["plans"]:
    want = sum(0.8 * upfront(c) for c in p["commitments"])
    assert abs(p["upfront"] - want) < 0.01, (p["name"], p["upfront"], want)
# the test catalog has no "estimate": true rate, so no warning says the
# rates are estimates (it was printed whatever the catalog)
assert not [w for w in plain["inputs"]["warnings"] if "estimate" in w], \
    plain["inputs"]["warnings"]
# the hand figures above
def near(got, want, what):
    assert abs(got - want) < 0.005, "%s: %r, expected %r" % (what, got, want)
near(disc["baseline"]["policy_cost"], 65540 * 0.8, "policy cost")
near(disc["plan"]["total_cost"], 47135 * 0.8, "plan cost")
near(disc["plan"]["net_savings"], 18405 * 0.8, "net savings")
# the same purchases as without the discount, with the same ratios
for a, b in zip(plain["actions"], disc["actions"]):
    assert a["type"] == b["type"], (a, b)
    if a["type"] == "reserved":
        assert abs(a["savings_pct"] - b["savings_pct"]) < 1e-6, (a, b)
        assert abs(a["breakeven_utilization"]
                   - b["breakeven_utilization"]) < 1e-9, (a, b)
PY

# a reservation with an upfront payment: the upfront is discounted too
printf 'timestamp,step_s,instance_type,workload,instances\n2026-03-02T00:00:00Z,1209600,x.large,inference,5\n' \
    > "$out/x.csv"
"$bin" recommend --quiet --json \
    --pricing "$src/tests/e2e/data/renewal-lapse-catalog.json" \
    --trace "$out/x.csv" --scenario "$out/disc.json" > "$out/x.json"
python3 - "$out/x.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def near(got, want, what):
    assert abs(got - want) < 0.005, "%s: %r, expected %r" % (what, got, want)
acts = doc["actions"]
assert len(acts) == 1 and acts[0]["type"] == "reserved", acts
a = acts[0]
assert a["count"] == 5 and a["payment"] == "partial_upfront", a
near(a["upfront"], 5 * 17520 * 0.8, "action upfront")
near(doc["plan"]["upfront"], 5 * 17520 * 0.8, "plan upfront")
near(doc["baseline"]["policy_cost"], 5 * 10 * 336 * 0.8, "policy cost")
near(doc["plan"]["total_cost"], 5 * 5 * 336 * 0.8, "plan cost")
near(a["net_savings"], 5 * (10 - 5) * 336 * 0.8, "net savings")
near(a["savings_pct"], 0.5, "savings pct")
near(a["breakeven_utilization"], 0.5, "break-even")
PY
echo "recommend_discount: ok"
