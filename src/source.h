/*
 * source.h: the one text-input layer every reader goes through (source.c):
 * a named file, standard input ("-") or a caller's buffer, read whole or
 * in chunks, with its byte order mark, line ends and line counting handled
 * once.  docs/design/source.md says how the readers use it.
 */
#ifndef GP_SOURCE_H
#define GP_SOURCE_H

#include "util.h"

#include <stdio.h>

/* The most bytes a text read whole may have, by kind (docs/catalogs.md,
 * docs/scenarios.md, docs/import.md): far past any real one, and a bound
 * on memory for a wrong file (a log, an image) or standard input that
 * never ends.  Traces and the bills and offer files streamed have none. */
#define GP_SOURCE_MAX_CATALOG (64ull << 20)
#define GP_SOURCE_MAX_SCENARIO (64ull << 20)
#define GP_SOURCE_MAX_SPOT_HISTORY (256ull << 20)
#define GP_SOURCE_MAX_IMPORT (1ull << 30)

/* What a source holds, which sets the wording of a read error and (for a
 * text read whole) the most bytes it may have (above); source.c's table. */
typedef enum gp_source_kind {
    GP_SOURCE_TRACE,        /* a trace, streamed */
    GP_SOURCE_CATALOG,      /* a pricing catalog (JSON) */
    GP_SOURCE_SCENARIO,     /* a scenario (JSON) */
    GP_SOURCE_SPOT_HISTORY, /* a catalog's spot price history (CSV) */
    GP_SOURCE_IMPORT,       /* an importer's input read whole */
    GP_SOURCE_IMPORT_STREAM /* an importer's input streamed (bills, offers) */
} gp_source_kind;

/*
 * One text being read.  A buffer source holds the caller's text (never
 * written); a file source holds what has been read of the file and not yet
 * consumed, buf[0, len), with the text starting at buf[start] (past a
 * UTF-8 byte order mark at the file's start).  The readers use the fields
 * directly, as a FILE's users use its buffer through getc.
 */
typedef struct gp_source {
    const char *name; /* the path, or the buffer's name, for messages */
    gp_source_kind kind;
    FILE *f;         /* NULL for a buffer */
    bool close_f;    /* f is the source's to close (not stdin's) */
    double size;     /* a regular file's bytes, 0 when unknown (a pipe) */
    uint64_t read;   /* bytes read from the file (or the buffer's) so far */
    const char *mem; /* a buffer source's text, else NULL */
    bool mapped;     /* mem is the file mapped into memory (gp_source_map), */
    size_t map_len;  /* map_len bytes of it */
    char *buf;       /* the text read and not consumed (a buffer's: mem) */
    size_t len, cap;
    size_t start; /* where the text starts in buf: past a byte order mark */
    bool eof;     /* the whole text is in buf */
    bool begun;   /* the byte order mark has been looked at */
    /* lines ending in a lone CR (old Mac files) made LF as they are read
     * (gp_source_cr_to_lf), when the reader asks for it: cr_lines is 1,
     * 0, or -1 until the first line end is read; cr_done is where the
     * conversion stands and cr_quote its quote state there */
    bool cr_to_lf;
    int cr_lines;
    size_t cr_done;
    int cr_quote;
} gp_source;

/* Opens the file at `path` ("-": standard input) as a source of `kind`.
 * Anything but a regular file (a folder, a device such as /dev/zero, a
 * pipe, a socket) is refused, without blocking on a pipe, as is a file
 * larger than the kind's limit; standard input may be anything.  On
 * failure err is "path: cannot open: <why>", "path: is not a regular file
 * (a device)" or "path: is larger than 64 MiB, the most a catalog may be"
 * (GP_ERR_INPUT), and nothing needs closing. */
gp_status gp_source_open(gp_source *s, const char *path, gp_source_kind kind,
                         gp_error *err);

/* Maps an opened regular file into memory, to be read as a buffer source
 * by threads at once: false (the source unchanged, read as a stream) when
 * it cannot be mapped, is empty, or has lines ending in a lone CR, which
 * the stream makes LF as it reads.  The mapping is read only and private:
 * a file cut short by someone else while it is read ends the process
 * (SIGBUS), as it would any program that maps its input. */
bool gp_source_map(gp_source *s);

/* Makes a source of the caller's open file f (such as a temporary file),
 * read from where it stands; gp_source_close leaves it open. */
void gp_source_stream(gp_source *s, FILE *f, const char *name,
                      gp_source_kind kind);

/* Makes a source of the caller's text[0, len) named `name` (the text is
 * borrowed, and must outlive the source). */
void gp_source_buffer(gp_source *s, const char *text, size_t len,
                      const char *name, gp_source_kind kind);

/* Closes the file (not standard input) and frees what the source read;
 * a zeroed source is a no-op. */
void gp_source_close(gp_source *s);

/* Reads the next piece of a file source onto the end of buf, growing buf
 * to hold `chunk` more bytes; on the first piece looks at the byte order
 * mark (gp_source_begin).  Sets eof at the end of the file.  A buffer
 * source is whole already.  GP_ERR_IO with the kind's wording ("cannot
 * read: <why>") on a read error. */
gp_status gp_source_fill(gp_source *s, size_t chunk, gp_error *err);

/* Drops buf[0, n) (text the reader is done with) and moves the rest to
 * the front. */
void gp_source_consume(gp_source *s, size_t n);

/* Opens `path` ("-": standard input) and reads it whole: *text is a new
 * NUL-terminated copy of all its bytes (the byte order mark too), *len
 * their number; the caller frees *text.  A text past the kind's limit
 * (standard input too) is an error, as at gp_source_open.  On failure
 * *text is NULL. */
gp_status gp_source_load(const char *path, gp_source_kind kind, char **text,
                         size_t *len, gp_error *err);

/* Looks at the byte order mark at the start of the source's text (once):
 * a UTF-8 one is skipped (start moves past it), a UTF-16 one is
 * GP_ERR_INPUT, "name:1: the file is UTF-16 (...); save it as UTF-8"
 * (gp_source_bom). */
gp_status gp_source_begin(gp_source *s, gp_error *err);

/* The length of the UTF-8 byte order mark text[0, len) starts with: 3, or
 * 0 when it has none. */
size_t gp_source_utf8_bom(const char *text, size_t len);

/* The byte order mark a text a user gives starts with (text[0, len), its
 * first bytes): *skip is 3 after a UTF-8 one and 0 when there is none.  A
 * UTF-16 one (Excel's "Unicode Text", PowerShell's default) is
 * GP_ERR_INPUT with "source:1: the file is UTF-16 (...); save it as
 * UTF-8" in err: every other byte would be NUL and the first error would
 * be nonsense. */
gp_status gp_source_bom(const char *source, const char *text, size_t len,
                        size_t *skip, gp_error *err);

/* How a text's lines end, told by its first line end: 1 when that is a
 * lone carriage return (a file saved with CR line ends: old Mac programs,
 * Excel's "CSV (Macintosh)"), 0 when it is LF or CRLF or there is none, -1
 * when text[0, len) cannot tell yet (no line end in it, or a CR as its last
 * byte, while `more` text may follow). */
int gp_source_cr_line_ends(const char *text, size_t len, bool more);

/* For a text whose lines end in CR (gp_source_cr_line_ends): makes each
 * lone CR in p[from, n) outside quotes an LF, so that a reader that splits
 * lines at LF reads every CR, CRLF or LF as one line end; a CRLF stays,
 * and a CR inside a quoted field stays a CR, part of the field (as it is
 * in a file whose lines end in LF).  *quote is the gp_csv_quote_step
 * state at `from` (GP_CSV_FIELD_START at the text's start) and is left at
 * the returned offset.  A CR as the last byte is left while `more` text
 * may follow (it may be half a CRLF).  Returns the offset p is done up to
 * (the next call's `from`). */
size_t gp_source_cr_to_lf(char *p, size_t from, size_t n, bool more,
                          int *quote);

/* For a whole text in memory, which a reader must not write: *copy is a
 * new copy of text[0, len) with its CR line ends (outside quotes,
 * gp_source_cr_to_lf) made LF (gp_malloc'd, NUL-terminated, for the
 * caller to free) when its lines end in CR, and NULL when they do not.
 * GP_ERR_NOMEM when the copy cannot be made. */
gp_status gp_source_lf_copy(const char *text, size_t len, char **copy);

/* What every CSV reader says of a CR outside quotes, not followed by LF,
 * in a text whose lines end in LF or CRLF (gp_source_cr_line_ends 0): such
 * a CR is no line end there, and libcsv would end the row at it. */
#define GP_SOURCE_STRAY_CR                                                     \
    "a carriage return inside a row, outside quotes (the file's first line "   \
    "ends in LF or CRLF, so only those end a line: remove it, or quote the "   \
    "field to keep it)"

/* The number of line feeds in p[0, n). */
long gp_source_count_lines(const char *p, size_t n);

/* Moves a position (1-based line, and column in characters, as jansson
 * counts them) past byte c: a newline starts the next line, and UTF-8
 * continuation bytes (10xxxxxx) take no column. */
static inline void gp_source_advance(unsigned char c, long *line, long *column)
{
    if (c == '\n') {
        (*line)++;
        *column = 1;
    } else if ((c & 0xC0) != 0x80) {
        (*column)++;
    }
}

#endif
