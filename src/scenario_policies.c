/*
 * scenario_policies.c: the scenario's `policies` (SPEC 7.3): purchase
 * policies that simulate replays over the trace, each buying at its
 * review dates from what it could have known then (policy.c).
 */
#include "scenario_internal.h"

#include <math.h>
#include <string.h>

static const char *const policy_keys[] = {
    "name",  "kind",    "review",   "lookback",        "terms",
    "payment", "tranches", "target_coverage", NULL};
static const char *const kind_names[] = {"aws", "forward", "ladder",
                                         "coverage"};
static const char *const review_names[] = {"monthly", "quarterly"};

/* The most policies a scenario may hold (each is a replay of the trace). */
#define MAX_POLICIES 64

/* Reads `terms`: a list of 1 and 3. */
static gp_status parse_terms(gp_jdoc *d, const json_t *jp,
                             gp_purchase_policy *p)
{
    json_t *ja;
    gp_status st = gp_jdoc_array(d, jp, "terms", false, &ja);
    size_t i;
    json_t *v;

    if (st != GP_OK || !ja)
        return st;
    p->terms = 0;
    json_array_foreach(ja, i, v) {
        double y = json_is_number(v) ? json_number_value(v) : 0;
        if (y != 1 && y != 3)
            return gp_jdoc_error(d, "terms",
                                 "expected a list of terms in years, 1 or "
                                 "3 (item %zu is not)",
                                 i + 1);
        p->terms |= 1u << (int)y;
    }
    if (!p->terms)
        return gp_jdoc_error(d, "terms", "names no term: give [1], [3] "
                                         "or [1, 3]");
    return GP_OK;
}

/* Reads the numbers: lookback (a duration), tranches, target_coverage. */
static gp_status parse_sizes(gp_jdoc *d, const json_t *jp,
                             gp_purchase_policy *p)
{
    const char *lb = NULL;
    double tr = 0, cov = 0;
    bool have_tr = false, have_cov = false, have_lb = false;
    gp_status st;

    if ((st = gp_jdoc_string(d, jp, "lookback", false, &lb, &have_lb)) !=
        GP_OK)
        return st;
    double h = 0;
    if (have_lb && (!gp_parse_duration_hours(lb, &h) || h < 24 ||
                    h > 5 * 8784))
        return gp_jdoc_error(d, "lookback",
                             "expected a duration from 1d to 5 years "
                             "(7d, 30d, 60d), got \"%s\"",
                             lb);
    if (have_lb)
        p->lookback_hours = (size_t)round(h);
    if ((st = gp_jdoc_number(d, jp, "tranches", false, &tr, &have_tr)) !=
            GP_OK ||
        (have_tr &&
         (st = gp_jdoc_check_whole(d, "tranches", tr, 1, 120)) != GP_OK) ||
        (st = gp_jdoc_number(d, jp, "target_coverage", false, &cov,
                             &have_cov)) != GP_OK ||
        (have_cov && (st = gp_jdoc_check_fraction(d, "target_coverage", cov,
                                                  "a coverage")) != GP_OK))
        return st;
    if (have_tr)
        p->tranches = (int)tr;
    if (have_cov)
        p->target_coverage = cov;
    p->given |= (have_tr ? GP_PP_KEY_TRANCHES : 0) |
                (have_cov ? GP_PP_KEY_TARGET : 0) |
                (have_lb ? GP_PP_KEY_LOOKBACK : 0);
    return GP_OK;
}

/* Reads one policy (the current path is its item). */
static gp_status parse_one(gp_jdoc *d, const json_t *jp,
                           gp_purchase_policy *p)
{
    const char *name;
    int kind = 0, review = 0, pay = (int)GP_NO_UPFRONT;
    bool have_review = false, have_pay = false;
    gp_status st;

    p->review_months = 1;
    p->lookback_hours = 30 * 24;
    p->terms = 1u << 1;
    p->payment = GP_NO_UPFRONT;
    p->tranches = 12;
    p->target_coverage = 0.8;
    if ((st = gp_jdoc_expect_object(d, jp)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, jp, policy_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_string(d, jp, "name", true, &name, NULL)) != GP_OK ||
        (st = gp_jdoc_enum(d, jp, "kind", true, "policy kind", kind_names, 4,
                           &kind, NULL)) != GP_OK ||
        (st = gp_jdoc_enum(d, jp, "review", false, "review", review_names, 2,
                           &review, &have_review)) != GP_OK ||
        (st = gp_jdoc_enum(d, jp, "payment", false, "payment",
                           gp_json_payment_names, 3, &pay, &have_pay)) !=
            GP_OK ||
        (st = parse_terms(d, jp, p)) != GP_OK ||
        (st = parse_sizes(d, jp, p)) != GP_OK)
        return st;
    p->kind = (gp_purchase_kind)kind;
    p->review_months = review == 1 ? 3 : 1;
    p->payment = (gp_payment)pay;
    if (!(p->name = gp_strdup(name)))
        return gp_jdoc_nomem(d);
    return GP_OK;
}

gp_status gp_scenario_parse_policies(gp_jdoc *d, const json_t *root,
                                     gp_scenario *s)
{
    json_t *ja, *v;
    size_t i;
    gp_status st = gp_jdoc_array(d, root, "policies", false, &ja);

    if (st != GP_OK || !ja || json_array_size(ja) == 0)
        return st;
    gp_jdoc_push_key(d, "policies");
    if (json_array_size(ja) > MAX_POLICIES)
        return gp_jdoc_error(d, NULL, "at most %d policies, got %zu",
                             MAX_POLICIES, json_array_size(ja));
    s->policies = gp_calloc(json_array_size(ja), sizeof *s->policies);
    if (!s->policies)
        return gp_jdoc_nomem(d);
    json_array_foreach(ja, i, v) {
        gp_jdoc_push_index(d, i);
        st = parse_one(d, v, &s->policies[i]);
        if (st != GP_OK)
            return st; /* the name read so far is freed with s */
        s->n_policies++;
        for (size_t k = 0; k < i; k++)
            if (strcmp(s->policies[k].name, s->policies[i].name) == 0)
                return gp_jdoc_error(d, "name",
                                     "policy \"%s\" is named twice",
                                     s->policies[i].name);
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

void gp_scenario_warn_policies(gp_jdoc *d, const gp_scenario *s,
                               gp_warnings *w)
{
    d->depth = 0;
    gp_jdoc_push_key(d, "policies");
    for (size_t i = 0; w && i < s->n_policies; i++) {
        const gp_purchase_policy *p = &s->policies[i];
        const char *kind = p->kind == GP_PURCHASE_AWS ? "an aws" : "a coverage";
        gp_jdoc_push_index(d, i);
        if (p->kind != GP_PURCHASE_LADDER && (p->given & GP_PP_KEY_TRANCHES))
            gp_jdoc_warning(d, w, "tranches",
                            "%s policy does not use tranches; ignored", kind);
        if (p->kind == GP_PURCHASE_AWS && (p->given & GP_PP_KEY_TARGET))
            gp_jdoc_warning(d, w, "target_coverage",
                            "an aws policy does not use target_coverage; "
                            "ignored");
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
}
