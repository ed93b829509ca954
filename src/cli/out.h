/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The output layer: one call per field serves plain text and JSON. */
#ifndef RDMACTL_OUT_H
#define RDMACTL_OUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct out;

struct out *out_new(FILE *f, bool json, bool pretty);
/* Prints the JSON document (if any), frees everything; negative errno on a write error. */
int out_finish(struct out *o);
bool out_is_json(const struct out *o);

/*
 * For a command that writes until its reader goes (monitor, start --watch):
 * SIGPIPE ignored, so that writing to a pipe no one reads fails with EPIPE,
 * which out_reader_gone() then tells.
 */
void out_stream_begin(void);
/* Whether ERR is EPIPE: the reader went. stdout's error is then cleared,
 * handled: main's last flush has nothing to say. */
bool out_reader_gone(int err);

/*
 * Containers. In JSON, the first container opened is the document's root and
 * KEY names a member of an enclosing object (NULL inside an array). Plain text
 * ignores them: records and lines are the caller's to end.
 */
void out_obj_open(struct out *o, const char *key);
void out_obj_close(struct out *o);
void out_arr_open(struct out *o, const char *key);
void out_arr_close(struct out *o);

/*
 * Fields. KEY is the JSON member name; FMT is the plain-text format for the
 * value (NULL: JSON only), always a literal with one conversion of the value's
 * type. A NULL string value is JSON null and prints as "-"; an empty one is
 * JSON null too (unknown is null, never "").
 */
void out_str(struct out *o, const char *key, const char *fmt, const char *val);
void out_u64(struct out *o, const char *key, const char *fmt, uint64_t val);
void out_s64(struct out *o, const char *key, const char *fmt, int64_t val);
/* JSON carries three decimals. */
void out_dbl(struct out *o, const char *key, const char *fmt, double val);
/* Plain text prints "yes" or "no" through FMT's %s. */
void out_bool(struct out *o, const char *key, const char *fmt, bool val);

/* Plain text only: labels and separators that JSON does not carry. */
void out_text(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* End of a plain-text line. Apart from end of record, which is out_obj_close. */
void out_nl(struct out *o);
/*
 * Plain text only: a line a POSIX shell's eval turns into NAME (an
 * identifier of the caller's own) exported with VAL exactly, whatever bytes
 * it holds, running nothing else and printing nothing but printable ASCII:
 * VAL in single quotes, or where it holds other bytes, printf's octal
 * escapes (the builtin, in a command substitution).
 */
void out_sh_export(struct out *o, const char *name, const char *val);
/*
 * TEXT (LEN bytes) to F as plain text prints a value: every byte that is not
 * printable ASCII as \xNN, a backslash as \\.
 */
void out_escape(FILE *f, const char *text, size_t len);
/* Whether VAL is printable ASCII alone, which needs no escape anywhere. */
bool out_is_plain(const char *val);

/* Diagnostics go to stderr, never into the requested data. */
void pr_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pr_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * A failure: "rdmactl: WHAT (NAME: TEXT; kernel: EXT)", then WHAT's further
 * lines; without the parenthesis when NAME is NULL, without "kernel:" when
 * EXT is NULL or empty.
 */
void pr_err_cause(const char *what, const char *name, const char *text, const char *ext);

#endif
