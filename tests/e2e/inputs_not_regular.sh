#!/bin/sh
# An input named by a path that is not a regular file is refused, at once
# and in little memory, with a message that names it (issue #42): a
# catalog whose spot history named /dev/zero grew to 23.8 GB until the
# kernel killed it, and --scenario /dev/zero and --pricing /dev/zero did
# the same; a named pipe with no writer would hang the open.  For every
# file an input option or an importer reads (--trace, --pricing,
# --scenario, each importer's inputs), each of
#   /dev/zero      "is not a regular file (a device)"
#   a named pipe   "is not a regular file (a pipe)" (nothing writes to it)
#   a folder       "is not a regular file (a folder)" (--pricing excepted:
#                  a folder of catalogs, here an empty one)
# and a spot history must name a .csv file inside the catalog's folder:
# /dev/zero or ../x.csv by name, or a link out of the folder, is refused.
# must end with exit status 1 in under a second (a hang is stopped after
# 5 s), run under a 100 MB address-space limit (ulimit -v).  Then the
# size limits (docs/edge-cases.md): a regular file past them (sparse, so
# nothing is written) is refused before it is read, and standard input past
# a catalog's 64 MiB stops there.
set -eu
bin=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() {
    echo "inputs_not_regular: $*" >&2
    exit 1
}
export GPUPLAN_TODAY=2026-11-21
trace=$src/tests/e2e/data/one-pool.csv
pricing=$src/pricing/aws/us-east-1.json
mkfifo "$dir/fifo"
mkdir "$dir/folder"
history=$src/tests/golden/catalog-history-file-missing/cat.json

# AddressSanitizer reserves terabytes of address space for its shadow
# memory, so a sanitizer build runs without the address-space limit (the
# normal build checks it); everything else is checked the same
vlimit=102400
vlimit_stdin=204800
if ldd "$bin" 2>/dev/null | grep -q libasan; then
    vlimit=unlimited
    vlimit_stdin=unlimited
fi

# refused WHAT EXPECTED COMMAND...: runs the command under the limits and
# checks its status, time and message.
refused() {
    what=$1
    expected=$2
    shift 2
    start=$(date +%s%N)
    if (ulimit -v "$vlimit"; timeout 5 "$@" < /dev/null > /dev/null \
        2> "$dir/err"); then
        fail "$what: succeeded: $*"
    else
        st=$?
    fi
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    [ "$st" -eq 1 ] || fail "$what: exit status $st (124: hung): $*"
    [ "$ms" -lt 1000 ] || fail "$what: took $ms ms: $*"
    cat "$dir/err" >> "$dir/all-errors"
    grep -q -- "$expected" "$dir/err" ||
        fail "$what: expected \"$expected\", got: $(cat "$dir/err")"
}

for kind in zero fifo folder; do
    case $kind in
    zero) path=/dev/zero why="(a device)" ;;
    fifo) path=$dir/fifo why="(a pipe)" ;;
    folder) path=$dir/folder why="(a folder)" ;;
    esac
    msg="$path: is not a regular file $why"
    refused "--trace $kind" "$msg" \
        "$bin" validate --trace "$path" --pricing "$pricing"
    refused "--scenario $kind" "$msg" \
        "$bin" validate --trace "$trace" --pricing "$pricing" \
        --scenario "$path"
    if [ "$kind" = folder ]; then
        refused "--pricing $kind" "no catalogs" \
            "$bin" validate --trace "$trace" --pricing "$path"
    else
        refused "--pricing $kind" "$msg" \
            "$bin" validate --trace "$trace" --pricing "$path"
    fi
    for importer in nvidia-smi dcgm prometheus aws-cur focus aws-offer; do
        refused "import $importer $kind" "$msg" \
            "$bin" import "$importer" "$path"
    done
    refused "import spot-advisor $kind" "$msg" \
        "$bin" import spot-advisor "$path" "$pricing"
done

# a catalog's spot history must be a .csv file in the catalog's folder
# (or below it): a pipe or a folder there is refused as above, and a path
# out of the folder is refused before anything is opened, so that no line
# of a file outside (/etc/shadow) is ever echoed
mkfifo "$dir/fifo.csv"
mkdir "$dir/folder.csv"
ln -s /dev/zero "$dir/zero.csv"
ln -s /etc/passwd "$dir/passwd.csv"
mkdir "$dir/sub"
history_refused() {
    sed "s#\"g5-history.csv\"#\"$1\"#" "$history" > "$dir/cat.json"
    refused "spot history $1" "history file \"$1\": $2" \
        "$bin" validate --trace "$trace" --pricing "$dir/cat.json"
}
history_refused fifo.csv "is not a regular file (a pipe)"
history_refused folder.csv "is not a regular file (a folder)"
history_refused zero.csv "is outside the catalog's folder"
history_refused passwd.csv "is outside the catalog's folder"
history_refused /dev/zero "must name a file in the catalog's folder"
history_refused ../fifo.csv "must name a file in the catalog's folder"
history_refused sub/../../x.csv "must name a file in the catalog's folder"
history_refused /etc/shadow "must name a file in the catalog's folder"
history_refused sub "must be a CSV file named \*.csv"
if grep -q "root:" "$dir/all-errors"; then
    fail "a line of /etc/passwd was echoed"
fi

# sizes: a sparse file one byte past each limit
truncate -s $((64 * 1048576 + 1)) "$dir/big.json"
refused "--pricing too large" \
    "big.json: is larger than 64 MiB, the most a catalog may be" \
    "$bin" validate --trace "$trace" --pricing "$dir/big.json"
refused "--scenario too large" \
    "big.json: is larger than 64 MiB, the most a scenario may be" \
    "$bin" validate --trace "$trace" --pricing "$pricing" \
    --scenario "$dir/big.json"
truncate -s $((1024 * 1048576 + 1)) "$dir/big.csv"
refused "import too large" "big.csv: is larger than 1 GiB" \
    "$bin" import nvidia-smi "$dir/big.csv"

# standard input that never ends stops at the catalog's limit (the limit
# in memory, and a little more: this one runs under 200 MB)
if (ulimit -v "$vlimit_stdin"; head -c $((65 * 1048576)) /dev/zero |
    "$bin" validate --trace "$trace" --pricing - > /dev/null 2> "$dir/err")
then
    fail "--pricing - of 65 MiB succeeded"
fi
grep -q -- "-: is larger than 64 MiB, the most a catalog may be" "$dir/err" ||
    fail "--pricing - of 65 MiB: $(cat "$dir/err")"
exit 0
