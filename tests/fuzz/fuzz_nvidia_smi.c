/*
 * fuzz_nvidia_smi.c: the nvidia-smi telemetry importer under libFuzzer.  The
 * input is an nvidia-smi --query-gpu CSV log.
 */
#include "telemetry_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    telemetry_fuzz_run(gp_import_nvidia_smi_buffer, data, size, "fuzz.csv");
    return 0;
}
