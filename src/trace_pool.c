/*
 * trace_pool.c: the pool of a trace row: which loaded catalog prices its
 * instance type (in its provider and region, or the region parameter), and when
 * none does, what to say: ambiguous, priced elsewhere, or the nearest names.
 */
#include "trace_internal.h"

#include <string.h>

/* Lists the catalogs that price `type` ("aws us-east-1, gcp ...") into
 * buf, at most three and a count of the rest. */
static void where_priced(const gp_pricing *pricing, const char *type,
                         char *buf, size_t size)
{
    size_t n = 0, used = 0;

    buf[0] = '\0';
    for (size_t i = 0; pricing && i < pricing->n_catalogs; i++) {
        const gp_catalog *c = pricing->catalogs[i];
        if (!gp_pricing_find(pricing, c->provider, c->region, type, NULL,
                             NULL))
            continue;
        if (n++ < 3 && used < size) {
            int w = snprintf(buf + used, size - used, "%s%s %s",
                             n > 1 ? ", " : "", c->provider, c->region);
            if (w > 0)
                used += (size_t)w;
        }
    }
    if (n > 3 && used < size)
        snprintf(buf + used, size - used, " and %zu more", n - 3);
}

/* Copies name[0, len) into buf without control bytes (a stray newline or
 * tab in a quoted field), so that suggestions match what was meant. */
static void printable_name(char *buf, size_t size, const char *name,
                           size_t len)
{
    size_t n = 0;

    for (size_t i = 0; i < len && n + 1 < size; i++)
        if ((unsigned char)name[i] >= 0x20 && name[i] != 0x7f)
            buf[n++] = name[i];
    buf[n] = '\0';
}

/* Sets the error for an instance type the catalogs cannot resolve for the
 * row: ambiguous, priced elsewhere, or unknown (with the nearest names). */
static void unresolved_type(struct shard *s, const gp_trace_builder *b,
                            const struct file_ctx *ctx, const struct row *row,
                            const struct field *type, const char *provider,
                            const char *region, bool ambiguous)
{
    char shown[SHOWN_SIZE], t[64], near[256];

    gp_trace_show_bytes(shown, type->p, type->len, 64);
    snprintf(t, sizeof t, "%.*s", (int)type->len, type->p);
    if (ambiguous) {
        gp_trace_row_error(
            s, ctx, row, COL_INSTANCE_TYPE,
            "%s is in several catalogs; add a provider and region "
            "column, or give " GP_PARAM_TEXT("provider") " and "
            GP_PARAM_TEXT("region"),
            shown);
        return;
    }
    where_priced(b->pricing, t, near, sizeof near);
    if (near[0]) {
        /* priced, but not where the row (or the region parameter) says; the
         * provider is aws, gcp or azure by now, the region may be anything */
        char reg[SHOWN_SIZE], want[SHOWN_SIZE + 64];
        gp_trace_show_bytes(reg, region, strlen(region), 32);
        if (provider[0] && region[0])
            snprintf(want, sizeof want, "for provider \"%s\" in region %s",
                     provider, reg);
        else if (provider[0])
            snprintf(want, sizeof want, "for provider \"%s\"", provider);
        else
            snprintf(want, sizeof want, "in region %s", reg);
        gp_trace_row_error(
            s, ctx, row, COL_INSTANCE_TYPE,
            "%s is not priced %s (the loaded catalogs have it for %s)", shown,
            want, near);
        return;
    }
    if (!b->pricing || b->pricing->n_catalogs == 0) {
        gp_trace_row_error(s, ctx, row, COL_INSTANCE_TYPE,
                           "unknown instance type %s (no catalog loaded)",
                           shown);
        return;
    }
    printable_name(t, sizeof t, type->p, type->len);
    gp_pricing_suggest(b->pricing, t, near, sizeof near, 3);
    if (near[0])
        gp_trace_row_error(s, ctx, row, COL_INSTANCE_TYPE,
                           "unknown instance type %s (nearest: %s)", shown,
                           near);
    else
        gp_trace_row_error(
            s, ctx, row, COL_INSTANCE_TYPE,
            "unknown instance type %s (no similar name in the loaded "
            "catalogs)",
            shown);
}

/* Resolves the pool of a row whose key (provider, region and type joined
 * by \x1f) the shard's pool map does not hold yet: checks the provider,
 * finds the type in the catalogs (the region, provider and type from their
 * parameters when the row has none) and interns one pool per (catalog, type) under the key. */
bool gp_trace_pool_resolve(struct shard *s, const gp_trace_builder *b,
                           const struct file_ctx *ctx, const struct row *row,
                           const char *key, size_t klen, uint32_t *pool)
{
    const struct field *prov = FIELD(row, ctx, COL_PROVIDER);
    const struct field *reg = FIELD(row, ctx, COL_REGION);
    const struct field *type = FIELD(row, ctx, COL_INSTANCE_TYPE);
    char p[16], r[32], t[64];
    const gp_catalog *cat = NULL;
    bool ambiguous = false;
    const gp_instance_type *it;
    uint32_t id;

    snprintf(p, sizeof p, "%.*s", (int)prov->len, prov->p);
    snprintf(r, sizeof r, "%.*s", (int)reg->len, reg->p);
    snprintf(t, sizeof t, "%.*s", (int)type->len, type->p);
    if (!r[0] && b->opt.region)
        snprintf(r, sizeof r, "%s", b->opt.region);
    if (!p[0] && b->opt.provider)
        snprintf(p, sizeof p, "%s", b->opt.provider);
    struct field filled = {t, 0};
    if (!t[0] && b->opt.instance_type) {
        snprintf(t, sizeof t, "%s", b->opt.instance_type);
        filled.len = strlen(t);
        type = &filled; /* named in messages as the parameter's value */
    }
    if (p[0] && strcmp(p, "aws") != 0 && strcmp(p, "gcp") != 0 &&
        strcmp(p, "azure") != 0) {
        char shown[SHOWN_SIZE];
        gp_trace_show(shown, prov);
        gp_trace_row_error(s, ctx, row, COL_PROVIDER,
                           "unknown provider %s (expected aws, gcp or azure)",
                           shown);
        return false;
    }
    it = gp_pricing_find(b->pricing, p, r, t, &cat, &ambiguous);
    char lower[sizeof r];
    if (!it && gp_pricing_region_upper(b->pricing, r, lower, sizeof lower)) {
        /* the region is what is wrong, not the type */
        char shown[SHOWN_SIZE];
        gp_trace_show_bytes(shown, r, strlen(r), 32);
        gp_trace_row_error(s, ctx, row, COL_REGION,
                           "%s: regions are lower case (write \"%s\")", shown,
                           lower);
        return false;
    }
    if (!it) {
        unresolved_type(s, b, ctx, row, type, p, r, ambiguous);
        return false;
    }
    /* one pool per (catalog, type), whatever spelling found it */
    id = UINT32_MAX;
    for (size_t i = 0; i < s->n_pools; i++)
        if (s->pools[i].catalog == cat && s->pools[i].type == it)
            id = (uint32_t)i;
    if (id == UINT32_MAX) {
        if (gp_grow((void **)&s->pools, &s->cap_pools, s->n_pools + 1,
                    sizeof *s->pools) != GP_OK)
            goto nomem;
        s->pools[s->n_pools].catalog = cat;
        s->pools[s->n_pools].type = it;
        id = (uint32_t)s->n_pools++;
    }
    if (gp_strmap_put(&s->pool_map, key, klen, id) != GP_OK)
        goto nomem;
    *pool = id;
    return true;
nomem:
    gp_error_set(&s->err, ctx->source, row->line, 0, NULL, "out of memory");
    s->status = GP_ERR_NOMEM;
    return false;
}
