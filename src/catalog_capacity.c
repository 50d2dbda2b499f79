/*
 * catalog_capacity.c: the capacity instruments of a catalog's instance
 * type (SPEC 7.4): capacity_blocks (AWS capacity blocks for ML),
 * flex_start and calendar (GCP Dynamic Workload Scheduler), checked
 * against the durations the clouds sell.  See docs/catalogs.md.
 */
#include "capacity.h"
#include "catalog_internal.h"

#include <math.h>
#include <string.h>

static const char *const reservation_keys[] = {"hourly", "min_days",
                                               "max_days", "estimate", NULL};
static const char *const flex_keys[] = {"hourly", "max_days",
                                        "expected_wait_h", "estimate", NULL};

/* Reads one entry of capacity_blocks or calendar (the current path is
 * the entry): days whole, 1 <= min_days <= max_days <= max, and for a
 * block at least one duration sold between them. */
static gp_status parse_reservation(gp_jdoc *d, const json_t *jo, bool block,
                                   int max, gp_capacity_offer *o)
{
    double lo = 1, hi = max;
    gp_status st;

    if ((st = gp_jdoc_expect_object(d, jo)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, jo, reservation_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_number(d, jo, "hourly", true, &o->hourly, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_check_positive(d, "hourly", o->hourly)) != GP_OK ||
        (st = gp_jdoc_number(d, jo, "min_days", false, &lo, NULL)) != GP_OK ||
        (st = gp_jdoc_check_whole(d, "min_days", lo, 1, max)) != GP_OK ||
        (st = gp_jdoc_number(d, jo, "max_days", false, &hi, NULL)) != GP_OK ||
        (st = gp_jdoc_check_whole(d, "max_days", hi, lo, max)) != GP_OK ||
        (st = gp_jdoc_bool(d, jo, "estimate", false, &o->estimate, NULL)) !=
            GP_OK)
        return st;
    o->min_days = (int)lo;
    o->max_days = (int)hi;
    if (block) {
        int k = o->min_days;
        while (k <= o->max_days && !gp_block_days_sold(k))
            k++;
        if (k > o->max_days)
            return gp_jdoc_error(d, "max_days",
                                 "no capacity block is sold between %d and "
                                 "%d days (1 to 14 days, then 7-day steps "
                                 "up to 182)",
                                 o->min_days, o->max_days);
    }
    return GP_OK;
}

/* Reads array `key` of type t (capacity_blocks or calendar) into *out. */
static gp_status parse_reservations(gp_jdoc *d, const json_t *jt,
                                    const char *key, bool block,
                                    gp_capacity_offer **out, size_t *n)
{
    json_t *arr, *jo;
    size_t i;
    gp_status st = gp_jdoc_array(d, jt, key, false, &arr);

    if (st != GP_OK || !arr || json_array_size(arr) == 0)
        return st;
    *out = gp_calloc(json_array_size(arr), sizeof **out);
    if (!*out)
        return gp_jdoc_nomem(d);
    gp_jdoc_push_key(d, key);
    json_array_foreach(arr, i, jo)
    {
        gp_jdoc_push_index(d, i);
        st = parse_reservation(d, jo, block,
                               block ? GP_BLOCK_MAX_DAYS : GP_CALENDAR_MAX_DAYS,
                               &(*out)[i]);
        if (st != GP_OK)
            return st;
        *n = i + 1;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}

/* Reads flex_start of type t, if any. */
static gp_status parse_flex(gp_jdoc *d, const json_t *jt, gp_flex_offer *f)
{
    json_t *jf;
    gp_status st = gp_jdoc_object(d, jt, "flex_start", false, &jf);

    if (st != GP_OK || !jf)
        return st;
    gp_jdoc_push_key(d, "flex_start");
    f->max_days = GP_FLEX_MAX_DAYS;
    if ((st = gp_jdoc_known_keys(d, jf, flex_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_number(d, jf, "hourly", true, &f->hourly, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_check_positive(d, "hourly", f->hourly)) != GP_OK ||
        (st = gp_jdoc_number(d, jf, "max_days", false, &f->max_days, NULL)) !=
            GP_OK ||
        (st = gp_jdoc_check_positive(d, "max_days", f->max_days)) != GP_OK)
        return st;
    if (f->max_days > GP_FLEX_MAX_DAYS)
        return gp_jdoc_error(d, "max_days",
                             "a flex-start request runs at most %g days, "
                             "got %g",
                             GP_FLEX_MAX_DAYS, f->max_days);
    if ((st = gp_jdoc_number(d, jf, "expected_wait_h", true,
                             &f->expected_wait_h, NULL)) != GP_OK ||
        (st = gp_jdoc_check_nonnegative(d, "expected_wait_h",
                                        f->expected_wait_h)) != GP_OK ||
        (st = gp_jdoc_bool(d, jf, "estimate", false, &f->estimate, NULL)) !=
            GP_OK)
        return st;
    f->present = true;
    gp_jdoc_pop(d);
    return GP_OK;
}

gp_status gp_catalog_parse_capacity(gp_jdoc *d, const json_t *jt,
                                    gp_instance_type *t)
{
    gp_status st;

    if ((st = parse_reservations(d, jt, "capacity_blocks", true, &t->blocks,
                                 &t->n_blocks)) != GP_OK ||
        (st = parse_reservations(d, jt, "calendar", false, &t->calendar,
                                 &t->n_calendar)) != GP_OK)
        return st;
    return parse_flex(d, jt, &t->flex);
}
