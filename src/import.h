/*
 * import.h: converters from the formats users already have into gpuplan's
 * own (SPEC section 1, `gpuplan import`).  Each importer reads its input
 * files and writes one canonical document, a trace CSV (SPEC section 2) or
 * a catalog JSON (SPEC section 3), to `out`.  cmd_import.c picks the
 * importer by name and makes the output atomic (the output is written to
 * a temporary name and renamed only when the importer succeeded). Errors are
 * reported like every other parser's: file, line, column and field of the
 * offending input, first error wins, return GP_ERR_*.
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
    /* billing importers (focus, aws-cur): where to write the commitments
     * the bill shows as owned, as a scenario JSON; NULL: not written */
    const char *commitments_out;
    /* one-line summaries for the user (rows skipped and why, commitments
     * found); the command prints them to stderr; NULL: not collected */
    gp_warnings *notes;
    /* telemetry importers (import_telemetry.c): the catalogs that give an
     * instance type's GPU count (and turn a GPU model name into a type when
     * instance_type is NULL); the length of one sample in seconds when a
     * GPU has only one (the step parameter, 0 = not given); and the time of a
     * DCGM scrape that carries no timestamps (the time parameter) */
    const gp_pricing *pricing;
    double step_s;
    bool has_time;
    double time;
} gp_import_options;

typedef gp_status (*gp_importer_fn)(const gp_import_options *opt, FILE *out,
                                    gp_error *err);

typedef struct gp_importer {
    const char *name;    /* "nvidia-smi", "dcgm", ... */
    const char *summary; /* one line for the import command's help */
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

/* Spot capacity and interruptions: import_spot.c */
gp_status gp_import_spot_availability(const gp_import_options *opt, FILE *out,
                                      gp_error *err);
gp_status gp_import_spot_events(const gp_import_options *opt, FILE *out,
                                gp_error *err);

/* One recorded spot interruption warning: when, and the job it names
 * ("" when untagged). */
typedef struct gp_spot_event {
    int64_t t;
    char *job_id;
} gp_spot_event;

/* Reads the events of one file in either of spot-events' forms into
 * *events (gp_spot_events_free), *n of them. */
gp_status gp_spot_events_read(const char *path, gp_spot_event **events,
                              size_t *n, gp_error *err);
void gp_spot_events_free(gp_spot_event *events, size_t n);

/* Sets every job row's recorded_interruptions of l: the events naming its
 * job from its start to its end.  Returns how many events were counted. */
struct gp_ledger;
size_t gp_ledger_count_recorded(struct gp_ledger *l, const gp_trace *t,
                                const gp_spot_event *events, size_t n);

/* Billing exports: import_billing.c */
gp_status gp_import_focus(const gp_import_options *opt, FILE *out,
                          gp_error *err);
gp_status gp_import_aws_cur(const gp_import_options *opt, FILE *out,
                            gp_error *err);

/* Entry points on memory buffers, for the fuzz targets and unit tests:
 * the same as the file importers with one input `name` holding `data`.
 * gp_import_aws_offer_buffer takes an offer file or a savings-plan rate
 * file; gp_import_spot_advisor_buffer takes the advisor feed and the base
 * catalog it adds spot prices to. */
gp_status gp_import_aws_offer_buffer(const char *data, size_t len,
                                     const char *name,
                                     const gp_import_options *opt, FILE *out,
                                     gp_error *err);
gp_status gp_import_spot_advisor_buffer(const char *advisor, size_t len,
                                        const char *name, const char *catalog,
                                        size_t catalog_len,
                                        const char *catalog_name, FILE *out,
                                        gp_error *err);
gp_status gp_import_focus_buffer(const char *data, size_t len,
                                 const char *name, const gp_import_options *opt,
                                 FILE *out, gp_error *err);
gp_status gp_import_aws_cur_buffer(const char *data, size_t len,
                                   const char *name,
                                   const gp_import_options *opt, FILE *out,
                                   gp_error *err);

/* Telemetry on memory buffers (fuzz targets, unit tests): one input
 * `name` holding `data`, otherwise as gp_import_nvidia_smi etc. */
gp_status gp_import_nvidia_smi_buffer(const char *data, size_t len,
                                      const char *name,
                                      const gp_import_options *opt, FILE *out,
                                      gp_error *err);
gp_status gp_import_dcgm_buffer(const char *data, size_t len, const char *name,
                                const gp_import_options *opt, FILE *out,
                                gp_error *err);
gp_status gp_import_prometheus_buffer(const char *data, size_t len,
                                      const char *name,
                                      const gp_import_options *opt, FILE *out,
                                      gp_error *err);

#endif
