/*
 * cmd_forecast.c: `gpuplan forecast` forecasts every pool's hourly demand
 * per workload over --horizon (default 13 weeks) with P10/P50/P90, prints
 * a table of the methods chosen and their backtest accuracy, or the SPEC
 * section 5 document with --json; --csv DIR writes the points to
 * DIR/forecast.csv; --out R.xlsx writes the workbook (writer_xlsx.c);
 * --train-until T forecasts from the data before T and
 * scores the forecast against what the trace holds after T (hold-out).
 */
#include "classify.h"
#include "cli.h"
#include "progress.h"
#include "forecast.h"
#include "util.h"
#include "writers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_HORIZON_HOURS (13 * 168)

/* A number for the table with `digits` decimals and an optional suffix
 * ("0.53", "81%"), or "-" when undefined. */
static void fmt_ratio(double v, int digits, const char *suffix, char *buf,
                      size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.*f%s", digits, v, suffix);
}

/* The table a planner reads on stdout. */
static void print_table(const gp_inputs *in, const gp_forecast *fc)
{
    char a[32], z[32], name[160], c[6][24];
    gp_format_time(fc->start_hour * 3600, a, sizeof a);
    gp_format_time((fc->start_hour + (int64_t)fc->n_hours) * 3600, z, sizeof z);
    char rows[80];
    gp_cli_rows_note(in->trace, rows, sizeof rows);
    printf("gpuplan forecast: %s to %s (%zu hour%s) from %zu hour%s of "
           "history%s%s\n\n",
           a, z, fc->n_hours, gp_plural(fc->n_hours, "", "s"),
           fc->history_hours, gp_plural(fc->history_hours, "", "s"), rows,
           in->used_sample ? ", bundled sample" : "");
    printf("%-36s %-9s %-12s %8s %8s %6s %7s %7s %10s %10s %10s\n", "pool",
           "workload", "method", "rMAE168", "rMAE24", "MASE", "MAPE%", "cover",
           "P10 mean", "P50 mean", "P90 mean");
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *s = &fc->series[i];
        double m[3] = {0, 0, 0};
        for (size_t k = 0; k < fc->n_hours; k++) {
            m[0] += s->points[k].p10;
            m[1] += s->points[k].p50;
            m[2] += s->points[k].p90;
        }
        gp_trace_pool_name(in->trace, s->pool, name, sizeof name);
        fmt_ratio(s->backtest.relative_mae, 2, "", c[0], sizeof c[0]);
        fmt_ratio(s->backtest.relative_mae_day, 2, "", c[1], sizeof c[1]);
        fmt_ratio(s->backtest.mase, 2, "", c[2], sizeof c[2]);
        fmt_ratio(s->backtest.mape, 1, "", c[3], sizeof c[3]);
        fmt_ratio(100 * s->backtest.coverage, 0, "%", c[4], sizeof c[4]);
        double nh = (double)fc->n_hours;
        printf("%-36s %-9s %-12s %8s %8s %6s %7s %7s %10.2f %10.2f %10.2f\n",
               name, gp_workload_name(s->workload),
               gp_forecast_method_name(s->method), c[0], c[1], c[2], c[3], c[4],
               m[0] / nh, m[1] / nh, m[2] / nh);
    }
    printf("\nbacktest: rolling origins over the history; rMAE168 "
           "and rMAE24 are the\nmethod's MAE over the MAE of the last week "
           "and the last day repeated;\ncover = share of held-out hours "
           "inside P10..P90 (target 80%%).  Demand is\ninstance-hours per "
           "hour.\n");
    bool any = false;
    for (size_t i = 0; i < fc->n_series; i++) {
        const gp_forecast_series *s = &fc->series[i];
        if (!s->has_holdout)
            continue;
        if (!any)
            printf("\nhold-out (the trace after the forecast start):\n"
                   "%-36s %-9s %6s %10s %10s %10s %8s %8s %7s\n",
                   "pool", "workload", "hours", "MAE", "naive168", "naive24",
                   "rMAE168", "rMAE24", "cover");
        any = true;
        gp_trace_pool_name(in->trace, s->pool, name, sizeof name);
        fmt_ratio(s->holdout.relative_mae, 3, "", c[0], sizeof c[0]);
        fmt_ratio(s->holdout.relative_mae_day, 3, "", c[1], sizeof c[1]);
        fmt_ratio(100 * s->holdout.coverage, 0, "%", c[2], sizeof c[2]);
        printf("%-36s %-9s %6zu %10.3f %10.3f %10.3f %8s %8s %7s\n", name,
               gp_workload_name(s->workload), s->holdout.n_points,
               s->holdout.mae, s->holdout_naive_week_mae,
               s->holdout_naive_day_mae, c[0], c[1], c[2]);
    }
    for (size_t i = 0; i < fc->notes.count; i++)
        printf("note: %s\n", fc->notes.items[i]);
}

/* Forecasts the loaded inputs' demand over --horizon with the command
 * line's options.  Returns 0 with *out set, or, having printed why, the
 * exit code: 2 for a usage error, 1 for any other. */
static int run_forecaster(gp_cli *cli, const gp_inputs *in,
                          gp_forecast **out, gp_error *err)
{
    gp_forecast_options opt;
    size_t horizon =
        cli->horizon_hours ? cli->horizon_hours : DEFAULT_HORIZON_HOURS;

    gp_forecast_options_init(&opt);
    opt.progress = GP_CLI_PROGRESS;
    opt.threads = cli->threads;
    opt.train_until = cli->train_until;
    gp_status st =
        gp_forecast_run(in->trace, in->scenario, horizon, &opt, out, err);
    if (st == GP_OK)
        return 0;
    if (st == GP_ERR_USAGE) {
        gp_cli_print_usage_error("forecast", err);
        return 2;
    }
    gp_cli_print_error(err);
    return 1;
}

/* The run's warnings about the forecast's history and horizon, printed
 * and kept in info. */
static void forecast_warn(gp_cli *cli, gp_run_info *info, const gp_inputs *in,
                          const gp_classification *classified,
                          const gp_forecast *fc)
{
    gp_cli_history_gap_warn(cli, info, in->trace, fc->history_start_hour,
                            fc->history_hours);
    gp_cli_classification_warn(cli, classified, info);
    if (!cli->train_until)
        gp_cli_stale_forecast_warn(cli, info, in->trace, fc->start_hour,
                                   fc->n_hours, "the forecast is");
    /* a hold-out's forecast starts at the cut, not at the trace's end */
    gp_warnings fw = {NULL, 0, 0};
    gp_cli_future_trace_warn(
        in->trace, fc->start_hour, cli->train_until ? 0 : fc->n_hours,
        cli->train_until ? "its hours after today are read as history"
                         : "the forecast is",
        &fw);
    gp_cli_warn_now(cli, &fw, info);
}

/* The command: load, forecast, write what was asked for. */
static int forecast_exec(gp_cli *cli)
{
    gp_inputs in;
    gp_forecast *fc = NULL;
    gp_run_info info;
    gp_error err;
    gp_status st = GP_OK;

    /* unlabelled usage is forecast as what it looks like, as recommend
     * --forward plans for it: the scenario's growth is by workload, and
     * would pass it by */
    gp_classification *classified = NULL;
    int rc = gp_cli_load_classified(cli, &in, &classified);
    if (rc != 0)
        return rc;
    gp_error_clear(&err);
    rc = run_forecaster(cli, &in, &fc, &err);
    if (rc != 0) {
        gp_classification_free(classified);
        gp_inputs_free(&in);
        return rc;
    }
    if (cli->csv_dir) {
        gp_file_set set = {0};
        st = gp_csv_write_forecast(&set, cli->csv_dir, fc, in.trace, &err);
        if (st == GP_OK)
            st = gp_file_set_commit(&set, &err);
        gp_file_set_abort(&set);
    }
    if (st != GP_OK) {
        gp_cli_print_error(&err);
        gp_classification_free(classified);
        gp_forecast_free(fc);
        gp_inputs_free(&in);
        return 1;
    }
    gp_cli_run_info(&info, "forecast", cli, &in);
    info.classified = classified;
    forecast_warn(cli, &info, &in, classified, fc);
    if (cli->out &&
        gp_xlsx_write_forecast(cli->out, &info, fc, &err) != GP_OK) {
        gp_cli_print_error(&err);
        rc = 1;
    } else if (cli->json) {
        if (gp_json_forecast_write(fc, &info, classified, stdout, &err) !=
            GP_OK) {
            if (!err.source[0]) /* the document was going to stdout */
                snprintf(err.source, sizeof err.source, "standard output");
            gp_cli_print_error(&err);
            rc = 1;
        }
    } else {
        print_table(&in, fc);
    }
    gp_warnings_clear(&info.warnings);
    gp_classification_free(classified);
    gp_forecast_free(fc);
    gp_inputs_free(&in);
    return rc;
}

const struct gp_command gp_cmd_forecast = {
    "forecast",
    "hourly demand forecast per pool and workload, P10/P50/P90",
    "  --trace F...        usage trace CSV files (default: the bundled "
    "sample)\n"
    "  --pricing P...      catalog files or folders (default: bundled)\n"
    "  --scenario S        scenario JSON: its growth (monthly rate per "
    "workload)\n"
    "                      is applied on top of the forecast\n"
    "  --horizon D         how far ahead: 13w (default), 7d, 168h\n"
    "  --json              the SPEC section 5 document on stdout\n"
    "  --out R.xlsx        the workbook: Summary, Forecast with P10-P90 "
    "charts,\n"
    "                      Inputs\n"
    "  --csv DIR           write DIR/forecast.csv, one row per series and "
    "hour\n"
    "  --train-until T     hold-out: forecast from the data before T and "
    "score\n"
    "                      the forecast against the trace after T\n"
    "  --threads N         threads (default: all cores)\n"
    GP_USAGE_TRACE_TAIL,
    OPT_TRACE | OPT_PRICING | OPT_SCENARIO | OPT_JSON | OPT_CSV | OPT_OUT |
        OPT_SKIP_BAD | OPT_HORIZON | OPT_TRAIN_UNTIL | OPT_OUT_XLSX,
    forecast_exec,
};
