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
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

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

/* The median of 1 to 4 values by comparisons (the seasonal median over
 * 2 or 4 weeks takes 168 of them a run): the middle value, or the mean
 * of the two middle ones, added in the order gp_fc_median_small adds
 * them.  NAN when one is NAN, and a 0 may be the other zero than
 * gp_fc_median_small's: the caller does those again. */
static double median_up_to_4(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(x[i]))
            return NAN;
    if (n == 1)
        return x[0];
    if (n == 2)
        return (x[0] + x[1]) / 2;
    double lo = x[0] < x[1] ? x[0] : x[1], hi = x[0] < x[1] ? x[1] : x[0];
    if (n == 3) {
        double m = hi < x[2] ? hi : x[2];
        return lo < m ? m : lo;
    }
    double lo2 = x[2] < x[3] ? x[2] : x[3], hi2 = x[2] < x[3] ? x[3] : x[2];
    double below = lo < lo2 ? lo2 : lo, above = hi < hi2 ? hi : hi2;
    return (below + above) / 2;
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
    if (n <= 4) {
        double m = median_up_to_4(x, n);
        if (m != 0 && !isnan(m))
            return m;
    }
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

/* The comparators (pairs of wires) of a network whose wire 10 ends as
 * the median of its 21: Batcher's odd-even merge sort of 32 wires, the
 * comparators on wires 21..31 dropped (they would hold +inf) and those
 * no comparator leading to wire 10 needs pruned: 91 of 112.  Checked on
 * every 0/1 input (the 0-1 principle) by tests/unit/test_forecast_stats.c. */
#define MEDIAN_NET_WIRES 21
#define MEDIAN_NET_SIZE 91
const unsigned char gp_fc_median_net[2 * MEDIAN_NET_SIZE] = {
    0, 1, 2, 3, 0, 2, 1, 3, 1, 2, 4, 5, 6, 7, 4, 6, 5, 7, 5, 6, 0, 4, 2, 6,
    2, 4, 1, 5, 3, 7, 3, 5, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 8, 10, 9, 11, 9,
    10, 12, 13, 14, 15, 12, 14, 13, 15, 13, 14, 8, 12, 10, 14, 10, 12, 9,
    13, 11, 15, 11, 13, 9, 10, 11, 12, 13, 14, 0, 8, 4, 12, 4, 8, 2, 10, 6,
    14, 6, 10, 2, 4, 6, 8, 10, 12, 1, 9, 5, 13, 5, 9, 3, 11, 7, 15, 7, 11,
    3, 5, 7, 9, 11, 13, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 17, 18,
    19, 16, 18, 17, 19, 17, 18, 16, 20, 18, 20, 17, 18, 19, 20, 18, 20, 17,
    18, 19, 20, 0, 16, 8, 16, 4, 20, 12, 20, 12, 16, 2, 18, 10, 18, 6, 10,
    10, 12, 1, 17, 9, 17, 5, 9, 3, 19, 11, 19, 7, 11, 7, 9, 9, 10
};

/* Hours a median network call works on at once (the comparators run
 * over a row of them, which the compiler vectorizes). */
#define MEDIAN_BLOCK 32

/* One comparator over a block of hours: x[t] becomes the smaller of
 * x[t] and y[t], y[t] the larger, as x[t] < y[t] ? x[t] : y[t] and
 * y[t] > x[t] ? y[t] : x[t] (SSE2's minpd and maxpd do exactly these,
 * two hours an instruction; the compiler's own vectorizing of them
 * shares one mask and takes twice the instructions). */
static void compare_exchange(double *x, double *y)
{
#if defined(__SSE2__)
    for (size_t t = 0; t < MEDIAN_BLOCK; t += 2) {
        __m128d a = _mm_loadu_pd(x + t), b = _mm_loadu_pd(y + t);
        _mm_storeu_pd(x + t, _mm_min_pd(a, b));
        _mm_storeu_pd(y + t, _mm_max_pd(b, a));
    }
#else
    for (size_t t = 0; t < MEDIAN_BLOCK; t++) {
        double lo = x[t] < y[t] ? x[t] : y[t];
        double hi = y[t] > x[t] ? y[t] : x[t];
        x[t] = lo;
        y[t] = hi;
    }
#endif
}

/* The medians out[k] = median over i < n of base[idx[i] * stride + k],
 * for k < len: the median of n candidates' forecasts (or residuals) at
 * each hour.  With 21 columns, by the network above over blocks of
 * hours; an hour whose values hold a NAN, or whose median is 0 with a
 * -0 among them (which zero comes out is the method's), is done again by
 * gp_fc_median_small, so that every median is bit for bit the one
 * gp_fc_median_small gives. */
void gp_fc_median_columns(const double *base, size_t stride,
                          const size_t *idx, size_t n, size_t len,
                          double *out)
{
    double v[MEDIAN_NET_WIRES][MEDIAN_BLOCK], sum[MEDIAN_BLOCK];
    double col[MAX_MEMBERS];
    if (n != MEDIAN_NET_WIRES) { /* n <= MAX_MEMBERS */
        for (size_t k = 0; k < len; k++) {
            for (size_t i = 0; i < n; i++)
                col[i] = base[idx[i] * stride + k];
            out[k] = gp_fc_median_small(col, n);
        }
        return;
    }
    for (size_t k0 = 0; k0 < len; k0 += MEDIAN_BLOCK) {
        size_t b = len - k0 < MEDIAN_BLOCK ? len - k0 : MEDIAN_BLOCK;
        memset(sum, 0, sizeof sum);
        for (size_t i = 0; i < n; i++) {
            memcpy(v[i], base + idx[i] * stride + k0, b * sizeof v[i][0]);
            memset(v[i] + b, 0, (MEDIAN_BLOCK - b) * sizeof v[i][0]);
            for (size_t t = 0; t < MEDIAN_BLOCK; t++)
                sum[t] += v[i][t];
        }
        for (size_t c = 0; c < MEDIAN_NET_SIZE; c++)
            compare_exchange(v[gp_fc_median_net[2 * c]],
                             v[gp_fc_median_net[2 * c + 1]]);
        for (size_t t = 0; t < b; t++) {
            double m = v[MEDIAN_NET_WIRES / 2][t];
            bool again = isnan(sum[t]);
            for (size_t i = 0; m == 0 && !again && i < n; i++) {
                double x = base[idx[i] * stride + k0 + t];
                again = x == 0 && signbit(x);
            }
            out[k0 + t] = m;
            if (again) {
                for (size_t i = 0; i < n; i++)
                    col[i] = base[idx[i] * stride + k0 + t];
                out[k0 + t] = gp_fc_median_small(col, n);
            }
        }
    }
}
