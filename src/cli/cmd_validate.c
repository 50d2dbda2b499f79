/*
 * cmd_validate.c: `gpuplan validate` reads every input, reports every
 * problem, and prints what it read: the window simulate would bill (and
 * the trace's span when a scenario sets the window), the pools,
 * instance-hours by workload, useful GPU-hours, rows read and rejected.
 */
#include "cli.h"
#include "engine.h"
#include "util.h"

#include <stdio.h>

/* With a scenario window: the trace's own span, and how many of its
 * instance-hours fall in the window's hours [w0, w0 + wn), the ones
 * simulate bills. */
static void print_trace_span(const gp_trace *t, int64_t w0, size_t wn)
{
    char a[32], z[32];
    double all = t->instance_hours[GP_TRAINING] +
                 t->instance_hours[GP_INFERENCE] +
                 t->instance_hours[GP_UNLABELED];
    double in_window = 0;

    if (w0 <= t->start_hour &&
        w0 + (int64_t)wn >= t->start_hour + (int64_t)t->n_hours)
        in_window = all; /* the whole trace, summed as the line below */
    else
        for (size_t s = 0; s < t->n_series; s++)
            for (size_t h = 0; h < t->n_hours; h++) {
                int64_t hour = t->start_hour + (int64_t)h;
                if (hour >= w0 && hour < w0 + (int64_t)wn)
                    in_window += t->series[s].instance_hours[h];
            }
    gp_format_time(t->start_hour * 3600, a, sizeof a);
    gp_format_time((t->start_hour + (int64_t)t->n_hours) * 3600, z, sizeof z);
    printf("trace:           %s to %s (%zu %s), %.2f of its %.2f "
           "instance-hours in the window\n",
           a, z, t->n_hours, gp_plural(t->n_hours, "hour", "hours"), in_window,
           all);
}

static int validate_exec(gp_cli *cli)
{
    gp_inputs in;
    int rc = gp_cli_load_inputs(cli, &in, false, !cli->skip_bad);
    char a[32], z[32];

    if (rc != 0)
        return rc;
    const gp_trace *t = in.trace;
    /* the window simulate bills, and its warnings: a window that misses
     * the trace, a commitment active at no hour of it */
    gp_warnings ww = {NULL, 0, 0};
    gp_cli_window_warn(&in, true, &ww);
    if (!cli->quiet)
        gp_cli_print_warnings(&ww);
    gp_warnings_clear(&ww);
    if (in.scenario->has_window) {
        int64_t w0;
        size_t wn;
        gp_engine_window(t, in.scenario, &w0, &wn);
        gp_format_time(w0 * 3600, a, sizeof a);
        gp_format_time((w0 + (int64_t)wn) * 3600, z, sizeof z);
        printf("window:          %s to %s (%zu %s, the scenario's)\n", a, z, wn,
               gp_plural(wn, "hour", "hours"));
        print_trace_span(t, w0, wn);
    } else {
        gp_format_time(t->start_hour * 3600, a, sizeof a);
        gp_format_time((t->start_hour + (int64_t)t->n_hours) * 3600, z,
                       sizeof z);
        printf("window:          %s to %s (%zu %s)\n", a, z, t->n_hours,
               gp_plural(t->n_hours, "hour", "hours"));
    }
    printf("rows:            %llu read, %llu rejected\n",
           (unsigned long long)t->rows_read,
           (unsigned long long)t->rows_rejected);
    printf("pools:           %zu\n", t->n_pools);
    for (size_t p = 0; p < t->n_pools; p++) {
        double by_w[GP_N_WORKLOADS] = {0, 0, 0};
        for (size_t s = 0; s < t->n_series; s++) {
            if (t->series[s].pool != p)
                continue;
            for (size_t h = 0; h < t->n_hours; h++)
                by_w[t->series[s].workload] += t->series[s].instance_hours[h];
        }
        printf("  %s %s %-16s %12.2f training, %12.2f inference, %12.2f "
               "unlabeled instance-hours\n",
               t->pools[p].catalog->provider, t->pools[p].catalog->region,
               t->pools[p].type->name, by_w[GP_TRAINING], by_w[GP_INFERENCE],
               by_w[GP_UNLABELED]);
    }
    printf("instance-hours:  %.2f training, %.2f inference, %.2f unlabeled\n",
           t->instance_hours[GP_TRAINING], t->instance_hours[GP_INFERENCE],
           t->instance_hours[GP_UNLABELED]);
    /* unknown, not 0, when no row said its gpu_util (README, as the
     * JSON's null) */
    if (gp_trace_util_gpu_hours(t) > 0) {
        printf("useful GPU-hours: %.2f", t->useful_gpu_hours);
        if (t->gpu_hours_without_util > 0)
            printf(" (%.2f GPU-hours had no gpu_util and count none)",
                   t->gpu_hours_without_util);
    } else {
        printf("useful GPU-hours: unknown (no row has gpu_util)");
    }
    printf("\njob runs:        %zu\n", t->n_runs);
    printf("catalogs:        %zu", in.pricing->n_catalogs);
    for (size_t i = 0; i < in.pricing->n_catalogs; i++)
        printf("%s%s %s (as of %s)", i ? ", " : " (",
               in.pricing->catalogs[i]->provider,
               in.pricing->catalogs[i]->region,
               in.pricing->catalogs[i]->as_of);
    printf("%s\n", in.pricing->n_catalogs ? ")" : "");
    printf("scenario:        %s, %zu %s, %zu %s owned\n",
           in.scenario->name ? in.scenario->name : "(default)",
           in.scenario->n_strategies,
           gp_plural(in.scenario->n_strategies, "strategy", "strategies"),
           in.scenario->n_commitments,
           gp_plural(in.scenario->n_commitments, "commitment", "commitments"));
    gp_inputs_free(&in);
    return 0;
}

const struct gp_command gp_cmd_validate = {
    "validate",
    "read every input, report every problem, summarise the trace",
    "  --trace F...        usage trace CSV files, required (- reads stdin)\n"
    "  --pricing P...      catalog files or folders (default: bundled)\n"
    "  --scenario S        scenario JSON\n"
    "  --layout jobs       one row per job run with start,end columns\n"
    "  --map name=column   read canonical column `name` from `column`\n"
    "  --step SECONDS      interval of rows without step_s (default 3600,\n"
    "                      at most 31622400: 366 days)\n"
    "  --region R          region of rows that name none (read in\n"
    "                      lower case: US-EAST-1 is us-east-1)\n"
    "  --provider P        aws, gcp or azure, for rows that name none\n"
    "  --instance-type T   instance type of rows that name none (a trace\n"
    "                      without an instance_type column)\n"
    "  --skip-bad          write bad rows to a rejects file and go on\n"
    "  --rejects FILE      where --skip-bad writes (gpuplan-rejects.csv)\n"
    "  --threads N         threads for reading (default: all cores)\n"
    "  --quiet             no progress, notes or warnings on stderr\n",
    OPT_TRACE | OPT_PRICING | OPT_SCENARIO | OPT_SKIP_BAD | OPT_NEEDS_TRACE,
    validate_exec,
};
