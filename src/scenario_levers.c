/*
 * scenario_levers.c: a strategy's what-if levers (SPEC 7.5), read from
 * the scenario: `autoscale` (inference served at a target utilization),
 * `rightsize` and `migrate` (demand moved to another instance type).
 * levers.c applies them to a trace.
 */
#include "scenario_internal.h"

#include <math.h>
#include <string.h>

static const char *const autoscale_keys[] = {
    "series",        "target_util",        "min_instances",
    "scale_down_delay_h", "assumed_util", NULL};
static const char *const series_keys[] = {"team", "project", "instance_type",
                                          NULL};
static const char *const rightsize_keys[] = {"from", "to", "equivalence",
                                             "workload", NULL};
static const char *const migrate_keys[] = {"from", "to", "equivalence", "at",
                                           NULL};
static const char *const workload_names[] = {"training", "inference", "any"};

/* A utilization in percent, 0 < v <= 100, with a hint when v looks like a
 * fraction. */
static gp_status check_percent(gp_jdoc *d, const char *key, double v)
{
    if (v > 0 && v <= 1)
        return gp_jdoc_error(d, key,
                             "expected a percent in (1, 100], got %g (a "
                             "fraction? write %g)",
                             v, v * 100);
    if (!(v > 1 && v <= 100))
        return gp_jdoc_error(d, key, "expected a percent in (1, 100], got %g",
                             v);
    return GP_OK;
}

/* Copies string member `key` of obj (required) into buf of `size`. */
static gp_status copy_string(gp_jdoc *d, const json_t *obj, const char *key,
                             char *buf, size_t size)
{
    const char *v;
    gp_status st = gp_jdoc_string(d, obj, key, true, &v, NULL);

    if (st != GP_OK)
        return st;
    if (!v[0] || strlen(v) >= size)
        return gp_jdoc_error(d, key, "expected a name of 1 to %zu bytes",
                             size - 1);
    memcpy(buf, v, strlen(v) + 1);
    return GP_OK;
}

/* Reads `series` of autoscale: one of team, project or instance_type. */
static gp_status parse_series(gp_jdoc *d, const json_t *ja, gp_autoscale *a)
{
    json_t *js;
    gp_status st = gp_jdoc_object(d, ja, "series", true, &js);

    if (st != GP_OK)
        return st;
    gp_jdoc_push_key(d, "series");
    if ((st = gp_jdoc_known_keys(d, js, series_keys, NULL)) != GP_OK)
        return st;
    int found = 0;
    for (int k = 0; k < 3; k++) {
        if (!json_object_get(js, series_keys[k]))
            continue;
        found++;
        a->key = (gp_lever_key)k;
        if ((st = copy_string(d, js, series_keys[k], a->value,
                              sizeof a->value)) != GP_OK)
            return st;
    }
    if (found != 1)
        return gp_jdoc_error(d, NULL,
                             "expected one of team, project or "
                             "instance_type, got %d",
                             found);
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads `autoscale` of strategy js into a, when present. */
static gp_status parse_autoscale(gp_jdoc *d, const json_t *js,
                                 gp_autoscale *a)
{
    json_t *ja;
    gp_status st = gp_jdoc_object(d, js, "autoscale", false, &ja);

    if (st != GP_OK || !ja)
        return st;
    gp_jdoc_push_key(d, "autoscale");
    a->target_util = 70;
    a->min_instances = 1;
    a->scale_down_delay_h = 1;
    if ((st = gp_jdoc_known_keys(d, ja, autoscale_keys, NULL)) != GP_OK ||
        (st = parse_series(d, ja, a)) != GP_OK ||
        (st = gp_jdoc_number(d, ja, "target_util", false, &a->target_util,
                             NULL)) != GP_OK ||
        (st = check_percent(d, "target_util", a->target_util)) != GP_OK ||
        (st = gp_jdoc_number(d, ja, "min_instances", false,
                             &a->min_instances, NULL)) != GP_OK ||
        (st = gp_jdoc_check_whole(d, "min_instances", a->min_instances, 0,
                                  1e6)) != GP_OK ||
        (st = gp_jdoc_number(d, ja, "scale_down_delay_h", false,
                             &a->scale_down_delay_h, NULL)) != GP_OK ||
        (st = gp_jdoc_check_whole(d, "scale_down_delay_h",
                                  a->scale_down_delay_h, 0, 8760)) != GP_OK ||
        (st = gp_jdoc_number(d, ja, "assumed_util", false, &a->assumed_util,
                             &a->has_assumed_util)) != GP_OK ||
        (a->has_assumed_util &&
         (st = check_percent(d, "assumed_util", a->assumed_util)) != GP_OK))
        return st;
    a->on = true;
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads from, to and equivalence of a move (the current path is it). */
static gp_status parse_move_types(gp_jdoc *d, const json_t *jm, gp_move *m)
{
    gp_status st;

    if ((st = copy_string(d, jm, "from", m->from, sizeof m->from)) != GP_OK ||
        (st = copy_string(d, jm, "to", m->to, sizeof m->to)) != GP_OK ||
        (st = gp_jdoc_number(d, jm, "equivalence", true, &m->equivalence,
                             NULL)) != GP_OK ||
        (st = gp_jdoc_check_positive(d, "equivalence", m->equivalence)) !=
            GP_OK)
        return st;
    if (strcmp(m->from, m->to) == 0)
        return gp_jdoc_error(d, "to", "moves %s to itself", m->from);
    return GP_OK;
}

/* Reads `rightsize` of strategy js into m, when present. */
static gp_status parse_rightsize(gp_jdoc *d, const json_t *js, gp_move *m)
{
    json_t *jm;
    int w = GP_INFERENCE;
    gp_status st = gp_jdoc_object(d, js, "rightsize", false, &jm);

    if (st != GP_OK || !jm)
        return st;
    gp_jdoc_push_key(d, "rightsize");
    if ((st = gp_jdoc_known_keys(d, jm, rightsize_keys, NULL)) != GP_OK ||
        (st = parse_move_types(d, jm, m)) != GP_OK ||
        (st = gp_jdoc_enum(d, jm, "workload", false, "workload",
                           workload_names, 3, &w, NULL)) != GP_OK)
        return st;
    /* "any" moves unlabelled usage too */
    m->workloads = w == 2 ? 7u : 1u << w;
    m->at = INT64_MIN;
    m->on = true;
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads `migrate` of strategy js into m, when present. */
static gp_status parse_migrate(gp_jdoc *d, const json_t *js, gp_move *m)
{
    json_t *jm;
    gp_status st = gp_jdoc_object(d, js, "migrate", false, &jm);

    if (st != GP_OK || !jm)
        return st;
    gp_jdoc_push_key(d, "migrate");
    if ((st = gp_jdoc_known_keys(d, jm, migrate_keys, NULL)) != GP_OK ||
        (st = parse_move_types(d, jm, m)) != GP_OK ||
        (st = gp_jdoc_time(d, jm, "at", true, &m->at, NULL)) != GP_OK)
        return st;
    m->workloads = 7u;
    m->on = true;
    gp_jdoc_pop(d);
    return GP_OK;
}

gp_status gp_scenario_parse_levers(gp_jdoc *d, const json_t *js,
                                   gp_strategy *g)
{
    size_t at = d->depth;
    gp_status st;

    if ((st = parse_autoscale(d, js, &g->autoscale)) != GP_OK)
        return st;
    d->depth = at;
    if ((st = parse_rightsize(d, js, &g->rightsize)) != GP_OK)
        return st;
    d->depth = at;
    if ((st = parse_migrate(d, js, &g->migrate)) != GP_OK)
        return st;
    d->depth = at;
    if (g->rightsize.on && g->migrate.on &&
        strcmp(g->rightsize.from, g->migrate.from) == 0)
        return gp_jdoc_error(d, "migrate",
                             "moves %s, which rightsize moves too: give "
                             "each its own strategy",
                             g->migrate.from);
    return GP_OK;
}

/* Whether some catalog of p sells type `name`. */
static bool priced(const gp_pricing *p, const char *name)
{
    for (size_t i = 0; p && i < p->n_catalogs; i++)
        for (size_t k = 0; k < p->catalogs[i]->n_types; k++)
            if (strcmp(p->catalogs[i]->types[k].name, name) == 0)
                return true;
    return false;
}

/* Checks that the catalogs sell both types of move m, member `key` of
 * the strategy (the current path). */
static gp_status check_move(gp_jdoc *d, const gp_pricing *p, const gp_move *m,
                            const char *key)
{
    const char *names[2] = {m->from, m->to}, *keys[2] = {"from", "to"};
    char near[256];

    if (!m->on)
        return GP_OK;
    gp_jdoc_push_key(d, key);
    for (int k = 0; k < 2; k++)
        if (!priced(p, names[k])) {
            gp_pricing_suggest(p, names[k], near, sizeof near, 3);
            return gp_jdoc_error(d, keys[k],
                                 "no catalog sells instance type %s%s%s%s",
                                 names[k], near[0] ? " (did you mean " : "",
                                 near, near[0] ? "?)" : "");
        }
    gp_jdoc_pop(d);
    return GP_OK;
}

gp_status gp_scenario_check_levers(gp_jdoc *d, const gp_pricing *p,
                                   const gp_strategy *g)
{
    size_t at = d->depth;
    gp_status st = check_move(d, p, &g->rightsize, "rightsize");

    d->depth = at;
    if (st == GP_OK)
        st = check_move(d, p, &g->migrate, "migrate");
    return st;
}
