/*
 * util.h: small helpers the library modules share and do not export:
 * a string-keyed hash map, edit distance, files written whole, and
 * growable arrays.
 */
#ifndef GP_UTIL_H
#define GP_UTIL_H

#include "gpuplan.h"

#include <math.h>
#include <stdio.h>

/* ---- limits the loaders apply ----------------------------------------------
 * trace.c and catalog.c reject values past these; the importers, which
 * write traces and catalogs, check their inputs against the same numbers so
 * that what they write always loads. */

/* A trace may span at most this many clock hours (about 30 years): enough
 * for any real history, and a bound on memory for a mistyped timestamp.
 * One row's period is shorter than this (exactly this many hours is an
 * error: "covers 263520 hours (30 years) or more"). */
#define GP_TRACE_MAX_SPAN_HOURS (30L * 366 * 24)
/* The latest time a trace row, a window or a forecast may reach
 * (9999-12-31T23:00:00Z, in epoch seconds).  Times print with a four-digit
 * year, and a window's end is the end of its last clock hour: a row that
 * ended later would make that 10000-01-01T00:00:00Z.  GP_TIME_LATEST_WHY
 * says so in messages, after "after" or "at most". */
#define GP_TIME_LATEST 253402297200LL
#define GP_TIME_LATEST_WHY                                                     \
    "9999-12-31T23:00:00Z, the latest time a trace, window or forecast may "   \
    "reach (the end of its last clock hour must be a time in 9999)"
/* The last clock hour (in hours since the epoch) that a span [t0, t1) of
 * seconds has a part in: t1's own hour, unless t1 is on the hour.  From
 * mid-2514 (t1 of 2^34 s or more) a double's step is 3.8e-6 s and
 * t1 - 1e-6 rounds back to t1, so the hour is checked against t1 itself:
 * a span that ends on the hour would otherwise reach into the next one
 * (an empty hour, a window an hour too long). */
static inline int64_t gp_last_clock_hour(double t0, double t1)
{
    int64_t h0 = (int64_t)floor(t0 / 3600.0);
    int64_t h = (int64_t)floor((t1 - 1e-6) / 3600.0);
    if (h > h0 && (double)h * 3600 >= t1)
        h--;
    return h;
}
/* The most instances, and GPUs, one trace row may hold.  The largest GPU
 * fleets are around a million GPUs, so these are ten times past any real
 * row and catch a mistyped or garbage number (1e300) with a clear error.
 * They also keep one row's cost below 1e15 dollars, where a double still
 * holds cents: 1e7 8-GPU instances at about $100 an hour, or 1e8 GPUs at
 * about $12 a GPU-hour, for the 30-year span is about 3e14 dollars. */
#define GP_TRACE_MAX_ROW_INSTANCES 1e7
#define GP_TRACE_MAX_ROW_GPUS 1e8
/* A catalog's longest names, so that a scenario's commitment can name
 * them, and the most GPUs an instance type may have.  (Prices, sizes and
 * factors are at most GP_NUMBER_MAX, json_util.h.) */
#define GP_CATALOG_MAX_REGION 31
#define GP_CATALOG_MAX_TYPE_NAME 63
#define GP_CATALOG_MAX_FAMILY 31
#define GP_CATALOG_MAX_GPUS 1024

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil). */
int64_t gp_days_from_civil(int64_t y, unsigned m, unsigned d);
void gp_civil_from_days(int64_t z, int *y, unsigned *m, unsigned *d);

/* v with `decimals` decimals, trailing zeros and a bare point dropped:
 * "7.25", "7", "0.25". */
void gp_format_trimmed(double v, int decimals, char *buf, size_t size);

/* An expected count or amount that may be small (interruptions,
 * instance-hours), such that one that is not zero never reads as zero: to
 * one decimal from 0.05 up ("1.6"), to two significant figures below
 * ("0.0015"), "under 0.0001" below that; `zero` ("no", "0.0") when it is
 * zero, negative or NaN. */
void gp_format_small(double v, const char *zero, char *buf, size_t size);

/* Money as gp_format_money writes it, but an amount above zero that would
 * round to "$0.00" (under half a cent) is "under $0.01" ("under EUR
 * 0.01"). */
void gp_format_money_small(double v, char *buf, size_t size);

/* `one` when n is 1, else `many`: "1 row", "0 rows", "2 rows". */
static inline const char *gp_plural(uint64_t n, const char *one,
                                    const char *many)
{
    return n == 1 ? one : many;
}

/* Levenshtein distance, capped at `cap` (returns cap when larger). */
size_t gp_edit_distance(const char *a, const char *b, size_t cap);

/* Copies src to dst (cut to size - 1 bytes) with A-Z made lower case;
 * returns whether the copy changed any letter. */
bool gp_ascii_lower(char *dst, size_t size, const char *src);

/* Where CSV text is as its bytes go by, as libcsv reads it (strict RFC
 * 4180): at a field's start, in an unquoted field, in a quoted one, or
 * just past a quote inside one (the closing quote, or the first of a
 * doubled one).  Only GP_CSV_QUOTED is "inside quotes", where a CR or LF
 * is part of the field.  Starts (and is after every line end outside
 * quotes) at GP_CSV_FIELD_START. */
enum {
    GP_CSV_FIELD_START = 0,
    GP_CSV_UNQUOTED,
    GP_CSV_QUOTED,
    GP_CSV_QUOTE_IN_QUOTED
};

/* The state after byte c (see above).  A quote inside an unquoted field,
 * or text after a closing quote, is malformed (the reader says so); the
 * field then counts as unquoted up to its end, so one bad row does not
 * change how the rows after it are read. */
static inline int gp_csv_quote_step(int state, char c)
{
    switch (state) {
    case GP_CSV_QUOTED:
        return c == '"' ? GP_CSV_QUOTE_IN_QUOTED : GP_CSV_QUOTED;
    case GP_CSV_QUOTE_IN_QUOTED:
        if (c == '"')
            return GP_CSV_QUOTED; /* a doubled quote */
        if (c == ',' || c == '\n' || c == '\r')
            return GP_CSV_FIELD_START;
        return c == ' ' || c == '\t' ? GP_CSV_QUOTE_IN_QUOTED : GP_CSV_UNQUOTED;
    case GP_CSV_FIELD_START:
        if (c == '"')
            return GP_CSV_QUOTED;
        if (c == ',' || c == '\n' || c == '\r' || c == ' ' || c == '\t')
            return GP_CSV_FIELD_START;
        return GP_CSV_UNQUOTED;
    default:
        return c == ',' || c == '\n' || c == '\r' ? GP_CSV_FIELD_START
                                                  : GP_CSV_UNQUOTED;
    }
}

/* Whether a[0, n) equals b[0, n): eight bytes at a time, inlined, because
 * the ingest compares a few short keys per row and a memcmp call per key
 * cost a tenth of its time. */
static inline bool gp_same_bytes(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    uint64_t u, v;
    for (; n >= 8; n -= 8, x += 8, y += 8) {
        __builtin_memcpy(&u, x, 8);
        __builtin_memcpy(&v, y, 8);
        if (u != v)
            return false;
    }
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return false;
    return true;
}

/* The length (1 to 4) of the UTF-8 character that p[0, len) starts with,
 * or 0 when it starts with no well-formed one (a stray continuation byte,
 * a cut sequence, an overlong form, a surrogate, past U+10FFFF). */
size_t gp_utf8_char_len(const char *p, size_t len);

/* Appends p[0, len) to the string in buf (of `size` bytes) with control
 * bytes and bytes that are not UTF-8 escaped (\n, \r, \t, \xNN), so that a
 * message stays one line of text; stops before an escape that would not
 * fit. */
void gp_append_escaped(char *buf, size_t size, const char *p, size_t len);

/* Whether p[0, len) is all well-formed UTF-8.  When not and `bad` is not
 * NULL, *bad is the offset of the first byte that is not. */
bool gp_utf8_valid(const char *p, size_t len, size_t *bad);

/* A fast 64-bit hash of a short byte string. */
uint64_t gp_hash_bytes(const void *p, size_t n, uint64_t seed);

/*
 * An open-addressing map from byte strings to uint32 values.  Keys are
 * copied.  Used to intern instance types, labels, series keys.
 */
typedef struct gp_strmap {
    struct gp_strmap_slot {
        char *key;
        size_t len;
        uint64_t hash;
        uint32_t value;
    } *slots;
    size_t cap, count;
} gp_strmap;

/* Returns true and sets *value when found. */
bool gp_strmap_get(const gp_strmap *m, const char *key, size_t len,
                   uint32_t *value);
/* Inserts key -> value (key must not be present). */
gp_status gp_strmap_put(gp_strmap *m, const char *key, size_t len,
                        uint32_t value);
/* Frees the keys and slots and zeroes *m (not m itself); NULL is a
 * no-op. */
void gp_strmap_free(gp_strmap *m);

/*
 * A long sum (a window's hours, thousands of series or pools) added with
 * Neumaier's compensation, as STYLE.md asks of money: the rounding error
 * of each addition is kept in `comp` and added back in gp_sum_value, so
 * the result is as if the sum were kept in twice the precision.  8,760
 * hours of $3.06 make 26805.6 where plain `+=` made 26805.6000000036.
 * Zero-initialise to start.
 */
typedef struct gp_sum {
    double sum, comp;
} gp_sum;

static inline void gp_sum_add(gp_sum *s, double x)
{
    double t = s->sum + x;
    if (fabs(s->sum) >= fabs(x))
        s->comp += (s->sum - t) + x;
    else
        s->comp += (x - t) + s->sum;
    s->sum = t;
}

/* The sum; an infinite or NaN sum as plain addition gives it (the
 * compensation of an infinite term is NaN). */
static inline double gp_sum_value(const gp_sum *s)
{
    return isfinite(s->sum) ? s->sum + s->comp : s->sum;
}

/* Grows *items so it holds at least `need` elements of `size` bytes. */
gp_status gp_grow(void **items, size_t *cap, size_t need, size_t size);

/* Whether `path` is a symbolic link, or exists and is neither a regular
 * file nor a folder: a device such as /dev/null, or a pipe.  An output
 * written there is copied into it (through the link) when complete, not
 * renamed over it, which would replace the device or the link itself
 * (/dev/null, or /dev/stdout's link, as root). */
bool gp_path_is_special(const char *path);

/* A temporary file for writing `path`, created empty: named after path
 * (+ suffix) inside a new folder of its own (".gpuplan-tmp-XXXXXX",
 * random, mode 0700) beside path, so the rename stays on one file system
 * and nobody can plant a link or swap the file (created with O_EXCL and
 * O_NOFOLLOW); for a special target the folder is made in $TMPDIR
 * (default /tmp).  Sets *tmp to a gp_malloc'd string; on failure *tmp is
 * NULL and err says "out of memory" or "cannot write: <why>", against
 * `path`.  gp_temp_remove removes it and its folder. */
gp_status gp_temp_name(const char *path, const char *suffix, char **tmp,
                       gp_error *err);

/* A scratch file for the program's own use, opened for reading and
 * writing and already removed (so nothing is left behind, even after kill
 * -9): made in $TMPDIR, else /tmp, which tmpfile() would not honour.
 * NULL on failure, with errno set and `dir` (when not NULL, of size
 * `size`) naming the folder tried. */
FILE *gp_scratch_file(char *dir, size_t size);

/* Removes temporary file tmp (if still there) and its own folder (if
 * empty); NULL does nothing. */
void gp_temp_remove(const char *tmp);

/* Removes every temporary this process made and has not removed: for a
 * signal handler (it calls only unlink and rmdir), so that a run stopped
 * with SIGINT, SIGTERM or SIGHUP leaves none. */
void gp_temp_remove_live(void);

/* Puts the finished temporary file tmp at `path`: renames it over a
 * regular file (or none), copies it into a special one and removes it.
 * On failure fills err and leaves tmp for the caller to remove. */
gp_status gp_move_into_place(const char *tmp, const char *path, gp_error *err);

/* Writes to `path` atomically: the callback writes to a temporary file in
 * the same folder, which is renamed over `path` only if it succeeds. */
gp_status gp_write_atomic(const char *path,
                          gp_status (*write)(FILE *f, void *ctx), void *ctx,
                          gp_error *err);

/* The end of such a write to the temporary file tmp (gp_malloc'd): when
 * st is GP_OK moves tmp into place (gp_move_into_place), otherwise (or if
 * that fails) removes it; frees tmp and returns the final status. */
gp_status gp_rename_into_place(char *tmp, const char *path, gp_status st,
                               gp_error *err);

/*
 * A set of files written all or nothing (the CSV tables): each is written to a
 * temporary name beside it, and only when every one is written are they
 * renamed into place.  Zero-initialise, then gp_file_set_mkdir (optional),
 * gp_file_set_write for each file, and gp_file_set_commit; on any failure
 * gp_file_set_abort.  Both leave the set empty, so calling abort after
 * either is a no-op.
 */
typedef struct gp_file_set {
    struct gp_file_set_file {
        char *tmp, *path;
    } *files;
    size_t n, cap;
    char *made_dir; /* a folder the set created: removed on abort */
} gp_file_set;

/* Adds a finished temporary file (gp_temp_name's), which the set now owns,
 * to be renamed to `path` with the others; on failure removes it. */
gp_status gp_file_set_add(gp_file_set *set, char *tmp, const char *path,
                          gp_error *err);
/* Creates folder `dir` unless it exists. */
gp_status gp_file_set_mkdir(gp_file_set *set, const char *dir, gp_error *err);
/* Writes `path`'s temporary file with the callback. */
gp_status gp_file_set_write(gp_file_set *set, const char *path,
                            gp_status (*write)(FILE *f, void *ctx), void *ctx,
                            gp_error *err);
/* Renames every file into place.  A target that is a folder fails the set
 * before anything is renamed; a rename that fails anyway (the disk, a
 * race) leaves the files before it renamed and removes the rest. */
gp_status gp_file_set_commit(gp_file_set *set, gp_error *err);
/* Removes the temporary files (and a folder the set made, if empty). */
void gp_file_set_abort(gp_file_set *set);

/* The shortest interval a trace row may cover, in seconds: a millisecond
 * (a shorter one added to a time of this century is lost to rounding). */
#define GP_MIN_STEP_S 0.001

#endif
