#!/bin/sh
# A 1-year term sized on under 4 weeks of history carries a caveat, in the
# plans' risk and as one of the run's notes (the table, the JSON's notes,
# the workbook's Summary).  It had none: on one hour of 3 g5.xlarge the
# balanced plan bought "instance_family plan aws $1.720/h, 1y all_upfront"
# (upfront $1.720 x 8,760 h = $15,067.20) and only 3-year terms were said
# to need more history.
#
# Traces: 3 g5.xlarge for inference, flat, from 2026-06-01T05:00:00Z, for
# 1 hour, 671 hours (4 weeks less an hour: 3.99 weeks, said "3.9 weeks",
# not rounded up to the 4 it falls short of) and 672 hours (4 weeks
# exactly: no caveat).  Bundled catalogs (aws us-east-1).  With
# --forward the same note names the forecast the plan is bought on.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl recommend_short_history
"$PY" - "$dir" <<'PYEOF'
import sys
for n in (1, 671, 672):
    with open("%s/t%d.csv" % (sys.argv[1], n), "w") as f:
        f.write("timestamp,step_s,provider,region,instance_type,workload,"
                "instances,gpu_util\n")
        for h in range(n):
            t = 1780290000 + 3600 * h  # 2026-06-01T05:00:00Z
            f.write("%d,3600,aws,us-east-1,g5.xlarge,inference,3,50\n" % t)
PYEOF
export GPUPLAN_TODAY=2026-11-21
for n in 1 671 672; do
    "$bin" recommend --quiet --trace "$dir/t$n.csv" --json > "$dir/r$n.json"
    "$bin" recommend --quiet --trace "$dir/t$n.csv" --forward 13w --json \
        > "$dir/f$n.json"
done
"$bin" recommend --quiet --trace "$dir/t1.csv" > "$dir/r1.txt"
"$bin" recommend --quiet --trace "$dir/t1.csv" --out "$dir/r1.xlsx" \
    > /dev/null
"$PY" - "$dir" <<'PYEOF'
import json, sys, openpyxl
d = sys.argv[1]
tail = ("under 4 weeks, too little to tell whether demand lasts the year; "
        "size the plan on a longer trace before buying")
for n, span in ((1, "1 hour"), (671, "3.9 weeks")):
    rec = json.load(open("%s/r%d.json" % (d, n)))
    plans = {p["name"]: p for p in rec["plans"]}
    bal = plans["balanced"]
    # the premise: it buys a 1-year term
    assert bal["max_term_years"] == 1, bal
    for p in rec["plans"]:
        if p["max_term_years"] == 1:
            assert p["risk"].startswith(
                "1-year terms sized on %s of history (under 4 weeks: too "
                "little to tell whether demand lasts the year); " % span), \
                p["risk"]
    note = ("the balanced plan buys 1-year terms sized on %s of history: %s"
            % (span, tail))
    assert rec["notes"].count(note) == 1, (note, rec["notes"])
    if n == 1:
        assert bal["upfront"] == 15067.2, bal
        table = open(d + "/r1.txt").read().splitlines()
        assert table.count("note: " + note) == 1, table[-4:]
        summary = [r[0] for r in
                   openpyxl.load_workbook(d + "/r1.xlsx")["Summary"]
                   .iter_rows(values_only=True)
                   if r and isinstance(r[0], str)]
        assert summary.count(note) == 1, summary
rec = json.load(open(d + "/r672.json"))
assert rec["plans"][1]["max_term_years"] == 1, rec["plans"][1]
for p in rec["plans"]:
    assert "sized on" not in p["risk"], p["risk"]
assert not any("sized on" in n for n in rec["notes"]), rec["notes"]
# --forward: the plan is bought on a forecast fitted on the same history,
# so the note names the forecast (1 and 671 hours), none at 672
for n, span in ((1, "1 hour"), (671, "3.9 weeks"), (672, None)):
    rec = json.load(open("%s/f%d.json" % (d, n)))
    assert rec["plans"][1]["max_term_years"] == 1, rec["plans"][1]
    got = [x for x in rec["notes"] if "sized on" in x]
    want = [] if span is None else [
        "the balanced plan buys 1-year terms sized on a forecast from %s "
        "of history: %s" % (span, tail)]
    assert got == want, (n, got)
PYEOF
echo "recommend_short_history: ok"
