/*
 * csv_rows.c: CSV files read row by row with libcsv (RFC 4180, strict), for
 * every reader that wants whole rows of fields rather than libcsv's
 * callbacks: the importers (import_billing.c, import_pricing.c,
 * import_telemetry.c) and the catalog's spot price histories (catalog.c).
 *
 * The text is fed to libcsv a line at a time, so that every row and every
 * error can name the line it is on.  Memory grows with the longest row,
 * never with the file: a row's fields are handed to the caller and then
 * forgotten, and a file may be streamed in chunks.
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
    bool cr_pending; /* the text so far ends in a CR that ended a line */
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
        gp_error_set(r->err, r->source, r->row_line, 0, NULL,
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

/* Feeds len bytes to the parser a line at a time, so that r->line is the
 * line each callback happens on.  A line ends in LF, CRLF or a lone CR (old
 * Mac files; libcsv ends a row at each alike); a CR that ends one chunk of
 * a streamed file and an LF that starts the next are one line end. */
static gp_status rows_feed(csv_rows *r, struct csv_parser *p,
                           const char *data, size_t len)
{
    size_t pos = 0;

    while (pos < len && r->st == GP_OK) {
        const char *nl = memchr(data + pos, '\n', len - pos);
        const char *cr =
            memchr(data + pos, '\r', (nl ? (size_t)(nl - data) : len) - pos);
        const char *eol = nl;
        size_t ending = nl ? 1u : 0u;
        bool counted = false;
        if (cr && cr + 1 != nl) {
            eol = cr; /* a lone CR ends the line */
            ending = 1;
        } else if (cr) {
            ending = 2; /* CRLF */
        } else if (r->cr_pending && nl == data + pos) {
            counted = true; /* the LF of a CRLF the chunks cut apart */
        }
        r->cr_pending = false;
        size_t next = eol ? (size_t)(eol - data) + 1 : len;
        if (next - pos > ending)
            r->last_line = r->line;
        if (csv_parse(p, data + pos, next - pos, rows_field, rows_end, r) !=
                next - pos &&
            r->st == GP_OK) {
            int e = csv_error(p);
            if (e == CSV_ENOMEM) {
                r->st = GP_ERR_NOMEM;
                break;
            }
            /* the fields before the bad one are complete */
            gp_error_set(r->err, r->source, r->line, (long)r->n + 1, NULL,
                         "malformed CSV: %s",
                         e == CSV_EPARSE ? "a double quote inside an unquoted "
                                           "field or after a closing quote"
                                         : csv_strerror(e));
            r->st = GP_ERR_INPUT;
        }
        if (eol && !counted) {
            r->line++;
            r->cr_pending = eol == cr && next == len;
        }
        pos = next;
    }
    return r->st;
}

gp_status gp_csv_rows_read(const char *text, size_t len, FILE *file,
                             const char *source, gp_csv_row_fn row,
                             void *ctx, gp_error *err)
{
    struct csv_parser p;
    csv_rows r;
    char *chunk = NULL;
    bool first = true;

    memset(&r, 0, sizeof r);
    r.line = 1;
    r.row = row;
    r.ctx = ctx;
    r.source = source;
    r.err = err;
    if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI) != 0)
        return GP_ERR_NOMEM;
    if (!file) {
        size_t bom;
        r.st = gp_text_bom(source, text, len, &bom, err);
        if (r.st == GP_OK)
            rows_feed(&r, &p, text + bom, len - bom);
    } else if (!(chunk = gp_malloc(READ_CHUNK))) {
        r.st = GP_ERR_NOMEM;
    } else {
        size_t got;
        while (r.st == GP_OK && (got = fread(chunk, 1, READ_CHUNK, file)) > 0) {
            size_t bom = 0;
            if (first &&
                (r.st = gp_text_bom(source, chunk, got, &bom, err)) != GP_OK)
                break;
            const char *at = chunk + bom;
            got -= bom;
            first = false;
            rows_feed(&r, &p, at, got);
        }
        if (r.st == GP_OK && ferror(file)) {
            gp_error_set(err, source, 0, 0, NULL, "read error");
            r.st = GP_ERR_IO;
        }
    }
    if (r.st == GP_OK && csv_fini(&p, rows_field, rows_end, &r) != 0 &&
        r.st == GP_OK) {
        gp_error_set(err, source, r.last_line, (long)r.n + 1, NULL,
                     "malformed CSV: a quoted field is not closed");
        r.st = GP_ERR_INPUT;
    }
    csv_free(&p);
    gp_free(chunk);
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
                 n == 1 ? "" : "s", n_header);
    return GP_ERR_INPUT;
}
