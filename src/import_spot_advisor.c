/*
 * import_spot_advisor.c: `gpuplan import spot-advisor`, the AWS Spot
 * Instance Advisor feed added to a base catalog of the same region as spot
 * estimates (an hourly price from the percent saved, a monthly
 * interruption rate from the advisor's bucket).  See
 * docs/design/import_pricing.md.
 */
#include "import_pricing_internal.h"
#include "source.h"

#include <string.h>

/* ---- Spot Instance Advisor ---------------------------------------------- */

/* The monthly interruption rate a bucket label stands for: the middle of
 * "A-B%", half of "<B%", and five points above ">A%".  False when the
 * label is none of these. */
static bool bucket_rate(const char *label, double *rate)
{
    double a, b;
    char tail;

    if (sscanf(label, "<%lf%c", &b, &tail) == 2 && tail == '%' && b > 0 &&
        b <= 100) {
        *rate = b / 2 / 100;
        return true;
    }
    if (sscanf(label, ">%lf%c", &a, &tail) == 2 && tail == '%' && a >= 0 &&
        a < 95) {
        *rate = (a + 5) / 100;
        return true;
    }
    if (sscanf(label, "%lf-%lf%c", &a, &b, &tail) == 3 && tail == '%' &&
        a >= 0 && b > a && b <= 100) {
        *rate = (a + b) / 2 / 100;
        return true;
    }
    return false;
}

/* A bucket of the feed's `ranges`. */
typedef struct spot_bucket {
    char label[24];
    double rate;
} spot_bucket;

/* Reads `ranges` into buckets (by their index). */
static gp_status advisor_ranges(gp_jdoc *d, const json_t *root,
                                spot_bucket *buckets, size_t max,
                                size_t *n_out)
{
    json_t *ranges, *jr;
    size_t i;
    gp_status st = gp_jdoc_array(d, root, "ranges", true, &ranges);
    char quoted[160];

    if (st != GP_OK)
        return st;
    *n_out = 0;
    gp_jdoc_push_key(d, "ranges");
    json_array_foreach(ranges, i, jr)
    {
        double index;
        const char *label;
        gp_jdoc_push_index(d, i);
        if ((st = gp_jdoc_expect_object(d, jr)) != GP_OK ||
            (st = gp_jdoc_number(d, jr, "index", true, &index, NULL)) !=
                GP_OK ||
            (st = gp_jdoc_check_whole(d, "index", index, 0,
                                      (double)max - 1)) != GP_OK ||
            (st = gp_jdoc_string(d, jr, "label", true, &label, NULL)) != GP_OK)
            return st;
        if (strlen(label) >= sizeof buckets[0].label ||
            !bucket_rate(label, &buckets[(size_t)index].rate))
            return gp_jdoc_error(d, "label",
                                 "expected a bucket such as \"<5%%\", "
                                 "\"10-15%%\" or \">20%%\", got %s",
                                 gp_json_quote(label, quoted, sizeof quoted));
        snprintf(buckets[(size_t)index].label, sizeof buckets[0].label, "%s",
                 label);
        if ((size_t)index + 1 > *n_out)
            *n_out = (size_t)index + 1;
        gp_jdoc_pop(d);
    }
    gp_jdoc_pop(d);
    if (*n_out == 0)
        return gp_jdoc_error(d, "ranges", "no interruption buckets");
    return GP_OK;
}

/* advisor_apply at work: the feed's buckets and its Linux types in the
 * catalog's region, and the counts for the summary. */
typedef struct advisor_run {
    gp_jdoc *d;
    const json_t *linux_types;
    spot_bucket buckets[16];
    size_t n_buckets, listed, kept;
} advisor_run;

/* A type's new spot section: its price history kept when it has one (a
 * price series beats a savings snapshot), else `hourly`; with bucket b's
 * interruption rate, as estimates.  NULL when out of memory. */
static json_t *advisor_spot(json_t *history, double hourly,
                            const spot_bucket *b)
{
    json_t *spot;

    if (history && json_is_string(history)) {
        /* a price series beats a savings snapshot: keep it */
        json_incref(history);
        spot = json_object();
        json_object_set_new(spot, "history", history);
    } else {
        spot = json_object();
        json_object_set_new(spot, "hourly", json_real(hourly));
    }
    if (!spot)
        return NULL;
    json_object_set_new(spot, "interruption_rate_monthly", json_real(b->rate));
    json_object_set_new(spot, "interruption_bucket", json_string(b->label));
    json_object_set_new(spot, "estimate", json_true());
    return spot;
}

/* Sets the spot section of catalog type `key` (jt) from the advisor's
 * entry for it (percent saved `s`, bucket index `r`); a type the advisor
 * does not list keeps its own, and is counted. */
static gp_status advisor_type(advisor_run *r, const char *key, json_t *jt)
{
    gp_jdoc *d = r->d;
    json_t *ja, *spot, *history;
    double saved, index, on_demand, hourly;
    gp_status st;

    if ((st = gp_jdoc_object(d, r->linux_types, key, false, &ja)) != GP_OK)
        return st;
    if (!ja) {
        r->kept++;
        return GP_OK;
    }
    gp_jdoc_push_key(d, key);
    if ((st = gp_jdoc_number(d, ja, "s", true, &saved, NULL)) != GP_OK ||
        (st = gp_jdoc_number(d, ja, "r", true, &index, NULL)) != GP_OK ||
        (st = gp_jdoc_check_whole(d, "r", index, 0,
                                  (double)r->n_buckets - 1)) != GP_OK)
        return st;
    if (saved < 0 || saved >= 100) {
        char num[32];
        gp_json_format_number(saved, num, sizeof num);
        return gp_jdoc_error(
            d, "s", "expected a percent saved in [0, 100), got %s", num);
    }
    if (!r->buckets[(size_t)index].label[0])
        return gp_jdoc_error(d, "r", "no bucket with index %d in ranges",
                             (int)index);
    on_demand = json_number_value(json_object_get(jt, "on_demand"));
    hourly = round6(on_demand * (1 - saved / 100));
    spot = json_object_get(jt, "spot");
    history = spot ? json_object_get(spot, "history") : NULL;
    if (!(history && json_is_string(history)) && !(hourly > 0)) {
        /* a catalog's spot price is above 0 (catalog_spot.c) */
        char num[32], price[32];
        gp_json_format_number(saved, num, sizeof num);
        gp_json_format_number(on_demand, price, sizeof price);
        return gp_jdoc_error(d, "s",
                             "%s%% saved on %s's on-demand %s gives a spot "
                             "price that rounds to 0 (prices are kept to "
                             "a millionth); a spot price must be greater "
                             "than 0",
                             num, key, price);
    }
    gp_jdoc_pop(d);
    if (!(spot = advisor_spot(history, hourly, &r->buckets[(size_t)index])))
        return gp_jdoc_nomem(d);
    json_object_set_new(jt, "spot", spot);
    r->listed++;
    return GP_OK;
}

/* Names the feed among catalog cat's sources, and adds the summary note
 * (when opt asks for notes). */
static void advisor_note(json_t *cat, const char *region,
                         const char *advisor_name, const advisor_run *r,
                         const gp_import_options *opt)
{
    char source[400];
    json_t *sources;
    size_t listed = r->listed, kept = r->kept;

    snprintf(source, sizeof source,
             "spot: AWS Spot Instance Advisor feed %s (Linux): hourly = "
             "on_demand x (1 - savings%%), interruption_rate_monthly = the "
             "middle of the advisor's bucket; estimates",
             base_name(advisor_name));
    sources = json_object_get(cat, "sources");
    if (!sources) {
        sources = json_array();
        json_object_set_new(cat, "sources", sources);
    }
    json_array_append_new(sources, json_string(source));
    if (opt && opt->notes)
        gp_warnings_add(opt->notes,
                        "spot-advisor: %s: spot estimates for %zu type%s; "
                        "%zu type%s the advisor does not list keep%s %s "
                        "spot section%s",
                        region, listed, gp_plural(listed, "", "s"), kept,
                        gp_plural(kept, "", "s"), gp_plural(kept, "s", ""),
                        gp_plural(kept, "its", "their"),
                        gp_plural(kept, "", "s"));
}

/* Adds the advisor's spot estimates to the catalog document `cat` (the
 * base catalog, already checked by gp_catalog_parse). */
static gp_status advisor_apply(gp_jdoc *d, const json_t *root, json_t *cat,
                               const char *advisor_name,
                               const gp_import_options *opt)
{
    advisor_run r;
    const char *region = json_string_value(json_object_get(cat, "region"));
    const char *key;
    json_t *by_region, *jr, *linux_types, *types, *jt;
    char quoted[160];
    gp_status st;

    memset(&r, 0, sizeof r);
    r.d = d;
    if ((st = advisor_ranges(d, root, r.buckets, 16, &r.n_buckets)) != GP_OK ||
        (st = gp_jdoc_object(d, root, "spot_advisor", true, &by_region)) !=
            GP_OK)
        return st;
    gp_jdoc_push_key(d, "spot_advisor");
    if ((st = gp_jdoc_object(d, by_region, region, false, &jr)) != GP_OK)
        return st;
    if (!jr)
        return gp_jdoc_error(d, NULL, "no region %s in the advisor feed",
                             gp_json_quote(region, quoted, sizeof quoted));
    gp_jdoc_push_key(d, region);
    if ((st = gp_jdoc_object(d, jr, "Linux", true, &linux_types)) != GP_OK)
        return st;
    gp_jdoc_push_key(d, "Linux");
    r.linux_types = linux_types;
    types = json_object_get(cat, "instance_types");
    json_object_foreach(types, key, jt)
    {
        if ((st = advisor_type(&r, key, jt)) != GP_OK)
            return st;
    }
    gp_jdoc_pop(d);
    gp_jdoc_pop(d);
    gp_jdoc_pop(d);
    advisor_note(cat, region, advisor_name, &r, opt);
    return GP_OK;
}

/* Runs spot-advisor on the feed and base catalog held in memory. */
static gp_status spot_run(const char *advisor, size_t len, const char *name,
                          const char *catalog, size_t catalog_len,
                          const char *catalog_name,
                          const gp_import_options *opt, FILE *out,
                          gp_error *err)
{
    gp_catalog *checked = NULL;
    json_t *root = NULL, *cat = NULL;
    json_error_t jerr;
    gp_jdoc d;
    gp_status st;
    char dir[512];
    const char *slash = strrchr(catalog_name, '/');

    /* the base catalog must be one gpuplan loads (its spot history files
     * are found next to it); the checked copy is only for its errors, the
     * JSON tree is what gets written back */
    snprintf(dir, sizeof dir, "%.*s",
             slash ? (int)(slash - catalog_name) : 1,
             slash ? catalog_name : ".");
    if ((st = gp_catalog_parse(&checked, catalog, catalog_len, catalog_name,
                               dir[0] ? dir : "/", err)) != GP_OK)
        return st;
    if (strcmp(checked->provider, "aws") != 0) {
        gp_error_set(err, catalog_name, 0, 0, "provider",
                     "the Spot Instance Advisor covers aws, not %s",
                     checked->provider);
        gp_catalog_free(checked);
        return GP_ERR_INPUT;
    }
    gp_catalog_free(checked);
    if (catalog_len >= 3 && memcmp(catalog, "\xEF\xBB\xBF", 3) == 0) {
        catalog += 3;
        catalog_len -= 3;
    }
    cat = json_loadb(catalog, catalog_len, JSON_REJECT_DUPLICATES, &jerr);
    if (!cat) {
        gp_error_set(err, catalog_name, jerr.line, jerr.column, NULL, "%s",
                     jerr.text);
        return GP_ERR_INPUT;
    }
    gp_jdoc_init(&d, advisor, len, name, err);
    if ((st = gp_jdoc_parse(&d, &root)) == GP_OK &&
        (st = advisor_apply(&d, root, cat, name, opt)) == GP_OK)
        st = gp_import_write_catalog(cat, out, err);
    json_decref(root);
    json_decref(cat);
    return st;
}

/* Whether a JSON text is the advisor feed (it has "spot_advisor") rather
 * than a catalog. */
static bool looks_like_advisor(const char *text, size_t len)
{
    static const char key[] = "\"spot_advisor\"";
    size_t k = sizeof key - 1;

    for (size_t i = 0; i + k <= len; i++)
        if (memcmp(text + i, key, k) == 0)
            return true;
    return false;
}

/* ---- entry points ------------------------------------------------------- */

gp_status gp_import_spot_advisor(const gp_import_options *opt, FILE *out,
                                 gp_error *err)
{
    char *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    int advisor;
    gp_status st = GP_OK;

    if (opt->n_inputs != 2) {
        gp_error_set(err, "", 0, 0, NULL,
                     "import spot-advisor takes two files, the advisor "
                     "feed (spot-advisor-data.json) and the catalog to add "
                     "spot prices to; got %zu",
                     opt->n_inputs);
        return GP_ERR_USAGE;
    }
    for (int i = 0; i < 2 && st == GP_OK; i++)
        st = gp_source_load(opt->inputs[i], GP_SOURCE_IMPORT, &text[i],
                            &len[i], err);
    if (st == GP_OK) {
        advisor = looks_like_advisor(text[0], len[0]) ? 0 : 1;
        if (advisor == 0 && looks_like_advisor(text[1], len[1])) {
            /* the same feed twice, or two feeds: no catalog to add to */
            bool same = strcmp(opt->inputs[0], opt->inputs[1]) == 0;
            gp_error_set(err, opt->inputs[1], 0, 0, NULL,
                         "%s%s%s; give one feed and the catalog to add spot "
                         "prices to (such as pricing/aws/us-east-1.json)",
                         same ? "the advisor feed is given twice"
                              : "a second Spot Instance Advisor feed (also ",
                         same ? "" : opt->inputs[0], same ? "" : ")");
            st = GP_ERR_INPUT;
        } else if (!looks_like_advisor(text[advisor], len[advisor])) {
            /* a feed cut short before its "spot_advisor" key is not JSON
             * at all: say where it breaks, not that it is something else */
            for (int i = 0; i < 2 && st == GP_OK; i++) {
                gp_jdoc d;
                json_t *root;
                gp_jdoc_init(&d, text[i], len[i], opt->inputs[i], err);
                st = gp_jdoc_parse(&d, &root);
                json_decref(root);
            }
            if (st == GP_OK) {
                gp_error_set(err, opt->inputs[0], 0, 0, NULL,
                             "neither input is a Spot Instance Advisor feed "
                             "(a JSON object with \"spot_advisor\")");
                st = GP_ERR_INPUT;
            }
        } else {
            st = spot_run(text[advisor], len[advisor], opt->inputs[advisor],
                          text[1 - advisor], len[1 - advisor],
                          opt->inputs[1 - advisor], opt, out, err);
        }
    }
    gp_free(text[0]);
    gp_free(text[1]);
    return st;
}

gp_status gp_import_spot_advisor_buffer(const char *advisor, size_t len,
                                        const char *name, const char *catalog,
                                        size_t catalog_len,
                                        const char *catalog_name, FILE *out,
                                        gp_error *err)
{
    return spot_run(advisor, len, name, catalog, catalog_len, catalog_name,
                    NULL, out, err);
}
