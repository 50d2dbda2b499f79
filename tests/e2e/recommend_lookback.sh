#!/bin/sh
# --lookback sizes the purchase on the last days of the window, as the
# clouds' recommenders do (issue #36), worked by hand on the round-number
# catalog tests/e2e/data/renewal-lapse-catalog.json: x.large at $10/h on
# demand, a 1-year reservation at $5/h effective, so one more reserved
# instance pays when demand reaches it in more than half the hours.
# 60 days: 10 x.large for the first 40, 4 for the last 20.
#   all (1,440 h):   10 is reached in 960 / 1440 = 67% of hours: buy 10
#   30d (720 h):     10 in 240 / 720 = 33%, 4 in all of them: buy 4
# And --instruments routing (no commitments) buys nothing; --terms 3
# (the catalog has 1-year offers only) buys nothing either.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf 'timestamp,step_s,instance_type,workload,instances\n2026-03-02T00:00:00Z,3456000,x.large,inference,10\n2026-04-11T00:00:00Z,1728000,x.large,inference,4\n' \
    > "$out/t.csv"
export GPUPLAN_TODAY=2026-11-21
cat="$src/tests/e2e/data/renewal-lapse-catalog.json"
for lb in all 30d; do
    "$bin" recommend --quiet --json --pricing "$cat" --trace "$out/t.csv" \
        --lookback $lb > "$out/$lb.json"
done
"$bin" recommend --quiet --json --pricing "$cat" --trace "$out/t.csv" \
    --instruments routing > "$out/routing.json"
"$bin" recommend --quiet --json --pricing "$cat" --trace "$out/t.csv" \
    --terms 3 > "$out/t3.json"
python3 - "$out" <<'PY'
import json, sys
d = sys.argv[1]
def bought(name):
    doc = json.load(open("%s/%s.json" % (d, name)))
    plan = doc["plans"][1]
    return doc["window"]["hours"], [(c["type"], c["count"]) for c in plan["commitments"]]
assert bought("all") == (1440, [("reserved", 10.0)]), bought("all")
assert bought("30d") == (720, [("reserved", 4.0)]), bought("30d")
assert bought("routing")[1] == [], bought("routing")
assert bought("t3")[1] == [], bought("t3")
PY
echo "recommend_lookback: 1 passed, 0 failed"
