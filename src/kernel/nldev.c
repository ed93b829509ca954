// SPDX-License-Identifier: GPL-2.0-or-later
/* RDMA NLDEV messages: requests, typed putters and parsers over kernel/nl.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <rdma/rdma_netlink.h>

#include "kernel/nl.h"
#include "kernel/nldev.h"

/* RDMA_NLDEV_ATTR_MAX is a count of attributes, not the last index. */
#define TB_SIZE RDMA_NLDEV_ATTR_MAX

/* The types rdmactl reads; any other attribute is skipped, whatever it holds. */
static const enum mnl_attr_data_type policy[TB_SIZE] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_DEV_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_PORT_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_PORT_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_NDEV_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_ATTR_RES_SUMMARY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_QP] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY] = MNL_TYPE_NESTED,
	[RDMA_NLDEV_ATTR_RES_LQPN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_RQPN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_RQ_PSN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_SQ_PSN] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_TYPE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_STATE] = MNL_TYPE_U8,
	[RDMA_NLDEV_ATTR_RES_PID] = MNL_TYPE_U32,
	[RDMA_NLDEV_ATTR_RES_KERN_NAME] = MNL_TYPE_NUL_STRING,
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] = MNL_TYPE_U8,
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] = MNL_TYPE_U8,
};

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	uint16_t type = mnl_attr_get_type(attr);

	/* Newer kernels add attributes: skip what this build does not know. */
	if (type >= TB_SIZE || policy[type] == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;
	if (mnl_attr_validate(attr, policy[type]) < 0)
		return MNL_CB_ERROR;
	tb[type] = attr;
	return MNL_CB_OK;
}

/* NEST's attributes into TB, as parse() does a message's: -EBADMSG when one runs past it. */
static int parse_nested(const struct nlattr *nest, const struct nlattr **tb)
{
	const struct nlattr *attr;

	memset(tb, 0, sizeof(*tb) * TB_SIZE);
	mnl_attr_for_each_nested(attr, nest) {
		if (attr_cb(attr, tb) != MNL_CB_OK)
			return -EBADMSG;
	}
	return (const char *)attr == (const char *)nest + mnl_attr_get_len(nest) ? 0 : -EBADMSG;
}

static int parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	const struct nlattr *attr;

	memset(tb, 0, sizeof(*tb) * TB_SIZE);
	/*
	 * mnl_attr_parse() stops quietly at an attribute that runs past the
	 * message; a truncated message must be an error, not a shorter one.
	 */
	mnl_attr_for_each(attr, nlh, 0) {
		if (attr_cb(attr, tb) != MNL_CB_OK)
			return -EBADMSG;
	}
	if ((const char *)attr != (const char *)mnl_nlmsg_get_payload_tail(nlh))
		return -EBADMSG;
	return 0;
}

static void copy_str(char *dst, size_t len, const struct nlattr *attr)
{
	snprintf(dst, len, "%s", mnl_attr_get_str(attr));
}

int nldev_parse_dev(const struct nlmsghdr *nlh, struct nldev_dev *d)
{
	const struct nlattr *tb[TB_SIZE];
	int err = parse(nlh, tb);

	if (err)
		return err;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return -ENODATA;
	memset(d, 0, sizeof(*d));
	d->index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	copy_str(d->name, sizeof(d->name), tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	/* For a device, PORT_INDEX carries the number of ports. */
	if (tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		d->nports = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	return 0;
}

static int nldev_parse_sys(const struct nlmsghdr *nlh, struct nldev_sys *s)
{
	const struct nlattr *tb[TB_SIZE];
	int err = parse(nlh, tb);

	if (err)
		return err;
	s->netns_mode = tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] ?
			mnl_attr_get_u8(tb[RDMA_NLDEV_SYS_ATTR_NETNS_MODE]) : -1;
	s->copy_on_fork = tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] ?
			  mnl_attr_get_u8(tb[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK]) : -1;
	return 0;
}

int nldev_parse_port(const struct nlmsghdr *nlh, struct nldev_port *p)
{
	const struct nlattr *tb[TB_SIZE];
	int err = parse(nlh, tb);

	if (err)
		return err;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME] ||
	    !tb[RDMA_NLDEV_ATTR_PORT_INDEX])
		return -ENODATA;
	memset(p, 0, sizeof(*p));
	p->dev_index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	copy_str(p->dev_name, sizeof(p->dev_name), tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	p->port = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]);
	if (tb[RDMA_NLDEV_ATTR_PORT_STATE])
		p->state = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_PORT_STATE]);
	if (tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE])
		p->phys_state = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_PORT_PHYS_STATE]);
	if (tb[RDMA_NLDEV_ATTR_NDEV_NAME]) {
		p->has_netdev = true;
		copy_str(p->netdev, sizeof(p->netdev), tb[RDMA_NLDEV_ATTR_NDEV_NAME]);
		if (tb[RDMA_NLDEV_ATTR_NDEV_INDEX])
			p->netdev_index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_NDEV_INDEX]);
	}
	return 0;
}

/* One RES_SUMMARY_ENTRY: its name and current count into R, when it is one rdmactl counts. */
static int summary_entry(const struct nlattr *entry, struct nldev_res *r)
{
	const struct nlattr *a, *name = NULL, *curr = NULL;

	mnl_attr_for_each_nested(a, entry) {
		uint16_t type = mnl_attr_get_type(a);

		if (type == RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME) {
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
				return -EBADMSG;
			name = a;
		} else if (type == RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR) {
			if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
				return -EBADMSG;
			curr = a;
		}
	}
	if ((const char *)a != (const char *)entry + mnl_attr_get_len(entry))
		return -EBADMSG;
	if (!name || !curr)
		return -ENODATA;
	if (!strcmp(mnl_attr_get_str(name), "ctx")) {
		r->has_ctx = true;
		r->ctx = mnl_attr_get_u64(curr);
	} else if (!strcmp(mnl_attr_get_str(name), "cm_id")) {
		r->has_cm_id = true;
		r->cm_id = mnl_attr_get_u64(curr);
	}
	return 0;
}

int nldev_parse_res(const struct nlmsghdr *nlh, struct nldev_res *r)
{
	const struct nlattr *tb[TB_SIZE], *entry;
	int err = parse(nlh, tb);

	if (err)
		return err;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_RES_SUMMARY])
		return -ENODATA;
	memset(r, 0, sizeof(*r));
	r->dev_index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	mnl_attr_for_each_nested(entry, tb[RDMA_NLDEV_ATTR_RES_SUMMARY]) {
		if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY)
			continue;
		err = summary_entry(entry, r);
		if (err)
			return err;
	}
	if ((const char *)entry != (const char *)tb[RDMA_NLDEV_ATTR_RES_SUMMARY] +
	    mnl_attr_get_len(tb[RDMA_NLDEV_ATTR_RES_SUMMARY]))
		return -EBADMSG;
	return 0;
}

/* One RES_QP_ENTRY into Q (its device's index and name already there). */
static int qp_entry(const struct nlattr *entry, struct nldev_qp *q)
{
	const struct nlattr *tb[TB_SIZE];
	int err = parse_nested(entry, tb);

	if (err)
		return err;
	if (!tb[RDMA_NLDEV_ATTR_RES_LQPN] || !tb[RDMA_NLDEV_ATTR_RES_TYPE] ||
	    !tb[RDMA_NLDEV_ATTR_RES_STATE])
		return -ENODATA;
	q->lqpn = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_RES_LQPN]);
	q->type = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_RES_TYPE]);
	q->state = mnl_attr_get_u8(tb[RDMA_NLDEV_ATTR_RES_STATE]);
	q->port = tb[RDMA_NLDEV_ATTR_PORT_INDEX] ?
		  mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_PORT_INDEX]) : 0;
	q->has_rqpn = tb[RDMA_NLDEV_ATTR_RES_RQPN] != NULL;
	q->rqpn = q->has_rqpn ? mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_RES_RQPN]) : 0;
	q->has_rq_psn = tb[RDMA_NLDEV_ATTR_RES_RQ_PSN] != NULL;
	q->rq_psn = q->has_rq_psn ? mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_RES_RQ_PSN]) : 0;
	q->has_sq_psn = tb[RDMA_NLDEV_ATTR_RES_SQ_PSN] != NULL;
	q->sq_psn = q->has_sq_psn ? mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_RES_SQ_PSN]) : 0;
	q->pid = tb[RDMA_NLDEV_ATTR_RES_PID] ? mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_RES_PID]) : 0;
	q->kern_name[0] = '\0';
	if (tb[RDMA_NLDEV_ATTR_RES_KERN_NAME])
		copy_str(q->kern_name, sizeof(q->kern_name), tb[RDMA_NLDEV_ATTR_RES_KERN_NAME]);
	return 0;
}

int nldev_parse_qps(const struct nlmsghdr *nlh, int (*cb)(const struct nldev_qp *q, void *arg),
		    void *arg)
{
	const struct nlattr *tb[TB_SIZE], *entry;
	struct nldev_qp q = { 0 };
	int err = parse(nlh, tb);

	if (err)
		return err;
	if (!tb[RDMA_NLDEV_ATTR_DEV_INDEX] || !tb[RDMA_NLDEV_ATTR_DEV_NAME])
		return -ENODATA;
	q.dev_index = mnl_attr_get_u32(tb[RDMA_NLDEV_ATTR_DEV_INDEX]);
	copy_str(q.dev_name, sizeof(q.dev_name), tb[RDMA_NLDEV_ATTR_DEV_NAME]);
	if (!tb[RDMA_NLDEV_ATTR_RES_QP])
		return 0;	/* a device with no QP */
	mnl_attr_for_each_nested(entry, tb[RDMA_NLDEV_ATTR_RES_QP]) {
		if (mnl_attr_get_type(entry) != RDMA_NLDEV_ATTR_RES_QP_ENTRY)
			continue;
		err = qp_entry(entry, &q);
		if (!err)
			err = cb(&q, arg);
		if (err)
			return err;
	}
	if ((const char *)entry != (const char *)tb[RDMA_NLDEV_ATTR_RES_QP] +
	    mnl_attr_get_len(tb[RDMA_NLDEV_ATTR_RES_QP]))
		return -EBADMSG;
	return 0;
}

bool nldev_put_newlink(struct nlmsghdr *nlh, size_t buflen, const char *name,
		       const char *type, const char *netdev)
{
	return mnl_attr_put_strz_check(nlh, buflen, RDMA_NLDEV_ATTR_DEV_NAME, name) &&
	       mnl_attr_put_strz_check(nlh, buflen, RDMA_NLDEV_ATTR_LINK_TYPE, type) &&
	       mnl_attr_put_strz_check(nlh, buflen, RDMA_NLDEV_ATTR_NDEV_NAME, netdev);
}

bool nldev_put_dev_index(struct nlmsghdr *nlh, size_t buflen, uint32_t index)
{
	return mnl_attr_put_u32_check(nlh, buflen, RDMA_NLDEV_ATTR_DEV_INDEX, index);
}

bool nldev_put_netns_mode(struct nlmsghdr *nlh, size_t buflen, uint8_t mode)
{
	return mnl_attr_put_u8_check(nlh, buflen, RDMA_NLDEV_SYS_ATTR_NETNS_MODE, mode);
}

bool nldev_put_netns_fd(struct nlmsghdr *nlh, size_t buflen, int fd)
{
	return mnl_attr_put_u32_check(nlh, buflen, RDMA_NLDEV_NET_NS_FD, (uint32_t)fd);
}

struct nlmsghdr *nldev_request(struct nl *nl, uint16_t cmd, uint16_t flags)
{
	return nl_request(nl, RDMA_NL_GET_TYPE(RDMA_NL_NLDEV, cmd), flags);
}

const char *nldev_netns_mode_name(int mode)
{
	return mode < 0 ? NULL : mode ? "shared" : "exclusive";
}

struct sys_reply {
	struct nldev_sys *s;
	int err;
};

static int sys_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sys_reply *r = data;

	r->err = nldev_parse_sys(nlh, r->s);
	return r->err ? NL_CB_ERROR : NL_CB_CONTINUE;
}

int nldev_sys_get(struct nl *nl, struct nldev_sys *s)
{
	struct sys_reply r = { .s = s };
	int err;

	*s = (struct nldev_sys){ -1, -1 };
	err = nl_talk(nl, nldev_request(nl, RDMA_NLDEV_CMD_SYS_GET, 0), sys_cb, &r);
	return err ? err : r.err;
}
