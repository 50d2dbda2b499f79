#!/bin/sh
# recommend --csv DIR writes idle.csv: the idle spans of the report the
# workbook's Idle sheet shows, in simulate's columns.  It used to write no
# idle.csv at all, while the JSON's warnings and the workbook said "1 idle
# span ... (see Idle)".
#
# Trace tests/e2e/data/idle-host.csv (prices tests/data/engine: g5.xlarge
# $1.006/h on demand), worked by hand in idle_simulate.sh: h1/gpu0 is below
# 5% from 01:00 to 04:00 on 2026-01-05, 3 h, 3 instance-hours, $3.018.
#   recommend:              the whole trace is its window, as simulate's:
#                           the same idle.csv as simulate --csv, byte for
#                           byte
#   --train-until 03:00:    the hours before the cut, which it bills: the
#                           span cut at 03:00, 2 h, 2 x 1.006 = $2.012
#   --forward 1w:           the trace's window, as the workbook and the
#                           JSON's warnings show it: 3 h, $3.018
#   --idle-threshold 60:    50, 2, 2, 2 are below 60%: 00:00-04:00, 4 h,
#                           $4.024
# Each is also checked against its workbook's Idle sheet.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_idle_csv
export GPUPLAN_TODAY=2026-01-07
set -- --quiet --runs 10 --seed 1 --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/idle-host.csv"
"$bin" simulate "$@" --csv "$dir/simulate" > /dev/null
"$bin" recommend "$@" --csv "$dir/window" --out "$dir/window.xlsx" > /dev/null
"$bin" recommend "$@" --train-until 2026-01-05T03:00:00Z \
    --csv "$dir/backtest" --out "$dir/backtest.xlsx" > /dev/null
"$bin" recommend "$@" --forward 1w --csv "$dir/forward" \
    --out "$dir/forward.xlsx" > /dev/null
"$bin" recommend "$@" --idle-threshold 60 --csv "$dir/t60" \
    --out "$dir/t60.xlsx" > /dev/null
cmp "$dir/simulate/idle.csv" "$dir/window/idle.csv" ||
    { echo "recommend's idle.csv is not simulate's"; exit 1; }
"$PY" - "$dir" <<'PY'
import csv, datetime, sys
import openpyxl
d = sys.argv[1]
want = {  # label, start, end, hours, cost
    "window": ("h1/gpu0", "2026-01-05T01:00:00Z", "2026-01-05T04:00:00Z", 3,
               3.018),
    "backtest": ("h1/gpu0", "2026-01-05T01:00:00Z", "2026-01-05T03:00:00Z",
                 2, 2.012),
    "forward": ("h1/gpu0", "2026-01-05T01:00:00Z", "2026-01-05T04:00:00Z", 3,
                3.018),
    "t60": ("h1/gpu0", "2026-01-05T00:00:00Z", "2026-01-05T04:00:00Z", 4,
            4.024),
}
header = ("label,job_id,provider,region,instance_type,workload,team,project,"
          "start,end,hours,mean_util_pct,gpu_hours,instance_hours,cost")
for run, (label, start, end, hours, cost) in want.items():
    text = open("%s/%s/idle.csv" % (d, run)).read()
    assert text.splitlines()[0] == header, (run, text)
    rows = list(csv.DictReader(text.splitlines()))
    assert len(rows) == 1, (run, rows)
    r = rows[0]
    got = (r["label"], r["start"], r["end"], float(r["hours"]),
           float(r["cost"]))
    assert got[:3] == (label, start, end), (run, got)
    assert abs(got[3] - hours) < 1e-9 and abs(got[4] - cost) < 1e-9, (run, got)
    # the workbook's Idle sheet lists the same span
    ws = openpyxl.load_workbook("%s/%s.xlsx" % (d, run))["Idle"]
    table = [x for x in ws.iter_rows(values_only=True)]
    first = [i for i, x in enumerate(table) if x[0] == "GPU or job"][0]
    sheet = [x for x in table[first + 1:] if x[0] is not None]
    assert len(sheet) == 1, (run, sheet)
    s = sheet[0]
    when = lambda v: v.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert (s[0], when(s[3]), when(s[4])) == (label, start, end), (run, s)
    assert abs(s[5] - hours) < 1e-9 and abs(s[9] - cost) < 1e-9, (run, s)
PY
echo "recommend_idle_csv: ok"
