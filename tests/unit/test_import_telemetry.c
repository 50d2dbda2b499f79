/*
 * test_import_telemetry.c: unit tests of the telemetry importers
 * (import_telemetry.c): nvidia-smi CSV logs, DCGM exporter scrapes and
 * Prometheus query_range JSON into trace rows.
 *
 * Fixtures are in tests/data/telemetry/ (see its README: the real files in
 * real/ and the variants built by hand).  Every expected value is worked
 * out from the input next to it and the bundled catalogs (pricing/), and
 * the comment beside each says how.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuplan.h"
#include "import.h"

static gp_pricing *pricing;

static int load_pricing(void **state)
{
    gp_error err;
    char path[4096];
    (void)state;
    snprintf(path, sizeof path, "%s/pricing", source_dir());
    gp_error_clear(&err);
    return gp_pricing_load(&pricing, path, 0, &err) == GP_OK ? 0 : -1;
}

static int free_pricing(void **state)
{
    (void)state;
    gp_pricing_free(pricing);
    return 0;
}

/* A fixture of tests/data/telemetry, read whole (NUL-terminated); the
 * caller frees it. */
static char *fixture(const char *rel, size_t *len)
{
    char path[4096];
    FILE *f;
    char *buf;
    long n;

    snprintf(path, sizeof path, "%s/tests/data/telemetry/%s", source_dir(),
             rel);
    f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

typedef gp_status (*buffer_importer)(const char *data, size_t len,
                                     const char *name,
                                     const gp_import_options *opt, FILE *out,
                                     gp_error *err);

/* Options with the bundled catalogs and nothing else set. */
static gp_import_options options(void)
{
    gp_import_options o;
    memset(&o, 0, sizeof o);
    o.pricing = pricing;
    return o;
}

/* Runs an importer on text; returns what it wrote (the caller frees it)
 * and its status in *st, its error in *err. */
static char *run(buffer_importer fn, const char *text, size_t len,
                 const char *name, const gp_import_options *opt, gp_status *st,
                 gp_error *err)
{
    FILE *f = tmpfile();
    char *out;
    long n;

    assert_non_null(f);
    gp_error_clear(err);
    *st = fn(text, len, name, opt, f, err);
    n = ftell(f);
    rewind(f);
    out = malloc((size_t)n + 1);
    assert_non_null(out);
    assert_int_equal(fread(out, 1, (size_t)n, f), (size_t)n);
    out[n] = '\0';
    fclose(f);
    return out;
}

/* Runs an importer that must succeed on a fixture file. */
static char *import_ok(buffer_importer fn, const char *rel,
                       const gp_import_options *opt)
{
    size_t len;
    char *text = fixture(rel, &len);
    gp_status st;
    gp_error err;
    char *out = run(fn, text, len, rel, opt, &st, &err);
    free(text);
    if (st != GP_OK) {
        char msg[2048];
        gp_error_format(&err, msg, sizeof msg);
        fail_msg("%s: %s", rel, msg);
    }
    return out;
}

/* Runs an importer that must fail on text; returns the error. */
static gp_error import_fails(buffer_importer fn, const char *text,
                             const char *name, const gp_import_options *opt)
{
    gp_status st;
    gp_error err;
    char *out = run(fn, text, strlen(text), name, opt, &st, &err);
    assert_int_equal(st, GP_ERR_INPUT);
    /* a failed import writes nothing */
    assert_string_equal(out, "");
    free(out);
    return err;
}

/* The number of data rows of a trace (lines after the header). */
static int rows(const char *csv)
{
    int n = -1;
    for (const char *p = csv; *p; p++)
        n += *p == '\n';
    return n;
}

/* Field `name` of data row `row` (1-based) into buf; the fixtures hold no
 * quoted fields, so a split at commas is enough. */
static const char *field(const char *csv, int row, const char *name, char *buf,
                         size_t size)
{
    const char *line = csv, *h = csv;
    int col = 0;

    /* which column */
    for (;;) {
        size_t n = strcspn(h, ",\n");
        if (n == strlen(name) && strncmp(h, name, n) == 0)
            break;
        if (h[n] != ',')
            fail_msg("no column %s", name);
        h += n + 1;
        col++;
    }
    for (int r = 0; r < row; r++) {
        line = strchr(line, '\n');
        if (!line || !line[1])
            fail_msg("no row %d", row);
        line++;
    }
    for (int c = 0; c < col; c++) {
        line += strcspn(line, ",\n");
        if (*line != ',')
            fail_msg("row %d has no column %d", row, col);
        line++;
    }
    size_t n = strcspn(line, ",\n");
    if (n >= size)
        n = size - 1;
    memcpy(buf, line, n);
    buf[n] = '\0';
    return buf;
}

/* Field `name` of row `row` as a number. */
static double number(const char *csv, int row, const char *name)
{
    char buf[128];
    return atof(field(csv, row, name, buf, sizeof buf));
}

#define assert_field(csv, row, name, want)                                     \
    do {                                                                       \
        char buf_[256];                                                        \
        assert_string_equal(field(csv, row, name, buf_, sizeof buf_), want);   \
    } while (0)

/* sum of instances x step_s over the rows: the instance-seconds billed */
static double instance_seconds(const char *csv)
{
    double sum = 0;
    for (int r = 1; r <= rows(csv); r++)
        sum += number(csv, r, "instances") * number(csv, r, "step_s");
    return sum;
}

/* ---- nvidia-smi ------------------------------------------------------- */

static void test_nvidia_smi_strips_units_from_values_and_headers(void **state)
{
    gp_import_options o = options();
    char *out;

    (void)state;
    /* smi-units.csv: nvidia-smi's default --format=csv, "33 %", "1129
     * MiB", "74.01 W", headers "utilization.gpu [%]", times in its own
     * "2023/05/12 10:00:00.123" form.  One "NVIDIA H100 80GB HBM3": the
     * only one-GPU H100 type of the bundled catalogs is aws p5.4xlarge
     * (azure's one-GPU type is H100-NVL; gcp's H100 types have 8). */
    out = import_ok(gp_import_nvidia_smi_buffer, "smi-units.csv", &o);
    assert_int_equal(rows(out), 4);
    assert_field(out, 1, "timestamp", "2023-05-12T10:00:00.123Z");
    assert_field(out, 1, "provider", "aws");
    assert_field(out, 1, "region", "us-east-1");
    assert_field(out, 1, "instance_type", "p5.4xlarge");
    assert_field(out, 1, "instances", "1");
    assert_field(out, 1, "gpu_util", "33");
    assert_field(out, 1, "memory_used_mib", "1129");
    assert_field(out, 1, "power_w", "74.01");
    /* 10:00:00.123 to 10:00:05.123: 5 s; 05.123 to 10.125: 5.002 s */
    assert_close(number(out, 1, "step_s"), 5, 1e-9);
    assert_close(number(out, 2, "step_s"), 5.002, 1e-9);
    /* row 3 has power [N/A], row 4 utilization [N/A]: empty, no error */
    assert_field(out, 3, "power_w", "");
    assert_field(out, 3, "gpu_util", "100");
    assert_field(out, 4, "gpu_util", "");
    /* the last sample lasts as long as the one before it (4.999 s) */
    assert_close(number(out, 4, "step_s"), 4.999, 1e-9);
    free(out);
}

static void test_nvidia_smi_scales_gib_kib_and_milliwatts(void **state)
{
    gp_import_options o = options();
    gp_status st;
    gp_error err;
    /* the README's other units: 2 GiB = 2048 MiB, 512 KiB = 0.5 MiB,
     * 75000 mW = 75 W (and "mW" is not "W" with an "m" left over) */
    const char *text =
        "timestamp, name, utilization.gpu [%], memory.used [MiB], "
        "power.draw [W]\n"
        "2023/05/12 10:00:00.000, NVIDIA H100 80GB HBM3, 40 %, 2 GiB, "
        "75000 mW\n"
        "2023/05/12 10:00:05.000, NVIDIA H100 80GB HBM3, 41 %, 512 KiB, "
        "75500mW\n";

    (void)state;
    char *out = run(gp_import_nvidia_smi_buffer, text, strlen(text),
                    "scaled.csv", &o, &st, &err);
    assert_int_equal(st, GP_OK);
    assert_int_equal(rows(out), 2);
    assert_close(number(out, 1, "memory_used_mib"), 2048, 1e-9);
    assert_close(number(out, 1, "power_w"), 75, 1e-9);
    assert_close(number(out, 2, "memory_used_mib"), 0.5, 1e-9);
    assert_close(number(out, 2, "power_w"), 75.5, 1e-9);
    free(out);
}

static void
test_nvidia_smi_skips_the_header_repeated_before_each_sample(void **state)
{
    gp_import_options o = options();
    char *out;

    (void)state;
    /* smi-repeated-header.csv: three queries of four "Tesla T4", each
     * with its header.  Four T4 on a host: aws g4dn.12xlarge is the only
     * 4 x T4 type, so each GPU is a quarter instance. */
    out = import_ok(gp_import_nvidia_smi_buffer, "smi-repeated-header.csv", &o);
    assert_int_equal(rows(out), 12);
    assert_field(out, 1, "instance_type", "g4dn.12xlarge");
    assert_field(out, 1, "instances", "0.25");
    /* rows are by time, then GPU: row 3 is index 2 of the first sample,
     * the idle one */
    assert_field(out, 3, "job_id", "smi-repeated-header/gpu2");
    assert_field(out, 3, "gpu_util", "0");
    /* samples 10 s apart: 12 rows x 0.25 x 10 s = 30 instance-seconds */
    assert_close(instance_seconds(out), 30, 1e-9);
    free(out);
}

static void test_nvidia_smi_real_log_of_eight_gpus(void **state)
{
    gp_import_options o = options();
    char *out;

    (void)state;
    /* real/xypp3_gpu_glasses__nvidia_smi.csv: 8 GPUs (column "gpu"; its
     * "index" column is 0 throughout), samples at 17:26:50, 51, 53, 54,
     * 56 (+08:00) and GPUs 0-2 once more at :58: 5 x 8 + 3 = 43 rows.  No
     * model name, so the type is given: 80 GB GPUs, p4de.24xlarge (8). */
    o.instance_type = "p4de.24xlarge";
    out = import_ok(gp_import_nvidia_smi_buffer,
                    "real/xypp3_gpu_glasses__nvidia_smi.csv", &o);
    assert_int_equal(rows(out), 43);
    assert_field(out, 1, "timestamp", "2025-09-08T09:26:50Z");
    assert_field(out, 1, "instances", "0.125");
    assert_field(out, 8, "job_id", "xypp3_gpu_glasses__nvidia_smi/gpu7");
    assert_field(out, 1, "gpu_util", "");
    /* GPU 0: gaps 1, 2, 1, 2, 2 s (median 2, none beyond 3 x 2), the last
     * sample 2 s: 10 s; GPUs 0-2 10 s each, GPUs 3-7 (gaps 1, 2, 1, 2,
     * last 2) 8 s each: (3 x 10 + 5 x 8) x 0.125 = 8.75 instance-s */
    assert_close(instance_seconds(out), 8.75, 1e-9);
    free(out);
}

static void
test_nvidia_smi_gap_when_the_logger_was_off_is_not_billed(void **state)
{
    gp_import_options o = options();
    char *out;

    (void)state;
    /* smi-nounits.csv (--format=csv,nounits): samples at 12:00, 12:01,
     * 12:02, 12:13, 12:14.  Gaps 60, 60, 660, 60 s: median 60, and 660 >
     * 3 x 60, so the 12:02 sample lasts 60 s, not 660.  Five samples of
     * 60 s, one L4 on g6.xlarge (1 GPU): 300 instance-seconds. */
    o.instance_type = "g6.xlarge";
    out = import_ok(gp_import_nvidia_smi_buffer, "smi-nounits.csv", &o);
    assert_int_equal(rows(out), 5);
    assert_close(number(out, 3, "step_s"), 60, 1e-9);
    assert_close(instance_seconds(out), 300, 1e-9);
    assert_field(out, 1, "gpu_uuid",
                 "GPU-8f6a3c2e-1d4b-4c7a-9e21-0a5b6c7d8e9f");
    free(out);
}

static void test_nvidia_smi_host_column_and_model_pick_the_type(void **state)
{
    gp_import_options o = options();
    char *out;

    (void)state;
    /* smi-hosts.csv: two hosts with one "NVIDIA A100 80GB PCIe" each, ISO
     * times at +01:00.  The only one-GPU A100-80GB type is azure's
     * Standard_NC24ads_A100_v4 (aws and gcp have 8-GPU ones only). */
    out = import_ok(gp_import_nvidia_smi_buffer, "smi-hosts.csv", &o);
    assert_int_equal(rows(out), 4);
    assert_field(out, 1, "timestamp", "2025-02-03T08:00:00Z");
    assert_field(out, 1, "provider", "azure");
    assert_field(out, 1, "region", "eastus");
    assert_field(out, 1, "instance_type", "Standard_NC24ads_A100_v4");
    assert_field(out, 1, "job_id", "trainer-a/gpu0");
    assert_field(out, 2, "job_id", "trainer-b/gpu0");
    /* 09:00 to 09:05: 300 s; 4 rows x 1 x 300 */
    assert_close(instance_seconds(out), 1200, 1e-9);
    free(out);
}

static void test_nvidia_smi_errors_say_where_and_why(void **state)
{
    gp_import_options o = options();
    gp_error e;

    (void)state;
    /* noheader: the first row is a sample */
    e = import_fails(gp_import_nvidia_smi_buffer,
                     "2024/03/04 08:00:00.010, 0, Tesla T4, 88 %\n", "n.csv",
                     &o);
    assert_int_equal(e.line, 1);
    assert_int_equal(e.column, 1);
    assert_string_equal(e.field, "header");
    assert_non_null(strstr(e.message, "noheader"));

    /* utilization 150 % is out of range: line 3, column 3 */
    o.instance_type = "g4dn.xlarge";
    e = import_fails(gp_import_nvidia_smi_buffer,
                     "timestamp, index, utilization.gpu [%]\n"
                     "2024/03/04 08:00:00.000, 0, 15 %\n"
                     "2024/03/04 08:00:10.000, 0, 150 %\n",
                     "u.csv", &o);
    assert_int_equal(e.line, 3);
    assert_int_equal(e.column, 3);
    assert_string_equal(e.field, "utilization.gpu");
    assert_string_equal(e.message, "expected a utilization 0..100 (\"33 %\" "
                                   "or 33), got \"150 %\"");

    /* the same GPU twice at one time (two hosts' logs pasted together) */
    e = import_fails(gp_import_nvidia_smi_buffer,
                     "timestamp,index\n2024-03-04T08:00:00Z,0\n"
                     "2024-03-04T08:00:00Z,0\n",
                     "d.csv", &o);
    assert_int_equal(e.line, 3);
    assert_non_null(strstr(e.message, "already has a sample"));

    /* one sample: its length is unknown without the step parameter (the
     * library names it; gpuplan shows --step) */
    e = import_fails(gp_import_nvidia_smi_buffer,
                     "timestamp,index\n2024-03-04T08:00:00Z,0\n", "s.csv", &o);
    assert_int_equal(e.line, 2);
    assert_string_equal(e.message, "GPU s/gpu0 has a single sample, so its "
                                   "length is unknown; give "
                                   GP_PARAM_TEXT("step") " SECONDS");
}

static void
test_model_fitting_several_types_asks_for_instance_type(void **state)
{
    gp_import_options o = options();
    gp_error e;

    (void)state;
    /* one Tesla T4: aws g4dn.xlarge .. 16xlarge and azure NC4as_T4_v3 all
     * have one T4 */
    e = import_fails(gp_import_nvidia_smi_buffer,
                     "timestamp,index,name\n2024-03-04T08:00:00Z,0,Tesla T4\n"
                     "2024-03-04T08:01:00Z,0,Tesla T4\n",
                     "t4.csv", &o);
    /* at the model's cell: line 2, the third column, named by its header */
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 3);
    assert_string_equal(e.field, "name");
    assert_non_null(strstr(e.message, "g4dn.xlarge"));
    assert_non_null(strstr(e.message, "Standard_NC4as_T4_v3"));
    assert_non_null(strstr(e.message, "give " GP_PARAM_TEXT("instance-type")));

    /* "NVIDIA H100 NVL" matches both H100 (one word) and H100-NVL (two):
     * the better match wins, azure's one-GPU Standard_NC40ads_H100_v5, not
     * aws p5.4xlarge */
    {
        gp_status st;
        gp_error err;
        const char *csv = "timestamp,index,name\n"
                          "2024-03-04T08:00:00Z,0,NVIDIA H100 NVL\n"
                          "2024-03-04T08:01:00Z,0,NVIDIA H100 NVL\n";
        char *out = run(gp_import_nvidia_smi_buffer, csv, strlen(csv),
                        "nvl.csv", &o, &st, &err);
        assert_int_equal(st, GP_OK);
        assert_field(out, 1, "instance_type", "Standard_NC40ads_H100_v5");
        free(out);
    }

    /* --provider azure leaves one */
    o.provider = "azure";
    {
        gp_status st;
        gp_error err;
        const char *csv = "timestamp,index,name\n"
                          "2024-03-04T08:00:00Z,0,Tesla T4\n"
                          "2024-03-04T08:01:00Z,0,Tesla T4\n";
        char *out = run(gp_import_nvidia_smi_buffer, csv, strlen(csv), "t4.csv",
                        &o, &st, &err);
        assert_int_equal(st, GP_OK);
        assert_field(out, 1, "instance_type", "Standard_NC4as_T4_v3");
        free(out);
    }
}

/* ---- DCGM exporter ---------------------------------------------------- */

static void test_dcgm_scrape_without_timestamps_takes_time(void **state)
{
    gp_import_options o = options();
    size_t len;
    char *text = fixture("real/cncf_v1.35_kops_tests_TestObservability_"
                         "AcceleratorMetrics_ViaDCGM_output.prom",
                         &len);
    gp_status st;
    gp_error err;
    char *out;

    (void)state;
    o.instance_type = "g6.xlarge";
    /* no --time: an error at the first metric line (line 3, after HELP and
     * TYPE) */
    out = run(gp_import_dcgm_buffer, text, len, "kops.prom", &o, &st, &err);
    assert_int_equal(st, GP_ERR_INPUT);
    assert_int_equal(err.line, 3);
    assert_string_equal(err.field, "DCGM_FI_DEV_SM_CLOCK");
    free(out);

    /* with --time 2026-01-05T10:00:00Z (1767607200): the file holds the
     * same scrape twice, so two samples 60 s apart (the default step) */
    o.has_time = true;
    o.time = 1767607200;
    out = run(gp_import_dcgm_buffer, text, len, "kops.prom", &o, &st, &err);
    assert_int_equal(st, GP_OK);
    assert_int_equal(rows(out), 2);
    assert_field(out, 1, "timestamp", "2026-01-05T10:00:00Z");
    assert_field(out, 2, "timestamp", "2026-01-05T10:01:00Z");
    assert_field(out, 1, "step_s", "60");
    assert_field(out, 1, "job_id", "i-030791dc5a37cd257/gpu0");
    assert_field(out, 1, "gpu_model", "NVIDIA L4");
    /* its DCGM_FI_DEV_POWER_USAGE line for gpu 0 reads 16.365000 */
    assert_field(out, 1, "power_w", "16.365");
    free(out);
    free(text);
}

static void test_dcgm_kubernetes_labels_become_team_and_project(void **state)
{
    gp_import_options o = options();
    char *out;

    (void)state;
    /* dcgm-k8s.prom: two scrapes 30 s apart (exposition timestamps
     * 1767607200000 and ...230000 ms), two L40S, GPU 0 in pod
     * llama-ft-7d9c5-x2k4q of namespace ml-research, container trainer */
    o.instance_type = "g6e.12xlarge"; /* 4 x L40S: a quarter each */
    out = import_ok(gp_import_dcgm_buffer, "dcgm-k8s.prom", &o);
    assert_int_equal(rows(out), 4);
    assert_field(out, 1, "timestamp", "2026-01-05T10:00:00Z");
    assert_field(out, 1, "step_s", "30");
    assert_field(out, 1, "instances", "0.25");
    assert_field(out, 1, "team", "ml-research");
    assert_field(out, 1, "project", "trainer");
    assert_field(out, 1, "pod", "llama-ft-7d9c5-x2k4q");
    /* GPU 0's first-scrape lines, read off the file: GPU_UTIL 97,
     * FB_USED 41230, PIPE_TENSOR_ACTIVE 0.412345; GPU 1's GPU_UTIL 0 */
    assert_field(out, 1, "gpu_util", "97");
    assert_field(out, 1, "memory_used_mib", "41230");
    assert_field(out, 1, "tensor_active", "0.412345");
    assert_field(out, 2, "team", "");
    assert_field(out, 2, "gpu_util", "0");
    assert_field(out, 3, "timestamp", "2026-01-05T10:00:30Z");
    free(out);
}

/* One scrape (1767607200000 ms, 2026-01-05T10:00:00Z) where GPU n1/gpu0's
 * utilization line has a namespace and no pod, and its memory line names
 * namespace ml, pod p1, container c1 (the lines written by hand after the
 * labels dcgm-exporter gives, as in dcgm-k8s.prom).  The sample is p1's
 * whichever line comes first: the pod and container were lost when the
 * pod-less line came first.  A third line naming pod p2 at the same time
 * is still a second pod's claim (the existing rule, line 3). */
static void test_dcgm_pod_after_a_reading_without_one(void **state)
{
#define L_UTIL_NS                                                              \
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",modelName=\"Tesla T4\",Hostname=\"n1\","   \
    "namespace=\"ml\"} 71 1767607200000\n"
#define L_MEM_POD                                                              \
    "DCGM_FI_DEV_FB_USED{gpu=\"0\",modelName=\"Tesla T4\",Hostname=\"n1\","    \
    "namespace=\"ml\",pod=\"p1\",container=\"c1\"} 1024 1767607200000\n"
    static const char *const texts[] = {L_UTIL_NS L_MEM_POD,
                                        L_MEM_POD L_UTIL_NS};
    const char *clash = L_UTIL_NS L_MEM_POD
        "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE{gpu=\"0\",modelName=\"Tesla T4\","
        "Hostname=\"n1\",namespace=\"ml\",pod=\"p2\",container=\"c2\"} 0.5 "
        "1767607200000\n";
    gp_import_options o = options();
    gp_status st;
    gp_error err;
    char *out, msg[1024];

    (void)state;
    o.instance_type = "g4dn.xlarge";
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        out = run(gp_import_dcgm_buffer, texts[i], strlen(texts[i]), "n.prom",
                  &o, &st, &err);
        assert_int_equal(st, GP_OK);
        assert_int_equal(rows(out), 1);
        assert_field(out, 1, "timestamp", "2026-01-05T10:00:00Z");
        assert_field(out, 1, "team", "ml");
        assert_field(out, 1, "project", "c1");
        assert_field(out, 1, "pod", "p1");
        assert_field(out, 1, "gpu_util", "71");
        assert_field(out, 1, "memory_used_mib", "1024");
        free(out);
    }
    out = run(gp_import_dcgm_buffer, clash, strlen(clash), "n.prom", &o, &st,
              &err);
    assert_int_equal(st, GP_ERR_INPUT);
    gp_error_format(&err, msg, sizeof msg);
    assert_non_null(strstr(msg, "n.prom:3:"));
    assert_non_null(strstr(msg, "is used by several pods at "
                                "2026-01-05T10:00:00Z (p1 and p2, also line "
                                "2)"));
    free(out);
#undef L_UTIL_NS
#undef L_MEM_POD
}

static void test_dcgm_engine_activity_stands_in_for_missing_util(void **state)
{
    gp_import_options o = options();
    const char *text =
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",modelName=\"NVIDIA L4\","
        "Hostname=\"n1\"} 0.25 1767607200000\n"
        "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",modelName=\"NVIDIA L4\","
        "Hostname=\"n1\"} 0.5 1767607260000\n";
    gp_status st;
    gp_error err;
    char *out;

    (void)state;
    o.instance_type = "g6.xlarge";
    out =
        run(gp_import_dcgm_buffer, text, strlen(text), "e.prom", &o, &st, &err);
    assert_int_equal(st, GP_OK);
    /* ratio 0.25 of the time active: 25 % */
    assert_field(out, 1, "gpu_util", "25");
    assert_field(out, 2, "gpu_util", "50");
    free(out);
}

/* Kubernetes labels with no room for them in a fixed key: a 600-byte
 * namespace, 300-byte container and 300-byte pod (1,203 bytes as a key
 * with its separators, over the 1,024 on the stack) reach the trace whole,
 * on both samples. */
static void test_dcgm_long_kubernetes_labels_are_kept_whole(void **state)
{
    gp_import_options o = options();
    char team[601], project[301], pod[301], line[1400], text[2900], buf[700];
    gp_status st;
    gp_error err;
    char *out;

    (void)state;
    memset(team, 'n', 600);
    team[600] = '\0';
    memset(project, 'c', 300);
    project[300] = '\0';
    memset(pod, 'p', 300);
    pod[300] = '\0';
    snprintf(line, sizeof line,
             "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",modelName=\"NVIDIA L4\","
             "Hostname=\"n1\",namespace=\"%s\",container=\"%s\",pod=\"%s\"}",
             team, project, pod);
    snprintf(text, sizeof text, "%s 40 1767607200000\n%s 60 1767607260000\n",
             line, line);
    o.instance_type = "g6.xlarge";
    out = run(gp_import_dcgm_buffer, text, strlen(text), "long.prom", &o, &st,
              &err);
    assert_int_equal(st, GP_OK);
    assert_int_equal(rows(out), 2);
    for (int r = 1; r <= 2; r++) {
        assert_string_equal(field(out, r, "team", buf, sizeof buf), team);
        assert_string_equal(field(out, r, "project", buf, sizeof buf), project);
        assert_string_equal(field(out, r, "pod", buf, sizeof buf), pod);
    }
    free(out);
}

static void test_dcgm_errors_point_at_the_line_and_column(void **state)
{
    gp_import_options o = options();
    gp_error e;

    (void)state;
    o.instance_type = "g6.xlarge";
    /* "150" starts at column 31 of line 2 (20 + 9 characters of name and
     * labels, then a space) */
    e = import_fails(gp_import_dcgm_buffer,
                     "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
                     "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 150 1767607200000\n",
                     "u.prom", &o);
    assert_int_equal(e.line, 2);
    assert_int_equal(e.column, 31);
    assert_string_equal(e.message, "expected a utilization 0..100, got "
                                   "\"150\"");
    /* an unterminated label value */
    e = import_fails(gp_import_dcgm_buffer, "DCGM_FI_DEV_GPU_UTIL{gpu=\"0} 1\n",
                     "q.prom", &o);
    assert_int_equal(e.line, 1);
    assert_string_equal(e.field, "gpu");
    assert_string_equal(e.message, "the label value has no closing quote");
    /* nothing DCGM in the file */
    e = import_fails(gp_import_dcgm_buffer, "go_goroutines 12\n", "g.prom", &o);
    assert_string_equal(e.message,
                        "no GPU samples (DCGM_FI_* metrics with a gpu label)");
}

/* dcgm-mig.prom: two scrapes an hour apart (10:00, 11:00) of host
 * a100-node's two A100-SXM4-40GB split into MIG instances; given
 * p4d.24xlarge (8 GPUs), a GPU is 1/8 of an instance.  Each instance's
 * share of its GPU is its slices over the slices of the GPU's instances
 * seen (docs/import.md): GPU 0 has 3g + 2g (team-a) and 2g (team-b), all
 * 7 slices: 3/7, 2/7, 2/7 of 1/8; GPU 1 has 3g (team-a) and 2g (team-b),
 * 5 of 7, the 2 idle slices spread by size: 3/5 and 2/5 of 1/8. */
static void test_dcgm_mig_instances_share_their_gpu_by_slices(void **state)
{
    gp_import_options o = options();
    gp_warnings notes = {NULL, 0, 0};
    char *out;

    (void)state;
    o.instance_type = "p4d.24xlarge";
    o.notes = &notes;
    out = import_ok(gp_import_dcgm_buffer, "dcgm-mig.prom", &o);
    /* 5 instances x 2 scrapes; GPU 0's whole-GPU power lines left out */
    assert_int_equal(rows(out), 10);
    assert_field(out, 1, "job_id", "a100-node/gpu0/mig1");
    assert_field(out, 1, "team", "team-a");
    assert_field(out, 1, "project", "train");
    assert_field(out, 1, "step_s", "3600");
    assert_close(number(out, 1, "instances"), 3.0 / 7 / 8, 1e-15);
    /* DCGM_FI_PROF_GR_ENGINE_ACTIVE 0.5 x 100 */
    assert_close(number(out, 1, "gpu_util"), 50, 1e-12);
    assert_close(number(out, 2, "instances"), 2.0 / 7 / 8, 1e-15);
    assert_field(out, 3, "team", "team-b");
    assert_close(number(out, 3, "instances"), 2.0 / 7 / 8, 1e-15);
    assert_field(out, 4, "job_id", "a100-node/gpu1/mig1");
    assert_close(number(out, 4, "instances"), 3.0 / 5 / 8, 1e-15);
    assert_close(number(out, 5, "instances"), 2.0 / 5 / 8, 1e-15);
    assert_field(out, 5, "gpu_uuid", "GPU-5f0a0000-0000-4000-8000-000000000001");
    /* two whole GPUs, 1/8 each, for 2 x 3600 s: 1,800 instance-seconds */
    assert_close(instance_seconds(out), 1800, 1e-9);
    bool noted = false;
    for (size_t i = 0; i < notes.count; i++)
        noted |= strstr(notes.items[i], "2 whole-GPU samples") != NULL;
    assert_true(noted);
    gp_warnings_clear(&notes);
    free(out);

    /* one scrape whose lines' timestamps are 4 ms apart is one moment:
     * 4g and 3g share the GPU 4/7 and 3/7, not a whole GPU each */
    o = options();
    o.instance_type = "p4d.24xlarge";
    o.step_s = 60;
    gp_status mst;
    gp_error merr;
    const char *ms = "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",GPU_I_ID=\"1\","
                     "GPU_I_PROFILE=\"4g.20gb\"} 0.5 1767607200000\n"
                     "DCGM_FI_PROF_GR_ENGINE_ACTIVE{gpu=\"0\",GPU_I_ID=\"2\","
                     "GPU_I_PROFILE=\"3g.20gb\"} 0.5 1767607200004\n";
    out = run(gp_import_dcgm_buffer, ms, strlen(ms), "ms.prom", &o, &mst,
              &merr);
    assert_int_equal(mst, GP_OK);
    assert_close(number(out, 1, "instances"), 4.0 / 7 / 8, 1e-15);
    assert_close(number(out, 2, "instances"), 3.0 / 7 / 8, 1e-15);
    free(out);

    /* the type from the model: the host has 2 GPUs (not 5 instances) */
    size_t len;
    char *text = fixture("dcgm-mig.prom", &len);
    gp_status st;
    gp_error err;
    o = options();
    out = run(gp_import_dcgm_buffer, text, len, "dcgm-mig.prom", &o, &st, &err);
    assert_int_equal(st, GP_ERR_INPUT);
    if (!strstr(err.message, "has 2 \"NVIDIA A100-SXM4-40GB\" GPUs"))
        fail_msg("%s", err.message);
    free(out);
    free(text);
}

/* A MIG profile gpuplan does not know, or none, is an error at the label. */
static void test_dcgm_mig_profile_errors(void **state)
{
    gp_import_options o = options();
    gp_error e;

    (void)state;
    o.instance_type = "p4d.24xlarge";
    /* GPU_I_PROFILE starts at column 30: 20 characters of name, "{" and
     * the 8 of gpu="0", before it */
    e = import_fails(gp_import_dcgm_buffer,
                     "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",GPU_I_PROFILE=\"5g.50gb\","
                     "GPU_I_ID=\"1\"} 1 1767607200000\n",
                     "m.prom", &o);
    assert_int_equal(e.line, 1);
    assert_int_equal(e.column, 30);
    assert_string_equal(e.field, "GPU_I_PROFILE");
    assert_non_null(strstr(e.message, "unknown MIG profile \"5g.50gb\""));
    /* an A30 has 4 slices: 3g is not one of its profiles */
    e = import_fails(gp_import_dcgm_buffer,
                     "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",modelName=\"NVIDIA A30\","
                     "GPU_I_PROFILE=\"3g.18gb\",GPU_I_ID=\"1\"} 1 "
                     "1767607200000\n",
                     "m.prom", &o);
    assert_string_equal(e.field, "GPU_I_PROFILE");
    e = import_fails(gp_import_dcgm_buffer,
                     "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",GPU_I_ID=\"1\"} 1 "
                     "1767607200000\n",
                     "m.prom", &o);
    assert_string_equal(e.field, "GPU_I_ID");
    assert_non_null(strstr(e.message, "without GPU_I_PROFILE"));
}

/* ---- Prometheus ------------------------------------------------------- */

static void test_prometheus_range_with_exported_labels(void **state)
{
    gp_import_options o = options();
    char *out;

    (void)state;
    /* prometheus-range.json: GPU_UTIL and FB_USED of host a (5 points, 60 s
     * apart, one NaN) and GPU_UTIL of host b (points at +0, +60, +240 s).
     * One "NVIDIA H100 80GB HBM3" each: aws p5.4xlarge. */
    out = import_ok(gp_import_prometheus_buffer, "prometheus-range.json", &o);
    assert_int_equal(rows(out), 8);
    assert_field(out, 1, "instance_type", "p5.4xlarge");
    /* host a's workload labels are exported_* (Prometheus renamed them);
     * the plain pod/namespace are the exporter's own */
    assert_field(out, 1, "job_id", "h100-node-a1b2c/gpu0");
    assert_field(out, 1, "team", "inference");
    assert_field(out, 1, "project", "vllm");
    assert_field(out, 1, "pod", "vllm-llama-8b-6c9f7-abcde");
    /* host a's FB_USED at 10:00 in the file: "70312" */
    assert_field(out, 1, "memory_used_mib", "70312");
    /* host b has no workload: no labels, not the exporter's */
    assert_field(out, 2, "job_id", "h100-node-d3e4f/gpu0");
    assert_field(out, 2, "team", "");
    assert_field(out, 2, "pod", "");
    /* rows by time: 10:02 is host a's NaN point */
    assert_field(out, 5, "timestamp", "2026-01-05T10:02:00Z");
    assert_field(out, 5, "gpu_util", "");
    /* host b: gaps 60 and 180 (median 120, 180 <= 360): steps 60, 180,
     * and the last one 180; host a: 5 x 60.  300 + 420 = 720 */
    assert_close(number(out, 4, "step_s"), 180, 1e-9);
    assert_close(instance_seconds(out), 720, 1e-9);
    free(out);
}

static void test_prometheus_errors_name_the_line_and_field(void **state)
{
    gp_import_options o = options();
    gp_error e;

    (void)state;
    e = import_fails(gp_import_prometheus_buffer,
                     "{\"status\": \"error\", \"errorType\": \"bad_data\",\n"
                     " \"error\": \"invalid parameter \\\"query\\\"\"}\n",
                     "e.json", &o);
    assert_string_equal(e.field, "status");
    assert_int_equal(e.line, 1);
    assert_string_equal(e.message, "the query failed (status \"error\"): "
                                   "bad_data: invalid parameter \"query\"");

    /* an aggregated query lost the gpu label: neither series has one,
     * and the first, result[0] (line 2, its "metric" has only __name__),
     * is the one reported */
    e = import_fails(gp_import_prometheus_buffer,
                     "{\"status\": \"success\", \"data\": {\"resultType\": "
                     "\"matrix\", \"result\": [\n"
                     "  {\"metric\": {\"__name__\": \"DCGM_FI_DEV_GPU_UTIL\"},"
                     " \"values\": [[1767607200, \"5\"]]},\n"
                     "  {\"metric\": {\"Hostname\": \"h\"},\n"
                     "   \"values\": [[1767607200, \"5\"]]}]}}\n",
                     "agg.json", &o);
    assert_int_equal(e.line, 2);
    assert_string_equal(e.field, "data.result[0].metric");

    /* a value that is not a number */
    e = import_fails(gp_import_prometheus_buffer,
                     "{\"status\": \"success\", \"data\": {\"resultType\": "
                     "\"matrix\", \"result\": [\n"
                     "  {\"metric\": {\"gpu\": \"0\"},\n"
                     "   \"values\": [[1767607200, \"five\"]]}]}}\n",
                     "v.json", &o);
    assert_int_equal(e.line, 3);
    assert_string_equal(e.field, "data.result[0].values[0][1]");
    assert_string_equal(e.message, "expected a number in a string, got "
                                   "\"five\"");
}

/* ---- robustness ------------------------------------------------------- */

static void test_every_allocation_failure_is_clean(void **state)
{
    gp_import_options o = options();
    size_t len;
    char *text = fixture("dcgm-k8s.prom", &len);
    char *smi = fixture("smi-repeated-header.csv", &len);
    long n;

    (void)state;
    o.instance_type = "g6e.12xlarge";
    /* the Nth allocation fails, for N = 0, 1, ... until none does: every
     * failure says GP_ERR_NOMEM, writes nothing and leaks nothing (ASan) */
    for (n = 0;; n++) {
        gp_status st;
        gp_error err;
        char *out;
        gp_alloc_fail_only(n);
        out = run(gp_import_dcgm_buffer, text, strlen(text), "k.prom", &o, &st,
                  &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK) {
            assert_int_equal(rows(out), 4);
            free(out);
            break;
        }
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_string_equal(out, "");
        free(out);
    }
    assert_true(n > 10);
    o.instance_type = NULL;
    for (n = 0;; n++) {
        gp_status st;
        gp_error err;
        char *out;
        gp_alloc_fail_only(n);
        out = run(gp_import_nvidia_smi_buffer, smi, strlen(smi), "s.csv", &o,
                  &st, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK) {
            assert_int_equal(rows(out), 12);
            free(out);
            break;
        }
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_string_equal(out, "");
        free(out);
    }
    assert_true(n > 10);
    free(text);
    free(smi);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nvidia_smi_strips_units_from_values_and_headers),
        cmocka_unit_test(test_nvidia_smi_scales_gib_kib_and_milliwatts),
        cmocka_unit_test(
            test_nvidia_smi_skips_the_header_repeated_before_each_sample),
        cmocka_unit_test(test_nvidia_smi_real_log_of_eight_gpus),
        cmocka_unit_test(
            test_nvidia_smi_gap_when_the_logger_was_off_is_not_billed),
        cmocka_unit_test(test_nvidia_smi_host_column_and_model_pick_the_type),
        cmocka_unit_test(test_nvidia_smi_errors_say_where_and_why),
        cmocka_unit_test(
            test_model_fitting_several_types_asks_for_instance_type),
        cmocka_unit_test(test_dcgm_scrape_without_timestamps_takes_time),
        cmocka_unit_test(test_dcgm_kubernetes_labels_become_team_and_project),
        cmocka_unit_test(test_dcgm_pod_after_a_reading_without_one),
        cmocka_unit_test(test_dcgm_engine_activity_stands_in_for_missing_util),
        cmocka_unit_test(test_dcgm_long_kubernetes_labels_are_kept_whole),
        cmocka_unit_test(test_dcgm_errors_point_at_the_line_and_column),
        cmocka_unit_test(test_dcgm_mig_instances_share_their_gpu_by_slices),
        cmocka_unit_test(test_dcgm_mig_profile_errors),
        cmocka_unit_test(test_prometheus_range_with_exported_labels),
        cmocka_unit_test(test_prometheus_errors_name_the_line_and_field),
        cmocka_unit_test(test_every_allocation_failure_is_clean),
    };
    /* the telemetry importers reach GSL (gsl_sort and the median of the
     * sample gaps): as in main, a GSL error must not abort the run */
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, load_pricing, free_pricing);
}
