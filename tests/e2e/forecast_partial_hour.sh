#!/bin/sh
# A trace whose last row ends part-way through an hour (prices:
# tests/data/engine/aws-test.json, p4d.24xlarge 32.77/h on demand).
#
# Demand: three weeks (504 hours from 2026-01-01T00:00:00Z) of 10
# p4d.24xlarge for inference, then one row of 10 for half an hour, from
# 2026-01-22T00:00:00Z to 00:30.  That hour holds 5 instance-hours, half a
# whole hour's.  Kept in the history it is a dip that the last day repeated
# puts at every 24th hour of the forecast (P50 5 at 23:00 each day);
# left out, the history is the 504 whole hours, every method forecasts the
# constant 10 exactly, and the forecast starts at 2026-01-22T00:00:00Z with
# a note saying why.  simulate bills the half hour as it was used: 504 x 10
# + 10 x 0.5 = 5,045 instance-hours, 5,045 x 32.77 = 165,324.65.
#
# The same at the start: first.csv is one row of 10 for the half hour from
# 2026-01-01T00:30:00Z, whole.csv 504 hours of 10 from 01:00 (to
# 2026-01-22T01:00:00Z), read together.  Hour 00:00 holds 5 instance-hours;
# it is left out, so the history is the 504 whole hours from 01:00, the
# forecast is 10 in every hour and a note says why.  simulate bills it as
# used: the same 5,045 instance-hours and 165,324.65 over 505 hours.
#
# A pool whose own rows start part-way through an hour: late.csv
# is trace.csv's 504 whole hours of p4d.24xlarge and 4 g5.xlarge for
# inference in half-hour rows from 2026-01-19T10:30:00Z (hour 18 x 24 + 10
# = 442) to the trace's end, hour 504.  Its hour 442 holds 2
# instance-hours, half a whole hour's; it is left out of the pool's
# history, which is the 504 - 443 = 61 hours from 11:00, every method
# forecasts the constant 4, and the MASE scale is that of a constant (0,
# so null; with the half hour kept it was 0.0 over a scale the dip made).
# simulate bills it as used: 61.5 hours x 4 = 246 instance-hours of g5.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/trace.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,step_s,instance_type,workload,instances\n")
    for h in range(504):
        f.write("%d,3600,p4d.24xlarge,inference,10\n" % (1767225600 + 3600 * h))
    f.write("%d,1800,p4d.24xlarge,inference,10\n" % (1767225600 + 3600 * 504))
PY
python3 - "$dir/first.csv" "$dir/whole.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,step_s,instance_type,workload,instances\n")
    f.write("%d,1800,p4d.24xlarge,inference,10\n" % (1767225600 + 1800))
with open(sys.argv[2], "w") as f:
    f.write("timestamp,step_s,instance_type,workload,instances\n")
    for h in range(1, 505):
        f.write("%d,3600,p4d.24xlarge,inference,10\n" % (1767225600 + 3600 * h))
PY
python3 - "$dir/late.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,step_s,instance_type,workload,instances\n")
    for h in range(504):
        f.write("%d,3600,p4d.24xlarge,inference,10\n" % (1767225600 + 3600 * h))
    for k in range(2 * (504 - 442) - 1):
        f.write("%d,1800,g5.xlarge,inference,4\n"
                % (1767225600 + 3600 * 442 + 1800 * (k + 1)))
PY
P="$src/tests/data/engine/aws-test.json"
export GPUPLAN_TODAY=2026-01-23
"$bin" forecast --quiet --json --horizon 1w --pricing "$P" \
    --trace "$dir/trace.csv" > "$dir/forecast.json"
"$bin" forecast --quiet --json --horizon 1w --pricing "$P" \
    --trace "$dir/trace.csv" --train-until 2026-01-21T00:00:00Z \
    > "$dir/holdout.json"
"$bin" simulate --quiet --json --pricing "$P" --trace "$dir/trace.csv" \
    > "$dir/simulate.json"
"$bin" recommend --quiet --json --forward 1w --pricing "$P" \
    --trace "$dir/trace.csv" > "$dir/recommend.json"
"$bin" forecast --quiet --json --horizon 1w --pricing "$P" \
    --trace "$dir/whole.csv" "$dir/first.csv" > "$dir/forecast-first.json"
"$bin" simulate --quiet --json --pricing "$P" \
    --trace "$dir/whole.csv" "$dir/first.csv" > "$dir/simulate-first.json"
"$bin" forecast --quiet --json --horizon 1w --pricing "$P" \
    --trace "$dir/late.csv" > "$dir/forecast-late.json"
"$bin" simulate --quiet --json --pricing "$P" --trace "$dir/late.csv" \
    > "$dir/simulate-late.json"
"$bin" recommend --quiet --json --forward 1w --pricing "$P" \
    --trace "$dir/late.csv" > "$dir/recommend-late.json"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
doc = json.load(open(d + "/forecast.json"))
assert doc["history"] == {"start": "2026-01-01T00:00:00Z",
                          "end": "2026-01-22T00:00:00Z", "hours": 504}, \
    doc["history"]
assert doc["horizon"]["start"] == "2026-01-22T00:00:00Z", doc["horizon"]
s = doc["series"][0]
assert s["history_hours"] == 504, s["history_hours"]
for p in s["points"]:
    assert abs(p["p50"] - 10) < 1e-9, p
note = ("the trace ends at 2026-01-22T00:30:00Z, part-way through the hour "
        "from 2026-01-22T00:00:00Z: that hour is left out (partly covered, "
        "it would read as a dip in demand), so the history ends and the "
        "forecast starts at 2026-01-22T00:00:00Z")
assert note in doc["notes"], doc["notes"]
# the hold-out: the 24 whole hours from the cut, not the partial 25th
h = json.load(open(d + "/holdout.json"))
assert h["series"][0]["holdout"]["points"] == 24, h["series"][0]["holdout"]
assert any("the hold-out is scored on the whole hours before it" in n
           for n in h["notes"]), h["notes"]
# simulate bills the partial hour as it was used
sim = json.load(open(d + "/simulate.json"))
assert sim["window"]["hours"] == 505, sim["window"]
base = sim["strategies"][0]
assert abs(base["by_workload"]["inference"]["instance_hours"] - 5045) < 1e-9
assert abs(base["total_cost"] - 165324.65) < 0.005, base["total_cost"]
# recommend --forward plans from the same hour and says so
rec = json.load(open(d + "/recommend.json"))
assert rec["forward"]["horizon"]["start"] == "2026-01-22T00:00:00Z", rec
assert abs(rec["forward"]["p50_instance_hours"] - 1680) < 1e-6, rec["forward"]
assert any("part-way through the hour from 2026-01-22T00:00:00Z" in n
           for n in rec["notes"]), rec["notes"]
# a partial first hour
doc = json.load(open(d + "/forecast-first.json"))
assert doc["history"] == {"start": "2026-01-01T01:00:00Z",
                          "end": "2026-01-22T01:00:00Z", "hours": 504}, \
    doc["history"]
assert doc["horizon"]["start"] == "2026-01-22T01:00:00Z", doc["horizon"]
s = doc["series"][0]
assert s["history_hours"] == 504, s["history_hours"]
for p in s["points"]:
    assert abs(p["p50"] - 10) < 1e-9 and abs(p["p10"] - 10) < 1e-9, p
note = ("the trace starts at 2026-01-01T00:30:00Z, part-way through the "
        "hour from 2026-01-01T00:00:00Z: that hour is left out (partly "
        "covered, it would read as a dip in demand), so the history starts "
        "at 2026-01-01T01:00:00Z")
assert note in doc["notes"], doc["notes"]
sim = json.load(open(d + "/simulate-first.json"))
assert sim["window"] == {"start": "2026-01-01T00:00:00Z",
                         "end": "2026-01-22T01:00:00Z", "hours": 505}, \
    sim["window"]
base = sim["strategies"][0]
assert abs(base["by_workload"]["inference"]["instance_hours"] - 5045) < 1e-9
assert abs(base["total_cost"] - 165324.65) < 0.005, base["total_cost"]
# a pool's own partial first hour
doc = json.load(open(d + "/forecast-late.json"))
assert doc["history"]["hours"] == 504, doc["history"]
g5 = [s for s in doc["series"] if s["instance_type"] == "g5.xlarge"][0]
assert g5["history_hours"] == 61, g5["history_hours"]
for p in g5["points"]:
    assert abs(p["p50"] - 4) < 1e-9 and abs(p["p10"] - 4) < 1e-9, p
assert g5["backtest"]["mase"] is None, g5["backtest"]
note = ("aws/us-east-1/g5.xlarge inference: its rows start at "
        "2026-01-19T10:30:00Z, part-way through the hour from "
        "2026-01-19T10:00:00Z: that hour is left out (partly covered, it "
        "would read as a dip in demand), so it is forecast from the 61 "
        "hours since 2026-01-19T11:00:00Z")
assert note in doc["notes"], doc["notes"]
assert not any("no demand before" in n for n in doc["notes"]), doc["notes"]
sim = json.load(open(d + "/simulate-late.json"))
assert sim["window"]["hours"] == 504, sim["window"]
base = sim["strategies"][0]
assert abs(base["by_workload"]["inference"]["instance_hours"]
           - (5040 + 246)) < 1e-9, base["by_workload"]
rec = json.load(open(d + "/recommend-late.json"))
assert "forecast: " + note in rec["notes"], rec["notes"]
print("forecast_partial_hour: 3 passed, 0 failed")
PY
