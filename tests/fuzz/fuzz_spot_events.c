/*
 * fuzz_spot_events.c: `gpuplan import spot-events`' reader (EventBridge
 * "EC2 Spot Instance Interruption Warning" events as JSON lines, or a CSV
 * with time, instance_id, job_id) under libFuzzer.  The reader takes a
 * path, so each input is written to a file of this process first.
 */
#include "import.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[64];
    gp_spot_event *ev = NULL;
    size_t n = 0;
    gp_error err;
    FILE *f;

    if (!path[0])
        snprintf(path, sizeof path, "/tmp/fuzz-spot-events-%ld.txt",
                 (long)getpid());
    if (!(f = fopen(path, "wb")))
        return 0;
    if (fwrite(data, 1, size, f) != size) {
        fclose(f);
        return 0;
    }
    fclose(f);
    gp_error_clear(&err);
    if (gp_spot_events_read(path, &ev, &n, &err) == GP_OK)
        gp_spot_events_free(ev, n);
    unlink(path);
    return 0;
}
