#!/bin/sh
# A trace dated in the future: its last row ends more than an hour after
# now (GPUPLAN_TODAY), a clock or time-zone error or a converted trace.
# forecast and recommend --forward forecast from the trace's end, so they
# say which (future) period is forecast, as the stale trace's warning
# does; simulate and recommend bill its hours as history and say so.  On
# stderr (not with --quiet), in the JSON's inputs.warnings and on the
# workbook's Summary.  Before, none of these runs said a word.
#
# Trace: three weeks (504 hours from 2026-08-01T00:00:00Z) of 10
# p4d.24xlarge for inference; its last row, 2026-08-21T23:00:00Z, ends at
# 2026-08-22T00:00:00Z.
#   now 2026-08-21T23:00:00Z: 1 hour before the end, not more: no warning
#       (a clock skew, or the hour under way);
#   now 2026-08-21T22:00:00Z: 2 hours ahead, "2 hours after now (...)";
#   now 2026-08-21T22:30:00Z: 1.5 hours ahead (more than the hour allowed,
#       so warned), "1.5 hours after now (...)", not "1 hour";
#   today 2026-08-12: 10 days ahead (2026-08-22 - 2026-08-12), the forecast
#       and the plan for 2026-08-22 to 2026-08-29 (1 week);
#   now 2026-08-12T20:00:00Z: the same 10 days after today (2026-08-12),
#       the days between the two dates the warning prints (9 days and 4
#       hours after the moment, which counted 9);
#   now 2026-08-20T23:30:00Z: 24.5 hours ahead, 2 days after today
#       (2026-08-22 - 2026-08-20; the moment counted 1);
#   now 2026-08-21T01:00:00Z: 23 hours ahead, under a day: "23 hours
#       after now (...)" (the README said hours up to two days ahead).
# The warning names the row that ends last as an error names a bad one:
# trace.csv's line 505 (the header, then 504 rows), its timestamp in
# column 1; with an earlier trace given after it (early.csv: a week of
# July), still trace.csv's line 505.
# (The test catalog's as_of, 2026-07-20, is neither stale nor in the
# future on those days.)
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl trace_future
python3 - "$dir/trace.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(504):
        f.write("%d,p4d.24xlarge,inference,10\n" % (1785542400 + 3600 * h))
PY
printf 'timestamp,instance_type,workload,instances\n' > "$dir/early.csv"
for h in 0 1 2 3 4 5 6; do
    printf '2026-07-0%sT00:00:00Z,p4d.24xlarge,inference,1\n' $((h + 1)) \
        >> "$dir/early.csv"
done
P="$src/tests/data/engine/aws-test.json"
run() { # today, then the command's arguments
    today=$1
    shift
    GPUPLAN_TODAY=$today "$bin" "$@" --pricing "$P" --trace "$dir/trace.csv"
}
run 2026-08-21T23:00:00Z forecast --horizon 1w > /dev/null 2> "$dir/1h.err"
run 2026-08-21T23:00:00Z simulate > /dev/null 2> "$dir/1hs.err"
run 2026-08-21T22:00:00Z forecast --horizon 1w > /dev/null 2> "$dir/2h.err"
run 2026-08-21T22:30:00Z forecast --horizon 1w > /dev/null 2> "$dir/90m.err"
run 2026-08-12 forecast --horizon 1w > /dev/null 2> "$dir/10d.err"
run 2026-08-12T20:00:00Z forecast --horizon 1w > /dev/null 2> "$dir/10dpm.err"
run 2026-08-20T23:30:00Z forecast --horizon 1w > /dev/null 2> "$dir/2d.err"
run 2026-08-21T01:00:00Z forecast --horizon 1w > /dev/null 2> "$dir/23h.err"
run 2026-08-12 forecast --horizon 1w --quiet --json > "$dir/10d.json" \
    2> "$dir/10dq.err"
run 2026-08-12 forecast --horizon 1w --train-until 2026-08-21T00:00:00Z \
    > /dev/null 2> "$dir/tu.err"
run 2026-08-12 recommend --forward 1w --json > "$dir/fwd.json" \
    2> "$dir/fwd.err"
run 2026-08-12 simulate --json > "$dir/sim.json" 2> "$dir/sim.err"
GPUPLAN_TODAY=2026-08-12 "$bin" simulate --pricing "$P" \
    --trace "$dir/trace.csv" --trace "$dir/early.csv" > /dev/null \
    2> "$dir/two.err"
run 2026-08-12 recommend --quiet --out "$dir/rec.xlsx" > /dev/null
"$PY" - "$dir" <<'PY'
import json, sys, openpyxl
d = sys.argv[1]
def read(name):
    return open(d + "/" + name).read()
tail = ("; a trace dated in the future is a clock or time-zone error, or a "
        "converted trace: check its timestamps")
head = d + "/trace.csv:505:1: timestamp: the trace ends at " \
    "2026-08-22T00:00:00Z, "
fc = ("the forecast is for 2026-08-22T00:00:00Z to 2026-08-29T00:00:00Z, "
      "from the trace's end")
for f in ("1h.err", "1hs.err"):
    assert "the trace ends" not in read(f), read(f)
want = head + "2 hours after now (2026-08-21T22:00:00Z): " + fc + tail
assert "gpuplan forecast: warning: " + want + "\n" in read("2h.err"), read("2h.err")
want = head + "1.5 hours after now (2026-08-21T22:30:00Z): " + fc + tail
assert "gpuplan forecast: warning: " + want + "\n" in read("90m.err"), read("90m.err")
want = head + "10 days after today (2026-08-12): " + fc + tail
assert "gpuplan forecast: warning: " + want + "\n" in read("10d.err"), read("10d.err")
assert "gpuplan forecast: warning: " + want + "\n" in read("10dpm.err"), \
    read("10dpm.err")
assert "the trace ends" not in read("10dq.err"), read("10dq.err")
want2 = head + "2 days after today (2026-08-20): " + fc + tail
assert "gpuplan forecast: warning: " + want2 + "\n" in read("2d.err"), read("2d.err")
want2 = head + "23 hours after now (2026-08-21T01:00:00Z): " + fc + tail
assert "gpuplan forecast: warning: " + want2 + "\n" in read("23h.err"), read("23h.err")
assert want in json.load(open(d + "/10d.json"))["inputs"]["warnings"]
hist = head + "10 days after today (2026-08-12): its hours after today are "
want = hist + "read as history" + tail
assert "gpuplan forecast: warning: " + want + "\n" in read("tu.err"), read("tu.err")
plan = head + "10 days after today (2026-08-12): " + \
    fc.replace("the forecast is for", "the plan is bought for") + tail
assert "gpuplan recommend: warning: " + plan + "\n" in read("fwd.err"), read("fwd.err")
assert plan in json.load(open(d + "/fwd.json"))["inputs"]["warnings"]
billed = hist + "billed as history" + tail
assert "gpuplan simulate: warning: " + billed + "\n" in read("sim.err"), read("sim.err")
assert billed in json.load(open(d + "/sim.json"))["inputs"]["warnings"]
assert "gpuplan simulate: warning: " + billed + "\n" in read("two.err"), read("two.err")
summary = [c for r in openpyxl.load_workbook(d + "/rec.xlsx")["Summary"]
           .iter_rows(values_only=True) for c in r if isinstance(c, str)]
assert any(billed in c for c in summary), summary
print("trace_future: ok")
PY
