/*
 * util.c: time and number parsing, money in the run's currency, names of
 * the vocabulary enums, and the small containers in util.h.
 *
 * Time and number parsing sit on the ingest's hot path (one call per row),
 * so both have a fast path for the common shapes and fall back to the C
 * library for the rest.
 */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- names -------------------------------------------------------------- */

const char *gp_workload_name(gp_workload w)
{
    switch (w) {
    case GP_TRAINING:
        return "training";
    case GP_INFERENCE:
        return "inference";
    case GP_UNLABELED:
        break;
    }
    return "unlabeled";
}

const char *gp_payment_name(gp_payment p)
{
    switch (p) {
    case GP_NO_UPFRONT:
        return "no_upfront";
    case GP_PARTIAL_UPFRONT:
        return "partial_upfront";
    case GP_ALL_UPFRONT:
        return "all_upfront";
    }
    return "?";
}

const char *gp_plan_kind_name(gp_plan_kind k)
{
    return k == GP_PLAN_COMPUTE ? "compute" : "instance_family";
}

const char *gp_launch_name(gp_launch l)
{
    return l == GP_LAUNCH_SPOT ? "spot" : "on_demand";
}

/* ---- calendar ----------------------------------------------------------- */

int64_t gp_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = (unsigned)(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

void gp_civil_from_days(int64_t z, int *y, unsigned *m, unsigned *d)
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const unsigned doe = (unsigned)(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t yy = (int64_t)yoe + era * 400;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int)(yy + (*m <= 2));
}

static unsigned days_in_month(int64_t y, unsigned m)
{
    static const unsigned days[] = {31, 28, 31, 30, 31, 30,
                                    31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

void gp_format_time(int64_t t, char *buf, size_t size)
{
    int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
    int64_t secs = t - days * 86400;
    int y;
    unsigned m, d;

    gp_civil_from_days(days, &y, &m, &d);
    snprintf(buf, size, "%04d-%02u-%02uT%02d:%02d:%02dZ", y, m, d,
             (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60));
}

/* ---- numbers ------------------------------------------------------------ */

static const double pow10_table[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,
                                     1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
                                     1e18, 1e19, 1e20, 1e21, 1e22};

/*
 * Plain decimals ("12", "-0.75", "33.5") with at most 15 significant digits
 * are converted exactly as integer / 10^k: both are exact doubles and one
 * IEEE division rounds correctly (Clinger's fast path).  Everything else
 * goes to strtod.
 */
bool gp_parse_number(const char *s, size_t len, double *out)
{
    size_t i = 0;
    bool neg = false;
    uint64_t mant = 0;
    int digits = 0, frac = 0;
    bool dot = false, any = false;
    char buf[64];
    char *end;

    if (len > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        i = 1;
    }
    for (; i < len; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            any = true;
            if (mant == 0 && c == '0') {
                if (dot)
                    frac++;
                continue;
            }
            if (++digits > 15)
                goto slow;
            mant = mant * 10 + (uint64_t)(c - '0');
            if (dot)
                frac++;
        } else if (c == '.' && !dot) {
            dot = true;
        } else {
            goto slow;
        }
    }
    if (!any || frac > 22)
        goto slow;
    *out = (double)mant / pow10_table[frac];
    if (neg)
        *out = -*out;
    return true;
slow:
    if (len == 0 || len >= sizeof buf)
        return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    for (size_t k = 0; k < len; k++) {
        char c = buf[k];
        /* strtod also takes hex, inf, nan and leading space: a trace does
         * not mean any of those */
        if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' ||
              c == 'e' || c == 'E'))
            return false;
    }
    errno = 0;
    *out = strtod(buf, &end);
    if (end != buf + len || errno == ERANGE || !isfinite(*out))
        return false;
    return true;
}

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

/* ---- time --------------------------------------------------------------- */

static bool take_digits(const char *s, size_t len, size_t *i, int n,
                        int *out)
{
    int v = 0;

    if (*i + (size_t)n > len)
        return false;
    for (int k = 0; k < n; k++) {
        char c = s[*i + (size_t)k];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    *i += (size_t)n;
    *out = v;
    return true;
}

bool gp_parse_time(const char *s, size_t len, double *out_seconds,
                   const char **why)
{
    size_t i = 0;
    int y, mo, d, h = 0, mi = 0, sec = 0;
    double frac = 0;
    long offset = 0;
    bool all_numeric = len > 0;

    *why = GP_TIME_EXPECTED;
    for (size_t k = 0; k < len; k++) {
        char c = s[k];
        if (!((c >= '0' && c <= '9') || c == '.' || (k == 0 && c == '-')))
            all_numeric = false;
    }
    if (all_numeric) {
        if (!gp_parse_number(s, len, out_seconds))
            return false;
        if (*out_seconds < 0 || *out_seconds > 253402300799.0) {
            *why = "epoch seconds out of range (1970 to 9999)";
            return false;
        }
        return true;
    }
    if (!take_digits(s, len, &i, 4, &y) || i >= len || s[i++] != '-' ||
        !take_digits(s, len, &i, 2, &mo) || i >= len || s[i++] != '-' ||
        !take_digits(s, len, &i, 2, &d))
        return false;
    if (mo < 1 || mo > 12) {
        *why = "impossible date: the month must be 01 to 12";
        return false;
    }
    if (d < 1 || (unsigned)d > days_in_month(y, (unsigned)mo)) {
        *why = "impossible date: that month has no such day";
        return false;
    }
    if (i < len && (s[i] == 'T' || s[i] == 't' || s[i] == ' ')) {
        i++;
        if (!take_digits(s, len, &i, 2, &h) || i >= len || s[i++] != ':' ||
            !take_digits(s, len, &i, 2, &mi))
            return false;
        if (i < len && s[i] == ':') {
            i++;
            if (!take_digits(s, len, &i, 2, &sec))
                return false;
            if (i < len && (s[i] == '.' || s[i] == ',')) {
                double scale = 0.1;
                i++;
                if (i >= len || s[i] < '0' || s[i] > '9')
                    return false;
                while (i < len && s[i] >= '0' && s[i] <= '9') {
                    frac += (s[i] - '0') * scale;
                    scale /= 10;
                    i++;
                }
            }
        }
        if (h > 23 || mi > 59 || sec > 59) {
            *why = "impossible time of day";
            return false;
        }
        if (i < len && (s[i] == 'Z' || s[i] == 'z')) {
            i++;
        } else if (i < len && (s[i] == '+' || s[i] == '-')) {
            int sign = s[i] == '-' ? -1 : 1, oh, om = 0;
            i++;
            if (!take_digits(s, len, &i, 2, &oh))
                return false;
            if (i < len && s[i] == ':')
                i++;
            if (i < len && !take_digits(s, len, &i, 2, &om))
                return false;
            if (oh > 23 || om > 59) {
                *why = "impossible UTC offset";
                return false;
            }
            offset = sign * (oh * 3600L + om * 60L);
        }
    }
    if (i != len)
        return false;
    int64_t whole = gp_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 +
                    h * 3600 + mi * 60 + sec - offset;
    /* the range epoch seconds have, in UTC: a year from 0000 parses, and
     * an offset may move a time of 9999 into 10000
     * (9999-12-31T22:00:00-05:00) or one of 1970 into 1969, which would
     * print as such */
    if (whole > 253402300799LL || whole < 0) {
        *why = whole < 0 ? GP_TIME_OUT_OF_RANGE "before "
                                                "1970-01-01T00:00:00Z (times "
                                                "run from 1970 to 9999 in UTC)"
                         : GP_TIME_OUT_OF_RANGE "after 9999-12-31T23:59:59Z "
                                                "(times run from 1970 to 9999 "
                                                "in UTC)";
        return false;
    }
    *out_seconds = (double)whole + frac;
    return true;
}

bool gp_parse_duration_hours(const char *s, double *hours)
{
    size_t len = strlen(s);
    double v, unit;

    if (len < 2)
        return false;
    switch (s[len - 1]) {
    case 'h':
        unit = 1;
        break;
    case 'd':
        unit = 24;
        break;
    case 'w':
        unit = 168;
        break;
    default:
        return false;
    }
    /* 0 is a duration, which the caller's range refuses in its own words
     * ("0h" read "takes a duration like 13w") */
    if (!gp_parse_number(s, len - 1, &v) || v < 0)
        return false;
    *hours = v * unit;
    return true;
}

/* ---- containers --------------------------------------------------------- */

/*
 * A word-at-a-time hash for the maps' short keys: each 8-byte word is
 * multiplied by its own odd constant and the products summed (so the
 * multiplies do not wait on each other), then the sum is mixed once with
 * MurmurHash3's finalizer.  The ingest hashes a few keys per row, and
 * byte-at-a-time FNV-1a spent a fifth of its time there.
 */
static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t gp_hash_bytes(const void *p, size_t n, uint64_t seed)
{
    static const uint64_t k[4] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL,
                                  0x165667B19E3779F9ULL, 0x27D4EB2F165667C5ULL};
    const unsigned char *b = p;
    uint64_t acc = seed ^ n, w;
    size_t i = 0;

    for (; n >= 8; n -= 8, b += 8, i++) {
        memcpy(&w, b, 8);
        acc += (w ^ (k[(i + 1) & 3] >> 7)) * k[i & 3];
    }
    w = 0;
    for (size_t j = 0; j < n; j++)
        w |= (uint64_t)b[j] << (8 * j);
    acc += (w ^ 0x5bd1e995) * k[i & 3];
    return mix64(acc);
}

bool gp_strmap_get(const gp_strmap *m, const char *key, size_t len,
                   uint32_t *value)
{
    if (m->cap == 0)
        return false;
    uint64_t h = gp_hash_bytes(key, len, 0);
    for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        const struct gp_strmap_slot *s = &m->slots[i];
        if (!s->key)
            return false;
        if (s->hash == h && s->len == len && gp_same_bytes(s->key, key, len)) {
            *value = s->value;
            return true;
        }
    }
}

static void strmap_insert_slot(struct gp_strmap_slot *slots, size_t cap,
                               struct gp_strmap_slot s)
{
    size_t i = s.hash & (cap - 1);

    while (slots[i].key)
        i = (i + 1) & (cap - 1);
    slots[i] = s;
}

gp_status gp_strmap_put(gp_strmap *m, const char *key, size_t len,
                        uint32_t value)
{
    struct gp_strmap_slot s;

    if ((m->count + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        struct gp_strmap_slot *slots = gp_calloc(cap, sizeof *slots);
        if (!slots)
            return GP_ERR_NOMEM;
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].key)
                strmap_insert_slot(slots, cap, m->slots[i]);
        gp_free(m->slots);
        m->slots = slots;
        m->cap = cap;
    }
    s.key = gp_strndup(key, len);
    if (!s.key)
        return GP_ERR_NOMEM;
    s.len = len;
    s.hash = gp_hash_bytes(key, len, 0);
    s.value = value;
    strmap_insert_slot(m->slots, m->cap, s);
    m->count++;
    return GP_OK;
}

void gp_strmap_free(gp_strmap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        gp_free(m->slots[i].key);
    gp_free(m->slots);
    memset(m, 0, sizeof *m);
}

gp_status gp_grow(void **items, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap : 8;
    void *p;

    if (need <= *cap)
        return GP_OK;
    while (n < need)
        n *= 2;
    p = gp_realloc(*items, n * size);
    if (!p)
        return GP_ERR_NOMEM;
    *items = p;
    *cap = n;
    return GP_OK;
}

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

void gp_format_trimmed(double v, int decimals, char *buf, size_t size)
{
    if (size == 0)
        return;
    snprintf(buf, size, "%.*f", decimals, v);
    if (!strchr(buf, '.'))
        return;
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
}

void gp_format_small(double v, const char *zero, char *buf, size_t size)
{
    if (size == 0)
        return;
    if (!(v > 0))
        snprintf(buf, size, "%s", zero);
    else if (v < 0.0001)
        snprintf(buf, size, "under 0.0001");
    else if (v < 0.05)
        snprintf(buf, size, "%.2g", v);
    else
        snprintf(buf, size, "%.1f", v);
}

void gp_format_money_small(double v, char *buf, size_t size)
{
    if (v > 0 && v < 0.005)
        snprintf(buf, size, "under %s0.01", gp_money_prefix());
    else
        gp_format_money(v, buf, size);
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

gp_status gp_read_file(const char *path, char **out, size_t *len,
                       gp_error *err)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0, cap = 0;

    *out = NULL;
    *len = 0;
    if (!f) {
        gp_error_set(err, path, 0, 0, NULL, "cannot open: %s",
                     strerror(errno));
        return GP_ERR_INPUT;
    }
    for (;;) {
        if (gp_grow((void **)&buf, &cap, n + 65536 + 1, 1) != GP_OK) {
            gp_free(buf);
            if (f != stdin)
                fclose(f);
            gp_error_set(err, path, 0, 0, NULL, "out of memory");
            return GP_ERR_NOMEM;
        }
        size_t k = fread(buf + n, 1, cap - n - 1, f);
        n += k;
        if (k == 0)
            break;
    }
    if (ferror(f)) {
        gp_error_set(err, path, 0, 0, NULL, "read error: %s",
                     strerror(errno));
        gp_free(buf);
        if (f != stdin)
            fclose(f);
        return GP_ERR_IO;
    }
    if (f != stdin)
        fclose(f);
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return GP_OK;
}

gp_status gp_text_bom(const char *source, const char *text, size_t len,
                      size_t *skip, gp_error *err)
{
    *skip = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    /* SPEC section 2 asks for UTF-8 */
    if (len < 2 || !((text[0] == '\xFF' && text[1] == '\xFE') ||
                     (text[0] == '\xFE' && text[1] == '\xFF')))
        return GP_OK;
    gp_error_set(err, source, 1, 0, NULL,
                 "the file is UTF-16 (%s byte order mark %s); save it as "
                 "UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)",
                 text[0] == '\xFF' ? "little-endian" : "big-endian",
                 text[0] == '\xFF' ? "FF FE" : "FE FF");
    return GP_ERR_INPUT;
}

int gp_text_cr_line_ends(const char *text, size_t len, bool more)
{
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n')
            return 0;
        if (text[i] == '\r') {
            if (i + 1 < len)
                return text[i + 1] != '\n';
            return more ? -1 : 1;
        }
    }
    return more ? -1 : 0;
}

size_t gp_text_cr_to_lf(char *p, size_t from, size_t n, bool more, int *quote)
{
    int q = *quote;

    for (size_t i = from; i < n; i++) {
        if (p[i] == '\r' && q != GP_CSV_QUOTED) {
            if (i + 1 == n && more) {
                *quote = q;
                return i; /* a CRLF's CR, perhaps: the next call sees */
            }
            if (i + 1 == n || p[i + 1] != '\n')
                p[i] = '\n';
        }
        q = gp_csv_quote_step(q, p[i]);
    }
    *quote = q;
    return n;
}

gp_status gp_text_lf_copy(const char *text, size_t len, char **copy)
{
    *copy = NULL;
    if (gp_text_cr_line_ends(text, len, false) != 1)
        return GP_OK;
    if (!(*copy = gp_malloc(len + 1)))
        return GP_ERR_NOMEM;
    memcpy(*copy, text, len);
    (*copy)[len] = '\0';
    int quote = GP_CSV_FIELD_START;
    gp_text_cr_to_lf(*copy, 0, len, false, &quote);
    return GP_OK;
}

bool gp_path_is_special(const char *path)
{
    struct stat sb;

    if (lstat(path, &sb) != 0)
        return false;
    return S_ISLNK(sb.st_mode) ||
           (!S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode));
}

gp_status gp_temp_name(const char *path, const char *suffix, char **tmp,
                       gp_error *err)
{
    *tmp = NULL;
    if (gp_path_is_special(path)) {
        const char *dir = getenv("TMPDIR");
        if (!dir || !*dir)
            dir = "/tmp";
        size_t n = strlen(dir) + 32;
        if (!(*tmp = gp_malloc(n)))
            goto nomem;
        snprintf(*tmp, n, "%s/gpuplan-XXXXXX", dir);
        int fd = mkstemp(*tmp);
        if (fd < 0) {
            gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                         strerror(errno));
            gp_free(*tmp);
            *tmp = NULL;
            return GP_ERR_IO;
        }
        close(fd);
        return GP_OK;
    }
    size_t n = strlen(path) + strlen(suffix) + 32;
    if (!(*tmp = gp_malloc(n)))
        goto nomem;
    snprintf(*tmp, n, "%s.tmp%ld%s", path, (long)getpid(), suffix);
    return GP_OK;
nomem:
    gp_error_set(err, path, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

/* Copies file `from` into `to`, which is opened for writing as it is (a
 * device or a pipe is written into, not replaced).  Returns 0 or errno. */
static int copy_into(const char *from, const char *to)
{
    char buf[65536];
    FILE *in = fopen(from, "rb"), *out;
    int e = 0;
    size_t n;

    if (!in)
        return errno;
    if (!(out = fopen(to, "wb"))) {
        e = errno;
        fclose(in);
        return e;
    }
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n) {
            e = errno ? errno : EIO;
            break;
        }
    if (!e && ferror(in))
        e = errno ? errno : EIO;
    fclose(in);
    if (fclose(out) != 0 && !e)
        e = errno ? errno : EIO;
    return e;
}

gp_status gp_move_into_place(const char *tmp, const char *path, gp_error *err)
{
    if (gp_path_is_special(path)) {
        int e = copy_into(tmp, path);
        if (e) {
            gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                         strerror(e));
            return GP_ERR_IO;
        }
        remove(tmp);
        return GP_OK;
    }
    if (rename(tmp, path) != 0) {
        gp_error_set(err, path, 0, 0, NULL, "cannot rename into place: %s",
                     strerror(errno));
        return GP_ERR_IO;
    }
    return GP_OK;
}

/* Writes `path`'s temporary file (gp_temp_name) with the callback; sets
 * *tmp to its name (gp_malloc'd) even when the write failed, NULL when
 * there is no file to remove. */
static gp_status write_temporary(const char *path,
                                 gp_status (*write)(FILE *f, void *ctx),
                                 void *ctx, char **tmp, gp_error *err)
{
    FILE *f;
    gp_status st;

    if ((st = gp_temp_name(path, "", tmp, err)) != GP_OK)
        return st;
    f = fopen(*tmp, "wb");
    if (!f) {
        gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                     strerror(errno));
        gp_free(*tmp);
        *tmp = NULL;
        return GP_ERR_IO;
    }
    st = write(f, ctx);
    if (fclose(f) != 0 && st == GP_OK) {
        gp_error_set(err, path, 0, 0, NULL, "cannot write: %s",
                     strerror(errno));
        st = GP_ERR_IO;
    }
    return st;
}

gp_status gp_write_atomic(const char *path,
                          gp_status (*write)(FILE *f, void *ctx), void *ctx,
                          gp_error *err)
{
    char *tmp;
    gp_status st = write_temporary(path, write, ctx, &tmp, err);

    if (!tmp)
        return st;
    return gp_rename_into_place(tmp, path, st, err);
}

gp_status gp_file_set_mkdir(gp_file_set *set, const char *dir, gp_error *err)
{
    if (mkdir(dir, 0777) == 0) {
        if (!set->made_dir)
            set->made_dir = gp_strdup(dir); /* NULL: the folder stays */
        return GP_OK;
    }
    if (errno == EEXIST)
        return GP_OK;
    gp_error_set(err, dir, 0, 0, NULL, "cannot create folder: %s",
                 strerror(errno));
    return GP_ERR_IO;
}

gp_status gp_file_set_write(gp_file_set *set, const char *path,
                            gp_status (*write)(FILE *f, void *ctx), void *ctx,
                            gp_error *err)
{
    char *tmp, *name;
    gp_status st;

    if (gp_grow((void **)&set->files, &set->cap, set->n + 1,
                sizeof *set->files) != GP_OK ||
        !(name = gp_strdup(path))) {
        gp_error_set(err, path, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    st = write_temporary(path, write, ctx, &tmp, err);
    if (st != GP_OK) {
        if (tmp)
            remove(tmp);
        gp_free(tmp);
        gp_free(name);
        return st;
    }
    set->files[set->n].tmp = tmp;
    set->files[set->n].path = name;
    set->n++;
    return GP_OK;
}

gp_status gp_file_set_commit(gp_file_set *set, gp_error *err)
{
    struct stat sb;
    size_t i;
    gp_status st = GP_OK;

    /* a folder in a file's place is the failure a rename would meet;
     * found first, nothing is renamed */
    for (i = 0; i < set->n; i++) {
        if (stat(set->files[i].path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
            gp_error_set(err, set->files[i].path, 0, 0, NULL,
                         "cannot rename into place: %s", strerror(EISDIR));
            gp_file_set_abort(set);
            return GP_ERR_IO;
        }
    }
    for (i = 0; i < set->n; i++) {
        st = gp_move_into_place(set->files[i].tmp, set->files[i].path, err);
        if (st != GP_OK)
            break;
        gp_free(set->files[i].tmp);
        gp_free(set->files[i].path);
    }
    if (st == GP_OK) {
        gp_free(set->made_dir); /* the folder is the set's result now */
        set->made_dir = NULL;
    }
    /* what is left (from the failed rename on) is removed */
    if (i < set->n)
        memmove(set->files, set->files + i,
                (set->n - i) * sizeof *set->files);
    set->n -= i;
    gp_file_set_abort(set);
    return st;
}

void gp_file_set_abort(gp_file_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        remove(set->files[i].tmp);
        gp_free(set->files[i].tmp);
        gp_free(set->files[i].path);
    }
    gp_free(set->files);
    if (set->made_dir) {
        rmdir(set->made_dir); /* fails, as it should, unless empty */
        gp_free(set->made_dir);
    }
    memset(set, 0, sizeof *set);
}

gp_status gp_rename_into_place(char *tmp, const char *path, gp_status st,
                               gp_error *err)
{
    if (st == GP_OK)
        st = gp_move_into_place(tmp, path, err);
    if (st != GP_OK)
        remove(tmp);
    gp_free(tmp);
    return st;
}

/* ---- the currency money is written in ------------------------------------ */

static char money_currency[4] = "USD";
static char money_prefix[8] = "$";
static char money_unit[4] = "$";
static char money_per_hour[8] = "$/h";

void gp_money_set_currency(const char *code)
{
    if (!code || strlen(code) != 3)
        code = "USD";
    snprintf(money_currency, sizeof money_currency, "%s", code);
    bool usd = strcmp(code, "USD") == 0;
    snprintf(money_prefix, sizeof money_prefix, "%s%s", usd ? "$" : code,
             usd ? "" : " ");
    snprintf(money_unit, sizeof money_unit, "%s", usd ? "$" : code);
    snprintf(money_per_hour, sizeof money_per_hour, "%s/h", money_unit);
}

const char *gp_money_currency(void)
{
    return money_currency;
}

const char *gp_money_prefix(void)
{
    return money_prefix;
}

const char *gp_money_unit(void)
{
    return money_unit;
}

const char *gp_money_per_hour(void)
{
    return money_per_hour;
}

/* Amounts from this many dollars up are written in exponent form: cents
 * are no longer exact in a double there, and no real bill comes near it
 * (the trace bounds keep one row's cost under it), so such a number is a
 * sign of bad input, not something to read digit by digit. */
#define MONEY_EXPONENT_FROM 1e15

void gp_format_money(double v, char *buf, size_t size)
{
    char digits[64];
    double a = fabs(v);
    int n, lead;
    size_t k = 0;

    if (size == 0)
        return;
    if (isnan(v)) {
        snprintf(buf, size, "n/a");
        return;
    }
    const char *cur = gp_money_prefix();
    if (!(a < MONEY_EXPONENT_FROM)) { /* infinite too: "$inf" */
        snprintf(buf, size, "%s%s%.3e", v < 0 ? "-" : "", cur, a);
        return;
    }
    /* at most 16 digits, the point and two decimals: digits has room */
    snprintf(digits, sizeof digits, "%.2f", a);
    n = (int)(strchr(digits, '.') - digits);
    /* no sign on what rounds to zero: a baseline's savings of -1.5e-8
     * (two sums of the same costs in another order) is "$0.00" */
    if (v < 0 && strcmp(digits, "0.00") != 0 && k + 1 < size)
        buf[k++] = '-';
    for (const char *p = cur; *p && k + 1 < size; p++)
        buf[k++] = *p;
    lead = n % 3 ? n % 3 : 3;
    for (int i = 0; i < n && k + 2 < size; i++) {
        if (i > 0 && (i - lead) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    for (const char *p = digits + n; *p && k + 1 < size; p++)
        buf[k++] = *p;
    buf[k < size ? k : size - 1] = '\0';
}
