/*
 * optimizer.h: the cheapest set of commitments for a window of demand.
 *
 * Chooses a reservation count for every pool and an hourly commitment for
 * every savings plan that minimize the window's amortized cost, billed
 * exactly as the engine bills it.  The method (billing passes that price
 * each unit of demand, then weighted-quantile updates until nothing
 * moves) is in docs/design/optimizer.md.
 */
#ifndef GP_OPTIMIZER_H
#define GP_OPTIMIZER_H

#include "engine.h"
#include "gpuplan.h"

/* A plan's hourly commitment is bought in whole steps of 1/GP_PLAN_STEPS
 * dollars (a tenth of a cent), rounded to the nearest. */
#define GP_PLAN_STEPS 1000

/* A pool as the optimizer sees it. */
typedef struct gp_opt_pool {
    const gp_catalog *catalog;
    const gp_instance_type *type;
    double od;      /* on-demand rate */
    double *demand; /* [n_hours] on-demand launched, after owned RIs */
    /* the reservation it may buy (NULL: none) and its effective rate */
    const gp_reserved_offer *ri_offer;
    double ri_rate;
    double n;       /* reserved instances (the decision) */
    double n_fixed; /* if >= 0, n is held at this */
} gp_opt_pool;

/* One pool a plan may cover, at what rate. */
typedef struct gp_opt_eligible {
    uint32_t pool;
    double rate;
} gp_opt_eligible;

/* A savings plan: owned (fixed) or to buy. */
typedef struct gp_opt_plan {
    gp_plan_kind kind;
    char provider[16], region[32], family[32];
    int term_years;
    gp_payment payment;
    bool fixed;         /* owned: S is given */
    double S;           /* $/h */
    size_t first, last; /* active window hours */
    gp_opt_eligible *el; /* in covering order */
    size_t n_el;
} gp_opt_plan;

typedef struct gp_opt {
    size_t n_hours;
    gp_opt_pool *pools;
    size_t n_pools;
    gp_opt_plan *plans; /* in billing order */
    size_t n_plans;
    /* scratch for the passes */
    float *value;    /* [pool][hour] what one more unit of demand costs */
    double *lambda;  /* [plan] worth of one more plan dollar, this hour */
    double *resid;   /* [pool] scratch */
    int rounds;      /* passes made by the last solve */
    int max_rounds;  /* > 0: at most this many averaging rounds (a warm
                        start needs fewer) */
    bool quick_drop; /* drop plans whose first dollar saved nothing without
                        costing each (samples of large problems) */
    bool no_cost;    /* the caller does not use gp_opt_solve's cost: a
                        problem solved on a sample returns NAN instead of
                        billing every hour once more */
    bool split;      /* a pass bills the first and second half of the
                        hours apart and adds them in that order, the same
                        on one thread or two */
    int threads;     /* > 1 with split: the halves run on two threads */
    bool nomem;      /* memory ran out in gp_opt_solve, gp_opt_sampled
                        or gp_opt_cost_local: the decisions and costs are
                        not to be used (it stays set) */
} gp_opt;

/*
 * Builds the problem for `trace` launched under the policies of `spec`
 * over its window: per-pool demand after the reservations among its
 * commitments, its plans as fixed, and, for every pool, the
 * cheapest reservation offer allowed by `max_term` and `payments` (a bit
 * per gp_payment), and savings plans to buy (compute per provider,
 * instance_family per provider, region and family) at their cheapest
 * allowed offer.  `demand_scale` (NULL or [n_hours]) replaces demand by a
 * scenario.
 */
gp_status gp_opt_build(gp_opt **out, const gp_trace *trace,
                       const gp_pricing *pricing, const gp_run_spec *spec,
                       int max_term, unsigned payments, gp_error *err);

/* What the optimizer may buy, as the clouds' recommenders let a user say
 * (SPEC 7.2): a bit per term in years (GP_TERM_BIT(1) | GP_TERM_BIT(3)),
 * per gp_payment, per instrument (GP_BUY_*). */
#define GP_TERM_BIT(years) (1u << (years))
enum {
    GP_BUY_RESERVED = 1,
    GP_BUY_FAMILY_PLAN = 2,
    GP_BUY_COMPUTE_PLAN = 4,
    GP_BUY_ALL = 7
};
typedef struct gp_opt_choices {
    unsigned terms, payments, instruments;
    /* a scenario whose strategies migrate a type (SPEC 7.5), or NULL: a
     * reservation of that type bought at buy_at (epoch seconds) must pay
     * for itself over the hours before the migration, its stranded hours
     * after it counted */
    const gp_scenario *migrations;
    int64_t buy_at;
} gp_opt_choices;

/* gp_opt_build with the choices spelled out (gp_opt_build is this with
 * terms up to max_term and every instrument). */
gp_status gp_opt_build_choices(gp_opt **out, const gp_trace *trace,
                               const gp_pricing *pricing,
                               const gp_run_spec *spec,
                               const gp_opt_choices *ch, gp_error *err);
void gp_opt_free(gp_opt *o);

/* Starts o's decisions from `from`'s: reservations by pool, plans by
 * kind, provider, region and family (the problems share the trace). */
void gp_opt_warm_start(gp_opt *o, const gp_opt *from);

/* The window's cost of the current decisions (amortized, undiscounted). */
double gp_opt_cost(gp_opt *o);

/* The cost of only the pools plan k may cover (their reservations,
 * hours and the plans over them), or NAN when a plan with dollars also
 * covers pools outside them (then only gp_opt_cost will do).  Cheap
 * marginals for family plans. */
double gp_opt_cost_local(gp_opt *o, size_t k);

/* A copy of o with its decisions (NULL for NULL or out of memory). */
gp_opt *gp_opt_clone(const gp_opt *o);

/* For a problem large enough to be solved on a sample of its hours (see
 * optimizer.c), that sample with the current decisions: a new gp_opt for
 * gp_opt_free.  NULL for smaller problems, or out of memory (o->nomem). */
gp_opt *gp_opt_sampled(gp_opt *o);

/* Finds the cheapest decisions (reservations whole), from the current
 * ones.  Returns the cost (NAN with o->no_cost on a sampled problem), or
 * NAN with o->nomem set when memory ran out. */
double gp_opt_solve(gp_opt *o);

/* The decisions as commitments starting at `start` (seconds): one
 * reservation per pool with n > 0, one plan per plan to buy with S > 0.
 * *out is a new array. */
gp_status gp_opt_commitments(const gp_opt *o, int64_t start,
                             gp_commitment **out, size_t *n);

#endif
