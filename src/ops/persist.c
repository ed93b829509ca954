// SPDX-License-Identifier: GPL-2.0-or-later
/* Operations on the persistent-links file, and on the links it lists. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "kernel/nl.h"
#include "kernel/safe.h"
#include "model/names.h"
#include "ops/op_err.h"
#include "ops/persist.h"
#include "ops/link.h"

/* How long to wait for another edit, in ms: RDMACTL_LOCK_TIMEOUT's seconds, else the default. */
static int lock_wait(int *ms, struct op_err *e)
{
	const char *v = getenv("RDMACTL_LOCK_TIMEOUT");
	char *end;
	long s;

	*ms = PERSIST_LOCK_MS;
	if (!v)
		return 0;
	errno = 0;
	s = strtol(v, &end, 10);
	if (!*v || *end || errno || s < 0 || s > 3600)
		return op_err_set(e, -EINVAL, NULL, "RDMACTL_LOCK_TIMEOUT is '%s': give the seconds "
				  "an edit waits for another's to end, 0 to 3600 (default %d)", v,
				  PERSIST_LOCK_MS / 1000);
	*ms = (int)s * 1000;
	return 0;
}

int persist_lock(const char *path, struct op_err *e)
{
	struct safe_path p;
	int fd, wait_ms, err = lock_wait(&wait_ms, e);

	if (err)
		return err;

	if (!strcmp(path, RDMACTL_CONF_DEFAULT) && mkdir(RDMACTL_CONF_DIR, 0755) < 0 &&
	    errno != EEXIST)
		return op_err_file(e, -errno, FILE_MKDIR, RDMACTL_CONF_DIR);
	fd = safe_lock(path, wait_ms, &p);
	if (fd >= 0)
		return fd;
	if (fd == -EWOULDBLOCK)
		return op_err_set(e, fd, NULL, "cannot edit %s: another rdmactl has been editing it "
				  "for %d s (it holds its directory's lock); try again when it is "
				  "done, or wait longer (RDMACTL_LOCK_TIMEOUT)", path, wait_ms / 1000);
	return op_err_conf_save(e, fd, path, &p);
}

void persist_unlock(int lock)
{
	safe_unlock(lock);
}

int persist_load(const char *path, struct conf *c, struct op_err *e)
{
	char msg[512];
	struct safe_path p;
	int err = model_conf_load(path, c, msg, sizeof(msg), &p);

	return err ? op_err_conf_load(e, err, path, msg, &p) : 0;
}

int persist_save(const char *path, const struct conf *c, struct op_err *e)
{
	struct safe_path p;
	/* Under persist_lock, which made the default file's directory when missing. */
	int err = model_conf_save(c, path, &p);

	return err ? op_err_conf_save(e, err, path, &p) : 0;
}

bool persist_is_symlink(const char *path, char *target, size_t len)
{
	struct safe_path p;

	/* As the edit resolved it (safefile.h): a symlink that led to a file. */
	if (safe_resolve(path, &p) || !p.symlink)
		return false;
	snprintf(target, len, "%s", p.target);
	return true;
}

/* Adds NAME NETDEV to C: 1 when it is new, 0 when there already, -EEXIST or -EBUSY explained. */
static int record(const char *path, struct conf *c, const char *name, const char *netdev,
		  struct op_err *e)
{
	int err = model_conf_add(c, name, netdev);

	if (err == 1)
		return 0;	/* there already */
	if (err == 0)
		return 1;
	return op_err_persist_conflict(e, err, name, err == -EEXIST ? model_conf_find(c, name)->netdev :
					err == -EBUSY ? model_conf_find_netdev(c, netdev)->name : "",
					path, netdev);
}

int persist_add(const char *path, const char *name, const char *netdev, struct op_err *e)
{
	struct conf c;
	int lock = persist_lock(path, e), err;

	if (lock < 0)
		return lock;
	err = persist_load(path, &c, e);
	if (!err)
		err = record(path, &c, name, netdev, e);
	if (err == 1)
		err = persist_save(path, &c, e);
	model_conf_free(&c);
	persist_unlock(lock);
	return err;
}

/* persist_del with the file's lock held. */
static int del_locked(const char *path, char *const *words, int n, struct op_err *e)
{
	struct conf c;
	int err = persist_load(path, &c, e);

	/* Each word must name an entry of the file as it was: then all go at once. */
	for (int i = 0; !err && i < n; i++) {
		bool found = false;

		for (size_t k = 0; k < c.n && !found; k++)
			found = !strcmp(c.e[k].name, words[i]) || !strcmp(c.e[k].netdev, words[i]);
		if (!found)
			err = op_err_persist_absent(e, words[i], path);
	}
	for (int i = 0; !err && i < n; i++)
		model_conf_del(&c, words[i]);
	if (!err)
		err = persist_save(path, &c, e);
	model_conf_free(&c);
	return err;
}

int persist_del(const char *path, char *const *words, int n, struct op_err *e)
{
	int lock = persist_lock(path, e), err;

	if (lock < 0)
		return lock;
	err = del_locked(path, words, n, e);
	persist_unlock(lock);
	return err;
}

int persist_add_link(struct nl *nl, const char *path, struct link_add_req *r, struct op_err *e)
{
	struct conf c;
	int lock = persist_lock(path, e), err;

	if (lock < 0)
		return lock;
	err = persist_load(path, &c, e);
	if (err) {
		persist_unlock(lock);
		return err;
	}
	err = link_add(nl, r, e);
	if (!err)
		err = record(path, &c, r->made, r->netdev, e);
	if (err == 1)
		err = persist_save(path, &c, e);
	if (err < 0 && r->created) {
		struct op_err undo;

		/* Nothing half-done: the link goes with the failed record. */
		op_err_persist_undo(e, r->made, link_del_name(nl, r->made, &undo), undo.what);
		r->created = false;
	}
	model_conf_free(&c);
	persist_unlock(lock);
	return err < 0 ? err : 0;
}

int persist_start(struct nl *nl, const char *path, const struct conf *c,
		  enum start_state *state, struct op_err *e)
{
	int ret = 0;

	for (size_t i = 0; i < c->n; i++) {
		const struct conf_entry *x = &c->e[i];
		struct link_add_req r = { .name = x->name, .netdev = x->netdev, .exist_ok = true,
					 .force = true };
		struct op_err one;
		int err = link_add(nl, &r, &one);

		/* The kernel's ENODEV: no such netdev (yet), which is no failure. */
		state[i] = err == -ENODEV ? START_ABSENT : err ? START_FAILED :
			   r.created ? START_ADDED : START_PRESENT;
		if (!err || err == -ENODEV)
			continue;
		ret = op_err_at_line(e, !ret, path, x->line, &one);
	}
	return ret;
}

void persist_only_netdevs(struct conf *c, char *const *netdevs, int n)
{
	size_t k = 0;

	if (n == 0)
		return;
	for (size_t i = 0; i < c->n; i++) {
		bool keep = false;

		for (int j = 0; j < n && !keep; j++)
			keep = !strcmp(c->e[i].netdev, netdevs[j]);
		if (keep) {
			c->e[k++] = c->e[i];
		} else {
			model_conf_entry_free(&c->e[i]);
		}
	}
	c->n = k;
}

static int write_wants(const char *dir, const char *netdev, struct op_err *e)
{
	char esc[4 * 16 + 1], sub[PATH_MAX], file[PATH_MAX + 16], *text;
	struct safe_path p;
	struct stat st;
	int err, n;

	model_names_unit_escape(esc, sizeof(esc), netdev);
	if (snprintf(sub, sizeof(sub), "%s/sys-subsystem-net-devices-%s.device.d", dir, esc) >=
	    (int)sizeof(sub))
		return op_err_file(e, -ENAMETOOLONG, FILE_WRITE, dir);
	snprintf(file, sizeof(file), "%s/rdmactl.conf", sub);
	if (mkdir(sub, 0755) && errno != EEXIST)
		return op_err_file(e, -errno, FILE_MKDIR, sub);
	/*
	 * The drop-in and its directory are rdmactl's own: a symlink found in
	 * either place is someone else's, and nothing is written through it
	 * (the links file, which an admin may keep elsewhere, is followed).
	 */
	if (lstat(sub, &st) < 0)
		return op_err_file(e, -errno, FILE_MKDIR, sub);
	if (!S_ISDIR(st.st_mode))
		return op_err_set(e, -EINVAL, NULL, "will not write into %s: it is %s, not a "
				  "directory of rdmactl's own; remove it and run this again", sub,
				  safe_type_name(st.st_mode));
	if (safe_resolve(file, &p) != -ENOENT && p.symlink)
		return op_err_set(e, -EINVAL, NULL, "will not write %s: it is a symlink (to %s), "
				  "not the drop-in rdmactl makes; remove it and run this again", file,
				  p.target);
	n = asprintf(&text, "# Made by rdmactl's generator from the persistent-links file.\n"
		     "[Unit]\nWants=rdmactl-link@%s.service\n", esc);
	if (n < 0)
		return op_err_file(e, -ENOMEM, FILE_WRITE, file);
	/* As every file rdmactl writes: a regular file, replaced whole (safefile.h). */
	err = safe_write(file, text, (size_t)n, 0644, &p);
	free(text);
	if (err == -ENOTREG)
		return op_err_not_regular(e, "write", file, &p, NULL);
	return err ? op_err_file(e, err, FILE_WRITE, file) : 0;
}

int persist_wants(const char *path, const char *dir, struct op_err *e)
{
	struct conf c;
	int err = persist_load(path, &c, e);

	if (err)
		return err;
	for (size_t i = 0; !err && i < c.n; i++) {
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(c.e[j].netdev, c.e[i].netdev);
		if (!seen)
			err = write_wants(dir, c.e[i].netdev, e);
	}
	model_conf_free(&c);
	return err;
}

bool persist_needs_reload(const char *path)
{
	return !strcmp(path, RDMACTL_CONF_DEFAULT) && !access("/run/systemd/system", F_OK) &&
	       !access("/etc/systemd/system/multi-user.target.wants/rdmactl.service", F_OK);
}
