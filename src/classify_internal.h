/*
 * classify_internal.h: what the pieces of classify share: the job runs
 * grouped by series and the scratch space the feature pass works in
 * (classify.c), which the verdicts (classify_decide.c) use.
 */
#ifndef GP_CLASSIFY_INTERNAL_H
#define GP_CLASSIFY_INTERNAL_H

#include "classify.h"

/* The job runs of a trace grouped by series (runs of series s at
 * [at[s], at[s + 1]): length in hours, peak instances, instance-hours),
 * and scratch space for one series' features. */
typedef struct gp_classify_scratch {
    size_t *at;
    double *len, *gang, *ih;
    uint32_t *run; /* the index of the run in the trace */
    double *buf; /* 2 x n_hours + n_runs doubles */
} gp_classify_scratch;

/* Fills w for t; false when out of memory (free it all the same). */
bool gp_classify_scratch_init(const gp_trace *t, gp_classify_scratch *w);
void gp_classify_scratch_free(gp_classify_scratch *w);

/* Clears f: no span, every feature unknown (NAN). */
void gp_classify_features_clear(gp_classify_features *f);

/* Every feature of series s of t. */
void gp_classify_features_at(const gp_trace *t, size_t s,
                             gp_classify_scratch *w, gp_classify_features *f);

/* The evidence on series s but the shape (classify_decide.c): fills
 * ev[] but ev[GP_EV_SHAPE]. */
void gp_classify_evidence(const gp_trace *t, size_t s,
                          const gp_classify_scratch *w,
                          const gp_classify_features *f,
                          const gp_classify_options *o, double *ev);

#endif
