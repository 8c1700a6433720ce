// Per-pixel kernels of native/kernels.c (included there once): the colour ramp over a scalar field
// (src/ops/color-ramp/cpu.ts `rampField`, its reference `rampFieldReference`) with the same f64
// operations in the same order (each lane the scalar IEEE operation; no fused multiply-adds:
// kernels.c's FP_CONTRACT and -ffp-contract=off), so the pixels are the same bits as the
// TypeScript and WebAssembly kernels (color-ramp.test.ts). The portable copy goes pixel by pixel;
// the AVX-512 one eight pixels at a time.

/**
 * The stop segment the pixels before ended in (the last one to start with): the highest s with
 * values[s] <= t for a t in [vs, ve), its scale (size - 1) / (ve - vs) and its first table entry.
 */
typedef struct {
  int s;
  double vs, ve, sc;
  size_t base;
} Segment;

static void segment_at(Segment *g, const double *values, int s, int size) {
  g->s = s;
  g->vs = values[s];
  g->ve = values[s + 1];
  g->sc = (double)(size - 1) / (g->ve - g->vs);
  g->base = (size_t)s * size;
}

/**
 * Pixels [i0, i1) of ramp_pixels one by one: t NaN transparent; below values[0] or at or above
 * values[last] the end colour at alpha a = end.a opacity, (rgb a, a); else the highest segment s
 * with values[s] <= t (the one before tried first), p = (t - values[s]) scale, j = min(floor(p),
 * size - 2), f = p - j, c = c0 + f (c1 - c0) of entries j and j + 1, a = c.a opacity, (c.rgb a, a),
 * each channel rounded to f32 once. A pixel whose value has the bits of the one before copies its
 * colour (the same t gives the same colour).
 */
static void ramp_scalar(Segment *g, const float *src, size_t i0, size_t i1, float *out, const float *table, const double *values, int last,
                        int size, const float *ends, double opacity) {
  const double lo = values[0], hi = values[last];
  const int top = size - 2;
  for (size_t i = i0; i < i1; i++) {
    float *q = out + i * 4;
    if (i > 0 && memcmp(src + i, src + i - 1, 4) == 0) {
      memcpy(q, q - 4, 16);
      continue;
    }
    const double t = src[i];
    if (!(t >= g->vs && t < g->ve)) {
      if (t != t) {
        memset(q, 0, 16);
        continue;
      }
      if (t < lo || t >= hi) {
        const float *e = t < lo ? ends : ends + 4;
        const double a = (double)e[3] * opacity;
        q[0] = (float)((double)e[0] * a);
        q[1] = (float)((double)e[1] * a);
        q[2] = (float)((double)e[2] * a);
        q[3] = (float)a;
        continue;
      }
      int s = last - 1;
      while (values[s] > t) s--;
      segment_at(g, values, s, size);
    }
    const double p = (t - g->vs) * g->sc;
    int j = (int)p; // p >= 0 (ascending values): truncation is floor
    if (j > top) j = top;
    if (j < 0) j = 0; // only for values out of order, which no caller passes: never a read before the table
    const double f = p - (double)j;
    const float *e = table + (g->base + (size_t)j) * 4;
    const double c0 = e[0], c1 = e[1], c2 = e[2], c3 = e[3];
    const double r = c0 + f * ((double)e[4] - c0), gr = c1 + f * ((double)e[5] - c1), b = c2 + f * ((double)e[6] - c2);
    const double a = (c3 + f * ((double)e[7] - c3)) * opacity;
    q[0] = (float)(r * a);
    q[1] = (float)(gr * a);
    q[2] = (float)(b * a);
    q[3] = (float)a;
  }
}

#if HAVE_AVX512
/**
 * ramp_scalar's pixels eight at a time where every one of the eight is in the segment of the
 * pixels before, NaN or past an end (those three are the same colour each per call): each lane's
 * two table entries read as one 32-byte row, the eight rows transposed into channels, the lerp
 * and the alpha in f64 lanes, the special lanes selected, transposed back into RGBA. Eight pixels
 * with another segment among them go through ramp_scalar (which moves to it).
 */
static TARGET512 void ramp_avx512(Segment *g, const float *src, size_t n, float *out, const float *table, const double *values, int last,
                                  int size, const float *ends, double opacity) {
  const double lo = values[0], hi = values[last];
  // The end colours as ramp_scalar computes them.
  float endc[2][4];
  for (int k = 0; k < 2; k++) {
    const float *e = ends + 4 * k;
    const double a = (double)e[3] * opacity;
    for (int c = 0; c < 3; c++) endc[k][c] = (float)((double)e[c] * a);
    endc[k][3] = (float)a;
  }
  const __m512d vlo = _mm512_set1_pd(lo), vhi = _mm512_set1_pd(hi), vop = _mm512_set1_pd(opacity);
  const __m256i vtop = _mm256_set1_epi32(size - 2), vzero = _mm256_setzero_si256();
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512d t = _mm512_cvtps_pd(_mm256_loadu_ps(src + i));
    const __m512d vs = _mm512_set1_pd(g->vs), ve = _mm512_set1_pd(g->ve);
    const __mmask8 in = _mm512_cmp_pd_mask(t, vs, _CMP_GE_OQ) & _mm512_cmp_pd_mask(t, ve, _CMP_LT_OQ);
    __mmask8 nan = 0, below = 0, above = 0;
    if (in != 0xff) {
      nan = _mm512_cmp_pd_mask(t, t, _CMP_UNORD_Q);
      below = _mm512_cmp_pd_mask(t, vlo, _CMP_LT_OQ);
      above = _mm512_cmp_pd_mask(t, vhi, _CMP_GE_OQ);
      if ((__mmask8)(in | nan | below | above) != 0xff) {
        ramp_scalar(g, src, i, i + 8, out, table, values, last, size, ends, opacity);
        continue;
      }
    }
    const __m512d p = _mm512_mul_pd(_mm512_sub_pd(t, vs), _mm512_set1_pd(g->sc));
    // p >= 0 in the segment's lanes: truncation is floor; the others' garbage index kept in the table
    const __m256i j = _mm256_max_epi32(_mm256_min_epi32(_mm512_cvttpd_epi32(p), vtop), vzero);
    const __m512d f = _mm512_sub_pd(p, _mm512_cvtepi32_pd(j));
    int32_t jj[8];
    _mm256_storeu_si256((__m256i *)jj, j);
    __m256 row[8];
    for (int l = 0; l < 8; l++) row[l] = _mm256_loadu_ps(table + (g->base + (size_t)jj[l]) * 4);
    // rows (c0 r g b a, c1 r g b a) of the eight lanes -> eight channel vectors
    const __m256 t0 = _mm256_unpacklo_ps(row[0], row[1]), t1 = _mm256_unpackhi_ps(row[0], row[1]);
    const __m256 t2 = _mm256_unpacklo_ps(row[2], row[3]), t3 = _mm256_unpackhi_ps(row[2], row[3]);
    const __m256 t4 = _mm256_unpacklo_ps(row[4], row[5]), t5 = _mm256_unpackhi_ps(row[4], row[5]);
    const __m256 t6 = _mm256_unpacklo_ps(row[6], row[7]), t7 = _mm256_unpackhi_ps(row[6], row[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xee);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xee);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xee);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xee);
    const __m256 ch[8] = {
        _mm256_permute2f128_ps(s0, s4, 0x20), _mm256_permute2f128_ps(s1, s5, 0x20), _mm256_permute2f128_ps(s2, s6, 0x20),
        _mm256_permute2f128_ps(s3, s7, 0x20), _mm256_permute2f128_ps(s0, s4, 0x31), _mm256_permute2f128_ps(s1, s5, 0x31),
        _mm256_permute2f128_ps(s2, s6, 0x31), _mm256_permute2f128_ps(s3, s7, 0x31),
    };
    __m512d v[4];
    for (int c = 0; c < 4; c++) {
      const __m512d c0 = _mm512_cvtps_pd(ch[c]);
      v[c] = _mm512_add_pd(c0, _mm512_mul_pd(f, _mm512_sub_pd(_mm512_cvtps_pd(ch[c + 4]), c0)));
    }
    const __m512d a = _mm512_mul_pd(v[3], vop);
    __m256 r = _mm512_cvtpd_ps(_mm512_mul_pd(v[0], a)), gg = _mm512_cvtpd_ps(_mm512_mul_pd(v[1], a));
    __m256 b = _mm512_cvtpd_ps(_mm512_mul_pd(v[2], a)), al = _mm512_cvtpd_ps(a);
    if (in != 0xff) {
      r = _mm256_mask_blend_ps(below, _mm256_mask_blend_ps(above, r, _mm256_set1_ps(endc[1][0])), _mm256_set1_ps(endc[0][0]));
      gg = _mm256_mask_blend_ps(below, _mm256_mask_blend_ps(above, gg, _mm256_set1_ps(endc[1][1])), _mm256_set1_ps(endc[0][1]));
      b = _mm256_mask_blend_ps(below, _mm256_mask_blend_ps(above, b, _mm256_set1_ps(endc[1][2])), _mm256_set1_ps(endc[0][2]));
      al = _mm256_mask_blend_ps(below, _mm256_mask_blend_ps(above, al, _mm256_set1_ps(endc[1][3])), _mm256_set1_ps(endc[0][3]));
      const __m256 zero = _mm256_setzero_ps();
      r = _mm256_mask_blend_ps(nan, r, zero);
      gg = _mm256_mask_blend_ps(nan, gg, zero);
      b = _mm256_mask_blend_ps(nan, b, zero);
      al = _mm256_mask_blend_ps(nan, al, zero);
    }
    // channels -> RGBA of the eight pixels
    const __m256 u0 = _mm256_unpacklo_ps(r, gg), u1 = _mm256_unpackhi_ps(r, gg);
    const __m256 u2 = _mm256_unpacklo_ps(b, al), u3 = _mm256_unpackhi_ps(b, al);
    const __m256 w0 = _mm256_shuffle_ps(u0, u2, 0x44), w1 = _mm256_shuffle_ps(u0, u2, 0xee);
    const __m256 w2 = _mm256_shuffle_ps(u1, u3, 0x44), w3 = _mm256_shuffle_ps(u1, u3, 0xee);
    float *q = out + i * 4;
    _mm256_storeu_ps(q, _mm256_permute2f128_ps(w0, w1, 0x20));
    _mm256_storeu_ps(q + 8, _mm256_permute2f128_ps(w2, w3, 0x20));
    _mm256_storeu_ps(q + 16, _mm256_permute2f128_ps(w0, w1, 0x31));
    _mm256_storeu_ps(q + 24, _mm256_permute2f128_ps(w2, w3, 0x31));
  }
  ramp_scalar(g, src, i, n, out, table, values, last, size, ends, opacity);
}
#endif

/** ramp(src, n, out, ...): n pixels of the field src as premultiplied RGBA at out (ramp_scalar). */
static void ramp_pixels(const float *src, size_t n, float *out, const float *table, const double *values, int last, int size, const float *ends,
                        double opacity, int fast) {
  Segment g;
  segment_at(&g, values, last - 1, size);
#if HAVE_AVX512
  if (fast) {
    ramp_avx512(&g, src, n, out, table, values, last, size, ends, opacity);
    return;
  }
#endif
  (void)fast;
  ramp_scalar(&g, src, 0, n, out, table, values, last, size, ends, opacity);
}

// ---------------------------------------------------------------------------------------------
// blend's `multiply` over (or atop) without a mask: src/ops/blend/cpu.ts `multiply`, the same f64
// operations per channel in its order, so the same bits (blend.test.ts).

static inline double clamp01(double x) {
  return x > 0 ? (x < 1 ? x : 1) : 0;
}

/**
 * Pixels [p0, p1) one by one: where the source alpha is not > 0, or its alpha times opacity is 0,
 * the base with its alpha clamped to [0, 1]; else with ab = clamp01(base alpha), srcA = min(oa, 1),
 * as = srcA opacity, s = clamp01(source / srcA) and m = clamp01(cb) s where ab is 1, (1 - ab) s +
 * ab (clamp01(cb / ab) s) where it is in (0, 1), s where it is 0: co = fa m + (1 - as) cb with
 * fa = as ab (atop) or as, ao = ab (atop) or as + ab (1 - as).
 */
static void multiply_scalar(const float *base, const float *over, float *out, size_t p0, size_t p1, double opacity, int atop) {
  for (size_t p = p0; p < p1; p++) {
    const size_t i = p * 4;
    const double oa = over[i + 3];
    const double ab = clamp01(base[i + 3]);
    const double cb[3] = {base[i], base[i + 1], base[i + 2]};
    const double srcA = oa < 1 ? oa : 1;
    const double as = srcA * opacity;
    if (!(oa > 0) || as == 0) {
      if (out != base) memcpy(out + i, base + i, 12);
      out[i + 3] = (float)ab;
      continue;
    }
    const double fa = atop ? as * ab : as;
    const double k = 1 - as;
    for (int c = 0; c < 3; c++) {
      const double s = srcA == 1 ? clamp01(over[i + c]) : clamp01(over[i + c] / srcA);
      double m = s;
      if (ab == 1) m = clamp01(cb[c]) * s;
      else if (ab > 0) m = (1 - ab) * s + ab * (clamp01(cb[c] / ab) * s);
      out[i + c] = (float)(fa * m + k * cb[c]);
    }
    out[i + 3] = (float)(atop ? ab : as + ab * k);
  }
}

#if HAVE_AVX512
/** Four registers of two RGBA pixels each -> the eight pixels' r, g, b and a. */
#define RGBA_TO_CHANNELS(p0, p1, p2, p3, r, g, b, a)                                                    \
  do {                                                                                                \
    const __m256 x0_ = _mm256_permute2f128_ps(p0, p2, 0x20), x1_ = _mm256_permute2f128_ps(p1, p3, 0x20); \
    const __m256 x2_ = _mm256_permute2f128_ps(p0, p2, 0x31), x3_ = _mm256_permute2f128_ps(p1, p3, 0x31); \
    /* x0: px 0 | px 4, x1: px 2 | px 6, x2: px 1 | px 5, x3: px 3 | px 7 */                          \
    const __m256 y0_ = _mm256_unpacklo_ps(x0_, x2_), y1_ = _mm256_unpackhi_ps(x0_, x2_);               \
    const __m256 y2_ = _mm256_unpacklo_ps(x1_, x3_), y3_ = _mm256_unpackhi_ps(x1_, x3_);               \
    /* y0: r0 r1 g0 g1 | r4 r5 g4 g5, y1: b0 b1 a0 a1 | ..., y2: r2 r3 g2 g3 | r6 r7 g6 g7 */         \
    (r) = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(y0_), _mm256_castps_pd(y2_)));        \
    (g) = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(y0_), _mm256_castps_pd(y2_)));        \
    (b) = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(y1_), _mm256_castps_pd(y3_)));        \
    (a) = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(y1_), _mm256_castps_pd(y3_)));        \
  } while (0)

/** The eight pixels' r, g, b and a -> RGBA stored at q (ramp_avx512's transpose). */
static TARGET512 inline void store_rgba8(float *q, __m256 r, __m256 g, __m256 b, __m256 a) {
  const __m256 u0 = _mm256_unpacklo_ps(r, g), u1 = _mm256_unpackhi_ps(r, g);
  const __m256 u2 = _mm256_unpacklo_ps(b, a), u3 = _mm256_unpackhi_ps(b, a);
  const __m256 w0 = _mm256_shuffle_ps(u0, u2, 0x44), w1 = _mm256_shuffle_ps(u0, u2, 0xee);
  const __m256 w2 = _mm256_shuffle_ps(u1, u3, 0x44), w3 = _mm256_shuffle_ps(u1, u3, 0xee);
  _mm256_storeu_ps(q, _mm256_permute2f128_ps(w0, w1, 0x20));
  _mm256_storeu_ps(q + 8, _mm256_permute2f128_ps(w2, w3, 0x20));
  _mm256_storeu_ps(q + 16, _mm256_permute2f128_ps(w0, w1, 0x31));
  _mm256_storeu_ps(q + 24, _mm256_permute2f128_ps(w2, w3, 0x31));
}

/** clamp01 of each lane: max(x, +0) is (x > +0 ? x : +0), NaN and -0 included, then min(y, 1). */
static TARGET512 inline __m512d clamp01_8(__m512d x) {
  return _mm512_min_pd(_mm512_max_pd(x, _mm512_setzero_pd()), _mm512_set1_pd(1));
}

/**
 * multiply_scalar eight pixels at a time: each lane the scalar's f64 operations, its branches as
 * selects (the shortcuts are the same values: x / 1 is x; with ab = 1 the chosen lane is
 * clamp01(cb) s as the scalar takes it), the divisions only where a lane needs them.
 */
static TARGET512 void multiply_avx512(const float *base, const float *over, float *out, size_t n, double opacity, int atop) {
  const __m512d one = _mm512_set1_pd(1), vop = _mm512_set1_pd(opacity), zero = _mm512_setzero_pd();
  const __m256 zero32 = _mm256_setzero_ps(), one32 = _mm256_set1_ps(1);
  size_t p = 0;
  for (; p + 8 <= n; p += 8) {
    const float *b8 = base + p * 4, *o8 = over + p * 4;
    float *q = out + p * 4;
    __m256 br, bg, bb, ba, orr, og, ob, oa;
    RGBA_TO_CHANNELS(_mm256_loadu_ps(b8), _mm256_loadu_ps(b8 + 8), _mm256_loadu_ps(b8 + 16), _mm256_loadu_ps(b8 + 24), br, bg, bb, ba);
    RGBA_TO_CHANNELS(_mm256_loadu_ps(o8), _mm256_loadu_ps(o8 + 8), _mm256_loadu_ps(o8 + 16), _mm256_loadu_ps(o8 + 24), orr, og, ob, oa);
    // clamp01 of the base alpha (its value, 0 or 1: exact in f32)
    const __m256 ab32 = _mm256_min_ps(_mm256_max_ps(ba, zero32), one32);
    const __mmask8 cover = _mm256_cmp_ps_mask(oa, zero32, _CMP_GT_OQ);
    if (!cover) {
      store_rgba8(q, br, bg, bb, ab32);
      continue;
    }
    const __m512d ab = _mm512_cvtps_pd(ab32);
    const __m512d srcA = _mm512_min_pd(_mm512_cvtps_pd(oa), one); // oa < 1 ? oa : 1
    const __m512d as = _mm512_mul_pd(srcA, vop);
    const __mmask8 keep = (__mmask8)(~cover | _mm512_cmp_pd_mask(as, zero, _CMP_EQ_OQ)); // the base, alpha clamped
    const __m512d fa = atop ? _mm512_mul_pd(as, ab) : as;
    const __m512d k = _mm512_sub_pd(one, as);
    // lanes: srcA is 1 (no division), ab 1 (clamp01(cb) s), ab in (0, 1) (the mix)
    const __mmask8 undivided = _mm512_cmp_pd_mask(srcA, one, _CMP_EQ_OQ);
    const __mmask8 abOne = _mm512_cmp_pd_mask(ab, one, _CMP_EQ_OQ);
    const __mmask8 mix = (__mmask8)(_mm512_cmp_pd_mask(ab, zero, _CMP_GT_OQ) & ~abOne);
    const __m256 oc[3] = {orr, og, ob}, bc[3] = {br, bg, bb};
    __m256 res[3];
    for (int c = 0; c < 3; c++) {
      const __m512d cb = _mm512_cvtps_pd(bc[c]);
      const __m512d o = _mm512_cvtps_pd(oc[c]);
      __m512d s = clamp01_8(o);
      if ((__mmask8)(undivided | ~cover) != 0xff) s = _mm512_mask_blend_pd(undivided, clamp01_8(_mm512_div_pd(o, srcA)), s);
      __m512d m = _mm512_mask_blend_pd(abOne, s, _mm512_mul_pd(clamp01_8(cb), s));
      if (mix & cover) {
        const __m512d bq = clamp01_8(_mm512_div_pd(cb, ab));
        const __m512d mixed = _mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(one, ab), s), _mm512_mul_pd(ab, _mm512_mul_pd(bq, s)));
        m = _mm512_mask_blend_pd(mix, m, mixed);
      }
      const __m256 co = _mm512_cvtpd_ps(_mm512_add_pd(_mm512_mul_pd(fa, m), _mm512_mul_pd(k, cb)));
      res[c] = _mm256_mask_blend_ps(keep, co, bc[c]);
    }
    const __m256 ao = atop ? ab32 : _mm512_cvtpd_ps(_mm512_add_pd(as, _mm512_mul_pd(ab, k)));
    store_rgba8(q, res[0], res[1], res[2], _mm256_mask_blend_ps(keep, ao, ab32));
  }
  multiply_scalar(base, over, out, p, n, opacity, atop);
}
#endif

/** multiply over `n` pixels (multiply_scalar); `fast` the AVX-512 copy. */
static void multiply_pixels(const float *base, const float *over, float *out, size_t n, double opacity, int atop, int fast) {
#if HAVE_AVX512
  if (fast) {
    multiply_avx512(base, over, out, n, opacity, atop);
    return;
  }
#endif
  (void)fast;
  multiply_scalar(base, over, out, 0, n, opacity, atop);
}

// ---------------------------------------------------------------------------------------------
// The PNG encoder's conversion (src/render/png-rows.wat `convert`, its reference encode.ts
// toRGBA8Reference): premultiplied float RGBA -> packed straight RGBA8, the same bytes.

/** ToUint8Clamp of x: round half to even, NaN and negatives 0, past 255 255. */
static inline uint32_t u8_of(double x) {
  const double r = nearbyint(x);
  return r > 0 ? (r < 255 ? (uint32_t)r : 255) : 0;
}

/**
 * Pixels [p0, p1) one by one: alpha >= 1 each colour ToUint8Clamp(c 255), alpha 255; 0 < alpha < 1
 * ToUint8Clamp(c (255 / a)) and ToUint8Clamp(a 255); else (0, negative, NaN) all zero; packed as
 * r | g << 8 | b << 16 | a << 24. Returns the AND of the packed values.
 */
static uint32_t convert_scalar(const float *in, uint32_t *out, size_t p0, size_t p1) {
  uint32_t all = 0xffffffffu;
  for (size_t p = p0; p < p1; p++) {
    const float *v = in + p * 4;
    const double a = v[3];
    uint32_t w = 0;
    if (a >= 1 || a > 0) {
      const double f = a >= 1 ? 255 : 255 / a;
      const uint32_t alpha = a >= 1 ? 255 : u8_of(a * 255);
      w = u8_of((double)v[0] * f) | u8_of((double)v[1] * f) << 8 | u8_of((double)v[2] * f) << 16 | alpha << 24;
    }
    out[p] = w;
    all &= w;
  }
  return all;
}

#if HAVE_AVX512
/** ToUint8Clamp of each lane (u8_of) as i32 lanes. */
static TARGET512 inline __m256i u8_of8(__m512d x) {
  const __m512d r = _mm512_roundscale_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  // max(r, +0) is (r > +0 ? r : +0): NaN and negatives 0; then at most 255
  return _mm512_cvttpd_epi32(_mm512_min_pd(_mm512_max_pd(r, _mm512_setzero_pd()), _mm512_set1_pd(255)));
}

/** convert_scalar eight pixels a step (the division only where a lane is translucent). */
static TARGET512 uint32_t convert_avx512(const float *in, uint32_t *out, size_t n) {
  __m256i all = _mm256_set1_epi32(-1);
  const __m512d one = _mm512_set1_pd(1), zero = _mm512_setzero_pd(), k255 = _mm512_set1_pd(255);
  size_t p = 0;
  for (; p + 8 <= n; p += 8) {
    const float *v = in + p * 4;
    __m256 r, g, b, a32;
    RGBA_TO_CHANNELS(_mm256_loadu_ps(v), _mm256_loadu_ps(v + 8), _mm256_loadu_ps(v + 16), _mm256_loadu_ps(v + 24), r, g, b, a32);
    const __m512d a = _mm512_cvtps_pd(a32);
    const __mmask8 opaque = _mm512_cmp_pd_mask(a, one, _CMP_GE_OQ);
    const __mmask8 some = (__mmask8)(_mm512_cmp_pd_mask(a, zero, _CMP_GT_OQ) | opaque);
    __m512d f = k255;
    __m256i alpha = _mm256_set1_epi32(255);
    if (opaque != 0xff) {
      f = _mm512_mask_blend_pd(opaque, _mm512_div_pd(k255, a), k255);
      alpha = _mm256_mask_blend_epi32(opaque, u8_of8(_mm512_mul_pd(a, k255)), alpha);
    }
    __m256i w = _mm256_or_si256(_mm256_or_si256(u8_of8(_mm512_mul_pd(_mm512_cvtps_pd(r), f)), _mm256_slli_epi32(u8_of8(_mm512_mul_pd(_mm512_cvtps_pd(g), f)), 8)),
                                _mm256_or_si256(_mm256_slli_epi32(u8_of8(_mm512_mul_pd(_mm512_cvtps_pd(b), f)), 16), _mm256_slli_epi32(alpha, 24)));
    w = _mm256_maskz_mov_epi32(some, w);
    _mm256_storeu_si256((__m256i *)(out + p), w);
    all = _mm256_and_si256(all, w);
  }
  uint32_t lanes[8], acc = convert_scalar(in, out, p, n);
  _mm256_storeu_si256((__m256i *)lanes, all);
  for (int l = 0; l < 8; l++) acc &= lanes[l];
  return acc;
}
#endif

/** convert over n pixels; 1 where every alpha came out 255. */
static int convert_pixels(const float *in, uint32_t *out, size_t n, int fast) {
  uint32_t all;
#if HAVE_AVX512
  if (fast)
    all = convert_avx512(in, out, n);
  else
#endif
    all = convert_scalar(in, out, 0, n);
  (void)fast;
  return all >> 24 == 255; // (no pixels: 1, as png-rows.wat)
}

// ---------------------------------------------------------------------------------------------
// blend's `normal` + `over` without a mask as src/ops/blend/blend.wat `over` computes it (in f32:
// co = f cs + (1 - as) cb, ao = as + (1 - as) ab, as = min(srcA, 1) f; the base unchanged where
// srcA is not > 0), the same f32 operations, so the same bits as the WebAssembly kernel.

/** Pixels [p0, p1) one by one. */
static void over_scalar(const float *base, const float *over, float *out, size_t p0, size_t p1, float f) {
  for (size_t p = p0; p < p1; p++) {
    const float *s = over + p * 4, *b = base + p * 4;
    float *o = out + p * 4;
    const float sa = s[3];
    if (!(sa > 0)) {
      if (o != b) memcpy(o, b, 16);
      continue;
    }
    const float as = (1.0f < sa ? 1.0f : sa) * f, k = 1.0f - as;
    const float r = f * s[0] + k * b[0], g = f * s[1] + k * b[1], bl = f * s[2] + k * b[2], a = as + k * b[3];
    o[0] = r;
    o[1] = g;
    o[2] = bl;
    o[3] = a;
  }
}

#if HAVE_AVX512
/** over_scalar four pixels a step (one 16-lane vector). */
static TARGET512 void over_avx512(const float *base, const float *over, float *out, size_t n, float f) {
  const __m512 vf = _mm512_set1_ps(f), one = _mm512_set1_ps(1), zero = _mm512_setzero_ps();
  size_t p = 0;
  for (; p + 4 <= n; p += 4) {
    const __m512 s = _mm512_loadu_ps(over + p * 4), b = _mm512_loadu_ps(base + p * 4);
    const __m512 sa = _mm512_permute_ps(s, 0xff); // each pixel's alpha in its four lanes
    const __mmask16 cover = _mm512_cmp_ps_mask(sa, zero, _CMP_GT_OQ);
    if (!cover) {
      if (out != base) _mm512_storeu_ps(out + p * 4, b);
      continue;
    }
    const __m512 as = _mm512_mul_ps(_mm512_min_ps(one, sa), vf); // min(one, sa): one < sa ? one : sa
    const __m512 t = _mm512_mask_blend_ps(0x8888, _mm512_mul_ps(vf, s), as);
    const __m512 r = _mm512_add_ps(t, _mm512_mul_ps(_mm512_sub_ps(one, as), b));
    _mm512_storeu_ps(out + p * 4, _mm512_mask_blend_ps(cover, b, r));
  }
  over_scalar(base, over, out, p, n, f);
}
#endif

/** over across `n` pixels; `fast` the AVX-512 copy. */
static void over_pixels(const float *base, const float *over, float *out, size_t n, float f, int fast) {
#if HAVE_AVX512
  if (fast) {
    over_avx512(base, over, out, n, f);
    return;
  }
#endif
  (void)fast;
  over_scalar(base, over, out, 0, n, f);
}

// ---------------------------------------------------------------------------------------------
// blur's convolutions with one weight table (src/ops/blur/blur.wat convY and convX): each output
// value 0 + W[0] x0 + W[1] x1 + ... in tap order, in f32 (no fused multiply-add), the bits of the
// WebAssembly kernels. `w` holds one f32x4 a tap (the weight in every lane): W[t] is w[4 t].

/**
 * convY: output row y (len floats at out + y outStride) = sum over t < taps of W[t] input row
 * y + t (at in + (y + t) inStride), for y < nOut (strides in floats).
 */
static void conv_y_scalar(const float *in, size_t inStride, float *out, size_t outStride, size_t len, int nOut, const float *w, int taps) {
  for (int y = 0; y < nOut; y++)
    for (size_t j = 0; j < len; j++) {
      float a = 0;
      for (int t = 0; t < taps; t++) a = a + in[(size_t)(y + t) * inStride + j] * w[4 * t];
      out[(size_t)y * outStride + j] = a;
    }
}

/** convX: per row y < rows, output pixel x < nOut (four floats) = sum over t < taps of W[t] input pixel x + t. */
static void conv_x_scalar(const float *in, size_t inStride, int rows, float *out, size_t outStride, int nOut, const float *w, int taps) {
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < nOut; x++)
      for (int c = 0; c < 4; c++) {
        float a = 0;
        for (int t = 0; t < taps; t++) a = a + in[(size_t)y * inStride + (size_t)(x + t) * 4 + c] * w[4 * t];
        out[(size_t)y * outStride + (size_t)x * 4 + c] = a;
      }
}

#if HAVE_AVX512
/** conv_y_scalar sixteen floats of a row a step (the last step masked). */
static TARGET512 void conv_y_avx512(const float *in, size_t inStride, float *out, size_t outStride, size_t len, int nOut, const float *w, int taps) {
  for (int y = 0; y < nOut; y++)
    for (size_t j = 0; j < len; j += 16) {
      const __mmask16 m = len - j >= 16 ? 0xffff : (__mmask16)((1u << (len - j)) - 1);
      __m512 a = _mm512_setzero_ps();
      const float *p = in + (size_t)y * inStride + j;
      for (int t = 0; t < taps; t++, p += inStride) a = _mm512_add_ps(a, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, p), _mm512_set1_ps(w[4 * t])));
      _mm512_mask_storeu_ps(out + (size_t)y * outStride + j, m, a);
    }
}

/** conv_x_scalar four pixels a step (the last step masked). */
static TARGET512 void conv_x_avx512(const float *in, size_t inStride, int rows, float *out, size_t outStride, int nOut, const float *w, int taps) {
  for (int y = 0; y < rows; y++)
    for (int x = 0; x < nOut; x += 4) {
      const int n = nOut - x >= 4 ? 4 : nOut - x;
      const __mmask16 m = n == 4 ? 0xffff : (__mmask16)((1u << (4 * n)) - 1);
      __m512 a = _mm512_setzero_ps();
      const float *p = in + (size_t)y * inStride + (size_t)x * 4;
      for (int t = 0; t < taps; t++, p += 4) a = _mm512_add_ps(a, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, p), _mm512_set1_ps(w[4 * t])));
      _mm512_mask_storeu_ps(out + (size_t)y * outStride + (size_t)x * 4, m, a);
    }
}
#endif

// ---------------------------------------------------------------------------------------------
// blend's `erase` composite without a mask (src/ops/blend/blend.wat `erase`, cpu.ts's loop): where
// the source alpha is not > 0 the base with its alpha clamped (in f32); else with k = 1 -
// clamp01(srcA) opacity, (cb k, clamp01(ab) k) in f64, rounded to f32 once. The same bits.

/** Pixels [p0, p1) one by one. */
static void erase_scalar(const float *base, const float *over, float *out, size_t p0, size_t p1, double opacity) {
  for (size_t p = p0; p < p1; p++) {
    const float *b = base + p * 4;
    float *o = out + p * 4;
    const float oa = over[p * 4 + 3], ba = b[3];
    if (!(oa > 0)) {
      if (o != b) memcpy(o, b, 12);
      o[3] = ba > 0 ? (ba < 1 ? ba : 1) : 0;
      continue;
    }
    const double k = 1 - clamp01(oa) * opacity;
    const double r = (double)b[0] * k, g = (double)b[1] * k, bl = (double)b[2] * k, a = clamp01(ba) * k;
    o[0] = (float)r;
    o[1] = (float)g;
    o[2] = (float)bl;
    o[3] = (float)a;
  }
}

#if HAVE_AVX512
/** erase_scalar eight pixels a step. */
static TARGET512 void erase_avx512(const float *base, const float *over, float *out, size_t n, double opacity) {
  const __m512d one = _mm512_set1_pd(1), vop = _mm512_set1_pd(opacity);
  const __m256 zero32 = _mm256_setzero_ps(), one32 = _mm256_set1_ps(1);
  size_t p = 0;
  for (; p + 8 <= n; p += 8) {
    const float *b8 = base + p * 4, *o8 = over + p * 4;
    __m256 br, bg, bb, ba, orr, og, ob, oa;
    RGBA_TO_CHANNELS(_mm256_loadu_ps(b8), _mm256_loadu_ps(b8 + 8), _mm256_loadu_ps(b8 + 16), _mm256_loadu_ps(b8 + 24), br, bg, bb, ba);
    RGBA_TO_CHANNELS(_mm256_loadu_ps(o8), _mm256_loadu_ps(o8 + 8), _mm256_loadu_ps(o8 + 16), _mm256_loadu_ps(o8 + 24), orr, og, ob, oa);
    (void)orr, (void)og, (void)ob;
    const __m256 ab32 = _mm256_min_ps(_mm256_max_ps(ba, zero32), one32); // clamp01 in f32: its value, 0 or 1
    const __mmask8 cover = _mm256_cmp_ps_mask(oa, zero32, _CMP_GT_OQ);
    if (!cover) {
      store_rgba8(out + p * 4, br, bg, bb, ab32);
      continue;
    }
    const __m512d k = _mm512_sub_pd(one, _mm512_mul_pd(clamp01_8(_mm512_cvtps_pd(oa)), vop));
    const __m256 r = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtps_pd(br), k)), g = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtps_pd(bg), k));
    const __m256 bl = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtps_pd(bb), k)), a = _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtps_pd(ab32), k));
    store_rgba8(out + p * 4, _mm256_mask_blend_ps(cover, br, r), _mm256_mask_blend_ps(cover, bg, g), _mm256_mask_blend_ps(cover, bb, bl),
                _mm256_mask_blend_ps(cover, ab32, a));
  }
  erase_scalar(base, over, out, p, n, opacity);
}
#endif

/** erase across `n` pixels; `fast` the AVX-512 copy. */
static void erase_pixels(const float *base, const float *over, float *out, size_t n, double opacity, int fast) {
#if HAVE_AVX512
  if (fast) {
    erase_avx512(base, over, out, n, opacity);
    return;
  }
#endif
  (void)fast;
  erase_scalar(base, over, out, 0, n, opacity);
}
