#!/bin/sh
# A window under a day has no low-demand case (the case repeats the
# window's lowest day, and there is no whole day in it), so every
# downside_net_savings is unknown: JSON null, a blank CSV and workbook
# cell, "n/a" on the terminal, and the plans' risk says why.  It was 0.0
# and "in the low-demand case it saves $0.00", a figure nobody computed.
#
# Trace (test catalog tests/data/engine/aws-test.json), 8 hours from
# 2026-01-05T00:00Z: 2 p4d.24xlarge training, interruptible (spot $10 vs
# $32.77 on demand, so routing training to spot pays), 2 g5.2xlarge
# inference (a reservation pays: $0.75 against $1.212) and 4 g5.xlarge
# inference; 4 owned g5.xlarge 1-year no_upfront reservations expire at
# 04:00, in the window, so a renewal is offered.  Every kind of action
# (routing, a new commitment, a renewal) and every plan is checked.
#
# The same trace over 24 hours (one whole day) does have the case: its
# low-demand figures are numbers, and the risk names the saving.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_short_window
"$PY" - "$out" <<'PYEOF'
import sys
out = sys.argv[1]
for name, hours in (("short", 8), ("day", 24)):
    with open(f"{out}/{name}.csv", "w") as f:
        f.write("timestamp,instance_type,workload,instances,interruptible\n")
        for h in range(hours):
            t = 1767571200 + h * 3600  # 2026-01-05T00:00:00Z
            f.write(f"{t},p4d.24xlarge,training,2,true\n")
            f.write(f"{t},g5.xlarge,inference,4,false\n")
            f.write(f"{t},g5.2xlarge,inference,2,false\n")
open(f"{out}/own.json", "w").write(
    '{"schema": "gpuplan-scenario/1", "commitments": [{"type": "reserved", '
    '"provider": "aws", "region": "us-east-1", "instance_type": '
    '"g5.xlarge", "count": 4, "term_years": 1, "payment": "no_upfront", '
    '"start": "2025-01-05T04:00:00Z"}]}')
PYEOF
cat="$src/tests/data/engine/aws-test.json"
for w in short day; do
    GPUPLAN_TODAY=2026-01-06 "$bin" recommend --quiet --pricing "$cat" \
        --trace "$out/$w.csv" --scenario "$out/own.json" --json \
        > "$out/$w.json"
done
GPUPLAN_TODAY=2026-01-06 "$bin" recommend --quiet --pricing "$cat" \
    --trace "$out/short.csv" --scenario "$out/own.json" \
    --csv "$out/csv" --out "$out/short.xlsx" > "$out/short.txt"
"$PY" - "$out" <<'PYEOF'
import csv, json, sys
import openpyxl
out = sys.argv[1]
NO_CASE = ("no low-demand case, as the window is under a day (the case "
           "repeats its lowest day)")

# the premise: routing, a new commitment and a renewal are all offered
rec = json.load(open(f"{out}/short.json"))
types = [(a["type"], a.get("renewal", False)) for a in rec["actions"]]
assert ("routing", False) in types, types
assert any(not r for t, r in types if t != "routing"), types
assert any(r for t, r in types), types
for a in rec["actions"]:
    assert a["downside_net_savings"] is None, a
for p in rec["plans"]:
    assert p["downside_net_savings"] is None, p
    assert NO_CASE in p["risk"] and "$" not in p["risk"], p["risk"]

with open(f"{out}/csv/recommendations.csv") as f:
    rows = list(csv.DictReader(f))
assert len(rows) == len(rec["actions"]), rows
assert all(r["downside_net_savings"] == "" for r in rows), rows
with open(f"{out}/csv/plans.csv") as f:
    rows = list(csv.DictReader(f))
assert len(rows) == 3 and all(r["downside_net_savings"] == "" for r in rows)

wb = openpyxl.load_workbook(f"{out}/short.xlsx")
def column(ws, title):
    for row in ws.iter_rows():
        for c in row:
            if c.value == title:
                return [ws.cell(row=r, column=c.column).value
                        for r in range(c.row + 1, ws.max_row + 1)], c.row
    raise AssertionError(title)
low, _ = column(wb["Recommendations"], "Low-demand net savings")
assert low[:len(rec["actions"])] == [None] * len(rec["actions"]), low
low, _ = column(wb["Plans"], "Low-demand net savings")
assert low[:3] == [None] * 3, low

# the terminal: "n/a" in the low demand column of every action and plan
lines = open(f"{out}/short.txt").read().splitlines()
head = [i for i, l in enumerate(lines) if l.startswith("rank")][0]
acts = [l for l in lines[head + 1:] if l[:4].strip().isdigit()]
assert len(acts) == len(rec["actions"]), acts
assert all(l.split()[-2] == "n/a" for l in acts), acts
plans = [l for l in lines if l.split()[:1] in (["conservative"],
                                              ["balanced"], ["aggressive"])]
assert len(plans) == 3, plans
assert all(l.split()[3] == "n/a" for l in plans), plans

# a whole day has the case
rec = json.load(open(f"{out}/day.json"))
for a in rec["actions"]:
    assert isinstance(a["downside_net_savings"], float), a
for p in rec["plans"]:
    assert isinstance(p["downside_net_savings"], float), p
    assert "in the low-demand case it " in p["risk"], p["risk"]
PYEOF
echo "recommend_short_window: ok"
