/*
 * scenario_commitments.c: the commitments of a scenario file, owned ones
 * and a strategy's add_commitments: reservations and savings plans read
 * and checked as far as they can be without catalogs (scenario_check.c
 * checks them against the catalogs).  See docs/design/scenario.md.
 */
#include "scenario_internal.h"

#include <stdio.h>
#include <string.h>

#define MAX_COUNT 1000000 /* instances in one reservation */
#define YEAR_SECONDS (365 * 86400LL)

static const char *const commitment_type_names[2] = {"reserved",
                                                     "savings_plan"};
static const char *const commitment_keys[] = {
    "type",       "provider", "region", "instance_type",
    "family",     "count",    "kind",   "hourly_commitment",
    "term_years", "payment",  "start",  NULL};
/* What gpuplan's own outputs add to a commitment, read past so that any of
 * them can be pasted in as it is: an action of recommend's JSON and a
 * commitment of simulate's JSON (their figures, which the run works out
 * again), and a commitment that `import` found in a bill (where it came
 * from).  Prices always come from the catalogs; an upfront that is a
 * number is only checked against them (scenario_check.c). */
static const char *const commitment_figures[] = {
    /* recommend's JSON actions */
    "rank", "upfront", "breakeven_utilization", "expected_utilization",
    "renewal", "net_savings", "savings_pct", "downside_net_savings", "reason",
    "recurring_monthly", "roi", "breakeven_months",
    /* simulate's JSON strategies[].commitments */
    "cost", "utilization",
    /* the commitments import writes from an AWS CUR or FOCUS bill */
    "id", "covered_instance_hours", "covered_on_demand_cost", "assumed", NULL};

/* Copies string member `key` (value v) into a fixed buffer of `size`
 * bytes, refusing an empty or too long one. */
static gp_status copy_name(gp_jdoc *d, const char *key, const char *v,
                           char *buf, size_t size)
{
    if (!v[0])
        return gp_jdoc_error(d, key, "must not be empty");
    if (strlen(v) >= size)
        return gp_jdoc_error(d, key, "too long (at most %zu characters)",
                             size - 1);
    snprintf(buf, size, "%s", v);
    return GP_OK;
}

/* Refuses a key of the other kind of commitment, which would otherwise be
 * ignored without a word: a reservation's instance_type or count on a
 * savings plan, a plan's kind or family on a reservation, a family on a
 * compute plan (which covers every family).  A reservation's
 * hourly_commitment is only the figure recommend's JSON writes (its
 * hourly equivalent, SPEC 7.2), checked against the catalogs
 * (gp_scenario_check), never a price.  A key that is null is
 * absent, as recommend's JSON writes the keys an action does not use. */
static gp_status check_contradictions(gp_jdoc *d, const json_t *jc,
                                      const gp_commitment *c)
{
    static const char *const plan_has_no[] = {"instance_type", "count"};
    static const char *const ri_has_no[] = {"kind", "family"};
    bool plan = c->type == GP_COMMIT_SAVINGS_PLAN;
    const char *const *keys = plan ? plan_has_no : ri_has_no;

    for (size_t i = 0; i < 2; i++) {
        const json_t *v = json_object_get(jc, keys[i]);
        if (v && !json_is_null(v))
            return gp_jdoc_error(d, keys[i],
                                 "a %s has no %s (a %s's); remove it, or "
                                 "make the type %s",
                                 plan ? "savings plan" : "reservation",
                                 keys[i],
                                 plan ? "reservation" : "savings plan",
                                 plan ? "reserved" : "savings_plan");
    }
    const json_t *family = json_object_get(jc, "family");
    if (plan && c->kind == GP_PLAN_COMPUTE && family && !json_is_null(family))
        return gp_jdoc_error(d, "family",
                             "a compute plan covers every family: remove "
                             "family, or make the kind instance_family");
    return GP_OK;
}

/* Reads a commitment's type, its provider (which a savings plan must
 * give) and a savings plan's kind. */
static gp_status parse_commitment_type(gp_jdoc *d, const json_t *jc,
                                       gp_commitment *c)
{
    int type = 0, provider = 0, kind = 0;
    bool have_provider = false;
    gp_status st;

    if ((st = gp_jdoc_expect_object(d, jc)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, jc, commitment_keys, commitment_figures)) !=
            GP_OK ||
        (st = gp_jdoc_enum(d, jc, "type", true, "commitment type",
                           commitment_type_names, 2, &type, NULL)) != GP_OK)
        return st;
    c->type = (gp_commitment_type)type;
    /* a reservation's type usually says where it is; a savings plan is
     * always one provider's */
    if ((st = gp_jdoc_enum(d, jc, "provider", type == GP_COMMIT_SAVINGS_PLAN,
                           "provider", gp_json_provider_names, 3, &provider,
                           &have_provider)) != GP_OK)
        return st;
    if (have_provider)
        snprintf(c->provider, sizeof c->provider, "%s",
                 gp_json_provider_names[provider]);
    if (c->type == GP_COMMIT_SAVINGS_PLAN) {
        if ((st = gp_jdoc_enum(d, jc, "kind", true, "kind",
                               gp_json_plan_kind_names, 2, &kind, NULL)) !=
            GP_OK)
            return st;
        c->kind = (gp_plan_kind)kind;
    }
    return check_contradictions(d, jc, c);
}

/* Reads a commitment's region (after its type and kind). */
static gp_status parse_commitment_region(gp_jdoc *d, const json_t *jc,
                                         gp_commitment *c)
{
    bool have = false;
    const char *str;
    gp_status st;

    /* an instance_family plan is for one family in one region; a compute
     * plan spans regions, so its region may be "" (as recommend's JSON
     * writes it, so that a plan can be fed back as add_commitments) */
    bool compute =
        c->type == GP_COMMIT_SAVINGS_PLAN && c->kind == GP_PLAN_COMPUTE;
    if ((st = gp_jdoc_string(d, jc, "region",
                             c->type == GP_COMMIT_SAVINGS_PLAN &&
                                 c->kind == GP_PLAN_FAMILY,
                             &str, &have)) != GP_OK ||
        (have && !(compute && !str[0]) &&
         (st = copy_name(d, "region", str, c->region, sizeof c->region)) !=
             GP_OK))
        return st;
    return GP_OK;
}

/* Reads what a commitment buys: a reservation's instance_type and count,
 * a savings plan's family (an instance_family plan's) and
 * hourly_commitment. */
static gp_status parse_commitment_amount(gp_jdoc *d, const json_t *jc,
                                         gp_commitment *c)
{
    const char *str;
    gp_status st;

    if (c->type == GP_COMMIT_RESERVED) {
        if ((st = gp_jdoc_string(d, jc, "instance_type", true, &str, NULL)) !=
                GP_OK ||
            (st = copy_name(d, "instance_type", str, c->instance_type,
                            sizeof c->instance_type)) != GP_OK ||
            (st = gp_jdoc_number(d, jc, "count", true, &c->count, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_check_whole(d, "count", c->count, 1, MAX_COUNT)) !=
                GP_OK)
            return st;
    } else {
        if (c->kind == GP_PLAN_FAMILY &&
            ((st = gp_jdoc_string(d, jc, "family", true, &str, NULL)) !=
                 GP_OK ||
             (st = copy_name(d, "family", str, c->family, sizeof c->family)) !=
                 GP_OK))
            return st;
        if ((st = gp_jdoc_number(d, jc, "hourly_commitment", true,
                                 &c->hourly_commitment, NULL)) != GP_OK ||
            (st = gp_jdoc_check_positive(d, "hourly_commitment",
                                         c->hourly_commitment)) != GP_OK)
            return st;
    }
    return GP_OK;
}

/* Reads a commitment's term, payment and start, and the upfront it states
 * if it states one; works out its end. */
static gp_status parse_commitment_term(gp_jdoc *d, const json_t *jc,
                                       gp_commitment *c)
{
    int payment = 0;
    gp_status st;

    if ((st = gp_jdoc_term_years(d, jc, "term_years", true, &c->term_years,
                                 NULL)) != GP_OK ||
        (st = gp_jdoc_enum(d, jc, "payment", true, "payment",
                           gp_json_payment_names, 3, &payment, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_time(d, jc, "start", true, &c->start, NULL)) != GP_OK)
        return st;
    /* an upfront is a figure read past; a number is checked against the
     * catalogs (gp_scenario_check) */
    const json_t *ju = json_object_get(jc, "upfront");
    if (json_is_number(ju)) {
        c->has_stated_upfront = true;
        c->stated_upfront = json_number_value(ju);
    }
    const json_t *jh = json_object_get(jc, "hourly_commitment");
    if (c->type == GP_COMMIT_RESERVED && jh && !json_is_null(jh)) {
        if (!json_is_number(jh))
            return gp_jdoc_error(d, "hourly_commitment", "expected a number");
        c->has_stated_hourly = true;
        c->stated_hourly = json_number_value(jh);
    }
    c->payment = (gp_payment)payment;
    c->end = c->start + c->term_years * YEAR_SECONDS;
    return GP_OK;
}

/* Checks that a commitment (its term read) ends at a time the run may
 * show: a commitment billed for no hour of the window is warned about
 * with its end, so that is one in 9999 at the latest, as a window's end
 * is. */
static gp_status check_commitment_end(gp_jdoc *d, const json_t *jc,
                                      const gp_commitment *c)
{
    if (c->end > GP_TIME_LATEST) {
        char latest[32], quoted[128];
        gp_format_time(GP_TIME_LATEST - c->term_years * YEAR_SECONDS, latest,
                       sizeof latest);
        return gp_jdoc_error(
            d, "start",
            "with a term of %d year%s (%lld days) the commitment ends after "
            "%s; start it at %s at the latest, got %s",
            c->term_years, gp_plural(c->term_years, "", "s"),
            (long long)(c->term_years * YEAR_SECONDS / 86400),
            GP_TIME_LATEST_WHY, latest,
            gp_json_quote(json_string_value(json_object_get(jc, "start")),
                          quoted, sizeof quoted));
    }
    return GP_OK;
}

/* Reads one commitment (the current path is its object), field by field
 * in the order its errors are reported. */
static gp_status parse_commitment(gp_jdoc *d, const json_t *jc,
                                  gp_commitment *c)
{
    gp_status st;

    if ((st = parse_commitment_type(d, jc, c)) != GP_OK ||
        (st = parse_commitment_region(d, jc, c)) != GP_OK ||
        (st = parse_commitment_amount(d, jc, c)) != GP_OK ||
        (st = parse_commitment_term(d, jc, c)) != GP_OK)
        return st;
    return check_commitment_end(d, jc, c);
}

/* Reads array member `key` of obj into a new array of commitments. */
gp_status gp_scenario_parse_commitments(gp_jdoc *d, const json_t *obj,
                                        const char *key, gp_commitment **out,
                                        size_t *n_out)
{
    json_t *arr, *jc;
    size_t i;
    gp_status st = gp_jdoc_array(d, obj, key, false, &arr);

    if (st != GP_OK || !arr || json_array_size(arr) == 0)
        return st;
    *out = gp_calloc(json_array_size(arr), sizeof **out);
    if (!*out)
        return gp_jdoc_nomem(d);
    gp_jdoc_push_key(d, key);
    size_t at = d->depth;
    json_array_foreach(arr, i, jc)
    {
        gp_jdoc_push_index(d, i);
        st = parse_commitment(d, jc, &(*out)[i]);
        if (st == GP_ERR_INPUT && d->all) /* going on: left zero, unread */
            memset(&(*out)[i], 0, sizeof **out);
        if ((st = gp_jdoc_go_on(d, st, at)) != GP_OK)
            return st;
        *n_out = i + 1;
        d->depth = at;
    }
    gp_jdoc_pop(d);
    return GP_OK;
}
