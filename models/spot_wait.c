/*
 * spot_wait.c: a spot job run when capacity is not always there (SPEC
 * 7.4): it waits, unbilled, while capacity is missing, and falls back to
 * on demand when its deadline is at risk, by the greedy policy of "Can't
 * Be Late" (Wu et al., NSDI 2024).  The exact rule, to replay by hand, is
 * in docs/billing.md ("Spot availability").
 */
#include "spot_internal.h"

#include <math.h>
#include <string.h>

/* More waiting than this (hours) ends a wait without a deadline: ten
 * years, so that a tiny probability cannot loop for ever. */
#define WAIT_MAX_H 87600.0

bool gp_spot_wait(const struct spot_run *r, gsl_rng *rng,
                  struct replicate *out, bool ran, double left)
{
    const gp_policy *p = r->policy;
    double o = ran ? p->restart_overhead_h : 0;
    /* the delay so far: the time spent less the work done */
    double delay = out->spot_hours - (r->work - left);

    if (r->avail >= 1)
        return false;
    for (;;) {
        /* the greedy rule in slack terms: one more hour of waiting, then a
         * start, could take the run past its deadline */
        if (r->has_deadline && p->fallback == GP_LAUNCH_ON_DEMAND &&
            delay + out->wait_h + o + 1 > r->slack + 1e-9)
            return true;
        if (gsl_rng_uniform(rng) < r->avail || out->wait_h >= WAIT_MAX_H)
            return false;
        out->wait_h += 1;
    }
}

/* The run goes on demand at hour t of its replay with `left` hours of
 * work: a restart first when it ran on spot before. */
static void fall_back(const struct spot_run *r, struct replicate *out,
                      double t, double left, bool ran)
{
    double o = ran ? r->policy->restart_overhead_h : 0;

    out->fallback_restart = o;
    out->fallback_hours = o + left;
    out->finish_h = t + o + left;
}

void gp_spot_replay_history(const struct spot_run *r, struct replicate *out)
{
    const gp_policy *p = r->policy;
    bool od = p->fallback == GP_LAUNCH_ON_DEMAND;
    double g = r->hist->gap_s / 3600.0, R = p->restart_overhead_h;
    double deadline = r->has_deadline ? r->work + r->slack : INFINITY;
    double left = r->work, owed = 0;
    bool ran = false, running = false;

    memset(out, 0, sizeof *out);
    for (size_t k = 0;; k++) {
        double t = (double)k * g;
        bool there =
            gp_availability_at(r->hist, r->start, (double)k * r->hist->gap_s);
        if (!(running && there)) {
            /* capacity went: the state is saved, not lost (and the
             * deadline, not max_interruptions, decides the fallback) */
            if (running) {
                out->interruptions++;
                running = false;
            }
            double o = ran ? R : 0;
            if (od && deadline - t < left + o + g - 1e-9) {
                fall_back(r, out, t, left, ran);
                return;
            }
            if (!there) {
                out->wait_h += g;
                continue;
            }
            running = true;
            owed = o; /* a restart before any work */
            ran = true;
        }
        double use = g, paid = owed < use ? owed : use;
        owed -= paid;
        use -= paid;
        double done = left < use ? left : use;
        left -= done;
        out->spot_hours += paid + done;
        out->lost_hours += paid;
        if (left <= 1e-12) {
            out->finish_h = t + paid + done;
            return;
        }
    }
}
