#!/bin/sh
# Text from the trace that a spreadsheet would run as a formula (CWE-1236:
# a cell starting with =, +, -, @) reaches the CSV tables with a leading
# apostrophe, as OWASP advises, so that Excel and LibreOffice show it as
# the text it is; quoting alone did not stop them.  It used to reach
# chargeback.csv as "=HYPERLINK(...)".  The team "ml=core" has no formula
# start and stays as written.  Then LibreOffice opens chargeback.csv and
# its team cells must be text, not a computed value.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/t.csv" <<'CSV'
timestamp,instance_type,instances,workload,team,project,job_id
2026-01-05T00:00:00Z,g5.xlarge,1,inference,"=HYPERLINK(""http://x"",""y"")",+p,-j
2026-01-05T00:00:00Z,g5.xlarge,1,inference,@SUM(1+1),ml=core,j2
CSV
"$bin" simulate --quiet --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$dir/t.csv" --csv "$dir/out" > /dev/null
fail=0
has() { # the start of a line chargeback.csv must have
    if ! grep -qF "$1" "$dir/out/chargeback.csv"; then
        echo "chargeback.csv has no line starting: $1"
        cat "$dir/out/chargeback.csv"; fail=1
    fi
}
# strategy,team,project,workload,...: each formula start behind an
# apostrophe, inside the quotes; "ml=core" as written
has "\"baseline\",\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\",\"'+p\",inference,"
has "\"baseline\",\"'@SUM(1+1)\",\"ml=core\",inference,"
# no cell anywhere starts a formula: after a comma or at a line's start,
# an unquoted or quoted =, +, @ (a leading - is a number's sign only)
if grep -nE '(^|,)"?[=+@]' "$dir"/out/*.csv; then
    echo "a formula cell is left"; fail=1
fi
if command -v soffice >/dev/null 2>&1; then
    (cd "$dir/out" && HOME="$dir" soffice --headless --convert-to \
        csv:"Text - txt - csv (StarCalc)":44,34,76,1,,0,false,true,false,false \
        --outdir "$dir/lo" chargeback.csv > /dev/null 2>&1) || true
    if [ -f "$dir/lo/chargeback.csv" ]; then
        # LibreOffice wrote back what it read: a formula would come back
        # as its value ("y", 2), text as the text
        grep -qF "=HYPERLINK" "$dir/lo/chargeback.csv" \
            || { echo "LibreOffice ran the formula:"; cat "$dir/lo/chargeback.csv"; fail=1; }
        grep -qF "@SUM(1+1)" "$dir/lo/chargeback.csv" \
            || { echo "LibreOffice ran @SUM"; fail=1; }
    fi
fi
[ "$fail" -eq 0 ] && echo "csv_formula_cells: 1 passed, 0 failed"
exit $fail
