// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * record --capture: the RoCE v2 packets of every rxe device there is when
 * the command starts, its netdev's and those it sends to itself (the
 * loopback, through eBPF), held in memory as they come (model/capture_keep.h);
 * those of the command's QPs and their peers around each error written to a
 * pcap file beside the record, which a "packets" line names at the end.
 * libpcap is opened only here: a record without --capture does not load it.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "cmd/record.h"
#include "kernel/capture.h"
#include "kernel/clock.h"
#include "kernel/errname.h"
#include "model/capture_keep.h"
#include "ops/op_err.h"
#include "views/record.h"

struct record_capture {
	struct capture_src *src[RECORD_CAPTURE_FDS];
	size_t n;
	struct capture_keep keep;
	struct capture_dump *dump;	/* the pcap file, once an error asks for one */
	char path[PATH_MAX];		/* where it goes */
	struct safe_path sp;
	uint64_t written, errors;
	int err;			/* the pcap file's failure: said once, the rest not written */
};

/* The pcap file beside the record at RECORD: its name less ".jsonl", and ".pcap". */
static void pcap_path(const char *record, char *path, size_t len)
{
	size_t n = strlen(record);

	if (n > 6 && !strcmp(record + n - 6, ".jsonl"))
		n -= 6;
	snprintf(path, len, "%.*s.pcap", (int)n, record);
}

/* Device D's netdev, and what it sends to itself, opened into C; a failure said. */
static void open_dev(struct record_capture *c, const struct rdma_dev *d)
{
	char why[CAPTURE_WHY_MAX] = "";
	struct capture_src *s;
	int err;

	if (strcmp(d->driver, "rxe") || !*d->netdev)
		return;
	if (c->n == RECORD_CAPTURE_FDS) {
		pr_warn("record: packets of %s not captured: %d devices are", d->name,
			RECORD_CAPTURE_FDS);
		return;
	}
	err = capture_open_live(d->netdev, CAPTURE_KEEP_SNAP, &s, why);
	if (err) {
		pr_warn("record: packets of %s not captured: %s on %s%s%s", d->name, errname(err),
			d->netdev, *why ? ": " : "", why);
		return;
	}
	if (capture_add_loopback(s, d->index, why))
		pr_warn("record: what %s sends to itself not captured: %s", d->name, why);
	c->src[c->n++] = s;
}

int record_capture_begin(struct record_run *r, const char *record)
{
	char why[CAPTURE_WHY_MAX];
	struct record_capture *c;
	struct op_err e;
	struct model m;
	int err = capture_lib(why);

	if (err)
		return cmd_fail((op_err_set(&e, err, NULL, "record --capture: %s", why), &e));
	/* The watch said already that there is no RDMA netlink ("not seen"). */
	if (!r->watching) {
		pr_warn("record: no packets captured: no RDMA netlink to find the rxe devices by");
		return 0;
	}
	/* The devices as the RDMA netlink has them: each one's index, for its loopback. */
	if (cmd_devices(r->ctx, &m))
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c) {
		model_free(&m);
		return -ENOMEM;
	}
	pcap_path(record, c->path, sizeof(c->path));
	for (size_t i = 0; i < m.n; i++)
		open_dev(c, &m.devs[i]);
	model_free(&m);
	if (!c->n) {
		pr_warn("record: no packets captured: no rxe device's netdev could be opened");
		free(c);
		return 0;
	}
	/* Each source's frames are Ethernet's: the netdevs', and the loopback's made so. */
	if (model_capture_keep_init(&c->keep, capture_link(c->src[0]))) {
		for (size_t i = 0; i < c->n; i++)
			capture_close(c->src[i]);
		free(c);
		return -ENOMEM;
	}
	r->cap = c;
	return 0;
}

void record_capture_fds(const struct record_run *r, struct pollfd p[RECORD_CAPTURE_FDS])
{
	for (size_t i = 0; i < RECORD_CAPTURE_FDS; i++)
		p[i] = (struct pollfd){ .fd = r->cap && i < r->cap->n ?
					capture_fd(r->cap->src[i]) : -1, .events = POLLIN };
}

void record_capture_qpn(struct record_run *r, uint32_t qpn)
{
	if (r->cap)
		model_capture_keep_qpn(&r->cap->keep, qpn);
}

/* Frame F into the pcap file, made at the first: a failure said once, the command unharmed. */
static void write_frame(const struct capture_keep_frame *f, void *arg)
{
	struct record_capture *c = arg;
	char why[CAPTURE_WHY_MAX] = "";

	if (c->err)
		return;
	if (!c->dump) {
		int fd = safe_create(c->path, 0644, &c->sp);

		c->err = fd < 0 ? fd : capture_write_open(c->src[0], fd, &c->dump, why);
		if (fd >= 0)
			close(fd);
		if (c->err == -ENOTREG)
			pr_warn("record: no packets written: %s is there and no regular file; "
				"move it, or name the record otherwise (-o FILE)", c->path);
		else if (c->err)
			pr_warn("record: cannot write %s: %s%s%s", c->path, errname(c->err),
				*why ? ": " : "", why);
		if (c->err)
			return;
	}
	capture_write(c->dump, &(struct capture_frame){ .data = f->data, .len = f->len,
							.wire_len = f->wire_len, .ts_us = f->ts_us });
	c->written++;
}

/*
 * Frame F: held, as it came, for an error to ask for; those of an error's
 * time written once it has passed, when of the command's QPs. Nothing is
 * decoded before: a QP made an instant ago, or a peer's learnt after the
 * error, is known by then.
 */
static void take(struct record_capture *c, const struct capture_frame *f)
{
	struct capture_keep_frame k;

	if (!model_capture_keep_add(&c->keep, f->ts_us, f->data, f->len, f->wire_len,
				    write_frame, c))
		return;
	k.ts_us = f->ts_us;
	k.len = (uint32_t)(f->len < CAPTURE_KEEP_SNAP ? f->len : CAPTURE_KEEP_SNAP);
	k.wire_len = (uint32_t)f->wire_len;
	memcpy(k.data, f->data, k.len);
	if (model_capture_keep_wanted(&c->keep, &k))
		write_frame(&k, c);
}

void record_capture_read(struct record_run *r)
{
	char why[CAPTURE_WHY_MAX];
	struct capture_frame f;

	for (size_t i = 0; r->cap && i < r->cap->n; i++)
		while (capture_next(r->cap->src[i], &f, why) == 1)
			take(r->cap, &f);
}

void record_capture_mark(struct record_run *r, uint64_t mono_ns)
{
	uint64_t ns = mono_ns ? mono_ns : mono_ms() * 1000000;

	if (!r->cap || !r->cap->n)
		return;
	/* What came before it, not read yet, held first. */
	record_capture_read(r);
	r->cap->errors++;
	model_capture_keep_mark(&r->cap->keep, (r->boot_ns + ns) / 1000, write_frame, r->cap);
}

void record_capture_end(struct record_run *r, bool say)
{
	struct record_capture *c = r->cap;
	uint64_t dropped = 0, until = mono_ms() + CAPTURE_FLUSH_MS;
	const char *name;
	struct out *o;
	int err = 0;

	if (!c)
		return;
	/* The kernel hands a ring's last block over only after CAPTURE_FLUSH_MS. */
	while (c->n && mono_ms() < until) {
		record_capture_read(r);
		usleep(10000);
	}
	/* An error's time not passed yet: its frames judged by the QPs known at the end. */
	model_capture_keep_end(&c->keep, write_frame, c);
	for (size_t i = 0; i < c->n; i++) {
		dropped += capture_dropped(c->src[i]);
		capture_close(c->src[i]);
	}
	if (c->dump)
		err = capture_write_end(c->dump);
	if (err && !c->err)
		pr_warn("record: cannot write %s: %s", c->path, errname(err));
	name = strrchr(c->path, '/') ? strrchr(c->path, '/') + 1 : c->path;
	o = say ? record_line_begin(r) : NULL;
	if (o) {
		char t[40];

		record_stamp(r->boot_ns, 0, t, sizeof(t));
		view_record_packets(o, t, &(struct view_record_packets){
			.file = c->dump && !err ? name : NULL, .packets = c->written,
			.errors = c->errors, .dropped = dropped,
			.overwritten = c->keep.overwritten, .devices = c->n });
		record_line_end(r, o);
	}
	model_capture_keep_free(&c->keep);
	free(c);
	r->cap = NULL;
}
