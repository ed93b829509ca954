// SPDX-License-Identifier: GPL-2.0-or-later
/* monitor's events: a line each (plain), an object a line (JSON). */
#include <inttypes.h>

#include "cli/out.h"
#include "model/gid.h"
#include "diag/monitor.h"
#include "views/monitor.h"
#include "views/qp.h"

/* The event's name in JSON's "event": "qp-state", "counter", ... */
static const char *view_monitor_kind(int kind)
{
	static const char *const names[] = {
		[MON_DEVICE_ADDED] = "device-added", [MON_DEVICE_REMOVED] = "device-removed",
		[MON_PORT_STATE] = "port-state", [MON_NETDEV_STATE] = "netdev-state",
		[MON_NETDEV_MTU] = "netdev-mtu", [MON_GID_ADDED] = "gid-added",
		[MON_GID_REMOVED] = "gid-removed", [MON_QP_CREATED] = "qp-created",
		[MON_QP_STATE] = "qp-state", [MON_QP_DESTROYED] = "qp-destroyed",
		[MON_QP_STALLED] = "qp-resending", [MON_COUNTER] = "counter",
	};

	return kind >= 0 && (size_t)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static void qp_fields(struct out *o, const struct monitor_event *e)
{
	const struct rdma_qp *q = e->qp;

	out_u64(o, "qpn", " qpn %" PRIu64, q->qpn);
	out_str(o, "type", " %s", model_qp_type_name(q->type));
	view_qp_owner(o, "owner", " ", q);
}

static void diag_fields(struct out *o, const struct diag_qp *d)
{
	if (!d)
		return;
	out_str(o, "cause", ": %s", d->cause);
	out_str(o, "certainty", " (%s", d->sure ? "certain" : "likely");
	out_str(o, "evidence", ": %s)", d->evidence);
	out_str(o, "fix", NULL, d->fix);
}

void view_monitor_event(struct out *o, const struct monitor_event *e, const char *time)
{
	char gid[64];

	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", view_monitor_kind(e->kind));
	out_str(o, "ifname", " %s", e->dev ? e->dev->name : e->qp ? e->qp->dev : NULL);
	if (e->port)
		out_u64(o, "port", "/%" PRIu64, e->port->num);
	else if (e->qp && e->qp->port)
		out_u64(o, "port", "/%" PRIu64, e->qp->port);
	switch (e->kind) {
	case MON_DEVICE_ADDED:
	case MON_DEVICE_REMOVED:
		out_str(o, "netdev", " netdev %s", *e->dev->netdev ? e->dev->netdev : NULL);
		break;
	case MON_PORT_STATE:
	case MON_NETDEV_STATE:
		if (e->kind == MON_NETDEV_STATE)
			out_str(o, "netdev", " %s", e->port->netdev);
		out_str(o, "from", " %s", e->from);
		out_str(o, "to", " -> %s", e->to);
		break;
	case MON_NETDEV_MTU:
		out_str(o, "netdev", " %s", e->port->netdev);
		out_s64(o, "from", " mtu %" PRId64, e->from_mtu);
		out_s64(o, "to", " -> %" PRId64, e->to_mtu);
		break;
	case MON_GID_ADDED:
	case MON_GID_REMOVED:
		model_gid_to_sysfs(e->gid->raw, gid);
		out_u64(o, "index", " index %" PRIu64, e->gid->index);
		out_str(o, "gid", " %s", gid);
		out_str(o, "type", " %s", *e->gid->type ? e->gid->type : NULL);
		break;
	case MON_QP_CREATED:
		qp_fields(o, e);
		out_str(o, "to", " in %s", e->to);
		diag_fields(o, e->diag);
		break;
	case MON_QP_DESTROYED:
		qp_fields(o, e);
		break;
	case MON_QP_STATE:
		qp_fields(o, e);
		out_str(o, "from", " %s", e->from);
		out_str(o, "to", " -> %s", e->to);
		diag_fields(o, e->diag);
		break;
	case MON_QP_STALLED:
		qp_fields(o, e);
		out_text(o, " resending with no answer");
		diag_fields(o, e->diag);
		break;
	case MON_COUNTER:
		out_str(o, "counter", " %s", e->counter);
		out_u64(o, "delta", " +%" PRIu64, e->delta);
		out_u64(o, "value", " (now %" PRIu64 ")", e->value);
		break;
	}
	out_nl(o);
	out_obj_close(o);
}

void view_monitor_started(struct out *o, const char *time, bool verbs, bool rdma_cm,
			  bool completions, bool qps, const char *why_not)
{
	out_obj_open(o, NULL);
	out_str(o, "time", "%s", time);
	out_str(o, "event", " %s", "monitor-started");
	out_obj_open(o, "sees");
	out_bool(o, "verbs", NULL, verbs);
	out_bool(o, "rdma_cm", NULL, rdma_cm);
	out_bool(o, "completions", NULL, completions);
	out_bool(o, "qps", NULL, qps);
	out_obj_close(o);
	out_str(o, "unseen", why_not ? ": not seen: %s" : NULL, why_not);
	out_nl(o);
	out_obj_close(o);
}
