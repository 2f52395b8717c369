// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot's side of the charts plot.c makes: their files, text that goes
 * into a script as an inert string, the chart template found beside the
 * binary or where it was installed, gnuplot found on $PATH and run
 * without a shell with a time limit, and the SVG it makes titled with the
 * chart's own title.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "diag.h"
#include "gnuplot.h"
#include "heldir.h"
#include "html.h"
#include "subproc.h"
#include "textfile.h"

int gnuplot_open_out(const char *dir, const char *slug, const char *ext, FILE **f)
{
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, slug, ext);
	*f = heldir_fopen(path, "w");
	if (*f)
		return 0;
	err = -errno;
	diag_err("cannot write %s: %s", path, strerror(-err));
	return err;
}

/* A chart that cannot be drawn leaves no half of its data behind. */
void gnuplot_remove_out(const char *dir, const char *slug, const char *ext)
{
	char path[PATH_MAX + GNUPLOT_SLUG_LEN + 8];

	snprintf(path, sizeof(path), "%s/%s.%s", dir, slug, ext);
	heldir_unlink(path);
}

int gnuplot_close_out(FILE *f, const char *dir, const char *slug, const char *ext)
{
	int err = ferror(f) ? -EIO : 0;

	if (fclose(f) && !err)
		err = -errno;
	if (err)
		diag_err("cannot write %s/%s.%s: %s", dir, slug, ext, strerror(-err));
	return err;
}

/*
 * gnuplot expands `command` in backquotes inside "..." strings and outside
 * any, and @name outside any; inside '...' it expands nothing and reads
 * no escape, the quote itself written twice being the one rule (gnuplot
 * 5.4's "help substitution", checked by tests/e2e/plot_safety.sh).  So a
 * text goes in as it is, each line single-quoted and the lines joined by
 * "\n", the one double-quoted string, ours.  The \ooo escapes of "..."
 * this replaced ran on into a following digit ("\0522" is one escape),
 * which titled "1..8*2" as "1..8R".  Other control characters, which have
 * no place in a label, become spaces.
 */
void gnuplot_put_quoted(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '\n')
			fputs("' . \"\\n\" . '", f);
		else if (c == '\'')
			fputs("''", f);
		else
			fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
	}
	fputc('\'', f);
}

/*
 * A data file's strings are read as "..." strings are, escapes and all,
 * but no substitution happens there and \" does not keep a quote in; so
 * letters, digits, space and " -_.,:=+/()" go in as they are, every other
 * byte as \ooo, and so does a digit right after one: gnuplot reads all
 * the octal digits that follow a \, so "*2" as "\0522" would read back as
 * one byte, 'R'.
 */
static bool data_raw(unsigned char c, bool after_escape)
{
	if (c >= '0' && c <= '9')
		return !after_escape;
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || strchr(" -_.,:=+/()", c);
}

void gnuplot_put_data_text(FILE *f, const char *s)
{
	bool escaped = false;

	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c < 0x20 || c == 0x7f)
			c = ' ';
		escaped = !data_raw(c, escaped);
		if (escaped)
			fprintf(f, "\\%03o", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Dirname of /proc/self/exe into buf; false when unknown. */
static bool exe_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return false;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

/*
 * The build tree first (plots/ beside the binary), then an installed
 * layout found from the binary itself (a DESTDIR staging tree, or a prefix
 * moved as a whole), then the DATADIR it was built for (a binary copied
 * elsewhere), then the current directory.
 */
int plot_template_find(const char *name, char *buf, size_t len)
{
	char dir[PATH_MAX];
	bool have_exe = exe_dir(dir, sizeof(dir));
	const char *const fmts[] = { "%s/plots/%s", "%s/../share/bpfsweep/plots/%s" };

	for (size_t i = 0; have_exe && i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		snprintf(buf, len, fmts[i], dir, name);
		if (!access(buf, R_OK))
			return 0;
	}
	snprintf(buf, len, "%s/plots/%s", BPFSWEEP_DATADIR, name);
	if (!access(buf, R_OK))
		return 0;
	snprintf(buf, len, "plots/%s", name);
	return access(buf, R_OK) ? -ENOENT : 0;
}

/*
 * gnuplot's svg "name" (letters, digits and _ only): the slug with _ for
 * -, and a leading _ since a name must not start with a digit.  It ids
 * the SVG's groups and is its <title> until svg_set_title() replaces it.
 */
void gnuplot_svg_name(const char *slug, char *buf, size_t len)
{
	size_t n = snprintf(buf, len, "_%s", slug);

	for (size_t i = 0; i < n && i < len; i++)
		if (buf[i] == '-')
			buf[i] = '_';
}

/*
 * gnuplot's path from $PATH, looked up here rather than left to
 * posix_spawnp: a failed exec in the child is not always reported back
 * (valgrind, some libcs), and a missing gnuplot deserves one clear message.
 */
int gnuplot_find(char *buf, size_t len)
{
	const char *path = getenv("PATH") ?: "/usr/local/bin:/usr/bin:/bin";

	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(buf, len, "%.*s/gnuplot", (int)n, n ? path : ".");
		if (!access(buf, X_OK))
			return 0;
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

/*
 * gnuplot -e "out = '<part>'" <slug>.gp in dir, no shell, for at most
 * timeout_s seconds; reports its errors.  The template names its files
 * after out when it is set (plots/lines.gp), so gnuplot writes the chart
 * under the part name, and <slug>.gp run by hand still makes <slug>.png.
 */
static int run_gnuplot(const char *gnuplot, const char *dir, const char *slug,
		       const char *part, unsigned int timeout_s)
{
	char script[GNUPLOT_SLUG_LEN + 8], set_out[2 * GNUPLOT_SLUG_LEN + 16];
	const char *argv[] = { gnuplot, "-e", set_out, script, NULL };
	size_t n = snprintf(set_out, sizeof(set_out), "out = '");
	int err, status;
	pid_t pid;

	/* a slug is letters, digits and '-' (slugify()); a quote would be doubled all the same */
	for (; *part && n < sizeof(set_out) - 3; part++) {
		if (*part == '\'')
			set_out[n++] = '\'';
		set_out[n++] = *part;
	}
	snprintf(set_out + n, sizeof(set_out) - n, "'");
	snprintf(script, sizeof(script), "%s.gp", slug);
	err = spawn(argv, &(struct spawn_opts){ .dir = dir }, &pid);
	if (err) {
		diag_err("cannot run gnuplot: %s", strerror(-err));
		return err;
	}
	err = spawn_wait_status(pid, timeout_s * 1000, &status);
	if (err == -ETIMEDOUT) {
		diag_err("gnuplot timed out after %u s on %s/%s", timeout_s, dir, script);
		return err;
	}
	if (err) {
		diag_err("cannot wait for gnuplot: %s", strerror(-err));
		return err;
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	diag_err("gnuplot failed on %s/%s (%s %d)", dir, script,
		 WIFEXITED(status) ? "exit status" : "signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	return -EIO;
}

/*
 * gnuplot's svg terminal titles the document with its "name", an
 * identifier: the chart's own title, escaped as XML, goes in its place
 * so that a browser tab or a screen reader says what the chart is.
 */
/* gnuplot's SVG of a chart: ~120 bytes a point, and a sweep has at most BIND_MAX_POINTS */
#define SVG_MAX_BYTES	(256 << 20)

static int svg_set_title(const char *dir, const char *file, const char *slug, const char *title,
			 bool *rewritten)
{
	char path[PATH_MAX + GNUPLOT_SLUG_LEN + 8], name[GNUPLOT_SLUG_LEN + 2];
	char old[GNUPLOT_SLUG_LEN + 24], *text, *at;
	FILE *f = NULL;
	int err;

	*rewritten = false;
	snprintf(path, sizeof(path), "%s/%s.svg", dir, file);
	/* a chart of many points is more than read_text_file()'s 1 MiB (12,000: 1.4 MB) */
	err = read_text_file_max(path, SVG_MAX_BYTES, &text, &(size_t){ 0 });
	if (err)
		goto out;
	gnuplot_svg_name(slug, name, sizeof(name));
	snprintf(old, sizeof(old), "<title>%s</title>", name);
	/* no such title: not gnuplot's layout, left as it is */
	at = strstr(text, old);
	if (at && !(f = heldir_fopen(path, "w")))
		err = -errno;
	*rewritten = f;
	if (f) {
		fwrite(text, 1, at - text, f);
		fputs("<title>", f);
		/* the pages' escaping is XML's too, and it keeps the file valid UTF-8 */
		html_text(f, title);
		fputs("</title>", f);
		fputs(at + strlen(old), f);
		err = ferror(f) ? -EIO : 0;
		if (fclose(f) && !err)
			err = -errno;
	}
	free(text);
out:
	if (err)
		diag_err("cannot set the title of %s: %s", path, strerror(-err));
	return err;
}

static const char *const chart_exts[] = { "png", "svg" };
#define NR_CHART_EXTS	(sizeof(chart_exts) / sizeof(chart_exts[0]))

/*
 * Is dir/file.ext whole?  gnuplot exits 0 when a write of its output fails
 * (on a full disk it left a PNG cut at 8 KiB and an empty SVG), so the
 * file's end tells: a PNG ends with its IEND chunk, gnuplot's SVG with
 * "</svg>" and a blank or two.  0, -ENOENT when gnuplot wrote no such
 * file, or -EIO (reported, as chart slug's) when it is cut short.
 */
static int output_whole(const char *dir, const char *file, const char *slug, const char *ext)
{
	static const char png_end[] = "\0\0\0\0IEND\xae\x42\x60\x82";
	char path[PATH_MAX + GNUPLOT_SLUG_LEN + 16], tail[64];
	struct stat st;
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "%s/%s.%s", dir, file, ext);
	fd = heldir_open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
	if (fd < 0)
		return fd == -ENOENT ? fd : -EIO;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		n = st.st_size < (off_t)sizeof(tail) ? st.st_size : (off_t)sizeof(tail);
		n = pread(fd, tail, n, st.st_size - n);
	}
	close(fd);
	while (n > 0 && *ext == 's' && strchr(" \t\r\n", tail[n - 1]))
		n--;
	if (*ext == 'p' ? n >= 12 && !memcmp(tail + n - 12, png_end, 12) :
			  n >= 6 && !memcmp(tail + n - 6, "</svg>", 6))
		return 0;
	diag_err("chart %s not drawn: gnuplot's %s was cut short (a full disk, a file size "
		 "limit?); no .png or .svg of it is kept", slug, ext);
	return -EIO;
}

/* dir/from.ext renamed to dir/to.ext; 0 or -errno, reported. */
static int output_move(const char *dir, const char *from, const char *to, const char *ext)
{
	char src[PATH_MAX + GNUPLOT_SLUG_LEN + 16], dst[PATH_MAX + GNUPLOT_SLUG_LEN + 16];
	int err;

	snprintf(src, sizeof(src), "%s/%s.%s", dir, from, ext);
	snprintf(dst, sizeof(dst), "%s/%s.%s", dir, to, ext);
	err = heldir_rename(src, dst, 0);
	if (err)
		diag_err("cannot rename %s to %s: %s", src, dst, strerror(-err));
	return err;
}

/*
 * One chart: gnuplot writes it as ".<slug>.part.png" and ".svg" (hidden: no
 * page lists them), each is checked whole and the SVG titled, and only then
 * are they renamed into place.  Otherwise they are removed, and so is an
 * older <slug>.png or .svg: the .gp and .dat beside them are the new chart's
 * already, so they would show what no file holds any more.
 */
static int render_one(const char *gnuplot, const char *dir, const char *slug, const char *title,
		      unsigned int timeout_s)
{
	char part[GNUPLOT_SLUG_LEN + 16];
	bool made[NR_CHART_EXTS] = { false }, any = false, rewritten = false;
	int err, title_err = 0;

	snprintf(part, sizeof(part), ".%s.part", slug);
	err = run_gnuplot(gnuplot, dir, slug, part, timeout_s);
	for (size_t i = 0; !err && i < NR_CHART_EXTS; i++) {
		int e = output_whole(dir, part, slug, chart_exts[i]);

		made[i] = !e;
		any |= made[i];
		err = e == -ENOENT ? 0 : e;
	}
	/* a template of the user's that names its own files (no "out"): as it names them */
	if (!err && !any)
		return svg_set_title(dir, slug, slug, title, &rewritten);
	if (!err && made[1]) {
		title_err = svg_set_title(dir, part, slug, title, &rewritten);
		/* a title not read (an SVG past the text files' cap) leaves it whole, untitled */
		err = rewritten ? title_err : 0;
	}
	for (size_t i = 0; !err && i < NR_CHART_EXTS; i++)
		if (made[i])
			err = output_move(dir, part, slug, chart_exts[i]);
	for (size_t i = 0; err && i < NR_CHART_EXTS; i++) {
		gnuplot_remove_out(dir, part, chart_exts[i]);
		gnuplot_remove_out(dir, slug, chart_exts[i]);
	}
	return err ?: title_err;
}

/* Render every chart written; the first error wins, the others still run. */
int gnuplot_render_all(const char *dir, char (*slugs)[GNUPLOT_SLUG_LEN],
		       char (*titles)[GNUPLOT_TITLE_LEN], int nr, unsigned int timeout_s)
{
	char gnuplot[PATH_MAX];
	int err = 0;

	if (nr && gnuplot_find(gnuplot, sizeof(gnuplot))) {
		diag_err("gnuplot not found: charts not rendered (install gnuplot-nox, "
			 "then run gnuplot on %s/*.gp)", dir);
		return -ENOENT;
	}
	for (int i = 0; i < nr; i++) {
		int e = render_one(gnuplot, dir, slugs[i], titles[i], timeout_s);

		if (e && !err)
			err = e;
	}
	return err;
}
