/*
 * util.c: the names of the vocabulary enums, and numbers and money written
 * for people in the run's currency.  The rest of util.h is in util_time.c
 * (calendar, number and time parsing), util_text.c, util_containers.c and
 * util_files.c.
 */
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- names -------------------------------------------------------------- */

const char *gp_workload_name(gp_workload w)
{
    switch (w) {
    case GP_TRAINING:
        return "training";
    case GP_INFERENCE:
        return "inference";
    case GP_UNLABELED:
        break;
    }
    return "unlabeled";
}

const char *gp_payment_name(gp_payment p)
{
    switch (p) {
    case GP_NO_UPFRONT:
        return "no_upfront";
    case GP_PARTIAL_UPFRONT:
        return "partial_upfront";
    case GP_ALL_UPFRONT:
        return "all_upfront";
    }
    return "?";
}

const char *gp_plan_kind_name(gp_plan_kind k)
{
    return k == GP_PLAN_COMPUTE ? "compute" : "instance_family";
}

const char *gp_launch_name(gp_launch l)
{
    static const char *const names[] = {"on_demand", "spot", "capacity_block",
                                        "flex_start", "calendar"};
    return (unsigned)l < sizeof names / sizeof names[0] ? names[l]
                                                         : "on_demand";
}

/* ---- numbers written for people ----------------------------------------- */

void gp_format_trimmed(double v, int decimals, char *buf, size_t size)
{
    if (size == 0)
        return;
    snprintf(buf, size, "%.*f", decimals, v);
    if (!strchr(buf, '.'))
        return;
    size_t n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0')
        buf[--n] = '\0';
    if (n > 0 && buf[n - 1] == '.')
        buf[--n] = '\0';
}

void gp_format_small(double v, const char *zero, char *buf, size_t size)
{
    if (size == 0)
        return;
    if (!(v > 0))
        snprintf(buf, size, "%s", zero);
    else if (v < 0.0001)
        snprintf(buf, size, "under 0.0001");
    else if (v < 0.05)
        snprintf(buf, size, "%.2g", v);
    else
        snprintf(buf, size, "%.1f", v);
}

void gp_format_money_small(double v, char *buf, size_t size)
{
    if (v > 0 && v < 0.005)
        snprintf(buf, size, "under %s0.01", gp_money_prefix());
    else
        gp_format_money(v, buf, size);
}

/* ---- the currency money is written in ------------------------------------ */

static char money_currency[4] = "USD";
static char money_prefix[8] = "$";
static char money_unit[4] = "$";
static char money_per_hour[8] = "$/h";

void gp_money_set_currency(const char *code)
{
    if (!code || strlen(code) != 3)
        code = "USD";
    snprintf(money_currency, sizeof money_currency, "%s", code);
    bool usd = strcmp(code, "USD") == 0;
    snprintf(money_prefix, sizeof money_prefix, "%s%s", usd ? "$" : code,
             usd ? "" : " ");
    snprintf(money_unit, sizeof money_unit, "%s", usd ? "$" : code);
    snprintf(money_per_hour, sizeof money_per_hour, "%s/h", money_unit);
}

const char *gp_money_currency(void)
{
    return money_currency;
}

const char *gp_money_prefix(void)
{
    return money_prefix;
}

const char *gp_money_unit(void)
{
    return money_unit;
}

const char *gp_money_per_hour(void)
{
    return money_per_hour;
}

/* Amounts from this many dollars up are written in exponent form: cents
 * are no longer exact in a double there, and no real bill comes near it
 * (the trace bounds keep one row's cost under it), so such a number is a
 * sign of bad input, not something to read digit by digit. */
#define MONEY_EXPONENT_FROM 1e15

void gp_format_money(double v, char *buf, size_t size)
{
    char digits[64];
    double a = fabs(v);
    int n, lead;
    size_t k = 0;

    if (size == 0)
        return;
    if (isnan(v)) {
        snprintf(buf, size, "n/a");
        return;
    }
    const char *cur = gp_money_prefix();
    if (!(a < MONEY_EXPONENT_FROM)) { /* infinite too: "$inf" */
        snprintf(buf, size, "%s%s%.3e", v < 0 ? "-" : "", cur, a);
        return;
    }
    /* at most 16 digits, the point and two decimals: digits has room */
    snprintf(digits, sizeof digits, "%.2f", a);
    n = (int)(strchr(digits, '.') - digits);
    /* no sign on what rounds to zero: a baseline's savings of -1.5e-8
     * (two sums of the same costs in another order) is "$0.00" */
    if (v < 0 && strcmp(digits, "0.00") != 0 && k + 1 < size)
        buf[k++] = '-';
    for (const char *p = cur; *p && k + 1 < size; p++)
        buf[k++] = *p;
    lead = n % 3 ? n % 3 : 3;
    for (int i = 0; i < n && k + 2 < size; i++) {
        if (i > 0 && (i - lead) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = digits[i];
    }
    for (const char *p = digits + n; *p && k + 1 < size; p++)
        buf[k++] = *p;
    buf[k < size ? k : size - 1] = '\0';
}
