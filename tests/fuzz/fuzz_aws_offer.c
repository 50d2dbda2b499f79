/*
 * fuzz_aws_offer.c: `gpuplan import aws-offer`'s reader of AWS Price List
 * CSVs (EC2 offer files and savings-plan rate files) under libFuzzer, read
 * once for region us-east-1 and once without --region (the rows' own
 * region).  Crashes, leaks and sanitizer reports count, and so does a
 * catalog written that gpuplan's own loader rejects: import must fail
 * instead (abort, with the loader's message).
 */
#include "gpuplan.h"
#include "import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Imports data with --region `region` (or none) and loads what it wrote. */
static void run(const uint8_t *data, size_t size, const char *region)
{
    gp_import_options opt;
    gp_error err;
    char *out = NULL;
    size_t out_len = 0;
    FILE *f = open_memstream(&out, &out_len);
    gp_status st;

    if (!f)
        return;
    memset(&opt, 0, sizeof opt);
    opt.region = region;
    gp_error_clear(&err);
    st = gp_import_aws_offer_buffer((const char *)data, size, "offer.csv", &opt,
                                    f, &err);
    fclose(f);
    if (st == GP_OK) {
        gp_catalog *c = NULL;
        gp_error_clear(&err);
        if (gp_catalog_parse(&c, out, out_len, "imported.json", ".", &err) !=
            GP_OK) {
            char msg[1400];
            gp_error_format(&err, msg, sizeof msg);
            fprintf(stderr,
                    "aws-offer wrote a catalog the loader rejects: "
                    "%s\n",
                    msg);
            abort();
        }
        gp_catalog_free(c);
    }
    free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size, "us-east-1");
    run(data, size, NULL);
    return 0;
}
