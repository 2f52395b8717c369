// SPDX-License-Identifier: GPL-2.0
/*
 * fleet --resume OUT: what an earlier attempt left in OUT (fleet_state.h).  Its
 * meta says what ran (fleet_record.c), OUT/spec the spec, OUT/hostfile the
 * host file; OUT/remote/<label> each remote directory still kept, and
 * OUT/hosts/<label> each result that came back.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "fleet_state.h"
#include "heldir.h"
#include "meta.h"
#include "resultdir.h"
#include "resume.h"
#include "textfile.h"

static int check_spec(const char *dir, const struct spec *spec)
{
	char path[PATH_MAX + 8], *was;
	int err;

	snprintf(path, sizeof(path), "%s/spec", dir);
	err = read_text_file(path, &was);
	if (err) {
		diag_err("cannot resume %s: %s: %s", dir, path, textfile_strerror(err));
		return err;
	}
	err = resume_check_spec(dir, was, spec);
	free(was);
	return err;
}

/* --hosts FILE (a host may have moved), else the copy the first attempt kept. */
static int load_hosts(const char *dir, const struct fleet_request *rq, bool slurm,
		      struct slurm_machines *ms, struct hosts *hs)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/hostfile", dir);
	return fleet_hosts_load(rq->hosts ?: path, rq, slurm, ms, hs);
}

int fleet_resume_open(struct fleet_resume *fr, const char *dir, const struct spec *spec,
		      const struct fleet_request *rq, struct slurm_machines *ms, struct hosts *hs)
{
	char path[PATH_MAX + 8], why[512];
	int err;

	snprintf(path, sizeof(path), "%s/meta", dir);
	err = read_text_file(path, &fr->meta);
	if (err) {
		diag_err("cannot resume %s: %s: %s", dir, path, textfile_strerror(err));
		return err;
	}
	fr->parsed = strdup(fr->meta);
	if (!fr->parsed)
		return -ENOMEM;
	err = fleet_record_parse(fr->parsed, &fr->rec, why, sizeof(why));
	err = err ?: load_hosts(dir, rq, fr->rec.slurm, ms, hs);
	err = err ?: fleet_record_check(&fr->rec, rq, hs, why, sizeof(why));
	if (err == -EINVAL && why[0])
		diag_err("cannot resume %s: %s", dir, why);
	return err ?: check_spec(dir, spec);
}

/* A remote directory as fleet_host.c wrote it: one absolute path of plain characters. */
static bool read_remote(const char *path, char *dir, size_t len)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789/._-";
	char *text;
	size_t n;
	bool ok;

	if (read_text_file(path, &text))
		return false;
	n = strcspn(text, "\n");
	ok = text[0] == '/' && n < len && !strstr(text, "..") && strspn(text, plain) == n;
	snprintf(dir, len, "%.*s", ok ? (int)n : 0, text);
	free(text);
	return ok;
}

/* The earlier attempt's meta says the host failed. */
static bool failed_before(const struct fleet_resume *fr, const char *label)
{
	char key[HOST_LABEL_LEN + 24];

	snprintf(key, sizeof(key), "\nhost_failed: %s ", label);
	return strstr(fr->meta, key);
}

void fleet_resume_host(const struct fleet_resume *fr, const char *dir, const char *label,
		       char *old_dir, size_t len, bool *done)
{
	char path[PATH_MAX + HOST_LABEL_LEN + 16];
	bool recorded;

	snprintf(path, sizeof(path), "%s/remote/%s", dir, label);
	recorded = !heldir_access(path);
	if (recorded && !read_remote(path, old_dir, len))
		diag_warn("%s does not name a remote directory: host %s starts over", path, label);
	snprintf(path, sizeof(path), "%s/hosts/%s", dir, label);
	*done = !recorded && !heldir_access(path) && !failed_before(fr, label);
}

int fleet_resume_meta(const struct fleet_resume *fr, const char *dir, const bool *again)
{
	char path[PATH_MAX + 8];
	struct membuf m;
	const char *l = fr->meta;
	int err = membuf_open(&m);

	while (!err && *l) {
		size_t n = strcspn(l, "\n");
		char *line = strndup(l, n);

		if (!line)
			err = -ENOMEM;
		else if (fleet_meta_keeps(line, &fr->rec, again))
			fprintf(m.f, "%s\n", line);
		free(line);
		l += n + (l[n] == '\n');
	}
	err = membuf_close(&m) ?: err;
	err = err ?: resultdir_put_file(dir, "meta", m.buf, m.len, true);
	membuf_free(&m);
	snprintf(path, sizeof(path), "%s/meta", dir);
	return err ?: meta_append_time(path, "resumed", time(NULL));
}

void fleet_resume_free(struct fleet_resume *fr)
{
	free(fr->meta);
	free(fr->parsed);
	fr->meta = fr->parsed = NULL;
}
