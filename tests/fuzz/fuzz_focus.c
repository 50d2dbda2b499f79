/*
 * fuzz_focus.c: `gpuplan import focus`'s reader of FOCUS 1.0 billing
 * exports under libFuzzer, with the owned commitments written and read
 * back as a scenario (bill_fuzz.h).  The trace goes to /dev/null.
 */
#include "bill_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bill_fuzz_run(gp_import_focus_buffer, data, size, "bill.csv");
    return 0;
}
