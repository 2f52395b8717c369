// SPDX-License-Identifier: GPL-2.0
/*
 * binders.c and bindsec.h: the section binders bind.c walks.  What the
 * kernel axis and the exec family own reaches the binder only through the
 * table: their sections are known and suggested, their [sweep] keys and
 * defaults land in the configuration, and an owned section in a spec of
 * another workload is reported by its owner.
 */
#include <string.h>

#include "bind.h"
#include "bindsec.h"
#include "check.h"
#include "diag_capture.h"
#include "exec.h"
#include "kernels.h"
#include "spec.h"

/* Bind text; the configuration (NULL on any error), diagnostics in diags(). */
static struct sweep_cfg *bind_text(const char *text)
{
	struct sweep_cfg *cfg = NULL;
	struct spec *s;

	capture();
	if (spec_parse_string("b.spec", text, &s))
		return NULL;
	bind_spec(s, &workloads_catalog, &cfg);
	spec_free(s);
	return cfg;
}

static bool table_has(const struct section_binder *sb)
{
	for (int i = 0; section_binders[i]; i++)
		if (section_binders[i] == sb)
			return true;
	return false;
}

/* Each binder named once; no section owned twice, nor one of binding's own. */
TEST(table)
{
	static const char *const own[] = { "sweep", "report", "params" };

	CHECK(table_has(&kernel_section_binder));
	CHECK(table_has(&exec_section_binder));
	for (int i = 0; section_binders[i]; i++) {
		const struct section_binder *a = section_binders[i];

		CHECK(a->name && *a->name);
		for (int j = 0; a->sections && a->sections[j]; j++) {
			for (size_t k = 0; k < sizeof(own) / sizeof(own[0]); k++)
				CHECK(strcmp(a->sections[j], own[k]));
			for (int o = i + 1; section_binders[o]; o++)
				for (int l = 0; section_binders[o]->sections &&
						section_binders[o]->sections[l]; l++)
					CHECK(strcmp(a->sections[j], section_binders[o]->sections[l]));
		}
	}
}

/* The kernel axis's defaults (its init) and keys (its sweep_entry) through the table. */
TEST(kernel_axis)
{
	struct sweep_cfg *cfg = bind_text("[sweep]\nworkload = null\n");

	CHECK(cfg != NULL);
	if (cfg) {
		CHECK_INT(cfg->kernels.list.nr, 0);
		CHECK_INT(cfg->kernels.cpus, 2);
		CHECK(cfg->kernels.mem == 2LL << 30);
		sweep_cfg_free(cfg);
	}
	cfg = bind_text("[sweep]\nworkload = null\nvm_cpus = 4\nkernel = host\n");
	CHECK(cfg != NULL);
	if (cfg) {
		CHECK_INT(cfg->kernels.cpus, 4);
		CHECK_INT(cfg->kernels.list.nr, 1);
		CHECK_STR(cfg->kernels.list.vals[0], KERNEL_HOST);
		sweep_cfg_free(cfg);
	}
	CHECK(!bind_text("[sweep]\nworkload = null\nvm_cpus = 0\n"));
	CHECK_STR(diags(), "b.spec:3:11: error: value 0 out of range for 'vm_cpus' (1..256)\n");
}

/* The exec family's sections: suggested when misspelt, reported when no exec workload uses them. */
TEST(exec_sections)
{
	CHECK(!bind_text("[sweep]\nworkload = null\n[exce]\n"));
	CHECK_STR(diags(), "b.spec:3:1: error: unknown section '[exce]' (did you mean '[exec]'?)\n");
	CHECK(!bind_text("[sweep]\nworkload = null\n[exec]\n"));
	CHECK_STR(diags(), "b.spec:3:1: error: [exec] is for workload = exec\n");
}

RUN_TESTS(table, kernel_axis, exec_sections)
