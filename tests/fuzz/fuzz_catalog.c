/*
 * fuzz_catalog.c: the pricing catalog loader under libFuzzer.  The input is
 * a catalog JSON document.
 */
#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_error err;
    gp_catalog *c;

    gp_error_clear(&err);
    if (gp_catalog_parse(&c, (const char *)data, size, "fuzz.json", ".",
                         &err) == GP_OK)
        gp_catalog_free(c);
    return 0;
}
