// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * UCX's variables as UCX reads them: allow lists ('^', "all", fnmatch
 * patterns; ucs/config/parser.c), the transport aliases of ucp_context.c,
 * and uct_ib_device_select_gid's choice of a GID index.
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/gid.h"

#include "checks/stacks/internal.h"

enum ucx_mode { UCX_ALL, UCX_ALLOW, UCX_NEGATE };

struct ucx_list {
	enum ucx_mode mode;
	int n;
	char item[MAX_ITEMS][ITEM_LEN];
	bool bad;		/* "all" beside other names: UCX refuses the value */
};

/* ucs_config_sscanf_allow_list: '^' negates the list; "all" first allows all, alone. */
static void ucx_parse(const char *s, struct ucx_list *l)
{
	memset(l, 0, sizeof(*l));
	if (!s) {
		l->mode = UCX_ALL;
		return;
	}
	l->mode = *s == '^' ? UCX_NEGATE : UCX_ALLOW;
	s += *s == '^';
	while (*s && l->n < MAX_ITEMS) {
		size_t len = strcspn(s, ",");

		if (len)
			snprintf(l->item[l->n++], ITEM_LEN, "%.*s", (int)len, s);
		s += len + (s[len] == ',');
	}
	if (l->n && !strcmp(l->item[0], "all")) {
		l->bad = l->n != 1;
		l->mode = UCX_ALL;
	}
}

/* Whether an item of L matches NAME as a pattern (ucs_config_names_search). */
static bool ucx_listed(const struct ucx_list *l, const char *name)
{
	for (int i = 0; i < l->n; i++)
		if (!fnmatch(l->item[i], name, 0))
			return true;
	return false;
}

static bool ucx_allows(const struct ucx_list *l, const char *name)
{
	return l->mode == UCX_ALL || (ucx_listed(l, name) == (l->mode == UCX_ALLOW));
}

/*
 * UCX's transport aliases that hold rxe's two transports (ucp_tl_aliases):
 * "rc" and "rc_v" bring ud_verbs as ":aux", for RC's connection set-up alone.
 */
static const struct {
	const char *alias;
	bool rc, ud, ud_aux;
} ucx_aliases[] = {
	{ "ib", true, true, false },
	{ "rc", true, false, true },
	{ "rc_v", true, false, true },
	{ "ud", false, true, false },
	{ "ud_v", false, true, false },
};

/*
 * Whether UCX_TLS's list L enables transport TL (rc_verbs or ud_verbs), by
 * name or alias; with AUX, an alias's ":aux" transport counts too.
 */
static bool ucx_tl(const struct ucx_list *l, const char *tl, bool aux)
{
	bool rc = !strcmp(tl, "rc_verbs"), found = false;

	if (l->mode == UCX_ALL)
		return true;
	for (int i = 0; i < l->n && !found; i++) {
		const char *w = l->item[i];
		size_t len = strcspn(w, ":");	/* "ud_verbs:aux" */

		found = strlen(tl) == len && !strncmp(w, tl, len);
		for (size_t k = 0; !found && k < sizeof(ucx_aliases) / sizeof(ucx_aliases[0]); k++)
			found = strlen(ucx_aliases[k].alias) == len &&
				!strncmp(w, ucx_aliases[k].alias, len) &&
				(rc ? ucx_aliases[k].rc : ucx_aliases[k].ud ||
				      ((aux || l->mode == UCX_NEGATE) && ucx_aliases[k].ud_aux));
	}
	return found == (l->mode == UCX_ALLOW);
}

/* ucs_config_sscanf_bool: y, yes, on, 1 and n, no, off, 0, in any case. */
static int ucx_bool(const char *s)
{
	static const char *const yes[] = { "y", "yes", "on", "1" }, *const no[] = { "n", "no", "off", "0" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i]))
			return 1;
		if (!strcasecmp(s, no[i]))
			return 0;
	}
	return -1;
}

/* The index uct_ib_device_select_gid takes on P: RoCE v2 IPv4, v2 IPv6, v1 IPv4, v1 IPv6; else 0. */
static int64_t ucx_auto_gid(const struct port *p)
{
	static const struct {
		int version;
		bool v4;
	} prio[] = { { 2, true }, { 2, false }, { 1, true }, { 1, false } };

	for (size_t k = 0; k < sizeof(prio) / sizeof(prio[0]); k++)
		for (size_t i = 0; i < p->ngids; i++) {
			const struct gid_slot *g = &p->gids[i];

			if (!g->empty && stacks_roce_version(g) == prio[k].version &&
			    model_gid_is_v4mapped(g->raw) == prio[k].v4)
				return g->index;
		}
	return 0;
}

static bool is_netdev(const struct run *r, const char *pattern)
{
	for (size_t i = 0; i < r->in->nnetdevs; i++)
		if (!fnmatch(pattern, r->in->netdevs[i], 0))
			return true;
	return false;
}

/* UCX_NET_DEVICES' names that match nothing UCX could list: each said, as V. */
static bool ucx_unknown(struct run *r, const char *value, const struct ucx_list *l, enum verdict v)
{
	bool ok = true;

	for (int i = 0; l->mode == UCX_ALLOW && i < l->n; i++) {
		const char *w = l->item[i];
		char name[ITEM_LEN + 16], fix[160] = "", list[512];
		const struct sport *down = NULL, *dev = NULL;
		struct sport act[MAX_PORTS];
		bool seen = false;

		for (size_t k = 0; k < r->nall; k++) {
			snprintf(name, sizeof(name), "%s:%" PRIu32, r->all[k].d->name, r->all[k].p->num);
			if (!fnmatch(w, name, 0)) {
				seen |= stacks_active(&r->all[k]);
				down = stacks_active(&r->all[k]) ? down : &r->all[k];
			}
			if (!strcmp(w, r->all[k].d->name))
				dev = &r->all[k];
		}
		if (seen || is_netdev(r, w))
			continue;
		ok = false;
		stacks_ports_text(act, stacks_active_ports(r, act), list, sizeof(list));
		if (down) {
			stacks_say_fmt(r, v, "rdmactl check --only link says why it is down",
			    "UCX: UCX_NET_DEVICES=%s names %s:%" PRIu32 ", whose port is not ACTIVE: UCX "
			    "lists active ports only", value, down->d->name, down->p->num);
			continue;
		}
		if (dev)
			snprintf(fix, sizeof(fix), "UCX_NET_DEVICES=%s:%" PRIu32, dev->d->name,
				 dev->p->num);
		stacks_say_fmt(r, v, *fix ? fix : "'rdmactl env' gives the settings for the links",
		    "UCX: UCX_NET_DEVICES=%s names '%s', a device UCX does not have here: UCX names "
		    "an RDMA port as DEVICE:PORT (here %s) and a netdev by its name, and says "
		    "\"network device '%s' is not available\"%s", value, w, list, w,
		    v == V_FAIL ? "" : " (it goes on with the others)");
	}
	return ok;
}

/*
 * The GID index UCX uses on each of the N ports V, into IDX, and in HOW
 * (HLEN bytes) why, with FIX (FLEN) the index to set; false when
 * UCX_IB_GID_INDEX cannot be taken, said.
 */
static bool gid_index(struct run *r, const struct sport *v, size_t n, int64_t *idx, char *fix,
		      size_t flen, char *how, size_t hlen)
{
	const char *gidv = stacks_env(r, "UCX_IB_GID_INDEX");
	unsigned long num;
	char *end;

	for (size_t i = 0; i < n; i++)
		idx[i] = ucx_auto_gid(v[i].p);
	snprintf(fix, flen, "UCX_IB_GID_INDEX=%" PRId64 ", or auto (UCX's default)", idx[0]);
	if (!gidv || !strcasecmp(gidv, "auto")) {
		snprintf(how, hlen, "chosen by UCX: UCX_IB_GID_INDEX %s", gidv ? gidv : "unset, auto");
		return true;
	}
	errno = 0;
	num = strtoul(gidv, &end, 10);
	if (end == gidv || *gidv == '-' || errno) {
		stacks_say_fmt(r, V_FAIL, fix, "UCX: UCX_IB_GID_INDEX=%s is neither a number nor auto: UCX "
		    "refuses the value and ucp_init fails", gidv);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		idx[i] = num > INT64_MAX ? INT64_MAX : (int64_t)num;
	snprintf(how, hlen, "UCX_IB_GID_INDEX=%s", gidv);
	return true;
}

void stacks_ucx(struct run *r)
{
	const char *devs = stacks_env(r, "UCX_NET_DEVICES"), *tls = stacks_env(r, "UCX_TLS");
	const char *gidv = stacks_env(r, "UCX_IB_GID_INDEX"), *dgid = stacks_env(r, "UCX_UD_ETH_DGID_CHECK");
	const char *pml = stacks_env(r, "OMPI_MCA_pml");
	struct sport act[MAX_PORTS], v[MAX_PORTS];
	struct ucx_list dl, tl;
	int64_t idx[MAX_PORTS];
	char uses[1024], how[128], fix[160];
	size_t nact = stacks_active_ports(r, act), n = 0;
	bool rc, ud, ud_aux, rxe = false;

	/* Open MPI's pml ucx runs UCX with whatever UCX_* the process has, defaults too. */
	if (!devs && !tls && !gidv && !dgid && !(pml && strstr(pml, "ucx") && *pml != '^'))
		return;
	ucx_parse(devs, &dl);
	ucx_parse(tls, &tl);
	if (dl.bad || tl.bad) {
		stacks_say_fmt(r, V_FAIL, "'all' alone, or the names without it",
		    "UCX: %s=%s puts 'all' beside other names: UCX refuses the value and "
		    "ucp_init fails", dl.bad ? "UCX_NET_DEVICES" : "UCX_TLS", dl.bad ? devs : tls);
		return;
	}
	rc = ucx_tl(&tl, "rc_verbs", false);
	ud = ucx_tl(&tl, "ud_verbs", false);
	ud_aux = !ud && rc && ucx_tl(&tl, "ud_verbs", true);
	if (!rc && !ud) {
		stacks_say_fmt(r, V_WARN, "UCX_TLS=self,rc_verbs,ud_verbs (what 'rdmactl env' sets) for RDMA",
		    "UCX: UCX_TLS=%s enables neither rc_verbs nor ud_verbs: UCX uses no RDMA device "
		    "(TCP or shared memory)", tls);
		return;
	}
	for (size_t i = 0; i < nact; i++) {
		char name[ITEM_LEN + 16];

		snprintf(name, sizeof(name), "%s:%" PRIu32, act[i].d->name, act[i].p->num);
		if (ucx_allows(&dl, name)) {
			v[n++] = act[i];
			rxe |= model_dev_is_rxe(act[i].d);
		}
	}
	/* A name UCX does not have: a warning UCX goes past, a failure when no port is left. */
	if (!ucx_unknown(r, devs, &dl, n ? V_WARN : V_FAIL) && !n)
		return;
	if (!n) {
		stacks_ports_text(act, nact, uses, sizeof(uses));
		stacks_say_fmt(r, V_WARN, "'rdmactl env' gives UCX_NET_DEVICES for the links",
		    "UCX: UCX_NET_DEVICES=%s leaves UCX no RDMA port (active here: %s): it uses TCP",
		    devs ? devs : "all", uses);
		return;
	}
	if (!gid_index(r, v, n, idx, fix, sizeof(fix), how, sizeof(how)))
		return;
	if (!stacks_gids_ok(r, "UCX", v, n, idx, how, fix, V_FAIL))
		return;
	stacks_uses_text(v, n, idx, uses, sizeof(uses));
	/*
	 * UD (and RC's connection set-up over UD) drops every rxe packet whose
	 * destination GID check fails: docs/stacks.md, every kernel of the bed.
	 */
	if (rxe && (ud || ud_aux) && (!dgid || ucx_bool(dgid) != 0)) {
		stacks_say_fmt(r, V_WARN, "UCX_UD_ETH_DGID_CHECK=n",
		    "UCX: uses %s (%s); but UCX_UD_ETH_DGID_CHECK is %s: UCX's UD, which RC's "
		    "connection set-up goes over, drops rxe's packets, and ucp_ep_create fails "
		    "'Destination is unreachable' or waits", uses, how,
		    dgid ? dgid : "unset (y)");
		return;
	}
	stacks_say_fmt(r, V_PASS, NULL, "UCX: uses %s (%s) with %s%s%s%s", uses, how, rc ? "rc_verbs" : "",
	    rc && ud ? " and " : "", ud ? "ud_verbs" : "",
	    ud_aux ? " (ud_verbs for its connection set-up)" : "");
}

