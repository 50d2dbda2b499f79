#!/bin/sh
# A renewal's reason writes its amount as the tables do, with thousands
# separators: it said "it saves $2313.60" beside tables that write
# "$2,313.60".  The recommend_renewal case with 20 owned g6e.xlarge
# reservations (us-east-1, 1-year no-upfront) and 20 then 30 instances:
# the plan buys nothing, so from the bundled catalog's rates
#   count x hours x (on_demand - (hourly + upfront / 8760))
# - expiring 2026-05-08, a week in: 20 x 168 x (1.861 - 1.17243)
#   = $2,313.60;
# - expiring 2026-05-20, after the window: 20 x 336 x (1.861 - 1.17243)
#   = $4,627.19.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 "$src/tests/e2e/lib/renewal_case.py" "$out" 20
for s in in after; do
    "$bin" recommend --quiet --pricing "$src/pricing/aws/us-east-1.json" \
        --trace "$out/t.csv" --scenario "$out/$s.json" --json > "$out/$s.out"
done
python3 - "$src/pricing/aws/us-east-1.json" "$out" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))["instance_types"]["g6e.xlarge"]
od = t["on_demand"]
ri = [r for r in t["reserved"]
      if r["term_years"] == 1 and r["payment"] == "no_upfront"][0]
eff = ri["hourly"] + ri["upfront"] / 8760
texts = {
    "in": "expires 2026-05-08T00:00:00Z; renewed then at today's rates, on "
          "top of the plan, it saves %s over the 168 hours of the window "
          "left",
    "after": "expires 2026-05-20T00:00:00Z, after the window; at today's "
             "rates, on top of the plan, it would save %s over a window "
             "like this one",
}
for name, hours, fixed in (("in", 168, "$2,313.60"),
                           ("after", 336, "$4,627.19")):
    rec = json.load(open(f"{sys.argv[2]}/{name}.out"))
    ren = [a for a in rec["actions"] if a.get("renewal")]
    assert len(ren) == 1, rec["actions"]
    a = ren[0]
    want = 20 * hours * (od - eff)
    assert abs(a["net_savings"] - want) < 0.01, (name, a["net_savings"], want)
    assert "${:,.2f}".format(want) == fixed, (want, fixed)  # the header's
    assert a["reason"] == texts[name] % fixed, (name, a["reason"])
PY
echo "recommend_renewal_money: ok"
