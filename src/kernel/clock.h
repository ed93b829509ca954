/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The monotonic clock, in the units rdmactl's deadlines and timings use: one home. */
#ifndef RDMACTL_CLOCK_H
#define RDMACTL_CLOCK_H

#include <errno.h>
#include <stdint.h>
#include <time.h>

static inline uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

static inline uint64_t mono_us(void)
{
	return mono_ns() / 1000;
}

static inline uint64_t mono_ms(void)
{
	return mono_ns() / 1000000;
}

/*
 * Milliseconds on the coarse monotonic clock, a tick's resolution: read in
 * user space even where the kernel's clocksource cannot be (the HPET a TCG
 * guest falls back to makes every precise read a system call and a device
 * read). For the deadlines busy loops look at while they wait.
 */
static inline uint64_t mono_coarse_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* The wall time, in microseconds since the epoch, at which the monotonic clock read 0. */
static inline uint64_t mono_epoch_us(void)
{
	struct timespec r;

	clock_gettime(CLOCK_REALTIME, &r);
	return (uint64_t)r.tv_sec * 1000000 + (uint64_t)r.tv_nsec / 1000 - mono_us();
}

/* Sleeps MS milliseconds whole, a signal's interruption resumed. */
static inline void mono_sleep_ms(uint64_t ms)
{
	struct timespec t = { (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 };

	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

#endif
