#!/bin/sh
# Every scenario in scenarios/ is also an example for users, so each is run
# here as the README shows it: validate and simulate on the bundled sample,
# or on the trace.csv beside the scenario when it has one (the levers'
# examples; with the folder's own catalogs, and --layout jobs for a trace
# of job runs, as their READMEs run them), succeed, and simulate bills
# every strategy the file names.
set -eu
bin=$1
src=$2
cd "$src"
n=0
for f in scenarios/*/scenario.json; do
    dir=${f%/*}
    trace=scenarios/sample/trace.csv
    [ -f "$dir/trace.csv" ] && trace=$dir/trace.csv
    # a folder's own catalogs, and a trace of one row per job run, are
    # given as its README gives them
    set -- --scenario "$f" --trace "$trace"
    [ -d "$dir/pricing" ] && set -- "$@" --pricing "$dir/pricing"
    head -1 "$trace" | grep -q '^start,' && set -- "$@" --layout jobs
    "$bin" validate --quiet "$@" > /dev/null
    "$bin" simulate --quiet --json "$@" > /tmp/gpuplan-scn.$$ || {
        echo "simulate failed on $f"; exit 1; }
    python3 - "$f" /tmp/gpuplan-scn.$$ <<'PY'
import json, sys
scn, run = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
want = ["baseline"] + [s["name"] for s in scn.get("strategies", [])]
got = [s["name"] for s in run["strategies"]]
assert got == want, (sys.argv[1], got, want)
names = [p["name"] for p in run.get("policies", [])]
assert names == [p["name"] for p in scn.get("policies", [])], names
PY
    rm -f /tmp/gpuplan-scn.$$
    n=$((n + 1))
done
echo "scenarios_run: $n passed, 0 failed"
