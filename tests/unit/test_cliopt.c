// SPDX-License-Identifier: GPL-2.0
/*
 * cliopt.c: the one table of which command takes which option.  Each
 * row's help item names its own option, and a value exactly when it takes
 * one; a command has one row per name and letter, and a letter means one
 * option everywhere; a command's getopt table is what its help lists; an
 * option of other commands is refused naming them.  tests/cli/options.sh
 * holds the binary and the bash completion to the same table.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cliopt.h"
#include "diag_capture.h"

/* "  -o, --output DIR ..." or "      --hosts FILE ...": the head of row o's item. */
static void item_head(const struct cli_option *o, char *buf, size_t len)
{
	if (o->val < 256)
		snprintf(buf, len, "  -%c, --%s", o->val, o->name);
	else
		snprintf(buf, len, "      --%s", o->name);
}

TEST(help_item_names_its_option_and_value)
{
	char head[64];

	for (int i = 0; i < nr_cli_options; i++) {
		const struct cli_option *o = &cli_options[i];
		const char *rest;

		CHECK(o->cmds);
		if (!o->help)
			continue;
		item_head(o, head, sizeof(head));
		if (strncmp(o->help, head, strlen(head)))
			CHECK_STR(o->help, head);
		rest = o->help + strlen(head);
		/* a value: " DIR"; none: the description's column, two blanks on */
		if (o->has_arg == required_argument) {
			if (!(rest[0] == ' ' && rest[1] > ' ' && rest[1] != '-'))
				CHECK_STR(o->help, "an item with a value after the option");
		} else if (strncmp(rest, "  ", 2)) {
			CHECK_STR(o->help, "an item without a value after the option");
		}
		CHECK(o->help[strlen(o->help) - 1] == '\n');
	}
}

TEST(one_row_per_option_of_a_command)
{
	for (int i = 0; i < nr_cli_options; i++) {
		const struct cli_option *a = &cli_options[i];

		for (int j = i + 1; j < nr_cli_options; j++) {
			const struct cli_option *b = &cli_options[j];
			bool same_name = !strcmp(a->name, b->name);

			if ((same_name || a->val == b->val) && (a->cmds & b->cmds))
				CHECK_STR(b->name, "a name or letter once per command");
			/*
			 * "-p/--producers applies to ...": a letter is one option,
			 * but -a, the spec commands' --affinity and compare's
			 * --alpha since before compare's options joined the table
			 */
			if (a->val < 256 && a->val == b->val && a->val != 'a')
				CHECK_STR(b->name, a->name);
		}
	}
}

/* The long options command c's --help lists, as "|name|name|...|". */
static void help_names(enum cli_cmd c, char *buf, size_t len)
{
	char *text = NULL, *line, *save = NULL;
	size_t text_len, off = 1;
	FILE *f = open_memstream(&text, &text_len);

	cliopt_help(f, c);
	fclose(f);
	snprintf(buf, len, "|");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *name = strstr(line, "--");

		if (!strncmp(line, "  -", 3) || !strncmp(line, "      --", 8))
			off += snprintf(buf + off, len - off, "%.*s|", (int)strcspn(name + 2, " ,"),
					name + 2);
	}
	free(text);
}

TEST(getopt_table_is_what_the_help_lists)
{
	for (int c = 0; c < NR_CLI_CMDS; c++) {
		struct cli_getopt g;
		char listed[2048], want[2048];
		size_t off = 1;

		cliopt_getopt(c, &g);
		help_names(c, listed, sizeof(listed));
		snprintf(want, sizeof(want), "|");
		for (const struct option *lo = g.longopts; lo->name; lo++) {
			bool hidden = false;

			for (int i = 0; i < nr_cli_options; i++)
				if (cli_options[i].cmds & 1u << c && cli_options[i].val == lo->val)
					hidden = !cli_options[i].help;
			if (!hidden)
				off += snprintf(want + off, sizeof(want) - off, "%s|", lo->name);
			/* its letter, with ':' exactly when it takes a value */
			if (lo->val < 256) {
				const char *s = strchr(g.shortopts + 1, lo->val);

				CHECK(s);
				CHECK_INT(s[1] == ':', lo->has_arg == required_argument);
			}
		}
		CHECK_STR(listed, want);
		/* vm's options end at KERNEL ('+'): COMMAND's are COMMAND's */
		CHECK(g.shortopts[0] == (c == CMD_VM ? '+' : ':'));
		CHECK(g.shortopts[c == CMD_VM] == ':');
	}
	/* every command has --help */
	for (int c = 0; c < NR_CLI_CMDS; c++) {
		char listed[2048];

		help_names(c, listed, sizeof(listed));
		CHECK(strstr(listed, "|help|"));
	}
}

/* What cliopt_misplaced() says of argv (NULL-terminated) given to command c; "" for nothing. */
static const char *misplaced(enum cli_cmd c, char **argv)
{
	struct cli_getopt g;
	int argc = 0, opt;

	while (argv[argc])
		argc++;
	cliopt_getopt(c, &g);
	optind = 0;	/* glibc: start afresh */
	capture();
	while ((opt = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1)
		if (opt == '?' || opt == ':')
			return cliopt_misplaced(c, opt, argv) ? diags() : "";
	return "accepted";
}

#define ARGV(...) ((char *[]){ "bpfsweep", __VA_ARGS__, NULL })

TEST(other_commands_options_refused_naming_them)
{
	CHECK_STR(misplaced(CMD_REPORT, ARGV("--hosts", "h", "d")),
		  "bpfsweep: error: --hosts applies to fleet, not to report\n");
	CHECK_STR(misplaced(CMD_REPORT, ARGV("--hosts=h")),
		  "bpfsweep: error: --hosts applies to fleet, not to report\n");
	CHECK_STR(misplaced(CMD_REPORT, ARGV("-p", "3", "d")),
		  "bpfsweep: error: -p/--producers applies to run, check and expand, "
		  "not to report\n");
	CHECK_STR(misplaced(CMD_CHECK, ARGV("s", "--shard", "1/2")),
		  "bpfsweep: error: --shard applies to run and fleet, not to check\n");
	CHECK_STR(misplaced(CMD_IMPORT, ARGV("-o", "x", "--set", "a=1")),
		  "bpfsweep: error: -s/--set applies to run, check, expand, report, merge, "
		  "fleet, vm and bisect, not to import\n");
	/* an abbreviation of one option of another command names it */
	CHECK_STR(misplaced(CMD_MERGE, ARGV("--host", "h")),
		  "bpfsweep: error: --hosts applies to fleet, not to merge\n");
	/* compare's options are in the table too: refused by the others, and theirs by it */
	CHECK_STR(misplaced(CMD_COMPARE, ARGV("--shard", "1/2", "a", "b")),
		  "bpfsweep: error: --shard applies to run and fleet, not to compare\n");
	CHECK_STR(misplaced(CMD_RUN, ARGV("-e", "hits", "s")),
		  "bpfsweep: error: -e/--metrics applies to compare, not to run\n");
	CHECK_STR(misplaced(CMD_REPORT, ARGV("--fail-above", "5", "d")),
		  "bpfsweep: error: --fail-above applies to compare, not to report\n");
	/* a cluster: the letter rejected, not the word's first */
	CHECK_STR(misplaced(CMD_REPORT, ARGV("-Vq")),
		  "bpfsweep: error: -q/--quick applies to run, check, expand, fleet and "
		  "bisect, not to report\n");
}

TEST(own_and_unknown_options_left_to_opt_error)
{
	CHECK_STR(misplaced(CMD_FLEET, ARGV("--shard", "--shard-mixed", "--hosts", "h")),
		  "accepted");
	CHECK_STR(misplaced(CMD_RUN, ARGV("--shard", "1/2", "--by", "kernel", "--subrun", "f")),
		  "accepted");
	CHECK_STR(misplaced(CMD_CHECK, ARGV("--kernel", "host", "-aq", "-w", "1")), "accepted");
	CHECK_STR(misplaced(CMD_COMPARE, ARGV("-a", "0.01", "--decide", "5", "-i", "rate",
					      "--paired", "--allow-tcg", "-e", "hits", "a", "b")),
		  "accepted");
	CHECK_STR(misplaced(CMD_REPORT, ARGV("--bogus")), "");
	CHECK_STR(misplaced(CMD_REPORT, ARGV("-x")), "");
	/* its own option: a value it does not take, or none where it needs one */
	CHECK_STR(misplaced(CMD_CHECK, ARGV("--quick=1")), "");
	CHECK_STR(misplaced(CMD_CHECK, ARGV("--set")), "");
	/* ambiguous across the table (--shard, --shard-mixed): opt_error lists its own */
	CHECK_STR(misplaced(CMD_REPORT, ARGV("--sha")), "");
}

RUN_TESTS(help_item_names_its_option_and_value, one_row_per_option_of_a_command,
	  getopt_table_is_what_the_help_lists, other_commands_options_refused_naming_them,
	  own_and_unknown_options_left_to_opt_error)
