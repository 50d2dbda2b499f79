/*
 * savings_plan.c: savings plans (SPEC section 4, step 2): an hourly
 * dollar commitment that covers eligible usage launched on demand after
 * the reservations, in AWS's order (instance_family plans first, the
 * highest discount first).  The reasoning is in docs/design/models.md.
 */
#include "covering.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct eligible {
    long pool;
    double rate;     /* plan rate per instance-hour */
    double discount; /* 1 - rate / on-demand */
    double hour_value; /* scratch: value covered in the current hour */
};

struct plan {
    size_t commitment; /* index into in->commitments */
    double hourly;     /* commitment, $/h */
    size_t first, last;
    struct eligible *pools; /* in the order the plan covers them */
    size_t n_pools;
    gp_sum used, cost, covered_value; /* over the window's hours */
};

struct state {
    struct plan *plans; /* in the order they apply */
    size_t n_plans;
};

double gp_covering_discount(double plan_rate, double od_rate)
{
    return 1.0 - plan_rate / od_rate;
}

int gp_covering_cmp(double discount_x, double rate_x, long pool_x,
                    double discount_y, double rate_y, long pool_y)
{
    if (discount_x != discount_y)
        return discount_x > discount_y ? -1 : 1;
    if (rate_x != rate_y)
        return rate_x < rate_y ? -1 : 1;
    return pool_x < pool_y ? -1 : (pool_x > pool_y);
}

int gp_covering_plan_cmp(gp_plan_kind kind_x, int64_t start_x,
                         gp_plan_kind kind_y, int64_t start_y)
{
    /* instance_family (1) before compute (0) */
    if (kind_x != kind_y)
        return kind_x == GP_PLAN_FAMILY ? -1 : 1;
    if (start_x != start_y)
        return start_x < start_y ? -1 : 1;
    return 0;
}

/* A plan's pools in its covering order (gp_covering_cmp). */
static int eligible_cmp(const void *a, const void *b)
{
    const struct eligible *x = a, *y = b;
    return gp_covering_cmp(x->discount, x->rate, x->pool, y->discount,
                           y->rate, y->pool);
}

static _Thread_local const gp_model_input *sort_in;

/* The plans in the order they apply (gp_covering_plan_cmp), then in the
 * order they are listed. */
static int plan_cmp(const void *a, const void *b)
{
    const struct plan *x = a, *y = b;
    const gp_commitment *cx = sort_in->commitments[x->commitment];
    const gp_commitment *cy = sort_in->commitments[y->commitment];
    int order = gp_covering_plan_cmp(cx->kind, cx->start, cy->kind, cy->start);
    if (order != 0)
        return order;
    return x->commitment < y->commitment ? -1 : (x->commitment > y->commitment);
}

static void savings_plan_free(void *state)
{
    struct state *s = state;
    if (!s)
        return;
    for (size_t i = 0; i < s->n_plans; i++)
        gp_free(s->plans[i].pools);
    gp_free(s->plans);
    gp_free(s);
}

static gp_status savings_plan_prepare(const gp_model_input *in, void **state,
                                      gp_error *err)
{
    struct state *s;
    const gp_trace *t = in->trace;
    size_t n = 0;

    *state = NULL;
    for (size_t i = 0; i < in->n_commitments; i++)
        n += in->commitments[i]->type == GP_COMMIT_SAVINGS_PLAN;
    if (n == 0)
        return GP_OK;
    s = gp_calloc(1, sizeof *s);
    if (!s)
        goto nomem;
    s->plans = gp_calloc(n, sizeof *s->plans);
    if (!s->plans)
        goto nomem;
    for (size_t i = 0; i < in->n_commitments; i++) {
        const gp_commitment *c = in->commitments[i];
        if (c->type != GP_COMMIT_SAVINGS_PLAN)
            continue;
        struct plan *pl = &s->plans[s->n_plans++];
        pl->commitment = i;
        pl->hourly = c->hourly_commitment;
        gp_commitment_active_hours(c, in->spec->start_hour, in->spec->n_hours,
                                   &pl->first, &pl->last);
        pl->pools = gp_calloc(t->n_pools + 1, sizeof *pl->pools);
        if (!pl->pools)
            goto nomem;
        for (size_t p = 0; p < t->n_pools; p++) {
            const gp_plan_offer *o =
                gp_plan_offer_of(c, t->pools[p].catalog, t->pools[p].type);
            if (o)
                pl->pools[pl->n_pools++] = (struct eligible){
                    (long)p, o->hourly,
                    gp_covering_discount(o->hourly, in->od_rate[p]), 0};
        }
        qsort(pl->pools, pl->n_pools, sizeof *pl->pools, eligible_cmp);
    }
    sort_in = in;
    qsort(s->plans, s->n_plans, sizeof *s->plans, plan_cmp);
    *state = s;
    return GP_OK;
nomem:
    savings_plan_free(s);
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

static void savings_plan_bill_hour(void *state, const gp_model_input *in,
                                   gp_hour *hour)
{
    struct state *s = state;
    if (!s)
        return;
    for (size_t i = 0; i < s->n_plans; i++) {
        struct plan *pl = &s->plans[i];
        if (hour->h < pl->first || hour->h >= pl->last)
            continue;
        double budget = pl->hourly;
        double covered = 0;
        size_t k_end = 0;
        for (size_t k = 0; k < pl->n_pools && budget > 1e-12; k++) {
            k_end = k + 1;
            long p = pl->pools[k].pool;
            double rate = pl->pools[k].rate;
            double x = hour->remaining[p];
            if (x <= 0)
                continue;
            if (x * rate > budget)
                x = budget / rate;
            hour->remaining[p] -= x;
            budget -= x * rate;
            hour->covered_value[p] += x * in->od_rate[p];
            gp_sum_add(&pl->covered_value, x * in->od_rate[p]);
            pl->pools[k].hour_value = x * in->od_rate[p];
            covered += x * in->od_rate[p];
        }
        /* chargeback: the plan's hour to the pools it covered */
        for (size_t k = 0; k < k_end; k++) {
            if (covered > 0)
                hour->commit_cost[pl->pools[k].pool] +=
                    pl->hourly * pl->pools[k].hour_value / covered;
            pl->pools[k].hour_value = 0;
        }
        if (budget < 0)
            budget = 0;
        gp_sum_add(&pl->used, pl->hourly - budget);
        gp_sum_add(&pl->cost, pl->hourly);
        hour->row->sp_used += pl->hourly - budget;
        hour->row->sp_committed += pl->hourly;
        hour->row->cost[GP_MODEL_SAVINGS_PLAN] += pl->hourly;
        hour->commitment_cost += pl->hourly;
    }
}

static gp_status savings_plan_finish(void *state, const gp_model_input *in,
                                     gp_ledger *ledger)
{
    struct state *s = state;
    (void)in;
    if (!s)
        return GP_OK;
    for (size_t i = 0; i < s->n_plans; i++) {
        const struct plan *pl = &s->plans[i];
        gp_ledger_commitment *lc = &ledger->commitments[pl->commitment];
        lc->cost = gp_sum_value(&pl->cost);
        lc->used = gp_sum_value(&pl->used);
        lc->purchased = pl->hourly * (double)(pl->last - pl->first);
        lc->od_equiv_covered = gp_sum_value(&pl->covered_value);
    }
    return GP_OK;
}

const gp_model gp_model_savings_plan = {
    .name = "savings_plan",
    .id = GP_MODEL_SAVINGS_PLAN,
    .cost_key = "savings_plan_cost",
    .label = "savings plan",
    .title = "Savings plans",
    .prepare = savings_plan_prepare,
    .bill_hour = savings_plan_bill_hour,
    .finish = savings_plan_finish,
    .free = savings_plan_free,
};
