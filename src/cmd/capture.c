// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * capture [DEV] [--count N] [--duration S] [--qp QPN] [-w FILE] | --read FILE:
 * the RoCE v2 packets an rxe device's netdev carries (or a pcap file holds),
 * a line each, and each QP's conversation at the end.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/grammar.h"
#include "cli/out.h"
#include "cmd/cmd.h"
#include "kernel/capture.h"
#include "kernel/clock.h"
#include "kernel/runloop.h"
#include "kernel/safe.h"
#include "model/capture.h"
#include "ops/op_err.h"
#include "views/capture.h"

/*
 * The lines need every header a RoCE v2 frame carries, with room for VLAN
 * tags and some payload (CAPTURE_SNAPLEN_LINES); -w keeps whole frames, as
 * tcpdump does, for the dissectors of what RDMA carries (NFS, NVMe).
 */
#define CAPTURE_SNAPLEN_WHOLE 65535

struct run {
	struct cmd_ctx *ctx;
	struct capture_src *src;
	struct capture_dump *dump;	/* -w */
	unsigned long count;		/* packets to take, 0: no limit */
	bool qp_given;
	bool broken;			/* the source failed: what it gave is still told */
	bool done;			/* --count's packets taken */
	struct runloop loop;		/* a signal asks the end */
	uint32_t qpn;
	const char *netdev;		/* a live source's; NULL for a file */
	struct capture_flows flows;
	struct capture_totals t;
	uint64_t t0_us, min_us, max_us;	/* the first packet's time; the earliest, the latest */
};

/* Whether conversation Q is QP R->qpn's, to it or from it. */
static bool flow_of_qp(const struct run *r, const struct capture_qp *q)
{
	return q->qpn == r->qpn || model_capture_from(q, r->qpn);
}

/* Frame F decoded, followed, shown or written: 0, or a failed write's errno. */
static int take(struct run *r, const struct capture_frame *f)
{
	struct capture_pkt p;
	struct capture_seen seen;
	int err = model_capture_decode(capture_link(r->src), f->data, f->len, f->wire_len, &p);

	if (err) {
		if (err == -EBADMSG)
			r->t.malformed++;
		else
			r->t.other++;
		return 0;
	}
	err = model_capture_track(&r->flows, &p, f->ts_us, &seen);
	if (err)
		return err;
	/* A UD packet names its sender itself. */
	if (r->qp_given && !flow_of_qp(r, &r->flows.v[seen.qp]) &&
	    !((p.ext & CAPTURE_DETH) && p.sqpn == r->qpn))
		return 0;
	if (!r->t.packets)
		r->t0_us = r->min_us = r->max_us = f->ts_us;
	if (f->ts_us < r->min_us)
		r->min_us = f->ts_us;
	if (f->ts_us > r->max_us)
		r->max_us = f->ts_us;
	r->t.packets++;
	if (r->dump) {
		capture_write(r->dump, f);
	} else {
		struct out *o = out_new(stdout, r->ctx->json, false);

		if (!o)
			return -ENOMEM;
		view_capture_packet(o, &p, (int64_t)(f->ts_us - r->t0_us), &seen, &r->flows);
		err = out_finish(o);
		if (!err && fflush(stdout))
			err = -errno;
		if (err)
			return err;
	}
	if (r->count && r->t.packets >= r->count)
		r->done = true;
	return 0;
}

/*
 * Frames until the end: the file's, --count's, --duration's (DEADLINE, 0:
 * none) or a signal's. At the last two a live source is read CAPTURE_FLUSH_MS
 * more: the kernel hands its ring's last block over only then, and what was
 * sent before the end is kept.
 */
static int loop(struct run *r, uint64_t deadline, struct op_err *e)
{
	char why[CAPTURE_WHY_MAX] = "";
	struct capture_frame f;
	bool live = capture_fd(r->src) >= 0, draining = false;
	int err;

	while (!r->done) {
		uint64_t now = mono_ms();
		int n;

		if (!draining && (runloop_asked() || (deadline && now >= deadline))) {
			if (!live)
				return 0;
			draining = true;
			deadline = now + CAPTURE_FLUSH_MS;
		} else if (draining && now >= deadline) {
			return 0;
		}
		n = capture_next(r->src, &f, why);
		if (n == -ENODATA)
			return 0;
		if (n < 0) {
			r->broken = true;
			if (n == -ENODEV && r->netdev)
				return op_err_set(e, n, NULL, "capture stopped: %s is gone (deleted, or "
						  "moved to another namespace), and its rxe device "
						  "with it", r->netdev);
			return op_err_set(e, n, NULL, "capture stopped: %s", why);
		}
		if (n == 1) {
			err = take(r, &f);
			if (err && out_reader_gone(err))
				return 0;
			if (err)
				return op_err_set(e, err, NULL, "cannot show or write a packet");
			continue;
		}
		/* A live source with nothing ready: wait for one, the deadline or a signal. */
		{
			struct pollfd pfd = { .fd = capture_fd(r->src), .events = POLLIN };

			now = mono_ms();
			if (deadline && now >= deadline)
				continue;
			n = runloop_wait(&r->loop, &pfd, 1, deadline ? (int)(deadline - now) : 1000);
			if (n < 0 && n != -EINTR)
				return op_err_set(e, n, NULL, "cannot wait for packets");
		}
	}
	return 0;
}

/* The device a live capture watches. */
struct target {
	char name[RDMA_NAME_MAX];
	char netdev[IF_NAMESIZE];
	uint32_t index;
	bool rxe;
};

/* Rxe device DEV (NULL: the one there is) and the netdev it carries, into *T. */
static int find_target(struct cmd_ctx *ctx, const char *dev, struct target *t)
{
	struct model m;
	struct op_err e;
	int err = cmd_device(ctx, dev, (struct model_ask){ .source = MODEL_NETLINK }, &m);

	if (err == -ENODEV && dev)
		return cmd_fail((op_err_model_load(&e, err, ctx->sys.root, dev), &e));
	if (err)
		return err;
	if (!dev && m.n != 1) {
		if (m.n)
			op_err_set(&e, -EINVAL, NULL, "there are %zu RDMA devices: name the one to "
				   "capture ('rdmactl link' lists them)", m.n);
		else
			op_err_set(&e, -ENODEV, NULL, "there is no RDMA device to capture: make one "
				   "first ('rdmactl add NETDEV')");
		model_free(&m);
		return cmd_fail(&e);
	}
	if (!*m.devs[0].netdev) {
		op_err_set(&e, -ENODEV, NULL, "%s has no netdev: nothing of it can be captured",
			   m.devs[0].name);
		model_free(&m);
		return cmd_fail(&e);
	}
	snprintf(t->name, sizeof(t->name), "%s", m.devs[0].name);
	snprintf(t->netdev, sizeof(t->netdev), "%s", m.devs[0].netdev);
	t->index = m.devs[0].index;
	t->rxe = !strcmp(m.devs[0].driver, "rxe");
	model_free(&m);
	return 0;
}

/*
 * What rxe device T sends to itself, added to SRC through eBPF; where it
 * cannot be, the capture goes on with the netdev alone and says why.
 */
static void add_loopback(struct cmd_ctx *ctx, const struct target *t, struct capture_src *src)
{
	char why[CAPTURE_WHY_MAX] = "";
	int err;

	if (!t->rxe || t->index == MODEL_NO_INDEX)
		return;
	err = capture_add_loopback(src, t->index, why);
	switch (err) {
	case 0:
		if (!ctx->json)
			pr_note("capturing on %s, and what %s sends to itself (eBPF at %s)",
				t->netdev, t->name, capture_loopback_at(src));
		return;
	case -ENOPKG:
		pr_warn("what %s sends to itself is not seen: libbpf cannot be opened (%s): "
			"apt-get install libbpf1", t->name, why);
		break;
	case -EPERM:
		pr_warn("what %s sends to itself is not seen: that needs root, or CAP_BPF and "
			"CAP_PERFMON beside CAP_NET_RAW", t->name);
		break;
	default:
		pr_warn("what %s sends to itself is not seen: %s", t->name, why);
	}
	pr_note("capturing on %s alone: traffic between QPs of %s does not cross it", t->netdev,
		t->name);
}

/* The live source on NETDEV, SNAPLEN bytes a frame, its failure worded. */
static int open_live(const char *netdev, int snaplen, struct capture_src **src)
{
	char why[CAPTURE_WHY_MAX] = "";
	struct op_err e;
	int err = capture_open_live(netdev, snaplen, src, why);

	switch (err) {
	case 0:
		return 0;
	case -EPERM:
		op_err_set(&e, err, NULL, "capturing on %s needs root, or CAP_NET_RAW "
			   "(setcap cap_net_raw+ep on a copy of rdmactl)", netdev);
		break;
	case -ENODEV:
		op_err_set(&e, err, NULL, "%s is not a network device here", netdev);
		break;
	case -ENETDOWN:
		op_err_set(&e, err, NULL, "%s is down: 'ip link set %s up' first", netdev, netdev);
		break;
	default:
		op_err_set(&e, err, NULL, "libpcap cannot capture on %s: %s", netdev, why);
	}
	return cmd_fail(&e);
}

/* The source --read names, refused unless it is a regular file in pcap's format. */
static int open_file(const char *path, struct capture_src **src)
{
	char why[CAPTURE_WHY_MAX] = "";
	struct safe_path sp;
	struct op_err e;
	/* '-' is standard input, as tcpdump -r - reads it: a pipe from tcpdump -w - too. */
	bool in = !strcmp(path, "-");
	int fd = in ? dup(STDIN_FILENO) : -1;
	FILE *f = in ? (fd >= 0 ? fdopen(fd, "rb") : NULL) : safe_fopen(path);
	int err;

	if (!f && errno == ENOTREG) {
		safe_resolve(path, &sp);
		return cmd_fail((op_err_not_regular(&e, "read", path, &sp, "give a pcap file"), &e));
	}
	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return cmd_fail((op_err_set(&e, err, NULL, "cannot read %s", in ? "standard input" :
					    path), &e));
	}
	err = capture_open_file(f, src, why);
	if (err)
		return cmd_fail((op_err_set(&e, err, NULL, "%s is no pcap file libpcap reads: %s",
					    in ? "standard input" : path, why), &e));
	return 0;
}

/* Each conversation, then the counts, as the capture's last records. */
static int summary(struct run *r)
{
	struct out *o;
	int err = 0;

	r->t.duration_us = r->t.packets ? r->max_us - r->min_us : 0;
	r->t.dropped = capture_dropped(r->src);
	for (size_t i = 0; i <= r->flows.n && !err; i++) {
		const struct capture_qp *q = i < r->flows.n ? &r->flows.v[i] : NULL;

		if (q && r->qp_given && !flow_of_qp(r, q))
			continue;
		o = out_new(stdout, r->ctx->json, false);
		if (!o)
			return -ENOMEM;
		if (q)
			view_capture_qp(o, q, r->t0_us);
		else
			view_capture_end(o, &r->t);
		err = out_finish(o);
	}
	return err;
}

/* --qp: as rdma and the kernel's log print QPNs, decimal or 0x and hex, into R. */
static int parse_qp(const struct cli_args *a, struct run *r)
{
	const char *w = cli_str(a, "qp");
	unsigned long q;
	bool hex = (w[0] == '0' && (w[1] == 'x' || w[1] == 'X'));
	char *end;

	if (hex) {
		errno = 0;
		q = strtoul(w + 2, &end, 16);
		hex = w[2] && !*end && !errno && strspn(w + 2, "0123456789abcdefABCDEF") ==
			strlen(w + 2) && q <= 0xffffff;
	}
	if (!hex && !cli_uint(w, 0, 0xffffff, &q))
		return cli_usage(a, "--qp takes a QP number (0 to 16777215, or 0x hex): '%s'", w);
	r->qp_given = true;
	r->qpn = (uint32_t)q;
	return 0;
}

/*
 * The live source: DEV's netdev (T), whole frames when WHOLE (-w), its
 * loopback added; a fixture refused. Said on failure.
 */
static int open_target(struct cmd_ctx *ctx, const struct cli_args *a, const char *dev,
		       bool whole, struct target *t, struct run *r)
{
	int err;

	if (!model_sys_live(&ctx->sys))
		return cli_usage(a, "capture reads the running system or --read FILE, not a fixture");
	err = find_target(ctx, dev, t);
	if (!err)
		err = open_live(t->netdev, whole ? CAPTURE_SNAPLEN_WHOLE : CAPTURE_SNAPLEN_LINES,
				&r->src);
	r->netdev = t->netdev;
	if (!err)
		add_loopback(ctx, t, r->src);
	return err;
}

/* -w PATH begun (WF, only ever a regular file) and its pcap header written; said on failure. */
static int open_write(const char *path, struct safe_file *wf, struct run *r)
{
	char why[CAPTURE_WHY_MAX] = "";
	struct op_err e;
	int err = safe_begin(path, 0644, wf);

	if (err == -ENOTREG)
		return cmd_fail((op_err_not_regular(&e, "write", path, &wf->path,
						     "name a new file or a regular one"), &e));
	if (err)
		return cmd_fail((op_err_set(&e, err, NULL, "cannot write %s", path), &e));
	err = capture_write_open(r->src, wf->fd, &r->dump, why);
	if (err)
		return cmd_fail((op_err_set(&e, err, NULL, "cannot write %s: %s", path, why), &e));
	return 0;
}

int cmd_capture(struct cmd_ctx *ctx, const struct cli_args *a)
{
	const char *dev = a->argc ? a->argv[0] : NULL, *read = cli_str(a, "read");
	const char *write = cli_str(a, "write");
	struct run r = { .ctx = ctx, .count = cli_num(a, "count", 0) };
	unsigned long secs = cli_num(a, "duration", 0);
	struct safe_file wf = { .fd = -1 };
	struct target t = { .index = MODEL_NO_INDEX };
	struct op_err e;
	int err;

	if (cli_str(a, "qp") && (err = parse_qp(a, &r)))
		return err;
	if (read && (dev || secs))
		return cli_usage(a, "--read takes its packets from the file: no DEV, no --duration");
	if (dev && (err = cmd_valid_name(a, "device name", dev, true)))
		return err;
	err = read ? open_file(read, &r.src) : open_target(ctx, a, dev, write != NULL, &t, &r);
	if (err)
		return err;
	if (write && (err = open_write(write, &wf, &r)))
		goto out;
	/*
	 * A live source waits, and a signal is held for its wait; a file is
	 * read without waiting, so a signal must come in at once.
	 */
	runloop_begin(&r.loop, capture_fd(r.src) >= 0);
	out_stream_begin();
	err = loop(&r, secs ? mono_ms() + secs * 1000 : 0, &e);
	/* A second signal, while the file is written whole and the end said, is taken too. */
	if (r.dump) {
		int werr = capture_write_end(r.dump);

		r.dump = NULL;
		if (!werr)
			werr = safe_commit(&wf);
		if (werr && !err)
			err = op_err_set(&e, werr, NULL, "cannot write %s", write);
	}
	if (err) {
		/* What was seen before the source failed is told, then why it stopped. */
		if (r.broken)
			summary(&r);
		runloop_end(&r.loop);
		cmd_fail(&e);
		goto out;
	}
	err = summary(&r);
	runloop_end(&r.loop);
	if (err && out_reader_gone(err))
		err = 0;
out:
	if (r.dump)
		capture_write_end(r.dump);
	if (wf.fd >= 0)
		safe_abort(&wf);
	capture_close(r.src);
	model_capture_flows_free(&r.flows);
	return err;
}
