#!/bin/sh
# docs/number-path.md, "How a number travels": the worked path of one trace
# row of the bundled sample to the CSV, the JSON and the workbook, figure by
# figure.
# Worked by hand from scenarios/sample/trace.csv and pricing/aws:
#  - g6e.xlarge inference at 2026-05-01T00: six 600 s rows of 24, 20, 21,
#    26, 22 and 26 instances = 139 x 600/3600 = 23.1666667 instance-hours,
#    x $1.861 = $43.1131667 on demand;
#  - p4d.24xlarge training that hour: gpus 168.4, 170, 173.2, 186, 186, 186
#    -> ceil(/8) = 22, 22, 22, 24, 24, 24 instances = 23 instance-hours,
#    x $21.957642 = $505.025766; the baseline's hour: $548.1389327;
#  - g6e.xlarge on 2026-05-01: 4538 instance-rows / 6 = 756.3333333
#    instance-hours x 1.861 = $1,407.5363333; over the window's 336 hours
#    7480.8333333 x 1.861 = $13,921.8308333.
# docs/number-path.md quotes these figures; each must be in it, so a change
# that moves them fails here until the page is updated.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl readme_number_path
"$bin" simulate --quiet --csv "$out/csv" --out "$out/s.xlsx" --json \
    > "$out/s.json"
"$PY" - "$out" "$src/docs/number-path.md" <<'PYEOF'
import csv, json, sys
import openpyxl
d, readme = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
def near(a, b, what, tol=5e-7):
    assert isinstance(a, (int, float)) and abs(a - b) < tol, \
        "%s: %r, expected %r" % (what, a, b)
hour = 139 * 600 / 3600                      # 23.1666667 instance-hours
near(hour * 1.861, 43.1131666667, "hand: the hour's on-demand")
near(hour * 1.861 + 23 * 21.957642, 548.138932667, "hand: baseline hour")
rows = {(r["strategy"], r["hour"]): r
        for r in csv.DictReader(open(d + "/csv/hourly.csv"))}
spot = rows[("train-on-spot", "2026-05-01T00:00:00Z")]
near(float(spot["on_demand_cost"]), 43.1131666667, "hourly.csv spot row")
near(float(spot["inference_instance_hours"]), 23.1666666667, "its hours")
base = rows[("baseline", "2026-05-01T00:00:00Z")]
near(float(base["on_demand_cost"]), 548.138932667, "hourly.csv baseline")
s = {x["name"]: x for x in json.load(open(d + "/s.json"))["strategies"]}
near(s["train-on-spot"]["on_demand_cost"], 13921.8308333, "JSON", 5e-6)
near(s["train-on-spot"]["by_workload"]["inference"]["total_cost"],
     13921.8308333, "JSON by_workload", 5e-6)
# the sample's autoscale and rightsize strategies change platform's
# inference; its migration moves only the p4d.24xlarge training
cb = [r for r in csv.DictReader(open(d + "/csv/chargeback.csv"))
      if r["team"] == "platform" and r["strategy"] in
      ("baseline", "train-on-spot", "migrate-p4d-to-p5")]
assert len(cb) == 3, cb
for r in cb:
    near(float(r["cost"]), 13921.8308333, "chargeback.csv", 5e-6)
wb = openpyxl.load_workbook(d + "/s.xlsx", data_only=True)
m = wb["Monthly cost"]
assert (m["A6"].value, m["B6"].value) == ("train-on-spot", "2026-05"), \
    (m["A6"].value, m["B6"].value)
near(m["C6"].value, 13921.8308333, "Monthly cost C6", 5e-6)
# the monthly table's five strategies, rows 5 to 9, then the daily table
assert m["A11"].value == \
    "Daily cost by purchasing model: train-on-spot (amortized)", m["A11"].value
assert m["A13"].value.date().isoformat() == "2026-05-01", m["A13"].value
near(m["B13"].value, 756.3333333333 * 1.861, "Monthly cost B13", 5e-6)
c = wb["Chargeback"]
assert [c.cell(5, k).value for k in (1, 2)] == ["baseline", "platform"]
near(c["H5"].value, 13921.8308333, "Chargeback H5", 5e-6)
for quoted in ("139/6 = 23.17", "23.1667 x 1.861 = $43.11", "43.1131666667",
               "23.1666666667", "548.138932667", "$13,921.83", "C6",
               "$1,407.54", "756.33", "Chargeback H5", "B13"):
    assert quoted in readme, "docs/number-path.md no longer quotes " + quoted
PYEOF
