/*
 * bill_fuzz.h: what the two billing fuzz targets (fuzz_focus.c,
 * fuzz_aws_cur.c) share: a run of one importer on the input with the
 * owned commitments written (--commitments-out) and the notes collected,
 * as `gpuplan import` does.  A commitments file written that gpuplan's own
 * scenario loader rejects is a finding (abort, with the loader's message),
 * since docs/import.md promises a scenario.
 */
#ifndef GP_BILL_FUZZ_H
#define GP_BILL_FUZZ_H

#include "gpuplan.h"
#include "import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef gp_status (*bill_fuzz_fn)(const char *data, size_t len,
                                  const char *name,
                                  const gp_import_options *opt, FILE *out,
                                  gp_error *err);

/* Loads the commitments file at `path` as a scenario, or aborts. */
static void bill_fuzz_load(const char *path)
{
    gp_scenario *s = NULL;
    gp_error err;

    gp_error_clear(&err);
    if (gp_scenario_load(&s, path, &err) != GP_OK) {
        char msg[1400];
        gp_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "import wrote commitments the loader rejects: %s\n",
                msg);
        abort();
    }
    gp_scenario_free(s);
}

/* Runs `fn` on the input with commitments and notes asked for. */
static void bill_fuzz_run(bill_fuzz_fn fn, const uint8_t *data, size_t size,
                          const char *name)
{
    static FILE *sink;
    static char path[512];
    gp_import_options opt;
    gp_warnings notes = {0};
    gp_error err;

    if (!sink) {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/gpuplan-fuzz-owned-%ld.json",
                 tmp && tmp[0] ? tmp : "/tmp", (long)getpid());
        sink = fopen("/dev/null", "w");
    }
    if (!sink)
        return;
    memset(&opt, 0, sizeof opt);
    opt.commitments_out = path;
    opt.notes = &notes;
    gp_error_clear(&err);
    remove(path);
    if (fn((const char *)data, size, name, &opt, sink, &err) == GP_OK)
        bill_fuzz_load(path);
    remove(path);
    gp_warnings_clear(&notes);
}

#endif
