#!/bin/sh
# A workbook name ending in .XLSX (or .Xlsx, .xLsX) is a workbook: the
# extension was checked case-sensitively and "R.XLSX" was a usage error
# (exit 2).  simulate, recommend and forecast write it under the name as
# given, and nothing else is left in the folder.
set -eu
bin=$1
src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cat="$src/pricing/aws/us-east-1.json"
printf 'timestamp,step_s,instance_type,workload,instances\n2026-05-01T00:00:00Z,3600,g6e.xlarge,inference,2\n' \
    > "$out/one.csv"
mkdir "$out/w"
cd "$out/w"
"$bin" simulate --quiet --pricing "$cat" --trace "$out/one.csv" \
    --out R.XLSX > /dev/null
"$bin" recommend --quiet --pricing "$cat" --trace "$out/one.csv" \
    --out Plan.Xlsx > /dev/null
"$bin" forecast --quiet --trace "$out/one.csv" --pricing "$cat" \
    --horizon 2h --out F.xLsX > /dev/null
[ "$(ls | tr '\n' ' ')" = "F.xLsX Plan.Xlsx R.XLSX " ] || {
    echo "files: $(ls)" >&2
    exit 1
}
for f in R.XLSX Plan.Xlsx F.xLsX; do
    python3 -c 'import sys, zipfile; assert "xl/workbook.xml" in zipfile.ZipFile(sys.argv[1]).namelist()' "$f"
done
echo "xlsx_name_any_case: ok"
