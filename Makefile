# SPDX-License-Identifier: GPL-2.0-or-later
# rdmactl: build, test, install. `make help` lists the targets.

# One place for the version: debian/changelog's first entry.
VERSION := $(shell sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)

PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
# systemd reads units and modules-load.d below /usr/local/lib too; kmod reads
# modprobe.d only below /etc, /run and /lib, hence SYSCONFDIR for it.
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
MODULESLOADDIR ?= $(PREFIX)/lib/modules-load.d
SYSTEMDGENERATORDIR ?= $(PREFIX)/lib/systemd/system-generators
MODPROBEDIR ?= $(SYSCONFDIR)/modprobe.d
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
BINDIR ?= $(PREFIX)/bin
# The test bed (install-bed): its scripts and the C sources it builds at run time.
BEDDIR ?= $(PREFIX)/lib/rdmactl-testbed
DOCDIR ?= $(PREFIX)/share/doc
# The Ansible collection rdmactl.rxe (install-ansible), where ansible-core
# looks for collections with no setting.
ANSIBLEDIR ?= $(PREFIX)/share/ansible/collections/ansible_collections/rdmactl/rxe
ANSIBLE_FILES := $(filter-out %.pyc,$(shell find tools/ansible -type f 2>/dev/null))
DESTDIR ?=

CC ?= cc
PKG_CONFIG ?= pkg-config
CFLAGS ?= -O2 -g
LIBS_PC := libmnl libibverbs librdmacm libkmod json-c zlib libpcap libbpf libsystemd

WARNINGS := -Wall -Wextra -Wformat=2 -Wstrict-prototypes -Wmissing-prototypes \
	-Wshadow -Wvla
PC_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(LIBS_PC) 2>/dev/null)
PC_LIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_PC) 2>/dev/null) -pthread
# rdmactl itself links only what every command may use (libmnl); libibverbs,
# librdmacm, libkmod, json-c, zlib, libpcap, libbpf and libsystemd are opened at their first use (src/lazy),
# so a command that does not use them does not load them (nor libnl,
# libcrypto, liblzma, libzstd).
LIBS_EAGER := libmnl
MAIN_LIBS := $(shell $(PKG_CONFIG) --libs $(LIBS_EAGER) 2>/dev/null) -ldl -pthread
# User CFLAGS come last but warnings are appended so they cannot be lost.
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Isrc -DVERSION='"$(VERSION)"' -MMD -MP \
	$(PC_CFLAGS) $(CPPFLAGS) $(CFLAGS) $(WARNINGS)
SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

ifeq ($(V),1)
Q :=
msg = @true
else
Q := @
msg = @printf '  %-7s %s\n' $(1) $(2)
endif

# src/LAYER/*.c; src/tests and src/fuzz hold the unit tests and fuzz targets.
SRCS := $(filter-out src/tests/% src/fuzz/% %.bpf.c,$(wildcard src/*/*.c src/*/*/*.c))
OBJS := $(SRCS:src/%.c=build/obj/%.o)
UNIT_SRCS := $(wildcard src/tests/test_*.c)
UNIT_NAMES := $(UNIT_SRCS:src/tests/%.c=%)
UNIT_BINS := $(UNIT_NAMES:%=build/tests/%) $(UNIT_NAMES:%=build/asan/%)
SCRIPTS := tools/rxe-vm tools/vm/stage2 tools/install-deps tools/stacks-report \
	tools/run-tests tools/image tools/boot-soak tools/copy-tree tools/vm/chroot-run tools/demo tools/bench tools/fuzz tools/capture-corpus tools/capture-packets tools/capture-logs tools/capture-records tools/capture-sysfs tools/make-fixtures ci/run .ci/run bats/vm2/run bats/vm2/peer bats/vm2/prepare bats/kube/prepare bats/vm/build-inside bats/listen.bash bats/boot/story \
	ci/github/install.sh ci/github/setup.sh ci/github/run.sh ci/bed/run.sh ci/bed/in-guest.sh \
	debian/tests/rxe debian/tests/link debian/tests/record

.PHONY: all bench check check-cloud check-boot check-stacks deb image demo fuzz fuzzers lint install install-bed install-ansible uninstall uninstall-bed uninstall-ansible clean unit-tests deps help pc-check

all: pc-check rdmactl docs/rdmactl.8 docs/rxe-vm.1 build/rdmactl.bash

# Bash completion, generated from the command tables so it cannot drift.
build/rdmactl.bash: rdmactl
	@mkdir -p build
	@echo '  GEN     $@'
	@./rdmactl help --format bash >$@.tmp && mv $@.tmp $@

help:
	@echo 'make            build rdmactl and its man page'
	@echo 'make check      install what the tests need, run every test tier'
	@echo 'make check-cloud  of those, the module tests on the cloud kernels and the VM tests on 6.12'
	@echo 'make check-boot   of those, the package booted under systemd in the bed'
	@echo 'make check-stacks of those, rdma-core tests, UCX, libfabric, NVMe-oF, NFS, MPI over a link'
	@echo 'make unit-tests the unit tests, plain and under ASan (build/tests/test_X [PATTERN])'
	@echo 'tools/run-tests TIER...  some tiers: unit fuzz offline offline-asan need no guest;'
	@echo '                bed vm2 kube fleet boot vm kernels cloud stacks boot guests (kube:'
	@echo '                the DaemonSet in podman; fleet: Ansible over SSH to two'
	@echo '                guests)'
	@echo 'docs/hacking.md one test at a time (offline, one VM file on one kernel), where code goes'
	@echo 'make deb        the Debian package in build/deb, checked by lintian'
	@echo 'make image      the container image of tools/kubernetes, offline from the package'
	@echo 'make demo       install what it needs, show Soft-RoCE working (in the VM bed'
	@echo '                when this kernel has no rdma_rxe)'
	@echo 'make fuzz       run each libFuzzer target for FUZZ_TIME seconds (default 60)'
	@echo 'make lint       cppcheck, shellcheck and ansible-lint'
	@echo 'make install    honours DESTDIR, PREFIX, SBINDIR, MANDIR (install-bed, install-ansible:'
	@echo '                the test bed, the Ansible collection)'
	@echo 'V=1             show the commands'

pc-check:
	@$(PKG_CONFIG) --exists $(LIBS_PC) || { \
		echo "missing development packages for: $(LIBS_PC)"; \
		echo "run tools/install-deps build (as root) first"; exit 1; }
	@command -v $(BPF_CLANG) >/dev/null && command -v $(BPFTOOL) >/dev/null || { \
		echo "missing $(BPF_CLANG) or $(BPFTOOL) (capture's eBPF program)"; \
		echo "run tools/install-deps build (as root) first"; exit 1; }

rdmactl: $(OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(OBJS) $(MAIN_LIBS)

# The version (debian/changelog's) is compiled into what prints it.
build/obj/cmd/help.o build/asan-obj/cmd/help.o: debian/changelog

build/obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$<)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The eBPF programs (src/kernel/NAME.bpf.c: capture's loopback, record's
# probes), built for any kernel with BTF (CO-RE) and embedded with their
# loaders as bpftool's skeletons.
BPF_CLANG ?= clang
# Debian puts bpftool in /usr/sbin, which a user's PATH may lack.
BPFTOOL ?= $(firstword $(wildcard /usr/sbin/bpftool /usr/bin/bpftool) bpftool)
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
# The kprobe's registers are the target's: libbpf's name for its architecture.
BPF_ARCH := $(shell $(CC) -dumpmachine | sed -e 's/-.*//' -e 's/x86_64/x86/' -e 's/aarch64/arm64/' \
	-e 's/powerpc64.*/powerpc/' -e 's/s390x/s390/' -e 's/riscv64/riscv/' -e 's/loongarch64/loongarch/')
BPF_PROGS := capture_loop record
.SECONDARY: $(BPF_PROGS:%=build/gen/%.bpf.o)
build/gen/%.bpf.o: src/kernel/%.bpf.c src/kernel/%.bpf.h
	@mkdir -p $(@D)
	$(call msg,BPF,$<)
	$(Q)$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Isrc $(if $(MULTIARCH),-I/usr/include/$(MULTIARCH)) \
		-Wall -Werror -c -o $@ $<

# record's probes read the kernel's types and the uverbs ABI from a header of their own.
build/gen/record.bpf.o: src/kernel/record_types.bpf.h

build/gen/%.skel.h: build/gen/%.bpf.o
	$(call msg,GEN,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf >$@.tmp && mv $@.tmp $@

$(foreach p,$(BPF_PROGS),$(eval build/obj/kernel/$(p).o build/asan-obj/kernel/$(p).o: build/gen/$(p).skel.h))
$(foreach p,$(BPF_PROGS),$(eval build/obj/kernel/$(p).o build/asan-obj/kernel/$(p).o: ALL_CFLAGS += -Ibuild/gen))

# The netlink transport and the RDMA messages over it.
NL_MODS := kernel/nl kernel/nldebug kernel/nldev kernel/safe kernel/errname
# The device model and what it reads through: named once, for the unit tests,
# the fuzz targets and the capture tool that link it.
MODEL_MODS := model/load model/sysfs model/model model/netlink model/port $(NL_MODS) \
	kernel/sysfs kernel/netdev kernel/verbs model/gid

# Each unit test (src/tests/test_X.c) links the modules listed here: the one it
# tests first, then only the pure lower-layer ones that one is built on.
TEST_MODS_cli := cli/grammar cli/help cli/complete cli/out kernel/errname kernel/release kernel/sysfs kernel/safe selftest/xport/parse
TEST_MODS_conf := model/conf model/names kernel/safe
TEST_MODS_failure := diag/failure diag/failure_match diag/failure_host diag/phrases \
	diag/failure_log diag/applog diag/kernlog \
	diag/rxelog diag/stacklog
TEST_MODS_gid := model/gid
TEST_MODS_record := kernel/uverbs diag/record model/gidrule kernel/errname $(TEST_MODS_failure) \
	$(MODEL_MODS)
TEST_MODS_journal := cli/journal cli/timespec cli/out kernel/errname kernel/release kernel/sysfs \
	kernel/safe
TEST_MODS_klog := kernel/klog
TEST_MODS_report := model/record model/record_peer kernel/safe kernel/sysfs kernel/errname
TEST_MODS_kprobe := kernel/kprobe kernel/sysfs kernel/safe
TEST_MODS_link := $(MODEL_MODS)
TEST_MODS_model := $(MODEL_MODS)
TEST_MODS_monitor := diag/monitor diag/monitor_sched diag/qpwatch model/qp diag/qpdiag model/counter $(MODEL_MODS)
TEST_MODS_names := model/names
TEST_MODS_phrases := diag/phrases
TEST_MODS_nl := $(NL_MODS)
TEST_MODS_nldev := kernel/nldev kernel/nl kernel/nldebug kernel/safe kernel/errname
TEST_MODS_proc := kernel/proc kernel/container kernel/safe kernel/sysfs
TEST_MODS_qp := model/qp diag/qpdiag model/counter $(MODEL_MODS)
TEST_MODS_qpwatch := diag/qpwatch model/qp diag/qpdiag model/counter $(MODEL_MODS)
TEST_MODS_out := cli/out kernel/errname kernel/release kernel/sysfs kernel/safe
TEST_MODS_sysfs := kernel/sysfs kernel/safe
TEST_MODS_sys := model/sys kernel/netns kernel/rtnl $(MODEL_MODS)
TEST_MODS_spawn := kernel/spawn
TEST_MODS_wire := selftest/wire selftest/fault model/gid
TEST_MODS_capture := model/capture model/capture_flows
TEST_MODS_capture_keep := model/capture_keep model/capture
TEST_MODS_stacks := checks/stacks/common checks/stacks/nccl checks/stacks/ucx \
	checks/stacks/libfabric checks/stacks/openmpi model/gidrule $(MODEL_MODS)
.SECONDEXPANSION:
test_srcs = src/tests/test_$*.c $(patsubst %,src/%.c,$(TEST_MODS_$*))

build/tests/test_%: $$(test_srcs)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -o $@ $^ $(PC_LIBS) -lcmocka

build/asan/test_%: $$(test_srcs)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SANITIZE) -Isrc -o $@ $^ $(PC_LIBS) -lcmocka

unit-tests: $(UNIT_BINS) build/asan/rdmactl build/tests/probe_bounds build/tests/qpfail \
	build/tools/nl-capture

# A hostile selftest client for the VM tests, built on rdmactl's own objects.
build/tests/probe_bounds: src/tests/probe_bounds.c $(filter-out build/obj/rdmactl/main.o,$(OBJS))
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -Isrc -o $@ $^ $(PC_LIBS)

# A user's RDMA program that fails one way and holds its QPs, for the VM
# tests: libibverbs alone, nothing of rdmactl's.
build/tests/qpfail: src/tests/qpfail.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $< $(shell $(PKG_CONFIG) --libs libibverbs)

# Records the netlink answers of a fixture (tools/capture-sysfs), from rdmactl's model.
CAPTURE_MODS := $(MODEL_MODS) model/qp diag/qpdiag model/counter
build/tools/nl-capture: tools/nl-capture.c $(CAPTURE_MODS:%=build/obj/%.o)
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(PC_LIBS)

# rdmactl itself under ASan and UBSan, for the offline tier's second run.
ASAN_OBJS := $(SRCS:src/%.c=build/asan-obj/%.o)

build/asan-obj/%.o: src/%.c
	@mkdir -p $(@D)
	$(call msg,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) $(SANITIZE) -c -o $@ $<

build/asan/rdmactl: $(ASAN_OBJS)
	@mkdir -p $(@D)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(CFLAGS) $(SANITIZE) $(LDFLAGS) -o $@ $(ASAN_OBJS) $(MAIN_LIBS)

# libFuzzer targets (src/fuzz/fuzz_X.c), built with clang under ASan and UBSan,
# each linking the parser it feeds and that parser's pure dependencies.
FUZZ_CC ?= clang
FUZZ_NAMES := $(patsubst src/fuzz/%.c,%,$(wildcard src/fuzz/fuzz_*.c))
FUZZ_BINS := $(FUZZ_NAMES:%=build/fuzz/%)
FUZZ_DEPS_wire := selftest/wire selftest/fault model/gid
FUZZ_DEPS_pingpong := selftest/wire selftest/fault model/gid
FUZZ_DEPS_netlink := $(NL_MODS)
FUZZ_DEPS_conf := model/conf model/names kernel/safe
FUZZ_DEPS_sysfs := $(MODEL_MODS)
FUZZ_DEPS_capture := model/capture model/capture_flows
FUZZ_TIME ?= 60
fuzz_srcs = src/fuzz/fuzz_$*.c $(patsubst %,src/%.c,$(FUZZ_DEPS_$*))

build/fuzz/fuzz_%: $$(fuzz_srcs)
	@mkdir -p $(@D)
	$(call msg,FUZZCC,$@)
	$(Q)$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -g -O1 $(PC_CFLAGS) $(WARNINGS) -Isrc \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc -o $@ $^ $(PC_LIBS)

fuzzers: $(FUZZ_BINS)

# Each target for FUZZ_TIME seconds, growing its corpus in src/fuzz/corpus.
fuzz:
	tools/install-deps fuzz
	$(MAKE) fuzzers
	tools/fuzz --time $(FUZZ_TIME) --grow

# The man page's synopses come from the command tree (rdmactl help --format
# scdoc), each in place of its "@PATH@" line; a path the tree lacks is an error.
build/rdmactl.8.scd: docs/rdmactl.8.scd.in rdmactl
	@mkdir -p $(@D)
	$(call msg,GEN,$@)
	$(Q)./rdmactl help --format scdoc >$@.syn
	$(Q)awk -F '\t' 'NR == FNR { syn[$$1] = substr($$0, length($$1) + 2); next } \
		/^@.*@$$/ { k = substr($$0, 2, length($$0) - 2); \
			if (!(k in syn)) { print "no command " k > "/dev/stderr"; exit 1 } \
			print syn[k]; used[k] = 1; next } { print } \
		END { for (k in syn) if (!(k in used)) { print "undocumented: " k > "/dev/stderr"; exit 1 } }' \
		$@.syn $< >$@.tmp && mv $@.tmp $@

# The first line tells man to run tbl: the page has tables (lintian checks).
docs/rdmactl.8: build/rdmactl.8.scd
	$(call msg,SCDOC,$@)
	$(Q){ printf '%s\n' "'\\\" t"; scdoc <$<; } >$@.tmp && mv $@.tmp $@

docs/rxe-vm.1: docs/rxe-vm.1.scd
	$(call msg,SCDOC,$@)
	$(Q)scdoc <$< >$@.tmp && mv $@.tmp $@

deps:
	tools/install-deps all

# Dependencies first, then a fresh make: pkg-config is read when make starts.
# Every tier (tools/run-tests); the guests of the boot, vm, kernel, cloud and
# stacks tiers in one pool, two at a time. CI runs this.
check:
	tools/install-deps test stacks
	$(MAKE) -j$$(nproc) all unit-tests fuzzers
	tools/run-tests

# Some tiers of check alone, for working on them: the module tests on the
# cloud kernels and the VM tests on 6.12;
check-cloud:
	tools/install-deps test
	$(MAKE) all
	tools/run-tests cloud

# the package booted under systemd;
check-boot:
	tools/install-deps test
	$(MAKE) all
	tools/run-tests boot

# the stacks over a link (rdma-core's tests, UCX, libfabric, NVMe-oF, NFS,
# Open MPI) on 6.12, their results written into docs/stacks.md.
check-stacks:
	tools/install-deps test stacks
	$(MAKE) all
	tools/run-tests stacks

# The Debian package, from a clean tree, into build/deb; lintian must pass it.
deb:
	tools/install-deps deb
	dpkg-buildpackage -us -uc -b
	mkdir -p build/deb
	mv ../rdmactl*_$(VERSION)_*.deb ../rdmactl_$(VERSION)_*.buildinfo \
		../rdmactl_$(VERSION)_*.changes build/deb/
	lintian --fail-on error,warning --info build/deb/rdmactl_$(VERSION)_*.changes

# The container image of the DaemonSet (tools/kubernetes, docs/fleets.md),
# offline from the package: build/image/rdmactl-image.tar, for 'podman load'.
image: deb
	tools/install-deps image
	tools/image build/deb/rdmactl_$(VERSION)_amd64.deb build/image

# Not part of check: it boots the bed for a while and rewrites docs/benchmarks.md.
bench:
	tools/install-deps bench
	$(MAKE) all build/tests/qpfail
	tools/bench

demo:
	tools/install-deps vm
	$(MAKE) all
	tools/demo

# The generated completion too: what users source is held to the same checks.
lint: build/rdmactl.bash
	tools/install-deps lint
	cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
		--std=c11 --inline-suppr --suppress=missingIncludeSystem -Isrc \
		$(patsubst %,-isrc/kernel/%.bpf.c,$(BPF_PROGS)) src
	# The eBPF program apart, with libbpf's section macro: its structs are
	# CO-RE's names of the kernel's fields, read through macros cppcheck does not follow.
	cppcheck --quiet --error-exitcode=1 --enable=warning,style,performance,portability \
		--std=c11 --suppress=missingIncludeSystem --suppress=unusedStructMember -Isrc \
		-D'SEC(x)=' -D__TARGET_ARCH_$(BPF_ARCH) $(patsubst %,src/kernel/%.bpf.c,$(BPF_PROGS))
	shellcheck -x -S warning $(SCRIPTS) bats/helpers.bash bats/deb.bash bats/sshd.bash bats/stacks/stacks.bash bats/fixtures/outside-project/test.sh
	shellcheck -s bash -S warning build/rdmactl.bash
	shellcheck -s sh -S warning modules/rdmactl-generator.in
	@# The GitLab template's jobs, as the runner's bash runs each: its lines in turn.
	for j in .rdmactl .rdmactl-bed; do \
		python3 -c 'import sys, yaml; j = yaml.safe_load(open(sys.argv[1]))[sys.argv[2]]; \
			print("\n".join(j["before_script"] + j.get("script", [])))' ci/gitlab/rdmactl.yml "$$j" | \
			shellcheck -s bash -S warning - || exit 1; \
	done
	cd tools/ansible && ansible-lint -q

SUBST = sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@CONFIG@|$(SYSCONFDIR)/rdmactl/rxe.conf|g'

install: all
	install -D -m 0755 rdmactl $(DESTDIR)$(SBINDIR)/rdmactl
	install -D -m 0644 docs/rdmactl.8 $(DESTDIR)$(MANDIR)/man8/rdmactl.8
	@# The units name the installed binary: made here, with install's own SBINDIR.
	install -d $(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSTEMDGENERATORDIR)
	$(SUBST) modules/rdmactl.service.in >$(DESTDIR)$(SYSTEMDUNITDIR)/rdmactl.service
	$(SUBST) modules/rdmactl-link@.service.in >'$(DESTDIR)$(SYSTEMDUNITDIR)/rdmactl-link@.service'
	$(SUBST) modules/rdmactl-monitor.service.in >$(DESTDIR)$(SYSTEMDUNITDIR)/rdmactl-monitor.service
	$(SUBST) modules/rdmactl-generator.in >$(DESTDIR)$(SYSTEMDGENERATORDIR)/rdmactl-generator
	chmod 0755 $(DESTDIR)$(SYSTEMDGENERATORDIR)/rdmactl-generator
	install -D -m 0644 modules/rdmactl-modules-load.conf $(DESTDIR)$(MODULESLOADDIR)/rdmactl.conf
	install -D -m 0644 modules/rdmactl-modprobe.conf $(DESTDIR)$(MODPROBEDIR)/rdmactl.conf
	install -D -m 0644 build/rdmactl.bash $(DESTDIR)$(BASHCOMPDIR)/rdmactl
	@# The persistent-links file is the administrator's: never overwritten.
	[ -e $(DESTDIR)$(SYSCONFDIR)/rdmactl/rxe.conf ] || \
		install -D -m 0644 modules/rxe.conf $(DESTDIR)$(SYSCONFDIR)/rdmactl/rxe.conf

# The test bed, on PATH as rxe-vm: runs any project's tests in the bed.
BED_VM := $(wildcard tools/vm/*.sh tools/vm/*.c tools/vm/*.h) tools/vm/stage2 tools/vm/chroot-run
install-bed: docs/rxe-vm.1
	install -d $(DESTDIR)$(BEDDIR)/vm $(DESTDIR)$(BINDIR)
	install -m 0755 tools/rxe-vm tools/install-deps $(DESTDIR)$(BEDDIR)/
	install -m 0644 $(filter-out tools/vm/stage2 tools/vm/chroot-run,$(BED_VM)) $(DESTDIR)$(BEDDIR)/vm/
	@# Stage 2 runs in the guest, under the busybox the initramfs puts in /run/rxe-vm.
	install -m 0755 tools/vm/stage2 tools/vm/chroot-run $(DESTDIR)$(BEDDIR)/vm/
	ln -sf $(shell realpath -m --relative-to=$(BINDIR) $(BEDDIR))/rxe-vm $(DESTDIR)$(BINDIR)/rxe-vm
	install -D -m 0644 docs/rxe-vm.1 $(DESTDIR)$(MANDIR)/man1/rxe-vm.1
	install -D -m 0644 docs/ci.md $(DESTDIR)$(DOCDIR)/rdmactl-testbed/ci.md

# The Ansible collection, as ansible-galaxy would install it from the checkout.
install-ansible:
	for f in $(ANSIBLE_FILES:tools/ansible/%=%); do \
		install -D -m 0644 "tools/ansible/$$f" "$(DESTDIR)$(ANSIBLEDIR)/$$f" || exit 1; \
	done
	install -D -m 0644 docs/fleets.md $(DESTDIR)$(DOCDIR)/rdmactl-ansible/fleets.md

uninstall-ansible:
	rm -rf $(DESTDIR)$(ANSIBLEDIR) $(DESTDIR)$(DOCDIR)/rdmactl-ansible

uninstall-bed:
	rm -rf $(DESTDIR)$(BEDDIR)
	rm -f $(DESTDIR)$(BINDIR)/rxe-vm $(DESTDIR)$(MANDIR)/man1/rxe-vm.1
	rm -rf $(DESTDIR)$(DOCDIR)/rdmactl-testbed

uninstall:
	rm -f $(DESTDIR)$(SBINDIR)/rdmactl $(DESTDIR)$(MANDIR)/man8/rdmactl.8 \
		$(DESTDIR)$(SYSTEMDUNITDIR)/rdmactl.service \
		'$(DESTDIR)$(SYSTEMDUNITDIR)/rdmactl-link@.service' \
		$(DESTDIR)$(SYSTEMDUNITDIR)/rdmactl-monitor.service \
		$(DESTDIR)$(SYSTEMDGENERATORDIR)/rdmactl-generator \
		$(DESTDIR)$(MODULESLOADDIR)/rdmactl.conf $(DESTDIR)$(MODPROBEDIR)/rdmactl.conf \
		$(DESTDIR)$(BASHCOMPDIR)/rdmactl

clean:
	rm -rf build rdmactl docs/*.8 docs/*.1

-include $(OBJS:.o=.d) $(ASAN_OBJS:.o=.d)
