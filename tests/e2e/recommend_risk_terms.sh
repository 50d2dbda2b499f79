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
                              "supported, as 3-year terms need 26 weeks of "
                              "forecast)"), agg["risk"]
assert all(c["term_years"] == 1 for c in bal["commitments"]), bal
# a 1-year term is billed for the forecast's 13 weeks of it only, and the
# risk says so; the conservative plan buys nothing and says nothing of it
assert bal["commitments"], bal
assert bal["risk"].startswith("1-year terms, of which the forecast covers "
                              "13 weeks: its savings and low-demand case "
                              "count only those, not the rest of each "
                              "term; in the low-demand case it "), bal["risk"]
con = plans["conservative"]
assert con["commitments"] or "forecast covers" not in con["risk"], con
PY

# without --forward the window is history: no word of a forecast
python3 - "$out/rec.json" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["plans"]:
    assert "forecast covers" not in p["risk"], p["risk"]
PY

# --forward 30w on a declining trace: eight weeks of p4d.24xlarge for
# inference falling from 50 to 30 (50 - 20 h / 1344, plus a daily wave of
# 2).  The forecast is 30 weeks, over the 26 3-year terms need, but it
# declines: its last 13 weeks average under 90% of the whole (51% in this
# run), so the balanced plan buys 1-year terms and the aggressive plan's
# 3-year terms are "not supported" because of the decline, not the length
# (it said "3-year terms need 26", for 30 weeks).  1 hour ahead, the note
# says "the next 1 hour" (it said "1 hours").
python3 - "$out/decline.csv" <<'PY'
import math, sys
with open(sys.argv[1], "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    n = 8 * 168
    for h in range(n):
        v = 50 - 20 * h / n + 2 * math.sin(2 * math.pi * (h % 24) / 24)
        f.write("%d,p4d.24xlarge,inference,%.3f\n" % (1767225600 + 3600 * h, v))
PY
"$bin" recommend --quiet --forward 30w --trace "$out/decline.csv" --json \
    > "$out/decline.json"
"$bin" recommend --quiet --forward 1h --trace "$out/decline.csv" --json \
    > "$out/hour.json"
python3 - "$out/decline.json" "$out/hour.json" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
plans = {p["name"]: p for p in doc["plans"]}
agg, bal = plans["aggressive"], plans["balanced"]
assert any(c["term_years"] == 3 for c in agg["commitments"]), agg
assert all(c["term_years"] == 1 for c in bal["commitments"]), bal
m = re.match(r"3-year terms on 30 weeks of forecast \(not supported, as the "
             r"forecast declines: its last 13 weeks average (\d+)% of the "
             r"whole, and 3-year terms need 90% or more\): ", agg["risk"])
assert m and int(m.group(1)) < 90, agg["risk"]
assert "need 26" not in agg["risk"], agg["risk"]
# the balanced plan's commitment is mostly idle at P10 demand (which falls
# to 0 after about 9 weeks): its risk says what it loses, as a positive
# amount (it said "saves $-393780.85").  By hand, from this run's plan
# and P10 demand: $129.158/h x 5,040 h + 8,133.89 uncovered instance-hours
# x $21.957642, against 19,846.24 instance-hours x $21.957642 on demand:
# -$393,780.85, its downside_net_savings.
d = bal["downside_net_savings"]
assert d < 0, bal
assert bal["risk"] == ("1-year terms, of which the forecast covers 30 weeks: "
                       "its savings and low-demand case count only those, "
                       "not the rest of each term; in the low-demand case "
                       "it loses ${:,.2f} over the window".format(-d)), \
    bal["risk"]
assert any(n.endswith("; 1-year terms only, as the forecast declines: its "
                      "last 13 weeks average %s%% of the whole, and 3-year "
                      "terms need 90%% or more" % m.group(1))
           for n in doc["notes"]), doc["notes"]
hour = json.load(open(sys.argv[2]))
assert any("the forecast of the next 1 hour (P50 demand)" in n
           for n in hour["notes"]), hour["notes"]
assert any("(there is 1 hour)" in n for n in hour["notes"]), hour["notes"]
PY
echo "recommend_risk_terms: ok"
