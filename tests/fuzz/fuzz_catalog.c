/*
 * fuzz_catalog.c: the pricing catalog loader under libFuzzer.  The input is
 * a catalog JSON document.  History files are looked for next to the unit
 * tests' small catalogs, so that a catalog naming "g5-spot-history.csv"
 * (as a seed does) is loaded with its history; the history reader itself
 * has its own target, fuzz_catalog_history.c.
 */
#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_error err;
    gp_catalog *c;

    gp_error_clear(&err);
    if (gp_catalog_parse(&c, (const char *)data, size, "fuzz.json",
                         GP_SOURCE_DIR "/tests/data/pricing-small/aws",
                         &err) == GP_OK)
        gp_catalog_free(c);
    return 0;
}
