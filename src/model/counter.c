// SPDX-License-Identifier: GPL-2.0-or-later
/* rxe's port counters: one name across kernels, a unit, what each counts and means. */
#include <string.h>

#include "kernel/roce.h"
#include "model/counter.h"

const struct model_counter_info model_counters[] = {
	{ "sent_pkts", NULL, "packets", "packets sent", NULL },
	{ "rcvd_pkts", NULL, "packets", "packets received", NULL },
	{ "duplicate_request", NULL, "requests",
	  "requests received again, already executed: the peer resent them", NULL },
	{ "out_of_seq_request", "out_of_sequence", "requests",
	  "requests received past a gap in their sequence",
	  "requests arrived out of sequence" },
	{ "rcvd_rnr_err", NULL, "NAKs",
	  "RNR NAKs received: the peer had no receive posted for a SEND",
	  "a peer had no receive posted when a SEND came (RNR): it must post its receives "
	  "before the peer sends" },
	{ "send_rnr_err", NULL, "NAKs", "RNR NAKs sent: a receive queue here ran empty", NULL },
	{ "rcvd_seq_err", NULL, "NAKs",
	  "sequence-error NAKs received: the peer missed packets",
	  "a peer missed packets (sequence-error NAKs): loss on the path" },
	{ "ack_deferred", "ack_deffered", "events",
	  "acknowledgements the driver handled later, in its task", NULL },
	{ "retry_exceeded_err", NULL, "QPs",
	  "QPs that gave up after their retry count: no ACK came",
	  "a peer stopped answering: " ROCE_UNANSWERED_CAUSES ", or its QP is gone" },
	{ "retry_rnr_exceeded_err", NULL, "QPs",
	  "QPs that gave up after their RNR retry count",
	  "a peer had no receive posted for too long (RNR)" },
	{ "completer_retry_err", NULL, "events",
	  "times requests were sent again for want of an ACK",
	  "requests were sent again for want of an ACK" },
	{ "send_err", NULL, "packets", "packets that could not be sent",
	  "packets could not be sent (netdev down, no route)" },
	{ "link_downed", NULL, "events", "times the port went down", "the port went down" },
	/* rxe's completer counts a SEND, SEND with immediate or with invalidate, nothing else. */
	{ "rdma_sends", NULL, "completions", "SENDs completed as a sender, signaled or not "
	  "(WRITEs, READs and atomics are not counted)", NULL },
	{ "rdma_recvs", NULL, "completions",
	  "receives completed: a SEND or a WRITE with immediate data landed", NULL },
	{ "sent_bytes", NULL, "bytes", "bytes sent (Linux 7.2 and later)", NULL },
	{ "rcvd_bytes", NULL, "bytes", "bytes received (Linux 7.2 and later)", NULL },
};

const size_t model_ncounters = sizeof(model_counters) / sizeof(model_counters[0]);

const struct model_counter_info *model_counter_info(const char *kernel_name)
{
	for (size_t i = 0; i < model_ncounters; i++)
		if (!strcmp(kernel_name, model_counters[i].name) ||
		    (model_counters[i].old_name && !strcmp(kernel_name, model_counters[i].old_name)))
			return &model_counters[i];
	return NULL;
}
