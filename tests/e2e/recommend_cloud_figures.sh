#!/bin/sh
# What the clouds' recommenders report of a purchase (SPEC 7.2), worked by
# hand on the round-number catalog tests/e2e/data/renewal-lapse-catalog.json:
# x.large at $10/h on demand, a 1-year partial-upfront reservation at
# $3/h plus $17,520 upfront (3 + 17520 / 8760 = $5/h).  Two weeks (336 h)
# of 5 x.large; the plan reserves all 5:
#   net savings        5 x (10 - 5) x 336              = $8,400
#   hourly_commitment  5 x (3 + 17520 / 8760)          = $25/h
#   recurring_monthly  5 x 3 x 730                     = $10,950
#   upfront            5 x 17,520                      = $87,600
#   roi                8,400 / (25 x 336)              = 1.0
#   breakeven_months   87,600 / (on demand avoided 5 x 10 x 730 less the
#                      fee 10,950 = 25,550 a month)    = 3.4286
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf 'timestamp,step_s,instance_type,workload,instances\n2026-03-02T00:00:00Z,1209600,x.large,inference,5\n' \
    > "$out/t.csv"
GPUPLAN_TODAY=2026-11-21 "$bin" recommend --quiet --json \
    --pricing "$src/tests/e2e/data/renewal-lapse-catalog.json" \
    --trace "$out/t.csv" > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
(a,) = doc["actions"]
assert a["type"] == "reserved" and a["count"] == 5, a
want = {"net_savings": 8400.0, "hourly_commitment": 25.0,
        "recurring_monthly": 10950.0, "upfront": 87600.0, "roi": 1.0,
        "breakeven_months": 87600.0 / 25550.0}
for k, v in want.items():
    assert abs(a[k] - v) < 1e-9 * max(1, v), (k, a[k], v)
PY
echo "recommend_cloud_figures: 1 passed, 0 failed"
