/*
 * writer_xlsx.c: the finance-ready Excel workbook (SPEC section 6), with
 * libxlsxwriter.
 *
 * The workbook opens on a Summary (headline cost and savings, the top
 * actions, a what-if block, the data window and every warning), then
 * Recommendations (ranked purchases whose annual cost and savings are live
 * formulas of their rate and quantity cells), Plans side by side, the
 * savings-versus-commitment curves, and the sheets of writer_xlsx_sheets.c;
 * Inputs & assumptions close it.  Every number is the one the --json output
 * gives for the same run; a formula cell carries that number as its cached
 * value, so readers that do not recalculate agree too.
 *
 * libxlsxwriter writes the file itself, so the workbook is given a
 * temporary name in the target folder and renamed into place only once it
 * is whole.  The created date is the data window's end: the same run gives
 * the same bytes.
 */
#include "writer_xlsx.h"
#include "forecast.h"
#include "idle.h"
#include "recommend.h"
#include "util.h"

#include <errno.h>
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
static void write_string_capped(xl_sheet *s, size_t row, size_t col,
                                const char *v, lxw_format *f)
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

void gp_xl_text(xl_sheet *s, size_t row, size_t col, const char *v,
                lxw_format *f)
{
    write_string_capped(s, row, col, v, f);
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
        /* headers wrap at 18 characters, so long ones need no more */
        double w = (double)strlen(headers[i]) + 4;
        widen(s, first, first_col + i, w < 18 ? w : 18);
    }
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
    /* room for headers that wrap onto a second line */
    worksheet_set_row(s->ws, (lxw_row_t)first, 30, NULL);
}

void gp_xl_fit(xl_sheet *s)
{
    double total = 0;
    for (size_t c = 0; c < XL_MAX_COLS; c++)
        if (s->width[c] > 0) {
            double w = s->width[c] < 60 ? s->width[c] : 60;
            worksheet_set_column(s->ws, (lxw_col_t)c, (lxw_col_t)c, w, NULL);
            total += w;
        }
    if (s->max_row + 1 >= XL_ROW_CAP)
        worksheet_write_string(s->ws, 2, 8,
                               "the long table below stops at a million "
                               "rows (Excel holds 1,048,576)",
                               NULL);
    /* printed (and exported to PDF) one page wide when that stays
     * readable; wider sheets print across pages */
    if (total < 220)
        worksheet_fit_to_pages(s->ws, 1, 0);
}

void gp_xl_heading(gp_xl *x, xl_sheet *s, const char *title, const char *what)
{
    /* the title and the line under it overflow into empty cells: they do
     * not set column A's width */
    worksheet_write_string(s->ws, 0, 0, title, x->f.title);
    worksheet_set_row(s->ws, 0, 22, NULL);
    if (what)
        worksheet_write_string(s->ws, 1, 0, what, x->f.note);
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

void gp_xl_not_computed(gp_xl *x, xl_sheet *s, size_t row, const char *why)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "not computed in this run",
                           x->f.warn);
    worksheet_write_string(s->ws, (lxw_row_t)row + 1, 0, why, x->f.note);
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
}

/* ---- shared facts -----------------------------------------------------------
 */

/* The data window in hours: the recommendation's, the ledgers', or the
 * forecast's history. */
static void window_of(const gp_report *r, int64_t *start, size_t *hours)
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

/* The rate of one unit of a commitment in $/h after the scenario discount:
 * a reservation's effective hourly, or 1 per committed dollar. */
static double unit_rate(const gp_report *r, const gp_commitment *c)
{
    double keep = 1.0 - r->info->scenario->discount;
    if (c->type == GP_COMMIT_SAVINGS_PLAN)
        return keep;
    const gp_reserved_offer *o =
        gp_reserved_offer_of(r->info->pricing, c, NULL);
    return o ? gp_reserved_effective_hourly(o) * keep : NAN;
}

/* Hours a commitment is active inside the window. */
static double active_hours(const gp_commitment *c, int64_t start_hour,
                           size_t n_hours)
{
    int64_t a = c->start / 3600, z = (c->end + 3599) / 3600;
    if (a < start_hour)
        a = start_hour;
    if (z > start_hour + (int64_t)n_hours)
        z = start_hour + (int64_t)n_hours;
    return z > a ? (double)(z - a) : 0;
}

/* Rows of the Recommendations table, for the what-if block. */
struct rec_rows {
    size_t first, last; /* data rows; last < first when none */
    /* over the rows the plan buys (its "In the plan" column says "yes"):
     * renewals are offered on top of the plan, and the plan's figures
     * (upfront, net savings) leave them out */
    double annual_cost, replaced, upfront;
    double annual_routed; /* the routing action's part of annual_cost */
};

/* Recommendations' column that says whether the plan buys the row, which
 * the totals and Summary's what-if sum over. */
#define REC_IN_PLAN_COL 20

/* Whether the recommended plan buys the action: everything but the
 * renewals, which come on top of it (README, Renewals). */
static bool in_plan(const gp_action *a)
{
    return !a->renewal;
}

/* One action's live-formula inputs: quantity, rate per unit ($/h), its
 * annual cost (quantity x rate x 8760; routing: training's spot spend per
 * year) and the on-demand spend it replaces per year (its window net
 * savings plus its window cost, scaled to a year over the hours its
 * savings are over: a renewal that starts in the window, the hours left;
 * one that starts after it is valued as if it ran the whole window). */
static void action_figures(const gp_report *r, const gp_action *a, double *qty,
                           double *rate, double *annual, double *replaced)
{
    const gp_recommendation *rec = r->rec;
    double on = 0;
    *qty = *rate = NAN;
    if (a->type != GP_ACTION_ROUTING) {
        *qty = a->c.type == GP_COMMIT_RESERVED ? a->c.count
                                               : a->c.hourly_commitment;
        *rate = unit_rate(r, &a->c);
        int64_t close = rec->start_hour + (int64_t)rec->n_hours;
        on = a->renewal && a->c.start >= close * 3600
                 ? (double)rec->n_hours
                 : active_hours(&a->c, rec->start_hour, rec->n_hours);
    }
    double per_year = 8760.0 / (double)rec->n_hours;
    if (a->type == GP_ACTION_ROUTING) {
        *annual = a->routed_cost * per_year;
        *replaced = (a->net_savings + a->routed_cost) * per_year;
        return;
    }
    *annual = isfinite(*qty) && isfinite(*rate) ? *qty * *rate * 8760 : 0;
    double window_cost = *annual > 0 ? *qty * *rate * on : 0;
    *replaced =
        (a->net_savings + window_cost) * (on > 0 ? 8760.0 / on : per_year);
}

/* Where the Recommendations table's rows are (they start at row 5) and
 * its totals. */
static void rec_rows_of(const gp_report *r, struct rec_rows *rr)
{
    memset(rr, 0, sizeof *rr);
    rr->first = 1;
    if (!r->rec || r->rec->n_actions == 0)
        return;
    rr->first = 4;
    rr->last = 3 + r->rec->n_actions;
    for (size_t i = 0; i < r->rec->n_actions; i++) {
        const gp_action *a = &r->rec->actions[i];
        double q, k, annual, replaced;
        if (!in_plan(a))
            continue;
        action_figures(r, a, &q, &k, &annual, &replaced);
        rr->annual_cost += annual;
        rr->replaced += replaced;
        if (a->type == GP_ACTION_ROUTING)
            rr->annual_routed += annual;
        else
            rr->upfront += a->upfront;
    }
}

/* ---- Summary ---------------------------------------------------------------
 */

/* One headline row: label, value, and a note saying where it comes from. */
static void headline(gp_xl *x, xl_sheet *s, size_t row, const char *label,
                     double v, lxw_format *f, const char *note)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, label, x->f.label);
    gp_xl_num(s, row, 1, v, f);
    if (note)
        worksheet_write_string(s->ws, (lxw_row_t)row, 2, note, x->f.note);
}

/* A headline row whose value is a live formula, cached with the
 * program's value. */
static void headline_formula(gp_xl *x, xl_sheet *s, size_t row,
                             const char *label, const char *formula, double v,
                             lxw_format *f, const char *note)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, label, x->f.label);
    gp_xl_formula(s, row, 1, formula, v, f);
    if (note)
        worksheet_write_string(s->ws, (lxw_row_t)row, 2, note, x->f.note);
}

/* Where the headline put its two costs, for the what-if block's
 * formulas, and the values they hold. */
struct headline_cells {
    size_t current_row, plan_row; /* column B */
    double current, plan;
    /* the commitment charges (reserved and savings-plan fees, amortized)
     * in each, which do not change with demand; unknown (split false) for
     * a --forward plan, which has no ledgers */
    bool split;
    double current_fixed, plan_fixed;
};

/* The commitment charges in a ledger's total. */
static double commitment_charges(const gp_ledger *l)
{
    return l->reserved_cost + l->savings_plan_cost;
}

/* The headline block; returns the next free row and fills *hc. */
static size_t summary_headline(gp_xl *x, xl_sheet *s, size_t row, size_t hours,
                               struct headline_cells *hc)
{
    const gp_report *r = x->r;
    char label[160], f1[192], a[XL_CELL_SIZE], b[XL_CELL_SIZE], c[XL_CELL_SIZE];
    double current, plan, upfront = NAN;
    const char *current_label, *current_note;

    bool forward = r->rec && r->rec->forward;
    hc->split = false;
    hc->current_fixed = hc->plan_fixed = 0;
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           forward ? "Headline, over the forecast horizon "
                                     "(P50 demand)"
                                   : "Headline, over the data window",
                           x->f.h2);
    if (r->rec) {
        const gp_plan_result *p = &r->rec->plans[r->rec->recommended];
        current = r->rec->policy_cost;
        plan = p->total_cost;
        upfront = p->upfront;
        current_label = "Current cost";
        current_note = forward ? "the scenario's policy on the forecast's "
                                 "P50, nothing new bought"
                               : "the scenario's policy, nothing new bought";
        snprintf(label, sizeof label, "Cost with the %s plan", p->name);
        if (r->n_ledgers >= 2) { /* gp_recommend_bill_plan's policy, plan */
            hc->split = true;
            hc->current_fixed = commitment_charges(r->ledgers[0]);
            hc->plan_fixed = commitment_charges(r->ledgers[1]);
        }
    } else if (r->n_ledgers > 1) {
        const gp_ledger *cur = r->ledgers[r->current];
        current = cur->total_cost;
        plan = r->ledgers[r->proposed]->total_cost;
        hc->split = true;
        hc->current_fixed = commitment_charges(cur);
        hc->plan_fixed = commitment_charges(r->ledgers[r->proposed]);
        current_label = "Current cost";
        current_note = "the baseline strategy";
        snprintf(label, sizeof label, "Cost with strategy %s (cheapest)",
                 r->ledgers[r->proposed]->strategy);
    } else {
        current = r->ledgers[0]->all_on_demand_cost;
        plan = r->ledgers[0]->total_cost;
        current_label = "Cost if everything ran on demand";
        current_note = "every instance-hour at the on-demand rate";
        snprintf(label, sizeof label, "Cost with strategy %s",
                 r->ledgers[0]->strategy);
        hc->split = true;
        hc->plan_fixed = commitment_charges(r->ledgers[0]);
    }
    size_t r0 = row;
    hc->current_row = r0;
    hc->plan_row = r0 + 1;
    hc->current = current;
    hc->plan = plan;
    gp_xl_cell(a, r0, 1, true);
    gp_xl_cell(b, r0 + 1, 1, true);
    gp_xl_cell(c, r0 + 2, 1, true);
    headline(x, s, row++, current_label, current, x->f.money_bold,
             current_note);
    headline(x, s, row++, label, plan, x->f.money_bold,
             "billed hour by hour, commitments amortized");
    snprintf(f1, sizeof f1, "=%s-%s", a, b);
    headline_formula(x, s, row++, "Net savings", f1, current - plan,
                     x->f.money_bold, "current cost minus plan cost");
    snprintf(f1, sizeof f1, "=IF(%s>0,%s/%s,0)", a, c, a);
    headline_formula(x, s, row++, "Savings", f1,
                     current > 0 ? (current - plan) / current : 0, x->f.pct,
                     "net savings / current cost");
    if (r->rec) {
        headline(x, s, row++, "Upfront cash to buy the plan", upfront,
                 x->f.money, "paid at purchase, on top of the hourly fees");
    } else {
        const gp_ledger *l = r->ledgers[r->proposed];
        double cash = 0;
        for (size_t i = 0; i < l->n_months; i++)
            cash += l->months[i].total_cash;
        headline(x, s, row++, "Cash paid in the window", cash, x->f.money,
                 "upfronts paid in the window, fees as billed");
    }
    snprintf(f1, sizeof f1, "=%s*8760/%zu", c, hours);
    headline_formula(x, s, row++, "Net savings per year at this rate", f1,
                     (current - plan) * 8760.0 / (double)hours, x->f.money,
                     "the window's savings scaled to 8,760 hours");
    if (r->rec) {
        headline(x, s, row++, "Cost if everything ran on demand",
                 r->rec->all_on_demand_cost, x->f.money,
                 "every instance-hour at the on-demand rate");
        headline(x, s, row++,
                 forward ? "Share of the P50's best purchase captured"
                         : "Share of the hindsight optimum captured",
                 r->rec->captured_fraction, x->f.pct,
                 forward ? "plan net savings / the best purchase for the P50"
                         : "plan net savings / the best purchase in hindsight");
        if (r->rec->backtest) {
            char cut[32], note[96];
            gp_format_time(r->rec->train_until, cut, sizeof cut);
            snprintf(note, sizeof note,
                     "bought at %s, billed over the next "
                     "%zu hours",
                     cut, r->rec->test_hours);
            headline(x, s, row++, "Backtest: net savings out of sample",
                     r->rec->test_plan_net_savings, x->f.money, note);
            headline(x, s, row++, "Backtest: share of hindsight captured",
                     r->rec->test_captured_fraction, x->f.pct,
                     "out of sample, against the best buy in hindsight");
        }
        if (r->rec->forward) {
            headline(x, s, row++, "Net savings if demand is the P10",
                     r->rec->forward_downside_net_savings, x->f.money,
                     "bought for the forecast's P50");
            headline(x, s, row++, "Net savings if demand is the P90",
                     r->rec->forward_upside_net_savings, x->f.money, NULL);
        }
    }
    return row + 1;
}

/* Top actions (recommend) or the strategies (simulate). */
static size_t summary_actions(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_report *r = x->r;
    char what[200];

    if (r->rec) {
        static const char *const h[] = {"Action", "Net savings", "Upfront",
                                        "Break-even utilization",
                                        "Expected utilization"};
        size_t n = r->rec->n_actions < 5 ? r->rec->n_actions : 5;
        worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                               "Top actions (see Recommendations)", x->f.h2);
        if (n == 0) {
            worksheet_write_string(s->ws, (lxw_row_t)row, 0,
                                   "nothing to buy: no commitment would pay "
                                   "for itself",
                                   x->f.note);
            return row + 2;
        }
        size_t head = row;
        for (size_t i = 0; i < n; i++) {
            const gp_action *ac = &r->rec->actions[i];
            char line[220];
            row++;
            gp_action_describe(ac, what, sizeof what);
            snprintf(line, sizeof line, "%d. %s", ac->rank, what);
            gp_xl_text(s, row, 0, line, x->f.text);
            gp_xl_num(s, row, 1, ac->net_savings, x->f.money);
            gp_xl_num(s, row, 2,
                      ac->type == GP_ACTION_ROUTING ? 0 : ac->upfront,
                      x->f.money);
            gp_xl_num(s, row, 3,
                      ac->type == GP_ACTION_ROUTING ? NAN
                                                    : ac->breakeven_utilization,
                      x->f.pct);
            gp_xl_num(s, row, 4,
                      ac->type == GP_ACTION_ROUTING ? NAN
                                                    : ac->expected_utilization,
                      x->f.pct);
        }
        gp_xl_table(x, s, head, row, 0, h, 5);
        return row + 2;
    }
    static const char *const h[] = {"Strategy",           "Total cost",
                                    "All on-demand cost", "Savings",
                                    "Savings %",          "Coverage"};
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Strategies (see Plans)",
                           x->f.h2);
    size_t head = row;
    for (size_t i = 0; i < r->n_ledgers; i++) {
        const gp_ledger *l = r->ledgers[i];
        row++;
        gp_xl_text(s, row, 0, l->strategy, x->f.text);
        gp_xl_num(s, row, 1, l->total_cost, x->f.money);
        gp_xl_num(s, row, 2, l->all_on_demand_cost, x->f.money);
        gp_xl_num(s, row, 3, l->savings, x->f.money);
        gp_xl_num(s, row, 4, l->savings_pct, x->f.pct);
        gp_xl_num(s, row, 5, l->coverage, x->f.pct);
    }
    gp_xl_table(x, s, head, row, 0, h, 6);
    return row + 2;
}

/* The what-if block: yellow input cells and formulas over them. */
static size_t summary_what_if(gp_xl *x, xl_sheet *s, size_t row,
                              const struct rec_rows *rr,
                              const struct headline_cells *hc)
{
    char in1[XL_CELL_SIZE], in2[XL_CELL_SIZE], f[640], m0[XL_CELL_SIZE],
        m1[XL_CELL_SIZE], n0[XL_CELL_SIZE], n1[XL_CELL_SIZE], cc[XL_CELL_SIZE],
        rc[XL_CELL_SIZE];
    const gp_report *r = x->r;

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "What if (change the yellow cells)", x->f.h2);
    gp_xl_cell(in1, row, 1, true);
    gp_xl_cell(in2, row + 1, 1, true);
    if (r->rec && rr->last >= rr->first) {
        worksheet_write_string(s->ws, (lxw_row_t)row, 0,
                               "Extra discount on commitment rates",
                               x->f.label);
        worksheet_write_number(s->ws, (lxw_row_t)row++, 1, 0, x->f.in_pct);
        worksheet_write_string(s->ws, (lxw_row_t)row, 0,
                               "Change in on-demand prices", x->f.label);
        worksheet_write_number(s->ws, (lxw_row_t)row++, 1, 0, x->f.in_pct);
        gp_xl_cell(m0, rr->first, 12, true);
        gp_xl_cell(m1, rr->last, 12, true);
        gp_xl_cell(n0, rr->first, 13, true);
        gp_xl_cell(n1, rr->last, 13, true);
        gp_xl_cell(cc, row, 1, true);
        gp_xl_cell(rc, row + 1, 1, true);
        /* the rows the plan buys: renewals, on top of it, are left out */
        char p0[XL_CELL_SIZE], p1[XL_CELL_SIZE];
        gp_xl_cell(p0, rr->first, REC_IN_PLAN_COL, true);
        gp_xl_cell(p1, rr->last, REC_IN_PLAN_COL, true);
        if (rr->annual_routed > 0) {
            /* routing's spot spend takes no commitment discount */
            char c0[XL_CELL_SIZE], c1[XL_CELL_SIZE];
            gp_xl_cell(c0, rr->first, 2, true);
            gp_xl_cell(c1, rr->last, 2, true);
            snprintf(f, sizeof f,
                     "=SUMIFS(Recommendations!%s:%s,Recommendations!%s:%s,"
                     "\"<>routing\",Recommendations!%s:%s,\"yes\")*(1-%s)"
                     "+SUMIFS(Recommendations!%s:%s,Recommendations!%s:%s,"
                     "\"routing\",Recommendations!%s:%s,\"yes\")",
                     m0, m1, c0, c1, p0, p1, in1, m0, m1, c0, c1, p0, p1);
            headline_formula(x, s, row++, "Annual cost of the actions", f,
                             rr->annual_cost, x->f.money,
                             "commitments: rate x quantity x 8,760 h; "
                             "routing: training's spot spend; the rows in "
                             "the plan on Recommendations");
        } else {
            snprintf(f, sizeof f,
                     "=SUMIF(Recommendations!%s:%s,\"yes\","
                     "Recommendations!%s:%s)*(1-%s)",
                     p0, p1, m0, m1, in1);
            headline_formula(x, s, row++, "Annual cost of the commitments", f,
                             rr->annual_cost, x->f.money,
                             "rate x quantity x 8,760 h, the rows in the "
                             "plan on Recommendations");
        }
        snprintf(f, sizeof f,
                 "=SUMIF(Recommendations!%s:%s,\"yes\",Recommendations!%s:%s)"
                 "*(1+%s)",
                 p0, p1, n0, n1, in2);
        headline_formula(x, s, row++, "Spend the actions replace, per year", f,
                         rr->replaced, x->f.money,
                         "the window's covered usage at on-demand rates, "
                         "scaled to a year");
        snprintf(f, sizeof f, "=%s-%s", rc, cc);
        headline_formula(x, s, row++, "Annual net savings of the actions", f,
                         rr->replaced - rr->annual_cost, x->f.money_bold,
                         "what the purchases save per year at these rates");
        return row + 1;
    }
    /* simulate, or nothing to buy: scale the headline linearly */
    char cur[XL_CELL_SIZE], plan[XL_CELL_SIZE];
    gp_xl_cell(cur, hc->current_row, 1, true);
    gp_xl_cell(plan, hc->plan_row, 1, true);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Discount on every price",
                           x->f.label);
    worksheet_write_number(s->ws, (lxw_row_t)row++, 1, 0, x->f.in_pct);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Change in demand",
                           x->f.label);
    worksheet_write_number(s->ws, (lxw_row_t)row++, 1, 0, x->f.in_pct);
    double c0 = hc->current, p0 = hc->plan;
    if (hc->split) {
        /* commitments are not resized: their charges stay, the on-demand
         * and spot spend scales with demand */
        char cf[XL_CELL_SIZE], pf[XL_CELL_SIZE];
        gp_xl_cell(cf, row, 1, true);
        gp_xl_cell(pf, row + 1, 1, true);
        headline(x, s, row++, "Commitment charges in the current cost",
                 hc->current_fixed, x->f.money,
                 "reserved and savings-plan fees, amortized: they do not "
                 "change with demand");
        headline(x, s, row++, "Commitment charges in the plan cost",
                 hc->plan_fixed, x->f.money, NULL);
        snprintf(f, sizeof f, "=(%s+(%s-%s)*%s)*(1-%s)", cur, cur, cf, in2,
                 in1);
        headline_formula(x, s, row++, "Current cost", f, c0, x->f.money,
                         "on-demand and spot spend scale with demand; "
                         "commitments are not resized");
        snprintf(f, sizeof f, "=(%s+(%s-%s)*%s)*(1-%s)", plan, plan, pf, in2,
                 in1);
        headline_formula(x, s, row++, "Plan cost", f, p0, x->f.money, NULL);
    } else {
        snprintf(f, sizeof f, "=%s*(1-%s)*(1+%s)", cur, in1, in2);
        headline_formula(x, s, row++, "Current cost", f, c0, x->f.money,
                         "scales linearly, owned commitments too (a "
                         "--forward plan bills no ledger to split them out)");
        snprintf(f, sizeof f, "=%s*(1-%s)*(1+%s)", plan, in1, in2);
        headline_formula(x, s, row++, "Plan cost", f, p0, x->f.money, NULL);
    }
    gp_xl_cell(cc, row - 2, 1, true);
    gp_xl_cell(rc, row - 1, 1, true);
    snprintf(f, sizeof f, "=%s-%s", cc, rc);
    headline_formula(x, s, row++, "Net savings", f, c0 - p0, x->f.money_bold,
                     NULL);
    return row + 1;
}

/* One warning line under "Warnings and notes". */
static void summary_warning(gp_xl *x, xl_sheet *s, size_t *row,
                            const char *text)
{
    worksheet_write_string(s->ws, (lxw_row_t)(*row)++, 0, text, x->f.warn);
}

/* Warnings: unlabelled usage, idle spans, the run's warnings (estimated
 * prices, stale catalogs, rejected rows, classified workloads), the
 * recommender's and the forecaster's notes. */
static size_t summary_warnings(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_report *r = x->r;
    const gp_trace *t = x->t;
    size_t first = row + 1;

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Warnings and notes",
                           x->f.h2);
    /* the usage's own warnings, then the run's, as inputs.warnings */
    gp_warnings usage = {NULL, 0, 0};
    gp_usage_warnings(t, r->idle, &usage);
    for (size_t i = 0; i < usage.count; i++)
        summary_warning(x, s, &row, usage.items[i]);
    gp_warnings_clear(&usage);
    for (size_t i = 0; i < r->info->warnings.count; i++)
        summary_warning(x, s, &row, r->info->warnings.items[i]);
    if (r->rec)
        for (size_t i = 0; i < r->rec->notes.count; i++)
            summary_warning(x, s, &row, r->rec->notes.items[i]);
    /* (a forward plan's notes hold its forecast's already) */
    if (r->forecast && !(r->rec && r->rec->forecast == r->forecast))
        for (size_t i = 0; i < r->forecast->notes.count; i++)
            summary_warning(x, s, &row, r->forecast->notes.items[i]);
    if (row == first)
        worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "none", x->f.note);
    return row + 1;
}

/* The forecast command's headline: the horizon and its demand. */
static size_t summary_forecast(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_forecast *fc = x->r->forecast;
    double p10 = 0, p50 = 0, p90 = 0;
    char a[32], z[32], buf[160];

    for (size_t i = 0; i < fc->n_series; i++)
        for (size_t h = 0; h < fc->n_hours; h++) {
            p10 += fc->series[i].points[h].p10;
            p50 += fc->series[i].points[h].p50;
            p90 += fc->series[i].points[h].p90;
        }
    gp_format_time(fc->start_hour * 3600, a, sizeof a);
    gp_format_time((fc->start_hour + (int64_t)fc->n_hours) * 3600, z, sizeof z);
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "Forecast headline (see Forecast)", x->f.h2);
    snprintf(buf, sizeof buf, "%s to %s (%zu hours), %zu series", a, z,
             fc->n_hours, fc->n_series);
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, "Horizon", x->f.label);
    worksheet_write_string(s->ws, (lxw_row_t)row++, 1, buf, x->f.text);
    /* (written without widening: it overflows into the empty cells) */
    headline(x, s, row++, "Instance-hours demanded, P50", p50, x->f.num,
             "summed over every series and hour");
    headline(x, s, row++, "Instance-hours demanded, P10", p10, x->f.num,
             "a low case: hourly P10s summed");
    headline(x, s, row++, "Instance-hours demanded, P90", p90, x->f.num,
             "a high case: hourly P90s summed");
    return row + 1;
}

/* The first sheet: what a reader needs without reading further. */
static void sheet_summary(gp_xl *x, const struct rec_rows *rr)
{
    const gp_report *r = x->r;
    xl_sheet s;
    int64_t start;
    size_t hours, row;
    char a[32], z[32], line[400];

    gp_xl_sheet_new(x, &s, "Summary");
    window_of(r, &start, &hours);
    gp_format_time(start * 3600, a, sizeof a);
    gp_format_time((start + (int64_t)hours) * 3600, z, sizeof z);
    gp_xl_heading(x, &s,
                  r->rec ? "GPU purchasing plan"
                         : (r->n_ledgers ? "GPU purchasing strategies compared"
                                         : "GPU demand forecast"),
                  NULL);
    snprintf(line, sizeof line, "%s: %s to %s, %zu hours (%.1f days), %s",
             r->rec && r->rec->forward
                 ? "Planned for the forecast horizon"
                 : (r->n_ledgers || r->rec ? "Data window"
                                           : "History forecast from"),
             a, z, hours, (double)hours / 24,
             r->info->used_sample ? "the bundled sample" : "the given trace");
    worksheet_write_string(s.ws, 1, 0, line, x->f.subtitle);
    snprintf(line, sizeof line,
             "gpuplan %s %s; scenario %s; %llu trace rows; all amounts in "
             "%s",
             GP_VERSION, r->info->command,
             r->info->scenario->name ? r->info->scenario->name : "(default)",
             (unsigned long long)r->info->trace->rows_read,
             gp_money_currency());
    worksheet_write_string(s.ws, 2, 0, line, x->f.subtitle);
    row = 4;
    if (r->n_ledgers || r->rec) {
        struct headline_cells hc;
        row = summary_headline(x, &s, row, hours, &hc);
        row = summary_actions(x, &s, row);
        row = summary_what_if(x, &s, row, rr, &hc);
    }
    if (r->forecast)
        row = summary_forecast(x, &s, row);
    summary_warnings(x, &s, row);
    s.width[0] = s.width[0] > 44 ? s.width[0] : 44;
    if (s.width[1] < 18)
        s.width[1] = 18;
    gp_xl_fit(&s);
    worksheet_set_column(s.ws, 2, 2, 16, NULL);
    worksheet_activate(s.ws);
}

/* ---- Recommendations ----------------------------------------------------- */

static void sheet_recommendations(gp_xl *x, const struct rec_rows *rr)
{
    char rate_head[32];
    const char *const h[] = {"Rank",
                             "Action",
                             "Type",
                             "Provider",
                             "Region",
                             "Instance type or plan",
                             "Term (years)",
                             "Payment",
                             "Quantity",
                             "Unit",
                             gp_xl_money_header(rate_head, sizeof rate_head,
                                                "Rate per unit (", "/h)"),
                             "Upfront",
                             "Annual cost",
                             "On-demand spend replaced per year",
                             "Annual net savings",
                             "Net savings in the window",
                             "Savings %",
                             "Break-even utilization",
                             "Expected utilization",
                             "Low-demand net savings",
                             "In the plan",
                             "Why"};
    const gp_recommendation *rec = x->r->rec;
    xl_sheet s;
    char f[192], c1[XL_CELL_SIZE], c2[XL_CELL_SIZE], what[200];
    size_t row = 3;

    gp_xl_sheet_new(x, &s, "Recommendations");
    gp_xl_heading(x, &s, "Recommendations",
                  "Ranked in billing order; each action's net savings are on "
                  "top of the actions above it. Change a rate or quantity and "
                  "the annual cost and savings recompute.");
    if (!rec) {
        gp_xl_not_computed(x, &s, 3,
                           "simulate bills the scenario's strategies; gpuplan "
                           "recommend --out ranks what to buy");
        gp_xl_fit(&s);
        return;
    }
    if (rec->n_actions == 0) {
        worksheet_write_string(s.ws, 3, 0,
                               "nothing to buy: no commitment would pay for "
                               "itself over the window",
                               x->f.note);
        gp_xl_fit(&s);
        return;
    }
    for (size_t i = 0; i < rec->n_actions; i++) {
        const gp_action *a = &rec->actions[i];
        double qty, rate, annual, replaced;
        action_figures(x->r, a, &qty, &rate, &annual, &replaced);
        row++;
        gp_action_describe(a, what, sizeof what);
        gp_xl_num(&s, row, 0, a->rank, x->f.count);
        gp_xl_text(&s, row, 1, what, x->f.text);
        gp_xl_text(&s, row, 2, gp_action_type_name(a->type), x->f.text);
        if (a->type == GP_ACTION_ROUTING) {
            gp_xl_text(&s, row, 5, "training on spot", x->f.text);
        } else {
            const gp_commitment *c = &a->c;
            gp_xl_text(&s, row, 3, c->provider, x->f.text);
            gp_xl_text(&s, row, 4, c->region, x->f.text);
            if (c->type == GP_COMMIT_RESERVED)
                gp_xl_text(&s, row, 5, c->instance_type, x->f.text);
            else if (c->kind == GP_PLAN_FAMILY) {
                char k[64];
                snprintf(k, sizeof k, "instance_family %s", c->family);
                gp_xl_text(&s, row, 5, k, x->f.text);
            } else
                gp_xl_text(&s, row, 5, "compute", x->f.text);
            gp_xl_num(&s, row, 6, c->term_years, x->f.count);
            gp_xl_text(&s, row, 7, gp_payment_name(c->payment), x->f.text);
            gp_xl_num(&s, row, 8, qty, x->f.num);
            char unit[32];
            gp_xl_text(
                &s, row, 9,
                c->type == GP_COMMIT_RESERVED
                    ? "instances"
                    : gp_xl_money_header(unit, sizeof unit, "", "/h committed"),
                x->f.text);
            gp_xl_num(&s, row, 10, rate, x->f.money);
            gp_xl_num(&s, row, 11, a->upfront, x->f.money);
        }
        /* annual cost = quantity x rate x 8760; routing's is its spot
         * spend, a figure */
        gp_xl_cell(c1, row, 8, false);
        gp_xl_cell(c2, row, 10, false);
        snprintf(f, sizeof f, "=%s*%s*8760", c1, c2);
        if (a->type == GP_ACTION_ROUTING)
            gp_xl_num(&s, row, 12, annual, x->f.money);
        else
            gp_xl_formula(&s, row, 12, f, annual, x->f.money);
        /* the on-demand spend it replaces: its window savings plus its
         * window cost, scaled to a year */
        gp_xl_num(&s, row, 13, replaced, x->f.money);
        gp_xl_cell(c1, row, 13, false);
        gp_xl_cell(c2, row, 12, false);
        snprintf(f, sizeof f, "=%s-%s", c1, c2);
        gp_xl_formula(&s, row, 14, f, replaced - annual, x->f.money);
        gp_xl_num(&s, row, 15, a->net_savings, x->f.money);
        gp_xl_num(&s, row, 16, a->savings_pct, x->f.pct);
        if (a->type != GP_ACTION_ROUTING) {
            gp_xl_num(&s, row, 17, a->breakeven_utilization, x->f.pct);
            gp_xl_num(&s, row, 18, a->expected_utilization, x->f.pct);
        }
        gp_xl_num(&s, row, 19, a->downside_net_savings, x->f.money);
        gp_xl_text(&s, row, REC_IN_PLAN_COL, in_plan(a) ? "yes" : "no",
                   x->f.text);
        worksheet_write_string(s.ws, (lxw_row_t)row, REC_IN_PLAN_COL + 1,
                               a->reason, x->f.wrap);
        s.width[REC_IN_PLAN_COL + 1] = 60;
    }
    gp_xl_table(x, &s, 3, row, 0, h, REC_IN_PLAN_COL + 2);
    /* totals under the table, live too, over the rows the plan buys */
    row += 1;
    worksheet_write_string(s.ws, (lxw_row_t)row, 1, "Total, the plan",
                           x->f.label);
    static const size_t sum_cols[] = {11, 12, 13, 14};
    char p1[XL_CELL_SIZE], p2[XL_CELL_SIZE];
    gp_xl_cell(p1, rr->first, REC_IN_PLAN_COL, true);
    gp_xl_cell(p2, rr->last, REC_IN_PLAN_COL, true);
    for (size_t k = 0; k < 4; k++) {
        double v = rr->upfront;
        if (sum_cols[k] == 12)
            v = rr->annual_cost;
        else if (sum_cols[k] == 13)
            v = rr->replaced;
        else if (sum_cols[k] == 14)
            v = rr->replaced - rr->annual_cost;
        gp_xl_cell(c1, rr->first, sum_cols[k], false);
        gp_xl_cell(c2, rr->last, sum_cols[k], false);
        snprintf(f, sizeof f, "=SUMIF(%s:%s,\"yes\",%s:%s)", p1, p2, c1, c2);
        gp_xl_formula(&s, row, sum_cols[k], f, v, x->f.money_bold);
    }
    worksheet_write_string(s.ws, (lxw_row_t)row + 2, 0,
                           "Rate per unit: a reservation's effective hourly "
                           "rate (hourly + upfront / term hours), 1 per "
                           "dollar of a savings plan, after the scenario "
                           "discount. The routing action's annual cost is "
                           "what training costs on spot per year, "
                           "interruptions included; the spend it replaces, "
                           "training's cost without it. Renewals are "
                           "offered on top of the plan: not in it, nor in "
                           "its total or Summary's what-if; renew those that "
                           "save, let those that cost lapse.",
                           x->f.note);
    worksheet_freeze_panes(s.ws, 4, 2);
    gp_xl_fit(&s);
}

/* ---- Plans ------------------------------------------------------------------
 */

/* Plans side by side (recommend) or strategies side by side (simulate),
 * with a column chart of cost and savings. */
static void sheet_plans(gp_xl *x)
{
    const gp_report *r = x->r;
    xl_sheet s;
    size_t row = 3, first;
    char f[192], c1[XL_CELL_SIZE], pc[XL_CELL_SIZE];

    gp_xl_sheet_new(x, &s, "Plans");
    if (r->rec) {
        static const char *const h[] = {"Plan",
                                        "Recommended",
                                        "Total cost",
                                        "Net savings",
                                        "Low-demand net savings",
                                        "Upfront",
                                        "Annual commitment cost",
                                        "Longest term (years)",
                                        "Training on spot",
                                        "Commitments",
                                        "Risk"};
        const gp_recommendation *rec = r->rec;
        gp_xl_heading(
            x, &s, "Plans side by side",
            "conservative: 1-year, paid monthly, sized for the "
            "low-demand week; balanced: the cheapest terms the history "
            "supports; aggressive: 3-year terms allowed");
        worksheet_write_string(s.ws, 2, 0, "Current cost (nothing new bought)",
                               x->f.label);
        gp_xl_num(&s, 2, 2, rec->policy_cost, x->f.money_bold);
        gp_xl_cell(pc, 2, 2, true);
        first = row;
        for (int i = 0; i < 3; i++) {
            const gp_plan_result *p = &rec->plans[i];
            row++;
            gp_xl_text(&s, row, 0, p->name, x->f.text);
            gp_xl_text(&s, row, 1, (size_t)i == rec->recommended ? "yes" : "",
                       x->f.text);
            gp_xl_num(&s, row, 2, p->total_cost, x->f.money);
            gp_xl_cell(c1, row, 2, false);
            snprintf(f, sizeof f, "=%s-%s", pc, c1);
            gp_xl_formula(&s, row, 3, f, rec->policy_cost - p->total_cost,
                          x->f.money);
            gp_xl_num(&s, row, 4, p->downside_net_savings, x->f.money);
            gp_xl_num(&s, row, 5, p->upfront, x->f.money);
            gp_xl_num(&s, row, 6, p->annual_cost, x->f.money);
            /* the longest term it buys; blank when it buys nothing */
            gp_xl_num(&s, row, 7, p->max_term ? p->max_term : NAN, x->f.count);
            gp_xl_text(&s, row, 8, p->route_training_to_spot ? "yes" : "no",
                       x->f.text);
            gp_xl_num(&s, row, 9, (double)p->n_commitments, x->f.count);
            worksheet_write_string(s.ws, (lxw_row_t)row, 10, p->risk,
                                   x->f.wrap);
            s.width[10] = 60;
        }
        gp_xl_table(x, &s, first, row, 0, h, 11);
    } else if (r->n_ledgers) {
        static const char *const h[] = {"Strategy",
                                        "Total cost",
                                        "All on-demand cost",
                                        "Savings",
                                        "Savings %",
                                        "On-demand",
                                        "Reserved",
                                        "Savings plans",
                                        "Spot",
                                        "Reserved utilization",
                                        "Savings-plan utilization",
                                        "Coverage",
                                        "Useful GPU-hours",
                                        "Cost per useful GPU-hour"};
        gp_xl_heading(x, &s, "Strategies side by side",
                      "the scenario's baseline and every strategy it names, "
                      "billed over the same window");
        first = row;
        for (size_t i = 0; i < r->n_ledgers; i++) {
            const gp_ledger *l = r->ledgers[i];
            row++;
            gp_xl_text(&s, row, 0, l->strategy, x->f.text);
            gp_xl_num(&s, row, 1, l->total_cost, x->f.money);
            gp_xl_num(&s, row, 2, l->all_on_demand_cost, x->f.money);
            gp_xl_num(&s, row, 3, l->savings, x->f.money);
            gp_xl_num(&s, row, 4, l->savings_pct, x->f.pct);
            gp_xl_num(&s, row, 5, l->on_demand_cost, x->f.money);
            gp_xl_num(&s, row, 6, l->reserved_cost, x->f.money);
            gp_xl_num(&s, row, 7, l->savings_plan_cost, x->f.money);
            gp_xl_num(&s, row, 8, l->spot_cost, x->f.money);
            gp_xl_num(&s, row, 9, l->reserved_utilization, x->f.pct);
            gp_xl_num(&s, row, 10, l->savings_plan_utilization, x->f.pct);
            gp_xl_num(&s, row, 11, l->coverage, x->f.pct);
            gp_xl_num(&s, row, 12, l->useful_gpu_hours, x->f.num);
            gp_xl_num(&s, row, 13, l->cost_per_useful_gpu_hour, x->f.money);
        }
        gp_xl_table(x, &s, first, row, 0, h, 14);
    } else {
        gp_xl_heading(x, &s, "Plans", NULL);
        gp_xl_not_computed(x, &s, 3,
                           "nothing was billed in this run: gpuplan simulate "
                           "--out and recommend --out compare plans");
        gp_xl_fit(&s);
        return;
    }

    lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_COLUMN);
    lxw_chart_series *se;
    se = chart_add_series(ch, NULL, NULL);
    chart_series_set_categories(se, s.name, (lxw_row_t)first + 1, 0,
                                (lxw_row_t)row, 0);
    chart_series_set_values(se, s.name, (lxw_row_t)first + 1, r->rec ? 2 : 1,
                            (lxw_row_t)row, r->rec ? 2 : 1);
    chart_series_set_name(se, "Total cost");
    se = chart_add_series(ch, NULL, NULL);
    chart_series_set_categories(se, s.name, (lxw_row_t)first + 1, 0,
                                (lxw_row_t)row, 0);
    chart_series_set_values(se, s.name, (lxw_row_t)first + 1, r->rec ? 3 : 3,
                            (lxw_row_t)row, r->rec ? 3 : 3);
    chart_series_set_name(se, r->rec ? "Net savings" : "Savings");
    chart_title_set_name(ch, r->rec ? "Plans: cost and net savings over "
                                      "the window"
                                    : "Strategies: cost and savings over "
                                      "the window");
    gp_xl_money_axis(ch->y_axis);
    chart_legend_set_position(ch, LXW_CHART_LEGEND_BOTTOM);
    gp_xl_insert_chart(x, &s, row + 2, 0, ch, 1.6);

    /* the commitments of each plan */
    if (r->rec) {
        static const char *const h[] = {"Plan",
                                        "Type",
                                        "Provider",
                                        "Region",
                                        "Instance type or plan",
                                        "Quantity",
                                        "Unit",
                                        "Term (years)",
                                        "Payment",
                                        "Start"};
        size_t crow = row + 22;
        worksheet_write_string(s.ws, (lxw_row_t)crow++, 0,
                               "What each plan buys", x->f.h2);
        first = crow;
        for (int i = 0; i < 3; i++) {
            const gp_plan_result *p = &r->rec->plans[i];
            for (size_t k = 0; k < p->n_commitments; k++) {
                const gp_commitment *c = &p->commitments[k];
                crow++;
                gp_xl_text(&s, crow, 0, p->name, x->f.text);
                gp_xl_text(&s, crow, 1,
                           c->type == GP_COMMIT_RESERVED ? "reserved"
                                                         : "savings_plan",
                           x->f.text);
                gp_xl_text(&s, crow, 2, c->provider, x->f.text);
                gp_xl_text(&s, crow, 3, c->region, x->f.text);
                if (c->type == GP_COMMIT_RESERVED)
                    gp_xl_text(&s, crow, 4, c->instance_type, x->f.text);
                else
                    gp_xl_text(&s, crow, 4,
                               c->kind == GP_PLAN_FAMILY ? c->family
                                                         : "compute",
                               x->f.text);
                gp_xl_num(&s, crow, 5,
                          c->type == GP_COMMIT_RESERVED ? c->count
                                                        : c->hourly_commitment,
                          x->f.num);
                char unit[32];
                gp_xl_text(&s, crow, 6,
                           c->type == GP_COMMIT_RESERVED
                               ? "instances"
                               : gp_xl_money_header(unit, sizeof unit, "",
                                                    "/h committed"),
                           x->f.text);
                gp_xl_num(&s, crow, 7, c->term_years, x->f.count);
                gp_xl_text(&s, crow, 8, gp_payment_name(c->payment), x->f.text);
                gp_xl_num(&s, crow, 9, gp_xl_when((double)c->start), x->f.day);
            }
        }
        if (crow > first)
            gp_xl_table(x, &s, first, crow, 0, h, 10);
        else
            worksheet_write_string(s.ws, (lxw_row_t)crow, 0,
                                   "no plan buys a commitment", x->f.note);
    }
    worksheet_freeze_panes(s.ws, 4, 1);
    gp_xl_fit(&s);
}

/* ---- Savings curve
 * ------------------------------------------------------------- */

static void sheet_curves(gp_xl *x)
{
    static const char *const h[] = {"Instrument", "Unit", "Level",
                                    "Net savings", "Chosen"};
    const gp_recommendation *rec = x->r->rec;
    xl_sheet s;
    size_t row = 3;

    gp_xl_sheet_new(x, &s, "Savings curve");
    gp_xl_heading(x, &s, "Savings versus commitment",
                  "net savings over the window if one instrument were bought "
                  "at another level, the others as recommended");
    if (!rec || rec->n_curves == 0) {
        gp_xl_not_computed(
            x, &s, 3,
            rec ? "the recommendation buys no commitment to vary"
                : "the curves come from gpuplan recommend --out");
        gp_xl_fit(&s);
        return;
    }
    size_t first = row;
    size_t *start = gp_xl_calloc(x, rec->n_curves + 1, sizeof *start);
    for (size_t i = 0; i < rec->n_curves; i++) {
        const gp_curve *cv = &rec->curves[i];
        if (start)
            start[i] = row + 1;
        for (size_t j = 0; j < cv->n; j++) {
            row++;
            gp_xl_text(&s, row, 0, cv->instrument, x->f.text);
            gp_xl_text(&s, row, 1, cv->unit, x->f.text);
            gp_xl_num(&s, row, 2, cv->level[j], x->f.num);
            gp_xl_num(&s, row, 3, cv->net_savings[j], x->f.money);
            gp_xl_text(&s, row, 4,
                       fabs(cv->level[j] - cv->chosen) < 1e-9 ? "yes" : "",
                       x->f.text);
        }
    }
    if (row > first)
        gp_xl_table(x, &s, first, row, 0, h, 5);
    /* one chart per instrument, up to four, beside the table */
    for (size_t i = 0; start && i < rec->n_curves && i < 4; i++) {
        const gp_curve *cv = &rec->curves[i];
        if (cv->n == 0)
            continue;
        lxw_chart *ch = workbook_add_chart(x->wb, LXW_CHART_SCATTER_STRAIGHT);
        lxw_chart_series *se = chart_add_series(ch, NULL, NULL);
        chart_series_set_categories(se, s.name, (lxw_row_t)start[i], 2,
                                    (lxw_row_t)(start[i] + cv->n - 1), 2);
        chart_series_set_values(se, s.name, (lxw_row_t)start[i], 3,
                                (lxw_row_t)(start[i] + cv->n - 1), 3);
        chart_series_set_name(se, "Net savings");
        chart_title_set_name(ch, cv->instrument);
        chart_axis_set_name(ch->x_axis, cv->unit);
        gp_xl_money_axis(ch->y_axis);
        chart_legend_set_position(ch, LXW_CHART_LEGEND_NONE);
        gp_xl_insert_chart(x, &s, 3 + i * 18, 6, ch, 1.2);
    }
    gp_free(start);
    worksheet_freeze_panes(s.ws, 4, 0);
    gp_xl_fit(&s);
}

/* ---- Inputs & assumptions --------------------------------------------------
 */

/* A label and its text; the text overflows into the empty cells to its
 * right rather than widening column B, which the tables below share. */
static void kv_text(gp_xl *x, xl_sheet *s, size_t row, const char *k,
                    const char *v)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, k, x->f.label);
    write_string_capped(s, row, 1, v, x->f.text);
}

/* A label and its number. */
static void kv_num(gp_xl *x, xl_sheet *s, size_t row, const char *k, double v,
                   lxw_format *f)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, k, x->f.label);
    gp_xl_num(s, row, 1, v, f);
}

/* The catalogs read: where, as of when, from which sources. */
static size_t inputs_catalogs(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const h[] = {
        "Provider",       "Region", "Currency", "Prices as of",
        "Instance types", "File",   "Sources"};
    const gp_pricing *p = x->r->info->pricing;
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Catalogs", x->f.h2);
    size_t first = row;
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        /* all of them: a 1,024-byte buffer cut the bundled AWS catalog's
         * 1,110 characters of sources mid-word */
        size_t len = 1, n = 0;
        for (size_t k = 0; k < c->n_sources; k++)
            len += strlen(c->sources[k]) + 2;
        char *src = gp_xl_calloc(x, len, 1);
        for (size_t k = 0; src && k < c->n_sources; k++)
            n += (size_t)snprintf(src + n, len - n, "%s%s", k ? "; " : "",
                                  c->sources[k]);
        row++;
        gp_xl_text(s, row, 0, c->provider, x->f.text);
        gp_xl_text(s, row, 1, c->region, x->f.text);
        gp_xl_text(s, row, 2, c->currency, x->f.text);
        gp_xl_text(s, row, 3, c->as_of, x->f.text);
        gp_xl_num(s, row, 4, (double)c->n_types, x->f.count);
        gp_xl_text(s, row, 5, c->path, x->f.text);
        if (src) /* out of memory: the workbook fails (x->nomem) */
            write_string_capped(s, row, 6, src, x->f.wrap);
        gp_free(src);
    }
    gp_xl_table(x, s, first, row, 0, h, 7);
    return row + 2;
}

/* The prices of the pools in the trace, estimates marked. */
static size_t inputs_prices(gp_xl *x, xl_sheet *s, size_t row)
{
    char od_head[32], spot_head[32];
    const char *const h[] = {
        "Provider",
        "Region",
        "Instance type",
        "GPUs",
        "GPU model",
        gp_xl_money_header(od_head, sizeof od_head, "On-demand (", "/h)"),
        gp_xl_money_header(spot_head, sizeof spot_head, "Spot (", "/h)"),
        "Spot interruptions per month",
        "Spot estimate",
        "Reservation offers",
        "Reservation offers that are estimates",
        "Savings-plan offers",
        "Savings-plan offers that are estimates"};
    const gp_trace *t = x->t;
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "Prices of the pools in the trace (list prices "
                           "unless marked estimates)",
                           x->f.h2);
    size_t first = row;
    for (size_t i = 0; i < t->n_pools; i++) {
        const gp_pool *p = &t->pools[i];
        const gp_instance_type *it = p->type;
        size_t er = 0, ep = 0;
        for (size_t k = 0; k < it->n_reserved; k++)
            er += it->reserved[k].estimate;
        for (size_t k = 0; k < it->n_plans; k++)
            ep += it->plans[k].estimate;
        row++;
        gp_xl_text(s, row, 0, p->catalog->provider, x->f.text);
        gp_xl_text(s, row, 1, p->catalog->region, x->f.text);
        gp_xl_text(s, row, 2, it->name, x->f.text);
        gp_xl_num(s, row, 3, it->gpus, x->f.count);
        gp_xl_text(s, row, 4, it->gpu_model ? it->gpu_model : "", x->f.text);
        gp_xl_num(s, row, 5, it->on_demand, x->f.money);
        if (it->spot.present) {
            gp_xl_num(s, row, 6, it->spot.hourly, x->f.money);
            gp_xl_num(s, row, 7, it->spot.interruption_rate_monthly, x->f.pct);
            gp_xl_text(s, row, 8, it->spot.estimate ? "estimate" : "",
                       x->f.text);
        }
        gp_xl_num(s, row, 9, (double)it->n_reserved, x->f.count);
        gp_xl_num(s, row, 10, (double)er, x->f.count);
        gp_xl_num(s, row, 11, (double)it->n_plans, x->f.count);
        gp_xl_num(s, row, 12, (double)ep, x->f.count);
    }
    if (row > first)
        gp_xl_table(x, s, first, row, 0, h, 13);
    return row + 2;
}

/* The scenario: window, adjustments, policies, owned commitments. */
static size_t inputs_scenario(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_scenario *sc = x->r->info->scenario;
    char buf[256];

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Scenario", x->f.h2);
    kv_text(x, s, row++, "Name", sc->name ? sc->name : "(default)");
    kv_text(x, s, row++, "File", sc->path ? sc->path : "(none)");
    if (sc->has_window) {
        char a[32], z[32];
        gp_format_time(sc->window_start, a, sizeof a);
        gp_format_time(sc->window_end, z, sizeof z);
        snprintf(buf, sizeof buf, "%s to %s", a, z);
        kv_text(x, s, row++, "Window", buf);
    } else {
        kv_text(x, s, row++, "Window", "the trace's span");
    }
    kv_num(x, s, row++, "Discount on every price", sc->discount, x->f.pct);
    kv_num(x, s, row++, "Spot price factor", sc->spot_price_factor, x->f.num);
    kv_num(x, s, row++, "Interruption factor", sc->interruption_factor,
           x->f.num);
    for (int w = 0; w < 2; w++) {
        char k[64];
        snprintf(k, sizeof k, "Growth per month, %s",
                 gp_workload_name((gp_workload)w));
        kv_num(x, s, row++, k, sc->growth[w], x->f.pct);
    }
    /* each strategy's policy, baseline first, as inputs.policies in the
     * JSON: the launch, and the spot settings only where it launches on
     * spot (on demand they do nothing) */
    for (size_t i = 0; i < sc->n_strategies; i++) {
        const gp_strategy *sg = &sc->strategies[i];
        size_t len = strlen(sg->name) + 32;
        char *k = gp_xl_calloc(x, len, 1);
        for (int w = 0; k && w < 2; w++) {
            /* the label widens column A (to 60 at most, gp_xl_fit) */
            snprintf(k, len, "Policy, %s, %s", sg->name,
                     gp_workload_name((gp_workload)w));
            gp_xl_text(s, row, 0, k, x->f.label);
            gp_policy_describe(&sg->policy[w], buf, sizeof buf);
            write_string_capped(s, row++, 1, buf, x->f.text);
        }
        gp_free(k);
    }
    if (sc->n_strategies > 1 && x->r->rec)
        worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                               "recommend plans on the baseline's policy; "
                               "simulate compares the strategies",
                               x->f.note);
    kv_num(x, s, row++, "Monte Carlo runs", sc->mc_runs, x->f.count);
    kv_num(x, s, row++, "Monte Carlo seed", (double)sc->mc_seed, x->f.count);
    kv_num(x, s, row++, "Commitments owned", (double)sc->n_commitments,
           x->f.count);
    for (size_t i = 0; i < sc->n_commitments; i++) {
        gp_commitment_describe(&sc->commitments[i], false, buf, sizeof buf);
        kv_text(x, s, row++, "  owned", buf);
    }
    kv_num(x, s, row++, "Strategies", (double)sc->n_strategies, x->f.count);
    return row + 1;
}

/* The trace's statistics, as validate reports them. */
static size_t inputs_trace(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_trace *t = x->t;
    char a[32], z[32], buf[96];

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Trace", x->f.h2);
    for (size_t i = 0; i < t->n_sources; i++)
        kv_text(x, s, row++, i ? "" : "Files", t->sources[i]);
    gp_format_time(t->start_hour * 3600, a, sizeof a);
    gp_format_time((t->start_hour + (int64_t)t->n_hours) * 3600, z, sizeof z);
    snprintf(buf, sizeof buf, "%s to %s", a, z);
    kv_text(x, s, row++, "Span", buf);
    kv_num(x, s, row++, "Rows read", (double)t->rows_read, x->f.count);
    kv_num(x, s, row++, "Rows rejected", (double)t->rows_rejected, x->f.count);
    kv_num(x, s, row++, "Pools", (double)t->n_pools, x->f.count);
    kv_num(x, s, row++, "Series", (double)t->n_series, x->f.count);
    kv_num(x, s, row++, "Job runs", (double)t->n_runs, x->f.count);
    kv_num(x, s, row++, "Training instance-hours",
           t->instance_hours[GP_TRAINING], x->f.num);
    kv_num(x, s, row++, "Inference instance-hours",
           t->instance_hours[GP_INFERENCE], x->f.num);
    kv_num(x, s, row++, "Unlabelled instance-hours",
           t->instance_hours[GP_UNLABELED], x->f.num);
    /* empty (unknown) when no row had a gpu_util, as the JSON's null */
    kv_num(x, s, row++, "Useful GPU-hours",
           gp_trace_util_gpu_hours(t) > 0 ? t->useful_gpu_hours : NAN,
           x->f.num);
    kv_num(x, s, row++, "GPU-hours without gpu_util", t->gpu_hours_without_util,
           x->f.num);
    return row + 1;
}

/* The options given on the command line that change the numbers (the
 * catalogs, scenario and trace have sections of their own). */
static size_t inputs_options(gp_xl *x, xl_sheet *s, size_t row)
{
    const gp_run_info *in = x->r->info;
    const gp_trace_options *to = &in->trace_opt;
    char buf[512];
    size_t first;

    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "Options given that change the numbers", x->f.h2);
    first = row;
    if (in->train_until) {
        gp_format_time(in->train_until, buf, sizeof buf);
        strncat(buf,
                x->r->rec ? " (recommended from the hours before it, "
                            "bought and billed from it)"
                          : " (forecast from the hours before it, scored "
                            "on the hours after it)",
                sizeof buf - strlen(buf) - 1);
        kv_text(x, s, row++, "--train-until", buf);
    }
    if (in->forward_hours) {
        snprintf(buf, sizeof buf,
                 "%zu hours (bought against the forecast of the next %zu "
                 "hours)",
                 in->forward_hours, in->forward_hours);
        kv_text(x, s, row++, "--forward", buf);
    }
    if (in->horizon_hours) {
        snprintf(buf, sizeof buf, "%zu hours", in->horizon_hours);
        kv_text(x, s, row++, "--horizon", buf);
    }
    if (in->runs_given)
        kv_num(x, s, row++, "--runs", (double)in->runs, x->f.count);
    if (in->seed_given)
        kv_num(x, s, row++, "--seed", (double)in->seed, x->f.count);
    if (to->layout == GP_LAYOUT_JOBS)
        kv_text(x, s, row++, "--layout", "jobs");
    if (in->step_given) {
        snprintf(buf, sizeof buf, "%g seconds", to->default_step_s);
        kv_text(x, s, row++, "--step", buf);
    }
    if (to->region)
        kv_text(x, s, row++, "--region", to->region);
    buf[0] = '\0';
    for (size_t i = 0; i < to->n_map; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s=%s",
                 i ? ", " : "", to->map[i][0], to->map[i][1]);
    if (to->n_map)
        kv_text(x, s, row++, "--map", buf);
    if (in->idle_threshold_given) {
        snprintf(buf, sizeof buf, "%g%% (idle GPUs: gpu_util below it)",
                 to->idle_threshold_pct);
        kv_text(x, s, row++, "--idle-threshold", buf);
    }
    if (in->idle_min_hours_given) {
        snprintf(buf, sizeof buf,
                 "%g hour%s (idle GPUs: spans at least this long)",
                 to->idle_min_hours, to->idle_min_hours == 1 ? "" : "s");
        kv_text(x, s, row++, "--idle-min-hours", buf);
    }
    if (in->skip_bad)
        kv_text(x, s, row++, "--skip-bad",
                "bad rows set aside (Rows rejected, below)");
    if (row == first)
        worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "none: the defaults",
                               x->f.note);
    return row + 1;
}

/* The Inputs sheet's note on estimated commitment rates, into buf,
 * naming only the kinds of rate the run has: those of the trace's types,
 * and reserved rates for a reservation the scenario owns or a strategy
 * adds (of a type the trace may lack); a savings plan is priced at its
 * pools' rates.  A GCP-only run has reserved offers (its committed use
 * discounts) and no savings plans, and was told of "reserved and
 * savings-plan rates"; false when the run has neither. */
static bool estimate_note(const gp_xl *x, char *buf, size_t size)
{
    const gp_scenario *sc = x->r->info->scenario;
    bool reserved = false, plans = false;

    for (size_t i = 0; x->t && i < x->t->n_pools; i++) {
        reserved |= x->t->pools[i].type->n_reserved > 0;
        plans |= x->t->pools[i].type->n_plans > 0;
    }
    for (size_t i = 0; sc && i < sc->n_commitments; i++)
        reserved |= sc->commitments[i].type == GP_COMMIT_RESERVED;
    for (size_t k = 0; sc && k < sc->n_strategies; k++)
        for (size_t i = 0; i < sc->strategies[k].n_add; i++)
            reserved |=
                sc->strategies[k].add_commitments[i].type == GP_COMMIT_RESERVED;
    if (!reserved && !plans)
        return false;
    snprintf(buf, size,
             "%s rates marked estimate come from published discount ratios, "
             "not list prices: replace them with your own negotiated rates.",
             reserved && plans ? "Reserved and savings-plan"
             : reserved        ? "Reserved"
                               : "Savings-plan");
    return true;
}

/* The last sheet: what every number rests on. */
static void sheet_inputs(gp_xl *x)
{
    xl_sheet s;
    size_t row = 3;
    const gp_report *r = x->r;

    gp_xl_sheet_new(x, &s, "Inputs");
    gp_xl_heading(x, &s, "Inputs and assumptions",
                  "what the numbers rest on: catalogs and their dates, "
                  "estimates, the scenario, the trace");
    kv_text(x, &s, row++, "gpuplan version", GP_VERSION);
    kv_text(x, &s, row++, "Command", r->info->command);
    kv_text(x, &s, row++, "Trace",
            r->info->used_sample ? "the bundled sample (scenarios/sample)"
                                 : "given with --trace");
    if (r->n_ledgers) {
        const gp_ledger *l = r->ledgers[r->proposed];
        /* as the Spot sheet and the JSON count them: none when no job
         * run was replayed (it read 1000 beside the Spot sheet's 0) */
        bool replayed = false;
        for (size_t k = 0; k < r->n_ledgers; k++)
            replayed |= r->ledgers[k]->n_jobs > 0;
        kv_num(x, &s, row++, "Monte Carlo runs used", replayed ? l->mc_runs : 0,
               x->f.count);
        kv_num(x, &s, row++, "Monte Carlo seed used", (double)l->mc_seed,
               x->f.count);
    }
    row++;
    row = inputs_options(x, &s, row);
    row = inputs_catalogs(x, &s, row);
    row = inputs_prices(x, &s, row);
    row = inputs_scenario(x, &s, row);
    row = inputs_trace(x, &s, row);
    worksheet_write_string(s.ws, (lxw_row_t)row++, 0, "Assumptions", x->f.h2);
    char estimates[160];
    if (estimate_note(x, estimates, sizeof estimates))
        worksheet_write_string(s.ws, (lxw_row_t)row++, 0, estimates, x->f.note);
    static const char *const notes[] = {
        "Commitments are amortized: effective hourly x quantity x the hours "
        "they are active, used or not; the cash view puts upfronts in the "
        "month they are paid, those paid before the window left out.",
        "Coverage = on-demand value covered by commitments / on-demand value "
        "of all usage launched on demand.",
        "Cost per useful GPU-hour = cost / (GPUs x gpu_util/100 x hours), "
        "over the usage that reports gpu_util.",
        "Annualised figures scale the window to 8,760 hours: they assume the "
        "window's demand repeats."};
    for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++)
        worksheet_write_string(s.ws, (lxw_row_t)row++, 0, notes[i], x->f.note);
    if (s.width[0] < 30)
        s.width[0] = 30;
    s.width[6] = s.width[6] > 50 ? 50 : s.width[6];
    gp_xl_fit(&s);
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

/* The temporary name of a workbook: in its own folder, so the rename
 * cannot cross file systems, and still ending in .xlsx.  Creates it empty
 * to learn whether the folder takes it.  Sets *tmp to a new string;
 * otherwise fills err and returns GP_ERR_NOMEM or (for anything else the
 * name or the folder does wrong) GP_ERR_IO. */
static gp_status claim_temp(const char *path, char **tmp, gp_error *err)
{
    size_t n = strlen(path);
    struct stat st;

    *tmp = NULL;
    if (!gp_xlsx_name_ok(path)) {
        gp_error_set(err, path, 0, 0, "--out",
                     "the report is an Excel workbook: give it a name "
                     "ending in .xlsx");
        return GP_ERR_IO;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        gp_error_set(err, path, 0, 0, "--out",
                     "is a folder; give the workbook's file name");
        return GP_ERR_IO;
    }
    if (gp_path_is_special(path)) {
        /* a pipe or a device takes a copy of the finished workbook */
        return gp_temp_name(path, "", tmp, err);
    }
    if (!(*tmp = gp_malloc(n + 32))) {
        gp_error_set(err, path, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    snprintf(*tmp, n + 32, "%.*s.tmp%ld.xlsx", (int)(n - 5), path,
             (long)getpid());
    FILE *probe = fopen(*tmp, "wb");
    if (!probe) {
        gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                     strerror(errno));
        gp_free(*tmp);
        *tmp = NULL;
        return GP_ERR_IO;
    }
    fclose(probe);
    return GP_OK;
}

gp_status gp_xlsx_check_path(const char *path, gp_error *err)
{
    char *tmp;
    gp_status st = claim_temp(path, &tmp, err);
    if (st != GP_OK)
        return st == GP_ERR_NOMEM ? st : GP_ERR_INPUT;
    remove(tmp);
    gp_free(tmp);
    return GP_OK;
}

gp_status gp_xlsx_write(const char *path, const gp_report *r, gp_error *err)
{
    gp_xl x;
    lxw_doc_properties props;
    struct rec_rows rr;
    int64_t start;
    size_t hours;
    char *tmp;
    gp_status claimed = claim_temp(path, &tmp, err);

    if (claimed != GP_OK)
        return claimed;

    memset(&x, 0, sizeof x);
    x.r = r;
    x.t = r->info->trace;
    x.wb = workbook_new(tmp);
    if (!x.wb) {
        gp_error_set(err, path, 0, 0, NULL, "cannot start the workbook");
        remove(tmp);
        gp_free(tmp);
        return GP_ERR_IO;
    }
    window_of(r, &start, &hours);
    memset(&props, 0, sizeof props);
    props.title =
        (char *)(r->rec ? "GPU purchasing plan" : "GPU purchasing report");
    props.subject = (char *)"GPU cloud capacity: cost, commitments, savings";
    props.author = (char *)"gpuplan " GP_VERSION;
    props.comments = (char *)"Written by gpuplan; every number agrees with "
                             "its --json output.";
    props.created = (time_t)((start + (int64_t)hours) * 3600);
    workbook_set_properties(x.wb, &props);
    make_formats(&x);

    memset(&rr, 0, sizeof rr);
    rr.first = 1;
    /* Summary comes first but its what-if block reads the
     * Recommendations rows, which start at a fixed row */
    rec_rows_of(r, &rr);
    sheet_summary(&x, &rr);
    if (r->n_ledgers || r->rec) {
        sheet_recommendations(&x, &rr);
        sheet_plans(&x);
        sheet_curves(&x);
        gp_xl_sheet_monthly(&x);
        gp_xl_sheet_forecast(&x);
        gp_xl_sheet_utilization(&x);
        gp_xl_sheet_spot(&x);
        gp_xl_sheet_chargeback(&x);
        gp_xl_sheet_idle(&x);
    } else {
        /* the forecast command's workbook: nothing was billed */
        gp_xl_sheet_forecast(&x);
        if (r->idle)
            gp_xl_sheet_idle(&x);
    }
    sheet_inputs(&x);

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
    return gp_rename_into_place(tmp, path, st, err);
}

/* ---- billing a recommendation's plan ----------------------------------------
 */



gp_status gp_xlsx_write_run(const char *path, const gp_run_info *info,
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
    return gp_xlsx_write(path, &r, err);
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
