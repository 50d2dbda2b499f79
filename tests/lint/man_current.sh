#!/bin/sh
# The man pages in man/ are what gpuplan-man writes from the command table
# (the text --help prints): a usage text changed without them fails here
# until `cmake --build build --target man` writes them again.
set -eu
gen=${1:?usage: man_current.sh GPUPLAN-MAN MAN_DIR}
dir=${2:?usage: man_current.sh GPUPLAN-MAN MAN_DIR}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$gen" "$out"
if ! diff -r "$dir" "$out"; then
    echo "man/ is not current: cmake --build build --target man" >&2
    exit 1
fi
n=$(ls "$out" | wc -l)
echo "man_current: $n passed, 0 failed"
