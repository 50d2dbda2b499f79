/*
 * recommend.h: what to buy, ranked, with its risk (SPEC section 5,
 * recommend).
 *
 * The recommender decides whether training should launch on spot (the
 * routing action), then sizes commitments with the optimizer for three
 * appetites (conservative, balanced, aggressive) and bills each plan with
 * the engine.  What each plan buys, the low-demand case and the terms the
 * history supports: docs/design/recommend.md.
 */
#ifndef GP_RECOMMEND_H
#define GP_RECOMMEND_H

#include "engine.h"
#include "gpuplan.h"
#include "optimizer.h"

struct gp_forecast;

typedef enum gp_action_type {
    GP_ACTION_RESERVED = 0,
    GP_ACTION_SAVINGS_PLAN = 1,
    GP_ACTION_ROUTING = 2
} gp_action_type;

typedef struct gp_action {
    int rank;
    gp_action_type type;
    gp_commitment c;   /* reserved and savings_plan */
    bool renewal;      /* renews an owned commitment that expires */
    double upfront;    /* cash at purchase */
    double net_savings; /* marginal, on top of the actions above */
    double savings_pct; /* net_savings / the on-demand value it covered
                           (routing: / training's cost before it) */
    double breakeven_utilization;
    double expected_utilization;
    double downside_net_savings;
    /* what the clouds' recommenders report of a purchase (SPEC 7.2); the
     * money after the scenario's discount but hourly_commitment; NAN for
     * routing */
    double hourly_commitment; /* $/h as contracted: a plan's commitment; a
                                 reservation's fee plus its upfront over
                                 the term */
    double recurring_monthly; /* recurring $ a month (730 hours) */
    double roi;               /* net_savings over what it costs in the
                                 window (hourly_commitment x hours) */
    double breakeven_months;  /* months until the on-demand cost avoided,
                                 less the recurring fee, repays the
                                 upfront; 0 with no upfront, NAN never */
    double interruption_cost; /* routing: expected cost of interruptions */
    double routed_cost;       /* routing: what training costs routed to spot */
    char reason[320];
} gp_action;

typedef struct gp_plan_result {
    char name[16];
    gp_commitment *commitments;
    size_t n_commitments;
    bool route_training_to_spot;
    int max_term; /* the longest term it buys, 0 when it buys nothing */
    double total_cost, net_savings, upfront;
    double downside_net_savings;
    double annual_cost; /* the commitments' amortized cost for a year */
    char risk[768];
} gp_plan_result;

/* Net savings of one instrument at levels around the chosen one. */
typedef struct gp_curve {
    char instrument[128];
    double chosen;
    const char *unit; /* "instances" or "$/h" */
    size_t n;
    double level[41], net_savings[41];
} gp_curve;

/* The options a large job run is priced on (SPEC 7.4), in the order
 * recommend lists them. */
typedef enum gp_capacity_option {
    GP_CAP_ON_DEMAND,
    GP_CAP_SPOT,
    GP_CAP_BLOCK,
    GP_CAP_FLEX,
    GP_CAP_CALENDAR,
    GP_N_CAP_OPTIONS
} gp_capacity_option;

/* "on_demand", "spot", "capacity_block", "flex_start", "calendar" */
const char *gp_capacity_option_name(gp_capacity_option o);

/* One option of one run: its cost after the scenario's discount (spot:
 * the replay's mean, interruptions and fallback included). */
typedef struct gp_capacity_cost {
    bool available;      /* sold for this run (why not: note) */
    bool meets_deadline; /* done by the run's deadline, if it has one */
    double cost;
    double wait_h;    /* flex-start: expected waits */
    double finish_h;  /* hours from its start to its end */
    double unused_ih; /* block, calendar: instance-hours paid, not used */
    double unused_h;  /* ... hours after the run to the reservation's end */
    int days, units;  /* reservation days; blocks, requests */
    bool estimate;    /* the price is an estimate */
    char note[192];   /* why it is not available, or its detail */
} gp_capacity_cost;

/* A large job run (8 instances or more for 24 hours or more) and the
 * cheapest of its options that meets its deadline. */
typedef struct gp_capacity_choice {
    uint32_t run;             /* index into trace->runs */
    double instances, hours;  /* peak, wall time */
    double instance_hours;
    double deadline_h;        /* from its start; INFINITY: none */
    gp_capacity_cost option[GP_N_CAP_OPTIONS];
    gp_capacity_option chosen;
    double net_savings;       /* on demand's cost less the chosen one's */
    char reason[448], risk[320];
} gp_capacity_choice;

typedef struct gp_recommendation {
    int64_t start_hour;
    size_t n_hours;
    double all_on_demand_cost, policy_cost;
    gp_action *actions;
    size_t n_actions;
    gp_plan_result plans[3]; /* conservative, balanced, aggressive */
    size_t recommended;      /* index of the recommended plan */
    double hindsight_cost, hindsight_net_savings;
    double hindsight_any_term_cost, hindsight_any_term_net_savings;
    double captured_fraction;
    int supported_term;
    /* the window's last 13 weeks' mean demand over the whole window's:
     * under 0.9, a decline that rules out 3-year terms; NAN for a window
     * under 26 weeks, too short for them whatever it does */
    double last_13_weeks_share;
    gp_curve *curves;
    size_t n_curves;
    /* backtest (the train-until parameter) */
    bool backtest;
    int64_t train_until;
    size_t test_hours;
    double test_policy_cost, test_plan_cost, test_plan_net_savings;
    double test_hindsight_net_savings, test_captured_fraction;
    /* the same, for the commitments alone (routing taken out of both) */
    double test_commitment_net_savings, test_hindsight_commitment_savings;
    double test_commitment_captured_fraction;
    /* the forward parameter: the window is the forecast horizon, sized on P50
     * demand; downside on P10 demand, upside on P90 demand (net savings of the
     * recommended plan against the scenario's policy on each) */
    bool forward;
    size_t forward_hours;
    double forward_p50_net_savings, forward_downside_net_savings;
    double forward_upside_net_savings, forward_upside_policy_cost;
    double forward_instance_hours[3]; /* P10, P50, P90 totals */
    struct gp_forecast *forecast;     /* the forecast bought for; owned;
                                       * set exactly when forward is */
    gp_warnings notes;
    /* capacity instruments: the largest job runs' options, by on-demand
     * cost, the most expensive first (at most GP_CAPACITY_MAX_RUNS of the
     * capacity_large runs found) */
    gp_capacity_choice *capacity;
    size_t n_capacity, capacity_large;
} gp_recommendation;

/* A job run is large from 8 instances for 24 hours; recommend prices at
 * most this many of them. */
#define GP_CAPACITY_MIN_INSTANCES 8.0
#define GP_CAPACITY_MIN_HOURS 24.0
#define GP_CAPACITY_MAX_RUNS 20

/* Routing training to spot, as an instrument the user may rule out (the
 * others are the optimizer's GP_BUY_*). */
#define GP_BUY_ROUTING 8u
/* Pricing large job runs on capacity blocks, flex-start and calendar
 * reservations beside on demand and spot (gp_capacity_choice). */
#define GP_BUY_CAPACITY 16u
#define GP_BUY_EVERYTHING (GP_BUY_ALL | GP_BUY_ROUTING | GP_BUY_CAPACITY)

typedef struct gp_recommend_options {
    int64_t train_until; /* seconds; 0 = no backtest */
    /* what it may buy (SPEC 7.2): terms (GP_TERM_BIT), payments (a bit
     * per gp_payment) and instruments (GP_BUY_*); every plan keeps to
     * them, the hindsight optimum too */
    unsigned terms, payments, instruments;
    /* > 0: size on the last this many hours of the window (before the
     * backtest's cut), as the clouds' 7, 30 and 60-day lookbacks */
    size_t lookback_hours;
    size_t forward_hours; /* > 0: plan for the forecast of these hours */
    int threads;
    int mc_runs; /* < 0: the scenario's */
    long mc_seed;
    gp_progress progress; /* handed to the engine and the forecast */
    /* gp_recommend's own, for its bills (the spot Monte Carlo's results
     * kept across them); a caller leaves it NULL */
    gp_spot_memo *spot_memo;
} gp_recommend_options;

void gp_recommend_options_init(gp_recommend_options *o);

gp_status gp_recommend(const gp_trace *trace, const gp_pricing *pricing,
                       const gp_scenario *s, const gp_recommend_options *opt,
                       gp_recommendation **out, gp_error *err);
void gp_recommendation_free(gp_recommendation *r);

/* The action's type as the JSON and CSV name it: "reserved",
 * "savings_plan", "routing". */
const char *gp_action_type_name(gp_action_type t);

/* A purchase in words, as the terminal table and the workbook say it:
 * "4 x g5.xlarge us-east-1, 1y no_upfront", "compute plan aws $12.500/h,
 * 1y no_upfront", an instance_family plan with "(family region)";
 * "renew " in front when `renewal`. */
void gp_commitment_describe(const gp_commitment *c, bool renewal, char *buf,
                            size_t size);

/* An action in words: "launch training on spot", or its purchase. */
void gp_action_describe(const gp_action *a, char *buf, size_t size);

/* An action in plain words, as the workbook names it for a reader who
 * does not know the catalogs' terms: "Run training on spot instances",
 * "Reserve 4 g5.xlarge (aws us-east-1) for 1 year, nothing upfront",
 * "Commit $21.57 an hour for 1 year to a savings plan for g6e (aws
 * us-east-1), paid all upfront"; "Renew: " in front of a renewal. */
void gp_action_plain(const gp_action *a, char *buf, size_t size);

/* Bills the two ledgers a recommendation's workbook shows: out[0] the
 * scenario's policy with nothing new bought (policy_cost), out[1] the
 * recommended plan (its routing and commitments; plan total_cost), over the
 * recommendation's window.  Free both with gp_ledger_free.  A forward
 * recommendation plans on forecast demand, not the trace: then both are
 * NULL, and the workbook's ledger sheets say they were not computed. */
gp_status gp_recommend_bill_plan(const gp_trace *trace,
                                 const gp_pricing *pricing,
                                 const gp_scenario *s,
                                 const gp_recommendation *rec, int threads,
                                 int mc_runs, long mc_seed,
                                 const gp_progress *progress, gp_ledger *out[2],
                                 gp_error *err);

#endif
