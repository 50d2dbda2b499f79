/*
 * cmd_synth.c: `gpuplan synth` makes a long trace from a short real one
 * (synth.c), for replaying purchase policies over years: a seeded
 * bootstrap of its weeks, with growth, decline, a step and a migration.
 */
#include "cli.h"
#include "synth.h"
#include "util.h"

#include <stdio.h>

/* What gp_write_atomic's callback needs. */
struct synth_job {
    const gp_inputs *in;
    const gp_synth_options *o;
    gp_error *err;
};

static gp_status write_trace(FILE *f, void *ctx)
{
    struct synth_job *j = ctx;
    return gp_synth_write(f, j->in->trace, j->in->pricing, j->o, j->err);
}

static int synth_exec(gp_cli *cli)
{
    gp_inputs in;
    gp_error err;
    int rc = gp_cli_load_inputs(cli, &in, false, false);

    if (rc != 0)
        return rc;
    gp_error_clear(&err);
    cli->synth.seed = cli->seed >= 0 ? (uint64_t)cli->seed : 1;
    struct synth_job j = {&in, &cli->synth, &err};
    gp_status st = cli->out ? gp_write_atomic(cli->out, write_trace, &j, &err)
                            : write_trace(stdout, &j);
    /* standard output's errors are main's to find (stdout_written) */
    if (st != GP_OK) {
        gp_cli_print_error(&err);
        rc = 1;
    } else if (!cli->quiet && cli->out) {
        fprintf(stderr, "gpuplan synth: %.3g years from %s, seed %llu, in "
                        "%s\n",
                cli->synth.years, cli->traces[0],
                (unsigned long long)cli->synth.seed, cli->out);
    }
    gp_inputs_free(&in);
    return rc;
}

const struct gp_command gp_cmd_synth = {
    "synth",
    "make a long trace from a short real one, for replaying policies",
    "  --trace F...        the real trace(s) to draw whole weeks from, "
    "required\n"
    "  --pricing P...      catalog files or folders (default: bundled)\n"
    "  --years N           how long a trace to make (default 1; 0.01 to 10)\n"
    "  --seed S            the draw's seed (default 1)\n"
    "  --growth G          demand grows G a month, compounded (0.02)\n"
    "  --decline D         demand falls D a month, compounded (0.02)\n"
    "  --step DATE:FACTOR  demand x FACTOR from DATE on\n"
    "  --migrate DATE:FROM:TO:EQUIV\n"
    "                      from DATE, usage of type FROM runs on TO, EQUIV\n"
    "                      of them for each (p4d.24xlarge:p5.48xlarge:0.5)\n"
    "  --out FILE          the trace CSV (default: standard output)\n"
    "  --layout jobs, --map name=column, --region R\n"
    "                      trace options, as for validate\n"
    "  --quiet             no summary on stderr\n",
    OPT_TRACE | OPT_PRICING | OPT_OUT | OPT_SYNTH | OPT_NEEDS_TRACE,
    synth_exec,
};
