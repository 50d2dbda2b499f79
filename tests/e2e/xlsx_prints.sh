#!/bin/sh
# The workbook prints (#39): LibreOffice prints the bundled sample's
# workbook (what reports/sample.xlsx holds) in at most 14 pages, every
# page A4 landscape (842 x 595 points, wider than tall) and every sheet
# one page wide; and text never overlaps, so every row with a cell whose
# text wraps has a height of its own, at least the lines its text needs.
#
# Pages: 12 sheets of one page each (Budgets the twelfth, #38),
# Forecast's daily table (105 days: 14 of history, 91 of forecast) on
# two, and its hourly rows on a hidden data sheet, which is not printed:
# 13; one more since Summary and Plans also list the scenario's five
# strategies (#38): 14.  Counted by pdfinfo (poppler) when
# installed, else by the PDF's page objects ("/Type /Page", not "/Pages").
#
# Lines a wrapped text needs, at the least: its characters over what a
# line can hold, which is at most 1.5 characters per unit of column width
# (Excel's unit is a digit's width; no run of text in the default font is
# narrower on average), so the height must be at least 15 points (the
# default font's line) times ceil(len / (1.5 x width)).  The same checks
# on simulate's and forecast's workbooks, which are not paged.
# Skipped (exit 77) when LibreOffice is not installed.
set -eu
bin=$1
src=$2
GPUPLAN_TODAY=${GPUPLAN_TODAY:-2026-11-21}
export GPUPLAN_TODAY
if ! command -v soffice > /dev/null 2>&1; then
    echo "xlsx_prints: SKIP: soffice (LibreOffice) is not installed"
    exit 77
fi
. "$src/tests/e2e/lib/openpyxl.sh"
need_openpyxl xlsx_prints
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$bin" recommend --quiet --out "$out/sample.xlsx" > /dev/null
"$bin" simulate --quiet --out "$out/sim.xlsx" \
    --pricing "$src/tests/data/engine/aws-test.json" \
    --trace "$src/tests/e2e/data/xlsx-jobs.csv" \
    --scenario "$src/tests/e2e/data/xlsx-jobs.json" > /dev/null
"$bin" forecast --quiet --out "$out/fc.xlsx" > /dev/null
# a profile of its own, so that parallel runs do not share one
soffice --headless --norestore -env:UserInstallation="file://$out/profile" \
    --convert-to pdf --outdir "$out" "$out/sample.xlsx" \
    > "$out/soffice.log" 2>&1 || {
    cat "$out/soffice.log" >&2
    exit 1
}
[ -s "$out/sample.pdf" ] || {
    cat "$out/soffice.log" >&2
    echo "xlsx_prints: LibreOffice wrote no PDF" >&2
    exit 1
}
pages=
if command -v pdfinfo > /dev/null 2>&1; then
    pages=$(pdfinfo "$out/sample.pdf" | sed -n 's/^Pages: *//p')
fi
"$PY" - "$out" "$pages" <<'PYEOF'
import math, re, sys
import openpyxl
from openpyxl.utils import get_column_letter

d, pdfinfo_pages = sys.argv[1], sys.argv[2]
failed = checks = 0


def check(ok, what):
    global failed, checks
    checks += 1
    if not ok:
        failed += 1
        print("FAIL " + what)


# ---- the PDF: pages and their size ----
pdf = open(d + "/sample.pdf", "rb").read()
objects = re.findall(rb"\d+\s+0\s+obj(.*?)endobj", pdf, re.S)
box = rb"/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]"
root = [o for o in objects if re.search(rb"/Type\s*/Pages\b", o)]
inherited = re.search(box, root[0]) if root else None
sizes = []
for o in objects:
    if re.search(rb"/Type\s*/Page(?![s\w])", o):
        m = re.search(box, o) or inherited
        x0, y0, x1, y1 = (float(v) for v in m.groups())
        sizes.append((x1 - x0, y1 - y0))
n = int(pdfinfo_pages) if pdfinfo_pages else len(sizes)
check(len(sizes) == n, "pdfinfo says %d pages, the PDF holds %d page objects"
      % (n, len(sizes)))
check(0 < n <= 14, "the sample workbook prints on %d pages, not 1 to 14" % n)
for i, (w, h) in enumerate(sizes):
    # A4 landscape: 297 x 210 mm = 841.9 x 595.3 points
    check(abs(w - 841.9) < 1 and abs(h - 595.3) < 1,
          "page %d is %.1f x %.1f points, not A4 landscape" % (i + 1, w, h))

# ---- the workbooks: page setup and wrapped rows ----
for name in ("sample.xlsx", "sim.xlsx", "fc.xlsx"):
    wb = openpyxl.load_workbook(d + "/" + name)
    for ws in wb:
        where = "%s %s" % (name, ws.title)
        ps = ws.page_setup
        check(ps.orientation == "landscape", where + ": not landscape")
        check(str(ps.paperSize) == "9", where + ": paper %r, not A4"
              % ps.paperSize)
        check(ws.sheet_properties.pageSetUpPr.fitToPage
              and ps.fitToWidth in (None, 1),
              where + ": not fitted one page wide")
        check(bool(ws.print_title_rows), where + ": no rows repeated")
        merged = {r.min_row * 10000 + r.min_col: r for r in ws.merged_cells.ranges}
        for row in ws.iter_rows():
            for c in row:
                if not (isinstance(c.value, str) and c.alignment.wrap_text):
                    continue
                span = merged.get(c.row * 10000 + c.column)
                cols = (range(span.min_col, span.max_col + 1) if span
                        else [c.column])
                width = sum(ws.column_dimensions[get_column_letter(k)].width
                            or 8.43 for k in cols)
                h = ws.row_dimensions[c.row].height
                need = 15 * math.ceil(len(c.value) / (1.5 * width))
                check(h is not None and h >= need,
                      "%s!%s: %d characters wrapped in width %.1f, row "
                      "height %r (at least %d)"
                      % (where, c.coordinate, len(c.value), width, h, need))
print("xlsx_prints: %d passed, %d failed (%d pages)"
      % (checks - failed, failed, n))
sys.exit(1 if failed else 0)
PYEOF
