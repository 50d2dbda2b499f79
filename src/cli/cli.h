/*
 * cli.h: what the command files share: the command table entry, the
 * options every command reads, and loading the inputs (catalogs, scenario,
 * traces) with errors printed the one way users see them.
 */
#ifndef GP_CLI_H
#define GP_CLI_H

#include "gpuplan.h"
#include "inputs.h"
#include "synth.h"
#include "util.h"

#include <jansson.h>

#include <stdarg.h>
#include <stdio.h>

/* Options a command accepts, as a bit mask in its table entry. */
enum {
    /* --trace, --layout, --map, --step, --region, --provider,
     * --instance-type */
    OPT_TRACE = 1 << 0,
    OPT_PRICING = 1 << 1,  /* --pricing */
    OPT_SCENARIO = 1 << 2, /* --scenario */
    OPT_OUT = 1 << 3,      /* --out */
    OPT_JSON = 1 << 4,     /* --json */
    OPT_CSV = 1 << 5,      /* --csv DIR */
    OPT_SKIP_BAD = 1 << 6, /* --skip-bad, --rejects */
    OPT_HORIZON = 1 << 7,  /* --horizon */
    OPT_FORWARD = 1 << 8,  /* --forward */
    OPT_RELABEL = 1 << 9,  /* --relabel */
    OPT_SEED = 1 << 10,    /* --seed, --runs, --threads */
    /* not an option: --trace is required (the command has no bundled
     * sample to fall back on), checked when the options are parsed */
    OPT_NEEDS_TRACE = 1 << 11,
    OPT_TRAIN_UNTIL = 1 << 12, /* --train-until */
    /* import: --provider, --instance-type, --time (and --region, --step) */
    OPT_IMPORT = 1 << 13,
    /* not an option: --out is the Excel workbook, so a name not ending in
     * .xlsx is a usage error, checked when the options are parsed */
    OPT_OUT_XLSX = 1 << 14,
    /* --idle-threshold, --idle-min-hours: read with the trace, but only
     * for the commands whose output shows idle GPUs (simulate, recommend) */
    OPT_IDLE = 1 << 15,
    /* --spot-confidence: how sure a classification must be to send usage
     * to spot (the commands that bill it) */
    OPT_SPOT_CONFIDENCE = 1 << 16,
    OPT_EXPLAIN = 1 << 17, /* --explain: classify's evidence terms */
    /* --terms, --payment, --lookback, --instruments: what recommend may
     * buy, as the clouds' recommenders ask */
    OPT_CHOICES = 1 << 18,
    /* --years, --growth, --decline, --migrate, and --step as a step
     * change DATE:FACTOR (synth) */
    OPT_SYNTH = 1 << 19,
    /* --spot-events: recorded interruptions for the job-run table */
    OPT_SPOT_EVENTS = 1 << 20
};

typedef struct gp_cli {
    const char *traces[64];
    size_t n_traces;
    const char *pricing[16];
    size_t n_pricing;
    const char *scenario;
    const char *out;
    const char *csv_dir;
    const char *rejects;
    size_t horizon_hours; /* --horizon, whole hours; 0: not given */
    size_t forward_hours; /* --forward, whole hours; 0: not given */
    int64_t train_until; /* --train-until, epoch seconds; 0: not given */
    /* import: --provider, --instance-type, --time; --step given */
    const char *provider, *instance_type, *time;
    const char *commitments_out; /* import focus/aws-cur: owned commitments */
    const char *spot_events;     /* simulate: recorded interruptions */
    bool step_given;
    /* --idle-threshold, --idle-min-hours given (trace_opt holds them) */
    bool idle_threshold_given, idle_min_hours_given;
    /* --region, read in lower case (trace_opt.region points here) */
    char region[GP_CATALOG_MAX_REGION + 1];
    bool json, quiet, skip_bad, relabel, explain;
    double spot_confidence; /* --spot-confidence, GP_SPOT_CONFIDENCE */
    /* --terms, --payment, --instruments (gp_recommend_options' bits) and
     * --lookback (hours, 0: all) */
    unsigned terms, payments, instruments;
    size_t lookback_hours;
    /* synth: its options, the migration's type names kept here */
    gp_synth_options synth;
    char migrate_from[64], migrate_to[64];
    long seed, runs;
    int threads;
    gp_trace_options trace_opt;
    char *map_storage[32];
    /* positional arguments left over (for import) */
    char **args;
    int n_args;
} gp_cli;

/* The last lines of the usage of the commands that read a trace and run
 * on it (simulate, recommend, forecast): written once, so that the three
 * --help texts and man pages say the same. */
#define GP_USAGE_TRACE_TAIL                                                    \
    "  --layout jobs, --map name=column, --step S, --region R,\n"             \
    "  --provider P, --instance-type T\n"                                     \
    "                      trace options, as for validate\n"                  \
    "  --skip-bad, --rejects FILE\n"                                          \
    "                      set bad rows aside instead of stopping\n"          \
    "  --quiet             no progress, notes or warnings on stderr\n"

struct gp_command {
    const char *name;
    const char *summary; /* one line for gpuplan --help */
    const char *usage;   /* the synopsis and options, for <cmd> --help */
    unsigned options;
    int (*exec)(gp_cli *cli);
};

/* What simulate, recommend and forecast do first: check that --out can be
 * written, load the inputs (the bundled sample without --trace), and
 * classify unlabelled usage, which they bill, plan and forecast as what it
 * looks like (classify.h).  Returns an exit status: 0, or 1 or 2 after
 * printing the error (then nothing is left to free). */
struct gp_classification;
struct gp_classify_options;
struct gp_policy_result;
/* simulate's per-job-run table (print_jobs.c). */
struct gp_ledger;
void gp_cli_print_job_runs(const gp_trace *t, struct gp_ledger *const *l,
                           size_t n);

/* simulate's table of replayed purchase policies (print_policies.c). */
void gp_cli_print_policies(const struct gp_policy_result *r, size_t n);
/* simulate's table of budgets by month and strategy (print_budgets.c). */
struct gp_budget_report;
struct gp_ledger;
void gp_cli_print_budgets(struct gp_ledger *const *l,
                          const struct gp_budget_report *r, size_t n,
                          const gp_scenario *s);
/* The classification options the command line and the scenario give. */
void gp_cli_classify_options(const gp_cli *cli, const gp_inputs *in,
                             struct gp_classify_options *o);
/* Works out what confirming the held-back verdicts is worth (their
 * note in the classification warning); failures leave it unknown. */
void gp_cli_classification_worth(const gp_cli *cli, const gp_inputs *in,
                                 struct gp_classification *c);
int gp_cli_load_classified(const gp_cli *cli, gp_inputs *in,
                           struct gp_classification **classified);

/* Parses argv for `cmd`.  Returns 0, or 2 after printing a usage error, or
 * -1 when --help was printed.  An option that takes a value must get one:
 * "--trace=" and "--trace --skip-bad" are usage errors. */
int gp_cli_parse(const struct gp_command *cmd, int argc, char **argv,
                 gp_cli *cli);
/* Frees what gp_cli_parse allocated in *cli (not cli itself); NULL is a
 * no-op. */
void gp_cli_free(gp_cli *cli);
/* How the program shows run parameter `name` (gpuplan.h, gp_param): as
 * its option ("--horizon"), or the bare name when no option sets it.  The
 * text lasts until the next call.  A show function for gp_param_expand. */
const char *gp_cli_option_of(const char *name, void *ctx);
/* Text from the library with its run parameters shown as options, into
 * buf (gp_param_expand with gp_cli_option_of). */
void gp_cli_text(const char *text, char *buf, size_t size);

/* "usage: gpuplan <command>" and the command's usage text, to f. */
void gp_cli_print_usage(const struct gp_command *cmd, FILE *f);

/* Loads catalogs, scenario and traces (gp_inputs_load).
 * `sample_default`: with no --trace, read the bundled sample (and its
 * scenario unless --scenario is given).  `report_all`: keep reading after
 * a bad row and print every problem (validate).  Returns an exit status:
 * 0, or 1 after printing the error (then `in` is already freed).  With
 * --skip-bad the rejects file is in place once every trace was read, even
 * if the trace then fails. */
int gp_cli_load_inputs(const gp_cli *cli, gp_inputs *in, bool sample_default,
                       bool report_all);

/* Starts the report's account of a run's inputs: command, catalogs,
 * scenario, trace, the options given that change the numbers, and the
 * catalogs' warnings (struct gp_run_info is in writers.h; free its
 * warnings with gp_warnings_clear). */
struct gp_run_info;
void gp_cli_run_info(struct gp_run_info *info, const char *command,
                     const gp_cli *cli, const gp_inputs *in);

/* The trace's rows as a report's first line counts them: "4 rows", or
 * with rows set aside (--skip-bad) those in the numbers and the rest, "2
 * rows kept, 2 rejected", into buf. */
void gp_cli_rows_text(const gp_trace *t, char *buf, size_t size);
/* ", 2 rows kept, 2 rejected" when rows were set aside, else "": for a
 * first line that counts no rows otherwise. */
void gp_cli_rows_note(const gp_trace *t, char *buf, size_t size);

/* Whether paths a and b name one existing file, so that writing one would
 * replace the other ("-", standard input or output, names none). */
bool gp_cli_same_file(const char *a, const char *b);

/* Which input an output at `path` would replace: "the trace", "the
 * catalog" or "the scenario" (--trace, --pricing, --scenario), or NULL. */
const char *gp_cli_input_named(const gp_cli *cli, const char *path);

/* Where --skip-bad writes the rejected rows: --rejects, else
 * gpuplan-rejects.csv. */
const char *gp_cli_rejects_path(const gp_cli *cli);

/* Prints a usage error the library found in a run's parameters: "gpuplan
 * <command>: --option message" and where to find help. */
void gp_cli_print_usage_error(const char *command, const gp_error *err);
/* Names the command being run (main, once it is known), which every
 * message starts with. */
void gp_cli_set_command(const char *name);
/* What every message starts with: "gpuplan <command>:", or "gpuplan:"
 * before a command is known.  The text lasts until the next call. */
const char *gp_cli_prefix(void);
/* Prints err the way users see errors: "gpuplan <command>:
 * file:line:column: field: msg". */
void gp_cli_print_error(const gp_error *err);
/* gp_json_write of a command's --json document to stdout; on failure says
 * why on stderr.  The exit status: 0 or 1. */
int gp_json_print(json_t *doc);
/* "gpuplan <command>: warning: ..." lines on stderr, with run parameters shown as
 * options: every warning of w, or those from index `first` on. */
void gp_cli_print_warnings(const gp_warnings *w);
void gp_cli_print_warnings_from(const gp_warnings *w, size_t first);

/* Prints the warnings in *w now unless --quiet, moves them to info's and
 * clears *w. */
void gp_cli_warn_now(const gp_cli *cli, gp_warnings *w,
                     struct gp_run_info *info);

/* Adds the warnings of a classification of unlabelled usage to info's,
 * and prints them now unless --quiet. */
struct gp_classification;
void gp_cli_classification_warn(const gp_cli *cli,
                                const struct gp_classification *c,
                                struct gp_run_info *info);

/* Adds warnings to *out when the window (the scenario's, else the trace's
 * span) holds none of the trace's usage, or starts before the trace's
 * first row or ends after its last hour (hours with no demand), or holds
 * more than a week in a row with no demand in any pool, for each
 * commitment (owned, or with `strategies` one a strategy adds) active at
 * no time in it, and for each savings plan among them that covers no pool
 * of the trace: a mistyped year, family or region would otherwise bill
 * commitments for nothing without a word. */
void gp_cli_window_warn(const gp_inputs *in, bool strategies, gp_warnings *out);

/* A forecast's history, the trace's hours [start_hour, start_hour +
 * n_hours), that holds more than a week in a row with no demand in any
 * pool (from its first hour with demand): the warning
 * gp_cli_window_warn gives, saying the forecast takes those hours for
 * demand, added to info's warnings and printed unless --quiet. */
void gp_cli_history_gap_warn(const gp_cli *cli, struct gp_run_info *info,
                             const gp_trace *t, int64_t start_hour,
                             size_t n_hours);

/* A forecast from the end of a stale trace t (its forecast starts on a
 * date over 30 days before today's, gp_cli_today): a warning that says when
 * the trace ends and which period is forecast, `what` ("the forecast is" or
 * "the plan is bought"), located at the row that ends last (t->end_row) as
 * gp_cli_future_trace_warn's, added to info's warnings and printed unless
 * --quiet. */
void gp_cli_stale_forecast_warn(const gp_cli *cli, struct gp_run_info *info,
                                const gp_trace *t, int64_t start_hour,
                                size_t n_hours, const char *what);

/* A trace dated in the future: when its last row ends more than an hour
 * after now (gp_cli_today; the hour allows for a clock skew and a row of
 * the hour under way), a warning into `out` that says when it ends and
 * what follows: with fc_hours > 0, `what` ("the forecast is" or "the plan
 * is bought") for the forecast's hours from fc_start_hour; else `what` is
 * the whole consequence ("its hours after today are billed as history").
 * Such a trace is a clock or time-zone error, or a converted one.  The
 * warning starts with the row that ends last (t->end_row), as
 * "trace.csv:505:1: timestamp: ". */
void gp_cli_future_trace_warn(const gp_trace *t, int64_t fc_start_hour,
                              size_t fc_hours, const char *what,
                              gp_warnings *out);

/* Folder of the bundled pricing/ and scenarios/: GPUPLAN_DATA_DIR, else
 * share/gpuplan beside an installed program (prefix/bin/gpuplan), else the
 * checkout a program built inside it sits in, else the source tree it was
 * built from. */
const char *gp_cli_data_dir(void);
/* Today as epoch seconds (GPUPLAN_TODAY=YYYY-MM-DD pins it for tests). */
int64_t gp_cli_today(void);

/* The commands, in the order --help lists them; NULL after the last. */
extern const struct gp_command *const gp_commands[];
/* The overview `gpuplan --help` prints: version, commands, exit status. */
void gp_cli_print_help(FILE *f);

extern const struct gp_command gp_cmd_validate;
extern const struct gp_command gp_cmd_simulate;
extern const struct gp_command gp_cmd_recommend;
extern const struct gp_command gp_cmd_forecast;
extern const struct gp_command gp_cmd_classify;
extern const struct gp_command gp_cmd_import;
extern const struct gp_command gp_cmd_synth;

/* A usage error for command cmd: "gpuplan <cmd>: <message>" and the --help
 * hint on stderr; returns 2 (options.c). */
int gp_cli_option_verror(const struct gp_command *cmd, const char *fmt,
                         va_list ap);

/* synth's option readers (options_synth.c): 0, or 2 after a usage error. */
int gp_cli_read_years(const struct gp_command *cmd, gp_cli *cli,
                      const char *value);
int gp_cli_read_growth(const struct gp_command *cmd, gp_cli *cli,
                       const char *value);
int gp_cli_read_decline(const struct gp_command *cmd, gp_cli *cli,
                        const char *value);
int gp_cli_read_step(const struct gp_command *cmd, gp_cli *cli,
                     const char *value);
int gp_cli_read_migrate(const struct gp_command *cmd, gp_cli *cli,
                        const char *value);

#endif
