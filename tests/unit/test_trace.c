/*
 * test_trace.c: trace ingest (SPEC section 2).
 *
 * Every expected number is worked out by hand in the comment beside it,
 * from the rule "a row contributes instances x step_s/3600 instance-hours,
 * spread over the clock hours it overlaps".  Instance types come from the
 * bundled catalogs: g5.xlarge has 1 GPU, p4d.24xlarge has 8 (AWS specs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "gpuplan.h"
#include "source.h"
#include "util.h"

static gp_pricing *pricing;

static int load_pricing(void **state)
{
    gp_error err;
    char path[4096];
    const char *src = getenv("GP_SOURCE_DIR");
    (void)state;
    snprintf(path, sizeof path, "%s/pricing", src ? src : GP_SOURCE_DIR);
    gp_error_clear(&err);
    return gp_pricing_load(&pricing, path, 0, &err) == GP_OK ? 0 : -1;
}

static int free_pricing(void **state)
{
    (void)state;
    gp_pricing_free(pricing);
    return 0;
}

/* Reads `csv` with options `opt` (NULL: defaults); returns the trace or
 * NULL with err filled. */
static gp_trace *read_csv(const char *csv, const gp_trace_options *opt,
                          gp_error *err)
{
    gp_trace_builder *b;
    gp_trace *t = NULL;

    gp_error_clear(err);
    if (gp_trace_builder_new(&b, pricing, opt, err) != GP_OK)
        return NULL;
    if (gp_trace_builder_add_buffer(b, csv, strlen(csv), "t.csv", err) !=
        GP_OK) {
        gp_trace_builder_free(b);
        return NULL;
    }
    if (gp_trace_builder_finish(b, &t, err) != GP_OK)
        return NULL;
    return t;
}

/* Instance-hours of the whole trace in clock hour `hour` (epoch hours). */
static double hour_total(const gp_trace *t, int64_t hour)
{
    double sum = 0;
    if (hour < t->start_hour || hour >= t->start_hour + (int64_t)t->n_hours)
        return 0;
    for (size_t s = 0; s < t->n_series; s++)
        sum += t->series[s].instance_hours[hour - t->start_hour];
    return sum;
}

/* 2026-01-05T13:00:00Z = 20458 days x 86400 + 13 x 3600 = 1767618000 s,
 * hour number 491005. (days_from_civil(2026,1,5) = 20458.) */
#define H13 491005

static void test_row_is_spread_over_the_clock_hours_it_overlaps(void **state)
{
    gp_error err;
    /* 2 instances from 13:30 for an hour: 1.0 instance-hours at 13:00 and
     * 1.0 at 14:00 */
    gp_trace *t = read_csv("timestamp,instance_type,instances\n"
                           "2026-01-05T13:30:00Z,g5.xlarge,2\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_int_equal(t->start_hour, H13);
    assert_int_equal(t->n_hours, 2);
    assert_close(hour_total(t, H13), 1.0, 1e-12);
    assert_close(hour_total(t, H13 + 1), 1.0, 1e-12);
    assert_close(t->instance_hours[GP_UNLABELED], 2.0, 1e-12);
    gp_trace_free(t);
}

/* A series' start_s is where its earliest row starts, whatever the order
 * of the rows, as the trace's start_s is for all of them: team a has 2
 * instances from 14:15 and 1 from 13:30 (so 13:30 = H13 x 3600 + 1800);
 * team b 0 instances from 13:45 (a row of 0 counts: H13 x 3600 + 2700)
 * and 3 from 14:00; team c 0 from 13:00 (H13 x 3600).  The trace's is
 * 13:00. */
static void test_series_start_is_its_earliest_row(void **state)
{
    gp_error err;
    gp_trace *t = read_csv("timestamp,instance_type,instances,team\n"
                           "2026-01-05T14:15:00Z,g5.xlarge,2,a\n"
                           "2026-01-05T13:30:00Z,g5.xlarge,1,a\n"
                           "2026-01-05T14:00:00Z,g5.xlarge,3,b\n"
                           "2026-01-05T13:45:00Z,g5.xlarge,0,b\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,0,c\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_int_equal(t->n_series, 3);
    assert_close(t->start_s, (double)H13 * 3600, 0);
    for (size_t s = 0; s < 3; s++) {
        const char *team = t->labels[t->series[s].team];
        double want = (double)H13 * 3600 + (team[0] == 'a'   ? 1800
                                            : team[0] == 'b' ? 2700
                                                             : 0);
        assert_close(t->series[s].start_s, want, 0);
    }
    gp_trace_free(t);
}

/* The trace starts at the first hour a row covers, a row of 0 instances
 * too (gpuplan.h, gp_trace.start_hour), not at the first hour with
 * demand: rows of 0 at 11:00 and 12:00 and of 2 at 13:00 make a trace of
 * 3 hours from 11:00 (H13 - 2), whose first two hold 0 instance-hours. */
static void test_trace_starts_at_a_row_of_zero_instances(void **state)
{
    gp_error err;
    gp_trace *t = read_csv("timestamp,instance_type,instances\n"
                           "2026-01-05T11:00:00Z,g5.xlarge,0\n"
                           "2026-01-05T12:00:00Z,g5.xlarge,0\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_int_equal(t->start_hour, H13 - 2);
    assert_int_equal(t->n_hours, 3);
    assert_close(hour_total(t, H13 - 2), 0.0, 0);
    assert_close(hour_total(t, H13 - 1), 0.0, 0);
    assert_close(hour_total(t, H13), 2.0, 1e-12);
    gp_trace_free(t);
}

/* A row that ends on the hour covers no part of the next one, however late:
 * from mid-2514 (2^34 s) t1 - 1e-6 rounds back to t1 in a double, and the
 * row 2600-12-31T22:00 + 1 hour reached into the hour from 23:00, an empty
 * second hour.  One hour of 2 instances, as in 2026. */
static void test_a_row_on_the_hour_in_2600_covers_one_hour(void **state)
{
    gp_error err;
    gp_trace *t = read_csv("timestamp,instance_type,instances\n"
                           "2600-12-31T22:00:00Z,g5.xlarge,2\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_int_equal(t->n_hours, 1);
    assert_close(hour_total(t, t->start_hour), 2.0, 1e-12);
    gp_trace_free(t);
}

static void test_step_column_and_epoch_times_agree_with_iso(void **state)
{
    gp_error err;
    /* 1767618000 is 2026-01-05T13:00:00Z; 15:00+02:00 is the same instant.
     * Row 1: 4 instances x 900 s = 1.0 instance-hour in hour 13.
     * Row 2: 3 instances x 1800 s = 1.5 in hour 13.
     * Row 3: 1.5 instances x 7200 s from 13:00 = 1.5 in 13 and 1.5 in 14. */
    gp_trace *t = read_csv("timestamp,step_s,instance_type,instances\n"
                           "1767618000,900,g5.xlarge,4\n"
                           "2026-01-05T15:00:00+02:00,1800,g5.xlarge,3\n"
                           "2026-01-05 13:00:00,7200,g5.xlarge,1.5\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_close(hour_total(t, H13), 1.0 + 1.5 + 1.5, 1e-12);
    assert_close(hour_total(t, H13 + 1), 1.5, 1e-12);
    assert_int_equal(t->rows_read, 3);
    gp_trace_free(t);
}

static void test_gpus_become_whole_instances_and_useful_hours(void **state)
{
    gp_error err;
    /* 9 GPUs on p4d.24xlarge (8 per instance): ceil(9/8) = 2 instances for
     * one hour = 2 instance-hours.  Useful GPU-hours = gpus x util/100 x
     * hours = 9 x 0.5 x 1 = 4.5.  The second row has no gpu_util: its
     * 8 x 1 = 8 GPU-hours count as "without utilization". */
    gp_trace *t = read_csv("timestamp,instance_type,gpus,gpu_util,workload\n"
                           "2026-01-05T13:00:00Z,p4d.24xlarge,9,50,training\n"
                           "2026-01-05T14:00:00Z,p4d.24xlarge,8,,training\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_close(hour_total(t, H13), 2.0, 1e-12);
    assert_close(hour_total(t, H13 + 1), 1.0, 1e-12);
    assert_close(t->instance_hours[GP_TRAINING], 3.0, 1e-12);
    assert_close(t->useful_gpu_hours, 4.5, 1e-12);
    assert_close(t->gpu_hours_without_util, 8.0, 1e-12);
    assert_int_equal(t->n_series, 1);
    assert_true(t->series[0].interruptible); /* training defaults to true */
    gp_trace_free(t);
}

static void test_instances_bill_and_gpus_say_what_is_in_use(void **state)
{
    gp_error err;
    /* Row 1 gives instances (3); row 2 only gpus (17 on p4d -> 3). */
    gp_trace *t = read_csv("timestamp,instance_type,gpus,instances\n"
                           "2026-01-05T13:00:00Z,p4d.24xlarge,,3\n"
                           "2026-01-05T14:00:00Z,p4d.24xlarge,17,\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_close(hour_total(t, H13), 3.0, 1e-12);
    assert_close(hour_total(t, H13 + 1), 3.0, 1e-12);
    gp_trace_free(t);

    /* Both on one row: the instances are billed, and gpus are the GPUs in
     * use on them.  2 p4d.24xlarge (16 GPUs) with 12 in use at 50%: 2
     * instance-hours and 12 x 0.5 = 6 useful GPU-hours (it was 16 x 0.5 =
     * 8, the gpus column unread).  13 GPUs on one p4d is an error. */
    t = read_csv("timestamp,instance_type,gpus,instances,gpu_util\n"
                 "2026-01-05T13:00:00Z,p4d.24xlarge,12,2,50\n",
                 NULL, &err);
    assert_non_null(t);
    assert_close(hour_total(t, H13), 2.0, 1e-12);
    assert_close(t->useful_gpu_hours, 6.0, 1e-12);
    gp_trace_free(t);
    t = read_csv("timestamp,instance_type,gpus,instances\n"
                 "2026-01-05T13:00:00Z,p4d.24xlarge,13,1\n",
                 NULL, &err);
    assert_null(t);
    assert_string_equal(err.field, "gpus");
}

static void test_jobs_layout_spreads_start_to_end(void **state)
{
    gp_error err;
    gp_trace_options opt;
    /* 16 GPUs = 2 p4d instances from 13:00 to 15:30: 2 + 2 + 1 = 5
     * instance-hours, and one job run of 2.5 h. */
    gp_trace_options_init(&opt);
    opt.layout = GP_LAYOUT_JOBS;
    gp_trace *t = read_csv("start,end,instance_type,gpus,job_id,workload\n"
                           "2026-01-05T13:00:00Z,2026-01-05T15:30:00Z,"
                           "p4d.24xlarge,16,j1,training\n",
                           &opt, &err);
    (void)state;
    assert_non_null(t);
    assert_close(hour_total(t, H13), 2.0, 1e-12);
    assert_close(hour_total(t, H13 + 1), 2.0, 1e-12);
    assert_close(hour_total(t, H13 + 2), 1.0, 1e-12);
    assert_int_equal(t->n_runs, 1);
    assert_int_equal(t->runs[0].end - t->runs[0].start, 9000);
    assert_close(t->runs[0].instance_hours, 5.0, 1e-12);
    assert_close(t->runs[0].instances, 2.0, 1e-12);
    gp_trace_free(t);
}

static void test_consecutive_rows_of_a_job_form_one_run(void **state)
{
    gp_error err;
    /* j1 runs 13:00-15:00 in two rows (one run), pauses, and runs again at
     * 17:00 (a second run); j2 is one row.  Runs: 3. */
    gp_trace *t = read_csv("timestamp,instance_type,instances,job_id\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2,j1\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,1,j2\n"
                           "2026-01-05T14:00:00Z,g5.xlarge,4,j1\n"
                           "2026-01-05T17:00:00Z,g5.xlarge,1,j1\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_int_equal(t->n_runs, 3);
    /* the first run of j1: 2 + 4 = 6 instance-hours, peak 4, 7200 s */
    const gp_job_run *r = &t->runs[0];
    assert_string_equal(t->labels[r->job], "j1");
    assert_close(r->instance_hours, 6.0, 1e-12);
    assert_close(r->instances, 4.0, 1e-12);
    assert_int_equal(r->end - r->start, 7200);
    gp_trace_free(t);
}

static void test_quotes_crlf_bom_and_map_are_read(void **state)
{
    gp_error err;
    gp_trace_options opt;
    /* A BOM, CRLF line ends, a quoted field with a comma and an embedded
     * newline, and the user's own header names mapped with --map. */
    gp_trace_options_init(&opt);
    opt.map[0][0] = "timestamp";
    opt.map[0][1] = "Time";
    opt.map[1][0] = "instances";
    opt.map[1][1] = "Count";
    opt.n_map = 2;
    gp_trace *t = read_csv("\xEF\xBB\xBF"
                           "Time,instance_type,Count,team\r\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2,\"ml, core\"\r\n"
                           "\"2026-01-05T14:00:00Z\",\"g5.xlarge\",\"3\","
                           "\"multi\nline\"\r\n",
                           &opt, &err);
    (void)state;
    assert_non_null(t);
    assert_close(hour_total(t, H13), 2.0, 1e-12);
    assert_close(hour_total(t, H13 + 1), 3.0, 1e-12);
    assert_int_equal(t->n_series, 2);
    bool found = false;
    for (size_t i = 0; i < t->n_labels; i++)
        found |= strcmp(t->labels[i], "ml, core") == 0;
    assert_true(found);
    gp_trace_free(t);
}

/* --map pairs do not chain: team=project reads team from the column
 * "project" even though project is itself mapped to "t".  (They did
 * chain, so team read "t", and classify --out, which did not chain,
 * then failed to find the rows it had classified.) */
static void test_map_pairs_do_not_chain(void **state)
{
    gp_error err;
    gp_trace_options opt;
    gp_trace_options_init(&opt);
    opt.map[0][0] = "team";
    opt.map[0][1] = "project";
    opt.map[1][0] = "project";
    opt.map[1][1] = "t";
    opt.n_map = 2;
    gp_trace *t = read_csv("timestamp,instance_type,instances,project,t\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2,alpha,beta\n",
                           &opt, &err);
    (void)state;
    assert_non_null(t);
    assert_int_equal(t->n_series, 1);
    assert_string_equal(t->labels[t->series[0].team], "alpha");
    assert_string_equal(t->labels[t->series[0].project], "beta");
    assert_string_equal(gp_trace_mapped_column(&opt, "team"), "project");
    assert_string_equal(gp_trace_mapped_column(&opt, "job_id"), "job_id");
    gp_trace_free(t);
}

/* A column another --map names is read as that only: --map instances=gpus
 * on a file whose "gpus" column counts instances reads no GPU count, so
 * 2 p4d.24xlarge (8 GPUs each) at 50% are 2 x 8 x 0.5 = 8 useful
 * GPU-hours.  (The "gpus" column was read as both, 2 GPUs in use on 2
 * instances, 1 useful GPU-hour, silently.)  --map gpus=instances then
 * --map instances=gpus swaps the two columns. */
static void
test_a_column_mapped_to_another_name_is_read_as_that_only(void **state)
{
    gp_error err;
    gp_trace_options opt;
    gp_trace_options_init(&opt);
    opt.map[0][0] = "instances";
    opt.map[0][1] = "GPUS";
    opt.n_map = 1;
    gp_trace *t = read_csv("timestamp,instance_type,gpus,gpu_util\n"
                           "2026-01-05T13:00:00Z,p4d.24xlarge,2,50\n",
                           &opt, &err);
    (void)state;
    assert_non_null(t);
    assert_close(hour_total(t, H13), 2.0, 1e-12);
    assert_close(t->useful_gpu_hours, 8.0, 1e-12);
    assert_null(gp_trace_read_column(&opt, "gpus", NULL));
    gp_trace_free(t);

    /* swapped: 12 GPUs in use on 2 instances = 12 x 0.5 = 6 */
    opt.map[1][0] = "gpus";
    opt.map[1][1] = "instances";
    opt.n_map = 2;
    t = read_csv("timestamp,instance_type,gpus,instances,gpu_util\n"
                 "2026-01-05T13:00:00Z,p4d.24xlarge,2,12,50\n",
                 &opt, &err);
    assert_non_null(t);
    assert_close(hour_total(t, H13), 2.0, 1e-12);
    assert_close(t->useful_gpu_hours, 6.0, 1e-12);
    gp_trace_free(t);

    /* a required column taken by another map says which map took it */
    opt.map[0][0] = "start";
    opt.map[0][1] = "timestamp";
    opt.n_map = 1;
    t = read_csv("timestamp,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,p4d.24xlarge,1\n",
                 &opt, &err);
    assert_null(t);
    assert_string_equal(err.field, "timestamp");
    assert_non_null(strstr(err.message, GP_PARAM_TEXT("map") " start=timestamp"));
}

/* A bad row: the error names the file, the line, the CSV column and the
 * column name. */
static void expect_error(const char *csv, long line, long column,
                         const char *field, const char *message_start)
{
    gp_error err;
    gp_trace *t = read_csv(csv, NULL, &err);
    assert_null(t);
    assert_string_equal(err.source, "t.csv");
    assert_int_equal(err.line, line);
    assert_int_equal(err.column, column);
    assert_string_equal(err.field, field);
    if (strncmp(err.message, message_start, strlen(message_start)) != 0)
        fail_msg("message \"%s\" does not start with \"%s\"", err.message,
                 message_start);
}

static void test_bad_rows_are_reported_with_line_and_column(void **state)
{
    (void)state;
    expect_error("timestamp,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,2\n"
                 "2026-01-05T14:00:00Z,g5.xlarge,-1\n",
                 3, 3, "instances", "must not be negative");
    expect_error("timestamp,instance_type,instances\n"
                 "2026-02-30T13:00:00Z,g5.xlarge,2\n",
                 2, 1, "timestamp", "impossible date");
    expect_error("instance_type,timestamp,instances\n"
                 "g5.xlarg,2026-01-05T13:00:00Z,2\n",
                 2, 1, "instance_type",
                 "unknown instance type \"g5.xlarg\" (nearest: g5.xlarge");
    expect_error("timestamp,instance_type,instances,workload\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,2,serving\n",
                 2, 4, "workload", "unknown workload \"serving\"");
    expect_error("timestamp,instance_type,instances,gpu_util\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,2,n/a\n",
                 2, 4, "gpu_util", "expected a percent 0..100, got \"n/a\"");
    expect_error("timestamp,instance_type\n2026-01-05T13:00:00Z,g5.xlarge\n",
                 1, 0, "instances", "missing column");
    /* a quoted field across lines: the error is on the row's first line */
    expect_error("timestamp,instance_type,instances,team\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,x,\"a\nb\"\n",
                 2, 3, "instances", "expected a number of instances");
    /* a line after a multi-line row keeps its own physical line number */
    expect_error("timestamp,instance_type,instances,team\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,1,\"a\nb\"\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,1,\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,1\n",
                 5, 4, "", "row has 3 fields, the header has 4");
}

static void test_a_row_holds_at_most_1e7_instances_and_1e8_gpus(void **state)
{
    gp_error err;
    /* the bounds themselves are accepted: 1e7 instances for one hour is
     * 1e7 instance-hours; 1e8 GPUs on p4d.24xlarge (8 per instance) are
     * ceil(1e8 / 8) = 12500000 instances, 1.25e7 instance-hours */
    gp_trace *t = read_csv("timestamp,instance_type,instances,gpus\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,10000000,\n"
                           "2026-01-05T14:00:00Z,p4d.24xlarge,,100000000\n",
                           NULL, &err);
    (void)state;
    assert_non_null(t);
    assert_close(hour_total(t, H13), 1e7, 1e-6);
    assert_close(hour_total(t, H13 + 1), 1.25e7, 1e-6);
    gp_trace_free(t);
    /* one more is an error naming the bound */
    expect_error("timestamp,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,10000001\n",
                 2, 3, "instances",
                 "must be at most 10000000 instances, got \"10000001\"");
    expect_error("timestamp,instance_type,gpus\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,1e300\n",
                 2, 3, "gpus",
                 "must be at most 100000000 GPUs, got \"1e300\"");
}

static void test_shown_values_escape_control_characters(void **state)
{
    gp_error err;
    (void)state;
    /* a quoted newline must not split the message line; the name without
     * it is what the user meant, so g5.xlarge is suggested first */
    expect_error("timestamp,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,\"g5.\nxlarge\",2\n",
                 2, 2, "instance_type",
                 "unknown instance type \"g5.\\nxlarge\" (nearest: "
                 "g5.xlarge, ");
    /* a tab, a carriage return and another control byte */
    gp_trace *t = read_csv("timestamp,instance_type,instances,workload\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2,\"a\tb\rc\x01\"\n",
                           NULL, &err);
    assert_null(t);
    assert_string_equal(err.message,
                        "unknown workload \"a\\tb\\rc\\x01\" (expected "
                        "training, inference, unknown or empty)");
}

/* A CR inside a quoted field is part of it whatever the file's line ends:
 * team "ml<CR>core" is read as written in a file of LF lines and in one of
 * CR lines (where it became "ml<LF>core"), and it ends no line: the row
 * after it is line 3 in both, as its error says.  A CR outside quotes in a
 * file of LF lines is an error at its line and column: in "g5.x<CR>large"
 * it ends column 2 (instance_type) for libcsv. */
static void test_a_quoted_cr_is_part_of_the_field_in_every_file(void **state)
{
    static const char *const files[] = {
        "timestamp,instance_type,instances,team\n"
        "2026-01-05T13:00:00Z,g5.xlarge,2,\"ml\rcore\"\n",
        "timestamp,instance_type,instances,team\r"
        "2026-01-05T13:00:00Z,g5.xlarge,2,\"ml\rcore\"\r"};
    gp_error err;
    char bad[256];
    (void)state;

    for (size_t i = 0; i < 2; i++) {
        gp_trace *t = read_csv(files[i], NULL, &err);
        assert_non_null(t);
        assert_int_equal(t->n_labels, 1);
        assert_string_equal(t->labels[0], "ml\rcore");
        gp_trace_free(t);
        snprintf(bad, sizeof bad, "%s2026-01-05T14:00:00Z,g5.xlarge,-1,x%s",
                 files[i], i ? "\r" : "\n");
        expect_error(bad, 3, 3, "instances", "must not be negative");
    }
    expect_error("timestamp,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,g5.x\rlarge,2\n",
                 2, 2, "instance_type", GP_SOURCE_STRAY_CR);
}

static void test_text_fields_must_be_utf8(void **state)
{
    gp_error err;
    (void)state;
    /* "\xc3\xa9" is e-acute, well-formed: read as a team label */
    gp_trace *t = read_csv("timestamp,instance_type,instances,team\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2,\xc3\xa9quipe\n",
                           NULL, &err);
    assert_non_null(t);
    assert_int_equal(t->n_labels, 1);
    assert_string_equal(t->labels[0], "\xc3\xa9quipe");
    gp_trace_free(t);
    /* a Latin-1 e-acute (\xe9 then "q", not a continuation byte): byte 1
     * of the team is not UTF-8; column 4 */
    expect_error("timestamp,instance_type,instances,team\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,2,\xe9quipe\n",
                 2, 4, "team",
                 "not UTF-8 (byte 1 is \\xe9), got \"\\xe9quipe\"");
    /* an overlong "/" (\xc0\xaf), in job_id: both bytes escaped */
    expect_error("timestamp,instance_type,instances,job_id\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,2,a\xc0\xaf" "b\n",
                 2, 4, "job_id",
                 "not UTF-8 (byte 2 is \\xc0), got \"a\\xc0\\xafb\"");
    /* a UTF-16 surrogate (U+D800 = \xed\xa0\x80) in project */
    expect_error("timestamp,instance_type,instances,project\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,2,\xed\xa0\x80\n",
                 2, 4, "project", "not UTF-8 (byte 1 is \\xed)");
    /* past U+10FFFF (\xf4\x90\x80\x80) in region */
    expect_error("timestamp,region,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,\xf4\x90\x80\x80,g5.xlarge,2\n",
                 2, 2, "region", "not UTF-8 (byte 1 is \\xf4)");
    /* a euro sign cut after two of its three bytes, at the field's end */
    expect_error("timestamp,instance_type,instances,team\n"
                 "2026-01-05T13:00:00Z,g5.xlarge,2,x\xe2\x82\n",
                 2, 4, "team",
                 "not UTF-8 (byte 2 is \\xe2), got \"x\\xe2\\x82\"");
}

static void test_too_long_names_show_the_field_that_is_too_long(void **state)
{
    (void)state;
    /* provider at most 15 characters: "amazon-web-services" has 19 */
    expect_error("timestamp,provider,region,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,amazon-web-services,us-east-1,"
                 "g5.xlarge,2\n",
                 2, 2, "provider",
                 "too long to be a name: \"amazon-web-services\"");
}

static void test_an_error_in_the_default_step_names_the_option(void **state)
{
    gp_error err;
    gp_trace_options opt;
    (void)state;
    /* no step_s column, so the row's 1e15-second step comes from --step:
     * 1e15 / 3600 = 2.8e11 hours, past the 30 x 366 x 24 = 263520-hour
     * limit; the error has no column to point at and names the option */
    gp_trace_options_init(&opt);
    opt.default_step_s = 1e15;
    gp_trace *t = read_csv("timestamp,instance_type,instances\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2\n",
                           &opt, &err);
    assert_null(t);
    assert_int_equal(err.line, 2);
    assert_int_equal(err.column, 0);
    assert_string_equal(err.field, GP_PARAM_TEXT("step"));
    assert_string_equal(err.message, "covers 263520 hours (30 years) or more");
}

static void test_header_errors_name_the_header_line(void **state)
{
    (void)state;
    /* two blank lines, then the header on line 3 */
    expect_error("\n\ninstance_type,instances\ng5.xlarge,2\n", 3, 0,
                 "timestamp", "missing column");
}

static void test_a_trace_without_data_rows_is_an_error(void **state)
{
    gp_error err;
    (void)state;
    gp_trace *t = read_csv("timestamp,instance_type,instances\n", NULL, &err);
    assert_null(t);
    assert_string_equal(err.source, "t.csv");
    assert_int_equal(err.line, 0);
    assert_string_equal(err.message, "no data rows");
}

static void count_reject(void *ctx, const gp_error *why, const char *row,
                         size_t len)
{
    (void)why;
    (void)row;
    (void)len;
    (*(int *)ctx)++;
}

static void test_a_trace_whose_rows_are_all_rejected_is_an_error(
    void **state)
{
    gp_error err;
    gp_trace_options opt;
    int rejected = 0;
    (void)state;
    gp_trace_options_init(&opt);
    opt.reject = count_reject;
    opt.reject_ctx = &rejected;
    gp_trace *t = read_csv("timestamp,instance_type,instances\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,-2\n"
                           "2026-01-05T14:00:00Z,g5.xlarg,2\n",
                           &opt, &err);
    assert_null(t);
    assert_int_equal(rejected, 2);
    assert_string_equal(err.source, "t.csv");
    assert_string_equal(err.message,
                        "no data rows left after rejecting 2 bad rows");
}

/* The reader keeps the previous row's time and step as written, and what
 * they read as, for the rows of one sampling time: only values that were
 * good, so a bad one repeated is rejected each time.  Rows 1 and 4 are
 * good (300 s of 2 instances each: 2 x 300 / 3600 = 1/6 instance-hour);
 * row 2's step of 0 and row 3's, the same text, are both rejected, as are
 * rows 5 and 6's timestamp of hour 24, which does not exist. */
static void test_a_bad_time_or_step_repeated_is_rejected_each_time(void **state)
{
    gp_error err;
    gp_trace_options opt;
    int rejected = 0;
    (void)state;
    gp_trace_options_init(&opt);
    opt.reject = count_reject;
    opt.reject_ctx = &rejected;
    gp_trace *t = read_csv("timestamp,step_s,instance_type,instances\n"
                           "2026-01-05T13:00:00Z,300,g5.xlarge,2\n"
                           "2026-01-05T13:00:00Z,0,g5.xlarge,2\n"
                           "2026-01-05T13:00:00Z,0,g5.xlarge,2\n"
                           "2026-01-05T13:00:00Z,300,g5.xlarge,2\n"
                           "2026-01-05T24:00:00Z,300,g5.xlarge,2\n"
                           "2026-01-05T24:00:00Z,300,g5.xlarge,2\n",
                           &opt, &err);
    assert_non_null(t);
    assert_int_equal(rejected, 4);
    assert_int_equal(t->rows_read, 6);
    assert_close(t->instance_hours[GP_UNLABELED], 2.0 / 6, 1e-12);
    gp_trace_free(t);
}

/*
 * A row with quotes goes through libcsv, whose buffer grows as a long
 * quoted field is read.  When that growth failed, the row was taken for
 * "malformed quoting" and, with --skip-bad, rejected: a good row dropped
 * from the run for want of memory.  Every allocation from the Nth on fails
 * (so libcsv's retry with a smaller block fails too): the read says out of
 * memory, or reads the row; it never rejects it.
 */
static void test_a_quoted_row_is_not_rejected_for_want_of_memory(void **state)
{
    char csv[1024];
    char team[400];
    (void)state;
    memset(team, 'a', sizeof team - 1);
    team[sizeof team - 1] = '\0';
    snprintf(csv, sizeof csv,
             "timestamp,instance_type,instances,team\n"
             "2026-01-05T13:00:00Z,g5.xlarge,2,\"%s\"\n",
             team);
    long n, nomem = 0;
    for (n = 0; n < 100000; n++) {
        gp_error err;
        gp_trace_options opt;
        int rejected = 0;
        gp_trace_options_init(&opt);
        opt.reject = count_reject;
        opt.reject_ctx = &rejected;
        gp_alloc_fail_after(n);
        gp_trace *t = read_csv(csv, &opt, &err);
        gp_alloc_fail_after(-1);
        assert_int_equal(rejected, 0);
        if (t) {
            assert_close(t->instance_hours[GP_UNLABELED], 2.0, 1e-12);
            gp_trace_free(t);
            break;
        }
        assert_string_equal(err.message, "out of memory");
        nomem++;
    }
    assert_true(nomem > 0);
}

static void test_a_span_across_series_names_the_first_and_last_time(
    void **state)
{
    gp_error err;
    (void)state;
    /* each pool alone spans one hour; together 1990-01-05T13:00 to
     * 2026-01-05T14:00 (the end of the 2026 row's hour), 36 years */
    gp_trace *t = read_csv("timestamp,instance_type,instances\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2\n"
                           "1990-01-05T13:00:00Z,g5.12xlarge,2\n",
                           NULL, &err);
    assert_null(t);
    assert_string_equal(err.source, "t.csv");
    assert_int_equal(err.line, 0);
    assert_string_equal(err.message,
                        "the trace spans 1990-01-05T13:00:00Z to "
                        "2026-01-05T14:00:00Z, more than 30 years; is a "
                        "timestamp wrong?");
}

static void test_unknown_type_without_catalogs_says_none_is_loaded(
    void **state)
{
    gp_error err;
    gp_pricing none;
    gp_trace_builder *b;
    const char *csv = "timestamp,instance_type,instances\n"
                      "2026-01-05T13:00:00Z,g5.xlarge,2\n";
    (void)state;
    memset(&none, 0, sizeof none);
    gp_error_clear(&err);
    assert_int_equal(gp_trace_builder_new(&b, &none, NULL, &err), GP_OK);
    assert_int_equal(gp_trace_builder_add_buffer(b, csv, strlen(csv),
                                                 "t.csv", &err),
                     GP_ERR_INPUT);
    gp_trace_builder_free(b);
    assert_string_equal(err.message,
                        "unknown instance type \"g5.xlarge\" (no catalog "
                        "loaded)");
}

static void test_unknown_type_far_from_every_name_says_so(void **state)
{
    (void)state;
    expect_error("timestamp,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,tpu-v5e-8,2\n",
                 2, 2, "instance_type",
                 "unknown instance type \"tpu-v5e-8\" (no similar name in "
                 "the loaded catalogs)");
}

static void test_type_priced_elsewhere_says_where(void **state)
{
    gp_error err;
    gp_trace_options opt;
    (void)state;
    gp_trace_options_init(&opt);
    opt.region = "eu-west-1";
    /* the bundled catalogs price g5.xlarge only in aws us-east-1 */
    gp_trace *t = read_csv("timestamp,instance_type,instances\n"
                           "2026-01-05T13:00:00Z,g5.xlarge,2\n",
                           &opt, &err);
    assert_null(t);
    assert_string_equal(err.message,
                        "\"g5.xlarge\" is not priced in region \"eu-west-1\" "
                        "(the loaded catalogs have it for aws us-east-1)");
}

static void test_job_that_ends_at_its_start_is_an_error(void **state)
{
    gp_error err;
    gp_trace_options opt;
    (void)state;
    gp_trace_options_init(&opt);
    opt.layout = GP_LAYOUT_JOBS;
    gp_trace *t = read_csv("start,end,instance_type,instances\n"
                           "2026-01-05T13:00:00Z,2026-01-05T13:00:00Z,"
                           "g5.xlarge,2\n",
                           &opt, &err);
    assert_null(t);
    assert_int_equal(err.line, 2);
    assert_string_equal(err.field, "end");
    assert_string_equal(err.message,
                        "must be after start \"2026-01-05T13:00:00Z\", got "
                        "\"2026-01-05T13:00:00Z\"");
}

/* The bundled sample, against statistics computed independently from the
 * same rows by scenarios/sample/summarize.py (exact decimal arithmetic). */
static void test_bundled_sample_matches_independent_summary(void **state)
{
    gp_error err;
    char path[4096];
    const char *src = getenv("GP_SOURCE_DIR");
    gp_trace_builder *b;
    gp_trace *t;
    double want_train, want_inf, want_useful;
    (void)state;

    snprintf(path, sizeof path, "%s/scenarios/sample/summary.json",
             src ? src : GP_SOURCE_DIR);
    json_error_t jerr;
    json_t *summary = json_load_file(path, 0, &jerr);
    assert_non_null(summary);
    assert_int_equal(json_unpack(summary, "{s:F, s:F, s:F}",
                                 "training_instance_hours", &want_train,
                                 "inference_instance_hours", &want_inf,
                                 "useful_gpu_hours_inference", &want_useful),
                     0);
    json_decref(summary);

    snprintf(path, sizeof path, "%s/scenarios/sample/trace.csv",
             src ? src : GP_SOURCE_DIR);
    gp_error_clear(&err);
    assert_int_equal(gp_trace_builder_new(&b, pricing, NULL, &err), GP_OK);
    assert_int_equal(gp_trace_builder_add_file(b, path, &err), GP_OK);
    assert_int_equal(gp_trace_builder_finish(b, &t, &err), GP_OK);
    assert_close(t->instance_hours[GP_TRAINING], want_train, 1e-6);
    assert_close(t->instance_hours[GP_INFERENCE], want_inf, 1e-6);
    assert_close(t->useful_gpu_hours, want_useful, 1e-6);
    /* summary.json's "rows" (trace.csv is 4033 lines with the header);
     * its rows run from 2026-05-01T00:00 to the 10-minute row at
     * 2026-05-14T23:50, 14 days of 24 hours; and two pools, aws us-east-1
     * p4d.24xlarge (training) and g6e.xlarge (inference) */
    assert_int_equal(t->rows_read, 4032);
    assert_int_equal(t->n_hours, 14 * 24);
    assert_int_equal(t->n_pools, 2);
    gp_trace_free(t);
}

/* Builds a trace text of about `bytes` bytes whose rows are known: row i
 * has hour i / 40 from the start of 2026, instances (i % 7) + 1, and every
 * 1000th row carries a quoted team with an embedded newline. */
static char *big_trace(size_t bytes, double *total)
{
    size_t cap = bytes + 4096, n = 0;
    char *s = malloc(cap);
    *total = 0;
    n += (size_t)snprintf(s, cap, "timestamp,instance_type,instances,team\n");
    for (size_t i = 0; n + 200 < bytes; i++) {
        long t = 1767225600L + (long)(i / 40) * 3600;
        int inst = (int)(i % 7) + 1;
        *total += inst;
        if (i % 1000 == 999)
            n += (size_t)snprintf(s + n, cap - n,
                                  "%ld,g5.xlarge,%d,\"team\n%zu\"\n", t, inst,
                                  i % 3);
        else
            n += (size_t)snprintf(s + n, cap - n, "%ld,g5.xlarge,%d,t%zu\n", t,
                                  inst, i % 3);
    }
    return s;
}

static void test_threads_give_the_same_trace_as_one_thread(void **state)
{
    gp_error err;
    gp_trace_options one, many;
    double total;
    char *csv = big_trace(24u << 20, &total);
    (void)state;

    gp_trace_options_init(&one);
    one.threads = 1;
    gp_trace_options_init(&many);
    many.threads = 4;
    gp_trace *a = read_csv(csv, &one, &err);
    gp_trace *b = read_csv(csv, &many, &err);
    assert_non_null(a);
    assert_non_null(b);
    assert_close(a->instance_hours[GP_UNLABELED], total, 1e-6);
    assert_close(b->instance_hours[GP_UNLABELED], total, 1e-6);
    assert_int_equal(a->rows_read, b->rows_read);
    assert_int_equal(a->n_series, b->n_series);
    assert_int_equal(a->n_hours, b->n_hours);
    for (size_t s = 0; s < a->n_series; s++) {
        for (size_t h = 0; h < a->n_hours; h++)
            assert_close(a->series[s].instance_hours[h],
                         b->series[s].instance_hours[h], 1e-9);
        /* the threads' later starts do not replace a series' first: teams
         * t0..t2 have rows 0..2, in the first hour (1767225600); the quoted
         * "team\n0".."team\n2" rows 999, 1999, 2999, hours 24, 49, 74 */
        const char *team = a->labels[a->series[s].team];
        double want = 1767225600;
        if (strchr(team, '\n'))
            want += (double)((999 + 1000 * (size_t)atoi(team + 5)) / 40) * 3600;
        assert_close(a->series[s].start_s, want, 0);
        assert_close(b->series[s].start_s, want, 0);
    }
    gp_trace_free(a);
    gp_trace_free(b);
    free(csv);
}

static void test_threads_report_the_first_bad_row_by_line(void **state)
{
    gp_error err;
    gp_trace_options many;
    double total;
    char *csv = big_trace(24u << 20, &total);
    (void)state;
    /* break a row in the last quarter: find the 300000th line */
    char *p = csv;
    long line = 1;
    while (line < 300000) {
        p = strchr(p, '\n') + 1;
        line++;
    }
    /* line counting above counts physical lines, as the reader does */
    char *comma = strchr(p, ',');
    comma[1] = 'X'; /* g5.xlarge -> X5.xlarge */
    gp_trace_options_init(&many);
    many.threads = 4;
    gp_trace *t = read_csv(csv, &many, &err);
    assert_null(t);
    assert_int_equal(err.line, 300000);
    assert_string_equal(err.field, "instance_type");
    free(csv);
}

/* Where the trace ends is located like an error: the row that ends last
 * (the future-trace warning names it), by its file, line, CSV column and
 * field.  Rows: line 3's 02:00 row with step_s 7200 ends at 04:00, after
 * line 4's 03:00 row of an hour (also 04:00: the first row found keeps
 * it) and line 2's; the timestamp is the second column, named by --map
 * "ts".  Jobs: line 2's end, 2026-01-06, is the latest (column 2,
 * "end").  A trace built in memory has no such row (line 0). */
static void test_the_row_that_ends_last_is_located(void **state)
{
    gp_error err;
    gp_trace_options opt;
    (void)state;

    gp_trace_options_init(&opt);
    opt.map[0][0] = "timestamp";
    opt.map[0][1] = "ts";
    opt.n_map = 1;
    gp_trace *t = read_csv("instance_type,ts,instances,step_s\n"
                           "g5.xlarge,2026-01-05T00:00:00Z,1,3600\n"
                           "g5.xlarge,2026-01-05T02:00:00Z,1,7200\n"
                           "g5.xlarge,2026-01-05T03:00:00Z,1,3600\n"
                           "g5.xlarge,2026-01-05T01:00:00Z,1,3600\n",
                           &opt, &err);
    assert_non_null(t);
    /* date -u -d 2026-01-05T04:00:00Z +%s */
    assert_close(t->end_s, 1767585600, 0);
    assert_string_equal(t->end_row.source, "t.csv");
    assert_int_equal(t->end_row.line, 3);
    assert_int_equal(t->end_row.column, 2);
    assert_string_equal(t->end_row.field, "ts");
    gp_trace_free(t);

    gp_trace_options_init(&opt);
    opt.layout = GP_LAYOUT_JOBS;
    t = read_csv("start,end,instance_type,instances\n"
                 "2026-01-05T13:00:00Z,2026-01-06T00:00:00Z,g5.xlarge,2\n"
                 "2026-01-05T12:00:00Z,2026-01-05T14:00:00Z,g5.xlarge,1\n",
                 &opt, &err);
    assert_non_null(t);
    assert_int_equal(t->end_row.line, 2);
    assert_int_equal(t->end_row.column, 2);
    assert_string_equal(t->end_row.field, "end");
    gp_trace_free(t);
}

/* The same with the rows read by 4 threads: the latest row, moved years
 * past the others on the first row starting at or after line 300000 (in
 * the last quarter of big_trace's 24 MB; a quoted team's second line
 * starts no row), is found by its line in the file, not in its thread's
 * range. */
static void test_threads_locate_the_row_that_ends_last_by_line(void **state)
{
    gp_error err;
    gp_trace_options one, many;
    double total;
    char *csv = big_trace(24u << 20, &total);
    (void)state;
    char *p = csv;
    long line = 1;
    while (line < 300000 || strncmp(p, "17", 2) != 0) {
        p = strchr(p, '\n') + 1;
        line++;
    }
    /* its epoch timestamp 17xxxxxxxx becomes 18xxxxxxxx, 1e8 s (3.2
     * years) on, past the last row's (big_trace: an hour per 40 rows,
     * under 900,000 rows: under 2.6 years after the first's) */
    p[1] = '8';
    gp_trace_options_init(&one);
    one.threads = 1;
    gp_trace_options_init(&many);
    many.threads = 4;
    for (int k = 0; k < 2; k++) {
        gp_trace *t = read_csv(csv, k ? &many : &one, &err);
        assert_non_null(t);
        assert_int_equal(t->end_row.line, line);
        assert_int_equal(t->end_row.column, 1);
        assert_string_equal(t->end_row.field, "timestamp");
        gp_trace_free(t);
    }
    free(csv);
}

/* Reads the file at path with `threads` threads; NULL with err set on
 * failure. */
static gp_trace *read_file(const char *path, int threads, gp_error *err)
{
    gp_trace_options opt;
    gp_trace_builder *b;
    gp_trace *t = NULL;

    gp_trace_options_init(&opt);
    opt.threads = threads;
    gp_error_clear(err);
    if (gp_trace_builder_new(&b, pricing, &opt, err) != GP_OK)
        return NULL;
    if (gp_trace_builder_add_file(b, path, err) != GP_OK) {
        gp_trace_builder_free(b);
        return NULL;
    }
    if (gp_trace_builder_finish(b, &t, err) != GP_OK)
        return NULL;
    return t;
}

/* A file is mapped into memory and read whole, as a text in memory is:
 * the same ranges, so the same sums to the last bit, with 1 thread or 4.
 * A NUL byte in a team's name in the file's last quarter (one range among
 * six) is found, by its line, though the ranges before have none. */
static void test_a_mapped_file_reads_as_its_text(void **state)
{
    gp_error err;
    gp_trace_options one;
    double total;
    char *csv = big_trace(24u << 20, &total);
    char path[] = "/tmp/gpuplan-test-mapped-XXXXXX";
    int fd = mkstemp(path);
    size_t len = strlen(csv);
    (void)state;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, csv, len), (ssize_t)len);
    gp_trace_options_init(&one);
    one.threads = 1;
    gp_trace *a = read_csv(csv, &one, &err);
    assert_non_null(a);
    for (int threads = 1; threads <= 4; threads += 3) {
        gp_trace *b = read_file(path, threads, &err);
        assert_non_null(b);
        assert_int_equal(a->rows_read, b->rows_read);
        assert_int_equal(a->n_series, b->n_series);
        assert_int_equal(a->n_hours, b->n_hours);
        for (size_t s = 0; s < a->n_series; s++)
            assert_memory_equal(a->series[s].instance_hours,
                                b->series[s].instance_hours,
                                a->n_hours * sizeof(double));
        gp_trace_free(b);
    }
    /* the team of the first plain row at or after line 300000 */
    char *p = csv;
    long line = 1;
    while (line < 300000 || strncmp(p, "17", 2) != 0) {
        p = strchr(p, '\n') + 1;
        line++;
    }
    char *team = strchr(strchr(strchr(p, ',') + 1, ',') + 1, ',') + 1;
    assert_int_equal(pwrite(fd, "\0", 1, team - csv), 1);
    gp_trace *c = read_file(path, 4, &err);
    assert_null(c);
    assert_int_equal(err.line, line);
    assert_string_equal(err.field, "team");
    assert_non_null(strstr(err.message, "a NUL byte"));
    close(fd);
    unlink(path);
    gp_trace_free(a);
    free(csv);
}

/* The ingest keeps what a row's names resolved to and reuses it for the
 * next row with the same names, byte for byte (trace_shard.c's memo).
 * 1,500 jobs, about what it holds (some are pushed out, and read again
 * without it), one row each in each of two hours: job
 * j has instances j % 5 + 1, and team/project "ab"/"c" in the first hour,
 * "a"/"bc" in the second (the same bytes run together: the names must be
 * told apart by their lengths).  By hand: two series, and each job a run
 * in each, of j % 5 + 1 instance-hours; the first series holds hour 0
 * only, 300 x (1 + 2 + 3 + 4 + 5) = 4,500 instance-hours, the second
 * hour 1 only, as much. */
static void
test_rows_share_what_their_names_resolved_to_and_only_they(void **state)
{
    gp_error err;
    size_t cap = 3000 * 64 + 64, n = 0;
    char *csv = malloc(cap);
    (void)state;

    n += (size_t)snprintf(csv, cap,
                          "timestamp,step_s,instance_type,instances,team,"
                          "project,job_id\n");
    for (int i = 0; i < 3000; i++) {
        int j = i % 1500, h = i / 1500;
        n += (size_t)snprintf(csv + n, cap - n,
                              "%ld,3600,g5.xlarge,%d,%s,%s,j%d\n",
                              1767225600L + h * 3600L, j % 5 + 1,
                              h ? "a" : "ab", h ? "bc" : "c", j);
    }
    gp_trace *t = read_csv(csv, NULL, &err);
    assert_non_null(t);
    assert_int_equal(t->n_series, 2);
    assert_int_equal(t->n_runs, 3000);
    for (size_t r = 0; r < t->n_runs; r++) {
        const gp_job_run *run = &t->runs[r];
        int j = atoi(t->labels[run->job] + 1);
        int h = (int)(run->start - 1767225600) / 3600;
        assert_close(run->instance_hours, j % 5 + 1, 0);
        const gp_series *ser = &t->series[run->series];
        assert_string_equal(t->labels[ser->team], h ? "a" : "ab");
        assert_string_equal(t->labels[ser->project], h ? "bc" : "c");
    }
    for (size_t s = 0; s < t->n_series; s++) {
        bool first = strcmp(t->labels[t->series[s].team], "ab") == 0;
        assert_close(t->series[s].instance_hours[0], first ? 4500 : 0, 0);
        assert_close(t->series[s].instance_hours[1], first ? 0 : 4500, 0);
    }
    gp_trace_free(t);
    free(csv);
}

static void test_allocation_failures_are_reported_and_leak_nothing(
    void **state)
{
    (void)state;
    for (long n = 0;; n++) {
        gp_error err;
        gp_alloc_fail_only(n);
        gp_trace *t = read_csv("timestamp,instance_type,instances,job_id\n"
                               "2026-01-05T13:30:00Z,g5.xlarge,2,j\n"
                               "2026-01-05T13:30:00Z,p4d.24xlarge,2,k\n",
                               NULL, &err);
        long refused = gp_alloc_refused();
        gp_alloc_fail_after(-1);
        if (t && refused)
            fail_msg("allocation %ld refused, yet it went on", n);
        if (t) {
            /* two rows of 2 instances for the default step of an hour:
             * 2 + 2 = 4 instance-hours */
            assert_close(t->instance_hours[GP_UNLABELED], 4.0, 1e-12);
            gp_trace_free(t);
            assert_true(n > 5);
            break;
        }
        assert_string_equal(err.message, "out of memory");
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_is_spread_over_the_clock_hours_it_overlaps),
        cmocka_unit_test(test_step_column_and_epoch_times_agree_with_iso),
        cmocka_unit_test(test_gpus_become_whole_instances_and_useful_hours),
        cmocka_unit_test(test_instances_bill_and_gpus_say_what_is_in_use),
        cmocka_unit_test(test_a_row_holds_at_most_1e7_instances_and_1e8_gpus),
        cmocka_unit_test(test_a_quoted_cr_is_part_of_the_field_in_every_file),
        cmocka_unit_test(test_jobs_layout_spreads_start_to_end),
        cmocka_unit_test(test_consecutive_rows_of_a_job_form_one_run),
        cmocka_unit_test(test_quotes_crlf_bom_and_map_are_read),
        cmocka_unit_test(test_map_pairs_do_not_chain),
        cmocka_unit_test(
            test_a_column_mapped_to_another_name_is_read_as_that_only),
        cmocka_unit_test(test_bad_rows_are_reported_with_line_and_column),
        cmocka_unit_test(test_shown_values_escape_control_characters),
        cmocka_unit_test(test_text_fields_must_be_utf8),
        cmocka_unit_test(test_too_long_names_show_the_field_that_is_too_long),
        cmocka_unit_test(test_an_error_in_the_default_step_names_the_option),
        cmocka_unit_test(test_header_errors_name_the_header_line),
        cmocka_unit_test(test_a_trace_without_data_rows_is_an_error),
        cmocka_unit_test(test_a_trace_whose_rows_are_all_rejected_is_an_error),
        cmocka_unit_test(
            test_a_bad_time_or_step_repeated_is_rejected_each_time),
        cmocka_unit_test(test_a_quoted_row_is_not_rejected_for_want_of_memory),
        cmocka_unit_test(
            test_a_span_across_series_names_the_first_and_last_time),
        cmocka_unit_test(
            test_unknown_type_without_catalogs_says_none_is_loaded),
        cmocka_unit_test(test_unknown_type_far_from_every_name_says_so),
        cmocka_unit_test(test_type_priced_elsewhere_says_where),
        cmocka_unit_test(test_job_that_ends_at_its_start_is_an_error),
        cmocka_unit_test(test_bundled_sample_matches_independent_summary),
        cmocka_unit_test(test_threads_give_the_same_trace_as_one_thread),
        cmocka_unit_test(test_series_start_is_its_earliest_row),
        cmocka_unit_test(test_trace_starts_at_a_row_of_zero_instances),
        cmocka_unit_test(test_a_row_on_the_hour_in_2600_covers_one_hour),
        cmocka_unit_test(test_threads_report_the_first_bad_row_by_line),
        cmocka_unit_test(test_the_row_that_ends_last_is_located),
        cmocka_unit_test(test_threads_locate_the_row_that_ends_last_by_line),
        cmocka_unit_test(test_a_mapped_file_reads_as_its_text),
        cmocka_unit_test(
            test_rows_share_what_their_names_resolved_to_and_only_they),
        cmocka_unit_test(
            test_allocation_failures_are_reported_and_leak_nothing),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, load_pricing, free_pricing);
}
