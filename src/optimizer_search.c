/*
 * optimizer_search.c: moving the decisions (docs/design/optimizer.md):
 * each one's best response to the unit values a billing pass recorded,
 * the successive averages toward them, and the exchanges, transfers and
 * polish that find what the averages miss.
 */
#include "optimizer_internal.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Over plan pl's hours in arena a: *W0, the worth of its first dollar
 * summed (W(0)), and *hi, the most its pools need in an hour. */
static void plan_reach(const struct arena *a, const gp_opt_plan *pl,
                       double *W0, double *hi)
{
    for (size_t h = pl->first; h < pl->last; h++) {
        double need = 0;
        size_t i0, i1;
        const struct entry *e = gp_arena_hour(a, h, &i0, &i1);
        if (i0 < i1)
            *W0 += e[i0].worth;
        for (size_t i = i0; i < i1; i++)
            need += e[i].need;
        if (need > *hi)
            *hi = need;
    }
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
    plan_reach(a, pl, &W0, &hi);
    if (W0 < hours || hi <= 0) {
        w->worthless[k] = true;
        return 0;
    }
    double scale = (double)PLAN_BUCKETS / hi;
    memset(bucket, 0, (PLAN_BUCKETS + 1) * sizeof *bucket);
    for (size_t h = pl->first; h < pl->last; h++) {
        double c = 0;
        size_t i0, i1;
        const struct entry *e = gp_arena_hour(a, h, &i0, &i1);
        for (size_t i = i0; i < i1; i++) {
            c += e[i].need;
            double next = i + 1 < i1 ? e[i + 1].worth : 0;
            size_t b = (size_t)(c * scale);
            bucket[b < PLAN_BUCKETS ? b : PLAN_BUCKETS] +=
                next - e[i].worth;
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
        size_t i0, i1;
        const struct entry *e = gp_arena_hour(a, h, &i0, &i1);
        for (size_t i = i0; i < i1; i++) {
            c += e[i].need;
            size_t bi = (size_t)(c * scale);
            if ((bi < PLAN_BUCKETS ? bi : PLAN_BUCKETS) != b)
                continue;
            if (n == w->steps_cap &&
                gp_grow((void **)&w->steps, &w->steps_cap, n + 1,
                        sizeof *w->steps) != GP_OK) {
                w->nomem = true;
                return (double)b / scale;
            }
            double next = i + 1 < i1 ? e[i + 1].worth : 0;
            w->steps[n++] = (struct step){c, next - e[i].worth};
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

void gp_opt_restore(gp_opt *o, const double *n, const double *S)
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
double gp_opt_averages(gp_opt *o, struct work *w, int rounds, bool pools_too,
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
        double cost = gp_opt_pass(o, w);
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
        double c = gp_opt_pass(o, NULL);
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
        size_t i0, i1;
        const struct entry *e = gp_arena_hour(&w->arenas[c], h, &i0, &i1);
        double budget = cp->S;
        for (size_t i = i0; i < i1 && budget > 0; i++) {
            uint32_t p = e[i].pool;
            double spent = e[i].need < budget ? e[i].need : budget;
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
        double cc = gp_opt_pass(o, NULL);
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
bool gp_opt_transfers(gp_opt *o, struct work *w, int rounds, double *best_n,
                      double *best_S)
{
    bool moved = false;
    for (int t = 0; t < TRANSFERS; t++) {
        bool any = false;
        for (size_t c = 0; c < o->n_plans; c++) {
            if (o->plans[c].fixed || o->plans[c].kind != GP_PLAN_COMPUTE ||
                o->plans[c].S <= 0)
                continue;
            double cost = gp_opt_pass(o, w);
            any |= transfer(o, w, c, &cost);
        }
        if (!any)
            break;
        moved = true;
        gp_opt_averages(o, w, rounds / 2, false, best_n, best_S);
        gp_opt_restore(o, best_n, best_S);
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
void gp_opt_polish(gp_opt *o, struct work *w, int rounds, double *best_n,
                   double *best_S)
{
    double cost = gp_opt_pass(o, NULL);
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
        double c = gp_opt_averages(o, w, rounds / 2, false, best_n, best_S);
        gp_opt_restore(o, best_n, best_S);
        /* the best point's cost, as its own pass found it */
        cost = isfinite(c) ? c : gp_opt_pass(o, NULL);
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
void gp_opt_transfer_after_polish(gp_opt *o, struct work *w, int rounds,
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
        double was = gp_opt_pass(o, NULL);
        if (gp_opt_transfers(o, w, rounds, best_n, best_S)) {
            gp_opt_polish(o, w, rounds, best_n, best_S);
            if (!(gp_opt_pass(o, NULL) < was))
                gp_opt_restore(o, n, S);
        }
    }
    gp_free(n);
    gp_free(S);
}

/*
 * The averages stop at the best point they passed, where a plan need
 * not be at its best given the others: a compute plan still shrinking
 * toward nothing behind a family plan that grew cost the sample $127
 * over none at all.  Each plan, in turn, goes to its best response if
 * that is cheaper, until none moves (a plan that moved changes the
 * others' best responses).  Two passes a plan: on problems past the
 * polish's budget (over a hundred family plans on the 1,000-pool
 * bench, which this took from 7 s to 32 s) only the compute plans,
 * which overlap the others.  Returns the cost of where it stopped.
 */
double gp_opt_best_responses(gp_opt *o, struct work *w, double per_pass,
                             double cost)
{
    for (int sweep = 0; sweep < 3; sweep++) {
        bool moved = false;
        for (size_t k = 0; k < o->n_plans; k++) {
            if (o->plans[k].fixed ||
                (o->n_pools > 64 &&
                 (double)o->n_pools * per_pass > POLISH_BUDGET &&
                 o->plans[k].kind != GP_PLAN_COMPUTE))
                continue;
            gp_opt_pass(o, w);
            double to = floor(best_plan(o, w, k) * GP_PLAN_STEPS + 0.5) /
                        GP_PLAN_STEPS;
            double was = o->plans[k].S;
            if (to == was)
                continue;
            o->plans[k].S = to;
            double c = gp_opt_pass(o, NULL);
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
    return cost;
}

/*
 * Before dropping plans one pass each: by then the gains and worthless
 * flags of the plans' last sizing are stale (rounding, transfers and best
 * responses moved things since), and a review of a policy replay leaves
 * a hundred small family plans that each cost a pass.  So, when more than
 * two plans may save little, one pass sizes every plan afresh, and the
 * plans whose first dollar is then worth less than it costs are dropped
 * together if one more pass shows that costs under a dollar (otherwise
 * each is tried alone below).  Samples of large problems (quick_drop)
 * keep their cheaper way.
 */
static double drop_worthless(gp_opt *o, struct work *w, double cost)
{
    size_t small = 0, n = 0;
    for (size_t k = 0; k < o->n_plans; k++)
        small += !o->plans[k].fixed && o->plans[k].S > 0 && w->gain[k] <= 100;
    if (o->quick_drop || small <= 2)
        return cost;
    double *was = gp_malloc((o->n_plans + 1) * sizeof *was);
    if (!was)
        return cost; /* each plan is tried alone instead */
    gp_opt_pass(o, w);
    for (size_t k = 0; k < o->n_plans; k++) {
        was[k] = o->plans[k].S;
        if (o->plans[k].fixed || o->plans[k].S <= 0)
            continue;
        best_plan(o, w, k);
        if (w->worthless[k]) {
            o->plans[k].S = 0;
            n++;
        }
    }
    double c = n > 0 ? gp_opt_pass(o, NULL) : cost;
    if (c <= cost + 1.0)
        cost = c;
    else
        for (size_t k = 0; k < o->n_plans; k++)
            o->plans[k].S = was[k];
    gp_free(was);
    return cost;
}

/* Drops each plan to buy whose dollars save less than a dollar over the
 * window (not worth a purchase order).  Returns the cost after. */
double gp_opt_drop_small_plans(gp_opt *o, struct work *w, double cost)
{
    cost = drop_worthless(o, w, cost);
    for (size_t k = 0; k < o->n_plans; k++) {
        if (o->plans[k].fixed || o->plans[k].S == 0)
            continue;
        /* one pass per plan: only for plans whose last sizing did not
         * already show them saving well over a dollar */
        if (w->gain[k] > 100)
            continue;
        /* a sample of a large problem: a plan whose first dollar was worth
         * less than a dollar at its last sizing goes without a pass */
        if (o->quick_drop && w->worthless[k]) {
            o->plans[k].S = 0;
            continue;
        }
        double was = o->plans[k].S;
        o->plans[k].S = 0;
        double c = gp_opt_pass(o, NULL);
        if (c <= cost + 1.0)
            cost = c;
        else
            o->plans[k].S = was;
    }
    return cost;
}
