#!/bin/sh
# recommend with 2,000 owned savings plans finishes in well under a
# minute (#42 item 7): the optimizer's billing pass priced each pool's
# unit of demand by walking every plan after the one it asked for, for
# every plan, every hour: plans squared.  2,000 plans over 48 hours took
# 141 s; now about 1 s (a minute is the generous bound, for slow and
# sanitizer builds).
#
# Hand check of the baseline: the plans are $0.00001/h compute plans, 2,000
# of them, $0.02/h, always used in full (demand is 3 to 7 g5.xlarge an
# hour).  At the compute plan rate 0.70 for g5.xlarge's 1.006 on demand
# (tests/data/engine), $0.02 covers 0.02 / 0.70 instance-hours worth
# 0.02 x 1.006 / 0.70 on demand, so the baseline costs
# 48 x 0.02 x (1.006 / 0.70 - 1) = $0.419657 less than all on demand.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$out" <<'PY'
import json, sys, time
d = sys.argv[1]
with open(d + "/trace.csv", "w") as f:
    f.write("timestamp,instance_type,instances,workload\n")
    for h in range(48):
        t = time.gmtime(1767225600 + h * 3600)  # from 2026-01-01
        f.write("%s,g5.xlarge,%d,inference\n"
                % (time.strftime("%Y-%m-%dT%H:%M:%SZ", t), 3 + h % 5))
plan = {"type": "savings_plan", "kind": "compute", "provider": "aws",
        "hourly_commitment": 0.00001, "term_years": 1,
        "payment": "no_upfront", "start": "2025-12-01T00:00:00Z"}
json.dump({"schema": "gpuplan-scenario/1", "commitments": [plan] * 2000},
          open(d + "/scenario.json", "w"))
PY
pass=0
fail=0
start=$(date +%s)
if timeout 120 "$bin" recommend --quiet \
        --pricing "$src/tests/data/engine/aws-test.json" \
        --trace "$out/trace.csv" --scenario "$out/scenario.json" \
        --json > "$out/rec.json"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: recommend did not finish in 120 s" >&2
fi
took=$(($(date +%s) - start))
if [ "$took" -lt 60 ]; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
    echo "FAIL: recommend took $took s with 2,000 owned plans" >&2
fi
if python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["baseline"]
want = b["all_on_demand_cost"] - 48 * 0.02 * (1.006 / 0.70 - 1)
assert abs(b["policy_cost"] - want) < 1e-6, (b, want)
' "$out/rec.json"; then
    pass=$((pass + 1))
else
    fail=$((fail + 1))
fi
echo "recommend_many_owned_plans: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
