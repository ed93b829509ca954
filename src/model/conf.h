/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The persistent-links file: "NAME NETDEV" a line, comments kept, atomic rewrite. */
#ifndef RDMACTL_CONF_H
#define RDMACTL_CONF_H

#include <stdbool.h>
#include <stddef.h>

#define RDMACTL_CONF_DIR "/etc/rdmactl"
#define RDMACTL_CONF_DEFAULT RDMACTL_CONF_DIR "/rxe.conf"

struct conf_entry {
	char *name;
	char *netdev;		/* in the block NAME points to */
	size_t line;		/* 1-based line in the file */
};

struct conf {
	char **lines;		/* the file as read, each without its newline */
	size_t nlines;
	struct conf_entry *e;
	size_t n;
	size_t lines_cap, e_cap;	/* allocated room */
};

struct safe_path;

/*
 * Reads PATH (a regular file, or a symlink to one: P says what it named). A
 * missing file is an empty configuration. On a malformed line, -EINVAL and
 * ERR says "PATH:LINE: what is wrong". Anything but a regular file: -ENOTREG
 * (kernel/safe.h), never opened. Other errors: negative errno. P may be NULL.
 */
int model_conf_load(const char *path, struct conf *c, char *err, size_t errlen,
	      struct safe_path *p);
/* The same from memory: LEN bytes of BUF, errors naming PATH. */
int model_conf_parse(const char *buf, size_t len, const char *path, struct conf *c, char *err,
	       size_t errlen);
void model_conf_free(struct conf *c);
/* What entry E holds (its name and netdev, one allocation). */
void model_conf_entry_free(struct conf_entry *e);

const struct conf_entry *model_conf_find(const struct conf *c, const char *name);
/* The entry on NETDEV, or NULL. */
const struct conf_entry *model_conf_find_netdev(const struct conf *c, const char *netdev);
/*
 * Appends "NAME NETDEV". -EEXIST if NAME is already there with another netdev,
 * -EBUSY if another name is on NETDEV, 1 if identical.
 */
int model_conf_add(struct conf *c, const char *name, const char *netdev);
/* Removes the entries named NAME or on netdev NAME; the number removed. */
int model_conf_del(struct conf *c, const char *name);

/* C's lines as the file holds them, NUL-terminated and allocated; LEN without the NUL. */
char *model_conf_format(const struct conf *c, size_t *len);
/*
 * Writes C to PATH as kernel/safe.h's safe_write does: a regular file (a
 * symlink's target) replaced atomically, owner and mode kept, never torn.
 * No directory is made (persist_lock makes the default file's own). P says
 * what PATH named; it may be NULL.
 */
int model_conf_save(const struct conf *c, const char *path, struct safe_path *p);

#endif
