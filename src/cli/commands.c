/*
 * commands.c: the table of commands, in the order --help lists them, and
 * the overview --help prints.  Each command's entry (its cmd_*.c) holds
 * its summary and usage: --help and the man pages (man.c) both print
 * those, so they cannot disagree.
 */
#include "cli.h"

#include <stdio.h>

const struct gp_command *const gp_commands[] = {
    &gp_cmd_simulate, &gp_cmd_recommend, &gp_cmd_forecast,
    &gp_cmd_classify, &gp_cmd_validate,  &gp_cmd_import,
    &gp_cmd_synth,
    NULL,
};

void gp_cli_print_help(FILE *f)
{
    fprintf(f, "gpuplan %s: how to buy GPU cloud capacity\n\n", GP_VERSION);
    fprintf(f, "usage: gpuplan <command> [options]\n\ncommands:\n");
    for (size_t i = 0; gp_commands[i]; i++)
        fprintf(f, "  %-10s %s\n", gp_commands[i]->name,
                gp_commands[i]->summary);
    fprintf(f, "\n'gpuplan <command> --help' shows a command's options.\n"
               "Exit status: 0 success, 1 bad input or failed run, 2 usage "
               "error.\n");
}
