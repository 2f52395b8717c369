# SPDX-License-Identifier: GPL-2.0
#
# bpfsweep: `make` builds, `make run` sweeps the default spec, `make check`
# runs every test.  Both of the latter install missing Debian packages first
# (make deps).  V=1 shows the commands.
# SANITIZE=1 builds everything with ASan and UBSan into build-san/ (binary
# build-san/bpfsweep, `make SANITIZE=1 all unit-bins` what make check's
# sanitizer pass runs); `make fuzz` builds the libFuzzer targets there too.
# `make vm-kernel` fetches a test kernel (>= 6.19) for qemu into .cache/vm-kernel
# and prints its path, `make vm-kernel VERSION=6.12` any Debian kernel by version
# (scripts/vm-kernel.sh --list); nothing is installed (docs/dependencies.md).
# `make install` (PREFIX=/usr/local, DESTDIR= to stage) installs the binary,
# the man pages, the bash completion, and specs, plots and docs in DATADIR;
# `make uninstall` removes them again (README.md, "Installing").

# One instrumented tree serves the sanitizer's tests and the fuzzers: clang
# compiles it once with ASan, UBSan and libFuzzer's coverage (fuzzer-no-link,
# whose hooks are no-ops where libFuzzer is not linked in); only the fuzzers
# link libFuzzer.  -O0 -g1 (line tables, enough for a report's stack):
# `all unit-bins fuzz` took 163 s of CPU here at -O1, where gcc's -O2 -g
# sanitizer tree (all test-bins) and clang's fuzzer tree took 367 s
# together; -O0 compiles in a third of -O1's time (sweep/spec/bind.c:
# 0.5 s, not 1.3) and took 123 s to -O1's 152 s on the same loaded
# machine, while the sanitized tests ran as long and the fuzzers made as
# many runs a second (ASan's and the coverage's checks are their cost).
ifeq ($(SANITIZE),1)
OUTPUT   ?= build-san
CC       := clang
CFLAGS   ?= -O0 -g1
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
CFLAGS   += -fsanitize=fuzzer-no-link
endif
OUTPUT   ?= build
PREFIX   ?= /usr/local
DATADIR  ?= $(PREFIX)/share/bpfsweep
DESTDIR  ?=
CC       ?= gcc
CLANG    ?= clang
BPFTOOL  ?= bpftool
SPEC     ?= specs/ringbuf_overwrite.spec
RUNFLAGS ?=

VERSION  := 0.1.0
GIT_REV  := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
ARCH     := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
			-e 's/ppc64le/powerpc/' -e 's/riscv64/riscv/' -e 's/s390x/s390/')
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux

# Recursively expanded on purpose: pkg-config runs when a recipe needs the
# flags, after `make deps` has had the chance to install the packages.  Each
# probe runs once, at its first use, then keeps its answer (the eval makes
# the variable a simple one): as plain recursive variables, the two clang
# probes ran for every object compiled, 0.3 s of CPU together, and made
# 42 s of a clean build's 144 s of CPU.
PKGS      = libbpf libelf zlib gsl json-c
PKG_CFLAGS = $(eval PKG_CFLAGS := $$(shell pkg-config --cflags $$(PKGS) 2>/dev/null))$(PKG_CFLAGS)
PKG_LIBS   = $(eval PKG_LIBS := $$(shell pkg-config --libs $$(PKGS) 2>/dev/null))$(PKG_LIBS)
CLANG_VERSION = $(eval CLANG_VERSION := $$(shell $$(CLANG) --version 2>/dev/null | head -n1))$(CLANG_VERSION)
BPFTOOL_VERSION = $(eval BPFTOOL_VERSION := \
	$$(shell $$(BPFTOOL) version 2>/dev/null | head -n1))$(BPFTOOL_VERSION)
CFLAGS   ?= -O2 -g
CFLAGS   += -std=gnu11 -Wall -Wextra -Wno-unused-parameter
CPPFLAGS += -I$(OUTPUT) $(addprefix -I,$(SRC_DIRS)) -Ibpf $(PKG_CFLAGS) \
	    -DBPFSWEEP_VERSION='"$(VERSION)"' \
	    -DBPFSWEEP_DATADIR='"$(DATADIR)"' \
	    -DBPFSWEEP_BUILD_CLANG='"$(CLANG_VERSION)"' \
	    -DBPFSWEEP_BUILD_BPFTOOL='"$(BPFTOOL_VERSION)"' \
	    -DBPFSWEEP_BUILD_BPF_CPU='"$(BPF_CPU)"'
LDLIBS   += $(PKG_LIBS) -lcsv -lpthread -lm
CFLAGS   += $(SAN_FLAGS)
LDFLAGS  += $(SAN_FLAGS)
# The plain binary stays at the top; an instrumented one lives in its build directory.
BIN      := $(if $(SAN_FLAGS),$(OUTPUT)/bpfsweep,bpfsweep)
BPF_CFLAGS ?= -g -O2 -Wall -Wno-unused-function
# The BPF ISA, as the selftests build it: v3 (ALU32, JMP32) gives shorter
# programs than clang's default v1 (ringbuf's producer: 62 instructions, not
# 82), so the producer costs what the kernel's bench costs.  Probed on the
# compiler; every kernel with a BPF ring buffer (5.8) has v3 (5.1).
# Probed once at its first use, like PKG_CFLAGS: clang may arrive with `make deps`.
BPF_CPU  ?= $(eval BPF_CPU := $$(shell $$(CLANG) -target bpf -mcpu=v3 -x c -c /dev/null \
		-o /dev/null 2>/dev/null && echo v3 || echo v1))$(BPF_CPU)

ifeq ($(V),1)
Q =
msg =
else
Q = @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

# The engine's folders, one a stage (docs/architecture.md), its libbpf adapters' and the
# workloads': every header is found by its name, so a file moves without its includers.
SRC_DIRS   := $(patsubst %/,%,$(sort $(dir $(wildcard sweep/*/*.[ch] adapters/*.[ch] \
		workloads/*.[ch] workloads/*/*.[ch]))))
HDRS        = $(wildcard $(addsuffix /*.h,$(SRC_DIRS)) bpf/*.h)
SWEEP_SRCS := $(filter-out sweep/cli/main.c,$(wildcard sweep/*/*.c))
WL_SRCS    := $(wildcard workloads/*.c workloads/*/*.c adapters/*.c)
BPF_SRCS   := $(wildcard bpf/*.bpf.c)
SKELS      := $(patsubst bpf/%.bpf.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
LIB_OBJS   := $(patsubst %.c,$(OUTPUT)/%.o,$(SWEEP_SRCS) $(WL_SRCS))
TEST_SRCS  := $(wildcard tests/unit/test_*.c tests/integ/test_*.c tests/tools/*.c)
TEST_BINS  := $(patsubst tests/%.c,$(OUTPUT)/tests/%,$(TEST_SRCS))
UNIT_BINS  := $(patsubst tests/%.c,$(OUTPUT)/tests/%,$(wildcard tests/unit/test_*.c tests/tools/*.c))
FUZZ_BINS  := $(patsubst tests/%.c,$(OUTPUT)/tests/%,$(wildcard tests/fuzz/fuzz_*.c))

.PHONY: all need-tools deps test-deps run check test-bins unit-bins fuzz vm-kernel install uninstall clean FORCE
.DELETE_ON_ERROR:
.SECONDARY:

all: $(BIN)

# A bare `make` on a machine without the tools stops before the first
# step, with one line naming what installs them (make run and make check
# install them first).
need-tools:
	$(Q)for t in $(CC) $(CLANG) $(BPFTOOL) pkg-config; do \
		command -v $$t >/dev/null || { echo "error: $$t not found: 'make deps' installs" \
			"what bpfsweep needs (Debian 12; docs/dependencies.md)" >&2; exit 1; }; done
	$(Q)pkg-config --exists $(PKGS) || { echo "error: libraries missing ($(PKGS) by" \
		"pkg-config): 'make deps' installs them" >&2; exit 1; }

deps:
	$(Q)scripts/deps.sh

# what only make check needs besides: chromium for the HTML report's test
test-deps:
	$(Q)scripts/deps.sh --test

run: deps
	$(Q)$(MAKE) --no-print-directory all
	./bpfsweep $(RUNFLAGS) $(SPEC)

# tests/run.sh (CHECK_BUILDS=1) makes the builds, on every CPU, and times
# them as it times its parts: bpfsweep and the test binaries first, then
# the sanitizer's and the fuzzer's first in its background lane, beside
# the other lanes' tests, so that the 10-minute budget holds for make check
# as a whole.  Not $(MAKE) on that line: make -n check would run the tests.
check: deps test-deps
	$(Q)CHECK_BUILDS=1 tests/run.sh

test-bins: $(TEST_BINS)

# the unit tests and the tools the shell tests use, without the integration tests
unit-bins: $(UNIT_BINS)

# VERSION here is the kernel's when given on the command line, not bpfsweep's own.
vm-kernel:
	$(Q)scripts/vm-kernel.sh $(if $(filter command line,$(origin VERSION)),$(VERSION))

ifeq ($(SANITIZE),1)
fuzz: $(FUZZ_BINS)
else
fuzz:
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 fuzz
endif

$(FUZZ_BINS): LDFLAGS += -fsanitize=fuzzer

$(OUTPUT)/vmlinux.h: | need-tools
	$(Q)mkdir -p $(@D)
	$(Q)if [ ! -r $(VMLINUX_BTF) ]; then \
		echo "error: $(VMLINUX_BTF) not found: the kernel needs CONFIG_DEBUG_INFO_BTF=y" >&2; \
		exit 1; fi
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) btf dump file $(VMLINUX_BTF) format c > $@

$(OUTPUT)/%.bpf.o: bpf/%.bpf.c $(OUTPUT)/vmlinux.h $(wildcard bpf/*.h)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -target bpf -mcpu=$(BPF_CPU) -D__TARGET_ARCH_$(ARCH) -I$(OUTPUT) -Ibpf \
		-c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf > $@

# The commit goes into --version and meta: rewritten only when it changes,
# so that a new commit relinks and an unchanged one rebuilds nothing.
$(OUTPUT)/version.h: FORCE
	$(Q)mkdir -p $(@D)
	$(Q)echo '#define BPFSWEEP_GIT "$(GIT_REV)"' > $@.tmp
	$(Q)cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(OUTPUT)/sweep/cli/main.o $(OUTPUT)/sweep/results/meta.o $(OUTPUT)/sweep/executors/fleet.o: $(OUTPUT)/version.h

# Every C object may include any skeleton; build them first.
$(OUTPUT)/%.o: %.c $(HDRS) | $(SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

# A workload embeds its skeleton's BPF object: a changed program rebuilds it.
$(patsubst bpf/%.bpf.c,$(OUTPUT)/workloads/%.o,$(BPF_SRCS)): $(OUTPUT)/workloads/%.o: $(OUTPUT)/%.skel.h
# trigger's second object, the in-kernel trigger's (bpf/trigger_kt.bpf.c)
$(OUTPUT)/workloads/trigger.o: $(OUTPUT)/trigger_kt.skel.h

$(BIN): $(OUTPUT)/sweep/cli/main.o $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

# Test binaries link the engine and the workloads, not main.o, from an
# archive: each takes the objects it needs, 0.28 s of CPU a link instead
# of 0.45 s, 60 links a tree (no object registers itself, so none is missed).
$(OUTPUT)/libsweep.a: $(LIB_OBJS)
	$(call msg,AR,$@)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(OUTPUT)/tests/%: $(OUTPUT)/tests/%.o $(OUTPUT)/libsweep.a
	$(Q)mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(OUTPUT)/tests/%.o: tests/%.c $(wildcard tests/unit/*.h tests/integ/*.h) $(HDRS) | $(SKELS)
	$(Q)mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CPPFLAGS) -Itests/unit $(CFLAGS) -c $< -o $@

# DATADIR mirrors the checkout (README.md, docs/, specs/, plots/), so the
# paths the docs and messages name hold there too.  Away from a build tree
# the binary finds its chart template in ../share/bpfsweep beside itself
# (staged or moved with its prefix), else in the DATADIR it was built with
# (BPFSWEEP_DATADIR above).  Man pages stay uncompressed: man reads both,
# and a packager compresses them anyway.
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL_DOCS := README.md $(wildcard docs/*.md)

install: bpfsweep
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -D -m 0755 bpfsweep $(DESTDIR)$(PREFIX)/bin/bpfsweep
	$(Q)install -D -m 0644 man/bpfsweep.1 $(DESTDIR)$(MANDIR)/man1/bpfsweep.1
	$(Q)install -D -m 0644 man/bpfsweep-spec.5 $(DESTDIR)$(MANDIR)/man5/bpfsweep-spec.5
	$(Q)install -D -m 0644 completions/bpfsweep.bash $(DESTDIR)$(BASHCOMPDIR)/bpfsweep
	$(Q)install -d $(DESTDIR)$(DATADIR)/specs $(DESTDIR)$(DATADIR)/plots $(DESTDIR)$(DATADIR)/docs
	$(Q)install -m 0644 specs/*.spec $(DESTDIR)$(DATADIR)/specs/
	$(Q)install -m 0644 plots/*.gp $(DESTDIR)$(DATADIR)/plots/
	$(Q)install -m 0644 README.md $(DESTDIR)$(DATADIR)/
	$(Q)install -m 0644 $(filter docs/%,$(INSTALL_DOCS)) $(DESTDIR)$(DATADIR)/docs/

# Removes what install wrote, file by file: DATADIR may be a directory
# shared with others, and only its directories left empty go.
uninstall:
	$(call msg,UNINSTALL,$(DESTDIR)$(PREFIX))
	$(Q)rm -f $(DESTDIR)$(PREFIX)/bin/bpfsweep $(DESTDIR)$(MANDIR)/man1/bpfsweep.1 \
		$(DESTDIR)$(MANDIR)/man5/bpfsweep-spec.5 $(DESTDIR)$(BASHCOMPDIR)/bpfsweep \
		$(addprefix $(DESTDIR)$(DATADIR)/,$(wildcard specs/*.spec plots/*.gp) $(INSTALL_DOCS))
	$(Q)for d in specs plots docs .; do rmdir $(DESTDIR)$(DATADIR)/$$d 2>/dev/null; done; true

clean:
	$(Q)rm -rf $(OUTPUT) build-san build-fuzz bpfsweep
