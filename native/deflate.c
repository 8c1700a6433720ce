// tilegraph's PNG deflate: libdeflate (native/libdeflate, v1.25, MIT: native/libdeflate/COPYING)
// compressing a whole buffer into a zlib stream, as a Node-API addon. Built by
// scripts/build-native.mjs with the system's C compiler against Node's own headers; the Node host
// falls back to node:zlib wherever it is missing (src/hosts/node/deflate.ts).
//
// JavaScript:
//   compress(input: Uint8Array, level: 0-12, output: Uint8Array): number  the zlib stream's length
//     written at output[0], or 0 when it did not fit (give bound()'s room)
//   bound(length: number, level: 0-12): number  the most bytes compress can write for that input
//   version: string
//
// Context-aware (NAPI_MODULE_INIT): every thread (main, each worker_thread) has its own
// compressors, one per level it used, made on first use, reused, and freed when the thread's
// environment ends. Their memory is libdeflate's: docs/server.md, "Memory".
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include "libdeflate/libdeflate.h"

#define LEVELS 13

typedef struct {
  struct libdeflate_compressor *compressors[LEVELS];
} ThreadState;

static void free_state(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  ThreadState *s = data;
  for (int i = 0; i < LEVELS; i++)
    if (s->compressors[i]) libdeflate_free_compressor(s->compressors[i]);
  free(s);
}

static napi_value fail(napi_env env, const char *code, const char *message) {
  napi_throw_error(env, code, message);
  return NULL;
}

/** The level argument (0-12) or -1 after throwing. */
static int level_arg(napi_env env, napi_value v) {
  int32_t level;
  if (napi_get_value_int32(env, v, &level) != napi_ok || level < 0 || level >= LEVELS) {
    napi_throw_range_error(env, "ERR_DEFLATE_LEVEL", "deflate level must be an integer 0-12");
    return -1;
  }
  return level;
}

/** This thread's compressor of a level, made on first use; NULL after throwing. */
static struct libdeflate_compressor *compressor(napi_env env, int level) {
  ThreadState *s;
  if (napi_get_instance_data(env, (void **)&s) != napi_ok || !s) {
    fail(env, "ERR_DEFLATE_STATE", "deflate: no per-thread state");
    return NULL;
  }
  if (!s->compressors[level]) {
    s->compressors[level] = libdeflate_alloc_compressor(level);
    if (!s->compressors[level]) fail(env, "ERR_DEFLATE_MEMORY", "deflate: out of memory for a compressor");
  }
  return s->compressors[level];
}

/** A Uint8Array argument's bytes; 0 after throwing. */
static int bytes_arg(napi_env env, napi_value v, const char *what, uint8_t **data, size_t *length) {
  bool is_typed;
  napi_typedarray_type type;
  void *p;
  if (napi_is_typedarray(env, v, &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, v, &type, length, &p, NULL, NULL) != napi_ok || type != napi_uint8_array) {
    napi_throw_type_error(env, "ERR_DEFLATE_ARG", what);
    return 0;
  }
  *data = p;
  return 1;
}

static napi_value compress(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3)
    return fail(env, "ERR_DEFLATE_ARG", "compress(input, level, output)");
  uint8_t *in, *out;
  size_t in_length, out_length;
  if (!bytes_arg(env, argv[0], "compress: input must be a Uint8Array", &in, &in_length)) return NULL;
  int level = level_arg(env, argv[1]);
  if (level < 0) return NULL;
  if (!bytes_arg(env, argv[2], "compress: output must be a Uint8Array", &out, &out_length)) return NULL;
  struct libdeflate_compressor *c = compressor(env, level);
  if (!c) return NULL;
  size_t n = libdeflate_zlib_compress(c, in, in_length, out, out_length);
  napi_value result;
  napi_create_double(env, (double)n, &result);
  return result;
}

static napi_value bound(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  double length;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_double(env, argv[0], &length) != napi_ok || !(length >= 0 && length <= 9007199254740991.0))
    return fail(env, "ERR_DEFLATE_ARG", "bound(length, level)");
  int level = level_arg(env, argv[1]);
  if (level < 0) return NULL;
  struct libdeflate_compressor *c = compressor(env, level);
  if (!c) return NULL;
  napi_value result;
  napi_create_double(env, (double)libdeflate_zlib_compress_bound(c, (size_t)length), &result);
  return result;
}

NAPI_MODULE_INIT() {
  ThreadState *s = calloc(1, sizeof *s);
  if (!s || napi_set_instance_data(env, s, free_state, NULL) != napi_ok) {
    free(s);
    return fail(env, "ERR_DEFLATE_STATE", "deflate: cannot set per-thread state");
  }
  napi_value fn, version;
  napi_create_function(env, "compress", NAPI_AUTO_LENGTH, compress, NULL, &fn);
  napi_set_named_property(env, exports, "compress", fn);
  napi_create_function(env, "bound", NAPI_AUTO_LENGTH, bound, NULL, &fn);
  napi_set_named_property(env, exports, "bound", fn);
  napi_create_string_utf8(env, LIBDEFLATE_VERSION_STRING, NAPI_AUTO_LENGTH, &version);
  napi_set_named_property(env, exports, "version", version);
  return exports;
}
