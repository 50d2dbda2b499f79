/*
 * trace_read.c: reading the data lines of a trace: a fast split on commas
 * for lines without quotes, libcsv for the rest, rejected rows kept in
 * order, and a large buffer cut into ranges read by threads in parallel.
 */
#include "trace_internal.h"

#include <csv.h>
#include <string.h>
#include <unistd.h>

/* Buffers at least this large are split across threads. */
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

static void slow_row_end(int c, void *data)
{
    struct slow_row *r = data;
    (void)c;
    if (r->rows_done++ == 0)
        r->n_first = r->n;
}

/* Keeps a rejected row (its error and its text) for later, in order. */
static void shard_reject(struct shard *s, const char *row, size_t len)
{
    if (!s->rejects)
        s->rejects = tmpfile();
    if (!s->rejects ||
        fwrite(&s->err, sizeof s->err, 1, s->rejects) != 1 ||
        fwrite(&len, sizeof len, 1, s->rejects) != 1 ||
        fwrite(row, 1, len, s->rejects) != len) {
        gp_error_set(&s->err, NULL, 0, 0, NULL,
                     "cannot keep rejected rows in a temporary file");
        s->status = GP_ERR_IO;
        return;
    }
    s->rows_rejected++;
}

/* Hands the rows shard s rejected to the user's callback, their lines
 * moved by `line_offset`, and empties the buffer. */
static gp_status shard_flush_rejects(gp_trace_builder *b, struct shard *s,
                                     long line_offset)
{
    gp_error e;
    size_t len;
    char *row = NULL;
    gp_status st = GP_OK;

    if (!s->rejects)
        return GP_OK;
    rewind(s->rejects);
    while (fread(&e, sizeof e, 1, s->rejects) == 1 &&
           fread(&len, sizeof len, 1, s->rejects) == 1) {
        char *r = gp_realloc(row, len + 1);
        if (!r) {
            st = GP_ERR_NOMEM;
            break;
        }
        row = r;
        if (fread(row, 1, len, s->rejects) != len) {
            st = GP_ERR_IO;
            break;
        }
        e.line += line_offset;
        b->opt.reject(b->opt.reject_ctx, &e, row, len);
    }
    gp_free(row);
    fclose(s->rejects);
    s->rejects = NULL;
    return st;
}

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

/*
 * Reads the lines of text[begin, end) into shard s; first_line numbers the
 * first line.  With `keep_rejects`, bad rows are kept in the shard and
 * reading goes on; without, the first bad row stops the range.  A row
 * whose quoted field runs past `end` is left unread and reported in res.
 */
static void read_range(gp_trace_builder *b, struct shard *s,
                       const struct file_ctx *ctx, const char *text,
                       size_t begin, size_t end, long first_line,
                       bool keep_rejects, struct range_result *res)
{
    struct row *row = gp_malloc(sizeof *row);
    struct csv_parser parser;
    struct slow_row slow;
    bool parser_ready = false;
    size_t pos = begin, row_start = begin;
    long line = first_line;
    long row_line = first_line;
    bool in_slow = false;

    memset(res, 0, sizeof *res);
    memset(&slow, 0, sizeof slow);
    if (!row) {
        gp_error_set(&s->err, ctx->source, 0, 0, NULL, "out of memory");
        s->status = GP_ERR_NOMEM;
        return;
    }
    while (pos < end) {
        const char *lp = text + pos;
        const char *nl = memchr(lp, '\n', end - pos);
        size_t len = nl ? (size_t)(nl - lp) : end - pos;
        size_t next = pos + len + (nl ? 1 : 0);
        bool ok = true;

        if (!in_slow) {
            size_t body = len, i = 0, nf = 0;
            bool plain = true;
            uint64_t seen = 0; /* the bytes scan_special read, ORed */
            if (body && lp[body - 1] == '\r')
                body--;
            row_start = pos;
            row_line = line;
            /* the fast path: split on commas while no quote or CR shows */
            for (;;) {
                size_t k =
                    i + scan_special(lp + i, body - i, end - pos - i, &seen);
                if (k < body && lp[k] != ',') {
                    plain = false;
                    break;
                }
                if (nf < MAX_FIELDS) {
                    size_t flen = k - i;
                    row->f[nf].p = trim(lp + i, &flen);
                    row->f[nf].len = flen;
                }
                nf++;
                if (k >= body)
                    break;
                i = k + 1;
            }
            if (plain) {
                if (nf == 1 && row->f[0].len == 0) {
                    pos = next; /* a blank line */
                    line++;
                    continue;
                }
                row->n = nf;
                row->line = row_line;
                /* it read every byte of the line (and maybe a few past its
                 * end, which can only make the row look non-ASCII) */
                row->ascii = !(seen & 0x8080808080808080ULL);
                s->rows_read++;
                ok = nf <= MAX_FIELDS && gp_trace_add_row(s, b, ctx, row);
                if (nf > MAX_FIELDS) {
                    gp_error_clear(&s->err);
                    /* at the first field past the limit */
                    gp_error_set(&s->err, ctx->source, row_line, MAX_FIELDS + 1,
                                 NULL, "more than %d fields", MAX_FIELDS);
                    s->status = GP_ERR_INPUT;
                }
                goto row_done;
            }
            /* hand the row to libcsv */
            if (!parser_ready) {
                if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI |
                                          CSV_APPEND_NULL) != 0) {
                    gp_error_set(&s->err, ctx->source, line, 0, NULL,
                                 "out of memory");
                    s->status = GP_ERR_NOMEM;
                    break;
                }
                /* through gp_realloc, so that tests can fail its growth */
                csv_set_realloc_func(&parser, gp_realloc);
                csv_set_free_func(&parser, gp_free);
                parser_ready = true;
            }
            slow.len = slow.n = 0;
            slow.too_many = slow.nomem = false;
            in_slow = true;
        }
        slow.rows_done = 0;
        if (csv_parse(&parser, lp, next - pos, slow_field, slow_row_end,
                      &slow) != next - pos) {
            bool nomem = csv_error(&parser) == CSV_ENOMEM;
            gp_error_clear(&s->err);
            gp_error_set(&s->err, ctx->source, line,
                         nomem ? 0 : (long)slow.n + 1, NULL, "%s",
                         nomem ? "out of memory"
                               : "malformed quoting (a quote inside an "
                                 "unquoted field, or text after a closing "
                                 "quote)");
            s->status = nomem ? GP_ERR_NOMEM : GP_ERR_INPUT;
            ok = false;
            csv_free(&parser);
            parser_ready = false;
            in_slow = false;
            s->rows_read++;
            goto row_done;
        }
        if (slow.rows_done == 0) {
            /* a quoted field runs on to the next line */
            pos = next;
            line++;
            continue;
        }
        /* A bare CR ends a row in libcsv; more than one row on a line is
         * rare enough to report rather than guess at. */
        in_slow = false;
        s->rows_read++;
        if (slow.too_many || slow.rows_done > 1) {
            gp_error_clear(&s->err);
            if (slow.too_many)
                gp_error_set(&s->err, ctx->source, row_line, MAX_FIELDS + 1,
                             NULL, "more than %d fields", MAX_FIELDS);
            else {
                /* a CR outside quotes ended field n_first for libcsv */
                size_t col = slow.n_first ? slow.n_first : 1;
                gp_error_set(&s->err, ctx->source, line, (long)col,
                             col <= ctx->n_header ? ctx->header_names[col - 1]
                                                  : NULL,
                             "%s", GP_TEXT_STRAY_CR);
            }
            s->status = GP_ERR_INPUT;
            ok = false;
        } else if (slow.nomem) {
            gp_error_set(&s->err, ctx->source, row_line, 0, NULL,
                         "out of memory");
            s->status = GP_ERR_NOMEM;
            ok = false;
        } else {
            for (size_t k = 0; k < slow.n; k++) {
                row->f[k].p = slow.buf + slow.offs[k];
                row->f[k].len = slow.lens[k];
            }
            row->n = slow.n;
            row->line = row_line;
            row->ascii = false;
            ok = gp_trace_add_row(s, b, ctx, row);
        }
        slow.len = slow.n = 0;
    row_done:
        pos = next;
        line++;
        if (!ok) {
            if (s->status == GP_ERR_NOMEM || !keep_rejects)
                break;
            shard_reject(s, text + row_start, pos - row_start);
            if (s->status != GP_OK && s->status != GP_ERR_INPUT)
                break;
            gp_error_clear(&s->err);
            s->status = GP_OK;
        }
    }
    if (in_slow && s->status == GP_OK) {
        res->in_row = true;
        res->resume_at = row_start;
        res->resume_line = row_line;
    }
    if (parser_ready)
        csv_free(&parser);
    gp_free(slow.buf);
    gp_free(row);
    res->lines = (size_t)(line - first_line);
}

struct worker {
    gp_trace_builder *b;
    struct shard *shard;
    const struct file_ctx *ctx;
    const char *text;
    size_t begin, end;
    long first_line;
    struct range_result res;
};

static void *worker_run(void *arg)
{
    struct worker *w = arg;
    read_range(w->b, w->shard, w->ctx, w->text, w->begin, w->end,
               w->first_line, w->b->opt.reject != NULL, &w->res);
    return NULL;
}

long gp_trace_count_lines(const char *p, size_t n)
{
    long lines = 0;
    const char *end = p + n;
    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        lines++;
        p++;
    }
    return lines;
}

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (n > 16 ? 16 : (int)n);
}

/*
 * Reads the data rows in text[begin, end), whose first line is number
 * first_line, in parallel when the range is large.  Rows are merged and
 * rejected rows handed on in file order.  On return *resume is where
 * reading must go on (end, or the start of a row whose quoted field runs
 * past end) and *resume_line its line number.
 */
gp_status gp_trace_read_body(gp_trace_builder *b, const struct file_ctx *ctx,
                             const char *text, size_t begin, size_t end,
                             long first_line, size_t *resume, long *resume_line,
                             gp_error *err)
{
    int threads = b->opt.threads > 0 ? b->opt.threads : online_cores();
    bool keep = b->opt.reject != NULL;
    struct range_result res;
    gp_status st = GP_OK;

    if (threads < 2 || end - begin < PARALLEL_MIN_BYTES)
        threads = 1;
    if (threads == 1) {
        read_range(b, &b->main, ctx, text, begin, end, first_line, keep,
                   &res);
        if (b->main.status == GP_OK && keep)
            st = shard_flush_rejects(b, &b->main, 0);
    } else {
        struct worker *w = gp_calloc((size_t)threads, sizeof *w);
        struct shard *shards = gp_calloc((size_t)threads, sizeof *shards);
        pthread_t *tid = gp_calloc((size_t)threads, sizeof *tid);
        bool *started = gp_calloc((size_t)threads, sizeof *started);
        size_t cut = begin;

        if (!w || !shards || !tid || !started) {
            gp_free(w);
            gp_free(shards);
            gp_free(tid);
            gp_free(started);
            gp_error_set(err, ctx->source, 0, 0, NULL, "out of memory");
            return GP_ERR_NOMEM;
        }
        /* cut the body at newlines into one range per thread; ranges after
         * the first number their lines from 0 */
        for (int i = 0; i < threads; i++) {
            size_t stop = begin + (end - begin) / (size_t)threads *
                                      (size_t)(i + 1);
            if (i == threads - 1) {
                stop = end;
            } else {
                const char *nl = stop < end ? memchr(text + stop, '\n',
                                                     end - stop)
                                            : NULL;
                stop = nl ? (size_t)(nl - text) + 1 : end;
            }
            if (stop < cut)
                stop = cut;
            w[i] = (struct worker){b,    i == 0 ? &b->main : &shards[i],
                                   ctx,  text,
                                   cut,  stop,
                                   i == 0 ? first_line : 0,
                                   {0, false, 0, 0}};
            if (i > 0)
                gp_trace_shard_init(&shards[i]);
            cut = stop;
        }
        for (int i = 1; i < threads; i++)
            started[i] =
                pthread_create(&tid[i], NULL, worker_run, &w[i]) == 0;
        worker_run(&w[0]);
        for (int i = 1; i < threads; i++)
            if (started[i])
                pthread_join(tid[i], NULL);

        /* merge in file order.  A range whose thread did not start, or
         * whose first line was really inside the previous range's quoted
         * field, is read again in sequence, with everything after it. */
        res = w[0].res;
        long line = first_line + (long)w[0].res.lines;
        if (b->main.status == GP_OK && keep)
            st = shard_flush_rejects(b, &b->main, 0);
        for (int i = 1; i < threads && st == GP_OK &&
                        b->main.status == GP_OK;
             i++) {
            if (!started[i] || res.in_row) {
                size_t from = res.in_row ? res.resume_at : w[i].begin;
                long from_line = res.in_row ? res.resume_line : line;
                read_range(b, &b->main, ctx, text, from, end, from_line, keep,
                           &res);
                if (b->main.status == GP_OK && keep)
                    st = shard_flush_rejects(b, &b->main, 0);
                break;
            }
            if (shards[i].status != GP_OK) {
                shards[i].err.line += line;
                b->main.err = shards[i].err;
                b->main.status = shards[i].status;
                break;
            }
            if (keep)
                st = shard_flush_rejects(b, &shards[i], line);
            shards[i].end_line += line; /* its lines counted from 0 */
            if (st == GP_OK &&
                gp_trace_shard_merge(&b->main, &shards[i]) != GP_OK)
                st = GP_ERR_NOMEM;
            res = w[i].res;
            if (res.in_row)
                res.resume_line += line;
            line += (long)w[i].res.lines;
        }
        for (int i = 1; i < threads; i++)
            gp_trace_shard_free(&shards[i]);
        gp_free(w);
        gp_free(shards);
        gp_free(tid);
        gp_free(started);
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
    *resume_line = res.in_row ? res.resume_line
                              : first_line + (long)gp_trace_count_lines(
                                                 text + begin, end - begin);
    return GP_OK;
}
