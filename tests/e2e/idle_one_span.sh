#!/bin/sh
# One idle span is "1 idle span", in the JSON's warnings and the terminal.
# tests/e2e/data/idle-window.csv with --idle-min-hours 5: job j1 is idle
# 4 h (too short), web/b (1 g5.xlarge, $1.006/h in tests/data/engine) 6 h:
# one span, 6 GPU-hours, 6 x 1.006 = $6.04.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/idle-window.csv" --idle-min-hours 5 --json \
    > "$out/run.json"
python3 - "$out/run.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))["inputs"]["warnings"]
want = ("1 idle span: 6.0 GPU-hours below 5% utilization for 5 hours or "
        "more, $6.04 at on-demand rates (see Idle)")
assert w == [want], w
PY
"$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/idle-window.csv" --idle-min-hours 5 \
    > "$out/run.txt"
grep -q "idle GPUs (gpu_util below 5% for 5 h or more): 1 span," "$out/run.txt" || {
    echo "terminal idle line:" >&2
    grep "idle GPUs" "$out/run.txt" >&2
    exit 1
}
echo ok
