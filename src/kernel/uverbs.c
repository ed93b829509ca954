// SPDX-License-Identifier: GPL-2.0-or-later
/* uverbs and rdma_cm requests decoded from their bytes (uverbs.h). */
#include <stdio.h>
#include <string.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_cm.h>
#include <rdma/rdma_user_ioctl_cmds.h>

#include "kernel/uverbs.h"

/* The write commands, by number: the kernel's name and the call of libibverbs that sends it. */
static const struct {
	const char *cmd, *verb;
} writes[] = {
	[IB_USER_VERBS_CMD_GET_CONTEXT] = { "GET_CONTEXT", "ibv_open_device" },
	[IB_USER_VERBS_CMD_QUERY_DEVICE] = { "QUERY_DEVICE", "ibv_query_device" },
	[IB_USER_VERBS_CMD_QUERY_PORT] = { "QUERY_PORT", "ibv_query_port" },
	[IB_USER_VERBS_CMD_ALLOC_PD] = { "ALLOC_PD", "ibv_alloc_pd" },
	[IB_USER_VERBS_CMD_DEALLOC_PD] = { "DEALLOC_PD", "ibv_dealloc_pd" },
	[IB_USER_VERBS_CMD_CREATE_AH] = { "CREATE_AH", "ibv_create_ah" },
	[IB_USER_VERBS_CMD_DESTROY_AH] = { "DESTROY_AH", "ibv_destroy_ah" },
	[IB_USER_VERBS_CMD_REG_MR] = { "REG_MR", "ibv_reg_mr" },
	[IB_USER_VERBS_CMD_REREG_MR] = { "REREG_MR", "ibv_rereg_mr" },
	[IB_USER_VERBS_CMD_DEREG_MR] = { "DEREG_MR", "ibv_dereg_mr" },
	[IB_USER_VERBS_CMD_ALLOC_MW] = { "ALLOC_MW", "ibv_alloc_mw" },
	[IB_USER_VERBS_CMD_DEALLOC_MW] = { "DEALLOC_MW", "ibv_dealloc_mw" },
	[IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL] = { "CREATE_COMP_CHANNEL",
						    "ibv_create_comp_channel" },
	[IB_USER_VERBS_CMD_CREATE_CQ] = { "CREATE_CQ", "ibv_create_cq" },
	[IB_USER_VERBS_CMD_RESIZE_CQ] = { "RESIZE_CQ", "ibv_resize_cq" },
	[IB_USER_VERBS_CMD_DESTROY_CQ] = { "DESTROY_CQ", "ibv_destroy_cq" },
	[IB_USER_VERBS_CMD_POLL_CQ] = { "POLL_CQ", "ibv_poll_cq" },
	[IB_USER_VERBS_CMD_REQ_NOTIFY_CQ] = { "REQ_NOTIFY_CQ", "ibv_req_notify_cq" },
	[IB_USER_VERBS_CMD_CREATE_QP] = { "CREATE_QP", "ibv_create_qp" },
	[IB_USER_VERBS_CMD_QUERY_QP] = { "QUERY_QP", "ibv_query_qp" },
	[IB_USER_VERBS_CMD_MODIFY_QP] = { "MODIFY_QP", "ibv_modify_qp" },
	[IB_USER_VERBS_CMD_DESTROY_QP] = { "DESTROY_QP", "ibv_destroy_qp" },
	[IB_USER_VERBS_CMD_POST_SEND] = { "POST_SEND", "ibv_post_send" },
	[IB_USER_VERBS_CMD_POST_RECV] = { "POST_RECV", "ibv_post_recv" },
	[IB_USER_VERBS_CMD_ATTACH_MCAST] = { "ATTACH_MCAST", "ibv_attach_mcast" },
	[IB_USER_VERBS_CMD_DETACH_MCAST] = { "DETACH_MCAST", "ibv_detach_mcast" },
	[IB_USER_VERBS_CMD_CREATE_SRQ] = { "CREATE_SRQ", "ibv_create_srq" },
	[IB_USER_VERBS_CMD_MODIFY_SRQ] = { "MODIFY_SRQ", "ibv_modify_srq" },
	[IB_USER_VERBS_CMD_DESTROY_SRQ] = { "DESTROY_SRQ", "ibv_destroy_srq" },
	[IB_USER_VERBS_CMD_POST_SRQ_RECV] = { "POST_SRQ_RECV", "ibv_post_srq_recv" },
	[IB_USER_VERBS_CMD_OPEN_XRCD] = { "OPEN_XRCD", "ibv_open_xrcd" },
	[IB_USER_VERBS_CMD_CLOSE_XRCD] = { "CLOSE_XRCD", "ibv_close_xrcd" },
	[IB_USER_VERBS_CMD_CREATE_XSRQ] = { "CREATE_XSRQ", "ibv_create_srq_ex" },
	[IB_USER_VERBS_CMD_OPEN_QP] = { "OPEN_QP", "ibv_open_qp" },
};

/* rdma_cm's commands, by number, and the librdmacm call that sends each. */
static const struct {
	const char *cmd, *verb;
} ucma[] = {
	[RDMA_USER_CM_CMD_CREATE_ID] = { "CREATE_ID", "rdma_create_id" },
	[RDMA_USER_CM_CMD_DESTROY_ID] = { "DESTROY_ID", "rdma_destroy_id" },
	[RDMA_USER_CM_CMD_BIND_IP] = { "BIND_IP", "rdma_bind_addr" },
	[RDMA_USER_CM_CMD_RESOLVE_IP] = { "RESOLVE_IP", "rdma_resolve_addr" },
	[RDMA_USER_CM_CMD_RESOLVE_ROUTE] = { "RESOLVE_ROUTE", "rdma_resolve_route" },
	[RDMA_USER_CM_CMD_QUERY_ROUTE] = { "QUERY_ROUTE", "rdma_resolve_route" },
	[RDMA_USER_CM_CMD_CONNECT] = { "CONNECT", "rdma_connect" },
	[RDMA_USER_CM_CMD_LISTEN] = { "LISTEN", "rdma_listen" },
	[RDMA_USER_CM_CMD_ACCEPT] = { "ACCEPT", "rdma_accept" },
	[RDMA_USER_CM_CMD_REJECT] = { "REJECT", "rdma_reject" },
	[RDMA_USER_CM_CMD_DISCONNECT] = { "DISCONNECT", "rdma_disconnect" },
	[RDMA_USER_CM_CMD_INIT_QP_ATTR] = { "INIT_QP_ATTR", "rdma_init_qp_attr" },
	[RDMA_USER_CM_CMD_GET_EVENT] = { "GET_EVENT", "rdma_get_cm_event" },
	[RDMA_USER_CM_CMD_GET_OPTION] = { "GET_OPTION", "rdma_get_option" },
	[RDMA_USER_CM_CMD_SET_OPTION] = { "SET_OPTION", "rdma_set_option" },
	[RDMA_USER_CM_CMD_NOTIFY] = { "NOTIFY", "rdma_notify" },
	[RDMA_USER_CM_CMD_JOIN_IP_MCAST] = { "JOIN_IP_MCAST", "rdma_join_multicast" },
	[RDMA_USER_CM_CMD_LEAVE_MCAST] = { "LEAVE_MCAST", "rdma_leave_multicast" },
	[RDMA_USER_CM_CMD_MIGRATE_ID] = { "MIGRATE_ID", "rdma_migrate_id" },
	[RDMA_USER_CM_CMD_QUERY] = { "QUERY", "rdma_query" },
	[RDMA_USER_CM_CMD_BIND] = { "BIND", "rdma_bind_addr" },
	[RDMA_USER_CM_CMD_RESOLVE_ADDR] = { "RESOLVE_ADDR", "rdma_resolve_addr" },
	[RDMA_USER_CM_CMD_JOIN_MCAST] = { "JOIN_MCAST", "rdma_join_multicast" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* SIZE bytes of the struct at OFF into DST, zeros past LEN: a short request holds what it holds. */
static void take(void *dst, size_t size, const uint8_t *req, size_t len, size_t off)
{
	memset(dst, 0, size);
	if (off < len)
		memcpy(dst, req + off, len - off < size ? len - off : size);
}

static void modify_qp(struct uverbs_call *c, const struct ib_uverbs_modify_qp *m)
{
	c->modify_qp = true;
	c->qp_handle = m->qp_handle;
	c->attr_mask = m->attr_mask;
	c->qp_state = m->qp_state;
	c->path_mtu = m->path_mtu;
	c->dest_qp_num = m->dest_qp_num;
	c->is_global = m->dest.is_global;
	c->sgid_index = m->dest.sgid_index;
	c->port_num = m->dest.port_num;
	c->hop_limit = m->dest.hop_limit;
	c->dlid = m->dest.dlid;
	memcpy(c->dgid, m->dest.dgid, sizeof(c->dgid));
}

static void create_qp(struct uverbs_call *c, uint32_t send, uint32_t recv, uint32_t ssge,
		      uint32_t rsge, uint32_t inl, uint8_t type)
{
	c->create_qp = true;
	c->max_send_wr = send;
	c->max_recv_wr = recv;
	c->max_send_sge = ssge;
	c->max_recv_sge = rsge;
	c->max_inline = inl;
	c->qp_type = type;
}

/* Write command NUM's name into C. */
static void write_name(uint32_t num, bool ex, struct uverbs_call *c)
{
	if (num < N(writes) && writes[num].cmd) {
		c->verb = writes[num].verb;
		snprintf(c->cmd, sizeof(c->cmd), "%s%s", ex ? "EX_" : "", writes[num].cmd);
	} else {
		c->verb = "a verb";
		snprintf(c->cmd, sizeof(c->cmd), "%s%u", ex ? "EX_" : "command ", num);
	}
}

/* Write command NUM's own struct, at OFF of REQ's LEN bytes, into C. */
static void write_body(uint32_t num, bool ex, const uint8_t *req, size_t len, size_t off,
		       struct uverbs_call *c)
{
	if (num == IB_USER_VERBS_CMD_MODIFY_QP) {
		struct ib_uverbs_modify_qp m;

		take(&m, sizeof(m), req, len, off);
		modify_qp(c, &m);
	} else if (num == IB_USER_VERBS_CMD_REG_MR && !ex) {
		struct ib_uverbs_reg_mr m;

		take(&m, sizeof(m), req, len, off);
		c->reg_mr = true;
		c->mr_length = m.length;
		c->access = m.access_flags;
	} else if (num == IB_USER_VERBS_CMD_CREATE_CQ) {
		struct ib_uverbs_create_cq q;
		struct ib_uverbs_ex_create_cq x;

		c->create_cq = true;
		if (ex) {
			take(&x, sizeof(x), req, len, off);
			c->cqe = x.cqe;
		} else {
			take(&q, sizeof(q), req, len, off);
			c->cqe = q.cqe;
		}
	} else if (num == IB_USER_VERBS_CMD_CREATE_QP) {
		struct ib_uverbs_create_qp q;
		struct ib_uverbs_ex_create_qp x;

		if (ex) {
			take(&x, sizeof(x), req, len, off);
			create_qp(c, x.max_send_wr, x.max_recv_wr, x.max_send_sge, x.max_recv_sge,
				  x.max_inline_data, x.qp_type);
		} else {
			take(&q, sizeof(q), req, len, off);
			create_qp(c, q.max_send_wr, q.max_recv_wr, q.max_send_sge, q.max_recv_sge,
				  q.max_inline_data, q.qp_type);
		}
	}
}

/* A write command: its header, an extended one's second header, then its own struct. */
static bool decode_write(const uint8_t *req, size_t len, struct uverbs_call *c)
{
	struct ib_uverbs_cmd_hdr h;
	uint32_t num;
	bool ex;
	size_t off = sizeof(h);

	if (len < sizeof(h))
		return false;
	memcpy(&h, req, sizeof(h));
	ex = h.command & IB_USER_VERBS_CMD_FLAG_EXTENDED;
	num = h.command & IB_USER_VERBS_CMD_COMMAND_MASK;
	if (ex)
		off += sizeof(struct ib_uverbs_ex_cmd_hdr);
	write_name(num, ex, c);
	write_body(num, ex, req, len, off, c);
	return true;
}

/* The ioctl methods libibverbs uses, by object and method, and the calls that use them. */
static const struct {
	uint16_t object, method;
	const char *cmd, *verb;
} methods[] = {
	{ UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, "INVOKE_WRITE", "a verb" },
	{ UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT, "QUERY_PORT", "ibv_query_port" },
	{ UVERBS_OBJECT_DEVICE, UVERBS_METHOD_GET_CONTEXT, "GET_CONTEXT", "ibv_open_device" },
	{ UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_CONTEXT, "QUERY_CONTEXT", "ibv_open_device" },
	{ UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_TABLE, "QUERY_GID_TABLE",
	  "ibv_query_gid_table" },
	{ UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_GID_ENTRY, "QUERY_GID_ENTRY",
	  "ibv_query_gid_ex" },
	{ UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_CREATE, "CQ_CREATE", "ibv_create_cq" },
	{ UVERBS_OBJECT_CQ, UVERBS_METHOD_CQ_DESTROY, "CQ_DESTROY", "ibv_destroy_cq" },
	{ UVERBS_OBJECT_QP, UVERBS_METHOD_QP_CREATE, "QP_CREATE", "ibv_create_qp" },
	{ UVERBS_OBJECT_QP, UVERBS_METHOD_QP_DESTROY, "QP_DESTROY", "ibv_destroy_qp" },
	{ UVERBS_OBJECT_MR, UVERBS_METHOD_MR_DESTROY, "MR_DESTROY", "ibv_dereg_mr" },
	{ UVERBS_OBJECT_MR, UVERBS_METHOD_REG_DMABUF_MR, "REG_DMABUF_MR", "ibv_reg_dmabuf_mr" },
	{ UVERBS_OBJECT_PD, UVERBS_METHOD_PD_DESTROY, "PD_DESTROY", "ibv_dealloc_pd" },
};

/* The inline value (at most 8 bytes) of attribute ID among the header's, in *V. */
static bool attr_inline(const uint8_t *req, size_t len, uint16_t id, uint64_t *v)
{
	struct ib_uverbs_ioctl_hdr h;

	memcpy(&h, req, sizeof(h));
	for (size_t i = 0; i < h.num_attrs; i++) {
		struct ib_uverbs_attr a;
		size_t off = sizeof(h) + i * sizeof(a);

		if (off + sizeof(a) > len)
			return false;
		memcpy(&a, req + off, sizeof(a));
		if (a.attr_id == id && a.len <= sizeof(a.data)) {
			*v = 0;
			memcpy(v, &a.data, a.len);
			return true;
		}
	}
	return false;
}

static bool decode_ioctl(const uint8_t *req, size_t len, struct uverbs_call *c)
{
	struct ib_uverbs_ioctl_hdr h;
	uint64_t v;

	if (len < sizeof(h))
		return false;
	memcpy(&h, req, sizeof(h));
	c->verb = "a verb";
	snprintf(c->cmd, sizeof(c->cmd), "object %u method %u", h.object_id, h.method_id);
	for (size_t i = 0; i < N(methods); i++)
		if (methods[i].object == h.object_id && methods[i].method == h.method_id) {
			c->verb = methods[i].verb;
			snprintf(c->cmd, sizeof(c->cmd), "%s", methods[i].cmd);
		}
	/*
	 * A write command carried by ioctl: named as its write would be, its
	 * own struct (CORE_IN, without the write's headers) from
	 * RECORD_REQ_CORE_IN on. Which of the extended ones it is the kernel
	 * knows by the number alone: the struct is decoded as the plain one's,
	 * whose fields the extended ones begin with.
	 */
	if (h.object_id == UVERBS_OBJECT_DEVICE && h.method_id == UVERBS_METHOD_INVOKE_WRITE &&
	    attr_inline(req, len < UVERBS_CORE_IN_AT ? len : UVERBS_CORE_IN_AT,
			UVERBS_ATTR_WRITE_CMD, &v) && v <= IB_USER_VERBS_CMD_COMMAND_MASK) {
		write_name((uint32_t)v, false, c);
		if (len > UVERBS_CORE_IN_AT)
			write_body((uint32_t)v, false, req, len, UVERBS_CORE_IN_AT, c);
	}
	if (h.object_id == UVERBS_OBJECT_CQ && h.method_id == UVERBS_METHOD_CQ_CREATE) {
		c->create_cq = true;
		if (attr_inline(req, len, UVERBS_ATTR_CREATE_CQ_CQE, &v))
			c->cqe = (uint32_t)v;
	}
	if (h.object_id == UVERBS_OBJECT_QP && h.method_id == UVERBS_METHOD_QP_CREATE) {
		c->create_qp = true;
		if (attr_inline(req, len, UVERBS_ATTR_CREATE_QP_TYPE, &v))
			c->qp_type = (uint8_t)v;
	}
	return true;
}

static bool decode_ucma(const uint8_t *req, size_t len, struct uverbs_call *c)
{
	struct rdma_ucm_cmd_hdr h;

	if (len < sizeof(h))
		return false;
	memcpy(&h, req, sizeof(h));
	if (h.cmd < N(ucma) && ucma[h.cmd].cmd) {
		c->verb = ucma[h.cmd].verb;
		snprintf(c->cmd, sizeof(c->cmd), "%s", ucma[h.cmd].cmd);
	} else {
		c->verb = "an rdma_cm call";
		snprintf(c->cmd, sizeof(c->cmd), "command %u", h.cmd);
	}
	return true;
}

bool uverbs_decode(enum uverbs_via via, const uint8_t *req, size_t len, struct uverbs_call *c)
{
	memset(c, 0, sizeof(*c));
	switch (via) {
	case UVERBS_VIA_WRITE:
		return decode_write(req, len, c);
	case UVERBS_VIA_IOCTL:
		return decode_ioctl(req, len, c);
	case UVERBS_VIA_UCMA:
		return decode_ucma(req, len, c);
	}
	return false;
}

bool uverbs_cm_event(const uint8_t *resp, size_t len, struct uverbs_cm_event *e)
{
	struct {
		uint64_t uid;
		uint32_t id, event, status;
	} __attribute__((packed)) r;

	if (len < sizeof(r))
		return false;
	memcpy(&r, resp, sizeof(r));
	e->id = r.id;
	e->event = r.event;
	e->status = (int32_t)r.status;
	return true;
}

const char *uverbs_cm_event_name(uint32_t event)
{
	/* librdmacm's enum rdma_cm_event_type, whose numbers the kernel's events carry. */
	static const char *const names[] = {
		"RDMA_CM_EVENT_ADDR_RESOLVED", "RDMA_CM_EVENT_ADDR_ERROR",
		"RDMA_CM_EVENT_ROUTE_RESOLVED", "RDMA_CM_EVENT_ROUTE_ERROR",
		"RDMA_CM_EVENT_CONNECT_REQUEST", "RDMA_CM_EVENT_CONNECT_RESPONSE",
		"RDMA_CM_EVENT_CONNECT_ERROR", "RDMA_CM_EVENT_UNREACHABLE",
		"RDMA_CM_EVENT_REJECTED", "RDMA_CM_EVENT_ESTABLISHED",
		"RDMA_CM_EVENT_DISCONNECTED", "RDMA_CM_EVENT_DEVICE_REMOVAL",
		"RDMA_CM_EVENT_MULTICAST_JOIN", "RDMA_CM_EVENT_MULTICAST_ERROR",
		"RDMA_CM_EVENT_ADDR_CHANGE", "RDMA_CM_EVENT_TIMEWAIT_EXIT",
	};

	return event < N(names) ? names[event] : NULL;
}

const char *uverbs_qp_state_name(unsigned int state)
{
	static const char *const names[] = { "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR" };

	return state < N(names) ? names[state] : NULL;
}
