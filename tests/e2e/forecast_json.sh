#!/bin/sh
# forecast --json, --csv and recommend --forward end to end on a case
# worked by hand (prices: tests/data/engine/aws-test.json, where
# p4d.24xlarge costs 32.77/h on demand and 20.50/h reserved for 1 year, no
# upfront, no savings-plan rates).
#
# Demand: three weeks (504 hours) of 10 p4d.24xlarge for inference, every
# hour.  Every method forecasts a constant exactly, so the next 168 hours
# have P10 = P50 = P90 = 10, and the SPEC section 5 keys are all there;
# --csv writes 168 rows.  recommend --forward 168h buys for that forecast:
#   policy cost   10 x 32.77 x 168 = 55,053.60
#   plan cost     10 x 20.50 x 168 = 34,440.00 (reserve 10: demand >= 10
#                                    in 100% of hours, break-even 62.56%)
#   net savings                    = 20,613.60, the same on P10 and P90.
# Its workbook's Summary says the headline is over the forecast horizon
# (not the data window), shows the same policy cost and P10 savings, and
# its forecast headline is the plan's 168 hours: 10 x 168 = 1,680.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/trace.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(504):
        f.write("%d,p4d.24xlarge,inference,10\n" % (1767225600 + 3600 * h))
PY
"$bin" forecast --quiet --json --horizon 1w --csv "$dir/csv" \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$dir/trace.csv" > "$dir/forecast.json"
"$bin" recommend --quiet --json --forward 168h \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$dir/trace.csv" > "$dir/recommend.json"
# run on the day the trace ends, so that the plan's horizon is ahead and
# Summary has its forecast headline (a past horizon's is left out)
GPUPLAN_TODAY=2026-01-22 "$bin" recommend --quiet --forward 168h \
    --out "$dir/forward.xlsx" --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$dir/trace.csv" > /dev/null
python3 - "$dir" <<'PY'
import csv, json, sys
d = sys.argv[1]
doc = json.load(open(d + "/forecast.json"))
def near(a, b, what, tol=0.005):
    assert abs(a - b) <= tol, "%s: %r, expected %r" % (what, a, b)
# 2026-01-01T00:00:00Z + 504 h = 2026-01-22T00:00:00Z
assert doc["horizon"] == {"start": "2026-01-22T00:00:00Z",
                          "end": "2026-01-29T00:00:00Z", "hours": 168}, \
    doc["horizon"]
assert len(doc["series"]) == 1
s = doc["series"][0]
for k in ("provider", "region", "instance_type", "workload", "method",
          "backtest", "points"):
    assert k in s, k
assert s["instance_type"] == "p4d.24xlarge" and s["workload"] == "inference"
for k in ("relative_mae", "mase", "mape", "coverage"):
    assert k in s["backtest"], k
# 504 hours of history, over two weeks: MASE is scaled by the last week
# repeated (README, "Forecast")
assert s["backtest"]["mase_season_hours"] == 168, s["backtest"]
assert len(s["points"]) == 168
assert s["points"][0]["t"] == "2026-01-22T00:00:00Z"
for p in s["points"]:
    for q in ("p10", "p50", "p90"):
        near(p[q], 10.0, q, 1e-9)
rows = list(csv.DictReader(open(d + "/csv/forecast.csv")))
assert len(rows) == 168, len(rows)
assert rows[-1]["t"] == "2026-01-28T23:00:00Z" and float(rows[-1]["p50"]) == 10
rec = json.load(open(d + "/recommend.json"))
f = rec["forward"]
assert f["horizon"]["start"] == "2026-01-22T00:00:00Z", f
near(rec["baseline"]["policy_cost"], 55053.60, "policy cost")
near(rec["plan"]["total_cost"], 34440.00, "plan cost")
near(f["p50_net_savings"], 20613.60, "P50 net savings")
near(f["downside_net_savings"], 20613.60, "P10 net savings")
near(f["upside_net_savings"], 20613.60, "P90 net savings")
near(f["p50_instance_hours"], 1680.0, "P50 instance-hours")
print("forecast_json: 1 passed, 0 failed")
PY
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl forecast_json
"$PY" - "$dir/forward.xlsx" <<'PY'
import sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Summary"]
rows = {r[0]: r for r in ws.iter_rows(values_only=True) if r and r[0]}
assert "Headline, over the forecast horizon (P50 demand)" in rows, list(rows)
assert "Headline, over the data window" not in rows
assert abs(rows["Current cost"][1] - 55053.60) < 0.005, rows["Current cost"]
assert "forecast's P50" in rows["Current cost"][2], rows["Current cost"]
assert abs(rows["Net savings if demand is the P10"][1] - 20613.60) < 0.005
assert "Share of the P50's best purchase captured" in rows
# the Forecast sheet forecasts the plan's 168 hours, not a default quarter
assert rows["Instance-hours demanded, P50"][1] == 1680, rows
assert not any("over four times the history" in str(k) for k in rows), rows
print("forecast_json: forward workbook passed")
PY

# A forward plan that buys nothing: three weeks of 4 p4d.24xlarge for one
# hour a day (03:00).  Any seasonal method repeats it, so the next week's
# P50 is 7 x 4 = 28 instance-hours, 28 x 32.77 = 917.56 on demand, and a
# reservation used 1/24 of the time (below the 62.56% break-even) does not
# pay.  The Summary's what-if block starts from that headline: its cached
# current cost is 917.56 (it was 0: it read the bills, and a forward plan
# bills nothing).
python3 - "$dir/sparse.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for d in range(21):
        f.write("%d,p4d.24xlarge,inference,4\n" % (1767225600 + 86400 * d
                                                   + 3 * 3600))
PY
"$bin" recommend --quiet --forward 168h --out "$dir/nothing.xlsx" \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$dir/sparse.csv" > /dev/null
"$PY" - "$dir/nothing.xlsx" <<'PY'
import sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1], data_only=True)["Summary"]
rows = [r for r in ws.iter_rows(values_only=True) if r and r[0]]
labels = [r[0] for r in rows]
assert "nothing to buy: no commitment would pay for itself" in labels, labels
what_if = {r[0]: r for r in rows[labels.index(
    "What if (change the yellow cells)"):]}
assert abs(what_if["Current cost"][1] - 917.56) < 0.005, what_if
assert abs(what_if["Plan cost"][1] - 917.56) < 0.005, what_if
assert abs(what_if["Net savings"][1]) < 0.005, what_if
print("forecast_json: forward plan buying nothing passed")
PY

# The CSV holds the JSON's points to 12 significant figures, as the other
# CSVs do (six before).
"$bin" forecast --quiet --json --csv "$dir/sample-csv" > "$dir/sample.json"
"$PY" - "$dir/sample.json" "$dir/sample-csv/forecast.csv" <<'PY'
import csv, json, sys
doc = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
points = [p for s in doc["series"] for p in s["points"]]
assert len(rows) == len(points), (len(rows), len(points))
for r, p in zip(rows, points):
    assert r["t"] == p["t"], (r, p)
    for q in ("p10", "p50", "p90"):
        assert abs(float(r[q]) - p[q]) <= 1e-11 * max(1.0, abs(p[q])), (r, p)
print("forecast_json: CSV points match the JSON passed")
PY

# Unlabelled usage is classified before it is forecast, so the scenario's
# growth applies to it: four weeks of an unlabelled daily shape, growth
# 50% a month for inference.  Each point is the no-growth forecast's times
# 1.5^((i+1)/730), i hours ahead (README, "Forecast"); the series was
# left "unlabeled" and took no growth.
python3 - "$dir/unlabelled.csv" <<'PY'
import math, sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(672):
        n = 10 + 4 * math.sin(2 * math.pi * (h % 24) / 24)
        f.write("%d,g6e.xlarge,,%.3f\n" % (1767225600 + 3600 * h, n))
PY
printf '{"schema": "gpuplan-scenario/1", "growth": {"inference": 0.5}}\n' \
    > "$dir/g50.json"
"$bin" forecast --quiet --json --horizon 2w --trace "$dir/unlabelled.csv" \
    > "$dir/flat.json"
"$bin" forecast --quiet --json --horizon 2w --trace "$dir/unlabelled.csv" \
    --scenario "$dir/g50.json" > "$dir/grown.json"
python3 - "$dir/flat.json" "$dir/grown.json" <<'PY'
import json, sys
flat, grown = (json.load(open(p))["series"] for p in sys.argv[1:3])
assert len(flat) == len(grown) == 1
assert grown[0]["workload"] == "inference", grown[0]["workload"]
for i, (a, b) in enumerate(zip(flat[0]["points"], grown[0]["points"])):
    want = a["p50"] * 1.5 ** ((i + 1) / 730)
    assert abs(b["p50"] - want) <= 1e-9 * max(1, want), (i, a, b, want)
print("forecast_json: growth on classified unlabelled usage passed")
PY
