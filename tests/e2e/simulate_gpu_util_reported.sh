#!/bin/sh
# Whether a trace reported gpu_util is asked the same way by simulate's
# table, its JSON and its workbook: did any row give one (GPU-hours with
# a gpu_util > 0), not are useful GPU-hours > 0.  And GPU-hours without
# gpu_util are printed to the hundredth, as validate prints them.
#
# Prices: tests/data/engine/aws-test.json (g5.xlarge, 1 GPU).  Each trace
# is two hours: 1 instance at 00:00, then 0.5 instance at 01:00 with no
# gpu_util, so 0.5 x 1 GPU x 1 h = 0.50 GPU-hours had none.
#   zero: gpu_util 0 at 00:00 -> useful GPU-hours 1 x 0 = 0, reported
#         (simulate said "no gpu_util in the trace", the Idle sheet "the
#         trace has no gpu_util to judge idleness by")
#   half: gpu_util 50 -> useful GPU-hours 0.5 (simulate said "0 GPU-hours
#         in the trace had no gpu_util")
#   none: no gpu_util on any row (1 + 0.5 = 1.5 GPU-hours without) ->
#         useful GPU-hours unknown: null in the JSON, an empty cell on the
#         Inputs sheet (which gave 0)
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl simulate_gpu_util_reported
h="timestamp,instance_type,instances,gpu_util"
printf '%s\n%s\n%s\n' "$h" 2026-01-05T00:00:00Z,g5.xlarge,1,0 \
    2026-01-05T01:00:00Z,g5.xlarge,0.5, > "$dir/zero.csv"
printf '%s\n%s\n%s\n' "$h" 2026-01-05T00:00:00Z,g5.xlarge,1,50 \
    2026-01-05T01:00:00Z,g5.xlarge,0.5, > "$dir/half.csv"
printf '%s\n%s\n%s\n' "$h" 2026-01-05T00:00:00Z,g5.xlarge,1, \
    2026-01-05T01:00:00Z,g5.xlarge,0.5, > "$dir/none.csv"
export GPUPLAN_TODAY=2026-11-21
for t in zero half none; do
    set -- --quiet --pricing "$src/tests/data/engine/aws-test.json" \
        --trace "$dir/$t.csv"
    "$bin" simulate "$@" > "$dir/$t.txt"
    "$bin" simulate "$@" --json > "$dir/$t.json"
    "$bin" simulate "$@" --out "$dir/$t.xlsx" > /dev/null
done
"$PY" - "$dir" <<'PYEOF'
import json, sys, openpyxl
d = sys.argv[1]
without = ("0.50 GPU-hours in the trace had no gpu_util: cost per useful "
           "GPU-hour is over the rest")
unknown = "no gpu_util in the trace: cost per useful GPU-hour is not known"
for name, useful, no_util, line, idle_note in (
        ("zero", 0.0, 0.5, without, "no idle spans"),
        ("half", 0.5, 0.5, without, "no idle spans"),
        ("none", None, 1.5, unknown,
         "no idle spans: the trace has no gpu_util to judge idleness by")):
    table = open("%s/%s.txt" % (d, name)).read().splitlines()
    assert line in table, (name, table)
    other = unknown if line == without else without
    assert other not in table, (name, table)
    tr = json.load(open("%s/%s.json" % (d, name)))["inputs"]["trace"]
    assert tr["useful_gpu_hours"] == useful, (name, tr)
    wb = openpyxl.load_workbook("%s/%s.xlsx" % (d, name))
    inputs = {r[0]: r[1] for r in wb["Inputs"].iter_rows(values_only=True)
              if r and r[0]}
    assert inputs["Useful GPU-hours"] == useful, (name, inputs)
    assert inputs["GPU-hours without gpu_util"] == no_util, (name, inputs)
    idle = [c for r in wb["Idle"].iter_rows(values_only=True) for c in r
            if isinstance(c, str) and c.startswith("no idle spans")]
    assert idle == [idle_note], (name, idle)
PYEOF
echo "simulate_gpu_util_reported: ok"
