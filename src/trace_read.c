/*
 * trace_read.c: reading the data lines of a trace: a fast split on commas
 * for lines without quotes, libcsv for the rest, rejected rows kept in
 * order (compactly), and a large buffer cut into ranges by its text alone,
 * read by threads in parallel and merged in order.
 */
#include "trace_internal.h"

#include <csv.h>
/* SSE2 splits lines (every x86-64); elsewhere, or built with
 * -DGP_NO_SSE2 to test it, eight bytes at a time in plain C. */
#if defined(__SSE2__) && !defined(GP_NO_SSE2)
#define SPLIT_SSE2 1
#include <emmintrin.h>
#else
#define SPLIT_SSE2 0
#endif
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* Buffers at least this large are cut into ranges (RANGE_BYTES), read
 * by as many threads as asked for; smaller ones are one range. */
#define PARALLEL_MIN_BYTES (8u << 20)

/* ---- reading ranges of lines -------------------------------------------- */

/* libcsv's view of a row that contains quotes. */
struct slow_row {
    char *buf; /* copies of the fields, NUL separated */
    size_t len, cap;
    size_t offs[MAX_FIELDS], lens[MAX_FIELDS];
    size_t n;
    bool too_many, nomem;
    int rows_done; /* rows completed in the last csv_parse call */
    size_t n_first; /* fields when the first of them ended */
    struct row *rows;
};

/* libcsv's field callback: copies the field into the row's buffer. */
static void slow_field(void *p, size_t len, void *data)
{
    struct slow_row *r = data;

    if (r->n >= MAX_FIELDS) {
        r->too_many = true;
        return;
    }
    if (gp_grow((void **)&r->buf, &r->cap, r->len + len + 1, 1) != GP_OK) {
        r->nomem = true;
        return;
    }
    if (len > 0) /* p is not to be read for an empty field */
        memcpy(r->buf + r->len, p, len);
    r->buf[r->len + len] = '\0';
    r->offs[r->n] = r->len;
    r->lens[r->n] = len;
    r->n++;
    r->len += len + 1;
}

/* libcsv's row callback: counts the rows ended in one csv_parse call, and
 * notes the fields of the first. */
static void slow_row_end(int c, void *data)
{
    struct slow_row *r = data;
    (void)c;
    if (r->rows_done++ == 0)
        r->n_first = r->n;
}

/*
 * Rejected rows are kept compact, in file order, in a scratch file (so
 * that memory does not grow with bad rows): where the row is in the text
 * and its line, 32 bytes, not its text or its message.  The message is
 * made again when the row is handed on, by reading the row once more
 * (shard_reject_why); the few errors that depend on other rows (the
 * shard's err_kept) keep their message after the record.
 */
struct reject {
    uint64_t offset, len; /* the row is text[offset, offset + len) */
    int64_t line;         /* its first line, counted as the shard counts */
    uint64_t kept;        /* 1: a gp_error follows */
};

/* Keeps the rejected row text[at, at + len) of `source` on `line` for
 * later. */
static void shard_reject(struct shard *s, const char *source, size_t at,
                         size_t len, long line)
{
    struct reject rec = {at, len, line, s->err_kept};
    char dir[256] = "";
    int why = 0;

    if (!s->rejects && !(s->rejects = gp_scratch_file(dir, sizeof dir)))
        why = errno;
    if (!s->rejects || fwrite(&rec, sizeof rec, 1, s->rejects) != 1 ||
        (rec.kept && fwrite(&s->err, sizeof s->err, 1, s->rejects) != 1)) {
        if (!why)
            why = errno;
        gp_error_clear(&s->err);
        gp_error_set(&s->err, source, 0, 0, NULL,
                     "cannot keep rejected rows in a temporary file%s%s: %s",
                     *dir ? " in " : "", dir, strerror(why));
        s->status = GP_ERR_IO;
        return;
    }
    s->err_kept = false;
    s->rows_rejected++;
}

/* Makes the error of rejected row `rec` again into *e, by reading the row
 * once more into `scratch` (a shard for nothing else), its lines moved by
 * line_offset; GP_ERR_NOMEM when out of memory. */
static gp_status shard_reject_why(gp_trace_builder *b,
                                  const struct file_ctx *ctx,
                                  const char *text, const struct reject *rec,
                                  long line_offset, struct shard *scratch,
                                  gp_error *e)
{
    struct range_result res;
    long line = (long)rec->line + line_offset;

    gp_trace_read_range(b, scratch, ctx, text, (size_t)rec->offset,
                        (size_t)(rec->offset + rec->len), line, false, &res);
    if (scratch->status == GP_ERR_NOMEM)
        return GP_ERR_NOMEM;
    if (scratch->status == GP_OK) /* not expected: a row-local error */
        gp_error_set(&scratch->err, ctx->source, line, 0, NULL,
                     "rejected (the reason was not found again)");
    *e = scratch->err;
    gp_error_clear(&scratch->err);
    scratch->status = GP_OK;
    return GP_OK;
}

/* Hands the rows shard s rejected to the user's callback, their lines
 * moved by `line_offset`, and empties the scratch file. */
gp_status gp_trace_flush_rejects(gp_trace_builder *b,
                                 const struct file_ctx *ctx, const char *text,
                                 struct shard *s, long line_offset)
{
    struct reject rec;
    struct shard scratch;
    gp_error e;
    gp_status st = GP_OK;

    if (!s->rejects)
        return GP_OK;
    gp_trace_shard_init(&scratch);
    rewind(s->rejects);
    while (st == GP_OK && fread(&rec, sizeof rec, 1, s->rejects) == 1) {
        if (!rec.kept) {
            st = shard_reject_why(b, ctx, text, &rec, line_offset, &scratch,
                                  &e);
        } else if (fread(&e, sizeof e, 1, s->rejects) == 1) {
            e.line += line_offset;
        } else {
            st = GP_ERR_IO;
        }
        if (st == GP_OK)
            b->opt.reject(b->opt.reject_ctx, &e, text + rec.offset,
                          (size_t)rec.len);
    }
    if (st == GP_OK && ferror(s->rejects))
        st = GP_ERR_IO;
    gp_trace_shard_free(&scratch);
    fclose(s->rejects);
    s->rejects = NULL;
    return st;
}

#if !SPLIT_SSE2
/*
 * Offset of the first comma, double quote or carriage return in p[0, n),
 * or n: eight bytes at a time (the "has a zero byte" trick on the word
 * XORed with each wanted byte; only the lowest flagged byte is trusted,
 * and a later call starts after it).  `avail` >= n bytes may be read from
 * p, so whole words are loaded while they fit.  Every word loaded is ORed
 * into *seen, which so tells the caller whether the line had a byte past
 * ASCII (row_text_is_utf8 checks no further when it had none).
 */
static size_t scan_special(const char *p, size_t n, size_t avail,
                           uint64_t *seen)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = ones << 7;
    size_t i = 0;

    while (i < n) {
        uint64_t w;
        if (i + 8 <= avail) {
            memcpy(&w, p + i, 8);
        } else {
            w = 0;
            for (size_t j = 0; i + j < avail; j++)
                w |= (uint64_t)(unsigned char)p[i + j] << (8 * j);
        }
        *seen |= w;
        uint64_t a = w ^ (ones * ','), q = w ^ (ones * '"'),
                 r = w ^ (ones * '\r');
        uint64_t m = (((a - ones) & ~a) | ((q - ones) & ~q) |
                      ((r - ones) & ~r)) &
                     highs;
        if (m) {
            size_t at = i + (size_t)(__builtin_ctzll(m) / 8);
            return at < n ? at : n;
        }
        i += 8;
    }
    return n;
}
#endif

/* The state of one read_range, passed between its steps.  The row, the
 * parser and libcsv's row belong to the range; the text is the caller's. */
struct range_reader {
    gp_trace_builder *b;
    struct shard *s;
    const struct file_ctx *ctx;
    const char *text;
    size_t end;                 /* the range's end in text */
    struct row *row;            /* the row handed to gp_trace_add_row */
    struct csv_parser *parser;  /* libcsv, once parser_ready */
    bool parser_ready;
    struct slow_row *slow;      /* libcsv's view of a quoted row */
    bool in_slow;               /* libcsv holds a row not yet ended */
    size_t row_start;           /* where the row being read starts */
    long row_line;              /* and its line */
    long line;                  /* the line being read */
};

/* What reading one line did: nothing to add (a blank line, or a quoted
 * field running on), a row read (well or not), a row for libcsv, or an
 * error that stops the range. */
enum line_step { LINE_NEXT, LINE_ROW, LINE_SLOW, LINE_STOP };

/* Puts field *nf of the row, p[0, len) with its spaces and tabs trimmed
 * as libcsv trims them, and counts it (even past MAX_FIELDS, where it is
 * not kept). */
static void put_field(struct range_reader *r, size_t *nf, const char *p,
                      size_t len)
{
    if (*nf < MAX_FIELDS) {
        r->row->f[*nf].p = trim(p, &len);
        r->row->f[*nf].len = len;
    }
    (*nf)++;
}

#if !SPLIT_SSE2
/*
 * Splits the line lp[0, body) on commas into r->row while no quote or CR
 * shows (the fast path); returns false at the first one, leaving the line
 * to libcsv.  *nf counts the fields (even past MAX_FIELDS); `avail` bytes
 * may be read from lp, and *seen ORs the words read (scan_special).
 */
static bool split_plain(struct range_reader *r, const char *lp, size_t body,
                        size_t avail, size_t *nf, uint64_t *seen)
{
    size_t i = 0;

    for (;;) {
        size_t k = i + scan_special(lp + i, body - i, avail - i, seen);
        if (k < body && lp[k] != ',')
            return false;
        put_field(r, nf, lp + i, k - i);
        if (k >= body)
            return true;
        i = k + 1;
    }
}
#endif

/* Makes libcsv ready for a row that contains quotes (the parser is made
 * once per range); false when out of memory. */
static bool slow_start(struct range_reader *r)
{
    if (!r->parser_ready) {
        if (csv_init(r->parser, CSV_STRICT | CSV_STRICT_FINI |
                                    CSV_APPEND_NULL) != 0) {
            gp_error_set(&r->s->err, r->ctx->source, r->line, 0, NULL,
                         "out of memory");
            r->s->status = GP_ERR_NOMEM;
            return false;
        }
        /* through gp_realloc, so that tests can fail its growth */
        csv_set_realloc_func(r->parser, gp_realloc);
        csv_set_free_func(r->parser, gp_free);
        r->parser_ready = true;
    }
    r->slow->len = r->slow->n = 0;
    r->slow->too_many = r->slow->nomem = false;
    r->in_slow = true;
    return true;
}

#if SPLIT_SSE2
/*
 * The fast path's split with SSE2 (every x86-64): finds the line's end and
 * its commas in one pass, 16 bytes at a time, and splits the line at lp
 * into r->row while no quote or CR shows but a CR just before the line's
 * end; false at the first, leaving the line to libcsv.  `avail` bytes may
 * be read from lp.  *len gets the line's length without its LF, *nf the
 * fields (even past MAX_FIELDS), and *high the bytes read ORed.
 */
static bool split_line(struct range_reader *r, const char *lp, size_t avail,
                       size_t *len, size_t *nf, unsigned *high)
{
    const __m128i comma = _mm_set1_epi8(','), lf = _mm_set1_epi8('\n'),
                  quote = _mm_set1_epi8('"'), cr = _mm_set1_epi8('\r');
    __m128i seen = _mm_setzero_si128();
    size_t start = 0;

    for (size_t i = 0; i < avail; i += 16) {
        size_t n = avail - i < 16 ? avail - i : 16;
        char pad[16] = {0};
        __m128i c;
        if (n == 16) {
            c = _mm_loadu_si128((const __m128i *)(const void *)(lp + i));
        } else {
            memcpy(pad, lp + i, n); /* the text's last bytes */
            c = _mm_loadu_si128((const __m128i *)(const void *)pad);
        }
        seen = _mm_or_si128(seen, c);
        unsigned valid = n == 16 ? 0xFFFFu : (1u << n) - 1;
        unsigned lfs = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(c, lf));
        unsigned crs = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(c, cr));
        /* a CR before an LF, or as the text's last byte, is the line's end */
        unsigned end_cr = lfs >> 1;
        if (i + n == avail || lp[i + n] == '\n')
            end_cr |= 1u << (n - 1);
        unsigned stop = ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(c, quote)) |
                         (crs & ~end_cr)) &
                        valid;
        unsigned seps =
            ((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(c, comma)) | lfs) &
            valid;
        if (lfs & valid) { /* nothing past the line's end */
            unsigned upto = (2u << __builtin_ctz(lfs & valid)) - 1;
            stop &= upto;
            seps &= upto;
        }
        if (stop)
            return false;
        for (; seps; seps &= seps - 1) {
            size_t k = i + (size_t)__builtin_ctz(seps);
            bool last = lp[k] == '\n';
            put_field(r, nf, lp + start,
                      k - start - (last && k > start && lp[k - 1] == '\r'));
            if (last) {
                *len = k;
                *high = (unsigned)_mm_movemask_epi8(seen);
                return true;
            }
            start = k + 1;
        }
    }
    /* the text ends with no LF: the last field runs to its end */
    size_t flen = avail - start;
    if (flen && lp[avail - 1] == '\r')
        flen--;
    put_field(r, nf, lp + start, flen);
    *len = avail;
    *high = (unsigned)_mm_movemask_epi8(seen);
    return true;
}
#endif

/* The length of the line at text offset pos, without its LF. */
static size_t line_length(const struct range_reader *r, size_t pos)
{
    const char *nl = memchr(r->text + pos, '\n', r->end - pos);
    return nl ? (size_t)(nl - (r->text + pos)) : r->end - pos;
}

/* Splits the line at text offset pos on commas into r->row (the fast
 * path): *len gets its length without its LF; false when it holds a quote
 * or a CR (not one just before its end), leaving it to libcsv. */
static bool split_fast(struct range_reader *r, size_t pos, size_t *len,
                       size_t *nf)
{
    const char *lp = r->text + pos;
#if SPLIT_SSE2
    unsigned high = 0;
    bool plain = split_line(r, lp, r->end - pos, len, nf, &high);
    /* it read every byte of the line (and maybe some past its end, which
     * can only make the row look non-ASCII) */
    r->row->ascii = high == 0;
#else
    uint64_t seen = 0; /* the bytes scan_special read, ORed */
    size_t body = *len = line_length(r, pos);
    if (body && lp[body - 1] == '\r')
        body--;
    bool plain = split_plain(r, lp, body, r->end - pos, nf, &seen);
    r->row->ascii = !(seen & 0x8080808080808080ULL);
#endif
    if (!plain)
        *len = line_length(r, pos);
    return plain;
}

/* Reads the line that starts a row at text offset pos (*len: its length
 * without its LF): split on commas and added when it has no quote (*ok:
 * whether the row was good), else handed to libcsv. */
static enum line_step line_fast(struct range_reader *r, size_t pos, size_t *len,
                                bool *ok)
{
    struct shard *s = r->s;
    struct row *row = r->row;
    size_t nf = 0;

    r->row_start = pos;
    r->row_line = r->line;
    row->end = r->text + r->end;
    if (!split_fast(r, pos, len, &nf))
        return slow_start(r) ? LINE_SLOW : LINE_STOP;
    if (nf == 1 && row->f[0].len == 0)
        return LINE_NEXT; /* a blank line */
    row->n = nf;
    row->line = r->row_line;
    s->rows_read++;
    *ok = nf <= MAX_FIELDS && gp_trace_add_row(s, r->b, r->ctx, row);
    if (nf > MAX_FIELDS) {
        gp_error_clear(&s->err);
        /* at the first field past the limit */
        gp_error_set(&s->err, r->ctx->source, r->row_line, MAX_FIELDS + 1,
                     NULL, "more than %d fields", MAX_FIELDS);
        s->status = GP_ERR_INPUT;
    }
    return LINE_ROW;
}

/* Checks the row libcsv ended on this line and adds it; false with the
 * shard's error set when it is bad.  A bare CR ends a row in libcsv; more
 * than one row on a line is rare enough to report rather than guess at. */
static bool slow_row_add(struct range_reader *r)
{
    struct shard *s = r->s;
    const struct file_ctx *ctx = r->ctx;
    struct slow_row *slow = r->slow;

    if (slow->too_many || slow->rows_done > 1) {
        gp_error_clear(&s->err);
        if (slow->too_many)
            gp_error_set(&s->err, ctx->source, r->row_line, MAX_FIELDS + 1,
                         NULL, "more than %d fields", MAX_FIELDS);
        else {
            /* a CR outside quotes ended field n_first for libcsv */
            size_t col = slow->n_first ? slow->n_first : 1;
            gp_error_set(&s->err, ctx->source, r->line, (long)col,
                         col <= ctx->n_header ? ctx->header_names[col - 1]
                                              : NULL,
                         "%s", GP_SOURCE_STRAY_CR);
        }
        s->status = GP_ERR_INPUT;
        return false;
    }
    if (slow->nomem) {
        gp_error_set(&s->err, ctx->source, r->row_line, 0, NULL,
                     "out of memory");
        s->status = GP_ERR_NOMEM;
        return false;
    }
    for (size_t k = 0; k < slow->n; k++) {
        r->row->f[k].p = slow->buf + slow->offs[k];
        r->row->f[k].len = slow->lens[k];
    }
    r->row->n = slow->n;
    r->row->line = r->row_line;
    r->row->ascii = false;
    r->row->end = slow->buf + slow->len;
    return gp_trace_add_row(s, r->b, ctx, r->row);
}

/* Feeds the line lp[0, n) (with its newline) to libcsv: a row that ends
 * on it is added (*ok: whether it was good), one whose quoted field runs
 * on waits for the next line, and malformed quoting is the row's error. */
static enum line_step line_slow(struct range_reader *r, const char *lp,
                                size_t n, bool *ok)
{
    struct shard *s = r->s;
    struct slow_row *slow = r->slow;

    slow->rows_done = 0;
    if (csv_parse(r->parser, lp, n, slow_field, slow_row_end, slow) != n) {
        bool nomem = csv_error(r->parser) == CSV_ENOMEM;
        gp_error_clear(&s->err);
        gp_error_set(&s->err, r->ctx->source, r->line,
                     nomem ? 0 : (long)slow->n + 1, NULL, "%s",
                     nomem ? "out of memory"
                           : "malformed quoting (a quote inside an "
                             "unquoted field, or text after a closing "
                             "quote)");
        s->status = nomem ? GP_ERR_NOMEM : GP_ERR_INPUT;
        *ok = false;
        csv_free(r->parser);
        r->parser_ready = false;
        r->in_slow = false;
        s->rows_read++;
        return LINE_ROW;
    }
    if (slow->rows_done == 0)
        return LINE_NEXT; /* a quoted field runs on to the next line */
    r->in_slow = false;
    s->rows_read++;
    *ok = slow_row_add(r);
    slow->len = slow->n = 0;
    return LINE_ROW;
}

/* After a bad row that ended before text offset pos: keeps it (with
 * keep_rejects) and clears the error so that reading goes on.  False
 * when reading must stop: out of memory, rejects not kept, or no room to
 * keep them. */
static bool row_rejected(struct range_reader *r, bool keep_rejects,
                         size_t pos)
{
    struct shard *s = r->s;

    if (s->status == GP_ERR_NOMEM || !keep_rejects)
        return false;
    shard_reject(s, r->ctx->source, r->row_start, pos - r->row_start, r->row_line);
    if (s->status != GP_OK && s->status != GP_ERR_INPUT)
        return false;
    gp_error_clear(&s->err);
    s->status = GP_OK;
    return true;
}

/*
 * Reads the lines of text[begin, end) into shard s; first_line numbers the
 * first line.  With `keep_rejects`, bad rows are kept in the shard and
 * reading goes on; without, the first bad row stops the range.  A row
 * whose quoted field runs past `end` is left unread and reported in res.
 */
void gp_trace_read_range(gp_trace_builder *b, struct shard *s,
                         const struct file_ctx *ctx, const char *text,
                         size_t begin, size_t end, long first_line,
                         bool keep_rejects, struct range_result *res)
{
    struct csv_parser parser;
    struct slow_row slow;
    struct range_reader r = {.b = b,
                             .s = s,
                             .ctx = ctx,
                             .text = text,
                             .end = end,
                             .parser = &parser,
                             .slow = &slow,
                             .row_start = begin,
                             .row_line = first_line,
                             .line = first_line};
    size_t pos = begin;

    memset(res, 0, sizeof *res);
    memset(&slow, 0, sizeof slow);
    r.row = gp_malloc(sizeof *r.row);
    if (!r.row) {
        gp_error_set(&s->err, ctx->source, 0, 0, NULL, "out of memory");
        s->status = GP_ERR_NOMEM;
        return;
    }
    r.row->nul_near = memchr(text + begin, 0, end - begin) != NULL;
    while (pos < end) {
        const char *lp = text + pos;
        size_t len;
        enum line_step step = LINE_SLOW;
        bool ok = true;

        if (!r.in_slow)
            step = line_fast(&r, pos, &len, &ok);
        else
            len = line_length(&r, pos);
        if (step == LINE_STOP)
            break;
        size_t next = pos + len + (pos + len < end); /* past its LF */
        if (step == LINE_SLOW)
            step = line_slow(&r, lp, next - pos, &ok);
        pos = next;
        r.line++;
        if (step == LINE_ROW && !ok && !row_rejected(&r, keep_rejects, pos))
            break;
    }
    if (r.in_slow && s->status == GP_OK) {
        res->in_row = true;
        res->resume_at = r.row_start;
        res->resume_line = r.row_line;
    }
    if (r.parser_ready)
        csv_free(&parser);
    gp_free(slow.buf);
    gp_free(r.row);
    res->lines = (size_t)(r.line - first_line);
}

/* The cores online, 1 to 16: the threads to read with by default. */
static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 16 ? 16 : (int)n);
}

/*
 * Reads the data rows in text[begin, end), whose first line is number
 * first_line, in ranges when the text is large (in parallel with more than
 * one thread).  Rows are merged and rejected rows handed on in file order.
 * On return *resume is where reading must go on (end, or the start of a
 * row whose quoted field runs past end) and *resume_line its line number.
 */
gp_status gp_trace_read_body(gp_trace_builder *b, const struct file_ctx *ctx,
                             const char *text, size_t begin, size_t end,
                             long first_line, size_t *resume, long *resume_line,
                             gp_error *err)
{
    int threads = b->opt.threads > 0 ? b->opt.threads : online_cores();
    bool keep = b->opt.reject != NULL;
    struct range_result res;
    long line;
    gp_status st = GP_OK;

    if (end - begin < PARALLEL_MIN_BYTES) {
        gp_trace_read_range(b, &b->main, ctx, text, begin, end, first_line,
                            keep, &res);
        line = first_line + (long)res.lines;
        if (b->main.status == GP_OK && keep)
            st = gp_trace_flush_rejects(b, ctx, text, &b->main, 0);
    } else {
        st = gp_trace_read_ranges(b, ctx, text, begin, end, first_line,
                                  threads < 1 ? 1 : threads, &res, &line);
    }
    if (st != GP_OK) {
        gp_error_set(err, ctx->source, 0, 0, NULL, "%s",
                     st == GP_ERR_NOMEM ? "out of memory"
                                        : "cannot read back rejected rows");
        return st;
    }
    if (b->main.status != GP_OK) {
        *err = b->main.err;
        return b->main.status;
    }
    *resume = res.in_row ? res.resume_at : end;
    /* the lines read, less a last one with no line end */
    *resume_line = res.in_row ? res.resume_line
                              : line - (end > begin && text[end - 1] != '\n');
    return GP_OK;
}
