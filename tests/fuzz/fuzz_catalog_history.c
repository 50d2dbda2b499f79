/*
 * fuzz_catalog_history.c: the reader of a catalog's spot price history
 * (SPEC section 3, "history": "file.csv") under libFuzzer.  The input is
 * the CSV file.  A history that loads must come out in increasing time
 * order with no negative price, as the engine relies on both.
 */
#include "gpuplan.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_spot_offer spot = {0};
    gp_error err;

    gp_error_clear(&err);
    if (gp_catalog_parse_history(&spot, (const char *)data, size, "history.csv",
                                 &err) != GP_OK) {
        if (spot.history || !err.message[0])
            abort(); /* a failure keeps nothing and says why */
        return 0;
    }
    if (spot.n_history == 0)
        abort();
    for (size_t i = 0; i < spot.n_history; i++)
        if (spot.history[i].hourly < 0 ||
            (i > 0 && spot.history[i].t <= spot.history[i - 1].t))
            abort();
    gp_free(spot.history);
    return 0;
}
