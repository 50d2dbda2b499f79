#!/bin/sh
# MIG instances in chargeback (issue #38 item 6, SPEC 7.5): a GPU's cost is
# split across the teams on its slices by slice size.  By hand, on
# tests/data/telemetry/dcgm-mig.prom (two scrapes an hour apart, 10:00 and
# 11:00, each lasting an hour) imported as p4d.24xlarge: 8 A100 GPUs at
# $21.957642 an hour on demand (pricing/aws/us-east-1.json), so a
# GPU-hour costs 21.957642 / 8 = $2.74470525.
#   GPU 0: 3g + 2g for team-a, 2g for team-b, all 7 slices:
#     team-a 5/7, team-b 2/7 of each GPU-hour.
#   GPU 1: 3g for team-a, 2g for team-b, 5 of 7 slices carved: the 2 idle
#     slices are spread over the instances by size: team-a 3/5, team-b 2/5.
#   Over the 2 hours: team-a (5/7 + 3/5) x 2 = 92/35 GPU-hours, $7.2146538;
#   team-b (2/7 + 2/5) x 2 = 48/35 GPU-hours, $3.7641672; together 4
#   GPU-hours, $10.978821 (2 GPUs x 2 h): nothing charged twice or lost.
# Then Prometheus (an instant query, one point): GPU 0 of host h split 4g
# (namespace x) and 3g (namespace y): 4/7 and 3/7 of 1/8 instance.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" import dcgm --quiet "$src/tests/data/telemetry/dcgm-mig.prom" \
    --instance-type p4d.24xlarge --out "$out/trace.csv"
"$bin" simulate --quiet --trace "$out/trace.csv" --csv "$out/csv" > /dev/null
python3 - "$out/csv/chargeback_summary.csv" <<'PY'
import csv, sys
gpu_hour = 21.957642 / 8
cost = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r["strategy"] == "baseline" and r["team"]:
        cost[r["team"]] = cost.get(r["team"], 0) + float(r["cost"])
want = {"team-a": 92 / 35 * gpu_hour, "team-b": 48 / 35 * gpu_hour}
for team, c in want.items():
    assert abs(cost[team] - c) < 1e-6, (team, cost[team], c)
assert abs(sum(cost.values()) - 4 * gpu_hour) < 1e-6, cost
PY
cat > "$out/q.json" <<'JSON'
{"status": "success", "data": {"resultType": "vector", "result": [
 {"metric": {"__name__": "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gpu": "0",
   "GPU_I_ID": "1", "GPU_I_PROFILE": "4g.20gb", "Hostname": "h",
   "exported_namespace": "x", "exported_pod": "px"},
  "value": [1767607200, "0.5"]},
 {"metric": {"__name__": "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "gpu": "0",
   "GPU_I_ID": "2", "GPU_I_PROFILE": "3g.20gb", "Hostname": "h",
   "exported_namespace": "y", "exported_pod": "py"},
  "value": [1767607200, "0.25"]}]}}
JSON
"$bin" import prometheus --quiet "$out/q.json" --instance-type p4d.24xlarge \
    --step 3600 --out "$out/p.csv"
python3 - "$out/p.csv" <<'PY'
import csv, sys
rows = {r["team"]: r for r in csv.DictReader(open(sys.argv[1]))}
assert abs(float(rows["x"]["instances"]) - 4 / 7 / 8) < 1e-15, rows
assert abs(float(rows["y"]["instances"]) - 3 / 7 / 8) < 1e-15, rows
assert rows["x"]["job_id"] == "h/gpu0/mig1", rows
assert float(rows["y"]["gpu_util"]) == 25, rows
PY
# A whole-GPU sample of GPU 0 at 09:00, before its MIG instances appear
# (10:00): nothing else carries that GPU-hour, so it is billed whole to
# team-c, 1/8 of a p4d.24xlarge; the whole-GPU power rows at 10:00 and
# 11:00 stay left out (the instances carry those hours).
cp "$src/tests/data/telemetry/dcgm-mig.prom" "$out/m2.prom"
cat >> "$out/m2.prom" <<'PROM'
DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu="0",UUID="GPU-5f0a0000-0000-4000-8000-000000000000",modelName="NVIDIA A100-SXM4-40GB",Hostname="a100-node",namespace="team-c",pod="pc1"} 0.900000 1767603600000
PROM
"$bin" import dcgm "$out/m2.prom" --instance-type p4d.24xlarge \
    --out "$out/m2.csv" 2> "$out/m2.err"
python3 - "$out/m2.csv" "$out/m2.err" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
c = [r for r in rows if r["team"] == "team-c"]
assert len(c) == 1 and c[0]["timestamp"] == "2026-01-05T09:00:00Z", c
assert abs(float(c[0]["instances"]) - 1 / 8) < 1e-15, c
assert "2 whole-GPU samples of GPUs with MIG instances left out" in \
    open(sys.argv[2]).read(), open(sys.argv[2]).read()
PY
echo "mig_chargeback: 3 passed, 0 failed"
