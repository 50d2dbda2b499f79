#!/bin/sh
# recommend --forward passes on its forecast's notes (prices:
# tests/data/engine/aws-test.json).
#
# Trace: five days (120 hours from 2026-01-01T00:00:00Z) of 10 p4d.24xlarge
# for inference and rows of 0 for training.  Its forecast has three notes:
# the training series is left out (demand 0 in all 120 hours, to
# 2026-01-06T00:00:00Z), the history is 120 hours (under two weeks), and
# the constant inference demand makes the last week repeated exact on the
# backtest.  All three bear on a plan bought against that forecast, so
# recommend --forward gives each, as "forecast: " and the note, in its
# JSON notes, on its table and once in the workbook's Summary (which showed
# the forecast's notes already; the JSON and the table did not).
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_forward_notes
"$PY" - "$dir/trace.csv" <<'PYEOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(120):
        t = 1767225600 + 3600 * h
        f.write("%d,p4d.24xlarge,inference,10\n" % t)
        f.write("%d,p4d.24xlarge,training,0\n" % t)
PYEOF
P="$src/tests/data/engine/aws-test.json"
export GPUPLAN_TODAY=2026-01-07
set -- --quiet --forward 1w --runs 10 --seed 1 --pricing "$P" \
    --trace "$dir/trace.csv"
"$bin" recommend "$@" --json > "$dir/rec.json"
"$bin" recommend "$@" > "$dir/rec.txt"
"$bin" recommend "$@" --out "$dir/rec.xlsx" > /dev/null
"$PY" - "$dir" <<'PYEOF'
import json, sys, openpyxl
d = sys.argv[1]
pool = "aws/us-east-1/p4d.24xlarge"
want = [
    "forecast: %s training: left out of the forecast, as its demand is 0 in "
    "all 120 hours of the history (to 2026-01-06T00:00:00Z)" % pool,
    "forecast: only 120 hours of history: weekly seasonality is not "
    "modelled and the backtest is short",
    "forecast: %s inference: the last week repeated is exact on the "
    "backtest (its MAE is at most a billionth of mean demand), so relative "
    "MAE is null: there is no error to beat" % pool,
]
notes = json.load(open(d + "/rec.json"))["notes"]
for w in want:
    assert notes.count(w) == 1, (w, notes)
table = open(d + "/rec.txt").read().splitlines()
for w in want:
    assert table.count("note: " + w) == 1, (w, table[-6:])
summary = [r[0] for r in
           openpyxl.load_workbook(d + "/rec.xlsx")["Summary"].iter_rows(
               values_only=True) if r and isinstance(r[0], str)]
for w in want:
    assert summary.count(w) == 1, (w, summary)
    # and not a second time without the prefix
    assert summary.count(w[len("forecast: "):]) == 0, (w, summary)
print("recommend_forward_notes: 1 passed, 0 failed")
PYEOF
