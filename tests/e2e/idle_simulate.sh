#!/bin/sh
# Idle GPUs and chargeback end to end: simulate --json, --csv and the
# terminal table on a case worked by hand.  Prices: tests/data/engine
# (g5.xlarge: 1 GPU, $1.006/h on demand).
#
# Two g5.xlarge inference GPUs, hourly samples from 2026-01-05T00:00Z:
#   h1/gpu0 (team a, project p1): 50, 2, 2, 2, 60 %
#   h1/gpu1 (team b, project p2): 70, 70, 70, 70, 70 %
# Idle (below 5% for 2 h or more): h1/gpu0 01:00-04:00, 3 h, 3 GPU-hours,
#   3 instance-hours, 3 x 1.006 = $3.018, mean 2%.
# baseline: 10 instance-hours, $10.06.  Chargeback: a $5.03 over
#   0.5 + 3 x 0.02 + 0.6 = 1.16 useful GPU-hours = $4.336207 each;
#   b $5.03 over 3.5 = $1.437143.
# stop-idle (terminate_idle_h 1 for inference): 02:00-04:00 of h1/gpu0
#   removed, 2 instance-hours: $8.048; terminating saved 2 x 1.006 =
#   $2.012 (all it changes, so also what it is below the baseline); team a
#   $3.018 over 1.16 - 0.04 = 1.12 useful GPU-hours = $2.694643.
# --idle-threshold 60: h1/gpu0's first four samples (50, 2, 2, 2) are below
#   60%: one span of 4 h, $4.024.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$src/tests/e2e/data/idle-host.csv" "$out/trace.csv"
cat > "$out/scenario.json" <<'JSON'
{"strategies": [{"name": "stop-idle",
                 "policy": {"inference": {"terminate_idle_h": 1}}}]}
JSON
run() {
    "$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
        --trace "$out/trace.csv" --scenario "$out/scenario.json" "$@"
}
run --json --csv "$out/csv" > "$out/run.json"
run > "$out/table.txt"
run --json --idle-threshold 60 --idle-min-hours 2h > "$out/run60.json"
python3 - "$out" <<'PY'
import csv, json, sys
d = sys.argv[1]
def near(a, b, what):
    assert abs(a - b) < 1e-6, "%s: %r, expected %r" % (what, a, b)
doc = json.load(open(d + "/run.json"))
idle = doc["idle"]
near(idle["threshold_pct"], 5, "threshold")
near(idle["min_hours"], 2, "minimum")
assert idle["spans_count"] == 1 and len(idle["spans"]) == 1, idle
sp = idle["spans"][0]
assert sp["label"] == "h1/gpu0" and sp["job_id"] == "h1/gpu0", sp
assert (sp["team"], sp["project"], sp["workload"]) == ("a", "p1", "inference")
assert (sp["start"], sp["end"]) == ("2026-01-05T01:00:00Z",
                                    "2026-01-05T04:00:00Z"), sp
near(sp["hours"], 3, "span hours")
near(sp["gpu_hours"], 3, "span GPU-hours")
near(sp["mean_util_pct"], 2, "span mean util")
near(sp["cost"], 3.018, "span cost")
near(idle["cost"], 3.018, "idle cost")
near(idle["gpu_hours_with_util"], 10, "GPU-hours with util")
s = {x["name"]: x for x in doc["strategies"]}
near(s["baseline"]["total_cost"], 10.06, "baseline total")
near(s["baseline"]["idle_terminated_instance_hours"], 0, "baseline cut")
near(s["stop-idle"]["total_cost"], 8.048, "stop-idle total")
near(s["stop-idle"]["idle_terminated_instance_hours"], 2, "stop-idle cut")
near(s["stop-idle"]["all_on_demand_cost"], 10.06, "stop-idle all on demand")
near(s["stop-idle"]["savings"], 2.012, "stop-idle savings")
# idle.csv agrees
rows = list(csv.DictReader(open(d + "/csv/idle.csv")))
assert len(rows) == 1 and rows[0]["label"] == "h1/gpu0", rows
near(float(rows[0]["cost"]), 3.018, "idle.csv cost")
near(float(rows[0]["instance_hours"]), 3, "idle.csv instance-hours")
# chargeback.csv: cost and cost per useful GPU-hour by team and project
cb = {(r["strategy"], r["team"], r["project"]): r
      for r in csv.DictReader(open(d + "/csv/chargeback.csv"))}
near(float(cb["baseline", "a", "p1"]["cost"]), 5.03, "a cost")
near(float(cb["baseline", "a", "p1"]["cost_per_useful_gpu_hour"]),
     5.03 / 1.16, "a per useful")
near(float(cb["baseline", "b", "p2"]["cost_per_useful_gpu_hour"]),
     5.03 / 3.5, "b per useful")
near(float(cb["stop-idle", "a", "p1"]["cost"]), 3.018, "a stop-idle cost")
near(float(cb["stop-idle", "a", "p1"]["useful_gpu_hours"]), 1.12,
     "a stop-idle useful")
near(float(cb["stop-idle", "a", "p1"]["cost_per_useful_gpu_hour"]),
     3.018 / 1.12, "a stop-idle per useful")
# chargeback_summary.csv: the same by team, project and workload
cs = {(r["strategy"], r["team"], r["project"], r["workload"]): r
      for r in csv.DictReader(open(d + "/csv/chargeback_summary.csv"))}
near(float(cs["baseline", "a", "p1", "inference"]["cost_per_useful_gpu_hour"]),
     5.03 / 1.16, "summary a per useful")
near(float(cs["stop-idle", "b", "p2", "inference"]["cost"]), 5.03,
     "summary b stop-idle cost")
# the terminal table says it too
table = open(d + "/table.txt").read()
assert "idle GPUs (gpu_util below 5% for 2 h or more): 1 span," in table, table
assert "stop-idle: terminating idle GPUs removed 2.0 instance-hours " \
       "and saved $2.01" in table, table
# a threshold of 60%
idle60 = json.load(open(d + "/run60.json"))["idle"]
near(idle60["threshold_pct"], 60, "threshold 60")
assert idle60["spans_count"] == 1, idle60
near(idle60["spans"][0]["hours"], 4, "span at 60%")
near(idle60["cost"], 4.024, "cost at 60%")
PY
