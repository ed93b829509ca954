// SPDX-License-Identifier: GPL-2.0-or-later
/* --debug: each netlink message sent and received, named and laid out (nldebug.h). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <rdma/rdma_netlink.h>

#include "kernel/errname.h"
#include "kernel/nldebug.h"

static FILE *out;

void nldebug_set(FILE *f)
{
	out = f;
}

/* The RDMA netlink's NLDEV commands rdmactl sends, as rdma_netlink.h names them. */
static const char *const nldev_cmds[] = {
	[RDMA_NLDEV_CMD_GET] = "NLDEV_CMD_GET",
	[RDMA_NLDEV_CMD_SET] = "NLDEV_CMD_SET",
	[RDMA_NLDEV_CMD_NEWLINK] = "NLDEV_CMD_NEWLINK",
	[RDMA_NLDEV_CMD_DELLINK] = "NLDEV_CMD_DELLINK",
	[RDMA_NLDEV_CMD_PORT_GET] = "NLDEV_CMD_PORT_GET",
	[RDMA_NLDEV_CMD_SYS_GET] = "NLDEV_CMD_SYS_GET",
	[RDMA_NLDEV_CMD_SYS_SET] = "NLDEV_CMD_SYS_SET",
	[RDMA_NLDEV_CMD_RES_GET] = "NLDEV_CMD_RES_GET",
	[RDMA_NLDEV_CMD_RES_QP_GET] = "NLDEV_CMD_RES_QP_GET",
	[RDMA_NLDEV_CMD_RES_CM_ID_GET] = "NLDEV_CMD_RES_CM_ID_GET",
	[RDMA_NLDEV_CMD_RES_CQ_GET] = "NLDEV_CMD_RES_CQ_GET",
	[RDMA_NLDEV_CMD_RES_MR_GET] = "NLDEV_CMD_RES_MR_GET",
	[RDMA_NLDEV_CMD_RES_PD_GET] = "NLDEV_CMD_RES_PD_GET",
	[RDMA_NLDEV_CMD_GET_CHARDEV] = "NLDEV_CMD_GET_CHARDEV",
	[RDMA_NLDEV_CMD_STAT_SET] = "NLDEV_CMD_STAT_SET",
	[RDMA_NLDEV_CMD_STAT_GET] = "NLDEV_CMD_STAT_GET",
	[RDMA_NLDEV_CMD_STAT_DEL] = "NLDEV_CMD_STAT_DEL",
};

/* The RDMA netlink's attributes, as rdma_netlink.h names them. */
static const char *const nldev_attrs[] = {
	[RDMA_NLDEV_ATTR_DEV_INDEX] = "NLDEV_ATTR_DEV_INDEX",
	[RDMA_NLDEV_ATTR_DEV_NAME] = "NLDEV_ATTR_DEV_NAME",
	[RDMA_NLDEV_ATTR_PORT_INDEX] = "NLDEV_ATTR_PORT_INDEX",
	[RDMA_NLDEV_ATTR_CAP_FLAGS] = "NLDEV_ATTR_CAP_FLAGS",
	[RDMA_NLDEV_ATTR_FW_VERSION] = "NLDEV_ATTR_FW_VERSION",
	[RDMA_NLDEV_ATTR_NODE_GUID] = "NLDEV_ATTR_NODE_GUID",
	[RDMA_NLDEV_ATTR_SYS_IMAGE_GUID] = "NLDEV_ATTR_SYS_IMAGE_GUID",
	[RDMA_NLDEV_ATTR_SUBNET_PREFIX] = "NLDEV_ATTR_SUBNET_PREFIX",
	[RDMA_NLDEV_ATTR_LID] = "NLDEV_ATTR_LID",
	[RDMA_NLDEV_ATTR_SM_LID] = "NLDEV_ATTR_SM_LID",
	[RDMA_NLDEV_ATTR_LMC] = "NLDEV_ATTR_LMC",
	[RDMA_NLDEV_ATTR_PORT_STATE] = "NLDEV_ATTR_PORT_STATE",
	[RDMA_NLDEV_ATTR_PORT_PHYS_STATE] = "NLDEV_ATTR_PORT_PHYS_STATE",
	[RDMA_NLDEV_ATTR_DEV_NODE_TYPE] = "NLDEV_ATTR_DEV_NODE_TYPE",
	[RDMA_NLDEV_ATTR_RES_SUMMARY] = "NLDEV_ATTR_RES_SUMMARY",
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY] = "NLDEV_ATTR_RES_SUMMARY_ENTRY",
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME] = "NLDEV_ATTR_RES_SUMMARY_ENTRY_NAME",
	[RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR] = "NLDEV_ATTR_RES_SUMMARY_ENTRY_CURR",
	[RDMA_NLDEV_ATTR_RES_QP] = "NLDEV_ATTR_RES_QP",
	[RDMA_NLDEV_ATTR_RES_QP_ENTRY] = "NLDEV_ATTR_RES_QP_ENTRY",
	[RDMA_NLDEV_ATTR_RES_LQPN] = "NLDEV_ATTR_RES_LQPN",
	[RDMA_NLDEV_ATTR_RES_RQPN] = "NLDEV_ATTR_RES_RQPN",
	[RDMA_NLDEV_ATTR_RES_RQ_PSN] = "NLDEV_ATTR_RES_RQ_PSN",
	[RDMA_NLDEV_ATTR_RES_SQ_PSN] = "NLDEV_ATTR_RES_SQ_PSN",
	[RDMA_NLDEV_ATTR_RES_PATH_MIG_STATE] = "NLDEV_ATTR_RES_PATH_MIG_STATE",
	[RDMA_NLDEV_ATTR_RES_TYPE] = "NLDEV_ATTR_RES_TYPE",
	[RDMA_NLDEV_ATTR_RES_STATE] = "NLDEV_ATTR_RES_STATE",
	[RDMA_NLDEV_ATTR_RES_PID] = "NLDEV_ATTR_RES_PID",
	[RDMA_NLDEV_ATTR_RES_KERN_NAME] = "NLDEV_ATTR_RES_KERN_NAME",
	[RDMA_NLDEV_ATTR_RES_CM_ID] = "NLDEV_ATTR_RES_CM_ID",
	[RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY] = "NLDEV_ATTR_RES_CM_ID_ENTRY",
	[RDMA_NLDEV_ATTR_RES_PS] = "NLDEV_ATTR_RES_PS",
	[RDMA_NLDEV_ATTR_RES_SRC_ADDR] = "NLDEV_ATTR_RES_SRC_ADDR",
	[RDMA_NLDEV_ATTR_RES_DST_ADDR] = "NLDEV_ATTR_RES_DST_ADDR",
	[RDMA_NLDEV_ATTR_RES_CQ] = "NLDEV_ATTR_RES_CQ",
	[RDMA_NLDEV_ATTR_RES_CQ_ENTRY] = "NLDEV_ATTR_RES_CQ_ENTRY",
	[RDMA_NLDEV_ATTR_RES_CQE] = "NLDEV_ATTR_RES_CQE",
	[RDMA_NLDEV_ATTR_RES_USECNT] = "NLDEV_ATTR_RES_USECNT",
	[RDMA_NLDEV_ATTR_RES_POLL_CTX] = "NLDEV_ATTR_RES_POLL_CTX",
	[RDMA_NLDEV_ATTR_RES_MR] = "NLDEV_ATTR_RES_MR",
	[RDMA_NLDEV_ATTR_RES_MR_ENTRY] = "NLDEV_ATTR_RES_MR_ENTRY",
	[RDMA_NLDEV_ATTR_RES_RKEY] = "NLDEV_ATTR_RES_RKEY",
	[RDMA_NLDEV_ATTR_RES_LKEY] = "NLDEV_ATTR_RES_LKEY",
	[RDMA_NLDEV_ATTR_RES_IOVA] = "NLDEV_ATTR_RES_IOVA",
	[RDMA_NLDEV_ATTR_RES_MRLEN] = "NLDEV_ATTR_RES_MRLEN",
	[RDMA_NLDEV_ATTR_RES_PD] = "NLDEV_ATTR_RES_PD",
	[RDMA_NLDEV_ATTR_RES_PD_ENTRY] = "NLDEV_ATTR_RES_PD_ENTRY",
	[RDMA_NLDEV_ATTR_RES_LOCAL_DMA_LKEY] = "NLDEV_ATTR_RES_LOCAL_DMA_LKEY",
	[RDMA_NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY] = "NLDEV_ATTR_RES_UNSAFE_GLOBAL_RKEY",
	[RDMA_NLDEV_ATTR_NDEV_INDEX] = "NLDEV_ATTR_NDEV_INDEX",
	[RDMA_NLDEV_ATTR_NDEV_NAME] = "NLDEV_ATTR_NDEV_NAME",
	[RDMA_NLDEV_ATTR_DRIVER] = "NLDEV_ATTR_DRIVER",
	[RDMA_NLDEV_ATTR_DRIVER_ENTRY] = "NLDEV_ATTR_DRIVER_ENTRY",
	[RDMA_NLDEV_ATTR_DRIVER_STRING] = "NLDEV_ATTR_DRIVER_STRING",
	[RDMA_NLDEV_ATTR_DRIVER_PRINT_TYPE] = "NLDEV_ATTR_DRIVER_PRINT_TYPE",
	[RDMA_NLDEV_ATTR_DRIVER_S32] = "NLDEV_ATTR_DRIVER_S32",
	[RDMA_NLDEV_ATTR_DRIVER_U32] = "NLDEV_ATTR_DRIVER_U32",
	[RDMA_NLDEV_ATTR_DRIVER_S64] = "NLDEV_ATTR_DRIVER_S64",
	[RDMA_NLDEV_ATTR_DRIVER_U64] = "NLDEV_ATTR_DRIVER_U64",
	[RDMA_NLDEV_ATTR_RES_PDN] = "NLDEV_ATTR_RES_PDN",
	[RDMA_NLDEV_ATTR_RES_CQN] = "NLDEV_ATTR_RES_CQN",
	[RDMA_NLDEV_ATTR_RES_MRN] = "NLDEV_ATTR_RES_MRN",
	[RDMA_NLDEV_ATTR_RES_CM_IDN] = "NLDEV_ATTR_RES_CM_IDN",
	[RDMA_NLDEV_ATTR_RES_CTXN] = "NLDEV_ATTR_RES_CTXN",
	[RDMA_NLDEV_ATTR_LINK_TYPE] = "NLDEV_ATTR_LINK_TYPE",
	[RDMA_NLDEV_SYS_ATTR_NETNS_MODE] = "NLDEV_SYS_ATTR_NETNS_MODE",
	[RDMA_NLDEV_ATTR_DEV_PROTOCOL] = "NLDEV_ATTR_DEV_PROTOCOL",
	[RDMA_NLDEV_NET_NS_FD] = "NLDEV_NET_NS_FD",
	[RDMA_NLDEV_ATTR_CHARDEV_TYPE] = "NLDEV_ATTR_CHARDEV_TYPE",
	[RDMA_NLDEV_ATTR_CHARDEV_NAME] = "NLDEV_ATTR_CHARDEV_NAME",
	[RDMA_NLDEV_ATTR_CHARDEV_ABI] = "NLDEV_ATTR_CHARDEV_ABI",
	[RDMA_NLDEV_ATTR_CHARDEV] = "NLDEV_ATTR_CHARDEV",
	[RDMA_NLDEV_ATTR_UVERBS_DRIVER_ID] = "NLDEV_ATTR_UVERBS_DRIVER_ID",
	[RDMA_NLDEV_ATTR_STAT_MODE] = "NLDEV_ATTR_STAT_MODE",
	[RDMA_NLDEV_ATTR_STAT_RES] = "NLDEV_ATTR_STAT_RES",
	[RDMA_NLDEV_ATTR_STAT_AUTO_MODE_MASK] = "NLDEV_ATTR_STAT_AUTO_MODE_MASK",
	[RDMA_NLDEV_ATTR_STAT_COUNTER] = "NLDEV_ATTR_STAT_COUNTER",
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY] = "NLDEV_ATTR_STAT_COUNTER_ENTRY",
	[RDMA_NLDEV_ATTR_STAT_COUNTER_ID] = "NLDEV_ATTR_STAT_COUNTER_ID",
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTERS] = "NLDEV_ATTR_STAT_HWCOUNTERS",
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY] = "NLDEV_ATTR_STAT_HWCOUNTER_ENTRY",
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME] = "NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_NAME",
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE] = "NLDEV_ATTR_STAT_HWCOUNTER_ENTRY_VALUE",
	[RDMA_NLDEV_ATTR_DEV_DIM] = "NLDEV_ATTR_DEV_DIM",
	[RDMA_NLDEV_ATTR_RES_RAW] = "NLDEV_ATTR_RES_RAW",
	[RDMA_NLDEV_ATTR_RES_CTX] = "NLDEV_ATTR_RES_CTX",
	[RDMA_NLDEV_ATTR_RES_CTX_ENTRY] = "NLDEV_ATTR_RES_CTX_ENTRY",
	[RDMA_NLDEV_ATTR_RES_SRQ] = "NLDEV_ATTR_RES_SRQ",
	[RDMA_NLDEV_ATTR_RES_SRQ_ENTRY] = "NLDEV_ATTR_RES_SRQ_ENTRY",
	[RDMA_NLDEV_ATTR_RES_SRQN] = "NLDEV_ATTR_RES_SRQN",
	[RDMA_NLDEV_SYS_ATTR_COPY_ON_FORK] = "NLDEV_SYS_ATTR_COPY_ON_FORK",
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_INDEX] = "NLDEV_ATTR_STAT_HWCOUNTER_INDEX",
	[RDMA_NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC] = "NLDEV_ATTR_STAT_HWCOUNTER_DYNAMIC",
	[RDMA_NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE] = "NLDEV_SYS_ATTR_PRIVILEGED_QKEY_MODE",
	[RDMA_NLDEV_ATTR_DRIVER_DETAILS] = "NLDEV_ATTR_DRIVER_DETAILS",
	[RDMA_NLDEV_ATTR_RES_SUBTYPE] = "NLDEV_ATTR_RES_SUBTYPE",
};

/*
 * The RDMA netlink's nested attributes: the kernel nests them without
 * NLA_F_NESTED, so their type says it.
 */
static bool nldev_nested(uint16_t type)
{
	switch (type) {
	case RDMA_NLDEV_ATTR_RES_SUMMARY:
	case RDMA_NLDEV_ATTR_RES_SUMMARY_ENTRY:
	case RDMA_NLDEV_ATTR_RES_QP:
	case RDMA_NLDEV_ATTR_RES_QP_ENTRY:
	case RDMA_NLDEV_ATTR_RES_CM_ID:
	case RDMA_NLDEV_ATTR_RES_CM_ID_ENTRY:
	case RDMA_NLDEV_ATTR_RES_CQ:
	case RDMA_NLDEV_ATTR_RES_CQ_ENTRY:
	case RDMA_NLDEV_ATTR_RES_MR:
	case RDMA_NLDEV_ATTR_RES_MR_ENTRY:
	case RDMA_NLDEV_ATTR_RES_PD:
	case RDMA_NLDEV_ATTR_RES_PD_ENTRY:
	case RDMA_NLDEV_ATTR_RES_CTX:
	case RDMA_NLDEV_ATTR_RES_CTX_ENTRY:
	case RDMA_NLDEV_ATTR_RES_SRQ:
	case RDMA_NLDEV_ATTR_RES_SRQ_ENTRY:
	case RDMA_NLDEV_ATTR_DRIVER:
	case RDMA_NLDEV_ATTR_STAT_COUNTER:
	case RDMA_NLDEV_ATTR_STAT_COUNTER_ENTRY:
	case RDMA_NLDEV_ATTR_STAT_HWCOUNTERS:
	case RDMA_NLDEV_ATTR_STAT_HWCOUNTER_ENTRY:
		return true;
	default:
		return false;
	}
}

/* The route netlink messages rdmactl sends and hears, and their fixed header's size. */
static const struct {
	uint16_t type;
	const char *name;
	size_t hdr;
} rtm[] = {
	{ RTM_NEWLINK, "RTM_NEWLINK", sizeof(struct ifinfomsg) },
	{ RTM_DELLINK, "RTM_DELLINK", sizeof(struct ifinfomsg) },
	{ RTM_GETLINK, "RTM_GETLINK", sizeof(struct ifinfomsg) },
	{ RTM_NEWADDR, "RTM_NEWADDR", sizeof(struct ifaddrmsg) },
	{ RTM_DELADDR, "RTM_DELADDR", sizeof(struct ifaddrmsg) },
	{ RTM_GETADDR, "RTM_GETADDR", sizeof(struct ifaddrmsg) },
	{ RTM_NEWROUTE, "RTM_NEWROUTE", sizeof(struct rtmsg) },
	{ RTM_GETROUTE, "RTM_GETROUTE", sizeof(struct rtmsg) },
	{ RTM_NEWNEIGH, "RTM_NEWNEIGH", sizeof(struct ndmsg) },
	{ RTM_GETNEIGH, "RTM_GETNEIGH", sizeof(struct ndmsg) },
};

/* H's type in words into BUF; *HDR the size of its fixed header before the attributes. */
static const char *type_name(int bus, const struct nlmsghdr *h, char *buf, size_t len,
			     size_t *hdr)
{
	*hdr = 0;
	switch (h->nlmsg_type) {
	case NLMSG_NOOP:
		return "NLMSG_NOOP";
	case NLMSG_DONE:
		return "NLMSG_DONE";
	case NLMSG_OVERRUN:
		return "NLMSG_OVERRUN";
	case NLMSG_ERROR:
		*hdr = sizeof(struct nlmsgerr);
		if (h->nlmsg_len >= NLMSG_HDRLEN + sizeof(struct nlmsgerr)) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(h);

			/* Not capped, the request is echoed whole before the kernel's TLVs. */
			if (!(h->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len >= NLMSG_HDRLEN)
				*hdr += NLMSG_ALIGN(e->msg.nlmsg_len) - NLMSG_HDRLEN;

			snprintf(buf, len, "NLMSG_ERROR %s", e->error ? errname(e->error) : "0 (ACK)");
			return buf;
		}
		return "NLMSG_ERROR";
	}
	if (bus == NETLINK_RDMA) {
		unsigned int client = RDMA_NL_GET_CLIENT(h->nlmsg_type);
		unsigned int op = RDMA_NL_GET_OP(h->nlmsg_type);

		if (client == RDMA_NL_NLDEV && op < sizeof(nldev_cmds) / sizeof(nldev_cmds[0]) &&
		    nldev_cmds[op])
			snprintf(buf, len, "RDMA %s", nldev_cmds[op]);
		else
			snprintf(buf, len, "RDMA client %u op %u", client, op);
		return buf;
	}
	for (size_t i = 0; i < sizeof(rtm) / sizeof(rtm[0]); i++)
		if (bus == NETLINK_ROUTE && rtm[i].type == h->nlmsg_type) {
			*hdr = rtm[i].hdr;
			return rtm[i].name;
		}
	snprintf(buf, len, "type %u", h->nlmsg_type);
	return buf;
}

/* H's flags as netlink.h names them, into BUF. */
static const char *flag_names(const struct nlmsghdr *h, char *buf, size_t len)
{
	/* An error's upper bits are its own: the request cut, the kernel's TLVs after it. */
	static const struct {
		uint16_t bit;
		const char *name;
	} err[] = { { NLM_F_CAPPED, "CAPPED" }, { NLM_F_ACK_TLVS, "ACK_TLVS" } };
	static const struct {
		uint16_t bit;
		const char *name;
	} f[] = { { NLM_F_REQUEST, "REQUEST" }, { NLM_F_MULTI, "MULTI" }, { NLM_F_ACK, "ACK" },
		  { NLM_F_ECHO, "ECHO" }, { NLM_F_DUMP_INTR, "DUMP_INTR" } };
	/* A request's upper bits are its own (DUMP, CREATE, ...); an answer's, another's. */
	static const struct {
		uint16_t bit;
		const char *name;
	} req[] = { { NLM_F_DUMP, "DUMP" }, { NLM_F_ROOT, "ROOT" }, { NLM_F_MATCH, "MATCH" },
		    { NLM_F_ATOMIC, "ATOMIC" },
		    { NLM_F_REPLACE, "REPLACE" }, { NLM_F_EXCL, "EXCL" }, { NLM_F_CREATE, "CREATE" },
		    { NLM_F_APPEND, "APPEND" } };
	uint16_t rest = h->nlmsg_flags;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (rest & f[i].bit) {
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? "," : "", f[i].name);
			rest &= (uint16_t)~f[i].bit;
		}
	for (size_t i = 0; (h->nlmsg_flags & NLM_F_REQUEST) && i < sizeof(req) / sizeof(req[0]); i++)
		if ((rest & req[i].bit) == req[i].bit) {
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? "," : "",
				 req[i].name);
			rest &= (uint16_t)~req[i].bit;
		}
	for (size_t i = 0; h->nlmsg_type == NLMSG_ERROR && i < sizeof(err) / sizeof(err[0]); i++)
		if (rest & err[i].bit) {
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", *buf ? "," : "",
				 err[i].name);
			rest &= (uint16_t)~err[i].bit;
		}
	if (rest)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s0x%x", *buf ? "," : "", rest);
	return *buf ? buf : "none";
}

/* Nests opened at most this deep: a hostile message's nests within nests stop there. */
#define NEST_MAX 4

/*
 * A's value: its first bytes in hex, and what they read as (a number of 1,
 * 2, 4 or 8 bytes, or a string of printable bytes: others '?').
 */
static void value(const struct nlattr *a)
{
	const unsigned char *p = mnl_attr_get_payload(a);
	uint16_t n = mnl_attr_get_payload_len(a);
	bool text = n > 1 && !p[n - 1];

	for (uint16_t i = 0; i < n && i < 16; i++)
		fprintf(out, " %02x", p[i]);
	if (n > 16)
		fprintf(out, " ...");
	for (uint16_t i = 0; text && i + 1 < n; i++)
		text = p[i] >= 0x20 && p[i] < 0x7f;
	if (text)
		fprintf(out, "  \"%.*s\"", (int)(n - 1), (const char *)p);
	else if (n == 1)
		fprintf(out, "  = %u", p[0]);
	else if (n == 2)
		fprintf(out, "  = %u", mnl_attr_get_u16(a));
	else if (n == 4)
		fprintf(out, "  = %u", mnl_attr_get_u32(a));
	else if (n == 8)
		fprintf(out, "  = %llu", (unsigned long long)mnl_attr_get_u64(a));
}

/*
 * Attribute A of a message of BUS, a line at DEPTH: its type (named on the
 * RDMA netlink), its length and value; a nested one's own attributes after
 * it, a level deeper.
 */
static void attr(int bus, const struct nlattr *a, int depth)
{
	uint16_t type = mnl_attr_get_type(a);
	bool rdma = bus == NETLINK_RDMA;
	bool nested = (a->nla_type & NLA_F_NESTED) || (rdma && nldev_nested(type));
	const struct nlattr *c;

	fprintf(out, "%*sattr %u", 2 * depth, "", type);
	if (rdma && type < sizeof(nldev_attrs) / sizeof(nldev_attrs[0]) && nldev_attrs[type])
		fprintf(out, " %s", nldev_attrs[type]);
	fprintf(out, "%s, %u bytes:", nested ? " (nested)" : "", mnl_attr_get_payload_len(a));
	if (!nested)
		value(a);
	fputc('\n', out);
	if (!nested || depth >= NEST_MAX)
		return;
	mnl_attr_for_each_nested(c, a) {
		attr(bus, c, depth + 1);
	}
}

/* H's attributes after its fixed header of HDR bytes, a line each. */
static void attrs(int bus, const struct nlmsghdr *h, size_t hdr)
{
	const struct nlattr *a;

	if (h->nlmsg_len < NLMSG_HDRLEN + hdr)
		return;
	mnl_attr_for_each(a, h, hdr) {
		attr(bus, a, 1);
	}
}

void nldebug_msgs(int bus, const char *what, const void *buf, size_t len)
{
	const struct nlmsghdr *h = buf;
	int left = (int)len;

	if (!out)
		return;
	/*
	 * libmnl's mnl_nlmsg_ok reads a length past 2 GiB as negative, and
	 * takes it: a hostile recording's would send the walk off the buffer.
	 */
	while (left >= (int)sizeof(*h) && h->nlmsg_len >= sizeof(*h) &&
	       h->nlmsg_len <= (uint32_t)left) {
		char name[64], flags[96];
		size_t hdr;
		const char *t = type_name(bus, h, name, sizeof(name), &hdr);

		fprintf(out, "netlink %s: %s, flags %s, seq %u, port %u, %u bytes\n", what, t,
			flag_names(h, flags, sizeof(flags)), h->nlmsg_seq, h->nlmsg_pid,
			h->nlmsg_len);
		attrs(bus, h, hdr);
		h = mnl_nlmsg_next(h, &left);
	}
	fflush(out);
}
