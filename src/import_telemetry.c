/*
 * import_telemetry.c: GPU telemetry into a trace (SPEC sections 1 and 2):
 * `gpuplan import nvidia-smi | dcgm | prometheus`.  The entry points of
 * import.h and the table of samples every reader fills (one per GPU and
 * time); the readers are import_nvsmi.c, import_dcgm.c and
 * import_prometheus.c, the writer import_telemetry_trace.c.  How samples
 * become trace rows: docs/design/import_telemetry.md.
 */
#include "import_telemetry_internal.h"
#include "source.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- small helpers ------------------------------------------------------ */

/* Records "out of memory" and returns GP_ERR_NOMEM. */
gp_status tel_nomem(tel *T)
{
    gp_error_set(T->err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

/* Writes s[0, len) into buf as a quoted string for a message. */
const char *tel_shown(const char *s, size_t len, char *buf, size_t size)
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
void tel_file_stem(const char *path, char *buf, size_t size)
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
void tel_format_time_ms(double t, char *buf, size_t size)
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
void tel_gpu_job_id(const tel_gpu *g, char *buf, size_t size)
{
    bool digits = g->id[0] != '\0';
    for (const char *p = g->id; *p; p++)
        if (*p < '0' || *p > '9')
            digits = false;
    snprintf(buf, size, "%s/%s%s%s%s", g->host, digits ? "gpu" : "", g->id,
             g->mig_id ? "/mig" : "", g->mig_id ? g->mig_id : "");
}

/* Copies s[0, len) into buf (cut to fit). */
void tel_copy_to(char *buf, size_t size, const char *s, size_t len)
{
    if (len >= size)
        len = size - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
}

/* Sets err at the place a sample came from (a Prometheus series is found
 * again in its JSON text). */
gp_status tel_at_error(tel *T, uint32_t source, long line, long series,
                       const char *field, const char *fmt, ...)
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
gp_status tel_point_error(tel *T, uint32_t source, long series, long point,
                          const char *fmt, ...)
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
        gp_free(T->gpus[i].mig_id);
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
        return tel_nomem(T);
    }
    tel_source *s = &T->sources[T->n_sources];
    s->name = gp_strdup(name);
    if (!s->name) {
        gp_free(text);
        return tel_nomem(T);
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
size_t tel_make_key(char *buf, size_t size, const char *const *parts, size_t n)
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

/* Whether the key of the GPU known by `key_id` on `host`, or by uuid
 * alone, fits: tel_make_key's parts "U", "" and uuid, or "H", host and
 * key_id, each with its NUL. */
bool tel_gpu_key_fits(const char *host, const char *key_id, const char *uuid)
{
    size_t n = 4 + (uuid[0] ? strlen(uuid) : strlen(host) + strlen(key_id));
    return n <= GPU_KEY_MAX;
}

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
 * Callers check tel_gpu_key_fits first, to say which label is too long; an
 * nvidia-smi row's cells (255 bytes at most) always fit. */
gp_status tel_gpu_get(tel *T, const char *host, const char *key_id,
                      const char *id, const char *uuid, const char *model,
                      const model_place *model_at, uint32_t source, long line,
                      long series, uint32_t *out)
{
    char key[GPU_KEY_MAX];
    const char *parts[3] = {uuid[0] ? "U" : "H", uuid[0] ? "" : host,
                            uuid[0] ? uuid : key_id};
    size_t len = tel_make_key(key, sizeof key, parts, 3);
    uint32_t v;

    if (len == 0)
        return tel_at_error(T, source, line, series, "gpu",
                            "the GPU's host and id are too long (over %d bytes "
                            "together)",
                            GPU_KEY_MAX - 4);
    if (gp_strmap_get(&T->gpu_map, key, len, &v)) {
        tel_gpu *g = &T->gpus[v];
        /* a later sample may name what the first did not */
        if (!g->model[0] && model[0]) {
            char *m = gp_strdup(model);
            if (!m)
                return tel_nomem(T);
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
        return tel_nomem(T);
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
        return tel_nomem(T);
    }
    if (gp_strmap_put(&T->gpu_map, key, len, (uint32_t)T->n_gpus) != GP_OK) {
        gp_free(g->host);
        gp_free(g->id);
        gp_free(g->uuid);
        gp_free(g->model);
        return tel_nomem(T);
    }
    *out = (uint32_t)T->n_gpus++;
    return GP_OK;
}

/* The interned label set (team, project, pod); all "" gives 0.  Label
 * values have no length limit of their own, so a key too long for the
 * stack buffer is built on the heap rather than the labels dropped. */
gp_status tel_labels_get(tel *T, const char *team, const char *project,
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
            return tel_nomem(T);
        T->labels[0].team = gp_strdup("");
        T->labels[0].project = gp_strdup("");
        T->labels[0].pod = gp_strdup("");
        T->n_labels = 1;
        if (!T->labels[0].team || !T->labels[0].project || !T->labels[0].pod)
            return tel_nomem(T);
    }
    *out = 0;
    if (!team[0] && !project[0] && !pod[0])
        return GP_OK;
    need = strlen(team) + strlen(project) + strlen(pod) + 3;
    if (need > sizeof stack_key && !(key = gp_malloc(need)))
        return tel_nomem(T);
    len = tel_make_key(key, need, parts, 3);
    if (gp_strmap_get(&T->label_map, key, len, &v)) {
        *out = v;
        goto done;
    }
    if (gp_grow((void **)&T->labels, &T->cap_labels, T->n_labels + 1,
                sizeof *T->labels) != GP_OK) {
        st = tel_nomem(T);
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
        st = tel_nomem(T);
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
gp_status tel_sample_at(tel *T, uint32_t gpu, double t, uint32_t source,
                        long line, long series, size_t *out, bool *created)
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
        return tel_nomem(T);
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
bool tel_same_reading(double a, double b)
{
    return (isnan(a) && isnan(b)) || a == b;
}

/* Where a sample holds reading `kind` (NULL for M_OTHER: no value). */
double *tel_kind_slot(tel_sample *s, unsigned kind)
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
int tel_kind_index(unsigned kind)
{
    int i = 0;
    while (kind > 1 && i < 4) {
        kind >>= 1;
        i++;
    }
    return i;
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
        st = tel_smi_read(T, source, text, len);
        break;
    case TEL_DCGM:
        st = tel_dcgm_read(T, source, text, len);
        break;
    default:
        /* the JSON text stays: errors found later point into it */
        return tel_prom_read(T, source);
    }
    /* text formats carry their line numbers in the samples */
    gp_free(T->sources[source].text);
    T->sources[source].text = NULL;
    return st;
}

/* The length of a GPU's only sample: the step parameter, else 60 s for DCGM. */
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
        if ((st = gp_source_load(opt->inputs[i], GP_SOURCE_IMPORT, &text, &len,
                                 err)) != GP_OK)
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
