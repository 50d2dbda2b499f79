#!/bin/sh
# simulate's spot line says what its figures are.  Usage without job_id
# is priced by Daly's expected time, no Monte Carlo: 10 hours of one
# y.large at $8/h spot, checkpoint every 1 h costing 0.05 h, restart
# 0.25 h, 10%/month interruptions (lambda = -ln 0.9 / 730, M = 1/lambda):
# T = M e^(R/M) (e^((tau+delta)/M) - 1) / tau = 1.0501175 h per hour of
# work, so 10 x 1.0501175 x $8 = $84.01.  The line said "spot cost p50
# $84.01, p95 $84.01 over 200 runs" though no run was made.  With job_id
# the run is replayed 200 times, and the percentiles include the
# on-demand fallback (the Spot sheet's "P50/P95 with fallback"): the line
# says so.
# The expected interruptions are 10 x 1.0501175 x lambda = 0.0015157,
# and the failed attempts cost 10 x (1.0501175 - 1.05 checkpointing alone)
# x $8 = $0.0094: the line said "0.0 interruptions expected, $0.01 lost";
# it now gives two significant figures under 0.05 ("0.0015").  For one
# hour: 0.00015157 interruptions and $0.00094 lost, which read "0.0" and
# "$0.00"; now "0.00015" and "under $0.01".
set -eu
bin=$1
src=$2
catalog=$src/tests/e2e/data/y-large-spot.json  # y.large: $20/h, spot $8/h, 10%/month
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "name": "spot",
 "strategies": [{"name": "spot", "policy": {"training": {"launch": "spot",
   "checkpoint_interval_h": 1.0, "checkpoint_cost_h": 0.05,
   "restart_overhead_h": 0.25, "max_interruptions": 1,
   "fallback": "on_demand"}}}],
 "monte_carlo": {"runs": 200, "seed": 3}}
JSON
h='timestamp,step_s,instance_type,workload,instances,job_id,interruptible'
printf '%s\n2026-03-02T00:00:00Z,36000,y.large,training,1,,true\n' "$h" \
    > "$out/nojob.csv"
printf '%s\n2026-03-02T00:00:00Z,36000,y.large,training,1,J1,true\n' "$h" \
    > "$out/job.csv"
line=$("$bin" simulate --quiet --pricing "$catalog" \
    --trace "$out/nojob.csv" --scenario "$out/s.json" | grep '^spot (')
want='spot (spot): 0.0015 interruptions expected, $0.01 lost to them; spot cost $84.01 by the expected value (no job run with job_id to replay by Monte Carlo)'
[ "$line" = "$want" ] || {
    echo "without job_id: $line" >&2
    exit 1
}
printf '%s\n2026-03-02T00:00:00Z,3600,y.large,training,1,,true\n' "$h" \
    > "$out/hour.csv"
line=$("$bin" simulate --quiet --pricing "$catalog" \
    --trace "$out/hour.csv" --scenario "$out/s.json" | grep '^spot (')
want='spot (spot): 0.00015 interruptions expected, under $0.01 lost to them; spot cost $8.40 by the expected value (no job run with job_id to replay by Monte Carlo)'
[ "$line" = "$want" ] || {
    echo "one hour: $line" >&2
    exit 1
}
line=$("$bin" simulate --quiet --pricing "$catalog" \
    --trace "$out/job.csv" --scenario "$out/s.json" | grep '^spot (')
case $line in
"spot (spot): "*"; spot usage's cost with fallback p50 \$"*", p95 \$"*" over 200 Monte Carlo runs (seed 3)") ;;
*)
    echo "with job_id: $line" >&2
    exit 1
    ;;
esac
echo "simulate_spot_line: ok"
