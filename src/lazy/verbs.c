// SPDX-License-Identifier: GPL-2.0-or-later
/* libibverbs, opened at the first call into it (lazy.h). */
#include <infiniband/verbs.h>

#include "lazy/lazy.h"

struct lazy_lib lazy_verbs = { .soname = "libibverbs.so.1", .package = "libibverbs1" };

LAZY(lazy_verbs, struct ibv_device **, ibv_get_device_list, (int *n), (n))
LAZY_VOID(lazy_verbs, ibv_free_device_list, (struct ibv_device **l), (l))
LAZY(lazy_verbs, const char *, ibv_get_device_name, (struct ibv_device *d), (d))
LAZY(lazy_verbs, struct ibv_context *, ibv_open_device, (struct ibv_device *d), (d))
LAZY(lazy_verbs, int, ibv_close_device, (struct ibv_context *c), (c))
LAZY(lazy_verbs, int, ibv_query_device, (struct ibv_context *c, struct ibv_device_attr *a), (c, a))
LAZY(lazy_verbs, int, ibv_query_port,
     (struct ibv_context *c, uint8_t p, struct _compat_ibv_port_attr *a), (c, p, a))
LAZY(lazy_verbs, int, ibv_query_gid, (struct ibv_context *c, uint8_t p, int i, union ibv_gid *g),
     (c, p, i, g))
LAZY(lazy_verbs, ssize_t, _ibv_query_gid_table,
     (struct ibv_context *c, struct ibv_gid_entry *e, size_t n, uint32_t flags, size_t size),
     (c, e, n, flags, size))
LAZY(lazy_verbs, struct ibv_pd *, ibv_alloc_pd, (struct ibv_context *c), (c))
LAZY(lazy_verbs, int, ibv_dealloc_pd, (struct ibv_pd *pd), (pd))
LAZY(lazy_verbs, struct ibv_mr *, ibv_reg_mr, (struct ibv_pd *pd, void *addr, size_t len, int acc),
     (pd, addr, len, acc))
LAZY(lazy_verbs, struct ibv_mr *, ibv_reg_mr_iova2,
     (struct ibv_pd *pd, void *addr, size_t len, uint64_t iova, unsigned int acc),
     (pd, addr, len, iova, acc))
LAZY(lazy_verbs, int, ibv_dereg_mr, (struct ibv_mr *mr), (mr))
LAZY(lazy_verbs, struct ibv_comp_channel *, ibv_create_comp_channel, (struct ibv_context *c), (c))
LAZY(lazy_verbs, int, ibv_destroy_comp_channel, (struct ibv_comp_channel *ch), (ch))
LAZY(lazy_verbs, struct ibv_cq *, ibv_create_cq,
     (struct ibv_context *c, int cqe, void *cctx, struct ibv_comp_channel *ch, int vec),
     (c, cqe, cctx, ch, vec))
LAZY(lazy_verbs, int, ibv_destroy_cq, (struct ibv_cq *cq), (cq))
LAZY(lazy_verbs, int, ibv_get_cq_event, (struct ibv_comp_channel *ch, struct ibv_cq **cq, void **cctx),
     (ch, cq, cctx))
LAZY_VOID(lazy_verbs, ibv_ack_cq_events, (struct ibv_cq *cq, unsigned int n), (cq, n))
LAZY(lazy_verbs, struct ibv_qp *, ibv_create_qp, (struct ibv_pd *pd, struct ibv_qp_init_attr *a),
     (pd, a))
LAZY(lazy_verbs, int, ibv_modify_qp, (struct ibv_qp *qp, struct ibv_qp_attr *a, int mask),
     (qp, a, mask))
LAZY(lazy_verbs, int, ibv_destroy_qp, (struct ibv_qp *qp), (qp))
LAZY(lazy_verbs, struct ibv_srq *, ibv_create_srq, (struct ibv_pd *pd, struct ibv_srq_init_attr *a),
     (pd, a))
LAZY(lazy_verbs, int, ibv_modify_srq, (struct ibv_srq *srq, struct ibv_srq_attr *a, int mask),
     (srq, a, mask))
LAZY(lazy_verbs, int, ibv_destroy_srq, (struct ibv_srq *srq), (srq))
LAZY(lazy_verbs, struct ibv_ah *, ibv_create_ah, (struct ibv_pd *pd, struct ibv_ah_attr *a), (pd, a))
LAZY(lazy_verbs, int, ibv_destroy_ah, (struct ibv_ah *ah), (ah))
LAZY(lazy_verbs, int, ibv_init_ah_from_wc,
     (struct ibv_context *c, uint8_t p, struct ibv_wc *wc, struct ibv_grh *grh,
      struct ibv_ah_attr *a), (c, p, wc, grh, a))
LAZY(lazy_verbs, int, ibv_get_async_event, (struct ibv_context *c, struct ibv_async_event *e), (c, e))
LAZY_VOID(lazy_verbs, ibv_ack_async_event, (struct ibv_async_event *e), (e))
LAZY(lazy_verbs, const char *, ibv_event_type_str, (enum ibv_event_type t), (t))
LAZY(lazy_verbs, const char *, ibv_port_state_str, (enum ibv_port_state s), (s))
LAZY(lazy_verbs, const char *, ibv_wc_status_str, (enum ibv_wc_status s), (s))
