// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for klog.c: the module loader's failure lines, parsed and grouped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "kernel/klog.h"

/* The loader's lines as klogctl(SYSLOG_ACTION_READ_ALL) gives them, among others. */
static const char log_text[] =
	"<6>[    0.000000] Linux version 6.1.0-56-cloud-amd64 (debian-kernel@lists.debian.org)\n"
	"<4>[   52.101234] rdma_rxe: Unknown symbol udp_sock_create4 (err -2)\n"
	"<4>[   52.101301] rdma_rxe: Unknown symbol ib_register_device (err -2)\n"
	"<4>[   53.000001] e1000: Unknown symbol foo_bar (err -2)\n"
	"<3>[   60.200000] rdma_rxe: version magic '6.1.0-56-amd64 SMP preempt mod_unload "
	"modversions ' should be '6.1.0-56-cloud-amd64 SMP mod_unload modversions '\n"
	"<4>[   61.000000] rdma_rxe: disagrees about version of symbol ib_device_get_by_netdev\n"
	"<4>[   61.000100] rdma_rxe: Unknown symbol ib_device_get_by_netdev (err -22)\n"
	"<5>[   70.000000] Loading of unsigned module is rejected\n"
	"ib_uverbs: Unknown symbol ib_dealloc_xrcd_user (err -2)";

static int rdma_only(const char *m)
{
	return strncmp(m, "rdma_", 5) == 0 || strncmp(m, "ib_", 3) == 0;
}

static void grouped_in_first_seen_order(void **state)
{
	struct klog_event ev[8];
	size_t n = klog_module_failures(log_text, rdma_only, ev, 8);

	(void)state;
	assert_int_equal(n, 5);
	assert_int_equal(ev[0].kind, KLOG_UNKNOWN_SYMBOL);
	assert_string_equal(ev[0].module, "rdma_rxe");
	assert_string_equal(ev[0].symbol, "udp_sock_create4");
	assert_string_equal(ev[0].symbols, "udp_sock_create4 ib_register_device");
	assert_int_equal(ev[0].count, 2);
	assert_string_equal(ev[0].text, "rdma_rxe: Unknown symbol udp_sock_create4 (err -2)");

	assert_int_equal(ev[1].kind, KLOG_VERMAGIC);
	assert_string_equal(ev[1].got, "6.1.0-56-amd64 SMP preempt mod_unload modversions ");
	assert_string_equal(ev[1].want, "6.1.0-56-cloud-amd64 SMP mod_unload modversions ");

	/* "disagrees" and (err -22) are one failure: the symbol's version. */
	assert_int_equal(ev[2].kind, KLOG_SYMBOL_VERSION);
	assert_string_equal(ev[2].symbol, "ib_device_get_by_netdev");
	assert_int_equal(ev[2].count, 2);

	assert_int_equal(ev[3].kind, KLOG_SIG_REJECTED);
	assert_string_equal(ev[3].module, "");
	assert_string_equal(ev[3].text, "Loading of unsigned module is rejected");

	/* No prefix and no final newline. */
	assert_int_equal(ev[4].kind, KLOG_UNKNOWN_SYMBOL);
	assert_string_equal(ev[4].module, "ib_uverbs");
	assert_string_equal(ev[4].symbol, "ib_dealloc_xrcd_user");
}

static void all_modules_and_max(void **state)
{
	struct klog_event ev[2];

	(void)state;
	assert_int_equal(klog_module_failures(log_text, NULL, ev, 2), 2);
	assert_string_equal(ev[0].module, "rdma_rxe");
	assert_string_equal(ev[1].module, "e1000");
	assert_int_equal(klog_module_failures("", NULL, ev, 2), 0);
	assert_int_equal(klog_module_failures("<4>[ 1.0] rdma_rxe: loading out-of-tree module "
					      "taints kernel.\nrdma_rxe: version magic 'x", NULL,
					      ev, 2), 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grouped_in_first_seen_order),
		cmocka_unit_test(all_modules_and_max),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
