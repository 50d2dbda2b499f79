#!/bin/sh
# A stale trace: forecast and recommend --forward forecast from the trace's
# end, so a trace whose end is over 30 days before today (GPUPLAN_TODAY)
# gets a warning saying when it ends and which period is forecast, on
# stderr (not with --quiet) and in the JSON's inputs.warnings.
#
# Trace: three weeks (504 hours from 2026-08-01T00:00:00Z) of 10
# p4d.24xlarge for inference; it ends at 2026-08-22T00:00:00Z.
#   today 2026-09-21: 30 days after the end, not over 30: no warning;
#   today 2026-09-22: 31 days: the warning, the forecast 2026-08-22 to
#                     2026-08-29 (1 week) and the plan the same week;
#   --train-until (a hold-out, forecast on purpose from the past): none;
#   today 2026-09-21T23:00: 30 days 23 hours after the end, but the dates
#                     are 30 days apart: none (counted from now it said
#                     "30 days before today", not over 30).
# The warning names the row that ends last, the trace's line 505 (the
# header is line 1), column 1, field timestamp.
# A second trace, 509 hours, ends at 2026-08-22T05:00:00Z; at
# 2026-09-22T01:00 the dates printed are 31 days apart (counted from now:
# 30 days 20 hours, which printed "30 days before today (2026-09-22)").
# (In August, so that the test catalog's as_of, 2026-07-20, is neither
# stale nor in the future on those days.)
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/trace.csv" "$dir/late.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(504):
        f.write("%d,p4d.24xlarge,inference,10\n" % (1785542400 + 3600 * h))
with open(sys.argv[2], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(509):
        f.write("%d,p4d.24xlarge,inference,10\n" % (1785542400 + 3600 * h))
PY
P="$src/tests/data/engine/aws-test.json"
run() { # today, then the command's arguments
    today=$1
    shift
    GPUPLAN_TODAY=$today "$bin" "$@" --pricing "$P" --trace "$dir/trace.csv"
}
run 2026-09-21 forecast --horizon 1w > /dev/null 2> "$dir/30.err"
run 2026-09-22 forecast --horizon 1w > /dev/null 2> "$dir/31.err"
run 2026-09-22 forecast --horizon 1w --quiet --json > "$dir/31.json" \
    2> "$dir/31q.err"
run 2026-09-22 forecast --horizon 1w --train-until 2026-08-21T00:00:00Z \
    > /dev/null 2> "$dir/tu.err"
run 2026-09-22 recommend --forward 1w --json > "$dir/fwd.json" 2> "$dir/fwd.err"
run 2026-09-21T23:00:00Z forecast --horizon 1w > /dev/null 2> "$dir/30late.err"
GPUPLAN_TODAY=2026-09-22T01:00:00Z "$bin" forecast --horizon 1w --pricing "$P" \
    --trace "$dir/late.csv" > /dev/null 2> "$dir/late.err"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
def read(name):
    return open(d + "/" + name).read()
at = d + "/trace.csv:505:1: timestamp: "
want = at + ("the trace ends at 2026-08-22T00:00:00Z, 31 days before today "
        "(2026-09-22): the forecast is for 2026-08-22T00:00:00Z to "
        "2026-08-29T00:00:00Z, from the trace's end, not from today; give a "
        "recent trace to plan ahead")
assert "the trace ends" not in read("30.err"), read("30.err")
assert read("31.err") == "gpuplan forecast: warning: " + want + "\n", read("31.err")
assert read("31q.err") == "", read("31q.err")
assert want in json.load(open(d + "/31.json"))["inputs"]["warnings"]
assert "the trace ends" not in read("tu.err"), read("tu.err")
assert "the trace ends" not in read("30late.err"), read("30late.err")
late = (d + "/late.csv:510:1: timestamp: the trace ends at "
        "2026-08-22T05:00:00Z, 31 days before today (2026-09-22): the "
        "forecast is for 2026-08-22T05:00:00Z to 2026-08-29T05:00:00Z, from "
        "the trace's end, not from today; give a recent trace to plan ahead")
assert read("late.err") == "gpuplan forecast: warning: " + late + "\n", read("late.err")
plan = want.replace("the forecast is for", "the plan is bought for")
assert "gpuplan recommend: warning: " + plan + "\n" in read("fwd.err"), read("fwd.err")
assert plan in json.load(open(d + "/fwd.json"))["inputs"]["warnings"]
print("forecast_stale: 1 passed, 0 failed")
PY
