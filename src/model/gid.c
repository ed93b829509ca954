// SPDX-License-Identifier: GPL-2.0-or-later
/* GIDs: sysfs text to bytes, and what address a RoCE GID stands for. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "model/gid.h"

int model_gid_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int model_gid_parse(const char *s, uint8_t gid[16])
{
	if (strlen(s) != GID_STR_LEN - 1)
		return -EINVAL;
	for (int g = 0; g < 8; g++) {
		const char *p = s + g * 5;
		int v = 0;

		for (int i = 0; i < 4; i++) {
			int h = model_gid_hex_digit(p[i]);

			if (h < 0)
				return -EINVAL;
			v = v << 4 | h;
		}
		if (g < 7 && p[4] != ':')
			return -EINVAL;
		gid[2 * g] = (uint8_t)(v >> 8);
		gid[2 * g + 1] = (uint8_t)v;
	}
	return 0;
}

int model_gid_parse_hex(const char *s, uint8_t gid[16])
{
	for (int i = 0; i < 16; i++) {
		int hi = model_gid_hex_digit(s[2 * i]), lo = hi < 0 ? -1 : model_gid_hex_digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		gid[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

void model_gid_to_sysfs(const uint8_t gid[16], char *buf)
{
	for (int g = 0; g < 8; g++)
		sprintf(buf + g * 5, "%02x%02x%s", gid[2 * g], gid[2 * g + 1], g < 7 ? ":" : "");
}

bool model_gid_is_zero(const uint8_t gid[16])
{
	static const uint8_t zero[16];

	return !memcmp(gid, zero, 16);
}

bool model_gid_is_v4mapped(const uint8_t gid[16])
{
	static const uint8_t prefix[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(gid, prefix, sizeof(prefix));
}

bool model_gid_is_link_local(const uint8_t gid[16])
{
	return gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80;
}

void model_gid_addr(const uint8_t gid[16], char *buf, size_t len)
{
	if (model_gid_is_v4mapped(gid))
		inet_ntop(AF_INET, gid + 12, buf, (socklen_t)len);
	else
		inet_ntop(AF_INET6, gid, buf, (socklen_t)len);
}
