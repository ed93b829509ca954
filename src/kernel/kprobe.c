// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A doorbell from kernel functions' returns: one perf kprobe event per
 * function and CPU, each CPU's written into one ring, the rings polled
 * through one epoll descriptor. Samples carry nothing: a ring is only read
 * to be emptied.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "kernel/kprobe.h"
#include "kernel/sysfs.h"

#define KPROBE_PMU "/sys/bus/event_source/devices/kprobe"

struct kprobe_ring {
	int fd;			/* the CPU's first event: the others write here */
	struct perf_event_mmap_page *page;
};

struct kprobe_bell {
	int ep;
	int *fds;		/* every event, for closing */
	size_t nfds;
	struct kprobe_ring *rings;
	size_t nrings;
	size_t len;		/* each ring's mapping: the control page and one of data */
	char module[64];	/* "" for the kernel's own functions */
	ino_t module_ino;	/* /sys/module/MODULE's when the probes were made */
};

/* /sys/module/MODULE's inode: sysfs makes a new one each time it is loaded. 0: not loaded. */
static ino_t module_ino(const char *module)
{
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s", module);
	return stat(path, &st) ? 0 : st.st_ino;
}

/* The kprobe PMU's type and its retprobe bit in config, from sysfs. */
static int pmu(uint32_t *type, unsigned int *retbit)
{
	char buf[32];
	char *end;
	unsigned long v;

	if (sysfs_read("", buf, sizeof(buf), KPROBE_PMU "/type") < 0)
		return -ENODEV;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || end == buf || *end || v > UINT32_MAX)
		return -ENODEV;
	*type = (uint32_t)v;
	/* "config:0" in every kernel so far; read, not assumed. */
	if (sysfs_read("", buf, sizeof(buf), KPROBE_PMU "/format/retprobe") < 0 ||
	    strncmp(buf, "config:", 7))
		return -ENODEV;
	v = strtoul(buf + 7, &end, 10);
	if (end == buf + 7 || *end || v > 63)
		return -ENODEV;
	*retbit = (unsigned int)v;
	return 0;
}

static int event_open(uint32_t type, unsigned int retbit, const char *func, int cpu)
{
	struct perf_event_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.type = type;
	a.size = sizeof(a);
	a.config = 1ULL << retbit;
	a.config1 = (uint64_t)(uintptr_t)func;	/* kprobe_func */
	a.config2 = 0;				/* probe_offset */
	a.sample_period = 1;
	a.wakeup_events = 1;
	fd = syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

/* Keeps FD among B's events to close; -ENOMEM, FD closed, when it cannot. */
static int keep(struct kprobe_bell *b, int fd)
{
	int *v = reallocarray(b->fds, b->nfds + 1, sizeof(*v));

	if (!v) {
		close(fd);
		return -ENOMEM;
	}
	b->fds = v;
	b->fds[b->nfds++] = fd;
	return 0;
}

/* CPU's events for FUNCS into one ring, polled by B's epoll; -ENODEV for a CPU not there. */
static int arm_cpu(struct kprobe_bell *b, uint32_t type, unsigned int retbit,
		   const char *const *funcs, size_t n, int cpu)
{
	struct kprobe_ring *r, *v;
	struct epoll_event ev = { .events = EPOLLIN };
	int fd, err;

	fd = event_open(type, retbit, funcs[0], cpu);
	if (fd < 0)
		return fd;
	err = keep(b, fd);
	if (err)
		return err;
	v = reallocarray(b->rings, b->nrings + 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	b->rings = v;
	r = &b->rings[b->nrings];
	r->fd = fd;
	r->page = mmap(NULL, b->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->page == MAP_FAILED)
		return -errno;
	b->nrings++;
	ev.data.u64 = b->nrings - 1;
	if (epoll_ctl(b->ep, EPOLL_CTL_ADD, fd, &ev))
		return -errno;
	for (size_t i = 1; i < n; i++) {
		int f = event_open(type, retbit, funcs[i], cpu);

		if (f < 0)
			return f;
		err = keep(b, f);
		if (err)
			return err;
		if (ioctl(f, PERF_EVENT_IOC_SET_OUTPUT, fd))
			return -errno;
	}
	return 0;
}

/* The kernel says which function it could not find in two ways, depending on its age. */
static int translate(int err)
{
	return err == -EINVAL || err == -ENOENT ? -ENOENT : err == -EPERM ? -EACCES : err;
}

int kprobe_bell_open(struct kprobe_bell **out, const char *module, const char *const *funcs,
		     size_t n)
{
	struct kprobe_bell *b;
	uint32_t type;
	unsigned int retbit;
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	int err;

	*out = NULL;
	if (!n || !funcs)
		return -EINVAL;
	err = pmu(&type, &retbit);
	if (err)
		return err;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->len = 2 * (size_t)sysconf(_SC_PAGESIZE);
	if (module) {
		snprintf(b->module, sizeof(b->module), "%s", module);
		b->module_ino = module_ino(module);
	}
	b->ep = epoll_create1(EPOLL_CLOEXEC);
	if (b->ep < 0) {
		err = -errno;
		free(b);
		return err;
	}
	for (long cpu = 0; cpu < (cpus > 0 ? cpus : 1); cpu++) {
		err = arm_cpu(b, type, retbit, funcs, n, (int)cpu);
		if (err == -ENODEV)
			err = 0;	/* an offline CPU runs nothing */
		if (err)
			break;
	}
	if (!err && !b->nrings)
		err = -ENODEV;
	if (err) {
		kprobe_bell_close(b);
		return translate(err);
	}
	*out = b;
	return 0;
}

bool kprobe_bell_stale(const struct kprobe_bell *b)
{
	return b && *b->module && module_ino(b->module) != b->module_ino;
}

int kprobe_bell_fd(const struct kprobe_bell *b)
{
	return b ? b->ep : -1;
}

bool kprobe_bell_drain(struct kprobe_bell *b)
{
	struct epoll_event ev[8];
	bool rang = false;

	/* What epoll holds ready is taken too, or it would poll readable again. */
	while (b && epoll_wait(b->ep, ev, 8, 0) == 8)
		;
	for (size_t i = 0; b && i < b->nrings; i++) {
		struct perf_event_mmap_page *m = b->rings[i].page;
		uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
		rang |= head != m->data_tail;
		__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
	}
	return rang;
}

void kprobe_bell_close(struct kprobe_bell *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nrings; i++)
		munmap(b->rings[i].page, b->len);
	for (size_t i = 0; i < b->nfds; i++)
		close(b->fds[i]);
	if (b->ep >= 0)
		close(b->ep);
	free(b->rings);
	free(b->fds);
	free(b);
}
