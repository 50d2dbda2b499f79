/*
 * capacity.c: job runs a policy launches on a capacity instrument (SPEC
 * 7.4): a capacity block or a calendar reservation sized to the run,
 * billed whole in the hour the run starts, used or not; flex-start, billed
 * as the run uses it.  The run's hours leave the on-demand launch; the
 * rest of the workload's usage stays on demand.  Rules: docs/billing.md.
 */
#include "capacity.h"
#include "model.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* A run billed on an instrument. */
struct cap_run {
    uint32_t run; /* index into trace->runs */
    gp_launch launch;
    double flex_price; /* flex-start: $/instance-hour; else 0 */
    gp_capacity_quote q;
};

struct state {
    struct cap_run *runs;
    size_t n_runs;
    /* the runs active in window hour h: active[at[h], at[h + 1]) */
    uint32_t *active;
    size_t *at;
    size_t on_demand; /* runs of a capacity launch left on demand */
};

static void capacity_free(void *state)
{
    struct state *s = state;
    if (!s)
        return;
    gp_free(s->runs);
    gp_free(s->active);
    gp_free(s->at);
    gp_free(s);
}

/* The runs of series whose policy launches a capacity instrument,
 * priced; those it does not take (started before the window, not sold)
 * go on demand and are counted. */
static void collect(struct state *s, const gp_model_input *in)
{
    const gp_trace *t = in->trace;
    int64_t ws = in->spec->start_hour * 3600;
    int64_t we = ws + (int64_t)in->spec->n_hours * 3600;

    for (size_t i = 0; i < t->n_runs; i++) {
        const gp_job_run *jr = &t->runs[i];
        const gp_series *ser = &t->series[jr->series];
        const gp_policy *pol = gp_series_policy(in->spec->policy, ser);
        const gp_instance_type *it = t->pools[ser->pool].type;
        struct cap_run *r = &s->runs[s->n_runs];
        if (pol->launch < GP_LAUNCH_CAPACITY_BLOCK || jr->start >= we ||
            jr->end <= ws || jr->instance_hours <= 0)
            continue;
        if (!gp_capacity_takes_run(it, jr, pol->launch,
                                   pol->restart_overhead_h, ws, we, &r->q)) {
            s->on_demand++;
            continue;
        }
        r->run = (uint32_t)i;
        r->launch = pol->launch;
        r->flex_price = pol->launch == GP_LAUNCH_FLEX_START ? it->flex.hourly
                                                            : 0;
        s->n_runs++;
    }
}

/* Which runs each window hour holds (a counting sort of their hours). */
static bool index_hours(struct state *s, const gp_model_input *in)
{
    /* a run's hours with no instance-hours stay: its first pays it all */
    return gp_model_index_runs(in, &s->runs[0].run, sizeof *s->runs,
                               s->n_runs, false, &s->at, &s->active);
}

static gp_status capacity_prepare(const gp_model_input *in, void **state,
                                  gp_error *err)
{
    struct state *s = gp_calloc(1, sizeof *s);

    *state = s;
    if (!s)
        goto nomem;
    /* most runs launch nothing on capacity: no per-run memory for them */
    if (in->spec->policy[0].launch < GP_LAUNCH_CAPACITY_BLOCK &&
        in->spec->policy[1].launch < GP_LAUNCH_CAPACITY_BLOCK)
        return GP_OK;
    if (!(s->runs = gp_calloc(in->trace->n_runs + 1, sizeof *s->runs)))
        goto nomem;
    collect(s, in);
    if (s->n_runs > 0 && !index_hours(s, in))
        goto nomem;
    return GP_OK;
nomem:
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

/* Takes the hour's share of each active run out of the on-demand launch
 * and bills it: a reservation whole in the run's first hour, flex-start
 * as used (its restarts in the first hour).  The cost is charged back to
 * the run's series (job_spot_cost, as spot runs are). */
static void capacity_bill_hour(void *state, const gp_model_input *in,
                               gp_hour *hour)
{
    struct state *s = state;
    const gp_trace *t = in->trace;
    int64_t clock_h = hour->t / 3600;

    if (s->n_runs == 0)
        return;
    for (size_t a = s->at[hour->h]; a < s->at[hour->h + 1]; a++) {
        const struct cap_run *r = &s->runs[s->active[a]];
        const gp_job_run *jr = &t->runs[r->run];
        size_t pool = t->series[jr->series].pool;
        int64_t k = clock_h - jr->hour0;
        double ih = jr->hour_ih[k];
        double cost = 0;
        hour->remaining[pool] -= ih;
        if (hour->remaining[pool] < 0)
            hour->remaining[pool] = 0; /* an idle cut took it already */
        if (r->launch == GP_LAUNCH_FLEX_START)
            cost = ih * r->flex_price +
                   (k == 0 ? r->q.cost - jr->instance_hours * r->flex_price
                           : 0);
        else if (k == 0)
            cost = r->q.cost;
        hour->row->cost[GP_MODEL_CAPACITY] += cost;
        hour->job_spot_cost[jr->series] += cost;
        hour->job_spot_ih[jr->series] += ih;
        hour->job_spot = true;
    }
}

static gp_status capacity_finish(void *state, const gp_model_input *in,
                                 gp_ledger *ledger)
{
    struct state *s = state;
    double keep = 1.0 - in->spec->discount;

    ledger->capacity_runs_on_demand = s->on_demand;
    if (s->n_runs == 0)
        return GP_OK;
    ledger->capacity = gp_calloc(s->n_runs, sizeof *ledger->capacity);
    if (!ledger->capacity)
        return GP_ERR_NOMEM;
    ledger->n_capacity = s->n_runs;
    for (size_t i = 0; i < s->n_runs; i++) {
        const struct cap_run *r = &s->runs[i];
        gp_ledger_capacity *c = &ledger->capacity[i];
        c->run = r->run;
        c->launch = r->launch;
        c->cost = r->q.cost * keep;
        c->days = r->q.days;
        c->units = r->q.units;
        c->unused_h = r->q.unused_h;
        c->unused_ih = r->q.unused_ih;
        c->wait_h = r->q.wait_h;
    }
    return GP_OK;
}

const gp_model gp_model_capacity = {
    .name = "capacity",
    .id = GP_MODEL_CAPACITY,
    .cost_key = "capacity_cost",
    .label = "capacity",
    .title = "Capacity",
    .prepare = capacity_prepare,
    .bill_hour = capacity_bill_hour,
    .finish = capacity_finish,
    .free = capacity_free,
};
