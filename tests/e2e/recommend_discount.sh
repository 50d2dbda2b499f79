#!/bin/sh
# A scenario discount takes the same fraction off every price (README,
# "Billing"), so the upfront cash and the annual cost of what a plan buys
# are the catalog's times 0.8 with "discount": 0.2, and the ratios
# (savings_pct, break-even) are those of the same run without it.  The
# upfront and annual figures were the catalog's undiscounted, beside a
# discounted cash ledger, and a reservation's savings_pct was 0.8 of the
# undiscounted run's.
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
# the same purchases as without the discount, with the same ratios
for a, b in zip(plain["actions"], disc["actions"]):
    assert a["type"] == b["type"], (a, b)
    if a["type"] == "reserved":
        assert abs(a["savings_pct"] - b["savings_pct"]) < 1e-6, (a, b)
        assert abs(a["breakeven_utilization"]
                   - b["breakeven_utilization"]) < 1e-9, (a, b)
PY
echo "recommend_discount: ok"
