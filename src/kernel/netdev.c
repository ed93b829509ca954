// SPDX-License-Identifier: GPL-2.0-or-later
/* Network devices as rxe sees them: type, state, MTU, driver, VLAN parent, IPv4. */
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <net/if_arp.h>
#include <linux/sockios.h>

#include "kernel/netdev.h"
#include "kernel/sysfs.h"

/*
 * The netdev's numeric attribute ATTR, or DFLT when it is missing or not a
 * number from 0 to INT_MAX: "-1" (speed's unknown) or a fixture's garbage is
 * never taken for a huge value.
 */
static unsigned long read_ulong(const char *root, const char *name, const char *attr, long dflt)
{
	char buf[64], *end;
	unsigned long v;

	if (sysfs_read(root, buf, sizeof(buf), "/sys/class/net/%s/%s", name, attr) <= 0)
		return (unsigned long)dflt;
	if (!(buf[0] >= '0' && buf[0] <= '9'))
		return (unsigned long)dflt;
	errno = 0;
	v = strtoul(buf, &end, 0);
	return errno || *end || v > INT_MAX ? (unsigned long)dflt : v;
}

/* The driver name as ethtool reports it; works for virtual devices too. */
static void ethtool_driver(const char *name, char *buf, size_t len)
{
	struct ethtool_drvinfo info = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	ifr.ifr_data = (void *)&info;
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0)
		snprintf(buf, len, "%s", info.driver);
	close(fd);
}

static void vlan_parent(const char *root, struct netdev *n)
{
	char path[512], uevent[512];
	struct dirent *de;
	DIR *d;

	if (sysfs_read(root, uevent, sizeof(uevent), "/sys/class/net/%s/uevent", n->name) <= 0 ||
	    !strstr(uevent, "DEVTYPE=vlan"))
		return;
	n->is_vlan = true;
	snprintf(path, sizeof(path), "%s/sys/class/net/%s", root, n->name);
	d = opendir(path);
	if (!d)
		return;
	/* The lower_PARENT link names the device the VLAN sits on. */
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "lower_", 6)) {
			snprintf(n->vlan_parent, sizeof(n->vlan_parent), "%s", de->d_name + 6);
			break;
		}
	closedir(d);
}

static void first_ipv4(const char *name, char *buf, size_t len)
{
	struct ifaddrs *ifa, *i;

	if (getifaddrs(&ifa) < 0)
		return;
	for (i = ifa; i; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || strcmp(i->ifa_name, name))
			continue;
		inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, buf, (socklen_t)len);
		break;
	}
	freeifaddrs(ifa);
}

int netdev_basic(const char *root, const char *name, struct netdev *n)
{
	char buf[64];

	memset(n, 0, sizeof(*n));
	if (strlen(name) >= sizeof(n->name))
		return -ENODEV;
	/* The type read is the test that NAME exists: one file, not a lookup and a file. */
	if (sysfs_read(root, buf, sizeof(buf), "/sys/class/net/%s/type", name) <= 0)
		return -ENODEV;
	n->type = (unsigned int)strtoul(buf, NULL, 0);
	strcpy(n->name, name);
	return 0;
}

int netdev_mtu(const char *root, const char *name, unsigned int *mtu)
{
	unsigned long v = read_ulong(root, name, "mtu", 0);

	if (!v)
		return -ENODEV;
	*mtu = (unsigned int)v;
	return 0;
}

int netdev_operstate(const char *root, const char *name, char *buf, size_t len)
{
	if (sysfs_read(root, buf, len, "/sys/class/net/%s/operstate", name) <= 0) {
		*buf = '\0';
		return -ENODEV;
	}
	return 0;
}

int netdev_get_link(const char *root, const char *name, struct netdev *n)
{
	if (netdev_basic(root, name, n))
		return -ENODEV;
	n->flags = (unsigned int)read_ulong(root, name, "flags", 0);
	n->carrier = read_ulong(root, name, "carrier", 0) == 1;
	/* Not read is unknown (""), not the kernel's own word "unknown" (lo, dummy). */
	if (sysfs_read(root, n->operstate, sizeof(n->operstate), "/sys/class/net/%s/operstate",
		       name) < 0)
		n->operstate[0] = '\0';
	return 0;
}

bool netdev_carries(const struct netdev *n)
{
	/* lo, dummy and the like say "unknown" while they carry traffic, as 'ip link' shows. */
	return !strcmp(n->operstate, "up") || (!strcmp(n->operstate, "unknown") && n->carrier);
}

int netdev_get(const char *root, const char *name, struct netdev *n)
{
	bool live = !*root;

	if (netdev_get_link(root, name, n))
		return -ENODEV;
	n->mtu = (unsigned int)read_ulong(root, name, "mtu", 0);
	/* speed reads as -1, or fails with EINVAL, when the device does not know. */
	n->speed = (int)(long)read_ulong(root, name, "speed", -1);
	if (n->speed <= 0)
		n->speed = -1;
	if (sysfs_link_base(root, n->driver, sizeof(n->driver), "/sys/class/net/%s/device/driver",
			    name) < 0 && live)
		ethtool_driver(name, n->driver, sizeof(n->driver));
	vlan_parent(root, n);
	if (live)
		first_ipv4(name, n->ipv4, sizeof(n->ipv4));
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct netdev *)a)->name, ((const struct netdev *)b)->name);
}

int netdev_list(const char *root, struct netdev **vp, size_t *np)
{
	char path[512];
	struct netdev *v = NULL, *nv;
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/sys/class/net", root);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv) {
			closedir(d);
			free(v);
			return -ENOMEM;
		}
		v = nv;
		/* Gone since readdir: skip it. */
		if (netdev_get(root, de->d_name, &v[n]) == 0)
			n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), by_name);
	*vp = v;
	*np = n;
	return 0;
}

bool netdev_is_ethernet(const struct netdev *n)
{
	return n->type == ARPHRD_ETHER && !(n->flags & IFF_LOOPBACK);
}

void netdev_default_route(const char *root, char *buf, size_t len)
{
	char text[8192], *line, *save = NULL;

	buf[0] = '\0';
	if (sysfs_read(root, text, sizeof(text), "/proc/net/route") <= 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char ifname[IF_NAMESIZE + 1], dst[16];

		if (sscanf(line, "%16s %15s", ifname, dst) == 2 && !strcmp(dst, "00000000")) {
			snprintf(buf, len, "%s", ifname);
			return;
		}
	}
}
