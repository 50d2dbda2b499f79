#!/bin/sh
# A policy replay gives the same bytes with --threads 1 and 2 (#36): a
# review's billing passes bill the two halves of the hours apart, on two
# threads when there are two, and add the halves in the same order either
# way.  The expected result is the property itself.  The trace: a year
# synthesized (seeded) from the bundled sample.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export GPUPLAN_TODAY=2027-12-31
"$bin" synth --quiet --trace "$src/scenarios/sample/trace.csv" --years 1 \
    --seed 3 --growth 0.03 --out "$out/t.csv"
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "policies": [
 {"name": "aws", "kind": "aws", "review": "monthly", "lookback": "30d"},
 {"name": "forward", "kind": "forward", "review": "monthly"}]}
JSON
for t in 1 2; do
    "$bin" simulate --quiet --json --threads "$t" --trace "$out/t.csv" \
        --scenario "$out/s.json" > "$out/r$t.json"
done
# the replays bought something (else there was nothing to bill apart)
python3 -c '
import json, sys
ps = json.load(open(sys.argv[1]))["policies"]
assert all(len(p["purchases"]) > 0 for p in ps), ps
' "$out/r1.json"
if cmp -s "$out/r1.json" "$out/r2.json"; then
    echo "policies_threads: 1 passed, 0 failed"
else
    echo "policies_threads: 0 passed, 1 failed"
    exit 1
fi
