/*
 * trace_errors.c: what trace ingest says about a bad row: the position
 * (file:line:column: field) and the message, with the offending value
 * quoted and cut.
 */
#include "trace_internal.h"

#include <stdarg.h>
#include <string.h>

/* What an error names for column `col` when the header does not have it:
 * the parameter the value came from (a missing step_s column means the
 * step parameter; region, provider and instance_type theirs), else the
 * canonical column name. */
static const char *column_field(int col)
{
    if (col == COL_STEP_S)
        return GP_PARAM_TEXT("step");
    if (col == COL_REGION)
        return GP_PARAM_TEXT("region");
    if (col == COL_PROVIDER)
        return GP_PARAM_TEXT("provider");
    if (col == COL_INSTANCE_TYPE)
        return GP_PARAM_TEXT("instance-type");
    return col >= 0 && col < N_COLUMNS ? gp_trace_column_names[col] : NULL;
}

/* Sets the shard's error for column `col` of the row (-1: no column).  A
 * column the header lacks has no position; the error names where its value
 * came from instead (column_field). */
void gp_trace_row_error(struct shard *s, const struct file_ctx *ctx,
                        const struct row *row, int col, const char *fmt, ...)
{
    char msg[sizeof s->err.message], field[sizeof s->err.field] = "";
    va_list ap;
    bool in_header = col >= 0 && col < N_COLUMNS && ctx->colmap[col] >= 0;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* a mapped name is the user's own, escaped like any echoed text
     */
    if (in_header) {
        const char *name = ctx->header_names[ctx->colmap[col]];
        gp_append_escaped(field, sizeof field, name, strlen(name));
    }
    gp_error_clear(&s->err);
    gp_error_set(&s->err, ctx->source, row->line,
                 in_header ? ctx->colmap[col] + 1 : 0,
                 in_header ? field : column_field(col), "%s", msg);
    s->status = GP_ERR_INPUT;
}

/* Sets *at to column `col` of the row on `line` of the file, as
 * gp_trace_row_error names it, with no message (gp_trace's end_row). */
void gp_trace_row_position(const struct file_ctx *ctx, long line, int col,
                           gp_error *at)
{
    char field[sizeof at->field] = "";
    bool in_header = col >= 0 && col < N_COLUMNS && ctx->colmap[col] >= 0;
    const char *named = in_header ? field : column_field(col);

    if (in_header) {
        const char *name = ctx->header_names[ctx->colmap[col]];
        gp_append_escaped(field, sizeof field, name, strlen(name));
    }
    gp_error_clear(at);
    snprintf(at->source, sizeof at->source, "%s", ctx->source);
    at->line = line;
    at->column = in_header ? ctx->colmap[col] + 1 : 0;
    snprintf(at->field, sizeof at->field, "%s", named ? named : "");
}


/* Quotes p[0, len) for a message, escaped, cut after `max` bytes (at most
 * 64).  buf holds SHOWN_SIZE. */
void gp_trace_show_bytes(char *buf, const char *p, size_t len, size_t max)
{
    size_t cut = 0;

    /* cut between UTF-8 characters, not inside one (a byte that is not
     * UTF-8 counts as one character) */
    while (cut < len) {
        size_t k = gp_utf8_char_len(p + cut, len - cut);
        if (k == 0)
            k = 1;
        if (cut + k > max)
            break;
        cut += k;
    }
    snprintf(buf, SHOWN_SIZE, "\"");
    gp_append_escaped(buf, SHOWN_SIZE, p, cut);
    strncat(buf, cut < len ? "...\"" : "\"", SHOWN_SIZE - strlen(buf) - 1);
}

/* Quotes a field for a message, cutting long ones. */
void gp_trace_show(char *buf, const struct field *f)
{
    gp_trace_show_bytes(buf, f->p, f->len, 40);
}
