// SPDX-License-Identifier: GPL-2.0-or-later
/* What libibverbs gives better than sysfs: MTUs, and whole GID tables in one call. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <net/if.h>

#include <infiniband/verbs.h>

#include "model/model.h"
#include "kernel/verbs.h"

/*
 * One device list for the process, since each listing rescans sysfs; listed
 * again when DEV is not in it (a device made since).
 */
static struct ibv_device **devices;
static int ndevices;

static void free_devices(void)
{
	if (devices)
		ibv_free_device_list(devices);
	devices = NULL;
}

static struct ibv_device *find_dev(const char *dev, bool relist)
{
	if (relist || !devices) {
		static bool registered;

		if (!registered)
			atexit(free_devices);
		registered = true;
		free_devices();
		devices = ibv_get_device_list(&ndevices);
		if (!devices)
			return NULL;
	}
	for (int i = 0; i < ndevices; i++)
		if (!strcmp(ibv_get_device_name(devices[i]), dev))
			return devices[i];
	return NULL;
}

/* DEV opened, or NULL with errno set. */
static struct ibv_context *open_dev(const char *dev)
{
	struct ibv_device *d = find_dev(dev, false);

	if (!d)
		d = find_dev(dev, true);
	if (!d) {
		errno = ENODEV;
		return NULL;
	}
	return ibv_open_device(d);
}

/* IBV_MTU_256 (1) .. IBV_MTU_4096 (5) in bytes. */
static int mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128 << mtu : 0;
}

int verbs_port_mtu(const char *dev, uint32_t port, int *active, int *max)
{
	struct ibv_context *ctx = open_dev(dev);
	struct ibv_port_attr attr;
	int err;

	if (!ctx)
		return errno ? -errno : -ENODEV;
	err = ibv_query_port(ctx, (uint8_t)port, &attr);
	if (err) {
		err = -err;
	} else {
		*active = mtu_bytes(attr.active_mtu);
		*max = mtu_bytes(attr.max_mtu);
	}
	ibv_close_device(ctx);
	return err;
}

#define TABLE_MAX (65535 / sizeof(struct ibv_gid_entry))

static int cmp_slot(const void *a, const void *b)
{
	const struct gid_slot *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

int verbs_gids(const char *dev, uint32_t port, struct gid_slot **slots, size_t *n,
	       uint32_t *tbl_len)
{
	struct ibv_context *ctx = open_dev(dev);
	struct ibv_port_attr attr;
	struct ibv_gid_entry *tab;
	uint32_t last_ifindex = 0;
	char last_name[IF_NAMESIZE] = "";
	ssize_t got;

	*slots = NULL;
	*n = 0;
	if (!ctx)
		return errno ? -errno : -ENODEV;
	/*
	 * Every port's entries in use come back, in one ioctl attribute whose
	 * length is 16 bits: at most 2047 entries (more is ENOSPC: sysfs then).
	 */
	if (ibv_query_port(ctx, (uint8_t)port, &attr) || attr.gid_tbl_len <= 0) {
		ibv_close_device(ctx);
		return -EOPNOTSUPP;
	}
	*tbl_len = (uint32_t)attr.gid_tbl_len;
	tab = calloc(TABLE_MAX, sizeof(*tab));
	got = tab ? ibv_query_gid_table(ctx, tab, TABLE_MAX, 0) : -ENOMEM;
	ibv_close_device(ctx);
	if (got < 0) {
		free(tab);
		return (int)got;
	}
	*slots = calloc(got ? (size_t)got : 1, sizeof(**slots));
	if (!*slots) {
		free(tab);
		return -ENOMEM;
	}
	for (ssize_t i = 0; i < got; i++) {
		struct gid_slot *g = &(*slots)[*n];

		if (tab[i].port_num != port)
			continue;
		g->index = tab[i].gid_index;
		memcpy(g->raw, tab[i].gid.raw, 16);
		/* sysfs's words for the types, as the rest of rdmactl shows them. */
		snprintf(g->type, sizeof(g->type), "%s",
			 tab[i].gid_type == IBV_GID_TYPE_ROCE_V2 ? "RoCE v2" : "IB/RoCE v1");
		/* The GIDs of a port mostly share a netdev: one name lookup for them. */
		if (tab[i].ndev_ifindex && tab[i].ndev_ifindex != last_ifindex &&
		    if_indextoname(tab[i].ndev_ifindex, last_name))
			last_ifindex = tab[i].ndev_ifindex;
		snprintf(g->netdev, sizeof(g->netdev), "%s",
			 tab[i].ndev_ifindex && tab[i].ndev_ifindex == last_ifindex ? last_name : "");
		(*n)++;
	}
	free(tab);
	qsort(*slots, *n, sizeof(**slots), cmp_slot);
	return 0;
}

bool verbs_lists(const char *dev)
{
	return find_dev(dev, true) != NULL;
}
