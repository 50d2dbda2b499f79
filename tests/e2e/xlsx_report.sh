#!/bin/sh
# The Excel workbook end to end, read back with openpyxl (check_xlsx.py):
# sheets, tables, formats, frozen headers, charts, formulas, and every
# number equal to the same run's --json and --csv output to the cent.
#   simulate:  a hand-made trace with job runs (spot per job), an idle
#              stretch, two teams, an owned reservation and a strategy
#              that adds a savings plan (tests/e2e/data/xlsx-jobs.*)
#   recommend: the bundled sample (real Helios and ServeGen demand)
# Also: the same run writes the same bytes (fixed created date), no
# temporary file is left behind, and a failed run leaves an older report
# as it was.
set -eu
bin=$1
src=$2
# "today" dates the catalogs' staleness warnings, which the workbook shows:
# pinned, so two runs either side of midnight still write the same bytes
GPUPLAN_TODAY=${GPUPLAN_TODAY:-2026-11-21}
export GPUPLAN_TODAY
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_report
check="$PY $src/tests/e2e/check_xlsx.py"
data="--pricing $src/tests/data/engine/aws-test.json
      --trace $src/tests/e2e/data/xlsx-jobs.csv
      --scenario $src/tests/e2e/data/xlsx-jobs.json"

# shellcheck disable=SC2086
"$bin" simulate --quiet --json --out "$out/sim.xlsx" --csv "$out/sim" $data \
    > "$out/sim.json"
$check simulate "$out/sim.xlsx" "$out/sim.json" "$out/sim"
# the bundled sample has no job_id: no Monte Carlo run is made, and
# Inputs says 0 runs used as the JSON and the Spot sheet do
"$bin" simulate --quiet --json --out "$out/sam.xlsx" --csv "$out/sam" \
    > "$out/sam.json"
$check simulate "$out/sam.xlsx" "$out/sam.json" "$out/sam"

"$bin" recommend --quiet --json --out "$out/rec.xlsx" --csv "$out/rec" \
    > "$out/rec.json"
$check recommend "$out/rec.xlsx" "$out/rec.json" "$out/rec"
# an owned reservation that expires in the window, whose renewal does not
# pay (tests/e2e/data/renewal-lapse.*): 3 weeks (504 h) of 4 x.large at
# $10/h on demand, 2 owned 1-year reservations (3 + 17520 / 8760 = $5/h)
# ending a week in.  The plan buys 4 reservations: upfront 4 x 17520 =
# $70,080, net savings (18240 - 12000) = $6,240, $108,457.14 a year
# (x 8760 / 504).  Renewing the 2 owned ones on top would cost $3,120
# ("let it lapse"), so its 2 x 17520 = $35,040 upfront and its -$87,600 a
# year are in neither the total under Recommendations nor the what-if
# (they were: $105,120 upfront and $20,857.14 a year)
"$bin" recommend --quiet --json --out "$out/ren.xlsx" --csv "$out/ren" \
    --pricing "$src/tests/e2e/data/renewal-lapse-catalog.json" \
    --trace "$src/tests/e2e/data/renewal-lapse.csv" \
    --scenario "$src/tests/e2e/data/renewal-lapse.json" > "$out/ren.json"
$check recommend "$out/ren.xlsx" "$out/ren.json" "$out/ren"
$PY - "$out/ren.xlsx" "$out/ren.json" <<'PY'
import json, sys
import openpyxl
doc = json.load(open(sys.argv[2]))
assert doc["plan"]["upfront"] == 70080, doc["plan"]
assert [a["renewal"] for a in doc["actions"]] == [False, True], doc
assert "let it lapse" in doc["actions"][1]["reason"], doc["actions"][1]
vb = openpyxl.load_workbook(sys.argv[1], data_only=True)
s, r = vb["Summary"], vb["Recommendations"]
got = {s.cell(i, 1).value: s.cell(i, 2).value for i in range(1, 40)}
assert abs(got["Annual net savings of the actions"] - 6240 * 8760 / 504) \
    < 0.005, got
total = [i for i in range(1, 20) if r.cell(i, 2).value == "Total, the plan"]
assert len(total) == 1, total
assert r.cell(total[0], 12).value == 70080, r.cell(total[0], 12).value
assert abs(r.cell(total[0], 15).value - 6240 * 8760 / 504) < 0.005
PY

for f in recommendations.csv plans.csv curves.csv monthly.csv; do
    [ -s "$out/rec/$f" ] || { echo "recommend --csv wrote no $f" >&2; exit 1; }
done

# plans.csv, curves.csv and monthly.csv against hand figures from the
# bundled sample (scenarios/sample, pricing/aws/us-east-1.json), window
# 2026-05-01 to 05-15 (336 h), 10-minute rows:
#   training   p4d.24xlarge, ceil(gpus / 8) instances: 8,307.5 inst-h
#              on demand 8,307.5 x 21.957642           = 182,413.11
#              on spot (recommend_routing_reason.sh)   =  63,451.50
#   inference  g6e.xlarge: 7,480.8333 inst-h (7 to 41.17 in an hour)
#              on demand 7,480.8333 x 1.861            =  13,921.83
#   "current" (all on demand) 182,413.11 + 13,921.83   = 196,334.94
# The balanced plan adds a g6e instance_family savings plan (1 y, all
# upfront, $1.06077/h for g6e.xlarge).  Its best level, by hand: a plan
# dollar costs $1 an hour and saves 1.861 / 1.06077 in each hour whose
# usage u at plan rates, 1.06077 u, is above it, so the window's cost
# 336 S + sum max(0, u - S / 1.06077) x 1.861 is least at a breakpoint
# S = 1.06077 u; the python below tries each hour's and finds 21.56899,
# in whole tenths of a cent $21.569/h; at that level:
#   commitment   21.569 x 336 = 7,247.18; upfront 21.569 x 8760 = 188,944.44
#   on demand    per hour max(0, u - 21.569 / 1.06077) x 1.861, summed
#                over the 336 hours' usage u (python3)  =   2,570.04
#   total        2,570.04 + 7,247.18 + 63,451.50        =  73,268.72
#   net savings  196,334.94 - 73,268.72                 = 123,066.22
# Its savings curve starts at the routing's savings alone, 118,961.61
# (182,413.11 - 63,451.50), and its first step, $2.1569/h, is used in
# every hour (the least usage, 7 x 1.06077 = $7.43/h at plan rates, is
# above it), so it saves 336 x 2.1569 x (1.861 / 1.06077 - 1) = 546.72.
python3 - "$out/rec" "$src/scenarios/sample/trace.csv" <<'PY'
import collections, csv, sys
d = sys.argv[1]
# the plan's level by hand (above): g6e usage per hour from the 10-minute
# rows, then the cheapest breakpoint
use = collections.defaultdict(float)
for r in csv.DictReader(open(sys.argv[2])):
    if r["instance_type"] == "g6e.xlarge":
        use[r["timestamp"][:13]] += float(r["instances"]) * float(r["step_s"]) / 3600
assert len(use) == 336, len(use)
def window_cost(S):
    return 336 * S + sum(max(0, u - S / 1.06077) * 1.861 for u in use.values())
best = min((1.06077 * u for u in use.values()), key=window_cost)
assert round(best, 3) == 21.569, best
def near(got, want, what):
    assert abs(float(got) - want) < 0.006, "%s: %s, expected %r" % (what, got, want)
month = {r["strategy"]: r for r in csv.DictReader(open(d + "/monthly.csv"))}
assert sorted(month) == ["balanced", "current"], sorted(month)
cur, bal = month["current"], month["balanced"]
assert cur["month"] == bal["month"] == "2026-05", (cur, bal)
near(cur["total_cost"], 196334.94, "current total")
near(cur["on_demand_cost"], 196334.94, "current on demand")
near(bal["spot_cost"], 63451.50, "balanced spot")
near(bal["savings_plan_cost"], 7247.18, "balanced savings plan")
near(bal["on_demand_cost"], 2570.04, "balanced on demand")
near(bal["total_cost"], 73268.72, "balanced total")
near(bal["savings_plan_cash"], 188944.44, "balanced savings plan cash")
plans = {r["name"]: r for r in csv.DictReader(open(d + "/plans.csv"))}
b = plans["balanced"]
assert b["recommended"] == "true" and b["training_on_spot"] == "true", b
near(b["total_cost"], 73268.72, "plan total")
near(b["net_savings"], 123066.22, "plan net savings")
near(b["upfront"], 188944.44, "plan upfront")
curve = [r for r in csv.DictReader(open(d + "/curves.csv"))
         if r["instrument"] == "instance_family savings plan aws g6e "
                               "us-east-1 1y all_upfront"]
level = {round(float(r["level"]), 4): r for r in curve}
near(level[0]["net_savings"], 118961.61, "curve at 0")
near(level[2.1569]["net_savings"], 118961.61 + 546.72, "curve at 2.1569")
near(level[21.569]["net_savings"], 123066.22, "curve at 21.569")
assert level[21.569]["chosen"] == "true", level[21.569]
PY

# every CSV row has the header's fields, and recommendations.csv holds
# each action's net savings as --json does (the routing row had one field
# too many, every column after kind shifted by one)
python3 - "$out/rec.json" "$out/rec" "$out/sim" <<'PY'
import csv, glob, json, sys
for path in glob.glob(sys.argv[2] + "/*.csv") + glob.glob(sys.argv[3] + "/*.csv"):
    rows = list(csv.reader(open(path, newline="")))
    for i, row in enumerate(rows[1:], 2):
        assert len(row) == len(rows[0]), (path, i, len(row), len(rows[0]))
actions = json.load(open(sys.argv[1]))["actions"]
assert any(a["type"] == "routing" for a in actions), actions
rows = list(csv.DictReader(open(sys.argv[2] + "/recommendations.csv")))
assert len(rows) == len(actions)
for a, row in zip(actions, rows):
    assert row["type"] == a["type"], (row, a)
    assert abs(float(row["net_savings"]) - a["net_savings"]) < 0.01, (row, a)
    assert row["renewal"] == ("true" if a.get("renewal") else "false"), row
PY

# reproducible: a second run gives the same bytes
"$bin" recommend --quiet --out "$out/rec2.xlsx" > /dev/null
cmp "$out/rec.xlsx" "$out/rec2.xlsx"

# nothing but the reports in the folder: no temporary names left
left=$(ls "$out" | grep -c '\.tmp' || true)
[ "$left" = 0 ] || { ls "$out" >&2; echo "temporary files left" >&2; exit 1; }

# a failed run (a trace that does not load) leaves the old report alone
cp "$out/rec.xlsx" "$out/keep.xlsx"
printf 'timestamp,instance_type,instances\nnot-a-time,g5.xlarge,1\n' \
    > "$out/bad.csv"
if "$bin" recommend --quiet --out "$out/keep.xlsx" --trace "$out/bad.csv" \
    --pricing "$src/tests/data/engine/aws-test.json" 2> /dev/null; then
    echo "a bad trace did not fail" >&2
    exit 1
fi
cmp "$out/rec.xlsx" "$out/keep.xlsx"
echo "xlsx_report: simulate and recommend workbooks agree with --json"
