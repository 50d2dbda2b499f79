/*
 * capacity.h: what a job run costs on the capacity instruments (SPEC
 * 7.4): an AWS capacity block or a GCP calendar reservation sized to the
 * run, paid for whole, and GCP flex-start, billed as used after a wait.
 * The rules and the arithmetic are in docs/billing.md.
 */
#ifndef GP_CAPACITY_H
#define GP_CAPACITY_H

#include "gpuplan.h"

/* AWS's limits on a capacity block: 1 to 14 days in 1-day steps, then
 * 7-day steps up to 182 days; at most 64 instances a block; instances
 * are reclaimed 30 minutes before the block ends. */
#define GP_BLOCK_MAX_DAYS 182
#define GP_BLOCK_MAX_INSTANCES 64
#define GP_BLOCK_RECLAIM_H 0.5
/* GCP's: calendar reservations of 1 to 90 days, flex-start requests of at
 * most 7 days. */
#define GP_CALENDAR_MAX_DAYS 90
#define GP_FLEX_MAX_DAYS 7.0

/* Whether a capacity block of `days` days is sold (1..14, 21, 28, ...,
 * 182). */
bool gp_block_days_sold(int days);

/* A job run priced on one instrument. */
typedef struct gp_capacity_quote {
    bool available;       /* the catalog sells it for this run */
    double cost;          /* $ for the run, before the scenario discount */
    int days;             /* block or reservation: its length */
    int units;            /* blocks, reservations or flex-start requests */
    double instances;     /* reserved: whole instances (the peak rounded up) */
    double unused_h;      /* reserved: hours after the run to the end */
    double unused_ih;     /* reserved: instance-hours paid and not used */
    double wait_h;        /* flex-start: expected waits, all requests */
    double finish_h;      /* hours from the run's start to its end */
    bool estimate;        /* the price is an estimate */
} gp_capacity_quote;

/* A run of `instances` (peak) for `hours` of wall time using `ih`
 * instance-hours, on a capacity block (calendar false) or a calendar
 * reservation (calendar true) of the offers given: the cheapest offer
 * whose days take the run, the run starting with its block.  Not
 * available when none does (the run is too long). */
void gp_quote_reservation(const gp_capacity_offer *offers, size_t n,
                          bool calendar, double instances, double hours,
                          double ih, gp_capacity_quote *out);

/* The same run on flex-start: ceil(hours / (max_days x 24)) requests,
 * each waiting expected_wait_h and each after the first restarting, at
 * `restart_h` on every instance; billed as used at the flex price. */
void gp_quote_flex(const gp_flex_offer *f, double instances, double hours,
                   double ih, double restart_h, gp_capacity_quote *out);

/* Whether a policy that launches job runs on a capacity instrument
 * (launch, on type it) bills run jr of a window [ws, we) (seconds) on it:
 * the run starts in the window and the catalog sells the instrument for
 * it; *q, when not NULL, gets its quote.  Otherwise it runs on demand. */
bool gp_capacity_takes_run(const gp_instance_type *it, const gp_job_run *jr,
                           gp_launch launch, double restart_h, int64_t ws,
                           int64_t we, gp_capacity_quote *q);

#endif
