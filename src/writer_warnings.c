/*
 * writer_warnings.c: what a run's reports warn of beside their numbers
 * (the JSON's inputs.warnings, the workbook's Summary): unlabelled usage
 * and idle GPUs, estimated rates, usage a spot launch left on demand.
 */
#include "idle.h"
#include "util.h"
#include "writers.h"

#include <stdio.h>
#include <string.h>

void gp_usage_warnings(const gp_trace *t, const gp_idle_report *idle,
                       gp_warnings *w)
{
    /* simulate, recommend and forecast classify every unlabelled series
     * first (gp_classify_trace), so from the CLI none is left; a caller
     * that bills a trace as loaded gets this.  Such usage follows the
     * inference policy (gp_policy_of), which sends it to spot when it
     * launches spot and the rows said interruptible=true (gp_route_of) */
    if (t->instance_hours[GP_UNLABELED] > 0) {
        char hours[32];
        gp_format_small(t->instance_hours[GP_UNLABELED], "0", hours,
                        sizeof hours);
        gp_warnings_add(w,
                        "%s instance-hours had no workload label and were "
                        "billed by the inference policy (on demand unless "
                        "it launches spot and their rows say "
                        "interruptible=true)",
                        hours);
    }
    if (idle && idle->n_spans > 0) {
        char money[32];
        gp_format_money(idle->cost, money, sizeof money);
        gp_warnings_add(
            w,
            "%zu idle %s: %.1f GPU-hours below %g%% "
            "utilization for %g hours or more, %s at on-demand "
            "rates (see Idle)",
            idle->n_spans, gp_plural(idle->n_spans, "span", "spans"),
            idle->gpu_hours, idle->threshold_pct, idle->min_hours, money);
    }
}

void gp_spot_estimate_warn(gp_warnings *w, const gp_trace *t,
                           const gp_strategy *sg, const double *hours)
{
    for (size_t p = 0; p < t->n_pools; p++) {
        if (!t->pools[p].type->spot.estimate)
            continue;
        for (size_t i = 0; i < t->n_series; i++)
            if (t->series[i].pool == p && hours[i] > 0 &&
                gp_route_of(t, sg, &t->series[i]) == GP_ROUTE_SPOT) {
                gp_warnings_add(w,
                                "the spot price or interruption rate of %s "
                                "is an estimate",
                                t->pools[p].type->name);
                break;
            }
    }
}

/* Warns of the estimated commitment rates ledger l bills: a
 * reservation's, or the savings-plan rates of the pools a plan covers. */
static void warn_estimated_rates(gp_run_info *info, const gp_ledger *l)
{
    const gp_trace *t = info->trace;

    for (size_t i = 0; i < l->n_commitments; i++) {
        const gp_commitment *c = l->commitments[i].c;
        if (c->type == GP_COMMIT_RESERVED) {
            const gp_reserved_offer *o =
                gp_reserved_offer_of(info->pricing, c, NULL);
            if (o && o->estimate)
                gp_warnings_add(&info->warnings,
                                "the %d-year %s reservation rate of "
                                "%s is an estimate, not a list price",
                                c->term_years, gp_payment_name(c->payment),
                                c->instance_type);
        } else {
            /* the rates of the pools the plan covers (a family plan's
             * family in its region), as models/savings_plan.c bills */
            for (size_t p = 0; p < t->n_pools; p++) {
                const gp_plan_offer *o = gp_plan_offer_of(
                    c, t->pools[p].catalog, t->pools[p].type);
                if (o && o->estimate)
                    gp_warnings_add(
                        &info->warnings,
                        "the %d-year %s %s savings-plan rate of %s "
                        "is an estimate, not a list price",
                        c->term_years, gp_payment_name(c->payment),
                        gp_plan_kind_name(c->kind), t->pools[p].type->name);
            }
        }
    }
}

/* Warns of the usage strategy sg launches on spot that ledger l left on
 * demand, by workload and reason. */
static void warn_left_on_demand(gp_run_info *info, const gp_ledger *l,
                                const gp_strategy *sg)
{
    const gp_trace *t = info->trace;

    /* a spot launch covers interruptible usage of types with a spot
     * offer only (gp_route_of); say when it left usage on demand,
     * by policy (unlabelled usage follows inference's) and reason */
    double left[2][2] = {{0, 0}, {0, 0}};
    for (size_t i = 0; i < t->n_series; i++) {
        const gp_series *ser = &t->series[i];
        gp_launch_route r = gp_route_of(t, sg, ser);
        if (r != GP_ROUTE_NOT_INTERRUPTIBLE && r != GP_ROUTE_NO_SPOT_PRICE)
            continue;
        /* the series' instance-hours billed in the window */
        left[gp_policy_of(sg, ser) - sg->policy]
            [r == GP_ROUTE_NO_SPOT_PRICE] += l->series[i].instance_hours;
    }
    static const char *const why[2] = {
        "not interruptible (interruptible=false, the default for "
        "inference and unlabelled rows)",
        "on types with no spot price in the catalogs"};
    static const char *const why_one[2] = {
        "not interruptible (interruptible=false, the default for "
        "inference and unlabelled rows)",
        "on a type with no spot price in the catalogs"};
    for (int w = 0; w < 2; w++)
        for (int r = 0; r < 2; r++)
            if (left[w][r] > 0) {
                /* to the hundredth without trailing zeros ("0.25",
                 * "12.5", "3"), two significant digits under 0.005
                 * ("0.0042"): a quarter-hour step left on demand is
                 * not "0 of its instance-hours" */
                char hrs[32];
                gp_format_trimmed(left[w][r], 2, hrs, sizeof hrs);
                if (strcmp(hrs, "0") == 0)
                    snprintf(hrs, sizeof hrs, "%.2g", left[w][r]);
                bool one = strcmp(hrs, "1") == 0;
                gp_warnings_add(&info->warnings,
                                "strategy \"%s\" launches %s on spot, "
                                "but %s of its instance-hours in the "
                                "window %s %s and stay%s on demand",
                                sg->name, gp_workload_name((gp_workload)w),
                                hrs, one ? "is" : "are",
                                one ? why_one[r] : why[r], one ? "s" : "");
            }
}

/* Warns of the estimated spot figures ledger l bills, and of spot price
 * histories that start after its window. */
static void warn_spot_estimates(gp_run_info *info, const gp_ledger *l,
                                const gp_strategy *sg)
{
    const gp_trace *t = info->trace;

    /* the types it launched on spot, not every type of the trace */
    double *hours = gp_calloc(t->n_series + 1, sizeof *hours);
    for (size_t i = 0; hours && i < t->n_series; i++)
        hours[i] = l->series[i].instance_hours;
    if (hours)
        gp_spot_estimate_warn(&info->warnings, t, sg, hours);
    else
        gp_warnings_lost(&info->warnings);
    gp_free(hours);
    /* a price history that starts after the window does: its
     * first price stands in for the hours before it */
    for (size_t i = 0; i < t->n_series; i++) {
        const gp_series *ser = &t->series[i];
        const gp_spot_offer *so = &t->pools[ser->pool].type->spot;
        int64_t ws = l->start_hour * 3600;
        char a[32], b[32];
        if (so->n_history == 0 || so->history[0].t <= ws ||
            l->series[i].instance_hours <= 0 ||
            gp_route_of(t, sg, ser) != GP_ROUTE_SPOT)
            continue;
        gp_format_time(so->history[0].t, a, sizeof a);
        gp_format_time(ws, b, sizeof b);
        gp_warnings_add(&info->warnings,
                        "the spot price history of %s starts at %s, "
                        "after the window (from %s): spot hours "
                        "before it are priced at its first price, "
                        "%s%.4f/h",
                        t->pools[ser->pool].type->name, a, b,
                        gp_money_prefix(), so->history[0].hourly);
    }
}

/* Warns of the spot job runs of ledger l that go outside their type's
 * availability history: outside it the replay counts capacity as there
 * (gp_availability_at), which a history of other dates says nothing of. */
static void warn_availability(gp_run_info *info, const gp_ledger *l)
{
    const gp_trace *t = info->trace;

    for (size_t p = 0; p < t->n_pools; p++) {
        const gp_availability *a = &t->pools[p].type->spot.avail;
        double span = (double)a->n * a->gap_s;
        size_t out = 0, runs = 0;
        char a0[32], a1[32], where[96];
        for (size_t j = 0; a->available && j < l->n_jobs; j++) {
            const gp_job_run *r = &t->runs[l->jobs[j].run];
            double from = a->timed ? (double)a->t0 : (double)r->start;
            if (t->series[r->series].pool != p)
                continue;
            runs++;
            out += (double)r->start < from || (double)r->end > from + span;
        }
        if (out == 0)
            continue;
        gp_format_time(a->t0, a0, sizeof a0);
        gp_format_time(a->t0 + (int64_t)span, a1, sizeof a1);
        if (a->timed)
            snprintf(where, sizeof where, "%s to %s", a0, a1);
        else
            snprintf(where, sizeof where, "%.1f h from each run's start",
                     span / 3600);
        gp_warnings_add(&info->warnings,
                        "%zu of %zu spot job runs of %s go outside its "
                        "availability history (%s): outside it capacity "
                        "counts as always there",
                        out, runs, t->pools[p].type->name, where);
    }
}

/* Warns of a strategy's levers that assumed a utilization, kept hours
 * without one, or changed nothing. */
static void warn_levers(gp_run_info *info, const gp_ledger *l,
                        const gp_strategy *sg)
{
    const gp_ledger_levers *v = &l->levers;
    const gp_move *moves[2] = {&sg->rightsize, &sg->migrate};
    static const char *const names[2] = {"rightsize", "migrate"};

    if (!v->any)
        return;
    if (v->autoscale && v->autoscale_recorded_ih <= 0)
        gp_warnings_add(&info->warnings,
                        "strategy %s: autoscale matches no inference usage "
                        "in the window",
                        l->strategy);
    if (v->autoscale_assumed_hours > 0)
        gp_warnings_add(&info->warnings,
                        "strategy %s: autoscale assumed a gpu_util of %g%% "
                        "in %.0f series-hours that had none",
                        l->strategy, sg->autoscale.assumed_util,
                        v->autoscale_assumed_hours);
    if (v->autoscale_unknown_hours > 0)
        gp_warnings_add(&info->warnings,
                        "strategy %s: autoscale kept the recorded instance "
                        "count in %.0f series-hours without gpu_util (the "
                        "scenario's autoscale.assumed_util would scale "
                        "them)",
                        l->strategy, v->autoscale_unknown_hours);
    for (int k = 0; k < 2; k++)
        if (moves[k]->on && v->moved_ih[k] <= 0)
            gp_warnings_add(&info->warnings,
                            "strategy %s: %s moves nothing: no usage of %s "
                            "it applies to in the window",
                            l->strategy, names[k], moves[k]->from);
}

void gp_run_info_warn(gp_run_info *info, gp_ledger *const *ledgers,
                      size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const gp_ledger *l = ledgers[k];
        const gp_strategy *sg = &info->scenario->strategies[k];
        warn_estimated_rates(info, l);
        warn_left_on_demand(info, l, sg);
        warn_levers(info, l, sg);
        gp_capacity_left_warn(info, l, sg);
        if (l->cost[GP_MODEL_SPOT] > 0)
            warn_spot_estimates(info, l, sg);
        warn_availability(info, l);
    }
}

void gp_run_info_text(const gp_run_info *info, const char *text, char *buf,
                      size_t size)
{
    gp_param_expand(text, info ? info->show_param : NULL, NULL, buf, size);
}
