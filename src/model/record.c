// SPDX-License-Identifier: GPL-2.0-or-later
/* A record read back from its file, a JSON object a line (record.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <json-c/json.h>

#include "kernel/errname.h"
#include "kernel/safe.h"
#include "model/record.h"

/* Member KEY of O as a string, "" when it has none or another type. */
static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

static bool num(struct json_object *o, const char *key, long *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return false;
	*out = (long)json_object_get_int64(v);
	return true;
}

static bool flag(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

/* A word as a shell reads it back: bare when it holds nothing the shell treats apart. */
static void shell_word(char *buf, size_t len, const char *w)
{
	size_t n = strlen(buf);
	bool bare = *w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
				 "0123456789_./:=,+-@%") == strlen(w);

	if (n && n + 1 < len)
		buf[n++] = ' ', buf[n] = '\0';
	if (bare) {
		snprintf(buf + n, len - n, "%s", w);
		return;
	}
	if (n + 1 < len)
		buf[n++] = '\'', buf[n] = '\0';
	for (; *w && n + 6 < len; w++) {
		if (*w == '\'') {
			/* No backslash: the text escapes its own, which would double it. */
			memcpy(buf + n, "'\"'\"'", 5);
			n += 5;
		} else {
			buf[n++] = *w;
		}
	}
	if (n + 1 < len)
		buf[n++] = '\'';
	buf[n] = '\0';
}

/*
 * Room for one more of N things of SIZE at *V, grown by doubling (16 first):
 * false without memory. A record of many QPs is read in linear time.
 */
static bool room(void *v, size_t n, size_t size)
{
	void **p = v, *w;

	if (n && (n < 16 || (n & (n - 1))))
		return true;
	w = reallocarray(*p, n ? n * 2 : 16, size);
	if (!w)
		return false;
	*p = w;
	return true;
}

bool model_record_devs_apart(const char *a, const char *b)
{
	return *a && *b && strcmp(a, b);
}

struct model_record_qp *model_record_qp_of(const struct model_record *r, long qpn, long pid,
					   const char *dev)
{
	for (size_t i = r->nqps; i-- > 0;)
		if (r->qps[i].qpn == qpn && (pid < 0 || r->qps[i].pid == pid) &&
		    !model_record_devs_apart(dev ? dev : "", r->qps[i].dev))
			return &r->qps[i];
	return NULL;
}

/* O's owner (or its own pid and comm) into PID and COMM. */
static void owner_of(struct json_object *o, long *pid, char *comm, size_t len)
{
	struct json_object *owner;

	*pid = -1;
	if (json_object_object_get_ex(o, "owner", &owner)) {
		num(owner, "pid", pid);
		snprintf(comm, len, "%s", str(owner, "comm"));
	} else {
		num(o, "pid", pid);
		snprintf(comm, len, "%s", str(o, "comm"));
	}
}

/* A QP made (qp-made) or given its peer (qp-modified), kept for model_record_pair. */
static void qp_line(struct model_record *r, struct json_object *o, bool made)
{
	struct model_record_qp q = { .dest_qpn = -1 }, *k;

	if (!num(o, "qpn", &q.qpn))
		return;
	owner_of(o, &q.pid, q.comm, sizeof(q.comm));
	snprintf(q.dev, sizeof(q.dev), "%s", str(o, "ifname"));
	k = made ? NULL : model_record_qp_of(r, q.qpn, q.pid, q.dev);
	if (!k) {
		if (!room(&r->qps, r->nqps, sizeof(*r->qps)))
			return;
		k = &r->qps[r->nqps++];
		*k = q;
	}
	if (!made && num(o, "dest_qpn", &q.dest_qpn)) {
		k->dest_qpn = q.dest_qpn;
		snprintf(k->dgid, sizeof(k->dgid), "%s", str(o, "dgid"));
	}
}

/* The host's name and GIDs of record-started. */
static void host_of(struct model_record *r, struct json_object *o)
{
	struct json_object *v;
	size_t n;

	snprintf(r->host, sizeof(r->host), "%s", str(o, "host"));
	if (!json_object_object_get_ex(o, "gids", &v) || !json_object_is_type(v, json_type_array))
		return;
	n = json_object_array_length(v);
	free(r->gids);
	r->ngids = 0;
	r->gids = calloc(n ? n : 1, sizeof(*r->gids));
	for (size_t i = 0; r->gids && i < n; i++) {
		struct json_object *w = json_object_array_get_idx(v, i);

		if (json_object_is_type(w, json_type_string))
			snprintf(r->gids[r->ngids++], sizeof(*r->gids), "%s",
				 json_object_get_string(w));
	}
}

/* O, a change of the host's, kept when it takes QPs down with it. */
static void change_line(struct model_record *r, struct json_object *o, const char *ev)
{
	struct model_record_change *c;
	long n = 0;
	const char *to = str(o, "to");

	if ((!strcmp(ev, "port-state") && !strcmp(to, "ACTIVE")) ||
	    (!strcmp(ev, "netdev-state") && !strcmp(to, "up")) ||
	    !room(&r->changes, r->nchanges, sizeof(*r->changes)))
		return;
	c = &r->changes[r->nchanges++];
	memset(c, 0, sizeof(*c));
	snprintf(c->time, sizeof(c->time), "%s", str(o, "time"));
	snprintf(c->event, sizeof(c->event), "%s", ev);
	snprintf(c->ifname, sizeof(c->ifname), "%s", str(o, "ifname"));
	num(o, "port", &n);
	if (!strcmp(ev, "port-state"))
		snprintf(c->what, sizeof(c->what), "port %ld %s -> %s", n, str(o, "from"), to);
	else if (!strcmp(ev, "netdev-state"))
		snprintf(c->what, sizeof(c->what), "netdev %s %s -> %s", str(o, "netdev"),
			 str(o, "from"), to);
	else if (!strcmp(ev, "gid-removed") && num(o, "index", &n))
		snprintf(c->what, sizeof(c->what), "GID %ld %s", n, str(o, "gid"));
	else
		snprintf(c->what, sizeof(c->what), "%s", ev);
}

/* A process of the tree ended (process-exited), kept for its QPs' peers. */
static void exit_line(struct model_record *r, struct json_object *o)
{
	struct model_record_exit *e;
	long n;

	if (!room(&r->exits, r->nexits, sizeof(*r->exits)))
		return;
	e = &r->exits[r->nexits];
	memset(e, 0, sizeof(*e));
	if (!num(o, "pid", &e->pid))
		return;
	snprintf(e->time, sizeof(e->time), "%s", str(o, "time"));
	if (num(o, "signal", &n))
		e->status = (int)(n & 0x7f);
	else if (num(o, "status", &n))
		e->status = (int)((n & 0xff) << 8);
	r->nexits++;
}

static struct model_record_failure *add(struct model_record *r, struct json_object *o)
{
	struct model_record_failure *f;

	if (!room(&r->f, r->n, sizeof(*r->f)))
		return NULL;
	f = &r->f[r->n];
	memset(f, 0, sizeof(*f));
	f->seq = r->n++;
	snprintf(f->time, sizeof(f->time), "%s", str(o, "time"));
	owner_of(o, &f->pid, f->comm, sizeof(f->comm));
	if (!num(o, "qpn", &f->qpn) || strncmp(str(o, "event"), "qp-", 3))
		f->qpn = -1;
	snprintf(f->ifname, sizeof(f->ifname), "%s", str(o, "ifname"));
	f->wc_status = -1;
	snprintf(f->cause, sizeof(f->cause), "%s", str(o, "cause"));
	snprintf(f->evidence, sizeof(f->evidence), "%s", str(o, "evidence"));
	snprintf(f->fix, sizeof(f->fix), "%s", str(o, "fix"));
	f->sure = !strcmp(str(o, "certainty"), "certain");
	return f;
}

/* O, of event EV, kept as a failure when it tells of one: a verb refused, an event failed, a QP's. */
static void failure_line(struct model_record *r, struct json_object *o, const char *ev)
{
	struct model_record_failure *f;
	long n;

	if (!strcmp(ev, "verb-refused") && !flag(o, "probe")) {
		f = add(r, o);
		if (f)
			snprintf(f->what, sizeof(f->what), "%s (%s) refused with %s", str(o, "verb"),
				 str(o, "call"), str(o, "errno"));
	} else if (!strcmp(ev, "cm-event") && flag(o, "failed")) {
		f = add(r, o);
		if (f && num(o, "status", &n))
			snprintf(f->what, sizeof(f->what), "%s, status %ld", str(o, "cm_event"), n);
	} else if (!strcmp(ev, "qp-error")) {
		long qpn = 0, st = 0;

		num(o, "qpn", &qpn);
		num(o, "wc_status", &st);
		f = add(r, o);
		if (f) {
			f->flush = st == 5;	/* IBV_WC_WR_FLUSH_ERR */
			f->wc_status = (int)st;
			/* A QP the probes saw made, gone before a reading named its device: no "on". */
			snprintf(f->what, sizeof(f->what), "QP %ld (%s)%s%s: its first completion "
				 "in error, %s", qpn, str(o, "type"), *str(o, "ifname") ? " on " : "",
				 str(o, "ifname"),
				 *str(o, "status") ? str(o, "status") : "a status of no name");
		}
	} else if ((!strcmp(ev, "qp-state") || !strcmp(ev, "qp-created") ||
		    !strcmp(ev, "qp-resending")) && *str(o, "cause")) {
		long qpn = 0;

		num(o, "qpn", &qpn);
		f = add(r, o);
		if (f && !strcmp(ev, "qp-resending"))
			snprintf(f->what, sizeof(f->what), "QP %ld (%s) on %s resends with no answer",
				 qpn, str(o, "type"), str(o, "ifname"));
		else if (f)
			snprintf(f->what, sizeof(f->what), "QP %ld (%s) on %s %s %s", qpn,
				 str(o, "type"), str(o, "ifname"),
				 !strcmp(ev, "qp-created") ? "made in" : "moved to", str(o, "to"));
}
}

/*
 * --capture's line: the pcap file is named as it lies beside the record,
 * and found beside the file read, wherever the two were taken together.
 */
static void packets_line(struct model_record *r, struct json_object *o)
{
	const char *file = str(o, "file"), *slash = strrchr(r->path, '/');
	long n;

	if (num(o, "packets", &n) && n > 0)
		r->packets = (unsigned long)n;
	*r->pcap = '\0';
	if (!*file || strchr(file, '/') || !strcmp(file, ".") || !strcmp(file, ".."))
		return;
	if (slash)
		snprintf(r->pcap, sizeof(r->pcap), "%.*s/%s", (int)(slash - r->path), r->path, file);
	else
		snprintf(r->pcap, sizeof(r->pcap), "%s", file);
}

bool model_record_line(struct model_record *r, const char *text)
{
	struct json_object *o = json_tokener_parse(text), *v;
	const char *ev;
	long n;

	if (!o)
		return false;
	if (!json_object_is_type(o, json_type_object) || !*(ev = str(o, "event"))) {
		json_object_put(o);
		return false;
	}
	if (!strcmp(ev, "record-started")) {
		r->started = true;
		if (json_object_object_get_ex(o, "command", &v) &&
		    json_object_is_type(v, json_type_array))
			for (size_t i = 0; i < json_object_array_length(v); i++) {
				struct json_object *w = json_object_array_get_idx(v, i);

				if (json_object_is_type(w, json_type_string))
					shell_word(r->command, sizeof(r->command),
						   json_object_get_string(w));
			}
		num(o, "pid", &r->pid);
		snprintf(r->unseen, sizeof(r->unseen), "%s", str(o, "unseen"));
		host_of(r, o);
	} else if (!strcmp(ev, "qp-made") || !strcmp(ev, "qp-modified")) {
		qp_line(r, o, !strcmp(ev, "qp-made"));
	} else if (!strcmp(ev, "process-exited")) {
		exit_line(r, o);
	} else if (!strcmp(ev, "port-state") || !strcmp(ev, "netdev-state") ||
		   !strcmp(ev, "gid-removed") || !strcmp(ev, "device-removed")) {
		change_line(r, o, ev);
	} else if (!strcmp(ev, "packets")) {
		packets_line(r, o);
	} else if (!strcmp(ev, "record-ended")) {
		r->ended = true;
		if (num(o, "signal", &n))
			r->status = (int)(n & 0x7f);
		else if (num(o, "status", &n))
			r->status = (int)((n & 0xff) << 8);
		r->timed_out = flag(o, "timed_out");
		if (num(o, "lost", &n) && n > 0)
			r->lost = (unsigned long)n;
	} else {
		failure_line(r, o, ev);
	}
	json_object_put(o);
	return true;
}

/* By time (UTC, to the millisecond: text that sorts as time does), then as written. */
static int by_time(const void *a, const void *b)
{
	const struct model_record_failure *x = a, *y = b;
	int c = strcmp(x->time, y->time);

	return c ? c : x->seq < y->seq ? -1 : x->seq > y->seq;
}

bool model_record_same_process(const struct model_record_failure *a,
			       const struct model_record_failure *b)
{
	return a->pid >= 0 && a->pid == b->pid && !strcmp(a->comm, b->comm);
}

/* Each process's cause chosen: its first failure that is no flush, else its first; the rest follow. */
static void causes(struct model_record *r)
{
	for (size_t i = 0; i < r->n; i++) {
		struct model_record_failure *f = &r->f[i];
		long cause = -1;

		if (f->pid < 0)
			continue;
		for (size_t j = 0; j < r->n && cause < 0; j++)
			if (model_record_same_process(&r->f[j], f) && !r->f[j].flush)
				cause = (long)j;
		for (size_t j = 0; j < r->n && cause < 0; j++)
			if (model_record_same_process(&r->f[j], f))
				cause = (long)j;
		f->follows = cause != (long)i;
	}
}

void model_record_done(struct model_record *r)
{
	/* A line is written when it is known, which is not always when it happened. */
	if (r->n)
		qsort(r->f, r->n, sizeof(*r->f), by_time);
	causes(r);
}

int model_record_read(const char *path, struct model_record *r)
{
	FILE *f;
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	int err = 0;

	memset(r, 0, sizeof(*r));
	r->pid = -1;
	snprintf(r->path, sizeof(r->path), "%s", path);
	f = safe_fopen(path);
	if (!f)
		return -errno;
	while ((len = getline(&buf, &cap, f)) > 0) {
		r->lines++;
		if (buf[len - 1] == '\n')
			buf[len - 1] = '\0';
		if (!model_record_line(r, buf))
			r->bad++;
	}
	if (ferror(f))
		err = -EIO;
	free(buf);
	fclose(f);
	if (!err && !r->started)
		err = -EINVAL;
	model_record_done(r);
	if (err)
		model_record_free(r);
	return err;
}

void model_record_free(struct model_record *r)
{
	free(r->f);
	free(r->gids);
	free(r->qps);
	free(r->exits);
	free(r->changes);
	r->changes = NULL;
	r->nchanges = 0;
	r->f = NULL;
	r->gids = NULL;
	r->qps = NULL;
	r->exits = NULL;
	r->n = r->ngids = r->nqps = r->nexits = 0;
}
