#!/bin/sh
# Purchase policies over synthesized two-year families (issue #36;
# bench/README.md, "Policies").
#
#   sh bench/policies/run.sh GPUPLAN [TRACE [SEEDS [WORK_DIR]]]
#
# From TRACE (default: the bundled sample, Helios training on p4d.24xlarge
# and ServeGen serving on g6e.xlarge), `gpuplan synth` makes two-year
# traces in four families, SEEDS seeds each (default 20; FIRST-LAST, e.g.
# 11-20, for a range of seeds):
#   flat       the weeks as they were
#   growth     +3% a month
#   decline    -4% a month
#   migration  p4d.24xlarge moves to p5.48xlarge (one for two) after a year
# and `gpuplan simulate` replays bench/policies/policies.json on each.
# Prints per family and policy the mean ESR, the share of seeds on which
# the policy's ESR is at least the aws method's, and the mean lock-in
# (months of the last month's cost still owed at the end).
set -eu
bin=${1:?usage: run.sh GPUPLAN [TRACE [SEEDS [WORK_DIR]]]}
here=$(cd "$(dirname "$0")" && pwd)
trace=${2:-$here/../../scenarios/sample/trace.csv}
seeds=${3:-20}
case $seeds in
*-*) first=${seeds%-*} last=${seeds#*-} ;;
*) first=1 last=$seeds ;;
esac
work=${4:-/tmp/gpuplan-policies}
mkdir -p "$work"
export GPUPLAN_TODAY=2028-12-31
for fam in flat growth decline migration; do
    case $fam in
    flat) opts="" ;;
    growth) opts="--growth 0.03" ;;
    decline) opts="--decline 0.04" ;;
    migration) opts="--migrate 2027-05-01:p4d.24xlarge:p5.48xlarge:0.5" ;;
    esac
    s=$first
    while [ "$s" -le "$last" ]; do
        # shellcheck disable=SC2086
        "$bin" synth --quiet --trace "$trace" --years 2 --seed "$s" $opts \
            --out "$work/$fam-$s.csv"
        "$bin" simulate --quiet --json --trace "$work/$fam-$s.csv" \
            --scenario "$here/policies.json" > "$work/$fam-$s.json"
        rm -f "$work/$fam-$s.csv"
        s=$((s + 1))
    done
done
python3 - "$work" "$first" "$last" <<'PY'
import json, sys
work, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seeds = last - first + 1
print("| family | policy | mean ESR | ESR >= aws | mean lock-in (months) | mean unused |")
print("|---|---|---|---|---|---|")
for fam in ("flat", "growth", "decline", "migration"):
    runs = [json.load(open("%s/%s-%d.json" % (work, fam, s)))["policies"]
            for s in range(first, last + 1)]
    names = [p["name"] for p in runs[0]]
    for i, name in enumerate(names):
        esr = [r[i]["esr"] for r in runs]
        aws = [r[0]["esr"] for r in runs]
        ge = sum(e >= a - 1e-12 for e, a in zip(esr, aws))
        lock = sum(r[i]["lock_in_months"] for r in runs) / seeds
        unused = sum(r[i]["unused_commitment_cost"] for r in runs) / seeds
        print("| %s | %s | %.2f%% | %d/%d | %.1f | $%.0f |" % (
            fam, name, 100 * sum(esr) / seeds, ge, seeds, lock, unused))
PY
