/*
 * source.c: the text-input layer (source.h): files, standard input and
 * buffers read whole or in chunks, byte order marks, CR line ends and line
 * counting, done once for every reader (traces, catalogs, spot histories,
 * scenarios, the importers).  See docs/design/source.md.
 */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Bytes a whole read asks for at a time (the buffer grows as gp_grow
 * grows it). */
#define WHOLE_PIECE 65536

/* How a read error is worded, by kind: the trace reader's, the whole-file
 * readers' and the streamed CSV importers' (errno unsaid) wording, as each
 * reader had it before the layer. */
enum read_wording { CANNOT_READ, READ_ERROR, READ_ERROR_BARE };

/* What each kind of source is: its read error's wording; for a text read
 * whole the most bytes it may have (0: no limit), with that limit and the
 * thing named in the message; and whether a user may give it as standard
 * input ("-"), which a pipe's message then suggests. */
static const struct kind {
    enum read_wording wording;
    uint64_t limit;
    const char *limit_text, *what;
    bool stdin_ok;
} kinds[] = {
    [GP_SOURCE_TRACE] = {CANNOT_READ, 0, NULL, NULL, true},
    [GP_SOURCE_CATALOG] = {READ_ERROR, GP_SOURCE_MAX_CATALOG, "64 MiB",
                           "a catalog", true},
    [GP_SOURCE_SCENARIO] = {READ_ERROR, GP_SOURCE_MAX_SCENARIO, "64 MiB",
                            "a scenario", true},
    [GP_SOURCE_SPOT_HISTORY] = {READ_ERROR, GP_SOURCE_MAX_SPOT_HISTORY,
                                "256 MiB", "a spot price history", false},
    [GP_SOURCE_IMPORT] = {READ_ERROR, GP_SOURCE_MAX_IMPORT, "1 GiB",
                          "an importer's input read whole", true},
    [GP_SOURCE_IMPORT_STREAM] = {READ_ERROR_BARE, 0, NULL, NULL, true},
};

/* What a file that is not a regular one is, for messages. */
static const char *file_type(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    if (S_ISFIFO(mode))
        return "a pipe";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a file";
}

/* Sets the error for a text past its kind's limit. */
static gp_status too_large(const gp_source *s, gp_error *err)
{
    const struct kind *k = &kinds[s->kind];

    gp_error_set(err, s->name, 0, 0, NULL,
                 "is larger than %s, the most %s may be", k->limit_text,
                 k->what);
    return GP_ERR_INPUT;
}

/* Opens the file at path for reading without blocking on a pipe with no
 * writer (the descriptor is made blocking again before it is read), and
 * refuses anything but a regular file, or one over the kind's limit. */
static gp_status open_regular(gp_source *s, const char *path, FILE **f,
                              gp_error *err)
{
    struct stat sb;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

    *f = NULL;
    if (fd < 0 || fstat(fd, &sb) != 0) {
        gp_error_set(err, path, 0, 0, NULL, "cannot open: %s",
                     strerror(errno));
        if (fd >= 0)
            close(fd);
        return GP_ERR_INPUT;
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        gp_error_set(err, path, 0, 0, NULL, "is not a regular file (%s)%s",
                     file_type(sb.st_mode),
                     S_ISFIFO(sb.st_mode) && kinds[s->kind].stdin_ok
                         ? "; to read a pipe, give - and pipe it into "
                           "standard input"
                         : "");
        return GP_ERR_INPUT;
    }
    s->size = (double)sb.st_size;
    if (kinds[s->kind].limit && (uint64_t)sb.st_size > kinds[s->kind].limit) {
        close(fd);
        return too_large(s, err);
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 ||
        !(*f = fdopen(fd, "rb"))) {
        gp_error_set(err, path, 0, 0, NULL, "cannot open: %s",
                     strerror(errno));
        close(fd);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* ---- opening and closing ------------------------------------------------- */

gp_status gp_source_open(gp_source *s, const char *path, gp_source_kind kind,
                         gp_error *err)
{
    struct stat sb;
    FILE *f = stdin;
    gp_status st;

    gp_source_stream(s, NULL, path, kind);
    if (strcmp(path, "-") != 0) {
        if ((st = open_regular(s, path, &f, err)) != GP_OK)
            return st;
        s->close_f = true;
    } else if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode)) {
        s->size = (double)sb.st_size;
    }
    s->f = f;
    return GP_OK;
}

void gp_source_stream(gp_source *s, FILE *f, const char *name,
                      gp_source_kind kind)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->kind = kind;
    s->cr_lines = -1;
    s->f = f;
}

void gp_source_buffer(gp_source *s, const char *text, size_t len,
                      const char *name, gp_source_kind kind)
{
    memset(s, 0, sizeof *s);
    s->name = name;
    s->kind = kind;
    s->cr_lines = -1;
    s->mem = text ? text : ""; /* never NULL: NULL means a file */
    s->buf = (char *)s->mem;   /* read only: never written */
    s->len = text ? len : 0;
    s->read = s->len;
    s->eof = true;
}

bool gp_source_map(gp_source *s)
{
    struct stat sb;

    /* a file read from elsewhere than its start (standard input a script
     * has read part of) is read on from there, as a stream */
    if (!s->f || s->mem || s->len || fstat(fileno(s->f), &sb) != 0 ||
        lseek(fileno(s->f), 0, SEEK_CUR) != 0 ||
        !S_ISREG(sb.st_mode) || sb.st_size <= 0 ||
        (uint64_t)sb.st_size > SIZE_MAX / 2)
        return false;
    size_t len = (size_t)sb.st_size;
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fileno(s->f), 0);
    if (p == MAP_FAILED)
        return false;
    if (gp_source_cr_line_ends(p, len, false) == 1) {
        munmap(p, len);
        return false;
    }
    (void)posix_madvise(p, len, POSIX_MADV_SEQUENTIAL);
    s->mem = s->buf = p;
    s->len = s->read = len;
    s->eof = true;
    s->mapped = true;
    s->map_len = len;
    return true;
}

void gp_source_close(gp_source *s)
{
    if (s->mapped)
        munmap((void *)s->mem, s->map_len);
    else if (s->buf != s->mem)
        gp_free(s->buf);
    if (s->f && s->close_f)
        fclose(s->f);
    s->f = NULL;
    s->buf = NULL;
    s->mem = NULL;
}

/* ---- reading ------------------------------------------------------------- */

/* Sets the kind's read error for the source (errno says why). */
static gp_status read_error(const gp_source *s, gp_error *err)
{
    switch (kinds[s->kind].wording) {
    case CANNOT_READ:
        gp_error_set(err, s->name, 0, 0, NULL, "cannot read: %s",
                     strerror(errno));
        break;
    case READ_ERROR:
        gp_error_set(err, s->name, 0, 0, NULL, "read error: %s",
                     strerror(errno));
        break;
    default:
        gp_error_set(err, s->name, 0, 0, NULL, "read error");
        break;
    }
    return GP_ERR_IO;
}

/* Reads up to `room` bytes of the file onto buf[len]: counts them, notes
 * the end, and makes CR line ends LF when the reader asked for it. */
static gp_status read_piece(gp_source *s, size_t room, gp_error *err)
{
    size_t n = fread(s->buf + s->len, 1, room, s->f);

    s->len += n;
    s->read += n;
    if (n == 0 || feof(s->f))
        s->eof = true;
    if (ferror(s->f))
        return read_error(s, err);
    if (s->cr_to_lf && s->cr_lines < 0)
        s->cr_lines = gp_source_cr_line_ends(s->buf, s->len, !s->eof);
    if (s->cr_to_lf && s->cr_lines == 1)
        s->cr_done = gp_source_cr_to_lf(s->buf, s->cr_done, s->len, !s->eof,
                                        &s->cr_quote);
    return GP_OK;
}

gp_status gp_source_fill(gp_source *s, size_t chunk, gp_error *err)
{
    gp_status st;

    if (s->mem)
        return s->begun ? GP_OK : gp_source_begin(s, err);
    if (s->cap < s->len + chunk) {
        size_t cap = s->len + chunk;
        char *grown = gp_realloc(s->buf, cap);
        if (!grown) {
            gp_error_set(err, s->name, 0, 0, NULL, "out of memory");
            return GP_ERR_NOMEM;
        }
        s->buf = grown;
        s->cap = cap;
    }
    if ((st = read_piece(s, s->cap - s->len, err)) != GP_OK)
        return st;
    return s->begun ? GP_OK : gp_source_begin(s, err);
}

void gp_source_consume(gp_source *s, size_t n)
{
    memmove(s->buf, s->buf + n, s->len - n);
    s->len -= n;
    if (s->cr_lines == 1)
        s->cr_done -= n;
    s->start = 0;
}

/* Makes room in buf for the next piece of a whole read and the NUL after
 * it: as gp_grow grows it, but never past a byte over the kind's limit
 * (which is enough to tell a text is past it), so that standard input
 * given /dev/zero stops at the limit.  Returns the bytes to ask for. */
static size_t whole_room(gp_source *s, gp_error *err)
{
    uint64_t limit = kinds[s->kind].limit;
    size_t need = s->len + WHOLE_PIECE + 1;

    if (limit && need > limit + 2)
        need = (size_t)limit + 2;
    if (limit && s->cap < need) {
        size_t cap = s->cap ? s->cap : WHOLE_PIECE;
        while (cap < need)
            cap = cap > (size_t)limit / 2 ? (size_t)limit + 2 : cap * 2;
        char *grown = gp_realloc(s->buf, cap);
        if (!grown)
            goto nomem;
        s->buf = grown;
        s->cap = cap;
    } else if (gp_grow((void **)&s->buf, &s->cap, need, 1) != GP_OK) {
        goto nomem;
    }
    return s->cap - s->len - 1;
nomem:
    gp_error_set(err, s->name, 0, 0, NULL, "out of memory");
    return 0;
}

/* Reads the rest of a file source into buf, NUL-terminated; a text over
 * its kind's limit is an error. */
static gp_status read_all(gp_source *s, gp_error *err)
{
    gp_status st;
    uint64_t limit = kinds[s->kind].limit;

    while (!s->eof) {
        size_t room = whole_room(s, err);
        if (room == 0)
            return GP_ERR_NOMEM;
        if ((st = read_piece(s, room, err)) != GP_OK)
            return st;
        if (limit && s->len > limit)
            return too_large(s, err);
    }
    if (!s->buf && !(s->buf = gp_malloc(1))) {
        gp_error_set(err, s->name, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    s->buf[s->len] = '\0';
    return GP_OK;
}

gp_status gp_source_load(const char *path, gp_source_kind kind, char **text,
                         size_t *len, gp_error *err)
{
    gp_source s;
    gp_status st;

    *text = NULL;
    *len = 0;
    if ((st = gp_source_open(&s, path, kind, err)) != GP_OK)
        return st;
    if ((st = read_all(&s, err)) == GP_OK) {
        *text = s.buf; /* the caller's now */
        *len = s.len;
        s.buf = NULL;
    }
    gp_source_close(&s);
    return st;
}

/* ---- byte order marks and line ends -------------------------------------- */

gp_status gp_source_begin(gp_source *s, gp_error *err)
{
    size_t skip;

    s->begun = true;
    if (gp_source_bom(s->name, s->buf, s->len, &skip, err) != GP_OK)
        return GP_ERR_INPUT;
    s->start = skip;
    return GP_OK;
}

size_t gp_source_utf8_bom(const char *text, size_t len)
{
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

gp_status gp_source_bom(const char *source, const char *text, size_t len,
                        size_t *skip, gp_error *err)
{
    *skip = gp_source_utf8_bom(text, len);
    /* SPEC section 2 asks for UTF-8.  Without a byte order mark, UTF-16
     * shows as a NUL byte after (little-endian) or before (big-endian)
     * each of the first two letters, which no UTF-8 text starts with. */
    if (len >= 4 && (!text[0] != !text[1]) && !text[0] == !text[2] &&
        !text[1] == !text[3]) {
        bool le = text[0] != '\0';
        gp_error_set(err, source, 1, 0, NULL,
                     "the file is UTF-16 (%s without a byte order mark: a "
                     "NUL byte %s each letter); save it as UTF-8 (e.g. "
                     "iconv -f UTF-16%s -t UTF-8)",
                     le ? "little-endian" : "big-endian",
                     le ? "after" : "before", le ? "LE" : "BE");
        return GP_ERR_INPUT;
    }
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

int gp_source_cr_line_ends(const char *text, size_t len, bool more)
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

size_t gp_source_cr_to_lf(char *p, size_t from, size_t n, bool more, int *quote)
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

gp_status gp_source_lf_copy(const char *text, size_t len, char **copy)
{
    *copy = NULL;
    if (gp_source_cr_line_ends(text, len, false) != 1)
        return GP_OK;
    if (!(*copy = gp_malloc(len + 1)))
        return GP_ERR_NOMEM;
    memcpy(*copy, text, len);
    (*copy)[len] = '\0';
    int quote = GP_CSV_FIELD_START;
    gp_source_cr_to_lf(*copy, 0, len, false, &quote);
    return GP_OK;
}

/* ---- positions ----------------------------------------------------------- */

long gp_source_count_lines(const char *p, size_t n)
{
    long lines = 0;
    const char *end = p + n;

    while ((p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        lines++;
        p++;
    }
    return lines;
}
