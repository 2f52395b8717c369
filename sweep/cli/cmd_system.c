// SPDX-License-Identifier: GPL-2.0
/*
 * bpfsweep system [show]: the system check a run makes before its sweep
 * (syscheck.h), on its own: a verdict per check, the warnings with what
 * to do, then every fact meta would record.  It changes nothing on the
 * machine.
 */
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "model.h"
#include "syscheck.h"

int cmd_system(const char *action)
{
	struct sys_check sc;

	if (action && strcmp(action, "show")) {
		diag_err("system: unknown action '%s' (expected show, the default)", action);
		return EXIT_USAGE;
	}
	/* perf's sample rate judged against a --profile at its default frequency */
	syscheck_read(syscheck_root(), true, PROFILE_DEFAULT_HZ, &sc);
	syscheck_show(stdout, &sc);
	syscheck_free(&sc);
	return EXIT_OK;
}
