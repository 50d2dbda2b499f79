/*
 * test_safe_text.c: the characters no report may hold and the CSV cells a
 * spreadsheet would run, and run parameters shown in text, each case
 * worked by hand from the UTF-8 encoding (U+009B is C2 9B, U+FFFE is
 * EF BF BE) and OWASP's list of formula starts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four it needs */

#include <stdio.h>
#include <string.h>

#include "gpuplan.h"
#include "safe_text.h"
#include "util.h"

/* The offset gp_text_control_at finds in s, and the code point. */
static size_t control_in(const char *s, uint32_t *code)
{
    *code = 0;
    return gp_text_control_at(s, strlen(s), code);
}

static void test_controls_are_found_where_they_are(void **state)
{
    uint32_t code;
    (void)state;

    assert_int_equal(control_in("ml-core", &code), 7); /* none: the length */
    assert_int_equal(control_in("a\x1b[31m", &code), 1);
    assert_int_equal(code, 0x1b);
    assert_int_equal(control_in("bell\x07", &code), 4);
    assert_int_equal(code, 0x07);
    assert_int_equal(control_in("del\x7f", &code), 3);
    assert_int_equal(code, 0x7f);
    /* U+009B, the one-byte CSI a terminal obeys: C2 9B at byte 1 */
    assert_int_equal(control_in("j\xc2\x9b" "2J", &code), 1);
    assert_int_equal(code, 0x9b);
    /* U+FFFE and U+FFFF: EF BF BE, EF BF BF */
    assert_int_equal(control_in("x\xef\xbf\xbe", &code), 1);
    assert_int_equal(code, 0xfffe);
    assert_int_equal(control_in("xy\xef\xbf\xbf", &code), 2);
    assert_int_equal(code, 0xffff);
}

static void test_text_that_is_no_control_passes(void **state)
{
    uint32_t code;
    (void)state;

    /* tab, LF and CR are text XML keeps (a quoted CSV field may hold them) */
    assert_int_equal(control_in("a\tb\nc\rd", &code), 7);
    /* e acute (C3 A9), the euro sign (E2 82 AC), U+00A0 (C2 A0, just past
     * the C1 block) and U+FFFD (EF BF BD, just before U+FFFE): 3 + 2 + 1 +
     * 3 + 2 + 3 = 14 bytes, none a control */
    assert_int_equal(control_in("caf\xc3\xa9 \xe2\x82\xac\xc2\xa0\xef\xbf\xbd",
                                &code),
                     14);
}

static void test_formula_starts_are_the_owasp_six(void **state)
{
    (void)state;
    assert_true(gp_csv_cell_is_formula("=1+1", 4));
    assert_true(gp_csv_cell_is_formula("+cmd", 4));
    assert_true(gp_csv_cell_is_formula("-2", 2));
    assert_true(gp_csv_cell_is_formula("@SUM(A1)", 8));
    assert_true(gp_csv_cell_is_formula("\tx", 2));
    assert_true(gp_csv_cell_is_formula("\rx", 2));
    assert_false(gp_csv_cell_is_formula("ml=core", 7));
    assert_false(gp_csv_cell_is_formula("", 0));
    assert_false(gp_csv_cell_is_formula(" =1", 3));
}

static void test_escaped_text_shows_c1_by_code_point(void **state)
{
    char buf[64] = "";
    (void)state;

    gp_append_escaped(buf, sizeof buf, "j\xc2\x9b" "2\x1b", 5);
    assert_string_equal(buf, "j\\u009b2\\x1b");
}

/* A show function that names a parameter as a program's option. */
static const char *as_option(const char *name, void *ctx)
{
    static char buf[40];
    (void)ctx;
    snprintf(buf, sizeof buf, "--%s", name);
    return buf;
}

static void test_run_parameters_are_shown_by_the_reader(void **state)
{
    char buf[128];
    const char *text =
        "give " GP_PARAM_TEXT("instance-type") " or " GP_PARAM_TEXT("step");
    (void)state;

    gp_param_expand(text, as_option, NULL, buf, sizeof buf);
    assert_string_equal(buf, "give --instance-type or --step");
    gp_param_expand(text, NULL, NULL, buf, sizeof buf);
    assert_string_equal(buf, "give instance-type or step");
    /* cut at the buffer, always terminated: "give --in" is 9 bytes */
    gp_param_expand(text, as_option, NULL, buf, 10);
    assert_string_equal(buf, "give --in");
    assert_string_equal(gp_param_name(GP_PARAM_TRAIN_UNTIL), "train-until");
    assert_string_equal(gp_param_name(GP_PARAM_COUNT), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_controls_are_found_where_they_are),
        cmocka_unit_test(test_text_that_is_no_control_passes),
        cmocka_unit_test(test_formula_starts_are_the_owasp_six),
        cmocka_unit_test(test_escaped_text_shows_c1_by_code_point),
        cmocka_unit_test(test_run_parameters_are_shown_by_the_reader),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
