/*
 * fuzz_scenario.c: the scenario loader under libFuzzer.  The input is a
 * scenario JSON document.
 */
#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_error err;
    gp_scenario *s;

    gp_error_clear(&err);
    if (gp_scenario_parse(&s, (const char *)data, size, "fuzz.json", &err) ==
        GP_OK)
        gp_scenario_free(s);
    return 0;
}
