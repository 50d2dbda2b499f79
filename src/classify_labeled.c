/*
 * classify_labeled.c: the labelled copy of the traces (classify.h,
 * gp_classify_write_labeled): every input row written again with its
 * series' label and confidence.  The rows are read again as the trace
 * loader reads them; docs/design/classify.md says why and how.
 */
#include "classify.h"
#include "source.h"
#include "util.h"

#include <csv.h>

#include <string.h>
#include <strings.h>

/* The canonical columns a row's series key is read from. */
enum {
    K_PROVIDER,
    K_REGION,
    K_TYPE,
    K_WORKLOAD,
    K_TEAM,
    K_PROJECT,
    K_INTERRUPTIBLE,
    N_KEYS
};
static const char *const key_names[N_KEYS] = {
    "provider", "region", "instance_type", "workload",
    "team",     "project", "interruptible"};

/* One field of the row being read. */
struct out_field {
    char *p;
    size_t len;
};

/* Everything the labelled copy needs while it re-reads the traces. */
struct out_ctx {
    const gp_trace *t;
    const gp_pricing *pricing;
    const gp_trace_options *opt;
    const gp_classification *c;
    gp_strmap labels; /* label text -> first index into trace->labels */
    /* the next label with the same text, UINT32_MAX after the last: labels
     * that differed only after a NUL byte read the same as C strings */
    uint32_t *same_next;
    gp_strmap series; /* binary series key -> index into trace->series */
    /* output columns: the union of the input headers, then workload and
     * workload_confidence when no input had them */
    char **columns;
    size_t n_columns, cap_columns;
    size_t col_workload, col_confidence, col_interruptible;
    /* the file being read */
    const char *source;
    bool header_pass; /* reading headers only */
    bool done_header;
    size_t body; /* offset of the first data line */
    bool in_header; /* libcsv is reading the header's lines */
    int colmap[N_KEYS];     /* input column of each key, -1 if none */
    size_t *to_out;         /* input column -> output column */
    size_t n_in;
    struct out_field *row;  /* fields of the current row */
    size_t n_row, cap_row;
    long line;
    FILE *f;
    gp_status status;
    gp_error *err;
};

/* The binary key a series is found by. */
struct key {
    uint32_t pool;
    uint32_t workload;
    uint32_t interruptible;
    int32_t team, project;
};

/* s[0, len) without the spaces and tabs around it. */
static const char *trimmed(const char *s, size_t *len)
{
    while (*len && (*s == ' ' || *s == '\t')) {
        s++;
        (*len)--;
    }
    while (*len && (s[*len - 1] == ' ' || s[*len - 1] == '\t'))
        (*len)--;
    return s;
}

/* Whether field f is `word`, ignoring case.  Fields come from libcsv,
 * which trims blanks around unquoted fields as the loader does; blanks
 * inside quotes count (found by fuzz_classify). */
static bool field_is(const struct out_field *f, const char *word)
{
    return f->len == strlen(word) && strncasecmp(f->p, word, f->len) == 0;
}

/* The output column named `name` (case-insensitive), added if new. */
static gp_status output_column(struct out_ctx *o, const char *name,
                               size_t len, size_t *col)
{
    for (size_t i = 0; i < o->n_columns; i++)
        if (strlen(o->columns[i]) == len &&
            strncasecmp(o->columns[i], name, len) == 0) {
            *col = i;
            return GP_OK;
        }
    if (gp_grow((void **)&o->columns, &o->cap_columns, o->n_columns + 1,
                sizeof *o->columns) != GP_OK)
        return GP_ERR_NOMEM;
    if (!(o->columns[o->n_columns] = gp_strndup(name, len)))
        return GP_ERR_NOMEM;
    *col = o->n_columns++;
    return GP_OK;
}

/* libcsv's field callback: keeps a copy of the field in the row. */
static void on_field(void *data, size_t len, void *ctx)
{
    struct out_ctx *o = ctx;
    if (o->status != GP_OK ||
        ((o->header_pass || o->in_header) && o->done_header))
        return;
    /* bytes as they are, NULs included (the loader keeps them in labels) */
    char *copy;
    if (gp_grow((void **)&o->row, &o->cap_row, o->n_row + 1,
                sizeof *o->row) != GP_OK ||
        !(copy = gp_malloc(len + 1))) {
        o->status = GP_ERR_NOMEM;
        return;
    }
    if (len)
        memcpy(copy, data, len);
    copy[len] = '\0';
    o->row[o->n_row].p = copy;
    o->row[o->n_row++].len = len;
}

/* Frees the fields of the current row. */
static void clear_row(struct out_ctx *o)
{
    for (size_t i = 0; i < o->n_row; i++)
        gp_free(o->row[i].p);
    o->n_row = 0;
}

/* Reads the header row: which input column is which key, and where each
 * goes in the output. */
static void read_header(struct out_ctx *o)
{
    if (o->n_row > 0 && o->row[0].len >= 3 &&
        memcmp(o->row[0].p, "\xEF\xBB\xBF", 3) == 0) {
        memmove(o->row[0].p, o->row[0].p + 3, o->row[0].len - 2);
        o->row[0].len -= 3;
    }
    for (size_t k = 0; k < N_KEYS; k++)
        o->colmap[k] = -1;
    gp_free(o->to_out);
    o->n_in = o->n_row;
    if (!(o->to_out = gp_calloc(o->n_row ? o->n_row : 1, sizeof *o->to_out))) {
        o->status = GP_ERR_NOMEM;
        return;
    }
    for (size_t i = 0; i < o->n_row; i++) {
        /* header names end at a NUL byte, as the loader reads them */
        size_t len = strlen(o->row[i].p);
        const char *name = trimmed(o->row[i].p, &len);
        for (size_t k = 0; k < N_KEYS; k++) {
            const char *want = gp_trace_read_column(o->opt, key_names[k], NULL);
            if (want && o->colmap[k] < 0 && strlen(want) == len &&
                strncasecmp(name, want, len) == 0)
                o->colmap[k] = (int)i;
        }
        if (output_column(o, name, len, &o->to_out[i]) != GP_OK) {
            o->status = GP_ERR_NOMEM;
            return;
        }
    }
}

/* The field of key k in the current row ("" when the file lacks it). */
static struct out_field key_field(const struct out_ctx *o, int k)
{
    struct out_field none = {(char *)"", 0};
    int c = o->colmap[k];
    return c >= 0 && (size_t)c < o->n_row ? o->row[c] : none;
}

/* The label index of a team or project field, -1 when empty; false when
 * the trace has no such label. */
static bool label_of(const struct out_ctx *o, struct out_field f,
                     int32_t *index)
{
    size_t len = f.len;
    const char *p = f.p;
    uint32_t v;
    if (len == 0) {
        *index = -1;
        return true;
    }
    /* the trace keeps labels as C strings: a NUL byte ends them (found by
     * fuzz_classify) */
    if (!gp_strmap_get(&o->labels, p, strnlen(p, len), &v))
        return false;
    *index = (int32_t)v;
    return true;
}

/* Finds the series of the current data row, as the trace loader keyed
 * it.  Returns false with o->err set when the row is not in the trace. */
static bool row_series(struct out_ctx *o, gp_workload w, uint32_t *series)
{
    const gp_trace *t = o->t;
    struct out_field f[N_KEYS];
    char p[16], r[32], ty[64];
    const gp_catalog *cat = NULL;
    bool ambiguous = false;
    struct key key;

    for (int k = 0; k < N_KEYS; k++)
        f[k] = key_field(o, k);
    snprintf(p, sizeof p, "%.*s", (int)f[K_PROVIDER].len, f[K_PROVIDER].p);
    snprintf(r, sizeof r, "%.*s", (int)f[K_REGION].len, f[K_REGION].p);
    snprintf(ty, sizeof ty, "%.*s", (int)f[K_TYPE].len, f[K_TYPE].p);
    if (!r[0] && o->opt->region)
        snprintf(r, sizeof r, "%s", o->opt->region);
    if (!p[0] && o->opt->provider)
        snprintf(p, sizeof p, "%s", o->opt->provider);
    if (!ty[0] && o->opt->instance_type)
        snprintf(ty, sizeof ty, "%s", o->opt->instance_type);
    const gp_instance_type *it =
        gp_pricing_find(o->pricing, p, r, ty, &cat, &ambiguous);
    memset(&key, 0, sizeof key);
    key.pool = UINT32_MAX;
    for (size_t i = 0; it && i < t->n_pools; i++)
        if (t->pools[i].catalog == cat && t->pools[i].type == it)
            key.pool = (uint32_t)i;
    key.workload = (uint32_t)w;
    if (f[K_INTERRUPTIBLE].len == 0)
        key.interruptible = w == GP_TRAINING;
    else
        key.interruptible = field_is(&f[K_INTERRUPTIBLE], "true") ||
                            field_is(&f[K_INTERRUPTIBLE], "1") ||
                            field_is(&f[K_INTERRUPTIBLE], "yes");
    uint32_t v;
    int32_t team, project;
    if (key.pool != UINT32_MAX && label_of(o, f[K_TEAM], &team) &&
        label_of(o, f[K_PROJECT], &project)) {
        /* every label that reads the same, team by project (one by one
         * unless labels held NUL bytes) */
        for (int32_t a = team; ; a = (int32_t)o->same_next[a]) {
            for (int32_t b = project; ; b = (int32_t)o->same_next[b]) {
                key.team = a;
                key.project = b;
                if (gp_strmap_get(&o->series, (const char *)&key,
                                  sizeof key, &v)) {
                    *series = v;
                    return true;
                }
                if (b < 0 || o->same_next[b] == UINT32_MAX)
                    break;
            }
            if (a < 0 || o->same_next[a] == UINT32_MAX)
                break;
        }
    }
    gp_error_set(o->err, o->source, o->line, 0, NULL,
                 "row is not in the trace that was classified (was the "
                 "file changed while it was read?)");
    o->status = GP_ERR_INPUT;
    return false;
}

/* Writes one field, quoted only when it has to be. */
static void write_field(FILE *f, const char *p, size_t len)
{
    bool quote = len && (p[0] == ' ' || p[0] == '\t' || p[len - 1] == ' ' ||
                         p[len - 1] == '\t');
    for (size_t i = 0; i < len && !quote; i++)
        quote = p[i] == ',' || p[i] == '"' || p[i] == '\r' || p[i] == '\n';
    if (quote)
        csv_fwrite(f, p, len);
    else
        fwrite(p, 1, len, f);
}

/* libcsv's row callback: the header, or a data row written out. */
static void on_row(int term, void *ctx)
{
    struct out_ctx *o = ctx;
    (void)term;
    o->line++;
    if (o->status != GP_OK ||
        ((o->header_pass || o->in_header) && o->done_header)) {
        clear_row(o);
        return;
    }
    if (!o->done_header) {
        read_header(o);
        o->done_header = true;
        clear_row(o);
        return;
    }
    /* a data row.  One whose field count differs from the header's cannot
     * be a row the loader took (it rejects those), so it is not one of
     * the trace's rows to write */
    if (o->n_row != o->n_in) {
        clear_row(o);
        return;
    }
    struct out_field wf = key_field(o, K_WORKLOAD);
    gp_workload loaded = field_is(&wf, "training")    ? GP_TRAINING
                         : field_is(&wf, "inference") ? GP_INFERENCE
                                                      : GP_UNLABELED;
    const char *label = NULL;
    const char *stated = NULL; /* interruptible, when the row left it out */
    char conf[32] = "1";
    if (loaded == GP_UNLABELED || o->c->relabel) {
        uint32_t s;
        if (!row_series(o, loaded, &s)) {
            clear_row(o);
            return;
        }
        const gp_series_class *v = &o->c->series[s];
        label = gp_classify_label_name(v);
        snprintf(conf, sizeof conf, "%.3f", v->confidence);
        if (key_field(o, K_INTERRUPTIBLE).len == 0)
            stated = v->billed_interruptible ? "true" : "false";
    }
    char confbuf[32];
    for (size_t col = 0; col < o->n_columns; col++) {
        const char *p = "";
        size_t len = 0;
        if (col)
            fputc(',', o->f);
        if (col == o->col_workload && label) {
            p = label;
            len = strlen(label);
        } else if (col == o->col_confidence) {
            snprintf(confbuf, sizeof confbuf, "%s", conf);
            p = confbuf;
            len = strlen(confbuf);
        } else if (col == o->col_interruptible && stated) {
            p = stated;
            len = strlen(stated);
        } else {
            for (size_t i = 0; i < o->n_in && i < o->n_row; i++)
                if (o->to_out[i] == col) {
                    p = o->row[i].p;
                    len = o->row[i].len;
                    break;
                }
        }
        write_field(o->f, p, len);
    }
    fputc('\n', o->f);
    clear_row(o);
}

/* Runs libcsv over text[from, to) with the row callbacks; false with
 * o->status set when libcsv fails. */
static bool run_csv(struct out_ctx *o, const char *text, size_t from,
                    size_t to, bool header_only)
{
    struct csv_parser parser;
    bool ok = true;

    if (csv_init(&parser, CSV_APPEND_NULL) != 0) {
        o->status = GP_ERR_NOMEM;
        return false;
    }
    if (header_only) {
        /* a physical line at a time until the header row ends, as the
         * loader reads it */
        size_t pos = from;
        o->in_header = true;
        while (pos < to && !o->done_header && ok) {
            const char *nl = memchr(text + pos, '\n', to - pos);
            size_t next = nl ? (size_t)(nl - text) + 1 : to;
            ok = csv_parse(&parser, text + pos, next - pos, on_field, on_row,
                           o) == next - pos;
            pos = next;
        }
        o->body = pos;
    } else {
        o->in_header = false;
        ok = csv_parse(&parser, text + from, to - from, on_field, on_row,
                       o) == to - from;
    }
    if (ok && !(header_only && o->done_header))
        ok = csv_fini(&parser, on_field, on_row, o) == 0;
    if (!ok && o->status == GP_OK && csv_error(&parser) == CSV_ENOMEM) {
        o->status = GP_ERR_NOMEM;
    } else if (!ok && o->status == GP_OK) {
        gp_error_set(o->err, o->source, o->line + 1, 0, NULL, "%s",
                     csv_strerror(csv_error(&parser)));
        o->status = GP_ERR_INPUT;
    }
    csv_free(&parser);
    clear_row(o);
    return o->status == GP_OK;
}

/*
 * Reads one text in the current pass.  The header is found as the loader
 * finds it (after a byte order mark and blank lines, physical lines until
 * its row ends) and the data starts on the next physical line: a bare
 * carriage return ends the header row early for libcsv, and what follows
 * it on that line is not data to the loader (found by fuzz_classify).
 */
static gp_status parse_text(struct out_ctx *o, const char *source,
                            const char *text, size_t len)
{
    size_t pos = 0;

    o->source = source;
    o->done_header = false;
    o->line = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    for (size_t k = pos; k < len; k++) {
        if (text[k] == '\n')
            pos = k + 1;
        else if (text[k] != ' ' && text[k] != '\t' && text[k] != '\r')
            break;
    }
    if (run_csv(o, text, pos, len, true) && !o->header_pass &&
        o->body < len)
        run_csv(o, text, o->body, len, false);
    if (o->status == GP_ERR_NOMEM)
        gp_error_set(o->err, NULL, 0, 0, NULL, "out of memory");
    return o->status;
}

/*
 * Indexes the trace for row_series: its labels by text (with same_next
 * chaining labels that read the same) and its series by binary key.
 * GP_ERR_NOMEM when the indexes cannot be had; what was made is o's to
 * free (out_ctx_free).
 */
static gp_status index_trace(struct out_ctx *o)
{
    const gp_trace *t = o->t;
    gp_status st = GP_OK;

    o->same_next = gp_malloc((t->n_labels ? t->n_labels : 1) *
                             sizeof *o->same_next);
    if (!o->same_next)
        st = GP_ERR_NOMEM;
    for (size_t i = 0; i < t->n_labels && st == GP_OK; i++) {
        uint32_t v;
        size_t len = strlen(t->labels[i]);
        o->same_next[i] = UINT32_MAX;
        if (!gp_strmap_get(&o->labels, t->labels[i], len, &v)) {
            st = gp_strmap_put(&o->labels, t->labels[i], len, (uint32_t)i);
        } else {
            while (o->same_next[v] != UINT32_MAX)
                v = o->same_next[v];
            o->same_next[v] = (uint32_t)i;
        }
    }
    for (size_t s = 0; s < t->n_series && st == GP_OK; s++) {
        struct key k;
        memset(&k, 0, sizeof k);
        k.pool = t->series[s].pool;
        k.workload = (uint32_t)t->series[s].workload;
        k.interruptible = t->series[s].interruptible;
        k.team = t->series[s].team;
        k.project = t->series[s].project;
        st = gp_strmap_put(&o->series, (const char *)&k, sizeof k,
                           (uint32_t)s);
    }
    return st;
}

/* Makes *copies[i] the text i with CR line ends made LF, as the loader
 * reads them (read_source); NULL where the text needed no change.  The
 * caller frees the array and its strings, also on failure. */
static gp_status lf_copies(size_t n_texts, const char *const *texts,
                           const size_t *lens, char ***copies)
{
    gp_status st = GP_OK;

    if (n_texts && !(*copies = gp_calloc(n_texts, sizeof **copies)))
        st = GP_ERR_NOMEM;
    for (size_t i = 0; i < n_texts && st == GP_OK; i++)
        st = gp_source_lf_copy(texts[i], lens[i], &(*copies)[i]);
    return st;
}

/* Adds the columns the classification writes to the output's, where
 * no input header had them: workload, workload_confidence and the
 * interruptible flag. */
static gp_status add_verdict_columns(struct out_ctx *o)
{
    const char *workload = gp_trace_mapped_column(o->opt, "workload");
    const char *interruptible =
        gp_trace_mapped_column(o->opt, "interruptible");
    gp_status st = output_column(o, workload, strlen(workload),
                                 &o->col_workload);

    if (st == GP_OK)
        st = output_column(o, "workload_confidence",
                           strlen("workload_confidence"), &o->col_confidence);
    /* a classified row states the interruptible flag it was billed with,
     * so reading the file back cannot send a guessed "training" to spot
     * by the SPEC's default for training */
    if (st == GP_OK)
        st = output_column(o, interruptible, strlen(interruptible),
                           &o->col_interruptible);
    return st;
}

/* One pass over every text (headers only when o->header_pass); stops at
 * the first failure. */
static gp_status parse_texts(struct out_ctx *o, size_t n_texts,
                             const char *const *sources,
                             const char *const *texts, const size_t *lens,
                             char *const *copies)
{
    gp_status st = GP_OK;

    for (size_t i = 0; i < n_texts && st == GP_OK; i++)
        st = parse_text(o, sources[i], copies[i] ? copies[i] : texts[i],
                        lens[i]);
    return st;
}

/* Writes the output's header row. */
static void write_header_row(const struct out_ctx *o, FILE *f)
{
    for (size_t i = 0; i < o->n_columns; i++) {
        if (i)
            fputc(',', f);
        write_field(f, o->columns[i], strlen(o->columns[i]));
    }
    fputc('\n', f);
}

/* Frees what the labelled copy allocated: o's columns, row and indexes,
 * and the LF copies of the texts. */
static void out_ctx_free(struct out_ctx *o, char **copies, size_t n_texts)
{
    for (size_t i = 0; copies && i < n_texts; i++)
        gp_free(copies[i]);
    gp_free(copies);
    for (size_t i = 0; i < o->n_columns; i++)
        gp_free(o->columns[i]);
    gp_free(o->columns);
    gp_free(o->to_out);
    clear_row(o);
    gp_free(o->row);
    gp_strmap_free(&o->labels);
    gp_free(o->same_next);
    gp_strmap_free(&o->series);
}

/* Two passes over the texts: the headers make the output's columns, then
 * every row is written with its series' verdict. */
gp_status gp_classify_write_labeled(FILE *f, const gp_trace *t,
                                    const gp_pricing *pricing,
                                    const gp_trace_options *opt,
                                    const gp_classification *c,
                                    size_t n_texts,
                                    const char *const *sources,
                                    const char *const *texts,
                                    const size_t *lens, gp_error *err)
{
    struct out_ctx o;
    gp_status st;
    char **copies = NULL; /* texts with CR line ends, made LF as the
                           * loader reads them (read_source) */

    memset(&o, 0, sizeof o);
    o.t = t;
    o.pricing = pricing;
    o.opt = opt;
    o.c = c;
    o.err = err;
    if (c->n_series != t->n_series) {
        gp_error_set(err, NULL, 0, 0, NULL,
                     "classification of %zu series used with a trace of %zu",
                     c->n_series, t->n_series);
        return GP_ERR_INPUT;
    }
    st = index_trace(&o);
    if (st == GP_OK)
        st = lf_copies(n_texts, texts, lens, &copies);
    if (st != GP_OK)
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    /* first pass: the headers, for the output columns */
    o.header_pass = true;
    if (st == GP_OK)
        st = parse_texts(&o, n_texts, sources, texts, lens, copies);
    if (st == GP_OK)
        st = add_verdict_columns(&o);
    if (st == GP_ERR_NOMEM)
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    /* second pass: the rows */
    if (st == GP_OK) {
        o.f = f;
        write_header_row(&o, f);
        o.header_pass = false;
        st = parse_texts(&o, n_texts, sources, texts, lens, copies);
    }
    out_ctx_free(&o, copies, n_texts);
    return st;
}
