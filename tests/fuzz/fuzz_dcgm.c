/*
 * fuzz_dcgm.c: the dcgm telemetry importer under libFuzzer.  The input is
 * a DCGM exporter scrape (Prometheus text format).
 */
#include "telemetry_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    telemetry_fuzz_run(gp_import_dcgm_buffer, data, size, "fuzz.prom");
    return 0;
}
