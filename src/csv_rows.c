/*
 * csv_rows.c: CSV files read row by row with libcsv (RFC 4180, strict), for
 * every reader that wants whole rows of fields rather than libcsv's
 * callbacks: the importers (import_cur.c, import_focus.c, import_nvsmi.c,
 * import_offer.c) and the catalog's spot price histories
 * (catalog_spot.c).  Lines are fed one at a time and memory grows only
 * with the longest row: docs/design/csv_rows.md says why.
 */
#include "csv_rows.h"
#include "util.h"

#include <csv.h>
#include <string.h>

#define MAX_COLUMNS 4096
#define READ_CHUNK (1u << 20)

/* The state of one gp_csv_rows_read: the fields of the row being read. */
typedef struct csv_rows {
    char *bytes; /* field texts, each NUL-terminated */
    size_t len, cap;
    size_t *starts; /* offsets of the fields in bytes */
    char **fields;
    size_t n, cap_fields;
    long line;     /* the line being fed to libcsv */
    long row_line; /* the line the current row started on, 0 before */
    long last_line; /* the last line that had anything on it */
    /* how the lines end, told by the first line end (as
     * gp_source_cr_line_ends tells it): -1 not yet known, 0 LF or CRLF, 1 CR */
    int cr_lines;
    /* whether the text fed so far ends inside a quoted field (rows_feed
     * keeps it line by line) */
    bool quoted;
    unsigned long rows_ended; /* libcsv's row ends so far */
    gp_csv_row_fn row;
    void *ctx;
    const char *source;
    gp_error *err;
    gp_status st; /* the first failure; later callbacks do nothing */
} csv_rows;

/* libcsv's field callback: appends one field to the row. */
static void rows_field(void *s, size_t len, void *p)
{
    csv_rows *r = p;

    if (r->st != GP_OK)
        return;
    if (r->n == 0)
        r->row_line = r->line;
    if (r->n >= MAX_COLUMNS) {
        gp_error_set(r->err, r->source, r->row_line, MAX_COLUMNS + 1, NULL,
                     "more than %d columns", MAX_COLUMNS);
        r->st = GP_ERR_INPUT;
        return;
    }
    /* the caller gets NUL-terminated fields, so a NUL inside one would cut
     * it short without a word; no text format here has one */
    if (len > 0 && memchr(s, '\0', len)) {
        gp_error_set(r->err, r->source, r->line, (long)r->n + 1, NULL,
                     "a NUL byte in the field (is this a text file?)");
        r->st = GP_ERR_INPUT;
        return;
    }
    if (gp_grow((void **)&r->bytes, &r->cap, r->len + len + 1, 1) != GP_OK ||
        gp_grow((void **)&r->starts, &r->cap_fields, r->n + 1,
                sizeof *r->starts) != GP_OK) {
        r->st = GP_ERR_NOMEM;
        return;
    }
    if (len)
        memcpy(r->bytes + r->len, s, len);
    r->bytes[r->len + len] = '\0';
    r->starts[r->n++] = r->len;
    r->len += len + 1;
}

/* libcsv's row callback: hands the finished row to the caller. */
static void rows_end(int c, void *p)
{
    csv_rows *r = p;

    (void)c;
    r->rows_ended++;
    if (r->st != GP_OK)
        return;
    if (r->n > 0) {
        char **fields = gp_realloc(r->fields, r->n * sizeof *fields);
        if (!fields) {
            r->st = GP_ERR_NOMEM;
            return;
        }
        r->fields = fields;
        for (size_t i = 0; i < r->n; i++)
            fields[i] = r->bytes + r->starts[i];
        r->st = r->row(r->ctx, fields, r->n, r->row_line, r->err);
    }
    r->n = 0;
    r->len = 0;
}

/* Whether p[0, n) holds an odd number of double quotes. */
static bool odd_quotes(const char *p, size_t n)
{
    const char *q = p, *end = p + n;
    bool odd = false;

    while ((q = memchr(q, '"', (size_t)(end - q))) != NULL) {
        odd = !odd;
        q++;
    }
    return odd;
}

/* Hands data[0, len) to libcsv. */
static bool rows_parse(csv_rows *r, struct csv_parser *p, const char *data,
                       size_t len)
{
    if (csv_parse(p, data, len, rows_field, rows_end, r) == len ||
        r->st != GP_OK)
        return r->st == GP_OK;
    int e = csv_error(p);
    if (e == CSV_ENOMEM) {
        r->st = GP_ERR_NOMEM;
        return false;
    }
    /* the fields before the bad one are complete */
    gp_error_set(r->err, r->source, r->line, (long)r->n + 1, NULL,
                 "malformed CSV: %s",
                 e == CSV_EPARSE ? "a double quote inside an unquoted "
                                   "field or after a closing quote"
                                 : csv_strerror(e));
    r->st = GP_ERR_INPUT;
    return false;
}

/* Feeds len bytes to the parser a line at a time, so that r->line is the
 * line each callback happens on.  Lines end in LF or CRLF, and in a text
 * whose first line ends in a lone CR (old Mac files) in a lone CR too, as
 * the trace reader reads them.  A CR inside a quoted field is part of the
 * field and ends no line, in every text.  A lone CR outside quotes in a
 * text of LF or CRLF lines is an error (libcsv would end the row there).
 * The caller never splits a CRLF between two calls. */
static gp_status rows_feed(csv_rows *r, struct csv_parser *p,
                           const char *data, size_t len)
{
    size_t pos = 0;

    while (pos < len && r->st == GP_OK) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        size_t lf = nl ? (size_t)(nl - data) : len, next = nl ? lf + 1 : len;
        size_t ending = nl ? 1u : 0u, at = pos;
        bool ends = nl != NULL, quoted_at_pos = r->quoted;
        unsigned long rows_before = r->rows_ended;

        /* the lone CRs before the LF: part of a quoted field, or a line
         * end (CR lines), or an error (LF lines) */
        for (;;) {
            const char *cr = memchr(data + at, '\r', lf - at);
            if (!cr)
                break;
            size_t c = (size_t)(cr - data);
            if (nl && c + 1 == lf) {
                ending = 2; /* CRLF */
                break;
            }
            /* libcsv reads up to the CR first, so that a malformed field
             * before it is reported as such; past that (strict quoting)
             * the line's quotes are an opening one, doubled ones and a
             * closing one, so their count says whether the CR is inside
             * a quoted field */
            if (!rows_parse(r, p, data + at, c - at))
                return r->st;
            at = c;
            if (quoted_at_pos != odd_quotes(data + pos, c - pos)) {
                at = c + 1; /* part of the field */
                if (!rows_parse(r, p, cr, 1))
                    return r->st;
                continue;
            }
            if (r->cr_lines < 0)
                r->cr_lines = 1; /* the first line end is a lone CR */
            if (r->cr_lines == 0) {
                gp_error_set(r->err, r->source, r->line, (long)r->n + 1, NULL,
                             "%s", GP_SOURCE_STRAY_CR);
                r->st = GP_ERR_INPUT;
                return r->st;
            }
            next = c + 1;
            ending = 1;
            ends = true;
            break;
        }
        if (ends && r->cr_lines < 0)
            r->cr_lines = 0; /* the first line end is an LF or CRLF */
        if (next - pos > ending)
            r->last_line = r->line;
        if (!rows_parse(r, p, data + at, next - at))
            break;
        /* where the next line starts: a line with no quote leaves it as it
         * was; past one with quotes, inside a quoted field unless its line
         * end ended the row (the only row end a line can hold).  A piece
         * of a line (the chunk ended) goes by its quotes' count. */
        if (!ends)
            r->quoted = quoted_at_pos != odd_quotes(data + pos, next - pos);
        else if (memchr(data + pos, '"', next - pos))
            r->quoted = r->rows_ended == rows_before;
        if (ends)
            r->line++;
        pos = next;
    }
    return r->st;
}

/* Reads a file source a chunk at a time into the parser; a CR that ends a
 * chunk may be half a CRLF, so it goes with the next one (rows_feed must
 * not see a CRLF split). */
static void rows_stream(csv_rows *r, struct csv_parser *p, gp_source *src)
{
    size_t carry = 0;

    while (r->st == GP_OK && !src->eof) {
        if ((r->st = gp_source_fill(src, READ_CHUNK, r->err)) != GP_OK)
            break;
        const char *at = src->buf + src->start;
        size_t n = src->len - src->start;
        carry = n > 0 && at[n - 1] == '\r';
        rows_feed(r, p, at, n - carry);
        gp_source_consume(src, src->len - carry);
    }
    if (r->st == GP_OK && carry)
        rows_feed(r, p, "\r", 1);
}

gp_status gp_csv_rows_read(gp_source *src, gp_csv_row_fn row, void *ctx,
                           gp_error *err)
{
    struct csv_parser p;
    csv_rows r;

    memset(&r, 0, sizeof r);
    r.line = 1;
    r.cr_lines = -1;
    r.row = row;
    r.ctx = ctx;
    r.source = src->name;
    r.err = err;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return GP_ERR_NOMEM;
    if (src->mem) {
        r.st = gp_source_begin(src, err);
        if (r.st == GP_OK)
            rows_feed(&r, &p, src->buf + src->start, src->len - src->start);
    } else {
        rows_stream(&r, &p, src);
    }
    if (r.st == GP_OK && csv_fini(&p, rows_field, rows_end, &r) != 0 &&
        r.st == GP_OK) {
        gp_error_set(err, src->name, r.last_line, (long)r.n + 1, NULL,
                     "malformed CSV: a quoted field is not closed");
        r.st = GP_ERR_INPUT;
    }
    csv_free(&p);
    gp_free(r.bytes);
    gp_free(r.starts);
    gp_free(r.fields);
    return r.st;
}

gp_status gp_csv_check_row_width(const char *source, long line, size_t n,
                                 size_t n_header, gp_error *err)
{
    if (n == n_header)
        return GP_OK;
    gp_error_set(err, source, line, (long)(n < n_header ? n : n_header) + 1,
                 NULL, "row has %zu field%s, the header has %zu", n,
                 gp_plural(n, "", "s"), n_header);
    return GP_ERR_INPUT;
}
