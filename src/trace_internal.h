/*
 * trace_internal.h: what the pieces of trace ingest share (not a public
 * header): the canonical columns, a shard (what one thread accumulates),
 * the context of the file being read, and the functions the files call of
 * each other.  docs/design/trace.md says how the pieces fit.
 */
#ifndef GP_TRACE_INTERNAL_H
#define GP_TRACE_INTERNAL_H

#include "source.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>

/* The most fields a row (and columns a header) may have. */
#define MAX_FIELDS 256

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

/* The canonical column names, by enum column (trace.c). */
extern const char *const gp_trace_column_names[N_COLUMNS];

/* The GPU-hours of one clock hour of one series that came with a
 * gpu_util, while reading. */
struct util_cell {
    double useful_gpu_hours;
    double util_gpu_hours;
};

struct shard_series {
    uint32_t pool;
    uint8_t workload;
    uint8_t interruptible;
    int32_t team, project;
    bool job_util; /* a row had a job_id and a gpu_util */
    bool said_not_interruptible; /* a row said interruptible=false */
    /* the earliest start of a row of it (seconds), when has_start */
    bool has_start;
    double start_s;
    int64_t base; /* clock hour of ih[0] */
    size_t n, cap;
    double *ih; /* instance-hours of each clock hour from base */
    /* and their GPU-hours with a gpu_util, as long as ih; NULL until a
     * row brings a gpu_util, so a trace without one keeps a third */
    struct util_cell *uc;
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

/* What a row's text fields (its names, workload, interruptible and
 * labels) resolve to in a shard, as the memo keeps it (trace_shard.c). */
struct row_labels {
    uint32_t pool;
    gp_workload w;
    bool interruptible;
    bool said_not_interruptible; /* in so many words, not by default */
    int32_t job;                 /* its job label, or -1 */
    int64_t sid;                 /* its series */
};

/* The longest memo key: the text fields, each a byte of its length and
 * its bytes, in whole words; a row with longer ones is read without the
 * memo. */
#define GP_TRACE_MEMO_KEY_WORDS 14

struct memo_key {
    uint64_t hash;
    size_t words;
    /* and 16 bytes of room, for whole-word copies past the last field */
    uint64_t w[GP_TRACE_MEMO_KEY_WORDS + 2];
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
    /* by pool: the series its last row went to, or -1 (a cache that
     * spares most rows the series map) */
    int64_t *pool_series;
    size_t cap_pool_series;
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
    struct gp_trace_memo *memo; /* NULL until a row is memoised */
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
    /* the previous row's start, end and step as written, and what they
     * read as (the rows of one sampling time share them): len 0 is none */
    struct {
        char text[40];
        size_t len;
        double value;
    } last_read[3];

    /* error state: first error of this shard (line relative to its range) */
    gp_error err;
    gp_status status;
    /* the error depends on other rows (reading the row alone again
     * would not find it): a rejected row keeps its message */
    bool err_kept;
    /* rows rejected while reading, kept in file order until the reader
     * knows their absolute line numbers (a scratch file of compact
     * records, so memory does not grow with bad rows: trace_read.c) */
    FILE *rejects;
};

/* What reading one file needs to know; shared read-only by the threads. */
struct file_ctx {
    const char *source;
    int colmap[N_COLUMNS]; /* CSV column (0-based) of each, or -1 */
    size_t n_header;       /* fields in the header row */
    long header_line;      /* line the header starts on (after blank ones) */
    char *header_names[MAX_FIELDS];
    bool mapped; /* the text is a file mapped into memory (trace_ranges.c
                  * releases the pages it is done with) */
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

/* Field `col` of the row, or an empty one when the header lacks it. */
#define FIELD(row, ctx, col)                                                  \
    ((ctx)->colmap[col] >= 0 ? &(row)->f[(ctx)->colmap[col]]                  \
                             : &gp_trace_empty_field)
extern const struct field gp_trace_empty_field; /* trace_rows.c */

struct row {
    long line;
    struct field f[MAX_FIELDS];
    size_t n;
    bool ascii; /* every byte is ASCII, as the fast path saw; false: unknown */
    bool nul_near; /* its range of text holds a NUL byte somewhere: text
                    * fields are checked for one */
    const char *end; /* the fields' bytes may be read up to here */
};

/* What a range reader reports back. */
struct range_result {
    size_t lines;       /* physical lines read */
    bool in_row;        /* ended inside a quoted row */
    size_t resume_at;   /* where that unfinished row starts */
    long resume_line;   /* and its line number */
};

/* Times closer than this many seconds are the same time. */
#define SAMPLE_GAP_S 1e-3

/* Room for a shown value: 64 bytes that may each become "\xNN", the
 * quotes, "..." and the NUL. */
#define SHOWN_SIZE (64 * 4 + 8)

/* Trims spaces and tabs around p[0, *len), as libcsv does. */
static inline const char *trim(const char *p, size_t *len)
{
    while (*len && (*p == ' ' || *p == '\t')) {
        p++;
        (*len)--;
    }
    while (*len && (p[*len - 1] == ' ' || p[*len - 1] == '\t'))
        (*len)--;
    return p;
}

/* Whether a sample of job j starting at t0 follows the job's latest one:
 * it starts inside that one (several rows of one job at one time, one per
 * node) or after its end by at most half its length (sampling jitter); a
 * longer gap, or a sample from the past, breaks the run. */
static inline bool sample_follows(const struct job_idle *j, double t0)
{
    double slack = 0.5 * (j->last_end - j->last_start);
    if (slack < SAMPLE_GAP_S)
        slack = SAMPLE_GAP_S;
    return j->seen && t0 <= j->last_end + slack &&
           t0 >= j->last_start - SAMPLE_GAP_S;
}

/* ---- shards and rows (trace_shard.c, trace_rows.c) --------------------- */

/* An empty shard, and freeing everything one holds (it is then empty). */
void gp_trace_shard_init(struct shard *s);
void gp_trace_shard_free(struct shard *s);
/* Interns a label; returns its index or -1 on allocation failure. */
/* gp_trace_shard_label's answer for a label no report may show. */
#define GP_TRACE_BAD_LABEL (-3)
int32_t gp_trace_shard_label(struct shard *s, const char *p, size_t len);
/* The index of the series with `key`, added when new; -1 when out of
 * memory. */
int64_t gp_trace_shard_series(struct shard *s, const struct series_key *key);
/* The index into ih (and uc, made when `util`) of clock hour `hour` of a
 * series, growing its span; -1 on allocation failure or past
 * GP_TRACE_MAX_SPAN_HOURS. */
int64_t gp_trace_series_hour(struct shard_series *ser, int64_t hour, bool util);
/* Adds x instance-hours to run r's clock hour h (hours only grow
 * forward); false when out of memory. */
bool gp_trace_run_hour_add(struct shard_run *r, int64_t h, double x);
/* Adds a job run or extends the job's open one (with `extend`); NULL when
 * out of memory. */
struct shard_run *gp_trace_add_run(struct shard *s, int32_t job,
                                   uint32_t series, double start, double end,
                                   double instances, double instance_hours,
                                   bool extend);
/* The memo of rows' text fields (trace_shard.c): the row's key, false
 * when a field is too long to memoise; what a key resolved to in the
 * shard, false when the memo does not hold it; and keeping it, false
 * when out of memory. */
bool gp_trace_memo_key(const struct file_ctx *ctx, const struct row *row,
                       struct memo_key *k);
bool gp_trace_memo_get(const struct shard *s, const struct memo_key *k,
                       struct row_labels *out);
bool gp_trace_memo_put(struct shard *s, const struct memo_key *k,
                       const struct row_labels *labels);
/* Validates one data row and adds it to the shard; false with s->err set
 * when the row is bad. */
bool gp_trace_add_row(struct shard *s, const gp_trace_builder *b,
                      const struct file_ctx *ctx, const struct row *row);

/* ---- messages about rows (trace_errors.c) ------------------------------ */

/* Sets the shard's error (GP_ERR_INPUT) for column `col` of the row (-1:
 * no column). */
void gp_trace_row_error(struct shard *s, const struct file_ctx *ctx,
                        const struct row *row, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
/* Sets *at to column `col` of the row on `line`, as gp_trace_row_error
 * names it, with no message. */
void gp_trace_row_position(const struct file_ctx *ctx, long line, int col,
                           gp_error *at);
/* Quotes p[0, len) (or a field) for a message into buf (SHOWN_SIZE),
 * escaped and cut after `max` bytes (40 for a field). */
void gp_trace_show_bytes(char *buf, const char *p, size_t len, size_t max);
void gp_trace_show(char *buf, const struct field *f);

/* ---- pools (trace_pool.c) ---------------------------------------------- */

/* Finds the pool of a row whose key (provider, region and type joined by
 * \x1f) the shard's pool map lacks, and adds it there; false with the
 * shard's error set when no catalog prices the type or out of memory. */
bool gp_trace_pool_resolve(struct shard *s, const gp_trace_builder *b,
                           const struct file_ctx *ctx, const struct row *row,
                           const char *key, size_t klen, uint32_t *pool);

/* ---- reading ranges of lines (trace_read.c, trace_ranges.c) ------------ */

/* Reads the lines of text[begin, end) into shard s, its first line
 * numbered first_line; with keep_rejects bad rows are kept and reading goes
 * on, else the first stops it.  res says how many lines were read, and
 * where a row whose quoted field runs past `end` starts. */
void gp_trace_read_range(gp_trace_builder *b, struct shard *s,
                         const struct file_ctx *ctx, const char *text,
                         size_t begin, size_t end, long first_line,
                         bool keep_rejects, struct range_result *res);
/* Hands the rows shard s rejected to the user's callback, their lines
 * moved by line_offset, and empties its scratch file. */
gp_status gp_trace_flush_rejects(gp_trace_builder *b,
                                 const struct file_ctx *ctx, const char *text,
                                 struct shard *s, long line_offset);
/* Reads text[begin, end) in ranges on up to `threads` threads, merged into
 * b->main in file order; *res is what the last range reports and
 * *end_line the line after the last one read. */
gp_status gp_trace_read_ranges(gp_trace_builder *b, const struct file_ctx *ctx,
                               const char *text, size_t begin, size_t end,
                               long first_line, int threads,
                               struct range_result *res, long *end_line);

/* Reads the data rows in text[begin, end) into b->main, in parallel when
 * the range is large; *resume and *resume_line say where to go on. */
gp_status gp_trace_read_body(gp_trace_builder *b, const struct file_ctx *ctx,
                             const char *text, size_t begin, size_t end,
                             long first_line, size_t *resume, long *resume_line,
                             gp_error *err);

/* ---- headers (trace_header.c) ------------------------------------------ */

/* Reads the header row into ctx and checks it, from text offset *body
 * (past a byte order mark); *body is then the offset of the first data
 * line.  gp_trace_file_ctx_free frees the names it kept. */
gp_status gp_trace_read_header(const gp_trace_builder *b, struct file_ctx *ctx,
                               const char *text, size_t len, size_t *body,
                               gp_error *err);
void gp_trace_file_ctx_free(struct file_ctx *ctx);

/* ---- merging shards (trace_merge.c) ------------------------------------ */

/* Adds shard `from` (read after `into`) to `into`; the caller then frees
 * `from`. */
gp_status gp_trace_shard_merge(struct shard *into, struct shard *from);

#endif
