// SPDX-License-Identifier: GPL-2.0
/* A fleet's OUT/meta read back for --resume: fleet_record.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet_record.h"

/* line is "key: value": the value, or NULL. */
static char *value_of(char *line, const char *key)
{
	size_t kl = strlen(key);

	return !strncmp(line, key, kl) && !strncmp(line + kl, ": ", 2) ? line + kl + 2 : NULL;
}

/* "LABEL LOGIN": the label, the first word. */
static int add_host(struct fleet_record *r, const char *v, char *why, size_t len)
{
	size_t n = strcspn(v, " ");

	if (r->nr_hosts >= HOSTS_MAX || !n || n >= HOST_LABEL_LEN) {
		snprintf(why, len, "a fleet_host line too many or without a label: '%.200s'", v);
		return -EINVAL;
	}
	snprintf(r->labels[r->nr_hosts++], HOST_LABEL_LEN, "%.*s", (int)n, v);
	return 0;
}

static int parse_line(char *line, struct fleet_record *r, int *nr_said, char *why, size_t len)
{
	char *v, *end;

	if ((v = value_of(line, "fleet"))) {
		*nr_said = strtol(v, &end, 10);
		if (end == v || *nr_said < 1 || strncmp(end, " host", 5)) {
			snprintf(why, len, "its line 'fleet: %.100s' is not a number of hosts", v);
			return -EINVAL;
		}
	} else if ((v = value_of(line, "fleet_host"))) {
		return add_host(r, v, why, len);
	} else if ((v = value_of(line, "fleet_engine"))) {
		r->slurm = !strcmp(v, "slurm");
	} else if (value_of(line, "fleet_shard")) {
		r->shard = true;
	} else if ((v = value_of(line, "fleet_only"))) {
		r->only = v;
	} else if ((v = value_of(line, "quick"))) {
		r->quick = !strcmp(v, "yes");
	} else if ((v = value_of(line, "tag")) && r->nr_tags < FLEET_MAX_TAGS) {
		r->tags[r->nr_tags++] = v;
	}
	return 0;
}

int fleet_record_parse(char *meta, struct fleet_record *r, char *why, size_t len)
{
	char *line, *save = NULL;
	int nr_said = 0, err = 0;

	memset(r, 0, sizeof(*r));
	for (line = strtok_r(meta, "\n", &save); line && !err; line = strtok_r(NULL, "\n", &save))
		err = parse_line(line, r, &nr_said, why, len);
	if (err)
		return err;
	if (!nr_said) {
		snprintf(why, len, "not the result directory of a fleet (its meta has no "
			 "'fleet:' line)");
		return -EINVAL;
	}
	if (nr_said != r->nr_hosts) {
		snprintf(why, len, "its meta says %d hosts and lists %d", nr_said, r->nr_hosts);
		return -EINVAL;
	}
	return 0;
}

static const char *yes_no(bool b)
{
	return b ? "with" : "without";
}

static const char *engine_name(bool slurm)
{
	return slurm ? "slurm" : "ssh";
}

int fleet_record_check(const struct fleet_record *r, const struct fleet_request *rq,
		       const struct hosts *hs, char *why, size_t len)
{
	const struct subrun *sub = &rq->orch.sub;
	bool slurm = rq->engine == FLEET_ENGINE_SLURM;

	if (r->quick != sub->quick) {
		snprintf(why, len, "it ran %s --quick, this command is %s it", yes_no(r->quick),
			 yes_no(sub->quick));
		return -EINVAL;
	}
	if (r->shard != rq->shard_hosts) {
		snprintf(why, len, "it ran %s --shard, this command is %s it", yes_no(r->shard),
			 yes_no(rq->shard_hosts));
		return -EINVAL;
	}
	if (rq->engine != FLEET_ENGINE_UNSAID && r->slurm != slurm) {
		snprintf(why, len, "it ran with --engine %s, this command has --engine %s",
			 engine_name(r->slurm), engine_name(slurm));
		return -EINVAL;
	}
	if (strcmp(r->only ?: "", sub->only ?: "")) {
		snprintf(why, len, "it ran --only '%.100s', this command has '%.100s'",
			 r->only ?: "", sub->only ?: "");
		return -EINVAL;
	}
	if (hs->nr != r->nr_hosts) {
		snprintf(why, len, "it ran on %d hosts, the host file has %d", r->nr_hosts, hs->nr);
		return -EINVAL;
	}
	for (int i = 0; i < hs->nr; i++) {
		if (strcmp(hs->h[i].label, r->labels[i])) {
			snprintf(why, len, "its host %d was %s, the host file's is %s (the same "
				 "labels in the same order: --shard gives each its place)", i + 1,
				 r->labels[i], hs->h[i].label);
			return -EINVAL;
		}
	}
	return 0;
}

bool fleet_meta_keeps(const char *line, const struct fleet_record *r, const bool *again)
{
	static const char *const outcome[] = { "host_failed: ", "shard_failed: ",
					       "host_interrupted: ", "report_by: ", "end: " };
	const char *v;
	size_t n;

	for (size_t i = 0; i < sizeof(outcome) / sizeof(outcome[0]); i++)
		if (!strncmp(line, outcome[i], strlen(outcome[i])))
			return false;
	if (strncmp(line, "host_note: ", 11))
		return true;
	v = line + 11;
	n = strcspn(v, " ");
	for (int i = 0; i < r->nr_hosts; i++)
		if (strlen(r->labels[i]) == n && !strncmp(v, r->labels[i], n))
			return !again[i];
	return true;
}
