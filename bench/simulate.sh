#!/bin/sh
# simulate.sh: speed of the replay engine (gp_engine_run), against a
# baseline measured in the same run.  See bench/README.md.
#
#   sh bench/simulate.sh [bench_simulate options]
#
#   A  one year hourly x 1,000 pools with 200 reservations and 12 savings
#      plans; target < 1 s; baseline: the same run with no commitments.
#   B  10,000 Monte Carlo runs of a year with 200 spot training jobs on 2
#      threads; target < 5 s; baseline: the same on 1 thread (the two must
#      agree bit for bit).
#   C  B with spot availability 0.6 and 24 h of deadline slack (#37);
#      target < 2 s on 2 threads.
#
# Options (passed to bench_simulate): --repeat N (best of N calls, default
# 3), --seed S, --keep DIR (keep the generated catalog and traces),
# --only a|b.  The inputs are synthetic and seeded; they go to a temporary
# folder under $TMPDIR (default /tmp, about 350 MB) and are removed at exit.
#
# Builds a Release bench_simulate in build-bench/.
set -eu
cd "$(dirname "$0")/.."

JOBS=$(nproc 2>/dev/null || echo 2)

echo "== build (Release, build-bench/)"
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target bench_simulate -j "$JOBS" >/dev/null

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d" " -f1-3 /proc/loadavg)"
echo "   gpuplan $(git rev-parse --short HEAD 2>/dev/null || echo '?')$([ -z "$(git status --porcelain -- src models 2>/dev/null)" ] || echo ' + uncommitted changes in src/ or models/')"

exec ./build-bench/bench/bench_simulate "$@"
