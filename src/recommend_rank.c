/*
 * recommend_rank.c: the recommended plan's purchases as ranked actions,
 * each with its savings on top of those above it, its utilization and its
 * reason, and the savings curves around the plan's levels.
 */
#include "recommend_internal.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- actions ------------------------------------------------------------- */

int gp_rec_action_grow(gp_recommendation *r)
{
    gp_action *a = gp_realloc(r->actions, (r->n_actions + 1) * sizeof *a);
    if (!a)
        return -1;
    r->actions = a;
    memset(&r->actions[r->n_actions], 0, sizeof *a);
    return (int)r->n_actions++;
}

/* The share of window hours in which x_h >= level. */
static double share_at_least(const double *x, size_t n, double level)
{
    size_t k = 0;
    for (size_t h = 0; h < n; h++)
        k += x[h] >= level - 1e-9;
    return n ? (double)k / (double)n : 0;
}

/* Standalone savings of a reservation of n in a pool with no plans:
 * on-demand value covered minus its cost. */
static double reservation_value(const gp_opt_pool *p, size_t hours)
{
    double covered = 0;
    for (size_t h = 0; h < hours; h++)
        covered += p->demand[h] < p->n ? p->demand[h] : p->n;
    return covered * p->od - p->n * p->ri_rate * (double)hours;
}

static _Thread_local const gp_opt *sort_o;
static int pool_value_cmp(const void *a, const void *b)
{
    double x = reservation_value(&sort_o->pools[*(const size_t *)a],
                                 sort_o->n_hours);
    double y = reservation_value(&sort_o->pools[*(const size_t *)b],
                                 sort_o->n_hours);
    return x > y ? -1 : (x < y);
}

/* Up to this many actions, each one's savings are billed by the engine. */
#define EXACT_ACTIONS 40

/* Sets the optimizer's decisions to the first `upto` of `ordered`
 * (reservations by type and region, plans by kind, family and region),
 * the rest to none. */
static void set_decisions(gp_opt *o, const gp_commitment *ordered,
                          size_t upto)
{
    for (size_t p = 0; p < o->n_pools; p++)
        if (o->pools[p].n_fixed < 0)
            o->pools[p].n = 0;
    for (size_t k = 0; k < o->n_plans; k++)
        if (!o->plans[k].fixed)
            o->plans[k].S = 0;
    for (size_t i = 0; i < upto; i++) {
        const gp_commitment *c = &ordered[i];
        if (c->type == GP_COMMIT_RESERVED) {
            for (size_t p = 0; p < o->n_pools; p++)
                if (strcmp(o->pools[p].type->name, c->instance_type) == 0 &&
                    strcmp(o->pools[p].catalog->region, c->region) == 0)
                    o->pools[p].n = c->count;
        } else {
            for (size_t k = 0; k < o->n_plans; k++)
                if (!o->plans[k].fixed && o->plans[k].kind == c->kind &&
                    strcmp(o->plans[k].provider, c->provider) == 0 &&
                    strcmp(o->plans[k].family, c->family) == 0 &&
                    strcmp(o->plans[k].region, c->region) == 0)
                    o->plans[k].S = c->hourly_commitment;
        }
    }
}

/* The model's savings of each of ordered[0, k) on top of those before it,
 * into out[], in m (o, the window's problem, or the low-demand case's):
 * each reservation alone, each plan by a bill of the pools it covers.
 * The reserved rates are o's. */
static void model_pass(gp_opt *m, const gp_opt *o,
                       const gp_commitment *ordered, size_t k, double *out)
{
    double prev = NAN;
    for (size_t i = 0; i < k; i++) {
        if (ordered[i].type == GP_COMMIT_RESERVED) {
            /* independent of the other reservations */
            for (size_t p = 0; p < m->n_pools; p++)
                if (strcmp(m->pools[p].type->name,
                           ordered[i].instance_type) == 0 &&
                    strcmp(m->pools[p].catalog->region,
                           ordered[i].region) == 0) {
                    double n = m->pools[p].n;
                    m->pools[p].n = ordered[i].count;
                    m->pools[p].ri_rate = gp_reserved_effective_hourly(
                        o->pools[p].ri_offer);
                    out[i] = reservation_value(&m->pools[p],
                                               m->n_hours);
                    m->pools[p].n = n;
                }
            continue;
        }
        /* plans: only this plan's dollars change, so only the pools
         * it covers need billing (all of them for a compute plan) */
        if (isnan(prev)) {
            set_decisions(m, ordered, i);
            prev = 0;
        }
        size_t q = m->n_plans;
        for (size_t j = 0; j < m->n_plans; j++)
            if (!m->plans[j].fixed &&
                m->plans[j].kind == ordered[i].kind &&
                strcmp(m->plans[j].provider, ordered[i].provider) == 0 &&
                strcmp(m->plans[j].family, ordered[i].family) == 0 &&
                strcmp(m->plans[j].region, ordered[i].region) == 0)
                q = j;
        if (q == m->n_plans) {
            out[i] = 0;
            continue;
        }
        double before = gp_opt_cost_local(m, q);
        bool local = !isnan(before);
        if (!local)
            before = gp_opt_cost(m);
        m->plans[q].S = ordered[i].hourly_commitment;
        double after = local ? gp_opt_cost_local(m, q) : gp_opt_cost(m);
        if (isnan(after))
            after = gp_opt_cost(m);
        out[i] = before - after;
    }
}

/* The optimizer-model savings of each action on top of those before it,
 * in the window and in the low-demand case.  GP_ERR_NOMEM when memory ran
 * out (the figures are then not to be used). */
static gp_status model_marginals(const struct ctx *c, gp_opt *o,
                                 const gp_commitment *ordered, size_t k,
                                 const gp_trace *downside, double *marginal,
                                 double *marginal_down, gp_error *err)
{
    gp_opt *down = NULL;
    gp_status st = GP_OK;
    double *saved_n = gp_calloc(o->n_pools + 1, sizeof *saved_n);
    double *saved_S = gp_calloc(o->n_plans + 1, sizeof *saved_S);

    if (!saved_n || !saved_S) {
        gp_free(saved_n);
        gp_free(saved_S);
        return GP_ERR_NOMEM;
    }
    for (size_t p = 0; p < o->n_pools; p++)
        saved_n[p] = o->pools[p].n;
    for (size_t j = 0; j < o->n_plans; j++)
        saved_S[j] = o->plans[j].S;
    /* the same inputs built the window's problem: only memory can fail */
    if (downside)
    {
        gp_opt_choices ch = gp_rec_choices(c, 3, ALL_PAYMENTS);
        st = gp_opt_build_choices(&down, downside, c->pricing, &c->spec, &ch,
                                  err);
    }
    for (int pass = 0; pass < (down ? 2 : 1); pass++)
        model_pass(pass == 0 ? o : down, o, ordered, k,
                   pass == 0 ? marginal : marginal_down);
    for (size_t p = 0; p < o->n_pools; p++)
        o->pools[p].n = saved_n[p];
    for (size_t j = 0; j < o->n_plans; j++)
        o->plans[j].S = saved_S[j];
    if (st == GP_OK && (o->nomem || (down && down->nomem)))
        st = GP_ERR_NOMEM;
    gp_opt_free(down);
    gp_free(saved_n);
    gp_free(saved_S);
    return st;
}

/* Whether optimizer plan p is the one to buy that commitment c names. */
static bool plan_is(const gp_opt_plan *p, const gp_commitment *c)
{
    return !p->fixed && c->type == GP_COMMIT_SAVINGS_PLAN &&
           p->kind == c->kind && strcmp(p->provider, c->provider) == 0 &&
           strcmp(p->family, c->family) == 0 &&
           strcmp(p->region, c->region) == 0;
}

/* Counts in *hit the hours in which the usage that plan o->plans[pl] may
 * cover, at its rates, came to `commitment` or more: demand after the
 * reservations, less what the plans billed before it cover (each in its
 * covering order, up to its dollars: an owned plan's S, a bought one's
 * level among bought[0, n_bought), none when it is not bought).  Without
 * that, a compute plan bought under family plans looked fully used in
 * hours the family plans had covered. */
static gp_status plan_hours_reached(const gp_opt *o,
                                    const gp_commitment *bought,
                                    size_t n_bought, size_t pl,
                                    double commitment, size_t *hit)
{
    const gp_opt_plan *p = &o->plans[pl];
    size_t n_el = 0;
    for (size_t j = 0; j < pl; j++)
        n_el += o->plans[j].n_el;
    double *level = gp_calloc(pl + 1, sizeof *level);
    double *rest = gp_calloc(o->n_pools, sizeof *rest);
    bool *mine = gp_calloc(o->n_pools, sizeof *mine);
    /* the plans before p with elements over p's pools, plan[0, n_q),
     * and those elements in covering order: el[start[m], start[m + 1]) */
    gp_opt_eligible *el = gp_calloc(n_el + 1, sizeof *el);
    size_t *start = gp_calloc(pl + 1, sizeof *start);
    size_t *plan = gp_calloc(pl + 1, sizeof *plan), n_q = 0;

    *hit = 0;
    if (!level || !rest || !mine || !el || !start || !plan) {
        gp_free(plan);
        gp_free(level);
        gp_free(rest);
        gp_free(mine);
        gp_free(el);
        gp_free(start);
        return GP_ERR_NOMEM;
    }
    for (size_t j = 0; j < pl; j++) {
        level[j] = o->plans[j].fixed ? o->plans[j].S : 0;
        for (size_t b = 0; b < n_bought && !o->plans[j].fixed; b++)
            if (plan_is(&o->plans[j], &bought[b]))
                level[j] = bought[b].hourly_commitment;
    }
    /* A pool p cannot cover stays at 0 (the calloc), so a plan before p
     * takes nothing from it and its dollars go on: only its elements over
     * p's pools can change rest or its dollars left.  1,000 pools: the
     * ranking went over every element of every plan before p, each hour
     * (2.5 s of CPU, perf); the same hours are counted. */
    for (size_t e = 0; e < p->n_el; e++)
        mine[p->el[e].pool] = true;
    n_el = 0;
    for (size_t j = 0; j < pl; j++) {
        start[n_q] = n_el;
        for (size_t e = 0; e < o->plans[j].n_el; e++)
            if (mine[o->plans[j].el[e].pool])
                el[n_el++] = o->plans[j].el[e];
        if (n_el > start[n_q])
            plan[n_q++] = j;
    }
    start[n_q] = n_el;
    for (size_t h = 0; h < o->n_hours; h++) {
        for (size_t e = 0; e < p->n_el; e++) {
            const gp_opt_pool *pp = &o->pools[p->el[e].pool];
            rest[p->el[e].pool] =
                pp->demand[h] > pp->n ? pp->demand[h] - pp->n : 0;
        }
        for (size_t m = 0; m < n_q; m++) {
            const gp_opt_plan *q = &o->plans[plan[m]];
            double left = level[plan[m]];
            if (h < q->first || h >= q->last)
                continue;
            for (size_t e = start[m]; e < start[m + 1] && left > 0; e++) {
                double *r = &rest[el[e].pool], x = left / el[e].rate;
                x = x < *r ? x : *r;
                *r -= x;
                left -= x * el[e].rate;
            }
        }
        double need = 0;
        for (size_t e = 0; e < p->n_el; e++)
            need += rest[p->el[e].pool] * p->el[e].rate;
        /* the commitment was rounded to a step: usage within half a
         * step of it reached it */
        *hit += need >= commitment - 0.5 / GP_PLAN_STEPS - 1e-9;
    }
    gp_free(level);
    gp_free(rest);
    gp_free(mine);
    gp_free(el);
    gp_free(start);
    gp_free(plan);
    return GP_OK;
}

/* What a compute plan's reason says it covers: "on-demand usage the
 * reservations and family plans left", naming only the instruments the
 * catalogs sell for the types it covers (Azure sells no family plans, a
 * catalog of your own may have no reservations). */
static void compute_left(const gp_opt *o, const gp_opt_plan *p, char *buf,
                         size_t size)
{
    bool reserved = false, family = false;

    for (size_t e = 0; e < p->n_el; e++) {
        const gp_instance_type *it = o->pools[p->el[e].pool].type;
        reserved = reserved || it->n_reserved > 0;
        for (size_t j = 0; j < it->n_plans; j++)
            family = family || it->plans[j].kind == GP_PLAN_FAMILY;
    }
    snprintf(buf, size, "on-demand usage%s%s%s%s",
             reserved || family ? " the " : "", reserved ? "reservations" : "",
             reserved && family ? " and " : "",
             family     ? "family plans left"
             : reserved ? " left"
                        : "");
}

/* The plan's purchases in ranking order, into ordered[] (and each one's
 * index in the plan into src[]): reservations by their standalone
 * savings, then instance_family plans, then compute plans.  `pools` is
 * scratch for o->n_pools.  Returns how many. */
static size_t order_purchases(const gp_opt *o, const gp_plan_result *plan,
                              size_t *pools, gp_commitment *ordered,
                              size_t *src)
{
    size_t n = plan->n_commitments, k = 0, np = 0;

    for (size_t p = 0; p < o->n_pools; p++)
        if (o->pools[p].n > 0 && o->pools[p].ri_offer)
            pools[np++] = p;
    sort_o = o;
    qsort(pools, np, sizeof *pools, pool_value_cmp);
    for (size_t i = 0; i < np; i++)
        for (size_t j = 0; j < n; j++)
            if (plan->commitments[j].type == GP_COMMIT_RESERVED &&
                strcmp(plan->commitments[j].instance_type,
                       o->pools[pools[i]].type->name) == 0 &&
                strcmp(plan->commitments[j].region,
                       o->pools[pools[i]].catalog->region) == 0) {
                src[k] = j;
                ordered[k++] = plan->commitments[j];
            }
    for (int kind = GP_PLAN_FAMILY; kind >= GP_PLAN_COMPUTE; kind--)
        for (size_t j = 0; j < n; j++)
            if (plan->commitments[j].type == GP_COMMIT_SAVINGS_PLAN &&
                plan->commitments[j].kind == (gp_plan_kind)kind) {
                src[k] = j;
                ordered[k++] = plan->commitments[j];
            }
    return k;
}

/* What the ranking's steps share: the purchases in ranking order, the
 * plan's bill, and the costs the next action is valued on top of. */
struct ranking {
    const struct ctx *c;
    gp_recommendation *r;
    gp_opt *o;                    /* the balanced plan's problem */
    const gp_trace *downside;     /* the low-demand case, or NULL */
    const gp_commitment *ordered; /* [k] the purchases, ranked */
    const size_t *src;            /* [k] each one's index in the plan */
    size_t k;
    const gp_ledger *plan_bill; /* the owned commitments, then the plan's */
    size_t owned;               /* how many owned ones plan_bill has */
    double prev, prev_down;     /* the cost with the actions above */
    bool modelled;              /* savings from the optimizer's model: */
    const double *marginal, *marginal_down; /* [k] */
};

/* A reservation's break-even, savings share and reason: how often demand
 * reached its count. */
static void reserved_reason(const gp_opt *o, gp_action *a,
                            const gp_commitment *cm,
                            const gp_ledger_commitment *lc)
{
    const gp_opt_pool *pool = NULL;
    for (size_t p = 0; p < o->n_pools; p++)
        if (strcmp(o->pools[p].type->name, cm->instance_type) == 0 &&
            strcmp(o->pools[p].catalog->region, cm->region) == 0)
            pool = &o->pools[p];
    double od = pool ? pool->od : 1;
    a->breakeven_utilization = pool ? pool->ri_rate / od : 0;
    /* net savings over the on-demand value it covered, at the
     * discounted prices the savings are billed at, as a savings
     * plan's */
    double equiv = lc->od_equiv_covered;
    a->savings_pct = equiv > 0 ? a->net_savings / equiv : 0;
    double share =
        pool ? share_at_least(pool->demand, o->n_hours, cm->count) : 0;
    snprintf(a->reason, sizeof a->reason,
             "demand was at or above %g %s in %.0f%% of hours; "
             "break-even is %.0f%%",
             cm->count, cm->instance_type, 100 * share,
             100 * a->breakeven_utilization);
}

/* A savings plan's break-even, savings share and reason: how often the
 * usage it may cover reached its commitment. */
static gp_status plan_reason(const struct ranking *g, gp_action *a,
                             const gp_commitment *cm,
                             const gp_ledger_commitment *lc)
{
    const gp_opt *o = g->o;
    gp_status st;

    a->breakeven_utilization =
        lc->od_equiv_covered > 0 ? lc->used / lc->od_equiv_covered : 0;
    double equiv = lc->od_equiv_covered;
    a->savings_pct = equiv > 0 ? a->net_savings / equiv : 0;
    /* hours in which eligible usage, at plan rates, reached the
     * commitment (after the reservations and the plans billed
     * before it) */
    size_t pl = o->n_plans, hit = 0;
    for (size_t j = 0; j < o->n_plans; j++)
        if (plan_is(&o->plans[j], cm))
            pl = j;
    if (pl < o->n_plans &&
        (st = plan_hours_reached(o, g->ordered, g->k, pl,
                                 cm->hourly_commitment, &hit)) != GP_OK)
        return st;
    char family_usage[64], compute_usage[80];
    snprintf(family_usage, sizeof family_usage, "%s usage not reserved",
             cm->family);
    if (pl < o->n_plans)
        compute_left(o, &o->plans[pl], compute_usage, sizeof compute_usage);
    else
        snprintf(compute_usage, sizeof compute_usage, "on-demand usage");
    char per_hour[48];
    gp_format_money(cm->hourly_commitment, per_hour, sizeof per_hour);
    snprintf(a->reason, sizeof a->reason,
             "%s came to %s/h or more at plan rates in %.0f%% of "
             "hours; break-even is %.0f%%",
             cm->kind == GP_PLAN_FAMILY ? family_usage : compute_usage,
             per_hour,
             o->n_hours ? 100.0 * (double)hit / (double)o->n_hours : 0,
             100 * a->breakeven_utilization);
    return GP_OK;
}

/* The figures the clouds' recommenders give of a purchase (SPEC 7.2),
 * from its cash and its net savings over the window of n_hours; a month is
 * 730 hours, as AWS counts it. */
static void cloud_figures(const struct ctx *c, gp_action *a)
{
    double per_hour, upfront;
    gp_commitment_cash(&a->c, c->pricing, &per_hour, &upfront);
    double kept = 1.0 - c->spec.discount;
    double term_h = a->c.term_years * 8760.0;
    /* as the contract states it: a plan's commitment, a reservation's
     * fee plus its upfront spread over the term */
    a->hourly_commitment = a->c.type == GP_COMMIT_SAVINGS_PLAN
                               ? a->c.hourly_commitment
                               : per_hour + upfront / term_h;
    a->recurring_monthly = per_hour * 730.0 * kept;
    double in_window = a->hourly_commitment * kept * (double)c->n_hours;
    a->roi = in_window > 0 ? a->net_savings / in_window : NAN;
    /* a month's cash advantage: net savings plus the upfront's share of a
     * month, which the net savings already paid */
    double monthly = c->n_hours
                         ? a->net_savings / (double)c->n_hours * 730.0 +
                               upfront * kept / (a->c.term_years * 12.0)
                         : NAN;
    if (upfront <= 0)
        a->breakeven_months = 0;
    else
        a->breakeven_months = monthly > 0 ? upfront * kept / monthly : NAN;
}

/* Adds purchase i as the next action: its savings on top of the actions
 * above it (billed, or the model's), in the low-demand case too, its
 * utilization from the plan's bill, and its reason. */
static gp_status rank_one(struct ranking *g, size_t i, gp_error *err)
{
    const struct ctx *c = g->c;
    gp_recommendation *r = g->r;
    gp_status st;

    double cost = g->prev - (g->modelled ? g->marginal[i] : 0);
    if (!g->modelled && (st = gp_rec_bill_cost(c, NULL, g->ordered, i + 1,
                                               &cost, err)) != GP_OK)
        return st;
    int ai = gp_rec_action_grow(r);
    if (ai < 0)
        return GP_ERR_NOMEM;
    gp_action *a = &r->actions[ai];
    const gp_commitment *cm = &g->ordered[i];
    const gp_ledger_commitment *lc =
        &g->plan_bill->commitments[g->owned + g->src[i]];
    a->type = cm->type == GP_COMMIT_RESERVED ? GP_ACTION_RESERVED
                                             : GP_ACTION_SAVINGS_PLAN;
    a->c = *cm;
    a->upfront = gp_rec_upfront_of(c, cm);
    a->net_savings = g->prev - cost;
    g->prev = cost;
    a->expected_utilization =
        lc->purchased > 0 ? lc->used / lc->purchased : 0;
    if (g->downside && g->modelled) {
        a->downside_net_savings = g->marginal_down[i];
    } else if (g->downside) {
        double d;
        st = gp_rec_bill_cost(c, g->downside, g->ordered, i + 1, &d, err);
        if (st != GP_OK)
            return st;
        a->downside_net_savings = g->prev_down - d;
        g->prev_down = d;
    } else {
        a->downside_net_savings = NAN; /* no low-demand case */
    }
    cloud_figures(c, a);
    if (cm->type == GP_COMMIT_RESERVED)
        reserved_reason(g->o, a, cm, lc);
    else if ((st = plan_reason(g, a, cm, lc)) != GP_OK)
        return st;
    if (cm->term_years == 3) {
        char span[32];
        gp_rec_span_words(c->n_hours, span, sizeof span);
        snprintf(a->reason + strlen(a->reason),
                 sizeof a->reason - strlen(a->reason),
                 "; a 3-year term outlasts the %s of %s", span,
                 c->low ? "forecast" : "history");
    }
    return GP_OK;
}

/*
 * The recommended plan's purchases in order: routing first, then
 * reservations by their standalone savings, then instance_family plans,
 * then compute plans (the order the bill applies them in).  Each action's
 * net savings are billed by the engine on top of the actions above it.
 */
gp_status gp_rec_rank_actions(const struct ctx *c, gp_recommendation *r,
                              const gp_plan_result *plan,
                              const gp_ledger *plan_bill, gp_opt *o,
                              const gp_trace *downside, double down_base,
                              gp_error *err)
{
    size_t n = plan->n_commitments;
    gp_commitment *ordered = gp_calloc(n + 1, sizeof *ordered);
    size_t *src = gp_calloc(n + 1, sizeof *src); /* index in the plan */
    size_t *pools = gp_calloc(o->n_pools + 1, sizeof *pools);
    gp_ledger *full = NULL;
    double *marginal = NULL, *marginal_down = NULL;
    struct ranking g;
    gp_status st = GP_ERR_NOMEM;

    if (!ordered || !src || !pools)
        goto out;
    size_t k = order_purchases(o, plan, pools, ordered, src);

    /* the full plan: expected utilization and break-even per commitment,
     * from the plan's own bill (its commitments in the plan's order) */
    if (!plan_bill) {
        st = gp_rec_bill(c, NULL, plan->commitments, n, &full, err);
        if (st != GP_OK)
            goto out;
        plan_bill = full;
    }
    g = (struct ranking){c, r, o, downside, ordered, src, k, plan_bill,
                         plan_bill->n_commitments - n, 0, down_base,
                         false, NULL, NULL};
    g.prev = r->actions && r->n_actions
                 ? r->policy_cost - r->actions[0].net_savings
                 : r->policy_cost;
    if (downside && isnan(g.prev_down)) {
        st = gp_rec_bill_cost(c, downside, NULL, 0, &g.prev_down, err);
        if (st != GP_OK)
            goto out;
    }
    /* With many actions, billing every prefix would take one engine run
     * per action: their savings then come from the optimizer's model
     * (reservations are independent of each other with no plan above
     * them; each plan takes one pass) and a note says so. */
    g.modelled = k > EXACT_ACTIONS;
    if (g.modelled) {
        marginal = gp_calloc(k + 1, sizeof *marginal);
        marginal_down = gp_calloc(k + 1, sizeof *marginal_down);
        if (!marginal || !marginal_down) {
            st = GP_ERR_NOMEM;
            goto out;
        }
        st = model_marginals(c, o, ordered, k, downside, marginal,
                             marginal_down, err);
        if (st != GP_OK)
            goto out;
        gp_warnings_add(&r->notes,
                        "%zu actions: each one's savings are the optimizer's "
                        "estimate (reservations without size flexibility); "
                        "the plans' totals are billed by the engine",
                        k);
        g.marginal = marginal;
        g.marginal_down = marginal_down;
    }
    for (size_t i = 0; i < k; i++)
        if ((st = rank_one(&g, i, err)) != GP_OK)
            goto out;
    st = GP_OK;
out:
    gp_free(marginal);
    gp_free(marginal_down);
    gp_ledger_free(full);
    gp_free(ordered);
    gp_free(src);
    gp_free(pools);
    return st;
}

/* Whether o's decisions buy nothing: no reservation, no plan dollar (owned
 * plans aside, which are in every bill). */
static bool nothing_bought(const gp_opt *o)
{
    for (size_t p = 0; p < o->n_pools; p++)
        if (o->pools[p].n > 0)
            return false;
    for (size_t k = 0; k < o->n_plans; k++)
        if (!o->plans[k].fixed && o->plans[k].S > 0)
            return false;
    return true;
}

/* Net savings of each of the first few instruments at levels from none to
 * twice the plan's, the others held at the plan's levels (optimizer costs,
 * shifted to the engine's bill of the plan). */
gp_status gp_rec_make_curves(gp_recommendation *r, gp_opt *full,
                             double plan_net)
{
    size_t want = full->n_pools <= 50 ? 12 : 4;
    size_t points = full->n_pools <= 50 ? 21 : 11;
    /* a problem the optimizer solved on a sample of its hours is costed
     * on the same sample, scaled to the window */
    gp_opt *sample = gp_opt_sampled(full);
    gp_opt *o = sample ? sample : full;
    if (full->nomem)
        return GP_ERR_NOMEM;
    double scale = (double)full->n_hours / (double)o->n_hours;
    double base = gp_opt_cost(o);
    /* what buying nothing saves, as billed: the routing action's savings
     * (training on spot), or none */
    double none = r->n_actions && r->actions[0].type == GP_ACTION_ROUTING
                      ? r->actions[0].net_savings
                      : 0;

    r->curves = gp_calloc(want + 1, sizeof *r->curves);
    if (!r->curves) {
        gp_opt_free(sample);
        return GP_ERR_NOMEM;
    }
    for (size_t i = 0; i < r->n_actions && r->n_curves < want; i++) {
        gp_action *a = &r->actions[i];
        gp_curve *cv = &r->curves[r->n_curves];
        double *x = NULL;
        if (a->type == GP_ACTION_RESERVED) {
            for (size_t p = 0; p < o->n_pools; p++)
                if (strcmp(o->pools[p].type->name, a->c.instance_type) == 0 &&
                    strcmp(o->pools[p].catalog->region, a->c.region) == 0)
                    x = &o->pools[p].n;
            snprintf(cv->instrument, sizeof cv->instrument,
                     "reserved %s %s %dy %s", a->c.instance_type,
                     a->c.region, a->c.term_years,
                     gp_payment_name(a->c.payment));
            cv->unit = "instances";
        } else if (a->type == GP_ACTION_SAVINGS_PLAN) {
            for (size_t k = 0; k < o->n_plans; k++)
                if (!o->plans[k].fixed && o->plans[k].kind == a->c.kind &&
                    strcmp(o->plans[k].family, a->c.family) == 0 &&
                    strcmp(o->plans[k].region, a->c.region) == 0 &&
                    strcmp(o->plans[k].provider, a->c.provider) == 0)
                    x = &o->plans[k].S;
            /* an instance_family plan is of one region, as a
             * reservation: g5 plans in two regions are two curves */
            bool family = a->c.kind == GP_PLAN_FAMILY;
            snprintf(cv->instrument, sizeof cv->instrument,
                     "%s savings plan %s%s%s%s%s %dy %s",
                     gp_plan_kind_name(a->c.kind), a->c.provider,
                     family ? " " : "", family ? a->c.family : "",
                     family ? " " : "", family ? a->c.region : "",
                     a->c.term_years, gp_payment_name(a->c.payment));
            cv->unit = gp_money_per_hour();
        }
        if (!x)
            continue;
        double chosen = *x;
        cv->chosen = chosen;
        cv->n = points;
        for (size_t j = 0; j < points; j++) {
            double level = 2 * chosen * (double)j / (double)(points - 1);
            if (a->type == GP_ACTION_RESERVED)
                level = floor(level + 0.5);
            *x = level;
            cv->level[j] = level;
            /* with nothing bought the bill is known exactly: the shift from
             * the optimizer's costs left 1.04e-10 there for "0" */
            cv->net_savings[j] =
                nothing_bought(o) ? none
                                  : plan_net + scale * (base - gp_opt_cost(o));
        }
        *x = chosen;
        r->n_curves++;
    }
    gp_opt_free(sample);
    return full->nomem ? GP_ERR_NOMEM : GP_OK;
}
