/*
 * idle.h: idle GPUs (issue #7 part 3).
 *
 * An idle span is a maximal run of consecutive samples of one GPU or job
 * (rows with one job_id) whose gpu_util is below a threshold (default 5%),
 * lasting at least a minimum (default 2 hours).  Rows without a job_id are
 * judged per series instead: a clock hour of a series is idle when the
 * mean gpu_util of its rows in that hour is below the threshold, and a
 * span is a run of consecutive idle hours.  A series some of whose rows
 * carry both a job_id and a gpu_util is judged per job only.
 *
 * The threshold and minimum are trace options (gp_trace_options
 * idle_threshold_pct, idle_min_hours; GP_PARAM_IDLE_THRESHOLD and
 * GP_PARAM_IDLE_MIN_HOURS):
 * the loader keeps each job's runs of low-utilization samples as it reads
 * (gp_trace.low_util), so nothing per row has to be kept, and drops runs
 * shorter than the minimum.
 *
 * A span's cost is its instance-hours priced at the pool's on-demand rate
 * (less the scenario discount): what the idle time would cost if nothing
 * else paid for it, the same for every strategy.  What a strategy saves by
 * terminating idle GPUs is its billed total less the same strategy's
 * billed without terminating (the engine removes the cut instance-hours
 * from demand; simulate bills both).
 *
 * The terminate policy (gp_policy.terminate_idle_h = N > 0): every idle
 * span longer than N hours is cut after its first N hours; the
 * instance-hours after that, to the end of the span, are removed from the
 * demand the engine bills.  A span's instance-hours are taken as spread
 * evenly over it (exact when the instance count is constant, as for one
 * GPU).  Spans shorter than the minimum are not idle spans, so are never
 * cut.  Spot job runs (the Monte Carlo replay) are not shortened, so
 * the engine does not cut their spans either: the run is billed whole.
 */
#ifndef GP_IDLE_H
#define GP_IDLE_H

#include "gpuplan.h"

/* One idle span. */
typedef struct gp_idle_span {
    int32_t job;       /* label index of its job_id, -1 for a series span */
    uint32_t series;   /* index into trace->series */
    uint32_t pool;     /* index into trace->pools */
    double start, end; /* seconds since the epoch */
    double hours;      /* (end - start) / 3600 */
    double mean_util_pct; /* useful / GPU-hours over the span, percent */
    double gpu_hours;      /* GPU-hours the span held */
    double instance_hours; /* billed instance-hours of the span */
    double cost;           /* instance_hours x on-demand rate x (1 - discount) */
} gp_idle_span;

/* Every idle span of a trace, in order of series, job, start. */
typedef struct gp_idle_report {
    double threshold_pct; /* below this gpu_util a sample is idle */
    double min_hours;     /* a span lasts at least this long */
    gp_idle_span *spans;
    size_t n_spans;
    /* totals over the spans */
    double hours, gpu_hours, instance_hours, cost;
    /* GPU-hours of the whole trace that came with a gpu_util: the idle
     * share is gpu_hours / this */
    double gpu_hours_with_util;
} gp_idle_report;

/* Finds the idle spans of `t` (with the threshold and minimum it was
 * loaded with), pricing them with `discount` (the scenario's fraction off,
 * 0 for none).  Returns a new report in *out. */
gp_status gp_idle_detect(const gp_trace *t, double discount,
                         gp_idle_report **out, gp_error *err);
void gp_idle_report_free(gp_idle_report *r);

/* Keeps only what falls inside the window of n_hours clock hours from
 * epoch hour start_hour (the scenario's window, so that the report covers
 * the hours the costs beside it cover): a span crossing an edge is cut
 * there, its sums taken as spread evenly over it (as the terminate policy
 * takes them), spans outside are dropped, and the totals and
 * gpu_hours_with_util are recomputed over the window. */
void gp_idle_clip(gp_idle_report *r, const gp_trace *t, int64_t start_hour,
                  size_t n_hours);

/* Idle GPUs as a report shows them beside bills of n_hours clock hours
 * from epoch hour start_hour: gp_idle_detect at the scenario's discount,
 * clipped (gp_idle_clip) to those hours. */
gp_status gp_idle_for_hours(const gp_trace *t, const gp_scenario *s,
                            int64_t start_hour, size_t n_hours,
                            gp_idle_report **out, gp_error *err);

/* A run's idle report: gp_idle_for_hours over the hours the run's bills
 * cover (gp_engine_window). */
gp_status gp_idle_for_run(const gp_trace *t, const gp_scenario *s,
                          gp_idle_report **out, gp_error *err);

/* A span's name for reports: its job_id, or for a series span
 * "instance_type/workload/team/project" (empty labels left out). */
void gp_idle_span_label(const gp_trace *t, const gp_idle_span *s, char *buf,
                        size_t size);

/* What the terminate policy takes out of one series in one clock hour. */
typedef struct gp_idle_cut {
    size_t hour;     /* index into the trace's hours */
    uint32_t series; /* index into trace->series */
    double instance_hours, useful_gpu_hours, util_gpu_hours;
} gp_idle_cut;

/*
 * The demand the terminate policy removes: terminate_h[0] applies to
 * training series, terminate_h[1] to the others (0 = never), as the engine
 * picks policies.  Returns the cuts sorted by hour, then series, in *out
 * (NULL when there are none) and their count in *n; *removed, when not
 * NULL, gets the instance-hours removed.
 */
gp_status gp_idle_cuts(const gp_trace *t, const gp_idle_report *r,
                       const double terminate_h[2], gp_idle_cut **out,
                       size_t *n, double *removed, gp_error *err);

#endif
