#!/bin/sh
# The rightsize lever (#38, SPEC 7.5) run from scenarios/rightsize/, worked
# by hand from pricing/aws: embedding inference on p4d.24xlarge ($21.957642
# /h), 2 instances for 100 hours then 1 for 68 (one week from 2026-06-01):
# 268 instance-hours, $5,884.648 on demand.  Moved to g5.xlarge ($1.006/h)
# at an equivalence of 6: 268 x 6 = 1,608 instance-hours, $1,617.648;
# saving $4,267.00.  Nothing is reserved, so nothing strands.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl lever_rightsize
dir=$src/scenarios/rightsize
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet --trace "$dir/trace.csv" \
    --scenario "$dir/scenario.json" --json > "$out/r.json"
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet --trace "$dir/trace.csv" \
    --scenario "$dir/scenario.json" --csv "$out/csv" --out "$out/r.xlsx" \
    > "$out/r.txt"
"$PY" - "$out" <<'PY'
import csv, json, sys, openpyxl
d = sys.argv[1]
def close(a, b, what, tol=1e-6):
    assert abs(a - b) <= tol, (what, a, b)
s = {x["name"]: x for x in json.load(open(d + "/r.json"))["strategies"]}
base, rs = s["baseline"], s["rightsize-g5"]
close(base["total_cost"], 268 * 21.957642, "baseline")
close(rs["total_cost"], 1608 * 1.006, "rightsized")
close(base["total_cost"] - rs["total_cost"], 4267.0, "saving", 0.005)
mv = rs["levers"]["rightsize"]
close(mv["moved_instance_hours"], 268, "moved")
close(mv["new_instance_hours"], 1608, "new")
assert rs["stranded_commitment_cost"] == 0, rs
# the moved demand is charged to the series it came from
cb = [r for r in csv.DictReader(open(d + "/csv/chargeback.csv"))
      if r["strategy"] == "rightsize-g5"]
assert len(cb) == 1 and cb[0]["team"] == "search", cb
close(float(cb[0]["cost"]), 1608 * 1.006, "chargeback")
ws = openpyxl.load_workbook(d + "/r.xlsx", data_only=True)["Plans"]
rows = [r for r in ws.iter_rows(values_only=True) if r and r[0]]
head = next(r for r in rows if r[0] == "Strategy")
got = dict(zip(head, next(r for r in rows if r[0] == "rightsize-g5")))
assert got["Levers"] == "rightsize p4d.24xlarge -> g5.xlarge x6", got
close(got["Savings"], 268 * 21.957642 - 1608 * 1.006, "Plans savings")
txt = open(d + "/r.txt").read()
assert "268.0 instance-hours moved, 1608.0 of the new type billed" in txt
assert "saves $4,267.00 against baseline" in txt, txt
PY
# a type no catalog sells is an error at its place in the scenario
sed 's/"to": "g5.xlarge"/"to": "g5.xlarg"/' "$dir/scenario.json" > "$out/bad.json"
if "$bin" simulate --quiet --trace "$dir/trace.csv" \
    --scenario "$out/bad.json" > /dev/null 2> "$out/bad.err"; then
    echo "lever_rightsize: an unknown type was accepted" >&2
    exit 1
fi
grep -q 'bad.json:8:51: strategies\[0\].rightsize.to: no catalog sells instance type g5.xlarg (did you mean g5.xlarge' \
    "$out/bad.err" || { cat "$out/bad.err" >&2; exit 1; }
# an owned p4d.24xlarge reservation (1 year from the window's start, no
# upfront, $13.833314/h) is stranded whole when all the type's usage
# moves: 8,760 h x 13.833314 = $121,179.83; with training left on the type
# it keeps covering that, and nothing is counted stranded
"$PY" - "$dir/scenario.json" "$out/ri.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["commitments"] = [{"type": "reserved", "provider": "aws",
    "region": "us-east-1", "instance_type": "p4d.24xlarge", "count": 1,
    "term_years": 1, "payment": "no_upfront",
    "start": "2026-06-01T00:00:00Z"}]
json.dump(s, open(sys.argv[2], "w"))
PY
cp "$dir/trace.csv" "$out/mixed.csv"
echo "2026-06-01T00:00:00Z,604800,aws,us-east-1,p4d.24xlarge,training,,1,,research,x,false" \
    >> "$out/mixed.csv"
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet --trace "$dir/trace.csv" \
    --scenario "$out/ri.json" --json > "$out/alone.json"
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet --trace "$out/mixed.csv" \
    --scenario "$out/ri.json" --json > "$out/mixed.json"
"$PY" - "$out/alone.json" "$out/mixed.json" <<'PY'
import json, sys
alone, mixed = [{s["name"]: s for s in json.load(open(f))["strategies"]}
                for f in sys.argv[1:3]]
r = alone["rightsize-g5"]
assert abs(r["stranded_instance_hours"] - 8760) < 1e-9, r
assert abs(r["stranded_commitment_cost"] - 121179.83) < 0.01, r
assert mixed["rightsize-g5"]["stranded_commitment_cost"] == 0, mixed
PY
# recommend says whether the rightsizing pays at on-demand rates, from the
# same figures: $5,884.65 of p4d.24xlarge against $1,617.65 of g5.xlarge
GPUPLAN_TODAY=2026-11-21 "$bin" recommend --quiet --trace "$dir/trace.csv" \
    --scenario "$dir/scenario.json" --json > "$out/rec.json"
"$PY" - "$out/rec.json" <<'PY'
import json, sys
notes = json.load(open(sys.argv[1]))["notes"]
assert any("rightsizing p4d.24xlarge to g5.xlarge (6 for 1) pays" in n and
           "cost $5,884.65 and would cost $1,617.65 ($4,267.00 saved)" in n
           for n in notes), notes
PY
echo "lever_rightsize: 1 passed, 0 failed"
