/*
 * telemetry_fuzz.h: what the three telemetry fuzz targets (fuzz_nvidia_smi.c,
 * fuzz_dcgm.c, fuzz_prometheus.c) share: a small catalog held in memory
 * (so a target needs no files) and a run of one importer on the input, once
 * picking the instance type from the GPU model and once with it given, so
 * that both the parser and the writer behind it are exercised.
 */
#ifndef GP_TELEMETRY_FUZZ_H
#define GP_TELEMETRY_FUZZ_H

#include "gpuplan.h"
#include "import.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

/* Types with one and several GPUs of a model, so that model matching can
 * find one, several or none. */
static const char telemetry_fuzz_catalog[] =
    "{\"schema\": \"gpuplan-catalog/1\", \"provider\": \"aws\", "
    "\"region\": \"us-east-1\", \"currency\": \"USD\", "
    "\"as_of\": \"2026-07-20\", \"instance_types\": {"
    "\"g6.xlarge\": {\"gpu_model\": \"L4\", \"gpus\": 1, \"on_demand\": 0.8},"
    "\"g6.2xlarge\": {\"gpu_model\": \"L4\", \"gpus\": 1, \"on_demand\": 0.9},"
    "\"g6.12xlarge\": {\"gpu_model\": \"L4\", \"gpus\": 4, \"on_demand\": 4.6},"
    "\"g4dn.12xlarge\": {\"gpu_model\": \"T4\", \"gpus\": 4, "
    "\"on_demand\": 3.9},"
    "\"p4d.24xlarge\": {\"gpu_model\": \"A100-40GB\", \"gpus\": 8, "
    "\"on_demand\": 21.9}}}";

/* The catalogs, parsed once. */
static const gp_pricing *telemetry_fuzz_pricing(void)
{
    static gp_pricing pricing;
    static gp_catalog *catalogs[1];

    if (!catalogs[0]) {
        gp_error err;
        gp_error_clear(&err);
        if (gp_catalog_parse(&catalogs[0], telemetry_fuzz_catalog,
                             strlen(telemetry_fuzz_catalog), "fuzz.json", ".",
                             &err) != GP_OK)
            return NULL;
        pricing.catalogs = catalogs;
        pricing.n_catalogs = 1;
    }
    return &pricing;
}

typedef gp_status (*telemetry_fuzz_fn)(const char *data, size_t len,
                                       const char *name,
                                       const gp_import_options *opt, FILE *out,
                                       gp_error *err);

/* Runs `fn` on the input twice: type from the model, then given. */
static void telemetry_fuzz_run(telemetry_fuzz_fn fn, const uint8_t *data,
                               size_t size, const char *name)
{
    static FILE *sink;
    gp_import_options opt;
    gp_error err;

    if (!sink) {
        /* the importers reach GSL (the median of the sample gaps): as in
         * main, a GSL error must not abort the run */
        gsl_set_error_handler_off();
        sink = fopen("/dev/null", "w");
    }
    if (!sink)
        return;
    memset(&opt, 0, sizeof opt);
    opt.pricing = telemetry_fuzz_pricing();
    opt.has_time = true;
    opt.time = 1767607200; /* 2026-01-05T10:00:00Z */
    gp_error_clear(&err);
    fn((const char *)data, size, name, &opt, sink, &err);
    opt.instance_type = "g6.12xlarge";
    opt.step_s = 60;
    gp_error_clear(&err);
    fn((const char *)data, size, name, &opt, sink, &err);
}

#endif
