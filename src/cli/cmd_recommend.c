/*
 * cmd_recommend.c: `gpuplan recommend` prints the ranked purchases of the
 * recommended plan, the three plans side by side and how much of the
 * hindsight optimum the plan captures; --json prints the SPEC section 5
 * document; --train-until T backtests: recommend from the data before T,
 * buy at T, bill the rest.
 */
#include "budget.h"
#include "classify.h"
#include "cli.h"
#include "progress.h"
#include "forecast.h"
#include "idle.h"
#include "levers.h"
#include "recommend.h"
#include "report.h"
#include "writers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A captured fraction as "87.5%", or "n/a" when it is undefined (the
 * best purchase saved nothing and this one lost money). */
static void share(char *buf, size_t size, double fraction)
{
    if (isnan(fraction))
        snprintf(buf, size, "n/a (nothing was worth buying)");
    else
        snprintf(buf, size, "%.1f%%", 100 * fraction);
}

/* The backtest's lines of the table: what the plan bought at
 * train_until saved over the hours after it, against hindsight. */
static void print_backtest(const gp_recommendation *r)
{
    char m[3][32], cut[32];

    gp_format_time(r->train_until, cut, sizeof cut);
    gp_format_money(r->test_plan_net_savings, m[0], sizeof m[0]);
    gp_format_money(r->test_hindsight_net_savings, m[1], sizeof m[1]);
    share(m[2], sizeof m[2], r->test_captured_fraction);
    printf("backtest: bought at %s from the data before it, the plan "
           "saved %s over the next %zu hour%s; hindsight could have "
           "saved %s",
           cut, m[0], r->test_hours, gp_plural(r->test_hours, "", "s"),
           m[1]);
    /* the fractions are 1 then (README): not "100.0% of $0.00" */
    if (r->test_hindsight_net_savings <= 0 &&
        !isnan(r->test_captured_fraction))
        printf(", as nothing was worth buying; the plan does as well out "
               "of sample\n");
    else
        printf(": %s captured out of sample\n", m[2]);
    gp_format_money(r->test_commitment_net_savings, m[0], sizeof m[0]);
    gp_format_money(r->test_hindsight_commitment_savings, m[1],
                    sizeof m[1]);
    share(m[2], sizeof m[2], r->test_commitment_captured_fraction);
    if (r->test_hindsight_commitment_savings <= 0 &&
        !isnan(r->test_commitment_captured_fraction))
        printf("          commitments alone: %s of a possible %s, as "
               "nothing was worth buying; they do as well\n",
               m[0], m[1]);
    else
        printf("          commitments alone: %s of a possible %s, %s "
               "captured\n",
               m[0], m[1], m[2]);
}

/* The capacity actions: each large job run's options, what they cost
 * ("-" where not sold), the one chosen, why and at what risk. */
static void print_capacity(const gp_inputs *in, const gp_recommendation *r)
{
    const gp_trace *t = in->trace;
    char m[32];

    if (r->n_capacity == 0)
        return;
    printf("\ncapacity: the %zu largest of %zu job run%s with %g+ instances "
           "for %g+ h\n",
           r->n_capacity, r->capacity_large,
           gp_plural(r->capacity_large, "", "s"), GP_CAPACITY_MIN_INSTANCES,
           GP_CAPACITY_MIN_HOURS);
    printf("%4s  %-20s %-15s", "rank", "job", "option chosen");
    for (int k = 0; k < GP_N_CAP_OPTIONS; k++)
        printf(" %15s", gp_capacity_option_name((gp_capacity_option)k));
    printf("\n");
    for (size_t i = 0; i < r->n_capacity; i++) {
        const gp_capacity_choice *ch = &r->capacity[i];
        printf("%4zu  %-20.20s %-15s", r->n_actions + i + 1,
               t->labels[t->runs[ch->run].job],
               gp_capacity_option_name(ch->chosen));
        for (int k = 0; k < GP_N_CAP_OPTIONS; k++) {
            if (ch->option[k].available)
                gp_format_money(ch->option[k].cost, m, sizeof m);
            else
                snprintf(m, sizeof m, "-");
            printf(" %15s", m);
        }
        printf("\n      %s\n      risk: %s\n", ch->reason, ch->risk);
    }
}

/* The table a planner reads on stdout: the ranked actions, the plans,
 * what the plan captures, the forward or backtest figures, the notes. */
static void print_table(const gp_inputs *in, const gp_recommendation *r)
{
    char a[32], z[32], m[6][32], what[160];
    gp_format_time(r->start_hour * 3600, a, sizeof a);
    gp_format_time((r->start_hour + (int64_t)r->n_hours) * 3600, z, sizeof z);
    gp_format_money(r->policy_cost, m[0], sizeof m[0]);
    gp_format_money(r->all_on_demand_cost, m[1], sizeof m[1]);
    char rows[80];
    gp_cli_rows_note(in->trace, rows, sizeof rows);
    printf("gpuplan recommend: %s to %s (%zu hour%s)%s%s\n", a, z, r->n_hours,
           gp_plural(r->n_hours, "", "s"), rows,
           in->used_sample ? ", bundled sample" : "");
    printf("cost under the scenario's policy: %s (all on demand: %s)\n\n",
           m[0], m[1]);
    /* the action column as wide as its longest description, so that the
     * numbers stay under their headers */
    int w = 52;
    for (size_t i = 0; i < r->n_actions; i++) {
        gp_action_describe(&r->actions[i], what, sizeof what);
        if ((int)strlen(what) > w)
            w = (int)strlen(what);
    }
    printf("%4s  %-*s %13s %10s %9s %13s %12s\n", "rank", w, "action",
           "net savings", "break-even", "expected", "low demand", "upfront");
    for (size_t i = 0; i < r->n_actions; i++) {
        const gp_action *x = &r->actions[i];
        gp_action_describe(x, what, sizeof what);
        gp_format_money(x->net_savings, m[0], sizeof m[0]);
        gp_format_money(x->downside_net_savings, m[1], sizeof m[1]);
        gp_format_money(x->upfront, m[2], sizeof m[2]);
        if (x->type == GP_ACTION_ROUTING)
            printf("%4d  %-*s %13s %10s %9s %13s %12s\n", x->rank, w, what,
                   m[0], "-", "-", m[1], "-");
        else
            printf("%4d  %-*s %13s %9.0f%% %8.0f%% %13s %12s\n", x->rank, w,
                   what, m[0], 100 * x->breakeven_utilization,
                   100 * x->expected_utilization, m[1], m[2]);
        printf("      %s\n", x->reason);
    }
    if (r->n_actions == 0)
        printf("      nothing to buy: no commitment would pay for itself\n");
    print_capacity(in, r);
    printf("\n%-13s %15s %15s %15s %15s\n", "plan", "total cost",
           "net savings", "low demand", "upfront");
    for (int i = 0; i < 3; i++) {
        const gp_plan_result *p = &r->plans[i];
        gp_format_money(p->total_cost, m[0], sizeof m[0]);
        gp_format_money(p->net_savings, m[1], sizeof m[1]);
        gp_format_money(p->downside_net_savings, m[2], sizeof m[2]);
        gp_format_money(p->upfront, m[3], sizeof m[3]);
        printf("%-13s %15s %15s %15s %15s%s\n", p->name, m[0], m[1], m[2],
               m[3], (size_t)i == r->recommended ? "  <- recommended" : "");
    }
    gp_format_money(r->hindsight_net_savings, m[0], sizeof m[0]);
    share(m[1], sizeof m[1], r->captured_fraction);
    if (r->hindsight_net_savings <= 0 && !isnan(r->captured_fraction))
        /* captured_fraction is 1 (README): not "100.0% of $0.00" */
        printf("\n%s: %s net savings, as nothing was worth buying; the "
               "recommended plan does as well\n",
               r->forward ? "best purchase for the P50 forecast"
                          : "hindsight optimum",
               m[0]);
    else
        printf("\n%s: %s net savings; the recommended plan captures %s of "
               "it\n",
               r->forward ? "best purchase for the P50 forecast"
                          : "hindsight optimum",
               m[0], m[1]);
    if (r->forward) {
        gp_format_money(r->forward_downside_net_savings, m[0], sizeof m[0]);
        gp_format_money(r->forward_p50_net_savings, m[1], sizeof m[1]);
        gp_format_money(r->forward_upside_net_savings, m[2], sizeof m[2]);
        printf("forward: bought for the forecast; net savings %s if demand "
               "is the P10, %s at P50, %s at P90\n",
               m[0], m[1], m[2]);
    }
    if (r->backtest)
        print_backtest(r);
    for (size_t i = 0; i < r->notes.count; i++)
        printf("note: %s\n", r->notes.items[i]);
}

/* Which of a type's commitment rates its catalog marks as estimates
 * ("estimate": true): ESTIMATED_RESERVED, ESTIMATED_PLAN, both or none. */
enum { ESTIMATED_RESERVED = 1, ESTIMATED_PLAN = 2 };
static unsigned estimated_rates(const gp_instance_type *it)
{
    unsigned kinds = 0;
    for (size_t i = 0; i < it->n_reserved; i++)
        if (it->reserved[i].estimate)
            kinds |= ESTIMATED_RESERVED;
    for (size_t i = 0; i < it->n_plans; i++)
        if (it->plans[i].estimate)
            kinds |= ESTIMATED_PLAN;
    return kinds;
}

/* Warns when the commitments the plans can buy (the trace's types) are
 * priced at estimated rates, naming the types; says nothing for catalogs
 * of list prices.  Each warning names only the rates its types have: a
 * GCP type's catalog has reserved offers (its committed use discounts)
 * and no savings plans, so it is not said to have savings-plan rates. */
static void estimate_warning(const gp_trace *t, gp_warnings *out)
{
    static const unsigned groups[] = {ESTIMATED_RESERVED | ESTIMATED_PLAN,
                                      ESTIMATED_RESERVED, ESTIMATED_PLAN};

    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        char names[200] = "";
        size_t n = 0, shown = 0;
        const char *rates = groups[g] == ESTIMATED_RESERVED ? "reserved rates"
                            : groups[g] == ESTIMATED_PLAN
                                ? "savings-plan rates"
                                : "reserved and savings-plan rates";

        for (size_t p = 0; p < t->n_pools; p++) {
            const gp_instance_type *it = t->pools[p].type;
            bool seen = false;
            for (size_t q = 0; q < p && !seen; q++)
                seen = strcmp(t->pools[q].type->name, it->name) == 0;
            if (seen || estimated_rates(it) != groups[g])
                continue;
            n++;
            size_t len = strlen(names);
            if (len + strlen(it->name) + 3 < sizeof names) {
                snprintf(names + len, sizeof names - len, "%s%s",
                         shown ? ", " : "", it->name);
                shown++;
            }
        }
        if (n == 0)
            continue;
        if (n > shown)
            gp_warnings_add(out,
                            "the %s of %s%s%zu more %s are estimates from "
                            "published discount ratios, not list prices; "
                            "replace them with your own",
                            rates, names, shown ? " and " : "", n - shown,
                            gp_plural(n - shown, "type", "types"));
        else
            gp_warnings_add(out,
                            "the %s of %s are estimates from published "
                            "discount ratios, not list prices; replace them "
                            "with your own",
                            rates, names);
    }
}

/* Warns about the estimated spot figures the numbers use: the types the
 * scenario's policy launches on spot, with training on spot when the plans
 * take the routing action, over the hours billed (a forward plan's
 * forecast is of the whole trace). */
static void spot_estimate_warning(const gp_trace *t, const gp_scenario *s,
                                  const gp_recommendation *r, gp_warnings *out)
{
    gp_strategy sg = s->strategies[0];
    double *hours = gp_calloc(t->n_series + 1, sizeof *hours);
    int64_t from = r->start_hour;
    int64_t to =
        from + (int64_t)r->n_hours + (r->backtest ? (int64_t)r->test_hours : 0);

    if (!hours) {
        gp_warnings_lost(out);
        return;
    }
    if (r->plans[r->recommended].route_training_to_spot)
        sg.policy[GP_TRAINING].launch = GP_LAUNCH_SPOT;
    if (r->forward) {
        from = t->start_hour;
        to = t->start_hour + (int64_t)t->n_hours;
    }
    for (size_t i = 0; i < t->n_series; i++)
        for (int64_t h = from; h < to; h++) {
            int64_t th = h - t->start_hour;
            if (th >= 0 && th < (int64_t)t->n_hours)
                hours[i] += t->series[i].instance_hours[th];
        }
    gp_spot_estimate_warn(out, t, &sg, hours);
    gp_free(hours);
}

/* Runs the recommender over the loaded inputs with the command line's
 * options.  Returns 0 with *out set, or, having printed why, the exit
 * code: 2 for a usage error, 1 for any other. */
static int run_recommender(gp_cli *cli, const gp_inputs *in,
                           gp_recommendation **out, gp_error *err)
{
    gp_recommend_options opt;

    gp_recommend_options_init(&opt);
    opt.progress = GP_CLI_PROGRESS;
    opt.forward_hours = cli->forward_hours;
    opt.threads = cli->threads;
    opt.mc_runs = (int)cli->runs;
    opt.mc_seed = cli->seed;
    opt.train_until = cli->train_until;
    opt.terms = cli->terms;
    opt.payments = cli->payments;
    opt.instruments = cli->instruments;
    opt.lookback_hours = cli->lookback_hours;
    gp_status st = gp_recommend(in->trace, in->pricing, in->scenario, &opt,
                                out, err);
    if (st == GP_OK)
        return 0;
    if (st == GP_ERR_USAGE) {
        gp_cli_print_usage_error("recommend", err);
        return 2;
    }
    gp_cli_print_error(err);
    return 1;
}

/* What recommend's steps share once the recommendation is made; the
 * command owns all of it and frees it at the end. */
typedef struct recommend_run {
    gp_cli *cli;
    gp_inputs *in;
    gp_recommendation *r;
    gp_classification *classified;
    gp_run_info info;
    gp_idle_report *idle;        /* NULL when it could not be made */
    gp_forecast *sheet_forecast; /* the workbook's Forecast sheet, or NULL */
    gp_error *err;
} recommend_run;

/* Idle GPUs over the hours the plan is judged on, which the workbook
 * shows and the JSON's warnings count: a backtest's or window's own
 * hours (with --train-until, those before the cut), a forward plan's
 * whole trace; an idle report that cannot be made is left out (NULL), and
 * the Idle sheet says it was not computed. */
static gp_idle_report *idle_of(const gp_inputs *in, const gp_recommendation *r)
{
    gp_idle_report *idle = NULL;
    gp_error idle_err;
    gp_error_clear(&idle_err);
    if ((!r->forward ? gp_idle_for_hours(in->trace, in->scenario, r->start_hour,
                                         r->n_hours, &idle, &idle_err)
                     : gp_idle_for_run(in->trace, in->scenario, &idle,
                                       &idle_err)) != GP_OK)
        idle = NULL;
    return idle;
}

/* The run's warnings, printed as simulate prints its own (--quiet: in
 * the JSON and the workbook only) and kept in run->info. */
static void recommend_warn(recommend_run *run)
{
    gp_cli *cli = run->cli;
    const gp_inputs *in = run->in;
    const gp_recommendation *r = run->r;
    gp_warnings ww = {NULL, 0, 0};

    estimate_warning(in->trace, &ww);
    if (cli->out)
        gp_budget_warn(in->trace, in->scenario, &ww);
    spot_estimate_warning(in->trace, in->scenario, r, &ww);
    /* (a forward plan is for the forecast's hours, not the window's) */
    if (!r->forward)
        gp_cli_window_warn(in, false, &ww);
    /* a trace dated in the future: a forward plan is bought for the
     * forecast from its end (below, with the stale trace's warning) */
    if (!r->forward)
        gp_cli_future_trace_warn(
            in->trace, 0, 0, "its hours after today are billed as history",
            &ww);
    gp_cli_warn_now(cli, &ww, &run->info);
    gp_cli_classification_worth(cli, in, run->classified);
    gp_cli_classification_warn(cli, run->classified, &run->info);
    if (r->forward) {
        /* the plan is bought on the forecast, which learns from a gap */
        gp_cli_history_gap_warn(cli, &run->info, in->trace,
                                r->forecast->history_start_hour,
                                r->forecast->history_hours);
        gp_cli_stale_forecast_warn(cli, &run->info, in->trace,
                                   r->forecast->start_hour,
                                   r->forecast->n_hours, "the plan is bought");
        gp_cli_future_trace_warn(in->trace, r->forecast->start_hour,
                                 r->forecast->n_hours, "the plan is bought",
                                 &ww);
        gp_cli_warn_now(cli, &ww, &run->info);
    }
}

/* The scenario's strategies, as simulate bills them (levers.h), over
 * the window the plan was billed in (pl), into a new array *out (NULL
 * when the scenario has none beyond the baseline or no plan was billed),
 * for the workbook's Plans and Summary. */
static gp_status bill_scenario_strategies(recommend_run *run,
                                          const gp_ledger *pl,
                                          gp_ledger ***out)
{
    const gp_inputs *in = run->in;
    size_t n = in->scenario->n_strategies;
    gp_engine_options opt;
    gp_status st = GP_OK;

    *out = NULL;
    if (n < 2 || !pl || !run->cli->out)
        return GP_OK;
    gp_engine_options_init(&opt);
    opt.window_start = pl->start_hour * 3600;
    opt.window_end = (pl->start_hour + (int64_t)pl->n_hours) * 3600;
    opt.mc_runs = (int)run->cli->runs;
    opt.mc_seed = run->cli->seed;
    opt.threads = run->cli->threads;
    *out = gp_calloc(n, sizeof **out);
    if (!*out) {
        gp_error_set(run->err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    for (size_t i = 0; st == GP_OK && i < n; i++) {
        gp_run_spec spec;
        st = gp_run_spec_init(&spec, in->trace, in->scenario, i, &opt,
                              run->err);
        if (st == GP_OK)
            st = gp_levers_run(in->trace, in->pricing, in->scenario, i, &spec,
                               &(*out)[i], run->err);
    }
    return st;
}

/* Frees the n ledgers of l and l. */
static void free_ledgers(gp_ledger **l, size_t n)
{
    for (size_t i = 0; l && i < n; i++)
        gp_ledger_free(l[i]);
    gp_free(l);
}

/* The workbook and the CSV tables, which show the plan billed.  Returns
 * GP_OK or the error in run->err. */
static gp_status write_files(recommend_run *run, gp_progress *pr)
{
    gp_cli *cli = run->cli;
    const gp_inputs *in = run->in;
    gp_error *err = run->err;
    gp_ledger *pl[2] = {NULL, NULL};
    gp_status wst = gp_recommend_bill_plan(in->trace, in->pricing,
                                           in->scenario, run->r, cli->threads,
                                           (int)cli->runs, cli->seed, pr, pl,
                                           err);
    /* the tables are one set: all of them are written, or none; a
     * forward plan bills no ledger, and its ledger tables are written
     * with their header alone, so that none of an earlier run is left
     * in DIR beside the plan */
    gp_ledger **strategies = NULL;
    if (wst == GP_OK)
        wst = bill_scenario_strategies(run, pl[0], &strategies);
    run->info.strategies = strategies;
    run->info.n_strategies = strategies ? in->scenario->n_strategies : 0;
    gp_file_set set = {0};
    if (wst == GP_OK && cli->csv_dir)
        wst = gp_csv_write_ledgers(&set, cli->csv_dir, pl, pl[0] ? 2 : 0,
                                   in->trace, err);
    if (wst == GP_OK && cli->csv_dir)
        wst = gp_csv_write_recommendation(&set, cli->csv_dir, run->r, err);
    /* the Idle sheet's spans (a forward plan's too: they are the
     * trace's, not a ledger's); header only when the idle report
     * could not be made and the sheet says so */
    if (wst == GP_OK && cli->csv_dir)
        wst = gp_csv_write_idle(&set, cli->csv_dir, run->idle, in->trace, err);
    /* the Budgets sheet: the scenario's budgets against both ledgers */
    gp_budget_report *budgets = NULL;
    gp_error why;
    if (wst == GP_OK && cli->out && pl[0])
        wst = gp_budget_reports(pl, 2, in->trace, in->scenario, cli->threads,
                                &budgets, &why, err);
    run->info.budgets = budgets;
    /* the workbook joins the set: all are renamed into place together */
    if (wst == GP_OK && cli->out)
        wst = gp_xlsx_write_run(&set, cli->out, &run->info, pl, 2, run->r,
                                run->idle, run->sheet_forecast, err);
    run->info.budgets = NULL;
    gp_budget_reports_free(budgets, 2);
    if (wst == GP_OK)
        wst = gp_file_set_commit(&set, err);
    gp_file_set_abort(&set);
    gp_ledger_free(pl[0]);
    gp_ledger_free(pl[1]);
    run->info.strategies = NULL;
    run->info.n_strategies = 0;
    free_ledgers(strategies, in->scenario->n_strategies);
    return wst;
}

/* Writes what the command line asks for: the workbook and the CSV tables,
 * then the JSON document or the table on stdout.  Returns the exit code. */
static int recommend_write(recommend_run *run)
{
    gp_cli *cli = run->cli;
    gp_warnings ww = {NULL, 0, 0};
    int rc = 0;

    /* the workbook's Forecast sheet; a forecast that cannot be made is
     * warned about with the run's warnings, before the JSON is written */
    gp_progress pr = GP_CLI_PROGRESS;
    if (cli->out) {
        gp_report_forecast(&run->info, run->r, &pr, &run->sheet_forecast,
                           &ww);
        gp_cli_warn_now(cli, &ww, &run->info);
    }
    if ((cli->out || cli->csv_dir) && write_files(run, &pr) != GP_OK) {
        gp_cli_print_error(run->err);
        return 1;
    }
    if (cli->json) {
        json_t *doc = gp_json_recommendation(run->r, &run->info,
                                             run->classified);
        rc = gp_json_print(doc);
        json_decref(doc);
    } else {
        print_table(run->in, run->r);
    }
    return rc;
}

/* The command: load, recommend, warn, write what was asked for. */
static int recommend_exec(gp_cli *cli)
{
    gp_inputs in;
    gp_recommendation *r = NULL;
    recommend_run run;
    gp_error err;
    if (cli->forward_hours && cli->train_until) {
        fprintf(stderr, "gpuplan recommend: --forward and --train-until do "
                        "not go together\ntry 'gpuplan recommend --help'\n");
        return 2;
    }
    /* unlabelled usage is planned for as what it looks like */
    gp_classification *classified = NULL;
    int rc = gp_cli_load_classified(cli, &in, &classified);
    if (rc != 0)
        return rc;
    gp_error_clear(&err);
    rc = run_recommender(cli, &in, &r, &err);
    if (rc != 0) {
        gp_classification_free(classified);
        gp_inputs_free(&in);
        return rc;
    }
    memset(&run, 0, sizeof run);
    run.cli = cli;
    run.in = &in;
    run.r = r;
    run.classified = classified;
    run.err = &err;
    gp_cli_run_info(&run.info, "recommend", cli, &in);
    run.info.classified = classified;
    run.idle = idle_of(&in, r);
    run.info.idle = run.idle;
    recommend_warn(&run);
    rc = recommend_write(&run);
    gp_idle_report_free(run.idle);
    gp_forecast_free(run.sheet_forecast);
    gp_classification_free(classified);
    gp_warnings_clear(&run.info.warnings);
    gp_recommendation_free(r);
    gp_inputs_free(&in);
    return rc;
}

const struct gp_command gp_cmd_recommend = {
    "recommend",
    "which commitments to buy, ranked, with their risk",
    "  --trace F...        usage trace CSV files (default: the bundled "
    "sample)\n"
    "  --pricing P...      catalog files or folders (default: bundled)\n"
    "  --scenario S        scenario JSON: window, policy, owned commitments\n"
    "  --json              the SPEC section 5 document on stdout\n"
    "  --out R.xlsx        the Excel workbook for finance (SPEC section 6)\n"
    "  --csv DIR           recommendations.csv, plans.csv, curves.csv, "
    "idle.csv\n"
    "                      and the plan's hourly, monthly, ... tables in DIR\n"
    "                      (with --forward: header only, nothing billed)\n"
    "  --train-until T     backtest: recommend from the data before T, buy "
    "at T,\n"
    "                      bill the rest and compare with hindsight\n"
    "  --forward D         plan the next D (e.g. 13w) bought against the "
    "demand\n"
    "                      forecast: P50 sized, downside on P10, upside on "
    "P90\n"
    "  --idle-threshold PCT, --idle-min-hours H\n"
    "                      idle GPUs (the JSON's warnings, the workbook's "
    "Idle\n"
    "                      sheet, idle.csv, a terminate_idle_h policy): "
    "gpu_util\n"
    "                      below PCT (default 5) for H hours or more "
    "(default 2)\n"
    "  --runs N, --seed N  Monte Carlo runs and seed for spot (default: "
    "scenario's)\n"
    "  --threads N         threads (default: all cores)\n"
    "  --terms 1|3|1,3     the terms it may buy, in years (default 1,3)\n"
    "  --payment P         no_upfront, partial_upfront, all_upfront or any\n"
    "                      (default any)\n"
    "  --lookback D        size on the last 7d, 30d, 60d... of the window\n"
    "                      (default all)\n"
    "  --instruments L     a comma list of reserved, instance_family_plan,\n"
    "                      compute_plan, routing, capacity (default all)\n"
    "  --spot-confidence P unlabelled usage classified training this sure\n"
    "                      (default 0.9) may go to spot; the rest is\n"
    "                      billed as inference\n"
    GP_USAGE_TRACE_TAIL,
    OPT_TRACE | OPT_PRICING | OPT_SCENARIO | OPT_JSON | OPT_SKIP_BAD |
        OPT_SEED | OPT_TRAIN_UNTIL | OPT_OUT | OPT_CSV | OPT_FORWARD |
        OPT_OUT_XLSX | OPT_IDLE | OPT_SPOT_CONFIDENCE | OPT_CHOICES,
    recommend_exec,
};
