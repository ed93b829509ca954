// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rxe-vm stage 1: PID 1 inside the initramfs. Loads the modules the root needs,
 * mounts the host root (virtiofs or 9p, read-only) under a tmpfs overlay,
 * switches into it, sets up the network, then runs CMD and reports its status
 * on the host's control port; a shell or systemd it leaves to stage 2 (busybox
 * sh, kept in RAM).
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
#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
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
#include <sys/wait.h>
#include <unistd.h>

#include "init.h"

/* switch_root: NEWROOT becomes /, and the initramfs's files are freed. */
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
}

/* The host's virtio-serial ports by name: rxevm.ctl, and for a run rxevm.out and rxevm.err. */
static void find_ports(char out[64], char err[64], char ctl[64])
{
	DIR *d = opendir("/sys/class/virtio-ports");
	char path[320], name[64];
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *dst;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/virtio-ports/%s/name", e->d_name);
		read_line(path, name, sizeof(name));
		dst = !strcmp(name, "rxevm.out") ? out : !strcmp(name, "rxevm.err") ? err :
		      !strcmp(name, "rxevm.ctl") ? ctl : NULL;
		if (dst)
			snprintf(dst, 64, "/dev/%.58s", e->d_name);
	}
	if (d)
		closedir(d);
	if (!*ctl)
		fail("no control port");
}

/*
 * RUN/argv, from the host: the directory to run in, the count of -e
 * variables, the variables, then CMD and its arguments, each ended by a NUL.
 * CMD is looked up in PATH, as env and the shells do (127 when it is not
 * found, 126 when it cannot run), with its streams on the host's ports. Its
 * status, or 128 and the signal that ended it.
 */
/*
 * A userland of its own (--userland): the host's / is under /.rxevm-host of
 * the share, and each of the comma-separated host paths LIST (the checkout,
 * the bed's cache and run directory, --share's) is bound at the same path in
 * the new root, over the overlay: what the guest writes there stays in RAM.
 */
static void share_host_paths(char *list)
{
	char src[4096], dst[4096];

	for (char *save = NULL, *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		snprintf(src, sizeof(src), NEWROOT "/.rxevm-host%s", p);
		snprintf(dst, sizeof(dst), NEWROOT "%s", p);
		mkdirs(dst);
		if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL))
			fail("cannot share the host's %s with the guest: %s", p, strerror(errno));
	}
}

static int run_payload(const char *run, const char *out, const char *err)
{
	char path[4096], *buf, **f, **argv;
	size_t nf = 0, len, nenv;
	struct stat st;
	int fd, status;
	pid_t pid, w;

	snprintf(path, sizeof(path), "%s/argv", run);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st))
		fail("cannot read %s: %s", path, strerror(errno));
	len = (size_t)st.st_size;
	buf = malloc(len + 1);
	f = calloc(len + 4, sizeof(*f));
	if (!buf || !f || read(fd, buf, len) != (ssize_t)len)
		fail("cannot read %s", path);
	close(fd);
	buf[len] = '\0';
	for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
		f[nf++] = buf + i;
	nenv = nf > 1 ? strtoul(f[1], NULL, 10) : 0;
	if (nf < 3 + nenv)
		fail("%s is not a directory, variables and a command", path);
	argv = f + 2 + nenv;	/* f ends with a NULL: calloc'd past the last field */
	pid = fork();
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY), o = open(out, O_WRONLY), e = open(err, O_WRONLY);
		int errno_exec;

		if (in < 0 || o < 0 || e < 0 || dup2(in, 0) < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(125);
		for (size_t i = 0; i < nenv; i++)
			putenv(f[2 + i]);
		if (chdir(f[0])) {
			dprintf(2, "rxe-vm: cannot enter %s in the guest: %s\n", f[0], strerror(errno));
			_exit(125);
		}
		execvp(argv[0], argv);
		errno_exec = errno;	/* before dprintf, which may set errno */
		dprintf(2, "rxe-vm: cannot run %s: %s\n", argv[0], strerror(errno_exec));
		_exit(errno_exec == ENOENT ? 127 : 126);
	}
	if (pid < 0)
		fail("cannot start the payload: %s", strerror(errno));
	/* PID 1 reaps every orphan too: CMD's status is its own child's. */
	while ((w = wait(&status)) != pid)
		if (w < 0 && errno != EINTR)
			fail("lost the payload: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The console as stdin, stdout and stderr, with /proc and /dev mounted first. */
static void console(void)
{
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
}

/* The kernel's command line into BUF (LEN bytes). */
static void read_cmdline(char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, len - 1) : -1;
	if (n < 0)
		fail("cannot read /proc/cmdline: %s", strerror(errno));
	buf[n] = '\0';
	if (fd >= 0)
		close(fd);
}

/*
 * The new root: the host's root shared read-only (virtiofs when FS says,
 * else 9p) under a tmpfs overlay, the paths SHARE names shared writable,
 * and /run a tmpfs of its own holding stage 2.
 */
static void new_root(const char *fs, char *share)
{
	mkdirs("/mnt/host");
	if (fs && !strcmp(fs, "virtiofs")) {
		if (mount("hostroot", "/mnt/host", "virtiofs", MS_RDONLY, NULL))
			fail("cannot mount the host root over virtiofs: %s", strerror(errno));
	} else if (mount("hostroot", "/mnt/host", "9p", MS_RDONLY,
			 "trans=virtio,version=9p2000.L,msize=512000,cache=loose")) {
		fail("cannot mount the host root over 9p: %s", strerror(errno));
	}
	step("host root mounted");
	mkdirs("/mnt/rw");
	do_mount("rw", "/mnt/rw", "tmpfs", 0, "mode=0755");
	mkdirs("/mnt/rw/upper");
	mkdirs("/mnt/rw/work");
	mkdirs(NEWROOT);
	do_mount("overlay", NEWROOT, "overlay", 0,
		 "lowerdir=/mnt/host,upperdir=/mnt/rw/upper,workdir=/mnt/rw/work");
	if (share)
		share_host_paths(share);

	/*
	 * /run is a tmpfs of its own: stage 2 and its busybox live there, in RAM,
	 * so PID 1 never executes from the share.
	 */
	do_mount("run", NEWROOT "/run", "tmpfs", 0, "mode=0755");
	mkdirs(NEWROOT "/run/rxe-vm");
	if (!copy("/bin/busybox", NEWROOT "/run/rxe-vm/busybox", 0755) ||
	    !copy("/stage2", NEWROOT "/run/rxe-vm/stage2", 0755))
		fail("cannot copy stage 2: busybox or stage2 missing from the initramfs");
}

/* KVER's modules from MODDIR, its headers and its build configuration where Debian keeps them. */
static void kernel_files(const char *kver, const char *moddir)
{
	char path[4096], dst[4096];

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
}

/* The guest's own pseudo filesystems, over whatever the host share shows there. */
static void pseudo_fs(void)
{
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
}

int main(void)
{
	char cmdline[4096] = "", path[4096];
	const char *kver, *moddir, *fs, *hosts, *host, *run, *mode, *init;
	char *share;
	char out[64] = "", err[64] = "", ctl[64] = "";

	console();
	read_cmdline(cmdline, sizeof(cmdline));
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
	run = arg(cmdline, "rxevm.run");
	mode = arg(cmdline, "rxevm.mode");
	init = arg(cmdline, "rxevm.init");
	share = (char *)arg(cmdline, "rxevm.share");	/* its own copy */
	if (!kver || !moddir || !run)
		fail("rxevm.kver, rxevm.moddir or rxevm.run missing from the kernel command line");

	step("stage 1 started");
	/* order.2 has what only two guests need (virtio_net). */
	load_modules("/modules/order");
	if (hosts && !strcmp(hosts, "2"))
		load_modules("/modules/order.2");

	step("modules loaded");
	new_root(fs, share);
	kernel_files(kver, moddir);
	pseudo_fs();

	/* The host name and the network. */
	snprintf(path, sizeof(path), "rxe-vm%s", hosts && !strcmp(hosts, "2") && host ? host : "");
	if (sethostname(path, strlen(path)))
		fail("cannot set the host name: %s", strerror(errno));
	link_up("lo", 0);
	switch_root();
	find_ports(out, err, ctl);
	network(hosts, host);
	step("network up");

	setenv("RXE_VM", "1", 1);
	setenv("RXE_VM_HOST", host ? host : "1", 1);
	setenv("RXE_VM_HOSTS", hosts ? hosts : "1", 1);
	setenv("HOME", "/root", 1);
	setenv("TERM", "dumb", 0);
	setenv("LANG", "C.UTF-8", 1);
	setenv("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
	if ((mode && strcmp(mode, "run")) || (init && strcmp(init, "bed"))) {
		/* A shell, or systemd as PID 1: stage 2 (busybox sh) does those. */
		execl("/run/rxe-vm/busybox", "busybox", "sh", "/run/rxe-vm/stage2", out, err, ctl,
		      (char *)NULL);
		fail("cannot run stage 2: %s", strerror(errno));
	}
	if (!*out || !*err)
		fail("no output or error port");
	write_text(ctl, "started\n");
	snprintf(path, sizeof(path), "exit %d\n", run_payload(run, out, err));
	write_text(ctl, path);
	off();
	return 1;
}

