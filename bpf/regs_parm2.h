/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the second argument of a call (a function's, at a kprobe, or a
 * syscall's, in its caller's saved registers) is in struct pt_regs:
 * x86-64's si, arm64's x1.  The layouts are ptrace's ABI (struct
 * user_regs_struct, struct user_pt_regs), the same in every kernel, so a
 * read at REGS_PARM2_OFF needs no CO-RE relocation: with one
 * (PT_REGS_PARM2_CORE), libbpf parses the kernel's 5 MB BTF at every load,
 * each repetition's set-up (scripts/cost.sh).  The build checks the offset
 * against its own kernel's pt_regs (vmlinux.h, included before this).  On
 * another arch REGS_PARM2_OFF is not defined.
 */
#ifndef BPF_REGS_PARM2_H
#define BPF_REGS_PARM2_H

#if defined(__TARGET_ARCH_x86)
#define REGS_PARM2_OFF	(13 * 8)	/* r15 r14 r13 r12 bp bx r11 r10 r9 r8 ax cx dx, si */
_Static_assert(__builtin_offsetof(struct pt_regs, si) == REGS_PARM2_OFF, "pt_regs.si");
#elif defined(__TARGET_ARCH_arm64)
#define REGS_PARM2_OFF	(1 * 8)		/* regs[1] */
_Static_assert(__builtin_offsetof(struct pt_regs, regs[1]) == REGS_PARM2_OFF, "pt_regs x1");
#endif

#endif
