// SPDX-License-Identifier: GPL-2.0
/*
 * fleet SPEC --hosts FILE: the options checked and made a fleet_request,
 * the spec loaded, and the fleet run by its driver (executors/fleet.c;
 * docs/fleet.md).
 */
#include <errno.h>
#include <string.h>

#include "bind.h"
#include "cli.h"
#include "diag.h"
#include "fleet.h"
#include "fleet_record.h"
#include "stop.h"

/* the command that continues a fleet names every --set; a resume keeps every --tag */
_Static_assert(CLI_MAX_ARGS <= FLEET_MAX_SETS, "a fleet passes on every --set");
_Static_assert(CLI_MAX_ARGS <= FLEET_MAX_TAGS, "a resumed fleet keeps every --tag");

/* --engine ssh or slurm (NULL: not said) into *engine; 0, or -EINVAL (reported). */
static int parse_engine(const char *word, enum fleet_engine *engine)
{
	if (!word)
		*engine = FLEET_ENGINE_UNSAID;
	else if (!strcmp(word, "slurm"))
		*engine = FLEET_ENGINE_SLURM;
	else if (!strcmp(word, "ssh"))
		*engine = FLEET_ENGINE_SSH;
	else {
		diag_err("fleet --engine '%s': ssh or slurm", word);
		return -EINVAL;
	}
	return 0;
}

/* The request the options make, but its engine (check_request()). */
static void make_request(const struct fleet_opts *o, struct fleet_request *rq)
{
	*rq = (struct fleet_request){
		.orch = cli_orch_request(&(struct cli_orch_args){
			.com = &o->com, .spec = &o->spec, .draw = &o->draw, .resume = o->resume,
			.only = o->only, .quiet = o->quiet, .nr_quiet = o->nr_quiet }),
		.spec_path = o->spec.spec_path, .sets = o->spec.sets, .nr_sets = o->spec.nr_sets,
		.hosts = o->hosts, .ssh_config = o->ssh_config,
		.shard_hosts = o->shard_hosts, .shard_mixed = o->shard_mixed,
		.partition = o->partition, .constraint = o->constraint, .nodelist = o->nodelist,
		.time_limit = o->time_limit,
	};
}

/*
 * What the options ask, before anything is opened: --shard-mixed with
 * --shard, --engine into rq->engine and its options (on --resume the
 * driver checks them against OUT's engine), --only.  0 or -EINVAL
 * (reported).
 */
static int check_request(const struct fleet_opts *o, struct fleet_request *rq,
			 const struct sweep_cfg *cfg)
{
	if (rq->shard_mixed && !rq->shard_hosts) {
		diag_err("fleet: --shard-mixed goes with --shard");
		return -EINVAL;
	}
	if (parse_engine(o->engine, &rq->engine))
		return -EINVAL;
	if (!rq->orch.resume && fleet_engine_check(rq, rq->engine == FLEET_ENGINE_SLURM))
		return -EINVAL;
	return only_check(cfg, rq->orch.sub.only);
}

int cmd_fleet(const struct fleet_opts *o)
{
	struct fleet_request rq;
	struct sweep_cfg *cfg;
	struct spec *spec;

	/*
	 * From here, Ctrl-C, SIGTERM, SIGHUP (a closed terminal or ssh session)
	 * and SIGPIPE (`fleet ... | head`) stop the hosts and keep what came
	 * back (stop.h): a write after it fails with EPIPE, and fleet goes on.
	 */
	stop_catch();
	if (cli_load(&o->spec, &spec, &cfg))
		return EXIT_USAGE;
	make_request(o, &rq);
	if (check_request(o, &rq, cfg)) {
		spec_free(spec);
		sweep_cfg_free(cfg);
		return EXIT_USAGE;
	}
	return fleet_run(&rq, spec, cfg);
}
