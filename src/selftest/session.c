// SPDX-License-Identifier: GPL-2.0-or-later
/* The one session under every selftest mode: device, GID, PD and channel, opened and closed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "selftest/session.h"

int st_session_open(struct st_session *s, const struct st_common *o, struct ibv_context *ctx,
		    struct st_head *head, struct st_fault *f)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->dev.ctx = ctx;
	s->borrowed = ctx != NULL;
	err = vb_device_open(&s->dev, ctx ? ibv_get_device_name(ctx->device) : head->dev,
			     o->gid_index, f);
	head->gid_index = s->dev.gid_index;
	snprintf(head->gid, sizeof(head->gid), "%s", s->dev.gid_text);
	if (err)
		return -1;
	head->mtu = (int)vb_mtu_bytes(s->dev.port.active_mtu);
	s->pd = ibv_alloc_pd(s->dev.ctx);
	if (!s->pd)
		return st_fault_err(f, errno, NULL, "ibv_alloc_pd: %s", strerror(errno));
	if (o->events) {
		if (vb_channel_open(&s->chan, s->dev.ctx, f))
			return -1;
		s->ch = &s->chan;
	}
	/* Asynchronous events are polled for, never waited on unbounded. */
	fcntl(s->dev.ctx->async_fd, F_SETFL, fcntl(s->dev.ctx->async_fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

void st_session_close(struct st_session *s)
{
	if (s->pd)
		ibv_dealloc_pd(s->pd);
	vb_channel_close(&s->chan);
	if (s->borrowed)
		s->dev.ctx = NULL;	/* librdmacm's, not ours to close */
	vb_device_close(&s->dev);
	memset(s, 0, sizeof(*s));
}
