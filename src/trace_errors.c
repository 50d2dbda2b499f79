/*
 * trace_errors.c: what trace ingest says about a bad row: the position
 * (file:line:column: field) and the message, with the offending value
 * quoted and cut, and for an instance type the catalogs cannot resolve,
 * where it is priced or the nearest names.
 */
#include "trace_internal.h"

#include <stdarg.h>
#include <string.h>


/* What an error names for column `col` when the header does not have it:
 * the option the value came from (a missing step_s column means --step, a
 * missing region column --region), else the canonical column name. */
static const char *column_field(int col)
{
    if (col == COL_STEP_S)
        return "--step";
    if (col == COL_REGION)
        return "--region";
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
    /* a --map name is the user's own, escaped like any echoed text */
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

/* Lists the catalogs that price `type` ("aws us-east-1, gcp ...") into
 * buf, at most three and a count of the rest. */
static void where_priced(const gp_pricing *pricing, const char *type,
                         char *buf, size_t size)
{
    size_t n = 0, used = 0;

    buf[0] = '\0';
    for (size_t i = 0; pricing && i < pricing->n_catalogs; i++) {
        const gp_catalog *c = pricing->catalogs[i];
        if (!gp_pricing_find(pricing, c->provider, c->region, type, NULL,
                             NULL))
            continue;
        if (n++ < 3 && used < size) {
            int w = snprintf(buf + used, size - used, "%s%s %s",
                             n > 1 ? ", " : "", c->provider, c->region);
            if (w > 0)
                used += (size_t)w;
        }
    }
    if (n > 3 && used < size)
        snprintf(buf + used, size - used, " and %zu more", n - 3);
}

/* Copies name[0, len) into buf without control bytes (a stray newline or
 * tab in a quoted field), so that suggestions match what was meant. */
static void printable_name(char *buf, size_t size, const char *name,
                           size_t len)
{
    size_t n = 0;

    for (size_t i = 0; i < len && n + 1 < size; i++)
        if ((unsigned char)name[i] >= 0x20 && name[i] != 0x7f)
            buf[n++] = name[i];
    buf[n] = '\0';
}

/* Sets the error for an instance type the catalogs cannot resolve for the
 * row: ambiguous, priced elsewhere, or unknown (with the nearest names). */
void gp_trace_unresolved_type(struct shard *s, const gp_trace_builder *b,
                              const struct file_ctx *ctx, const struct row *row,
                              const struct field *type, const char *provider,
                              const char *region, bool ambiguous)
{
    char shown[SHOWN_SIZE], t[64], near[256];

    gp_trace_show_bytes(shown, type->p, type->len, 64);
    snprintf(t, sizeof t, "%.*s", (int)type->len, type->p);
    if (ambiguous) {
        gp_trace_row_error(
            s, ctx, row, COL_INSTANCE_TYPE,
            "%s is in several catalogs; add a provider and region "
            "column or --region",
            shown);
        return;
    }
    where_priced(b->pricing, t, near, sizeof near);
    if (near[0]) {
        /* priced, but not where the row (or --region) says; the provider
         * is aws, gcp or azure by now, the region may be anything */
        char reg[SHOWN_SIZE], want[SHOWN_SIZE + 64];
        gp_trace_show_bytes(reg, region, strlen(region), 32);
        if (provider[0] && region[0])
            snprintf(want, sizeof want, "for provider \"%s\" in region %s",
                     provider, reg);
        else if (provider[0])
            snprintf(want, sizeof want, "for provider \"%s\"", provider);
        else
            snprintf(want, sizeof want, "in region %s", reg);
        gp_trace_row_error(
            s, ctx, row, COL_INSTANCE_TYPE,
            "%s is not priced %s (the loaded catalogs have it for %s)", shown,
            want, near);
        return;
    }
    if (!b->pricing || b->pricing->n_catalogs == 0) {
        gp_trace_row_error(s, ctx, row, COL_INSTANCE_TYPE,
                           "unknown instance type %s (no catalog loaded)",
                           shown);
        return;
    }
    printable_name(t, sizeof t, type->p, type->len);
    gp_pricing_suggest(b->pricing, t, near, sizeof near, 3);
    if (near[0])
        gp_trace_row_error(s, ctx, row, COL_INSTANCE_TYPE,
                           "unknown instance type %s (nearest: %s)", shown,
                           near);
    else
        gp_trace_row_error(
            s, ctx, row, COL_INSTANCE_TYPE,
            "unknown instance type %s (no similar name in the loaded "
            "catalogs)",
            shown);
}
