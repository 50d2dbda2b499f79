#!/bin/sh
# gpuplan synth, worked by hand (issue #36).  A one-week trace (168 hours
# from Monday 2026-03-02) of x.large whose demand is 1 + (hour of the week
# mod 5) instances: with one source week every drawn week is that week, so
# the trace made is the week repeated, whatever the seed.
#   --growth 0.1: output hour k is multiplied by 1.1^(k / 730)
#   --step 2026-03-09:2: from the second week on, twice that
#   --migrate 2026-03-12:x.large:y.large:0.5: from 2026-03-12, y.large, at
#     half the instances
# 0.05 years = 438 hours.  And a trace under a week is refused.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/cat.json" <<'JSON'
{"schema": "gpuplan-catalog/1", "provider": "aws", "region": "us-east-1",
 "currency": "USD", "as_of": "2026-11-01", "sources": ["test fixture"],
 "instance_types": {
  "x.large": {"family": "x", "gpu_model": "T4", "gpus": 1, "vcpus": 4,
              "memory_gib": 16, "on_demand": 1},
  "y.large": {"family": "y", "gpu_model": "T4", "gpus": 2, "vcpus": 8,
              "memory_gib": 32, "on_demand": 2}}}
JSON
python3 - "$out/t.csv" <<'PY'
import datetime as dt, sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,instances,workload\n")
    t0 = dt.datetime(2026, 3, 2)
    for h in range(168):
        ts = (t0 + dt.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        f.write("%s,x.large,%d,inference\n" % (ts, 1 + h % 5))
PY
export GPUPLAN_TODAY=2026-11-21
"$bin" synth --quiet --trace "$out/t.csv" --pricing "$out/cat.json" \
    --years 0.05 --seed 7 --growth 0.1 --step 2026-03-09:2 \
    --migrate 2026-03-12:x.large:y.large:0.5 --out "$out/s.csv"
python3 - "$out/s.csv" <<'PY'
import csv, datetime as dt, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 438, len(rows)
t0 = dt.datetime(2026, 3, 2)
for k, r in enumerate(rows):
    t = t0 + dt.timedelta(hours=k)
    assert r["timestamp"] == t.strftime("%Y-%m-%dT%H:%M:%SZ"), (k, r)
    v = (1 + (k % 168) % 5) * 1.1 ** (k / 730)
    if t >= dt.datetime(2026, 3, 9):
        v *= 2
    want_type = "x.large"
    if t >= dt.datetime(2026, 3, 12):
        v *= 0.5
        want_type = "y.large"
    assert r["instance_type"] == want_type, (k, r)
    assert abs(float(r["instances"]) - v) <= 1e-5 * v, (k, r, v)
    assert r["workload"] == "inference" and r["step_s"] == "3600", r
PY
head -100 "$out/t.csv" > "$out/short.csv"
if "$bin" synth --quiet --trace "$out/short.csv" --pricing "$out/cat.json" \
    > /dev/null 2> "$out/err"; then
    echo "synth: a 99-hour trace was not refused"; exit 1
fi
grep -q "needs at least one (168 hours)" "$out/err"
echo "synth: 2 passed, 0 failed"
