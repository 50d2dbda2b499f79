/*
 * optimizer_build.c: the problem gp_opt_build makes of a trace (per-pool
 * demand after the owned reservations, the cheapest offers allowed, the
 * plans in billing order), and the decisions into and out of it
 * (gp_opt_warm_start, gp_opt_commitments).
 */
#include "optimizer_internal.h"
#include "capacity.h"
#include "covering.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two offers whose rates differ by less than this ($/h, plus as much
 * relative) differ only by the catalogs' rounding (five decimals) */
#define SAME_RATE 1e-5

static _Thread_local const gp_opt *sort_opt;

/* A plan's pools in the covering order the savings plan model bills them
 * in (gp_covering_cmp): highest discount first, ties to the lower rate. */
static int el_cmp(const void *a, const void *b)
{
    const gp_opt_eligible *x = a, *y = b;
    const gp_opt_pool *px = &sort_opt->pools[x->pool];
    const gp_opt_pool *py = &sort_opt->pools[y->pool];
    return gp_covering_cmp(gp_covering_discount(x->rate, px->od), x->rate,
                           x->pool, gp_covering_discount(y->rate, py->od),
                           y->rate, y->pool);
}

/* Billing order of plans (gp_covering_plan_cmp): instance_family first,
 * then by start (owned ones started before the window), owned before
 * new. */
static int plan_cmp(const void *a, const void *b)
{
    const gp_opt_plan *x = a, *y = b;
    int order = gp_covering_plan_cmp(x->kind, (int64_t)x->first, y->kind,
                                     (int64_t)y->first);
    if (order != 0)
        return order;
    if (x->fixed != y->fixed)
        return x->fixed ? -1 : 1;
    return 0;
}

static bool payment_allowed(unsigned payments, gp_payment p)
{
    return (payments >> p) & 1u;
}

/* Whether choices ch allow a term of `years`. */
static bool term_allowed(const gp_opt_choices *ch, int years)
{
    return years > 0 && years < 32 && (ch->terms >> years) & 1u;
}

/* Adds a plan: owned (S fixed, its active hours) or to buy (whole window),
 * eligible pools with the offer matching kind/term/payment. */
static gp_status add_plan(gp_opt *o, gp_plan_kind kind, const char *provider,
                          const char *region, const char *family, int term,
                          gp_payment pay, bool fixed, double S, size_t first,
                          size_t last)
{
    gp_opt_plan *np = gp_realloc(o->plans, (o->n_plans + 1) * sizeof *np);
    if (!np)
        return GP_ERR_NOMEM;
    o->plans = np;
    gp_opt_plan *pl = &o->plans[o->n_plans];
    memset(pl, 0, sizeof *pl);
    pl->kind = kind;
    snprintf(pl->provider, sizeof pl->provider, "%s", provider);
    snprintf(pl->region, sizeof pl->region, "%s", region ? region : "");
    snprintf(pl->family, sizeof pl->family, "%s", family ? family : "");
    pl->term_years = term;
    pl->payment = pay;
    pl->fixed = fixed;
    pl->S = S;
    pl->first = first;
    pl->last = last;
    pl->el = gp_calloc(o->n_pools + 1, sizeof *pl->el);
    if (!pl->el)
        return GP_ERR_NOMEM;
    for (size_t p = 0; p < o->n_pools; p++) {
        const gp_opt_pool *pool = &o->pools[p];
        if (strcmp(pool->catalog->provider, provider) != 0)
            continue;
        if (kind == GP_PLAN_FAMILY &&
            (strcmp(pool->catalog->region, pl->region) != 0 ||
             strcmp(pool->type->family, pl->family) != 0))
            continue;
        for (size_t j = 0; j < pool->type->n_plans; j++) {
            const gp_plan_offer *of = &pool->type->plans[j];
            if (of->kind == kind && of->term_years == term &&
                of->payment == pay && of->hourly > 0) {
                pl->el[pl->n_el++] = (gp_opt_eligible){(uint32_t)p,
                                                       of->hourly};
                break;
            }
        }
    }
    sort_opt = o;
    if (pl->n_el > 1)
        qsort(pl->el, pl->n_el, sizeof *pl->el, el_cmp);
    o->n_plans++;
    return GP_OK;
}

/* What a commitment of `term_years` on type `it`, bought at ch->buy_at,
 * costs per hour it can be used, as a multiple of its own rate: 1, or,
 * when a strategy of ch->migrations moves the type before the term ends,
 * the term's hours over those before the move (INFINITY when none).  A
 * family plan (family true) strands only when the move leaves the
 * family. */
static double stranded_factor(const gp_instance_type *it, int term_years,
                              bool family, const gp_opt_choices *ch)
{
    const gp_scenario *s = ch->migrations;
    double term_h = term_years * 8760.0, usable = term_h;
    size_t fl = strlen(it->family);

    for (size_t k = 0; s && k < s->n_strategies; k++) {
        const gp_move *m = &s->strategies[k].migrate;
        if (!m->on || strcmp(m->from, it->name) != 0 ||
            (family && strncmp(m->to, it->family, fl) == 0 &&
             m->to[fl] == '.'))
            continue;
        double before = (double)(m->at - ch->buy_at) / 3600.0;
        if (before < usable)
            usable = before > 0 ? before : 0;
    }
    if (usable >= term_h)
        return 1;
    return usable > 0 ? term_h / usable : INFINITY;
}

/* The cheapest allowed (term, payment) for a plan to buy: the one whose
 * rates, weighted by the demand they would apply to, are lowest. */
static bool best_plan_offer(const gp_opt *o, gp_plan_kind kind,
                            const char *provider, const char *region,
                            const char *family, const gp_opt_choices *ch,
                            int *term, gp_payment *pay)
{
    double best = INFINITY;
    for (int t = 1; t <= 3; t += 2) {
        if (!term_allowed(ch, t))
            continue;
        for (int pm = 0; pm < 3; pm++) {
            if (!payment_allowed(ch->payments, (gp_payment)pm))
                continue;
            double num = 0, den = 0, per_od = 0;
            for (size_t p = 0; p < o->n_pools; p++) {
                const gp_opt_pool *pool = &o->pools[p];
                if (strcmp(pool->catalog->provider, provider) != 0)
                    continue;
                if (kind == GP_PLAN_FAMILY &&
                    (strcmp(pool->catalog->region, region) != 0 ||
                     strcmp(pool->type->family, family) != 0))
                    continue;
                double use = 0;
                for (size_t h = 0; h < o->n_hours; h++)
                    use += pool->demand[h];
                /* a family plan a migration leaves strands its hours
                 * after it (SPEC 7.5); a compute plan follows the usage */
                double f = kind == GP_PLAN_FAMILY
                               ? stranded_factor(pool->type, t, true, ch)
                               : 1;
                for (size_t j = 0; j < pool->type->n_plans; j++) {
                    const gp_plan_offer *of = &pool->type->plans[j];
                    if (of->kind == kind && of->term_years == t &&
                        of->payment == (gp_payment)pm && of->hourly > 0) {
                        num += use * of->hourly * f / pool->od;
                        den += use;
                        per_od += use / pool->od;
                    }
                }
            }
            /* the loops go from the shorter term and the smaller
             * upfront: a later offer must be cheaper by more than the
             * catalog's rounding (see the reservations below); the rates
             * here are shares of on-demand, so SAME_RATE's $/h are too */
            if (den > 0 && num / den < 1 &&
                (!isfinite(best) ||
                 num / den < best - SAME_RATE * (per_od / den + best))) {
                best = num / den;
                *term = t;
                *pay = (gp_payment)pm;
            }
        }
    }
    return isfinite(best);
}

/* The cheapest reservation choices `ch` allow for pool, and
 * its effective rate (none when no offer is cheaper than on demand).
 * Between two that cost the same but for the catalog's rounding, the
 * shorter term, then the smaller upfront (Azure charges the same either
 * way: 2.31399/h against 20270.55 upfront, 2.3139897/h, bought $40,541
 * upfront for $0.0008). */
static void choose_reservation(gp_opt_pool *pool, const gp_opt_choices *ch)
{
    double best = INFINITY;
    if (!(ch->instruments & GP_BUY_RESERVED))
        return;
    for (size_t k = 0; k < pool->type->n_reserved; k++) {
        const gp_reserved_offer *of = &pool->type->reserved[k];
        double eff = gp_reserved_effective_hourly(of);
        /* a migration strands the hours after it: the offer must pay
         * over those before */
        if (eff * stranded_factor(pool->type, of->term_years, false, ch) >=
            pool->od)
            continue;
        if (!term_allowed(ch, of->term_years) ||
            !payment_allowed(ch->payments, of->payment) || eff >= pool->od)
            continue;
        const gp_reserved_offer *was = pool->ri_offer;
        bool tie = was && fabs(eff - best) <= SAME_RATE * (1 + best);
        if (tie ? of->term_years < was->term_years ||
                      (of->term_years == was->term_years &&
                       of->upfront < was->upfront)
                : eff < best) {
            best = eff;
            pool->ri_offer = of;
            pool->ri_rate = eff;
        }
    }
}

/* Takes out of every pool's demand the job runs the policies launch on a
 * capacity instrument (capacity.h), as the engine's capacity model does. */
static void take_capacity_runs(gp_opt *o, const gp_trace *trace,
                               const gp_policy *policy, int64_t start_hour)
{
    int64_t ws = start_hour * 3600;
    int64_t we = ws + (int64_t)o->n_hours * 3600;

    for (size_t i = 0; i < trace->n_runs; i++) {
        const gp_job_run *jr = &trace->runs[i];
        const gp_series *ser = &trace->series[jr->series];
        const gp_policy *pol = gp_series_policy(policy, ser);
        if (pol->launch < GP_LAUNCH_CAPACITY_BLOCK ||
            !gp_capacity_takes_run(trace->pools[ser->pool].type, jr,
                                   pol->launch, pol->restart_overhead_h, ws,
                                   we, NULL))
            continue;
        double *d = o->pools[ser->pool].demand;
        for (size_t k = 0; k < jr->n_hours; k++) {
            int64_t h = jr->hour0 + (int64_t)k - start_hour;
            if (h >= 0 && h < (int64_t)o->n_hours)
                d[h] = d[h] > jr->hour_ih[k] ? d[h] - jr->hour_ih[k] : 0;
        }
    }
}

/* Adds to every pool's demand what the policies `policy` launch on demand
 * in each hour of the window starting at start_hour, as the engine sums
 * it. */
static void sum_demand(gp_opt *o, const gp_trace *trace,
                       const gp_policy *policy, int64_t start_hour)
{
    for (size_t i = 0; i < trace->n_series; i++) {
        const gp_series *ser = &trace->series[i];
        if (gp_series_route(trace, policy, ser) == GP_ROUTE_SPOT)
            continue;
        for (size_t h = 0; h < o->n_hours; h++) {
            int64_t th = start_hour + (int64_t)h - trace->start_hour;
            if (th >= 0 && th < (int64_t)trace->n_hours)
                o->pools[ser->pool].demand[h] += ser->instance_hours[th];
        }
    }
    take_capacity_runs(o, trace, policy, start_hour);
}

/* An owned plan already added that bills as c over hours [first, last):
 * the same kind, scope, term and payment (so the same rates and covering
 * order), or NULL. */
static gp_opt_plan *same_owned_plan(gp_opt *o, const gp_commitment *c,
                                    size_t first, size_t last)
{
    for (size_t k = 0; k < o->n_plans; k++) {
        gp_opt_plan *pl = &o->plans[k];
        if (pl->fixed && pl->kind == c->kind && pl->first == first &&
            pl->last == last && pl->term_years == c->term_years &&
            pl->payment == c->payment &&
            strcmp(pl->provider, c->provider) == 0 &&
            strcmp(pl->region, c->region) == 0 &&
            strcmp(pl->family, c->family) == 0)
            return pl;
    }
    return NULL;
}

/* Adds the owned plans among owned[0, n_owned), fixed at their
 * commitments over the hours of the window they are active in.  Plans
 * that bill alike over the same hours are one plan of their summed
 * commitment: the dollars of the first and then the second cover the
 * same pools in the same order as their sum does (and a policy replay
 * owns dozens of them, each making every pass longer). */
static gp_status add_owned_plans(gp_opt *o, const gp_commitment **owned,
                                 size_t n_owned, int64_t start_hour)
{
    for (size_t i = 0; i < n_owned; i++) {
        const gp_commitment *c = owned[i];
        size_t first, last;
        if (c->type != GP_COMMIT_SAVINGS_PLAN)
            continue;
        gp_commitment_active_hours(c, start_hour, o->n_hours, &first, &last);
        gp_opt_plan *same = same_owned_plan(o, c, first, last);
        if (same) {
            same->S += c->hourly_commitment;
            continue;
        }
        if (add_plan(o, c->kind, c->provider, c->region, c->family,
                     c->term_years, c->payment, true, c->hourly_commitment,
                     first, last) != GP_OK)
            return GP_ERR_NOMEM;
    }
    return GP_OK;
}

/* Adds the plans to buy over the whole window, each at its cheapest
 * allowed offer: compute per provider, instance_family per provider,
 * region and family. */
static gp_status add_plans_to_buy(gp_opt *o, const gp_opt_choices *ch)
{
    for (size_t p = 0; p < o->n_pools; p++) {
        const gp_opt_pool *pool = &o->pools[p];
        int term = 0; /* set by best_plan_offer when it finds one */
        gp_payment pay = GP_NO_UPFRONT;
        bool seen_c = false, seen_f = false;
        for (size_t q = 0; q < p; q++) {
            const gp_opt_pool *prev = &o->pools[q];
            if (strcmp(prev->catalog->provider, pool->catalog->provider) ==
                0) {
                seen_c = true;
                if (strcmp(prev->catalog->region, pool->catalog->region) ==
                        0 &&
                    strcmp(prev->type->family, pool->type->family) == 0)
                    seen_f = true;
            }
        }
        if (!seen_f && (ch->instruments & GP_BUY_FAMILY_PLAN) &&
            best_plan_offer(o, GP_PLAN_FAMILY, pool->catalog->provider,
                            pool->catalog->region, pool->type->family, ch,
                            &term, &pay) &&
            add_plan(o, GP_PLAN_FAMILY, pool->catalog->provider,
                     pool->catalog->region, pool->type->family, term, pay,
                     false, 0, 0, o->n_hours) != GP_OK)
            return GP_ERR_NOMEM;
        if (!seen_c && (ch->instruments & GP_BUY_COMPUTE_PLAN) &&
            best_plan_offer(o, GP_PLAN_COMPUTE, pool->catalog->provider, "",
                            "", ch, &term, &pay) &&
            add_plan(o, GP_PLAN_COMPUTE, pool->catalog->provider, "", "",
                     term, pay, false, 0, 0, o->n_hours) != GP_OK)
            return GP_ERR_NOMEM;
    }
    return GP_OK;
}

/* Drops the plans to buy that could cover nothing and puts the rest in
 * billing order. */
static void order_plans(gp_opt *o)
{
    size_t kept = 0;
    for (size_t k = 0; k < o->n_plans; k++) {
        if (o->plans[k].n_el == 0 && !o->plans[k].fixed) {
            gp_free(o->plans[k].el);
            continue;
        }
        o->plans[kept++] = o->plans[k];
    }
    o->n_plans = kept;
    if (o->n_plans > 1)
        qsort(o->plans, o->n_plans, sizeof *o->plans, plan_cmp);
}

gp_status gp_opt_build(gp_opt **out, const gp_trace *trace,
                       const gp_pricing *pricing, const gp_run_spec *spec,
                       int max_term, unsigned payments, gp_error *err)
{
    gp_opt_choices ch = {GP_TERM_BIT(1), payments, GP_BUY_ALL, NULL, 0};
    if (max_term >= 3)
        ch.terms |= GP_TERM_BIT(3);
    if (max_term < 1)
        ch.terms = 0;
    return gp_opt_build_choices(out, trace, pricing, spec, &ch, err);
}

gp_status gp_opt_build_choices(gp_opt **out, const gp_trace *trace,
                               const gp_pricing *pricing,
                               const gp_run_spec *spec,
                               const gp_opt_choices *ch, gp_error *err)
{
    gp_opt *o = gp_calloc(1, sizeof *o);
    size_t n_hours = spec->n_hours, np = trace->n_pools;
    const gp_commitment **owned = NULL;
    double **demand = NULL, *od_rate = NULL;
    gp_status st = GP_ERR_NOMEM;

    *out = NULL;
    if (!o)
        goto fail;
    o->n_hours = n_hours;
    o->n_pools = np;
    o->pools = gp_calloc(np + 1, sizeof *o->pools);
    od_rate = gp_calloc(np + 1, sizeof *od_rate);
    demand = gp_calloc(np + 1, sizeof *demand);
    owned = gp_calloc(spec->n_owned + spec->n_added + spec->n_extra + 1,
                      sizeof *owned);
    if (!o->pools || !od_rate || !demand || !owned)
        goto fail;
    for (size_t p = 0; p < np; p++) {
        gp_opt_pool *pool = &o->pools[p];
        pool->catalog = trace->pools[p].catalog;
        pool->type = trace->pools[p].type;
        pool->od = pool->type->on_demand;
        pool->n_fixed = -1;
        od_rate[p] = pool->od;
        pool->demand = gp_calloc(n_hours + 1, sizeof *pool->demand);
        if (!pool->demand)
            goto fail;
        demand[p] = pool->demand;
        choose_reservation(pool, ch);
    }
    sum_demand(o, trace, spec->policy, spec->start_hour);

    /* the spec's commitments, as the engine lists them */
    size_t n_owned = 0;
    for (size_t i = 0; i < spec->n_owned; i++)
        owned[n_owned++] = &spec->owned[i];
    for (size_t i = 0; i < spec->n_added; i++)
        owned[n_owned++] = &spec->added[i];
    for (size_t i = 0; i < spec->n_extra; i++)
        owned[n_owned++] = &spec->extra[i];
    gp_model_input in;
    memset(&in, 0, sizeof in);
    in.trace = trace;
    in.pricing = pricing;
    in.spec = spec;
    in.commitments = owned;
    in.n_commitments = n_owned;
    in.od_rate = od_rate;
    /* the owned reservations cover first, exactly as the engine bills
     * them */
    st = gp_reserved_cover(&in, demand, err);
    if (st != GP_OK)
        goto fail;
    st = GP_ERR_NOMEM;
    if (add_owned_plans(o, owned, n_owned, spec->start_hour) != GP_OK ||
        add_plans_to_buy(o, ch) != GP_OK)
        goto fail;
    order_plans(o);

    o->value = gp_calloc(np * n_hours + 1, sizeof *o->value);
    o->resid = gp_calloc(np + 1, sizeof *o->resid);
    if (!o->value || !o->resid)
        goto fail;
    gp_free(owned);
    gp_free(od_rate);
    gp_free(demand);
    *out = o;
    return GP_OK;
fail:
    gp_free(owned);
    gp_free(od_rate);
    gp_free(demand);
    gp_opt_free(o);
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return st;
}

/* What a dollar of `from` covers, in dollars of `to`: the two plans' rates
 * for the first pool of `to` that both cover (1 if none).  A 1-year plan's
 * commitment copied as it is into a 3-year plan bought 1.45 times the
 * instances, and the averages, which close a gap by 1/(t + 1) in t rounds,
 * left flat demand's 3-year family plans 0.5% oversized. */
static double rate_ratio(const gp_opt_plan *to, const gp_opt_plan *from)
{
    for (size_t i = 0; i < to->n_el; i++)
        for (size_t j = 0; j < from->n_el; j++)
            if (from->el[j].pool == to->el[i].pool)
                return from->el[j].rate > 0 ? to->el[i].rate / from->el[j].rate
                                            : 1;
    return 1;
}

void gp_opt_warm_start(gp_opt *o, const gp_opt *from)
{
    for (size_t p = 0; p < o->n_pools && p < from->n_pools; p++)
        if (o->pools[p].ri_offer && o->pools[p].n_fixed < 0)
            o->pools[p].n = from->pools[p].n;
    for (size_t k = 0; k < o->n_plans; k++) {
        gp_opt_plan *pl = &o->plans[k];
        if (pl->fixed)
            continue;
        for (size_t j = 0; j < from->n_plans; j++) {
            const gp_opt_plan *q = &from->plans[j];
            if (!q->fixed && q->kind == pl->kind &&
                strcmp(q->provider, pl->provider) == 0 &&
                strcmp(q->region, pl->region) == 0 &&
                strcmp(q->family, pl->family) == 0)
                pl->S = q->S * rate_ratio(pl, q);
        }
    }
}

gp_status gp_opt_commitments(const gp_opt *o, int64_t start,
                             gp_commitment **out, size_t *n)
{
    size_t cap = o->n_pools + o->n_plans + 1, k = 0;
    gp_commitment *c = gp_calloc(cap, sizeof *c);

    *out = NULL;
    *n = 0;
    if (!c)
        return GP_ERR_NOMEM;
    for (size_t p = 0; p < o->n_pools; p++) {
        const gp_opt_pool *pool = &o->pools[p];
        if (pool->n <= 0 || !pool->ri_offer || pool->n_fixed >= 0)
            continue;
        gp_commitment *x = &c[k++];
        x->type = GP_COMMIT_RESERVED;
        snprintf(x->provider, sizeof x->provider, "%s",
                 pool->catalog->provider);
        snprintf(x->region, sizeof x->region, "%s", pool->catalog->region);
        snprintf(x->instance_type, sizeof x->instance_type, "%s",
                 pool->type->name);
        x->count = pool->n;
        x->term_years = pool->ri_offer->term_years;
        x->payment = pool->ri_offer->payment;
        x->start = start;
        x->end = start + (int64_t)x->term_years * 365 * 86400;
    }
    for (size_t i = 0; i < o->n_plans; i++) {
        const gp_opt_plan *pl = &o->plans[i];
        if (pl->fixed || pl->S <= 0)
            continue;
        gp_commitment *x = &c[k++];
        x->type = GP_COMMIT_SAVINGS_PLAN;
        x->kind = pl->kind;
        snprintf(x->provider, sizeof x->provider, "%s", pl->provider);
        snprintf(x->region, sizeof x->region, "%s", pl->region);
        snprintf(x->family, sizeof x->family, "%s", pl->family);
        x->hourly_commitment = pl->S;
        x->term_years = pl->term_years;
        x->payment = pl->payment;
        x->start = start;
        x->end = start + (int64_t)x->term_years * 365 * 86400;
    }
    *out = c;
    *n = k;
    return GP_OK;
}
