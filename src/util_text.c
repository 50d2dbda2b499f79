/*
 * util_text.c: text as the readers meet it: UTF-8 checked and escaped for
 * messages, lower-casing and the edit distance behind "nearest:"
 * suggestions.  (Byte order marks and line ends: source.c.)
 */
#include "safe_text.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* ---- UTF-8 -------------------------------------------------------------- */

size_t gp_utf8_char_len(const char *p, size_t len)
{
    const unsigned char *s = (const unsigned char *)p;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF; /* range of the second byte */

    if (len == 0)
        return 0;
    if (s[0] < 0x80)
        return 1;
    if (s[0] < 0xC2) /* continuation byte, or overlong 2-byte form */
        return 0;
    if (s[0] < 0xE0) {
        n = 2;
    } else if (s[0] < 0xF0) {
        n = 3;
        if (s[0] == 0xE0)
            lo = 0xA0; /* overlong */
        else if (s[0] == 0xED)
            hi = 0x9F; /* UTF-16 surrogates */
    } else if (s[0] < 0xF5) {
        n = 4;
        if (s[0] == 0xF0)
            lo = 0x90; /* overlong */
        else if (s[0] == 0xF4)
            hi = 0x8F; /* past U+10FFFF */
    } else {
        return 0;
    }
    if (len < n || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* A value with a newline in a quoted field, or a JSON key with one, must
 * not split a message line. */
void gp_append_escaped(char *buf, size_t size, const char *p, size_t len)
{
    size_t n = strlen(buf);

    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)p[i];
        size_t k = gp_utf8_char_len(p + i, len - i);
        char esc[8];
        const char *out = p + i; /* the character as it is */
        size_t out_len = k;
        if (c < 0x20 || c == 0x7f || k == 0) { /* \n, \r and \t too */
            if (c == '\n' || c == '\r' || c == '\t')
                snprintf(esc, sizeof esc, "\\%c",
                         c == '\n' ? 'n' : (c == '\r' ? 'r' : 't'));
            else
                snprintf(esc, sizeof esc, "\\x%02x", c);
            out = esc;
            out_len = strlen(esc);
            k = 1;
        } else {
            /* C1 controls (a terminal obeys U+009B as ESC [) and U+FFFE,
             * U+FFFF are shown by their code point, never as themselves */
            uint32_t code;
            if (gp_text_control_at(p + i, k, &code) == 0) {
                snprintf(esc, sizeof esc, "\\u%04x", (unsigned)code);
                out = esc;
                out_len = strlen(esc);
            }
        }
        if (n + out_len >= size)
            break;
        memcpy(buf + n, out, out_len);
        n += out_len;
        buf[n] = '\0';
        i += k;
    }
}

bool gp_utf8_valid(const char *p, size_t len, size_t *bad)
{
    size_t i = 0;

    while (i < len) {
        if ((unsigned char)p[i] < 0x80) { /* the common case: ASCII */
            i++;
            continue;
        }
        size_t k = gp_utf8_char_len(p + i, len - i);
        if (k == 0) {
            if (bad)
                *bad = i;
            return false;
        }
        i += k;
    }
    return true;
}

/* ---- names and suggestions ---------------------------------------------- */

bool gp_ascii_lower(char *dst, size_t size, const char *src)
{
    bool changed = false;
    size_t i;

    for (i = 0; src[i] && i + 1 < size; i++) {
        char c = src[i];
        changed |= c >= 'A' && c <= 'Z';
        dst[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    if (size)
        dst[i] = '\0';
    return changed;
}

size_t gp_edit_distance(const char *a, const char *b, size_t cap)
{
    size_t la = strlen(a), lb = strlen(b);
    size_t row[128];

    if (lb >= sizeof row / sizeof row[0] || la >= 128)
        return cap;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0], best;
        row[0] = i;
        best = row[0];
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            size_t v = diag + cost;
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
            diag = up;
            if (v < best)
                best = v;
        }
        if (best >= cap)
            return cap;
    }
    return row[lb] < cap ? row[lb] : cap;
}
