#!/bin/sh
# scenarios/spot-availability run as its README shows: the 48-hour job's
# wait, fallback and deadline as the greedy rule of docs/billing.md gives
# them by hand (README.md works them out): deadline 52 h, restart 0.2 h,
# 5-minute ticks, capacity gone 10-16 h and 30-41 h: it switches at
# t = 13.75 h (52 - 13.75 = 38.25 < 38 + 0.2 + 1/12), waits 3.75 h, pays
# 38.2 h on demand ($1,251.81 at $32.77); deadline 70 h waits 6 + 11 h and
# runs 48.4 h on spot ($484); on demand 48 x $32.77.
set -eu
bin=$1
src=$2
d=$src/scenarios/spot-availability
out=${TMPDIR:-/tmp}/gpuplan-scn-avail.$$
trap 'rm -f "$out"' EXIT
"$bin" simulate --quiet --json --trace "$d/trace.csv" --layout jobs \
    --pricing "$d/pricing" --scenario "$d/scenario.json" > "$out"
python3 - "$out" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rows = {s["name"]: s["job_runs"][0] for s in doc["strategies"]}
fails = 0
def near(got, want, what, tol=1e-6):
    global fails
    if abs(got - want) > tol:
        print("%s: got %r, want %r" % (what, got, want)); fails += 1
b, d70, od = rows["baseline"], rows["deadline-70h"], rows["on-demand"]
near(b["wait_h"], 3.75, "baseline wait")
near(b["fallback_cost"], 38.2 * 32.77, "baseline fallback")
near(b["cost_per_completed_run"], 10 * 10.0 + 38.2 * 32.77, "baseline cost")
near(b["interruptions"], 1, "baseline interruptions")
near(b["deadline_h"], 52, "baseline deadline")
near(b["met_deadline"], 1, "baseline met")
near(d70["wait_h"], 17, "70h wait")
near(d70["cost_per_completed_run"], 484, "70h cost")
near(d70["interruptions"], 2, "70h interruptions")
near(d70["fallback_cost"], 0, "70h fallback")
near(od["cost_per_completed_run"], 48 * 32.77, "on-demand cost")
if od["launch"] != "on_demand" or b["launch"] != "spot":
    print("launch"); fails += 1
print("scenario_spot_availability: %d passed, %d failed" % (12 - fails, fails))
sys.exit(1 if fails else 0)
PY
