#!/bin/sh
# The routing reason gives the expected interruptions as a count that is
# true when it is small.  10 hours of training on one y.large, no job_id
# (priced by the expected value), spot $8/h against $20/h on demand, 10%
# interruptions a month, checkpoint every 1 h costing 0.05 h, restart
# 0.25 h: lambda = -ln 0.9 / 730 = 1.44331e-4 per hour, and each hour of
# work takes T = 1.0501175 h (Daly's formula, as simulate_spot_line.sh
# works it out), so 10 x 1.0501175 x 1.44331e-4 = 0.0015157 interruptions
# are expected.  The reason said "0.0 interruptions" (%.1f) beside "$0.01
# expected"; it now says "0.0015 interruptions".  One hour of training
# expects 0.00015157 interruptions, whose failed attempts cost
# (1.0501175 - 1.05 for checkpointing alone) x $8 = $0.00094: the reason
# said "$0.00 expected"; it now says "under $0.01 expected, 0.00015
# interruptions".
set -eu
bin=$1
src=$2
catalog=$src/tests/e2e/data/y-large-spot.json  # y.large: $20/h, spot $8/h, 10%/month
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "name": "spot",
 "policy": {"training": {"checkpoint_interval_h": 1.0,
   "checkpoint_cost_h": 0.05, "restart_overhead_h": 0.25,
   "max_interruptions": 1, "fallback": "on_demand"}}}
JSON
h='timestamp,step_s,instance_type,workload,instances,job_id,interruptible'
printf '%s\n2026-03-02T00:00:00Z,36000,y.large,training,1,,true\n' "$h" \
    > "$out/t.csv"
"$bin" recommend --quiet --json --pricing "$catalog" \
    --trace "$out/t.csv" --scenario "$out/s.json" > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, sys
a = [a for a in json.load(open(sys.argv[1]))["actions"]
     if a["type"] == "routing"]
assert len(a) == 1, a
reason = a[0]["reason"]
assert "($0.01 expected, 0.0015 interruptions)" in reason, reason
PY
printf '%s\n2026-03-02T00:00:00Z,3600,y.large,training,1,,true\n' "$h" \
    > "$out/hour.csv"
"$bin" recommend --quiet --json --pricing "$catalog" \
    --trace "$out/hour.csv" --scenario "$out/s.json" > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, sys
a = [a for a in json.load(open(sys.argv[1]))["actions"]
     if a["type"] == "routing"]
assert len(a) == 1, a
reason = a[0]["reason"]
assert "(under $0.01 expected, 0.00015 interruptions)" in reason, reason
PY
echo "recommend_routing_rare_interruptions: ok"
