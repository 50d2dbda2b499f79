# Sourced by the e2e scripts that check one run warning everywhere it is
# shown, after openpyxl.sh and need_openpyxl (it uses $PY).
# warned_once BIN DIR WANT ARGS...: simulate and recommend with ARGS each
# give WANT once as "gpuplan <command>: warning: WANT" on stderr, once in the JSON's
# inputs.warnings and once in the workbook's Summary; files go in DIR.
warned_once() {
    _bin=$1 _dir=$2 _want=$3
    shift 3
    for _cmd in simulate recommend; do
        "$_bin" $_cmd "$@" > /dev/null 2> "$_dir/$_cmd.err"
        _n=$(grep -cF "gpuplan $_cmd: warning: $_want" "$_dir/$_cmd.err" || true)
        [ "$_n" = 1 ] || { echo "$_cmd: $_n warnings" >&2;
                           cat "$_dir/$_cmd.err" >&2; exit 1; }
        "$_bin" $_cmd --quiet "$@" --json > "$_dir/$_cmd.json"
        "$_bin" $_cmd --quiet "$@" --out "$_dir/$_cmd.xlsx" > /dev/null
    done
    "$PY" - "$_dir" "$_want" <<'PYEOF'
import json, sys, openpyxl
d, want = sys.argv[1], sys.argv[2]
for cmd in ("simulate", "recommend"):
    w = json.load(open("%s/%s.json" % (d, cmd)))["inputs"]["warnings"]
    assert w.count(want) == 1, (cmd, w)
    summary = [r[0] for r in
               openpyxl.load_workbook("%s/%s.xlsx" % (d, cmd))["Summary"]
               .iter_rows(values_only=True) if r and isinstance(r[0], str)]
    assert summary.count(want) == 1, (cmd, summary)
PYEOF
}
