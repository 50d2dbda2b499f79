#!/bin/sh
# A job run on spot that started before the scenario's window is not
# replayed (the replay would begin mid-run); its hours in the window are
# priced by Daly's expected time, like spot usage without job_id, and the
# run is counted in --json and on the terminal.
#
# tests/e2e/data/spot-window-edge.*: job j1 on 2 g5.xlarge from 00:00 to
# 06:00, the window 02:00-06:00, training on spot (checkpoint every 1 h at
# 0.05 h, restart 0.25 h).  Prices (tests/data/engine): spot 0.40/h,
# interruptions 5% a month.  By hand, per hour in the window (N = 2):
#   lambda = -ln(1 - 0.05) / 730,  M = 1 / (2 lambda)
#   wall = M e^(R/M) (e^((tau+delta)/M) - 1) / tau    (Daly, W = 1)
#   spot cost = 4 h x 2 x wall x 0.40 = 3.36036...;  8 instance-hours.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args="--pricing $src/tests/data/engine/aws-test.json
      --trace $src/tests/e2e/data/spot-window-edge.csv
      --scenario $src/tests/e2e/data/spot-window-edge.json"
# shellcheck disable=SC2086
"$bin" simulate --quiet --json $args > "$out/run.json"
# shellcheck disable=SC2086
"$bin" simulate --quiet $args > "$out/run.txt"
grep -q "1 job run started before the window: its 8.0 instance-hours in it are priced by the expected value, not replayed" "$out/run.txt" || {
    cat "$out/run.txt" >&2
    echo "spot_window_edge: no note of the run started before the window" >&2
    exit 1
}
python3 - "$out/run.json" <<'PY'
import json, math, sys
s = json.load(open(sys.argv[1]))["strategies"][0]
lam = -math.log(1 - 0.05) / 730
M = 1 / (2 * lam)
tau, delta, R = 1.0, 0.05, 0.25
wall = M * math.exp(R / M) * (math.exp((tau + delta) / M) - 1) / tau
want = 4 * 2 * wall * 0.40
assert abs(s["spot_cost"] - want) < 1e-9, (s["spot_cost"], want)
assert s["spot"]["job_runs_before_window"] == 1, s["spot"]
assert s["spot"]["job_runs_before_window_instance_hours"] == 8, s["spot"]
PY
