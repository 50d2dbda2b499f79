/*
 * catalog_lookup.c: prices looked up in a set of catalogs: an instance
 * type by provider, region and name (binary search, as types are kept
 * sorted), names near a misspelt one, the spot price at a time, and the
 * offers a commitment buys.  See docs/design/catalog.md.
 */
#include "catalog_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- lookups ------------------------------------------------------------ */

/* bsearch key comparison: a name against a type. */
static int type_name_cmp(const void *key, const void *elem)
{
    const gp_instance_type *t = elem;
    return strcmp(key, t->name);
}

/* Returns NULL (and sets *ambiguous) when several catalogs hold the type:
 * a caller must then ask for a provider and region. */
const gp_instance_type *gp_pricing_find(const gp_pricing *p,
                                        const char *provider,
                                        const char *region, const char *name,
                                        const gp_catalog **catalog_out,
                                        bool *ambiguous)
{
    const gp_instance_type *found = NULL;
    const gp_catalog *found_in = NULL;
    size_t matches = 0;

    if (ambiguous)
        *ambiguous = false;
    if (catalog_out)
        *catalog_out = NULL;
    if (!p || !name)
        return NULL;
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        const gp_instance_type *t;
        if (provider && provider[0] && strcmp(c->provider, provider) != 0)
            continue;
        if (region && region[0] && strcmp(c->region, region) != 0)
            continue;
        t = c->n_types
                ? bsearch(name, c->types, c->n_types, sizeof *t, type_name_cmp)
                : NULL;
        if (!t)
            continue;
        if (matches++ == 0) {
            found = t;
            found_in = c;
        }
    }
    if (matches > 1) {
        if (ambiguous)
            *ambiguous = true;
        return NULL;
    }
    if (catalog_out)
        *catalog_out = found_in;
    return found;
}

/* A candidate for gp_pricing_suggest. */
typedef struct suggestion {
    size_t distance;
    size_t prefix; /* characters shared at the start */
    const char *name;
} suggestion;

/* Whether a ranks before b: nearer, then a longer shared start, then by
 * name. */
static bool ranks_before(const suggestion *a, const suggestion *b)
{
    if (a->distance != b->distance)
        return a->distance < b->distance;
    if (a->prefix != b->prefix)
        return a->prefix > b->prefix;
    return strcmp(a->name, b->name) < 0;
}

/* Lower-cases s into buf (cut at size - 1 bytes). */
static void lower_into(const char *s, char *buf, size_t size)
{
    size_t i = 0;

    for (; s[i] && i + 1 < size; i++)
        buf[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
    buf[i] = '\0';
}

/*
 * Names within a few edits of `name` (ignoring case; at most a quarter of
 * its length, but 2 for short names), nearest first; a longer shared start
 * breaks ties, so "p4.24xlarge" suggests p4d.24xlarge before p3.2xlarge.
 */
void gp_pricing_suggest(const gp_pricing *p, const char *name, char *buf,
                        size_t size, int max)
{
    suggestion best[16];
    size_t n_best = 0, limit, used = 0;
    char want[128], have[128];

    if (size == 0)
        return;
    buf[0] = '\0';
    if (!p || !name || max <= 0)
        return;
    if (max > 16)
        max = 16;
    lower_into(name, want, sizeof want);
    limit = strlen(want) / 4 < 2 ? 2 : strlen(want) / 4;
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        for (size_t j = 0; j < c->n_types; j++) {
            suggestion s;
            bool seen = false;
            size_t k;

            s.name = c->types[j].name;
            for (k = 0; k < n_best; k++)
                if (strcmp(best[k].name, s.name) == 0)
                    seen = true; /* the same type in another region */
            if (seen)
                continue;
            lower_into(s.name, have, sizeof have);
            s.distance = gp_edit_distance(want, have, limit + 1);
            if (s.distance > limit)
                continue;
            for (s.prefix = 0;
                 want[s.prefix] && want[s.prefix] == have[s.prefix]; s.prefix++)
                ;
            /* insertion into the sorted list of the best `max` */
            if (n_best < (size_t)max)
                k = n_best++;
            else if (ranks_before(&s, &best[max - 1]))
                k = (size_t)max - 1;
            else
                continue;
            while (k > 0 && ranks_before(&s, &best[k - 1])) {
                best[k] = best[k - 1];
                k--;
            }
            best[k] = s;
        }
    }
    for (size_t k = 0; k < n_best && used < size; k++) {
        int w = snprintf(buf + used, size - used, "%s%s", k ? ", " : "",
                         best[k].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

/* The price in force at t: the last history point at or before t (the
 * first point for earlier times), or the flat hourly price. */
double gp_spot_price_at(const gp_spot_offer *s, int64_t t)
{
    size_t lo = 0, hi;

    if (!s)
        return 0;
    if (s->n_history == 0)
        return s->hourly;
    if (t < s->history[0].t)
        return s->history[0].hourly; /* before the series: its first price */
    /* the last point at or before t */
    hi = s->n_history;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->history[mid].t <= t)
            lo = mid;
        else
            hi = mid;
    }
    return s->history[lo].hourly;
}

/* What an instance-hour of the reservation costs with its upfront payment
 * spread evenly over the term's hours (8760 a year). */
double gp_reserved_effective_hourly(const gp_reserved_offer *o)
{
    if (o->term_years <= 0)
        return o->hourly;
    return o->hourly + o->upfront / (o->term_years * 8760.0);
}

const gp_reserved_offer *gp_reserved_offer_of(const gp_pricing *p,
                                              const gp_commitment *c,
                                              const gp_instance_type **type)
{
    const gp_instance_type *it = gp_pricing_find(p, c->provider, c->region,
                                                 c->instance_type, NULL, NULL);
    const gp_reserved_offer *offer = NULL;

    for (size_t k = 0; it && k < it->n_reserved; k++)
        if (it->reserved[k].term_years == c->term_years &&
            it->reserved[k].payment == c->payment)
            offer = &it->reserved[k];
    if (type)
        *type = it;
    return offer;
}

const gp_plan_offer *gp_plan_offer_of(const gp_commitment *c,
                                      const gp_catalog *cat,
                                      const gp_instance_type *it)
{
    if (strcmp(cat->provider, c->provider) != 0)
        return NULL;
    if (c->kind == GP_PLAN_FAMILY && (strcmp(cat->region, c->region) != 0 ||
                                      strcmp(it->family, c->family) != 0))
        return NULL;
    for (size_t k = 0; k < it->n_plans; k++) {
        const gp_plan_offer *o = &it->plans[k];
        if (o->kind == c->kind && o->term_years == c->term_years &&
            o->payment == c->payment && o->hourly > 0)
            return o;
    }
    return NULL;
}

bool gp_pricing_region_upper(const gp_pricing *p, const char *r, char *lower,
                             size_t size)
{
    if (!gp_ascii_lower(lower, size, r))
        return false;
    for (size_t i = 0; p && i < p->n_catalogs; i++)
        if (strcmp(p->catalogs[i]->region, r) == 0)
            return false;
    return true;
}

bool gp_reserved_covers(const gp_catalog *cat, const gp_instance_type *it,
                        const gp_catalog *pcat, const gp_instance_type *pt)
{
    if (pcat != cat)
        return false;
    if (it->normalization_factor > 0)
        return pt->normalization_factor > 0 &&
               strcmp(pt->family, it->family) == 0;
    return pt == it;
}

const char *gp_pricing_currency(const gp_pricing *p)
{
    return p && p->n_catalogs > 0 ? p->catalogs[0]->currency : "USD";
}
