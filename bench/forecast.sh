#!/bin/sh
# forecast.sh: speed of the forecaster (gp_forecast_run) on 1,000 series x
# one year hourly, 13 weeks ahead, with one thread and with all cores, and
# the forecast scored on the held-out last 13 weeks.  Target: under 10 s.
# See bench/README.md, "Forecast".
#
#   sh bench/forecast.sh [bench_forecast options]
#
# Options (passed to bench_forecast): --series N, --hours H, --horizon H,
# --threads T (default all cores), --seed S, --repeat N.  The input is
# synthetic, seeded and built in memory.
#
# Builds a Release bench_forecast in build-bench/.
set -eu
cd "$(dirname "$0")/.."

JOBS=$(nproc 2>/dev/null || echo 2)
[ "$JOBS" -gt 2 ] && JOBS=2

echo "== build (Release, build-bench/)"
cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-bench --target bench_forecast -j "$JOBS" >/dev/null

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d" " -f1-3 /proc/loadavg)"
echo "   gpuplan $(git rev-parse --short HEAD 2>/dev/null || echo '?')$([ -z "$(git status --porcelain -- src models 2>/dev/null)" ] || echo ' + uncommitted changes in src/ or models/')"

exec ./build-bench/bench/bench_forecast "$@"
