/* Reading a CONFIG.yaml on the command line: the library reports what is
 * probably a mistake (an unknown accelerator key, a missing section, a mesh
 * JSON given as a config); the CLI prints each as a warning, or with
 * --strict lets the library turn the first into the error. */
#include "cli_internal.h"

int cli_read_config(const cli_io *io, const cli_options *opt, om_dims **dims)
{
    om_error e;
    om_diagnostics *list = NULL;
    om_dims *read = NULL;
    if (dims)
        *dims = NULL;
    if (cli_refuse_stdin(io, NULL, opt->config) != CLI_OK)
        return CLI_FAILED;
    if (om_diagnostics_new(&list, &e) != OM_OK)
        return cli_lib_error(io, &e);
    if (om_dims_read_yaml_checked(opt->config, opt->strict, list, &read, &e) !=
        OM_OK) {
        om_diagnostics_free(list);
        return cli_lib_error(io, &e);
    }
    for (size_t i = 0; i < om_diagnostics_count(list); i++) {
        char *message = NULL;
        if (om_diagnostics_message(list, i, &message, &e) != OM_OK) {
            om_diagnostics_free(list);
            om_dims_free(read);
            return cli_lib_error(io, &e);
        }
        fprintf(io->err, "offline-mesh: warning: %s\n", message);
        om_string_free(message);
    }
    om_diagnostics_free(list);
    if (dims)
        *dims = read;
    else
        om_dims_free(read);
    return CLI_OK;
}
