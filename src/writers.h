/*
 * writers.h: the output side: a run's inputs and ledgers written as JSON
 * (SPEC section 5), CSV tables, and terminal text.  Internal to the
 * program; jansson appears here and in no public header.
 */
#ifndef GP_WRITERS_H
#define GP_WRITERS_H

#include "engine.h"
#include "gpuplan.h"

#include <jansson.h>
#include <stdio.h>

/* What a report says about where its numbers came from. */
typedef struct gp_run_info {
    const char *command;
    const gp_pricing *pricing;
    const gp_scenario *scenario;
    const gp_trace *trace;
    bool used_sample;
    gp_warnings warnings; /* owned: pricing warnings plus the run's own */
} gp_run_info;

/* Fills info->warnings from the pricing's and from what the ledgers used
 * (estimated rates, spot above on-demand). */
void gp_run_info_warn(gp_run_info *info, gp_ledger *const *ledgers,
                      size_t n);

/* A number, or null when it is not a number (utilization with nothing
 * bought, cost per useful GPU-hour without utilization data). */
json_t *gp_json_number_or_null(double v);

/* {"start", "end", "hours"} of a ledger's window. */
json_t *gp_json_window(int64_t start_hour, size_t n_hours);

/* A commitment: type, provider, region, instance_type and count, or kind
 * (family) and hourly_commitment, then term_years, payment, start. */
json_t *gp_json_commitment(const gp_commitment *c);

/* One strategy as SPEC section 5 names its keys, plus months and
 * commitments. */
json_t *gp_json_ledger(const gp_ledger *l, const gp_trace *t);

/* The inputs block: catalogs, scenario, trace statistics, warnings. */
json_t *gp_json_inputs(const gp_run_info *info);

/* Prints a document to stdout, one line, keys in insertion order. */
int gp_json_print(json_t *doc);

/* --csv DIR: hourly.csv, monthly.csv, spot_jobs.csv, chargeback.csv and
 * commitments.csv, each written whole or not at all. */
gp_status gp_csv_write_ledgers(const char *dir, gp_ledger *const *ledgers,
                               size_t n, const gp_trace *t, gp_error *err);

/* "$1,234.56" */
void gp_format_money(double v, char *buf, size_t size);

#endif
