#!/bin/sh
# A renewal's expected_utilization is its own: what it covers beyond what
# the plan already covers, over what it would cover fully used.  It was the
# figure the engine gives the renewal as one of the family's reservations,
# which share their use: here 75% against a 62% break-even, on a renewal
# that loses money.
#
# Trace: 3 weeks of g5.xlarge inference from 2026-03-01 (test catalog
# tests/data/engine/aws-test.json: on demand $1.006, reserved 1y
# no_upfront $0.62, compute plan 1y no_upfront $0.70), 4 instances for two
# weeks, then 2.  Owned: 2 reservations (or a $1.40/h compute plan: 2
# instances at $0.70) expiring 2026-03-08, a week in.  The plan buys 2
# reservations (used in every hour), so the renewal, from 03-08 to the
# window's end (336 h), covers 2 instances in the second week (168 h)
# beyond them and nothing in the third:
#   expected_utilization = 2 x 168 / (2 x 336) = 50%
#   reserved:  net savings 2 x 168 x 1.006 - 2 x 336 x 0.62 = -$78.624
#   compute:   net savings 2 x 168 x 1.006 - 336 x 1.40     = -$132.384
# (the shared figure was (2 x 168 x 100% + 2 x 168 x 50%) / 672 = 75%).
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
with open(out + "/t.csv", "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(21 * 24):
        t = 1772323200 + h * 3600  # 2026-03-01T00:00:00Z
        f.write(f"{t},g5.xlarge,inference,{4 if h < 14 * 24 else 2}\n")
own = ('{"schema": "gpuplan-scenario/1", "commitments": [{%s, "term_years": '
       '1, "payment": "no_upfront", "start": "2025-03-08T00:00:00Z"}]}')
open(out + "/ri.json", "w").write(own % (
    '"type": "reserved", "provider": "aws", "region": "us-east-1", '
    '"instance_type": "g5.xlarge", "count": 2'))
open(out + "/sp.json", "w").write(own % (
    '"type": "savings_plan", "kind": "compute", "provider": "aws", '
    '"hourly_commitment": 1.4'))
PY
for s in ri sp; do
    GPUPLAN_TODAY=2026-03-25 "$bin" recommend --quiet \
        --pricing "$src/tests/data/engine/aws-test.json" \
        --trace "$out/t.csv" --scenario "$out/$s.json" --json > "$out/$s.out"
done
python3 - "$out" <<'PY'
import json, sys
for name, net in (("ri", 2 * 168 * 1.006 - 2 * 336 * 0.62),
                  ("sp", 2 * 168 * 1.006 - 336 * 1.40)):
    rec = json.load(open(f"{sys.argv[1]}/{name}.out"))
    bal = [p for p in rec["plans"] if p["name"] == "balanced"][0]
    # the premise: the plan buys 2 reservations
    assert [(c["type"], c["count"]) for c in bal["commitments"]] == \
        [("reserved", 2)], bal["commitments"]
    ren = [a for a in rec["actions"] if a.get("renewal")]
    assert len(ren) == 1, rec["actions"]
    a = ren[0]
    assert abs(a["net_savings"] - net) < 0.005, (name, a["net_savings"], net)
    assert abs(a["expected_utilization"] - 0.5) < 1e-9, (name, a)
    assert a["expected_utilization"] < a["breakeven_utilization"], a
PY
echo "recommend_renewal_utilization: ok"
