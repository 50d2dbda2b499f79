/*
 * bench_recommend.c: how fast the recommender plans a year x 1,000 pools.
 *
 *   bench_recommend [--repeat N] [--seed S] [--threads T] [--keep DIR]
 *                   [--no-baseline] [--pools N]
 *
 * Target (the issue): gp_recommend on one year hourly (8,760 hours) x 1,000
 * pools takes under 10 s.  Baseline, measured in the same run on the same
 * trace: one gp_engine_run with the scenario's policy and no commitments,
 * i.e. the cost of billing the year once; the ratio says how many bills'
 * worth of work a recommendation costs.
 *
 * Inputs, synthetic and seeded (GSL mt19937), written to a temporary folder
 * and read with the library's own loaders (not timed for the figures):
 *
 *   catalog  1,000 AWS instance types, 125 families x 8 sizes with AWS
 *            normalization factors; on-demand, reserved 1y and 3y for all
 *            three payments, compute and instance_family savings-plan
 *            rates for both terms and all payments, spot with an
 *            interruption bucket.
 *   trace    one row per pool and hour for 2026 (8.76 million rows): every
 *            pool serves inference that follows the day and the week, and
 *            one pool in four also trains (steady, a weekend dip), both
 *            with noise.  1,250 series.
 *   scenario the default: window = the trace, everything on demand, no
 *            owned commitments (so the recommender also decides whether
 *            training goes to spot).
 *
 * Timed with CLOCK_MONOTONIC; each figure is the best of --repeat calls
 * (default 1 for gp_recommend, 3 for the baseline).  Peak RSS is
 * getrusage's ru_maxrss after loading and after the runs.
 *
 * Exit status: 0 when the runs succeeded (a missed target is reported, not
 * an error), 1 otherwise.
 */
#include "engine.h"
#include "gpuplan.h"

#define BENCH_NAME "bench_recommend"
#include "bench_util.h"
#include "recommend.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N_FAMILIES 125
#define N_SIZES 8
#define N_TYPES (N_FAMILIES * N_SIZES)
#define N_HOURS 8760             /* 2026 is not a leap year */
#define YEAR_START 1767225600LL  /* 2026-01-01T00:00:00Z, a Thursday */
#define TRAINING_EVERY 4         /* one pool in four also trains */
#define TARGET_S 10.0

#define PI 3.14159265358979323846

static const char *const size_name[N_SIZES] = {
    "xlarge",   "2xlarge",  "4xlarge",  "8xlarge",
    "12xlarge", "16xlarge", "24xlarge", "48xlarge"};
/* AWS normalization factors of the sizes */
static const double size_factor[N_SIZES] = {8, 16, 32, 64, 96, 128, 192, 384};
static const int size_gpus[N_SIZES] = {1, 1, 1, 1, 4, 4, 8, 8};
/* AWS Spot Instance Advisor buckets: midpoints of the monthly rates */
static const double spot_rate[5] = {0.025, 0.075, 0.125, 0.175, 0.25};
static const char *const spot_bucket[5] = {"<5%", "5-10%", "10-15%",
                                           "15-20%", ">20%"};
static const char *const payment_name[3] = {"no_upfront", "partial_upfront",
                                            "all_upfront"};

struct type {
    char name[32];
    size_t name_len;
    double od; /* on-demand $/h */
};
static struct type types[N_TYPES];
/* --pools: fewer pools (a multiple of 8) to see how the time scales */
static int n_types = N_TYPES;

/* ---- the catalog --------------------------------------------------------- */

/*
 * Per family: an xlarge on-demand price, a 1-year and a 3-year discount
 * (effective rate / on-demand, no upfront) that vary a little between
 * families, a spot discount and an interruption bucket.  Within a term,
 * partial upfront is 1.5 points and all upfront 9 points cheaper than no
 * upfront (effective); instance_family plans are priced like the
 * reservation of the same term and payment, compute plans 6 points of
 * on-demand higher (SPEC section 3; shared/data/README.md).
 */
static void write_catalog(const char *path, gsl_rng *rng)
{
    FILE *f = open_out(path);
    fputs("{\n  \"schema\": \"gpuplan-catalog/1\",\n"
          "  \"provider\": \"aws\", \"region\": \"us-east-1\", "
          "\"currency\": \"USD\", \"as_of\": \"2026-07-20\",\n"
          "  \"sources\": [\"bench_recommend: synthetic, seeded\"],\n"
          "  \"instance_types\": {",
          f);
    for (int fam = 0; fam < n_types / N_SIZES; fam++) {
        double base = 0.40 + 4.0 * gsl_rng_uniform(rng);
        double r1 = 0.60 + 0.06 * gsl_rng_uniform(rng);
        double r3 = 0.40 + 0.06 * gsl_rng_uniform(rng);
        double spot_frac = 0.30 + 0.25 * gsl_rng_uniform(rng);
        int bucket = (int)gsl_rng_uniform_int(rng, 5);
        for (int z = 0; z < N_SIZES; z++) {
            struct type *t = &types[fam * N_SIZES + z];
            char family[16];
            snprintf(family, sizeof family, "b%03d", fam);
            snprintf(t->name, sizeof t->name, "b%03d.%s", fam,
                     size_name[z]);
            t->name_len = strlen(t->name);
            t->od = base * size_factor[z] / 8.0;
            double od = t->od;
            fprintf(f,
                    "%s\n    \"%s\": {\"family\": \"%s\", \"gpu_model\": "
                    "\"SYN\", \"gpus\": %d, \"vcpus\": %g, \"memory_gib\": "
                    "%g, \"normalization_factor\": %g, \"on_demand\": %.6f,"
                    "\n      \"reserved\": [",
                    fam == 0 && z == 0 ? "" : ",", t->name, family,
                    size_gpus[z], size_factor[z] / 2, size_factor[z] * 2,
                    size_factor[z], od);
            for (int term = 1, k = 0; term <= 3; term += 2) {
                double r = term == 1 ? r1 : r3;
                double hours = 8760.0 * term;
                for (int pay = 0; pay < 3; pay++, k++) {
                    /* effective rate: no 100%, partial 98.5%, all 91% of
                     * the no-upfront rate */
                    double eff = od * r * (pay == 0 ? 1 : pay == 1 ? 0.985
                                                                   : 0.91);
                    double hourly = pay == 0 ? eff : pay == 1 ? eff / 2 : 0;
                    double upfront = (eff - hourly) * hours;
                    fprintf(f,
                            "%s{\"term_years\": %d, \"payment\": \"%s\", "
                            "\"hourly\": %.6f, \"upfront\": %.2f}",
                            k ? ", " : "", term, payment_name[pay], hourly,
                            upfront);
                }
            }
            fputs("],\n      \"savings_plans\": [", f);
            for (int kind = 0, k = 0; kind < 2; kind++)
                for (int term = 1; term <= 3; term += 2)
                    for (int pay = 0; pay < 3; pay++, k++) {
                        double r = (term == 1 ? r1 : r3) *
                                   (pay == 0 ? 1 : pay == 1 ? 0.985 : 0.91);
                        if (kind == 0)
                            r += 0.06;
                        fprintf(f,
                                "%s{\"kind\": \"%s\", \"term_years\": %d, "
                                "\"payment\": \"%s\", \"hourly\": %.6f}",
                                k ? ", " : "",
                                kind == 0 ? "compute" : "instance_family",
                                term, payment_name[pay], od * r);
                    }
            fprintf(f,
                    "],\n      \"spot\": {\"hourly\": %.6f, "
                    "\"interruption_rate_monthly\": %g, "
                    "\"interruption_bucket\": \"%s\"}}",
                    od * spot_frac, spot_rate[bucket], spot_bucket[bucket]);
        }
    }
    fputs("\n  }\n}\n", f);
    close_out(f, path);
}

/* ---- the trace ----------------------------------------------------------- */

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

/* One row: "<epoch>,<type>,<x.xx>,<workload>\n" (fprintf would be most of
 * the generation time). */
static void put_row(FILE *f, const char *ts, size_t ts_len,
                    const struct type *t, double x, bool training)
{
    char line[96], *o = line;
    long cents = lround(x * 100);
    memcpy(o, ts, ts_len);
    o += ts_len;
    *o++ = ',';
    memcpy(o, t->name, t->name_len);
    o += t->name_len;
    *o++ = ',';
    o = put_uint(o, (unsigned long)(cents / 100));
    *o++ = '.';
    *o++ = (char)('0' + cents / 10 % 10);
    *o++ = (char)('0' + cents % 10);
    memcpy(o, training ? ",training\n" : ",inference\n", training ? 10 : 11);
    o += training ? 10 : 11;
    fwrite(line, 1, (size_t)(o - line), f);
}

static size_t write_trace(const char *path, gsl_rng *rng)
{
    static double inf_level[N_TYPES], train_level[N_TYPES], phase[N_TYPES];
    FILE *f = open_out(path);
    size_t rows = 0;

    /* a few big pools, many small ones */
    for (int p = 0; p < n_types; p++) {
        inf_level[p] = 0.5 + 20.0 * pow(gsl_rng_uniform(rng), 3);
        train_level[p] = p % TRAINING_EVERY == 0
                             ? 1.0 + 30.0 * pow(gsl_rng_uniform(rng), 3)
                             : 0;
        phase[p] = 2 * PI * gsl_rng_uniform(rng);
    }
    fputs("timestamp,instance_type,instances,workload\n", f);
    for (int h = 0; h < N_HOURS; h++) {
        char ts[24];
        size_t ts_len = (size_t)snprintf(ts, sizeof ts, "%lld",
                                         YEAR_START + (long long)h * 3600);
        double hour = (double)(h % 24);
        int weekday = (h / 24 + 3) % 7; /* 0 = Monday */
        double week = weekday >= 5 ? 0.7 : 1.0;
        for (int p = 0; p < n_types; p++) {
            double day = 0.6 + 0.4 * sin((hour - 9) / 24 * 2 * PI + phase[p]);
            double x = inf_level[p] * day * week *
                       (1 + gsl_ran_gaussian(rng, 0.1));
            put_row(f, ts, ts_len, &types[p], x < 0.01 ? 0.01 : x, false);
            rows++;
            if (train_level[p] > 0) {
                x = train_level[p] * (0.95 + 0.05 * week) *
                    (1 + gsl_ran_gaussian(rng, 0.08));
                put_row(f, ts, ts_len, &types[p], x < 0.01 ? 0.01 : x,
                        true);
                rows++;
            }
        }
    }
    close_out(f, path);
    return rows;
}

/* ---- runs ---------------------------------------------------------------- */

static gp_trace *load_trace(const char *path, const gp_pricing *pricing)
{
    gp_error err;
    gp_trace_options opt;
    gp_trace_builder *b;
    gp_trace *t = NULL;

    gp_error_clear(&err);
    gp_trace_options_init(&opt);
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

static double time_bill(const gp_trace *t, const gp_pricing *p,
                        const gp_scenario *s, int threads, double *cost)
{
    gp_error err;
    gp_engine_options eo;
    gp_run_spec spec;
    gp_ledger *l = NULL;
    gp_error_clear(&err);
    gp_engine_options_init(&eo); /* as the recommender's bill() sets it */
    eo.threads = threads;
    if (gp_run_spec_init(&spec, t, s, 0, &eo, &err) != GP_OK)
        die_err("gp_run_spec_init", &err);
    double t0 = now_s();
    if (gp_engine_run(t, p, &spec, &l, &err) != GP_OK)
        die_err("gp_engine_run", &err);
    double t1 = now_s();
    *cost = l->total_cost;
    gp_ledger_free(l);
    return t1 - t0;
}

static double time_recommend(const gp_trace *t, const gp_pricing *p,
                             const gp_scenario *s, int threads,
                             gp_recommendation **out)
{
    gp_error err;
    gp_recommend_options ro;
    gp_error_clear(&err);
    gp_recommend_options_init(&ro);
    ro.threads = threads;
    double t0 = now_s();
    if (gp_recommend(t, p, s, &ro, out, &err) != GP_OK)
        die_err("gp_recommend", &err);
    return now_s() - t0;
}

static void usage(void)
{
    fputs("usage: bench_recommend [--repeat N] [--seed S] [--threads T] "
          "[--keep DIR] [--no-baseline]\n"
          "  --repeat N     gp_recommend calls; the best is reported "
          "(default 1;\n"
          "                 the baseline bill is always the best of 3)\n"
          "  --seed S       seed of the synthetic catalog and trace "
          "(default 1)\n"
          "  --threads T    threads for both (default 0: all cores)\n"
          "  --keep DIR     write the catalog and trace into DIR and keep "
          "them\n"
          "  --no-baseline  time gp_recommend only (for perf record)\n"
          "  --pools N      N pools instead of 1,000 (a multiple of 8), to "
          "see how\n"
          "                 the time scales\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    int repeat = 1, threads = 0;
    unsigned long seed = 1;
    const char *keep = NULL;
    bool baseline = true;
    char dir[4096], cat_path[4200], trace_path[4200];
    gp_error err;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoul(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)
            threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "--keep") == 0 && i + 1 < argc)
            keep = argv[++i];
        else if (strcmp(argv[i], "--no-baseline") == 0)
            baseline = false;
        else if (strcmp(argv[i], "--pools") == 0 && i + 1 < argc)
            n_types = atoi(argv[++i]);
        else
            usage();
    }
    if (repeat < 1 || threads < 0 || n_types < N_SIZES ||
        n_types > N_TYPES || n_types % N_SIZES)
        usage();
    gsl_set_error_handler_off();

    if (keep) {
        snprintf(dir, sizeof dir, "%s", keep);
        mkdir(dir, 0777); /* may exist already */
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/gpuplan-bench-rec.XXXXXX",
                 tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir))
            die("cannot create a temporary folder in %s", dir);
    }
    snprintf(cat_path, sizeof cat_path, "%s/catalog.json", dir);
    snprintf(trace_path, sizeof trace_path, "%s/hourly.csv", dir);

    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    double t0 = now_s();
    gsl_rng_set(rng, seed * 2 + 0);
    write_catalog(cat_path, rng);
    gsl_rng_set(rng, seed * 2 + 1);
    size_t rows = write_trace(trace_path, rng);
    gsl_rng_free(rng);
    double t_gen = now_s() - t0;

    gp_pricing *pricing = NULL;
    gp_error_clear(&err);
    t0 = now_s();
    if (gp_pricing_load(&pricing, cat_path, 0, &err) != GP_OK)
        die_err(cat_path, &err);
    double t_cat = now_s() - t0;
    t0 = now_s();
    gp_trace *trace = load_trace(trace_path, pricing);
    double t_load = now_s() - t0;
    long rss_load = peak_rss_kb();
    if (trace->n_pools != (size_t)n_types || trace->n_hours != N_HOURS)
        die("trace: %zu pools x %zu hours, expected %d x %d", trace->n_pools,
            trace->n_hours, n_types, N_HOURS);

    gp_scenario *scn = NULL;
    if (gp_scenario_default(&scn, &err) != GP_OK)
        die_err("scenario", &err);
    if (gp_scenario_check(scn, pricing, NULL, &err) != GP_OK)
        die_err("scenario check", &err);

    printf("== bench_recommend: gpuplan %s, seed %lu, threads %d%s\n",
           GP_VERSION, seed, threads, threads ? "" : " (all cores)");
    printf("   inputs in %s%s\n", dir,
           keep ? " (kept)" : " (removed at exit)");
    printf("   generate catalog and trace     %8.3f s\n", t_gen);
    printf("   load catalog (%d types)      %8.3f s\n", n_types, t_cat);
    printf("   load trace (%zu rows)     %8.3f s  (%zu pools x %zu hours, "
           "%zu series, %.0f MB)\n",
           rows, t_load, trace->n_pools, trace->n_hours, trace->n_series,
           (double)trace->bytes_read / 1e6);
    printf("   peak RSS after loading          %8.0f MB\n",
           (double)rss_load / 1024);
    fflush(stdout);

    /* ---- baseline: one bill of the year ---- */
    double best_bill = INFINITY, bill_cost = 0;
    if (baseline) {
        for (int r = 0; r < 3; r++) {
            double x = time_bill(trace, pricing, scn, threads, &bill_cost);
            printf("   bill %d (gp_engine_run)        %8.3f s\n", r + 1, x);
            best_bill = fmin(best_bill, x);
        }
        fflush(stdout);
    }

    /* ---- gp_recommend ---- */
    double best_rec = INFINITY;
    gp_recommendation *rec = NULL;
    for (int r = 0; r < repeat; r++) {
        gp_recommendation *x = NULL;
        double s = time_recommend(trace, pricing, scn, threads, &x);
        printf("   recommend %d (gp_recommend)    %8.3f s\n", r + 1, s);
        fflush(stdout);
        best_rec = fmin(best_rec, s);
        if (rec)
            gp_recommendation_free(x);
        else
            rec = x;
    }
    long rss_end = peak_rss_kb();

    size_t n_type[3] = {0, 0, 0};
    for (size_t i = 0; i < rec->n_actions; i++)
        n_type[rec->actions[i].type]++;
    const gp_plan_result *plan = &rec->plans[rec->recommended];
    printf("-- plan: %zu actions (%zu routing, %zu reserved, %zu savings "
           "plans), %s plan net savings $%.0f of a policy cost of $%.0f "
           "(all on demand $%.0f), captured %.3f, 3-year terms %s\n",
           rec->n_actions, n_type[GP_ACTION_ROUTING],
           n_type[GP_ACTION_RESERVED], n_type[GP_ACTION_SAVINGS_PLAN],
           plan->name, plan->net_savings, rec->policy_cost,
           rec->all_on_demand_cost, rec->captured_fraction,
           rec->supported_term == 3 ? "supported" : "not supported");
    if (baseline && fabs(bill_cost - rec->policy_cost) >
                        1e-9 * fmax(1, rec->policy_cost))
        die("the baseline bill ($%.2f) differs from the recommender's "
            "policy cost ($%.2f)",
            bill_cost, rec->policy_cost);
    printf("== gp_recommend, 1 year x %d pools: %.3f s (target < %.0f s: "
           "%s)\n",
           n_types, best_rec, TARGET_S, best_rec < TARGET_S ? "met" : "MISSED");
    if (baseline)
        printf("   baseline, one bill of the same year (gp_engine_run): "
               "%.3f s; ratio %.1f bills\n",
               best_bill, best_rec / best_bill);
    printf("   peak RSS %.0f MB (after loading: %.0f MB)\n",
           (double)rss_end / 1024, (double)rss_load / 1024);

    gp_recommendation_free(rec);
    gp_scenario_free(scn);
    gp_trace_free(trace);
    gp_pricing_free(pricing);
    if (!keep) {
        remove(cat_path);
        remove(trace_path);
        rmdir(dir);
    }
    return 0;
}
