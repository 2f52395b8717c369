// SPDX-License-Identifier: GPL-2.0
/*
 * fleet --resume OUT reads back what OUT/meta recorded (fleet_record.c):
 * the hosts in order, --shard, --only, --quick, the engine and the tags; refuses a
 * command line or host file that differs; and keeps the first run's lines
 * of meta while an attempt's outcome lines go.
 */
#include <errno.h>
#include <string.h>

#include "check.h"
#include "fleet_record.h"

static const char meta[] =
	"bpfsweep: 0.1\n"
	"command: bpfsweep fleet s.spec --hosts h --shard\n"
	"quick: yes\n"
	"tag: note=a b'c\n"
	"tag: rig=lab\n"
	"start: 2026-12-01T01:00:00Z\n"
	"fleet: 2 hosts\n"
	"fleet_shard: host k of the n hosts ran --shard k/n\n"
	"fleet_only: scaling\n"
	"fleet_host: alpha root@10.0.0.2\n"
	"fleet_host: beta 10.0.0.3\n"
	"host_note: alpha runs its installed bpfsweep 0.0\n"
	"host_note: beta runs its installed bpfsweep 0.0\n"
	"host_failed: beta ssh failed during the run\n"
	"shard_failed: 2/2 beta\n"
	"report_by: tag:fleet_host\n"
	"end: 2026-12-01T01:01:00Z\n";

static struct fleet_record rec;
static char text[sizeof(meta)], why[256];

static int parse(const char *m)
{
	snprintf(text, sizeof(text), "%s", m);
	why[0] = '\0';
	return fleet_record_parse(text, &rec, why, sizeof(why));
}

static struct hosts two_hosts(const char *a, const char *b)
{
	struct hosts hs = { .nr = 2 };

	snprintf(hs.h[0].label, sizeof(hs.h[0].label), "%s", a);
	snprintf(hs.h[1].label, sizeof(hs.h[1].label), "%s", b);
	return hs;
}

TEST(reads_hosts_options_and_tags)
{
	CHECK_INT(parse(meta), 0);
	CHECK_INT(rec.nr_hosts, 2);
	CHECK_STR(rec.labels[0], "alpha");
	CHECK_STR(rec.labels[1], "beta");
	CHECK(rec.shard);
	CHECK(rec.quick);
	CHECK_STR(rec.only, "scaling");
	CHECK_INT(rec.nr_tags, 2);
	CHECK_STR(rec.tags[0], "note=a b'c");
	CHECK_STR(rec.tags[1], "rig=lab");
	CHECK(!rec.tags[2]);
}

TEST(not_a_fleet_or_hosts_that_do_not_add_up)
{
	CHECK_INT(parse("bpfsweep: 0.1\nworkload: null\n"), -EINVAL);
	CHECK(strstr(why, "not the result directory of a fleet"));
	CHECK_INT(parse("fleet: 3 hosts\nfleet_host: a x\nfleet_host: b y\n"), -EINVAL);
	CHECK_STR(why, "its meta says 3 hosts and lists 2");
	CHECK_INT(parse("fleet: many hosts\n"), -EINVAL);
	CHECK_INT(parse("fleet: 1 host\nfleet_host: \n"), -EINVAL);
	CHECK_INT(parse("fleet: 1 host\nfleet_host: solo root@h\n"), 0);
	CHECK(!rec.shard && !rec.quick && !rec.only && !rec.nr_tags);
}

TEST(the_command_line_must_match_the_record)
{
	struct fleet_request o = { .orch.sub = { .quick = true, .only = "scaling" },
				   .shard_hosts = true };
	struct hosts hs = two_hosts("alpha", "beta");

	CHECK_INT(parse(meta), 0);
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), 0);
	o.orch.sub.quick = false;
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "it ran with --quick, this command is without it");
	o.orch.sub.quick = true;
	o.shard_hosts = false;
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "it ran with --shard, this command is without it");
	o.shard_hosts = true;
	o.orch.sub.only = NULL;
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "it ran --only 'scaling', this command has ''");
	o.orch.sub.only = "scaling";
	hs = two_hosts("beta", "alpha");
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), -EINVAL);
	CHECK(!strncmp(why, "its host 1 was alpha, the host file's is beta", 45));
	hs.nr = 1;
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "it ran on 2 hosts, the host file has 1");
}

TEST(the_engine_is_recorded_and_kept)
{
	struct fleet_request o = { .engine = FLEET_ENGINE_SSH };
	struct hosts hs = two_hosts("alpha", "beta");

	hs.nr = 1;
	CHECK_INT(parse("fleet: 1 host\nfleet_engine: slurm\nfleet_host: alpha partition=debug\n"),
		  0);
	CHECK(rec.slurm);
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "it ran with --engine slurm, this command has --engine ssh");
	/* not given: OUT's */
	o.engine = FLEET_ENGINE_UNSAID;
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), 0);
	o.engine = FLEET_ENGINE_SLURM;
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), 0);
	CHECK_INT(parse("fleet: 1 host\nfleet_host: alpha root@h\n"), 0);
	CHECK(!rec.slurm);
	CHECK_INT(fleet_record_check(&rec, &o, &hs, why, sizeof(why)), -EINVAL);
	CHECK_STR(why, "it ran with --engine ssh, this command has --engine slurm");
}

TEST(a_resume_drops_the_outcome_lines)
{
	const bool again[] = { false, true };
	char out[sizeof(meta)] = "", line[256];
	const char *l = meta;

	CHECK_INT(parse(meta), 0);
	while (*l) {
		size_t n = strcspn(l, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)n, l);
		if (fleet_meta_keeps(line, &rec, again))
			strcat(strcat(out, line), "\n");
		l += n + 1;
	}
	/* alpha's result came back before: its note stays; beta runs again */
	CHECK_STR(out,
		  "bpfsweep: 0.1\n"
		  "command: bpfsweep fleet s.spec --hosts h --shard\n"
		  "quick: yes\n"
		  "tag: note=a b'c\n"
		  "tag: rig=lab\n"
		  "start: 2026-12-01T01:00:00Z\n"
		  "fleet: 2 hosts\n"
		  "fleet_shard: host k of the n hosts ran --shard k/n\n"
		  "fleet_only: scaling\n"
		  "fleet_host: alpha root@10.0.0.2\n"
		  "fleet_host: beta 10.0.0.3\n"
		  "host_note: alpha runs its installed bpfsweep 0.0\n");
	CHECK(!fleet_meta_keeps("host_interrupted: alpha", &rec, again));
	CHECK(fleet_meta_keeps("host_note: gamma runs", &rec, again));
	CHECK(fleet_meta_keeps("resumed: 2026-12-01T01:02:00Z", &rec, again));
}

RUN_TESTS(reads_hosts_options_and_tags, not_a_fleet_or_hosts_that_do_not_add_up,
	  the_command_line_must_match_the_record, the_engine_is_recorded_and_kept,
	  a_resume_drops_the_outcome_lines)
