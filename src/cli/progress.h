/*
 * progress.h: how far a long run has got, on stderr while it works (SPEC
 * section 1: long runs show progress when stderr is a terminal; --quiet
 * silences it).  The library reports to gp_cli_progress through the
 * gp_progress callback in its run options.
 */
#ifndef GP_PROGRESS_H
#define GP_PROGRESS_H
#include "gpuplan.h"

#include <stdbool.h>

/* Turns progress on or off for the run (off unless called: the library's
 * tests and other callers print nothing).  The command line turns it on
 * when stderr is a terminal and --quiet is not given. */
void gp_progress_enable(bool on);

/* `done` of `total` of stage `what` ("reading the trace", "forecast"), or,
 * with total <= 0, `done` megabytes of it; done < 0 clears the line (the
 * stage is over).  Shown once the run has lasted a second, at most four
 * times a second; any thread may call it.  A gp_progress callback: ctx is
 * unused. */
void gp_cli_progress(void *ctx, const char *what, double done, double total);

/* The callback to put in a run's options. */
#define GP_CLI_PROGRESS ((gp_progress){gp_cli_progress, NULL})

/* Clears the progress line, so that what is printed next starts clean. */
void gp_progress_clear(void);

#endif
