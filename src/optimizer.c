/*
 * optimizer.c: solving the problem (see optimizer.h): the billing pass
 * that bills the current decisions and prices each unit of demand, the
 * sample of hours large problems are solved on, and the order of
 * gp_opt_solve's steps.  optimizer_build.c builds the problem and
 * optimizer_search.c moves the decisions; the method is in
 * docs/design/optimizer.md.
 */
#include "optimizer_internal.h"
#include "util.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- the billing pass ----------------------------------------------------- */

static void work_free(gp_opt *o, struct work *w)
{
    if (w->arenas)
        for (size_t k = 0; k < o->n_plans; k++) {
            gp_free(w->arenas[k].e[0]);
            gp_free(w->arenas[k].e[1]);
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
    gp_free(w->cur);
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
    w->cur = gp_calloc(o->n_pools + 1, sizeof *w->cur);
    if (!w->arenas || !w->pos || !w->marg || !w->bucket || !w->gain ||
        !w->worthless || !w->cur)
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

/* One half of a pass's hours and its scratch: demand left, plan-dollar
 * worths, unit values and margins by pool or plan, and the arenas' part
 * it lists into. */
struct lane {
    gp_opt *o;
    struct work *w;
    double *resid, *lambda, *cur;
    long *marg;
    int part;
    size_t h0, h1;
    double cost; /* the half's on-demand bill */
    bool nomem;
};

/*
 * Covers hour h's demand left (l->resid) with plan k's dollars, down its
 * covering order.  With a work area, also lists the pools that reach the
 * plan with demand left and records its marginal position (-1: dollars to
 * spare, or not active).  Returns false when memory ran out.
 */
static bool cover_hour(struct lane *l, size_t k, size_t h)
{
    gp_opt_plan *pl = &l->o->plans[k];
    struct arena *a = l->w ? &l->w->arenas[k] : NULL;
    int part = l->part;
    if (a)
        a->hour_start[h] = a->n[part];
    if (h < pl->first || h >= pl->last) {
        if (a)
            l->marg[k] = -1;
        return true;
    }
    double budget = pl->S;
    long marg = -1;
    for (size_t j = 0; j < pl->n_el; j++) {
        uint32_t p = pl->el[j].pool;
        double r = l->resid[p];
        if (r <= 0)
            continue;
        if (a) {
            if (a->n[part] == a->cap[part] &&
                gp_grow((void **)&a->e[part], &a->cap[part], a->n[part] + 1,
                        sizeof *a->e[part]) != GP_OK)
                return false;
            a->e[part][a->n[part]++] =
                (struct entry){p, (float)(r * pl->el[j].rate), 0};
        }
        if (marg >= 0)
            continue; /* budget gone: only listing */
        double x = r;
        if (x * pl->el[j].rate > budget) {
            x = budget / pl->el[j].rate;
            marg = (long)j;
        }
        l->resid[p] = r - x;
        budget -= x * pl->el[j].rate;
        if (budget <= 1e-12 && marg < 0 && l->resid[p] <= 0)
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
    if (a)
        l->marg[k] = marg;
    return true;
}

/*
 * After hour h's covering: the worth of a plan dollar at each plan's
 * margin, of one spent on each pool listed for it, and every pool's unit
 * value, for the updates.  The value of one more unit of pool p's demand
 * if it reaches the plans from k on is free if the first active plan that
 * covers p has dollars to spare, that plan's rate times the worth of a
 * dollar at its margin if p comes before the margin, else the value from
 * the plans after it, and p's on-demand rate past the last.  Walking the
 * plans last first, cur[p] holds that value from the plan walked on, so
 * one sweep of the plans' lists makes them all (a walk of p's plans for
 * each value made an hour cost plans squared: 50,000 owned plans took
 * 88 s, #42).
 */
static void record_values(struct lane *l, size_t h)
{
    gp_opt *o = l->o;
    struct work *w = l->w;
    double *lambda = l->lambda, *cur = l->cur;

    for (size_t p = 0; p < o->n_pools; p++)
        cur[p] = o->pools[p].od;
    for (size_t k = o->n_plans; k-- > 0;) {
        const gp_opt_plan *pl = &o->plans[k];
        struct arena *a = &w->arenas[k];
        struct entry *e = a->e[l->part];
        const long *pos = w->pos + k * o->n_pools;
        bool active = h >= pl->first && h < pl->last;
        long m = l->marg[k];
        /* cur[p]: the value of pool p from plan k + 1 on */
        lambda[k] = 0;
        if (active && m >= 0)
            lambda[k] = cur[pl->el[m].pool] / pl->el[m].rate;
        for (size_t i = a->hour_start[h]; i < a->n[l->part]; i++)
            e[i].worth = (float)(cur[e[i].pool] / pl->el[pos[e[i].pool]].rate);
        if (!active)
            continue;
        /* now from plan k on: free with dollars to spare, at its rate
         * before its margin, else as from the plans after it */
        for (size_t j = 0; j < pl->n_el; j++) {
            uint32_t p = pl->el[j].pool;
            if (m < 0)
                cur[p] = 0;
            else if (pos[p] < m)
                cur[p] = pl->el[pos[p]].rate * lambda[k];
        }
    }
    for (size_t p = 0; p < o->n_pools; p++)
        o->value[p * o->n_hours + h] = (float)cur[p];
}

/* Bills lane l's hours, adding their on-demand bill to l->cost (a
 * thread's entry point). */
static void *bill_lane(void *arg)
{
    struct lane *l = arg;
    gp_opt *o = l->o;

    for (size_t h = l->h0; h < l->h1; h++) {
        for (size_t p = 0; p < o->n_pools; p++) {
            double r = o->pools[p].demand[h] - o->pools[p].n;
            l->resid[p] = r > 0 ? r : 0;
        }
        for (size_t k = 0; k < o->n_plans; k++)
            if (!cover_hour(l, k, h)) {
                l->nomem = true;
                return NULL;
            }
        for (size_t p = 0; p < o->n_pools; p++)
            l->cost += o->pools[p].od * l->resid[p];
        if (l->w)
            record_values(l, h);
    }
    return NULL;
}

/* The second half's lane: its own scratch (NULL when out of memory). */
static double *second_lane(gp_opt *o, struct work *w, struct lane *l)
{
    size_t np = o->n_pools, nk = o->n_plans;
    double *buf = gp_calloc(2 * np + nk + 1, sizeof *buf);
    l->marg = gp_calloc(nk + 1, sizeof *l->marg);
    if (!buf || !l->marg) {
        gp_free(buf);
        gp_free(l->marg);
        return NULL;
    }
    *l = (struct lane){o, w, buf, buf + 2 * np, buf + np, l->marg, 1,
                       o->n_hours / 2, o->n_hours, 0, false};
    return buf;
}

/*
 * Bills every hour under the current decisions.  With `w`, also records
 * the per-plan lists and every pool's unit values for the updates.
 * Returns the window's amortized cost.  With o->split the two halves of
 * the hours are billed apart, on two threads when o->threads allows.
 */
double gp_opt_pass(gp_opt *o, struct work *w)
{
    double cost = 0;
    size_t mid = o->split && o->n_hours >= 2 ? o->n_hours / 2 : o->n_hours;
    struct lane l0 = {o, w, o->resid, o->lambda, w ? w->cur : NULL,
                      w ? w->marg : NULL, 0, 0, mid, 0, false};
    struct lane l1 = {0};
    double *buf = NULL;

    for (size_t p = 0; p < o->n_pools; p++)
        if (o->pools[p].n > 0)
            cost += o->pools[p].n * o->pools[p].ri_rate * (double)o->n_hours;
    for (size_t k = 0; k < o->n_plans; k++) {
        cost += o->plans[k].S *
                (double)(o->plans[k].last - o->plans[k].first);
        if (w)
            w->arenas[k].n[0] = w->arenas[k].n[1] = 0, w->arenas[k].mid = mid;
    }
    /* unsplit, the sum runs in the order it always did */
    l0.cost = cost;
    if (mid < o->n_hours && !(buf = second_lane(o, w, &l1))) {
        /* a pass without a work area says so in the problem */
        if (w)
            w->nomem = true;
        else
            o->nomem = true;
        return NAN;
    }
    pthread_t tid;
    bool threaded = buf && o->threads > 1 &&
                    pthread_create(&tid, NULL, bill_lane, &l1) == 0;
    bill_lane(&l0);
    if (threaded)
        pthread_join(tid, NULL);
    else if (buf)
        bill_lane(&l1);
    gp_free(buf);
    gp_free(l1.marg);
    if (l0.nomem || l1.nomem) {
        if (w)
            w->nomem = true;
        return NAN;
    }
    if (w)
        for (size_t k = 0; k < o->n_plans; k++)
            w->arenas[k].hour_start[o->n_hours] = w->arenas[k].n[buf != NULL];
    return l0.cost + l1.cost;
}

double gp_opt_cost(gp_opt *o)
{
    /* a pass without the work area reads no lambda */
    return gp_opt_pass(o, NULL);
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

/* Takes the decisions of o's sample of hours (see sampled), solved, as
 * o's.  Returns their cost over every hour, or NAN with o->no_cost. */
static double solve_on_sample(gp_opt *o, struct work *w, gp_opt *sample)
{
    /* the sample's solution is the solution: sizing the plans again on
     * every hour moved the bench's net savings by 0.04% for three
     * more passes over the year */
    gp_opt_solve(sample);
    w->nomem |= sample->nomem;
    o->rounds = sample->rounds;
    for (size_t p = 0; p < o->n_pools; p++)
        o->pools[p].n = sample->pools[p].n;
    for (size_t k = 0; k < o->n_plans; k++)
        o->plans[k].S = sample->plans[k].S;
    gp_opt_free(sample);
    /* a pass over every hour: a sixth of a second on the 1,000-pool
     * bench, for a figure gp_recommend does not read */
    return o->no_cost ? NAN : gp_opt_pass(o, NULL);
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
        cost = solve_on_sample(o, &w, sample);
        goto out;
    }

    /* the fractional optimum */
    gp_opt_averages(o, &w, rounds, true, best_n, best_S);
    gp_opt_restore(o, best_n, best_S);
    /* whole reservations: round each, then size the plans again */
    for (size_t p = 0; p < o->n_pools; p++)
        o->pools[p].n = o->pools[p].n_fixed >= 0 ? o->pools[p].n_fixed
                                                 : floor(o->pools[p].n + 0.5);
    gp_opt_averages(o, &w, rounds / 2, false, best_n, best_S);
    gp_opt_restore(o, best_n, best_S);
    if (o->n_pools > 64)
        gp_opt_transfers(o, &w, rounds, best_n, best_S);
    if (o->n_pools <= 64 || (double)o->n_pools * per_pass <= POLISH_BUDGET)
        gp_opt_polish(o, &w, rounds, best_n, best_S);
    if (o->n_pools <= 64)
        gp_opt_transfer_after_polish(o, &w, rounds, best_n, best_S);
    /* whole tenths of a cent an hour; a plan that saves nothing (or less
     * than a dollar over the window) is not worth a purchase order */
    for (size_t k = 0; k < o->n_plans; k++)
        o->plans[k].S =
            floor(o->plans[k].S * GP_PLAN_STEPS + 0.5) / GP_PLAN_STEPS;
    cost = gp_opt_pass(o, NULL);
    cost = gp_opt_best_responses(o, &w, per_pass, cost);
    cost = gp_opt_drop_small_plans(o, &w, cost);
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
