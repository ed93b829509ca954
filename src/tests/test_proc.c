// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests for kernel/proc.c's parsers, over text as /proc/PID gives it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "tests/unit.h"

#include "kernel/container.h"
#include "kernel/proc.h"

static void caps(void **state)
{
	bool has;

	(void)state;
	/* root's full set, then a user's empty one */
	assert_true(proc_parse_cap("Name:\tx\nCapInh:\t0\nCapEff:\t000001ffffffffff\n", 14, &has));
	assert_true(has);
	assert_true(proc_parse_cap("Name:\tx\nCapEff:\t0000000000000000\nCapBnd:\t1\n", 14, &has));
	assert_false(has);
	assert_true(proc_parse_cap("Name:\tx\nCapEff:\t0000000000004000\n", 14, &has));
	assert_true(has);
	assert_false(proc_parse_cap("Name:\tx\nCapBnd:\tffff\n", 14, &has));
	assert_false(proc_parse_cap("Name:\tx\nCapEff:\tzz\n", 14, &has));
}

static void memlock(void **state)
{
	uint64_t soft, hard;

	(void)state;
	assert_true(proc_parse_memlock("Max core file size        0                    unlimited            bytes\n"
				       "Max locked memory         65536                65536                bytes\n",
				       &soft, &hard));
	assert_int_equal(soft, 65536);
	assert_int_equal(hard, 65536);
	assert_true(proc_parse_memlock("Max locked memory         unlimited            unlimited            bytes\n",
				       &soft, &hard));
	assert_true(soft == PROC_UNLIMITED && hard == PROC_UNLIMITED);
	assert_false(proc_parse_memlock("Max open files            1024                 4096                 files\n",
					&soft, &hard));
	assert_false(proc_parse_memlock("Max locked memory         lots                 65536 bytes\n",
					&soft, &hard));
}

static void verbs(void **state)
{
	bool rxe;

	(void)state;
	assert_int_equal(proc_parse_verbs("7f1 r-xp 0 08:01 5 /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0\n"
					  "7f2 r-xp 0 08:01 6 /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so\n",
					  &rxe), 44);
	assert_true(rxe);
	assert_int_equal(proc_parse_verbs("7f1 r-xp 0 08:01 5 /usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.56.0\n",
					  &rxe), 56);
	assert_false(rxe);
	assert_int_equal(proc_parse_verbs("7f1 r-xp 0 08:01 5 /usr/lib/x86_64-linux-gnu/libc.so.6\n", &rxe), 0);
	assert_int_equal(proc_parse_verbs("7f1 r-xp 0 08:01 5 /x/libibverbs.so.1.bad\n", &rxe), 0);
}

/* stat's state and PF_KTHREAD, past a command holding spaces and parentheses. */
static void stat_line(void **state)
{
	bool kt = false, z = false;

	(void)state;
	assert_true(proc_parse_stat("2 (kthreadd) S 0 0 0 0 -1 2129984 0 0", &kt, &z));
	assert_true(kt);
	assert_false(z);
	assert_true(proc_parse_stat("77 (a) b (c)) Z 1 77 77 0 -1 4194560 0", &kt, &z));
	assert_false(kt);
	assert_true(z);
	assert_true(proc_parse_stat("9 (x) X 1 9 9 0 -1 0", &kt, &z));
	assert_true(z);
	assert_false(proc_parse_stat("", &kt, &z));
	assert_false(proc_parse_stat("9 (x", &kt, &z));
	assert_false(proc_parse_stat("9 (x) S 1", &kt, &z));
}

/* ns/user's link: the initial namespace's inode is fixed, any other is a namespace of its own. */
static void user_namespace(void **state)
{
	bool init = false;

	(void)state;
	assert_true(proc_parse_userns("user:[4026531837]", &init));
	assert_true(init);
	assert_true(proc_parse_userns("user:[4026532177]", &init));
	assert_false(init);
	assert_false(proc_parse_userns("net:[4026531837]", &init));
	assert_false(proc_parse_userns("user:[4026531837", &init));
	assert_false(proc_parse_userns("user:[]", &init));
	assert_false(proc_parse_userns("", &init));
}

/* Whose container a process is in, by the cgroup its runtime made: each runtime's two forms. */
static void engines(void **state)
{
	static const struct {
		const char *cgroup;
		enum container_kind k;
		bool rootless;
	} cases[] = {
		{ "0::/system.slice/docker-4f1b.scope\n", CONTAINER_DOCKER, false },
		{ "12:pids:/docker/4f1b\n0::/docker/4f1b\n", CONTAINER_DOCKER, false },
		{ "0::/machine.slice/libpod-9a8b.scope/container\n", CONTAINER_PODMAN, false },
		{ "0::/user.slice/user-1000.slice/user@1000.service/user.slice/libpod-9a8b.scope\n",
		  CONTAINER_PODMAN, true },
		{ "0::/kubepods.slice/kubepods-besteffort.slice/cri-containerd-1.scope\n",
		  CONTAINER_KUBERNETES, false },
		{ "0::/user.slice/user-0.slice/session-3.scope\n", CONTAINER_NONE, false },
		{ "", CONTAINER_NONE, false },
	};
	bool rootless;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(container_parse_cgroup(cases[i].cgroup, &rootless), cases[i].k);
		assert_int_equal(rootless, cases[i].rootless);
	}
}

/* Whose user namespace this process is in, by its uid map: the host's, a remapping, a user's own. */
static void own_namespace(void **state)
{
	static const struct {
		const char *map;
		bool own, rootless;
	} cases[] = {
		{ "         0          0 4294967295\n", false, false },
		{ "         0     100000      65536\n", true, false },
		{ "         0       1001          1\n         1     100000      65536\n", true, true },
		{ "", false, false },
	};
	char root[] = "/tmp/rdmactl-test-XXXXXX", path[256];

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "%s/proc", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/self", root);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/proc/self/uid_map", root);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fputs(cases[i].map, f);
		fclose(f);
		assert_int_equal(container_userns_own(root), cases[i].own);
		assert_int_equal(container_rootless(root), cases[i].rootless);
	}
	snprintf(path, sizeof(path), "rm -rf %s", root);
	assert_int_equal(system(path), 0);
}

/* NCCL by the version its file is named by; none from a name without one, or a longer one. */
static void nccl(void **state)
{
	char v[16];

	(void)state;
	assert_true(proc_parse_nccl("7f00-7f01 r-xp 0 08:01 1 /usr/lib/libnccl.so.2.18.3\n", v,
				    sizeof(v)));
	assert_string_equal(v, "2.18.3");
	assert_true(proc_parse_nccl("a\n7f00-7f01 r-xp 0 08:01 1 /opt/libnccl.so.2\n"
				    "7f00-7f01 r-xp 0 08:01 1 /usr/lib/libnccl.so.2.21.5", v, sizeof(v)));
	assert_string_equal(v, "2.21.5");
	assert_false(proc_parse_nccl("7f00-7f01 r-xp 0 08:01 1 /venv/nvidia/nccl/lib/libnccl.so.2\n",
				     v, sizeof(v)));
	assert_string_equal(v, "");
	assert_false(proc_parse_nccl("7f00-7f01 r-xp 0 08:01 1 /x/libnccl.so.2.18.3.bak\n", v,
				     sizeof(v)));
	assert_false(proc_parse_nccl("", v, sizeof(v)));
}

/* Where the cgroup names no runtime, the marker in the process's own root does; ours is no marker. */
static void engine_markers(void **state)
{
	char root[] = "/tmp/rdmactl-test-XXXXXX", path[256];
	bool rootless;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(root));
	snprintf(path, sizeof(path), "mkdir -p %s/proc/42/root/run && echo 0::/ >%s/proc/42/cgroup",
		 root, root);
	assert_int_equal(system(path), 0);
	assert_int_equal(container_of_pid(root, 42, &rootless), CONTAINER_NONE);
	snprintf(path, sizeof(path), "%s/proc/42/root/run/.containerenv", root);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(container_of_pid(root, 42, &rootless), CONTAINER_PODMAN);
	assert_false(rootless);
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc/42/root/.dockerenv", root);
	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(container_of_pid(root, 42, &rootless), CONTAINER_DOCKER);
	/* Its root is ours (a symbolic link to it): the host's markers are not its container's. */
	snprintf(path, sizeof(path), "rm -rf %s/proc/42/root && ln -s ../.. %s/proc/42/root && "
		 "touch %s/.dockerenv", root, root, root);
	assert_int_equal(system(path), 0);
	assert_int_equal(container_of_pid(root, 42, &rootless), CONTAINER_NONE);
	snprintf(path, sizeof(path), "rm -rf %s", root);
	assert_int_equal(system(path), 0);
}

static void environment(void **state)
{
	char env[] = "PATH=/bin\0NCCL_IB_GID_INDEX=0\0NCCL_IB_GID=9\0UCX=\0";
	struct proc_info p = { .env = env, .env_len = sizeof(env) - 1, .env_known = true };

	(void)state;
	assert_string_equal(proc_env(&p, "NCCL_IB_GID_INDEX"), "0");
	assert_string_equal(proc_env(&p, "UCX"), "");
	assert_null(proc_env(&p, "NCCL_IB"));
	assert_null(proc_env(&p, "HOME"));
}

static int collect(void *arg, const char *name)
{
	char *buf = arg;

	strcat(buf, name);
	strcat(buf, ",");
	return 0;
}

static void netdevs(void **state)
{
	char got[128] = "";

	(void)state;
	/* As 6.1 prints it: two lines of heading, then a netdev a line. */
	assert_int_equal(proc_parse_netdevs(
		"Inter-|   Receive                            |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes\n"
		"    lo:       0       0    0    0    0     0          0         0        0\n"
		"  eth0: 1296     12    0    0    0     0          0         0     1016\n", collect, got), 0);
	assert_string_equal(got, "lo,eth0,");
	/* Another file's text, or a line with no name, is none of this. */
	assert_int_equal(proc_parse_netdevs("MemTotal: 1\n", collect, got), -EINVAL);
	assert_int_equal(proc_parse_netdevs("Inter-|\n face |\n no colon here\n", collect, got), -EINVAL);
	/* Headings alone: no netdev. */
	got[0] = '\0';
	assert_int_equal(proc_parse_netdevs("Inter-|\n face |\n", collect, got), 0);
	assert_string_equal(got, "");
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(netdevs),
		cmocka_unit_test(caps),
		cmocka_unit_test(memlock),
		cmocka_unit_test(verbs),
		cmocka_unit_test(environment),
		cmocka_unit_test(stat_line),
		cmocka_unit_test(user_namespace),
		cmocka_unit_test(engines),
		cmocka_unit_test(engine_markers),
		cmocka_unit_test(nccl),
		cmocka_unit_test(own_namespace),
	};

	unit_filter(argc, argv);
	return cmocka_run_group_tests_name("proc", tests, NULL, NULL);
}
