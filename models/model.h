/*
 * model.h: the one interface every purchasing model implements: a const
 * table of functions (prepare, bill_hour, finish, free) the engine calls
 * in billing order, reserved -> savings_plan -> on_demand for usage
 * launched on demand and spot for usage launched on spot, and the model
 * table gp_models.  The reasoning is in docs/design/models.md.
 */
#ifndef GP_MODEL_H
#define GP_MODEL_H

#include "engine.h"

/* What every model may read: immutable for the whole run.  The window,
 * the policies, the price factors and the Monte Carlo settings are the
 * spec's. */
typedef struct gp_model_input {
    const gp_trace *trace;
    const gp_pricing *pricing;
    const gp_run_spec *spec;
    /* all commitments of the run: owned + the strategy's + extra */
    const gp_commitment *const *commitments;
    size_t n_commitments;
    /* per pool: the on-demand rate (before the scenario discount) */
    const double *od_rate;
} gp_model_input;

/* One clock hour as the models see it. */
typedef struct gp_hour {
    size_t h;       /* index into the window */
    int64_t t;      /* epoch seconds at its start */
    double *remaining;     /* [pool] on-demand launched, not yet paid for */
    double *spot;          /* [pool] spot launched instance-hours */
    double *covered_value; /* [pool] on-demand value covered by commitments */
    double *od_cost;       /* [pool] billed on demand this hour */
    double *spot_cost;     /* [pool] spot usage's cost this hour, its
                              on-demand fallback included */
    gp_ledger_hour *row;
    double commitment_cost; /* reserved + savings plan cost of the hour */
    /* [pool] the part of commitment_cost charged to the pool: each
     * commitment's cost of the hour (a reservation family's, together)
     * split over the pools in proportion to the on-demand value it covered
     * there; a commitment that covered nothing charges no pool */
    double *commit_cost;
    /* [series] the part of spot_cost that is job runs' (spot and fallback),
     * by the series each run belongs to, and those runs' instance-hours:
     * chargeback gives each job its own cost and splits only the rest of
     * the pool's spot cost by instance-hours */
    double *job_spot_cost;
    double *job_spot_ih;
    bool job_spot; /* set when a model wrote to them this hour */
} gp_hour;

typedef struct gp_model {
    const char *name;
    gp_model_id id;       /* where the ledger holds its cost */
    const char *cost_key; /* its cost's JSON key and CSV column */
    const char *label;    /* its cost's column in the terminal table */
    const char *title;    /* ... and in the workbook */
    /* Builds the model's state for one run; *state may stay NULL when the
     * model has nothing to do. */
    gp_status (*prepare)(const gp_model_input *in, void **state,
                         gp_error *err);
    /* Bills one hour. */
    void (*bill_hour)(void *state, const gp_model_input *in, gp_hour *hour);
    /* Writes per-commitment or per-job results after the last hour. */
    gp_status (*finish)(void *state, const gp_model_input *in,
                        gp_ledger *ledger);
    void (*free)(void *state);
} gp_model;

extern const gp_model gp_model_reserved;
extern const gp_model gp_model_savings_plan;
extern const gp_model gp_model_on_demand;
extern const gp_model gp_model_spot;
extern const gp_model gp_model_capacity;

/* The model table: every model, by gp_model_id (models.c).  Adding a
 * purchasing model adds it here, to gp_model_id and to the engine's
 * billing chain; the ledger and the writers follow. */
extern const gp_model *const gp_models[GP_N_MODELS];

/* Resolves the pool index of a type in a catalog, or -1 when the trace has
 * no demand for it. */
long gp_model_pool_of(const gp_trace *trace, const gp_catalog *cat,
                      const gp_instance_type *type);

/* Which of n job runs each window hour holds (a counting sort of their
 * hours): those active in window hour h are (*active)[(*at)[h],
 * (*at)[h + 1]), as indices i < n.  Run i's index into in->trace->runs
 * is at run, `stride` bytes apart (&runs[0].run, sizeof *runs).  Hours
 * with no instance-hours of the run are left out when skip_empty.  False
 * when out of memory; *at and *active (either may be NULL) are the
 * caller's to free either way. */
bool gp_model_index_runs(const gp_model_input *in, const uint32_t *run,
                         size_t stride, size_t n, bool skip_empty,
                         size_t **at, uint32_t **active);

/* Hours [first, last) of the window in which a commitment is active. */
void gp_commitment_active_hours(const gp_commitment *c, int64_t start_hour,
                                size_t n_hours, size_t *first, size_t *last);

#endif
