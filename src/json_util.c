/*
 * json_util.c: the JSON helpers the catalog and scenario loaders share:
 * jansson's allocations, path and value formatting, and the gp_jdoc
 * documents that parse a text and word its errors at file:line:column.
 * The locator is in json_util_locate.c, the typed readers in
 * json_util_read.c; docs/design/json_util.md says why they work so.
 */
#include "json_util.h"
#include "source.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- jansson's allocations ---------------------------------------------- */

static atomic_bool json_alloc_lost;

static void *json_alloc(size_t size)
{
    void *p = gp_malloc(size);
    if (!p)
        atomic_store(&json_alloc_lost, true);
    return p;
}

void gp_json_alloc_init(void)
{
    json_set_alloc_funcs(json_alloc, gp_free);
}

bool gp_json_alloc_failed(void)
{
    return atomic_load(&json_alloc_lost);
}

void gp_json_alloc_clear(void)
{
    atomic_store(&json_alloc_lost, false);
}

gp_status gp_json_write(const json_t *doc, size_t flags, FILE *f,
                        const char *name, gp_error *err)
{
    /* dumped to memory first: json_dumpf stops part-way when it runs out,
     * after writing the first part */
    char *text = doc && !gp_json_alloc_failed() ? json_dumps(doc, flags) : NULL;
    if (text && gp_json_alloc_failed()) {
        /* jansson went on past one of its own allocations */
        gp_free(text);
        text = NULL;
    }
    if (!text) {
        gp_error_set(err, name, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    size_t n = strlen(text);
    bool ok =
        fwrite(text, 1, n, f) == n && fputc('\n', f) != EOF && fflush(f) == 0;
    gp_free(text);
    if (!ok) {
        gp_error_set(err, name, 0, 0, NULL, "cannot write: %s",
                     strerror(errno));
        return GP_ERR_IO;
    }
    return GP_OK;
}

/* ---- formatting --------------------------------------------------------- */

/* Keys joined with dots, indices in brackets, cut short at size. */
void gp_json_path_format(const gp_jstep *path, size_t depth, char *buf,
                         size_t size)
{
    size_t n = 0;

    if (size == 0)
        return;
    buf[0] = '\0';
    if (depth > GP_JPATH_MAX)
        depth = GP_JPATH_MAX;
    for (size_t i = 0; i < depth && n + 1 < size; i++) {
        const char *key = path[i].key;
        if (!key) {
            snprintf(buf + n, size - n, "[%zu]", path[i].index);
        } else {
            if (n > 0)
                gp_append_escaped(buf, size, ".", 1);
            /* a key's control bytes escaped, so the message stays one
             * line and sends nothing to the terminal; an empty key shows
             * as "" */
            if (!key[0])
                key = "\"\"";
            gp_append_escaped(buf, size, key, strlen(key));
        }
        n = strlen(buf);
    }
}

/* The JSON type of v with its article, for "got ..." in messages. */
const char *gp_json_type_phrase(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        break;
    }
    return "null";
}

/* A number for a message: exact, and no longer than it needs to be. */
void gp_json_format_number(double v, char *buf, size_t size)
{
    /* whole numbers in full ("2048", "10000000", not "2e+03"); others with
     * the fewest significant digits that read back as the same double */
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, size, "%.0f", v);
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* Quotes and escapes s for a one-line message, at most 80 characters of
 * it. */
const char *gp_json_quote(const char *s, char *buf, size_t size)
{
    size_t n = 0;
    const size_t limit = 80; /* characters of s shown before "..." */

    if (size < 8) {
        if (size > 0)
            buf[0] = '\0';
        return buf;
    }
    buf[n++] = '"';
    for (size_t i = 0, len = strlen(s), step; i < len; i += step) {
        unsigned char c = (unsigned char)s[i];
        char esc[8];
        const char *out = esc;
        size_t k;

        /* control bytes and bytes that are not UTF-8 as gp_append_escaped
         * writes them (\n, \r, \t, \xNN), so that a field reads the same
         * in every message; a character as it is */
        step = gp_utf8_char_len(s + i, len - i);
        if (i >= limit) {
            snprintf(esc, sizeof esc, "...");
        } else if (c == '"' || c == '\\') {
            snprintf(esc, sizeof esc, "\\%c", c);
        } else if (c < 0x20 || c == 0x7F || step == 0) {
            esc[0] = '\0';
            gp_append_escaped(esc, sizeof esc, s + i, 1);
            step = 1;
        } else {
            out = s + i;
        }
        k = out == esc ? strlen(esc) : step;
        if (n + k + 2 > size)
            break;
        memcpy(buf + n, out, k);
        n += k;
        if (i >= limit)
            break;
    }
    buf[n++] = '"';
    buf[n] = '\0';
    return buf;
}

/* ---- documents ---------------------------------------------------------- */

/* Points the reader at a document; the path starts at the root. */
void gp_jdoc_init(gp_jdoc *d, const char *text, size_t len, const char *source,
                  gp_error *err)
{
    memset(d, 0, sizeof *d);
    d->text = text;
    d->len = len;
    d->source = source ? source : "";
    d->err = err;
}

/* jansson places a syntax error after the token it could not take (its
 * stream position, json_error_t line/column/position) and quotes the token
 * in the message, "... near '\"as_of\"'".  Moves *line and *column to the
 * token's first character, where an editor shows the mistake: the token's
 * bytes end at je->position.  Left as they are when the message quotes no
 * token (end of input) or a cut one that does not match the text. */
static void jansson_token_start(const char *text, size_t len,
                                const json_error_t *je, long *line,
                                long *column)
{
    const char *near = NULL, *p = je->text, *tok;
    size_t tok_len, end = (size_t)je->position, start;

    while ((p = strstr(p, "near '")) != NULL)
        near = p++;
    if (!near || je->position < 0)
        return;
    tok = near + 6;
    tok_len = strlen(tok);
    if (tok_len < 2 || tok[tok_len - 1] != '\'')
        return;
    tok_len--; /* the closing quote */
    if (tok_len == 0 || end > len || end < tok_len ||
        memcmp(text + end - tok_len, tok, tok_len) != 0)
        return;
    start = end - tok_len;
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < start; i++)
        gp_source_advance((unsigned char)text[i], line, column);
}

/* Runs jansson over the whole text; its errors keep its own wording, with
 * no field, at the start of the token it names. */
gp_status gp_jdoc_parse(gp_jdoc *d, json_t **root)
{
    json_error_t je;
    json_t *v;

    *root = NULL;
    size_t bom;
    if (gp_source_bom(d->source, d->text, d->len, &bom, d->err) != GP_OK)
        return GP_ERR_INPUT;
    d->text += bom;
    d->len -= bom;
    v = json_loadb(d->text, d->len, JSON_REJECT_DUPLICATES, &je);
    if (!v) {
        if (json_error_code(&je) == json_error_out_of_memory)
            return gp_jdoc_nomem(d);
        long line = je.line > 0 ? je.line : 0;
        long column = je.column > 0 ? je.column : 0;
        jansson_token_start(d->text, d->len, &je, &line, &column);
        gp_error_set(d->err, d->source, line, column, "", "%s", je.text);
        return GP_ERR_INPUT;
    }
    if (!json_is_object(v)) {
        gp_jdoc_error(d, NULL, "expected an object, got %s",
                      gp_json_type_phrase(v));
        json_decref(v);
        return GP_ERR_INPUT;
    }
    *root = v;
    return GP_OK;
}

/* Steps into member `key` of the current object. */
void gp_jdoc_push_key(gp_jdoc *d, const char *key)
{
    if (d->depth < GP_JPATH_MAX) {
        d->path[d->depth].key = key;
        d->path[d->depth].index = 0;
    }
    d->depth++;
}

/* Steps into element `index` of the current array. */
void gp_jdoc_push_index(gp_jdoc *d, size_t index)
{
    if (d->depth < GP_JPATH_MAX) {
        d->path[d->depth].key = NULL;
        d->path[d->depth].index = index;
    }
    d->depth++;
}

/* Steps back out to the enclosing value. */
void gp_jdoc_pop(gp_jdoc *d)
{
    if (d->depth > 0)
        d->depth--;
}

/* Fills e with the location of the value at the current path (or of its
 * member `key`), that path as the field, and the message. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 0)))
#endif
static void
jdoc_record(gp_jdoc *d, gp_error *e, const char *key, const char *fmt,
            va_list ap)
{
    char field[sizeof e->field];
    char message[sizeof e->message];
    long line = 0, column = 0;

    if (key)
        gp_jdoc_push_key(d, key);
    if (d->text) /* no text (a scenario built in memory): no position */
        gp_json_locate(d->text, d->len, d->path, d->depth, &line, &column);
    gp_json_path_format(d->path, d->depth, field, sizeof field);
    if (key)
        gp_jdoc_pop(d);
    vsnprintf(message, sizeof message, fmt, ap);
    gp_error_set(e, d->source, line, column, field, "%s", message);
}

/* Records the error (unless an earlier error is already there). */
gp_status gp_jdoc_error(gp_jdoc *d, const char *key, const char *fmt, ...)
{
    va_list ap;

    if (!d->err || d->err->message[0])
        return GP_ERR_INPUT; /* the first error wins: skip the work */
    va_start(ap, fmt);
    jdoc_record(d, d->err, key, fmt, ap);
    va_end(ap);
    return GP_ERR_INPUT;
}

/* The same located message, added to w as a warning (see json_util.h). */
void gp_jdoc_warning(gp_jdoc *d, gp_warnings *w, const char *key,
                     const char *fmt, ...)
{
    gp_error e;
    char line[sizeof e.source + sizeof e.field + sizeof e.message + 64];
    va_list ap;

    if (!w)
        return;
    gp_error_clear(&e);
    va_start(ap, fmt);
    jdoc_record(d, &e, key, fmt, ap);
    va_end(ap);
    gp_error_format_marked(&e, line, sizeof line);
    gp_warnings_add(w, "%s", line);
}

/* Out of memory: no position, since none of the input is at fault. */
gp_status gp_jdoc_nomem(gp_jdoc *d)
{
    gp_error_set(d->err, d->source, 0, 0, "", "out of memory");
    return GP_ERR_NOMEM;
}

/* Goes on past a part that failed, for a reader that reports every error
 * (json_util.h). */
gp_status gp_jdoc_go_on(gp_jdoc *d, gp_status st, size_t depth)
{
    if (st != GP_ERR_INPUT || !d->all)
        return st;
    st = gp_error_list_add(d->all, d->err);
    gp_error_clear(d->err);
    d->depth = depth;
    return st == GP_OK ? GP_OK : gp_jdoc_nomem(d);
}
