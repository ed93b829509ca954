// SPDX-License-Identifier: GPL-2.0-or-later
/* rxe-vm stage 1: the network, over ioctls and rtnetlink. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <arpa/inet.h>
#include <linux/if_addr.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>
#include <net/if.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "init.h"

/* NAME up, with MTU first unless 0. */
void link_up(const char *name, int mtu)
{
	struct ifreq ifr = { 0 };
	int sk = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_mtu = mtu;
	if (sk < 0 || (mtu && ioctl(sk, SIOCSIFMTU, &ifr)))
		fail("cannot set the MTU of %s: %s", name, strerror(errno));
	if (ioctl(sk, SIOCGIFFLAGS, &ifr))
		fail("cannot read the flags of %s: %s", name, strerror(errno));
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(sk, SIOCSIFFLAGS, &ifr))
		fail("cannot bring %s up: %s", name, strerror(errno));
	close(sk);
}

/*
 * rtnetlink, for the two things no ioctl does: a veth pair, and an address
 * added as iproute2 adds it (no broadcast, the prefix as given). By hand:
 * this program is static, and libmnl has no static library in Debian.
 */
struct rtreq {
	struct nlmsghdr h;
	char body[512];
};

static struct rtattr *rta_put(struct rtreq *r, unsigned short type, const void *data, size_t len)
{
	struct rtattr *a = (struct rtattr *)((char *)r + NLMSG_ALIGN(r->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = (unsigned short)RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(a), data, len);
	r->h.nlmsg_len = NLMSG_ALIGN(r->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
	return a;
}

/* A nest opened by rta_put(r, TYPE, NULL, 0) ends here. */
static void rta_end(struct rtreq *r, struct rtattr *a)
{
	a->rta_len = (unsigned short)((char *)r + r->h.nlmsg_len - (char *)a);
}

static int rt_talk(struct rtreq *r)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
		char more[256];
	} ack;
	int sk = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), err = 0;
	ssize_t n;

	if (sk < 0 || sendto(sk, r, r->h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		err = errno;
	else if ((n = recv(sk, &ack, sizeof(ack), 0)) < (ssize_t)(sizeof(ack.h) + sizeof(ack.e)))
		err = n < 0 ? errno : EPROTO;
	else if (ack.h.nlmsg_type == NLMSG_ERROR)
		err = -ack.e.error;
	if (sk >= 0)
		close(sk);
	return err;
}

static void veth_pair(const char *name, const char *peer)
{
	struct rtreq r = { .h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
				  .nlmsg_type = RTM_NEWLINK,
				  .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL } };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct rtattr *info, *data, *p;
	int err;

	rta_put(&r, IFLA_IFNAME, name, strlen(name) + 1);
	info = rta_put(&r, IFLA_LINKINFO, NULL, 0);
	rta_put(&r, IFLA_INFO_KIND, "veth", 5);
	data = rta_put(&r, IFLA_INFO_DATA, NULL, 0);
	p = rta_put(&r, VETH_INFO_PEER, &ifi, sizeof(ifi));
	rta_put(&r, IFLA_IFNAME, peer, strlen(peer) + 1);
	rta_end(&r, p);
	rta_end(&r, data);
	rta_end(&r, info);
	if ((err = rt_talk(&r)))
		fail("guest network setup failed: cannot make the veth pair %s, %s: %s", name, peer,
		     strerror(err));
}

static void addr_add(const char *dev, const char *addr, unsigned char prefix)
{
	struct rtreq r = { .h = { .nlmsg_len = NLMSG_LENGTH(sizeof(struct ifaddrmsg)),
				  .nlmsg_type = RTM_NEWADDR,
				  .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL } };
	struct ifaddrmsg *ifa = NLMSG_DATA(&r.h);
	struct in_addr a;
	int err;

	ifa->ifa_family = AF_INET;
	ifa->ifa_prefixlen = prefix;
	ifa->ifa_index = if_nametoindex(dev);
	if (!ifa->ifa_index || inet_pton(AF_INET, addr, &a) != 1)
		fail("guest network setup failed: no %s for %s", dev, addr);
	rta_put(&r, IFA_LOCAL, &a, sizeof(a));
	rta_put(&r, IFA_ADDRESS, &a, sizeof(a));
	if ((err = rt_talk(&r)))
		fail("guest network setup failed: cannot add %s/%u to %s: %s", addr, prefix, dev,
		     strerror(err));
}

/*
 * The bed's network: veth0 (10.11.11.251/24) and its peer veth1 for one
 * guest, eth0 (10.11.12.HOST/24) between two. It sets RXE_VM_NETDEV,
 * RXE_VM_ADDR and RXE_VM_PEER.
 */
void network(const char *hosts, const char *host)
{
	static const char dad[] = "/proc/sys/net/ipv6/conf/default/accept_dad";
	char olddad[16], addr[32] = "10.11.11.251", peer[32] = "", state[16];

	/*
	 * The bed's links cannot meet a duplicate address: no IPv6 DAD on them,
	 * so that their fe80:: addresses (and GIDs) are final at once; later
	 * links get the kernel's default back. No such file: ipv6.disable=1.
	 */
	read_line(dad, olddad, sizeof(olddad));
	write_text(dad, "0");
	if (hosts && !strcmp(hosts, "2")) {
		int h = host ? atoi(host) : 1;

		/* Stage 1 loaded virtio_net where it is a module. */
		if (access("/sys/class/net/eth0", F_OK))
			fail("guest network setup failed: no eth0 (virtio_net)");
		snprintf(addr, sizeof(addr), "10.11.12.%d", h);
		snprintf(peer, sizeof(peer), "10.11.12.%d", 3 - h);
		link_up("eth0", 1500);
		addr_add("eth0", addr, 24);
		/* The link is up once qemu has joined the two guests' sockets. */
		for (int i = 0; i < 100; i++) {
			read_line("/sys/class/net/eth0/operstate", state, sizeof(state));
			if (!strcmp(state, "up"))
				break;
			usleep(50000);
		}
		setenv("RXE_VM_NETDEV", "eth0", 1);
	} else {
		veth_pair("veth0", "veth1");
		link_up("veth1", 0);
		link_up("veth0", 0);
		addr_add("veth0", addr, 24);
		setenv("RXE_VM_NETDEV", "veth0", 1);
	}
	if (*olddad)
		write_text(dad, olddad);
	setenv("RXE_VM_ADDR", addr, 1);
	setenv("RXE_VM_PEER", peer, 1);
}
