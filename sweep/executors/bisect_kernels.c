// SPDX-License-Identifier: GPL-2.0
/*
 * The kernels a bisect walks (bisect_kernels.h).  Debian's list and its
 * images come from scripts/vm-kernel.sh, run with argv (never a shell):
 * it alone knows the archive, its suites and the cache.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bisect_kernels.h"
#include "diag.h"
#include "stop.h"
#include "subproc.h"

#ifndef BPFSWEEP_DATADIR
#define BPFSWEEP_DATADIR "/usr/local/share/bpfsweep"
#endif

/* reading the suites' lists, or fetching one release: minutes on a slow mirror */
#define SCRIPT_TIMEOUT_MS	(30 * 60 * 1000)
#define LIST_MAX		(1 << 20)

void bisect_list_free(struct bisect_list *l)
{
	free(l->k);
	l->k = NULL;
	l->n = 0;
}

int bisect_list_images(const char *const *imgs, int nr, const char *good, const char *bad,
		       struct bisect_list *l)
{
	if (nr < 2) {
		diag_err("bisect: --kernel gives the kernels in order, oldest first: at least two");
		return -EINVAL;
	}
	if ((good && strcmp(good, imgs[0])) || (bad && strcmp(bad, imgs[nr - 1]))) {
		diag_err("bisect: with --kernel, the good (old) end is the first kernel and the bad "
			 "(new) end the last: %s and %s", imgs[0], imgs[nr - 1]);
		return -EINVAL;
	}
	l->k = calloc(nr, sizeof(*l->k));
	if (!l->k)
		return -ENOMEM;
	l->n = nr;
	for (int i = 0; i < nr; i++) {
		snprintf(l->k[i].label, sizeof(l->k[i].label), "%s", imgs[i]);
		snprintf(l->k[i].image, sizeof(l->k[i].image), "%s", imgs[i]);
	}
	return 0;
}

/* Does a listed version (and its release) stand for what end names: 6.12, 6.12.43, a release? */
static bool names(const char *end, const char *version, const char *release)
{
	size_t n = strlen(end);

	return !strcmp(end, release) || !strcmp(end, version) ||
	       (!strncmp(end, version, n) && version[n] == '.');
}

/*
 * One version a line, its preferred release as vm-kernel.sh picks it: one
 * that can be fetched, the cloud flavour, the newer (the list is sorted by
 * release within a version).
 */
static int add_line(struct bisect_list *l, const char *version, const char *release,
		    bool incomplete)
{
	struct bisect_kernel *last = l->n ? &l->k[l->n - 1] : NULL;

	if (last && !strcmp(last->label, version)) {
		bool cloud = strstr(release, "-cloud-"), last_cloud = strstr(last->release, "-cloud-");

		if (incomplete && !last->incomplete)
			return 0;
		if ((!incomplete && last->incomplete) || cloud || !last_cloud) {
			snprintf(last->release, sizeof(last->release), "%s", release);
			last->incomplete = incomplete;
		}
		return 0;
	}
	if (l->n >= BISECT_MAX_KERNELS)
		return -E2BIG;
	last = &l->k[l->n++];
	*last = (struct bisect_kernel){ 0 };
	snprintf(last->label, sizeof(last->label), "%s", version);
	snprintf(last->release, sizeof(last->release), "%s", release);
	last->incomplete = incomplete;
	return 0;
}

/* The last kernel of l that end names (the newest release of a version), or -1. */
static int find_end(const struct bisect_list *l, const char *end)
{
	int found = -1;

	for (int i = 0; i < l->n; i++)
		if (names(end, l->k[i].label, l->k[i].release))
			found = i;
	return found;
}

int bisect_list_parse(const char *text, const char *good, const char *bad,
		      struct bisect_list *l, char *why, size_t len)
{
	char version[64], release[128], suite[64], mark[32];
	int g, b, err = 0;

	l->n = 0;
	l->k = calloc(BISECT_MAX_KERNELS, sizeof(*l->k));
	if (!l->k)
		return -ENOMEM;
	for (const char *p = text; p && *p && !err; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		char line[400];
		int n;

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
		n = sscanf(line, "%63s %127s %63s %31s", version, release, suite, mark);
		if (n >= 2)
			err = add_line(l, version, release, n == 4 && !strcmp(mark, "incomplete"));
	}
	g = find_end(l, good);
	b = find_end(l, bad);
	if (!err && (g < 0 || b < 0)) {
		snprintf(why, len, "Debian serves no kernel %s (vm-kernel.sh --list)", g < 0 ? good : bad);
		err = -ENOENT;
	} else if (!err && b <= g) {
		snprintf(why, len, "%s is not older than %s in Debian's list", good, bad);
		err = -EINVAL;
	}
	if (err) {
		bisect_list_free(l);
		return err;
	}
	memmove(l->k, &l->k[g], (b - g + 1) * sizeof(*l->k));
	l->n = b - g + 1;
	return 0;
}

/* vm-kernel.sh beside self (a checkout), else in the data directory. */
static int find_script(const char *self, char *buf, size_t len)
{
	const char *slash = strrchr(self, '/');

	snprintf(buf, len, "%.*s/scripts/vm-kernel.sh", slash ? (int)(slash - self) : 1,
		 slash ? self : ".");
	if (!access(buf, X_OK))
		return 0;
	snprintf(buf, len, "%s/scripts/vm-kernel.sh", BPFSWEEP_DATADIR);
	return access(buf, X_OK) ? -ENOENT : 0;
}

/* vm-kernel.sh ARG: its stdout into *out (free() it); 0 or -errno with why. */
static int run_script(const char *self, const char *arg, char **out, char *why, size_t len)
{
	char script[PATH_MAX + 32];
	const char *argv[] = { script, arg, NULL };
	FILE *f = tmpfile();
	size_t n = 0;
	pid_t pid;
	int status = -ENOMEM;

	*out = calloc(1, LIST_MAX + 1);
	if (find_script(self, script, sizeof(script))) {
		snprintf(why, len, "no scripts/vm-kernel.sh beside bpfsweep nor in %s: give the "
			 "kernels as --kernel IMAGE", BPFSWEEP_DATADIR);
		status = -ENOENT;
	} else if (f && *out) {
		status = spawn(argv, &(struct spawn_opts){ .out_fd = fileno(f) }, &pid);
		status = status ?: spawn_wait_stop(pid, SCRIPT_TIMEOUT_MS, &stop_requested);
		if (status > 0)
			snprintf(why, len, "%s %s exited with status %d", script, arg, status);
		else if (status < 0)
			snprintf(why, len, "%s %s: %s", script, arg, strerror(-status));
	}
	if (!status) {
		rewind(f);
		n = fread(*out, 1, LIST_MAX, f);
		(*out)[n] = '\0';
	}
	if (f)
		fclose(f);
	return status > 0 ? -EIO : status;
}

int bisect_list_debian(const char *self, const char *good, const char *bad,
		       struct bisect_list *l)
{
	char *text = NULL, why[PATH_MAX + 128] = "";
	int err = run_script(self, "--list", &text, why, sizeof(why));

	err = err ?: bisect_list_parse(text, good, bad, l, why, sizeof(why));
	free(text);
	if (err)
		diag_err("bisect: %s", why[0] ? why : strerror(-err));
	return err;
}

int bisect_kernel_fetch(const char *self, struct bisect_kernel *k, char *why, size_t len)
{
	char *out = NULL;
	int err;

	if (k->image[0])
		return 0;
	err = run_script(self, k->release, &out, why, len);
	if (!err) {
		out[strcspn(out, "\n")] = '\0';
		if (!out[0] || out[0] != '/')
			err = -EIO;
		if (err)
			snprintf(why, len, "vm-kernel.sh %s printed no image", k->release);
		else
			snprintf(k->image, sizeof(k->image), "%s", out);
	}
	free(out);
	return err;
}
