/*
 * fuzz_aws_cur.c: `gpuplan import aws-cur`'s reader of AWS Cost and Usage
 * Reports under libFuzzer, with the owned commitments written and read
 * back as a scenario (bill_fuzz.h).  The trace goes to /dev/null.
 */
#include "bill_fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    bill_fuzz_run(gp_import_aws_cur_buffer, data, size, "cur.csv");
    return 0;
}
