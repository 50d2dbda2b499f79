#!/bin/sh
# Between two reservations that cost the same but for the catalog's
# rounding, the one with less paid upfront.  Azure charges the same for a
# reservation paid monthly or upfront; the bundled eastus catalog gives
# Standard_NC24ads_A100_v4 1y no_upfront 2.31399/h and all_upfront
# 20270.55 (= 2.3139897/h, 0.0000003/h less), and recommend bought
# "2 x ... 1y all_upfront" with $40,541.10 upfront to save $0.0008 more
# than the same reservations paid monthly.  Two of them all day for a week
# (2 x 168 h at 3.673/h on demand): net savings 336 x (3.673 - 2.31399)
# = $456.63 by hand, either way.
set -eu
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
h='timestamp,step_s,provider,region,instance_type,workload,instances'
printf '%s\n2026-03-02T00:00:00Z,604800,azure,eastus,Standard_NC24ads_A100_v4,inference,2\n' \
    "$h" > "$out/t.csv"
"$bin" recommend --quiet --json --trace "$out/t.csv" > "$out/r.json"
python3 - "$out/r.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
acts = [a for a in d["actions"] if a["type"] == "reserved"]
assert len(acts) == 1, d["actions"]
a = acts[0]
assert a["count"] == 2 and a["term_years"] == 1, a
assert a["payment"] == "no_upfront" and a["upfront"] == 0, a
assert abs(a["net_savings"] - 336 * (3.673 - 2.31399)) < 0.01, a
PY
echo "recommend_upfront_tie: the same rate, no upfront"
