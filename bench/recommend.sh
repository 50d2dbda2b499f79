#!/bin/sh
# recommend.sh: speed of the recommender (gp_recommend) on one year hourly
# x 1,000 pools, against a baseline measured in the same run: one bill of
# the same year (gp_engine_run).  Target: under 10 s.  See bench/README.md.
#
#   sh bench/recommend.sh [bench_recommend options]
#
# Options (passed to bench_recommend): --repeat N (best of N gp_recommend
# calls, default 1), --seed S, --threads T (default all cores), --keep DIR
# (keep the generated catalog and trace), --no-baseline (for perf record).
# The inputs are synthetic and seeded; they go to a temporary folder under
# $TMPDIR (default /tmp, about 300 MB) and are removed at exit.
#
# Builds a Release bench_recommend in build-bench/.
set -eu
cd "$(dirname "$0")/.."

JOBS=$(nproc 2>/dev/null || echo 2)

echo "== build (Release, build-bench/)"
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target bench_recommend -j "$JOBS" >/dev/null

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d" " -f1-3 /proc/loadavg)"
echo "   gpuplan $(git rev-parse --short HEAD 2>/dev/null || echo '?')$([ -z "$(git status --porcelain -- src models 2>/dev/null)" ] || echo ' + uncommitted changes in src/ or models/')"

exec ./build-bench/bench/bench_recommend "$@"
