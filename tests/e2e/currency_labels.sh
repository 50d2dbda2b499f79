#!/bin/sh
# Money is labelled with the catalogs' currency (README, "Money is in the
# catalogs' currency"): "$" is for USD only.  A hand-made catalog in EUR
# (x.large at 10 an hour on demand) and a trace of 4 x.large for one hour
# cost 4 x 10 = 40 on demand, so:
#   - the terminal says "EUR 40.00" (not "$40.00") and "EUR/useful GPU-h";
#   - --json gives inputs.currency "EUR";
#   - the workbook's money cells are formatted "EUR "#,##0.00, no number
#     format or header says "$", and Summary says "all amounts in EUR".
# The bundled catalogs are in USD: the sample's JSON says "USD".
set -eu
bin=$1
src=$2
GPUPLAN_TODAY=${GPUPLAN_TODAY:-2026-11-21}
export GPUPLAN_TODAY
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl currency_labels
cat > "$out/eur.json" <<'JSON'
{
  "schema": "gpuplan-catalog/1",
  "provider": "aws", "region": "eu-west-1", "currency": "EUR",
  "as_of": "2026-11-01",
  "sources": ["test fixture: round numbers in euros"],
  "instance_types": {
    "x.large": {
      "family": "x", "gpu_model": "T4", "gpus": 4, "vcpus": 16,
      "memory_gib": 64, "on_demand": 10,
      "reserved": [{"term_years": 1, "payment": "no_upfront", "hourly": 6}],
      "savings_plans": [{"kind": "compute", "term_years": 1,
                         "payment": "no_upfront", "hourly": 7}]
    }
  }
}
JSON
printf 'timestamp,instance_type,workload,instances,gpu_util\n2026-11-02T00:00:00Z,x.large,inference,4,50\n' \
    > "$out/t.csv"
"$bin" simulate --pricing "$out/eur.json" --trace "$out/t.csv" \
    > "$out/term.txt"
grep -q ' EUR 40.00 ' "$out/term.txt" || {
    cat "$out/term.txt" >&2
    echo "currency_labels: no EUR 40.00 on the terminal" >&2
    exit 1
}
grep -q 'EUR/useful GPU-h' "$out/term.txt"
if grep -q '\$' "$out/term.txt"; then
    cat "$out/term.txt" >&2
    echo "currency_labels: a \$ on the terminal of a EUR run" >&2
    exit 1
fi
"$bin" simulate --quiet --json --out "$out/eur.xlsx" \
    --pricing "$out/eur.json" --trace "$out/t.csv" > "$out/eur.out"
"$bin" recommend --quiet --json > "$out/usd.out"
$PY - "$out" <<'PY'
import json, sys
import openpyxl
out = sys.argv[1]
assert json.load(open(out + "/eur.out"))["inputs"]["currency"] == "EUR"
assert json.load(open(out + "/usd.out"))["inputs"]["currency"] == "USD"
wb = openpyxl.load_workbook(out + "/eur.xlsx")
s = wb["Summary"]
# the line under the title names the currency
assert "all amounts in EUR;" in s["A2"].value, s["A2"].value
money = 0
for ws in wb:
    for row in ws.iter_rows():
        for c in row:
            assert "$" not in c.number_format, (ws.title, c.coordinate,
                                                c.number_format)
            if c.number_format == '"EUR "#,##0.00;-"EUR "#,##0.00':
                money += 1
            v = c.value
            if isinstance(v, str) and not v.startswith("="):
                assert "$" not in v, (ws.title, c.coordinate, v)
assert money > 10, money
# the on-demand cost, 4 x 10, in a EUR cell
at = {s.cell(r, 1).value: r for r in range(1, s.max_row + 1)}
c = s.cell(at["Cost if everything ran on demand"] if
           "Cost if everything ran on demand" in at else
           at["Current cost"], 2)
assert abs(c.value - 40) < 1e-9 and "EUR" in c.number_format, (c.value,
                                                               c.number_format)
PY
echo "currency_labels: ok"
