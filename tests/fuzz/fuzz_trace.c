/*
 * fuzz_trace.c: the trace CSV parser under libFuzzer.  The input is a whole
 * trace file after one control byte: bit 0 picks --layout jobs, bit 1
 * --skip-bad (read on after bad rows).  The bundled catalogs resolve
 * instance types.
 */
#include "gpuplan.h"

#include <stdio.h>
#include <stdlib.h>

static gp_pricing *pricing;

static void ignore_reject(void *ctx, const gp_error *why, const char *row,
                          size_t len)
{
    (void)ctx;
    (void)why;
    (void)row;
    (void)len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_error err;
    gp_trace_options opt;
    gp_trace_builder *b;
    gp_trace *t;

    if (!pricing) {
        char path[4096];
        const char *src = getenv("GP_SOURCE_DIR");
        snprintf(path, sizeof path, "%s/pricing", src ? src : GP_SOURCE_DIR);
        if (gp_pricing_load(&pricing, path, 0, &err) != GP_OK)
            abort();
    }
    if (size == 0)
        return 0;
    gp_trace_options_init(&opt);
    if (data[0] & 1)
        opt.layout = GP_LAYOUT_JOBS;
    if (data[0] & 2)
        opt.reject = ignore_reject;
    data++;
    size--;
    opt.threads = 1;
    gp_error_clear(&err);
    if (gp_trace_builder_new(&b, pricing, &opt, &err) != GP_OK)
        return 0;
    if (gp_trace_builder_add_buffer(b, (const char *)data, size, "fuzz.csv",
                                    &err) != GP_OK) {
        gp_trace_builder_free(b);
        return 0;
    }
    if (gp_trace_builder_finish(b, &t, &err) == GP_OK)
        gp_trace_free(t);
    return 0;
}
