#!/bin/sh
# Temporary files are created new, under a random name, in a folder of
# their own, never through a link.  They used to be <out>.tmp<PID>.xlsx and
# <DIR>/<table>.csv.tmp<PID>, opened with fopen("wb"): anyone who could
# write to the output folder could plant links for the next PIDs, and the
# next run (root, a cron job) truncated or overwrote the link's target.
# Here links for the next 3,000 PIDs point at a victim file; --out and --csv
# runs must leave it untouched and write their outputs.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
ln -s "$dir/victim" "$dir/probe" 2>/dev/null || exit 77
echo "precious" > "$dir/victim"
mkdir "$dir/csv"
# one process plants them all, so that the PIDs to come are not used up
python3 - "$dir" <<'PY'
import os, sys
d = sys.argv[1]
tables = ["hourly", "monthly", "spot_jobs", "chargeback", "chargeback_summary",
          "commitments", "idle"]
for pid in range(os.getpid() + 1, os.getpid() + 3000):
    os.symlink(d + "/victim", "%s/r.tmp%d.xlsx" % (d, pid))
    for t in tables:
        os.symlink(d + "/victim", "%s/csv/%s.csv.tmp%d" % (d, t, pid))
PY
"$bin" simulate --quiet --out "$dir/r.xlsx" > /dev/null
"$bin" simulate --quiet --csv "$dir/csv" > /dev/null
fail=0
[ "$(cat "$dir/victim")" = "precious" ] || { echo "the victim was written"; fail=1; }
[ -s "$dir/r.xlsx" ] && [ ! -L "$dir/r.xlsx" ] || { echo "no workbook"; fail=1; }
[ -s "$dir/csv/hourly.csv" ] && [ ! -L "$dir/csv/hourly.csv" ] || { echo "no hourly.csv"; fail=1; }
if ls -a "$dir" "$dir/csv" | grep -q '^\.gpuplan-tmp-'; then
    echo "a temporary folder is left"; fail=1
fi
[ "$fail" -eq 0 ] && echo "temp_not_planted: 1 passed, 0 failed"
exit $fail
