/*
 * import_telemetry.c: GPU telemetry into a trace (SPEC sections 1 and 2):
 * `gpuplan import nvidia-smi | dcgm | prometheus`.
 *
 * Telemetry is per GPU and per sample; the bill is per instance and per
 * hour.  Every importer here reads its format into the same table of
 * samples (one per GPU and time: utilization, memory, tensor activity,
 * power, Kubernetes labels), and one writer turns that table into trace
 * rows:
 *
 *   - one row per GPU per sample, `instances` = 1 / the instance type's
 *     GPUs, so a host's GPUs add up to one instance while each GPU keeps
 *     its own `gpu_util` (idle detection finds one idle GPU among busy
 *     ones through its `job_id`, "host/gpu3"); a host logging fewer GPUs
 *     than --instance-type has is part of an instance, with a note;
 *   - a sample lasts until the GPU's next one (`step_s`), except across a
 *     gap of more than three times the GPU's median sampling interval (the
 *     GPU or its logger was off): then, and for the last sample, it lasts
 *     the interval before it (the median before a gap).  A GPU with one
 *     sample needs --step (DCGM scrapes default to 60 s, Prometheus'
 *     default scrape interval);
 *   - the instance type is --instance-type, or the one catalog type whose
 *     GPU model matches the telemetry's model name and whose GPU count is
 *     the host's; anything less certain is an error that names the
 *     candidates.
 *
 * Parsing: libcsv (through gp_csv_rows_read, csv_rows.h) for nvidia-smi's
 * CSV, jansson (through json_util.h) for
 * Prometheus' JSON, and a small reader of the Prometheus text exposition
 * format for DCGM exporter scrapes (no library the project uses reads it).
 */
#include "csv_rows.h"
#include "import.h"
#include "json_util.h"
#include "util.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* What a sample may carry, as bits of tel_sample.set. */
enum {
    M_UTIL = 1,    /* gpu_util, percent */
    M_MEM = 2,     /* memory used, MiB */
    M_TENSOR = 4,  /* tensor pipe active, fraction */
    M_POWER = 8,   /* power draw, W */
    M_ENGINE = 16, /* graphics engine active, fraction (DCGM profiling) */
    M_OTHER = 32   /* any other DCGM field: the GPU was there */
};

/* A sample counts as lasting until the next one unless the gap is more
 * than this many median intervals. */
#define GAP_FACTOR 3.0
/* The largest memory (MiB) and power (W) readings taken as real, for
 * every format alike: far above any GPU (an H200 has 141 GiB), and small
 * enough that a garbled value such as 1e300 is an error, not a number that
 * swamps every sum it enters. */
#define MAX_MEMORY_MIB 1e12
#define MAX_POWER_W 1e6
/* A DCGM scrape's length when the GPU has one and --step is not given:
 * Prometheus' default scrape_interval. */
#define DCGM_DEFAULT_STEP_S 60.0

/* One GPU, as the telemetry identifies it. */
typedef struct tel_gpu {
    char *host;  /* hostname, or the input file's name without extension */
    char *id;    /* what job_id shows: the index ("3"), else a UUID/bus id */
    char *uuid;  /* "" when unknown */
    char *model; /* "" when unknown */
    uint32_t source;
    long line;   /* where it was first seen */
    long series; /* Prometheus: index into data.result, else -1 */
    /* where model was read, for the errors about it: a cell or a text
     * line's label (column, field), or data.result[model_series]'s
     * modelName (column 0, found when needed) */
    uint32_t model_source;
    long model_line, model_column, model_series;
    char model_field[32];
    const gp_catalog *catalog;
    const gp_instance_type *type;
} tel_gpu;

/* team, project and pod of a sample (Kubernetes labels), interned. */
typedef struct tel_labels {
    char *team, *project, *pod;
} tel_labels;

typedef struct tel_sample {
    uint32_t gpu;
    uint32_t labels; /* index into tel.labels; 0 = none */
    double t, step;  /* seconds */
    double util, mem, tensor, power, engine;
    unsigned set; /* M_* bits */
    uint32_t source;
    long line;
    long series;
    /* where each reading came from (index: kind_index), for the error on a
     * second value: the file, and the line (DCGM) or data.result index
     * (Prometheus) */
    uint32_t kind_source[5];
    uint32_t kind_where[5];
    /* the first reading whose labels name a pod: those labels, and its
     * file and line (DCGM) or data.result index (Prometheus); pod_labels
     * 0 until then.  A reading naming another pod is a second claim on
     * the GPU, whatever metric either one is of. */
    uint32_t pod_labels;
    uint32_t pod_source;
    long pod_where;
} tel_sample;

/* An input read so far: its name and (for locating errors in JSON) text. */
typedef struct tel_source {
    char *name;
    char *text;
    size_t len;
    /* the 1-based column of an nvidia-smi log's timestamps (its header
     * fixes it for every row), so that an error about a sample's time
     * points at the cell; 0 where a line has no fixed column */
    long timestamp_column;
} tel_source;

/* Everything read from the inputs of one import. */
typedef struct tel {
    const gp_import_options *opt;
    gp_error *err;
    const char *format; /* "nvidia-smi", ... for messages */
    gp_strmap host_map; /* host -> index into host_gpus */
    int *host_gpus;
    size_t n_hosts, cap_hosts;
    tel_gpu *gpus;
    size_t n_gpus, cap_gpus;
    gp_strmap gpu_map;
    tel_sample *samples;
    size_t n_samples, cap_samples;
    gp_strmap sample_map;
    tel_labels *labels;
    size_t n_labels, cap_labels;
    gp_strmap label_map;
    tel_source *sources;
    size_t n_sources, cap_sources;
    /* DCGM without timestamps: how often (gpu, metric) was seen in the
     * current file (counts[count_map value]), which numbers the scrapes */
    gp_strmap count_map;
    uint32_t *counts;
    size_t n_counts, cap_counts;
} tel;

/* ---- small helpers ------------------------------------------------------ */

/* Records "out of memory" and returns GP_ERR_NOMEM. */
static gp_status nomem(tel *T)
{
    gp_error_set(T->err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

/* Trims spaces and tabs from both ends of s[0, *len); returns the start. */
static const char *trim(const char *s, size_t *len)
{
    size_t n = *len;
    while (n && (*s == ' ' || *s == '\t')) {
        s++;
        n--;
    }
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        n--;
    *len = n;
    return s;
}

/* Writes s[0, len) into buf as a quoted string for a message. */
static const char *shown(const char *s, size_t len, char *buf, size_t size)
{
    char tmp[256];
    if (len >= sizeof tmp)
        len = sizeof tmp - 1;
    memcpy(tmp, s, len);
    tmp[len] = '\0';
    return gp_json_quote(tmp, buf, size);
}

/* The name a host gets when the telemetry does not say: the input file's
 * name without folder and extension ("node7" for logs/node7.csv). */
static void file_stem(const char *path, char *buf, size_t size)
{
    const char *base = strrchr(path, '/');
    const char *dot;
    size_t n;

    base = base ? base + 1 : path;
    if (strcmp(path, "-") == 0)
        base = "stdin";
    dot = strrchr(base, '.');
    n = dot && dot != base ? (size_t)(dot - base) : strlen(base);
    if (n >= size)
        n = size - 1;
    memcpy(buf, base, n);
    buf[n] = '\0';
}

/* Formats epoch seconds t as ISO 8601 UTC, with milliseconds when t has a
 * fraction ("2023-05-12T10:00:00.123Z"). */
static void format_time_ms(double t, char *buf, size_t size)
{
    double whole = floor(t);
    long ms = lround((t - whole) * 1000.0);
    size_t n;

    if (ms >= 1000) {
        whole += 1;
        ms = 0;
    }
    gp_format_time((int64_t)whole, buf, size);
    n = strlen(buf);
    if (ms && n > 0 && n + 4 < size) {
        snprintf(buf + n - 1, size - n + 1, ".%03ldZ", ms);
    }
}

/* The job_id of a GPU: "host/gpu3" for an index, else "host/<id>". */
static void gpu_job_id(const tel_gpu *g, char *buf, size_t size)
{
    bool digits = g->id[0] != '\0';
    for (const char *p = g->id; *p; p++)
        if (*p < '0' || *p > '9')
            digits = false;
    snprintf(buf, size, "%s/%s%s", g->host, digits ? "gpu" : "", g->id);
}

/* Sets err at the place a sample came from (a Prometheus series is found
 * again in its JSON text). */
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static gp_status
at_error(tel *T, uint32_t source, long line, long series, const char *field,
         const char *fmt, ...)
{
    char msg[640];
    long column = 0;
    va_list ap;
    const tel_source *src = &T->sources[source];

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    char series_field[64];
    if (series >= 0 && src->text) {
        gp_jstep path[3] = {{"data", 0}, {"result", 0}, {NULL, 0}};
        path[2].index = (size_t)series;
        gp_json_locate(src->text, src->len, path, 3, &line, &column);
        snprintf(series_field, sizeof series_field, "data.result[%ld]", series);
        field = series_field;
    } else if (field && strcmp(field, "timestamp") == 0) {
        column = src->timestamp_column;
    }
    gp_error_set(T->err, src->name, line, column, field, "%s", msg);
    return GP_ERR_INPUT;
}

/* Records an error at point `point` of data.result[series] of a
 * Prometheus response (its values[point], or its value when point < 0),
 * with that path as the field. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static gp_status
point_error(tel *T, uint32_t source, long series, long point, const char *fmt,
            ...)
{
    char msg[640], field[96];
    long line = 0, column = 0;
    va_list ap;
    const tel_source *src = &T->sources[source];
    gp_jstep path[5] = {
        {"data", 0}, {"result", 0}, {NULL, 0}, {NULL, 0}, {NULL, 0}};

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    path[2].index = (size_t)series;
    path[3].key = point >= 0 ? "values" : "value";
    path[4].index = (size_t)(point >= 0 ? point : 0);
    if (src->text)
        gp_json_locate(src->text, src->len, path, point >= 0 ? 5 : 4, &line,
                       &column);
    if (point >= 0)
        snprintf(field, sizeof field, "data.result[%ld].values[%ld]", series,
                 point);
    else
        snprintf(field, sizeof field, "data.result[%ld].value", series);
    gp_error_set(T->err, src->name, line, column, field, "%s", msg);
    return GP_ERR_INPUT;
}

/* ---- the table of samples ----------------------------------------------- */

/* Starts an empty table for one import in `format`. */
static void tel_init(tel *T, const gp_import_options *opt, gp_error *err,
                     const char *format)
{
    memset(T, 0, sizeof *T);
    T->opt = opt;
    T->err = err;
    T->format = format;
}

/* Frees everything the table holds (not T itself). */
static void tel_free(tel *T)
{
    for (size_t i = 0; i < T->n_gpus; i++) {
        gp_free(T->gpus[i].host);
        gp_free(T->gpus[i].id);
        gp_free(T->gpus[i].uuid);
        gp_free(T->gpus[i].model);
    }
    gp_free(T->gpus);
    for (size_t i = 0; i < T->n_labels; i++) {
        gp_free(T->labels[i].team);
        gp_free(T->labels[i].project);
        gp_free(T->labels[i].pod);
    }
    gp_free(T->labels);
    for (size_t i = 0; i < T->n_sources; i++) {
        gp_free(T->sources[i].name);
        gp_free(T->sources[i].text);
    }
    gp_free(T->sources);
    gp_free(T->samples);
    gp_strmap_free(&T->gpu_map);
    gp_strmap_free(&T->sample_map);
    gp_strmap_free(&T->label_map);
    gp_strmap_free(&T->count_map);
    gp_free(T->counts);
    gp_strmap_free(&T->host_map);
    gp_free(T->host_gpus);
}

/* Adds an input named `name`; takes ownership of text (may be NULL). */
static gp_status tel_add_source(tel *T, const char *name, char *text,
                                size_t len, uint32_t *out)
{
    if (gp_grow((void **)&T->sources, &T->cap_sources, T->n_sources + 1,
                sizeof *T->sources) != GP_OK) {
        gp_free(text);
        return nomem(T);
    }
    tel_source *s = &T->sources[T->n_sources];
    s->name = gp_strdup(name);
    if (!s->name) {
        gp_free(text);
        return nomem(T);
    }
    s->text = text;
    s->len = len;
    s->timestamp_column = 0;
    *out = (uint32_t)T->n_sources++;
    gp_strmap_free(&T->count_map); /* scrape numbers are per file */
    T->n_counts = 0;
    return GP_OK;
}

/* A map key of NUL-separated parts into buf; returns its length, or 0 when
 * it does not fit. */
static size_t make_key(char *buf, size_t size, const char *const *parts,
                       size_t n)
{
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(parts[i]);
        if (len + k + 1 > size)
            return 0;
        memcpy(buf + len, parts[i], k);
        len += k;
        buf[len++] = '\0';
    }
    return len;
}

/* The longest GPU key (make_key's buffer in tel_gpu_get). */
#define GPU_KEY_MAX 1024

/* Whether the key of the GPU known by `key_id` on `host`, or by uuid
 * alone, fits: make_key's parts "U", "" and uuid, or "H", host and
 * key_id, each with its NUL. */
static bool gpu_key_fits(const char *host, const char *key_id, const char *uuid)
{
    size_t n = 4 + (uuid[0] ? strlen(uuid) : strlen(host) + strlen(key_id));
    return n <= GPU_KEY_MAX;
}

/* Where a sample's model was read: its column (0 for a Prometheus
 * series) and field. */
typedef struct model_place {
    long column;
    const char *field;
} model_place;

/* Records in g that its model was read at `at` of line (or series). */
static void gpu_model_read(tel_gpu *g, uint32_t source, long line, long series,
                           const model_place *at)
{
    g->model_source = source;
    g->model_line = line;
    g->model_series = series;
    g->model_column = at ? at->column : 0;
    snprintf(g->model_field, sizeof g->model_field, "%s",
             at && at->field ? at->field : "modelName");
}

/* The GPU known by `key_id` on `host` (a UUID is enough on its own),
 * added when new.  id is what job_id shows; uuid and model may be "";
 * model_at is where model was read.
 * Callers check gpu_key_fits first, to say which label is too long; an
 * nvidia-smi row's cells (255 bytes at most) always fit. */
static gp_status tel_gpu_get(tel *T, const char *host, const char *key_id,
                             const char *id, const char *uuid,
                             const char *model, const model_place *model_at,
                             uint32_t source, long line, long series,
                             uint32_t *out)
{
    char key[GPU_KEY_MAX];
    const char *parts[3] = {uuid[0] ? "U" : "H", uuid[0] ? "" : host,
                            uuid[0] ? uuid : key_id};
    size_t len = make_key(key, sizeof key, parts, 3);
    uint32_t v;

    if (len == 0)
        return at_error(T, source, line, series, "gpu",
                        "the GPU's host and id are too long (over %d bytes "
                        "together)",
                        GPU_KEY_MAX - 4);
    if (gp_strmap_get(&T->gpu_map, key, len, &v)) {
        tel_gpu *g = &T->gpus[v];
        /* a later sample may name what the first did not */
        if (!g->model[0] && model[0]) {
            char *m = gp_strdup(model);
            if (!m)
                return nomem(T);
            gp_free(g->model);
            g->model = m;
            gpu_model_read(g, source, line, series, model_at);
        }
        *out = v;
        return GP_OK;
    }
    if (T->n_gpus >= UINT32_MAX - 1 ||
        gp_grow((void **)&T->gpus, &T->cap_gpus, T->n_gpus + 1,
                sizeof *T->gpus) != GP_OK)
        return nomem(T);
    tel_gpu *g = &T->gpus[T->n_gpus];
    memset(g, 0, sizeof *g);
    g->host = gp_strdup(host);
    g->id = gp_strdup(id);
    g->uuid = gp_strdup(uuid);
    g->model = gp_strdup(model);
    g->source = source;
    g->line = line;
    g->series = series;
    gpu_model_read(g, source, line, series, model_at);
    if (!g->host || !g->id || !g->uuid || !g->model) {
        gp_free(g->host);
        gp_free(g->id);
        gp_free(g->uuid);
        gp_free(g->model);
        return nomem(T);
    }
    if (gp_strmap_put(&T->gpu_map, key, len, (uint32_t)T->n_gpus) != GP_OK) {
        gp_free(g->host);
        gp_free(g->id);
        gp_free(g->uuid);
        gp_free(g->model);
        return nomem(T);
    }
    *out = (uint32_t)T->n_gpus++;
    return GP_OK;
}

/* The interned label set (team, project, pod); all "" gives 0.  Label
 * values have no length limit of their own, so a key too long for the
 * stack buffer is built on the heap rather than the labels dropped. */
static gp_status tel_labels_get(tel *T, const char *team, const char *project,
                                const char *pod, uint32_t *out)
{
    char stack_key[1024], *key = stack_key;
    const char *parts[3] = {team, project, pod};
    size_t len, need;
    uint32_t v;
    gp_status st = GP_OK;

    if (T->n_labels == 0) {
        /* entry 0: no labels */
        if (gp_grow((void **)&T->labels, &T->cap_labels, 1,
                    sizeof *T->labels) != GP_OK)
            return nomem(T);
        T->labels[0].team = gp_strdup("");
        T->labels[0].project = gp_strdup("");
        T->labels[0].pod = gp_strdup("");
        T->n_labels = 1;
        if (!T->labels[0].team || !T->labels[0].project || !T->labels[0].pod)
            return nomem(T);
    }
    *out = 0;
    if (!team[0] && !project[0] && !pod[0])
        return GP_OK;
    need = strlen(team) + strlen(project) + strlen(pod) + 3;
    if (need > sizeof stack_key && !(key = gp_malloc(need)))
        return nomem(T);
    len = make_key(key, need, parts, 3);
    if (gp_strmap_get(&T->label_map, key, len, &v)) {
        *out = v;
        goto done;
    }
    if (gp_grow((void **)&T->labels, &T->cap_labels, T->n_labels + 1,
                sizeof *T->labels) != GP_OK) {
        st = nomem(T);
        goto done;
    }
    tel_labels *l = &T->labels[T->n_labels];
    l->team = gp_strdup(team);
    l->project = gp_strdup(project);
    l->pod = gp_strdup(pod);
    if (!l->team || !l->project || !l->pod ||
        gp_strmap_put(&T->label_map, key, len, (uint32_t)T->n_labels) !=
            GP_OK) {
        gp_free(l->team);
        gp_free(l->project);
        gp_free(l->pod);
        st = nomem(T);
        goto done;
    }
    *out = (uint32_t)T->n_labels++;
done:
    if (key != stack_key)
        gp_free(key);
    return st;
}

/* The sample of GPU `gpu` at time t (to the millisecond); *created says
 * whether it is new. */
static gp_status tel_sample_at(tel *T, uint32_t gpu, double t, uint32_t source,
                               long line, long series, size_t *out,
                               bool *created)
{
    char key[12];
    int64_t ms = llround(t * 1000.0);
    uint32_t v;

    memcpy(key, &gpu, 4);
    memcpy(key + 4, &ms, 8);
    if (gp_strmap_get(&T->sample_map, key, sizeof key, &v)) {
        *out = v;
        *created = false;
        return GP_OK;
    }
    if (T->n_samples >= UINT32_MAX - 1 ||
        gp_grow((void **)&T->samples, &T->cap_samples, T->n_samples + 1,
                sizeof *T->samples) != GP_OK ||
        gp_strmap_put(&T->sample_map, key, sizeof key,
                      (uint32_t)T->n_samples) != GP_OK)
        return nomem(T);
    tel_sample *s = &T->samples[T->n_samples];
    memset(s, 0, sizeof *s);
    s->gpu = gpu;
    s->t = (double)ms / 1000.0;
    s->util = s->mem = s->tensor = s->power = s->engine = NAN;
    s->source = source;
    s->line = line;
    s->series = series;
    *out = T->n_samples++;
    *created = true;
    return GP_OK;
}

/* Whether two readings are the same (both missing counts as the same). */
static bool same_reading(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* Where a sample holds reading `kind` (NULL for M_OTHER: no value). */
static double *kind_slot(tel_sample *s, unsigned kind)
{
    switch (kind) {
    case M_UTIL:
        return &s->util;
    case M_MEM:
        return &s->mem;
    case M_TENSOR:
        return &s->tensor;
    case M_POWER:
        return &s->power;
    case M_ENGINE:
        return &s->engine;
    default:
        return NULL;
    }
}

/* The index of a reading with a slot (M_UTIL ... M_ENGINE) in a sample's
 * kind_source and kind_where. */
static int kind_index(unsigned kind)
{
    int i = 0;
    while (kind > 1 && i < 4) {
        kind >>= 1;
        i++;
    }
    return i;
}

/* ---- values with units ----------------------------------------------------
 */

/* Whether a telemetry value says "no reading": N/A, [N/A], [Not
 * Supported], [Unknown Error], an empty field. */
static bool value_missing(const char *s, size_t len)
{
    return len == 0 || (len >= 2 && s[0] == '[' && s[len - 1] == ']') ||
           (len == 3 && strncasecmp(s, "N/A", 3) == 0);
}

/* A unit a value may carry, and what it multiplies the number by. */
typedef struct unit {
    const char *name;
    double scale;
} unit;

static const unit units_percent[] = {{"%", 1}, {NULL, 0}};
static const unit units_mib[] = {
    {"MiB", 1}, {"GiB", 1024}, {"KiB", 1.0 / 1024}, {NULL, 0}};
/* "mW" before "W", or "5000 mW" would lose its W and leave "5000 m" */
static const unit units_watt[] = {{"mW", 0.001}, {"W", 1}, {NULL, 0}};

/* Parses a number that may end in one of `units` ("33 %", "1129 MiB",
 * "74.01 W", "33"), the first that matches. */
static bool parse_measure(const char *s, size_t len, const unit *units,
                          double *out)
{
    double scale = 1;
    for (const unit *u = units; u && u->name; u++) {
        size_t k = strlen(u->name);
        if (len > k && memcmp(s + len - k, u->name, k) == 0) {
            len -= k;
            scale = u->scale;
            while (len && s[len - 1] == ' ')
                len--;
            break;
        }
    }
    if (!gp_parse_number(s, len, out))
        return false;
    *out *= scale;
    return true;
}

/* ---- turning the table into a trace -------------------------------------- */

/* Orders samples by GPU, then time. */
static int by_gpu_time(const void *a, const void *b)
{
    const tel_sample *x = a, *y = b;
    if (x->gpu != y->gpu)
        return x->gpu < y->gpu ? -1 : 1;
    return (x->t > y->t) - (x->t < y->t);
}

/* Orders samples by time, then GPU (the order rows are written in). */
static int by_time_gpu(const void *a, const void *b)
{
    const tel_sample *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->gpu > y->gpu) - (x->gpu < y->gpu);
}

/* Splits a GPU model name into upper-case alphanumeric tokens ("NVIDIA
 * A100-SXM4-40GB" -> NVIDIA, A100, SXM4, 40GB); returns how many. */
static size_t model_tokens(const char *s, char tok[][24], size_t max)
{
    size_t n = 0, k = 0;
    for (;; s++) {
        bool alnum = (*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') ||
                     (*s >= 'A' && *s <= 'Z');
        if (alnum) {
            if (n < max && k + 1 < sizeof tok[0])
                tok[n][k++] = (*s >= 'a' && *s <= 'z') ? (char)(*s - 32) : *s;
        } else if (k) {
            if (n < max)
                tok[n++][k] = '\0';
            k = 0;
        }
        if (!*s)
            break;
    }
    return n;
}

/* How well the telemetry's model name (e.g. "NVIDIA A100-SXM4-40GB")
 * matches a catalog's gpu_model ("A100-40GB"): the number of the catalog
 * name's tokens, when every one of them is a token of the model name; 0
 * when one is not. */
static size_t model_match(const char *model, const char *gpu_model)
{
    char have[16][24], want[8][24];
    size_t n_have = model_tokens(model, have, 16);
    size_t n_want = model_tokens(gpu_model, want, 8);

    if (n_want == 0)
        return 0;
    for (size_t i = 0; i < n_want; i++) {
        bool found = false;
        for (size_t j = 0; j < n_have && !found; j++)
            found = strcmp(want[i], have[j]) == 0;
        if (!found)
            return 0;
    }
    return n_want;
}

/* Counts each host's GPUs once (T->host_gpus by T->host_map). */
static gp_status count_hosts(tel *T)
{
    for (size_t i = 0; i < T->n_gpus; i++) {
        const char *h = T->gpus[i].host;
        uint32_t at;
        if (gp_strmap_get(&T->host_map, h, strlen(h), &at)) {
            T->host_gpus[at]++;
            continue;
        }
        if (gp_grow((void **)&T->host_gpus, &T->cap_hosts, T->n_hosts + 1,
                    sizeof *T->host_gpus) != GP_OK ||
            gp_strmap_put(&T->host_map, h, strlen(h), (uint32_t)T->n_hosts) !=
                GP_OK)
            return nomem(T);
        T->host_gpus[T->n_hosts++] = 1;
    }
    return GP_OK;
}

/* How many GPUs the host of GPU g has in the telemetry. */
static int host_gpus(const tel *T, const tel_gpu *g)
{
    uint32_t at = 0;
    gp_strmap_get(&T->host_map, g->host, strlen(g->host), &at);
    return T->host_gpus[at];
}

/* Appends ", name" (or "name" first) to buf, with "..." once it is full. */
static void list_add(char *buf, size_t size, const char *name)
{
    size_t n = strlen(buf);
    if (n + strlen(name) + 8 >= size) {
        if (n + 5 < size && (n < 3 || strcmp(buf + n - 3, "...") != 0))
            snprintf(buf + n, size - n, ", ...");
        return;
    }
    snprintf(buf + n, size - n, "%s%s", n ? ", " : "", name);
}

/* Records an error about GPU g's model, at the cell or label it was read
 * from: a Prometheus series' at data.result[N].metric.modelName. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static gp_status
model_error(tel *T, const tel_gpu *g, const char *fmt, ...)
{
    const tel_source *src = &T->sources[g->model_source];
    long line = g->model_line, column = g->model_column;
    char field[96], msg[640];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(field, sizeof field, "%s", g->model_field);
    if (g->model_series >= 0 && src->text) {
        gp_jstep path[5] = {{"data", 0},
                            {"result", 0},
                            {NULL, 0},
                            {"metric", 0},
                            {"modelName", 0}};
        path[2].index = (size_t)g->model_series;
        gp_json_locate(src->text, src->len, path, 5, &line, &column);
        snprintf(field, sizeof field, "data.result[%ld].metric.modelName",
                 g->model_series);
    }
    gp_error_set(T->err, src->name, line, column, field, "%s", msg);
    return GP_ERR_INPUT;
}

/* Picks GPU g's instance type from its model name and its host's GPU
 * count, or says why it cannot. */
static gp_status type_from_model(tel *T, tel_gpu *g, int per_host)
{
    const gp_import_options *o = T->opt;
    const gp_pricing *p = o->pricing;
    size_t best = 0, n_fit = 0, n_model = 0;
    char fit[400] = "", same_model[400] = "", q[300];

    if (!g->model[0]) {
        char job[600];
        gpu_job_id(g, job, sizeof job);
        return at_error(T, g->source, g->line, g->series, "instance_type",
                        "the %s telemetry does not name the GPU model of %s; "
                        "give --instance-type",
                        T->format, job);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (size_t c = 0; p && c < p->n_catalogs; c++) {
            const gp_catalog *cat = p->catalogs[c];
            if (o->provider && strcmp(cat->provider, o->provider) != 0)
                continue;
            if (o->region && strcmp(cat->region, o->region) != 0)
                continue;
            for (size_t i = 0; i < cat->n_types; i++) {
                const gp_instance_type *it = &cat->types[i];
                size_t score = model_match(g->model, it->gpu_model);
                if (pass == 0) {
                    if (score > best)
                        best = score;
                    continue;
                }
                if (score == 0 || score < best)
                    continue;
                n_model++;
                list_add(same_model, sizeof same_model, it->name);
                if (it->gpus != per_host)
                    continue;
                if (n_fit++ == 0) {
                    g->catalog = cat;
                    g->type = it;
                }
                list_add(fit, sizeof fit, it->name);
            }
        }
    }
    gp_json_quote(g->model, q, sizeof q);
    if (n_fit == 1)
        return GP_OK;
    g->catalog = NULL;
    g->type = NULL;
    if (n_model == 0)
        return model_error(T, g,
                           "no instance type in the catalogs has GPU model "
                           "%s; give --instance-type",
                           q);
    if (n_fit == 0)
        return model_error(T, g,
                           "host %s has %d %s GPU%s, and no instance type "
                           "with that GPU has %d (%s); give --instance-type",
                           g->host, per_host, q, gp_plural(per_host, "", "s"),
                           per_host, same_model);
    return model_error(T, g,
                       "host %s has %d %s GPU%s, which fits several instance "
                       "types (%s); give --instance-type",
                       g->host, per_host, q, gp_plural(per_host, "", "s"), fit);
}

/* How many hosts' notes "host H logs 2 GPUs, T has 4" are written one
 * by one; the rest are counted in one more note. */
#define PART_HOST_NOTES 3

/* Notes that GPU g's host logs fewer GPUs (per_host) than the given type
 * has, once per host (noted[] by host index): its GPUs add up to part of
 * an instance, which is right for a container or a share of a machine but
 * leaves GPUs unbilled when the host is a whole instance whose other GPUs
 * were not logged.  Returns whether this host is newly noted. */
static bool note_part_host(const tel *T, const tel_gpu *g, int per_host,
                           const gp_instance_type *type, bool *noted,
                           size_t n_noted)
{
    uint32_t at = 0;
    int missing = type->gpus - per_host;

    gp_strmap_get(&T->host_map, g->host, strlen(g->host), &at);
    if (noted[at])
        return false;
    noted[at] = true;
    if (T->opt->notes && n_noted < PART_HOST_NOTES)
        gp_warnings_add(T->opt->notes,
                        "note: %s: host %s logs %d GPU%s, %s has %d: billed "
                        "as %g instance; if %s is a whole %s, %d of its GPUs "
                        "%s missing from the telemetry and go unbilled",
                        T->sources[g->source].name, g->host, per_host,
                        gp_plural(per_host, "", "s"), type->name, type->gpus,
                        (double)per_host / type->gpus, g->host, type->name,
                        missing, gp_plural(missing, "is", "are"));
    return true;
}

/* Gives every GPU its instance type and catalog. */
static gp_status resolve_types(tel *T)
{
    const gp_import_options *o = T->opt;
    const gp_instance_type *given = NULL;
    const gp_catalog *given_cat = NULL;
    bool *noted = NULL;
    size_t n_noted = 0;
    gp_status st = GP_OK;

    if (o->instance_type) {
        bool ambiguous;
        given = gp_pricing_find(o->pricing, o->provider, o->region,
                                o->instance_type, &given_cat, &ambiguous);
        if (!given && ambiguous) {
            gp_error_set(T->err, NULL, 0, 0, "--instance-type",
                         "\"%s\" is in several catalogs; give --provider "
                         "and --region",
                         o->instance_type);
            return GP_ERR_INPUT;
        }
        if (!given && (o->provider || o->region)) {
            const gp_catalog *elsewhere = NULL;
            bool several = false;
            gp_pricing_find(o->pricing, NULL, NULL, o->instance_type,
                            &elsewhere, &several);
            if (elsewhere || several) {
                gp_error_set(T->err, NULL, 0, 0, "--instance-type",
                             "\"%s\" is not in the catalogs for %s%s%s "
                             "(it is in %s%s%s)",
                             o->instance_type, o->provider ? o->provider : "",
                             o->provider && o->region ? " " : "",
                             o->region ? o->region : "",
                             elsewhere ? elsewhere->provider
                                       : "several other "
                                         "catalogs",
                             elsewhere ? " " : "",
                             elsewhere ? elsewhere->region : "");
                return GP_ERR_INPUT;
            }
        }
        if (!given) {
            char near[256] = "";
            if (o->pricing)
                gp_pricing_suggest(o->pricing, o->instance_type, near,
                                   sizeof near, 3);
            gp_error_set(
                T->err, NULL, 0, 0, "--instance-type",
                "\"%s\" is not in the catalogs%s%s%s%s%s%s%s", o->instance_type,
                o->provider || o->region ? " for " : "",
                o->provider ? o->provider : "",
                o->provider && o->region ? " " : "", o->region ? o->region : "",
                near[0] ? " (nearest: " : "", near, near[0] ? ")" : "");
            return GP_ERR_INPUT;
        }
    }
    if (given &&
        !(noted = gp_calloc(T->n_hosts ? T->n_hosts : 1, sizeof *noted)))
        return nomem(T);
    for (size_t i = 0; i < T->n_gpus && st == GP_OK; i++) {
        tel_gpu *g = &T->gpus[i];
        int per_host = host_gpus(T, g);
        if (given) {
            if (per_host > given->gpus) {
                st = at_error(T, g->source, g->line, g->series, "instance_type",
                              "host %s has %d GPUs, more than the %d of "
                              "%s; is --instance-type right?",
                              g->host, per_host, given->gpus, given->name);
                break;
            }
            if (per_host < given->gpus &&
                note_part_host(T, g, per_host, given, noted, n_noted))
                n_noted++;
            g->type = given;
            g->catalog = given_cat;
            /* once per model: the note names no host, and
             * gp_warnings_add says each text once, so the GPUs after the
             * first of a model (on any host, adjacent or not) add none */
            if (g->model[0] && T->opt->notes &&
                model_match(g->model, given->gpu_model) == 0)
                gp_warnings_add(T->opt->notes,
                                "note: the telemetry's GPU model \"%s\" is "
                                "not %s's %s; check --instance-type",
                                g->model, given->name, given->gpu_model);
            continue;
        }
        st = type_from_model(T, g, per_host);
    }
    if (st == GP_OK && n_noted > PART_HOST_NOTES && T->opt->notes)
        gp_warnings_add(T->opt->notes,
                        "note: %zu more host%s fewer GPUs than %s has and "
                        "%s billed as part of an instance",
                        n_noted - PART_HOST_NOTES,
                        gp_plural(n_noted - PART_HOST_NOTES, " logs", "s log"),
                        given->name,
                        gp_plural(n_noted - PART_HOST_NOTES, "is", "are each"));
    gp_free(noted);
    return st;
}

/* Works out each sample's step_s from its GPU's sampling times. */
static gp_status infer_steps(tel *T, double single_step)
{
    size_t n = T->n_samples;
    double *gaps = NULL;

    qsort(T->samples, n, sizeof *T->samples, by_gpu_time);
    gaps = gp_malloc((n ? n : 1) * sizeof *gaps);
    if (!gaps)
        return nomem(T);
    for (size_t a = 0, b; a < n; a = b) {
        tel_sample *s = &T->samples[a];
        size_t k;
        double median;

        for (b = a + 1; b < n && T->samples[b].gpu == s->gpu; b++)
            ;
        if (b - a == 1) {
            if (!(single_step > 0)) {
                char job[600];
                gpu_job_id(&T->gpus[s->gpu], job, sizeof job);
                gp_free(gaps);
                return at_error(T, s->source, s->line, s->series, "timestamp",
                                "GPU %s has a single sample, so its length "
                                "is unknown; give --step SECONDS",
                                job);
            }
            s->step = single_step;
            continue;
        }
        for (k = 0; k + 1 < b - a; k++)
            gaps[k] = T->samples[a + k + 1].t - T->samples[a + k].t;
        for (k = 0; k + 1 < b - a; k++)
            T->samples[a + k].step = gaps[k];
        gsl_sort(gaps, 1, b - a - 1);
        median = gsl_stats_median_from_sorted_data(gaps, 1, b - a - 1);
        for (k = a; k + 1 < b; k++)
            if (T->samples[k].step > GAP_FACTOR * median)
                T->samples[k].step = median;
        T->samples[b - 1].step = T->samples[b - 2].step;
    }
    gp_free(gaps);
    return GP_OK;
}

/* Checks that the trace keeps to the loader's span (trace.c, util.h): no
 * sample lasts GP_TRACE_MAX_SPAN_HOURS hours or more (or covers more clock
 * hours than that), and all of them together span at most that many.
 * Samples far apart (a clock set wrong, logs of two different years) would
 * otherwise make a trace that gpuplan rejects.  The error names the first
 * sample, in time order, past the bound. */
static gp_status check_span(tel *T)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    char from[40], to[40];

    qsort(T->samples, T->n_samples, sizeof *T->samples, by_time_gpu);
    for (size_t i = 0; i < T->n_samples; i++) {
        const tel_sample *s = &T->samples[i];
        int64_t h0 = (int64_t)floor(s->t / 3600.0);
        int64_t h1 = gp_last_clock_hour(s->t, s->t + s->step) + 1;

        if (!(s->step / 3600.0 < (double)GP_TRACE_MAX_SPAN_HOURS) ||
            h1 - h0 > GP_TRACE_MAX_SPAN_HOURS) {
            format_time_ms(s->t + s->step, to, sizeof to);
            return at_error(T, s->source, s->line, s->series, "timestamp",
                            "this sample would last until %s (the GPU's "
                            "next sample), %ld hours (30 years) or more; "
                            "is a timestamp wrong?",
                            to, GP_TRACE_MAX_SPAN_HOURS);
        }
        if (s->t + s->step > (double)GP_TIME_LATEST)
            return at_error(
                T, s->source, s->line, s->series, "timestamp",
                "this sample lasts %g s (until the GPU's next "
                "sample, or --step) and so ends after " GP_TIME_LATEST_WHY,
                s->step);
        if (h0 < lo)
            lo = h0;
        if (h1 > hi)
            hi = h1;
        if (hi - lo > GP_TRACE_MAX_SPAN_HOURS) {
            format_time_ms((double)lo * 3600, from, sizeof from);
            format_time_ms((double)hi * 3600, to, sizeof to);
            return at_error(T, s->source, s->line, s->series, "timestamp",
                            "with this sample the trace would span %s to %s, "
                            "more than %ld hours (30 years); is a timestamp "
                            "wrong?",
                            from, to, GP_TRACE_MAX_SPAN_HOURS);
        }
    }
    return GP_OK;
}

/* Writes s as a CSV field, quoted when it has to be.  Line breaks (a
 * Prometheus label may hold one) become spaces: the trace reader takes no
 * line break inside a field. */
static void put_field(FILE *f, const char *s)
{
    bool quote = s[0] == ' ' || (s[0] && s[strlen(s) - 1] == ' ') ||
                 strpbrk(s, ",\"\r\n") != NULL;

    if (quote)
        putc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', f);
        putc(*s == '\r' || *s == '\n' ? ' ' : *s, f);
    }
    if (quote)
        putc('"', f);
}

/* Writes ",v" with v a number, or "," when v is NaN. */
static void put_number(FILE *f, double v)
{
    if (isnan(v))
        putc(',', f);
    else
        fprintf(f, ",%.15g", v);
}

/* Writes the trace: a header and one row per sample. */
static gp_status write_trace(tel *T, FILE *out)
{
    char when[40], job[600];

    qsort(T->samples, T->n_samples, sizeof *T->samples, by_time_gpu);
    fputs("timestamp,step_s,provider,region,instance_type,instances,"
          "gpu_util,job_id,team,project,host,gpu_id,gpu_uuid,gpu_model,pod,"
          "memory_used_mib,tensor_active,power_w\n",
          out);
    for (size_t i = 0; i < T->n_samples; i++) {
        const tel_sample *s = &T->samples[i];
        const tel_gpu *g = &T->gpus[s->gpu];
        const tel_labels *l = &T->labels[s->labels];
        double util = s->util;

        if (isnan(util) && !isnan(s->engine))
            util = s->engine * 100.0;
        format_time_ms(s->t, when, sizeof when);
        fprintf(out, "%s,%.15g,", when, round(s->step * 1000.0) / 1000.0);
        put_field(out, g->catalog->provider);
        putc(',', out);
        put_field(out, g->catalog->region);
        putc(',', out);
        put_field(out, g->type->name);
        fprintf(out, ",%.17g", 1.0 / g->type->gpus);
        put_number(out, util);
        putc(',', out);
        gpu_job_id(g, job, sizeof job);
        put_field(out, job);
        putc(',', out);
        put_field(out, l->team);
        putc(',', out);
        put_field(out, l->project);
        putc(',', out);
        put_field(out, g->host);
        putc(',', out);
        put_field(out, g->id);
        putc(',', out);
        put_field(out, g->uuid);
        putc(',', out);
        put_field(out, g->model);
        putc(',', out);
        put_field(out, l->pod);
        put_number(out, s->mem);
        put_number(out, s->tensor);
        put_number(out, s->power);
        putc('\n', out);
    }
    if (ferror(out)) {
        gp_error_set(T->err, NULL, 0, 0, NULL, "cannot write the trace");
        return GP_ERR_IO;
    }
    return GP_OK;
}

/* Adds a one-line summary of what was imported to opt->notes. */
static void add_note(const tel *T)
{
    char first[40], last[40];
    size_t hosts = T->n_hosts;
    double t0 = INFINITY, t1 = -INFINITY;

    if (!T->opt->notes)
        return;
    for (size_t i = 0; i < T->n_samples; i++) {
        const tel_sample *s = &T->samples[i];
        if (s->t < t0)
            t0 = s->t;
        if (s->t + s->step > t1)
            t1 = s->t + s->step;
    }
    format_time_ms(t0, first, sizeof first);
    format_time_ms(t1, last, sizeof last);
    gp_warnings_add(T->opt->notes,
                    "%s: %zu sample%s of %zu GPU%s on %zu host%s, %s to %s",
                    T->format, T->n_samples, gp_plural(T->n_samples, "", "s"),
                    T->n_gpus, gp_plural(T->n_gpus, "", "s"), hosts,
                    gp_plural(hosts, "", "s"), first, last);
}

/* Resolves types, works out steps and writes the trace. */
static gp_status tel_finish(tel *T, FILE *out, double single_step)
{
    gp_status st;
    uint32_t none;

    if (T->n_samples == 0) {
        const char *what =
            strcmp(T->format, "nvidia-smi") == 0
                ? "no GPU samples (rows after the header)"
                : "no GPU samples (DCGM_FI_* metrics with a gpu label)";
        gp_error_set(T->err, T->n_sources ? T->sources[0].name : NULL, 0, 0,
                     NULL, "%s", what);
        return GP_ERR_INPUT;
    }
    /* label set 0 ("none") exists even when no sample had labels */
    if ((st = tel_labels_get(T, "", "", "", &none)) != GP_OK ||
        (st = count_hosts(T)) != GP_OK || (st = resolve_types(T)) != GP_OK)
        return st;
    if ((st = infer_steps(T, single_step)) != GP_OK ||
        (st = check_span(T)) != GP_OK)
        return st;
    if ((st = write_trace(T, out)) != GP_OK)
        return st;
    add_note(T);
    return GP_OK;
}

/* ---- nvidia-smi -----------------------------------------------------------
 */

/* The --query-gpu fields gpuplan reads, and the names they go by. */
enum {
    SMI_TIMESTAMP,
    SMI_INDEX,
    SMI_GPU,
    SMI_UUID,
    SMI_BUS,
    SMI_NAME,
    SMI_UTIL,
    SMI_MEM,
    SMI_POWER,
    SMI_HOST,
    SMI_N
};

static const char *const smi_names[SMI_N][3] = {
    [SMI_TIMESTAMP] = {"timestamp", NULL, NULL},
    [SMI_INDEX] = {"index", NULL, NULL},
    [SMI_GPU] = {"gpu", NULL, NULL},
    [SMI_UUID] = {"uuid", "gpu_uuid", NULL},
    [SMI_BUS] = {"pci.bus_id", "gpu_bus_id", NULL},
    [SMI_NAME] = {"name", "gpu_name", NULL},
    [SMI_UTIL] = {"utilization.gpu", NULL, NULL},
    [SMI_MEM] = {"memory.used", NULL, NULL},
    [SMI_POWER] = {"power.draw", NULL, NULL},
    [SMI_HOST] = {"host", "hostname", NULL},
};

typedef struct smi_reader {
    tel *T;
    uint32_t source;
    char host[256]; /* when there is no host column */
    char **header;  /* normalized names, NULL before the header */
    size_t n_header;
    long header_line;
    int col[SMI_N]; /* field index, -1 when absent */
} smi_reader;

/* A header name without spaces around it and without a unit in brackets,
 * lower-cased, into buf (cut to fit): " utilization.gpu [%]" ->
 * "utilization.gpu". */
static const char *smi_normalize(const char *s, char *buf, size_t size)
{
    size_t len = strlen(s);
    const char *p = trim(s, &len);

    if (len && p[len - 1] == ']') {
        const char *open = memchr(p, '[', len);
        if (open) {
            len = (size_t)(open - p);
            p = trim(p, &len);
        }
    }
    if (len >= size)
        len = size - 1;
    for (size_t i = 0; i < len; i++)
        buf[i] = (p[i] >= 'A' && p[i] <= 'Z') ? (char)(p[i] + 32) : p[i];
    buf[len] = '\0';
    return buf;
}

/* Reads the header row: which field holds what. */
static gp_status smi_header(smi_reader *r, char **fields, size_t n, long line)
{
    tel *T = r->T;
    const char *name = T->sources[r->source].name;
    size_t tl = n ? strlen(fields[0]) : 0;
    const char *t0 = n ? trim(fields[0], &tl) : "";
    double t;
    const char *why;
    char buf[40];

    /* a log written with --format=csv,noheader starts with a time */
    if (tl && tl < sizeof buf) {
        memcpy(buf, t0, tl);
        buf[tl] = '\0';
        if (tl >= 10 && buf[4] == '/' && buf[7] == '/')
            buf[4] = buf[7] = '-';
        if (gp_parse_time(buf, tl, &t, &why)) {
            gp_error_set(T->err, name, line, 1, "header",
                         "the log has no header row (written with "
                         "--format=csv,noheader?); gpuplan needs it to know "
                         "the --query-gpu fields: drop noheader, or add the "
                         "header line");
            return GP_ERR_INPUT;
        }
    }
    r->header = gp_calloc(n ? n : 1, sizeof *r->header);
    if (!r->header)
        return nomem(T);
    r->n_header = n;
    r->header_line = line;
    for (int k = 0; k < SMI_N; k++)
        r->col[k] = -1;
    for (size_t i = 0; i < n; i++) {
        char norm[256];
        if (!(r->header[i] =
                  gp_strdup(smi_normalize(fields[i], norm, sizeof norm))))
            return nomem(T);
        for (int k = 0; k < SMI_N; k++)
            for (int a = 0; a < 3 && smi_names[k][a]; a++)
                if (strcmp(r->header[i], smi_names[k][a]) == 0) {
                    if (r->col[k] >= 0) {
                        gp_error_set(T->err, name, line, (long)i + 1,
                                     r->header[i],
                                     "the column is there twice (also "
                                     "column %d)",
                                     r->col[k] + 1);
                        return GP_ERR_INPUT;
                    }
                    r->col[k] = (int)i;
                }
    }
    if (r->col[SMI_TIMESTAMP] < 0) {
        gp_error_set(T->err, name, line, 1, "timestamp",
                     "no timestamp column; log with nvidia-smi "
                     "--query-gpu=timestamp,index,name,utilization.gpu,"
                     "memory.used --format=csv");
        return GP_ERR_INPUT;
    }
    T->sources[r->source].timestamp_column = r->col[SMI_TIMESTAMP] + 1;
    return GP_OK;
}

/* Whether a row repeats the header (nvidia-smi -l writes it before every
 * sample when run in a loop of single queries). */
static bool smi_is_header(const smi_reader *r, char **fields, size_t n)
{
    if (n != r->n_header)
        return false;
    for (size_t i = 0; i < n; i++) {
        char norm[256];
        if (strcmp(smi_normalize(fields[i], norm, sizeof norm), r->header[i]) !=
            0)
            return false;
    }
    return true;
}

/* Whether a row is a header other than the log's first (a "timestamp"
 * column name where a sample has a time): two logs of different
 * --query-gpu fields joined into one file.  Records the error. */
static bool smi_is_other_header(const smi_reader *r, char **fields, size_t n,
                                long line)
{
    char norm[256], q1[300], q2[300];
    size_t i, common = n < r->n_header ? n : r->n_header;
    bool header = false;

    for (i = 0; i < n && !header; i++)
        header = strcmp(smi_normalize(fields[i], norm, sizeof norm),
                        "timestamp") == 0;
    if (!header)
        return false;
    for (i = 0; i < common; i++)
        if (strcmp(smi_normalize(fields[i], norm, sizeof norm), r->header[i]) !=
            0)
            break;
    if (i < common) {
        smi_normalize(fields[i], norm, sizeof norm);
        gp_error_set(r->T->err, r->T->sources[r->source].name, line,
                     (long)i + 1, "header",
                     "a second header row, unlike line %ld's (column %zu is "
                     "%s here, %s there): two logs joined into one file? "
                     "Give each log as its own file",
                     r->header_line, i + 1,
                     shown(norm, strlen(norm), q1, sizeof q1),
                     shown(r->header[i], strlen(r->header[i]), q2, sizeof q2));
    } else {
        gp_error_set(r->T->err, r->T->sources[r->source].name, line,
                     (long)common + 1, "header",
                     "a second header row, unlike line %ld's (%zu %s "
                     "here, %zu there): two logs joined into one file? Give "
                     "each log as its own file",
                     r->header_line, n, gp_plural(n, "column", "columns"),
                     r->n_header);
    }
    return true;
}

/* The trimmed text of column k of a row, "" when the column is absent. */
static const char *smi_field(const smi_reader *r, char **fields, int k,
                             size_t *len)
{
    if (r->col[k] < 0) {
        *len = 0;
        return "";
    }
    *len = strlen(fields[r->col[k]]);
    return trim(fields[r->col[k]], len);
}

/* Reads one measurement column into *out (NaN when "[N/A]"). */
static gp_status smi_measure(smi_reader *r, char **fields, int k, long line,
                             const unit *units, const char *expect, double lo,
                             double hi, double *out)
{
    size_t len;
    const char *s = smi_field(r, fields, k, &len);
    char q[300];

    *out = NAN;
    if (r->col[k] < 0 || value_missing(s, len))
        return GP_OK;
    if (!parse_measure(s, len, units, out) || *out < lo || *out > hi) {
        gp_error_set(r->T->err, r->T->sources[r->source].name, line,
                     r->col[k] + 1, r->header[r->col[k]], "expected %s, got %s",
                     expect, shown(s, len, q, sizeof q));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Copies column k of a row into buf, or records that it is too long for
 * it (a host, GPU id, UUID or model name over 255 characters). */
static gp_status smi_text(smi_reader *r, char **fields, int k, long line,
                          char *buf, size_t size)
{
    size_t len;
    const char *s = smi_field(r, fields, k, &len);

    buf[0] = '\0';
    if (value_missing(s, len))
        return GP_OK;
    if (len >= size) {
        gp_error_set(r->T->err, r->T->sources[r->source].name, line,
                     r->col[k] + 1, r->header[r->col[k]],
                     "longer than %zu characters", size - 1);
        return GP_ERR_INPUT;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    return GP_OK;
}

/* Copies s[0, len) into buf (cut to fit). */
static void copy_to(char *buf, size_t size, const char *s, size_t len)
{
    if (len >= size)
        len = size - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
}

/* One row of an nvidia-smi log: a header, a repeated header, or a sample
 * of one GPU. */
static gp_status smi_row(void *ctx, char **fields, size_t n, long line,
                         gp_error *err)
{
    smi_reader *r = ctx;
    tel *T = r->T;
    const char *name = T->sources[r->source].name;
    char buf[256], id[256], key_id[256], uuid[256], model[256], host[256];
    char q[300];
    const char *s;
    size_t len, at;
    double t;
    const char *why;
    uint32_t gpu;
    bool created;
    gp_status st;
    tel_sample *sample;
    double util, mem, power;

    (void)err;
    if (!r->header)
        return smi_header(r, fields, n, line);
    if (smi_is_header(r, fields, n))
        return GP_OK;
    if (smi_is_other_header(r, fields, n, line))
        return GP_ERR_INPUT;
    /* the same rule as traces and bills: the column is the first one the
     * row and the header disagree on (a short row's first missing one) */
    if ((st = gp_csv_check_row_width(name, line, n, r->n_header, T->err)) !=
        GP_OK)
        return st;

    /* time: ISO 8601, or nvidia-smi's own "2023/05/12 10:00:00.123" */
    s = smi_field(r, fields, SMI_TIMESTAMP, &len);
    copy_to(buf, sizeof buf, s, len);
    if (len >= 10 && buf[4] == '/' && buf[7] == '/')
        buf[4] = buf[7] = '-';
    if (!gp_parse_time(buf, strlen(buf), &t, &why)) {
        if (strncmp(why, "expected", 8) == 0)
            why = "expected nvidia-smi's time (2023/05/12 10:00:00.123) or "
                  "ISO 8601";
        gp_error_set(T->err, name, line, r->col[SMI_TIMESTAMP] + 1, "timestamp",
                     "%s, got %s", why, shown(s, len, q, sizeof q));
        return GP_ERR_INPUT;
    }

    /* which GPU: uuid, else bus id, else a script's gpu column, else
     * index; job_id shows the gpu or index column when there is one */
    id[0] = key_id[0] = '\0';
    static const int key_cols[] = {SMI_BUS, SMI_GPU, SMI_INDEX};
    for (size_t k = 0; k < 3 && !key_id[0]; k++)
        if ((st = smi_text(r, fields, key_cols[k], line, key_id,
                           sizeof key_id)) != GP_OK)
            return st;
    if ((st = smi_text(r, fields, r->col[SMI_GPU] >= 0 ? SMI_GPU : SMI_INDEX,
                       line, id, sizeof id)) != GP_OK ||
        (st = smi_text(r, fields, SMI_UUID, line, uuid, sizeof uuid)) !=
            GP_OK ||
        (st = smi_text(r, fields, SMI_NAME, line, model, sizeof model)) !=
            GP_OK ||
        (st = smi_text(r, fields, SMI_HOST, line, host, sizeof host)) != GP_OK)
        return st;
    if (!id[0])
        copy_to(id, sizeof id,
                key_id[0] ? key_id
                : uuid[0] ? uuid
                          : "0",
                strlen(key_id[0] ? key_id
                       : uuid[0] ? uuid
                                 : "0"));
    if (!key_id[0])
        copy_to(key_id, sizeof key_id, id, strlen(id));
    if (!host[0])
        copy_to(host, sizeof host, r->host, strlen(r->host));

    if ((st = smi_measure(r, fields, SMI_UTIL, line, units_percent,
                          "a utilization 0..100 (\"33 %\" or 33)", 0, 100,
                          &util)) != GP_OK ||
        (st = smi_measure(r, fields, SMI_MEM, line, units_mib,
                          "memory in MiB (\"1129 MiB\" or 1129)", 0,
                          MAX_MEMORY_MIB, &mem)) != GP_OK ||
        (st = smi_measure(r, fields, SMI_POWER, line, units_watt,
                          "power in W (\"74.01 W\" or 74.01)", 0, MAX_POWER_W,
                          &power)) != GP_OK)
        return st;

    model_place model_at = {r->col[SMI_NAME] + 1,
                            r->col[SMI_NAME] >= 0 ? r->header[r->col[SMI_NAME]]
                                                  : NULL};
    if ((st = tel_gpu_get(T, host, key_id, id, uuid, model, &model_at,
                          r->source, line, -1, &gpu)) != GP_OK)
        return st;
    if ((st = tel_sample_at(T, gpu, t, r->source, line, -1, &at, &created)) !=
        GP_OK)
        return st;
    sample = &T->samples[at];
    if (!created) {
        /* adjacent or overlapping logs repeat their shared samples: one
         * from another file with the same readings is the same sample,
         * kept once */
        if (sample->source != r->source && same_reading(sample->util, util) &&
            same_reading(sample->mem, mem) &&
            same_reading(sample->power, power))
            return GP_OK;
        char when[40], job[600];
        gpu_job_id(&T->gpus[gpu], job, sizeof job);
        format_time_ms(sample->t, when, sizeof when);
        bool other = sample->source != r->source;
        gp_error_set(T->err, name, line, r->col[SMI_TIMESTAMP] + 1, "timestamp",
                     "GPU %s already has a %ssample at %s (%s line %ld); %s",
                     job, other ? "different " : "", when,
                     T->sources[sample->source].name, sample->line,
                     other ? "logs that overlap must agree where they do"
                           : "logs of several hosts need a host column, or "
                             "one file each");
        return GP_ERR_INPUT;
    }
    sample->util = util;
    sample->mem = mem;
    sample->power = power;
    sample->set = (isnan(util) ? 0u : M_UTIL) | (isnan(mem) ? 0u : M_MEM) |
                  (isnan(power) ? 0u : M_POWER);
    return GP_OK;
}

/* Reads one nvidia-smi log held in memory. */
static gp_status smi_read(tel *T, uint32_t source, const char *text, size_t len)
{
    smi_reader r;
    gp_status st;

    memset(&r, 0, sizeof r);
    r.T = T;
    r.source = source;
    file_stem(T->sources[source].name, r.host, sizeof r.host);
    st = gp_csv_rows_read(text, len, NULL, T->sources[source].name, smi_row, &r,
                          T->err);
    if (st == GP_ERR_NOMEM)
        nomem(T);
    if (st == GP_OK && !r.header) {
        gp_error_set(T->err, T->sources[source].name, 0, 0, NULL,
                     "the file is empty");
        st = GP_ERR_INPUT;
    }
    for (size_t i = 0; r.header && i < r.n_header; i++)
        gp_free(r.header[i]);
    gp_free(r.header);
    return st;
}

/* ---- DCGM exporter: Prometheus text exposition --------------------------- */

/* The DCGM fields gpuplan reads, and the M_* bit of each. */
static unsigned dcgm_metric(const char *name)
{
    if (strcmp(name, "DCGM_FI_DEV_GPU_UTIL") == 0)
        return M_UTIL;
    if (strcmp(name, "DCGM_FI_DEV_FB_USED") == 0)
        return M_MEM;
    if (strcmp(name, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE") == 0)
        return M_TENSOR;
    if (strcmp(name, "DCGM_FI_DEV_POWER_USAGE") == 0)
        return M_POWER;
    if (strcmp(name, "DCGM_FI_PROF_GR_ENGINE_ACTIVE") == 0)
        return M_ENGINE;
    return M_OTHER;
}

#define MAX_LABELS 48

/* A metric's labels as read: names and unescaped values, NUL-terminated,
 * pointing into a scratch buffer. */
typedef struct label_set {
    const char *name[MAX_LABELS];
    const char *value[MAX_LABELS];
    long column[MAX_LABELS]; /* where each name starts in a text-format
                                line (1-based); 0 when read from JSON */
    size_t n;
} label_set;

/* The value of label `name`, "" when absent. */
static const char *label(const label_set *ls, const char *name)
{
    for (size_t i = 0; i < ls->n; i++)
        if (strcmp(ls->name[i], name) == 0)
            return ls->value[i];
    return "";
}

/* The column of label `name` (label_set.column), 0 when absent. */
static long label_column(const label_set *ls, const char *name)
{
    for (size_t i = 0; i < ls->n; i++)
        if (strcmp(ls->name[i], name) == 0)
            return ls->column[i];
    return 0;
}

/* Records an error about label `name` of a reading: at the label's column
 * on a text line; for a Prometheus series at its value in the series'
 * metric, with that path as the field, as other label errors give it. */
#if defined(__GNUC__)
__attribute__((format(printf, 7, 8)))
#endif
static gp_status
label_error(tel *T, uint32_t source, long line, long series,
            const label_set *ls, const char *name, const char *fmt, ...)
{
    const tel_source *src = &T->sources[source];
    long column = label_column(ls, name);
    const char *field = name;
    char path_field[96], msg[640];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (series >= 0 && src->text) {
        gp_jstep path[5] = {
            {"data", 0}, {"result", 0}, {NULL, 0}, {"metric", 0}, {name, 0}};
        path[2].index = (size_t)series;
        gp_json_locate(src->text, src->len, path, 5, &line, &column);
        snprintf(path_field, sizeof path_field, "data.result[%ld].metric.%s",
                 series, name);
        field = path_field;
    }
    gp_error_set(T->err, src->name, line, column, field, "%s", msg);
    return GP_ERR_INPUT;
}

/* The first of two labels that is set. */
static const char *label2(const label_set *ls, const char *a, const char *b)
{
    const char *v = label(ls, a);
    return v[0] ? v : label(ls, b);
}

/*
 * The Kubernetes labels of the workload on a GPU: namespace (the team),
 * container (the project) and pod.  A raw scrape has them as namespace,
 * container and pod.  Prometheus renames them exported_* when its target,
 * the exporter's own pod, has labels of those names, and drops empty ones;
 * so exported_* come first, and plain labels that name the exporter itself
 * (container "nvidia-dcgm-exporter" or "dcgm-exporter") are not a
 * workload's.
 */
static void workload_labels(const label_set *ls, const char **team,
                            const char **project, const char **pod)
{
    const char *container = label(ls, "container");

    if (label(ls, "exported_pod")[0] || label(ls, "exported_namespace")[0] ||
        label(ls, "exported_container")[0]) {
        *team = label(ls, "exported_namespace");
        *project = label(ls, "exported_container");
        *pod = label(ls, "exported_pod");
    } else if (strstr(container, "dcgm-exporter") != NULL) {
        *team = *project = *pod = "";
    } else {
        *team = label(ls, "namespace");
        *project = container;
        *pod = label(ls, "pod");
    }
}

/* A sample's values, as one metric line or JSON point gives them. */
typedef struct metric_value {
    unsigned kind; /* M_* */
    const char *metric;
    double value; /* NaN: no reading */
} metric_value;

/* Adds one reading of a DCGM metric for the GPU its labels name, at time
 * t, to the table. */
static gp_status add_reading(tel *T, uint32_t source, long line, long series,
                             long point, long column, const label_set *ls,
                             const char *default_host, double t,
                             const metric_value *mv)
{
    const char *gpu_label = label(ls, "gpu");
    const char *uuid = label(ls, "UUID");
    const char *host = label2(ls, "Hostname", "instance");
    const char *team, *project, *pod;
    uint32_t gpu, labels;
    size_t at;
    bool created;
    gp_status st;
    tel_sample *s;
    const tel_source *src = &T->sources[source];

    if (!host[0])
        host = default_host;
    if (label(ls, "GPU_I_ID")[0])
        return label_error(T, source, line, series, ls, "GPU_I_ID",
                           "MIG instances are not supported yet: import the "
                           "whole GPUs' metrics (without GPU_I_ID)");
    const char *key_id = gpu_label[0] ? gpu_label : uuid;
    model_place model_at = {label_column(ls, "modelName"), "modelName"};
    if (!gpu_key_fits(host, key_id, uuid)) {
        /* the label that makes the key too long: the UUID, which is the
         * key on its own, else the longer of the host's and the gpu's
         * (a host from the file's name is at most 255 bytes, so then
         * always the gpu's) */
        const char *host_label =
            label(ls, "Hostname")[0] ? "Hostname" : "instance";
        const char *name = uuid[0]                             ? "UUID"
                           : strlen(host) >= strlen(gpu_label) ? host_label
                                                               : "gpu";
        return label_error(T, source, line, series, ls, name,
                           uuid[0] ? "the GPU's UUID is too long (over %d "
                                     "bytes)"
                                   : "the GPU's host and id are too long "
                                     "(over %d bytes together)",
                           GPU_KEY_MAX - 4);
    }
    if ((st = tel_gpu_get(T, host, gpu_label[0] ? gpu_label : uuid,
                          gpu_label[0] ? gpu_label : uuid, uuid,
                          label(ls, "modelName"), &model_at, source, line,
                          series, &gpu)) != GP_OK)
        return st;
    workload_labels(ls, &team, &project, &pod);
    if ((st = tel_labels_get(T, team, project, pod, &labels)) != GP_OK)
        return st;
    if ((st = tel_sample_at(T, gpu, t, source, line, series, &at, &created)) !=
        GP_OK)
        return st;
    s = &T->samples[at];
    if (created || !s->labels)
        s->labels = labels;
    if (T->labels[labels].pod[0] && !s->pod_labels) {
        /* the first reading to name a pod gives the sample its labels,
         * also when an earlier one at this time (another metric's) had a
         * namespace and no pod: that one kept, the pod and container were
         * lost */
        s->labels = labels;
        s->pod_labels = labels;
        s->pod_source = source;
        s->pod_where = series >= 0 ? series : line;
    } else if (T->labels[labels].pod[0] && labels != s->pod_labels) {
        /* this reading is the second pod's claim, whichever metric it is
         * of: the error is here, not at a later clash of two values */
        char when[40], job[600], pods[300], other[300] = "";
        gpu_job_id(&T->gpus[gpu], job, sizeof job);
        format_time_ms(s->t, when, sizeof when);
        snprintf(pods, sizeof pods, "%s and %s", T->labels[s->pod_labels].pod,
                 T->labels[labels].pod);
        if (s->pod_source != source)
            snprintf(other, sizeof other, "%s ",
                     T->sources[s->pod_source].name);
        if (series >= 0)
            return at_error(T, source, line, series, NULL,
                            "GPU %s is used by several pods at %s (%s, "
                            "also %sdata.result[%ld]): GPUs shared by "
                            "time-slicing or MPS are not supported yet",
                            job, when, pods, other, s->pod_where);
        gp_error_set(T->err, src->name, line, column, mv->metric,
                     "GPU %s is used by several pods at %s (%s, also "
                     "%sline %ld): GPUs shared by time-slicing or MPS are "
                     "not supported yet",
                     job, when, pods, other, s->pod_where);
        return GP_ERR_INPUT;
    }
    double *slot = kind_slot(s, mv->kind);
    if (slot && (s->set & mv->kind)) {
        if (s->kind_source[kind_index(mv->kind)] != source &&
            same_reading(*slot, mv->value))
            return GP_OK; /* the shared sample of adjacent exports */
        char when[40], job[600];
        gpu_job_id(&T->gpus[gpu], job, sizeof job);
        format_time_ms(s->t, when, sizeof when);
        /* the other value's place: in this file, or in another; this
         * reading's kind, not the sample's first (another metric's line) */
        int k = kind_index(mv->kind);
        char other[300] = "";
        if (s->kind_source[k] != source)
            snprintf(other, sizeof other, "%s ",
                     T->sources[s->kind_source[k]].name);
        if (series >= 0)
            return point_error(T, source, series, point,
                               "GPU %s has two %s values at %s (also "
                               "%sdata.result[%lu])",
                               job, mv->metric, when, other,
                               (unsigned long)s->kind_where[k]);
        gp_error_set(T->err, src->name, line, column, mv->metric,
                     "GPU %s has two values at %s (also %sline %lu)", job, when,
                     other, (unsigned long)s->kind_where[k]);
        return GP_ERR_INPUT;
    }
    if (slot) {
        s->kind_source[kind_index(mv->kind)] = source;
        s->kind_where[kind_index(mv->kind)] =
            (uint32_t)(series >= 0 ? series : line);
    }
    s->set |= mv->kind;
    if (slot)
        *slot = mv->value;
    return GP_OK;
}

/* Checks a reading's range: utilization in percent, activity ratios in
 * [0, 1], memory and power within the bounds nvidia-smi logs are held to.
 * Returns what was expected, or NULL. */
static const char *reading_range(unsigned kind, double v)
{
    if (isnan(v))
        return NULL;
    switch (kind) {
    case M_UTIL:
        return v >= 0 && v <= 100 ? NULL : "a utilization 0..100";
    case M_TENSOR:
    case M_ENGINE:
        return v >= 0 && v <= 1 ? NULL : "a ratio 0..1";
    case M_MEM:
        return v >= 0 && v <= MAX_MEMORY_MIB ? NULL
                                             : "memory in MiB (0 to 1e12)";
    case M_POWER:
        return v >= 0 && v <= MAX_POWER_W ? NULL : "power in W (0 to 1e6)";
    default:
        return NULL;
    }
}

/* Whether c may start a metric or label name ([a-zA-Z_:]). */
static bool is_name_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
           c == ':';
}

/* Whether c may continue a metric or label name ([a-zA-Z0-9_:]). */
static bool is_name_char(char c)
{
    return is_name_start(c) || (c >= '0' && c <= '9');
}

/* A reader of one line of the text format. */
typedef struct prom_line {
    tel *T;
    uint32_t source;
    long line;
    const char *s;
    size_t len, i;
} prom_line;

/* Records an error at the reader's current column of the line. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static gp_status
prom_error(prom_line *pl, const char *field, const char *fmt, ...)
{
    char msg[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gp_error_set(pl->T->err, pl->T->sources[pl->source].name, pl->line,
                 (long)pl->i + 1, field, "%s", msg);
    return GP_ERR_INPUT;
}

/* Skips spaces and tabs. */
static void prom_space(prom_line *pl)
{
    while (pl->i < pl->len && (pl->s[pl->i] == ' ' || pl->s[pl->i] == '\t'))
        pl->i++;
}

/* Reads a label set "{a="x",b="y"}" into ls, unescaping values into
 * scratch (which must hold the line's length). */
static gp_status prom_labels(prom_line *pl, label_set *ls, char *scratch)
{
    size_t out = 0;

    pl->i++; /* '{' */
    for (;;) {
        prom_space(pl);
        if (pl->i < pl->len && pl->s[pl->i] == '}') {
            pl->i++;
            return GP_OK;
        }
        if (pl->i >= pl->len || !is_name_start(pl->s[pl->i]) ||
            pl->s[pl->i] == ':')
            return prom_error(pl, NULL, "expected a label name or }");
        if (ls->n == MAX_LABELS)
            return prom_error(pl, NULL, "more than %d labels", MAX_LABELS);
        ls->name[ls->n] = scratch + out;
        size_t name_at = pl->i;
        ls->column[ls->n] = (long)name_at + 1;
        while (pl->i < pl->len && is_name_char(pl->s[pl->i]) &&
               pl->s[pl->i] != ':')
            scratch[out++] = pl->s[pl->i++];
        scratch[out++] = '\0';
        /* label() would take the first and ignore the other: which GPU or
         * pod the sample is of would be a guess */
        for (size_t k = 0; k < ls->n; k++)
            if (strcmp(ls->name[k], ls->name[ls->n]) == 0) {
                pl->i = name_at;
                return prom_error(pl, ls->name[ls->n],
                                  "the label is there twice in one sample");
            }
        prom_space(pl);
        if (pl->i >= pl->len || pl->s[pl->i] != '=')
            return prom_error(pl, ls->name[ls->n], "expected =");
        pl->i++;
        prom_space(pl);
        if (pl->i >= pl->len || pl->s[pl->i] != '"')
            return prom_error(pl, ls->name[ls->n],
                              "expected a quoted label value");
        pl->i++;
        ls->value[ls->n] = scratch + out;
        for (;;) {
            char c;
            if (pl->i >= pl->len)
                return prom_error(pl, ls->name[ls->n],
                                  "the label value has no closing quote");
            c = pl->s[pl->i++];
            if (c == '"')
                break;
            if (c == '\\') {
                if (pl->i >= pl->len)
                    return prom_error(pl, ls->name[ls->n],
                                      "the label value has no closing "
                                      "quote");
                c = pl->s[pl->i++];
                if (c == 'n')
                    c = '\n';
                else if (c != '\\' && c != '"') {
                    pl->i--;
                    return prom_error(pl, ls->name[ls->n],
                                      "unknown escape \\%c (expected \\\\, "
                                      "\\\" or \\n)",
                                      c);
                }
            }
            scratch[out++] = c;
        }
        scratch[out++] = '\0';
        ls->n++;
        prom_space(pl);
        if (pl->i < pl->len && pl->s[pl->i] == ',') {
            pl->i++;
            continue;
        }
        if (pl->i < pl->len && pl->s[pl->i] == '}') {
            pl->i++;
            return GP_OK;
        }
        return prom_error(pl, NULL, "expected , or } after a label");
    }
}

/* Parses a sample value: a number, NaN, +Inf or -Inf. */
static bool prom_value(const char *s, size_t len, double *out)
{
    if (len == 3 && strncmp(s, "NaN", 3) == 0) {
        *out = NAN;
        return true;
    }
    if ((len == 4 && strncmp(s, "+Inf", 4) == 0) ||
        (len == 3 && strncmp(s, "Inf", 3) == 0)) {
        *out = INFINITY;
        return true;
    }
    if (len == 4 && strncmp(s, "-Inf", 4) == 0) {
        *out = -INFINITY;
        return true;
    }
    return gp_parse_number(s, len, out);
}

/* How many "# TYPE <metric>" lines the current file has had for metric:
 * each scrape describes each metric family once, before its samples. */
static uint32_t dcgm_families(tel *T, const char *metric)
{
    const char *parts[2] = {"\001TYPE", metric};
    char key[300];
    size_t klen = make_key(key, sizeof key, parts, 2);
    uint32_t slot;

    if (klen && gp_strmap_get(&T->count_map, key, klen, &slot))
        return T->counts[slot];
    return 0;
}

/* A comment line of a scrape: "# TYPE DCGM_FI_... gauge" starts a metric
 * family and is counted (dcgm_families); HELP and other comments are
 * skipped. */
static gp_status dcgm_type_line(tel *T, const char *s, size_t len)
{
    char metric[256];
    const char *parts[2] = {"\001TYPE", metric};
    char key[300];
    size_t i = 1, start, klen;
    uint32_t slot;

    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (len - i < 5 || memcmp(s + i, "TYPE", 4) != 0 ||
        (s[i + 4] != ' ' && s[i + 4] != '\t'))
        return GP_OK;
    i += 4;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    start = i;
    while (i < len && is_name_char(s[i]))
        i++;
    if (i == start || i - start >= sizeof metric)
        return GP_OK;
    copy_to(metric, sizeof metric, s + start, i - start);
    if (strncmp(metric, "DCGM_FI_", 8) != 0 ||
        !(klen = make_key(key, sizeof key, parts, 2)))
        return GP_OK;
    if (gp_strmap_get(&T->count_map, key, klen, &slot)) {
        T->counts[slot]++;
        return GP_OK;
    }
    if (gp_grow((void **)&T->counts, &T->cap_counts, T->n_counts + 1,
                sizeof *T->counts) != GP_OK ||
        gp_strmap_put(&T->count_map, key, klen, (uint32_t)T->n_counts) != GP_OK)
        return nomem(T);
    T->counts[T->n_counts++] = 1;
    return GP_OK;
}

/* Reads one line of a scrape; adds it when it is a DCGM GPU metric. */
static gp_status dcgm_line(tel *T, uint32_t source, long line, const char *s,
                           size_t len, char *scratch, const char *host)
{
    prom_line pl = {T, source, line, s, len, 0};
    label_set ls;
    char metric[256], q[300];
    size_t start, n;
    double value, t;
    metric_value mv;
    long value_col;
    const char *why;
    gp_status st;

    ls.n = 0;
    prom_space(&pl);
    if (pl.i < len && s[pl.i] == '#')
        return dcgm_type_line(T, s + pl.i, len - pl.i);
    if (pl.i >= len)
        return GP_OK; /* blank */
    if (!is_name_start(s[pl.i])) {
        size_t n_bad = 0;
        while (pl.i + n_bad < len && !strchr(" \t{", s[pl.i + n_bad]))
            n_bad++;
        return prom_error(&pl, NULL, "expected a metric name, got %s",
                          shown(s + pl.i, n_bad, q, sizeof q));
    }
    start = pl.i;
    while (pl.i < len && is_name_char(s[pl.i]))
        pl.i++;
    n = pl.i - start;
    copy_to(metric, sizeof metric, s + start, n);
    if (pl.i < len && s[pl.i] == '{' &&
        (st = prom_labels(&pl, &ls, scratch)) != GP_OK)
        return st;
    if (pl.i >= len || (s[pl.i] != ' ' && s[pl.i] != '\t'))
        return prom_error(&pl, metric, "expected a space and the value");
    prom_space(&pl);
    start = pl.i;
    value_col = (long)start + 1;
    while (pl.i < len && s[pl.i] != ' ' && s[pl.i] != '\t')
        pl.i++;
    if (!prom_value(s + start, pl.i - start, &value)) {
        shown(s + start, pl.i - start, q, sizeof q);
        pl.i = start;
        return prom_error(&pl, metric, "expected a number, got %s", q);
    }
    prom_space(&pl);
    t = NAN;
    if (pl.i < len) {
        double ms;
        start = pl.i;
        while (pl.i < len && s[pl.i] != ' ' && s[pl.i] != '\t')
            pl.i++;
        if (!gp_parse_number(s + start, pl.i - start, &ms) || ms != floor(ms) ||
            ms < 0 || ms > 253402300799000.0) {
            shown(s + start, pl.i - start, q, sizeof q);
            pl.i = start;
            return prom_error(&pl, metric,
                              "expected a timestamp in milliseconds since "
                              "1970, got %s",
                              q);
        }
        if (ms < 946684800000.0) {
            /* before 2000: no GPU telemetry is that old, but a timestamp
             * in seconds read as milliseconds is (1767607200 -> 1970-01-21) */
            char when[32];
            gp_format_time((int64_t)ms, when, sizeof when);
            shown(s + start, pl.i - start, q, sizeof q);
            pl.i = start;
            return prom_error(&pl, metric,
                              "expected a timestamp in milliseconds since "
                              "1970, got %s, before 2000; in seconds it "
                              "would be %s: multiply by 1000",
                              q, when);
        }
        t = ms / 1000.0;
        prom_space(&pl);
        if (pl.i < len)
            return prom_error(&pl, metric,
                              "unexpected text after the timestamp");
    }

    /* only DCGM's per-GPU fields are telemetry */
    if (strncmp(metric, "DCGM_FI_", 8) != 0 ||
        (!label(&ls, "gpu")[0] && !label(&ls, "UUID")[0]))
        return GP_OK;
    mv.kind = dcgm_metric(metric);
    mv.metric = metric;
    mv.value = value;
    if ((why = reading_range(mv.kind, value)) != NULL) {
        pl.i = (size_t)value_col - 1;
        return prom_error(&pl, metric, "expected %s, got %s", why,
                          shown(s + value_col - 1,
                                strcspn(s + value_col - 1, " \t\r\n"), q,
                                sizeof q));
    }
    if (isnan(t)) {
        /* no timestamp: the k-th value of this metric for this GPU in the
         * file belongs to the k-th scrape, --step apart from --time */
        char key[600];
        const char *parts[4] = {label2(&ls, "Hostname", "instance"),
                                label(&ls, "gpu"), label(&ls, "UUID"), metric};
        size_t klen = make_key(key, sizeof key, parts, 4);
        uint32_t slot, k = 0;
        if (!T->opt->has_time) {
            pl.i = len;
            return prom_error(&pl, metric,
                              "the scrape has no timestamps; give --time "
                              "(when it was scraped)");
        }
        uint32_t families = dcgm_families(T, metric);
        if (families > 0) {
            /* the scrapes say where they start: a GPU shared by several
             * pods has one line per pod in one scrape, not one per scrape
             * (dcgm-exporter --kubernetes-virtual-gpus) */
            k = families - 1;
        } else if (!klen) {
            /* without the key, scrapes could not be told apart */
            const char *brace = memchr(s, '{', len);
            pl.i = brace ? (size_t)(brace - s) : 0;
            return prom_error(&pl, metric,
                              "the scrape has no timestamps, and its "
                              "Hostname, gpu and UUID labels with the "
                              "metric name are too long (over %zu bytes) "
                              "to tell its scrapes apart; add timestamps",
                              sizeof key);
        } else if (gp_strmap_get(&T->count_map, key, klen, &slot)) {
            k = T->counts[slot]++;
        } else {
            if (gp_grow((void **)&T->counts, &T->cap_counts, T->n_counts + 1,
                        sizeof *T->counts) != GP_OK ||
                gp_strmap_put(&T->count_map, key, klen,
                              (uint32_t)T->n_counts) != GP_OK)
                return nomem(T);
            T->counts[T->n_counts++] = 1;
        }
        t = T->opt->time +
            k * (T->opt->step_s > 0 ? T->opt->step_s : DCGM_DEFAULT_STEP_S);
    }
    return add_reading(T, source, line, -1, -1, value_col, &ls, host, t, &mv);
}

/* Reads one DCGM exporter scrape (or several, one after another) held in
 * memory. */
static gp_status dcgm_read(tel *T, uint32_t source, const char *text,
                           size_t len)
{
    size_t pos = 0;
    long line = 0;
    char host[256];
    char *scratch;
    gp_status st = GP_OK;

    file_stem(T->sources[source].name, host, sizeof host);
    if (gp_text_bom(T->sources[source].name, text, len, &pos, T->err) != GP_OK)
        return GP_ERR_INPUT;
    scratch = gp_malloc(len + 1);
    if (!scratch)
        return nomem(T);
    while (pos < len && st == GP_OK) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t n = end - pos;
        line++;
        if (n && text[pos + n - 1] == '\r')
            n--;
        st = dcgm_line(T, source, line, text + pos, n, scratch, host);
        pos = end + 1;
    }
    gp_free(scratch);
    return st;
}

/* ---- Prometheus HTTP API: query_range (and query) JSON --------------------
 */

/* Reads one [time, "value"] point at the current path. */
static gp_status prom_point(gp_jdoc *d, const json_t *pt, double *t, double *v)
{
    const json_t *jt, *jv;
    const char *s;

    if (!json_is_array(pt) || json_array_size(pt) != 2)
        return gp_jdoc_error(d, NULL,
                             "expected a [time, \"value\"] pair, got %s",
                             gp_json_type_phrase(pt));
    jt = json_array_get(pt, 0);
    jv = json_array_get(pt, 1);
    if (!json_is_number(jt)) {
        gp_jdoc_push_index(d, 0);
        gp_jdoc_error(d, NULL, "expected a time in seconds, got %s",
                      gp_json_type_phrase(jt));
        gp_jdoc_pop(d);
        return GP_ERR_INPUT;
    }
    *t = json_number_value(jt);
    if (!(*t >= 0 && *t <= 253402300799.0)) {
        gp_jdoc_push_index(d, 0);
        gp_jdoc_error(d, NULL, "the time is out of range (1970 to 9999)%s",
                      *t > 253402300799.0 && *t <= 253402300799000.0
                          ? "; query_range gives seconds, and this looks "
                            "like milliseconds: divide by 1000"
                          : "");
        gp_jdoc_pop(d);
        return GP_ERR_INPUT;
    }
    s = json_is_string(jv) ? json_string_value(jv) : "";
    if (!json_is_string(jv) || !prom_value(s, strlen(s), v)) {
        char q[300];
        gp_jdoc_push_index(d, 1);
        if (json_is_string(jv))
            gp_jdoc_error(d, NULL, "expected a number in a string, got %s",
                          gp_json_quote(json_string_value(jv), q, sizeof q));
        else
            gp_jdoc_error(d, NULL, "expected the value as a string, got %s",
                          gp_json_type_phrase(jv));
        gp_jdoc_pop(d);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Reads one series of data.result: its labels and its points. */
static gp_status prom_series(tel *T, gp_jdoc *d, uint32_t source, size_t i,
                             const json_t *series, bool matrix,
                             const char *host)
{
    json_t *metric, *points = NULL, *one = NULL;
    label_set ls;
    const char *key, *name;
    json_t *val;
    metric_value mv;
    gp_status st;
    size_t n_points;

    ls.n = 0;
    if ((st = gp_jdoc_expect_object(d, series)) != GP_OK ||
        (st = gp_jdoc_object(d, series, "metric", true, &metric)) != GP_OK)
        return st;
    gp_jdoc_push_key(d, "metric");
    json_object_foreach(metric, key, val)
    {
        if (!json_is_string(val)) {
            st = gp_jdoc_error(d, key, "expected a string, got %s",
                               gp_json_type_phrase(val));
            gp_jdoc_pop(d);
            return st;
        }
        if (ls.n < MAX_LABELS) {
            ls.name[ls.n] = key;
            ls.value[ls.n] = json_string_value(val);
            ls.column[ls.n] = 0;
            ls.n++;
        }
    }
    name = label(&ls, "__name__");
    if (!label(&ls, "gpu")[0] && !label(&ls, "UUID")[0]) {
        st = gp_jdoc_error(d, NULL,
                           "the series has no gpu or UUID label (an "
                           "aggregated query?); query per-GPU series, e.g. "
                           "DCGM_FI_DEV_GPU_UTIL");
        gp_jdoc_pop(d);
        return st;
    }
    if (name[0] && strncmp(name, "DCGM_FI_", 8) != 0) {
        char q[300];
        st = gp_jdoc_error(d, "__name__",
                           "%s is not a DCGM exporter metric; gpuplan reads "
                           "DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_FB_USED, "
                           "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE, ...",
                           gp_json_quote(name, q, sizeof q));
        gp_jdoc_pop(d);
        return st;
    }
    gp_jdoc_pop(d);
    /* a series without __name__ (avg_over_time(...) drops it) is taken as
     * GPU utilization */
    mv.kind = name[0] ? dcgm_metric(name) : M_UTIL;
    mv.metric = name[0] ? name : "DCGM_FI_DEV_GPU_UTIL";
    if (matrix) {
        if ((st = gp_jdoc_array(d, series, "values", true, &points)) != GP_OK)
            return st;
        gp_jdoc_push_key(d, "values");
        n_points = json_array_size(points);
    } else {
        if ((st = gp_jdoc_array(d, series, "value", true, &one)) != GP_OK)
            return st;
        n_points = 1;
    }
    for (size_t k = 0; k < n_points; k++) {
        double t = 0, v = 0;
        const char *why;
        if (matrix)
            gp_jdoc_push_index(d, k);
        else
            gp_jdoc_push_key(d, "value");
        st = prom_point(d, matrix ? json_array_get(points, k) : one, &t, &v);
        if (st == GP_OK && (why = reading_range(mv.kind, v)) != NULL) {
            gp_jdoc_push_index(d, 1);
            st = gp_jdoc_error(d, NULL, "expected %s for %s, got %g", why,
                               mv.metric, v);
            gp_jdoc_pop(d);
        }
        gp_jdoc_pop(d);
        if (st != GP_OK) {
            if (matrix)
                gp_jdoc_pop(d);
            return st;
        }
        mv.value = v;
        if ((st = add_reading(T, source, 0, (long)i, matrix ? (long)k : -1, 0,
                              &ls, host, t, &mv)) != GP_OK) {
            if (matrix)
                gp_jdoc_pop(d);
            return st;
        }
    }
    if (matrix)
        gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads one Prometheus API response held in the source's text. */
static gp_status prom_read(tel *T, uint32_t source)
{
    const tel_source *src = &T->sources[source];
    gp_jdoc d;
    json_t *root = NULL, *data, *result;
    const char *status, *type;
    char host[256];
    gp_status st;
    bool matrix;

    file_stem(src->name, host, sizeof host);
    gp_jdoc_init(&d, src->text, src->len, src->name, T->err);
    if ((st = gp_jdoc_parse(&d, &root)) != GP_OK)
        return st;
    if ((st = gp_jdoc_string(&d, root, "status", true, &status, NULL)) != GP_OK)
        goto done;
    if (strcmp(status, "success") != 0) {
        const char *etype = "", *emsg = "";
        json_t *e = json_object_get(root, "errorType");
        if (json_is_string(e))
            etype = json_string_value(e);
        e = json_object_get(root, "error");
        if (json_is_string(e))
            emsg = json_string_value(e);
        st = gp_jdoc_error(
            &d, "status", "the query failed (status \"%.40s\"): %.200s%s%.300s",
            status, etype, etype[0] && emsg[0] ? ": " : "", emsg);
        goto done;
    }
    if ((st = gp_jdoc_object(&d, root, "data", true, &data)) != GP_OK)
        goto done;
    gp_jdoc_push_key(&d, "data");
    if ((st = gp_jdoc_string(&d, data, "resultType", true, &type, NULL)) !=
        GP_OK)
        goto done;
    matrix = strcmp(type, "matrix") == 0;
    if (!matrix && strcmp(type, "vector") != 0) {
        char q[100];
        st = gp_jdoc_error(&d, "resultType",
                           "expected \"matrix\" (query_range) or \"vector\" "
                           "(query), got %s",
                           gp_json_quote(type, q, sizeof q));
        goto done;
    }
    if ((st = gp_jdoc_array(&d, data, "result", true, &result)) != GP_OK)
        goto done;
    gp_jdoc_push_key(&d, "result");
    for (size_t i = 0; i < json_array_size(result) && st == GP_OK; i++) {
        gp_jdoc_push_index(&d, i);
        st = prom_series(T, &d, source, i, json_array_get(result, i), matrix,
                         host);
        gp_jdoc_pop(&d);
    }
done:
    json_decref(root);
    return st;
}

/* ---- entry points -----------------------------------------------------------
 */

typedef enum tel_format { TEL_SMI, TEL_DCGM, TEL_PROM } tel_format;

static const char *const format_names[] = {"nvidia-smi", "dcgm", "prometheus"};

/* Reads one input (text owned by the table from here on). */
static gp_status read_one(tel *T, tel_format f, const char *name, char *text,
                          size_t len)
{
    uint32_t source;
    gp_status st = tel_add_source(T, name, text, len, &source);
    if (st != GP_OK)
        return st;
    switch (f) {
    case TEL_SMI:
        st = smi_read(T, source, text, len);
        break;
    case TEL_DCGM:
        st = dcgm_read(T, source, text, len);
        break;
    default:
        /* the JSON text stays: errors found later point into it */
        return prom_read(T, source);
    }
    /* text formats carry their line numbers in the samples */
    gp_free(T->sources[source].text);
    T->sources[source].text = NULL;
    return st;
}

/* The length of a GPU's only sample: --step, else 60 s for DCGM. */
static double single_step(const gp_import_options *opt, tel_format f)
{
    if (opt->step_s > 0)
        return opt->step_s;
    return f == TEL_DCGM ? DCGM_DEFAULT_STEP_S : 0;
}

/* Imports every input file of opt in format f. */
static gp_status import_files(tel_format f, const gp_import_options *opt,
                              FILE *out, gp_error *err)
{
    tel T;
    gp_status st = GP_OK;

    tel_init(&T, opt, err, format_names[f]);
    for (size_t i = 0; i < opt->n_inputs && st == GP_OK; i++) {
        char *text;
        size_t len;
        if ((st = gp_read_file(opt->inputs[i], &text, &len, err)) != GP_OK)
            break;
        st = read_one(&T, f, opt->inputs[i], text, len);
    }
    if (st == GP_OK)
        st = tel_finish(&T, out, single_step(opt, f));
    tel_free(&T);
    return st;
}

/* Imports one input held in memory. */
static gp_status import_buffer(tel_format f, const char *data, size_t len,
                               const char *name, const gp_import_options *opt,
                               FILE *out, gp_error *err)
{
    tel T;
    gp_status st;
    char *copy = gp_malloc(len + 1);

    tel_init(&T, opt, err, format_names[f]);
    if (!copy) {
        gp_error_set(err, name, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    memcpy(copy, data, len);
    copy[len] = '\0';
    st = read_one(&T, f, name, copy, len);
    if (st == GP_OK)
        st = tel_finish(&T, out, single_step(opt, f));
    tel_free(&T);
    return st;
}

/* The importers of import.h: each reads its format into the table and
 * writes the trace. */
gp_status gp_import_nvidia_smi(const gp_import_options *opt, FILE *out,
                               gp_error *err)
{
    return import_files(TEL_SMI, opt, out, err);
}

gp_status gp_import_dcgm(const gp_import_options *opt, FILE *out, gp_error *err)
{
    return import_files(TEL_DCGM, opt, out, err);
}

gp_status gp_import_prometheus(const gp_import_options *opt, FILE *out,
                               gp_error *err)
{
    return import_files(TEL_PROM, opt, out, err);
}

gp_status gp_import_nvidia_smi_buffer(const char *data, size_t len,
                                      const char *name,
                                      const gp_import_options *opt, FILE *out,
                                      gp_error *err)
{
    return import_buffer(TEL_SMI, data, len, name, opt, out, err);
}

gp_status gp_import_dcgm_buffer(const char *data, size_t len, const char *name,
                                const gp_import_options *opt, FILE *out,
                                gp_error *err)
{
    return import_buffer(TEL_DCGM, data, len, name, opt, out, err);
}

gp_status gp_import_prometheus_buffer(const char *data, size_t len,
                                      const char *name,
                                      const gp_import_options *opt, FILE *out,
                                      gp_error *err)
{
    return import_buffer(TEL_PROM, data, len, name, opt, out, err);
}
