// SPDX-License-Identifier: GPL-2.0
/*
 * spec.c: INI text → sections of located entries, --set, and writing the
 * spec back.  Diagnostics are captured and compared in full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "diag.h"
#include "diag_capture.h"
#include "spec.h"

static const struct spec_section *section(const struct spec *s, int i)
{
	return i < s->nr_sections ? &s->sections[i] : NULL;
}

/* "file:line:col" of a location, for compact checks. */
static const char *where(const struct loc *l)
{
	static char buf[4][128];
	static int n;
	char *b = buf[n++ % 4];

	if (l->set)
		snprintf(b, sizeof(buf[0]), "%s #%d:%d:%d", l->file, l->set, l->line, l->col);
	else
		snprintf(b, sizeof(buf[0]), "%s:%d:%d", l->file, l->line, l->col);
	return b;
}

/* Parse text and write it back; NULL if it did not parse. */
static char *rewrite(const char *text)
{
	struct spec *s;
	char *out = NULL;
	size_t len;
	FILE *f;

	if (spec_parse_string("t.spec", text, &s))
		return NULL;
	f = open_memstream(&out, &len);
	spec_write(s, f);
	fclose(f);
	spec_free(s);
	return out;
}

TEST(parse_sections_and_entries)
{
	const char *text =
		"# a comment\n"
		"  ; another one\n"
		"\n"
		"[sweep]\n"
		"title    = Ringbuf, two producers   # why\n"
		"workload=null\n"
		"\t[params \"Big batches\"]  # trailing comment\n"
		"  producers = 1 2,3   8..52:4\n"
		"mode = a#b\n"
		"flag =\n"
		"plot = x vs hits\n"
		"plot = y vs hits\n";
	const struct spec_section *sec;
	const struct spec_entry *e;
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("specs/t.spec", text, &s), 0);
	CHECK_STR(diags() ? diags() : "", "");
	CHECK_STR(s->path, "specs/t.spec");
	CHECK_INT(s->nr_sections, 2);

	sec = section(s, 0);
	CHECK_STR(sec->name, "sweep");
	CHECK(sec->arg == NULL);
	CHECK_STR(where(&sec->loc), "specs/t.spec:4:1");
	CHECK_INT(sec->nr_entries, 2);
	e = &sec->entries[0];
	CHECK_STR(e->key, "title");
	CHECK_STR(e->value, "Ringbuf, two producers");
	CHECK_STR(where(&e->key_loc), "specs/t.spec:5:1");
	CHECK_STR(where(&e->val_loc), "specs/t.spec:5:12");
	e = &sec->entries[1];
	CHECK_STR(e->value, "null");
	CHECK_STR(where(&e->val_loc), "specs/t.spec:6:10");

	sec = section(s, 1);
	CHECK_STR(sec->name, "params");
	CHECK_STR(sec->arg, "Big batches");
	CHECK_STR(where(&sec->loc), "specs/t.spec:7:2");
	CHECK_INT(sec->nr_entries, 5);
	e = &sec->entries[0];
	CHECK_STR(e->value, "1 2,3   8..52:4");
	CHECK_STR(where(&e->key_loc), "specs/t.spec:8:3");
	CHECK_STR(where(&e->val_loc), "specs/t.spec:8:15");
	/* '#' ends a value only after a blank */
	CHECK_STR(sec->entries[1].value, "a#b");
	CHECK_STR(sec->entries[2].value, "");
	/* plot may repeat */
	CHECK_STR(sec->entries[3].value, "x vs hits");
	CHECK_STR(sec->entries[4].value, "y vs hits");
	spec_free(s);
}

TEST(parse_crlf_and_no_final_newline)
{
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("t.spec", "[sweep]\r\nrepeat = 3 \r\n\r\nwarmup = 1s", &s), 0);
	CHECK_INT(s->sections[0].nr_entries, 2);
	CHECK_STR(s->sections[0].entries[0].value, "3");
	CHECK_STR(s->sections[0].entries[1].value, "1s");
	CHECK_INT(s->sections[0].entries[1].key_loc.line, 4);
	spec_free(s);
}

TEST(parse_header_escapes)
{
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("t.spec", "[params \"say \\\"hi\\\" \\\\ a\\b ]\"]\n", &s), 0);
	CHECK_STR(s->sections[0].arg, "say \"hi\" \\ a\\b ]");
	spec_free(s);
}

TEST(parse_errors_all_reported)
{
	const char *text =
		"x = 1\n"			/* 1: outside any section */
		"[sweep\n"			/* 2 */
		" a = 1\n"			/* 3: dropped, after a bad header */
		"[ \"x\"]\n"			/* 4 */
		"[sweep \"a\n"			/* 5 */
		"[sweep] junk\n"		/* 6 */
		"[sweep] # fine\n"		/* 7 */
		"= 3\n"				/* 8 */
		"repeat 3\n"			/* 9 */
		"  ba!d = 3\n"			/* 10 */
		"warmup\n"			/* 11 */
		"!!!\n"				/* 12 */
		"repeat = 1\n"			/* 13 */
		"  repeat=2\n"			/* 14 */
		"[sw.eep]\n";			/* 15 */
	struct spec *s = (void *)1;

	capture();
	CHECK_INT(spec_parse_string("bad.spec", text, &s), -EINVAL);
	CHECK(s == NULL);
	CHECK_STR(diags(),
		  "bad.spec:1:1: error: key 'x' outside any section\n"
		  "bad.spec:2:7: error: expected ']'\n"
		  "bad.spec:4:3: error: expected section name\n"
		  "bad.spec:5:8: error: unterminated string in section header\n"
		  "bad.spec:6:9: error: unexpected text after ']'\n"
		  "bad.spec:8:1: error: empty key\n"
		  "bad.spec:9:8: error: expected '=' after key 'repeat'\n"
		  "bad.spec:10:5: error: invalid character '!' in key\n"
		  "bad.spec:11:7: error: expected '=' after key 'warmup'\n"
		  "bad.spec:12:1: error: invalid character '!' in key\n"
		  "bad.spec:14:3: error: duplicate key 'repeat' (first set at line 13)\n"
		  "bad.spec:15:4: error: expected ']'\n");
}

TEST(parse_duplicate_key_per_section)
{
	const char *text =
		"[sweep]\n"
		"repeat = 1\n"
		"[params]\n"
		"repeat = 2\n"		/* another section: fine */
		"[params]\n"
		"producers = 1\n"
		"\n"
		"producers = 2\n";
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("d.spec", text, &s), -EINVAL);
	CHECK_STR(diags(), "d.spec:8:1: error: duplicate key 'producers' (first set at line 6)\n");
}

TEST(parse_file)
{
	char path[] = "/tmp/test_spec_XXXXXX";
	int fd = mkstemp(path);
	struct spec *s;
	FILE *f;

	CHECK(fd >= 0);
	f = fdopen(fd, "w");
	fputs("[sweep]\nworkload = null\n", f);
	fclose(f);
	capture();
	CHECK_INT(spec_parse_file(path, &s), 0);
	unlink(path);
	CHECK_STR(s->path, path);
	CHECK_STR(s->sections[0].entries[0].value, "null");
	CHECK_STR(s->sections[0].entries[0].val_loc.file, path);
	spec_free(s);

	CHECK_INT(spec_parse_file("/nonexistent/x.spec", &s), -ENOENT);
	CHECK(s == NULL);
	CHECK_STR(diags(), "bpfsweep: error: /nonexistent/x.spec: No such file or directory\n");
}

TEST(set_sweep_key)
{
	struct spec *s;
	const struct spec_entry *e;

	capture();
	CHECK_INT(spec_parse_string("t.spec", "[params]\nx = 1\n[sweep]\nrepeat = 1\n", &s), 0);
	CHECK_INT(spec_set(s, "repeat=3"), 0);
	CHECK_INT(spec_set(s, "  warmup =  2s "), 0);
	CHECK_INT(s->nr_sections, 2);
	CHECK_INT(s->sections[1].nr_entries, 2);
	e = &s->sections[1].entries[0];
	CHECK_STR(e->value, "3");
	CHECK_STR(where(&e->key_loc), "--set #1:1:1");
	CHECK_STR(where(&e->val_loc), "--set #1:1:8");
	e = &s->sections[1].entries[1];
	CHECK_STR(e->key, "warmup");
	CHECK_STR(e->value, "2s");
	CHECK_STR(where(&e->key_loc), "--set #2:1:3");
	CHECK_STR(where(&e->val_loc), "--set #2:1:13");
	/* not a parameter: [params] is untouched */
	CHECK_INT(s->sections[0].nr_entries, 1);
	spec_free(s);
}

TEST(set_creates_sections)
{
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("t.spec", "", &s), 0);
	CHECK_INT(spec_set(s, "producers=4"), 0);
	CHECK_INT(spec_set(s, "workload=null"), 0);
	CHECK_INT(spec_set(s, "group=producers"), 0);
	CHECK_INT(s->nr_sections, 3);
	/* [sweep] goes first, where readers of the written spec look for it */
	CHECK_STR(s->sections[0].name, "sweep");
	CHECK_STR(s->sections[0].entries[0].value, "null");
	CHECK_STR(s->sections[1].name, "params");
	CHECK(s->sections[1].arg == NULL);
	CHECK_STR(s->sections[1].entries[0].key, "producers");
	/* made by the first --set */
	CHECK_STR(where(&s->sections[1].loc), "--set #1:1:1");
	CHECK_STR(s->sections[2].name, "report");
	CHECK_STR(s->sections[2].entries[0].value, "producers");
	spec_free(s);
}

TEST(set_param_in_every_experiment)
{
	const char *text =
		"[sweep]\n"
		"[params \"a\"]\n"
		"producers = 1 2\n"
		"[params \"b\"]\n"
		"mode = slow\n";
	const struct spec_section *a, *b;
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("t.spec", text, &s), 0);
	CHECK_INT(spec_set(s, "producers=8"), 0);
	a = &s->sections[1];
	b = &s->sections[2];
	CHECK_INT(a->nr_entries, 1);
	CHECK_STR(a->entries[0].value, "8");
	CHECK_STR(where(&a->entries[0].val_loc), "--set #1:1:11");
	CHECK_INT(b->nr_entries, 2);
	CHECK_STR(b->entries[0].key, "mode");
	CHECK_STR(b->entries[1].key, "producers");
	CHECK_STR(b->entries[1].value, "8");
	spec_free(s);
}

TEST(set_report_keys)
{
	const char *text =
		"[sweep]\n"
		"[report]\n"
		"plot = a vs hits\n"
		"label = x\n"
		"plot = b vs hits\n"
		"[params]\n"
		"plot = c vs hits\n"
		"producers = 1\n";
	const struct spec_section *rep, *par;
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("t.spec", text, &s), 0);
	CHECK_INT(spec_set(s, "plot=d vs drops"), 0);
	rep = &s->sections[1];
	par = &s->sections[2];
	/* plot replaces every plot, here and in the experiments */
	CHECK_INT(rep->nr_entries, 2);
	CHECK_STR(rep->entries[0].key, "label");
	CHECK_STR(rep->entries[1].key, "plot");
	CHECK_STR(rep->entries[1].value, "d vs drops");
	CHECK_INT(par->nr_entries, 1);
	CHECK_STR(par->entries[0].key, "producers");
	CHECK_INT(spec_set(s, "label=y {producers}"), 0);
	CHECK_INT(rep->nr_entries, 2);
	CHECK_STR(rep->entries[0].value, "y {producers}");
	spec_free(s);
}

TEST(set_errors)
{
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("t.spec", "[sweep]\n", &s), 0);
	CHECK_INT(spec_set(s, "producers"), -EINVAL);
	CHECK_INT(spec_set(s, "=4"), -EINVAL);
	CHECK_INT(spec_set(s, "prod ucers=4"), -EINVAL);
	CHECK_INT(spec_set(s, "pro.ducers=4"), -EINVAL);
	CHECK_INT(spec_set(s, ""), -EINVAL);
	CHECK_INT(spec_set(s, "title=a\nb"), -EINVAL);
	CHECK_INT(spec_set(s, "title=\033[2J\033[31mred"), -EINVAL);
	CHECK_INT(spec_set(s, "title=a\rb"), -EINVAL);
	CHECK_STR(diags(),
		  "--set #1:1:10: error: expected key=value\n"
		  "--set #2:1:1: error: empty key\n"
		  "--set #3:1:6: error: expected key=value\n"
		  "--set #4:1:4: error: invalid character '.' in key\n"
		  "--set #5:1:1: error: expected key=value\n"
		  "--set #6:1:8: error: newline in value\n"
		  "--set #7:1:7: error: control character '\\e' in value\n"
		  "--set #8:1:8: error: control character '\\r' in value\n");
	/* nothing was added */
	CHECK_INT(s->nr_sections, 1);
	CHECK_INT(s->sections[0].nr_entries, 0);
	spec_free(s);
}

TEST(write_format)
{
	const char *text =
		"# dropped\n"
		"[sweep]\n"
		"  title   =  A, \"quoted\"  # dropped\n"
		"[params \"x \\\"y\\\" \\\\\"]\n"
		"producers = 1,2  3\n"
		"flag=\n";
	char *out;

	capture();
	out = rewrite(text);
	CHECK(out != NULL);
	CHECK_STR(out,
		  "[sweep]\n"
		  "title = A, \"quoted\"\n"
		  "\n"
		  "[params \"x \\\"y\\\" \\\\\"]\n"
		  "producers = 1,2  3\n"
		  "flag =\n");
	free(out);
}

TEST(write_round_trip)
{
	const char *text =
		"[sweep]\n"
		"title = T\n"
		"workload = null\n"
		"[params \"a \\\"b\\\" \\\\ c\"]\n"
		"producers = 1..8*2 # doubling\n"
		"plot = producers vs hits\n"
		"plot = producers vs drops\n"
		"[params]\n"
		"mode = fast, slow\n"
		"[report]\n"
		"label = {mode} x#y\n";
	char *once, *twice;
	struct spec *s;
	FILE *f;
	size_t len;

	capture();
	CHECK_INT(spec_parse_string("t.spec", text, &s), 0);
	CHECK_INT(spec_set(s, "repeat=3"), 0);
	CHECK_INT(spec_set(s, "flag=on # set"), 0);
	f = open_memstream(&once, &len);
	CHECK_INT(spec_write(s, f), 0);
	fclose(f);
	spec_free(s);
	twice = rewrite(once);
	CHECK(twice != NULL);
	CHECK_STR(twice, once);
	CHECK_STR(once,
		  "[sweep]\n"
		  "title = T\n"
		  "workload = null\n"
		  "repeat = 3\n"
		  "\n"
		  "[params \"a \\\"b\\\" \\\\ c\"]\n"
		  "producers = 1..8*2\n"
		  "plot = producers vs hits\n"
		  "plot = producers vs drops\n"
		  "flag = on\n"
		  "\n"
		  "[params]\n"
		  "mode = fast, slow\n"
		  "flag = on\n"
		  "\n"
		  "[report]\n"
		  "label = {mode} x#y\n");
	free(once);
	free(twice);
}

/* Write len bytes of text to a new temporary file; its path into path. */
static int temp_file(char *path, const void *text, size_t len)
{
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
	size_t n;

	if (!f)
		return -1;
	n = fwrite(text, 1, len, f);
	return fclose(f) || n != len ? -1 : 0;
}

/* A spec is a regular text file of at most 1 MiB: anything else fails at once. */
TEST(parse_file_not_a_spec)
{
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_file("/tmp", &s), -EISDIR);
	CHECK(s == NULL);
	/* /dev/zero was read until memory ran out */
	CHECK_INT(spec_parse_file("/dev/zero", &s), -EINVAL);
	CHECK_STR(diags(), "bpfsweep: error: /tmp: is a directory\n"
		  "bpfsweep: error: /dev/zero: not a regular file\n");
}

TEST(parse_file_too_large)
{
	char path[] = "/tmp/test_spec_XXXXXX";
	size_t len = (1 << 20) + 1;
	char *text = malloc(len);
	struct spec *s;
	int ret;

	CHECK(text != NULL);
	memset(text, '#', len);
	ret = temp_file(path, text, len);
	free(text);
	CHECK_INT(ret, 0);
	capture();
	ret = spec_parse_file(path, &s);
	unlink(path);
	CHECK_INT(ret, -EFBIG);
	CHECK(strstr(diags(), ": larger than 1 MiB, the most a text file may be\n") != NULL);
	/* 1 MiB exactly is still a spec */
	CHECK_INT(temp_file(strcpy(path, "/tmp/test_spec_XXXXXX"), "", 0), 0);
	CHECK_INT(truncate(path, 1 << 20), 0);
	ret = spec_parse_file(path, &s);
	unlink(path);
	CHECK_INT(ret, -EINVAL);
	CHECK(strstr(diags(), ":1:1: error: NUL byte in spec (is it a text file?)\n") != NULL);
}

/* A NUL byte used to end the spec there, silently dropping the rest. */
TEST(parse_file_nul_byte)
{
	static const char text[] = "[sweep]\nworkload = null\ntitle = ab\0cd\nrepeat = x\n";
	char path[] = "/tmp/test_spec_XXXXXX", want[128];
	struct spec *s;
	int ret;

	CHECK_INT(temp_file(path, text, sizeof(text) - 1), 0);
	capture();
	ret = spec_parse_file(path, &s);
	unlink(path);
	CHECK_INT(ret, -EINVAL);
	CHECK(s == NULL);
	snprintf(want, sizeof(want), "%s:3:11: error: NUL byte in spec (is it a text file?)\n",
		 path);
	CHECK_STR(diags(), want);
}

/* A spec holds no control characters: they could reach a title, a table, a terminal. */
TEST(parse_control_characters)
{
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("t.spec", "[sweep]\r\n"
				    "title = \033[31mred\n"
				    "title = a\rb\n"
				    "# \001 in a comment\n"
				    "x = \177\n"
				    "y = \ttab\r\n", &s), -EINVAL);
	CHECK_STR(diags(), "t.spec:2:9: error: control character '\\e' in spec\n"
		  "t.spec:3:10: error: control character '\\r' in spec\n"
		  "t.spec:4:3: error: control character '\\x01' in spec\n"
		  "t.spec:5:5: error: control character '\\x7f' in spec\n");
}

/*
 * A bidi control is refused at its column, in a title, a comment or --set:
 * "title = rate \u202e1.0" would show "rate 0.1", and a comment could hide
 * what an argv line runs (Trojan Source).  Right-to-left letters pass.
 */
TEST(parse_bidi_controls)
{
	struct spec *s;

	capture();
	CHECK_INT(spec_parse_string("t.spec", "[sweep]\n"
				    "title = rate \u202e1.0\n"
				    "# \u2066 isolate in a comment\n"
				    "label = \u200fx\n"
				    "name = \u05e9\u05dc\u05d5\u05dd\n", &s), -EINVAL);
	CHECK_STR(diags(), "t.spec:2:14: error: bidi control U+202E in spec: it shows the text "
		  "after it in another order than it is\n"
		  "t.spec:3:3: error: bidi control U+2066 in spec: it shows the text after it in "
		  "another order than it is\n"
		  "t.spec:4:9: error: bidi control U+200F in spec: it shows the text after it in "
		  "another order than it is\n");
	capture();
	CHECK_INT(spec_parse_string("t.spec", "[sweep]\n", &s), 0);
	CHECK_INT(spec_set(s, "title=x\xd8\x9c"), -EINVAL);
	CHECK_STR(diags(), "--set #1:1:8: error: bidi control U+061C in value: it shows the text "
		  "after it in another order than it is\n");
	spec_free(s);
}

/* diag.c escapes what a message quotes: a terminal sees no control sequence. */
TEST(diag_escapes_control_characters)
{
	struct loc at = { .file = "a\033]0;title\007.spec", .line = 1, .col = 2 };

	capture();
	diag_at(&at, "'%s'", "\r\n\033[2J\001\177\t|caf\xc3\xa9|\xc2\x9b" "31m|\xff|\xe2\x82");
	diag_err("%s", "\033[31m");
	diag_warn("%s", "x\ry");
	CHECK_STR(diags(), "a\\e]0;title\\x07.spec:1:2: error: "
		  "'\\r\\n\\e[2J\\x01\\x7f\t|caf\xc3\xa9|\\xc2\\x9b31m|\\xff|\\xe2\\x82'\n"
		  "bpfsweep: error: \\e[31m\n"
		  "bpfsweep: warning: x\\ry\n");
}

/* After DIAG_MAX_SHOWN located errors the rest are counted: a 1 MB line made 500000. */
TEST(diag_error_cap)
{
	size_t len = 1 << 20;
	char *text = malloc(len + 64);
	struct loc at = { .file = "t.spec", .line = 1, .col = 1 };
	struct spec *s;
	const char *d;
	int lines = 0;

	CHECK(text != NULL);
	strcpy(text, "[sweep]\n");
	for (size_t i = strlen(text); i < len; i += 2)
		memcpy(text + i, "x\n", 2);
	text[len] = '\0';
	capture();
	CHECK_INT(spec_parse_string("t.spec", text, &s), -EINVAL);
	free(text);
	diag_finish();
	d = diags();
	for (const char *p = d; (p = strchr(p, '\n')); p++)
		lines++;
	CHECK_INT(lines, DIAG_MAX_SHOWN + 1);
	CHECK(strstr(d, "t.spec:21:2: error: expected '=' after key 'x'\n"
		     "bpfsweep: 524264 more errors not shown\n") != NULL);
	/* a new count after diag_finish() */
	capture();
	diag_at(&at, "one");
	diag_finish();
	CHECK_STR(diags(), "t.spec:1:1: error: one\n");
}

/* Duplicate keys are found through an index (a list scan per line took 45 s on 1 MiB). */
TEST(parse_many_keys)
{
	size_t cap = 1 << 20, off;
	char *text = malloc(cap);
	struct spec *s;

	CHECK(text != NULL);
	off = snprintf(text, cap, "[params]\nplot = a\n");
	for (int i = 0; i < 50000; i++)
		off += snprintf(text + off, cap - off, "k%d = 1\n", i);
	off += snprintf(text + off, cap - off, "[sweep]\nk7 = 2\nplot = b\n[params]\nplot = c\n"
			"k49999 = 3\nk7 = 4\nk49999 = 5\n");
	snprintf(text + off, cap - off, "[params]\nk123 = 6\nplot = d\n");
	capture();
	CHECK_INT(spec_parse_string("t.spec", text, &s), -EINVAL);
	CHECK_STR(diags(), "t.spec:50010:1: error: duplicate key 'k49999' (first set at line 50008)\n");
	/* the same keys, each once per section: all there */
	strcpy(strstr(text, "k49999 = 5\n"), "[report]\nplot = e\n");
	CHECK_INT(spec_parse_string("t.spec", text, &s), 0);
	free(text);
	CHECK_INT(s->nr_sections, 4);
	CHECK_INT(s->sections[0].nr_entries, 50001);
	CHECK_STR(s->sections[0].entries[50000].key, "k49999");
	CHECK_INT(s->sections[2].nr_entries, 3);
	spec_free(s);
}

RUN_TESTS(parse_sections_and_entries, parse_crlf_and_no_final_newline, parse_header_escapes,
	  parse_errors_all_reported, parse_duplicate_key_per_section, parse_file,
	  set_sweep_key, set_creates_sections, set_param_in_every_experiment, set_report_keys,
	  set_errors, write_format, write_round_trip, parse_file_not_a_spec, parse_file_too_large,
	  parse_file_nul_byte, parse_control_characters, parse_bidi_controls,
	  diag_escapes_control_characters,
	  diag_error_cap, parse_many_keys)
