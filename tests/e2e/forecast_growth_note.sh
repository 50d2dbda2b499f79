#!/bin/sh
# The scenario's growth moves every point of the forecast, and a note says
# so, per workload forecast and with the scenario file: on the table, in
# the JSON's notes and in the workbook's Summary, and for recommend
# --forward (bought against that forecast) as "forecast: " and the note.
# Before, only the points showed it.
# The workbooks' Forecast sheet, where the forecast's figures are, shows
# its notes too, all of them (the JSON's notes), under the accuracy table:
# forecast --out's, simulate --out's (its 13-week forecast, the same as
# forecast's default horizon, so the same notes) and recommend
# --forward --out's (the forecast the plan was bought against).  Before,
# only Summary did.
#
# Trace (prices: tests/data/engine/aws-test.json): three weeks (504
# hours) of 10 p4d.24xlarge for inference, every hour, so every method
# forecasts 10.  grow.json: inference 0.05 a month, training 0.10 (no
# training demand: not applied, not named).  Over 13 weeks = 2184 hours
# the last point is 10 x 1.05^(2184 / 730) = 11.5697: "+5% a month,
# +15.7% by the horizon's end" (the sample scenario's inference growth).
# flat.json: growth 0 both, and no note.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl forecast_growth_note
"$PY" - "$dir" <<'PYEOF'
import sys
d = sys.argv[1]
with open(d + "/trace.csv", "w") as f:
    f.write("timestamp,instance_type,workload,instances\n")
    for h in range(504):
        f.write("%d,p4d.24xlarge,inference,10\n" % (1767225600 + 3600 * h))
for name, train, infer in (("grow", 0.10, 0.05), ("flat", 0, 0)):
    with open("%s/%s.json" % (d, name), "w") as f:
        f.write('{"schema": "gpuplan-scenario/1", "name": "%s", '
                '"growth": {"training": %g, "inference": %g}}\n'
                % (name, train, infer))
PYEOF
export GPUPLAN_TODAY=2026-01-22
for s in grow flat; do
    set -- --quiet --pricing "$src/tests/data/engine/aws-test.json" \
        --trace "$dir/trace.csv" --scenario "$dir/$s.json"
    "$bin" forecast "$@" --json > "$dir/$s.json.out"
    "$bin" forecast "$@" > "$dir/$s.txt"
    "$bin" forecast "$@" --out "$dir/$s.xlsx" > /dev/null
    "$bin" recommend "$@" --forward 13w --runs 10 --json \
        --out "$dir/$s.rec.xlsx" > "$dir/$s.rec.json"
    "$bin" simulate "$@" --out "$dir/$s.sim.xlsx" > /dev/null
done
"$PY" - "$dir" <<'PYEOF'
import json, sys, openpyxl
d = sys.argv[1]
note = ("growth from the scenario %s/grow.json is applied on top of the "
        "forecast: inference +5%% a month, +15.7%% by the horizon's end" % d)
def summary(path):
    return [r[0] for r in openpyxl.load_workbook(path)["Summary"].iter_rows(
        values_only=True) if r and isinstance(r[0], str)]
def forecast_sheet(path):
    return [r[0] for r in openpyxl.load_workbook(path)["Forecast"].iter_rows(
        values_only=True) if r and isinstance(r[0], str)]
def growth_notes(lines):
    return [l for l in lines if "growth from the scenario" in l]
doc = json.load(open(d + "/grow.json.out"))
assert doc["notes"].count(note) == 1, doc["notes"]
last = doc["series"][0]["points"][-1]["p50"]
assert abs(last - 10 * 1.05 ** (2184 / 730)) < 1e-6, last
table = open(d + "/grow.txt").read().splitlines()
assert table.count("note: " + note) == 1, table[-4:]
assert summary(d + "/grow.xlsx").count(note) == 1, summary(d + "/grow.xlsx")
rec = json.load(open(d + "/grow.rec.json"))["notes"]
assert rec.count("forecast: " + note) == 1, rec
# every note of the forecast on the Forecast sheets, once, in the order of
# the JSON's notes (the plan's as its "forecast: " ones)
fc_notes = [n[len("forecast: "):] for n in rec if n.startswith("forecast: ")]
for path, want in (("/grow.xlsx", doc["notes"]), ("/grow.rec.xlsx", fc_notes),
                   ("/grow.sim.xlsx", doc["notes"])):
    sheet = forecast_sheet(d + path)
    assert note in want, (path, want)
    got = [l for l in sheet if l in want]
    assert got == want, (path, got, want)
# no growth, no note
doc = json.load(open(d + "/flat.json.out"))
assert growth_notes(doc["notes"]) == [], doc["notes"]
assert doc["series"][0]["points"][-1]["p50"] == 10, doc["series"][0]["points"][-1]
assert growth_notes(open(d + "/flat.txt").read().splitlines()) == []
assert growth_notes(summary(d + "/flat.xlsx")) == []
for f in ("/flat.xlsx", "/flat.rec.xlsx", "/flat.sim.xlsx"):
    assert growth_notes(forecast_sheet(d + f)) == [], f
assert growth_notes(json.load(open(d + "/flat.rec.json"))["notes"]) == []
PYEOF
echo "forecast_growth_note: ok"
