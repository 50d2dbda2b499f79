#!/bin/sh
# A scenario window that reaches before the trace's first row or past its
# end is warned about: those hours have no rows, so they are billed, and
# plans sized, as hours in which nothing ran.  The audit's case: 4
# g5.xlarge for inference from 2026-02-01 to 2026-04-01 (1,416 hours) and
# a window from 2026-01-01 to 2026-03-01: January (31 days, 744 hours) was
# billed as zero demand with no word, and recommend said "nothing to
# buy" (4 instances in only 672 of the window's 1,416 hours, 47%).
# The warning is on stderr (simulate, recommend, validate), in the
# JSON's inputs.warnings and in the workbook's Summary.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
. "$src/tests/e2e/lib/warned_once.sh"
need_openpyxl window_past_trace
"$PY" - "$dir" <<'PYEOF'
import sys
d = sys.argv[1]
with open(d + "/t.csv", "w") as f:
    f.write("timestamp,step_s,provider,region,instance_type,workload,"
            "instances,gpu_util\n")
    for h in range(1416):
        t = 1769904000 + 3600 * h  # 2026-02-01T00:00:00Z
        f.write("%d,3600,aws,us-east-1,g5.xlarge,inference,4,50\n" % t)
with open(d + "/s.json", "w") as f:
    f.write('{"schema": "gpuplan-scenario/1", "name": "early", "window": '
            '{"start": "2026-01-01T00:00:00Z", "end": '
            '"2026-03-01T00:00:00Z"}}\n')
PYEOF
export GPUPLAN_TODAY=2026-11-21
want="the scenario's window starts 31 days before the trace's first row \
(2026-01-01T00:00:00Z to 2026-02-01T00:00:00Z): those hours have no \
demand, as if nothing ran; give their rows or start the window at the \
trace's first hour"
set -- --trace "$dir/t.csv" --scenario "$dir/s.json"
warned_once "$bin" "$dir" "$want" "$@"
"$bin" validate "$@" > /dev/null 2> "$dir/validate.err"
n=$(grep -cF "gpuplan validate: warning: $want" "$dir/validate.err" || true)
[ "$n" = 1 ] || { cat "$dir/validate.err" >&2; exit 1; }
# a window inside the trace: no such warning
printf '%s\n' '{"schema": "gpuplan-scenario/1", "name": "inside",' \
    '"window": {"start": "2026-02-01T00:00:00Z",' \
    '"end": "2026-04-01T00:00:00Z"}}' > "$dir/in.json"
"$bin" validate --trace "$dir/t.csv" --scenario "$dir/in.json" \
    > /dev/null 2> "$dir/in.err"
if grep -q "no demand" "$dir/in.err"; then cat "$dir/in.err" >&2; exit 1; fi
echo "window_past_trace: ok"
