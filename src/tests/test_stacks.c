// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for the stacks' variables read by each stack's rules, on a
 * fixture captured in the bed: NCCL_IB_HCA's list grammar against every
 * list generated from a set of words, ports and flags, with the ports it
 * must take worked out from the grammar as NCCL's documentation states it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "checks/stacks.h"
#include "model/model.h"

static const char *fixture(const char *name)
{
	static char path[512];
	const char *dir = getenv("FIXTURES");

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "bats/fixtures", name);
	return path;
}

struct said {
	char text[8192];
	int n[4];		/* by verdict */
};

static const char *const *env_vars;

static const char *get(void *arg, const char *name)
{
	size_t len = strlen(name);

	(void)arg;
	for (const char *const *v = env_vars; *v; v++)
		if (!strncmp(*v, name, len) && (*v)[len] == '=')
			return *v + len + 1;
	return NULL;
}

static void say(void *arg, enum verdict v, const char *fix, const char *msg)
{
	struct said *s = arg;

	(void)fix;
	s->n[v]++;
	snprintf(s->text + strlen(s->text), sizeof(s->text) - strlen(s->text), "%s\n", msg);
}

static struct model m;
static const char *const netdevs[] = { "lo", "veth0", "veth1" };

static int run(const char *const *vars, struct said *s)
{
	struct stacks_in in = { .m = &m, .env = get, .netdevs = netdevs, .nnetdevs = 3 };

	memset(s, 0, sizeof(*s));
	env_vars = vars;
	return stacks_check(&in, say, s);
}

static int setup(void **state)
{
	(void)state;
	struct model_src src = { .root = fixture("two-netdevs") };

	return model_load(&src, NULL, (struct model_ask){ .gids = MODEL_GIDS_USED }, &m);
}

static int teardown(void **state)
{
	(void)state;
	model_free(&m);
	return 0;
}

/*
 * NCCL_IB_HCA, as NCCL's environment documentation states it: a list of
 * NAME[:PORT]; a NAME is a prefix of the device's name, or with '=' before
 * the list its whole name; '^' before it takes every device the list does
 * not; an empty NAME is no item, and a list of none takes every device.
 */
static bool oracle(const char *const *items, size_t n, bool negate, bool exact, const char *dev)
{
	bool any = false, hit = false;

	for (size_t i = 0; i < n; i++) {
		char name[32];
		const char *colon = strchr(items[i], ':');
		int port = colon ? atoi(colon + 1) : -1;

		snprintf(name, sizeof(name), "%.*s", (int)(colon ? colon - items[i] : 32), items[i]);
		if (!*name)
			continue;
		any = true;
		if ((exact ? !strcmp(dev, name) : !strncmp(dev, name, strlen(name))) &&
		    (port == -1 || port == 1))
			hit = true;
	}
	return (any ? hit : true) != negate;
}

static void nccl_hca_generated(void **state)
{
	static const char *const words[] = { "rxe0", "rxe1", "rxe", "r", "rxe01", "mlx5_0", "",
					     "rxe0:1", "rxe1:2", "rxe:1", ":1", "rxe0:" };
	const size_t nw = sizeof(words) / sizeof(words[0]);
	size_t tried = 0;

	(void)state;
	/* Every list of one to three words, with and without each flag. */
	for (size_t a = 0; a < nw; a++)
		for (size_t b = 0; b <= nw; b++)
			for (size_t c = 0; c <= nw; c += 3)
				for (int f = 0; f < 4; f++) {
					const char *items[3] = { words[a] };
					size_t n = 1;
					char hca[160], env0[200], want[512] = "";
					const char *vars[] = { env0, "NCCL_IB_GID_INDEX=1", NULL };
					bool negate = f & 1, exact = f & 2;
					struct said s;

					if (b < nw)
						items[n++] = words[b];
					if (c < nw && b < nw)
						items[n++] = words[c];
					snprintf(hca, sizeof(hca), "%s%s", negate ? "^" : "", exact ? "=" : "");
					for (size_t i = 0; i < n; i++)
						snprintf(hca + strlen(hca), sizeof(hca) - strlen(hca), "%s%s",
							 i ? "," : "", items[i]);
					snprintf(env0, sizeof(env0), "NCCL_IB_HCA=%s", hca);
					for (size_t d = 0; d < 2; d++) {
						const char *dev = d ? "rxe1" : "rxe0";

						if (oracle(items, n, negate, exact, dev))
							snprintf(want + strlen(want), sizeof(want) - strlen(want),
								 "%s%s port 1 with GID 1 (%s)", *want ? ", " : "",
								 dev, d ? "10.11.13.1" : "10.11.11.251");
					}
					assert_int_equal(run(vars, &s), 1);
					if (!*want) {
						if (!strstr(s.text, "takes no active RDMA port here"))
							fail_msg("NCCL_IB_HCA=%s: took a port: %s", hca, s.text);
					} else {
						char line[1024];

						snprintf(line, sizeof(line), "NCCL: uses %s (NCCL_IB_GID_INDEX=1)\n",
							 want);
						if (strcmp(s.text, line))
							fail_msg("NCCL_IB_HCA=%s: want '%s', said '%s'", hca, line,
								 s.text);
					}
					tried++;
				}
	assert_true(tried > 1000);
}

/* A stack none of whose variables is set says nothing; each that has one says something. */
static void said_per_stack(void **state)
{
	const char *const none[] = { "PATH=/bin", "NCCLX=1", "UCX=1", "FI_VERBS=1", NULL };
	const char *const four[] = { "NCCL_IB_GID_INDEX=1", "UCX_TLS=rc_verbs", "FI_VERBS_IFACE=veth",
				     "OMPI_MCA_pml=ob1", NULL };
	struct said s;

	(void)state;
	assert_int_equal(run(none, &s), 0);
	assert_string_equal(s.text, "");
	assert_int_equal(run(four, &s), 4);
	assert_int_equal(s.n[V_FAIL], 0);
}

/* Edges of each number grammar: empty, not a number, the most, past it. */
static void numbers(void **state)
{
	static const struct {
		const char *var;
		int fails;
	} cases[] = {
		{ "NCCL_IB_GID_INDEX=", 0 },		/* empty: unset to NCCL */
		{ "NCCL_IB_GID_INDEX=x", 1 },
		{ "NCCL_IB_GID_INDEX=1x", 0 },		/* strtoll reads the 1 */
		{ "NCCL_IB_GID_INDEX=0x2", 0 },		/* hex: index 2, on both a GID */
		{ "NCCL_IB_GID_INDEX=0x3", 1 },		/* index 3: rxe1 has none */
		{ "NCCL_IB_GID_INDEX=1023", 2 },	/* the last slot: empty on both */
		{ "NCCL_IB_GID_INDEX=99999999999999999999", 1 },	/* past long long */
		{ "UCX_IB_GID_INDEX=-1", 1 },
		{ "UCX_IB_GID_INDEX=18446744073709551616", 1 },
		{ "FI_VERBS_GID_IDX=255", 0 },		/* a warning: DGRAM's, and empty */
		{ "FI_VERBS_GID_IDX=256", 1 },
	};
	struct said s;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *const vars[] = { cases[i].var, "UCX_UD_ETH_DGID_CHECK=n", NULL };

		run(vars, &s);
		if (s.n[V_FAIL] != cases[i].fails)
			fail_msg("%s: %d failures, want %d: %s", cases[i].var, s.n[V_FAIL],
				 cases[i].fails, s.text);
	}
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nccl_hca_generated),
		cmocka_unit_test(said_per_stack),
		cmocka_unit_test(numbers),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests(tests, setup, teardown);
}
