// SPDX-License-Identifier: GPL-2.0-or-later
/* What building rdma_rxe for a kernel needs, as it is on this system. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/utsname.h>

#include "kernel/kbuild.h"
#include "kernel/safe.h"
#include "kernel/spawn.h"
#include "kernel/sysfs.h"

const char *kbuild_origin_name(enum rxe_origin o)
{
	static const char *const names[] = { "none", "builtin", "in-tree", "dkms", "other" };

	return names[o];
}

/* The value of "NAME = VALUE" in Makefile text T, or NULL. */
static const char *mk_var(const char *t, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);

	for (const char *l = t; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *v = l + n;

		if (strncmp(l, name, n) || (*v != ' ' && *v != '='))
			continue;
		v += strspn(v, " \t");
		if (*v++ != '=')
			continue;
		v += strspn(v, " \t");
		snprintf(buf, len, "%.*s", (int)strcspn(v, " \t\n"), v);
		return buf;
	}
	return NULL;
}

static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = safe_fopen(path);
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

/* The file named by the first "include FILE" line of makefile text T, or NULL. */
static const char *include_line(const char *t)
{
	for (const char *l = t; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "include ", 8))
			return l + 8;
	return NULL;
}

int kbuild_makefile_version(const char *dir, char *buf, size_t len)
{
	char path[PATH_MAX], t[4096], v[16], p[16], s[16];
	const char *inc;
	int err;

	snprintf(path, sizeof(path), "%s/Makefile", dir);
	err = read_small(path, t, sizeof(t));
	if (err)
		return err;
	/*
	 * Debian's per-flavour headers include the common tree's Makefile: on
	 * the first line up to 6.x, after a KBUILD_OUTPUT= line from 7.x.
	 */
	if (!mk_var(t, "VERSION", v, sizeof(v)) && (inc = include_line(t))) {
		snprintf(path, sizeof(path), "%.*s", (int)strcspn(inc, "\n"), inc);
		err = read_small(path, t, sizeof(t));
		if (err)
			return err;
	}
	if (!mk_var(t, "VERSION", v, sizeof(v)) || !mk_var(t, "PATCHLEVEL", p, sizeof(p)) ||
	    !mk_var(t, "SUBLEVEL", s, sizeof(s)))
		return -EINVAL;
	snprintf(buf, len, "%s.%s.%s", v, p, s);
	return 0;
}

int kbuild_pkg_version(const char *pkg, char *buf, size_t len)
{
	const char *argv[] = { "dpkg-query", "-W", "-f=${db:Status-Status} ${Version}", pkg, NULL };
	struct spawn_out o;
	int err = spawn_run(argv, NULL, NULL, &o);

	buf[0] = '\0';
	if (err)
		return err;
	if (o.status || strncmp(o.text, "installed ", 10))
		return -ENOENT;
	snprintf(buf, len, "%.*s", (int)strcspn(o.text + 10, " \n"), o.text + 10);
	return 0;
}

/* " Debian 6.1.192-2" in the headers' include/generated/package.h. */
static void headers_pkgver(struct kbuild *k)
{
	char path[PATH_MAX + 32], t[512];
	const char *d;

	snprintf(path, sizeof(path), "%s/include/generated/package.h", k->headers);
	if (read_small(path, t, sizeof(t)) || !(d = strstr(t, "Debian ")))
		return;
	d += 7;
	snprintf(k->kernel_pkgver, sizeof(k->kernel_pkgver), "%.*s", (int)strcspn(d, "\"\n "), d);
}

/* The running kernel's: "... Debian 6.1.192-2 (2026-11-16)" in /proc/version. */
static void running_pkgver(struct kbuild *k)
{
	char t[512];
	const char *d;

	if (read_small("/proc/version", t, sizeof(t)) || !(d = strstr(t, "Debian ")))
		return;
	d += 7;
	snprintf(k->kernel_pkgver, sizeof(k->kernel_pkgver), "%.*s", (int)strcspn(d, " \n"), d);
}

/* Where rdma_rxe comes from for KVER: modules.builtin, then modules.dep. */
static void find_module(struct kbuild *k)
{
	char path[PATH_MAX], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin", k->kver);
	if ((f = safe_fopen(path))) {
		while (fgets(line, sizeof(line), f))
			if (strstr(line, "/rdma_rxe.ko"))
				k->origin = RXE_BUILTIN;
		fclose(f);
	}
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", k->kver);
	if (k->origin == RXE_NONE && (f = safe_fopen(path))) {
		while (fgets(line, sizeof(line), f)) {
			char *colon = strchr(line, ':');
			const char *base;

			if (!colon)
				continue;
			*colon = '\0';
			base = strrchr(line, '/');
			base = base ? base + 1 : line;
			if (strncmp(base, "rdma_rxe.ko", 11))
				continue;
			/* modules.dep names files relative to the kernel's tree, or whole. */
			if (line[0] == '/')
				snprintf(k->module_path, sizeof(k->module_path), "%s", line);
			else
				snprintf(k->module_path, sizeof(k->module_path), "/lib/modules/%s/%s",
					 k->kver, line);
			k->origin = !strncmp(line, "kernel/", 7) ? RXE_IN_TREE :
				    strstr(line, "updates/dkms/") ? RXE_DKMS : RXE_OTHER;
			break;
		}
		fclose(f);
	}
}

/* DKMS's record: /var/lib/dkms/rdma_rxe/VERSION/KVER/ exists. */
static void find_dkms(struct kbuild *k)
{
	DIR *d = opendir("/var/lib/dkms/rdma_rxe");
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char path[PATH_MAX];

		/* A version longer than any rdmactl makes is not one of ours. */
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "source") ||
		    strlen(de->d_name) >= sizeof(k->dkms_version))
			continue;
		snprintf(path, sizeof(path), "/var/lib/dkms/rdma_rxe/%s/%s", de->d_name, k->kver);
		if (access(path, F_OK) == 0) {
			memcpy(k->dkms_version, de->d_name, strlen(de->d_name) + 1);
			break;
		}
	}
	closedir(d);
}

static void signatures(struct kbuild *k)
{
	char v[64], *open_br, *close_br;

	if (sysfs_read("", v, sizeof(v), "/sys/module/module/parameters/sig_enforce") > 0)
		k->sig_enforce = v[0] == 'Y';
	/* "none [integrity] confidentiality": the bracketed one is in force. */
	if (sysfs_read("", v, sizeof(v), "/sys/kernel/security/lockdown") > 0 &&
	    (open_br = strchr(v, '[')) && (close_br = strchr(open_br, ']'))) {
		snprintf(k->lockdown, sizeof(k->lockdown), "%.*s", (int)(close_br - open_br - 1),
			 open_br + 1);
		k->sig_enforce |= strcmp(k->lockdown, "none") != 0;
	}
}

int kbuild_facts(const char *kver, struct kbuild *k)
{
	struct utsname u;
	char path[PATH_MAX], *real, want[sizeof(k->kver)];
	const char *dot;

	/* KVER may be K's own: read again after an install. */
	if (kver)
		snprintf(want, sizeof(want), "%s", kver);
	memset(k, 0, sizeof(*k));
	if (uname(&u) < 0)
		return -errno;
	snprintf(k->kver, sizeof(k->kver), "%s", kver ? want : u.release);
	k->running = !strcmp(k->kver, u.release);
	snprintf(path, sizeof(path), "/lib/modules/%s/build", k->kver);
	if ((real = realpath(path, NULL))) {
		snprintf(k->headers, sizeof(k->headers), "%s", real);
		free(real);
		headers_pkgver(k);
		kbuild_makefile_version(k->headers, k->upstream, sizeof(k->upstream));
	}
	if (!*k->kernel_pkgver && k->running)
		running_pkgver(k);
	/* The series from the release: "6.1.0-56-cloud-amd64" is 6.1. */
	dot = strchr(k->kver, '.');
	if (dot)
		snprintf(k->series, sizeof(k->series), "%.*s",
			 (int)(dot + 1 - k->kver + strspn(dot + 1, "0123456789")), k->kver);
	snprintf(path, sizeof(path), "/usr/src/linux-source-%s.tar.xz", k->series);
	if (*k->series && access(path, R_OK) == 0) {
		char pkg[64];

		snprintf(k->source, sizeof(k->source), "%s", path);
		snprintf(pkg, sizeof(pkg), "linux-source-%s", k->series);
		kbuild_pkg_version(pkg, k->source_pkgver, sizeof(k->source_pkgver));
	}
	find_module(k);
	find_dkms(k);
	if (k->running) {
		k->loaded = sysfs_exists("", "/sys/module/rdma_rxe/initstate") ||
			    k->origin == RXE_BUILTIN;
		if (k->loaded)
			sysfs_read("", k->taint, sizeof(k->taint), "/sys/module/rdma_rxe/taint");
		signatures(k);
	}
	return 0;
}
