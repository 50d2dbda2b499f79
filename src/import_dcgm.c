/*
 * import_dcgm.c: `gpuplan import dcgm`, DCGM exporter scrapes (the
 * Prometheus text exposition format) into the table of samples, and the
 * reading of one DCGM metric that Prometheus' JSON (import_prometheus.c)
 * shares; docs/design/import_telemetry.md.
 */
#include "import_telemetry_internal.h"
#include "source.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- DCGM exporter: Prometheus text exposition --------------------------- */

/* The DCGM fields gpuplan reads, and the M_* bit of each. */
unsigned tel_dcgm_metric(const char *name)
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

/* The value of label `name`, "" when absent. */
const char *tel_label(const label_set *ls, const char *name)
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
    const char *v = tel_label(ls, a);
    return v[0] ? v : tel_label(ls, b);
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
    const char *container = tel_label(ls, "container");

    if (tel_label(ls, "exported_pod")[0] ||
        tel_label(ls, "exported_namespace")[0] ||
        tel_label(ls, "exported_container")[0]) {
        *team = tel_label(ls, "exported_namespace");
        *project = tel_label(ls, "exported_container");
        *pod = tel_label(ls, "exported_pod");
    } else if (strstr(container, "dcgm-exporter") != NULL) {
        *team = *project = *pod = "";
    } else {
        *team = tel_label(ls, "namespace");
        *project = container;
        *pod = tel_label(ls, "pod");
    }
}

/* Where a reading is, for the table and its errors: its file, and the
 * line and column of a text line, or data.result[series] (values[point])
 * of a Prometheus response; and what it reads. */
typedef struct reading_at {
    tel *T;
    uint32_t source;
    long line, series, point, column;
    const metric_value *mv;
} reading_at;

/* Makes GPU *gpu (just found by its labels) the MIG instance GPU_I_ID
 * names: its slices from GPU_I_PROFILE; an unknown profile, a missing
 * one, or a profile that differs from the instance's earlier one is an
 * error at the label. */
static gp_status reading_mig(const reading_at *ra, const label_set *ls,
                             uint32_t gpu)
{
    tel *T = ra->T;
    tel_gpu *g = &T->gpus[gpu];
    const char *profile = tel_label(ls, "GPU_I_PROFILE");
    int slices = 0, total = 0;

    if (!profile[0])
        return label_error(T, ra->source, ra->line, ra->series, ls, "GPU_I_ID",
                           "a MIG instance (GPU_I_ID) without GPU_I_PROFILE: "
                           "its size is unknown");
    if (!tel_mig_profile(profile, tel_label(ls, "modelName"), &slices,
                         &total))
        return label_error(T, ra->source, ra->line, ra->series, ls,
                           "GPU_I_PROFILE",
                           "unknown MIG profile \"%.100s\": expected <n>g."
                           "<memory>gb with n of 1, 2, 3, 4 or 7 compute "
                           "slices (1, 2 or 4 on an A30)",
                           profile);
    if (g->mig_slices && g->mig_slices != slices)
        return label_error(T, ra->source, ra->line, ra->series, ls,
                           "GPU_I_PROFILE",
                           "MIG instance %s of GPU %s was %d slices and is "
                           "now \"%.100s\": a GPU split again is not "
                           "supported",
                           g->mig_id, g->id, g->mig_slices, profile);
    if (!g->mig_id) {
        if (!(g->mig_id = gp_strdup(tel_label(ls, "GPU_I_ID"))))
            return tel_nomem(T);
        g->mig_slices = slices;
        g->mig_total = total;
    }
    return GP_OK;
}

/* The GPU a reading's labels name (added when new), on the host they name
 * or default_host, a MIG instance its own (GPU_I_ID); an error for a key
 * too long. */
static gp_status reading_gpu(const reading_at *ra, const label_set *ls,
                             const char *default_host, uint32_t *gpu)
{
    tel *T = ra->T;
    uint32_t source = ra->source;
    long line = ra->line, series = ra->series;
    const char *gpu_label = tel_label(ls, "gpu");
    const char *uuid = tel_label(ls, "UUID");
    const char *host = label2(ls, "Hostname", "instance");
    const char *mig = tel_label(ls, "GPU_I_ID");
    char mig_key[GPU_KEY_MAX];

    if (!host[0])
        host = default_host;
    const char *key_id = gpu_label[0] ? gpu_label : uuid;
    model_place model_at = {label_column(ls, "modelName"), "modelName"};
    if (!tel_gpu_key_fits(host, key_id, uuid) ||
        strlen(key_id) + strlen(mig) + 8 >= sizeof mig_key) {
        /* the label that makes the key too long: the UUID, which is the
         * key on its own, else the longer of the host's and the gpu's
         * (a host from the file's name is at most 255 bytes, so then
         * always the gpu's) */
        const char *host_label =
            tel_label(ls, "Hostname")[0] ? "Hostname" : "instance";
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
    if (!mig[0])
        return tel_gpu_get(T, host, key_id, key_id, uuid,
                           tel_label(ls, "modelName"), &model_at, source,
                           line, series, gpu);
    /* a MIG instance: keyed by its GPU and GPU_I_ID, shown as its GPU */
    snprintf(mig_key, sizeof mig_key, "%s/mig%s", key_id, mig);
    gp_status st = tel_gpu_get(T, host, mig_key, key_id, "",
                               tel_label(ls, "modelName"), &model_at, source,
                               line, series, gpu);
    if (st == GP_OK && !T->gpus[*gpu].uuid[0] && uuid[0]) {
        char *u = gp_strdup(uuid);
        if (!u)
            return tel_nomem(T);
        gp_free(T->gpus[*gpu].uuid);
        T->gpus[*gpu].uuid = u;
    }
    return st == GP_OK ? reading_mig(ra, ls, *gpu) : st;
}

/* Gives sample s the labels of a reading that names a pod, the first
 * time one does; a second pod at the same GPU and time is an error. */
static gp_status reading_pod(const reading_at *ra, tel_sample *s, uint32_t gpu,
                             uint32_t labels)
{
    tel *T = ra->T;
    uint32_t source = ra->source;
    long line = ra->line, series = ra->series, column = ra->column;
    const metric_value *mv = ra->mv;
    const tel_source *src = &T->sources[source];

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
        tel_gpu_job_id(&T->gpus[gpu], job, sizeof job);
        tel_format_time_ms(s->t, when, sizeof when);
        snprintf(pods, sizeof pods, "%s and %s", T->labels[s->pod_labels].pod,
                 T->labels[labels].pod);
        if (s->pod_source != source)
            snprintf(other, sizeof other, "%s ",
                     T->sources[s->pod_source].name);
        if (series >= 0)
            return tel_at_error(T, source, line, series, NULL,
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
    return GP_OK;
}

/* Stores a reading's value in sample s; a second value of one kind is an
 * error, unless another file (an adjacent export) gave the same one. */
static gp_status reading_value(const reading_at *ra, tel_sample *s,
                               uint32_t gpu)
{
    tel *T = ra->T;
    uint32_t source = ra->source;
    long line = ra->line, series = ra->series, point = ra->point;
    long column = ra->column;
    const metric_value *mv = ra->mv;
    const tel_source *src = &T->sources[source];

    double *slot = tel_kind_slot(s, mv->kind);
    if (slot && (s->set & mv->kind)) {
        if (s->kind_source[tel_kind_index(mv->kind)] != source &&
            tel_same_reading(*slot, mv->value))
            return GP_OK; /* the shared sample of adjacent exports */
        char when[40], job[600];
        tel_gpu_job_id(&T->gpus[gpu], job, sizeof job);
        tel_format_time_ms(s->t, when, sizeof when);
        /* the other value's place: in this file, or in another; this
         * reading's kind, not the sample's first (another metric's line) */
        int k = tel_kind_index(mv->kind);
        char other[300] = "";
        if (s->kind_source[k] != source)
            snprintf(other, sizeof other, "%s ",
                     T->sources[s->kind_source[k]].name);
        if (series >= 0)
            return tel_point_error(T, source, series, point,
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
        s->kind_source[tel_kind_index(mv->kind)] = source;
        s->kind_where[tel_kind_index(mv->kind)] =
            (uint32_t)(series >= 0 ? series : line);
    }
    s->set |= mv->kind;
    if (slot)
        *slot = mv->value;
    return GP_OK;
}

/* Adds one reading of a DCGM metric for the GPU its labels name, at time
 * t, to the table. */
gp_status tel_add_reading(tel *T, uint32_t source, long line, long series,
                          long point, long column, const label_set *ls,
                          const char *default_host, double t,
                          const metric_value *mv)
{
    reading_at ra = {T, source, line, series, point, column, mv};
    const char *team, *project, *pod;
    uint32_t gpu, labels;
    size_t at;
    bool created;
    gp_status st;
    tel_sample *s;

    if ((st = reading_gpu(&ra, ls, default_host, &gpu)) != GP_OK)
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
    if ((st = reading_pod(&ra, s, gpu, labels)) != GP_OK)
        return st;
    return reading_value(&ra, s, gpu);
}

/* Checks a reading's range: utilization in percent, activity ratios in
 * [0, 1], memory and power within the bounds nvidia-smi logs are held to.
 * Returns what was expected, or NULL. */
const char *tel_reading_range(unsigned kind, double v)
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
        /* tel_label() would take the first and ignore the other: which GPU or
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
bool tel_prom_value(const char *s, size_t len, double *out)
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
    size_t klen = tel_make_key(key, sizeof key, parts, 2);
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
    tel_copy_to(metric, sizeof metric, s + start, i - start);
    if (strncmp(metric, "DCGM_FI_", 8) != 0 ||
        !(klen = tel_make_key(key, sizeof key, parts, 2)))
        return GP_OK;
    if (gp_strmap_get(&T->count_map, key, klen, &slot)) {
        T->counts[slot]++;
        return GP_OK;
    }
    if (gp_grow((void **)&T->counts, &T->cap_counts, T->n_counts + 1,
                sizeof *T->counts) != GP_OK ||
        gp_strmap_put(&T->count_map, key, klen, (uint32_t)T->n_counts) != GP_OK)
        return tel_nomem(T);
    T->counts[T->n_counts++] = 1;
    return GP_OK;
}

/* Reads the timestamp that may end a sample line, in milliseconds since
 * 1970, into *t in seconds; NaN when the line has none. */
static gp_status dcgm_timestamp(prom_line *pl, const char *metric, double *t)
{
    const char *s = pl->s;
    size_t len = pl->len, start;
    char q[300];
    double ms;

    *t = NAN;
    if (pl->i >= len)
        return GP_OK;
    start = pl->i;
    while (pl->i < len && s[pl->i] != ' ' && s[pl->i] != '\t')
        pl->i++;
    if (!gp_parse_number(s + start, pl->i - start, &ms) || ms != floor(ms) ||
        ms < 0 || ms > 253402300799000.0) {
        tel_shown(s + start, pl->i - start, q, sizeof q);
        pl->i = start;
        return prom_error(pl, metric,
                          "expected a timestamp in milliseconds since "
                          "1970, got %s",
                          q);
    }
    if (ms < 946684800000.0) {
        /* before 2000: no GPU telemetry is that old, but a timestamp
         * in seconds read as milliseconds is (1767607200 -> 1970-01-21) */
        char when[32];
        gp_format_time((int64_t)ms, when, sizeof when);
        tel_shown(s + start, pl->i - start, q, sizeof q);
        pl->i = start;
        return prom_error(pl, metric,
                          "expected a timestamp in milliseconds since "
                          "1970, got %s, before 2000; in seconds it "
                          "would be %s: multiply by 1000",
                          q, when);
    }
    *t = ms / 1000.0;
    prom_space(pl);
    if (pl->i < len)
        return prom_error(pl, metric, "unexpected text after the timestamp");
    return GP_OK;
}

/* The time of a sample line without a timestamp: the k-th value of this
 * metric for this GPU in the file belongs to the k-th scrape, the step
 * parameter apart from the time parameter. */
static gp_status dcgm_scrape_time(prom_line *pl, const label_set *ls,
                                  const char *metric, double *t)
{
    tel *T = pl->T;
    const char *s = pl->s;
    size_t len = pl->len;
    char key[600];
    const char *parts[4] = {label2(ls, "Hostname", "instance"),
                            tel_label(ls, "gpu"), tel_label(ls, "UUID"),
                            metric};
    size_t klen = tel_make_key(key, sizeof key, parts, 4);
    uint32_t slot, k = 0;
    if (!T->opt->has_time) {
        pl->i = len;
        return prom_error(pl, metric,
                          "the scrape has no timestamps; give " GP_PARAM_TEXT(
                              "time") " "
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
        pl->i = brace ? (size_t)(brace - s) : 0;
        return prom_error(pl, metric,
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
            gp_strmap_put(&T->count_map, key, klen, (uint32_t)T->n_counts) !=
                GP_OK)
            return tel_nomem(T);
        T->counts[T->n_counts++] = 1;
    }
    *t = T->opt->time +
         k * (T->opt->step_s > 0 ? T->opt->step_s : DCGM_DEFAULT_STEP_S);
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
                          tel_shown(s + pl.i, n_bad, q, sizeof q));
    }
    start = pl.i;
    while (pl.i < len && is_name_char(s[pl.i]))
        pl.i++;
    n = pl.i - start;
    tel_copy_to(metric, sizeof metric, s + start, n);
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
    if (!tel_prom_value(s + start, pl.i - start, &value)) {
        tel_shown(s + start, pl.i - start, q, sizeof q);
        pl.i = start;
        return prom_error(&pl, metric, "expected a number, got %s", q);
    }
    prom_space(&pl);
    if ((st = dcgm_timestamp(&pl, metric, &t)) != GP_OK)
        return st;

    /* only DCGM's per-GPU fields are telemetry */
    if (strncmp(metric, "DCGM_FI_", 8) != 0 ||
        (!tel_label(&ls, "gpu")[0] && !tel_label(&ls, "UUID")[0]))
        return GP_OK;
    mv.kind = tel_dcgm_metric(metric);
    mv.metric = metric;
    mv.value = value;
    if ((why = tel_reading_range(mv.kind, value)) != NULL) {
        pl.i = (size_t)value_col - 1;
        return prom_error(&pl, metric, "expected %s, got %s", why,
                          tel_shown(s + value_col - 1,
                                    strcspn(s + value_col - 1, " \t\r\n"), q,
                                    sizeof q));
    }
    if (isnan(t) && (st = dcgm_scrape_time(&pl, &ls, metric, &t)) != GP_OK)
        return st;
    return tel_add_reading(T, source, line, -1, -1, value_col, &ls, host, t,
                           &mv);
}

/* Reads one DCGM exporter scrape (or several, one after another) held in
 * memory. */
gp_status tel_dcgm_read(tel *T, uint32_t source, const char *text, size_t len)
{
    size_t pos = 0;
    long line = 0;
    char host[256];
    char *scratch;
    gp_status st = GP_OK;

    tel_file_stem(T->sources[source].name, host, sizeof host);
    if (gp_source_bom(T->sources[source].name, text, len, &pos, T->err) !=
        GP_OK)
        return GP_ERR_INPUT;
    scratch = gp_malloc(len + 1);
    if (!scratch)
        return tel_nomem(T);
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
