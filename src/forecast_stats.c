/*
 * forecast_stats.c: the forecaster's statistics: quantiles by selection,
 * the MASE scale, error ratios that treat rounding as exact, the burst
 * profile and the quantiles of demand.  See docs/design/forecast.md.
 */
#include "forecast_internal.h"
#include "util.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <string.h>

/* The q-quantile of x[0, n) (linear interpolation between order
 * statistics, Hyndman and Fan type 7, as R's default), found by selection
 * (gsl_stats_select), which reorders x. */
double gp_fc_quantile(double *x, size_t n, double q)
{
    if (n == 0)
        return 0;
    double pos = q * (double)(n - 1);
    size_t i = (size_t)pos;
    double lo = gsl_stats_select(x, 1, n, i);
    if (i + 1 >= n)
        return lo;
    double hi = x[i + 1]; /* after the selection, x[i+1..] are >= lo */
    for (size_t j = i + 2; j < n; j++)
        if (x[j] < hi)
            hi = x[j];
    if (hi == lo) /* also when both are infinite: inf - inf is NAN */
        return lo;
    return lo + (pos - (double)i) * (hi - lo);
}

/* The MASE denominator: mean |y[i] - y[i - m]| over the sample. */
double gp_forecast_mase_scale(const double *y, size_t n, size_t m)
{
    if (m == 0 || n <= m)
        return NAN;
    double sum = 0;
    for (size_t i = m; i < n; i++)
        sum += fabs(y[i] - y[i - m]);
    return sum / (double)(n - m);
}

/* The MASE scale of a history: the one-week seasonal naive's in-sample
 * MAE when the history is over two weeks (337 hours or more: two weeks
 * give only one week of its errors), the one-day one's otherwise; the
 * period used goes in *season (0 for a day or less: no scale). */
double gp_fc_mase_scale(const double *y, size_t n, int *season)
{
    *season = n > 2 * WEEK ? WEEK : (n > DAY ? DAY : 0);
    return *season ? gp_forecast_mase_scale(y, n, (size_t)*season) : NAN;
}

/* An error ratio a / b (relative MAE, MASE) for a series whose mean demand
 * is `scale`: NAN when b is exact (there is no error to beat, as when b is
 * 0), 0 when a is exact and b is not, a / b otherwise. */
double gp_fc_ratio(double a, double b, double scale)
{
    double tol = EXACT_SHARE * scale;
    if (!(b > tol))
        return NAN;
    return a <= tol ? 0 : a / b;
}

/* The burst profile of y[0, n): fraction of hours with demand, mean demand
 * in them, mean length of a run of such hours. */
void gp_fc_burst_profile(const double *y, size_t n, gp_forecast_series *s)
{
    size_t active = 0, runs = 0;
    double sum = 0;
    for (size_t i = 0; i < n; i++) {
        if (y[i] > 1e-9) {
            active++;
            sum += y[i];
            if (i == 0 || y[i - 1] <= 1e-9)
                runs++;
        }
    }
    s->burst_duty = n ? (double)active / (double)n : 0;
    s->burst_size = active ? sum / (double)active : 0;
    s->burst_hours = runs ? (double)active / (double)runs : 0;
}

/* The quantiles (1 - interval) / 2, 1/2 and 1 - (1 - interval) / 2 of
 * demand y[0, n) in q[0..2]. */
gp_status gp_fc_demand_quantiles(const double *y, size_t n, double interval,
                                 double q[3])
{
    double *sorted = gp_malloc(n * sizeof *sorted);
    if (!sorted)
        return GP_ERR_NOMEM;
    memcpy(sorted, y, n * sizeof *sorted);
    q[0] = gp_fc_quantile(sorted, n, (1 - interval) / 2);
    q[1] = gp_fc_quantile(sorted, n, 0.5);
    q[2] = gp_fc_quantile(sorted, n, 1 - (1 - interval) / 2);
    gp_free(sorted);
    return GP_OK;
}

/* The median of x[0, n), for the few values (a candidate per method, a
 * day or a week per period back) the forecaster takes medians of at every
 * hour: Wirth's selection of the middle value (and, for n even, the
 * largest below it, whose mean is the median), which on 5 to 24 values
 * costs a fraction of gsl_sort's heapsort through a comparison function
 * and gives the same median.  Reorders x; NAN for n == 0. */
double gp_fc_median_small(double *x, size_t n)
{
    if (n == 0)
        return NAN;
    size_t k = n / 2, l = 0, m = n - 1;
    while (l < m) {
        double v = x[k];
        size_t i = l, j = m;
        do {
            while (x[i] < v)
                i++;
            while (v < x[j])
                j--;
            if (i <= j) {
                double t = x[i];
                x[i++] = x[j];
                x[j--] = t;
            }
        } while (i <= j && j < n);
        if (j < k || j >= n)
            l = i;
        if (k < i)
            m = j;
    }
    if (n % 2)
        return x[k];
    double below = x[0]; /* x[0, k) now holds the k smallest */
    for (size_t i = 1; i < k; i++)
        below = x[i] > below ? x[i] : below;
    return (below + x[k]) / 2;
}
