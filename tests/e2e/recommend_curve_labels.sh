#!/bin/sh
# The savings curves (JSON "curves", curves.csv, the workbook's Savings
# curve sheet) name each instrument once, and their zero level is exactly
# what buying nothing saves.
#
# 1. Labels.  A g5.xlarge trace in us-east-1 and us-west-2 (the bundled
#    us-east-1 catalog copied as us-west-2; 4 weeks, hourly, inference,
#    40 + (37h mod 61) and 40 + (53h mod 61) instances) buys a g5
#    instance_family plan in each region.  Both curves were named
#    "instance_family savings plan aws g5 1y all_upfront"; a family plan
#    is of one region, so its label carries the region as a
#    reservation's does: "... aws g5 us-east-1 1y all_upfront".  The
#    compute plan spans the regions and has none.
# 2. Zero.  Two g2-standard-48 every hour for 4 weeks on the bundled GCP
#    catalog buys only a reservation.  At level 0 nothing is bought, so the
#    bill is the scenario's policy's and net savings are 0 by definition
#    (net savings = policy cost - plan cost); the curve said 1.04e-10.
set -eu
bin=$1
src=$2
GPUPLAN_TODAY=${GPUPLAN_TODAY:-2026-11-21}
export GPUPLAN_TODAY
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_curve_labels

python3 - "$src/pricing/aws/us-east-1.json" "$out" <<'PY'
import json, sys, datetime
c = json.load(open(sys.argv[1]))
c["region"] = "us-west-2"
json.dump(c, open(sys.argv[2] + "/us-west-2.json", "w"))
t0 = datetime.datetime(2026, 5, 1)
with open(sys.argv[2] + "/regions.csv", "w") as f, \
        open(sys.argv[2] + "/gcp.csv", "w") as g:
    f.write("timestamp,region,instance_type,workload,instances\n")
    g.write("timestamp,instance_type,workload,instances\n")
    for h in range(24 * 28):
        ts = (t0 + datetime.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        f.write("%s,us-east-1,g5.xlarge,inference,%d\n"
                % (ts, 40 + (37 * h) % 61))
        f.write("%s,us-west-2,g5.xlarge,inference,%d\n"
                % (ts, 40 + (53 * h) % 61))
        g.write("%s,g2-standard-48,inference,2\n" % ts)
PY
mkdir "$out/regions" "$out/gcp"
"$bin" recommend --quiet --json --csv "$out/regions" \
    --out "$out/regions.xlsx" --trace "$out/regions.csv" \
    --pricing "$src/pricing/aws/us-east-1.json" "$out/us-west-2.json" \
    > "$out/regions.json"
"$bin" recommend --quiet --json --csv "$out/gcp" --out "$out/gcp.xlsx" \
    --trace "$out/gcp.csv" --pricing "$src/pricing/gcp/us-central1.json" \
    > "$out/gcp.json"

$PY - "$out" <<'PY'
import csv, json, sys
import openpyxl
out = sys.argv[1]

def curves(case):
    """{instrument: [(level, net savings)]} from the JSON, curves.csv and
    the workbook, which must agree."""
    doc = json.load(open("%s/%s.json" % (out, case)))
    js = {}
    for c in doc["curves"]:
        assert c["instrument"] not in js, ("named twice", c["instrument"])
        js[c["instrument"]] = [(p["level"], p["net_savings"])
                               for p in c["points"]]
    rows = {}
    for r in csv.DictReader(open("%s/%s/curves.csv" % (out, case))):
        rows.setdefault(r["instrument"], []).append(
            (float(r["level"]), float(r["net_savings"])))
    ws = openpyxl.load_workbook("%s/%s.xlsx" % (out, case))["Savings curve"]
    xl = {}
    for row in ws.iter_rows(min_row=5, values_only=True):
        if row[0] is None:
            continue
        xl.setdefault(row[0], []).append((row[2], row[3]))
    assert set(rows) == set(js) == set(xl), (sorted(js), sorted(rows),
                                             sorted(xl))
    for name in js:
        assert len(rows[name]) == len(js[name]) == len(xl[name]), name
    return doc, js, rows, xl

doc, js, rows, xl = curves("regions")
plans = [a for a in doc["actions"] if a.get("kind") == "instance_family"]
assert sorted(a["region"] for a in plans) == ["us-east-1", "us-west-2"], \
    doc["actions"]
for a in plans:
    name = "instance_family savings plan aws g5 %s 1y %s" % (a["region"],
                                                             a["payment"])
    assert name in js, (name, sorted(js))
for name in js:
    if name.startswith("compute savings plan"):
        assert name.startswith("compute savings plan aws 1y "), name

doc, js, rows, xl = curves("gcp")
assert [a["type"] for a in doc["actions"]] == ["reserved"], doc["actions"]
(name,) = js
assert name == "reserved g2-standard-48 us-central1 1y no_upfront", name
for src in (js, rows, xl):
    zero = [s for level, s in src[name] if level == 0]
    assert zero and all(s == 0 for s in zero), (name, src[name][:3])
print("recommend_curve_labels: %d curves named apart; level 0 saves 0"
      % (len(json.load(open(out + "/regions.json"))["curves"])))
PY
