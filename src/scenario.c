/*
 * scenario.c: scenario files (SPEC section 3b): their defaults, the top
 * level (name, window, adjustments, growth, Monte Carlo runs), the launch
 * policy per workload, and the strategies compared with the baseline.
 * Commitments are read by scenario_commitments.c and checked against the
 * catalogs by scenario_check.c; docs/design/scenario.md says how a
 * scenario is put together and checked.
 */
#include "scenario_internal.h"
#include "source.h"

#include <string.h>

#define SCENARIO_SCHEMA "gpuplan-scenario/1"
#define MAX_MC_RUNS 10000000
#define MAX_INTERRUPTIONS 1000000   /* a policy's fallback threshold */
#define MAX_SEED 9007199254740992.0 /* 2^53: every seed below is exact */

/* The workloads' keys in policy and growth, by gp_workload. */
static const char *const workload_keys[2] = {"training", "inference"};

/* The keys each object of a scenario may have (SPEC section 3b); anything
 * else is a misspelling, reported rather than left at its default. */
static const char *const root_keys[] = {
    "schema",      "name",       "window", "adjustments", "policy",
    "commitments", "strategies", "growth", "monte_carlo", "classify",
    "policies", "budgets", NULL};
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
                                                   "deadline_h",
                                                   "fallback",
                                                   "terminate_idle_h",
                                                   NULL};
static const char *const strategy_keys[] = {
    "name", "add_commitments", "policy", "autoscale", "rightsize", "migrate",
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
    p->deadline_h = -1;
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
    for (size_t i = 0; i < s->n_policies; i++)
        gp_free(s->policies[i].name);
    gp_free(s->policies);
    for (size_t i = 0; i < s->n_classify_priors; i++)
        gp_free(s->classify_priors[i].key);
    gp_free(s->classify_priors);
    for (size_t i = 0; i < s->n_budgets; i++)
        gp_free(s->budgets[i].name);
    gp_free(s->budgets);
    gp_free(s->path);
    gp_free(s->name);
    gp_free(s->text);
    gp_free(s);
}

/* ---- reading ------------------------------------------------------------ */

/* deadline_h of a workload's policy (the current path), after
 * deadline_slack_h was read (have_slack: it was there).  The two say the
 * same thing two ways (deadline_h = a run's length + deadline_slack_h), so
 * one object gives one of them, and either one set in a strategy's policy
 * replaces the other from the baseline. */
static gp_status parse_deadline_h(gp_jdoc *d, const json_t *jp,
                                  bool have_slack, gp_policy *p)
{
    bool have = false;
    gp_status st = gp_jdoc_number(d, jp, "deadline_h", false, &p->deadline_h,
                                  &have);

    if (st != GP_OK)
        return st;
    if (have && have_slack)
        return gp_jdoc_error(d, "deadline_h",
                             "give either deadline_h or deadline_slack_h, "
                             "not both");
    if (have && (st = gp_jdoc_check_nonnegative(d, "deadline_h",
                                                p->deadline_h)) != GP_OK)
        return st;
    if (have)
        p->deadline_slack_h = -1;
    else if (have_slack)
        p->deadline_h = -1;
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
                           gp_json_launch_names, 5, &launch, NULL)) != GP_OK ||
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
        (st = parse_deadline_h(d, jp, have_deadline, p)) != GP_OK ||
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

/* Reads strategy js (the current path is its object) into the next slot
 * of s->strategies. */
static gp_status parse_strategy(gp_jdoc *d, const json_t *js, gp_scenario *s)
{
    gp_strategy *g = &s->strategies[s->n_strategies];
    const char *name;
    char quoted[160];
    gp_status st;

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
        if (s->strategies[k].name &&
            strcmp(s->strategies[k].name, name) == 0)
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
    if ((st = gp_scenario_parse_commitments(d, js, "add_commitments",
                                            &g->add_commitments,
                                            &g->n_add)) != GP_OK ||
        (st = parse_policy(d, js, g->policy)) != GP_OK ||
        (st = gp_scenario_parse_levers(d, js, g)) != GP_OK)
        return st;
    return GP_OK;
}

/* Reads the strategies array (after the baseline policy is known).  Going
 * on past a strategy that failed (gp_jdoc_go_on), its slot is kept, with
 * no name, so that strategies[k] stays the file's strategies[k - 1]. */
static gp_status parse_strategies(gp_jdoc *d, const json_t *root,
                                  gp_scenario *s)
{
    json_t *arr, *js;
    size_t i;
    gp_status st = gp_jdoc_array(d, root, "strategies", false, &arr);

    if (st != GP_OK)
        return st;
    if (add_baseline(s, arr ? json_array_size(arr) : 0) != GP_OK)
        return gp_jdoc_nomem(d);
    if (!arr)
        return GP_OK;
    gp_jdoc_push_key(d, "strategies");
    size_t at = d->depth;
    json_array_foreach(arr, i, js)
    {
        size_t before = s->n_strategies;
        gp_jdoc_push_index(d, i);
        if ((st = gp_jdoc_go_on(d, parse_strategy(d, js, s), at)) != GP_OK)
            return st;
        if (s->n_strategies == before)
            s->n_strategies++;
        d->depth = at;
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

/* Reads the scenario's name, if it gives one, over the default. */
static gp_status parse_name(gp_jdoc *d, const json_t *root, gp_scenario *s)
{
    const char *name;
    bool have = false;
    char *copy;
    gp_status st = gp_jdoc_string(d, root, "name", false, &name, &have);

    if (st != GP_OK || !have)
        return st;
    if (!name[0])
        return gp_jdoc_error(d, "name", "must not be empty");
    if (!(copy = gp_strdup(name)))
        return gp_jdoc_nomem(d);
    gp_free(s->name);
    s->name = copy;
    return GP_OK;
}

/* Checks that the window's start and end (read into s from jw, the
 * current path) are on the hour: the engine bills whole clock hours, so a
 * window from 00:30 would bill the half hour before it, commitments
 * included. */
static gp_status check_window_hours(gp_jdoc *d, const json_t *jw,
                                    const gp_scenario *s)
{
    for (int i = 0; i < 2; i++) {
        const char *key = i ? "end" : "start";
        int64_t t = i ? s->window_end : s->window_start;
        if (t % 3600 != 0) {
            char quoted[128], hour[32];
            /* the hour it is in (times are from 1970: t >= 0) */
            gp_format_time(t - t % 3600, hour, sizeof hour);
            return gp_jdoc_error(
                d, key,
                "must be on the hour in UTC (windows are billed in "
                "whole clock hours), got %s; write %s or an hour later",
                gp_json_quote(json_string_value(json_object_get(jw, key)),
                              quoted, sizeof quoted),
                hour);
        }
    }
    return GP_OK;
}

/* Reads the window, if the scenario gives one: its start and end, whole
 * hours with the end after the start and in 9999 at the latest. */
static gp_status parse_window(gp_jdoc *d, const json_t *root, gp_scenario *s)
{
    json_t *jw;
    gp_status st = gp_jdoc_object(d, root, "window", false, &jw);

    if (st != GP_OK || !jw)
        return st;
    gp_jdoc_push_key(d, "window");
    if ((st = gp_jdoc_known_keys(d, jw, window_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_time(d, jw, "start", true, &s->window_start, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_time(d, jw, "end", true, &s->window_end, NULL)) != GP_OK)
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
            gp_json_quote(json_string_value(json_object_get(jw, "end")), quoted,
                          sizeof quoted));
    }
    if ((st = check_window_hours(d, jw, s)) != GP_OK)
        return st;
    /* held to the trace's own bound: every hour of a window is billed and
     * kept, and a window to 9999 asked for gigabytes before failing */
    if ((s->window_end - s->window_start) / 3600 > GP_TRACE_MAX_SPAN_HOURS) {
        char start[32];
        gp_format_time(s->window_start, start, sizeof start);
        return gp_jdoc_error(d, "end",
                             "the window from %s spans more than 30 years, "
                             "as no trace may; end it within 30 years",
                             start);
    }
    s->has_window = true;
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads the price adjustments, if the scenario gives them: the discount
 * off every price and the spot price and interruption factors. */
static gp_status parse_adjustments(gp_jdoc *d, const json_t *root,
                                   gp_scenario *s)
{
    json_t *ja;
    gp_status st = gp_jdoc_object(d, root, "adjustments", false, &ja);

    if (st != GP_OK || !ja)
        return st;
    gp_jdoc_push_key(d, "adjustments");
    if ((st = gp_jdoc_known_keys(d, ja, adjustment_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_number(d, ja, "discount", false, &s->discount, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_check_fraction(d, "discount", s->discount,
                                     "a fraction off every price")) != GP_OK ||
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
    return GP_OK;
}

/* The top level's parts that parse_scenario reads with parse_name and
 * its like. */
static gp_status parse_root_keys(gp_jdoc *d, const json_t *root,
                                 gp_scenario *s)
{
    (void)s;
    return gp_jdoc_known_keys(d, root, root_keys, NULL);
}

static gp_status parse_baseline_policy(gp_jdoc *d, const json_t *root,
                                       gp_scenario *s)
{
    gp_status st = parse_policy(d, root, s->policy);
    /* going on (gp_jdoc_go_on), the strategies start from the defaults,
     * not from a bad value each would then be blamed for */
    if (st == GP_ERR_INPUT && d->all)
        for (int w = 0; w < 2; w++)
            policy_default(&s->policy[w]);
    return st;
}

static gp_status parse_owned(gp_jdoc *d, const json_t *root, gp_scenario *s)
{
    /* the baseline uses the owned commitments themselves (n_add 0) */
    return gp_scenario_parse_commitments(d, root, "commitments",
                                         &s->commitments, &s->n_commitments);
}

/* Reads the top level of a scenario document into s, member by member in
 * the order their errors are reported; with d->all, each member that
 * fails is said and the next one read (gp_jdoc_go_on). */
static gp_status parse_scenario(gp_jdoc *d, const json_t *root, gp_scenario *s)
{
    static const char *const schema_names[1] = {SCENARIO_SCHEMA};
    static gp_status (*const parts[])(gp_jdoc *, const json_t *,
                                      gp_scenario *) = {
        parse_root_keys, parse_name,  parse_window,     parse_adjustments,
        parse_baseline_policy, parse_owned, parse_strategies, parse_growth,
        parse_monte_carlo, gp_scenario_parse_classify,
        gp_scenario_parse_policies, gp_scenario_parse_budgets};
    int schema = 0;
    gp_status st;

    /* the schema first: a catalog given as a scenario should say so, and
     * then no more (its keys are a catalog's) */
    if ((st = gp_jdoc_enum(d, root, "schema", false, "schema", schema_names, 1,
                           &schema, NULL)) != GP_OK)
        return st;
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
        if ((st = gp_jdoc_go_on(d, parts[k](d, root, s), 0)) != GP_OK)
            return st;
    return GP_OK;
}

/* Parses and checks a scenario held in memory; `source` names it in
 * errors and gives the default name.  The text is copied and kept.  With
 * `all` (gp_scenario_load_all) the read goes on past an error, and a
 * scenario that has only input errors is kept in *out. */
static gp_status scenario_parse(gp_scenario **out, const char *text,
                                size_t len, const char *source,
                                gp_error_list *all, gp_error *err)
{
    gp_scenario *s = scenario_new();
    gp_jdoc d;
    json_t *root = NULL;
    gp_status st;
    size_t first = all ? all->count : 0;

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
    d.all = all;
    st = gp_jdoc_parse(&d, &root);
    if (st == GP_OK)
        st = parse_scenario(&d, root, s);
    json_decref(root);
    if (st == GP_ERR_INPUT && all)
        st = gp_jdoc_go_on(&d, st, 0); /* the schema's, or malformed JSON */
    if (st == GP_OK && all && all->count > first) {
        *err = all->items[first]; /* kept, for gp_scenario_check_all */
        *out = s;
        return GP_ERR_INPUT;
    }
    if (st != GP_OK) {
        gp_scenario_free(s);
        return st;
    }
    *out = s;
    return GP_OK;
}

gp_status gp_scenario_parse(gp_scenario **out, const char *text, size_t len,
                            const char *source, gp_error *err)
{
    return scenario_parse(out, text, len, source, NULL, err);
}

gp_status gp_scenario_parse_all(gp_scenario **out, const char *text,
                                size_t len, const char *source,
                                gp_error_list *all, gp_error *err)
{
    return scenario_parse(out, text, len, source, all, err);
}

/* Reads a scenario file ("-" is standard input) and parses it, stopping
 * at the first error or (with `all`) going on past each. */
static gp_status scenario_load(gp_scenario **out, const char *path,
                               gp_error_list *all, gp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    gp_status st;

    *out = NULL;
    st = gp_source_load(path, GP_SOURCE_SCENARIO, &text, &len, err);
    if (st != GP_OK)
        return st;
    st = scenario_parse(out, text, len, path, all, err);
    gp_free(text);
    return st;
}

gp_status gp_scenario_load(gp_scenario **out, const char *path, gp_error *err)
{
    return scenario_load(out, path, NULL, err);
}

gp_status gp_scenario_load_all(gp_scenario **out, const char *path,
                               gp_error_list *all, gp_error *err)
{
    return scenario_load(out, path, all, err);
}
