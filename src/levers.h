/*
 * levers.h: a strategy's what-if levers (SPEC 7.5) applied to a trace:
 * autoscaled inference, rightsizing and migration to another instance
 * type.  The engine bills the changed trace; the ledger is then folded
 * back onto the trace's own series so that writers read it as any other.
 */
#ifndef GP_LEVERS_H
#define GP_LEVERS_H

#include "engine.h"

/* Whether strategy g pulls any lever. */
bool gp_strategy_has_levers(const gp_strategy *g);

/* A one-line account of g's levers ("autoscale team=search at 70%;
 * migrate p4d.24xlarge -> p5.48xlarge x0.5 on 2026-04-01"), "" when none. */
void gp_levers_describe(const gp_strategy *g, char *buf, size_t size);

/*
 * Bills strategy `strategy` of scenario s as spec says, into a new ledger
 * *out: gp_engine_run on the trace as the strategy's levers change it,
 * the ledger then folded back onto t's series (a moved series' cost is
 * charged to the series it came from), with l->levers filled in and
 * all_on_demand_cost that of the demand as recorded (so that savings
 * include what a lever saved).  Without levers, gp_engine_run itself.
 */
gp_status gp_levers_run(const gp_trace *t, const gp_pricing *p,
                        const gp_scenario *s, size_t strategy,
                        const gp_run_spec *spec, gp_ledger **out,
                        gp_error *err);

/* Adds recommend's notes on the scenario's levers over the window
 * [start_hour, + n_hours): whether each rightsize pays at on-demand rates
 * (the equivalence and the catalogs'), and that reservations and family
 * plans of a type a strategy migrates are weighed with their stranded
 * hours (optimizer_build.c). */
void gp_levers_notes(const gp_trace *t, const gp_pricing *p,
                     const gp_scenario *s, int64_t start_hour, size_t n_hours,
                     gp_warnings *notes);

#endif
