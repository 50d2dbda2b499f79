/*
 * inputs.c: loads a run's catalogs, scenario and traces in one call: the
 * scenario is checked against the catalogs, the traces' instance types are
 * resolved in them, and the catalogs' warnings are kept only for what the
 * run uses.
 */
#include "inputs.h"
#include "checks.h"
#include "util.h"

#include <string.h>

/* The scenario of spec->scenario, read and checked with every error put
 * in spec->scenario_errors (gp_scenario_load_all, gp_scenario_check_all);
 * on failure *err is the first. */
static gp_status load_scenario_all(const gp_inputs_spec *spec, gp_inputs *in,
                                   gp_error *err)
{
    gp_error_list *all = spec->scenario_errors;
    size_t first = all->count;
    gp_error e;

    gp_error_clear(&e);
    gp_status st = gp_scenario_load_all(&in->scenario, spec->scenario, all, &e);
    if (in->scenario && (st == GP_OK || st == GP_ERR_INPUT)) {
        gp_error_clear(&e); /* the first is all's, and the check's next */
        gp_status ck = gp_scenario_check_all(in->scenario, in->pricing,
                                             &in->pricing->warnings, all, &e);
        if (ck != GP_OK && ck != GP_ERR_INPUT)
            st = ck;
        else if (all->count > first)
            st = GP_ERR_INPUT, e = all->items[first];
    }
    if (st != GP_OK && err && !err->message[0])
        *err = e;
    return st;
}

gp_status gp_inputs_load_catalogs(const gp_inputs_spec *spec, gp_inputs *in,
                                  gp_error *err)
{
    memset(in, 0, sizeof *in);
    for (size_t i = 0; i < spec->n_pricing; i++) {
        gp_status st =
            gp_pricing_load(&in->pricing, spec->pricing[i], spec->today, err);
        if (st != GP_OK)
            return st;
    }
    /* every report writes money in the catalogs' currency */
    gp_money_set_currency(gp_pricing_currency(in->pricing));
    if (spec->scenario && spec->scenario_errors)
        return load_scenario_all(spec, in, err);
    gp_status st = spec->scenario
                       ? gp_scenario_load(&in->scenario, spec->scenario, err)
                       : gp_scenario_default(&in->scenario, err);
    if (st != GP_OK)
        return st;
    return gp_scenario_check(in->scenario, in->pricing,
                             &in->pricing->warnings, err);
}

gp_status gp_inputs_load_traces(const gp_inputs_spec *spec, gp_inputs *in,
                                gp_error *err)
{
    gp_trace_builder *b = NULL;
    gp_status st = gp_trace_builder_new(&b, in->pricing, &spec->trace_opt,
                                        err);
    for (size_t i = 0; st == GP_OK && i < spec->n_traces; i++)
        st = gp_trace_builder_add_file(b, spec->traces[i], err);
    /* the reading stage is over: what is said next starts clean */
    gp_progress_report(&spec->trace_opt.progress, "reading the trace", -1,
                       0);
    if (st == GP_OK && spec->rows_read)
        st = spec->rows_read(spec->rows_read_ctx, err);
    if (st == GP_OK)
        st = gp_trace_builder_finish(b, &in->trace, err);
    else
        gp_trace_builder_free(b);
    if (st != GP_OK)
        return st;
    /* the trace is known: stale prices only of the catalogs it uses, and
     * its own warnings join them (the loaders' warnings, as printed) */
    gp_pricing_drop_unused_warnings(in->pricing, in->trace, in->scenario);
    gp_check_util_fraction(in->trace, &in->pricing->warnings);
    return GP_OK;
}

gp_status gp_inputs_load(const gp_inputs_spec *spec, gp_inputs *in,
                         gp_error *err)
{
    gp_status st = gp_inputs_load_catalogs(spec, in, err);
    if (st == GP_OK)
        st = gp_inputs_load_traces(spec, in, err);
    if (st != GP_OK)
        gp_inputs_free(in);
    return st;
}

void gp_inputs_free(gp_inputs *in)
{
    if (!in)
        return;
    gp_pricing_free(in->pricing);
    gp_scenario_free(in->scenario);
    gp_trace_free(in->trace);
    memset(in, 0, sizeof *in);
}
