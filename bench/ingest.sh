#!/bin/sh
# ingest.sh: throughput of `gpuplan validate` on a trace of 1 GB or more,
# against DuckDB's CSV reader doing the same hourly aggregation and `wc -l`
# on the same file in the same run.  See bench/README.md.
#
#   sh bench/ingest.sh [epoch|iso|both]      (default: both)
#
# Environment:
#   SIZE_MB=1100   size of each generated trace in MB (10^6 bytes)
#   SEED=1         seed of bench/make_trace.py
#   RUNS=3         runs of each command; the best (fastest) is reported
#   TRACE_DIR=/tmp where the traces go (never the repository); a trace that
#                  is already there with the same size and seed is reused
#   REV=commit     measure that commit (git archive into a temporary folder,
#                  built there) instead of the working tree
#   DUCKDB_DIR=/tmp/gpuplan-duckdb  where the npm package @duckdb/node-api is
#                  installed (npm install, once); DUCKDB=0 leaves DuckDB out
#
# Builds a Release gpuplan in build-bench/ (or, with REV, in a temporary
# folder).  The page cache is not dropped (that needs root): the file is
# read once first, so wc -l and gpuplan both read it from the page cache and
# the figures are CPU-bound ingest, not disk.  The machine should be idle:
# each run also prints the CPU time the rest of the machine used meanwhile.
set -eu
cd "$(dirname "$0")/.."

FLAVOURS=${1:-both}
SIZE_MB=${SIZE_MB:-1100}
SEED=${SEED:-1}
RUNS=${RUNS:-3}
TRACE_DIR=${TRACE_DIR:-/tmp}
JOBS=$(nproc 2>/dev/null || echo 2)
TIMEFMT=/usr/bin/time
GP=./build-bench/gpuplan

case "$FLAVOURS" in
both) FLAVOURS="epoch iso" ;;
epoch | iso) ;;
*)
    echo "usage: sh bench/ingest.sh [epoch|iso|both]" >&2
    exit 2
    ;;
esac
[ -x "$TIMEFMT" ] || {
    echo "ingest.sh: needs GNU time at $TIMEFMT (apt-get install time)" >&2
    exit 1
}

DUCKDB=${DUCKDB:-1}
DUCKDB_DIR=${DUCKDB_DIR:-/tmp/gpuplan-duckdb}
if [ "$DUCKDB" = 1 ]; then
    command -v node >/dev/null 2>&1 || {
        echo "ingest.sh: DuckDB runs on node (apt-get install nodejs npm); DUCKDB=0 leaves it out" >&2
        exit 1
    }
    if [ ! -d "$DUCKDB_DIR/node_modules/@duckdb/node-api" ]; then
        echo "== npm install @duckdb/node-api into $DUCKDB_DIR"
        mkdir -p "$DUCKDB_DIR"
        (cd "$DUCKDB_DIR" && npm install --silent @duckdb/node-api >/dev/null)
    fi
    cp bench/ingest_duckdb.mjs "$DUCKDB_DIR/"
fi

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/gpuplan-bench.XXXXXX")
trap 'rm -rf "$TMPD"' EXIT INT TERM

if [ -n "${REV:-}" ]; then
    echo "== build $REV (Release, $TMPD/build)"
    mkdir "$TMPD/src"
    git archive "$REV" | tar -x -C "$TMPD/src"
    cmake -S "$TMPD/src" -B "$TMPD/build" -DCMAKE_BUILD_TYPE=Release -DGP_TESTS=OFF >/dev/null
    cmake --build "$TMPD/build" --target gpuplan -j "$JOBS" >/dev/null
    GP=$TMPD/build/gpuplan
    VERSION="$(git rev-parse --short "$REV")"
else
    echo "== build (Release, build-bench/)"
    cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build-bench --target gpuplan -j "$JOBS" >/dev/null
    VERSION="$(git rev-parse --short HEAD 2>/dev/null || echo '?')$([ -z "$(git status --porcelain -- src models 2>/dev/null)" ] || echo ' + uncommitted changes in src/ or models/')"
fi

# Nanoseconds since the epoch (GNU date); "" when date cannot say.
now_ns() {
    t=$(date +%s%N 2>/dev/null) || t=
    case "$t" in *N* | "") echo "" ;; *) echo "$t" ;; esac
}

# Busy CPU ticks of the whole machine so far (user nice system irq
# softirq steal, all cores), from /proc/stat.
busy_ticks() {
    awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}
HZ=$(getconf CLK_TCK 2>/dev/null || echo 100)

# measure CMD...: runs CMD once under GNU time; sets SECS (wall seconds,
# from date +%s%N when available, else time's %e), CPU (user + system
# seconds of CMD), RSS (max RSS, KB) and OTHERS (CPU seconds the rest of
# the machine used meanwhile: other users' load skews the figures).
# Exits if CMD fails.
measure() {
    b0=$(busy_ticks)
    t0=$(now_ns)
    if ! "$TIMEFMT" -f '%e %M %U %S' -o "$TMPD/time" "$@" >"$TMPD/out" 2>"$TMPD/err"; then
        echo "ingest.sh: failed: $*" >&2
        head -20 "$TMPD/err" >&2
        exit 1
    fi
    t1=$(now_ns)
    b1=$(busy_ticks)
    read -r e RSS u s <"$TMPD/time"
    if [ -n "$t0" ] && [ -n "$t1" ]; then
        SECS=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
    else
        SECS=$e
    fi
    CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
    OTHERS=$(awk -v a="$b0" -v b="$b1" -v hz="$HZ" -v c="$CPU" \
        'BEGIN { o = (b - a) / hz - c; printf "%.2f", o < 0 ? 0 : o }')
}

# best LABEL CMD...: RUNS runs; sets BEST (seconds), BEST_CPU (its CPU
# seconds), BEST_OTHERS and PEAK (KB, the largest max RSS over the runs),
# prints each run.
best() {
    label=$1
    shift
    BEST=
    PEAK=0
    i=1
    while [ "$i" -le "$RUNS" ]; do
        measure "$@"
        printf '   %-22s run %d: %7.3f s  %6.2f CPU s  %8d KB max RSS  (others: %5.2f CPU s)\n' \
            "$label" "$i" "$SECS" "$CPU" "$RSS" "$OTHERS"
        if [ -z "$BEST" ] || [ "$(awk -v a="$BEST" -v b="$SECS" 'BEGIN { print b < a }')" = 1 ]; then
            BEST=$SECS
            BEST_CPU=$CPU
            BEST_OTHERS=$OTHERS
        fi
        [ "$RSS" -gt "$PEAK" ] && PEAK=$RSS
        i=$((i + 1))
    done
}

mbps() { awk -v n="$BYTES" -v s="$1" 'BEGIN { printf "%.0f", n / 1e6 / s }'; }

echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(date -u +%Y-%m-%dT%H:%MZ), load average $(cut -d" " -f1-3 /proc/loadavg)"
echo "   gpuplan $VERSION"

for flavour in $FLAVOURS; do
    trace="$TRACE_DIR/gpuplan-bench-$flavour-s$SEED-${SIZE_MB}MB.csv"
    if [ ! -s "$trace" ]; then
        echo "== generate $trace"
        python3 bench/make_trace.py --out "$trace.part" --size-mb "$SIZE_MB" \
            --seed "$SEED" --time "$flavour"
        mv "$trace.part" "$trace"
    fi
    BYTES=$(wc -c <"$trace" | tr -d ' ')
    echo "== $flavour timestamps: $trace, $BYTES bytes"
    cat "$trace" >/dev/null # into the page cache for both readers
    best "wc -l" wc -l "$trace"
    wc_s=$BEST wc_cpu=$BEST_CPU wc_oth=$BEST_OTHERS wc_rss=$PEAK
    ROWS=$(($(awk '{ print $1 }' "$TMPD/out") - 1))
    best "gpuplan ($JOBS threads)" "$GP" validate --trace "$trace" --quiet
    gp_s=$BEST gp_cpu=$BEST_CPU gp_oth=$BEST_OTHERS gp_rss=$PEAK
    best "gpuplan (1 thread)" "$GP" validate --trace "$trace" --quiet --threads 1
    gp1_s=$BEST gp1_cpu=$BEST_CPU gp1_oth=$BEST_OTHERS gp1_rss=$PEAK
    if [ "$DUCKDB" = 1 ]; then
        best "duckdb ($JOBS threads)" node "$DUCKDB_DIR/ingest_duckdb.mjs" "$trace" "$JOBS" "$flavour"
        dk_s=$BEST dk_cpu=$BEST_CPU dk_oth=$BEST_OTHERS dk_rss=$PEAK
        echo "   duckdb: $(cat "$TMPD/out")"
        best "duckdb (1 thread)" node "$DUCKDB_DIR/ingest_duckdb.mjs" "$trace" 1 "$flavour"
        dk1_s=$BEST dk1_cpu=$BEST_CPU dk1_oth=$BEST_OTHERS dk1_rss=$PEAK
    fi
    # the summary (not timed): shows the file is read in full and valid
    "$GP" validate --trace "$trace" 2>/dev/null | grep -E '^(window|rows|job runs):' |
        sed 's/^/   /'
    echo "-- $flavour: $BYTES bytes, $ROWS rows, best of $RUNS, file in page cache"
    printf '   %-20s %8s %7s %8s %9s %10s %12s %9s\n' "" "wall s" "MB/s" "x wc -l" \
        "CPU s" "MB/CPU-s" "max RSS KB" "others"
    line() { # label wall cpu rss others
        awk -v l="$1" -v s="$2" -v c="$3" -v r="$4" -v o="$5" -v n="$BYTES" -v w="$wc_s" 'BEGIN {
            printf "   %-20s %8.3f %7.0f %8.3f %9.2f %10.0f %12d %9.2f\n",
                l, s, n / 1e6 / s, w / s, c, (c > 0 ? n / 1e6 / c : 0), r, o }'
    }
    line "wc -l" "$wc_s" "$wc_cpu" "$wc_rss" "$wc_oth"
    line "gpuplan ($JOBS threads)" "$gp_s" "$gp_cpu" "$gp_rss" "$gp_oth"
    line "gpuplan (1 thread)" "$gp1_s" "$gp1_cpu" "$gp1_rss" "$gp1_oth"
    if [ "$DUCKDB" = 1 ]; then
        line "duckdb ($JOBS threads)" "$dk_s" "$dk_cpu" "$dk_rss" "$dk_oth"
        line "duckdb (1 thread)" "$dk1_s" "$dk1_cpu" "$dk1_rss" "$dk1_oth"
    fi
    echo "   (x wc -l: the reader's MB/s over wc -l's; others: CPU seconds the"
    echo "   rest of the machine used during that run, 0 on an idle machine;"
    echo "   duckdb's wall time is node's whole process, its start included)"
    if [ "$DUCKDB" = 1 ]; then
        awk -v g="$gp_s" -v g1="$gp1_s" -v d="$dk_s" -v d1="$dk1_s" -v n="$BYTES" 'BEGIN {
            r = n / 1e6 / g
            printf "   gpuplan / duckdb: %.2fx (%d threads), %.2fx (1 thread)\n", d / g, '"$JOBS"', d1 / g1
            printf "   target (#40) 1.5x duckdb and 800 MB/s on all threads: %s\n",
                (d / g >= 1.5 && r >= 800 ? "met" : "not met") }'
    fi
done
