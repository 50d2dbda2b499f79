#!/bin/sh
# terminate_idle_h and spot job runs: the Monte Carlo replay bills a job
# run whole (idle.h: spot runs are not shortened), so the policy must not
# take the run's idle hours out of demand either.  It used to: the run's
# cost stayed, its instance-hours went, and the cost of the cut hour was
# left unallocated (shown in Chargeback as "(unused commitments)" with no
# commitment in the scenario).  Worked by hand: job j, training, 1
# g5.xlarge, half-hour samples at gpu_util 0 from 00:00 to 02:00 (one run,
# 2 instance-hours, idle 2 h).  Strategy "stop" = baseline (training on
# spot) + terminate_idle_h 0.5.  Expected: stop's total equals baseline's
# (nothing is shortened), 0 instance-hours terminated, training keeps its
# 2 instance-hours and all of the cost, nothing unallocated.
# Baseline's cost by hand: 2 h of work and 2 checkpoints of 0.05 h (the
# defaults, one an hour) on spot at $0.40: 2.1 x 0.40 = $0.84.  A run is
# interrupted with probability 1 - exp(-2.1 x -ln(0.95) / 730) = 1.5e-4
# (g5.xlarge's 5% a month), so the 50 seeded runs (seed 3) see none: 0
# interruptions, and the P50 and P95 are the same $0.84.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/trace.csv" <<'CSV'
timestamp,instance_type,instances,gpu_util,job_id,workload
2026-01-05T00:00:00Z,g5.xlarge,1,0,j,training
2026-01-05T00:30:00Z,g5.xlarge,1,0,j,training
2026-01-05T01:00:00Z,g5.xlarge,1,0,j,training
2026-01-05T01:30:00Z,g5.xlarge,1,0,j,training
CSV
cat > "$out/scenario.json" <<'JSON'
{"policy": {"training": {"launch": "spot"}},
 "strategies": [{"name": "stop",
                 "policy": {"training": {"terminate_idle_h": 0.5}}}],
 "monte_carlo": {"runs": 50, "seed": 3}}
JSON
"$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$out/trace.csv" --scenario "$out/scenario.json" --step 1800 \
    --json > "$out/run.json"
python3 - "$out/run.json" <<'PY'
import json, sys
def near(a, b, what):
    assert abs(a - b) < 1e-9, "%s: %r, expected %r" % (what, a, b)
s = {x["name"]: x for x in json.load(open(sys.argv[1]))["strategies"]}
base, stop = s["baseline"], s["stop"]
near(base["total_cost"], 2.1 * 0.40, "baseline total")
near(base["spot_cost"], 2.1 * 0.40, "baseline spot cost")
near(base["spot"]["interruptions_mean"], 0, "interruptions")
near(base["spot"]["cost_p95"], 0.84, "baseline spot P95")
near(stop["total_cost"], base["total_cost"], "stop total")
near(stop["idle_terminated_instance_hours"], 0, "terminated")
near(stop["by_workload"]["training"]["instance_hours"], 2, "training IH")
near(stop["by_workload"]["training"]["total_cost"], stop["total_cost"],
     "training cost")
near(stop["unallocated_cost"], 0, "unallocated")
PY
echo "idle_spot_terminate: ok"
