/*
 * checks.c: warnings about inputs that load but would mislead a run: a
 * window past the trace or holding none of it, a week or more with no
 * demand, commitments billed for no hour or covering no pool, a trace that
 * ends long ago or in the future.  Each says what follows and what to do.
 */
#include "checks.h"
#include "engine.h"
#include "model.h"
#include "recommend.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Warns when commitment c is active in no hour of the window (epoch hours
 * [w0, w0 + n), as the engine bills it): it bills nothing there, which a
 * mistyped start would otherwise hide. */
static void commitment_outside(const gp_commitment *c, const char *whose,
                               int64_t w0, size_t n, gp_warnings *out)
{
    char what[200], a[32], z[32], w[2][32];
    size_t first, last;

    gp_commitment_active_hours(c, w0, n, &first, &last);
    if (last > first)
        return;
    gp_commitment_describe(c, false, what, sizeof what);
    gp_format_time(c->start, a, sizeof a);
    gp_format_time(c->end, z, sizeof z);
    gp_format_time(w0 * 3600, w[0], sizeof w[0]);
    gp_format_time((w0 + (int64_t)n) * 3600, w[1], sizeof w[1]);
    gp_warnings_add(out,
                    "%s commitment (%s) runs from %s to %s and is billed "
                    "for no hour of the window (%s to %s)",
                    whose, what, a, z, w[0], w[1]);
}

/* Warns when savings plan c, active in the window, covers no pool of the
 * trace (gp_plan_offer_of: its provider, a family plan's family in its
 * region): its commitment is billed every hour for nothing, which a
 * mistyped family or region would otherwise hide. */
static void plan_covers_nothing(const gp_commitment *c, const char *whose,
                                const gp_trace *t, int64_t w0, size_t n,
                                gp_warnings *out)
{
    char what[200], scope[160];
    size_t first, last;
    bool in_scope = false;

    if (c->type != GP_COMMIT_SAVINGS_PLAN)
        return;
    gp_commitment_active_hours(c, w0, n, &first, &last);
    if (last <= first)
        return; /* billed for no hour: commitment_outside says so */
    for (size_t p = 0; p < t->n_pools; p++) {
        const gp_catalog *cat = t->pools[p].catalog;
        if (gp_plan_offer_of(c, cat, t->pools[p].type))
            return;
        in_scope |= strcmp(cat->provider, c->provider) == 0 &&
                    (c->kind != GP_PLAN_FAMILY ||
                     (strcmp(cat->region, c->region) == 0 &&
                      strcmp(t->pools[p].type->family, c->family) == 0));
    }
    gp_commitment_describe(c, false, what, sizeof what);
    if (c->kind == GP_PLAN_FAMILY)
        snprintf(scope, sizeof scope, "of family %s in %s %s", c->family,
                 c->provider, c->region);
    else
        snprintf(scope, sizeof scope, "on %s", c->provider);
    if (in_scope)
        gp_warnings_add(out,
                        "%s commitment (%s) covers none of the trace's "
                        "usage: no pool of the trace %s has a %d-year %s "
                        "%s savings-plan rate in the catalogs, so its "
                        "commitment is billed for nothing",
                        whose, what, scope, c->term_years,
                        gp_payment_name(c->payment),
                        gp_plan_kind_name(c->kind));
    else
        gp_warnings_add(out,
                        "%s commitment (%s) covers none of the trace's "
                        "usage: the trace has no pool %s, so its "
                        "commitment is billed for nothing",
                        whose, what, scope);
}

/* Warns when reservation c, active in the window, covers no pool of the
 * trace (gp_reserved_covers, the rule models/reserved.c bills by).  Like
 * plan_covers_nothing: its cost is billed every hour for nothing. */
static void reservation_covers_nothing(const gp_commitment *c,
                                       const char *whose, const gp_pricing *pr,
                                       const gp_trace *t, int64_t w0, size_t n,
                                       gp_warnings *out)
{
    char what[200], scope[200];
    size_t first, last;
    const gp_catalog *cat = NULL;

    if (c->type != GP_COMMIT_RESERVED)
        return;
    gp_commitment_active_hours(c, w0, n, &first, &last);
    if (last <= first)
        return; /* billed for no hour: commitment_outside says so */
    const gp_instance_type *it = gp_pricing_find(pr, c->provider, c->region,
                                                 c->instance_type, &cat, NULL);
    if (!it || !cat)
        return; /* not in the catalogs: an error of its own */
    bool flex = it->normalization_factor > 0;
    for (size_t p = 0; p < t->n_pools; p++)
        if (gp_reserved_covers(cat, it, t->pools[p].catalog, t->pools[p].type))
            return;
    gp_commitment_describe(c, false, what, sizeof what);
    if (flex)
        snprintf(scope, sizeof scope, "of %s or another size of family %s",
                 c->instance_type, it->family);
    else
        snprintf(scope, sizeof scope, "of %s", c->instance_type);
    gp_warnings_add(out,
                    "%s commitment (%s) covers none of the trace's usage: "
                    "the trace has no pool %s in %s %s, so its commitment "
                    "is billed for nothing",
                    whose, what, scope, cat->provider, cat->region);
}

/* A span of hours in words: "31 days", "1 day and 6 hours", "5 hours". */
static void hours_words(int64_t hours, char *buf, size_t size)
{
    int64_t d = hours / 24, h = hours % 24;

    if (d && h)
        snprintf(buf, size, "%lld %s and %lld %s", (long long)d,
                 gp_plural((uint64_t)d, "day", "days"), (long long)h,
                 gp_plural((uint64_t)h, "hour", "hours"));
    else if (d)
        snprintf(buf, size, "%lld %s", (long long)d,
                 gp_plural((uint64_t)d, "day", "days"));
    else
        snprintf(buf, size, "%lld %s", (long long)h,
                 gp_plural((uint64_t)h, "hour", "hours"));
}

/* Warns when the window [w0, w1) (epoch hours) reaches before the trace's
 * first row or past its end [t0, t1): those hours have no row, so they
 * are billed, and plans sized, as hours in which nothing ran (a window
 * from January on a trace from February made January's demand 0, and
 * recommend found nothing to buy). */
static void window_past_trace(int64_t w0, int64_t w1, int64_t t0, int64_t t1,
                              gp_warnings *out)
{
    char a[32], z[32], span[64];

    if (w0 < t0) {
        gp_format_time(w0 * 3600, a, sizeof a);
        gp_format_time(t0 * 3600, z, sizeof z);
        hours_words(t0 - w0, span, sizeof span);
        gp_warnings_add(out,
                        "the scenario's window starts %s before the "
                        "trace's first row (%s to %s): those hours have no "
                        "demand, as if nothing ran; give their rows or "
                        "start the window at the trace's first hour",
                        span, a, z);
    }
    if (w1 > t1) {
        gp_format_time(t1 * 3600, a, sizeof a);
        gp_format_time(w1 * 3600, z, sizeof z);
        hours_words(w1 - t1, span, sizeof span);
        gp_warnings_add(out,
                        "the scenario's window ends %s after the trace's "
                        "last hour (%s to %s): those hours have no demand, "
                        "as if nothing ran; give their rows or end the "
                        "window where the trace ends",
                        span, a, z);
    }
}

/* Hours with no demand in a row longer than this inside the window are
 * warned about (README, "The window"): longer than a week, so no night,
 * weekend or other part of the weekly cycle demand follows. */
#define GAP_WARN_HOURS 168

/* Whether any series has demand in epoch hour h (inside the trace). */
static bool hour_has_demand(const gp_trace *t, int64_t h)
{
    for (size_t i = 0; i < t->n_series; i++)
        if (t->series[i].instance_hours[h - t->start_hour] > 0)
            return true;
    return false;
}

/* Warns about the longest stretch of more than GAP_WARN_HOURS hours of
 * [h0, h1) (epoch hours, inside the trace's span) in which no series has
 * demand: no rows there, or rows of 0 instances, billed as if nothing ran
 * (a trace missing 78 days between March and June was billed so without
 * a word), or, for a forecast, taken for its history's demand.  `what`
 * says so and what to do, after the stretch. */
static void trace_gap(const gp_trace *t, int64_t h0, int64_t h1,
                      const char *what, gp_warnings *out)
{
    int64_t run = 0, best = 0, best_end = 0;
    size_t n_long = 0;

    for (int64_t h = h0; h <= h1; h++) {
        /* h1, the end, closes a run as an hour with demand does */
        if (h < h1 && !hour_has_demand(t, h)) {
            run++;
            continue;
        }
        if (run > GAP_WARN_HOURS) {
            n_long++;
            if (run > best) {
                best = run;
                best_end = h;
            }
        }
        run = 0;
    }
    if (!best)
        return;
    char a[32], z[32], span[64], more[64] = "";
    gp_format_time((best_end - best) * 3600, a, sizeof a);
    gp_format_time(best_end * 3600, z, sizeof z);
    hours_words(best, span, sizeof span);
    if (n_long > 1)
        snprintf(more, sizeof more,
                 ", the longest of %zu stretches over a week", n_long);
    gp_warnings_add(out,
                    "the trace has no demand for %s, %s to %s%s (no rows, "
                    "or rows of 0 instances): %s",
                    span, a, z, more, what);
}

void gp_check_window(const gp_inputs *in, bool strategies, gp_warnings *out)
{
    const gp_scenario *sc = in->scenario;
    const gp_trace *t = in->trace;
    char w[2][32], u[2][32];
    size_t hours;
    int64_t w0;

    if (t->n_hours == 0)
        return;
    /* the hours the engine bills */
    gp_engine_window(t, sc, &w0, &hours);
    int64_t t0 = t->start_hour, t1 = t->start_hour + (int64_t)t->n_hours;
    if (!(w0 < t1 && w0 + (int64_t)hours > t0)) {
        gp_format_time(w0 * 3600, w[0], sizeof w[0]);
        gp_format_time((w0 + (int64_t)hours) * 3600, w[1], sizeof w[1]);
        gp_format_time(t0 * 3600, u[0], sizeof u[0]);
        gp_format_time(t1 * 3600, u[1], sizeof u[1]);
        gp_warnings_add(out,
                        "the scenario's window, %s to %s, holds none of the "
                        "trace's usage (%s to %s): only commitments are "
                        "billed",
                        w[0], w[1], u[0], u[1]);
    } else {
        window_past_trace(w0, w0 + (int64_t)hours, t0, t1, out);
        trace_gap(t, w0 > t0 ? w0 : t0,
                  w0 + (int64_t)hours < t1 ? w0 + (int64_t)hours : t1,
                  "those hours are billed as if nothing ran; if rows are "
                  "missing there, give them or a window without them",
                  out);
    }
    for (size_t i = 0; i < sc->n_commitments; i++) {
        commitment_outside(&sc->commitments[i], "an owned", w0, hours, out);
        plan_covers_nothing(&sc->commitments[i], "an owned", t, w0, hours, out);
        reservation_covers_nothing(&sc->commitments[i], "an owned", in->pricing,
                                   t, w0, hours, out);
    }
    for (size_t k = 0; strategies && k < sc->n_strategies; k++)
        for (size_t i = 0; i < sc->strategies[k].n_add; i++) {
            char whose[96];
            snprintf(whose, sizeof whose, "strategy \"%s\"'s",
                     sc->strategies[k].name);
            commitment_outside(&sc->strategies[k].add_commitments[i], whose, w0,
                               hours, out);
            plan_covers_nothing(&sc->strategies[k].add_commitments[i], whose, t,
                                w0, hours, out);
            reservation_covers_nothing(&sc->strategies[k].add_commitments[i],
                                       whose, in->pricing, t, w0, hours, out);
        }
}

void gp_check_history_gap(const gp_trace *t, int64_t start_hour,
                          size_t n_hours, gp_warnings *out)
{
    int64_t h0 = start_hour, h1 = start_hour + (int64_t)n_hours;

    /* hours before the first with demand are in no series' history (a
     * series is forecast from its first hour with demand) */
    while (h0 < h1 && !hour_has_demand(t, h0))
        h0++;
    trace_gap(t, h0, h1,
              "the forecast learns from those hours as if nothing ran; if "
              "rows are missing there, give them or only the rows after "
              "them",
              out);
}

/* Adds `msg` to out as a warning located at the row that ends last
 * (t->end_row), as an error locates a bad row: "trace.csv:505:1:
 * timestamp: ..." (no location for a trace built in memory). */
static void warn_at_end_row(const gp_trace *t, const char *msg,
                            gp_warnings *out)
{
    gp_error at = t->end_row;
    char line[sizeof at.source + sizeof at.field + sizeof at.message + 16];
    snprintf(at.message, sizeof at.message, "%s", msg);
    if (at.line <= 0)
        at.source[0] = at.field[0] = '\0';
    gp_error_format_marked(&at, line, sizeof line);
    gp_warnings_add(out, "%s", line);
}

void gp_check_stale_forecast(const gp_trace *t, int64_t today,
                             int64_t start_hour, size_t n_hours,
                             const char *what, gp_warnings *out)
{
    int64_t end = start_hour * 3600;
    /* the days between the two dates printed: counted from now, a trace
     * ending 2026-07-01T05:00 was "41 days before today (2026-08-12)" at
     * 01:00 that day */
    int64_t midnight = today - today % 86400;
    long long days = (long long)((midnight - (end - end % 86400)) / 86400);
    char a[32], z[32], d[32], msg[sizeof t->end_row.message];

    if (days <= 30)
        return;
    gp_format_time(end, a, sizeof a);
    gp_format_time((start_hour + (int64_t)n_hours) * 3600, z, sizeof z);
    gp_format_time(midnight, d, sizeof d);
    d[10] = '\0'; /* the date alone */
    snprintf(msg, sizeof msg,
             "the trace ends at %s, %lld days before today (%s): %s for %s "
             "to %s, from the trace's end, not from today; give a recent "
             "trace to plan ahead",
             a, days, d, what, a, z);
    warn_at_end_row(t, msg, out);
}

void gp_check_future_trace(const gp_trace *t, int64_t today,
                           int64_t fc_start_hour, size_t fc_hours,
                           const char *what, gp_warnings *out)
{
    /* where the last row ends; a trace built in memory: its last hour's end */
    int64_t end = t->end_s > 0 ? (int64_t)ceil(t->end_s)
                               : (t->start_hour + (int64_t)t->n_hours) * 3600;
    char e[32], d[32], ahead[96], then[256];

    if (t->n_hours == 0 || end - today <= 3600)
        return;
    gp_format_time(end, e, sizeof e);
    if (end - today >= 86400) {
        /* the days between the two dates printed, counted from today's
         * midnight: from now, a trace ending 2026-08-22T00:00 was "9 days
         * after today (2026-08-12)" at any time after midnight */
        int64_t midnight = today - today % 86400;
        long long days = (long long)((end - midnight) / 86400);
        gp_format_time(midnight, d, sizeof d);
        d[10] = '\0'; /* the date alone, as the stale trace's warning */
        snprintf(ahead, sizeof ahead, "%lld %s after today (%s)", days,
                 gp_plural(days, "day", "days"), d);
    } else {
        /* tenths of an hour, rounded up, so always over 1 as the test
         * above is: whole hours, rounded down, made a trace 1.5 hours
         * ahead "1 hour after now", as if within the hour allowed */
        long long tenths = (long long)((end - today + 359) / 360);
        gp_format_time(today, d, sizeof d);
        if (tenths % 10)
            snprintf(ahead, sizeof ahead, "%lld.%lld hours after now (%s)",
                     tenths / 10, tenths % 10, d);
        else
            snprintf(ahead, sizeof ahead, "%lld hours after now (%s)",
                     tenths / 10, d);
    }
    if (fc_hours > 0) {
        char a[32], z[32];
        gp_format_time(fc_start_hour * 3600, a, sizeof a);
        gp_format_time((fc_start_hour + (int64_t)fc_hours) * 3600, z, sizeof z);
        snprintf(then, sizeof then, "%s for %s to %s, from the trace's end",
                 what, a, z);
    } else {
        snprintf(then, sizeof then, "%s", what);
    }
    char msg[sizeof t->end_row.message];
    snprintf(msg, sizeof msg,
             "the trace ends at %s, %s: %s; a trace dated in the future is a "
             "clock or time-zone error, or a converted trace: check its "
             "timestamps",
             e, ahead, then);
    warn_at_end_row(t, msg, out);
}

void gp_check_util_fraction(const gp_trace *t, gp_warnings *out)
{
    /* a mean of at most 1% in every hour of every series: read as a
     * percent (0..100), 0.8 makes every GPU idle and the cost per useful
     * GPU-hour 100 times too high.  The first hour above 1% ends the scan,
     * so a trace with real utilization costs a few cells, not a pass. */
    bool any = false;
    for (size_t i = 0; i < t->n_series; i++)
        for (size_t h = 0; h < t->n_hours; h++) {
            double g = t->series[i].util_gpu_hours[h];
            if (g <= 0)
                continue;
            if (100 * t->series[i].useful_gpu_hours[h] / g > 1)
                return;
            any = true;
        }
    if (any)
        gp_warnings_add(out,
                        "every gpu_util in the trace is at most 1, read as "
                        "percent (0..100): if the column holds fractions "
                        "(0.8 for 80%%), multiply it by 100, or every GPU "
                        "counts as idle and the cost per useful GPU-hour "
                        "comes out 100 times too high");
}
