/*
 * trace_rows.c: the shards a thread fills and the rows it adds to them:
 * each data row is checked, resolved to its pool and series, and spread
 * over the clock hours it overlaps (the hot path of trace ingest).
 */
#include "csv_rows.h"
#include "safe_text.h"
#include "trace_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The field FIELD gives for a column the header lacks. */
const struct field gp_trace_empty_field = {"", 0};

/* ---- rows --------------------------------------------------------------- */

/* Interns a label through the one-entry cache of column `slot`. */
static int32_t shard_label_cached(struct shard *s, int slot, const char *p,
                                  size_t len)
{
    if (len == 0)
        return -1;
    if (s->last_label_id[slot] >= 0 && s->last_label_len[slot] == len &&
        gp_same_bytes(s->last_label[slot], p, len))
        return s->last_label_id[slot];
    int32_t id = gp_trace_shard_label(s, p, len);
    if (id >= 0 && len < sizeof s->last_label[slot]) {
        memcpy(s->last_label[slot], p, len);
        s->last_label_len[slot] = len;
        s->last_label_id[slot] = id;
    }
    return id;
}

/* Reads column `col` of the row as a number into *out; else sets the
 * error "expected <what>, got ...". */
static bool field_number(struct shard *s, const struct file_ctx *ctx,
                         const struct row *row, int col, double *out,
                         const char *what)
{
    const struct field *f = FIELD(row, ctx, col);
    char shown[SHOWN_SIZE];

    if (gp_parse_number(f->p, f->len, out))
        return true;
    gp_trace_show(shown, f);
    gp_trace_row_error(s, ctx, row, col, "expected %s, got %s", what, shown);
    return false;
}

/* Whether field f is what the shard's slot `k` of last_read holds; then
 * *out is its value. */
static bool field_was_read(const struct shard *s, int k, const struct field *f,
                           double *out)
{
    if (f->len == 0 || f->len != s->last_read[k].len ||
        memcmp(f->p, s->last_read[k].text, f->len) != 0)
        return false;
    *out = s->last_read[k].value;
    return true;
}

/* Keeps field f's value in the shard's slot `k` of last_read. */
static void field_read(struct shard *s, int k, const struct field *f,
                       double value)
{
    if (f->len > sizeof s->last_read[k].text)
        return;
    memcpy(s->last_read[k].text, f->p, f->len);
    s->last_read[k].len = f->len;
    s->last_read[k].value = value;
}

/* Reads column `col` of the row as a time (epoch seconds) into *out; else
 * sets the error the time parser gives.  `k` is its last_read slot. */
static bool field_time(struct shard *s, const struct file_ctx *ctx,
                       const struct row *row, int col, int k, double *out)
{
    const struct field *f = FIELD(row, ctx, col);
    const char *why;
    char shown[SHOWN_SIZE];

    if (field_was_read(s, k, f, out))
        return true;
    if (gp_parse_time(f->p, f->len, out, &why)) {
        field_read(s, k, f, *out);
        return true;
    }
    gp_trace_show(shown, f);
    gp_trace_row_error(s, ctx, row, col, "%s, got %s", why, shown);
    return false;
}

/* Whether the field is `word`, ignoring case. */
static bool field_is(const struct field *f, const char *word)
{
    size_t n = strlen(word);
    return f->len == n && strncasecmp(f->p, word, n) == 0;
}

/* Finds (and interns) the pool of the row: the previous row's when the
 * key is the same, else the shard's pool map's, else the one
 * gp_trace_pool_resolve finds. */
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

    if (type->len == 0 && !b->opt.instance_type) {
        gp_trace_row_error(s, ctx, row, COL_INSTANCE_TYPE,
                           "empty; every row needs an instance type");
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
        gp_trace_show(shown, FIELD(row, ctx, col));
        gp_trace_row_error(s, ctx, row, col, "too long to be a name: %s",
                           shown);
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
    if (!gp_strmap_get(&s->pool_map, key, klen, &id) &&
        !gp_trace_pool_resolve(s, b, ctx, row, key, klen, &id))
        return false;
    memcpy(s->last_type_key, key, klen);
    s->last_type_key_len = klen;
    s->last_pool = id;
    *pool = id;
    return true;
}

/* The hours of clock hour h that [t0, t1) seconds cover. */
static double hour_overlap(double t0, double t1, int64_t h)
{
    double a = t0 > h * 3600.0 ? t0 : h * 3600.0;
    double z = t1 < (h + 1) * 3600.0 ? t1 : (h + 1) * 3600.0;
    return (z - a) / 3600.0;
}

/* Adds x instance-hours to run r's clock hour h.  Hours only grow forward:
 * a run begins at its first row, and gp_trace_add_run extends it only with rows
 * (and gp_trace_shard_merge only with runs) that start no earlier. */
bool gp_trace_run_hour_add(struct shard_run *r, int64_t h, double x)
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
struct shard_run *gp_trace_add_run(struct shard *s, int32_t job,
                                   uint32_t series, double start, double end,
                                   double instances, double instance_hours,
                                   bool extend)
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
    if (row->ascii && !row->nul_near)
        return true;
    for (size_t i = 0; i < sizeof text_columns / sizeof *text_columns; i++) {
        const struct field *f = FIELD(row, ctx, text_columns[i]);
        size_t bad;
        const char *nul = row->nul_near ? memchr(f->p, 0, f->len) : NULL;
        if (nul) {
            /* the name would end there, and the rest be lost */
            gp_trace_show(shown, f);
            gp_trace_row_error(s, ctx, row, text_columns[i],
                               "a NUL byte (byte %zu), got %s",
                               (size_t)(nul - f->p) + 1, shown);
            return false;
        }
        if (gp_utf8_valid(f->p, f->len, &bad))
            continue;
        gp_trace_show(shown, f);
        gp_trace_row_error(s, ctx, row, text_columns[i],
                           "not UTF-8 (byte %zu is \\x%02x), got %s", bad + 1,
                           (unsigned char)f->p[bad], shown);
        return false;
    }
    return true;
}

/* What gp_trace_add_row has read of a row, passed between its steps. */
struct row_values {
    double t0, t1, step; /* the row's period (seconds) and its length */
    double n;            /* instances */
    double gpus, util;   /* GPUs in use and gpu_util; -1 until read */
    struct row_labels lab; /* its pool, workload, labels and series */
    double hours, inst_h; /* its length in hours, and its instance-hours */
    int64_t h_first, h_last; /* the clock hours it has a part in */
};

/* Sets the shard's error to "out of memory" at the row; returns false. */
static bool row_nomem(struct shard *s, const struct file_ctx *ctx,
                      const struct row *row)
{
    gp_error_clear(&s->err);
    gp_error_set(&s->err, ctx->source, row->line, 0, NULL, "out of memory");
    s->status = GP_ERR_NOMEM;
    return false;
}

/* Reads the row's period into v: start and end (the jobs layout), or a
 * timestamp and a step (step_s, else the default step). */
static bool row_period(struct shard *s, const gp_trace_builder *b,
                       const struct file_ctx *ctx, const struct row *row,
                       struct row_values *v)
{
    const struct field *f;
    char shown[SHOWN_SIZE];

    if (b->opt.layout == GP_LAYOUT_JOBS) {
        if (!field_time(s, ctx, row, COL_START, 0, &v->t0) ||
            !field_time(s, ctx, row, COL_END, 1, &v->t1))
            return false;
        if (v->t1 <= v->t0) {
            char start[SHOWN_SIZE];
            gp_trace_show(start, FIELD(row, ctx, COL_START));
            gp_trace_show(shown, FIELD(row, ctx, COL_END));
            gp_trace_row_error(s, ctx, row, COL_END,
                               "must be after start %s, got %s", start, shown);
            return false;
        }
        v->step = v->t1 - v->t0;
    } else {
        if (!field_time(s, ctx, row, COL_TIMESTAMP, 0, &v->t0))
            return false;
        v->step = b->opt.default_step_s;
        f = FIELD(row, ctx, COL_STEP_S);
        if (f->len && !field_was_read(s, 2, f, &v->step)) {
            if (!field_number(s, ctx, row, COL_STEP_S, &v->step,
                              "a number of seconds"))
                return false;
            /* a millisecond at least: a step of 1e-9 s added to a time of
             * 2026 is lost to rounding, and the row covered no hour */
            if (!(v->step >= GP_MIN_STEP_S)) {
                gp_trace_show(shown, f);
                gp_trace_row_error(s, ctx, row, COL_STEP_S,
                                   "must be at least 0.001 seconds, got %s",
                                   shown);
                return false;
            }
            field_read(s, 2, f, v->step); /* only a good step */
        }
        v->t1 = v->t0 + v->step;
    }
    return true;
}

/* Reads the row's workload into v->lab.w: training, inference or unlabeled. */
static bool row_workload(struct shard *s, const struct file_ctx *ctx,
                         const struct row *row, struct row_values *v)
{
    const struct field *f = FIELD(row, ctx, COL_WORKLOAD);
    char shown[SHOWN_SIZE];

    if (field_is(f, "training"))
        v->lab.w = GP_TRAINING;
    else if (field_is(f, "inference"))
        v->lab.w = GP_INFERENCE;
    else if (field_is(f, "unknown"))
        v->lab.w = GP_UNLABELED; /* classify's own word for "cannot tell" */
    else if (f->len) {
        gp_trace_show(shown, f);
        gp_trace_row_error(s, ctx, row, COL_WORKLOAD,
                           "unknown workload %s (expected training, "
                           "inference, unknown or empty)",
                           shown);
        return false;
    }
    return true;
}

/* Reads the row's gpus into v->gpus (when given) and checks its bounds. */
static bool row_gpus(struct shard *s, const struct file_ctx *ctx,
                     const struct row *row, struct row_values *v)
{
    const struct field *f = FIELD(row, ctx, COL_GPUS);
    char shown[SHOWN_SIZE];

    if (!f->len)
        return true;
    if (!field_number(s, ctx, row, COL_GPUS, &v->gpus, "a number of GPUs"))
        return false;
    if (v->gpus < 0) {
        gp_trace_show(shown, f);
        gp_trace_row_error(s, ctx, row, COL_GPUS,
                           "must not be negative, got %s", shown);
        return false;
    }
    if (v->gpus > GP_TRACE_MAX_ROW_GPUS) {
        gp_trace_show(shown, f);
        gp_trace_row_error(s, ctx, row, COL_GPUS,
                           "must be at most %.0f GPUs, got %s",
                           GP_TRACE_MAX_ROW_GPUS, shown);
        return false;
    }
    return true;
}

/* Reads the row's instances into v->n, or turns its gpus into whole
 * instances of type `it`; with both, gpus are the GPUs in use on those
 * instances (useful GPU-hours).  v->gpus is then set either way. */
static bool row_instances(struct shard *s, const struct file_ctx *ctx,
                          const struct row *row, const gp_instance_type *it,
                          struct row_values *v)
{
    const struct field *f;
    char shown[SHOWN_SIZE];

    if (!row_gpus(s, ctx, row, v))
        return false;
    f = FIELD(row, ctx, COL_INSTANCES);
    if (f->len) {
        if (!field_number(s, ctx, row, COL_INSTANCES, &v->n,
                          "a number of instances"))
            return false;
        if (v->n < 0) {
            gp_trace_show(shown, f);
            gp_trace_row_error(s, ctx, row, COL_INSTANCES,
                               "must not be negative, got %s", shown);
            return false;
        }
        if (v->n > GP_TRACE_MAX_ROW_INSTANCES) {
            gp_trace_show(shown, f);
            gp_trace_row_error(s, ctx, row, COL_INSTANCES,
                               "must be at most %.0f instances, got %s",
                               GP_TRACE_MAX_ROW_INSTANCES, shown);
            return false;
        }
        if (v->gpus > v->n * it->gpus * (1 + 1e-9)) {
            gp_trace_show(shown, FIELD(row, ctx, COL_GPUS));
            gp_trace_row_error(s, ctx, row, COL_GPUS,
                               "must be at most the %g GPUs of %g %s, got %s",
                               v->n * it->gpus, v->n, it->name, shown);
            return false;
        }
    } else if (v->gpus < 0) {
        gp_trace_row_error(s, ctx, row,
                           ctx->colmap[COL_INSTANCES] >= 0 ? COL_INSTANCES
                                                           : COL_GPUS,
                           "empty; give instances or gpus");
        return false;
    } else {
        v->n = ceil(v->gpus / it->gpus - 1e-9);
    }
    if (v->gpus < 0)
        v->gpus = v->n * it->gpus;
    return true;
}

/* Reads the row's gpu_util (a percent, when given) into v->util. */
static bool row_util(struct shard *s, const struct file_ctx *ctx,
                     const struct row *row, struct row_values *v)
{
    const struct field *f = FIELD(row, ctx, COL_GPU_UTIL);
    char shown[SHOWN_SIZE];

    if (f->len && (!gp_parse_number(f->p, f->len, &v->util) || v->util < 0 ||
                   v->util > 100)) {
        gp_trace_show(shown, f);
        gp_trace_row_error(s, ctx, row, COL_GPU_UTIL,
                           "expected a percent 0..100, got %s", shown);
        return false;
    }
    return true;
}

/* Reads the row's interruptible (default: training is) into v. */
static bool row_interruptible(struct shard *s, const struct file_ctx *ctx,
                              const struct row *row, struct row_values *v)
{
    const struct field *f = FIELD(row, ctx, COL_INTERRUPTIBLE);
    char shown[SHOWN_SIZE];

    if (f->len == 0)
        v->lab.interruptible = v->lab.w == GP_TRAINING;
    else if (field_is(f, "true") || field_is(f, "1") || field_is(f, "yes"))
        v->lab.interruptible = true;
    else if (field_is(f, "false") || field_is(f, "0") || field_is(f, "no")) {
        v->lab.interruptible = false;
        v->lab.said_not_interruptible = true;
    }
    else {
        gp_trace_show(shown, f);
        gp_trace_row_error(s, ctx, row, COL_INTERRUPTIBLE,
                           "expected true or false, got %s", shown);
        return false;
    }
    return true;
}

/* Checks that the end of the row's last clock hour is no later than
 * GP_TIME_LATEST, naming the field that puts it past (a row of 30 years or
 * more is an error of its own, row_spread). */
static bool row_before_latest(struct shard *s, const gp_trace_builder *b,
                              const struct file_ctx *ctx,
                              const struct row *row,
                              const struct row_values *v)
{
    char shown[SHOWN_SIZE];

    if (!(v->t1 > (double)GP_TIME_LATEST &&
          v->step / 3600.0 < (double)GP_TRACE_MAX_SPAN_HOURS))
        return true;
    int col = COL_END;
    if (b->opt.layout != GP_LAYOUT_JOBS)
        col = v->t0 >= (double)GP_TIME_LATEST || ctx->colmap[COL_STEP_S] < 0
                  ? COL_TIMESTAMP
                  : COL_STEP_S;
    gp_trace_show(shown, FIELD(row, ctx, col));
    if (col == COL_END)
        gp_trace_row_error(s, ctx, row, col,
                           "must be at most " GP_TIME_LATEST_WHY ", got %s",
                           shown);
    else if (v->t0 >= (double)GP_TIME_LATEST)
        gp_trace_row_error(s, ctx, row, col,
                           "must be before " GP_TIME_LATEST_WHY ", got %s",
                           shown);
    else if (col == COL_TIMESTAMP)
        gp_trace_row_error(
            s, ctx, row, col,
            "with a step of %g s the row ends after " GP_TIME_LATEST_WHY
            ", got %s",
            v->step, shown);
    else {
        char from[32];
        gp_format_time((int64_t)floor(v->t0), from, sizeof from);
        gp_trace_row_error(s, ctx, row, col,
                           "from %s the row ends after " GP_TIME_LATEST_WHY
                           ", got %s",
                           from, shown);
    }
    return false;
}

/* Says that the label in column col holds a character no report may show
 * (a control character: the workbook would not open, a terminal would
 * obey it); returns false. */
static bool bad_label(struct shard *s, const struct file_ctx *ctx,
                      const struct row *row, int col)
{
    const struct field *f = FIELD(row, ctx, col);
    char shown[SHOWN_SIZE];
    uint32_t code;
    size_t at = gp_text_control_at(f->p, f->len, &code);

    gp_trace_show(shown, f);
    gp_trace_row_error(s, ctx, row, col,
                       "a control character (U+%04X, byte %zu), which no "
                       "report can show: remove it, got %s",
                       (unsigned)code, at + 1, shown);
    return false;
}

/* Interns the row's team, project and job labels and finds (or adds) its
 * series; sets v->lab.job and v->lab.sid.  False when out of memory, or with
 * the row's error set (*bad) when a label holds a control character. */
static bool row_series(struct shard *s, const struct file_ctx *ctx,
                       const struct row *row, struct row_values *v, bool *bad)
{
    const struct field *f;
    struct series_key key;

    memset(&key, 0, sizeof key);
    key.pool = v->lab.pool;
    key.workload = (uint8_t)v->lab.w;
    key.interruptible = v->lab.interruptible;
    f = FIELD(row, ctx, COL_TEAM);
    key.team = shard_label_cached(s, 0, f->p, f->len);
    f = FIELD(row, ctx, COL_PROJECT);
    key.project = shard_label_cached(s, 1, f->p, f->len);
    f = FIELD(row, ctx, COL_JOB_ID);
    v->lab.job = shard_label_cached(s, 2, f->p, f->len);
    *bad = true;
    if (key.team == GP_TRACE_BAD_LABEL)
        return bad_label(s, ctx, row, COL_TEAM);
    if (key.project == GP_TRACE_BAD_LABEL)
        return bad_label(s, ctx, row, COL_PROJECT);
    if (v->lab.job == GP_TRACE_BAD_LABEL)
        return bad_label(s, ctx, row, COL_JOB_ID);
    *bad = false;
    if ((key.team == -1 && FIELD(row, ctx, COL_TEAM)->len) ||
        (key.project == -1 && FIELD(row, ctx, COL_PROJECT)->len) ||
        (v->lab.job == -1 && f->len))
        return false;
    v->lab.sid = gp_trace_shard_series(s, &key);
    if (v->lab.sid >= 0 && v->lab.said_not_interruptible)
        s->series[v->lab.sid].said_not_interruptible = true;
    return v->lab.sid >= 0;
}

/* Checks the row's span of clock hours and spreads its instance-hours
 * (and GPU-hours with a gpu_util) over the cells of series `ser`. */
static bool row_spread(struct shard *s, const gp_trace_builder *b,
                       const struct file_ctx *ctx, const struct row *row,
                       struct row_values *v, struct shard_series *ser)
{
    double t0 = v->t0, t1 = v->t1, n = v->n, gpus = v->gpus, util = v->util;
    int span_col = b->opt.layout == GP_LAYOUT_JOBS ? COL_END : COL_STEP_S;

    /* checked in floating point first: a step of 1e40 seconds would not
     * fit the hour numbers below (found by fuzz_trace) */
    /* a row is shorter than GP_TRACE_MAX_SPAN_HOURS (util.h), as the
     * importers check: exactly that many hours is an error too */
    if (!(v->hours < (double)GP_TRACE_MAX_SPAN_HOURS)) {
        gp_trace_row_error(s, ctx, row, span_col,
                           "covers %ld hours (30 years) or more",
                           GP_TRACE_MAX_SPAN_HOURS);
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
        gp_trace_row_error(s, ctx, row, span_col,
                           "covers parts of %lld clock hours (%s to %s), "
                           "more than the %ld (30 years) a trace may span",
                           (long long)(h_last - h + 1), first, last,
                           GP_TRACE_MAX_SPAN_HOURS);
        return false;
    }
    v->h_first = h;
    v->h_last = h_last;
    for (; h <= h_last; h++) {
        double frac = hour_overlap(t0, t1, h);
        int64_t i = gp_trace_series_hour(ser, h, util >= 0);
        if (i < 0) {
            if (ser->n + 1 > GP_TRACE_MAX_SPAN_HOURS ||
                llabs(h - ser->base) >= GP_TRACE_MAX_SPAN_HOURS) {
                gp_trace_row_error(
                    s, ctx, row,
                    b->opt.layout == GP_LAYOUT_JOBS ? COL_START : COL_TIMESTAMP,
                    "the trace would span more than %ld hours (30 years); "
                    "is this time right?",
                    GP_TRACE_MAX_SPAN_HOURS);
                s->err_kept = true; /* the span of other rows too */
                return false;
            }
            return row_nomem(s, ctx, row);
        }
        ser->ih[i] += n * frac;
        if (util >= 0) {
            ser->uc[i].useful_gpu_hours += gpus * util / 100.0 * frac;
            ser->uc[i].util_gpu_hours += gpus * frac;
        }
    }
    return true;
}

/* Adds the row to the shard's totals and to its series' start. */
static void row_totals(struct shard *s, const struct row *row,
                       const struct row_values *v, struct shard_series *ser)
{
    double t0 = v->t0, t1 = v->t1;

    s->instance_hours[v->lab.w] += v->inst_h;
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
    if (v->util >= 0)
        s->useful_gpu_hours += v->gpus * v->util / 100.0 * v->hours;
    else
        s->gpu_hours_without_util += v->gpus * v->hours;
}

/* Adds a row with a job_id to its job's run (with the hours the cells got)
 * and to its idle detection.  False when out of memory. */
static bool row_job(struct shard *s, const gp_trace_builder *b,
                    const struct row_values *v, struct shard_series *ser)
{
    double t0 = v->t0, t1 = v->t1, n = v->n;

    /* the run's hours as the cells above got them */
    struct shard_run *run =
        gp_trace_add_run(s, v->lab.job, (uint32_t)v->lab.sid, t0, t1, n,
                         v->inst_h, b->opt.layout != GP_LAYOUT_JOBS);
    if (!run)
        return false;
    for (int64_t h = v->h_first; h <= v->h_last; h++)
        if (!gp_trace_run_hour_add(run, h, n * hour_overlap(t0, t1, h)))
            return false;
    if (v->util >= 0)
        ser->job_util = true;
    return low_track(s, b, v->lab.job, (uint32_t)v->lab.sid, t0, t1, v->util,
                     v->inst_h, v->gpus * v->hours);
}

/* Adds the row, whose labels are known (v->lab.sid, v->lab.job), to its series'
 * hours, the shard's totals and its job's run. */
static bool row_add(struct shard *s, const gp_trace_builder *b,
                    const struct file_ctx *ctx, const struct row *row,
                    struct row_values *v)
{
    struct shard_series *ser = &s->series[v->lab.sid];

    /* spread over the clock hours [t0, t1) overlaps */
    v->hours = v->step / 3600.0;
    v->inst_h = v->n * v->hours;
    if (!row_spread(s, b, ctx, row, v, ser))
        return false;
    row_totals(s, row, v, ser);
    if (v->lab.job >= 0 && !row_job(s, b, v, ser))
        return row_nomem(s, ctx, row);
    return true;
}

/* Reads a row whose text fields the memo holds (lab): only its numbers
 * and times are read and checked, in the order gp_trace_add_row does. */
static bool row_add_known(struct shard *s, const gp_trace_builder *b,
                          const struct file_ctx *ctx, const struct row *row,
                          const struct row_labels *lab, struct row_values *v)
{
    v->lab = *lab;
    if (!row_period(s, b, ctx, row, v) ||
        !row_instances(s, ctx, row, s->pools[v->lab.pool].type, v) ||
        !row_util(s, ctx, row, v) || !row_before_latest(s, b, ctx, row, v))
        return false;
    return row_add(s, b, ctx, row, v);
}

/* Validates one data row and adds it to the shard, step by step (the
 * helpers above, in order; the first error wins).  A row whose text
 * fields an earlier row had skips the steps that read only them (the
 * memo).  Returns false with s->err set when the row is bad. */
bool gp_trace_add_row(struct shard *s, const gp_trace_builder *b,
                      const struct file_ctx *ctx, const struct row *row)
{
    struct row_values v = {.gpus = -1, .util = -1, .lab.w = GP_UNLABELED};
    struct memo_key key;
    struct row_labels lab;

    if (row->n != ctx->n_header) {
        gp_error_clear(&s->err);
        s->status = gp_csv_check_row_width(ctx->source, row->line, row->n,
                                           ctx->n_header, &s->err);
        return false;
    }
    bool keyed = gp_trace_memo_key(ctx, row, &key);
    if (keyed && gp_trace_memo_get(s, &key, &lab))
        return row_add_known(s, b, ctx, row, &lab, &v);
    if (!row_text_is_utf8(s, ctx, row) || !row_period(s, b, ctx, row, &v) ||
        !row_pool(s, b, ctx, row, &v.lab.pool))
        return false;
    const gp_instance_type *it = s->pools[v.lab.pool].type;
    if (!row_workload(s, ctx, row, &v) || !row_instances(s, ctx, row, it, &v) ||
        !row_util(s, ctx, row, &v) || !row_interruptible(s, ctx, row, &v) ||
        !row_before_latest(s, b, ctx, row, &v))
        return false;
    bool bad;
    if (!row_series(s, ctx, row, &v, &bad))
        return bad ? false : row_nomem(s, ctx, row);
    if (keyed && !gp_trace_memo_put(s, &key, &v.lab))
        return row_nomem(s, ctx, row);
    return row_add(s, b, ctx, row, &v);
}
