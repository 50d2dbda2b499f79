#!/bin/sh
# What confirming a held-back classification is worth, worked by hand
# (issue #34).  Two weeks (336 h) of unlabelled usage: 4 p4d.24xlarge for
# team research-a and 3 g5.xlarge for team web, flat (no shape evidence).
#   p4d: GPU prior +1.2, "research" +0.6 = 1.8: training at logistic(1.8)
#        = 0.8581, under the spot confidence 0.9: billed as inference
#   g5:  GPU prior -1.2: inference at logistic(1.2) = 0.7685
# Labelled training, the p4d usage would run on spot; with interruptions
# and checkpoints priced at nothing (interruption_factor 1e-9,
# checkpoint_cost_h 0) it would save 4 x 336 x (21.957642 - 7.246022) =
# $19,772.42 (the bundled us-east-1 catalog's on-demand and spot prices).
# The JSON says so, and so do the warning and the workbook's Inputs sheet.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 - "$out/t.csv" <<'PY'
import datetime as dt, sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,instances,team\n")
    t0 = dt.datetime(2026, 5, 4)
    for h in range(336):
        ts = (t0 + dt.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        f.write("%s,p4d.24xlarge,4,research-a\n%s,g5.xlarge,3,web\n" % (ts, ts))
PY
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "adjustments": {"interruption_factor": 1e-9},
 "policy": {"training": {"checkpoint_cost_h": 0}}}
JSON
export GPUPLAN_TODAY=2026-11-21
"$bin" simulate --json --trace "$out/t.csv" --scenario "$out/s.json" \
    --pricing "$src/pricing/aws/us-east-1.json" > "$out/s.json.out" 2> "$out/err"
"$bin" simulate --quiet --trace "$out/t.csv" --scenario "$out/s.json" \
    --pricing "$src/pricing/aws/us-east-1.json" --out "$out/r.xlsx" > /dev/null
python3 - "$out/s.json.out" "$out/err" <<'PY'
import json, math, sys
doc = json.load(open(sys.argv[1]))
cl = doc["inputs"]["classified"]
by = {s["instance_type"]: s for s in cl["decided"]}
p4d, g5 = by["p4d.24xlarge"], by["g5.xlarge"]
lg = lambda z: 1 / (1 + math.exp(-z))
assert p4d["workload"] == "training" and p4d["billed_as"] == "inference", p4d
assert abs(p4d["confidence"] - lg(1.8)) < 1e-12, p4d
assert not p4d["interruptible"], p4d
assert g5["workload"] == "inference" and abs(g5["confidence"] - lg(1.2)) < 1e-12
assert cl["training_billed_as_inference"] == 1, cl
want = 4 * 336 * (21.957642 - 7.246022)
assert cl["worth_confirming"]["series"] == 1, cl
assert abs(cl["worth_confirming"]["savings"] - want) < 1e-6, (cl, want)
err = open(sys.argv[2]).read()
assert "label that series training to save $19,772.42 on spot" in err, err
PY
/usr/bin/python3 - "$out/r.xlsx" <<'PY'
import sys
try:
    import openpyxl
except ImportError:
    sys.exit(0)
ws = openpyxl.load_workbook(sys.argv[1])["Inputs"]
rows = [[v for v in r if v is not None] for r in ws.iter_rows(values_only=True)]
i = next(k for k, r in enumerate(rows)
         if r == ["Classified series (unlabelled in the trace)"])
body = [r for r in rows[i + 1:i + 4] if r and r[0] in ("p4d.24xlarge", "g5.xlarge")]
assert ["p4d.24xlarge", "research-a", "training"] == body[0][:3] or \
    ["p4d.24xlarge", "research-a", "training"] == body[1][:3], body
assert any("save $19,772.42 on spot" in str(r) for r in rows[i:i + 8]), rows[i:i + 8]
PY
echo "classify_worth: 1 passed, 0 failed"
