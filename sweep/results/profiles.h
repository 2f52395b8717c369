/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A point's profiles in its result directory (docs/profile.md):
 * profiles/<point>-r<rep>.folded (folded stacks) and .top (the top symbols
 * by self and total share) for each profiled repetition of the try kept.
 */
#ifndef SWEEP_PROFILES_H
#define SWEEP_PROFILES_H

#include <stdint.h>

#include "folded.h"
#include "foldtop.h"
#include "model.h"
#include "result.h"

#define PROFILES_DIR	"profiles"
#define PROFILES_TOP_N	25
/* A point's flame graph of its repetitions summed (sweep/render/flamefile.h). */
#define PROFILES_FLAME_NAME	"%lld.svg"

/*
 * Write pr's profiles into dir/profiles (made if missing), each file whole
 * or not at all, one of a killed run's replaced: written before the point's
 * rows, so that no row claims a profile that is not there.  Repetitions
 * the kernel refused to profile get no files (summary.csv's profile column
 * says why).  Nothing without cfg->profile.  0 or -errno.
 */
int profiles_write(const char *dir, const struct sweep_cfg *cfg, const struct point_result *pr);

/*
 * The point's profile counts over its repetitions, for summary.csv: the
 * samples, those lost, and in status "ok", or of the first repetition
 * not profiled "unsupported: " and the kernel's words, or a caveat (the
 * symbols hidden).  False when no repetition was profiled.
 */
bool profiles_sum(const struct point_result *pr, uint64_t *samples, uint64_t *lost,
		  char *status, size_t len);

/* The most one folded file may hold: a repetition's distinct stacks, a few MB at most. */
#define PROFILES_MAX_FILE	(64 << 20)

/*
 * The profile of point `point` of the result directory dir: its
 * repetitions' profiles/<point>-r<rep>.folded read and summed into *sum
 * (folded_free()), BPF programs without their tags (folded_untag()), *reps
 * the files read.  -ENOENT when the point has none; -EINVAL with why
 * ("profiles/0-r1.folded: line 3: ...") for a file that does not parse;
 * -EOVERFLOW with why naming a file when the repetitions' samples add up
 * past 2^63 - 1 (each file's are below it: folded_parse()).
 */
int profiles_read_point(const char *dir, long long point, struct folded *sum, int *reps,
			char *why, size_t why_len);

/*
 * profiles_read_point()'s sum with the frames as the files have them (BPF
 * programs with their tags, as kallsyms names them), its lines not
 * merged: what the flame graph draws.
 */
int profiles_sum_point(const char *dir, long long point, struct folded *sum, int *reps,
		       char *why, size_t why_len);

/* A point's top symbols over its repetitions: what report --profile and the page show. */
struct profile_top {
	uint64_t samples;	/* of all its repetitions */
	int reps;		/* repetitions read */
	struct sym_share *sym;	/* by self, then total, descending (folded_shares()) */
	int nr;
};

/*
 * profiles_read_point()'s sum per symbol, the task frame left out: a
 * symbol's self share is sym[i].self / samples.  0, -ENOENT (no profile
 * of the point), -EINVAL (a file that does not parse), -EOVERFLOW (too
 * many samples) or -ENOMEM.
 */
int profiles_top_of_point(const char *dir, long long point, struct profile_top *top);

void profile_top_free(struct profile_top *top);

/*
 * The points of the result directory dir that have a profile (a
 * profiles/<point>-r<rep>.folded), ascending, in *points (free()): how
 * many (0 and NULL when none), or -errno.
 */
int profiles_points(const char *dir, long long **points);

/*
 * from_dir/profiles/ copied into to_dir/profiles/ (made; to_dir held, a
 * merge's OUT/runs/<n>): every "<point>-r<rep>.folded" and ".top" file
 * and "<point>.svg" (the point's flame graph) as it is, so that a merged
 * set keeps its runs' profiles.  Nothing when from_dir has none.  0 or
 * -errno.
 */
int profiles_copy(const char *from_dir, const char *to_dir);

#endif
