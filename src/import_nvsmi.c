/*
 * import_nvsmi.c: `gpuplan import nvidia-smi`, an nvidia-smi --query-gpu
 * CSV log into the table of samples (import_telemetry_internal.h);
 * docs/design/import_telemetry.md.
 */
#include "csv_rows.h"
#include "import_telemetry_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
        return tel_nomem(T);
    r->n_header = n;
    r->header_line = line;
    for (int k = 0; k < SMI_N; k++)
        r->col[k] = -1;
    for (size_t i = 0; i < n; i++) {
        char norm[256];
        if (!(r->header[i] =
                  gp_strdup(smi_normalize(fields[i], norm, sizeof norm))))
            return tel_nomem(T);
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
        gp_error_set(
            r->T->err, r->T->sources[r->source].name, line, (long)i + 1,
            "header",
            "a second header row, unlike line %ld's (column %zu is "
            "%s here, %s there): two logs joined into one file? "
            "Give each log as its own file",
            r->header_line, i + 1, tel_shown(norm, strlen(norm), q1, sizeof q1),
            tel_shown(r->header[i], strlen(r->header[i]), q2, sizeof q2));
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
                     expect, tel_shown(s, len, q, sizeof q));
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

/* What one sample row of a log says, read cell by cell. */
typedef struct smi_sample {
    double t;
    char id[256], key_id[256], uuid[256], model[256], host[256];
    double util, mem, power;
} smi_sample;

/* Reads a row's time: ISO 8601, or nvidia-smi's own "2023/05/12
 * 10:00:00.123". */
static gp_status smi_time(smi_reader *r, char **fields, long line, double *t)
{
    char buf[256], q[300];
    size_t len;
    const char *s = smi_field(r, fields, SMI_TIMESTAMP, &len);
    const char *why;

    tel_copy_to(buf, sizeof buf, s, len);
    if (len >= 10 && buf[4] == '/' && buf[7] == '/')
        buf[4] = buf[7] = '-';
    if (!gp_parse_time(buf, strlen(buf), t, &why)) {
        if (strncmp(why, "expected", 8) == 0)
            why = "expected nvidia-smi's time (2023/05/12 10:00:00.123) or "
                  "ISO 8601";
        gp_error_set(r->T->err, r->T->sources[r->source].name, line,
                     r->col[SMI_TIMESTAMP] + 1, "timestamp", "%s, got %s", why,
                     tel_shown(s, len, q, sizeof q));
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Reads which GPU a row is of: uuid, else bus id, else a script's gpu
 * column, else index; job_id shows the gpu or index column when there is
 * one.  Also its model and host (the file's stem when no column says). */
static gp_status smi_identity(smi_reader *r, char **fields, long line,
                              smi_sample *row)
{
    static const int key_cols[] = {SMI_BUS, SMI_GPU, SMI_INDEX};
    gp_status st;

    row->id[0] = row->key_id[0] = '\0';
    for (size_t k = 0; k < 3 && !row->key_id[0]; k++)
        if ((st = smi_text(r, fields, key_cols[k], line, row->key_id,
                           sizeof row->key_id)) != GP_OK)
            return st;
    if ((st = smi_text(r, fields, r->col[SMI_GPU] >= 0 ? SMI_GPU : SMI_INDEX,
                       line, row->id, sizeof row->id)) != GP_OK ||
        (st = smi_text(r, fields, SMI_UUID, line, row->uuid,
                       sizeof row->uuid)) != GP_OK ||
        (st = smi_text(r, fields, SMI_NAME, line, row->model,
                       sizeof row->model)) != GP_OK ||
        (st = smi_text(r, fields, SMI_HOST, line, row->host,
                       sizeof row->host)) != GP_OK)
        return st;
    if (!row->id[0])
        tel_copy_to(row->id, sizeof row->id,
                    row->key_id[0] ? row->key_id
                    : row->uuid[0] ? row->uuid
                                   : "0",
                    strlen(row->key_id[0] ? row->key_id
                           : row->uuid[0] ? row->uuid
                                          : "0"));
    if (!row->key_id[0])
        tel_copy_to(row->key_id, sizeof row->key_id, row->id, strlen(row->id));
    if (!row->host[0])
        tel_copy_to(row->host, sizeof row->host, r->host, strlen(r->host));
    return GP_OK;
}

/* Reads a row's utilization, memory and power (NaN where not logged). */
static gp_status smi_measures(smi_reader *r, char **fields, long line,
                              smi_sample *row)
{
    gp_status st;

    if ((st = smi_measure(r, fields, SMI_UTIL, line, units_percent,
                          "a utilization 0..100 (\"33 %\" or 33)", 0, 100,
                          &row->util)) != GP_OK ||
        (st = smi_measure(r, fields, SMI_MEM, line, units_mib,
                          "memory in MiB (\"1129 MiB\" or 1129)", 0,
                          MAX_MEMORY_MIB, &row->mem)) != GP_OK ||
        (st = smi_measure(r, fields, SMI_POWER, line, units_watt,
                          "power in W (\"74.01 W\" or 74.01)", 0, MAX_POWER_W,
                          &row->power)) != GP_OK)
        return st;
    return GP_OK;
}

/* Adds a row's sample to the table: a GPU's second sample at one time is
 * an error, unless another file (an adjacent or overlapping log) gave the
 * same readings. */
static gp_status smi_store(smi_reader *r, long line, const smi_sample *row)
{
    tel *T = r->T;
    const char *name = T->sources[r->source].name;
    size_t at;
    uint32_t gpu;
    bool created;
    gp_status st;
    tel_sample *sample;
    double util = row->util, mem = row->mem, power = row->power;

    model_place model_at = {r->col[SMI_NAME] + 1,
                            r->col[SMI_NAME] >= 0 ? r->header[r->col[SMI_NAME]]
                                                  : NULL};
    if ((st = tel_gpu_get(T, row->host, row->key_id, row->id, row->uuid,
                          row->model, &model_at, r->source, line, -1, &gpu)) !=
        GP_OK)
        return st;
    if ((st = tel_sample_at(T, gpu, row->t, r->source, line, -1, &at,
                            &created)) != GP_OK)
        return st;
    sample = &T->samples[at];
    if (!created) {
        /* adjacent or overlapping logs repeat their shared samples: one
         * from another file with the same readings is the same sample,
         * kept once */
        if (sample->source != r->source &&
            tel_same_reading(sample->util, util) &&
            tel_same_reading(sample->mem, mem) &&
            tel_same_reading(sample->power, power))
            return GP_OK;
        char when[40], job[600];
        tel_gpu_job_id(&T->gpus[gpu], job, sizeof job);
        tel_format_time_ms(sample->t, when, sizeof when);
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

/* One row of an nvidia-smi log: a header, a repeated header, or a sample
 * of one GPU. */
static gp_status smi_row(void *ctx, char **fields, size_t n, long line,
                         gp_error *err)
{
    smi_reader *r = ctx;
    tel *T = r->T;
    const char *name = T->sources[r->source].name;
    smi_sample row;
    gp_status st;

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
    if ((st = smi_time(r, fields, line, &row.t)) != GP_OK ||
        (st = smi_identity(r, fields, line, &row)) != GP_OK ||
        (st = smi_measures(r, fields, line, &row)) != GP_OK)
        return st;
    return smi_store(r, line, &row);
}

/* Reads one nvidia-smi log held in memory. */
gp_status tel_smi_read(tel *T, uint32_t source, const char *text, size_t len)
{
    smi_reader r;
    gp_status st;

    memset(&r, 0, sizeof r);
    r.T = T;
    r.source = source;
    tel_file_stem(T->sources[source].name, r.host, sizeof r.host);
    gp_source src;
    gp_source_buffer(&src, text, len, T->sources[source].name,
                     GP_SOURCE_IMPORT);
    st = gp_csv_rows_read(&src, smi_row, &r, T->err);
    gp_source_close(&src);
    if (st == GP_ERR_NOMEM)
        tel_nomem(T);
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
