#!/bin/sh
# The forward policy against the AWS method when owned commitments expire
# (issue #36, docs/policies.md), worked by hand on
# tests/e2e/data/policy-catalog.json: x.large at $10/h on demand, a 1-year
# reservation at $5/h effective.  90 days from 2026-01-01 of 5 x.large
# (all on demand 2,160 h x $50 = $108,000); 5 reservations owned since
# 2025-02-08, so they expire on 2026-02-08.  Reviews on Feb 1 and Mar 1.
#
# aws: on Feb 1 the 30-day lookback is all covered: nothing; on Mar 1 it
#   has 504 h uncovered (Feb 8 - Mar 1): 5 reservations cost 720 x 25 =
#   $18,000 over it and save 504 x 50 = $25,200, so it buys them then.
#   total 912 x 25 (owned, to Feb 8) + 504 x 50 + 744 x 25
#   = 22,800 + 25,200 + 18,600 = $66,600; ESR 41,400 / 108,000
# forward: on Feb 1 it plans February (672 h) on the lookback's demand, of
#   which the owned cover 168 h: 5 reservations cost 672 x 25 = $16,800
#   and save 504 x 50 = $25,200, so it buys them on Feb 1.
#   total 22,800 + (1,416 h from Feb 1) x 25 = $58,200; ESR 49,800 / 108,000
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf 'timestamp,step_s,instance_type,workload,instances\n2026-01-01T00:00:00Z,7776000,x.large,inference,5\n' \
    > "$out/t.csv"
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1",
 "commitments": [
  {"type": "reserved", "instance_type": "x.large", "count": 5,
   "term_years": 1, "payment": "partial_upfront",
   "start": "2025-02-08T00:00:00Z"}],
 "policies": [
  {"name": "aws", "kind": "aws", "review": "monthly", "lookback": "30d",
   "terms": [1], "payment": "partial_upfront"},
  {"name": "forward", "kind": "forward", "review": "monthly",
   "terms": [1], "payment": "partial_upfront"}]}
JSON
GPUPLAN_TODAY=2026-11-21 "$bin" simulate --quiet --json \
    --pricing "$src/tests/e2e/data/policy-catalog.json" \
    --trace "$out/t.csv" --scenario "$out/s.json" > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, sys
aws, fwd = json.load(open(sys.argv[1]))["policies"]
def close(a, b, what):
    assert abs(a - b) <= 1e-9 * max(1, abs(b)), (what, a, b)
def bought(p):
    return [(c["type"], c["count"], c["bought_at"][:10]) for c in p["purchases"]]
assert bought(aws) == [("reserved", 5.0, "2026-03-01")], aws["purchases"]
assert bought(fwd) == [("reserved", 5.0, "2026-02-01")], fwd["purchases"]
close(aws["total_cost"], 66600, "aws total")
close(aws["esr"], 41400 / 108000, "aws esr")
close(fwd["total_cost"], 58200, "forward total")
close(fwd["esr"], 49800 / 108000, "forward esr")
PY
echo "policies_forward: 1 passed, 0 failed"
