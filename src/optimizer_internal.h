/*
 * optimizer_internal.h: what the optimizer's files share (not a public
 * header): the per-solve work area a billing pass fills and the updates
 * read, and the steps gp_opt_solve (optimizer.c) takes from
 * optimizer_search.c.
 */
#ifndef GP_OPTIMIZER_INTERNAL_H
#define GP_OPTIMIZER_INTERNAL_H

#include "optimizer.h"

/* What reaches a plan in one hour: a pool, its demand left, and what a
 * plan dollar spent on it is worth. */
struct entry {
    uint32_t pool;
    float need;  /* its demand left, in plan dollars */
    float worth; /* what a plan dollar spent on it saves */
};

/* A step of a plan's marginal-dollar worth: at commitment `at` it changes
 * by `delta` (best_plan). */
struct step {
    double at, delta;
};
#define PLAN_BUCKETS 4096

/* A plan's lists of one pass, hour by hour: the hours before `mid` in
 * part 0, those from it in part 1 (a pass bills the two halves apart,
 * gp_opt_pass); hour_start[h] indexes hour h's part. */
struct arena {
    struct entry *e[2];
    size_t n[2], cap[2];
    size_t mid;
    size_t *hour_start; /* [n_hours + 1] */
};

/* Hour h's entries of arena a: e[*i0] up to e[*i1]. */
static inline const struct entry *gp_arena_hour(const struct arena *a,
                                                size_t h, size_t *i0,
                                                size_t *i1)
{
    *i0 = a->hour_start[h];
    *i1 = h + 1 == a->mid ? a->n[0] : a->hour_start[h + 1];
    return a->e[h >= a->mid];
}

/* Per-solve scratch that is not part of the public struct. */
struct work {
    struct arena *arenas;    /* by plan */
    long *pos;               /* [plan][pool] index in the plan's list, -1 */
    uint32_t *plans_of;      /* [pool][..] plans that may cover it, in order */
    size_t *n_plans_of;      /* [pool] how many */
    long *marg;              /* [plan] marginal position this hour */
    double *acc;             /* best_reservation's sums */
    size_t acc_cap;
    double *bucket;          /* [PLAN_BUCKETS + 1] best_plan's buckets */
    double *gain;            /* [plan] what its last sizing saves, at least */
    bool *worthless;         /* [plan] its first dollar was worth less */
    double *cur;             /* [pool] record_values' unit values */
    struct step *steps;      /* best_plan's steps in one bucket */
    size_t steps_cap;
    bool nomem; /* an allocation failed: the solve is void */
};


/* The polish tries a few exchanges per pool, each a pass or two: its time
 * grows with pools x list entries a pass.  64 pools of a year (the
 * 64-pool bench, 1.1e8) is where it was first bounded; above 64 pools it
 * runs while the problem is no larger than that. */
#define POLISH_BUDGET 1.1e8

/* Bills every hour under the current decisions; with `w`, also records
 * what the updates read.  Returns the window's amortized cost (NAN with
 * w->nomem when memory ran out). */
double gp_opt_pass(gp_opt *o, struct work *w);

/* Sets the decisions to the saved ones (n by pool, S by plan). */
void gp_opt_restore(gp_opt *o, const double *n, const double *S);

/* Up to `rounds` successive averages toward every decision's best
 * response (only the plans' unless `pools_too`), the best point seen in
 * best_n and best_S.  Returns its cost. */
double gp_opt_averages(gp_opt *o, struct work *w, int rounds, bool pools_too,
                       double *best_n, double *best_S);

/* Transfers from each compute plan to the family plans while one pays,
 * the plans sized again after each round.  Returns whether any moved. */
bool gp_opt_transfers(gp_opt *o, struct work *w, int rounds, double *best_n,
                      double *best_S);

/* Exchanges around every pool while one pays (small problems only). */
void gp_opt_polish(gp_opt *o, struct work *w, int rounds, double *best_n,
                   double *best_S);

/* The transfers tried once more after the polish, kept if cheaper. */
void gp_opt_transfer_after_polish(gp_opt *o, struct work *w, int rounds,
                                  double *best_n, double *best_S);

/* Each plan, in turn, to its best response while that is cheaper than
 * `cost`.  Returns the cost where it stopped. */
double gp_opt_best_responses(gp_opt *o, struct work *w, double per_pass,
                             double cost);

/* Drops the plans to buy that save less than a dollar over the window.
 * Returns the cost after. */
double gp_opt_drop_small_plans(gp_opt *o, struct work *w, double cost);

#endif
