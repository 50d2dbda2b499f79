/*
 * writer_json.c: ledgers and inputs as JSON documents (SPEC section 5).
 * Keys named in the SPEC keep their names; extra keys (months,
 * commitments, inputs) follow them.
 */
#include "classify.h"
#include "idle.h"
#include "util.h"
#include "writers.h"

#include <math.h>
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

json_t *gp_json_ledger(const gp_ledger *l, const gp_trace *t)
{
    json_t *s = json_object();
    json_t *by = json_object();
    json_t *months = json_array();
    json_t *commits = json_array();
    (void)t;

    if (!s || !by || !months || !commits) {
        json_decref(s);
        json_decref(by);
        json_decref(months);
        json_decref(commits);
        return NULL;
    }
    json_object_set_new(s, "name", json_string(l->strategy));
    json_object_set_new(s, "total_cost", gp_json_number_or_null(l->total_cost));
    json_object_set_new(s, "all_on_demand_cost",
                        gp_json_number_or_null(l->all_on_demand_cost));
    json_object_set_new(s, "savings", gp_json_number_or_null(l->savings));
    json_object_set_new(s, "savings_pct", gp_json_number_or_null(l->savings_pct));
    json_object_set_new(s, "on_demand_cost", gp_json_number_or_null(l->on_demand_cost));
    json_object_set_new(s, "reserved_cost", gp_json_number_or_null(l->reserved_cost));
    json_object_set_new(s, "savings_plan_cost",
                        gp_json_number_or_null(l->savings_plan_cost));
    json_object_set_new(s, "spot_cost", gp_json_number_or_null(l->spot_cost));
    json_object_set_new(s, "reserved_utilization",
                        gp_json_number_or_null(l->reserved_utilization));
    json_object_set_new(s, "savings_plan_utilization",
                        gp_json_number_or_null(l->savings_plan_utilization));
    json_object_set_new(s, "coverage", gp_json_number_or_null(l->coverage));
    json_object_set_new(s, "useful_gpu_hours",
                        gp_json_number_or_null(l->useful_gpu_hours));
    json_object_set_new(s, "cost_per_useful_gpu_hour",
                        gp_json_number_or_null(l->cost_per_useful_gpu_hour));
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
    json_object_set_new(s, "unallocated_cost", gp_json_number_or_null(l->unallocated_cost));
    json_object_set_new(s, "idle_terminated_instance_hours",
                        gp_json_number_or_null(l->idle_terminated_instance_hours));
    for (size_t i = 0; i < l->n_months; i++) {
        const gp_ledger_month *m = &l->months[i];
        char name[16];
        snprintf(name, sizeof name, "%04d-%02d", m->year, m->month);
        json_array_append_new(
            months,
            json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "month",
                      name, "on_demand_cost",
                      gp_json_number_or_null(m->on_demand_cost),
                      "reserved_cost", gp_json_number_or_null(m->reserved_cost),
                      "savings_plan_cost",
                      gp_json_number_or_null(m->savings_plan_cost),
                      "spot_cost", gp_json_number_or_null(m->spot_cost),
                      "total_cost", gp_json_number_or_null(m->total_cost),
                      "reserved_cash", gp_json_number_or_null(m->reserved_cash),
                      "savings_plan_cash",
                      gp_json_number_or_null(m->savings_plan_cash),
                      "total_cash", gp_json_number_or_null(m->total_cash)));
    }
    json_object_set_new(s, "months", months);
    for (size_t i = 0; i < l->n_commitments; i++)
        json_array_append_new(commits,
                              commitment_use_json(&l->commitments[i]));
    json_object_set_new(s, "commitments", commits);
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

void gp_usage_warnings(const gp_trace *t, const gp_idle_report *idle,
                       gp_warnings *w)
{
    /* simulate, recommend and forecast classify every unlabelled series
     * first (gp_classify_trace), so from the CLI none is left; a caller
     * that bills a trace as loaded gets this.  Such usage follows the
     * inference policy (gp_policy_of), which sends it to spot when it
     * launches spot and the rows said interruptible=true (gp_route_of) */
    if (t->instance_hours[GP_UNLABELED] > 0) {
        char hours[32];
        gp_format_small(t->instance_hours[GP_UNLABELED], "0", hours,
                        sizeof hours);
        gp_warnings_add(w,
                        "%s instance-hours had no workload label and were "
                        "billed by the inference policy (on demand unless "
                        "it launches spot and their rows say "
                        "interruptible=true)",
                        hours);
    }
    if (idle && idle->n_spans > 0) {
        char money[32];
        gp_format_money(idle->cost, money, sizeof money);
        gp_warnings_add(
            w,
            "%zu idle %s: %.1f GPU-hours below %g%% "
            "utilization for %g hours or more, %s at on-demand "
            "rates (see Idle)",
            idle->n_spans, gp_plural(idle->n_spans, "span", "spans"),
            idle->gpu_hours, idle->threshold_pct, idle->min_hours, money);
    }
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
    for (size_t i = 0; i < info->warnings.count; i++)
        json_array_append_new(warn, json_string(info->warnings.items[i]));
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
        json_pack("{s:o, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "files",
                  files, "rows_read", (json_int_t)t->rows_read, "rows_rejected",
                  (json_int_t)t->rows_rejected, "pools", (json_int_t)t->n_pools,
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

void gp_spot_estimate_warn(gp_warnings *w, const gp_trace *t,
                           const gp_strategy *sg, const double *hours)
{
    for (size_t p = 0; p < t->n_pools; p++) {
        if (!t->pools[p].type->spot.estimate)
            continue;
        for (size_t i = 0; i < t->n_series; i++)
            if (t->series[i].pool == p && hours[i] > 0 &&
                gp_route_of(t, sg, &t->series[i]) == GP_ROUTE_SPOT) {
                gp_warnings_add(w,
                                "the spot price or interruption rate of %s "
                                "is an estimate",
                                t->pools[p].type->name);
                break;
            }
    }
}

/* Says which estimated numbers a run's ledgers rest on. */
void gp_run_info_warn(gp_run_info *info, gp_ledger *const *ledgers,
                      size_t n)
{
    const gp_trace *t = info->trace;

    for (size_t k = 0; k < n; k++) {
        const gp_ledger *l = ledgers[k];
        for (size_t i = 0; i < l->n_commitments; i++) {
            const gp_commitment *c = l->commitments[i].c;
            if (c->type == GP_COMMIT_RESERVED) {
                const gp_reserved_offer *o =
                    gp_reserved_offer_of(info->pricing, c, NULL);
                if (o && o->estimate)
                    gp_warnings_add(&info->warnings,
                                    "the %d-year %s reservation rate of "
                                    "%s is an estimate, not a list price",
                                    c->term_years, gp_payment_name(c->payment),
                                    c->instance_type);
            } else {
                /* the rates of the pools the plan covers (a family plan's
                 * family in its region), as models/savings_plan.c bills */
                for (size_t p = 0; p < t->n_pools; p++) {
                    const gp_plan_offer *o = gp_plan_offer_of(
                        c, t->pools[p].catalog, t->pools[p].type);
                    if (o && o->estimate)
                        gp_warnings_add(
                            &info->warnings,
                            "the %d-year %s %s savings-plan rate of %s "
                            "is an estimate, not a list price",
                            c->term_years, gp_payment_name(c->payment),
                            gp_plan_kind_name(c->kind), t->pools[p].type->name);
                }
            }
        }
        /* a spot launch covers interruptible usage of types with a spot
         * offer only (gp_route_of); say when it left usage on demand,
         * by policy (unlabelled usage follows inference's) and reason */
        const gp_strategy *sg = &info->scenario->strategies[k];
        double left[2][2] = {{0, 0}, {0, 0}};
        for (size_t i = 0; i < t->n_series; i++) {
            const gp_series *ser = &t->series[i];
            gp_launch_route r = gp_route_of(t, sg, ser);
            if (r != GP_ROUTE_NOT_INTERRUPTIBLE && r != GP_ROUTE_NO_SPOT_PRICE)
                continue;
            /* the series' instance-hours billed in the window */
            left[gp_policy_of(sg, ser) - sg->policy]
                [r == GP_ROUTE_NO_SPOT_PRICE] += l->series[i].instance_hours;
        }
        static const char *const why[2] = {
            "not interruptible (interruptible=false, the default for "
            "inference and unlabelled rows)",
            "on types with no spot price in the catalogs"};
        static const char *const why_one[2] = {
            "not interruptible (interruptible=false, the default for "
            "inference and unlabelled rows)",
            "on a type with no spot price in the catalogs"};
        for (int w = 0; w < 2; w++)
            for (int r = 0; r < 2; r++)
                if (left[w][r] > 0) {
                    /* to the hundredth without trailing zeros ("0.25",
                     * "12.5", "3"), two significant digits under 0.005
                     * ("0.0042"): a quarter-hour step left on demand is
                     * not "0 of its instance-hours" */
                    char hrs[32];
                    gp_format_trimmed(left[w][r], 2, hrs, sizeof hrs);
                    if (strcmp(hrs, "0") == 0)
                        snprintf(hrs, sizeof hrs, "%.2g", left[w][r]);
                    bool one = strcmp(hrs, "1") == 0;
                    gp_warnings_add(&info->warnings,
                                    "strategy \"%s\" launches %s on spot, "
                                    "but %s of its instance-hours in the "
                                    "window %s %s and stay%s on demand",
                                    sg->name, gp_workload_name((gp_workload)w),
                                    hrs, one ? "is" : "are",
                                    one ? why_one[r] : why[r], one ? "s" : "");
                }
        if (l->spot_cost > 0) {
            /* the types it launched on spot, not every type of the trace */
            double *hours = gp_calloc(t->n_series + 1, sizeof *hours);
            for (size_t i = 0; hours && i < t->n_series; i++)
                hours[i] = l->series[i].instance_hours;
            if (hours)
                gp_spot_estimate_warn(&info->warnings, t, sg, hours);
            else
                gp_warnings_lost(&info->warnings);
            gp_free(hours);
            /* a price history that starts after the window does: its
             * first price stands in for the hours before it */
            for (size_t i = 0; i < t->n_series; i++) {
                const gp_series *ser = &t->series[i];
                const gp_spot_offer *so = &t->pools[ser->pool].type->spot;
                int64_t ws = l->start_hour * 3600;
                char a[32], b[32];
                if (so->n_history == 0 || so->history[0].t <= ws ||
                    l->series[i].instance_hours <= 0 ||
                    gp_route_of(t, sg, ser) != GP_ROUTE_SPOT)
                    continue;
                gp_format_time(so->history[0].t, a, sizeof a);
                gp_format_time(ws, b, sizeof b);
                gp_warnings_add(&info->warnings,
                                "the spot price history of %s starts at %s, "
                                "after the window (from %s): spot hours "
                                "before it are priced at its first price, "
                                "%s%.4f/h",
                                t->pools[ser->pool].type->name, a, b,
                                gp_money_prefix(), so->history[0].hourly);
            }
        }
    }
}

/* The "classified" JSON block: totals, then the decided series. */
json_t *gp_json_classification(const struct gp_classification *c,
                               const gp_trace *t)
{
    json_t *o = json_object();
    json_t *arr = json_array();

    json_object_set_new(
        o, "series",
        json_integer((json_int_t)(c->n_decided[0] + c->n_decided[1])));
    json_object_set_new(o, "relabel", json_boolean(c->relabel));
    json_object_set_new(o, "training",
                        json_pack("{s:I, s:o}", "series",
                                  (json_int_t)c->n_decided[0], "instance_hours",
                                  gp_json_number_or_null(c->decided_hours[0])));
    json_object_set_new(o, "inference",
                        json_pack("{s:I, s:o}", "series",
                                  (json_int_t)c->n_decided[1], "instance_hours",
                                  gp_json_number_or_null(c->decided_hours[1])));
    json_object_set_new(o, "changed", json_integer((json_int_t)c->n_changed));
    json_object_set_new(o, "short_series",
                        json_integer((json_int_t)c->n_short));
    for (size_t s = 0; s < c->n_series; s++) {
        const gp_series_class *v = &c->series[s];
        if (!v->decided)
            continue;
        const gp_pool *p = &t->pools[v->pool];
        json_t *f = json_object();
        json_object_set_new(f, "span_hours",
                            gp_json_number_or_null(v->f.span_hours));
        json_object_set_new(f, "duty_cycle",
                            gp_json_number_or_null(v->f.duty_cycle));
        json_object_set_new(f, "cv", gp_json_number_or_null(v->f.cv));
        json_object_set_new(f, "roughness",
                            gp_json_number_or_null(v->f.roughness));
        json_object_set_new(f, "skewness",
                            gp_json_number_or_null(v->f.skewness));
        json_object_set_new(f, "trough", gp_json_number_or_null(v->f.trough));
        json_object_set_new(f, "acf_daily",
                            gp_json_number_or_null(v->f.acf_daily));
        json_object_set_new(f, "acf_half_day",
                            gp_json_number_or_null(v->f.acf_half_day));
        json_object_set_new(f, "acf_weekly",
                            gp_json_number_or_null(v->f.acf_weekly));
        json_object_set_new(f, "daily_strength",
                            gp_json_number_or_null(v->f.daily_strength));
        json_object_set_new(f, "mean_on_run_hours",
                            gp_json_number_or_null(v->f.mean_on_run_h));
        json_object_set_new(f, "mean_gpu_util",
                            gp_json_number_or_null(v->f.mean_util));
        json_object_set_new(f, "job_runs",
                            json_integer((json_int_t)v->f.n_runs));
        json_object_set_new(f, "median_job_run_hours",
                            gp_json_number_or_null(v->f.median_run_h));
        json_array_append_new(
            arr,
            json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:s, s:s, s:o, s:b, s:o, "
                      "s:o, s:o}",
                      "provider", p->catalog->provider, "region",
                      p->catalog->region, "instance_type", p->type->name,
                      "team", v->team >= 0 ? t->labels[v->team] : NULL,
                      "project", v->project >= 0 ? t->labels[v->project] : NULL,
                      "loaded", gp_workload_name(v->loaded), "workload",
                      gp_workload_name(v->label), "confidence",
                      gp_json_number_or_null(v->confidence), "short_series",
                      v->short_series, "score",
                      gp_json_number_or_null(v->score), "instance_hours",
                      gp_json_number_or_null(v->f.instance_hours), "features",
                      f));
    }
    json_object_set_new(o, "decided", arr);
    return o;
}
