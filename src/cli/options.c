/*
 * options.c: the command line's options, one table entry each with the
 * function that reads its value into gp_cli.  Options are "--name value"
 * or "--name=value"; --trace and --pricing take several values and may
 * repeat, as may --map; any other option given twice is a usage error.  A
 * command accepts only the options its table entry names (exit 2).
 */
#include "cli.h"
#include "classify.h"
#include "recommend.h"
#include "synth.h"
#include "json_util.h"
#include "progress.h"
#include "writers.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The longest --step the options take, in seconds: 366 days. */
#define MAX_STEP_S 31622400.0

/* Reads an option's value into cli: 0, or 2 after a usage error. */
typedef int (*opt_read)(const struct gp_command *cmd, gp_cli *cli,
                        const char *value);

struct opt_def {
    const char *name;
    unsigned group;
    bool takes_value;
    bool repeats; /* may be given more than once (each adds a value) */
    opt_read read;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int usage_error(const struct gp_command *cmd, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    int rc = gp_cli_option_verror(cmd, fmt, ap);
    va_end(ap);
    return rc;
}

int gp_cli_option_verror(const struct gp_command *cmd, const char *fmt,
                         va_list ap)
{
    fprintf(stderr, "gpuplan %s: ", cmd->name);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\ntry 'gpuplan %s --help'\n", cmd->name);
    return 2;
}

/* Whether gp_parse_time refused a well-formed time for its range, which
 * the usage error then gives: "9999-12-31T22:00:00-05:00" reads as a time
 * of 9999 but is one of 10000 in UTC. */
static bool range_why(const char *why)
{
    return strncmp(why, GP_TIME_OUT_OF_RANGE,
                   sizeof GP_TIME_OUT_OF_RANGE - 1) == 0;
}

/* A duration option in whole hours, 1 h to 5 years (as 13w, 7d, 168h;
 * `like` gives examples for the message): stores it in *out, or prints
 * the usage error and returns 2. */
static int whole_hours(const struct gp_command *cmd, const char *option,
                       const char *like, const char *text, size_t *out)
{
    double h;
    if (!gp_parse_duration_hours(text, &h))
        return usage_error(cmd, "%s takes a duration like %s, got \"%s\"",
                           option, like, text);
    if (h < 1 || h > 5 * 8784 || fabs(h - round(h)) > 1e-9)
        return usage_error(cmd,
                           "%s takes whole hours from 1h to 5 years, got "
                           "\"%s\"",
                           option, text);
    *out = (size_t)round(h);
    return 0;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* "-" names standard input (--trace, import's files); no command writes
 * standard output through an option, so for --out, --csv, --rejects and
 * --commitments-out it would be a file (or folder) named "-". */
static int not_stdout(const struct gp_command *cmd, const char *name,
                      const char *value)
{
    if (strcmp(value, "-") != 0)
        return 0;
    return usage_error(cmd,
                       "--%s -: no option writes to standard "
                       "output; give a %s name (./- for one named "
                       "\"-\")",
                       name, strcmp(name, "csv") == 0 ? "folder" : "file");
}

static int read_layout(const struct gp_command *cmd, gp_cli *cli,
                       const char *value)
{
    if (strcmp(value, "samples") == 0)
        cli->trace_opt.layout = GP_LAYOUT_SAMPLES;
    else if (strcmp(value, "jobs") == 0)
        cli->trace_opt.layout = GP_LAYOUT_JOBS;
    else
        return usage_error(cmd, "--layout takes samples or jobs, not \"%s\"",
                           value);
    return 0;
}

/* The index of trace column value[0, len), or the count of columns. */
static size_t trace_column(const char *value, size_t len)
{
    size_t c = 0;
    while (gp_trace_column_name(c) &&
           !(strlen(gp_trace_column_name(c)) == len &&
             strncmp(gp_trace_column_name(c), value, len) == 0))
        c++;
    return c;
}

/* --map name=column: the name is a trace column, once: a typo or a second
 * mapping would otherwise be ignored without a word. */
static int read_map(const struct gp_command *cmd, gp_cli *cli,
                    const char *value)
{
    const char *sep = strchr(value, '=');
    size_t k = cli->trace_opt.n_map;
    if (!sep || sep == value || !sep[1])
        return usage_error(cmd, "--map takes name=column, got \"%s\"", value);
    size_t name_len = (size_t)(sep - value), c = trace_column(value, name_len);
    if (!gp_trace_column_name(c)) {
        char names[256] = "";
        for (size_t j = 0; gp_trace_column_name(j); j++)
            snprintf(names + strlen(names), sizeof names - strlen(names),
                     "%s%s", j ? ", " : "", gp_trace_column_name(j));
        return usage_error(cmd, "--map: \"%.*s\" is not a trace column (%s)",
                           (int)name_len, value, names);
    }
    const char *column = gp_trace_column_name(c);
    if (gp_trace_mapped_column(&cli->trace_opt, column) != column)
        return usage_error(cmd, "--map maps %s twice", column);
    /* so at most one per trace column, fewer than map_storage holds; kept
     * as a guard */
    if (k == sizeof cli->map_storage / sizeof *cli->map_storage)
        return usage_error(cmd, "too many --map options (at most %zu)", k);
    cli->map_storage[k] = gp_strdup(value);
    if (!cli->map_storage[k])
        return usage_error(cmd, "%s", "out of memory");
    cli->map_storage[k][sep - value] = '\0';
    cli->trace_opt.map[k][0] = cli->map_storage[k];
    cli->trace_opt.map[k][1] = cli->map_storage[k] + (sep - value) + 1;
    cli->trace_opt.n_map++;
    return 0;
}

/* --step: at most a year: no sampling interval is longer, and a mistyped
 * huge step would otherwise make every row cover decades (the trace's
 * 30-year span check then rejects each row, one by one, for the option's
 * fault). */
static int read_step(const struct gp_command *cmd, gp_cli *cli,
                     const char *value)
{
    double step;
    /* synth's --step is a step change in demand, DATE:FACTOR */
    if (cmd->options & OPT_SYNTH)
        return gp_cli_read_step(cmd, cli, value);
    if (!gp_parse_number(value, strlen(value), &step) ||
        !(step >= GP_MIN_STEP_S) || step > MAX_STEP_S)
        return usage_error(cmd,
                           "--step takes seconds from 0.001 up to %.0f "
                           "(366 days), got \"%s\"",
                           MAX_STEP_S, value);
    cli->trace_opt.default_step_s = step;
    cli->step_given = true;
    return 0;
}

/* --region: the providers' regions are lower case, and --region only names
 * one (of the rows that give none; import's catalog or price list rows):
 * "US-EAST-1" can only mean us-east-1, which it is read as, in every
 * command.  A catalog's region has at most GP_CATALOG_MAX_REGION
 * characters. */
static int read_region(const struct gp_command *cmd, gp_cli *cli,
                       const char *value)
{
    if (strlen(value) > GP_CATALOG_MAX_REGION)
        return usage_error(cmd,
                           "--region: too long (at most %d "
                           "characters) to be a region, got \"%s\"",
                           GP_CATALOG_MAX_REGION, value);
    gp_ascii_lower(cli->region, sizeof cli->region, value);
    cli->trace_opt.region = cli->region;
    return 0;
}

/* --provider: the catalogs' own names (catalog.c checks the same list). */
static int read_provider(const struct gp_command *cmd, gp_cli *cli,
                         const char *value)
{
    size_t k = 0;
    while (k < 3 && strcmp(value, gp_json_provider_names[k]) != 0)
        k++;
    if (k == 3)
        return usage_error(cmd, "--provider takes aws, gcp or azure, got \"%s\"",
                           value);
    cli->provider = value;
    cli->trace_opt.provider = value;
    return 0;
}

/* --instance-type: telemetry's type (import), or the type of the trace
 * rows that give none; a catalog's names have at most
 * GP_CATALOG_MAX_TYPE_NAME characters. */
static int read_instance_type(const struct gp_command *cmd, gp_cli *cli,
                              const char *value)
{
    if (strlen(value) > GP_CATALOG_MAX_TYPE_NAME)
        return usage_error(cmd,
                           "--instance-type: too long (at most %d "
                           "characters) to be an instance type, got \"%s\"",
                           GP_CATALOG_MAX_TYPE_NAME, value);
    cli->instance_type = value;
    cli->trace_opt.instance_type = value;
    return 0;
}

static int read_commitments_out(const struct gp_command *cmd, gp_cli *cli,
                                const char *value)
{
    cli->commitments_out = value;
    return not_stdout(cmd, "commitments-out", value);
}

static int read_spot_events(const struct gp_command *cmd, gp_cli *cli,
                            const char *value)
{
    (void)cmd;
    cli->spot_events = value;
    return 0;
}

/* A time option (`what` says which forms, in the message): 0 and *t, or
 * the usage error. */
static int read_time_value(const struct gp_command *cmd, const char *option,
                           const char *what, const char *value, double *t)
{
    const char *why;
    if (gp_parse_time(value, strlen(value), t, &why))
        return 0;
    return usage_error(cmd, "--%s takes %s, got \"%s\"%s%s", option, what,
                       value, range_why(why) ? ": " : "",
                       range_why(why) ? why : "");
}

static int read_time(const struct gp_command *cmd, gp_cli *cli,
                     const char *value)
{
    double t;
    cli->time = value;
    return read_time_value(cmd, "time", "an ISO 8601 time or epoch seconds",
                           value, &t);
}

static int read_train_until(const struct gp_command *cmd, gp_cli *cli,
                            const char *value)
{
    double t = 0;
    int rc = read_time_value(cmd, "train-until", "an ISO 8601 time", value, &t);
    cli->train_until = (int64_t)t;
    return rc;
}

static int read_scenario(const struct gp_command *cmd, gp_cli *cli,
                         const char *value)
{
    (void)cmd;
    cli->scenario = value;
    return 0;
}

/* --out: the name alone says it: no work is done before saying so (a
 * folder that is missing is found when it is written). */
static int read_out(const struct gp_command *cmd, gp_cli *cli,
                    const char *value)
{
    if (not_stdout(cmd, "out", value))
        return 2;
    if ((cmd->options & OPT_OUT_XLSX) && !gp_xlsx_name_ok(value))
        return usage_error(cmd,
                           "--out: the report is an Excel workbook: "
                           "give it a name ending in .xlsx, not \"%s\"",
                           value);
    cli->out = value;
    return 0;
}

static int read_csv(const struct gp_command *cmd, gp_cli *cli,
                    const char *value)
{
    cli->csv_dir = value;
    return not_stdout(cmd, "csv", value);
}

static int read_rejects(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    cli->rejects = value;
    return not_stdout(cmd, "rejects", value);
}

static int read_horizon(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    return whole_hours(cmd, "--horizon", "13w, 7d or 168h", value,
                       &cli->horizon_hours);
}

static int read_forward(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    return whole_hours(cmd, "--forward", "13w", value, &cli->forward_hours);
}

/* --lookback: 7d, 30d, 60d (or any whole-hour duration), or all. */
static int read_lookback(const struct gp_command *cmd, gp_cli *cli,
                         const char *value)
{
    if (strcmp(value, "all") == 0) {
        cli->lookback_hours = 0;
        return 0;
    }
    return whole_hours(cmd, "--lookback", "7d, 30d, 60d or all", value,
                       &cli->lookback_hours);
}

/* --terms: 1, 3, or both (1,3). */
static int read_terms(const struct gp_command *cmd, gp_cli *cli,
                      const char *value)
{
    static const struct {
        const char *text;
        unsigned bits;
    } forms[] = {{"1", GP_TERM_BIT(1)},
                 {"3", GP_TERM_BIT(3)},
                 {"1,3", GP_TERM_BIT(1) | GP_TERM_BIT(3)},
                 {"3,1", GP_TERM_BIT(1) | GP_TERM_BIT(3)}};
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (strcmp(value, forms[i].text) == 0) {
            cli->terms = forms[i].bits;
            return 0;
        }
    return usage_error(cmd, "--terms takes 1, 3 or 1,3 (years), got \"%s\"",
                       value);
}

/* --payment: one of the catalogs' payment options, or any. */
static int read_payment(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    static const char *const names[] = {"no_upfront", "partial_upfront",
                                        "all_upfront"};
    if (strcmp(value, "any") == 0) {
        cli->payments = 7u;
        return 0;
    }
    for (unsigned i = 0; i < 3; i++)
        if (strcmp(value, names[i]) == 0 &&
            strcmp(gp_payment_name((gp_payment)i), names[i]) == 0) {
            cli->payments = 1u << i;
            return 0;
        }
    return usage_error(cmd,
                       "--payment takes no_upfront, partial_upfront, "
                       "all_upfront or any, got \"%s\"",
                       value);
}

/* --instruments: a comma list of what recommend may propose. */
static int read_instruments(const struct gp_command *cmd, gp_cli *cli,
                            const char *value)
{
    static const struct {
        const char *name;
        unsigned bit;
    } kinds[] = {{"reserved", GP_BUY_RESERVED},
                 {"instance_family_plan", GP_BUY_FAMILY_PLAN},
                 {"compute_plan", GP_BUY_COMPUTE_PLAN},
                 {"routing", GP_BUY_ROUTING},
                 {"capacity", GP_BUY_CAPACITY}};
    unsigned bits = 0;
    for (const char *p = value; *p;) {
        size_t n = strcspn(p, ",");
        size_t i = 0;
        while (i < sizeof kinds / sizeof kinds[0] &&
               !(strlen(kinds[i].name) == n &&
                 strncmp(p, kinds[i].name, n) == 0))
            i++;
        if (i == sizeof kinds / sizeof kinds[0])
            return usage_error(cmd,
                               "--instruments takes a comma list of "
                               "reserved, instance_family_plan, "
                               "compute_plan, routing and capacity, got "
                               "\"%s\"",
                               value);
        bits |= kinds[i].bit;
        p += n + (p[n] == ',');
    }
    if (!bits)
        return usage_error(cmd, "%s", "--instruments names none");
    cli->instruments = bits;
    return 0;
}

static int read_seed(const struct gp_command *cmd, gp_cli *cli,
                     const char *value)
{
    if (!parse_long(value, 0, 2147483647L, &cli->seed))
        return usage_error(cmd,
                           "--seed takes a whole number from 0 to "
                           "2147483647, got \"%s\"",
                           value);
    return 0;
}

static int read_runs(const struct gp_command *cmd, gp_cli *cli,
                     const char *value)
{
    if (!parse_long(value, 1, 10000000L, &cli->runs))
        return usage_error(cmd, "--runs takes 1 to 10000000, got \"%s\"",
                           value);
    return 0;
}

static int read_threads(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    long n;
    if (!parse_long(value, 1, 64, &n))
        return usage_error(cmd, "--threads takes 1 to 64, got \"%s\"", value);
    cli->threads = (int)n;
    cli->trace_opt.threads = (int)n;
    return 0;
}

/* --idle-threshold: idle GPUs (idle.h) have gpu_util below this percent. */
static int read_idle_threshold(const struct gp_command *cmd, gp_cli *cli,
                               const char *value)
{
    double pct;
    if (!gp_parse_number(value, strlen(value), &pct) || pct <= 0 || pct > 100)
        return usage_error(cmd,
                           "--idle-threshold takes a percent above "
                           "0 up to 100, got \"%s\"",
                           value);
    cli->trace_opt.idle_threshold_pct = pct;
    cli->idle_threshold_given = true;
    return 0;
}

/* --idle-min-hours: ... for at least this many hours: a number or a
 * duration. */
static int read_idle_min_hours(const struct gp_command *cmd, gp_cli *cli,
                               const char *value)
{
    double h;
    if ((!gp_parse_number(value, strlen(value), &h) &&
         !gp_parse_duration_hours(value, &h)) ||
        !(h > 0) || h > 24.0 * 366)
        return usage_error(cmd,
                           "--idle-min-hours takes hours above 0 "
                           "(2, 1.5, 2h, 1d), got \"%s\"",
                           value);
    cli->trace_opt.idle_min_hours = h;
    cli->idle_min_hours_given = true;
    return 0;
}

/* Flags: no value. */
static int read_json(const struct gp_command *cmd, gp_cli *cli,
                     const char *value)
{
    (void)cmd, (void)value;
    cli->json = true;
    return 0;
}

static int read_skip_bad(const struct gp_command *cmd, gp_cli *cli,
                         const char *value)
{
    (void)cmd, (void)value;
    cli->skip_bad = true;
    return 0;
}

static int read_relabel(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    (void)cmd, (void)value;
    cli->relabel = true;
    return 0;
}

/* --spot-confidence: a probability from 0.5 (any training verdict) to 1
 * (only certainty, which a classification never reaches: no spot). */
static int read_spot_confidence(const struct gp_command *cmd, gp_cli *cli,
                                const char *value)
{
    double p;
    if (!gp_parse_number(value, strlen(value), &p) || !(p >= 0.5) || p > 1)
        return usage_error(cmd,
                           "--spot-confidence takes a probability from 0.5 "
                           "to 1, got \"%s\"",
                           value);
    cli->spot_confidence = p;
    return 0;
}

static int read_explain(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    (void)cmd, (void)value;
    cli->explain = true;
    return 0;
}

static int read_quiet(const struct gp_command *cmd, gp_cli *cli,
                      const char *value)
{
    (void)cmd, (void)value;
    cli->quiet = true;
    return 0;
}

/* --trace and --pricing: read by add_paths, which takes several values. */
static const struct opt_def opt_defs[] = {
    {"trace", OPT_TRACE, true, true, NULL},
    {"layout", OPT_TRACE, true, false, read_layout},
    {"map", OPT_TRACE, true, true, read_map},
    {"step", OPT_TRACE | OPT_IMPORT | OPT_SYNTH, true, false, read_step},
    {"region", OPT_TRACE | OPT_IMPORT, true, false, read_region},
    {"provider", OPT_TRACE | OPT_IMPORT, true, false, read_provider},
    {"instance-type", OPT_TRACE | OPT_IMPORT, true, false, read_instance_type},
    {"time", OPT_IMPORT, true, false, read_time},
    {"pricing", OPT_PRICING, true, true, NULL},
    {"commitments-out", OPT_IMPORT, true, false, read_commitments_out},
    {"scenario", OPT_SCENARIO, true, false, read_scenario},
    {"out", OPT_OUT, true, false, read_out},
    {"json", OPT_JSON, false, false, read_json},
    {"csv", OPT_CSV, true, false, read_csv},
    {"skip-bad", OPT_SKIP_BAD, false, false, read_skip_bad},
    {"rejects", OPT_SKIP_BAD, true, false, read_rejects},
    {"horizon", OPT_HORIZON, true, false, read_horizon},
    {"forward", OPT_FORWARD, true, false, read_forward},
    {"train-until", OPT_TRAIN_UNTIL, true, false, read_train_until},
    {"terms", OPT_CHOICES, true, false, read_terms},
    {"payment", OPT_CHOICES, true, false, read_payment},
    {"lookback", OPT_CHOICES, true, false, read_lookback},
    {"instruments", OPT_CHOICES, true, false, read_instruments},
    {"relabel", OPT_RELABEL, false, false, read_relabel},
    {"seed", OPT_SEED | OPT_SYNTH, true, false, read_seed},
    {"years", OPT_SYNTH, true, false, gp_cli_read_years},
    {"growth", OPT_SYNTH, true, false, gp_cli_read_growth},
    {"decline", OPT_SYNTH, true, false, gp_cli_read_decline},
    {"migrate", OPT_SYNTH, true, false, gp_cli_read_migrate},
    {"runs", OPT_SEED, true, false, read_runs},
    {"threads", OPT_SEED | OPT_TRACE, true, false, read_threads},
    {"idle-threshold", OPT_IDLE, true, false, read_idle_threshold},
    {"idle-min-hours", OPT_IDLE, true, false, read_idle_min_hours},
    {"spot-confidence", OPT_SPOT_CONFIDENCE, true, false,
     read_spot_confidence},
    {"spot-events", OPT_SPOT_EVENTS, true, false, read_spot_events},
    {"explain", OPT_EXPLAIN, false, false, read_explain},
    {"quiet", 0, false, false, read_quiet},
};
#define N_OPTS (sizeof opt_defs / sizeof opt_defs[0])

/* Adds one --trace or --pricing value: 0, or 2 after a usage error. */
static int add_path(const struct gp_command *cmd, gp_cli *cli, bool trace,
                    const char *value)
{
    const size_t max_traces = sizeof cli->traces / sizeof *cli->traces;
    const size_t max_pricing = sizeof cli->pricing / sizeof *cli->pricing;

    if (!trace) {
        if (cli->n_pricing == max_pricing)
            return usage_error(cmd, "too many --pricing paths (at most %zu)",
                               max_pricing);
        cli->pricing[cli->n_pricing++] = value;
        return 0;
    }
    /* standard input can be read once */
    bool stdin_trace = strcmp(value, "-") == 0;
    for (size_t k = 0; stdin_trace && k < cli->n_traces; k++)
        if (strcmp(cli->traces[k], "-") == 0)
            return usage_error(cmd, "%s",
                               "--trace - (standard input) is given twice");
    if (cli->n_traces == max_traces)
        return usage_error(cmd, "too many --trace files (at most %zu)",
                           max_traces);
    cli->traces[cli->n_traces++] = value;
    return 0;
}

/* --trace and --pricing: the value given, then more up to the next option
 * ("-" is a value); *i moves past the values taken. */
static int add_paths(const struct gp_command *cmd, gp_cli *cli, bool trace,
                     const char *value, bool inline_value, int argc,
                     char **argv, int *i)
{
    for (;;) {
        if (add_path(cmd, cli, trace, value))
            return 2;
        if (inline_value || *i + 1 >= argc || argv[*i + 1][0] == '\0' ||
            (argv[*i + 1][0] == '-' && argv[*i + 1][1] != '\0'))
            return 0;
        value = argv[++*i];
    }
}

/* The option of `cmd` nearest to the mistyped name[0, len) (at most two
 * edits away, and fewer than half its letters), or NULL. */
static const char *nearest_option(const struct gp_command *cmd,
                                  const char *name, size_t len)
{
    char typed[32];
    const char *best = NULL;
    size_t best_d = 3;

    if (len >= sizeof typed)
        return NULL;
    memcpy(typed, name, len);
    typed[len] = '\0';
    for (size_t k = 0; k < N_OPTS; k++) {
        if (opt_defs[k].group && !(opt_defs[k].group & cmd->options))
            continue;
        size_t d = gp_edit_distance(typed, opt_defs[k].name, best_d);
        if (d < best_d && 2 * d < strlen(opt_defs[k].name)) {
            best = opt_defs[k].name;
            best_d = d;
        }
    }
    return best;
}

/* The option argv[*i] names, for `cmd`, or NULL after a usage error;
 * *value is its value (NULL for a flag) and *eq whether it came after
 * "=".  `given` holds the value each single-value option was first given:
 * a second one would otherwise replace it without a word. */
static const struct opt_def *find_option(const struct gp_command *cmd,
                                         int argc, char **argv, int *i,
                                         const char **given,
                                         const char **value, bool *eq)
{
    const char *a = argv[*i], *e = strchr(a + 2, '=');
    size_t nlen = e ? (size_t)(e - a - 2) : strlen(a + 2);
    const struct opt_def *def = NULL;

    *value = NULL;
    *eq = e != NULL;
    for (size_t k = 0; nlen < 32 && k < N_OPTS; k++)
        if (strlen(opt_defs[k].name) == nlen &&
            strncmp(opt_defs[k].name, a + 2, nlen) == 0)
            def = &opt_defs[k];
    if (!def || (def->group && !(def->group & cmd->options))) {
        const char *near = nearest_option(cmd, a + 2, nlen);
        if (near)
            usage_error(cmd, "unknown option %s; did you mean --%s?", a, near);
        else
            usage_error(cmd, "unknown option %s", a);
        return NULL;
    }
    if (!def->takes_value) {
        if (!e)
            return def;
        usage_error(cmd, "--%s takes no value, got \"%s\"", def->name, e + 1);
        return NULL;
    }
    /* "--trace=" and "--trace --skip-bad" have no value: the next option is
     * not a file name ("-" for standard input is) */
    if (e)
        *value = e + 1;
    else if (*i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0)
        *value = argv[++*i];
    if (!*value || !(*value)[0]) {
        usage_error(cmd, "--%s needs a value", def->name);
        return NULL;
    }
    const char **first = &given[def - opt_defs];
    if (!def->repeats && *first) {
        usage_error(cmd, "--%s is given twice (\"%s\" and \"%s\"); give it once",
                    def->name, *first, *value);
        return NULL;
    }
    *first = *value;
    return def;
}

/* What no single option says: arguments only import and classify take,
 * --rejects without --skip-bad, a command that needs a trace. */
static int check_together(const struct gp_command *cmd, const gp_cli *cli)
{
    if (cli->n_args > 0 && !(cmd->options & OPT_RELABEL) &&
        strcmp(cmd->name, "import") != 0)
        return usage_error(cmd, "unexpected argument \"%s\"", cli->args[0]);
    if (cli->rejects && !cli->skip_bad)
        return usage_error(cmd, "%s", "--rejects goes with --skip-bad");
    if ((cmd->options & OPT_NEEDS_TRACE) && cli->n_traces == 0)
        return usage_error(cmd, "%s", "no --trace given");
    return 0;
}

int gp_cli_parse(const struct gp_command *cmd, int argc, char **argv,
                 gp_cli *cli)
{
    const char *given[N_OPTS] = {0};

    memset(cli, 0, sizeof *cli);
    gp_trace_options_init(&cli->trace_opt);
    cli->spot_confidence = GP_SPOT_CONFIDENCE;
    gp_synth_options_init(&cli->synth);
    cli->terms = GP_TERM_BIT(1) | GP_TERM_BIT(3);
    cli->payments = 7u;
    cli->instruments = GP_BUY_EVERYTHING;
    cli->trace_opt.progress = GP_CLI_PROGRESS;
    cli->seed = -1;
    cli->runs = -1;
    cli->args = gp_calloc((size_t)argc + 1, sizeof *cli->args);
    if (!cli->args)
        return usage_error(cmd, "%s", "out of memory");
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *value;
        bool eq;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            gp_cli_print_usage(cmd, stdout);
            return -1;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            cli->args[cli->n_args++] = argv[i];
            continue;
        }
        const struct opt_def *def =
            find_option(cmd, argc, argv, &i, given, &value, &eq);
        if (!def)
            return 2;
        int rc = def->read ? def->read(cmd, cli, value)
                           : add_paths(cmd, cli, def->name[0] == 't', value,
                                       eq, argc, argv, &i);
        if (rc)
            return rc;
    }
    return check_together(cmd, cli);
}

void gp_cli_free(gp_cli *cli)
{
    if (!cli)
        return;
    for (size_t i = 0; i < cli->trace_opt.n_map; i++)
        gp_free(cli->map_storage[i]);
    gp_free(cli->args);
}

const char *gp_cli_option_of(const char *name, void *ctx)
{
    static char option[40];

    (void)ctx;
    for (size_t k = 0; k < N_OPTS; k++)
        if (strcmp(opt_defs[k].name, name) == 0) {
            snprintf(option, sizeof option, "--%s", name);
            return option;
        }
    return name;
}

void gp_cli_print_usage(const struct gp_command *cmd, FILE *f)
{
    fprintf(f, "usage: gpuplan %s\n%s", cmd->name, cmd->usage);
}
