/*
 * spot.c: spot purchasing with interruptions (SPEC section 4): job runs
 * replayed by Monte Carlo (a random stream per run, fallback to on-demand
 * when the deadline is at risk), other spot usage priced by Daly's
 * expected time.  The reasoning and the formulas are in
 * docs/design/models.md.
 */
#include "spot_internal.h"
#include "util.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

double gp_spot_hazard(double monthly_rate)
{
    if (monthly_rate <= 0)
        return 0;
    if (monthly_rate >= 1)
        return INFINITY;
    return -log1p(-monthly_rate) / 730.0;
}

double gp_daly_expected_time(double work, double tau, double delta,
                             double restart, double mtbf)
{
    if (!(mtbf < INFINITY) || mtbf <= 0)
        return mtbf <= 0 ? INFINITY : work * (tau + delta) / tau;
    return mtbf * exp(restart / mtbf) * expm1((tau + delta) / mtbf) * work /
           tau;
}

struct state {
    struct spot_run *runs;
    size_t n_runs;
    /* the runs active in window hour h, in run order:
     * active[active_at[h], active_at[h + 1]) (index_hours) */
    uint32_t *active;
    size_t *active_at;
    int64_t *totals; /* [replicate] micro-dollars of all runs */
    int replicates;
    double *job_ih;  /* [pool] scratch: job-run instance-hours this hour */
    /* [pool] the policy of its first interruptible series (the training
     * policy if none), for usage that is not a job run */
    const gp_policy **pool_pol;
    /* expected-value (no job_id) totals */
    /* over the window's hours (gp_sum: long sums of money) */
    gp_sum nonjob_cost, nonjob_interruptions, nonjob_failed;
    /* job runs on spot that started before the window: not replayed, their
     * hours in it are priced by the expected value */
    size_t early_runs;
    double early_ih;
};

/* The spot price of a pool at time t, with the scenario's factor. */
static double spot_price(const gp_model_input *in, long pool, int64_t t)
{
    return gp_spot_price_at(&in->trace->pools[pool].type->spot, t) *
           in->spec->spot_price_factor;
}

static double pool_lambda(const gp_model_input *in, long pool)
{
    return gp_spot_hazard(
               in->trace->pools[pool].type->spot.interruption_rate_monthly) *
           in->spec->interruption_factor;
}

static void spot_free(void *state)
{
    struct state *s = state;
    if (!s)
        return;
    gp_free(s->runs);
    gp_free(s->active);
    gp_free(s->active_at);
    gp_free(s->totals);
    gp_free(s->job_ih);
    gp_free(s->pool_pol);
    gp_free(s);
}

static void simulate(const struct spot_run *r, gsl_rng *rng,
                     struct replicate *out)
{
    const gp_policy *p = r->policy;
    double tau = p->checkpoint_interval_h > 0 ? p->checkpoint_interval_h
                                              : 1e300;
    double delta = p->checkpoint_interval_h > 0 ? p->checkpoint_cost_h : 0;
    double R = p->restart_overhead_h;
    double rate = r->n * r->lambda;
    double mean = rate > 0 ? 1.0 / rate : INFINITY;
    double left = r->work;
    bool restart = false;

    memset(out, 0, sizeof *out);
    if (gp_spot_wait(r, rng, out, false, left)) {
        out->fallback_hours = left; /* never ran: no restart */
        left = 0;
    }
    while (left > 1e-12) {
        double segs_needed = ceil(left / tau - 1e-9);
        double need = (restart ? R : 0) + left + delta * segs_needed;
        double x = rate > 0 ? gsl_ran_exponential(rng, mean) : INFINITY;
        if (x >= need) {
            out->spot_hours += need;
            if (restart)
                out->lost_hours += R;
            break;
        }
        out->interruptions++;
        out->spot_hours += x;
        double progress = x;
        if (restart) {
            if (x < R) {
                out->lost_hours += x;
                progress = -1;
            } else {
                out->lost_hours += R;
                progress = x - R;
            }
        }
        if (progress >= 0) {
            double segs = floor(progress / (tau + delta));
            double saved = segs * tau;
            if (saved > left)
                saved = left;
            left -= saved;
            out->lost_hours += progress - segs * (tau + delta);
        }
        restart = true;
        bool at_risk = r->has_deadline && out->lost_hours + out->wait_h + R +
                                              tau + delta >
                                          r->slack;
        if (((out->interruptions >= p->max_interruptions || at_risk) &&
             p->fallback == GP_LAUNCH_ON_DEMAND) ||
            gp_spot_wait(r, rng, out, true, left)) {
            /* the rest runs on demand: a restart, then the work */
            out->fallback_restart = R;
            out->fallback_hours = R + left;
            break;
        }
    }
    out->finish_h = out->spot_hours + out->wait_h + out->fallback_hours;
}

/* splitmix64: a seed per run from the scenario seed and the run index. */
static unsigned long run_seed(uint64_t seed, uint64_t index)
{
    uint64_t z = seed + 0x9E3779B97F4A7C15ULL * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return (unsigned long)(z ^ (z >> 31));
}

struct mc_shared {
    struct state *s;
    const gp_model_input *in;
    atomic_size_t next;
    atomic_int failed;
};

struct mc_worker {
    struct mc_shared *sh;
    int64_t *totals;
};

/* Sums of a run's replicates. */
struct run_sums {
    double interruptions, failed, spot, fallback, fell_back, wait, met;
};

/* Adds replicate `rep` of run r (k of them) to the sums and to the
 * replicate's total; costs[k] gets its cost. */
static void add_replicate(const struct spot_run *r, const struct replicate *rep,
                          struct run_sums *u, double *cost, int64_t *total)
{
    double spot = r->n * rep->spot_hours * r->price;
    double fb = r->n * rep->fallback_hours * r->od;

    *cost = spot + fb;
    u->spot += spot;
    u->fallback += fb;
    u->interruptions += rep->interruptions;
    u->failed += r->n * (rep->lost_hours * r->price +
                         rep->fallback_restart * r->od);
    u->fell_back += rep->fallback_hours > 0;
    u->wait += rep->wait_h;
    u->met += rep->finish_h <= r->work + r->slack + 1e-9;
    *total += llround(*cost * r->window * 1e6);
}

/* All `reps` replicates of run r, into r->out and the per-replicate
 * totals (costs: scratch of reps).  A run on an availability history is
 * replayed once: the history decides, not the random stream. */
static void replay_run(struct spot_run *r, gsl_rng *rng, double *costs,
                       int reps, int64_t *totals)
{
    struct run_sums u;
    struct replicate rep;

    memset(&u, 0, sizeof u);
    if (r->hist)
        gp_spot_replay_history(r, &rep);
    for (int k = 0; k < reps; k++) {
        if (!r->hist)
            simulate(r, rng, &rep);
        add_replicate(r, &rep, &u, &costs[k], &totals[k]);
    }
    r->out.run = r->run;
    r->out.interruptions_mean = u.interruptions / reps;
    r->out.attempts_mean = 1 + r->out.interruptions_mean;
    r->out.failed_attempt_cost_mean = u.failed / reps;
    r->out.cost_mean = (u.spot + u.fallback) / reps;
    r->out.fallback_share = u.fell_back / reps;
    r->out.base_cost = r->n * r->work * r->price;
    r->out.cost_in_window = r->out.cost_mean * r->window;
    r->out.wait_h_mean = u.wait / reps;
    r->out.fallback_cost_mean = u.fallback / reps;
    r->out.deadline_h = r->has_deadline ? r->work + r->slack : -1;
    r->out.met_deadline = r->has_deadline ? u.met / reps : -1;
    r->out.recorded_interruptions = -1;
    r->spot_cost_mean = u.spot / reps;
    r->fallback_cost_mean = u.fallback / reps;
    gsl_sort(costs, 1, (size_t)reps);
    r->out.cost_p50 =
        gsl_stats_quantile_from_sorted_data(costs, 1, (size_t)reps, 0.5);
    r->out.cost_p95 =
        gsl_stats_quantile_from_sorted_data(costs, 1, (size_t)reps, 0.95);
}

static void *mc_worker_run(void *arg)
{
    struct mc_worker *w = arg;
    struct state *s = w->sh->s;
    int reps = s->replicates;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    double *costs = gp_malloc((size_t)reps * sizeof *costs);

    if (!rng || !costs) {
        atomic_store(&w->sh->failed, 1);
        gsl_rng_free(rng);
        gp_free(costs);
        return NULL;
    }
    for (;;) {
        size_t i = atomic_fetch_add(&w->sh->next, 1);
        if (i >= s->n_runs)
            break;
        gp_progress_report(&w->sh->in->spec->progress, "Monte Carlo", (double)i,
                           (double)s->n_runs);
        struct spot_run *r = &s->runs[i];
        gsl_rng_set(rng, run_seed(w->sh->in->spec->mc_seed, r->run));
        replay_run(r, rng, costs, reps, w->totals);
    }
    gsl_rng_free(rng);
    gp_free(costs);
    return NULL;
}

/* Which runs each window hour bills, in run order (a counting sort of
 * their hours with instance-hours in them): asking every run every hour
 * took 58% of a 4-year simulate with 151,000 job runs.  The order keeps
 * the hour's sums as they were. */
static bool index_hours(struct state *s, const gp_model_input *in)
{
    return gp_model_index_runs(in, &s->runs[0].run, sizeof *s->runs,
                               s->n_runs, true, &s->active_at, &s->active);
}

/* Per pool: the policy of its first interruptible series (the training
 * policy if none), for spot usage that is not a job run. */
static void pool_policies(struct state *s, const gp_model_input *in)
{
    const gp_trace *t = in->trace;

    for (size_t k = t->n_series; k-- > 0;)
        if (t->series[k].interruptible)
            s->pool_pol[t->series[k].pool] =
                gp_series_policy(in->spec->policy, &t->series[k]);
    for (size_t p = 0; p < t->n_pools; p++)
        if (!s->pool_pol[p])
            s->pool_pol[p] = &in->spec->policy[0];
}

/* The instance type of series `ser`. */
static const gp_instance_type *ser_type(const gp_trace *t,
                                        const gp_series *ser)
{
    return t->pools[ser->pool].type;
}

/* Run r's deadline from its policy (gp_policy_deadline_h) as slack:
 * deadline_slack_h as given, or the deadline less the run's length
 * (r->work). */
static void deadline_of(struct spot_run *r, const gp_policy *p)
{
    double d = gp_policy_deadline_h(p, r->work);
    r->has_deadline = d >= 0;
    r->slack = p->deadline_slack_h >= 0 ? p->deadline_slack_h : d - r->work;
}

/* The job runs launched on spot that start in the window, to replay,
 * into s->runs; those that started before it are only counted
 * (early_runs, early_ih). */
static void collect_runs(struct state *s, const gp_model_input *in)
{
    const gp_trace *t = in->trace;
    double ws = (double)in->spec->start_hour * 3600.0;
    double we = ws + (double)in->spec->n_hours * 3600.0;
    int64_t end_h = in->spec->start_hour + (int64_t)in->spec->n_hours;

    for (size_t i = 0; i < t->n_runs; i++) {
        const gp_job_run *jr = &t->runs[i];
        const gp_series *ser = &t->series[jr->series];
        const gp_policy *pol = gp_series_policy(in->spec->policy, ser);
        long pool = (long)ser->pool;
        if (gp_series_route(t, in->spec->policy, ser) != GP_ROUTE_SPOT)
            continue;
        if (jr->instances <= 0 || jr->instance_hours <= 0 ||
            (double)jr->start >= we)
            continue;
        if ((double)jr->start < ws) {
            /* a replay would start mid-run, with its first hours billed
             * outside the window */
            double ih = 0;
            for (size_t k = 0; k < jr->n_hours; k++) {
                int64_t h = jr->hour0 + (int64_t)k;
                if (h >= in->spec->start_hour && h < end_h)
                    ih += jr->hour_ih[k];
            }
            if (ih > 0) {
                s->early_runs++;
                s->early_ih += ih;
            }
            continue;
        }
        struct spot_run *r = &s->runs[s->n_runs++];
        double ih = 0;
        for (size_t k = 0; k < jr->n_hours; k++)
            if (jr->hour0 + (int64_t)k < end_h)
                ih += jr->hour_ih[k];
        r->window = ih / jr->instance_hours;
        r->run = (uint32_t)i;
        r->pool = pool;
        r->n = jr->instances;
        r->work = jr->instance_hours / jr->instances;
        r->price = spot_price(in, pool, jr->start);
        r->od = in->od_rate[pool];
        r->lambda = pool_lambda(in, pool);
        r->policy = pol;
        deadline_of(r, pol);
        r->avail = gp_spot_availability(&ser_type(t, ser)->spot);
        r->hist = ser_type(t, ser)->spot.avail.available
                      ? &ser_type(t, ser)->spot.avail
                      : NULL;
        r->start = jr->start;
    }
}

/* The Monte Carlo over s's runs, on every core (or in->spec->threads):
 * each worker takes the next run and keeps its own replicate totals,
 * added into s->totals at the end.  False when memory ran out. */
static bool monte_carlo(struct state *s, const gp_model_input *in)
{
    struct mc_shared sh;
    int threads = in->spec->threads;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);

    if (threads <= 0)
        threads = cores < 1 ? 1 : (cores > 64 ? 64 : (int)cores);
    if ((size_t)threads > s->n_runs)
        threads = (int)s->n_runs;
    sh.s = s;
    sh.in = in;
    atomic_init(&sh.next, 0);
    atomic_init(&sh.failed, 0);
    struct mc_worker *w = gp_calloc((size_t)threads, sizeof *w);
    pthread_t *tid = gp_calloc((size_t)threads, sizeof *tid);
    bool ok = w && tid;
    for (int k = 0; ok && k < threads; k++) {
        w[k].sh = &sh;
        w[k].totals = k == 0
                          ? s->totals
                          : gp_calloc((size_t)s->replicates, sizeof(int64_t));
        if (!w[k].totals)
            ok = false;
    }
    if (ok) {
        int started = 1;
        for (int k = 1; k < threads; k++, started++)
            if (pthread_create(&tid[k], NULL, mc_worker_run, &w[k]) != 0)
                break;
        mc_worker_run(&w[0]);
        for (int k = 1; k < started; k++)
            pthread_join(tid[k], NULL);
        /* the stage is over */
        gp_progress_report(&in->spec->progress, "Monte Carlo", -1, 0);
        for (int k = 1; k < threads; k++)
            for (int r = 0; r < s->replicates; r++)
                s->totals[r] += w[k].totals[r];
    }
    for (int k = 1; w && k < threads; k++)
        gp_free(w[k].totals);
    gp_free(w);
    gp_free(tid);
    return ok && !atomic_load(&sh.failed);
}

static gp_status spot_prepare(const gp_model_input *in, void **state,
                              gp_error *err)
{
    const gp_trace *t = in->trace;
    struct state *s = gp_calloc(1, sizeof *s);

    *state = NULL;
    if (!s)
        goto nomem;
    s->job_ih = gp_calloc(t->n_pools + 1, sizeof *s->job_ih);
    s->replicates = in->spec->mc_runs > 0 ? in->spec->mc_runs : 1;
    s->totals = gp_calloc((size_t)s->replicates, sizeof *s->totals);
    s->runs = gp_calloc(t->n_runs + 1, sizeof *s->runs);
    s->pool_pol = gp_calloc(t->n_pools + 1, sizeof *s->pool_pol);
    if (!s->job_ih || !s->totals || !s->runs || !s->pool_pol)
        goto nomem;
    pool_policies(s, in);
    collect_runs(s, in);
    if (!index_hours(s, in))
        goto nomem;
    if (s->n_runs > 0 &&
        !gp_spot_memo_get(in->spec->spot_memo, s->runs, s->n_runs,
                          s->replicates, in->spec->mc_seed, s->totals)) {
        if (!monte_carlo(s, in))
            goto nomem;
        gp_spot_memo_put(in->spec->spot_memo, s->runs, s->n_runs, s->replicates,
                         in->spec->mc_seed, s->totals);
    }
    *state = s;
    return GP_OK;
nomem:
    spot_free(s);
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

static void spot_bill_hour(void *state, const gp_model_input *in,
                           gp_hour *hour)
{
    struct state *s = state;
    const gp_trace *t = in->trace;
    /* job runs active in this hour: their share of the Monte Carlo mean,
     * in proportion to their instance-hours in it (a run's instance count
     * may change from hour to hour) */
    int64_t clock_h = hour->t / 3600;
    for (size_t a = s->active_at[hour->h]; a < s->active_at[hour->h + 1]; a++) {
        const struct spot_run *r = &s->runs[s->active[a]];
        const gp_job_run *jr = &t->runs[r->run];
        int64_t k = clock_h - jr->hour0;
        double share = jr->hour_ih[k] / jr->instance_hours;
        double cost = (r->spot_cost_mean + r->fallback_cost_mean) * share;
        s->job_ih[r->pool] += jr->hour_ih[k];
        /* the fallback is billed on demand, but charged back to the
         * spot usage that needed it: this run's */
        hour->spot_cost[r->pool] += cost;
        hour->job_spot_cost[jr->series] += cost;
        hour->job_spot_ih[jr->series] += jr->hour_ih[k];
        hour->job_spot = true;
        hour->row->cost[GP_MODEL_SPOT] += r->spot_cost_mean * share;
        hour->row->cost[GP_MODEL_ON_DEMAND] += r->fallback_cost_mean * share;
    }
    /* the rest of the spot usage: expected value */
    for (size_t p = 0; p < t->n_pools; p++) {
        double x = hour->spot[p] - s->job_ih[p];
        s->job_ih[p] = 0;
        if (x <= 1e-12)
            continue;
        const gp_policy *pol = s->pool_pol[p];
        double lambda = pool_lambda(in, (long)p);
        double tau = pol->checkpoint_interval_h > 0
                         ? pol->checkpoint_interval_h
                         : 1e300;
        double delta = pol->checkpoint_interval_h > 0 ? pol->checkpoint_cost_h
                                                      : 0;
        double mtbf = lambda > 0 ? 1.0 / (x * lambda) : INFINITY;
        double wall = gp_daly_expected_time(1.0, tau, delta,
                                            pol->restart_overhead_h, mtbf);
        if (!isfinite(wall))
            wall = 1.0 + delta / tau; /* no interruptions */
        double price = spot_price(in, (long)p, hour->t);
        double cost = x * wall * price;
        hour->spot_cost[p] += cost;
        hour->row->cost[GP_MODEL_SPOT] += cost;
        gp_sum_add(&s->nonjob_cost, cost);
        gp_sum_add(&s->nonjob_interruptions, x * wall * lambda);
        gp_sum_add(&s->nonjob_failed, x * (wall - (1.0 + delta / tau)) * price);
    }
}

static gp_status spot_finish(void *state, const gp_model_input *in,
                             gp_ledger *ledger)
{
    struct state *s = state;
    double *tot;

    if (gp_on_demand_job_rows(in, ledger) != GP_OK)
        return GP_ERR_NOMEM;
    ledger->jobs = gp_calloc(s->n_runs + 1, sizeof *ledger->jobs);
    tot = gp_malloc((size_t)s->replicates * sizeof *tot);
    if (!ledger->jobs || !tot) {
        gp_free(tot);
        return GP_ERR_NOMEM;
    }
    ledger->n_jobs = s->n_runs;
    double interruptions = gp_sum_value(&s->nonjob_interruptions);
    double failed = gp_sum_value(&s->nonjob_failed);
    double nonjob_cost = gp_sum_value(&s->nonjob_cost);
    for (size_t i = 0; i < s->n_runs; i++) {
        const struct spot_run *r = &s->runs[i];
        ledger->jobs[i] = r->out;
        interruptions += r->out.interruptions_mean * r->window;
        failed += r->out.failed_attempt_cost_mean * r->window;
    }
    for (int r = 0; r < s->replicates; r++)
        tot[r] = nonjob_cost + (double)s->totals[r] / 1e6;
    gsl_sort(tot, 1, (size_t)s->replicates);
    ledger->spot_interruptions_mean = interruptions;
    ledger->spot_failed_attempt_cost_mean = failed;
    ledger->spot_runs_before_window = s->early_runs;
    ledger->spot_runs_before_window_ih = s->early_ih;
    ledger->spot_cost_p50 =
        gsl_stats_quantile_from_sorted_data(tot, 1, (size_t)s->replicates,
                                            0.5);
    ledger->spot_cost_p95 =
        gsl_stats_quantile_from_sorted_data(tot, 1, (size_t)s->replicates,
                                            0.95);
    gp_free(tot);
    return GP_OK;
}

const gp_model gp_model_spot = {
    .name = "spot",
    .id = GP_MODEL_SPOT,
    .cost_key = "spot_cost",
    .label = "spot",
    .title = "Spot",
    .prepare = spot_prepare,
    .bill_hour = spot_bill_hour,
    .finish = spot_finish,
    .free = spot_free,
};
