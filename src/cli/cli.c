/*
 * cli.c: what the commands share beyond their options (options.c):
 * loading the inputs with the bundled defaults and the rejects file,
 * printing errors and warnings the one way users see them, and the
 * report's account of the run.
 */
/* realpath is XSI (POSIX with the X/Open extension) */
#define _XOPEN_SOURCE 700

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
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The command being run, which every message starts with ("gpuplan
 * recommend: "); NULL before one is known. */
static const char *cli_command;

void gp_cli_set_command(const char *name)
{
    cli_command = name;
}

const char *gp_cli_prefix(void)
{
    static char prefix[64];

    snprintf(prefix, sizeof prefix, "gpuplan%s%s:", cli_command ? " " : "",
             cli_command ? cli_command : "");
    return prefix;
}

void gp_cli_text(const char *text, char *buf, size_t size)
{
    gp_param_expand(text, gp_cli_option_of, NULL, buf, size);
}

/* An error's field as the program shows it: the field with its run
 * parameters as options, or the option of the parameter at fault. */
static void field_shown(const gp_error *err, char *buf, size_t size)
{
    if (err->field[0] || err->param == GP_PARAM_NONE)
        gp_cli_text(err->field, buf, size);
    else
        gp_cli_text(gp_cli_option_of(gp_param_name(err->param), NULL), buf,
                    size);
}

void gp_cli_print_usage_error(const char *command, const gp_error *err)
{
    char field[128], msg[sizeof err->message * 2];

    field_shown(err, field, sizeof field);
    gp_cli_text(err->message, msg, sizeof msg);
    gp_progress_clear();
    fprintf(stderr, "gpuplan %s: %s %s\ntry 'gpuplan %s --help'\n", command,
            field, msg, command);
}

void gp_cli_print_error(const gp_error *err)
{
    char buf[2048];
    gp_error_format_with(err, gp_cli_option_of, NULL, buf, sizeof buf);
    gp_progress_clear();
    fprintf(stderr, "%s %s\n", gp_cli_prefix(), buf);
}

int gp_json_print(json_t *doc)
{
    gp_error err;
    gp_error_clear(&err);
    if (gp_json_write(doc, JSON_COMPACT | JSON_REAL_PRECISION(15), stdout,
                      "standard output", &err) == GP_OK)
        return 0;
    gp_cli_print_error(&err);
    return 1;
}

void gp_cli_print_warnings(const gp_warnings *w)
{
    gp_cli_print_warnings_from(w, 0);
}

void gp_cli_print_warnings_from(const gp_warnings *w, size_t first)
{
    char text[2048];

    gp_progress_clear();
    for (size_t i = first; i < w->count; i++) {
        gp_cli_text(w->items[i], text, sizeof text);
        fprintf(stderr, "%s warning: %s\n", gp_cli_prefix(), text);
    }
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

void gp_cli_classification_worth(const gp_cli *cli, const gp_inputs *in,
                                 gp_classification *c)
{
    gp_engine_options eo;
    gp_error err;

    gp_engine_options_init(&eo);
    eo.mc_runs = (int)cli->runs;
    eo.mc_seed = cli->seed;
    eo.threads = cli->threads;
    gp_error_clear(&err);
    /* an estimate for a note: when it cannot be had, the note has none */
    if (c && gp_classification_worth(c, in->trace, in->pricing, in->scenario,
                                     &eo, &err) != GP_OK)
        c->worth = NAN;
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

/* Whether dir holds the bundled catalogs and sample; if so, its real path
 * goes to out. */
static bool data_dir_at(const char *dir, char out[PATH_MAX])
{
    char probe[PATH_MAX + 32];
    struct stat st;

    snprintf(probe, sizeof probe, "%s/pricing", dir);
    if (stat(probe, &st) != 0 || !S_ISDIR(st.st_mode))
        return false;
    snprintf(probe, sizeof probe, "%s/scenarios/sample/trace.csv", dir);
    if (stat(probe, &st) != 0 || !S_ISREG(st.st_mode))
        return false;
    return realpath(dir, out) != NULL;
}

const char *gp_cli_data_dir(void)
{
    static char found[PATH_MAX];
    const char *d = getenv("GPUPLAN_DATA_DIR");
    char exe[PATH_MAX], dir[PATH_MAX + 32];

    if (d && *d)
        return d;
    if (found[0])
        return found;
    /* beside the program: installed (prefix/bin/gpuplan, data in
     * prefix/share/gpuplan), or built inside the checkout (build/gpuplan),
     * so that moving either does not lose the data */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        snprintf(dir, sizeof dir, "%s/../share/gpuplan", exe);
        if (data_dir_at(dir, found))
            return found;
        snprintf(dir, sizeof dir, "%s/..", exe);
        if (data_dir_at(dir, found))
            return found;
    }
    return GP_DATA_DIR; /* the source tree it was built from */
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

void gp_cli_rows_text(const gp_trace *t, char *buf, size_t size)
{
    unsigned long long kept = t->rows_read - t->rows_rejected;

    if (t->rows_rejected)
        snprintf(buf, size, "%llu %s kept, %llu rejected", kept,
                 gp_plural(kept, "row", "rows"),
                 (unsigned long long)t->rows_rejected);
    else
        snprintf(buf, size, "%llu %s", kept, gp_plural(kept, "row", "rows"));
}

void gp_cli_rows_note(const gp_trace *t, char *buf, size_t size)
{
    buf[0] = '\0';
    if (t->rows_rejected && size > 2) {
        snprintf(buf, size, ", ");
        gp_cli_rows_text(t, buf + 2, size - 2);
    }
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
        char field[128];
        field_shown(why, field, sizeof field);
        gp_cli_text(why->message, msg, sizeof msg);
        put_csv_field(r->f, why->source, strlen(why->source));
        fprintf(r->f, ",%ld,%ld,", why->line, why->column);
        put_csv_field(r->f, field, strlen(field));
        putc(',', r->f);
        put_csv_field(r->f, msg, strlen(msg));
        putc(',', r->f);
        while (len && (row[len - 1] == '\n' || row[len - 1] == '\r'))
            len--;
        put_csv_field(r->f, row, len);
        putc('\n', r->f);
    } else if (r->printed < 100) {
        gp_error_format_with(why, gp_cli_option_of, NULL, msg, sizeof msg);
        fprintf(stderr, "%s %s\n", gp_cli_prefix(), msg);
    }
    r->printed++;
}

/* Without a rejects file (validate) the first 100 bad rows are printed;
 * this counts the rest. */
static void print_more_bad_rows(const struct rejects *r)
{
    if (!r->tmp && r->printed > 100)
        fprintf(stderr, "%s ... and %llu more bad %s\n", gp_cli_prefix(),
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
        gp_temp_remove(r->tmp);
        return GP_ERR_IO;
    }
    gp_status st = gp_move_into_place(r->tmp, r->path, err);
    if (st != GP_OK)
        gp_temp_remove(r->tmp);
    return st;
}

/* gp_inputs_spec.rows_read: every row is read, so the rejects file is
 * complete, and stays even if the trace turns out unusable (it says
 * why); the rows it holds are counted on stderr. */
static gp_status rows_read(void *ctx, gp_error *err)
{
    struct rejects *r = ctx;

    r->rows_read = true; /* the reading stage has cleared its progress */
    if (r->f) {
        gp_status st = finish_rejects(r, err);
        if (st != GP_OK)
            return st;
        if (!r->cli->quiet && r->printed)
            fprintf(stderr,
                    "%s %llu %s rejected; see %s for each with its "
                    "reason\n",
                    gp_cli_prefix(), (unsigned long long)r->printed,
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
 * are kept in `paths` and `one`, which must outlive the spec. */
static void spec_of(const gp_cli *cli, bool sample_default,
                    char paths[3][4096], const char *one[2],
                    gp_inputs_spec *spec)
{
    const char *data = gp_cli_data_dir();

    memset(spec, 0, sizeof *spec);
    spec->today = gp_cli_today();
    spec->trace_opt = cli->trace_opt;
    /* half of this machine's memory for the trace's hourly arrays: the
     * billing and the reports need the rest */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        spec->trace_opt.max_bytes = (uint64_t)pages * (uint64_t)page / 2;
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

void gp_cli_classify_options(const gp_cli *cli, const gp_inputs *in,
                             gp_classify_options *o)
{
    gp_classify_options_init(o);
    o->relabel = cli->relabel;
    o->spot_confidence = cli->spot_confidence;
    if (in->scenario) {
        o->priors = in->scenario->classify_priors;
        o->n_priors = in->scenario->n_classify_priors;
    }
}

int gp_cli_load_classified(const gp_cli *cli, gp_inputs *in,
                           gp_classification **classified)
{
    gp_error err;

    *classified = NULL;
    gp_error_clear(&err);
    /* a workbook that cannot be written is said before the run */
    if (cli->out && gp_xlsx_check_path(cli->out, &err) != GP_OK) {
        gp_cli_print_error(&err);
        return 1;
    }
    int rc = gp_cli_load_inputs(cli, in, true, false);
    if (rc != 0)
        return rc;
    gp_classify_options opt;
    gp_cli_classify_options(cli, in, &opt);
    if (gp_classify_trace_with(in->trace, &opt, classified, &err) != GP_OK) {
        gp_cli_print_error(&err);
        gp_inputs_free(in);
        return 1;
    }
    return 0;
}

int gp_cli_load_inputs(const gp_cli *cli, gp_inputs *in, bool sample_default,
                       bool report_all)
{
    gp_error err;
    char paths[3][4096];
    const char *one[2];
    gp_inputs_spec spec;
    struct rejects r = {cli, gp_cli_rejects_path(cli), NULL, NULL, 0, false};
    gp_error_list scenario_errors = {NULL, 0, 0};

    memset(in, 0, sizeof *in);
    gp_error_clear(&err);
    if (cli->n_traces == 0 && !sample_default) {
        /* commands without a sample mark OPT_NEEDS_TRACE, so the parser
         * has said this already; kept for one that forgets */
        fprintf(stderr, "%s no --trace given\n", gp_cli_prefix());
        return 2;
    }
    spec_of(cli, sample_default, paths, one, &spec);
    spec.rows_read = rows_read;
    spec.rows_read_ctx = &r;
    if (cli->skip_bad || report_all) {
        spec.trace_opt.reject = on_reject;
        spec.trace_opt.reject_ctx = &r;
    }
    if (report_all) /* validate: every error of the scenario, in one run */
        spec.scenario_errors = &scenario_errors;
    gp_status st = gp_inputs_load_catalogs(&spec, in, &err);
    if (st == GP_OK && (!files_apart(cli, r.path, &err) ||
                        (cli->skip_bad && !open_rejects(&r, &err))))
        st = GP_ERR_INPUT;
    if (st == GP_OK) {
        if (cli->n_traces == 0 && !cli->quiet)
            fprintf(stderr,
                    "%s no --trace given: using the bundled "
                    "sample %s\n",
                    gp_cli_prefix(), spec.traces[0]);
        st = gp_inputs_load_traces(&spec, in, &err);
    }
    in->used_sample = st == GP_OK && cli->n_traces == 0;
    if (r.f) { /* not finished: the load failed before every row was read */
        fclose(r.f);
        gp_temp_remove(r.tmp);
    }
    gp_free(r.tmp);
    if (st != GP_OK) {
        gp_inputs_free(in);
        if (!r.rows_read)
            print_more_bad_rows(&r);
        /* validate's bad rows already fail the run; what is wrong with the
         * trace as a whole ("no data rows", a span that fixing them may
         * change) is for after they are fixed */
        if (scenario_errors.count)
            for (size_t i = 0; i < scenario_errors.count; i++)
                gp_cli_print_error(&scenario_errors.items[i]);
        else if (!(r.rows_read && report_all && r.printed &&
                   st == GP_ERR_INPUT))
            gp_cli_print_error(&err);
        gp_error_list_clear(&scenario_errors);
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
    info->show_param = gp_cli_option_of;
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
    info->today = gp_cli_today();
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
