#!/bin/sh
# The Forecast sheet's chart starts below its notes, whichever notes
# there are: the hold-out's (--train-until) and the forecast's own.  (Since
# #39 the sheet has one chart, of the daily table, beside that table under
# the notes; before, one band chart per series beside the series table.)
# Before,
# the charts moved below the notes only when the forecast had notes of its
# own; with --train-until and none, they stayed at row 4, beside the series
# table, so the hold-out note (row 6 here) sat in the first chart's rows
# (4 to 19, from column R) and a long enough note ran under it.
#
# Traces (prices: tests/data/engine/aws-test.json), p4d.24xlarge from
# 2026-01-01T00:00:00Z:
# - wave.csv, five weeks (840 hours) of inference 10 + 4 sin(2 pi h / 24)
#   + (h^2 mod 13) / 2 (the noise repeats every 312 hours, so no naive
#   forecast is exact and there is no exact-baseline note).  Cut at
#   2026-01-29T00:00:00Z: 672 hours of history, so recommend's 13-week
#   forecast (2184 hours) is under four times it and has no note either;
#   forecast --horizon 1w neither.  The only note is the hold-out's.
# - short.csv, the first three weeks of wave.csv and a constant 4 for
#   training, cut at 2026-01-15T00:00:00Z: 336 hours of history, so
#   recommend's forecast also has "the horizon ... is over four times the
#   history" and the constant's "the last week repeated is exact" (the
#   case d722d13 placed the charts for).
# In every workbook the notes are the column-A texts between the series
# table and the daily table's heading, "Day by day, every series summed";
# the one chart's top-left row (openpyxl's anchor._from.row, 0-based) must
# be below the last of them.  Without --train-until and without notes
# there are none, and the chart is still below the series table.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_forecast_note_charts
"$PY" - "$dir" <<'PYEOF'
import math, sys
d = sys.argv[1]
with open(d + "/wave.csv", "w") as w, open(d + "/short.csv", "w") as s:
    for f in (w, s):
        f.write("timestamp,instance_type,workload,instances\n")
    for h in range(840):
        t = 1767225600 + 3600 * h
        v = 10 + 4 * math.sin(2 * math.pi * h / 24) + (h * h % 13) / 2
        w.write("%d,p4d.24xlarge,inference,%.6f\n" % (t, v))
        if h < 504:
            s.write("%d,p4d.24xlarge,inference,%.6f\n" % (t, v))
            s.write("%d,p4d.24xlarge,training,4\n" % t)
PYEOF
P="$src/tests/data/engine/aws-test.json"
export GPUPLAN_TODAY=2026-02-05
"$bin" recommend --quiet --pricing "$P" --trace "$dir/wave.csv" --runs 10 \
    --train-until 2026-01-29T00:00:00Z --out "$dir/rec-wave.xlsx" > /dev/null
"$bin" forecast --quiet --pricing "$P" --trace "$dir/wave.csv" \
    --horizon 1w --train-until 2026-01-29T00:00:00Z \
    --out "$dir/fc-wave.xlsx" > /dev/null
"$bin" recommend --quiet --pricing "$P" --trace "$dir/short.csv" --runs 10 \
    --train-until 2026-01-15T00:00:00Z --out "$dir/rec-short.xlsx" > /dev/null
"$bin" forecast --quiet --pricing "$P" --trace "$dir/wave.csv" \
    --horizon 1w --out "$dir/fc-plain.xlsx" > /dev/null
"$PY" - "$dir" <<'PYEOF'
import sys, openpyxl
d = sys.argv[1]


def sheet(name):
    """(0-based rows of the notes under the series table, their texts,
    0-based top rows of the charts)"""
    ws = openpyxl.load_workbook(d + "/" + name)["Forecast"]
    table = [t for t in ws.tables.values() if t.ref.startswith("A4:")][0]
    end = int(table.ref.split(":")[1].lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
    notes = []
    for r in range(end + 1, ws.max_row + 1):
        v = ws.cell(row=r, column=1).value
        if v == "Day by day, every series summed":
            break
        if isinstance(v, str):
            notes.append((r - 1, v))
    charts = [c.anchor._from.row for c in ws._charts]
    return [r for r, _ in notes], [v for _, v in notes], charts, end


failed = 0
for name, n_notes, n_charts in (("rec-wave.xlsx", 1, 1),
                                ("fc-wave.xlsx", 1, 1),
                                ("rec-short.xlsx", 3, 1)):
    rows, texts, charts, _ = sheet(name)
    ok = (len(texts) == n_notes and texts[0].startswith("Hold-out: ")
          and len(charts) == n_charts and min(charts) > max(rows))
    if not ok:
        failed += 1
        print("FAIL %s: notes on 0-based rows %s (%s), charts from rows %s"
              % (name, rows, [t[:40] for t in texts], charts))
rows, texts, charts, end = sheet("fc-plain.xlsx")
if rows or len(charts) != 1 or charts[0] < end:
    failed += 1
    print("FAIL fc-plain.xlsx: notes %s, charts from rows %s" % (texts, charts))
print("xlsx_forecast_note_charts: %d passed, %d failed" % (4 - failed, failed))
sys.exit(1 if failed else 0)
PYEOF
