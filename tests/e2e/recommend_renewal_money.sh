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
python3 - "$out" <<'PY'
import datetime as dt, sys
out = sys.argv[1]
t0 = dt.datetime(2026, 5, 1)
with open(out + "/t.csv", "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(14 * 24):
        t = (t0 + dt.timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ")
        f.write(f"{t},g6e.xlarge,inference,{20 if h < 7 * 24 else 30}\n")
for name, start in (("in", "2025-05-08"), ("after", "2025-05-20")):
    open(f"{out}/{name}.json", "w").write(
        '{"schema": "gpuplan-scenario/1", "commitments": [{"type": '
        '"reserved", "provider": "aws", "region": "us-east-1", '
        '"instance_type": "g6e.xlarge", "count": 20, "term_years": 1, '
        f'"payment": "no_upfront", "start": "{start}T00:00:00Z"}}]}}')
PY
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
