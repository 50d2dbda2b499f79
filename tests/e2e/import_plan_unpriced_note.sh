#!/bin/sh
# A commitment that covered only types the catalogs do not price gets one
# note, and it does not say it covered nothing.  The real FOCUS sample's
# two savings plans (tests/data/import/focus-sample-excerpt.csv) cover
# only c5, t2 and t3 rows, which the bundled catalogs do not price.  With
# --commitments-out each plan got two notes: "left out: the bill shows it
# covering only types the catalogs do not price", then "covered 0
# instance-hours worth 0.00 at on-demand rates".  Now the first alone;
# without --commitments-out, "covered only types the catalogs do not
# price".  A plan sized by a Purchase row (EffectiveCost 0.06, so an
# hourly commitment of 0.06) goes into the scenario and its note says the
# same, not "covered 0".
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export GPUPLAN_TODAY=2026-11-21
export GPUPLAN_DATA_DIR="$src"
bill=$src/tests/data/import/focus-sample-excerpt.csv
"$bin" import focus "$bill" --commitments-out "$out/c.json" \
    > "$out/t.csv" 2> "$out/with.err"
"$bin" import focus "$bill" > "$out/t.csv" 2> "$out/without.err"

cat > "$out/sized.csv" <<'CSV'
ChargeCategory,ChargePeriodStart,ChargePeriodEnd,PricingCategory,CommitmentDiscountId,CommitmentDiscountCategory,CommitmentDiscountType,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ChargeDescription,EffectiveCost,ListCost
Usage,2024-09-10 05:00:00,2024-09-10 06:00:00,Standard,NULL,NULL,NULL,1,Hours,AWS,us-east-1,$1.006 per On Demand Linux g5.xlarge Instance Hour,1.006,1.006
Usage,2024-09-10 05:00:00,2024-09-10 06:00:00,Committed,sp1,Spend,Savings Plan,2,Hours,AWS,us-east-1,$0.0416 per On Demand Linux t3.medium Instance Hour,0.06,0.0832
Purchase,2024-09-10 05:00:00,2024-09-10 06:00:00,Committed,sp1,Spend,Savings Plan,1,Hours,AWS,us-east-1,Savings Plan fee,0.06,0.06
CSV
"$bin" import focus "$out/sized.csv" --commitments-out "$out/sized.json" \
    > "$out/t.csv" 2> "$out/sized.err"

python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
plans = ["arn:aws:savingsplans::961082193871:savingsplan/"
         "493f5705-db1c-4867-8e5c-ee9a66fa6d3f",
         "arn:aws:savingsplans::365499461711:savingsplan/"
         "37985e61-4fcb-4023-9dd7-e524c80342a2"]
def notes(name, plan):
    return [l for l in open("%s/%s.err" % (d, name)).read().splitlines()
            if plan in l]
prefix = "gpuplan import: focus-sample-excerpt.csv: "
for p in plans:
    assert notes("with", p) == [
        prefix + "commitment %s left out: the bill shows it covering only "
                 "types the catalogs do not price" % p], notes("with", p)
    assert notes("without", p) == [
        prefix + "owned savings plan %s covered only types the catalogs do "
                 "not price" % p], notes("without", p)
assert json.load(open(d + "/c.json"))["commitments"] == []
assert notes("sized", "sp1") == [
    "gpuplan import: sized.csv: owned savings plan sp1 covered only types "
    "the catalogs do not price"], notes("sized", "sp1")
c = json.load(open(d + "/sized.json"))["commitments"]
assert len(c) == 1 and c[0]["id"] == "sp1", c
assert abs(c[0]["hourly_commitment"] - 0.06) < 1e-9, c
assert c[0]["covered_instance_hours"] == 0, c
PY
echo "import_plan_unpriced_note: ok"
