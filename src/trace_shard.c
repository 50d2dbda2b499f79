/*
 * trace_shard.c: what a shard interns and keeps: labels, series and the
 * cells of their clock hours, and a memo of what rows' text fields
 * resolved to, so that the rows of the jobs running at once skip the
 * label and series maps (the hot path of trace ingest).
 */
#include "safe_text.h"
#include "trace_internal.h"

#include <string.h>

/* Interns a label; returns its index, -1 on allocation failure, or
 * GP_TRACE_BAD_LABEL when it holds a character no report may show
 * (gp_text_control_at: checked once per new label, not per row). */
int32_t gp_trace_shard_label(struct shard *s, const char *p, size_t len)
{
    uint32_t id, code;

    if (gp_strmap_get(&s->label_map, p, len, &id))
        return (int32_t)id;
    if (gp_text_control_at(p, len, &code) < len)
        return GP_TRACE_BAD_LABEL;
    /* all that can fail comes before the label is counted, and the map
     * entry last, so a failure leaves neither a leak nor a dangling id */
    if (gp_grow((void **)&s->labels, &s->cap_labels, s->n_labels + 1,
                sizeof *s->labels) != GP_OK ||
        gp_grow((void **)&s->open_run, &s->cap_open, s->n_labels + 1,
                sizeof *s->open_run) != GP_OK ||
        gp_grow((void **)&s->job_idle, &s->cap_job_idle, s->n_labels + 1,
                sizeof *s->job_idle) != GP_OK)
        return -1;
    s->labels[s->n_labels] = gp_strndup(p, len);
    if (!s->labels[s->n_labels])
        return -1;
    if (gp_strmap_put(&s->label_map, p, len, (uint32_t)s->n_labels) !=
        GP_OK) {
        gp_free(s->labels[s->n_labels]);
        return -1;
    }
    s->open_run[s->n_labels] = -1;
    s->job_idle[s->n_labels] = (struct job_idle){false, 0, 0, -1};
    return (int32_t)s->n_labels++;
}

/* Remembers that pool's rows went to series id; false when out of memory. */
static bool pool_series_set(struct shard *s, uint32_t pool, int64_t id)
{
    size_t was = s->cap_pool_series;

    if (gp_grow((void **)&s->pool_series, &s->cap_pool_series, (size_t)pool + 1,
                sizeof *s->pool_series) != GP_OK)
        return false;
    for (size_t i = was; i < s->cap_pool_series; i++)
        s->pool_series[i] = -1;
    s->pool_series[pool] = id;
    return true;
}

int64_t gp_trace_shard_series(struct shard *s, const struct series_key *key)
{
    uint32_t id;

    if (key->pool < s->cap_pool_series && s->pool_series[key->pool] >= 0) {
        int64_t c = s->pool_series[key->pool];
        const struct shard_series *x = &s->series[c];
        if (x->workload == key->workload &&
            x->interruptible == key->interruptible && x->team == key->team &&
            x->project == key->project)
            return c;
    }
    if (gp_strmap_get(&s->series_map, (const char *)key, sizeof *key, &id))
        return pool_series_set(s, key->pool, id) ? (int64_t)id : -1;
    if (gp_grow((void **)&s->series, &s->cap_series, s->n_series + 1,
                sizeof *s->series) != GP_OK)
        return -1;
    struct shard_series *ser = &s->series[s->n_series];
    memset(ser, 0, sizeof *ser);
    ser->pool = key->pool;
    ser->workload = key->workload;
    ser->interruptible = key->interruptible;
    ser->team = key->team;
    ser->project = key->project;
    if (gp_strmap_put(&s->series_map, (const char *)key, sizeof *key,
                      (uint32_t)s->n_series) != GP_OK ||
        !pool_series_set(s, key->pool, (int64_t)s->n_series))
        return -1;
    return (int64_t)s->n_series++;
}

/* Grows a series' arrays to hold `need` hours (uc too when there). */
static bool series_grow(struct shard_series *ser, size_t need)
{
    size_t cap = ser->cap;

    if (gp_grow((void **)&ser->ih, &cap, need, sizeof *ser->ih) != GP_OK)
        return false;
    if (ser->uc && cap != ser->cap) {
        struct util_cell *uc = gp_realloc(ser->uc, cap * sizeof *uc);
        if (!uc)
            return false; /* ih is larger than needed: harmless */
        ser->uc = uc;
    }
    ser->cap = cap;
    return true;
}

/* Moves a series' hours `shift` places later, the new first ones 0. */
static void series_shift(struct shard_series *ser, size_t shift)
{
    memmove(ser->ih + shift, ser->ih, ser->n * sizeof *ser->ih);
    memset(ser->ih, 0, shift * sizeof *ser->ih);
    if (ser->uc) {
        memmove(ser->uc + shift, ser->uc, ser->n * sizeof *ser->uc);
        memset(ser->uc, 0, shift * sizeof *ser->uc);
    }
}

int64_t gp_trace_series_hour(struct shard_series *ser, int64_t hour, bool util)
{
    if (ser->n == 0) {
        ser->base = hour;
    } else if (hour < ser->base) {
        size_t shift = (size_t)(ser->base - hour);
        if (ser->n + shift > GP_TRACE_MAX_SPAN_HOURS ||
            !series_grow(ser, ser->n + shift))
            return -1;
        series_shift(ser, shift);
        ser->n += shift;
        ser->base = hour;
    }
    size_t i = (size_t)(hour - ser->base);
    if (i >= ser->n) {
        if (i + 1 > GP_TRACE_MAX_SPAN_HOURS || !series_grow(ser, i + 1))
            return -1;
        memset(ser->ih + ser->n, 0, (i + 1 - ser->n) * sizeof *ser->ih);
        if (ser->uc)
            memset(ser->uc + ser->n, 0, (i + 1 - ser->n) * sizeof *ser->uc);
        ser->n = i + 1;
    }
    if (util && !ser->uc && !(ser->uc = gp_calloc(ser->cap, sizeof *ser->uc)))
        return -1;
    return (int64_t)i;
}


/* ---- the memo of rows' text fields --------------------------------------- */

/* The memo is set-associative: a key's hash picks a set of MEMO_WAYS
 * slots, and a new key replaces the set's oldest.  1,024 sets of 4 hold
 * the few hundred jobs a cluster runs at once with few losses (one-way, two
 * of them meeting in a slot would push each other out on every row). */
#define MEMO_SETS 1024
#define MEMO_WAYS 4

/* A slot: the key's words and what they resolved to. */
struct memo_slot {
    size_t words;
    struct row_labels labels;
    uint64_t w[GP_TRACE_MEMO_KEY_WORDS];
};

/* The memo: the hashes of each set's slots side by side (one cache line
 * for two sets), then the slots; hash 0 is an empty slot. */
struct gp_trace_memo {
    uint64_t hash[MEMO_SETS][MEMO_WAYS];
    uint8_t oldest[MEMO_SETS];
    struct memo_slot slot[MEMO_SETS][MEMO_WAYS];
};

/* The text columns a row's labels depend on, in the key's order. */
static const int memo_columns[] = {COL_PROVIDER,  COL_REGION,
                                   COL_INSTANCE_TYPE, COL_WORKLOAD,
                                   COL_INTERRUPTIBLE, COL_TEAM,
                                   COL_PROJECT,   COL_JOB_ID};

bool gp_trace_memo_key(const struct file_ctx *ctx, const struct row *row,
                       struct memo_key *k)
{
    const size_t room = GP_TRACE_MEMO_KEY_WORDS * 8;
    char *b = (char *)k->w;
    size_t n = 0;

    for (size_t i = 0; i < sizeof memo_columns / sizeof *memo_columns; i++) {
        if (ctx->colmap[memo_columns[i]] < 0)
            continue; /* the same for every row of the file */
        const struct field *f = &row->f[ctx->colmap[memo_columns[i]]];
        /* each field after its length, so that no two rows' keys meet */
        if (f->len > 255 || n + 1 + f->len > room)
            return false;
        b[n++] = (char)f->len;
        if (f->len <= 16 && row->end - f->p >= 16)
            memcpy(b + n, f->p, 16); /* past the field: cut off below */
        else
            memcpy(b + n, f->p, f->len);
        n += f->len;
    }
    memset(b + n, 0, 8); /* the last word's rest */
    k->words = (n + 7) / 8;
    /* the first words hold the names, the last the job: enough to spread
     * the keys over the sets (the words themselves are compared) */
    uint64_t h = (k->w[0] * 0x9E3779B97F4A7C15ULL) ^
                 (k->w[k->words / 2] * 0x165667B19E3779F9ULL) ^
                 (k->w[k->words - 1] * 0xC2B2AE3D27D4EB4FULL) ^ n;
    h ^= h >> 31; /* a byte's change reaches every bit (splitmix64's end) */
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 29;
    k->hash = h | 1; /* never 0, an empty slot's */
    return true;
}

/* The set key k goes to. */
static size_t memo_set(const struct memo_key *k)
{
    return (size_t)(k->hash >> 7) & (MEMO_SETS - 1);
}

bool gp_trace_memo_get(const struct shard *s, const struct memo_key *k,
                       struct row_labels *out)
{
    if (!s->memo)
        return false;
    size_t set = memo_set(k);
    for (int i = 0; i < MEMO_WAYS; i++) {
        if (s->memo->hash[set][i] != k->hash)
            continue;
        const struct memo_slot *m = &s->memo->slot[set][i];
        uint64_t diff = m->words ^ k->words;
        for (size_t j = 0; !diff && j < k->words; j++)
            diff |= m->w[j] ^ k->w[j];
        if (!diff) {
            *out = m->labels;
            return true;
        }
    }
    return false;
}

bool gp_trace_memo_put(struct shard *s, const struct memo_key *k,
                       const struct row_labels *labels)
{
    if (!s->memo && !(s->memo = gp_calloc(1, sizeof *s->memo)))
        return false;
    size_t set = memo_set(k);
    int i = s->memo->oldest[set];
    struct memo_slot *m = &s->memo->slot[set][i];
    s->memo->oldest[set] = (uint8_t)((i + 1) % MEMO_WAYS);
    s->memo->hash[set][i] = k->hash;
    m->words = k->words;
    m->labels = *labels;
    memcpy(m->w, k->w, k->words * sizeof *k->w);
    return true;
}
