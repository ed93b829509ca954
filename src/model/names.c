// SPDX-License-Identifier: GPL-2.0-or-later
/* What the kernel accepts as RDMA device and network device names. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "model/names.h"

#define RDMA_NAME_LEN 63	/* IB_DEVICE_NAME_MAX less the NUL */
#define NETDEV_NAME_LEN 15	/* IFNAMSIZ less the NUL */

/* The rules both name spaces share (the kernel's dev_valid_name, roughly). */
static const char *common_invalid(const char *name, size_t max)
{
	size_t len = strlen(name);

	if (len == 0)
		return "a name must not be empty";
	if (len > max)
		return max == RDMA_NAME_LEN ? "longer than the kernel's 63 characters" :
					      "longer than the kernel's 15 characters";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "'.' and '..' are not names";
	for (const char *p = name; *p; p++) {
		if (*p == '/')
			return "contains '/'";
		if (isspace((unsigned char)*p))
			return "contains white space";
		if ((unsigned char)*p >= 0x80)
			return "contains a non-ASCII character: rdmactl takes ASCII names only";
		if (!isprint((unsigned char)*p))
			return "contains a control character";
	}
	return NULL;
}

const char *model_names_rdma_invalid(const char *name)
{
	const char *why = common_invalid(name, RDMA_NAME_LEN);

	if (why)
		return why;
	/* The kernel would take '%' as a pattern (rxe%d) and refuses it in NEWLINK. */
	if (strchr(name, '%'))
		return "contains '%'";
	return NULL;
}

const char *model_names_kernel_release_invalid(const char *kver)
{
	if (strlen(kver) > 64)
		return "longer than a kernel release (64 characters)";
	if (!strcmp(kver, ".") || !strcmp(kver, ".."))
		return "'.' and '..' are not kernel releases";
	/* Its version comes first, as 'uname -r' says: 6.1.0-56-amd64, never -1 or amd64. */
	if (!isdigit((unsigned char)kver[0]) || !strchr(kver, '.'))
		return "a kernel release starts with its version, as 'uname -r' says (6.1.0-56-amd64)";
	/* What 'uname -r' and /lib/modules hold: 6.1.0-56-amd64, 6.12.107+deb13-amd64. */
	for (const char *p = kver; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+~-", *p))
			return (unsigned char)*p >= 0x80 ? "contains a non-ASCII character" :
			       *p == '/' ? "contains '/'" : "contains a character no kernel release has";
	return NULL;
}

const char *model_names_conf_field_invalid(const char *name)
{
	/* The file's grammar: '#' starts a comment, white space parts the fields. */
	if (strchr(name, '#'))
		return "contains '#', which starts a comment in the persistent-links file";
	return NULL;
}

const char *model_names_netdev_invalid(const char *name)
{
	const char *why = common_invalid(name, NETDEV_NAME_LEN);

	if (why)
		return why;
	if (strchr(name, ':'))
		return "contains ':' (an alias, not a device)";
	if (strchr(name, '%'))
		return "contains '%'";
	return NULL;
}

size_t model_names_unit_escape(char *buf, size_t len, const char *name)
{
	size_t n = 0;

	for (const char *p = name; *p; p++) {
		unsigned char ch = (unsigned char)*p;
		char piece[5] = { (char)ch, 0 };

		if (ch == '/')
			piece[0] = '-';
		else if (!(isascii(ch) && (isalnum(ch) || ch == ':' || ch == '_' || ch == '.')) ||
			 (ch == '.' && p == name))
			snprintf(piece, sizeof(piece), "\\x%02x", ch);
		for (const char *q = piece; *q; q++, n++)
			if (n + 1 < len)
				buf[n] = *q;
	}
	if (len)
		buf[n < len ? n : len - 1] = 0;
	return n;
}
