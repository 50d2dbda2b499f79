/*
 * idle.h: idle GPUs (issue #7 part 3): spans of a GPU or job whose
 * gpu_util stays below a threshold for at least a minimum (rows without a
 * job_id judged by clock hour per series), their cost at the on-demand
 * rate, and the terminate policy (gp_policy.terminate_idle_h) that cuts
 * each span after its first N hours.  The threshold and minimum are in
 * gp_trace_options; the loader keeps the low runs (gp_trace.low_util).
 * The rules in full: docs/design/idle.md.
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
