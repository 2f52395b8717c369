// SPDX-License-Identifier: GPL-2.0
/*
 * Precision per point (precision.h): when a point's repetitions are enough.
 * The flags that veto stopping at the target are those that say the mean
 * itself is in doubt (still drifting, two regimes, CPUs taken by others,
 * a worker that did nothing):
 * more repetitions may outlast them; a narrow interval does not cure them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "precision.h"

#define VETO_FLAGS	(QF_TREND | QF_BIMODAL | QF_INTERFERENCE | QF_STARVED)

/* precision, or decide's rounds (rounds.h): repetitions until a rule says stop */
static bool reps_by_rule(const struct sweep_cfg *cfg)
{
	return cfg->precision_pct > 0 || cfg->decide_pct > 0;
}

int precision_min_reps(const struct sweep_cfg *cfg)
{
	if (reps_by_rule(cfg) && cfg->repeat < PRECISION_MIN_UNITS)
		return PRECISION_MIN_UNITS;
	return cfg->repeat;
}

int precision_max_reps(const struct sweep_cfg *cfg)
{
	int min = precision_min_reps(cfg);

	if (!reps_by_rule(cfg))
		return cfg->repeat;
	return cfg->max_repeat > min ? cfg->max_repeat : min;
}

/*
 * Are the units instruction time: a sub-run in a TCG icount guest, or a
 * sweep whose every kernel is a guest under TCG icount?  The host's kernel
 * among them is timed, as is a run with no kernel axis.
 */
static bool icount_units(const struct sweep_cfg *cfg)
{
	const struct kernel_axis *ka = &cfg->kernels;

	if (cfg->icount_guest)
		return true;
	if (ka->accel != VM_ACCEL_TCG_ICOUNT || !ka->list.nr)
		return false;
	for (int k = 0; k < ka->list.nr; k++)
		if (!strcmp(ka->list.vals[k], KERNEL_HOST))
			return false;
	return true;
}

void precision_decide_rule(const struct sweep_cfg *cfg, struct decide_rule *rule)
{
	*rule = (struct decide_rule){ .alpha = DECIDE_ALPHA, .bound_pct = cfg->decide_pct,
				      .min_rounds = precision_min_reps(cfg),
				      .max_rounds = precision_max_reps(cfg),
				      .exact_pct = icount_units(cfg) ? DECIDE_ICOUNT_TOL_PCT : 0 };
}

double precision_half_width_pct(const struct point_result *r)
{
	const struct summary *s = &r->stat[0];

	if (s->n <= 0 || !(fabs(s->mean) > 0))
		return NAN;
	return s->ci95 / fabs(s->mean) * 100;
}

bool precision_past_time(const struct sweep_cfg *cfg, int done, uint64_t elapsed_ns)
{
	return cfg->max_time_ns && elapsed_ns + elapsed_ns / done > cfg->max_time_ns;
}

/* max_repeat reached, or max_time would be passed by one more repetition like the last ones. */
static bool over_budget(const struct sweep_cfg *cfg, int reps, uint64_t elapsed_ns)
{
	return reps >= precision_max_reps(cfg) || precision_past_time(cfg, reps, elapsed_ns);
}

bool precision_stop(const struct sweep_cfg *cfg, struct point_result *r, int reps,
		    uint64_t elapsed_ns)
{
	struct quality veto = r->quality;
	bool met = precision_half_width_pct(r) <= cfg->precision_pct;

	veto.flags &= VETO_FLAGS;
	if (reps < precision_min_reps(cfg))
		return false;
	if (met && !veto.flags) {
		snprintf(r->stop, sizeof(r->stop), "target");
		return true;
	}
	if (!over_budget(cfg, reps, elapsed_ns))
		return false;
	if (met) {
		int n = snprintf(r->stop, sizeof(r->stop), "vetoed: ");

		quality_format(&veto, r->stop + n, sizeof(r->stop) - n);
	} else {
		snprintf(r->stop, sizeof(r->stop), "budget");
	}
	return true;
}
