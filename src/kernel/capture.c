// SPDX-License-Identifier: GPL-2.0-or-later
/* Captured frames from a netdev or a pcap file, and to a pcap file, through libpcap (capture.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <pcap/pcap.h>

#include "kernel/capture.h"
#include "kernel/capture_loop.h"
#include "kernel/clock.h"
#include "kernel/roce.h"
#include "lazy/lazy.h"

struct capture_src {
	pcap_t *p;
	int fd;
	unsigned int ifindex;	/* a live source's netdev; 0 for a file */
	uint64_t boot_us;	/* a live source's: when the system booted, in wall time */
	int snaplen;
	struct capture_loop *loop;	/* rxe's loopback, when added */
	int epfd;		/* with a loopback: waits on both, else -1 */
	int tick;		/* with a loopback: a timer every CAPTURE_FLUSH_MS */
	unsigned int since_netdev;	/* loopback frames since the netdev was asked */
};

struct capture_dump {
	pcap_dumper_t *d;
};

static void say(char *why, const char *text)
{
	snprintf(why, CAPTURE_WHY_MAX, "%s", text ? text : "");
}

/* What pcap_activate's status means, as an errno. */
static int activate_errno(int st)
{
	switch (st) {
	case PCAP_ERROR_PERM_DENIED:
		return -EPERM;
	case PCAP_ERROR_NO_SUCH_DEVICE:
		return -ENODEV;
	case PCAP_ERROR_IFACE_NOT_UP:
		return -ENETDOWN;
	default:
		return -EIO;
	}
}

/* P wrapped as a source, FD what poll() waits on (-1 for a file); NULL, P closed, without memory. */
static struct capture_src *src_new(pcap_t *p, int fd)
{
	struct capture_src *s = calloc(1, sizeof(*s));

	if (!s) {
		pcap_close(p);
		return NULL;
	}
	s->p = p;
	s->fd = fd;
	s->epfd = -1;
	s->tick = -1;
	return s;
}

/* The ring a source of SNAPLEN bytes a frame reads through (capture.h). */
static uint32_t ring_bytes(int snaplen)
{
	return snaplen > CAPTURE_SNAPLEN_LINES ? 4u * CAPTURE_RING_BYTES : CAPTURE_RING_BYTES;
}

int capture_lib(char *why)
{
	char dl[CAPTURE_WHY_MAX / 2];

	if (!lazy_open(&lazy_pcap, dl, sizeof(dl)))
		return 0;
	snprintf(why, CAPTURE_WHY_MAX, "%s cannot be loaded (%s): apt-get install %s",
		 lazy_pcap.soname, dl, lazy_pcap.package);
	return -ENOPKG;
}

int capture_open_live(const char *netdev, int snaplen, struct capture_src **out, char *why)
{
	char err[PCAP_ERRBUF_SIZE] = "", filter[128];
	struct bpf_program prog;
	pcap_t *p;
	int st;

	*out = NULL;
	p = pcap_create(netdev, err);
	if (!p) {
		say(why, err);
		return -EIO;
	}
	/*
	 * Frames handed over a ring block at a time, or within 50 ms when
	 * traffic is light, not each as it comes: a wake-up a frame cost a
	 * capture of ib_write_bw almost half its bandwidth under emulation.
	 * The ring holds some 0.2 s of that traffic (docs/capture.md).
	 */
	pcap_set_snaplen(p, snaplen);
	pcap_set_timeout(p, CAPTURE_FLUSH_MS);
	pcap_set_buffer_size(p, (int)ring_bytes(snaplen));
	st = pcap_activate(p);
	if (st < 0) {
		say(why, st == PCAP_ERROR ? pcap_geterr(p) : pcap_statustostr(st));
		goto fail;
	}
	/* RoCE v2, tagged or not: rdma_rxe sends to port 4791, whatever the source port. */
	snprintf(filter, sizeof(filter), "udp dst port %d or (vlan and udp dst port %d)",
		 ROCE_V2_UDP_PORT, ROCE_V2_UDP_PORT);
	if (pcap_compile(p, &prog, filter, 1, PCAP_NETMASK_UNKNOWN) < 0) {
		say(why, pcap_geterr(p));
		st = PCAP_ERROR;
		goto fail;
	}
	st = pcap_setfilter(p, &prog);
	pcap_freecode(&prog);
	if (st < 0 || pcap_setnonblock(p, 1, err) < 0) {
		say(why, st < 0 ? pcap_geterr(p) : err);
		st = PCAP_ERROR;
		goto fail;
	}
	*out = src_new(p, pcap_get_selectable_fd(p));
	if (!*out)
		return -ENOMEM;
	(*out)->ifindex = if_nametoindex(netdev);
	(*out)->snaplen = snaplen;
	(*out)->boot_us = mono_epoch_us();
	return 0;
fail:
	pcap_close(p);
	return activate_errno(st);
}

/* The hardware address of the netdev of index IFINDEX into MAC: 0, or a negative errno. */
static int netdev_mac(unsigned int ifindex, uint8_t mac[6])
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) < 0)
		err = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return err;
}

int capture_add_loopback(struct capture_src *s, uint32_t dev_index, char *why)
{
	const struct timespec period = { .tv_nsec = CAPTURE_FLUSH_MS * 1000000L };
	struct epoll_event ev = { .events = EPOLLIN };
	uint8_t mac[6];
	int err;

	*why = '\0';
	if (s->fd < 0 || s->loop)
		return -EINVAL;
	err = netdev_mac(s->ifindex, mac);
	if (err) {
		say(why, "the netdev's address cannot be read");
		return err;
	}
	err = capture_loop_open(dev_index, s->ifindex, mac, s->snaplen, ring_bytes(s->snaplen),
				&s->loop, why);
	if (err)
		return err;
	/*
	 * The ring wakes no one until it is a quarter full (capture_loop.bpf.c):
	 * a timer has it read every CAPTURE_FLUSH_MS, as libpcap reads the netdev.
	 */
	s->tick = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	s->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (s->tick < 0 || s->epfd < 0 ||
	    timerfd_settime(s->tick, 0, &(struct itimerspec){ .it_interval = period,
							     .it_value = period }, NULL) < 0)
		goto fail;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->fd, &ev) < 0 ||
	    epoll_ctl(s->epfd, EPOLL_CTL_ADD, capture_loop_fd(s->loop), &ev) < 0 ||
	    epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->tick, &ev) < 0)
		goto fail;
	return 0;
fail:
	err = -errno;
	say(why, "cannot wait on the netdev and the loopback together");
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->tick >= 0)
		close(s->tick);
	s->epfd = s->tick = -1;
	capture_loop_close(s->loop);
	s->loop = NULL;
	return err;
}

int capture_open_file(FILE *f, struct capture_src **out, char *why)
{
	char err[PCAP_ERRBUF_SIZE] = "";
	pcap_t *p = pcap_fopen_offline(f, err);

	*out = NULL;
	if (!p) {
		say(why, err);
		fclose(f);
		return -EBADMSG;
	}
	/* pcap_close closes F from here on. */
	*out = src_new(p, -1);
	return *out ? 0 : -ENOMEM;
}

const char *capture_loopback_at(const struct capture_src *s)
{
	return s->loop ? capture_loop_at(s->loop) : NULL;
}

int capture_link(const struct capture_src *s)
{
	return pcap_datalink(s->p);
}

int capture_fd(const struct capture_src *s)
{
	return s->epfd >= 0 ? s->epfd : s->fd;
}

/* The next frame of the netdev (capture_next without the loopback). */
static int next_netdev(struct capture_src *s, struct capture_frame *f, char *why)
{
	struct pcap_pkthdr *h;
	const u_char *d;
	int r = pcap_next_ex(s->p, &h, &d);

	if (r == 1) {
		f->data = d;
		f->len = h->caplen;
		f->wire_len = h->len;
		f->ts_us = (uint64_t)h->ts.tv_sec * 1000000u + (uint64_t)h->ts.tv_usec;
		/*
		 * A live frame stamped before the system booted was stamped
		 * by the monotonic clock: on 7.3 the frames a veth receives
		 * from its peer keep the time the sender's stack gave them
		 * (tcpdump shows them in 1970). Brought to wall time, both
		 * directions' times compare.
		 */
		if (s->boot_us && f->ts_us < s->boot_us)
			f->ts_us += s->boot_us;
		return 1;
	}
	if (r == 0)
		return 0;
	if (r == PCAP_ERROR_BREAK)
		return -ENODATA;
	say(why, pcap_geterr(s->p));
	/* libpcap's "The interface disappeared": told by the index, whatever its words. */
	if (s->ifindex) {
		char name[IF_NAMESIZE];

		if (!if_indextoname(s->ifindex, name) && errno == ENXIO)
			return -ENODEV;
	}
	return -EIO;
}

/*
 * The loopback's frames first, as they lie in memory, with the netdev
 * asked between every NETDEV_EVERY of them: libpcap asks the kernel (a
 * poll) each time its ring has nothing, and asked at every loopback frame
 * that cost the capture a system call a packet.
 */
#define NETDEV_EVERY 64
int capture_next(struct capture_src *s, struct capture_frame *f, char *why)
{
	uint64_t ticks;
	int r;

	if (!s->loop)
		return next_netdev(s, f, why);
	if (s->since_netdev < NETDEV_EVERY && capture_loop_next(s->loop, f)) {
		s->since_netdev++;
		return 1;
	}
	s->since_netdev = 0;
	r = next_netdev(s, f, why);
	if (r)
		return r;
	if (capture_loop_next(s->loop, f)) {
		s->since_netdev = 1;
		return 1;
	}
	/*
	 * Both read dry: the timer's ticks so far are spent, so that the next
	 * wait waits (EAGAIN, no tick since, is as good).
	 */
	if (read(s->tick, &ticks, sizeof(ticks)) < 0)
		ticks = 0;
	return 0;
}

uint64_t capture_dropped(struct capture_src *s)
{
	struct pcap_stat st;
	uint64_t n = s->loop ? capture_loop_dropped(s->loop) : 0;

	if (s->fd < 0 || pcap_stats(s->p, &st) < 0)
		return n;
	return n + st.ps_drop + st.ps_ifdrop;
}

void capture_close(struct capture_src *s)
{
	if (!s)
		return;
	capture_loop_close(s->loop);
	if (s->epfd >= 0)
		close(s->epfd);
	if (s->tick >= 0)
		close(s->tick);
	pcap_close(s->p);
	free(s);
}

int capture_write_open(struct capture_src *s, int fd, struct capture_dump **out, char *why)
{
	struct capture_dump *d = calloc(1, sizeof(*d));
	int copy = dup(fd);
	FILE *f = copy < 0 ? NULL : fdopen(copy, "w");

	*out = NULL;
	if (!d || !f) {
		int err = errno ? -errno : -ENOMEM;

		if (f)
			fclose(f);
		else if (copy >= 0)
			close(copy);
		free(d);
		return err;
	}
	d->d = pcap_dump_fopen(s->p, f);
	if (!d->d) {
		say(why, pcap_geterr(s->p));
		fclose(f);
		free(d);
		return -EIO;
	}
	*out = d;
	return 0;
}

void capture_write(struct capture_dump *d, const struct capture_frame *f)
{
	struct pcap_pkthdr h = {
		.ts = { .tv_sec = (time_t)(f->ts_us / 1000000u),
			.tv_usec = (suseconds_t)(f->ts_us % 1000000u) },
		.caplen = (bpf_u_int32)f->len,
		.len = (bpf_u_int32)f->wire_len,
	};

	pcap_dump((u_char *)d->d, &h, f->data);
}

int capture_write_end(struct capture_dump *d)
{
	FILE *f;
	int err = 0;

	if (!d)
		return 0;
	f = pcap_dump_file(d->d);
	/* A write that failed before (ferror) left its errno; none other is this one's. */
	errno = 0;
	if (pcap_dump_flush(d->d) < 0 || ferror(f))
		err = errno ? -errno : -EIO;
	pcap_dump_close(d->d);
	free(d);
	return err;
}
