/*
 * import.h: converters from the formats users already have into gpuplan's
 * own (SPEC section 1, `gpuplan import`).  Each importer reads its input
 * files and writes one canonical document, a trace CSV (SPEC section 2) or
 * a catalog JSON (SPEC section 3), to `out`.  cmd_import.c picks the
 * importer by name and makes the output atomic (--out is written to a
 * temporary name and renamed only when the importer succeeded).
 *
 * Errors are reported like every other parser's: file, line, column and
 * field of the offending input, first error wins, return GP_ERR_*.
 */
#ifndef GP_IMPORT_H
#define GP_IMPORT_H

#include "gpuplan.h"

#include <stdio.h>

typedef struct gp_import_options {
    const char *const *inputs; /* files; "-" is standard input */
    size_t n_inputs;
    /* for telemetry that does not name its instance type (nvidia-smi,
     * dcgm, prometheus); NULL when not given */
    const char *provider;
    const char *region;
    const char *instance_type;
} gp_import_options;

typedef gp_status (*gp_importer_fn)(const gp_import_options *opt, FILE *out,
                                    gp_error *err);

typedef struct gp_importer {
    const char *name;    /* "nvidia-smi", "dcgm", ... */
    const char *summary; /* one line for `gpuplan import --help` */
    gp_importer_fn run;
} gp_importer;

/* Telemetry: import_telemetry.c */
gp_status gp_import_nvidia_smi(const gp_import_options *opt, FILE *out,
                               gp_error *err);
gp_status gp_import_dcgm(const gp_import_options *opt, FILE *out,
                         gp_error *err);
gp_status gp_import_prometheus(const gp_import_options *opt, FILE *out,
                               gp_error *err);

/* Pricing: import_pricing.c */
gp_status gp_import_aws_offer(const gp_import_options *opt, FILE *out,
                              gp_error *err);
gp_status gp_import_spot_advisor(const gp_import_options *opt, FILE *out,
                                 gp_error *err);

/* Billing exports: import_billing.c */
gp_status gp_import_focus(const gp_import_options *opt, FILE *out,
                          gp_error *err);
gp_status gp_import_aws_cur(const gp_import_options *opt, FILE *out,
                            gp_error *err);

#endif
