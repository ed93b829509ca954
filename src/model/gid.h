/* SPDX-License-Identifier: GPL-2.0-or-later */
/* GIDs: sysfs text to bytes, and what address a RoCE GID stands for. */
#ifndef RDMACTL_GID_H
#define RDMACTL_GID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GID_STR_LEN 40	/* "xxxx:" x 7 + "xxxx" and the NUL */
#define GID_ADDR_LEN 46	/* INET6_ADDRSTRLEN */

/* Parses sysfs's "fe80:0000:...:b107" (eight groups of four hex digits). 0 or -EINVAL. */
int model_gid_parse(const char *s, uint8_t gid[16]);
/* The same text back: GID_STR_LEN bytes. */
void model_gid_to_sysfs(const uint8_t gid[16], char *buf);

/* 32 hex digits, the raw bytes in order (ibv_rc_pingpong's wire form). 0 or -EINVAL. */
int model_gid_parse_hex(const char *s, uint8_t gid[16]);
/* 0..15 for a hex digit, -1 otherwise. */
int model_gid_hex_digit(char c);

bool model_gid_is_zero(const uint8_t gid[16]);
/* ::ffff:a.b.c.d, the form RoCE v2 gives an IPv4 address. */
bool model_gid_is_v4mapped(const uint8_t gid[16]);
bool model_gid_is_link_local(const uint8_t gid[16]);

/* The address the GID stands for: dotted IPv4 for a mapped GID, IPv6 text otherwise. */
void model_gid_addr(const uint8_t gid[16], char *buf, size_t len);

#endif
