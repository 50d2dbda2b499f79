#!/bin/sh
# The pricing and billing importers end to end: a catalog built from AWS
# price lists (import aws-offer, then import spot-advisor on top of it) and
# a trace built from a Cost and Usage Report (import aws-cur) are read by
# gpuplan itself (validate, simulate).  Fixtures: tests/data/import.
#
# The trace (aws-cur-gpu.csv, us-east-1 rows; the us-east-2 row is dropped
# because the catalog is us-east-1's): g5.xlarge 3.5 + 2 = 5.5
# instance-hours, p4d.24xlarge 2 + 1 = 3.  At the offer file's on-demand
# list prices (1.006 and 21.957642):
#   all_on_demand_cost = 5.5 x 1.006 + 3 x 21.957642 = 5.533 + 65.872926
#                      = 71.405926
# Spot: the advisor excerpt lists g5.xlarge with s = 59 (us-east-1 Linux),
# so spot.hourly = 1.006 x 0.41 = 0.41246.
set -eu
bin=$1
src=$2
data=$src/tests/data/import
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" import aws-offer --quiet --region us-east-1 \
    "$data/aws-offer-gpu-us-east-1.csv" \
    "$data/aws-savingsplan-gpu-us-east-1.csv" --out "$out/list.json"
"$bin" import spot-advisor --quiet "$data/spot-advisor-excerpt.json" \
    "$out/list.json" > "$out/catalog.json"
"$bin" import aws-cur --quiet "$data/aws-cur-gpu.csv" --out "$out/bill.csv" \
    --commitments-out "$out/owned.json"
grep -v ',us-east-2,' "$out/bill.csv" > "$out/trace.csv"
"$bin" validate --quiet --pricing "$out/catalog.json" \
    --trace "$out/trace.csv" > /dev/null 2>&1
"$bin" simulate --quiet --json --pricing "$out/catalog.json" \
    --trace "$out/trace.csv" > "$out/run.json" 2> /dev/null
# the owned commitments load as a scenario of gpuplan's own
"$bin" validate --quiet --pricing "$out/catalog.json" \
    --trace "$out/trace.csv" --scenario "$out/owned.json" > /dev/null 2>&1
python3 - "$out/run.json" "$out/catalog.json" \
    "$data/spot-advisor-excerpt.json" "$out/owned.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
cat = json.load(open(sys.argv[2]))
feed = json.load(open(sys.argv[3]))
owned = json.load(open(sys.argv[4]))["commitments"]
# the fixture's bill: reservation a1b2c3d4-p4d-1111 (2 x p4d.24xlarge)
# covered the 2 + 1 p4d hours (DiscountedUsage rows); savings plan
# 5e6f7a8b-g5-2222 ($1.50/h compute) covered 2 g5.xlarge hours
assert [c["type"] for c in owned] == ["reserved", "savings_plan"], owned
assert owned[0]["instance_type"] == "p4d.24xlarge" and owned[0]["count"] == 2
assert owned[0]["covered_instance_hours"] == 3.0
assert owned[1]["hourly_commitment"] == 1.5
assert owned[1]["covered_instance_hours"] == 2.0
def near(a, b, what):
    assert abs(a - b) < 1e-6, "%s: %r, expected %r" % (what, a, b)
base = [s for s in run["strategies"] if s["name"] == "baseline"][0]
near(base["all_on_demand_cost"], 5.5 * 1.006 + 3 * 21.957642, "all on demand")
s = feed["spot_advisor"]["us-east-1"]["Linux"]["g5.xlarge"]["s"]
g5 = cat["instance_types"]["g5.xlarge"]
assert s == 59, s
near(g5["spot"]["hourly"], 0.41246, "g5 spot")
assert g5["spot"]["estimate"] is True
assert g5["reserved"][0]["estimate"] is False
PY
# A FOCUS bill straight into simulate, with the bundled catalogs: the real
# sample excerpt's t2.medium, t3.micro and c5 rows are left out at import
# (no catalog prices them), so the trace bills; its eight g5.4xlarge rows
# hold 1 + 0.683889 + 0.303056 + 0.296111 + 4 x 1 = 6.283056
# instance-hours, at the bundled list price $1.624 (the rows' own
# description: "$1.624 per On Demand Linux g5.4xlarge Instance Hour").
"$bin" import focus --quiet "$data/focus-sample-excerpt.csv" \
    --out "$out/focus.csv"
"$bin" simulate --quiet --json --trace "$out/focus.csv" \
    > "$out/focus.json" 2> /dev/null
python3 - "$out/focus.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
base = [s for s in run["strategies"] if s["name"] == "baseline"][0]
want = 6.283056 * 1.624
assert abs(base["all_on_demand_cost"] - want) < 1e-6, base["all_on_demand_cost"]
PY
