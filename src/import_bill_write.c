/*
 * import_bill_write.c: what a bill adds up to, written out: the trace CSV
 * (one row per pool and charge period), the commitments it shows as owned
 * as a scenario (the commitments-out file) and the one-line notes for the
 * user.
 * See docs/design/import_billing.md.
 */
#include "import_bill_internal.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>

/* The last path component of a file name, for messages and sources. */
static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

/* The files of the bill for the summary and the scenario's name:
 * "cur.csv", "cur-1.csv and cur-2.csv", "cur-1.csv and 2 other files". */
static void bill_label(const bill *b, char *buf, size_t size)
{
    if (b->n_parts <= 1)
        snprintf(buf, size, "%s", base_name(b->parts[0]));
    else if (b->n_parts == 2)
        snprintf(buf, size, "%s and %s", base_name(b->parts[0]),
                 base_name(b->parts[1]));
    else
        snprintf(buf, size, "%s and %zu other files", base_name(b->parts[0]),
                 b->n_parts - 1);
}

/* Orders trace rows by time, then pool. */
static int cell_cmp(const void *pa, const void *pb)
{
    const usage_cell *a = pa, *b = pb;
    int c;

    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if ((c = strcmp(a->provider, b->provider)) != 0 ||
        (c = strcmp(a->region, b->region)) != 0 ||
        (c = strcmp(a->type, b->type)) != 0)
        return c;
    return a->step < b->step ? -1 : a->step > b->step;
}

/* Writes the trace CSV: one row per pool and charge period. */
static gp_status bill_write_trace(bill *b, FILE *out, gp_error *err)
{
    char when[32], num[32];

    if (b->n_cells > 1)
        qsort(b->cells, b->n_cells, sizeof *b->cells, cell_cmp);
    fputs("timestamp,step_s,provider,region,instance_type,instances\n", out);
    for (size_t i = 0; i < b->n_cells; i++) {
        const usage_cell *c = &b->cells[i];
        gp_format_time(c->start, when, sizeof when);
        gp_json_format_number(c->hours / ((double)c->step / 3600.0), num,
                              sizeof num);
        fprintf(out, "%s,%lld,%s,%s,%s,%s\n", when, (long long)c->step,
                c->provider, c->region, c->type, num);
    }
    if (fflush(out) != 0 || ferror(out)) {
        gp_error_set(err, "", 0, 0, NULL, "cannot write the trace: %s",
                     strerror(errno));
        return GP_ERR_IO;
    }
    return GP_OK;
}

/* Works out each commitment's peaks per clock hour. */
static void bill_peaks(bill *b)
{
    for (size_t i = 0; i < b->n_hours; i++) {
        owned *o = &b->owned[b->hours[i].owner];
        if (b->hours[i].hours > o->peak_hours)
            o->peak_hours = b->hours[i].hours;
        if (b->hours[i].dollars > o->peak_dollars)
            o->peak_dollars = b->hours[i].dollars;
    }
}

/* Rounds money to a tenth of a cent... of a cent: 1e-6 dollars. */
static double round6(double v)
{
    return round(v * 1e6) / 1e6;
}

/* Commitment o's size in a scenario: reservations' count, savings plans'
 * hourly commitment; 0 when the bill does not show it. */
static double owned_size(const owned *o)
{
    if (o->type == GP_COMMIT_RESERVED)
        return o->count > 0 ? o->count : ceil(o->peak_hours - 1e-9);
    return round6(o->hourly > 0 ? o->hourly : o->peak_dollars);
}

/* Why commitment o cannot go into the scenario, as "the bill shows ...";
 * NULL when it can. */
static const char *owned_left_out(const owned *o)
{
    bool sized = owned_size(o) > 0;
    /* its start is the bill's, else the first hour charged to it: with
     * neither (a CUR fee row sized it, with no start time) there is none */
    bool dated = o->start_known || o->first_hour != INT64_MAX;

    if (sized && dated &&
        !(o->type == GP_COMMIT_RESERVED && !o->instance_type[0]) &&
        !(o->type == GP_COMMIT_SAVINGS_PLAN && o->kind == GP_PLAN_FAMILY &&
          (!o->family[0] || !o->region[0])))
        return NULL;
    if (o->unpriced && o->covered_hours == 0)
        return "it covering only types the catalogs do not price";
    if (sized && !dated)
        return "neither its start nor an hour charged to it";
    /* a reservation is sized by the usage it covered (or a CUR count): a
     * fee alone may have been charged, but says neither */
    if (o->type == GP_COMMIT_RESERVED || sized)
        return "no instance usage it covered";
    return "nothing charged to it, so its size is unknown";
}

/* Sets on scenario entry c what commitment o is: its type, kind, provider,
 * region, and instance type and count of `size`, or family and hourly
 * commitment of `size`; a kind the bill does not show goes on `assumed`. */
static void owned_what(json_t *c, json_t *assumed, const owned *o, double size)
{
    json_object_set_new(c, "type",
                        json_string(o->type == GP_COMMIT_RESERVED
                                        ? "reserved"
                                        : "savings_plan"));
    if (o->type == GP_COMMIT_SAVINGS_PLAN) {
        json_object_set_new(c, "kind", json_string(gp_plan_kind_name(o->kind)));
        if (!o->kind_known)
            json_array_append_new(assumed, json_string("kind"));
    }
    json_object_set_new(c, "provider", json_string(o->provider));
    if (o->type == GP_COMMIT_RESERVED ||
        (o->kind == GP_PLAN_FAMILY && o->region[0]))
        json_object_set_new(c, "region", json_string(o->region));
    if (o->type == GP_COMMIT_RESERVED) {
        json_object_set_new(c, "instance_type", json_string(o->instance_type));
        json_object_set_new(c, "count", json_integer((json_int_t)size));
    } else {
        if (o->kind == GP_PLAN_FAMILY)
            json_object_set_new(c, "family", json_string(o->family));
        json_object_set_new(c, "hourly_commitment", json_real(size));
    }
}

/* Sets on scenario entry c the terms of commitment o (term, payment,
 * start), its id and what it covered; the terms the bill does not show go
 * on `assumed`, which c takes when it is not empty (else it is freed). */
static void owned_terms(json_t *c, json_t *assumed, const owned *o)
{
    char when[32];

    json_object_set_new(c, "term_years", json_integer(o->term_years));
    json_object_set_new(c, "payment", json_string(gp_payment_name(o->payment)));
    gp_format_time(o->start_known ? o->start : o->first_hour * 3600, when,
                   sizeof when);
    json_object_set_new(c, "start", json_string(when));
    if (!o->term_known)
        json_array_append_new(assumed, json_string("term_years"));
    if (!o->payment_known)
        json_array_append_new(assumed, json_string("payment"));
    if (!o->start_known)
        json_array_append_new(assumed, json_string("start"));
    json_object_set_new(c, "id", json_string(o->id));
    json_object_set_new(c, "covered_instance_hours",
                        json_real(round6(o->covered_hours)));
    json_object_set_new(c, "covered_on_demand_cost",
                        json_real(round6(o->covered_cost)));
    if (json_array_size(assumed) > 0)
        json_object_set_new(c, "assumed", assumed);
    else
        json_decref(assumed);
}

/* Builds the scenario object for the commitments that can be sized; adds
 * a note for each that cannot. */
static json_t *bill_scenario(bill *b, const gp_import_options *opt)
{
    json_t *root = json_object(), *list = json_array();
    char label[200], name[240];

    if (!root || !list) {
        json_decref(root);
        json_decref(list);
        return NULL;
    }
    bill_label(b, label, sizeof label);
    snprintf(name, sizeof name, "owned commitments from %s", label);
    json_object_set_new(root, "schema", json_string("gpuplan-scenario/1"));
    json_object_set_new(root, "name", json_string(name));
    json_object_set_new(root, "commitments", list);
    for (size_t i = 0; i < b->n_owned; i++) {
        const owned *o = &b->owned[i];
        json_t *c = json_object(), *assumed = json_array();
        double size = owned_size(o);
        const char *why = owned_left_out(o);
        if (!c || !assumed) {
            json_decref(c);
            json_decref(assumed);
            json_decref(root);
            return NULL;
        }
        owned_what(c, assumed, o, size);
        if (why) {
            if (opt->notes)
                gp_warnings_add(opt->notes,
                                "%s: commitment %s left out: the bill shows %s",
                                label, o->id, why);
            json_decref(c);
            json_decref(assumed);
            continue;
        }
        owned_terms(c, assumed, o);
        json_array_append_new(list, c);
    }
    return root;
}

/* gp_write_atomic's callback: dumps the scenario. */
struct scenario_out {
    const json_t *doc;
    const char *path;
    gp_error *err;
};

static gp_status write_json(FILE *f, void *ctx)
{
    const struct scenario_out *o = ctx;
    return gp_json_write(o->doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15), f,
                         o->path, o->err);
}

/* The error for a bill without a compute instance-hour row: like the
 * telemetry importers', named by the first file. */
static gp_status bill_none_imported(const bill *b, const char *expected,
                                    gp_error *err)
{
    char files[40] = "";

    if (b->n_parts > 1)
        snprintf(files, sizeof files, " of %zu files", b->n_parts);
    gp_error_set(err, b->parts[0], 0, 0, NULL,
                 "no compute instance-hour rows among %lu %s%s "
                 "(expected %s)",
                 b->rows, gp_plural(b->rows, "row", "rows"), files, expected);
    return GP_ERR_INPUT;
}

/* Adds the summary note of bill b (named `label`) to notes: its rows, the
 * ones imported, and the ones skipped and why. */
static void bill_note_summary(const bill *b, const char *label,
                              gp_warnings *notes)
{
    char names[500] = "";
    for (size_t i = 0; i < b->n_unpriced_names; i++) {
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s",
                 i ? ", " : " (such as ", b->unpriced_names[i]);
    }
    if (names[0])
        strncat(names,
                ": not GPU types, or add their catalog with "
                GP_PARAM_TEXT("pricing") ")",
                sizeof names - strlen(names) - 1);
    /* "(1 of them spot)" when several were imported; one row is
     * "(spot)" or "(not spot)" */
    char spot[40];
    if (b->imported == 1)
        snprintf(spot, sizeof spot, "%s", b->spot ? "spot" : "not spot");
    else
        snprintf(spot, sizeof spot, "%lu of them spot", b->spot);
    gp_warnings_add(notes,
                    "%s: %lu %s: %lu compute instance-hour %s imported "
                    "(%s); skipped %lu not usage, %lu not "
                    "instance-hours, %lu from providers gpuplan does not "
                    "price, %lu of types the catalogs do not price in "
                    "their region%s",
                    label, b->rows, gp_plural(b->rows, "row", "rows"),
                    b->imported, gp_plural(b->imported, "row", "rows"), spot,
                    b->not_usage, b->not_instance_hours, b->other_provider,
                    b->unpriced, names);
}

/* Writes the owned commitments of bill b as a scenario to
 * opt->commitments_out (atomically). */
static gp_status bill_write_scenario(bill *b, const gp_import_options *opt,
                                     gp_error *err)
{
    gp_status st;
    json_t *scenario = bill_scenario(b, opt);

    if (!scenario)
        return GP_ERR_NOMEM;
    struct scenario_out o = {scenario, opt->commitments_out, err};
    st = gp_write_atomic(opt->commitments_out, write_json, &o, err);
    json_decref(scenario);
    return st;
}

/* Adds a note per owned commitment of bill b (named `label`) to
 * opt->notes: what it covered. */
static void bill_note_owned(const bill *b, const char *label,
                            const gp_import_options *opt)
{
    for (size_t i = 0; i < b->n_owned; i++) {
        const owned *o = &b->owned[i];
        /* its usage is not in the trace, so "covered 0 instance-hours"
         * would deny what the bill shows; when it is left out of
         * the commitments-out file, that note (bill_scenario) says so */
        if (o->unpriced && o->covered_hours == 0) {
            if (!opt->commitments_out || !owned_left_out(o))
                gp_warnings_add(opt->notes,
                                "%s: owned %s %s covered only types the "
                                "catalogs do not price",
                                label,
                                o->type == GP_COMMIT_RESERVED ? "reservation"
                                                              : "savings plan",
                                o->id);
            continue;
        }
        gp_warnings_add(opt->notes,
                        "%s: owned %s %s covered %.6g instance-hour%s "
                        "worth %.2f at on-demand rates",
                        label,
                        o->type == GP_COMMIT_RESERVED ? "reservation"
                                                      : "savings plan",
                        o->id, o->covered_hours,
                        o->covered_hours == 1 ? "" : "s", o->covered_cost);
    }
}

/* Writes the trace, the owned commitments (when asked) and the summary. */
gp_status gp_bill_finish(bill *b, const char *expected,
                         const gp_import_options *opt, FILE *out, gp_error *err)
{
    gp_status st;
    char label[200];

    if (b->imported == 0)
        return bill_none_imported(b, expected, err);
    bill_label(b, label, sizeof label);
    bill_peaks(b);
    if (opt->notes)
        bill_note_summary(b, label, opt->notes);
    if (opt->commitments_out &&
        (st = bill_write_scenario(b, opt, err)) != GP_OK)
        return st;
    if ((st = bill_write_trace(b, out, err)) != GP_OK)
        return st;
    if (opt->notes)
        bill_note_owned(b, label, opt);
    return GP_OK;
}
