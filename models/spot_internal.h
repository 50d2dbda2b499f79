/*
 * spot_internal.h: what spot.c and spot_wait.c share: a job run replayed
 * on spot, one replicate's result, and the replay when capacity is not
 * always there (SPEC 7.4, docs/billing.md "Spot availability").
 */
#ifndef GP_SPOT_INTERNAL_H
#define GP_SPOT_INTERNAL_H

#include "model.h"

#include <gsl/gsl_rng.h>

/* A job run replayed on spot. */
struct spot_run {
    uint32_t run; /* index into trace->runs */
    long pool;
    double n;         /* instances */
    double work;      /* hours of work at n instances */
    double price, od; /* $/instance-hour */
    double lambda;
    const gp_policy *policy;
    /* the deadline: slack = deadline - work, in hours (has_deadline) */
    bool has_deadline;
    double slack;
    double avail; /* probability that capacity is there in an hour */
    const gp_availability *hist; /* or NULL: avail is used */
    int64_t start;               /* seconds, for a history with times */
    /* the share of the run's instance-hours inside the window: 1 unless
     * the run goes past its end */
    double window;
    /* results */
    gp_ledger_job out;
    double spot_cost_mean, fallback_cost_mean;
};

/* One replicate of one run: what it costs, and its parts (hours). */
struct replicate {
    double spot_hours, fallback_hours, lost_hours, fallback_restart;
    double wait_h, finish_h;
    int interruptions;
};

/* With availability below 1, before run r is launched on spot (ran: it
 * ran on spot before, so a start costs a restart) and after each
 * interruption, with `left` hours of work to do: waits hour by hour, each
 * hour's capacity there with probability r->avail, adding to
 * out->wait_h.  True when the deadline is at risk first and the run falls
 * back to on demand. */
bool gp_spot_wait(const struct spot_run *r, gsl_rng *rng,
                  struct replicate *out, bool ran, double left);

/* The replay of run r on its availability history r->hist, tick by tick
 * (no random draws: the history is the only source of interruptions). */
void gp_spot_replay_history(const struct spot_run *r, struct replicate *out);

/* The memo of Monte Carlo results (spot_memo.c): on a hit, the runs'
 * results and the replicate totals are copied in (true); a put keeps a
 * copy of them, in place of the oldest entry (when out of memory, none:
 * the memo only saves time). */
bool gp_spot_memo_get(gp_spot_memo *m, struct spot_run *runs, size_t n_runs,
                      int replicates, uint64_t seed, int64_t *totals);
void gp_spot_memo_put(gp_spot_memo *m, const struct spot_run *runs,
                      size_t n_runs, int replicates, uint64_t seed,
                      const int64_t *totals);

/* The per-job-run rows of the job runs launched on demand that start in
 * the window, into l->od_jobs (on_demand_jobs.c). */
gp_status gp_on_demand_job_rows(const gp_model_input *in, gp_ledger *l);

#endif
