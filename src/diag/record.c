// SPDX-License-Identifier: GPL-2.0-or-later
/* The causes of refused calls and failed rdma_cm events, as record names them (record.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/gidrule.h"
#include "diag/failure.h"
#include "diag/record.h"
#include "kernel/errname.h"
#include "kernel/proc.h"
#include "model/gid.h"
#include "model/gidrule.h"

/* The catalogue's entry for the errno or event VALUE of KIND; NULL when it has none. */
static const struct diag_failure *catalogue(enum diag_failure_kind kind, int value)
{
	const struct diag_failure *all[512];
	size_t n = diag_failure_all(all, sizeof(all) / sizeof(all[0]));

	for (size_t i = 0; i < n; i++)
		if (all[i]->kind == kind && all[i]->value == value)
			return all[i];
	return NULL;
}

/* F's cause for VERB: the first of its causes that names it, else its first. */
static const char *cause_for(const struct diag_failure *f, const char *verb)
{
	size_t n = strlen(verb);

	for (size_t i = 0; f->causes[i]; i++)
		if (!strncmp(f->causes[i], verb, n) && (f->causes[i][n] == ':' ||
							 f->causes[i][n] == ' '))
			return f->causes[i];
	return f->causes[0];
}

/* The errno's catalogue causes, likely only: the request told nothing more. */
static void by_errno(const struct uverbs_call *c, int err, struct diag_record_verdict *v)
{
	const struct diag_failure *f = catalogue(DIAG_FAILURE_ERRNO, -err);
	const char *cause = f ? cause_for(f, c->verb) : NULL;

	v->sure = false;
	snprintf(v->cause, sizeof(v->cause), "%s", cause ? cause : f ? f->what : strerror(-err));
	snprintf(v->evidence, sizeof(v->evidence), "the kernel refused %s (%s) with %s",
		 c->verb, c->cmd, errname(err));
	snprintf(v->fix, sizeof(v->fix), "%s", f && f->tell ? f->tell : "");
}

/* The device whose port PORT is the request's: the only one M has; NULL when it is not one. */
static const struct port *only_port(const struct model *m, unsigned int num, const char **dev)
{
	if (!m || m->n != 1)
		return NULL;
	for (size_t k = 0; k < m->devs[0].nports; k++)
		if (m->devs[0].ports[k].num == num) {
			*dev = m->devs[0].name;
			return &m->devs[0].ports[k];
		}
	return NULL;
}

static const char *mtu_name(unsigned int mtu)
{
	static const char *const n[] = { "?", "256", "512", "1024", "2048", "4096" };

	return mtu < sizeof(n) / sizeof(n[0]) ? n[mtu] : "?";
}

/*
 * ibv_modify_qp to RTR refused with EINVAL, or ENODATA (a source GID index
 * whose slot is empty): the address vector, the path MTU. True when named.
 */
static bool rtr(const struct uverbs_call *c, int err, const struct model *m,
		struct diag_record_verdict *v)
{
	const char *dev = NULL;
	const struct port *p = only_port(m, c->port_num ? c->port_num : 1, &dev);
	const struct gid_slot *src;
	char why[256], dgid[64];
	int64_t best = -1;

	if (p && *p->netdev)
		best = model_port_ipv4_gid_index(p, p->netdev);
	model_gid_addr(c->dgid, dgid, sizeof(dgid));
	if ((c->attr_mask & UVERBS_QP_AV) && !c->is_global) {
		v->sure = true;
		snprintf(v->cause, sizeof(v->cause), "its address vector has no GRH (is_global 0): "
			 "RoCE addresses the peer by GID, so RTR needs one, with a source GID index");
		snprintf(v->evidence, sizeof(v->evidence), "ibv_modify_qp to RTR with "
			 "IBV_QP_AV, is_global 0, dlid %u, refused with %s", c->dlid, errname(err));
		if (best >= 0)
			snprintf(v->fix, sizeof(v->fix), "give the GID index on both sides: -g %" PRId64
				 " (perftest: -x %" PRId64 "), %s port %u's IPv4 GID", best, best,
				 dev, p->num);
		else
			snprintf(v->fix, sizeof(v->fix), "give the GID index on both sides (-g N, "
				 "perftest -x N): 'rdmactl gids' names the one to use");
		return true;
	}
	if ((c->attr_mask & UVERBS_QP_AV) && c->is_global && model_gid_is_zero(c->dgid)) {
		v->sure = true;
		snprintf(v->cause, sizeof(v->cause), "the destination GID is :: (the peer's GID was "
			 "never exchanged: the peer ran without a GID index)");
		snprintf(v->evidence, sizeof(v->evidence), "ibv_modify_qp to RTR with "
			 "IBV_QP_AV, dgid ::, source GID index %u, refused with %s",
			 c->sgid_index, errname(err));
		snprintf(v->fix, sizeof(v->fix), "give the peer a GID index too (-g N); "
			 "'rdmactl gids' names it");
		return true;
	}
	if ((c->attr_mask & UVERBS_QP_AV) && c->is_global && p &&
	    !model_gidrule(dev, p, c->sgid_index, "the source GID index", true, why,
			    sizeof(why))) {
		v->sure = true;
		/* libibverbs' examples pass their -1 of "no -g" as the byte 255. */
		snprintf(v->cause, sizeof(v->cause), "%s%s", why, c->sgid_index == 255 ?
			 " (255 is -1 as a byte: the program was given no GID index)" : "");
		snprintf(v->evidence, sizeof(v->evidence), "ibv_modify_qp to RTR with source GID "
			 "index %u, destination %s, refused with %s", c->sgid_index, dgid,
			 errname(err));
		if (best >= 0)
			snprintf(v->fix, sizeof(v->fix), "-g %" PRId64 " (perftest: -x %" PRId64
				 "): %s port %u's IPv4 GID", best, best, dev, p->num);
		return true;
	}
	src = p ? model_gidrule_slot(p, c->sgid_index) : NULL;
	if ((c->attr_mask & UVERBS_QP_AV) && c->is_global && src && model_gid_is_link_local(src->raw) &&
	    !model_gid_is_link_local(c->dgid)) {
		v->sure = true;
		snprintf(v->cause, sizeof(v->cause), "source GID index %u is %s's link-local fe80:: "
			 "GID, and the destination %s is not: no route between them", c->sgid_index,
			 dev, dgid);
		snprintf(v->evidence, sizeof(v->evidence), "ibv_modify_qp to RTR, source GID index "
			 "%u, destination %s, refused with %s", c->sgid_index, dgid, errname(err));
		if (best >= 0)
			snprintf(v->fix, sizeof(v->fix), "-g %" PRId64 " on both sides", best);
		return true;
	}
	if ((c->attr_mask & UVERBS_QP_PATH_MTU) && p && p->active_mtu > 0 && c->path_mtu <= 5 &&
	    (128 << c->path_mtu) > p->active_mtu) {
		v->sure = true;
		snprintf(v->cause, sizeof(v->cause), "the path MTU asked, %s, is above %s port "
			 "%u's active MTU, %d", mtu_name(c->path_mtu), dev, p->num, p->active_mtu);
		snprintf(v->evidence, sizeof(v->evidence), "ibv_modify_qp to RTR with path_mtu "
			 "%s, refused with %s", mtu_name(c->path_mtu), errname(err));
		snprintf(v->fix, sizeof(v->fix), "ask a path MTU of at most %d (the netdev's MTU "
			 "sets the port's: 'rdmactl show')", p->active_mtu);
		return true;
	}
	return false;
}

/* ibv_reg_mr refused with ENOMEM: the process's limit against what it registered. */
static bool memlock(const struct uverbs_call *c, const struct diag_record_proc *p,
		    struct diag_record_verdict *v)
{
	if (!p || !p->memlock_known || p->memlock_soft == UINT64_MAX || !p->caps_known ||
	    p->cap_ipc_lock)
		return false;
	v->sure = c->mr_length > p->memlock_soft;
	snprintf(v->cause, sizeof(v->cause), "the process's RLIMIT_MEMLOCK is %" PRIu64 " KiB and "
		 "it lacks CAP_IPC_LOCK: %s pins memory past it", p->memlock_soft / 1024,
		 v->sure ? "registering this region" : "this region with what it has pinned");
	snprintf(v->evidence, sizeof(v->evidence), "ibv_reg_mr of %" PRIu64 " bytes refused with "
		 "ENOMEM; RLIMIT_MEMLOCK %" PRIu64 " bytes, no CAP_IPC_LOCK", c->mr_length,
		 p->memlock_soft);
	snprintf(v->fix, sizeof(v->fix), "raise the limit where the program starts (ulimit -l "
		 "unlimited; a service's LimitMEMLOCK=infinity; docker run --ulimit memlock=-1), or "
		 "grant it CAP_IPC_LOCK");
	return true;
}

void diag_record_refused(const struct uverbs_call *c, int err, const struct model *m,
			 const struct diag_record_proc *p, struct diag_record_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (c->modify_qp && (err == -EINVAL || err == -ENODATA) && (c->attr_mask & UVERBS_QP_STATE) &&
	    c->qp_state == UVERBS_QPS_RTR && rtr(c, err, m, v))
		return;
	if (c->reg_mr && err == -ENOMEM && memlock(c, p, v))
		return;
	by_errno(c, err, v);
}

bool diag_record_wc(unsigned int status, const char **name, struct diag_record_verdict *v)
{
	const struct diag_failure *f = catalogue(DIAG_FAILURE_WC_STATUS, (int)status);

	memset(v, 0, sizeof(*v));
	*name = f ? f->name : NULL;
	if (!f)
		return false;
	snprintf(v->cause, sizeof(v->cause), "%s%s%s", f->what, f->causes[0] ? ": " : "",
		 f->causes[0] ? f->causes[0] : "");
	snprintf(v->evidence, sizeof(v->evidence), "its first completion in error, status %u "
		 "(%s), as rdma_rxe posted it", status, f->name);
	snprintf(v->fix, sizeof(v->fix), "%s", f->tell ? f->tell : "");
	return true;
}

bool diag_record_probe(const struct uverbs_call *c, int err)
{
	/* Its extended device query, asked of the kernel on every ibv_open_device. */
	return err == -ENOSPC && !strcmp(c->verb, "ibv_query_device");
}

bool diag_record_cm_event(const struct uverbs_cm_event *e, struct diag_record_verdict *v)
{
	const char *name = uverbs_cm_event_name(e->event);
	const struct diag_failure *f = catalogue(DIAG_FAILURE_CM_EVENT, (int)e->event);
	bool error = name && (strstr(name, "ERROR") || strstr(name, "UNREACHABLE") ||
			      strstr(name, "REJECTED") || strstr(name, "DEVICE_REMOVAL"));

	memset(v, 0, sizeof(*v));
	/* A disconnect or an address change is how a connection ends or moves, not a failure. */
	if (!error)
		return false;
	v->sure = false;
	snprintf(v->cause, sizeof(v->cause), "%s", f && f->causes[0] ? f->causes[0] :
		 f ? f->what : name);
	if (e->status < 0)
		snprintf(v->evidence, sizeof(v->evidence), "%s, status %d (%s)", name, e->status,
			 errname(e->status));
	else
		snprintf(v->evidence, sizeof(v->evidence), "%s, status %d", name, e->status);
	snprintf(v->fix, sizeof(v->fix), "%s", f && f->tell ? f->tell : "");
	/* REJECTED's status is the peer's reason: the catalogue names the two rxe gives. */
	if (f && e->event == 8 && e->status == 28 && f->causes[1])
		snprintf(v->cause, sizeof(v->cause), "%s", f->causes[1]);
	return true;
}

/* CAP_IPC_LOCK's bit in a capability set (linux/capability.h). */
#define CAP_IPC_LOCK_BIT 14

void diag_record_probed(const struct record_bpf_rec *b, const struct model *m,
			struct diag_record_proc *p, struct diag_probed *d)
{
	/* struct ib_uverbs_wc's status, opcode and vendor_err, after its 8-byte wr_id. */
	uint32_t wc[3];
	struct diag_record_proc here = { 0 };

	memset(d, 0, sizeof(*d));
	d->kind = b->kind;
	memcpy(d->comm, b->comm, 16);
	switch (b->kind) {
	case RECORD_BPF_WC:
		memcpy(wc, b->req + 8, sizeof(wc));
		d->status = wc[0];
		d->opcode = wc[1];
		d->vendor_err = wc[2];
		diag_record_wc(wc[0], &d->status_name, &d->v);
		d->failed = true;
		break;
	case RECORD_BPF_UVERBS_WRITE:
	case RECORD_BPF_UVERBS_IOCTL:
	case RECORD_BPF_UCMA_WRITE:
		uverbs_decode(b->kind == RECORD_BPF_UVERBS_WRITE ? UVERBS_VIA_WRITE :
			      b->kind == RECORD_BPF_UVERBS_IOCTL ? UVERBS_VIA_IOCTL : UVERBS_VIA_UCMA,
			      b->req, b->len, &d->call);
		if (!d->call.verb) {
			d->call.verb = "a call";
			snprintf(d->call.cmd, sizeof(d->call.cmd), "unread");
		}
		/* The process as the kernel judged the call: its limit and capabilities then. */
		if (!p)
			p = &here;
		p->memlock_known = true;
		p->memlock_soft = b->memlock;
		p->caps_known = true;
		p->cap_ipc_lock = b->userns == PROC_USER_INIT_INO &&
				  (b->cap_eff >> CAP_IPC_LOCK_BIT & 1);
		diag_record_refused(&d->call, b->ret, m, p, &d->v);
		d->probe = diag_record_probe(&d->call, b->ret);
		d->failed = !d->probe;
		break;
	case RECORD_BPF_UCMA_EVENT:
		d->ev_read = uverbs_cm_event(b->req, b->len, &d->ev);
		d->failed = d->ev_read && diag_record_cm_event(&d->ev, &d->v);
		break;
	}
}
