/*
 * test_writer_csv.c: the CSV writer's own promises, from C: money as
 * people read it, for any double, and --csv DIR written all or nothing.
 * Every expected string is written out by hand beside its case.
 */
/* cmocka needs these first, in this order */
// clang-format off
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
// clang-format on

#include <gsl/gsl_errno.h>
#include <math.h>
#include <string.h>

#include "writers.h"

/* Formats v into a 32-byte buffer, as the commands' tables do. */
static const char *money(double v)
{
    static char buf[32];
    gp_format_money(v, buf, sizeof buf);
    return buf;
}

static void test_money_has_thousands_separators_and_cents(void **state)
{
    (void)state;
    assert_string_equal(money(0), "$0.00");
    assert_string_equal(money(1234.5), "$1,234.50");
    assert_string_equal(money(-0.5), "-$0.50");
    assert_string_equal(money(999.999), "$1,000.00"); /* a digit longer */
    assert_string_equal(money(123456789.126), "$123,456,789.13");
    /* the largest amount written in full: 15 nines and cents */
    assert_string_equal(money(999999999999999.0),
                        "$999,999,999,999,999.00");
}

static void test_money_past_a_quadrillion_takes_exponent_form(void **state)
{
    (void)state;
    /* 1e15 and up: cents are no longer exact, so three decimals of
     * mantissa; 1e61 and 1e300 crashed the all-digits form */
    assert_string_equal(money(1e15), "$1.000e+15");
    assert_string_equal(money(1.5e61), "$1.500e+61");
    assert_string_equal(money(-1e300), "-$1.000e+300");
    assert_string_equal(money(HUGE_VAL), "$inf");
    assert_string_equal(money(-HUGE_VAL), "-$inf");
    assert_string_equal(money(NAN), "n/a");
}

static void test_money_fits_any_buffer(void **state)
{
    char buf[8];
    (void)state;
    /* cut to the buffer, always terminated: "$1,234,567.00" in 8 bytes
     * keeps at most 7 characters, and begins as the whole would */
    memset(buf, 'x', sizeof buf);
    gp_format_money(1234567, buf, sizeof buf);
    assert_true(memchr(buf, '\0', sizeof buf) != NULL);
    assert_int_equal(strncmp(buf, "$1,234", 6), 0);
    gp_format_money(1e300, buf, sizeof buf);
    assert_string_equal(buf, "$1.000e");
    /* size 0 writes nothing at all */
    buf[0] = 'x';
    gp_format_money(1, buf, 0);
    assert_int_equal(buf[0], 'x');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_money_has_thousands_separators_and_cents),
        cmocka_unit_test(test_money_past_a_quadrillion_takes_exponent_form),
        cmocka_unit_test(test_money_fits_any_buffer),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
