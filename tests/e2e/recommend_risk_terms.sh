#!/bin/sh
# A plan's risk note names the terms the plan buys.  The test catalog
# (tests/data/engine/aws-test.json) has 1-year offers only (every
# "term_years" in it is 1), so even the aggressive plan, allowed 3-year
# terms, can buy nothing longer than 1 year: its risk must not say it
# "pays ... for 3 years" (it did, from the term it was allowed).
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" recommend --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/one-pool.csv" --json > "$out/rec.json"
python3 - "$out/rec.json" <<'PY'
import json, sys
plans = {p["name"]: p for p in json.load(open(sys.argv[1]))["plans"]}
agg = plans["aggressive"]
assert agg["commitments"], agg
assert all(c["term_years"] == 1 for c in agg["commitments"]), agg
assert "3 years" not in agg["risk"] and agg["risk"].startswith("1-year"), \
    agg["risk"]
PY

# --forward 13w on the bundled sample: the aggressive plan buys 3-year
# terms (the bundled catalogs have them), on 13 weeks of forecast, not of
# history (the risk said "13 weeks of history" for a two-week trace), and
# the balanced plan buys none (13 weeks < 26).
"$bin" recommend --quiet --forward 13w --json > "$out/fwd.json"
python3 - "$out/fwd.json" <<'PY'
import json, sys
plans = {p["name"]: p for p in json.load(open(sys.argv[1]))["plans"]}
agg, bal = plans["aggressive"], plans["balanced"]
assert any(c["term_years"] == 3 for c in agg["commitments"]), agg
assert agg["risk"].startswith("3-year terms on 13 weeks of forecast (not "
                              "supported"), agg["risk"]
assert all(c["term_years"] == 1 for c in bal["commitments"]), bal
PY
echo "recommend_risk_terms: ok"
