// SPDX-License-Identifier: GPL-2.0-or-later
/* Checks of the host: kernel, modules, device nodes, libibverbs, memlock. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "checks/checks.h"
#include "kernel/container.h"
#include "kernel/kconfig.h"
#include "kernel/kmods.h"
#include "kernel/release.h"
#include "kernel/roce.h"
#include "kernel/safe.h"
#include "kernel/nl.h"
#include "kernel/sysfs.h"
#include "kernel/verbs.h"

#define FIX_KERNEL "boot a kernel with CONFIG_RDMA_RXE=m (Debian's linux-image-amd64 has it)"
/* The RDMA core is there, only rdma_rxe is not: it can be built for this kernel. */
#define FIX_MODULE "rdmactl module install (builds rdma_rxe from the kernel's own source " \
	"with DKMS); or " FIX_KERNEL

/* The release of the kernel checked: the fixture's, or the running one. */
static const char *release(const struct check_ctx *c)
{
	return release_name(c->sys->root);
}

/* rdma_rxe is installed for the running kernel (live system only). */
static bool rxe_installed(const struct check_ctx *c)
{
	struct kmods *km;
	bool found;

	if (!check_ctx_live(c) || kmods_open(&km))
		return false;
	found = kmods_state(km, "rdma_rxe") != KMOD_ABSENT;
	kmods_close(km);
	return found;
}

/* What the kernel check looks at: the config's options, RDMA netlink, sysfs. */
struct kernel_facts {
	char missing[256];	/* the options the config lacks, comma separated */
	char source[256];	/* where the config was read; "" when none was */
	int nl_err;
	bool have_sysfs, rxe_outside;
};

/*
 * F filled, and C->no_rxe set: without rdma_rxe, or RDMA at all, what needs
 * it skips. With PROBE, RDMA netlink is asked too: opening its socket loads
 * ib_core where it can, which only the kernel check's own row may do.
 */
static void kernel_facts(struct check_ctx *c, struct kernel_facts *f, bool probe)
{
	static const char *const opts[] = {
		"CONFIG_INFINIBAND", "CONFIG_RDMA_RXE", "CONFIG_INFINIBAND_USER_ACCESS",
		"CONFIG_INFINIBAND_USER_MEM",
	};
	struct kconfig k;
	struct nl *nl = NULL;
	bool have_conf = kconfig_load(c->sys->root, release(c), &k) == 0;

	memset(f, 0, sizeof(*f));
	f->nl_err = probe && check_ctx_live(c) ? model_sys_rdma(c->sys, &nl) : 0;
	f->have_sysfs = sysfs_exists(c->sys->root, "/sys/class/infiniband");
	for (size_t i = 0; have_conf && i < sizeof(opts) / sizeof(opts[0]); i++) {
		if (kconfig_value(&k, opts[i]) != 'n')
			continue;
		/* An rdma_rxe built outside the kernel's tree stands in for the option. */
		if (!strcmp(opts[i], "CONFIG_RDMA_RXE") && rxe_installed(c)) {
			f->rxe_outside = true;
			continue;
		}
		snprintf(f->missing + strlen(f->missing), sizeof(f->missing) - strlen(f->missing),
			 "%s%s", *f->missing ? ", " : "", opts[i]);
	}
	if (have_conf) {
		snprintf(f->source, sizeof(f->source), "%s", k.source);
		kconfig_free(&k);
	}
	c->no_rxe = *f->missing != '\0' || f->nl_err == -EPROTONOSUPPORT;
}

void check_kernel_assess(struct check_ctx *c)
{
	struct kernel_facts f;

	/* The config alone: 'check --only modules' must not load ib_core itself. */
	kernel_facts(c, &f, false);
}

void check_kernel(struct check_ctx *c)
{
	struct kernel_facts f;

	kernel_facts(c, &f, true);
	if (*f.missing)
		check_report(c, V_FAIL, !strcmp(f.missing, "CONFIG_RDMA_RXE") ? FIX_MODULE : FIX_KERNEL,
			     "kernel %s was built without %s (%s)", release(c), f.missing, f.source);
	else if (f.nl_err == -EPROTONOSUPPORT)
		check_report(c, V_FAIL, FIX_KERNEL,
			     "kernel %s has no RDMA netlink (EPROTONOSUPPORT): CONFIG_INFINIBAND is off or "
			     "ib_core cannot load%s", release(c), *f.source ? "" : " (no kernel config found)");
	else if (f.nl_err)
		check_report(c, V_FAIL, "modprobe ib_core; dmesg | tail", "the RDMA netlink socket cannot be opened (%s)",
			     strerror(-f.nl_err));
	else if (!f.have_sysfs)
		check_report(c, V_FAIL, "modprobe ib_core",
			     "/sys/class/infiniband is missing: the RDMA core is not loaded");
	else
		check_report(c, V_PASS, NULL, "kernel %s: %s present; %s", release(c),
			     check_ctx_live(c) ? "RDMA netlink and /sys/class/infiniband" :
			     "/sys/class/infiniband (a fixture: RDMA netlink not asked)",
			     !*f.source ? "no kernel config to read (/boot/config-*, /proc/config.gz)" :
			     f.rxe_outside ? "CONFIG_INFINIBAND, CONFIG_INFINIBAND_USER_ACCESS, "
			     "CONFIG_INFINIBAND_USER_MEM set; rdma_rxe is installed apart from the kernel's "
			     "build" : "CONFIG_INFINIBAND, CONFIG_RDMA_RXE, CONFIG_INFINIBAND_USER_ACCESS, "
			     "CONFIG_INFINIBAND_USER_MEM set");
}

/* vermagic's first word is the kernel release the module was built for. */
static bool vermagic_matches(const struct check_ctx *c, const char *vermagic)
{
	size_t len = strcspn(vermagic, " ");

	return strlen(release(c)) == len && !strncmp(vermagic, release(c), len);
}

static void module_file(struct check_ctx *c, struct kmods *km)
{
	char vermagic[256], depends[512], *save = NULL;
	struct safe_path sp;
	int err = safe_resolve(c->o.module_file, &sp);

	/* libkmod opens it as it finds it: a FIFO would hold the check forever. */
	if (err == -ENOTREG || err == -ENOENT) {
		check_report(c, V_FAIL, "give the path of a .ko file", err == -ENOENT ?
			     "%s: no such file" : "%s is %s, not a kernel module file",
			     c->o.module_file, safe_type_name(sp.type));
		return;
	}
	err = kmods_info(km, sp.target, true, vermagic, sizeof(vermagic), depends,
			 sizeof(depends));
	if (err) {
		check_report(c, V_FAIL, "give the path of a .ko file built for this kernel",
			     "%s is not a kernel module libkmod can read (%s)",
			     c->o.module_file, strerror(-err));
		return;
	}
	if (!vermagic_matches(c, vermagic))
		check_report(c, V_FAIL, "rebuild it against this kernel: make -C /lib/modules/$(uname -r)/build M=$PWD",
			     "%s was built for kernel '%.*s', this is %s: it will not load", c->o.module_file,
			     (int)strcspn(vermagic, " "), vermagic, release(c));
	else
		check_report(c, V_PASS, NULL, "%s was built for this kernel (%s)", c->o.module_file, release(c));
	for (char *d = strtok_r(depends, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		enum kmod_state s = kmods_state(km, d);

		if (s == KMOD_ABSENT)
			check_report(c, V_FAIL, "rebuild it against this kernel: make -C /lib/modules/$(uname -r)/build M=$PWD",
				     "%s needs module %s, which this kernel does not have",
				     c->o.module_file, d);
		else if (s == KMOD_AVAILABLE) {
			char fix[160];

			snprintf(fix, sizeof(fix), "modprobe %s", d);
			check_report(c, V_WARN, fix, "%s needs %s loaded first: 'modprobe %s' before insmod, "
				     "or install it and use modprobe", c->o.module_file, d, d);
		}
	}
}

/* Whether the loaded rdma_rxe asks the crypto API for a crc32 algorithm. */
static bool rxe_wants_crc32_alg(const struct check_ctx *c, struct kmods *km)
{
	int r = kmods_imports(km, "rdma_rxe", "crypto_alloc_shash");

	return r >= 0 ? r == 1 : release_before(c->sys->root, 6, 15);
}

/* Module NAME of rxe's, vetted: installed, loaded, built for this kernel, tainting it or not. */
static bool module_ok(struct check_ctx *c, struct kmods *km, const char *name)
{
	char vermagic[256], depends[512], taint[16];
	enum kmod_state s = kmods_state(km, name);
	bool ok = true;

	if (s == KMOD_ABSENT) {
		check_report(c, V_FAIL, FIX_KERNEL, "module %s is not installed for kernel %s", name,
			     release(c));
		return false;
	}
	if (s == KMOD_AVAILABLE) {
		check_report(c, V_WARN, "rdmactl start", "module %s is installed but not loaded "
			     "('rdmactl start' loads the Soft-RoCE modules; or modprobe %s)", name, name);
		ok = false;
	}
	if (s != KMOD_BUILTIN &&
	    kmods_info(km, name, false, vermagic, sizeof(vermagic), depends, sizeof(depends)) == 0 &&
	    *vermagic && !vermagic_matches(c, vermagic)) {
		check_report(c, V_FAIL, "install the modules of the running kernel, or rebuild the module",
			     "module %s was built for kernel '%.*s', not %s", name,
			     (int)strcspn(vermagic, " "), vermagic, release(c));
		ok = false;
	}
	if (s == KMOD_LOADED &&
	    sysfs_read(c->sys->root, taint, sizeof(taint), "/sys/module/%s/taint", name) > 0 &&
	    strpbrk(taint, "OE")) {
		taint[strcspn(taint, "\n")] = '\0';
		check_report(c, V_WARN, strchr(taint, 'O') ? "rdmactl module remove (back to the kernel's own, if it has one)" :
			     "sign the module with a key the kernel trusts (mokutil --import), or use the kernel's own",
			     "the loaded %s taints the kernel %s:%s%s%s", name, taint,
			     strchr(taint, 'O') ? " it is built out of the kernel's tree (if RDMA "
			     "misbehaves, try the kernel's own module)" : "",
			     strchr(taint, 'O') && strchr(taint, 'E') ? ";" : "",
			     strchr(taint, 'E') ? " it is not signed by a key the kernel trusts "
			     "(\"module verification failed\") and loads only because signatures "
			     "are not enforced" : "");
		ok = false;
	}
	return ok;
}

/*
 * rdma_rxe up to 6.14 computes its ICRC with the crypto API's crc32,
 * which it allocates (crypto_alloc_shash) at link add; from 6.15 with
 * the kernel's crc32 library, which needs no algorithm. The module's
 * own imports say which; where they cannot, its version does.
 */
static bool crc32_ok(struct check_ctx *c, struct kmods *km)
{
	char crypto[1 << 15];

	if (kmods_state(km, "rdma_rxe") != KMOD_LOADED || !rxe_wants_crc32_alg(c, km))
		return true;
	if (sysfs_read(c->sys->root, crypto, sizeof(crypto), "/proc/crypto") > 0 &&
	    !strstr(crypto, "name         : crc32\n") && kmods_state(km, "crc32_generic") != KMOD_BUILTIN) {
		check_report(c, V_FAIL, "modprobe crc32_generic",
			     "no crc32 algorithm is registered: rdma_rxe cannot compute the ICRC");
		return false;
	}
	return true;
}

void check_modules(struct check_ctx *c)
{
	const char *const *mods = rxe_modules;
	struct kmods *km;
	bool all_ok = true;

	if (!check_ctx_live(c)) {
		check_report(c, V_SKIP, NULL, "modules are checked on the live system only");
		return;
	}
	if (kmods_open(&km)) {
		check_report(c, V_FAIL, "depmod -a", "the module index of kernel %s cannot be read", release(c));
		return;
	}
	/* A module of one's own is vetted whatever this kernel lacks: most often rdma_rxe. */
	if (c->o.module_file)
		module_file(c, km);
	/* Without rdma_rxe only the log can say more: an rdma_rxe of one's own that failed. */
	if (c->no_rxe) {
		if (!check_modules_log(c, km))
			check_report(c, V_SKIP, NULL, "rdma_rxe cannot be loaded on this kernel (see the "
				     "kernel check)");
		kmods_close(km);
		return;
	}
	for (size_t i = 0; i < RXE_NMODULES; i++)
		all_ok = module_ok(c, km, mods[i]) && all_ok;
	all_ok = crc32_ok(c, km) && all_ok;
	if (check_modules_log(c, km))
		all_ok = false;
	_Static_assert(RXE_NMODULES == 4, "the pass message names each module");
	if (all_ok)
		check_report(c, V_PASS, NULL, "%s, %s, %s and %s are loaded (or built in) and built for %s",
			     mods[0], mods[1], mods[2], mods[3], release(c));
	kmods_close(km);
}

/* FIX for a user of no container, or the flag or field of the runtime the check runs in. */
static const char *in_container(struct check_ctx *c, const char *fix, const char *docker,
				const char *k8s, char *buf, size_t len)
{
	enum container_kind k = (enum container_kind)check_ctx_container(c);

	if (k == CONTAINER_NONE)
		return fix;
	if (k == CONTAINER_KUBERNETES)
		snprintf(buf, len, "in the pod's spec (this is a Kubernetes pod): %s", k8s);
	else if (k == CONTAINER_DOCKER || k == CONTAINER_PODMAN)
		snprintf(buf, len, "start the container with %s (this is %s: %s run)", docker,
			 container_name(k), k == CONTAINER_DOCKER ? "docker" : "podman");
	else
		snprintf(buf, len, "from the host (this is a container): %s; or with Docker or Podman "
			 "%s", fix, docker);
	return buf;
}

#define K8S_DEVICE "the RDMA device plugin's resource in the container's resources.limits " \
	"(or securityContext.privileged: true)"

void check_uverbs(struct check_ctx *c)
{
	const struct rdma_dev *devs[64];
	size_t n = check_ctx_rxe_devs_or_skip(c, devs, 64);
	char path[64], want[32], fix[160], flag[128], buf[384];
	struct stat st;
	bool ok = true;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct rdma_dev *d = devs[i];
		unsigned int maj, min;
		int fd = -1;

		if (!*d->uverbs) {
			check_report(c, V_FAIL, "modprobe ib_uverbs",
				     "%s has no uverbs node: ib_uverbs is not loaded, so no program can use it",
				     d->name);
			ok = false;
			continue;
		}
		snprintf(path, sizeof(path), "/dev/infiniband/%s", d->uverbs);
		if (sysfs_read(c->sys->root, want, sizeof(want), "/sys/class/infiniband_verbs/%s/dev",
			       d->uverbs) <= 0 || sscanf(want, "%u:%u", &maj, &min) != 2)
			continue;
		snprintf(fix, sizeof(fix), "mkdir -p /dev/infiniband && mknod -m 666 %s c %u %u",
			 path, maj, min);
		snprintf(flag, sizeof(flag), "--device %s", path);
		if (!check_ctx_live(c))
			continue;
		if (stat(path, &st) < 0) {
			check_report(c, V_FAIL, in_container(c, fix, flag, K8S_DEVICE, buf, sizeof(buf)),
				     "%s (%s's uverbs node) does not exist: %s", path, d->name,
				     check_ctx_container(c) ? "the container was not given it" :
				     "no devtmpfs or udev made it");
			ok = false;
		} else if (!S_ISCHR(st.st_mode) || major(st.st_rdev) != maj ||
			   minor(st.st_rdev) != min) {
			check_report(c, V_FAIL, fix, "%s is not character device %u:%u, which %s is", path, maj,
				     min, d->name);
			ok = false;
		} else if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0 && errno == EPERM) {
			/* The node is there: the device cgroup refuses it (a mode gives EACCES). */
			snprintf(fix, sizeof(fix), "allow character device %u:%u in this cgroup's device "
				 "list (rw)", maj, min);
			check_report(c, V_FAIL, in_container(c, fix, flag, K8S_DEVICE, buf, sizeof(buf)),
				     "%s cannot be opened (EPERM): the device cgroup does not allow "
				     "character device %u:%u, though the node is there", path, maj, min);
			ok = false;
		} else if (fd < 0 && errno == EACCES) {
			snprintf(fix, sizeof(fix), "chmod 666 %s", path);
			check_report(c, V_FAIL, fix, "%s is not readable and writable by this user (uid %u); "
				     "for good, a udev rule giving your group access to /dev/infiniband", path,
				     getuid());
			ok = false;
		}
		if (fd >= 0)
			close(fd);
	}
	if (check_ctx_live(c) && stat("/dev/infiniband/rdma_cm", &st) < 0) {
		check_report(c, V_WARN, in_container(c, "modprobe rdma_ucm", "--device "
			     "/dev/infiniband/rdma_cm", K8S_DEVICE, buf, sizeof(buf)),
			     "/dev/infiniband/rdma_cm does not exist: rdma_cm programs (rping, most MPIs) fail");
		ok = false;
	}
	if (ok)
		check_report(c, V_PASS, NULL, "every rxe device has its uverbs node%s",
			     check_ctx_live(c) ? ", usable by this user; rdma_cm is there" : "");
}

void check_provider(struct check_ctx *c)
{
	const struct rdma_dev *devs[64];
	size_t n = check_ctx_rxe_devs(c, devs, 64);
	bool ok = true;

	if (!check_ctx_live(c)) {
		check_report(c, V_SKIP, NULL, "libibverbs is checked on the live system only");
		return;
	}
	if (access("/etc/libibverbs.d/rxe.driver", R_OK) < 0) {
		check_report(c, V_FAIL, "apt-get install ibverbs-providers",
			     "libibverbs has no rxe provider: /etc/libibverbs.d/rxe.driver is missing");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!*devs[i]->uverbs)
			continue;	/* the uverbs check says why */
		if (!verbs_lists(devs[i]->name)) {
			check_report(c, V_FAIL, "apt-get install --reinstall ibverbs-providers libibverbs1",
				     "libibverbs does not list %s, which sysfs has: its rxe provider did not "
				     "load (try IBV_SHOW_WARNINGS=1 ibv_devices)", devs[i]->name);
			ok = false;
		}
	}
	if (ok)
		check_report(c, V_PASS, NULL, "libibverbs has an rxe provider%s", n ? " and lists every rxe "
			     "device" : "");
}

void check_memlock(struct check_ctx *c)
{
	struct rlimit rl;

	/* A limit of this process: a fixture captured elsewhere says nothing of it. */
	if (!check_ctx_live(c)) {
		check_report(c, V_SKIP, NULL, "the memlock limit is checked on the running system only");
		return;
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) < 0) {
		check_report(c, V_SKIP, NULL, "RLIMIT_MEMLOCK cannot be read");
		return;
	}
	/* ib_umem_get lets CAP_IPC_LOCK (of the initial user namespace) pin past the limit. */
	if (container_can_lock_memory("")) {
		check_report(c, V_PASS, NULL, "%s CAP_IPC_LOCK: the memlock limit does not bind memory "
			     "registration", geteuid() == 0 ? "root with" : "this process has");
		return;
	}
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur <= 64 * 1024) {
		/* A user namespace of its own: a capability here is no capability there. */
		bool own = container_userns_own("");
		const char *flag = container_rootless("") ? "--ulimit memlock=-1:-1, within the "
				   "hard limit of the user who runs the rootless engine, which it "
				   "cannot raise" :
				   own ? "--ulimit memlock=-1:-1 (--cap-add IPC_LOCK does not lift it "
				   "in a user namespace of the container's own)" :
				   "--ulimit memlock=-1 (or --cap-add IPC_LOCK)";
		const char *why = geteuid() != 0 ? "" :
				  !own ? " and this root has no CAP_IPC_LOCK" :
				  container_has_cap_ipc_lock("") ? " and this root's CAP_IPC_LOCK, of "
				  "a user namespace of its own, does not lift it" :
				  " and this root, of a user namespace of its own, has no CAP_IPC_LOCK";
		char msg[64], fix[384];

		snprintf(msg, sizeof(msg), "%llu KiB", (unsigned long long)rl.rlim_cur / 1024);
		check_report(c, V_WARN, in_container(c, "ulimit -l unlimited", flag,
			     "securityContext.capabilities.add: [\"IPC_LOCK\"]", fix, sizeof(fix)),
			     "RLIMIT_MEMLOCK is %s%s: ibv_reg_mr of more than that fails with ENOMEM for this "
			     "%s; for good, '* - memlock unlimited' in /etc/security/limits.d/rdma.conf, "
			     "and LimitMEMLOCK=infinity for services", msg, why,
			     geteuid() == 0 ? "process" : "user");
		return;
	}
	if (rl.rlim_cur == RLIM_INFINITY)
		check_report(c, V_PASS, NULL, "RLIMIT_MEMLOCK is unlimited");
	else
		check_report(c, V_PASS, NULL, "RLIMIT_MEMLOCK is %llu KiB",
			     (unsigned long long)rl.rlim_cur / 1024);
}
