/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --quick: one repetition of a shorter warmup, duration and interval, no
 * precision to aim at nor rounds to decide; enough to see that every
 * point runs, not to publish.  The timing a --set gives is the user's and
 * stays, in a sub-run too (whose --set are in its resolved spec: its
 * settings name them, quick-keeps in subrun.h).
 */
#ifndef SWEEP_QUICK_H
#define SWEEP_QUICK_H

#include "model.h"
#include "spec.h"

/*
 * The timing keys --quick leaves as they are ("duration interval"): those
 * sets[0..nr_sets) give, and those keeps (a sub-run's quick-keeps, or
 * NULL) names; NULL for none.
 */
const char *quick_keeps(const char *keeps, const char *const *sets, int nr_sets);

/*
 * --quick applied to the bound cfg; decide shapes the files, so spec (as
 * stored with them) says decide=off too.  0 or -errno (spec_set()'s).
 */
int quick_apply(struct sweep_cfg *cfg, struct spec *spec, const char *keeps,
		const char *const *sets, int nr_sets);

#endif
