#!/bin/sh
# A plan's risk gives its low-demand case whatever its terms: the bundled
# sample's aggressive plan buys 3-year terms, and its risk ended at "the
# plan pays $141746 a year for 3 years whatever demand does", never
# saying what it does in the low-demand case, which the 1-year plans'
# risk gives.  Each plan's risk now ends "; in the low-demand case it
# saves (or loses) $X over the window", X its downside_net_savings with
# thousands separators, as the tables write it.
#
# The 3-year plan's yearly payment is written the same way: it read "the
# plan pays $141746 a year", with no separators and no cents, beside
# "saves $117,701.36 over the window".  The amount is the plan's
# annual_commitment_cost from plans.csv, formatted here by Python's
# "{:,.2f}"; the JSON, plans.csv and the workbook's Plans sheet carry the
# same risk text.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_risk_low_case
GPUPLAN_DATA_DIR="$src" GPUPLAN_TODAY=2026-11-21 "$bin" recommend --quiet \
    --json --csv "$out/csv" --out "$out/r.xlsx" > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, sys
plans = json.load(open(sys.argv[1]))["plans"]
assert any(p["max_term_years"] == 3 for p in plans), plans
for p in plans:
    d = p["downside_net_savings"]
    # the amount as the tables write it: "$12,345.67"
    want = "; in the low-demand case it %s ${:,.2f} over the window".format(
        abs(d)) % ("loses" if d < 0 else "saves")
    assert p["risk"].endswith(want), (p["name"], p["risk"], want)
PY
$PY - "$out/r.json" "$out/csv/plans.csv" "$out/r.xlsx" <<'PY'
import csv, json, sys
import openpyxl
plans = json.load(open(sys.argv[1]))["plans"]
rows = {r["name"]: r for r in csv.DictReader(open(sys.argv[2]))}
ws = openpyxl.load_workbook(sys.argv[3])["Plans"]
head = None
sheet = {}
for r in ws.iter_rows(values_only=True):  # the plans table, to its end
    if head is None and "Risk" in r:
        head = list(r)
    elif head and not r[0]:
        break
    elif head:
        sheet[r[0]] = r[head.index("Risk")]
three = [p for p in plans if p["max_term_years"] == 3]
assert three, plans  # the premise: the sample's aggressive plan
for p in plans:
    assert rows[p["name"]]["risk"] == p["risk"], (rows[p["name"]], p)
    assert sheet[p["name"]] == p["risk"], (sheet, p)
for p in three:
    annual = float(rows[p["name"]]["annual_commitment_cost"])
    want = "the plan pays ${:,.2f} a year for 3 years".format(annual)
    assert want in p["risk"], (p["risk"], want)
PY
echo "recommend_risk_low_case: ok"
