/*
 * import_mig.c: MIG instances in DCGM and Prometheus telemetry (series
 * with GPU_I_ID): the slice size a GPU_I_PROFILE names, the physical GPU
 * each instance is part of, and each sample's share of its GPU, so that a
 * GPU's cost is split across the teams on its slices by their size
 * (docs/import.md#mig-instances).
 */
#include "import_telemetry_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tel_mig_profile(const char *profile, const char *model, int *slices,
                     int *total)
{
    /* "<n>g.<memory>gb", then "+me", "+gfx", ... options of the profile */
    const char *p = profile;
    int n = 0;

    if (*p < '1' || *p > '9')
        return false;
    n = *p++ - '0';
    if (*p++ != 'g' || *p++ != '.' || *p < '0' || *p > '9')
        return false;
    while (*p >= '0' && *p <= '9')
        p++;
    if (strncmp(p, "gb", 2) != 0 || (p[2] != '\0' && p[2] != '+'))
        return false;
    /* an A30 has 4 compute slices (1g.6gb, 2g.12gb, 4g.24gb); the A100,
     * H100, H200 and B200 have 7 (1g, 2g, 3g, 4g, 7g) */
    *total = strstr(model, "A30") ? 4 : 7;
    *slices = n;
    if (*total == 4)
        return n == 1 || n == 2 || n == 4;
    return n == 1 || n == 2 || n == 3 || n == 4 || n == 7;
}

/* The key of GPU g's physical GPU: its host and id (a MIG instance's id
 * is its GPU's). */
static size_t physical_key(const tel_gpu *g, char *buf, size_t size)
{
    const char *parts[2] = {g->host, g->id};
    return tel_make_key(buf, size, parts, 2);
}

gp_status tel_mig_mark(tel *T)
{
    gp_strmap seen = {0};
    char key[GPU_KEY_MAX + 8];
    gp_status st = GP_OK;
    uint32_t v;

    for (size_t i = 0; i < T->n_gpus && st == GP_OK; i++) {
        tel_gpu *g = &T->gpus[i];
        size_t len = physical_key(g, key, sizeof key);
        if (!g->mig_slices || gp_strmap_get(&seen, key, len, &v))
            continue;
        g->mig_first = true;
        st = gp_strmap_put(&seen, key, len, (uint32_t)i);
    }
    for (size_t i = 0; i < T->n_gpus && st == GP_OK; i++) {
        tel_gpu *g = &T->gpus[i];
        size_t len = physical_key(g, key, sizeof key);
        if (!g->mig_slices && seen.count && gp_strmap_get(&seen, key, len, &v))
            g->mig_parent = true;
    }
    gp_strmap_free(&seen);
    return st == GP_OK ? GP_OK : tel_nomem(T);
}

/* The key of sample s's physical GPU and time, to the second (plus
 * `off` seconds): lines of one scrape may carry exposition timestamps a
 * few milliseconds apart. */
static size_t moment_key(const tel *T, const tel_sample *s, int off,
                         char *buf, size_t size)
{
    char when[40];
    const tel_gpu *g = &T->gpus[s->gpu];
    const char *parts[3] = {g->host, g->id, when};
    snprintf(when, sizeof when, "%.0f", floor(s->t + 0.5) + off);
    return tel_make_key(buf, size, parts, 3);
}

/* Whether MIG instances of whole-GPU sample s's GPU were seen at its time
 * (or a second either side, a scrape's timestamps drifting over one). */
static bool instances_at(const tel *T, const gp_strmap *moments,
                         const tel_sample *s, char *key, size_t size)
{
    uint32_t at;
    for (int off = -1; off <= 1; off++)
        if (gp_strmap_get(moments, key, moment_key(T, s, off, key, size),
                          &at))
            return true;
    return false;
}

gp_status tel_mig_shares(tel *T, double **share, size_t *n_parent)
{
    gp_strmap moments = {0};
    double *sum = NULL, *out;
    size_t n_sum = 0, cap_sum = 0;
    char key[GPU_KEY_MAX + 48];
    bool any = false;

    *share = NULL;
    *n_parent = 0;
    for (size_t i = 0; i < T->n_gpus; i++)
        any |= T->gpus[i].mig_slices > 0;
    if (!any)
        return GP_OK;
    out = gp_calloc(T->n_samples + 1, sizeof *out);
    if (!out)
        return tel_nomem(T);
    /* the slices seen of each GPU at each time */
    for (size_t i = 0; i < T->n_samples; i++) {
        const tel_sample *s = &T->samples[i];
        const tel_gpu *g = &T->gpus[s->gpu];
        uint32_t at;
        if (!g->mig_slices)
            continue;
        size_t len = moment_key(T, s, 0, key, sizeof key);
        if (!gp_strmap_get(&moments, key, len, &at)) {
            if (gp_grow((void **)&sum, &cap_sum, n_sum + 1, sizeof *sum) !=
                    GP_OK ||
                gp_strmap_put(&moments, key, len, (uint32_t)n_sum) != GP_OK)
                goto nomem;
            at = (uint32_t)n_sum;
            sum[n_sum++] = 0;
        }
        sum[at] += g->mig_slices;
    }
    for (size_t i = 0; i < T->n_samples; i++) {
        const tel_sample *s = &T->samples[i];
        const tel_gpu *g = &T->gpus[s->gpu];
        uint32_t at = 0;
        if (g->mig_parent &&
            instances_at(T, &moments, s, key, sizeof key)) {
            (*n_parent)++;
            continue; /* 0: its MIG instances carry the GPU */
        }
        if (!g->mig_slices) {
            out[i] = 1; /* a whole GPU, or one not carved at the time */
            continue;
        }
        gp_strmap_get(&moments, key, moment_key(T, s, 0, key, sizeof key),
                      &at);
        out[i] = g->mig_slices / sum[at];
    }
    gp_strmap_free(&moments);
    gp_free(sum);
    *share = out;
    return GP_OK;
nomem:
    gp_strmap_free(&moments);
    gp_free(sum);
    gp_free(out);
    return tel_nomem(T);
}
