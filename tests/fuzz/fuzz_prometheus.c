/*
 * fuzz_prometheus.c: the prometheus telemetry importer under libFuzzer.  The
 * input is a Prometheus query_range JSON response.
 */
#include "telemetry_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    telemetry_fuzz_run(gp_import_prometheus_buffer, data, size, "fuzz.json");
    return 0;
}
