// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for diag/failure.c: what pasted words name, in their order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "diag/failure.h"

/* The names TEXT gives, joined by commas, into a static buffer. */
static const char *names(const char *text)
{
	static char buf[256];
	const struct diag_failure *f[8];
	size_t n = diag_failure_match(text, NULL, f, 8);

	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", i ? "," : "", f[i]->name);
	return buf;
}

static void numbers_and_keywords(void **state)
{
	(void)state;
	assert_string_equal(names("12"), "IBV_WC_RETRY_EXC_ERR");
	assert_string_equal(names(" 5 "), "IBV_WC_WR_FLUSH_ERR");
	assert_string_equal(names("-110"), "ETIMEDOUT");
	assert_string_equal(names("status=13"), "IBV_WC_RNR_RETRY_EXC_ERR");
	/* perftest's line, then the status it carries; a status of a message's own is none. */
	assert_string_equal(names("Failed status 10: wr_id 0 syndrom 0x88"),
			    "Failed status %d: wr_id %d syndrom 0x%x,IBV_WC_REM_ACCESS_ERR");
	assert_string_equal(names("nvme nvme0: Connect rejected: status 8 (invalid service ID)."),
			    "Connect rejected: status %d (%s).");
	assert_string_equal(names("errno: 12"), "ENOMEM");
	assert_string_equal(names("ret -22"), "EINVAL");
	/* A driver's own code and a positive return are no status. */
	assert_string_equal(names("vendor err 129"), "");
	assert_string_equal(names("ret 12"), "");
	/* Numbers past every table, and inside words, are nothing. */
	assert_string_equal(names("status 99"), "");
	assert_string_equal(names("x12 a12b"), "");
	/* A ConnectX peer's syndrome is a status in its own numbers; its vendor's is none. */
	assert_string_equal(names("dump error cqe: syndrome 0x15, vendor syndrome 0x81"),
			    "IBV_WC_RETRY_EXC_ERR");
	assert_string_equal(names("synd 0x13"), "IBV_WC_REM_ACCESS_ERR");
	assert_string_equal(names("syndrome 21 synd 0x7f"), "");
	/* A keyword's number after up to three separators, no further. */
	assert_string_equal(names("status = 13"), "IBV_WC_RNR_RETRY_EXC_ERR");
	assert_string_equal(names("status :== 13"), "");
	/* A line's bytes, no NUL needed, and none read past a NUL. */
	{
		const struct diag_failure *f[2];

		assert_int_equal(diag_failure_match_n("ENOMEMxyz", 6, NULL, f, 2), 1);
		assert_int_equal(diag_failure_match_n("x\0ENOMEM", 8, NULL, f, 2), 0);
	}
}

static void names_whole_words_in_order(void **state)
{
	(void)state;
	assert_string_equal(names("got RDMA_CM_EVENT_REJECTED then enomem"),
			    "RDMA_CM_EVENT_REJECTED,ENOMEM");
	assert_string_equal(names("rnr_retry_exc_err"), "IBV_WC_RNR_RETRY_EXC_ERR");
	/* Part of a longer word is not the word. */
	assert_string_equal(names("xretry_exc_err ENOMEMS"), "");
	/* Each failure once, where it first stands. */
	assert_string_equal(names("ENOMEM errno 12 ENOMEM"), "ENOMEM");
	/* The C library's words for an errno. */
	assert_string_equal(names("ibv_reg_mr: Cannot allocate memory"), "ENOMEM");
}

static void formats(void **state)
{
	(void)state;
	/* A number conversion is a number, one space before it allowed. */
	assert_int_equal(diag_failure_format_at("failed to modify qp 322 to rtr",
						"Failed to modify QP %d to RTR"), 0);
	assert_int_equal(diag_failure_format_at("failed to modify qp state to rtr",
						"Failed to modify QP %d to RTR"), -1);
	assert_int_equal(diag_failure_format_at("failed to modify qp to rtr",
						"Failed to modify QP %d to RTR"), -1);
	assert_int_equal(diag_failure_format_at("x fi_getinfo: -61", "fi_getinfo: %d"), 2);
	assert_int_equal(diag_failure_format_at("fi_getinfo: foo", "fi_getinfo: %d"), -1);
	assert_int_equal(diag_failure_format_at("rkey 0x18d8 gone", "rkey %#x gone"), 0);
	/* Any other conversion prints something: a byte at least, where the line is. */
	assert_int_equal(diag_failure_format_at("rdma_rxe: unknown symbol x (err -2)",
						"%s: Unknown symbol %s (err %d)"), 8);
	assert_int_equal(diag_failure_format_at(": unknown symbol x (err -2)",
						"%s: Unknown symbol %s (err %d)"), -1);
	assert_int_equal(diag_failure_format_at("couldn't get context for",
						"Couldn't get context for %s"), -1);
	/* The kernel's %pISpcs is one conversion. */
	assert_int_equal(diag_failure_format_at("binding cm id to 10.0.0.1:4420 failed (-19)",
						"binding CM ID to %pISpcs failed (%d)"), 0);
}

static void kernel_log_lines(void **state)
{
	(void)state;
	/* As 7.3 logged them in the bed, with rdma_rxe's dynamic debug on. */
	assert_string_equal(names("[  41.2] rxe0: qp#20 rxe_receiver: moved to error state"),
			    "moved to error state");
	assert_string_equal(names("rxe0: qp#21 retransmit_timer: retransmit timer fired"),
			    "retransmit timer fired");
	assert_string_equal(names("rxe0: rxe_notify: ignoring netdev event = 9 for veth0"),
			    "ignoring netdev event");
	/* 6.1's words for the same, and a line that gives an errno too. */
	assert_string_equal(names("rdma_rxe: qp#17 moved to error state"), "moved to error state");
	assert_string_equal(names("rdma_rxe: retransmit_timer: fired for qp#17"),
			    "retransmit timer fired");
	assert_string_equal(names("rdma_rxe: rxe_mr_init_user: Unable to pin memory region err = -12"),
			    "unable to pin memory region,ENOMEM");
	assert_string_equal(names("rdma_rxe: already configured on eth0"), "already configured on");
	/* The port coming up is its own line, a notice, not the port going down. */
	assert_string_equal(names("infiniband rxe0: set active"), "set active");
	assert_string_equal(names("infiniband rxe0: set down"), "set down");
	assert_string_equal(names("rdma_rxe: Failed to create IPv6 UDP tunnel"),
			    "failed to create ipv4 udp tunnel");
}

static void room_is_kept(void **state)
{
	const struct diag_failure *f[1];

	(void)state;
	assert_int_equal(diag_failure_match("ENOMEM EINVAL", NULL, f, 1), 1);
	assert_string_equal(f[0]->name, "ENOMEM");
	assert_int_equal(diag_failure_match("", NULL, f, 1), 0);
}

/* A log's lines: a flush before the first error is passed over for the cause; bytes never raw. */
static void whole_log(void **state)
{
	static struct diag_failure_log l;
	static const char *const lines[] = {
		"completion IBV_WC_WR_FLUSH_ERR for wr_id 1",
		"noise",
		"Failed status 12 for wr_id 2 \x01\xff",
		"completion IBV_WC_WR_FLUSH_ERR for wr_id 3",
	};

	(void)state;
	diag_failure_log_init(&l);
	for (size_t i = 0; i < 4; i++)
		diag_failure_log_line(&l, lines[i], strlen(lines[i]), NULL);
	diag_failure_log_finish(&l);
	assert_int_equal(l.lines, 4);
	assert_int_equal(l.known, 3);
	assert_int_equal(l.n, 2);
	assert_int_equal(l.cause, 0);
	assert_string_equal(l.items[0].f->name, "IBV_WC_RETRY_EXC_ERR");
	assert_string_equal(l.items[0].quote, "Failed status 12 for wr_id 2 ??");
	assert_string_equal(l.items[1].f->name, "IBV_WC_WR_FLUSH_ERR");
	assert_int_equal(l.items[1].count, 2);
	assert_int_equal(l.items[1].lines[0], 1);
	assert_int_equal(l.items[1].lines[1], 4);
	/* Nothing known: no cause. */
	diag_failure_log_init(&l);
	diag_failure_log_line(&l, "all well", 8, NULL);
	diag_failure_log_finish(&l);
	assert_int_equal(l.cause, -1);
	assert_int_equal(l.n, 0);
}

/* A host whose gid-index check fails, memlock and firewall pass, the rest not run. */
static enum diag_failure_standing host_of(const char *id, void *arg)
{
	(void)arg;
	if (!strcmp(id, "gid-index"))
		return DIAG_FAILURE_SHOWN;
	if (!strcmp(id, "memlock") || !strcmp(id, "firewall") || !strcmp(id, "modules"))
		return DIAG_FAILURE_CLEARED;
	return DIAG_FAILURE_OPEN;
}

static const struct diag_failure *entry(enum diag_failure_kind kind, const char *name)
{
	const struct diag_failure *all[256];
	size_t n = diag_failure_all(all, 256);

	for (size_t i = 0; i < n; i++)
		if (all[i]->kind == kind && !strcmp(all[i]->name, name))
			return all[i];
	return NULL;
}

/* The causes' order, as "2s,0o,1c" (index, standing's first letter). */
static const char *ranked(enum diag_failure_kind kind, const char *name)
{
	static char buf[64];
	struct diag_failure_ranked r[DIAG_FAILURE_CAUSES];
	const struct diag_failure *f = entry(kind, name);
	size_t n;

	assert_non_null(f);
	n = diag_failure_rank(f, host_of, NULL, r);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%zu%c", i ? "," : "",
			 r[i].cause, diag_failure_standing_name(r[i].standing)[0]);
	return buf;
}

static void ranked_by_the_host(void **state)
{
	(void)state;
	/* The host shows -g 0's mismatch: first; the rest as the catalogue has them. */
	assert_string_equal(ranked(DIAG_FAILURE_WC_STATUS, "IBV_WC_RETRY_EXC_ERR"),
			    "2s,0o,1o,3o");
	assert_string_equal(ranked(DIAG_FAILURE_MESSAGE, "failed to modify QP state to RTR"),
			    "1s,0o,2o");
	/* This shell's memlock passing clears nothing of the program's own limit. */
	assert_string_equal(ranked(DIAG_FAILURE_MESSAGE, "unable to create QP"), "0o,1o");
	/* The modules as they are now: a pass clears what rests on them, last. */
	assert_string_equal(ranked(DIAG_FAILURE_ERRNO, "ENOENT"), "0o,1o,2c");
	{
		const char *why;
		const struct diag_failure *f = entry(DIAG_FAILURE_MESSAGE, "Couldn't register MR");

		assert_string_equal(diag_failure_rests(f, 0, &why), "memlock");
		assert_non_null(strstr(why, "this shell's limit"));
		f = entry(DIAG_FAILURE_ERRNO, "ENOEXEC");
		assert_string_equal(diag_failure_rests(f, 0, &why), "modules");
		assert_null(why);
	}
	/* No check tells any cause: the catalogue's order. */
	assert_string_equal(ranked(DIAG_FAILURE_WC_STATUS, "IBV_WC_RNR_RETRY_EXC_ERR"),
			    "0o,1o,2o");
	/* Nothing run: the catalogue's order. */
	{
		struct diag_failure_ranked r[DIAG_FAILURE_CAUSES];
		const struct diag_failure *f = entry(DIAG_FAILURE_ERRNO, "ENOENT");

		assert_int_equal(diag_failure_rank(f, NULL, NULL, r), 3);
		assert_int_equal(r[0].cause, 0);
		assert_int_equal(r[2].cause, 2);
	}
}

/*
 * Every row of the table names an entry of the catalogue, a check only
 * beside a cause, and each check one its "tells which" names, so explain
 * runs it.
 */
static void every_rest_is_told(void **state)
{
	enum diag_failure_kind kind;
	const char *name;

	(void)state;
	for (size_t i = 0; diag_failure_rests_row(i, &kind, &name); i++) {
		const struct diag_failure *f = entry(kind, name);
		size_t n = 0;

		if (!f)
			fail_msg("row %zu: no entry %s", i, name);
		while (n < DIAG_FAILURE_CAUSES && f->causes[n])
			n++;
		for (size_t k = 0; k < DIAG_FAILURE_CAUSES; k++) {
			const char *id = diag_failure_rests(f, k, NULL);
			char only[48];

			if (!id)
				continue;
			if (k >= n)
				fail_msg("%s: a check for cause %zu of %zu", name, k, n);
			snprintf(only, sizeof(only), "%s", id);
			if (!strcmp(id, "gid-index") ? !strstr(f->tell, "check --gid-index") :
			    !strstr(f->tell, "check --only ") || !strstr(f->tell, only))
				fail_msg("%s: its tell names no 'check --only %s'", name, id);
		}
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_and_keywords),
		cmocka_unit_test(names_whole_words_in_order),
		cmocka_unit_test(formats),
		cmocka_unit_test(kernel_log_lines),
		cmocka_unit_test(room_is_kept),
		cmocka_unit_test(whole_log),
		cmocka_unit_test(ranked_by_the_host),
		cmocka_unit_test(every_rest_is_told),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("failure", tests, NULL, NULL);
}
