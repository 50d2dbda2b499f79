/*
 * bench_simulate.c: how fast the replay engine bills a year.
 *
 *   bench_simulate [--repeat N] [--seed S] [--keep DIR] [--only a|b]
 *
 * A. One year hourly (8,760 hours) x 1,000 pools, half training and half
 *    inference, under ~200 owned reservations and a dozen savings plans
 *    (compute and instance_family), policy on demand.  Target: one
 *    gp_engine_run under 1 s.  Baseline, measured in the same run: the
 *    same trace with no commitments (the engine's pure on-demand pass).
 *
 * B. Monte Carlo: 200 training job runs over the same year (--layout jobs),
 *    training launched on spot, 10,000 replicates of every run.  Target:
 *    one gp_engine_run under 5 s on 2 threads.  Baseline: the same run on
 *    1 thread.  The two must give bit-identical ledgers (the engine seeds
 *    one random stream per job run and sums replicates in micro-dollars),
 *    and the program checks that they do.
 *
 * Everything is synthetic and seeded (GSL mt19937): a catalog of 1,000
 * instance types (125 families x 8 sizes with AWS normalization factors)
 * and the two traces are written to a temporary folder and loaded with the
 * library's own loaders.  Only gp_engine_run is timed for the figures
 * (CLOCK_MONOTONIC); load times are reported on their own lines.  Each
 * figure and its baseline are the best of --repeat runs (default 3), taken
 * alternately so that drift in the machine hits both alike.
 *
 * Exit status: 0 when the runs succeeded and the thread counts agreed bit
 * for bit (a missed target is reported, not an error), 1 otherwise.
 */
#include "engine.h"
#include "gpuplan.h"

#define BENCH_NAME "bench_simulate"
#include "bench_util.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N_FAMILIES 125
#define N_SIZES 8
#define N_TYPES (N_FAMILIES * N_SIZES)
#define N_HOURS 8760              /* 2026 is not a leap year */
#define YEAR_START 1767225600LL   /* 2026-01-01T00:00:00Z */
#define YEAR_END (YEAR_START + N_HOURS * 3600LL)
#define N_RESERVED_POOLS 200
#define N_JOBS 200
#define MC_RUNS 10000

#define PI 3.14159265358979323846

#define TARGET_A 1.0
#define TARGET_B 5.0
#define TARGET_C 2.0 /* #37: with availability and deadlines */

static const char *const size_name[N_SIZES] = {
    "xlarge",   "2xlarge",  "4xlarge",  "8xlarge",
    "12xlarge", "16xlarge", "24xlarge", "48xlarge"};
static const double size_factor[N_SIZES] = {8, 16, 32, 64, 96, 128, 192, 384};
static const int size_gpus[N_SIZES] = {1, 1, 1, 1, 4, 4, 8, 8};
/* AWS Spot Instance Advisor bucket midpoints */
static const double spot_rate[5] = {0.025, 0.075, 0.125, 0.175, 0.25};
static const char *const spot_bucket[5] = {"<5%", "5-10%", "10-15%",
                                           "15-20%", ">20%"};

/* The synthetic catalog, kept to size the trace and the commitments. */
struct type {
    char name[32];
    char family[8];
    double od;     /* on-demand $/h */
    double mean;   /* mean instances in the trace */
};
static struct type types[N_TYPES];

/* ---- the catalog -------------------------------------------------------- */

static void write_catalog(const char *path, gsl_rng *rng)
{
    FILE *f = open_out(path);
    fputs("{\n  \"schema\": \"gpuplan-catalog/1\",\n"
          "  \"provider\": \"aws\", \"region\": \"us-east-1\", "
          "\"currency\": \"USD\", \"as_of\": \"2026-07-20\",\n"
          "  \"sources\": [\"bench_simulate: synthetic, seeded\"],\n"
          "  \"instance_types\": {",
          f);
    for (int fam = 0; fam < N_FAMILIES; fam++) {
        /* $/h of an xlarge: 0.40 to 4.40; the family's discounts vary a
         * little, so savings plans see distinct discounts */
        double base = 0.40 + 4.0 * gsl_rng_uniform(rng);
        double ri1 = 0.60 + 0.06 * gsl_rng_uniform(rng);  /* 1y no upfront */
        double ri3 = 0.40 + 0.06 * gsl_rng_uniform(rng);  /* 3y no upfront */
        double spot_frac = 0.30 + 0.25 * gsl_rng_uniform(rng);
        int bucket = (int)gsl_rng_uniform_int(rng, 5);
        for (int z = 0; z < N_SIZES; z++) {
            struct type *t = &types[fam * N_SIZES + z];
            snprintf(t->family, sizeof t->family, "b%03d", fam);
            snprintf(t->name, sizeof t->name, "b%03d.%s", fam, size_name[z]);
            t->od = base * size_factor[z] / 8.0;
            double od = t->od;
            fprintf(f,
                    "%s\n    \"%s\": {\"family\": \"%s\", \"gpu_model\": "
                    "\"SYN\", \"gpus\": %d, \"vcpus\": %g, \"memory_gib\": "
                    "%g, \"normalization_factor\": %g, \"on_demand\": %.6f,\n"
                    "      \"reserved\": ["
                    "{\"term_years\": 1, \"payment\": \"no_upfront\", "
                    "\"hourly\": %.6f, \"upfront\": 0},"
                    " {\"term_years\": 1, \"payment\": \"partial_upfront\", "
                    "\"hourly\": %.6f, \"upfront\": %.2f},"
                    " {\"term_years\": 3, \"payment\": \"no_upfront\", "
                    "\"hourly\": %.6f, \"upfront\": 0},"
                    " {\"term_years\": 3, \"payment\": \"all_upfront\", "
                    "\"hourly\": 0, \"upfront\": %.2f}],\n"
                    "      \"savings_plans\": ["
                    "{\"kind\": \"compute\", \"term_years\": 1, \"payment\": "
                    "\"no_upfront\", \"hourly\": %.6f},"
                    " {\"kind\": \"compute\", \"term_years\": 3, \"payment\": "
                    "\"no_upfront\", \"hourly\": %.6f},"
                    " {\"kind\": \"instance_family\", \"term_years\": 1, "
                    "\"payment\": \"no_upfront\", \"hourly\": %.6f},"
                    " {\"kind\": \"instance_family\", \"term_years\": 3, "
                    "\"payment\": \"no_upfront\", \"hourly\": %.6f}],\n"
                    "      \"spot\": {\"hourly\": %.6f, "
                    "\"interruption_rate_monthly\": %g, "
                    "\"interruption_bucket\": \"%s\"}}",
                    fam == 0 && z == 0 ? "" : ",", t->name, t->family,
                    size_gpus[z], size_factor[z] / 2, size_factor[z] * 2,
                    size_factor[z], od, od * ri1, od * ri1 * 0.5,
                    od * ri1 * 0.48 * 8760, od * ri3, od * ri3 * 0.95 * 26280,
                    od * (ri1 + 0.06), od * (ri3 + 0.06), od * ri1,
                    od * ri3, od * spot_frac, spot_rate[bucket],
                    spot_bucket[bucket]);
        }
    }
    fputs("\n  }\n}\n", f);
    close_out(f, path);
}

/* ---- trace A: one year hourly x 1,000 pools ----------------------------- */

/* Writes n in decimal at o; returns the end. */
static char *put_uint(char *o, unsigned long n)
{
    char d[24];
    int k = 0;
    do {
        d[k++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    while (k)
        *o++ = d[--k];
    return o;
}

/* Writes the trace (epoch timestamps, one row per pool and hour, in time
 * order, as an exporter would) and returns the mean on-demand spend per
 * hour. */
static double write_hourly_trace(const char *path, gsl_rng *rng,
                                 size_t *rows)
{
    FILE *f = open_out(path);
    static double level[N_TYPES], phase[N_TYPES];
    static size_t name_len[N_TYPES];
    double spend = 0;

    /* each pool's mean level: a few big pools, many small ones */
    for (int p = 0; p < N_TYPES; p++) {
        level[p] = 0.5 + 20.0 * pow(gsl_rng_uniform(rng), 3);
        phase[p] = 2 * PI * gsl_rng_uniform(rng);
        types[p].mean = level[p];
        spend += level[p] * types[p].od;
    }
    for (int p = 0; p < N_TYPES; p++)
        name_len[p] = strlen(types[p].name);
    fputs("timestamp,instance_type,instances,workload\n", f);
    *rows = 0;
    for (int h = 0; h < N_HOURS; h++) {
        long long t = YEAR_START + (long long)h * 3600;
        char ts[24];
        size_t ts_len = (size_t)snprintf(ts, sizeof ts, "%lld", t);
        double hour = (double)(h % 24);
        int weekday = (h / 24 + 3) % 7; /* 2026-01-01 was a Thursday */
        double week = weekday >= 5 ? 0.7 : 1.0;
        for (int p = 0; p < N_TYPES; p++) {
            double x;
            bool training = p % 2 == 0;
            if (training) {
                /* steady, with noise and a weekly dip */
                x = level[p] * (0.95 + 0.05 * week) *
                    (1 + gsl_ran_gaussian(rng, 0.08));
            } else {
                /* follows the day and the week */
                double day =
                    0.6 + 0.4 * sin((hour - 9) / 24 * 2 * PI + phase[p]);
                x = level[p] * day * week * (1 + gsl_ran_gaussian(rng, 0.1));
            }
            if (x < 0.01)
                x = 0.01;
            /* "%lld,%s,%.2f,%s\n" by hand: fprintf is most of the
             * generation time */
            char line[96], *o = line;
            long cents = lround(x * 100);
            memcpy(o, ts, ts_len);
            o += ts_len;
            *o++ = ',';
            memcpy(o, types[p].name, name_len[p]);
            o += name_len[p];
            *o++ = ',';
            o = put_uint(o, (unsigned long)(cents / 100));
            *o++ = '.';
            *o++ = (char)('0' + cents / 10 % 10);
            *o++ = (char)('0' + cents % 10);
            memcpy(o, training ? ",training\n" : ",inference\n",
                   training ? 10 : 11);
            o += training ? 10 : 11;
            fwrite(line, 1, (size_t)(o - line), f);
            (*rows)++;
        }
    }
    close_out(f, path);
    return spend;
}

/* ---- trace B: 200 training jobs over the year ---------------------------- */

static void fmt_time(long long t, char *buf, size_t size)
{
    gp_format_time((int64_t)t, buf, size);
}

static void write_jobs_trace(const char *path, gsl_rng *rng)
{
    /* a few large types with spot offers, from different families (so
     * different interruption buckets) */
    static const int job_type[6] = {7 * N_SIZES + 7,  19 * N_SIZES + 6,
                                    42 * N_SIZES + 7, 77 * N_SIZES + 4,
                                    101 * N_SIZES + 6, 118 * N_SIZES + 5};
    FILE *f = open_out(path);
    char a[40], z[40];

    fputs("start,end,instance_type,instances,job_id,workload\n", f);
    for (int j = 0; j < N_JOBS; j++) {
        double days = 1 + 29 * gsl_rng_uniform(rng);
        long long dur = (long long)(days * 86400);
        long long start =
            YEAR_START +
            (long long)(gsl_rng_uniform(rng) * (double)(YEAR_END - YEAR_START -
                                                        dur));
        start -= start % 60;
        int n = 1 + (int)gsl_rng_uniform_int(rng, 16);
        const struct type *t = &types[job_type[gsl_rng_uniform_int(rng, 6)]];
        fmt_time(start, a, sizeof a);
        fmt_time(start + dur, z, sizeof z);
        fprintf(f, "%s,%s,%s,%d,job-%03d,training\n", a, z, t->name, n, j);
    }
    close_out(f, path);
}

/* ---- loading ------------------------------------------------------------ */

static gp_trace *load_trace(const char *path, const gp_pricing *pricing,
                            gp_layout layout)
{
    gp_error err;
    gp_trace_options opt;
    gp_trace_builder *b;
    gp_trace *t = NULL;

    gp_error_clear(&err);
    gp_trace_options_init(&opt);
    opt.layout = layout;
    if (gp_trace_builder_new(&b, pricing, &opt, &err) != GP_OK)
        die_err("trace", &err);
    if (gp_trace_builder_add_file(b, path, &err) != GP_OK) {
        gp_trace_builder_free(b);
        die_err(path, &err);
    }
    if (gp_trace_builder_finish(b, &t, &err) != GP_OK)
        die_err(path, &err);
    return t;
}

static gp_scenario *scenario_of(const char *json, const gp_pricing *pricing)
{
    gp_error err;
    gp_scenario *s = NULL;
    gp_error_clear(&err);
    if (gp_scenario_parse(&s, json, strlen(json), "bench.json", &err) !=
        GP_OK)
        die_err("scenario", &err);
    if (gp_scenario_check(s, pricing, NULL, &err) != GP_OK)
        die_err("scenario check", &err);
    return s;
}

/* Appends printf output to a growing string. */
struct text {
    char *s;
    size_t len, cap;
};

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void text_add(struct text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL,
                          t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0)
            die("vsnprintf");
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap ? t->cap : 4096);
        while (cap <= t->len + (size_t)n)
            cap *= 2;
        char *s = realloc(t->s, cap);
        if (!s)
            die("out of memory");
        t->s = s;
        t->cap = cap;
    }
}

/* Scenario A: reservations on every 5th pool (200), 4 compute plans and 8
 * instance_family plans, sized from the trace's mean demand. */
static char *scenario_a_text(double spend, size_t *n_res, size_t *n_plans)
{
    static const char *const ri_kind[4][2] = {{"1", "no_upfront"},
                                              {"1", "partial_upfront"},
                                              {"3", "no_upfront"},
                                              {"3", "all_upfront"}};
    /* starts: some owned since 2025 (the 1-year ones expire in the year),
     * some bought during the year */
    static const char *const start[4] = {
        "2025-07-01T00:00:00Z", "2025-12-15T00:00:00Z",
        "2026-03-01T00:00:00Z", "2026-06-01T00:00:00Z"};
    struct text t = {NULL, 0, 0};

    text_add(&t, "{\"name\": \"bench-a\", \"window\": {\"start\": "
                 "\"2026-01-01T00:00:00Z\", \"end\": "
                 "\"2027-01-01T00:00:00Z\"}, \"commitments\": [");
    *n_res = 0;
    for (int p = 0; p < N_TYPES; p += N_TYPES / N_RESERVED_POOLS) {
        int k = (int)(*n_res % 4);
        double count = floor(types[p].mean * 0.7);
        if (count < 1)
            count = 1;
        text_add(&t,
                 "%s\n{\"type\": \"reserved\", \"provider\": \"aws\", "
                 "\"region\": \"us-east-1\", \"instance_type\": \"%s\", "
                 "\"count\": %g, \"term_years\": %s, \"payment\": \"%s\", "
                 "\"start\": \"%s\"}",
                 *n_res ? "," : "", types[p].name, count, ri_kind[k][0],
                 ri_kind[k][1], start[(*n_res / 4) % 4]);
        (*n_res)++;
    }
    /* compute plans: together about 25% of the mean on-demand spend */
    *n_plans = 0;
    for (int i = 0; i < 4; i++) {
        text_add(&t,
                 ",\n{\"type\": \"savings_plan\", \"kind\": \"compute\", "
                 "\"provider\": \"aws\", \"hourly_commitment\": %.2f, "
                 "\"term_years\": %d, \"payment\": \"no_upfront\", "
                 "\"start\": \"%s\"}",
                 spend * 0.0625 * 0.6, i % 2 ? 3 : 1, start[i]);
        (*n_plans)++;
    }
    /* instance_family plans on 8 families, about 40% of the family's
     * spend at plan rates */
    for (int i = 0; i < 8; i++) {
        int fam = 3 + i * 15;
        double fs = 0;
        for (int z = 0; z < N_SIZES; z++)
            fs += types[fam * N_SIZES + z].mean * types[fam * N_SIZES + z].od;
        text_add(&t,
                 ",\n{\"type\": \"savings_plan\", \"kind\": "
                 "\"instance_family\", \"provider\": \"aws\", \"region\": "
                 "\"us-east-1\", \"family\": \"%s\", \"hourly_commitment\": "
                 "%.2f, \"term_years\": %d, \"payment\": \"no_upfront\", "
                 "\"start\": \"%s\"}",
                 types[fam * N_SIZES].family, fs * 0.4 * 0.6, i % 2 ? 3 : 1,
                 start[i % 4]);
        (*n_plans)++;
    }
    text_add(&t, "]}");
    return t.s;
}

/* ---- timing ------------------------------------------------------------- */

static double time_run(const gp_trace *trace, const gp_pricing *pricing,
                       const gp_scenario *s, const gp_engine_options *opt,
                       gp_ledger **out)
{
    gp_error err;
    gp_run_spec spec;
    gp_ledger *l = NULL;
    gp_error_clear(&err);
    if (gp_run_spec_init(&spec, trace, s, 0, opt, &err) != GP_OK)
        die_err("gp_run_spec_init", &err);
    double t0 = now_s();
    if (gp_engine_run(trace, pricing, &spec, &l, &err) != GP_OK)
        die_err("gp_engine_run", &err);
    double t1 = now_s();
    if (out)
        *out = l;
    else
        gp_ledger_free(l);
    return t1 - t0;
}

static bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Bit for bit: the totals, every hour, every series and every job. */
static bool ledgers_identical(const gp_ledger *a, const gp_ledger *b)
{
    if (a->n_hours != b->n_hours || a->n_series != b->n_series ||
        a->n_jobs != b->n_jobs)
        return false;
    if (!same_double(a->total_cost, b->total_cost) ||
        !same_double(a->cost[GP_MODEL_SPOT], b->cost[GP_MODEL_SPOT]) ||
        !same_double(a->cost[GP_MODEL_ON_DEMAND],
                     b->cost[GP_MODEL_ON_DEMAND]) ||
        !same_double(a->spot_cost_p50, b->spot_cost_p50) ||
        !same_double(a->spot_cost_p95, b->spot_cost_p95) ||
        !same_double(a->spot_interruptions_mean, b->spot_interruptions_mean))
        return false;
    if (memcmp(a->hours, b->hours, a->n_hours * sizeof *a->hours) != 0 ||
        memcmp(a->series, b->series, a->n_series * sizeof *a->series) != 0)
        return false;
    for (size_t i = 0; i < a->n_jobs; i++) {
        const gp_ledger_job *x = &a->jobs[i], *y = &b->jobs[i];
        if (x->run != y->run ||
            !same_double(x->attempts_mean, y->attempts_mean) ||
            !same_double(x->interruptions_mean, y->interruptions_mean) ||
            !same_double(x->failed_attempt_cost_mean,
                         y->failed_attempt_cost_mean) ||
            !same_double(x->cost_mean, y->cost_mean) ||
            !same_double(x->cost_p50, y->cost_p50) ||
            !same_double(x->cost_p95, y->cost_p95) ||
            !same_double(x->fallback_share, y->fallback_share) ||
            !same_double(x->base_cost, y->base_cost))
            return false;
    }
    return true;
}

/* C: trace B on 2 threads with every job type's spot capacity there 60%
 * of hours and a deadline of each run's length + 24 h (SPEC 7.4): the
 * runs wait hour by hour and fall back when their deadline is at risk.
 * The availability is set on the loaded catalog (the bench owns it) and
 * put back after.  Returns the best of `repeat` calls. */
static double bench_c(const gp_trace *tb, gp_pricing *pricing, int repeat)
{
    char json[512];
    double best = INFINITY;
    gp_engine_options o;
    gp_ledger *first = NULL;

    for (size_t p = 0; p < tb->n_pools; p++)
        ((gp_instance_type *)tb->pools[p].type)->spot.availability = 0.6;
    snprintf(json, sizeof json,
             "{\"name\": \"bench-c\", \"window\": {\"start\": "
             "\"2026-01-01T00:00:00Z\", \"end\": \"2027-01-01T00:00:00Z\"}, "
             "\"policy\": {\"training\": {\"launch\": \"spot\", "
             "\"deadline_slack_h\": 24}}, \"monte_carlo\": {\"runs\": %d, "
             "\"seed\": 42}}",
             MC_RUNS);
    gp_scenario *sc = scenario_of(json, pricing);
    gp_engine_options_init(&o);
    o.threads = 2;
    for (int r = 0; r < repeat; r++) {
        gp_ledger *l = NULL;
        double x = time_run(tb, pricing, sc, &o, &l);
        printf("   C run %d: 2 threads %.3f s\n", r + 1, x);
        best = fmin(best, x);
        if (!first)
            first = l;
        else
            gp_ledger_free(l);
    }
    double wait = 0, fb = 0, met = 0;
    for (size_t i = 0; i < first->n_jobs; i++) {
        wait += first->jobs[i].wait_h_mean;
        fb += first->jobs[i].fallback_share;
        met += first->jobs[i].met_deadline;
    }
    printf("-- C: %zu spot job runs x %d replicates: mean wait %.1f h a "
           "run, %.1f%% of replays fell back, %.1f%% met their deadline; "
           "total $%.0f\n",
           first->n_jobs, first->mc_runs, wait / (double)first->n_jobs,
           100 * fb / (double)first->n_jobs, 100 * met / (double)first->n_jobs,
           first->total_cost);
    gp_ledger_free(first);
    gp_scenario_free(sc);
    for (size_t p = 0; p < tb->n_pools; p++)
        ((gp_instance_type *)tb->pools[p].type)->spot.availability = 0;
    return best;
}

static void usage(void)
{
    fputs("usage: bench_simulate [--repeat N] [--seed S] [--keep DIR] "
          "[--only a|b]\n"
          "  --repeat N  runs of each timed call; the best is reported "
          "(default 3)\n"
          "  --seed S    seed of the synthetic catalog and traces "
          "(default 1)\n"
          "  --keep DIR  write the catalog and traces into DIR and keep "
          "them\n"
          "  --only a|b  run one of the two figures (for perf record)\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    int repeat = 3;
    unsigned long seed = 1;
    const char *keep = NULL;
    bool run_a = true, run_b = true;
    char dir[4096], cat_path[4200], trace_a[4200], trace_b[4200];
    gp_error err;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
            keep = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc &&
                 (strcmp(argv[i + 1], "a") == 0 ||
                  strcmp(argv[i + 1], "b") == 0)) {
            run_a = argv[++i][0] == 'a';
            run_b = !run_a;
        }
        else
            usage();
    }
    if (repeat < 1)
        usage();
    gsl_set_error_handler_off();

    if (keep) {
        snprintf(dir, sizeof dir, "%s", keep);
        mkdir(dir, 0777); /* may exist already */
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/gpuplan-bench-sim.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            die("cannot create a temporary folder in %s", dir);
    }
    snprintf(cat_path, sizeof cat_path, "%s/catalog.json", dir);
    snprintf(trace_a, sizeof trace_a, "%s/hourly.csv", dir);
    snprintf(trace_b, sizeof trace_b, "%s/jobs.csv", dir);

    /* one random stream per input, so that --only b makes the same jobs */
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

    /* ---- inputs (not timed for the figures) ---- */
    double t0 = now_s();
    gsl_rng_set(rng, seed * 3 + 0);
    write_catalog(cat_path, rng);
    size_t rows_a = 0;
    double spend = 0;
    if (run_a) {
        gsl_rng_set(rng, seed * 3 + 1);
        spend = write_hourly_trace(trace_a, rng, &rows_a);
    }
    if (run_b) {
        gsl_rng_set(rng, seed * 3 + 2);
        write_jobs_trace(trace_b, rng);
    }
    double t_gen = now_s() - t0;

    gp_pricing *pricing = NULL;
    gp_error_clear(&err);
    t0 = now_s();
    if (gp_pricing_load(&pricing, cat_path, 0, &err) != GP_OK)
        die_err(cat_path, &err);
    double t_cat = now_s() - t0;

    printf("== bench_simulate: gpuplan %s, seed %lu, best of %d runs of "
           "each timed call\n",
           GP_VERSION, seed, repeat);
    printf("   inputs in %s%s\n", dir,
           keep ? " (kept)" : " (removed at exit)");
    printf("   generate catalog and traces    %8.3f s\n", t_gen);
    printf("   load catalog (%d types)      %8.3f s\n", N_TYPES, t_cat);

    gp_trace *ta = NULL, *tb = NULL;
    long rss_after_load = 0;
    if (run_a) {
        t0 = now_s();
        ta = load_trace(trace_a, pricing, GP_LAYOUT_SAMPLES);
        double t_load = now_s() - t0;
        rss_after_load = peak_rss_kb();
        if (ta->n_pools != N_TYPES || ta->n_hours != N_HOURS)
            die("trace A: %zu pools x %zu hours, expected %d x %d",
                ta->n_pools, ta->n_hours, N_TYPES, N_HOURS);
        printf("   load trace A (%zu rows)   %8.3f s  (%zu pools x %zu "
               "hours, %zu series, %.0f MB)\n",
               rows_a, t_load, ta->n_pools, ta->n_hours, ta->n_series,
               (double)ta->bytes_read / 1e6);
    }
    if (run_b) {
        t0 = now_s();
        tb = load_trace(trace_b, pricing, GP_LAYOUT_JOBS);
        double t_load = now_s() - t0;
        if (tb->n_runs != N_JOBS)
            die("trace B: %zu job runs, expected %d", tb->n_runs, N_JOBS);
        printf("   load trace B (%d job runs)    %8.3f s  (%zu pools)\n",
               N_JOBS, t_load, tb->n_pools);
    }

    /* ---- A: a year x 1,000 pools with commitments ---- */
    double best_a = INFINITY, best_a0 = INFINITY;
    if (run_a) {
        size_t n_res, n_plans;
        char *json_a = scenario_a_text(spend, &n_res, &n_plans);
        gp_scenario *sa = scenario_of(json_a, pricing);
        gp_scenario *sa0 = scenario_of(
            "{\"name\": \"bench-a-on-demand\", \"window\": {\"start\": "
            "\"2026-01-01T00:00:00Z\", \"end\": \"2027-01-01T00:00:00Z\"}}",
            pricing);
        gp_engine_options oa;
        gp_engine_options_init(&oa);
        oa.mc_runs = 1;
        gp_ledger *la = NULL, *la0 = NULL;
        for (int r = 0; r < repeat; r++) {
            gp_ledger *l0 = NULL, *l = NULL;
            double x0 = time_run(ta, pricing, sa0, &oa, &l0);
            double x = time_run(ta, pricing, sa, &oa, &l);
            printf("   A run %d: commitments %.3f s, on demand only %.3f s\n",
                   r + 1, x, x0);
            best_a = fmin(best_a, x);
            best_a0 = fmin(best_a0, x0);
            if (r == 0) {
                la = l;
                la0 = l0;
            } else {
                if (!ledgers_identical(l, la) || !ledgers_identical(l0, la0))
                    die("A: a repeated run gave a different ledger");
                gp_ledger_free(l);
                gp_ledger_free(l0);
            }
        }
        printf("-- A: %zu reservations, %zu savings plans: total $%.0f vs "
               "all on demand $%.0f (savings %.1f%%); reserved utilization "
               "%.1f%%, plan utilization %.1f%%, coverage %.1f%%\n",
               n_res, n_plans, la->total_cost, la->all_on_demand_cost,
               100 * la->savings_pct, 100 * la->reserved_utilization,
               100 * la->savings_plan_utilization, 100 * la->coverage);
        if (fabs(la0->total_cost - la0->all_on_demand_cost) >
            1e-9 * la0->all_on_demand_cost)
            die("A: the run without commitments cost $%.2f, not all on "
                "demand ($%.2f)",
                la0->total_cost, la0->all_on_demand_cost);
        gp_ledger_free(la);
        gp_ledger_free(la0);
        gp_scenario_free(sa);
        gp_scenario_free(sa0);
        free(json_a);
    }

    /* ---- B: Monte Carlo, 200 jobs x 10,000 replicates ---- */
    double best_b2 = INFINITY, best_b1 = INFINITY;
    bool identical = true;
    if (run_b) {
        char json_b[512];
        snprintf(json_b, sizeof json_b,
                 "{\"name\": \"bench-b\", \"window\": {\"start\": "
                 "\"2026-01-01T00:00:00Z\", \"end\": "
                 "\"2027-01-01T00:00:00Z\"}, \"policy\": {\"training\": "
                 "{\"launch\": \"spot\"}}, \"monte_carlo\": {\"runs\": %d, "
                 "\"seed\": 42}}",
                 MC_RUNS);
        gp_scenario *sb = scenario_of(json_b, pricing);
        gp_engine_options ob;
        gp_engine_options_init(&ob);
        gp_ledger *lb2 = NULL, *lb1 = NULL;
        for (int r = 0; r < repeat; r++) {
            gp_ledger *l1 = NULL, *l2 = NULL;
            ob.threads = 2;
            double x2 = time_run(tb, pricing, sb, &ob, &l2);
            ob.threads = 1;
            double x1 = time_run(tb, pricing, sb, &ob, &l1);
            printf("   B run %d: 2 threads %.3f s, 1 thread %.3f s\n", r + 1,
                   x2, x1);
            best_b2 = fmin(best_b2, x2);
            best_b1 = fmin(best_b1, x1);
            if (!ledgers_identical(l1, l2))
                identical = false;
            if (r == 0) {
                lb1 = l1;
                lb2 = l2;
            } else {
                if (!ledgers_identical(l2, lb2))
                    identical = false;
                gp_ledger_free(l1);
                gp_ledger_free(l2);
            }
        }
        printf("-- B: %zu spot job runs x %d replicates: total_cost "
               "%.17g (1 thread), %.17g (2 threads): %s\n",
               lb2->n_jobs, lb2->mc_runs, lb1->total_cost, lb2->total_cost,
               identical ? "bit-identical (totals, every hour, series and "
                           "job, every run)"
                         : "DIFFERENT");
        printf("   spot cost mean $%.2f, p50 $%.2f, p95 $%.2f; "
               "interruptions %.1f; on-demand fallback $%.2f\n",
               lb2->cost[GP_MODEL_SPOT], lb2->spot_cost_p50, lb2->spot_cost_p95,
               lb2->spot_interruptions_mean, lb2->cost[GP_MODEL_ON_DEMAND]);
        gp_ledger_free(lb1);
        gp_ledger_free(lb2);
        gp_scenario_free(sb);
    }

    /* ---- C: B with spot availability 0.6 and a day of slack (#37) ---- */
    double best_c = INFINITY;
    if (run_b)
        best_c = bench_c(tb, pricing, repeat);

    /* ---- the table ---- */
    long rss = peak_rss_kb();
    printf("\n%-44s %8s %7s %7s  %s\n", "figure", "seconds", "target",
           "status", "ratio to baseline");
    if (run_a) {
        printf("%-44s %8.3f %7s %7s  A / baseline = %.2f\n",
               "A  1 year x 1,000 pools, 200 RIs + 12 SPs", best_a, "< 1 s",
               best_a < TARGET_A ? "met" : "MISSED", best_a / best_a0);
        printf("%-44s %8.3f\n", "   baseline: same, no commitments",
               best_a0);
    }
    if (run_b) {
        printf("%-44s %8.3f %7s %7s  1 thread / 2 threads = %.2f\n",
               "B  10,000 MC x 200 jobs, 2 threads", best_b2, "< 5 s",
               best_b2 < TARGET_B ? "met" : "MISSED", best_b1 / best_b2);
        printf("%-44s %8.3f\n", "   baseline: same, 1 thread", best_b1);
        printf("%-44s %8.3f %7s %7s  C / B = %.2f\n",
               "C  B + availability 0.6, 24 h slack", best_c, "< 2 s",
               best_c < TARGET_C ? "met" : "MISSED", best_c / best_b2);
    }
    if (run_a)
        printf("\npeak RSS %ld KB (%ld KB already after loading trace A, "
               "before any engine run)\n",
               rss, rss_after_load);
    else
        printf("\npeak RSS %ld KB\n", rss);
    printf("machine: %ld cores online\n", sysconf(_SC_NPROCESSORS_ONLN));

    gp_trace_free(ta);
    gp_trace_free(tb);
    gp_pricing_free(pricing);
    gsl_rng_free(rng);
    if (!keep) {
        remove(cat_path);
        remove(trace_a);
        remove(trace_b);
        rmdir(dir);
    }
    return identical ? 0 : 1;
}
