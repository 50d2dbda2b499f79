/*
 * main.c: gpuplan's entry point.  Looks the command up in the table
 * (commands.c: one file per command, as in tmux's cmd-*.c), parses its
 * options and runs it.
 */
#include "cli.h"
#include "json_util.h"
#include "progress.h"
#include "util.h"

#include <errno.h>
#include <gsl/gsl_errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* What was written to standard output reached it: every printf of a
 * report is checked here at once, as the stream keeps its error.  A run
 * that succeeded but could not write its report (a full disk) fails with
 * the reason, as --json does; a run that failed has said why already. */
static int stdout_written(int rc)
{
    if (rc != 0 || (fflush(stdout) == 0 && !ferror(stdout)))
        return rc;
    int e = errno;
    gp_progress_clear();
    fprintf(stderr, "%s standard output: cannot write: %s\n",
            gp_cli_prefix(), e ? strerror(e) : "write error");
    return 1;
}

/* A run stopped by SIGINT, SIGTERM or SIGHUP removes the temporaries of
 * the outputs it was writing, then stops as the signal would have it. */
static void on_stop(int sig)
{
    gp_temp_remove_live();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void stop_cleanly(void)
{
    struct sigaction sa;
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    stop_cleanly();
    gp_json_alloc_init();
    if (argc < 2) {
        gp_cli_print_help(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        gp_cli_print_help(stdout);
        return stdout_written(0);
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gpuplan %s\n", GP_VERSION);
        return stdout_written(0);
    }
    for (size_t i = 0; gp_commands[i]; i++) {
        if (strcmp(argv[1], gp_commands[i]->name) == 0) {
            gp_cli cli;
            gp_cli_set_command(gp_commands[i]->name);
            int rc = gp_cli_parse(gp_commands[i], argc - 1, argv + 1, &cli);
            if (rc == 0) {
                gp_progress_enable(!cli.quiet && isatty(STDERR_FILENO));
                rc = gp_commands[i]->exec(&cli);
                gp_progress_clear();
            }
            else if (rc < 0)
                rc = 0; /* --help */
            gp_cli_free(&cli);
            return stdout_written(rc);
        }
    }
    const char *near = NULL;
    size_t best = 3;
    for (size_t i = 0; gp_commands[i]; i++) {
        size_t d = gp_edit_distance(argv[1], gp_commands[i]->name, best);
        if (d < best) {
            best = d;
            near = gp_commands[i]->name;
        }
    }
    if (near)
        fprintf(stderr,
                "gpuplan: unknown command \"%s\"; did you mean \"%s\"?\n",
                argv[1], near);
    else
        fprintf(stderr, "gpuplan: unknown command \"%s\"\n", argv[1]);
    gp_cli_print_help(stderr);
    return 2;
}
