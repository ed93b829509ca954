// SPDX-License-Identifier: GPL-2.0-or-later
/* The output layer: plain text for people, JSON (json-c) for programs. */
#include <ctype.h>
#include <errno.h>
#include <poll.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/out.h"

static void put_escaped(FILE *f, const char *text, size_t len, bool lines);

#define OUT_DEPTH 16

struct out {
	FILE *f;
	bool json;
	bool pretty;
	struct json_object *root;
	/* Borrowed pointers into ROOT; NULL for a container that was refused. */
	struct json_object *stack[OUT_DEPTH];
	int depth;
	int overflow;	/* containers opened beyond OUT_DEPTH */
	bool done;	/* the root value has been given */
	int err;
};

struct out *out_new(FILE *f, bool json, bool pretty)
{
	struct out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	o->f = f;
	o->json = json;
	o->pretty = pretty;
	return o;
}

bool out_is_json(const struct out *o)
{
	return o->json;
}

/*
 * Adds V (NULL is JSON null) under KEY to the innermost container, or makes it
 * the root. Returns false when V was not taken (and has been released).
 */
static bool json_add(struct out *o, const char *key, struct json_object *v)
{
	struct json_object *top;

	if (o->overflow)
		goto refuse;
	if (o->depth == 0) {
		if (o->root || o->done) {
			/* A second top-level value is a caller bug: keep the first. */
			o->err = -EINVAL;
			goto refuse;
		}
		o->root = v;
		o->done = true;
		return true;
	}
	top = o->stack[o->depth - 1];
	if (!top)
		goto refuse;
	if (json_object_is_type(top, json_type_array))
		json_object_array_add(top, v);
	else
		json_object_object_add(top, key ? key : "", v);
	return true;
refuse:
	json_object_put(v);
	return false;
}

/* Pushes a container; a refused one is pushed as NULL so closes still balance. */
static void open_container(struct out *o, const char *key, struct json_object *v)
{
	if (!v) {
		o->err = -ENOMEM;
	} else if (o->depth == OUT_DEPTH || o->overflow) {
		json_object_put(v);
		o->err = -E2BIG;
		o->overflow++;
		return;
	} else if (!json_add(o, key, v)) {
		v = NULL;
	}
	o->stack[o->depth++] = v;
}

/* A fresh scalar V, which may be NULL only when IS_NULL (json-c's null). */
static void add_new(struct out *o, const char *key, struct json_object *v, bool is_null)
{
	if (!v && !is_null) {
		o->err = -ENOMEM;
		return;
	}
	json_add(o, key, v);
}

void out_obj_open(struct out *o, const char *key)
{
	if (o->json)
		open_container(o, key, json_object_new_object());
}

void out_arr_open(struct out *o, const char *key)
{
	if (o->json)
		open_container(o, key, json_object_new_array());
}

void out_obj_close(struct out *o)
{
	if (!o->json)
		return;
	if (o->overflow)
		o->overflow--;
	else if (o->depth > 0)
		o->depth--;
}

void out_arr_close(struct out *o)
{
	out_obj_close(o);
}

/*
 * A write error of F's that no out call saw (help's generated texts write to
 * the stream themselves), its errno gone: a pipe whose reader went polls
 * POLLERR, which tells EPIPE from any other failure (EIO).
 */
static int unrecorded(FILE *f)
{
	struct pollfd p = { .fd = fileno(f), .events = POLLOUT };

	return p.fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLERR) ? -EPIPE : -EIO;
}

void out_stream_begin(void)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };

	sigaction(SIGPIPE, &ign, NULL);
}

bool out_reader_gone(int err)
{
	if (err != -EPIPE)
		return false;
	clearerr(stdout);
	return true;
}

/*
 * FMT is passed through: every caller gives a literal with one conversion of
 * the field's type (out.h), which no attribute can express for a fixed-argument
 * function.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/*
 * After each write to the output: the first error is kept with the errno the
 * failed write set (EPIPE, ENOSPC, EBADF), which a later flush that finds only
 * the stream's error flag could no longer tell. The flag is set by a failed
 * write alone, so errno is that write's.
 */
static void wrote(struct out *o)
{
	if (!o->err && ferror(o->f))
		o->err = errno ? -errno : -EIO;
}

void out_str(struct out *o, const char *key, const char *fmt, const char *val)
{
	char *safe = NULL;
	size_t len = 0;
	FILE *m;

	if (o->json) {
		/* Unknown is null, never "": one rule for every command (docs/json.md). */
		bool known = val && *val;

		add_new(o, key, known ? json_object_new_string(val) : NULL, !known);
		return;
	}
	if (!fmt)
		return;
	/* What came from outside (a name, a sysfs value, a peer's words), escaped. */
	if (val && (m = open_memstream(&safe, &len))) {
		put_escaped(m, val, strlen(val), false);
		if (fclose(m))
			safe = NULL;
	}
	fprintf(o->f, fmt, safe ? safe : val ? val : "-");
	wrote(o);
	free(safe);
}

void out_u64(struct out *o, const char *key, const char *fmt, uint64_t val)
{
	if (o->json)
		add_new(o, key, json_object_new_uint64(val), false);
	else if (fmt) {
		fprintf(o->f, fmt, val);
		wrote(o);
	}
}

void out_s64(struct out *o, const char *key, const char *fmt, int64_t val)
{
	if (o->json)
		add_new(o, key, json_object_new_int64(val), false);
	else if (fmt) {
		fprintf(o->f, fmt, val);
		wrote(o);
	}
}

void out_dbl(struct out *o, const char *key, const char *fmt, double val)
{
	if (o->json) {
		char text[32];

		/* Three decimals in JSON too, not a binary fraction's seventeen digits. */
		snprintf(text, sizeof(text), "%.3f", val);
		add_new(o, key, json_object_new_double_s(val, text), false);
	} else if (fmt) {
		fprintf(o->f, fmt, val);
		wrote(o);
	}
}

void out_bool(struct out *o, const char *key, const char *fmt, bool val)
{
	if (o->json)
		add_new(o, key, json_object_new_boolean(val), false);
	else if (fmt) {
		fprintf(o->f, fmt, val ? "yes" : "no");
		wrote(o);
	}
}

#pragma GCC diagnostic pop

void out_text(struct out *o, const char *fmt, ...)
{
	char *text;
	va_list ap;
	int n;

	if (o->json)
		return;
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->err = o->err ? o->err : -ENOMEM;
		return;
	}
	/* The values in it came from outside as often as not: escaped as out_str's. */
	put_escaped(o->f, text, (size_t)n, true);
	wrote(o);
	free(text);
}

void out_nl(struct out *o)
{
	if (!o->json) {
		fputc('\n', o->f);
		wrote(o);
	}
}

bool out_is_plain(const char *val)
{
	for (const unsigned char *p = (const unsigned char *)val; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			return false;
	return true;
}

void out_sh_export(struct out *o, const char *name, const char *val)
{
	if (o->json)
		return;
	if (out_is_plain(val)) {
		/* In single quotes, each quote closed, given in double quotes, opened again. */
		fprintf(o->f, "export %s='", name);
		for (const char *v = val; *v; v++) {
			if (*v == '\'')
				fputs("'\"'\"'", o->f);
			else
				fputc(*v, o->f);
		}
		fputs("'\n", o->f);
	} else {
		/*
		 * Each byte but letters and digits as printf's \ooo; an x after
		 * them, taken off again, keeps the newlines a command
		 * substitution would strip from the end.
		 */
		fprintf(o->f, "export %s=\"$(printf '", name);
		for (const unsigned char *v = (const unsigned char *)val; *v; v++) {
			if (*v < 0x80 && isalnum(*v))
				fputc(*v, o->f);
			else
				fprintf(o->f, "\\%03o", *v);
		}
		fprintf(o->f, "x')\"; %s=\"${%s%%x}\"\n", name, name);
	}
	wrote(o);
}

int out_finish(struct out *o)
{
	int err;

	if (!o)
		return 0;
	if (o->json && o->root) {
		int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
			    (o->pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
					 JSON_C_TO_STRING_PLAIN);

		fprintf(o->f, "%s\n", json_object_to_json_string_ext(o->root, flags));
		wrote(o);
	}
	/* Plain output made no JSON: json-c is not even loaded then (src/lazy). */
	if (o->root)
		json_object_put(o->root);
	/* What the writes found: ENOSPC (a full disk), EBADF (stdout closed), EPIPE. */
	if (fflush(o->f) == EOF)
		wrote(o);
	err = o->err ? o->err : ferror(o->f) ? unrecorded(o->f) : 0;
	free(o);
	return err;
}

/*
 * TEXT (LEN bytes) to F with every byte that is not printable ASCII written
 * as \xNN and a backslash as \\: no control byte reaches a terminal, and two
 * different texts never print the same. With LINES, the newlines and tabs of
 * a table's layout are kept.
 */
static void put_escaped(FILE *f, const char *text, size_t len, bool lines)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];

		if (lines && (ch == '\n' || ch == '\t'))
			fputc(ch, f);
		else if (ch == '\\')
			fputs("\\\\", f);
		else if (ch < 0x20 || ch >= 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
}

void out_escape(FILE *f, const char *text, size_t len)
{
	put_escaped(f, text, len, false);
}

static void put_safe(const char *text, size_t len)
{
	put_escaped(stderr, text, len, false);
}

static void put_line(const char *level, const char *text, size_t len)
{
	fprintf(stderr, "rdmactl: %s", level);
	put_safe(text, len);
}

static void vmsg(const char *level, const char *fmt, va_list ap)
{
	char *text = NULL;

	if (vasprintf(&text, fmt, ap) < 0) {
		fprintf(stderr, "rdmactl: %s%s\n", level, fmt);
		return;
	}
	for (const char *line = text;;) {
		size_t len = strcspn(line, "\n");

		put_line(level, line, len);
		fputc('\n', stderr);
		if (!line[len] || !line[len + 1])
			break;
		line += len + 1;
	}
	free(text);
}

void pr_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void pr_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("note: ", fmt, ap);
	va_end(ap);
}

void pr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void pr_err_cause(const char *what, const char *name, const char *text, const char *ext)
{
	size_t len = strcspn(what, "\n");

	/* The cause after the first line: what happened, then what the kernel said. */
	put_line("", what, len);
	if (name) {
		fprintf(stderr, " (%s: %s", name, text);
		if (ext && *ext) {
			fputs("; kernel: ", stderr);
			put_safe(ext, strlen(ext));
		}
		fputs(")", stderr);
	}
	fputs("\n", stderr);
	if (what[len] && what[len + 1])
		pr_err("%s", what + len + 1);
}
