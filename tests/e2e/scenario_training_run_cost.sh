#!/bin/sh
# scenarios/training-run-cost run as its README shows (#38's true cost of
# a training run), worked by hand there: the 10-hour job on 2 instances,
# capacity gone in hours 2, 5 and 8, restart 0.25 h: 3 interruptions, 4
# attempts, 10.75 h on spot x 2 x $10 = $215 per completed run, $15 of
# failed attempts (3 x 0.25 h x 2 x $10); the 5-hour job on demand: one
# attempt, 5 x $32.77.  Its events.jsonl imports to 3 interruptions of
# the same job, and simulate --spot-events counts those 3 for its row (and
# 0 for the other job).
set -eu
bin=$1
src=$2
d=$src/scenarios/training-run-cost
tmp=${TMPDIR:-/tmp}/gpuplan-scn-trc.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
"$bin" simulate --quiet --trace "$d/trace.csv" --layout jobs \
    --pricing "$d/pricing" --scenario "$d/scenario.json" \
    --csv "$tmp/csv" --spot-events "$d/events.jsonl" > "$tmp/out.txt"
"$bin" import --quiet spot-events "$d/events.jsonl" --out "$tmp/events.csv"
python3 - "$tmp" <<'PY'
import csv, sys
tmp = sys.argv[1]
rows = {(r["strategy"], r["job_id"]): r
        for r in csv.DictReader(open(tmp + "/csv/job_runs.csv"))}
events = list(csv.DictReader(open(tmp + "/events.csv")))
fails = 0
def near(got, want, what):
    global fails
    if abs(float(got) - want) > 1e-6:
        print("%s: got %s, want %r" % (what, got, want)); fails += 1
ft = rows[("baseline", "finetune-10h")]
near(ft["interruptions_mean"], 3, "interruptions")
near(ft["attempts_mean"], 4, "attempts")
near(ft["cost_per_completed_run"], 215, "cost per completed run")
near(ft["failed_attempt_cost_mean"], 15, "failed attempts")
ev = rows[("baseline", "eval-5h")]
near(ev["attempts_mean"], 1, "on-demand attempts")
near(ev["cost_per_completed_run"], 5 * 32.77, "on-demand cost")
near(rows[("all-on-demand", "finetune-10h")]["cost_per_completed_run"],
     20 * 32.77, "all on demand")
near(ft["recorded_interruptions"], 3, "recorded interruptions")
near(ev["recorded_interruptions"], 0, "recorded, on demand")
n = sum(1 for e in events if e["job_id"] == "finetune-10h")
if n != 3:
    print("events of finetune-10h: %d, want 3" % n); fails += 1
if "finetune-10h" not in open(tmp + "/out.txt").read():
    print("terminal table lacks the job"); fails += 1
print("scenario_training_run_cost: %d passed, %d failed" % (11 - fails, fails))
sys.exit(1 if fails else 0)
PY
