#!/bin/sh
# An owned reservation that expires is offered for renewal with savings on
# top of the actions ranked above it (SPEC section 5), over the hours it
# would really run.  Two weeks of g6e.xlarge (us-east-1): 2 instances in
# the first week, 3 in the second; 2 owned 1-year no-upfront reservations.
# The plan buys nothing here (a third reservation would be used half the
# window, under its 63% break-even), so the renewal's savings are, from the
# bundled catalog's rates:
#   count x hours x (on_demand - (hourly + upfront / (8760 x term)))
# - expiring 2026-05-08, a week in: 2 x 168 x (1.861 - 1.17243) = $231.36
#   (it was 2 x 336 x ..., the week the owned ones still cover counted
#   again);
# - expiring 2026-05-20, after the window: as if it ran the whole window
#   in place of the owned ones, 2 x 336 x (1.861 - 1.17243) = $462.72.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 "$src/tests/e2e/lib/renewal_case.py" "$out" 2
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
for name, hours, start in (("in", 168, "2026-05-08"),
                           ("after", 336, "2026-05-20")):
    rec = json.load(open(f"{sys.argv[2]}/{name}.out"))
    bal = [p for p in rec["plans"] if p["name"] == "balanced"][0]
    assert not bal["commitments"], bal  # the premise above
    ren = [a for a in rec["actions"] if a.get("renewal")]
    assert len(ren) == 1, rec["actions"]
    a = ren[0]
    want = 2 * hours * (od - eff)
    assert abs(a["net_savings"] - want) < 0.01, (name, a["net_savings"], want)
    assert abs(a["breakeven_utilization"] - eff / od) < 1e-9, a
    assert abs(a["expected_utilization"] - 1) < 1e-9, a
    assert a["net_savings"] > 0 and "lapse" not in a["reason"], a
    assert a["start"].startswith(start), a
PY
echo "recommend_renewal: ok"
