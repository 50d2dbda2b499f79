/*
 * progress.h: how far a long run has got, on stderr while it works (SPEC
 * section 1: long runs show progress when stderr is a terminal; --quiet
 * silences it).
 */
#ifndef GP_PROGRESS_H
#define GP_PROGRESS_H
#include <stdbool.h>

/* Turns progress on or off for the run (off unless called: the library's
 * tests and other callers print nothing).  The command line turns it on
 * when stderr is a terminal and --quiet is not given. */
void gp_progress_enable(bool on);

/* `done` of `total` of stage `what` ("Monte Carlo", "forecast"), or, with
 * total <= 0, `done` megabytes of it.  Shown once the run has lasted a
 * second, at most four times a second; any thread may call it. */
void gp_progress(const char *what, double done, double total);

/* Clears the progress line, so that what is printed next starts clean. */
void gp_progress_clear(void);

#endif
