/*
 * engine_ledger.c: the ledger a run leaves (engine.h): its months
 * (amortized and cash), the window's totals, the scenario discount, the
 * series' costs and the chargeback rows.  The run that bills the hours
 * is engine.c; docs/design/engine.md has the reasoning.
 */
#include "engine_internal.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void gp_ledger_free(gp_ledger *l)
{
    if (!l)
        return;
    gp_free(l->strategy);
    gp_free(l->hours);
    gp_free(l->months);
    gp_free(l->series);
    gp_free(l->series_month_cost);
    gp_free(l->jobs);
    gp_free(l->od_jobs);
    gp_free(l->capacity);
    gp_free(l->commitments);
    gp_free(l);
}

/* What a commitment pays in cash: per active hour, and once at its start. */
void gp_commitment_cash(const gp_commitment *c, const gp_pricing *p,
                        double *per_hour, double *upfront)
{
    *per_hour = 0;
    *upfront = 0;
    if (c->type == GP_COMMIT_RESERVED) {
        const gp_reserved_offer *o = gp_reserved_offer_of(p, c, NULL);
        if (o) {
            *per_hour = o->hourly * c->count;
            *upfront = o->upfront * c->count;
        }
    } else {
        /* savings plans: all upfront pays the whole term's commitment at
         * the start, partial upfront half of it, no upfront nothing */
        double term = c->hourly_commitment * c->term_years * 8760.0;
        switch (c->payment) {
        case GP_NO_UPFRONT:
            *per_hour = c->hourly_commitment;
            break;
        case GP_PARTIAL_UPFRONT:
            *per_hour = c->hourly_commitment / 2;
            *upfront = term / 2;
            break;
        case GP_ALL_UPFRONT:
            *upfront = term;
            break;
        }
    }
}

static size_t month_index(gp_ledger *l, int64_t t)
{
    int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
    int y;
    unsigned m, d;
    gp_civil_from_days(days, &y, &m, &d);
    for (size_t i = l->n_months; i-- > 0;)
        if (l->months[i].year == y && l->months[i].month == (int)m)
            return i;
    l->months[l->n_months].year = y;
    l->months[l->n_months].month = (int)m;
    return l->n_months++;
}

/* Each month's cost by model, commitment use and coverage, summed from
 * the hours (already discounted).  A month's hours are consecutive:
 * compensated sums (gp_sum) over them, written to the month when the
 * next one starts; this is also where the months are made. */
static void months_from_hours(gp_ledger *l)
{
    /* sum[k] for model k's cost (gp_model_id), then the rest */
    enum {
        RI_USED = GP_N_MODELS,
        RI_BOUGHT,
        SP_USED,
        SP_COMMITTED,
        LAUNCHED,
        COVERED,
        N_SUMS
    };
    gp_sum sum[N_SUMS] = {{0}};
    gp_ledger_month *m = NULL;
    for (size_t h = 0; h <= l->n_hours; h++) {
        gp_ledger_month *at = h < l->n_hours
                                  ? &l->months[month_index(
                                        l, (l->start_hour + (int64_t)h) * 3600)]
                                  : NULL;
        if (at != m && m) {
            for (int k = 0; k < GP_N_MODELS; k++)
                m->cost[k] = gp_sum_value(&sum[k]);
            m->reserved_used = gp_sum_value(&sum[RI_USED]);
            m->reserved_purchased = gp_sum_value(&sum[RI_BOUGHT]);
            m->sp_used = gp_sum_value(&sum[SP_USED]);
            m->sp_committed = gp_sum_value(&sum[SP_COMMITTED]);
            m->od_equiv_launched = gp_sum_value(&sum[LAUNCHED]);
            m->od_equiv_covered = gp_sum_value(&sum[COVERED]);
        }
        if (!at)
            break;
        if (at != m)
            memset(sum, 0, sizeof sum);
        m = at;
        const gp_ledger_hour *r = &l->hours[h];
        for (int k = 0; k < GP_N_MODELS; k++)
            gp_sum_add(&sum[k], r->cost[k]);
        gp_sum_add(&sum[RI_USED], r->reserved_used);
        gp_sum_add(&sum[RI_BOUGHT], r->reserved_purchased);
        gp_sum_add(&sum[SP_USED], r->sp_used);
        gp_sum_add(&sum[SP_COMMITTED], r->sp_committed);
        gp_sum_add(&sum[LAUNCHED], r->od_equiv_launched);
        gp_sum_add(&sum[COVERED], r->od_equiv_covered);
    }
}

/* What commitment c pays in cash, by month of the window: its fees as
 * billed, its upfront payment in the month it is paid (none paid before
 * the window); both take the discount factor f, as the hours do. */
static void months_cash(gp_ledger *l, const gp_model_input *in,
                        const gp_commitment *c, double f)
{
    gp_ledger_month *m = NULL;
    double per_hour, upfront;
    size_t first, last;

    gp_commitment_cash(c, in->pricing, &per_hour, &upfront);
    per_hour *= f; /* the discount, as on the hours */
    upfront *= f;
    gp_commitment_active_hours(c, l->start_hour, l->n_hours, &first, &last);
    /* the fee times the month's active hours (a count, exact), not
     * the fee added once an hour */
    size_t n = 0;
    for (size_t h = first; h <= last; h++) {
        gp_ledger_month *at = h < last
                                  ? &l->months[month_index(
                                        l, (l->start_hour + (int64_t)h) * 3600)]
                                  : NULL;
        if (n > 0 && (at != m || !at)) {
            if (c->type == GP_COMMIT_RESERVED)
                m->reserved_cash += per_hour * (double)n;
            else
                m->savings_plan_cash += per_hour * (double)n;
            n = 0;
        }
        m = at;
        n++;
    }
    int64_t start_h = gp_floor_hour(c->start);
    if (upfront > 0 && start_h >= l->start_hour &&
        start_h < l->start_hour + (int64_t)l->n_hours) {
        gp_ledger_month *um = &l->months[month_index(l, c->start)];
        if (c->type == GP_COMMIT_RESERVED)
            um->reserved_cash += upfront;
        else
            um->savings_plan_cash += upfront;
    }
}

/* Monthly totals from the hours (already discounted), and the cash view,
 * whose commitment fees take the same discount factor f. */
static void build_months(gp_ledger *l, const gp_model_input *in, double f)
{
    months_from_hours(l);
    for (size_t i = 0; i < in->n_commitments; i++)
        months_cash(l, in, in->commitments[i], f);
    for (size_t i = 0; i < l->n_months; i++) {
        gp_ledger_month *m = &l->months[i];
        m->total_cost = gp_cost_total(m->cost);
        /* cash: the models without a commitment pay as they bill (a
         * capacity block in the hour its run starts) */
        m->total_cash = m->cost[GP_MODEL_ON_DEMAND] + m->cost[GP_MODEL_SPOT] +
                        m->cost[GP_MODEL_CAPACITY] + m->reserved_cash +
                        m->savings_plan_cash;
    }
}

/* The scenario's enterprise discount: a fraction off every price, so off
 * every cost (utilization and coverage are ratios and do not move). */
static void apply_discount(gp_ledger *l, double f)
{
    if (f == 1.0)
        return;
    for (size_t h = 0; h < l->n_hours; h++) {
        gp_ledger_hour *r = &l->hours[h];
        for (int k = 0; k < GP_N_MODELS; k++)
            r->cost[k] *= f;
        r->all_on_demand_cost *= f;
        r->od_equiv_launched *= f;
        r->od_equiv_covered *= f;
        r->sp_used *= f;
        r->sp_committed *= f;
    }
    for (size_t i = 0; i < l->n_series; i++)
        l->series[i].cost *= f;
    for (size_t i = 0; i < l->n_series * l->month_slots; i++)
        l->series_month_cost[i] *= f;
    for (size_t i = 0; i < l->n_jobs + l->n_od_jobs; i++) {
        gp_ledger_job *j = i < l->n_jobs ? &l->jobs[i]
                                         : &l->od_jobs[i - l->n_jobs];
        j->failed_attempt_cost_mean *= f;
        j->cost_mean *= f;
        j->cost_p50 *= f;
        j->cost_p95 *= f;
        j->base_cost *= f;
        j->cost_in_window *= f;
        j->fallback_cost_mean *= f;
    }
    for (size_t i = 0; i < l->n_commitments; i++) {
        l->commitments[i].cost *= f;
        l->commitments[i].od_equiv_covered *= f;
        if (l->commitments[i].c->type == GP_COMMIT_SAVINGS_PLAN) {
            l->commitments[i].used *= f;
            l->commitments[i].purchased *= f;
        }
    }
    l->unallocated_cost *= f;
    l->spot_failed_attempt_cost_mean *= f;
    l->spot_cost_p50 *= f;
    l->spot_cost_p95 *= f;
}

double gp_ledger_series_cost_with_util(const gp_ledger *l, const gp_trace *t,
                                       size_t i)
{
    const gp_ledger_series *ls = &l->series[i];
    double gpu_hours =
        ls->instance_hours * t->pools[t->series[i].pool].type->gpus;

    if (ls->util_gpu_hours <= 0)
        return 0;
    /* with every row reporting gpu_util the share is 1, also when a gpus
     * column made whole instances of fewer GPUs */
    if (t->gpu_hours_without_util == 0 || ls->util_gpu_hours >= gpu_hours)
        return ls->cost;
    return ls->cost * ls->util_gpu_hours / gpu_hours;
}

double gp_ledger_series_useful_gpu_hours(const gp_ledger *l, size_t i)
{
    const gp_ledger_series *ls = &l->series[i];
    return ls->util_gpu_hours > 0 ? ls->useful_gpu_hours : NAN;
}

double gp_ledger_series_cost_per_useful_gpu_hour(const gp_ledger *l,
                                                 const gp_trace *t, size_t i)
{
    const gp_ledger_series *ls = &l->series[i];
    return ls->useful_gpu_hours > 0
               ? gp_ledger_series_cost_with_util(l, t, i) / ls->useful_gpu_hours
               : NAN;
}

/* Orders chargeback rows by team, project (names, unlabelled first),
 * then workload.  chargeback_trace holds the labels (qsort has no
 * context); thread-local, so callers on two threads do not sort by each
 * other's labels. */
static _Thread_local const gp_trace *chargeback_trace;
static int chargeback_cmp(const void *a, const void *b)
{
    const gp_chargeback_row *x = a, *y = b;
    char *const *lab = chargeback_trace->labels;
    int c = strcmp(x->team >= 0 ? lab[x->team] : "",
                   y->team >= 0 ? lab[y->team] : "");
    if (!c)
        c = strcmp(x->project >= 0 ? lab[x->project] : "",
                   y->project >= 0 ? lab[y->project] : "");
    if (!c && x->workload != y->workload)
        c = x->workload < y->workload ? -1 : 1;
    return c;
}

gp_status gp_ledger_chargeback(const gp_ledger *l, const gp_trace *t,
                               gp_chargeback_row **rows, size_t *n,
                               gp_error *err)
{
    gp_chargeback_row *r = gp_calloc(l->n_series + 1, sizeof *r);
    size_t k = 0;

    *rows = NULL;
    *n = 0;
    if (!r) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    for (size_t i = 0; i < l->n_series; i++) {
        const gp_series *s = &t->series[i];
        size_t j;
        for (j = 0; j < k; j++)
            if (r[j].team == s->team && r[j].project == s->project &&
                r[j].workload == s->workload)
                break;
        if (j == k) {
            r[k].team = s->team;
            r[k].project = s->project;
            r[k].workload = s->workload;
            k++;
        }
        r[j].cost += l->series[i].cost;
        r[j].instance_hours += l->series[i].instance_hours;
        r[j].useful_gpu_hours += l->series[i].useful_gpu_hours;
        r[j].util_gpu_hours += l->series[i].util_gpu_hours;
        r[j].cost_with_util += gp_ledger_series_cost_with_util(l, t, i);
    }
    for (size_t j = 0; j < k; j++) {
        if (!(r[j].util_gpu_hours > 0))
            r[j].useful_gpu_hours = NAN;
        r[j].cost_per_useful_gpu_hour =
            r[j].useful_gpu_hours > 0
                ? r[j].cost_with_util / r[j].useful_gpu_hours
                : NAN;
    }
    if (k == 0) {
        gp_free(r);
        return GP_OK;
    }
    if (k > 1) {
        chargeback_trace = t;
        qsort(r, k, sizeof *r, chargeback_cmp);
    }
    *rows = r;
    *n = k;
    return GP_OK;
}

/* The window's totals from the hours and the series (already
 * discounted): cost by model and in all, savings, utilization, coverage,
 * cost by workload and per useful GPU-hour. */
static void totals(gp_ledger *l, const gp_trace *t)
{
    /* over every hour of the window: compensated sums (gp_sum) */
    gp_sum cost[GP_N_MODELS] = {{0}}, all_od = {0};
    gp_sum ri_used = {0}, ri_bought = {0}, sp_used = {0}, sp_bought = {0};
    gp_sum launched = {0}, covered = {0}, ih[GP_N_WORKLOADS] = {{0}};

    for (size_t h = 0; h < l->n_hours; h++) {
        const gp_ledger_hour *r = &l->hours[h];
        for (int k = 0; k < GP_N_MODELS; k++)
            gp_sum_add(&cost[k], r->cost[k]);
        gp_sum_add(&all_od, r->all_on_demand_cost);
        gp_sum_add(&ri_used, r->reserved_used);
        gp_sum_add(&ri_bought, r->reserved_purchased);
        gp_sum_add(&sp_used, r->sp_used);
        gp_sum_add(&sp_bought, r->sp_committed);
        gp_sum_add(&launched, r->od_equiv_launched);
        gp_sum_add(&covered, r->od_equiv_covered);
        for (int w = 0; w < GP_N_WORKLOADS; w++)
            gp_sum_add(&ih[w], r->instance_hours[w]);
    }
    for (int k = 0; k < GP_N_MODELS; k++)
        l->cost[k] = gp_sum_value(&cost[k]);
    l->all_on_demand_cost = gp_sum_value(&all_od);
    for (int w = 0; w < GP_N_WORKLOADS; w++)
        l->workload_instance_hours[w] = gp_sum_value(&ih[w]);
    l->total_cost = gp_cost_total(l->cost);
    l->savings = l->all_on_demand_cost - l->total_cost;
    l->savings_pct =
        l->all_on_demand_cost > 0 ? l->savings / l->all_on_demand_cost : 0;
    double bought = gp_sum_value(&ri_bought), sp_all = gp_sum_value(&sp_bought);
    double od_launched = gp_sum_value(&launched);
    l->reserved_utilization =
        bought > 0 ? gp_sum_value(&ri_used) / bought : NAN;
    l->savings_plan_utilization =
        sp_all > 0 ? gp_sum_value(&sp_used) / sp_all : NAN;
    l->coverage = od_launched > 0 ? gp_sum_value(&covered) / od_launched : 0;
    /* cost per useful GPU-hour over the usage that reported gpu_util: a
     * series' cost counts in the share of its GPU-hours that had one */
    gp_sum useful = {0}, util = {0}, with_util = {0};
    gp_sum by_workload[GP_N_WORKLOADS] = {{0}};
    for (size_t i = 0; i < l->n_series; i++) {
        const gp_ledger_series *ls = &l->series[i];
        gp_sum_add(&useful, ls->useful_gpu_hours);
        gp_sum_add(&util, ls->util_gpu_hours);
        gp_sum_add(&by_workload[t->series[i].workload], ls->cost);
        gp_sum_add(&with_util, gp_ledger_series_cost_with_util(l, t, i));
    }
    for (int w = 0; w < GP_N_WORKLOADS; w++)
        l->workload_cost[w] = gp_sum_value(&by_workload[w]);
    l->useful_gpu_hours = gp_sum_value(&useful);
    double util_gpu_hours = gp_sum_value(&util);
    double cost_with_util = gp_sum_value(&with_util);
    if (!(util_gpu_hours > 0))
        l->useful_gpu_hours = NAN; /* unknown: no usage reported gpu_util */
    if (t->gpu_hours_without_util == 0)
        cost_with_util = l->total_cost; /* SPEC: total / useful */
    l->cost_per_useful_gpu_hour =
        l->useful_gpu_hours > 0 ? cost_with_util / l->useful_gpu_hours : NAN;
}

void gp_ledger_finish(gp_ledger *l, const gp_model_input *in, double f)
{
    /* the months are built from the discounted hours */
    apply_discount(l, f);
    build_months(l, in, f);
    totals(l, in->trace);
    /* rounding noise in the allocation is not a cost of its own */
    if (fabs(l->unallocated_cost) < 1e-6 * (1 + l->total_cost))
        l->unallocated_cost = 0;
}
