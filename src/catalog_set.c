/*
 * catalog_set.c: sets of pricing catalogs (gp_pricing): a catalog file or
 * a folder of them loaded into one set, with one catalog per provider and
 * region and one currency, and the warnings loading gives (stale prices,
 * spot above on-demand).  See docs/design/catalog.md.
 */
#include "catalog_internal.h"
#include "source.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A pricing folder nested deeper than this is most likely a link loop. */
#define MAX_FOLDER_DEPTH 16
/* Older catalogs than this get a warning. */
#define STALE_DAYS 180

/* ---- small helpers ------------------------------------------------------ */

/* The folder part of a file path ("pricing/aws" for
 * "pricing/aws/us-east-1.json", "" for "cat.json").  New string or NULL. */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');

    if (!slash)
        return gp_strdup("");
    if (slash == path)
        return gp_strdup("/");
    return gp_strndup(path, (size_t)(slash - path));
}

/* Money for messages in a catalog's currency: "$21.957642", "$7.25",
 * "$7"; "EUR 7.25" in another than USD. */
static void format_money(double v, const char *currency, char *buf, size_t size)
{
    char num[32];

    gp_format_trimmed(v, 6, num, sizeof num);
    if (strcmp(currency, "USD") == 0)
        snprintf(buf, size, "$%s", num);
    else
        snprintf(buf, size, "%s %s", currency, num);
}

/* ---- sets of catalogs --------------------------------------------------- */

/* Adds the warnings a freshly loaded catalog deserves: prices older than
 * STALE_DAYS before today or dated a day or more after it (today <= 0:
 * unknown, no check), and spot prices (the highest of a history) above
 * on-demand. */
static gp_status warn_about(gp_pricing *p, gp_catalog *c, int64_t today)
{
    char as_of[1024] = "";

    if (today > 0 && today > c->as_of_t) {
        int64_t days = (today - c->as_of_t) / 86400;
        if (days > STALE_DAYS)
            snprintf(as_of, sizeof as_of,
                     "%s: prices as of %s are %lld days old", c->path, c->as_of,
                     (long long)days);
    } else if (today > 0 && c->as_of_t - today >= 86400) {
        /* a date after today is a typo (2062 for 2026) or a clock set
         * wrong: the staleness check cannot be trusted either way */
        int64_t days = (c->as_of_t - today) / 86400;
        snprintf(as_of, sizeof as_of,
                 "%s: prices as of %s are dated %lld %s after today; "
                 "check as_of",
                 c->path, c->as_of, (long long)days,
                 gp_plural(days, "day", "days"));
    }
    /* kept on the catalog, so that a run that uses none of its types can
     * take it back (gp_pricing_drop_unused_warnings) */
    if (as_of[0]) {
        gp_warnings_add(&p->warnings, "%s", as_of);
        /* without its copy the warning could not be taken back */
        if (!(c->as_of_warning = gp_strdup(as_of)))
            return GP_ERR_NOMEM;
    }
    for (size_t i = 0; i < c->n_types; i++) {
        const gp_instance_type *t = &c->types[i];
        double spot = t->spot.hourly;
        char s_buf[48], od_buf[48]; /* a currency code, a space, 31 digits */

        if (!t->spot.present)
            continue;
        for (size_t k = 0; k < t->spot.n_history; k++)
            if (t->spot.history[k].hourly > spot)
                spot = t->spot.history[k].hourly;
        if (spot <= t->on_demand)
            continue;
        format_money(spot, c->currency, s_buf, sizeof s_buf);
        format_money(t->on_demand, c->currency, od_buf, sizeof od_buf);
        gp_warnings_add(&p->warnings,
                        "%s: spot %s/h is above on-demand %s/h for %s", c->path,
                        s_buf, od_buf, t->name);
    }
    return GP_OK;
}

/* Loads one catalog file into p: parses it, refuses a second catalog for a
 * provider and region already loaded, or one in another currency than
 * those loaded, appends it and adds its warnings. */
static gp_status load_file(gp_pricing *p, const char *path, int64_t today,
                           gp_error *err)
{
    char *text = NULL, *base_dir = NULL;
    size_t len = 0;
    gp_catalog *c = NULL, **grown;
    gp_status st = gp_source_load(path, GP_SOURCE_CATALOG, &text, &len, err);

    if (st != GP_OK)
        return st;
    base_dir = dir_of(path);
    if (!base_dir) {
        gp_free(text);
        gp_error_set(err, path, 0, 0, "", "out of memory");
        return GP_ERR_NOMEM;
    }
    st = gp_catalog_parse(&c, text, len, path, base_dir, err);
    gp_free(base_dir);
    if (st != GP_OK) {
        gp_free(text);
        return st;
    }
    for (size_t i = 0; i < p->n_catalogs; i++) {
        const gp_catalog *o = p->catalogs[i];
        if (strcmp(o->provider, c->provider) == 0 &&
            strcmp(o->region, c->region) == 0) {
            gp_jdoc d;
            gp_jdoc_init(&d, text, len, path, err);
            gp_jdoc_error(&d, "region", "%s %s is already loaded from %s",
                          c->provider, c->region, o->path);
            gp_free(text);
            gp_catalog_free(c);
            return GP_ERR_INPUT;
        }
    }
    /* a run adds up one currency: no exchange rates to mix two */
    if (p->n_catalogs > 0 &&
        strcmp(p->catalogs[0]->currency, c->currency) != 0) {
        const gp_catalog *o = p->catalogs[0];
        gp_jdoc d;
        gp_jdoc_init(&d, text, len, path, err);
        gp_jdoc_error(&d, "currency",
                      "%s, but %s is in %s: the catalogs of a run must "
                      "share one currency, as their prices are added up "
                      "(convert this catalog's prices to %s and write "
                      "\"%s\", or run it apart)",
                      c->currency, o->path, o->currency, o->currency,
                      o->currency);
        gp_free(text);
        gp_catalog_free(c);
        return GP_ERR_INPUT;
    }
    gp_free(text);
    grown = gp_realloc(p->catalogs, (p->n_catalogs + 1) * sizeof *grown);
    if (!grown) {
        gp_catalog_free(c);
        gp_error_set(err, path, 0, 0, "", "out of memory");
        return GP_ERR_NOMEM;
    }
    p->catalogs = grown;
    p->catalogs[p->n_catalogs++] = c;
    if (warn_about(p, c, today) != GP_OK) {
        gp_error_set(err, path, 0, 0, "", "out of memory");
        return GP_ERR_NOMEM;
    }
    return GP_OK;
}

/* Whether the run prices anything from catalog c: a pool of the trace, or
 * a reservation owned or added by a strategy, is of one of its types. */
static bool catalog_used(const gp_pricing *p, const gp_catalog *c,
                         const gp_trace *t, const gp_scenario *s)
{
    for (size_t i = 0; t && i < t->n_pools; i++)
        if (t->pools[i].catalog == c)
            return true;
    for (size_t k = 0; s && k <= s->n_strategies; k++) {
        const gp_commitment *cm =
            k ? s->strategies[k - 1].add_commitments : s->commitments;
        size_t n = k ? s->strategies[k - 1].n_add : s->n_commitments;
        for (size_t i = 0; i < n; i++) {
            const gp_catalog *of = NULL;
            if (cm[i].type == GP_COMMIT_RESERVED &&
                gp_pricing_find(p, cm[i].provider, cm[i].region,
                                cm[i].instance_type, &of, NULL) &&
                of == c)
                return true;
        }
    }
    return false;
}

void gp_pricing_drop_unused_warnings(gp_pricing *p, const gp_trace *t,
                                     const gp_scenario *s)
{
    for (size_t i = 0; p && i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        gp_warnings *w = &p->warnings;
        if (!c->as_of_warning || catalog_used(p, c, t, s))
            continue;
        for (size_t k = 0; k < w->count; k++)
            if (strcmp(w->items[k], c->as_of_warning) == 0) {
                gp_free(w->items[k]);
                memmove(&w->items[k], &w->items[k + 1],
                        (w->count - k - 1) * sizeof *w->items);
                w->count--;
                break;
            }
    }
}

/* qsort order of folder entries: by name, bytewise. */
static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether name ends in suffix. */
static bool ends_with(const char *name, const char *suffix)
{
    size_t ln = strlen(name), ls = strlen(suffix);
    return ln >= ls && strcmp(name + ln - ls, suffix) == 0;
}

/*
 * Loads every *.json below folder `dir` into p, entries in name order and
 * subfolders where their names fall.  Other files (READMEs, spot histories
 * such as p4d-history.csv) and hidden entries are skipped.
 */
static gp_status load_folder(gp_pricing *p, const char *dir, int depth,
                             int64_t today, gp_error *err)
{
    DIR *dp;
    struct dirent *e;
    char **names = NULL;
    size_t n = 0, cap = 0;
    gp_status st = GP_OK;

    if (depth > MAX_FOLDER_DEPTH) {
        gp_error_set(err, dir, 0, 0, "",
                     "folders nested more than %d deep (a link loop?)",
                     MAX_FOLDER_DEPTH);
        return GP_ERR_INPUT;
    }
    dp = opendir(dir);
    if (!dp) {
        gp_error_set(err, dir, 0, 0, "", "cannot open folder: %s",
                     strerror(errno));
        return GP_ERR_INPUT;
    }
    while ((e = readdir(dp)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ".", ".." and hidden files */
        if (gp_grow((void **)&names, &cap, n + 1, sizeof *names) != GP_OK ||
            !(names[n] = gp_strdup(e->d_name))) {
            st = GP_ERR_NOMEM;
            break;
        }
        n++;
    }
    closedir(dp);
    if (st == GP_OK && n > 1)
        qsort(names, n, sizeof *names, name_cmp);
    for (size_t i = 0; i < n && st == GP_OK; i++) {
        struct stat sb;
        char *path = gp_catalog_join_path(dir, names[i]);
        if (!path) {
            st = GP_ERR_NOMEM;
            break;
        }
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
            st = load_folder(p, path, depth + 1, today, err);
        else if (ends_with(names[i], ".json"))
            st = load_file(p, path, today, err);
        gp_free(path);
    }
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, dir, 0, 0, "", "out of memory");
    for (size_t i = 0; i < n; i++)
        gp_free(names[i]);
    gp_free(names);
    return st;
}

/*
 * Loads a catalog file or a folder of them into *out (see gpuplan.h).  On
 * failure, the catalogs and warnings this call added are taken back out: a
 * set that existed before is left as it was (still the caller's to free), a
 * set this call made is freed and *out stays NULL.
 */
gp_status gp_pricing_load(gp_pricing **out, const char *path, int64_t today,
                          gp_error *err)
{
    gp_pricing *p = *out;
    size_t n_before, w_before;
    struct stat sb;
    gp_status st;

    if (!p) {
        p = gp_calloc(1, sizeof *p);
        if (!p) {
            gp_error_set(err, path, 0, 0, "", "out of memory");
            return GP_ERR_NOMEM;
        }
    }
    n_before = p->n_catalogs;
    w_before = p->warnings.count;
    if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        st = load_folder(p, path, 0, today, err);
        if (st == GP_OK && p->n_catalogs == n_before) {
            gp_error_set(err, path, 0, 0, "",
                         "no catalogs (*.json files) in this folder");
            st = GP_ERR_INPUT;
        }
    } else {
        st = load_file(p, path, today, err);
    }
    if (st == GP_OK) {
        *out = p;
        return GP_OK;
    }
    while (p->n_catalogs > n_before)
        gp_catalog_free(p->catalogs[--p->n_catalogs]);
    gp_warnings_truncate(&p->warnings, w_before);
    if (!*out) {
        gp_pricing_free(p);
    }
    return st;
}

/* Frees every catalog of the set and its warnings; NULL is fine. */
void gp_pricing_free(gp_pricing *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n_catalogs; i++)
        gp_catalog_free(p->catalogs[i]);
    gp_free(p->catalogs);
    gp_warnings_clear(&p->warnings);
    gp_free(p);
}
