/*
 * options_synth.c: the options of `gpuplan synth`: how many years, the
 * growth and decline rates, a step change (--step DATE:FACTOR) and a
 * migration (--migrate DATE:FROM:TO:EQUIV), read into gp_cli.synth.
 */
#include "cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int usage(const struct gp_command *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = gp_cli_option_verror(cmd, fmt, ap);
    va_end(ap);
    return rc;
}

/* A number from lo to hi in *out; false when value is not one. */
static bool number_in(const char *value, double lo, double hi, double *out)
{
    return gp_parse_number(value, strlen(value), out) && *out >= lo &&
           *out <= hi;
}

int gp_cli_read_years(const struct gp_command *cmd, gp_cli *cli,
                      const char *value)
{
    if (!number_in(value, 0.01, 10, &cli->synth.years))
        return usage(cmd, "--years takes a number of years from 0.01 to 10, "
                          "got \"%s\"",
                     value);
    return 0;
}

int gp_cli_read_growth(const struct gp_command *cmd, gp_cli *cli,
                       const char *value)
{
    if (!number_in(value, 0, 1, &cli->synth.growth))
        return usage(cmd, "--growth takes a monthly rate from 0 to 1 (0.02: "
                          "2%% a month), got \"%s\"",
                     value);
    return 0;
}

int gp_cli_read_decline(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    if (!number_in(value, 0, 0.99, &cli->synth.decline))
        return usage(cmd, "--decline takes a monthly rate from 0 to 0.99 "
                          "(0.02: 2%% a month), got \"%s\"",
                     value);
    return 0;
}

/* The time before the colon at *value (ISO 8601 dates have no colon
 * before their time part: 2026-06-01 or 2026-06-01T00:00:00Z is read up
 * to the colon that follows the whole time). */
static const char *time_part(const char *value, double *t)
{
    const char *why;
    for (const char *c = strchr(value, ':'); c; c = strchr(c + 1, ':'))
        if (gp_parse_time(value, (size_t)(c - value), t, &why))
            return c + 1;
    return NULL;
}

int gp_cli_read_step(const struct gp_command *cmd, gp_cli *cli,
                     const char *value)
{
    double t, f;
    const char *rest = time_part(value, &t);
    if (!rest || !number_in(rest, 0, 1000, &f) || !(t > 0))
        return usage(cmd, "--step takes DATE:FACTOR (2026-09-01:1.5: half "
                          "as much again from that date), got \"%s\"",
                     value);
    cli->synth.step_at = (int64_t)t;
    cli->synth.step_factor = f;
    return 0;
}

int gp_cli_read_migrate(const struct gp_command *cmd, gp_cli *cli,
                        const char *value)
{
    double t, eq;
    const char *rest = time_part(value, &t);
    const char *to = rest ? strchr(rest, ':') : NULL;
    const char *eqs = to ? strchr(to + 1, ':') : NULL;
    if (!eqs || !(t > 0) || to - rest <= 0 ||
        (size_t)(to - rest) >= sizeof cli->migrate_from ||
        eqs - to - 1 <= 0 || (size_t)(eqs - to - 1) >= sizeof cli->migrate_to ||
        !number_in(eqs + 1, 0.001, 1000, &eq))
        return usage(cmd, "--migrate takes DATE:FROM:TO:EQUIV "
                          "(2026-09-01:p4d.24xlarge:p5.48xlarge:0.5: each "
                          "p4d.24xlarge's work on half a p5.48xlarge), got "
                          "\"%s\"",
                     value);
    memcpy(cli->migrate_from, rest, (size_t)(to - rest));
    cli->migrate_from[to - rest] = '\0';
    memcpy(cli->migrate_to, to + 1, (size_t)(eqs - to - 1));
    cli->migrate_to[eqs - to - 1] = '\0';
    cli->synth.migrate_at = (int64_t)t;
    cli->synth.migrate_from = cli->migrate_from;
    cli->synth.migrate_to = cli->migrate_to;
    cli->synth.migrate_equiv = eq;
    return 0;
}
