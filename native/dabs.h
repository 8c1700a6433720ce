// stroke's round dabs (src/ops/stroke/stroke.wat `draw`; its reference src/ops/stroke/cpu.ts
// drawDabsReference) in C: the same f64 operations in the same order and the same Float32 stores,
// so the same bits as the WebAssembly kernel. Each group's dabs and runs combine by maximum alpha
// into a layer (an alpha plane, -1 where no dab of the group has been, and the strength c m that
// set it), composited source-over onto `out` (flush) before the next group.
//
// The AVX-512 copy computes eight dabs' profiles at once: most dabs of the gallery's pencils
// reach only the 2 x 2 pixels from (floor(cx - 0.5), floor(cy - 0.5)) (rim < 1), so a dab is four
// lanes of profile and four compare-and-stores, which then run dab by dab in order (a dab reads
// what the one before it wrote). Wider dabs take eight pixels of a row a step. Included by
// kernels.c (HAVE_AVX512, TARGET512).

typedef struct {
  int W, H;
  const float *geom;
  const uint32_t *group;
  const float *paints;
  const double *runs;
  const uint32_t *runGroup;
  float *out, *layer;
  double *cms;
  uint32_t *touched;
  /** the touched list's length, and its room (W H: a pixel joins once a group) */
  size_t nt, cap;
  double hardness, aa, halfAa, invAa;
} DabDraw;

/** One dab's shape (stroke.wat $dab's locals before its pixels). */
typedef struct {
  double cx, cy, r, m, pa, rim, rim2, softW, core2;
} DabShape;

/** JavaScript's Math.round (ties toward +infinity), exactly. */
static inline double js_round(double x) {
  const double f = floor(x);
  return x - f >= 0.5 ? f + 1 : f;
}

/** WebAssembly's f64.min and f64.max: NaN where either is, -0 below +0. */
static inline double wasm_min(double a, double b) {
  if (a != a || b != b) return NAN;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
static inline double wasm_max(double a, double b) {
  if (a != a || b != b) return NAN;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}

/** WebAssembly's i32.trunc_sat_f64_s. */
static inline int32_t trunc_sat(double x) {
  if (x != x) return 0;
  if (x <= -2147483648.0) return INT32_MIN;
  if (x >= 2147483647.0) return INT32_MAX;
  return (int32_t)x;
}

static void dab_shape(const DabDraw *D, size_t i, uint32_t g, DabShape *s) {
  const float *gp = D->geom + 4 * i;
  s->cx = gp[0];
  s->cy = gp[1];
  s->r = gp[2];
  s->m = gp[3];
  s->pa = D->paints[4 * (size_t)g + 3];
  // with hardness < 1 the fade is 0 at dist >= r, so the rim is r (stroke.wat $dab)
  s->rim = D->aa > 0 && !(D->hardness < 1) ? s->r + D->halfAa : s->r;
  s->rim2 = s->rim * s->rim;
  s->softW = D->hardness < 1 ? 1 / ((1 - D->hardness) * s->r) : 0;
  const double core = wasm_min(D->aa > 0 ? s->r - D->halfAa : s->r, D->hardness < 1 ? D->hardness * s->r : INFINITY);
  s->core2 = core > 0 ? core * core : -1;
}

/** A pixel at squared distance d2: its strength c m and alpha, and 1 where the dab reaches it (before the layer test). */
static inline int dab_profile(const DabDraw *D, const DabShape *s, double d2, double *cm, double *va) {
  const double dist = sqrt(d2);
  double c = D->aa > 0 ? (s->r - dist) * D->invAa + 0.5 : (dist <= s->r ? 1.0 : 0.0);
  c = c > 1 ? 1 : c;
  if (s->softW > 0) {
    const double sv = (s->r - dist) * s->softW;
    c = sv < c ? sv : c;
  }
  c = d2 > s->core2 ? c : 1;
  *cm = c * s->m;
  *va = s->pa * *cm;
  return d2 < s->rim2 && *cm > 0;
}

/** The planes a dab writes and the touched list's length, held in locals while dabs are drawn (D's fields are reloaded after every store through a pointer). */
typedef struct {
  float *restrict layer;
  double *restrict cms;
  uint32_t *restrict touched;
  size_t nt, cap;
} DabPut;

static inline DabPut dab_put_of(const DabDraw *D) {
  return (DabPut){D->layer, D->cms, D->touched, D->nt, D->cap};
}

/**
 * Pixel p takes the dab's (cm, va) where it reaches it and va is above the layer's alpha; a fresh
 * pixel joins the touched list. Without branches (a dab's pixels are kept or not at random): both
 * planes are stored either way, the touched list's next entry too (it has 8 entries to spare).
 */
static inline void dab_put(DabPut *P, size_t p, int reach, double cm, double va) {
  const float la = P->layer[p];
  const int put = reach & (va > (double)la);
  P->layer[p] = put ? (float)va : la;
  P->cms[p] = put ? cm : P->cms[p];
  P->touched[P->nt] = (uint32_t)p;
  P->nt += (size_t)(put & (la < 0) & (P->nt < P->cap));
}

/**
 * The dab's 2 x 2 block where rim < 1 and the block lies inside the canvas (stroke.wat's one step
 * without loops): 1 when drawn, 0 for the rows' loop.
 */
static inline int dab_block(DabDraw *D, const DabShape *s) {
  DabPut P = dab_put_of(D);
  if (!(s->rim < 1)) return 0;
  const double fx = floor(s->cx - 0.5), fy = floor(s->cy - 0.5);
  if (!(fx >= 0 && fx + 1 < D->W && fy >= 0 && fy + 1 < D->H)) return 0;
  const size_t p = (size_t)fy * D->W + (size_t)fx;
  const double dx0 = (fx + 0.5) - s->cx, dx1 = (fx + 1.5) - s->cx, dy = (fy + 0.5) - s->cy, dyB = (fy + 1.5) - s->cy;
  const double d2[4] = {dx0 * dx0 + dy * dy, dx1 * dx1 + dy * dy, dx0 * dx0 + dyB * dyB, dx1 * dx1 + dyB * dyB};
  const size_t at[4] = {p, p + 1, p + D->W, p + D->W + 1};
  for (int k = 0; k < 4; k++) {
    double cm, va;
    const int reach = dab_profile(D, s, d2[k], &cm, &va);
    dab_put(&P, at[k], reach, cm, va);
  }
  D->nt = P.nt;
  return 1;
}

/** The dab's box (stroke.wat: the pixels whose centres can lie inside the rim, 1e-3 px to spare); 0 where empty. */
static inline int dab_box(const DabDraw *D, const DabShape *s, int *xa, int *xb, int *ya, int *yb) {
  *xa = trunc_sat(wasm_max(0, floor(s->cx - (s->rim + 0.501)) + 1));
  *xb = trunc_sat(wasm_min(D->W, ceil(s->cx + (s->rim - 0.499))));
  *ya = trunc_sat(wasm_max(0, floor(s->cy - (s->rim + 0.501)) + 1));
  *yb = trunc_sat(wasm_min(D->H, ceil(s->cy + (s->rim - 0.499))));
  return *xa < *xb && *ya < *yb;
}

/** Row y's columns [x0, x1) of the dab's box (rim >= 2: those within the rim in the row); 0 where the row misses the rim. */
static inline int dab_row(const DabShape *s, int xa, int xb, double dy2, int *x0, int *x1) {
  const double h2 = s->rim2 - dy2;
  if (h2 <= 0) return 0;
  *x0 = xa;
  *x1 = xb;
  if (s->rim >= 2) {
    const double h = sqrt(h2);
    *x0 = trunc_sat(wasm_max(xa, floor((s->cx - h) - 0.501) + 1));
    *x1 = trunc_sat(wasm_min(xb, ceil((s->cx + h) - 0.499)));
  }
  return 1;
}

/** Dab i of group g, pixel by pixel (the portable copy). */
static void dab_scalar(DabDraw *D, size_t i, uint32_t g) {
  DabShape s;
  dab_shape(D, i, g, &s);
  if (dab_block(D, &s)) return;
  int xa, xb, ya, yb, x0, x1;
  if (!dab_box(D, &s, &xa, &xb, &ya, &yb)) return;
  DabPut P = dab_put_of(D);
  for (int y = ya; y < yb; y++) {
    const double dy = ((double)y + 0.5) - s.cy, dy2 = dy * dy;
    if (!dab_row(&s, xa, xb, dy2, &x0, &x1)) continue;
    size_t p = (size_t)y * D->W + (size_t)x0;
    for (int x = x0; x < x1; x++, p++) {
      const double dx = ((double)x + 0.5) - s.cx;
      double cm, va;
      const int reach = dab_profile(D, &s, dx * dx + dy2, &cm, &va);
      dab_put(&P, p, reach, cm, va);
    }
  }
  D->nt = P.nt;
}

/** Run ri (stroke.wat $run, cpu.ts drawRun): alike round dabs on a segment, the nearest one per pixel. */
static void dab_run(DabDraw *D, size_t ri) {
  const double *o = D->runs + 9 * ri;
  const double ax = o[0], ay = o[1], ux = o[2], uy = o[3], d0 = o[4], sp = o[5], count = o[6], r = o[7], m = o[8];
  const float *pp = D->paints + 4 * (size_t)D->runGroup[ri];
  const double pa = pp[3];
  const double rim = D->aa > 0 && !(D->hardness < 1) ? r + D->halfAa : r;
  double rim2 = rim * rim;
  if (D->hardness < 1) rim2 *= 0x1.0000000000004p+0;
  const double full = pa * m;
  const double softW = D->hardness < 1 ? 1 / ((1 - D->hardness) * r) : 0;
  const double tEnd = d0 + (count - 1) * sp;
  const double ex = ax + ux * tEnd, ey = ay + uy * tEnd, sx = ax + ux * d0, sy = ay + uy * d0;
  const int xa = trunc_sat(wasm_max(0, floor(wasm_min(sx, ex) - rim)));
  const int xb = trunc_sat(wasm_min(D->W, ceil(wasm_max(sx, ex) + rim)));
  const int ya = trunc_sat(wasm_max(0, floor(wasm_min(sy, ey) - rim)));
  const int yb = trunc_sat(wasm_min(D->H, ceil(wasm_max(sy, ey) + rim)));
  const double invSp = 1 / sp, last = count - 1;
  for (int y = ya; y < yb; y++) {
    const double py = (double)y + 0.5;
    int x0 = xa, x1 = xb;
    // columns whose centres lie within rim of the segment's line in this row
    if (fabs(uy) > 1e-9) {
      const double xc = ax + (ux * (py - ay)) / uy, half = rim / fabs(uy);
      x0 = trunc_sat(wasm_max(xa, floor((xc - half) - 0.5)));
      x1 = trunc_sat(wasm_min(xb, ceil((xc + half) + 0.5)));
    }
    size_t p = (size_t)y * D->W + (size_t)x0;
    for (int x = x0; x < x1; x++, p++) {
      const double px = (double)x + 0.5;
      const float la = D->layer[p];
      if ((double)la >= full) continue;
      double k = js_round((((px - ax) * ux + (py - ay) * uy) - d0) * invSp);
      k = k < 0 ? 0 : (k > last ? last : k);
      const double t = d0 + k * sp;
      const double dx = px - (ax + ux * t), dy = py - (ay + uy * t);
      const double d2 = dx * dx + dy * dy;
      if (d2 >= rim2) continue;
      const double dist = sqrt(d2);
      double c = D->aa > 0 ? (r - dist) * D->invAa + 0.5 : (dist <= r ? 1.0 : 0.0);
      if (c > 1) c = 1;
      if (softW > 0) {
        const double sv = (r - dist) * softW;
        if (sv < c) c = sv;
      }
      if (c <= 0) continue;
      const double va = (pa * c) * m;
      if (va <= (double)la) continue;
      if (la < 0 && D->nt < D->cap) D->touched[D->nt++] = (uint32_t)p;
      D->cms[p] = c * m;
      D->layer[p] = (float)va;
    }
  }
}

/** The touched pixels of group g (-1: none) source-over onto out (stroke.wat $flush); the layer's alpha back to -1. */
static void dab_flush(DabDraw *D, int64_t g) {
  if (D->nt == 0 || g < 0) {
    D->nt = 0;
    return;
  }
  const float *pp = D->paints + 4 * g;
  const double pr = pp[0], pg = pp[1], pb = pp[2];
  for (size_t k = 0; k < D->nt; k++) {
    const size_t p = D->touched[k];
    const double cm = D->cms[p];
    const float l[4] = {(float)(pr * cm), (float)(pg * cm), (float)(pb * cm), D->layer[p]};
    float *o = D->out + 4 * p;
    const double q = 1 - (double)l[3];
    for (int c = 0; c < 4; c++) o[c] = (float)((double)l[c] + (double)o[c] * q);
    D->layer[p] = -1;
  }
  D->nt = 0;
}

#if HAVE_AVX512
/** The profile of eight pixels at squared distances d2 (dab_profile lane by lane); the lanes the dab reaches. */
static TARGET512 inline __mmask8 dab_profile8(const DabDraw *D, __m512d d2, __m512d r, __m512d m, __m512d pa, __m512d rim2, __m512d softW,
                                              __m512d core2, __m512d *cm, __m512d *va) {
  const __m512d one = _mm512_set1_pd(1), zero = _mm512_setzero_pd();
  const __m512d dist = _mm512_sqrt_pd(d2);
  __m512d c = D->aa > 0 ? _mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(r, dist), _mm512_set1_pd(D->invAa)), _mm512_set1_pd(0.5))
                        : _mm512_maskz_mov_pd(_mm512_cmp_pd_mask(dist, r, _CMP_LE_OQ), one);
  c = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(c, one, _CMP_GT_OQ), c, one);
  const __mmask8 soft = _mm512_cmp_pd_mask(softW, zero, _CMP_GT_OQ);
  if (soft) {
    const __m512d sv = _mm512_mul_pd(_mm512_sub_pd(r, dist), softW);
    c = _mm512_mask_blend_pd(soft & _mm512_cmp_pd_mask(sv, c, _CMP_LT_OQ), c, sv);
  }
  c = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(d2, core2, _CMP_GT_OQ), one, c);
  *cm = _mm512_mul_pd(c, m);
  *va = _mm512_mul_pd(pa, *cm);
  return _mm512_cmp_pd_mask(d2, rim2, _CMP_LT_OQ) & _mm512_cmp_pd_mask(*cm, zero, _CMP_GT_OQ);
}

/** dab_put with AVX-512's masked moves (the compiler makes branches of dab_put's selects). */
static TARGET512 inline void dab_put512(DabPut *P, size_t p, int reach, double cm, double va) {
  const __m128 la = _mm_load_ss(P->layer + p);
  const __m128d lad = _mm_cvtss_sd(_mm_setzero_pd(), la), vad = _mm_set_sd(va);
  const __mmask8 put = (__mmask8)reach & _mm_cmp_sd_mask(vad, lad, _CMP_GT_OQ);
  _mm_store_ss(P->layer + p, _mm_mask_mov_ps(la, put, _mm_cvtsd_ss(la, vad)));
  _mm_store_sd(P->cms + p, _mm_mask_mov_pd(_mm_load_sd(P->cms + p), put, _mm_set_sd(cm)));
  P->touched[P->nt] = (uint32_t)p;
  P->nt += (size_t)(_cvtmask8_u32(put & _mm_cmp_sd_mask(lad, _mm_setzero_pd(), _CMP_LT_OQ)) & (P->nt < P->cap));
}

/** dab_scalar with eight pixels of a row a step. */
static TARGET512 void dab_avx512(DabDraw *D, size_t i, uint32_t g) {
  DabShape s;
  dab_shape(D, i, g, &s);
  if (dab_block(D, &s)) return;
  int xa, xb, ya, yb, x0, x1;
  if (!dab_box(D, &s, &xa, &xb, &ya, &yb)) return;
  const __m512d r = _mm512_set1_pd(s.r), m = _mm512_set1_pd(s.m), pa = _mm512_set1_pd(s.pa), rim2 = _mm512_set1_pd(s.rim2);
  const __m512d softW = _mm512_set1_pd(s.softW), core2 = _mm512_set1_pd(s.core2), cx = _mm512_set1_pd(s.cx), zero = _mm512_setzero_pd();
  const __m512d halves = _mm512_setr_pd(0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5);
  const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  size_t nt = D->nt;
  for (int y = ya; y < yb; y++) {
    const double dy = ((double)y + 0.5) - s.cy, dy2 = dy * dy;
    if (!dab_row(&s, xa, xb, dy2, &x0, &x1)) continue;
    size_t p = (size_t)y * D->W + (size_t)x0;
    for (int x = x0; x < x1; x += 8, p += 8) {
      const __mmask8 in = x1 - x >= 8 ? 0xff : (__mmask8)((1u << (x1 - x)) - 1);
      // x + 0.5 .. x + 7.5: each lane (x + k) + 0.5 exactly
      const __m512d dx = _mm512_sub_pd(_mm512_add_pd(_mm512_set1_pd((double)x), halves), cx);
      __m512d cm, va;
      const __mmask8 reach = dab_profile8(D, _mm512_add_pd(_mm512_mul_pd(dx, dx), _mm512_set1_pd(dy2)), r, m, pa, rim2, softW, core2, &cm, &va);
      const __m512d la = _mm512_cvtps_pd(_mm256_maskz_loadu_ps(in, D->layer + p));
      const __mmask8 put = in & reach & _mm512_cmp_pd_mask(va, la, _CMP_GT_OQ);
      _mm256_mask_storeu_ps(D->layer + p, put, _mm512_cvtpd_ps(va));
      _mm512_mask_storeu_pd(D->cms + p, put, cm);
      const __mmask8 fresh = put & _mm512_cmp_pd_mask(la, zero, _CMP_LT_OQ);
      // the fresh pixels' indices packed in a register and stored whole (the list has 8 entries
      // to spare; a compressing store to memory is many times slower)
      const size_t n = (size_t)__builtin_popcount(fresh);
      if (nt + n <= D->cap) {
        _mm256_storeu_si256((__m256i *)(D->touched + nt), _mm256_maskz_compress_epi32(fresh, _mm256_add_epi32(_mm256_set1_epi32((int)p), lanes)));
        nt += n;
      }
    }
  }
  D->nt = nt;
}

/**
 * Dabs [i0, i1) of group g: eight at a time (the last step fewer), their 2 x 2 blocks' profiles
 * computed together (as dab_block lane by lane), then stored dab by dab in order; a dab whose block
 * does not apply (rim >= 1, or a block across the canvas's edge) takes dab_avx512 in its turn.
 */
static TARGET512 void dab_range_avx512(DabDraw *D, size_t i0, size_t i1, uint32_t g) {
  const __m512d one = _mm512_set1_pd(1), zero = _mm512_setzero_pd(), half = _mm512_set1_pd(0.5), oneHalf = _mm512_set1_pd(1.5);
  const double hardness = D->hardness;
  const int soft = hardness < 1, hasAa = D->aa > 0;
  const __m512d pa = _mm512_set1_pd(D->paints[4 * (size_t)g + 3]);
  const __m512i pick = _mm512_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28, 0, 0, 0, 0, 0, 0, 0, 0);
  for (size_t i = i0; i < i1; i += 8) {
    // the last step's lanes past i1 load zeros and are left out
    const int lanes = i1 - i < 8 ? (int)(i1 - i) : 8;
    const __mmask8 valid = (__mmask8)((1u << lanes) - 1);
    const __mmask16 la = lanes >= 4 ? 0xffff : (__mmask16)((1u << 4 * lanes) - 1), lb = lanes <= 4 ? 0 : (__mmask16)((1u << 4 * (lanes - 4)) - 1);
    const __m512 a = _mm512_maskz_loadu_ps(la, D->geom + 4 * i), b = _mm512_maskz_loadu_ps(lb, D->geom + 4 * i + 16);
    const __m512d cx = _mm512_cvtps_pd(_mm512_castps512_ps256(_mm512_permutex2var_ps(a, pick, b)));
    const __m512d cy = _mm512_cvtps_pd(_mm512_castps512_ps256(_mm512_permutex2var_ps(a, _mm512_add_epi32(pick, _mm512_set1_epi32(1)), b)));
    const __m512d r = _mm512_cvtps_pd(_mm512_castps512_ps256(_mm512_permutex2var_ps(a, _mm512_add_epi32(pick, _mm512_set1_epi32(2)), b)));
    const __m512d m = _mm512_cvtps_pd(_mm512_castps512_ps256(_mm512_permutex2var_ps(a, _mm512_add_epi32(pick, _mm512_set1_epi32(3)), b)));
    const __m512d rim = hasAa && !soft ? _mm512_add_pd(r, _mm512_set1_pd(D->halfAa)) : r;
    const __m512d fx = _mm512_roundscale_pd(_mm512_sub_pd(cx, half), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    const __m512d fy = _mm512_roundscale_pd(_mm512_sub_pd(cy, half), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    const __mmask8 block = valid & _mm512_cmp_pd_mask(rim, one, _CMP_LT_OQ) & _mm512_cmp_pd_mask(fx, zero, _CMP_GE_OQ) &
                           _mm512_cmp_pd_mask(_mm512_add_pd(fx, one), _mm512_set1_pd(D->W), _CMP_LT_OQ) & _mm512_cmp_pd_mask(fy, zero, _CMP_GE_OQ) &
                           _mm512_cmp_pd_mask(_mm512_add_pd(fy, one), _mm512_set1_pd(D->H), _CMP_LT_OQ);
    if (!block) {
      for (int j = 0; j < lanes; j++) dab_avx512(D, i + j, g);
      continue;
    }
    const __m512d rim2 = _mm512_mul_pd(rim, rim);
    const __m512d softW = soft ? _mm512_div_pd(one, _mm512_mul_pd(_mm512_set1_pd(1 - hardness), r)) : zero;
    // core = wasm_min(aa > 0 ? r - aa / 2 : r, hardness < 1 ? hardness r : inf): NaN where either is
    const __m512d ca = hasAa ? _mm512_sub_pd(r, _mm512_set1_pd(D->halfAa)) : r;
    const __m512d cb = soft ? _mm512_mul_pd(_mm512_set1_pd(hardness), r) : _mm512_set1_pd(INFINITY);
    const __m512d core = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(ca, cb, _CMP_UNORD_Q), _mm512_min_pd(ca, cb), _mm512_set1_pd(NAN));
    const __mmask8 coreSome = _mm512_cmp_pd_mask(core, zero, _CMP_GT_OQ);
    const __m512d core2 = _mm512_mask_blend_pd(coreSome, _mm512_set1_pd(-1), _mm512_mul_pd(core, core));
    const __m512d dx0 = _mm512_sub_pd(_mm512_add_pd(fx, half), cx), dx1 = _mm512_sub_pd(_mm512_add_pd(fx, oneHalf), cx);
    const __m512d dy = _mm512_sub_pd(_mm512_add_pd(fy, half), cy), dyB = _mm512_sub_pd(_mm512_add_pd(fy, oneHalf), cy);
    const __m512d xx0 = _mm512_mul_pd(dx0, dx0), xx1 = _mm512_mul_pd(dx1, dx1), yy = _mm512_mul_pd(dy, dy), yyB = _mm512_mul_pd(dyB, dyB);
    const __m512d d2[4] = {_mm512_add_pd(xx0, yy), _mm512_add_pd(xx1, yy), _mm512_add_pd(xx0, yyB), _mm512_add_pd(xx1, yyB)};
    double cmAt[4][8], vaAt[4][8], fxAt[8], fyAt[8];
    __mmask8 reach[4];
    for (int k = 0; k < 4; k++) {
      __m512d cm, va;
      reach[k] = dab_profile8(D, d2[k], r, m, pa, rim2, softW, core2, &cm, &va);
      _mm512_storeu_pd(cmAt[k], cm);
      _mm512_storeu_pd(vaAt[k], va);
    }
    _mm512_storeu_pd(fxAt, fx);
    _mm512_storeu_pd(fyAt, fy);
    DabPut P = dab_put_of(D);
    const size_t W = (size_t)D->W;
    for (int j = 0; j < lanes; j++) {
      if (!(block >> j & 1)) {
        D->nt = P.nt;
        dab_avx512(D, i + j, g);
        P.nt = D->nt;
        continue;
      }
      const size_t p = (size_t)fyAt[j] * W + (size_t)fxAt[j];
      const size_t at[4] = {p, p + 1, p + W, p + W + 1};
      for (int k = 0; k < 4; k++) dab_put512(&P, at[k], reach[k] >> j & 1, cmAt[k][j], vaAt[k][j]);
    }
    D->nt = P.nt;
  }
}
#endif

/**
 * Every dab and run of a round-tipped stroke, group by group (stroke.wat `draw`): the runs of the
 * groups up to a dab's group, then that group's dabs; `fast` the AVX-512 copy. The caller has
 * checked every group index against the paints.
 */
static void dabs_draw(DabDraw *D, size_t count, size_t runCount, uint32_t groups, int fast) {
  int64_t cur = -1;
  size_t ri = 0, i = 0;
  D->nt = 0;
  for (;;) {
    const uint32_t g = i < count ? D->group[i] : groups;
    if ((int64_t)g != cur) {
      for (; ri < runCount && D->runGroup[ri] <= g; ri++) {
        if ((int64_t)D->runGroup[ri] != cur) {
          dab_flush(D, cur);
          cur = D->runGroup[ri];
        }
        dab_run(D, ri);
      }
      if (i == count) break;
      if ((int64_t)g != cur) {
        dab_flush(D, cur);
        cur = g;
      }
    }
    size_t j = i + 1;
    while (j < count && D->group[j] == g) j++;
#if HAVE_AVX512
    if (fast)
      dab_range_avx512(D, i, j, g);
    else
#endif
      for (size_t k = i; k < j; k++) dab_scalar(D, k, g);
    i = j;
  }
  (void)fast;
  dab_flush(D, cur);
}

// ---------------------------------------------------------------------------------------------
// Laying jittered dabs (stroke.wat `lay`; its reference src/ops/stroke/plan.ts DabLayout.push):
// the lattice dabs k, k + 1, ... <= kEnd of one segment piece (dab at A + u (k sp - sA) while
// k sp < end), each with its jitter hashed from its world position in 1/8 px cells and the
// feature; the same f64 arithmetic in the same order and the same 32-bit hash, so the dabs are bit
// for bit the WebAssembly kernel's. The AVX-512 copy takes eight dabs a step where every dab's cell
// fits in an int32 (`quad`, as stroke.wat's four a step).

/** One call: the piece (ax .. quad) and the node's settings (x0 .. seed), as simd.ts packs them. */
typedef struct {
  double ax, ay, ux, uy, sA, k, kEnd, end, shift, sp, baseW, fkey, quad;
  double x0, y0, W, H, reachMax, opacity, sizeJitter, opacityJitter, scatter, widthMax, seed;
} LayArgs;

#define LAY_ARGS 24

/** plan.ts hash01's first two rounds (the seed's and the feature's), the same for every dab of a call. */
static inline uint32_t lay_head(uint32_t seed, uint32_t fkey) {
  uint32_t h = (seed ^ 0x9e3779b9u) * 0x85ebca6bu;
  h = (h ^ (h >> 13) ^ fkey) * 0xc2b2ae35u;
  return h ^ (h >> 16);
}

/** hash01's last two rounds from a head: (h >>> 0) / 2^32. */
static inline double lay_tail(uint32_t g, uint32_t qx, uint32_t qy) {
  uint32_t h = (g ^ qx) * 0x27d4eb2fu;
  h = (h ^ (h >> 15) ^ qy) * 0x165667b1u;
  h ^= h >> 16;
  return (double)h * 0x1p-32;
}

/** JavaScript's Math.round(x) | 0 for |x| < 2^63 (stroke.wat $roundInt32: the saturating i64 conversion, wrapped). */
static inline uint32_t lay_cell(double x) {
  const double r = js_round(x);
  int64_t i;
  if (r != r) i = 0;
  else if (r >= 9223372036854775807.0) i = INT64_MAX;
  else if (r <= -9223372036854775808.0) i = INT64_MIN;
  else i = (int64_t)r;
  return (uint32_t)i;
}

typedef struct {
  uint32_t gSize, gOpacity, gScatter;
} LayHeads;

static inline LayHeads lay_heads(const LayArgs *a) {
  const uint32_t seed = (uint32_t)(int32_t)a->seed, fkey = (uint32_t)(int32_t)a->fkey;
  return (LayHeads){lay_head(seed, fkey), lay_head(seed ^ 0x2545f491u, fkey), lay_head(seed ^ 0x68e31da4u, fkey)};
}

/** Dabs from lattice index k one by one (stroke.wat's scalar loop) into out from dab n; the count after. */
static size_t lay_scalar(const LayArgs *a, const LayHeads *g, double k, float *out, size_t n) {
  for (double s = k * a->sp; s < a->end && !(k > a->kEnd); k += 1, s = k * a->sp) {
    const double d = s - a->sA;
    double wx = a->ax + a->ux * d, wy = a->ay + a->uy * d;
    const uint32_t qx = lay_cell((wx - a->shift) * 8), qy = lay_cell(wy * 8);
    double w = a->baseW, m = a->opacity;
    if (a->sizeJitter > 0) w = w * (1 + a->sizeJitter * (2 * lay_tail(g->gSize, qx, qy ^ 0x51ed27u) - 1));
    if (a->opacityJitter > 0) m = m * (1 - a->opacityJitter * lay_tail(g->gOpacity, qx, qy));
    if (a->scatter > 0) {
      const double o = a->scatter * (2 * lay_tail(g->gScatter, qx, qy) - 1);
      wx = wx - a->uy * o; // perpendicular to the segment
      wy = wy + a->ux * o;
    }
    if (!(w > 0) || !(m > 0)) continue;
    if (w > a->widthMax) w = a->widthMax;
    // narrower than a pixel: a pixel wide, fainter in proportion (MIN_DAB_WIDTH = 1)
    if (w < 1) {
      m = m * w;
      w = 1;
    }
    const double cx = wx - a->x0, cy = wy - a->y0;
    if (cx < -a->reachMax || cy < -a->reachMax || cx > a->W + a->reachMax || cy > a->H + a->reachMax) continue;
    float *p = out + 4 * n++;
    p[0] = (float)cx;
    p[1] = (float)cy;
    p[2] = (float)(w * 0.5);
    p[3] = (float)m;
  }
  return n;
}

#if HAVE_AVX512
/** hash01's last two rounds of eight cells (lay_tail lane by lane). */
static TARGET512 inline __m512d lay_tail8(__m256i g, __m256i qx, __m256i qy) {
  __m256i h = _mm256_mullo_epi32(_mm256_xor_si256(g, qx), _mm256_set1_epi32((int)0x27d4eb2fu));
  h = _mm256_mullo_epi32(_mm256_xor_si256(_mm256_xor_si256(h, _mm256_srli_epi32(h, 15)), qy), _mm256_set1_epi32(0x165667b1));
  h = _mm256_xor_si256(h, _mm256_srli_epi32(h, 16));
  return _mm512_mul_pd(_mm512_cvtepu32_pd(h), _mm512_set1_pd(0x1p-32));
}

/** Math.round of eight values (js_round lane by lane), truncated to int32 (they fit: `quad`). */
static TARGET512 inline __m256i lay_cell8(__m512d x) {
  const __m512d f = _mm512_roundscale_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512d r = _mm512_mask_add_pd(f, _mm512_cmp_pd_mask(_mm512_sub_pd(x, f), _mm512_set1_pd(0.5), _CMP_GE_OQ), f, _mm512_set1_pd(1));
  return _mm512_cvttpd_epi32(r);
}

/** lay_scalar eight dabs a step where `quad`, the rest one by one. */
static TARGET512 size_t lay_avx512(const LayArgs *a, const LayHeads *g, double k, float *out, size_t n) {
  if (a->quad != 0) {
    const __m512d lanes = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7), one = _mm512_set1_pd(1), two = _mm512_set1_pd(2), zero = _mm512_setzero_pd();
    const __m512d sp = _mm512_set1_pd(a->sp), sA = _mm512_set1_pd(a->sA), ax = _mm512_set1_pd(a->ax), ay = _mm512_set1_pd(a->ay);
    const __m512d ux = _mm512_set1_pd(a->ux), uy = _mm512_set1_pd(a->uy), shift = _mm512_set1_pd(a->shift), eight = _mm512_set1_pd(8);
    const __m512d wMax = _mm512_set1_pd(a->widthMax), x0 = _mm512_set1_pd(a->x0), y0 = _mm512_set1_pd(a->y0);
    const __m512d nReach = _mm512_set1_pd(-a->reachMax), xMax = _mm512_set1_pd(a->W + a->reachMax), yMax = _mm512_set1_pd(a->H + a->reachMax);
    const __m256i gSize = _mm256_set1_epi32((int)g->gSize), gOpacity = _mm256_set1_epi32((int)g->gOpacity), gScatter = _mm256_set1_epi32((int)g->gScatter);
    float planes[4][8];
    for (; !(k + 7 > a->kEnd) && (k + 7) * a->sp < a->end; k += 8) {
      const __m512d d = _mm512_sub_pd(_mm512_mul_pd(_mm512_add_pd(_mm512_set1_pd(k), lanes), sp), sA);
      __m512d wx = _mm512_add_pd(ax, _mm512_mul_pd(ux, d)), wy = _mm512_add_pd(ay, _mm512_mul_pd(uy, d));
      const __m256i qx = lay_cell8(_mm512_mul_pd(_mm512_sub_pd(wx, shift), eight)), qy = lay_cell8(_mm512_mul_pd(wy, eight));
      __m512d w = _mm512_set1_pd(a->baseW), m = _mm512_set1_pd(a->opacity);
      if (a->sizeJitter > 0)
        w = _mm512_mul_pd(
            w, _mm512_add_pd(one, _mm512_mul_pd(_mm512_set1_pd(a->sizeJitter),
                                                _mm512_sub_pd(_mm512_mul_pd(two, lay_tail8(gSize, qx, _mm256_xor_si256(qy, _mm256_set1_epi32(0x51ed27)))), one))));
      if (a->opacityJitter > 0) m = _mm512_mul_pd(m, _mm512_sub_pd(one, _mm512_mul_pd(_mm512_set1_pd(a->opacityJitter), lay_tail8(gOpacity, qx, qy))));
      if (a->scatter > 0) {
        const __m512d o = _mm512_mul_pd(_mm512_set1_pd(a->scatter), _mm512_sub_pd(_mm512_mul_pd(two, lay_tail8(gScatter, qx, qy)), one));
        wx = _mm512_sub_pd(wx, _mm512_mul_pd(uy, o));
        wy = _mm512_add_pd(wy, _mm512_mul_pd(ux, o));
      }
      __mmask8 keep = _mm512_cmp_pd_mask(w, zero, _CMP_GT_OQ) & _mm512_cmp_pd_mask(m, zero, _CMP_GT_OQ);
      w = _mm512_mask_mov_pd(w, _mm512_cmp_pd_mask(w, wMax, _CMP_GT_OQ), wMax);
      const __mmask8 thin = _mm512_cmp_pd_mask(w, one, _CMP_LT_OQ);
      m = _mm512_mask_mul_pd(m, thin, m, w);
      w = _mm512_mask_mov_pd(w, thin, one);
      const __m512d cx = _mm512_sub_pd(wx, x0), cy = _mm512_sub_pd(wy, y0);
      keep &= ~(_mm512_cmp_pd_mask(cx, nReach, _CMP_LT_OQ) | _mm512_cmp_pd_mask(cy, nReach, _CMP_LT_OQ) | _mm512_cmp_pd_mask(cx, xMax, _CMP_GT_OQ) |
                _mm512_cmp_pd_mask(cy, yMax, _CMP_GT_OQ));
      _mm256_storeu_ps(planes[0], _mm512_cvtpd_ps(cx));
      _mm256_storeu_ps(planes[1], _mm512_cvtpd_ps(cy));
      _mm256_storeu_ps(planes[2], _mm512_cvtpd_ps(_mm512_mul_pd(w, _mm512_set1_pd(0.5))));
      _mm256_storeu_ps(planes[3], _mm512_cvtpd_ps(m));
      // every dab stored, the next one over it unless kept (the output has room for every lattice dab)
      for (int j = 0; j < 8; j++) {
        float *p = out + 4 * n;
        p[0] = planes[0][j];
        p[1] = planes[1][j];
        p[2] = planes[2][j];
        p[3] = planes[3][j];
        n += keep >> j & 1;
      }
    }
  }
  return lay_scalar(a, g, k, out, n);
}
#endif

/** Lays one piece's dabs into out (room for every lattice dab k .. kEnd); how many. `fast` the AVX-512 copy. */
static size_t lay_dabs(const LayArgs *a, float *out, int fast) {
  const LayHeads g = lay_heads(a);
#if HAVE_AVX512
  if (fast) return lay_avx512(a, &g, a->k, out, 0);
#endif
  (void)fast;
  return lay_scalar(a, &g, a->k, out, 0);
}
