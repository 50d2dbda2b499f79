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

#include <string.h>
#include <strings.h>

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

/* The header name a map gives canonical column `canonical`, else
 * the canonical name itself. */
const char *gp_trace_mapped_column(const gp_trace_options *opt,
                                   const char *canonical)
{
    for (size_t m = 0; m < opt->n_map; m++)
        if (strcmp(opt->map[m][0], canonical) == 0)
            return opt->map[m][1];
    return canonical;
}

/* As gp_trace_mapped_column, but NULL (and *claimed_by the map
 * that took it) when another column's map reads the canonical
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

/* Whether the instance-type parameter (which fills rows that give no
 * type) names a type some loaded catalog prices; if not, says so once, as
 * every row it fills would fail alike. */
static bool fill_type_known(const gp_pricing *pricing, const char *type,
                            gp_error *err)
{
    bool ambiguous = false;
    char shown[SHOWN_SIZE], near[256] = "";

    if (!type || !pricing || pricing->n_catalogs == 0 ||
        gp_pricing_find(pricing, NULL, NULL, type, NULL, &ambiguous) ||
        ambiguous)
        return true;
    gp_trace_show_bytes(shown, type, strlen(type), 64);
    gp_pricing_suggest(pricing, type, near, sizeof near, 3);
    gp_error_set_param(err, NULL, GP_PARAM_INSTANCE_TYPE,
                       "unknown instance type %s (%s%s)", shown,
                       near[0] ? "nearest: " : "no similar name in the "
                                               "loaded catalogs",
                       near);
    return false;
}

/* A builder that resolves types in `pricing`, with `opt` (the defaults
 * when NULL); *out is NULL on failure. */
gp_status gp_trace_builder_new(gp_trace_builder **out,
                               const gp_pricing *pricing,
                               const gp_trace_options *opt, gp_error *err)
{
    *out = NULL;
    if (opt && !fill_type_known(pricing, opt->instance_type, err))
        return GP_ERR_INPUT;
    gp_trace_builder *b = gp_calloc(1, sizeof *b);
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

/* Bytes read at a time from a file: large enough to keep every core busy,
 * small enough that memory does not grow with the file. */
#define CHUNK_BYTES (64u << 20)

/* Reads the next piece of a file source (gp_source_fill: CR line ends
 * made LF as it goes) and reports the progress. */
static gp_status source_fill(gp_trace_builder *b, gp_source *s, gp_error *err)
{
    uint64_t before = s->read;
    gp_status st = gp_source_fill(s, CHUNK_BYTES, err);

    b->bytes_read += s->read - before;
    if (s->size > 0)
        gp_progress_report(&b->opt.progress, "reading the trace",
                           (double)s->read, s->size);
    else
        gp_progress_report(&b->opt.progress, "reading the trace",
                           (double)s->read / 1e6, 0);
    return st;
}

/* Makes the start of the source ready to read: a text in memory (a copy
 * with LFs when it has CR line ends, which the source frees), or a file's
 * first pieces, enough to hold the whole header row; either past a UTF-8
 * byte order mark (src->start). */
static gp_status source_start(gp_trace_builder *b, gp_source *src,
                              gp_error *err)
{
    gp_status st;

    if (src->mem) {
        b->bytes_read += src->len;
        char *copy;
        if ((st = gp_source_lf_copy(src->mem, src->len, &copy)) != GP_OK)
            return st;
        if (copy)
            src->buf = copy;
        return gp_source_begin(src, err);
    }
    do {
        if ((st = source_fill(b, src, err)) != GP_OK)
            return st;
    } while (!src->eof && !memchr(src->buf, '\n', src->len) &&
             src->len < CHUNK_BYTES * 4);
    return GP_OK;
}

/* Reads the source's data lines, from buffer offset `body` on line `line`,
 * a piece at a time: the whole lines of each piece, the unread tail (a part
 * line or an unfinished quoted row) carried on to the next. */
static gp_status read_lines(gp_trace_builder *b, gp_source *src,
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
        gp_source_consume(src, resume);
        body = 0;
        if ((st = source_fill(b, src, err)) != GP_OK)
            return st;
    }
}

/* Reads one source (a file or a buffer) named `name` into the builder:
 * its header, then its rows; on success the builder keeps its name and,
 * when it holds the row that ends last so far, where that row is. */
static gp_status read_source(gp_trace_builder *b, gp_source *src,
                             gp_error *err)
{
    struct file_ctx ctx;
    size_t body = 0;
    gp_status st;
    double end_before = b->main.end_s;
    const char *name = src->name;

    /* the memo's keys hold the fields of the file's columns, not which
     * columns: another file's rows would meet this one's */
    gp_free(b->main.memo);
    b->main.memo = NULL;
    memset(&ctx, 0, sizeof ctx);
    ctx.source = name;
    ctx.mapped = src->mapped;
    st = source_start(b, src, err);
    if (st == GP_OK) {
        body = src->start;
        st = gp_trace_read_header(b, &ctx, src->buf, src->len, &body, err);
    }
    if (st == GP_OK)
        st = read_lines(b, src, &ctx, body,
                        1 + gp_source_count_lines(src->buf, body), err);
    if (st == GP_OK && src->mapped) /* read whole: say it is done */
        gp_progress_report(&b->opt.progress, "reading the trace",
                           (double)src->len, (double)src->len);
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
    gp_source src;

    gp_source_buffer(&src, text, len, source, GP_SOURCE_TRACE);
    gp_status st = read_source(b, &src, err);
    gp_source_close(&src); /* frees the copy of a text with CR line ends */
    return st;
}

/* Reads the trace file at `path` ("-": standard input) in pieces. */
gp_status gp_trace_builder_add_file(gp_trace_builder *b, const char *path,
                                    gp_error *err)
{
    gp_source src;
    gp_status st;

    if ((st = gp_source_open(&src, path, GP_SOURCE_TRACE, err)) != GP_OK)
        return st;
    src.cr_to_lf = true;
    gp_source_map(&src); /* read as a stream when it cannot be mapped */
    st = read_source(b, &src, err);
    gp_source_close(&src);
    return st;
}
