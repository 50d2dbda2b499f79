/*
 * test_choices.c: what recommend may buy, as the clouds' recommenders let
 * a user say (issue #36, SPEC 7.2): terms, payments and instruments
 * (gp_opt_build_choices).
 *
 * The reference is an independent mixed integer program solved by GLPK on
 * a real trace (the bundled sample: Helios training and ServeGen serving,
 * scenarios/sample/trace.csv, priced by pricing/aws/us-east-1.json): per
 * pool, one whole-instance variable for every reservation offer the
 * choices allow, at its effective hourly rate for the window, and per hour
 * the demand above the reservations at the on-demand rate.  Nothing is
 * taken from the optimizer but the hourly demand it was given.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glpk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine.h"
#include "optimizer.h"

static gp_pricing *pricing;
static gp_trace *trace;
static gp_scenario *scenario;

/* `rel` in the source tree. */
static void source_path(const char *rel, char *buf, size_t size)
{
    const char *src = getenv("GP_SOURCE_DIR");
    snprintf(buf, size, "%s/%s", src ? src : GP_SOURCE_DIR, rel);
}

static int setup(void **state)
{
    gp_error err;
    gp_trace_builder *b;
    char path[4096];
    (void)state;
    gp_error_clear(&err);
    source_path("pricing/aws/us-east-1.json", path, sizeof path);
    if (gp_pricing_load(&pricing, path, 0, &err) != GP_OK)
        return -1;
    source_path("scenarios/sample/trace.csv", path, sizeof path);
    if (gp_trace_builder_new(&b, pricing, NULL, &err) != GP_OK ||
        gp_trace_builder_add_file(b, path, &err) != GP_OK ||
        gp_trace_builder_finish(b, &trace, &err) != GP_OK)
        return -1;
    return gp_scenario_default(&scenario, &err) == GP_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    gp_trace_free(trace);
    gp_scenario_free(scenario);
    gp_pricing_free(pricing);
    return 0;
}

/* The optimizer's problem over the whole trace under choices ch. */
static gp_opt *build(const gp_opt_choices *ch)
{
    gp_error err;
    gp_run_spec spec;
    gp_opt *o = NULL;
    gp_error_clear(&err);
    assert_int_equal(gp_run_spec_init(&spec, trace, scenario, 0, NULL, &err),
                     GP_OK);
    spec.start_hour = trace->start_hour;
    spec.n_hours = trace->n_hours;
    assert_int_equal(gp_opt_build_choices(&o, trace, pricing, &spec, ch, &err),
                     GP_OK);
    return o;
}

/* The exact window cost of reservations only, every offer ch allows, by
 * GLPK: columns x[p][k] (whole instances of pool p's offer k) and y[p][h]
 * (on demand), rows y[p][h] + sum_k x[p][k] >= demand[p][h]. */
static double glpk_reserved_optimum(const gp_opt *o, const gp_opt_choices *ch)
{
    size_t H = o->n_hours, P = o->n_pools;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_rows(lp, (int)(P * H));
    int *ia = calloc(P * H * 16 + 1, sizeof *ia), *ja = calloc(P * H * 16 + 1,
                                                             sizeof *ja);
    double *ar = calloc(P * H * 16 + 1, sizeof *ar);
    size_t nz = 0;
    assert_true(ia && ja && ar);
    for (size_t p = 0; p < P; p++) {
        const gp_instance_type *it = o->pools[p].type;
        for (size_t h = 0; h < H; h++) {
            int row = (int)(p * H + h) + 1;
            glp_set_row_bnds(lp, row, GLP_LO, o->pools[p].demand[h], 0);
            int col = glp_add_cols(lp, 1);
            glp_set_col_bnds(lp, col, GLP_LO, 0, 0);
            glp_set_obj_coef(lp, col, it->on_demand);
            ++nz, ia[nz] = row, ja[nz] = col, ar[nz] = 1;
        }
        for (size_t k = 0; k < it->n_reserved; k++) {
            const gp_reserved_offer *of = &it->reserved[k];
            if (!((ch->terms >> of->term_years) & 1u) ||
                !((ch->payments >> of->payment) & 1u))
                continue;
            int col = glp_add_cols(lp, 1);
            glp_set_col_kind(lp, col, GLP_IV);
            glp_set_col_bnds(lp, col, GLP_LO, 0, 0);
            glp_set_obj_coef(lp, col,
                             gp_reserved_effective_hourly(of) * (double)H);
            for (size_t h = 0; h < H; h++)
                ++nz, ia[nz] = (int)(p * H + h) + 1, ja[nz] = col, ar[nz] = 1;
        }
    }
    glp_load_matrix(lp, (int)nz, ia, ja, ar);
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.presolve = GLP_ON;
    parm.msg_lev = GLP_MSG_OFF;
    assert_int_equal(glp_intopt(lp, &parm), 0);
    double best = glp_mip_obj_val(lp);
    glp_delete_prob(lp);
    free(ia);
    free(ja);
    free(ar);
    return best;
}

/* Terms 1 and 3, every payment, reservations only: the optimizer's window
 * cost is GLPK's exact optimum over every such offer (within 0.5%, as
 * test_optimizer.c holds it), and no more than with 1-year terms alone. */
static void test_both_terms_match_an_independent_mip(void **state)
{
    (void)state;
    gp_opt_choices both = {GP_TERM_BIT(1) | GP_TERM_BIT(3), 7u,
                           GP_BUY_RESERVED, NULL, 0};
    gp_opt_choices one = {GP_TERM_BIT(1), 7u, GP_BUY_RESERVED, NULL, 0};
    gp_opt *o = build(&both);
    assert_int_equal(o->n_plans, 0); /* reservations only */
    double mine = gp_opt_solve(o);
    double exact = glpk_reserved_optimum(o, &both);
    print_message("terms 1,3: optimizer %.4f, GLPK %.4f (%+.4f%%)\n", mine,
                  exact, 100 * (mine - exact) / exact);
    assert_true(mine <= exact * 1.005 && mine >= exact * (1 - 1e-6));
    gp_opt_free(o);

    o = build(&one);
    double mine1 = gp_opt_solve(o);
    assert_true(mine1 >= mine - 1e-6 * mine);
    assert_true(mine1 <= glpk_reserved_optimum(o, &one) * 1.005);
    gp_opt_free(o);
}

/* The instruments: reservations only builds no plan; plans only reserve
 * nothing; compute plans only build one compute plan per provider. */
static void test_instruments_limit_what_is_built(void **state)
{
    (void)state;
    gp_opt_choices ri = {GP_TERM_BIT(1), 7u, GP_BUY_RESERVED, NULL, 0};
    gp_opt_choices compute = {GP_TERM_BIT(1), 7u, GP_BUY_COMPUTE_PLAN, NULL,
                              0};
    gp_opt *o = build(&ri);
    assert_int_equal(o->n_plans, 0);
    gp_opt_free(o);
    o = build(&compute);
    for (size_t p = 0; p < o->n_pools; p++)
        assert_null(o->pools[p].ri_offer);
    for (size_t k = 0; k < o->n_plans; k++)
        assert_int_equal(o->plans[k].kind, GP_PLAN_COMPUTE);
    assert_true(o->n_plans >= 1);
    gp_opt_free(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_both_terms_match_an_independent_mip),
        cmocka_unit_test(test_instruments_limit_what_is_built),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
