/*
 * scenario_internal.h: what the scenario's files share (private to the
 * library): scenario.c (defaults, the top level, policies, strategies),
 * scenario_commitments.c (commitments as the file gives them) and
 * scenario_check.c (commitments against the catalogs).  See
 * docs/design/scenario.md.
 */
#ifndef GP_SCENARIO_INTERNAL_H
#define GP_SCENARIO_INTERNAL_H

#include "json_util.h"
#include "util.h"

#include <stddef.h>

/* Reads array member `key` of obj (the scenario's commitments or a
 * strategy's add_commitments) into a new array of commitments, *out, and
 * its length, *n_out; when the member is absent or empty, *out stays
 * NULL.  On an error *out holds the commitments read so far, counted in
 * *n_out, for the caller to free with the scenario; with d->all, one that
 * fails is left zero (its term_years 0) and the next read
 * (scenario_commitments.c). */
gp_status gp_scenario_parse_commitments(gp_jdoc *d, const json_t *obj,
                                        const char *key, gp_commitment **out,
                                        size_t *n_out);

/* Reads `policies`, the purchase policies simulate replays
 * (scenario_policies.c). */
gp_status gp_scenario_parse_policies(gp_jdoc *d, const json_t *root,
                                     gp_scenario *s);

/* Warns of the keys a policy's kind does not use (scenario_policies.c). */
void gp_scenario_warn_policies(gp_jdoc *d, const gp_scenario *s,
                               gp_warnings *w);

/* Reads `classify`: its `priors`, {"<gpu_model or instance type>":
 * {"training_log_odds": x}} (scenario_classify.c). */
gp_status gp_scenario_parse_classify(gp_jdoc *d, const json_t *root,
                                     gp_scenario *s);

/* Reads `budgets`: [{"team" or "project": name, "monthly": money}]
 * (scenario_budgets.c). */
gp_status gp_scenario_parse_budgets(gp_jdoc *d, const json_t *root,
                                    gp_scenario *s);

/* Reads a strategy's levers, `autoscale`, `rightsize` and `migrate`,
 * into g (scenario_levers.c). */
gp_status gp_scenario_parse_levers(gp_jdoc *d, const json_t *js,
                                   gp_strategy *g);

/* Checks a strategy's levers against the catalogs: the types rightsize
 * and migrate name are sold (the current path is the strategy). */
gp_status gp_scenario_check_levers(gp_jdoc *d, const gp_pricing *p,
                                   const gp_strategy *g);

#endif
