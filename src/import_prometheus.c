/*
 * import_prometheus.c: `gpuplan import prometheus`, a Prometheus HTTP API
 * response (query_range or query JSON) of DCGM exporter metrics into the
 * table of samples; docs/design/import_telemetry.md.
 */
#include "import_telemetry_internal.h"

#include <math.h>
#include <string.h>

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
    if (!json_is_string(jv) || !tel_prom_value(s, strlen(s), v)) {
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

/* Reads a series' metric labels into ls (values borrowed from the JSON)
 * and its metric name into *name ("" when it has none); an error when a
 * label is not a string, no label names the GPU, or the metric is not
 * DCGM's. */
static gp_status prom_series_labels(gp_jdoc *d, const json_t *series,
                                    label_set *ls, const char **name)
{
    json_t *metric;
    const char *key;
    json_t *val;
    gp_status st;

    ls->n = 0;
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
        if (ls->n < MAX_LABELS) {
            ls->name[ls->n] = key;
            ls->value[ls->n] = json_string_value(val);
            ls->column[ls->n] = 0;
            ls->n++;
        }
    }
    *name = tel_label(ls, "__name__");
    if (!tel_label(ls, "gpu")[0] && !tel_label(ls, "UUID")[0]) {
        st = gp_jdoc_error(d, NULL,
                           "the series has no gpu or UUID label (an "
                           "aggregated query?); query per-GPU series, e.g. "
                           "DCGM_FI_DEV_GPU_UTIL");
        gp_jdoc_pop(d);
        return st;
    }
    if ((*name)[0] && strncmp(*name, "DCGM_FI_", 8) != 0) {
        char q[300];
        st = gp_jdoc_error(d, "__name__",
                           "%s is not a DCGM exporter metric; gpuplan reads "
                           "DCGM_FI_DEV_GPU_UTIL, DCGM_FI_DEV_FB_USED, "
                           "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE, ...",
                           gp_json_quote(*name, q, sizeof q));
        gp_jdoc_pop(d);
        return st;
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads one series of data.result: its labels and its points. */
static gp_status prom_series(tel *T, gp_jdoc *d, uint32_t source, size_t i,
                             const json_t *series, bool matrix,
                             const char *host)
{
    json_t *points = NULL, *one = NULL;
    label_set ls;
    const char *name = ""; /* set by prom_series_labels */
    metric_value mv;
    gp_status st;
    size_t n_points;

    if ((st = prom_series_labels(d, series, &ls, &name)) != GP_OK)
        return st;
    /* a series without __name__ (avg_over_time(...) drops it) is taken as
     * GPU utilization */
    mv.kind = name[0] ? tel_dcgm_metric(name) : M_UTIL;
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
        if (st == GP_OK && (why = tel_reading_range(mv.kind, v)) != NULL) {
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
        if ((st = tel_add_reading(T, source, 0, (long)i, matrix ? (long)k : -1,
                                  0, &ls, host, t, &mv)) != GP_OK) {
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
gp_status tel_prom_read(tel *T, uint32_t source)
{
    const tel_source *src = &T->sources[source];
    gp_jdoc d;
    json_t *root = NULL, *data, *result;
    const char *status, *type;
    char host[256];
    gp_status st;
    bool matrix;

    tel_file_stem(src->name, host, sizeof host);
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
