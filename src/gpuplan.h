/*
 * gpuplan.h: the public face of the gpuplan library: status and errors,
 * run parameters, traces, pricing catalogs and scenarios, which flow on
 * to the engine, the recommender, the forecaster and the writers (each
 * with its own header).  The library never prints or exits; a failing
 * function fills a caller-owned gp_error; every _load/_new has a _free.
 * Times are seconds since the Unix epoch (UTC); an hour is seconds / 3600.
 * The data flow and the conventions in full: docs/design/gpuplan.md.
 */
#ifndef GPUPLAN_H
#define GPUPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GP_VERSION "0.1.0"

/* ---- status and errors ------------------------------------------------ */

typedef enum gp_status {
    GP_OK = 0,
    GP_ERR_INPUT = 1, /* the user's input is wrong: exit 1 */
    GP_ERR_NOMEM = 2,
    GP_ERR_IO = 3,
    GP_ERR_USAGE = 4 /* a command-line mistake: exit 2 */
} gp_status;

/*
 * Run parameters: the settings a caller gives a run rather than a file
 * (the program's options; another caller's arguments).  An error about
 * one carries it in err->param; a message or warning that names one
 * writes GP_PARAM_TEXT("name") with the name gp_param_name gives, and
 * whoever shows the text turns each into its own word for it
 * (gp_param_expand).  The library never spells a command-line option.
 * Append-only.
 */
typedef enum gp_param {
    GP_PARAM_NONE = 0,
    GP_PARAM_STEP,          /* "step": seconds a row without step_s covers */
    GP_PARAM_REGION,        /* "region": rows without a region column */
    GP_PARAM_MAP,           /* "map": the trace's own column names */
    GP_PARAM_LAYOUT,        /* "layout": samples or jobs */
    GP_PARAM_PRICING,       /* "pricing": the catalogs */
    GP_PARAM_PROVIDER,      /* "provider": where telemetry's type is */
    GP_PARAM_INSTANCE_TYPE, /* "instance-type": telemetry's type */
    GP_PARAM_TIME,          /* "time": when a scrape was taken */
    GP_PARAM_OUT,           /* "out": the output file */
    GP_PARAM_COMMITMENTS_OUT, /* "commitments-out": a bill's commitments */
    GP_PARAM_HORIZON,       /* "horizon": how far to forecast */
    GP_PARAM_FORWARD,       /* "forward": how far a forward plan buys */
    GP_PARAM_TRAIN_UNTIL,   /* "train-until": the backtest's cut */
    GP_PARAM_RUNS,          /* "runs": Monte Carlo runs */
    GP_PARAM_SEED,          /* "seed": the Monte Carlo seed */
    GP_PARAM_SKIP_BAD,      /* "skip-bad": bad rows set aside */
    GP_PARAM_IDLE_THRESHOLD, /* "idle-threshold": idle below this percent */
    GP_PARAM_IDLE_MIN_HOURS, /* "idle-min-hours": ... for this long */
    GP_PARAM_TRACE,         /* "trace": the usage files */
    GP_PARAM_SCENARIO,      /* "scenario": the scenario file */
    GP_PARAM_JSON,          /* "json": the JSON document */
    GP_PARAM_CSV,           /* "csv": the folder of CSV tables */
    GP_PARAM_SPOT_CONFIDENCE, /* "spot-confidence": classified to spot */
    GP_PARAM_COUNT
} gp_param;

/* The mark around a parameter's name in text: GP_PARAM_TEXT("horizon"). */
#define GP_PARAM_MARK "\x1e"
#define GP_PARAM_TEXT(name) GP_PARAM_MARK name GP_PARAM_MARK

/* The name of parameter p ("train-until"), "" for none or an unknown one. */
const char *gp_param_name(gp_param p);

/* Copies text into buf (size > 0 bytes, always terminated), with each
 * GP_PARAM_TEXT(name) in it replaced by show(name, ctx), or by the bare
 * name when show is NULL. */
void gp_param_expand(const char *text,
                     const char *(*show)(const char *name, void *ctx),
                     void *ctx, char *buf, size_t size);

/*
 * Where and what went wrong.  Printed by the CLI as
 *   source:line:column: field: message
 * leaving out the parts that are zero or empty.
 */
typedef struct gp_error {
    char source[512]; /* file name, "-" for standard input, "" if none */
    long line;        /* 1-based, 0 when it does not apply */
    long column;      /* 1-based CSV column or JSON column, 0 when n/a */
    char field[96];   /* column name or JSON path, "" when n/a */
    char message[640];
    /* the run parameter at fault (a setting the caller gave, not a file's
     * field), GP_PARAM_NONE when none: its caller names it its own way
     * (the program: by its option), where the field would stand */
    gp_param param;
} gp_error;

/* Clears err (may be NULL). */
void gp_error_clear(gp_error *err);

/* Fills err unless it already holds an error (the first error wins).
 * err may be NULL, then nothing happens. */
#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
void gp_error_set(gp_error *err, const char *source, long line, long column,
                  const char *field, const char *fmt, ...);

/* Fills err about run parameter p as gp_error_set does (the first error
 * wins): source (may be NULL), no line, no field, err->param = p. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
void gp_error_set_param(gp_error *err, const char *source, gp_param p,
                        const char *fmt, ...);

/* Formats err as "source:line:column: field: message" into buf; a run
 * parameter at fault stands as the field, and parameters in the message,
 * by show (NULL: their bare names; see gp_param_expand). */
void gp_error_format_with(const gp_error *err,
                          const char *(*show)(const char *name, void *ctx),
                          void *ctx, char *buf, size_t size);
/* gp_error_format_with with the parameters left marked, for an error
 * that becomes a warning's text: its reader shows them its own way. */
void gp_error_format_marked(const gp_error *err, char *buf, size_t size);
/* gp_error_format_with(err, NULL, NULL, buf, size). */
void gp_error_format(const gp_error *err, char *buf, size_t size);

/* Every error a reader found, in the order found, for a caller that
 * reports them all (validate) rather than the first.  Zero it to start;
 * gp_error_list_clear frees it. */
typedef struct gp_error_list {
    gp_error *items;
    size_t count, cap;
} gp_error_list;
/* Appends a copy of *err: GP_OK or GP_ERR_NOMEM. */
gp_status gp_error_list_add(gp_error_list *l, const gp_error *err);
void gp_error_list_clear(gp_error_list *l);

/* A short English name for a status. */
const char *gp_strstatus(gp_status st);

/* Warnings collected while loading (stale catalogs, spot above on-demand,
 * estimated prices, classified workloads): a growable list of strings that
 * the reports print.  The list owns its strings.  A warning that cannot
 * be kept for want of memory is not lost without a word: the list then
 * ends with one saying so (gp_warnings_add keeps a slot for it). */
typedef struct gp_warnings {
    char **items;
    size_t count, cap;
} gp_warnings;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void gp_warnings_add(gp_warnings *w, const char *fmt, ...);
/* Says in w that a warning could not be worked out or kept for want of
 * memory (once, however often it is called). */
void gp_warnings_lost(gp_warnings *w);
/* Removes the warnings after the first count. */
void gp_warnings_truncate(gp_warnings *w, size_t count);
void gp_warnings_clear(gp_warnings *w);

/* ---- allocation --------------------------------------------------------- */

/* Every allocation in the library goes through these, so that a test can
 * make the Nth allocation fail (gp_alloc_fail_after). */
void *gp_malloc(size_t size);
void *gp_calloc(size_t count, size_t size);
void *gp_realloc(void *ptr, size_t size);
void gp_free(void *ptr);
char *gp_strdup(const char *s);
char *gp_strndup(const char *s, size_t n);
/* After n more successful allocations, every later one fails; n < 0 turns
 * failure injection off. For tests only. */
void gp_alloc_fail_after(long n);
/* The same, but only that one allocation fails: a run that goes on past
 * it shows whether the failure was said or absorbed. */
void gp_alloc_fail_only(long n);
/* How many allocations failed since the last gp_alloc_fail_after, so that
 * a test can tell a run that absorbed a failure from one that needed no
 * more memory. */
long gp_alloc_refused(void);

/* ---- vocabulary --------------------------------------------------------- */

typedef enum gp_workload {
    GP_TRAINING = 0,
    GP_INFERENCE = 1,
    GP_UNLABELED = 2
} gp_workload;
#define GP_N_WORKLOADS 3

typedef enum gp_payment {
    GP_NO_UPFRONT = 0,
    GP_PARTIAL_UPFRONT = 1,
    GP_ALL_UPFRONT = 2
} gp_payment;

typedef enum gp_plan_kind { GP_PLAN_COMPUTE = 0, GP_PLAN_FAMILY = 1 } gp_plan_kind;

/* How a workload is launched: on demand, on spot, or (its job runs) on a
 * capacity instrument of SPEC 7.4 (the rest of its usage on demand). */
typedef enum gp_launch {
    GP_LAUNCH_ON_DEMAND = 0,
    GP_LAUNCH_SPOT = 1,
    GP_LAUNCH_CAPACITY_BLOCK = 2,
    GP_LAUNCH_FLEX_START = 3,
    GP_LAUNCH_CALENDAR = 4
} gp_launch;

const char *gp_workload_name(gp_workload w);   /* "training", ... */
const char *gp_payment_name(gp_payment p);     /* "no_upfront", ... */
const char *gp_plan_kind_name(gp_plan_kind k); /* "compute", ... */
const char *gp_launch_name(gp_launch l); /* "on_demand", "spot", ... */

/* ---- pricing catalogs (catalog.c) -------------------------------------- */

typedef struct gp_reserved_offer {
    int term_years;
    gp_payment payment;
    double hourly;  /* recurring $/instance-hour */
    double upfront; /* $ per instance for the whole term */
    bool estimate;
} gp_reserved_offer;

typedef struct gp_plan_offer {
    gp_plan_kind kind;
    int term_years;
    gp_payment payment;
    double hourly; /* plan rate for one instance-hour of this type */
    bool estimate;
} gp_plan_offer;

typedef struct gp_price_point {
    int64_t t;     /* from this time on ... */
    double hourly; /* ... the spot price is this */
} gp_price_point;

/* When spot capacity was there (SPEC 7.4 availability_history): one entry
 * per tick of gap_s seconds, 1 when at least one instance was available.
 * A history with times (a CSV) starts at t0; one without (SkyPilot's
 * spot-traces JSON) starts at each job run's start. */
typedef struct gp_availability {
    uint8_t *available; /* [n], or NULL: no history */
    size_t n;
    double gap_s;
    bool timed;
    int64_t t0; /* seconds, when timed */
} gp_availability;

typedef struct gp_spot_offer {
    bool present;
    /* the probability (0..1] that capacity is there in an hour; 0 stands
     * for not given, that is 1 (gp_spot_availability) */
    double availability;
    gp_availability avail; /* availability_history, or none */
    double hourly;                    /* used when there is no history */
    double interruption_rate_monthly; /* fraction of instances reclaimed */
    char bucket[24];                  /* e.g. "10-15%", "" if not given */
    bool estimate;
    gp_price_point *history; /* sorted by t, or NULL */
    size_t n_history;
} gp_spot_offer;

/* A fixed reservation paid for whole, used or not (SPEC 7.4): an AWS
 * capacity block for ML, or a GCP calendar-mode reservation; a duration
 * of min_days..max_days (capacity.h says which durations are sold). */
typedef struct gp_capacity_offer {
    double hourly; /* $/instance-hour */
    int min_days, max_days;
    bool estimate;
} gp_capacity_offer;

/* GCP flex-start (SPEC 7.4): capacity after a wait, billed as used, for at
 * most max_days a request. */
typedef struct gp_flex_offer {
    bool present;
    double hourly;          /* $/instance-hour */
    double max_days;        /* per request */
    double expected_wait_h; /* before a request's capacity comes */
    bool estimate;
} gp_flex_offer;

typedef struct gp_instance_type {
    char *name;
    char *family;
    char *gpu_model;
    int gpus;
    double vcpus;
    double memory_gib;
    double normalization_factor; /* AWS size flexibility, 0 = none */
    double on_demand;
    gp_reserved_offer *reserved;
    size_t n_reserved;
    gp_plan_offer *plans;
    size_t n_plans;
    gp_spot_offer spot;
    /* capacity instruments (catalog_capacity.c), none when n_ is 0 */
    gp_capacity_offer *blocks;
    size_t n_blocks;
    gp_flex_offer flex;
    gp_capacity_offer *calendar;
    size_t n_calendar;
} gp_instance_type;

typedef struct gp_catalog {
    char *path; /* file it was loaded from */
    char *provider, *region, *currency, *as_of;
    int64_t as_of_t;
    char **sources;
    size_t n_sources;
    gp_instance_type *types; /* sorted by name */
    size_t n_types;
    /* the as_of warning loading added to the set's warnings (prices over
     * 180 days old, or dated after today), or NULL */
    char *as_of_warning;
} gp_catalog;

/* All loaded catalogs. */
typedef struct gp_pricing {
    gp_catalog **catalogs;
    size_t n_catalogs;
    /* stale as_of, spot above on-demand; and (gp_scenario_check) a
     * scenario commitment stating an upfront the catalogs do not charge */
    gp_warnings warnings;
} gp_pricing;

/* Loads one catalog file, or every *.json below a folder (recursively, in
 * name order), into *out, appending to an existing set when *out is not
 * NULL.  `today` (epoch seconds) dates the staleness warning.  Two catalogs
 * for the same provider and region are an error, and so are catalogs in
 * two currencies.  On failure a set that
 * existed before the call is left as it was (still the caller's to free). */
gp_status gp_pricing_load(gp_pricing **out, const char *path, int64_t today,
                          gp_error *err);
void gp_pricing_free(gp_pricing *p);
/* The loaded catalogs' currency ("USD", "EUR"), which they share; "USD"
 * when none is loaded. */
const char *gp_pricing_currency(const gp_pricing *p);

/* The currency a run's money is written in: the catalogs' (which share
 * one), "USD" until gp_money_set_currency names another.  One setting for
 * the process, as a command bills in one currency: the CLI sets it once,
 * after loading the catalogs and before any work starts or thread runs;
 * NULL sets "USD" back.  The code is kept as given (3 letters, checked by
 * the catalog loader). */
void gp_money_set_currency(const char *code);
/* "USD" */
const char *gp_money_currency(void);
/* What goes before an amount: "$" for USD ("$1,234.56"), otherwise the
 * code and a space ("EUR 1,234.56"). */
const char *gp_money_prefix(void);
/* Money in a unit: "$" for USD ("$/h"), otherwise the code ("EUR/h"). */
const char *gp_money_unit(void);
/* "$/h", "EUR/h" */
const char *gp_money_per_hour(void);

/* "$1,234.56", "-$0.50"; from $1e15 up "$1.235e+15"; "$inf", "n/a" for
 * NaN; in another currency than USD its code instead of "$":
 * "EUR 1,234.56", "-EUR 0.50" (gp_money_prefix).  Safe for any double and
 * any size (size 0 writes nothing). */
void gp_format_money(double v, char *buf, size_t size);

/* Parses one catalog from memory (the fuzz target's entry point). */
gp_status gp_catalog_parse(gp_catalog **out, const char *text, size_t len,
                           const char *source, const char *base_dir,
                           gp_error *err);
void gp_catalog_free(gp_catalog *c);

/* Parses a spot price history CSV (a catalog's "history" file, SPEC
 * section 3) from memory into spot->history and spot->n_history, and sets
 * spot->hourly to the latest price (the fuzz target's entry point).  The
 * other members of spot are left alone.  On success spot->history is a
 * new array for the caller to gp_free (gp_catalog_free does it for loaded
 * catalogs); on failure it is NULL. */
gp_status gp_catalog_parse_history(gp_spot_offer *spot, const char *text,
                                   size_t len, const char *source,
                                   gp_error *err);

/* The instance type `name`, restricted to provider/region when they are not
 * NULL or "".  Returns NULL when none matches, and also when several
 * catalogs match and provider/region do not decide (then *ambiguous is set).
 * *catalog_out and ambiguous may be NULL. */
const gp_instance_type *gp_pricing_find(const gp_pricing *p,
                                        const char *provider,
                                        const char *region, const char *name,
                                        const gp_catalog **catalog_out,
                                        bool *ambiguous);

/* Writes up to `max` known type names nearest to `name` (edit distance),
 * comma separated, into buf. */
void gp_pricing_suggest(const gp_pricing *p, const char *name, char *buf,
                        size_t size, int max);

/* The probability that spot capacity of s is there in an hour: its
 * availability, 1 when not given. */
double gp_spot_availability(const gp_spot_offer *s);

/* Reads an availability history (SPEC 7.4): a CSV `time,available` with
 * evenly spaced rows, or SkyPilot's spot-traces JSON {"metadata":
 * {"gap_seconds": N}, "data": [counts]} (told apart by a first character
 * `{`).  Errors name `source` with line, column and field.  *out is
 * cleared first; free it with gp_availability_clear. */
gp_status gp_availability_parse(const char *text, size_t len,
                                const char *source, gp_availability *out,
                                gp_error *err);
void gp_availability_clear(gp_availability *a);

/* Whether capacity is there at time t (seconds) of a run that started at
 * run_start: outside the history's ticks it is. */
bool gp_availability_at(const gp_availability *a, int64_t run_start,
                        double t);

/* The spot price of a type at time t (history if any, else hourly). */
double gp_spot_price_at(const gp_spot_offer *s, int64_t t);

/* The effective hourly rate of a reservation: hourly + upfront/(term*8760). */
double gp_reserved_effective_hourly(const gp_reserved_offer *o);

/* ---- scenarios (scenario.c) --------------------------------------------- */

typedef struct gp_policy {
    gp_launch launch;
    double checkpoint_interval_h;
    double checkpoint_cost_h;
    double restart_overhead_h;
    int max_interruptions;
    /* job runs: the hours of delay they can absorb; the run falls back
     * when one more interruption could take it past them (< 0: none) */
    double deadline_slack_h;
    /* job runs: hours after its start by which it must finish (< 0: none);
     * deadline_h = the run's length + deadline_slack_h (docs/billing.md) */
    double deadline_h;
    gp_launch fallback;
    /* idle GPUs terminated after this many idle hours, 0 = never */
    double terminate_idle_h;
} gp_policy;

typedef enum gp_commitment_type {
    GP_COMMIT_RESERVED = 0,
    GP_COMMIT_SAVINGS_PLAN = 1
} gp_commitment_type;

typedef struct gp_commitment {
    gp_commitment_type type;
    char provider[16];
    char region[32];
    char instance_type[64]; /* reserved */
    char family[32];        /* instance_family plan */
    gp_plan_kind kind;      /* savings plan */
    double count;           /* reserved: whole instances */
    double hourly_commitment; /* savings plan: $/h */
    int term_years;
    gp_payment payment;
    int64_t start;
    int64_t end; /* start + term_years * 365 days */
    /* the `upfront` a commitment pasted from recommend's JSON states: not
     * a price (prices come from the catalogs), only checked against them */
    bool has_stated_upfront;
    double stated_upfront;
    /* a reservation's hourly_commitment as recommend's JSON states it (its
     * hourly equivalent): checked against the catalogs, not a price */
    bool has_stated_hourly;
    double stated_hourly;
} gp_commitment;

/* The catalog offer reservation `c` buys (its type in its provider and
 * region, its term and payment), or NULL; *type, when not NULL, is set to
 * the instance type, NULL when the catalogs lack it. */
const gp_reserved_offer *gp_reserved_offer_of(const gp_pricing *p,
                                              const gp_commitment *c,
                                              const gp_instance_type **type);

/* The rate savings plan `c` covers type `it` of catalog `cat` at, or NULL
 * when the plan does not cover it: a compute plan covers its provider's
 * types, an instance_family plan its family in its region, and only types
 * with a rate above 0 for its kind, term and payment. */
const gp_plan_offer *gp_plan_offer_of(const gp_commitment *c,
                                      const gp_catalog *cat,
                                      const gp_instance_type *it);

/* Whether region r has an upper-case letter and no loaded catalog is of
 * that region: "US-EAST-1" for us-east-1 (the providers' regions, and the
 * bundled catalogs', are lower case; SPEC section 3 gives no other).
 * lower[size] gets r in lower case.  Traces and bills say so at the row. */
bool gp_pricing_region_upper(const gp_pricing *p, const char *r, char *lower,
                             size_t size);

/* Whether a reservation of type `it` in catalog `cat` may cover usage of
 * type `pt` in catalog `pcat`: the same catalog, and the same type, or,
 * when `it` has a normalization factor (size flexibility), any type of its
 * family that has one. */
bool gp_reserved_covers(const gp_catalog *cat, const gp_instance_type *it,
                        const gp_catalog *pcat, const gp_instance_type *pt);

/* What-if levers of a strategy (SPEC 7.5; levers.h applies them). */
typedef enum gp_lever_key {
    GP_LEVER_TEAM,
    GP_LEVER_PROJECT,
    GP_LEVER_INSTANCE_TYPE
} gp_lever_key;

/* `autoscale`: the matching inference series served at target_util
 * percent, never under min_instances, a scale-down held for
 * scale_down_delay_h hours; hours without gpu_util use assumed_util
 * (percent) when given, else keep their recorded count. */
typedef struct gp_autoscale {
    bool on;
    gp_lever_key key;
    char value[64];
    double target_util, min_instances, scale_down_delay_h;
    bool has_assumed_util;
    double assumed_util;
} gp_autoscale;

/* `rightsize` and `migrate`: demand of type `from` moved to type `to`,
 * `equivalence` instances of `to` for one of `from`, from time `at`
 * (rightsize: from the start) for the workloads in `workloads` (a bit
 * per gp_workload). */
typedef struct gp_move {
    bool on;
    char from[64], to[64];
    double equivalence;
    unsigned workloads;
    int64_t at;
} gp_move;

typedef struct gp_strategy {
    char *name;
    gp_commitment *add_commitments;
    size_t n_add;
    gp_policy policy[2]; /* by workload: training, inference; merged */
    gp_autoscale autoscale;
    gp_move rightsize, migrate;
} gp_strategy;

/* A scenario's override of classify's GPU-class prior (`classify.priors`):
 * the log-odds of training for a GPU model or an instance type. */
typedef struct gp_classify_prior {
    char *key; /* a gpu_model ("H100") or an instance type name */
    double log_odds;
} gp_classify_prior;

/* A purchase policy replayed over the trace (scenario `policies`, SPEC
 * 7.3; policy.h replays it). */
typedef enum gp_purchase_kind {
    GP_PURCHASE_AWS,      /* the lookback's hindsight optimum, each review */
    GP_PURCHASE_FORWARD,  /* gpuplan's plan for the next review period */
    GP_PURCHASE_LADDER,   /* 1/tranches of the target coverage each review */
    GP_PURCHASE_COVERAGE  /* top coverage up to the target each review */
} gp_purchase_kind;

typedef struct gp_purchase_policy {
    char *name;
    gp_purchase_kind kind;
    int review_months;     /* 1 (monthly) or 3 (quarterly) */
    size_t lookback_hours; /* history each review sizes on */
    unsigned terms;        /* a bit per term in years (1 << years) */
    gp_payment payment;
    int tranches;           /* ladder */
    double target_coverage; /* ladder, coverage: a fraction */
    unsigned given;         /* keys the file gave (GP_PP_KEY_*) */
} gp_purchase_policy;
#define GP_PP_KEY_TRANCHES 1u
#define GP_PP_KEY_TARGET 2u
#define GP_PP_KEY_LOOKBACK 4u

/* A monthly budget of a team or a project (scenario `budgets`, SPEC 7.5;
 * budget.h compares a ledger's spend with it). */
typedef struct gp_budget {
    char *name;      /* the team's or project's label, as the trace has it */
    bool by_project; /* false: a team's */
    double monthly;  /* money (the catalogs' currency) a calendar month */
} gp_budget;

typedef struct gp_scenario {
    char *path;
    char *name;
    bool has_window;
    int64_t window_start, window_end;
    double discount;            /* fraction off every price */
    double spot_price_factor;   /* multiplies spot prices */
    double interruption_factor; /* multiplies lambda */
    gp_policy policy[2];        /* baseline, by workload */
    gp_commitment *commitments; /* owned */
    size_t n_commitments;
    gp_strategy *strategies; /* [0] is "baseline" */
    size_t n_strategies;
    double growth[2]; /* monthly rate by workload */
    int mc_runs;
    uint64_t mc_seed;
    gp_purchase_policy *policies; /* `policies`, replayed by simulate */
    size_t n_policies;
    gp_classify_prior *classify_priors; /* `classify.priors`, or none */
    size_t n_classify_priors;
    gp_budget *budgets; /* `budgets`, or none */
    size_t n_budgets;
    /* the JSON text it was read from (NULL for the default), kept so that
     * gp_scenario_check can point at file:line:column */
    char *text;
    size_t text_len;
} gp_scenario;

/* The scenario every key of which takes its default. */
gp_status gp_scenario_default(gp_scenario **out, gp_error *err);
gp_status gp_scenario_load(gp_scenario **out, const char *path,
                           gp_error *err);
gp_status gp_scenario_parse(gp_scenario **out, const char *text, size_t len,
                            const char *source, gp_error *err);
/* gp_scenario_load that goes on past an error (a member, a commitment or
 * a strategy that is wrong) to report them all: each goes in *all, the
 * first first, and *err is the first.  On GP_ERR_INPUT *out still holds
 * the scenario as far as it was read, for gp_scenario_check_all only (a
 * commitment that failed is left zero there, and not checked); free it
 * with gp_scenario_free. */
gp_status gp_scenario_load_all(gp_scenario **out, const char *path,
                               gp_error_list *all, gp_error *err);
/* gp_scenario_load_all of a scenario held in memory (the fuzz target's). */
gp_status gp_scenario_parse_all(gp_scenario **out, const char *text,
                                size_t len, const char *source,
                                gp_error_list *all, gp_error *err);
/* Checks the scenario's commitments against the catalogs: known types,
 * offers that exist for the term and payment.  A commitment whose stated
 * upfront is not what the catalogs charge gets a warning in w (which may be
 * NULL), since the run bills the catalogs' price. */
gp_status gp_scenario_check(const gp_scenario *s, const gp_pricing *p,
                            gp_warnings *w, gp_error *err);
/* gp_scenario_check going on past a commitment that fails: each error in
 * *all, the first first, *err the first (as gp_scenario_load_all). */
gp_status gp_scenario_check_all(const gp_scenario *s, const gp_pricing *p,
                                gp_warnings *w, gp_error_list *all,
                                gp_error *err);
/* What commitment c pays in cash by the catalogs, before the scenario's
 * discount: per hour of its term, and once at its start (engine.c). */
void gp_commitment_cash(const gp_commitment *c, const gp_pricing *p,
                        double *per_hour, double *upfront);
void gp_scenario_free(gp_scenario *s);

/* ---- traces (trace.c) --------------------------------------------------- */

/* A pool is what one price applies to: (provider, region, instance type). */
typedef struct gp_pool {
    const gp_catalog *catalog; /* provider, region */
    const gp_instance_type *type;
} gp_pool;

/*
 * A series is the hourly demand of one pool for one workload and one pair
 * of labels.  Arrays run over the trace's hours [start_hour, start_hour +
 * n_hours).
 */
typedef struct gp_series {
    uint32_t pool;
    gp_workload workload;
    int32_t team, project; /* index into labels, -1 when unlabelled */
    bool interruptible;
    /* some row said interruptible=false in so many words (not the
     * default): a classification never makes the series interruptible */
    bool said_not_interruptible;
    double *instance_hours;   /* billed instance-hours in the hour */
    double *useful_gpu_hours; /* gpus x gpu_util/100 x hours */
    double *util_gpu_hours;   /* GPU-hours that came with a gpu_util */
    /* some rows had both a job_id and a gpu_util: idle detection goes per
     * job for this series (idle.h) */
    bool job_util;
    /* seconds: where its earliest row starts (as gp_trace.start_s for the
     * whole trace); when that is part-way through an hour (a new pool's
     * first job at 10:30), the series' first hour is only partly covered.
     * 0 for a trace built in memory, whose hours are all taken as whole. */
    double start_s;
} gp_series;

/* A job run: consecutive rows of one job_id (or one row of the jobs layout). */
typedef struct gp_job_run {
    int32_t job; /* index into labels */
    uint32_t series;
    int64_t start, end;    /* seconds */
    double instances;      /* peak instances */
    double instance_hours; /* as billed */
    /* its instance-hours in each clock hour from hour0 (epoch hours), so
     * that a run whose instance count changes is billed where it ran */
    int64_t hour0;
    size_t n_hours;
    const double *hour_ih; /* points into the trace's run_hours */
} gp_job_run;

/* A run of consecutive samples of one job_id whose gpu_util was below the
 * trace's idle threshold, kept when it lasted at least idle_min_hours
 * (idle.h turns these into idle spans). */
typedef struct gp_low_util_run {
    int32_t job;       /* index into labels */
    uint32_t series;
    double start, end; /* seconds */
    double instance_hours, gpu_hours, useful_gpu_hours;
} gp_low_util_run;

typedef struct gp_trace {
    /* the first clock hour (epoch hours) a row read covers, a row of 0
     * instances too, so it may hold no demand; the series' arrays run
     * from it for n_hours.  0 when no row covers any hour; a forecast's
     * trace (gp_forecast_trace) starts at the forecast's first hour. */
    int64_t start_hour;
    size_t n_hours;
    /* seconds: where the latest row read ends (its timestamp + step_s, or
     * a job's end); when that is part-way through the last hour, that
     * hour is only partly covered.  0 for a trace built in memory, whose
     * hours are all taken as whole. */
    double end_s;
    /* where the row that ends at end_s is, as an error would name it: its
     * file, line, and the CSV column and field of its timestamp (of its
     * end with the jobs layout); message empty.  The first of rows that end
     * together.  line 0 for a trace built in memory. */
    gp_error end_row;
    /* seconds: where the earliest row read starts; when that is part-way
     * through the first hour (a first sample at 00:30), that hour is only
     * partly covered.  0 for a trace built in memory. */
    double start_s;
    gp_pool *pools;
    size_t n_pools;
    gp_series *series;
    size_t n_series;
    char **labels; /* team, project and job names, interned */
    size_t n_labels;
    gp_job_run *runs;
    size_t n_runs;
    double *run_hours; /* every run's hour_ih, one after another */
    /* idle detection (idle.h): the options the trace was read with and
     * the runs of low-utilization samples of each job */
    double idle_threshold_pct, idle_min_hours;
    gp_low_util_run *low_util;
    size_t n_low_util;
    /* statistics for validate and the Inputs sheet */
    uint64_t rows_read, rows_rejected, bytes_read;
    double instance_hours[GP_N_WORKLOADS];
    double useful_gpu_hours;
    double gpu_hours_without_util;
    size_t n_sources;
    char **sources; /* the files read */
} gp_trace;

/* Drops from p->warnings the as_of warnings of the catalogs a run does not
 * price anything from: none of the trace's pools is of them, nor is any
 * reservation the scenario owns or a strategy adds (a savings plan is
 * priced at the rates of the pools it covers).  Stale Azure prices say
 * nothing about a run of AWS usage. */
void gp_pricing_drop_unused_warnings(gp_pricing *p, const gp_trace *t,
                                     const gp_scenario *s);

typedef enum gp_layout { GP_LAYOUT_SAMPLES = 0, GP_LAYOUT_JOBS = 1 } gp_layout;

/* How a long run reports how far it has got: a callback the caller puts in
 * the run's options (fn NULL: nothing is reported).  `done` of `total` of
 * stage `stage` ("reading the trace", "forecast"), or with total <= 0,
 * `done` megabytes of it; done < 0 says the stage is over.  Any of the
 * run's threads may call it.  The library prints nothing itself. */
typedef struct gp_progress {
    void (*fn)(void *ctx, const char *stage, double done, double total);
    void *ctx;
} gp_progress;

/* Calls p->fn when there is one (p may be NULL). */
void gp_progress_report(const gp_progress *p, const char *stage, double done,
                        double total);

typedef struct gp_trace_options {
    gp_layout layout;
    double default_step_s;  /* step parameter, default 3600 */
    const char *region;     /* region parameter, or NULL */
    /* provider and instance-type parameters, or NULL: like region, the
     * value of rows that give none (no such column, or an empty cell) */
    const char *provider, *instance_type;
    const char *map[32][2]; /* map: canonical=column pairs */
    size_t n_map;
    /* skip-bad: rejected rows go here with their reason (NULL: first bad
     * row stops the load) */
    void (*reject)(void *ctx, const gp_error *why, const char *row,
                   size_t row_len);
    void *reject_ctx;
    /* 0 = one thread per core, 1 = single-threaded */
    int threads;
    /* idle GPUs (idle.h): gpu_util below idle_threshold_pct percent
     * (default 5) for at least idle_min_hours (default 2) */
    double idle_threshold_pct, idle_min_hours;
    gp_progress progress; /* reading the trace */
    /* the most memory the trace's hourly arrays may take, in bytes (0: no
     * limit): a trace that would need more is refused with a message that
     * says why, before the memory is asked for */
    uint64_t max_bytes;
} gp_trace_options;

void gp_trace_options_init(gp_trace_options *o);

/* The canonical trace columns (SPEC section 2) by index from 0, the names
 * a map may map: "timestamp", "step_s", ...; NULL past the last. */
const char *gp_trace_column_name(size_t i);

/* The header name canonical column `canonical` is read from: the column
 * the map names for it, else its own name.  Maps do not chain: with
 * team=project and project=t, team is read from "project". */
const char *gp_trace_mapped_column(const gp_trace_options *opt,
                                   const char *canonical);

/* The header name canonical column `canonical` is read from when a trace
 * is loaded: as gp_trace_mapped_column, but NULL when `canonical` has no
 * map of its own and another map names its column (instances=gpus
 * reads the "gpus" column as instances only; gpus=... gives gpus a
 * column again).  *claimed_by, when not NULL, is
 * set to the canonical name that took the column, or NULL. */
const char *gp_trace_read_column(const gp_trace_options *opt,
                                 const char *canonical,
                                 const char **claimed_by);

/* Incremental loading of several files into one trace. */
typedef struct gp_trace_builder gp_trace_builder;

gp_status gp_trace_builder_new(gp_trace_builder **out,
                               const gp_pricing *pricing,
                               const gp_trace_options *opt, gp_error *err);
/* path "-" reads standard input. */
gp_status gp_trace_builder_add_file(gp_trace_builder *b, const char *path,
                                    gp_error *err);
/* Parses CSV text held in memory (the fuzz target's entry point). */
gp_status gp_trace_builder_add_buffer(gp_trace_builder *b, const char *text,
                                      size_t len, const char *source,
                                      gp_error *err);
/* Turns what was read into a trace; the builder is freed either way. */
gp_status gp_trace_builder_finish(gp_trace_builder *b, gp_trace **out,
                                  gp_error *err);
void gp_trace_builder_free(gp_trace_builder *b);

void gp_trace_free(gp_trace *t);

/* The order of the trace's series: pool, workload, interruptible (false
 * first), team name, project name (unlabelled as ""). */
int gp_series_cmp(const gp_trace *t, const gp_series *x, const gp_series *y);

/* Pool p of the trace as "provider/region/instance_type" in buf, or as
 * "pool p" when it has no catalog (a trace built in memory). */
void gp_trace_pool_name(const gp_trace *t, size_t p, char *buf, size_t size);

/* Total instance-hours of pool p in hour h (index into the trace's hours)
 * for workload w, summed over its series. */
double gp_trace_pool_demand(const gp_trace *t, size_t pool, gp_workload w,
                            size_t h);

/* GPU-hours whose rows gave a gpu_util, over the whole trace: 0 means
 * useful GPU-hours are unknown, not 0 (README). */
double gp_trace_util_gpu_hours(const gp_trace *t);

/* ---- time and numbers (util.c) ------------------------------------------ */

/* Parses ISO 8601 ("2026-01-05T13:00:00Z", offsets, fractional seconds,
 * a space for T, naive = UTC, a bare date) or epoch seconds, from 1970 to
 * 9999 in UTC.  On failure *why says what is wrong; for an ISO time that is
 * outside that range once its offset is applied (9999-12-31T22:00:00-05:00
 * is in 10000) it starts with GP_TIME_OUT_OF_RANGE. */
#define GP_TIME_OUT_OF_RANGE "out of range: in UTC this is "
/* *why when the text is neither a time nor a number (no impossible date
 * or time of day, nor a range, to name): a reader that takes only one of
 * the two forms says so instead. */
#define GP_TIME_EXPECTED                                                       \
    "expected an ISO 8601 time (2026-01-05T13:00:00Z) or epoch seconds"
bool gp_parse_time(const char *s, size_t len, double *out_seconds,
                   const char **why);
/* Formats epoch seconds as "2026-01-05T13:00:00Z". */
void gp_format_time(int64_t t, char *buf, size_t size);
/* Parses a duration "168h", "7d", "13w" into hours, 0 or more (the
 * caller checks its range). */
bool gp_parse_duration_hours(const char *s, double *hours);
/* Parses a whole decimal number; rejects junk, inf and nan. */
bool gp_parse_number(const char *s, size_t len, double *out);

#endif /* GPUPLAN_H */
