/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where captured frames come from and go to, through libpcap: a netdev's
 * packet socket with a filter for RoCE v2 (UDP to port 4791), or a pcap
 * file; and a pcap file written as they come. It never prints: a failure is
 * a negative errno with libpcap's own words beside it.
 */
#ifndef RDMACTL_KERNEL_CAPTURE_H
#define RDMACTL_KERNEL_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a frame came with. */
struct capture_frame {
	const uint8_t *data;	/* valid until the next capture_next */
	size_t len;		/* bytes captured */
	size_t wire_len;	/* bytes the frame had */
	uint64_t ts_us;		/* when it was captured, in microseconds since the epoch */
};

struct capture_src;

/* Libpcap's words for the last failure, at most this long. */
#define CAPTURE_WHY_MAX 256
/*
 * A live capture's longest hold on a frame, and its rings' size (the
 * netdev's and the loopback's each): four times as large when it keeps
 * whole frames, more than CAPTURE_SNAPLEN_LINES bytes of each.
 */
#define CAPTURE_FLUSH_MS 50
#define CAPTURE_RING_BYTES (8 << 20)
/* Every header a RoCE v2 frame carries, VLAN tags and some payload. */
#define CAPTURE_SNAPLEN_LINES 256

/*
 * libpcap opened now, for a command that needs it only on request (record
 * --capture): 0, or -ENOPKG with its words and package in WHY.
 */
int capture_lib(char *why);

/*
 * RoCE v2 frames on NETDEV, the first SNAPLEN bytes of each, handed over a
 * ring block at a time, CAPTURE_FLUSH_MS after the first at most: 0, or
 * -EPERM (no CAP_NET_RAW), -ENODEV (no such netdev),
 * -ENETDOWN (it is down), -EIO (anything else libpcap refused; WHY says).
 */
int capture_open_live(const char *netdev, int snaplen, struct capture_src **s, char *why);

/*
 * Live source S (capture_open_live's) with the packets rxe device DEV_INDEX
 * on that netdev sends to itself added (capture_loop.h, which names the
 * errnos; -EINVAL for a file's source): its frames come, with the netdev's,
 * from capture_next and capture_fd, its drops in capture_dropped.
 */
int capture_add_loopback(struct capture_src *s, uint32_t dev_index, char *why);

/* Where S reads rxe's loopback: the function of rdma_rxe probed, or NULL. */
const char *capture_loopback_at(const struct capture_src *s);

/* The frames of a pcap file opened as F (the source owns it afterwards): 0, or -EBADMSG. */
int capture_open_file(FILE *f, struct capture_src **s, char *why);

/* The link type its frames start with (pcap's DLT_ number). */
int capture_link(const struct capture_src *s);

/* A descriptor poll() says is readable when a live source may have a frame; -1 for a file. */
int capture_fd(const struct capture_src *s);

/*
 * The next frame into *F: 1, 0 when a live source has none ready now,
 * -ENODATA at a file's end, -ENODEV when a live source's netdev is gone
 * (deleted, or moved to another namespace), -EIO (WHY says) on another
 * failure.
 */
int capture_next(struct capture_src *s, struct capture_frame *f, char *why);

/* Frames the kernel or the netdev dropped before the capture read them (0 for a file). */
uint64_t capture_dropped(struct capture_src *s);

void capture_close(struct capture_src *s);

/*
 * A pcap file written to descriptor FD (dup'ed: FD stays the caller's) with
 * the link type and snap length of S: 0, or -EIO. capture_write adds a
 * frame; capture_write_end flushes and closes it: 0, or the errno of a
 * failed write.
 */
struct capture_dump;
int capture_write_open(struct capture_src *s, int fd, struct capture_dump **d, char *why);
void capture_write(struct capture_dump *d, const struct capture_frame *f);
int capture_write_end(struct capture_dump *d);

#endif
