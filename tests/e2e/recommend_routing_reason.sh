#!/bin/sh
# The routing action's reason writes its amounts as the tables do
# (gp_format_money: thousands separators, the currency's prefix).  On the
# bundled sample it said "training on spot costs $63451.50 instead of
# $182413.11"; the two amounts are training's cost on spot and without it,
# so they differ by the action's net savings.
#
# By hand (README "Billing", SPEC "spot"), from scenarios/sample: the
# window 2026-05-01 to 05-15 holds 2016 training rows of 10 minutes on
# p4d.24xlarge, each ceil(gpus / 8) instances, 8,307.5 instance-hours in
# 336 hours (0 to 37.3 instances in an hour).  The scenario's training
# policy gives only launch, so the rest is the default (scenario.c's
# policy_default, the SPEC 3b example's values: checkpoint tau = 1 h, its
# cost delta = 0.05 h, restart R = 0.25 h); the catalog (pricing/aws/us-east-1.json) gives
# on demand $21.957642/h, spot $7.246022/h at 12.5% a month.
#   on demand    8,307.5 x 21.957642                    = $182,413.11
#   spot, never interrupted 8,307.5 x 1.05 x 7.246022   =  $63,206.14
#   hazard  lambda = -ln(1 - 0.125) / 730               = 1.829197e-4 /h
# No job_id, so each hour's x instance-hours are one job (Daly): wall
# time per hour of work M e^(R/M) (e^((tau+delta)/M) - 1) / tau with
# M = 1 / (x lambda); summed over the 336 hours (python3):
#   spot cost    sum x wall 7.246022                    =  $63,451.50
#   lost         sum x (wall - 1.05) 7.246022           =     $245.35
#   interruptions sum x wall lambda                     =       1.60
# (to first order, wall = 1.05 + x lambda (1.05 R + 1.05^2 / 2), which
# gives $63,450.94: the interruptions cost about $245 of it.)
# Net savings 182,413.11 - 63,451.50 = $118,961.61.
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
# the hand figures above
assert (m.group(1), m.group(2), m.group(3)) == \
    ("63,451.50", "182,413.11", "245.35"), a["reason"]
assert "1.6 interruptions" in a["reason"], a["reason"]
assert abs(a["net_savings"] - 118961.61) < 0.006, a
PY
echo "recommend_routing_reason: ok"
