#!/bin/sh
# The backtest's lines (recommend --train-until) say nothing was worth
# buying when nothing was, as the in-sample line does: they said
# "hindsight could have saved $0.00: 100.0% captured out of sample" and
# "commitments alone: $0.00 of a possible $0.00, 100.0% captured".
# Three hours of one g5.xlarge, cut after the first: no commitment pays
# for itself over an hour or two, so every plan and the hindsight optimum
# buy nothing and save $0.00; JSON keeps captured fraction 1 (README).
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf 'timestamp,step_s,instance_type,workload,instances\n' > "$out/t.csv"
for h in 00 01 02; do
    printf '2026-01-05T%s:00:00Z,3600,g5.xlarge,inference,1\n' "$h" \
        >> "$out/t.csv"
done
for fmt in json txt; do
    flag=
    [ "$fmt" = json ] && flag=--json
    "$bin" recommend --quiet $flag --train-until 2026-01-05T01:00:00Z \
        --pricing "$src/pricing/aws/us-east-1.json" --trace "$out/t.csv" \
        > "$out/r.$fmt"
done
python3 - "$out/r.json" "$out/r.txt" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["backtest"]
text = open(sys.argv[2]).read()
assert b["hindsight_net_savings"] == 0 and b["plan_net_savings"] == 0, b
assert b["captured_fraction"] == 1, b
assert b["commitment_captured_fraction"] == 1, b
assert ("the plan saved $0.00 over the next 2 hours; hindsight could have "
        "saved $0.00, as nothing was worth buying; the plan does as well "
        "out of sample\n") in text, text
assert ("          commitments alone: $0.00 of a possible $0.00, as nothing "
        "was worth buying; they do as well\n") in text, text
assert "100.0%" not in text, text
PY
echo "recommend_backtest_nothing_bought: ok"
