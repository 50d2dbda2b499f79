#!/bin/sh
# simulate's idle lines when the baseline policy terminates idle GPUs
# itself: each line gives what terminating saved that strategy, against
# itself billed without terminate_idle_h, so the baseline's own line has
# a figure too.  Measured against the baseline, the baseline's line read
# "total cost $0.00 below baseline" and a strategy that terminates later
# "-$1.01 below baseline"; after that, neither line had a figure, only a
# note that no total showed what terminating saves.
# Prices: tests/data/engine (g5.xlarge $1.006/h on demand).
#
# The trace of idle_simulate.sh (tests/e2e/data/idle-host.csv): h1/gpu0
# idle 01:00-04:00 (2% for 3 h), 10 instance-hours, $10.06 kept whole.
#   baseline (terminate_idle_h 1): 02:00 and 03:00 removed, 2.0
#     instance-hours, total 10 - 2 = 8 instance-hours, $8.048; saved
#     2 x 1.006 = $2.012;
#   stop-later (terminate_idle_h 2): 03:00 removed, 1.0 instance-hour,
#     $9.054; saved 1 x 1.006 = $1.006 ("$1.01").
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$src/tests/e2e/data/idle-host.csv" "$out/trace.csv"
cat > "$out/scenario.json" <<'JSON'
{"policy": {"inference": {"terminate_idle_h": 1}},
 "strategies": [{"name": "stop-later",
                 "policy": {"inference": {"terminate_idle_h": 2}}}]}
JSON
run() {
    "$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
        --trace "$out/trace.csv" --scenario "$out/scenario.json" "$@"
}
run > "$out/table.txt"
run --json > "$out/run.json"
python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
def near(a, b, what):
    assert abs(a - b) < 1e-6, "%s: %r, expected %r" % (what, a, b)
s = {x["name"]: x for x in json.load(open(d + "/run.json"))["strategies"]}
near(s["baseline"]["idle_terminated_instance_hours"], 2, "baseline removed")
near(s["baseline"]["total_cost"], 8.048, "baseline total")
near(s["stop-later"]["idle_terminated_instance_hours"], 1, "stop-later removed")
near(s["stop-later"]["total_cost"], 9.054, "stop-later total")
table = open(d + "/table.txt").read()
lines = table.splitlines()
assert "  baseline: terminating idle GPUs removed 2.0 instance-hours " \
       "and saved $2.01" in lines, table
assert "  stop-later: terminating idle GPUs removed 1.0 instance-hours " \
       "and saved $1.01" in lines, table
assert "below baseline" not in table, table
assert "terminates idle GPUs itself" not in table, table
PY
echo "a baseline that terminates idle GPUs has its saving too"
