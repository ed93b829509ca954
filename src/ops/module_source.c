// SPDX-License-Identifier: GPL-2.0-or-later
/* The source of rdma_rxe a module build takes: its version, and its rxe tree staged for DKMS. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#include "kernel/kbuild.h"
#include "kernel/spawn.h"
#include "ops/op_err.h"
#include "ops/module_source.h"
#include "ops/tools.h"

/* The top directory of a source tarball, its first member, with its '/': "linux-source-6.1/". */
static int tarball_top(const char *tarball, char *top, size_t len, struct op_err *e)
{
	/* head ends the listing at the first line. */
	const char *list[] = { "sh", "-c", "tar -tf \"$1\" | head -n 1", "sh", tarball, NULL };
	struct spawn_out o;
	int err = tools_run(list, NULL, NULL, &o, e, "cannot list the source tarball");

	if (err)
		return err;
	if (!o.len || o.text[0] == '/' || !memchr(o.text, '/', o.len))
		return op_err_source(e, -EINVAL, SRC_NO_TOP_DIR, tarball);
	snprintf(top, len, "%.*s", (int)((char *)memchr(o.text, '/', o.len) - o.text + 1), o.text);
	return 0;
}

/*
 * The top Makefile's version of a source tarball. tar stops at that one member
 * (--occurrence): a search by pattern would decompress the whole archive, a
 * minute and more on a slow machine.
 */
static int tarball_version(const char *tarball, char *buf, size_t len,
			   const struct spawn_progress *p, struct op_err *e)
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
	err = tools_run(argv, "reading the source's version", p, &o, e,
		  "cannot read the source's Makefile");
	if (err)
		return err;
	if (!mkdtemp(dir))
		return op_err_file(e, -errno, FILE_TEMP, "/tmp");
	snprintf(path, sizeof(path), "%s/Makefile", dir);
	f = fopen(path, "w");
	if (f) {
		fwrite(o.text, 1, o.len, f);
		fclose(f);
	}
	err = kbuild_makefile_version(dir, buf, len);
	unlink(path);
	rmdir(dir);
	return err ? op_err_source(e, err, SRC_NO_VERSION, tarball) : 0;
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
int module_source_pick_version(struct module_install_req *r, struct op_err *e)
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
			return op_err_source(e, -errno, SRC_UNREADABLE, src);
		err = is_dir(src) ? kbuild_makefile_version(src, have, sizeof(have)) :
				    tarball_version(src, have, sizeof(have), r->progress, e);
		if (err && is_dir(src))
			return op_err_source(e, err, SRC_NO_VERSION, src);
		if (err)
			return err;
		snprintf(want, sizeof(want), "%s", k->upstream);
	}
	snprintf(r->version, sizeof(r->version), "%s", have);
	if (!*want || strcmp(have, want)) {
		if (!r->force)
			return op_err_source_version(e, have, k->kver, want,
						      r->source ? NULL : k->series);
		r->version_forced = true;
	}
	return 0;
}

static int write_conf(const char *dir, const char *version, struct op_err *e)
{
	char path[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/dkms.conf", dir);
	f = fopen(path, "w");
	if (!f)
		return op_err_file(e, -errno, FILE_WRITE, path);
	fprintf(f, MODULE_MARK "\n"
		"PACKAGE_NAME=\"rdma_rxe\"\n"
		"PACKAGE_VERSION=\"%s\"\n"
		"BUILT_MODULE_NAME[0]=\"rdma_rxe\"\n"
		"DEST_MODULE_LOCATION[0]=\"/updates/dkms\"\n"
		"MAKE[0]=\"make -C ${kernel_source_dir} M=${dkms_tree}/${PACKAGE_NAME}/"
		"${PACKAGE_VERSION}/build CONFIG_RDMA_RXE=m modules\"\n"
		"CLEAN=\"true\"\n"
		"AUTOINSTALL=\"yes\"\n", version);
	if (fclose(f))
		return op_err_file(e, -EIO, FILE_WRITE, path);
	return 0;
}

/*
 * drivers/infiniband/sw/rxe of a source tarball as DIR. tar is given the
 * directory's whole name and --occurrence: it stops reading once past that
 * directory, before half of the archive is decompressed (a pattern, or
 * --strip-components, would keep it reading to the end). The directory is
 * extracted beside DIR and moved into place.
 */
static int extract(const char *tarball, const char *dir, const struct spawn_progress *p,
		   struct op_err *e)
{
	char top[PATH_MAX], tmp[PATH_MAX + 8], from[2 * PATH_MAX + 16];
	const char *argv[] = { "tar", "-xf", tarball, "-C", tmp, "--occurrence", top, NULL, NULL,
			       NULL };
	size_t len = strlen(tarball);
	struct spawn_out o;
	int err = tarball_top(tarball, top, sizeof(top) - 32, e);

	/*
	 * Debian's source tarballs are xz in independent blocks (55 in 6.1's,
	 * 69 in 7.3's), which xz from 5.4 decompresses on every CPU: most of
	 * an install's time on a slow machine is this decompression.
	 */
	if (len > 7 && !strcmp(tarball + len - 7, ".tar.xz")) {
		argv[7] = "-I";
		argv[8] = "xz -T0";
	}

	if (err)
		return err;
	strcat(top, "drivers/infiniband/sw/rxe");
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", dir);
	if (!mkdtemp(tmp))
		return op_err_file(e, -errno, FILE_MKDIR_BESIDE, dir);
	err = tools_run(argv, "extracting drivers/infiniband/sw/rxe", p, &o, e,
		  "cannot extract the rxe source");
	snprintf(from, sizeof(from), "%s/%s", tmp, top);
	if (!err && rename(from, dir) < 0)
		err = op_err_file(e, -errno, FILE_MOVE_TO, dir);
	tools_rm_tree(tmp);
	return err;
}

/* Only drivers/infiniband/sw/rxe of the source, into DIR. */
int module_source_stage(struct module_install_req *r, const char *dir, struct op_err *e)
{
	const char *src = r->source ? r->source : r->k.source;
	char probe[PATH_MAX + 8];
	struct spawn_out o;
	int err;

	if (is_dir(src)) {
		char from[PATH_MAX + 32];
		const char *argv[] = { "cp", "-a", from, dir, NULL };

		if (mkdir(dir, 0755) < 0)
			return op_err_file(e, -errno, FILE_MKDIR, dir);
		snprintf(from, sizeof(from), "%s/drivers/infiniband/sw/rxe/.", src);
		err = tools_run(argv, NULL, NULL, &o, e, "cannot copy the rxe source");
	} else {
		err = extract(src, dir, r->progress, e);
	}
	if (err)
		return err;
	snprintf(probe, sizeof(probe), "%s/rxe.c", dir);
	if (access(probe, F_OK))
		return op_err_source(e, -ENOENT, SRC_NO_RXE, src);
	return write_conf(dir, r->version, e);
}
