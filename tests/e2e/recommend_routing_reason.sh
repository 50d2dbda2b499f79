#!/bin/sh
# The routing action's reason writes its amounts as the tables do
# (gp_format_money: thousands separators, the currency's prefix).  On the
# bundled sample it said "training on spot costs $63451.50 instead of
# $182413.11"; the two amounts are training's cost on spot and without it,
# so they differ by the action's net savings.
set -eu
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" recommend --quiet --json > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, re, sys
a = json.load(open(sys.argv[1]))["actions"][0]
assert a["type"] == "routing", a
money = r"\$(\d{1,3}(?:,\d{3})*\.\d\d)"
m = re.match(r"training on spot costs %s instead of %s, interruptions "
             r"included \(%s expected, " % (money, money, money), a["reason"])
assert m, a["reason"]
spot, od, lost = (float(g.replace(",", "")) for g in m.groups())
assert od >= 1000 and "," in m.group(2), a["reason"]  # the premise
assert abs(od - spot - a["net_savings"]) < 0.011, (spot, od, a)
assert abs(lost - a["interruption_cost"]) < 0.006, (lost, a)
PY
echo "recommend_routing_reason: ok"
