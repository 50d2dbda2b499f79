#!/bin/sh
# A savings plan's reason says in what share of hours the usage it may
# cover came to its commitment or more.  For a compute plan that usage is
# what the reservations and the instance-family plans above it left: the
# clouds bill family plans first.  It used to count the usage before the
# family plans, and said "100% of hours" for a compute plan that
# recommend itself expected to be 82% used.
#
# Demand (4 weeks, hourly, inference, us-east-1, formulas below so the
# test needs no random numbers): g6e.xlarge 40 + (37h mod 61), g5.xlarge
# 53h mod 61.  The share is recomputed here from the trace, the bundled
# catalog's 1-year all-upfront rates and the purchases recommend made,
# billing them in the clouds' order: reservations, then each family plan
# over its family's usage, then the compute plan over what is left, each
# plan covering x instance-hours for x times its rate, up to its dollars.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

python3 - "$dir/trace.csv" <<'PY'
import sys, datetime
t0 = datetime.datetime(2026, 5, 1)
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(24 * 28):
        ts = (t0 + datetime.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        f.write("%s,g6e.xlarge,inference,%d\n" % (ts, 40 + (37 * h) % 61))
        f.write("%s,g5.xlarge,inference,%d\n" % (ts, (53 * h) % 61))
PY
"$bin" recommend --quiet --json --trace "$dir/trace.csv" \
    --pricing "$src/pricing/aws/us-east-1.json" > "$dir/out.json"
python3 - "$dir/out.json" "$src/pricing/aws/us-east-1.json" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
cat = json.load(open(sys.argv[2]))["instance_types"]
n = 24 * 28
demand = {"g6e.xlarge": [40 + (37 * h) % 61 for h in range(n)],
          "g5.xlarge": [(53 * h) % 61 for h in range(n)]}
def rate(t, kind):
    return [p["hourly"] for p in cat[t]["savings_plans"]
            if p["kind"] == kind and p["term_years"] == 1
            and p["payment"] == "all_upfront"][0]
acts = [a for a in doc["actions"] if a["type"] != "routing"]
ri = {a["instance_type"]: a["count"] for a in acts if a["type"] == "reserved"}
fam = [a for a in acts if a.get("kind") == "instance_family"]
comp = [a for a in acts if a.get("kind") == "compute"]
assert all(a["term_years"] == 1 and a["payment"] == "all_upfront"
           for a in fam + comp), acts
assert fam and len(comp) == 1, "expected family plans and a compute plan"
def share(plan):
    hit = 0
    for h in range(n):
        rest = {t: max(0.0, d[h] - ri.get(t, 0)) for t, d in demand.items()}
        before = fam[:fam.index(plan)] if plan in fam else fam
        for f in before:
            t = f["family"] + ".xlarge"
            x = min(rest[t], f["hourly_commitment"] / rate(t, "instance_family"))
            rest[t] -= x
        if plan in fam:
            t = plan["family"] + ".xlarge"
            need = rest[t] * rate(t, "instance_family")
        else:
            need = sum(rest[t] * rate(t, "compute") for t in rest)
        # a commitment is rounded to $0.001: within half of that counts
        hit += need >= plan["hourly_commitment"] - 0.0005 - 1e-9
    return 100.0 * hit / n
for a in fam + comp:
    said = int(re.search(r"in (\d+)% of hours", a["reason"]).group(1))
    want = share(a)
    assert said == int(round(want)), (a["reason"], want)
c = comp[0]
assert share(c) < 99.5 and c["expected_utilization"] < 0.995, c
print("recommend_plan_reasons: compute plan $%.3f/h reached in %.1f%% of "
      "hours, expected utilization %.3f" % (c["hourly_commitment"], share(c),
                                            c["expected_utilization"]))
PY

# Flat demand (2.5 g6e.xlarge and 3.3 g5.xlarge every hour): each family
# plan is sized to the half instance the reservations leave, so that usage
# reaches it in every hour.  The g6e plan's usage at plan rates came to
# $2.65192/h, its commitment rounded to $2.652: the reason said "0% of
# hours" for a plan 99.997% used.
python3 - "$dir/flat.csv" <<'PY'
import sys, datetime
t0 = datetime.datetime(2026, 5, 1)
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(24 * 28):
        ts = (t0 + datetime.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        f.write("%s,g6e.xlarge,inference,2.5\n" % ts)
        f.write("%s,g5.xlarge,inference,3.3\n" % ts)
PY
"$bin" recommend --quiet --json --trace "$dir/flat.csv" \
    --pricing "$src/pricing/aws/us-east-1.json" > "$dir/flat.json"
python3 - "$dir/flat.json" <<'PY'
import json, sys
plans = [a for a in json.load(open(sys.argv[1]))["actions"]
         if a["type"] == "savings_plan"]
assert plans, "no savings plan on flat fractional demand"
for a in plans:
    assert a["expected_utilization"] > 0.999, a
    assert "in 100% of hours" in a["reason"], a["reason"]
PY

# The compute plan's reason names only the instruments the catalogs sell
# before it: AWS has reservations and instance_family plans, Azure
# reservations only (pricing/README.md: "No instance_family plans: Azure
# does not sell them").  The Azure run said "the reservations and family
# plans left".  Same demand formulas as the first case, on
# Standard_NC24ads_A100_v4 and Standard_NC4as_T4_v3: recommend buys both
# reservations and an Azure compute plan over what they leave.
python3 - "$dir/azure.csv" <<'PY'
import sys, datetime
t0 = datetime.datetime(2026, 5, 1)
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(24 * 28):
        ts = (t0 + datetime.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        f.write("%s,Standard_NC24ads_A100_v4,inference,%d\n"
                % (ts, 40 + (37 * h) % 61))
        f.write("%s,Standard_NC4as_T4_v3,inference,%d\n" % (ts, (53 * h) % 61))
PY
"$bin" recommend --quiet --json --trace "$dir/azure.csv" \
    --pricing "$src/pricing/azure/eastus.json" > "$dir/azure.json"
python3 - "$dir/out.json" "$dir/azure.json" <<'PY'
import json, sys
def compute(path):
    acts = [a for a in json.load(open(path))["actions"]
            if a.get("kind") == "compute"]
    assert len(acts) == 1, acts
    return acts[0]["reason"]
aws, azure = compute(sys.argv[1]), compute(sys.argv[2])
assert aws.startswith("on-demand usage the reservations and family plans "
                      "left came to "), aws
assert azure.startswith("on-demand usage the reservations left came to "), \
    azure
PY
