/* offline-mesh check CONFIG.yaml: the planner preflight as a verdict.
 *
 * Every rule is tried, not only up to the first that fails, and the JSON
 * verdict on stdout lists each broken one under "violations" ("ok" is
 * false then, and the exit status 1), so a script reads the verdict
 * instead of parsing stderr. A config that cannot be read at all is an
 * ordinary error (nothing on stdout). check --preset (cmd_views.c) prints
 * the same "ok" and "violations" keys. */
#include <string.h>

#include "cli_internal.h"
#include "util.h"

typedef struct {
    omu_str violations; /* ,"..." per broken rule */
    size_t count;
    bool no_memory;     /* a rule could not be judged: no verdict */
} verdict;

static void broken(verdict *v, const om_error *e)
{
    if (e->status == OM_ERR_NO_MEMORY) {
        v->no_memory = true;
        return;
    }
    if (v->count++)
        omu_str_putc(&v->violations, ',');
    omu_str_json_string(&v->violations, e->message, strlen(e->message));
}

/* The mesh without its pp axis (the dense region); NULL (reported in v)
 * when it cannot be made. */
static om_mesh *dense_region(const om_mesh *mesh, verdict *v)
{
    const char *names[8];
    int64_t sizes[8];
    size_t n = 0;
    for (size_t i = 0; i < om_mesh_ndim(mesh) && n < 8; i++)
        if (strcmp(om_mesh_name(mesh, i), "pp") != 0) {
            names[n] = om_mesh_name(mesh, i);
            sizes[n++] = om_mesh_dim_size(mesh, i);
        }
    om_mesh *dense = NULL;
    om_error e;
    if (om_mesh_new(names, sizes, n, &dense, &e) != OM_OK)
        broken(v, &e);
    return dense;
}

/* Rules about experts: pp must be 1, ep must divide the dense region and
 * num_experts must be a multiple of ep. The library checks them in one
 * call that stops at the first; each is tried on its own here. */
static om_mesh *check_experts(const om_mesh *mesh, int64_t ep, int64_t num_experts,
                              verdict *v)
{
    om_error e;
    om_mesh *experts = NULL;
    bool layout_ok = false;
    if (mesh) {
        layout_ok = om_mesh_reslice_experts(mesh, ep, 0, &experts, &e) == OM_OK;
        if (!layout_ok)
            broken(v, &e);
        /* pp > 1 hides the dense-region rule: try that one without pp. */
        om_mesh *dense = NULL, *sliced = NULL;
        if (!layout_ok && om_mesh_size_of(mesh, "pp") > 1 &&
            (dense = dense_region(mesh, v)) != NULL &&
            om_mesh_reslice_experts(dense, ep, 0, &sliced, &e) != OM_OK)
            broken(v, &e);
        om_mesh_free(sliced);
        om_mesh_free(dense);
    }
    if (num_experts <= 0)
        return experts;
    if (layout_ok) {
        om_mesh *with = NULL;
        if (om_mesh_reslice_experts(mesh, ep, num_experts, &with, &e) != OM_OK)
            broken(v, &e);
        om_mesh_free(with);
        return experts;
    }
    /* No usable layout: the num_experts rule alone, on the smallest mesh
     * ep divides (its dense region is exactly ep ranks). */
    const char *name[] = {"ep"};
    om_mesh *alone = NULL, *with = NULL;
    if (om_mesh_new(name, &ep, 1, &alone, &e) != OM_OK ||
        om_mesh_reslice_experts(alone, ep, num_experts, &with, &e) != OM_OK)
        broken(v, &e);
    om_mesh_free(with);
    om_mesh_free(alone);
    return experts;
}

int cli_check_failed(const cli_io *io)
{
    if (cli_output_failed(io))
        return CLI_FAILED;
    return cli_error(io, CLI_FAILED,
                     "check failed: the verdict on stdout lists each broken rule "
                     "under \"violations\"");
}

static void put_owned(omu_str *s, const char *key, char *json)
{
    omu_str_printf(s, "\"%s\":%s,", key, json);
    om_string_free(json);
}

int cli_cmd_check(const cli_io *io, int argc, char **argv)
{
    cli_options opt;
    int rc = cli_parse(io, "check", argc, argv, 2,
                       OPT_CONFIG | OPT_WORLD_SIZE | OPT_NUM_EXPERTS, &opt);
    if (rc != CLI_OK)
        return rc;
    if (!opt.config)
        return cli_error(io, CLI_USAGE, "a CONFIG.yaml argument is required");
    om_error e;
    om_dims *dims = NULL;
    /* Warnings on stderr (or, with --strict, the error): cli_read_config. */
    rc = cli_read_config(io, &opt, &dims);
    if (rc != CLI_OK)
        return rc;

    verdict v = {{0}, 0, false};
    om_mesh *mesh = NULL, *experts = NULL;
    char *plan = NULL;
    int64_t tp = om_dims_get(dims, OM_DIM_TP), cp = om_dims_get(dims, OM_DIM_CP);
    int64_t ep = om_dims_get(dims, OM_DIM_EP);
    /* The world size, then the mesh: without them only the expert count
     * can still be judged. */
    bool sized = om_dims_resolve_world_size(dims, opt.world_size, &e) == OM_OK;
    if (!sized || om_mesh_from_dims(dims, &mesh, &e) != OM_OK)
        broken(&v, &e);
    if (mesh && om_mesh_validate_plan(mesh, tp, cp, ep, &e) != OM_OK)
        broken(&v, &e);
    if (mesh && om_mesh_plan_axes(mesh, tp, cp, ep, &plan, &e) != OM_OK)
        broken(&v, &e);
    /* Extended expert parallelism only exists with ep > 1 (with ep 1 any
     * num_experts divides and pp is free). */
    if (ep > 1)
        experts = check_experts(mesh, ep, opt.has_num_experts ? opt.num_experts : 0,
                                &v);

    /* The whole verdict in memory first: stdout gets all of it or nothing. */
    omu_str s = {0};
    omu_str_putc(&s, '{');
    char *json = NULL;
    if (sized && om_dims_to_json(dims, &json, &e) == OM_OK)
        put_owned(&s, "dims", json);
    else if (sized)
        v.no_memory = true;
    if (experts)
        omu_str_printf(&s, "\"experts\":{\"edp\":%lld,\"ep\":%lld},",
                       (long long)om_mesh_dim_size(experts, 0),
                       (long long)om_mesh_dim_size(experts, 1));
    if (mesh && om_mesh_to_json(mesh, &json, &e) == OM_OK)
        put_owned(&s, "mesh", json);
    else if (mesh)
        v.no_memory = true;
    omu_str_printf(&s, "\"ok\":%s,", v.count ? "false" : "true");
    if (plan) {
        omu_str_puts(&s, "\"plan_dim_names\":[");
        for (const char *p = plan; *p;) {
            size_t len = strcspn(p, ",");
            if (p != plan)
                omu_str_putc(&s, ',');
            omu_str_json_string(&s, p, len);
            p += len + (p[len] == ',');
        }
        omu_str_puts(&s, "],");
    }
    omu_str_puts(&s, "\"violations\":[");
    omu_str_put(&s, omu_str_cstr(&v.violations), v.violations.len);
    omu_str_puts(&s, "]}\n");

    bool failed = s.failed || v.violations.failed || v.no_memory;
    if (failed)
        rc = cli_error(io, CLI_FAILED, "out of memory");
    else
        fwrite(s.data, 1, s.len, io->out);
    if (!failed && v.count)
        rc = cli_check_failed(io);
    omu_str_free(&s);
    omu_str_free(&v.violations);
    om_string_free(plan);
    om_mesh_free(experts);
    om_mesh_free(mesh);
    om_dims_free(dims);
    return rc;
}
