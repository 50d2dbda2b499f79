#!/bin/sh
# simulate --json gives the same bytes with --threads 1, 2 and 8 (#42
# item 6).  A body of 8 MB or more is read in ranges; the sums of the
# ranges (instance-hours, useful GPU-hours: doubles, whose last digits
# depend on the order of the additions) were added in an order that
# followed the thread count, so useful_gpu_hours and the training
# instance-hours differed in their last digits between 1 and 2 threads.
# The expected result is the property itself: the three outputs are equal.
# The trace: about 12 MB of random (seeded, so always the same) rows
# over 60 days, with gpu_util, rows of one job not in time order.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$out/trace.csv" <<'PY'
import random, sys, time
r = random.Random(42)
types = ["g5.xlarge", "g5.2xlarge", "g5.12xlarge", "p4d.24xlarge"]
t0 = 1767225600  # 2026-01-01T00:00:00Z
with open(sys.argv[1], "w") as f:
    f.write("timestamp,step_s,instance_type,instances,gpu_util,job_id,"
            "team,project,workload\n")
    while f.tell() < 12_000_000:
        t = t0 + r.randrange(60 * 24) * 3600 + r.choice([0, 600, 1200, 1800])
        f.write("%s,%d,%s,%d,%.1f,j%d,t%d,p%d,%s\n" % (
            time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t)),
            r.choice([600, 1200, 3600]), r.choice(types), r.randint(1, 9),
            r.uniform(0, 100), r.randrange(3000), r.randrange(20),
            r.randrange(7), r.choice(["training", "inference"])))
PY
pass=0
fail=0
for t in 1 2 8; do
    "$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
        --trace "$out/trace.csv" --json --threads "$t" > "$out/run$t.json"
done
# the run read the rows and their gpu_util (else there is nothing to sum)
if python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["inputs"]["trace"]
assert t["rows_read"] > 150000 and t["useful_gpu_hours"] > 0, t
' "$out/run1.json"; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
for t in 2 8; do
    if cmp "$out/run1.json" "$out/run$t.json"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL: --threads $t gives other bytes than --threads 1" >&2
    fi
done
echo "threads_same_bytes: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
