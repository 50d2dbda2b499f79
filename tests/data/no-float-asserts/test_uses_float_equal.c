/* What tests/no_float_asserts.sh must catch (never compiled): a double
 * compared with cmocka's float assertion. */
static void test_cost(void **state)
{
    assert_float_equal(cost, 84.48, 1e-9);
}
