/*
 * import_spot.c: `gpuplan import spot-availability` (SkyPilot's spot-traces
 * JSON, or a CSV, to the CSV time,available a catalog's
 * availability_history reads) and `gpuplan import spot-events` (EventBridge
 * "EC2 Spot Instance Interruption Warning" events, JSON lines or CSV, to a
 * CSV time,instance_id,job_id,action).  See docs/import.md.
 */
#include "csv_rows.h"
#include "engine.h"
#include "import.h"
#include "json_util.h"
#include "source.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* Writes s as a CSV field: quoted when it holds a comma, a quote or a line
 * end. */
static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* ---- spot-availability -------------------------------------------------- */

gp_status gp_import_spot_availability(const gp_import_options *opt, FILE *out,
                                      gp_error *err)
{
    gp_availability a;
    char *text = NULL;
    size_t len = 0;
    gp_status st;

    if (opt->n_inputs != 1) {
        gp_error_set(err, "", 0, 0, NULL,
                     "import spot-availability takes one file, got %zu",
                     opt->n_inputs);
        return GP_ERR_USAGE;
    }
    st = gp_source_load(opt->inputs[0], GP_SOURCE_IMPORT, &text, &len, err);
    if (st == GP_OK)
        st = gp_availability_parse(text, len, opt->inputs[0], &a, err);
    gp_free(text);
    if (st != GP_OK)
        return st;
    if (!a.timed && !opt->has_time) {
        gp_availability_clear(&a);
        gp_error_set(err, opt->inputs[0], 0, 0, NULL,
                     "a spot-traces JSON has no times: give " GP_PARAM_TEXT(
                         "time") " (the time of its first tick, ISO 8601 or "
                                 "epoch seconds)");
        return GP_ERR_USAGE;
    }
    int64_t t0 = a.timed ? a.t0 : (int64_t)floor(opt->time);
    size_t there = 0;
    fputs("time,available\n", out);
    for (size_t k = 0; k < a.n; k++) {
        char when[32];
        gp_format_time(t0 + (int64_t)llround((double)k * a.gap_s), when,
                       sizeof when);
        fprintf(out, "%s,%d\n", when, a.available[k]);
        there += a.available[k];
    }
    if (opt->notes)
        gp_warnings_add(opt->notes,
                        "%zu ticks of %.0f s; capacity there in %zu of them "
                        "(%.1f%%)",
                        a.n, a.gap_s, there, 100.0 * (double)there /
                                                 (double)a.n);
    gp_availability_clear(&a);
    return ferror(out) ? GP_ERR_IO : GP_OK;
}

/* ---- spot-events -------------------------------------------------------- */

#define WARNING_TYPE "EC2 Spot Instance Interruption Warning"

/* What the events read so far add up to, for the notes. */
typedef struct events_read {
    const char *source;
    FILE *out; /* the CSV written, or NULL: the events are collected */
    gp_spot_event *events;
    size_t n_events, cap;
    bool nomem;
    size_t warnings, tagged, skipped;
    /* CSV: the columns (0-based), 0 columns until the header */
    size_t n_columns, col_time, col_instance, col_job, col_action;
    bool has_job, has_action;
} events_read;

/* Keeps one event (gp_spot_events_read). */
static void keep_event(events_read *e, double t, const char *job)
{
    if (e->nomem || gp_grow((void **)&e->events, &e->cap, e->n_events + 1,
                            sizeof *e->events) != GP_OK) {
        e->nomem = true;
        return;
    }
    gp_spot_event *ev = &e->events[e->n_events];
    ev->t = (int64_t)floor(t);
    ev->job_id = gp_strdup(job);
    if (!ev->job_id)
        e->nomem = true;
    else
        e->n_events++;
}

/* Writes (or keeps) one event at time t (epoch seconds). */
static void put_event(events_read *e, double t, const char *instance,
                      const char *job, const char *action)
{
    char iso[32];

    e->warnings++;
    e->tagged += job[0] != '\0';
    if (!e->out) {
        keep_event(e, t, job);
        return;
    }
    gp_format_time((int64_t)floor(t), iso, sizeof iso);
    fprintf(e->out, "%s,", iso);
    csv_field(e->out, instance);
    fputc(',', e->out);
    csv_field(e->out, job);
    fputc(',', e->out);
    csv_field(e->out, action);
    fputc('\n', e->out);
}

/* A string member of obj, "" when it is missing; an error when it is there
 * and not a string. */
static gp_status member_text(gp_jdoc *d, const json_t *obj, const char *key,
                             bool required, const char **out)
{
    bool have = false;
    gp_status st = gp_jdoc_string(d, obj, key, required, out, &have);

    if (st == GP_OK && !have)
        *out = "";
    return st;
}

/* One JSON line: an EventBridge event; other detail-types are skipped. */
static gp_status event_line(events_read *e, const char *text, size_t len,
                            long line, gp_error *err)
{
    gp_jdoc d;
    json_t *root = NULL, *detail;
    const char *type, *when, *instance, *action, *job = "";
    gp_status st;

    gp_jdoc_init(&d, text, len, e->source, err);
    if ((st = gp_jdoc_parse(&d, &root)) != GP_OK ||
        (st = member_text(&d, root, "detail-type", true, &type)) != GP_OK)
        goto done;
    if (strcmp(type, WARNING_TYPE) != 0) {
        e->skipped++;
        goto done;
    }
    if ((st = member_text(&d, root, "time", true, &when)) != GP_OK ||
        (st = member_text(&d, root, "job_id", false, &job)) != GP_OK ||
        (st = gp_jdoc_object(&d, root, "detail", true, &detail)) != GP_OK)
        goto done;
    gp_jdoc_push_key(&d, "detail");
    if ((st = member_text(&d, detail, "instance-id", true, &instance)) !=
            GP_OK ||
        (st = member_text(&d, detail, "instance-action", false, &action)) !=
            GP_OK ||
        (!job[0] &&
         (st = member_text(&d, detail, "job_id", false, &job)) != GP_OK))
        goto done;
    if (!instance[0]) {
        st = gp_jdoc_error(&d, "instance-id", "missing value");
        goto done;
    }
    gp_jdoc_pop(&d);
    double t;
    const char *why;
    char quoted[160];
    if (!gp_parse_time(when, strlen(when), &t, &why)) {
        st = gp_jdoc_error(&d, "time", "%s, got %s", why,
                           gp_json_quote(when, quoted, sizeof quoted));
        goto done;
    }
    put_event(e, t, instance, job, action);
done:
    json_decref(root);
    if (st == GP_ERR_INPUT && err->line >= 1)
        err->line += line - 1; /* the line's own numbering, in the file */
    return st;
}

/* JSON lines: one event per non-blank line. */
static gp_status events_json_lines(events_read *e, const char *text,
                                   size_t len, gp_error *err)
{
    long line = 1;
    gp_status st = GP_OK;

    for (size_t at = 0; at < len && st == GP_OK; line++) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        size_t k = 0;
        while (k < n && strchr(" \t\r", text[at + k]))
            k++;
        if (k < n)
            st = event_line(e, text + at, n, line, err);
        at += n + 1;
    }
    return st;
}

/* The CSV header: time and instance_id needed, job_id and action read
 * when there. */
static gp_status events_header(events_read *e, char **f, size_t n, long line,
                               gp_error *err)
{
    bool time = false, instance = false;

    for (size_t i = 0; i < n; i++) {
        if (strcmp(f[i], "time") == 0 && (time = true))
            e->col_time = i;
        else if (strcmp(f[i], "instance_id") == 0 && (instance = true))
            e->col_instance = i;
        else if (strcmp(f[i], "job_id") == 0 && (e->has_job = true))
            e->col_job = i;
        else if (strcmp(f[i], "action") == 0 && (e->has_action = true))
            e->col_action = i;
    }
    if (!time || !instance) {
        gp_error_set(err, e->source, line, 0, time ? "instance_id" : "time",
                     "the header needs the columns time and instance_id "
                     "(job_id and action when there are any)");
        return GP_ERR_INPUT;
    }
    e->n_columns = n;
    return GP_OK;
}

/* gp_csv_rows_read's callback: the header, then one event per row. */
static gp_status events_row(void *ctx, char **f, size_t n, long line,
                            gp_error *err)
{
    events_read *e = ctx;
    const char *when, *why;
    double t;
    char quoted[160];

    if (e->n_columns == 0)
        return events_header(e, f, n, line, err);
    if (gp_csv_check_row_width(e->source, line, n, e->n_columns, err) != GP_OK)
        return GP_ERR_INPUT;
    when = f[e->col_time];
    if (!gp_parse_time(when, strlen(when), &t, &why)) {
        gp_error_set(err, e->source, line, (long)e->col_time + 1, "time",
                     "%s, got %s", when[0] ? why : "missing value",
                     gp_json_quote(when, quoted, sizeof quoted));
        return GP_ERR_INPUT;
    }
    if (!f[e->col_instance][0]) {
        gp_error_set(err, e->source, line, (long)e->col_instance + 1,
                     "instance_id", "missing value");
        return GP_ERR_INPUT;
    }
    put_event(e, t, f[e->col_instance], e->has_job ? f[e->col_job] : "",
              e->has_action ? f[e->col_action] : "");
    return GP_OK;
}

/* Whether text starts, past white space and a byte order mark, with `{`
 * (JSON lines) rather than a CSV header. */
static bool starts_json(const char *text, size_t len)
{
    size_t i = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;

    while (i < len && strchr(" \t\r\n", text[i]))
        i++;
    return i < len && text[i] == '{';
}

/* Reads one file of events (JSON lines or CSV) into e. */
static gp_status events_file(events_read *e, const char *path, gp_error *err)
{
    char *text = NULL;
    size_t len = 0;
    gp_status st;

    e->source = path;
    e->n_columns = 0;
    e->has_job = e->has_action = false;
    st = gp_source_load(path, GP_SOURCE_IMPORT, &text, &len, err);
    if (st == GP_OK && starts_json(text, len)) {
        st = events_json_lines(e, text, len, err);
    } else if (st == GP_OK) {
        gp_source src;
        gp_source_buffer(&src, text, len, path, GP_SOURCE_IMPORT);
        st = gp_csv_rows_read(&src, events_row, e, err);
        gp_source_close(&src);
    }
    gp_free(text);
    if (st == GP_OK && e->nomem) {
        gp_error_set(err, path, 0, 0, NULL, "out of memory");
        st = GP_ERR_NOMEM;
    }
    return st;
}

void gp_spot_events_free(gp_spot_event *events, size_t n)
{
    for (size_t i = 0; events && i < n; i++)
        gp_free(events[i].job_id);
    gp_free(events);
}

gp_status gp_spot_events_read(const char *path, gp_spot_event **events,
                              size_t *n, gp_error *err)
{
    events_read e;
    gp_status st;

    memset(&e, 0, sizeof e);
    st = events_file(&e, path, err);
    if (st != GP_OK) {
        gp_spot_events_free(e.events, e.n_events);
        e.events = NULL;
        e.n_events = 0;
    }
    *events = e.events;
    *n = e.n_events;
    return st;
}

size_t gp_ledger_count_recorded(gp_ledger *l, const gp_trace *t,
                                const gp_spot_event *events, size_t n)
{
    size_t used = 0;

    for (size_t i = 0; i < l->n_jobs + l->n_od_jobs; i++) {
        gp_ledger_job *j = i < l->n_jobs ? &l->jobs[i]
                                         : &l->od_jobs[i - l->n_jobs];
        const gp_job_run *r = &t->runs[j->run];
        j->recorded_interruptions = 0;
        for (size_t k = 0; k < n; k++)
            if (events[k].t >= r->start && events[k].t <= r->end &&
                strcmp(events[k].job_id, t->labels[r->job]) == 0) {
                j->recorded_interruptions++;
                used++;
            }
    }
    return used;
}

gp_status gp_import_spot_events(const gp_import_options *opt, FILE *out,
                                gp_error *err)
{
    events_read e;
    gp_status st = GP_OK;

    memset(&e, 0, sizeof e);
    e.out = out;
    fputs("time,instance_id,job_id,action\n", out);
    for (size_t i = 0; i < opt->n_inputs && st == GP_OK; i++)
        st = events_file(&e, opt->inputs[i], err);
    if (st == GP_OK && opt->notes)
        gp_warnings_add(opt->notes,
                        "%zu spot interruption %s, %zu tagged with a job_id; "
                        "%zu other %s skipped",
                        e.warnings, e.warnings == 1 ? "warning" : "warnings",
                        e.tagged, e.skipped, e.skipped == 1 ? "event" : "events");
    return st == GP_OK && ferror(out) ? GP_ERR_IO : st;
}
