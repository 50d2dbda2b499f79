/*
 * test_source.c: the text-input layer (source.c).  A buffer, a file read
 * whole and a file read in chunks give the same text, past a UTF-8 byte
 * order mark; a UTF-16 one is refused; CR line ends become LF across a
 * chunk's edge; a folder, a pipe and a device are refused at once, and a
 * file past its kind's limit before it is read.  Expected texts and
 * positions are worked out by hand from the inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four it needs */

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source.h"

/* A fresh temporary folder for one test's files (removed by the test). */
static char folder[64];

static const char *in_folder(const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    return path;
}

static int make_folder(void **state)
{
    (void)state;
    snprintf(folder, sizeof folder, "/tmp/gp-test-source-XXXXXX");
    return mkdtemp(folder) ? 0 : -1;
}

static int remove_folder(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", folder);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes text[0, len) to the file `name` in the folder. */
static const char *write_file(const char *name, const char *text, size_t len)
{
    const char *path = in_folder(name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

static void test_a_buffer_starts_past_a_utf8_byte_order_mark(void **state)
{
    gp_source s;
    gp_error err;
    (void)state;

    gp_error_clear(&err);
    gp_source_buffer(&s, "\xEF\xBB\xBFtimestamp\n", 13, "t.csv",
                     GP_SOURCE_TRACE);
    assert_int_equal(gp_source_fill(&s, 1024, &err), GP_OK);
    assert_int_equal(s.start, 3);
    assert_true(s.eof);
    assert_memory_equal(s.buf + s.start, "timestamp\n", 10);
    gp_source_close(&s);
}

static void test_utf16_is_refused_with_its_byte_order_mark_named(void **state)
{
    gp_source s;
    gp_error err;
    (void)state;

    gp_error_clear(&err);
    gp_source_buffer(&s, "\xFF\xFEt\0", 4, "t.csv", GP_SOURCE_TRACE);
    assert_int_equal(gp_source_begin(&s, &err), GP_ERR_INPUT);
    assert_string_equal(err.source, "t.csv");
    assert_int_equal(err.line, 1);
    assert_string_equal(err.message,
                        "the file is UTF-16 (little-endian byte order mark "
                        "FF FE); save it as UTF-8 (e.g. iconv -f UTF-16 -t "
                        "UTF-8)");
    gp_error_clear(&err);
    assert_int_equal(
        gp_source_bom("s.json", "\xFE\xFF\0{", 4, &(size_t){0}, &err),
        GP_ERR_INPUT);
    assert_non_null(strstr(err.message, "big-endian byte order mark FE FF"));
}

/* "a" CR "b" CRLF "c" CR "d", read three bytes at a time with CR line
 * ends made LF: the CRLF cut after its CR (bytes 3 and 4) stays one line
 * end, so the text is a LF b CRLF c LF d. */
static void test_cr_line_ends_become_lf_across_chunks(void **state)
{
    const char *path = write_file("cr.csv", "a\rb\r\nc\rd", 8);
    char got[16] = "";
    gp_source s;
    gp_error err;
    (void)state;

    gp_error_clear(&err);
    assert_int_equal(gp_source_open(&s, path, GP_SOURCE_TRACE, &err), GP_OK);
    s.cr_to_lf = true;
    while (!s.eof) {
        assert_int_equal(gp_source_fill(&s, 3, &err), GP_OK);
        size_t done = s.eof ? s.len : s.cr_done; /* what is final */
        strncat(got, s.buf + s.start, done - s.start);
        gp_source_consume(&s, done);
    }
    assert_string_equal(got, "a\nb\r\nc\nd");
    assert_int_equal(s.read, 8);
    gp_source_close(&s);
}

static void test_a_file_loads_whole_with_its_byte_order_mark(void **state)
{
    const char *path = write_file("s.json", "\xEF\xBB\xBF{}", 5);
    char *text;
    size_t len;
    gp_error err;
    (void)state;

    gp_error_clear(&err);
    assert_int_equal(
        gp_source_load(path, GP_SOURCE_SCENARIO, &text, &len, &err), GP_OK);
    assert_int_equal(len, 5);
    assert_string_equal(text, "\xEF\xBB\xBF{}"); /* NUL-terminated */
    gp_free(text);
}

static void test_a_missing_file_cannot_be_opened(void **state)
{
    gp_source s;
    gp_error err;
    (void)state;

    gp_error_clear(&err);
    assert_int_equal(gp_source_open(&s, in_folder("nope.csv"),
                                    GP_SOURCE_TRACE, &err),
                     GP_ERR_INPUT);
    assert_string_equal(err.message,
                        "cannot open: No such file or directory");
    gp_source_close(&s); /* a no-op */
}

/* Opens path as kind; expects GP_ERR_INPUT and `message`. */
static void assert_refused(const char *path, gp_source_kind kind,
                           const char *message)
{
    gp_source s;
    gp_error err;

    gp_error_clear(&err);
    assert_int_equal(gp_source_open(&s, path, kind, &err), GP_ERR_INPUT);
    assert_string_equal(err.source, path);
    assert_string_equal(err.message, message);
}

static void test_only_regular_files_are_read(void **state)
{
    (void)state;
    assert_refused(folder, GP_SOURCE_CATALOG,
                   "is not a regular file (a folder)");
    assert_refused("/dev/zero", GP_SOURCE_SPOT_HISTORY,
                   "is not a regular file (a device)");
    /* nothing writes to the pipe: the open must not wait for a writer */
    assert_int_equal(mkfifo(in_folder("pipe"), 0600), 0);
    assert_refused(in_folder("pipe"), GP_SOURCE_TRACE,
                   "is not a regular file (a pipe); to read a pipe, give - "
                   "and pipe it into standard input");
    assert_refused(in_folder("pipe"), GP_SOURCE_SPOT_HISTORY,
                   "is not a regular file (a pipe)");
}

/* A sparse file one byte past 64 MiB is refused from its size; a trace,
 * which has no limit, of the same size opens. */
static void test_a_file_past_its_limit_is_refused_unread(void **state)
{
    const char *path = write_file("big.json", "", 0);
    gp_source s;
    gp_error err;
    (void)state;

    assert_int_equal(truncate(path, (off_t)GP_SOURCE_MAX_CATALOG + 1), 0);
    assert_refused(path, GP_SOURCE_CATALOG,
                   "is larger than 64 MiB, the most a catalog may be");
    gp_error_clear(&err);
    assert_int_equal(gp_source_open(&s, path, GP_SOURCE_TRACE, &err), GP_OK);
    assert_true(s.size > 64 * 1048576.0);
    gp_source_close(&s);
}

/* Lines count LFs; columns count characters ("é" is two bytes, one
 * column). */
static void test_positions_count_lines_and_characters(void **state)
{
    const char *text = "a\n\xC3\xA9x\nz";
    long line = 1, column = 1;
    (void)state;

    assert_int_equal(gp_source_count_lines(text, strlen(text)), 2);
    for (size_t i = 0; i < 4; i++) /* up to the "x" */
        gp_source_advance((unsigned char)text[i], &line, &column);
    assert_int_equal(line, 2);
    assert_int_equal(column, 2);
}

/* Standard input may be a regular file a script has already read part of
 * (`(read -r first; gpuplan ... --trace -) < file`): it is read from where
 * it stands, as any stream is, so "skip\n" (5 bytes) is not read again.
 * Mapping the file from its offset 0 read it whole. */
static void test_a_file_read_partly_by_someone_else_reads_on_from_there(
    void **state)
{
    const char *path = write_file("offset.csv", "skip\nrest\n", 10);
    FILE *f = fopen(path, "rb");
    gp_source s;
    gp_error err;
    (void)state;

    assert_non_null(f);
    assert_int_equal(lseek(fileno(f), 5, SEEK_SET), 5);
    gp_error_clear(&err);
    gp_source_stream(&s, f, "-", GP_SOURCE_TRACE);
    (void)gp_source_map(&s);
    while (!s.eof)
        assert_int_equal(gp_source_fill(&s, 64, &err), GP_OK);
    if (!s.begun) /* a mapped source begins here */
        assert_int_equal(gp_source_begin(&s, &err), GP_OK);
    assert_int_equal(s.len - s.start, 5);
    assert_memory_equal(s.buf + s.start, "rest\n", 5);
    gp_source_close(&s);
    fclose(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_buffer_starts_past_a_utf8_byte_order_mark),
        cmocka_unit_test(test_utf16_is_refused_with_its_byte_order_mark_named),
        cmocka_unit_test(test_cr_line_ends_become_lf_across_chunks),
        cmocka_unit_test(test_a_file_loads_whole_with_its_byte_order_mark),
        cmocka_unit_test(test_a_missing_file_cannot_be_opened),
        cmocka_unit_test(test_only_regular_files_are_read),
        cmocka_unit_test(test_a_file_past_its_limit_is_refused_unread),
        cmocka_unit_test(test_positions_count_lines_and_characters),
        cmocka_unit_test(
            test_a_file_read_partly_by_someone_else_reads_on_from_there),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, make_folder, remove_folder);
}
