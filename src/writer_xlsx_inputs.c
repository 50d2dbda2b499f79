/*
 * writer_xlsx_inputs.c: the workbook's last sheet, Inputs and assumptions:
 * the options given, the catalogs and prices, the scenario, the trace and
 * the assumptions every number rests on.
 */
#include "classify.h"
#include "levers.h"
#include "recommend.h"
#include "util.h"
#include "writer_xlsx.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- Inputs & assumptions --------------------------------------------------
 */

/* A label and its text; the text overflows into the empty cells to its
 * right rather than widening column B, which the tables below share. */
static void kv_text(gp_xl *x, xl_sheet *s, size_t row, const char *k,
                    const char *v)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, gp_xl_shown(x, k),
                           x->f.label);
    gp_xl_text_capped(s, row, 1, v, x->f.text);
}

/* A label and its number. */
static void kv_num(gp_xl *x, xl_sheet *s, size_t row, const char *k, double v,
                   lxw_format *f)
{
    worksheet_write_string(s->ws, (lxw_row_t)row, 0, gp_xl_shown(x, k),
                           x->f.label);
    gp_xl_num(s, row, 1, v, f);
}

/* The catalogs read: where, as of when, from which sources. */
static size_t inputs_catalogs(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const h[] = {
        "Provider", "Region", "Currency", "Prices as of", "Instance types",
        "File"};
    const gp_pricing *p = x->r->info->pricing;
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0, "Catalogs", x->f.h2);
    size_t first = row;
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        row++;
        gp_xl_text(s, row, 0, c->provider, x->f.text);
        gp_xl_text(s, row, 1, c->region, x->f.text);
        gp_xl_text(s, row, 2, c->currency, x->f.text);
        gp_xl_text(s, row, 3, c->as_of, x->f.text);
        gp_xl_num(s, row, 4, (double)c->n_types, x->f.count);
        gp_xl_text(s, row, 5, c->path, x->f.text);
    }
    gp_xl_table(x, s, first, row, 0, h, 6);
    /* each catalog's sources under the table, a paragraph across the
     * sheet: in a column of the table they made rows 20 lines tall */
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        /* all of them: a 1,024-byte buffer cut the bundled AWS catalog's
         * 1,110 characters of sources mid-word */
        size_t len = strlen(c->provider) + strlen(c->region) + 32, n;
        for (size_t k = 0; k < c->n_sources; k++)
            len += strlen(c->sources[k]) + 2;
        char *src = gp_xl_calloc(x, len, 1);
        if (!src) /* out of memory: the workbook fails (x->nomem) */
            break;
        n = (size_t)snprintf(src, len, "Sources, %s %s: ", c->provider,
                             c->region);
        for (size_t k = 0; k < c->n_sources; k++)
            n += (size_t)snprintf(src + n, len - n, "%s%s", k ? "; " : "",
                                  c->sources[k]);
        gp_xl_para(s, ++row, src, x->f.note_wrap);
        gp_free(src);
    }
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
            gp_xl_text_capped(s, row++, 1, buf, x->f.text);
        }
        /* its levers (levers.h), when it pulls any */
        if (k && gp_strategy_has_levers(sg)) {
            snprintf(k, len, "Levers, %s", sg->name);
            gp_xl_text(s, row, 0, k, x->f.label);
            gp_levers_describe(sg, buf, sizeof buf);
            gp_xl_text_capped(s, row++, 1, buf, x->f.text);
        }
        gp_free(k);
    }
    if (sc->n_strategies > 1 && x->r->rec)
        gp_xl_para(s, row++,
                   "recommend plans on the baseline's policy; simulate "
                   "compares the strategies",
                   x->f.note_wrap);
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
    if (t->rows_rejected) /* set aside: the numbers hold the rest */
        kv_num(x, s, row++, "Rows kept (in these numbers)",
               (double)(t->rows_read - t->rows_rejected), x->f.count);
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

/* The most classified series the Inputs sheet lists one by one. */
#define MAX_CLASSIFIED_ROWS 200

/* The series classification decided (unlabelled in the trace): each one's
 * label, confidence and what it was billed as, then what confirming the
 * held-back ones is worth (classify.h). */
static size_t inputs_classified(gp_xl *x, xl_sheet *s, size_t row)
{
    static const char *const h[] = {"Instance type", "Team",     "Project",
                                    "Workload",      "Confidence", "Billed as"};
    const gp_classification *c = x->r->info->classified;
    const gp_trace *t = x->t;
    size_t shown = 0, decided = 0;

    if (!c)
        return row;
    for (size_t i = 0; i < c->n_series; i++)
        decided += c->series[i].decided;
    if (!decided)
        return row;
    worksheet_write_string(s->ws, (lxw_row_t)row++, 0,
                           "Classified series (unlabelled in the trace)",
                           x->f.h2);
    size_t first = row;
    for (size_t i = 0; i < c->n_series && shown < MAX_CLASSIFIED_ROWS; i++) {
        const gp_series_class *v = &c->series[i];
        if (!v->decided)
            continue;
        row++;
        shown++;
        gp_xl_text(s, row, 0, t->pools[v->pool].type->name, x->f.text);
        gp_xl_text(s, row, 1, v->team >= 0 ? t->labels[v->team] : "",
                   x->f.text);
        gp_xl_text(s, row, 2, v->project >= 0 ? t->labels[v->project] : "",
                   x->f.text);
        gp_xl_text(s, row, 3, gp_classify_label_name(v), x->f.text);
        gp_xl_num(s, row, 4, v->confidence, x->f.pct);
        gp_xl_text(s, row, 5, gp_workload_name(gp_classify_planned(v)),
                   x->f.text);
    }
    gp_xl_table(x, s, first, row, 0, h, 6);
    char buf[256];
    if (decided > shown) {
        snprintf(buf, sizeof buf,
                 "%zu more classified series are not listed; gpuplan "
                 "classify lists them all.",
                 decided - shown);
        gp_xl_para(s, ++row, buf, x->f.note_wrap);
    }
    if (c->worth_series && c->worth >= 0.005) {
        char money[48];
        gp_format_money(c->worth, money, sizeof money);
        snprintf(buf, sizeof buf,
                 "%zu series lean training but were billed as inference "
                 "(unknown, or under the spot confidence): labelled "
                 "training they would save %s on spot.",
                 c->worth_series, money);
        gp_xl_para(s, ++row, buf, x->f.note_wrap);
    }
    return row + 2;
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
        kv_text(x, s, row++, GP_PARAM_TEXT("train-until"), buf);
    }
    if (in->forward_hours) {
        snprintf(buf, sizeof buf,
                 "%zu hours (bought against the forecast of the next %zu "
                 "hours)",
                 in->forward_hours, in->forward_hours);
        kv_text(x, s, row++, GP_PARAM_TEXT("forward"), buf);
    }
    if (in->horizon_hours) {
        snprintf(buf, sizeof buf, "%zu hours", in->horizon_hours);
        kv_text(x, s, row++, GP_PARAM_TEXT("horizon"), buf);
    }
    if (in->runs_given)
        kv_num(x, s, row++, GP_PARAM_TEXT("runs"), (double)in->runs, x->f.count);
    if (in->seed_given)
        kv_num(x, s, row++, GP_PARAM_TEXT("seed"), (double)in->seed, x->f.count);
    if (to->layout == GP_LAYOUT_JOBS)
        kv_text(x, s, row++, GP_PARAM_TEXT("layout"), "jobs");
    if (in->step_given) {
        snprintf(buf, sizeof buf, "%g seconds", to->default_step_s);
        kv_text(x, s, row++, GP_PARAM_TEXT("step"), buf);
    }
    if (to->region)
        kv_text(x, s, row++, GP_PARAM_TEXT("region"), to->region);
    if (to->provider)
        kv_text(x, s, row++, GP_PARAM_TEXT("provider"), to->provider);
    if (to->instance_type)
        kv_text(x, s, row++, GP_PARAM_TEXT("instance-type"), to->instance_type);
    buf[0] = '\0';
    for (size_t i = 0; i < to->n_map; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s=%s",
                 i ? ", " : "", to->map[i][0], to->map[i][1]);
    if (to->n_map)
        kv_text(x, s, row++, GP_PARAM_TEXT("map"), buf);
    if (in->idle_threshold_given) {
        snprintf(buf, sizeof buf, "%g%% (idle GPUs: gpu_util below it)",
                 to->idle_threshold_pct);
        kv_text(x, s, row++, GP_PARAM_TEXT("idle-threshold"), buf);
    }
    if (in->idle_min_hours_given) {
        snprintf(buf, sizeof buf,
                 "%g hour%s (idle GPUs: spans at least this long)",
                 to->idle_min_hours, to->idle_min_hours == 1 ? "" : "s");
        kv_text(x, s, row++, GP_PARAM_TEXT("idle-min-hours"), buf);
    }
    if (in->skip_bad)
        kv_text(x, s, row++, GP_PARAM_TEXT("skip-bad"),
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
void gp_xl_sheet_inputs(gp_xl *x)
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
                                 : "given with " GP_PARAM_TEXT("trace"));
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
    row = inputs_classified(x, &s, row);
    worksheet_write_string(s.ws, (lxw_row_t)row++, 0, "Assumptions", x->f.h2);
    char estimates[160];
    if (estimate_note(x, estimates, sizeof estimates))
        gp_xl_para(&s, row++, estimates, x->f.note_wrap);
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
        gp_xl_para(&s, row++, notes[i], x->f.note_wrap);
    if (s.width[0] < 30)
        s.width[0] = 30;
    /* a page's worth (the bundled sample's runs a few rows over at the
     * width its prices table sets) prints on one page rather than leave
     * the assumptions alone on a second; a longer one flows on */
    if (row <= 100)
        s.pages_tall = 1;
    gp_xl_fit(&s);
}
