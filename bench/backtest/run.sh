#!/bin/sh
# run.sh: the recommender on real traces, in sample and out of sample.
# See bench/README.md, "Recommender backtests".
#
#   sh bench/backtest/run.sh [DATA_DIR [OUT_DIR]]
#
# DATA_DIR: the shared data (default ../shared/data from the repository
# root); OUT_DIR: where the converted traces and the JSON documents go
# (default /tmp/gpuplan-backtest; nothing is written into the repository).
# GPUPLAN=path/to/gpuplan uses that binary; otherwise a Release gpuplan is
# built in build-bench/.
#
# For every trace (Helios vc6YE and vcpDC, Philly, ServeGen m-large, each
# as converted by convert.py, and the bundled sample with its scenario):
#   in-sample   gpuplan recommend --json --quiet --trace F
#   backtest    the same with --train-until T, T about 70% into the span
# and then the same two runs with spot priced out of reach (a scenario with
# spot_price_factor 10), so that training traces show what the commitments
# alone do when routing training to spot is not available.  Last,
# check_optimum.py compares the plans on the single-pool traces with the
# exact 1-year optimum computed without gpuplan.  Every figure goes to
# stdout as Markdown tables; the JSON and text of every run stay in OUT_DIR.
set -eu
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
DATA=${1:-$ROOT/../shared/data}
OUT=${2:-/tmp/gpuplan-backtest}
mkdir -p "$OUT"

if [ -z "${GPUPLAN:-}" ]; then
    echo "== build (Release, build-bench/)" >&2
    cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build-bench --target gpuplan -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
    GPUPLAN=$ROOT/build-bench/gpuplan
fi

echo "== convert the shared traces into $OUT" >&2
python3 bench/backtest/convert.py "$DATA" "$OUT"

# spot priced out of reach: the recommender cannot route training to spot
cat > "$OUT/no-spot.json" <<'EOF'
{"schema": "gpuplan-scenario/1", "name": "no-spot",
 "adjustments": {"spot_price_factor": 10}}
EOF
python3 - "$ROOT/scenarios/sample/scenario.json" "$OUT/sample-no-spot.json" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
s["name"] = "sample-no-spot"
s.setdefault("adjustments", {})["spot_price_factor"] = 10
json.dump(s, open(sys.argv[2], "w"), indent=1)
EOF

now() { date +%s.%N; }

# run NAME TRAIN_UNTIL gpuplan-arguments...
run() {
    name=$1 cut=$2
    shift 2
    t0=$(now)
    "$GPUPLAN" recommend --json --quiet "$@" >"$OUT/$name.in.json" \
        2>"$OUT/$name.in.err" || { cat "$OUT/$name.in.err" >&2; exit 1; }
    t1=$(now)
    "$GPUPLAN" recommend --json --quiet "$@" --train-until "$cut" \
        >"$OUT/$name.oos.json" 2>"$OUT/$name.oos.err" ||
        { cat "$OUT/$name.oos.err" >&2; exit 1; }
    t2=$(now)
    echo "$t0 $t1 $t2" | awk '{printf "%.2f %.2f\n", $2 - $1, $3 - $2}' \
        >"$OUT/$name.seconds"
    # the text a planner reads, kept next to the JSON
    "$GPUPLAN" recommend --quiet "$@" --train-until "$cut" \
        >"$OUT/$name.oos.txt" 2>&1 || true
    "$GPUPLAN" recommend --quiet "$@" >"$OUT/$name.in.txt" 2>&1 || true
}

S=scenarios/sample
for variant in "" "-no-spot"; do
    scn=""
    [ -n "$variant" ] && scn="--scenario $OUT/no-spot.json"
    # shellcheck disable=SC2086
    run "helios-vc6YE$variant" 2026-05-22T00:00:00Z $scn --trace "$OUT/helios-vc6YE.csv"
    # shellcheck disable=SC2086
    run "helios-vcpDC$variant" 2026-05-22T00:00:00Z $scn --trace "$OUT/helios-vcpDC.csv"
    # shellcheck disable=SC2086
    run "philly$variant" 2026-11-24T00:00:00Z $scn --trace "$OUT/philly.csv"
    # shellcheck disable=SC2086
    run "servegen-m-large$variant" 2026-05-11T00:00:00Z $scn --trace "$OUT/servegen-m-large.csv"
    if [ -n "$variant" ]; then
        run "sample$variant" 2026-05-08T00:00:00Z --scenario "$OUT/sample-no-spot.json" --trace "$S/trace.csv"
    else
        run "sample" 2026-05-08T00:00:00Z --scenario "$S/scenario.json" --trace "$S/trace.csv"
    fi
done

echo "== gpuplan $("$GPUPLAN" --version 2>/dev/null | head -1), $(git rev-parse --short HEAD 2>/dev/null || echo '?')$([ -z "$(git status --porcelain -- src models 2>/dev/null)" ] || echo ' + uncommitted changes in src/ or models/')"
echo
echo "As recommended (training may be routed to spot):"
echo
python3 bench/backtest/table.py "$OUT" helios-vc6YE helios-vcpDC philly \
    servegen-m-large sample
echo
echo "Spot priced out of reach (spot_price_factor 10): commitments only:"
echo
python3 bench/backtest/table.py "$OUT" helios-vc6YE-no-spot \
    helios-vcpDC-no-spot philly-no-spot servegen-m-large-no-spot \
    sample-no-spot
echo
echo "Independent check (single-pool traces, commitments only): gpuplan's"
echo "plan against the exact 1-year optimum computed by check_optimum.py:"
echo
python3 bench/backtest/check_optimum.py pricing/aws/us-east-1.json "$OUT" \
    helios-vc6YE-no-spot helios-vcpDC-no-spot philly-no-spot \
    servegen-m-large
echo
echo "JSON and text output of every run: $OUT/<trace>.{in,oos}.{json,txt}"
