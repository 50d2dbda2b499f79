/*
 * writer_xlsx.c: the finance-ready Excel workbook (SPEC section 6), with
 * libxlsxwriter: the cell helpers and formats every sheet uses, and
 * gp_xlsx_write, which writes the sheets of writer_xlsx_*.c in order into
 * a temporary file renamed into place once whole.  What the workbook holds
 * and why it is written so: docs/design/report.md.
 */
#include "writer_xlsx.h"
#include "forecast.h"
#include "idle.h"
#include "recommend.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- cells ----------------------------------------------------------------
 */

static void widen(xl_sheet *s, size_t row, size_t col, double w)
{
    if (row > s->max_row)
        s->max_row = row;
    if (col < XL_MAX_COLS && w > s->width[col])
        s->width[col] = w;
}

/* Excel holds at most this many characters in a cell; libxlsxwriter
 * refuses a longer string and leaves the cell empty. */
#define XL_STR_MAX 32767

/* Writes v, cut to its first XL_STR_MAX characters (UTF-8, never inside a
 * character) when longer, so that a long label shows truncated rather
 * than not at all. */
void gp_xl_text_capped(xl_sheet *s, size_t row, size_t col, const char *v,
                       lxw_format *f)
{
    lxw_worksheet *ws = s->ws;
    size_t chars = 0, i = 0;
    for (; v[i] && chars <= XL_STR_MAX; i++)
        if (((unsigned char)v[i] & 0xC0) != 0x80 && ++chars > XL_STR_MAX)
            break;
    if (!v[i]) {
        worksheet_write_string(ws, (lxw_row_t)row, (lxw_col_t)col, v, f);
        return;
    }
    char *cut = gp_xl_calloc(s->x, i + 1, 1);
    if (!cut)
        return;
    memcpy(cut, v, i);
    cut[i] = '\0';
    worksheet_write_string(ws, (lxw_row_t)row, (lxw_col_t)col, cut, f);
    gp_free(cut);
}

void *gp_xl_calloc(gp_xl *x, size_t n, size_t size)
{
    void *p = gp_calloc(n ? n : 1, size);
    if (!p)
        x->nomem = true;
    return p;
}

/* Keeps a copy of wrapping text for gp_xl_fit to size (or, a paragraph,
 * to write); a failed copy marks the workbook out of memory. */
static void keep_wrapped(xl_sheet *s, size_t row, size_t col, const char *v,
                         lxw_format *f, bool para, bool bold)
{
    if (s->n_wrapped == s->cap_wrapped) {
        size_t cap = s->cap_wrapped ? 2 * s->cap_wrapped : 16;
        xl_wrapped *more = gp_realloc(s->wrapped, cap * sizeof *more);
        if (!more) {
            s->x->nomem = true;
            return;
        }
        s->wrapped = more;
        s->cap_wrapped = cap;
    }
    char *text = gp_strdup(v);
    if (!text) {
        s->x->nomem = true;
        return;
    }
    s->wrapped[s->n_wrapped++] = (xl_wrapped){row, col, text, f, para, bold};
    if (row > s->max_row)
        s->max_row = row;
}

void gp_xl_wrap(xl_sheet *s, size_t row, size_t col, const char *v,
                lxw_format *f, double max_width)
{
    double w = (double)strlen(v) + 1.5;
    gp_xl_text_capped(s, row, col, v, f);
    widen(s, row, col, w < max_width ? w : max_width);
    keep_wrapped(s, row, col, v, f, false, false);
}

void gp_xl_para(xl_sheet *s, size_t row, const char *v, lxw_format *f)
{
    keep_wrapped(s, row, 0, v, f, true, false);
}

void gp_xl_text(xl_sheet *s, size_t row, size_t col, const char *v,
                lxw_format *f)
{
    gp_xl_text_capped(s, row, col, v, f);
    widen(s, row, col, (double)strlen(v) + 1.5);
}

/* How wide a number shows in its format: digits, separators, sign. */
static double num_width(double v)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%.2f", fabs(v));
    return n + (n - 3) / 3 + 3.5;
}

void gp_xl_num(xl_sheet *s, size_t row, size_t col, double v, lxw_format *f)
{
    if (!isfinite(v)) {
        worksheet_write_blank(s->ws, (lxw_row_t)row, (lxw_col_t)col, f);
        return;
    }
    worksheet_write_number(s->ws, (lxw_row_t)row, (lxw_col_t)col, v, f);
    widen(s, row, col, num_width(v));
}

void gp_xl_ledger_head(gp_xl *x, xl_sheet *s, size_t row, const gp_ledger *l)
{
    gp_xl_text(s, row, 0, l->strategy, x->f.text);
    gp_xl_num(s, row, 1, l->total_cost, x->f.money);
    gp_xl_num(s, row, 2, l->all_on_demand_cost, x->f.money);
    gp_xl_num(s, row, 3, l->savings, x->f.money);
    gp_xl_num(s, row, 4, l->savings_pct, x->f.pct);
}

void gp_xl_formula(xl_sheet *s, size_t row, size_t col, const char *formula,
                   double value, lxw_format *f)
{
    worksheet_write_formula_num(s->ws, (lxw_row_t)row, (lxw_col_t)col, formula,
                                f, isfinite(value) ? value : 0);
    widen(s, row, col, num_width(value));
}

void gp_xl_cell(char *buf, size_t row, size_t col, bool fixed)
{
    char name[16];
    size_t n = 0;
    col++;
    while (col > 0 && n < sizeof name - 1) {
        name[n++] = (char)('A' + (col - 1) % 26);
        col = (col - 1) / 26;
    }
    char letters[16];
    for (size_t i = 0; i < n; i++)
        letters[i] = name[n - 1 - i];
    letters[n] = '\0';
    snprintf(buf, XL_CELL_SIZE, fixed ? "$%s$%zu" : "%s%zu", letters, row + 1);
}

double gp_xl_when(double seconds)
{
    return seconds / 86400.0 + 25569.0;
}

void gp_xl_sheet_new(gp_xl *x, xl_sheet *s, const char *name)
{
    memset(s, 0, sizeof *s);
    s->x = x;
    snprintf(s->name, sizeof s->name, "%s", name);
    s->ws = workbook_add_worksheet(x->wb, name);
    s->repeat_last = 1;
    worksheet_set_landscape(s->ws);
}

void gp_xl_table(gp_xl *x, xl_sheet *s, size_t first, size_t last,
                 size_t first_col, const char *const *headers, size_t n_cols)
{
    lxw_table_column cols[XL_MAX_COLS];
    lxw_table_column *list[XL_MAX_COLS + 1];
    lxw_table_options opt;
    char name[32];

    if (n_cols > XL_MAX_COLS || last <= first)
        return;
    memset(cols, 0, sizeof cols);
    for (size_t i = 0; i < n_cols; i++) {
        cols[i].header = (char *)headers[i];
        cols[i].header_format = x->f.header;
        list[i] = &cols[i];
        /* headers wrap at 12 characters, so long ones need no more */
        double w = (double)strlen(headers[i]) + 4;
        widen(s, first, first_col + i, w < 12 ? w : 12);
        keep_wrapped(s, first, first_col + i, headers[i], x->f.header, false,
                     true);
    }
    /* a table right under the heading: its header is printed on every
     * page with the heading */
    if (first <= 4 && s->repeat_last < first)
        s->repeat_last = first;
    list[n_cols] = NULL;
    memset(&opt, 0, sizeof opt);
    snprintf(name, sizeof name, "Table%d", ++x->n_tables);
    opt.name = name;
    opt.style_type = LXW_TABLE_STYLE_TYPE_MEDIUM;
    opt.style_type_number = 2;
    opt.columns = list;
    worksheet_add_table(s->ws, (lxw_row_t)first, (lxw_col_t)first_col,
                        (lxw_row_t)last, (lxw_col_t)(first_col + n_cols - 1),
                        &opt);
}

/* The lines text takes wrapped at word breaks in a column `width`
 * characters wide (Excel's unit: the width of a digit; a letter of text
 * in the default font runs about a tenth narrower, bold about as wide,
 * and a cell keeps some padding).  Characters are counted, not bytes. */
static size_t wrapped_lines(const char *text, double width, bool bold)
{
    double room = width * (bold ? 1.0 : 1.1) - 1.5;
    size_t cap = room > 1 ? (size_t)room : 1, lines = 1, used = 0;

    for (const char *p = text; *p;) {
        if (*p == '\n' || *p == ' ') {
            if (*p == '\n') {
                lines++;
                used = 0;
            }
            p++;
            continue;
        }
        size_t word = 0;
        for (; *p && *p != ' ' && *p != '\n'; p++)
            word += ((unsigned char)*p & 0xC0) != 0x80;
        if (used > 0 && used + 1 + word > cap) {
            lines++;
            used = 0;
        }
        used += used > 0 ? word + 1 : word;
        for (; used > cap; used -= cap) /* a word longer than a line */
            lines++;
    }
    return lines;
}

static int wrapped_by_row(const void *a, const void *b)
{
    const xl_wrapped *x = a, *y = b;
    return (x->row > y->row) - (x->row < y->row);
}

/* The last column the sheet's paragraphs span, and their width: every
 * column with a width, and at least 90 characters' worth. */
static size_t para_span(const xl_sheet *s, double *width)
{
    size_t last = 0;
    double total = 0;
    for (size_t c = 0; c < XL_MAX_COLS; c++)
        if (s->width[c] > 0)
            last = c;
    for (size_t c = 0; c <= last; c++)
        total += s->width[c] > 0 ? (s->width[c] < 60 ? s->width[c] : 60)
                                 : 8.43;
    for (; total < 90; total += 8.43)
        last++;
    *width = total;
    return last;
}

/* Writes the paragraphs and sets the height of every row whose text
 * wraps: 15 points a line (the default font's) and 1 for the descenders
 * of the last, the most any of its cells needs (so never the default 15,
 * which a reader may size again); frees what was kept. */
static void fit_rows(xl_sheet *s)
{
    double span_width;
    size_t span = para_span(s, &span_width);

    if (s->n_wrapped > 1)
        qsort(s->wrapped, s->n_wrapped, sizeof *s->wrapped, wrapped_by_row);
    for (size_t i = 0; i < s->n_wrapped;) {
        size_t row = s->wrapped[i].row;
        double h = row < 8 ? s->height[row] : 0;
        for (; i < s->n_wrapped && s->wrapped[i].row == row; i++) {
            xl_wrapped *w = &s->wrapped[i];
            double cw = w->para ? span_width
                        : w->col < XL_MAX_COLS && s->width[w->col] > 0
                            ? (s->width[w->col] < 60 ? s->width[w->col] : 60)
                            : 8.43;
            double need =
                15.0 * (double)wrapped_lines(w->text, cw, w->bold) + 1;
            h = need > h ? need : h;
            if (w->para && span > 0)
                worksheet_merge_range(s->ws, (lxw_row_t)row, 0, (lxw_row_t)row,
                                      (lxw_col_t)span, w->text, w->f);
            else if (w->para)
                worksheet_write_string(s->ws, (lxw_row_t)row, 0, w->text,
                                       w->f);
            gp_free(w->text);
        }
        worksheet_set_row(s->ws, (lxw_row_t)row, h, NULL);
        if (row < 8)
            s->height[row] = 0; /* set */
    }
    for (size_t r = 0; r < 8; r++)
        if (s->height[r] > 0)
            worksheet_set_row(s->ws, (lxw_row_t)r, s->height[r], NULL);
    gp_free(s->wrapped);
    s->wrapped = NULL;
    s->n_wrapped = s->cap_wrapped = 0;
}

void gp_xl_fit(xl_sheet *s)
{
    for (size_t c = 0; c < XL_MAX_COLS; c++)
        if (s->width[c] > 0) {
            double w = s->width[c] < 60 ? s->width[c] : 60;
            worksheet_set_column(s->ws, (lxw_col_t)c, (lxw_col_t)c, w, NULL);
        }
    if (s->max_row + 1 >= XL_ROW_CAP)
        worksheet_write_string(s->ws, 2, 8,
                               "the long table below stops at a million "
                               "rows (Excel holds 1,048,576)",
                               NULL);
    fit_rows(s);
    /* printed (and exported to PDF) one page wide, in landscape on A4,
     * with the heading on every page */
    worksheet_set_paper(s->ws, 9);
    worksheet_set_margins(s->ws, 0.4, 0.4, 0.45, 0.45);
    worksheet_fit_to_pages(s->ws, 1, s->pages_tall);
    worksheet_repeat_rows(s->ws, 0, (lxw_row_t)s->repeat_last);
    worksheet_set_footer(s->ws, "&L&A&RPage &P of &N");
}

void gp_xl_heading(gp_xl *x, xl_sheet *s, const char *title, const char *what)
{
    /* the title overflows into empty cells: it does not set column A's
     * width; the line under it wraps across the sheet */
    worksheet_write_string(s->ws, 0, 0, title, x->f.title);
    s->height[0] = 22;
    if (what)
        gp_xl_para(s, 1, what, x->f.note_wrap);
}

void gp_xl_insert_chart(gp_xl *x, xl_sheet *s, size_t row, size_t col,
                        lxw_chart *chart, double width_scale)
{
    lxw_chart_options o;
    memset(&o, 0, sizeof o);
    o.x_scale = width_scale;
    o.y_scale = 1.2;
    o.x_offset = 10;
    worksheet_insert_chart_opt(s->ws, (lxw_row_t)row, (lxw_col_t)col, chart,
                               &o);
    x->n_charts++;
}

const char *gp_xl_shown(gp_xl *x, const char *text)
{
    gp_run_info_text(x->r->info, text, x->shown, sizeof x->shown);
    return x->shown;
}

void gp_xl_not_computed(gp_xl *x, xl_sheet *s, size_t row, const char *why)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "not computed in this run",
                           x->f.warn);
    gp_xl_para(s, row + 1, gp_xl_shown(x, why), x->f.note_wrap);
    widen(s, row, 0, 26);
}

/* ---- formats ------------------------------------------------------------- */

void gp_xl_money_format(char *buf, size_t size, const char *digits,
                        bool negative)
{
    char cur[16];
    const char *code = gp_money_currency();
    if (strcmp(code, "USD") == 0)
        snprintf(cur, sizeof cur, "$");
    else
        snprintf(cur, sizeof cur, "\"%s \"", code);
    if (negative)
        snprintf(buf, size, "%s%s;-%s%s", cur, digits, cur, digits);
    else
        snprintf(buf, size, "%s%s", cur, digits);
}

void gp_xl_money_axis(lxw_chart_axis *axis)
{
    char f[64];
    gp_xl_money_format(f, sizeof f, "#,##0", false);
    chart_axis_set_num_format(axis, f);
}

const char *gp_xl_money_header(char *buf, size_t size, const char *before,
                               const char *after)
{
    snprintf(buf, size, "%s%s%s", before, gp_money_unit(), after);
    return buf;
}

static lxw_format *fmt(gp_xl *x, const char *num_format)
{
    lxw_format *f = workbook_add_format(x->wb);
    if (num_format)
        format_set_num_format(f, num_format);
    /* at the top of its row, level with the first line of a note or a
     * reason that wraps beside it */
    format_set_align(f, LXW_ALIGN_VERTICAL_TOP);
    return f;
}

/* Makes every format the sheets use, once. */
static void make_formats(gp_xl *x)
{
    xl_formats *f = &x->f;
    f->title = fmt(x, NULL);
    format_set_bold(f->title);
    format_set_font_size(f->title, 16);
    format_set_font_color(f->title, 0x1F3864);
    f->subtitle = fmt(x, NULL);
    format_set_font_color(f->subtitle, 0x404040);
    f->h2 = fmt(x, NULL);
    format_set_bold(f->h2);
    format_set_font_size(f->h2, 12);
    format_set_font_color(f->h2, 0x1F3864);
    format_set_bottom(f->h2, LXW_BORDER_THIN);
    f->label = fmt(x, NULL);
    format_set_bold(f->label);
    f->header = fmt(x, NULL);
    format_set_bold(f->header);
    format_set_text_wrap(f->header);
    format_set_align(f->header, LXW_ALIGN_VERTICAL_TOP);
    format_set_font_color(f->header, LXW_COLOR_WHITE);
    format_set_bg_color(f->header, 0x1F4E78);
    f->note = fmt(x, NULL);
    format_set_italic(f->note);
    format_set_font_color(f->note, 0x595959);
    f->text = fmt(x, NULL);
    f->wrap = fmt(x, NULL);
    format_set_text_wrap(f->wrap);
    format_set_align(f->wrap, LXW_ALIGN_VERTICAL_TOP);
    char money[64];
    gp_xl_money_format(money, sizeof money, "#,##0.00", true);
    f->money = fmt(x, money);
    f->money_bold = fmt(x, money);
    format_set_bold(f->money_bold);
    f->pct = fmt(x, "0.0%");
    f->num = fmt(x, "#,##0.00");
    f->count = fmt(x, "#,##0");
    f->when = fmt(x, "yyyy-mm-dd hh:mm");
    f->day = fmt(x, "yyyy-mm-dd");
    f->in_pct = fmt(x, "0.0%");
    format_set_bg_color(f->in_pct, 0xFFF2CC);
    format_set_border(f->in_pct, LXW_BORDER_THIN);
    format_set_bold(f->in_pct);
    f->warn = fmt(x, NULL);
    format_set_font_color(f->warn, 0x9C5700);
    /* Excel's "light red fill with dark red text" (a conditional format) */
    f->over = workbook_add_format(x->wb);
    format_set_bg_color(f->over, 0xFFC7CE);
    format_set_font_color(f->over, 0x9C0006);
    f->note_wrap = fmt(x, NULL);
    format_set_italic(f->note_wrap);
    format_set_font_color(f->note_wrap, 0x595959);
    f->warn_wrap = fmt(x, NULL);
    format_set_font_color(f->warn_wrap, 0x9C5700);
    f->subtitle_wrap = fmt(x, NULL);
    format_set_font_color(f->subtitle_wrap, 0x404040);
    lxw_format *wrapping[] = {f->note_wrap, f->warn_wrap, f->subtitle_wrap};
    for (size_t i = 0; i < 3; i++) {
        format_set_text_wrap(wrapping[i]);
        format_set_align(wrapping[i], LXW_ALIGN_VERTICAL_TOP);
    }
}

/* ---- the data window --------------------------------------------------------
 */

/* The data window in hours: the recommendation's, the ledgers', or the
 * forecast's history. */
void gp_xl_window_of(const gp_report *r, int64_t *start, size_t *hours)
{
    if (r->rec) {
        *start = r->rec->start_hour;
        *hours = r->rec->n_hours;
    } else if (r->n_ledgers) {
        *start = r->ledgers[0]->start_hour;
        *hours = r->ledgers[0]->n_hours;
    } else if (r->forecast) {
        *start = r->forecast->history_start_hour;
        *hours = r->forecast->history_hours;
    } else {
        *start = r->info->trace->start_hour;
        *hours = r->info->trace->n_hours;
    }
}

/* ---- the workbook ----------------------------------------------------------
 */

/* Why libxlsxwriter failed, in a user's words. */
static gp_status lxw_failed(const char *path, lxw_error e, int saved_errno,
                            gp_error *err)
{
    if (e == LXW_ERROR_CREATING_XLSX_FILE || e == LXW_ERROR_CREATING_TMPFILE)
        gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                     saved_errno ? strerror(saved_errno) : lxw_strerror(e));
    else
        gp_error_set(err, path, 0, 0, NULL, "cannot write the workbook: %s",
                     lxw_strerror(e));
    return GP_ERR_IO;
}

bool gp_xlsx_name_ok(const char *path)
{
    size_t n = strlen(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return strlen(base) > 5 && strcasecmp(path + n - 5, ".xlsx") == 0;
}

/* The temporary file of a workbook (gp_temp_name: a new folder of its own
 * beside path, so the rename cannot cross file systems and nobody can
 * plant a link for it).  Creates it empty to learn whether the folder
 * takes it.  Sets *tmp to a new string;
 * otherwise fills err and returns GP_ERR_NOMEM or (for anything else the
 * name or the folder does wrong) GP_ERR_IO. */
static gp_status claim_temp(const char *path, char **tmp, gp_error *err)
{
    struct stat st;

    *tmp = NULL;
    if (!gp_xlsx_name_ok(path)) {
        gp_error_set_param(err, path, GP_PARAM_OUT,
                           "the report is an Excel workbook: give it a name "
                           "ending in .xlsx");
        return GP_ERR_IO;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        gp_error_set_param(err, path, GP_PARAM_OUT,
                           "is a folder; give the workbook's file name");
        return GP_ERR_IO;
    }
    /* in a folder of its own beside path (a pipe or a device takes a copy
     * of the finished workbook, made in $TMPDIR) */
    return gp_temp_name(path, "", tmp, err);
}

gp_status gp_xlsx_check_path(const char *path, gp_error *err)
{
    char *tmp;
    gp_status st = claim_temp(path, &tmp, err);
    if (st != GP_OK)
        return st == GP_ERR_NOMEM ? st : GP_ERR_INPUT;
    gp_temp_remove(tmp);
    gp_free(tmp);
    return GP_OK;
}

/* Writes the workbook of r into a new temporary file for `path`; sets
 * *done to it when whole (the caller renames it), else removes it. */
/* Every sheet of report x->r, in the order the workbook shows them. */
static void write_sheets(gp_xl *x, xl_rec_rows *rr)
{
    const gp_report *r = x->r;

    rr->first = 1;
    /* Summary comes first but its what-if block reads the
     * Recommendations rows, which start at a fixed row */
    gp_xl_rec_rows_of(r, rr);
    gp_xl_sheet_summary(x, rr);
    if (r->n_ledgers || r->rec) {
        gp_xl_sheet_recommendations(x, rr);
        gp_xl_sheet_capacity(x);
        gp_xl_sheet_plans(x);
        gp_xl_sheet_policies(x);
        gp_xl_sheet_budgets(x);
        gp_xl_sheet_curves(x);
        gp_xl_sheet_monthly(x);
        gp_xl_sheet_forecast(x);
        gp_xl_sheet_utilization(x);
        gp_xl_sheet_spot(x);
        gp_xl_sheet_chargeback(x);
        gp_xl_sheet_idle(x);
    } else {
        /* the forecast command's workbook: nothing was billed */
        gp_xl_sheet_forecast(x);
        if (r->idle)
            gp_xl_sheet_idle(x);
    }
    gp_xl_sheet_inputs(x);
    gp_xl_sheet_forecast_data(x);
}

static gp_status write_workbook(const char *path, const gp_report *r,
                                char **done, gp_error *err)
{
    gp_xl x;
    lxw_doc_properties props;
    xl_rec_rows rr;
    int64_t start;
    size_t hours;
    char *tmp;
    gp_status claimed = claim_temp(path, &tmp, err);

    *done = NULL;
    if (claimed != GP_OK)
        return claimed;

    memset(&x, 0, sizeof x);
    x.r = r;
    x.t = r->info->trace;
    x.wb = workbook_new(tmp);
    if (!x.wb) {
        gp_error_set(err, path, 0, 0, NULL, "cannot start the workbook");
        gp_temp_remove(tmp);
        gp_free(tmp);
        return GP_ERR_IO;
    }
    gp_xl_window_of(r, &start, &hours);
    memset(&props, 0, sizeof props);
    memset(&rr, 0, sizeof rr);
    props.title =
        (char *)(r->rec ? "GPU purchasing plan" : "GPU purchasing report");
    props.subject = (char *)"GPU cloud capacity: cost, commitments, savings";
    props.author = (char *)"gpuplan " GP_VERSION;
    props.comments = (char *)gp_xl_shown(
        &x, "Written by gpuplan; every number agrees with its " GP_PARAM_TEXT(
                "json") " output.");
    props.created = (time_t)((start + (int64_t)hours) * 3600);
    workbook_set_properties(x.wb, &props);
    make_formats(&x);

    write_sheets(&x, &rr);

    errno = 0;
    lxw_error e = workbook_close(x.wb);
    int saved = errno;
    gp_status st = GP_OK;
    if (e != LXW_NO_ERROR)
        st = lxw_failed(path, e, saved, err);
    else if (x.nomem) { /* a part was left out: no workbook rather than one
                         * missing a row finance would not know was gone */
        gp_error_set(err, path, 0, 0, NULL, "out of memory");
        st = GP_ERR_NOMEM;
    }
    if (st != GP_OK) {
        gp_temp_remove(tmp);
        gp_free(tmp);
    } else {
        *done = tmp;
    }
    return st;
}

gp_status gp_xlsx_write(const char *path, const gp_report *r, gp_error *err)
{
    return gp_xlsx_write_into(NULL, path, r, err);
}

gp_status gp_xlsx_write_into(gp_file_set *set, const char *path,
                             const gp_report *r, gp_error *err)
{
    char *tmp = NULL;
    gp_status st = write_workbook(path, r, &tmp, err);
    if (st != GP_OK)
        return st;
    if (set)
        return gp_file_set_add(set, tmp, path, err);
    return gp_rename_into_place(tmp, path, GP_OK, err);
}

/* ---- billing a recommendation's plan ----------------------------------------
 */



gp_status gp_xlsx_write_run(gp_file_set *set, const char *path,
                            const gp_run_info *info,
                            gp_ledger *const *ledgers, size_t n,
                            const gp_recommendation *rec,
                            const gp_idle_report *idle,
                            const gp_forecast *forecast, gp_error *err)
{
    gp_report r;

    memset(&r, 0, sizeof r);
    r.info = info;
    r.ledgers = ledgers;
    r.n_ledgers = n && ledgers[0] ? n : 0;
    n = r.n_ledgers;
    r.rec = rec;
    for (size_t i = 1; i < n; i++)
        if (ledgers[i]->total_cost < ledgers[r.proposed]->total_cost)
            r.proposed = i;
    if (rec && n == 2)
        r.proposed = 1; /* the recommended plan, even if not cheaper */
    r.idle = idle;
    /* the Forecast sheet: the forecast a forward plan was bought for, or
     * the next quarter's (gp_report_forecast) */
    r.forecast = rec && rec->forecast ? rec->forecast : forecast;
    r.forecast_failed = !r.forecast;
    return gp_xlsx_write_into(set, path, &r, err);
}

gp_status gp_xlsx_write_forecast(const char *path, const gp_run_info *info,
                                 const gp_forecast *forecast, gp_error *err)
{
    gp_report r;
    memset(&r, 0, sizeof r);
    r.info = info;
    r.forecast = forecast;
    return gp_xlsx_write(path, &r, err);
}
