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

/* Warns when commitment c is active in no hour of the window (epoch hours
 * [w0, w0 + n), as the engine bills it): it bills nothing there, which a
 * mistyped start would otherwise hide. */
static void commitment_outside(const gp_commitment *c, const char *whose,
                               int64_t w0, size_t n, gp_warnings *out)
{
    char what[200], a[32], z[32], w[2][32];
    size_t first, last;

    gp_commitment_active_hours(c, w0, n, &first, &last);
    if (last > first)
        return;
    gp_commitment_describe(c, false, what, sizeof what);
    gp_format_time(c->start, a, sizeof a);
    gp_format_time(c->end, z, sizeof z);
    gp_format_time(w0 * 3600, w[0], sizeof w[0]);
    gp_format_time((w0 + (int64_t)n) * 3600, w[1], sizeof w[1]);
    gp_warnings_add(out,
                    "%s commitment (%s) runs from %s to %s and is billed "
                    "for no hour of the window (%s to %s)",
                    whose, what, a, z, w[0], w[1]);
}

/* Warns when savings plan c, active in the window, covers no pool of the
 * trace (gp_plan_offer_of: its provider, a family plan's family in its
 * region): its commitment is billed every hour for nothing, which a
 * mistyped family or region would otherwise hide. */
static void plan_covers_nothing(const gp_commitment *c, const char *whose,
                                const gp_trace *t, int64_t w0, size_t n,
                                gp_warnings *out)
{
    char what[200], scope[160];
    size_t first, last;
    bool in_scope = false;

    if (c->type != GP_COMMIT_SAVINGS_PLAN)
        return;
    gp_commitment_active_hours(c, w0, n, &first, &last);
    if (last <= first)
        return; /* billed for no hour: commitment_outside says so */
    for (size_t p = 0; p < t->n_pools; p++) {
        const gp_catalog *cat = t->pools[p].catalog;
        if (gp_plan_offer_of(c, cat, t->pools[p].type))
            return;
        in_scope |= strcmp(cat->provider, c->provider) == 0 &&
                    (c->kind != GP_PLAN_FAMILY ||
                     (strcmp(cat->region, c->region) == 0 &&
                      strcmp(t->pools[p].type->family, c->family) == 0));
    }
    gp_commitment_describe(c, false, what, sizeof what);
    if (c->kind == GP_PLAN_FAMILY)
        snprintf(scope, sizeof scope, "of family %s in %s %s", c->family,
                 c->provider, c->region);
    else
        snprintf(scope, sizeof scope, "on %s", c->provider);
    if (in_scope)
        gp_warnings_add(out,
                        "%s commitment (%s) covers none of the trace's "
                        "usage: no pool of the trace %s has a %d-year %s "
                        "%s savings-plan rate in the catalogs, so its "
                        "commitment is billed for nothing",
                        whose, what, scope, c->term_years,
                        gp_payment_name(c->payment),
                        gp_plan_kind_name(c->kind));
    else
        gp_warnings_add(out,
                        "%s commitment (%s) covers none of the trace's "
                        "usage: the trace has no pool %s, so its "
                        "commitment is billed for nothing",
                        whose, what, scope);
}

/* Warns when reservation c, active in the window, covers no pool of the
 * trace (gp_reserved_covers, the rule models/reserved.c bills by).  Like
 * plan_covers_nothing: its cost is billed every hour for nothing. */
static void reservation_covers_nothing(const gp_commitment *c,
                                       const char *whose, const gp_pricing *pr,
                                       const gp_trace *t, int64_t w0, size_t n,
                                       gp_warnings *out)
{
    char what[200], scope[200];
    size_t first, last;
    const gp_catalog *cat = NULL;

    if (c->type != GP_COMMIT_RESERVED)
        return;
    gp_commitment_active_hours(c, w0, n, &first, &last);
    if (last <= first)
        return; /* billed for no hour: commitment_outside says so */
    const gp_instance_type *it = gp_pricing_find(pr, c->provider, c->region,
                                                 c->instance_type, &cat, NULL);
    if (!it || !cat)
        return; /* not in the catalogs: an error of its own */
    bool flex = it->normalization_factor > 0;
    for (size_t p = 0; p < t->n_pools; p++)
        if (gp_reserved_covers(cat, it, t->pools[p].catalog, t->pools[p].type))
            return;
    gp_commitment_describe(c, false, what, sizeof what);
    if (flex)
        snprintf(scope, sizeof scope, "of %s or another size of family %s",
                 c->instance_type, it->family);
    else
        snprintf(scope, sizeof scope, "of %s", c->instance_type);
    gp_warnings_add(out,
                    "%s commitment (%s) covers none of the trace's usage: "
                    "the trace has no pool %s in %s %s, so its commitment "
                    "is billed for nothing",
                    whose, what, scope, cat->provider, cat->region);
}

/* A span of hours in words: "31 days", "1 day and 6 hours", "5 hours". */
static void hours_words(int64_t hours, char *buf, size_t size)
{
    int64_t d = hours / 24, h = hours % 24;

    if (d && h)
        snprintf(buf, size, "%lld %s and %lld %s", (long long)d,
                 gp_plural((uint64_t)d, "day", "days"), (long long)h,
                 gp_plural((uint64_t)h, "hour", "hours"));
    else if (d)
        snprintf(buf, size, "%lld %s", (long long)d,
                 gp_plural((uint64_t)d, "day", "days"));
    else
        snprintf(buf, size, "%lld %s", (long long)h,
                 gp_plural((uint64_t)h, "hour", "hours"));
}

/* Warns when the window [w0, w1) (epoch hours) reaches before the trace's
 * first row or past its end [t0, t1): those hours have no row, so they
 * are billed, and plans sized, as hours in which nothing ran (a window
 * from January on a trace from February made January's demand 0, and
 * recommend found nothing to buy). */
static void window_past_trace(int64_t w0, int64_t w1, int64_t t0, int64_t t1,
                              gp_warnings *out)
{
    char a[32], z[32], span[64];

    if (w0 < t0) {
        gp_format_time(w0 * 3600, a, sizeof a);
        gp_format_time(t0 * 3600, z, sizeof z);
        hours_words(t0 - w0, span, sizeof span);
        gp_warnings_add(out,
                        "the scenario's window starts %s before the "
                        "trace's first row (%s to %s): those hours have no "
                        "demand, as if nothing ran; give their rows or "
                        "start the window at the trace's first hour",
                        span, a, z);
    }
    if (w1 > t1) {
        gp_format_time(t1 * 3600, a, sizeof a);
        gp_format_time(w1 * 3600, z, sizeof z);
        hours_words(w1 - t1, span, sizeof span);
        gp_warnings_add(out,
                        "the scenario's window ends %s after the trace's "
                        "last hour (%s to %s): those hours have no demand, "
                        "as if nothing ran; give their rows or end the "
                        "window where the trace ends",
                        span, a, z);
    }
}

/* Hours with no demand in a row longer than this inside the window are
 * warned about (README, "The window"): longer than a week, so no night,
 * weekend or other part of the weekly cycle demand follows. */
#define GAP_WARN_HOURS 168

/* Whether any series has demand in epoch hour h (inside the trace). */
static bool hour_has_demand(const gp_trace *t, int64_t h)
{
    for (size_t i = 0; i < t->n_series; i++)
        if (t->series[i].instance_hours[h - t->start_hour] > 0)
            return true;
    return false;
}

/* Warns about the longest stretch of more than GAP_WARN_HOURS hours of
 * [h0, h1) (epoch hours, inside the trace's span) in which no series has
 * demand: no rows there, or rows of 0 instances, billed as if nothing ran
 * (a trace missing 78 days between March and June was billed so without
 * a word), or, for a forecast, taken for its history's demand.  `what`
 * says so and what to do, after the stretch. */
static void trace_gap(const gp_trace *t, int64_t h0, int64_t h1,
                      const char *what, gp_warnings *out)
{
    int64_t run = 0, best = 0, best_end = 0;
    size_t n_long = 0;

    for (int64_t h = h0; h <= h1; h++) {
        /* h1, the end, closes a run as an hour with demand does */
        if (h < h1 && !hour_has_demand(t, h)) {
            run++;
            continue;
        }
        if (run > GAP_WARN_HOURS) {
            n_long++;
            if (run > best) {
                best = run;
                best_end = h;
            }
        }
        run = 0;
    }
    if (!best)
        return;
    char a[32], z[32], span[64], more[64] = "";
    gp_format_time((best_end - best) * 3600, a, sizeof a);
    gp_format_time(best_end * 3600, z, sizeof z);
    hours_words(best, span, sizeof span);
    if (n_long > 1)
        snprintf(more, sizeof more,
                 ", the longest of %zu stretches over a week", n_long);
    gp_warnings_add(out,
                    "the trace has no demand for %s, %s to %s%s (no rows, "
                    "or rows of 0 instances): %s",
                    span, a, z, more, what);
}

void gp_cli_window_warn(const gp_inputs *in, bool strategies, gp_warnings *out)
{
    const gp_scenario *sc = in->scenario;
    const gp_trace *t = in->trace;
    char w[2][32], u[2][32];
    size_t hours;
    int64_t w0;

    if (t->n_hours == 0)
        return;
    /* the hours the engine bills */
    gp_engine_window(t, sc, &w0, &hours);
    int64_t t0 = t->start_hour, t1 = t->start_hour + (int64_t)t->n_hours;
    if (!(w0 < t1 && w0 + (int64_t)hours > t0)) {
        gp_format_time(w0 * 3600, w[0], sizeof w[0]);
        gp_format_time((w0 + (int64_t)hours) * 3600, w[1], sizeof w[1]);
        gp_format_time(t0 * 3600, u[0], sizeof u[0]);
        gp_format_time(t1 * 3600, u[1], sizeof u[1]);
        gp_warnings_add(out,
                        "the scenario's window, %s to %s, holds none of the "
                        "trace's usage (%s to %s): only commitments are "
                        "billed",
                        w[0], w[1], u[0], u[1]);
    } else {
        window_past_trace(w0, w0 + (int64_t)hours, t0, t1, out);
        trace_gap(t, w0 > t0 ? w0 : t0,
                  w0 + (int64_t)hours < t1 ? w0 + (int64_t)hours : t1,
                  "those hours are billed as if nothing ran; if rows are "
                  "missing there, give them or a window without them",
                  out);
    }
    for (size_t i = 0; i < sc->n_commitments; i++) {
        commitment_outside(&sc->commitments[i], "an owned", w0, hours, out);
        plan_covers_nothing(&sc->commitments[i], "an owned", t, w0, hours, out);
        reservation_covers_nothing(&sc->commitments[i], "an owned", in->pricing,
                                   t, w0, hours, out);
    }
    for (size_t k = 0; strategies && k < sc->n_strategies; k++)
        for (size_t i = 0; i < sc->strategies[k].n_add; i++) {
            char whose[96];
            snprintf(whose, sizeof whose, "strategy \"%s\"'s",
                     sc->strategies[k].name);
            commitment_outside(&sc->strategies[k].add_commitments[i], whose, w0,
                               hours, out);
            plan_covers_nothing(&sc->strategies[k].add_commitments[i], whose, t,
                                w0, hours, out);
            reservation_covers_nothing(&sc->strategies[k].add_commitments[i],
                                       whose, in->pricing, t, w0, hours, out);
        }
}

void gp_cli_history_gap_warn(const gp_cli *cli, gp_run_info *info,
                             const gp_trace *t, int64_t start_hour,
                             size_t n_hours)
{
    gp_warnings w = {NULL, 0, 0};
    int64_t h0 = start_hour, h1 = start_hour + (int64_t)n_hours;

    /* hours before the first with demand are in no series' history (a
     * series is forecast from its first hour with demand) */
    while (h0 < h1 && !hour_has_demand(t, h0))
        h0++;
    trace_gap(t, h0, h1,
              "the forecast learns from those hours as if nothing ran; if "
              "rows are missing there, give them or only the rows after "
              "them",
              &w);
    gp_cli_warn_now(cli, &w, info);
}

/* Adds `msg` to out as a warning located at the row that ends last
 * (t->end_row), as an error locates a bad row: "trace.csv:505:1:
 * timestamp: ..." (no location for a trace built in memory). */
static void warn_at_end_row(const gp_trace *t, const char *msg,
                            gp_warnings *out)
{
    gp_error at = t->end_row;
    char line[sizeof at.source + sizeof at.field + sizeof at.message + 16];
    snprintf(at.message, sizeof at.message, "%s", msg);
    if (at.line <= 0)
        at.source[0] = at.field[0] = '\0';
    gp_error_format(&at, line, sizeof line);
    gp_warnings_add(out, "%s", line);
}

void gp_cli_stale_forecast_warn(const gp_cli *cli, gp_run_info *info,
                                const gp_trace *t, int64_t start_hour,
                                size_t n_hours, const char *what)
{
    int64_t today = gp_cli_today(), end = start_hour * 3600;
    /* the days between the two dates printed: counted from now, a trace
     * ending 2026-07-01T05:00 was "41 days before today (2026-08-12)" at
     * 01:00 that day */
    int64_t midnight = today - today % 86400;
    long long days = (long long)((midnight - (end - end % 86400)) / 86400);
    gp_warnings w = {NULL, 0, 0};
    char a[32], z[32], d[32], msg[sizeof t->end_row.message];

    if (days <= 30)
        return;
    gp_format_time(end, a, sizeof a);
    gp_format_time((start_hour + (int64_t)n_hours) * 3600, z, sizeof z);
    gp_format_time(midnight, d, sizeof d);
    d[10] = '\0'; /* the date alone */
    snprintf(msg, sizeof msg,
             "the trace ends at %s, %lld days before today (%s): %s for %s "
             "to %s, from the trace's end, not from today; give a recent "
             "trace to plan ahead",
             a, days, d, what, a, z);
    warn_at_end_row(t, msg, &w);
    gp_cli_warn_now(cli, &w, info);
}

void gp_cli_future_trace_warn(const gp_trace *t, int64_t fc_start_hour,
                              size_t fc_hours, const char *what,
                              gp_warnings *out)
{
    int64_t today = gp_cli_today();
    /* where the last row ends; a trace built in memory: its last hour's end */
    int64_t end = t->end_s > 0 ? (int64_t)ceil(t->end_s)
                               : (t->start_hour + (int64_t)t->n_hours) * 3600;
    char e[32], d[32], ahead[96], then[256];

    if (t->n_hours == 0 || end - today <= 3600)
        return;
    gp_format_time(end, e, sizeof e);
    if (end - today >= 86400) {
        /* the days between the two dates printed, counted from today's
         * midnight: from now, a trace ending 2026-08-22T00:00 was "9 days
         * after today (2026-08-12)" at any time after midnight */
        int64_t midnight = today - today % 86400;
        long long days = (long long)((end - midnight) / 86400);
        gp_format_time(midnight, d, sizeof d);
        d[10] = '\0'; /* the date alone, as the stale trace's warning */
        snprintf(ahead, sizeof ahead, "%lld %s after today (%s)", days,
                 gp_plural(days, "day", "days"), d);
    } else {
        /* tenths of an hour, rounded up, so always over 1 as the test
         * above is: whole hours, rounded down, made a trace 1.5 hours
         * ahead "1 hour after now", as if within the hour allowed */
        long long tenths = (long long)((end - today + 359) / 360);
        gp_format_time(today, d, sizeof d);
        if (tenths % 10)
            snprintf(ahead, sizeof ahead, "%lld.%lld hours after now (%s)",
                     tenths / 10, tenths % 10, d);
        else
            snprintf(ahead, sizeof ahead, "%lld hours after now (%s)",
                     tenths / 10, d);
    }
    if (fc_hours > 0) {
        char a[32], z[32];
        gp_format_time(fc_start_hour * 3600, a, sizeof a);
        gp_format_time((fc_start_hour + (int64_t)fc_hours) * 3600, z, sizeof z);
        snprintf(then, sizeof then, "%s for %s to %s, from the trace's end",
                 what, a, z);
    } else {
        snprintf(then, sizeof then, "%s", what);
    }
    char msg[sizeof t->end_row.message];
    snprintf(msg, sizeof msg,
             "the trace ends at %s, %s: %s; a trace dated in the future is a "
             "clock or time-zone error, or a converted trace: check its "
             "timestamps",
             e, ahead, then);
    warn_at_end_row(t, msg, out);
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

/* --skip-bad and validate: each rejected row with its reason. */
static void on_reject(void *ctx, const gp_error *why, const char *row,
                      size_t len)
{
    gp_inputs *in = ctx;
    char msg[2048];

    if (in->rejects) {
        /* file,line,column,field,reason,row */
        put_csv_field(in->rejects, why->source, strlen(why->source));
        fprintf(in->rejects, ",%ld,%ld,", why->line, why->column);
        put_csv_field(in->rejects, why->field, strlen(why->field));
        putc(',', in->rejects);
        put_csv_field(in->rejects, why->message, strlen(why->message));
        putc(',', in->rejects);
        while (len && (row[len - 1] == '\n' || row[len - 1] == '\r'))
            len--;
        put_csv_field(in->rejects, row, len);
        putc('\n', in->rejects);
    } else if (in->rejects_printed < 100) {
        gp_error_format(why, msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
    }
    in->rejects_printed++;
}

/* Without a rejects file (validate) the first 100 bad rows are printed;
 * this counts the rest. */
static void print_more_bad_rows(const gp_inputs *in)
{
    if (!in->rejects_tmp && in->rejects_printed > 100)
        fprintf(stderr, "... and %llu more bad %s\n",
                (unsigned long long)(in->rejects_printed - 100),
                gp_plural(in->rejects_printed - 100, "row", "rows"));
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

/* Closes the rejects file and renames it into place; on failure removes it
 * and fills err. */
static bool finish_rejects(gp_inputs *in, const char *path, gp_error *err)
{
    FILE *f = in->rejects;

    in->rejects = NULL;
    if (fclose(f) != 0) {
        gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                     strerror(errno));
        remove(in->rejects_tmp);
        return false;
    }
    if (gp_move_into_place(in->rejects_tmp, path, err) != GP_OK) {
        remove(in->rejects_tmp);
        return false;
    }
    return true;
}

int gp_inputs_load(const gp_cli *cli, gp_inputs *in, bool sample_default,
                   bool report_all)
{
    gp_error err;
    char path[4096];
    const char *data = gp_cli_data_dir();
    int64_t today = gp_cli_today();
    gp_trace_builder *b = NULL;
    gp_trace_options opt = cli->trace_opt;
    const char *scenario = cli->scenario;
    const char *rejects_path = gp_cli_rejects_path(cli);

    memset(in, 0, sizeof *in);
    gp_error_clear(&err);

    /* catalogs */
    if (cli->n_pricing == 0) {
        snprintf(path, sizeof path, "%s/pricing", data);
        if (gp_pricing_load(&in->pricing, path, today, &err) != GP_OK)
            goto fail;
    }
    for (size_t i = 0; i < cli->n_pricing; i++)
        if (gp_pricing_load(&in->pricing, cli->pricing[i], today, &err) !=
            GP_OK)
            goto fail;
    /* every report writes money in the catalogs' currency */
    gp_money_set_currency(gp_pricing_currency(in->pricing));

    /* scenario */
    if (!scenario && cli->n_traces == 0 && sample_default) {
        snprintf(path, sizeof path, "%s/scenarios/sample/scenario.json", data);
        scenario = path;
    }
    if (scenario) {
        if (gp_scenario_load(&in->scenario, scenario, &err) != GP_OK)
            goto fail;
    } else if (gp_scenario_default(&in->scenario, &err) != GP_OK) {
        goto fail;
    }
    if (gp_scenario_check(in->scenario, in->pricing, &in->pricing->warnings,
                          &err) != GP_OK)
        goto fail;

    /* traces */
    if (cli->n_traces == 0 && !sample_default) {
        /* commands without a sample mark OPT_NEEDS_TRACE, so the parser
         * has said this already; kept for one that forgets */
        fprintf(stderr, "gpuplan: no --trace given\n");
        gp_inputs_free(in);
        return 2;
    }
    /* one file named twice (a glob and its own path) would count its rows
     * twice; the rejects list and classify's --out must not replace an
     * input being read */
    for (size_t i = 0; i < cli->n_traces; i++) {
        for (size_t j = 0; j < i; j++)
            if (gp_cli_same_file(cli->traces[i], cli->traces[j])) {
                gp_error_set(&err, cli->traces[i], 0, 0, NULL,
                             "the same file as --trace %s: its rows would "
                             "count twice",
                             cli->traces[j]);
                goto fail;
            }
    }
    const char *over;
    if (cli->skip_bad && (over = gp_cli_input_named(cli, rejects_path))) {
        gp_error_set(&err, rejects_path, 0, 0, NULL,
                     "--rejects names %s itself; give the rejected rows a "
                     "file of their own",
                     over);
        goto fail;
    }
    if (cli->out && (over = gp_cli_input_named(cli, cli->out))) {
        gp_error_set(&err, cli->out, 0, 0, NULL,
                     "--out names %s itself; writing it would replace %s", over,
                     over);
        goto fail;
    }
    if (cli->skip_bad) {
        struct stat sb;
        if (stat(rejects_path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            /* said before the trace is read, not at the rename after */
            gp_error_set(&err, rejects_path, 0, 0, NULL, "cannot write: %s",
                         strerror(EISDIR));
            goto fail;
        }
        if (gp_temp_name(rejects_path, "", &in->rejects_tmp, &err) != GP_OK)
            goto fail;
        in->rejects = fopen(in->rejects_tmp, "w");
        if (!in->rejects) {
            gp_error_set(&err, rejects_path, 0, 0, NULL, "cannot write: %s",
                         strerror(errno));
            goto fail;
        }
        fputs("file,line,column,field,reason,row\n", in->rejects);
    }
    if (cli->skip_bad || report_all) {
        opt.reject = on_reject;
        opt.reject_ctx = in;
    }
    if (gp_trace_builder_new(&b, in->pricing, &opt, &err) != GP_OK)
        goto fail;
    if (cli->n_traces == 0) {
        snprintf(path, sizeof path, "%s/scenarios/sample/trace.csv", data);
        in->used_sample = true;
        if (!cli->quiet)
            fprintf(stderr,
                    "gpuplan: no --trace given: using the bundled "
                    "sample %s\n",
                    path);
        if (gp_trace_builder_add_file(b, path, &err) != GP_OK) {
            gp_trace_builder_free(b);
            goto fail;
        }
    }
    for (size_t i = 0; i < cli->n_traces; i++) {
        if (gp_trace_builder_add_file(b, cli->traces[i], &err) != GP_OK) {
            gp_trace_builder_free(b);
            goto fail;
        }
    }
    gp_progress_clear();
    /* every row is read: the rejects file is complete, and stays even if
     * the trace turns out unusable (it says why) */
    if (in->rejects) {
        if (!finish_rejects(in, rejects_path, &err)) {
            gp_trace_builder_free(b);
            goto fail;
        }
        if (!cli->quiet && in->rejects_printed)
            fprintf(stderr,
                    "gpuplan: %llu %s rejected; see %s for each with its "
                    "reason\n",
                    (unsigned long long)in->rejects_printed,
                    gp_plural(in->rejects_printed, "row", "rows"),
                    rejects_path);
    }
    print_more_bad_rows(in);
    gp_status st = gp_trace_builder_finish(b, &in->trace, &err);
    if (st != GP_OK) {
        /* validate's bad rows already fail the run; what is wrong with the
         * trace as a whole ("no data rows", a span that fixing them may
         * change) is for after they are fixed */
        if (!(report_all && in->rejects_printed && st == GP_ERR_INPUT))
            gp_cli_print_error(&err);
        gp_inputs_free(in);
        return 1;
    }
    /* the trace is known: stale prices only of the catalogs it uses */
    gp_pricing_drop_unused_warnings(in->pricing, in->trace, in->scenario);
    if (!cli->quiet)
        gp_cli_print_warnings(&in->pricing->warnings);
    if (report_all && in->trace->rows_rejected) {
        gp_inputs_free(in);
        return 1;
    }
    return 0;
fail:
    print_more_bad_rows(in);
    gp_cli_print_error(&err);
    gp_inputs_free(in);
    return 1;
}

void gp_inputs_free(gp_inputs *in)
{
    if (!in)
        return;
    if (in->rejects) {
        fclose(in->rejects);
        remove(in->rejects_tmp);
    }
    gp_free(in->rejects_tmp);
    gp_pricing_free(in->pricing);
    gp_scenario_free(in->scenario);
    gp_trace_free(in->trace);
    memset(in, 0, sizeof *in);
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
