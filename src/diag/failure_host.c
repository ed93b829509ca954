// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which of the host's checks tells each cause of a failure, and how far its
 * verdict goes: a check that fails or warns shows the cause here; one that
 * passes clears it, unless the cause may lie where the check does not look
 * (with the peer, with another user, in the program's own limits where the
 * check reads this shell's). explain ranks the causes by these verdicts.
 * Every id is one the entry's "tells which" names, so explain runs it
 * (held by src/tests/test_failure.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "diag/failure.h"

struct rests {
	enum diag_failure_kind kind;
	const char *name;
	const char *check[DIAG_FAILURE_CAUSES];	/* for causes[i]; NULL: none tells it */
	/* Why check[i]'s pass clears nothing of causes[i]; NULL: a pass clears it. */
	const char *short_of[DIAG_FAILURE_CAUSES];
};

#define WC DIAG_FAILURE_WC_STATUS
#define ER DIAG_FAILURE_ERRNO
#define KL DIAG_FAILURE_KERNEL_LOG
#define MSG DIAG_FAILURE_MESSAGE

/* Why a pass clears nothing. */
#define PEER "it sees this end, not the peer's"
#define LIMIT "it reads this shell's limit, not the program's own (a service's, a container's)"
#define GID0 "it is held at index 0, not the index the program gave"
#define HOST "it sees this host's, not a container's"
#define USER "it sees this user's access, not the program's user's or its container's"

static const struct rests table[] = {
	/* A firewall, a namespace or -g 0 at either end: this end's checks see their half. */
	{ WC, "IBV_WC_RETRY_EXC_ERR", { "firewall", "netns", "gid-index" },
	  { PEER, PEER, GID0 " (nor the peer's)" } },
	{ KL, "retransmit timer fired", { NULL, "firewall", "netns" }, { NULL, PEER, PEER } },
	/* The nodes as this user sees them, not as the program's user or container did. */
	{ ER, "ENOENT", { "uverbs", "uverbs", "modules" }, { USER, USER } },
	{ ER, "EACCES", { "uverbs", "uverbs" }, { USER, USER } },
	{ ER, "EPROTO", { NULL, "modules" }, { NULL } },
	{ ER, "ENOEXEC", { "modules" }, { NULL } },
	{ ER, "EKEYREJECTED", { "modules" }, { NULL } },
	/*
	 * The GID index check is held at index 0: it shows that 0 is no RoCE v2
	 * IPv4 GID here, and its pass says nothing of the index the program gave.
	 */
	{ MSG, "Failed to modify QP to RTR", { "gid-index" }, { GID0 } },
	{ MSG, "Failed to modify QP %d to RTR", { "gid-index" }, { GID0 } },
	{ MSG, "failed to modify QP state to RTR", { NULL, "gid-index" }, { NULL, GID0 } },
	/* The memlock check reads this shell's limit; the program may have had another. */
	{ MSG, "Couldn't register MR", { "memlock" }, { LIMIT } },
	{ MSG, "libibverbs: Warning: RLIMIT_MEMLOCK is %llu bytes.", { "memlock" }, { LIMIT } },
	{ MSG, "Couldn't allocate MR", { "memlock" }, { LIMIT } },
	{ MSG, "failed to reg MR", { "memlock" }, { LIMIT } },
	{ MSG, "buf reg_mr failed", { "memlock" }, { LIMIT } },
	{ MSG, "unable to create QP", { NULL, "memlock" }, { NULL, LIMIT } },
	{ MSG, "Please set max locked memory (ulimit -l) to 'unlimited' (current: %llu kbytes)",
	  { "memlock" }, { LIMIT } },
	{ MSG, "Failed to get IB devices list", { "modules", "kernel" }, { NULL } },
	{ MSG, "Failed to open device", { "uverbs", "uverbs", "uverbs" }, { USER, USER, USER } },
	{ MSG, "libibverbs: Warning: no userspace device-specific driver found for %s",
	  { "provider", "provider" }, { HOST, HOST } },
	{ MSG, "libibverbs: Warning: couldn't load driver '%s'", { "provider" }, { NULL } },
	{ MSG, "libibverbs: Warning: couldn't open config directory '%s'.", { "provider" },
	  { HOST } },
	{ MSG, "Driver %s does not support the kernel ABI of %u (supports %u to %u) for device %s",
	  { "provider" }, { NULL } },
	{ MSG, "failed to create RDMA CM event channel", { "modules", "uverbs", "uverbs" },
	  { NULL, USER, USER } },
	{ MSG, "No OpenFabrics connection schemes reported that they were able to be",
	  { "modules" }, { NULL } },
	{ MSG, "Unable to find the Infiniband/RoCE device", { NULL, "link" }, { NULL, HOST } },
	{ MSG, "Found Incompatibility issue with GID types.", { "gid-index" }, { GID0 } },
	{ MSG, "rdma_getaddrinfo: %s", { "link" }, { HOST } },
	{ MSG, "Unexpected CM event bl blka %d", { NULL, "firewall", "netns" },
	  { NULL, PEER, PEER } },
	{ MSG, "Call to ibv_modify_qp failed with %d %s, %s", { "gid-index" }, { GID0 } },
	{ MSG, "Call to ibv_reg_mr failed with error %s", { "memlock" }, { LIMIT } },
	{ MSG, "Call to ibv_create_cq failed with error %s", { "memlock" }, { LIMIT } },
	{ MSG, "NET/IB : No device found.", { "link", NULL, "provider" }, { HOST, NULL, HOST } },
	/* The module loader's and modprobe's: the modules' state now. */
	{ MSG, "%s: Unknown symbol %s (err %d)", { "modules", "modules" }, { NULL } },
	{ MSG, "%s: disagrees about version of symbol %s", { "modules" }, { NULL } },
	{ MSG, "%s: version magic '%s' should be '%s'", { "modules" }, { NULL } },
	{ MSG, "%s: module verification failed: signature and/or required key missing - "
	  "tainting kernel", { "modules" }, { NULL } },
	{ MSG, "Loading of %s is rejected", { "modules" }, { NULL } },
	{ MSG, "Module %s not found in directory %s", { "modules", "modules" }, { NULL } },
	{ MSG, "Unknown symbol in module, or unknown parameter (see dmesg)", { "modules" }, { NULL } },
	{ MSG, "Invalid module format", { "modules" }, { NULL } },
	{ MSG, "failed to add %s", { "modules" }, { NULL } },
};

#define NTABLE (sizeof(table) / sizeof(table[0]))

static const struct rests *find(const struct diag_failure *f)
{
	for (size_t i = 0; i < NTABLE; i++)
		if (table[i].kind == f->kind && !strcmp(table[i].name, f->name))
			return &table[i];
	return NULL;
}

const char *diag_failure_rests(const struct diag_failure *f, size_t i, const char **short_of)
{
	const struct rests *r = find(f);

	if (!r || i >= DIAG_FAILURE_CAUSES)
		return NULL;
	if (short_of)
		*short_of = r->short_of[i];
	return r->check[i];
}

size_t diag_failure_rank(const struct diag_failure *f,
			  enum diag_failure_standing (*standing)(const char *id, void *arg),
			  void *arg, struct diag_failure_ranked out[DIAG_FAILURE_CAUSES])
{
	const struct rests *r = find(f);
	enum diag_failure_standing s[DIAG_FAILURE_CAUSES];
	size_t n = 0, k = 0;

	for (; n < DIAG_FAILURE_CAUSES && f->causes[n]; n++) {
		s[n] = r && r->check[n] && standing ? standing(r->check[n], arg) : DIAG_FAILURE_OPEN;
		if (s[n] == DIAG_FAILURE_CLEARED && r->short_of[n])
			s[n] = DIAG_FAILURE_OPEN;
	}
	for (int group = DIAG_FAILURE_SHOWN; group <= DIAG_FAILURE_CLEARED; group++)
		for (size_t i = 0; i < n; i++)
			if (s[i] == (enum diag_failure_standing)group)
				out[k++] = (struct diag_failure_ranked){ .cause = i, .standing = s[i] };
	return n;
}

const char *diag_failure_standing_name(enum diag_failure_standing s)
{
	return s == DIAG_FAILURE_SHOWN ? "shown" : s == DIAG_FAILURE_CLEARED ? "cleared" : "open";
}

bool diag_failure_rests_row(size_t i, enum diag_failure_kind *kind, const char **name)
{
	if (i >= NTABLE)
		return false;
	*kind = table[i].kind;
	*name = table[i].name;
	return true;
}
