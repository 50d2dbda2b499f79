#!/bin/sh
# The idle report covers the scenario's window, like the bills beside it:
# a span crossing the window's edge is cut there.  Prices:
# tests/data/engine (g5.xlarge: 1 GPU, $1.006/h on demand).  Worked by hand:
#   job j1 (training, 2 instances): gpu_util 1% from 00:00 to 04:00, then
#     80%: idle 00:00-04:00, 8 instance-hours over the whole trace;
#   web/b (inference, 1 instance, no job_id): 2% from 00:00 to 06:00.
#   Window 02:00-05:00: j1 keeps 02:00-04:00, 2 h x 2 = 4 instance-hours,
#   4 x 1.006 = $4.024; web/b keeps 02:00-05:00, 3 instance-hours, $3.018;
#   idle cost $7.042 (it was $14.084, over the window's all-on-demand cost
#   of $9.054); GPU-hours with gpu_util in the window: 3 h x (2 + 1) = 9.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$src/tests/e2e/data/idle-window.csv" "$out/trace.csv"
cp "$src/tests/e2e/data/idle-window.json" "$out/scenario.json"
"$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$out/trace.csv" --scenario "$out/scenario.json" --json \
    --csv "$out/csv" > "$out/run.json"
python3 - "$out" <<'PY'
import csv, json, sys
d = sys.argv[1]
def near(a, b, what):
    assert abs(a - b) < 1e-6, "%s: %r, expected %r" % (what, a, b)
doc = json.load(open(d + "/run.json"))
near(doc["strategies"][0]["all_on_demand_cost"], 9.054, "all on demand")
idle = doc["idle"]
assert idle["spans_count"] == 2, idle
sp = {s["label"]: s for s in idle["spans"]}
j1, web = sp["j1"], sp["g5.xlarge/inference/web/b"]
assert (j1["start"], j1["end"]) == ("2026-01-05T02:00:00Z",
                                    "2026-01-05T04:00:00Z"), j1
near(j1["hours"], 2, "j1 hours")
near(j1["instance_hours"], 4, "j1 instance-hours")
near(j1["gpu_hours"], 4, "j1 GPU-hours")
near(j1["cost"], 4.024, "j1 cost")
assert (web["start"], web["end"]) == ("2026-01-05T02:00:00Z",
                                      "2026-01-05T05:00:00Z"), web
near(web["instance_hours"], 3, "web instance-hours")
near(web["cost"], 3.018, "web cost")
near(idle["cost"], 7.042, "idle cost")
near(idle["instance_hours"], 7, "idle instance-hours")
near(idle["hours"], 5, "idle hours")
near(idle["gpu_hours_with_util"], 9, "GPU-hours with util in the window")
rows = list(csv.DictReader(open(d + "/csv/idle.csv")))
near(sum(float(r["cost"]) for r in rows), 7.042, "idle.csv cost")
PY

# recommend --train-until bills the hours before the cut (00:00-03:00 of
# the whole trace, 00:00-06:00), and its Idle sheet covers those hours too:
#   j1 00:00-03:00, 3 h x 2 instances = 6 instance-hours, $6.036;
#   web/b 00:00-03:00, 3 instance-hours, $3.018; together $9.054.
# (It covered the whole trace: $14.084.)
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl idle_window
"$bin" recommend --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$out/trace.csv" --train-until 2026-01-05T03:00:00Z \
    --out "$out/backtest.xlsx" > /dev/null
"$PY" - "$out/backtest.xlsx" <<'PY'
import sys
import openpyxl
ws = openpyxl.load_workbook(sys.argv[1], data_only=True)["Idle"]
rows = [r for r in ws.iter_rows(values_only=True) if r[0] is not None]
at = {r[0]: r for r in rows}
assert at["Idle spans"][1] == 2, at["Idle spans"]
assert abs(at["Cost of idle time"][1] - 9.054) < 1e-6, at["Cost of idle time"]
assert abs(at["j1"][9] - 6.036) < 1e-6, at["j1"]
assert at["j1"][4].hour == 3, at["j1"]
assert abs(at["g5.xlarge/inference/web/b"][9] - 3.018) < 1e-6
PY
echo "idle_window: ok"
