/*
 * trace.c: usage-history ingest (SPEC section 2).
 *
 * A trace CSV is read as a stream of physical lines and turned into hourly
 * demand per series (pool x workload x team x project), plus job runs for
 * the spot replay.  Memory grows with series x hours and with jobs, never
 * with rows: a row is parsed, spread over the clock hours it overlaps, and
 * forgotten.
 *
 * Parsing.  RFC 4180 parsing is libcsv's job, but libcsv walks every byte
 * through a state machine and tops out near 180 MB/s here.  Most trace
 * lines contain no quote at all, and for those a field is simply the text
 * between commas, so each line is split here with memchr-speed scanning and
 * only lines that contain a double quote or a bare carriage return are
 * handed to libcsv (which then owns the row until its quoted fields close).
 * Both paths trim spaces and tabs around unquoted fields, as libcsv does.
 *
 * Threads.  A large buffer is cut at a newline into one range per thread;
 * each thread fills its own shard (hash maps and hour arrays), and the
 * shards are merged in order.  The cut is speculative: a newline inside a
 * quoted field would be a false row boundary, so the cut is accepted only
 * if the thread before it ended its range outside any row; otherwise the
 * later shard is thrown away and its range read again in sequence.
 */
#include "csv_rows.h"
#include "util.h"

#include <csv.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FIELDS 256
/* Buffers at least this large are split across threads. */
#define PARALLEL_MIN_BYTES (8u << 20)

enum column {
    COL_TIMESTAMP,
    COL_STEP_S,
    COL_START,
    COL_END,
    COL_PROVIDER,
    COL_REGION,
    COL_INSTANCE_TYPE,
    COL_WORKLOAD,
    COL_INSTANCES,
    COL_GPUS,
    COL_GPU_UTIL,
    COL_JOB_ID,
    COL_TEAM,
    COL_PROJECT,
    COL_INTERRUPTIBLE,
    N_COLUMNS
};

static const char *const column_names[N_COLUMNS] = {
    "timestamp", "step_s",    "start",    "end",      "provider",
    "region",    "instance_type", "workload", "instances", "gpus",
    "gpu_util",  "job_id",    "team",     "project",  "interruptible"};

/* One clock hour of one series while reading. */
struct cell {
    double instance_hours;
    double useful_gpu_hours;
    double util_gpu_hours;
};

struct shard_series {
    uint32_t pool;
    uint8_t workload;
    uint8_t interruptible;
    int32_t team, project;
    bool job_util; /* a row had a job_id and a gpu_util */
    /* the earliest start of a row of it (seconds), when has_start */
    bool has_start;
    double start_s;
    int64_t base; /* clock hour of cells[0] */
    size_t n, cap;
    struct cell *cells;
};

/* The binary key of a series in the series map. */
struct series_key {
    uint32_t pool;
    uint8_t workload;
    uint8_t interruptible;
    uint8_t pad[2];
    int32_t team, project;
};

struct shard_run {
    int32_t job;
    uint32_t series;
    double start, end; /* seconds */
    double instances, instance_hours;
    /* instance-hours in each clock hour from h0 */
    double *ih;
    int64_t h0;
    size_t n, cap;
};

/* A run of consecutive low-utilization samples of one job (idle.h). */
struct shard_low {
    int32_t job;
    uint32_t series; /* UINT32_MAX: dropped (shorter than the minimum) */
    bool head;       /* began at the job's first sample in this shard, so
                      * may carry on a run of the shard read before */
    double start, end;
    double instance_hours, gpu_hours, useful_gpu_hours;
};

/* Where each job's samples stand, for idle detection. */
struct job_idle {
    bool seen;                   /* a sample of the job was read */
    double last_start, last_end; /* its latest sample */
    int64_t open;                /* its open low run, or -1 */
};

/* A field of the row being read: points into the input or a scratch copy. */
struct field {
    const char *p;
    size_t len;
};

/*
 * Everything one thread accumulates.  The first shard is the builder's own
 * and lives across files.
 */
struct shard {
    gp_strmap pool_map; /* "provider\x1fregion\x1ftype" -> pool */
    gp_pool *pools;
    size_t n_pools, cap_pools;
    gp_strmap series_map; /* struct series_key -> series */
    struct shard_series *series;
    size_t n_series, cap_series;
    gp_strmap label_map;
    char **labels;
    size_t n_labels, cap_labels;
    gp_strmap job_map;  /* job label -> index into open_run */
    int64_t *open_run; /* by job label: index of its current run, or -1 */
    size_t cap_open;
    struct shard_run *runs;
    size_t n_runs, cap_runs;
    struct job_idle *job_idle; /* by job label */
    size_t cap_job_idle;
    struct shard_low *lows;
    size_t n_lows, cap_lows;
    uint64_t rows_read, rows_rejected;
    double instance_hours[GP_N_WORKLOADS];
    double useful_gpu_hours, gpu_hours_without_util;
    double end_s; /* the latest end of a row read (seconds), 0 before one */
    long end_line;  /* the line of the first row read that ends at end_s */
    double start_s; /* the earliest start of a row read (seconds) */

    /* caches for the hot path: the previous row's type and labels */
    char last_type_key[160];
    size_t last_type_key_len;
    uint32_t last_pool;
    char last_label[3][96];
    size_t last_label_len[3];
    int32_t last_label_id[3];

    /* error state: first error of this shard (line relative to its range) */
    gp_error err;
    gp_status status;
    /* rows rejected while reading, kept in file order until the reader
     * knows their absolute line numbers (a temporary file, so memory does
     * not grow with bad rows) */
    FILE *rejects;
};

/* What reading one file needs to know; shared read-only by the threads. */
struct file_ctx {
    const char *source;
    int colmap[N_COLUMNS]; /* CSV column (0-based) of each, or -1 */
    size_t n_header;       /* fields in the header row */
    long header_line;      /* line the header starts on (after blank ones) */
    char *header_names[MAX_FIELDS];
    bool has_nul; /* a NUL byte somewhere: text fields are checked for one */
};

struct gp_trace_builder {
    const gp_pricing *pricing;
    gp_trace_options opt;
    struct shard main;
    char **sources;
    size_t n_sources, cap_sources;
    gp_error end_row; /* where main's end_s was read (gp_trace's end_row) */
    uint64_t bytes_read;
    pthread_mutex_t reject_lock;
};

/* ---- shards ------------------------------------------------------------- */

static void shard_init(struct shard *s)
{
    memset(s, 0, sizeof *s);
    s->last_pool = UINT32_MAX;
    for (int i = 0; i < 3; i++)
        s->last_label_id[i] = -2;
}

static void shard_free(struct shard *s)
{
    gp_strmap_free(&s->pool_map);
    gp_strmap_free(&s->series_map);
    gp_strmap_free(&s->label_map);
    gp_strmap_free(&s->job_map);
    gp_free(s->pools);
    for (size_t i = 0; i < s->n_series; i++)
        gp_free(s->series[i].cells);
    gp_free(s->series);
    for (size_t i = 0; i < s->n_labels; i++)
        gp_free(s->labels[i]);
    gp_free(s->labels);
    gp_free(s->open_run);
    for (size_t i = 0; i < s->n_runs; i++)
        gp_free(s->runs[i].ih);
    gp_free(s->runs);
    gp_free(s->job_idle);
    gp_free(s->lows);
    if (s->rejects)
        fclose(s->rejects);
    memset(s, 0, sizeof *s);
}

/* Interns a label; returns its index or -1 on allocation failure. */
static int32_t shard_label(struct shard *s, const char *p, size_t len)
{
    uint32_t id;

    if (gp_strmap_get(&s->label_map, p, len, &id))
        return (int32_t)id;
    /* all that can fail comes before the label is counted, and the map
     * entry last, so a failure leaves neither a leak nor a dangling id */
    if (gp_grow((void **)&s->labels, &s->cap_labels, s->n_labels + 1,
                sizeof *s->labels) != GP_OK ||
        gp_grow((void **)&s->open_run, &s->cap_open, s->n_labels + 1,
                sizeof *s->open_run) != GP_OK ||
        gp_grow((void **)&s->job_idle, &s->cap_job_idle, s->n_labels + 1,
                sizeof *s->job_idle) != GP_OK)
        return -1;
    s->labels[s->n_labels] = gp_strndup(p, len);
    if (!s->labels[s->n_labels])
        return -1;
    if (gp_strmap_put(&s->label_map, p, len, (uint32_t)s->n_labels) !=
        GP_OK) {
        gp_free(s->labels[s->n_labels]);
        return -1;
    }
    s->open_run[s->n_labels] = -1;
    s->job_idle[s->n_labels] = (struct job_idle){false, 0, 0, -1};
    return (int32_t)s->n_labels++;
}

/* Interns a label through the one-entry cache of column `slot`. */
static int32_t shard_label_cached(struct shard *s, int slot, const char *p,
                                  size_t len)
{
    if (len == 0)
        return -1;
    if (s->last_label_id[slot] >= 0 && s->last_label_len[slot] == len &&
        gp_same_bytes(s->last_label[slot], p, len))
        return s->last_label_id[slot];
    int32_t id = shard_label(s, p, len);
    if (id >= 0 && len < sizeof s->last_label[slot]) {
        memcpy(s->last_label[slot], p, len);
        s->last_label_len[slot] = len;
        s->last_label_id[slot] = id;
    }
    return id;
}

static int64_t shard_series(struct shard *s, const struct series_key *key)
{
    uint32_t id;

    if (gp_strmap_get(&s->series_map, (const char *)key, sizeof *key, &id))
        return id;
    if (gp_grow((void **)&s->series, &s->cap_series, s->n_series + 1,
                sizeof *s->series) != GP_OK)
        return -1;
    struct shard_series *ser = &s->series[s->n_series];
    memset(ser, 0, sizeof *ser);
    ser->pool = key->pool;
    ser->workload = key->workload;
    ser->interruptible = key->interruptible;
    ser->team = key->team;
    ser->project = key->project;
    if (gp_strmap_put(&s->series_map, (const char *)key, sizeof *key,
                      (uint32_t)s->n_series) != GP_OK)
        return -1;
    return (int64_t)s->n_series++;
}

/* Returns the cell of clock hour `hour`, growing the series' span.  NULL
 * on allocation failure or when the span would pass GP_TRACE_MAX_SPAN_HOURS. */
static struct cell *series_cell(struct shard_series *ser, int64_t hour)
{
    if (ser->n == 0) {
        ser->base = hour;
    } else if (hour < ser->base) {
        size_t shift = (size_t)(ser->base - hour);
        if (ser->n + shift > GP_TRACE_MAX_SPAN_HOURS)
            return NULL;
        if (gp_grow((void **)&ser->cells, &ser->cap, ser->n + shift,
                    sizeof *ser->cells) != GP_OK)
            return NULL;
        memmove(ser->cells + shift, ser->cells, ser->n * sizeof *ser->cells);
        memset(ser->cells, 0, shift * sizeof *ser->cells);
        ser->n += shift;
        ser->base = hour;
    }
    size_t i = (size_t)(hour - ser->base);
    if (i >= ser->n) {
        if (i + 1 > GP_TRACE_MAX_SPAN_HOURS)
            return NULL;
        if (gp_grow((void **)&ser->cells, &ser->cap, i + 1,
                    sizeof *ser->cells) != GP_OK)
            return NULL;
        memset(ser->cells + ser->n, 0, (i + 1 - ser->n) * sizeof *ser->cells);
        ser->n = i + 1;
    }
    return &ser->cells[i];
}

/* ---- rows --------------------------------------------------------------- */

struct row {
    long line;
    struct field f[MAX_FIELDS];
    size_t n;
    bool ascii; /* every byte is ASCII, as the fast path saw; false: unknown */
};

#define FIELD(row, ctx, col)                                                  \
    ((ctx)->colmap[col] >= 0 ? &(row)->f[(ctx)->colmap[col]] : &empty_field)

static const struct field empty_field = {"", 0};

static void row_error(struct shard *s, const struct file_ctx *ctx,
                      const struct row *row, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* What an error names for column `col` when the header does not have it:
 * the option the value came from (a missing step_s column means --step, a
 * missing region column --region), else the canonical column name. */
static const char *column_field(int col)
{
    if (col == COL_STEP_S)
        return "--step";
    if (col == COL_REGION)
        return "--region";
    return col >= 0 && col < N_COLUMNS ? column_names[col] : NULL;
}

/* Sets the shard's error for column `col` of the row (-1: no column).  A
 * column the header lacks has no position; the error names where its value
 * came from instead (column_field). */
static void row_error(struct shard *s, const struct file_ctx *ctx,
                      const struct row *row, int col, const char *fmt, ...)
{
    char msg[sizeof s->err.message], field[sizeof s->err.field] = "";
    va_list ap;
    bool in_header = col >= 0 && col < N_COLUMNS && ctx->colmap[col] >= 0;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* a --map name is the user's own, escaped like any echoed text */
    if (in_header) {
        const char *name = ctx->header_names[ctx->colmap[col]];
        gp_append_escaped(field, sizeof field, name, strlen(name));
    }
    gp_error_clear(&s->err);
    gp_error_set(&s->err, ctx->source, row->line,
                 in_header ? ctx->colmap[col] + 1 : 0,
                 in_header ? field : column_field(col), "%s", msg);
    s->status = GP_ERR_INPUT;
}

/* Sets *at to column `col` of the row on `line` of the file, as row_error
 * names it, with no message (gp_trace's end_row). */
static void row_position(const struct file_ctx *ctx, long line, int col,
                         gp_error *at)
{
    char field[sizeof at->field] = "";
    bool in_header = col >= 0 && col < N_COLUMNS && ctx->colmap[col] >= 0;
    const char *named = in_header ? field : column_field(col);

    if (in_header) {
        const char *name = ctx->header_names[ctx->colmap[col]];
        gp_append_escaped(field, sizeof field, name, strlen(name));
    }
    gp_error_clear(at);
    snprintf(at->source, sizeof at->source, "%s", ctx->source);
    at->line = line;
    at->column = in_header ? ctx->colmap[col] + 1 : 0;
    snprintf(at->field, sizeof at->field, "%s", named ? named : "");
}

/* Room for a shown value: 64 bytes that may each become "\xNN", the
 * quotes, "..." and the NUL. */
#define SHOWN_SIZE (64 * 4 + 8)

/* Quotes p[0, len) for a message, escaped, cut after `max` bytes (at most
 * 64).  buf holds SHOWN_SIZE. */
static void show_bytes(char *buf, const char *p, size_t len, size_t max)
{
    size_t cut = 0;

    /* cut between UTF-8 characters, not inside one (a byte that is not
     * UTF-8 counts as one character) */
    while (cut < len) {
        size_t k = gp_utf8_char_len(p + cut, len - cut);
        if (k == 0)
            k = 1;
        if (cut + k > max)
            break;
        cut += k;
    }
    snprintf(buf, SHOWN_SIZE, "\"");
    gp_append_escaped(buf, SHOWN_SIZE, p, cut);
    strncat(buf, cut < len ? "...\"" : "\"", SHOWN_SIZE - strlen(buf) - 1);
}

/* Quotes a field for a message, cutting long ones. */
static void show(char *buf, const struct field *f)
{
    show_bytes(buf, f->p, f->len, 40);
}

static bool field_number(struct shard *s, const struct file_ctx *ctx,
                         const struct row *row, int col, double *out,
                         const char *what)
{
    const struct field *f = FIELD(row, ctx, col);
    char shown[SHOWN_SIZE];

    if (gp_parse_number(f->p, f->len, out))
        return true;
    show(shown, f);
    row_error(s, ctx, row, col, "expected %s, got %s", what, shown);
    return false;
}

static bool field_time(struct shard *s, const struct file_ctx *ctx,
                       const struct row *row, int col, double *out)
{
    const struct field *f = FIELD(row, ctx, col);
    const char *why;
    char shown[SHOWN_SIZE];

    if (gp_parse_time(f->p, f->len, out, &why))
        return true;
    show(shown, f);
    row_error(s, ctx, row, col, "%s, got %s", why, shown);
    return false;
}

static bool field_is(const struct field *f, const char *word)
{
    size_t n = strlen(word);
    return f->len == n && strncasecmp(f->p, word, n) == 0;
}

/* Lists the catalogs that price `type` ("aws us-east-1, gcp ...") into
 * buf, at most three and a count of the rest. */
static void where_priced(const gp_pricing *pricing, const char *type,
                         char *buf, size_t size)
{
    size_t n = 0, used = 0;

    buf[0] = '\0';
    for (size_t i = 0; pricing && i < pricing->n_catalogs; i++) {
        const gp_catalog *c = pricing->catalogs[i];
        if (!gp_pricing_find(pricing, c->provider, c->region, type, NULL,
                             NULL))
            continue;
        if (n++ < 3 && used < size) {
            int w = snprintf(buf + used, size - used, "%s%s %s",
                             n > 1 ? ", " : "", c->provider, c->region);
            if (w > 0)
                used += (size_t)w;
        }
    }
    if (n > 3 && used < size)
        snprintf(buf + used, size - used, " and %zu more", n - 3);
}

/* Copies name[0, len) into buf without control bytes (a stray newline or
 * tab in a quoted field), so that suggestions match what was meant. */
static void printable_name(char *buf, size_t size, const char *name,
                           size_t len)
{
    size_t n = 0;

    for (size_t i = 0; i < len && n + 1 < size; i++)
        if ((unsigned char)name[i] >= 0x20 && name[i] != 0x7f)
            buf[n++] = name[i];
    buf[n] = '\0';
}

/* Sets the error for an instance type the catalogs cannot resolve for the
 * row: ambiguous, priced elsewhere, or unknown (with the nearest names). */
static void unresolved_type(struct shard *s, const gp_trace_builder *b,
                            const struct file_ctx *ctx, const struct row *row,
                            const struct field *type, const char *provider,
                            const char *region, bool ambiguous)
{
    char shown[SHOWN_SIZE], t[64], near[256];

    show_bytes(shown, type->p, type->len, 64);
    snprintf(t, sizeof t, "%.*s", (int)type->len, type->p);
    if (ambiguous) {
        row_error(s, ctx, row, COL_INSTANCE_TYPE,
                  "%s is in several catalogs; add a provider and region "
                  "column or --region",
                  shown);
        return;
    }
    where_priced(b->pricing, t, near, sizeof near);
    if (near[0]) {
        /* priced, but not where the row (or --region) says; the provider
         * is aws, gcp or azure by now, the region may be anything */
        char reg[SHOWN_SIZE], want[SHOWN_SIZE + 64];
        show_bytes(reg, region, strlen(region), 32);
        if (provider[0] && region[0])
            snprintf(want, sizeof want, "for provider \"%s\" in region %s",
                     provider, reg);
        else if (provider[0])
            snprintf(want, sizeof want, "for provider \"%s\"", provider);
        else
            snprintf(want, sizeof want, "in region %s", reg);
        row_error(s, ctx, row, COL_INSTANCE_TYPE,
                  "%s is not priced %s (the loaded catalogs have it for %s)",
                  shown, want, near);
        return;
    }
    if (!b->pricing || b->pricing->n_catalogs == 0) {
        row_error(s, ctx, row, COL_INSTANCE_TYPE,
                  "unknown instance type %s (no catalog loaded)", shown);
        return;
    }
    printable_name(t, sizeof t, type->p, type->len);
    gp_pricing_suggest(b->pricing, t, near, sizeof near, 3);
    if (near[0])
        row_error(s, ctx, row, COL_INSTANCE_TYPE,
                  "unknown instance type %s (nearest: %s)", shown, near);
    else
        row_error(s, ctx, row, COL_INSTANCE_TYPE,
                  "unknown instance type %s (no similar name in the loaded "
                  "catalogs)",
                  shown);
}

/* Finds (and interns) the pool of the row. */
static bool row_pool(struct shard *s, const gp_trace_builder *b,
                     const struct file_ctx *ctx, const struct row *row,
                     uint32_t *pool)
{
    const struct field *prov = FIELD(row, ctx, COL_PROVIDER);
    const struct field *reg = FIELD(row, ctx, COL_REGION);
    const struct field *type = FIELD(row, ctx, COL_INSTANCE_TYPE);
    char key[sizeof s->last_type_key];
    size_t klen = prov->len + reg->len + type->len + 2;
    uint32_t id;

    if (type->len == 0) {
        row_error(s, ctx, row, COL_INSTANCE_TYPE, "empty; every row needs "
                                                  "an instance type");
        return false;
    }
    /* the longest names the catalogs allow; the key then fits */
    if (type->len > GP_CATALOG_MAX_TYPE_NAME ||
        reg->len > GP_CATALOG_MAX_REGION || prov->len > 15) {
        int col = type->len > GP_CATALOG_MAX_TYPE_NAME
                      ? COL_INSTANCE_TYPE
                      : (reg->len > GP_CATALOG_MAX_REGION ? COL_REGION
                                                          : COL_PROVIDER);
        char shown[SHOWN_SIZE];
        show(shown, FIELD(row, ctx, col));
        row_error(s, ctx, row, col, "too long to be a name: %s", shown);
        return false;
    }
    memcpy(key, prov->p, prov->len);
    key[prov->len] = '\x1f';
    memcpy(key + prov->len + 1, reg->p, reg->len);
    key[prov->len + 1 + reg->len] = '\x1f';
    memcpy(key + prov->len + reg->len + 2, type->p, type->len);
    if (s->last_pool != UINT32_MAX && klen == s->last_type_key_len &&
        gp_same_bytes(key, s->last_type_key, klen)) {
        *pool = s->last_pool;
        return true;
    }
    if (!gp_strmap_get(&s->pool_map, key, klen, &id)) {
        char p[16], r[32], t[64];
        const gp_catalog *cat = NULL;
        bool ambiguous = false;
        const gp_instance_type *it;

        snprintf(p, sizeof p, "%.*s", (int)prov->len, prov->p);
        snprintf(r, sizeof r, "%.*s", (int)reg->len, reg->p);
        snprintf(t, sizeof t, "%.*s", (int)type->len, type->p);
        if (!r[0] && b->opt.region)
            snprintf(r, sizeof r, "%s", b->opt.region);
        if (p[0] && strcmp(p, "aws") != 0 && strcmp(p, "gcp") != 0 &&
            strcmp(p, "azure") != 0) {
            char shown[SHOWN_SIZE];
            show(shown, prov);
            row_error(s, ctx, row, COL_PROVIDER,
                      "unknown provider %s (expected aws, gcp or azure)",
                      shown);
            return false;
        }
        it = gp_pricing_find(b->pricing, p, r, t, &cat, &ambiguous);
        char lower[sizeof r];
        if (!it &&
            gp_pricing_region_upper(b->pricing, r, lower, sizeof lower)) {
            /* the region is what is wrong, not the type */
            char shown[SHOWN_SIZE];
            show_bytes(shown, r, strlen(r), 32);
            row_error(s, ctx, row, COL_REGION,
                      "%s: regions are lower case (write \"%s\")", shown,
                      lower);
            return false;
        }
        if (!it) {
            unresolved_type(s, b, ctx, row, type, p, r, ambiguous);
            return false;
        }
        /* one pool per (catalog, type), whatever spelling found it */
        id = UINT32_MAX;
        for (size_t i = 0; i < s->n_pools; i++)
            if (s->pools[i].catalog == cat && s->pools[i].type == it)
                id = (uint32_t)i;
        if (id == UINT32_MAX) {
            if (gp_grow((void **)&s->pools, &s->cap_pools, s->n_pools + 1,
                        sizeof *s->pools) != GP_OK)
                goto nomem;
            s->pools[s->n_pools].catalog = cat;
            s->pools[s->n_pools].type = it;
            id = (uint32_t)s->n_pools++;
        }
        if (gp_strmap_put(&s->pool_map, key, klen, id) != GP_OK)
            goto nomem;
    }
    memcpy(s->last_type_key, key, klen);
    s->last_type_key_len = klen;
    s->last_pool = id;
    *pool = id;
    return true;
nomem:
    gp_error_set(&s->err, ctx->source, row->line, 0, NULL, "out of memory");
    s->status = GP_ERR_NOMEM;
    return false;
}

/* The hours of clock hour h that [t0, t1) seconds cover. */
static double hour_overlap(double t0, double t1, int64_t h)
{
    double a = t0 > h * 3600.0 ? t0 : h * 3600.0;
    double z = t1 < (h + 1) * 3600.0 ? t1 : (h + 1) * 3600.0;
    return (z - a) / 3600.0;
}

/* Adds x instance-hours to run r's clock hour h.  Hours only grow forward:
 * a run begins at its first row, and add_run extends it only with rows
 * (and shard_merge only with runs) that start no earlier. */
static bool run_hour_add(struct shard_run *r, int64_t h, double x)
{
    if (r->n == 0)
        r->h0 = h;
    size_t k = (size_t)(h - r->h0);
    if (k >= r->n) {
        if (gp_grow((void **)&r->ih, &r->cap, k + 1, sizeof *r->ih) != GP_OK)
            return false;
        memset(r->ih + r->n, 0, (k + 1 - r->n) * sizeof *r->ih);
        r->n = k + 1;
    }
    r->ih[k] += x;
    return true;
}

/* Adds a job run, or extends the job's current one when this row carries
 * on from where it ended (consecutive rows of one job_id).  Returns the
 * run, whose hours the caller fills, or NULL when out of memory. */
static struct shard_run *add_run(struct shard *s, int32_t job, uint32_t series,
                                 double start, double end, double instances,
                                 double instance_hours, bool extend)
{
    int64_t open = s->open_run[job];

    if (extend && open >= 0) {
        struct shard_run *r = &s->runs[open];
        if (r->series == series && start <= r->end + 1e-6 &&
            start >= r->start) {
            if (end > r->end)
                r->end = end;
            if (instances > r->instances)
                r->instances = instances;
            r->instance_hours += instance_hours;
            return r;
        }
    }
    if (gp_grow((void **)&s->runs, &s->cap_runs, s->n_runs + 1,
                sizeof *s->runs) != GP_OK)
        return NULL;
    s->runs[s->n_runs] = (struct shard_run){
        job, series, start, end, instances, instance_hours, NULL, 0, 0, 0};
    s->open_run[job] = (int64_t)s->n_runs;
    return &s->runs[s->n_runs++];
}

/* Times closer than this many seconds are the same time. */
#define SAMPLE_GAP_S 1e-3

/* Whether a sample of job j starting at t0 follows the job's latest one:
 * it starts inside that one (several rows of one job at one time, one per
 * node) or after its end by at most half its length (sampling jitter); a
 * longer gap, or a sample from the past, breaks the run. */
static bool sample_follows(const struct job_idle *j, double t0)
{
    double slack = 0.5 * (j->last_end - j->last_start);
    if (slack < SAMPLE_GAP_S)
        slack = SAMPLE_GAP_S;
    return j->seen && t0 <= j->last_end + slack &&
           t0 >= j->last_start - SAMPLE_GAP_S;
}

/* Drops low runs that were closed short (series UINT32_MAX), keeping the
 * order and the jobs' open-run indexes right. */
static void lows_compact(struct shard *s)
{
    size_t k = 0;

    for (size_t i = 0; i < s->n_lows; i++) {
        if (s->lows[i].series == UINT32_MAX)
            continue;
        struct job_idle *j = &s->job_idle[s->lows[i].job];
        if (j->open == (int64_t)i)
            j->open = (int64_t)k;
        s->lows[k++] = s->lows[i];
    }
    s->n_lows = k;
}

/* Closes job j's open low run; a run shorter than min_s is dropped unless
 * it may carry on a run of an earlier shard (then the merge decides). */
static void low_close(struct shard *s, struct job_idle *j, double min_s)
{
    struct shard_low *r = &s->lows[j->open];

    if (!r->head && r->end - r->start < min_s - SAMPLE_GAP_S) {
        if ((size_t)j->open == s->n_lows - 1)
            s->n_lows--;
        else
            r->series = UINT32_MAX;
    }
    j->open = -1;
}

/*
 * Idle detection (idle.h): follows job `job`'s samples and keeps its runs
 * of consecutive samples with gpu_util below the threshold.  A busy
 * sample, one without gpu_util, a gap or a change of series ends a run.
 * Returns false on allocation failure.
 */
static bool low_track(struct shard *s, const gp_trace_builder *b,
                      int32_t job, uint32_t series, double t0, double t1,
                      double util, double inst_h, double gpu_h)
{
    struct job_idle *j = &s->job_idle[job];
    bool low = util >= 0 && util < b->opt.idle_threshold_pct;
    bool next = sample_follows(j, t0);
    double min_s = b->opt.idle_min_hours * 3600.0;

    if (j->open >= 0) {
        struct shard_low *r = &s->lows[j->open];
        if (low && next && r->series == series) {
            if (t1 > r->end)
                r->end = t1;
            r->instance_hours += inst_h;
            r->gpu_hours += gpu_h;
            r->useful_gpu_hours += gpu_h * util / 100.0;
            goto seen;
        }
        low_close(s, j, min_s);
    }
    if (low) {
        if (s->n_lows == s->cap_lows) {
            /* drop the short runs; keep at least half the room free, so
             * compacting stays rare (amortized constant per row) */
            lows_compact(s);
            if (gp_grow((void **)&s->lows, &s->cap_lows, 2 * s->n_lows + 1,
                        sizeof *s->lows) != GP_OK)
                return false;
        }
        s->lows[s->n_lows] =
            (struct shard_low){job,   series, !j->seen, t0,
                               t1,    inst_h, gpu_h,    gpu_h * util / 100.0};
        j->open = (int64_t)s->n_lows++;
    }
seen:
    j->seen = true;
    j->last_start = t0;
    j->last_end = t1;
    return true;
}

/* Checks that the row's text fields are UTF-8 (SPEC section 2): labels
 * and names go on into the workbook and JSON, which must hold text.
 * Numbers and times need no check: their parsers take ASCII only. */
static bool row_text_is_utf8(struct shard *s, const struct file_ctx *ctx,
                             const struct row *row)
{
    static const int text_columns[] = {
        COL_PROVIDER, COL_REGION,  COL_INSTANCE_TYPE, COL_WORKLOAD,
        COL_JOB_ID,   COL_TEAM,    COL_PROJECT,       COL_INTERRUPTIBLE};
    char shown[SHOWN_SIZE];

    /* nearly every row is ASCII, which the fast path has seen for free
     * (row->ascii); checking each field here cost ingest 5 to 10% */
    if (row->ascii && !ctx->has_nul)
        return true;
    for (size_t i = 0; i < sizeof text_columns / sizeof *text_columns; i++) {
        const struct field *f = FIELD(row, ctx, text_columns[i]);
        size_t bad;
        const char *nul = ctx->has_nul ? memchr(f->p, 0, f->len) : NULL;
        if (nul) {
            /* the name would end there, and the rest be lost */
            show(shown, f);
            row_error(s, ctx, row, text_columns[i],
                      "a NUL byte (byte %zu), got %s", (size_t)(nul - f->p) + 1,
                      shown);
            return false;
        }
        if (gp_utf8_valid(f->p, f->len, &bad))
            continue;
        show(shown, f);
        row_error(s, ctx, row, text_columns[i],
                  "not UTF-8 (byte %zu is \\x%02x), got %s", bad + 1,
                  (unsigned char)f->p[bad], shown);
        return false;
    }
    return true;
}

/* Validates one data row and adds it to the shard.  Returns false with
 * s->err set when the row is bad. */
static bool add_row(struct shard *s, const gp_trace_builder *b,
                    const struct file_ctx *ctx, const struct row *row)
{
    double t0, t1, step, n, gpus = -1, util = -1;
    uint32_t pool;
    gp_workload w = GP_UNLABELED;
    bool interruptible;
    const struct field *f;
    char shown[SHOWN_SIZE];

    if (row->n != ctx->n_header) {
        gp_error_clear(&s->err);
        s->status = gp_csv_check_row_width(ctx->source, row->line, row->n,
                                           ctx->n_header, &s->err);
        return false;
    }
    if (!row_text_is_utf8(s, ctx, row))
        return false;
    if (b->opt.layout == GP_LAYOUT_JOBS) {
        if (!field_time(s, ctx, row, COL_START, &t0) ||
            !field_time(s, ctx, row, COL_END, &t1))
            return false;
        if (t1 <= t0) {
            char start[SHOWN_SIZE];
            show(start, FIELD(row, ctx, COL_START));
            show(shown, FIELD(row, ctx, COL_END));
            row_error(s, ctx, row, COL_END,
                      "must be after start %s, got %s", start, shown);
            return false;
        }
        step = t1 - t0;
    } else {
        if (!field_time(s, ctx, row, COL_TIMESTAMP, &t0))
            return false;
        step = b->opt.default_step_s;
        f = FIELD(row, ctx, COL_STEP_S);
        if (f->len) {
            if (!field_number(s, ctx, row, COL_STEP_S, &step,
                              "a number of seconds"))
                return false;
            if (step <= 0) {
                show(shown, f);
                row_error(s, ctx, row, COL_STEP_S,
                          "must be above 0 seconds, got %s", shown);
                return false;
            }
        }
        t1 = t0 + step;
    }
    if (!row_pool(s, b, ctx, row, &pool))
        return false;
    const gp_instance_type *it = s->pools[pool].type;

    f = FIELD(row, ctx, COL_WORKLOAD);
    if (field_is(f, "training"))
        w = GP_TRAINING;
    else if (field_is(f, "inference"))
        w = GP_INFERENCE;
    else if (f->len) {
        show(shown, f);
        row_error(s, ctx, row, COL_WORKLOAD,
                  "unknown workload %s (expected training, inference or "
                  "empty)",
                  shown);
        return false;
    }

    /* instances, or gpus turned into whole instances; with both, gpus
     * are the GPUs in use on those instances (useful GPU-hours) */
    f = FIELD(row, ctx, COL_GPUS);
    if (f->len) {
        if (!field_number(s, ctx, row, COL_GPUS, &gpus, "a number of GPUs"))
            return false;
        if (gpus < 0) {
            show(shown, f);
            row_error(s, ctx, row, COL_GPUS, "must not be negative, got %s",
                      shown);
            return false;
        }
        if (gpus > GP_TRACE_MAX_ROW_GPUS) {
            show(shown, f);
            row_error(s, ctx, row, COL_GPUS,
                      "must be at most %.0f GPUs, got %s",
                      GP_TRACE_MAX_ROW_GPUS, shown);
            return false;
        }
    }
    f = FIELD(row, ctx, COL_INSTANCES);
    if (f->len) {
        if (!field_number(s, ctx, row, COL_INSTANCES, &n,
                          "a number of instances"))
            return false;
        if (n < 0) {
            show(shown, f);
            row_error(s, ctx, row, COL_INSTANCES, "must not be negative, got %s",
                      shown);
            return false;
        }
        if (n > GP_TRACE_MAX_ROW_INSTANCES) {
            show(shown, f);
            row_error(s, ctx, row, COL_INSTANCES,
                      "must be at most %.0f instances, got %s",
                      GP_TRACE_MAX_ROW_INSTANCES, shown);
            return false;
        }
        if (gpus > n * it->gpus * (1 + 1e-9)) {
            show(shown, FIELD(row, ctx, COL_GPUS));
            row_error(s, ctx, row, COL_GPUS,
                      "must be at most the %g GPUs of %g %s, got %s",
                      n * it->gpus, n, it->name, shown);
            return false;
        }
    } else if (gpus < 0) {
        row_error(s, ctx, row,
                  ctx->colmap[COL_INSTANCES] >= 0 ? COL_INSTANCES : COL_GPUS,
                  "empty; give instances or gpus");
        return false;
    } else {
        n = ceil(gpus / it->gpus - 1e-9);
    }
    if (gpus < 0)
        gpus = n * it->gpus;

    f = FIELD(row, ctx, COL_GPU_UTIL);
    if (f->len) {
        if (!gp_parse_number(f->p, f->len, &util) || util < 0 || util > 100) {
            show(shown, f);
            row_error(s, ctx, row, COL_GPU_UTIL,
                      "expected a percent 0..100, got %s", shown);
            return false;
        }
    }

    f = FIELD(row, ctx, COL_INTERRUPTIBLE);
    if (f->len == 0)
        interruptible = w == GP_TRAINING;
    else if (field_is(f, "true") || field_is(f, "1") || field_is(f, "yes"))
        interruptible = true;
    else if (field_is(f, "false") || field_is(f, "0") || field_is(f, "no"))
        interruptible = false;
    else {
        show(shown, f);
        row_error(s, ctx, row, COL_INTERRUPTIBLE,
                  "expected true or false, got %s", shown);
        return false;
    }

    if (t1 > (double)GP_TIME_LATEST &&
        step / 3600.0 < (double)GP_TRACE_MAX_SPAN_HOURS) {
        /* the end of the row's last clock hour would be in the year 10000
         * (a row of 30 years or more is an error of its own, below) */
        int col = COL_END;
        if (b->opt.layout != GP_LAYOUT_JOBS)
            col = t0 >= (double)GP_TIME_LATEST || ctx->colmap[COL_STEP_S] < 0
                      ? COL_TIMESTAMP
                      : COL_STEP_S;
        show(shown, FIELD(row, ctx, col));
        if (col == COL_END)
            row_error(s, ctx, row, col,
                      "must be at most " GP_TIME_LATEST_WHY ", got %s", shown);
        else if (t0 >= (double)GP_TIME_LATEST)
            row_error(s, ctx, row, col,
                      "must be before " GP_TIME_LATEST_WHY ", got %s", shown);
        else if (col == COL_TIMESTAMP)
            row_error(
                s, ctx, row, col,
                "with a step of %g s the row ends after " GP_TIME_LATEST_WHY
                ", got %s",
                step, shown);
        else {
            char from[32];
            gp_format_time((int64_t)floor(t0), from, sizeof from);
            row_error(s, ctx, row, col,
                      "from %s the row ends after " GP_TIME_LATEST_WHY
                      ", got %s",
                      from, shown);
        }
        return false;
    }
    struct series_key key;
    memset(&key, 0, sizeof key);
    key.pool = pool;
    key.workload = (uint8_t)w;
    key.interruptible = interruptible;
    f = FIELD(row, ctx, COL_TEAM);
    key.team = shard_label_cached(s, 0, f->p, f->len);
    f = FIELD(row, ctx, COL_PROJECT);
    key.project = shard_label_cached(s, 1, f->p, f->len);
    f = FIELD(row, ctx, COL_JOB_ID);
    int32_t job = shard_label_cached(s, 2, f->p, f->len);
    if ((key.team == -1 && FIELD(row, ctx, COL_TEAM)->len) ||
        (key.project == -1 && FIELD(row, ctx, COL_PROJECT)->len) ||
        (job == -1 && f->len))
        goto nomem;
    int64_t sid = shard_series(s, &key);
    if (sid < 0)
        goto nomem;
    struct shard_series *ser = &s->series[sid];

    /* spread over the clock hours [t0, t1) overlaps */
    double hours = step / 3600.0;
    double inst_h = n * hours;
    /* checked in floating point first: a step of 1e40 seconds would not
     * fit the hour numbers below (found by fuzz_trace) */
    /* a row is shorter than GP_TRACE_MAX_SPAN_HOURS (util.h), as the
     * importers check: exactly that many hours is an error too */
    if (!(hours < (double)GP_TRACE_MAX_SPAN_HOURS)) {
        row_error(
            s, ctx, row, b->opt.layout == GP_LAYOUT_JOBS ? COL_END : COL_STEP_S,
            "covers %ld hours (30 years) or more", GP_TRACE_MAX_SPAN_HOURS);
        return false;
    }
    int64_t h = (int64_t)floor(t0 / 3600.0);
    int64_t h_last = gp_last_clock_hour(t0, t1);
    if (h_last - h >= GP_TRACE_MAX_SPAN_HOURS) {
        /* shorter than that, but not starting on the hour: it has a part
         * in one clock hour more than a trace may span */
        char first[32], last[32];
        gp_format_time(h * 3600, first, sizeof first);
        gp_format_time((h_last + 1) * 3600, last, sizeof last);
        row_error(
            s, ctx, row, b->opt.layout == GP_LAYOUT_JOBS ? COL_END : COL_STEP_S,
            "covers parts of %lld clock hours (%s to %s), more than the %ld "
            "(30 years) a trace may span",
            (long long)(h_last - h + 1), first, last, GP_TRACE_MAX_SPAN_HOURS);
        return false;
    }
    int64_t h_first = h;
    for (; h <= h_last; h++) {
        double frac = hour_overlap(t0, t1, h);
        struct cell *c = series_cell(ser, h);
        if (!c) {
            if (ser->n + 1 > GP_TRACE_MAX_SPAN_HOURS ||
                llabs(h - ser->base) >= GP_TRACE_MAX_SPAN_HOURS) {
                row_error(s, ctx, row,
                          b->opt.layout == GP_LAYOUT_JOBS ? COL_START
                                                          : COL_TIMESTAMP,
                          "the trace would span more than %ld hours (30 "
                          "years); is this time right?",
                          GP_TRACE_MAX_SPAN_HOURS);
                return false;
            }
            goto nomem;
        }
        c->instance_hours += n * frac;
        if (util >= 0) {
            c->useful_gpu_hours += gpus * util / 100.0 * frac;
            c->util_gpu_hours += gpus * frac;
        }
    }
    s->instance_hours[w] += inst_h;
    if (!ser->has_start || t0 < ser->start_s) {
        ser->has_start = true;
        ser->start_s = t0;
    }
    /* (end_s is 0 before the first row: every row ends after 1970) */
    if (s->end_s == 0 || t0 < s->start_s)
        s->start_s = t0;
    if (t1 > s->end_s) {
        s->end_s = t1;
        s->end_line = row->line;
    }
    if (util >= 0)
        s->useful_gpu_hours += gpus * util / 100.0 * hours;
    else
        s->gpu_hours_without_util += gpus * hours;
    if (job >= 0) {
        /* the run's hours as the cells above got them */
        struct shard_run *run =
            add_run(s, job, (uint32_t)sid, t0, t1, n, inst_h,
                    b->opt.layout != GP_LAYOUT_JOBS);
        if (!run)
            goto nomem;
        for (h = h_first; h <= h_last; h++)
            if (!run_hour_add(run, h, n * hour_overlap(t0, t1, h)))
                goto nomem;
    }
    if (job >= 0) {
        if (util >= 0)
            ser->job_util = true;
        if (!low_track(s, b, job, (uint32_t)sid, t0, t1, util, inst_h,
                       gpus * hours))
            goto nomem;
    }
    return true;
nomem:
    gp_error_clear(&s->err);
    gp_error_set(&s->err, ctx->source, row->line, 0, NULL, "out of memory");
    s->status = GP_ERR_NOMEM;
    return false;
}

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

static const char *trim(const char *p, size_t *len)
{
    while (*len && (*p == ' ' || *p == '\t')) {
        p++;
        (*len)--;
    }
    while (*len && (p[*len - 1] == ' ' || p[*len - 1] == '\t'))
        (*len)--;
    return p;
}

/* What a range reader reports back. */
struct range_result {
    size_t lines;       /* physical lines read */
    bool in_row;        /* ended inside a quoted row */
    size_t resume_at;   /* where that unfinished row starts */
    long resume_line;   /* and its line number */
};

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
                ok = nf <= MAX_FIELDS && add_row(s, b, ctx, row);
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
            ok = add_row(s, b, ctx, row);
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

/* ---- headers ------------------------------------------------------------ */

struct header_parse {
    struct file_ctx *ctx;
    size_t n;
    bool done, nomem, too_many;
};

static void header_field(void *p, size_t len, void *data)
{
    struct header_parse *h = data;

    if (h->done)
        return;
    if (h->n >= MAX_FIELDS) {
        h->too_many = true;
        return;
    }
    h->ctx->header_names[h->n] = gp_strndup(p, len);
    if (!h->ctx->header_names[h->n])
        h->nomem = true;
    else
        h->n++;
}

static void header_end(int c, void *data)
{
    struct header_parse *h = data;
    (void)c;
    h->done = true;
}

static void file_ctx_free(struct file_ctx *ctx)
{
    for (size_t i = 0; i < ctx->n_header; i++)
        gp_free(ctx->header_names[i]);
    ctx->n_header = 0;
}

/*
 * Reads the header row, maps canonical column names (with --map) to CSV
 * columns and checks the required ones.  Sets *body to the offset of the
 * first data line.
 */
static gp_status read_header(const gp_trace_builder *b, struct file_ctx *ctx,
                             const char *text, size_t len, size_t *body,
                             gp_error *err)
{
    struct csv_parser p;
    struct header_parse h = {ctx, 0, false, false, false};
    size_t pos = 0;

    if (gp_text_bom(ctx->source, text, len, &pos, err) != GP_OK)
        return GP_ERR_INPUT; /* pos: past a UTF-8 byte order mark */
    /* blank lines before the header are skipped (libcsv would skip them
     * too), but errors name the header's own line */
    ctx->header_line = 1;
    for (size_t k = pos; k < len; k++) {
        if (text[k] == '\n') {
            pos = k + 1;
            ctx->header_line++;
        } else if (text[k] != ' ' && text[k] != '\t' && text[k] != '\r') {
            break;
        }
    }
    /* a bare CR would end the header row for libcsv, and the rest of its
     * line would be lost: a file with CR line ends has LFs by now
     * (read_source), and in one with LF or CRLF line ends a CR inside the
     * header is an error */
    bool quoted = false;
    long column = 1;
    for (size_t k = pos; k < len && text[k] != '\n'; k++) {
        if (text[k] == '"')
            quoted = !quoted;
        else if (text[k] == ',' && !quoted)
            column++;
        else if (text[k] == '\r' && !quoted && k + 1 < len &&
                 text[k + 1] != '\n') {
            gp_error_set(err, ctx->source, ctx->header_line, column, NULL,
                         "a carriage return inside the header row, outside "
                         "quotes (the file's first line ends in LF or CRLF, "
                         "so only those end a line: remove it, or quote the "
                         "name)");
            return GP_ERR_INPUT;
        }
    }
    if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL) != 0)
        return GP_ERR_NOMEM;
    while (pos < len && !h.done) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t next = nl ? (size_t)(nl - text) + 1 : len;
        if (csv_parse(&p, text + pos, next - pos, header_field, header_end,
                      &h) != next - pos) {
            bool nomem = csv_error(&p) == CSV_ENOMEM;
            csv_free(&p);
            ctx->n_header = h.n;
            if (nomem)
                return GP_ERR_NOMEM;
            gp_error_set(err, ctx->source, ctx->header_line, 0, NULL,
                         "malformed quoting in the header");
            return GP_ERR_INPUT;
        }
        pos = next;
    }
    if (!h.done)
        csv_fini(&p, header_field, header_end, &h);
    csv_free(&p);
    ctx->n_header = h.n;
    if (h.nomem)
        return GP_ERR_NOMEM;
    if (h.too_many) {
        gp_error_set(err, ctx->source, ctx->header_line, MAX_FIELDS + 1, NULL,
                     "the header has more than %d columns", MAX_FIELDS);
        return GP_ERR_INPUT;
    }
    if (h.n == 0) {
        gp_error_set(err, ctx->source, 1, 0, NULL,
                     "empty file; expected a header row (timestamp, "
                     "instance_type, instances, ...)");
        return GP_ERR_INPUT;
    }
    *body = pos;

    for (int c = 0; c < N_COLUMNS; c++) {
        const char *want = gp_trace_read_column(&b->opt, column_names[c], NULL);
        ctx->colmap[c] = -1;
        for (size_t i = 0; want && i < h.n; i++) {
            size_t nl = strlen(ctx->header_names[i]);
            const char *name = trim(ctx->header_names[i], &nl);
            if (nl == strlen(want) && strncasecmp(name, want, nl) == 0) {
                if (ctx->colmap[c] >= 0) {
                    gp_error_set(err, ctx->source, ctx->header_line,
                                 (long)i + 1, want,
                                 "the column appears twice");
                    return GP_ERR_INPUT;
                }
                ctx->colmap[c] = (int)i;
            }
        }
    }
    /* required columns */
    static const int samples_required[] = {COL_TIMESTAMP, COL_INSTANCE_TYPE};
    static const int jobs_required[] = {COL_START, COL_END,
                                        COL_INSTANCE_TYPE};
    const int *req = b->opt.layout == GP_LAYOUT_JOBS ? jobs_required
                                                     : samples_required;
    size_t n_req = b->opt.layout == GP_LAYOUT_JOBS ? 3 : 2;
    char have[512] = "";
    for (size_t i = 0; i < h.n && strlen(have) < 400; i++) {
        strncat(have, i ? ", " : "", sizeof have - strlen(have) - 1);
        gp_append_escaped(have, sizeof have, ctx->header_names[i],
                          strlen(ctx->header_names[i]));
    }
    /* a --map names a column the user expects: one the file lacks is an
     * error here, not on every row that then lacks the field */
    for (size_t k = 0; k < b->opt.n_map; k++)
        for (int c = 0; c < N_COLUMNS; c++)
            if (strcmp(b->opt.map[k][0], column_names[c]) == 0 &&
                ctx->colmap[c] < 0) {
                char want[128] = "";
                gp_append_escaped(want, sizeof want, b->opt.map[k][1],
                                  strlen(b->opt.map[k][1]));
                gp_error_set(err, ctx->source, ctx->header_line, 0, want,
                             "missing column, named by --map %s=%s (the "
                             "header has: %s)",
                             b->opt.map[k][0], want, have);
                return GP_ERR_INPUT;
            }
    for (size_t k = 0; k < n_req; k++) {
        if (ctx->colmap[req[k]] < 0) {
            const char *name =
                gp_trace_mapped_column(&b->opt, column_names[req[k]]);
            const char *by;
            if (!gp_trace_read_column(&b->opt, column_names[req[k]], &by)) {
                gp_error_set(err, ctx->source, ctx->header_line, 0, name,
                             "missing column: --map %s=%s reads that column "
                             "as %s; name the column that holds %s with "
                             "--map %s=...",
                             by, name, by, name, name);
                return GP_ERR_INPUT;
            }
            gp_error_set(err, ctx->source, ctx->header_line, 0, name,
                         "missing column (the header has: %s)%s", have,
                         b->opt.layout == GP_LAYOUT_SAMPLES &&
                                 req[k] == COL_TIMESTAMP &&
                                 ctx->colmap[COL_START] >= 0
                             ? "; for one row per job use --layout jobs"
                             : "");
            return GP_ERR_INPUT;
        }
    }
    if (ctx->colmap[COL_INSTANCES] < 0 && ctx->colmap[COL_GPUS] < 0) {
        gp_error_set(err, ctx->source, ctx->header_line, 0, "instances",
                     "missing column: give instances or gpus (the header "
                     "has: %s)",
                     have);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* ---- merging shards ------------------------------------------------------ */

/*
 * Adds the low runs of shard `from` (read after `into`) to `into`: a run
 * that began at its job's first sample in `from` joins the job's open run
 * in `into` when it carries it on; then each job's state is `from`'s.
 * Short runs are left for gp_trace_builder_finish to drop.
 */
static bool merge_lows(struct shard *into, struct shard *from,
                       const uint32_t *label_map, const int64_t *series_map)
{
    for (size_t i = 0; i < from->n_lows; i++) {
        const struct shard_low *r = &from->lows[i];
        if (r->series == UINT32_MAX)
            continue;
        int32_t job = (int32_t)label_map[r->job];
        uint32_t series = (uint32_t)series_map[r->series];
        struct job_idle *j = &into->job_idle[job];
        bool open_in_from = from->job_idle[r->job].open == (int64_t)i;
        if (r->head && j->open >= 0 &&
            into->lows[j->open].series == series &&
            sample_follows(j, r->start)) {
            struct shard_low *d = &into->lows[j->open];
            if (r->end > d->end)
                d->end = r->end;
            d->instance_hours += r->instance_hours;
            d->gpu_hours += r->gpu_hours;
            d->useful_gpu_hours += r->useful_gpu_hours;
            if (!open_in_from)
                j->open = -1;
            continue;
        }
        if (gp_grow((void **)&into->lows, &into->cap_lows, into->n_lows + 1,
                    sizeof *into->lows) != GP_OK)
            return false;
        into->lows[into->n_lows] = *r;
        into->lows[into->n_lows].job = job;
        into->lows[into->n_lows].series = series;
        into->lows[into->n_lows].head = false;
        j->open = open_in_from ? (int64_t)into->n_lows : -1;
        into->n_lows++;
    }
    for (size_t k = 0; k < from->n_labels; k++) {
        const struct job_idle *f = &from->job_idle[k];
        struct job_idle *j = &into->job_idle[label_map[k]];
        if (!f->seen)
            continue;
        /* the job's latest sample is in `from`: an open run in `into` that
         * nothing in `from` carried on is over */
        if (f->open < 0)
            j->open = -1;
        j->seen = true;
        j->last_start = f->last_start;
        j->last_end = f->last_end;
    }
    return true;
}

/* Adds shard `from` (read after `into`) to `into`; from is emptied. */
static gp_status shard_merge(struct shard *into, struct shard *from)
{
    uint32_t *pool_map = NULL, *label_map = NULL;
    int64_t *series_map = NULL;
    gp_status st = GP_ERR_NOMEM;

    pool_map = gp_calloc(from->n_pools, sizeof *pool_map);
    label_map = gp_calloc(from->n_labels, sizeof *label_map);
    series_map = gp_calloc(from->n_series, sizeof *series_map);
    if (!pool_map || !label_map || !series_map)
        goto out;
    for (size_t i = 0; i < from->n_pools; i++) {
        size_t j;
        for (j = 0; j < into->n_pools; j++)
            if (into->pools[j].catalog == from->pools[i].catalog &&
                into->pools[j].type == from->pools[i].type)
                break;
        if (j == into->n_pools) {
            if (gp_grow((void **)&into->pools, &into->cap_pools, j + 1,
                        sizeof *into->pools) != GP_OK)
                goto out;
            into->pools[into->n_pools++] = from->pools[i];
        }
        pool_map[i] = (uint32_t)j;
    }
    for (size_t i = 0; i < from->n_labels; i++) {
        int32_t id = shard_label(into, from->labels[i],
                                 strlen(from->labels[i]));
        if (id < 0)
            goto out;
        label_map[i] = (uint32_t)id;
    }
    for (size_t i = 0; i < from->n_series; i++) {
        struct shard_series *fs = &from->series[i];
        struct series_key key;
        memset(&key, 0, sizeof key);
        key.pool = pool_map[fs->pool];
        key.workload = fs->workload;
        key.interruptible = fs->interruptible;
        key.team = fs->team >= 0 ? (int32_t)label_map[fs->team] : -1;
        key.project = fs->project >= 0 ? (int32_t)label_map[fs->project] : -1;
        int64_t sid = shard_series(into, &key);
        if (sid < 0)
            goto out;
        series_map[i] = sid;
        if (fs->job_util)
            into->series[sid].job_util = true;
        if (fs->has_start && (!into->series[sid].has_start ||
                              fs->start_s < into->series[sid].start_s)) {
            into->series[sid].has_start = true;
            into->series[sid].start_s = fs->start_s;
        }
        for (size_t k = 0; k < fs->n; k++) {
            const struct cell *c = &fs->cells[k];
            if (c->instance_hours == 0 && c->util_gpu_hours == 0)
                continue;
            struct cell *d = series_cell(&into->series[sid],
                                         fs->base + (int64_t)k);
            if (!d)
                goto out;
            d->instance_hours += c->instance_hours;
            d->useful_gpu_hours += c->useful_gpu_hours;
            d->util_gpu_hours += c->util_gpu_hours;
        }
    }
    for (size_t i = 0; i < from->n_runs; i++) {
        const struct shard_run *r = &from->runs[i];
        int32_t job = (int32_t)label_map[r->job];
        /* a run cut by the thread boundary joins its first half */
        struct shard_run *to =
            add_run(into, job, (uint32_t)series_map[r->series], r->start,
                    r->end, r->instances, r->instance_hours, true);
        if (!to)
            goto out;
        for (size_t k = 0; k < r->n; k++)
            if (!run_hour_add(to, r->h0 + (int64_t)k, r->ih[k]))
                goto out;
    }
    if (!merge_lows(into, from, label_map, series_map))
        goto out;
    into->rows_read += from->rows_read;
    into->rows_rejected += from->rows_rejected;
    for (int w = 0; w < GP_N_WORKLOADS; w++)
        into->instance_hours[w] += from->instance_hours[w];
    into->useful_gpu_hours += from->useful_gpu_hours;
    into->gpu_hours_without_util += from->gpu_hours_without_util;
    if (from->end_s > 0 && (into->end_s == 0 || from->start_s < into->start_s))
        into->start_s = from->start_s;
    if (from->end_s > into->end_s) {
        into->end_s = from->end_s;
        into->end_line = from->end_line;
    }
    st = GP_OK;
out:
    gp_free(pool_map);
    gp_free(label_map);
    gp_free(series_map);
    return st;
}

/* ---- the builder --------------------------------------------------------- */

void gp_trace_options_init(gp_trace_options *o)
{
    memset(o, 0, sizeof *o);
    o->default_step_s = 3600;
    o->idle_threshold_pct = 5;
    o->idle_min_hours = 2;
}

const char *gp_trace_column_name(size_t i)
{
    return i < N_COLUMNS ? column_names[i] : NULL;
}

const char *gp_trace_mapped_column(const gp_trace_options *opt,
                                   const char *canonical)
{
    for (size_t m = 0; m < opt->n_map; m++)
        if (strcmp(opt->map[m][0], canonical) == 0)
            return opt->map[m][1];
    return canonical;
}

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
    shard_init(&b->main);
    pthread_mutex_init(&b->reject_lock, NULL);
    *out = b;
    return GP_OK;
}

void gp_trace_builder_free(gp_trace_builder *b)
{
    if (!b)
        return;
    shard_free(&b->main);
    for (size_t i = 0; i < b->n_sources; i++)
        gp_free(b->sources[i]);
    gp_free(b->sources);
    pthread_mutex_destroy(&b->reject_lock);
    gp_free(b);
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

static long count_lines(const char *p, size_t n)
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
static gp_status read_body(gp_trace_builder *b, const struct file_ctx *ctx,
                           const char *text, size_t begin, size_t end,
                           long first_line, size_t *resume,
                           long *resume_line, gp_error *err)
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
                shard_init(&shards[i]);
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
            if (st == GP_OK && shard_merge(&b->main, &shards[i]) != GP_OK)
                st = GP_ERR_NOMEM;
            res = w[i].res;
            if (res.in_row)
                res.resume_line += line;
            line += (long)w[i].res.lines;
        }
        for (int i = 1; i < threads; i++)
            shard_free(&shards[i]);
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
                              : first_line + (long)count_lines(text + begin,
                                                               end - begin);
    return GP_OK;
}

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

static gp_status read_source(gp_trace_builder *b, struct source *src,
                             const char *name, gp_error *err)
{
    struct file_ctx ctx;
    size_t body = 0, resume = 0;
    long line = 1;
    gp_status st;
    double end_before = b->main.end_s;

    memset(&ctx, 0, sizeof ctx);
    ctx.source = name;
    if (src->mem) {
        src->buf = (char *)src->mem; /* read only: never written */
        src->len = src->mem_len;
        src->eof = true;
        b->bytes_read += src->mem_len;
        /* CR line ends: a copy with LFs (freed by the caller) */
        char *copy;
        if ((st = gp_text_lf_copy(src->mem, src->mem_len, &copy)) != GP_OK)
            goto out;
        if (copy)
            src->buf = copy;
    } else {
        /* the header must be whole in the first piece */
        do {
            if (!source_fill(src, b))
                goto io;
        } while (!src->eof && !memchr(src->buf, '\n', src->len) &&
                 src->len < CHUNK_BYTES * 4);
    }
    ctx.has_nul = memchr(src->buf, 0, src->len) != NULL;
    st = read_header(b, &ctx, src->buf, src->len, &body, err);
    if (st != GP_OK)
        goto out;
    line = 1 + count_lines(src->buf, body);
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
        ctx.has_nul = ctx.has_nul || memchr(src->buf + body, 0, end - body);
        st = read_body(b, &ctx, src->buf, body, end, line, &resume, &line,
                       err);
        if (st != GP_OK)
            goto out;
        if (src->eof) {
            if (resume < src->len) {
                gp_error_set(err, name, line, 0, NULL,
                             "the file ends inside a quoted field (a closing "
                             "quote is missing)");
                st = GP_ERR_INPUT;
            }
            goto out;
        }
        /* carry the unread tail (a part line or an unfinished quoted row)
         * to the front and read on */
        memmove(src->buf, src->buf + resume, src->len - resume);
        src->len -= resume;
        if (src->cr_lines == 1)
            src->cr_done -= resume;
        body = 0;
        if (!source_fill(src, b))
            goto io;
    }
io:
    gp_error_set(err, name, 0, 0, NULL, "cannot read: %s", strerror(errno));
    st = GP_ERR_IO;
out:
    if (st == GP_OK)
        st = add_source(b, name);
    /* this file holds the row that ends last so far */
    if (st == GP_OK && b->main.end_s > end_before)
        row_position(&ctx, b->main.end_line,
                     b->opt.layout == GP_LAYOUT_JOBS ? COL_END : COL_TIMESTAMP,
                     &b->end_row);
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, name, 0, 0, NULL, "out of memory");
    file_ctx_free(&ctx);
    return st;
}

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

int gp_series_cmp(const gp_trace *t, const gp_series *x, const gp_series *y)
{
    if (x->pool != y->pool)
        return x->pool < y->pool ? -1 : 1;
    if (x->workload != y->workload)
        return x->workload < y->workload ? -1 : 1;
    if (x->interruptible != y->interruptible)
        return x->interruptible ? 1 : -1;
    const char *tx = x->team >= 0 ? t->labels[x->team] : "";
    const char *ty = y->team >= 0 ? t->labels[y->team] : "";
    int c = strcmp(tx, ty);
    if (c)
        return c;
    tx = x->project >= 0 ? t->labels[x->project] : "";
    ty = y->project >= 0 ? t->labels[y->project] : "";
    return strcmp(tx, ty);
}

/* Orders series indices by gp_series_cmp for stable output; sort_trace
 * holds the series and their labels (qsort has no context) and is
 * thread-local, so two threads finishing traces at once keep to their
 * own.  Ties, which the builder's one series per key rules out, fall back
 * to the index. */
static _Thread_local const gp_trace *sort_trace;
static int series_index_cmp(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    int c = gp_series_cmp(sort_trace, &sort_trace->series[i],
                          &sort_trace->series[j]);
    return c ? c : (i > j) - (i < j);
}

static int pool_cmp(const void *a, const void *b)
{
    const gp_pool *x = a, *y = b;
    int c = strcmp(x->catalog->provider, y->catalog->provider);
    if (!c)
        c = strcmp(x->catalog->region, y->catalog->region);
    if (!c)
        c = strcmp(x->type->name, y->type->name);
    return c;
}

/* The files read, for a message about all of them: "a.csv, b.csv" (at
 * most three and a count of the rest). */
static void sources_list(const gp_trace_builder *b, char *buf, size_t size)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < b->n_sources && i < 3 && used < size; i++) {
        int w = snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
                         b->sources[i]);
        if (w > 0)
            used += (size_t)w;
    }
    if (b->n_sources > 3 && used < size)
        snprintf(buf + used, size - used, " and %zu more", b->n_sources - 3);
}

/* The error for a trace without a row to use: it names the file when there
 * is one, and says when bad rows were all there was. */
static void no_data_rows(const gp_trace_builder *b, gp_error *err)
{
    char left[96] = "";
    const struct shard *s = &b->main;

    if (s->rows_rejected)
        snprintf(left, sizeof left, " left after rejecting %llu bad %s",
                 (unsigned long long)s->rows_rejected,
                 gp_plural(s->rows_rejected, "row", "rows"));
    if (b->n_sources == 1) {
        gp_error_set(err, b->sources[0], 0, 0, NULL, "no data rows%s", left);
    } else if (b->n_sources > 1) {
        char names[256];
        sources_list(b, names, sizeof names);
        gp_error_set(err, NULL, 0, 0, NULL,
                     "the traces (%s) have no data rows%s", names, left);
    } else {
        gp_error_set(err, NULL, 0, 0, NULL, "no trace was read");
    }
}

/* The error for series that together span more than GP_TRACE_MAX_SPAN_HOURS
 * (clock hours [lo, hi)). */
static void span_too_long(const gp_trace_builder *b, int64_t lo, int64_t hi,
                          gp_error *err)
{
    char first[32], last[32];

    gp_format_time(lo * 3600, first, sizeof first);
    gp_format_time(hi * 3600, last, sizeof last);
    if (b->n_sources == 1) {
        gp_error_set(err, b->sources[0], 0, 0, NULL,
                     "the trace spans %s to %s, more than 30 years; is a "
                     "timestamp wrong?",
                     first, last);
    } else {
        char names[256];
        sources_list(b, names, sizeof names);
        gp_error_set(err, NULL, 0, 0, NULL,
                     "the traces (%s) span %s to %s, more than 30 years; is "
                     "a timestamp wrong?",
                     names, first, last);
    }
}

gp_status gp_trace_builder_finish(gp_trace_builder *b, gp_trace **out,
                                  gp_error *err)
{
    struct shard *s = &b->main;
    gp_trace *t = gp_calloc(1, sizeof *t);
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    uint32_t *pool_order = NULL;

    *out = NULL;
    if (!t)
        goto nomem;
    if (s->rows_read == s->rows_rejected) {
        no_data_rows(b, err);
        gp_trace_free(t);
        gp_trace_builder_free(b);
        return GP_ERR_INPUT;
    }
    for (size_t i = 0; i < s->n_series; i++) {
        const struct shard_series *ser = &s->series[i];
        if (ser->n == 0)
            continue;
        if (ser->base < lo)
            lo = ser->base;
        if (ser->base + (int64_t)ser->n > hi)
            hi = ser->base + (int64_t)ser->n;
    }
    if (lo == INT64_MAX) {
        lo = hi = 0;
    } else if (hi - lo > GP_TRACE_MAX_SPAN_HOURS) {
        /* each series is within the bound (rows past it are rejected where
         * they are read), so the times are in different series: which one
         * is wrong cannot be known, so say what was found */
        span_too_long(b, lo, hi, err);
        gp_trace_free(t);
        gp_trace_builder_free(b);
        return GP_ERR_INPUT;
    }
    t->start_hour = lo;
    t->n_hours = (size_t)(hi - lo);
    t->start_s = s->start_s;
    t->end_s = s->end_s;
    t->end_row = b->end_row;

    /* pools in name order (memcpy and qsort only with n > 0: with
     * nothing read their source pointers may be NULL) */
    t->pools = gp_calloc(s->n_pools, sizeof *t->pools);
    pool_order = gp_calloc(s->n_pools, sizeof *pool_order);
    if (!t->pools || !pool_order)
        goto nomem;
    if (s->n_pools > 0) {
        memcpy(t->pools, s->pools, s->n_pools * sizeof *t->pools);
        qsort(t->pools, s->n_pools, sizeof *t->pools, pool_cmp);
    }
    t->n_pools = s->n_pools;
    for (size_t i = 0; i < s->n_pools; i++)
        for (size_t j = 0; j < t->n_pools; j++)
            if (t->pools[j].type == s->pools[i].type &&
                t->pools[j].catalog == s->pools[i].catalog)
                pool_order[i] = (uint32_t)j;

    /* labels move over as they are */
    t->labels = s->labels;
    t->n_labels = s->n_labels;
    s->labels = NULL;
    s->n_labels = 0;

    t->series = gp_calloc(s->n_series, sizeof *t->series);
    if (!t->series)
        goto nomem;
    for (size_t i = 0; i < s->n_series; i++) {
        const struct shard_series *src = &s->series[i];
        gp_series *d = &t->series[t->n_series++];
        d->pool = pool_order[src->pool];
        d->workload = (gp_workload)src->workload;
        d->team = src->team;
        d->project = src->project;
        d->interruptible = src->interruptible;
        d->job_util = src->job_util;
        d->start_s = src->has_start ? src->start_s : 0;
        d->instance_hours = gp_calloc(t->n_hours, sizeof(double));
        d->useful_gpu_hours = gp_calloc(t->n_hours, sizeof(double));
        d->util_gpu_hours = gp_calloc(t->n_hours, sizeof(double));
        if (!d->instance_hours || !d->useful_gpu_hours || !d->util_gpu_hours)
            goto nomem;
        for (size_t k = 0; k < src->n; k++) {
            size_t h = (size_t)(src->base - lo) + k;
            d->instance_hours[h] = src->cells[k].instance_hours;
            d->useful_gpu_hours[h] = src->cells[k].useful_gpu_hours;
            d->util_gpu_hours[h] = src->cells[k].util_gpu_hours;
        }
    }
    /* runs keep pointing at their series; sort series and remap */
    {
        uint32_t *order = gp_calloc(t->n_series, sizeof *order);
        gp_series *sorted = gp_calloc(t->n_series, sizeof *sorted);
        uint32_t *where = gp_calloc(t->n_series, sizeof *where);
        if (!order || !sorted || !where) {
            gp_free(order);
            gp_free(sorted);
            gp_free(where);
            goto nomem;
        }
        /* sort the indices: sorted[j] is old series order[j], and old
         * series i goes to where[i] */
        for (size_t i = 0; i < t->n_series; i++)
            order[i] = (uint32_t)i;
        if (t->n_series > 0) {
            sort_trace = t;
            qsort(order, t->n_series, sizeof *order, series_index_cmp);
        }
        for (size_t j = 0; j < t->n_series; j++) {
            sorted[j] = t->series[order[j]];
            where[order[j]] = (uint32_t)j;
        }
        gp_free(t->series);
        t->series = sorted;
        size_t run_hours = 0;
        for (size_t i = 0; i < s->n_runs; i++)
            run_hours += s->runs[i].n;
        t->runs = gp_calloc(s->n_runs, sizeof *t->runs);
        t->run_hours = gp_calloc(run_hours + 1, sizeof *t->run_hours);
        if (!t->runs || !t->run_hours) {
            gp_free(order);
            gp_free(where);
            goto nomem;
        }
        run_hours = 0;
        for (size_t i = 0; i < s->n_runs; i++) {
            const struct shard_run *r = &s->runs[i];
            double *ih = t->run_hours + run_hours;
            if (r->n)
                memcpy(ih, r->ih, r->n * sizeof *ih);
            run_hours += r->n;
            t->runs[i] = (gp_job_run){r->job,
                                      where[r->series],
                                      (int64_t)floor(r->start),
                                      (int64_t)ceil(r->end),
                                      r->instances,
                                      r->instance_hours,
                                      r->h0,
                                      r->n,
                                      ih};
        }
        t->n_runs = s->n_runs;
        /* the low runs that last long enough to be idle spans */
        t->idle_threshold_pct = b->opt.idle_threshold_pct;
        t->idle_min_hours = b->opt.idle_min_hours;
        t->low_util = gp_calloc(s->n_lows + 1, sizeof *t->low_util);
        if (!t->low_util) {
            gp_free(order);
            gp_free(where);
            goto nomem;
        }
        for (size_t i = 0; i < s->n_lows; i++) {
            const struct shard_low *r = &s->lows[i];
            if (r->series == UINT32_MAX ||
                r->end - r->start <
                    b->opt.idle_min_hours * 3600.0 - SAMPLE_GAP_S)
                continue;
            t->low_util[t->n_low_util++] = (gp_low_util_run){
                r->job,          where[r->series], r->start,
                r->end,          r->instance_hours, r->gpu_hours,
                r->useful_gpu_hours};
        }
        gp_free(order);
        gp_free(where);
    }
    t->rows_read = s->rows_read;
    t->rows_rejected = s->rows_rejected;
    t->bytes_read = b->bytes_read;
    memcpy(t->instance_hours, s->instance_hours, sizeof t->instance_hours);
    t->useful_gpu_hours = s->useful_gpu_hours;
    t->gpu_hours_without_util = s->gpu_hours_without_util;
    t->sources = b->sources;
    t->n_sources = b->n_sources;
    b->sources = NULL;
    b->n_sources = 0;
    gp_free(pool_order);
    gp_trace_builder_free(b);
    *out = t;
    return GP_OK;
nomem:
    gp_free(pool_order);
    gp_trace_free(t);
    gp_trace_builder_free(b);
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

void gp_trace_free(gp_trace *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_series; i++) {
        gp_free(t->series[i].instance_hours);
        gp_free(t->series[i].useful_gpu_hours);
        gp_free(t->series[i].util_gpu_hours);
    }
    gp_free(t->series);
    gp_free(t->pools);
    for (size_t i = 0; i < t->n_labels; i++)
        gp_free(t->labels[i]);
    gp_free(t->labels);
    gp_free(t->runs);
    gp_free(t->run_hours);
    gp_free(t->low_util);
    for (size_t i = 0; i < t->n_sources; i++)
        gp_free(t->sources[i]);
    gp_free(t->sources);
    gp_free(t);
}

void gp_trace_pool_name(const gp_trace *t, size_t p, char *buf, size_t size)
{
    const gp_pool *pool = &t->pools[p];
    if (pool->catalog && pool->type)
        snprintf(buf, size, "%s/%s/%s", pool->catalog->provider,
                 pool->catalog->region, pool->type->name);
    else
        snprintf(buf, size, "pool %zu", p);
}

double gp_trace_pool_demand(const gp_trace *t, size_t pool, gp_workload w,
                            size_t h)
{
    double sum = 0;
    for (size_t i = 0; i < t->n_series; i++)
        if (t->series[i].pool == pool && t->series[i].workload == w)
            sum += t->series[i].instance_hours[h];
    return sum;
}

double gp_trace_util_gpu_hours(const gp_trace *t)
{
    double sum = 0;
    for (size_t i = 0; i < t->n_series; i++)
        for (size_t h = 0; h < t->n_hours; h++)
            sum += t->series[i].util_gpu_hours[h];
    return sum;
}
