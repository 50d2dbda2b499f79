#!/bin/sh
# cmake --install puts the program, the bundled catalogs and sample and the
# man pages under a prefix, and the installed program finds its data
# beside itself (prefix/share/gpuplan), run from another folder with no
# GPUPLAN_DATA_DIR: `gpuplan recommend` on the bundled sample works.  The
# build's own program, copied elsewhere with no data beside it, falls back
# to the source tree it was built from.
set -eu
bin=$1
src=$2
build=$(dirname "$bin")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cmake --install "$build" --prefix "$dir/prefix" > /dev/null
for f in bin/gpuplan share/gpuplan/pricing/aws/us-east-1.json \
    share/gpuplan/scenarios/sample/trace.csv \
    share/gpuplan/scenarios/sample/scenario.json share/man/man1/gpuplan.1 \
    share/man/man1/gpuplan-recommend.1; do
    [ -e "$dir/prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
mkdir "$dir/elsewhere"
cd "$dir/elsewhere"
unset GPUPLAN_DATA_DIR
"$dir/prefix/bin/gpuplan" recommend > out.txt 2> err.txt || {
    echo "installed recommend failed:"; cat err.txt; exit 1; }
grep -qF "using the bundled sample $dir/prefix/share/gpuplan/scenarios/sample/trace.csv" err.txt || {
    echo "installed gpuplan did not read its own sample:"; cat err.txt; exit 1; }
grep -q '^gpuplan recommend: ' out.txt || { echo "no table:"; cat out.txt; exit 1; }
echo "install_prefix: 1 passed, 0 failed"
