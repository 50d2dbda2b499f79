#!/bin/sh
# Chargeback's cost per useful GPU-hour in the workbook equals --csv when
# some rows carry no gpu_util.  Worked by hand (tests/data/engine:
# g5.xlarge, 1 GPU, $1.006/h): team a runs 1 instance for 4 hours, gpu_util
# 50, -, 50, -.  Cost 4 x 1.006 = $4.024; useful GPU-hours 2 x 0.5 = 1; the
# cost that came with a gpu_util is half of it, $2.012, so the cost per
# useful GPU-hour is 2.012 / 1 = $2.012 (engine.h, the --json rule), not
# 4.024 / 1.  Both the series row and the by-team row must show 2.012, with
# a formula that still computes it from the row's cells.
# Team b runs 1 g5.xlarge for training for 2 hours with no gpu_util at all:
# its useful GPU-hours are unknown, so its cells (series and team, and the
# --csv field) are empty, not 0, and so is its cost per useful GPU-hour.
# A trace of team b alone has no gpu_util anywhere: --json's
# useful_gpu_hours, the strategy's and the trace's, are null, not 0.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_chargeback_util
cat > "$out/trace.csv" <<'CSV'
timestamp,instance_type,workload,instances,gpu_util,team
2026-01-05T00:00:00Z,g5.xlarge,inference,1,50,a
2026-01-05T01:00:00Z,g5.xlarge,inference,1,,a
2026-01-05T02:00:00Z,g5.xlarge,inference,1,50,a
2026-01-05T03:00:00Z,g5.xlarge,inference,1,,a
2026-01-05T00:00:00Z,g5.xlarge,training,1,,b
2026-01-05T01:00:00Z,g5.xlarge,training,1,,b
CSV
grep -v ',a$' "$out/trace.csv" > "$out/b.csv"
"$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$out/b.csv" --json > "$out/b.json"
"$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$out/trace.csv" --csv "$out/csv" --out "$out/r.xlsx" >/dev/null
"$PY" - "$out" <<'PYEOF'
import csv, json, sys
import openpyxl
d = sys.argv[1]
def near(a, b, what):
    assert isinstance(a, (int, float)) and abs(a - b) < 1e-6, \
        "%s: %r, expected %r" % (what, a, b)
rows = list(csv.DictReader(open(d + "/csv/chargeback.csv")))
by_team = {r["team"]: r for r in rows}
near(float(by_team["a"]["cost_per_useful_gpu_hour"]), 2.012, "chargeback.csv")
assert by_team["b"]["useful_gpu_hours"] == "", by_team["b"]
assert by_team["b"]["cost_per_useful_gpu_hour"] == "", by_team["b"]
b = json.load(open(d + "/b.json"))
assert b["strategies"][0]["useful_gpu_hours"] is None, b["strategies"][0]
assert b["strategies"][0]["cost_per_useful_gpu_hour"] is None
assert b["inputs"]["trace"]["useful_gpu_hours"] is None, b["inputs"]["trace"]
values = openpyxl.load_workbook(d + "/r.xlsx", data_only=True)["Chargeback"]
formulas = openpyxl.load_workbook(d + "/r.xlsx")["Chargeback"]
seen = blank = 0
for row in values.iter_rows():
    if (row[0].value == "baseline" and row[1].value == "b") or \
            row[0].value == "b":
        # team b: cost 2 x 1.006, useful GPU-hours and their ratio empty
        col = 10 if row[0].value == "baseline" else 3
        near(row[7 if col == 10 else 1].value, 2.012, "team b's cost")
        assert row[col - 1].value is None, row[col - 1]
        assert row[col].value in (None, ""), row[col]
        blank += 1
    elif row[0].value in ("baseline", "a"):
        col = 10 if row[0].value == "baseline" else 3
        cell = row[col]
        near(cell.value, 2.012, "Chargeback %s" % cell.coordinate)
        # the formula, evaluated by hand on the row's cells, agrees
        f = formulas[cell.coordinate].value
        cost = row[7 if col == 10 else 1].value
        useful = row[9 if col == 10 else 2].value
        near(useful, 1, "useful GPU-hours")
        near(cost, 4.024, "cost")
        assert f.startswith("=IF(") and "*0.5/" in f, f
        seen += 1
assert seen == 2 and blank == 2, (seen, blank)
PYEOF
echo "xlsx_chargeback_util: ok"
