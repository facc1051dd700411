/* offline-mesh entry point. */
#include "cli.h"

int main(int argc, char **argv)
{
    return omcli_main(argc, argv, stdout, stderr);
}
