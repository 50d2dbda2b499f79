/*
 * fuzz_idle.c: idle detection (idle.h) under libFuzzer: the trace loader's
 * tracking of low-utilization runs, span finding and the terminate
 * policy's cuts.  The input is a trace file after four control bytes:
 * bit 0 of the first picks --layout jobs; the second sets the threshold
 * (1 to 100 percent), the third the minimum (0.25 to 4 hours), the fourth
 * terminate_idle_h (0 to 3.5 hours, for both workloads).  The bundled
 * catalogs resolve instance types.  Aborts when a result breaks what
 * idle.h promises: spans at least the minimum, cuts sorted, inside the
 * trace, and never more than the spans held.
 */
#include "gpuplan.h"
#include "idle.h"

#include <stdio.h>
#include <stdlib.h>

static gp_pricing *pricing;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Checks a trace's spans and cuts; aborts on a broken promise. */
static void check(const gp_trace *t, double keep)
{
    gp_error err;
    gp_idle_report *r = NULL;
    gp_idle_cut *cuts = NULL;
    size_t n = 0;
    double removed = 0, held = 0;
    const double both[2] = {keep, keep};

    gp_error_clear(&err);
    if (gp_idle_detect(t, 0, &r, &err) != GP_OK)
        return;
    for (size_t i = 0; i < r->n_spans; i++) {
        const gp_idle_span *s = &r->spans[i];
        if (s->hours < r->min_hours - 1e-6 || s->series >= t->n_series ||
            s->instance_hours < 0)
            abort();
        held += s->instance_hours;
    }
    if (gp_idle_cuts(t, r, both, &cuts, &n, &removed, &err) == GP_OK) {
        for (size_t i = 0; i < n; i++) {
            if (cuts[i].hour >= t->n_hours || cuts[i].series >= t->n_series ||
                cuts[i].instance_hours < 0)
                abort();
            if (i > 0 && cuts[i].hour < cuts[i - 1].hour)
                abort();
        }
        if (removed > held * (1 + 1e-9) + 1e-9)
            abort();
        gp_free(cuts);
    }
    gp_idle_report_free(r);
}

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
    if (size < 4)
        return 0;
    gp_trace_options_init(&opt);
    if (data[0] & 1)
        opt.layout = GP_LAYOUT_JOBS;
    opt.idle_threshold_pct = 1 + data[1] % 100;
    opt.idle_min_hours = 0.25 * (1 + data[2] % 16);
    double keep = 0.5 * (data[3] % 8);
    data += 4;
    size -= 4;
    opt.threads = 1;
    gp_error_clear(&err);
    if (gp_trace_builder_new(&b, pricing, &opt, &err) != GP_OK)
        return 0;
    if (gp_trace_builder_add_buffer(b, (const char *)data, size, "fuzz.csv",
                                    &err) != GP_OK) {
        gp_trace_builder_free(b);
        return 0;
    }
    if (gp_trace_builder_finish(b, &t, &err) == GP_OK) {
        check(t, keep);
        gp_trace_free(t);
    }
    return 0;
}
