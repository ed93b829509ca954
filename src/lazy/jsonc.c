// SPDX-License-Identifier: GPL-2.0-or-later
/* json-c, opened at the first call into it (lazy.h): only -j and the checks that read JSON use it. */
#include <json-c/json.h>

#include "lazy/lazy.h"

struct lazy_lib lazy_jsonc = { .soname = "libjson-c.so.5", .package = "libjson-c5" };

LAZY(lazy_jsonc, int, json_object_array_add, (struct json_object *obj, struct json_object *val),
     (obj, val))
LAZY(lazy_jsonc, struct json_object *, json_object_array_get_idx,
     (const struct json_object *obj, size_t idx), (obj, idx))
LAZY(lazy_jsonc, size_t, json_object_array_length, (const struct json_object *obj), (obj))
LAZY(lazy_jsonc, int32_t, json_object_get_int, (const struct json_object *obj), (obj))
LAZY(lazy_jsonc, const char *, json_object_get_string, (struct json_object *obj), (obj))
LAZY(lazy_jsonc, int, json_object_is_type, (const struct json_object *obj, enum json_type type),
     (obj, type))
LAZY(lazy_jsonc, struct json_object *, json_object_new_array, (void), ())
LAZY(lazy_jsonc, struct json_object *, json_object_new_boolean, (json_bool b), (b))
LAZY(lazy_jsonc, struct json_object *, json_object_new_double_s, (double d, const char *ds), (d, ds))
LAZY(lazy_jsonc, struct json_object *, json_object_new_int64, (int64_t i), (i))
LAZY(lazy_jsonc, struct json_object *, json_object_new_object, (void), ())
LAZY(lazy_jsonc, struct json_object *, json_object_new_string, (const char *s), (s))
LAZY(lazy_jsonc, struct json_object *, json_object_new_uint64, (uint64_t i), (i))
LAZY(lazy_jsonc, int, json_object_object_add,
     (struct json_object *obj, const char *key, struct json_object *val), (obj, key, val))
LAZY(lazy_jsonc, json_bool, json_object_object_get_ex,
     (const struct json_object *obj, const char *key, struct json_object **value),
     (obj, key, value))
LAZY(lazy_jsonc, int, json_object_put, (struct json_object *obj), (obj))
LAZY(lazy_jsonc, const char *, json_object_to_json_string_ext, (struct json_object *obj, int flags),
     (obj, flags))
LAZY(lazy_jsonc, struct json_object *, json_tokener_parse, (const char *str), (str))
LAZY(lazy_jsonc, int64_t, json_object_get_int64, (const struct json_object *obj), (obj))
LAZY(lazy_jsonc, json_bool, json_object_get_boolean, (const struct json_object *obj), (obj))
LAZY(lazy_jsonc, struct json_object_iterator, json_object_iter_begin, (struct json_object *obj),
     (obj))
LAZY(lazy_jsonc, struct json_object_iterator, json_object_iter_end, (const struct json_object *obj),
     (obj))
LAZY(lazy_jsonc, json_bool, json_object_iter_equal,
     (const struct json_object_iterator *a, const struct json_object_iterator *b), (a, b))
LAZY_VOID(lazy_jsonc, json_object_iter_next, (struct json_object_iterator *it), (it))
LAZY(lazy_jsonc, const char *, json_object_iter_peek_name, (const struct json_object_iterator *it),
     (it))
LAZY(lazy_jsonc, struct json_object *, json_object_iter_peek_value,
     (const struct json_object_iterator *it), (it))
