// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's route to an address (RTM_GETROUTE): which device it leaves by. */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>

#include "kernel/route.h"

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;

	if (mnl_attr_get_type(attr) == RTA_OIF && mnl_attr_validate(attr, MNL_TYPE_U32) == 0)
		tb[RTA_OIF] = attr;
	return MNL_CB_OK;
}

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RTA_MAX + 1] = { 0 };
	unsigned int *oif = data;

	mnl_attr_parse(nlh, sizeof(struct rtmsg), attr_cb, tb);
	if (tb[RTA_OIF])
		*oif = mnl_attr_get_u32(tb[RTA_OIF]);
	return MNL_CB_OK;
}

int route_dev(const char *addr, char dev[IF_NAMESIZE])
{
	char buf[8192];
	unsigned char a[16];
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	unsigned int seq = (unsigned int)time(NULL), oif = 0;
	int family = strchr(addr, ':') ? AF_INET6 : AF_INET;
	ssize_t n;
	int ret;

	if (inet_pton(family, addr, a) != 1)
		return -EINVAL;
	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl)
		return -errno;
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		goto out;
	}
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = family == AF_INET ? 32 : 128;
	mnl_attr_put(nlh, RTA_DST, family == AF_INET ? 4 : 16, a);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto out;
	}
	n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	ret = mnl_cb_run(buf, (size_t)n, seq, mnl_socket_get_portid(nl), route_cb, &oif);
	if (ret < 0) {
		ret = -errno;	/* ENETUNREACH, EHOSTUNREACH: no route */
		goto out;
	}
	ret = oif && if_indextoname(oif, dev) ? 0 : -ENODEV;
out:
	mnl_socket_close(nl);
	return ret;
}
