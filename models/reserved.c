/*
 * reserved.c: reserved instances (SPEC section 4, step 1): paid every
 * active hour at the effective hourly rate, covering their own type
 * first, then other sizes of the family by normalization factor (AWS
 * size flexibility).  The reasoning is in docs/design/models.md.
 */
#include "covering.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct reservation {
    size_t commitment; /* index into in->commitments */
    long pool;         /* pool of its type, -1 if the trace has none */
    double units;      /* count x normalization factor (or count) */
    double count;
    double effective_hourly;
    size_t first, last; /* active window hours */
    /* over the window's hours (gp_sum: long sums of money) */
    gp_sum used; /* instance-hours of its type */
    gp_sum cost;
    gp_sum covered_value; /* on-demand value of what it covered */
};

/* A family in one region: reservations and the pools they may cover. */
struct family {
    const gp_catalog *catalog;
    const char *family; /* NULL: exact type only (no factor) */
    const gp_instance_type *type; /* the type, when family is NULL */
    struct reservation *res;
    size_t n_res;
    long *pools; /* pools of this family by factor, smallest first */
    size_t n_pools;
};

struct state {
    struct family *families;
    size_t n_families;
    double *exact_cap; /* [pool] scratch: instances reserved this hour */
    double *flex_left;
    double *group_value; /* [pool] scratch: value the family covered */
};


long gp_model_pool_of(const gp_trace *trace, const gp_catalog *cat,
                      const gp_instance_type *type)
{
    for (size_t p = 0; p < trace->n_pools; p++)
        if (trace->pools[p].catalog == cat && trace->pools[p].type == type)
            return (long)p;
    return -1;
}

void gp_commitment_active_hours(const gp_commitment *c, int64_t start_hour,
                                size_t n_hours, size_t *first, size_t *last)
{
    /* a commitment starting within an hour is active from that hour */
    int64_t a = c->start >= 0 ? c->start / 3600 : -((-c->start + 3599) / 3600);
    int64_t z = c->end >= 0 ? c->end / 3600 : -((-c->end + 3599) / 3600);
    int64_t lo = a - start_hour, hi = z - start_hour;
    if (lo < 0)
        lo = 0;
    if (hi > (int64_t)n_hours)
        hi = (int64_t)n_hours;
    if (hi < lo)
        hi = lo;
    *first = (size_t)lo;
    *last = (size_t)hi;
}

static _Thread_local const gp_trace *sort_trace;

static int pool_factor_cmp(const void *a, const void *b)
{
    const gp_instance_type *x = sort_trace->pools[*(const long *)a].type;
    const gp_instance_type *y = sort_trace->pools[*(const long *)b].type;
    if (x->normalization_factor != y->normalization_factor)
        return x->normalization_factor < y->normalization_factor ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void reserved_free(void *state)
{
    struct state *s = state;
    if (!s)
        return;
    for (size_t i = 0; i < s->n_families; i++) {
        gp_free(s->families[i].res);
        gp_free(s->families[i].pools);
    }
    gp_free(s->families);
    gp_free(s->exact_cap);
    gp_free(s->flex_left);
    gp_free(s->group_value);
    gp_free(s);
}

/* The family group of type `it` of catalog `cat` in s (`fam` its family
 * when it has a normalization factor, else NULL): the one there, or a new
 * one with the trace's pools it may cover, smallest size first; NULL when
 * memory ran out. */
static struct family *family_of(struct state *s, const gp_trace *t,
                                const gp_catalog *cat,
                                const gp_instance_type *it, const char *fam)
{
    struct family *f = NULL;
    for (size_t k = 0; k < s->n_families; k++) {
        struct family *g = &s->families[k];
        if (g->catalog == cat &&
            ((fam && g->family && strcmp(g->family, fam) == 0) ||
             (!fam && !g->family && g->type == it)))
            f = g;
    }
    if (f)
        return f;
    struct family *nf =
        gp_realloc(s->families, (s->n_families + 1) * sizeof *s->families);
    if (!nf)
        return NULL;
    s->families = nf;
    f = &s->families[s->n_families++];
    memset(f, 0, sizeof *f);
    f->catalog = cat;
    f->family = fam;
    f->type = fam ? NULL : it;
    f->pools = gp_calloc(t->n_pools + 1, sizeof *f->pools);
    if (!f->pools)
        return NULL;
    for (size_t p = 0; p < t->n_pools; p++)
        if (gp_reserved_covers(cat, it, t->pools[p].catalog, t->pools[p].type))
            f->pools[f->n_pools++] = (long)p;
    sort_trace = t;
    qsort(f->pools, f->n_pools, sizeof *f->pools, pool_factor_cmp);
    return f;
}

static gp_status reserved_prepare(const gp_model_input *in, void **state,
                                  gp_error *err)
{
    struct state *s = NULL;
    const gp_trace *t = in->trace;

    *state = NULL;
    for (size_t i = 0; i < in->n_commitments; i++) {
        const gp_commitment *c = in->commitments[i];
        const gp_catalog *cat = NULL;
        bool ambiguous = false;
        const gp_instance_type *it;
        const gp_reserved_offer *offer = NULL;

        if (c->type != GP_COMMIT_RESERVED)
            continue;
        it = gp_pricing_find(in->pricing, c->provider, c->region,
                             c->instance_type, &cat, &ambiguous);
        if (!it) {
            gp_error_set(err, NULL, 0, 0, "commitments",
                         "reserved %s: no such instance type in the catalogs",
                         c->instance_type);
            reserved_free(s);
            return GP_ERR_INPUT;
        }
        for (size_t k = 0; k < it->n_reserved; k++)
            if (it->reserved[k].term_years == c->term_years &&
                it->reserved[k].payment == c->payment)
                offer = &it->reserved[k];
        if (!offer) {
            gp_error_set(err, NULL, 0, 0, "commitments",
                         "reserved %s: the catalog has no %d-year %s offer",
                         c->instance_type, c->term_years,
                         gp_payment_name(c->payment));
            reserved_free(s);
            return GP_ERR_INPUT;
        }
        if (!s) {
            s = gp_calloc(1, sizeof *s);
            if (!s)
                goto nomem;
            s->exact_cap = gp_calloc(t->n_pools + 1, sizeof(double));
            s->flex_left = gp_calloc(t->n_pools + 1, sizeof(double));
            s->group_value = gp_calloc(t->n_pools + 1, sizeof(double));
            if (!s->exact_cap || !s->flex_left || !s->group_value)
                goto nomem;
        }
        /* its family group: same catalog, same family when the type has a
         * factor; a group of its own type otherwise */
        const char *fam = it->normalization_factor > 0 ? it->family : NULL;
        struct family *f = family_of(s, t, cat, it, fam);
        if (!f)
            goto nomem;
        struct reservation *nr =
            gp_realloc(f->res, (f->n_res + 1) * sizeof *f->res);
        if (!nr)
            goto nomem;
        f->res = nr;
        struct reservation *r = &f->res[f->n_res++];
        memset(r, 0, sizeof *r);
        r->commitment = i;
        r->pool = gp_model_pool_of(t, cat, it);
        r->count = c->count;
        r->units = c->count * (fam ? it->normalization_factor : 1.0);
        r->effective_hourly = gp_reserved_effective_hourly(offer);
        gp_commitment_active_hours(c, in->spec->start_hour, in->spec->n_hours,
                                   &r->first, &r->last);
    }
    *state = s;
    return GP_OK;
nomem:
    reserved_free(s);
    gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
    return GP_ERR_NOMEM;
}

static double factor_of(const gp_model_input *in, const struct family *f,
                        long pool)
{
    return f->family ? in->trace->pools[pool].type->normalization_factor
                     : 1.0;
}

static void reserved_bill_hour(void *state, const gp_model_input *in,
                               gp_hour *hour)
{
    struct state *s = state;
    if (!s)
        return;
    for (size_t g = 0; g < s->n_families; g++) {
        struct family *f = &s->families[g];
        double total_units = 0, used_units = 0, group_cost = 0;
        double group_covered = 0;

        /* what is active this hour, and its exact-type capacity */
        for (size_t k = 0; k < f->n_res; k++) {
            struct reservation *r = &f->res[k];
            if (hour->h < r->first || hour->h >= r->last)
                continue;
            double cost = r->count * r->effective_hourly;
            gp_sum_add(&r->cost, cost);
            hour->row->cost[GP_MODEL_RESERVED] += cost;
            hour->commitment_cost += cost;
            group_cost += cost;
            hour->row->reserved_purchased += r->count;
            total_units += r->units;
            if (r->pool >= 0)
                s->exact_cap[r->pool] += r->count;
        }
        if (total_units == 0)
            continue;
        /* 1. each type's own reservations */
        for (size_t k = 0; k < f->n_pools; k++) {
            long p = f->pools[k];
            double x = hour->remaining[p] < s->exact_cap[p]
                           ? hour->remaining[p]
                           : s->exact_cap[p];
            if (x > 0) {
                hour->remaining[p] -= x;
                hour->covered_value[p] += x * in->od_rate[p];
                s->group_value[p] += x * in->od_rate[p];
                group_covered += x * in->od_rate[p];
                used_units += x * factor_of(in, f, p);
            }
            s->exact_cap[p] = 0;
        }
        /* 2. size flexibility: the units left, smallest size first */
        double left = total_units - used_units;
        for (size_t k = 0; f->family && k < f->n_pools && left > 1e-12; k++) {
            long p = f->pools[k];
            double nf = factor_of(in, f, p);
            double x = hour->remaining[p] < left / nf ? hour->remaining[p]
                                                      : left / nf;
            if (x > 0) {
                hour->remaining[p] -= x;
                hour->covered_value[p] += x * in->od_rate[p];
                s->group_value[p] += x * in->od_rate[p];
                group_covered += x * in->od_rate[p];
                used_units += x * nf;
                left -= x * nf;
            }
        }
        /* chargeback: the family's cost to the pools it covered */
        for (size_t k = 0; k < f->n_pools; k++) {
            long p = f->pools[k];
            if (group_covered > 0)
                hour->commit_cost[p] +=
                    group_cost * s->group_value[p] / group_covered;
            s->group_value[p] = 0;
        }
        /* per reservation: its share of what the group used (its units'
         * share, in its own instances) and of the value covered */
        for (size_t k = 0; k < f->n_res; k++) {
            struct reservation *r = &f->res[k];
            if (hour->h < r->first || hour->h >= r->last)
                continue;
            double used = used_units * r->count / total_units;
            gp_sum_add(&r->used, used);
            gp_sum_add(&r->covered_value,
                       group_covered * r->units / total_units);
            hour->row->reserved_used += used;
        }
    }
}

static gp_status reserved_finish(void *state, const gp_model_input *in,
                                 gp_ledger *ledger)
{
    struct state *s = state;
    (void)in;
    if (!s)
        return GP_OK;
    for (size_t g = 0; g < s->n_families; g++) {
        for (size_t k = 0; k < s->families[g].n_res; k++) {
            const struct reservation *r = &s->families[g].res[k];
            gp_ledger_commitment *lc = &ledger->commitments[r->commitment];
            lc->cost = gp_sum_value(&r->cost);
            lc->used = gp_sum_value(&r->used);
            lc->purchased = r->count * (double)(r->last - r->first);
            lc->od_equiv_covered = gp_sum_value(&r->covered_value);
        }
    }
    return GP_OK;
}

const gp_model gp_model_reserved = {
    .name = "reserved",
    .id = GP_MODEL_RESERVED,
    .cost_key = "reserved_cost",
    .label = "reserved",
    .title = "Reserved",
    .prepare = reserved_prepare,
    .bill_hour = reserved_bill_hour,
    .finish = reserved_finish,
    .free = reserved_free,
};

/* The reservations' covering step on its own, for the optimizer: the
 * model prepared and billed hour by hour as the engine does, on a
 * scratch hour whose costs are not read (covering.h). */
gp_status gp_reserved_cover(const gp_model_input *in, double *const *demand,
                            gp_error *err)
{
    size_t np = in->trace->n_pools;
    void *state = NULL;
    gp_status st = reserved_prepare(in, &state, err);

    if (st != GP_OK || !state)
        return st;
    double *scratch = gp_calloc(6 * (np + 1), sizeof *scratch);
    if (!scratch) {
        reserved_free(state);
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    gp_ledger_hour row;
    gp_hour hour;
    memset(&hour, 0, sizeof hour);
    hour.remaining = scratch;
    hour.covered_value = scratch + (np + 1);
    hour.od_cost = scratch + 2 * (np + 1);
    hour.spot_cost = scratch + 3 * (np + 1);
    hour.spot = scratch + 4 * (np + 1);
    hour.commit_cost = scratch + 5 * (np + 1);
    hour.row = &row;
    for (size_t h = 0; h < in->spec->n_hours; h++) {
        memset(&row, 0, sizeof row);
        hour.h = h;
        hour.t = (in->spec->start_hour + (int64_t)h) * 3600;
        for (size_t p = 0; p < np; p++)
            hour.remaining[p] = demand[p][h];
        reserved_bill_hour(state, in, &hour);
        for (size_t p = 0; p < np; p++)
            demand[p][h] = hour.remaining[p];
    }
    reserved_free(state);
    gp_free(scratch);
    return GP_OK;
}
