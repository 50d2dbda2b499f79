#!/bin/sh
# simulate's header counts in words that agree with the number: one
# row of 2 g6e.xlarge for one hour is "(1 hour), 1 pool, 1 row" (it
# said "(1 hours), 1 pools, 1 rows"); two rows over 2 hours of two types
# keep the plural "(2 hours), 2 pools, 2 rows".
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat="$src/pricing/aws/us-east-1.json"
printf 'timestamp,step_s,instance_type,workload,instances\n2026-05-01T00:00:00Z,3600,g6e.xlarge,inference,2\n' \
    > "$out/one.csv"
printf 'timestamp,step_s,instance_type,workload,instances\n2026-05-01T00:00:00Z,7200,g6e.xlarge,inference,2\n2026-05-01T00:00:00Z,7200,p4d.24xlarge,training,1\n' \
    > "$out/two.csv"
head=$("$bin" simulate --quiet --pricing "$cat" --trace "$out/one.csv" | head -1)
[ "$head" = "gpuplan simulate: 2026-05-01T00:00:00Z to 2026-05-01T01:00:00Z (1 hour), 1 pool, 1 row" ] || {
    echo "header: $head" >&2
    exit 1
}
head=$("$bin" simulate --quiet --pricing "$cat" --trace "$out/two.csv" | head -1)
[ "$head" = "gpuplan simulate: 2026-05-01T00:00:00Z to 2026-05-01T02:00:00Z (2 hours), 2 pools, 2 rows" ] || {
    echo "header: $head" >&2
    exit 1
}
echo "simulate_header_plurals: ok"
