/*
 * covering.h: the covering rules of SPEC section 4 that the engine's
 * models and the optimizer (src/optimizer_build.c) share, so that each
 * exists once: the order in which savings plans apply and cover usage
 * (savings_plan.c), and the owned reservations covering a window's demand
 * (reserved.c).
 */
#ifndef GP_COVERING_H
#define GP_COVERING_H

#include "model.h"

/* What a plan rate saves of the on-demand rate: 1 - plan / on-demand. */
double gp_covering_discount(double plan_rate, double od_rate);

/* The order in which one savings plan covers usage, as a qsort comparator
 * returns it: the highest discount (gp_covering_discount) first, ties to
 * the lower plan rate, then to the lower pool index. */
int gp_covering_cmp(double discount_x, double rate_x, long pool_x,
                    double discount_y, double rate_y, long pool_y);

/* The order in which savings plans apply, as a qsort comparator returns
 * it: instance_family plans before compute plans, then the one that
 * started first (`start` in any unit, the same for both); 0 when neither
 * comes first, for the caller to break the tie. */
int gp_covering_plan_cmp(gp_plan_kind kind_x, int64_t start_x,
                         gp_plan_kind kind_y, int64_t start_y);

/* Covers the window's on-demand launched demand, demand[pool][hour] for
 * the in->trace's pools and in->n_hours hours, with the reservations
 * among in's commitments exactly as the engine bills them, and leaves in
 * it what they do not cover.  Nothing changes when there are none. */
gp_status gp_reserved_cover(const gp_model_input *in, double *const *demand,
                            gp_error *err);

#endif
