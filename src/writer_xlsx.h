/*
 * writer_xlsx.h: what the workbook writer's files share (not a public
 * header).  writer_xlsx.c owns the workbook, its formats and the cell
 * helpers; each writer_xlsx_*.c writes some of its sheets.
 *
 * Every cell goes through the gp_xl_* helpers below, which also track each
 * column's widest content so that a sheet's columns fit what they hold.
 */
#ifndef GP_WRITER_XLSX_H
#define GP_WRITER_XLSX_H

#include "writers.h"

#include <xlsxwriter.h>

#define XL_MAX_COLS 32
/* Long tables (hourly forecasts, job runs, chargeback rows, idle spans)
 * stop here, under Excel's 1,048,576 rows; the sheet then says so. */
#define XL_ROW_CAP 1000000

/* A worksheet and the width its columns need. */
typedef struct gp_xl gp_xl;

/* Text that wraps, whose row gp_xl_fit makes tall enough for it once the
 * columns' widths are known: a cell (written when recorded; a table's
 * header is written by the table), or a paragraph, written by gp_xl_fit
 * into cells merged across the sheet's columns. */
typedef struct xl_wrapped {
    size_t row, col;
    char *text; /* a copy */
    lxw_format *f;
    bool para;
    bool bold; /* bold text runs wider */
} xl_wrapped;

typedef struct xl_sheet {
    gp_xl *x; /* the workbook it is in */
    lxw_worksheet *ws;
    char name[32];
    double width[XL_MAX_COLS];
    size_t max_row; /* the last row written */
    xl_wrapped *wrapped;
    size_t n_wrapped, cap_wrapped;
    double height[8]; /* rows 0..7 set to a height of their own (0: none) */
    /* the rows printed on every page: the heading, and the header of a
     * table right under it */
    size_t repeat_last;
    /* printed this many pages tall at most (0: as many as it takes) */
    uint16_t pages_tall;
} xl_sheet;

/* The cell formats of the workbook: one of each, made once. */
typedef struct xl_formats {
    lxw_format *title, *subtitle, *h2, *label, *header, *note, *text, *wrap;
    lxw_format *money, *money_bold, *pct, *num, *count, *when, *day;
    lxw_format *in_pct; /* a what-if input cell */
    lxw_format *warn;
    lxw_format *over; /* a conditional format: over budget */
    /* the same, wrapping, for text that gp_xl_wrap and gp_xl_para size */
    lxw_format *note_wrap, *warn_wrap, *subtitle_wrap;
} xl_formats;

struct gp_xl {
    lxw_workbook *wb;
    const gp_report *r;
    const gp_trace *t;
    xl_formats f;
    int n_tables;
    int n_charts;
    /* an allocation failed, so a cell, a row or a chart is missing:
     * gp_xlsx_write then fails with "out of memory" and writes nothing */
    bool nomem;
    char shown[2048]; /* gp_xl_shown's text */
};

/* Text with its run parameters shown as the run info says (gp_run_info_
 * text), in x->shown until the next call. */
const char *gp_xl_shown(gp_xl *x, const char *text);

/* gp_calloc(n, size), except that a failure marks the workbook x->nomem:
 * the caller leaves its part out, and the workbook is not written. */
void *gp_xl_calloc(gp_xl *x, size_t n, size_t size);

/* Writing cells; each widens the column to fit. A NAN number is left
 * blank. */
void gp_xl_text(xl_sheet *s, size_t row, size_t col, const char *v,
                lxw_format *f);
void gp_xl_num(xl_sheet *s, size_t row, size_t col, double v, lxw_format *f);
/* A ledger's row head in columns 0-4, as Summary and Plans show it: its
 * strategy, total cost, all on-demand cost, savings and savings %. */
void gp_xl_ledger_head(gp_xl *x, xl_sheet *s, size_t row, const gp_ledger *l);
/* Text cut to Excel's 32,767 characters when longer (never inside a UTF-8
 * character), without widening the column: it overflows to the right. */
void gp_xl_text_capped(xl_sheet *s, size_t row, size_t col, const char *v,
                       lxw_format *f);
/* Text that wraps in its cell (f wraps: x->f.wrap, note_wrap, ...): the
 * column widens to fit it up to `max_width` characters, and gp_xl_fit
 * sets the row's height for its lines. */
void gp_xl_wrap(xl_sheet *s, size_t row, size_t col, const char *v,
                lxw_format *f, double max_width);
/* A paragraph on row `row`: text wrapped in cells merged across the
 * sheet's columns (f wraps), written and sized by gp_xl_fit; it does not
 * widen the sheet, however long it is. */
void gp_xl_para(xl_sheet *s, size_t row, const char *v, lxw_format *f);
/* A formula with the value the program computed for it, so readers that
 * do not recalculate still show the number. */
void gp_xl_formula(xl_sheet *s, size_t row, size_t col, const char *formula,
                   double value, lxw_format *f);
/* The A1-style name of a cell, absolute when `fixed` ("$B$7"). */
/* Room for any cell name gp_xl_cell writes ("$XFD$1048576" and more). */
#define XL_CELL_SIZE 32
void gp_xl_cell(char *buf, size_t row, size_t col, bool fixed);

/* A new worksheet named `name`. */
void gp_xl_sheet_new(gp_xl *x, xl_sheet *s, const char *name);
/* An Excel table over rows first..last (the header row is `first`), with
 * the given column headers; banded rows, autofilter, a unique name. */
void gp_xl_table(gp_xl *x, xl_sheet *s, size_t first, size_t last,
                 size_t first_col, const char *const *headers, size_t n_cols);
/* Sets every column's width from what was written, the heights of rows
 * whose text wraps, and how the sheet prints: landscape, A4, one page
 * wide, the heading (and a table's header right under it) on every page
 * (call last). */
void gp_xl_fit(xl_sheet *s);
/* A sheet's title row and a one-line description under it. */
void gp_xl_heading(gp_xl *x, xl_sheet *s, const char *title, const char *what);
/* An Excel date-time serial of epoch seconds. */
double gp_xl_when(double seconds);
/* An Excel number format for money in the run's currency
 * (gp_money_currency): `digits` ("#,##0.00") after "$", or after a quoted
 * "EUR " in another currency; with a section for negatives ("-$...")
 * when `negative`. */
void gp_xl_money_format(char *buf, size_t size, const char *digits,
                        bool negative);
/* Sets a chart axis's numbers to whole money in the run's currency
 * ("$#,##0", "\"EUR \"#,##0"). */
void gp_xl_money_axis(lxw_chart_axis *axis);
/* A header naming money: before, the currency's unit ("$", "EUR") and
 * after, into buf, which it returns: "Rate per unit ($/h)". */
const char *gp_xl_money_header(char *buf, size_t size, const char *before,
                               const char *after);
/* Inserts a chart at (row, col), scaled to fit beside a table. */
void gp_xl_insert_chart(gp_xl *x, xl_sheet *s, size_t row, size_t col,
                        lxw_chart *chart, double width_scale);

/* The data window in hours: the recommendation's, the ledgers', or the
 * forecast's history. */
void gp_xl_window_of(const gp_report *r, int64_t *start, size_t *hours);

/* Rows of the Recommendations table, for the what-if block. */
typedef struct xl_rec_rows {
    size_t first, last; /* data rows; last < first when none */
    /* over the rows the plan buys (its "In the plan" column says "yes"):
     * renewals are offered on top of the plan, and the plan's figures
     * (upfront, net savings) leave them out */
    double annual_cost, replaced, upfront;
    double annual_routed; /* the routing action's part of annual_cost */
} xl_rec_rows;

/* Recommendations' column that says whether the plan buys the row, which
 * the totals and Summary's what-if sum over. */
#define XL_REC_IN_PLAN_COL 20

/* Where the Recommendations table's rows are (they start at row 5) and
 * its totals (writer_xlsx_recommendations.c). */
void gp_xl_rec_rows_of(const gp_report *r, xl_rec_rows *rr);

/* The sheets, in the workbook's order: Summary (writer_xlsx_summary.c),
 * Recommendations, Plans and Savings curve (writer_xlsx_plans.c), ... */
void gp_xl_sheet_summary(gp_xl *x, const xl_rec_rows *rr);
void gp_xl_sheet_recommendations(gp_xl *x, const xl_rec_rows *rr);
/* The Capacity sheet, when recommend priced large job runs
 * (writer_xlsx_capacity.c). */
void gp_xl_sheet_capacity(gp_xl *x);
void gp_xl_sheet_plans(gp_xl *x);
void gp_xl_sheet_curves(gp_xl *x);
/* ... the sheets about the money over time (writer_xlsx_sheets.c,
 * writer_xlsx_forecast.c, writer_xlsx_chargeback.c), ... */
void gp_xl_sheet_monthly(gp_xl *x);
void gp_xl_sheet_forecast(gp_xl *x);
void gp_xl_sheet_utilization(gp_xl *x);
void gp_xl_sheet_spot(gp_xl *x);
void gp_xl_sheet_chargeback(gp_xl *x);
void gp_xl_sheet_idle(gp_xl *x);
void gp_xl_sheet_policies(gp_xl *x); /* writer_xlsx_policies.c */
void gp_xl_sheet_budgets(gp_xl *x);  /* writer_xlsx_budgets.c */
/* ... and Inputs (writer_xlsx_inputs.c), then the forecast's hourly
 * rows, hidden (writer_xlsx_forecast.c). */
void gp_xl_sheet_inputs(gp_xl *x);
void gp_xl_sheet_forecast_data(gp_xl *x);

/* Why a sheet of ledgers has none, in its "not computed" row. */
#define XL_NOT_BILLED                                                          \
    "nothing was billed hour by hour in this run: forecast, and recommend "    \
    GP_PARAM_TEXT("forward") ", which plans on forecast demand"

/* "not computed in this run": the one row a sheet shows without data. */
void gp_xl_not_computed(gp_xl *x, xl_sheet *s, size_t row, const char *why);

#endif
