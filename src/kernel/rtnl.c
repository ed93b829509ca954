// SPDX-License-Identifier: GPL-2.0-or-later
/* Route netlink requests over kernel/nl.c (kernel/netns.c names namespaces). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <net/if.h>

#include <libmnl/libmnl.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <sys/socket.h>

#include "kernel/nl.h"
#include "kernel/rtnl.h"

static struct ifinfomsg *link_header(struct nlmsghdr *nlh)
{
	struct ifinfomsg *ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));

	ifm->ifi_family = AF_UNSPEC;
	return ifm;
}

int rtnl_bridge_add(struct nl *r, const char *name)
{
	struct nlmsghdr *nlh = nl_request(r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
	struct nlattr *info;

	link_header(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "bridge");
	mnl_attr_nest_end(nlh, info);
	return nl_talk(r, nlh, NULL, NULL);
}

int rtnl_veth_add(struct nl *r, const char *name, const char *master, const char *peer,
		  int nsfd)
{
	struct nlmsghdr *nlh = nl_request(r, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL);
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
	return nl_talk(r, nlh, NULL, NULL);
}

int rtnl_link_up(struct nl *r, const char *name)
{
	struct nlmsghdr *nlh = nl_request(r, RTM_NEWLINK, 0);
	struct ifinfomsg *ifm = link_header(nlh);

	ifm->ifi_flags = IFF_UP;
	ifm->ifi_change = IFF_UP;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nl_talk(r, nlh, NULL, NULL);
}

int rtnl_link_del(struct nl *r, const char *name)
{
	struct nlmsghdr *nlh = nl_request(r, RTM_DELLINK, 0);

	link_header(nlh);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nl_talk(r, nlh, NULL, NULL);
}

int rtnl_addr4_add(struct nl *r, const char *name, uint32_t addr_be, unsigned int prefix)
{
	struct nlmsghdr *nlh = nl_request(r, RTM_NEWADDR, NLM_F_CREATE | NLM_F_EXCL);
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
	return nl_talk(r, nlh, NULL, NULL);
}

static int route_attr_cb(const struct nlattr *attr, void *data)
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

	if (nlh->nlmsg_type != RTM_NEWROUTE)
		return NL_CB_CONTINUE;
	mnl_attr_parse(nlh, sizeof(struct rtmsg), route_attr_cb, tb);
	if (tb[RTA_OIF])
		*oif = mnl_attr_get_u32(tb[RTA_OIF]);
	return NL_CB_CONTINUE;
}

int rtnl_route_dev(struct nl *r, const char *addr, char dev[IF_NAMESIZE])
{
	unsigned char a[16];
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	unsigned int oif = 0;
	int family = strchr(addr, ':') ? AF_INET6 : AF_INET;
	int err;

	if (inet_pton(family, addr, a) != 1)
		return -EINVAL;
	nlh = nl_request(r, RTM_GETROUTE, 0);
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = family == AF_INET ? 32 : 128;
	mnl_attr_put(nlh, RTA_DST, family == AF_INET ? 4 : 16, a);
	/* ENETUNREACH, EHOSTUNREACH: no route. */
	err = nl_talk(r, nlh, route_cb, &oif);
	if (err)
		return err;
	return oif && if_indextoname(oif, dev) ? 0 : -ENODEV;
}
