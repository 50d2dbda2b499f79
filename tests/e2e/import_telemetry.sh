#!/bin/sh
# gpuplan import nvidia-smi | dcgm | prometheus end to end: every real file
# of tests/data/telemetry/real (copied from ../shared/data/telemetry) and
# every variant built by hand imports, and what it writes is a trace that
# `validate` and `simulate` accept.  One bill is checked by hand:
#
#   smi-repeated-header.csv: 4 Tesla T4 -> g4dn.12xlarge (4 GPUs, $3.912/h
#   on demand), 3 samples 10 s apart: 12 rows x 0.25 instance x 10 s =
#   30 instance-seconds = 1/120 h -> $3.912 / 120 = $0.0326.
#
# Also: "-" reads standard input, and a failed import leaves an existing
# --out file as it was.
set -eu
bin=$1
src=$2
data=$src/tests/data/telemetry
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export GPUPLAN_TODAY=2026-11-21
n=0

# import FORMAT FILE [options...]: import, then validate and simulate
check() {
    format=$1
    file=$2
    shift 2
    n=$((n + 1))
    "$bin" import "$format" "$file" --quiet --out "$out/$n.csv" "$@"
    "$bin" validate --quiet --trace "$out/$n.csv" --step 60 > /dev/null 2>&1 ||
        { echo "validate rejects the import of $file"; "$bin" validate --trace "$out/$n.csv"; exit 1; }
    "$bin" simulate --quiet --json --trace "$out/$n.csv" > "$out/$n.json" 2> /dev/null ||
        { echo "simulate rejects the import of $file"; exit 1; }
    # an import has no workload column: classification labels every
    # series, so nothing is left unlabelled (prometheus-range.json and
    # smi-nounits.csv + smi-repeated-header.csv left 1e-17 and a warning
    # "0 instance-hours had no workload label")
    python3 - "$out/$n.json" "$file" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["inputs"]["trace"]["unlabeled_instance_hours"] == 0, (sys.argv[2], doc["inputs"]["trace"])
bad = [w for w in doc["inputs"]["warnings"] if "no workload label" in w]
assert not bad, (sys.argv[2], bad)
PY
}

time="--time 2026-01-05T10:00:00Z"
check nvidia-smi "$data/real/xypp3_gpu_glasses__nvidia_smi.csv" --instance-type p4de.24xlarge
check dcgm "$data/real/cncf_v1.35_ericsson-ccd_accelerator_metrics.prom" $time --instance-type g4dn.xlarge
check dcgm "$data/real/cncf_v1.35_kops_tests_TestObservability_AcceleratorMetrics_ViaDCGM_output.prom" $time --instance-type g6.xlarge
check dcgm "$data/real/cncf_v1.35_rafay_accelator_metrics.prom" $time --instance-type g4dn.xlarge
check dcgm "$data/real/cncf_v1.35_upcloud_accelerator-metrics.prom" $time --instance-type g6e.xlarge
check dcgm "$data/real/cncf_v1.35_vks_accelerator_metrics.prom" $time --instance-type p4d.24xlarge
check nvidia-smi "$data/smi-units.csv"
check nvidia-smi "$data/smi-nounits.csv" --instance-type g6.xlarge
check nvidia-smi "$data/smi-hosts.csv"
check dcgm "$data/dcgm-k8s.prom" --instance-type g6e.12xlarge
check prometheus "$data/prometheus-range.json"
check nvidia-smi "$data/smi-nounits.csv" "$data/smi-repeated-header.csv" --instance-type g5.12xlarge
check nvidia-smi "$data/smi-repeated-header.csv"
python3 - "$out/$n.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
base = doc["strategies"][0]
want = 3.912 / 120
assert abs(base["all_on_demand_cost"] - want) < 1e-9, (base["all_on_demand_cost"], want)
PY

# one idle GPU among busy ones: 3 hours of a g5.12xlarge (4 x A10G,
# $5.672/h) logged every minute, GPU 1 at 0 % throughout.  Idle detection
# sees it through its own job_id: one span of 3 GPU-hours = 0.75
# instance-hours = 0.75 x 5.672 = $4.254 at on-demand rates.
python3 - "$out/idle.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n")
    for m in range(180):
        ts = "2026/01/05 %02d:%02d:00.000" % (9 + m // 60, m % 60)
        for gpu, util in ((0, 85), (1, 0), (2, 90), (3, 88)):
            f.write("%s, %d, NVIDIA A10G, %d %%, 20000 MiB\n" % (ts, gpu, util))
PY
"$bin" import nvidia-smi "$out/idle.csv" --instance-type g5.12xlarge --quiet \
    --out "$out/idle-trace.csv"
"$bin" simulate --quiet --json --trace "$out/idle-trace.csv" > "$out/idle.json" 2> /dev/null
python3 - "$out/idle.json" <<'PY'
import json, sys
idle = json.load(open(sys.argv[1]))["idle"]
assert idle["spans_count"] == 1, idle
span = idle["spans"][0]
assert span["job_id"] == "idle/gpu1", span
assert abs(span["gpu_hours"] - 3) < 1e-9, span
assert abs(span["instance_hours"] - 0.75) < 1e-9, span
assert abs(span["cost"] - 0.75 * 5.672) < 1e-9, span
PY

# several files at once, one of them from standard input
"$bin" import dcgm "$data/real/cncf_v1.35_rafay_accelator_metrics.prom" - \
    $time --instance-type g4dn.xlarge --quiet \
    < "$data/real/cncf_v1.35_ericsson-ccd_accelerator_metrics.prom" > "$out/two.csv"
rows=$(($(wc -l < "$out/two.csv") - 1))
[ "$rows" = 2 ] || { echo "expected 2 rows from two scrapes, got $rows"; exit 1; }
grep -q '^2026-01-05T10:00:00Z,60,aws,us-east-1,g4dn.xlarge,1,91,cp-bm14r7/gpu0,' "$out/two.csv" ||
    { echo "the scrape from standard input is missing"; cat "$out/two.csv"; exit 1; }

# a failed import keeps the old --out
echo old > "$out/keep.csv"
if "$bin" import nvidia-smi "$data/smi-noheader.csv" --out "$out/keep.csv" 2> /dev/null; then
    echo "importing a log without header succeeded"; exit 1
fi
[ "$(cat "$out/keep.csv")" = old ] || { echo "--out was overwritten by a failed import"; exit 1; }
[ "$(ls "$out" | grep -c tmp)" = 0 ] || { echo "a temporary file was left behind"; exit 1; }
echo "imported $n files; validate and simulate accept them"
