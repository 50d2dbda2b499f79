/*
 * engine.h: the replay engine (SPEC section 4).  gp_engine_run() bills a
 * trace hour by hour as a run specification (gp_run_spec) says and
 * returns a ledger: per hour, per month, per series and per job run.  It
 * keeps no global state: the recommender and the forecaster use it as
 * their cost function.  The reasoning is in docs/design/engine.md.
 */
#ifndef GP_ENGINE_H
#define GP_ENGINE_H

#include "gpuplan.h"

/* The purchasing models, in the order the ledger holds their costs and
 * the writers list them: an index into the model table gp_models
 * (models/model.h), whose entries name each one. */
typedef enum gp_model_id {
    GP_MODEL_ON_DEMAND,
    GP_MODEL_RESERVED,     /* amortized: effective hourly x count */
    GP_MODEL_SAVINGS_PLAN, /* amortized: the hourly commitment */
    GP_MODEL_SPOT,         /* spot price x hours, interruptions included */
    GP_MODEL_CAPACITY,     /* job runs on capacity blocks, flex-start and
                              calendar reservations (SPEC 7.4) */
    GP_N_MODELS
} gp_model_id;

/* The sum of costs by model, added in the models' order. */
static inline double gp_cost_total(const double cost[GP_N_MODELS])
{
    double total = cost[0];
    for (int k = 1; k < GP_N_MODELS; k++)
        total += cost[k];
    return total;
}

/* What one hour cost and how commitments were used. */
typedef struct gp_ledger_hour {
    double cost[GP_N_MODELS]; /* by model (gp_model_id) */
    double all_on_demand_cost;
    double od_equiv_launched; /* on-demand value of usage launched on demand */
    double od_equiv_covered;  /* ... of that, covered by commitments */
    double reserved_used;     /* instance-hours of the reserved types */
    double reserved_purchased;
    double sp_used;      /* dollars of commitment used */
    double sp_committed; /* dollars of commitment active */
    double instance_hours[GP_N_WORKLOADS];
} gp_ledger_hour;

/* One calendar month. */
typedef struct gp_ledger_month {
    int year, month;
    double cost[GP_N_MODELS]; /* by model (gp_model_id) */
    double total_cost;        /* amortized */
    /* cash: upfront payments in the month they are paid (none paid before
     * the window), recurring fees as billed */
    double reserved_cash, savings_plan_cash;
    double total_cash;
    double reserved_used, reserved_purchased, sp_used, sp_committed;
    double od_equiv_launched, od_equiv_covered;
} gp_ledger_month;

/* Cost of one series over the window, commitments allocated in proportion
 * to the on-demand value they covered (chargeback). */
typedef struct gp_ledger_series {
    double cost;
    double instance_hours;
    double useful_gpu_hours;
    double util_gpu_hours; /* GPU-hours that came with a gpu_util */
} gp_ledger_series;

/* Spot replay of one job run: the whole run, hours past the window's end
 * included, except cost_in_window. */
typedef struct gp_ledger_job {
    uint32_t run; /* index into trace->runs */
    double attempts_mean;
    double interruptions_mean;
    double failed_attempt_cost_mean;
    double cost_mean; /* cost per completed run */
    double cost_p50, cost_p95;
    double fallback_share; /* fraction of replicates that fell back */
    double base_cost;      /* the same work with no interruptions */
    /* the part of cost_mean billed in the window's hours (all of it
     * unless the run goes past the window's end) */
    double cost_in_window;
    /* spot availability (SPEC 7.4): hours waited for capacity, what the
     * fallback to on demand cost (means), the run's deadline in hours
     * after its start and the share of replays that met it (both < 0
     * when it has none) */
    double wait_h_mean;
    double fallback_cost_mean;
    double deadline_h;
    double met_deadline;
    /* interruptions recorded for the run (spot-events), < 0 not given */
    double recorded_interruptions;
} gp_ledger_job;

/* A job run a policy launched on a capacity instrument (SPEC 7.4): the
 * whole run, billed up front (a block, a calendar reservation: in the
 * hour it starts) or as it runs (flex-start), after the discount. */
typedef struct gp_ledger_capacity {
    uint32_t run;  /* index into trace->runs */
    gp_launch launch;
    double cost;
    int days, units;  /* reservation days; blocks or requests */
    double unused_h;  /* hours paid after the run, to the block's end */
    double unused_ih; /* instance-hours paid and not used */
    double wait_h;    /* flex-start: expected waits */
} gp_ledger_capacity;

/* Use of one commitment over the window. */
typedef struct gp_ledger_commitment {
    const gp_commitment *c;
    double cost;      /* amortized, in the window */
    double used;      /* normalized instance-hours or dollars */
    double purchased; /* same unit */
    double od_equiv_covered;
} gp_ledger_commitment;

/* What a strategy's levers did (levers.h); all zero without levers. */
typedef struct gp_ledger_levers {
    bool any;
    bool autoscale, rightsize, migrate; /* which were pulled */
    char what[512];                     /* gp_levers_describe */
    /* autoscale: instance-hours of the matching series as recorded and
     * as served in the window; series-hours that used assumed_util, and
     * those with no gpu_util kept as recorded */
    double autoscale_recorded_ih, autoscale_served_ih;
    double autoscale_assumed_hours, autoscale_unknown_hours;
    /* [0] rightsize, [1] migrate: instance-hours of `from` moved in the
     * window and the instance-hours of `to` they became */
    double moved_ih[2], moved_to_ih[2];
    /* commitments the moves leave without usage, from the move to the
     * end of their terms (the window's part is also in total_cost); the
     * instance-hours are the reservations' */
    double stranded_commitment_cost, stranded_instance_hours;
} gp_ledger_levers;

typedef struct gp_ledger {
    char *strategy;
    gp_ledger_levers levers;
    int64_t start_hour; /* window */
    size_t n_hours;
    gp_ledger_hour *hours;
    gp_ledger_month *months;
    size_t n_months;
    gp_ledger_series *series; /* by trace series */
    size_t n_series;
    /* series i's cost in months[k] (the same allocation, month by month)
     * at series_month_cost[i * month_slots + k], k < n_months */
    double *series_month_cost;
    size_t month_slots;
    gp_ledger_job *jobs;
    size_t n_jobs;
    /* the job runs launched on demand that start in the window, in the
     * same shape (one attempt, at the on-demand rate before commitments),
     * for the per-job-run table */
    gp_ledger_job *od_jobs;
    size_t n_od_jobs;
    gp_ledger_commitment *commitments;
    size_t n_commitments;
    gp_ledger_capacity *capacity; /* the runs launched on capacity */
    size_t n_capacity;
    /* runs of a capacity launch billed on demand instead: started before
     * the window, or their type's catalog does not sell the instrument
     * (or not for so long) */
    size_t capacity_runs_on_demand;

    /* window totals */
    double total_cost, all_on_demand_cost, savings, savings_pct;
    double cost[GP_N_MODELS]; /* by model (gp_model_id) */
    double reserved_utilization, savings_plan_utilization, coverage;
    /* cost per useful GPU-hour = cost / useful GPU-hours, both over the
     * usage that came with gpu_util (all of it, when every row has one);
     * both NAN when none did */
    double useful_gpu_hours, cost_per_useful_gpu_hour;
    double workload_cost[GP_N_WORKLOADS];
    double workload_instance_hours[GP_N_WORKLOADS];
    double unallocated_cost; /* commitment cost with no usage to carry it */
    /* instance-hours of idle GPUs the policy's terminate_idle_h removed
     * from demand in the window (idle.h); all_on_demand_cost still counts
     * them, so `savings` includes what terminating saved */
    double idle_terminated_instance_hours;
    /* spot, over Monte Carlo replicates (expected values without job_id),
     * in the window: a job run past its end counts for its share of
     * instance-hours in it, as its cost is billed */
    double spot_interruptions_mean;
    double spot_failed_attempt_cost_mean;
    double spot_cost_p50, spot_cost_p95;
    /* job runs on spot that started before the window and go on in it:
     * not replayed, their instance-hours in the window priced by the
     * expected value like usage without job_id */
    size_t spot_runs_before_window;
    double spot_runs_before_window_ih;
    int mc_runs;
    uint64_t mc_seed;
} gp_ledger;

/* How to run a scenario's strategy (gp_run_spec_init). */
typedef struct gp_engine_options {
    int64_t window_start, window_end; /* seconds; 0,0 = scenario or trace */
    int mc_runs;                      /* < 0: the scenario's */
    long mc_seed;                     /* < 0: the scenario's */
    int threads;                      /* 0: all cores */
    /* extra commitments on top of the strategy's (the recommender) */
    const gp_commitment *extra;
    size_t n_extra;
    gp_progress progress; /* the spot Monte Carlo, run by run */
} gp_engine_options;

void gp_engine_options_init(gp_engine_options *o);

/* A caller's memo of the spot Monte Carlo's results, kept across the
 * bills it makes (models/spot_memo.c): a bill whose job runs on spot have
 * the same inputs as an earlier one's takes its results, the same to the
 * bit.  Safe to share between threads. */
typedef struct gp_spot_memo gp_spot_memo;
gp_spot_memo *gp_spot_memo_new(void); /* NULL when out of memory */
void gp_spot_memo_free(gp_spot_memo *m);
/* The bills that took an entry's results so far. */
size_t gp_spot_memo_hits(gp_spot_memo *m);

/*
 * Everything one bill needs.  A caller that bills a variant (another
 * policy, other commitments, another window) changes a copy of a spec,
 * not of the scenario.  The spec borrows: the commitments, the name and
 * the progress callback's context must outlive the run.
 */
typedef struct gp_run_spec {
    const char *strategy; /* the ledger's name for the run */
    int64_t start_hour;   /* window, in epoch hours */
    size_t n_hours;
    gp_policy policy[2]; /* by workload: training, inference */
    /* the commitments, in billing order: owned, the strategy's, extra */
    const gp_commitment *owned;
    size_t n_owned;
    const gp_commitment *added;
    size_t n_added;
    const gp_commitment *extra;
    size_t n_extra;
    double discount;            /* fraction off every price */
    double spot_price_factor;   /* multiplies spot prices */
    double interruption_factor; /* multiplies lambda */
    int mc_runs;
    uint64_t mc_seed;
    int threads;          /* 0: all cores */
    gp_progress progress; /* the spot Monte Carlo, run by run */
    /* the caller's memo of spot Monte Carlo results across its bills
     * (gp_spot_memo_new), or NULL */
    gp_spot_memo *spot_memo;
} gp_run_spec;

/* The spec of strategy `strategy` (index into s->strategies) of scenario
 * s, run by `opt` (NULL: the defaults): the window is opt's, else the
 * scenario's, else the trace's span; Monte Carlo runs and seed are opt's
 * when set, else the scenario's. */
gp_status gp_run_spec_init(gp_run_spec *spec, const gp_trace *trace,
                           const gp_scenario *s, size_t strategy,
                           const gp_engine_options *opt, gp_error *err);

/* Bills `trace` as `spec` says and returns a new ledger in *out. */
gp_status gp_engine_run(const gp_trace *trace, const gp_pricing *pricing,
                        const gp_run_spec *spec, gp_ledger **out,
                        gp_error *err);
void gp_ledger_free(gp_ledger *l);

/* The cost of series i that its GPU-hours with a gpu_util carry: all of
 * it when every row of the trace had a gpu_util, else the series' cost
 * times its share of GPU-hours that had one. */
double gp_ledger_series_cost_with_util(const gp_ledger *l, const gp_trace *t,
                                       size_t i);

/* Cost per useful GPU-hour of series i (chargeback), by the ledger's own
 * rule: gp_ledger_series_cost_with_util / its useful GPU-hours; NAN when
 * it has no useful GPU-hours. */
double gp_ledger_series_cost_per_useful_gpu_hour(const gp_ledger *l,
                                                 const gp_trace *t, size_t i);

/* Useful GPU-hours of one series over the window; NAN when none of its
 * usage reported gpu_util, so that a writer shows it as unknown rather
 * than as zero use. */
double gp_ledger_series_useful_gpu_hours(const gp_ledger *l, size_t i);

/* Chargeback of one team, project and workload: its series summed over
 * pools. */
typedef struct gp_chargeback_row {
    int32_t team, project; /* index into trace labels, -1 when unlabelled */
    gp_workload workload;
    /* useful_gpu_hours is NAN when none of its usage reported gpu_util
     * (unknown, not zero) */
    double cost, instance_hours, useful_gpu_hours;
    double util_gpu_hours; /* GPU-hours that came with a gpu_util */
    double cost_with_util; /* the part its GPU-hours with gpu_util carry */
    double cost_per_useful_gpu_hour; /* cost_with_util / useful, or NAN */
} gp_chargeback_row;

/* The ledger's series grouped by team, project and workload, in name order
 * (unlabelled first), into a new array *rows of *n rows (NULL when the
 * trace has no series).  Unallocated cost is in no row. */
gp_status gp_ledger_chargeback(const gp_ledger *l, const gp_trace *t,
                               gp_chargeback_row **rows, size_t *n,
                               gp_error *err);

/* The window the engine uses: the scenario's, else the trace's span. */
void gp_engine_window(const gp_trace *trace, const gp_scenario *s,
                      int64_t *start_hour, size_t *n_hours);

/*
 * Daly (2006): expected wall time to finish W hours of work checkpointed
 * every tau hours at cost delta, with restart overhead R, when failures
 * arrive at rate 1/M:  T_w = M e^(R/M) (e^((tau+delta)/M) - 1) W / tau.
 */
double gp_daly_expected_time(double work, double tau, double delta,
                             double restart, double mtbf);

/* The policy series `s` follows under the policies `policy` (by
 * workload): its workload's, and the inference policy for unlabelled
 * usage. */
static inline const gp_policy *gp_series_policy(const gp_policy *policy,
                                                const gp_series *s)
{
    return &policy[s->workload == GP_TRAINING ? 0 : 1];
}

/* The same under a strategy's policies. */
static inline const gp_policy *gp_policy_of(const gp_strategy *strat,
                                            const gp_series *s)
{
    return gp_series_policy(strat->policy, s);
}

/* A job run's deadline in hours after its start under policy p, for a
 * run of `length_h` hours: deadline_h, or the length plus
 * deadline_slack_h (a policy gives at most one of them); -1 for none. */
static inline double gp_policy_deadline_h(const gp_policy *p, double length_h)
{
    if (p->deadline_slack_h >= 0)
        return length_h + p->deadline_slack_h;
    return p->deadline_h >= 0 ? p->deadline_h : -1;
}

/* Where the usage of series `s` is launched under the policies `policy`:
 * on spot when its policy launches spot, it is interruptible and its type
 * has a spot price; otherwise on demand, and the route says why.  The
 * engine, the spot model, the optimizer and simulate's warning all ask
 * this. */
typedef enum gp_launch_route {
    GP_ROUTE_SPOT,
    GP_ROUTE_ON_DEMAND,         /* the policy launches on demand */
    GP_ROUTE_NOT_INTERRUPTIBLE, /* a spot launch, interruptible=false */
    GP_ROUTE_NO_SPOT_PRICE      /* a spot launch, the type has no spot price */
} gp_launch_route;

static inline gp_launch_route
gp_series_route(const gp_trace *t, const gp_policy *policy, const gp_series *s)
{
    if (gp_series_policy(policy, s)->launch != GP_LAUNCH_SPOT)
        return GP_ROUTE_ON_DEMAND;
    if (!s->interruptible)
        return GP_ROUTE_NOT_INTERRUPTIBLE;
    if (!t->pools[s->pool].type->spot.present)
        return GP_ROUTE_NO_SPOT_PRICE;
    return GP_ROUTE_SPOT;
}

/* The same under a strategy's policies. */
static inline gp_launch_route
gp_route_of(const gp_trace *t, const gp_strategy *strat, const gp_series *s)
{
    return gp_series_route(t, strat->policy, s);
}

/* The hourly interruption hazard from a monthly rate p:
 * lambda = -ln(1 - p) / 730. */
double gp_spot_hazard(double monthly_rate);

#endif
