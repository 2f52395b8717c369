// SPDX-License-Identifier: GPL-2.0
/* Which command takes which option, and what its help says: see cliopt.h. */
#include <string.h>

#include "cliopt.h"
#include "diag.h"

#define C(cmd) (1u << CMD_##cmd)
#define SPEC_CMDS (C(RUN) | C(CHECK) | C(EXPAND))	/* SPEC or WORKLOAD: the bench's options */
#define DRAW_CMDS (C(RUN) | C(REPORT) | C(MERGE) | C(FLEET))	/* a table and charts */
/* compare lists its --help last, as it always has, and takes no --version */
#define ALL_CMDS (((1u << NR_CLI_CMDS) - 1) & ~C(COMPARE))
/* Whose options end at the first operand: vm's COMMAND keeps its own options. */
#define STOP_AT_OPERAND C(VM)

const char *const cli_cmd_names[NR_CLI_CMDS] = {
	[CMD_RUN] = "run", [CMD_CHECK] = "check", [CMD_EXPAND] = "expand", [CMD_LIST] = "list",
	[CMD_REPORT] = "report", [CMD_MERGE] = "merge", [CMD_IMPORT] = "import",
	[CMD_FLEET] = "fleet", [CMD_SYSTEM] = "system", [CMD_VM] = "vm",
	[CMD_BISECT] = "bisect",
	[CMD_COMPARE] = "compare",
};

/*
 * In the order --help lists them.  An option whose meaning differs
 * between commands has a row per meaning; a command has at most one row
 * of each name and letter (tests/unit/test_cliopt.c).
 */
const struct cli_option cli_options[] = {
	{ .name = "set", .val = 's', .has_arg = required_argument,
	  .cmds = SPEC_CMDS | C(REPORT) | C(MERGE) | C(FLEET) | C(BISECT),
	  .help = "  -s, --set KEY=VALUE  override a spec value (repeatable)\n" },
	/* vm's, listed before --help as its help always did */
	{ .name = "set", .val = 's', .has_arg = required_argument, .cmds = C(VM),
	  .help = "  -s, --set KEY=VALUE  vm_accel, vm_cpus, vm_mem, vm_boot_timeout, vm_ssh_port\n"
		  "                       as in a spec\n" },
	{ .name = "output", .val = 'o', .has_arg = required_argument, .cmds = C(VM),
	  .help = "  -o, --output DIR     keep the console log here (a new directory)\n" },
	{ .name = "probe-accel", .val = OPT_PROBE_ACCEL, .has_arg = no_argument, .cmds = C(VM),
	  .help = "      --probe-accel    print what runs a VM here: kvm, or tcg (and why not "
		  "kvm)\n" },
	{ .name = "quick", .val = 'q', .has_arg = no_argument,
	  .cmds = SPEC_CMDS | C(FLEET) | C(BISECT),
	  .help =
	  "  -q, --quick          short warmup/duration/interval, one repetition (smoke run)\n" },
	{ .name = "help", .val = 'h', .has_arg = no_argument, .cmds = ALL_CMDS,
	  .help = "  -h, --help           this help\n" },
	{ .name = "version", .val = 'V', .has_arg = no_argument, .cmds = ALL_CMDS & ~C(VM),
	  .help = "  -V, --version        print the version\n" },
	/* the kernel bench's options, as the --set they stand for */
	{ .name = "warmup", .val = 'w', .has_arg = required_argument, .cmds = SPEC_CMDS,
	  .help =
	  "  -w, --warmup S       warmup in seconds, or a duration: 250ms (--set warmup=Ss)\n" },
	{ .name = "duration", .val = 'd', .has_arg = required_argument, .cmds = SPEC_CMDS,
	  .help = "  -d, --duration S     measured time per repetition (--set duration=Ss)\n" },
	{ .name = "producers", .val = 'p', .has_arg = required_argument, .cmds = SPEC_CMDS,
	  .help = "  -p, --producers N    producers, or several: 1..8*2 (--set producers=N)\n" },
	{ .name = "consumers", .val = 'c', .has_arg = required_argument, .cmds = SPEC_CMDS,
	  .help =
	  "  -c, --consumers N    consumers, where the workload has them (--set consumers=N)\n" },
	{ .name = "affinity", .val = 'a', .has_arg = no_argument, .cmds = SPEC_CMDS,
	  .help = "  -a, --affinity       pin threads to CPUs (--set affinity=on)\n" },
	{ .name = "profile", .val = OPT_PROFILE, .has_arg = no_argument, .cmds = SPEC_CMDS,
	  .help = "      --profile        a kernel profile of every point (--set profile=on; "
		  "docs/profile.md)\n" },
	{ .name = "save-spec", .val = OPT_SAVE_SPEC, .has_arg = required_argument,
	  .cmds = SPEC_CMDS,
	  .help = "      --save-spec FILE write the spec as run, options applied, to FILE\n" },
	{ .name = "kernel", .val = OPT_KERNEL, .has_arg = required_argument, .cmds = SPEC_CMDS,
	  .help =
	  "      --kernel K       run on kernel K: host, an image or a build tree, booted in\n"
	  "                       a VM (repeatable: the kernel becomes an axis; "
	  "docs/kernel.md)\n" },
	{ .name = "kernel", .val = OPT_KERNEL, .has_arg = required_argument, .cmds = C(BISECT),
	  .help =
	  "      --kernel IMAGE   the kernels to bisect, oldest first (repeatable), instead of\n"
	  "                       Debian's versions from --good to --bad\n" },
	{ .name = "good", .val = OPT_GOOD, .has_arg = required_argument, .cmds = C(BISECT),
	  .help =
	  "      --good K         the good end: a Debian version (6.12) or release; with --step\n"
	  "                       the result directory of the good kernel's run\n" },
	{ .name = "bad", .val = OPT_BAD, .has_arg = required_argument, .cmds = C(BISECT),
	  .help = "      --bad K          the bad end, as --good\n" },
	{ .name = "old", .val = OPT_OLD, .has_arg = required_argument, .cmds = C(BISECT),
	  .help = "      --old K          --good, for a change that is no regression (when did X "
		  "appear)\n" },
	{ .name = "new", .val = OPT_NEW, .has_arg = required_argument, .cmds = C(BISECT),
	  .help = "      --new K          --bad, with --old\n" },
	{ .name = "step", .val = OPT_STEP, .has_arg = required_argument, .cmds = C(BISECT),
	  .help =
	  "      --step IMAGE     git bisect run's predicate: run IMAGE, judge it against --good\n"
	  "                       and --bad DIR; exit 0 good, 1 bad, 125 skip, 128 stop (an\n"
	  "                       error, a usage error too: git bisect run then stops)\n" },
	{ .name = "allow-tcg", .val = OPT_ALLOW_TCG, .has_arg = no_argument, .cmds = C(BISECT),
	  .help =
	  "      --allow-tcg      bisect a timed metric under plain TCG (the emulator's time)\n" },
	{ .name = "hosts", .val = OPT_HOSTS, .has_arg = required_argument, .cmds = C(FLEET),
	  .help = "      --hosts FILE     the hosts: one ssh login per line (GNU parallel's "
	          "--sshloginfile\n"
	          "                       format), @LABEL/ names a host (docs/fleet.md)\n" },
	{ .name = "ssh-config", .val = OPT_SSH_CONFIG, .has_arg = required_argument,
	  .cmds = C(FLEET),
	  .help =
	  "      --ssh-config FILE  ssh -F FILE for every ssh and scp (keys, known_hosts)\n" },
	{ .name = "engine", .val = OPT_ENGINE, .has_arg = required_argument, .cmds = C(FLEET),
	  .help =
	  "      --engine E       ssh (default: --hosts FILE of logins) or slurm (FILE: a\n"
	  "                       machine per line, or the options below; docs/fleet.md)\n" },
	{ .name = "partition", .val = OPT_PARTITION, .has_arg = required_argument,
	  .cmds = C(FLEET),
	  .help = "      --partition P    --engine slurm: the partition to allocate in\n" },
	{ .name = "constraint", .val = OPT_CONSTRAINT, .has_arg = required_argument,
	  .cmds = C(FLEET),
	  .help = "      --constraint F   --engine slurm: node features, e.g. EPYC_9654\n" },
	{ .name = "nodelist", .val = OPT_NODELIST, .has_arg = required_argument,
	  .cmds = C(FLEET),
	  .help = "      --nodelist N     --engine slurm: the node(s) to choose from\n" },
	{ .name = "time-limit", .val = OPT_TIME_LIMIT, .has_arg = required_argument,
	  .cmds = C(FLEET),
	  .help = "      --time-limit T   --engine slurm: each allocation's limit (minutes or\n"
	          "                       [D-]H:M:S; default the run's timeout)\n" },
	{ .name = "output", .val = 'o', .has_arg = required_argument, .cmds = C(RUN),
	  .help = "  -o, --output DIR     result directory "
	          "(default results/<spec|workload>/<YYYYmmdd-HHMMSS>)\n" },
	{ .name = "output", .val = 'o', .has_arg = required_argument, .cmds = C(REPORT) | C(MERGE),
	  .help =
	  "  -o, --output OUT     write to the new directory OUT (several DIRs: required)\n" },
	{ .name = "output", .val = 'o', .has_arg = required_argument, .cmds = C(IMPORT),
	  .help = "  -o, --output DIR     result directory to create (required)\n" },
	{ .name = "output", .val = 'o', .has_arg = required_argument, .cmds = C(FLEET),
	  .help = "  -o, --output DIR     result directory "
	          "(default results/<spec>/<YYYYmmdd-HHMMSS>-fleet)\n" },
	{ .name = "output", .val = 'o', .has_arg = required_argument, .cmds = C(BISECT),
	  .help = "  -o, --output OUT     the bisect's directory "
	          "(default results/<spec>/<YYYYmmdd-HHMMSS>-bisect)\n" },
	{ .name = "tag", .val = 't', .has_arg = required_argument, .cmds = C(RUN) | C(FLEET),
	  .help =
	  "  -t, --tag KEY=VALUE  label the result set, e.g. --tag kernel=patched (repeatable)\n" },
	{ .name = "tag", .val = 't', .has_arg = required_argument, .cmds = C(IMPORT),
	  .help =
	  "  -t, --tag KEY=VALUE  the machine: host, arch, cpu_model, kernel_release, ...\n" },
	{ .name = "label", .val = OPT_LABEL, .has_arg = required_argument, .cmds = C(IMPORT),
	  .help =
	  "      --label TEMPLATE parameters from row labels: 'rb-libbpf nr_prod {producers}'\n" },
	{ .name = "resume", .val = OPT_RESUME, .has_arg = required_argument, .cmds = C(RUN),
	  .help =
	  "      --resume DIR     continue an interrupted run in DIR: same SPEC and options,\n"
	  "                       only the points without a finished row\n" },
	{ .name = "resume", .val = OPT_RESUME, .has_arg = required_argument, .cmds = C(BISECT),
	  .help =
	  "      --resume OUT     continue the bisect in OUT: its finished steps are reused\n" },
	{ .name = "only", .val = OPT_ONLY, .has_arg = required_argument,
	  .cmds = C(RUN) | C(FLEET) | C(BISECT),
	  .help = "      --only TITLE     run only the [params] block with this title\n" },
	{ .name = "only", .val = OPT_ONLY, .has_arg = required_argument,
	  .cmds = C(CHECK) | C(EXPAND),
	  .help = "      --only TITLE     only the [params] block with this title\n" },
	{ .name = "quiet-warning", .val = OPT_QUIET_WARNING, .has_arg = required_argument,
	  .cmds = C(RUN) | C(FLEET),
	  .help =
	  "      --quiet-warning NAME  do not print the system check's warning NAME, the\n"
	  "                       name its text ends with (repeatable; meta keeps it)\n" },
	{ .name = "shard", .val = OPT_SHARD, .has_arg = required_argument, .cmds = C(RUN),
	  .help =
	  "      --shard I/N      run only shard I of N: every N-th point, from the I-th\n"
	  "                       (N machines share a spec; merge puts it together)\n" },
	{ .name = "shard", .val = OPT_SHARD_HOSTS, .has_arg = no_argument, .cmds = C(FLEET),
	  .help =
	  "      --shard          host k of the n hosts runs --shard k/n; hosts whose CPU\n"
	  "                       model, CPU count or kernel differ are refused\n" },
	{ .name = "shard-mixed", .val = OPT_SHARD_MIXED, .has_arg = no_argument, .cmds = C(FLEET),
	  .help =
	  "      --shard-mixed    with --shard: go on on hosts that differ (recorded in meta)\n" },
	{ .name = "resume", .val = OPT_RESUME, .has_arg = required_argument, .cmds = C(FLEET),
	  .help =
	  "      --resume OUT     continue the fleet in OUT (interrupted, hosts failed): same\n"
	  "                       SPEC and options; --hosts FILE only if a host moved\n" },
	{ .name = "spec", .val = OPT_SPEC, .has_arg = required_argument,
	  .cmds = C(REPORT) | C(MERGE),
	  .help = "      --spec FILE      draw with this spec (edited labels, charts) "
	          "instead of DIR/spec\n" },
	{ .name = "by", .val = OPT_BY, .has_arg = required_argument, .cmds = C(REPORT) | C(MERGE),
	  .help =
	  "      --by FACT        name each run by host, arch, cpu_model, kernel_release,\n"
	  "                       kernel, executor, accel or tag:NAME, or several: arch,cpu_model\n"
	  "                       (default: the fewest that tell the runs apart, arch and\n"
	  "                       cpu_model for machines)\n" },
	{ .name = "by", .val = OPT_BY, .has_arg = required_argument, .cmds = C(FLEET),
	  .help = "      --by FACT        name each host's runs as report does "
	          "(default tag:fleet_host)\n" },
	{ .name = "by", .val = OPT_BY, .has_arg = required_argument, .cmds = C(RUN),
	  .help =
	  "      --by FACT        a sweep over kernels: name each kernel's table block and\n"
	  "                       series as report does (default kernel_release)\n" },
	{ .name = "normalize", .val = OPT_NORMALIZE, .has_arg = required_argument,
	  .cmds = C(REPORT) | C(MERGE),
	  .help =
	  "      --normalize first  charts relative to each series' first point (scaling)\n" },
	{ .name = "per", .val = OPT_PER, .has_arg = required_argument, .cmds = C(REPORT) | C(MERGE),
	  .help =
	  "      --per PARAM      charts per unit of PARAM, e.g. per producer (efficiency)\n" },
	{ .name = "profile", .val = OPT_PROFILE, .has_arg = no_argument, .cmds = C(REPORT),
	  .help = "      --profile        each point's top kernel symbols under its row, where\n"
		  "                       the run has profiles (docs/profile.md)\n" },
	{ .name = "no-plots", .val = OPT_NO_PLOTS, .has_arg = no_argument, .cmds = DRAW_CMDS,
	  .help = "      --no-plots       do not render charts\n" },
	{ .name = "html", .val = OPT_HTML, .has_arg = no_argument, .cmds = C(REPORT),
	  .help =
	  "      --html           write DIR's page as one HTML file: DIR/report.html, or -o FILE\n"
	  "                       (docs/html.md)\n" },
	{ .name = "no-html", .val = OPT_NO_HTML, .has_arg = no_argument, .cmds = C(RUN) | C(FLEET),
	  .help = "      --no-html        no report.html beside table.txt (--no-plots: none either)\n" },
	{ .name = "plot-timeout", .val = OPT_PLOT_TIMEOUT, .has_arg = required_argument,
	  .cmds = DRAW_CMDS,
	  .help =
	  "      --plot-timeout S kill a gnuplot still drawing after S seconds (default 60)\n" },
	{ .name = "format", .val = 'f', .has_arg = required_argument, .cmds = DRAW_CMDS,
	  .help =
	  "  -f, --format F       the table printed: text (default), markdown, csv or json\n"
	  "                       (table.txt stays text; docs/formats.md)\n" },
	/* compare's, in the order its --help has always listed them */
	{ .name = "alpha", .val = 'a', .has_arg = required_argument, .cmds = C(COMPARE),
	  .help =
	  "  -a, --alpha A        error rate of the test and the interval (default 0.05)\n" },
	{ .name = "decide", .val = OPT_DECIDE, .has_arg = required_argument, .cmds = C(COMPARE),
	  .help =
	  "      --decide PCT     \"same\" when the interval rules out changes beyond\n"
	  "                       ±PCT percent (default 2)\n" },
	{ .name = "metrics", .val = 'e', .has_arg = required_argument, .cmds = C(COMPARE),
	  .help =
	  "  -e, --metrics LIST   print these metrics (comma-separated, repeatable), even\n"
	  "                       where a side did not record them; default: every\n"
	  "                       metric both sides recorded\n" },
	{ .name = "format", .val = 'f', .has_arg = required_argument, .cmds = C(COMPARE),
	  .help = "  -f, --format F       text (default), markdown, csv or json\n" },
	{ .name = "html", .val = OPT_HTML, .has_arg = no_argument, .cmds = C(COMPARE),
	  .help =
	  "      --html           one static HTML page on stdout, regressions first\n"
	  "                       (docs/html.md)\n" },
	{ .name = "fail-above", .val = OPT_FAIL_ABOVE, .has_arg = required_argument,
	  .cmds = C(COMPARE),
	  .help =
	  "      --fail-above PCT exit 1 when the headline metric of a point got\n"
	  "                       significantly worse by more than PCT percent, 3 when\n"
	  "                       none did but a point was untested, flagged, or its\n"
	  "                       interval does not rule out such a regression\n" },
	{ .name = "ignore", .val = 'i', .has_arg = required_argument, .cmds = C(COMPARE),
	  .help = "  -i, --ignore PARAM   match points without this parameter (repeatable)\n" },
	{ .name = "paired", .val = OPT_PAIRED, .has_arg = no_argument, .cmds = C(COMPARE),
	  .help =
	  "      --paired         the directories are rounds run interleaved, BASE NEW\n"
	  "                       BASE NEW ...: per point NEW / BASE, the geometric\n"
	  "                       mean of the rounds' ratios, and its decision (text\n"
	  "                       or csv)\n" },
	{ .name = "profile", .val = OPT_PROFILE, .has_arg = no_argument, .cmds = C(COMPARE),
	  .help =
	  "      --profile        per point, the kernel symbols whose share of its profile\n"
	  "                       moved most (sets run with profile = on; text)\n" },
	{ .name = "all-programs", .val = OPT_ALL_PROGRAMS, .has_arg = no_argument,
	  .cmds = C(COMPARE), .help =
	  "      --all-programs   list every program of programs.csv in text and markdown,\n"
	  "                       not only those whose figures differ\n" },
	{ .name = "allow-tcg", .val = OPT_ALLOW_TCG, .has_arg = no_argument, .cmds = C(COMPARE),
	  .help =
	  "      --allow-tcg      compare a set run in a VM under TCG emulation with one\n"
	  "                       that was not (refused otherwise: TCG numbers are for\n"
	  "                       function, not performance), and a TCG icount set\n"
	  "                       (instruction time) with a timed one\n" },
	{ .name = "help", .val = 'h', .has_arg = no_argument, .cmds = C(COMPARE),
	  .help = "  -h, --help           this help\n" },
	/*
	 * a sub-run's (orchestrator.c, subrun.c): not for people; what it is
	 * for (guest-of, guest-accel, fail-all) is in the file, never a word
	 */
	{ .name = "subrun", .val = OPT_SUBRUN, .has_arg = required_argument, .cmds = C(RUN),
	  .help = NULL },
};

const int nr_cli_options = sizeof(cli_options) / sizeof(cli_options[0]);

_Static_assert(sizeof(cli_options) / sizeof(cli_options[0]) <= CLI_MAX_OPTIONS,
	       "struct cli_getopt holds at most CLI_MAX_OPTIONS options");

static bool takes(const struct cli_option *o, enum cli_cmd c)
{
	return o->cmds & 1u << c;
}

void cliopt_getopt(enum cli_cmd c, struct cli_getopt *g)
{
	char *s = g->shortopts;
	int n = 0;

	if (STOP_AT_OPERAND & 1u << c)
		*s++ = '+';
	*s++ = ':';
	for (int i = 0; i < nr_cli_options; i++) {
		const struct cli_option *o = &cli_options[i];

		if (!takes(o, c))
			continue;
		g->longopts[n++] = (struct option){ o->name, o->has_arg, NULL, o->val };
		if (o->val >= 256)
			continue;
		*s++ = (char)o->val;
		if (o->has_arg == required_argument)
			*s++ = ':';
	}
	*s = '\0';
	g->longopts[n] = (struct option){ 0 };
}

void cliopt_help(FILE *f, enum cli_cmd c)
{
	for (int i = 0; i < nr_cli_options; i++)
		if (takes(&cli_options[i], c) && cli_options[i].help)
			fputs(cli_options[i].help, f);
}

/* The option name[0..len) names: of that name, else the only name it abbreviates. */
static const struct cli_option *find_long(const char *name, size_t len)
{
	const struct cli_option *found = NULL;
	bool ambiguous = false;

	for (int i = 0; i < nr_cli_options; i++) {
		const struct cli_option *o = &cli_options[i];

		if (strncmp(o->name, name, len))
			continue;
		if (strlen(o->name) == len)
			return o;
		if (found && strcmp(found->name, o->name))
			ambiguous = true;
		found = o;
	}
	return ambiguous ? NULL : found;
}

static const struct cli_option *find_letter(int letter)
{
	for (int i = 0; i < nr_cli_options; i++)
		if (cli_options[i].val == letter)
			return &cli_options[i];
	return NULL;
}

/* The word getopt rejected, as opt_error() reads it: a long option's name, or a letter. */
static const struct cli_option *rejected(char *const *argv)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";

	if (!strncmp(arg, "--", 2) && arg[2] && (!optopt || strchr(arg, '=')))
		return optopt ? NULL : find_long(arg + 2, strcspn(arg + 2, "="));
	return optopt < 256 && optopt > 0 ? find_letter(optopt) : NULL;
}

/* "run, check and expand" */
static void cmd_list(unsigned int cmds, char *buf, size_t len)
{
	size_t off = 0;
	int left = __builtin_popcount(cmds);

	buf[0] = '\0';
	for (int c = 0; c < NR_CLI_CMDS && off < len; c++) {
		if (!(cmds & 1u << c))
			continue;
		left--;
		off += snprintf(buf + off, len - off, "%s%s", cli_cmd_names[c],
				left > 1 ? ", " : left ? " and " : "");
	}
}

bool cliopt_misplaced(enum cli_cmd c, int opt, char *const *argv)
{
	const struct cli_option *o = opt == '?' ? rejected(argv) : NULL;
	unsigned int cmds = 0;
	char list[128];

	if (!o)
		return false;
	/* the union over its rows: "--by" is report's, merge's, fleet's and run's */
	for (int i = 0; i < nr_cli_options; i++)
		if (!strcmp(cli_options[i].name, o->name))
			cmds |= cli_options[i].cmds;
	if (cmds & 1u << c)
		return false;
	cmd_list(cmds, list, sizeof(list));
	if (o->val < 256)
		diag_err("-%c/--%s applies to %s, not to %s", o->val, o->name, list,
			 cli_cmd_names[c]);
	else
		diag_err("--%s applies to %s, not to %s", o->name, list, cli_cmd_names[c]);
	return true;
}
