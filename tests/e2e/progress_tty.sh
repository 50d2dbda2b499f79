#!/bin/sh
# SPEC section 1: long runs show progress on stderr when it is a terminal;
# --quiet silences it.  script(1) (util-linux, Essential on Debian) gives
# the run a pseudo-terminal; GPUPLAN_PROGRESS_AFTER=0 shows the line at
# once, where a real run waits a second.  The progress line ends with a
# carriage return and an erase, so the notes after it start clean.
set -eu
bin=$1
command -v script >/dev/null 2>&1 || exit 77
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export GPUPLAN_PROGRESS_AFTER=0
script -qc "'$bin' simulate > /dev/null" /dev/null > "$out/tty.txt"
grep -aq 'gpuplan: reading the trace 100%' "$out/tty.txt" || {
    echo "no progress on a terminal:"; cat "$out/tty.txt"; exit 1; }
script -qc "'$bin' simulate --quiet > /dev/null" /dev/null > "$out/quiet.txt"
if grep -aq 'reading the trace' "$out/quiet.txt"; then
    echo "progress despite --quiet"; exit 1
fi
"$bin" simulate > /dev/null 2> "$out/pipe.txt"
if grep -aq 'reading the trace' "$out/pipe.txt"; then
    echo "progress on stderr that is not a terminal"; exit 1
fi
echo "progress_tty: 3 passed, 0 failed"
