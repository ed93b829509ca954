// SPDX-License-Identifier: GPL-2.0-or-later
/* rxe-vm stage 1: failing aloud, mounting, files. */
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
#include <sys/io.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "init.h"

void off(void)
{
	/*
	 * isa-debug-exit at 0xf4 ends qemu at once: through /dev/port, or where
	 * the kernel has none (Debian's cloud kernels) through the port itself,
	 * allowed by ioperm. Power-off is the fallback: ACPI's took some 0.25 s
	 * of a boot under TCG.
	 */
	int fd = open("/dev/port", O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		(void)!pwrite(fd, "\0", 1, 0xf4);
		close(fd);
	} else if (!ioperm(0xf4, 1, 1)) {
		outb(0, 0xf4);
	}
	sync();
	reboot(RB_POWER_OFF);
	_exit(1);
}

void step(const char *what)
{
	printf("rxe-vm: step: %s\n", what);
	fflush(stdout);
}

__attribute__((format(printf, 1, 2), noreturn))
void fail(const char *fmt, ...)
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

void do_mount(const char *src, const char *dst, const char *type, unsigned long flags,
	      const char *data)
{
	if (mount(src, dst, type, flags, data))
		fail("cannot mount %s on %s (%s): %s", src, dst, type ? type : "bind/move",
		     strerror(errno));
}

/* mkdir -p: every missing directory of PATH. */
void mkdirs(const char *path)
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
int copy(const char *from, const char *to, mode_t mode)
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

/* The value of WORD=... on the kernel command line (the last one: --append's), or NULL. */
const char *arg(char *cmdline, const char *word)
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

/* The text of a small file, without its newline; "" when unread. */
void read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	if (fd >= 0)
		close(fd);
}

void write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd >= 0) {
		(void)!write(fd, text, strlen(text));
		close(fd);
	}
}
