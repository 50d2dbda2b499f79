/*
 * print_policies.c: simulate's table of purchase policies replayed over the
 * trace (SPEC 7.3): each policy's cost, effective savings rate, coverage,
 * commitment utilization and what it leaves owed after the window.
 */
#include "cli.h"
#include "policy.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* A fraction as a percent, "-" when unknown. */
static void pct(double v, char *buf, size_t size)
{
    if (isfinite(v))
        snprintf(buf, size, "%.1f%%", 100 * v);
    else
        snprintf(buf, size, "-");
}

void gp_cli_print_policies(const gp_policy_result *r, size_t n)
{
    int w = 6;
    for (size_t i = 0; i < n; i++)
        if ((int)strlen(r[i].policy->name) > w)
            w = (int)strlen(r[i].policy->name);
    printf("\npurchase policies, replayed (each buys at its reviews from the "
           "history before them):\n");
    printf("  %-*s %-8s %-9s %14s %7s %8s %7s %14s %14s %7s %5s\n", w,
           "policy", "kind", "review", "total", "ESR", "coverage", "util",
           "unused", "owed after", "months", "buys");
    for (size_t i = 0; i < n; i++) {
        char total[32], unused[32], owed[32], e[16], c[16], u[16], mo[16];
        gp_format_money(r[i].total_cost, total, sizeof total);
        gp_format_money(r[i].unused_commitment_cost, unused, sizeof unused);
        gp_format_money(r[i].lock_in_cost, owed, sizeof owed);
        pct(r[i].esr, e, sizeof e);
        pct(r[i].coverage, c, sizeof c);
        pct(r[i].commitment_utilization, u, sizeof u);
        if (isfinite(r[i].lock_in_months))
            snprintf(mo, sizeof mo, "%.1f", r[i].lock_in_months);
        else
            snprintf(mo, sizeof mo, "-");
        printf("  %-*s %-8s %-9s %14s %7s %8s %7s %14s %14s %7s %5zu\n", w,
               r[i].policy->name, gp_purchase_kind_name(r[i].policy->kind),
               r[i].policy->review_months == 3 ? "quarterly" : "monthly",
               total, e, c, u, unused, owed, mo, r[i].n_purchases);
    }
    printf("  ESR = savings / on-demand cost; owed after = commitment still "
           "owed when the window ends, in months of its last month's cost\n");
}
