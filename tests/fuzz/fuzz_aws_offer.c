/*
 * fuzz_aws_offer.c: `gpuplan import aws-offer`'s reader of AWS Price List
 * CSVs (EC2 offer files and savings-plan rate files, read for region
 * us-east-1) under libFuzzer.  The output goes to /dev/null; only
 * crashes, leaks and sanitizer reports count.
 */
#include "import.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    gp_import_options opt;
    gp_error err;

    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    memset(&opt, 0, sizeof opt);
    opt.region = "us-east-1";
    gp_error_clear(&err);
    gp_import_aws_offer_buffer((const char *)data, size, "offer.csv", &opt,
                               sink, &err);
    return 0;
}
