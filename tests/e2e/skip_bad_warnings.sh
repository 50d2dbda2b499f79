#!/bin/sh
# --skip-bad: the rows it rejected are one warning, in every place a run
# gives its warnings: the terminal once ("gpuplan <command>: 2 rows rejected; see
# ..."), the JSON's inputs.warnings of simulate, recommend and forecast
# (before, only inputs.trace.rows_rejected said so) and the workbook's
# Summary, once each.
#
# Trace: 4 rows of 2 g5.xlarge, of which 2 are bad (a negative instance
# count, an unknown type), so rows_read 4, rows_rejected 2 and the
# warning "2 trace rows were rejected (--skip-bad) and are not in these
# numbers; see <rejects file> for each with its reason".
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl skip_bad_warnings
cat > "$dir/t.csv" <<'CSV'
timestamp,instance_type,workload,instances
2026-01-05T13:00:00Z,g5.xlarge,inference,2
2026-01-05T14:00:00Z,g5.xlarge,inference,-1
2026-01-05T15:00:00Z,g5.xlargx,inference,2
2026-01-05T16:00:00Z,g5.xlarge,inference,2
CSV
P="$src/tests/data/engine/aws-test.json"
export GPUPLAN_TODAY=2026-07-21
want="2 trace rows were rejected (--skip-bad) and are not in these numbers; see $dir/r.csv for each with its reason"
for cmd in simulate recommend forecast; do
    "$bin" "$cmd" --pricing "$P" --trace "$dir/t.csv" --skip-bad \
        --rejects "$dir/r.csv" --json > "$dir/$cmd.json" 2> "$dir/$cmd.err"
    n=$(grep -c "rejected" "$dir/$cmd.err" || true)
    if [ "$n" != 1 ] ||
        ! grep -qx "gpuplan $cmd: 2 rows rejected; see $dir/r.csv for each with its reason" "$dir/$cmd.err"; then
        echo "$cmd: the terminal should say once that 2 rows were rejected:"
        cat "$dir/$cmd.err"
        exit 1
    fi
    python3 - "$dir/$cmd.json" "$want" "$cmd" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
inputs = doc["inputs"]
assert inputs["trace"]["rows_read"] == 4, inputs["trace"]
assert inputs["trace"]["rows_rejected"] == 2, inputs["trace"]
hits = [w for w in inputs["warnings"] if "rejected" in w]
assert hits == [sys.argv[2]], (sys.argv[3], inputs["warnings"])
PY
done
"$bin" simulate --quiet --pricing "$P" --trace "$dir/t.csv" --skip-bad \
    --rejects "$dir/r.csv" --out "$dir/s.xlsx" > /dev/null
"$PY" - "$dir/s.xlsx" "$want" <<'PY'
import sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Summary"]
# the subtitle's row count says it too (skip_bad_counts.sh checks it)
cells = [c.value for row in ws.iter_rows() for c in row
         if isinstance(c.value, str) and "rejected" in c.value
         and not c.value.startswith("gpuplan ")]
assert cells == [sys.argv[2]], cells
PY
echo "rejected rows are one warning in the terminal, JSON and workbook"
