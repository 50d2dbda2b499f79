#!/bin/sh
# classify end to end on real usage: tests/e2e/data/classify-mixed.csv holds
# one week, hourly, of three real series:
#   research/vcpDC    SenseTime Helios vcpDC, GPUs running + pending,
#                     2020-05-15..21 moved to 2026 (MIT, HeliosArtifact),
#                     p4d.24xlarge, unlabelled: training by origin
#   api/client-100    Alibaba ServeGen m-large client 100, req/s / 9 as
#                     g6e.xlarge instances, days 0-6 (Apache-2.0), unlabelled:
#                     inference by origin
#   research/philly   Microsoft Philly, 4 GPUs per active node, p3.2xlarge,
#                     labelled training
# (made by bench/classify/make_eval.py's conversions, averaged to hours).
# Checks: classify --out writes every row once with workload filled and
# workload_confidence; labelled rows keep their label at 1 unless --relabel;
# simulate and recommend say they classified 2 series and carry the
# "classified" block in their JSON inputs.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
trace=$src/tests/e2e/data/classify-mixed.csv
pricing=$src/pricing/aws/us-east-1.json
export GPUPLAN_TODAY=2026-11-21

"$bin" classify --quiet --trace "$trace" --pricing "$pricing" \
    --out "$out/labeled.csv" > "$out/table.txt"
"$bin" classify --quiet --trace "$trace" --pricing "$pricing" --relabel \
    --out "$out/relabeled.csv" --json > "$out/relabel.json"
"$bin" simulate --json --trace "$trace" --pricing "$pricing" \
    > "$out/sim.json" 2> "$out/sim.err"
"$bin" recommend --json --trace "$trace" --pricing "$pricing" \
    > "$out/rec.json" 2> "$out/rec.err"

python3 - "$trace" "$out" <<'PY'
import csv, json, sys
trace, out = sys.argv[1], sys.argv[2]
rows_in = list(csv.DictReader(open(trace)))
for name in ("labeled.csv", "relabeled.csv"):
    rows = list(csv.DictReader(open(out + "/" + name)))
    assert len(rows) == len(rows_in), (name, len(rows), len(rows_in))
    for a, b in zip(rows_in, rows):
        for k, v in a.items():
            if k != "workload":
                assert b[k] == v, (name, k, v, b[k])
        assert b["workload"] in ("training", "inference"), b
        c = float(b["workload_confidence"])
        assert 0.5 <= c <= 1, c
        want = "inference" if b["team"] == "api" else "training"
        assert b["workload"] == want, (name, b)
        if name == "labeled.csv" and a["workload"]:
            assert b["workload"] == a["workload"] and c == 1.0, b
        # a classified row states the flag it was billed with: training
        # at the spot confidence (0.9) or more takes training's default,
        # interruptible; anything less sure is not interruptible
        if name == "labeled.csv" and not a["workload"]:
            sure = b["workload"] == "training" and c >= 0.9
            assert b["interruptible"] == ("true" if sure else "false"), b
        if name == "relabeled.csv" and b["project"] == "philly":
            assert c < 1.0, b
rel = json.load(open(out + "/relabel.json"))["classified"]
assert rel["relabel"] is True and rel["series"] == 3, rel

sim = json.load(open(out + "/sim.json"))
cl = sim["inputs"]["classified"]
assert cl["series"] == 2 and cl["training"]["series"] == 1 and \
    cl["inference"]["series"] == 1, cl
# nothing is left unlabelled, and the instance-hours add up
base = sim["strategies"][0]["by_workload"]
ih = sum(base[w]["instance_hours"] for w in ("training", "inference"))
assert abs(ih - sim["inputs"]["trace"]["training_instance_hours"]
           - sim["inputs"]["trace"]["inference_instance_hours"]) < 1e-6
assert abs(base["inference"]["instance_hours"]
           - cl["inference"]["instance_hours"]) < 1e-6, (base, cl)
err = open(out + "/sim.err").read()
assert "classified 2 series" in err and "see gpuplan classify" in err, err
rec = json.load(open(out + "/rec.json"))
assert rec["inputs"]["classified"]["series"] == 2, rec["inputs"]
assert "classified 2 series" in open(out + "/rec.err").read()
PY
grep -q "client-100.*inference" "$out/table.txt"
