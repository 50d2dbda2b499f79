#!/bin/sh
# recommend's capacity action on one large job run, every option's cost
# checked against hand arithmetic (docs/billing.md, "Capacity instruments").
# Job big: 64 x p5.48xlarge from 2026-03-02T11:30Z for 332 h (13 days 20
# hours), 64 x 332 = 21,248 instance-hours, training, checkpoints that
# cost nothing (checkpoint_cost_h 0), restart overhead 0.25 h.  A test catalog sells
# every instrument for the type:
#   on demand   21,248 x 55.04 = $1,169,489.92
#   spot        no interruptions (rate 0): 21,248 x 35 = $743,680
#   block       ceil((332 + 0.5) / 24) = 14 days, one block of 64:
#               64 x 14 x 24 x 39.33 = $845,752.32, 4 h (256 instance-h)
#               unused after the run
#   flex-start  ceil(332 / 168) = 2 requests, 2 x 4 = 8 h of wait, one
#               restart: (21,248 + 64 x 0.25) x 25 = $531,600, done at
#               332 + 0.25 + 8 = 340.25 h
#   calendar    ceil(332 / 24) = 14 days: 64 x 14 x 24 x 30 = $645,120
# With no deadline flex-start is the cheapest; with deadline_slack_h 6
# (deadline 338 h), or deadline_h 338 itself, flex-start finishes too late
# and calendar, the next cheapest, is chosen (spot, which is dearer, meets
# it in every replay: no interruptions, capacity always there).  With
# deadline_h 300, shorter than the run itself, nothing meets it, on demand
# neither: the cheapest option done as soon as on demand (332 h) is
# chosen, calendar again, not on demand at $524,369.92 more.  Job small
# (2 instances) is not large: no action.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mkdir "$out/pricing"
cat > "$out/pricing/aws.json" <<'JSON'
{"schema": "gpuplan-catalog/1", "provider": "aws", "region": "us-east-1",
 "currency": "USD", "as_of": "2026-11-01",
 "instance_types": {"p5.48xlarge": {"gpus": 8, "on_demand": 55.04,
   "spot": {"hourly": 35, "interruption_rate_monthly": 0},
   "capacity_blocks": [{"hourly": 39.33, "estimate": true}],
   "flex_start": {"hourly": 25, "expected_wait_h": 4},
   "calendar": [{"hourly": 30, "max_days": 90}]}}}
JSON
cat > "$out/jobs.csv" <<'CSV'
job_id,start,end,instance_type,instances,workload
big,2026-03-02T11:30:00Z,2026-03-16T07:30:00Z,p5.48xlarge,64,training
small,2026-03-01T00:00:00Z,2026-03-20T00:00:00Z,p5.48xlarge,2,training
CSV
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_capacity
for slack in none 6 h338 h300; do
    case $slack in
    none) extra="" ;;
    h338) extra=", \"deadline_h\": 338" ;;
    h300) extra=", \"deadline_h\": 300" ;;
    *) extra=", \"deadline_slack_h\": $slack" ;;
    esac
    cat > "$out/s.json" <<JSON
{"policy": {"training": {"checkpoint_cost_h": 0,
                         "restart_overhead_h": 0.25$extra}},
 "monte_carlo": {"runs": 20, "seed": 1}}
JSON
    "$bin" recommend --quiet --layout jobs --trace "$out/jobs.csv" \
        --pricing "$out/pricing" --scenario "$out/s.json" --json \
        > "$out/r-$slack.json" 2>/dev/null
done
# --instruments without capacity: no capacity action
"$bin" recommend --quiet --layout jobs --trace "$out/jobs.csv" \
    --pricing "$out/pricing" --scenario "$out/s.json" --json \
    --instruments reserved,routing > "$out/r-none-listed.json" 2>/dev/null
if grep -q '"type": *"capacity"' "$out/r-none-listed.json"; then
    echo "recommend_capacity: a capacity action without --instruments capacity" >&2
    exit 1
fi
# the workbook of the deadline case: its Capacity sheet
"$bin" recommend --quiet --layout jobs --trace "$out/jobs.csv" \
    --pricing "$out/pricing" --scenario "$out/s.json" --out "$out/r.xlsx" \
    > /dev/null 2>&1
"$PY" - "$out/r.xlsx" <<'PY'
import sys
import openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Capacity"]
rows = [[c.value for c in r] for r in ws.iter_rows()]
act = [r for r in rows if r[1] == "big" and r[7] is not None]
assert len(act) == 1 and act[0][7] == "calendar", act
assert abs(act[0][8] - 64 * 14 * 24 * 30) < 1e-6, act[0][8]
opt = {r[1]: r for r in rows if r[0] == "big" and r[1] in
       ("on_demand", "spot", "capacity_block", "flex_start", "calendar")}
assert abs(opt["capacity_block"][3] - 64 * 14 * 24 * 39.33) < 1e-6, opt
assert opt["flex_start"][4] == "no", opt["flex_start"]
PY
python3 - "$out/r-none.json" "$out/r-6.json" "$out/r-h338.json" \
    "$out/r-h300.json" <<'PY'
import json, sys
passed = failed = 0
def near(a, b, what):
    global passed, failed
    if a is not None and abs(a - b) < 1e-6:
        passed += 1
    else:
        failed += 1
        print("FAIL %s: %r, expected %r" % (what, a, b))
def same(a, b, what):
    global passed, failed
    if a == b:
        passed += 1
    else:
        failed += 1
        print("FAIL %s: %r, expected %r" % (what, a, b))
for path, chosen in ((sys.argv[1], "flex_start"), (sys.argv[2], "calendar"),
                     (sys.argv[3], "calendar"), (sys.argv[4], "calendar")):
    short = path == sys.argv[4]
    acts = [a for a in json.load(open(path))["actions"] if a["type"] == "capacity"]
    same(len(acts), 1, "capacity actions")
    a = acts[0]
    same(a["job_id"], "big", "job")
    o = {x["option"]: x for x in a["options"]}
    near(o["on_demand"]["cost"], 21248 * 55.04, "on demand")
    near(o["spot"]["cost"], 21248 * 35, "spot")
    near(o["capacity_block"]["cost"], 64 * 14 * 24 * 39.33, "block")
    same(o["capacity_block"]["days"], 14, "block days")
    near(o["capacity_block"]["unused_instance_hours"], 256, "block unused")
    near(o["flex_start"]["cost"], (21248 + 64 * 0.25) * 25, "flex")
    near(o["flex_start"]["wait_h"], 8, "flex wait")
    near(o["flex_start"]["finish_h"], 340.25, "flex finish")
    near(o["calendar"]["cost"], 64 * 14 * 24 * 30, "calendar")
    same(a["option"], chosen, "chosen")
    near(a["cost"], o[chosen]["cost"], "action cost")
    same(o["flex_start"]["meets_deadline"], chosen == "flex_start",
         "flex meets deadline")
    same(o["spot"]["meets_deadline"], not short, "spot meets deadline")
    same(o["on_demand"]["meets_deadline"], not short, "on demand meets it")
    near(a["net_savings"], 21248 * 55.04 - o[chosen]["cost"], "net savings")
print("recommend_capacity: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
