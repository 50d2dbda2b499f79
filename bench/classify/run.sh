#!/bin/sh
# The classify evaluation (bench/README.md, "Classify"): builds the labelled
# series from the shared real traces, strips the labels, runs
# `gpuplan classify`, and prints accuracy and the confusion matrix.
#
#   sh bench/classify/run.sh GPUPLAN_BINARY [DATA_DIR [WORK_DIR]]
#
# DATA_DIR defaults to ../shared/data next to the repository, WORK_DIR to
# /tmp/gpuplan-classify.  Also refits the model on the held-out folds
# (fit.py) so the coefficients in src/classify.c can be checked, and times
# classify --out over the whole set, checking that every row comes out once.
set -eu
export PYTHONDONTWRITEBYTECODE=1  # make_eval.py imports bench/backtest
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:?usage: run.sh GPUPLAN_BINARY [DATA_DIR [WORK_DIR]]}
data=${2:-$here/../../../shared/data}
work=${3:-/tmp/gpuplan-classify}
mkdir -p "$work"

python3 "$here/make_eval.py" "$data" "$work"
t0=$(date +%s.%N)
"$bin" classify --trace "$work/eval.csv" --json --quiet >"$work/out.json"
t1=$(date +%s.%N)
python3 "$here/evaluate.py" "$work/out.json" "$work/truth.csv"
echo
python3 "$here/fit.py" "$work/out.json" "$work/truth.csv"
echo
"$bin" classify --trace "$work/eval.csv" --out "$work/labeled.csv" \
    --quiet >/dev/null
t2=$(date +%s.%N)
rows_in=$(($(wc -l <"$work/eval.csv") - 1))
rows_out=$(($(wc -l <"$work/labeled.csv") - 1))
echo "classify --json: $(echo "$t1 - $t0" | bc) s; with --out: \
$(echo "$t2 - $t1" | bc) s; rows in $rows_in, out $rows_out"
test "$rows_in" -eq "$rows_out"
