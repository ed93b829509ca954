// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: sysfs values as the model makes them out. The input holds the
 * contents of the files of one device and its port that rdmactl parses (each
 * a length byte, then that many bytes); each goes through what a read does
 * with its bytes (sysfs_text) and the parser model_load gives it, in memory.
 * The seeds (src/fuzz/corpus/sysfs) are the values of the trees captured from
 * real guests (bats/fixtures, tools/capture-corpus).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz/fuzz.h"
#include "kernel/sysfs.h"
#include "model/gid.h"
#include "model/model.h"

/* The files, in input order (below /sys/class/infiniband/DEV). */
enum {
	GID0, GID1, GID2, TYPE1, NDEV1, TYPE2, NDEV2, STATE, PHYS_STATE, RATE, LINK_LAYER,
	COUNTER, NODE_TYPE, NODE_GUID, FW_VER, PARENT, NFIELDS
};

/* Field K as a read of LEN bytes would leave it in BUF: its length, or -EFBIG. */
static int field(const uint8_t *const *at, const size_t *n, int k, char *buf, size_t len)
{
	size_t c = n[k] < len ? n[k] : len;

	memcpy(buf, at[k], c);
	return sysfs_text(buf, c, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *at[NFIELDS];
	size_t n[NFIELDS];
	struct gid_slot gids[3];
	struct rdma_dev d;
	struct port p;
	struct counter c;
	char buf[64], addr[64];

	for (int k = 0; k < NFIELDS; k++) {
		n[k] = size ? (data[0] < size - 1 ? data[0] : size - 1) : 0;
		at[k] = size ? data + 1 : data;
		if (size) {
			data += 1 + n[k];
			size -= 1 + n[k];
		}
	}
	memset(&d, 0, sizeof(d));
	memset(&p, 0, sizeof(p));
	memset(gids, 0, sizeof(gids));
	/* The port, as load_port reads it. */
	if (field(at, n, STATE, buf, sizeof(buf)) > 0)
		p.state = model_parse_state(buf);
	if (field(at, n, PHYS_STATE, buf, sizeof(buf)) > 0)
		p.phys_state = model_parse_state(buf);
	if (field(at, n, LINK_LAYER, p.link_layer, sizeof(p.link_layer)) < 0)
		p.link_layer[0] = '\0';
	if (field(at, n, RATE, p.rate, sizeof(p.rate)) < 0)
		p.rate[0] = '\0';
	model_parse_rate(&p);
	CHECK(strnlen(p.width, sizeof(p.width)) < sizeof(p.width));
	CHECK(p.speed_gbps == p.speed_gbps || !*p.rate);	/* a number, never NaN from "" */
	(void)model_port_state_name(p.state);
	(void)model_phys_state_name(p.phys_state);
	/* The GIDs, as load_gids reads each slot and its attributes. */
	p.gids = gids;
	for (int g = 0; g < 3; g++) {
		struct gid_slot *s = &gids[p.ngids];

		s->index = (uint32_t)g;
		if (field(at, n, GID0 + g, buf, sizeof(buf)) < 0 || model_gid_parse(buf, s->raw) < 0)
			continue;
		s->empty = model_gid_is_zero(s->raw);
		if (s->empty)
			continue;
		if (g == 0 || field(at, n, g == 1 ? TYPE1 : TYPE2, s->type, sizeof(s->type)) < 0)
			s->type[0] = '\0';
		if (g == 0 || field(at, n, g == 1 ? NDEV1 : NDEV2, s->netdev, sizeof(s->netdev)) < 0)
			s->netdev[0] = '\0';
		model_gid_addr(s->raw, addr, sizeof(addr));
		CHECK(strnlen(addr, sizeof(addr)) < sizeof(addr));
		p.ngids++;
	}
	/* A counter, as load_counters reads one. */
	if (field(at, n, COUNTER, buf, sizeof(buf)) > 0 && model_parse_counter("rcvd_pkts", buf, &c))
		CHECK(!strcmp(c.name, "rcvd_pkts"));
	/* The device, as load_dev reads it. */
	if (field(at, n, NODE_TYPE, buf, sizeof(buf)) > 0)
		model_parse_node_type(buf, &d);
	CHECK(strnlen(d.node_type, sizeof(d.node_type)) < sizeof(d.node_type));
	/* load_dev keeps whatever these reads leave: a string, whatever the value. */
	(void)field(at, n, NODE_GUID, d.node_guid, sizeof(d.node_guid));
	(void)field(at, n, FW_VER, d.fw_ver, sizeof(d.fw_ver));
	CHECK(strnlen(d.node_guid, sizeof(d.node_guid)) < sizeof(d.node_guid));
	CHECK(strnlen(d.fw_ver, sizeof(d.fw_ver)) < sizeof(d.fw_ver));
	if (field(at, n, PARENT, d.netdev, sizeof(d.netdev)) <= 0)
		d.netdev[0] = '\0';
	{
		int64_t i = model_port_ipv4_gid_index(&p, d.netdev);

		CHECK(i == -1 || (i >= 0 && i < 3));
	}
	return 0;
}
