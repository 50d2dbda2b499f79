/*
 * spot_memo.c: the spot Monte Carlo's results kept across the bills of one
 * caller (the recommender bills one window a dozen times, and every bill
 * whose job runs go to spot with the same inputs replays them the same):
 * a bill whose runs match an entry's, input for input, takes its results.
 */
#include "spot_internal.h"
#include "util.h"

#include <pthread.h>
#include <string.h>

/* Entries kept: the window's trace and a variant (a low case, a test
 * window), so that bills alternating between them do not push each
 * other out. */
#define MEMO_ENTRIES 2

struct entry {
    size_t n_runs;
    int replicates;
    uint64_t seed;
    struct spot_run *runs; /* inputs and results; policy -> pol[] */
    gp_policy *pol;        /* the runs' policies, by value */
    int64_t *totals;       /* [replicate] */
    uint64_t used;         /* when last used, for replacing the oldest */
};

struct gp_spot_memo {
    pthread_mutex_t lock;
    struct entry e[MEMO_ENTRIES];
    uint64_t clock;
    size_t hits;
};

gp_spot_memo *gp_spot_memo_new(void)
{
    gp_spot_memo *m = gp_calloc(1, sizeof *m);

    if (m)
        pthread_mutex_init(&m->lock, NULL);
    return m;
}

static void entry_free(struct entry *e)
{
    gp_free(e->runs);
    gp_free(e->pol);
    gp_free(e->totals);
    memset(e, 0, sizeof *e);
}

void gp_spot_memo_free(gp_spot_memo *m)
{
    if (!m)
        return;
    for (int i = 0; i < MEMO_ENTRIES; i++)
        entry_free(&m->e[i]);
    pthread_mutex_destroy(&m->lock);
    gp_free(m);
}

size_t gp_spot_memo_hits(gp_spot_memo *m)
{
    pthread_mutex_lock(&m->lock);
    size_t n = m->hits;
    pthread_mutex_unlock(&m->lock);
    return n;
}

/* Whether run a (kept) and run b (to replay) have the same inputs: every
 * field simulate and the replicate sums read, and their policies' bytes
 * (a policy that differs in a field the replay does not read is only a
 * miss).  Doubles compare by value, so a NaN is never the same. */
static bool same_inputs(const struct spot_run *a, const struct spot_run *b)
{
    return a->run == b->run && a->pool == b->pool && a->n == b->n &&
           a->work == b->work && a->price == b->price && a->od == b->od &&
           a->lambda == b->lambda && a->has_deadline == b->has_deadline &&
           a->slack == b->slack && a->avail == b->avail &&
           a->hist == b->hist && a->start == b->start &&
           a->window == b->window &&
           memcmp(a->policy, b->policy, sizeof *a->policy) == 0;
}

static bool entry_matches(const struct entry *e, const struct spot_run *runs,
                          size_t n_runs, int replicates, uint64_t seed)
{
    if (!e->runs || e->n_runs != n_runs || e->replicates != replicates ||
        e->seed != seed)
        return false;
    for (size_t i = 0; i < n_runs; i++)
        if (!same_inputs(&e->runs[i], &runs[i]))
            return false;
    return true;
}

bool gp_spot_memo_get(gp_spot_memo *m, struct spot_run *runs, size_t n_runs,
                      int replicates, uint64_t seed, int64_t *totals)
{
    bool hit = false;

    if (!m || n_runs == 0)
        return false;
    pthread_mutex_lock(&m->lock);
    for (int i = 0; !hit && i < MEMO_ENTRIES; i++) {
        struct entry *e = &m->e[i];
        if (!entry_matches(e, runs, n_runs, replicates, seed))
            continue;
        for (size_t k = 0; k < n_runs; k++) {
            const gp_policy *pol = runs[k].policy;
            runs[k] = e->runs[k];
            runs[k].policy = pol; /* the bill's own */
        }
        memcpy(totals, e->totals, (size_t)replicates * sizeof *totals);
        e->used = ++m->clock;
        m->hits++;
        hit = true;
    }
    pthread_mutex_unlock(&m->lock);
    return hit;
}

/* Copies the runs (with their results) and totals into e; false when
 * out of memory (e is then empty). */
static bool entry_fill(struct entry *e, const struct spot_run *runs,
                       size_t n_runs, int replicates, uint64_t seed,
                       const int64_t *totals)
{
    e->runs = gp_malloc(n_runs * sizeof *e->runs);
    e->pol = gp_malloc(n_runs * sizeof *e->pol);
    e->totals = gp_malloc((size_t)replicates * sizeof *e->totals);
    if (!e->runs || !e->pol || !e->totals) {
        entry_free(e);
        return false;
    }
    for (size_t k = 0; k < n_runs; k++) {
        e->runs[k] = runs[k];
        e->pol[k] = *runs[k].policy;
        e->runs[k].policy = &e->pol[k];
    }
    memcpy(e->totals, totals, (size_t)replicates * sizeof *totals);
    e->n_runs = n_runs;
    e->replicates = replicates;
    e->seed = seed;
    return true;
}

void gp_spot_memo_put(gp_spot_memo *m, const struct spot_run *runs,
                      size_t n_runs, int replicates, uint64_t seed,
                      const int64_t *totals)
{
    if (!m || n_runs == 0)
        return;
    pthread_mutex_lock(&m->lock);
    struct entry *e = &m->e[0];
    for (int i = 1; i < MEMO_ENTRIES; i++)
        if (m->e[i].used < e->used)
            e = &m->e[i];
    entry_free(e);
    if (entry_fill(e, runs, n_runs, replicates, seed, totals))
        e->used = ++m->clock;
    pthread_mutex_unlock(&m->lock);
}
