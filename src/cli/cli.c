/*
 * cli.c: option parsing and input loading shared by the commands.
 *
 * Options are "--name value" or "--name=value".  --trace and --pricing take
 * one or more values (`--trace a.csv b.csv`) and may repeat, as may --map;
 * any other option that takes a value is a usage error when given twice,
 * not the last one winning (a flag may repeat: it changes nothing).  Every
 * command accepts only the options its table entry names, so a typo or an
 * option that would be ignored is a usage error (exit 2), never silence.
 */
#include "cli.h"
#include "checks.h"
#include "classify.h"
#include "json_util.h"
#include "model.h"
#include "progress.h"
#include "recommend.h"
#include "util.h"
#include "writers.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct opt_def {
    const char *name;
    unsigned group;
    bool takes_value;
    bool repeats; /* may be given more than once (each adds a value) */
};

static const struct opt_def opt_defs[] = {
    {"trace", OPT_TRACE, true, true},
    {"layout", OPT_TRACE, true, false},
    {"map", OPT_TRACE, true, true},
    {"step", OPT_TRACE | OPT_IMPORT, true, false},
    {"region", OPT_TRACE | OPT_IMPORT, true, false},
    {"provider", OPT_IMPORT, true, false},
    {"instance-type", OPT_IMPORT, true, false},
    {"time", OPT_IMPORT, true, false},
    {"pricing", OPT_PRICING, true, true},
    {"commitments-out", OPT_IMPORT, true, false},
    {"scenario", OPT_SCENARIO, true, false},
    {"out", OPT_OUT, true, false},
    {"json", OPT_JSON, false, false},
    {"csv", OPT_CSV, true, false},
    {"skip-bad", OPT_SKIP_BAD, false, false},
    {"rejects", OPT_SKIP_BAD, true, false},
    {"horizon", OPT_HORIZON, true, false},
    {"forward", OPT_FORWARD, true, false},
    {"train-until", OPT_TRAIN_UNTIL, true, false},
    {"relabel", OPT_RELABEL, false, false},
    {"seed", OPT_SEED, true, false},
    {"runs", OPT_SEED, true, false},
    {"threads", OPT_SEED | OPT_TRACE, true, false},
    {"idle-threshold", OPT_IDLE, true, false},
    {"idle-min-hours", OPT_IDLE, true, false},
    {"quiet", 0, false, false},
};

/* The longest --step the options take, in seconds: 366 days. */
#define MAX_STEP_S 31622400.0

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int usage_error(const struct gp_command *cmd, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "gpuplan %s: ", cmd->name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
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
 * the usage error and returns false. */
static bool whole_hours(const struct gp_command *cmd, const char *option,
                        const char *like, const char *text, size_t *out)
{
    double h;
    if (!gp_parse_duration_hours(text, &h)) {
        usage_error(cmd, "%s takes a duration like %s, got \"%s\"", option,
                    like, text);
        return false;
    }
    if (h < 1 || h > 5 * 8784 || fabs(h - round(h)) > 1e-9) {
        usage_error(cmd, "%s takes whole hours from 1h to 5 years, got \"%s\"",
                    option, text);
        return false;
    }
    *out = (size_t)round(h);
    return true;
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

int gp_cli_parse(const struct gp_command *cmd, int argc, char **argv,
                 gp_cli *cli)
{
    memset(cli, 0, sizeof *cli);
    gp_trace_options_init(&cli->trace_opt);
    cli->trace_opt.progress = GP_CLI_PROGRESS;
    cli->seed = -1;
    cli->runs = -1;
    cli->args = gp_calloc((size_t)argc + 1, sizeof *cli->args);
    if (!cli->args)
        return usage_error(cmd, "%s", "out of memory");

    /* the value each single-value option was first given: a second one
     * would otherwise replace it without a word */
    const char *given[sizeof opt_defs / sizeof opt_defs[0]] = {0};

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const struct opt_def *def = NULL;
        const char *value = NULL;
        char name[32];

        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: gpuplan %s\n%s", cmd->name, cmd->usage);
            return -1;
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            cli->args[cli->n_args++] = argv[i];
            continue;
        }
        const char *eq = strchr(a + 2, '=');
        size_t nlen = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (nlen >= sizeof name)
            return usage_error(cmd, "unknown option %s", a);
        memcpy(name, a + 2, nlen);
        name[nlen] = '\0';
        for (size_t k = 0; k < sizeof opt_defs / sizeof opt_defs[0]; k++)
            if (strcmp(opt_defs[k].name, name) == 0)
                def = &opt_defs[k];
        if (!def || (def->group && !(def->group & cmd->options)))
            return usage_error(cmd, "unknown option %s", a);
        if (def->takes_value) {
            /* "--trace=" and "--trace --skip-bad" have no value: the next
             * option is not a file name ("-" for standard input is) */
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0)
                value = argv[++i];
            if (!value || !value[0])
                return usage_error(cmd, "--%s needs a value", name);
            if (!def->repeats) {
                const char **first = &given[def - opt_defs];
                if (*first)
                    return usage_error(cmd,
                                       "--%s is given twice (\"%s\" and "
                                       "\"%s\"); give it once",
                                       name, *first, value);
                *first = value;
            }
        } else if (eq) {
            return usage_error(cmd, "--%s takes no value, got \"%s\"", name,
                               eq + 1);
        }

        if (strcmp(name, "trace") == 0 || strcmp(name, "pricing") == 0) {
            bool trace = name[0] == 't';
            const size_t max_traces = sizeof cli->traces / sizeof *cli->traces;
            const size_t max_pricing =
                sizeof cli->pricing / sizeof *cli->pricing;
            for (;;) {
                if (trace) {
                    /* standard input can be read once */
                    bool stdin_trace = strcmp(value, "-") == 0;
                    for (size_t k = 0; stdin_trace && k < cli->n_traces; k++)
                        if (strcmp(cli->traces[k], "-") == 0)
                            return usage_error(cmd, "%s",
                                               "--trace - (standard input) "
                                               "is given twice");
                    if (cli->n_traces == max_traces)
                        return usage_error(cmd,
                                           "too many --trace files (at most "
                                           "%zu)",
                                           max_traces);
                    cli->traces[cli->n_traces++] = value;
                } else {
                    if (cli->n_pricing == max_pricing)
                        return usage_error(cmd,
                                           "too many --pricing paths (at "
                                           "most %zu)",
                                           max_pricing);
                    cli->pricing[cli->n_pricing++] = value;
                }
                /* more values up to the next option ("-" is a value) */
                if (eq || i + 1 >= argc || argv[i + 1][0] == '\0' ||
                    (argv[i + 1][0] == '-' && argv[i + 1][1] != '\0'))
                    break;
                value = argv[++i];
            }
        } else if (strcmp(value ? value : "", "-") == 0 &&
                   (strcmp(name, "out") == 0 || strcmp(name, "csv") == 0 ||
                    strcmp(name, "rejects") == 0 ||
                    strcmp(name, "commitments-out") == 0)) {
            /* "-" is standard input (--trace, import's files); no command
             * writes standard output through an option, so this would be
             * a file (or folder) named "-" */
            return usage_error(cmd,
                               "--%s -: no option writes to standard "
                               "output; give a %s name (./- for one named "
                               "\"-\")",
                               name,
                               strcmp(name, "csv") == 0 ? "folder" : "file");
        } else if (strcmp(name, "layout") == 0) {
            if (strcmp(value, "samples") == 0)
                cli->trace_opt.layout = GP_LAYOUT_SAMPLES;
            else if (strcmp(value, "jobs") == 0)
                cli->trace_opt.layout = GP_LAYOUT_JOBS;
            else
                return usage_error(
                    cmd, "--layout takes samples or jobs, not \"%s\"", value);
        } else if (strcmp(name, "map") == 0) {
            const char *sep = strchr(value, '=');
            size_t k = cli->trace_opt.n_map;
            if (!sep || sep == value || !sep[1])
                return usage_error(cmd, "--map takes name=column, got \"%s\"",
                                   value);
            /* the name is a trace column, once: a typo or a second
             * mapping would otherwise be ignored without a word */
            size_t name_len = (size_t)(sep - value), c = 0;
            while (gp_trace_column_name(c) &&
                   !(strlen(gp_trace_column_name(c)) == name_len &&
                     strncmp(gp_trace_column_name(c), value, name_len) == 0))
                c++;
            if (!gp_trace_column_name(c)) {
                char names[256] = "";
                for (size_t j = 0; gp_trace_column_name(j); j++)
                    snprintf(names + strlen(names),
                             sizeof names - strlen(names), "%s%s",
                             j ? ", " : "", gp_trace_column_name(j));
                return usage_error(cmd,
                                   "--map: \"%.*s\" is not a trace column "
                                   "(%s)",
                                   (int)name_len, value, names);
            }
            const char *column = gp_trace_column_name(c);
            if (gp_trace_mapped_column(&cli->trace_opt, column) != column)
                return usage_error(cmd, "--map maps %s twice", column);
            /* so at most one per trace column, fewer than map_storage
             * holds; kept as a guard */
            if (k == sizeof cli->map_storage / sizeof *cli->map_storage)
                return usage_error(cmd, "too many --map options (at most %zu)",
                                   k);
            cli->map_storage[k] = gp_strdup(value);
            if (!cli->map_storage[k])
                return usage_error(cmd, "%s", "out of memory");
            cli->map_storage[k][sep - value] = '\0';
            cli->trace_opt.map[k][0] = cli->map_storage[k];
            cli->trace_opt.map[k][1] = cli->map_storage[k] + (sep - value) + 1;
            cli->trace_opt.n_map++;
        } else if (strcmp(name, "step") == 0) {
            /* at most a year: no sampling interval is longer, and a
             * mistyped huge step would otherwise make every row cover
             * decades (the trace's 30-year span check then rejects each
             * row, one by one, for the option's fault) */
            double step;
            if (!gp_parse_number(value, strlen(value), &step) || step <= 0 ||
                step > MAX_STEP_S)
                return usage_error(cmd,
                                   "--step takes seconds above 0 up to %.0f "
                                   "(366 days), got \"%s\"",
                                   MAX_STEP_S, value);
            cli->trace_opt.default_step_s = step;
            cli->step_given = true;
        } else if (strcmp(name, "region") == 0) {
            /* the providers' regions are lower case, and --region only
             * names one (of the rows that give none; import's catalog or
             * price list rows): "US-EAST-1" can only mean us-east-1, which
             * it is read as, in every command (it matched nothing, and the
             * error blamed the instance type or the prices).  A catalog's
             * region has at most GP_CATALOG_MAX_REGION characters. */
            if (strlen(value) > GP_CATALOG_MAX_REGION)
                return usage_error(cmd,
                                   "--region: too long (at most %d "
                                   "characters) to be a region, got \"%s\"",
                                   GP_CATALOG_MAX_REGION, value);
            gp_ascii_lower(cli->region, sizeof cli->region, value);
            cli->trace_opt.region = cli->region;
        } else if (strcmp(name, "provider") == 0) {
            /* the catalogs' own names (catalog.c checks the same list) */
            size_t k = 0;
            while (k < 3 && strcmp(value, gp_json_provider_names[k]) != 0)
                k++;
            if (k == 3)
                return usage_error(cmd,
                                   "--provider takes aws, gcp or azure, "
                                   "got \"%s\"",
                                   value);
            cli->provider = value;
        } else if (strcmp(name, "instance-type") == 0) {
            cli->instance_type = value;
        } else if (strcmp(name, "commitments-out") == 0) {
            cli->commitments_out = value;
        } else if (strcmp(name, "time") == 0) {
            double t;
            const char *why;
            if (!gp_parse_time(value, strlen(value), &t, &why))
                return usage_error(cmd,
                                   "--time takes an ISO 8601 time or epoch "
                                   "seconds, got \"%s\"%s%s",
                                   value, range_why(why) ? ": " : "",
                                   range_why(why) ? why : "");
            cli->time = value;
        } else if (strcmp(name, "scenario") == 0) {
            cli->scenario = value;
        } else if (strcmp(name, "out") == 0) {
            /* the name alone says it: no work is done before saying so
             * (a folder that is missing is found when it is written) */
            if ((cmd->options & OPT_OUT_XLSX) && !gp_xlsx_name_ok(value))
                return usage_error(cmd,
                                   "--out: the report is an Excel workbook: "
                                   "give it a name ending in .xlsx, not "
                                   "\"%s\"",
                                   value);
            cli->out = value;
        } else if (strcmp(name, "json") == 0) {
            cli->json = true;
        } else if (strcmp(name, "csv") == 0) {
            cli->csv_dir = value;
        } else if (strcmp(name, "skip-bad") == 0) {
            cli->skip_bad = true;
        } else if (strcmp(name, "rejects") == 0) {
            cli->rejects = value;
        } else if (strcmp(name, "horizon") == 0) {
            if (!whole_hours(cmd, "--horizon", "13w, 7d or 168h", value,
                             &cli->horizon_hours))
                return 2;
        } else if (strcmp(name, "forward") == 0) {
            if (!whole_hours(cmd, "--forward", "13w", value,
                             &cli->forward_hours))
                return 2;
        } else if (strcmp(name, "train-until") == 0) {
            double t;
            const char *why;
            if (!gp_parse_time(value, strlen(value), &t, &why))
                return usage_error(cmd,
                                   "--train-until takes an ISO 8601 time, "
                                   "got \"%s\"%s%s",
                                   value, range_why(why) ? ": " : "",
                                   range_why(why) ? why : "");
            cli->train_until = (int64_t)t;
        } else if (strcmp(name, "relabel") == 0) {
            cli->relabel = true;
        } else if (strcmp(name, "seed") == 0) {
            if (!parse_long(value, 0, 2147483647L, &cli->seed))
                return usage_error(cmd,
                                   "--seed takes a whole number, got "
                                   "\"%s\"",
                                   value);
        } else if (strcmp(name, "runs") == 0) {
            if (!parse_long(value, 1, 10000000L, &cli->runs))
                return usage_error(
                    cmd, "--runs takes 1 to 10000000, got \"%s\"", value);
        } else if (strcmp(name, "threads") == 0) {
            long n;
            if (!parse_long(value, 1, 64, &n))
                return usage_error(cmd, "--threads takes 1 to 64, got \"%s\"",
                                   value);
            cli->threads = (int)n;
            cli->trace_opt.threads = (int)n;
        } else if (strcmp(name, "idle-threshold") == 0) {
            /* idle GPUs (idle.h): gpu_util below this percent */
            double pct;
            if (!gp_parse_number(value, strlen(value), &pct) || pct <= 0 ||
                pct > 100)
                return usage_error(cmd,
                                   "--idle-threshold takes a percent above "
                                   "0 up to 100, got \"%s\"",
                                   value);
            cli->trace_opt.idle_threshold_pct = pct;
            cli->idle_threshold_given = true;
        } else if (strcmp(name, "idle-min-hours") == 0) {
            /* ... for at least this many hours: a number or a duration */
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
        } else if (strcmp(name, "quiet") == 0) {
            cli->quiet = true;
        }
    }
    if (cli->n_args > 0 && !(cmd->options & OPT_RELABEL) &&
        strcmp(cmd->name, "import") != 0)
        return usage_error(cmd, "unexpected argument \"%s\"", cli->args[0]);
    if (cli->rejects && !cli->skip_bad)
        return usage_error(cmd, "%s", "--rejects goes with --skip-bad");
    if ((cmd->options & OPT_NEEDS_TRACE) && cli->n_traces == 0)
        return usage_error(cmd, "%s", "no --trace given");
    return 0;
}

void gp_cli_free(gp_cli *cli)
{
    if (!cli)
        return;
    for (size_t i = 0; i < cli->trace_opt.n_map; i++)
        gp_free(cli->map_storage[i]);
    gp_free(cli->args);
}

void gp_cli_print_error(const gp_error *err)
{
    char buf[2048];
    gp_error_format(err, buf, sizeof buf);
    gp_progress_clear();
    fprintf(stderr, "%s\n", buf);
}

int gp_json_print(json_t *doc)
{
    gp_error err;
    gp_error_clear(&err);
    if (gp_json_write(doc, JSON_COMPACT | JSON_REAL_PRECISION(15), stdout, NULL,
                      &err) == GP_OK)
        return 0;
    gp_cli_print_error(&err);
    return 1;
}

void gp_cli_print_warnings(const gp_warnings *w)
{
    gp_progress_clear();
    for (size_t i = 0; i < w->count; i++)
        fprintf(stderr, "gpuplan: warning: %s\n", w->items[i]);
}

void gp_cli_warn_now(const gp_cli *cli, gp_warnings *w,
                     struct gp_run_info *info)
{
    if (!cli->quiet)
        gp_cli_print_warnings(w);
    for (size_t i = 0; i < w->count; i++)
        gp_warnings_add(&info->warnings, "%s", w->items[i]);
    gp_warnings_clear(w);
}

void gp_cli_classification_warn(const gp_cli *cli, const gp_classification *c,
                                struct gp_run_info *info)
{
    gp_warnings cw = {NULL, 0, 0};

    gp_classification_warn(c, &cw);
    gp_cli_warn_now(cli, &cw, info);
}

void gp_cli_window_warn(const gp_inputs *in, bool strategies, gp_warnings *out)
{
    gp_check_window(in, strategies, out);
}

void gp_cli_history_gap_warn(const gp_cli *cli, gp_run_info *info,
                             const gp_trace *t, int64_t start_hour,
                             size_t n_hours)
{
    gp_warnings w = {NULL, 0, 0};

    gp_check_history_gap(t, start_hour, n_hours, &w);
    gp_cli_warn_now(cli, &w, info);
}

void gp_cli_stale_forecast_warn(const gp_cli *cli, gp_run_info *info,
                                const gp_trace *t, int64_t start_hour,
                                size_t n_hours, const char *what)
{
    gp_warnings w = {NULL, 0, 0};

    gp_check_stale_forecast(t, gp_cli_today(), start_hour, n_hours, what, &w);
    gp_cli_warn_now(cli, &w, info);
}

void gp_cli_future_trace_warn(const gp_trace *t, int64_t fc_start_hour,
                              size_t fc_hours, const char *what,
                              gp_warnings *out)
{
    gp_check_future_trace(t, gp_cli_today(), fc_start_hour, fc_hours, what,
                          out);
}

const char *gp_cli_data_dir(void)
{
    const char *d = getenv("GPUPLAN_DATA_DIR");
    return d && *d ? d : GP_DATA_DIR;
}

int64_t gp_cli_today(void)
{
    const char *s = getenv("GPUPLAN_TODAY");
    double t;
    const char *why;

    if (s && gp_parse_time(s, strlen(s), &t, &why))
        return (int64_t)t;
    return (int64_t)time(NULL);
}

/* Writes p[0, len) as one quoted CSV field (RFC 4180: quotes doubled). */
static void put_csv_field(FILE *f, const char *p, size_t len)
{
    putc('"', f);
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '"')
            putc('"', f);
        putc(p[i], f);
    }
    putc('"', f);
}

bool gp_cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;

    if (strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return false;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

const char *gp_cli_input_named(const gp_cli *cli, const char *path)
{
    for (size_t i = 0; i < cli->n_traces; i++)
        if (gp_cli_same_file(path, cli->traces[i]))
            return "the trace";
    for (size_t i = 0; i < cli->n_pricing; i++)
        if (gp_cli_same_file(path, cli->pricing[i]))
            return "the catalog";
    if (cli->scenario && gp_cli_same_file(path, cli->scenario))
        return "the scenario";
    return NULL;
}

const char *gp_cli_rejects_path(const gp_cli *cli)
{
    return cli->rejects ? cli->rejects : "gpuplan-rejects.csv";
}

/* What loading keeps of the rejected rows (--skip-bad, validate): the
 * rejects file while it is written, or a count of the rows printed. */
struct rejects {
    const gp_cli *cli;
    const char *path; /* where the file goes (gp_cli_rejects_path) */
    FILE *f;          /* the temporary file, NULL without --skip-bad */
    char *tmp;
    uint64_t printed; /* rows rejected so far */
    bool rows_read;   /* every row was read (gp_inputs_spec.rows_read) */
};

/* --skip-bad and validate: each rejected row with its reason. */
static void on_reject(void *ctx, const gp_error *why, const char *row,
                      size_t len)
{
    struct rejects *r = ctx;
    char msg[2048];

    if (r->f) {
        /* file,line,column,field,reason,row */
        put_csv_field(r->f, why->source, strlen(why->source));
        fprintf(r->f, ",%ld,%ld,", why->line, why->column);
        put_csv_field(r->f, why->field, strlen(why->field));
        putc(',', r->f);
        put_csv_field(r->f, why->message, strlen(why->message));
        putc(',', r->f);
        while (len && (row[len - 1] == '\n' || row[len - 1] == '\r'))
            len--;
        put_csv_field(r->f, row, len);
        putc('\n', r->f);
    } else if (r->printed < 100) {
        gp_error_format(why, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
    }
    r->printed++;
}

/* Without a rejects file (validate) the first 100 bad rows are printed;
 * this counts the rest. */
static void print_more_bad_rows(const struct rejects *r)
{
    if (!r->tmp && r->printed > 100)
        fprintf(stderr, "... and %llu more bad %s\n",
                (unsigned long long)(r->printed - 100),
                gp_plural(r->printed - 100, "row", "rows"));
}

/* Closes the rejects file and renames it into place; on failure removes
 * it and fills err. */
static gp_status finish_rejects(struct rejects *r, gp_error *err)
{
    FILE *f = r->f;

    r->f = NULL;
    if (fclose(f) != 0) {
        gp_error_set(err, r->path, 0, 0, NULL, "cannot write: %s",
                     strerror(errno));
        remove(r->tmp);
        return GP_ERR_IO;
    }
    gp_status st = gp_move_into_place(r->tmp, r->path, err);
    if (st != GP_OK)
        remove(r->tmp);
    return st;
}

/* gp_inputs_spec.rows_read: every row is read, so the rejects file is
 * complete, and stays even if the trace turns out unusable (it says
 * why); the rows it holds are counted on stderr. */
static gp_status rows_read(void *ctx, gp_error *err)
{
    struct rejects *r = ctx;

    gp_progress_clear();
    r->rows_read = true;
    if (r->f) {
        gp_status st = finish_rejects(r, err);
        if (st != GP_OK)
            return st;
        if (!r->cli->quiet && r->printed)
            fprintf(stderr,
                    "gpuplan: %llu %s rejected; see %s for each with its "
                    "reason\n",
                    (unsigned long long)r->printed,
                    gp_plural(r->printed, "row", "rows"), r->path);
    }
    print_more_bad_rows(r);
    return GP_OK;
}

/* The checks on the command line's files before anything is read: one
 * trace named twice (a glob and its own path) would count its rows twice;
 * the rejects list and --out must not replace an input being read. */
static bool files_apart(const gp_cli *cli, const char *rejects_path,
                        gp_error *err)
{
    const char *over;

    for (size_t i = 0; i < cli->n_traces; i++)
        for (size_t j = 0; j < i; j++)
            if (gp_cli_same_file(cli->traces[i], cli->traces[j])) {
                gp_error_set(err, cli->traces[i], 0, 0, NULL,
                             "the same file as --trace %s: its rows would "
                             "count twice",
                             cli->traces[j]);
                return false;
            }
    if (cli->skip_bad && (over = gp_cli_input_named(cli, rejects_path))) {
        gp_error_set(err, rejects_path, 0, 0, NULL,
                     "--rejects names %s itself; give the rejected rows a "
                     "file of their own",
                     over);
        return false;
    }
    if (cli->out && (over = gp_cli_input_named(cli, cli->out))) {
        gp_error_set(err, cli->out, 0, 0, NULL,
                     "--out names %s itself; writing it would replace %s", over,
                     over);
        return false;
    }
    return true;
}

/* --skip-bad: the rejects file, opened under a temporary name with its
 * header, said to be unwritable before the trace is read. */
static bool open_rejects(struct rejects *r, gp_error *err)
{
    struct stat sb;

    if (stat(r->path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
        gp_error_set(err, r->path, 0, 0, NULL, "cannot write: %s",
                     strerror(EISDIR));
        return false;
    }
    if (gp_temp_name(r->path, "", &r->tmp, err) != GP_OK)
        return false;
    r->f = fopen(r->tmp, "w");
    if (!r->f) {
        gp_error_set(err, r->path, 0, 0, NULL, "cannot write: %s",
                     strerror(errno));
        return false;
    }
    fputs("file,line,column,field,reason,row\n", r->f);
    return true;
}

/* The files a command reads: its options', else the bundled catalogs and
 * (with `sample_default`) the bundled sample and its scenario.  Paths
 * are kept in `paths`, which must outlive the spec. */
static void spec_of(const gp_cli *cli, bool sample_default,
                    char paths[3][4096], gp_inputs_spec *spec)
{
    const char *data = gp_cli_data_dir();
    static const char *one[2];

    memset(spec, 0, sizeof *spec);
    spec->today = gp_cli_today();
    spec->trace_opt = cli->trace_opt;
    spec->pricing = cli->pricing;
    spec->n_pricing = cli->n_pricing;
    if (cli->n_pricing == 0) {
        snprintf(paths[0], sizeof paths[0], "%s/pricing", data);
        one[0] = paths[0];
        spec->pricing = &one[0];
        spec->n_pricing = 1;
    }
    spec->scenario = cli->scenario;
    spec->traces = cli->traces;
    spec->n_traces = cli->n_traces;
    if (cli->n_traces == 0 && sample_default) {
        snprintf(paths[1], sizeof paths[1],
                 "%s/scenarios/sample/scenario.json", data);
        snprintf(paths[2], sizeof paths[2], "%s/scenarios/sample/trace.csv",
                 data);
        if (!cli->scenario)
            spec->scenario = paths[1];
        one[1] = paths[2];
        spec->traces = &one[1];
        spec->n_traces = 1;
    }
}

int gp_cli_load_inputs(const gp_cli *cli, gp_inputs *in, bool sample_default,
                       bool report_all)
{
    gp_error err;
    char paths[3][4096];
    gp_inputs_spec spec;
    struct rejects r = {cli, gp_cli_rejects_path(cli), NULL, NULL, 0, false};

    memset(in, 0, sizeof *in);
    gp_error_clear(&err);
    if (cli->n_traces == 0 && !sample_default) {
        /* commands without a sample mark OPT_NEEDS_TRACE, so the parser
         * has said this already; kept for one that forgets */
        fprintf(stderr, "gpuplan: no --trace given\n");
        return 2;
    }
    spec_of(cli, sample_default, paths, &spec);
    spec.rows_read = rows_read;
    spec.rows_read_ctx = &r;
    if (cli->skip_bad || report_all) {
        spec.trace_opt.reject = on_reject;
        spec.trace_opt.reject_ctx = &r;
    }
    gp_status st = gp_inputs_load_catalogs(&spec, in, &err);
    if (st == GP_OK && (!files_apart(cli, r.path, &err) ||
                        (cli->skip_bad && !open_rejects(&r, &err))))
        st = GP_ERR_INPUT;
    if (st == GP_OK) {
        if (cli->n_traces == 0 && !cli->quiet)
            fprintf(stderr,
                    "gpuplan: no --trace given: using the bundled "
                    "sample %s\n",
                    spec.traces[0]);
        st = gp_inputs_load_traces(&spec, in, &err);
    }
    in->used_sample = st == GP_OK && cli->n_traces == 0;
    if (r.f) { /* not finished: the load failed before every row was read */
        fclose(r.f);
        remove(r.tmp);
    }
    gp_free(r.tmp);
    if (st != GP_OK) {
        gp_inputs_free(in);
        if (!r.rows_read)
            print_more_bad_rows(&r);
        /* validate's bad rows already fail the run; what is wrong with the
         * trace as a whole ("no data rows", a span that fixing them may
         * change) is for after they are fixed */
        if (!(r.rows_read && report_all && r.printed && st == GP_ERR_INPUT))
            gp_cli_print_error(&err);
        return 1;
    }
    if (!cli->quiet)
        gp_cli_print_warnings(&in->pricing->warnings);
    if (report_all && in->trace->rows_rejected) {
        gp_inputs_free(in);
        return 1;
    }
    return 0;
}

void gp_cli_run_info(gp_run_info *info, const char *command, const gp_cli *cli,
                     const gp_inputs *in)
{
    memset(info, 0, sizeof *info);
    info->command = command;
    info->train_until = cli->train_until;
    info->forward_hours = cli->forward_hours;
    info->horizon_hours = cli->horizon_hours;
    info->runs = cli->runs;
    info->seed = cli->seed;
    info->runs_given = cli->runs >= 0;
    info->seed_given = cli->seed >= 0;
    info->skip_bad = cli->skip_bad;
    info->step_given = cli->step_given;
    info->idle_threshold_given = cli->idle_threshold_given;
    info->idle_min_hours_given = cli->idle_min_hours_given;
    info->trace_opt = cli->trace_opt;
    info->pricing = in->pricing;
    info->scenario = in->scenario;
    info->trace = in->trace;
    info->used_sample = in->used_sample;
    for (size_t i = 0; i < in->pricing->warnings.count; i++)
        gp_warnings_add(&info->warnings, "%s", in->pricing->warnings.items[i]);
    /* the terminal said so as the trace loaded ("N rows rejected; see
     * ..."); the JSON and the workbook say it here */
    uint64_t rejected = in->trace->rows_rejected;
    if (rejected > 0)
        gp_warnings_add(&info->warnings,
                        "%llu trace %s rejected (--skip-bad) and %s not in "
                        "these numbers; see %s for each with its reason",
                        (unsigned long long)rejected,
                        gp_plural(rejected, "row was", "rows were"),
                        gp_plural(rejected, "is", "are"),
                        gp_cli_rejects_path(cli));
    info->n_load_warnings = info->warnings.count;
}
