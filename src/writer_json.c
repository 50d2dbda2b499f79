/*
 * writer_json.c: the JSON documents (SPEC section 5): ledgers, idle GPUs,
 * inputs and classification, which simulate's document is made of, and
 * the whole recommend and forecast documents.  Keys named in the SPEC
 * keep their names; extra keys (months, commitments, inputs) follow them.
 */
#include "classify.h"
#include "forecast.h"
#include "idle.h"
#include "model.h"
#include "json_util.h"
#include "recommend.h"
#include "util.h"
#include "writers.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

json_t *gp_json_number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

json_t *gp_json_window(int64_t start_hour, size_t n_hours)
{
    char a[32], z[32];
    gp_format_time(start_hour * 3600, a, sizeof a);
    gp_format_time((start_hour + (int64_t)n_hours) * 3600, z, sizeof z);
    return json_pack("{s:s, s:s, s:I}", "start", a, "end", z, "hours",
                     (json_int_t)n_hours);
}

json_t *gp_json_commitment(const gp_commitment *c)
{
    json_t *o = json_object();
    char start[32];

    if (!o)
        return NULL;
    gp_format_time(c->start, start, sizeof start);
    json_object_set_new(o, "provider", json_string(c->provider));
    json_object_set_new(o, "region", json_string(c->region));
    if (c->type == GP_COMMIT_RESERVED) {
        json_object_set_new(o, "type", json_string("reserved"));
        json_object_set_new(o, "instance_type", json_string(c->instance_type));
        json_object_set_new(o, "count", gp_json_number_or_null(c->count));
    } else {
        json_object_set_new(o, "type", json_string("savings_plan"));
        json_object_set_new(o, "kind",
                            json_string(gp_plan_kind_name(c->kind)));
        if (c->kind == GP_PLAN_FAMILY)
            json_object_set_new(o, "family", json_string(c->family));
        json_object_set_new(o, "hourly_commitment",
                            gp_json_number_or_null(c->hourly_commitment));
    }
    json_object_set_new(o, "term_years", json_integer(c->term_years));
    json_object_set_new(o, "payment",
                        json_string(gp_payment_name(c->payment)));
    json_object_set_new(o, "start", json_string(start));
    return o;
}

/* A commitment and how it was used over the window. */
static json_t *commitment_use_json(const gp_ledger_commitment *lc)
{
    json_t *o = gp_json_commitment(lc->c);
    if (!o)
        return NULL;
    json_object_set_new(o, "cost", gp_json_number_or_null(lc->cost));
    json_object_set_new(o, "utilization",
                        gp_json_number_or_null(lc->purchased > 0
                                                   ? lc->used / lc->purchased
                                                   : NAN));
    return o;
}

/* A ledger's totals, the first keys of its strategy object s. */
static void ledger_totals(json_t *s, const gp_ledger *l)
{
    json_object_set_new(s, "name", json_string(l->strategy));
    json_object_set_new(s, "total_cost", gp_json_number_or_null(l->total_cost));
    json_object_set_new(s, "all_on_demand_cost",
                        gp_json_number_or_null(l->all_on_demand_cost));
    json_object_set_new(s, "savings", gp_json_number_or_null(l->savings));
    json_object_set_new(s, "savings_pct",
                        gp_json_number_or_null(l->savings_pct));
    for (int k = 0; k < GP_N_MODELS; k++)
        json_object_set_new(s, gp_models[k]->cost_key,
                            gp_json_number_or_null(l->cost[k]));
    json_object_set_new(s, "reserved_utilization",
                        gp_json_number_or_null(l->reserved_utilization));
    json_object_set_new(s, "savings_plan_utilization",
                        gp_json_number_or_null(l->savings_plan_utilization));
    json_object_set_new(s, "coverage", gp_json_number_or_null(l->coverage));
    json_object_set_new(s, "useful_gpu_hours",
                        gp_json_number_or_null(l->useful_gpu_hours));
    json_object_set_new(s, "cost_per_useful_gpu_hour",
                        gp_json_number_or_null(l->cost_per_useful_gpu_hour));
}

/* A ledger's months, appended to the array `months`. */
static void ledger_months(json_t *months, const gp_ledger *l)
{
    for (size_t i = 0; i < l->n_months; i++) {
        const gp_ledger_month *m = &l->months[i];
        char name[16];
        snprintf(name, sizeof name, "%04d-%02d", m->year, m->month);
        json_t *o = json_pack("{s:s}", "month", name);
        for (int k = 0; k < GP_N_MODELS; k++)
            json_object_set_new(o, gp_models[k]->cost_key,
                                gp_json_number_or_null(m->cost[k]));
        json_object_set_new(o, "total_cost",
                            gp_json_number_or_null(m->total_cost));
        json_object_set_new(o, "reserved_cash",
                            gp_json_number_or_null(m->reserved_cash));
        json_object_set_new(o, "savings_plan_cash",
                            gp_json_number_or_null(m->savings_plan_cash));
        json_object_set_new(o, "total_cash",
                            gp_json_number_or_null(m->total_cash));
        json_array_append_new(months, o);
    }
}

json_t *gp_json_ledger(const gp_ledger *l, const gp_trace *t)
{
    json_t *s = json_object();
    json_t *by = json_object();
    json_t *months = json_array();
    json_t *commits = json_array();

    if (!s || !by || !months || !commits) {
        json_decref(s);
        json_decref(by);
        json_decref(months);
        json_decref(commits);
        return NULL;
    }
    ledger_totals(s, l);
    for (int w = 0; w < GP_N_WORKLOADS; w++) {
        if (w == GP_UNLABELED && l->workload_instance_hours[w] == 0)
            continue;
        json_object_set_new(
            by, gp_workload_name((gp_workload)w),
            json_pack("{s:o, s:o}", "total_cost",
                      gp_json_number_or_null(l->workload_cost[w]),
                      "instance_hours",
                      gp_json_number_or_null(l->workload_instance_hours[w])));
    }
    json_object_set_new(s, "by_workload", by);
    json_object_set_new(
        s, "spot",
        json_pack(
            "{s:o, s:o, s:o, s:o, s:i, s:I, s:I, s:o}", "interruptions_mean",
            gp_json_number_or_null(l->spot_interruptions_mean),
            "failed_attempt_cost_mean",
            gp_json_number_or_null(l->spot_failed_attempt_cost_mean),
            "cost_p50", gp_json_number_or_null(l->spot_cost_p50), "cost_p95",
            gp_json_number_or_null(l->spot_cost_p95), "runs",
            l->n_jobs > 0 ? l->mc_runs : 0, "seed", (json_int_t)l->mc_seed,
            "job_runs_before_window", (json_int_t)l->spot_runs_before_window,
            "job_runs_before_window_instance_hours",
            gp_json_number_or_null(l->spot_runs_before_window_ih)));
    if (t && (l->n_capacity > 0 || l->capacity_runs_on_demand > 0))
        json_object_set_new(s, "capacity", gp_json_capacity_runs(l, t));
    json_object_set_new(s, "unallocated_cost",
                        gp_json_number_or_null(l->unallocated_cost));
    json_object_set_new(
        s, "idle_terminated_instance_hours",
        gp_json_number_or_null(l->idle_terminated_instance_hours));
    gp_json_levers(s, &l->levers);
    ledger_months(months, l);
    json_object_set_new(s, "months", months);
    for (size_t i = 0; i < l->n_commitments; i++)
        json_array_append_new(commits,
                              commitment_use_json(&l->commitments[i]));
    json_object_set_new(s, "commitments", commits);
    /* only with job runs: a trace without job_id reads as it did */
    if (t && l->n_jobs + l->n_od_jobs > 0)
        json_object_set_new(s, "job_runs", gp_json_job_runs(l, t));
    return s;
}

/* One idle span: where it ran, when, and what it held. */
static json_t *idle_span_json(const gp_idle_span *s, const gp_trace *t)
{
    const gp_series *ser = &t->series[s->series];
    const gp_pool *p = &t->pools[s->pool];
    char label[256], a[32], z[32];

    gp_idle_span_label(t, s, label, sizeof label);
    gp_format_time((int64_t)floor(s->start), a, sizeof a);
    gp_format_time((int64_t)ceil(s->end), z, sizeof z);
    return json_pack(
        "{s:s, s:o, s:s, s:s, s:s, s:s, s:o, s:o, s:s, s:s, s:o, s:o, s:o, "
        "s:o, s:o}",
        "label", label, "job_id",
        s->job >= 0 ? json_string(t->labels[s->job]) : json_null(),
        "provider", p->catalog->provider, "region", p->catalog->region,
        "instance_type", p->type->name, "workload",
        gp_workload_name(ser->workload), "team",
        ser->team >= 0 ? json_string(t->labels[ser->team]) : json_null(),
        "project",
        ser->project >= 0 ? json_string(t->labels[ser->project]) : json_null(),
        "start", a, "end", z, "hours", gp_json_number_or_null(s->hours),
        "mean_util_pct", gp_json_number_or_null(s->mean_util_pct),
        "gpu_hours", gp_json_number_or_null(s->gpu_hours), "instance_hours",
        gp_json_number_or_null(s->instance_hours), "cost",
        gp_json_number_or_null(s->cost));
}

json_t *gp_json_idle(const gp_idle_report *r, const gp_trace *t)
{
    json_t *spans = json_array();
    json_t *o;

    for (size_t i = 0; spans && i < r->n_spans; i++)
        json_array_append_new(spans, idle_span_json(&r->spans[i], t));
    o = json_pack("{s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o}",
                  "threshold_pct", gp_json_number_or_null(r->threshold_pct),
                  "min_hours", gp_json_number_or_null(r->min_hours),
                  "spans_count", (json_int_t)r->n_spans, "hours",
                  gp_json_number_or_null(r->hours), "gpu_hours",
                  gp_json_number_or_null(r->gpu_hours), "instance_hours",
                  gp_json_number_or_null(r->instance_hours), "cost",
                  gp_json_number_or_null(r->cost), "gpu_hours_with_util",
                  gp_json_number_or_null(r->gpu_hours_with_util), "spans",
                  spans ? spans : json_array());
    return o;
}

json_t *gp_json_policy(const gp_policy *p)
{
    json_t *o = json_object();

    if (!o)
        return NULL;
    json_object_set_new(o, "launch", json_string(gp_launch_name(p->launch)));
    /* the checkpoint, restart, interruption and deadline settings do
     * nothing on demand: shown beside an on-demand launch they read as
     * if they were billed */
    if (p->launch == GP_LAUNCH_SPOT) {
        json_object_set_new(o, "checkpoint_interval_h",
                            gp_json_number_or_null(p->checkpoint_interval_h));
        json_object_set_new(o, "checkpoint_cost_h",
                            gp_json_number_or_null(p->checkpoint_cost_h));
        json_object_set_new(o, "restart_overhead_h",
                            gp_json_number_or_null(p->restart_overhead_h));
        json_object_set_new(o, "max_interruptions",
                            json_integer(p->max_interruptions));
        json_object_set_new(o, "deadline_slack_h",
                            p->deadline_slack_h >= 0
                                ? json_real(p->deadline_slack_h)
                                : json_null());
        /* only when set: older outputs stay as they were */
        if (p->deadline_h >= 0)
            json_object_set_new(o, "deadline_h", json_real(p->deadline_h));
        json_object_set_new(o, "fallback",
                            json_string(gp_launch_name(p->fallback)));
    }
    if (p->terminate_idle_h > 0)
        json_object_set_new(o, "terminate_idle_h",
                            json_real(p->terminate_idle_h));
    return o;
}

void gp_policy_describe(const gp_policy *p, char *buf, size_t size)
{
    size_t n;

    if (p->launch == GP_LAUNCH_SPOT) {
        char deadline[64] = "";
        if (p->deadline_slack_h >= 0)
            snprintf(deadline, sizeof deadline,
                     " or when %g h of slack is at risk", p->deadline_slack_h);
        else if (p->deadline_h >= 0)
            snprintf(deadline, sizeof deadline,
                     " or when its %g h deadline is at risk", p->deadline_h);
        snprintf(buf, size,
                 "spot; checkpoint every %g h (cost %g h); restart %g h; at "
                 "most %d interruptions%s, then %s",
                 p->checkpoint_interval_h, p->checkpoint_cost_h,
                 p->restart_overhead_h, p->max_interruptions, deadline,
                 p->fallback == GP_LAUNCH_SPOT ? "spot" : "on demand");
    } else {
        snprintf(buf, size, "on demand");
    }
    n = strlen(buf);
    if (p->terminate_idle_h > 0 && n < size)
        snprintf(buf + n, size - n, "; idle GPUs terminated after %g h",
                 p->terminate_idle_h);
}

json_t *gp_json_inputs(const gp_run_info *info)
{
    json_t *o = json_object();
    json_t *cats = json_array();
    json_t *warn = json_array();
    json_t *files = json_array();
    const gp_trace *t = info->trace;

    for (size_t i = 0; i < info->pricing->n_catalogs; i++) {
        const gp_catalog *c = info->pricing->catalogs[i];
        json_array_append_new(cats, json_pack("{s:s, s:s, s:s, s:s}",
                                              "provider", c->provider,
                                              "region", c->region, "as_of",
                                              c->as_of, "path", c->path));
    }
    /* the usage's own warnings first, as the Summary lists them */
    gp_warnings usage = {NULL, 0, 0};
    gp_usage_warnings(t, info->idle, &usage);
    for (size_t i = 0; i < usage.count; i++)
        json_array_append_new(warn, json_string(usage.items[i]));
    gp_warnings_clear(&usage);
    for (size_t i = 0; i < info->warnings.count; i++) {
        char text[2048];
        gp_run_info_text(info, info->warnings.items[i], text, sizeof text);
        json_array_append_new(warn, json_string(text));
    }
    for (size_t i = 0; i < t->n_sources; i++)
        json_array_append_new(files, json_string(t->sources[i]));
    /* useful GPU-hours are unknown (null), not 0, when no row reported a
     * gpu_util, as in the strategies */
    double util_gpu_hours = gp_trace_util_gpu_hours(t);
    json_object_set_new(o, "version", json_string(GP_VERSION));
    json_object_set_new(o, "catalogs", cats);
    /* the catalogs' currency, which every amount is in */
    json_object_set_new(o, "currency",
                        json_string(gp_pricing_currency(info->pricing)));
    json_object_set_new(o, "scenario",
                        json_string(info->scenario->name
                                        ? info->scenario->name
                                        : "(default)"));
    /* each strategy's policies, baseline first, as the Inputs sheet
     * lists them (a strategy's policy replaces keys of the baseline's) */
    json_t *pols = json_array();
    for (size_t k = 0; pols && k < info->scenario->n_strategies; k++) {
        const gp_strategy *sg = &info->scenario->strategies[k];
        json_array_append_new(
            pols, json_pack("{s:s, s:o, s:o}", "strategy", sg->name, "training",
                            gp_json_policy(&sg->policy[0]), "inference",
                            gp_json_policy(&sg->policy[1])));
    }
    json_object_set_new(o, "policies", pols ? pols : json_array());
    json_object_set_new(o, "bundled_sample", json_boolean(info->used_sample));
    json_object_set_new(
        o, "trace",
        json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}",
                  "files", files, "rows_read", (json_int_t)t->rows_read,
                  "rows_kept", (json_int_t)(t->rows_read - t->rows_rejected),
                  "rows_rejected", (json_int_t)t->rows_rejected, "pools",
                  (json_int_t)t->n_pools,
                  "series", (json_int_t)t->n_series, "job_runs",
                  (json_int_t)t->n_runs, "training_instance_hours",
                  gp_json_number_or_null(t->instance_hours[GP_TRAINING]),
                  "inference_instance_hours",
                  gp_json_number_or_null(t->instance_hours[GP_INFERENCE]),
                  "unlabeled_instance_hours",
                  gp_json_number_or_null(t->instance_hours[GP_UNLABELED]),
                  "useful_gpu_hours",
                  gp_json_number_or_null(
                      util_gpu_hours > 0 ? t->useful_gpu_hours : NAN)));
    json_object_set_new(o, "warnings", warn);
    return o;
}

/* ---- recommend's JSON --------------------------------------------------- */

/* One action as SPEC section 5 names its keys. */
static json_t *action_obj(const gp_action *a)
{
    json_t *o = a->type == GP_ACTION_ROUTING ? json_object()
                                             : gp_json_commitment(&a->c);
    json_object_set_new(o, "rank", json_integer(a->rank));
    json_object_set_new(o, "type",
                        json_string(gp_action_type_name(a->type)));
    if (a->type == GP_ACTION_ROUTING) {
        /* SPEC section 5's keys of every action: a routing action buys
         * nothing, so what describes a purchase is null and its upfront 0 */
        static const char *const none[] = {
            "provider", "region", "instance_type", "term_years", "payment",
            "count", "breakeven_utilization", "expected_utilization",
            "hourly_commitment", "recurring_monthly", "roi",
            "breakeven_months"};
        for (size_t i = 0; i < sizeof none / sizeof none[0]; i++)
            json_object_set_new(o, none[i], json_null());
        json_object_set_new(o, "upfront", json_real(0));
        json_object_set_new(o, "workload", json_string("training"));
        json_object_set_new(o, "launch", json_string("spot"));
        json_object_set_new(o, "interruption_cost",
                            gp_json_number_or_null(a->interruption_cost));
    } else {
        json_object_set_new(o, "upfront", gp_json_number_or_null(a->upfront));
        json_object_set_new(o, "breakeven_utilization",
                            gp_json_number_or_null(a->breakeven_utilization));
        json_object_set_new(o, "expected_utilization",
                            gp_json_number_or_null(a->expected_utilization));
        json_object_set_new(o, "renewal", json_boolean(a->renewal));
        /* a plan's own hourly_commitment (gp_json_commitment's) is the
         * same figure: the amortized $/h of what it buys */
        json_object_set_new(o, "hourly_commitment",
                            gp_json_number_or_null(a->hourly_commitment));
        json_object_set_new(o, "recurring_monthly",
                            gp_json_number_or_null(a->recurring_monthly));
        json_object_set_new(o, "roi", gp_json_number_or_null(a->roi));
        json_object_set_new(o, "breakeven_months",
                            gp_json_number_or_null(a->breakeven_months));
    }
    json_object_set_new(o, "net_savings",
                        gp_json_number_or_null(a->net_savings));
    json_object_set_new(o, "savings_pct",
                        gp_json_number_or_null(a->savings_pct));
    json_object_set_new(o, "downside_net_savings",
                        gp_json_number_or_null(a->downside_net_savings));
    json_object_set_new(o, "reason", json_string(a->reason));
    return o;
}

/* One of the three plans: its figures, risk and commitments. */
static json_t *plan_obj(const gp_plan_result *p)
{
    json_t *o = json_object();
    json_t *c = json_array();
    for (size_t i = 0; i < p->n_commitments; i++)
        json_array_append_new(c, gp_json_commitment(&p->commitments[i]));
    json_object_set_new(o, "name", json_string(p->name));
    json_object_set_new(o, "total_cost", gp_json_number_or_null(p->total_cost));
    json_object_set_new(o, "net_savings",
                        gp_json_number_or_null(p->net_savings));
    json_object_set_new(o, "upfront", gp_json_number_or_null(p->upfront));
    json_object_set_new(o, "downside_net_savings",
                        gp_json_number_or_null(p->downside_net_savings));
    /* the longest term it buys: none (null) when it buys nothing */
    json_object_set_new(o, "max_term_years",
                        p->max_term ? json_integer(p->max_term) : json_null());
    json_object_set_new(o, "training_on_spot",
                        json_boolean(p->route_training_to_spot));
    json_object_set_new(o, "risk", json_string(p->risk));
    json_object_set_new(o, "commitments", c);
    return o;
}

/* Each savings curve, appended to the array `curves`. */
static void curves_json(json_t *curves, const gp_recommendation *r)
{
    for (size_t i = 0; i < r->n_curves; i++) {
        const gp_curve *cv = &r->curves[i];
        json_t *pts = json_array();
        for (size_t j = 0; j < cv->n; j++)
            json_array_append_new(
                pts,
                json_pack("{s:o, s:o}", "level",
                          gp_json_number_or_null(cv->level[j]), "net_savings",
                          gp_json_number_or_null(cv->net_savings[j])));
        json_array_append_new(
            curves,
            json_pack("{s:s, s:s, s:o, s:o}", "instrument", cv->instrument,
                      "unit", cv->unit, "chosen",
                      gp_json_number_or_null(cv->chosen), "points", pts));
    }
}

/* A backtest's figures: bought at train_until, billed over the hours
 * after it. */
static json_t *backtest_json(const gp_recommendation *r)
{
    char cut[32];
    gp_format_time(r->train_until, cut, sizeof cut);
    return json_pack(
        "{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "train_until",
        cut, "test_hours", (json_int_t)r->test_hours, "policy_cost",
        gp_json_number_or_null(r->test_policy_cost), "plan_cost",
        gp_json_number_or_null(r->test_plan_cost), "plan_net_savings",
        gp_json_number_or_null(r->test_plan_net_savings),
        "hindsight_net_savings",
        gp_json_number_or_null(r->test_hindsight_net_savings),
        "captured_fraction", gp_json_number_or_null(r->test_captured_fraction),
        "commitment_net_savings",
        gp_json_number_or_null(r->test_commitment_net_savings),
        "hindsight_commitment_net_savings",
        gp_json_number_or_null(r->test_hindsight_commitment_savings),
        "commitment_captured_fraction",
        gp_json_number_or_null(r->test_commitment_captured_fraction));
}

/* A forward plan's horizon and its net savings at P10, P50 and P90. */
static json_t *forward_json(const gp_recommendation *r)
{
    return json_pack(
        "{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "horizon",
        gp_json_window(r->start_hour, r->n_hours), "p50_net_savings",
        gp_json_number_or_null(r->forward_p50_net_savings),
        "downside_net_savings",
        gp_json_number_or_null(r->forward_downside_net_savings),
        "upside_net_savings",
        gp_json_number_or_null(r->forward_upside_net_savings),
        "upside_policy_cost",
        gp_json_number_or_null(r->forward_upside_policy_cost),
        "p10_instance_hours",
        gp_json_number_or_null(r->forward_instance_hours[0]),
        "p50_instance_hours",
        gp_json_number_or_null(r->forward_instance_hours[1]),
        "p90_instance_hours",
        gp_json_number_or_null(r->forward_instance_hours[2]));
}

json_t *gp_json_recommendation(const gp_recommendation *r,
                               const gp_run_info *info,
                               const gp_classification *classified)
{
    json_t *doc = json_object();
    json_t *actions = json_array();
    json_t *plans = json_array();
    json_t *curves = json_array();
    const gp_plan_result *rec = &r->plans[r->recommended];

    json_object_set_new(doc, "window",
                        gp_json_window(r->start_hour, r->n_hours));
    json_object_set_new(doc, "baseline",
                        json_pack("{s:o, s:o}", "all_on_demand_cost",
                                  gp_json_number_or_null(r->all_on_demand_cost),
                                  "policy_cost",
                                  gp_json_number_or_null(r->policy_cost)));
    for (size_t i = 0; i < r->n_actions; i++)
        json_array_append_new(actions, action_obj(&r->actions[i]));
    if (info->trace)
        gp_json_capacity_actions(actions, r, info->trace);
    json_object_set_new(doc, "actions", actions);
    json_object_set_new(
        doc, "plan",
        json_pack("{s:s, s:o, s:o, s:o}", "name", rec->name, "total_cost",
                  gp_json_number_or_null(rec->total_cost), "net_savings",
                  gp_json_number_or_null(rec->net_savings), "upfront",
                  gp_json_number_or_null(rec->upfront)));
    json_object_set_new(
        doc, "hindsight_optimal",
        json_pack("{s:o, s:o}", "total_cost",
                  gp_json_number_or_null(r->hindsight_cost), "net_savings",
                  gp_json_number_or_null(r->hindsight_net_savings)));
    json_object_set_new(
        doc, "hindsight_optimal_any_term",
        json_pack("{s:o, s:o}", "total_cost",
                  gp_json_number_or_null(r->hindsight_any_term_cost),
                  "net_savings",
                  gp_json_number_or_null(r->hindsight_any_term_net_savings)));
    json_object_set_new(doc, "captured_fraction",
                        gp_json_number_or_null(r->captured_fraction));
    for (int i = 0; i < 3; i++)
        json_array_append_new(plans, plan_obj(&r->plans[i]));
    json_object_set_new(doc, "plans", plans);
    curves_json(curves, r);
    json_object_set_new(doc, "curves", curves);
    if (r->backtest)
        json_object_set_new(doc, "backtest", backtest_json(r));
    if (r->forward)
        json_object_set_new(doc, "forward", forward_json(r));
    json_t *notes = json_array();
    for (size_t i = 0; i < r->notes.count; i++)
        json_array_append_new(notes, json_string(r->notes.items[i]));
    json_object_set_new(doc, "notes", notes);
    json_object_set_new(doc, "inputs", gp_json_inputs(info));
    json_object_set_new(json_object_get(doc, "inputs"), "classified",
                        gp_json_classification(classified, info->trace));
    return doc;
}

/* ---- forecast's JSON ---------------------------------------------------- */

/* The accuracy block of a series' JSON. */
static json_t *accuracy_obj(const gp_forecast_accuracy *a)
{
    json_t *o = json_object();
    json_object_set_new(o, "relative_mae",
                        gp_json_number_or_null(a->relative_mae));
    json_object_set_new(o, "relative_mae_day",
                        gp_json_number_or_null(a->relative_mae_day));
    json_object_set_new(o, "mase", gp_json_number_or_null(a->mase));
    json_object_set_new(o, "mase_season_hours",
                        a->mase_season ? json_integer(a->mase_season)
                                       : json_null());
    json_object_set_new(o, "mape", gp_json_number_or_null(a->mape));
    json_object_set_new(o, "mae", gp_json_number_or_null(a->mae));
    json_object_set_new(o, "coverage", gp_json_number_or_null(a->coverage));
    json_object_set_new(o, "points", json_integer((json_int_t)a->n_points));
    json_object_set_new(o, "origins", json_integer((json_int_t)a->n_origins));
    return o;
}

/* One series as SPEC section 5 names its keys, plus the burst profile,
 * every method's backtest and the hold-out score. */
static json_t *series_obj(const gp_trace *t, const gp_forecast *fc,
                          const gp_forecast_series *s)
{
    json_t *o = json_object(), *pts = json_array(), *methods = json_object();
    const gp_pool *p = &t->pools[s->pool];
    char ts[32];

    json_object_set_new(o, "provider", json_string(p->catalog->provider));
    json_object_set_new(o, "region", json_string(p->catalog->region));
    json_object_set_new(o, "instance_type", json_string(p->type->name));
    json_object_set_new(o, "workload",
                        json_string(gp_workload_name(s->workload)));
    json_object_set_new(o, "method",
                        json_string(gp_forecast_method_name(s->method)));
    if (s->method == GP_FC_LEVEL)
        json_object_set_new(o, "level_window_hours",
                            json_integer(s->level_window));
    json_object_set_new(o, "history_hours",
                        json_integer((json_int_t)s->history_hours));
    json_object_set_new(o, "history_mean",
                        gp_json_number_or_null(s->history_mean));
    json_object_set_new(
        o, "bursts",
        json_pack("{s:b, s:o, s:o, s:o}", "bursty", s->bursty, "duty",
                  gp_json_number_or_null(s->burst_duty), "size_when_active",
                  gp_json_number_or_null(s->burst_size), "mean_run_hours",
                  gp_json_number_or_null(s->burst_hours)));
    json_t *bt = accuracy_obj(&s->backtest);
    json_object_set_new(bt, "interval_scale",
                        gp_json_number_or_null(s->interval_scale));
    json_object_set_new(o, "backtest", bt);
    json_object_set_new(o, "drift_per_month",
                        gp_json_number_or_null(s->drift * GP_HOURS_PER_MONTH));
    for (int m = 0; m < GP_FC_N_METHODS; m++)
        json_object_set_new(methods,
                            gp_forecast_method_name((gp_forecast_method)m),
                            gp_json_number_or_null(s->method_relative_mae[m]));
    json_object_set_new(o, "methods_relative_mae", methods);
    if (s->has_holdout) {
        json_t *h = accuracy_obj(&s->holdout);
        json_object_set_new(h, "naive_168h_mae",
                            gp_json_number_or_null(s->holdout_naive_week_mae));
        json_object_set_new(h, "naive_24h_mae",
                            gp_json_number_or_null(s->holdout_naive_day_mae));
        json_object_set_new(o, "holdout", h);
    }
    for (size_t k = 0; k < fc->n_hours; k++) {
        const gp_forecast_point *pt = &s->points[k];
        gp_format_time(pt->t, ts, sizeof ts);
        json_array_append_new(pts,
                              json_pack("{s:s, s:o, s:o, s:o}", "t", ts, "p10",
                                        gp_json_number_or_null(pt->p10), "p50",
                                        gp_json_number_or_null(pt->p50), "p90",
                                        gp_json_number_or_null(pt->p90)));
    }
    json_object_set_new(o, "points", pts);
    return o;
}

json_t *gp_json_forecast(const gp_forecast *fc, const gp_run_info *info,
                         const gp_classification *classified)
{
    json_t *doc = json_object(), *series = json_array(), *notes = json_array();
    json_object_set_new(doc, "horizon",
                        gp_json_window(fc->start_hour, fc->n_hours));
    json_object_set_new(
        doc, "history",
        gp_json_window(fc->history_start_hour, fc->history_hours));
    for (size_t i = 0; i < fc->n_series; i++)
        json_array_append_new(series,
                              series_obj(info->trace, fc, &fc->series[i]));
    json_object_set_new(doc, "series", series);
    for (size_t i = 0; i < fc->notes.count; i++)
        json_array_append_new(notes, json_string(fc->notes.items[i]));
    json_object_set_new(doc, "notes", notes);
    json_object_set_new(doc, "inputs", gp_json_inputs(info));
    json_t *inputs = json_object_get(doc, "inputs");
    if (inputs)
        json_object_set_new(inputs, "classified",
                            gp_json_classification(classified, info->trace));
    return doc;
}

json_t *gp_json_simulation(gp_ledger *const *ledgers, size_t n,
                           const struct gp_idle_report *idle,
                           const gp_run_info *info,
                           const gp_classification *classified)
{
    json_t *doc = json_object();
    json_t *arr = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(arr, gp_json_ledger(ledgers[i], info->trace));
    json_object_set_new(
        doc, "window",
        gp_json_window(ledgers[0]->start_hour, ledgers[0]->n_hours));
    json_object_set_new(doc, "strategies", arr);
    json_object_set_new(doc, "idle", gp_json_idle(idle, info->trace));
    json_t *inputs = gp_json_inputs(info);
    json_object_set_new(inputs, "classified",
                        gp_json_classification(classified, info->trace));
    json_object_set_new(doc, "inputs", inputs);
    return doc;
}


/* One piece of the streamed forecast document: `prefix` (a key, or a
 * separator), then v compact as gp_json_print writes it; takes v. */
static bool put_piece(FILE *f, const char *prefix, json_t *v)
{
    char *text = v && !gp_json_alloc_failed()
                     ? json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(15) |
                                         JSON_ENCODE_ANY)
                     : NULL;
    json_decref(v);
    bool ok = text && !gp_json_alloc_failed() && fputs(prefix, f) != EOF &&
              fputs(text, f) != EOF;
    gp_free(text);
    return ok;
}

gp_status gp_json_forecast_write(const gp_forecast *fc,
                                 const gp_run_info *info,
                                 const gp_classification *classified, FILE *f,
                                 gp_error *err)
{
    json_t *notes = json_array(), *inputs = gp_json_inputs(info);
    bool ok = put_piece(f, "{\"horizon\":",
                        gp_json_window(fc->start_hour, fc->n_hours)) &&
              put_piece(f, ",\"history\":",
                        gp_json_window(fc->history_start_hour,
                                       fc->history_hours)) &&
              fputs(",\"series\":[", f) != EOF;
    for (size_t i = 0; ok && i < fc->n_series; i++)
        ok = put_piece(f, i ? "," : "",
                       series_obj(info->trace, fc, &fc->series[i]));
    ok = ok && fputc(']', f) != EOF;
    for (size_t i = 0; i < fc->notes.count; i++)
        json_array_append_new(notes, json_string(fc->notes.items[i]));
    ok = ok && put_piece(f, ",\"notes\":", json_incref(notes));
    if (inputs)
        json_object_set_new(inputs, "classified",
                            gp_json_classification(classified, info->trace));
    ok = ok && (!inputs || put_piece(f, ",\"inputs\":", json_incref(inputs)));
    json_decref(notes);
    json_decref(inputs);
    ok = ok && fputs("}\n", f) != EOF && fflush(f) == 0;
    if (ok)
        return GP_OK;
    if (gp_json_alloc_failed()) {
        gp_error_set(err, "", 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    gp_error_set(err, "", 0, 0, NULL, "cannot write: %s", strerror(errno));
    return GP_ERR_IO;
}
