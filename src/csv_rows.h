/*
 * csv_rows.h: CSV text read row by row with libcsv (csv_rows.c), shared by
 * the importers and the catalog's spot price histories.  Not exported, and
 * free of libcsv's types.
 */
#ifndef GP_CSV_ROWS_H
#define GP_CSV_ROWS_H

#include "source.h"

/* Called with the fields of each row (NUL-terminated, borrowed until the
 * call returns) and the 1-based line the row starts on.  Returns GP_OK to
 * go on; anything else stops the read and is returned. */
typedef gp_status (*gp_csv_row_fn)(void *ctx, char **fields, size_t n,
                                   long line, gp_error *err);

/* Reads CSV text (RFC 4180, strict quoting) row by row from `src` (a
 * buffer, or a file streamed a chunk at a time, for multi-gigabyte offer
 * files), and calls `row` for every row that has any field; blank lines
 * are skipped.  Lines end in LF or CRLF, and in a text whose first line
 * ends in a lone CR in a lone CR too (each counts as one line); a CR
 * inside a quoted field is part of it, and a lone CR outside quotes in a
 * text of LF or CRLF lines is an error (GP_SOURCE_STRAY_CR), as in
 * traces.  A UTF-8 byte order mark is skipped; a UTF-16 one is an error
 * (gp_source_begin).  Malformed quoting and NUL bytes are errors that name
 * the source, the line and the CSV column. */
gp_status gp_csv_rows_read(gp_source *src, gp_csv_row_fn row, void *ctx,
                           gp_error *err);

/* Checks that a row past the header has as many fields (n) as the header
 * (n_header): a short row would read its missing fields as empty, a long
 * one has a field the header does not name.  Otherwise "row has 2 fields,
 * the header has 3" at the first column the two disagree on. */
gp_status gp_csv_check_row_width(const char *source, long line, size_t n,
                                 size_t n_header, gp_error *err);

#endif
