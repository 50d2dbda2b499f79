/*
 * util_containers.c: the small containers in util.h: the string hash map
 * (gp_strmap) and its hash, and growable arrays (gp_grow).
 */
#include "util.h"

#include <string.h>

/* ---- containers --------------------------------------------------------- */

/*
 * A word-at-a-time hash for the maps' short keys: each 8-byte word is
 * multiplied by its own odd constant and the products summed (so the
 * multiplies do not wait on each other), then the sum is mixed once with
 * MurmurHash3's finalizer.  The ingest hashes a few keys per row, and
 * byte-at-a-time FNV-1a spent a fifth of its time there.
 */
static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

uint64_t gp_hash_bytes(const void *p, size_t n, uint64_t seed)
{
    static const uint64_t k[4] = {0x9E3779B97F4A7C15ULL, 0xC2B2AE3D27D4EB4FULL,
                                  0x165667B19E3779F9ULL, 0x27D4EB2F165667C5ULL};
    const unsigned char *b = p;
    uint64_t acc = seed ^ n, w;
    size_t i = 0;

    for (; n >= 8; n -= 8, b += 8, i++) {
        memcpy(&w, b, 8);
        acc += (w ^ (k[(i + 1) & 3] >> 7)) * k[i & 3];
    }
    w = 0;
    for (size_t j = 0; j < n; j++)
        w |= (uint64_t)b[j] << (8 * j);
    acc += (w ^ 0x5bd1e995) * k[i & 3];
    return mix64(acc);
}

bool gp_strmap_get(const gp_strmap *m, const char *key, size_t len,
                   uint32_t *value)
{
    if (m->cap == 0)
        return false;
    uint64_t h = gp_hash_bytes(key, len, 0);
    for (size_t i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        const struct gp_strmap_slot *s = &m->slots[i];
        if (!s->key)
            return false;
        if (s->hash == h && s->len == len && gp_same_bytes(s->key, key, len)) {
            *value = s->value;
            return true;
        }
    }
}

static void strmap_insert_slot(struct gp_strmap_slot *slots, size_t cap,
                               struct gp_strmap_slot s)
{
    size_t i = s.hash & (cap - 1);

    while (slots[i].key)
        i = (i + 1) & (cap - 1);
    slots[i] = s;
}

gp_status gp_strmap_put(gp_strmap *m, const char *key, size_t len,
                        uint32_t value)
{
    struct gp_strmap_slot s;

    if ((m->count + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        struct gp_strmap_slot *slots = gp_calloc(cap, sizeof *slots);
        if (!slots)
            return GP_ERR_NOMEM;
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].key)
                strmap_insert_slot(slots, cap, m->slots[i]);
        gp_free(m->slots);
        m->slots = slots;
        m->cap = cap;
    }
    s.key = gp_strndup(key, len);
    if (!s.key)
        return GP_ERR_NOMEM;
    s.len = len;
    s.hash = gp_hash_bytes(key, len, 0);
    s.value = value;
    strmap_insert_slot(m->slots, m->cap, s);
    m->count++;
    return GP_OK;
}

void gp_strmap_free(gp_strmap *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->cap; i++)
        gp_free(m->slots[i].key);
    gp_free(m->slots);
    memset(m, 0, sizeof *m);
}

gp_status gp_grow(void **items, size_t *cap, size_t need, size_t size)
{
    size_t n = *cap ? *cap : 8;
    void *p;

    if (need <= *cap)
        return GP_OK;
    while (n < need)
        n *= 2;
    p = gp_realloc(*items, n * size);
    if (!p)
        return GP_ERR_NOMEM;
    *items = p;
    *cap = n;
    return GP_OK;
}
