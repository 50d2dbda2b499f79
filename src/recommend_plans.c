/*
 * recommend_plans.c: the recommender's plans: the terms the history
 * supports, each plan sized by the optimizer and billed by the engine
 * (on the window and in the low-demand case), and its risk in words.
 */
#include "recommend_internal.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- what the history supports ----------------------------------------- */

/* 3 when the window has 26 weeks or more and its last 13 weeks average at
 * least 90% of the whole; else 1.  *share is that average over the
 * whole's (NAN under 26 weeks). */
int gp_rec_supported_term(const struct ctx *c, double *share)
{
    const gp_trace *t = c->trace;
    double all = 0, last = 0;
    size_t last_from = c->n_hours > 13 * WEEK ? c->n_hours - 13 * WEEK : 0;

    *share = NAN;
    if (c->n_hours < 26 * WEEK)
        return 1;
    for (size_t i = 0; i < t->n_series; i++)
        for (size_t h = 0; h < c->n_hours; h++) {
            int64_t th = c->start_hour + (int64_t)h - t->start_hour;
            if (th < 0 || th >= (int64_t)t->n_hours)
                continue;
            all += t->series[i].instance_hours[th];
            if (h >= last_from)
                last += t->series[i].instance_hours[th];
        }
    double mean_all = all / (double)c->n_hours;
    double mean_last = last / (double)(c->n_hours - last_from);
    *share = mean_all > 0 ? mean_last / mean_all : 1;
    return mean_last >= 0.9 * mean_all ? 3 : 1;
}

/* A span of hours in words: "13 weeks", "1 week", "27.5 weeks", or under a
 * week "100 hours", "1 hour".  Tenths of a week are cut, not rounded, so
 * a span short of a whole number of weeks never reads as it: 671 hours is
 * "3.9 weeks", under the 4 weeks a rule asks for, not "4.0 weeks". */
void gp_rec_span_words(size_t hours, char *buf, size_t size)
{
    if (hours >= WEEK && hours % WEEK == 0)
        snprintf(buf, size, "%zu week%s", hours / WEEK,
                 gp_plural(hours / WEEK, "", "s"));
    else if (hours >= WEEK)
        snprintf(buf, size, "%zu.%zu weeks", hours / WEEK,
                 hours % WEEK * 10 / WEEK);
    else
        snprintf(buf, size, "%zu hour%s", hours, gp_plural(hours, "", "s"));
}

/* Why 3-year terms are not supported, after "as": the window is under 26
 * weeks, or it declines; with n_hours > 0 the text says how long the
 * window is. */
void gp_rec_unsupported_why(const gp_recommendation *r, size_t n_hours,
                            bool forecast, char *buf, size_t size)
{
    char span[48] = "";
    if (n_hours) {
        char w[32];
        gp_rec_span_words(n_hours, w, sizeof w);
        snprintf(span, sizeof span, " (there %s %s)",
                 n_hours == 1 || n_hours == WEEK ? "is" : "are", w);
    }
    if (isnan(r->last_13_weeks_share))
        snprintf(buf, size, "3-year terms need 26 weeks of %s%s",
                 forecast ? "forecast" : "history", span);
    else
        snprintf(buf, size,
                 "the %s declines: its last 13 weeks average %.0f%% of the "
                 "whole, and 3-year terms need 90%% or more",
                 forecast ? "forecast" : "history",
                 100 * r->last_13_weeks_share);
}

/* ---- plans --------------------------------------------------------------- */

/* What the scenario's discount leaves of a catalog price (the engine
 * bills every price, commitment fees included, times this). */
static double kept(const struct ctx *c)
{
    return 1.0 - c->spec.discount;
}

/* A commitment's upfront payment, less the scenario's discount. */
double gp_rec_upfront_of(const struct ctx *c, const gp_commitment *cm)
{
    double per_hour, upfront;
    gp_commitment_cash(cm, c->pricing, &per_hour, &upfront);
    return upfront * kept(c);
}

/* A year of a commitment's amortized cost, less the scenario's discount. */
static double annual_of(const struct ctx *c, const gp_commitment *cm)
{
    if (cm->type == GP_COMMIT_SAVINGS_PLAN)
        return cm->hourly_commitment * 8760.0 * kept(c);
    const gp_reserved_offer *o = gp_reserved_offer_of(c->pricing, cm, NULL);
    return o ? gp_reserved_effective_hourly(o) * cm->count * 8760.0 * kept(c)
             : 0;
}

/* What a plan of terms up to max_term and `payments` may buy within the
 * user's choices: their intersection, or the user's alone when the two
 * share nothing (a user who asks for 3-year terms gets them in every
 * plan). */
gp_opt_choices gp_rec_choices(const struct ctx *c, int max_term,
                              unsigned payments)
{
    const gp_recommend_options *u = c->opt;
    unsigned terms = GP_TERM_BIT(1) | (max_term >= 3 ? GP_TERM_BIT(3) : 0);
    gp_opt_choices ch = {terms & u->terms, payments & u->payments,
                         u->instruments & GP_BUY_ALL, NULL, 0};
    if (max_term < 1)
        ch.terms = 0;
    else if (!ch.terms)
        ch.terms = u->terms;
    if (!ch.payments)
        ch.payments = u->payments;
    /* reservations of a type a strategy migrates count its stranded
     * hours (SPEC 7.5) */
    ch.migrations = c->scenario;
    ch.buy_at = c->start_hour * 3600;
    return ch;
}

/* Sizes one plan with the optimizer on `size_on` and bills it on the
 * window and, once `low` is ready, on the low-demand case. */
gp_status gp_rec_make_plan(const struct ctx *c, const gp_trace *size_on,
                           struct downside_job *low, const char *name,
                           int max_term, unsigned payments, double policy_cost,
                           const gp_opt *warm, gp_plan_result *out,
                           gp_opt **opt_out, gp_ledger **ledger_out,
                           gp_error *err)
{
    gp_opt *o = NULL;
    gp_status st;

    memset(out, 0, sizeof *out);
    snprintf(out->name, sizeof out->name, "%s", name);
    out->route_training_to_spot = c->spec.policy[0].launch == GP_LAUNCH_SPOT;
    gp_opt_choices ch = gp_rec_choices(c, max_term, payments);
    st = gp_opt_build_choices(&o, size_on, c->pricing, &c->spec, &ch, err);
    if (st != GP_OK)
        return st;
    if (warm) {
        /* the other plans start from the balanced one's levels */
        gp_opt_warm_start(o, warm);
        o->max_rounds = 15;
    }
    o->no_cost = true; /* the engine bills the plan below */
    gp_opt_solve(o);
    if (o->nomem) {
        st = GP_ERR_NOMEM;
        goto out;
    }
    st = gp_opt_commitments(o, c->start_hour * 3600, &out->commitments,
                            &out->n_commitments);
    if (st != GP_OK)
        goto out;
    /* the plan's bill and, beside it, its bill in the low-demand case */
    if ((st = gp_rec_downside_wait(low, err)) != GP_OK)
        goto out;
    const gp_trace *downside = low->down;
    struct bill_job pj, dj;
    memset(&pj, 0, sizeof pj);
    pj.c = c;
    pj.extra = out->commitments;
    pj.n_extra = out->n_commitments;
    dj = pj;
    dj.t = downside;
    st = downside ? gp_rec_bill_two(&pj, &dj, err)
                  : gp_rec_bill(c, NULL, out->commitments, out->n_commitments,
                                &pj.out, err);
    if (st == GP_OK) {
        out->total_cost = pj.out->total_cost;
        /* a window under a day has no low-demand case: unknown, not 0 */
        out->downside_net_savings =
            downside ? low->policy - dj.out->total_cost : NAN;
    }
    gp_ledger_free(dj.out);
    if (st == GP_OK && ledger_out)
        *ledger_out = pj.out;
    else
        gp_ledger_free(pj.out);
    if (st != GP_OK)
        goto out;
    out->net_savings = policy_cost - out->total_cost;
    for (size_t i = 0; i < out->n_commitments; i++) {
        out->upfront += gp_rec_upfront_of(c, &out->commitments[i]);
        out->annual_cost += annual_of(c, &out->commitments[i]);
    }
out:
    if (opt_out && st == GP_OK)
        *opt_out = o;
    else
        gp_opt_free(o);
    return st;
}

/* Plan i's longest term bought (max_term) and its risk in words: the
 * terms, what they were sized on, and the low-demand case. */
void gp_rec_plan_risk(const struct ctx *c, gp_recommendation *r, int i)
{
    /* the terms it buys, not the terms it was allowed: an aggressive
     * plan may find no 3-year offer worth buying */
    int longest = 0;
    for (size_t k = 0; k < r->plans[i].n_commitments; k++)
        if (r->plans[i].commitments[k].term_years > longest)
            longest = r->plans[i].commitments[k].term_years;
    r->plans[i].max_term = longest; /* 0: it buys nothing */
    const char *terms = longest ? "1-year terms" : "buys no commitments";
    /* the low-demand case, said alike for 1- and 3-year terms */
    char low_case[160];
    if (isnan(r->plans[i].downside_net_savings))
        snprintf(low_case, sizeof low_case,
                 "no low-demand case, as the window is under a day (the "
                 "case repeats its lowest day)");
    else {
        char low_amount[48];
        gp_format_money(fabs(r->plans[i].downside_net_savings), low_amount,
                        sizeof low_amount);
        snprintf(low_case, sizeof low_case,
                 "in the low-demand case it %s %s over the window",
                 r->plans[i].downside_net_savings < 0 ? "loses" : "saves",
                 low_amount);
    }
    if (longest == 3) {
        char span[32], why[200], annual[48];
        gp_rec_span_words(c->n_hours, span, sizeof span);
        gp_rec_unsupported_why(r, 0, c->low != NULL, why, sizeof why);
        /* as the low-demand case writes money: "$119,005.27" */
        gp_format_money(r->plans[i].annual_cost, annual, sizeof annual);
        snprintf(r->plans[i].risk, sizeof r->plans[i].risk,
                 "3-year terms on %s of %s (%s%s): the plan pays "
                 "%s a year for 3 years whatever demand does; %s",
                 span, c->low ? "forecast" : "history",
                 r->supported_term == 3 ? "supported: 26+ weeks, not "
                                          "declining"
                                        : "not supported, as ",
                 r->supported_term == 3 ? "" : why, annual, low_case);
    } else {
        /* on a forecast shorter than the term, the plan is billed for
         * the forecast's hours of each term only (amortized): the rest
         * of the year is in neither its savings nor its low case */
        char covers[160] = "";
        if (longest == 1 && !c->low &&
            c->n_hours < ONE_YEAR_HISTORY_HOURS) {
            /* a year bought on a few days of history */
            char span[32];
            gp_rec_span_words(c->n_hours, span, sizeof span);
            snprintf(covers, sizeof covers,
                     " sized on %s of history (under 4 weeks: too "
                     "little to tell whether demand lasts the year)",
                     span);
        } else if (longest == 1 && c->low && c->n_hours < 365 * 24) {
            char span[32];
            gp_rec_span_words(c->n_hours, span, sizeof span);
            snprintf(covers, sizeof covers,
                     ", of which the forecast covers %s: its savings "
                     "and low-demand case count only those, not the "
                     "rest of each term",
                     span);
        }
        snprintf(r->plans[i].risk, sizeof r->plans[i].risk, "%s%s; %s",
                 terms, covers, low_case);
    }
}
