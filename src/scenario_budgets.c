/*
 * scenario_budgets.c: the scenario's `budgets` (SPEC 7.5): a monthly
 * budget per team or project, which simulate compares with every
 * strategy's spend month by month (budget.c).
 */
#include "scenario_internal.h"

#include <string.h>

static const char *const budget_keys[] = {"team", "project", "monthly", NULL};

/* The most budgets a scenario may hold. */
#define MAX_BUDGETS 10000
/* The largest monthly budget taken as meant: a garbled 1e300 is an error. */
#define MAX_MONTHLY 1e15

/* Reads one budget (the current path is its item): exactly one of team
 * and project, and monthly, a positive amount. */
static gp_status parse_one(gp_jdoc *d, const json_t *jb, gp_budget *b)
{
    const char *team = NULL, *project = NULL;
    bool have_team = false, have_project = false;
    gp_status st;

    if ((st = gp_jdoc_expect_object(d, jb)) != GP_OK ||
        (st = gp_jdoc_known_keys(d, jb, budget_keys, NULL)) != GP_OK ||
        (st = gp_jdoc_string(d, jb, "team", false, &team, &have_team)) !=
            GP_OK ||
        (st = gp_jdoc_string(d, jb, "project", false, &project,
                             &have_project)) != GP_OK)
        return st;
    if (have_team && have_project)
        return gp_jdoc_error(d, "project",
                             "a budget is a team's or a project's, not "
                             "both: give one of team and project");
    if (!have_team && !have_project)
        return gp_jdoc_error(d, NULL,
                             "a budget names a team or a project: give "
                             "\"team\" or \"project\"");
    const char *name = have_team ? team : project;
    if (!name[0])
        return gp_jdoc_error(d, have_team ? "team" : "project",
                             "expected a name, got \"\"");
    if ((st = gp_jdoc_number(d, jb, "monthly", true, &b->monthly, NULL)) !=
        GP_OK)
        return st;
    if (!(b->monthly > 0) || b->monthly > MAX_MONTHLY)
        return gp_jdoc_error(d, "monthly",
                             "expected an amount above 0 a month (at most "
                             "%g), got %g",
                             MAX_MONTHLY, b->monthly);
    b->by_project = have_project;
    if (!(b->name = gp_strdup(name)))
        return gp_jdoc_nomem(d);
    return GP_OK;
}

gp_status gp_scenario_parse_budgets(gp_jdoc *d, const json_t *root,
                                    gp_scenario *s)
{
    json_t *ja, *v;
    size_t i;
    gp_status st = gp_jdoc_array(d, root, "budgets", false, &ja);

    if (st != GP_OK || !ja || json_array_size(ja) == 0)
        return st;
    gp_jdoc_push_key(d, "budgets");
    if (json_array_size(ja) > MAX_BUDGETS)
        return gp_jdoc_error(d, NULL, "at most %d budgets, got %zu",
                             MAX_BUDGETS, json_array_size(ja));
    s->budgets = gp_calloc(json_array_size(ja), sizeof *s->budgets);
    if (!s->budgets)
        return gp_jdoc_nomem(d);
    json_array_foreach(ja, i, v) {
        gp_jdoc_push_index(d, i);
        st = parse_one(d, v, &s->budgets[i]);
        if (st != GP_OK)
            return st;
        s->n_budgets++;
        for (size_t k = 0; k < i; k++) {
            const gp_budget *a = &s->budgets[k], *b = &s->budgets[i];
            if (a->by_project == b->by_project && strcmp(a->name, b->name) == 0)
                return gp_jdoc_error(d, b->by_project ? "project" : "team",
                                     "%s \"%s\" has two budgets (also "
                                     "budgets[%zu])",
                                     b->by_project ? "project" : "team",
                                     b->name, k);
        }
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    return GP_OK;
}
