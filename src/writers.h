/*
 * writers.h: the output side: a run's inputs and ledgers written as JSON
 * (SPEC section 5), CSV tables, and terminal text.  Internal to the
 * program; jansson appears here and in no public header.
 */
#ifndef GP_WRITERS_H
#define GP_WRITERS_H

#include "engine.h"
#include "gpuplan.h"
#include "util.h"

#include <jansson.h>
#include <stdio.h>

/* What a report says about where its numbers came from. */
typedef struct gp_run_info {
    const char *command;
    /* how the report names a run parameter (gpuplan.h, gp_param) in its
     * text: the program's option for it; NULL: its bare name */
    const char *(*show_param)(const char *name, void *ctx);
    const gp_pricing *pricing;
    const gp_scenario *scenario;
    const gp_trace *trace;
    bool used_sample;
    /* epoch seconds the run takes for now (the command's clock or the
     * date it was given): how stale a forecast is; 0 unknown */
    int64_t today;
    gp_warnings warnings; /* owned: pricing warnings plus the run's own */
    /* the first n_load_warnings of them were printed as the inputs
     * loaded (the catalogs' and scenario's, the rows set aside as bad) */
    size_t n_load_warnings;
    /* the run parameters that change the numbers, as given (the Inputs
     * sheet lists them): 0 or false when not given */
    int64_t train_until;  /* the backtest's cut, epoch seconds */
    size_t forward_hours; /* a forward plan's hours */
    size_t horizon_hours; /* the forecast's hours */
    long runs, seed;      /* Monte Carlo, when runs_given, seed_given */
    bool runs_given, seed_given;
    bool skip_bad;   /* bad rows were set aside */
    bool step_given; /* trace_opt.default_step_s was given */
    /* trace_opt.idle_threshold_pct, idle_min_hours were given */
    bool idle_threshold_given, idle_min_hours_given;
    gp_trace_options trace_opt; /* layout, step, region, map */
    /* the idle spans the run reports (simulate's, a recommendation's
     * window), or NULL: gp_usage_warnings says how many */
    const struct gp_idle_report *idle;
    /* what classification decided of the trace's unlabelled usage (the
     * Inputs sheet lists it), or NULL */
    const struct gp_classification *classified;
    /* the scenario's purchase policies replayed (the Policies sheet), or
     * NULL */
    const struct gp_policy_result *policies;
    size_t n_policies;
    /* the scenario's budgets against each ledger, in the ledgers' order
     * (the Budgets sheet), or NULL */
    const struct gp_budget_report *budgets;
    /* recommend's workbook: the scenario's strategies billed (baseline
     * first), which Plans and Summary show beside the plans; NULL: none */
    gp_ledger *const *strategies;
    size_t n_strategies;
} gp_run_info;

/* A strategy's per-job-run table (writer_json_jobs.c): its spot runs,
 * then its on-demand ones; a new array. */
json_t *gp_json_job_runs(const gp_ledger *l, const gp_trace *t);

/* Text from the library with its run parameters shown as info says
 * (gp_param_expand with info->show_param), into buf. */
void gp_run_info_text(const gp_run_info *info, const char *text, char *buf,
                      size_t size);

/* Adds to w what the usage itself warns of, ahead of the run's warnings
 * in the JSON's inputs.warnings and the workbook's Summary: instance-hours
 * that are unlabelled (none once gp_classify_trace has run, as the
 * commands run it), and idle spans (`idle`, may be NULL). */
void gp_usage_warnings(const gp_trace *t, const struct gp_idle_report *idle,
                       gp_warnings *w);

/* Adds to info->warnings what the ledgers used (estimated rates, spot
 * above on-demand); gp_cli_run_info put the pricing's there already. */
void gp_run_info_warn(gp_run_info *info, gp_ledger *const *ledgers,
                      size_t n);

/* Adds to w that the spot price or interruption rate of a type is an
 * estimate, for each type whose catalog says so and that strategy sg
 * launches on spot: a series of it is routed to spot (gp_route_of) and
 * hours[i], that series' instance-hours billed, is above 0.  Types only on
 * demand are not named: their spot figures are in no number. */
void gp_spot_estimate_warn(gp_warnings *w, const gp_trace *t,
                           const gp_strategy *sg, const double *hours);

/* A number, or null when it is not a number (utilization with nothing
 * bought, cost per useful GPU-hour without utilization data). */
json_t *gp_json_number_or_null(double v);

/* {"start", "end", "hours"} of a ledger's window. */
json_t *gp_json_window(int64_t start_hour, size_t n_hours);

/* A commitment: type, provider, region, instance_type and count, or kind
 * (family) and hourly_commitment, then term_years, payment, start. */
json_t *gp_json_commitment(const gp_commitment *c);

/* One strategy as SPEC section 5 names its keys, plus months and
 * commitments. */
json_t *gp_json_ledger(const gp_ledger *l, const gp_trace *t);
/* Adds to strategy object s what its levers did (`levers`,
 * `stranded_commitment_cost`, `stranded_instance_hours`), when it pulled
 * any (writer_json_levers.c). */
void gp_json_levers(json_t *s, const gp_ledger_levers *v);

/* One workload's policy: its launch and, only when it launches on spot,
 * the settings that then matter (checkpoint, restart, interruptions,
 * deadline, fallback), in the scenario's keys; terminate_idle_h when set
 * (it applies to either launch). */
json_t *gp_json_policy(const gp_policy *p);

/* A policy as one line of text, in the same parts as gp_json_policy:
 * "on demand", or "spot; checkpoint every 1 h (cost 0.05 h); ...". */
void gp_policy_describe(const gp_policy *p, char *buf, size_t size);

/* The inputs block: catalogs, scenario, each strategy's policies, trace
 * statistics, warnings. */
json_t *gp_json_inputs(const gp_run_info *info);

/* The CSV tables: hourly.csv, monthly.csv, spot_jobs.csv, chargeback.csv (by
 * series), chargeback_summary.csv (by team, project, workload) and
 * commitments.csv, added to `set` (created DIR first), to be renamed into
 * place with the set's other files or none (gp_file_set_commit).  With n
 * 0 each table is its header alone. */
gp_status gp_csv_write_ledgers(gp_file_set *set, const char *dir,
                               gp_ledger *const *ledgers, size_t n,
                               const gp_trace *t, gp_error *err);

/* ---- recommend's and forecast's JSON (writer_json.c) -------------------- */

struct gp_recommendation;
struct gp_forecast;
struct gp_classification;

/* recommend's JSON: the document of recommendation r
 * (window, baseline, actions, plan, hindsight, plans, curves, backtest or
 * forward when r has one, notes, inputs), with `classified`, what
 * gp_classify_trace decided of info->trace, in its inputs.  A new
 * reference. */
json_t *gp_json_recommendation(const struct gp_recommendation *r,
                               const gp_run_info *info,
                               const struct gp_classification *classified);

/* recommend's capacity actions, one per priced job run of r, appended to
 * `actions` after r's other actions (writer_json_capacity.c). */
void gp_json_capacity_actions(json_t *actions,
                              const struct gp_recommendation *r,
                              const gp_trace *t);

/* A ledger's job runs on capacity instruments: {"runs": [...],
 * "runs_on_demand"} (writer_json_capacity.c). */
json_t *gp_json_capacity_runs(const gp_ledger *l, const gp_trace *t);

/* Warns of the usage strategy sg launches on a capacity instrument that
 * ledger l left on demand (writer_json_capacity.c). */
void gp_capacity_left_warn(gp_run_info *info, const gp_ledger *l,
                           const gp_strategy *sg);

struct gp_idle_report;

/* classify's JSON: {"classified": gp_json_classification(c, t)}.  A new
 * reference. */
json_t *gp_json_classify(const struct gp_classification *c, const gp_trace *t);

/* simulate's JSON: the document of the n ledgers (one per strategy, the
 * baseline first) of info->trace: window, strategies, idle (`idle`, the
 * spans over the ledgers' hours), inputs with `classified` as
 * gp_json_recommendation has it.  A new reference. */
/* simulate's "policies": each purchase policy's replay (SPEC 7.3). */
struct gp_policy_result;
json_t *gp_json_policies(const struct gp_policy_result *r, size_t n);

/* A strategy's "budgets" (SPEC 7.5): [{"team" or "project", "month",
 * "budget", "spent", "over"}]; and its "budget_forecast": [{"team" or
 * "project", "budget", "crosses_in" (a month or null), "projected"}]
 * (writer_json_budgets.c).  New references. */
struct gp_budget_report;
json_t *gp_json_budgets(const struct gp_budget_report *r,
                        const gp_scenario *s);
json_t *gp_json_budget_forecast(const struct gp_budget_report *r,
                                const gp_scenario *s);
/* DIR/budgets.csv: every strategy's budgets month by month, with the
 * month a forecast says each is crossed (reports[i] by ledger). */
gp_status gp_csv_write_budgets(gp_file_set *set, const char *dir,
                               gp_ledger *const *ledgers,
                               const struct gp_budget_report *reports,
                               size_t n, const gp_scenario *s,
                               gp_error *err);

json_t *gp_json_simulation(gp_ledger *const *ledgers, size_t n,
                           const struct gp_idle_report *idle,
                           const gp_run_info *info,
                           const struct gp_classification *classified);

/* forecast's JSON: the document of forecast fc of
 * info->trace (horizon, history, each series with its accuracy and
 * points, notes, inputs), with `classified` in its inputs as
 * gp_json_recommendation has it.  A new reference. */
json_t *gp_json_forecast(const struct gp_forecast *fc, const gp_run_info *info,
                         const struct gp_classification *classified);

/* The same document written to f as it is made, one series at a time, so
 * that only one series' JSON is in memory (the whole of 1,000 series x 13
 * weeks was 210 MB of text and 2.26 GB of tree); the bytes are those of
 * gp_json_print(gp_json_forecast(...)).  A failure part-way leaves the
 * document cut short. */
gp_status gp_json_forecast_write(const struct gp_forecast *fc,
                                 const gp_run_info *info,
                                 const struct gp_classification *classified,
                                 FILE *f, gp_error *err);

/* ---- classification (classify.h) ---------------------------------------- */

struct gp_classification;

/* The "classified" block of the JSON inputs: counts and instance-hours by
 * label, and per decided series its pool, team, project, label,
 * confidence and features.  A new reference. */
json_t *gp_json_classification(const struct gp_classification *c,
                               const gp_trace *t);

/* ---- idle GPUs (idle.h) -------------------------------------------------- */

struct gp_idle_report;

/* simulate's JSON "idle": {"threshold_pct", "min_hours", "spans_count",
 * "hours", "gpu_hours", "instance_hours", "cost", "gpu_hours_with_util",
 * "spans": [{"label", "job_id", "provider", "region", "instance_type",
 * "workload", "team", "project", "start", "end", "hours",
 * "mean_util_pct", "gpu_hours", "instance_hours", "cost"}]}. */
json_t *gp_json_idle(const struct gp_idle_report *r, const gp_trace *t);

/* The CSV tables: idle.csv, one row per idle span (the keys of gp_json_idle's
 * spans), added to `set` as gp_csv_write_ledgers does; with r NULL (not
 * computed) its header alone. */
/* DIR/policies.csv: each replayed purchase policy by month, then its
 * whole window. */
gp_status gp_csv_write_policies(gp_file_set *set, const char *dir,
                                const struct gp_policy_result *r, size_t n,
                                gp_error *err);

gp_status gp_csv_write_idle(gp_file_set *set, const char *dir,
                            const struct gp_idle_report *r, const gp_trace *t,
                            gp_error *err);

struct gp_forecast;

/* forecast's CSV table: forecast.csv, one row per series and hour
 * (provider, region, instance_type, workload, method, t, p10, p50, p90),
 * added to `set` as gp_csv_write_ledgers does. */
gp_status gp_csv_write_forecast(gp_file_set *set, const char *dir,
                                const struct gp_forecast *fc,
                                const gp_trace *t, gp_error *err);

/* ---- the Excel workbook (writer_xlsx*.c, SPEC section 6) ---------------- */

struct gp_recommendation;
struct gp_idle_report;

/*
 * Everything a workbook can show; every part but `info` may be missing
 * (NULL or zero), and a sheet whose part is missing says "not computed in
 * this run" instead of showing numbers.  All of it is borrowed.
 *   simulate:  ledgers = one per strategy, current = 0 (the baseline)
 *   recommend: ledgers = gp_recommend_bill_plan()'s two, rec set
 *   forecast:  forecast set, no ledgers (Summary, Forecast, Inputs)
 */
typedef struct gp_report {
    const gp_run_info *info;
    gp_ledger *const *ledgers;
    size_t n_ledgers;
    size_t current;  /* the ledger the headline calls current */
    size_t proposed; /* ... and the one it calls the plan */
    const struct gp_recommendation *rec;
    const struct gp_forecast *forecast;
    bool forecast_failed; /* a run's forecast could not be made (warned) */
    const struct gp_idle_report *idle;
} gp_report;

/* Checks, before a long run, that a workbook can be written at `path`:
 * the name ends in .xlsx, it is not a folder, and its folder takes a new
 * file.  The same checks gp_xlsx_write makes, so a mistake costs no run. */
gp_status gp_xlsx_check_path(const char *path, gp_error *err);

/* Writes the workbook to `path` (which must end in .xlsx) through a
 * temporary file in the same folder, renamed into place only when whole.
 * The workbook's created date is the data window's end, so the same run
 * writes the same bytes. */
gp_status gp_xlsx_write(const char *path, const gp_report *r, gp_error *err);

/* gp_xlsx_write, but with set not NULL the finished workbook joins the set
 * (gp_file_set_add) instead of being renamed, so that it and the run's CSV
 * tables are renamed into place together at the end. */
gp_status gp_xlsx_write_into(gp_file_set *set, const char *path,
                             const gp_report *r, gp_error *err);

/* Whether `path` names a workbook: a file name (after the last '/')
 * with something before ".xlsx", in any case ("R.XLSX"). */
bool gp_xlsx_name_ok(const char *path);


/* The workbook of a simulate or recommend run: gp_xlsx_write with the
 * run's idle GPUs over the hours the ledgers bill (`idle`; NULL: not
 * computed, and the Idle sheet says so) and the
 * forecast gp_report_forecast made (`forecast`; rec's own when it has
 * one; NULL when it could not be made, and the Forecast sheet says so).
 * The headline's plan is the cheapest ledger; its current one is
 * ledger 0.  With set not NULL the workbook joins it (gp_xlsx_write_into).
 */
gp_status gp_xlsx_write_run(gp_file_set *set, const char *path,
                            const gp_run_info *info,
                            gp_ledger *const *ledgers, size_t n,
                            const struct gp_recommendation *rec,
                            const struct gp_idle_report *idle,
                            const struct gp_forecast *forecast, gp_error *err);

/* The forecast command's workbook: Summary with
 * the horizon's demand, Forecast with the P10-P90 band charts, Inputs. */
gp_status gp_xlsx_write_forecast(const char *path, const gp_run_info *info,
                                 const struct gp_forecast *forecast,
                                 gp_error *err);


/* recommend's CSV tables: recommendations.csv, plans.csv and curves.csv,
 * added to `set` as gp_csv_write_ledgers does. */
gp_status gp_csv_write_recommendation(gp_file_set *set, const char *dir,
                                      const struct gp_recommendation *rec,
                                      gp_error *err);

#endif
