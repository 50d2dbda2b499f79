/*
 * checks.h: warnings about inputs that load but would mislead a run
 * (checks.c).  Each adds sentences to a gp_warnings list; none fails.
 */
#ifndef GP_CHECKS_H
#define GP_CHECKS_H

#include "inputs.h"

/* Adds warnings to *out when the window (the scenario's, else the trace's
 * span) holds none of the trace's usage, or starts before the trace's
 * first row or ends after its last hour (hours with no demand), or holds
 * more than a week in a row with no demand in any pool, for each
 * commitment (owned, or with `strategies` one a strategy adds) active at
 * no time in it, and for each savings plan among them that covers no pool
 * of the trace: a mistyped year, family or region would otherwise bill
 * commitments for nothing without a word. */
void gp_check_window(const gp_inputs *in, bool strategies, gp_warnings *out);

/* A forecast's history, the trace's hours [start_hour, start_hour +
 * n_hours), that holds more than a week in a row with no demand in any
 * pool (from its first hour with demand): the warning gp_check_window
 * gives, saying the forecast takes those hours for demand. */
void gp_check_history_gap(const gp_trace *t, int64_t start_hour,
                          size_t n_hours, gp_warnings *out);

/* A forecast from the end of a stale trace t (its forecast starts on a
 * date over 30 days before `today`, epoch seconds): a warning that says
 * when the trace ends and which period is forecast, `what` ("the forecast
 * is" or "the plan is bought"), located at the row that ends last
 * (t->end_row) as gp_check_future_trace's. */
void gp_check_stale_forecast(const gp_trace *t, int64_t today,
                             int64_t start_hour, size_t n_hours,
                             const char *what, gp_warnings *out);

/* A trace dated in the future: when its last row ends more than an hour
 * after `today` (the hour allows for a clock skew and a row of the hour
 * under way), a warning that says when it ends and what follows: with
 * fc_hours > 0, `what` ("the forecast is" or "the plan is bought") for the
 * forecast's hours from fc_start_hour; else `what` is the whole
 * consequence ("its hours after today are billed as history").  Such a
 * trace is a clock or time-zone error, or a converted one.  The warning
 * starts with the row that ends last (t->end_row), as "trace.csv:505:1:
 * timestamp: ". */
void gp_check_future_trace(const gp_trace *t, int64_t today,
                           int64_t fc_start_hour, size_t fc_hours,
                           const char *what, gp_warnings *out);

/* A trace whose gpu_util is at most 1 in every hour of every series: a
 * warning that the column looks like a fraction, not a percent. */
void gp_check_util_fraction(const gp_trace *t, gp_warnings *out);

#endif
