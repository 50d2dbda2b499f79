#!/bin/sh
# The Inputs sheet's assumption about estimated commitment rates names only
# the rates the run's pools have (and reservations its scenario owns or
# adds).  GCP sells no savings plans: the bundled gcp/us-central1 catalog's
# g2-standard-48 has two reserved offers (its committed use discounts) and
# "savings_plans": [], so a GCP-only run's note reads "Reserved rates marked
# estimate ..."; before, "Reserved and savings-plan rates ...".  An AWS
# g5.xlarge run (the bundled aws catalog: reserved and plan offers) keeps
# the note as it was, and a pool whose type has neither kind
# (tests/data/pricing-small/aws/us-west-2.json's g5.xlarge) gets none,
# unless the scenario owns a reservation (a GCP g2-standard-48 CUD, with the
# bundled GCP catalog loaded too): then "Reserved rates ...".
# Traces: 2 instances for inference, hourly for 2 days from 2026-11-01.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_inputs_estimate_note
"$PY" - "$dir" <<'PYEOF'
import sys
for name, region, itype in (("gcp", "us-central1", "g2-standard-48"),
                            ("aws", "us-east-1", "g5.xlarge"),
                            ("none", "us-west-2", "g5.xlarge")):
    with open("%s/%s.csv" % (sys.argv[1], name), "w") as f:
        f.write("timestamp,region,instance_type,workload,instances\n")
        for h in range(48):
            f.write("%d,%s,%s,inference,2\n" % (1793491200 + 3600 * h,
                                                region, itype))
PYEOF
export GPUPLAN_TODAY=2026-11-21
"$bin" simulate --quiet --trace "$dir/gcp.csv" --out "$dir/gcp.xlsx" \
    > /dev/null
"$bin" simulate --quiet --trace "$dir/aws.csv" --out "$dir/aws.xlsx" \
    > /dev/null
"$bin" simulate --quiet --trace "$dir/none.csv" --out "$dir/none.xlsx" \
    --pricing "$src/tests/data/pricing-small/aws/us-west-2.json" > /dev/null
cat > "$dir/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "name": "owned-gcp-cud",
 "commitments": [
  {"type": "reserved", "provider": "gcp", "region": "us-central1",
   "instance_type": "g2-standard-48", "count": 1, "term_years": 1,
   "payment": "no_upfront", "start": "2026-11-01T00:00:00Z"}]}
JSON
"$bin" simulate --quiet --trace "$dir/none.csv" --out "$dir/owned.xlsx" \
    --scenario "$dir/s.json" \
    --pricing "$src/tests/data/pricing-small/aws/us-west-2.json" \
    "$src/pricing/gcp/us-central1.json" > /dev/null
"$PY" - "$dir" <<'PYEOF'
import sys, openpyxl
d = sys.argv[1]
tail = (" marked estimate come from published discount ratios, not list "
        "prices: replace them with your own negotiated rates.")
def notes(case):
    rows = [r[0] for r in openpyxl.load_workbook("%s/%s.xlsx" % (d, case))
            ["Inputs"].iter_rows(values_only=True)]
    return [v for v in rows if isinstance(v, str) and v.endswith(tail)]
assert notes("gcp") == ["Reserved rates" + tail], notes("gcp")
assert notes("aws") == ["Reserved and savings-plan rates" + tail], \
    notes("aws")
assert notes("none") == [], notes("none")
assert notes("owned") == ["Reserved rates" + tail], notes("owned")
PYEOF
echo "xlsx_inputs_estimate_note: ok"
