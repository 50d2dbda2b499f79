#!/bin/sh
# forecast warns about a stretch of over a week with no demand in its
# history, as simulate, recommend and validate do for their window (the
# goldens forecast-trace-gap and forecast-zeros-before-demand-no-gap pin
# stderr): on stderr, in the JSON's inputs.warnings and in the workbook's
# Summary.  Trace: 2 g5.xlarge for inference 72 hours from
# 2026-11-01T00:00:00Z, no rows for 216 hours (9 days, 2026-11-04 to
# 11-13), then 72 hours more.  With --train-until 2026-11-03T00:00:00Z the
# history is the first 48 hours, which hold no gap: no warning.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl forecast_trace_gap
"$PY" - "$dir/t.csv" <<'PYEOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in list(range(72)) + list(range(288, 360)):
        f.write("%d,g5.xlarge,inference,2\n" % (1793491200 + 3600 * h))
PYEOF
export GPUPLAN_TODAY=2026-11-21
P="$src/tests/data/engine/aws-test.json"
want="the trace has no demand for 9 days, 2026-11-04T00:00:00Z to \
2026-11-13T00:00:00Z (no rows, or rows of 0 instances): the forecast \
learns from those hours as if nothing ran; if rows are missing there, \
give them or only the rows after them"
fc() { "$bin" forecast --pricing "$P" --trace "$dir/t.csv" --horizon 1d "$@"; }
fc > /dev/null 2> "$dir/fc.err"
[ "$(cat "$dir/fc.err")" = "gpuplan forecast: warning: $want" ] ||
    { cat "$dir/fc.err" >&2; exit 1; }
fc --quiet --json > "$dir/fc.json"
fc --quiet --out "$dir/fc.xlsx" > /dev/null
fc --train-until 2026-11-03T00:00:00Z > /dev/null 2> "$dir/tu.err"
if grep -F "no demand for" "$dir/tu.err"; then exit 1; fi
"$PY" - "$dir" "$want" <<'PYEOF'
import json, sys, openpyxl
d, want = sys.argv[1], sys.argv[2]
w = json.load(open(d + "/fc.json"))["inputs"]["warnings"]
assert w.count(want) == 1, w
summary = [r[0] for r in
           openpyxl.load_workbook(d + "/fc.xlsx")["Summary"]
           .iter_rows(values_only=True) if r and isinstance(r[0], str)]
assert summary.count(want) == 1, summary
PYEOF
echo "forecast_trace_gap: ok"
