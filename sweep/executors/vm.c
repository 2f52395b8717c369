// SPDX-License-Identifier: GPL-2.0
/* One boot of a kernel under test running one job: see vm.h and docs/kernel.md. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "heldir.h"
#include "scratch.h"
#include "subproc.h"
#include "textfile.h"
#include "vm.h"
#include "vm_cmdline.h"

#define NSEC_PER_MSEC	1000000ULL
#define POLL_MS		100
#define SOCKET_WAIT_MS	10000
#define VIRTIOFSD_EXIT_MS 5000

/* Where Debian (qemu 7.2's C daemon) and Fedora-like systems keep virtiofsd. */
static const char *const virtiofsd_paths[] = {
	"/usr/lib/qemu/virtiofsd", "/usr/libexec/virtiofsd", "/usr/lib/virtiofsd", NULL,
};

/* The processes and files of one boot. */
struct vm_boot_state {
	char tmpdir[64];		/* sockets: a path short enough for sun_path */
	char root_sock[128], out_sock[128];
	char qemu_log[4200];		/* qemu's own messages, beside the console */
	char virtiofsd_log[4200];
	pid_t virtiofsd[2];
	pid_t qemu;
	/*
	 * The share and the console as held beneath OUT: virtiofsd and qemu
	 * get them as /proc/self/fd/N, never by OUT's path, which a user who
	 * can rename OUT could point elsewhere before they open it.
	 */
	int share_fd;
	int console_wfd;		/* qemu's to write */
	int console_fd;			/* read side, for the echo */
	bool held_cr;			/* the last byte echoed was a \r, not written yet */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static const char *qemu_name(const char *machine)
{
	return strcmp(machine, "aarch64") ? "qemu-system-x86_64" : "qemu-system-aarch64";
}

int vm_qemu_path(const char *machine, char *buf, size_t len, char *why, size_t whylen)
{
	if (!spawn_find_in_path(qemu_name(machine), buf, len))
		return 0;
	snprintf(why, whylen, "%s not found: install qemu (Debian: qemu-system-x86, make deps "
		 "does)", qemu_name(machine));
	return -ENOENT;
}

static int find_tools(const char *machine, char *qemu, char *virtiofsd, size_t len, char *why,
		      size_t whylen)
{
	if (vm_qemu_path(machine, qemu, len, why, whylen))
		return -ENOENT;
	for (int i = 0; virtiofsd_paths[i]; i++) {
		if (!access(virtiofsd_paths[i], X_OK)) {
			snprintf(virtiofsd, len, "%s", virtiofsd_paths[i]);
			return 0;
		}
	}
	if (!spawn_find_in_path("virtiofsd", virtiofsd, len))
		return 0;
	snprintf(why, whylen, "virtiofsd not found (Debian 12: /usr/lib/qemu/virtiofsd from "
		 "qemu-system-common)");
	return -ENOENT;
}

/* A socket appears once virtiofsd listens: qemu must not connect before. */
static int wait_socket(const char *path, pid_t pid)
{
	const struct timespec tick = { 0, 10 * NSEC_PER_MSEC };
	struct stat st;
	int status;

	for (int waited = 0; waited < SOCKET_WAIT_MS; waited += 10) {
		if (!stat(path, &st) && S_ISSOCK(st.st_mode))
			return 0;
		if (waitpid(pid, &status, WNOHANG) == pid)
			return -ECHILD;
		nanosleep(&tick, NULL);
	}
	return -ETIMEDOUT;
}

/*
 * virtiofsd i: 0 exports / (read-only in the guest), 1 the share dir,
 * held as bs->share_fd and exported as /proc/self/fd/N/ (the slash:
 * virtiofsd refuses a source that lstat() says is no directory).
 */
static int start_virtiofsd(struct vm_boot_state *bs, const char *virtiofsd, int i,
			   const char *dir, char *why, size_t len)
{
	const char *sock = i ? bs->out_sock : bs->root_sock;
	const char *const *argv;
	char held[64];
	struct vm_argv av;
	int err;

	if (i)
		snprintf(held, sizeof(held), "/proc/self/fd/%d/", bs->share_fd);
	err = vm_virtiofsd_argv(virtiofsd, sock, i ? held : dir, i == 1, &av);
	argv = (const char *const *)av.argv;
	if (!err && i)
		err = spawn(argv, &(struct spawn_opts){ .log = bs->virtiofsd_log,
							.pass_fd = bs->share_fd }, &bs->virtiofsd[i]);
	else if (!err)
		err = spawn(argv, &(struct spawn_opts){ .log = bs->virtiofsd_log },
			    &bs->virtiofsd[i]);
	if (!err)
		err = wait_socket(sock, bs->virtiofsd[i]);
	if (err)
		snprintf(why, len, "virtiofsd for %.400s did not start: %s (see %.400s)", dir,
			 err == -ECHILD ? "it exited before it listened" : strerror(-err),
			 bs->virtiofsd_log);
	return err;
}

static int start_qemu(struct vm_boot_state *bs, const struct vm_job *job, const char *qemu,
		      enum vm_accel accel, char *why, size_t len)
{
	char init[PATH_MAX], initrd[PATH_MAX], console[64];
	struct vm_argv av;
	struct utsname u;
	struct vm_boot b = {
		.qemu = qemu, .image = job->image, .accel = accel, .cpus = job->ka->cpus,
		.mem = job->ka->mem, .init = init, .root_sock = bs->root_sock,
		.out_sock = bs->out_sock, .console = console, .ssh_port = job->ka->ssh_port,
		.gate = job->gate,
	};
	int err = spawn_self_path(init, sizeof(init));

	if (err) {
		snprintf(why, len, "cannot find bpfsweep's own path: %s", strerror(-err));
		return err;
	}
	uname(&u);
	b.machine = u.machine;
	vm_image_initrd(job->image, initrd, sizeof(initrd));
	b.initrd = initrd[0] ? initrd : NULL;
	/* the console file as held: qemu opens it through its inherited descriptor */
	snprintf(console, sizeof(console), "/proc/self/fd/%d", bs->console_wfd);
	err = vm_qemu_argv(&b, &av, why, len);
	if (err)
		return err;
	err = spawn((const char *const *)av.argv, &(struct spawn_opts){ .log = bs->qemu_log,
			.pass_fd = bs->console_wfd }, &bs->qemu);
	if (err)
		snprintf(why, len, "cannot start %.400s: %s", qemu, strerror(-err));
	return err;
}

/* The job file: the working directory and the argv, NUL-separated (vminit.c reads it). */
static int write_job(const struct vm_job *job, char *why, size_t len)
{
	char path[4200];
	FILE *f;
	int err = 0, fd;

	snprintf(path, sizeof(path), "%s/job", job->share);
	/* beneath OUT as held (heldir.h): a swap of OUT's path cannot take the guest's job */
	fd = heldir_open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f) {
		err = fd < 0 ? fd : -errno;
		if (fd >= 0)
			close(fd);
		snprintf(why, len, "cannot write %.400s: %s", path, strerror(-err));
		return err;
	}
	fwrite(job->cwd, 1, strlen(job->cwd) + 1, f);
	for (int i = 0; job->argv[i]; i++)
		fwrite(job->argv[i], 1, strlen(job->argv[i]) + 1, f);
	if (ferror(f))
		err = -EIO;
	if (fclose(f) && !err)
		err = -errno;
	if (err)
		snprintf(why, len, "cannot write %.400s: %s", path, strerror(-err));
	return err;
}

/*
 * The guest's tty ends lines with \r\n: echoed with \n, so that a log or
 * a pipe reads as the job's own output (a lone \r, progress, stays).
 */
static void echo_bytes(struct vm_boot_state *bs, const char *buf, size_t n, FILE *echo)
{
	for (size_t i = 0; i < n; i++) {
		if (bs->held_cr && buf[i] != '\n')
			fputc('\r', echo);
		bs->held_cr = buf[i] == '\r';
		if (!bs->held_cr)
			fputc(buf[i], echo);
	}
}

static void echo_console(struct vm_boot_state *bs, FILE *echo)
{
	char buf[4096];
	ssize_t n;

	if (bs->console_fd < 0)
		return;
	while ((n = read(bs->console_fd, buf, sizeof(buf))) > 0)
		if (echo)
			echo_bytes(bs, buf, n, echo);
	if (echo)
		fflush(echo);
}

static bool share_has(const struct vm_job *job, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", job->share, name);
	return !heldir_access(path);
}

/* Wait for qemu to end: the guest powers off after its job, or a limit runs out. */
static void wait_qemu(struct vm_boot_state *bs, const struct vm_job *job, struct vm_outcome *out)
{
	const struct timespec tick = { 0, POLL_MS * NSEC_PER_MSEC };
	uint64_t start = now_ns(), booted_at = 0;
	bool killed = false;
	int st;

	while (waitpid(bs->qemu, &st, WNOHANG) != bs->qemu) {
		uint64_t t = now_ns();

		echo_console(bs, job->echo);
		if (!booted_at && share_has(job, "booted"))
			booted_at = t;
		if (!killed && !booted_at && t - start > job->ka->boot_timeout_ns) {
			snprintf(out->reason, sizeof(out->reason), "the kernel did not boot within "
				 "%llu s (vm_boot_timeout)",
				 (unsigned long long)(job->ka->boot_timeout_ns / 1000000000ULL));
			killed = !kill(bs->qemu, SIGKILL);
		}
		if (!killed && booted_at && job->run_timeout_ns &&
		    t - booted_at > job->run_timeout_ns) {
			snprintf(out->reason, sizeof(out->reason), "the guest's job ran past %llu s",
				 (unsigned long long)(job->run_timeout_ns / 1000000000ULL));
			killed = !kill(bs->qemu, SIGKILL);
		}
		if (!killed && job->stop && *job->stop) {
			out->interrupted = true;
			snprintf(out->reason, sizeof(out->reason), "interrupted");
			killed = !kill(bs->qemu, SIGTERM);
		}
		nanosleep(&tick, NULL);
	}
	spawn_reaped(bs->qemu);
	echo_console(bs, job->echo);
}

/* What the guest left in the share: its release, and the job's status. */
static void read_outcome(const struct vm_job *job, struct vm_outcome *out)
{
	char path[4200], *text;

	snprintf(path, sizeof(path), "%s/booted", job->share);
	if (!read_text_file_max(path, 4096, &text, &(size_t){ 0 })) {
		out->booted = true;
		snprintf(out->release, sizeof(out->release), "%.*s",
			 (int)strcspn(text, "\n"), text);
		free(text);
	}
	snprintf(path, sizeof(path), "%s/status", job->share);
	if (!read_text_file_max(path, 4096, &text, &(size_t){ 0 })) {
		out->status = atoi(text);
		free(text);
	}
}

/* Why the job has no status: the reason so far, then what the console ended with. */
static void explain(const struct vm_boot_state *bs, const struct vm_job *job,
		    struct vm_outcome *out)
{
	char tail[600], qemu_tail[300];
	size_t n;

	if (out->status >= 0 || out->interrupted)
		return;
	if (!out->reason[0])
		snprintf(out->reason, sizeof(out->reason), "%s",
			 out->booted ? "the guest stopped before its job ended" :
				       "the kernel did not boot");
	vm_console_tail(job->console, 3, tail, sizeof(tail));
	vm_console_tail(bs->qemu_log, 1, qemu_tail, sizeof(qemu_tail));
	n = strlen(out->reason);
	if (tail[0])
		snprintf(out->reason + n, sizeof(out->reason) - n, "; console: %s", tail);
	else if (qemu_tail[0])
		snprintf(out->reason + n, sizeof(out->reason) - n, "; qemu: %s", qemu_tail);
	else
		snprintf(out->reason + n, sizeof(out->reason) - n, "; the console stayed empty");
}

static void close_held(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void stop_all(struct vm_boot_state *bs)
{
	if (bs->qemu > 0 && !kill(bs->qemu, SIGKILL)) {
		waitpid(bs->qemu, NULL, 0);
		spawn_reaped(bs->qemu);
	}
	/* virtiofsd ends when qemu's connection closes; one that does not is killed */
	for (int i = 0; i < 2; i++)
		if (bs->virtiofsd[i] > 0)
			spawn_wait(bs->virtiofsd[i], VIRTIOFSD_EXIT_MS);
	close_held(&bs->console_fd);
	close_held(&bs->console_wfd);
	close_held(&bs->share_fd);
	scratch_remove(bs->tmpdir);	/* virtiofsd's sockets */
}

static int boot(struct vm_boot_state *bs, const struct vm_job *job, struct vm_outcome *out)
{
	char qemu[PATH_MAX], virtiofsd[PATH_MAX];
	struct utsname u;
	int err, fd;

	/* without root virtiofsd cannot share /, and exits before it listens */
	if (geteuid()) {
		snprintf(out->reason, sizeof(out->reason), "a VM needs root: virtiofsd shares "
			 "this machine's root (/) with the guest (run bpfsweep as root)");
		return -EPERM;
	}
	uname(&u);
	err = find_tools(u.machine, qemu, virtiofsd, sizeof(qemu), out->reason,
			 sizeof(out->reason));
	err = err ?: write_job(job, out->reason, sizeof(out->reason));
	if (err)
		return err;
	/* the console file is qemu's to write, ours to read as it grows */
	bs->console_wfd = fd = heldir_open(job->console, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd >= 0)
		bs->share_fd = fd = heldir_open_dir(job->share);
	if (fd < 0) {
		snprintf(out->reason, sizeof(out->reason), "cannot %s %s: %s",
			 bs->console_wfd < 0 ? "create" : "open",
			 bs->console_wfd < 0 ? job->console : job->share, strerror(-fd));
		return fd;
	}
	bs->console_fd = heldir_open(job->console, O_RDONLY, 0);
	err = start_virtiofsd(bs, virtiofsd, 0, "/", out->reason, sizeof(out->reason));
	err = err ?: start_virtiofsd(bs, virtiofsd, 1, job->share, out->reason,
				      sizeof(out->reason));
	err = err ?: start_qemu(bs, job, qemu, out->accel, out->reason, sizeof(out->reason));
	return err;
}

int vm_run(const struct vm_job *job, struct vm_outcome *out)
{
	struct vm_boot_state bs = { .console_fd = -1, .console_wfd = -1, .share_fd = -1,
				    .virtiofsd = { -1, -1 }, .qemu = -1 };
	int err;

	*out = (struct vm_outcome){ .accel = job->accel, .status = -1 };
	err = scratch_make(bs.tmpdir, sizeof(bs.tmpdir), "vm");
	if (err) {
		snprintf(out->reason, sizeof(out->reason), "mkdtemp: %s", strerror(-err));
		return err;
	}
	snprintf(bs.root_sock, sizeof(bs.root_sock), "%s/root.sock", bs.tmpdir);
	snprintf(bs.out_sock, sizeof(bs.out_sock), "%s/out.sock", bs.tmpdir);
	snprintf(bs.qemu_log, sizeof(bs.qemu_log), "%s.qemu", job->console);
	snprintf(bs.virtiofsd_log, sizeof(bs.virtiofsd_log), "%s.virtiofsd", job->console);
	err = boot(&bs, job, out);
	if (!err) {
		wait_qemu(&bs, job, out);
		bs.qemu = -1;
		read_outcome(job, out);
		explain(&bs, job, out);
	}
	stop_all(&bs);
	return err;
}

/* Keep a console line printable: ANSI sequences and other control bytes go. */
static size_t clean_line(const char *s, size_t n, char *out, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 1 < len; i++) {
		unsigned char c = s[i];

		if (c == 0x1b) {	/* ESC [ ... letter */
			while (i + 1 < n && !isalpha((unsigned char)s[i + 1]))
				i++;
			i++;
			continue;
		}
		if (c >= ' ' && c != 0x7f)
			out[o++] = c;
	}
	while (o && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
	return o;
}

void vm_console_tail(const char *path, int lines, char *buf, size_t len)
{
	char *text, line[512];
	const char *found[8];
	size_t size, ends[8];
	int nr = 0;

	buf[0] = '\0';
	if (lines > 8)
		lines = 8;
	if (read_text_file_max(path, 64 << 20, &text, &size))
		return;
	/* from the end, the last non-empty lines (\r of progress lines ends a line too) */
	for (size_t end = size; end > 0 && nr < lines;) {
		size_t start = end;

		while (start > 0 && text[start - 1] != '\n' && text[start - 1] != '\r')
			start--;
		if (clean_line(text + start, end - start, line, sizeof(line))) {
			found[nr] = text + start;
			ends[nr++] = end - start;
		}
		end = start ? start - 1 : 0;
	}
	for (int i = nr - 1; i >= 0; i--) {
		size_t o = strlen(buf);

		clean_line(found[i], ends[i], line, sizeof(line));
		snprintf(buf + o, len - o, "%s%s", o ? " | " : "", line);
	}
	free(text);
}
