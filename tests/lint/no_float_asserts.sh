#!/bin/sh
# Fails if a unit test in the folder $1 (tests/unit) compares with cmocka's
# assert_float_equal or assert_float_not_equal.  cmocka 1.1.5 casts both
# values and the tolerance to float before comparing, so a check of
# $2,731.54 to 1e-9 is really one to float's 2^-12, and of a Unix time to
# 128 seconds.  Compare doubles with assert_close from tests/unit/check.h.
dir=${1:?usage: no_float_asserts.sh DIR}
set -- "$dir"/*.c
if [ ! -e "$1" ]; then
    echo "no_float_asserts.sh: no .c files in $dir" >&2
    exit 2
fi
if grep -HnE 'assert_float_(not_)?equal' "$@"; then
    echo "compare doubles with assert_close (tests/unit/check.h): cmocka's" \
        "assert_float_equal compares in float" >&2
    exit 1
fi
exit 0
