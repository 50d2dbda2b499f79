/*
 * synth.h: long traces from short real ones (issue #36, `gpuplan synth`):
 * a seeded bootstrap of the trace's whole weeks into years, with growth,
 * decline, a step change and a migration to another instance type as
 * options.  What it can and cannot stand for: docs/synth.md.
 *
 * Library code: never prints; errors go to the caller's gp_error.
 */
#ifndef GP_SYNTH_H
#define GP_SYNTH_H

#include "gpuplan.h"

#include <stdio.h>

typedef struct gp_synth_options {
    double years;   /* how long the trace made is: 0.01 to 10 */
    uint64_t seed;  /* the bootstrap's */
    double growth;  /* monthly rate, compounded (0.02: 2% a month) */
    double decline; /* monthly rate of decline, compounded */
    /* from step_at (epoch seconds; 0: none) on, demand x step_factor */
    int64_t step_at;
    double step_factor;
    /* from migrate_at (epoch seconds; 0: none) on, the usage of type
     * migrate_from runs on migrate_to, migrate_equiv of them for each */
    int64_t migrate_at;
    const char *migrate_from, *migrate_to;
    double migrate_equiv;
} gp_synth_options;

void gp_synth_options_init(gp_synth_options *o);

/* Writes the trace made from t as hourly CSV rows to f (header
 * timestamp,step_s,provider,region,instance_type,workload,instances,
 * team,project,interruptible).  It starts where t's first whole week does;
 * every week of it is one of t's whole weeks, drawn at random (the same
 * week for every series, so that they keep moving together).  Errors: t
 * has under a week of data, or the migration's types are not in the
 * catalogs (`p`) of the pools they would replace. */
gp_status gp_synth_write(FILE *f, const gp_trace *t, const gp_pricing *p,
                         const gp_synth_options *o, gp_error *err);

#endif
