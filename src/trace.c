/*
 * trace.c: usage-history ingest (SPEC section 2): the trace builder, which
 * reads trace CSV files and buffers into hourly demand per series (pool x
 * workload x team x project), plus job runs for the spot replay.  The work
 * is shared with trace_header.c, trace_read.c, trace_rows.c, trace_pool.c,
 * trace_errors.c, trace_merge.c and trace_finish.c (trace_internal.h);
 * docs/design/trace.md says how they fit, and why the parsing and the
 * threads work as they do.
 */
#include "trace_internal.h"

#include <errno.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

const char *const gp_trace_column_names[N_COLUMNS] = {
    "timestamp", "step_s",    "start",    "end",      "provider",
    "region",    "instance_type", "workload", "instances", "gpus",
    "gpu_util",  "job_id",    "team",     "project",  "interruptible"};


/* ---- the builder --------------------------------------------------------- */

/* The default options: hourly steps, idle below 5% for 2 hours. */
void gp_trace_options_init(gp_trace_options *o)
{
    memset(o, 0, sizeof *o);
    o->default_step_s = 3600;
    o->idle_threshold_pct = 5;
    o->idle_min_hours = 2;
}

/* The canonical column name of index i, NULL past the last. */
const char *gp_trace_column_name(size_t i)
{
    return i < N_COLUMNS ? gp_trace_column_names[i] : NULL;
}

/* The header name a the map parameter gives canonical column `canonical`, else
 * the canonical name itself. */
const char *gp_trace_mapped_column(const gp_trace_options *opt,
                                   const char *canonical)
{
    for (size_t m = 0; m < opt->n_map; m++)
        if (strcmp(opt->map[m][0], canonical) == 0)
            return opt->map[m][1];
    return canonical;
}

/* As gp_trace_mapped_column, but NULL (and *claimed_by the the map parameter
 * that took it) when another column's the map parameter reads the canonical
 * name. */
const char *gp_trace_read_column(const gp_trace_options *opt,
                                 const char *canonical, const char **claimed_by)
{
    const char *want = gp_trace_mapped_column(opt, canonical);

    if (claimed_by)
        *claimed_by = NULL;
    if (want != canonical)
        return want;
    for (size_t m = 0; m < opt->n_map; m++)
        if (strcasecmp(opt->map[m][1], canonical) == 0) {
            if (claimed_by)
                *claimed_by = opt->map[m][0];
            return NULL;
        }
    return canonical;
}

/* A builder that resolves types in `pricing`, with `opt` (the defaults
 * when NULL); *out is NULL on failure. */
gp_status gp_trace_builder_new(gp_trace_builder **out,
                               const gp_pricing *pricing,
                               const gp_trace_options *opt, gp_error *err)
{
    gp_trace_builder *b = gp_calloc(1, sizeof *b);

    *out = NULL;
    if (!b) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    b->pricing = pricing;
    if (opt)
        b->opt = *opt;
    else
        gp_trace_options_init(&b->opt);
    if (!(b->opt.default_step_s > 0))
        b->opt.default_step_s = 3600;
    gp_trace_shard_init(&b->main);
    pthread_mutex_init(&b->reject_lock, NULL);
    *out = b;
    return GP_OK;
}

/* Frees the builder and all it read; NULL is a no-op. */
void gp_trace_builder_free(gp_trace_builder *b)
{
    if (!b)
        return;
    gp_trace_shard_free(&b->main);
    for (size_t i = 0; i < b->n_sources; i++)
        gp_free(b->sources[i]);
    gp_free(b->sources);
    pthread_mutex_destroy(&b->reject_lock);
    gp_free(b);
}

/* Keeps the name of a source read, for the trace and its messages. */
static gp_status add_source(gp_trace_builder *b, const char *source)
{
    if (gp_grow((void **)&b->sources, &b->cap_sources, b->n_sources + 1,
                sizeof *b->sources) != GP_OK)
        return GP_ERR_NOMEM;
    b->sources[b->n_sources] = gp_strdup(source);
    if (!b->sources[b->n_sources])
        return GP_ERR_NOMEM;
    b->n_sources++;
    return GP_OK;
}

/* A chunked source of text: a memory buffer, or a file read in pieces. */
struct source {
    const char *mem; /* whole text in memory, or NULL */
    size_t mem_len;
    FILE *f;
    double size; /* the file's bytes, 0 if unknown (a pipe) */
    double read; /* bytes read so far */
    char *buf;
    size_t len, cap;
    bool eof;
    /* a file saved with CR line ends (gp_text_cr_line_ends: 1, 0, or -1
     * until its first line end is read) has its CRs made LFs as it is
     * read, up to cr_done (csv_rows.c reads histories and imports alike) */
    int cr_lines;
    size_t cr_done;
    int cr_quote; /* gp_text_cr_to_lf's quote state at cr_done */
};

/* Bytes read at a time from a file: large enough to keep every core busy,
 * small enough that memory does not grow with the file. */
#define CHUNK_BYTES (64u << 20)

/* Makes sure s->buf holds more text after `keep` bytes carried over;
 * returns false on a read error. */
static bool source_fill(struct source *s, gp_trace_builder *b)
{
    if (s->mem)
        return true;
    if (s->cap < s->len + CHUNK_BYTES) {
        size_t cap = s->len + CHUNK_BYTES;
        char *nb = gp_realloc(s->buf, cap);
        if (!nb)
            return false;
        s->buf = nb;
        s->cap = cap;
    }
    size_t n = fread(s->buf + s->len, 1, s->cap - s->len, s->f);
    s->len += n;
    b->bytes_read += n;
    s->read += (double)n;
    if (s->size > 0)
        gp_progress_report(&b->opt.progress, "reading the trace", s->read,
                           s->size);
    else
        gp_progress_report(&b->opt.progress, "reading the trace",
                           s->read / 1e6, 0);
    if (n == 0 || feof(s->f))
        s->eof = feof(s->f) || n == 0;
    if (s->cr_lines < 0)
        s->cr_lines = gp_text_cr_line_ends(s->buf, s->len, !s->eof);
    if (s->cr_lines == 1)
        s->cr_done =
            gp_text_cr_to_lf(s->buf, s->cr_done, s->len, !s->eof, &s->cr_quote);
    return !ferror(s->f);
}

/* Sets the error for a source that cannot be read (errno says why). */
static gp_status source_io_error(const char *name, gp_error *err)
{
    gp_error_set(err, name, 0, 0, NULL, "cannot read: %s", strerror(errno));
    return GP_ERR_IO;
}

/* Makes the start of the source ready to read: a text in memory (a copy
 * with LFs when it has CR line ends, freed by the caller), or a file's
 * first pieces, enough to hold the whole header row. */
static gp_status source_start(gp_trace_builder *b, struct source *src,
                              const char *name, gp_error *err)
{
    if (src->mem) {
        gp_status st;
        src->buf = (char *)src->mem; /* read only: never written */
        src->len = src->mem_len;
        src->eof = true;
        b->bytes_read += src->mem_len;
        char *copy;
        if ((st = gp_text_lf_copy(src->mem, src->mem_len, &copy)) != GP_OK)
            return st;
        if (copy)
            src->buf = copy;
        return GP_OK;
    }
    do {
        if (!source_fill(src, b))
            return source_io_error(name, err);
    } while (!src->eof && !memchr(src->buf, '\n', src->len) &&
             src->len < CHUNK_BYTES * 4);
    return GP_OK;
}

/* Reads the source's data lines, from buffer offset `body` on line `line`,
 * a piece at a time: the whole lines of each piece, the unread tail (a part
 * line or an unfinished quoted row) carried on to the next. */
static gp_status read_lines(gp_trace_builder *b, struct source *src,
                            struct file_ctx *ctx, size_t body, long line,
                            gp_error *err)
{
    size_t resume = 0;
    gp_status st;

    for (;;) {
        /* read whole lines: up to the last newline unless at the end */
        size_t end = src->len;
        if (!src->eof) {
            const char *nl = NULL;
            for (size_t k = src->len; k > body; k--)
                if (src->buf[k - 1] == '\n') {
                    nl = src->buf + k - 1;
                    break;
                }
            end = nl ? (size_t)(nl - src->buf) + 1 : body;
        }
        ctx->has_nul = ctx->has_nul || memchr(src->buf + body, 0, end - body);
        st = gp_trace_read_body(b, ctx, src->buf, body, end, line, &resume,
                                &line, err);
        if (st != GP_OK)
            return st;
        if (src->eof) {
            if (resume < src->len) {
                gp_error_set(err, ctx->source, line, 0, NULL,
                             "the file ends inside a quoted field (a closing "
                             "quote is missing)");
                return GP_ERR_INPUT;
            }
            return GP_OK;
        }
        /* carry the unread tail to the front and read on */
        memmove(src->buf, src->buf + resume, src->len - resume);
        src->len -= resume;
        if (src->cr_lines == 1)
            src->cr_done -= resume;
        body = 0;
        if (!source_fill(src, b))
            return source_io_error(ctx->source, err);
    }
}

/* Reads one source (a file or a buffer) named `name` into the builder:
 * its header, then its rows; on success the builder keeps its name and,
 * when it holds the row that ends last so far, where that row is. */
static gp_status read_source(gp_trace_builder *b, struct source *src,
                             const char *name, gp_error *err)
{
    struct file_ctx ctx;
    size_t body = 0;
    gp_status st;
    double end_before = b->main.end_s;

    memset(&ctx, 0, sizeof ctx);
    ctx.source = name;
    st = source_start(b, src, name, err);
    if (st == GP_OK) {
        ctx.has_nul = memchr(src->buf, 0, src->len) != NULL;
        st = gp_trace_read_header(b, &ctx, src->buf, src->len, &body, err);
    }
    if (st == GP_OK)
        st = read_lines(b, src, &ctx, body,
                        1 + gp_trace_count_lines(src->buf, body), err);
    if (st == GP_OK)
        st = add_source(b, name);
    /* this file holds the row that ends last so far */
    if (st == GP_OK && b->main.end_s > end_before)
        gp_trace_row_position(&ctx, b->main.end_line,
                              b->opt.layout == GP_LAYOUT_JOBS ? COL_END
                                                              : COL_TIMESTAMP,
                              &b->end_row);
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, name, 0, 0, NULL, "out of memory");
    gp_trace_file_ctx_free(&ctx);
    return st;
}

/* Reads the trace text text[0, len), named `source` in messages. */
gp_status gp_trace_builder_add_buffer(gp_trace_builder *b, const char *text,
                                      size_t len, const char *source,
                                      gp_error *err)
{
    struct source src;
    memset(&src, 0, sizeof src);
    src.mem = text && len ? text : ""; /* never NULL: NULL means a file */
    src.mem_len = text ? len : 0;
    gp_status st = read_source(b, &src, source, err);
    if (src.buf != src.mem)
        gp_free(src.buf); /* the copy of a text with CR line ends */
    return st;
}

/* Reads the trace file at `path` ("-": standard input) in pieces. */
gp_status gp_trace_builder_add_file(gp_trace_builder *b, const char *path,
                                    gp_error *err)
{
    struct source src;
    gp_status st;

    memset(&src, 0, sizeof src);
    src.cr_lines = -1;
    src.f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!src.f) {
        gp_error_set(err, path, 0, 0, NULL, "cannot open: %s",
                     strerror(errno));
        return GP_ERR_INPUT;
    }
    struct stat sb;
    if (fstat(fileno(src.f), &sb) == 0 && S_ISREG(sb.st_mode))
        src.size = (double)sb.st_size;
    st = read_source(b, &src, path, err);
    if (src.f != stdin)
        fclose(src.f);
    gp_free(src.buf);
    return st;
}
