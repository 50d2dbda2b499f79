# Sourced by the e2e scripts that read a workbook back with openpyxl.
# need_openpyxl NAME: sets PY to a python3 that can import openpyxl (the
# pyenv one on PATH or Debian's python3-openpyxl), or fails test NAME.
need_openpyxl() {
    PY=
    for p in python3 /usr/bin/python3; do
        if "$p" -c 'import openpyxl' 2>/dev/null; then
            PY=$p
            return 0
        fi
    done
    echo "$1: python3 with openpyxl is needed" >&2
    exit 1
}
