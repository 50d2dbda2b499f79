/*
 * engine_internal.h: what the run (engine.c) and the ledger it leaves
 * (engine_ledger.c) share; not a public header.
 */
#ifndef GP_ENGINE_INTERNAL_H
#define GP_ENGINE_INTERNAL_H

#include "model.h"

/* The epoch hour that holds second t. */
static inline int64_t gp_floor_hour(int64_t t)
{
    return t >= 0 ? t / 3600 : -((-t + 3599) / 3600);
}

/* Finishes a ledger whose hours, series, commitments and jobs the models
 * have billed: the scenario discount (f = 1 - discount) on every cost,
 * the months from the discounted hours, the window's totals. */
void gp_ledger_finish(gp_ledger *l, const gp_model_input *in, double f);

#endif
