/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside the selftest: the one session every mode (stages, two hosts, rdma_cm,
 * the transports matrix, the ping-pong) runs in: the device and its GID, one
 * protection domain, the completion channel when completions come through
 * one, opened and torn down in one place. A mode keeps only its ends (QPs,
 * CQs, buffers), its wire protocol and its stages.
 */
#ifndef RDMACTL_SELFTEST_SESSION_H
#define RDMACTL_SELFTEST_SESSION_H

#include <stdbool.h>

#include <infiniband/verbs.h>

#include "selftest/selftest.h"
#include "selftest/verbs.h"

struct st_session {
	struct vb_device dev;
	struct ibv_pd *pd;		/* every end's memory and QPs */
	struct vb_channel chan;
	struct vb_channel *ch;		/* &chan when completions come through it, else NULL */
	bool borrowed;			/* dev.ctx is rdma_cm's: never closed here */
};

/*
 * Opens the device HEAD names (or adopts CTX, rdma_cm's context, when not NULL),
 * checks its port, takes its GID into HEAD with the port's MTU, allocates the
 * PD and, when O asks for events, the channel: 0, or -1 with F said. S is
 * zeroed first; st_session_close() undoes a part done.
 */
int st_session_open(struct st_session *s, const struct st_common *o, struct ibv_context *ctx,
		    struct st_head *head, struct st_fault *f);
/* Whatever S holds freed, in order; S zeroed, so a second call does nothing. */
void st_session_close(struct st_session *s);

#endif
