/*
 * scenario.c: scenario files (SPEC section 3b): the window, price
 * adjustments, the launch policy per workload, owned commitments, and the
 * strategies compared with them.
 *
 * Every key is optional and has a default (gp_scenario_default).  The
 * scenario's own commitments and policy form strategies[0], "baseline";
 * each strategy in the file follows it, with its add_commitments on top of
 * the owned ones and its policy merged key by key over the baseline's.
 * Parsing checks everything that can be checked without catalogs and stops
 * at the first mistake with file:line:column and the JSON path;
 * gp_scenario_check then checks the commitments against the catalogs, and
 * since that happens later the scenario keeps its text to point into.
 */
#include "json_util.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SCENARIO_SCHEMA "gpuplan-scenario/1"
#define MAX_MC_RUNS 10000000
#define MAX_COUNT 1000000           /* instances in one reservation */
#define MAX_INTERRUPTIONS 1000000   /* a policy's fallback threshold */
#define MAX_SEED 9007199254740992.0 /* 2^53: every seed below is exact */
#define YEAR_SECONDS (365 * 86400LL)

static const char *const workload_keys[2] = {"training", "inference"};
static const char *const commitment_type_names[2] = {"reserved",
                                                     "savings_plan"};

/* The keys each object of a scenario may have (SPEC section 3b); anything
 * else is a misspelling, reported rather than left at its default. */
static const char *const root_keys[] = {
    "schema",      "name",       "window", "adjustments", "policy",
    "commitments", "strategies", "growth", "monte_carlo", NULL};
static const char *const window_keys[] = {"start", "end", NULL};
static const char *const adjustment_keys[] = {"discount", "spot_price_factor",
                                              "interruption_factor", NULL};
static const char *const policy_keys[] = {"training", "inference", NULL};
static const char *const workload_policy_keys[] = {"launch",
                                                   "checkpoint_interval_h",
                                                   "checkpoint_cost_h",
                                                   "restart_overhead_h",
                                                   "max_interruptions",
                                                   "deadline_slack_h",
                                                   "fallback",
                                                   "terminate_idle_h",
                                                   NULL};
static const char *const commitment_keys[] = {
    "type",       "provider", "region", "instance_type",
    "family",     "count",    "kind",   "hourly_commitment",
    "term_years", "payment",  "start",  NULL};
/* What gpuplan's own outputs add to a commitment, read past so that any of
 * them can be pasted in as it is: an action of recommend's JSON and a
 * commitment of simulate's JSON (their figures, which the run works out
 * again), and a commitment that `import` found in a bill (where it came
 * from).  Prices always come from the catalogs; an upfront that is a
 * number is only checked against them (check_commitment). */
static const char *const commitment_figures[] = {
    /* recommend's JSON actions */
    "rank", "upfront", "breakeven_utilization", "expected_utilization",
    "renewal", "net_savings", "savings_pct", "downside_net_savings", "reason",
    /* simulate's JSON strategies[].commitments */
    "cost", "utilization",
    /* import aws-cur / focus commitments-out */
    "id", "covered_instance_hours", "covered_on_demand_cost", "assumed", NULL};
static const char *const strategy_keys[] = {"name", "add_commitments", "policy",
                                            NULL};
static const char *const growth_keys[] = {"training", "inference", NULL};
static const char *const monte_carlo_keys[] = {"runs", "seed", NULL};

/* ---- defaults ----------------------------------------------------------- */

/* The policy both workloads get unless the scenario says otherwise. */
static void policy_default(gp_policy *p)
{
    p->launch = GP_LAUNCH_ON_DEMAND;
    p->checkpoint_interval_h = 1.0;
    p->checkpoint_cost_h = 0.05;
    p->restart_overhead_h = 0.25;
    p->max_interruptions = 5;
    p->deadline_slack_h = -1;
    p->fallback = GP_LAUNCH_ON_DEMAND;
    p->terminate_idle_h = 0;
}

/* A scenario with every default and no strategies yet; NULL when out of
 * memory.  path and name are set by the caller. */
static gp_scenario *scenario_new(void)
{
    gp_scenario *s = gp_calloc(1, sizeof *s);

    if (!s)
        return NULL;
    s->spot_price_factor = 1;
    s->interruption_factor = 1;
    policy_default(&s->policy[GP_TRAINING]);
    policy_default(&s->policy[GP_INFERENCE]);
    s->mc_runs = 1000;
    s->mc_seed = 42;
    return s;
}

/* The scenario's name when the file gives none: the file's base name
 * without ".json" ("q1-plan" for "plans/q1-plan.json"), else "default". */
static char *default_name(const char *source)
{
    const char *base, *slash;
    size_t n;

    if (!source || !source[0] || strcmp(source, "-") == 0)
        return gp_strdup("default");
    slash = strrchr(source, '/');
    base = slash ? slash + 1 : source;
    n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, ".json") == 0)
        n -= 5;
    if (n == 0)
        return gp_strdup("default");
    return gp_strndup(base, n);
}

/* Makes strategies[0], "baseline": the owned commitments and the policy,
 * with room for n_more strategies after it. */
static gp_status add_baseline(gp_scenario *s, size_t n_more)
{
    s->strategies = gp_calloc(1 + n_more, sizeof *s->strategies);
    if (!s->strategies)
        return GP_ERR_NOMEM;
    s->strategies[0].name = gp_strdup("baseline");
    if (!s->strategies[0].name)
        return GP_ERR_NOMEM;
    s->strategies[0].policy[GP_TRAINING] = s->policy[GP_TRAINING];
    s->strategies[0].policy[GP_INFERENCE] = s->policy[GP_INFERENCE];
    s->n_strategies = 1;
    return GP_OK;
}

/* The scenario used when none is given: every default, strategy
 * "baseline" alone, no text. */
gp_status gp_scenario_default(gp_scenario **out, gp_error *err)
{
    gp_scenario *s = scenario_new();

    *out = NULL;
    if (!s || !(s->path = gp_strdup("")) || !(s->name = gp_strdup("default")) ||
        add_baseline(s, 0) != GP_OK) {
        gp_scenario_free(s);
        gp_error_set(err, "", 0, 0, "", "out of memory");
        return GP_ERR_NOMEM;
    }
    *out = s;
    return GP_OK;
}

/* Frees a scenario, its strategies and its text; NULL is fine. */
void gp_scenario_free(gp_scenario *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_strategies; i++) {
        gp_free(s->strategies[i].name);
        gp_free(s->strategies[i].add_commitments);
    }
    gp_free(s->strategies);
    gp_free(s->commitments);
    gp_free(s->path);
    gp_free(s->name);
    gp_free(s->text);
    gp_free(s);
}

/* ---- reading ------------------------------------------------------------ */

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

/* Reads the keys of one workload's policy that are present into p (the
 * current path is that policy object); keys left out keep p's values. */
static gp_status parse_workload_policy(gp_jdoc *d, const json_t *jp,
                                       gp_policy *p)
{
    int launch = (int)p->launch, fallback = (int)p->fallback;
    double max_int = p->max_interruptions;
    bool have = false, have_deadline = false;
    gp_status st;

    if ((st = gp_jdoc_known_keys(d, jp, workload_policy_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_enum(d, jp, "launch", false, "launch model",
                           gp_json_launch_names, 2, &launch, NULL)) != GP_OK ||
        (st = gp_jdoc_number(d, jp, "checkpoint_interval_h", false,
                             &p->checkpoint_interval_h, NULL)) != GP_OK ||
        (st = gp_jdoc_check_positive(d, "checkpoint_interval_h",
                                     p->checkpoint_interval_h)) != GP_OK ||
        (st = gp_jdoc_number(d, jp, "checkpoint_cost_h", false,
                             &p->checkpoint_cost_h, NULL)) != GP_OK ||
        (st = gp_jdoc_check_nonnegative(d, "checkpoint_cost_h",
                                        p->checkpoint_cost_h)) != GP_OK ||
        (st = gp_jdoc_number(d, jp, "restart_overhead_h", false,
                             &p->restart_overhead_h, NULL)) != GP_OK ||
        (st = gp_jdoc_check_nonnegative(d, "restart_overhead_h",
                                        p->restart_overhead_h)) != GP_OK ||
        (st = gp_jdoc_number(d, jp, "max_interruptions", false, &max_int,
                             &have)) != GP_OK ||
        (have && (st = gp_jdoc_check_whole(d, "max_interruptions", max_int, 0,
                                           MAX_INTERRUPTIONS)) != GP_OK) ||
        (st = gp_jdoc_number(d, jp, "deadline_slack_h", false,
                             &p->deadline_slack_h, &have_deadline)) != GP_OK ||
        (have_deadline &&
         (st = gp_jdoc_check_nonnegative(d, "deadline_slack_h",
                                         p->deadline_slack_h)) != GP_OK) ||
        (st = gp_jdoc_enum(d, jp, "fallback", false, "launch model",
                           gp_json_launch_names, 2, &fallback, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_number(d, jp, "terminate_idle_h", false,
                             &p->terminate_idle_h, NULL)) != GP_OK ||
        (st = gp_jdoc_check_nonnegative(d, "terminate_idle_h",
                                        p->terminate_idle_h)) != GP_OK)
        return st;
    p->launch = (gp_launch)launch;
    p->fallback = (gp_launch)fallback;
    p->max_interruptions = (int)max_int;
    return GP_OK;
}

/* Reads member `key` (a policy object with "training" and "inference")
 * of obj over the policies p[2]. */
static gp_status parse_policy(gp_jdoc *d, const json_t *obj, gp_policy p[2])
{
    json_t *jp, *jw;
    gp_status st = gp_jdoc_object(d, obj, "policy", false, &jp);

    if (st != GP_OK || !jp)
        return st;
    gp_jdoc_push_key(d, "policy");
    if ((st = gp_jdoc_known_keys(d, jp, policy_keys, NULL)) != GP_OK)
        return st;
    for (int w = 0; w < 2; w++) {
        if ((st = gp_jdoc_object(d, jp, workload_keys[w], false, &jw)) != GP_OK)
            return st;
        if (!jw)
            continue;
        gp_jdoc_push_key(d, workload_keys[w]);
        if ((st = parse_workload_policy(d, jw, &p[w])) != GP_OK)
            return st;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads one commitment (the current path is its object). */
static gp_status parse_commitment(gp_jdoc *d, const json_t *jc,
                                  gp_commitment *c)
{
    int type = 0, provider = 0, payment = 0, kind = 0;
    bool have_provider = false, have = false;
    const char *str;
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
    /* an instance_family plan is for one family in one region; a compute
     * plan spans regions, so its region may be "" (as recommend's JSON
     * writes it, so that a plan can be fed back as add_commitments) */
    bool compute = c->type == GP_COMMIT_SAVINGS_PLAN &&
                   c->kind == GP_PLAN_COMPUTE;
    if ((st = gp_jdoc_string(d, jc, "region",
                             c->type == GP_COMMIT_SAVINGS_PLAN &&
                                 c->kind == GP_PLAN_FAMILY,
                             &str, &have)) != GP_OK ||
        (have && !(compute && !str[0]) &&
         (st = copy_name(d, "region", str, c->region, sizeof c->region)) !=
             GP_OK))
        return st;
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
    c->payment = (gp_payment)payment;
    c->end = c->start + c->term_years * YEAR_SECONDS;
    /* its end is a time the run may show (a commitment billed for no hour
     * of the window is warned about with it), so it is one in 9999 at the
     * latest, as a window's end is */
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

/* Reads array member `key` of obj into a new array of commitments. */
static gp_status parse_commitments(gp_jdoc *d, const json_t *obj,
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
    json_array_foreach(arr, i, jc)
    {
        gp_jdoc_push_index(d, i);
        if ((st = parse_commitment(d, jc, &(*out)[i])) != GP_OK)
            return st;
        *n_out = i + 1;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads the strategies array (after the baseline policy is known). */
static gp_status parse_strategies(gp_jdoc *d, const json_t *root,
                                  gp_scenario *s)
{
    json_t *arr, *js;
    size_t i;
    gp_status st = gp_jdoc_array(d, root, "strategies", false, &arr);
    char quoted[160];

    if (st != GP_OK)
        return st;
    if (add_baseline(s, arr ? json_array_size(arr) : 0) != GP_OK)
        return gp_jdoc_nomem(d);
    if (!arr)
        return GP_OK;
    gp_jdoc_push_key(d, "strategies");
    json_array_foreach(arr, i, js)
    {
        gp_strategy *g = &s->strategies[s->n_strategies];
        const char *name;

        gp_jdoc_push_index(d, i);
        if ((st = gp_jdoc_expect_object(d, js)) != GP_OK ||
            (st = gp_jdoc_known_keys(d, js, strategy_keys, NULL)) != GP_OK ||
            (st = gp_jdoc_string(d, js, "name", true, &name, NULL)) != GP_OK)
            return st;
        if (!name[0])
            return gp_jdoc_error(d, "name", "must not be empty");
        if (strcmp(name, "baseline") == 0)
            return gp_jdoc_error(d, "name",
                                 "\"baseline\" names the scenario's own "
                                 "commitments and policy; choose another "
                                 "name");
        for (size_t k = 1; k < s->n_strategies; k++)
            if (strcmp(s->strategies[k].name, name) == 0)
                return gp_jdoc_error(d, "name",
                                     "duplicate strategy name %s (also "
                                     "strategies[%zu])",
                                     gp_json_quote(name, quoted, sizeof quoted),
                                     k - 1);
        g->name = gp_strdup(name);
        if (!g->name)
            return gp_jdoc_nomem(d);
        s->n_strategies++; /* from here on, freed with the scenario */
        g->policy[GP_TRAINING] = s->policy[GP_TRAINING];
        g->policy[GP_INFERENCE] = s->policy[GP_INFERENCE];
        if ((st = parse_commitments(d, js, "add_commitments",
                                    &g->add_commitments, &g->n_add)) != GP_OK ||
            (st = parse_policy(d, js, g->policy)) != GP_OK)
            return st;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads growth.training and growth.inference: monthly fractions > -1. */
static gp_status parse_growth(gp_jdoc *d, const json_t *root, gp_scenario *s)
{
    json_t *jg;
    gp_status st = gp_jdoc_object(d, root, "growth", false, &jg);

    if (st != GP_OK || !jg)
        return st;
    gp_jdoc_push_key(d, "growth");
    if ((st = gp_jdoc_known_keys(d, jg, growth_keys, NULL)) != GP_OK)
        return st;
    for (int w = 0; w < 2; w++) {
        double g = 0;
        bool have = false;
        char num[32], hint[32];

        if ((st = gp_jdoc_number(d, jg, workload_keys[w], false, &g, &have)) !=
            GP_OK)
            return st;
        if (!have)
            continue;
        gp_json_format_number(g, num, sizeof num);
        if (g <= -1)
            return gp_jdoc_error(d, workload_keys[w],
                                 "expected a monthly growth rate above -1, "
                                 "got %s",
                                 num);
        if (g > 1 && g <= 100) {
            gp_json_format_number(g / 100, hint, sizeof hint);
            return gp_jdoc_error(d, workload_keys[w],
                                 "expected a monthly growth rate as a "
                                 "fraction, at most 1 (100%% a month), got "
                                 "%s (a percent? write %s)",
                                 num, hint);
        }
        if (g > 1) /* a percent over 100 would still be over 1 */
            return gp_jdoc_error(d, workload_keys[w],
                                 "expected a monthly growth rate as a "
                                 "fraction, at most 1 (100%% a month), got "
                                 "%s",
                                 num);
        s->growth[w] = g;
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads monte_carlo.runs and monte_carlo.seed. */
static gp_status parse_monte_carlo(gp_jdoc *d, const json_t *root,
                                   gp_scenario *s)
{
    json_t *jm, *jseed;
    double runs = 0, seed = 0;
    bool have = false;
    gp_status st = gp_jdoc_object(d, root, "monte_carlo", false, &jm);

    if (st != GP_OK || !jm)
        return st;
    gp_jdoc_push_key(d, "monte_carlo");
    if ((st = gp_jdoc_known_keys(d, jm, monte_carlo_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_number(d, jm, "runs", false, &runs, &have)) != GP_OK ||
        (have &&
         (st = gp_jdoc_check_whole(d, "runs", runs, 1, MAX_MC_RUNS)) != GP_OK))
        return st;
    if (have)
        s->mc_runs = (int)runs;
    jseed = json_object_get(jm, "seed");
    if (jseed && json_is_integer(jseed) && json_integer_value(jseed) >= 0) {
        /* exact, whatever its size */
        s->mc_seed = (uint64_t)json_integer_value(jseed);
    } else {
        if ((st = gp_jdoc_number(d, jm, "seed", false, &seed, &have)) !=
                GP_OK ||
            (have &&
             (st = gp_jdoc_check_whole(d, "seed", seed, 0, MAX_SEED)) != GP_OK))
            return st;
        if (have)
            s->mc_seed = (uint64_t)seed;
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads the top level of a scenario document into s. */
static gp_status parse_scenario(gp_jdoc *d, const json_t *root, gp_scenario *s)
{
    static const char *const schema_names[1] = {SCENARIO_SCHEMA};
    int schema = 0;
    const char *name;
    bool have = false;
    json_t *jw, *ja;
    gp_status st;

    /* the schema first: a catalog given as a scenario should say so */
    if ((st = gp_jdoc_enum(d, root, "schema", false, "schema", schema_names, 1,
                           &schema, NULL)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, root, root_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_string(d, root, "name", false, &name, &have)) != GP_OK)
        return st;
    if (have) {
        char *copy;
        if (!name[0])
            return gp_jdoc_error(d, "name", "must not be empty");
        if (!(copy = gp_strdup(name)))
            return gp_jdoc_nomem(d);
        gp_free(s->name);
        s->name = copy;
    }

    if ((st = gp_jdoc_object(d, root, "window", false, &jw)) != GP_OK)
        return st;
    if (jw) {
        gp_jdoc_push_key(d, "window");
        if ((st = gp_jdoc_known_keys(d, jw, window_keys, NULL)) != GP_OK ||
            (st = gp_jdoc_time(d, jw, "start", true, &s->window_start, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_time(d, jw, "end", true, &s->window_end, NULL)) !=
                GP_OK)
            return st;
        if (s->window_end <= s->window_start) {
            char start[32];
            gp_format_time(s->window_start, start, sizeof start);
            return gp_jdoc_error(d, "end", "must be after start (%s)", start);
        }
        if (s->window_end > GP_TIME_LATEST) {
            /* the window runs to the end of its last clock hour */
            char quoted[128];
            return gp_jdoc_error(
                d, "end", "must be at most " GP_TIME_LATEST_WHY ", got %s",
                gp_json_quote(json_string_value(json_object_get(jw, "end")),
                              quoted, sizeof quoted));
        }
        /* the engine bills whole clock hours: a window from 00:30 would
         * bill the half hour before it, commitments included */
        for (int i = 0; i < 2; i++) {
            const char *key = i ? "end" : "start";
            int64_t t = i ? s->window_end : s->window_start;
            if (t % 3600 != 0) {
                char quoted[128], hour[32];
                /* the hour it is in (times are from 1970: t >= 0) */
                gp_format_time(t - t % 3600, hour,
                               sizeof hour);
                return gp_jdoc_error(
                    d, key,
                    "must be on the hour in UTC (windows are billed in "
                    "whole clock hours), got %s; write %s or an hour later",
                    gp_json_quote(json_string_value(json_object_get(jw, key)),
                                  quoted, sizeof quoted),
                    hour);
            }
        }
        s->has_window = true;
        gp_jdoc_pop(d);
    }

    if ((st = gp_jdoc_object(d, root, "adjustments", false, &ja)) != GP_OK)
        return st;
    if (ja) {
        gp_jdoc_push_key(d, "adjustments");
        if ((st = gp_jdoc_known_keys(d, ja, adjustment_keys, NULL)) != GP_OK ||
            (st = gp_jdoc_number(d, ja, "discount", false, &s->discount,
                                 NULL)) != GP_OK ||
            (st = gp_jdoc_check_fraction(d, "discount", s->discount,
                                         "a fraction off every price")) !=
                GP_OK ||
            (st = gp_jdoc_number(d, ja, "spot_price_factor", false,
                                 &s->spot_price_factor, NULL)) != GP_OK ||
            (st = gp_jdoc_check_positive(d, "spot_price_factor",
                                         s->spot_price_factor)) != GP_OK ||
            (st = gp_jdoc_number(d, ja, "interruption_factor", false,
                                 &s->interruption_factor, NULL)) != GP_OK ||
            (st = gp_jdoc_check_positive(d, "interruption_factor",
                                         s->interruption_factor)) != GP_OK)
            return st;
        gp_jdoc_pop(d);
    }

    if ((st = parse_policy(d, root, s->policy)) != GP_OK ||
        (st = parse_commitments(d, root, "commitments", &s->commitments,
                                &s->n_commitments)) != GP_OK ||
        (st = parse_strategies(d, root, s)) != GP_OK ||
        (st = parse_growth(d, root, s)) != GP_OK ||
        (st = parse_monte_carlo(d, root, s)) != GP_OK)
        return st;
    /* the baseline uses the owned commitments themselves (n_add 0) */
    return GP_OK;
}

/* Parses and checks a scenario held in memory; `source` names it in
 * errors and gives the default name.  The text is copied and kept. */
gp_status gp_scenario_parse(gp_scenario **out, const char *text, size_t len,
                            const char *source, gp_error *err)
{
    gp_scenario *s = scenario_new();
    gp_jdoc d;
    json_t *root = NULL;
    gp_status st;

    *out = NULL;
    gp_jdoc_init(&d, text, len, source, err);
    if (!s || !(s->path = gp_strdup(source ? source : "")) ||
        !(s->name = default_name(source)) ||
        !(s->text = gp_strndup(text, len))) {
        gp_scenario_free(s);
        return gp_jdoc_nomem(&d);
    }
    s->text_len = len;
    gp_jdoc_init(&d, s->text, len, source, err);
    st = gp_jdoc_parse(&d, &root);
    if (st == GP_OK)
        st = parse_scenario(&d, root, s);
    json_decref(root);
    if (st != GP_OK) {
        gp_scenario_free(s);
        return st;
    }
    *out = s;
    return GP_OK;
}

/* Reads a scenario file ("-" is standard input) and parses it. */
gp_status gp_scenario_load(gp_scenario **out, const char *path, gp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    gp_status st;

    *out = NULL;
    st = gp_read_file(path, &text, &len, err);
    if (st != GP_OK)
        return st;
    st = gp_scenario_parse(out, text, len, path, err);
    gp_free(text);
    return st;
}

/* ---- checking against the catalogs -------------------------------------- */

/* Whether some catalog matches provider and region ("" = any). */
static bool have_catalog(const gp_pricing *p, const char *provider,
                         const char *region)
{
    for (size_t i = 0; p && i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        if ((!provider[0] || strcmp(c->provider, provider) == 0) &&
            (!region[0] || strcmp(c->region, region) == 0))
            return true;
    }
    return false;
}

/* Whether catalog c prices instance type `name`. */
static bool catalog_has(const gp_catalog *c, const char *name)
{
    for (size_t i = 0; i < c->n_types; i++)
        if (strcmp(c->types[i].name, name) == 0)
            return true;
    return false;
}

/* Checks that the provider and region a commitment names (those it names)
 * have catalogs. */
static gp_status check_place(gp_jdoc *d, const gp_pricing *p,
                             const gp_commitment *c)
{
    char quoted[160];

    if (c->provider[0] && !have_catalog(p, c->provider, ""))
        return gp_jdoc_error(d, "provider",
                             "no catalog for provider \"%s\" is loaded",
                             c->provider);
    if (c->region[0] && !have_catalog(p, c->provider, c->region)) {
        if (c->provider[0])
            return gp_jdoc_error(
                d, "region", "no catalog for %s region %s is loaded",
                c->provider, gp_json_quote(c->region, quoted, sizeof quoted));
        return gp_jdoc_error(d, "region", "no catalog for region %s is loaded",
                             gp_json_quote(c->region, quoted, sizeof quoted));
    }
    return GP_OK;
}

/* Checks a reservation: its type is priced, in one catalog only, with a
 * reserved offer of its term and payment. */
static gp_status check_reserved(gp_jdoc *d, const gp_pricing *p,
                                const gp_commitment *c)
{
    const gp_catalog *cat = NULL;
    const gp_instance_type *t;
    bool ambiguous = false, term_known = false;
    char quoted[160], list[512];
    size_t used = 0;
    gp_status st = check_place(d, p, c);

    if (st != GP_OK)
        return st;
    gp_json_quote(c->instance_type, quoted, sizeof quoted);
    t = gp_pricing_find(p, c->provider, c->region, c->instance_type, &cat,
                        &ambiguous);
    if (!t && ambiguous) {
        /* name the catalogs that have it */
        list[0] = '\0';
        for (size_t i = 0; p && i < p->n_catalogs; i++) {
            const gp_catalog *o = p->catalogs[i];
            int w;
            if ((c->provider[0] && strcmp(o->provider, c->provider) != 0) ||
                (c->region[0] && strcmp(o->region, c->region) != 0) ||
                !catalog_has(o, c->instance_type) || used >= sizeof list)
                continue;
            w = snprintf(list + used, sizeof list - used, "%s%s %s",
                         used ? ", " : "", o->provider, o->region);
            if (w > 0)
                used += (size_t)w;
        }
        return gp_jdoc_error(d, "instance_type",
                             "instance type %s is in several catalogs (%s); "
                             "give provider and region",
                             quoted, list);
    }
    if (!t) {
        bool elsewhere = false;
        if ((c->provider[0] || c->region[0]) &&
            (gp_pricing_find(p, NULL, NULL, c->instance_type, NULL,
                             &elsewhere) ||
             elsewhere)) {
            char scope[64];
            snprintf(scope, sizeof scope, "%s%s%s", c->provider,
                     c->provider[0] && c->region[0] ? " " : "", c->region);
            return gp_jdoc_error(d, "instance_type",
                                 "instance type %s is not in the catalog "
                                 "for %s",
                                 quoted, scope);
        }
        gp_pricing_suggest(p, c->instance_type, list, sizeof list, 3);
        if (list[0])
            return gp_jdoc_error(d, "instance_type",
                                 "unknown instance type %s (nearest: %s)",
                                 quoted, list);
        return gp_jdoc_error(d, "instance_type", "unknown instance type %s",
                             quoted);
    }
    for (size_t i = 0; i < t->n_reserved; i++) {
        if (t->reserved[i].term_years == c->term_years) {
            term_known = true;
            if (t->reserved[i].payment == c->payment)
                return GP_OK;
        }
    }
    if (t->n_reserved == 0)
        return gp_jdoc_error(d, "instance_type",
                             "%s has no reserved offers in %s %s", t->name,
                             cat->provider, cat->region);
    list[0] = '\0';
    for (size_t i = 0; i < t->n_reserved && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%d-year %s",
                         i ? ", " : "", t->reserved[i].term_years,
                         gp_payment_name(t->reserved[i].payment));
        if (w > 0)
            used += (size_t)w;
    }
    return gp_jdoc_error(d, term_known ? "payment" : "term_years",
                         "%s has no %d-year %s reserved offer in %s %s "
                         "(offers: %s)",
                         t->name, c->term_years, gp_payment_name(c->payment),
                         cat->provider, cat->region, list);
}

/* The distinct terms and payments of a plan's kind in its scope, for the
 * errors at term_years and payment, sorted by term and then payment ("1-year
 * no_upfront, 1-year all_upfront"). */
#define PLAN_OFFERS_MAX 32
typedef struct plan_offers {
    size_t n;
    struct {
        int term_years;
        gp_payment payment;
    } o[PLAN_OFFERS_MAX];
} plan_offers;

static void plan_offers_add(plan_offers *po, const gp_plan_offer *offer)
{
    size_t at = 0;

    while (at < po->n && (po->o[at].term_years < offer->term_years ||
                          (po->o[at].term_years == offer->term_years &&
                           po->o[at].payment < offer->payment)))
        at++;
    if ((at < po->n && po->o[at].term_years == offer->term_years &&
         po->o[at].payment == offer->payment) ||
        po->n == PLAN_OFFERS_MAX)
        return;
    memmove(&po->o[at + 1], &po->o[at], (po->n - at) * sizeof po->o[0]);
    po->o[at].term_years = offer->term_years;
    po->o[at].payment = offer->payment;
    po->n++;
}

/* Checks a savings plan: its provider (and for an instance_family plan its
 * region and family) has catalogs, and some type there has a plan rate of
 * its kind, term and payment.  The error is on the field that is wrong: a
 * provider whose catalogs have no savings plans at all (GCP's committed
 * use discounts are reserved offers) is told at `type`, one without plans
 * of this kind at `kind`, then `term_years` (with the terms and payments
 * there are, as check_reserved gives them; at `family` when its family
 * has no plan rates in the region), then `payment` (with them too). */
static gp_status check_plan(gp_jdoc *d, const gp_pricing *p,
                            const gp_commitment *c)
{
    bool family_seen = false, term_known = false;
    bool any_plan = false, kind_sold = false, reserved_sold = false;
    gp_commitment where = *c;
    char quoted[160], scope[96], list[512];
    plan_offers offers = {0};
    gp_status st;

    if (c->kind == GP_PLAN_COMPUTE)
        where.region[0] = '\0'; /* a compute plan spans the regions */
    if ((st = check_place(d, p, &where)) != GP_OK)
        return st;
    for (size_t i = 0; p && i < p->n_catalogs; i++) {
        const gp_catalog *cat = p->catalogs[i];
        if (strcmp(cat->provider, c->provider) != 0)
            continue;
        /* what the provider sells anywhere, for the errors below */
        for (size_t j = 0; j < cat->n_types; j++) {
            const gp_instance_type *t = &cat->types[j];
            reserved_sold = reserved_sold || t->n_reserved > 0;
            any_plan = any_plan || t->n_plans > 0;
            for (size_t k = 0; k < t->n_plans; k++)
                kind_sold = kind_sold || t->plans[k].kind == c->kind;
        }
        if (where.region[0] && strcmp(cat->region, c->region) != 0)
            continue;
        for (size_t j = 0; j < cat->n_types; j++) {
            const gp_instance_type *t = &cat->types[j];
            if (c->kind == GP_PLAN_FAMILY && strcmp(t->family, c->family) != 0)
                continue;
            family_seen = true;
            for (size_t k = 0; k < t->n_plans; k++) {
                if (t->plans[k].kind == c->kind)
                    plan_offers_add(&offers, &t->plans[k]);
                if (t->plans[k].kind != c->kind ||
                    t->plans[k].term_years != c->term_years)
                    continue;
                term_known = true;
                if (t->plans[k].payment == c->payment)
                    return GP_OK;
            }
        }
    }
    if (!any_plan && strcmp(c->provider, "gcp") == 0 && reserved_sold)
        return gp_jdoc_error(d, "type",
                             "gcp sells no savings plans in the loaded "
                             "catalogs: its committed use discounts are "
                             "reserved commitments (write \"type\": "
                             "\"reserved\" with an instance_type and count)");
    if (!any_plan)
        return gp_jdoc_error(
            d, "type", "the loaded %s catalogs have no savings plans%s",
            c->provider,
            reserved_sold ? " (write \"type\": \"reserved\" with an "
                            "instance_type and count)"
                          : " or reserved offers (add the plan's rates "
                            "to their types' savings_plans)");
    if (!kind_sold && c->kind == GP_PLAN_FAMILY)
        return gp_jdoc_error(d, "kind",
                             "the loaded %s catalogs have no instance_family "
                             "savings plans, only compute ones (write "
                             "\"kind\": \"compute\", which covers every "
                             "family and region)",
                             c->provider);
    if (!kind_sold)
        return gp_jdoc_error(d, "kind",
                             "the loaded %s catalogs have no compute savings "
                             "plans, only instance_family ones (write "
                             "\"kind\": \"instance_family\" with a region and "
                             "family)",
                             c->provider);
    if (c->kind == GP_PLAN_FAMILY && !family_seen)
        return gp_jdoc_error(d, "family",
                             "no instance type of family %s in %s %s",
                             gp_json_quote(c->family, quoted, sizeof quoted),
                             c->provider, c->region);
    if (c->kind == GP_PLAN_FAMILY)
        snprintf(scope, sizeof scope, "%s type in %s %s", c->family,
                 c->provider, c->region);
    else
        snprintf(scope, sizeof scope, "%s type", c->provider);
    if (offers.n == 0) /* then no term will do: the family has none */
        return gp_jdoc_error(d, "family",
                             "no %s has an instance_family savings plan rate "
                             "of any term or payment",
                             scope);
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < offers.n && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%d-year %s",
                         i ? ", " : "", offers.o[i].term_years,
                         gp_payment_name(offers.o[i].payment));
        if (w > 0)
            used += (size_t)w;
    }
    return gp_jdoc_error(d, term_known ? "payment" : "term_years",
                         "no %s has a %d-year %s %s savings plan rate "
                         "(offers: %s)",
                         scope, c->term_years, gp_payment_name(c->payment),
                         gp_plan_kind_name(c->kind), list);
}

/* Whether an upfront stated on a commitment is `upfront` (what the
 * catalogs charge) or, with the scenario's discount, what the run bills:
 * recommend's JSON writes the former at full precision; half a cent
 * allows for one rounded to cents by hand. */
static bool same_upfront(double stated, double upfront)
{
    return fabs(stated - upfront) <= 0.005 + 1e-9 * fabs(upfront);
}

/* Checks one commitment (the current path is its object).  An upfront it
 * states (pasted from recommend's JSON, or written in by hand as a
 * negotiated price) that is not the one the run bills is a warning: prices
 * come from the catalogs, and a user who meant another would not know. */
static gp_status check_commitment(gp_jdoc *d, const gp_pricing *p,
                                  const gp_commitment *c, double discount,
                                  gp_warnings *w)
{
    gp_status st = c->type == GP_COMMIT_RESERVED ? check_reserved(d, p, c)
                                                 : check_plan(d, p, c);
    double per_hour, upfront;
    char stated[32], after[96] = "";

    if (st != GP_OK || !c->has_stated_upfront)
        return st;
    gp_commitment_cash(c, p, &per_hour, &upfront);
    if (same_upfront(c->stated_upfront, upfront) ||
        same_upfront(c->stated_upfront, upfront * (1 - discount)))
        return GP_OK;
    gp_json_format_number(c->stated_upfront, stated, sizeof stated);
    if (discount > 0 && upfront > 0)
        snprintf(after, sizeof after, "; %.2f after the scenario's discount",
                 upfront * (1 - discount));
    if (c->type == GP_COMMIT_RESERVED)
        gp_jdoc_warning(d, w, "upfront",
                        "%s is not what the catalogs charge upfront for this "
                        "reservation (%.2f%s); the run bills the catalogs' "
                        "price, so put a negotiated one in a catalog",
                        stated, upfront, after);
    else
        gp_jdoc_warning(d, w, "upfront",
                        "%s is not this savings plan's upfront, which "
                        "follows from its hourly_commitment and %s payment "
                        "(%.2f%s); the run bills that",
                        stated, gp_payment_name(c->payment), upfront, after);
    return GP_OK;
}

/* Checks every commitment, owned and added by strategies, against the
 * catalogs; errors point into the scenario file. */
gp_status gp_scenario_check(const gp_scenario *s, const gp_pricing *p,
                            gp_warnings *w, gp_error *err)
{
    gp_jdoc d;
    gp_status st;

    gp_jdoc_init(&d, s->text, s->text_len, s->path, err);
    gp_jdoc_push_key(&d, "commitments");
    for (size_t i = 0; i < s->n_commitments; i++) {
        gp_jdoc_push_index(&d, i);
        if ((st = check_commitment(&d, p, &s->commitments[i], s->discount,
                                   w)) != GP_OK)
            return st;
        gp_jdoc_pop(&d);
    }
    gp_jdoc_pop(&d);
    /* strategies[k] of the scenario is strategies[k - 1] of the file */
    for (size_t k = 1; k < s->n_strategies; k++) {
        const gp_strategy *g = &s->strategies[k];
        gp_jdoc_push_key(&d, "strategies");
        gp_jdoc_push_index(&d, k - 1);
        gp_jdoc_push_key(&d, "add_commitments");
        for (size_t i = 0; i < g->n_add; i++) {
            gp_jdoc_push_index(&d, i);
            if ((st = check_commitment(&d, p, &g->add_commitments[i],
                                       s->discount, w)) != GP_OK)
                return st;
            gp_jdoc_pop(&d);
        }
        d.depth = 0;
    }
    return GP_OK;
}
