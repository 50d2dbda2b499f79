/*
 * test_forecast_stats.c: the medians of 21 candidates by a comparator
 * network (forecast_stats.c, gp_fc_median_columns, issue #35): the
 * network is checked on every 0/1 input (the 0-1 principle), and the
 * medians it gives are bit for bit those of gp_fc_median_small, which it
 * stands in for, including NANs and signed zeros.
 */
/* cmocka needs these before it */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "check.h"
#include "forecast_internal.h"

#define WIRES 21

/* The 0-1 principle (Knuth, TAOCP vol. 3, 5.3.4): a comparator network
 * puts the right value on a wire for every input if it does so for every
 * input of 0s and 1s.  The median of 21 zeros and ones is 1 exactly when
 * 11 or more are 1.  The 2^21 inputs run 64 at a time, one bit each: a
 * comparator's min is the AND of its wires, its max the OR. */
static void network_median_on_every_01_input(void **state)
{
    (void)state;
    for (uint32_t base = 0; base < (1u << WIRES); base += 64) {
        uint64_t w[WIRES];
        for (int i = 0; i < WIRES; i++) {
            w[i] = 0;
            for (uint32_t b = 0; b < 64; b++)
                w[i] |= (uint64_t)(((base + b) >> i) & 1) << b;
        }
        for (int c = 0; c < 91; c++) {
            int a = gp_fc_median_net[2 * c], z = gp_fc_median_net[2 * c + 1];
            uint64_t lo = w[a] & w[z], hi = w[a] | w[z];
            w[a] = lo;
            w[z] = hi;
        }
        uint64_t want = 0;
        for (uint32_t b = 0; b < 64; b++)
            if (__builtin_popcount(base + b) >= 11)
                want |= (uint64_t)1 << b;
        assert_true(w[WIRES / 2] == want);
    }
}

/* Bit for bit equal. */
static bool same_bits(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Columns of 21 (one per candidate, len hours each): hour k holds a
 * permutation of 1..21 (median 11 by hand), every 7th hour a NAN, every
 * 5th hour -0 and +0 around a median of 0, every 3rd repeated values;
 * len 77 is two whole blocks of 32 hours and part of a third.  Each
 * median must be gp_fc_median_small's, bit for bit. */
static void columns_match_median_small(void **state)
{
    (void)state;
    enum { LEN = 77 };
    double base[WIRES * LEN], out[LEN], col[WIRES];
    size_t idx[WIRES];
    for (size_t i = 0; i < WIRES; i++)
        idx[i] = WIRES - 1 - i; /* the columns in any order */
    for (size_t k = 0; k < LEN; k++)
        for (size_t i = 0; i < WIRES; i++) {
            double v = (double)((i * 8 + k) % WIRES + 1); /* 8 is prime to 21 */
            if (k % 3 == 0)
                v = (double)(i % 4) * 0.1;
            if (k % 5 == 0)
                v = i < 6 ? -1.0 : (i < 16 ? (i % 2 ? -0.0 : 0.0) : 2.0);
            if (k % 7 == 0 && i == k % WIRES)
                v = NAN;
            base[i * LEN + k] = v;
        }
    gp_fc_median_columns(base, LEN, idx, WIRES, LEN, out);
    for (size_t k = 0; k < LEN; k++) {
        for (size_t i = 0; i < WIRES; i++)
            col[i] = base[idx[i] * LEN + k];
        double want = gp_fc_median_small(col, WIRES);
        assert_true(same_bits(out[k], want));
        if (k % 3 && k % 5 && k % 7)
            assert_close(out[k], 11, 0); /* the median of 1..21 */
    }
}

/* Fewer than 21 columns: the median of each hour's values by
 * gp_fc_median_small (5 columns 1..5 shifted: the median is the
 * middle value, 3 + k). */
static void fewer_columns(void **state)
{
    (void)state;
    double base[5 * 3], out[3];
    size_t idx[5] = {0, 1, 2, 3, 4};
    for (size_t i = 0; i < 5; i++)
        for (size_t k = 0; k < 3; k++)
            base[i * 3 + k] = (double)((i + 2) % 5 + 1 + k);
    gp_fc_median_columns(base, 3, idx, 5, 3, out);
    for (size_t k = 0; k < 3; k++)
        assert_close(out[k], 3 + (double)k, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(network_median_on_every_01_input),
        cmocka_unit_test(columns_match_median_small),
        cmocka_unit_test(fewer_columns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
