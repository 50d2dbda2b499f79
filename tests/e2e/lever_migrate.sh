#!/bin/sh
# The migrate lever (#38, SPEC 7.5) run from scenarios/migrate/, worked by
# hand from pricing/aws: 4 p4d.24xlarge ($21.957642/h on demand) train from
# 2026-01-01 to 2026-07-01 (4,344 h), one of them reserved for a year from
# 2026-01-01, no upfront ($13.833314/h).  On 2026-04-01 (month 4: 2,160 h
# before, 2,184 after) the strategy moves the training to p5.48xlarge
# ($55.04/h), one for four p4d.24xlarge.
#   baseline: 3 x 4,344 x 21.957642 + 4,344 x 13.833314 = $346,243.92
#   migrate:  3 x 2,160 x 21.957642 + 2,184 x 55.04 + 4,344 x 13.833314
#             = 142,285.52 + 120,207.36 + 60,091.92 = $322,584.80
#   the reservation strands from 2026-04-01 to its end, 2027-01-01: 275
#   days, 6,600 hours, x $13.833314 = $91,299.87 (of which the window's
#   2,184 hours, $30,211.96, are its unused commitment)
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl lever_migrate
dir=$src/scenarios/migrate
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet --trace "$dir/trace.csv" \
    --scenario "$dir/scenario.json" --json > "$out/r.json"
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet --trace "$dir/trace.csv" \
    --scenario "$dir/scenario.json" --csv "$out/csv" --out "$out/r.xlsx" \
    > "$out/r.txt"
"$PY" - "$out" <<'PY'
import csv, json, sys, openpyxl
d = sys.argv[1]
def close(a, b, what, tol=0.01):
    assert abs(a - b) <= tol, (what, a, b)
od, ri, p5 = 21.957642, 13.833314, 55.04
s = {x["name"]: x for x in json.load(open(d + "/r.json"))["strategies"]}
base, mg = s["baseline"], s["migrate-p5"]
close(base["total_cost"], 3 * 4344 * od + 4344 * ri, "baseline")
close(mg["total_cost"], 3 * 2160 * od + 2184 * p5 + 4344 * ri, "migrate")
close(mg["total_cost"], 322584.80, "migrate, rounded")
close(mg["stranded_instance_hours"], 6600, "stranded hours", 1e-9)
close(mg["stranded_commitment_cost"], 6600 * ri, "stranded cost")
close(mg["stranded_commitment_cost"], 91299.87, "stranded, rounded")
close(mg["unallocated_cost"], 2184 * ri, "the window's stranded part")
mv = mg["levers"]["migrate"]
close(mv["moved_instance_hours"], 4 * 2184, "moved", 1e-9)
close(mv["new_instance_hours"], 2184, "new", 1e-9)
row = next(csv.DictReader(open(d + "/csv/levers.csv")))
close(float(row["stranded_commitment_cost"]), 6600 * ri, "levers.csv")
ws = openpyxl.load_workbook(d + "/r.xlsx", data_only=True)["Plans"]
rows = [r for r in ws.iter_rows(values_only=True) if r and r[0]]
head = next(r for r in rows if r[0] == "Strategy")
got = dict(zip(head, next(r for r in rows if r[0] == "migrate-p5")))
close(got["Stranded commitment cost"], 6600 * ri, "Plans stranded")
close(got["Stranded instance-hours"], 6600, "Plans stranded hours")
summary = [c for r in openpyxl.load_workbook(d + "/r.xlsx", data_only=True)
           ["Summary"].iter_rows(values_only=True) for c in r if c]
assert "Cost with strategy migrate-p5 (cheapest)" in summary, summary
txt = open(d + "/r.txt").read()
assert "stranded commitment: $91,299.87, 6600.0 instance-hours" in txt, txt
PY

# recommend weighs the migration: bought on 2026-01-01, a p4d reservation
# or p4d instance-family plan can be used 2,160 of its 8,760 hours before
# 2026-04-01, so its rate counts 8,760 / 2,160 = 4.06 times: the cheapest
# p4d reservation (1 year all upfront, $109,638.90 / 8,760 = $12.52/h)
# would cost $50.76 per usable hour, over the $21.96 on demand.  Without
# the migrate strategy recommend buys a p4d family plan; with it, none, and
# a compute plan (which follows the usage to p5) instead.
GPUPLAN_TODAY=2026-11-21 "$bin" recommend --quiet --trace "$dir/trace.csv" \
    --scenario "$dir/scenario.json" --json > "$out/with.json"
"$PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); s["strategies"]=[]; json.dump(s,open(sys.argv[2],"w"))' \
    "$dir/scenario.json" "$out/none.json"
GPUPLAN_TODAY=2026-11-21 "$bin" recommend --quiet --trace "$dir/trace.csv" \
    --scenario "$out/none.json" --json > "$out/without.json"
"$PY" - "$out" <<'PY'
import json, sys
d = sys.argv[1]
def bought(name):
    r = json.load(open("%s/%s.json" % (d, name)))
    return r, [(a["type"], a.get("kind"), a.get("family"),
                a.get("instance_type")) for a in r["actions"]]
r, acts = bought("without")
assert any(a[2] == "p4d" or a[3] == "p4d.24xlarge" for a in acts), acts
r, acts = bought("with")
assert not any(a[2] == "p4d" or a[3] == "p4d.24xlarge" for a in acts), acts
assert any(a[1] == "compute" for a in acts), acts
assert abs(109638.9 / 8760 * 8760 / 2160 - 50.76) < 0.01
assert any("migrates p4d.24xlarge to p5.48xlarge" in n for n in r["notes"])
PY
echo "lever_migrate: 1 passed, 0 failed"
