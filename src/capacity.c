/*
 * capacity.c: a job run priced on a capacity block, a calendar
 * reservation or flex-start (capacity.h).  Pure arithmetic on the
 * catalog's offers: the engine and the recommender share it.  The rules
 * and a worked example are in docs/billing.md.
 */
#include "capacity.h"

#include <math.h>
#include <string.h>

bool gp_block_days_sold(int days)
{
    if (days >= 1 && days <= 14)
        return true;
    return days > 14 && days <= GP_BLOCK_MAX_DAYS && days % 7 == 0;
}

/* The shortest duration of offer o that holds `hours` of running (a
 * block's instances are reclaimed GP_BLOCK_RECLAIM_H before its end), or
 * 0 when none does. */
static int offer_days(const gp_capacity_offer *o, bool calendar, double hours)
{
    double usable_less = calendar ? 0 : GP_BLOCK_RECLAIM_H;
    /* the days the run needs at least, then the next duration sold */
    double need = ceil((hours + usable_less) / 24.0 - 1e-9);
    int d = need < 1 ? 1 : (need > 1e6 ? 1000000 : (int)need);

    if (d < o->min_days)
        d = o->min_days;
    for (; d <= o->max_days; d++)
        if (calendar || gp_block_days_sold(d))
            return d;
    return 0;
}

void gp_quote_reservation(const gp_capacity_offer *offers, size_t n,
                          bool calendar, double instances, double hours,
                          double ih, gp_capacity_quote *out)
{
    double whole = ceil(instances - 1e-9);

    memset(out, 0, sizeof *out);
    if (whole < 1 || hours <= 0)
        return;
    for (size_t i = 0; i < n; i++) {
        int d = offer_days(&offers[i], calendar, hours);
        if (d == 0)
            continue;
        double cost = whole * d * 24.0 * offers[i].hourly;
        if (out->available && cost >= out->cost)
            continue;
        out->available = true;
        out->cost = cost;
        out->days = d;
        out->estimate = offers[i].estimate;
    }
    if (!out->available)
        return;
    /* a block holds at most 64 instances; a calendar reservation is one */
    out->units = calendar ? 1
                          : (int)ceil(whole / GP_BLOCK_MAX_INSTANCES - 1e-9);
    out->instances = whole;
    out->unused_h = out->days * 24.0 - hours;
    out->unused_ih = whole * out->days * 24.0 - ih;
    out->finish_h = hours;
}

bool gp_capacity_takes_run(const gp_instance_type *it, const gp_job_run *jr,
                           gp_launch launch, double restart_h, int64_t ws,
                           int64_t we, gp_capacity_quote *q)
{
    gp_capacity_quote own;
    double hours = (double)(jr->end - jr->start) / 3600.0;

    if (!q)
        q = &own;
    memset(q, 0, sizeof *q);
    if (launch < GP_LAUNCH_CAPACITY_BLOCK || jr->instances <= 0 ||
        jr->instance_hours <= 0 || jr->start < ws || jr->start >= we)
        return false;
    if (launch == GP_LAUNCH_FLEX_START)
        gp_quote_flex(&it->flex, jr->instances, hours, jr->instance_hours,
                      restart_h, q);
    else
        gp_quote_reservation(launch == GP_LAUNCH_CALENDAR ? it->calendar
                                                          : it->blocks,
                             launch == GP_LAUNCH_CALENDAR ? it->n_calendar
                                                          : it->n_blocks,
                             launch == GP_LAUNCH_CALENDAR, jr->instances,
                             hours, jr->instance_hours, q);
    return q->available;
}

void gp_quote_flex(const gp_flex_offer *f, double instances, double hours,
                   double ih, double restart_h, gp_capacity_quote *out)
{
    memset(out, 0, sizeof *out);
    if (!f->present || instances <= 0 || hours <= 0)
        return;
    double per = f->max_days * 24.0;
    double requests = ceil(hours / per - 1e-9);
    if (requests < 1)
        requests = 1;
    double restarts = (requests - 1) * (restart_h > 0 ? restart_h : 0);
    out->available = true;
    out->units = (int)requests;
    out->instances = instances;
    out->wait_h = requests * f->expected_wait_h;
    out->cost = (ih + instances * restarts) * f->hourly;
    out->finish_h = hours + restarts + out->wait_h;
    out->estimate = f->estimate;
}
