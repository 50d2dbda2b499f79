#!/bin/sh
# The terminal tables keep every number under its header whatever the
# length of a name: recommend's action column widens for a 66-character
# action ("instance_family plan aws $90.070/h, 1y all_upfront (p4d
# us-east-1)", which the owned-commitments example leads to on the sample)
# and simulate's strategy column for a 60-character strategy name.  They
# used to push the numbers 12 or more columns right of their headers.
# Checked by position: each header label's last character is the last
# character of the value under it in every row.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$src"
name=$(printf 'x%.0s' $(seq 1 60))
sed "s/\"plus-spot-training\"/\"$name\"/" \
    scenarios/owned-commitments/scenario.json > "$dir/s.json"
"$bin" recommend --quiet --scenario scenarios/owned-commitments/scenario.json \
    > "$dir/recommend.txt"
"$bin" simulate --quiet --scenario "$dir/s.json" > "$dir/simulate.txt"
python3 - "$dir/recommend.txt" "$dir/simulate.txt" "$name" <<'PY'
import sys
rec, sim, name = (open(sys.argv[1]).read().split("\n"),
                  open(sys.argv[2]).read().split("\n"), sys.argv[3])
fails = 0
def check(lines, header_start, labels, row_ok):
    global fails
    h = next(i for i, l in enumerate(lines) if l.startswith(header_start))
    head = lines[h]
    ends, pos = [], 0
    for lab in labels:  # left to right: "savings" twice, money then percent
        pos = head.index(lab, pos) + len(lab)
        ends.append(pos - 1)
    block = lines[h + 1:]
    block = block[:block.index("")] if "" in block else block
    rows = [l for l in block if row_ok(l)]
    assert rows, "no rows under " + header_start
    for r in rows:
        for lab, e in zip(labels, ends):
            if not (e < len(r) and r[e] != " " and (e + 1 == len(r) or r[e + 1] == " ")):
                print(f"{lab!r} ends at column {e + 1}; the row has no value ending there:")
                print(head); print(r); fails += 1
check(rec, "rank  action", ["net savings", "break-even", "expected",
                            "low demand", "upfront"],
      lambda l: l[:4].strip().isdigit())
longest = max(len(l) for l in rec if l[:4].strip().isdigit())
assert longest > 52 + 6 + 60, "the action is not longer than the column was"
check(sim, "strategy", ["total cost", "all on-demand", "savings", "savings",
                        "RI use", "SP use", "coverage"],
      lambda l: l.startswith(("baseline ", name)))
check(sim, "cost by model", ["on-demand", "reserved", "savings plan", "spot",
                             "training", "inference"],
      lambda l: l.startswith(("baseline ", name)))
print(f"table_columns_line_up: {3 - min(fails, 3)} passed, {min(fails, 3)} failed")
sys.exit(1 if fails else 0)
PY
