/*
 * catalog.c: one pricing catalog (SPEC section 3), parsed and checked from
 * JSON: its provider, region, currency and date, and its instance types
 * with their on-demand, reserved and savings-plan prices (their spot
 * sections are read by catalog_spot.c).  The first mistake stops it with
 * file:line:column and the JSON path.  See docs/design/catalog.md.
 */
#include "catalog_internal.h"
#include "safe_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CATALOG_SCHEMA "gpuplan-catalog/1"

/* ---- small helpers ------------------------------------------------------ */

/* Copies s into *dst; GP_ERR_NOMEM (recorded in d) when that fails. */
static gp_status dup_into(gp_jdoc *d, char **dst, const char *s)
{
    *dst = gp_strdup(s);
    return *dst ? GP_OK : gp_jdoc_nomem(d);
}

/* Checks that string member `key` with value s is at most max bytes. */
gp_status gp_catalog_check_length(gp_jdoc *d, const char *key, const char *s,
                                  size_t max)
{
    if (strlen(s) <= max)
        return GP_OK;
    return gp_jdoc_error(d, key, "too long (at most %zu characters)", max);
}

/* dir + "/" + name, or name alone when dir is empty or name is absolute.
 * Returns a new string or NULL when out of memory. */
char *gp_catalog_join_path(const char *dir, const char *name)
{
    size_t ld = dir ? strlen(dir) : 0, ln = strlen(name);
    char *p;

    if (ld == 0 || name[0] == '/')
        return gp_strdup(name);
    while (ld > 1 && dir[ld - 1] == '/')
        ld--; /* "pricing/" + "aws" is "pricing/aws" */
    p = gp_malloc(ld + 1 + ln + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, ld);
    p[ld] = '/';
    memcpy(p + ld + 1, name, ln + 1);
    if (ld == 1 && dir[0] == '/')
        memmove(p + 1, p + 2, ln + 1); /* "/" + "x" is "/x" */
    return p;
}

/* qsort/bsearch order of instance types: by name. */
static int type_cmp(const void *a, const void *b)
{
    const gp_instance_type *x = a, *y = b;
    return strcmp(x->name, y->name);
}

/* ---- one instance type -------------------------------------------------- */

/* The keys each object of a catalog may have (SPEC section 3); anything else
 * is a misspelling, and a misspelt "upfront" or "estimate" would otherwise
 * change the numbers without a word. */
static const char *const catalog_keys[] = {
    "schema", "provider", "region",         "currency",
    "as_of",  "sources",  "instance_types", NULL};
static const char *const type_keys[] = {
    "family",    "gpu_model",  "gpus",
    "vcpus",     "memory_gib", "normalization_factor",
    "on_demand", "reserved",   "savings_plans",
    "spot",      "capacity_blocks", "flex_start",
    "calendar",  NULL};
static const char *const reserved_keys[] = {"term_years", "payment",  "hourly",
                                            "upfront",    "estimate", NULL};
static const char *const plan_keys[] = {"kind",   "term_years", "payment",
                                        "hourly", "estimate",   NULL};

/* Checks that reserved offer o's charges fit its payment: all_upfront has
 * no hourly charge and no_upfront no upfront one, and the charges each
 * payment has are above 0. */
static gp_status check_reserved_payment(gp_jdoc *d, const gp_reserved_offer *o)
{
    char num[32];

    if (o->payment == GP_ALL_UPFRONT && o->hourly != 0) {
        gp_json_format_number(o->hourly, num, sizeof num);
        return gp_jdoc_error(d, "hourly",
                             "an all_upfront offer has no hourly "
                             "charge, got %s (put the whole price in "
                             "upfront)",
                             num);
    }
    if (o->payment == GP_NO_UPFRONT && o->upfront != 0) {
        gp_json_format_number(o->upfront, num, sizeof num);
        return gp_jdoc_error(d, "upfront",
                             "a no_upfront offer has no upfront "
                             "payment, got %s",
                             num);
    }
    /* a reservation that costs nothing would win every plan, as free
     * spot would: each payment's own charges must be above 0 */
    if (o->payment == GP_NO_UPFRONT && o->hourly == 0)
        return gp_jdoc_error(d, "hourly",
                             "a no_upfront offer is paid by the hour: "
                             "hourly must be above 0");
    if (o->payment == GP_ALL_UPFRONT && o->upfront == 0)
        return gp_jdoc_error(d, "upfront",
                             "an all_upfront offer is paid upfront: "
                             "upfront must be above 0");
    if (o->payment == GP_PARTIAL_UPFRONT && o->hourly == 0)
        return gp_jdoc_error(d, "hourly",
                             "a partial_upfront offer is paid in part by "
                             "the hour: hourly must be above 0 (all of it "
                             "upfront? write payment all_upfront)");
    if (o->payment == GP_PARTIAL_UPFRONT && o->upfront == 0)
        return gp_jdoc_error(d, "upfront",
                             "a partial_upfront offer is paid in part "
                             "upfront: upfront must be above 0 (none "
                             "upfront? write payment no_upfront)");
    return GP_OK;
}

/* Reads reserved[] of a type (the current path is the type). */
static gp_status parse_reserved(gp_jdoc *d, const json_t *jt,
                                gp_instance_type *t)
{
    json_t *arr, *jo;
    size_t i;
    gp_status st = gp_jdoc_array(d, jt, "reserved", false, &arr);

    if (st != GP_OK || !arr || json_array_size(arr) == 0)
        return st;
    t->reserved = gp_calloc(json_array_size(arr), sizeof *t->reserved);
    if (!t->reserved)
        return gp_jdoc_nomem(d);
    gp_jdoc_push_key(d, "reserved");
    json_array_foreach(arr, i, jo)
    {
        gp_reserved_offer *o = &t->reserved[i];
        int payment = 0;

        gp_jdoc_push_index(d, i);
        if ((st = gp_jdoc_expect_object(d, jo)) != GP_OK ||
            (st = gp_jdoc_known_keys(d, jo, reserved_keys, NULL)) != GP_OK ||
            (st = gp_jdoc_term_years(d, jo, "term_years", true, &o->term_years,
                                     NULL)) != GP_OK ||
            (st = gp_jdoc_enum(d, jo, "payment", true, "payment",
                               gp_json_payment_names, 3, &payment, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_number(d, jo, "hourly", true, &o->hourly, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_check_nonnegative(d, "hourly", o->hourly)) != GP_OK ||
            (st = gp_jdoc_number(d, jo, "upfront", false, &o->upfront, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_check_nonnegative(d, "upfront", o->upfront)) !=
                GP_OK ||
            (st = gp_jdoc_bool(d, jo, "estimate", false, &o->estimate, NULL)) !=
                GP_OK)
            return st;
        o->payment = (gp_payment)payment;
        if ((st = check_reserved_payment(d, o)) != GP_OK)
            return st;
        for (size_t k = 0; k < i; k++)
            if (t->reserved[k].term_years == o->term_years &&
                t->reserved[k].payment == o->payment)
                return gp_jdoc_error(d, NULL,
                                     "duplicate %d-year %s offer (also "
                                     "reserved[%zu])",
                                     o->term_years, gp_payment_name(o->payment),
                                     k);
        t->n_reserved = i + 1;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads savings_plans[] of a type (the current path is the type). */
static gp_status parse_plans(gp_jdoc *d, const json_t *jt, gp_instance_type *t)
{
    json_t *arr, *jo;
    size_t i;
    gp_status st = gp_jdoc_array(d, jt, "savings_plans", false, &arr);

    if (st != GP_OK || !arr || json_array_size(arr) == 0)
        return st;
    t->plans = gp_calloc(json_array_size(arr), sizeof *t->plans);
    if (!t->plans)
        return gp_jdoc_nomem(d);
    gp_jdoc_push_key(d, "savings_plans");
    json_array_foreach(arr, i, jo)
    {
        gp_plan_offer *o = &t->plans[i];
        int payment = 0, kind = 0;

        gp_jdoc_push_index(d, i);
        if ((st = gp_jdoc_expect_object(d, jo)) != GP_OK ||
            (st = gp_jdoc_known_keys(d, jo, plan_keys, NULL)) != GP_OK ||
            (st = gp_jdoc_enum(d, jo, "kind", true, "kind",
                               gp_json_plan_kind_names, 2, &kind, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_term_years(d, jo, "term_years", true, &o->term_years,
                                     NULL)) != GP_OK ||
            (st = gp_jdoc_enum(d, jo, "payment", true, "payment",
                               gp_json_payment_names, 3, &payment, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_number(d, jo, "hourly", true, &o->hourly, NULL)) !=
                GP_OK ||
            /* a plan rate of 0 would cover usage for nothing */
            (st = gp_jdoc_check_positive(d, "hourly", o->hourly)) != GP_OK ||
            (st = gp_jdoc_bool(d, jo, "estimate", false, &o->estimate, NULL)) !=
                GP_OK)
            return st;
        o->kind = (gp_plan_kind)kind;
        o->payment = (gp_payment)payment;
        if (o->kind == GP_PLAN_FAMILY && !t->family[0])
            return gp_jdoc_error(d, "kind",
                                 "an instance_family plan rate needs the "
                                 "type's family");
        for (size_t k = 0; k < i; k++)
            if (t->plans[k].kind == o->kind &&
                t->plans[k].term_years == o->term_years &&
                t->plans[k].payment == o->payment)
                return gp_jdoc_error(d, NULL,
                                     "duplicate %d-year %s %s offer (also "
                                     "savings_plans[%zu])",
                                     o->term_years, gp_payment_name(o->payment),
                                     gp_plan_kind_name(o->kind), k);
        t->n_plans = i + 1;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads one entry of instance_types (the current path is that entry). */
static gp_status parse_type(gp_jdoc *d, const json_t *jt, const char *name,
                            const char *base_dir, gp_instance_type *t)
{
    const char *family = "", *gpu_model = "";
    double gpus = 0;
    gp_status st;

    if ((st = dup_into(d, &t->name, name)) != GP_OK)
        return st;
    if (!name[0])
        return gp_jdoc_error(d, NULL, "an instance type needs a name");
    if (strlen(name) > GP_CATALOG_MAX_TYPE_NAME)
        return gp_jdoc_error(d, NULL,
                             "instance type name too long (at most %d "
                             "characters)",
                             GP_CATALOG_MAX_TYPE_NAME);
    if ((st = gp_jdoc_expect_object(d, jt)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, jt, type_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_string(d, jt, "family", false, &family, NULL)) != GP_OK ||
        (st = gp_catalog_check_length(d, "family", family,
                                      GP_CATALOG_MAX_FAMILY)) != GP_OK ||
        (st = gp_jdoc_string(d, jt, "gpu_model", false, &gpu_model, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_number(d, jt, "gpus", true, &gpus, NULL)) != GP_OK ||
        (st = gp_jdoc_check_whole(d, "gpus", gpus, 1, GP_CATALOG_MAX_GPUS)) !=
            GP_OK ||
        (st = gp_jdoc_number(d, jt, "vcpus", false, &t->vcpus, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_check_nonnegative(d, "vcpus", t->vcpus)) != GP_OK ||
        (st = gp_jdoc_number(d, jt, "memory_gib", false, &t->memory_gib,
                             NULL)) != GP_OK ||
        (st = gp_jdoc_check_nonnegative(d, "memory_gib", t->memory_gib)) !=
            GP_OK)
        return st;
    t->gpus = (int)gpus;
    if ((st = dup_into(d, &t->family, family)) != GP_OK ||
        (st = dup_into(d, &t->gpu_model, gpu_model)) != GP_OK)
        return st;
    {
        bool have = false;
        if ((st = gp_jdoc_number(d, jt, "normalization_factor", false,
                                 &t->normalization_factor, &have)) != GP_OK ||
            (have &&
             (st = gp_jdoc_check_positive(d, "normalization_factor",
                                          t->normalization_factor)) != GP_OK))
            return st;
    }
    if ((st = gp_jdoc_number(d, jt, "on_demand", true, &t->on_demand, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_check_positive(d, "on_demand", t->on_demand)) != GP_OK ||
        (st = parse_reserved(d, jt, t)) != GP_OK ||
        (st = parse_plans(d, jt, t)) != GP_OK ||
        (st = gp_catalog_parse_spot(d, jt, base_dir, t)) != GP_OK ||
        (st = gp_catalog_parse_capacity(d, jt, t)) != GP_OK)
        return st;
    return GP_OK;
}

/* ---- one catalog -------------------------------------------------------- */

/* Reads what a catalog is of: its schema (first: a scenario given as a
 * catalog should say so), its keys, provider and region. */
static gp_status parse_identity(gp_jdoc *d, const json_t *root, gp_catalog *c)
{
    const char *region;
    int schema = 0, provider = 0;
    char quoted[160];
    gp_status st;
    static const char *const schema_names[1] = {CATALOG_SCHEMA};

    /* the schema first: a scenario given as a catalog should say so */
    if ((st = gp_jdoc_enum(d, root, "schema", true, "schema", schema_names, 1,
                           &schema, NULL)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, root, catalog_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_enum(d, root, "provider", true, "provider",
                           gp_json_provider_names, 3, &provider, NULL)) !=
            GP_OK ||
        (st = dup_into(d, &c->provider, gp_json_provider_names[provider])) !=
            GP_OK ||
        (st = gp_jdoc_string(d, root, "region", true, &region, NULL)) != GP_OK)
        return st;
    if (!region[0])
        return gp_jdoc_error(d, "region", "must not be empty");
    if ((st = gp_catalog_check_length(d, "region", region,
                                      GP_CATALOG_MAX_REGION)) != GP_OK)
        return st;
    /* as the providers write them, and as the region parameter is read (lower-cased):
     * a catalog of "US-EAST-1" could not be chosen with it, and a trace's
     * region column must then name it in upper case, which gpuplan says
     * to write in lower case */
    char lower[GP_CATALOG_MAX_REGION + 1];
    if (gp_ascii_lower(lower, sizeof lower, region))
        return gp_jdoc_error(
            d, "region", "%s: regions are lower case (write \"%s\")",
            gp_json_quote(region, quoted, sizeof quoted), lower);
    return dup_into(d, &c->region, region);
}

/* Reads a catalog's currency (a 3-letter code) and as_of (a date the
 * calendar has). */
static gp_status parse_currency_and_date(gp_jdoc *d, const json_t *root,
                                         gp_catalog *c)
{
    const char *currency, *as_of, *why;
    double as_of_seconds;
    char quoted[160];
    gp_status st;

    if ((st = gp_jdoc_string(d, root, "currency", true, &currency, NULL)) !=
        GP_OK)
        return st;
    if (strlen(currency) != 3 || currency[0] < 'A' || currency[0] > 'Z' ||
        currency[1] < 'A' || currency[1] > 'Z' || currency[2] < 'A' ||
        currency[2] > 'Z')
        return gp_jdoc_error(d, "currency",
                             "expected a 3-letter currency code such as "
                             "\"USD\", got %s",
                             gp_json_quote(currency, quoted, sizeof quoted));
    if ((st = dup_into(d, &c->currency, currency)) != GP_OK ||
        (st = gp_jdoc_string(d, root, "as_of", true, &as_of, NULL)) != GP_OK)
        return st;
    /* exactly YYYY-MM-DD, and a day the calendar has */
    if (strlen(as_of) != 10 || as_of[4] != '-' || as_of[7] != '-' ||
        strspn(as_of, "0123456789-") != 10)
        return gp_jdoc_error(d, "as_of", "expected a date YYYY-MM-DD, got %s",
                             gp_json_quote(as_of, quoted, sizeof quoted));
    if (!gp_parse_time(as_of, 10, &as_of_seconds, &why))
        return gp_jdoc_error(d, "as_of", "%s, got %s", why,
                             gp_json_quote(as_of, quoted, sizeof quoted));
    c->as_of_t = (int64_t)as_of_seconds;
    return dup_into(d, &c->as_of, as_of);
}

/* Reads a catalog's sources[], strings saying where its prices came from. */
static gp_status parse_sources(gp_jdoc *d, const json_t *root, gp_catalog *c)
{
    json_t *sources;
    size_t i;
    gp_status st;

    if ((st = gp_jdoc_array(d, root, "sources", false, &sources)) != GP_OK)
        return st;
    if (sources && json_array_size(sources) > 0) {
        json_t *js;
        c->sources = gp_calloc(json_array_size(sources), sizeof *c->sources);
        if (!c->sources)
            return gp_jdoc_nomem(d);
        gp_jdoc_push_key(d, "sources");
        json_array_foreach(sources, i, js)
        {
            gp_jdoc_push_index(d, i);
            if (!json_is_string(js))
                return gp_jdoc_error(d, NULL, "expected a string, got %s",
                                     gp_json_type_phrase(js));
            if ((st = dup_into(d, &c->sources[i], json_string_value(js))) !=
                GP_OK)
                return st;
            c->n_sources = i + 1;
            gp_jdoc_pop(d);
        }
        gp_jdoc_pop(d);
    }
    return GP_OK;
}

/* Reads a catalog's instance_types, then sorts them by name. */
static gp_status parse_types(gp_jdoc *d, const json_t *root,
                             const char *base_dir, gp_catalog *c)
{
    const char *key;
    json_t *types, *jt;
    gp_status st;

    if ((st = gp_jdoc_object(d, root, "instance_types", true, &types)) != GP_OK)
        return st;
    if (json_object_size(types) > 0) {
        c->types = gp_calloc(json_object_size(types), sizeof *c->types);
        if (!c->types)
            return gp_jdoc_nomem(d);
    }
    gp_jdoc_push_key(d, "instance_types");
    json_object_foreach(types, key, jt)
    {
        /* counted before parsing, so that a half-read type is freed too */
        gp_instance_type *t = &c->types[c->n_types++];
        uint32_t code;
        size_t at = gp_text_control_at(key, strlen(key), &code);
        if (at < strlen(key))
            return gp_jdoc_error(d, NULL,
                                 "an instance type name with a control "
                                 "character (U+%04X, byte %zu), which no "
                                 "report can show: remove it",
                                 (unsigned)code, at + 1);
        gp_jdoc_push_key(d, key);
        if ((st = parse_type(d, jt, key, base_dir, t)) != GP_OK)
            return st;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    if (c->n_types > 1)
        qsort(c->types, c->n_types, sizeof *c->types, type_cmp);
    return GP_OK;
}

/* Reads the top level of a catalog document into c. */
static gp_status parse_catalog(gp_jdoc *d, const json_t *root,
                               const char *base_dir, gp_catalog *c)
{
    gp_status st;

    if ((st = parse_identity(d, root, c)) != GP_OK ||
        (st = parse_currency_and_date(d, root, c)) != GP_OK ||
        (st = parse_sources(d, root, c)) != GP_OK ||
        (st = parse_types(d, root, base_dir, c)) != GP_OK)
        return st;
    return GP_OK;
}

/* Parses and checks one catalog held in memory; base_dir is where its spot
 * history files are looked for ("" or NULL: the current folder). */
gp_status gp_catalog_parse(gp_catalog **out, const char *text, size_t len,
                           const char *source, const char *base_dir,
                           gp_error *err)
{
    gp_jdoc d;
    json_t *root = NULL;
    gp_catalog *c;
    gp_status st;

    *out = NULL;
    gp_jdoc_init(&d, text, len, source, err);
    c = gp_calloc(1, sizeof *c);
    if (!c)
        return gp_jdoc_nomem(&d);
    c->path = gp_strdup(source ? source : "");
    if (!c->path) {
        gp_free(c);
        return gp_jdoc_nomem(&d);
    }
    st = gp_jdoc_parse(&d, &root);
    if (st == GP_OK)
        st = parse_catalog(&d, root, base_dir, c);
    json_decref(root);
    if (st != GP_OK) {
        gp_catalog_free(c);
        return st;
    }
    *out = c;
    return GP_OK;
}

/* Frees what one instance type owns (not the struct itself). */
static void type_free(gp_instance_type *t)
{
    gp_free(t->name);
    gp_free(t->family);
    gp_free(t->gpu_model);
    gp_free(t->reserved);
    gp_free(t->plans);
    gp_free(t->spot.history);
    gp_availability_clear(&t->spot.avail);
    gp_free(t->blocks);
    gp_free(t->calendar);
}

/* Frees a catalog and everything it owns; NULL is fine. */
void gp_catalog_free(gp_catalog *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_types; i++)
        type_free(&c->types[i]);
    gp_free(c->types);
    for (size_t i = 0; i < c->n_sources; i++)
        gp_free(c->sources[i]);
    gp_free(c->sources);
    gp_free(c->path);
    gp_free(c->provider);
    gp_free(c->region);
    gp_free(c->currency);
    gp_free(c->as_of);
    gp_free(c->as_of_warning);
    gp_free(c);
}
