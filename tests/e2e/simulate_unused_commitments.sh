#!/bin/sh
# simulate's "cost by model" table shows the cost of commitments that
# covered nothing, so training + inference + unused commitments add up to
# the total (the JSON's unallocated_cost, the CSV's and workbook's
# "(unused commitments)").  One x.large reservation at $3/h plus $17520
# upfront over a year ($5/h amortized) for a 4-hour window: $20; the
# trace runs one x.large for the first 2 hours, which the reservation
# covers ($10 to inference); the last 2 hours it covers nothing ($10
# unused).  The table said training $0.00, inference $10.00 against a
# total of $20.00.  A run with no unused commitment keeps its columns.
set -eu
bin=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat > "$out/cat.json" <<'JSON'
{"schema": "gpuplan-catalog/1", "provider": "aws", "region": "us-east-1",
 "currency": "USD", "as_of": "2026-11-01", "sources": ["test catalog"],
 "instance_types": {"x.large": {"family": "x", "gpu_model": "T4", "gpus": 4,
  "vcpus": 16, "memory_gib": 64, "on_demand": 10,
  "reserved": [{"term_years": 1, "payment": "partial_upfront", "hourly": 3,
                "upfront": 17520}]}}}
JSON
cat > "$out/s.json" <<'JSON'
{"schema": "gpuplan-scenario/1", "name": "unused",
 "window": {"start": "2026-03-02T00:00:00Z", "end": "2026-03-02T04:00:00Z"},
 "commitments": [{"type": "reserved", "provider": "aws",
  "region": "us-east-1", "instance_type": "x.large", "count": 1,
  "term_years": 1, "payment": "partial_upfront",
  "start": "2026-03-01T00:00:00Z"}],
 "strategies": [{"name": "keep"}]}
JSON
printf 'timestamp,step_s,instance_type,workload,instances\n2026-03-02T00:00:00Z,7200,x.large,inference,1\n' \
    > "$out/t.csv"
"$bin" simulate --quiet --pricing "$out/cat.json" --trace "$out/t.csv" \
    --scenario "$out/s.json" > "$out/table"
head=$(grep '^cost by model' "$out/table")
want='cost by model          on-demand        reserved    savings plan            spot        training       inference unused commitments'
[ "$head" = "$want" ] || {
    echo "header: $head" >&2
    exit 1
}
row=$(grep '^keep ' "$out/table" | sed -n 2p)
want='keep                       $0.00          $20.00           $0.00           $0.00           $0.00          $10.00             $10.00'
[ "$row" = "$want" ] || {
    echo "row: $row" >&2
    exit 1
}
# chargeback.csv's row for them: nothing ran on what they paid for, so
# 0 instance-hours and 0 useful GPU-hours (known, not blank as a series
# without gpu_util is) and no cost per useful GPU-hour
"$bin" simulate --quiet --pricing "$out/cat.json" --trace "$out/t.csv" \
    --scenario "$out/s.json" --csv "$out/csv" > /dev/null
row=$(grep '^"keep",(unused commitments),' "$out/csv/chargeback.csv")
want='"keep",(unused commitments),,,,,,10,0,0,'
[ "$row" = "$want" ] || {
    echo "chargeback row: $row" >&2
    exit 1
}
# no unused commitment: the table as before (no column)
printf 'timestamp,step_s,instance_type,workload,instances\n2026-03-02T00:00:00Z,14400,x.large,inference,1\n' \
    > "$out/full.csv"
"$bin" simulate --quiet --pricing "$out/cat.json" --trace "$out/full.csv" \
    --scenario "$out/s.json" > "$out/table2"
head=$(grep '^cost by model' "$out/table2")
want='cost by model          on-demand        reserved    savings plan            spot        training       inference'
[ "$head" = "$want" ] || {
    echo "header without unused: $head" >&2
    exit 1
}
echo "simulate_unused_commitments: ok"
