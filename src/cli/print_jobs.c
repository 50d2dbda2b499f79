/*
 * print_jobs.c: simulate's per-job-run table in the terminal (#37 waits
 * and deadlines, #38 the true cost of a training run): each strategy's
 * job runs, a row each when there are few, else their totals.
 */
#include "cli.h"
#include "engine.h"
#include "util.h"

#include <stdio.h>

/* More job runs than this in a strategy: totals, not a row each. */
#define JOB_ROWS_MAX 20

/* A job run's row: job, launch, attempts, interruptions, the failed
 * attempts' cost, cost per completed run, the wait, the fallback cost and
 * whether the deadline was met (the share of replays, or "-"). */
static void job_line(const gp_trace *t, const gp_ledger_job *j, bool spot)
{
    char failed[32], cost[32], fb[32], met[16] = "-", rec[16] = "-";

    gp_format_money_small(j->failed_attempt_cost_mean, failed, sizeof failed);
    gp_format_money(j->cost_mean, cost, sizeof cost);
    gp_format_money_small(j->fallback_cost_mean, fb, sizeof fb);
    if (j->met_deadline >= 0)
        snprintf(met, sizeof met, "%.0f%%", 100 * j->met_deadline);
    if (j->recorded_interruptions >= 0)
        snprintf(rec, sizeof rec, "%.0f", j->recorded_interruptions);
    printf("  %-16.16s %-9s %8.2f %8.2f %12s %14s %7.1f %12s %6s %8s\n",
           t->labels[t->runs[j->run].job], spot ? "spot" : "on demand",
           j->attempts_mean, j->interruptions_mean, failed, cost,
           j->wait_h_mean, fb, met, rec);
}

/* One strategy's totals over its n job runs. */
static void job_totals(const gp_ledger *l, size_t n)
{
    double attempts = 0, interruptions = 0, failed = 0, cost = 0, wait = 0;
    double fb = 0, met = 0, with_deadline = 0;
    char m[3][32];

    for (size_t i = 0; i < n; i++) {
        const gp_ledger_job *j =
            i < l->n_jobs ? &l->jobs[i] : &l->od_jobs[i - l->n_jobs];
        attempts += j->attempts_mean;
        interruptions += j->interruptions_mean;
        failed += j->failed_attempt_cost_mean;
        cost += j->cost_mean;
        wait += j->wait_h_mean;
        fb += j->fallback_cost_mean;
        if (j->met_deadline >= 0) {
            met += j->met_deadline;
            with_deadline++;
        }
    }
    gp_format_money(failed, m[0], sizeof m[0]);
    gp_format_money(cost / (double)n, m[1], sizeof m[1]);
    gp_format_money(fb, m[2], sizeof m[2]);
    printf("  %.2f attempts and %.2f interruptions per run; failed attempts "
           "%s in all; %s per completed run on average; waited %.1f h, "
           "fallback %s",
           attempts / (double)n, interruptions / (double)n, m[0], m[1], wait,
           m[2]);
    if (with_deadline > 0)
        printf("; deadline met by %.1f of %.0f", met, with_deadline);
    printf(" (every run: --csv's job_runs.csv)\n");
}

void gp_cli_print_job_runs(const gp_trace *t, struct gp_ledger *const *l,
                           size_t n)
{
    for (size_t k = 0; k < n; k++) {
        size_t runs = l[k]->n_jobs + l[k]->n_od_jobs;
        if (runs == 0)
            continue;
        printf("\njob runs (%s): %zu, %zu on spot\n", l[k]->strategy, runs,
               l[k]->n_jobs);
        if (runs > JOB_ROWS_MAX) {
            job_totals(l[k], runs);
            continue;
        }
        printf("  %-16s %-9s %8s %8s %12s %14s %7s %12s %6s %8s\n", "job",
               "launch", "attempts", "interr.", "failed cost", "cost per run",
               "wait h", "fallback", "met", "recorded");
        for (size_t i = 0; i < l[k]->n_jobs; i++)
            job_line(t, &l[k]->jobs[i], true);
        for (size_t i = 0; i < l[k]->n_od_jobs; i++)
            job_line(t, &l[k]->od_jobs[i], false);
    }
}
