/*
 * main.c: gpuplan's entry point.  Looks the command up in the table (one
 * file per command, as in tmux's cmd-*.c), parses its options and runs it.
 */
#include "cli.h"
#include "json_util.h"
#include "progress.h"

#include <gsl/gsl_errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const struct gp_command *const commands[] = {
    &gp_cmd_simulate,
    &gp_cmd_recommend,
    &gp_cmd_forecast,
    &gp_cmd_classify,
    &gp_cmd_validate,
    &gp_cmd_import,
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_help(FILE *f)
{
    fprintf(f, "gpuplan %s: how to buy GPU cloud capacity\n\n", GP_VERSION);
    fprintf(f, "usage: gpuplan <command> [options]\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fprintf(f, "\n'gpuplan <command> --help' shows a command's options.\n"
               "Exit status: 0 success, 1 bad input or failed run, 2 usage "
               "error.\n");
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off();
    gp_json_alloc_init();
    if (argc < 2) {
        print_help(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        print_help(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gpuplan %s\n", GP_VERSION);
        return 0;
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], commands[i]->name) == 0) {
            gp_cli cli;
            int rc = gp_cli_parse(commands[i], argc - 1, argv + 1, &cli);
            if (rc == 0) {
                gp_progress_enable(!cli.quiet && isatty(STDERR_FILENO));
                rc = commands[i]->exec(&cli);
                gp_progress_clear();
            }
            else if (rc < 0)
                rc = 0; /* --help */
            gp_cli_free(&cli);
            return rc;
        }
    }
    fprintf(stderr, "gpuplan: unknown command \"%s\"\n", argv[1]);
    print_help(stderr);
    return 2;
}
