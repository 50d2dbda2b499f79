/*
 * import_offer_catalog.c: the catalog `gpuplan import aws-offer` builds,
 * written out: the savings-plan rates put on their types, the catalog JSON
 * of the types with an on-demand price (sorted by name), and the summary.
 * See docs/design/import_pricing.md.
 */
#include "import_pricing_internal.h"

#include <stdlib.h>
#include <string.h>

/* Puts the savings-plan rates on their types; rates of other regions or of
 * types without an on-demand price are skipped (and counted). */
static gp_status offer_apply_plans(offer_ctx *x, unsigned long *unused,
                                   gp_error *err)
{
    for (size_t i = 0; i < x->n_plans; i++) {
        const plan_rate *p = &x->plans[i];
        uint32_t at;
        offer_type *t;
        int term = p->term == 3;

        if (strcmp(p->region, x->region) != 0 ||
            !gp_strmap_get(&x->type_index, p->type, strlen(p->type), &at) ||
            !x->types[at].have_on_demand) {
            (*unused)++;
            for (size_t k = 0; k < x->n_files; k++)
                if (x->files[k].source == p->source)
                    x->files[k].unused_plans++;
            continue;
        }
        t = &x->types[at];
        if (t->have_plan[p->kind][term][p->payment] &&
            fabs(t->plan[p->kind][term][p->payment] - p->rate) > 1e-12) {
            gp_error_set(err, p->source, p->line, p->column, "DiscountedRate",
                         "a second %d-year %s %s rate for %s: %.10g here, "
                         "%.10g before",
                         p->term, gp_payment_name((gp_payment)p->payment),
                         gp_plan_kind_name((gp_plan_kind)p->kind), p->type,
                         p->rate, t->plan[p->kind][term][p->payment]);
            return GP_ERR_INPUT;
        }
        t->have_plan[p->kind][term][p->payment] = true;
        t->plan[p->kind][term][p->payment] = p->rate;
    }
    return GP_OK;
}

/* Orders types by name. */
static int type_cmp(const void *a, const void *b)
{
    return strcmp(((const offer_type *)a)->name, ((const offer_type *)b)->name);
}

/* Adds type t's reserved offers to `reserved`; an offer without the rows
 * its payment implies, or with a charge its payment has none of, is left
 * out and counted in *incomplete. */
static void offer_reserved_json(const offer_type *t, json_t *reserved,
                                unsigned long *incomplete)
{
    for (int term = 0; term < 2; term++)
        for (int pay = 0; pay < 3; pay++) {
            const offer_reserved *r = &t->reserved[term][pay];
            json_t *o;
            /* an offer needs the rows its payment implies */
            bool complete = pay == GP_NO_UPFRONT ? r->have_hourly
                            : pay == GP_ALL_UPFRONT
                                ? r->have_upfront
                                : r->have_hourly && r->have_upfront;
            if (!r->have_hourly && !r->have_upfront)
                continue;
            if (!complete || (pay == GP_ALL_UPFRONT && r->hourly != 0) ||
                (pay == GP_NO_UPFRONT && r->upfront != 0)) {
                (*incomplete)++;
                continue;
            }
            o = json_object();
            json_object_set_new(o, "term_years", json_integer(term ? 3 : 1));
            json_object_set_new(o, "payment",
                                json_string(gp_payment_name((gp_payment)pay)));
            json_object_set_new(o, "hourly", json_real(r->hourly));
            json_object_set_new(o, "upfront", json_real(r->upfront));
            json_object_set_new(o, "estimate", json_false());
            json_array_append_new(reserved, o);
        }
}

/* Adds type t's savings-plan rates to `plans`. */
static void offer_plans_json(const offer_type *t, json_t *plans)
{
    for (int kind = 0; kind < 2; kind++)
        for (int term = 0; term < 2; term++)
            for (int pay = 0; pay < 3; pay++) {
                json_t *o;
                if (!t->have_plan[kind][term][pay])
                    continue;
                o = json_object();
                json_object_set_new(
                    o, "kind",
                    json_string(gp_plan_kind_name((gp_plan_kind)kind)));
                json_object_set_new(o, "term_years",
                                    json_integer(term ? 3 : 1));
                json_object_set_new(
                    o, "payment",
                    json_string(gp_payment_name((gp_payment)pay)));
                json_object_set_new(o, "hourly",
                                    json_real(t->plan[kind][term][pay]));
                json_object_set_new(o, "estimate", json_false());
                json_array_append_new(plans, o);
            }
}

/* The catalog entry of type t (which has an on-demand price); reserved
 * offers left out are counted in *incomplete.  A new reference, or NULL
 * when out of memory. */
static json_t *offer_type_json(const offer_type *t, unsigned long *incomplete)
{
    json_t *jt = json_object(), *reserved = json_array(), *plans = json_array();

    if (!jt || !reserved || !plans) {
        json_decref(jt);
        json_decref(reserved);
        json_decref(plans);
        return NULL;
    }
    json_object_set_new(jt, "family", json_string(t->family));
    json_object_set_new(jt, "gpus", json_integer(t->gpus));
    if (t->vcpus > 0)
        json_object_set_new(jt, "vcpus", json_real(t->vcpus));
    if (t->memory_gib > 0)
        json_object_set_new(jt, "memory_gib", json_real(t->memory_gib));
    if (t->normalization > 0)
        json_object_set_new(jt, "normalization_factor",
                            json_real(t->normalization));
    json_object_set_new(jt, "on_demand", json_real(t->on_demand));
    offer_reserved_json(t, reserved, incomplete);
    offer_plans_json(t, plans);
    if (json_array_size(reserved))
        json_object_set_new(jt, "reserved", reserved);
    else
        json_decref(reserved);
    if (json_array_size(plans))
        json_object_set_new(jt, "savings_plans", plans);
    else
        json_decref(plans);
    return jt;
}

/* Builds the catalog JSON of the types that have an on-demand price. */
static json_t *offer_catalog(offer_ctx *x, unsigned long *incomplete)
{
    json_t *root = json_object(), *types = json_object(),
           *sources = json_array();

    if (!root || !types || !sources) {
        json_decref(root);
        json_decref(types);
        json_decref(sources);
        return NULL;
    }
    json_object_set_new(root, "schema", json_string("gpuplan-catalog/1"));
    json_object_set_new(root, "provider", json_string("aws"));
    json_object_set_new(root, "region", json_string(x->region));
    json_object_set_new(root, "currency", json_string(x->currency));
    json_object_set_new(root, "as_of", json_string(x->as_of));
    for (size_t i = 0; i < x->n_sources; i++)
        json_array_append_new(sources, json_string(x->sources[i]));
    json_object_set_new(root, "sources", sources);
    json_object_set_new(root, "instance_types", types);
    if (x->n_types > 1)
        qsort(x->types, x->n_types, sizeof *x->types, type_cmp);
    for (size_t i = 0; i < x->n_types; i++) {
        const offer_type *t = &x->types[i];
        json_t *jt;
        if (!t->have_on_demand) {
            (*incomplete)++;
            continue;
        }
        if (!(jt = offer_type_json(t, incomplete))) {
            json_decref(root);
            return NULL;
        }
        json_object_set_new(types, t->name, jt);
    }
    return root;
}

/* Writes a JSON document to out, as catalogs are written. */
gp_status gp_import_write_catalog(const json_t *root, FILE *out, gp_error *err)
{
    gp_status st = gp_json_write(root, JSON_INDENT(2) | JSON_REAL_PRECISION(15),
                                 out, NULL, err);
    if (st == GP_ERR_IO)
        gp_error_set(err, "", 0, 0, NULL, "cannot write the catalog");
    return st;
}

/* The summary of a catalog from several price lists: what it holds, then
 * each file's counts under its own name (the notes of one file are
 * gp_offer_finish's single line). */
static void offer_notes_by_file(offer_ctx *x, size_t written,
                                unsigned long incomplete)
{
    gp_warnings_add(x->opt->notes,
                    "aws-offer: %s: %zu GPU instance %s from %lu price %s "
                    "in %zu files; %lu incomplete %s left out",
                    x->region, written, gp_plural(written, "type", "types"),
                    x->offer_rows, gp_plural(x->offer_rows, "row", "rows"),
                    x->n_files, incomplete,
                    gp_plural(incomplete, "type or offer", "types or offers"));
    for (size_t k = 0; k < x->n_files; k++) {
        const offer_file_counts *f = &x->files[k];
        if (f->kind == FILE_OFFER)
            gp_warnings_add(
                x->opt->notes,
                "aws-offer: %s: %lu price %s; skipped %lu %s of non-GPU "
                "types, %lu of types with a share of one GPU (such as g6f), "
                "%lu convertible reserved %s, %lu other %s (other OS, "
                "tenancy, region, capacity)",
                f->source, f->used, gp_plural(f->used, "row", "rows"),
                f->not_gpu, gp_plural(f->not_gpu, "row", "rows"),
                f->fractional, f->convertible,
                gp_plural(f->convertible, "row", "rows"), f->other,
                gp_plural(f->other, "row", "rows"));
        else
            gp_warnings_add(
                x->opt->notes,
                "aws-offer: %s: %lu savings-plan %s used, %lu left out "
                "(types or regions without an on-demand price); skipped %lu "
                "other %s (other usage, operation or unit)",
                f->source, f->used - f->unused_plans,
                gp_plural(f->used - f->unused_plans, "rate", "rates"),
                f->unused_plans, f->other, gp_plural(f->other, "row", "rows"));
    }
}

/* Turns what was read into the catalog on out. */
gp_status gp_offer_finish(offer_ctx *x, FILE *out, gp_error *err)
{
    unsigned long unused_plans = 0, incomplete = 0;
    json_t *root;
    gp_status st;
    char list[256] = "";
    size_t written;

    if (x->n_regions > 1 && !(x->opt->region && x->opt->region[0])) {
        size_t k = x->n_regions < MAX_REGIONS_LISTED ? x->n_regions
                                                     : MAX_REGIONS_LISTED;
        for (size_t i = 0; i < k; i++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
                     x->regions_seen[i]);
        }
        gp_error_set(err, x->source, 0, 0, NULL,
                     "prices for %s%zu regions (%s%s); a catalog is one "
                     "region: choose it with " GP_PARAM_TEXT("region"),
                     x->n_regions > MAX_REGIONS_LISTED ? "more than " : "", k,
                     list,
                     x->n_regions > MAX_REGIONS_LISTED ? ", ..." : "");
        return GP_ERR_INPUT;
    }
    if (x->opt->region && x->opt->region[0])
        snprintf(x->region, sizeof x->region, "%s", x->opt->region);
    else if (x->n_regions == 1)
        snprintf(x->region, sizeof x->region, "%s", x->regions_seen[0]);
    if (x->n_types == 0) {
        gp_error_set(err, x->source, 0, 0, NULL,
                     "no GPU instance prices%s%s: %s%lu %s %s a Linux, "
                     "shared-tenancy, on-demand or standard reserved price "
                     "of a type with a GPU column of 1 or more",
                     x->region[0] ? " for " : "", x->region,
                     gp_plural(x->rows, "the ", "of "), x->rows,
                     gp_plural(x->rows, "row", "rows"),
                     gp_plural(x->rows, "is not", "none is"));
        return GP_ERR_INPUT;
    }
    if ((st = offer_apply_plans(x, &unused_plans, err)) != GP_OK)
        return st;
    if (!(root = offer_catalog(x, &incomplete)))
        return GP_ERR_NOMEM;
    if (json_object_size(json_object_get(root, "instance_types")) == 0) {
        json_decref(root);
        gp_error_set(err, x->source, 0, 0, NULL,
                     "no on-demand price for %s %zu GPU %s found (a "
                     "catalog needs one per type)",
                     gp_plural(x->n_types, "the", "any of the"), x->n_types,
                     gp_plural(x->n_types, "type", "types"));
        return GP_ERR_INPUT;
    }
    st = gp_import_write_catalog(root, out, err);
    written = json_object_size(json_object_get(root, "instance_types"));
    json_decref(root);
    if (st == GP_OK && x->opt->notes && x->n_files > 1)
        offer_notes_by_file(x, written, incomplete);
    else if (st == GP_OK && x->opt->notes)
        gp_warnings_add(
            x->opt->notes,
            "aws-offer: %s: %zu GPU instance %s from %lu price %s; skipped "
            "%lu %s of non-GPU types, %lu of types with a share of one GPU "
            "(such as g6f), %lu convertible reserved %s, %lu other %s (other "
            "OS, tenancy, region, capacity), %lu savings-plan %s of types or "
            "regions without an on-demand price, %lu incomplete %s",
            x->region, written, gp_plural(written, "type", "types"),
            x->offer_rows, gp_plural(x->offer_rows, "row", "rows"), x->not_gpu,
            gp_plural(x->not_gpu, "row", "rows"), x->fractional, x->convertible,
            gp_plural(x->convertible, "row", "rows"), x->other_rows,
            gp_plural(x->other_rows, "row", "rows"), unused_plans,
            gp_plural(unused_plans, "rate", "rates"), incomplete,
            gp_plural(incomplete, "type or offer", "types or offers"));
    return st;
}
