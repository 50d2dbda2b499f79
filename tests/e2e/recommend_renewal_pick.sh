#!/bin/sh
# Renewals are valued against each other lapsing and picked greedily
# (README, Renewals), so the ones advised ("saves") are the cheapest set
# of the options compared, and each one to "let it lapse" would cost more
# on top of them.  Round-number catalog (tests/e2e/data/
# renewal-lapse-catalog.json): x.large at $10/h on demand, a reservation
# at 3 + 17520 / 8760 = $5/h.  Two weeks (336 h) of 5 x.large; owned 3 and
# 4 reservations, both ending after the window (2026-04-01, 2026-04-02).
# The plan buys nothing (the owned 7 cover it).  Over a window like this
# one, by hand ($/h x 336):
#   both lapse  5 x 10          = $50/h  $16,800
#   renew 3     3 x 5 + 2 x 10  = $35/h  $11,760
#   renew 4     4 x 5 + 1 x 10  = $30/h  $10,080  <- the cheapest
#   renew both  7 x 5           = $35/h  $11,760
# So: renew the 4, saving 16800 - 10080 = $6,720; renewing the 3 on top
# costs 11760 - 10080 = $1,680: let it lapse.  Each used to be valued with
# the other owned one in place: the 4 saved $0.00 (35 -> 35 $/h) and the 3
# cost $1,680, which advised letting both lapse ($16,800).
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf 'timestamp,step_s,instance_type,workload,instances\n2026-03-02T00:00:00Z,1209600,x.large,inference,5\n' \
    > "$out/t.csv"
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "commitments": [
 {"type": "reserved", "provider": "aws", "region": "us-east-1",
  "instance_type": "x.large", "count": 3, "term_years": 1,
  "payment": "partial_upfront", "start": "2025-04-01T00:00:00Z"},
 {"type": "reserved", "provider": "aws", "region": "us-east-1",
  "instance_type": "x.large", "count": 4, "term_years": 1,
  "payment": "partial_upfront", "start": "2025-04-02T00:00:00Z"}]}
JSON
"$bin" recommend --quiet --json \
    --pricing "$src/tests/e2e/data/renewal-lapse-catalog.json" \
    --trace "$out/t.csv" --scenario "$out/s.json" > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["window"]["hours"] == 336, doc["window"]
assert not doc["plans"][1]["commitments"], doc["plans"][1]  # the premise
got = [(a["rank"], a["count"], round(a["net_savings"], 2),
        "let it lapse" in a["reason"]) for a in doc["actions"]]
want = [(1, 4, 6720.0, False), (2, 3, -1680.0, True)]
assert got == want, got
assert all(a["renewal"] for a in doc["actions"]), doc["actions"]
# what it covers beyond the renewal above: 1 of its 3 instances
assert abs(doc["actions"][1]["expected_utilization"] - 1 / 3) < 1e-9
PY
echo "recommend_renewal_pick: ok"
