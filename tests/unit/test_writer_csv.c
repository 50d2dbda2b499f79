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

#include <dirent.h>
#include <gsl/gsl_errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"
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
    /* what rounds to zero has no sign: -1.5e-8 was "-$0.00" */
    assert_string_equal(money(-1.5e-8), "$0.00");
    assert_string_equal(money(-0.004), "$0.00");
    assert_string_equal(money(-0.005), "-$0.01");
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

static void test_money_in_another_currency_names_its_code(void **state)
{
    char buf[8];
    (void)state;
    /* "$" is for USD only: a catalog in EUR prices in euros, written
     * with the code and a space before the amount, "-" before both */
    gp_money_set_currency("EUR");
    assert_string_equal(gp_money_currency(), "EUR");
    assert_string_equal(gp_money_unit(), "EUR");
    assert_string_equal(gp_money_per_hour(), "EUR/h");
    assert_string_equal(money(1234.5), "EUR 1,234.50");
    assert_string_equal(money(-0.5), "-EUR 0.50");
    assert_string_equal(money(1e15), "EUR 1.000e+15");
    assert_string_equal(money(NAN), "n/a");
    /* cut to the buffer as in USD: "EUR 1,2" and the terminator */
    gp_format_money(1234567, buf, sizeof buf);
    assert_string_equal(buf, "EUR 1,2");
    /* NULL sets USD back, as every other test expects */
    gp_money_set_currency(NULL);
    assert_string_equal(money(1234.5), "$1,234.50");
    assert_string_equal(gp_money_per_hour(), "$/h");
}

/* ---- gp_file_set: --csv DIR all or nothing ------------------------------ */

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/gp-test-csv-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* What the test tables hold (not string literals: the callback takes
 * void *). */
static char text_a[] = "a\n", text_b[] = "b\n", text_c[] = "c\n";

/* Writes the line in ctx; a NULL ctx fails, as a full disk would. */
static gp_status write_line(FILE *f, void *ctx)
{
    if (!ctx)
        return GP_ERR_IO;
    fputs(ctx, f);
    return GP_OK;
}

/* Entries of folder d, not counting "." and "..". */
static int entries(const char *d)
{
    DIR *h = opendir(d);
    struct dirent *e;
    int n = 0;
    if (!h)
        return -1;
    while ((e = readdir(h)))
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(h);
    return n;
}

static void test_file_set_renames_every_file_on_commit(void **state)
{
    gp_file_set set = {0};
    gp_error err;
    char sub[128], a[160], b[160], line[16] = "";
    (void)state;

    gp_error_clear(&err);
    snprintf(sub, sizeof sub, "%s/ok", dir);
    snprintf(a, sizeof a, "%s/a.csv", sub);
    snprintf(b, sizeof b, "%s/b.csv", sub);
    assert_int_equal(gp_file_set_mkdir(&set, sub, &err), GP_OK);
    assert_int_equal(gp_file_set_write(&set, a, write_line, text_a, &err),
                     GP_OK);
    assert_int_equal(gp_file_set_write(&set, b, write_line, text_b, &err),
                     GP_OK);
    /* before the commit only the two temporary files are there */
    assert_int_equal(access(a, F_OK), -1);
    assert_int_equal(entries(sub), 2);
    assert_int_equal(gp_file_set_commit(&set, &err), GP_OK);
    gp_file_set_abort(&set); /* a no-op after commit */
    /* now exactly a.csv and b.csv, with what was written */
    assert_int_equal(entries(sub), 2);
    FILE *f = fopen(a, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "a\n");
    f = fopen(b, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "b\n");
}

static void test_file_set_renames_nothing_when_a_target_is_a_folder(
    void **state)
{
    gp_file_set set = {0};
    gp_error err;
    char sub[128], a[160], b[160], c[160];
    (void)state;

    gp_error_clear(&err);
    snprintf(sub, sizeof sub, "%s/folder", dir);
    snprintf(a, sizeof a, "%s/a.csv", sub);
    snprintf(b, sizeof b, "%s/b.csv", sub);
    snprintf(c, sizeof c, "%s/c.csv", sub);
    assert_int_equal(mkdir(sub, 0777), 0);
    assert_int_equal(mkdir(b, 0777), 0); /* b.csv is a folder */
    assert_int_equal(gp_file_set_mkdir(&set, sub, &err), GP_OK);
    assert_int_equal(gp_file_set_write(&set, a, write_line, text_a, &err),
                     GP_OK);
    assert_int_equal(gp_file_set_write(&set, b, write_line, text_b, &err),
                     GP_OK);
    assert_int_equal(gp_file_set_write(&set, c, write_line, text_c, &err),
                     GP_OK);
    assert_int_equal(gp_file_set_commit(&set, &err), GP_ERR_IO);
    assert_string_equal(err.source, b);
    assert_string_equal(err.message,
                        "cannot rename into place: Is a directory");
    /* a.csv, written before the folder, is not there either: the folder
     * b.csv is all that is left, no temporary file */
    assert_int_equal(access(a, F_OK), -1);
    assert_int_equal(entries(sub), 1);
}

static void test_file_set_abort_removes_files_and_the_folder_it_made(
    void **state)
{
    gp_file_set set = {0};
    gp_error err;
    char sub[128], a[160], b[160];
    (void)state;

    gp_error_clear(&err);
    snprintf(sub, sizeof sub, "%s/new", dir);
    snprintf(a, sizeof a, "%s/a.csv", sub);
    snprintf(b, sizeof b, "%s/b.csv", sub);
    assert_int_equal(gp_file_set_mkdir(&set, sub, &err), GP_OK);
    assert_int_equal(gp_file_set_write(&set, a, write_line, text_a, &err),
                     GP_OK);
    /* the second table fails to write: its temporary file goes at once,
     * the first one's and the new folder on abort */
    assert_int_equal(gp_file_set_write(&set, b, write_line, NULL, &err),
                     GP_ERR_IO);
    assert_int_equal(entries(sub), 1);
    gp_file_set_abort(&set);
    assert_int_equal(access(sub, F_OK), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_money_has_thousands_separators_and_cents),
        cmocka_unit_test(test_money_past_a_quadrillion_takes_exponent_form),
        cmocka_unit_test(test_money_fits_any_buffer),
        cmocka_unit_test(test_money_in_another_currency_names_its_code),
        cmocka_unit_test(test_file_set_renames_every_file_on_commit),
        cmocka_unit_test(
            test_file_set_renames_nothing_when_a_target_is_a_folder),
        cmocka_unit_test(
            test_file_set_abort_removes_files_and_the_folder_it_made),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
