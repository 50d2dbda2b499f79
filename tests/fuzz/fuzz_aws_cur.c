/*
 * fuzz_aws_cur.c: `gpuplan import aws-cur`'s reader of AWS Cost and Usage
 * Reports under libFuzzer.  The output goes to /dev/null; only crashes,
 * leaks and sanitizer reports count.
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
    gp_error_clear(&err);
    gp_import_aws_cur_buffer((const char *)data, size, "cur.csv", &opt, sink,
                             &err);
    return 0;
}
