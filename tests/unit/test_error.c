/*
 * test_error.c: the warnings list (error.c).  A warning is said once, and
 * one that cannot be kept for want of memory is not lost without a word:
 * the list says that something was not said.
 *
 * The expected lists are worked out by hand from the list's growth (8,
 * 16, 32 slots) and the allocations each warning makes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four it needs */

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>

#include "gpuplan.h"

static const char lost[] = "a warning could not be kept (out of memory): "
                           "more were raised than are shown";

static void test_each_warning_is_kept_once(void **state)
{
    gp_warnings w = {NULL, 0, 0};
    (void)state;

    gp_warnings_add(&w, "spot above on-demand for %s", "g5.xlarge");
    gp_warnings_add(&w, "spot above on-demand for %s", "g5.xlarge");
    gp_warnings_add(&w, "stale catalog");
    assert_int_equal(w.count, 2);
    assert_string_equal(w.items[0], "spot above on-demand for g5.xlarge");
    assert_string_equal(w.items[1], "stale catalog");
    gp_warnings_truncate(&w, 1);
    assert_int_equal(w.count, 1);
    gp_warnings_clear(&w);
    assert_int_equal(w.count, 0);
    assert_null(w.items);
}

/* Twenty warnings, every allocation failed from the Nth on
 * (gp_alloc_fail_after), for every N until none fails.  The allocations,
 * in order: the 8-slot array (warning 0), copies of warnings 0-6, the
 * 16-slot array (at warning 7, a slot kept spare), copies of 7-14, the
 * 32-slot array (at warning 15), copies of 15-19: 23 in all.  So failing
 * from N keeps the warnings whose copies come before N, by hand:
 *   N = 0: none;  1-7: N - 1;  8: 7;  9-16: N - 2;  17: 15;  18-22: N - 3
 * and the list ends with the sentence, once, in the spare slot.
 * Everything is freed (LeakSanitizer checks under ASan, and a free of the
 * static sentence would be caught there too). */
static void test_a_warning_lost_to_memory_is_said(void **state)
{
    long n;
    (void)state;

    for (n = 0; n <= 23; n++) {
        gp_warnings w = {NULL, 0, 0};
        size_t kept = n == 0    ? 0
                      : n <= 7  ? (size_t)n - 1
                      : n == 8  ? 7
                      : n <= 16 ? (size_t)n - 2
                      : n == 17 ? 15
                      : n <= 22 ? (size_t)n - 3
                                : 20;
        gp_alloc_fail_after(n);
        for (int i = 0; i < 20; i++)
            gp_warnings_add(&w, "warning %d", i);
        gp_alloc_fail_after(-1);
        assert_int_equal(w.count, kept + (n < 23));
        for (size_t k = 0; k < kept; k++) {
            char want[32];
            snprintf(want, sizeof want, "warning %zu", k);
            assert_string_equal(w.items[k], want);
        }
        if (n < 23)
            assert_string_equal(w.items[kept], lost);
        gp_warnings_clear(&w);
    }
}

/* Two losses, the second with the sentence already in the list (copied
 * from another list as gp_cli_warn_now copies): said once. */
static void test_the_loss_is_said_once(void **state)
{
    gp_warnings w = {NULL, 0, 0};
    (void)state;

    gp_alloc_fail_after(0); /* from the first list's array on */
    gp_warnings_add(&w, "first");
    gp_alloc_fail_after(-1);
    assert_int_equal(w.count, 1);
    assert_string_equal(w.items[0], lost);
    gp_alloc_fail_after(1); /* from the copy of "second", after its array */
    gp_warnings_add(&w, "second");
    gp_alloc_fail_after(-1);
    assert_int_equal(w.count, 1);
    gp_warnings_add(&w, "third");
    assert_int_equal(w.count, 2);
    assert_string_equal(w.items[1], "third");

    gp_warnings copy = {NULL, 0, 0};
    for (size_t k = 0; k < w.count; k++)
        gp_warnings_add(&copy, "%s", w.items[k]);
    gp_alloc_fail_after(0);
    gp_warnings_add(&copy, "fourth");
    gp_alloc_fail_after(-1);
    assert_int_equal(copy.count, 2);
    assert_string_equal(copy.items[0], lost);
    assert_string_equal(copy.items[1], "third");
    gp_warnings_clear(&copy);
    gp_warnings_clear(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_warning_is_kept_once),
        cmocka_unit_test(test_a_warning_lost_to_memory_is_said),
        cmocka_unit_test(test_the_loss_is_said_once),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
