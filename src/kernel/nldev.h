/* SPDX-License-Identifier: GPL-2.0-or-later */
/* RDMA NLDEV messages: requests, typed putters and parsers over kernel/nl.c. */
#ifndef RDMACTL_NLDEV_H
#define RDMACTL_NLDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <net/if.h>

struct nl;
struct nlmsghdr;

#define RDMA_DEV_NAME_MAX 64	/* IB_DEVICE_NAME_MAX, with the NUL */
/*
 * RDMA netlink's notification group, RDMA_NL_GROUP_NOTIFY in the uapi of
 * newer kernels (an enum there, so not tested for): devices registered and
 * unregistered, netdevs attached and detached. 6.12 and 7.3 send them;
 * 5.10 and 6.1 let a socket join and send nothing.
 */
#define NLDEV_GROUP_NOTIFY 4

struct nldev_dev {
	uint32_t index;
	char name[RDMA_DEV_NAME_MAX];
	uint32_t nports;
};

struct nldev_port {
	uint32_t dev_index;
	char dev_name[RDMA_DEV_NAME_MAX];
	uint32_t port;
	uint8_t state;		/* IB port state: 4 is ACTIVE */
	uint8_t phys_state;	/* 5 is LINK_UP */
	bool has_netdev;
	uint32_t netdev_index;
	char netdev[IF_NAMESIZE];
};

/* What RES_GET says of a device: the user contexts and rdma_cm ids it has now. */
struct nldev_res {
	uint32_t dev_index;
	bool has_ctx, has_cm_id;	/* the kernel counts them (5.x counts ctx) */
	uint64_t ctx, cm_id;
};

/* One QP as RES_QP_GET's dump has it: what the kernel did not say is 0 (has_* false). */
struct nldev_qp {
	uint32_t dev_index;
	char dev_name[RDMA_DEV_NAME_MAX];
	uint32_t port;		/* 0: none yet (a QP not yet in INIT) */
	uint32_t lqpn;
	uint8_t type;		/* enum ib_qp_type: 2 RC, 3 UC, 4 UD, ... */
	uint8_t state;		/* enum ib_qp_state: 0 RESET ... 6 ERR */
	bool has_rqpn, has_rq_psn, has_sq_psn;	/* RC and UC have a peer */
	uint32_t rqpn, rq_psn, sq_psn;
	uint32_t pid;		/* its owner; 0 for the kernel's own, named by kern_name */
	char kern_name[32];
};

/* What SYS_GET says of the RDMA subsystem; -1 where it says nothing. */
struct nldev_sys {
	int netns_mode;		/* 1 shared: every device in every namespace; 0 exclusive */
	int copy_on_fork;	/* 1: registered memory is copied into a fork's child */
};

/* A request for NLDEV command CMD (RDMA_NLDEV_CMD_*) in NL's buffer. */
struct nlmsghdr *nldev_request(struct nl *nl, uint16_t cmd, uint16_t flags);

/* Appends NEWLINK's attributes. False when they do not fit in BUFLEN. */
bool nldev_put_newlink(struct nlmsghdr *nlh, size_t buflen, const char *name,
		       const char *type, const char *netdev);
bool nldev_put_dev_index(struct nlmsghdr *nlh, size_t buflen, uint32_t index);
/* SYS_SET's namespace mode: 1 shared, 0 exclusive. */
bool nldev_put_netns_mode(struct nlmsghdr *nlh, size_t buflen, uint8_t mode);
/* SET's network namespace to move a device into: an open descriptor of it. */
bool nldev_put_netns_fd(struct nlmsghdr *nlh, size_t buflen, int fd);

/* "shared" (1), "exclusive" (0); NULL for unknown (-1). */
const char *nldev_netns_mode_name(int mode);

/* SYS_GET's answer into S (-1 where it says nothing): 0 or a negative errno. */
int nldev_sys_get(struct nl *nl, struct nldev_sys *s);

/* 0, or -EBADMSG / -ENODATA (a required attribute missing). */
int nldev_parse_dev(const struct nlmsghdr *nlh, struct nldev_dev *d);
int nldev_parse_port(const struct nlmsghdr *nlh, struct nldev_port *p);
int nldev_parse_res(const struct nlmsghdr *nlh, struct nldev_res *r);
/*
 * RES_QP_GET's answer NLH (one device's, or part of it): CB called with each
 * QP; 0, CB's first nonzero return, or -EBADMSG / -ENODATA.
 */
int nldev_parse_qps(const struct nlmsghdr *nlh, int (*cb)(const struct nldev_qp *q, void *arg),
		    void *arg);

#endif
