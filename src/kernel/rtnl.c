// SPDX-License-Identifier: GPL-2.0-or-later
/* Route netlink requests over libmnl (kernel/netns.c names namespaces). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <net/if.h>

#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sys/socket.h>

#include "kernel/rtnl.h"

struct rtnl {
	struct mnl_socket *sock;
	unsigned int portid, seq;
	char buf[8192] __attribute__((aligned(8)));
};

int rtnl_open(struct rtnl **rp)
{
	struct rtnl *r = calloc(1, sizeof(*r));
	int one = 1;

	if (!r)
		return -ENOMEM;
	r->sock = mnl_socket_open(NETLINK_ROUTE);
	if (!r->sock || mnl_socket_bind(r->sock, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		if (r->sock)
			mnl_socket_close(r->sock);
		free(r);
		return err;
	}
	mnl_socket_setsockopt(r->sock, NETLINK_CAP_ACK, &one, sizeof(one));
	r->portid = mnl_socket_get_portid(r->sock);
	r->seq = (unsigned int)time(NULL);
	*rp = r;
	return 0;
}

void rtnl_close(struct rtnl *r)
{
	if (!r)
		return;
	mnl_socket_close(r->sock);
	free(r);
}

static struct nlmsghdr *request(struct rtnl *r, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(r->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++r->seq;
	return nlh;
}

/* Sends NLH and takes its acknowledgement: 0 or the kernel's negative errno. */
static int talk(struct rtnl *r, struct nlmsghdr *nlh)
{
	unsigned int seq = nlh->nlmsg_seq;

	if (mnl_socket_sendto(r->sock, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(r->sock, r->buf, sizeof(r->buf));
		if (n < 0)
			return -errno;
		n = mnl_cb_run(r->buf, (size_t)n, seq, r->portid, NULL, NULL);
		if (n < 0)
			return -errno;
		if (n == MNL_CB_STOP)
			return 0;
	}
}

static struct ifinfomsg *link_header(struct nlmsghdr *nlh)
{
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));

	ifm->ifi_family = AF_UNSPEC;
	return ifm;
}

int rtnl_bridge_add(struct rtnl *r, const char *name)
{
	struct nlmsghdr *nlh = request(r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *info;

	link_header(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	mnl_attr_nest_end(nlh, info);
	return talk(r, nlh);
}

int rtnl_veth_add(struct rtnl *r, const char *name, const char *master, const char *peer,
		  int nsfd)
{
	struct nlmsghdr *nlh = request(r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *info, *data, *pinfo;
	unsigned int mi = 0;

	if (master) {
		mi = if_nametoindex(master);
		if (!mi)
			return -errno;
	}
	link_header(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (mi)
		mnl_attr_put_u32(nlh, IFLA_MASTER, mi);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	pinfo = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	/* The peer's attributes follow an ifinfomsg of its own. */
	link_header(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, peer);
	if (nsfd >= 0)
		mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)nsfd);
	mnl_attr_nest_end(nlh, pinfo);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return talk(r, nlh);
}

int rtnl_link_up(struct rtnl *r, const char *name)
{
	struct nlmsghdr *nlh = request(r, RTM_NEWLINK, 0);
	struct ifinfomsg *ifm = link_header(nlh);

	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return talk(r, nlh);
}

int rtnl_link_del(struct rtnl *r, const char *name)
{
	struct nlmsghdr *nlh = request(r, RTM_DELLINK, 0);

	link_header(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return talk(r, nlh);
}

int rtnl_addr4_add(struct rtnl *r, const char *name, uint32_t addr_be, unsigned int prefix)
{
	struct nlmsghdr *nlh = request(r, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));
	unsigned int index = if_nametoindex(name);

	if (!index)
		return -errno;
	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = (unsigned char)prefix;
	ifa->ifa_scope = RT_SCOPE_UNIVERSE;
	ifa->ifa_index = index;
	mnl_attr_put_u32(nlh, IFA_LOCAL, addr_be);
	mnl_attr_put_u32(nlh, IFA_ADDRESS, addr_be);
	return talk(r, nlh);
}
