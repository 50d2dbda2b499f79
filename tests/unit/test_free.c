/*
 * test_free.c: every public gp_*_free takes NULL and does nothing, as
 * free(NULL) does (STYLE.md, Ownership), so error paths can free
 * whatever they have without checking what was made.
 *
 * The list is every gp_*_free in src/ and models/ (there is no
 * gp_*_destroy): a grep for "^void gp_[a-z_]*_free" in src/ and models/.
 * A new one belongs here too.  The program's gp_cli_free lives in
 * src/cli/options.c, outside the library, which tests/CMakeLists.txt
 * links into this test alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four it needs */

#include <gsl/gsl_errno.h>

#include "classify.h"
#include "cli.h"
#include "engine.h"
#include "forecast.h"
#include "gpuplan.h"
#include "idle.h"
#include "optimizer.h"
#include "recommend.h"
#include "util.h"

/* Each call would dereference NULL before the check was there (gp_cli_free,
 * gp_inputs_free, gp_strmap_free did); passing is returning at all. */
static void test_every_free_of_null_does_nothing(void **state)
{
    (void)state;
    gp_free(NULL);
    gp_catalog_free(NULL);
    gp_pricing_free(NULL);
    gp_classification_free(NULL);
    gp_cli_free(NULL);
    gp_inputs_free(NULL);
    gp_ledger_free(NULL);
    gp_forecast_free(NULL);
    gp_forecast_trace_free(NULL);
    gp_idle_report_free(NULL);
    gp_opt_free(NULL);
    gp_recommendation_free(NULL);
    gp_scenario_free(NULL);
    gp_trace_builder_free(NULL);
    gp_trace_free(NULL);
    gp_strmap_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_free_of_null_does_nothing),
    };
    gsl_set_error_handler_off();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
