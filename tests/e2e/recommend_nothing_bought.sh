#!/bin/sh
# When no plan buys anything, recommend says only what is true: the notes
# (JSON notes, the terminal's "note:", the workbook's Summary) said "the
# balanced plan buys 1-year terms only" of a plan that buys no term, and
# the terminal said the plan "captures 100.0%" of a $0.00 optimum
# (README: captured_fraction is 1 when nothing was worth buying and the
# plan did as well; JSON keeps 1).  One hour of one g5.xlarge: no
# commitment pays for itself over an hour.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf 'timestamp,step_s,instance_type,workload,instances\n2026-01-05T00:00:00Z,3600,g5.xlarge,inference,1\n' \
    > "$out/t.csv"
"$bin" recommend --quiet --json --pricing "$src/pricing/aws/us-east-1.json" \
    --trace "$out/t.csv" > "$out/r.json"
"$bin" recommend --quiet --pricing "$src/pricing/aws/us-east-1.json" \
    --trace "$out/t.csv" > "$out/r.txt"
python3 - "$out/r.json" "$out/r.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
assert all(not p["commitments"] for p in doc["plans"]), doc["plans"]
assert doc["captured_fraction"] == 1, doc["captured_fraction"]
want = ("the balanced plan buys nothing; it may buy 1-year terms only, as "
        "3-year terms need 26 weeks of history (there is 1 hour)")
assert doc["notes"] == [want], doc["notes"]
assert "note: " + want + "\n" in text, text
assert "buys 1-year terms only" not in text, text
assert ("hindsight optimum: $0.00 net savings, as nothing was worth "
        "buying; the recommended plan does as well\n") in text, text
assert "100.0%" not in text, text
PY
echo "recommend_nothing_bought: ok"
