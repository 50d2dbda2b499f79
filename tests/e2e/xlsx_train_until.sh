#!/bin/sh
# The workbook of a run with --train-until or --forward: its Forecast
# sheet forecasts from the hours the run learned from, and its Inputs sheet
# lists the options given that change the numbers.
#
# Trace: three weeks (504 hours from 2026-01-01T00:00:00Z) of 10
# p4d.24xlarge for inference, the count in a column "n" read with --map
# instances=n.  recommend --train-until 2026-01-15T00:00:00Z learns from
# the 336 hours before the cut, so its Forecast sheet forecasts the next
# quarter (13 x 168 = 2,184 hours) from the cut: the first hourly row is
# 2026-01-15T00:00:00Z, not the trace's end 2026-01-22T00:00:00Z (what it
# showed before), and it was fitted on 336 hours.  Every method forecasts
# the constant exactly, so every P50 is 10.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_train_until
"$PY" - "$dir/trace.csv" <<'PYEOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,n\n")
    for h in range(504):
        f.write("%d,p4d.24xlarge,inference,10\n" % (1767225600 + 3600 * h))
PYEOF
P="$src/tests/data/engine/aws-test.json"
export GPUPLAN_TODAY=2026-01-23
"$bin" recommend --quiet --map instances=n --pricing "$P" \
    --trace "$dir/trace.csv" --train-until 2026-01-15T00:00:00Z \
    --out "$dir/backtest.xlsx" > /dev/null
"$bin" forecast --quiet --map instances=n --pricing "$P" \
    --trace "$dir/trace.csv" --train-until 2026-01-15T00:00:00Z \
    --horizon 1w --out "$dir/forecast.xlsx" > /dev/null
"$bin" recommend --quiet --map instances=n --pricing "$P" \
    --trace "$dir/trace.csv" --forward 1w --runs 10 --seed 3 \
    --out "$dir/forward.xlsx" > /dev/null
"$bin" simulate --quiet --map instances=n --pricing "$P" \
    --trace "$dir/trace.csv" --out "$dir/simulate.xlsx" > /dev/null
"$PY" - "$dir" <<'PYEOF'
import datetime as dt, sys, openpyxl
d = sys.argv[1]

def hourly(wb):
    """The hourly rows (series, hour, P10, P50, P90), on the sheet
    Forecast data since #39."""
    return [r[:5] for r in wb["Forecast data"].iter_rows(values_only=True)
            if r and r[0] and isinstance(r[1], dt.datetime)]

def options(wb):
    """The Inputs sheet's block of options given: {label: value}."""
    rows = [r for r in wb["Inputs"].iter_rows(values_only=True)]
    labels = [r[0] for r in rows]
    i = labels.index("Options given that change the numbers") + 1
    out = {}
    while rows[i][0]:
        out[rows[i][0]] = rows[i][1]
        i += 1
    return out

wb = openpyxl.load_workbook(d + "/backtest.xlsx")
h = hourly(wb)
assert h[0][1] == dt.datetime(2026, 1, 15), h[0]
assert len(h) == 2184, len(h)
assert all(abs(r[3] - 10) < 1e-9 for r in h), [r for r in h if r[3] != 10][:3]
summary = [r for r in wb["Summary"].iter_rows(values_only=True)]
# the horizon as dates (#39): a backtest's stays, its horizon past or not
horizon = [r[1:4] for r in summary if r[0] == "Horizon"]
assert horizon == [(dt.datetime(2026, 1, 15), dt.datetime(2026, 4, 16),
                    "2184 hours, 1 series")], horizon
o = options(wb)
assert o == {"--train-until": "2026-01-15T00:00:00Z (recommended from the "
             "hours before it, bought and billed from it)",
             "--map": "instances=n"}, o

o = options(openpyxl.load_workbook(d + "/forecast.xlsx"))
assert o == {"--train-until": "2026-01-15T00:00:00Z (forecast from the "
             "hours before it, scored on the hours after it)",
             "--horizon": "168 hours", "--map": "instances=n"}, o

wb = openpyxl.load_workbook(d + "/forward.xlsx")
assert hourly(wb)[0][1] == dt.datetime(2026, 1, 22), hourly(wb)[0]
o = options(wb)
assert o == {"--forward": "168 hours (bought against the forecast of the "
             "next 168 hours)", "--runs": 10, "--seed": 3,
             "--map": "instances=n"}, o

# nothing given but the map: simulate's workbook says only that
o = options(openpyxl.load_workbook(d + "/simulate.xlsx"))
assert o == {"--map": "instances=n"}, o
print("xlsx_train_until: 1 passed, 0 failed")
PYEOF
