// SPDX-License-Identifier: GPL-2.0
/*
 * Spec files as text: INI lines → sections of entries, each entry knowing
 * the file, line and column it came from so that bind.c can point at any
 * mistake.  This file knows the syntax only; what the keys mean is bind's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "spec.h"
#include "termsafe.h"
#include "textfile.h"

/* The file of every --set location; loc.set says which --set. */
#define CMDLINE "--set"

/* Indexed by enum sweep_key and enum report_key (spec.h), NULL after the last. */
#define SPEC_KEY_NAME(id, name)	[id] = name,
const char *const spec_sweep_keys[NR_SWEEP_KEYS + 1] = { SPEC_SWEEP_KEYS(SPEC_KEY_NAME) };
const char *const spec_report_keys[NR_REPORT_KEYS + 1] = { SPEC_REPORT_KEYS(SPEC_KEY_NAME) };

enum lex_err {
	LEX_OK,
	LEX_EMPTY_KEY,		/* "= value" */
	LEX_BAD_KEY_CHAR,	/* "ba!d = value" */
	LEX_NO_EQUALS,		/* "repeat 3" */
};

/* One "key = value" line cut in pieces; columns are 1-based. */
struct lexed {
	const char *key, *val;
	size_t key_len, val_len;
	int key_col, val_col;
	int err_col;
};

/* An entry of the key index: sections[sec].entries[ent]; sec < 0 is a free slot. */
struct key_slot {
	int sec, ent;
};

struct parser {
	struct spec *s;
	int line;
	int cur;		/* index of the current section, or -1 */
	bool skipping;		/* after a bad header: drop its entries quietly */
	/*
	 * The first entry of every key of every section, open addressing: a
	 * list scan per line made a spec of many keys quadratic (45 s for 1 MiB).
	 */
	struct key_slot *keys;
	size_t nr_keys;		/* a power of two, above twice the lines */
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_key_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-';
}

static size_t skip_space(const char *line, size_t len, size_t i)
{
	while (i < len && is_space(line[i]))
		i++;
	return i;
}

static bool in_list(const char *const *list, const char *word)
{
	for (; *list; list++)
		if (!strcmp(*list, word))
			return true;
	return false;
}

/*
 * The value runs from the first non-blank after '=' to the end of the
 * line, or to a '#' that follows a blank: "1 2 # why" is "1 2", while
 * "a#b" keeps its '#'.
 */
static void lex_value(const char *line, size_t len, size_t i, struct lexed *lx)
{
	size_t end;

	i = skip_space(line, len, i);
	for (end = i; end < len; end++)
		if (line[end] == '#' && is_space(line[end - 1]))
			break;
	while (end > i && is_space(line[end - 1]))
		end--;
	lx->val = line + i;
	lx->val_len = end - i;
	lx->val_col = i + 1;
}

static enum lex_err lex_entry(const char *line, size_t len, struct lexed *lx)
{
	size_t i = skip_space(line, len, 0), j;

	lx->key = line + i;
	lx->key_col = i + 1;
	while (i < len && is_key_char(line[i]))
		i++;
	lx->key_len = line + i - lx->key;
	j = skip_space(line, len, i);
	lx->err_col = j + 1;
	if (j < len && line[j] == '=') {
		if (!lx->key_len)
			return LEX_EMPTY_KEY;
		lex_value(line, len, j + 1, lx);
		return LEX_OK;
	}
	if (!lx->key_len)
		return j < len ? LEX_BAD_KEY_CHAR : LEX_NO_EQUALS;
	/* A stray character in a key, unless the line has no '=' at all. */
	if (j == i && j < len && memchr(line, '=', len))
		return LEX_BAD_KEY_CHAR;
	return LEX_NO_EQUALS;
}

static void report_lex_err(enum lex_err err, const struct lexed *lx, const struct loc *loc,
			   bool cmdline)
{
	switch (err) {
	case LEX_EMPTY_KEY:
		diag_at(loc, "empty key");
		break;
	case LEX_BAD_KEY_CHAR:
		diag_at(loc, "invalid character '%c' in key", lx->key[lx->err_col - lx->key_col]);
		break;
	case LEX_NO_EQUALS:
		if (cmdline)
			diag_at(loc, "expected key=value");
		else
			diag_at(loc, "expected '=' after key '%.*s'", (int)lx->key_len, lx->key);
		break;
	case LEX_OK:
		break;
	}
}

static int set_entry_fields(struct spec_entry *e, const struct lexed *lx, const struct loc *at)
{
	char *key = strndup(lx->key, lx->key_len);
	char *val = strndup(lx->val, lx->val_len);

	if (!key || !val) {
		free(key);
		free(val);
		return -ENOMEM;
	}
	free(e->key);
	free(e->value);
	e->key = key;
	e->value = val;
	e->key_loc = (struct loc){ at->file, at->line, lx->key_col, at->set };
	e->val_loc = (struct loc){ at->file, at->line, lx->val_col, at->set };
	return 0;
}

/*
 * arr with room for one more of its nr items of size bytes (doubling *cap:
 * a realloc per item copies them all each time), or NULL on ENOMEM.
 */
static void *grow(void *arr, int nr, int *cap, size_t size)
{
	int new_cap = *cap ? 2 * *cap : 8;

	if (nr < *cap)
		return arr;
	arr = realloc(arr, new_cap * size);
	if (arr)
		*cap = new_cap;
	return arr;
}

static int append_entry(struct spec_section *sec, const struct lexed *lx, const struct loc *at)
{
	struct spec_entry *e;

	e = grow(sec->entries, sec->nr_entries, &sec->cap_entries, sizeof(*e));
	if (!e)
		return -ENOMEM;
	sec->entries = e;
	e = &sec->entries[sec->nr_entries];
	*e = (struct spec_entry){ 0 };
	if (set_entry_fields(e, lx, at))
		return -ENOMEM;
	sec->nr_entries++;
	return 0;
}

static struct spec_entry *find_entry(struct spec_section *sec, const char *key, size_t len)
{
	for (int i = 0; i < sec->nr_entries; i++)
		if (strlen(sec->entries[i].key) == len && !strncmp(sec->entries[i].key, key, len))
			return &sec->entries[i];
	return NULL;
}

static size_t key_hash(int sec, const char *key, size_t len)
{
	size_t h = 2166136261u ^ (size_t)sec;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 16777619u;
	return h;
}

/* The slot of key in the current section: its first entry, or the free slot for it. */
static struct key_slot *key_slot(const struct parser *ps, const char *key, size_t len)
{
	size_t i = key_hash(ps->cur, key, len) & (ps->nr_keys - 1);

	for (;; i = (i + 1) & (ps->nr_keys - 1)) {
		struct key_slot *k = &ps->keys[i];
		const char *name;

		if (k->sec < 0)
			return k;
		name = ps->s->sections[k->sec].entries[k->ent].key;
		if (k->sec == ps->cur && strlen(name) == len && !strncmp(name, key, len))
			return k;
	}
}

/* Room for every line of text to be a key, at most half full. */
static int keys_init(struct parser *ps, const char *text)
{
	size_t lines = 1;

	for (const char *p = text; (p = strchr(p, '\n')); p++)
		lines++;
	for (ps->nr_keys = 16; ps->nr_keys < 2 * lines; ps->nr_keys *= 2)
		;
	ps->keys = malloc(ps->nr_keys * sizeof(*ps->keys));
	if (!ps->keys)
		return -ENOMEM;
	for (size_t i = 0; i < ps->nr_keys; i++)
		ps->keys[i].sec = -1;
	return 0;
}

/* A new section at index pos, or NULL on ENOMEM. */
static struct spec_section *insert_section(struct spec *s, int pos, const char *name,
					   size_t name_len, char *arg, const struct loc *loc)
{
	struct spec_section *secs, *sec;
	char *n = strndup(name, name_len);

	secs = n ? grow(s->sections, s->nr_sections, &s->cap_sections, sizeof(*secs)) : NULL;
	if (!secs) {
		free(n);
		return NULL;
	}
	s->sections = secs;
	memmove(&secs[pos + 1], &secs[pos], (s->nr_sections - pos) * sizeof(*secs));
	sec = &secs[pos];
	*sec = (struct spec_section){ .name = n, .arg = arg, .loc = *loc };
	s->nr_sections++;
	return sec;
}

/*
 * The quoted argument of a header, starting at the opening '"'.  \" and
 * \\ stand for " and \ (spec_write escapes them); other backslashes are
 * kept as written.  Returns the index past the closing quote, 0 if there
 * is none, or -ENOMEM.
 */
static long parse_quoted(const char *line, size_t len, size_t i, char **arg)
{
	char *out = malloc(len), *o = out;

	if (!out)
		return -ENOMEM;
	for (i++; i < len && line[i] != '"'; i++) {
		if (line[i] == '\\' && i + 1 < len && (line[i + 1] == '"' || line[i + 1] == '\\'))
			i++;
		*o++ = line[i];
	}
	if (i >= len) {
		free(out);
		return 0;
	}
	*o = '\0';
	*arg = out;
	return i + 1;
}

/* "[name]" or "[name "arg"]", at line[i] == '['; 0, -EINVAL or -ENOMEM. */
static int parse_header(struct parser *ps, const char *line, size_t len, size_t i)
{
	struct loc at = { .file = ps->s->path, .line = ps->line, .col = i + 1 }, err = at;
	size_t name, name_len;
	char *arg = NULL;
	long q;
	int ret;

	i = skip_space(line, len, i + 1);
	for (name = i; i < len && is_key_char(line[i]); i++)
		;
	name_len = i - name;
	err.col = i + 1;
	if (!name_len) {
		diag_at(&err, "expected section name");
		return -EINVAL;
	}
	i = skip_space(line, len, i);
	if (i < len && line[i] == '"') {
		q = parse_quoted(line, len, i, &arg);
		if (q < 0)
			return q;
		if (!q) {
			err.col = i + 1;
			diag_at(&err, "unterminated string in section header");
			return -EINVAL;
		}
		i = skip_space(line, len, q);
	}
	err.col = i + 1;
	ret = -EINVAL;
	if (i >= len || line[i] != ']') {
		diag_at(&err, "expected ']'");
		goto free_arg;
	}
	i = skip_space(line, len, i + 1);
	err.col = i + 1;
	if (i < len && line[i] != '#' && line[i] != ';') {
		diag_at(&err, "unexpected text after ']'");
		goto free_arg;
	}
	ret = -ENOMEM;
	if (!insert_section(ps->s, ps->s->nr_sections, line + name, name_len, arg, &at))
		goto free_arg;
	ps->cur = ps->s->nr_sections - 1;
	return 0;

free_arg:
	free(arg);
	return ret;
}

static int parse_entry(struct parser *ps, const char *line, size_t len)
{
	struct loc at = { .file = ps->s->path, .line = ps->line };
	struct spec_section *sec;
	struct spec_entry *first;
	struct key_slot *slot;
	struct lexed lx;
	enum lex_err err = lex_entry(line, len, &lx);

	if (err) {
		at.col = lx.err_col;
		report_lex_err(err, &lx, &at, false);
		return -EINVAL;
	}
	at.col = lx.key_col;
	if (ps->skipping)
		return 0;
	if (ps->cur < 0) {
		diag_at(&at, "key '%.*s' outside any section", (int)lx.key_len, lx.key);
		return -EINVAL;
	}
	sec = &ps->s->sections[ps->cur];
	slot = key_slot(ps, lx.key, lx.key_len);
	first = slot->sec < 0 ? NULL : &sec->entries[slot->ent];
	/* plot is a list: every "plot =" line adds a chart. */
	if (first && strcmp(first->key, "plot")) {
		diag_at(&at, "duplicate key '%s' (first set at line %d)", first->key,
			first->key_loc.line);
		return -EINVAL;
	}
	if (!first)
		*slot = (struct key_slot){ ps->cur, sec->nr_entries };
	return append_entry(sec, &lx, &at);
}

/*
 * Offset of the first control character of line (tab aside), or len: none
 * may reach a title, a table or a terminal, so a spec may hold none.
 */
static size_t find_control(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (((unsigned char)line[i] < 0x20 && line[i] != '\t') || line[i] == 0x7f)
			return i;
	return len;
}

/*
 * A bidi control (termsafe.h) in line[0..len): an error at its column, as a
 * control character is.  A spec is run as root and names the programs it
 * runs: a bidi override in a comment or a value shows the line in another
 * order than it is read (Trojan Source, CVE-2021-42574, which gcc's
 * -Wbidi-chars warns of), and a title could show a number reversed.
 * Right-to-left letters pass: the terminal orders them itself.
 */
static bool bidi_refused(const char *line, size_t len, struct loc *at, const char *where)
{
	size_t i;
	unsigned int cp = term_bidi_control(line, len, &i);

	if (!cp)
		return false;
	at->col = i + 1;
	diag_at(at, "bidi control U+%04X in %s: it shows the text after it in another order "
		"than it is", cp, where);
	return true;
}

static int parse_line(struct parser *ps, const char *line, size_t len)
{
	struct loc at = { .file = ps->s->path, .line = ps->line };
	size_t i;
	int err;

	if (len && line[len - 1] == '\r')
		len--;
	i = find_control(line, len);
	if (i < len) {
		at.col = i + 1;
		diag_at(&at, "control character '%c' in spec", line[i]);
		return -EINVAL;
	}
	if (bidi_refused(line, len, &at, "spec"))
		return -EINVAL;
	i = skip_space(line, len, 0);
	if (i == len || line[i] == '#' || line[i] == ';')
		return 0;
	if (line[i] != '[')
		return parse_entry(ps, line, len);
	err = parse_header(ps, line, len, i);
	ps->skipping = err == -EINVAL;
	if (err == -EINVAL)
		ps->cur = -1;
	return err;
}

int spec_parse_string(const char *path, const char *text, struct spec **out)
{
	struct parser ps = { .cur = -1 };
	bool bad = false;
	int err;

	*out = NULL;
	ps.s = calloc(1, sizeof(*ps.s));
	if (!ps.s)
		return -ENOMEM;
	ps.s->path = strdup(path);
	if (!ps.s->path || keys_init(&ps, text))
		goto nomem;
	for (const char *p = text; *p; p += *p == '\n') {
		size_t len = strcspn(p, "\n");

		ps.line++;
		err = parse_line(&ps, p, len);
		if (err == -ENOMEM)
			goto nomem;
		bad |= err < 0;
		p += len;
	}
	free(ps.keys);
	if (bad) {
		spec_free(ps.s);
		return -EINVAL;
	}
	*out = ps.s;
	return 0;

nomem:
	free(ps.keys);
	spec_free(ps.s);
	return -ENOMEM;
}

/* A NUL byte would end the text early and hide the rest: report where it is. */
static int check_no_nul(const char *path, const char *text, size_t len)
{
	const char *nul = memchr(text, '\0', len), *bol = text;
	struct loc at = { .file = path, .line = 1, .col = 1 };

	if (!nul)
		return 0;
	for (const char *p = text; p < nul; p++) {
		if (*p == '\n') {
			at.line++;
			bol = p + 1;
		}
	}
	at.col = nul - bol + 1;
	diag_at(&at, "NUL byte in spec (is it a text file?)");
	return -EINVAL;
}

int spec_parse_file(const char *path, struct spec **out)
{
	size_t len;
	char *text;
	int err;

	*out = NULL;
	err = read_text_file_len(path, &text, &len);
	if (err) {
		diag_err("%s: %s", path, textfile_strerror(err));
		return err;
	}
	err = check_no_nul(path, text, len);
	if (!err)
		err = spec_parse_string(path, text, out);
	free(text);
	return err;
}

static void free_entry(struct spec_entry *e)
{
	free(e->key);
	free(e->value);
}

/* Drop every entry called key from sec. */
static void remove_entries(struct spec_section *sec, const char *key)
{
	int n = 0;

	for (int i = 0; i < sec->nr_entries; i++) {
		if (!strcmp(sec->entries[i].key, key))
			free_entry(&sec->entries[i]);
		else
			sec->entries[n++] = sec->entries[i];
	}
	sec->nr_entries = n;
}

/* Replace the value of key in sec, or append it. */
static int set_in(struct spec_section *sec, const struct lexed *lx, const struct loc *at)
{
	struct spec_entry *e = find_entry(sec, lx->key, lx->key_len);

	return e ? set_entry_fields(e, lx, at) : append_entry(sec, lx, at);
}

/* The first section called name, created at pos (by the --set at) if there is none. */
static struct spec_section *get_section(struct spec *s, const char *name, int pos,
					const struct loc *at)
{
	struct loc here = { at->file, at->line, 1, at->set };

	for (int i = 0; i < s->nr_sections; i++)
		if (!strcmp(s->sections[i].name, name))
			return &s->sections[i];
	return insert_section(s, pos, name, strlen(name), NULL, &here);
}

static int set_report(struct spec *s, const char *key, const struct lexed *lx,
		      const struct loc *at)
{
	struct spec_section *sec;

	/* The command line has the last word: drop per-experiment overrides. */
	for (int i = 0; i < s->nr_sections; i++)
		if (!strcmp(s->sections[i].name, "params"))
			remove_entries(&s->sections[i], key);
	sec = get_section(s, "report", s->nr_sections, at);
	if (!sec)
		return -ENOMEM;
	if (!strcmp(key, "plot"))
		remove_entries(sec, key);
	return set_in(sec, lx, at);
}

static int set_params(struct spec *s, const struct lexed *lx, const struct loc *at)
{
	int err, found = 0;

	/* all warned against the spec as it was, before any section changes */
	for (int i = 0; i < s->nr_sections; i++) {
		struct spec_entry *e;

		if (strcmp(s->sections[i].name, "params"))
			continue;
		e = find_entry(&s->sections[i], lx->key, lx->key_len);
		if (e)
			spec_warn_pin(s, &s->sections[i], e, lx->val, lx->val_len, at->set);
	}
	for (int i = 0; i < s->nr_sections; i++) {
		if (strcmp(s->sections[i].name, "params"))
			continue;
		found = 1;
		err = set_in(&s->sections[i], lx, at);
		if (err)
			return err;
	}
	if (found)
		return 0;
	if (!get_section(s, "params", s->nr_sections, at))
		return -ENOMEM;
	return set_in(&s->sections[s->nr_sections - 1], lx, at);
}

int spec_set(struct spec *s, const char *assignment)
{
	struct loc at = { CMDLINE, 1, 1, ++s->nr_sets };
	size_t len = strlen(assignment), ctl = find_control(assignment, len);
	struct spec_section *sec;
	enum lex_err lerr;
	struct lexed lx;
	char *key;
	int err;

	if (ctl < len) {
		at.col = ctl + 1;
		if (assignment[ctl] == '\n')
			diag_at(&at, "newline in value");
		else
			diag_at(&at, "control character '%c' in value", assignment[ctl]);
		return -EINVAL;
	}
	if (bidi_refused(assignment, len, &at, "value"))
		return -EINVAL;
	lerr = lex_entry(assignment, strlen(assignment), &lx);
	if (lerr) {
		at.col = lx.err_col;
		report_lex_err(lerr, &lx, &at, true);
		return -EINVAL;
	}
	key = strndup(lx.key, lx.key_len);
	if (!key)
		return -ENOMEM;
	if (in_list(spec_sweep_keys, key)) {
		sec = get_section(s, "sweep", 0, &at);
		err = sec ? set_in(sec, &lx, &at) : -ENOMEM;
	} else if (in_list(spec_report_keys, key)) {
		err = set_report(s, key, &lx, &at);
	} else {
		err = set_params(s, &lx, &at);
	}
	free(key);
	return err;
}

static void write_header(const struct spec_section *sec, FILE *f)
{
	fprintf(f, "[%s", sec->name);
	if (sec->arg) {
		fputs(" \"", f);
		for (const char *p = sec->arg; *p; p++) {
			if (*p == '"' || *p == '\\')
				fputc('\\', f);
			fputc(*p, f);
		}
		fputc('"', f);
	}
	fputs("]\n", f);
}

int spec_write(const struct spec *s, FILE *f)
{
	for (int i = 0; i < s->nr_sections; i++) {
		const struct spec_section *sec = &s->sections[i];

		if (i)
			fputc('\n', f);
		write_header(sec, f);
		for (int j = 0; j < sec->nr_entries; j++) {
			const struct spec_entry *e = &sec->entries[j];

			fprintf(f, "%s =%s%s\n", e->key, e->value[0] ? " " : "", e->value);
		}
	}
	return ferror(f) ? -EIO : 0;
}

void spec_free(struct spec *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nr_sections; i++) {
		struct spec_section *sec = &s->sections[i];

		for (int j = 0; j < sec->nr_entries; j++)
			free_entry(&sec->entries[j]);
		free(sec->entries);
		free(sec->name);
		free(sec->arg);
	}
	free(s->sections);
	free(s->path);
	free(s);
}
