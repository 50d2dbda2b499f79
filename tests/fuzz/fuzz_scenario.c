/*
 * fuzz_scenario.c: the scenario loader under libFuzzer.  The input is a
 * scenario JSON document, read twice: stopping at the first error, and
 * going on past each (validate's gp_scenario_parse_all), which keeps a
 * partly read scenario.
 */
#include "gpuplan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gp_error err;
    gp_error_list all = {NULL, 0, 0};
    gp_scenario *s;

    gp_error_clear(&err);
    if (gp_scenario_parse(&s, (const char *)data, size, "fuzz.json", &err) ==
        GP_OK)
        gp_scenario_free(s);
    gp_error_clear(&err);
    gp_scenario_parse_all(&s, (const char *)data, size, "fuzz.json", &all,
                          &err);
    gp_scenario_free(s);
    gp_error_list_clear(&all);
    return 0;
}
