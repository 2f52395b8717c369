// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsweep system [show]: the system check a run makes before its sweep
 * (syscheck.h), on its own: every fact meta would record, and the
 * warnings with what to do.  It changes nothing on the machine.
 */
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "syscheck.h"

int cmd_system(const char *action)
{
	struct sys_check sc;

	if (action && strcmp(action, "show")) {
		diag_err("system: unknown action '%s' (expected show, the default)", action);
		return EXIT_USAGE;
	}
	syscheck_read(syscheck_root(), true, &sc);
	syscheck_show(stdout, &sc);
	syscheck_free(&sc);
	return EXIT_OK;
}
