/*
 * cmd_recommend.c: `gpuplan recommend` prints the ranked purchases of the
 * recommended plan, the three plans side by side and how much of the
 * hindsight optimum the plan captures; --json prints the SPEC section 5
 * document; --train-until T backtests: recommend from the data before T,
 * buy at T, bill the rest.
 */
#include "classify.h"
#include "cli.h"
#include "progress.h"
#include "forecast.h"
#include "idle.h"
#include "recommend.h"
#include "report.h"
#include "writers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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
            "count", "breakeven_utilization", "expected_utilization"};
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

static json_t *recommendation_json(const gp_recommendation *r,
                                   const gp_run_info *info)
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
    json_object_set_new(doc, "curves", curves);
    if (r->backtest) {
        char cut[32];
        gp_format_time(r->train_until, cut, sizeof cut);
        json_object_set_new(
            doc, "backtest",
            json_pack(
                "{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
                "train_until", cut, "test_hours", (json_int_t)r->test_hours,
                "policy_cost", gp_json_number_or_null(r->test_policy_cost),
                "plan_cost", gp_json_number_or_null(r->test_plan_cost),
                "plan_net_savings",
                gp_json_number_or_null(r->test_plan_net_savings),
                "hindsight_net_savings",
                gp_json_number_or_null(r->test_hindsight_net_savings),
                "captured_fraction",
                gp_json_number_or_null(r->test_captured_fraction),
                "commitment_net_savings",
                gp_json_number_or_null(r->test_commitment_net_savings),
                "hindsight_commitment_net_savings",
                gp_json_number_or_null(r->test_hindsight_commitment_savings),
                "commitment_captured_fraction",
                gp_json_number_or_null(r->test_commitment_captured_fraction)));
    }
    if (r->forward)
        json_object_set_new(
            doc, "forward",
            json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "horizon",
                      gp_json_window(r->start_hour, r->n_hours),
                      "p50_net_savings",
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
                      gp_json_number_or_null(r->forward_instance_hours[2])));
    json_t *notes = json_array();
    for (size_t i = 0; i < r->notes.count; i++)
        json_array_append_new(notes, json_string(r->notes.items[i]));
    json_object_set_new(doc, "notes", notes);
    json_object_set_new(doc, "inputs", gp_json_inputs(info));
    return doc;
}

/* A captured fraction as "87.5%", or "n/a" when it is undefined (the
 * best purchase saved nothing and this one lost money). */
static void share(char *buf, size_t size, double fraction)
{
    if (isnan(fraction))
        snprintf(buf, size, "n/a (nothing was worth buying)");
    else
        snprintf(buf, size, "%.1f%%", 100 * fraction);
}

static void print_table(const gp_inputs *in, const gp_recommendation *r)
{
    char a[32], z[32], m[6][32], what[160];
    gp_format_time(r->start_hour * 3600, a, sizeof a);
    gp_format_time((r->start_hour + (int64_t)r->n_hours) * 3600, z, sizeof z);
    gp_format_money(r->policy_cost, m[0], sizeof m[0]);
    gp_format_money(r->all_on_demand_cost, m[1], sizeof m[1]);
    printf("gpuplan recommend: %s to %s (%zu hour%s)%s\n", a, z, r->n_hours,
           gp_plural(r->n_hours, "", "s"),
           in->used_sample ? ", bundled sample" : "");
    printf("cost under the scenario's policy: %s (all on demand: %s)\n\n",
           m[0], m[1]);
    printf("%4s  %-52s %13s %9s %9s %13s %12s\n", "rank", "action",
           "net savings", "break-even", "expected", "low demand", "upfront");
    for (size_t i = 0; i < r->n_actions; i++) {
        const gp_action *x = &r->actions[i];
        gp_action_describe(x, what, sizeof what);
        gp_format_money(x->net_savings, m[0], sizeof m[0]);
        gp_format_money(x->downside_net_savings, m[1], sizeof m[1]);
        gp_format_money(x->upfront, m[2], sizeof m[2]);
        if (x->type == GP_ACTION_ROUTING)
            printf("%4d  %-52s %13s %9s %9s %13s %12s\n", x->rank, what,
                   m[0], "-", "-", m[1], "-");
        else
            printf("%4d  %-52s %13s %8.0f%% %8.0f%% %13s %12s\n", x->rank,
                   what, m[0], 100 * x->breakeven_utilization,
                   100 * x->expected_utilization, m[1], m[2]);
        printf("      %s\n", x->reason);
    }
    if (r->n_actions == 0)
        printf("      nothing to buy: no commitment would pay for itself\n");
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
    if (r->backtest) {
        char cut[32];
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

static int recommend_exec(gp_cli *cli)
{
    gp_inputs in;
    gp_recommendation *r = NULL;
    gp_recommend_options opt;
    gp_run_info info;
    gp_error err;
    size_t forward_hours = cli->forward_hours;
    if (forward_hours && cli->train_until) {
        fprintf(stderr, "gpuplan recommend: --forward and --train-until do "
                        "not go together\ntry 'gpuplan recommend --help'\n");
        return 2;
    }
    gp_error_clear(&err);
    if (cli->out && gp_xlsx_check_path(cli->out, &err) != GP_OK) {
        gp_cli_print_error(&err);
        return 1;
    }
    int rc = gp_cli_load_inputs(cli, &in, true, false);

    if (rc != 0)
        return rc;
    gp_error_clear(&err);
    /* unlabelled usage is planned for as what it looks like (classify.h) */
    gp_classification *classified = NULL;
    if (gp_classify_trace(in.trace, false, &classified, &err) != GP_OK) {
        gp_cli_print_error(&err);
        gp_inputs_free(&in);
        return 1;
    }
    gp_recommend_options_init(&opt);
    opt.progress = GP_CLI_PROGRESS;
    opt.forward_hours = forward_hours;
    opt.threads = cli->threads;
    opt.mc_runs = (int)cli->runs;
    opt.mc_seed = cli->seed;
    opt.train_until = cli->train_until;
    gp_status st = gp_recommend(in.trace, in.pricing, in.scenario, &opt, &r,
                                &err);
    if (st != GP_OK) {
        if (st == GP_ERR_USAGE) {
            gp_cli_print_usage_error("recommend", &err);
            gp_classification_free(classified);
            gp_inputs_free(&in);
            return 2;
        }
        gp_cli_print_error(&err);
        gp_classification_free(classified);
        gp_inputs_free(&in);
        return 1;
    }
    gp_cli_run_info(&info, "recommend", cli, &in);
    /* idle GPUs over the hours the plan is judged on, which the workbook
     * shows and the JSON's warnings count: a backtest's or window's own
     * hours (with --train-until, those before the cut), a forward plan's
     * whole trace; an idle report that cannot be made is left out, and
     * the Idle sheet says it was not computed */
    gp_idle_report *idle = NULL;
    gp_error idle_err;
    gp_error_clear(&idle_err);
    if ((!r->forward ? gp_idle_for_hours(in.trace, in.scenario, r->start_hour,
                                         r->n_hours, &idle, &idle_err)
                     : gp_idle_for_run(in.trace, in.scenario, &idle,
                                       &idle_err)) != GP_OK)
        idle = NULL;
    info.idle = idle;
    /* printed as simulate prints its own (--quiet: in the JSON and the
     * workbook only) */
    gp_warnings ww = {NULL, 0, 0};
    estimate_warning(in.trace, &ww);
    spot_estimate_warning(in.trace, in.scenario, r, &ww);
    /* (a forward plan is for the forecast's hours, not the window's) */
    if (!r->forward)
        gp_cli_window_warn(&in, false, &ww);
    /* a trace dated in the future: a forward plan is bought for the
     * forecast from its end (below, with the stale trace's warning) */
    if (!r->forward)
        gp_cli_future_trace_warn(
            in.trace, 0, 0, "its hours after today are billed as history", &ww);
    gp_cli_warn_now(cli, &ww, &info);
    gp_cli_classification_warn(cli, classified, &info);
    if (r->forward) {
        /* the plan is bought on the forecast, which learns from a gap */
        gp_cli_history_gap_warn(cli, &info, in.trace,
                                r->forecast->history_start_hour,
                                r->forecast->history_hours);
        gp_cli_stale_forecast_warn(cli, &info, in.trace,
                                   r->forecast->start_hour,
                                   r->forecast->n_hours, "the plan is bought");
        gp_cli_future_trace_warn(in.trace, r->forecast->start_hour,
                                 r->forecast->n_hours, "the plan is bought",
                                 &ww);
        gp_cli_warn_now(cli, &ww, &info);
    }
    /* the workbook's Forecast sheet; a forecast that cannot be made is
     * warned about with the run's warnings, before the JSON is written */
    gp_forecast *sheet_forecast = NULL;
    gp_progress pr = GP_CLI_PROGRESS;
    if (cli->out) {
        gp_report_forecast(&info, r, &pr, &sheet_forecast, &ww);
        gp_cli_warn_now(cli, &ww, &info);
    }
    gp_cli_show_warnings(&info.warnings);
    if (cli->out || cli->csv_dir) {
        /* the workbook and the CSV tables show the plan billed */
        gp_ledger *pl[2] = {NULL, NULL};
        gp_status wst = gp_recommend_bill_plan(in.trace, in.pricing,
                                               in.scenario, r, cli->threads,
                                               (int)cli->runs, cli->seed,
                                               &pr, pl, &err);
        /* the tables are one set: all of them are written, or none; a
         * forward plan bills no ledger, and its ledger tables are written
         * with their header alone, so that none of an earlier run is left
         * in DIR beside the plan */
        gp_file_set set = {0};
        if (wst == GP_OK && cli->csv_dir)
            wst = gp_csv_write_ledgers(&set, cli->csv_dir, pl, pl[0] ? 2 : 0,
                                       in.trace, &err);
        if (wst == GP_OK && cli->csv_dir)
            wst = gp_csv_write_recommendation(&set, cli->csv_dir, r, &err);
        /* the Idle sheet's spans (a forward plan's too: they are the
         * trace's, not a ledger's); header only when the idle report
         * could not be made and the sheet says so */
        if (wst == GP_OK && cli->csv_dir)
            wst = gp_csv_write_idle(&set, cli->csv_dir, idle, in.trace, &err);
        if (wst == GP_OK && cli->csv_dir)
            wst = gp_file_set_commit(&set, &err);
        gp_file_set_abort(&set);
        if (wst == GP_OK && cli->out)
            wst = gp_xlsx_write_run(cli->out, &info, pl, 2, r, idle,
                                    sheet_forecast, &err);
        gp_ledger_free(pl[0]);
        gp_ledger_free(pl[1]);
        if (wst != GP_OK) {
            gp_cli_print_error(&err);
            rc = 1;
            goto done;
        }
    }
    if (cli->json) {
        json_t *doc = recommendation_json(r, &info);
        json_object_set_new(json_object_get(doc, "inputs"), "classified",
                            gp_json_classification(classified, in.trace));
        rc = gp_json_print(doc);
        json_decref(doc);
    } else {
        print_table(&in, r);
    }
done:
    gp_idle_report_free(idle);
    gp_forecast_free(sheet_forecast);
    gp_classification_free(classified);
    gp_warnings_clear(&info.warnings);
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
    "  --layout jobs, --map name=column, --step S, --region R\n"
    "                      trace options, as for validate\n"
    "  --skip-bad, --rejects FILE\n"
    "                      set bad rows aside instead of stopping\n"
    "  --quiet             no progress, notes or warnings on stderr\n",
    OPT_TRACE | OPT_PRICING | OPT_SCENARIO | OPT_JSON | OPT_SKIP_BAD |
        OPT_SEED | OPT_TRAIN_UNTIL | OPT_OUT | OPT_CSV | OPT_FORWARD |
        OPT_OUT_XLSX | OPT_IDLE,
    recommend_exec,
};
