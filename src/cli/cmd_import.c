/*
 * cmd_import.c: `gpuplan import <format> FILE...`, the converters from the
 * formats users already have (telemetry, price lists, bills) into
 * gpuplan's trace CSV and catalog JSON (docs/import.md).  The output is
 * all or nothing: --out is written to a temporary name and renamed, and
 * standard output gets the document only once the importer succeeded.
 */
#include "cli.h"
#include "import.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The formats, each as (name, name padded for the usage text, one-line
 * summary, importer, kind).  One list makes both the table and `import
 * --help`. */
#define IMPORT_FORMATS(X)                                                      \
    X("nvidia-smi", "nvidia-smi  ",                                            \
      "nvidia-smi --query-gpu=... --format=csv logs -> trace",                 \
      gp_import_nvidia_smi, TELEMETRY)                                         \
    X("dcgm", "dcgm        ",                                                  \
      "DCGM exporter scrapes (Prometheus text) -> trace", gp_import_dcgm,      \
      TELEMETRY)                                                               \
    X("prometheus", "prometheus  ",                                            \
      "Prometheus query_range JSON of DCGM metrics -> trace",                  \
      gp_import_prometheus, TELEMETRY)                                         \
    X("aws-offer", "aws-offer   ",                                             \
      "AWS Price List offer / savings-plan CSV -> catalog",                    \
      gp_import_aws_offer, PRICES)                                             \
    X("spot-advisor", "spot-advisor",                                          \
      "AWS Spot Instance Advisor feed -> catalog spot prices",                 \
      gp_import_spot_advisor, PRICES)                                          \
    X("focus", "focus       ", "FOCUS billing export -> trace",                \
      gp_import_focus, BILL)                                                   \
    X("aws-cur", "aws-cur     ", "AWS Cost and Usage Report -> trace",         \
      gp_import_aws_cur, BILL)                                                 \
    X("spot-availability", "spot-availability",                                \
      "SkyPilot spot-traces JSON -> availability CSV",                         \
      gp_import_spot_availability, SPOT)                                       \
    X("spot-events", "spot-events ",                                           \
      "EventBridge spot interruption warnings -> events CSV",                  \
      gp_import_spot_events, SPOT)

/* What a format is: which options it takes and whether it needs the
 * catalogs (telemetry: a type's GPU count; bills: which types they price). */
typedef enum import_kind { TELEMETRY, PRICES, BILL, SPOT } import_kind;

typedef struct import_format {
    gp_importer importer;
    import_kind kind;
} import_format;

#define AS_ENTRY(name, padded, summary, fn, kind) {{name, summary, fn}, kind},
static const import_format formats[] = {IMPORT_FORMATS(AS_ENTRY)};
#define N_FORMATS (sizeof formats / sizeof formats[0])

#define AS_USAGE(name, padded, summary, fn, kind) "  " padded "  " summary "\n"

/* What an atomic write of the output needs. */
typedef struct import_run {
    const gp_importer *importer;
    const gp_import_options *opt;
    gp_error *err;
} import_run;

/* gp_write_atomic's callback: the importer writes into the temporary
 * file. */
static gp_status write_output(FILE *f, void *ctx)
{
    import_run *r = ctx;
    return r->importer->run(r->opt, f, r->err);
}

/* Runs the importer into a temporary file and copies it to standard output
 * only when it succeeded. */
static gp_status run_to_stdout(import_run *r)
{
    char dir[256];
    FILE *tmp = gp_scratch_file(dir, sizeof dir); /* in $TMPDIR */
    char buf[65536];
    size_t n;
    gp_status st;

    if (!tmp) {
        gp_error_set(r->err, NULL, 0, 0, NULL,
                     "cannot create a temporary file in %s: %s", dir,
                     strerror(errno));
        return GP_ERR_IO;
    }
    st = write_output(tmp, r);
    if (st == GP_OK) {
        rewind(tmp);
        while ((n = fread(buf, 1, sizeof buf, tmp)) > 0)
            if (fwrite(buf, 1, n, stdout) != n)
                break;
        if (ferror(tmp) || fflush(stdout) != 0 || ferror(stdout)) {
            gp_error_set(r->err, "-", 0, 0, NULL,
                         "cannot write to standard output");
            st = GP_ERR_IO;
        }
    }
    fclose(tmp);
    return st;
}

/* Prints "nvidia-smi, dcgm, ... or aws-cur" to f. */
static void print_format_names(FILE *f)
{
    for (size_t i = 0; i < N_FORMATS; i++)
        fprintf(f, "%s%s",
                i == 0               ? ""
                : i + 1 == N_FORMATS ? " or "
                                     : ", ",
                formats[i].importer.name);
}

/* A usage mistake: the message, a hint, exit 2. */
static int usage(const char *what, const char *arg)
{
    fprintf(stderr, "gpuplan import: %s", what);
    if (arg)
        fprintf(stderr, " \"%s\"", arg);
    fprintf(stderr, " (expected ");
    print_format_names(stderr);
    fprintf(stderr, ")\ntry 'gpuplan import --help'\n");
    return 2;
}

/* The formats as bits, in IMPORT_FORMATS' order (bit i is formats[i]),
 * for which options each reads. */
enum {
    F_NVIDIA_SMI = 1 << 0,
    F_DCGM = 1 << 1,
    F_PROMETHEUS = 1 << 2,
    F_AWS_OFFER = 1 << 3,
    F_SPOT_ADVISOR = 1 << 4,
    F_FOCUS = 1 << 5,
    F_AWS_CUR = 1 << 6,
    F_SPOT_AVAILABILITY = 1 << 7,
    F_TELEMETRY = F_NVIDIA_SMI | F_DCGM | F_PROMETHEUS,
    F_BILL = F_FOCUS | F_AWS_CUR
};

/* An option given to a format that does not read it (`readers`: the
 * formats that do, as F_* bits): a usage error, since ignoring it would
 * give the output without it and no word. */
static int option_not_for(const char *option, const import_format *fmt,
                          unsigned readers)
{
    size_t n = 0, k = 0;

    for (size_t i = 0; i < N_FORMATS; i++)
        n += (readers >> i) & 1u;
    fprintf(stderr, "gpuplan import: %s is not read by %s (only by ", option,
            fmt->importer.name);
    for (size_t i = 0; i < N_FORMATS; i++)
        if ((readers >> i) & 1u)
            fprintf(stderr, "%s%s",
                    k++ == 0 ? ""
                    : k == n ? " and "
                             : ", ",
                    formats[i].importer.name);
    fprintf(stderr, ")\ntry 'gpuplan import --help'\n");
    return 2;
}

/* The format named by the first argument, or NULL after a usage error
 * (*rc the exit status): a format, files to read, "-" at most once. */
static const import_format *format_of(const gp_cli *cli, int *rc)
{
    const import_format *fmt = NULL;

    *rc = 2;
    if (cli->n_args == 0) {
        usage("name the format to import", NULL);
        return NULL;
    }
    for (size_t i = 0; i < N_FORMATS; i++)
        if (strcmp(cli->args[0], formats[i].importer.name) == 0)
            fmt = &formats[i];
    if (!fmt) {
        usage("unknown format", cli->args[0]);
        return NULL;
    }
    if (cli->n_args < 2) {
        fprintf(stderr,
                "gpuplan import %s: name the files to import (\"-\" reads "
                "standard input)\ntry 'gpuplan import --help'\n",
                fmt->importer.name);
        return NULL;
    }
    /* standard input can be read once: a second "-" found it empty */
    for (int i = 2; i < cli->n_args; i++)
        for (int j = 1; j < i && strcmp(cli->args[i], "-") == 0; j++)
            if (strcmp(cli->args[j], "-") == 0) {
                fprintf(stderr,
                        "gpuplan import %s: - (standard input) is given "
                        "twice; it can be read once only\n"
                        "try 'gpuplan import --help'\n",
                        fmt->importer.name);
                return NULL;
            }
    *rc = 0;
    return fmt;
}

/* Each option only where the format reads it: 0, or 2 after saying so. */
static int options_read_by(const gp_cli *cli, const import_format *fmt)
{
    const struct {
        const char *option;
        bool given;
        unsigned readers;
    } reads[] = {
        {"--step", cli->step_given, F_TELEMETRY},
        {"--time", cli->time != NULL, F_DCGM | F_SPOT_AVAILABILITY},
        {"--commitments-out", cli->commitments_out != NULL, F_BILL},
        {"--instance-type", cli->instance_type != NULL, F_TELEMETRY},
        {"--provider", cli->provider != NULL, F_TELEMETRY},
        {"--region", cli->trace_opt.region != NULL, F_TELEMETRY | F_AWS_OFFER},
        {"--pricing", cli->n_pricing > 0, F_TELEMETRY | F_BILL},
    };
    unsigned bit = 1u << (fmt - formats);
    for (size_t i = 0; i < sizeof reads / sizeof reads[0]; i++)
        if (reads[i].given && !(reads[i].readers & bit))
            return option_not_for(reads[i].option, fmt, reads[i].readers);
    return 0;
}

/* The outputs apart from each other and from every input: writing one
 * over a file being imported, or a catalog being read, would lose it (the
 * outputs are written after every input is read).  0, or 2 after saying
 * so. */
static int outputs_apart(const gp_cli *cli)
{
    if (cli->commitments_out && cli->out &&
        (strcmp(cli->out, cli->commitments_out) == 0 ||
         gp_cli_same_file(cli->out, cli->commitments_out))) {
        fprintf(stderr,
                "gpuplan import: --out and --commitments-out name the same "
                "file, %s\ntry 'gpuplan import --help'\n",
                cli->commitments_out);
        return 2;
    }
    const char *outs[2] = {cli->out, cli->commitments_out};
    static const char *const opts[2] = {"--out", "--commitments-out"};
    for (int k = 0; k < 2; k++) {
        const char *what = outs[k] ? gp_cli_input_named(cli, outs[k]) : NULL;
        for (int i = 1; outs[k] && !what && i < cli->n_args; i++)
            if (gp_cli_same_file(cli->args[i], outs[k]))
                what = "a file being imported";
        if (what) {
            fprintf(stderr,
                    "gpuplan import: %s names %s, %s; writing it would "
                    "replace it\ntry 'gpuplan import --help'\n",
                    opts[k], outs[k], what);
            return 2;
        }
    }
    return 0;
}

/* A bill's files are added up (a CUR comes in parts): one file named twice
 * would count its charges twice. */
static gp_status bill_files_apart(const gp_cli *cli, gp_error *err)
{
    for (int i = 2; i < cli->n_args; i++)
        for (int j = 1; j < i; j++)
            if (gp_cli_same_file(cli->args[i], cli->args[j])) {
                gp_error_set(err, cli->args[i], 0, 0, NULL,
                             "the same file as %s: its charges would count "
                             "twice",
                             cli->args[j]);
                return GP_ERR_INPUT;
            }
    return GP_OK;
}

/* The importer's options from the command line; notes go to `notes`. */
static void import_options(const gp_cli *cli, gp_warnings *notes,
                           gp_import_options *opt)
{
    double t;
    const char *why;

    memset(opt, 0, sizeof *opt);
    opt->inputs = (const char *const *)(cli->args + 1);
    opt->n_inputs = (size_t)cli->n_args - 1;
    opt->provider = cli->provider;
    opt->region = cli->trace_opt.region; /* lower case (gp_cli_parse) */
    opt->instance_type = cli->instance_type;
    opt->commitments_out = cli->commitments_out;
    opt->notes = notes;
    opt->step_s = cli->step_given ? cli->trace_opt.default_step_s : 0;
    if (cli->time && gp_parse_time(cli->time, strlen(cli->time), &t, &why)) {
        opt->has_time = true;
        opt->time = t;
    }
}

/* The catalogs the telemetry importers need (a type's GPU count) and the
 * bill importers price by: --pricing, else the bundled ones. */
static gp_status load_catalogs(const gp_cli *cli, gp_pricing **pricing,
                               gp_error *err)
{
    int64_t today = gp_cli_today();
    char path[4096];
    gp_status st = GP_OK;

    if (cli->n_pricing == 0) {
        snprintf(path, sizeof path, "%s/pricing", gp_cli_data_dir());
        st = gp_pricing_load(pricing, path, today, err);
    }
    for (size_t i = 0; st == GP_OK && i < cli->n_pricing; i++)
        st = gp_pricing_load(pricing, cli->pricing[i], today, err);
    return st;
}

/* `gpuplan import <format> FILE...`: checks the arguments, loads the
 * catalogs, runs the importer into the output. */
static int exec_import(gp_cli *cli)
{
    gp_import_options opt;
    gp_pricing *pricing = NULL;
    gp_warnings notes = {0};
    gp_error err;
    import_run run;
    gp_status st = GP_OK;
    int rc;

    const import_format *fmt = format_of(cli, &rc);
    if (!fmt)
        return rc;
    if ((rc = options_read_by(cli, fmt)) != 0 ||
        (rc = outputs_apart(cli)) != 0)
        return rc;
    gp_error_clear(&err);
    if (fmt->kind == BILL)
        st = bill_files_apart(cli, &err);
    import_options(cli, &notes, &opt);
    /* the catalogs' warnings (stale prices) are left out: import reads
     * only which types they price and their GPU counts */
    if (st == GP_OK && fmt->kind != PRICES && fmt->kind != SPOT)
        st = load_catalogs(cli, &pricing, &err);
    opt.pricing = pricing;
    run.importer = &fmt->importer;
    run.opt = &opt;
    run.err = &err;
    if (st == GP_OK)
        st = cli->out ? gp_write_atomic(cli->out, write_output, &run, &err)
                      : run_to_stdout(&run);
    if (st == GP_OK && !cli->quiet)
        for (size_t i = 0; i < notes.count; i++) {
            char text[2048];
            gp_cli_text(notes.items[i], text, sizeof text);
            fprintf(stderr, "gpuplan import: %s\n", text);
        }
    if (st != GP_OK) {
        if (!err.message[0])
            gp_error_set(&err, NULL, 0, 0, NULL, "%s", gp_strstatus(st));
        gp_cli_print_error(&err);
        if (st == GP_ERR_USAGE)
            fprintf(stderr, "try 'gpuplan import --help'\n");
    }
    gp_warnings_clear(&notes);
    gp_pricing_free(pricing);
    return st == GP_OK ? 0 : st == GP_ERR_USAGE ? 2 : 1;
}

/* clang-format off: the usage text reads best laid out as it prints */
const struct gp_command gp_cmd_import = {
    "import",
    "convert telemetry, price lists and bills into traces and catalogs",
    "  gpuplan import <format> FILE... [options]\n"
    "\n"
    "Converts FILEs (\"-\" reads standard input) to a trace CSV or a\n"
    "catalog JSON on standard output, or atomically to --out F.\n"
    "\n"
    "formats:\n" IMPORT_FORMATS(
        AS_USAGE) "\n"
                  "options (one a format does not read is a usage "
                  "error):\n"
                  "  --out F               write here (temporary name, then "
                  "renamed)\n"
                  "  --quiet               no summary on stderr\n"
                  "  --pricing P...        telemetry and bills: catalogs "
                  "(default: the\n"
                  "                        bundled pricing/)\n"
                  "telemetry (nvidia-smi, dcgm, prometheus):\n"
                  "  --instance-type T     the instance type the GPUs run on "
                  "(default:\n"
                  "                        the one type of the catalogs whose "
                  "GPU model\n"
                  "                        and count match the telemetry)\n"
                  "  --provider P          aws, gcp or azure: where to look "
                  "the type up\n"
                  "  --region R            the region to look the type up in "
                  "(read in\n"
                  "                        lower case: US-EAST-1 is "
                  "us-east-1)\n"
                  "  --step SECONDS        length of a GPU's only sample "
                  "(dcgm: 60;\n"
                  "                        at most 31622400: 366 days)\n"
                  "  --time T              dcgm: when a scrape without "
                  "timestamps was\n"
                  "                        taken (ISO 8601 or epoch seconds)\n"
                  "spot-availability: --time T, the time of the JSON's "
                  "first tick\n"
                  "spot-events: JSON lines of EventBridge events or a CSV "
                  "with time,\n"
                  "instance_id (and job_id, action); other events are "
                  "skipped\n"
                  "aws-offer:\n"
                  "  --region R            the region to import (needed when "
                  "the GPU\n"
                  "                        rows are in several)\n"
                  "bills (focus, aws-cur): usage of types the catalogs do "
                  "not price\n"
                  "in its region (CPU instances) is left out and counted\n"
                  "  --commitments-out F   also write the commitments the "
                  "bill shows as\n"
                  "                        owned, as a scenario JSON "
                  "(atomically)\n",
    OPT_IMPORT | OPT_PRICING | OPT_OUT,
    exec_import,
};
/* clang-format on */
