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

/* NAME up, with MTU first unless 0. */
static void link_up(const char *name, int mtu)
{
	struct ifreq ifr = { 0 };
	int sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_mtu = mtu;
	if (sk < 0 || (mtu && ioctl(sk, SIOCSIFMTU, &ifr)))
		fail("cannot set the MTU of %s: %s", name, strerror(errno));
	if (ioctl(sk, SIOCGIFFLAGS, &ifr))
		fail("cannot read the flags of %s: %s", name, strerror(errno));
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(sk, SIOCSIFFLAGS, &ifr))
		fail("cannot bring %s up: %s", name, strerror(errno));
	close(sk);
}

/*
 * rtnetlink, for the two things no ioctl does: a veth pair, and an address
 * added as iproute2 adds it (no broadcast, the prefix as given). By hand:
 * this program is static, and libmnl has no static library in Debian.
 */
struct rtreq {
	struct nlmsghdr h;
	char body[512];
};

static struct rtattr *rta_put(struct rtreq *r, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)r + NLMSG_ALIGN(r->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

/* A nest opened by rta_put(r, TYPE, NULL, 0) ends here. */
static void rta_end(struct rtreq *r, struct rtattr *a)
{
	a->rta_len = (unsigned short)((char *)r + r->h.nlmsg_len - (char *)a);
}

static int rt_talk(struct rtreq *r)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
		char more[256];
	} ack;
	int sk = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), err = 0;
	ssize_t n;

	if (sk < 0 || sendto(sk, r, r->h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		err = errno;
	else if ((n = recv(sk, &ack, sizeof(ack), 0)) < (ssize_t)(sizeof(ack.h) + sizeof(ack.e)))
		err = n < 0 ? errno : EPROTO;
	else if (ack.h.nlmsg_type == NLMSG_ERROR)
		err = -ack.e.error;
	if (sk >= 0)
		close(sk);
	return err;
}

static void veth_pair(const char *name, const char *peer)
{
	struct rtreq r = { .h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
				  .nlmsg_type = RTM_NEWLINK,
				  .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL } };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *info, *data, *p;
	int err;

	rta_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	info = rta_put(&r, IFLA_LINKINFO, NULL, 0);
	rta_put(&r, IFLA_INFO_KIND, "veth", 5);
	data = rta_put(&r, IFLA_INFO_DATA, NULL, 0);
	p = rta_put(&r, VETH_INFO_PEER, &ifi, sizeof(ifi));
	rta_put(&r, IFLA_IFNAME, peer, strlen(peer) + 1);
	rta_end(&r, p);
	rta_end(&r, data);
	rta_end(&r, info);
	if ((err = rt_talk(&r)))
		fail("guest network setup failed: cannot make the veth pair %s, %s: %s", name, peer,
		     strerror(err));
}

static void addr_add(const char *dev, const char *addr, unsigned char prefix)
{
	struct rtreq r = { .h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifaddrmsg)),
				  .nlmsg_type = RTM_NEWADDR,
				  .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL } };
	struct ifaddrmsg *ifa = NLMSG_DATA(&r.h);
	struct in_addr a;
	int err;

	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = prefix;
	ifa->ifa_index = if_nametoindex(dev);
	if (!ifa->ifa_index || inet_pton(AF_INET, addr, &a) != 1)
		fail("guest network setup failed: no %s for %s", dev, addr);
	rta_put(&r, IFA_LOCAL, &a, sizeof(a));
	rta_put(&r, IFA_ADDRESS, &a, sizeof(a));
	if ((err = rt_talk(&r)))
		fail("guest network setup failed: cannot add %s/%u to %s: %s", addr, prefix, dev,
		     strerror(err));
}

/* The text of a small file, without its newline; "" when unread. */
static void read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (fd >= 0)
		close(fd);
}

static void write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		(void)!write(fd, text, strlen(text));
		close(fd);
	}
}

/*
 * The bed's network: veth0 (10.11.11.251/24) and its peer veth1 for one
 * guest, eth0 (10.11.12.HOST/24) between two. It sets RXE_VM_NETDEV,
 * RXE_VM_ADDR and RXE_VM_PEER.
 */
static void network(const char *hosts, const char *host)
{
	static const char dad[] = "/proc/sys/net/ipv6/conf/default/accept_dad";
	char olddad[16], addr[32] = "10.11.11.251", peer[32] = "", state[16];

	/*
	 * The bed's links cannot meet a duplicate address: no IPv6 DAD on them,
	 * so that their fe80:: addresses (and GIDs) are final at once; later
	 * links get the kernel's default back. No such file: ipv6.disable=1.
	 */
	read_line(dad, olddad, sizeof(olddad));
	write_text(dad, "0");
	if (hosts && !strcmp(hosts, "2")) {
		int h = host ? atoi(host) : 1;

		/* Stage 1 loaded virtio_net where it is a module. */
		if (access("/sys/class/net/eth0", F_OK))
			fail("guest network setup failed: no eth0 (virtio_net)");
		snprintf(addr, sizeof(addr), "10.11.12.%d", h);
		snprintf(peer, sizeof(peer), "10.11.12.%d", 3 - h);
		link_up("eth0", 1500);
		addr_add("eth0", addr, 24);
		/* The link is up once qemu has joined the two guests' sockets. */
		for (int i = 0; i < 100; i++) {
			read_line("/sys/class/net/eth0/operstate", state, sizeof(state));
			if (!strcmp(state, "up"))
				break;
			usleep(50000);
		}
		setenv("RXE_VM_NETDEV", "eth0", 1);
	} else {
		veth_pair("veth0", "veth1");
		link_up("veth1", 0);
		link_up("veth0", 0);
		addr_add("veth0", addr, 24);
		setenv("RXE_VM_NETDEV", "veth0", 1);
	}
	if (*olddad)
		write_text(dad, olddad);
	setenv("RXE_VM_ADDR", addr, 1);
	setenv("RXE_VM_PEER", peer, 1);
}

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

int main(void)
{
	char cmdline[4096] = "", path[4096], dst[4096];
	const char *kver, *moddir, *fs, *hosts, *host, *run, *mode, *init;
	char out[64] = "", err[64] = "", ctl[64] = "";
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
	run = arg(cmdline, "rxevm.run");
	mode = arg(cmdline, "rxevm.mode");
	init = arg(cmdline, "rxevm.init");
	if (!kver || !moddir || !run)
		fail("rxevm.kver, rxevm.moddir or rxevm.run missing from the kernel command line");

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

	/* The host name and the network. */
	snprintf(path, sizeof(path), "rxe-vm%s", hosts && !strcmp(hosts, "2") && host ? host : "");
	if (sethostname(path, strlen(path)))
		fail("cannot set the host name: %s", strerror(errno));
	link_up("lo", 0);
	switch_root();
	find_ports(out, err, ctl);
	network(hosts, host);

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
