/*
 * cmd_classify.c: `gpuplan classify` labels unlabelled series as training
 * or inference (classify.c decides), prints one line per series with its
 * label, confidence and the features behind it (or JSON with --json), and
 * with --out writes the input rows again with `workload` filled in and a
 * `workload_confidence` column: every input row comes out once, in input
 * order, its other fields as they were read.
 */
#include "classify.h"
#include "cli.h"
#include "source.h"
#include "util.h"
#include "writers.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What the --out callback needs: the inputs and the texts read. */
struct out_job {
    const gp_cli *cli;
    const gp_inputs *in;
    const gp_classification *c;
    char **texts;
    size_t *lens;
    gp_error *err;
};

/* gp_write_atomic's callback. */
static gp_status write_rows(FILE *f, void *ctx)
{
    struct out_job *j = ctx;
    return gp_classify_write_labeled(
        f, j->in->trace, j->in->pricing, &j->cli->trace_opt, j->c,
        j->cli->n_traces, (const char *const *)j->cli->traces,
        (const char *const *)j->texts, j->lens, j->err);
}

/* --out: the traces read again and written labelled. */
static gp_status write_labeled(const gp_cli *cli, const gp_inputs *in,
                               const gp_classification *c, gp_error *err)
{
    struct out_job j = {cli, in, c, NULL, NULL, err};
    gp_status st = GP_OK;

    j.texts = gp_calloc(cli->n_traces, sizeof *j.texts);
    j.lens = gp_calloc(cli->n_traces, sizeof *j.lens);
    if (!j.texts || !j.lens) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        st = GP_ERR_NOMEM;
    }
    for (size_t i = 0; i < cli->n_traces && st == GP_OK; i++)
        st = gp_source_load(cli->traces[i], GP_SOURCE_TRACE, &j.texts[i],
                            &j.lens[i], err);
    if (st == GP_OK)
        st = gp_write_atomic(cli->out, write_rows, &j, err);
    for (size_t i = 0; j.texts && i < cli->n_traces; i++)
        gp_free(j.texts[i]);
    gp_free(j.texts);
    gp_free(j.lens);
    return st;
}

/* A feature for the table: "-" when it could not be computed. */
static void feature(char *buf, size_t size, double v)
{
    if (isfinite(v))
        snprintf(buf, size, "%.2f", v);
    else
        snprintf(buf, size, "-");
}

/* One line per series on stdout. */
static void print_table(const gp_trace *t, const gp_classification *c)
{
    printf("%-5s %-6s %-10s %-16s %-16s %-20s %-9s %-9s %5s %9s %6s %5s "
           "%5s %5s %5s\n",
           "#", "cloud", "region", "instance_type", "team", "project",
           "loaded", "workload", "conf", "hours", "duty", "cv", "daily",
           "acf24", "acf168");
    for (size_t s = 0; s < c->n_series; s++) {
        const gp_series_class *v = &c->series[s];
        const gp_pool *p = &t->pools[v->pool];
        char f[5][16];
        feature(f[0], sizeof f[0], v->f.duty_cycle);
        feature(f[1], sizeof f[1], v->f.cv);
        feature(f[2], sizeof f[2], v->f.daily_strength);
        feature(f[3], sizeof f[3], v->f.acf_daily);
        feature(f[4], sizeof f[4], v->f.acf_weekly);
        printf("%-5zu %-6s %-10s %-16s %-16s %-20s %-9s %-9s %5.2f %9.0f "
               "%6s %5s %5s %5s %5s%s\n",
               s + 1, p->catalog->provider, p->catalog->region,
               p->type->name, v->team >= 0 ? t->labels[v->team] : "-",
               v->project >= 0 ? t->labels[v->project] : "-",
               v->loaded == GP_UNLABELED ? "-" : gp_workload_name(v->loaded),
               gp_classify_label_name(v), v->confidence, v->f.span_hours,
               f[0], f[1], f[2], f[3], f[4],
               v->short_series ? "  (short)" : "");
    }
}

/* --explain: each decided series' evidence, a log-odds of training per
 * term, their sum and the verdict. */
static void print_explain(const gp_trace *t, const gp_classification *c)
{
    printf("%-5s %-16s %-16s %-20s", "#", "instance_type", "team",
           "project");
    for (int k = 0; k < GP_N_EVIDENCE; k++)
        printf(" %*s", k == GP_EV_INTERRUPTIBLE ? 13 : 11,
               gp_evidence_names[k]);
    printf(" %7s %-9s %5s %s\n", "sum", "workload", "conf", "billed");
    for (size_t s = 0; s < c->n_series; s++) {
        const gp_series_class *v = &c->series[s];
        if (!v->decided)
            continue;
        printf("%-5zu %-16s %-16s %-20s", s + 1,
               t->pools[v->pool].type->name,
               v->team >= 0 ? t->labels[v->team] : "-",
               v->project >= 0 ? t->labels[v->project] : "-");
        for (int k = 0; k < GP_N_EVIDENCE; k++)
            printf(" %+*.2f", k == GP_EV_INTERRUPTIBLE ? 13 : 11,
                   v->evidence[k] + 0.0);
        printf(" %+7.2f %-9s %5.2f %s\n", v->score + 0.0,
               gp_classify_label_name(v), v->confidence,
               gp_workload_name(gp_classify_planned(v)));
    }
}

static int classify_exec(gp_cli *cli)
{
    gp_inputs in;
    gp_classification *c = NULL;
    gp_error err;
    int rc;

    if (cli->out)
        for (size_t i = 0; i < cli->n_traces; i++)
            if (strcmp(cli->traces[i], "-") == 0) {
                fprintf(stderr, "gpuplan classify: --out reads the traces "
                                "twice, so --trace - (standard input) "
                                "cannot be used with it; save the trace to "
                                "a file\ntry 'gpuplan classify --help'\n");
                return 2;
            }
    rc = gp_cli_load_inputs(cli, &in, false, false);
    if (rc != 0)
        return rc;
    gp_error_clear(&err);
    gp_classify_options opt;
    gp_cli_classify_options(cli, &in, &opt);
    if (gp_classify_with(in.trace, &opt, &c, &err) != GP_OK) {
        gp_cli_print_error(&err);
        gp_inputs_free(&in);
        return 1;
    }
    if (cli->out && write_labeled(cli, &in, c, &err) != GP_OK) {
        gp_cli_print_error(&err);
        rc = 1;
        goto out;
    }
    if (cli->json) {
        json_t *doc = gp_json_classify(c, in.trace);
        rc = gp_json_print(doc);
        json_decref(doc);
    } else if (cli->explain) {
        print_explain(in.trace, c);
    } else {
        print_table(in.trace, c);
    }
    if (!cli->quiet) {
        size_t n = c->n_decided[0] + c->n_decided[1] + c->n_unknown;
        char train[32], infer[32], unknown[96];
        gp_format_small(c->decided_hours[0], "0.0", train, sizeof train);
        gp_format_small(c->decided_hours[1], "0.0", infer, sizeof infer);
        gp_classification_unknown_note(c, unknown, sizeof unknown);
        fprintf(stderr,
                "gpuplan classify: %zu of %zu series decided: %zu training "
                "(%s instance-hours), %zu inference (%s)%s%s%s\n",
                n, c->n_series, c->n_decided[0], train, c->n_decided[1], infer,
                unknown, cli->out ? "; labelled rows in " : "",
                cli->out ? cli->out : "");
    }
out:
    gp_classification_free(c);
    gp_inputs_free(&in);
    return rc;
}

const struct gp_command gp_cmd_classify = {
    "classify",
    "label unlabelled usage training, inference or unknown, with evidence",
    "  --trace F...        usage trace CSV files, required\n"
    "  --pricing P...      catalog files or folders (default: bundled)\n"
    "  --scenario S        classify.priors: GPU-class priors of your own\n"
    "  --out FILE          the trace rows again, workload filled in\n"
    "                      (training, inference or unknown), with a\n"
    "                      workload_confidence column (0.5..1)\n"
    "  --relabel           reconsider rows that already name a workload\n"
    "  --explain           each series' evidence terms, in log-odds\n"
    "  --spot-confidence P training this sure (default 0.9) is billed\n"
    "                      interruptible, as labelled training is\n"
    "  --json              the verdicts, evidence and features as JSON\n"
    "  --layout jobs, --map name=column, --step S, --region R,\n"
    "  --provider P, --instance-type T\n"
    "                      trace options, as for validate\n"
    "  --threads N         threads for reading (default: all cores)\n"
    "  --quiet             no summary or warnings on stderr\n",
    OPT_TRACE | OPT_PRICING | OPT_SCENARIO | OPT_OUT | OPT_JSON |
        OPT_RELABEL | OPT_EXPLAIN | OPT_SPOT_CONFIDENCE | OPT_NEEDS_TRACE,
    classify_exec,
};
