#!/bin/sh
# The sample's workbook opened by LibreOffice (headless), a second reader
# that shares no code with libxlsxwriter or openpyxl, in one conversion:
#  - the workbook as written converts without error, every sheet intact;
#  - a copy whose formulas carry no cached values (openpyxl writes none)
#    and whose what-if inputs are changed is recalculated by LibreOffice:
#    every formula equals the program's number to the cent, and the
#    what-if block follows its inputs (check_xlsx.py recalc).
# Skipped (exit 77) only when LibreOffice is not installed; `sh build.sh
# test` installs it.
set -eu
bin=$1
src=$2
# "today" dates the catalogs' staleness warnings, which the workbook shows:
# pinned, so two runs either side of midnight still write the same bytes
GPUPLAN_TODAY=${GPUPLAN_TODAY:-2026-11-21}
export GPUPLAN_TODAY
if ! command -v soffice > /dev/null 2>&1; then
    echo "xlsx_libreoffice: SKIP: soffice (LibreOffice) is not installed"
    exit 77
fi
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_libreoffice
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" recommend --quiet --out "$out/sample.xlsx" > /dev/null
$PY "$src/tests/e2e/check_xlsx.py" strip "$out/sample.xlsx" "$out/stripped.xlsx"
# simulate's what-if (discount, change in demand) on a run that owns a
# reservation and adds a savings plan, so commitment charges are not 0
"$bin" simulate --quiet --out "$out/sim.xlsx" \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/xlsx-jobs.csv" \
    --scenario "$src/tests/e2e/data/xlsx-jobs.json" > /dev/null
$PY "$src/tests/e2e/check_xlsx.py" strip "$out/sim.xlsx" "$out/sim-stripped.xlsx"
# recommend's totals and what-if over the rows the plan buys (SUMIF on
# "In the plan"), with a renewal to let lapse left out of them
"$bin" recommend --quiet --out "$out/ren.xlsx" \
    --pricing "$src/tests/e2e/data/renewal-lapse-catalog.json" \
    --trace "$src/tests/e2e/data/renewal-lapse.csv" \
    --scenario "$src/tests/e2e/data/renewal-lapse.json" > /dev/null
$PY "$src/tests/e2e/check_xlsx.py" strip "$out/ren.xlsx" "$out/ren-stripped.xlsx"
mkdir "$out/lo"
soffice --headless --norestore -env:UserInstallation="file://$out/profile" \
    --convert-to 'xlsx:Calc MS Excel 2007 XML' --outdir "$out/lo" \
    "$out/sample.xlsx" "$out/stripped.xlsx" "$out/sim-stripped.xlsx" \
    "$out/ren-stripped.xlsx" \
    > "$out/soffice.log" 2>&1 || {
    cat "$out/soffice.log" >&2
    exit 1
}
for f in sample stripped sim-stripped ren-stripped; do
    [ -s "$out/lo/$f.xlsx" ] || {
        cat "$out/soffice.log" >&2
        echo "LibreOffice did not convert $f.xlsx" >&2
        exit 1
    }
done
$PY "$src/tests/e2e/check_xlsx.py" recalc "$out/sample.xlsx" \
    "$out/lo/stripped.xlsx" "$out/lo/sample.xlsx"
$PY "$src/tests/e2e/check_xlsx.py" recalc "$out/sim.xlsx" \
    "$out/lo/sim-stripped.xlsx"
$PY "$src/tests/e2e/check_xlsx.py" recalc "$out/ren.xlsx" \
    "$out/lo/ren-stripped.xlsx"
