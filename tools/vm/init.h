/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rxe-vm stage 1 (init.c): what its parts share. */
#ifndef RXE_VM_INIT_H
#define RXE_VM_INIT_H

#include <stddef.h>
#include <sys/types.h>

#define NEWROOT "/newroot"

/* The guest powered off, now. */
void off(void);
/*
 * A step of the boot reached, on the console: when a boot hangs, the host
 * names the last one (the kernel itself prints nothing there, "quiet").
 */
void step(const char *what);
/* Says why on the console, then powers off: the host sees no "started" marker. */
void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void do_mount(const char *src, const char *dst, const char *type, unsigned long flags,
	      const char *data);
/* mkdir -p: every missing directory of PATH. */
void mkdirs(const char *path);
/* FROM copied to TO with MODE; false when FROM does not exist. */
int copy(const char *from, const char *to, mode_t mode);
/* The value of WORD=... on the kernel command line (the last one: --append's), or NULL. */
const char *arg(char *cmdline, const char *word);
/* The text of a small file, without its newline; "" when unread. */
void read_line(const char *path, char *buf, size_t len);
void write_text(const char *path, const char *text);
/* init-mods.c: the modules FILE lists, a dependency level a line, each level's side by side. */
void load_modules(const char *file);
/* init-net.c: NAME up, with MTU when not 0. */
void link_up(const char *name, int mtu);
/* init-net.c: lo, and the bed's network for HOSTS guests as guest HOST. */
void network(const char *hosts, const char *host);

#endif
