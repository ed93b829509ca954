// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rxe-vm stage 1: PID 1 inside the initramfs. Loads the modules the root needs,
 * mounts the host root (virtiofs or 9p, read-only) under a tmpfs overlay, then
 * switches into it and runs stage 2 with a busybox kept in RAM.
 *
 * In C rather than busybox's sh: under TCG each command of a script cost a
 * fork, often an exec, 4-6 ms; this does the same work in system calls, and
 * loads a level's modules from threads side by side. Built static by rxe-vm
 * for the initramfs; it writes its failures on the console, where the host
 * finds them (no "started" marker: a boot failure).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NEWROOT "/newroot"
#define MAXMODS 64

static void off(void)
{
	/* isa-debug-exit at 0xf4 ends qemu at once; power-off is the fallback. */
	int fd = open("/dev/port", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		(void)!pwrite(fd, "\0", 1, 0xf4);
		close(fd);
	}
	sync();
	reboot(RB_POWER_OFF);
	_exit(1);
}

__attribute__((format(printf, 1, 2), noreturn))
static void fail(const char *fmt, ...)
{
	va_list ap;

	fputs("rxe-vm: stage 1: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputs("\n", stdout);
	fflush(stdout);
	off();
	_exit(1);
}

static void do_mount(const char *src, const char *dst, const char *type, unsigned long flags,
		     const char *data)
{
	if (mount(src, dst, type, flags, data))
		fail("cannot mount %s on %s (%s): %s", src, dst, type ? type : "bind/move",
		     strerror(errno));
}

/* mkdir -p: every missing directory of PATH. */
static void mkdirs(const char *path)
{
	char p[4096];

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		fail("path too long: %s", path);
	for (char *s = p + 1;; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			fail("cannot create %s: %s", p, strerror(errno));
		if (!c)
			break;
		*s = c;
	}
}

/* FROM copied to TO with MODE; false when FROM does not exist. */
static int copy(const char *from, const char *to, mode_t mode)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0) {
		if (errno == ENOENT)
			return 0;
		fail("cannot read %s: %s", from, strerror(errno));
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (out < 0)
		fail("cannot create %s: %s", to, strerror(errno));
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			fail("cannot write %s: %s", to, strerror(errno));
	if (n < 0 || close(out))
		fail("cannot copy %s: %s", from, strerror(errno));
	close(in);
	return 1;
}

struct module {
	char name[64];
	int err;
	pthread_t thread;
};

static void *load(void *arg)
{
	struct module *m = arg;
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "/modules/%s.ko", m->name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || syscall(SYS_finit_module, fd, "", 0))
		m->err = errno;
	if (fd >= 0)
		close(fd);
	return NULL;
}

/*
 * FILE has a line for each level of the modules' dependency graph: a line's
 * modules need only those of earlier lines, so they load side by side (fuse
 * and overlay while the virtio core does).
 */
static void load_modules(const char *file)
{
	struct module mods[MAXMODS];
	char line[4096];
	FILE *f = fopen(file, "re");

	if (!f)
		fail("cannot read %s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		size_t n = 0;

		for (char *save, *w = strtok_r(line, " \n", &save); w; w = strtok_r(NULL, " \n", &save)) {
			if (n == MAXMODS)
				fail("more than %d modules on a line of %s", MAXMODS, file);
			snprintf(mods[n].name, sizeof(mods[n].name), "%s", w);
			mods[n].err = 0;
			if (pthread_create(&mods[n].thread, NULL, load, &mods[n]))
				fail("cannot start a thread to load %s", w);
			n++;
		}
		for (size_t i = 0; i < n; i++)
			pthread_join(mods[i].thread, NULL);
		for (size_t i = 0; i < n; i++)
			if (mods[i].err && mods[i].err != EEXIST)
				fail("insmod %s failed: %s", mods[i].name, strerror(mods[i].err));
	}
	fclose(f);
}

/* The value of WORD=... on the kernel command line (the last one: --append's), or NULL. */
static const char *arg(char *cmdline, const char *word)
{
	const char *v = NULL;
	size_t n = strlen(word), len = 0;

	for (char *p = cmdline; (p = strstr(p, word)); p += n)
		if ((p == cmdline || p[-1] == ' ') && p[n] == '=') {
			v = p + n + 1;
			len = strcspn(v, " \n");
		}
	return v ? strndup(v, len) : NULL;
}

static void loopback_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (sk < 0 || ioctl(sk, SIOCGIFFLAGS, &ifr))
		fail("cannot read the loopback's flags: %s", strerror(errno));
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(sk, SIOCSIFFLAGS, &ifr))
		fail("cannot bring the loopback up: %s", strerror(errno));
	close(sk);
}

/* switch_root: NEWROOT becomes /, the initramfs's files are freed, stage 2 runs. */
static void switch_root(void)
{
	static const char *const files[] = { "/init", "/bin/busybox", "/stage2", "/config" };
	DIR *d = opendir("/modules");
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		unlink(files[i]);
	if (chdir(NEWROOT))
		fail("cannot enter %s: %s", NEWROOT, strerror(errno));
	do_mount(".", "/", NULL, MS_MOVE, NULL);
	if (chroot(".") || chdir("/"))
		fail("cannot change root: %s", strerror(errno));
	execl("/run/rxe-vm/busybox", "busybox", "sh", "/run/rxe-vm/stage2", (char *)NULL);
	fail("cannot run stage 2: %s", strerror(errno));
}

int main(void)
{
	char cmdline[4096] = "", path[4096], dst[4096];
	const char *kver, *moddir, *fs, *hosts, *host;
	ssize_t n;
	int fd;

	mkdir("/proc", 0755);
	mkdir("/dev", 0755);
	do_mount("proc", "/proc", "proc", 0, NULL);
	do_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, cmdline, sizeof(cmdline) - 1) : -1;
	if (n < 0)
		fail("cannot read /proc/cmdline: %s", strerror(errno));
	cmdline[n] = '\0';
	if (fd >= 0)
		close(fd);
	if (strstr(cmdline, "rxevm.probe=1")) {
		/* The host's KVM probe: reaching here is all it asks. */
		puts("rxe-vm: probe reached");
		fflush(stdout);
		off();
	}
	kver = arg(cmdline, "rxevm.kver");
	moddir = arg(cmdline, "rxevm.moddir");
	fs = arg(cmdline, "rxevm.fs");
	hosts = arg(cmdline, "rxevm.hosts");
	host = arg(cmdline, "rxevm.host");
	if (!kver || !moddir)
		fail("rxevm.kver or rxevm.moddir missing from the kernel command line");

	/* order.2 has what only two guests need (virtio_net). */
	load_modules("/modules/order");
	if (hosts && !strcmp(hosts, "2"))
		load_modules("/modules/order.2");

	mkdirs("/mnt/host");
	if (fs && !strcmp(fs, "virtiofs")) {
		if (mount("hostroot", "/mnt/host", "virtiofs", MS_RDONLY, NULL))
			fail("cannot mount the host root over virtiofs: %s", strerror(errno));
	} else if (mount("hostroot", "/mnt/host", "9p", MS_RDONLY,
			 "trans=virtio,version=9p2000.L,msize=512000,cache=loose")) {
		fail("cannot mount the host root over 9p: %s", strerror(errno));
	}
	mkdirs("/mnt/rw");
	do_mount("rw", "/mnt/rw", "tmpfs", 0, "mode=0755");
	mkdirs("/mnt/rw/upper");
	mkdirs("/mnt/rw/work");
	mkdirs(NEWROOT);
	do_mount("overlay", NEWROOT, "overlay", 0,
		 "lowerdir=/mnt/host,upperdir=/mnt/rw/upper,workdir=/mnt/rw/work");

	/*
	 * /run is a tmpfs of its own: stage 2 and its busybox live there, in RAM,
	 * so PID 1 never executes from the share.
	 */
	do_mount("run", NEWROOT "/run", "tmpfs", 0, "mode=0755");
	mkdirs(NEWROOT "/run/rxe-vm");
	if (!copy("/bin/busybox", NEWROOT "/run/rxe-vm/busybox", 0755) ||
	    !copy("/stage2", NEWROOT "/run/rxe-vm/stage2", 0755))
		fail("cannot copy stage 2: busybox or stage2 missing from the initramfs");

	/*
	 * The kernel package's modules, so that the kernel's own module requests
	 * (rdma-link-rxe, crypto-crc32) find them with the real modprobe.
	 */
	snprintf(dst, sizeof(dst), NEWROOT "/lib/modules/%s", kver);
	mkdirs(dst);
	snprintf(path, sizeof(path), NEWROOT "%s", moddir);
	if (mount(path, dst, NULL, MS_BIND, NULL))
		fail("cannot bind %s onto /lib/modules/%s: %s", moddir, kver, strerror(errno));

	/* The host's headers for this kernel, where kbuild and DKMS look for them. */
	snprintf(path, sizeof(path), NEWROOT "/usr/src/linux-headers-%s", kver);
	snprintf(dst, sizeof(dst), NEWROOT "/lib/modules/%s/build", kver);
	if (!access(path, F_OK) && access(dst, F_OK)) {
		snprintf(path, sizeof(path), "/usr/src/linux-headers-%s", kver);
		if (symlink(path, dst))
			fail("cannot link %s to %s: %s", dst, path, strerror(errno));
	}

	/*
	 * The kernel's build configuration where Debian keeps it, for 'rdmactl
	 * check': the host put it in the initramfs, sparing a read through the share.
	 */
	mkdirs(NEWROOT "/boot");
	snprintf(dst, sizeof(dst), NEWROOT "/boot/config-%s", kver);
	copy("/config", dst, 0644);

	/* The guest's own pseudo filesystems, over whatever the host share shows there. */
	do_mount("sysfs", NEWROOT "/sys", "sysfs", 0, NULL);
	do_mount("/dev", NEWROOT "/dev", NULL, MS_MOVE, NULL);
	do_mount("/proc", NEWROOT "/proc", NULL, MS_MOVE, NULL);
	mkdirs(NEWROOT "/dev/pts");
	do_mount("devpts", NEWROOT "/dev/pts", "devpts", 0, "gid=5,mode=620");
	mkdirs(NEWROOT "/dev/shm");
	do_mount("shm", NEWROOT "/dev/shm", "tmpfs", 0, "mode=1777");
	unlink(NEWROOT "/dev/fd");
	if (symlink("/proc/self/fd", NEWROOT "/dev/fd"))
		fail("cannot link /dev/fd: %s", strerror(errno));

	/* The host name, and the loopback up: stage 2 sets up the rest of the network. */
	snprintf(path, sizeof(path), "rxe-vm%s", hosts && !strcmp(hosts, "2") && host ? host : "");
	if (sethostname(path, strlen(path)))
		fail("cannot set the host name: %s", strerror(errno));
	loopback_up();
	switch_root();
	return 1;
}
