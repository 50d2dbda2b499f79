/*
 * policy.h: purchase policies replayed over a trace (issue #36, SPEC
 * 7.3): at every review date a policy buys from what it could have known
 * then; its commitments accumulate and expire; the whole window is then
 * billed with them, and the result has the KPIs FinOps reports (effective
 * savings rate, coverage, utilization, lock-in).  docs/policies.md.
 *
 * Library code: never prints; errors go to the caller's gp_error.
 */
#ifndef GP_POLICY_H
#define GP_POLICY_H

#include "engine.h"
#include "gpuplan.h"

/* One calendar month of a replay. */
typedef struct gp_policy_month {
    int year, month;
    double total_cost, all_on_demand_cost;
    double esr;      /* (all on demand - total) / all on demand */
    double coverage; /* on-demand value covered / launched on demand */
    double upfront;  /* cash paid up front for what was bought in it */
} gp_policy_month;

typedef struct gp_policy_result {
    const gp_purchase_policy *policy;
    double total_cost, all_on_demand_cost;
    double esr, coverage;
    double commitment_utilization; /* of the commitments' window cost */
    double unused_commitment_cost;
    /* commitment still owed after the window ends (amortized rate x hours
     * left), and that in months of the last month's total cost */
    double lock_in_cost, lock_in_months;
    gp_commitment *purchases; /* `start` is when it was bought */
    size_t n_purchases;
    gp_policy_month *months;
    size_t n_months;
} gp_policy_result;

/* Replays policy pp over strategy 0 of s (its policy and owned
 * commitments), billed as `eo` says (window, Monte Carlo, threads), into
 * *out.  Reviews fall on the first day of a month (every review_months),
 * the first once lookback_hours of history are there. */
gp_status gp_policy_replay(const gp_trace *t, const gp_pricing *p,
                           const gp_scenario *s, const gp_purchase_policy *pp,
                           const gp_engine_options *eo, gp_policy_result *out,
                           gp_error *err);
void gp_policy_result_free(gp_policy_result *r);

/* "aws", "forward", "ladder", "coverage". */
const char *gp_purchase_kind_name(gp_purchase_kind k);

#endif
