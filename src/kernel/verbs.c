// SPDX-License-Identifier: GPL-2.0-or-later
/* What libibverbs gives better than sysfs: MTUs, and whole GID tables in one call. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

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

static int cmp_gid(const void *a, const void *b)
{
	const struct verbs_gid *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

int verbs_gids(const char *dev, uint32_t port, struct verbs_gid **gids, size_t *n,
	       uint32_t *tbl_len)
{
	struct ibv_context *ctx = open_dev(dev);
	struct ibv_port_attr attr;
	struct ibv_gid_entry *tab;
	ssize_t got;

	*gids = NULL;
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
	*gids = calloc(got ? (size_t)got : 1, sizeof(**gids));
	if (!*gids) {
		free(tab);
		return -ENOMEM;
	}
	for (ssize_t i = 0; i < got; i++) {
		if (tab[i].port_num != port)
			continue;
		(*gids)[*n] = (struct verbs_gid){ .index = tab[i].gid_index,
						  .roce_v2 = tab[i].gid_type == IBV_GID_TYPE_ROCE_V2,
						  .ifindex = tab[i].ndev_ifindex };
		memcpy((*gids)[*n].raw, tab[i].gid.raw, 16);
		(*n)++;
	}
	free(tab);
	qsort(*gids, *n, sizeof(**gids), cmp_gid);
	return 0;
}

bool verbs_lists(const char *dev)
{
	return find_dev(dev, true) != NULL;
}
