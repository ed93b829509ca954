// SPDX-License-Identifier: GPL-2.0-or-later
/* One explainer per kernel operation: each errno it can return, said once, here. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kernel/holders.h"
#include "kernel/kbuild.h"
#include "kernel/kconfig.h"
#include "kernel/kmods.h"
#include "kernel/netdev.h"
#include "kernel/release.h"
#include "kernel/safe.h"
#include "kernel/sysfs.h"
#include "model/model.h"
#include "ops/op_err.h"

static void vadd(struct op_err *e, const char *fmt, va_list ap)
{
	size_t len = strlen(e->what);

	if (len && len + 1 < sizeof(e->what))
		e->what[len++] = '\n';
	vsnprintf(e->what + len, sizeof(e->what) - len, fmt, ap);
}

/* E made afresh: ERR, the kernel's EXT, and FMT's words. */
static int vset(struct op_err *e, int err, const char *ext, const char *fmt, va_list ap)
{
	e->err = err;
	snprintf(e->ext, sizeof(e->ext), "%s", ext ? ext : "");
	e->what[0] = '\0';
	vadd(e, fmt, ap);
	return err;
}

int op_err_set(struct op_err *e, int err, const char *ext, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(e, err, ext, fmt, ap);
	va_end(ap);
	return err;
}

void op_err_add(struct op_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vadd(e, fmt, ap);
	va_end(ap);
}

/* CAP_NET_ADMIN (bit 12) in this process's effective set. */
static bool have_net_admin(void)
{
	char line[256];
	unsigned long long caps = 0;
	FILE *f = safe_fopen("/proc/self/status");

	if (!f)
		return geteuid() == 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return caps & (1ULL << 12);
}

static const char no_priv[] = "this needs root or CAP_NET_ADMIN";

/* The kernel at ROOT has no RDMA at all (WHY says how that is known): the one hint that works. */
static int no_rdma(struct op_err *e, int err, const char *root, const char *why)
{
	return op_err_set(e, err, NULL, "the running kernel (%s) has no RDMA support: %s\n"
			  "boot a kernel with CONFIG_INFINIBAND and CONFIG_RDMA_RXE, such as "
			  "Debian's linux-image-amd64, where rdma_rxe is a module; or run "
			  "rdmactl in a VM that boots one, with the test bed: rxe-vm run -- "
			  "rdmactl up veth0 (package rdmactl-testbed; tools/rxe-vm in the source)",
			  release_name(root), why);
}

int op_err_netlink_open(struct op_err *e, int err, const char *root)
{
	char path[4096];

	/* A fixture's netlink is its capture. */
	model_netlink_recording(root, path, sizeof(path));
	if (*root && err == -ENOENT)
		return op_err_set(e, err, NULL, "the fixture %s has no captured netlink answers "
				  "(%s): capture it again with tools/capture-sysfs", root, path);
	if (*root)
		return op_err_set(e, err, NULL, "cannot read the fixture's netlink capture %s%s",
				  path, err == -EBADMSG ? ": it is not whole netlink messages" : "");
	if (err == -EPROTONOSUPPORT)
		return no_rdma(e, err, root, "RDMA netlink is missing (CONFIG_INFINIBAND is off)");
	return op_err_set(e, err, NULL, "cannot open the RDMA netlink socket");
}

bool op_err_kernel_no_rdma(struct op_err *e, const char *root)
{
	struct kconfig k;
	char why[300];
	bool none;

	if (kconfig_load(root, release_name(root), &k))
		return false;	/* not known: nothing claimed */
	none = kconfig_value(&k, "CONFIG_INFINIBAND") == 'n';
	snprintf(why, sizeof(why), "it was built without CONFIG_INFINIBAND (%s)", k.source);
	kconfig_free(&k);
	if (none)
		no_rdma(e, -EPROTONOSUPPORT, root, why);
	return none;
}

int op_err_no_devices(struct op_err *e, const char *root, const char *fmt, ...)
{
	va_list ap;

	if (op_err_kernel_no_rdma(e, root))
		return e->err;
	va_start(ap, fmt);
	vset(e, -ENODEV, NULL, fmt, ap);
	va_end(ap);
	return -ENODEV;
}

int op_err_no_class(struct op_err *e, const char *root)
{
	return op_err_no_devices(e, root, "%s/sys/class/infiniband is missing: the RDMA core "
				  "is not loaded ('rdmactl start' loads it) or not built into "
				  "this kernel", root);
}

int op_err_dump(struct op_err *e, int err, const char *ext)
{
	if (err == -ENOMSG)
		return op_err_set(e, err, ext, "cannot list the RDMA devices: the fixture's netlink "
				  "capture has no answer to this request (capture it again with "
				  "tools/capture-sysfs)");
	return op_err_set(e, err, ext, "cannot list the RDMA devices");
}

int op_err_qp_dump(struct op_err *e, int err, const char *ext)
{
	if (err == -ENOMSG)
		return op_err_set(e, err, ext, "cannot list the QPs: the fixture's netlink capture "
				  "has no QP dump (capture it again with tools/capture-sysfs)");
	if (err == -EOPNOTSUPP || err == -EINVAL)
		return op_err_set(e, err, ext, "cannot list the QPs: this kernel's RDMA netlink has "
				  "no resource dump (it came with Linux 4.16)");
	return op_err_set(e, err, ext, "cannot list the QPs");
}

int op_err_newlink(struct op_err *e, int err, const char *ext, const char *root,
		    const struct model *m, const char *name, const char *netdev)
{
	const struct rdma_dev *other;
	struct kmods *km = NULL;
	struct netdev nd;

	switch (err) {
	case -EEXIST:
		other = m ? model_rxe_on(m, netdev) : NULL;
		return op_err_set(e, err, ext, "cannot add %s: %s already has an rxe device%s%s",
				  name, netdev, other ? ": " : "", other ? other->name : "");
	case -ENFILE:
		/* 6.1 says "Too many open files in system" for a name in use. */
		other = m ? model_find(m, name) : NULL;
		return op_err_set(e, err, ext,
				  "cannot add %s: an RDMA device named %s already exists%s%s", name,
				  name, other && *other->netdev ? ", on " : "",
				  other && *other->netdev ? other->netdev : "");
	case -ENODEV:
		return op_err_set(e, err, ext, "cannot add %s: there is no network device named %s "
				  "('ip link' lists them)", name, netdev);
	case -EPERM:
		/* rxe also answers EPERM for a VLAN: only meaningful with the privilege. */
		if (have_net_admin() && netdev_get(root, netdev, &nd) == 0 && nd.is_vlan)
			return op_err_set(e, err, ext,
					  "cannot add %s: %s is a VLAN device and rxe binds only to "
					  "real devices: add the link on its parent%s%s (the VLAN's "
					  "addresses appear in its GID table)", name, netdev,
					  *nd.vlan_parent ? ", " : "", nd.vlan_parent);
		return op_err_set(e, err, ext, "cannot add %s: %s", name, no_priv);
	case -EINVAL:
	case -EOPNOTSUPP:
		/* The kernel could not find the rxe link type: rdma_rxe did not load. */
		if (kmods_open(&km) == 0 && kmods_state(km, "rdma_rxe") == KMOD_ABSENT)
			op_err_set(e, err, ext,
				   "cannot add %s: the rdma_rxe module is not installed for kernel %s: "
				   "'rdmactl module install' builds it from the kernel's source (or "
				   "use a kernel with CONFIG_RDMA_RXE)", name, release_name(root));
		else
			op_err_set(e, err, ext,
				   "cannot add %s: the kernel has no rxe link type: rdma_rxe did not "
				   "load (try 'rdmactl start' and see 'dmesg')", name);
		kmods_close(km);
		return err;
	default:
		return op_err_set(e, err, ext, "cannot add %s on %s", name, netdev);
	}
}

int op_err_dellink(struct op_err *e, int err, const char *ext, const char *name)
{
	if (err == -EPERM)
		return op_err_set(e, err, ext, "cannot delete %s: %s", name, no_priv);
	return op_err_set(e, err, ext, "cannot delete %s", name);
}

int op_err_select(struct op_err *e, int err, const char *word, bool netdev_only,
		   const struct rdma_dev *bad)
{
	if (err == -EPERM)
		return op_err_set(e, err, NULL, "%s is not an rxe device (driver %s): rdmactl "
				  "deletes rxe devices only", bad->name, bad->driver);
	if (netdev_only)
		return op_err_set(e, err, NULL, "%s carries no rxe device", word);
	return op_err_set(e, err, NULL, "there is no rxe device named %s, nor a netdev carrying "
			  "one ('rdmactl link' lists the rxe links)", word);
}

int op_err_busy(struct op_err *e, const struct dev_use *u, size_t n)
{
	e->err = -EBUSY;
	e->ext[0] = e->what[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (!u[i].count)
			continue;
		op_err_add(e, "%s is in use by %s: the kernel would make the delete wait until %s "
			   "it (rxe cannot force a user off). Stop %s first, or pass --wait",
			   u[i].dev, u[i].who, u[i].count > 1 ? "they close" : "it closes",
			   u[i].count > 1 ? "them" : "it");
	}
	return -EBUSY;
}

int op_err_modprobe(struct op_err *e, int err, const char *root, const char *module)
{
	switch (err) {
	case -ENOENT:
		if (!strcmp(module, "rdma_rxe"))
			return op_err_set(e, err, NULL, "module rdma_rxe is not installed for kernel "
					  "%s: 'rdmactl module install' builds it from the kernel's "
					  "source (or use a kernel with CONFIG_RDMA_RXE)",
					  release_name(root));
		return op_err_set(e, err, NULL, "module %s is not installed for kernel %s: install "
				  "its modules package", module, release_name(root));
	case -EKEYREJECTED:
	case -ENOKEY:
		return op_err_set(e, err, NULL, "the kernel refused module %s: it demands signed "
				  "modules (module.sig_enforce or Secure Boot's lockdown) and does not "
				  "trust this one's key: " MOK_ENROLL, module);
	case -ENOEXEC:
		return op_err_set(e, err, NULL, "module %s is not for this kernel (version magic "
				  "or format: see 'dmesg'): rebuild it with 'rdmactl module install "
				  "--force'", module);
	case -EPERM:
		/* Older rdma_rxe cannot start without a UDPv6 socket; Debian's 5.10 has the
		 * fix (it only logs that IPv6 is not supported). */
		if (!strcmp(module, "rdma_rxe") && !sysfs_exists(root, "/proc/sys/net/ipv6") &&
		    have_net_admin())
			return op_err_set(e, err, NULL, "rdma_rxe refused to load: the kernel was "
					  "booted with ipv6.disable=1, which this rdma_rxe cannot "
					  "start without; remove it from the kernel command line");
		if (!have_net_admin())
			return op_err_set(e, err, NULL, "cannot load module %s: %s", module, no_priv);
		return op_err_set(e, err, NULL, "cannot load module %s (see 'dmesg')", module);
	default:
		return op_err_set(e, err, NULL, "cannot load module %s (see 'dmesg')", module);
	}
}

int op_err_rmmod(struct op_err *e, int err, const char *module)
{
	if (err == -EBUSY)
		return op_err_set(e, err, NULL, "%s is in use: left loaded", module);
	if (err == -EPERM)
		return op_err_set(e, err, NULL, "cannot unload %s: %s", module, no_priv);
	return op_err_set(e, err, NULL, "cannot unload %s", module);
}

int op_err_kmod_index(struct op_err *e, int err)
{
	return op_err_set(e, err, NULL, "cannot read the kernel module index (/lib/modules)");
}

int op_err_not_regular(struct op_err *e, const char *verb, const char *path,
			const struct safe_path *p, const char *fix)
{
	if (p->symlink && !p->type)
		return op_err_set(e, -EINVAL, NULL, "will not %s %s: it is a symlink that leads "
				  "nowhere%s%s", verb, path, fix ? "; " : "", fix ? fix : "");
	/* A directory is EISDIR, as the man page says; a FIFO, socket or device EINVAL. */
	return op_err_set(e, S_ISDIR(p->type) ? -EISDIR : -EINVAL, NULL,
			  "will not %s %s: it is %s%s%s%s, not a regular file%s%s",
			  verb, path, safe_type_name(p->type),
			  p->symlink ? " (the symlink leads to " : "", p->symlink ? p->target : "",
			  p->symlink ? ")" : "", fix ? "; " : "", fix ? fix : "");
}

static int not_regular(struct op_err *e, const char *verb, const char *path,
		       const struct safe_path *p)
{
	return op_err_not_regular(e, verb, path, p, p->symlink && !p->type ?
				   "give the persistent-links file itself (--config FILE)" :
				   "give the persistent-links file (--config FILE)");
}

int op_err_conf_load(struct op_err *e, int err, const char *path, const char *line_msg,
		      const struct safe_path *p)
{
	if (err == -ENOTREG)
		return not_regular(e, "read", path, p);
	if (line_msg && *line_msg)
		return op_err_set(e, err, NULL, "%s; the file was left as it is", line_msg);
	if (err == -EISDIR)
		return op_err_set(e, err, NULL, "cannot read %s: it is a directory; give the "
				  "persistent-links file (--config FILE)", path);
	if (err == -EACCES)
		return op_err_set(e, err, NULL, "cannot read %s: run as root", path);
	return op_err_set(e, err, NULL, "cannot read %s", path);
}

int op_err_conf_save(struct op_err *e, int err, const char *path, const struct safe_path *p)
{
	/* What became of the file: one that was not there is still not. */
	const char *kept = p && p->type ? "it was left as it was" : "nothing was written";

	switch (err) {
	case -ENOTREG:
		return not_regular(e, "write", path, p);
	case -ENOENT:
		return op_err_set(e, err, NULL, "cannot write %s: its directory does not exist (it "
				  "is not made: make it, or give another --config)", path);
	case -ENOSPC:
		return op_err_set(e, err, NULL, "cannot write %s: its file system is full; %s",
				  path, kept);
	case -EACCES:
	case -EPERM:
		return op_err_set(e, err, NULL, "cannot write %s: run as root; %s", path, kept);
	case -EROFS:
		return op_err_set(e, err, NULL, "cannot write %s: its file system is read-only",
				  path);
	default:
		return op_err_set(e, err, NULL, "cannot write %s; %s", path, kept);
	}
}

int op_err_netdev_list(struct op_err *e, int err, const char *root)
{
	return op_err_set(e, err, NULL, "cannot list the network devices (%s/sys/class/net)",
			  root);
}

int op_err_model_load(struct op_err *e, int err, const char *root, const char *dev)
{
	if (err == -ENODEV && dev)
		return op_err_set(e, err, NULL, "no RDMA device named %s ('rdmactl show' lists "
				  "them)", dev);
	return op_err_set(e, err, NULL, "cannot read %s/sys/class/infiniband", root);
}

int op_err_persist_conflict(struct op_err *e, int err, const char *name, const char *had,
			     const char *path, const char *netdev)
{
	if (err == -EBUSY)
		return op_err_set(e, err, NULL, "%s carries %s in %s already, and the kernel makes one "
				  "rxe link a netdev: 'rdmactl persist del %s' first, or keep %s",
				  netdev, had, path, had, had);
	if (err != -EEXIST)
		return op_err_set(e, err, NULL, "cannot record %s", name);
	return op_err_set(e, err, NULL, "%s is persisted on %s in %s, not on %s: 'rdmactl persist "
			  "del %s' first", name, had, path, netdev, name);
}

int op_err_persist_absent(struct op_err *e, const char *word, const char *path)
{
	return op_err_set(e, -ENOENT, NULL, "%s is not in %s", word, path);
}

void op_err_persist_undo(struct op_err *e, const char *name, int undo_err, const char *undo)
{
	if (undo_err >= 0)
		op_err_add(e, "%s was not kept", name);
	else
		op_err_add(e, "%s was made but could not be deleted again: %s", name, undo);
}

int op_err_at_line(struct op_err *e, bool first, const char *path, size_t line,
		    const struct op_err *one)
{
	if (first)
		return op_err_set(e, one->err, one->ext, "%s:%zu: %s", path, line, one->what);
	op_err_add(e, "%s:%zu: %s", path, line, one->what);
	return e->err;
}
