#!/bin/sh
# A plan's risk gives its low-demand case whatever its terms: the bundled
# sample's aggressive plan buys 3-year terms, and its risk ended at "the
# plan pays $141746 a year for 3 years whatever demand does", never
# saying what it does in the low-demand case, which the 1-year plans'
# risk gives.  Each plan's risk now ends "; in the low-demand case it
# saves (or loses) $X over the window", X its downside_net_savings with
# thousands separators, as the tables write it.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
GPUPLAN_DATA_DIR="$src" GPUPLAN_TODAY=2026-11-21 "$bin" recommend --quiet \
    --json > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, sys
plans = json.load(open(sys.argv[1]))["plans"]
assert any(p["max_term_years"] == 3 for p in plans), plans
for p in plans:
    d = p["downside_net_savings"]
    # the amount as the tables write it: "$12,345.67"
    want = "; in the low-demand case it %s ${:,.2f} over the window".format(
        abs(d)) % ("loses" if d < 0 else "saves")
    assert p["risk"].endswith(want), (p["name"], p["risk"], want)
PY
echo "recommend_risk_low_case: ok"
