/*
 * recommend_renewals.c: the owned commitments that expire in the window
 * or soon after it, each valued renewed at today's rates on top of the
 * plan, picked greedily while one saves anything.
 */
#include "recommend_internal.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- renewals ------------------------------------------------------------- */

/* The on-demand value of the usage a bill's commitments covered. */
static double covered_value(const gp_ledger *l)
{
    double v = 0;
    for (size_t h = 0; h < l->n_hours; h++)
        v += l->hours[h].od_equiv_covered;
    return v;
}

/* Whether owned commitment cm is offered for renewal: it ends in the
 * window [open, close) or within 13 weeks after it. */
static bool renewable(const gp_commitment *cm, int64_t open, int64_t close)
{
    return cm->end >= open && cm->end <= close + 13 * WEEK * 3600L;
}

/* Values renewing owned commitment cm on top of the plan and the renewals
 * already advised (extra[0..n)), whose bill of `w` (the owned
 * commitments, those that end after the window left out) is l0, and
 * down0 in the low-demand case: bills it with cm, and fills *a but for
 * its rank. */
static gp_status value_renewal(const struct ctx *w, const gp_commitment *cm,
                               gp_commitment *extra, size_t n, size_t n_plan,
                               const gp_trace *downside, const gp_ledger *l0,
                               double down0, gp_action *a, gp_error *err)
{
    int64_t close = (w->start_hour + (int64_t)w->n_hours) * 3600;
    bool inside = cm->end < close;
    gp_ledger *l = NULL;
    double cost0 = l0->total_cost;
    extra[n] = *cm;
    extra[n].start = inside ? cm->end : w->start_hour * 3600;
    extra[n].end = extra[n].start + (int64_t)cm->term_years * 365 * 86400;
    gp_status st = gp_rec_bill(w, NULL, extra, n + 1, &l, err);
    if (st != GP_OK)
        goto out;
    double cost1 = l->total_cost;
    double down1 = 0;
    if (downside && (st = gp_rec_bill_cost(w, downside, extra, n + 1, &down1,
                                           err)) != GP_OK)
        goto out;
    memset(a, 0, sizeof *a);
    const gp_ledger_commitment *lc = &l->commitments[l->n_commitments - 1];
    a->type = cm->type == GP_COMMIT_RESERVED ? GP_ACTION_RESERVED
                                             : GP_ACTION_SAVINGS_PLAN;
    a->c = *cm;
    a->c.start = cm->end;
    a->c.end = cm->end + (int64_t)cm->term_years * 365 * 86400;
    a->renewal = true;
    a->upfront = gp_rec_upfront_of(w, cm);
    a->net_savings = cost0 - cost1;
    a->downside_net_savings = downside ? down0 - down1 : NAN;
    /* its own use: what it covers beyond what the plan (and the
     * renewals above it) already cover, in on-demand value, over what
     * it would cover fully used.  The engine shares a reservation
     * family's use among its reservations (and a renewed savings plan
     * may take usage another plan covered), so the ledger's figure for
     * it is the pool's: a renewal that adds nothing showed 67% used */
    double added = covered_value(l) - covered_value(l0);
    a->expected_utilization =
        lc->purchased > 0 && lc->od_equiv_covered > 0
            ? fmax(0, added) / lc->od_equiv_covered * (lc->used / lc->purchased)
            : 0;
    double equiv = lc->od_equiv_covered;
    if (cm->type == GP_COMMIT_RESERVED) {
        /* today's effective rate over today's on-demand price */
        const gp_instance_type *it;
        const gp_reserved_offer *o = gp_reserved_offer_of(w->pricing, cm, &it);
        if (o && it->on_demand > 0)
            a->breakeven_utilization =
                gp_reserved_effective_hourly(o) / it->on_demand;
    } else if (lc->od_equiv_covered > 0) {
        a->breakeven_utilization = lc->used / lc->od_equiv_covered;
    }
    a->savings_pct = equiv > 0 ? a->net_savings / equiv : 0;
    const char *above = n == n_plan ? ""
                        : n == n_plan + 1
                            ? " and the renewal above it that saves"
                            : " and the renewals above it that save";
    char when[32], amount[48];
    gp_format_time(cm->end, when, sizeof when);
    gp_format_money(fabs(a->net_savings), amount, sizeof amount);
    if (inside)
        snprintf(a->reason, sizeof a->reason,
                 "expires %s; renewed then at today's rates, on top of "
                 "the plan%s, it %s %s over the %.0f hour%s of the "
                 "window left%s",
                 when, above, a->net_savings < 0 ? "costs" : "saves", amount,
                 (double)(close - cm->end) / 3600.0,
                 close - cm->end == 3600 ? "" : "s",
                 a->net_savings < 0 ? ": let it lapse" : "");
    else
        snprintf(a->reason, sizeof a->reason,
                 "expires %s, after the window; at today's rates, on "
                 "top of the plan%s, it would %s %s over a window "
                 "like this one%s",
                 when, above, a->net_savings < 0 ? "cost" : "save", amount,
                 a->net_savings < 0 ? ": let it lapse" : "");
out:
    gp_ledger_free(l);
    return st;
}

/* What the greedy pick of renewals (renewals, below) carries from one
 * round to the next. */
struct renewing {
    struct ctx w;             /* the window, those ending after it lapsed */
    const gp_scenario *s;     /* whose owned commitments are offered */
    const gp_trace *downside; /* the low-demand case, or NULL */
    gp_commitment *extra;     /* [n] the plan's, then the renewals picked */
    size_t n, n_plan;
    size_t *cand, k;  /* [k] indexes in s->commitments still offered */
    gp_action *tried; /* [k] each valued on this round's bill */
};

/* One round: bills the plan and the renewals picked so far, values every
 * candidate left on top of that bill, and sets *best to the one that
 * saves most (k when none saves anything). */
static gp_status renewal_round(struct renewing *g, size_t *best,
                               gp_error *err)
{
    gp_ledger *l0 = NULL;
    double down0 = 0;
    gp_status st = gp_rec_bill(&g->w, NULL, g->extra, g->n, &l0, err);

    *best = g->k;
    if (st == GP_OK && g->downside)
        st = gp_rec_bill_cost(&g->w, g->downside, g->extra, g->n, &down0, err);
    for (size_t j = 0; st == GP_OK && j < g->k; j++) {
        st = value_renewal(&g->w, &g->s->commitments[g->cand[j]], g->extra,
                           g->n, g->n_plan, g->downside, l0, down0,
                           &g->tried[j], err);
        if (st == GP_OK && g->tried[j].net_savings > 0 &&
            (*best == g->k ||
             g->tried[j].net_savings > g->tried[*best].net_savings))
            *best = j;
    }
    gp_ledger_free(l0);
    return st;
}

/* Owned commitments that end in the window or within 13 weeks after it,
 * each renewed at today's rates for its term, on top of the plan's
 * actions (SPEC section 5: an action's savings are on top of the actions
 * ranked above it).
 *
 * One that ends in the window is renewed when it ends: its savings are
 * over the hours left, so the hours it still covers are not counted
 * twice.  One that ends after the window holds none of it; its savings
 * are what it would save over a window like this one in place of the
 * owned one, with the plan as bought (the plan was sized with the owned
 * one in place, so it leaves that usage to it).
 *
 * They are valued against each other lapsing ("let it lapse" is read
 * that way): the ones that end after the window are left out of the
 * owned commitments, the others end when they do, and the renewals are
 * picked greedily, each the one that saves most on top of the plan and
 * those picked before it, while one saves anything.  The rest are valued
 * on top of all the picked ones.  So the renewals the ranking advises
 * cost less together than letting them lapse, and adding any other would
 * cost more: with 5 instances and two owned reservations of 3 and 4 that
 * both end after the window, each used to be valued with the other in
 * place (both "let it lapse"), where renewing the 4 saves most. */
gp_status gp_rec_renewals(const struct ctx *c, gp_recommendation *r,
                          const gp_plan_result *plan, const gp_trace *downside,
                          gp_error *err)
{
    const gp_scenario *s = c->scenario;
    int64_t open = c->start_hour * 3600;
    int64_t close = (c->start_hour + (int64_t)c->n_hours) * 3600;
    size_t n_plan = plan->n_commitments;
    struct renewing g;
    gp_status st = GP_ERR_NOMEM;

    memset(&g, 0, sizeof g);
    g.extra = gp_calloc(n_plan + s->n_commitments + 1, sizeof *g.extra);
    gp_commitment *rest = gp_calloc(s->n_commitments + 1, sizeof *rest);
    g.cand = gp_calloc(s->n_commitments + 1, sizeof *g.cand);
    g.tried = gp_calloc(s->n_commitments + 1, sizeof *g.tried);
    if (!g.extra || !rest || !g.cand || !g.tried)
        goto out;
    g.s = s;
    g.downside = downside;
    g.n = g.n_plan = n_plan;
    for (size_t i = 0; i < n_plan; i++)
        g.extra[i] = plan->commitments[i];
    /* the owned commitments in a window like this one: those that end
     * after it have lapsed (or are renewed: extra) */
    gp_rec_ctx_copy(&g.w, c);
    size_t m = 0;
    for (size_t i = 0; i < s->n_commitments; i++) {
        const gp_commitment *cm = &s->commitments[i];
        if (renewable(cm, open, close))
            g.cand[g.k++] = i;
        if (!renewable(cm, open, close) || cm->end < close)
            rest[m++] = *cm;
    }
    g.w.spec.owned = rest;
    g.w.spec.n_owned = m;
    while (g.k > 0) {
        size_t best;
        if ((st = renewal_round(&g, &best, err)) != GP_OK)
            goto out;
        if (best == g.k)
            break; /* none saves on top of those picked: they lapse */
        int ai = gp_rec_action_grow(r);
        st = GP_ERR_NOMEM;
        if (ai < 0)
            goto out;
        r->actions[ai] = g.tried[best];
        /* the next ones are on top of this one, as it is valued */
        const gp_commitment *cm = &s->commitments[g.cand[best]];
        g.extra[g.n] = *cm;
        g.extra[g.n].start = cm->end < close ? cm->end : open;
        g.extra[g.n].end =
            g.extra[g.n].start + (int64_t)cm->term_years * 365 * 86400;
        g.n++;
        for (size_t j = best; j + 1 < g.k; j++)
            g.cand[j] = g.cand[j + 1];
        g.k--;
    }
    /* the ones to let lapse, valued on top of all the picked ones */
    for (size_t j = 0; j < g.k; j++) {
        int ai = gp_rec_action_grow(r);
        st = GP_ERR_NOMEM;
        if (ai < 0)
            goto out;
        r->actions[ai] = g.tried[j];
    }
    st = GP_OK;
out:
    gp_free(g.extra);
    gp_free(rest);
    gp_free(g.cand);
    gp_free(g.tried);
    return st;
}
