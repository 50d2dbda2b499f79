/*
 * scenario_check.c: a scenario's commitments checked against the loaded
 * catalogs (gp_scenario_check): every provider, region, instance type,
 * family, term and payment a commitment names must be on sale there, and
 * an upfront it states should be the one the run bills.  Errors point into
 * the scenario's text.  See docs/design/scenario.md.
 */
#include "scenario_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- checking against the catalogs -------------------------------------- */

/* Whether some catalog matches provider and region ("" = any). */
static bool have_catalog(const gp_pricing *p, const char *provider,
                         const char *region)
{
    for (size_t i = 0; p && i < p->n_catalogs; i++) {
        const gp_catalog *c = p->catalogs[i];
        if ((!provider[0] || strcmp(c->provider, provider) == 0) &&
            (!region[0] || strcmp(c->region, region) == 0))
            return true;
    }
    return false;
}

/* Whether catalog c prices instance type `name`. */
static bool catalog_has(const gp_catalog *c, const char *name)
{
    for (size_t i = 0; i < c->n_types; i++)
        if (strcmp(c->types[i].name, name) == 0)
            return true;
    return false;
}

/* Checks that the provider and region a commitment names (those it names)
 * have catalogs. */
static gp_status check_place(gp_jdoc *d, const gp_pricing *p,
                             const gp_commitment *c)
{
    char quoted[160];

    if (c->provider[0] && !have_catalog(p, c->provider, ""))
        return gp_jdoc_error(d, "provider",
                             "no catalog for provider \"%s\" is loaded",
                             c->provider);
    if (c->region[0] && !have_catalog(p, c->provider, c->region)) {
        if (c->provider[0])
            return gp_jdoc_error(
                d, "region", "no catalog for %s region %s is loaded",
                c->provider, gp_json_quote(c->region, quoted, sizeof quoted));
        return gp_jdoc_error(d, "region", "no catalog for region %s is loaded",
                             gp_json_quote(c->region, quoted, sizeof quoted));
    }
    return GP_OK;
}

/* Checks a reservation: its type is priced, in one catalog only, with a
 * reserved offer of its term and payment. */
static gp_status check_reserved(gp_jdoc *d, const gp_pricing *p,
                                const gp_commitment *c)
{
    const gp_catalog *cat = NULL;
    const gp_instance_type *t;
    bool ambiguous = false, term_known = false;
    char quoted[160], list[512];
    size_t used = 0;
    gp_status st = check_place(d, p, c);

    if (st != GP_OK)
        return st;
    gp_json_quote(c->instance_type, quoted, sizeof quoted);
    t = gp_pricing_find(p, c->provider, c->region, c->instance_type, &cat,
                        &ambiguous);
    if (!t && ambiguous) {
        /* name the catalogs that have it */
        list[0] = '\0';
        for (size_t i = 0; p && i < p->n_catalogs; i++) {
            const gp_catalog *o = p->catalogs[i];
            int w;
            if ((c->provider[0] && strcmp(o->provider, c->provider) != 0) ||
                (c->region[0] && strcmp(o->region, c->region) != 0) ||
                !catalog_has(o, c->instance_type) || used >= sizeof list)
                continue;
            w = snprintf(list + used, sizeof list - used, "%s%s %s",
                         used ? ", " : "", o->provider, o->region);
            if (w > 0)
                used += (size_t)w;
        }
        return gp_jdoc_error(d, "instance_type",
                             "instance type %s is in several catalogs (%s); "
                             "give provider and region",
                             quoted, list);
    }
    if (!t) {
        bool elsewhere = false;
        if ((c->provider[0] || c->region[0]) &&
            (gp_pricing_find(p, NULL, NULL, c->instance_type, NULL,
                             &elsewhere) ||
             elsewhere)) {
            char scope[64];
            snprintf(scope, sizeof scope, "%s%s%s", c->provider,
                     c->provider[0] && c->region[0] ? " " : "", c->region);
            return gp_jdoc_error(d, "instance_type",
                                 "instance type %s is not in the catalog "
                                 "for %s",
                                 quoted, scope);
        }
        gp_pricing_suggest(p, c->instance_type, list, sizeof list, 3);
        if (list[0])
            return gp_jdoc_error(d, "instance_type",
                                 "unknown instance type %s (nearest: %s)",
                                 quoted, list);
        return gp_jdoc_error(d, "instance_type", "unknown instance type %s",
                             quoted);
    }
    for (size_t i = 0; i < t->n_reserved; i++) {
        if (t->reserved[i].term_years == c->term_years) {
            term_known = true;
            if (t->reserved[i].payment == c->payment)
                return GP_OK;
        }
    }
    if (t->n_reserved == 0)
        return gp_jdoc_error(d, "instance_type",
                             "%s has no reserved offers in %s %s", t->name,
                             cat->provider, cat->region);
    list[0] = '\0';
    for (size_t i = 0; i < t->n_reserved && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%d-year %s",
                         i ? ", " : "", t->reserved[i].term_years,
                         gp_payment_name(t->reserved[i].payment));
        if (w > 0)
            used += (size_t)w;
    }
    return gp_jdoc_error(d, term_known ? "payment" : "term_years",
                         "%s has no %d-year %s reserved offer in %s %s "
                         "(offers: %s)",
                         t->name, c->term_years, gp_payment_name(c->payment),
                         cat->provider, cat->region, list);
}

/* The distinct terms and payments of a plan's kind in its scope, for the
 * errors at term_years and payment, sorted by term and then payment ("1-year
 * no_upfront, 1-year all_upfront"). */
#define PLAN_OFFERS_MAX 32
typedef struct plan_offers {
    size_t n;
    struct {
        int term_years;
        gp_payment payment;
    } o[PLAN_OFFERS_MAX];
} plan_offers;

/* Adds an offer's term and payment to po in their place, unless po has
 * them already or is full. */
static void plan_offers_add(plan_offers *po, const gp_plan_offer *offer)
{
    size_t at = 0;

    while (at < po->n && (po->o[at].term_years < offer->term_years ||
                          (po->o[at].term_years == offer->term_years &&
                           po->o[at].payment < offer->payment)))
        at++;
    if ((at < po->n && po->o[at].term_years == offer->term_years &&
         po->o[at].payment == offer->payment) ||
        po->n == PLAN_OFFERS_MAX)
        return;
    memmove(&po->o[at + 1], &po->o[at], (po->n - at) * sizeof po->o[0]);
    po->o[at].term_years = offer->term_years;
    po->o[at].payment = offer->payment;
    po->n++;
}

/* What the catalogs hold for a savings plan that none of them sells
 * (plan_search_run), for check_plan's errors: what its provider sells
 * anywhere, and what there is in the plan's scope. */
typedef struct plan_search {
    bool any_plan;      /* the provider sells some savings plan */
    bool kind_sold;     /* ... some of the plan's kind */
    bool reserved_sold; /* ... some reservation */
    bool family_seen;   /* the scope has a type (of the plan's family) */
    bool term_known;    /* ... with a plan rate of its kind and term */
    plan_offers offers; /* ... the terms and payments of its kind */
} plan_search;

/* Looks for a plan rate of c's kind, term and payment in the catalogs of
 * its provider, in where's region if it has one; true when there is one,
 * else false with ps filled in. */
static bool plan_search_run(const gp_pricing *p, const gp_commitment *c,
                            const gp_commitment *where, plan_search *ps)
{
    for (size_t i = 0; p && i < p->n_catalogs; i++) {
        const gp_catalog *cat = p->catalogs[i];
        if (strcmp(cat->provider, c->provider) != 0)
            continue;
        /* what the provider sells anywhere, for the errors below */
        for (size_t j = 0; j < cat->n_types; j++) {
            const gp_instance_type *t = &cat->types[j];
            ps->reserved_sold = ps->reserved_sold || t->n_reserved > 0;
            ps->any_plan = ps->any_plan || t->n_plans > 0;
            for (size_t k = 0; k < t->n_plans; k++)
                ps->kind_sold = ps->kind_sold || t->plans[k].kind == c->kind;
        }
        if (where->region[0] && strcmp(cat->region, c->region) != 0)
            continue;
        for (size_t j = 0; j < cat->n_types; j++) {
            const gp_instance_type *t = &cat->types[j];
            if (c->kind == GP_PLAN_FAMILY && strcmp(t->family, c->family) != 0)
                continue;
            ps->family_seen = true;
            for (size_t k = 0; k < t->n_plans; k++) {
                if (t->plans[k].kind == c->kind)
                    plan_offers_add(&ps->offers, &t->plans[k]);
                if (t->plans[k].kind != c->kind ||
                    t->plans[k].term_years != c->term_years)
                    continue;
                ps->term_known = true;
                if (t->plans[k].payment == c->payment)
                    return true;
            }
        }
    }
    return false;
}

/* The error for a savings plan whose provider sells no savings plans, or
 * none of its kind, in the loaded catalogs (at `type` or `kind`); GP_OK
 * when it sells some of its kind. */
static gp_status plan_not_sold(gp_jdoc *d, const gp_commitment *c,
                               const plan_search *ps)
{
    if (!ps->any_plan && strcmp(c->provider, "gcp") == 0 && ps->reserved_sold)
        return gp_jdoc_error(d, "type",
                             "gcp sells no savings plans in the loaded "
                             "catalogs: its committed use discounts are "
                             "reserved commitments (write \"type\": "
                             "\"reserved\" with an instance_type and count)");
    if (!ps->any_plan)
        return gp_jdoc_error(
            d, "type", "the loaded %s catalogs have no savings plans%s",
            c->provider,
            ps->reserved_sold ? " (write \"type\": \"reserved\" with an "
                                "instance_type and count)"
                              : " or reserved offers (add the plan's rates "
                                "to their types' savings_plans)");
    if (!ps->kind_sold && c->kind == GP_PLAN_FAMILY)
        return gp_jdoc_error(d, "kind",
                             "the loaded %s catalogs have no instance_family "
                             "savings plans, only compute ones (write "
                             "\"kind\": \"compute\", which covers every "
                             "family and region)",
                             c->provider);
    if (!ps->kind_sold)
        return gp_jdoc_error(d, "kind",
                             "the loaded %s catalogs have no compute savings "
                             "plans, only instance_family ones (write "
                             "\"kind\": \"instance_family\" with a region and "
                             "family)",
                             c->provider);
    return GP_OK;
}

/* The error for a savings plan of a kind its provider sells but not in
 * its family, term or payment: at `family` when the family has no types
 * or no plan rates in the region, else at `term_years` or `payment` with
 * the terms and payments there are. */
static gp_status plan_not_offered(gp_jdoc *d, const gp_commitment *c,
                                  const plan_search *ps)
{
    char quoted[160], scope[96], list[512];

    if (c->kind == GP_PLAN_FAMILY && !ps->family_seen)
        return gp_jdoc_error(d, "family",
                             "no instance type of family %s in %s %s",
                             gp_json_quote(c->family, quoted, sizeof quoted),
                             c->provider, c->region);
    if (c->kind == GP_PLAN_FAMILY)
        snprintf(scope, sizeof scope, "%s type in %s %s", c->family,
                 c->provider, c->region);
    else
        snprintf(scope, sizeof scope, "%s type", c->provider);
    if (ps->offers.n == 0) /* then no term will do: the family has none */
        return gp_jdoc_error(d, "family",
                             "no %s has an instance_family savings plan rate "
                             "of any term or payment",
                             scope);
    size_t used = 0;
    list[0] = '\0';
    for (size_t i = 0; i < ps->offers.n && used < sizeof list; i++) {
        int w = snprintf(list + used, sizeof list - used, "%s%d-year %s",
                         i ? ", " : "", ps->offers.o[i].term_years,
                         gp_payment_name(ps->offers.o[i].payment));
        if (w > 0)
            used += (size_t)w;
    }
    return gp_jdoc_error(d, ps->term_known ? "payment" : "term_years",
                         "no %s has a %d-year %s %s savings plan rate "
                         "(offers: %s)",
                         scope, c->term_years, gp_payment_name(c->payment),
                         gp_plan_kind_name(c->kind), list);
}

/* Checks a savings plan: its provider (and for an instance_family plan its
 * region and family) has catalogs, and some type there has a plan rate of
 * its kind, term and payment.  The error is on the field that is wrong: a
 * provider whose catalogs have no savings plans at all (GCP's committed
 * use discounts are reserved offers) is told at `type`, one without plans
 * of this kind at `kind`, then `term_years` (with the terms and payments
 * there are, as check_reserved gives them; at `family` when its family
 * has no plan rates in the region), then `payment` (with them too). */
static gp_status check_plan(gp_jdoc *d, const gp_pricing *p,
                            const gp_commitment *c)
{
    gp_commitment where = *c;
    plan_search ps = {0};
    gp_status st;

    if (c->kind == GP_PLAN_COMPUTE)
        where.region[0] = '\0'; /* a compute plan spans the regions */
    if ((st = check_place(d, p, &where)) != GP_OK)
        return st;
    if (plan_search_run(p, c, &where, &ps))
        return GP_OK;
    if ((st = plan_not_sold(d, c, &ps)) != GP_OK)
        return st;
    return plan_not_offered(d, c, &ps);
}

/* Whether an upfront stated on a commitment is `upfront` (what the
 * catalogs charge) or, with the scenario's discount, what the run bills:
 * recommend's JSON writes the former at full precision; half a cent
 * allows for one rounded to cents by hand. */
static bool same_upfront(double stated, double upfront)
{
    return fabs(stated - upfront) <= 0.005 + 1e-9 * fabs(upfront);
}

/* Checks one commitment (the current path is its object).  An upfront it
 * states (pasted from recommend's JSON, or written in by hand as a
 * negotiated price) that is not the one the run bills is a warning: prices
 * come from the catalogs, and a user who meant another would not know. */
static gp_status check_commitment(gp_jdoc *d, const gp_pricing *p,
                                  const gp_commitment *c, double discount,
                                  gp_warnings *w)
{
    gp_status st = c->type == GP_COMMIT_RESERVED ? check_reserved(d, p, c)
                                                 : check_plan(d, p, c);
    double per_hour, upfront;
    char stated[32], after[96] = "";

    if (st != GP_OK)
        return st;
    gp_commitment_cash(c, p, &per_hour, &upfront);
    if (c->type == GP_COMMIT_RESERVED && c->has_stated_hourly) {
        double equiv = per_hour + upfront / (c->term_years * 8760.0);
        if (fabs(c->stated_hourly - equiv) > 0.0005 + 1e-9 * equiv) {
            gp_json_format_number(c->stated_hourly, stated, sizeof stated);
            return gp_jdoc_error(d, "hourly_commitment",
                                 "%s is not this reservation's hourly "
                                 "equivalent by the catalogs (%.4f); a "
                                 "reservation's hourly_commitment is only "
                                 "that figure, not a price: remove it, or "
                                 "put a negotiated price in a catalog",
                                 stated, equiv);
        }
    }
    if (!c->has_stated_upfront)
        return GP_OK;
    if (same_upfront(c->stated_upfront, upfront) ||
        same_upfront(c->stated_upfront, upfront * (1 - discount)))
        return GP_OK;
    gp_json_format_number(c->stated_upfront, stated, sizeof stated);
    if (discount > 0 && upfront > 0)
        snprintf(after, sizeof after, "; %.2f after the scenario's discount",
                 upfront * (1 - discount));
    if (c->type == GP_COMMIT_RESERVED)
        gp_jdoc_warning(d, w, "upfront",
                        "%s is not what the catalogs charge upfront for this "
                        "reservation (%.2f%s); the run bills the catalogs' "
                        "price, so put a negotiated one in a catalog",
                        stated, upfront, after);
    else
        gp_jdoc_warning(d, w, "upfront",
                        "%s is not this savings plan's upfront, which "
                        "follows from its hourly_commitment and %s payment "
                        "(%.2f%s); the run bills that",
                        stated, gp_payment_name(c->payment), upfront, after);
    return GP_OK;
}

/* Checks the commitments c[0, n) (the current path is their array); with
 * d->all, goes on past each that fails.  A commitment left zero (its term
 * 0: gp_scenario_load_all could not read it) is not checked. */
static gp_status check_commitments(gp_jdoc *d, const gp_pricing *p,
                                   const gp_commitment *c, size_t n,
                                   double discount, gp_warnings *w)
{
    size_t at = d->depth;
    gp_status st;

    for (size_t i = 0; i < n; i++) {
        gp_jdoc_push_index(d, i);
        st = c[i].term_years ? check_commitment(d, p, &c[i], discount, w)
                             : GP_OK;
        if ((st = gp_jdoc_go_on(d, st, at)) != GP_OK)
            return st;
        d->depth = at;
    }
    return GP_OK;
}

/* Checks every commitment, owned and added by strategies, against the
 * catalogs; errors point into the scenario file.  With `all`, every error
 * goes there (gp_scenario_check_all). */
static gp_status scenario_check(const gp_scenario *s, const gp_pricing *p,
                                gp_warnings *w, gp_error_list *all,
                                gp_error *err)
{
    gp_jdoc d;
    gp_status st;
    size_t first = all ? all->count : 0;

    gp_jdoc_init(&d, s->text, s->text_len, s->path, err);
    d.all = all;
    gp_jdoc_push_key(&d, "commitments");
    st = check_commitments(&d, p, s->commitments, s->n_commitments,
                           s->discount, w);
    /* strategies[k] of the scenario is strategies[k - 1] of the file */
    for (size_t k = 1; st == GP_OK && k < s->n_strategies; k++) {
        const gp_strategy *g = &s->strategies[k];
        d.depth = 0;
        gp_jdoc_push_key(&d, "strategies");
        gp_jdoc_push_index(&d, k - 1);
        gp_jdoc_push_key(&d, "add_commitments");
        st = check_commitments(&d, p, g->add_commitments, g->n_add,
                               s->discount, w);
        d.depth = 2; /* strategies[k - 1] */
        if (st == GP_OK)
            st = gp_jdoc_go_on(&d, gp_scenario_check_levers(&d, p, g), 2);
    }
    if (st == GP_OK && all && all->count > first) {
        *err = all->items[first];
        return GP_ERR_INPUT;
    }
    if (st == GP_OK)
        gp_scenario_warn_policies(&d, s, w);
    return st;
}

gp_status gp_scenario_check(const gp_scenario *s, const gp_pricing *p,
                            gp_warnings *w, gp_error *err)
{
    return scenario_check(s, p, w, NULL, err);
}

gp_status gp_scenario_check_all(const gp_scenario *s, const gp_pricing *p,
                                gp_warnings *w, gp_error_list *all,
                                gp_error *err)
{
    return scenario_check(s, p, w, all, err);
}
