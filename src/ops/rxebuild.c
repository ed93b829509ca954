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
#include "kernel/spawn.h"
#include "model/model.h"
#include "ops/explain.h"
#include "ops/modules.h"
#include "ops/rxe.h"
#include "ops/rxebuild.h"

#define SRC_ROOT "/usr/src"
#define DKMS_TREE "/var/lib/dkms"

/*
 * The line of a failed tool's output that says why: its first error line
 * ("tar: ...", apt's "E: ..."), else its last line.
 */
static const char *why_line(struct spawn_out *o, const char *tool)
{
	size_t n = strlen(tool);
	char *t = o->text, *end = t + strlen(t);

	for (const char *l = t; *l; l += strcspn(l, "\n"), l += *l == '\n')
		if ((!strncmp(l, tool, n) && l[n] == ':') || !strncmp(l, "E: ", 3))
			return l;
	while (end > t && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	while (end > t && end[-1] != '\n')
		end--;
	return end;
}

/* Runs ARGV; a failure to run it, or a non-zero status, is said in E with WHAT. */
static int run(const char *const argv[], const char *label, struct spawn_out *o,
	       struct rc_err *e, const char *what)
{
	int err = spawn_run(argv, label, o);

	if (err == -ENOENT)
		return rc_err_set(e, err, NULL, "%s: %s is not installed (apt-get install %s)",
				  what, argv[0], argv[0]);
	if (err)
		return rc_err_set(e, err, NULL, "%s: cannot run %s", what, argv[0]);
	if (o->status) {
		const char *why = why_line(o, argv[0]);

		return rc_err_set(e, -ETOOL, NULL, "%s: %s exited with status %d%s%.*s", what,
				  argv[0], o->status, *why ? ": " : "", (int)strcspn(why, "\n"), why);
	}
	return 0;
}

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
	if (spawn_run(argv, NULL, &o) == 0 && o.status == 0 && !strncmp(o.text, "Package: ", 9))
		snprintf(buf, len, "%s", pkg);
}

static int apt_install(const char *const pkgs[], size_t n, struct rc_err *e)
{
	const char *argv[16] = { "apt-get", "install", "-y", "-q", "--no-install-recommends" };
	struct spawn_out o;
	size_t a = 5;

	for (size_t i = 0; i < n && a < 15; i++)
		argv[a++] = pkgs[i];
	argv[a] = NULL;
	return run(argv, "rdmactl: apt-get install", &o, e, "cannot install the packages");
}

/* What is missing to build: named in E with the command that supplies it. */
static int missing(struct rxe_install_req *r, struct rc_err *e)
{
	const struct kbuild *k = &r->k;
	char headers[192], source[64], list[400] = "";
	const char *pkgs[3];
	size_t n = 0;
	bool have_dkms = access("/usr/sbin/dkms", X_OK) == 0;

	snprintf(headers, sizeof(headers), "linux-headers-%s", k->kver);
	snprintf(source, sizeof(source), "linux-source-%s", k->series);
	if (!*k->headers)
		pkgs[n++] = headers;
	if (!r->source && !*k->source)
		pkgs[n++] = source;
	if (!have_dkms)
		pkgs[n++] = "dkms";
	if (!n)
		return 0;
	if (r->install_deps) {
		int err = apt_install(pkgs, n, e);

		return err ? err : kbuild_facts(k->kver, &r->k);
	}
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), " %s", pkgs[i]);
	return rc_err_set(e, -ENOENT, NULL,
			  "building rdma_rxe for kernel %s needs%s%s%s%s%s: apt-get install%s "
			  "(or add --install-deps)", k->kver,
			  !*k->headers ? " its headers" : "",
			  !r->source && !*k->source ? (!*k->headers ? "," : "") : "",
			  !r->source && !*k->source ? " the kernel's source" : "",
			  !have_dkms && n > 1 ? " and" : "", !have_dkms ? " dkms" : "", list);
}

/*
 * The top Makefile's version of a source tarball. tar stops at that one member
 * (--occurrence): a search by pattern would decompress the whole archive, a
 * minute and more on a slow machine.
 */
static void rm_tree(const char *dir)
{
	const char *argv[] = { "rm", "-rf", "--one-file-system", dir, NULL };
	struct spawn_out o;

	spawn_run(argv, NULL, &o);
}

/* The top directory of a source tarball, its first member, with its '/': "linux-source-6.1/". */
static int tarball_top(const char *tarball, char *top, size_t len, struct rc_err *e)
{
	/* head ends the listing at the first line. */
	const char *list[] = { "sh", "-c", "tar -tf \"$1\" | head -n 1", "sh", tarball, NULL };
	struct spawn_out o;
	int err = run(list, NULL, &o, e, "cannot list the source tarball");

	if (err)
		return err;
	if (!o.len || o.text[0] == '/' || !memchr(o.text, '/', o.len))
		return rc_err_set(e, -EINVAL, NULL, "%s does not start with a top directory: is it "
				  "a kernel source tarball?", tarball);
	snprintf(top, len, "%.*s", (int)((char *)memchr(o.text, '/', o.len) - o.text + 1), o.text);
	return 0;
}

static int tarball_version(const char *tarball, char *buf, size_t len, struct rc_err *e)
{
	char top[PATH_MAX];
	const char *argv[] = { "tar", "-xOf", tarball, "--occurrence", top, NULL };
	struct spawn_out o;
	char dir[] = "/tmp/rdmactl-src-XXXXXX", path[64];
	FILE *f;
	int err = tarball_top(tarball, top, sizeof(top) - 8, e);

	if (err)
		return err;
	strcat(top, "Makefile");
	err = run(argv, "rdmactl: reading the source's version", &o, e,
		  "cannot read the source's Makefile");
	if (err)
		return err;
	if (!mkdtemp(dir))
		return rc_err_set(e, -errno, NULL, "cannot make a temporary directory");
	snprintf(path, sizeof(path), "%s/Makefile", dir);
	f = fopen(path, "w");
	if (f) {
		fwrite(o.text, 1, o.len, f);
		fclose(f);
	}
	err = kbuild_makefile_version(dir, buf, len);
	unlink(path);
	rmdir(dir);
	return err ? rc_err_set(e, err, NULL, "%s has no kernel version in its top Makefile",
				tarball) : 0;
}

static bool is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The version to build and register: the source package's for Debian's
 * tarball, else the source's own. A mismatch with the kernel is refused
 * unless forced.
 */
static int pick_version(struct rxe_install_req *r, struct rc_err *e)
{
	const struct kbuild *k = &r->k;
	char have[64] = "", want[64];

	if (!r->source && *k->source_pkgver && *k->kernel_pkgver) {
		snprintf(have, sizeof(have), "%s", k->source_pkgver);
		snprintf(want, sizeof(want), "%s", k->kernel_pkgver);
	} else {
		const char *src = r->source ? r->source : k->source;
		int err;

		if (access(src, R_OK))
			return rc_err_set(e, -errno, NULL, "cannot read the source %s: give a kernel "
					  "source tarball or tree", src);
		err = is_dir(src) ? kbuild_makefile_version(src, have, sizeof(have)) :
				    tarball_version(src, have, sizeof(have), e);
		if (err && is_dir(src))
			return rc_err_set(e, err, NULL, "%s has no kernel version in its top "
					  "Makefile: is it a kernel source tree?", src);
		if (err)
			return err;
		snprintf(want, sizeof(want), "%s", k->upstream);
	}
	snprintf(r->version, sizeof(r->version), "%s", have);
	if (!*want || strcmp(have, want)) {
		if (!r->force)
			return rc_err_set(e, -EINVAL, NULL,
					  "the source is version %s but kernel %s is %s: build from "
					  "the kernel's own version (--force builds anyway, "
					  "unsupported)", have, k->kver, *want ? want : "unknown");
		r->version_forced = true;
	}
	return 0;
}

static int write_conf(const char *dir, const char *version, struct rc_err *e)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/dkms.conf", dir);
	f = fopen(path, "w");
	if (!f)
		return rc_err_set(e, -errno, NULL, "cannot write %s", path);
	fprintf(f, RXEBUILD_MARK "\n"
		"PACKAGE_NAME=\"rdma_rxe\"\n"
		"PACKAGE_VERSION=\"%s\"\n"
		"BUILT_MODULE_NAME[0]=\"rdma_rxe\"\n"
		"DEST_MODULE_LOCATION[0]=\"/updates/dkms\"\n"
		"MAKE[0]=\"make -C ${kernel_source_dir} M=${dkms_tree}/${PACKAGE_NAME}/"
		"${PACKAGE_VERSION}/build CONFIG_RDMA_RXE=m modules\"\n"
		"CLEAN=\"true\"\n"
		"AUTOINSTALL=\"yes\"\n", version);
	if (fclose(f))
		return rc_err_set(e, -EIO, NULL, "cannot write %s", path);
	return 0;
}

/*
 * drivers/infiniband/sw/rxe of a source tarball as DIR. tar is given the
 * directory's whole name and --occurrence: it stops reading once past that
 * directory, before half of the archive is decompressed (a pattern, or
 * --strip-components, would keep it reading to the end). The directory is
 * extracted beside DIR and moved into place.
 */
static int extract(const char *tarball, const char *dir, struct rc_err *e)
{
	char top[PATH_MAX], tmp[PATH_MAX + 8], from[2 * PATH_MAX + 16];
	const char *argv[] = { "tar", "-xf", tarball, "-C", tmp, "--occurrence", top, NULL };
	struct spawn_out o;
	int err = tarball_top(tarball, top, sizeof(top) - 32, e);

	if (err)
		return err;
	strcat(top, "drivers/infiniband/sw/rxe");
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", dir);
	if (!mkdtemp(tmp))
		return rc_err_set(e, -errno, NULL, "cannot make a directory beside %s", dir);
	err = run(argv, "rdmactl: extracting drivers/infiniband/sw/rxe", &o, e,
		  "cannot extract the rxe source");
	snprintf(from, sizeof(from), "%s/%s", tmp, top);
	if (!err && rename(from, dir) < 0)
		err = rc_err_set(e, -errno, NULL, "cannot move the rxe source to %s", dir);
	rm_tree(tmp);
	return err;
}

/* Only drivers/infiniband/sw/rxe of the source, into DIR. */
static int stage(struct rxe_install_req *r, const char *dir, struct rc_err *e)
{
	const char *src = r->source ? r->source : r->k.source;
	char probe[PATH_MAX + 8];
	struct spawn_out o;
	int err;

	if (is_dir(src)) {
		char from[PATH_MAX + 32];
		const char *argv[] = { "cp", "-a", from, dir, NULL };

		if (mkdir(dir, 0755) < 0)
			return rc_err_set(e, -errno, NULL, "cannot make %s", dir);
		snprintf(from, sizeof(from), "%s/drivers/infiniband/sw/rxe/.", src);
		err = run(argv, NULL, &o, e, "cannot copy the rxe source");
	} else {
		err = extract(src, dir, e);
	}
	if (err)
		return err;
	snprintf(probe, sizeof(probe), "%s/rxe.c", dir);
	if (access(probe, F_OK))
		return rc_err_set(e, -ENOENT, NULL, "%s has no drivers/infiniband/sw/rxe/rxe.c", src);
	return write_conf(dir, r->version, e);
}

/*
 * The compiler's first error in DKMS's make.log ("file:line:col: error: ..."),
 * and the log copied to KEPT, for the failed entry is removed with its log.
 */
static void first_error(const char *version, char *buf, size_t len, char *kept, size_t klen)
{
	char path[PATH_MAX], line[1024];
	FILE *f, *copy = NULL;
	int fd;

	buf[0] = kept[0] = '\0';
	snprintf(path, sizeof(path), DKMS_TREE "/rdma_rxe/%s/build/make.log", version);
	f = fopen(path, "r");
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
		if (!*buf && (strstr(line, ": error:") || strstr(line, "Error "))) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line);
		}
	}
	if (copy && fclose(copy))
		kept[0] = '\0';
	fclose(f);
}

static void dkms_forget(const char *version)
{
	char mv[320];
	const char *argv[] = { "dkms", "remove", mv, "--all", NULL };
	struct spawn_out o;

	snprintf(mv, sizeof(mv), "rdma_rxe/%s", version);
	spawn_run(argv, NULL, &o);
}

/*
 * add, build, install; on a failure nothing of it stays, not even the signing
 * key DKMS made for its first build (no one can have enrolled it yet).
 */
static int dkms_install(struct rxe_install_req *r, const char *dir, struct rc_err *e)
{
	char mv[128];
	const char *add[] = { "dkms", "add", mv, NULL };
	bool had_key = access(DKMS_TREE "/mok.key", F_OK) == 0 ||
		       access(DKMS_TREE "/mok.pub", F_OK) == 0;
	struct spawn_out o;
	int err;

	snprintf(mv, sizeof(mv), "rdma_rxe/%s", r->version);
	err = run(add, NULL, &o, e, "DKMS did not take the source");
	if (!err) {
		const char *build[] = { "dkms", "build", mv, "-k", r->k.kver, NULL };

		err = run(build, "rdmactl: building rdma_rxe", &o, e, "the build failed");
		if (err) {
			char first[1024], kept[64];

			first_error(r->version, first, sizeof(first), kept, sizeof(kept));
			if (*first)
				rc_err_set(e, err, NULL, "the build failed: %s%s%s%s", first,
					   *kept ? " (DKMS's whole make.log: " : "", kept,
					   *kept ? ")" : "");
		}
	}
	if (!err) {
		const char *inst[] = { "dkms", "install", mv, "-k", r->k.kver, NULL };

		err = run(inst, "rdmactl: installing rdma_rxe", &o, e, "DKMS could not install it");
	}
	if (err) {
		dkms_forget(r->version);
		rm_tree(dir);
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
static int prove(struct nl *nl, struct rc_err *e)
{
	struct rxe_add_req a = { .netdev = "lo", .force = true, .exist_ok = true };
	int err = rxe_add(nl, &a, e);

	if (err || !a.created)
		return err;
	return rxe_del_name(nl, a.made, e);
}

/* The running kernel's new rdma_rxe: loaded with its dependencies, then proven. */
static int load_and_prove(struct nl *nl, struct rxe_install_req *r, struct rc_err *e)
{
	struct module_result res[RXE_NMODULES];
	int err = modules_load(res, e);

	if (err == -EKEYREJECTED || err == -ENOKEY)
		rc_err_add(e, "rdma_rxe stays installed (DKMS), not loaded: after the key is "
			   "enrolled and the machine rebooted, 'rdmactl start' loads it");
	else if (err)
		rc_err_add(e, "rdma_rxe stays installed (DKMS), not loaded; 'rdmactl module "
			   "remove' takes it away again");
	if (err)
		return err;
	r->loaded = true;
	err = prove(nl, e);
	r->proved = !err;
	return err;
}

int rxe_module_install(struct nl *nl, struct rxe_install_req *r, struct rc_err *e)
{
	int err;

	err = kbuild_facts(r->kver, &r->k);
	if (err)
		return rc_err_set(e, err, NULL, "cannot read the kernel's facts");
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
			return rc_err_set(e, -ENOENT, NULL, "kernel %s has rdma_rxe in the package %s: "
					  "apt-get install %s (or add --install-deps)", r->k.kver,
					  r->package, r->package);
		err = apt_install(pkgs, 1, e);
		if (err)
			return err;
	} else {
		char dir[PATH_MAX];
		uint64_t t0;

		r->package[0] = '\0';
		err = missing(r, e);
		if (!err)
			err = pick_version(r, e);
		if (err)
			return err;
		/* --force over an earlier install: that one goes first. */
		if (*r->k.dkms_version)
			dkms_forget(r->k.dkms_version);
		snprintf(dir, sizeof(dir), SRC_ROOT "/rdma_rxe-%s", r->version);
		rm_tree(dir);
		t0 = mono_ms();
		err = stage(r, dir, e);
		if (err) {
			rm_tree(dir);
			return err;
		}
		err = dkms_install(r, dir, e);
		r->build_ms = mono_ms() - t0;
		if (err)
			return err;
	}
	return r->k.running ? load_and_prove(nl, r, e) : 0;
}

/* Whether rdmactl made the DKMS source of VERSION. */
static bool ours(const char *version)
{
	char path[PATH_MAX], line[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), SRC_ROOT "/rdma_rxe-%s/dkms.conf", version);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	return !strncmp(line, RXEBUILD_MARK, strlen(RXEBUILD_MARK));
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

int rxe_module_remove(struct nl *nl, struct rxe_remove_req *r, struct rc_err *e)
{
	char dir[PATH_MAX];
	int err = kbuild_facts(r->kver, &r->k);

	if (err)
		return rc_err_set(e, err, NULL, "cannot read the kernel's facts");
	if (!*r->k.dkms_version) {
		r->unchanged = "rdma_rxe was not installed for this kernel by 'rdmactl module install'";
		return 0;
	}
	if (!ours(r->k.dkms_version))
		return rc_err_set(e, -EPERM, NULL, "rdma_rxe/%s in DKMS was not made by rdmactl: "
				  "remove it with 'dkms remove rdma_rxe/%s --all'",
				  r->k.dkms_version, r->k.dkms_version);
	if (r->k.running && r->k.loaded) {
		const struct model_src src = { .root = "", .nl = nl };
		const struct rdma_dev **t = NULL;
		enum kmod_state after;
		struct model m;
		size_t n;

		err = model_load(&src, NULL, MODEL_NETLINK, &m);
		if (err)
			return explain_dump(e, err, nl_ext_msg(nl));
		/* A device in use would hang the unload: nothing is removed. */
		err = rxe_pick(nl, &m, NULL, 0, false, r->wait, &t, &n, e);
		free(t);
		model_free(&m);
		if (err)
			return err;
		err = modules_unload("rdma_rxe", &after, e);
		if (err)
			return err;
		r->unloaded = true;
	}
	dkms_forget(r->k.dkms_version);
	snprintf(dir, sizeof(dir), SRC_ROOT "/rdma_rxe-%s", r->k.dkms_version);
	rm_tree(dir);
	if (!r->k.running)
		tidy_imageless_tree(r->k.kver);
	return 0;
}
