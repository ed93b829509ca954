/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The RDMA model from sysfs: devices, their ports, GID tables and counters. */
#ifndef RDMACTL_MODEL_H
#define RDMACTL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <net/if.h>

#define RDMA_NAME_MAX 64

enum model_flags {
	MODEL_GIDS = 1 << 0,	/* occupied GID slots */
	MODEL_ALL_GIDS = 1 << 1,	/* every slot, empty ones too */
	MODEL_COUNTERS = 1 << 2,	/* hw_counters */
};

struct gid_slot {
	uint32_t index;
	uint8_t raw[16];
	bool empty;
	char type[16];		/* "RoCE v2", "IB/RoCE v1"; "" when the kernel has none */
	char netdev[IF_NAMESIZE];
};

struct counter {
	char name[48];
	uint64_t value;
};

struct port {
	uint32_t num;
	uint8_t state;		/* 4: ACTIVE */
	uint8_t phys_state;	/* 5: LinkUp */
	char link_layer[16];
	char rate[64];		/* "10 Gb/sec (1X FDR10)" */
	double speed_gbps;	/* from RATE; 0 when unknown */
	char width[8];		/* "1X" */
	uint32_t gid_tbl_len;
	uint32_t pkey_tbl_len;
	struct gid_slot *gids;
	size_t ngids;
	struct counter *counters;
	size_t ncounters;
};

struct rdma_dev {
	char name[RDMA_NAME_MAX];
	char node_type[16];	/* "ca", "rnic", ... */
	char node_guid[24];
	char sys_image_guid[24];
	char fw_ver[64];
	char driver[32];	/* "rxe", "siw", or the hardware's driver */
	char netdev[IF_NAMESIZE];	/* rxe's parent, else GID 0's netdev; "" if none */
	char uverbs[32];	/* "uverbs0", "" when ib_uverbs has made none */
	struct port *ports;
	size_t nports;
};

struct model {
	struct rdma_dev *devs;
	size_t n;
};

/*
 * Reads ROOT/sys/class/infiniband (every device, or only ONLY when not NULL).
 * No such directory is an empty model. -ENODEV when ONLY does not exist.
 */
int model_load(const char *root, const char *only, unsigned int flags, struct model *m);
void model_free(struct model *m);

/*
 * Another source for MODEL_GIDS (without MODEL_ALL_GIDS) on the live system:
 * FN gives the GIDs in use of one port, sorted by index, and the table's
 * length, or a negative errno for sysfs to be read instead. rdmactl sets
 * libibverbs' GID table here.
 */
typedef int (*model_gid_fn)(const char *dev, uint32_t port, struct gid_slot **slots, size_t *n,
			    uint32_t *tbl_len);
void model_set_gid_source(model_gid_fn fn);

/* The driver behind RDMA device NAME, from sysfs: "rxe", "siw", a driver, or "unknown". */
void rdma_dev_driver(const char *root, const char *name, char *buf, size_t len);

const char *ib_port_state_name(uint8_t state);
const char *ib_phys_state_name(uint8_t state);

/* The lowest RoCE v2 IPv4 GID on NETDEV of port P: what -g needs; -1 when none. */
int64_t port_ipv4_gid_index(const struct port *p, const char *netdev);

#endif
