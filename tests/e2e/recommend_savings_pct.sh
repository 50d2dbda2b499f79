#!/bin/sh
# An action's savings_pct is its net savings over the on-demand value the
# commitment covered, for a reservation as for a savings plan.  One
# x.large ($10/h on demand, $6/h reserved 1-year no upfront) runs 8 of
# the 10 hours of the trace: the reservation costs 10 x $6 = $60 against
# $80 on demand, net savings $20, over the $80 it covered: 25% (it said
# 20%, over one x.large for all 10 hours, $100).  The workbook's Savings %
# cell is the same figure.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/cat.json" <<'JSON'
{"schema": "gpuplan-catalog/1", "provider": "aws", "region": "us-east-1",
 "currency": "USD", "as_of": "2026-11-01", "sources": ["test catalog"],
 "instance_types": {"x.large": {"family": "x", "gpu_model": "T4", "gpus": 4,
  "vcpus": 16, "memory_gib": 64, "on_demand": 10,
  "reserved": [{"term_years": 1, "payment": "no_upfront", "hourly": 6,
                "upfront": 0}]}}}
JSON
printf 'timestamp,step_s,instance_type,workload,instances\n2026-03-02T00:00:00Z,28800,x.large,inference,1\n2026-03-02T09:00:00Z,3600,x.large,inference,0\n' \
    > "$out/t.csv"
"$bin" recommend --quiet --pricing "$out/cat.json" --trace "$out/t.csv" \
    --json --out "$out/r.xlsx" > "$out/r.json"
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_savings_pct
"$PY" - "$out" <<'PY'
import json, sys
import openpyxl
d = sys.argv[1]
acts = json.load(open(d + "/r.json"))["actions"]
assert len(acts) == 1 and acts[0]["type"] == "reserved", acts
a = acts[0]
assert abs(a["net_savings"] - 20) < 1e-9, a
assert abs(a["savings_pct"] - 0.25) < 1e-9, a
wb = openpyxl.load_workbook(d + "/r.xlsx")
found = False
for ws in wb.worksheets:
    for row in ws.iter_rows():
        for cell in row:
            if cell.value == "Savings %":
                below = ws.cell(row=cell.row + 1, column=cell.column).value
                if isinstance(below, (int, float)) and ws.title != "Summary":
                    assert abs(below - 0.25) < 1e-9, (ws.title, below)
                    found = True
assert found, "no Savings % cell"
PY
echo "recommend_savings_pct: ok"
