/*
 * fuzz_classify.c: `classify` under libFuzzer: the input is a trace CSV
 * (after one control byte: bit 0 --relabel, bit 1 --layout jobs) that is
 * loaded, classified, written again labelled as `classify --out` does (the
 * second CSV reader, in classify.c), and then relabelled in place
 * (gp_classify_apply, which merges series).  Aborts when a verdict is out
 * of range, when a row the loader accepted is not found again, or when
 * relabelling leaves an unlabelled or duplicate series.  The bundled
 * catalogs resolve instance types.
 */
#include "classify.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static gp_pricing *pricing;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_error err;
    gp_trace_options opt;
    gp_trace_builder *b;
    gp_trace *t;
    gp_classification *c;

    if (!pricing) {
        /* classify.c's features use GSL: as in main, a GSL error must not
         * abort the run */
        gsl_set_error_handler_off();
        char path[4096];
        const char *src = getenv("GP_SOURCE_DIR");
        snprintf(path, sizeof path, "%s/pricing", src ? src : GP_SOURCE_DIR);
        if (gp_pricing_load(&pricing, path, 0, &err) != GP_OK)
            abort();
    }
    if (size == 0)
        return 0;
    bool relabel = data[0] & 1;
    gp_trace_options_init(&opt);
    if (data[0] & 2)
        opt.layout = GP_LAYOUT_JOBS;
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
    if (gp_trace_builder_finish(b, &t, &err) != GP_OK)
        return 0;
    if (gp_classify(t, relabel, &c, &err) != GP_OK) {
        gp_trace_free(t);
        return 0;
    }
    for (size_t s = 0; s < c->n_series; s++)
        if (!(c->series[s].confidence >= 0.5 &&
              c->series[s].confidence <= 1.0) ||
            c->series[s].label == GP_UNLABELED)
            abort();
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    if (f) {
        const char *source = "fuzz.csv";
        const char *text = (const char *)data;
        gp_status st = gp_classify_write_labeled(f, t, pricing, &opt, c, 1,
                                                 &source, &text, &size, &err);
        fclose(f);
        /* the loader took every row, so each must be found again */
        if (st != GP_OK && st != GP_ERR_NOMEM)
            abort();
        free(out);
    }
    if (gp_classify_apply(t, c, &err) != GP_OK)
        abort();
    /* after relabelling, no series is left unlabelled and keys are unique */
    for (size_t s = 0; s < t->n_series; s++) {
        if (t->series[s].workload == GP_UNLABELED)
            abort();
        if (s > 0 && t->series[s].pool == t->series[s - 1].pool &&
            t->series[s].workload == t->series[s - 1].workload &&
            t->series[s].interruptible == t->series[s - 1].interruptible &&
            t->series[s].team == t->series[s - 1].team &&
            t->series[s].project == t->series[s - 1].project)
            abort();
    }
    for (size_t r = 0; r < t->n_runs; r++)
        if (t->runs[r].series >= t->n_series)
            abort();
    gp_classification_free(c);
    gp_trace_free(t);
    return 0;
}
