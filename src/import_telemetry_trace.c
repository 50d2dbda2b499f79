/*
 * import_telemetry_trace.c: the telemetry importers' table of samples
 * turned into trace rows (SPEC section 2): instance types, sample lengths,
 * the span check and the CSV writer; docs/design/import_telemetry.md.
 */
#include "import_telemetry_internal.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

/* A sample counts as lasting until the next one unless the gap is more
 * than this many median intervals. */
#define GAP_FACTOR 3.0

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
        /* a GPU with MIG instances counts once, by its first instance */
        if (T->gpus[i].mig_parent ||
            (T->gpus[i].mig_slices && !T->gpus[i].mig_first))
            continue;
        if (gp_strmap_get(&T->host_map, h, strlen(h), &at)) {
            T->host_gpus[at]++;
            continue;
        }
        if (gp_grow((void **)&T->host_gpus, &T->cap_hosts, T->n_hosts + 1,
                    sizeof *T->host_gpus) != GP_OK ||
            gp_strmap_put(&T->host_map, h, strlen(h), (uint32_t)T->n_hosts) !=
                GP_OK)
            return tel_nomem(T);
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
        tel_gpu_job_id(g, job, sizeof job);
        return tel_at_error(
            T, g->source, g->line, g->series, "instance_type",
            "the %s telemetry does not name the GPU model of %s; "
            "give " GP_PARAM_TEXT("instance-type"),
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
                           "%s; give " GP_PARAM_TEXT("instance-type"),
                           q);
    if (n_fit == 0)
        return model_error(
            T, g,
            "host %s has %d %s GPU%s, and no instance type "
            "with that GPU has %d (%s); give " GP_PARAM_TEXT("instance-type"),
            g->host, per_host, q, gp_plural(per_host, "", "s"), per_host,
            same_model);
    return model_error(T, g,
                       "host %s has %d %s GPU%s, which fits several instance "
                       "types (%s); give " GP_PARAM_TEXT("instance-type"),
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

/* the given instance type as found in the catalogs (type NULL when not
 * given), and the hosts noted so far for logging fewer GPUs than it has
 * (noted[] by host index, n_noted of them: note_part_host).  resolve_types owns
 * noted. */
typedef struct given_type {
    const gp_instance_type *type;
    const gp_catalog *catalog;
    bool *noted;
    size_t n_noted;
} given_type;

/* Finds the given instance type in the catalogs, or says why
 * it cannot: in several catalogs, only in catalogs other than the provider
 * parameter's and the region parameter's, or in none. */
static gp_status find_given_type(tel *T, given_type *gt)
{
    const gp_import_options *o = T->opt;
    const gp_instance_type *given;
    const gp_catalog *given_cat = NULL;
    bool ambiguous;

    if (!o->instance_type)
        return GP_OK;
    given = gp_pricing_find(o->pricing, o->provider, o->region,
                            o->instance_type, &given_cat, &ambiguous);
    if (!given && ambiguous) {
        gp_error_set_param(T->err, NULL, GP_PARAM_INSTANCE_TYPE,
                           "\"%s\" is in several catalogs; give " GP_PARAM_TEXT(
                               "provider") " "
                                           "and " GP_PARAM_TEXT("region"),
                           o->instance_type);
        return GP_ERR_INPUT;
    }
    if (!given && (o->provider || o->region)) {
        const gp_catalog *elsewhere = NULL;
        bool several = false;
        gp_pricing_find(o->pricing, NULL, NULL, o->instance_type, &elsewhere,
                        &several);
        if (elsewhere || several) {
            gp_error_set_param(
                T->err, NULL, GP_PARAM_INSTANCE_TYPE,
                "\"%s\" is not in the catalogs for %s%s%s "
                "(it is in %s%s%s)",
                o->instance_type, o->provider ? o->provider : "",
                o->provider && o->region ? " " : "", o->region ? o->region : "",
                elsewhere ? elsewhere->provider
                          : "several other "
                            "catalogs",
                elsewhere ? " " : "", elsewhere ? elsewhere->region : "");
            return GP_ERR_INPUT;
        }
    }
    if (!given) {
        char near[256] = "";
        if (o->pricing)
            gp_pricing_suggest(o->pricing, o->instance_type, near, sizeof near,
                               3);
        gp_error_set_param(
            T->err, NULL, GP_PARAM_INSTANCE_TYPE,
            "\"%s\" is not in the catalogs%s%s%s%s%s%s%s", o->instance_type,
            o->provider || o->region ? " for " : "",
            o->provider ? o->provider : "", o->provider && o->region ? " " : "",
            o->region ? o->region : "", near[0] ? " (nearest: " : "", near,
            near[0] ? ")" : "");
        return GP_ERR_INPUT;
    }
    gt->type = given;
    gt->catalog = given_cat;
    return GP_OK;
}

/* Gives GPU g, whose host logs per_host GPUs, the type the instance-type
 * parameter names: an error when the host has more GPUs than the type, a note
 * when it has fewer or the GPU model is another. */
static gp_status apply_given_type(tel *T, tel_gpu *g, int per_host,
                                  given_type *gt)
{
    const gp_instance_type *given = gt->type;

    if (per_host > given->gpus)
        return tel_at_error(T, g->source, g->line, g->series, "instance_type",
                            "host %s has %d GPUs, more than the %d of "
                            "%s; is " GP_PARAM_TEXT("instance-type") " right?",
                            g->host, per_host, given->gpus, given->name);
    if (per_host < given->gpus &&
        note_part_host(T, g, per_host, given, gt->noted, gt->n_noted))
        gt->n_noted++;
    g->type = given;
    g->catalog = gt->catalog;
    /* once per model: the note names no host, and
     * gp_warnings_add says each text once, so the GPUs after the
     * first of a model (on any host, adjacent or not) add none */
    if (g->model[0] && T->opt->notes &&
        model_match(g->model, given->gpu_model) == 0)
        gp_warnings_add(T->opt->notes,
                        "note: the telemetry's GPU model \"%s\" is "
                        "not %s's %s; check " GP_PARAM_TEXT("instance-type"),
                        g->model, given->name, given->gpu_model);
    return GP_OK;
}

/* Gives every GPU its instance type and catalog. */
static gp_status resolve_types(tel *T)
{
    given_type gt = {NULL, NULL, NULL, 0};
    gp_status st;

    if ((st = find_given_type(T, &gt)) != GP_OK)
        return st;
    if (gt.type &&
        !(gt.noted = gp_calloc(T->n_hosts ? T->n_hosts : 1, sizeof *gt.noted)))
        return tel_nomem(T);
    for (size_t i = 0; i < T->n_gpus && st == GP_OK; i++) {
        tel_gpu *g = &T->gpus[i];
        int per_host = host_gpus(T, g);
        if (gt.type)
            st = apply_given_type(T, g, per_host, &gt);
        else
            st = type_from_model(T, g, per_host);
    }
    if (st == GP_OK && gt.n_noted > PART_HOST_NOTES && T->opt->notes)
        gp_warnings_add(
            T->opt->notes,
            "note: %zu more host%s fewer GPUs than %s has and "
            "%s billed as part of an instance",
            gt.n_noted - PART_HOST_NOTES,
            gp_plural(gt.n_noted - PART_HOST_NOTES, " logs", "s log"),
            gt.type->name,
            gp_plural(gt.n_noted - PART_HOST_NOTES, "is", "are each"));
    gp_free(gt.noted);
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
        return tel_nomem(T);
    for (size_t a = 0, b; a < n; a = b) {
        tel_sample *s = &T->samples[a];
        size_t k;
        double median;

        for (b = a + 1; b < n && T->samples[b].gpu == s->gpu; b++)
            ;
        if (b - a == 1) {
            if (!(single_step > 0)) {
                char job[600];
                tel_gpu_job_id(&T->gpus[s->gpu], job, sizeof job);
                gp_free(gaps);
                return tel_at_error(
                    T, s->source, s->line, s->series, "timestamp",
                    "GPU %s has a single sample, so its length "
                    "is unknown; give " GP_PARAM_TEXT("step") " SECONDS",
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
            tel_format_time_ms(s->t + s->step, to, sizeof to);
            return tel_at_error(T, s->source, s->line, s->series, "timestamp",
                                "this sample would last until %s (the GPU's "
                                "next sample), %ld hours (30 years) or more; "
                                "is a timestamp wrong?",
                                to, GP_TRACE_MAX_SPAN_HOURS);
        }
        if (s->t + s->step > (double)GP_TIME_LATEST)
            return tel_at_error(
                T, s->source, s->line, s->series, "timestamp",
                "this sample lasts %g s (until the GPU's next "
                "sample, or " GP_PARAM_TEXT(
                    "step") ") and so ends after " GP_TIME_LATEST_WHY,
                s->step);
        if (h0 < lo)
            lo = h0;
        if (h1 > hi)
            hi = h1;
        if (hi - lo > GP_TRACE_MAX_SPAN_HOURS) {
            tel_format_time_ms((double)lo * 3600, from, sizeof from);
            tel_format_time_ms((double)hi * 3600, to, sizeof to);
            return tel_at_error(
                T, s->source, s->line, s->series, "timestamp",
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

/* Writes the trace: a header and one row per sample, a MIG instance's
 * with its share of the GPU (tel_mig_shares). */
static gp_status write_trace(tel *T, FILE *out)
{
    char when[40], job[600];
    double *share;
    size_t n_parent;

    qsort(T->samples, T->n_samples, sizeof *T->samples, by_time_gpu);
    if (tel_mig_shares(T, &share, &n_parent) != GP_OK)
        return GP_ERR_NOMEM;
    if (n_parent && T->opt->notes)
        gp_warnings_add(T->opt->notes,
                        "note: %zu whole-GPU sample%s of GPUs with MIG "
                        "instances left out: their instances are billed",
                        n_parent, gp_plural(n_parent, "", "s"));
    fputs("timestamp,step_s,provider,region,instance_type,instances,"
          "gpu_util,job_id,team,project,host,gpu_id,gpu_uuid,gpu_model,pod,"
          "memory_used_mib,tensor_active,power_w\n",
          out);
    for (size_t i = 0; i < T->n_samples; i++) {
        const tel_sample *s = &T->samples[i];
        const tel_gpu *g = &T->gpus[s->gpu];
        const tel_labels *l = &T->labels[s->labels];
        double util = s->util;

        if (share && share[i] == 0)
            continue;
        if (isnan(util) && !isnan(s->engine))
            util = s->engine * 100.0;
        tel_format_time_ms(s->t, when, sizeof when);
        fprintf(out, "%s,%.15g,", when, round(s->step * 1000.0) / 1000.0);
        put_field(out, g->catalog->provider);
        putc(',', out);
        put_field(out, g->catalog->region);
        putc(',', out);
        put_field(out, g->type->name);
        fprintf(out, ",%.17g", (share ? share[i] : 1.0) / g->type->gpus);
        put_number(out, util);
        putc(',', out);
        tel_gpu_job_id(g, job, sizeof job);
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
    gp_free(share);
    if (fflush(out) != 0 || ferror(out)) {
        gp_error_set(T->err, NULL, 0, 0, NULL, "cannot write the trace: %s",
                     strerror(errno));
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
    tel_format_time_ms(t0, first, sizeof first);
    tel_format_time_ms(t1, last, sizeof last);
    gp_warnings_add(T->opt->notes,
                    "%s: %zu sample%s of %zu GPU%s on %zu host%s, %s to %s",
                    T->format, T->n_samples, gp_plural(T->n_samples, "", "s"),
                    T->n_gpus, gp_plural(T->n_gpus, "", "s"), hosts,
                    gp_plural(hosts, "", "s"), first, last);
}

/* Resolves types, works out steps and writes the trace. */
gp_status tel_finish(tel *T, FILE *out, double single_step)
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
        (st = tel_mig_mark(T)) != GP_OK || (st = count_hosts(T)) != GP_OK || (st = resolve_types(T)) != GP_OK)
        return st;
    if ((st = infer_steps(T, single_step)) != GP_OK ||
        (st = check_span(T)) != GP_OK)
        return st;
    if ((st = write_trace(T, out)) != GP_OK)
        return st;
    add_note(T);
    return GP_OK;
}
