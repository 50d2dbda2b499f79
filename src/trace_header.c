/*
 * trace_header.c: a trace's header row: its names, which canonical column
 * each is (with the maps), and the checks that the columns a layout
 * needs are there.
 */
#include "trace_internal.h"

#include <csv.h>
#include <string.h>
#include <strings.h>

/* ---- headers ------------------------------------------------------------ */

struct header_parse {
    struct file_ctx *ctx;
    size_t n;
    bool done, nomem, too_many;
};

/* libcsv's field callback for the header row: keeps a copy of each name
 * (MAX_FIELDS at most). */
static void header_field(void *p, size_t len, void *data)
{
    struct header_parse *h = data;

    if (h->done)
        return;
    if (h->n >= MAX_FIELDS) {
        h->too_many = true;
        return;
    }
    h->ctx->header_names[h->n] = gp_strndup(p, len);
    if (!h->ctx->header_names[h->n])
        h->nomem = true;
    else
        h->n++;
}

/* libcsv's row callback: the header row ends here. */
static void header_end(int c, void *data)
{
    struct header_parse *h = data;
    (void)c;
    h->done = true;
}

/* Frees the header names a file's context kept. */
void gp_trace_file_ctx_free(struct file_ctx *ctx)
{
    for (size_t i = 0; i < ctx->n_header; i++)
        gp_free(ctx->header_names[i]);
    ctx->n_header = 0;
}

/* Finds where the header row starts (from *pos, past the byte order mark
 * gp_source skipped, and past blank lines, which libcsv would skip too;
 * errors name the header's own line) and checks it for a bare CR.  Sets
 * *pos and ctx->header_line. */
static gp_status header_locate(struct file_ctx *ctx, const char *text,
                               size_t len, size_t *pos, gp_error *err)
{
    ctx->header_line = 1;
    for (size_t k = *pos; k < len; k++) {
        if (text[k] == '\n') {
            *pos = k + 1;
            ctx->header_line++;
        } else if (text[k] != ' ' && text[k] != '\t' && text[k] != '\r') {
            break;
        }
    }
    /* a bare CR would end the header row for libcsv, and the rest of its
     * line would be lost: a file with CR line ends has LFs by now
     * (read_source), and in one with LF or CRLF line ends a CR inside the
     * header is an error */
    bool quoted = false;
    long column = 1;
    for (size_t k = *pos; k < len && text[k] != '\n'; k++) {
        if (text[k] == '"')
            quoted = !quoted;
        else if (text[k] == ',' && !quoted)
            column++;
        else if (text[k] == '\0') {
            gp_error_set(err, ctx->source, ctx->header_line, column, NULL,
                         "a NUL byte in the header row (byte %zu of the "
                         "line): is this a text file?  A header is column "
                         "names in UTF-8, separated by commas",
                         k - *pos + 1);
            return GP_ERR_INPUT;
        } else if (text[k] == '\r' && !quoted && k + 1 < len &&
                 text[k + 1] != '\n') {
            gp_error_set(err, ctx->source, ctx->header_line, column, NULL,
                         "a carriage return inside the header row, outside "
                         "quotes (the file's first line ends in LF or CRLF, "
                         "so only those end a line: remove it, or quote the "
                         "name)");
            return GP_ERR_INPUT;
        }
    }
    return GP_OK;
}

/* Parses the header row from text offset *pos with libcsv into
 * ctx->header_names (ctx->n_header of them, kept even on an error); *pos
 * is then past it. */
static gp_status header_parse_names(struct file_ctx *ctx, const char *text,
                                    size_t len, size_t *pos, gp_error *err)
{
    struct csv_parser p;
    struct header_parse h = {ctx, 0, false, false, false};

    if (csv_init(&p, CSV_STRICT | CSV_APPEND_NULL) != 0)
        return GP_ERR_NOMEM;
    while (*pos < len && !h.done) {
        const char *nl = memchr(text + *pos, '\n', len - *pos);
        size_t next = nl ? (size_t)(nl - text) + 1 : len;
        if (csv_parse(&p, text + *pos, next - *pos, header_field, header_end,
                      &h) != next - *pos) {
            bool nomem = csv_error(&p) == CSV_ENOMEM;
            csv_free(&p);
            ctx->n_header = h.n;
            if (nomem)
                return GP_ERR_NOMEM;
            gp_error_set(err, ctx->source, ctx->header_line, 0, NULL,
                         "malformed quoting in the header");
            return GP_ERR_INPUT;
        }
        *pos = next;
    }
    if (!h.done)
        csv_fini(&p, header_field, header_end, &h);
    csv_free(&p);
    ctx->n_header = h.n;
    if (h.nomem)
        return GP_ERR_NOMEM;
    if (h.too_many) {
        gp_error_set(err, ctx->source, ctx->header_line, MAX_FIELDS + 1, NULL,
                     "the header has more than %d columns", MAX_FIELDS);
        return GP_ERR_INPUT;
    }
    if (h.n == 0) {
        gp_error_set(err, ctx->source, 1, 0, NULL,
                     "empty file; expected a header row (timestamp, "
                     "instance_type, instances, ...)");
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/* Maps each canonical column (under its mapped name) to the header
 * name that matches it, ignoring case and spaces around; a name twice is an
 * error. */
static gp_status header_map_columns(const gp_trace_builder *b,
                                    struct file_ctx *ctx, gp_error *err)
{
    for (int c = 0; c < N_COLUMNS; c++) {
        const char *want =
            gp_trace_read_column(&b->opt, gp_trace_column_names[c], NULL);
        ctx->colmap[c] = -1;
        for (size_t i = 0; want && i < ctx->n_header; i++) {
            size_t nl = strlen(ctx->header_names[i]);
            const char *name = trim(ctx->header_names[i], &nl);
            if (nl == strlen(want) && strncasecmp(name, want, nl) == 0) {
                if (ctx->colmap[c] >= 0) {
                    gp_error_set(err, ctx->source, ctx->header_line,
                                 (long)i + 1, want,
                                 "the column appears twice");
                    return GP_ERR_INPUT;
                }
                ctx->colmap[c] = (int)i;
            }
        }
    }
    return GP_OK;
}

/* Checks that every column a map names is in the header: one the
 * file lacks is an error here, not on every row that then lacks the field.
 * `have` lists the header's names. */
static gp_status header_check_map(const gp_trace_builder *b,
                                  const struct file_ctx *ctx,
                                  const char *have, gp_error *err)
{
    for (size_t k = 0; k < b->opt.n_map; k++)
        for (int c = 0; c < N_COLUMNS; c++)
            if (strcmp(b->opt.map[k][0], gp_trace_column_names[c]) == 0 &&
                ctx->colmap[c] < 0) {
                char want[128] = "";
                gp_append_escaped(want, sizeof want, b->opt.map[k][1],
                                  strlen(b->opt.map[k][1]));
                gp_error_set(err, ctx->source, ctx->header_line, 0, want,
                             "missing column, named by " GP_PARAM_TEXT(
                                 "map") " %s=%s (the "
                                        "header has: %s)",
                             b->opt.map[k][0], want, have);
                return GP_ERR_INPUT;
            }
    return GP_OK;
}

/* "; if X holds it, give map column=X" for the header name nearest to
 * canonical column `column` that no column reads (at most a third of its
 * letters away, or one name inside the other), into hint; "" when none
 * is near. */
static void map_hint(const struct file_ctx *ctx, const char *column,
                     char *hint, size_t size)
{
    size_t best = (size_t)-1, best_i = 0, clen = strlen(column);

    for (size_t i = 0; i < ctx->n_header; i++) {
        bool taken = false;
        for (int c = 0; c < N_COLUMNS; c++)
            taken |= ctx->colmap[c] == (int)i;
        char low[64];
        if (taken || strlen(ctx->header_names[i]) >= sizeof low)
            continue;
        gp_ascii_lower(low, sizeof low, ctx->header_names[i]);
        if (!low[0])
            continue;
        size_t d = gp_edit_distance(low, column, clen + 1);
        if (strstr(low, column) || strstr(column, low))
            d = d < 2 ? d : 2; /* "time" for timestamp, "instance type" */
        if (d <= (clen + 2) / 3 && d < best) {
            best = d;
            best_i = i;
        }
    }
    if (best == (size_t)-1)
        return;
    char shown[100] = "";
    gp_append_escaped(shown, sizeof shown, ctx->header_names[best_i],
                      strlen(ctx->header_names[best_i]));
    snprintf(hint, size, "; if \"%s\" holds it, give " GP_PARAM_TEXT("map")
             " %s=%s", shown, column, shown);
}

/* Checks that the columns the layout needs are in the header (a time or
 * two, the instance type, and instances or gpus).  `have` lists the
 * header's names. */
static gp_status header_check_required(const gp_trace_builder *b,
                                       const struct file_ctx *ctx,
                                       const char *have, gp_error *err)
{
    static const int samples_required[] = {COL_TIMESTAMP, COL_INSTANCE_TYPE};
    static const int jobs_required[] = {COL_START, COL_END,
                                        COL_INSTANCE_TYPE};
    const int *req = b->opt.layout == GP_LAYOUT_JOBS ? jobs_required
                                                     : samples_required;
    size_t n_req = b->opt.layout == GP_LAYOUT_JOBS ? 3 : 2;

    for (size_t k = 0; k < n_req; k++) {
        /* the instance-type parameter fills a trace without the column */
        if (ctx->colmap[req[k]] < 0 &&
            !(req[k] == COL_INSTANCE_TYPE && b->opt.instance_type)) {
            const char *name =
                gp_trace_mapped_column(&b->opt, gp_trace_column_names[req[k]]);
            const char *by;
            if (!gp_trace_read_column(&b->opt, gp_trace_column_names[req[k]],
                                      &by)) {
                gp_error_set(err, ctx->source, ctx->header_line, 0, name,
                             "missing column: " GP_PARAM_TEXT(
                                 "map") " %s=%s reads that column "
                                        "as %s; name the column that holds %s "
                                        "with " GP_PARAM_TEXT("map") " %s=...",
                             by, name, by, name, name);
                return GP_ERR_INPUT;
            }
            bool jobs = b->opt.layout == GP_LAYOUT_SAMPLES &&
                        req[k] == COL_TIMESTAMP && ctx->colmap[COL_START] >= 0;
            char hint[320] = "";
            if (!jobs)
                map_hint(ctx, gp_trace_column_names[req[k]], hint,
                         sizeof hint);
            if (!hint[0] && req[k] == COL_INSTANCE_TYPE)
                snprintf(hint, sizeof hint,
                         "; if every row is of one type, give "
                         GP_PARAM_TEXT("instance-type") " TYPE");
            gp_error_set(err, ctx->source, ctx->header_line, 0, name,
                         "missing column (the header has: %s)%s", have,
                         jobs ? "; for one row per job use " GP_PARAM_TEXT(
                                    "layout") " jobs"
                              : hint);
            return GP_ERR_INPUT;
        }
    }
    if (ctx->colmap[COL_INSTANCES] < 0 && ctx->colmap[COL_GPUS] < 0) {
        gp_error_set(err, ctx->source, ctx->header_line, 0, "instances",
                     "missing column: give instances or gpus (the header "
                     "has: %s)",
                     have);
        return GP_ERR_INPUT;
    }
    return GP_OK;
}

/*
 * Reads the header row, maps canonical column names (with the maps) to
 * CSV columns and checks the required ones.  Sets *body to the offset of the
 * first data line.
 */
gp_status gp_trace_read_header(const gp_trace_builder *b, struct file_ctx *ctx,
                               const char *text, size_t len, size_t *body,
                               gp_error *err)
{
    size_t pos = *body;
    gp_status st;

    if ((st = header_locate(ctx, text, len, &pos, err)) != GP_OK ||
        (st = header_parse_names(ctx, text, len, &pos, err)) != GP_OK)
        return st;
    *body = pos;
    if ((st = header_map_columns(b, ctx, err)) != GP_OK)
        return st;
    /* the header's names, for messages about a missing column, and how
     * many were left out of the list */
    char have[560] = "";
    size_t listed = 0;
    for (; listed < ctx->n_header && strlen(have) < 400; listed++) {
        strncat(have, listed ? ", " : "", sizeof have - strlen(have) - 1);
        gp_append_escaped(have, sizeof have, ctx->header_names[listed],
                          strlen(ctx->header_names[listed]));
    }
    if (listed < ctx->n_header)
        snprintf(have + strlen(have), sizeof have - strlen(have),
                 " and %zu more", ctx->n_header - listed);
    if ((st = header_check_map(b, ctx, have, err)) != GP_OK)
        return st;
    return header_check_required(b, ctx, have, err);
}
