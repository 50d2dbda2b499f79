#!/bin/sh
# recommend --forward --csv DIR into a folder an earlier recommend --csv
# filled: the forward plan bills no ledger, so its hourly, monthly,
# spot_jobs, chargeback, chargeback_summary and commitments tables are
# written with their header alone.  They used to be left out, and the
# earlier run's tables (here 120 hours of hourly.csv per ledger) stayed
# beside the forward plan as if they were its own.  The folder after both
# runs holds the same files, byte for byte, as one filled by the forward
# run alone; each ledger table is the header line of the earlier run's.
#
# Trace (prices: tests/data/engine/aws-test.json): five days (120 hours
# from 2026-01-01T00:00:00Z) of 10 p4d.24xlarge for inference.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/trace.csv" <<'PYEOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(120):
        f.write("%d,p4d.24xlarge,inference,10\n" % (1767225600 + 3600 * h))
PYEOF
export GPUPLAN_TODAY=2026-01-07
set -- --quiet --runs 10 --seed 1 --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$dir/trace.csv"
"$bin" recommend "$@" --csv "$dir/both" > /dev/null
ledger="hourly.csv monthly.csv spot_jobs.csv chargeback.csv chargeback_summary.csv commitments.csv"
for f in $ledger; do
    head -n 1 "$dir/both/$f" > "$dir/$f.header"
done
# the window's run billed the hours: 2 ledgers x 120 hours
[ "$(($(wc -l < "$dir/both/hourly.csv") - 1))" = 240 ] ||
    { echo "the window's run: hourly.csv has not 240 rows"; exit 1; }
"$bin" recommend "$@" --forward 1w --csv "$dir/both" > /dev/null
"$bin" recommend "$@" --forward 1w --csv "$dir/forward" > /dev/null
[ "$(ls "$dir/both")" = "$(ls "$dir/forward")" ] ||
    { echo "the folders hold other files:"; ls "$dir/both" "$dir/forward"; exit 1; }
for f in $(ls "$dir/forward"); do
    cmp -s "$dir/both/$f" "$dir/forward/$f" ||
        { echo "$f is not the forward run's"; exit 1; }
done
for f in $ledger; do
    cmp -s "$dir/forward/$f" "$dir/$f.header" ||
        { echo "$f is not its header alone:"; cat "$dir/forward/$f"; exit 1; }
done
echo "recommend_forward_csv: ok"
