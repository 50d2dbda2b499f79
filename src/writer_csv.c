/*
 * writer_csv.c: the ledger tables as CSV files (simulate's and recommend's
 * CSV tables), written all or none through the caller's gp_file_set.
 * Text fields are quoted by libcsv, and text a spreadsheet would run as a
 * formula starts with an apostrophe; numbers read back to the cent.
 */
#include "budget.h"
#include "forecast.h"
#include "idle.h"
#include "model.h"
#include "policy.h"
#include "recommend.h"
#include "safe_text.h"
#include "util.h"
#include "writers.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

struct tables {
    gp_ledger *const *ledgers;
    size_t n;
    const gp_trace *t;
};

/* One text field, quoted; text from the input that a spreadsheet would
 * run as a formula (a team "=HYPERLINK(...)") gets a leading apostrophe,
 * as OWASP advises for CSV injection, so that it reads as the text. */
static void text(FILE *f, const char *s)
{
    size_t n = strlen(s);

    if (!gp_csv_cell_is_formula(s, n)) {
        csv_fwrite(f, s, n);
        return;
    }
    /* as csv_fwrite writes a field, with the apostrophe inside the quotes */
    fputs("\"'", f);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            fputc('"', f);
        fputc(s[i], f);
    }
    fputc('"', f);
}

/* A name that needs no quotes as it is (an instance type, most likely),
 * else as text() writes it. */
static void name(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") || gp_csv_cell_is_formula(s, strlen(s)))
        text(f, s);
    else
        fputs(s, f);
}

/* ",provider,region,instance_type" of pool p. */
static void pool_fields(FILE *f, const gp_pool *p)
{
    fprintf(f, ",%s,", p->catalog->provider);
    name(f, p->catalog->region);
    fputc(',', f);
    name(f, p->type->name);
}

/* A header's columns of cost by model (",on_demand_cost,..."). */
static void cost_columns(FILE *f)
{
    for (int k = 0; k < GP_N_MODELS; k++)
        fprintf(f, ",%s", gp_models[k]->cost_key);
}

static void num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, ",%.12g", v);
    else
        fputc(',', f);
}

static gp_status write_hourly(FILE *f, void *ctx)
{
    struct tables *tb = ctx;
    fputs("strategy,hour", f);
    cost_columns(f);
    fputs(",total_cost,all_on_demand_cost,coverage,"
          "reserved_used,reserved_purchased,savings_plan_used,"
          "savings_plan_committed,training_instance_hours,"
          "inference_instance_hours,unlabeled_instance_hours\n",
          f);
    for (size_t k = 0; k < tb->n; k++) {
        const gp_ledger *l = tb->ledgers[k];
        for (size_t h = 0; h < l->n_hours; h++) {
            const gp_ledger_hour *r = &l->hours[h];
            char when[32];
            gp_format_time((l->start_hour + (int64_t)h) * 3600, when,
                           sizeof when);
            text(f, l->strategy);
            fprintf(f, ",%s", when);
            for (int m = 0; m < GP_N_MODELS; m++)
                num(f, r->cost[m]);
            num(f, gp_cost_total(r->cost));
            num(f, r->all_on_demand_cost);
            num(f, r->od_equiv_launched > 0
                       ? r->od_equiv_covered / r->od_equiv_launched
                       : 0);
            num(f, r->reserved_used);
            num(f, r->reserved_purchased);
            num(f, r->sp_used);
            num(f, r->sp_committed);
            for (int w = 0; w < GP_N_WORKLOADS; w++)
                num(f, r->instance_hours[w]);
            fputc('\n', f);
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

static gp_status write_monthly(FILE *f, void *ctx)
{
    struct tables *tb = ctx;
    fputs("strategy,month", f);
    cost_columns(f);
    fputs(",total_cost,reserved_cash,savings_plan_cash,total_cash,"
          "reserved_utilization,savings_plan_utilization,coverage\n",
          f);
    for (size_t k = 0; k < tb->n; k++) {
        const gp_ledger *l = tb->ledgers[k];
        for (size_t i = 0; i < l->n_months; i++) {
            const gp_ledger_month *m = &l->months[i];
            text(f, l->strategy);
            fprintf(f, ",%04d-%02d", m->year, m->month);
            for (int j = 0; j < GP_N_MODELS; j++)
                num(f, m->cost[j]);
            num(f, m->total_cost);
            num(f, m->reserved_cash);
            num(f, m->savings_plan_cash);
            num(f, m->total_cash);
            num(f, m->reserved_purchased > 0
                       ? m->reserved_used / m->reserved_purchased
                       : NAN);
            num(f, m->sp_committed > 0 ? m->sp_used / m->sp_committed : NAN);
            num(f, m->od_equiv_launched > 0
                       ? m->od_equiv_covered / m->od_equiv_launched
                       : 0);
            fputc('\n', f);
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

/* A number, or an empty cell when it is below 0 (not given). */
static void given(FILE *f, double v)
{
    if (v >= 0)
        num(f, v);
    else
        fputc(',', f);
}

/* One job run's row of strategy l: spot_jobs.csv's columns, and with
 * `launch` first after the job its launch (job_runs.csv). */
static void job_row(FILE *f, const gp_trace *t, const gp_ledger *l,
                    const gp_ledger_job *j, const char *launch)
{
    const gp_job_run *r = &t->runs[j->run];
    const gp_pool *p = &t->pools[t->series[r->series].pool];
    char a[32], z[32];

    gp_format_time(r->start, a, sizeof a);
    gp_format_time(r->end, z, sizeof z);
    text(f, l->strategy);
    fputc(',', f);
    text(f, t->labels[r->job]);
    if (launch)
        fprintf(f, ",%s", launch);
    pool_fields(f, p);
    fprintf(f, ",%s,%s", a, z);
    num(f, r->instances);
    num(f, r->instance_hours);
    num(f, j->attempts_mean);
    num(f, j->interruptions_mean);
    num(f, j->failed_attempt_cost_mean);
    num(f, j->cost_mean);
    num(f, j->cost_p50);
    num(f, j->cost_p95);
    num(f, j->fallback_share);
    num(f, j->base_cost);
    num(f, j->cost_in_window);
    num(f, j->wait_h_mean);
    num(f, j->fallback_cost_mean);
    given(f, j->deadline_h);
    given(f, j->met_deadline);
    given(f, j->recorded_interruptions);
    fputc('\n', f);
}

/* The columns after strategy,job_id[,launch]. */
#define JOB_COLUMNS                                                            \
    ",provider,region,instance_type,start,end,instances,instance_hours,"       \
    "attempts_mean,interruptions_mean,failed_attempt_cost_mean,"               \
    "cost_per_completed_run,cost_p50,cost_p95,fallback_share,"                 \
    "cost_without_interruptions,cost_in_window,wait_h,fallback_cost,"          \
    "deadline_h,met_deadline,recorded_interruptions\n"

/* spot_jobs.csv: the job runs replayed on spot. */
static gp_status write_jobs(FILE *f, void *ctx)
{
    struct tables *tb = ctx;

    fputs("strategy,job_id" JOB_COLUMNS, f);
    for (size_t k = 0; k < tb->n; k++)
        for (size_t i = 0; i < tb->ledgers[k]->n_jobs; i++)
            job_row(f, tb->t, tb->ledgers[k], &tb->ledgers[k]->jobs[i], NULL);
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

/* job_runs.csv: every job run that starts in the window, on spot or on
 * demand (the true cost of a training run). */
static gp_status write_job_runs(FILE *f, void *ctx)
{
    struct tables *tb = ctx;

    fputs("strategy,job_id,launch" JOB_COLUMNS, f);
    for (size_t k = 0; k < tb->n; k++) {
        const gp_ledger *l = tb->ledgers[k];
        for (size_t i = 0; i < l->n_jobs; i++)
            job_row(f, tb->t, l, &l->jobs[i], "spot");
        for (size_t i = 0; i < l->n_od_jobs; i++)
            job_row(f, tb->t, l, &l->od_jobs[i], "on_demand");
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

static gp_status write_chargeback(FILE *f, void *ctx)
{
    struct tables *tb = ctx;
    const gp_trace *t = tb->t;
    fputs("strategy,team,project,workload,provider,region,instance_type,"
          "cost,instance_hours,useful_gpu_hours,cost_per_useful_gpu_hour\n",
          f);
    for (size_t k = 0; k < tb->n; k++) {
        const gp_ledger *l = tb->ledgers[k];
        for (size_t i = 0; i < l->n_series; i++) {
            const gp_series *s = &t->series[i];
            const gp_ledger_series *ls = &l->series[i];
            const gp_pool *p = &t->pools[s->pool];
            text(f, l->strategy);
            fputc(',', f);
            text(f, s->team >= 0 ? t->labels[s->team] : "");
            fputc(',', f);
            text(f, s->project >= 0 ? t->labels[s->project] : "");
            fprintf(f, ",%s", gp_workload_name(s->workload));
            pool_fields(f, p);
            num(f, ls->cost);
            num(f, ls->instance_hours);
            num(f, gp_ledger_series_useful_gpu_hours(l, i));
            num(f, gp_ledger_series_cost_per_useful_gpu_hour(l, t, i));
            fputc('\n', f);
        }
        if (l->unallocated_cost != 0) {
            text(f, l->strategy);
            fputs(",(unused commitments),,,,,", f);
            num(f, l->unallocated_cost);
            fputs(",0,0,\n", f);
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

/* chargeback_summary.csv: chargeback by team, project and workload (the
 * series summed over pools), unused commitments on a line of their own. */
static gp_status write_chargeback_summary(FILE *f, void *ctx)
{
    struct tables *tb = ctx;
    const gp_trace *t = tb->t;
    fputs("strategy,team,project,workload,cost,instance_hours,"
          "useful_gpu_hours,cost_per_useful_gpu_hour\n",
          f);
    for (size_t k = 0; k < tb->n; k++) {
        const gp_ledger *l = tb->ledgers[k];
        gp_chargeback_row *rows;
        size_t n;
        gp_error err;
        if (gp_ledger_chargeback(l, t, &rows, &n, &err) != GP_OK)
            return GP_ERR_NOMEM;
        for (size_t i = 0; i < n; i++) {
            const gp_chargeback_row *r = &rows[i];
            text(f, l->strategy);
            fputc(',', f);
            text(f, r->team >= 0 ? t->labels[r->team] : "");
            fputc(',', f);
            text(f, r->project >= 0 ? t->labels[r->project] : "");
            fprintf(f, ",%s", gp_workload_name(r->workload));
            num(f, r->cost);
            num(f, r->instance_hours);
            num(f, r->useful_gpu_hours);
            num(f, r->cost_per_useful_gpu_hour);
            fputc('\n', f);
        }
        gp_free(rows);
        if (l->unallocated_cost != 0) {
            text(f, l->strategy);
            fputs(",(unused commitments),,", f);
            num(f, l->unallocated_cost);
            fputs(",0,0,\n", f);
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

static gp_status write_commitments(FILE *f, void *ctx)
{
    struct tables *tb = ctx;
    fputs("strategy,type,provider,region,instance_type_or_kind,count_or_"
          "hourly_commitment,term_years,payment,start,cost,used,purchased,"
          "utilization\n",
          f);
    for (size_t k = 0; k < tb->n; k++) {
        const gp_ledger *l = tb->ledgers[k];
        for (size_t i = 0; i < l->n_commitments; i++) {
            const gp_ledger_commitment *lc = &l->commitments[i];
            const gp_commitment *c = lc->c;
            char start[32];
            gp_format_time(c->start, start, sizeof start);
            text(f, l->strategy);
            if (c->type == GP_COMMIT_RESERVED) {
                fprintf(f, ",reserved,%s,", c->provider);
                name(f, c->region);
                fputc(',', f);
                name(f, c->instance_type);
                fprintf(f, ",%g", c->count);
            } else {
                fprintf(f, ",savings_plan,%s,", c->provider);
                name(f, c->region);
                fprintf(f, ",%s,%g", gp_plan_kind_name(c->kind),
                        c->hourly_commitment);
            }
            fprintf(f, ",%d,%s,%s", c->term_years,
                    gp_payment_name(c->payment), start);
            num(f, lc->cost);
            num(f, lc->used);
            num(f, lc->purchased);
            num(f, lc->purchased > 0 ? lc->used / lc->purchased : NAN);
            fputc('\n', f);
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

/* levers.csv: what each strategy's levers did (levers.h), one row per
 * strategy that pulled any, with the keys of simulate's JSON. */
static gp_status write_levers(FILE *f, void *ctx)
{
    struct tables *tb = ctx;
    fputs("strategy,levers,autoscale_recorded_instance_hours,"
          "autoscale_served_instance_hours,autoscale_assumed_util_hours,"
          "autoscale_hours_without_util,rightsize_moved_instance_hours,"
          "rightsize_new_instance_hours,migrate_moved_instance_hours,"
          "migrate_new_instance_hours,stranded_commitment_cost,"
          "stranded_instance_hours\n",
          f);
    for (size_t k = 0; k < tb->n; k++) {
        const gp_ledger_levers *v = &tb->ledgers[k]->levers;
        if (!v->any)
            continue;
        text(f, tb->ledgers[k]->strategy);
        fputc(',', f);
        text(f, v->what);
        num(f, v->autoscale_recorded_ih);
        num(f, v->autoscale_served_ih);
        num(f, v->autoscale_assumed_hours);
        num(f, v->autoscale_unknown_hours);
        for (int m = 0; m < 2; m++) {
            num(f, v->moved_ih[m]);
            num(f, v->moved_to_ih[m]);
        }
        num(f, v->stranded_commitment_cost);
        num(f, v->stranded_instance_hours);
        fputc('\n', f);
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

/* Adds DIR/name, written by `write`, to the set (creating DIR, which the
 * set removes again if it made it and the set fails). */
static gp_status add_table(gp_file_set *set, const char *dir,
                           const char *name,
                           gp_status (*write)(FILE *, void *), void *ctx,
                           gp_error *err)
{
    char path[4096];
    gp_status st = gp_file_set_mkdir(set, dir, err);

    if (st != GP_OK)
        return st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return gp_file_set_write(set, path, write, ctx, err);
}

gp_status gp_csv_write_ledgers(gp_file_set *set, const char *dir,
                               gp_ledger *const *ledgers, size_t n,
                               const gp_trace *t, gp_error *err)
{
    static const struct {
        const char *name;
        gp_status (*write)(FILE *, void *);
    } files[] = {{"hourly.csv", write_hourly},
                 {"monthly.csv", write_monthly},
                 {"spot_jobs.csv", write_jobs},
                 {"job_runs.csv", write_job_runs},
                 {"chargeback.csv", write_chargeback},
                 {"chargeback_summary.csv", write_chargeback_summary},
                 {"commitments.csv", write_commitments}};
    struct tables tb = {ledgers, n, t};
    gp_status st = GP_OK;

    for (size_t i = 0; st == GP_OK && i < sizeof files / sizeof files[0];
         i++)
        st = add_table(set, dir, files[i].name, files[i].write, &tb, err);
    bool levers = false;
    for (size_t i = 0; i < n; i++)
        levers |= ledgers[i]->levers.any;
    if (st == GP_OK && levers)
        st = add_table(set, dir, "levers.csv", write_levers, &tb, err);
    return st;
}

/* ---- recommend's CSV tables --------------------------------------------- */

/* recommendations.csv: the ranked actions, with the keys of recommend's JSON.
 */
static gp_status write_recommendations(FILE *f, void *ctx)
{
    const gp_recommendation *r = ctx;
    fputs("rank,type,provider,region,instance_type,kind,family,count,"
          "hourly_commitment,term_years,payment,upfront,net_savings,"
          "savings_pct,breakeven_utilization,expected_utilization,"
          "downside_net_savings,renewal,reason\n",
          f);
    for (size_t i = 0; i < r->n_actions; i++) {
        const gp_action *a = &r->actions[i];
        const gp_commitment *c = &a->c;
        fprintf(f, "%d,%s", a->rank, gp_action_type_name(a->type));
        if (a->type == GP_ACTION_ROUTING) {
            fputs(",,,,,,,,,", f); /* provider .. payment */
            num(f, 0);
        } else {
            bool ri = c->type == GP_COMMIT_RESERVED;
            fprintf(f, ",%s,", c->provider);
            name(f, c->region);
            fputc(',', f);
            name(f, ri ? c->instance_type : "");
            fprintf(f, ",%s,", ri ? "" : gp_plan_kind_name(c->kind));
            name(f, !ri && c->kind == GP_PLAN_FAMILY ? c->family : "");
            num(f, ri ? c->count : NAN);
            num(f, ri ? NAN : c->hourly_commitment);
            fprintf(f, ",%d,%s", c->term_years, gp_payment_name(c->payment));
            num(f, a->upfront);
        }
        num(f, a->net_savings);
        num(f, a->savings_pct);
        num(f, a->type == GP_ACTION_ROUTING ? NAN : a->breakeven_utilization);
        num(f, a->type == GP_ACTION_ROUTING ? NAN : a->expected_utilization);
        num(f, a->downside_net_savings);
        fprintf(f, ",%s,", a->renewal ? "true" : "false");
        text(f, a->reason);
        fputc('\n', f);
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

/* plans.csv: the three plans side by side, one row each. */
static gp_status write_plans(FILE *f, void *ctx)
{
    const gp_recommendation *r = ctx;
    fputs("name,recommended,total_cost,net_savings,downside_net_savings,"
          "upfront,annual_commitment_cost,max_term_years,training_on_spot,"
          "commitments,risk\n",
          f);
    for (size_t i = 0; i < 3; i++) {
        const gp_plan_result *p = &r->plans[i];
        fprintf(f, "%s,%s", p->name, i == r->recommended ? "true" : "false");
        num(f, p->total_cost);
        num(f, p->net_savings);
        num(f, p->downside_net_savings);
        num(f, p->upfront);
        num(f, p->annual_cost);
        num(f, p->max_term ? p->max_term : NAN); /* blank: buys nothing */
        fprintf(f, ",%s,%zu,", p->route_training_to_spot ? "true" : "false",
                p->n_commitments);
        text(f, p->risk);
        fputc('\n', f);
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

/* curves.csv: net savings of each instrument at levels around its own. */
static gp_status write_curves(FILE *f, void *ctx)
{
    const gp_recommendation *r = ctx;
    fputs("instrument,unit,level,net_savings,chosen\n", f);
    for (size_t i = 0; i < r->n_curves; i++) {
        const gp_curve *cv = &r->curves[i];
        for (size_t j = 0; j < cv->n; j++) {
            text(f, cv->instrument);
            fprintf(f, ",%s", cv->unit);
            num(f, cv->level[j]);
            num(f, cv->net_savings[j]);
            fprintf(f, ",%s\n",
                    fabs(cv->level[j] - cv->chosen) < 1e-9 ? "true"
                                                            : "false");
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

gp_status gp_csv_write_recommendation(gp_file_set *set, const char *dir,
                                      const gp_recommendation *rec,
                                      gp_error *err)
{
    static const struct {
        const char *name;
        gp_status (*write)(FILE *, void *);
    } files[] = {{"recommendations.csv", write_recommendations},
                 {"plans.csv", write_plans},
                 {"curves.csv", write_curves}};
    gp_status st = GP_OK;

    for (size_t i = 0; st == GP_OK && i < sizeof files / sizeof files[0];
         i++)
        st = add_table(set, dir, files[i].name, files[i].write,
                       (void *)(uintptr_t)rec, err);
    return st;
}

/* ---- idle GPUs: simulate's idle.csv ------------------------------------- */

struct idle_table {
    const gp_idle_report *r;
    const gp_trace *t;
};

/* idle.csv: one row per idle span, the keys of the JSON "idle" spans;
 * the header alone without a report. */
static gp_status write_idle(FILE *f, void *ctx)
{
    const struct idle_table *it = ctx;
    const gp_trace *t = it->t;

    fputs("label,job_id,provider,region,instance_type,workload,team,project,"
          "start,end,hours,mean_util_pct,gpu_hours,instance_hours,cost\n",
          f);
    for (size_t i = 0; it->r && i < it->r->n_spans; i++) {
        const gp_idle_span *s = &it->r->spans[i];
        const gp_series *ser = &t->series[s->series];
        const gp_pool *p = &t->pools[s->pool];
        char label[256], a[32], z[32];
        gp_idle_span_label(t, s, label, sizeof label);
        gp_format_time((int64_t)floor(s->start), a, sizeof a);
        gp_format_time((int64_t)ceil(s->end), z, sizeof z);
        text(f, label);
        fputc(',', f);
        text(f, s->job >= 0 ? t->labels[s->job] : "");
        pool_fields(f, p);
        fprintf(f, ",%s,", gp_workload_name(ser->workload));
        text(f, ser->team >= 0 ? t->labels[ser->team] : "");
        fputc(',', f);
        text(f, ser->project >= 0 ? t->labels[ser->project] : "");
        fprintf(f, ",%s,%s", a, z);
        num(f, s->hours);
        num(f, s->mean_util_pct);
        num(f, s->gpu_hours);
        num(f, s->instance_hours);
        num(f, s->cost);
        fputc('\n', f);
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

gp_status gp_csv_write_idle(gp_file_set *set, const char *dir,
                            const gp_idle_report *r, const gp_trace *t,
                            gp_error *err)
{
    struct idle_table it = {r, t};
    return add_table(set, dir, "idle.csv", write_idle, &it, err);
}

/* forecast.csv's table: the forecast, and the trace that names its pools. */
struct forecast_table {
    const gp_forecast *fc;
    const gp_trace *trace;
};

/* DIR/forecast.csv: one row per series and hour. */
static gp_status write_points(FILE *f, void *arg)
{
    const struct forecast_table *ctx = arg;
    char ts[32];
    fprintf(f, "provider,region,instance_type,workload,method,t,p10,p50,"
               "p90\n");
    for (size_t i = 0; i < ctx->fc->n_series; i++) {
        const gp_forecast_series *s = &ctx->fc->series[i];
        const gp_pool *p = &ctx->trace->pools[s->pool];
        for (size_t k = 0; k < ctx->fc->n_hours; k++) {
            gp_format_time(s->points[k].t, ts, sizeof ts);
            fprintf(f, "%s,", p->catalog->provider);
            name(f, p->catalog->region);
            fputc(',', f);
            name(f, p->type->name);
            fprintf(f, ",%s,%s,%s", gp_workload_name(s->workload),
                    gp_forecast_method_name(s->method), ts);
            num(f, s->points[k].p10);
            num(f, s->points[k].p50);
            num(f, s->points[k].p90);
            fputc('\n', f);
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

gp_status gp_csv_write_forecast(gp_file_set *set, const char *dir,
                                const gp_forecast *fc, const gp_trace *t,
                                gp_error *err)
{
    struct forecast_table ft = {fc, t};
    return add_table(set, dir, "forecast.csv", write_points, &ft, err);
}

/* DIR/policies.csv: each replayed purchase policy month by month, then a
 * row for its whole window (month "all"). */
struct policy_table {
    const gp_policy_result *r;
    size_t n;
};

static gp_status write_policies(FILE *f, void *ctx)
{
    const struct policy_table *pt = ctx;

    fputs("policy,kind,month,total_cost,esr,coverage,upfront,"
          "commitment_utilization,unused_commitment_cost,lock_in_cost,"
          "lock_in_months\n",
          f);
    for (size_t i = 0; i < pt->n; i++) {
        const gp_policy_result *r = &pt->r[i];
        for (size_t k = 0; k <= r->n_months; k++) {
            text(f, r->policy->name);
            fprintf(f, ",%s,", gp_purchase_kind_name(r->policy->kind));
            if (k < r->n_months) {
                const gp_policy_month *m = &r->months[k];
                fprintf(f, "%04d-%02d", m->year, m->month);
                num(f, m->total_cost);
                num(f, m->esr);
                num(f, m->coverage);
                num(f, m->upfront);
                fputs(",,,,\n", f);
                continue;
            }
            double up = 0;
            for (size_t j = 0; j < r->n_months; j++)
                up += r->months[j].upfront;
            fputs("all", f);
            num(f, r->total_cost);
            num(f, r->esr);
            num(f, r->coverage);
            num(f, up);
            num(f, r->commitment_utilization);
            num(f, r->unused_commitment_cost);
            num(f, r->lock_in_cost);
            num(f, r->lock_in_months);
            fputc('\n', f);
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

gp_status gp_csv_write_policies(gp_file_set *set, const char *dir,
                                const gp_policy_result *r, size_t n,
                                gp_error *err)
{
    struct policy_table pt = {r, n};
    return add_table(set, dir, "policies.csv", write_policies, &pt, err);
}

/* DIR/budgets.csv: a row per strategy, budget and month. */
struct budget_table {
    gp_ledger *const *ledgers;
    const gp_budget_report *r;
    size_t n;
    const gp_scenario *s;
};

static gp_status write_budgets(FILE *f, void *ctx)
{
    const struct budget_table *bt = ctx;

    fputs("strategy,team,project,month,budget,spent,over,"
          "forecast_crosses_in\n",
          f);
    for (size_t i = 0; i < bt->n; i++) {
        const gp_budget_report *r = &bt->r[i];
        for (size_t k = 0; k < r->n_months; k++) {
            const gp_budget_month *m = &r->months[k];
            const gp_budget *b = &bt->s->budgets[m->budget];
            text(f, bt->ledgers[i]->strategy);
            fputc(',', f);
            if (!b->by_project)
                text(f, b->name);
            fputc(',', f);
            if (b->by_project)
                text(f, b->name);
            fprintf(f, ",%04d-%02d", m->year, m->month);
            num(f, m->budget_amount);
            num(f, m->spent);
            fprintf(f, ",%s,", m->over ? "true" : "false");
            if (m->budget < r->n_crossings && r->crossings[m->budget].year)
                fprintf(f, "%04d-%02d", r->crossings[m->budget].year,
                        r->crossings[m->budget].month);
            fputc('\n', f);
        }
    }
    return ferror(f) ? GP_ERR_IO : GP_OK;
}

gp_status gp_csv_write_budgets(gp_file_set *set, const char *dir,
                               gp_ledger *const *ledgers,
                               const gp_budget_report *reports, size_t n,
                               const gp_scenario *s, gp_error *err)
{
    struct budget_table bt = {ledgers, reports, n, s};
    return add_table(set, dir, "budgets.csv", write_budgets, &bt, err);
}
