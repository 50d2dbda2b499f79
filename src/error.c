/*
 * error.c: the caller-owned error record, the list of every error found
 * (for a caller that reports them all) and the warning list.
 *
 * As in jansson's json_error_t, the first error wins: a later
 * gp_error_set() on a record that already holds an error does nothing, so
 * a low-level parser can say precisely what went wrong and the layers above
 * it cannot overwrite that with something vaguer.
 */
#include "gpuplan.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void gp_error_clear(gp_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

void gp_error_set(gp_error *err, const char *source, long line, long column,
                  const char *field, const char *fmt, ...)
{
    va_list ap;

    if (!err || err->message[0])
        return;
    snprintf(err->source, sizeof err->source, "%s", source ? source : "");
    err->line = line;
    err->column = column;
    snprintf(err->field, sizeof err->field, "%s", field ? field : "");
    err->param = GP_PARAM_NONE;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

static const char *const param_names[GP_PARAM_COUNT] = {
    "",          "step",        "region",      "map",
    "layout",    "pricing",     "provider",    "instance-type",
    "time",      "out",         "commitments-out", "horizon",
    "forward",   "train-until", "runs",        "seed",
    "skip-bad",  "idle-threshold", "idle-min-hours", "trace",
    "scenario", "json", "csv", "spot-confidence",
};

const char *gp_param_name(gp_param p)
{
    return p > GP_PARAM_NONE && p < GP_PARAM_COUNT ? param_names[p] : "";
}

void gp_param_expand(const char *text,
                     const char *(*show)(const char *name, void *ctx),
                     void *ctx, char *buf, size_t size)
{
    size_t n = 0;
    const char *p = text;

    while (*p && n + 1 < size) {
        const char *end = *p == GP_PARAM_MARK[0] ? strchr(p + 1, *p) : NULL;
        if (!end) {
            buf[n++] = *p++;
            continue;
        }
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(end - p - 1), p + 1);
        const char *word = show ? show(name, ctx) : name;
        size_t len = strlen(word);
        if (len > size - 1 - n)
            len = size - 1 - n;
        memcpy(buf + n, word, len);
        n += len;
        p = end + 1;
    }
    buf[n] = '\0';
}

void gp_error_set_param(gp_error *err, const char *source, gp_param p,
                        const char *fmt, ...)
{
    va_list ap;

    if (!err || err->message[0])
        return;
    memset(err, 0, sizeof *err);
    snprintf(err->source, sizeof err->source, "%s", source ? source : "");
    err->param = p;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}

/* A show function that leaves a parameter marked, for text that is
 * shown later by someone else. */
static const char *param_keep(const char *name, void *ctx)
{
    static _Thread_local char marked[72];

    (void)ctx;
    snprintf(marked, sizeof marked, GP_PARAM_MARK "%s" GP_PARAM_MARK, name);
    return marked;
}

void gp_error_format_marked(const gp_error *err, char *buf, size_t size)
{
    gp_error_format_with(err, param_keep, NULL, buf, size);
}

void gp_error_format(const gp_error *err, char *buf, size_t size)
{
    gp_error_format_with(err, NULL, NULL, buf, size);
}

/* "source:line:column: field: message", leaving out what is empty. */
void gp_error_format_with(const gp_error *err,
                          const char *(*show)(const char *name, void *ctx),
                          void *ctx, char *buf, size_t size)
{
    size_t n = 0;
    char text[sizeof err->message + sizeof err->field];

    if (size == 0)
        return;
    buf[0] = '\0';
#define GP_APPEND(...)                                                        \
    do {                                                                      \
        if (n < size) {                                                       \
            int k = snprintf(buf + n, size - n, __VA_ARGS__);                 \
            if (k > 0)                                                        \
                n += (size_t)k;                                               \
        }                                                                     \
    } while (0)
    if (err->source[0]) {
        GP_APPEND("%s:", err->source);
        if (err->line > 0) {
            GP_APPEND("%ld:", err->line);
            if (err->column > 0)
                GP_APPEND("%ld:", err->column);
        }
        GP_APPEND(" ");
    }
    if (err->field[0]) {
        gp_param_expand(err->field, show, ctx, text, sizeof text);
        GP_APPEND("%s: ", text);
    } else if (err->param != GP_PARAM_NONE) {
        const char *name = gp_param_name(err->param);
        GP_APPEND("%s: ", show ? show(name, ctx) : name);
    }
    gp_param_expand(err->message[0] ? err->message : "unknown error", show,
                    ctx, text, sizeof text);
    GP_APPEND("%s", text);
#undef GP_APPEND
}

const char *gp_strstatus(gp_status st)
{
    switch (st) {
    case GP_OK:
        return "success";
    case GP_ERR_INPUT:
        return "bad input";
    case GP_ERR_NOMEM:
        return "out of memory";
    case GP_ERR_IO:
        return "input/output error";
    case GP_ERR_USAGE:
        return "usage error";
    }
    return "unknown status";
}

/* Stands in for the warnings that could not be kept: not freed.  A list
 * that had no room at all yet points its items at lost_only, never
 * written through (count == cap) and never freed. */
static char warnings_lost[] = "a warning could not be kept (out of memory): "
                              "more were raised than are shown";
static char *const lost_only[1] = {warnings_lost};

void gp_warnings_add(gp_warnings *w, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    char *copy;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < w->count; i++)
        if (strcmp(w->items[i], buf) == 0)
            return; /* say each thing once */
    /* a slot is always left spare, for warnings_lost */
    if (w->count + 2 > w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 8;
        char **items;
        if (w->items == lost_only) {
            if ((items = gp_malloc(cap * sizeof *items)))
                items[0] = warnings_lost;
        } else {
            items = gp_realloc(w->items, cap * sizeof *items);
        }
        if (!items)
            goto lost;
        w->items = items;
        w->cap = cap;
    }
    if (!(copy = gp_strdup(buf)))
        goto lost;
    w->items[w->count++] = copy;
    return;
lost:
    gp_warnings_lost(w);
}

void gp_warnings_lost(gp_warnings *w)
{
    /* the run goes on (a lost warning is better than a lost run), but
     * says that something was not said, once (a copy of the sentence
     * counts: gp_cli_warn_now copies lists) */
    for (size_t i = 0; i < w->count; i++)
        if (strcmp(w->items[i], warnings_lost) == 0)
            return;
    if (w->count < w->cap) {
        w->items[w->count++] = warnings_lost;
    } else if (w->cap == 0) {
        w->items = (char **)lost_only;
        w->count = w->cap = 1;
    }
}

void gp_warnings_truncate(gp_warnings *w, size_t count)
{
    while (w->count > count) {
        char *item = w->items[--w->count];
        if (item != warnings_lost)
            gp_free(item);
    }
    if (w->items == lost_only && w->count == 0) {
        w->items = NULL; /* nothing may be written into lost_only */
        w->cap = 0;
    }
}

void gp_warnings_clear(gp_warnings *w)
{
    gp_warnings_truncate(w, 0);
    if (w->items != lost_only)
        gp_free(w->items);
    memset(w, 0, sizeof *w);
}

void gp_progress_report(const gp_progress *p, const char *stage, double done,
                        double total)
{
    if (p && p->fn)
        p->fn(p->ctx, stage, done, total);
}

gp_status gp_error_list_add(gp_error_list *l, const gp_error *err)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        gp_error *items = gp_realloc(l->items, cap * sizeof *items);
        if (!items)
            return GP_ERR_NOMEM;
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count++] = *err;
    return GP_OK;
}

void gp_error_list_clear(gp_error_list *l)
{
    if (!l)
        return;
    gp_free(l->items);
    memset(l, 0, sizeof *l);
}
