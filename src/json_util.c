/*
 * json_util.c: the JSON reading helpers the catalog and scenario loaders
 * share: a locator that maps a path back to line and column in the text,
 * path formatting, and typed member readers that word every type and range
 * error the same way.
 *
 * The locator is a small scanner over the original text, written for this
 * one job rather than for parsing: it knows just enough JSON (strings with
 * their escapes, nesting of objects and arrays, where a scalar ends) to skip
 * over values and to compare object keys with a path's keys.  The loaders
 * only call it once jansson has accepted the text, but it never reads past
 * the buffer whatever the text holds.
 */
#include "json_util.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
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

/* ---- the locator -------------------------------------------------------- */

/* A position in the text: the next byte to read and its line and column. */
typedef struct scanner {
    const char *p, *end;
    long line, column;
} scanner;

/* The next byte, or -1 at the end of the text. */
static int peek(const scanner *s)
{
    return s->p < s->end ? (unsigned char)*s->p : -1;
}

/*
 * Moves past one byte.  A newline starts the next line; columns count
 * characters, not bytes, as jansson's do, so UTF-8 continuation bytes
 * (10xxxxxx) do not move the column.
 */
static void advance(scanner *s)
{
    unsigned char c;

    if (s->p >= s->end)
        return;
    c = (unsigned char)*s->p++;
    if (c == '\n') {
        s->line++;
        s->column = 1;
    } else if ((c & 0xC0) != 0x80) {
        s->column++;
    }
}

/* Skips JSON whitespace: space, tab, CR and LF. */
static void skip_space(scanner *s)
{
    for (;;) {
        int c = peek(s);
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return;
        advance(s);
    }
}

/* Value of one hex digit, or -1. */
static int hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Reads the four hex digits of a \u escape (the scanner is past the 'u');
 * returns the code unit or -1. */
static long read_hex4(scanner *s)
{
    long v = 0;

    for (int i = 0; i < 4; i++) {
        int h = hex_value(peek(s));
        if (h < 0)
            return -1;
        v = v * 16 + h;
        advance(s);
    }
    return v;
}

/* Compares one decoded byte of a string with the key being matched:
 * *k walks the key, *same turns false at the first difference. */
static void match_byte(const char **k, bool *same, unsigned char b)
{
    if (!*k || !*same)
        return;
    if (**k == '\0' || (unsigned char)**k != b)
        *same = false;
    else
        (*k)++;
}

/* Encodes code point cp as UTF-8 and matches its bytes against the key. */
static void match_code_point(const char **k, bool *same, long cp)
{
    if (cp < 0x80) {
        match_byte(k, same, (unsigned char)cp);
    } else if (cp < 0x800) {
        match_byte(k, same, (unsigned char)(0xC0 | (cp >> 6)));
        match_byte(k, same, (unsigned char)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        match_byte(k, same, (unsigned char)(0xE0 | (cp >> 12)));
        match_byte(k, same, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
        match_byte(k, same, (unsigned char)(0x80 | (cp & 0x3F)));
    } else {
        match_byte(k, same, (unsigned char)(0xF0 | (cp >> 18)));
        match_byte(k, same, (unsigned char)(0x80 | ((cp >> 12) & 0x3F)));
        match_byte(k, same, (unsigned char)(0x80 | ((cp >> 6) & 0x3F)));
        match_byte(k, same, (unsigned char)(0x80 | (cp & 0x3F)));
    }
}

/*
 * Moves past a string (the scanner is on its opening quote).  When key is
 * not NULL, the string's decoded bytes are compared with it on the way and
 * the result is returned; escapes are decoded (\n, \u00e9, surrogate pairs)
 * so that "a\u002eb" matches the key "a.b".  Without a key, returns false.
 */
static bool scan_string(scanner *s, const char *key)
{
    const char *k = key;
    bool same = key != NULL;

    advance(s); /* the opening quote */
    for (;;) {
        int c = peek(s);
        if (c < 0)
            return false; /* unterminated */
        advance(s);
        if (c == '"')
            break;
        if (c != '\\') {
            match_byte(&k, &same, (unsigned char)c);
            continue;
        }
        c = peek(s);
        if (c < 0)
            return false;
        advance(s);
        switch (c) {
        case 'b':
            match_byte(&k, &same, '\b');
            break;
        case 'f':
            match_byte(&k, &same, '\f');
            break;
        case 'n':
            match_byte(&k, &same, '\n');
            break;
        case 'r':
            match_byte(&k, &same, '\r');
            break;
        case 't':
            match_byte(&k, &same, '\t');
            break;
        case 'u': {
            long cp = read_hex4(s);
            if (cp < 0) {
                same = false;
                break;
            }
            /* a high surrogate followed by \uDC00..\uDFFF is one code
             * point above U+FFFF */
            if (cp >= 0xD800 && cp <= 0xDBFF && peek(s) == '\\' &&
                s->p + 1 < s->end && s->p[1] == 'u') {
                scanner save = *s;
                long lo;
                advance(s);
                advance(s);
                lo = read_hex4(s);
                if (lo >= 0xDC00 && lo <= 0xDFFF)
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                else
                    *s = save; /* a lone surrogate; leave the next escape */
            }
            match_code_point(&k, &same, cp);
            break;
        }
        default: /* \" \\ \/ stand for themselves */
            match_byte(&k, &same, (unsigned char)c);
            break;
        }
    }
    return same && k && *k == '\0';
}

/*
 * Moves past one value of any kind.  Objects and arrays are skipped by
 * counting brackets, with strings skipped whole so that brackets inside
 * them do not count; a scalar (number, true, false, null) ends at the next
 * delimiter or whitespace.
 */
static void skip_value(scanner *s)
{
    int c = peek(s);

    if (c == '"') {
        scan_string(s, NULL);
    } else if (c == '{' || c == '[') {
        long nesting = 0;
        while ((c = peek(s)) >= 0) {
            if (c == '"') {
                scan_string(s, NULL);
                continue;
            }
            if (c == '{' || c == '[')
                nesting++;
            else if (c == '}' || c == ']')
                nesting--;
            advance(s);
            if (nesting == 0)
                return;
        }
    } else {
        while ((c = peek(s)) >= 0 && c != ',' && c != ']' && c != '}' &&
               c != ' ' && c != '\t' && c != '\r' && c != '\n')
            advance(s);
    }
}

/*
 * The scanner is on the first character of an object or array; moves it to
 * the first character of the member `step` names.  For a key that occurs
 * more than once the last occurrence counts, as in jansson.  Returns false,
 * with the scanner somewhere inside the container, when there is no such
 * member.
 */
static bool find_step(scanner *s, const gp_jstep *step)
{
    if (step->key) {
        scanner hit = *s;
        bool found = false;

        if (peek(s) != '{')
            return false;
        advance(s);
        for (;;) {
            bool same;
            skip_space(s);
            if (peek(s) != '"')
                break; /* '}' or something broken */
            same = scan_string(s, step->key);
            skip_space(s);
            if (peek(s) != ':')
                break;
            advance(s);
            skip_space(s);
            if (same) {
                hit = *s;
                found = true;
            }
            skip_value(s);
            skip_space(s);
            if (peek(s) != ',')
                break;
            advance(s);
        }
        if (found)
            *s = hit;
        return found;
    }
    if (peek(s) != '[')
        return false;
    advance(s);
    for (size_t i = 0;; i++) {
        skip_space(s);
        if (peek(s) < 0 || peek(s) == ']')
            return false;
        if (i == step->index)
            return true;
        skip_value(s);
        skip_space(s);
        if (peek(s) != ',')
            return false;
        advance(s);
    }
}

/* Walks the path step by step from the root; where a step is missing, the
 * last value found is the answer (see json_util.h). */
bool gp_json_locate(const char *text, size_t len, const gp_jstep *path,
                    size_t depth, long *line, long *column)
{
    scanner s = {text, text + len, 1, 1};
    scanner found;

    /* a byte order mark is invisible in editors: it takes no column */
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        s.p += 3;
    skip_space(&s);
    found = s;
    if (depth > GP_JPATH_MAX)
        depth = GP_JPATH_MAX;
    for (size_t i = 0; i < depth; i++) {
        if (!find_step(&s, &path[i])) {
            *line = found.line;
            *column = found.column;
            return false;
        }
        found = s;
    }
    *line = s.line;
    *column = s.column;
    return true;
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
    for (size_t i = 0; i < start; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *column = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            (*column)++; /* UTF-8 continuation bytes take no column */
        }
    }
}

/* Runs jansson over the whole text; its errors keep its own wording, with
 * no field, at the start of the token it names. */
gp_status gp_jdoc_parse(gp_jdoc *d, json_t **root)
{
    json_error_t je;
    json_t *v;

    *root = NULL;
    size_t bom;
    if (gp_text_bom(d->source, d->text, d->len, &bom, d->err) != GP_OK)
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

/* ---- typed readers ------------------------------------------------------ */

/*
 * Finds member `key` of obj.  Returns GP_OK with *out NULL when it is
 * absent (or null) and not required; an error when it is absent and
 * required; else GP_OK with *out set.
 */
static gp_status member(gp_jdoc *d, const json_t *obj, const char *key,
                        bool required, const char *expected, json_t **out)
{
    json_t *v = json_object_get(obj, key);

    *out = NULL;
    if (!v)
        return required ? gp_jdoc_error(d, key, "missing required key") : GP_OK;
    if (json_is_null(v) && !required)
        return GP_OK;
    if (json_is_null(v))
        return gp_jdoc_error(d, key, "expected %s, got null", expected);
    *out = v;
    return GP_OK;
}

/* Records "expected <expected>, got <v's type>" at member key. */
static gp_status wrong_type(gp_jdoc *d, const char *key, const char *expected,
                            const json_t *v)
{
    return gp_jdoc_error(d, key, "expected %s, got %s", expected,
                         gp_json_type_phrase(v));
}

/* A number member (JSON integer or real). */
gp_status gp_jdoc_number(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, double *out, bool *present)
{
    json_t *v;
    gp_status st = member(d, obj, key, required, "a number", &v);

    if (present)
        *present = false;
    if (st != GP_OK || !v)
        return st;
    if (!json_is_number(v))
        return wrong_type(d, key, "a number", v);
    *out = json_number_value(v);
    if (!isfinite(*out)) /* jansson rejects these, but be sure */
        return gp_jdoc_error(d, key, "expected a finite number");
    if (present)
        *present = true;
    return GP_OK;
}

/* A string member, borrowed from obj. */
gp_status gp_jdoc_string(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, const char **out, bool *present)
{
    json_t *v;
    gp_status st = member(d, obj, key, required, "a string", &v);

    if (present)
        *present = false;
    if (st != GP_OK || !v)
        return st;
    if (!json_is_string(v))
        return wrong_type(d, key, "a string", v);
    *out = json_string_value(v);
    if (present)
        *present = true;
    return GP_OK;
}

/* A true/false member. */
gp_status gp_jdoc_bool(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, bool *out, bool *present)
{
    json_t *v;
    gp_status st = member(d, obj, key, required, "true or false", &v);

    if (present)
        *present = false;
    if (st != GP_OK || !v)
        return st;
    if (!json_is_boolean(v))
        return wrong_type(d, key, "true or false", v);
    *out = json_is_true(v);
    if (present)
        *present = true;
    return GP_OK;
}

/* An object member, borrowed; *out is NULL when absent. */
gp_status gp_jdoc_object(gp_jdoc *d, const json_t *obj, const char *key,
                         bool required, json_t **out)
{
    gp_status st = member(d, obj, key, required, "an object", out);

    if (st != GP_OK || !*out)
        return st;
    if (!json_is_object(*out)) {
        st = wrong_type(d, key, "an object", *out);
        *out = NULL;
    }
    return st;
}

/* An array member, borrowed; *out is NULL when absent. */
gp_status gp_jdoc_array(gp_jdoc *d, const json_t *obj, const char *key,
                        bool required, json_t **out)
{
    gp_status st = member(d, obj, key, required, "an array", out);

    if (st != GP_OK || !*out)
        return st;
    if (!json_is_array(*out)) {
        st = wrong_type(d, key, "an array", *out);
        *out = NULL;
    }
    return st;
}

/* For array elements, which have no key: v itself must be an object. */
gp_status gp_jdoc_expect_object(gp_jdoc *d, const json_t *v)
{
    if (json_is_object(v))
        return GP_OK;
    return gp_jdoc_error(d, NULL, "expected an object, got %s",
                         gp_json_type_phrase(v));
}

/* Writes names[0..n) into buf as "a, b<last>c" (last is " or " for a
 * choice, ", " for a list), cut short at size. */
static void join_names(char *buf, size_t size, const char *const *names,
                       size_t n, const char *last)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < n && used < size; i++) {
        int k = snprintf(buf + used, size - used, "%s%s",
                         i == 0       ? ""
                         : i == n - 1 ? last
                                      : ", ",
                         names[i]);
        if (k < 0)
            break;
        used += (size_t)k;
    }
}

/* Whether key is one of the NULL-terminated list (which may be NULL). */
static bool in_list(const char *key, const char *const *list)
{
    for (size_t i = 0; list && list[i]; i++)
        if (strcmp(key, list[i]) == 0)
            return true;
    return false;
}

gp_status gp_jdoc_known_keys(gp_jdoc *d, const json_t *obj,
                             const char *const *known,
                             const char *const *read_past)
{
    const char *key, *near = NULL;
    json_t *v;
    char list[512];
    size_t best = SIZE_MAX, i;

    json_object_foreach((json_t *)obj, key, v)
    {
        if (key[0] == '_' || in_list(key, known) || in_list(key, read_past))
            continue;
        /* the nearest known key, within a third of its length (and at
         * least one edit) */
        for (i = 0; known[i]; i++) {
            size_t limit = strlen(known[i]) / 3 < 1 ? 1 : strlen(known[i]) / 3;
            size_t e = gp_edit_distance(key, known[i], limit + 1);
            if (e <= limit && e < best) {
                best = e;
                near = known[i];
            }
        }
        /* else a known key that holds it whole, or that it holds ("types"
         * for "instance_types") */
        for (i = 0; !near && known[i]; i++)
            if (strlen(key) >= 4 && strlen(known[i]) >= 4 &&
                (strstr(known[i], key) || strstr(key, known[i])))
                near = known[i];
        if (near)
            return gp_jdoc_error(d, key, "unknown key (did you mean \"%s\"?)",
                                 near);
        for (i = 0; known[i]; i++)
            ;
        join_names(list, sizeof list, known, i, ", ");
        return gp_jdoc_error(d, key, "unknown key (expected %s)", list);
    }
    return GP_OK;
}

const char *const gp_json_payment_names[3] = {"no_upfront", "partial_upfront",
                                              "all_upfront"};
const char *const gp_json_provider_names[3] = {"aws", "gcp", "azure"};
const char *const gp_json_plan_kind_names[2] = {"compute", "instance_family"};
const char *const gp_json_launch_names[2] = {"on_demand", "spot"};

/* A string member from a fixed vocabulary; a word outside it gets the list
 * of words that would do. */
gp_status gp_jdoc_enum(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, const char *what,
                       const char *const *names, int n, int *out, bool *present)
{
    const char *s;
    bool have = false;
    char list[256], quoted[128];
    gp_status st = gp_jdoc_string(d, obj, key, required, &s, &have);

    if (present)
        *present = false;
    if (st != GP_OK || !have)
        return st;
    for (int i = 0; i < n; i++) {
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            if (present)
                *present = true;
            return GP_OK;
        }
    }
    join_names(list, sizeof list, names, (size_t)n, " or ");
    return gp_jdoc_error(d, key, "unknown %s %s (expected %s)", what,
                         gp_json_quote(s, quoted, sizeof quoted), list);
}

/* A commitment term: 1 or 3 years, the only terms the clouds sell. */
gp_status gp_jdoc_term_years(gp_jdoc *d, const json_t *obj, const char *key,
                             bool required, int *out, bool *present)
{
    double v = 0;
    bool have = false;
    char num[32];
    gp_status st = gp_jdoc_number(d, obj, key, required, &v, &have);

    if (present)
        *present = false;
    if (st != GP_OK || !have)
        return st;
    if (v != 1 && v != 3) {
        gp_json_format_number(v, num, sizeof num);
        return gp_jdoc_error(d, key, "must be 1 or 3, got %s", num);
    }
    *out = (int)v;
    if (present)
        *present = true;
    return GP_OK;
}

/* A time member, parsed by gp_parse_time; fractions of a second are
 * dropped. */
gp_status gp_jdoc_time(gp_jdoc *d, const json_t *obj, const char *key,
                       bool required, int64_t *out, bool *present)
{
    const char *s, *why;
    double seconds;
    bool have = false;
    char quoted[128];
    gp_status st = gp_jdoc_string(d, obj, key, required, &s, &have);

    if (present)
        *present = false;
    if (st != GP_OK || !have)
        return st;
    if (!gp_parse_time(s, strlen(s), &seconds, &why))
        return gp_jdoc_error(d, key, "%s, got %s", why,
                             gp_json_quote(s, quoted, sizeof quoted));
    *out = (int64_t)floor(seconds);
    if (present)
        *present = true;
    return GP_OK;
}

/* ---- range checks ------------------------------------------------------- */

/* Whole numbers within [min, max]: counts, GPUs, runs. */
gp_status gp_jdoc_check_whole(gp_jdoc *d, const char *key, double v, double min,
                              double max)
{
    char num[32], bound[32];

    gp_json_format_number(v, num, sizeof num);
    if (v != floor(v))
        return gp_jdoc_error(d, key, "must be a whole number, got %s", num);
    if (v < min) {
        gp_json_format_number(min, bound, sizeof bound);
        return gp_jdoc_error(d, key, "must be at least %s, got %s", bound, num);
    }
    if (v > max) {
        gp_json_format_number(max, bound, sizeof bound);
        return gp_jdoc_error(d, key, "must be at most %s, got %s", bound, num);
    }
    return GP_OK;
}

/* The upper bound both checks below share, GP_NUMBER_MAX.  No price, size,
 * duration or factor in a catalog or scenario comes near it, in any
 * currency (a p5 reserved for 3 years all upfront is about 1e12 in rials):
 * a number above it is a typo, and one near 1e308 would make the totals
 * infinite. */
static gp_status check_at_most_max(gp_jdoc *d, const char *key, double v)
{
    char num[32];

    if (v <= GP_NUMBER_MAX)
        return GP_OK;
    gp_json_format_number(v, num, sizeof num);
    return gp_jdoc_error(d, key,
                         "must be at most " GP_NUMBER_MAX_TEXT ", got %s", num);
}

/* Prices, sizes and durations that may be zero but not below. */
gp_status gp_jdoc_check_nonnegative(gp_jdoc *d, const char *key, double v)
{
    char num[32];

    if (v >= 0)
        return check_at_most_max(d, key, v);
    gp_json_format_number(v, num, sizeof num);
    return gp_jdoc_error(d, key, "must not be negative, got %s", num);
}

/* Rates and factors that must be above zero. */
gp_status gp_jdoc_check_positive(gp_jdoc *d, const char *key, double v)
{
    char num[32];

    if (v > 0)
        return check_at_most_max(d, key, v);
    gp_json_format_number(v, num, sizeof num);
    return gp_jdoc_error(d, key, "must be greater than 0, got %s", num);
}

/* Fractions in [0, 1); 1 or more is most likely a percent. */
gp_status gp_jdoc_check_fraction(gp_jdoc *d, const char *key, double v,
                                 const char *what)
{
    char num[32], hint[32];

    if (v >= 0 && v < 1)
        return GP_OK;
    gp_json_format_number(v, num, sizeof num);
    if (v < 1)
        return gp_jdoc_error(d, key, "expected %s in [0, 1), got %s", what,
                             num);
    gp_json_format_number(v / 100, hint, sizeof hint);
    return gp_jdoc_error(d, key,
                         "expected %s in [0, 1), got %s (a percent? write %s)",
                         what, num, hint);
}
