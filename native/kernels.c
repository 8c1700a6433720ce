// tilegraph's native CPU kernels, a Node-API addon: the noise op's octaves (value and simplex fBm)
// with 512-bit vectors, the same values as the TypeScript reference (src/ops/noise/cpu.ts
// noiseReference) bit for bit; and the per-pixel kernels of native/pixels.h (the colour ramp,
// blend's multiply and normal over, blur's convolutions, the PNG encoder's conversion) and
// stroke's round dabs (native/dabs.h), each the same bits as the WebAssembly kernel it replaces.
// Built by scripts/build-native.mjs with the system's C compiler against Node's own headers; the
// Node host binds it to the core (src/hosts/node/kernels.ts -> src/util/native-kernels.ts) only
// where the CPU has AVX-512 (x86-64-v4): elsewhere the WebAssembly kernels run, which are faster
// there than these eight-lane vectors split into halves.
//
// JavaScript:
//   noise(kind: 0 value | 1 simplex, cells: Uint32Array, cols: Uint32Array, rows: Uint32Array,
//         w, h, octaves, seeds: Uint32Array (octave o, channel c at o channels + c), channels 1-3,
//         raster 0 | 1, demand: Int32Array | null, acc: Float64Array, out: Float32Array,
//         generic 0 | 1): boolean   (14 arguments)
//     The plan's arrays as src/ops/noise/plan.ts lays them out. Writes out (a field: w h values;
//     a raster: RGBA, B +0 for two channels, A 1). demand (simplex only): runs of pixels (row,
//     first column, count), the others +0. acc: at least w h channels doubles of scratch. false
//     (nothing written) where a simplex octave's lattice box is much larger than the canvas (the
//     caller's own kernel runs then). generic 1: the portable copy even where AVX-512 runs (tests).
//   ramp(src, n, out, table, values, size, ends, opacity, generic?): boolean   pixels.h ramp_pixels
//   multiply(base, over, out, opacity, atop, generic): boolean              pixels.h multiply_pixels
//   over(base, over, out, opacity, generic): boolean                        pixels.h over_pixels
//   erase(base, over, out, opacity, generic): boolean                       pixels.h erase_pixels
//   convert(input, out: Int32Array, n, generic): 0 | 1                      pixels.h convert_pixels
//   convY(mem: Uint8Array, in, rowBytes, out, outRowBytes, lenBytes, nOut, wts, taps, generic)
//   convX(mem: Uint8Array, in, inRowBytes, rows, out, outRowBytes, nOut, wts, taps, generic)
//     blur.wat's convY / convX on `mem`'s bytes (pixels.h conv_y_*, conv_x_*): true
//   dabs(mem: Uint8Array, W, H, count, runCount, groups, geom, group, paints, runs, runGroup, out,
//        layer, cms, touched, hardness, aa, generic)
//     stroke.wat's draw on `mem`'s bytes (dabs.h dabs_draw): true
//   lay(mem: Uint8Array, at, args: Float64Array (24), generic): stroke.wat's lay (dabs.h lay_dabs):
//     the dabs' count, written from byte `at`
//     Typed arrays as src/util/native-kernels.ts describes them; a short or mistyped array throws.
//   simd: "avx512" where the AVX-512 copy runs on this CPU, else ""
//
// Stateless and context-aware (NAPI_MODULE_INIT): every thread may call it.
#include <node_api.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define LANES 8
#define ENTRY 4
#define MAX_OCTAVES 12
#define SIMPLEX_GAIN 76.0

typedef double v8d __attribute__((vector_size(64)));
typedef int64_t v8l __attribute__((vector_size(64)));
typedef uint32_t v8u32 __attribute__((vector_size(32)));
typedef int32_t v8i32 __attribute__((vector_size(32)));
typedef float v8f32 __attribute__((vector_size(32)));
typedef float v4f32 __attribute__((vector_size(16)));

/** plan.ts hash32 (lowbias32) of `v` in place, a u32 or a vector of them (an lvalue); its value. */
#define LOWBIAS32(v) ((v) ^= (v) >> 16, (v) *= 0x7feb352du, (v) ^= (v) >> 15, (v) *= 0x846ca68bu, (v) ^= (v) >> 16, (v))

/** plan.ts hash32 (lowbias32). */
static inline uint32_t hash32(uint32_t x) {
  return LOWBIAS32(x);
}

/** plan.ts fade: the quintic 6t^5 - 15t^4 + 10t^3 in its order. */
static inline double fade(double t) {
  return t * t * t * (t * (t * 6 - 15) + 10);
}

// The 12 gradients of 3-D simplex noise (plan.ts GX, GY, GZ), padded to 16.
static const double GXT[16] = {1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
static const double GYT[16] = {1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 0, 0, 0, 0};
static const double GZT[16] = {0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1, 0, 0, 0, 0};

/**
 * A simplex octave's lattice box (plan.ts octaveLattice) and its gradient table: per channel c, nb
 * bytes at box + c nb, point (i, j, k) at (i - i0) sI + (j - j0) sJ + (k - k0), each the gradient
 * index (plan.ts latticeHash3 % 12) of channel c's seed, 255 until a corner first meets it.
 */
typedef struct {
  uint8_t *box;
  int nb, sI, sJ, i0, j0, k0;
  uint32_t cx, cy, cz;
  const uint32_t *seeds;
  /** 1: entries are 255 until first asked for (gradient_at); 0: every entry filled up front. */
  int lazy;
} Grads;

/** The gradient index of channel c at table offset idx, hashed and kept when first asked for. */
static int gradient_at(const Grads *g, int c, int32_t idx) {
  uint8_t *t = g->box + (size_t)c * g->nb + idx;
  if (*t == 255) {
    const int a = idx / g->sI, rest = idx - a * g->sI, b = rest / g->sJ, k = rest - b * g->sJ;
    const uint32_t ix = g->cx + (uint32_t)(g->i0 + a), iy = g->cy + (uint32_t)(g->j0 + b), iz = g->cz + (uint32_t)(g->k0 + k);
    *t = (uint8_t)(hash32(ix ^ hash32(iy ^ hash32(iz ^ g->seeds[c]))) % 12);
  }
  return *t;
}

// The portable copy: lane by lane table reads.
#define SUFFIX _generic
#define TARGET
#define GATHER_IDX(box, idx, out) \
  for (int l = 0; l < LANES; l++) (out)[l] = (box)[(idx)[l]];
#define GRADS(gi, gx, gy, gz)       \
  for (int l = 0; l < LANES; l++) { \
    (gx)[l] = GXT[(gi)[l]];         \
    (gy)[l] = GYT[(gi)[l]];         \
    (gz)[l] = GZT[(gi)[l]];         \
  }
static inline int any_lane(v8i32 m) {
  int any = 0;
  for (int l = 0; l < LANES; l++) any |= m[l];
  return any;
}
#define ANY(mask) any_lane(mask)
#include "noise-body.h"
#undef SUFFIX
#undef TARGET
#undef GATHER_IDX
#undef GRADS
#undef ANY

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define HAVE_AVX512 1
// The AVX-512 copy: one gather of the eight gradient indices (four bytes read at each, the
// table padded for it, the low byte kept), each gradient component picked from a 16-entry table
// by a two-register permute.
#define SUFFIX _avx512
#define TARGET __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,avx,sse4.2,popcnt")))
#define GATHER_IDX(box, idx, out) (out) = (v8i32)_mm256_i32gather_epi32((const int *)(box), (__m256i)(idx), 1) & 0xff
#define GRADS(gi, gx, gy, gz)                                                                \
  do {                                                                                       \
    const __m512i g_ = _mm512_cvtepi32_epi64((__m256i)(gi));                                 \
    (gx) = (v8d)_mm512_permutex2var_pd(_mm512_loadu_pd(GXT), g_, _mm512_loadu_pd(GXT + 8)); \
    (gy) = (v8d)_mm512_permutex2var_pd(_mm512_loadu_pd(GYT), g_, _mm512_loadu_pd(GYT + 8)); \
    (gz) = (v8d)_mm512_permutex2var_pd(_mm512_loadu_pd(GZT), g_, _mm512_loadu_pd(GZT + 8)); \
  } while (0)
#define ANY(mask) _mm256_movemask_epi8((__m256i)(mask))
#include "noise-body.h"
#undef SUFFIX
#undef TARGET
#undef GATHER_IDX
#undef GRADS
#undef ANY

static int avx512(void) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512bw");
}
#else
#define HAVE_AVX512 0
static int avx512(void) {
  return 0;
}
#endif

#if HAVE_AVX512
#define TARGET512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,avx,sse4.2,popcnt")))
#endif
#include "pixels.h"
#include "dabs.h"

typedef struct {
  int kind, w, h, octaves, channels, raster, nruns, generic;
  /** the AVX-512 copy runs: the CPU has it and `generic` was not asked for (found once a call) */
  int fast;
  const uint32_t *cells, *cols, *rows, *seeds;
  const int32_t *runs;
  double *acc;
  float *out;
} Job;

static float f32_of(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}


/** plan.ts octaveLattice: the octave's X, Z per column and Y per row, and the box the corners reach. */
typedef struct {
  int i0, j0, k0, nx, ny, nz;
} Box;

static Box lattice(const Job *j, int o, double *X, double *Y, double *Z) {
  const double F3 = 1.0 / 3;
  double xMin = INFINITY, xMax = -INFINITY, zMin = INFINITY, zMax = -INFINITY, yMin = INFINITY, yMax = -INFINITY;
  for (int i = 0; i < j->w; i++) {
    const size_t k = ((size_t)o * j->w + i) * ENTRY;
    X[i] = f32_of(j->cols[k]);
    Z[i] = f32_of(j->cols[k + 1]);
    xMin = fmin(xMin, X[i]);
    xMax = fmax(xMax, X[i]);
    zMin = fmin(zMin, Z[i]);
    zMax = fmax(zMax, Z[i]);
  }
  for (int r = 0; r < j->h; r++) {
    Y[r] = f32_of(j->rows[((size_t)o * j->h + r) * ENTRY]);
    yMin = fmin(yMin, Y[r]);
    yMax = fmax(yMax, Y[r]);
  }
  const double sMin = (xMin + yMin + zMin) * F3, sMax = (xMax + yMax + zMax) * F3;
  Box b;
  b.i0 = (int)floor(xMin + sMin) - 1;
  b.j0 = (int)floor(yMin + sMin) - 1;
  b.k0 = (int)floor(zMin + sMin) - 1;
  b.nx = (int)floor(xMax + sMax) + 3 - b.i0;
  b.ny = (int)floor(yMax + sMax) + 3 - b.j0;
  b.nz = (int)floor(zMax + sMax) + 3 - b.k0;
  return b;
}

/** wasm.ts boxTooLarge: a lattice box much larger than the canvas (very fine noise). */
static int box_too_large(const Job *j, const Box *b) {
  const double box = (double)b->nx * b->ny * b->nz * j->channels;
  const double canvas = 4.0 * j->w * j->h * j->channels;
  return box > (canvas > 65536 ? canvas : 65536);
}

/** 0 done, 1 a box too large (nothing written), -1 out of memory. */
static int simplex(const Job *j) {
  const size_t m = (size_t)j->w * j->h;
  // every octave's X, Z and Y (2 w + h doubles each), found once before anything is written
  const size_t per = 2 * (size_t)j->w + j->h;
  double *X = malloc(sizeof(double) * per * j->octaves);
  if (!X) return -1;
  Box boxes[MAX_OCTAVES];
  for (int o = 0; o < j->octaves; o++) {
    double *Xo = X + o * per;
    boxes[o] = lattice(j, o, Xo, Xo + 2 * j->w, Xo + j->w);
    if (box_too_large(j, &boxes[o])) {
      free(X);
      return 1;
    }
  }
  int32_t *whole = NULL;
  const int32_t *runs = j->runs;
  int nruns = j->nruns;
  if (!runs) {
    whole = malloc(sizeof(int32_t) * 3 * (size_t)j->h);
    if (!whole) {
      free(X);
      return -1;
    }
    for (int r = 0; r < j->h; r++) {
      whole[r * 3] = r;
      whole[r * 3 + 1] = 0;
      whole[r * 3 + 2] = j->w;
    }
    runs = whole;
    nruns = j->h;
  } else
    memset(j->acc, 0, sizeof(double) * m * j->channels); // pixels outside the runs: +0
  size_t demanded = 0;
  for (int r = 0; r < nruns; r++) demanded += (size_t)runs[r * 3 + 2];
  int status = 0;
  for (int o = 0; o < j->octaves && !status; o++) {
    const Box b = boxes[o];
    const double *Xo = X + o * per, *Zo = Xo + j->w, *Yo = Xo + 2 * j->w;
    const int nb = b.nx * b.ny * b.nz;
    // the gradient table (+4: the gather reads a word): hashed up front where the demanded pixels
    // outnumber the box's points, else each entry when a corner first meets it
    uint8_t *box = malloc((size_t)nb * j->channels + 4);
    if (!box) {
      status = -1;
      break;
    }
    memset(box, 255, (size_t)nb * j->channels + 4);
    Grads gr = {box, nb, b.ny * b.nz, b.nz, b.i0, b.j0, b.k0, j->cells[o * 4], j->cells[o * 4 + 1], j->cells[o * 4 + 2], j->seeds + o * j->channels, 1};
    if ((size_t)nb <= demanded) {
      for (int c = 0; c < j->channels; c++) {
        const uint32_t seed = gr.seeds[c];
        uint8_t *t = box + (size_t)c * nb;
        for (int a = 0; a < b.nx; a++) {
          const uint32_t ix = gr.cx + (uint32_t)(b.i0 + a);
          for (int bb = 0; bb < b.ny; bb++) {
            const uint32_t hy = gr.cy + (uint32_t)(b.j0 + bb);
            for (int cc = 0; cc < b.nz; cc++) {
              const uint32_t iz = gr.cz + (uint32_t)(b.k0 + cc);
              t[(a * b.ny + bb) * b.nz + cc] = (uint8_t)(hash32(ix ^ hash32(hy ^ hash32(iz ^ seed))) % 12);
            }
          }
        }
      }
      gr.lazy = 0;
    }
    const double weight = f32_of(j->cells[o * 4 + 3]);
#if HAVE_AVX512
    if (j->fast) simplex_octave_avx512(Xo, Yo, Zo, j->w, runs, nruns, &gr, j->channels, weight, j->acc, m, o == 0);
    else
#endif
      simplex_octave_generic(Xo, Yo, Zo, j->w, runs, nruns, &gr, j->channels, weight, j->acc, m, o == 0);
    free(box);
  }
  free(whole);
  free(X);
  return status;
}

static int value(const Job *j) {
  const size_t m = (size_t)j->w * j->h, w = j->w;
  double *sx = malloc(sizeof(double) * 5 * w + sizeof(uint32_t) * 2 * w);
  if (!sx) return -1;
  double *lines = sx + w;
  uint32_t *ixa = (uint32_t *)(lines + 4 * w), *ixb = ixa + w;
  for (int o = 0; o < j->octaves; o++) {
    for (size_t i = 0; i < w; i++) {
      const size_t k = (o * w + i) * ENTRY;
      ixa[i] = j->cols[k];
      ixb[i] = j->cols[k + 1];
      sx[i] = fade(f32_of(j->cols[k + 2]));
    }
    const uint32_t *rows = j->rows + (size_t)o * j->h * ENTRY;
    const uint32_t *seeds = j->seeds + o * j->channels;
    const double weight = f32_of(j->cells[o * 4 + 3]);
#if HAVE_AVX512
    if (j->fast)
      value_octave_avx512(ixa, ixb, sx, rows, j->w, j->h, seeds, j->channels, weight, j->acc, m, o == 0, lines);
    else
#endif
      value_octave_generic(ixa, ixb, sx, rows, j->w, j->h, seeds, j->channels, weight, j->acc, m, o == 0, lines);
  }
  free(sx);
  return 0;
}

/** The sums rounded to f32 into the field or the RGBA raster. */
static void finish(const Job *j) {
  const size_t m = (size_t)j->w * j->h;
#if HAVE_AVX512
  if (j->fast) {
    finish_avx512(j->acc, j->out, m, j->channels, j->raster);
    return;
  }
#endif
  finish_generic(j->acc, j->out, m, j->channels, j->raster);
}

/** The `true` a kernel that wrote its output answers. */
static napi_value true_value(napi_env env) {
  napi_value result;
  napi_get_boolean(env, true, &result);
  return result;
}

static napi_value fail(napi_env env, const char *message) {
  napi_throw_range_error(env, "ERR_NATIVE_KERNEL", message);
  return NULL;
}

/** A typed array argument of the given type and at least `need` elements, or NULL. */
static void *array_arg(napi_env env, napi_value v, napi_typedarray_type want, size_t need) {
  bool is;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return NULL;
  napi_typedarray_type type;
  size_t length;
  void *data;
  if (napi_get_typedarray_info(env, v, &type, &length, &data, NULL, NULL) != napi_ok || type != want || length < need) return NULL;
  return data ? data : (void *)"";
}

static napi_value noise(napi_env env, napi_callback_info info) {
  size_t argc = 14;
  napi_value argv[14];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 14) return fail(env, "noise: 14 arguments");
  int32_t ints[5];
  const int at[5] = {0, 4, 5, 6, 8};
  for (int i = 0; i < 5; i++)
    if (napi_get_value_int32(env, argv[at[i]], &ints[i]) != napi_ok) return fail(env, "noise: integer arguments");
  Job j = {.kind = ints[0], .w = ints[1], .h = ints[2], .octaves = ints[3], .channels = ints[4]};
  int32_t raster, generic;
  if (napi_get_value_int32(env, argv[9], &raster) != napi_ok || napi_get_value_int32(env, argv[13], &generic) != napi_ok)
    return fail(env, "noise: integer arguments");
  j.raster = raster != 0;
  j.generic = generic != 0;
  j.fast = HAVE_AVX512 && !j.generic && avx512();
  if ((j.kind != 0 && j.kind != 1) || j.w < 1 || j.h < 1 || j.w > 65536 || j.h > 65536 || j.octaves < 1 || j.octaves > MAX_OCTAVES ||
      j.channels < 1 || j.channels > 3 || (!j.raster && j.channels != 1))
    return fail(env, "noise: kind, size, octaves or channels out of range");
  const size_t m = (size_t)j.w * j.h;
  j.cells = array_arg(env, argv[1], napi_uint32_array, (size_t)j.octaves * 4);
  j.cols = array_arg(env, argv[2], napi_uint32_array, (size_t)j.octaves * j.w * ENTRY);
  j.rows = array_arg(env, argv[3], napi_uint32_array, (size_t)j.octaves * j.h * ENTRY);
  j.seeds = array_arg(env, argv[7], napi_uint32_array, (size_t)j.octaves * j.channels);
  j.acc = array_arg(env, argv[11], napi_float64_array, m * j.channels);
  j.out = array_arg(env, argv[12], napi_float32_array, m * (j.raster ? 4 : 1));
  if (!j.cells || !j.cols || !j.rows || !j.seeds || !j.acc || !j.out) return fail(env, "noise: an array argument of the wrong type or too short");
  napi_valuetype dt;
  napi_typeof(env, argv[10], &dt);
  if (dt != napi_null && dt != napi_undefined && j.kind == 1) {
    bool is;
    napi_typedarray_type type;
    size_t length;
    void *data;
    if (napi_is_typedarray(env, argv[10], &is) != napi_ok || !is ||
        napi_get_typedarray_info(env, argv[10], &type, &length, &data, NULL, NULL) != napi_ok || type != napi_int32_array || length % 3)
      return fail(env, "noise: demand must be an Int32Array of (row, column, count) runs");
    j.runs = data;
    j.nruns = (int)(length / 3);
    for (int r = 0; r < j.nruns; r++) {
      const int32_t row = j.runs[r * 3], c0 = j.runs[r * 3 + 1], n = j.runs[r * 3 + 2];
      if (row < 0 || row >= j.h || c0 < 0 || n < 0 || c0 > j.w - n) return fail(env, "noise: a demand run outside the canvas");
    }
  }
  const int status = j.kind == 1 ? simplex(&j) : value(&j);
  if (status < 0) {
    napi_throw_error(env, "ERR_NATIVE_MEMORY", "noise: out of memory");
    return NULL;
  }
  if (status == 0) finish(&j);
  napi_value result;
  napi_get_boolean(env, status == 0, &result);
  return result;
}

/** A typed array argument of the given type (any length): its data and length, or NULL. */
static void *array_len(napi_env env, napi_value v, napi_typedarray_type want, size_t *length) {
  bool is;
  napi_typedarray_type type;
  void *data;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is) return NULL;
  if (napi_get_typedarray_info(env, v, &type, length, &data, NULL, NULL) != napi_ok || type != want) return NULL;
  return data ? data : (void *)"";
}

/** ramp(src, n, out, table, values, size, ends, opacity, generic): pixels.h ramp_pixels (generic 1: the portable copy); true. */
static napi_value ramp(napi_env env, napi_callback_info info) {
  size_t argc = 9;
  napi_value argv[9];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 8) return fail(env, "ramp: 8 or 9 arguments");
  int32_t n, size, generic = 0;
  if (argc > 8 && napi_get_value_int32(env, argv[8], &generic) != napi_ok) return fail(env, "ramp: number arguments");
  double opacity;
  if (napi_get_value_int32(env, argv[1], &n) != napi_ok || napi_get_value_int32(env, argv[5], &size) != napi_ok ||
      napi_get_value_double(env, argv[7], &opacity) != napi_ok)
    return fail(env, "ramp: number arguments");
  size_t nValues, nTable, nEnds;
  const double *values = array_len(env, argv[4], napi_float64_array, &nValues);
  const float *table = array_len(env, argv[3], napi_float32_array, &nTable);
  const float *ends = array_len(env, argv[6], napi_float32_array, &nEnds);
  if (!values || !table || !ends) return fail(env, "ramp: table, values and ends must be a Float32Array, a Float64Array and a Float32Array");
  if (n < 0 || size < 2 || nValues < 2 || nValues > 65536 || nEnds < 8 || nTable / 4 / (size_t)size < nValues - 1)
    return fail(env, "ramp: a size, stop or table length out of range");
  const float *src = array_arg(env, argv[0], napi_float32_array, (size_t)n);
  float *out = array_arg(env, argv[2], napi_float32_array, (size_t)n * 4);
  if (!src || !out) return fail(env, "ramp: src and out must be Float32Arrays of n and 4 n values");
  ramp_pixels(src, (size_t)n, out, table, values, (int)nValues - 1, size, ends, opacity, HAVE_AVX512 && !generic && avx512());
  return true_value(env);
}

/**
 * A blend's (base, over, out) arguments: Float32Arrays of whole RGBA pixels, over and out at least
 * as long as base. The pixel count, or -1 with `what`'s RangeError thrown.
 */
static int64_t blend_arrays(napi_env env, napi_value *argv, const char *what, const float **base, const float **over, float **out) {
  char msg[120];
  size_t n;
  *base = array_len(env, argv[0], napi_float32_array, &n);
  if (!*base || n % 4) {
    snprintf(msg, sizeof msg, "%s: base must be a Float32Array of RGBA pixels", what);
    fail(env, msg);
    return -1;
  }
  *over = array_arg(env, argv[1], napi_float32_array, n);
  *out = array_arg(env, argv[2], napi_float32_array, n);
  if (!*over || !*out) {
    snprintf(msg, sizeof msg, "%s: over and out must be Float32Arrays as long as base", what);
    fail(env, msg);
    return -1;
  }
  return (int64_t)(n / 4);
}

/** multiply(base, over, out, opacity, atop, generic): pixels.h multiply_pixels over base's pixels; true. */
static napi_value multiply(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 6) return fail(env, "multiply: 6 arguments");
  double opacity;
  int32_t atop, generic;
  if (napi_get_value_double(env, argv[3], &opacity) != napi_ok || napi_get_value_int32(env, argv[4], &atop) != napi_ok ||
      napi_get_value_int32(env, argv[5], &generic) != napi_ok)
    return fail(env, "multiply: number arguments");
  const float *base, *over;
  float *out;
  const int64_t n = blend_arrays(env, argv, "multiply", &base, &over, &out);
  if (n < 0) return NULL;
  multiply_pixels(base, over, out, (size_t)n, opacity, atop != 0, HAVE_AVX512 && !generic && avx512());
  return true_value(env);
}

/** convert(in: Float32Array, out: Int32Array, n, generic): pixels.h convert_pixels; 1 where every alpha is 255. */
static napi_value convert(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4) return fail(env, "convert: 4 arguments");
  int32_t n, generic;
  if (napi_get_value_int32(env, argv[2], &n) != napi_ok || napi_get_value_int32(env, argv[3], &generic) != napi_ok || n < 0)
    return fail(env, "convert: a pixel count and the copy");
  const float *in = array_arg(env, argv[0], napi_float32_array, (size_t)n * 4);
  uint32_t *out = array_arg(env, argv[1], napi_int32_array, (size_t)n);
  if (!in || !out) return fail(env, "convert: a Float32Array of n RGBA pixels and an Int32Array of n");
  napi_value result;
  napi_create_int32(env, convert_pixels(in, out, (size_t)n, HAVE_AVX512 && !generic && avx512()), &result);
  return result;
}


/** Ten arguments of a convolution: the memory's bytes, eight byte offsets, strides and counts (whole, >= 0), the copy. */
static uint8_t *conv_args(napi_env env, napi_callback_info info, const char *what, double *v, int32_t *generic, size_t *len) {
  size_t argc = 10;
  napi_value argv[10];
  char msg[120];
  snprintf(msg, sizeof msg, "%s: a Uint8Array, eight whole numbers >= 0 and the copy", what);
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 10) {
    fail(env, msg);
    return NULL;
  }
  uint8_t *mem = array_len(env, argv[0], napi_uint8_array, len);
  int ok = mem != NULL && napi_get_value_int32(env, argv[9], generic) == napi_ok;
  for (int i = 0; ok && i < 8; i++) ok = napi_get_value_double(env, argv[1 + i], &v[i]) == napi_ok && v[i] >= 0 && v[i] == floor(v[i]) && v[i] < 4294967296.0;
  if (!ok) fail(env, msg);
  return ok ? mem : NULL;
}

/** convY(mem, in, rowBytes, out, outRowBytes, lenBytes, nOut, wts, taps, generic): blur.wat convY in pixels.h; true. */
static napi_value conv_y_js(napi_env env, napi_callback_info info) {
  double v[8];
  int32_t generic;
  size_t len;
  uint8_t *mem = conv_args(env, info, "convY", v, &generic, &len);
  if (!mem) return NULL;
  const double in = v[0], rowBytes = v[1], out = v[2], outRowBytes = v[3], lenBytes = v[4], nOut = v[5], wts = v[6], taps = v[7];
  int ok = fmod(in, 4) == 0 && fmod(rowBytes, 4) == 0 && fmod(out, 4) == 0 && fmod(outRowBytes, 4) == 0 && fmod(lenBytes, 4) == 0 && fmod(wts, 4) == 0 &&
           nOut < 1 << 20 && taps < 1 << 16;
  if (ok && nOut > 0 && lenBytes > 0)
    ok = (taps == 0 || (in + (nOut + taps - 2) * rowBytes + lenBytes <= (double)len && wts + 16 * taps <= (double)len)) &&
         out + (nOut - 1) * outRowBytes + lenBytes <= (double)len;
  if (!ok) return fail(env, "convY: a row outside the memory");
  const float *w = (const float *)(mem + (size_t)wts);
  const float *src = (const float *)(mem + (size_t)in);
  float *dst = (float *)(mem + (size_t)out);
#if HAVE_AVX512
  if (!generic && avx512())
    conv_y_avx512(src, (size_t)rowBytes / 4, dst, (size_t)outRowBytes / 4, (size_t)lenBytes / 4, (int)nOut, w, (int)taps);
  else
#endif
    conv_y_scalar(src, (size_t)rowBytes / 4, dst, (size_t)outRowBytes / 4, (size_t)lenBytes / 4, (int)nOut, w, (int)taps);
  return true_value(env);
}

/** convX(mem, in, inRowBytes, rows, out, outRowBytes, nOut, wts, taps, generic): blur.wat convX in pixels.h; true. */
static napi_value conv_x_js(napi_env env, napi_callback_info info) {
  double v[8];
  int32_t generic;
  size_t len;
  uint8_t *mem = conv_args(env, info, "convX", v, &generic, &len);
  if (!mem) return NULL;
  const double in = v[0], inRowBytes = v[1], rows = v[2], out = v[3], outRowBytes = v[4], nOut = v[5], wts = v[6], taps = v[7];
  int ok = fmod(in, 4) == 0 && fmod(inRowBytes, 4) == 0 && fmod(out, 4) == 0 && fmod(outRowBytes, 4) == 0 && fmod(wts, 4) == 0 && rows < 1 << 20 &&
           nOut < 1 << 20 && taps < 1 << 16;
  if (ok && rows > 0 && nOut > 0)
    ok = (taps == 0 || (in + (rows - 1) * inRowBytes + 16 * (nOut + taps - 1) <= (double)len && wts + 16 * taps <= (double)len)) &&
         out + (rows - 1) * outRowBytes + 16 * nOut <= (double)len;
  if (!ok) return fail(env, "convX: a row outside the memory");
  const float *w = (const float *)(mem + (size_t)wts);
  const float *src = (const float *)(mem + (size_t)in);
  float *dst = (float *)(mem + (size_t)out);
#if HAVE_AVX512
  if (!generic && avx512())
    conv_x_avx512(src, (size_t)inRowBytes / 4, (int)rows, dst, (size_t)outRowBytes / 4, (int)nOut, w, (int)taps);
  else
#endif
    conv_x_scalar(src, (size_t)inRowBytes / 4, (int)rows, dst, (size_t)outRowBytes / 4, (int)nOut, w, (int)taps);
  return true_value(env);
}

/**
 * over(base, over, out, opacity, generic) and erase(base, over, out, opacity, generic): pixels.h
 * over_pixels (opacity rounded to f32) or erase_pixels over base's pixels, by the function's data
 * ("over" or "erase"); true.
 */
static napi_value over_or_erase(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  void *data;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, &data) != napi_ok) return fail(env, "over/erase: arguments");
  const char *what = data;
  char msg[64];
  snprintf(msg, sizeof msg, "%s: 5 arguments", what);
  if (argc < 5) return fail(env, msg);
  double opacity;
  int32_t generic;
  if (napi_get_value_double(env, argv[3], &opacity) != napi_ok || napi_get_value_int32(env, argv[4], &generic) != napi_ok) {
    snprintf(msg, sizeof msg, "%s: number arguments", what);
    return fail(env, msg);
  }
  const float *base, *src;
  float *out;
  const int64_t n = blend_arrays(env, argv, what, &base, &src, &out);
  if (n < 0) return NULL;
  const int fast = HAVE_AVX512 && !generic && avx512();
  if (what[0] == 'o')
    over_pixels(base, src, out, (size_t)n, (float)opacity, fast);
  else
    erase_pixels(base, src, out, (size_t)n, opacity, fast);
  return true_value(env);
}

/**
 * dabs(mem, W, H, count, runCount, groups, geom, group, paints, runs, runGroup, out, layer, cms,
 * touched, hardness, aa, generic): stroke.wat `draw` on `mem`'s bytes (dabs.h dabs_draw); true.
 * Every array must lie in the memory (the planes W H long, the touched list W H + 8 entries),
 * aligned to its element, and every group index below `groups`.
 */
static napi_value dabs_js(napi_env env, napi_callback_info info) {
  size_t argc = 18;
  napi_value argv[18];
  const char *msg = "dabs: a Uint8Array, fourteen whole numbers >= 0, hardness, aa and the copy";
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 18) return fail(env, msg);
  size_t len;
  uint8_t *mem = array_len(env, argv[0], napi_uint8_array, &len);
  double v[14], hardness, aa;
  int32_t generic;
  int ok = mem != NULL && napi_get_value_double(env, argv[15], &hardness) == napi_ok && napi_get_value_double(env, argv[16], &aa) == napi_ok &&
           napi_get_value_int32(env, argv[17], &generic) == napi_ok;
  for (int i = 0; ok && i < 14; i++) ok = napi_get_value_double(env, argv[1 + i], &v[i]) == napi_ok && v[i] >= 0 && v[i] == floor(v[i]) && v[i] < 4294967296.0;
  if (!ok) return fail(env, msg);
  const double W = v[0], H = v[1], count = v[2], runCount = v[3], groups = v[4];
  if (W < 1 || H < 1 || W * H > (double)(1 << 28) || groups >= (double)(1u << 31)) return fail(env, "dabs: a canvas or group count out of range");
  const double n = W * H;
  // byte offset, bytes and alignment of each array: geom, group, paints, runs, runGroup, out, layer, cms, touched
  const double need[9] = {count * 16, count * 4, groups * 16, runCount * 72, runCount * 4, n * 16, n * 4, n * 8, (n + 8) * 4};
  const int align[9] = {4, 4, 4, 8, 4, 4, 4, 8, 4};
  for (int k = 0; k < 9; k++)
    if (v[5 + k] + need[k] > (double)len || ((uintptr_t)mem + (uintptr_t)v[5 + k]) % align[k]) return fail(env, "dabs: an array outside the memory or misaligned");
  DabDraw D = {
      .W = (int)W,
      .H = (int)H,
      .geom = (const float *)(mem + (size_t)v[5]),
      .group = (const uint32_t *)(mem + (size_t)v[6]),
      .paints = (const float *)(mem + (size_t)v[7]),
      .runs = (const double *)(mem + (size_t)v[8]),
      .runGroup = (const uint32_t *)(mem + (size_t)v[9]),
      .out = (float *)(mem + (size_t)v[10]),
      .layer = (float *)(mem + (size_t)v[11]),
      .cms = (double *)(mem + (size_t)v[12]),
      .touched = (uint32_t *)(mem + (size_t)v[13]),
      .cap = (size_t)n,
      .hardness = hardness,
      .aa = aa,
      .halfAa = aa / 2,
      .invAa = aa > 0 ? 1 / aa : 0,
  };
  for (size_t i = 0; i < (size_t)count; i++)
    if (D.group[i] >= groups) return fail(env, "dabs: a dab's group out of range");
  for (size_t i = 0; i < (size_t)runCount; i++)
    if (D.runGroup[i] >= groups) return fail(env, "dabs: a run's group out of range");
  dabs_draw(&D, (size_t)count, (size_t)runCount, (uint32_t)groups, HAVE_AVX512 && !generic && avx512());
  return true_value(env);
}

/**
 * lay(mem, at, args: Float64Array, generic): stroke.wat `lay` (dabs.h lay_dabs) with its arguments
 * and its setup's settings in `args` (LayArgs' order), the dabs written as f32 [cx, cy, r, m] from
 * byte `at` of `mem`: how many. The lattice indices must be whole and finite with at most 65536 of
 * them (stroke's LAY_CHUNK), room for all of them in the memory, the feature key and seed int32s.
 */
static napi_value lay_js(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  const char *msg = "lay: a Uint8Array, a byte offset, a Float64Array of 24 arguments and the copy";
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4) return fail(env, msg);
  size_t len;
  uint8_t *mem = array_len(env, argv[0], napi_uint8_array, &len);
  const double *v = array_arg(env, argv[2], napi_float64_array, LAY_ARGS);
  double at;
  int32_t generic;
  if (!mem || !v || napi_get_value_double(env, argv[1], &at) != napi_ok || napi_get_value_int32(env, argv[3], &generic) != napi_ok || !(at >= 0) ||
      at != floor(at) || fmod(at, 4) != 0 || at > (double)len)
    return fail(env, msg);
  LayArgs a;
  memcpy(&a, v, sizeof a);
  const double whole = 4503599627370496.0; // 2^52: k + 1 is exact below it
  if (!(fabs(a.k) < whole && fabs(a.kEnd) < whole && a.k == floor(a.k) && a.kEnd == floor(a.kEnd) && a.kEnd - a.k < 65536))
    return fail(env, "lay: lattice indices not whole, not finite or more than 65536 of them");
  if (!(a.fkey == floor(a.fkey) && fabs(a.fkey + 0.5) < 2147483648.0 && a.seed == floor(a.seed) && fabs(a.seed + 0.5) < 2147483648.0))
    return fail(env, "lay: the feature key and seed must be int32s");
  const double dabs = a.kEnd >= a.k ? a.kEnd - a.k + 1 : 0;
  if (at + 16 * dabs > (double)len || ((uintptr_t)mem + (uintptr_t)at) % 4) return fail(env, "lay: no room for the dabs in the memory");
  napi_value result;
  napi_create_uint32(env, (uint32_t)lay_dabs(&a, (float *)(mem + (size_t)at), HAVE_AVX512 && !generic && avx512()), &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn, simd;
  napi_create_function(env, "noise", NAPI_AUTO_LENGTH, noise, NULL, &fn);
  napi_set_named_property(env, exports, "noise", fn);
  napi_create_function(env, "ramp", NAPI_AUTO_LENGTH, ramp, NULL, &fn);
  napi_set_named_property(env, exports, "ramp", fn);
  napi_create_function(env, "multiply", NAPI_AUTO_LENGTH, multiply, NULL, &fn);
  napi_set_named_property(env, exports, "multiply", fn);
  napi_create_function(env, "convert", NAPI_AUTO_LENGTH, convert, NULL, &fn);
  napi_set_named_property(env, exports, "convert", fn);
  napi_create_function(env, "over", NAPI_AUTO_LENGTH, over_or_erase, (void *)"over", &fn);
  napi_set_named_property(env, exports, "over", fn);
  napi_create_function(env, "erase", NAPI_AUTO_LENGTH, over_or_erase, (void *)"erase", &fn);
  napi_set_named_property(env, exports, "erase", fn);
  napi_create_function(env, "convY", NAPI_AUTO_LENGTH, conv_y_js, NULL, &fn);
  napi_set_named_property(env, exports, "convY", fn);
  napi_create_function(env, "convX", NAPI_AUTO_LENGTH, conv_x_js, NULL, &fn);
  napi_set_named_property(env, exports, "convX", fn);
  napi_create_function(env, "dabs", NAPI_AUTO_LENGTH, dabs_js, NULL, &fn);
  napi_set_named_property(env, exports, "dabs", fn);
  napi_create_function(env, "lay", NAPI_AUTO_LENGTH, lay_js, NULL, &fn);
  napi_set_named_property(env, exports, "lay", fn);
  napi_create_string_utf8(env, avx512() ? "avx512" : "", NAPI_AUTO_LENGTH, &simd);
  napi_set_named_property(env, exports, "simd", simd);
  return exports;
}
