/*
 * scenario_classify.c: the scenario's `classify` key (SPEC 7.1): priors
 * of the user's own for GPU models or instance types, which replace
 * classify's built-in GPU-class prior (classify_decide.c).
 */
#include "scenario_internal.h"

#include <math.h>

static const char *const classify_keys[] = {"priors", NULL};
static const char *const prior_keys[] = {"training_log_odds", NULL};

/* The largest prior a user may state: odds of e^10 (22,000 to 1) are
 * certainty for every purpose here. */
#define MAX_PRIOR 10.0

/* Reads one prior, the member `key` of priors. */
static gp_status parse_prior(gp_jdoc *d, const json_t *jp, const char *key,
                             gp_classify_prior *out)
{
    double v = 0;
    gp_status st;

    gp_jdoc_push_key(d, key);
    if ((st = gp_jdoc_expect_object(d, jp)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, jp, prior_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_number(d, jp, "training_log_odds", true, &v, NULL)) !=
            GP_OK)
        return st;
    if (!(fabs(v) <= MAX_PRIOR))
        return gp_jdoc_error(d, "training_log_odds",
                             "expected a log-odds from -10 to 10, got %g", v);
    if (!(out->key = gp_strdup(key)))
        return gp_jdoc_nomem(d);
    out->log_odds = v;
    gp_jdoc_pop(d);
    return GP_OK;
}

gp_status gp_scenario_parse_classify(gp_jdoc *d, const json_t *root,
                                     gp_scenario *s)
{
    json_t *jc, *jp;
    gp_status st = gp_jdoc_object(d, root, "classify", false, &jc);

    if (st != GP_OK || !jc)
        return st;
    gp_jdoc_push_key(d, "classify");
    if ((st = gp_jdoc_known_keys(d, jc, classify_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_object(d, jc, "priors", false, &jp)) != GP_OK)
        return st;
    if (jp && json_object_size(jp) > 0) {
        gp_jdoc_push_key(d, "priors");
        s->classify_priors =
            gp_calloc(json_object_size(jp), sizeof *s->classify_priors);
        if (!s->classify_priors)
            return gp_jdoc_nomem(d);
        const char *key;
        json_t *v;
        json_object_foreach(jp, key, v) {
            st = parse_prior(d, v, key,
                             &s->classify_priors[s->n_classify_priors]);
            if (st != GP_OK)
                return st;
            s->n_classify_priors++;
        }
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}
