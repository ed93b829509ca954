// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NCCL's NET/IB variables as NCCL reads them (src/misc/utils.cc's
 * parseStringList and matchIfList, src/transport/net_ib's ncclIbGetGidIndex
 * from 2.21): the ports NCCL_IB_HCA takes and the GID index each gets.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/gidrule.h"

#include "checks/stacks/internal.h"

struct nccl_if {
	char prefix[ITEM_LEN];
	int port;		/* -1: any */
};

/* NCCL's parseStringList: "name[:port],..." with empty names skipped. */
static int nccl_parse(const char *s, struct nccl_if *l, int max)
{
	int n = 0, c = 0;
	char ch;

	if (!s)
		return 0;
	do {
		ch = *s;
		if (ch == ':') {
			if (c > 0) {
				l[n].prefix[c] = '\0';
				l[n].port = atoi(s + 1);
				n++, c = 0;
			}
			while (ch != ',' && ch != '\0')
				ch = *++s;
		} else if (ch == ',' || ch == '\0') {
			if (c > 0) {
				l[n].prefix[c] = '\0';
				l[n].port = -1;
				n++, c = 0;
			}
		} else if (c < ITEM_LEN - 1) {
			l[n].prefix[c++] = ch;
		}
		s++;
	} while (n < max && ch);
	return n;
}

/* NCCL's matchIfList: a prefix of NAME (all of it with EXACT) and the port, when one is given. */
static bool nccl_match(const char *name, int port, const struct nccl_if *l, int n, bool exact)
{
	if (n == 0)
		return true;
	for (int i = 0; i < n; i++) {
		bool nm = exact ? !strcmp(name, l[i].prefix) :
				  !strncmp(name, l[i].prefix, strlen(l[i].prefix));

		if (nm && (l[i].port == -1 || port == -1 || l[i].port == port))
			return true;
	}
	return false;
}

/* Whether NCCL's list VALUE ('^' excludes, then '=' asks for exact names) takes NAME's PORT. */
static bool nccl_takes(const char *value, const char *name, int port)
{
	struct nccl_if l[MAX_ITEMS];
	bool negate = value && *value == '^', exact;
	int n;

	value += negate;
	exact = value && *value == '=';
	value += exact;
	n = nccl_parse(value, l, MAX_ITEMS);
	return nccl_match(name, port, l, n, exact) != negate;
}

/* An IPv4-mapped GID, or its multicast form (ff0e::ffff:a.b.c.d), is AF_INET to NCCL. */
static int nccl_family(const uint8_t *g)
{
	static const uint8_t v4[12] = { [10] = 0xff, [11] = 0xff };
	static const uint8_t mc[12] = { 0xff, 0x0e, [10] = 0xff, [11] = 0xff };

	return !memcmp(g, v4, 12) || !memcmp(g, mc, 12) ? AF_INET : AF_INET6;
}

/* NCCL's validGid: set (neither zeros nor a bare fe80::) and not link-local. */
static bool nccl_valid(const uint8_t *g)
{
	static const uint8_t zero[16];
	static const uint8_t ll[4] = { 0xfe, 0x80, 0, 0 };

	if (!memcmp(g, zero, 16) || (!memcmp(g, ll, 4) && !memcmp(g + 4, zero, 12)))
		return false;
	return !(!memcmp(g, ll, 4) && !memcmp(g + 4, zero, 4));
}

struct nccl_range {
	bool set;
	uint8_t addr[16];	/* IPv4 in the first 4 bytes */
	int len;
};

/* NCCL_IB_ADDR_RANGE as NCCL reads it for family AF: "addr/len", else no range. */
static void nccl_range(const char *s, int af, struct nccl_range *rg)
{
	char buf[128], *slash;
	long len;

	memset(rg, 0, sizeof(*rg));
	if (!s || !*s)
		return;
	snprintf(buf, sizeof(buf), "%s", s);
	slash = strchr(buf, '/');
	if (!slash)
		return;
	*slash++ = '\0';
	if (inet_pton(af, buf, rg->addr) != 1)
		return;
	len = strtol(slash, NULL, 10);
	if ((af == AF_INET && len > 32) || len > 128)
		return;
	rg->set = len > 0;
	rg->len = (int)len;
}

/* NCCL's matchGidAddrPrefix. */
static bool nccl_in_range(int af, const struct nccl_range *rg, const uint8_t *g)
{
	int len = rg->set ? rg->len : 0;

	for (int i = 0; len > 0 && i < 4;) {
		uint32_t base, addr, mask;

		memcpy(&base, rg->addr + (af == AF_INET ? 0 : 4 * i), 4);
		memcpy(&addr, g + (af == AF_INET ? 12 : 4 * i), 4);
		mask = htonl(len >= 32 ? 0xffffffffu : ~(0xffffffffu >> len));
		if ((base ^ addr) & mask)
			break;
		if (af == AF_INET || len <= 32) {
			len = 0;
			break;
		}
		len -= 32;
		i++;
	}
	return len == 0;
}

/* 1 when NCCL VERSION ("2.18.3") chooses a GID index itself (2.21 and later), 0 when not, -1: unknown. */
static int nccl_chooses(const char *version)
{
	unsigned int major, minor;

	if (!version || sscanf(version, "%u.%u", &major, &minor) != 2)
		return -1;
	return major > 2 || (major == 2 && minor >= 21);
}

/* The index NCCL 2.21 and later choose on P when NCCL_IB_GID_INDEX is -1 (ncclIbGetGidIndex). */
static int64_t nccl_auto_gid(const struct port *p, int af, int version,
			     const struct nccl_range *rg)
{
	int64_t cur = 0;

	for (int64_t c = 1; c < (int64_t)p->gid_tbl_len; c++) {
		const struct gid_slot *cs, *gs;
		const uint8_t *cand = stacks_gid_at(p, c, &cs), *gid = stacks_gid_at(p, cur, &gs);
		int cf = nccl_family(cand), gf = nccl_family(gid);
		bool in = nccl_in_range(af, rg, cand);

		if (cf != gf && cf == af && in) {
			cur = c;
			continue;
		}
		if (cf != af || !nccl_valid(cand) || !in)
			continue;
		if ((stacks_roce_version(gs) != stacks_roce_version(cs) || !nccl_valid(gid)) &&
		    stacks_roce_version(cs) == version)
			cur = c;
	}
	return cur;
}

/* The bootstrap's interfaces: the same list grammar, against the netdevs. */
static void bootstrap(struct run *r, const char *ifname)
{
	size_t k = 0;

	if (!ifname || !*ifname)
		return;
	while (k < r->in->nnetdevs && !nccl_takes(ifname, r->in->netdevs[k], -1))
		k++;
	if (k == r->in->nnetdevs)
		stacks_say_fmt(r, V_FAIL, "name a netdev here, as NCCL_SOCKET_IFNAME==NETDEV (an exact name)",
		    "NCCL: NCCL_SOCKET_IFNAME=%s takes none of the netdevs here: NCCL finds no "
		    "interface for its bootstrap and fails before any RDMA", ifname);
}

/* How many ports NCCL takes and how it picks their GIDs: family, RoCE version, nccl_chooses(). */
struct pick {
	size_t n;
	int af;
	long long version;
	int chooses;
};

/*
 * The GID index NCCL uses on each port of K, into IDX (NCCL's own choice
 * there already), and in HOW (LEN bytes) why; false when NCCL_IB_GID_INDEX
 * cannot be taken, said with FIX.
 */
static bool gid_index(struct run *r, const struct pick *k, int64_t *idx, const char *fix,
		      char *how, size_t len)
{
	const char *gidv = stacks_env(r, "NCCL_IB_GID_INDEX");
	const char *ver = k->chooses >= 0 ? r->in->nccl : "";
	long long num;

	if (gidv && *gidv) {
		if (!stacks_c_number(gidv, &num)) {
			stacks_say_fmt(r, V_FAIL, fix, "NCCL: NCCL_IB_GID_INDEX=%s holds no number: NCCL reads none "
			    "from it", gidv);
			return false;
		}
		if (num >= 0) {
			for (size_t i = 0; i < k->n; i++)
				idx[i] = num;
			snprintf(how, len, "NCCL_IB_GID_INDEX=%s", gidv);
		} else if (k->chooses == 0) {
			/* Before 2.21 the value is the index ibv_query_gid is asked for. */
			stacks_say_fmt(r, V_FAIL, fix, "NCCL: NCCL_IB_GID_INDEX=%s is no index for NCCL %s, "
			    "which chooses none of its own before 2.21: its ibv_query_gid of it fails",
			    gidv, r->in->nccl);
			return false;
		} else {
			snprintf(how, len, "NCCL_IB_GID_INDEX=%s: NCCL%s%s chooses, for %s RoCE "
				 "v%lld", gidv, *ver ? " " : "", ver, k->af == AF_INET ? "AF_INET" : "AF_INET6",
				 k->version);
		}
	} else if (k->chooses == 0) {
		for (size_t i = 0; i < k->n; i++)
			idx[i] = 0;
		snprintf(how, len, "NCCL %s takes index 0 where NCCL_IB_GID_INDEX is unset",
			 r->in->nccl);
	} else {
		snprintf(how, len, "chosen by NCCL %s for %s RoCE v%lld, NCCL_IB_GID_INDEX unset",
			 k->chooses > 0 ? r->in->nccl : "2.21 and later", k->af == AF_INET ? "AF_INET" : "AF_INET6",
			 k->version);
	}
	return true;
}

void stacks_nccl(struct run *r)
{
	static const char *const vars[] = { "NCCL_IB_HCA", "NCCL_IB_GID_INDEX", "NCCL_IB_ADDR_FAMILY",
		"NCCL_IB_ADDR_RANGE", "NCCL_IB_ROCE_VERSION_NUM", "NCCL_IB_DISABLE",
		"NCCL_SOCKET_IFNAME", NULL };
	const char *hca = stacks_env(r, "NCCL_IB_HCA"), *gidv = stacks_env(r, "NCCL_IB_GID_INDEX");
	const char *famv = stacks_env(r, "NCCL_IB_ADDR_FAMILY"), *ifname = stacks_env(r, "NCCL_SOCKET_IFNAME");
	const char *verv = stacks_env(r, "NCCL_IB_ROCE_VERSION_NUM"), *dis = stacks_env(r, "NCCL_IB_DISABLE");
	struct sport act[MAX_PORTS], v[MAX_PORTS];
	int64_t idx[MAX_PORTS];
	char list[512], uses[1024], how[256], fix[160];
	size_t nact = stacks_active_ports(r, act), n = 0;
	int af = AF_INET;
	long long num, version = 2;
	struct nccl_range rg;
	bool any = false;
	/*
	 * Whether this NCCL chooses a GID index itself (2.21 and later: -1, the
	 * default) or takes NCCL_IB_GID_INDEX as it is (before: 0, the default):
	 * 1 or 0 by the version it has mapped, -1 where that is not known.
	 */
	int chooses = nccl_chooses(r->in->nccl);

	for (int i = 0; vars[i]; i++)
		any |= stacks_env(r, vars[i]) != NULL;
	if (!any)
		return;
	bootstrap(r, ifname);
	if (dis && *dis && stacks_c_number(dis, &num) && num) {
		stacks_say_fmt(r, V_WARN, "unset NCCL_IB_DISABLE for NCCL to use the RDMA devices",
		    "NCCL: NCCL_IB_DISABLE=%s: NCCL uses its socket transport, no RDMA device", dis);
		return;
	}
	/* NCCL_IB_HCA: the active ports it takes; unset or empty, all of them. */
	for (size_t i = 0; i < nact; i++)
		if (!hca || nccl_takes(hca, act[i].d->name, (int)act[i].p->num))
			v[n++] = act[i];
	stacks_ports_text(act, nact, list, sizeof(list));
	if (!n) {
		snprintf(fix, sizeof(fix), "NCCL_IB_HCA=%s%s (a prefix; '=' for exact names)",
			 nact ? "=" : "", nact ? act[0].d->name : "");
		stacks_say_fmt(r, V_FAIL, nact ? fix : "rdmactl up NETDEV: make an rxe link",
		    "NCCL: NCCL_IB_HCA=%s takes no active RDMA port here (%s): NCCL finds no IB "
		    "device and falls back to sockets", hca ? hca : "", list);
		return;
	}
	if (famv && *famv)
		af = !strcmp(famv, "AF_INET6") ? AF_INET6 : AF_INET;
	if (famv && *famv && strcmp(famv, "AF_INET") && strcmp(famv, "AF_INET6"))
		stacks_say_fmt(r, V_WARN, "NCCL_IB_ADDR_FAMILY=AF_INET or AF_INET6",
		    "NCCL: NCCL_IB_ADDR_FAMILY=%s is neither AF_INET nor AF_INET6: NCCL keeps AF_INET",
		    famv);
	if (verv && *verv && stacks_c_number(verv, &num))
		version = num;
	nccl_range(stacks_env(r, "NCCL_IB_ADDR_RANGE"), af, &rg);
	for (size_t i = 0; i < n; i++)
		idx[i] = nccl_auto_gid(v[i].p, af, (int)version, &rg);
	snprintf(fix, sizeof(fix), "NCCL_IB_GID_INDEX=%" PRId64 "%s", idx[0], chooses == 0 ? "" :
		 ", or unset it (NCCL 2.21 and later choose)");
	if (!gid_index(r, &(struct pick){ n, af, version, chooses }, idx, fix, how, sizeof(how)))
		return;
	if (!stacks_gids_ok(r, "NCCL", v, n, idx, how, fix, V_FAIL))
		return;
	stacks_uses_text(v, n, idx, uses, sizeof(uses));
	/* Unset, NCCL before 2.21 takes index 0: said when 0 is not right here and the version unknown. */
	if (!(gidv && *gidv) && chooses < 0) {
		char why[256];

		for (size_t i = 0; i < n; i++)
			if (!model_gidrule(v[i].d->name, v[i].p, 0, "index 0", false, why,
					    sizeof(why))) {
				stacks_say_fmt(r, V_WARN, fix, "NCCL: uses %s (%s); but NCCL before 2.21 takes "
				    "index 0 where it is not set, and on %s %s", uses, how,
				    v[i].d->name, why);
				return;
			}
	}
	stacks_say_fmt(r, V_PASS, NULL, "NCCL: uses %s (%s)", uses, how);
}

