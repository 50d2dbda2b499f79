/*
 * optimizer.c: the cheapest commitments for a window of demand (see
 * optimizer.h for the method).
 *
 * One pass over the hours bills the current decisions exactly as the
 * engine does and records, hour by hour:
 *   - for each plan, the pools that reach it with demand left, in its
 *     covering order, with what a dollar spent on each is worth;
 *   - for each pool, v = what one more unit of its demand would cost
 *     (its on-demand rate if no plan would cover it; nothing if a plan
 *     with dollars to spare would; else the plan rate times the worth of
 *     the dollars it would take from that plan's marginal pool).
 * Then every reservation count moves to where its next instance would
 * save less than it costs, and every plan to where its next dollar would,
 * and the pass repeats.
 */
#include "optimizer.h"
#include "model.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What reaches a plan in one hour: a pool, its demand left, and what a
 * plan dollar spent on it is worth. */
struct entry {
    uint32_t pool;
    float need;  /* its demand left, in plan dollars */
    float worth; /* what a plan dollar spent on it saves */
};

/* A step of a plan's marginal-dollar worth: at commitment `at` it changes
 * by `delta` (best_plan). */
struct step {
    double at, delta;
};
#define PLAN_BUCKETS 4096
/* Two offers whose rates differ by less than this ($/h, plus as much
 * relative) differ only by the catalogs' rounding (five decimals) */
#define SAME_RATE 1e-5

struct arena {
    struct entry *e;
    size_t n, cap;
    size_t *hour_start; /* [n_hours + 1] */
};

/* Per-solve scratch that is not part of the public struct. */
struct work {
    struct arena *arenas;    /* by plan */
    long *pos;               /* [plan][pool] index in the plan's list, -1 */
    uint32_t *plans_of;      /* [pool][..] plans that may cover it, in order */
    size_t *n_plans_of;      /* [pool] how many */
    long *marg;              /* [plan] marginal position this hour */
    double *acc;             /* best_reservation's sums */
    size_t acc_cap;
    double *bucket;          /* [PLAN_BUCKETS + 1] best_plan's buckets */
    double *gain;            /* [plan] what its last sizing saves, at least */
    bool *worthless;         /* [plan] its first dollar was worth less */
    struct step *steps;      /* best_plan's steps in one bucket */
    size_t steps_cap;
    bool nomem; /* an allocation failed: the solve is void */
};

void gp_opt_free(gp_opt *o)
{
    if (!o)
        return;
    /* n_pools is set before pools is allocated, which may have failed */
    for (size_t p = 0; o->pools && p < o->n_pools; p++)
        gp_free(o->pools[p].demand);
    gp_free(o->pools);
    for (size_t k = 0; k < o->n_plans; k++)
        gp_free(o->plans[k].el);
    gp_free(o->plans);
    gp_free(o->value);
    gp_free(o->lambda);
    gp_free(o->resid);
    gp_free(o);
}

static _Thread_local const gp_opt *sort_opt;

/* AWS's covering order: highest discount first, ties to the lower rate. */
static int el_cmp(const void *a, const void *b)
{
    const gp_opt_eligible *x = a, *y = b;
    double dx = 1 - x->rate / sort_opt->pools[x->pool].od;
    double dy = 1 - y->rate / sort_opt->pools[y->pool].od;
    if (dx != dy)
        return dx > dy ? -1 : 1;
    if (x->rate != y->rate)
        return x->rate < y->rate ? -1 : 1;
    return x->pool < y->pool ? -1 : (x->pool > y->pool);
}

/* Billing order of plans: instance_family first, then by start (owned
 * ones started before the window), owned before new. */
static int plan_cmp(const void *a, const void *b)
{
    const gp_opt_plan *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind == GP_PLAN_FAMILY ? -1 : 1;
    if (x->first != y->first)
        return x->first < y->first ? -1 : 1;
    if (x->fixed != y->fixed)
        return x->fixed ? -1 : 1;
    return 0;
}

static bool payment_allowed(unsigned payments, gp_payment p)
{
    return (payments >> p) & 1u;
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

/* The cheapest allowed (term, payment) for a plan to buy: the one whose
 * rates, weighted by the demand they would apply to, are lowest. */
static bool best_plan_offer(const gp_opt *o, gp_plan_kind kind,
                            const char *provider, const char *region,
                            const char *family, int max_term,
                            unsigned payments, int *term, gp_payment *pay)
{
    double best = INFINITY;
    for (int t = 1; t <= 3; t += 2) {
        if (t > max_term)
            continue;
        for (int pm = 0; pm < 3; pm++) {
            if (!payment_allowed(payments, (gp_payment)pm))
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
                for (size_t j = 0; j < pool->type->n_plans; j++) {
                    const gp_plan_offer *of = &pool->type->plans[j];
                    if (of->kind == kind && of->term_years == t &&
                        of->payment == (gp_payment)pm && of->hourly > 0) {
                        num += use * of->hourly / pool->od;
                        den += use;
                        per_od += use / pool->od;
                    }
                }
            }
            /* the loops go from the shorter term and the smaller
             * upfront: a later offer must be cheaper by more than the
             * catalog's rounding (see the reservations below); the rates
             * here are shares of on-demand, so SAME_RATE's $/h are too */
            if (den > 0 &&
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

gp_status gp_opt_build(gp_opt **out, const gp_trace *trace,
                       const gp_pricing *pricing, const gp_scenario *s,
                       size_t strategy, int64_t start_hour, size_t n_hours,
                       int max_term, unsigned payments, gp_error *err)
{
    gp_opt *o = gp_calloc(1, sizeof *o);
    const gp_strategy *strat = &s->strategies[strategy];
    size_t np = trace->n_pools;
    void *ri_state = NULL;
    const gp_commitment **owned = NULL;
    double *scratch = NULL, *od_rate = NULL;
    gp_status st = GP_ERR_NOMEM;

    *out = NULL;
    if (!o)
        goto fail;
    o->n_hours = n_hours;
    o->n_pools = np;
    o->pools = gp_calloc(np + 1, sizeof *o->pools);
    od_rate = gp_calloc(np + 1, sizeof *od_rate);
    scratch = gp_calloc(6 * (np + 1), sizeof *scratch);
    owned = gp_calloc(s->n_commitments + strat->n_add + 1, sizeof *owned);
    if (!o->pools || !od_rate || !scratch || !owned)
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
        /* the cheapest allowed reservation; between two that cost the
         * same but for the catalog's rounding, the shorter term, then the
         * smaller upfront (Azure charges the same either way: 2.31399/h
         * against 20270.55 upfront, 2.3139897/h, bought $40,541 upfront
         * for $0.0008) */
        double best = INFINITY;
        for (size_t k = 0; k < pool->type->n_reserved; k++) {
            const gp_reserved_offer *of = &pool->type->reserved[k];
            double eff = gp_reserved_effective_hourly(of);
            if (of->term_years > max_term ||
                !payment_allowed(payments, of->payment) || eff >= pool->od)
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

    /* demand launched on demand, as the engine sums it */
    for (size_t i = 0; i < trace->n_series; i++) {
        const gp_series *ser = &trace->series[i];
        if (gp_route_of(trace, strat, ser) == GP_ROUTE_SPOT)
            continue;
        for (size_t h = 0; h < n_hours; h++) {
            int64_t th = start_hour + (int64_t)h - trace->start_hour;
            if (th >= 0 && th < (int64_t)trace->n_hours)
                o->pools[ser->pool].demand[h] += ser->instance_hours[th];
        }
    }

    /* the owned reservations cover first: let the reserved model take its
     * share, exactly as the engine would */
    size_t n_owned = 0;
    for (size_t i = 0; i < s->n_commitments; i++)
        owned[n_owned++] = &s->commitments[i];
    for (size_t i = 0; i < strat->n_add; i++)
        owned[n_owned++] = &strat->add_commitments[i];
    gp_model_input in;
    memset(&in, 0, sizeof in);
    in.trace = trace;
    in.pricing = pricing;
    in.scenario = s;
    in.strategy = strat;
    in.commitments = owned;
    in.n_commitments = n_owned;
    in.start_hour = start_hour;
    in.n_hours = n_hours;
    in.od_rate = od_rate;
    st = gp_model_reserved.prepare(&in, &ri_state, err);
    if (st != GP_OK)
        goto fail;
    if (ri_state) {
        gp_ledger_hour row;
        gp_hour hour;
        memset(&hour, 0, sizeof hour);
        hour.remaining = scratch;
        hour.covered_value = scratch + (np + 1);
        hour.od_cost = scratch + 2 * (np + 1);
        hour.spot_cost = scratch + 3 * (np + 1);
        hour.spot = scratch + 4 * (np + 1);
        hour.commit_cost = scratch + 5 * (np + 1); /* not read here */
        hour.row = &row;
        for (size_t h = 0; h < n_hours; h++) {
            memset(&row, 0, sizeof row);
            hour.h = h;
            hour.t = (start_hour + (int64_t)h) * 3600;
            for (size_t p = 0; p < np; p++)
                hour.remaining[p] = o->pools[p].demand[h];
            gp_model_reserved.bill_hour(ri_state, &in, &hour);
            for (size_t p = 0; p < np; p++)
                o->pools[p].demand[h] = hour.remaining[p];
        }
    }
    st = GP_ERR_NOMEM;

    /* owned plans, fixed */
    for (size_t i = 0; i < n_owned; i++) {
        const gp_commitment *c = owned[i];
        size_t first, last;
        if (c->type != GP_COMMIT_SAVINGS_PLAN)
            continue;
        gp_commitment_active_hours(c, start_hour, n_hours, &first, &last);
        if (add_plan(o, c->kind, c->provider, c->region, c->family,
                     c->term_years, c->payment, true, c->hourly_commitment,
                     first, last) != GP_OK)
            goto fail;
    }
    /* plans to buy: compute per provider, instance_family per provider,
     * region and family */
    for (size_t p = 0; p < np; p++) {
        const gp_opt_pool *pool = &o->pools[p];
        int term;
        gp_payment pay;
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
        if (!seen_f &&
            best_plan_offer(o, GP_PLAN_FAMILY, pool->catalog->provider,
                            pool->catalog->region, pool->type->family,
                            max_term, payments, &term, &pay) &&
            add_plan(o, GP_PLAN_FAMILY, pool->catalog->provider,
                     pool->catalog->region, pool->type->family, term, pay,
                     false, 0, 0, n_hours) != GP_OK)
            goto fail;
        if (!seen_c &&
            best_plan_offer(o, GP_PLAN_COMPUTE, pool->catalog->provider, "",
                            "", max_term, payments, &term, &pay) &&
            add_plan(o, GP_PLAN_COMPUTE, pool->catalog->provider, "", "",
                     term, pay, false, 0, 0, n_hours) != GP_OK)
            goto fail;
    }
    /* drop plans that could cover nothing */
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

    o->value = gp_calloc(np * n_hours + 1, sizeof *o->value);
    o->resid = gp_calloc(np + 1, sizeof *o->resid);
    if (!o->value || !o->resid)
        goto fail;
    gp_model_reserved.free(ri_state);
    gp_free(owned);
    gp_free(od_rate);
    gp_free(scratch);
    *out = o;
    return GP_OK;
fail:
    if (ri_state)
        gp_model_reserved.free(ri_state);
    gp_free(owned);
    gp_free(od_rate);
    gp_free(scratch);
    gp_opt_free(o);
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return st;
}

/* ---- the billing pass ----------------------------------------------------- */

static void work_free(gp_opt *o, struct work *w)
{
    if (w->arenas)
        for (size_t k = 0; k < o->n_plans; k++) {
            gp_free(w->arenas[k].e);
            gp_free(w->arenas[k].hour_start);
        }
    gp_free(w->arenas);
    gp_free(w->pos);
    gp_free(w->plans_of);
    gp_free(w->n_plans_of);
    gp_free(w->marg);
    gp_free(w->acc);
    gp_free(w->bucket);
    gp_free(w->gain);
    gp_free(w->worthless);
    gp_free(w->steps);
    memset(w, 0, sizeof *w);
}

static bool work_init(gp_opt *o, struct work *w)
{
    memset(w, 0, sizeof *w);
    w->arenas = gp_calloc(o->n_plans + 1, sizeof *w->arenas);
    w->pos = gp_malloc((o->n_plans * o->n_pools + 1) * sizeof *w->pos);
    w->marg = gp_calloc(o->n_plans + 1, sizeof *w->marg);
    w->bucket = gp_calloc(PLAN_BUCKETS + 1, sizeof *w->bucket);
    w->gain = gp_calloc(o->n_plans + 1, sizeof *w->gain);
    w->worthless = gp_calloc(o->n_plans + 1, sizeof *w->worthless);
    if (!w->arenas || !w->pos || !w->marg || !w->bucket || !w->gain ||
        !w->worthless)
        return false;
    for (size_t k = 0; k < o->n_plans; k++) {
        w->arenas[k].hour_start =
            gp_calloc(o->n_hours + 1, sizeof *w->arenas[k].hour_start);
        if (!w->arenas[k].hour_start)
            return false;
        for (size_t p = 0; p < o->n_pools; p++)
            w->pos[k * o->n_pools + p] = -1;
        for (size_t j = 0; j < o->plans[k].n_el; j++)
            w->pos[k * o->n_pools + o->plans[k].el[j].pool] = (long)j;
    }
    w->plans_of = gp_malloc((o->n_pools * (o->n_plans + 1) + 1) *
                            sizeof *w->plans_of);
    w->n_plans_of = gp_calloc(o->n_pools + 1, sizeof *w->n_plans_of);
    if (!w->plans_of || !w->n_plans_of)
        return false;
    for (size_t p = 0; p < o->n_pools; p++)
        for (size_t k = 0; k < o->n_plans; k++)
            if (w->pos[k * o->n_pools + p] >= 0)
                w->plans_of[p * (o->n_plans + 1) + w->n_plans_of[p]++] =
                    (uint32_t)k;
    return true;
}

/*
 * What one more unit of pool p's demand costs in this hour if it reaches
 * the plans from index `from` on: free if a plan with dollars to spare
 * covers it, the plan rate times the worth of a dollar at a saturated
 * plan's margin if that plan covers it, else its on-demand rate.
 */
static double unit_value(const gp_opt *o, const struct work *w, size_t h,
                         uint32_t p, size_t from)
{
    const uint32_t *ks = w->plans_of + (size_t)p * (o->n_plans + 1);
    for (size_t i = 0; i < w->n_plans_of[p]; i++) {
        size_t k = ks[i];
        if (k < from)
            continue;
        const gp_opt_plan *pl = &o->plans[k];
        long pos = w->pos[k * o->n_pools + p];
        if (pos < 0 || h < pl->first || h >= pl->last)
            continue;
        long m = w->marg[k];
        if (m < 0)
            return 0; /* dollars to spare */
        if (pos < m)
            return pl->el[pos].rate * o->lambda[k];
        /* at or after the margin: this plan has nothing left for it */
    }
    return o->pools[p].od;
}

/*
 * Bills every hour under the current decisions.  With `w`, also records
 * the per-plan lists and every pool's unit values for the updates.
 * Returns the window's amortized cost.
 */
static double pass(gp_opt *o, struct work *w)
{
    double cost = 0;
    double *lambda = o->lambda;

    for (size_t p = 0; p < o->n_pools; p++)
        if (o->pools[p].n > 0)
            cost += o->pools[p].n * o->pools[p].ri_rate * (double)o->n_hours;
    for (size_t k = 0; k < o->n_plans; k++) {
        cost += o->plans[k].S *
                (double)(o->plans[k].last - o->plans[k].first);
        if (w)
            w->arenas[k].n = 0;
    }
    for (size_t h = 0; h < o->n_hours; h++) {
        for (size_t p = 0; p < o->n_pools; p++) {
            double r = o->pools[p].demand[h] - o->pools[p].n;
            o->resid[p] = r > 0 ? r : 0;
        }
        for (size_t k = 0; k < o->n_plans; k++) {
            gp_opt_plan *pl = &o->plans[k];
            if (w)
                w->arenas[k].hour_start[h] = w->arenas[k].n;
            if (h < pl->first || h >= pl->last) {
                if (w)
                    w->marg[k] = -1;
                continue;
            }
            double budget = pl->S;
            long marg = -1;
            for (size_t j = 0; j < pl->n_el; j++) {
                uint32_t p = pl->el[j].pool;
                double r = o->resid[p];
                if (r <= 0)
                    continue;
                if (w) {
                    struct arena *a = &w->arenas[k];
                    if (a->n == a->cap &&
                        gp_grow((void **)&a->e, &a->cap, a->n + 1,
                                sizeof *a->e) != GP_OK) {
                        w->nomem = true;
                        return NAN;
                    }
                    a->e[a->n++] =
                        (struct entry){p, (float)(r * pl->el[j].rate), 0};
                }
                if (marg >= 0)
                    continue; /* budget gone: only listing */
                double x = r;
                if (x * pl->el[j].rate > budget) {
                    x = budget / pl->el[j].rate;
                    marg = (long)j;
                }
                o->resid[p] = r - x;
                budget -= x * pl->el[j].rate;
                if (budget <= 1e-12 && marg < 0 && o->resid[p] <= 0)
                    budget = 0;
            }
            /* no dollars left and no pool at the margin (none bought, or
             * exactly spent): none to spare either, so the next unit of
             * demand passes it by.  Taken for "dollars to spare", a plan
             * at nothing made the plan before it look worthless in every
             * hour that plan covered all of, and the two chased each
             * other. */
            if (marg < 0 && budget <= 0 && pl->n_el > 0)
                marg = 0;
            if (w)
                w->marg[k] = marg;
        }
        for (size_t p = 0; p < o->n_pools; p++)
            cost += o->pools[p].od * o->resid[p];
        if (!w)
            continue;
        /* worth of a plan dollar, last plan first */
        for (size_t k = o->n_plans; k-- > 0;) {
            const gp_opt_plan *pl = &o->plans[k];
            lambda[k] = 0;
            if (h < pl->first || h >= pl->last || w->marg[k] < 0)
                continue;
            const gp_opt_eligible *e = &pl->el[w->marg[k]];
            lambda[k] = unit_value(o, w, h, e->pool, k + 1) / e->rate;
        }
        for (size_t k = 0; k < o->n_plans; k++) {
            struct arena *a = &w->arenas[k];
            for (size_t i = a->hour_start[h]; i < a->n; i++) {
                long pos = w->pos[k * o->n_pools + a->e[i].pool];
                a->e[i].worth =
                    (float)(unit_value(o, w, h, a->e[i].pool, k + 1) /
                            o->plans[k].el[pos].rate);
            }
        }
        for (size_t p = 0; p < o->n_pools; p++)
            o->value[p * o->n_hours + h] =
                (float)unit_value(o, w, h, (uint32_t)p, 0);
    }
    if (w)
        for (size_t k = 0; k < o->n_plans; k++)
            w->arenas[k].hour_start[o->n_hours] = w->arenas[k].n;
    return cost;
}

double gp_opt_cost(gp_opt *o)
{
    /* a pass without the work area reads no lambda */
    return pass(o, NULL);
}

/*
 * The window's cost of only the pools plan k may cover: their
 * reservations, their bills hour by hour, and the plans that cover them.
 * That is their share of gp_opt_cost when the plans with dollars that
 * cover any of these pools cover none outside them (a family plan with no
 * compute plan bought yet); otherwise returns NAN and the caller needs
 * gp_opt_cost.
 */
double gp_opt_cost_local(gp_opt *o, size_t k)
{
    const gp_opt_plan *pk = &o->plans[k];
    unsigned char *in = gp_calloc(o->n_pools + 1, 1);
    size_t *act = gp_calloc(o->n_plans + 1, sizeof *act);
    size_t n_act = 0;
    double cost = 0;

    if (!in || !act) {
        gp_free(in);
        gp_free(act);
        o->nomem = true;
        return NAN;
    }
    for (size_t j = 0; j < pk->n_el; j++)
        in[pk->el[j].pool] = 1;
    for (size_t q = 0; q < o->n_plans; q++) {
        const gp_opt_plan *pl = &o->plans[q];
        size_t inside = 0;
        if (pl->S <= 0 || pl->first >= pl->last)
            continue;
        for (size_t j = 0; j < pl->n_el; j++)
            inside += in[pl->el[j].pool];
        if (inside == 0)
            continue;
        if (inside != pl->n_el) {
            cost = NAN;
            goto out;
        }
        act[n_act++] = q;
        cost += pl->S * (double)(pl->last - pl->first);
    }
    for (size_t j = 0; j < pk->n_el; j++) {
        const gp_opt_pool *pool = &o->pools[pk->el[j].pool];
        if (pool->n > 0)
            cost += pool->n * pool->ri_rate * (double)o->n_hours;
    }
    for (size_t h = 0; h < o->n_hours; h++) {
        for (size_t j = 0; j < pk->n_el; j++) {
            uint32_t p = pk->el[j].pool;
            double r = o->pools[p].demand[h] - o->pools[p].n;
            o->resid[p] = r > 0 ? r : 0;
        }
        for (size_t a = 0; a < n_act; a++) {
            const gp_opt_plan *pl = &o->plans[act[a]];
            if (h < pl->first || h >= pl->last)
                continue;
            double budget = pl->S;
            for (size_t j = 0; j < pl->n_el && budget > 0; j++) {
                uint32_t p = pl->el[j].pool;
                double x = o->resid[p];
                if (x <= 0)
                    continue;
                if (x * pl->el[j].rate > budget)
                    x = budget / pl->el[j].rate;
                o->resid[p] -= x;
                budget -= x * pl->el[j].rate;
            }
        }
        for (size_t j = 0; j < pk->n_el; j++) {
            uint32_t p = pk->el[j].pool;
            cost += o->pools[p].od * o->resid[p];
        }
    }
out:
    gp_free(in);
    gp_free(act);
    return cost;
}

/* ---- the updates ---------------------------------------------------------- */

/* Past this many instances in an hour, best_reservation searches for n
 * instead of tabulating every n (a table of 16 MB at most). */
#define RESERVATION_TABLE 1e6

/* What the n-th reserved instance saves over the window (n >= 1). */
static double nth_instance_worth(const gp_opt *o, const gp_opt_pool *pool,
                                 const float *v, double n)
{
    double sum = 0;
    for (size_t h = 0; h < o->n_hours; h++) {
        double x = pool->demand[h] - (n - 1);
        if (x > 0)
            sum += (x < 1 ? x : 1) * v[h];
    }
    return sum;
}

/*
 * The best whole number of reserved instances for pool p given the unit
 * values: the n-th instance covers min(1, max(0, d_h - (n-1))) of each
 * hour h, saving that times v_h; buy it while that sum is at least its
 * cost over the window.  The sums for every n come from one pass over the
 * hours: hour h adds v_h to every n <= floor(d_h) (a difference array)
 * and its fraction times v_h to n = floor(d_h) + 1.
 */
static double best_reservation(const gp_opt *o, struct work *w, size_t p)
{
    const gp_opt_pool *pool = &o->pools[p];
    const float *v = o->value + p * o->n_hours;
    double cost = pool->ri_rate * (double)o->n_hours;
    double most = 0;

    if (!pool->ri_offer || o->n_hours == 0)
        return 0;
    if (pool->n_fixed >= 0)
        return pool->n_fixed;
    for (size_t h = 0; h < o->n_hours; h++)
        if (pool->demand[h] > most)
            most = pool->demand[h];
    most = ceil(most);
    if (most > RESERVATION_TABLE && cost > 0) {
        /* an instance's worth falls as n grows (v >= 0): bisect for the
         * last n worth its cost, in O(hours) a step; the (ceil(most) +
         * 1)-th covers no hour and is worth nothing */
        double lo = 0, hi = most + 1;
        while (hi - lo > 1) {
            double mid = floor(lo + (hi - lo) / 2);
            if (mid <= lo || mid >= hi)
                break; /* past 2^53 the doubles between are not whole */
            if (nth_instance_worth(o, pool, v, mid) >= cost)
                lo = mid;
            else
                hi = mid;
        }
        return lo;
    }
    size_t top = (size_t)most;
    /* acc[n] for n in [1, top + 1]: full[] as differences, part[] direct */
    if (gp_grow((void **)&w->acc, &w->acc_cap, 2 * (top + 2), sizeof *w->acc) !=
        GP_OK) {
        w->nomem = true;
        return pool->n;
    }
    double *full = w->acc, *part = w->acc + top + 2;
    memset(w->acc, 0, 2 * (top + 2) * sizeof *w->acc);
    for (size_t h = 0; h < o->n_hours; h++) {
        double d = pool->demand[h];
        if (d <= 0)
            continue;
        double k = floor(d);
        size_t ki = (size_t)k;
        full[0 + 1] += v[h];
        full[ki + 1] -= v[h];
        if (d > k)
            part[ki + 1] += (d - k) * v[h];
    }
    double run = 0;
    size_t n = 0;
    for (size_t m = 1; m <= top + 1; m++) {
        run += full[m];
        if (run + part[m] < cost)
            break;
        n = m;
    }
    return (double)n;
}

/*
 * The best commitment for plan k given the worth of its dollars.  In hour
 * h the plan's dollars go down its list; at commitment S the marginal
 * dollar lands on the entry i with C_i <= S < C_i + need_i (C_i the
 * needs before it) and is worth worth_i; past the whole list it is worth
 * nothing.  W(S), the sum over hours, steps at every C; the plan pays
 * while W(S) is at least the hours it is paid for, so S is the first
 * breakpoint where W falls below them.  Exact in two passes over the
 * lists: the steps are summed into buckets of S to find the bucket where
 * W crosses, then that bucket's steps are sorted and swept.
 */
static int step_cmp(const void *a, const void *b)
{
    const struct step *x = a, *y = b;
    return x->at < y->at ? -1 : (x->at > y->at);
}

static double best_plan(const gp_opt *o, struct work *w, size_t k)
{
    const gp_opt_plan *pl = &o->plans[k];
    const struct arena *a = &w->arenas[k];
    double hours = (double)(pl->last - pl->first);
    double hi = 0, W0 = 0;
    double *bucket = w->bucket;

    w->gain[k] = 0;
    w->worthless[k] = false;
    if (pl->fixed)
        return pl->S;
    /* W(0) and the largest total need (the most it could use in an hour) */
    for (size_t h = pl->first; h < pl->last; h++) {
        double need = 0;
        size_t i0 = a->hour_start[h], i1 = a->hour_start[h + 1];
        if (i0 < i1)
            W0 += a->e[i0].worth;
        for (size_t i = i0; i < i1; i++)
            need += a->e[i].need;
        if (need > hi)
            hi = need;
    }
    if (W0 < hours || hi <= 0) {
        w->worthless[k] = true;
        return 0;
    }
    double scale = (double)PLAN_BUCKETS / hi;
    memset(bucket, 0, (PLAN_BUCKETS + 1) * sizeof *bucket);
    for (size_t h = pl->first; h < pl->last; h++) {
        double c = 0;
        size_t i1 = a->hour_start[h + 1];
        for (size_t i = a->hour_start[h]; i < i1; i++) {
            c += a->e[i].need;
            double next = i + 1 < i1 ? a->e[i + 1].worth : 0;
            size_t b = (size_t)(c * scale);
            bucket[b < PLAN_BUCKETS ? b : PLAN_BUCKETS] +=
                next - a->e[i].worth;
        }
    }
    double run = W0;
    size_t b = 0;
    for (; b <= PLAN_BUCKETS; b++) {
        if (run + bucket[b] < hours)
            break;
        run += bucket[b];
        /* W falls (nearly always): at least its bucket-end value */
        w->gain[k] += (run - hours) / scale;
    }
    if (b > PLAN_BUCKETS)
        return hi; /* cannot happen: W(hi) = 0 */
    /* the crossing is among bucket b's steps: sort and sweep them */
    size_t n = 0;
    for (size_t h = pl->first; h < pl->last; h++) {
        double c = 0;
        size_t i1 = a->hour_start[h + 1];
        for (size_t i = a->hour_start[h]; i < i1; i++) {
            c += a->e[i].need;
            size_t bi = (size_t)(c * scale);
            if ((bi < PLAN_BUCKETS ? bi : PLAN_BUCKETS) != b)
                continue;
            if (n == w->steps_cap &&
                gp_grow((void **)&w->steps, &w->steps_cap, n + 1,
                        sizeof *w->steps) != GP_OK) {
                w->nomem = true;
                return (double)b / scale;
            }
            double next = i + 1 < i1 ? a->e[i + 1].worth : 0;
            w->steps[n++] = (struct step){c, next - a->e[i].worth};
        }
    }
    qsort(w->steps, n, sizeof *w->steps, step_cmp);
    for (size_t i = 0; i < n; i++) {
        run += w->steps[i].delta;
        if (run < hours)
            return w->steps[i].at;
    }
    return (double)(b + 1) / scale;
}

/* The decisions, saved and restored while searching. */
static void save(const gp_opt *o, double *n, double *S)
{
    for (size_t p = 0; p < o->n_pools; p++)
        n[p] = o->pools[p].n;
    for (size_t k = 0; k < o->n_plans; k++)
        S[k] = o->plans[k].S;
}

static void restore(gp_opt *o, const double *n, const double *S)
{
    for (size_t p = 0; p < o->n_pools; p++)
        o->pools[p].n = n[p];
    for (size_t k = 0; k < o->n_plans; k++)
        o->plans[k].S = S[k];
}

/*
 * Successive averages: each pass computes every decision's best response
 * to the others (best_reservation, best_plan) and moves all decisions a
 * step of 1/(t+2) toward them.  Moving all the way at once makes
 * reservations and plans chase each other (plans with dollars to spare
 * make reservations look worthless, and the other way round); the shrinking
 * steps settle where neither wants to move, which for a convex cost is the
 * optimum.  The best point seen is kept.  `pools_too`: false holds the
 * reservations and moves only the plans.
 */
static double averages(gp_opt *o, struct work *w, int rounds, bool pools_too,
                       double *best_n, double *best_S)
{
    double best = INFINITY;
    double *target_n = gp_calloc(o->n_pools + 1, sizeof *target_n);
    double *target_S = gp_calloc(o->n_plans + 1, sizeof *target_S);

    if (!target_n || !target_S) {
        gp_free(target_n);
        gp_free(target_S);
        w->nomem = true;
        return NAN;
    }
    for (int t = 0; t < rounds; t++) {
        double cost = pass(o, w);
        if (cost < best) {
            best = cost;
            save(o, best_n, best_S);
        }
        double step = 1.0 / (t + 2);
        double moved = 0;
        for (size_t p = 0; pools_too && p < o->n_pools; p++)
            target_n[p] = best_reservation(o, w, p);
        for (size_t k = 0; k < o->n_plans; k++)
            target_S[k] = best_plan(o, w, k);
        for (size_t p = 0; pools_too && p < o->n_pools; p++) {
            double d = step * (target_n[p] - o->pools[p].n);
            o->pools[p].n += d;
            moved += fabs(d) * o->pools[p].ri_rate;
        }
        for (size_t k = 0; k < o->n_plans; k++) {
            double d = step * (target_S[k] - o->plans[k].S);
            o->plans[k].S += d;
            moved += fabs(d);
        }
        o->rounds++;
        if (moved < 1e-9 * (1 + best / (double)(o->n_hours + 1)))
            break;
    }
    gp_free(target_n);
    gp_free(target_S);
    return best;
}

/*
 * A year of a thousand pools makes each pass long (tens of millions of
 * list entries), and the averages need tens of passes.  Such problems are
 * solved first on a sample of the hours, every k-th one, with k coprime
 * with 24 and not a multiple of 7 so the sample visits every hour of the
 * week alike; the sample keeps demand's distribution per pool and its
 * coupling across pools within each hour, which is all the optimum
 * depends on.  Its decisions are then refined on every hour.  Each
 * sampled pass handles about SAMPLE_ENTRIES list entries.
 */
#define SAMPLE_ABOVE 4e6
#define SAMPLE_ENTRIES 1.5e6

/* The problem restricted to hours 0, k, 2k, ...: a new gp_opt, or NULL
 * when out of memory. */
static gp_opt *sample_hours(const gp_opt *o, size_t k)
{
    gp_opt *s = gp_calloc(1, sizeof *s);
    size_t n = (o->n_hours + k - 1) / k;

    if (!s)
        return NULL;
    s->n_hours = n;
    s->quick_drop = true;
    s->max_rounds = o->max_rounds > 0 && o->max_rounds < 40 ? o->max_rounds
                                                              : 40;
    s->pools = gp_calloc(o->n_pools + 1, sizeof *s->pools);
    s->plans = gp_calloc(o->n_plans + 1, sizeof *s->plans);
    s->value = gp_calloc(o->n_pools * n + 1, sizeof *s->value);
    s->resid = gp_calloc(o->n_pools + 1, sizeof *s->resid);
    if (!s->pools || !s->plans || !s->value || !s->resid)
        goto fail;
    s->n_pools = o->n_pools;
    for (size_t p = 0; p < o->n_pools; p++) {
        s->pools[p] = o->pools[p];
        s->pools[p].demand = gp_malloc((n + 1) * sizeof *s->pools[p].demand);
        if (!s->pools[p].demand)
            goto fail;
        for (size_t j = 0; j < n; j++)
            s->pools[p].demand[j] = o->pools[p].demand[j * k];
    }
    for (size_t q = 0; q < o->n_plans; q++) {
        gp_opt_plan *pl = &s->plans[q];
        *pl = o->plans[q];
        pl->el = gp_malloc((pl->n_el + 1) * sizeof *pl->el);
        s->n_plans = q + 1;
        if (!pl->el)
            goto fail;
        memcpy(pl->el, o->plans[q].el, pl->n_el * sizeof *pl->el);
        /* sampled hours j with first <= j k < last */
        pl->first = (o->plans[q].first + k - 1) / k;
        pl->last = (o->plans[q].last + k - 1) / k;
    }
    return s;
fail:
    gp_opt_free(s);
    return NULL;
}

static size_t gcd(size_t a, size_t b)
{
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* List entries one pass handles. */
static double pass_entries(const gp_opt *o)
{
    double e = (double)o->n_hours * (double)(o->n_pools + 1);
    for (size_t k = 0; k < o->n_plans; k++)
        e += (double)o->n_hours * (double)o->plans[k].n_el;
    return e;
}

gp_opt *gp_opt_clone(const gp_opt *o)
{
    return o ? sample_hours(o, 1) : NULL;
}

/* gp_opt_sampled, and *nomem set when it is NULL for want of memory. */
static gp_opt *sampled(const gp_opt *o, bool *nomem)
{
    double per_pass = pass_entries(o);
    if (per_pass <= SAMPLE_ABOVE)
        return NULL;
    size_t k = (size_t)ceil(per_pass / SAMPLE_ENTRIES);
    while (gcd(k, 24) != 1 || k % 7 == 0)
        k++;
    if (o->n_hours / k < 2 * 168)
        return NULL;
    gp_opt *s = sample_hours(o, k);
    if (!s)
        *nomem = true;
    return s;
}

gp_opt *gp_opt_sampled(gp_opt *o)
{
    return sampled(o, &o->nomem);
}

/* One side of an exchange: a decision (a pool's reservations or a plan's
 * commitment) and what it moves by per instance exchanged. */
struct side {
    double *x;  /* NULL: no such side */
    double per;
    bool whole; /* reservations: whole instances only */
};

/* An exchange that saves less than this share of the window's cost is a
 * tie, not a saving.  A reservation and a family plan often cost the same
 * per instance-hour (the bundled plan rates are the reservation's, to
 * five decimals); swapping one for the other "saved" $0.00003 of $19,777,
 * and three sweeps of such swaps used up the polish before the exchange
 * that paid (reservations or family dollars for the compute plan's
 * dollars, $509) was tried.  Ties are taken only one way, from
 * reservations to the plan: at the same cost the plan, which any size in
 * its family may use, is the better purchase, and reservations only ever
 * go down in a tie, so ties cannot cycle. */
#define EXCHANGE_TIE 1e-7
/* Rates this close, relative, are the same rate. */
#define RATE_TIE 1e-6

/*
 * Moves `up` up by m instances' worth and `down` down by as much, for m =
 * 1, 2, 4, ... (or, when a plan gives up less than an instance's worth,
 * all of it first), while that keeps lowering *cost.  The exchange is the
 * move the averages miss: at reservations plus a plan that covers a whole
 * instance, one more reservation alone only wastes plan dollars and a
 * smaller plan alone leaves usage on demand; the same holds between a
 * family plan and a compute plan over the same usage.  Keeps the best
 * point; returns whether it moved.
 */
static bool exchange(gp_opt *o, struct side up, struct side down, bool tie,
                     double *cost)
{
    double u0 = up.x ? *up.x : 0, d0 = down.x ? *down.x : 0;
    double m = 1, best_m = 0;

    if (down.x && !down.whole && !up.whole && d0 / down.per < 1)
        m = d0 / down.per;
    for (; m > 0; m *= 2) {
        double d = d0 - m * down.per;
        if (down.x && d < -1e-12) {
            if (down.whole || d0 - (m / 2) * down.per <= 1e-12)
                break; /* it was used up at m / 2 */
            d = 0;
        }
        if (up.x)
            *up.x = u0 + m * up.per;
        if (down.x)
            *down.x = d > 0 ? d : 0;
        double c = pass(o, NULL);
        double tol = EXCHANGE_TIE * *cost + 1e-9;
        if (!(tie ? c <= *cost + tol : c < *cost - tol))
            break;
        *cost = c;
        best_m = m;
    }
    if (up.x)
        *up.x = u0 + best_m * up.per;
    if (down.x) {
        double d = d0 - best_m * down.per;
        *down.x = d > 0 ? d : 0;
    }
    return best_m > 0;
}

/* The exchanges around pool p, the first that pays: its reservations one
 * up or down alone, or against each plan over it, and each two plans over
 * it against each other.  An exchange is tried only toward the lower rate
 * for the pool's instances: more reservations for fewer plan dollars when
 * a reserved instance-hour costs less than the plan's, and so on (the
 * other way it can only pay where the averages would already have found
 * a single move that does). */
static bool exchanges(gp_opt *o, const struct work *w, size_t p,
                      double *cost)
{
    gp_opt_pool *pool = &o->pools[p];
    const uint32_t *ks = w->plans_of + p * (o->n_plans + 1);
    size_t nk = w->n_plans_of[p];
    struct side none = {NULL, 0, false};
    struct side ri = {&pool->n, 1, true};
    bool may_reserve = pool->ri_offer && pool->n_fixed < 0;

    if (may_reserve && (exchange(o, ri, none, false, cost) ||
                        exchange(o, none, ri, false, cost)))
        return true;
    for (size_t i = 0; i < nk; i++) {
        gp_opt_plan *a = &o->plans[ks[i]];
        struct side sa = {&a->S, a->el[w->pos[ks[i] * o->n_pools + p]].rate,
                          false};
        if (a->fixed)
            continue;
        if (may_reserve && (pool->ri_rate < sa.per * (1 - RATE_TIE)
                                ? exchange(o, ri, sa, false, cost)
                                : exchange(o, sa, ri, true, cost)))
            return true;
        for (size_t j = i + 1; j < nk; j++) {
            gp_opt_plan *b = &o->plans[ks[j]];
            struct side sb = {&b->S,
                              b->el[w->pos[ks[j] * o->n_pools + p]].rate,
                              false};
            if (!b->fixed &&
                (sa.per < sb.per ? exchange(o, sa, sb, false, cost)
                                 : exchange(o, sb, sa, false, cost)))
                return true;
        }
    }
    return false;
}

/*
 * Above 64 pools the polish runs only on small problems (POLISH_BUDGET),
 * and the averages can stop with a
 * compute plan paying for usage that the pools' family plans would cover
 * at their lower rate: on flat demand in 72 pools they bought $4,449 an
 * hour of compute plan and billed 2.9% over the hand optimum, and no one
 * plan's best response moves away from there (a smaller compute plan
 * alone leaves usage on demand; a larger family plan alone only frees
 * compute dollars nothing else uses).  The move they miss is a transfer:
 * what the compute plan spends on a family's pools, bought instead as
 * that family's plan, and the compute plan made smaller by as much.  One
 * pass gives, per family plan and hour, those compute dollars in the
 * family plan's rates (`f`), and over the window in both rates (`fsum`,
 * `csum`).  Each family plan grows by a quantile of its hours' `f`: the
 * median, then lower ones, since above what the family takes in most
 * hours its plan would pay for dollars it cannot use; the compute plan
 * shrinks by the same usage at its own rates.  The first quantile that
 * pays is kept.
 */
static const double TRANSFER_Q[] = {0.5, 0.25, 0.1, 0};

static int double_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : (x > y);
}

static bool transfer(gp_opt *o, struct work *w, size_t c, double *cost)
{
    gp_opt_plan *cp = &o->plans[c];
    size_t H = o->n_hours, nk = o->n_plans;
    double *f = gp_calloc(nk * H + 1, sizeof *f);
    double *fsum = gp_calloc(nk + 1, sizeof *fsum);
    double *csum = gp_calloc(nk + 1, sizeof *csum);
    double *was = gp_malloc((nk + 1) * sizeof *was);
    bool moved = false;

    if (!f || !fsum || !csum || !was) {
        w->nomem = true;
        goto out;
    }
    for (size_t k = 0; k < nk; k++)
        was[k] = o->plans[k].S;
    for (size_t h = cp->first; h < cp->last; h++) {
        const struct arena *ar = &w->arenas[c];
        double budget = cp->S;
        for (size_t i = ar->hour_start[h];
             i < ar->hour_start[h + 1] && budget > 0; i++) {
            uint32_t p = ar->e[i].pool;
            double spent = ar->e[i].need < budget ? ar->e[i].need : budget;
            double crate = cp->el[w->pos[c * o->n_pools + p]].rate;
            budget -= spent;
            const uint32_t *ks = w->plans_of + (size_t)p * (nk + 1);
            for (size_t j = 0; j < w->n_plans_of[p]; j++) {
                size_t k = ks[j];
                const gp_opt_plan *pl = &o->plans[k];
                if (pl->fixed || pl->kind != GP_PLAN_FAMILY || h < pl->first ||
                    h >= pl->last)
                    continue;
                double frate = pl->el[w->pos[k * o->n_pools + p]].rate;
                f[k * H + h] += spent / crate * frate;
                fsum[k] += spent / crate * frate;
                csum[k] += spent;
                break;
            }
        }
    }
    /* each family plan's hours, in order of what the compute plan spent */
    for (size_t k = 0; k < nk; k++) {
        const gp_opt_plan *pl = &o->plans[k];
        if (fsum[k] > 0)
            qsort(f + k * H + pl->first, pl->last - pl->first, sizeof *f,
                  double_cmp);
    }
    for (size_t q = 0; q < sizeof TRANSFER_Q / sizeof *TRANSFER_Q; q++) {
        double less = 0;
        for (size_t k = 0; k < nk; k++) {
            const gp_opt_plan *pl = &o->plans[k];
            o->plans[k].S = was[k];
            if (fsum[k] <= 0)
                continue;
            size_t n = pl->last - pl->first;
            double x = f[k * H + pl->first +
                         (size_t)(TRANSFER_Q[q] * (double)(n - 1))];
            o->plans[k].S = was[k] + x;
            less += x * csum[k] / fsum[k];
        }
        cp->S = was[c] > less ? was[c] - less : 0;
        double cc = pass(o, NULL);
        if (cc < *cost - EXCHANGE_TIE * *cost) {
            *cost = cc;
            moved = true;
            break;
        }
    }
    if (!moved)
        for (size_t k = 0; k < nk; k++)
            o->plans[k].S = was[k];
out:
    gp_free(f);
    gp_free(fsum);
    gp_free(csum);
    gp_free(was);
    return moved;
}

/* Above 64 pools, before the polish (or in its place on large problems):
 * transfers from each compute plan while one pays, with the plans sized
 * again around them after each round (the transfer moves by a quantile,
 * not to the best point). */
#define TRANSFERS 4
static bool transfers(gp_opt *o, struct work *w, int rounds, double *best_n,
                      double *best_S)
{
    bool moved = false;
    for (int t = 0; t < TRANSFERS; t++) {
        bool any = false;
        for (size_t c = 0; c < o->n_plans; c++) {
            if (o->plans[c].fixed || o->plans[c].kind != GP_PLAN_COMPUTE ||
                o->plans[c].S <= 0)
                continue;
            double cost = pass(o, w);
            any |= transfer(o, w, c, &cost);
        }
        if (!any)
            break;
        moved = true;
        averages(o, w, rounds / 2, false, best_n, best_S);
        restore(o, best_n, best_S);
    }
    return moved;
}

/*
 * Each reservation one up or down, alone or in exchange for the plan
 * dollars its instances take or free, and plan dollars between plans, if
 * that is cheaper: a few passes per pool, so only for small problems (for
 * large ones the rounded average is left as it is).  After the first sweep
 * only the pools that moved are tried again: sweeping all of them every
 * time cost the 64-pool benchmark 2.4 times the passes for 0.0004% of its
 * savings.  Sweeps go on while an exchange pays, up to POLISH_SWEEPS: an
 * exchange moves by at most doubling steps and the plans are sized again
 * after each sweep, so flat demand of 10 instances whose averages stopped
 * at 5 reservations took 5 sweeps to reach 10 (3 used to stop at 8, $672
 * short of the optimum).
 */
#define POLISH_SWEEPS 32
/* The polish tries a few exchanges per pool, each a pass or two: its time
 * grows with pools x list entries a pass.  64 pools of a year (the
 * 64-pool bench, 1.1e8) is where it was first bounded; above 64 pools it
 * runs while the problem is no larger than that. */
#define POLISH_BUDGET 1.1e8
static void polish(gp_opt *o, struct work *w, int rounds, double *best_n,
                   double *best_S)
{
    double cost = pass(o, NULL);
    bool *moved = gp_calloc(o->n_pools + 1, sizeof *moved);
    if (!moved)
        w->nomem = true;
    for (int sweep = 0; moved && sweep < POLISH_SWEEPS; sweep++) {
        bool better = false;
        for (size_t p = 0; p < o->n_pools; p++) {
            if (sweep > 0 && !moved[p])
                continue;
            moved[p] = exchanges(o, w, p, &cost);
            better |= moved[p];
        }
        if (!better)
            break;
        /* the exchanges moved plan dollars by whole instances' worth: size
         * the plans again around the reservations they settled on */
        double c = averages(o, w, rounds / 2, false, best_n, best_S);
        restore(o, best_n, best_S);
        /* the best point's cost, as its own pass found it */
        cost = isfinite(c) ? c : pass(o, NULL);
    }
    gp_free(moved);
}

/*
 * Up to 64 pools the polish comes first, and its exchanges between two
 * plans can still leave a compute plan that only transfers would empty:
 * 10 g5.xlarge in each of two regions bought family plans of $5.228/h in
 * each and a compute plan of $1.119/h across both, $17.86 over the family
 * plans alone (a smaller compute plan needs both family plans to grow at
 * once).  So the transfers are tried once more after it, and polished
 * again if they moved; the result is kept only if it is cheaper.  Before
 * the polish they cost the 64-pool bench 25% more time for no savings.
 */
static void transfer_after_polish(gp_opt *o, struct work *w, int rounds,
                                  double *best_n, double *best_S)
{
    double *n = gp_malloc((o->n_pools + 1) * sizeof *n);
    double *S = gp_malloc((o->n_plans + 1) * sizeof *S);
    bool any_compute = false;

    for (size_t k = 0; k < o->n_plans; k++)
        any_compute |= !o->plans[k].fixed &&
                       o->plans[k].kind == GP_PLAN_COMPUTE && o->plans[k].S > 0;
    if (!n || !S)
        w->nomem = true;
    if (n && S && any_compute) {
        save(o, n, S);
        double was = pass(o, NULL);
        if (transfers(o, w, rounds, best_n, best_S)) {
            polish(o, w, rounds, best_n, best_S);
            if (!(pass(o, NULL) < was))
                restore(o, n, S);
        }
    }
    gp_free(n);
    gp_free(S);
}

double gp_opt_solve(gp_opt *o)
{
    struct work w;
    double cost = NAN;
    double *best_n = gp_calloc(o->n_pools + 1, sizeof *best_n);
    double *best_S = gp_calloc(o->n_plans + 1, sizeof *best_S);

    /* work_free below must find w empty when work_init was not reached */
    memset(&w, 0, sizeof w);
    o->lambda = gp_calloc(o->n_plans + 1, sizeof *o->lambda);
    if (!o->lambda || !best_n || !best_S || !work_init(o, &w)) {
        gp_free(o->lambda);
        o->lambda = NULL;
        gp_free(best_n);
        gp_free(best_S);
        work_free(o, &w);
        o->nomem = true;
        return NAN;
    }
    o->rounds = 0;
    double per_pass = pass_entries(o);
    /* 40 rounds come within 0.15% of GLPK's optimum on the tests and 80
     * within 0.08%: 80 while a pass is cheap, 40 for large problems */
    int rounds = per_pass < 2e6 ? 80 : 40;
    if (o->max_rounds > 0 && o->max_rounds < rounds)
        rounds = o->max_rounds;

    gp_opt *sample = sampled(o, &w.nomem);
    if (sample) {
        /* the sample's solution is the solution: sizing the plans again on
         * every hour moved the bench's net savings by 0.04% for three
         * more passes over the year */
        gp_opt_solve(sample);
        w.nomem |= sample->nomem;
        o->rounds = sample->rounds;
        for (size_t p = 0; p < o->n_pools; p++)
            o->pools[p].n = sample->pools[p].n;
        for (size_t k = 0; k < o->n_plans; k++)
            o->plans[k].S = sample->plans[k].S;
        gp_opt_free(sample);
        /* a pass over every hour: a sixth of a second on the 1,000-pool
         * bench, for a figure gp_recommend does not read */
        cost = o->no_cost ? NAN : pass(o, NULL);
        goto out;
    }

    /* the fractional optimum */
    averages(o, &w, rounds, true, best_n, best_S);
    restore(o, best_n, best_S);
    /* whole reservations: round each, then size the plans again */
    for (size_t p = 0; p < o->n_pools; p++)
        o->pools[p].n = o->pools[p].n_fixed >= 0 ? o->pools[p].n_fixed
                                                 : floor(o->pools[p].n + 0.5);
    averages(o, &w, rounds / 2, false, best_n, best_S);
    restore(o, best_n, best_S);
    if (o->n_pools > 64)
        transfers(o, &w, rounds, best_n, best_S);
    if (o->n_pools <= 64 || (double)o->n_pools * per_pass <= POLISH_BUDGET)
        polish(o, &w, rounds, best_n, best_S);
    if (o->n_pools <= 64)
        transfer_after_polish(o, &w, rounds, best_n, best_S);
    /* whole tenths of a cent an hour; a plan that saves nothing (or less
     * than a dollar over the window) is not worth a purchase order */
    for (size_t k = 0; k < o->n_plans; k++)
        o->plans[k].S =
            floor(o->plans[k].S * GP_PLAN_STEPS + 0.5) / GP_PLAN_STEPS;
    cost = pass(o, NULL);
    /* The averages stop at the best point they passed, where a plan need
     * not be at its best given the others: a compute plan still shrinking
     * toward nothing behind a family plan that grew cost the sample $127
     * over none at all.  Each plan, in turn, goes to its best response if
     * that is cheaper, until none moves (a plan that moved changes the
     * others' best responses).  Two passes a plan: on problems past the
     * polish's budget (over a hundred family plans on the 1,000-pool
     * bench, which this took from 7 s to 32 s) only the compute plans,
     * which overlap the others. */
    for (int sweep = 0; sweep < 3; sweep++) {
        bool moved = false;
        for (size_t k = 0; k < o->n_plans; k++) {
            if (o->plans[k].fixed ||
                (o->n_pools > 64 &&
                 (double)o->n_pools * per_pass > POLISH_BUDGET &&
                 o->plans[k].kind != GP_PLAN_COMPUTE))
                continue;
            pass(o, &w);
            double to = floor(best_plan(o, &w, k) * GP_PLAN_STEPS + 0.5) /
                        GP_PLAN_STEPS;
            double was = o->plans[k].S;
            if (to == was)
                continue;
            o->plans[k].S = to;
            double c = pass(o, NULL);
            if (c < cost - 1e-9) {
                cost = c;
                moved = true;
            } else {
                o->plans[k].S = was;
            }
        }
        if (!moved)
            break;
    }
    for (size_t k = 0; k < o->n_plans; k++) {
        if (o->plans[k].fixed || o->plans[k].S == 0)
            continue;
        /* one pass per plan: only for plans whose last sizing did not
         * already show them saving well over a dollar */
        if (w.gain[k] > 100)
            continue;
        /* a sample of a large problem: a plan whose first dollar was worth
         * less than a dollar at its last sizing goes without a pass */
        if (o->quick_drop && w.worthless[k]) {
            o->plans[k].S = 0;
            continue;
        }
        double was = o->plans[k].S;
        o->plans[k].S = 0;
        double c = pass(o, NULL);
        if (c <= cost + 1.0)
            cost = c;
        else
            o->plans[k].S = was;
    }
out:
    if (w.nomem)
        o->nomem = true;
    work_free(o, &w);
    gp_free(o->lambda);
    o->lambda = NULL;
    gp_free(best_n);
    gp_free(best_S);
    return o->nomem ? NAN : cost;
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
