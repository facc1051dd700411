/* World size discovery from the environment and its use in the YAML
 * projection (dp derivation and consistency checks).
 * SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "om_test.h"

static const char *const VARS[] = {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE",
                                   "PMI_SIZE", "SLURM_NTASKS"};
enum { NVARS = 4 };

static void clear_env(void)
{
    for (int i = 0; i < NVARS; i++)
        unsetenv(VARS[i]);
}

static int suite_init(void)
{
    clear_env();
    return 0;
}

static int suite_cleanup(void)
{
    clear_env();
    return 0;
}

static void expect_world(int64_t want, bool want_found, unsigned line)
{
    int64_t world = -7;
    bool found = !want_found;
    om_error err;
    om_test_poison(&err);
    om_status st = om_world_size_from_env(&world, &found, &err);
    om_test_record(st == OM_OK && om_test_is_poisoned(&err), __FILE__, line,
                   "world_size_from_env returned %d: %s", (int)st,
                   st == OM_OK ? "" : err.message);
    om_test_record(world == want && found == want_found, __FILE__, line,
                   "world %lld found %d, expected %lld found %d",
                   (long long)world, found, (long long)want, want_found);
}

static void expect_env_error(om_status want, const char *var, const char *value,
                             unsigned line)
{
    int64_t world = -7;
    bool found = true;
    om_error err;
    om_error_clear(&err);
    om_status st = om_world_size_from_env(&world, &found, &err);
    om_test_record(st == want && err.status == want, __FILE__, line,
                   "%s=\"%s\" returned %d (%s), expected %d: %s", var, value,
                   (int)st, om_status_string(st), (int)want, err.message);
    om_test_record(strstr(err.message, var) != NULL, __FILE__, line,
                   "message \"%s\" does not name %s", err.message, var);
}

static void test_absent_everywhere(void)
{
    clear_env();
    expect_world(1, false, __LINE__);
}

static void test_each_variable(void)
{
    for (int i = 0; i < NVARS; i++) {
        clear_env();
        setenv(VARS[i], "12", 1);
        expect_world(12, true, __LINE__);
        setenv(VARS[i], "1", 1);
        expect_world(1, true, __LINE__);
        setenv(VARS[i], "2147483647", 1);
        expect_world(2147483647, true, __LINE__);
    }
    clear_env();
}

static void test_lenient_spelling(void)
{
    /* Values read as Python's int() reads them (dims.h): surrounding
     * whitespace, a leading '+' and leading zeros. */
    static const struct {
        const char *text;
        int64_t value;
    } cases[] = {
        {" 8", 8},       {"8 ", 8},         {"\t8\n", 8},   {"+4", 4},
        {"0008", 8},     {" +016 ", 16},    {"\r\n16\r\n", 16},
        {"\v4\f", 4},    {"\r2", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clear_env();
        setenv("WORLD_SIZE", cases[i].text, 1);
        int64_t world = -7;
        bool found = false;
        om_error err;
        om_error_clear(&err);
        om_status st = om_world_size_from_env(&world, &found, &err);
        om_test_record(st == OM_OK && found && world == cases[i].value, __FILE__,
                       __LINE__, "WORLD_SIZE case %zu: status %d, world %lld, "
                       "expected %lld: %s", i, (int)st, (long long)world,
                       (long long)cases[i].value, err.message);
    }
    clear_env();
}

static void test_precedence(void)
{
    clear_env();
    setenv("SLURM_NTASKS", "4", 1);
    expect_world(4, true, __LINE__);
    setenv("PMI_SIZE", "3", 1);
    expect_world(3, true, __LINE__);
    setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
    expect_world(2, true, __LINE__);
    setenv("WORLD_SIZE", "16", 1);
    expect_world(16, true, __LINE__);
    /* Removing the winner hands over to the next. */
    unsetenv("WORLD_SIZE");
    expect_world(2, true, __LINE__);
    unsetenv("OMPI_COMM_WORLD_SIZE");
    expect_world(3, true, __LINE__);
    unsetenv("PMI_SIZE");
    expect_world(4, true, __LINE__);
    /* WORLD_SIZE beats SLURM_NTASKS directly. */
    setenv("WORLD_SIZE", "8", 1);
    expect_world(8, true, __LINE__);
    clear_env();
}

static void test_invalid_values(void)
{
    static const char *const invalid[] = {"abc", "0", "-4", "", "4.0", "2 2",
                                          "0x10", "1e3", "four", "+", "-0"};
    for (int v = 0; v < NVARS; v++) {
        for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++) {
            clear_env();
            setenv(VARS[v], invalid[i], 1);
            expect_env_error(OM_ERR_INVALID_ARGUMENT, VARS[v], invalid[i], __LINE__);
        }
        clear_env();
        setenv(VARS[v], "2147483648", 1);
        expect_env_error(OM_ERR_OUT_OF_RANGE, VARS[v], "2147483648", __LINE__);
        setenv(VARS[v], "99999999999999999999999", 1);
        expect_env_error(OM_ERR_OUT_OF_RANGE, VARS[v], "99999999999999999999999",
                         __LINE__);
    }
    clear_env();
}

static void test_invalid_first_decides(void)
{
    /* The first variable that is set decides, even when it is invalid. */
    clear_env();
    setenv("WORLD_SIZE", "lots", 1);
    setenv("SLURM_NTASKS", "4", 1);
    expect_env_error(OM_ERR_INVALID_ARGUMENT, "WORLD_SIZE", "lots", __LINE__);
    clear_env();
    setenv("PMI_SIZE", "0", 1);
    setenv("SLURM_NTASKS", "4", 1);
    expect_env_error(OM_ERR_INVALID_ARGUMENT, "PMI_SIZE", "0", __LINE__);
    /* The value is named too. */
    om_error err;
    om_error_clear(&err);
    int64_t world;
    bool found;
    OM_EXPECT_ERR(om_world_size_from_env(&world, &found, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "PMI_SIZE", "\"0\"");
    clear_env();
}

static void test_null_arguments(void)
{
    om_error err;
    om_error_clear(&err);
    int64_t world;
    bool found;
    OM_EXPECT_ERR(om_world_size_from_env(NULL, &found, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_world_size_from_env(&world, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
}

/* ---- through the YAML projection ---- */

static om_status project(const char *yaml, int64_t world, om_dims **dims,
                         om_error *err)
{
    *dims = NULL;
    return om_dims_from_yaml(yaml, strlen(yaml), world, dims, err);
}

static void expect_dp(const char *yaml, int64_t world, int64_t want_dp,
                      unsigned line)
{
    om_error err;
    om_error_clear(&err);
    om_dims *dims;
    om_status st = project(yaml, world, &dims, &err);
    om_test_record(st == OM_OK, __FILE__, line, "from_yaml(%s, world %lld): %s",
                   yaml, (long long)world, st == OM_OK ? "" : err.message);
    om_test_record(om_dims_get(dims, OM_DIM_DP) == want_dp, __FILE__, line,
                   "dp is %lld, expected %lld", (long long)om_dims_get(dims, OM_DIM_DP),
                   (long long)want_dp);
    om_dims_free(dims);
}

static void test_explicit_beats_env(void)
{
    clear_env();
    setenv("WORLD_SIZE", "16", 1);
    setenv("SLURM_NTASKS", "64", 1);
    expect_dp("accelerator: {tp_size: 2}", 8, 4, __LINE__);   /* explicit 8 */
    expect_dp("accelerator: {tp_size: 2}", 0, 8, __LINE__);   /* env 16 */
    expect_dp("accelerator: {tp_size: 2}", -1, 8, __LINE__);  /* negative: env */
    unsetenv("WORLD_SIZE");
    expect_dp("accelerator: {tp_size: 2}", 0, 32, __LINE__);  /* SLURM 64 */
    /* An invalid environment does not matter when the caller gives one. */
    setenv("WORLD_SIZE", "garbage", 1);
    expect_dp("accelerator: {tp_size: 2}", 8, 4, __LINE__);
    om_error err;
    om_error_clear(&err);
    om_dims *dims;
    OM_EXPECT_ERR(project("accelerator: {tp_size: 2}", 0, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "WORLD_SIZE", "garbage");
    OM_EXPECT(dims == NULL);
    setenv("WORLD_SIZE", "4294967296", 1);
    OM_EXPECT_ERR(project("accelerator: {tp_size: 2}", 0, &dims, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "WORLD_SIZE");
    clear_env();
}

static void test_absent_means_one(void)
{
    clear_env();
    expect_dp("accelerator: {}", 0, 1, __LINE__);
    expect_dp("model: x", 0, 1, __LINE__);
    /* World size 1 cannot host tp=2. */
    om_error err;
    om_error_clear(&err);
    om_dims *dims;
    OM_EXPECT_ERR(project("accelerator: {tp_size: 2}", 0, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size 1", "2");
}

static void test_derivation(void)
{
    clear_env();
    expect_dp("accelerator: {tp_size: 2, cp_size: 2, pp_size: 2}", 16, 2, __LINE__);
    expect_dp("accelerator: {tp_size: 8, pp_size: 4}", 64, 2, __LINE__);
    expect_dp("accelerator: {cp_size: 3}", 9, 3, __LINE__);
    expect_dp("accelerator: {ep_size: 8}", 8, 8, __LINE__); /* ep plays no part */
    expect_dp("accelerator: {tp_size: 1}", 2147483647, 2147483647, __LINE__);
    expect_dp("accelerator: {dp_size: null, tp_size: 2}", 8, 4, __LINE__);
    /* Not divisible: both numbers named. */
    om_error err;
    om_error_clear(&err);
    om_dims *dims;
    OM_EXPECT_ERR(project("accelerator: {tp_size: 2, cp_size: 2}", 6, &dims, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "world size 6", "= 4");
    OM_EXPECT(dims == NULL);
    OM_EXPECT_ERR(project("accelerator: {tp_size: 4, pp_size: 2}", 4, &dims, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "world size 4", "8");
    /* The product of large sizes neither overflows nor divides. */
    OM_EXPECT_ERR(project("accelerator: {tp_size: 2147483647, cp_size: 2147483647, "
                          "pp_size: 2147483647}",
                          2147483647, &dims, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "world size 2147483647", NULL);
    /* The environment is the world size source too. */
    setenv("OMPI_COMM_WORLD_SIZE", "10", 1);
    OM_EXPECT_ERR(project("accelerator: {tp_size: 4}", 0, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size 10", "4");
    clear_env();
    /* An explicit world size beyond 2^31-1 is refused. */
    OM_EXPECT_ERR(project("accelerator: {}", 2147483648LL, &dims, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "2147483648");
}

static void test_explicit_dp(void)
{
    clear_env();
    /* Matching the world size. */
    expect_dp("accelerator: {dp_size: 2, tp_size: 4}", 8, 2, __LINE__);
    /* No world size known anywhere: explicit dp stands unchecked. */
    expect_dp("accelerator: {dp_size: 3, tp_size: 4}", 0, 3, __LINE__);
    /* Mismatch with the explicit world size: every number named. */
    om_error err;
    om_error_clear(&err);
    om_dims *dims;
    OM_EXPECT_ERR(project("accelerator: {dp_size: 2, tp_size: 4, cp_size: 3, "
                          "pp_size: 5}",
                          16, &dims, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "2*4*3*5", "16");
    OM_EXPECT(dims == NULL);
    /* Mismatch with the environment's world size. */
    setenv("PMI_SIZE", "12", 1);
    OM_EXPECT_ERR(project("accelerator: {dp_size: 2, tp_size: 4}", 0, &dims, &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "2*4*1*1", "12");
    expect_dp("accelerator: {dp_size: 3, tp_size: 4}", 0, 3, __LINE__);
    clear_env();
    /* Explicit dp with ep: ep is not part of the product. */
    expect_dp("accelerator: {dp_size: 4, ep_size: 8}", 4, 4, __LINE__);
}


/* ---- 1.1: resolving the world size, and applying it to any dims ---- */

static void expect_resolved(int64_t explicit_size, int64_t want,
                            om_world_size_source want_source, unsigned line)
{
    int64_t world = -7;
    om_world_size_source source = OM_WORLD_SIZE_UNRESOLVED;
    om_error err;
    om_test_poison(&err);
    om_status st = om_world_size_resolve(explicit_size, &world, &source, &err);
    om_test_record(st == OM_OK && om_test_is_poisoned(&err) && world == want &&
                       source == want_source,
                   __FILE__, line, "resolve(%lld): status %d world %lld source %d "
                   "(%s), expected %lld source %d", (long long)explicit_size,
                   (int)st, (long long)world, (int)source,
                   st == OM_OK ? "" : err.message, (long long)want, (int)want_source);
}

static void test_resolve_sources(void)
{
    clear_env();
    expect_resolved(0, 1, OM_WORLD_SIZE_DEFAULT, __LINE__);
    expect_resolved(8, 8, OM_WORLD_SIZE_EXPLICIT, __LINE__);
    expect_resolved(2147483647, 2147483647, OM_WORLD_SIZE_EXPLICIT, __LINE__);
    static const om_world_size_source from[NVARS] = {
        OM_WORLD_SIZE_FROM_WORLD_SIZE, OM_WORLD_SIZE_FROM_OMPI_COMM_WORLD_SIZE,
        OM_WORLD_SIZE_FROM_PMI_SIZE, OM_WORLD_SIZE_FROM_SLURM_NTASKS};
    /* Each variable alone, then all set: the first in the list decides. */
    for (int i = 0; i < NVARS; i++) {
        setenv(VARS[i], "12", 1);
        expect_resolved(0, 12, from[i], __LINE__);
        OM_EXPECT_STR(om_world_size_source_variable(from[i]), VARS[i]);
        clear_env();
    }
    for (int i = NVARS; i-- > 0;) {
        char value[8];
        snprintf(value, sizeof value, "%d", 2 + i);
        setenv(VARS[i], value, 1);
        expect_resolved(0, 2 + i, from[i], __LINE__);
    }
    /* An explicit value does not read the environment at all. */
    setenv("WORLD_SIZE", "garbage", 1);
    expect_resolved(4, 4, OM_WORLD_SIZE_EXPLICIT, __LINE__);
    clear_env();
    /* source may be NULL. */
    int64_t world = 0;
    OM_EXPECT_OK(om_world_size_resolve(3, &world, NULL, NULL), NULL);
    OM_EXPECT_INT(world, 3);
}

static void test_resolve_errors(void)
{
    clear_env();
    int64_t world = -7;
    om_world_size_source source = OM_WORLD_SIZE_UNRESOLVED;
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_ERR(om_world_size_resolve(-8, &world, &source, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size must be >= 1", "got -8");
    OM_EXPECT_ERR(om_world_size_resolve(INT64_MIN, &world, &source, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "-9223372036854775808");
    OM_EXPECT_ERR(om_world_size_resolve(2147483648LL, &world, &source, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "2147483648", "2147483647");
    OM_EXPECT_ERR(om_world_size_resolve(0, NULL, &source, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    setenv("PMI_SIZE", "4x", 1);
    OM_EXPECT_ERR(om_world_size_resolve(0, &world, &source, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "PMI_SIZE=\"4x\"");
    setenv("PMI_SIZE", "2147483648", 1);
    OM_EXPECT_ERR(om_world_size_resolve(0, &world, &source, &err), &err,
                  OM_ERR_OUT_OF_RANGE, "PMI_SIZE");
    clear_env();
    OM_EXPECT(world == -7 && source == OM_WORLD_SIZE_UNRESOLVED);
}

static void test_source_table(void)
{
    OM_EXPECT_STR(om_world_size_source_string(OM_WORLD_SIZE_EXPLICIT),
                  "given explicitly");
    OM_EXPECT_STR(om_world_size_source_string(OM_WORLD_SIZE_FROM_PMI_SIZE),
                  "from PMI_SIZE");
    OM_EXPECT_STR(om_world_size_source_string(OM_WORLD_SIZE_DEFAULT),
                  "the default: no --world-size and none of WORLD_SIZE, "
                  "OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS is set");
    OM_EXPECT(om_world_size_source_string((om_world_size_source)OM_WORLD_SIZE_SOURCE_COUNT) == NULL);
    OM_EXPECT(om_world_size_source_string((om_world_size_source)-1) == NULL);
    OM_EXPECT(om_world_size_source_variable(OM_WORLD_SIZE_DEFAULT) == NULL);
    OM_EXPECT(om_world_size_source_variable(OM_WORLD_SIZE_EXPLICIT) == NULL);
    OM_EXPECT(om_world_size_source_variable((om_world_size_source)99) == NULL);
    int variables = 0;
    for (int s = 0; s < OM_WORLD_SIZE_SOURCE_COUNT; s++) {
        OM_EXPECT(om_world_size_source_string((om_world_size_source)s) != NULL);
        variables += om_world_size_source_variable((om_world_size_source)s) != NULL;
    }
    OM_EXPECT_INT(variables, NVARS);
    OM_EXPECT_INT(OM_WORLD_SIZE_SOURCE_COUNT, 7);
    OM_EXPECT_INT(OM_WORLD_SIZE_DEFAULT, 6);
}

static om_dims *api_dims(int64_t dp, int64_t tp, int64_t cp, int64_t pp)
{
    om_dims *dims = NULL;
    OM_EXPECT_OK(om_dims_new(&dims, NULL), NULL);
    if (dp >= 0)
        OM_EXPECT_OK(om_dims_set(dims, OM_DIM_DP, dp, NULL), NULL);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_TP, tp, NULL), NULL);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_CP, cp, NULL), NULL);
    OM_EXPECT_OK(om_dims_set(dims, OM_DIM_PP, pp, NULL), NULL);
    return dims;
}

static void test_apply_to_api_dims(void)
{
    om_error err;
    om_error_clear(&err);
    bool given = true;
    int64_t world = -1;
    om_world_size_source source = OM_WORLD_SIZE_EXPLICIT;
    /* Fresh dims: nothing given, nothing applied. */
    om_dims *dims = api_dims(-1, 2, 2, 1);
    OM_EXPECT_OK(om_dims_dp_given(dims, &given, &err), &err);
    OM_EXPECT(!given);
    OM_EXPECT_OK(om_dims_world_size(dims, &world, &source, &err), &err);
    OM_EXPECT(world == 0 && source == OM_WORLD_SIZE_UNRESOLVED);
    /* dp derived, exactly as for YAML; a derived dp is not "given". */
    OM_EXPECT_OK(om_dims_apply_world_size(dims, 16, OM_WORLD_SIZE_EXPLICIT, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 4);
    OM_EXPECT_OK(om_dims_dp_given(dims, &given, &err), &err);
    OM_EXPECT(!given);
    OM_EXPECT_OK(om_dims_world_size(dims, &world, &source, &err), &err);
    OM_EXPECT(world == 16 && source == OM_WORLD_SIZE_EXPLICIT);
    /* Applying another world size re-derives. */
    OM_EXPECT_OK(om_dims_apply_world_size(dims, 8, OM_WORLD_SIZE_FROM_PMI_SIZE, &err),
                 &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 2);
    /* Indivisible: the source is named, the dims stay as they were. */
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 6, OM_WORLD_SIZE_FROM_WORLD_SIZE, &err),
                  &err, OM_ERR_INVALID_ARGUMENT,
                  "world size 6 (from WORLD_SIZE) is not divisible by tp*cp*pp = 4");
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 1, OM_WORLD_SIZE_DEFAULT, &err), &err,
                  OM_ERR_INVALID_ARGUMENT,
                  "world size 1 (the default: no --world-size and none of "
                  "WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS is "
                  "set) is not divisible by tp*cp*pp = 4");
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 6, OM_WORLD_SIZE_EXPLICIT, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size 6 is not divisible by tp*cp*pp = 4");
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 2);
    OM_EXPECT_OK(om_dims_world_size(dims, &world, &source, &err), &err);
    OM_EXPECT(world == 8 && source == OM_WORLD_SIZE_FROM_PMI_SIZE);
    om_dims_free(dims);

    /* An explicit dp is checked against a known world size... */
    dims = api_dims(2, 4, 1, 2);
    OM_EXPECT_OK(om_dims_dp_given(dims, &given, &err), &err);
    OM_EXPECT(given);
    OM_EXPECT_OK(om_dims_apply_world_size(dims, 16, OM_WORLD_SIZE_EXPLICIT, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 2);
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 8, OM_WORLD_SIZE_EXPLICIT, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "2*4*1*2", "world size 8 (given)");
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 32, OM_WORLD_SIZE_FROM_SLURM_NTASKS,
                                           &err),
                  &err, OM_ERR_INVALID_ARGUMENT, "world size 32 (from SLURM_NTASKS)");
    /* ... but not against the default, which knows nothing. */
    OM_EXPECT_OK(om_dims_apply_world_size(dims, 1, OM_WORLD_SIZE_DEFAULT, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 2);
    om_dims_free(dims);

    /* Sizes at 0 ("not declared") count as 1. */
    dims = api_dims(-1, 0, 0, 0);
    OM_EXPECT_OK(om_dims_apply_world_size(dims, 6, OM_WORLD_SIZE_EXPLICIT, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 6);
    om_dims_free(dims);
    dims = api_dims(0, 4, 0, 1);
    OM_EXPECT_OK(om_dims_apply_world_size(dims, 4, OM_WORLD_SIZE_EXPLICIT, &err), &err);
    om_dims_free(dims);
    /* Products beyond int64 neither overflow nor divide. */
    dims = api_dims(-1, 2147483647, 2147483647, 2147483647);
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 7, OM_WORLD_SIZE_EXPLICIT, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size 7 is not divisible",
                  "2147483647*2147483647*2147483647");
    om_dims_free(dims);
}

static void test_apply_errors(void)
{
    om_dims *dims = api_dims(-1, 2, 1, 1);
    om_error err;
    om_error_clear(&err);
    OM_EXPECT_ERR(om_dims_apply_world_size(NULL, 8, OM_WORLD_SIZE_EXPLICIT, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, -8, OM_WORLD_SIZE_EXPLICIT, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "world size must be >= 1, got -8");
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 0, OM_WORLD_SIZE_EXPLICIT, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "got 0");
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 2147483648LL, OM_WORLD_SIZE_EXPLICIT,
                                           &err),
                  &err, OM_ERR_OUT_OF_RANGE, "2147483648");
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 8, OM_WORLD_SIZE_UNRESOLVED, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "source 0");
    OM_EXPECT_ERR(om_dims_apply_world_size(dims, 8, (om_world_size_source)7, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "source 7");
    OM_EXPECT_ERR(om_dims_resolve_world_size(NULL, 8, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    OM_EXPECT_ERR(om_dims_resolve_world_size(dims, -1, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "got -1");
    int64_t world;
    bool given;
    OM_EXPECT_ERR(om_dims_world_size(NULL, &world, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    OM_EXPECT_ERR(om_dims_world_size(dims, NULL, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_dims_dp_given(NULL, &given, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "dims is NULL");
    OM_EXPECT_ERR(om_dims_dp_given(dims, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    /* Nothing was applied by the failures. */
    OM_EXPECT_OK(om_dims_world_size(dims, &world, NULL, &err), &err);
    OM_EXPECT_INT(world, 0);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 1);
    om_dims_free(dims);
}

static void test_parse_is_pure(void)
{
    clear_env();
    setenv("WORLD_SIZE", "garbage", 1); /* would fail if it were read */
    om_dims *dims = NULL;
    om_error err;
    om_error_clear(&err);
    const char *text = "accelerator: {tp_size: 2, cp_size: 2}\n";
    OM_EXPECT_OK(om_dims_parse_yaml(text, strlen(text), &dims, &err), &err);
    bool given = true;
    int64_t world = -1;
    OM_EXPECT_OK(om_dims_dp_given(dims, &given, &err), &err);
    OM_EXPECT(!given);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 1);
    OM_EXPECT_OK(om_dims_world_size(dims, &world, NULL, &err), &err);
    OM_EXPECT_INT(world, 0);
    /* Then the world size, from the environment, names its source. */
    OM_EXPECT_ERR(om_dims_resolve_world_size(dims, 0, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "WORLD_SIZE=\"garbage\"");
    setenv("WORLD_SIZE", "6", 1);
    OM_EXPECT_ERR(om_dims_resolve_world_size(dims, 0, &err), &err,
                  OM_ERR_INVALID_ARGUMENT,
                  "world size 6 (from WORLD_SIZE) is not divisible by tp*cp*pp = 4");
    setenv("WORLD_SIZE", "8", 1);
    OM_EXPECT_OK(om_dims_resolve_world_size(dims, 0, &err), &err);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 2);
    om_world_size_source source;
    OM_EXPECT_OK(om_dims_world_size(dims, &world, &source, &err), &err);
    OM_EXPECT(world == 8 && source == OM_WORLD_SIZE_FROM_WORLD_SIZE);
    clear_env();
    om_dims_free(dims);
    /* The default world size, named in full (the brief's example). */
    dims = NULL;
    text = "accelerator: {tp_size: 4}\n";
    OM_EXPECT_OK(om_dims_parse_yaml(text, strlen(text), &dims, &err), &err);
    OM_EXPECT_ERR(om_dims_resolve_world_size(dims, 0, &err), &err,
                  OM_ERR_INVALID_ARGUMENT,
                  "world size 1 (the default: no --world-size and none of "
                  "WORLD_SIZE, OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS is "
                  "set) is not divisible by tp*cp*pp = 4");
    om_dims_free(dims);
    /* An explicit dp in the text counts as given. */
    text = "accelerator: {dp_size: 3}\n";
    OM_EXPECT_OK(om_dims_parse_yaml(text, strlen(text), &dims, &err), &err);
    OM_EXPECT_OK(om_dims_dp_given(dims, &given, &err), &err);
    OM_EXPECT(given);
    om_dims_free(dims);
    text = "accelerator: {dp_size: null}\n";
    OM_EXPECT_OK(om_dims_parse_yaml(text, strlen(text), &dims, &err), &err);
    OM_EXPECT_OK(om_dims_dp_given(dims, &given, &err), &err);
    OM_EXPECT(!given);
    om_dims_free(dims);
    /* Errors of the text itself. */
    OM_EXPECT_ERR(om_dims_parse_yaml("accelerator: {tp_size: \"2\"}", 27, &dims, &err),
                  &err, OM_ERR_PARSE, "tp_size must be an integer");
    OM_EXPECT(dims == NULL);
    OM_EXPECT_ERR(om_dims_parse_yaml(NULL, 0, &dims, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
    OM_EXPECT_ERR(om_dims_parse_yaml("a: 1", 4, NULL, &err), &err,
                  OM_ERR_INVALID_ARGUMENT, "NULL");
}

static void test_loaders_record_world_size(void)
{
    /* The 1.0 loaders are projection + resolution: the dims record it. */
    clear_env();
    om_dims *dims = NULL;
    om_error err;
    om_error_clear(&err);
    const char *text = "accelerator: {tp_size: 2}\n";
    OM_EXPECT_OK(om_dims_from_yaml(text, strlen(text), 8, &dims, &err), &err);
    int64_t world = 0;
    om_world_size_source source;
    OM_EXPECT_OK(om_dims_world_size(dims, &world, &source, &err), &err);
    OM_EXPECT(world == 8 && source == OM_WORLD_SIZE_EXPLICIT);
    om_dims_free(dims);
    /* 1.0 keeps reading the environment for a negative world size. */
    setenv("OMPI_COMM_WORLD_SIZE", "4", 1);
    OM_EXPECT_OK(om_dims_from_yaml(text, strlen(text), -3, &dims, &err), &err);
    OM_EXPECT_OK(om_dims_world_size(dims, &world, &source, &err), &err);
    OM_EXPECT(world == 4 && source == OM_WORLD_SIZE_FROM_OMPI_COMM_WORLD_SIZE);
    OM_EXPECT_INT(om_dims_get(dims, OM_DIM_DP), 2);
    om_dims_free(dims);
    clear_env();
}

static const om_test_case world_tests[] = {
    {"absent everywhere = 1", test_absent_everywhere},
    {"each variable", test_each_variable},
    {"lenient spelling (Python int())", test_lenient_spelling},
    {"precedence", test_precedence},
    {"invalid values name the variable", test_invalid_values},
    {"the first set variable decides", test_invalid_first_decides},
    {"NULL arguments", test_null_arguments},
    {"explicit world size beats the environment", test_explicit_beats_env},
    {"absent everywhere in the projection", test_absent_means_one},
    {"dp derivation and divisibility", test_derivation},
    {"explicit dp and the world size", test_explicit_dp},
    {"1.1 resolve: value and source", test_resolve_sources},
    {"1.1 resolve: errors", test_resolve_errors},
    {"1.1 source table", test_source_table},
    {"1.1 apply to API-built dims", test_apply_to_api_dims},
    {"1.1 apply: errors, dims unchanged", test_apply_errors},
    {"1.1 parse_yaml is pure; resolve after", test_parse_is_pure},
    {"1.0 loaders record the world size", test_loaders_record_world_size},
    {NULL, NULL},
};

static const om_test_suite suites[] = {
    {"world_size", suite_init, suite_cleanup, world_tests},
    {NULL, NULL, NULL, NULL},
};

int main(int argc, char **argv) { return om_test_main(argc, argv, suites); }
