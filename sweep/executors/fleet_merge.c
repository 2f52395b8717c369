// SPDX-License-Identifier: GPL-2.0
/*
 * What a fleet brings back, put together: the hosts' outcomes as OUT/meta
 * lines, the results that came back linked as OUT/runs/<n> and merged and
 * drawn as `merge` and `report` do, and under --shard the shares that did
 * not come back named under the table.  The hosts' jobs: fleet_host.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "exitcode.h"
#include "fleet_state.h"
#include "heldir.h"
#include "matrix.h"
#include "orchestrator.h"
#include "meta.h"
#include "plan.h"
#include "resultdir.h"

/*
 * OUT/runs/<n>, numbered from 1 without gaps over the hosts that have a
 * result: it came back, or failed rows stand for what did not.
 */
static int link_runs(struct fleet *fl)
{
	char target[HOST_LABEL_LEN + 16], dir[PATH_MAX + 8];
	int err = 0;

	snprintf(dir, sizeof(dir), "%s/runs", fl->dir);
	/* a resume's links are made again: a host that came back now gets its number */
	err = resultdir_remove_tree(dir) ?: heldir_mkdir(dir, 0755);
	if (err)
		return err;
	for (int i = 0; !err && i < fl->hosts.nr; i++) {
		/* beneath OUT as held: a swap of OUT's path must not hide a host's result */
		if (heldir_access(fl->jobs[i].result))
			continue;
		snprintf(fl->runs[fl->nr_runs], sizeof(fl->runs[0]), "%s/%d", dir, fl->nr_runs + 1);
		snprintf(target, sizeof(target), "../hosts/%s", fl->hosts.h[i].label);
		err = heldir_symlink(target, fl->runs[fl->nr_runs]);
		fl->run_dirs[fl->nr_runs] = fl->runs[fl->nr_runs];
		fl->nr_runs++;
	}
	return err;
}

/*
 * "host_failed: LABEL reason" and "host_note: LABEL ..." for report and for
 * the user; under --shard, "shard_failed: K/N LABEL" too: the points of
 * that share are missing from the merged set (docs/fleet.md: rerunning a
 * shard).
 */
int fleet_record_hosts(const struct fleet *fl)
{
	char path[PATH_MAX + 8], value[HOST_LABEL_LEN + 800];
	int err = 0;

	snprintf(path, sizeof(path), "%s/meta", fl->dir);
	for (int i = 0; !err && i < fl->hosts.nr; i++) {
		const struct fleet_job *j = &fl->jobs[i];

		if (j->note[0]) {
			snprintf(value, sizeof(value), "%s %s", j->h->label, j->note);
			err = meta_append(path, "host_note", value);
		}
		if (j->interrupted) {
			snprintf(value, sizeof(value), "%s %s", j->h->label, j->ok ?
				 "its run stopped at a point boundary; what it finished came back" :
				 j->why);
			err = err ?: meta_append(path, "host_interrupted", value);
		} else if (!j->ok || (j->run_status && j->run_status != EXIT_POINTS_FAILED)) {
			snprintf(value, sizeof(value), "%s %s", j->h->label, j->why);
			err = err ?: meta_append(path, "host_failed", value);
		}
		if (!err && j->shard.count && !fleet_shard_done(j)) {
			snprintf(value, sizeof(value), "%d/%d %s", j->shard.index, j->shard.count,
				 j->h->label);
			err = meta_append(path, "shard_failed", value);
		}
	}
	return err;
}

/*
 * The hosts' results merged and drawn by report: a table block and a chart
 * series per host; under --shard the hosts' shares are one run, which
 * report draws as one table and the spec's charts (shardset.h).
 */
int fleet_merge_and_draw(struct fleet *fl)
{
	struct draw_opts d = fl->rq->orch.draw;
	int status;

	d.profile = fl->cfg->profile;	/* each point's top symbols, as a run prints them */
	if (link_runs(fl))
		return EXIT_POINTS_FAILED;
	status = orch_merge_and_draw(fl->dir, fl->run_dirs, fl->nr_runs, &d, d.by,
				     "tag:fleet_host");
	if (status < 0)
		return EXIT_POINTS_FAILED;
	return status;
}

/*
 * "missing: shard K/N (host LABEL failed): NAME, NAME, ..." into f: the
 * points of a share that did not come back at all, chosen as its run
 * chose them (shard_selects()).
 */
static void list_missing(FILE *f, const struct fleet *fl, const struct plan *pl,
			 const struct fleet_job *j)
{
	const struct sweep_cfg *cfg = fl->cfg;
	char name[256];
	int nr_sel = 0, n = 0;

	fprintf(f, "missing: shard %d/%d (host %s failed):", j->shard.index, j->shard.count,
		j->h->label);
	for (int i = 0; i < pl->nr_pts; i++) {
		const struct point *pt = &pl->pts[i];

		if (!shard_selects(cfg, fl->rq->orch.sub.only, &j->shard, pt, &nr_sel))
			continue;
		point_name(cfg, pt, name, sizeof(name));
		fprintf(f, "%s %s", n++ ? "," : "", name);
	}
	fprintf(f, "%s\n", n ? "" : " none (the share is empty)");
}

/*
 * The shares that did not come back, under the merged table (OUT/table.txt)
 * and on stderr; a host whose result came back but whose run stopped early
 * misses the points without a row in OUT/hosts/LABEL.
 */
void fleet_report_missing(const struct fleet *fl)
{
	char path[PATH_MAX + 16];
	struct plan pl;
	FILE *table;

	snprintf(path, sizeof(path), "%s/table.txt", fl->dir);
	if (plan_build(fl->cfg, &pl)) {
		plan_free(&pl);
		return;
	}
	table = heldir_fopen(path, "a");
	for (int i = 0; i < fl->hosts.nr; i++) {
		const struct fleet_job *j = &fl->jobs[i];

		if (!j->shard.count || fleet_shard_done(j) ||
		    orch_rows_in(j->result, false) >= fl->orch.slots[i].nr_todo)
			continue;
		if (j->ok) {
			fprintf(stderr, "shard %d/%d (host %s) stopped early: the points without a "
				"row in %s are missing\n", j->shard.index, j->shard.count,
				j->h->label, j->result);
			continue;
		}
		list_missing(stderr, fl, &pl, j);
		if (table)
			list_missing(table, fl, &pl, j);
	}
	if (table && fclose(table))
		diag_err("cannot write %s", path);
	plan_free(&pl);
}
