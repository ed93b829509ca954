/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The RDMA model: devices, their ports, GID tables and counters, as sysfs and
 * the RDMA netlink have them, live or captured in a fixture.
 */
#ifndef RDMACTL_MODEL_H
#define RDMACTL_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <net/if.h>

#include "kernel/roce.h"

#define RDMA_NAME_MAX 64

/*
 * What a caller asks of the model: a list of the devices and ports from one
 * source, and the facts it will read of them, each independent of the others and read
 * by its own reader whichever list was made. Every fact of the model is
 * either valid or plainly unknown, whatever filled it or not: "" for a text,
 * 0 for a state, a table's length or a speed, -1 for an MTU, MTU_UNKNOWN,
 * MODEL_NO_INDEX, and the *_known fields false for the tables and the
 * netdev's facts.
 */
/* Which source lists the devices and ports. */
enum model_source {
	/* sysfs; the index unknown */
	MODEL_SYSFS,
	/* The RDMA netlink: the kernel's index, and each device's driver from sysfs */
	MODEL_NETLINK,
};

/* How much of each port the list reads. */
enum model_ports {
	/*
	 * States and netdev, and from sysfs the device's and port's attributes
	 * (GUIDs, firmware, link layer, rate, the tables' lengths).
	 */
	MODEL_PORTS_ATTRS,
	/* States and netdev alone: what a link line shows, in a few files. */
	MODEL_PORTS_STATES,
	/*
	 * The devices alone (name, driver, netdev), no port: for what needs a
	 * device by name and nothing of its ports (del NAME). Each port asked
	 * of the netlink is a round trip to the driver.
	 */
	MODEL_PORTS_NONE,
};

enum model_gids {
	MODEL_GIDS_NONE,
	MODEL_GIDS_USED,	/* occupied slots (sysfs, or libibverbs live) */
	MODEL_GIDS_ALL,		/* every slot, empty ones too */
};

enum model_mtu {
	MODEL_MTU_NONE,
	/*
	 * Each port's netdev's MTU and operstate and the RoCE MTUs: rxe's
	 * derived from its netdev's MTU, any other device's from libibverbs
	 * on the running system.
	 */
	MODEL_MTU_LINK,
	/*
	 * The same, with rxe's RoCE MTUs as the device itself reports them
	 * (libibverbs, live only): what check holds against the derivation.
	 */
	MODEL_MTU_DEVICE,
};

struct model_ask {
	enum model_source source;
	enum model_ports ports;
	enum model_gids gids;
	bool counters;		/* hw_counters */
	enum model_mtu mtu;
	/* Each port's netdev as check looks at it: whether it exists, its type, flags and carrier. */
	bool netdev;
};

#define MODEL_NO_INDEX UINT32_MAX	/* a device no netlink listed */

/* Where a port's RoCE MTUs came from. */
enum mtu_source {
	MTU_UNKNOWN,	/* -1 both */
	MTU_DERIVED,	/* model_rxe_port_mtu() of the netdev's MTU */
	MTU_DEVICE,	/* the device, through libibverbs */
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
	char netdev[IF_NAMESIZE];	/* its netdev, from every source; "" if none */
	uint32_t netdev_index;
	uint8_t state;		/* 4: ACTIVE */
	uint8_t phys_state;	/* 5: LinkUp */
	char link_layer[16];
	char rate[64];		/* "10 Gb/sec (1X FDR10)" */
	double speed_gbps;	/* from RATE; 0 when unknown */
	char width[8];		/* "1X" */
	uint32_t gid_tbl_len;
	uint32_t pkey_tbl_len;
	/* In bytes, -1 when unknown; the netdev's operstate, "" when unknown */
	int netdev_mtu;
	int active_mtu, max_mtu;
	enum mtu_source mtu_source;
	char operstate[16];
	/* Known when asked: the netdev exists (else the rest is 0), its ARPHRD_ type, IFF_ flags */
	bool netdev_known, netdev_exists;
	unsigned int netdev_type, netdev_flags;
	bool carrier;
	/* Each table known when it was read: none read is not an empty one. */
	bool gids_known, counters_known;
	struct gid_slot *gids;
	size_t ngids;
	struct counter *counters;
	size_t ncounters;
};

struct rdma_dev {
	uint32_t index;		/* the kernel's device index; MODEL_NO_INDEX when unknown */
	char name[RDMA_NAME_MAX];
	char node_type[16];	/* "ca", "rnic", ... */
	char node_guid[24];
	char sys_image_guid[24];
	char fw_ver[64];
	char driver[32];	/* "rxe", "siw", or the hardware's driver */
	char netdev[IF_NAMESIZE];	/* rxe's parent, else GID 0's netdev; "" if none */
	char uverbs[32];	/* "uverbs0", "" when ib_uverbs has made none */
	/*
	 * Whether the RDMA netlink of the namespace the list was read for lists
	 * the device with a netdev: what a process there can use. Known only in
	 * a sysfs list read through the handle with that asked (model_sys_load),
	 * the netlink's own list merged into it.
	 */
	bool here_known, here;
	struct port *ports;
	size_t nports;
};

struct model {
	struct rdma_dev *devs;
	size_t n;
};

struct nl;

/*
 * Where the model is read from. The running system: ROOT "" and NL a netlink
 * socket, VERBS true for libibverbs to give what it gives better (a GID table
 * in one call, a device's MTUs). A fixture: ROOT its directory and NL its
 * captured netlink answers (nl_open_replay of model_netlink_recording(ROOT)),
 * VERBS false. NL is asked only for a netlink list.
 */
struct model_src {
	const char *root;
	struct nl *nl;
	bool verbs;
};

/* Where a fixture ROOT keeps its captured netlink answers, in BUF. */
void model_netlink_recording(const char *root, char *buf, size_t len);

/*
 * Reads every device (or only ONLY when not NULL) from SRC: sysfs
 * (ROOT/sys/class/infiniband) or the netlink as ASK.source says, and then the
 * facts ASK names. No such directory is an empty model. -ENODEV when ONLY does not exist; a netlink
 * error as it came (-EINVAL without SRC->nl).
 */
int model_load(const struct model_src *src, const char *only, struct model_ask ask,
	       struct model *m);
/*
 * The rxe link NAME that the kernel has just made on NETDEV: its one port's
 * states and MODEL_MTU_LINK's facts read from ROOT's sysfs, the rest known from the
 * request (four files, where model_load lists the device's directory and
 * reads its parent).
 * -ENODEV when it is gone already.
 */
int model_load_new_rxe(const char *root, const char *name, const char *netdev,
		       struct model *m);
void model_free(struct model *m);

const struct rdma_dev *model_find(const struct model *m, const char *name);
/* The rxe device whose port has NETDEV, or NULL. */
const struct rdma_dev *model_rxe_on(const struct model *m, const char *netdev);

bool model_dev_is_rxe(const struct rdma_dev *d);

/*
 * Adds to TARGETS (room for every device in M) the rxe devices named NAME, or
 * on NETDEV, or all rxe devices when both are NULL, skipping ones already
 * there. -ENODEV when NAME or NETDEV matches nothing; -EPERM when NAME is a
 * device of another driver (*BAD says which): hardware is never a target.
 */
int model_select_rxe(const struct model *m, const char *name, const char *netdev,
		     const struct rdma_dev **targets, size_t *n, const struct rdma_dev **bad);

/* The driver behind RDMA device NAME, from sysfs: "rxe", "siw", a driver, or "unknown". */
void model_sysfs_driver(const char *root, const char *name, char *buf, size_t len);

const char *model_port_state_name(uint8_t state);
const char *model_phys_state_name(uint8_t state);

/*
 * What model_load makes of sysfs's texts, each on its own: the seam the fuzz
 * target feeds. A port state ("4: ACTIVE" is 4; 0 when not a number); the
 * rate P->rate holds into its speed and width; a node type ("1: CA" is "ca");
 * a counter NAME holding TEXT into C (false when either is not one).
 */
uint8_t model_parse_state(const char *text);
void model_parse_rate(struct port *p);
void model_parse_node_type(const char *text, struct rdma_dev *d);
bool model_parse_counter(const char *name, const char *text, struct counter *c);

/*
 * An rxe port's MTUs in bytes for its netdev's MTU, as the driver sets them
 * when the link is made and at each change of the netdev's MTU: ROCE_HEADERS
 * off, then the largest IB MTU (256 to 4096) that fits, 256 when none does;
 * the port's max_mtu is 4096. What libibverbs would report, without opening
 * the device.
 */
void model_rxe_port_mtu(unsigned int netdev_mtu, int *active, int *max);

/* model/port.c: the MTUs ASK names for every port of M, and its netdev's facts, from SRC. */
void model_load_links(const struct model_src *src, struct model *m, struct model_ask ask);
/*
 * P's GIDs in use from libibverbs in one call (SRC->verbs): 0, or a negative
 * errno for sysfs to be read instead.
 */
int model_load_verbs_gids(const char *dev, struct port *p);

/* The lowest RoCE v2 IPv4 GID on NETDEV of port P: what -g needs; -1 when none. */
int64_t model_port_ipv4_gid_index(const struct port *p, const char *netdev);
/*
 * That GID's slot, or with IPV6 the lowest RoCE v2 GID of a global IPv6
 * address, else the link-local (fe80::) one: it reaches that link's peers.
 */
const struct gid_slot *model_port_roce_gid(const struct port *p, const char *netdev, bool ipv6);

#endif
