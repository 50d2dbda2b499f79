/*
 * fuzz_spot_advisor.c: `gpuplan import spot-advisor`'s reader of the Spot
 * Instance Advisor feed under libFuzzer.  The input is the feed; the base
 * catalog it adds spot prices to is a fixed two-type us-east-1 catalog.
 * The output goes to /dev/null.
 */
#include "import.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base_catalog[] =
    "{\"schema\": \"gpuplan-catalog/1\", \"provider\": \"aws\",\n"
    " \"region\": \"us-east-1\", \"currency\": \"USD\", \"as_of\": "
    "\"2026-07-20\",\n"
    " \"instance_types\": {\n"
    "  \"g5.xlarge\": {\"family\": \"g5\", \"gpus\": 1,\n"
    "                \"on_demand\": 1.006},\n"
    "  \"p4d.24xlarge\": {\"family\": \"p4d\", \"gpus\": 8,\n"
    "                   \"on_demand\": 21.957642,\n"
    "   \"spot\": {\"hourly\": 7.25,\n"
    "            \"interruption_rate_monthly\": 0.125}}}}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    gp_error err;

    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    gp_error_clear(&err);
    gp_import_spot_advisor_buffer((const char *)data, size, "advisor.json",
                                  base_catalog, sizeof base_catalog - 1,
                                  "base.json", sink, &err);
    return 0;
}
