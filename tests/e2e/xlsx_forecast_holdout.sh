#!/bin/sh
# forecast --train-until --out: the Forecast sheet scores each series on
# the hold-out as --json does (prices: tests/data/engine/aws-test.json).
#
# Trace: three weeks (504 hours from 2026-01-01T00:00:00Z) of two series:
# p4d.24xlarge inference, a daily wave 10 + 4 sin(2 pi h / 24) with a
# little noise ((h^2 mod 13) / 2, which repeats every 312 hours, so no
# naive forecast is exact), and p4d.24xlarge training, a constant 4.
# Cut at 2026-01-15T00:00:00Z, horizon a week: each series is scored on the
# 168 hours after the cut.  The workbook's series table gets the hold-out's
# hours, MAE, the two naive baselines' MAE, relative MAE over each, MASE,
# MAPE and coverage, equal to the same run's --json holdout block (the
# constant's relative MAEs and MASE are null there, over an exact
# baseline, and blank cells here), and the band charts move to the right of
# the wider table.  Without --train-until the table is as before, 7
# columns with the charts from column I.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_forecast_holdout
"$PY" - "$dir/trace.csv" <<'PYEOF'
import math, sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(504):
        t = 1767225600 + 3600 * h
        v = 10 + 4 * math.sin(2 * math.pi * h / 24) + (h * h % 13) / 2
        f.write("%d,p4d.24xlarge,inference,%.6f\n" % (t, v))
        f.write("%d,p4d.24xlarge,training,4\n" % t)
PYEOF
P="$src/tests/data/engine/aws-test.json"
export GPUPLAN_TODAY=2026-01-23
set -- --quiet --pricing "$P" --trace "$dir/trace.csv" --horizon 1w
"$bin" forecast "$@" --train-until 2026-01-15T00:00:00Z --json \
    > "$dir/f.json"
"$bin" forecast "$@" --train-until 2026-01-15T00:00:00Z \
    --out "$dir/f.xlsx" > /dev/null
"$bin" forecast "$@" --out "$dir/plain.xlsx" > /dev/null
"$PY" - "$dir" <<'PYEOF'
import json, math, sys, openpyxl
d = sys.argv[1]
doc = json.load(open(d + "/f.json"))


def series_table(path):
    ws = openpyxl.load_workbook(path)["Forecast"]
    ref = [t for t in ws.tables.values()][0].ref
    rows = [r for r in ws[ref]]
    heads = [c.value for c in rows[0]]
    return ws, ref, heads, [dict(zip(heads, [c.value for c in r]))
                            for r in rows[1:]]


ws, ref, heads, rows = series_table(d + "/f.xlsx")
assert ref.startswith("A4:P"), ref
cols = {
    "Hold-out hours": "points",
    "Hold-out MAE (instance-hours/h)": "mae",
    "Hold-out MAE, last week repeated": "naive_168h_mae",
    "Hold-out MAE, last day repeated": "naive_24h_mae",
    "Hold-out relative MAE (vs last week)": "relative_mae",
    "Hold-out relative MAE (vs last day)": "relative_mae_day",
    "Hold-out MASE": "mase",
    "Hold-out MAPE (%)": "mape",
    "Hold-out interval coverage": "coverage",
}
assert heads[7:] == list(cols), heads
assert len(rows) == 2 == len(doc["series"]), rows
nulls = 0
for s in doc["series"]:
    name = "p4d.24xlarge %s (aws us-east-1)" % s["workload"]
    row = [r for r in rows if r["Series"] == name]
    assert len(row) == 1, (name, rows)
    row = row[0]
    h = s["holdout"]
    assert h["points"] == 168, h
    for head, key in cols.items():
        want, got = h[key], row[head]
        if want is None:
            nulls += 1
            assert got is None, (name, head, got)
        else:
            assert isinstance(got, (int, float)), (name, head, got)
            assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-12), \
                (name, head, got, want)
# the constant training series: relative MAE (both) and MASE are null
assert nulls == 3, nulls
# one chart (#39), clear of the hold-out's columns: below the series table
# (which ends on 1-based row `end`), right of the daily table (A to F)
end = int(ref.split(":")[1].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
charts = [(c.anchor._from.row, c.anchor._from.col) for c in ws._charts]
assert len(charts) == 1 and charts[0][0] >= end and charts[0][1] >= 6, charts

ws, ref, heads, rows = series_table(d + "/plain.xlsx")
assert ref == "A4:G6", ref
charts = [(c.anchor._from.row, c.anchor._from.col) for c in ws._charts]
assert len(charts) == 1 and charts[0][0] >= 6 and charts[0][1] >= 6, charts
print("xlsx_forecast_holdout: 1 passed, 0 failed")
PYEOF
