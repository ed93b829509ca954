// SPDX-License-Identifier: GPL-2.0-or-later
/* Port attributes only libibverbs gives (sysfs has no MTU). */
#include <errno.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "verbs.h"

/* IBV_MTU_256 (1) .. IBV_MTU_4096 (5) in bytes. */
static int mtu_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096 ? 128 << mtu : 0;
}

int verbs_port_mtu(const char *dev, uint32_t port, int *active, int *max)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_port_attr attr;
	int n, err = -ENODEV;

	list = ibv_get_device_list(&n);
	if (!list)
		return errno ? -errno : -ENODEV;
	for (int i = 0; i < n; i++) {
		if (strcmp(ibv_get_device_name(list[i]), dev))
			continue;
		ctx = ibv_open_device(list[i]);
		if (!ctx) {
			err = errno ? -errno : -ENODEV;
			break;
		}
		err = ibv_query_port(ctx, (uint8_t)port, &attr);
		if (err) {
			err = -err;
		} else {
			*active = mtu_bytes(attr.active_mtu);
			*max = mtu_bytes(attr.max_mtu);
		}
		ibv_close_device(ctx);
		break;
	}
	ibv_free_device_list(list);
	return err;
}

bool verbs_lists(const char *dev)
{
	struct ibv_device **list;
	bool found = false;
	int n;

	list = ibv_get_device_list(&n);
	if (!list)
		return false;
	for (int i = 0; i < n && !found; i++)
		found = !strcmp(ibv_get_device_name(list[i]), dev);
	ibv_free_device_list(list);
	return found;
}
