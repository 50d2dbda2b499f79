/*
 * man.c: gpuplan-man DIR writes the man pages (gpuplan.1 and
 * gpuplan-<command>.1) from the command table, the same text --help
 * prints, so the two cannot disagree.  Built beside gpuplan; the `man`
 * target writes man/, and a test checks man/ is current.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* Writes text to f as roff: backslashes and hyphens escaped, and a line
 * that starts with a control character guarded. */
static void put_roff(FILE *f, const char *text)
{
    bool line_start = true;
    for (const char *p = text; *p; p++) {
        if (line_start && (*p == '.' || *p == '\''))
            fputs("\\&", f);
        if (*p == '\\')
            fputs("\\e", f);
        else if (*p == '-')
            fputs("\\-", f);
        else
            putc(*p, f);
        line_start = *p == '\n';
    }
}

/* The sections every page ends with. */
static void put_tail(FILE *f, const char *see_also)
{
    fputs(".SH EXIT STATUS\n"
          "0 success, 1 bad input or a failed run (the error names the file,\n"
          "line, column and field), 2 a usage error.\n"
          ".SH ENVIRONMENT\n"
          ".TP\n.B GPUPLAN_DATA_DIR\n"
          "Folder holding the bundled \\fBpricing/\\fR catalogs and the\n"
          "\\fBscenarios/sample/\\fR trace (default: where gpuplan was built).\n"
          ".TP\n.B GPUPLAN_TODAY\n"
          "YYYY\\-MM\\-DD taken for today, for stale catalogs and traces (tests\n"
          "pin it).\n"
          ".SH SEE ALSO\n",
          f);
    fputs(see_also, f);
    fputs("\nThe docs/ folder of the source tree: formats, billing rules and\n"
          "what each output key means.\n",
          f);
}

/* gpuplan-<command>.1 */
static void put_command_page(FILE *f, const struct gp_command *cmd)
{
    fprintf(f, ".TH GPUPLAN\\-%s 1 \"\" \"gpuplan %s\" \"User Commands\"\n",
            cmd->name, GP_VERSION);
    fprintf(f, ".SH NAME\ngpuplan\\-%s \\- ", cmd->name);
    put_roff(f, cmd->summary);
    fprintf(f, "\n.SH SYNOPSIS\n.B gpuplan %s\n[\\fIoptions\\fR]\n",
            cmd->name);
    fputs(".SH OPTIONS\n.nf\n", f);
    put_roff(f, cmd->usage);
    fputs(".fi\n", f);
    put_tail(f, ".BR gpuplan (1)");
}

/* gpuplan.1: the overview and a line per command. */
static void put_main_page(FILE *f)
{
    fprintf(f, ".TH GPUPLAN 1 \"\" \"gpuplan %s\" \"User Commands\"\n",
            GP_VERSION);
    fputs(".SH NAME\ngpuplan \\- how to buy GPU cloud capacity\n"
          ".SH SYNOPSIS\n.B gpuplan\n\\fIcommand\\fR [\\fIoptions\\fR]\n"
          ".br\n.B gpuplan\n\\fIcommand\\fR \\-\\-help\n"
          ".br\n.B gpuplan\n\\-\\-help | \\-\\-version\n"
          ".SH DESCRIPTION\n"
          "gpuplan replays GPU usage history, split into training and\n"
          "inference, through on\\-demand, reserved, savings\\-plan and spot\n"
          "purchasing, recommends what to buy, ranked and with its risk,\n"
          "forecasts the next quarter and writes the Excel workbook finance\n"
          "reads.  With no \\-\\-trace, simulate and recommend run on the\n"
          "bundled sample.\n"
          ".SH COMMANDS\n",
          f);
    for (size_t i = 0; gp_commands[i]; i++) {
        fprintf(f, ".TP\n.B %s\n", gp_commands[i]->name);
        put_roff(f, gp_commands[i]->summary);
        fprintf(f, "; see\n.BR gpuplan\\-%s (1).\n", gp_commands[i]->name);
    }
    char see[1024] = "";
    for (size_t i = 0; gp_commands[i]; i++) {
        size_t n = strlen(see);
        snprintf(see + n, sizeof see - n, ".BR gpuplan\\-%s (1)%s\n",
                 gp_commands[i]->name, gp_commands[i + 1] ? "," : "");
    }
    put_tail(f, see);
}

/* Writes one page to dir/name; false after saying why. */
static bool write_page(const char *dir, const char *name,
                       const struct gp_command *cmd)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return false;
    }
    if (cmd)
        put_command_page(f, cmd);
    else
        put_main_page(f);
    if (fclose(f) != 0) {
        perror(path);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gpuplan-man DIR\n");
        return 2;
    }
    if (!write_page(argv[1], "gpuplan.1", NULL))
        return 1;
    for (size_t i = 0; gp_commands[i]; i++) {
        char name[64];
        snprintf(name, sizeof name, "gpuplan-%s.1", gp_commands[i]->name);
        if (!write_page(argv[1], name, gp_commands[i]))
            return 1;
    }
    return 0;
}
