#!/bin/sh
# Two ways a recommendation used to claim more than it had.
#
# 1. Every purchase it lists pays for itself.  On the bundled sample (real
#    Helios and ServeGen demand, bundled catalogs), `recommend --forward
#    13w` listed a compute plan at $0.806/h whose net savings, billed on
#    top of the family plan above it, were -$127.63, and the in-sample
#    `--train-until 2026-05-10T00:00:00Z` one at -$20.73.  A purchase that
#    is billed last and loses money is one the plan is better without, so
#    no new reservation or plan may show net savings below zero (renewals
#    may: they say "let it lapse").
#
# 2. A backtest whose test window wants nothing.  Prices:
#    tests/data/engine/aws-test.json (p4d.24xlarge 32.77/h on demand,
#    20.50/h reserved 1 year no upfront).  Demand: 10 p4d.24xlarge for
#    inference in each of the first 336 hours, then 168 hours of 0.  Bought
#    at hour 336 from the first two weeks: reserve 10 (demand >= 10 in 100%
#    of hours, break-even 62.56%).  Over the test week:
#      policy cost    0
#      plan cost      10 x 20.50 x 168 = 34,440.00
#      net savings    -34,440.00; hindsight buys nothing and saves 0
#    Captured fraction = -34,440 / 0: undefined, so null, and the terminal
#    says "n/a".  It used to say 1.0 (100% captured).
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$bin" recommend --quiet --json --forward 13w > "$dir/forward.json"
"$bin" recommend --quiet --json --train-until 2026-05-10T00:00:00Z \
    > "$dir/insample.json"
python3 - "$dir/forward.json" "$dir/insample.json" <<'PY'
import json, sys
n = 0
for path in sys.argv[1:]:
    doc = json.load(open(path))
    for a in doc["actions"]:
        if a["type"] == "routing" or a.get("renewal"):
            continue
        n += 1
        assert a["net_savings"] >= -0.005, \
            "%s: action %d loses %r" % (path, a["rank"], a["net_savings"])
assert n >= 2, "expected purchases to check, saw %d" % n
print("recommend_no_losing_actions: %d purchases checked" % n)
PY

python3 - "$dir/drop.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(504):
        f.write("%d,p4d.24xlarge,inference,%d\n"
                % (1767225600 + 3600 * h, 10 if h < 336 else 0))
PY
# 1767225600 + 336 h = 2026-01-15T00:00:00Z
"$bin" recommend --quiet --json --train-until 2026-01-15T00:00:00Z \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$dir/drop.csv" > "$dir/drop.json"
"$bin" recommend --quiet --train-until 2026-01-15T00:00:00Z \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$dir/drop.csv" > "$dir/drop.txt"
python3 - "$dir/drop.json" "$dir/drop.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
def near(a, b, what, tol=0.005):
    assert abs(a - b) <= tol, "%s: %r, expected %r" % (what, a, b)
b = doc["backtest"]
near(b["policy_cost"], 0.0, "test policy cost")
near(b["plan_cost"], 34440.0, "test plan cost")
near(b["plan_net_savings"], -34440.0, "test net savings")
near(b["hindsight_net_savings"], 0.0, "test hindsight")
near(b["commitment_net_savings"], -34440.0, "commitments alone")
assert b["captured_fraction"] is None, b
assert b["commitment_captured_fraction"] is None, b
assert "n/a (nothing was worth buying) captured out of sample" in text, text
print("recommend_no_losing_actions: backtest against nothing passed")
PY
