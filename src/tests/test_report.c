// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for model/record.c and model/record_peer.c: lines with the
 * members record writes, read back as report reads them. One pid given
 * to two programs over the journal's hour is two processes; a failed QP's
 * peer is the QP its connect named, at a GID its host had, in the same
 * record or another; the end that went first, a flush of the peer's not
 * counted before its process's end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "model/record.h"

#define GID_A "0000:0000:0000:0000:0000:ffff:0a0b:0c01"
#define GID_B "0000:0000:0000:0000:0000:ffff:0a0b:0c02"

/* The lines LINES (NULL-ended) read into R as one record. */
static void read_lines(struct model_record *r, const char *path, const char *const *lines)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	for (size_t i = 0; lines[i]; i++)
		assert_true(model_record_line(r, lines[i]));
	model_record_done(r);
}

static void one_pid_two_programs(void **state)
{
	static const char *const lines[] = {
		"{\"time\":\"2026-12-03T07:00:00.000Z\",\"event\":\"verb-refused\",\"pid\":100,"
		"\"comm\":\"ib_write_bw\",\"verb\":\"ibv_reg_mr\",\"call\":\"REG_MR\","
		"\"errno\":\"ENOMEM\",\"cause\":\"memlock\"}",
		"{\"time\":\"2026-12-03T07:30:00.000Z\",\"event\":\"verb-refused\",\"pid\":100,"
		"\"comm\":\"rping\",\"verb\":\"ibv_reg_mr\",\"call\":\"REG_MR\","
		"\"errno\":\"ENOMEM\",\"cause\":\"memlock\"}",
		"{\"time\":\"2026-12-03T07:30:01.000Z\",\"event\":\"verb-refused\",\"pid\":100,"
		"\"comm\":\"rping\",\"verb\":\"ibv_reg_mr\",\"call\":\"REG_MR\","
		"\"errno\":\"ENOMEM\",\"cause\":\"memlock\"}",
		NULL
	};
	struct model_record r;

	(void)state;
	read_lines(&r, "journal", lines);
	assert_int_equal(r.n, 3);
	/* ib_write_bw's failure is its own cause, not a failure rping's follows. */
	assert_false(r.f[0].follows);
	assert_false(r.f[1].follows);
	assert_true(r.f[2].follows);
	assert_true(model_record_same_process(&r.f[1], &r.f[2]));
	assert_false(model_record_same_process(&r.f[0], &r.f[1]));
	model_record_free(&r);
}

/* The client's host: its QP 17 connected to QP 92 at GID_B, resending with no answer. */
static const char *const client[] = {
	"{\"time\":\"2026-12-03T07:00:00.000Z\",\"event\":\"record-started\",\"command\":[\"c\"],"
	"\"pid\":10,\"host\":\"a\",\"gids\":[\"" GID_A "\"]}",
	"{\"time\":\"2026-12-03T07:00:01.000Z\",\"event\":\"qp-made\",\"qpn\":17,"
	"\"owner\":{\"pid\":10,\"comm\":\"c\"}}",
	"{\"time\":\"2026-12-03T07:00:01.100Z\",\"event\":\"qp-modified\",\"qpn\":17,"
	"\"owner\":{\"pid\":10,\"comm\":\"c\"},\"state\":\"RTR\",\"dest_qpn\":92,"
	"\"dgid\":\"" GID_B "\"}",
	"{\"time\":\"2026-12-03T07:00:05.000Z\",\"event\":\"qp-resending\",\"qpn\":17,"
	"\"owner\":{\"pid\":10,\"comm\":\"c\"},\"cause\":\"its peer is gone\"}",
	NULL
};

/* The server's host: QP 92 connected to 17 at GID_A, flushed as its process was killed. */
static const char *const server[] = {
	"{\"time\":\"2026-12-03T07:00:00.000Z\",\"event\":\"record-started\",\"command\":[\"s\"],"
	"\"pid\":20,\"host\":\"b\",\"gids\":[\"" GID_B "\"]}",
	"{\"time\":\"2026-12-03T07:00:01.000Z\",\"event\":\"qp-made\",\"qpn\":92,"
	"\"owner\":{\"pid\":20,\"comm\":\"s\"}}",
	"{\"time\":\"2026-12-03T07:00:01.050Z\",\"event\":\"qp-modified\",\"qpn\":92,"
	"\"owner\":{\"pid\":20,\"comm\":\"s\"},\"state\":\"RTR\",\"dest_qpn\":17,"
	"\"dgid\":\"" GID_A "\"}",
	"{\"time\":\"2026-12-03T07:00:02.000Z\",\"event\":\"qp-error\",\"qpn\":92,"
	"\"owner\":{\"pid\":20,\"comm\":\"s\"},\"wc_status\":5,\"cause\":\"a flush\"}",
	"{\"time\":\"2026-12-03T07:00:02.001Z\",\"event\":\"process-exited\",\"pid\":20,"
	"\"comm\":\"s\",\"signal\":9}",
	NULL
};

static void peers_across_records(void **state)
{
	struct model_record r[2];
	const struct model_record_peer *p;

	(void)state;
	read_lines(&r[0], "client.jsonl", client);
	read_lines(&r[1], "server.jsonl", server);
	/* Alone, the client's QP has no peer to name. */
	model_record_pair(r, 1);
	assert_false(r[0].f[0].paired);
	model_record_pair(r, 2);
	assert_true(r[0].f[0].paired);
	p = &r[0].f[0].peer;
	assert_ptr_equal(p->rec, &r[1]);
	assert_int_equal(p->qpn, 92);
	assert_int_equal(p->pid, 20);
	/* Its flush came before the client's failure, but the kill is what went first. */
	assert_non_null(p->failed);
	assert_true(p->first);
	assert_true(p->by_end);
	assert_string_equal(p->ended, "2026-12-03T07:00:02.001Z");
	/* The server's flush: its peer, the client's QP, failed after it. */
	assert_true(r[1].f[0].paired);
	assert_false(r[1].f[0].peer.first);
	model_record_free(&r[0]);
	model_record_free(&r[1]);
}

static void no_peer_elsewhere(void **state)
{
	struct model_record r[2];

	(void)state;
	read_lines(&r[0], "client.jsonl", client);
	read_lines(&r[1], "server.jsonl", server);
	/* The server's host had no GID the client connected to: another host's QP 92. */
	snprintf(r[1].gids[0], sizeof(r[1].gids[0]), "%s", GID_A);
	model_record_pair(r, 2);
	assert_false(r[0].f[0].paired);
	model_record_free(&r[0]);
	model_record_free(&r[1]);
}

/*
 * Two ends could be the client's peer (two records of hosts with GID_B, or
 * one host's two devices): none is named rather than the wrong one. And a
 * process with a QP 17 on each of two devices: which one failed the
 * record does not say, so neither is paired.
 */
static void two_could_be(void **state)
{
	static const char *const twin[] = {
		"{\"time\":\"2026-12-03T07:00:01.200Z\",\"event\":\"qp-made\",\"qpn\":17,"
		"\"owner\":{\"pid\":10,\"comm\":\"c\"}}",
		"{\"time\":\"2026-12-03T07:00:01.300Z\",\"event\":\"qp-modified\",\"qpn\":17,"
		"\"owner\":{\"pid\":10,\"comm\":\"c\"},\"state\":\"RTR\",\"dest_qpn\":93,"
		"\"dgid\":\"" GID_B "\"}",
		NULL
	};
	const char *lines[16];
	struct model_record r[3];
	size_t n = 0;

	(void)state;
	read_lines(&r[0], "client.jsonl", client);
	read_lines(&r[1], "server.jsonl", server);
	read_lines(&r[2], "server2.jsonl", server);
	model_record_pair(r, 3);
	assert_false(r[0].f[0].paired);
	model_record_pair(r, 2);
	assert_true(r[0].f[0].paired);
	model_record_free(&r[0]);
	for (size_t i = 0; client[i]; i++)
		if (i != 3)	/* its failure after the second QP 17 */
			lines[n++] = client[i];
	for (size_t i = 0; twin[i]; i++)
		lines[n++] = twin[i];
	lines[n++] = client[3];
	lines[n] = NULL;
	read_lines(&r[0], "client.jsonl", lines);
	model_record_pair(r, 2);
	assert_int_equal(r[0].n, 1);
	assert_false(r[0].f[0].paired);
	model_record_free(&r[0]);
	model_record_free(&r[1]);
	model_record_free(&r[2]);
}

/* A process's QP 17 on each of two devices, each line naming its device. */
static const char *const named[] = {
	"{\"time\":\"2026-12-03T07:00:00.000Z\",\"event\":\"record-started\","
	"\"command\":[\"c\"],\"pid\":10,\"host\":\"a\",\"gids\":[\"" GID_A "\"]}",
	"{\"time\":\"2026-12-03T07:00:01.000Z\",\"event\":\"qp-made\",\"ifname\":\"rxe0\","
	"\"qpn\":17,\"owner\":{\"pid\":10,\"comm\":\"c\"}}",
	"{\"time\":\"2026-12-03T07:00:01.100Z\",\"event\":\"qp-modified\",\"ifname\":\"rxe0\","
	"\"qpn\":17,\"owner\":{\"pid\":10,\"comm\":\"c\"},\"state\":\"RTR\","
	"\"dest_qpn\":92,\"dgid\":\"" GID_B "\"}",
	"{\"time\":\"2026-12-03T07:00:01.200Z\",\"event\":\"qp-made\",\"ifname\":\"rxe1\","
	"\"qpn\":17,\"owner\":{\"pid\":10,\"comm\":\"c\"}}",
	"{\"time\":\"2026-12-03T07:00:01.300Z\",\"event\":\"qp-modified\",\"ifname\":\"rxe1\","
	"\"qpn\":17,\"owner\":{\"pid\":10,\"comm\":\"c\"},\"state\":\"RTR\","
	"\"dest_qpn\":93,\"dgid\":\"" GID_B "\"}",
	NULL
};

/* Whether, after NAMED, DEV's QP 17 resending is paired with the server's QP (in R[1]): its number, or -1. */
static long peer_of_failure_on(struct model_record *r, const char *dev)
{
	char failure[256];
	const char *lines[8];
	size_t n = 0;
	long qpn;

	for (; named[n]; n++)
		lines[n] = named[n];
	snprintf(failure, sizeof(failure), "{\"time\":\"2026-12-03T07:00:05.000Z\","
		 "\"event\":\"qp-resending\",\"ifname\":\"%s\",\"qpn\":17,"
		 "\"owner\":{\"pid\":10,\"comm\":\"c\"},\"cause\":\"its peer is gone\"}", dev);
	lines[n++] = failure;
	lines[n] = NULL;
	read_lines(&r[0], "client.jsonl", lines);
	model_record_pair(r, 2);
	assert_int_equal(r[0].n, 1);
	qpn = r[0].f[0].paired ? r[0].f[0].peer.qpn : -1;
	model_record_free(&r[0]);
	return qpn;
}

/*
 * Where qp-made, qp-modified and the failure name their device, the failed
 * one of the two is known: rxe0's, connected to the server's QP 92, is
 * paired; rxe1's, connected to a QP 93 no record has, is not.
 */
static void twins_by_device(void **state)
{
	struct model_record r[2];

	(void)state;
	read_lines(&r[1], "server.jsonl", server);
	assert_int_equal(peer_of_failure_on(r, "rxe0"), 92);
	assert_int_equal(peer_of_failure_on(r, "rxe1"), -1);
	model_record_free(&r[1]);
}

/* --capture's pcap file is found beside the record read; a name that is a path is not followed. */
static void packets_beside(void **state)
{
	static const char *const lines[] = {
		"{\"time\":\"2026-12-03T07:00:00.000Z\",\"event\":\"packets\",\"packets\":42,"
		"\"file\":\"rec.pcap\",\"errors\":1,\"devices\":1,\"dropped\":0,\"overwritten\":0}",
		NULL,
	};
	static const char *const hostile[] = {
		"{\"time\":\"2026-12-03T07:00:00.000Z\",\"event\":\"packets\",\"packets\":1,"
		"\"file\":\"../../etc/passwd\"}",
		NULL,
	};
	static const char *const none[] = {
		"{\"time\":\"2026-12-03T07:00:00.000Z\",\"event\":\"packets\",\"packets\":0,"
		"\"file\":null}",
		NULL,
	};
	struct model_record r;

	(void)state;
	read_lines(&r, "/var/tmp/ci/rec.jsonl", lines);
	assert_int_equal(r.packets, 42);
	assert_string_equal(r.pcap, "/var/tmp/ci/rec.pcap");
	model_record_free(&r);
	read_lines(&r, "rec.jsonl", lines);
	assert_string_equal(r.pcap, "rec.pcap");
	model_record_free(&r);
	read_lines(&r, "/var/tmp/rec.jsonl", hostile);
	assert_string_equal(r.pcap, "");
	model_record_free(&r);
	read_lines(&r, "/var/tmp/rec.jsonl", none);
	assert_string_equal(r.pcap, "");
	model_record_free(&r);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_pid_two_programs),
		cmocka_unit_test(peers_across_records),
		cmocka_unit_test(no_peer_elsewhere),
		cmocka_unit_test(two_could_be),
		cmocka_unit_test(twins_by_device),
		cmocka_unit_test(packets_beside),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
