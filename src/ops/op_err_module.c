// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The explainer of module install and remove: each condition a build or its
 * undoing meets, in one wording, with what to do (op_err.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ops/op_err.h"

int op_err_kbuild_facts(struct op_err *e, int err, const char *kver)
{
	return op_err_set(e, err, NULL, "cannot read the facts of kernel %s (its release, "
			  "/lib/modules and its packages)", kver && *kver ? kver : "running now");
}

int op_err_tool(struct op_err *e, int err, const char *what, const char *tool, int status,
		 const char *why, size_t why_len)
{
	if (err == -ENOENT)
		return op_err_set(e, err, NULL, "%s: %s is not installed (apt-get install %s)",
				  what, tool, tool);
	if (err)
		return op_err_set(e, err, NULL, "%s: cannot run %s", what, tool);
	return op_err_set(e, -ETOOL, NULL, "%s: %s exited with status %d%s%.*s", what, tool,
			  status, why_len ? ": " : "", (int)why_len, why);
}

int op_err_build_needs(struct op_err *e, const char *kver, bool headers, bool source,
			bool dkms, const char *packages)
{
	return op_err_set(e, -ENOENT, NULL,
			  "building rdma_rxe for kernel %s needs%s%s%s%s%s: apt-get install%s "
			  "(or add --install-deps)", kver,
			  headers ? " its headers" : "", source && headers ? "," : "",
			  source ? " the kernel's source" : "",
			  dkms && (headers || source) ? " and" : "", dkms ? " dkms" : "", packages);
}

int op_err_distro_package(struct op_err *e, const char *kver, const char *package)
{
	return op_err_set(e, -ENOENT, NULL, "kernel %s has rdma_rxe in the package %s: apt-get "
			  "install %s (or add --install-deps)", kver, package, package);
}

int op_err_build_failed(struct op_err *e, int err, const char *first, const char *log)
{
	return op_err_set(e, err, NULL, "the build failed: %s%s%s%s", first,
			  *log ? " (DKMS's whole make.log: " : "", log, *log ? ")" : "");
}

void op_err_not_loaded(struct op_err *e, int err)
{
	if (err == -EKEYREJECTED || err == -ENOKEY)
		op_err_add(e, "rdma_rxe stays installed (DKMS), not loaded: after the key is "
			   "enrolled and the machine rebooted, 'rdmactl start' loads it");
	else
		op_err_add(e, "rdma_rxe stays installed (DKMS), not loaded; 'rdmactl module "
			   "remove' takes it away again");
}

int op_err_dkms_kept(struct op_err *e, const char *version, const char *module,
		      const char *said)
{
	size_t n = strcspn(said, "\n");

	op_err_set(e, -EIO, NULL, "DKMS did not remove rdma_rxe/%s: %s%s%s", version,
		   *module ? module : "its entry", *module ? " is still there" : " is still listed",
		   n ? "" : "; dkms said nothing");
	if (n)
		op_err_add(e, "dkms said: %.*s", (int)n, said);
	op_err_add(e, "its source in /usr/src is kept: 'dkms remove rdma_rxe/%s --all' by hand, "
		   "then 'rdmactl module remove' again", version);
	return e->err;
}

int op_err_not_installed(struct op_err *e, const char *kver, const char *package)
{
	return op_err_set(e, -ENOENT, NULL, "%s reported success, but kernel %s still has no "
			  "rdma_rxe in /lib/modules/%s (modinfo rdma_rxe finds none): nothing is "
			  "claimed installed", package ? package : "DKMS", kver, kver);
}

int op_err_not_ours(struct op_err *e, const char *version)
{
	return op_err_set(e, -EPERM, NULL, "rdma_rxe/%s in DKMS was not made by rdmactl: remove "
			  "it with 'dkms remove rdma_rxe/%s --all'", version, version);
}

int op_err_source(struct op_err *e, int err, enum source_problem what, const char *path)
{
	switch (what) {
	case SRC_UNREADABLE:
		return op_err_set(e, err, NULL, "cannot read the source %s: give a kernel source "
				  "tarball or tree", path);
	case SRC_NO_TOP_DIR:
		return op_err_set(e, err, NULL, "%s does not start with a top directory: is it a "
				  "kernel source tarball?", path);
	case SRC_NO_VERSION:
		return op_err_set(e, err, NULL, "%s has no kernel version in its top Makefile: is "
				  "it a kernel source tarball or tree?", path);
	case SRC_NO_RXE:
		return op_err_set(e, err, NULL, "%s has no drivers/infiniband/sw/rxe/rxe.c", path);
	}
	return op_err_set(e, err, NULL, "the source %s cannot be used", path);
}

int op_err_source_version(struct op_err *e, const char *have, const char *kver,
			   const char *want, const char *series)
{
	if (!*want)
		return op_err_set(e, -EINVAL, NULL, "the source is version %s but the version of "
				  "kernel %s cannot be read (neither its headers' Makefile nor its "
				  "package says it): --force builds anyway, unsupported", have, kver);
	if (series)
		return op_err_set(e, -EINVAL, NULL, "linux-source-%s is version %s but kernel %s "
				  "is %s: apt-get install --allow-downgrades linux-source-%s=%s "
				  "gives the kernel's own (or add --install-deps; --force builds "
				  "anyway, unsupported)", series, have, kver, want, series, want);
	return op_err_set(e, -EINVAL, NULL, "the source is version %s but kernel %s is %s: build "
			  "from the kernel's own version (--force builds anyway, unsupported)", have,
			  kver, want);
}

int op_err_file(struct op_err *e, int err, enum file_step step, const char *path)
{
	static const char *const verbs[] = {
		[FILE_WRITE] = "write", [FILE_MKDIR] = "make", [FILE_MKDIR_BESIDE] = "make a "
		"directory beside", [FILE_MOVE_TO] = "move the rxe source to",
		[FILE_TEMP] = "make a temporary directory in",
	};

	return op_err_set(e, err, NULL, "cannot %s %s", verbs[step], path);
}
