// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for the model on the fixtures captured in the test bed: sysfs and netlink. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "kernel/nl.h"
#include "model/gid.h"
#include "model/model.h"

/* What the netlink lists, and the most sysfs's list reads with nothing else asked. */
#define NL_ASK ((struct model_ask){ .source = MODEL_NETLINK })
#define ALL ((struct model_ask){ .source = MODEL_SYSFS })

/* tools/run-tests runs from the top of the tree; FIXTURES may say otherwise. */
static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "bats/fixtures", name);
	return path;
}

/* The fixture NAME's sysfs and proc. */
static const struct model_src *sysfs(const char *name)
{
	static struct model_src src;

	src.root = fixture(name);
	src.nl = NULL;
	return &src;
}

static void two_netdevs(void **state)
{
	struct model m;
	const struct port *p;

	(void)state;
	assert_int_equal(model_load(sysfs("two-netdevs"), NULL, (struct model_ask){ .gids = MODEL_GIDS_USED, .counters = true }, &m), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(m.devs[0].name, "rxe0");
	assert_string_equal(m.devs[1].name, "rxe1");
	assert_string_equal(m.devs[0].driver, "rxe");
	assert_string_equal(m.devs[0].node_type, "ca");
	assert_string_equal(m.devs[0].netdev, "veth0");
	assert_string_equal(m.devs[0].uverbs, "uverbs0");
	assert_string_equal(m.devs[0].fw_ver, "");
	assert_int_equal(m.devs[0].nports, 1);
	p = &m.devs[0].ports[0];
	assert_int_equal(p->num, 1);
	assert_string_equal(model_port_state_name(p->state), "ACTIVE");
	assert_string_equal(model_phys_state_name(p->phys_state), "LINK_UP");
	assert_string_equal(p->link_layer, "Ethernet");
	assert_string_equal(p->width, "1X");
	assert_true(p->speed_gbps == 10.0);
	assert_int_equal(p->gid_tbl_len, 1024);
	assert_int_equal(p->pkey_tbl_len, 1);
	/* Occupied slots only: fe80::, two IPv4 and one IPv6 on veth0. */
	assert_int_equal(p->ngids, 4);
	for (size_t i = 0; i < p->ngids; i++) {
		assert_int_equal(p->gids[i].index, i);
		assert_string_equal(p->gids[i].type, "RoCE v2");
		assert_string_equal(p->gids[i].netdev, "veth0");
	}
	assert_true(model_gid_is_link_local(p->gids[0].raw));
	assert_int_equal(model_port_ipv4_gid_index(p, "veth0"), 1);
	assert_int_equal(model_port_ipv4_gid_index(p, NULL), 1);
	assert_int_equal(model_port_ipv4_gid_index(p, "veth1"), -1);
	assert_true(p->ncounters >= 10);
	model_free(&m);
}

static void all_slots(void **state)
{
	struct model m;
	const struct port *p;

	(void)state;
	assert_int_equal(model_load(sysfs("two-netdevs"), "rxe1", (struct model_ask){ .gids = MODEL_GIDS_ALL }, &m), 0);
	assert_int_equal(m.n, 1);
	p = &m.devs[0].ports[0];
	assert_int_equal(p->ngids, 1024);
	/* Empty slots have no attributes: the kernel refuses them (EINVAL). */
	assert_true(p->gids[1023].empty);
	assert_string_equal(p->gids[1023].type, "");
	assert_int_equal(p->gids[1023].index, 1023);
	assert_false(p->gids[2].empty);
	assert_null(p->counters);
	model_free(&m);
}

static void no_rdma_and_unknown(void **state)
{
	struct model m;

	(void)state;
	assert_int_equal(model_load(sysfs("no-rdma"), NULL, (struct model_ask){ .gids = MODEL_GIDS_USED }, &m), 0);
	assert_int_equal(m.n, 0);
	model_free(&m);
	assert_int_equal(model_load(sysfs("no-rdma"), "rxe0", ALL, &m), -ENODEV);
	assert_int_equal(model_load(sysfs("two-netdevs"), "rxe9", ALL, &m), -ENODEV);
	assert_int_equal(model_load(&(struct model_src){ .root = "/nonexistent" }, NULL, ALL, &m), 0);
	assert_int_equal(m.n, 0);
}

/* What add prints from: a link line's fields and nothing else, the same as the full load's. */
static void states_alone(void **state)
{
	struct model m, full;
	const struct port *p;

	(void)state;
	assert_int_equal(model_load(sysfs("two-netdevs"), "rxe1", (struct model_ask){ .ports = MODEL_PORTS_STATES }, &m), 0);
	assert_int_equal(model_load(sysfs("two-netdevs"), "rxe1", ALL, &full), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.devs[0].name, "rxe1");
	assert_string_equal(m.devs[0].driver, "rxe");
	assert_string_equal(m.devs[0].netdev, full.devs[0].netdev);
	assert_int_equal(m.devs[0].nports, 1);
	p = &m.devs[0].ports[0];
	assert_int_equal(p->num, 1);
	assert_int_equal(p->state, full.devs[0].ports[0].state);
	assert_int_equal(p->phys_state, full.devs[0].ports[0].phys_state);
	assert_string_equal(p->netdev, m.devs[0].netdev);
	/* Not read: the rest of the device and port. */
	assert_string_equal(m.devs[0].node_type, "");
	assert_string_equal(m.devs[0].uverbs, "");
	assert_string_equal(p->link_layer, "");
	assert_int_equal(p->ngids, 0);
	model_free(&m);
	model_free(&full);
	/* A name is a device's own directory, never a path out of it. */
	assert_int_equal(model_load(sysfs("two-netdevs"), "..", (struct model_ask){ .ports = MODEL_PORTS_STATES }, &m), -ENODEV);
	assert_int_equal(model_load(sysfs("two-netdevs"), ".", ALL, &m), -ENODEV);
	assert_int_equal(model_load(sysfs("two-netdevs"), "rxe0/ports", ALL, &m), -ENODEV);
	assert_int_equal(model_load(sysfs("two-netdevs"), "", ALL, &m), -ENODEV);
}

/* Both sources of one capture tell the same devices, ports and netdevs. */
static void netlink_agrees_with_sysfs(void **state)
{
	struct model_src src = { .root = fixture("two-netdevs") };
	char path[600];
	struct model nm, sm;

	(void)state;
	model_netlink_recording(src.root, path, sizeof(path));
	assert_int_equal(nl_open_replay(path, &src.nl), 0);
	assert_int_equal(model_load(&src, NULL, NL_ASK, &nm), 0);
	assert_int_equal(model_load(sysfs("two-netdevs"), NULL, ALL, &sm), 0);
	assert_int_equal(nm.n, 2);
	assert_int_equal(sm.n, nm.n);
	for (size_t i = 0; i < nm.n; i++) {
		const struct rdma_dev *d = model_find(&sm, nm.devs[i].name);

		assert_non_null(d);
		assert_string_equal(nm.devs[i].driver, "rxe");
		assert_string_equal(nm.devs[i].netdev, d->netdev);
		assert_int_equal(nm.devs[i].nports, 1);
		assert_int_equal(nm.devs[i].ports[0].num, d->ports[0].num);
		assert_int_equal(nm.devs[i].ports[0].state, d->ports[0].state);
		assert_int_equal(nm.devs[i].ports[0].phys_state, d->ports[0].phys_state);
		assert_ptr_equal(model_rxe_on(&nm, d->netdev), &nm.devs[i]);
	}
	model_free(&nm);
	/* ONLY asks the same questions, so the capture answers it too. */
	assert_int_equal(model_load(&src, "rxe1", NL_ASK, &nm), 0);
	assert_int_equal(nm.n, 1);
	assert_string_equal(nm.devs[0].name, "rxe1");
	model_free(&nm);
	assert_int_equal(model_load(&src, "rxe9", NL_ASK, &nm), -ENODEV);
	model_free(&sm);
	nl_close(src.nl);
	/* Netlink asked without a netlink source is refused, not read live. */
	assert_int_equal(model_load(sysfs("two-netdevs"), NULL, NL_ASK, &nm), -EINVAL);
}

/* Each fact is read by its own reader, whichever source listed the devices. */
static void facts_whatever_the_source(void **state)
{
	struct model_src src = { .root = fixture("two-netdevs") };
	struct model nm, sm, m;
	char path[600];

	(void)state;
	model_netlink_recording(src.root, path, sizeof(path));
	assert_int_equal(nl_open_replay(path, &src.nl), 0);
	/* The netlink's list, with the GIDs and counters only sysfs has. */
	assert_int_equal(model_load(&src, NULL,
				    (struct model_ask){ .source = MODEL_NETLINK, .gids = MODEL_GIDS_USED,
							.counters = true }, &nm), 0);
	assert_int_equal(model_load(sysfs("two-netdevs"), NULL,
				    (struct model_ask){ .gids = MODEL_GIDS_USED, .counters = true }, &sm), 0);
	assert_int_equal(nm.n, sm.n);
	for (size_t i = 0; i < nm.n; i++) {
		const struct port *np = &nm.devs[i].ports[0];
		const struct port *sp = &model_find(&sm, nm.devs[i].name)->ports[0];

		assert_true(sp->ngids > 0);
		assert_int_equal(np->ngids, sp->ngids);
		assert_memory_equal(np->gids[0].raw, sp->gids[0].raw, 16);
		assert_int_equal(np->ncounters, sp->ncounters);
		/* The port's netdev from either source alike. */
		assert_string_equal(np->netdev, sp->netdev);
		assert_string_equal(sp->netdev, nm.devs[i].netdev);
	}
	model_free(&nm);
	model_free(&sm);
	nl_close(src.nl);
	/* From sysfs: the devices alone, with no port. */
	assert_int_equal(model_load(sysfs("two-netdevs"), NULL, (struct model_ask){ .ports = MODEL_PORTS_NONE }, &m), 0);
	assert_int_equal(m.n, 2);
	assert_int_equal(m.devs[0].nports, 0);
	assert_string_equal(m.devs[0].driver, "rxe");
	model_free(&m);
	/* A link line's states, and the GIDs asked with them. */
	assert_int_equal(model_load(sysfs("two-netdevs"), "rxe1",
				    (struct model_ask){ .ports = MODEL_PORTS_STATES, .gids = MODEL_GIDS_USED },
				    &m), 0);
	assert_true(m.devs[0].ports[0].ngids > 0);
	assert_string_equal(m.devs[0].ports[0].link_layer, "");
	model_free(&m);
	/* The netdev's facts asked alone: each known on its own, the MTUs not. */
	assert_int_equal(model_load(sysfs("two-netdevs"), "rxe0", (struct model_ask){ .netdev = true },
				    &m), 0);
	assert_true(m.devs[0].ports[0].netdev_known);
	assert_true(m.devs[0].ports[0].netdev_exists);
	assert_string_equal(m.devs[0].ports[0].operstate, "up");
	assert_int_equal(m.devs[0].ports[0].netdev_mtu, 0);
	assert_int_equal(m.devs[0].ports[0].mtu_source, MTU_UNKNOWN);
	model_free(&m);
	/* Not asked: plainly unknown, not empty. */
	assert_int_equal(model_load(sysfs("two-netdevs"), "rxe0", ALL, &m), 0);
	assert_false(m.devs[0].ports[0].gids_known);
	assert_false(m.devs[0].ports[0].counters_known);
	assert_false(m.devs[0].ports[0].netdev_known);
	assert_int_equal(m.devs[0].ports[0].ngids, 0);
	assert_int_equal(m.devs[0].ports[0].ncounters, 0);
	assert_int_equal(m.devs[0].index, MODEL_NO_INDEX);
	model_free(&m);
}

static void state_names(void **state)
{
	(void)state;
	assert_string_equal(model_port_state_name(1), "DOWN");
	assert_string_equal(model_port_state_name(255), "UNKNOWN");
	assert_string_equal(model_phys_state_name(3), "DISABLED");
	assert_string_equal(model_phys_state_name(8), "UNKNOWN");
}

/* rxe's MTU rule: the netdev's less 80 bytes, down to an IB MTU, 256 at least. */
static void rxe_mtus(void **state)
{
	static const unsigned int netdev[] = { 68, 335, 336, 1500, 1280, 2127, 2128, 4175, 4176, 9000 };
	static const int want[] = { 256, 256, 256, 1024, 1024, 1024, 2048, 2048, 4096, 4096 };
	int active, max;

	(void)state;
	for (size_t i = 0; i < sizeof(netdev) / sizeof(netdev[0]); i++) {
		model_rxe_port_mtu(netdev[i], &active, &max);
		assert_int_equal(active, want[i]);
		assert_int_equal(max, 4096);
	}
}

/* A rate's speed: the kernel's text, or 0 for what is no finite speed (found by fuzz_sysfs). */
/* A counter's reading: decimal digits, at most 64 bits; lifespan is a setting, none. */
static void counter_readings(void **state)
{
	static const struct {
		const char *name, *text;
		bool ok;
		uint64_t value;
	} cases[] = {
		{ "sent_pkts", "0", true, 0 },
		{ "sent_pkts", "18446744073709551615", true, UINT64_MAX },	/* the most */
		{ "sent_pkts", "18446744073709551616", false, 0 },	/* one past it */
		{ "sent_pkts", "99999999999999999999", false, 0 },	/* 20 digits */
		{ "sent_pkts", "", false, 0 },				/* empty */
		{ "sent_pkts", "-1", false, 0 },
		{ "sent_pkts", "12x", false, 0 },			/* malformed */
		{ "lifespan", "12", false, 0 },
		{ "a_name_longer_than_forty_seven_bytes_is_refused_", "1", false, 0 },
	};
	struct counter c;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&c, 0, sizeof(c));
		assert_int_equal(model_parse_counter(cases[i].name, cases[i].text, &c), cases[i].ok);
		if (cases[i].ok) {
			assert_true(c.value == cases[i].value);
			assert_string_equal(c.name, cases[i].name);
		}
	}
}

static void rate_speeds(void **state)
{
	static const struct { const char *rate, *width; double gbps; } cases[] = {
		{ "10 Gb/sec (1X FDR10)", "1X", 10 },
		{ "2.5 Gb/sec (1X SDR)", "1X", 2.5 },
		{ "NAN Gb/sec (4X)", "4X", 0 },
		{ "nan(1)", "1", 0 },
		{ "inf Gb/sec", "", 0 },
		{ "-5 Gb/sec", "", 0 },
		{ "", "", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct port p = { 0 };

		snprintf(p.rate, sizeof(p.rate), "%s", cases[i].rate);
		model_parse_rate(&p);
		assert_true(p.speed_gbps == cases[i].gbps);
		assert_string_equal(p.width, cases[i].width);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rxe_mtus),
		cmocka_unit_test(rate_speeds),
		cmocka_unit_test(counter_readings),
		cmocka_unit_test(two_netdevs),
		cmocka_unit_test(all_slots),
		cmocka_unit_test(states_alone),
		cmocka_unit_test(no_rdma_and_unknown),
		cmocka_unit_test(netlink_agrees_with_sysfs),
		cmocka_unit_test(facts_whatever_the_source),
		cmocka_unit_test(state_names),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
