// SPDX-License-Identifier: GPL-2.0-or-later
/* librdmacm, opened at the first call into it (lazy.h). */
#include <rdma/rdma_cma.h>

#include "lazy/lazy.h"

struct lazy_lib lazy_rdmacm = { .soname = "librdmacm.so.1", .package = "librdmacm1" };

LAZY(lazy_rdmacm, struct rdma_event_channel *, rdma_create_event_channel, (void), ())
LAZY_VOID(lazy_rdmacm, rdma_destroy_event_channel, (struct rdma_event_channel *ch), (ch))
LAZY(lazy_rdmacm, int, rdma_create_id,
     (struct rdma_event_channel *ch, struct rdma_cm_id **id, void *ctx, enum rdma_port_space ps),
     (ch, id, ctx, ps))
LAZY(lazy_rdmacm, int, rdma_destroy_id, (struct rdma_cm_id *id), (id))
LAZY(lazy_rdmacm, int, rdma_bind_addr, (struct rdma_cm_id *id, struct sockaddr *a), (id, a))
LAZY(lazy_rdmacm, int, rdma_resolve_addr,
     (struct rdma_cm_id *id, struct sockaddr *src, struct sockaddr *dst, int ms),
     (id, src, dst, ms))
LAZY(lazy_rdmacm, int, rdma_resolve_route, (struct rdma_cm_id *id, int ms), (id, ms))
LAZY(lazy_rdmacm, int, rdma_create_qp, (struct rdma_cm_id *id, struct ibv_pd *pd,
			       struct ibv_qp_init_attr *a), (id, pd, a))
LAZY_VOID(lazy_rdmacm, rdma_destroy_qp, (struct rdma_cm_id *id), (id))
LAZY(lazy_rdmacm, int, rdma_connect, (struct rdma_cm_id *id, struct rdma_conn_param *p), (id, p))
LAZY(lazy_rdmacm, int, rdma_listen, (struct rdma_cm_id *id, int backlog), (id, backlog))
LAZY(lazy_rdmacm, int, rdma_accept, (struct rdma_cm_id *id, struct rdma_conn_param *p), (id, p))
LAZY(lazy_rdmacm, int, rdma_reject, (struct rdma_cm_id *id, const void *data, uint8_t len),
     (id, data, len))
LAZY(lazy_rdmacm, int, rdma_disconnect, (struct rdma_cm_id *id), (id))
LAZY(lazy_rdmacm, int, rdma_get_cm_event, (struct rdma_event_channel *ch, struct rdma_cm_event **e),
     (ch, e))
LAZY(lazy_rdmacm, int, rdma_ack_cm_event, (struct rdma_cm_event *e), (e))
LAZY(lazy_rdmacm, const char *, rdma_event_str, (enum rdma_cm_event_type t), (t))
LAZY(lazy_rdmacm, __be16, rdma_get_src_port, (struct rdma_cm_id *id), (id))
