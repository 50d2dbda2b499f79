/*
 * replay.c: runs a fuzz target over every file of its corpus folder, so the
 * inputs the fuzzers found (and the seeds) are replayed by ctest in every
 * build, sanitizers included, without libFuzzer.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int files = 0;

    for (int a = 1; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        struct dirent *e;
        if (!d) {
            fprintf(stderr, "replay: cannot open %s\n", argv[a]);
            return 1;
        }
        while ((e = readdir(d)) != NULL) {
            char path[4096];
            FILE *f;
            uint8_t *buf;
            long n;
            if (e->d_name[0] == '.')
                continue;
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            f = fopen(path, "rb");
            if (!f)
                continue;
            fseek(f, 0, SEEK_END);
            n = ftell(f);
            fseek(f, 0, SEEK_SET);
            buf = malloc(n > 0 ? (size_t)n : 1);
            if (buf && fread(buf, 1, (size_t)n, f) == (size_t)n)
                LLVMFuzzerTestOneInput(buf, (size_t)n);
            free(buf);
            fclose(f);
            files++;
        }
        closedir(d);
    }
    printf("replayed %d inputs\n", files);
    return files > 0 ? 0 : 1;
}
