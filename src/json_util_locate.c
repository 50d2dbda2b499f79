/*
 * json_util_locate.c: gp_json_locate, which finds a path (object keys and
 * array indices) again in a JSON text to give its line and column.  A
 * small scanner written for this one job rather than for parsing, which
 * never reads past the buffer (docs/design/json_util.md).
 */
#include "json_util.h"
#include "source.h"
#include "util.h"

#include <string.h>

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
    gp_source_advance(c, &s->line, &s->column);
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
    s.p += gp_source_utf8_bom(text, len);
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
