/*
 * fuzz_spot_availability.c: the reader of spot availability histories
 * (a catalog's `availability_history` and `gpuplan import
 * spot-availability`: a CSV time,available or SkyPilot's spot-traces JSON)
 * under libFuzzer, and the lookup a replay makes in what it read.
 */
#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_availability a;
    gp_error err;

    gp_error_clear(&err);
    if (gp_availability_parse((const char *)data, size, "avail.csv", &a,
                              &err) == GP_OK) {
        /* a replay reads it from a run's start, before and after */
        for (int k = -2; k < 50; k++)
            (void)gp_availability_at(&a, 1767225600, k * 1800.0);
    }
    gp_availability_clear(&a);
    return 0;
}
