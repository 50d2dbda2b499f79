#!/bin/sh
# import aws-cur and import focus read several files as one bill (AWS
# delivers a CUR in parts): each fixture of tests/data/import is cut into
# two files at its middle row, each with the header, and the two parts
# must import to exactly what the whole file imports to: the same trace
# byte for byte, the same --commitments-out scenario (but for its name,
# which names the files), and the same summary counts.  The cut falls
# inside each bill's commitment rows (aws-cur-gpu.csv: the reservation's
# and the savings plan's rows are lines 4-11, cut after line 9;
# focus-commitments.csv: lines 2-7, cut after line 4), so a commitment is
# sized from the rows of both parts.
set -eu
bin=$1
src=$2
data=$src/tests/data/import
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export GPUPLAN_TODAY=2026-11-21

for pair in aws-cur:aws-cur-gpu focus:focus-commitments \
    focus:focus-sample-excerpt; do
    format=${pair%%:*}
    name=${pair#*:}
    whole=$data/$name.csv
    lines=$(wc -l < "$whole")
    half=$(((lines + 1) / 2))
    head -n "$half" "$whole" > "$out/$name-1.csv"
    { head -n 1 "$whole"; tail -n +"$((half + 1))" "$whole"; } \
        > "$out/$name-2.csv"
    "$bin" import "$format" "$whole" --out "$out/whole.csv" \
        --commitments-out "$out/whole.json" 2> "$out/whole.err"
    "$bin" import "$format" "$out/$name-1.csv" "$out/$name-2.csv" \
        --out "$out/parts.csv" --commitments-out "$out/parts.json" \
        2> "$out/parts.err"
    cmp "$out/whole.csv" "$out/parts.csv" ||
        { echo "$name: the parts' trace differs from the whole file's"; exit 1; }
    # the summary names the files; otherwise the same lines
    sed "s/$name\.csv:/FILES:/" "$out/whole.err" > "$out/whole.sum"
    sed "s/$name-1\.csv and $name-2\.csv:/FILES:/" "$out/parts.err" \
        > "$out/parts.sum"
    diff "$out/whole.sum" "$out/parts.sum" ||
        { echo "$name: the parts' summary differs"; exit 1; }
    python3 - "$out/whole.json" "$out/parts.json" "$name" <<'PY'
import json, sys
whole = json.load(open(sys.argv[1]))
parts = json.load(open(sys.argv[2]))
name = sys.argv[3]
assert whole["name"] == "owned commitments from %s.csv" % name, whole["name"]
assert parts["name"] == ("owned commitments from %s-1.csv and %s-2.csv"
                         % (name, name)), parts["name"]
del whole["name"], parts["name"]
assert whole == parts, (whole, parts)
PY
done

# the summary of three or more files names the first and counts the rest
H=$data/focus-commitments.csv
head -n 3 "$H" > "$out/a.csv"
{ head -n 1 "$H"; sed -n 4,5p "$H"; } > "$out/b.csv"
{ head -n 1 "$H"; tail -n +6 "$H"; } > "$out/c.csv"
"$bin" import focus "$out/a.csv" "$out/b.csv" "$out/c.csv" \
    --out "$out/abc.csv" 2> "$out/abc.err"
"$bin" import focus "$H" --quiet | cmp - "$out/abc.csv"
grep -q '^gpuplan import: a.csv and 2 other files: 6 rows: ' "$out/abc.err" ||
    { cat "$out/abc.err"; exit 1; }
