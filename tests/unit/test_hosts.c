// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet's host file (hosts.c): parallel's --sshloginfile lines with
 * @LABEL/, comments and blank lines, and every line that could reach a
 * shell or ssh's options refused at its line and column; and the remote
 * words (shquote.c) a POSIX shell reads back as they were.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diag_capture.h"
#include "hosts.h"
#include "shquote.h"

static struct hosts hs;

TEST(parses_logins_labels_and_comments)
{
	const char *text =
		"# the fleet\n"
		"\n"
		"   \t\n"
		"@vm8/root@10.0.0.2\n"
		"  # an indented comment\n"
		"@big-box/4/ssh -p 2222 bench@host.example\n"
		"10.0.0.3:2200\n"
		"ssh me@[fe80::1]\n"
		"@v6/[::1]:22   \n";

	capture();
	CHECK_INT(hosts_parse("hosts.txt", text, &hs), 0);
	CHECK_STR(diags(), "");
	CHECK_INT(hs.nr, 5);
	CHECK_STR(hs.h[0].label, "vm8");
	CHECK_STR(hs.h[0].user, "root");
	CHECK_STR(hs.h[0].name, "10.0.0.2");
	CHECK_INT(hs.h[0].port, 0);
	CHECK_INT(hs.h[0].line, 4);
	CHECK_STR(hs.h[1].label, "big-box");
	CHECK_STR(hs.h[1].user, "bench");
	CHECK_STR(hs.h[1].name, "host.example");
	CHECK_INT(hs.h[1].port, 2222);
	CHECK_INT(hs.h[1].ncpus, 4);
	CHECK_INT(hs.h[1].line, 6);
	/* no label: the host names it */
	CHECK_STR(hs.h[2].label, "10.0.0.3");
	CHECK_STR(hs.h[2].user, "");
	CHECK_INT(hs.h[2].port, 2200);
	CHECK_STR(hs.h[3].name, "fe80::1");
	CHECK_STR(hs.h[3].user, "me");
	CHECK_STR(hs.h[4].label, "v6");
	CHECK_STR(hs.h[4].name, "::1");
	CHECK_INT(hs.h[4].port, 22);
}

/* One bad line: its diagnostic in full, and -EINVAL. */
static const char *bad(const char *text)
{
	capture();
	if (hosts_parse("h", text, &hs) != -EINVAL)
		return "(accepted)";
	return diags();
}

TEST(refuses_what_a_shell_or_ssh_would_read)
{
	CHECK_STR(bad("ssh -o ProxyCommand=x root@h\n"),
		  "h:1:5: error: an ssh command other than 'ssh' or 'ssh -p PORT': give ssh "
		  "options in a file for --ssh-config\n");
	CHECK_STR(bad("root@h;reboot\n"), "h:1:7: error: unexpected character in the login\n");
	CHECK_STR(bad("root@$(id)\n"), "h:1:6: error: host: missing\n");
	CHECK_STR(bad("-oProxyCommand=x\n"), "h:1:1: error: host: may not start with '-' or '.'\n");
	CHECK_STR(bad("-l@h\n"), "h:1:1: error: user: may not start with '-' or '.'\n");
	CHECK_STR(bad("r`x`@h\n"), "h:1:2: error: user: only letters, digits, '.', '_' and '-'\n");
	CHECK_STR(bad("me:secret@h\n"),
		  "h:1:3: error: a password in the login: ssh runs with BatchMode, use a key\n");
	CHECK_STR(bad("cat x|ssh h\n"),
		  "h:1:1: error: an ssh command other than 'ssh' or 'ssh -p PORT': give ssh "
		  "options in a file for --ssh-config\n");
}

TEST(refuses_bad_labels_ports_and_duplicates)
{
	CHECK_STR(bad("@../h\n"), "h:1:2: error: label: may not start with '-' or '.'\n");
	CHECK_STR(bad("@a+b/h\n"),
		  "h:1:3: error: one label per host (parallel's '@a+b/' groups are not labels)\n");
	CHECK_STR(bad("@a h\n"), "h:1:3: error: expected '/' after @LABEL\n");
	CHECK_STR(bad("h:0\n"), "h:1:3: error: port: expected a number from 1 to 65535\n");
	CHECK_STR(bad("h:65536\n"), "h:1:3: error: port: expected a number from 1 to 65535\n");
	CHECK_STR(bad("ssh -p 22 h:22\n"), "h:1:12: error: a port twice: 'ssh -p PORT' and ':PORT'\n");
	CHECK_STR(bad("[fe80::1\n"), "h:1:9: error: expected an IPv6 address and ']'\n");
	CHECK_STR(bad("@a/h1\n\n# x\n@a/h2\n"),
		  "h:4:1: error: label 'a' already names the host of line 1 (give each host its own "
		  "@LABEL/)\n");
	/* every bad line is reported, not only the first */
	CHECK_STR(bad("h;1\nok\nh;3\n"), "h:1:2: error: unexpected character in the login\n"
					 "h:3:2: error: unexpected character in the login\n");
}

/* One bad text of len bytes (which may hold a NUL): its diagnostics, and -EINVAL. */
static const char *bad_len(const char *text, size_t len)
{
	capture();
	if (hosts_parse_len("h", text, len, &hs) != -EINVAL)
		return "(accepted)";
	return diags();
}

/*
 * A NUL no longer ends the file unsaid (the hosts after it were dropped), an ESC is no
 * "host: missing", and a byte order mark is no part of the first login (issue 34 R8, N16).
 */
TEST(control_characters_named_a_bom_skipped)
{
	static const char nul[] = "a\n@b/h\0x\nc\n";

	CHECK_STR(bad_len(nul, sizeof(nul) - 1), "h:2:5: error: a NUL byte: a host file is text\n");
	CHECK_STR(bad("a\n\033[31mb\n"),
		  "h:2:1: error: a control character (0x1b, ESC): a host file is text\n");
	CHECK_STR(bad("root@h\007x\n"),
		  "h:1:7: error: a control character (0x07): a host file is text\n");
	/* in a comment, as parallel reads one: nothing */
	capture();
	CHECK_INT(hosts_parse_len("h", "# \0 \033\nb\n", 8, &hs), 0);
	CHECK_INT(hs.nr, 1);
	CHECK_STR(hs.h[0].name, "b");
	CHECK_INT(hosts_parse("h", "\xef\xbb\xbf@a/root@h1\nh2\n", &hs), 0);
	CHECK_STR(diags(), "");
	CHECK_INT(hs.nr, 2);
	CHECK_STR(hs.h[0].label, "a");
	CHECK_STR(hs.h[0].user, "root");
	CHECK_INT(hs.h[1].line, 2);
}

TEST(a_file_without_hosts_is_an_error)
{
	CHECK_STR(bad("# only comments\n\n"),
		  "bpfsweep: error: h: no host (one ssh login per line, e.g. @box1/root@10.0.0.2)\n");
	CHECK_STR(bad(""),
		  "bpfsweep: error: h: no host (one ssh login per line, e.g. @box1/root@10.0.0.2)\n");
}

/* What sh -c 'printf "<%s>" LINE' prints: the words a POSIX shell reads from line. */
static const char *through_sh_line(const char *line)
{
	static char out[4096];
	char cmd[4200];
	FILE *p;
	size_t n;

	snprintf(cmd, sizeof(cmd), "printf '<%%s>' %s", line);
	p = popen(cmd, "r");
	if (!p)
		return "(popen)";
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	pclose(p);
	return out;
}

/* The same for the quoted argv. */
static const char *through_sh(const char *const *argv)
{
	char line[2048];

	if (shquote_argv(argv, line, sizeof(line)))
		return "(too long)";
	return through_sh_line(line);
}

TEST(quoted_words_reach_the_shell_unchanged)
{
	const char *const argv[] = { "a b", "it's", "$(id)", "`x`;rm", "\"q\"", "*", "", "\\n",
				     NULL };
	const char *const one[] = { "'", NULL };
	char small[4];

	CHECK_STR(through_sh(argv), "<a b><it's><$(id)><`x`;rm><\"q\"><*><><\\n>");
	CHECK_STR(through_sh(one), "<'>");
	CHECK_INT(shquote("abc", small, sizeof(small)), -ENAMETOOLONG);
}

/* meta's command line: plain words bare, others quoted; a long line cut visibly. */
TEST(command_line_for_people)
{
	const char *const argv[] = { "./bpfsweep", "run", "x.spec", "--set", "title=a b", "-o",
				     "r/1", "$(id)", "it's" };
	char line[128], small[28];

	CHECK_INT(shquote_line(argv, 9, line, sizeof(line)), 0);
	CHECK_STR(line, "./bpfsweep run x.spec --set 'title=a b' -o r/1 '$(id)' 'it'\\''s'");
	CHECK_STR(through_sh_line(line), "<./bpfsweep><run><x.spec><--set><title=a b><-o><r/1>"
		  "<$(id)><it's>");
	CHECK_INT(shquote_line(argv, 9, small, sizeof(small)), -ENAMETOOLONG);
	CHECK_STR(small, "./bpfsweep run x.spec ...");
}

RUN_TESTS(parses_logins_labels_and_comments, refuses_what_a_shell_or_ssh_would_read,
	  refuses_bad_labels_ports_and_duplicates, control_characters_named_a_bom_skipped,
	  a_file_without_hosts_is_an_error,
	  quoted_words_reach_the_shell_unchanged, command_line_for_people)
