/*
 * test_capacity.c: unit tests of the capacity instruments: their catalog
 * keys (catalog_capacity.c) and a job run priced on a capacity block, a
 * calendar reservation or flex-start (capacity.c).
 *
 * Every expected number is worked out by hand in the comment beside it,
 * from the AWS rules (1-14 days, then 7-day steps to 182; 64 instances a
 * block; reclaimed 30 minutes before the end) and the prices given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "check.h"

#include <string.h>

#include "capacity.h"
#include "gpuplan.h"

/* A catalog header on one line, so that what follows starts on line 2. */
#define HEAD                                                                   \
    "{\"schema\": \"gpuplan-catalog/1\", \"provider\": \"aws\", \"region\": "  \
    "\"us-east-1\", \"currency\": \"USD\", \"as_of\": \"2026-11-01\",\n"

/* The published example: p5.48xlarge at $39.33 an instance-hour. */
static const gp_capacity_offer p5_block = {39.33, 1, 182, true};

static gp_error parse_fails(const char *text)
{
    gp_catalog *c = (gp_catalog *)1;
    gp_error err;

    gp_error_clear(&err);
    assert_int_equal(
        gp_catalog_parse(&c, text, strlen(text), "cat.json", "", &err),
        GP_ERR_INPUT);
    assert_null(c);
    return err;
}

static void test_catalog_reads_capacity_instruments(void **state)
{
    const char *text =
        HEAD " \"instance_types\": {\"p5.48xlarge\": {\"gpus\": 8, "
             "\"on_demand\": 55.04,\n"
             "  \"capacity_blocks\": [{\"hourly\": 39.33, \"estimate\": true}],\n"
             "  \"flex_start\": {\"hourly\": 25.87, \"expected_wait_h\": 4},\n"
             "  \"calendar\": [{\"hourly\": 26, \"min_days\": 2, "
             "\"max_days\": 30}]}}}\n";
    gp_catalog *c = NULL;
    gp_error err;

    (void)state;
    gp_error_clear(&err);
    assert_int_equal(
        gp_catalog_parse(&c, text, strlen(text), "cat.json", "", &err), GP_OK);
    const gp_instance_type *t = &c->types[0];
    /* min_days and max_days default to the whole range, 1..182 */
    assert_int_equal(t->n_blocks, 1);
    assert_close(t->blocks[0].hourly, 39.33, 1e-12);
    assert_int_equal(t->blocks[0].min_days, 1);
    assert_int_equal(t->blocks[0].max_days, 182);
    assert_true(t->blocks[0].estimate);
    /* flex-start's max_days defaults to GCP's 7 */
    assert_true(t->flex.present);
    assert_close(t->flex.max_days, 7, 1e-12);
    assert_close(t->flex.expected_wait_h, 4, 1e-12);
    assert_int_equal(t->n_calendar, 1);
    assert_int_equal(t->calendar[0].min_days, 2);
    assert_int_equal(t->calendar[0].max_days, 30);
    gp_catalog_free(c);
}

static void test_catalog_rejects_durations_not_sold(void **state)
{
    (void)state;
    /* 200 days: past the 182 a block may last; the value is on line 2 */
    gp_error err = parse_fails(
        HEAD " \"instance_types\": {\"p5.48xlarge\": {\"gpus\": 8, "
             "\"on_demand\": 55.04,\n"
             "  \"capacity_blocks\": [{\"hourly\": 39.33, \"max_days\": "
             "200}]}}}\n");
    assert_string_equal(err.field,
                        "instance_types.p5.48xlarge.capacity_blocks[0]."
                        "max_days");
    assert_int_equal(err.line, 3);
    /* 15..20 days: 15 to 20 are past 14 and none is a multiple of 7 */
    err = parse_fails(
        HEAD " \"instance_types\": {\"p5.48xlarge\": {\"gpus\": 8, "
             "\"on_demand\": 55.04,\n"
             "  \"capacity_blocks\": [{\"hourly\": 39.33, \"min_days\": 15, "
             "\"max_days\": 20}]}}}\n");
    assert_string_equal(err.message,
                        "no capacity block is sold between 15 and 20 days "
                        "(1 to 14 days, then 7-day steps up to 182)");
    /* a flex-start request runs at most 7 days */
    err = parse_fails(
        HEAD " \"instance_types\": {\"a3-highgpu-8g\": {\"gpus\": 8, "
             "\"on_demand\": 43.07,\n"
             "  \"flex_start\": {\"hourly\": 20.24, \"max_days\": 8, "
             "\"expected_wait_h\": 4}}}}\n");
    assert_string_equal(err.field,
                        "instance_types.a3-highgpu-8g.flex_start.max_days");
    assert_string_equal(err.message,
                        "a flex-start request runs at most 7 days, got 8");
    /* the wait has no default: a made-up 0 would flatter flex-start */
    err = parse_fails(
        HEAD " \"instance_types\": {\"a3-highgpu-8g\": {\"gpus\": 8, "
             "\"on_demand\": 43.07,\n"
             "  \"flex_start\": {\"hourly\": 20.24}}}}\n");
    assert_string_equal(err.field,
                        "instance_types.a3-highgpu-8g.flex_start."
                        "expected_wait_h");
    /* calendar mode: at most 90 days */
    err = parse_fails(
        HEAD " \"instance_types\": {\"a3-highgpu-8g\": {\"gpus\": 8, "
             "\"on_demand\": 43.07,\n"
             "  \"calendar\": [{\"hourly\": 20.24, \"max_days\": 91}]}}}\n");
    assert_string_equal(err.field,
                        "instance_types.a3-highgpu-8g.calendar[0].max_days");
}

static void test_block_durations_sold(void **state)
{
    (void)state;
    /* 1..14 by days, then 21, 28, ..., 182 */
    assert_true(gp_block_days_sold(1));
    assert_true(gp_block_days_sold(14));
    assert_false(gp_block_days_sold(15));
    assert_false(gp_block_days_sold(20));
    assert_true(gp_block_days_sold(21));
    assert_true(gp_block_days_sold(182));
    assert_false(gp_block_days_sold(189));
    assert_false(gp_block_days_sold(0));
}

static void test_fourteen_day_block_bills_the_unused_tail(void **state)
{
    gp_capacity_quote q;

    (void)state;
    /* 64 x p5.48xlarge for 13 days 20 hours (332 h, 21,248 instance-hours):
     * it needs 332 + 0.5 h before the reclaim, ceil(332.5 / 24) = 14 days,
     * one block of 64; cost 64 x 14 x 24 x 39.33 = 21,504 x 39.33
     * = $845,752.32, the 4 hours after the run (336 - 332) paid unused:
     * 64 x 4 = 256 instance-hours. */
    gp_quote_reservation(&p5_block, 1, false, 64, 332, 64 * 332.0, &q);
    assert_true(q.available);
    assert_int_equal(q.days, 14);
    assert_int_equal(q.units, 1);
    assert_close(q.cost, 845752.32, 1e-6);
    assert_close(q.unused_h, 4, 1e-9);
    assert_close(q.unused_ih, 256, 1e-9);
    /* the longest run a 14-day block takes: 336 - 0.5 = 335.5 h */
    gp_quote_reservation(&p5_block, 1, false, 64, 335.5, 64 * 335.5, &q);
    assert_int_equal(q.days, 14);
    assert_close(q.cost, 845752.32, 1e-6);
    /* a run of exactly 14 days (336 h) is not done when the instances go
     * at 335.5 h: it needs 15 days, not sold, so 21 */
    gp_quote_reservation(&p5_block, 1, false, 64, 336, 64 * 336.0, &q);
    assert_int_equal(q.days, 21);
}

static void test_partial_day_and_long_runs_round_up(void **state)
{
    gp_capacity_quote q;
    const gp_capacity_offer p4d = {14.75, 1, 182, true};

    (void)state;
    /* 13.5 days = 324 h: ceil(324.5 / 24) = 14 days; the same $845,752.32
     * as above, and 336 - 324 = 12 h unused, 64 x 12 = 768 instance-h */
    gp_quote_reservation(&p5_block, 1, false, 64, 324, 64 * 324.0, &q);
    assert_int_equal(q.days, 14);
    assert_close(q.cost, 845752.32, 1e-6);
    assert_close(q.unused_h, 12, 1e-9);
    assert_close(q.unused_ih, 768, 1e-9);
    /* 20 days = 480 h on 8 x p4d.24xlarge: ceil(480.5 / 24) = 21, a
     * 7-day step: 8 x 21 x 24 x 14.75 = 4,032 x 14.75 = $59,472, 24 h
     * unused */
    gp_quote_reservation(&p4d, 1, false, 8, 480, 8 * 480.0, &q);
    assert_int_equal(q.days, 21);
    assert_close(q.cost, 59472, 1e-6);
    assert_close(q.unused_h, 24, 1e-9);
    /* 70 instances (peak 69.2, rounded up) for 48 h: ceil(48.5 / 24) = 3
     * days in two blocks (64 + 6); 70 x 3 x 24 x 39.33 = 5,040 x 39.33
     * = $198,223.20 */
    gp_quote_reservation(&p5_block, 1, false, 69.2, 48, 69.2 * 48, &q);
    assert_int_equal(q.units, 2);
    assert_close(q.instances, 70, 1e-12);
    assert_int_equal(q.days, 3);
    assert_close(q.cost, 198223.20, 1e-6);
    /* 183 days: longer than any block */
    gp_quote_reservation(&p5_block, 1, false, 8, 183 * 24.0, 8 * 183 * 24.0,
                         &q);
    assert_false(q.available);
}

static void test_cheapest_offer_that_takes_the_run(void **state)
{
    /* a short-block price and a long-block price: 3 days takes the first
     * (2 x 3 x 24 x 40 = $5,760), 30 days only the second (days 28 is
     * too short for 30 x 24 + 0.5 h; 35 is the next step: 2 x 35 x 24 x
     * 30 = $50,400) */
    const gp_capacity_offer two[2] = {{40, 1, 14, false}, {30, 21, 182, true}};
    gp_capacity_quote q;

    (void)state;
    gp_quote_reservation(two, 2, false, 2, 72 - 1, 2 * 71.0, &q);
    assert_int_equal(q.days, 3);
    assert_close(q.cost, 5760, 1e-9);
    assert_false(q.estimate);
    gp_quote_reservation(two, 2, false, 2, 30 * 24.0, 2 * 30 * 24.0, &q);
    assert_int_equal(q.days, 35);
    assert_close(q.cost, 50400, 1e-9);
    assert_true(q.estimate);
}

static void test_calendar_and_flex_start(void **state)
{
    const gp_capacity_offer cal = {10, 1, 90, true};
    const gp_flex_offer flex = {true, 10, 7, 4, true};
    gp_capacity_quote q;

    (void)state;
    /* calendar: 10 instances for 30 h, no reclaim: ceil(30 / 24) = 2 days,
     * 10 x 48 x 10 = $4,800, 18 h unused */
    gp_quote_reservation(&cal, 1, true, 10, 30, 300, &q);
    assert_int_equal(q.days, 2);
    assert_close(q.cost, 4800, 1e-9);
    assert_close(q.unused_h, 18, 1e-9);
    /* 91 days: past calendar mode's 90 */
    gp_quote_reservation(&cal, 1, true, 10, 91 * 24.0, 10 * 91 * 24.0, &q);
    assert_false(q.available);
    /* flex-start: 16 instances for 200 h at $10; requests of at most
     * 7 x 24 = 168 h, so ceil(200 / 168) = 2, each waiting 4 h (8 h of
     * wait) and the second restarting (0.25 h): cost (16 x 200 + 16 x
     * 0.25) x 10 = $32,040; done 200 + 0.25 + 8 = 208.25 h after the
     * run's start */
    gp_quote_flex(&flex, 16, 200, 3200, 0.25, &q);
    assert_true(q.available);
    assert_int_equal(q.units, 2);
    assert_close(q.wait_h, 8, 1e-12);
    assert_close(q.cost, 32040, 1e-9);
    assert_close(q.finish_h, 208.25, 1e-12);
    /* a run within one request: one wait, no restart: 8 x 100 x 10 */
    gp_quote_flex(&flex, 8, 100, 800, 0.25, &q);
    assert_int_equal(q.units, 1);
    assert_close(q.cost, 8000, 1e-9);
    assert_close(q.finish_h, 104, 1e-12);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalog_reads_capacity_instruments),
        cmocka_unit_test(test_catalog_rejects_durations_not_sold),
        cmocka_unit_test(test_block_durations_sold),
        cmocka_unit_test(test_fourteen_day_block_bills_the_unused_tail),
        cmocka_unit_test(test_partial_day_and_long_runs_round_up),
        cmocka_unit_test(test_cheapest_offer_that_takes_the_run),
        cmocka_unit_test(test_calendar_and_flex_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
