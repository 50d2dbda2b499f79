#!/bin/sh
# simulate with a policy that launches training's job runs on a capacity
# instrument (docs/billing.md, "Capacity instruments"), each total worked
# by hand.  A test catalog: p5.48xlarge on demand $55.04, block $39.33,
# flex-start $25 (wait 4 h), calendar $30; g5.xlarge $1 on demand only.
#   big    64 x p5.48xlarge, 332 h (21,248 instance-hours)
#   small   2 x p5.48xlarge, 456 h (912 instance-hours)
#   g5     10 x g5.xlarge, 48 h (480 instance-hours): no instrument sold,
#          so on demand, $480, counted in runs_on_demand
# capacity_block: big ceil(332.5 / 24) = 14 days, 64 x 14 x 24 x 39.33 =
#   $845,752.32, 4 h (256 instance-h) unused; small ceil(456.5 / 24) = 20
#   days, not sold, so 21: 2 x 21 x 24 x 39.33 = $39,644.64, 48 h (96
#   instance-h) unused.  Total 845,752.32 + 39,644.64 + 480 = $885,876.96.
# flex_start (restart 0.25 h): big 2 requests (ceil(332 / 168)), 8 h
#   wait, (21,248 + 64 x 0.25) x 25 = $531,600; small 3 requests, 12 h
#   wait, (912 + 2 x 2 x 0.25) x 25 = $22,825.  Total $554,905.
# calendar: big ceil(332 / 24) = 14 days, 64 x 14 x 24 x 30 = $645,120,
#   256 instance-h unused; small exactly 19 days, 2 x 19 x 24 x 30 =
#   $27,360, none unused.  Total $672,960.
# Every dollar is charged back to training (by_workload), none unallocated;
# the per-job-run table lists g5 only (big and small are capacity's runs).
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
   "capacity_blocks": [{"hourly": 39.33}],
   "flex_start": {"hourly": 25, "expected_wait_h": 4},
   "calendar": [{"hourly": 30}]},
   "g5.xlarge": {"gpus": 1, "on_demand": 1}}}
JSON
cat > "$out/jobs.csv" <<'CSV'
job_id,start,end,instance_type,instances,workload
big,2026-03-02T11:30:00Z,2026-03-16T07:30:00Z,p5.48xlarge,64,training
small,2026-03-01T00:00:00Z,2026-03-20T00:00:00Z,p5.48xlarge,2,training
g5,2026-03-05T00:00:00Z,2026-03-07T00:00:00Z,g5.xlarge,10,training
CSV
for launch in capacity_block flex_start calendar; do
    cat > "$out/s.json" <<JSON
{"policy": {"training": {"launch": "$launch", "restart_overhead_h": 0.25}}}
JSON
    "$bin" simulate --layout jobs --trace "$out/jobs.csv" \
        --pricing "$out/pricing" --scenario "$out/s.json" --json \
        > "$out/$launch.json" 2> "$out/$launch.err"
done
# the workbook's Capacity sheet lists the runs launched on blocks
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl simulate_capacity
cat > "$out/s.json" <<'JSON'
{"policy": {"training": {"launch": "capacity_block"}}}
JSON
"$bin" simulate --quiet --layout jobs --trace "$out/jobs.csv" \
    --pricing "$out/pricing" --scenario "$out/s.json" --out "$out/r.xlsx" \
    > /dev/null 2>&1
"$PY" - "$out/r.xlsx" <<'PY'
import sys
import openpyxl
ws = openpyxl.load_workbook(sys.argv[1])["Capacity"]
rows = {r[1]: r for r in ws.iter_rows(values_only=True) if r[0] == "baseline"}
assert abs(rows["big"][3] - 845752.32) < 1e-6, rows["big"]
assert rows["big"][4] == 14 and rows["big"][7] == 256, rows["big"]
assert abs(rows["small"][3] - 39644.64) < 1e-6, rows["small"]
assert "g5" not in rows, rows
PY
# the g5 run stays on demand, and simulate says so: 480 of the 21,248 +
# 912 + 480 = 22,640 instance-hours
grep -q 'launches training on capacity_block, but 480.00 of its 22640.00 instance-hours' \
    "$out/capacity_block.err" || {
    echo "simulate_capacity: no warning of the run left on demand" >&2
    cat "$out/capacity_block.err" >&2
    exit 1
}
python3 - "$out" <<'PY'
import json, sys
passed = failed = 0
def check(ok, what, got, want):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s: %r, expected %r" % (what, got, want))
def near(a, b, what):
    check(a is not None and abs(a - b) < 1e-6, what, a, b)
want = {
    "capacity_block": (845752.32 + 39644.64, {"big": (845752.32, 256, 0),
                                             "small": (39644.64, 96, 0)}),
    "flex_start": (531600 + 22825, {"big": (531600, None, 8),
                                    "small": (22825, None, 12)}),
    "calendar": (645120 + 27360, {"big": (645120, 256, 0),
                                  "small": (27360, 0, 0)}),
}
for launch, (cap, runs) in want.items():
    s = json.load(open("%s/%s.json" % (sys.argv[1], launch)))["strategies"][0]
    near(s["capacity_cost"], cap, launch + " capacity_cost")
    near(s["on_demand_cost"], 480, launch + " on_demand_cost")
    near(s["total_cost"], cap + 480, launch + " total")
    near(s["by_workload"]["training"]["total_cost"], cap + 480,
         launch + " charged back")
    near(s["unallocated_cost"], 0, launch + " unallocated")
    check(s["capacity"]["runs_on_demand"] == 1, launch + " runs on demand",
          s["capacity"]["runs_on_demand"], 1)
    # a run billed on the instrument is in capacity.runs, not also in the
    # per-job-run table as on demand: that lists only g5, one attempt of
    # 10 x 48 instance-hours at $1 = $480
    jobs = {r["job_id"]: r for r in s.get("job_runs", [])}
    check(sorted(jobs) == ["g5"], launch + " job_runs", sorted(jobs), ["g5"])
    near(jobs.get("g5", {}).get("cost_per_completed_run"), 480,
         launch + " g5 job run")
    got = {r["job_id"]: r for r in s["capacity"]["runs"]}
    for job, (cost, unused, wait) in runs.items():
        near(got[job]["cost"], cost, "%s %s cost" % (launch, job))
        if unused is not None:
            near(got[job]["unused_instance_hours"], unused,
                 "%s %s unused" % (launch, job))
        else:
            near(got[job]["wait_h"], wait, "%s %s wait" % (launch, job))
print("simulate_capacity: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
