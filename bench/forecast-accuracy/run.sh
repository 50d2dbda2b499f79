#!/bin/sh
# run.sh: the forecaster on the shared real traces, each with its final
# week (ServeGen: final four days) held out; prints the accuracy table of
# bench/README.md, "Forecast", and the same at earlier cuts (accuracy.py
# --earlier), on 25 ServeGen clients one by one (--clients), and with two
# to eight days of history (--short); last, what each final hold-out
# allows a flat forecast (hindsight.py).
#
#   sh bench/forecast-accuracy/run.sh [DATA_DIR [OUT_DIR]]
#
# DATA_DIR: the shared data (default ../shared/data from the repository
# root); OUT_DIR: where the converted traces go (default
# /tmp/gpuplan-forecast-accuracy; nothing is written into the repository).
# GPUPLAN=path/to/gpuplan uses that binary; otherwise a Release gpuplan is
# built in build-bench/.
set -eu
export PYTHONDONTWRITEBYTECODE=1  # accuracy.py imports bench/backtest/convert.py
cd "$(dirname "$0")/../.."
ROOT=$(pwd)
DATA=${1:-$ROOT/../shared/data}
OUT=${2:-/tmp/gpuplan-forecast-accuracy}
mkdir -p "$OUT"

if [ -z "${GPUPLAN:-}" ]; then
    echo "== build (Release, build-bench/)" >&2
    cmake -S . -B build-bench -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build-bench --target gpuplan -j 2 >/dev/null
    GPUPLAN=$ROOT/build-bench/gpuplan
fi

echo "== convert the shared traces into $OUT" >&2
python3 bench/backtest/convert.py "$DATA" "$OUT" >&2

echo "== gpuplan $("$GPUPLAN" --version 2>/dev/null | head -1), $(git rev-parse --short HEAD 2>/dev/null || echo '?')$([ -z "$(git status --porcelain -- src 2>/dev/null)" ] || echo ' + uncommitted changes in src/')"
echo
python3 bench/forecast-accuracy/accuracy.py "$GPUPLAN" "$OUT" --earlier --clients "$DATA" --short
echo
python3 bench/forecast-accuracy/hindsight.py "$GPUPLAN" "$OUT"
