/*
 * json_util_read.c: the typed member readers of a gp_jdoc (gp_jdoc_number,
 * gp_jdoc_enum, ...) and the range checks, which word every type and
 * range error the same way for both loaders.
 */
#include "json_util.h"
#include "safe_text.h"
#include "util.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- typed readers ------------------------------------------------------ */

/*
 * Finds member `key` of obj.  Returns GP_OK with *out NULL when it is
 * absent (or null) and not required; an error when it is absent and
 * required; else GP_OK with *out set.
 */
static gp_status member(gp_jdoc *d, const json_t *obj, const char *key,
                        bool required, const char *expected, json_t **out)
{
    json_t *v = json_object_get(obj, key);

    *out = NULL;
    if (!v)
        return required ? gp_jdoc_error(d, key, "missing required key") : GP_OK;
    if (json_is_null(v) && !required)
        return GP_OK;
    if (json_is_null(v))
        return gp_jdoc_error(d, key, "expected %s, got null", expected);
    *out = v;
    return GP_OK;
}

/* Records "expected <expected>, got <v's type>" at member key. */
static gp_status wrong_type(gp_jdoc *d, const char *key, const char *expected,
                            const json_t *v)
{
    return gp_jdoc_error(d, key, "expected %s, got %s", expected,
                         gp_json_type_phrase(v));
}

/* A number member (JSON integer or real). */
gp_status gp_jdoc_number(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, double *out, bool *present)
{
    json_t *v;
    gp_status st = member(d, obj, key, required, "a number", &v);

    if (present)
        *present = false;
    if (st != GP_OK || !v)
        return st;
    if (!json_is_number(v))
        return wrong_type(d, key, "a number", v);
    *out = json_number_value(v);
    if (!isfinite(*out)) /* jansson rejects these, but be sure */
        return gp_jdoc_error(d, key, "expected a finite number");
    if (present)
        *present = true;
    return GP_OK;
}

/* A string member, borrowed from obj. */
gp_status gp_jdoc_string(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, const char **out, bool *present)
{
    json_t *v;
    gp_status st = member(d, obj, key, required, "a string", &v);

    if (present)
        *present = false;
    if (st != GP_OK || !v)
        return st;
    if (!json_is_string(v))
        return wrong_type(d, key, "a string", v);
    uint32_t code;
    size_t len = json_string_length(v);
    size_t at = gp_text_control_at(json_string_value(v), len, &code);
    if (at < len)
        return gp_jdoc_error(d, key,
                             "a control character (U+%04X, byte %zu), which "
                             "no report can show: remove it",
                             (unsigned)code, at + 1);
    *out = json_string_value(v);
    if (present)
        *present = true;
    return GP_OK;
}

/* A true/false member. */
gp_status gp_jdoc_bool(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, bool *out, bool *present)
{
    json_t *v;
    gp_status st = member(d, obj, key, required, "true or false", &v);

    if (present)
        *present = false;
    if (st != GP_OK || !v)
        return st;
    if (!json_is_boolean(v))
        return wrong_type(d, key, "true or false", v);
    *out = json_is_true(v);
    if (present)
        *present = true;
    return GP_OK;
}

/* An object member, borrowed; *out is NULL when absent. */
gp_status gp_jdoc_object(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, json_t **out)
{
    gp_status st = member(d, obj, key, required, "an object", out);

    if (st != GP_OK || !*out)
        return st;
    if (!json_is_object(*out)) {
        st = wrong_type(d, key, "an object", *out);
        *out = NULL;
    }
    return st;
}

/* An array member, borrowed; *out is NULL when absent. */
gp_status gp_jdoc_array(gp_jdoc *d, const json_t *obj, const char *key,
                        bool required, json_t **out)
{
    gp_status st = member(d, obj, key, required, "an array", out);

    if (st != GP_OK || !*out)
        return st;
    if (!json_is_array(*out)) {
        st = wrong_type(d, key, "an array", *out);
        *out = NULL;
    }
    return st;
}

/* For array elements, which have no key: v itself must be an object. */
gp_status gp_jdoc_expect_object(gp_jdoc *d, const json_t *v)
{
    if (json_is_object(v))
        return GP_OK;
    return gp_jdoc_error(d, NULL, "expected an object, got %s",
                         gp_json_type_phrase(v));
}

/* Writes names[0..n) into buf as "a, b<last>c" (last is " or " for a
 * choice, ", " for a list), cut short at size. */
static void join_names(char *buf, size_t size, const char *const *names,
                       size_t n, const char *last)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        int k = snprintf(buf + used, size - used, "%s%s",
                         i == 0       ? ""
                         : i == n - 1 ? last
                                      : ", ",
                         names[i]);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* Whether key is one of the NULL-terminated list (which may be NULL). */
static bool in_list(const char *key, const char *const *list)
{
    for (size_t i = 0; list && list[i]; i++)
        if (strcmp(key, list[i]) == 0)
            return true;
    return false;
}

gp_status gp_jdoc_known_keys(gp_jdoc *d, const json_t *obj,
                             const char *const *known,
                             const char *const *read_past)
{
    const char *key, *near = NULL;
    json_t *v;
    char list[512];
    size_t best = SIZE_MAX, i;

    json_object_foreach((json_t *)obj, key, v)
    {
        if (key[0] == '_' || in_list(key, known) || in_list(key, read_past))
            continue;
        /* the nearest known key, within a third of its length (and at
         * least one edit) */
        for (i = 0; known[i]; i++) {
            size_t limit = strlen(known[i]) / 3 < 1 ? 1 : strlen(known[i]) / 3;
            size_t e = gp_edit_distance(key, known[i], limit + 1);
            if (e <= limit && e < best) {
                best = e;
                near = known[i];
            }
        }
        /* else a known key that holds it whole, or that it holds ("types"
         * for "instance_types") */
        for (i = 0; !near && known[i]; i++)
            if (strlen(key) >= 4 && strlen(known[i]) >= 4 &&
                (strstr(known[i], key) || strstr(key, known[i])))
                near = known[i];
        if (near)
            return gp_jdoc_error(d, key, "unknown key (did you mean \"%s\"?)",
                                 near);
        for (i = 0; known[i]; i++)
            ;
        join_names(list, sizeof list, known, i, ", ");
        return gp_jdoc_error(d, key, "unknown key (expected %s)", list);
    }
    return GP_OK;
}

const char *const gp_json_payment_names[3] = {"no_upfront", "partial_upfront",
                                              "all_upfront"};
const char *const gp_json_provider_names[3] = {"aws", "gcp", "azure"};
const char *const gp_json_plan_kind_names[2] = {"compute", "instance_family"};
const char *const gp_json_launch_names[5] = {
    "on_demand", "spot", "capacity_block", "flex_start", "calendar"};

/* A string member from a fixed vocabulary; a word outside it gets the list
 * of words that would do. */
gp_status gp_jdoc_enum(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, const char *what,
                       const char *const *names, int n, int *out, bool *present)
{
    const char *s;
    bool have = false;
    char list[256], quoted[128];
    gp_status st = gp_jdoc_string(d, obj, key, required, &s, &have);

    if (present)
        *present = false;
    if (st != GP_OK || !have)
        return st;
    for (int i = 0; i < n; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            if (present)
                *present = true;
            return GP_OK;
        }
    }
    join_names(list, sizeof list, names, (size_t)n, " or ");
    return gp_jdoc_error(d, key, "unknown %s %s (expected %s)", what,
                         gp_json_quote(s, quoted, sizeof quoted), list);
}

/* A commitment term: 1 or 3 years, the only terms the clouds sell. */
gp_status gp_jdoc_term_years(gp_jdoc *d, const json_t *obj, const char *key,
                             bool required, int *out, bool *present)
{
    double v = 0;
    bool have = false;
    char num[32];
    gp_status st = gp_jdoc_number(d, obj, key, required, &v, &have);

    if (present)
        *present = false;
    if (st != GP_OK || !have)
        return st;
    if (v != 1 && v != 3) {
        gp_json_format_number(v, num, sizeof num);
        return gp_jdoc_error(d, key, "must be 1 or 3, got %s", num);
    }
    *out = (int)v;
    if (present)
        *present = true;
    return GP_OK;
}

/* A time member, parsed by gp_parse_time; fractions of a second are
 * dropped. */
gp_status gp_jdoc_time(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, int64_t *out, bool *present)
{
    const char *s, *why;
    double seconds;
    bool have = false;
    char quoted[128];
    gp_status st = gp_jdoc_string(d, obj, key, required, &s, &have);

    if (present)
        *present = false;
    if (st != GP_OK || !have)
        return st;
    if (!gp_parse_time(s, strlen(s), &seconds, &why))
        return gp_jdoc_error(d, key, "%s, got %s", why,
                             gp_json_quote(s, quoted, sizeof quoted));
    *out = (int64_t)floor(seconds);
    if (present)
        *present = true;
    return GP_OK;
}

/* ---- range checks ------------------------------------------------------- */

/* Whole numbers within [min, max]: counts, GPUs, runs. */
gp_status gp_jdoc_check_whole(gp_jdoc *d, const char *key, double v, double min,
                              double max)
{
    char num[32], bound[32];

    gp_json_format_number(v, num, sizeof num);
    if (v != floor(v))
        return gp_jdoc_error(d, key, "must be a whole number, got %s", num);
    if (v < min) {
        gp_json_format_number(min, bound, sizeof bound);
        return gp_jdoc_error(d, key, "must be at least %s, got %s", bound, num);
    }
    if (v > max) {
        gp_json_format_number(max, bound, sizeof bound);
        return gp_jdoc_error(d, key, "must be at most %s, got %s", bound, num);
    }
    return GP_OK;
}

/* The upper bound both checks below share, GP_NUMBER_MAX.  No price, size,
 * duration or factor in a catalog or scenario comes near it, in any
 * currency (a p5 reserved for 3 years all upfront is about 1e12 in rials):
 * a number above it is a typo, and one near 1e308 would make the totals
 * infinite. */
static gp_status check_at_most_max(gp_jdoc *d, const char *key, double v)
{
    char num[32];

    if (v <= GP_NUMBER_MAX)
        return GP_OK;
    gp_json_format_number(v, num, sizeof num);
    return gp_jdoc_error(d, key,
                         "must be at most " GP_NUMBER_MAX_TEXT ", got %s", num);
}

/* Prices, sizes and durations that may be zero but not below. */
gp_status gp_jdoc_check_nonnegative(gp_jdoc *d, const char *key, double v)
{
    char num[32];

    if (v >= 0)
        return check_at_most_max(d, key, v);
    gp_json_format_number(v, num, sizeof num);
    return gp_jdoc_error(d, key, "must not be negative, got %s", num);
}

/* Rates and factors that must be above zero. */
gp_status gp_jdoc_check_positive(gp_jdoc *d, const char *key, double v)
{
    char num[32];

    if (v > 0)
        return check_at_most_max(d, key, v);
    gp_json_format_number(v, num, sizeof num);
    return gp_jdoc_error(d, key, "must be greater than 0, got %s", num);
}

/* Fractions in [0, 1); 1 or more is most likely a percent. */
gp_status gp_jdoc_check_fraction(gp_jdoc *d, const char *key, double v,
                                 const char *what)
{
    char num[32], hint[32];

    if (v >= 0 && v < 1)
        return GP_OK;
    gp_json_format_number(v, num, sizeof num);
    if (v < 1)
        return gp_jdoc_error(d, key, "expected %s in [0, 1), got %s", what,
                             num);
    gp_json_format_number(v / 100, hint, sizeof hint);
    return gp_jdoc_error(d, key,
                         "expected %s in [0, 1), got %s (a percent? write %s)",
                         what, num, hint);
}
