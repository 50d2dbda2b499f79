/*
 * synth.c: a long trace from a short real one (synth.h): whole weeks of
 * the trace drawn at random with replacement (a block bootstrap that keeps
 * the daily and weekly rhythm and every series' co-movement), scaled by
 * growth, decline and a step, with a migration moving one type's usage to
 * another.  docs/synth.md.
 */
#include "synth.h"
#include "util.h"

#include <errno.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <string.h>

#define WEEK 168
#define MONTH_HOURS 730.0

void gp_synth_options_init(gp_synth_options *o)
{
    memset(o, 0, sizeof *o);
    o->years = 1;
    o->seed = 1;
    o->step_factor = 1;
    o->migrate_equiv = 1;
}

/* The pool of catalog `cat` that type `to` would be in after migrating
 * pool `from`: the type itself, looked up in the same provider and
 * region; NULL when the catalogs lack it. */
static const gp_instance_type *migrated_type(const gp_pricing *p,
                                             const gp_pool *from,
                                             const char *to)
{
    return gp_pricing_find(p, from->catalog->provider, from->catalog->region,
                           to, NULL, NULL);
}

/* Checks the options against t and p; sets err and returns false when
 * they cannot be carried out. */
static bool check(const gp_trace *t, const gp_pricing *p,
                  const gp_synth_options *o, gp_error *err)
{
    if (t->n_hours < WEEK) {
        gp_error_set(err, t->n_sources ? t->sources[0] : NULL, 0, 0, NULL,
                     "the trace spans %zu hours; synthesizing draws whole "
                     "weeks, so it needs at least one (168 hours)",
                     t->n_hours);
        return false;
    }
    if (!o->migrate_at)
        return true;
    bool used = false;
    for (size_t i = 0; i < t->n_pools; i++) {
        if (strcmp(t->pools[i].type->name, o->migrate_from) != 0)
            continue;
        used = true;
        if (!migrated_type(p, &t->pools[i], o->migrate_to)) {
            gp_error_set(err, NULL, 0, 0, NULL,
                         "cannot migrate to %s: no catalog prices it in %s "
                         "%s, where %s runs",
                         o->migrate_to, t->pools[i].catalog->provider,
                         t->pools[i].catalog->region, o->migrate_from);
            return false;
        }
    }
    if (!used) {
        gp_error_set(err, NULL, 0, 0, NULL,
                     "cannot migrate from %s: the trace has no usage of it",
                     o->migrate_from);
        return false;
    }
    return true;
}

/* What demand is multiplied by at output hour k (epoch hour h). */
static double multiplier(const gp_synth_options *o, size_t k, int64_t h)
{
    double months = (double)k / MONTH_HOURS;
    double m = pow(1 + o->growth, months) * pow(1 - o->decline, months);
    if (o->step_at && h * 3600 >= o->step_at)
        m *= o->step_factor;
    return m;
}

/* One series' row for output hour h, if it has demand v there. */
static int write_row(FILE *f, const gp_trace *t, const gp_series *ser,
                     const gp_pricing *p, const gp_synth_options *o,
                     int64_t h, double v)
{
    const gp_pool *pool = &t->pools[ser->pool];
    const char *type = pool->type->name;
    char ts[32];

    if (o->migrate_at && h * 3600 >= o->migrate_at &&
        strcmp(type, o->migrate_from) == 0) {
        type = migrated_type(p, pool, o->migrate_to)->name;
        v *= o->migrate_equiv;
    }
    gp_format_time(h * 3600, ts, sizeof ts);
    /* the flag only where it is not the workload's default */
    bool dflt = ser->interruptible == (ser->workload == GP_TRAINING);
    return fprintf(f, "%s,3600,%s,%s,%s,%s,%.6g,%s,%s,%s\n", ts,
                   pool->catalog->provider, pool->catalog->region, type,
                   ser->workload == GP_UNLABELED ? ""
                                                 : gp_workload_name(ser->workload),
                   v, ser->team >= 0 ? t->labels[ser->team] : "",
                   ser->project >= 0 ? t->labels[ser->project] : "",
                   dflt ? "" : (ser->interruptible ? "true" : "false"));
}

gp_status gp_synth_write(FILE *f, const gp_trace *t, const gp_pricing *p,
                         const gp_synth_options *o, gp_error *err)
{
    if (!check(t, p, o, err))
        return GP_ERR_INPUT;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng) {
        gp_error_set(err, NULL, 0, 0, NULL, "out of memory");
        return GP_ERR_NOMEM;
    }
    gsl_rng_set(rng, (unsigned long)o->seed);
    size_t weeks = t->n_hours / WEEK;
    size_t hours = (size_t)llround(o->years * 8760.0);
    size_t week = 0;
    bool ok = fputs("timestamp,step_s,provider,region,instance_type,workload,"
                    "instances,team,project,interruptible\n",
                    f) >= 0;
    for (size_t k = 0; ok && k < hours; k++) {
        if (k % WEEK == 0)
            week = (size_t)gsl_rng_uniform_int(rng, weeks);
        size_t src = week * WEEK + k % WEEK;
        int64_t h = t->start_hour + (int64_t)k;
        double m = multiplier(o, k, h);
        for (size_t i = 0; ok && i < t->n_series; i++) {
            double v = t->series[i].instance_hours[src] * m;
            if (v > 1e-9)
                ok = write_row(f, t, &t->series[i], p, o, h, v) > 0;
        }
    }
    gsl_rng_free(rng);
    if (!ok) {
        gp_error_set(err, NULL, 0, 0, NULL, "cannot write the trace: %s",
                     strerror(errno));
        return GP_ERR_IO;
    }
    return GP_OK;
}
