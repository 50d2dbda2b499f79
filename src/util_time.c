/*
 * util_time.c: the calendar, and number and time parsing.  Both parsers
 * sit on the ingest's hot path (one call per row), so both have a fast
 * path for the common shapes and fall back to the C library for the rest;
 * their helpers are static here, where the compiler can inline them.
 */
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- time --------------------------------------------------------------- */

/* Reads n digits at s[*i] into *out and moves *i past them; false (with
 * *i where it was) when there are fewer. */
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

/* The fields of an ISO 8601 time as gp_parse_time reads them: the date,
 * the time of day (0 when there is none), the fraction of a second, and
 * the offset from UTC in seconds. */
typedef struct iso_time {
    int y, mo, d, h, mi, sec;
    double frac;
    long offset;
} iso_time;

/* Whether s is epoch seconds rather than a date: digits and dots only,
 * with a '-' allowed first (which parse_epoch then refuses as out of
 * range). */
static bool is_epoch_text(const char *s, size_t len)
{
    bool all_numeric = len > 0;

    for (size_t k = 0; k < len; k++) {
        char c = s[k];
        if (!((c >= '0' && c <= '9') || c == '.' || (k == 0 && c == '-')))
            all_numeric = false;
    }
    return all_numeric;
}

/* Reads epoch seconds, from 1970 to 9999. */
static bool parse_epoch(const char *s, size_t len, double *out_seconds,
                        const char **why)
{
    if (!gp_parse_number(s, len, out_seconds))
        return false;
    if (*out_seconds < 0 || *out_seconds > 253402300799.0) {
        *why = "epoch seconds out of range (1970 to 9999)";
        return false;
    }
    return true;
}

/* Reads the date, YYYY-MM-DD, from s[*i] into t and checks that it
 * exists. */
static bool parse_date(const char *s, size_t len, size_t *i, iso_time *t,
                       const char **why)
{
    if (!take_digits(s, len, i, 4, &t->y) || *i >= len || s[(*i)++] != '-' ||
        !take_digits(s, len, i, 2, &t->mo) || *i >= len || s[(*i)++] != '-' ||
        !take_digits(s, len, i, 2, &t->d))
        return false;
    if (t->mo < 1 || t->mo > 12) {
        *why = "impossible date: the month must be 01 to 12";
        return false;
    }
    if (t->d < 1 || (unsigned)t->d > days_in_month(t->y, (unsigned)t->mo)) {
        *why = "impossible date: that month has no such day";
        return false;
    }
    return true;
}

/* Reads the time of day, hh:mm with optional :ss and a fraction of a
 * second after '.' or ',', from s[*i] into t and checks that it exists. */
static bool parse_clock(const char *s, size_t len, size_t *i, iso_time *t,
                        const char **why)
{
    if (!take_digits(s, len, i, 2, &t->h) || *i >= len || s[(*i)++] != ':' ||
        !take_digits(s, len, i, 2, &t->mi))
        return false;
    if (*i < len && s[*i] == ':') {
        (*i)++;
        if (!take_digits(s, len, i, 2, &t->sec))
            return false;
        if (*i < len && (s[*i] == '.' || s[*i] == ',')) {
            double scale = 0.1;
            (*i)++;
            if (*i >= len || s[*i] < '0' || s[*i] > '9')
                return false;
            while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
                t->frac += (s[*i] - '0') * scale;
                scale /= 10;
                (*i)++;
            }
        }
    }
    if (t->h > 23 || t->mi > 59 || t->sec > 59) {
        *why = "impossible time of day";
        return false;
    }
    return true;
}

/* Reads the offset from UTC after a time of day, if there is one: 'Z', or
 * +hh, +hhmm or +hh:mm (or with '-'), into t->offset. */
static bool parse_offset(const char *s, size_t len, size_t *i, iso_time *t,
                         const char **why)
{
    if (*i < len && (s[*i] == 'Z' || s[*i] == 'z')) {
        (*i)++;
    } else if (*i < len && (s[*i] == '+' || s[*i] == '-')) {
        int sign = s[*i] == '-' ? -1 : 1, oh, om = 0;
        (*i)++;
        if (!take_digits(s, len, i, 2, &oh))
            return false;
        if (*i < len && s[*i] == ':')
            (*i)++;
        if (*i < len && !take_digits(s, len, i, 2, &om))
            return false;
        if (oh > 23 || om > 59) {
            *why = "impossible UTC offset";
            return false;
        }
        t->offset = sign * (oh * 3600L + om * 60L);
    }
    return true;
}

/* Whether `whole` seconds in UTC are in the range epoch seconds have: a
 * year from 0000 parses, and an offset may move a time of 9999 into 10000
 * (9999-12-31T22:00:00-05:00) or one of 1970 into 1969, which would print
 * as such. */
static bool in_epoch_range(int64_t whole, const char **why)
{
    if (whole > 253402300799LL || whole < 0) {
        *why = whole < 0 ? GP_TIME_OUT_OF_RANGE "before "
                                                "1970-01-01T00:00:00Z (times "
                                                "run from 1970 to 9999 in UTC)"
                         : GP_TIME_OUT_OF_RANGE "after 9999-12-31T23:59:59Z "
                                                "(times run from 1970 to 9999 "
                                                "in UTC)";
        return false;
    }
    return true;
}

bool gp_parse_time(const char *s, size_t len, double *out_seconds,
                   const char **why)
{
    size_t i = 0;
    iso_time t = {0};

    *why = GP_TIME_EXPECTED;
    if (is_epoch_text(s, len))
        return parse_epoch(s, len, out_seconds, why);
    if (!parse_date(s, len, &i, &t, why))
        return false;
    if (i < len && (s[i] == 'T' || s[i] == 't' || s[i] == ' ')) {
        i++;
        if (!parse_clock(s, len, &i, &t, why) ||
            !parse_offset(s, len, &i, &t, why))
            return false;
    }
    if (i != len)
        return false;
    int64_t whole =
        gp_days_from_civil(t.y, (unsigned)t.mo, (unsigned)t.d) * 86400 +
        t.h * 3600 + t.mi * 60 + t.sec - t.offset;
    if (!in_epoch_range(whole, why))
        return false;
    *out_seconds = (double)whole + t.frac;
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
