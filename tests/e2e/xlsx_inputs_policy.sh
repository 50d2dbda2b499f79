#!/bin/sh
# The Inputs sheet lists each strategy's policy, baseline first, as the
# JSON's inputs.policies does: each workload's launch and, only where it
# launches on spot, the spot settings (checkpoint, restart, interruptions,
# deadline, fallback), which do nothing on demand.  Before, it listed the
# baseline's policy only, with "checkpoint every 1 h (cost 0.05 h); restart
# 0.25 h; at most 5 interruptions, then on_demand" beside "launch
# on_demand", and no word of the bundled sample's train-on-spot strategy.
# Expected texts are the scenarios' own values: the sample's
# (scenarios/sample/scenario.json: both on demand, train-on-spot's training
# on spot, 1 h, 0.05 h, 0.25 h, 5, on_demand; its three lever strategies
# keep the baseline's policy) and s.json's below (its
# baseline sets checkpoint keys on an on-demand launch: not shown; its
# strategy launches training on spot with 2 h, 0.1 h, 0.5 h, 3, 6 h slack).
# Trace: 2 instances of interruptible training, hourly for 2 days from
# 2026-11-01.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_inputs_policy
export GPUPLAN_TODAY=2026-11-21
"$bin" recommend --quiet --out "$dir/sample.xlsx" > /dev/null
"$bin" recommend --quiet --json > "$dir/sample.json"
"$PY" - "$dir" <<'PYEOF'
import sys
with open("%s/t.csv" % sys.argv[1], "w") as f:
    f.write("timestamp,region,instance_type,workload,instances,"
            "interruptible\n")
    for h in range(48):
        f.write("%d,us-east-1,g5.xlarge,training,2,true\n"
                % (1793491200 + 3600 * h))
PYEOF
cat > "$dir/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "name": "spot-training",
 "policy": {"training": {"launch": "on_demand", "checkpoint_interval_h": 4,
                         "restart_overhead_h": 1}},
 "strategies": [
  {"name": "spot", "policy": {"training": {
     "launch": "spot", "checkpoint_interval_h": 2, "checkpoint_cost_h": 0.1,
     "restart_overhead_h": 0.5, "max_interruptions": 3,
     "deadline_slack_h": 6, "fallback": "on_demand"}}}]}
JSON
"$bin" simulate --quiet --trace "$dir/t.csv" --scenario "$dir/s.json" \
    --out "$dir/s.xlsx" > /dev/null
"$bin" simulate --quiet --trace "$dir/t.csv" --scenario "$dir/s.json" \
    --json > "$dir/s-out.json"
"$PY" - "$dir" <<'PYEOF'
import sys, json, openpyxl
d = sys.argv[1]
def policies(case):
    ws = openpyxl.load_workbook("%s/%s.xlsx" % (d, case))["Inputs"]
    return [(r[0], r[1]) for r in ws.iter_rows(values_only=True)
            if isinstance(r[0], str) and r[0].startswith("Policy, ")]
od = "on demand"
got = policies("sample")
assert got == [
    ("Policy, baseline, training", od),
    ("Policy, baseline, inference", od),
    ("Policy, train-on-spot, training",
     "spot; checkpoint every 1 h (cost 0.05 h); restart 0.25 h; at most 5 "
     "interruptions, then on demand"),
    ("Policy, train-on-spot, inference", od)] + [
    ("Policy, %s, %s" % (lever, w), od)
    for lever in ("autoscale-inference", "rightsize-g6e-to-g5",
                  "migrate-p4d-to-p5")
    for w in ("training", "inference")], got
got = policies("s")
assert got == [
    ("Policy, baseline, training", od),
    ("Policy, baseline, inference", od),
    ("Policy, spot, training",
     "spot; checkpoint every 2 h (cost 0.1 h); restart 0.5 h; at most 3 "
     "interruptions or when 6 h of slack is at risk, then on demand"),
    ("Policy, spot, inference", od)], got
# and each lever strategy's levers, as the scenario gives them
ws = openpyxl.load_workbook("%s/sample.xlsx" % d)["Inputs"]
levers = [(r[0], r[1]) for r in ws.iter_rows(values_only=True)
          if isinstance(r[0], str) and r[0].startswith("Levers, ")]
assert levers == [
    ("Levers, autoscale-inference", "autoscale instance_type=g6e.xlarge at "
     "85% util, min 4, scale-down delay 1 h"),
    ("Levers, rightsize-g6e-to-g5", "rightsize g6e.xlarge -> g5.xlarge x2"),
    ("Levers, migrate-p4d-to-p5", "migrate p4d.24xlarge -> p5.48xlarge x0.35 "
     "on 2026-05-08T00:00:00Z")], levers
# the JSON says the same
odj = {"launch": "on_demand"}
p = json.load(open("%s/sample.json" % d))["inputs"]["policies"]
assert p == [
    {"strategy": "baseline", "training": odj, "inference": odj},
    {"strategy": "train-on-spot",
     "training": {"launch": "spot", "checkpoint_interval_h": 1.0,
                  "checkpoint_cost_h": 0.05, "restart_overhead_h": 0.25,
                  "max_interruptions": 5, "deadline_slack_h": None,
                  "fallback": "on_demand"},
     "inference": odj}] + [
    {"strategy": lever, "training": odj, "inference": odj}
    for lever in ("autoscale-inference", "rightsize-g6e-to-g5",
                  "migrate-p4d-to-p5")], p
p = json.load(open("%s/s-out.json" % d))["inputs"]["policies"]
assert p == [
    {"strategy": "baseline", "training": odj, "inference": odj},
    {"strategy": "spot",
     "training": {"launch": "spot", "checkpoint_interval_h": 2.0,
                  "checkpoint_cost_h": 0.1, "restart_overhead_h": 0.5,
                  "max_interruptions": 3, "deadline_slack_h": 6.0,
                  "fallback": "on_demand"},
     "inference": odj}], p
PYEOF
