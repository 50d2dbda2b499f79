/*
 * trace_ranges.c: a large body of trace text read by a team of threads:
 * cut into ranges at line ends by its text alone, each range read into a
 * shard of its own, and the shards merged into the builder in file order
 * by one thread at a time while the others read on.
 */
/* madvise(MADV_DONTNEED) is not POSIX (glibc's posix_madvise ignores
 * POSIX_MADV_DONTNEED), and the build's _POSIX_C_SOURCE alone hides it. */
#define _DEFAULT_SOURCE

#include "trace_internal.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/*
 * Ranges are about RANGE_BYTES, cut at line ends in a way that depends on
 * the text alone.  Range 0 reads into b->main, every later one into a
 * shard of its own, with one thread or sixteen, and the shards are merged
 * in file order: so each sum (a double, whose rounding depends on the
 * order of the additions) is made of the same additions in the same
 * order, and the output's bytes do not depend on the thread count (issue
 * #42).
 */
#define RANGE_BYTES (4u << 20)

/* Ranges read ahead of the merge, per thread: a bound on the shards held. */
#define AHEAD_PER_THREAD 2

/* Whether a quote follows libcsv's rules for the quoted fields of a body
 * read from text offset `begin`, as far as `pos`: inside one (`in`), where
 * the last one closed, and where the walk goes on. */
struct quote_state {
    size_t begin, pos, closed;
    bool in;
};

/* Whether text[at] starts a field: only spaces or tabs since a comma, a
 * line start or the body's start. */
static bool field_start(const char *text, size_t begin, size_t at)
{
    while (at > begin && (text[at - 1] == ' ' || text[at - 1] == '\t'))
        at--;
    return at == begin || text[at - 1] == ',' || text[at - 1] == '\n';
}

/*
 * Follows the quotes of text[q->pos, to) (`end`: the body's end), at
 * memchr speed: a quote at a field's start opens a field, the next one
 * closes it (two in a row are one quote inside it).  A quote anywhere else,
 * or text after a closing quote, is malformed: libcsv rejects the row and
 * reading goes on at the next line, and so does the walk (which may then
 * end past `to`).
 */
static void quotes_walk(const char *text, size_t to, size_t end,
                        struct quote_state *q)
{
    while (q->pos < to) {
        const char *hit = memchr(text + q->pos, '"', to - q->pos);
        if (!hit) {
            q->pos = to;
            return;
        }
        size_t at = (size_t)(hit - text);
        q->pos = at + 1;
        if (q->in) {
            /* a comma or line end ends the field, after spaces too; a
             * quote right after carries it on; anything else (a quote
             * after spaces too) is text after a closing quote */
            size_t k = at + 1;
            while (k < end && (text[k] == ' ' || text[k] == '\t'))
                k++;
            q->in = false;
            q->closed = at;
            if (k >= end || memchr(",\r\n", text[k], 3) ||
                (k == at + 1 && text[k] == '"'))
                continue;
        } else if ((at > q->begin && q->closed == at - 1) ||
                   field_start(text, q->begin, at)) {
            q->in = true;
            continue;
        }
        const char *nl = memchr(text + at, '\n', end - at);
        q->pos = nl ? (size_t)(nl - text) + 1 : end;
    }
}

/* The first line start at or after text offset `at` outside any quoted
 * field (quotes_walk), so that a range rarely starts inside one (the merge
 * still checks); `end` when none. */
static size_t range_cut(const char *text, size_t at, size_t end,
                        struct quote_state *q)
{
    quotes_walk(text, at, end, q);
    if (q->pos > at)
        return q->pos; /* a malformed row's end: outside quotes */
    if (!q->in && text[at - 1] == '\n')
        return at;
    while (at < end) {
        const char *nl = memchr(text + at, '\n', end - at);
        if (!nl)
            break;
        size_t next = (size_t)(nl - text) + 1;
        quotes_walk(text, next, end, q);
        at = q->pos > next ? q->pos : next;
        if (!q->in)
            return at;
    }
    return end;
}

/* One range and the shard it is read into. */
struct slot {
    struct shard shard; /* range 0 reads into b->main instead */
    struct range_result res;
    bool done; /* read, waiting for its turn to merge */
};

/*
 * The team reading one body.  Threads claim ranges in order (the cut after
 * a range is found when it is claimed), read them with no lock held, and
 * the thread that finds the next range to merge read merges it; `lock`
 * guards everything below it but the slots being read or merged.
 */
struct team {
    gp_trace_builder *b;
    const struct file_ctx *ctx;
    const char *text;
    size_t begin, end;
    pthread_mutex_t lock;
    pthread_cond_t turn; /* a range was merged, or reading stopped */
    size_t *cuts, cap_cuts; /* cuts[0..n_cut]: the ranges known */
    size_t n_cut;
    struct quote_state q;  /* where the cutting walk stands */
    size_t claimed, merged; /* ranges claimed, and merged, so far */
    bool merging; /* a thread is merging */
    bool stop;    /* an error: claim no more */
    gp_status st;
    size_t ahead;       /* the most ranges claimed and not merged */
    struct slot *slots; /* range k's: slots[k % ahead] */
    long line;          /* the line the next range to merge starts on */
    struct range_result last; /* what the range merged last reports */
};

/* Whether every range has been claimed (the last cut is the end). */
static bool all_claimed(const struct team *t)
{
    return t->claimed == t->n_cut && t->cuts[t->n_cut] == t->end;
}

/* Finds the end of range k, the next one not yet known (lock held). */
static void cut_next(struct team *t)
{
    size_t at = t->cuts[t->n_cut] + RANGE_BYTES;

    if (at >= t->end || t->n_cut + 2 >= t->cap_cuts)
        at = t->end;
    else
        at = range_cut(t->text, at, t->end, &t->q);
    t->cuts[++t->n_cut] = at;
}

/* Releases the pages of a mapped file's range k that no later step reads
 * (the merge of range k + 1 may read back into range k). */
static void release_text(const struct team *t, size_t k)
{
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t a = (uintptr_t)(t->text + t->cuts[k]);
    uintptr_t z = (uintptr_t)(t->text + t->cuts[k + 1]);

    if (page <= 0)
        return;
    a = (a + (uintptr_t)page - 1) / (uintptr_t)page * (uintptr_t)page;
    z = z / (uintptr_t)page * (uintptr_t)page;
    if (z > a) /* only a hint: the pages are read back if need be */
        (void)madvise((void *)a, z - a, MADV_DONTNEED);
}

/* Merges range k into b->main, after the ranges before it (no lock held;
 * `merging` makes this thread the only one).  A range whose first line
 * was really inside the previous range's quoted field is thrown away and
 * read again into b->main from that row's start.  Range 0 was read into
 * b->main itself. */
static gp_status merge_range(struct team *t, size_t k)
{
    gp_trace_builder *b = t->b;
    struct slot *sl = &t->slots[k % t->ahead];
    bool keep = b->opt.reject != NULL;
    gp_status st = GP_OK;

    if (k == 0 || t->last.in_row) {
        long from = k == 0 ? t->line : t->last.resume_line;
        if (k > 0)
            gp_trace_read_range(b, &b->main, t->ctx, t->text,
                                t->last.resume_at, t->cuts[k + 1], from,
                                keep, &sl->res);
        t->line = from + (long)sl->res.lines;
        t->last = sl->res;
        if (b->main.status == GP_OK && keep)
            st = gp_trace_flush_rejects(b, t->ctx, t->text, &b->main, 0);
        return st;
    }
    struct shard *s = &sl->shard;
    if (s->status != GP_OK) {
        s->err.line += t->line;
        b->main.err = s->err;
        b->main.status = s->status;
        return GP_OK;
    }
    if (keep)
        st = gp_trace_flush_rejects(b, t->ctx, t->text, s, t->line);
    s->end_line += t->line; /* its lines counted from 0 */
    if (st == GP_OK && gp_trace_shard_merge(&b->main, s) != GP_OK)
        st = GP_ERR_NOMEM;
    t->last = sl->res;
    if (t->last.in_row)
        t->last.resume_line += t->line;
    t->line += (long)sl->res.lines;
    return st;
}

/* Merges the ranges read, in order, while the next one is read and no
 * other thread is merging (lock held; dropped while merging). */
static void merge_ready(struct team *t)
{
    while (!t->merging && !t->stop && t->merged < t->claimed &&
           t->slots[t->merged % t->ahead].done) {
        size_t k = t->merged;
        t->merging = true;
        pthread_mutex_unlock(&t->lock);
        gp_status st = merge_range(t, k);
        if (k > 0)
            gp_trace_shard_free(&t->slots[k % t->ahead].shard);
        if (t->ctx->mapped && k > 0)
            release_text(t, k - 1);
        if (t->ctx->mapped) /* a stream reports as it reads its pieces */
            gp_progress_report(&t->b->opt.progress, "reading the trace",
                               (double)t->cuts[k + 1], (double)t->end);
        pthread_mutex_lock(&t->lock);
        t->slots[k % t->ahead].done = false;
        t->merging = false;
        t->merged++;
        if (st != GP_OK || t->b->main.status != GP_OK) {
            t->st = st;
            t->stop = true;
        }
        pthread_cond_broadcast(&t->turn);
    }
}

/* A thread's work: claims the next range, reads it, merges what is ready,
 * until every range is claimed or reading stops. */
static void *team_run(void *arg)
{
    struct team *t = arg;
    bool keep = t->b->opt.reject != NULL;

    pthread_mutex_lock(&t->lock);
    while (!t->stop && !all_claimed(t)) {
        if (t->claimed >= t->merged + t->ahead) {
            pthread_cond_wait(&t->turn, &t->lock);
            continue;
        }
        size_t k = t->claimed++;
        if (k == t->n_cut)
            cut_next(t);
        struct slot *sl = &t->slots[k % t->ahead];
        struct shard *s = k == 0 ? &t->b->main : &sl->shard;
        if (k > 0)
            gp_trace_shard_init(s);
        pthread_mutex_unlock(&t->lock);
        gp_trace_read_range(t->b, s, t->ctx, t->text, t->cuts[k],
                            t->cuts[k + 1], k == 0 ? t->line : 0, keep,
                            &sl->res);
        pthread_mutex_lock(&t->lock);
        sl->done = true;
        merge_ready(t);
    }
    /* the last ranges read may wait for a merge still running */
    merge_ready(t);
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

/* Sets the team up to read text[begin, end); GP_ERR_NOMEM when its arrays
 * cannot be had. */
static gp_status team_init(struct team *t, gp_trace_builder *b,
                           const struct file_ctx *ctx, const char *text,
                           size_t begin, size_t end, long first_line,
                           int threads)
{
    memset(t, 0, sizeof *t);
    t->b = b;
    t->ctx = ctx;
    t->text = text;
    t->begin = begin;
    t->end = end;
    t->q = (struct quote_state){begin, begin, SIZE_MAX, false};
    t->line = first_line;
    t->cap_cuts = (end - begin) / RANGE_BYTES + 2;
    t->ahead = (size_t)threads * AHEAD_PER_THREAD;
    t->cuts = gp_calloc(t->cap_cuts, sizeof *t->cuts);
    t->slots = gp_calloc(t->ahead, sizeof *t->slots);
    if (!t->cuts || !t->slots) {
        gp_free(t->cuts);
        gp_free(t->slots);
        return GP_ERR_NOMEM;
    }
    t->cuts[0] = begin;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->turn, NULL);
    return GP_OK;
}

/* Frees the team's arrays, and the shards read but not merged (after an
 * error). */
static void team_free(struct team *t)
{
    for (size_t k = t->merged; k < t->claimed; k++)
        if (k > 0)
            gp_trace_shard_free(&t->slots[k % t->ahead].shard);
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->turn);
    gp_free(t->cuts);
    gp_free(t->slots);
}

gp_status gp_trace_read_ranges(gp_trace_builder *b, const struct file_ctx *ctx,
                               const char *text, size_t begin, size_t end,
                               long first_line, int threads,
                               struct range_result *res, long *end_line)
{
    struct team t;
    size_t ranges = (end - begin) / RANGE_BYTES + 1;
    gp_status st;

    if ((size_t)threads > ranges)
        threads = (int)ranges;
    if ((st = team_init(&t, b, ctx, text, begin, end, first_line,
                        threads)) != GP_OK)
        return st;
    /* without room for the threads' ids, this thread reads it all */
    pthread_t *tid = gp_calloc((size_t)threads, sizeof *tid);
    int started = 0;
    for (int i = 1; tid && i < threads; i++, started++)
        if (pthread_create(&tid[i], NULL, team_run, &t) != 0)
            break; /* the threads started, and this one, read it all */
    team_run(&t);
    for (int i = 1; i <= started; i++)
        pthread_join(tid[i], NULL);
    gp_free(tid);
    *res = t.last;
    *end_line = t.line;
    st = t.st;
    team_free(&t);
    return st;
}
