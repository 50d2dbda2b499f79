/*
 * test_writer_xlsx.c: the workbook writer's own promises, from C: cell
 * names and date serials worked by hand, the checks on --out made before
 * a run, atomic and reproducible writes.  What the workbook holds is
 * checked by a real reader in tests/e2e/xlsx_report.sh (openpyxl) and
 * tests/e2e/xlsx_libreoffice.sh (LibreOffice).
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <dirent.h>
#include <math.h>
#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "engine.h"
#include "forecast.h"
#include "gpuplan.h"
#include "writer_xlsx.h"
#include "report.h"
#include "writers.h"

#include "fixture.h"

static char dir[64];

/* The test catalog and a fresh folder for the workbooks. */
static int setup_dir(void **state)
{
    (void)state;
    if (fixture_load_pricing() != 0)
        return -1;
    snprintf(dir, sizeof dir, "/tmp/gp-test-xlsx-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

/* Removes the test folder and what is in it. */
static int teardown_dir(void **state)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    (void)state;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (remove(path) != 0)
            rmdir(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    gp_pricing_free(pricing);
    return 0;
}

/* How many entries the test folder holds. */
static int entries(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)) != NULL)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* Reads a whole file into a new buffer; *n gets its length. */
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long len;
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return buf;
}

/* Whether the n bytes at buf hold the string `text`. */
static bool holds(const char *buf, size_t n, const char *text)
{
    size_t len = strlen(text);
    for (size_t i = 0; i + len <= n; i++)
        if (memcmp(buf + i, text, len) == 0)
            return true;
    return false;
}

static void test_cell_names_count_columns_like_excel(void **state)
{
    char buf[16];
    (void)state;
    /* columns are A..Z, then AA (the 27th, index 26), ..., ZZ (index
     * 26 + 26 x 26 - 1 = 701), then AAA; rows count from 1 */
    gp_xl_cell(buf, 0, 0, false);
    assert_string_equal(buf, "A1");
    gp_xl_cell(buf, 4, 25, false);
    assert_string_equal(buf, "Z5");
    gp_xl_cell(buf, 0, 26, false);
    assert_string_equal(buf, "AA1");
    gp_xl_cell(buf, 9, 701, false);
    assert_string_equal(buf, "ZZ10");
    gp_xl_cell(buf, 0, 702, true);
    assert_string_equal(buf, "$AAA$1");
    gp_xl_cell(buf, 6, 1, true);
    assert_string_equal(buf, "$B$7");
}

static void test_date_serials_count_days_from_1899_12_30(void **state)
{
    (void)state;
    /* Excel's serial 25569 is 1970-01-01; 2026-05-15 00:00 UTC is epoch
     * 1778803200 s, 20588 days later: serial 46157 (Python:
     * (date(2026,5,15) - date(1899,12,30)).days); noon adds half a day */
    assert_true(gp_xl_when(0) == 25569.0);
    assert_true(gp_xl_when(1778803200.0) == 46157.0);
    assert_true(gp_xl_when(1778803200.0 + 43200) == 46157.5);
}

static void test_out_must_name_an_xlsx_file(void **state)
{
    gp_error err;
    char path[128];
    (void)state;
    gp_error_clear(&err);
    snprintf(path, sizeof path, "%s/report.pdf", dir);
    assert_int_equal(gp_xlsx_check_path(path, &err), GP_ERR_INPUT);
    assert_int_equal(err.param, GP_PARAM_OUT);
    assert_non_null(strstr(err.message, "ending in .xlsx"));
    /* ".xlsx" alone is no name */
    gp_error_clear(&err);
    assert_int_equal(gp_xlsx_check_path(".xlsx", &err), GP_ERR_INPUT);
}

static void test_out_in_a_missing_folder_is_refused_before_the_run(void **state)
{
    gp_error err;
    char path[128];
    (void)state;
    gp_error_clear(&err);
    snprintf(path, sizeof path, "%s/no-such-folder/r.xlsx", dir);
    assert_int_equal(gp_xlsx_check_path(path, &err), GP_ERR_INPUT);
    assert_string_equal(err.source, path);
    assert_string_equal(err.message, "cannot write: No such file or "
                                     "directory");
    /* a folder named like a workbook */
    snprintf(path, sizeof path, "%s/folder.xlsx", dir);
    assert_int_equal(mkdir(path, 0777), 0);
    gp_error_clear(&err);
    assert_int_equal(gp_xlsx_check_path(path, &err), GP_ERR_INPUT);
    assert_non_null(strstr(err.message, "is a folder"));
    rmdir(path);
    /* a good name: accepted, and nothing is left behind by the check */
    snprintf(path, sizeof path, "%s/ok.xlsx", dir);
    gp_error_clear(&err);
    assert_int_equal(gp_xlsx_check_path(path, &err), GP_OK);
    assert_int_equal(entries(), 0);
}

/* A two-hour simulate run: 2 g5.xlarge on demand at $1.006/h, so
 * $4.024 (2 x 2 x 1.006), billed by the engine. */
static void write_simulate(const char *path, gp_trace *t, gp_scenario *s,
                           gp_status want)
{
    gp_ledger *l = NULL;
    gp_engine_options o;
    gp_run_info info;
    gp_error err;

    gp_error_clear(&err);
    gp_engine_options_init(&o);
    o.threads = 1;
    assert_int_equal(run_strategy(t, s, 0, &o, &l, &err), GP_OK);
    assert_true(l->total_cost > 4.024 - 1e-9 && l->total_cost < 4.024 + 1e-9);
    memset(&info, 0, sizeof info);
    info.command = "simulate";
    info.pricing = pricing;
    info.scenario = s;
    info.trace = t;
    gp_ledger *ls[1] = {l};
    gp_forecast *fc = NULL;
    gp_warnings warned = {NULL, 0, 0};
    gp_report_forecast(&info, NULL, NULL, &fc, &warned);
    assert_int_equal(
        gp_xlsx_write_run(NULL, path, &info, ls, 1, NULL, NULL, fc, &err), want);
    gp_forecast_free(fc);
    gp_warnings_clear(&warned);
    gp_ledger_free(l);
}

static void test_workbook_is_written_whole_and_the_same_twice(void **state)
{
    const char *csv = "timestamp,instance_type,instances,workload\n"
                      "2026-01-05T00:00:00Z,g5.xlarge,2,inference\n"
                      "2026-01-05T01:00:00Z,g5.xlarge,2,inference\n";
    gp_trace *t = trace_of(csv);
    gp_scenario *s = NULL;
    gp_error err;
    char a[128], b[128];
    size_t na, nb;
    (void)state;

    gp_error_clear(&err);
    assert_int_equal(gp_scenario_default(&s, &err), GP_OK);
    snprintf(a, sizeof a, "%s/a.xlsx", dir);
    snprintf(b, sizeof b, "%s/b.xlsx", dir);
    write_simulate(a, t, s, GP_OK);
    write_simulate(b, t, s, GP_OK);
    /* only the two workbooks: no temporary file is left */
    assert_int_equal(entries(), 2);
    char *x = slurp(a, &na), *y = slurp(b, &nb);
    /* a zip file (an .xlsx is one), and the same bytes both times: the
     * created date is the window's end, not the clock */
    assert_true(na > 4 && memcmp(x, "PK\3\4", 4) == 0);
    assert_int_equal(na, nb);
    assert_memory_equal(x, y, na);
    free(x);
    free(y);
    remove(a);
    remove(b);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* Every allocation the workbook makes, failed in turn: the run fails with
 * "out of memory" and leaves no file, rather than writing a workbook
 * without the row, cell or chart whose allocation failed (the Inputs
 * sheet's policy rows and the daily-cost chart's buckets were left out
 * silently).  Once no allocation fails, the workbook is the same bytes as
 * one written without the test's hook. */
static void test_out_of_memory_writes_no_workbook(void **state)
{
    const char *csv = "timestamp,instance_type,instances,workload\n"
                      "2026-01-05T00:00:00Z,g5.xlarge,2,inference\n"
                      "2026-01-05T01:00:00Z,g5.xlarge,2,inference\n";
    gp_trace *t = trace_of(csv);
    gp_scenario *s = NULL;
    gp_ledger *l = NULL;
    gp_engine_options o;
    gp_run_info info;
    gp_error err;
    char path[128], whole[128];
    long n, failed = 0;
    (void)state;

    gp_error_clear(&err);
    assert_int_equal(gp_scenario_default(&s, &err), GP_OK);
    gp_engine_options_init(&o);
    o.threads = 1;
    assert_int_equal(run_strategy(t, s, 0, &o, &l, &err), GP_OK);
    memset(&info, 0, sizeof info);
    info.command = "simulate";
    info.pricing = pricing;
    info.scenario = s;
    info.trace = t;
    gp_ledger *ls[1] = {l};
    snprintf(path, sizeof path, "%s/oom.xlsx", dir);
    snprintf(whole, sizeof whole, "%s/whole.xlsx", dir);
    for (n = 0;; n++) {
        gp_error_clear(&err);
        gp_alloc_fail_only(n);
        gp_status st =
            gp_xlsx_write_run(NULL, path, &info, ls, 1, NULL, NULL, NULL, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (st == GP_OK && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (st == GP_OK)
            break;
        assert_int_equal(st, GP_ERR_NOMEM);
        assert_string_equal(err.message, "out of memory");
        assert_int_equal(entries(), 0);
        failed++;
    }
    assert_true(failed > 0);
    assert_int_equal(
        gp_xlsx_write_run(NULL, whole, &info, ls, 1, NULL, NULL, NULL, &err), GP_OK);
    size_t na, nb;
    char *a = slurp(path, &na), *b = slurp(whole, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(a, b, na);
    free(a);
    free(b);
    remove(path);
    remove(whole);
    gp_ledger_free(l);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* Three days of hourly demand, 2 g5.xlarge from 00:00 to 12:00 and 3
 * from 12:00 to 24:00 every day: the last day repeated forecasts it
 * exactly, so the next 48 hours' P50 is 2 in each day's first 12 hours
 * and 3 in the rest (the forecast starts at 00:00 of 2026-01-08).  The
 * workbook is a zip file holding the workbook part, the same bytes
 * written twice (its created date is the history's end, not the clock),
 * and nothing else is left in the folder. */
static void
test_forecast_workbook_holds_its_forecast_the_same_twice(void **state)
{
    char *csv = malloc(80 * 100);
    size_t n = 0;
    gp_forecast *fc = NULL;
    gp_scenario *s = NULL;
    gp_run_info info;
    gp_error err;
    char path[128], again[128];
    size_t nx, ny;
    (void)state;

    assert_non_null(csv);
    n += (size_t)sprintf(csv, "timestamp,instance_type,instances,workload\n");
    for (int h = 0; h < 72; h++)
        n += (size_t)sprintf(csv + n,
                             "2026-01-%02dT%02d:00:00Z,g5.xlarge,%d,"
                             "inference\n",
                             5 + h / 24, h % 24, 2 + (h % 24 >= 12));
    gp_trace *t = trace_of(csv);
    free(csv);
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_default(&s, &err), GP_OK);
    assert_int_equal(gp_forecast_run(t, s, 48, NULL, &fc, &err), GP_OK);
    assert_int_equal(fc->n_series, 1);
    for (size_t k = 0; k < 48; k++) {
        double want = k % 24 < 12 ? 2 : 3;
        assert_close(fc->series[0].points[k].p50, want, 1e-9);
    }
    memset(&info, 0, sizeof info);
    info.command = "forecast";
    info.pricing = pricing;
    info.scenario = s;
    info.trace = t;
    snprintf(path, sizeof path, "%s/forecast.xlsx", dir);
    snprintf(again, sizeof again, "%s/again.xlsx", dir);
    assert_int_equal(gp_xlsx_write_forecast(path, &info, fc, &err), GP_OK);
    assert_int_equal(entries(), 1);
    assert_int_equal(gp_xlsx_write_forecast(again, &info, fc, &err), GP_OK);
    assert_int_equal(entries(), 2);
    char *x = slurp(path, &nx), *y = slurp(again, &ny);
    assert_true(nx > 4 && memcmp(x, "PK\3\4", 4) == 0);
    /* a zip entry's name is stored as it is, uncompressed */
    assert_true(holds(x, nx, "xl/workbook.xml"));
    assert_int_equal(nx, ny);
    assert_memory_equal(x, y, nx);
    free(x);
    free(y);
    remove(path);
    remove(again);
    gp_forecast_free(fc);
    gp_scenario_free(s);
    gp_trace_free(t);
}

/* The Forecast sheet's daily table and Summary's forecast headline
 * (report.c) on the trace above: three days, 2 g5.xlarge from 00:00 to
 * 12:00 and 3 from 12:00 to 24:00, so 12 x 2 + 12 x 3 = 60 instance-hours
 * a day, forecast exactly for the next two days.  Five days: 2026-01-05
 * to 01-07 with 60 in the trace and no forecast, 01-08 and 01-09 with a
 * P50 of 60 (its P10 and P90 the hourly ones summed) and nothing in the
 * trace; 24 hours each.  The headline sums 2 x 60 = 120; its horizon ends 2026-01-10, so
 * it is past on 2026-01-10 and not on 2026-01-09, a day after the trace
 * ends (not stale: no warning). */
static void test_forecast_days_and_headline_by_hand(void **state)
{
    char csv[80 * 80];
    size_t n = 0, n_days;
    gp_forecast *fc = NULL;
    gp_forecast_day *days;
    gp_forecast_headline h;
    gp_scenario *s = NULL;
    gp_run_info info;
    gp_error err;
    (void)state;

    n += (size_t)sprintf(csv, "timestamp,instance_type,instances,workload\n");
    for (int hr = 0; hr < 72; hr++)
        n += (size_t)sprintf(csv + n,
                             "2026-01-%02dT%02d:00:00Z,g5.xlarge,%d,"
                             "inference\n",
                             5 + hr / 24, hr % 24, 2 + (hr % 24 >= 12));
    gp_trace *t = trace_of(csv);
    gp_error_clear(&err);
    assert_int_equal(gp_scenario_default(&s, &err), GP_OK);
    assert_int_equal(gp_forecast_run(t, s, 48, NULL, &fc, &err), GP_OK);
    assert_int_equal(gp_report_forecast_days(fc, t, &days, &n_days), GP_OK);
    assert_int_equal(n_days, 5);
    for (size_t i = 0; i < n_days; i++) {
        /* 2026-01-05T00:00:00Z is 1767571200 */
        assert_int_equal(days[i].start, 1767571200 + (int64_t)i * 86400);
        assert_int_equal(days[i].hours, 24);
        if (i < 3) {
            assert_close(days[i].actual, 60, 1e-9);
            assert_true(isnan(days[i].p50));
        } else {
            /* P10 and P90: the day's hourly ones summed */
            double p10 = 0, p90 = 0;
            for (size_t k = 24 * (i - 3); k < 24 * (i - 2); k++) {
                p10 += fc->series[0].points[k].p10;
                p90 += fc->series[0].points[k].p90;
            }
            assert_true(isnan(days[i].actual));
            assert_close(days[i].p10, p10, 1e-9);
            assert_close(days[i].p50, 60, 1e-9);
            assert_close(days[i].p90, p90, 1e-9);
        }
    }
    gp_free(days);
    memset(&info, 0, sizeof info);
    info.trace = t;
    info.today = 1767916800 + 86400; /* 2026-01-10T00:00:00Z */
    gp_report_forecast_headline(&info, fc, &h);
    assert_close(h.p50, 120, 1e-9);
    assert_true(h.past);
    assert_int_equal(h.stale.count, 0);
    info.today = 1767916800; /* 2026-01-09T00:00:00Z */
    gp_report_forecast_headline(&info, fc, &h);
    assert_false(h.past);
    assert_int_equal(h.stale.count, 0);
    gp_forecast_free(fc);
    gp_scenario_free(s);
    gp_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cell_names_count_columns_like_excel),
        cmocka_unit_test(test_date_serials_count_days_from_1899_12_30),
        cmocka_unit_test(test_out_must_name_an_xlsx_file),
        cmocka_unit_test(
            test_out_in_a_missing_folder_is_refused_before_the_run),
        cmocka_unit_test(test_workbook_is_written_whole_and_the_same_twice),
        cmocka_unit_test(test_out_of_memory_writes_no_workbook),
        cmocka_unit_test(
            test_forecast_workbook_holds_its_forecast_the_same_twice),
        cmocka_unit_test(test_forecast_days_and_headline_by_hand),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
