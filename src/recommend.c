/*
 * recommend.c: the commitment recommender (see recommend.h): one window's
 * recommendation (the policy's bill, routing, the three plans, the
 * balanced plan's actions), the backtest, gp_recommend itself and the
 * actions in words.  The low-demand case, the plans, the ranking, the
 * renewals and the forward parameter are in recommend_*.c, sharing
 * recommend_internal.h; the reasoning is in docs/design/recommend.md.
 */
#include "recommend_internal.h"
#include "forecast.h"
#include "levers.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gp_rec_ctx_init(struct ctx *c, const gp_trace *t, const gp_pricing *p,
                     const gp_scenario *s, int64_t start_hour,
                     size_t n_hours, const gp_recommend_options *opt)
{
    gp_engine_options eo;

    c->trace = t;
    c->pricing = p;
    c->scenario = s;
    gp_engine_options_init(&eo);
    eo.window_start = start_hour * 3600;
    eo.window_end = (start_hour + (int64_t)n_hours) * 3600;
    eo.threads = opt->threads;
    eo.mc_runs = opt->mc_runs;
    eo.mc_seed = opt->mc_seed;
    eo.progress = opt->progress;
    /* strategy 0 always exists: nothing can fail */
    (void)gp_run_spec_init(&c->spec, t, s, 0, &eo, NULL);
    c->spec.spot_memo = opt->spot_memo;
    c->spec.added = NULL;
    c->spec.n_added = 0;
    c->start_hour = start_hour;
    c->n_hours = n_hours;
    c->opt = opt;
    c->low = NULL;
}

/* *dst = a copy of c, whose policy can change without changing c's (the
 * spec holds its policies by value). */
void gp_rec_ctx_copy(struct ctx *dst, const struct ctx *c)
{
    *dst = *c;
}

/* Bills the window with `extra` commitments on top of the owned ones. */
gp_status gp_rec_bill(const struct ctx *c, const gp_trace *t,
                      const gp_commitment *extra, size_t n_extra,
                      gp_ledger **out, gp_error *err)
{
    gp_run_spec spec = c->spec;
    spec.extra = extra;
    spec.n_extra = n_extra;
    return gp_engine_run(t ? t : c->trace, c->pricing, &spec, out, err);
}

gp_status gp_rec_bill_cost(const struct ctx *c, const gp_trace *t,
                           const gp_commitment *extra, size_t n_extra,
                           double *cost, gp_error *err)
{
    gp_ledger *l;
    gp_status st = gp_rec_bill(c, t, extra, n_extra, &l, err);
    *cost = NAN;
    if (st != GP_OK)
        return st;
    *cost = l->total_cost;
    gp_ledger_free(l);
    return GP_OK;
}

static void *bill_job_run(void *arg)
{
    struct bill_job *j = arg;

    gp_error_clear(&j->err);
    j->st = gp_rec_bill(j->c, j->t, j->extra, j->n_extra, &j->out, &j->err);
    return NULL;
}

/* Runs two independent bills at once, b on a second thread when one can
 * be started.  Returns the first failure (its error in err); the ledgers
 * are the caller's to free either way. */
gp_status gp_rec_bill_two(struct bill_job *a, struct bill_job *b,
                          gp_error *err)
{
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, bill_job_run, b) == 0;

    bill_job_run(a);
    if (threaded)
        pthread_join(thread, NULL);
    else
        bill_job_run(b);
    gp_status st = a->st != GP_OK ? a->st : b->st;
    if (st != GP_OK && err)
        *err = a->st != GP_OK ? a->err : b->err;
    return st;
}

/* The conservative or aggressive plan, from a copy of the balanced
 * levels, for a second thread. */
struct other_plan {
    const struct ctx *c;
    struct downside_job *down; /* waited for already */
    double policy_cost;
    const gp_opt *warm; /* a copy of the balanced levels (NULL: start cold) */
    bool conservative;
    gp_plan_result *out;
    gp_status st;
    gp_error err;
};

static void *other_plan_run(void *arg)
{
    struct other_plan *j = arg;
    const struct ctx *c = j->c;

    gp_error_clear(&j->err);
    if (j->conservative)
        j->st = gp_rec_make_plan(c, j->down->down ? j->down->down : c->trace,
                                 j->down, "conservative", 1, NO_UPFRONT_ONLY,
                                 j->policy_cost, j->warm, j->out, NULL, NULL,
                                 &j->err);
    else
        j->st = gp_rec_make_plan(c, c->trace, j->down, "aggressive", 3,
                                 ALL_PAYMENTS, j->policy_cost, j->warm, j->out,
                                 NULL, NULL, &j->err);
    return NULL;
}

/* The share of the best purchase's net savings that `got` captured.
 * When nothing was worth buying (best <= 0) it is 1 if `got` did as well
 * and undefined (NAN: null, "n/a") if it lost money: a loss is not all of
 * nothing. */
static double captured(double got, double best)
{
    if (best > 0)
        return got / best;
    return got >= best - 0.005 ? 1.0 : NAN;
}

/* Adds the routing action first, as training on spot (billed in `l`)
 * pays, and launches training on spot from here on. */
static gp_status add_routing(struct ctx *c, gp_recommendation *r,
                             const gp_ledger *l)
{
    int ai = gp_rec_action_grow(r);
    if (ai < 0)
        return GP_ERR_NOMEM;
    gp_action *a = &r->actions[ai];
    a->type = GP_ACTION_ROUTING;
    a->net_savings = r->policy_cost - l->total_cost;
    a->interruption_cost = l->spot_failed_attempt_cost_mean;
    a->routed_cost = l->workload_cost[GP_TRAINING];
    a->savings_pct = l->workload_cost[GP_TRAINING] > 0
                         ? a->net_savings /
                               (a->net_savings +
                                l->workload_cost[GP_TRAINING])
                         : 0;
    /* the amounts as the tables write them: "$63,451.50" */
    char on_spot[48], od[48], lost[48];
    gp_format_money(l->workload_cost[GP_TRAINING], on_spot,
                    sizeof on_spot);
    gp_format_money(l->workload_cost[GP_TRAINING] + a->net_savings, od,
                    sizeof od);
    /* neither the money lost nor the expected count reads as zero
     * when it is not (a few hours of training at a low rate), as
     * in simulate's spot line */
    gp_format_money_small(a->interruption_cost, lost, sizeof lost);
    char count[48];
    gp_format_small(l->spot_interruptions_mean, "no", count,
                    sizeof count);
    snprintf(a->reason, sizeof a->reason,
             "training on spot costs %s instead of %s, "
             "interruptions included (%s expected, %s "
             "interruptions); checkpoint every %g h",
             on_spot, od, lost, count, c->spec.policy[0].checkpoint_interval_h);
    c->spec.policy[0].launch = GP_LAUNCH_SPOT;
    return GP_OK;
}

/* Bills the scenario's policy over the window and, beside it, training on
 * spot: the baseline costs, and the routing action when it pays. */
static gp_status policy_and_routing(struct ctx *c, gp_recommendation *r,
                                    gp_error *err)
{
    gp_ledger *policy = NULL;
    gp_status st;

    /* the policy's bill and, beside it, training on spot */
    bool may_route = c->spec.policy[0].launch == GP_LAUNCH_ON_DEMAND &&
                     (c->opt->instruments & GP_BUY_ROUTING);
    struct ctx spot;
    gp_rec_ctx_copy(&spot, c);
    spot.spec.policy[0].launch = GP_LAUNCH_SPOT;
    struct bill_job pj, sj;
    memset(&pj, 0, sizeof pj);
    pj.c = c;
    sj = pj;
    sj.c = &spot;
    st = may_route ? gp_rec_bill_two(&pj, &sj, err)
                   : gp_rec_bill(c, NULL, NULL, 0, &pj.out, err);
    if (st != GP_OK) {
        gp_ledger_free(pj.out);
        gp_ledger_free(sj.out);
        return st;
    }
    policy = pj.out;
    r->all_on_demand_cost = policy->all_on_demand_cost;
    r->policy_cost = policy->total_cost;
    gp_ledger_free(policy);

    /* routing: training on spot, if it pays */
    if (may_route) {
        gp_ledger *l = sj.out;
        if (l->total_cost < r->policy_cost - 0.005 &&
            l->cost[GP_MODEL_SPOT] > 0)
            st = add_routing(c, r, l);
        gp_ledger_free(l);
    }
    return st;
}

/* Makes the aggressive plan on a second thread, from a copy of the balanced
 * levels, while this one ranks the balanced plan's actions, draws its
 * curves (which move the balanced levels about) and then makes the
 * conservative plan; all of them only read the inputs.
 * `details`: the balanced plan's actions and curves too. */
static gp_status other_plans(struct ctx *c, gp_recommendation *r,
                             struct downside_job *low, gp_opt *balanced_opt,
                             const gp_ledger *balanced_bill, bool details,
                             gp_error *err)
{
    gp_status st = GP_OK;
    struct other_plan jobs[2];
    memset(jobs, 0, sizeof jobs);
    jobs[0].c = c;
    jobs[0].down = low;
    jobs[0].policy_cost = r->policy_cost;
    jobs[0].warm = gp_opt_clone(balanced_opt);
    /* without the copy the other plans start cold: said after the join */
    bool warm_lost = balanced_opt && !jobs[0].warm;
    jobs[1] = jobs[0];
    jobs[0].out = &r->plans[2];
    jobs[1].conservative = true;
    jobs[1].out = &r->plans[0];
    pthread_t thread;
    bool threaded =
        pthread_create(&thread, NULL, other_plan_run, &jobs[0]) == 0;
    if (!threaded)
        other_plan_run(&jobs[0]);
    if (details) {
        st = gp_rec_rank_actions(c, r, &r->plans[1], balanced_bill,
                                 balanced_opt, low->down, low->base, err);
        if (st == GP_OK)
            st = gp_rec_renewals(c, r, &r->plans[1], low->down, err);
        for (size_t i = 0; i < r->n_actions; i++)
            r->actions[i].rank = (int)i + 1;
        if (st == GP_OK)
            st = gp_rec_make_curves(r, balanced_opt, r->plans[1].net_savings);
    }
    other_plan_run(&jobs[1]);
    if (threaded)
        pthread_join(thread, NULL);
    gp_opt_free((gp_opt *)jobs[0].warm);
    if (st == GP_OK && warm_lost)
        st = GP_ERR_NOMEM;
    for (int i = 0; i < 2; i++)
        if (st == GP_OK && jobs[i].st != GP_OK) {
            st = jobs[i].st;
            if (err)
                *err = jobs[i].err;
        }
    return st;
}

/* The recommendation for c's window into r: the policy's bill and the
 * routing action, the three plans, and with `details` the balanced plan's
 * actions, renewals and curves (a backtest's hindsight needs none). */
gp_status gp_rec_window(struct ctx *c, gp_recommendation *r, bool details,
                        gp_error *err)
{
    gp_opt *balanced_opt = NULL;
    gp_ledger *balanced_bill = NULL;
    struct downside_job low;
    gp_status st;

    r->start_hour = c->start_hour;
    r->n_hours = c->n_hours;
    st = policy_and_routing(c, r, err);
    if (st != GP_OK)
        return st;

    r->supported_term = gp_rec_supported_term(c, &r->last_13_weeks_share);
    /* the low-demand case, beside the balanced plan's solve */
    gp_rec_downside_start(
        &low, c, r->n_actions && r->actions[0].type == GP_ACTION_ROUTING);
    /* the balanced plan first: the others start from its levels */
    st = gp_rec_make_plan(c, c->trace, &low, "balanced", r->supported_term,
                          ALL_PAYMENTS, r->policy_cost, NULL, &r->plans[1],
                          &balanced_opt, &balanced_bill, err);
    if (st != GP_OK)
        goto out;
    if (low.routed)
        r->actions[0].downside_net_savings =
            low.down ? low.policy - low.base : NAN;
    st = other_plans(c, r, &low, balanced_opt, balanced_bill, details, err);
    if (st != GP_OK)
        goto out;
    for (int i = 0; i < 3; i++)
        gp_rec_plan_risk(c, r, i);
    r->recommended = 1;
    r->hindsight_cost = r->plans[1].total_cost;
    r->hindsight_net_savings = r->plans[1].net_savings;
    r->hindsight_any_term_cost = r->plans[2].total_cost;
    r->hindsight_any_term_net_savings = r->plans[2].net_savings;
    if (r->plans[2].net_savings > r->hindsight_net_savings &&
        r->supported_term == 3) {
        r->hindsight_cost = r->plans[2].total_cost;
        r->hindsight_net_savings = r->plans[2].net_savings;
    }
    r->captured_fraction = captured(r->plans[r->recommended].net_savings,
                                    r->hindsight_net_savings);
out:
    gp_ledger_free(balanced_bill);
    gp_opt_free(balanced_opt);
    gp_rec_downside_wait(&low, NULL);
    gp_rec_downside_free(low.down);
    return st;
}

void gp_recommend_options_init(gp_recommend_options *o)
{
    memset(o, 0, sizeof *o);
    o->terms = GP_TERM_BIT(1) | GP_TERM_BIT(3);
    o->payments = ALL_PAYMENTS;
    o->instruments = GP_BUY_EVERYTHING;
    o->mc_runs = -1;
    o->mc_seed = -1;
}

void gp_recommendation_free(gp_recommendation *r)
{
    if (!r)
        return;
    for (int i = 0; i < 3; i++)
        gp_free(r->plans[i].commitments);
    gp_free(r->actions);
    gp_free(r->curves);
    gp_free(r->capacity);
    gp_forecast_free(r->forecast);
    gp_warnings_clear(&r->notes);
    gp_free(r);
}

/* Whether opt->train_until is a whole hour inside the window [start,
 * start + hours); when it is not, says so in err. */
static bool train_until_ok(const gp_recommend_options *opt, int64_t start,
                           size_t hours, gp_error *err)
{
    int64_t cut = opt->train_until / 3600;
    if (opt->train_until % 3600 != 0 || cut <= start ||
        cut >= start + (int64_t)hours) {
        char a[32], z[32], g[32];
        gp_format_time(start * 3600, a, sizeof a);
        gp_format_time((start + (int64_t)hours) * 3600, z, sizeof z);
        gp_format_time(opt->train_until, g, sizeof g);
        /* a cut inside an hour used to be moved to the hour's start */
        gp_error_set_param(err, NULL, GP_PARAM_TRAIN_UNTIL,
                           "must be a whole hour inside the window, %s to %s, "
                           "got %s",
                           a, z, g);
        return false;
    }
    return true;
}

/* Bills the recommended plan, bought at the cut (epoch hours), over the
 * test window `test` (routing as recommended) and the scenario's policy
 * over the same hours (test_policy): the backtest's costs and savings. */
static gp_status backtest_bills(const struct ctx *test,
                                const struct ctx *test_policy, int64_t cut,
                                gp_recommendation *r, gp_error *err)
{
    const gp_plan_result *bought = &r->plans[r->recommended];
    gp_commitment *moved =
        gp_calloc(bought->n_commitments + 1, sizeof *moved);
    if (!moved)
        return GP_ERR_NOMEM;
    for (size_t i = 0; i < bought->n_commitments; i++) {
        moved[i] = bought->commitments[i];
        moved[i].start = cut * 3600;
        moved[i].end =
            moved[i].start + (int64_t)moved[i].term_years * 365 * 86400;
    }
    r->backtest = true;
    r->train_until = cut * 3600;
    r->test_hours = test->n_hours;
    gp_status st =
        gp_rec_bill_cost(test_policy, NULL, NULL, 0, &r->test_policy_cost, err);
    if (st == GP_OK)
        st = gp_rec_bill_cost(test, NULL, moved, bought->n_commitments,
                              &r->test_plan_cost, err);
    gp_free(moved);
    /* what the commitments alone saved, on top of the routing */
    double routed;
    if (st == GP_OK)
        st = gp_rec_bill_cost(test, NULL, NULL, 0, &routed, err);
    if (st != GP_OK)
        return st;
    r->test_plan_net_savings = r->test_policy_cost - r->test_plan_cost;
    r->test_commitment_net_savings = routed - r->test_plan_cost;
    return GP_OK;
}

/* The best buy for the test window in hindsight (its own recommendation,
 * without the details), and the shares of it that the plan and its
 * commitments alone captured. */
static gp_status backtest_hindsight(struct ctx *test_policy,
                                    gp_recommendation *r, gp_error *err)
{
    gp_recommendation *hind = gp_calloc(1, sizeof *hind);
    if (!hind)
        return GP_ERR_NOMEM;
    gp_status st = gp_rec_window(test_policy, hind, false, err);
    if (st == GP_OK) {
        double route = hind->n_actions &&
                               hind->actions[0].type == GP_ACTION_ROUTING
                           ? hind->actions[0].net_savings
                           : 0;
        r->test_hindsight_commitment_savings =
            hind->hindsight_net_savings - route;
        r->test_commitment_captured_fraction =
            captured(r->test_commitment_net_savings,
                     r->test_hindsight_commitment_savings);
        r->test_hindsight_net_savings = hind->hindsight_net_savings;
        r->test_captured_fraction =
            captured(r->test_plan_net_savings, hind->hindsight_net_savings);
    }
    gp_recommendation_free(hind);
    return st;
}

/* the train-until parameter: recommends from the hours before the cut, buys at
 * the cut and bills the rest; compares with the best buy for the rest in
 * hindsight. */
static gp_status backtest(const gp_trace *trace, const gp_pricing *pricing,
                          const gp_scenario *s,
                          const gp_recommend_options *opt, int64_t start,
                          size_t hours, gp_recommendation *r, gp_error *err)
{
    int64_t cut = opt->train_until / 3600;
    struct ctx c, test, test_policy;
    int64_t from = start;

    if (opt->lookback_hours > 0 && cut - (int64_t)opt->lookback_hours > from)
        from = cut - (int64_t)opt->lookback_hours;
    gp_rec_ctx_init(&c, trace, pricing, s, from, (size_t)(cut - from), opt);
    gp_status st = gp_rec_window(&c, r, true, err);
    if (st != GP_OK)
        return st;
    gp_rec_ctx_init(&test, trace, pricing, s, cut,
                    (size_t)(start + (int64_t)hours - cut), opt);
    test.spec.policy[0] = c.spec.policy[0]; /* the routing decision */
    gp_rec_ctx_init(&test_policy, trace, pricing, s, cut, test.n_hours, opt);
    st = backtest_bills(&test, &test_policy, cut, r, err);
    if (st == GP_OK)
        st = backtest_hindsight(&test_policy, r, err);
    return st;
}

/* The notes on the terms the history supports: 1-year terms only (and
 * why), and 1-year terms sized on under 4 weeks of history. */
static void term_notes(gp_recommendation *r)
{
    if (r->supported_term == 1 && !r->forward) {
        char why[200];
        gp_rec_unsupported_why(r, r->n_hours, false, why, sizeof why);
        if (r->plans[1].max_term > 0)
            gp_warnings_add(&r->notes,
                            "the balanced plan buys 1-year terms only, as %s",
                            why);
        else /* it buys no terms at all */
            gp_warnings_add(&r->notes,
                            "the balanced plan buys nothing; it may buy "
                            "1-year terms only, as %s",
                            why);
    }
    /* forward, the history is what the forecast was fitted on */
    size_t history = r->forward ? r->forecast->history_hours : r->n_hours;
    if (r->plans[r->recommended].max_term == 1 &&
        history < ONE_YEAR_HISTORY_HOURS) {
        char span[32];
        gp_rec_span_words(history, span, sizeof span);
        gp_warnings_add(&r->notes,
                        "the %s plan buys 1-year terms sized on %s%s of "
                        "history: under 4 weeks, too little to tell whether "
                        "demand lasts the year; size the plan on a longer "
                        "trace before buying",
                        r->plans[r->recommended].name,
                        r->forward ? "a forecast from " : "", span);
    }
}

gp_status gp_recommend(const gp_trace *trace, const gp_pricing *pricing,
                       const gp_scenario *s, const gp_recommend_options *opt,
                       gp_recommendation **out, gp_error *err)
{
    gp_recommend_options own;
    gp_recommendation *r = gp_calloc(1, sizeof *r);
    int64_t start;
    size_t hours;
    struct ctx c;
    gp_status st;

    *out = NULL;
    if (opt)
        own = *opt;
    else
        gp_recommend_options_init(&own);
    /* the same job runs on spot are replayed once for all the bills */
    own.spot_memo = gp_spot_memo_new();
    opt = &own;
    if (!r || !own.spot_memo) {
        gp_free(r);
        gp_spot_memo_free(own.spot_memo);
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    gp_engine_window(trace, s, &start, &hours);
    if (opt->forward_hours > 0) {
        st = gp_rec_forward(trace, pricing, s, opt, r, err);
    } else if (opt->train_until > 0) {
        if (!train_until_ok(opt, start, hours, err)) {
            gp_free(r);
            gp_spot_memo_free(own.spot_memo);
            return GP_ERR_USAGE;
        }
        st = backtest(trace, pricing, s, opt, start, hours, r, err);
    } else {
        if (opt->lookback_hours > 0 && opt->lookback_hours < hours) {
            start += (int64_t)(hours - opt->lookback_hours);
            hours = opt->lookback_hours;
        }
        gp_rec_ctx_init(&c, trace, pricing, s, start, hours, opt);
        st = gp_rec_window(&c, r, true, err);
        if (st == GP_OK) {
            /* routing may have moved training to spot: start again */
            gp_rec_ctx_init(&c, trace, pricing, s, start, hours, opt);
            st = gp_rec_capacity(&c, r, err);
        }
    }
    gp_spot_memo_free(own.spot_memo);
    if (st != GP_OK)
        goto fail;
    term_notes(r);
    gp_levers_notes(trace, pricing, s, r->start_hour, r->n_hours, &r->notes);
    *out = r;
    return GP_OK;
fail:
    if (st == GP_ERR_NOMEM && err && !err->message[0])
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    gp_recommendation_free(r);
    return st;
}

/* ---- in words ------------------------------------------------------------ */

const char *gp_action_type_name(gp_action_type t)
{
    return t == GP_ACTION_RESERVED
               ? "reserved"
               : (t == GP_ACTION_SAVINGS_PLAN ? "savings_plan" : "routing");
}

void gp_commitment_describe(const gp_commitment *c, bool renewal, char *buf,
                            size_t size)
{
    if (c->type == GP_COMMIT_RESERVED)
        snprintf(buf, size, "%s%g x %s %s, %dy %s", renewal ? "renew " : "",
                 c->count, c->instance_type, c->region, c->term_years,
                 gp_payment_name(c->payment));
    else if (c->kind == GP_PLAN_FAMILY)
        snprintf(buf, size,
                 "%sinstance_family plan %s %s%.3f/h, %dy %s "
                 "(%s %s)",
                 renewal ? "renew " : "", c->provider, gp_money_prefix(),
                 c->hourly_commitment, c->term_years,
                 gp_payment_name(c->payment), c->family, c->region);
    else
        snprintf(buf, size, "%scompute plan %s %s%.3f/h, %dy %s",
                 renewal ? "renew " : "", c->provider, gp_money_prefix(),
                 c->hourly_commitment, c->term_years,
                 gp_payment_name(c->payment));
}

void gp_action_describe(const gp_action *a, char *buf, size_t size)
{
    if (a->type == GP_ACTION_ROUTING)
        snprintf(buf, size, "launch training on spot");
    else
        gp_commitment_describe(&a->c, a->renewal, buf, size);
}

/* How a commitment is paid, in words: "paid all upfront". */
static const char *payment_plain(gp_payment p)
{
    switch (p) {
    case GP_ALL_UPFRONT:
        return "paid all upfront";
    case GP_PARTIAL_UPFRONT:
        return "paid partly upfront";
    default:
        return "nothing upfront";
    }
}

void gp_action_plain(const gp_action *a, char *buf, size_t size)
{
    const gp_commitment *c = &a->c;
    const char *renew = a->renewal ? "Renew: " : "";
    const char *years = c->term_years == 1 ? "year" : "years";

    if (a->type == GP_ACTION_ROUTING)
        snprintf(buf, size, "Run training on spot instances");
    else if (c->type == GP_COMMIT_RESERVED)
        snprintf(buf, size, "%sreserve %g %s (%s %s) for %d %s, %s", renew,
                 c->count, c->instance_type, c->provider, c->region,
                 c->term_years, years, payment_plain(c->payment));
    else if (c->kind == GP_PLAN_FAMILY)
        snprintf(buf, size,
                 "%scommit %s%.2f an hour for %d %s to a savings plan for %s "
                 "(%s %s), %s",
                 renew, gp_money_prefix(), c->hourly_commitment, c->term_years,
                 years, c->family, c->provider, c->region,
                 payment_plain(c->payment));
    else
        snprintf(buf, size,
                 "%scommit %s%.2f an hour for %d %s to a compute savings "
                 "plan (%s), %s",
                 renew, gp_money_prefix(), c->hourly_commitment, c->term_years,
                 years, c->provider, payment_plain(c->payment));
    if (buf[0] >= 'a' && buf[0] <= 'z')
        buf[0] = (char)(buf[0] - 'a' + 'A');
}

gp_status gp_recommend_bill_plan(const gp_trace *trace,
                                 const gp_pricing *pricing,
                                 const gp_scenario *s,
                                 const gp_recommendation *rec, int threads,
                                 int mc_runs, long mc_seed,
                                 const gp_progress *progress, gp_ledger *out[2],
                                 gp_error *err)
{
    const gp_plan_result *p = &rec->plans[rec->recommended];
    gp_engine_options eo;
    gp_run_spec spec;
    gp_status st;

    out[0] = out[1] = NULL;
    if (rec->forward)
        return GP_OK; /* planned on forecast demand: nothing to bill */
    /* as the recommender bills: the baseline strategy alone, nothing
     * added, over the recommendation's window */
    gp_engine_options_init(&eo);
    eo.window_start = rec->start_hour * 3600;
    eo.window_end = (rec->start_hour + (int64_t)rec->n_hours) * 3600;
    eo.threads = threads;
    eo.mc_runs = mc_runs;
    eo.mc_seed = mc_seed;
    eo.progress = *progress;
    st = gp_run_spec_init(&spec, trace, s, 0, &eo, err);
    if (st != GP_OK)
        return st;
    spec.added = NULL;
    spec.n_added = 0;
    spec.strategy = "current";
    st = gp_engine_run(trace, pricing, &spec, &out[0], err);
    if (st != GP_OK)
        return st;
    if (p->route_training_to_spot)
        spec.policy[0].launch = GP_LAUNCH_SPOT;
    spec.extra = p->commitments;
    spec.n_extra = p->n_commitments;
    spec.strategy = p->name;
    st = gp_engine_run(trace, pricing, &spec, &out[1], err);
    if (st != GP_OK) {
        gp_ledger_free(out[0]);
        out[0] = NULL;
        return st;
    }
    return GP_OK;
}
