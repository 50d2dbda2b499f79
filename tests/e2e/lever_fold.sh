#!/bin/sh
# A lever strategy's ledger folded back onto the trace as read (#38,
# levers.c fold): the moved series' cost counts month by month against the
# budgets, and each job run's row is its own run's.
# 1. scenarios/migrate with a budget of $50,000 a month for team research:
#    after the move (2026-04-01) the team's spend is its one p5.48xlarge
#    ($55.04/h, pricing/aws; the stranded reservation is unallocated):
#    April 720 h x 55.04 = $39,628.80, May 744 h = $40,949.76, June 720 h
#    = $39,628.80, under the budget; the six months add up to the team's
#    chargeback, $292,372.84 (3 x 2,160 x 21.957642 on demand + 2,160 x
#    13.833314 of the reservation before the move + 2,184 x 55.04).
#    The forecast after the trace (4 instances an hour, as recorded) is
#    priced at the team's cost per recorded instance-hour, $292,372.84 /
#    (4 x 4,344) = $16.8262: July, 744 h, projects 4 x 744 x 16.8262 =
#    $50,075.60 (not its cost per instance-hour billed, p5.48xlarge's
#    hours counting a quarter as many: $80,386.32).
# 2. Two on-demand job runs, alpha (2 p4d.24xlarge for 10 h) then beta (1
#    g5.xlarge for 5 h, $1.006/h): a strategy migrating p4d.24xlarge before
#    both leaves only beta's run, $5.03, and names it beta.
# 3. alpha again, and big: 1 p5.48xlarge for 24 h launched on a calendar
#    reservation (a test catalog at $30/h: 1 day x 24 h x 30 = $720); the
#    strategy moves alpha to g5.xlarge, and big's capacity row stays big's.
# 4. scenarios/migrate with a p4d instance-family savings plan of $10/h for
#    a year from 2026-01-01 instead of the reservation: the move leaves no
#    p4d usage from 2026-04-01, so the plan strands to its end, 2027-01-01:
#    6,600 h x $10 = $66,000 (no instance-hours: a plan commits dollars);
#    a compute plan follows the usage to p5.48xlarge: $0.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
dir=$src/scenarios/migrate
python3 - "$dir/scenario.json" "$out/s.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["budgets"] = [{"team": "research", "monthly": 50000}]
json.dump(s, open(sys.argv[2], "w"))
PY
"$bin" simulate --quiet --trace "$dir/trace.csv" --scenario "$out/s.json" \
    --csv "$out/csv" --json > "$out/m.json"
cat > "$out/jobs.csv" <<'CSV'
start,end,instance_type,instances,job_id,workload,team
2026-03-02T00:00:00Z,2026-03-02T10:00:00Z,p4d.24xlarge,2,alpha,training,research
2026-03-02T00:00:00Z,2026-03-02T05:00:00Z,g5.xlarge,1,beta,training,platform
CSV
cat > "$out/j.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "name": "fold",
 "policy": {"training": {"launch": "on_demand"}},
 "strategies": [{"name": "mig", "migrate": {"from": "p4d.24xlarge",
   "to": "p5.48xlarge", "equivalence": 0.5,
   "at": "2026-03-01T00:00:00Z"}}]}
JSON
"$bin" simulate --quiet --trace "$out/jobs.csv" --layout jobs --provider aws \
    --region us-east-1 --scenario "$out/j.json" --csv "$out/jc" > /dev/null
mkdir "$out/pricing"
cat > "$out/pricing/aws.json" <<'JSON'
{"schema": "gpuplan-catalog/1", "provider": "aws", "region": "us-east-1",
 "currency": "USD", "as_of": "2026-11-01",
 "instance_types": {"p5.48xlarge": {"gpus": 8, "on_demand": 55.04,
   "calendar": [{"hourly": 30}]},
   "p4d.24xlarge": {"gpus": 8, "on_demand": 20},
   "g5.xlarge": {"gpus": 1, "on_demand": 1}}}
JSON
cat > "$out/cal.csv" <<'CSV'
job_id,start,end,instance_type,instances,workload
alpha,2026-03-02T00:00:00Z,2026-03-02T10:00:00Z,p4d.24xlarge,2,training
big,2026-03-02T00:00:00Z,2026-03-03T00:00:00Z,p5.48xlarge,1,training
CSV
cat > "$out/cal.json" <<'JSON'
{"policy": {"training": {"launch": "calendar"}},
 "strategies": [{"name": "mig", "migrate": {"from": "p4d.24xlarge",
   "to": "g5.xlarge", "equivalence": 2, "at": "2026-03-01T00:00:00Z"}}]}
JSON
"$bin" simulate --quiet --layout jobs --trace "$out/cal.csv" \
    --pricing "$out/pricing" --scenario "$out/cal.json" --json > "$out/cal.out"
for kind in instance_family compute; do
    python3 - "$dir/scenario.json" "$out/$kind.json" "$kind" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["commitments"] = [{"type": "savings_plan", "kind": sys.argv[3],
                     "provider": "aws", "region": "us-east-1",
                     "hourly_commitment": 10, "term_years": 1,
                     "payment": "no_upfront",
                     "start": "2026-01-01T00:00:00Z"}]
if sys.argv[3] == "instance_family":
    s["commitments"][0]["family"] = "p4d"
json.dump(s, open(sys.argv[2], "w"))
PY
    "$bin" simulate --quiet --trace "$dir/trace.csv" \
        --scenario "$out/$kind.json" --json > "$out/$kind.out"
done
python3 - "$out" <<'PY'
import csv, json, sys
d = sys.argv[1]
passed = failed = 0
def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)
spent = {r["month"]: float(r["spent"])
         for r in csv.DictReader(open(d + "/csv/budgets.csv"))
         if r["strategy"] == "migrate-p5"}
for month, want in (("2026-04", 720 * 55.04), ("2026-05", 744 * 55.04),
                    ("2026-06", 720 * 55.04)):
    check(abs(spent[month] - want) < 0.01, (month, spent[month], want))
check(abs(sum(spent.values()) -
          (3 * 2160 * 21.957642 + 2160 * 13.833314 + 2184 * 55.04)) < 0.01,
      spent)
fc = json.load(open(d + "/m.json"))["strategies"][1]["budget_forecast"][0]
team = 3 * 2160 * 21.957642 + 2160 * 13.833314 + 2184 * 55.04
check(fc["crosses_in"] == "2026-07" and
      abs(fc["projected"] - 4 * 744 * team / (4 * 4344)) < 0.01, fc)
rows = [r for r in csv.DictReader(open(d + "/jc/job_runs.csv"))
        if r["strategy"] == "mig"]
check([r["job_id"] for r in rows] == ["beta"], rows)
check(abs(float(rows[0]["cost_per_completed_run"]) - 5.03) < 1e-9, rows)
cal = json.load(open(d + "/cal.out"))["strategies"][1]
runs = [(r["job_id"], r["cost"]) for r in cal["capacity"]["runs"]]
check(runs == [("big", 720)], runs)
for kind, want in (("instance_family", 6600 * 10), ("compute", 0)):
    m = json.load(open(d + "/" + kind + ".out"))["strategies"][1]
    check(abs(m["stranded_commitment_cost"] - want) < 1e-6 and
          m["stranded_instance_hours"] == 0,
          (kind, m["stranded_commitment_cost"], m["stranded_instance_hours"]))
print("lever_fold: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
