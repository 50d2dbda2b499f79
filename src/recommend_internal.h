/*
 * recommend_internal.h: what the recommender's files share (not a public
 * header): a run's fixed parts (struct ctx) and their bills, the
 * low-demand case, and the steps recommend.c takes from recommend_low.c,
 * recommend_plans.c, recommend_rank.c, recommend_renewals.c and
 * recommend_forward.c.
 */
#ifndef GP_RECOMMEND_INTERNAL_H
#define GP_RECOMMEND_INTERNAL_H

#include "optimizer.h"
#include "recommend.h"

#include <pthread.h>

#define ALL_PAYMENTS 7u
#define NO_UPFRONT_ONLY (1u << GP_NO_UPFRONT)
#define WEEK 168

/* A 1-year term sized on fewer hours of history than this carries a
 * caveat (README, "1-year terms"): four weeks, four of the weekly cycles
 * demand follows, the shortest window whose lowest week (the low-demand
 * case) is one of several. */
#define ONE_YEAR_HISTORY_HOURS (4 * WEEK)

/* A run's fixed parts: the scenario, the bill of its baseline strategy
 * (training maybe routed to spot, nothing added) and the window, which
 * is also spec's. */
struct ctx;
/* What a plan of terms up to max_term and `payments` may buy within the
 * user's choices (recommend_plans.c). */
gp_opt_choices gp_rec_choices(const struct ctx *c, int max_term,
                              unsigned payments);

struct ctx {
    const gp_trace *trace;
    const gp_pricing *pricing;
    const gp_scenario *scenario; /* the caller's */
    gp_run_spec spec;            /* the baseline, training maybe on spot */
    int64_t start_hour;          /* window */
    size_t n_hours;
    const gp_recommend_options *opt;
    const gp_trace
        *low; /* the forward parameter: the P10 demand, the low case */
};

/* A bill for running beside another (gp_rec_bill_two). */
struct bill_job {
    const struct ctx *c;
    const gp_trace *t;
    const gp_commitment *extra;
    size_t n_extra;
    gp_ledger *out;
    gp_status st;
    gp_error err;
};

/*
 * The low-demand case, built and billed on a second thread while the
 * balanced plan is solved: the solve needs neither, only the plan's bill
 * does (gp_rec_downside_wait).  `policy` is its cost under the scenario's own
 * policy; `base` as launched (training on spot when routing was taken).
 */
struct downside_job {
    const struct ctx *c;
    bool routed;
    gp_trace *down; /* NULL: the window is too short for the case */
    double policy, base;
    gp_status st;
    gp_error err;
    pthread_t thread;
    bool threaded, waited;
};

/* ---- recommend.c: a run's bills ------------------------------------------ */

/* Sets c up for the window [start_hour, start_hour + n_hours) of t, with
 * s's baseline strategy alone and nothing added. */
void gp_rec_ctx_init(struct ctx *c, const gp_trace *t, const gp_pricing *p,
                     const gp_scenario *s, int64_t start_hour,
                     size_t n_hours, const gp_recommend_options *opt);

/* *dst = a copy of c whose policy can change without changing c's. */
void gp_rec_ctx_copy(struct ctx *dst, const struct ctx *c);

/* Bills c's window of t (NULL: c's trace) with `extra` commitments on top
 * of the owned ones; *out is the caller's to free. */
gp_status gp_rec_bill(const struct ctx *c, const gp_trace *t,
                      const gp_commitment *extra, size_t n_extra,
                      gp_ledger **out, gp_error *err);

/* gp_rec_bill's total cost alone (NAN on failure). */
gp_status gp_rec_bill_cost(const struct ctx *c, const gp_trace *t,
                           const gp_commitment *extra, size_t n_extra,
                           double *cost, gp_error *err);

/* Runs two independent bills at once; the ledgers are the caller's. */
gp_status gp_rec_bill_two(struct bill_job *a, struct bill_job *b,
                          gp_error *err);

/* The recommendation for c's window into r (`details`: the balanced
 * plan's actions and curves too). */
/* The capacity action: the window's largest job runs priced on every
 * option, when the instruments allow it (recommend_capacity.c). */
gp_status gp_rec_capacity(const struct ctx *c, gp_recommendation *r,
                          gp_error *err);

gp_status gp_rec_window(struct ctx *c, gp_recommendation *r, bool details,
                        gp_error *err);

/* ---- recommend_low.c: the low-demand case -------------------------------- */

/* Starts the low-demand case of c on a second thread (or here). */
void gp_rec_downside_start(struct downside_job *j, const struct ctx *c,
                           bool routed);

/* Waits for the low-demand case; its status (and error in err). */
gp_status gp_rec_downside_wait(struct downside_job *j, gp_error *err);

/* Frees the low-demand case's trace (NULL: nothing). */
void gp_rec_downside_free(gp_trace *d);

/* ---- recommend_plans.c: the plans ---------------------------------------- */

/* The longest term the window's history supports (3 or 1); *share is its
 * last 13 weeks' mean demand over the whole's (NAN under 26 weeks). */
int gp_rec_supported_term(const struct ctx *c, double *share);

/* A span of hours in words: "13 weeks", "3.9 weeks", "100 hours". */
void gp_rec_span_words(size_t hours, char *buf, size_t size);

/* Why 3-year terms are not supported, after "as". */
void gp_rec_unsupported_why(const gp_recommendation *r, size_t n_hours,
                            bool forecast, char *buf, size_t size);

/* A commitment's upfront payment, less the scenario's discount. */
double gp_rec_upfront_of(const struct ctx *c, const gp_commitment *cm);

/* Sizes one plan with the optimizer on `size_on` and bills it on the
 * window and in the low-demand case. */
gp_status gp_rec_make_plan(const struct ctx *c, const gp_trace *size_on,
                           struct downside_job *low, const char *name,
                           int max_term, unsigned payments, double policy_cost,
                           const gp_opt *warm, gp_plan_result *out,
                           gp_opt **opt_out, gp_ledger **ledger_out,
                           gp_error *err);

/* Plan i's longest term bought (max_term) and its risk in words. */
void gp_rec_plan_risk(const struct ctx *c, gp_recommendation *r, int i);

/* ---- recommend_rank.c: the actions --------------------------------------- */

/* Adds a zeroed action to r; its index, or -1 when memory ran out. */
int gp_rec_action_grow(gp_recommendation *r);

/* Ranks the plan's purchases as actions after the routing one, each with
 * its savings on top of those above it. */
gp_status gp_rec_rank_actions(const struct ctx *c, gp_recommendation *r,
                              const gp_plan_result *plan,
                              const gp_ledger *plan_bill, gp_opt *o,
                              const gp_trace *downside, double down_base,
                              gp_error *err);

/* The savings curves of the first few actions' instruments. */
gp_status gp_rec_make_curves(gp_recommendation *r, gp_opt *full,
                             double plan_net);

/* ---- recommend_renewals.c, recommend_forward.c --------------------------- */

/* The owned commitments that expire in or soon after the window, as
 * renewal actions after the plan's. */
gp_status gp_rec_renewals(const struct ctx *c, gp_recommendation *r,
                          const gp_plan_result *plan, const gp_trace *downside,
                          gp_error *err);

/* The recommendation for the forecast of opt->forward_hours (the forward
 * parameter). */
gp_status gp_rec_forward(const gp_trace *trace, const gp_pricing *pricing,
                         const gp_scenario *s, const gp_recommend_options *opt,
                         gp_recommendation *r, gp_error *err);

#endif
