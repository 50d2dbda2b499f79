/*
 * print_budgets.c: simulate's table of budgets (SPEC 7.5): each team's or
 * project's spend month by month under every strategy, the months over
 * budget marked, and the month a forecast says each budget is crossed.
 */
#include "budget.h"
#include "cli.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/* "team ml" or "project llm", into buf. */
static void budget_name(const gp_budget *b, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s", b->by_project ? "project" : "team",
             b->name);
}

/* The months of every budget, a column per strategy. */
static void print_months(gp_ledger *const *l, const gp_budget_report *r,
                         size_t n, const gp_scenario *s, int w)
{
    char name[300], money[32];

    printf("  %-*s %-7s %14s", w, "budget", "month", "monthly");
    for (size_t i = 0; i < n; i++)
        printf(" %18.18s", l[i]->strategy);
    putchar('\n');
    for (size_t k = 0; k < r[0].n_months; k++) {
        const gp_budget_month *m = &r[0].months[k];
        budget_name(&s->budgets[m->budget], name, sizeof name);
        gp_format_money(m->budget_amount, money, sizeof money);
        printf("  %-*s %04d-%02d %14s", w, name, m->year, m->month, money);
        for (size_t i = 0; i < n; i++) {
            const gp_budget_month *mi = &r[i].months[k];
            gp_format_money(mi->spent, money, sizeof money);
            printf(" %13s %4s", money, mi->over ? "OVER" : "");
        }
        putchar('\n');
    }
}

/* The forecast's crossings, a line per budget. */
static void print_crossings(gp_ledger *const *l, const gp_budget_report *r,
                            size_t n, const gp_scenario *s)
{
    char name[300];

    if (r[0].n_crossings == 0) {
        printf("  (no forecast: the month a budget would be crossed is not "
               "known)\n");
        return;
    }
    printf("  forecast (P50 demand for %d weeks after the trace, at each "
           "strategy's cost per instance-hour): first month over budget\n",
           GP_BUDGET_HORIZON_HOURS / 168);
    for (size_t b = 0; b < s->n_budgets; b++) {
        budget_name(&s->budgets[b], name, sizeof name);
        printf("    %s:", name);
        for (size_t i = 0; i < n; i++) {
            const gp_budget_crossing *c = &r[i].crossings[b];
            if (c->year)
                printf("%s %s %04d-%02d", i ? "," : "", l[i]->strategy,
                       c->year, c->month);
            else
                printf("%s %s none", i ? "," : "", l[i]->strategy);
        }
        putchar('\n');
    }
}

void gp_cli_print_budgets(gp_ledger *const *l, const gp_budget_report *r,
                          size_t n, const gp_scenario *s)
{
    int w = 6;
    char name[300];

    if (!r || n == 0 || s->n_budgets == 0)
        return;
    for (size_t b = 0; b < s->n_budgets; b++) {
        budget_name(&s->budgets[b], name, sizeof name);
        if ((int)strlen(name) > w)
            w = (int)strlen(name);
    }
    printf("\nbudgets (spend by month, the chargeback's; OVER: over the "
           "monthly budget):\n");
    print_months(l, r, n, s, w);
    print_crossings(l, r, n, s);
}
