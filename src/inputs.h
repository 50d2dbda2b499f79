/*
 * inputs.h: loading everything a run reads (catalogs, scenario, traces)
 * in one call, in the order each needs the one before (inputs.c).
 */
#ifndef GP_INPUTS_H
#define GP_INPUTS_H

#include "gpuplan.h"

/* What to load.  The caller names every file: the library knows of no
 * bundled catalog or sample. */
typedef struct gp_inputs_spec {
    const char *const *pricing; /* catalog files or folders, in order */
    size_t n_pricing;
    const char *scenario; /* scenario JSON; NULL: gp_scenario_default */
    const char *const *traces; /* trace CSV files; "-" is standard input */
    size_t n_traces;
    gp_trace_options trace_opt; /* layout, step, map, rejects, progress */
    int64_t today; /* epoch seconds: catalogs' dates are judged by it */
    /* called once every row of every trace was read, before the trace is
     * put together (a file of rejected rows is complete then); a status
     * other than GP_OK fails the load with it.  May be NULL. */
    gp_status (*rows_read)(void *ctx, gp_error *err);
    void *rows_read_ctx;
    /* NULL: the scenario's first error fails the load; else every error
     * of the scenario (read, then checked against the catalogs) goes
     * here, the first first, before the load fails with the first */
    gp_error_list *scenario_errors;
} gp_inputs_spec;

/* Everything a command reads, loaded and checked against each other. */
typedef struct gp_inputs {
    gp_pricing *pricing;
    gp_scenario *scenario;
    gp_trace *trace;
    bool used_sample; /* the caller's: the trace is the bundled sample */
} gp_inputs;

/* Loads the catalogs, then the scenario (checked against them), then the
 * traces into one trace; drops the catalogs' warnings of catalogs the
 * trace and scenario do not use, and sets the money format's currency to
 * the catalogs'.  On failure err says why, and what was loaded is freed
 * (*in is zeroed). */
gp_status gp_inputs_load(const gp_inputs_spec *spec, gp_inputs *in,
                         gp_error *err);

/* gp_inputs_load in its two steps, for a caller with checks to make
 * between them: the catalogs, then the scenario checked against them, into
 * a zeroed *in; then the traces (the catalogs' warnings of what the run
 * does not use are dropped).  On failure err says why and *in keeps what
 * was loaded, for gp_inputs_free. */
gp_status gp_inputs_load_catalogs(const gp_inputs_spec *spec, gp_inputs *in,
                                  gp_error *err);
gp_status gp_inputs_load_traces(const gp_inputs_spec *spec, gp_inputs *in,
                                gp_error *err);

/* Frees what *in holds and zeroes it (not in itself); NULL is a no-op. */
void gp_inputs_free(gp_inputs *in);

#endif
