/*
 * recommend_capacity.c: the capacity action (SPEC 7.4): each large job
 * run priced on demand, on spot (the spot replay's mean), on a capacity
 * block sized to it, on flex-start and on a calendar reservation, and
 * the cheapest that meets its deadline named, with its reason and risk.
 * The rules are in docs/recommend.md and docs/billing.md.
 */
#include "capacity.h"
#include "recommend_internal.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *gp_capacity_option_name(gp_capacity_option o)
{
    static const char *const names[GP_N_CAP_OPTIONS] = {
        "on_demand", "spot", "capacity_block", "flex_start", "calendar"};
    return (unsigned)o < GP_N_CAP_OPTIONS ? names[o] : "?";
}

/* A job run's wall time in hours. */
static double run_hours(const gp_job_run *jr)
{
    return (double)(jr->end - jr->start) / 3600.0;
}

/* The run's on-demand cost, before the discount: as billed, hour by hour. */
static double run_on_demand(const gp_trace *t, const gp_job_run *jr)
{
    return jr->instance_hours * t->pools[t->series[jr->series].pool].type->on_demand;
}

/* Whether run jr is large and starts in c's window. */
static bool is_large(const struct ctx *c, const gp_job_run *jr)
{
    int64_t ws = c->start_hour * 3600;
    int64_t we = ws + (int64_t)c->n_hours * 3600;
    return jr->instances >= GP_CAPACITY_MIN_INSTANCES - 1e-9 &&
           run_hours(jr) >= GP_CAPACITY_MIN_HOURS - 1e-9 &&
           jr->start >= ws && jr->start < we;
}

/* Most expensive on demand first (option[GP_CAP_ON_DEMAND].cost holds it
 * while sorting); ties by run index. */
static int by_cost(const void *a, const void *b)
{
    const gp_capacity_choice *x = a, *y = b;
    double cx = x->option[GP_CAP_ON_DEMAND].cost;
    double cy = y->option[GP_CAP_ON_DEMAND].cost;
    if (cx != cy)
        return cx > cy ? -1 : 1;
    return x->run < y->run ? -1 : x->run > y->run;
}

/* The run's deadline in hours from its start (gp_policy_deadline_h),
 * INFINITY for none. */
static double run_deadline(const gp_policy *p, double hours)
{
    double d = gp_policy_deadline_h(p, hours);
    return d >= 0 ? d : INFINITY;
}

/* Spot meets a run's deadline when at least this share of its replays
 * finish by it (the replay's fallback aims at all of them; a checkpoint
 * or a restart past the last safe moment can make a few late). */
#define SPOT_MEETS_SHARE 0.9

/* Copies a quote into an option, the discount kept (keep = 1 - it). */
static void from_quote(gp_capacity_cost *o, const gp_capacity_quote *q,
                       double keep, double deadline)
{
    o->available = q->available;
    o->cost = q->cost * keep;
    o->wait_h = q->wait_h;
    o->finish_h = q->finish_h;
    o->unused_ih = q->unused_ih;
    o->unused_h = q->unused_h;
    o->days = q->days;
    o->units = q->units;
    o->estimate = q->estimate;
    o->meets_deadline = q->available && q->finish_h <= deadline + 1e-9;
}

/* Prices run ch on demand and on the instruments its type's catalog
 * sells (spot comes from the replay: spot_option). */
static void price_run(const struct ctx *c, gp_capacity_choice *ch)
{
    const gp_trace *t = c->trace;
    const gp_job_run *jr = &t->runs[ch->run];
    const gp_series *ser = &t->series[jr->series];
    const gp_instance_type *it = t->pools[ser->pool].type;
    const gp_policy *pol = gp_series_policy(c->spec.policy, ser);
    double keep = 1.0 - c->spec.discount;
    gp_capacity_quote q;

    ch->instances = jr->instances;
    ch->hours = run_hours(jr);
    ch->instance_hours = jr->instance_hours;
    ch->deadline_h = run_deadline(pol, ch->hours);
    gp_capacity_cost *od = &ch->option[GP_CAP_ON_DEMAND];
    od->available = true;
    od->cost = run_on_demand(t, jr) * keep;
    od->finish_h = ch->hours;
    /* a deadline shorter than the run itself nothing meets */
    od->meets_deadline = od->finish_h <= ch->deadline_h + 1e-9;

    gp_quote_reservation(it->blocks, it->n_blocks, false, jr->instances,
                         ch->hours, jr->instance_hours, &q);
    from_quote(&ch->option[GP_CAP_BLOCK], &q, keep, ch->deadline_h);
    gp_quote_flex(&it->flex, jr->instances, ch->hours, jr->instance_hours,
                  pol->restart_overhead_h, &q);
    from_quote(&ch->option[GP_CAP_FLEX], &q, keep, ch->deadline_h);
    gp_quote_reservation(it->calendar, it->n_calendar, true, jr->instances,
                         ch->hours, jr->instance_hours, &q);
    from_quote(&ch->option[GP_CAP_CALENDAR], &q, keep, ch->deadline_h);

    static const char *const none[GP_N_CAP_OPTIONS] = {
        "", "", "no capacity block in the catalog", "no flex-start in the catalog",
        "no calendar mode in the catalog"};
    for (int k = GP_CAP_BLOCK; k < GP_N_CAP_OPTIONS; k++) {
        gp_capacity_cost *o = &ch->option[k];
        if (!o->available)
            snprintf(o->note, sizeof o->note, "%s",
                     (k == GP_CAP_BLOCK ? it->n_blocks
                      : k == GP_CAP_CALENDAR ? it->n_calendar
                                             : it->flex.present)
                         ? "longer than the longest the catalog sells"
                         : none[k]);
        else if (k == GP_CAP_FLEX)
            snprintf(o->note, sizeof o->note,
                     "%d request%s, %g h expected wait", o->units,
                     o->units == 1 ? "" : "s", o->wait_h);
        else
            snprintf(o->note, sizeof o->note,
                     "%d day%s x %g instances%s, %.1f h unused at the end",
                     o->days, o->days == 1 ? "" : "s",
                     ceil(jr->instances - 1e-9),
                     k == GP_CAP_BLOCK && o->units > 1 ? " in blocks of 64"
                                                       : "",
                     o->unused_h);
    }
}

/* The spot option of every choice, from one bill with every workload
 * launched on spot: each run's Monte Carlo mean (interruptions and
 * fallback included, after the discount). */
static gp_status spot_option(const struct ctx *c, gp_capacity_choice *ch,
                             size_t n, gp_error *err)
{
    struct ctx spot;
    gp_ledger *l = NULL;

    gp_rec_ctx_copy(&spot, c);
    spot.spec.policy[0].launch = GP_LAUNCH_SPOT;
    spot.spec.policy[1].launch = GP_LAUNCH_SPOT;
    gp_status st = gp_rec_bill(&spot, NULL, NULL, 0, &l, err);
    if (st != GP_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        gp_capacity_cost *o = &ch[i].option[GP_CAP_SPOT];
        const gp_job_run *jr = &c->trace->runs[ch[i].run];
        const gp_series *ser = &c->trace->series[jr->series];
        for (size_t j = 0; j < l->n_jobs && !o->available; j++) {
            const gp_ledger_job *lj = &l->jobs[j];
            if (lj->run != ch[i].run)
                continue;
            o->available = true;
            o->meets_deadline =
                lj->met_deadline < 0 || lj->met_deadline >= SPOT_MEETS_SHARE;
            o->cost = lj->cost_mean;
            o->finish_h = ch[i].hours + lj->wait_h_mean;
            char p95[48], met[48] = "";
            gp_format_money(lj->cost_p95, p95, sizeof p95);
            if (lj->met_deadline >= 0)
                snprintf(met, sizeof met, ", deadline met in %.0f%%",
                         100 * lj->met_deadline);
            snprintf(o->note, sizeof o->note,
                     "%.2f interruptions expected, P95 cost %s, fallback "
                     "in %.0f%% of replays%s",
                     lj->interruptions_mean, p95, 100 * lj->fallback_share,
                     met);
        }
        if (!o->available)
            snprintf(o->note, sizeof o->note, "%s",
                     !ser->interruptible ? "not interruptible"
                     : !c->trace->pools[ser->pool].type->spot.present
                         ? "no spot price in the catalog"
                         : "not replayed");
        o->estimate = c->trace->pools[ser->pool].type->spot.estimate;
    }
    gp_ledger_free(l);
    return GP_OK;
}

/* The risk of taking option k for run ch, in words. */
static void risk_of(const gp_capacity_choice *ch, gp_capacity_option k,
                    char *buf, size_t size)
{
    const gp_capacity_cost *o = &ch->option[k];
    switch (k) {
    case GP_CAP_ON_DEMAND:
        snprintf(buf, size, "no commitment; on-demand GPUs of this size may "
                            "be short when the run starts");
        break;
    case GP_CAP_SPOT:
        snprintf(buf, size, "interruptions: %s", o->note);
        break;
    case GP_CAP_BLOCK:
        snprintf(buf, size,
                 "paid up front for %d days whether used or not (a run "
                 "that fails or ends early still pays); bought ahead for "
                 "fixed dates, instances reclaimed 30 minutes before the "
                 "end; the price is %s",
                 o->days, o->estimate ? "an estimate (prices move)" : "dated");
        break;
    case GP_CAP_FLEX:
        snprintf(buf, size,
                 "waits about %g h for capacity (%d request%s of at most 7 "
                 "days); the discount is %s",
                 o->wait_h, o->units, o->units == 1 ? "" : "s",
                 o->estimate ? "the maximum published, an estimate"
                             : "the catalog's");
        break;
    default:
        snprintf(buf, size,
                 "paid for the whole %d-day reservation, used or not; its "
                 "dates are fixed once requested",
                 o->days);
        break;
    }
}

/* Names the cheapest option of ch that meets its deadline (on demand
 * does, unless the deadline is shorter than the run: then none does, and
 * the cheapest done as soon as on demand is named), and says why and at
 * what risk. */
static void choose(gp_capacity_choice *ch, const gp_trace *t)
{
    const gp_job_run *jr = &t->runs[ch->run];
    const gp_instance_type *it = t->pools[t->series[jr->series].pool].type;
    const gp_capacity_cost *od = &ch->option[GP_CAP_ON_DEMAND];
    gp_capacity_option best = GP_CAP_ON_DEMAND;

    for (int k = 1; k < GP_N_CAP_OPTIONS; k++) {
        const gp_capacity_cost *o = &ch->option[k];
        bool in_time = od->meets_deadline
                           ? o->meets_deadline
                           : o->finish_h <= od->finish_h + 1e-9;
        if (o->available && in_time &&
            o->cost < ch->option[best].cost - 0.005)
            best = (gp_capacity_option)k;
    }
    ch->chosen = best;
    ch->net_savings = ch->option[GP_CAP_ON_DEMAND].cost - ch->option[best].cost;
    char cost[48], od_cost[48], deadline[96] = "";
    gp_format_money(ch->option[best].cost, cost, sizeof cost);
    gp_format_money(od->cost, od_cost, sizeof od_cost);
    if (isfinite(ch->deadline_h))
        snprintf(deadline, sizeof deadline, ", deadline %.1f h%s",
                 ch->deadline_h,
                 od->meets_deadline ? "" : " (shorter than the run: none "
                                           "meets it)");
    if (best == GP_CAP_ON_DEMAND)
        snprintf(ch->reason, sizeof ch->reason,
                 "%g x %s for %.1f h%s: on demand (%s) is the cheapest "
                 "option that %s",
                 jr->instances, it->name, ch->hours, deadline, od_cost,
                 od->meets_deadline ? "meets the deadline"
                                    : "is done as soon as on demand");
    else
        snprintf(ch->reason, sizeof ch->reason,
                 "%g x %s for %.1f h%s: %s costs %s instead of %s on demand "
                 "(%s)",
                 jr->instances, it->name, ch->hours, deadline,
                 gp_capacity_option_name(best), cost, od_cost,
                 ch->option[best].note);
    risk_of(ch, best, ch->risk, sizeof ch->risk);
}

gp_status gp_rec_capacity(const struct ctx *c, gp_recommendation *r,
                          gp_error *err)
{
    const gp_trace *t = c->trace;
    size_t n = 0;

    if (!(c->opt->instruments & GP_BUY_CAPACITY))
        return GP_OK;
    for (size_t i = 0; i < t->n_runs; i++)
        n += is_large(c, &t->runs[i]);
    if (n == 0)
        return GP_OK;
    gp_capacity_choice *ch = gp_calloc(n, sizeof *ch);
    if (!ch)
        return GP_ERR_NOMEM;
    n = 0;
    for (size_t i = 0; i < t->n_runs; i++)
        if (is_large(c, &t->runs[i])) {
            ch[n].option[GP_CAP_ON_DEMAND].cost = run_on_demand(t, &t->runs[i]);
            ch[n++].run = (uint32_t)i;
        }
    qsort(ch, n, sizeof *ch, by_cost);
    r->capacity_large = n;
    if (n > GP_CAPACITY_MAX_RUNS)
        n = GP_CAPACITY_MAX_RUNS;
    for (size_t i = 0; i < n; i++)
        price_run(c, &ch[i]);
    gp_status st = spot_option(c, ch, n, err);
    if (st != GP_OK) {
        gp_free(ch);
        return st;
    }
    for (size_t i = 0; i < n; i++)
        choose(&ch[i], t);
    r->capacity = ch;
    r->n_capacity = n;
    return GP_OK;
}
