/*
 * cmd_simulate.c: `gpuplan simulate` replays the trace under the baseline
 * and every scenario strategy, side by side, and prints a summary table
 * (stdout), the SPEC section 5 JSON (--json), or the ledger tables as CSV
 * files (--csv DIR).
 */
#include "budget.h"
#include "classify.h"
#include "cli.h"
#include "engine.h"
#include "forecast.h"
#include "idle.h"
#include "import.h"
#include "levers.h"
#include "model.h"
#include "policy.h"
#include "progress.h"
#include "report.h"
#include "util.h"
#include "writers.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void pct(char *buf, size_t size, double v)
{
    /* what rounds to zero has no sign ("-0.0%" for -2e-16) */
    if (isfinite(v))
        snprintf(buf, size, "%.1f%%", fabs(100 * v) < 0.05 ? 0 : 100 * v);
    else
        snprintf(buf, size, "-");
}

/* The strategy column's width: 16, or the longest strategy name, so that
 * the numbers stay under their headers. */
static int name_width(gp_ledger *const *l, size_t n)
{
    int w = 16;
    for (size_t i = 0; i < n; i++)
        if ((int)strlen(l[i]->strategy) > w)
            w = (int)strlen(l[i]->strategy);
    return w;
}

/* The columns of cost by model: the models' names, or the costs of l;
 * capacity only when a strategy launched runs on it (`capacity`). */
static void model_columns(const gp_ledger *l, bool capacity)
{
    char money[32];
    for (int k = 0; k < GP_N_MODELS; k++) {
        if (k == GP_MODEL_CAPACITY && !capacity)
            continue;
        if (l)
            gp_format_money(l->cost[k], money, sizeof money);
        printf(" %15s", l ? money : gp_models[k]->label);
    }
}

/* The terminal's first table: the window, then one row per strategy. */
static void print_strategies(const gp_inputs *in, gp_ledger *const *l,
                             size_t n)
{
    char a[32], z[32], m[9][32];
    const gp_trace *t = in->trace;

    gp_format_time(l[0]->start_hour * 3600, a, sizeof a);
    gp_format_time((l[0]->start_hour + (int64_t)l[0]->n_hours) * 3600, z,
                   sizeof z);
    char rows[80];
    gp_cli_rows_text(t, rows, sizeof rows);
    printf("gpuplan simulate: %s to %s (%zu hour%s), %zu pool%s, %s%s\n", a,
           z, l[0]->n_hours, gp_plural(l[0]->n_hours, "", "s"), t->n_pools,
           gp_plural(t->n_pools, "", "s"), rows,
           in->used_sample ? " (bundled sample)" : "");
    char per_gpu_hour[32];
    snprintf(per_gpu_hour, sizeof per_gpu_hour, "%s/useful GPU-h",
             gp_money_unit());
    /* "$/useful GPU-h" fits 12 columns; "EUR/useful GPU-h" widens it */
    int w = (int)strlen(per_gpu_hour) > 14 ? (int)strlen(per_gpu_hour) : 12;
    int nw = name_width(l, n);
    printf("\n%-*s %15s %15s %15s %8s %7s %7s %8s %*s\n", nw, "strategy",
           "total cost", "all on-demand", "savings", "savings", "RI use",
           "SP use", "coverage", w, per_gpu_hour);
    for (size_t i = 0; i < n; i++) {
        gp_format_money(l[i]->total_cost, m[0], sizeof m[0]);
        gp_format_money(l[i]->all_on_demand_cost, m[1], sizeof m[1]);
        gp_format_money(l[i]->savings, m[2], sizeof m[2]);
        pct(m[3], sizeof m[3], l[i]->savings_pct);
        pct(m[4], sizeof m[4], l[i]->reserved_utilization);
        pct(m[5], sizeof m[5], l[i]->savings_plan_utilization);
        pct(m[6], sizeof m[6], l[i]->coverage);
        if (isfinite(l[i]->cost_per_useful_gpu_hour))
            gp_format_money(l[i]->cost_per_useful_gpu_hour, m[7],
                            sizeof m[7]);
        else
            snprintf(m[7], sizeof m[7], "-");
        printf("%-*s %15s %15s %15s %8s %7s %7s %8s %*s\n", nw,
               l[i]->strategy, m[0], m[1], m[2], m[3], m[4], m[5], m[6], w,
               m[7]);
    }
}

/* Cost by model, by workload and unused commitments, per strategy:
 * training, inference, unlabelled usage (when any) and commitments that
 * covered nothing (when any: unallocated_cost, the JSON's, the CSV's and
 * the workbook's "unused commitments") add up to the total, as the
 * purchase models do. */
static void print_parts(gp_ledger *const *l, size_t n)
{
    char m[9][32];
    bool unlabeled = false, unused = false, capacity = false;
    for (size_t i = 0; i < n; i++) {
        unlabeled |= l[i]->workload_cost[GP_UNLABELED] != 0;
        unused |= l[i]->unallocated_cost != 0;
        capacity |= l[i]->n_capacity > 0 || l[i]->capacity_runs_on_demand > 0;
    }
    int nw = name_width(l, n);
    printf("\n%-*s", nw, "cost by model");
    model_columns(NULL, capacity);
    printf(" %15s %15s", "training", "inference");
    if (unlabeled)
        printf(" %15s", gp_workload_name(GP_UNLABELED));
    if (unused)
        printf(" %18s", "unused commitments");
    putchar('\n');
    for (size_t i = 0; i < n; i++) {
        printf("%-*s", nw, l[i]->strategy);
        model_columns(l[i], capacity);
        gp_format_money(l[i]->workload_cost[GP_TRAINING], m[4], sizeof m[4]);
        gp_format_money(l[i]->workload_cost[GP_INFERENCE], m[5], sizeof m[5]);
        gp_format_money(l[i]->workload_cost[GP_UNLABELED], m[6], sizeof m[6]);
        gp_format_money(l[i]->unallocated_cost, m[7], sizeof m[7]);
        printf(" %15s %15s", m[4], m[5]);
        if (unlabeled)
            printf(" %15s", m[6]);
        if (unused)
            printf(" %18s", m[7]);
        putchar('\n');
    }
}

/* Each strategy with spot usage: its interruptions and Monte Carlo. */
static void print_spot(gp_ledger *const *l, size_t n)
{
    char m[9][32];

    for (size_t i = 0; i < n; i++) {
        if (l[i]->cost[GP_MODEL_SPOT] <= 0)
            continue;
        /* a count or money that is not zero never reads as zero (10 hours
         * at 10% a month expect 0.0015 interruptions) */
        char count[48];
        gp_format_small(l[i]->spot_interruptions_mean, "no", count,
                        sizeof count);
        gp_format_money_small(l[i]->spot_failed_attempt_cost_mean, m[0],
                              sizeof m[0]);
        gp_format_money(l[i]->spot_cost_p50, m[1], sizeof m[1]);
        gp_format_money(l[i]->spot_cost_p95, m[2], sizeof m[2]);
        printf("\nspot (%s): %s interruptions expected, %s lost to them; ",
               l[i]->strategy, count, m[0]);
        /* the percentiles are of the spot usage's cost with its fallback
         * (the Spot sheet's "P50/P95 with fallback"); with no job run
         * replayed, no Monte Carlo ran and both are the expected value */
        if (l[i]->n_jobs > 0)
            printf("spot usage's cost with fallback p50 %s, p95 %s over %d "
                   "Monte Carlo runs (seed %llu)\n",
                   m[1], m[2], l[i]->mc_runs,
                   (unsigned long long)l[i]->mc_seed);
        else
            printf("spot cost %s by the expected value (no job run with "
                   "job_id to replay by Monte Carlo)\n",
                   m[1]);
        if (l[i]->spot_runs_before_window > 0)
            printf("  %zu job %s started before the window: %s %.1f "
                   "instance-hours in it are priced by the expected value, "
                   "not replayed\n",
                   l[i]->spot_runs_before_window,
                   gp_plural(l[i]->spot_runs_before_window, "run", "runs"),
                   gp_plural(l[i]->spot_runs_before_window, "its", "their"),
                   l[i]->spot_runs_before_window_ih);
    }
}

/* Each strategy that launched job runs on capacity instruments: how many,
 * their cost, the block hours paid unused and the flex-start waits. */
static void print_capacity(gp_ledger *const *l, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        double unused = 0, wait = 0;
        char m[32];
        if (l[i]->n_capacity == 0 && l[i]->capacity_runs_on_demand == 0)
            continue;
        for (size_t k = 0; k < l[i]->n_capacity; k++) {
            unused += l[i]->capacity[k].unused_ih;
            wait += l[i]->capacity[k].wait_h;
        }
        gp_format_money(l[i]->cost[GP_MODEL_CAPACITY], m, sizeof m);
        printf("\ncapacity (%s): %zu job %s, %s paid, %.1f instance-hours "
               "of it unused, %.1f h of flex-start waits",
               l[i]->strategy, l[i]->n_capacity,
               gp_plural(l[i]->n_capacity, "run", "runs"), m, unused, wait);
        if (l[i]->capacity_runs_on_demand > 0)
            printf("; %zu %s on demand (before the window, or not sold for "
                   "the type or so long)",
                   l[i]->capacity_runs_on_demand,
                   gp_plural(l[i]->capacity_runs_on_demand, "run", "runs"));
        printf("\n");
    }
}

/* Whether the cost per useful GPU-hour is known, and over what. */
static void print_util_note(const gp_trace *t)
{
    /* whether any row reported a gpu_util, as validate and the JSON's
     * inputs.trace.useful_gpu_hours ask: a gpu_util of 0 is reported, and
     * its useful GPU-hours are 0, not unknown */
    if (gp_trace_util_gpu_hours(t) <= 0)
        printf("\nno gpu_util in the trace: cost per useful GPU-hour is "
               "not known\n");
    else if (t->gpu_hours_without_util > 0)
        printf("\n%.2f GPU-hours in the trace had no gpu_util: cost per "
               "useful GPU-hour is over the rest\n",
               t->gpu_hours_without_util);
}

/* What each strategy's levers did (levers.h), against the baseline, and
 * the cheapest strategy. */
static void print_levers(gp_ledger *const *l, size_t n)
{
    char m[3][32];
    size_t best = 0;
    bool any = false;

    for (size_t i = 0; i < n; i++) {
        any |= l[i]->levers.any;
        if (l[i]->total_cost < l[best]->total_cost)
            best = i;
    }
    if (!any)
        return;
    printf("\nlevers:\n");
    for (size_t i = 0; i < n; i++) {
        const gp_ledger_levers *v = &l[i]->levers;
        if (!v->any)
            continue;
        double saved = l[0]->total_cost - l[i]->total_cost;
        gp_format_money(fabs(saved), m[0], sizeof m[0]);
        printf("  %s: %s; %s %s %s %s\n", l[i]->strategy, v->what,
               saved < 0 ? "costs" : "saves", m[0],
               saved < 0 ? "more than" : "against", l[0]->strategy);
        if (v->autoscale)
            printf("    autoscale: %.1f instance-hours served instead of "
                   "%.1f\n",
                   v->autoscale_served_ih, v->autoscale_recorded_ih);
        for (int k = 0; k < 2; k++)
            if (k == 0 ? v->rightsize : v->migrate)
                printf("    %s: %.1f instance-hours moved, %.1f of the new "
                       "type billed\n",
                       k == 0 ? "rightsize" : "migrate", v->moved_ih[k],
                       v->moved_to_ih[k]);
        if (v->migrate || v->stranded_instance_hours > 0) {
            gp_format_money(v->stranded_commitment_cost, m[1], sizeof m[1]);
            printf("    stranded commitment: %s, %.1f instance-hours of "
                   "reservations left without usage from the move to the "
                   "end of their terms\n",
                   m[1], v->stranded_instance_hours);
        }
    }
    gp_format_money(l[best]->total_cost, m[2], sizeof m[2]);
    printf("  cheapest: %s (%s)\n", l[best]->strategy, m[2]);
}

/* The terminal tables: one row per strategy, then the parts of each. */
static void print_table(const gp_inputs *in, gp_ledger *const *l, size_t n)
{
    print_strategies(in, l, n);
    print_parts(l, n);
    print_spot(l, n);
    print_levers(l, n);
    gp_cli_print_job_runs(in->trace, l, n);
    print_capacity(l, n);
    print_util_note(in->trace);
}

/* Idle GPUs (idle.h) under the tables: the spans' totals, and what each
 * strategy whose policy terminates idle GPUs removed and what that saved
 * it (saved[i], idle_savings). */
static void print_idle(const gp_idle_report *r, gp_ledger *const *l,
                       const double *saved, size_t n)
{
    char cost[32], money[32];

    if (r->gpu_hours_with_util <= 0) {
        printf("\nidle GPUs: not judged (no gpu_util in the trace)\n");
        return;
    }
    gp_format_money(r->cost, cost, sizeof cost);
    printf("\nidle GPUs (gpu_util below %g%% for %g h or more): %zu %s, "
           "%.1f GPU-hours",
           r->threshold_pct, r->min_hours, r->n_spans,
           gp_plural(r->n_spans, "span", "spans"), r->gpu_hours);
    printf(" (%.1f%% of GPU-hours with gpu_util)",
           100 * r->gpu_hours / r->gpu_hours_with_util);
    printf(", %.1f instance-hours, %s at on-demand rates\n", r->instance_hours,
           cost);
    for (size_t i = 0; i < n; i++) {
        if (l[i]->idle_terminated_instance_hours <= 0)
            continue;
        printf("  %s: terminating idle GPUs removed %.1f instance-hours",
               l[i]->strategy, l[i]->idle_terminated_instance_hours);
        /* less than half a cent either way is "saved $0.00"
         * (gp_format_money writes no sign on what rounds to zero) */
        if (saved[i] <= -0.005) {
            gp_format_money(-saved[i], money, sizeof money);
            printf(" and cost %s more\n", money);
        } else {
            gp_format_money(saved[i], money, sizeof money);
            printf(" and saved %s\n", money);
        }
    }
}

/* What terminating idle GPUs saved each strategy that terminated any: its
 * total less the same strategy's billed with terminate_idle_h 0 and
 * everything else equal, into saved[i] (NAN for the others).  Against the
 * baseline it would include whatever else the strategy changes (spot,
 * commitments), and say nothing when the baseline terminates too.  The
 * strategy is billed again as the tables' were, by `opt`, from its run
 * specification with the policies changed. */
static gp_status idle_savings(const gp_inputs *in, const gp_engine_options *opt,
                              gp_ledger *const *l, double *saved, gp_error *err)
{
    for (size_t i = 0; i < in->scenario->n_strategies; i++) {
        gp_run_spec spec;
        gp_ledger *kept = NULL;

        saved[i] = NAN;
        if (l[i]->idle_terminated_instance_hours <= 0)
            continue;
        gp_status st =
            gp_run_spec_init(&spec, in->trace, in->scenario, i, opt, err);
        if (st != GP_OK)
            return st;
        spec.policy[0].terminate_idle_h = 0;
        spec.policy[1].terminate_idle_h = 0;
        st = gp_levers_run(in->trace, in->pricing, in->scenario, i, &spec,
                           &kept, err);
        if (st != GP_OK)
            return st;
        saved[i] = kept->total_cost - l[i]->total_cost;
        gp_ledger_free(kept);
    }
    return GP_OK;
}

/* Bills every strategy of the scenario as `opt` says, into ledgers[i]. */
static gp_status bill_strategies(const gp_inputs *in,
                                 const gp_engine_options *opt,
                                 gp_ledger **ledgers, gp_error *err)
{
    for (size_t i = 0; i < in->scenario->n_strategies; i++) {
        gp_run_spec spec;
        gp_status st =
            gp_run_spec_init(&spec, in->trace, in->scenario, i, opt, err);
        if (st == GP_OK)
            st = gp_levers_run(in->trace, in->pricing, in->scenario, i, &spec,
                               &ledgers[i], err);
        if (st != GP_OK)
            return st;
    }
    return GP_OK;
}

/* What simulate's steps share: the inputs, a ledger per strategy, what
 * terminating idle GPUs saved each, and the report's parts. */
typedef struct simulate_run {
    gp_cli *cli;
    gp_inputs in;
    size_t n; /* strategies */
    gp_ledger **ledgers;
    double *saved;
    gp_idle_report *idle;
    gp_classification *classified;
    gp_policy_result *policies; /* the scenario's purchase policies */
    gp_budget_report *budgets;  /* the scenario's budgets, by ledger */
    char budget_note[700]; /* why the budgets have no forecast, or "" */
    gp_forecast *sheet_forecast;
    gp_run_info info;
    gp_engine_options opt;
    gp_error err;
} simulate_run;

/* The scenario's budgets against every ledger (budget.h): a forecast
 * that cannot be made leaves the crossings unknown, with a warning. */
static gp_status bill_budgets(simulate_run *run)
{
    gp_error why;
    gp_status st = gp_budget_reports(run->ledgers, run->n, run->in.trace,
                                     run->in.scenario, run->cli->threads,
                                     &run->budgets, &why, &run->err);
    if (st == GP_OK && why.message[0])
        gp_error_format_marked(&why, run->budget_note,
                               sizeof run->budget_note);
    return st;
}

/* --spot-events: the recorded interruptions of each job run, in every
 * strategy's job rows, and how many of the events matched a run (stderr,
 * unless --quiet). */
static gp_status count_recorded(simulate_run *run)
{
    gp_spot_event *ev = NULL;
    size_t n = 0, used = 0;
    gp_status st =
        gp_spot_events_read(run->cli->spot_events, &ev, &n, &run->err);

    for (size_t i = 0; st == GP_OK && i < run->n; i++) {
        size_t k = gp_ledger_count_recorded(run->ledgers[i], run->in.trace,
                                            ev, n);
        if (i == 0)
            used = k;
    }
    if (st == GP_OK && !run->cli->quiet)
        fprintf(stderr,
                "gpuplan simulate: %zu of %zu recorded spot interruptions "
                "name a job run of the window (by job_id, from its start "
                "to its end)\n",
                used, n);
    gp_spot_events_free(ev, n);
    return st;
}

/* Bills every strategy, then what terminating idle GPUs saved (the
 * terminal's idle line) and the idle spans: everything before any file is
 * written, so that a failure leaves none. */
static gp_status bill(simulate_run *run)
{
    gp_inputs *in = &run->in;
    gp_status st;

    gp_engine_options_init(&run->opt);
    run->opt.progress = GP_CLI_PROGRESS;
    run->opt.mc_runs = (int)run->cli->runs;
    run->opt.mc_seed = run->cli->seed;
    run->opt.threads = run->cli->threads;
    run->n = in->scenario->n_strategies;
    run->ledgers = gp_calloc(run->n, sizeof *run->ledgers);
    run->saved = gp_calloc(run->n, sizeof *run->saved);
    if (!run->ledgers || !run->saved) {
        gp_error_set(&run->err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    st = bill_strategies(in, &run->opt, run->ledgers, &run->err);
    if (st == GP_OK && run->cli->spot_events)
        st = count_recorded(run);
    if (st == GP_OK && in->scenario->n_policies) {
        run->policies = gp_calloc(in->scenario->n_policies,
                                  sizeof *run->policies);
        if (!run->policies)
            st = GP_ERR_NOMEM;
        for (size_t i = 0; st == GP_OK && i < in->scenario->n_policies; i++)
            st = gp_policy_replay(in->trace, in->pricing, in->scenario,
                                  &in->scenario->policies[i], &run->opt,
                                  &run->policies[i], &run->err);
    }
    if (st == GP_OK && in->scenario->n_budgets)
        st = bill_budgets(run);
    if (st == GP_OK && !run->cli->json)
        st = idle_savings(in, &run->opt, run->ledgers, run->saved, &run->err);
    if (st == GP_OK)
        st = gp_idle_for_run(in->trace, in->scenario, &run->idle, &run->err);
    return st;
}

/* The report's account of the run and its warnings (printed unless
 * --quiet), and the workbook's Forecast sheet: one that cannot be made is
 * one of the run's warnings. */
static void warn(simulate_run *run)
{
    gp_run_info *info = &run->info;

    gp_cli_run_info(info, "simulate", run->cli, &run->in);
    info->classified = run->classified;
    info->policies = run->policies;
    info->n_policies = run->policies ? run->in.scenario->n_policies : 0;
    info->idle = run->idle;
    info->budgets = run->budgets;
    gp_budget_warn(run->in.trace, run->in.scenario, &info->warnings);
    if (run->budget_note[0])
        gp_warnings_add(&info->warnings,
                        "budgets: no forecast of when a budget is crossed "
                        "(%s)",
                        run->budget_note);
    gp_run_info_warn(info, run->ledgers, run->n);
    gp_cli_classification_worth(run->cli, &run->in, run->classified);
    gp_classification_warn(run->classified, &info->warnings);
    gp_cli_window_warn(&run->in, true, &info->warnings);
    gp_cli_future_trace_warn(run->in.trace, 0, 0,
                             "its hours after today are billed as history",
                             &info->warnings);
    if (run->cli->out) {
        gp_progress pr = GP_CLI_PROGRESS;
        gp_report_forecast(info, NULL, &pr, &run->sheet_forecast,
                           &info->warnings);
    }
    if (!run->cli->quiet)
        /* the catalogs' and the rejected rows' were printed as the
         * inputs loaded */
        gp_cli_print_warnings_from(&info->warnings, info->n_load_warnings);
}

/* The CSV tables and the workbook, as asked: one set, all written first
 * and then renamed into place together, so that an interrupted or failed
 * run leaves neither new tables beside an old workbook nor half a set. */
static gp_status write_files(simulate_run *run)
{
    gp_cli *cli = run->cli;
    gp_file_set set = {0};
    gp_status st = GP_OK;

    if (cli->csv_dir) {
        st = gp_csv_write_ledgers(&set, cli->csv_dir, run->ledgers, run->n,
                                  run->in.trace, &run->err);
        if (st == GP_OK)
            st = gp_csv_write_idle(&set, cli->csv_dir, run->idle,
                                   run->in.trace, &run->err);
        if (st == GP_OK && run->budgets)
            st = gp_csv_write_budgets(&set, cli->csv_dir, run->ledgers,
                                      run->budgets, run->n, run->in.scenario,
                                      &run->err);
        if (st == GP_OK && run->policies)
            st = gp_csv_write_policies(&set, cli->csv_dir, run->policies,
                                       run->in.scenario->n_policies,
                                       &run->err);
    }
    if (st == GP_OK && cli->out)
        st = gp_xlsx_write_run(&set, cli->out, &run->info, run->ledgers,
                               run->n, NULL, run->idle, run->sheet_forecast,
                               &run->err);
    if (st == GP_OK)
        st = gp_file_set_commit(&set, &run->err);
    gp_file_set_abort(&set);
    return st;
}

/* Frees what the run holds. */
static void simulate_run_free(simulate_run *run)
{
    gp_forecast_free(run->sheet_forecast);
    gp_budget_reports_free(run->budgets, run->n);
    gp_classification_free(run->classified);
    gp_idle_report_free(run->idle);
    for (size_t i = 0; run->ledgers && i < run->n; i++)
        gp_ledger_free(run->ledgers[i]);
    gp_free(run->ledgers);
    gp_free(run->saved);
    for (size_t i = 0; run->policies && i < run->in.scenario->n_policies; i++)
        gp_policy_result_free(&run->policies[i]);
    gp_free(run->policies);
    gp_warnings_clear(&run->info.warnings);
    gp_inputs_free(&run->in);
}

/* Adds "budgets" and "budget_forecast" to each strategy of simulate's
 * JSON document (SPEC 7.5), in the ledgers' order. */
static void json_budgets(json_t *doc, const simulate_run *run)
{
    json_t *strategies = json_object_get(doc, "strategies");
    for (size_t i = 0; i < run->n && i < json_array_size(strategies); i++) {
        json_t *o = json_array_get(strategies, i);
        json_object_set_new(o, "budgets",
                            gp_json_budgets(&run->budgets[i],
                                            run->in.scenario));
        json_object_set_new(o, "budget_forecast",
                            gp_json_budget_forecast(&run->budgets[i],
                                                    run->in.scenario));
    }
}

/* The command: load, bill, warn, write the files, then the JSON document
 * or the terminal's tables. */
static int simulate_exec(gp_cli *cli)
{
    simulate_run run;
    int rc = 0;

    memset(&run, 0, sizeof run);
    run.cli = cli;
    /* unlabelled usage is billed as what it looks like */
    if ((rc = gp_cli_load_classified(cli, &run.in, &run.classified)) != 0)
        return rc;
    if (bill(&run) != GP_OK) {
        gp_cli_print_error(&run.err);
        simulate_run_free(&run);
        return 1;
    }
    warn(&run);
    if (write_files(&run) != GP_OK) {
        gp_cli_print_error(&run.err);
        rc = 1;
    } else if (cli->json) {
        json_t *doc = gp_json_simulation(run.ledgers, run.n, run.idle,
                                         &run.info, run.classified);
        if (run.budgets)
            json_budgets(doc, &run);
        if (run.policies)
            json_object_set_new(
                doc, "policies",
                gp_json_policies(run.policies, run.in.scenario->n_policies));
        rc = gp_json_print(doc);
        json_decref(doc);
    } else {
        print_table(&run.in, run.ledgers, run.n);
        print_idle(run.idle, run.ledgers, run.saved, run.n);
        if (run.policies)
            gp_cli_print_policies(run.policies,
                                  run.in.scenario->n_policies);
        gp_cli_print_budgets(run.ledgers, run.budgets, run.n,
                             run.in.scenario);
    }
    simulate_run_free(&run);
    return rc;
}

const struct gp_command gp_cmd_simulate = {
    "simulate",
    "replay usage through the purchasing models, strategies side by side",
    "  --trace F...        usage trace CSV files (default: the bundled "
    "sample)\n"
    "  --pricing P...      catalog files or folders (default: bundled)\n"
    "  --scenario S        scenario JSON: window, policy, commitments, "
    "strategies,\n"
    "                      purchase policies replayed side by side\n"
    "  --json              the SPEC section 5 document on stdout\n"
    "  --out R.xlsx        the Excel workbook for finance (SPEC section 6)\n"
    "  --csv DIR           hourly.csv, monthly.csv, spot_jobs.csv,\n"
    "                      job_runs.csv, chargeback.csv, chargeback_summary.csv,\n"
    "                      commitments.csv, idle.csv (policies.csv,\n"
    "                      budgets.csv) in DIR\n"
    "  --spot-events F     recorded spot interruptions (EventBridge JSON\n"
    "                      lines or import spot-events' CSV), counted per\n"
    "                      job run by job_id in the job-run table\n"
    "  --idle-threshold PCT, --idle-min-hours H\n"
    "                      idle GPUs: gpu_util below PCT (default 5) for H\n"
    "                      hours or more (default 2)\n"
    "  --runs N, --seed N  Monte Carlo runs and seed (default: scenario's)\n"
    "  --threads N         threads (default: all cores)\n"
    "  --spot-confidence P unlabelled usage classified training this sure\n"
    "                      (default 0.9) may go to spot; the rest is\n"
    "                      billed as inference\n"
    GP_USAGE_TRACE_TAIL,
    OPT_TRACE | OPT_PRICING | OPT_SCENARIO | OPT_JSON | OPT_CSV | OPT_SKIP_BAD |
        OPT_SEED | OPT_OUT | OPT_OUT_XLSX | OPT_IDLE | OPT_SPOT_CONFIDENCE |
        OPT_SPOT_EVENTS,
    simulate_exec,
};
