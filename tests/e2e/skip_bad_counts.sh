#!/bin/sh
# --skip-bad: the report counts the rows its numbers hold and says how
# many were set aside, in every place it counts rows (issue #39): the
# terminal's first line of simulate, recommend and forecast, the JSON's
# inputs.trace (rows_kept beside rows_read and rows_rejected), the
# workbook's Inputs sheet and the Summary's subtitle.
#
# Trace: 4 rows, of which 2 are bad (a negative instance count, an unknown
# type): counted by hand, 4 read, 2 rejected, 2 kept.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl skip_bad_counts
cat > "$dir/t.csv" <<'CSV'
timestamp,instance_type,workload,instances
2026-01-05T13:00:00Z,g5.xlarge,inference,2
2026-01-05T14:00:00Z,g5.xlarge,inference,-1
2026-01-05T15:00:00Z,g5.xlargx,inference,2
2026-01-05T16:00:00Z,g5.xlarge,inference,2
CSV
P="$src/tests/data/engine/aws-test.json"
export GPUPLAN_TODAY=2026-07-21
run() { # command, then its own options
    cmd=$1
    shift
    "$bin" "$cmd" --quiet --pricing "$P" --trace "$dir/t.csv" --skip-bad \
        --rejects "$dir/r.csv" "$@"
}
fail=0
for cmd in simulate recommend forecast; do
    first=$(run $cmd | head -n 1)
    case $first in
    *", 2 rows kept, 2 rejected") ;;
    *) echo "$cmd: first line does not count 2 kept, 2 rejected: $first"
       fail=1 ;;
    esac
    run $cmd --json > "$dir/$cmd.json"
done
for cmd in simulate recommend; do
    run $cmd --out "$dir/$cmd.xlsx" > /dev/null
done
"$PY" - "$dir" <<'PY' || fail=1
import json, sys, openpyxl
d = sys.argv[1]
for cmd in ("simulate", "recommend", "forecast"):
    t = json.load(open("%s/%s.json" % (d, cmd)))["inputs"]["trace"]
    got = (t["rows_read"], t["rows_kept"], t["rows_rejected"])
    assert got == (4, 2, 2), (cmd, t)
for cmd in ("simulate", "recommend"):
    wb = openpyxl.load_workbook("%s/%s.xlsx" % (d, cmd))
    rows = {r[0]: r[1] for r in wb["Inputs"].iter_rows(values_only=True)
            if r and isinstance(r[0], str)}
    assert rows.get("Rows read") == 4, (cmd, rows)
    assert rows.get("Rows kept (in these numbers)") == 2, (cmd, rows)
    assert rows.get("Rows rejected") == 2, (cmd, rows)
    subtitle = wb["Summary"]["A2"].value
    assert "; 2 trace rows (2 rejected);" in subtitle, (cmd, subtitle)
PY
[ "$fail" -eq 0 ] && echo "skip_bad_counts: 3 passed, 0 failed" ||
    echo "skip_bad_counts: 0 passed, 1 failed"
exit $fail
