/*
 * import_telemetry_internal.h: what the telemetry importers' files share
 * (import_telemetry.c, import_telemetry_trace.c, import_nvsmi.c,
 * import_dcgm.c, import_prometheus.c): the table of samples and its
 * helpers.  Not a public header; docs/design/import_telemetry.md.
 */
#ifndef GP_IMPORT_TELEMETRY_INTERNAL_H
#define GP_IMPORT_TELEMETRY_INTERNAL_H

#include "import.h"
#include "json_util.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(__GNUC__)
#define TEL_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define TEL_PRINTF(f, a)
#endif

/* What a sample may carry, as bits of tel_sample.set. */
enum {
    M_UTIL = 1,    /* gpu_util, percent */
    M_MEM = 2,     /* memory used, MiB */
    M_TENSOR = 4,  /* tensor pipe active, fraction */
    M_POWER = 8,   /* power draw, W */
    M_ENGINE = 16, /* graphics engine active, fraction (DCGM profiling) */
    M_OTHER = 32   /* any other DCGM field: the GPU was there */
};

/* The largest memory (MiB) and power (W) readings taken as real, for
 * every format alike: far above any GPU (an H200 has 141 GiB), and small
 * enough that a garbled value such as 1e300 is an error, not a number that
 * swamps every sum it enters. */
#define MAX_MEMORY_MIB 1e12
#define MAX_POWER_W 1e6
/* A DCGM scrape's length when the GPU has one and the step parameter is not
 * given: Prometheus' default scrape_interval. */
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
    /* a MIG instance (GPU_I_ID; import_mig.c): its id, NULL for a whole
     * GPU; its compute slices and its GPU's (id is then its GPU's) */
    char *mig_id;
    int mig_slices, mig_total;
    bool mig_first;  /* the first instance seen of its GPU: counts it */
    bool mig_parent; /* a whole GPU's series of a GPU with MIG instances:
                        not billed, its instances are */
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
    /* where each reading came from (index: tel_kind_index), for the error on a
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

/* The longest GPU key (tel_make_key's buffer in tel_gpu_get). */
#define GPU_KEY_MAX 1024

/* Where a sample's model was read: its column (0 for a Prometheus
 * series) and field. */
typedef struct model_place {
    long column;
    const char *field;
} model_place;

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

/* A sample's values, as one metric line or JSON point gives them. */
typedef struct metric_value {
    unsigned kind; /* M_* */
    const char *metric;
    double value; /* NaN: no reading */
} metric_value;

/* ---- small helpers (import_telemetry.c) ---------------------------------- */

/* Each function below is described where it is defined. */

gp_status tel_nomem(tel *T);
const char *tel_shown(const char *s, size_t len, char *buf, size_t size);
void tel_file_stem(const char *path, char *buf, size_t size);
void tel_format_time_ms(double t, char *buf, size_t size);
void tel_gpu_job_id(const tel_gpu *g, char *buf, size_t size);
void tel_copy_to(char *buf, size_t size, const char *s, size_t len);
TEL_PRINTF(6, 7)
gp_status tel_at_error(tel *T, uint32_t source, long line, long series,
                       const char *field, const char *fmt, ...);
TEL_PRINTF(5, 6)
gp_status tel_point_error(tel *T, uint32_t source, long series, long point,
                          const char *fmt, ...);

/* ---- the table of samples (import_telemetry.c) --------------------------- */

size_t tel_make_key(char *buf, size_t size, const char *const *parts, size_t n);
bool tel_gpu_key_fits(const char *host, const char *key_id, const char *uuid);
gp_status tel_gpu_get(tel *T, const char *host, const char *key_id,
                      const char *id, const char *uuid, const char *model,
                      const model_place *model_at, uint32_t source, long line,
                      long series, uint32_t *out);
gp_status tel_labels_get(tel *T, const char *team, const char *project,
                         const char *pod, uint32_t *out);
gp_status tel_sample_at(tel *T, uint32_t gpu, double t, uint32_t source,
                        long line, long series, size_t *out, bool *created);
bool tel_same_reading(double a, double b);
double *tel_kind_slot(tel_sample *s, unsigned kind);
int tel_kind_index(unsigned kind);

/* ---- MIG instances (import_mig.c) ----------------------------------------- */

/* Whether GPU_I_PROFILE `profile` ("3g.40gb", "1g.10gb+me") names a GPU
 * instance of a GPU of model `model`: *slices its compute slices out of
 * *total (4 on an A30, else 7). */
bool tel_mig_profile(const char *profile, const char *model, int *slices,
                     int *total);
/* Marks the first MIG instance seen of each GPU (mig_first: it counts the
 * GPU among its host's) and the whole-GPU series of GPUs that have MIG
 * instances (mig_parent). */
gp_status tel_mig_mark(tel *T);
/* Each sample's share of its GPU into a new array *share (by sample, in
 * the table's order), NULL when there is no MIG instance: 1 for a whole
 * GPU, 0 for a mig_parent's where its instances were seen at that time
 * (counted in *n_parent; 1 where none were), and for a MIG
 * instance its slices / the slices of its GPU's instances seen at that
 * time (to the second), so that capacity not carved into instances is
 * spread over them by size. */
gp_status tel_mig_shares(tel *T, double **share, size_t *n_parent);

/* ---- the readers and the writer ------------------------------------------ */

/* import_telemetry_trace.c */
gp_status tel_finish(tel *T, FILE *out, double single_step);
/* import_nvsmi.c */
gp_status tel_smi_read(tel *T, uint32_t source, const char *text, size_t len);
/* import_dcgm.c, the text format and what Prometheus' JSON shares */
gp_status tel_dcgm_read(tel *T, uint32_t source, const char *text, size_t len);
unsigned tel_dcgm_metric(const char *name);
const char *tel_label(const label_set *ls, const char *name);
const char *tel_reading_range(unsigned kind, double v);
bool tel_prom_value(const char *s, size_t len, double *out);
gp_status tel_add_reading(tel *T, uint32_t source, long line, long series,
                          long point, long column, const label_set *ls,
                          const char *default_host, double t,
                          const metric_value *mv);
/* import_prometheus.c */
gp_status tel_prom_read(tel *T, uint32_t source);

#endif
