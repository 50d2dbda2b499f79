#!/bin/sh
# Library code never prints (STYLE.md "Errors"): with GP_DEBUG_OPT set in
# the environment the optimizer wrote "round 0 cost 3.0180" and so on to
# stderr, one line per pass (228 lines for this two-hour trace), under
# --quiet and into whatever program embeds the library.  recommend --quiet
# of a run that succeeds must leave stderr empty whatever the environment.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf 'timestamp,step_s,instance_type,workload,instances\n2026-01-05T00:00:00Z,3600,g5.xlarge,inference,1\n2026-01-05T01:00:00Z,3600,g5.xlarge,inference,2\n' \
    > "$out/t.csv"
GP_DEBUG_OPT=1 "$bin" recommend --quiet --json \
    --pricing "$src/pricing/aws/us-east-1.json" --trace "$out/t.csv" \
    > "$out/r.json" 2> "$out/err"
if [ -s "$out/err" ]; then
    echo "stderr not empty:" >&2
    head -5 "$out/err" >&2
    exit 1
fi
echo "optimizer_prints_nothing: ok"
