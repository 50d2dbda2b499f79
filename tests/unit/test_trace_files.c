/*
 * test_trace_files.c: trace ingest across files: what one file's rows
 * leave behind must not change how the next file's are read (#40).
 *
 * Expected values are worked out by hand in the comment beside each: a
 * row contributes instances x step_s/3600 instance-hours (SPEC section 2).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpuplan.h"

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

/* Reads the texts csv[0..n) as files of one trace; NULL with err filled. */
static gp_trace *read_texts(const char *const *csv, size_t n,
                            const gp_trace_options *opt, gp_error *err)
{
    gp_trace_builder *b;
    gp_trace *t = NULL;

    gp_error_clear(err);
    if (gp_trace_builder_new(&b, pricing, opt, err) != GP_OK)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (gp_trace_builder_add_buffer(b, csv[i], strlen(csv[i]), "t.csv",
                                        err) != GP_OK) {
            gp_trace_builder_free(b);
            return NULL;
        }
    if (gp_trace_builder_finish(b, &t, err) != GP_OK)
        return NULL;
    return t;
}

/* Two files with the same text in different label columns: the first's
 * "x" is a team, the second's a project.  So two series, one of team x
 * (2 instances x 1 h = 2 instance-hours) and one of project x (3).  The
 * memo's keys name no columns, so a memo kept from the first file made
 * the second's row team x: one series of 5. */
static void test_a_label_in_another_files_other_column_is_not_memoised(
    void **state)
{
    const char *csv[] = {
        "timestamp,instance_type,instances,team\n"
        "2026-01-05T13:00:00Z,g5.xlarge,2,x\n",
        "timestamp,instance_type,instances,project\n"
        "2026-01-05T14:00:00Z,g5.xlarge,3,x\n"};
    gp_error err;
    (void)state;

    gp_trace *t = read_texts(csv, 2, NULL, &err);
    assert_non_null(t);
    assert_int_equal(t->n_series, 2);
    for (size_t s = 0; s < t->n_series; s++) {
        const gp_series *ser = &t->series[s];
        bool team = ser->team >= 0;
        assert_true(team ? ser->project < 0 : ser->project >= 0);
        assert_string_equal(t->labels[team ? ser->team : ser->project], "x");
        double sum = 0;
        for (size_t h = 0; h < t->n_hours; h++)
            sum += ser->instance_hours[h];
        assert_close(sum, team ? 2 : 3, 0);
    }
    gp_trace_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_a_label_in_another_files_other_column_is_not_memoised),
    };
    return cmocka_run_group_tests(tests, load_pricing, free_pricing);
}
