#!/bin/sh
# A stretch of over a week with no demand inside the window is warned
# about, in the JSON's inputs.warnings and the workbook's Summary as on
# stderr (the goldens trace-gap-* pin stderr).  The audit's case: 4
# g5.xlarge for inference 2026-03-01 to 03-15 and 2026-06-01 to 06-15,
# nothing between: 78 days (2026-03-15T00:00:00Z to 2026-06-01T00:00:00Z:
# 17 + 30 + 31 days) billed as if nothing ran, without a word.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
. "$src/tests/e2e/lib/warned_once.sh"
need_openpyxl trace_gap_warning
"$PY" - "$dir/t.csv" <<'PYEOF'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,step_s,provider,region,instance_type,workload,"
            "instances,gpu_util\n")
    for start in (1772323200, 1780272000):  # 2026-03-01, 2026-06-01
        for h in range(14 * 24):
            f.write("%d,3600,aws,us-east-1,g5.xlarge,inference,4,50\n"
                    % (start + 3600 * h))
PYEOF
export GPUPLAN_TODAY=2026-11-21
want="the trace has no demand for 78 days, 2026-03-15T00:00:00Z to \
2026-06-01T00:00:00Z (no rows, or rows of 0 instances): those hours are \
billed as if nothing ran; if rows are missing there, give them or a \
window without them"
warned_once "$bin" "$dir" "$want" --trace "$dir/t.csv"
echo "trace_gap_warning: ok"
