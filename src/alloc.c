/*
 * alloc.c: the one allocator every part of the library goes through.
 *
 * Like SQLite's, it exists so that a test can make the Nth allocation fail
 * and check that the code under test cleans up and reports GP_ERR_NOMEM.
 * The counter is atomic so that the multi-threaded ingest can use it too.
 */
#include "gpuplan.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static atomic_long fail_after = -1;
static atomic_long refused;
static atomic_bool once;

void gp_alloc_fail_after(long n)
{
    atomic_store(&fail_after, -1);
    atomic_store(&once, false);
    atomic_store(&refused, 0);
    atomic_store(&fail_after, n);
}

void gp_alloc_fail_only(long n)
{
    atomic_store(&fail_after, -1);
    atomic_store(&once, true);
    atomic_store(&refused, 0);
    atomic_store(&fail_after, n);
}

long gp_alloc_refused(void)
{
    return atomic_load(&refused);
}

static bool should_fail(void)
{
    long n = atomic_load(&fail_after);

    while (n >= 0) {
        if (n == 0) {
            /* one refusal only: the next allocations succeed */
            if (atomic_load(&once) &&
                !atomic_compare_exchange_weak(&fail_after, &n, -1))
                continue;
            atomic_fetch_add(&refused, 1);
            return true;
        }
        if (atomic_compare_exchange_weak(&fail_after, &n, n - 1))
            return false;
    }
    return false;
}

void *gp_malloc(size_t size)
{
    return should_fail() ? NULL : malloc(size ? size : 1);
}

void *gp_calloc(size_t count, size_t size)
{
    return should_fail() ? NULL : calloc(count ? count : 1, size ? size : 1);
}

void *gp_realloc(void *ptr, size_t size)
{
    return should_fail() ? NULL : realloc(ptr, size ? size : 1);
}

void gp_free(void *ptr)
{
    free(ptr);
}

char *gp_strndup(const char *s, size_t n)
{
    char *copy = gp_malloc(n + 1);

    if (copy) {
        memcpy(copy, s, n);
        copy[n] = '\0';
    }
    return copy;
}

char *gp_strdup(const char *s)
{
    return gp_strndup(s, strlen(s));
}
