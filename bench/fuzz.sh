#!/bin/sh
# fuzz.sh: builds the libFuzzer targets of tests/fuzz/ and runs each (or the
# ones named) for a given time, merging what adds coverage into the
# committed corpora tests/fuzz/<target>/.  See bench/README.md.
#
#   sh bench/fuzz.sh [-t SECONDS] [-j JOBS] [-n] [-M] [target...]
#
#   -t SECONDS  time per target (default 60; libFuzzer's -max_total_time)
#   -j JOBS     run libFuzzer with -fork=JOBS (default 0: off, one process)
#   -n          do not build; use the fuzzers already in the build folder
#   -M          after the run, minimise each corpus (-merge=1 into an empty
#               folder) and keep only the inputs that add coverage, and
#               the inputs of fixed findings (finding-*)
#   target      trace, catalog, ... (default: every tests/fuzz/fuzz_*.c)
#
# Environment:
#   CC=clang             the compiler (clang-14 if clang is not found)
#   FUZZ_DIR=/tmp/gpuplan-fuzz   the build folder (FUZZ_DIR/build) and the
#                        scratch folder of each run (FUZZ_DIR/run/<target>/:
#                        log, new inputs, crash-*, leak-*, timeout-* files);
#                        never in the repository
#   TIMEOUT=20           seconds one input may take before it is a finding
#   RSS_MB=2048          memory one input may use before it is a finding
#
# Prints a line per target: executions, coverage (cov, ft) from libFuzzer's
# last status line, CPU and wall seconds, findings, and the corpus size.
# Run it at low priority on a shared machine: nice -n 19 sh bench/fuzz.sh.
set -eu
cd "$(dirname "$0")/.."
SRC=$(pwd)

SECONDS_PER=60
JOBS=0
BUILD=1
MINIMISE=0
while getopts t:j:nM opt; do
    case $opt in
    t) SECONDS_PER=$OPTARG ;;
    j) JOBS=$OPTARG ;;
    n) BUILD=0 ;;
    M) MINIMISE=1 ;;
    *) echo "usage: sh bench/fuzz.sh [-t SECONDS] [-j JOBS] [-n] [-M] [target...]" >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))

FUZZ_DIR=${FUZZ_DIR:-${TMPDIR:-/tmp}/gpuplan-fuzz}
TIMEOUT=${TIMEOUT:-20}
RSS_MB=${RSS_MB:-2048}
if [ -z "${CC:-}" ]; then
    if command -v clang >/dev/null 2>&1; then CC=clang; else CC=clang-14; fi
fi
case $FUZZ_DIR in
"$SRC"|"$SRC"/*) echo "fuzz.sh: FUZZ_DIR must be outside the repository" >&2
    exit 2 ;;
esac

if [ $# -eq 0 ]; then
    for f in tests/fuzz/fuzz_*.c; do
        t=${f#tests/fuzz/fuzz_}
        set -- "$@" "${t%.c}"
    done
fi
for t in "$@"; do
    if [ ! -f "tests/fuzz/fuzz_$t.c" ] || [ ! -d "tests/fuzz/$t" ]; then
        echo "fuzz.sh: no target '$t' (tests/fuzz/fuzz_$t.c and tests/fuzz/$t/)" >&2
        exit 2
    fi
done

# Only the fuzzers are built (not the default targets), so the build does
# not remake reports/sample.xlsx in the source tree.
if [ $BUILD = 1 ]; then
    mkdir -p "$FUZZ_DIR/build"
    CC=$CC cmake -S . -B "$FUZZ_DIR/build" -DGP_FUZZ=ON -DGP_TESTS=OFF \
        -DCMAKE_BUILD_TYPE=Asan >"$FUZZ_DIR/build/cmake.log" 2>&1 || {
        cat "$FUZZ_DIR/build/cmake.log" >&2; exit 1; }
    targets=
    for t in "$@"; do targets="$targets fuzz_$t"; done
    # shellcheck disable=SC2086 # one word per target
    cmake --build "$FUZZ_DIR/build" -j "${BUILD_JOBS:-2}" --target $targets \
        >"$FUZZ_DIR/build/build.log" 2>&1 || {
        tail -30 "$FUZZ_DIR/build/build.log" >&2; exit 1; }
fi

# The CPU seconds (user + system) the shell's children had used when
# `times` wrote file $1 (its second line).  `times` runs in this shell, not
# in a pipe's subshell, which would count only its own children.
child_cpu() {
    awk 'NR == 2 {
        s = 0
        for (i = 1; i <= 2; i++) {
            split($i, p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2]
        }
        printf "%.1f\n", s
    }' "$1"
}

# The figures of one run's log: executions, cov, ft (libFuzzer's last
# status line; the final stats' executions when it printed them).
log_figures() {
    awk '
    /^#[0-9]+/ && / cov: / {
        n = $1; sub("#", "", n); sub(":", "", n); execs = n
        for (i = 1; i < NF; i++) {
            if ($i == "cov:") cov = $(i + 1)
            if ($i == "ft:") ft = $(i + 1)
        }
    }
    /^stat::number_of_executed_units:/ { execs = $2 }
    END { printf "%s %s %s\n", execs + 0, cov + 0, ft + 0 }' "$1"
}

printf '%-16s %12s %6s %7s %8s %8s %8s %9s\n' target executions cov ft \
    cpu_s wall_s findings corpus_kb
status=0
for t in "$@"; do
    bin=$FUZZ_DIR/build/tests/fuzz/fuzz_$t
    run=$FUZZ_DIR/run/$t
    stamp=$(date -u +%Y%m%dT%H%M%SZ)
    art=$run/$stamp
    corpus=$SRC/tests/fuzz/$t
    [ -x "$bin" ] || { echo "fuzz.sh: $bin not built (drop -n)" >&2; exit 1; }
    rm -rf "$run/new"
    mkdir -p "$run/new" "$art"
    forkopt=
    if [ "$JOBS" -gt 0 ]; then
        forkopt="-fork=$JOBS -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"
    fi
    times >"$art/times.0"
    wall0=$(date +%s)
    # New inputs go to the scratch folder (the first one); the corpus is
    # read only, and only what adds coverage is merged into it below.
    # shellcheck disable=SC2086 # forkopt is several options or none
    (cd "$art" && GP_SOURCE_DIR=$SRC "$bin" -max_total_time="$SECONDS_PER" \
        -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" -print_final_stats=1 \
        -artifact_prefix="$art/" $forkopt "$run/new" "$corpus" \
        >"$art/fuzz.log" 2>&1) || true
    wall=$(($(date +%s) - wall0))
    times >"$art/times.1"
    cpu=$(awk -v a="$(child_cpu "$art/times.0")" \
        -v b="$(child_cpu "$art/times.1")" 'BEGIN { printf "%.0f", b - a }')
    read -r execs cov ft <<EOF
$(log_figures "$art/fuzz.log")
EOF
    # Merged by coverage edges only (-use_counters=0): counting hit-count
    # buckets too keeps ten times the files for no new code reached.
    (cd "$art" && GP_SOURCE_DIR=$SRC "$bin" -merge=1 -use_counters=0 \
        -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
        -artifact_prefix="$art/merge-" "$corpus" "$run/new" \
        >"$art/merge.log" 2>&1) || true
    if [ $MINIMISE = 1 ]; then
        rm -rf "$run/min"
        mkdir -p "$run/min"
        if (cd "$art" && GP_SOURCE_DIR=$SRC "$bin" -merge=1 -use_counters=0 \
            -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
            -artifact_prefix="$art/merge-" "$run/min" "$corpus" \
            >"$art/minimise.log" 2>&1) && [ -n "$(ls "$run/min")" ]; then
            # the inputs of fixed findings stay, by name, whatever they add
            for f in "$corpus"/finding-*; do
                if [ -f "$f" ]; then cp "$f" "$run/min"/; fi
            done
            rm -f "$corpus"/*
            cp "$run/min"/* "$corpus"/
        fi
    fi
    find "$art" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' \
        -o -name 'timeout-*' -o -name 'oom-*' -o -name 'merge-*' \) \
        >"$art/findings"
    findings=$(wc -l <"$art/findings" | tr -d ' ')
    if [ "$findings" -gt 0 ]; then status=1; fi
    kb=$(du -sk "$corpus" | cut -f1)
    printf '%-16s %12s %6s %7s %8s %8s %8s %9s\n' "$t" "$execs" "$cov" \
        "$ft" "$cpu" "$wall" "$findings" "$kb"
    if [ "$findings" -gt 0 ]; then
        sed 's/^/    /' "$art/findings"
    fi
done
echo "logs and findings: $FUZZ_DIR/run/<target>/<time>/"
exit $status
