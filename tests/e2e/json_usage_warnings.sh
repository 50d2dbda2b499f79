#!/bin/sh
# The JSON's inputs.warnings holds every warning the workbook's Summary
# lists, the idle-spans line included (it was in the Summary only).  The
# trace and prices of idle_window.sh (tests/e2e/data/idle-window.*;
# tests/data/engine: g5.xlarge, 1 GPU,
# $1.006/h): in the window 02:00-05:00 job j1 is idle 2 h on 2 instances
# and web/b 3 h on 1: 2 spans, 4 + 3 = 7.0 GPU-hours, 7 x 1.006 = $7.04.
# recommend --train-until 03:00 judges the hours before the cut: j1 3 h x
# 2 and web/b 3 h, 9.0 GPU-hours, $9.05.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$src/tests/e2e/data/idle-window.csv" "$out/trace.csv"
cp "$src/tests/e2e/data/idle-window.json" "$out/scenario.json"
cat="$src/tests/data/engine/aws-test.json"
"$bin" simulate --quiet --pricing "$cat" --trace "$out/trace.csv" \
    --scenario "$out/scenario.json" --json --out "$out/sim.xlsx" \
    > "$out/sim.json"
"$bin" recommend --quiet --pricing "$cat" --trace "$out/trace.csv" \
    --train-until 2026-01-05T03:00:00Z --json --out "$out/rec.xlsx" \
    > "$out/rec.json"
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl json_usage_warnings
"$PY" - "$out" <<'PY'
import json, sys
import openpyxl
d = sys.argv[1]
def summary(path):
    ws = openpyxl.load_workbook(path)["Summary"]
    col = [r[0] for r in ws.iter_rows(values_only=True)]
    i = col.index("Warnings and notes") + 1
    lines = []
    while i < len(col) and col[i] is not None:
        lines.append(col[i])
        i += 1
    return lines
for name, want in (
    ("sim", "2 idle spans: 7.0 GPU-hours below 5% utilization for 2 hours "
            "or more, $7.04 at on-demand rates (see Idle)"),
    ("rec", "2 idle spans: 9.0 GPU-hours below 5% utilization for 2 hours "
            "or more, $9.05 at on-demand rates (see Idle)")):
    warnings = json.load(open("%s/%s.json" % (d, name)))["inputs"]["warnings"]
    assert warnings and warnings[0] == want, (name, warnings)
    assert warnings.count(want) == 1, (name, warnings)
    lines = summary("%s/%s.xlsx" % (d, name))
    assert lines.count(want) == 1, (name, lines)
    # the Summary lists the JSON's warnings first, in the same order (then
    # recommend's notes, the JSON's "notes", and the notes of the
    # workbook's own Forecast sheet)
    assert lines[:len(warnings)] == warnings, (name, lines, warnings)
PY
echo "json_usage_warnings: ok"
