#!/bin/sh
# build.sh: set up, build and run gpuplan on a fresh Debian machine.
#
#   sh build.sh run    install what is missing, build, run on the bundled sample
#   sh build.sh test   install what is missing, build, run every test, then the
#                      same tests under AddressSanitizer + UBSan
#   sh build.sh build  install what is missing and build (build/gpuplan)
#
# Installing needs root (apt-get); it is skipped when everything is present.
set -eu
cd "$(dirname "$0")"

PACKAGES="build-essential cmake pkg-config libgsl-dev libcsv-dev libjansson-dev
libxlsxwriter-dev libcmocka-dev libglpk-dev python3 python3-openpyxl"
# only `test` needs these: LibreOffice opens and recalculates the workbook
TEST_PACKAGES="libreoffice-calc-nogui"

install_missing() {
    missing=""
    for p in $PACKAGES; do
        dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    echo "build.sh: installing with apt-get:$missing"
    if [ "$(id -u)" != 0 ]; then
        echo "build.sh: need root to install:$missing" >&2
        exit 1
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null
}

JOBS=$(nproc 2>/dev/null || echo 2)

build() { # build DIR [cmake args...]: quiet unless it fails
    dir=$1
    shift
    log="$dir.log"
    mkdir -p "$dir"
    if ! { cmake -S . -B "$dir" -DGP_WERROR=ON "$@" &&
        cmake --build "$dir" -j "$JOBS"; } >"$log" 2>&1; then
        cat "$log" >&2
        echo "build.sh: the build failed (log: $log)" >&2
        exit 1
    fi
    echo "build.sh: built $dir/gpuplan"
}

case "${1:-run}" in
run)
    install_missing
    build build -DCMAKE_BUILD_TYPE=Release -DGP_TESTS=OFF
    ./build/gpuplan simulate
    ;;
test)
    PACKAGES="$PACKAGES $TEST_PACKAGES"
    install_missing
    build build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGP_TESTS=ON
    ctest --test-dir build --output-on-failure -j "$JOBS"
    build build-asan -DCMAKE_BUILD_TYPE=Asan -DGP_TESTS=ON
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --test-dir build-asan --output-on-failure -j "$JOBS"
    ;;
build)
    install_missing
    build build -DCMAKE_BUILD_TYPE=Release -DGP_TESTS=OFF
    ;;
*)
    echo "usage: sh build.sh [run|test|build]" >&2
    exit 2
    ;;
esac
