/*
 * fuzz_scenario_check.c: a scenario read and then checked against the
 * bundled catalogs under libFuzzer, as every command does: owned
 * commitments and strategies' add_commitments matched to offers, stated
 * upfronts compared with the catalogs' (gp_scenario_check), and what each
 * commitment then pays worked out.  The input is a scenario JSON document.
 */
#include "gpuplan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static gp_pricing *pricing;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Works out what commitment c pays; a commitment the check let through
 * must have a price that is a number (abort otherwise). */
static void cash(const gp_commitment *c)
{
    double per_hour = 0, upfront = 0;

    gp_commitment_cash(c, pricing, &per_hour, &upfront);
    if (isnan(per_hour) || isnan(upfront) || per_hour < 0 || upfront < 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_error err;
    gp_scenario *s;
    gp_warnings w = {0};

    if (!pricing) {
        char path[4096];
        const char *src = getenv("GP_SOURCE_DIR");
        snprintf(path, sizeof path, "%s/pricing", src ? src : GP_SOURCE_DIR);
        if (gp_pricing_load(&pricing, path, 0, &err) != GP_OK)
            abort();
    }
    gp_error_clear(&err);
    if (gp_scenario_parse(&s, (const char *)data, size, "fuzz.json", &err) !=
        GP_OK)
        return 0;
    gp_error_clear(&err);
    if (gp_scenario_check(s, pricing, &w, &err) == GP_OK) {
        for (size_t i = 0; i < s->n_commitments; i++)
            cash(&s->commitments[i]);
        for (size_t k = 0; k < s->n_strategies; k++)
            for (size_t i = 0; i < s->strategies[k].n_add; i++)
                cash(&s->strategies[k].add_commitments[i]);
    } else if (!err.message[0]) {
        abort(); /* a failure says why */
    }
    gp_warnings_clear(&w);
    gp_scenario_free(s);
    return 0;
}
