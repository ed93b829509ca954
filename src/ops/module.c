// SPDX-License-Identifier: GPL-2.0-or-later
/* rdma_rxe built from the kernel's own source, registered with DKMS, loaded, proven; removed. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include "kernel/clock.h"
#include "kernel/kbuild.h"
#include "kernel/nl.h"
#include "kernel/safe.h"
#include "kernel/spawn.h"
#include "model/model.h"
#include "ops/op_err.h"
#include "ops/link.h"
#include "ops/module.h"
#include "ops/module_source.h"
#include "ops/service.h"
#include "ops/tools.h"

#define SRC_ROOT "/usr/src"
#define DKMS_TREE "/var/lib/dkms"

/*
 * The distribution's own package with rdma_rxe for KVER, from apt's index; ""
 * when none. Ubuntu's kernels keep their modules in linux-modules-KVER and the
 * rest, rdma_rxe among them, in linux-modules-extra-KVER; apt is asked only
 * for a kernel packaged that way. (apt-cache takes most of a second where its
 * binary cache is turned off, as in Debian's container images.)
 */
static void distro_package(const char *kver, char *buf, size_t len)
{
	char pkg[160], v[64];
	const char *argv[] = { "apt-cache", "show", "--no-all-versions", pkg, NULL };
	struct spawn_out o;

	buf[0] = '\0';
	snprintf(pkg, sizeof(pkg), "linux-modules-%s", kver);
	if (kbuild_pkg_version(pkg, v, sizeof(v)))
		return;
	snprintf(pkg, sizeof(pkg), "linux-modules-extra-%s", kver);
	if (spawn_run(argv, NULL, NULL, &o) == 0 && o.status == 0 && !strncmp(o.text, "Package: ", 9))
		snprintf(buf, len, "%s", pkg);
}

/*
 * What is missing to build: named in E with the command that supplies it.
 * With --install-deps, Debian's tarball of another version than the
 * kernel's (the source package updated before the headers, as a security
 * upload can) is replaced by the kernel's own, apt's archive keeping it.
 */
static int missing(struct module_install_req *r, struct op_err *e)
{
	const struct kbuild *k = &r->k;
	char headers[192], source[128], list[400] = "";
	const char *pkgs[3];
	size_t n = 0;
	bool have_dkms = access("/usr/sbin/dkms", X_OK) == 0;

	snprintf(headers, sizeof(headers), "linux-headers-%s", k->kver);
	snprintf(source, sizeof(source), "linux-source-%s", k->series);
	if (!*k->headers)
		pkgs[n++] = headers;
	if (!r->source && !*k->source)
		pkgs[n++] = source;
	else if (!r->source && r->install_deps && !r->force && *k->source_pkgver &&
		 *k->kernel_pkgver && strcmp(k->source_pkgver, k->kernel_pkgver)) {
		snprintf(source, sizeof(source), "linux-source-%s=%s", k->series, k->kernel_pkgver);
		pkgs[n++] = source;
	}
	if (!have_dkms)
		pkgs[n++] = "dkms";
	if (!n)
		return 0;
	if (r->install_deps) {
		int err = tools_apt_install(pkgs, n, r->progress, e);

		return err ? err : kbuild_facts(k->kver, &r->k);
	}
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), " %s", pkgs[i]);
	return op_err_build_needs(e, k->kver, !*k->headers, !r->source && !*k->source, !have_dkms,
				   list);
}

/*
 * The compiler's first error in DKMS's make.log ("file:line:col: error: ...",
 * or "fatal error:" for a header that is not there, the usual one when the
 * headers do not match the source), else make's own "Error" line,
 * and the log copied to KEPT, for the failed entry is removed with its log.
 */
static void first_error(const char *version, char *buf, size_t len, char *kept, size_t klen)
{
	char path[PATH_MAX], line[1024];
	FILE *f, *copy = NULL;
	int fd;

	buf[0] = kept[0] = '\0';
	snprintf(path, sizeof(path), DKMS_TREE "/rdma_rxe/%s/build/make.log", version);
	f = safe_fopen(path);
	if (!f)
		return;
	snprintf(kept, klen, "/tmp/rdmactl-rdma_rxe-make-XXXXXX.log");
	fd = mkstemps(kept, 4);
	if (fd >= 0)
		copy = fdopen(fd, "w");
	if (!copy) {
		if (fd >= 0)
			close(fd);
		kept[0] = '\0';
	}
	while (fgets(line, sizeof(line), f)) {
		if (copy)
			fputs(line, copy);
		if (!*buf && (strstr(line, ": error:") || strstr(line, ": fatal error:") ||
			      strstr(line, "Error "))) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line);
		}
	}
	if (copy && fclose(copy))
		kept[0] = '\0';
	fclose(f);
}

/* DKMS forgets rdma_rxe/VERSION; what it said is in O (a failure is the caller's to judge). */
static void dkms_forget_said(const char *version, struct spawn_out *o)
{
	char mv[320];
	const char *argv[] = { "dkms", "remove", mv, "--all", NULL };

	snprintf(mv, sizeof(mv), "rdma_rxe/%s", version);
	if (spawn_run(argv, NULL, NULL, o))
		snprintf(o->text, sizeof(o->text), "dkms could not be run");
}

static void dkms_forget(const char *version)
{
	struct spawn_out o;

	dkms_forget_said(version, &o);
}

/*
 * add, build, install; on a failure nothing of it stays, not even the signing
 * key DKMS made for its first build (no one can have enrolled it yet).
 */
static int dkms_install(struct module_install_req *r, const char *dir, struct op_err *e)
{
	char mv[128];
	const char *add[] = { "dkms", "add", mv, NULL };
	bool had_key = access(DKMS_TREE "/mok.key", F_OK) == 0 ||
		       access(DKMS_TREE "/mok.pub", F_OK) == 0;
	struct spawn_out o;
	int err;

	snprintf(mv, sizeof(mv), "rdma_rxe/%s", r->version);
	err = tools_run(add, NULL, NULL, &o, e, "DKMS did not take the source");
	if (!err) {
		const char *build[] = { "dkms", "build", mv, "-k", r->k.kver, NULL };

		err = tools_run(build, "building rdma_rxe", r->progress, &o, e, "the build failed");
		if (err) {
			char first[1024], kept[64];

			first_error(r->version, first, sizeof(first), kept, sizeof(kept));
			if (*first)
				op_err_build_failed(e, err, first, kept);
		}
	}
	if (!err) {
		const char *inst[] = { "dkms", "install", mv, "-k", r->k.kver, NULL };

		err = tools_run(inst, "installing rdma_rxe", r->progress, &o, e,
				"DKMS could not install it");
	}
	if (err) {
		dkms_forget(r->version);
		tools_rm_tree(dir);
		if (!had_key) {
			unlink(DKMS_TREE "/mok.key");
			unlink(DKMS_TREE "/mok.pub");
		}
	}
	return err;
}

/*
 * A link on the loopback device, under the first free rxeN, made and deleted:
 * rdma_rxe answers. One already on lo proves it as well, and is left alone.
 */
static int prove(struct nl *nl, struct op_err *e)
{
	struct link_add_req a = { .netdev = "lo", .force = true, .exist_ok = true };
	int err = link_add(nl, &a, e);

	if (err || !a.created)
		return err;
	/* link_del_name answers 1 for "deleted": that is the proof passing. */
	err = link_del_name(nl, a.made, e);
	return err < 0 ? err : 0;
}

/* The running kernel's new rdma_rxe: loaded with its dependencies, then proven. */
static int load_and_prove(struct nl *nl, struct module_install_req *r, struct op_err *e)
{
	struct service_module res[RXE_NMODULES];
	int err = service_load_modules(res, e);

	if (err) {
		op_err_not_loaded(e, err);
		return err;
	}
	r->loaded = true;
	err = prove(nl, e);
	r->proved = !err;
	return err;
}

int module_install(struct nl *nl, struct module_install_req *r, struct op_err *e)
{
	int err;

	err = kbuild_facts(r->kver, &r->k);
	if (err)
		return op_err_kbuild_facts(e, err, r->kver);
	if (r->k.origin != RXE_NONE && !r->force) {
		r->unchanged = r->k.origin == RXE_DKMS ? "rdma_rxe is installed already, by DKMS" :
			       r->k.origin == RXE_BUILTIN ? "the kernel has rdma_rxe built in" :
			       "the kernel has rdma_rxe already";
		/* An earlier install that is not loaded (stopped, or refused): load it again. */
		if (r->k.origin != RXE_DKMS || !r->k.running || r->k.loaded)
			return 0;
		snprintf(r->version, sizeof(r->version), "%s", r->k.dkms_version);
		return load_and_prove(nl, r, e);
	}
	/* The distribution's own package comes before a build. */
	distro_package(r->k.kver, r->package, sizeof(r->package));
	if (*r->package && r->k.origin == RXE_NONE) {
		const char *pkgs[] = { r->package };

		if (!r->install_deps)
			return op_err_distro_package(e, r->k.kver, r->package);
		err = tools_apt_install(pkgs, 1, r->progress, e);
		if (err)
			return err;
	} else {
		char dir[PATH_MAX];
		uint64_t t0;

		r->package[0] = '\0';
		err = missing(r, e);
		if (!err)
			err = module_source_pick_version(r, e);
		if (err)
			return err;
		/* --force over an earlier install: that one goes first. */
		if (*r->k.dkms_version)
			dkms_forget(r->k.dkms_version);
		snprintf(dir, sizeof(dir), SRC_ROOT "/rdma_rxe-%s", r->version);
		tools_rm_tree(dir);
		t0 = mono_ms();
		err = module_source_stage(r, dir, e);
		if (err) {
			tools_rm_tree(dir);
			return err;
		}
		err = dkms_install(r, dir, e);
		r->build_ms = mono_ms() - t0;
		if (err)
			return err;
	}
	/* Installed is what the kernel's module tree says now, not what the tools answered. */
	{
		struct kbuild after;

		if (kbuild_facts(r->k.kver, &after) == 0 && after.origin == RXE_NONE)
			return op_err_not_installed(e, r->k.kver, *r->package ? r->package : NULL);
	}
	return r->k.running ? load_and_prove(nl, r, e) : 0;
}

/* Whether rdmactl made the DKMS source of VERSION. */
static bool ours(const char *version)
{
	char path[PATH_MAX], line[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), SRC_ROOT "/rdma_rxe-%s/dkms.conf", version);
	f = safe_fopen(path);
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return !strncmp(line, MODULE_MARK, strlen(MODULE_MARK));
}

/*
 * After remove, a module tree of a kernel whose image is not installed (an
 * install with --kernel ahead of it) holds only what install made: DKMS's
 * emptied updates/ and depmod's index. Both go; a tree with any module left,
 * or with the image's own files, is not touched.
 */
static void tidy_imageless_tree(const char *kver)
{
	static const char *const index[] = {
		"modules.dep", "modules.dep.bin", "modules.alias", "modules.alias.bin",
		"modules.symbols", "modules.symbols.bin", "modules.builtin.bin",
		"modules.builtin.alias.bin", "modules.devname", "modules.softdep", "modules.weakdep",
	};
	char path[PATH_MAX];
	size_t i;

	snprintf(path, sizeof(path), "/lib/modules/%s/updates/dkms", kver);
	rmdir(path);
	snprintf(path, sizeof(path), "/lib/modules/%s/updates", kver);
	rmdir(path);
	if (access(path, F_OK) == 0)
		return;
	snprintf(path, sizeof(path), "/lib/modules/%s/kernel", kver);
	if (access(path, F_OK) == 0)
		return;
	snprintf(path, sizeof(path), "/lib/modules/%s/extra", kver);
	if (access(path, F_OK) == 0)
		return;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.order", kver);
	if (access(path, F_OK) == 0)
		return;
	for (i = 0; i < sizeof(index) / sizeof(index[0]); i++) {
		snprintf(path, sizeof(path), "/lib/modules/%s/%s", kver, index[i]);
		unlink(path);
	}
	/* Gone if nothing else is there; the headers' build link keeps it. */
	snprintf(path, sizeof(path), "/lib/modules/%s", kver);
	rmdir(path);
}

int module_remove(struct nl *nl, struct module_remove_req *r, struct op_err *e)
{
	char dir[PATH_MAX];
	int err = kbuild_facts(r->kver, &r->k);

	if (err)
		return op_err_kbuild_facts(e, err, r->kver);
	if (!*r->k.dkms_version) {
		r->unchanged = "rdma_rxe was not installed for this kernel by 'rdmactl module install'";
		return 0;
	}
	if (!ours(r->k.dkms_version))
		return op_err_not_ours(e, r->k.dkms_version);
	if (r->k.running && r->k.loaded) {
		const struct model_src src = { .root = "", .nl = nl };
		const struct rdma_dev **t = NULL;
		enum kmod_state after;
		struct model m;
		size_t n;

		err = model_load(&src, NULL, (struct model_ask){ .source = MODEL_NETLINK }, &m);
		if (err)
			return op_err_dump(e, err, nl_ext_msg(nl));
		/* A device in use would hang the unload: nothing is removed. */
		err = link_pick(nl, &m, NULL, 0, false, r->wait, &t, &n, e);
		free(t);
		model_free(&m);
		if (err)
			return err;
		err = service_unload_module("rdma_rxe", &after, e);
		if (err)
			return err;
		r->unloaded = true;
	}
	{
		struct spawn_out o;
		struct kbuild after;

		dkms_forget_said(r->k.dkms_version, &o);
		/* Removed is what the system says afterwards, not what dkms answered. */
		if (kbuild_facts(r->k.kver, &after) == 0 &&
		    (*after.dkms_version || (after.origin == RXE_DKMS && *after.module_path &&
					     access(after.module_path, F_OK) == 0)))
			return op_err_dkms_kept(e, r->k.dkms_version, after.module_path, o.text);
	}
	snprintf(dir, sizeof(dir), SRC_ROOT "/rdma_rxe-%s", r->k.dkms_version);
	tools_rm_tree(dir);
	if (!r->k.running)
		tidy_imageless_tree(r->k.kver);
	return 0;
}


void module_load_missing(const char *const *mods, size_t n)
{
	struct kmods *km = NULL;

	for (size_t i = 0; i < n; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/sys/module/%s", mods[i]);
		if (!access(path, F_OK))
			continue;
		if (!km && kmods_open(&km))
			return;
		kmods_load(km, mods[i]);
	}
	kmods_close(km);
}
