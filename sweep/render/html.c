// SPDX-License-Identifier: GPL-2.0
/* The HTML writer: see html.h. */
#include <string.h>

#include "html.h"
#include "termsafe.h"

/*
 * The hash of html_sort_script in the CSP: 'unsafe-inline' would let a
 * script that slipped past the escaping run; a hash lets only this one.
 * tests/e2e/html.sh computes it again from the page (and chromium refuses
 * the script, an error on its console, when they differ).
 */
#define SORT_SCRIPT_SHA256	"wob5adv6SRCUJkmaxzFUd/Vns4Vwg6a9NxXFt169iZE="

const char html_sort_script[] =
	"function sortBy(th) {\n"
	"	var t = th.closest(\"table\"), b = t.tBodies[0], i = th.cellIndex;\n"
	"	var up = th.getAttribute(\"aria-sort\") !== \"ascending\";\n"
	"	var rows = Array.prototype.slice.call(b.rows);\n"
	"	var key = function (r) {\n"
	"		var c = r.cells[i], v = c ? c.getAttribute(\"data-v\") : null;\n"
	"		return v !== null ? parseFloat(v) : c ? c.textContent : \"\";\n"
	"	};\n"
	"	rows.sort(function (x, y) {\n"
	"		var p = key(x), q = key(y);\n"
	"		var d = typeof p === \"number\" && typeof q === \"number\" ? p - q :\n"
	"			String(p).localeCompare(String(q));\n"
	"		return up ? d : -d;\n"
	"	});\n"
	"	t.querySelectorAll(\"th\").forEach(function (h) {"
	" h.removeAttribute(\"aria-sort\"); });\n"
	"	th.setAttribute(\"aria-sort\", up ? \"ascending\" : \"descending\");\n"
	"	rows.forEach(function (r) { b.appendChild(r); });\n"
	"}\n"
	"document.querySelectorAll(\"table.sortable th\").forEach(function (th) {\n"
	"	th.tabIndex = 0;\n"
	"	th.title = \"sort (click, Enter or Space)\";\n"
	"	th.addEventListener(\"click\", function () { sortBy(th); });\n"
	"	th.addEventListener(\"keydown\", function (e) {\n"
	"		if (e.key !== \"Enter\" && e.key !== \" \")\n"
	"			return;\n"
	"		e.preventDefault();	/* Space would scroll the page */\n"
	"		sortBy(th);\n"
	"	});\n"
	"});\n";

static const char page_style[] =
	"body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1200px;"
	"padding:0 1em;color:#111;background:#fff}\n"
	"h1{font-size:1.5em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ccc}\n"
	"table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;"
	"padding:.15em .5em;text-align:left;vertical-align:top}\n"
	"td.num{text-align:right;font-variant-numeric:tabular-nums}\n"
	"th[tabindex]{cursor:pointer}th[tabindex]:focus-visible{outline:2px solid #05c}"
	"th[aria-sort=ascending]::after{content:\" \\25b2\"}"
	"th[aria-sort=descending]::after{content:\" \\25bc\"}\n"
	"tr.flagged td,tr.inconclusive td{background:#fff4d6}"
	"tr.failed td,tr.unsupported td,tr.regressed td{background:#fde8e8}"
	"tr.improved td{background:#e6f4e6}\n"
	"pre{background:#f6f6f6;padding:.6em;overflow-x:auto}div.wide{overflow-x:auto}"
	"td.label{white-space:nowrap}\n"
	".chart svg,.chart img{width:100%;max-width:1024px;height:auto;display:block}\n"
	".warn{color:#8a4b00}.flag{color:#8a4b00;font-weight:600}\n"
	"dl.facts{display:grid;grid-template-columns:max-content auto;gap:.1em 1em}"
	"dl.facts dt{font-weight:600}dl.facts dd{margin:0}\n";

/* The entity of an HTML-special character, or NULL. */
static const char *entity(char c)
{
	switch (c) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

/*
 * Runs between the special characters through term_put(): they are ASCII,
 * never inside a UTF-8 sequence, so cutting there changes no escape.
 */
void html_put(FILE *f, const char *text, size_t n)
{
	size_t i = 0;

	while (i < n) {
		size_t run = 0;
		const char *e;

		while (i + run < n && !entity(text[i + run]))
			run++;
		term_put(f, text + i, run);
		i += run;
		if (i == n)
			break;
		e = entity(text[i++]);
		fputs(e, f);
	}
}

void html_text(FILE *f, const char *s)
{
	if (s)
		html_put(f, s, strlen(s));
}

void html_lines(FILE *f, const char *text, size_t n)
{
	while (n) {
		const char *nl = memchr(text, '\n', n);
		size_t line = nl ? (size_t)(nl - text) : n;

		html_put(f, text, line);
		if (!nl)
			break;
		fputc('\n', f);
		n -= line + 1;
		text = nl + 1;
	}
}

void html_page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'sha256-" SORT_SCRIPT_SHA256 "'; "
	      "img-src data:; form-action 'none'; base-uri 'none'\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"bpfsweep\">\n<title>", f);
	html_text(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", page_style);
}

void html_page_end(FILE *f)
{
	fprintf(f, "<script>%s</script>\n</body>\n</html>\n", html_sort_script);
}
