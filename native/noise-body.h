// The noise octaves of native/kernels.c, included once per instruction set: SUFFIX names the
// copy, TARGET is its function attribute, GATHER_IDX(box, idx, out) reads eight bytes of the
// lattice box's gradient table and GRADS(gi, gx, gy, gz) looks up their gradients. Every
// sample's f64 arithmetic is src/ops/noise/plan.ts's (simplexNoise, valueNoise) in the same
// order, eight pixels of a row at a time (each lane the scalar IEEE operation; no contraction into
// fused multiply-adds: kernels.c's FP_CONTRACT and -ffp-contract=off), so the sums are
// noiseReference's bit for bit (noise.test.ts).

#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define NAME(n) CAT(n, SUFFIX)

static TARGET __attribute__((always_inline)) inline v8d NAME(sel)(v8l m, v8d a, v8d b) {
  return (v8d)((m & (v8l)a) | (~m & (v8l)b));
}

/** Math.floor of each lane (|x| < 2^52): the truncation, one less where it rounded up. */
static TARGET inline v8d NAME(vfloor)(v8d x) {
  v8d t = __builtin_convertvector(__builtin_convertvector(x, v8l), v8d);
  const v8d one = {1, 1, 1, 1, 1, 1, 1, 1};
  return t - (v8d)((v8l)(t > x) & (v8l)one);
}

/** plan.ts hash32 (lowbias32) of each lane. */
static TARGET inline v8u32 NAME(vhash)(v8u32 v) {
  return LOWBIAS32(v);
}

/** The running sums plus one corner's terms where it is in reach (plan.ts corner()), per channel. */
static TARGET __attribute__((always_inline)) inline void NAME(corner)(v8d *ns, v8d x, v8d y, v8d z, v8i32 idx, const Grads *gr, const int channels) {
  const v8d t = 0.5 - x * x - y * y - z * z;
  const v8d f = t * t * (t * t);
  const v8l in = (v8l)(t >= 0);
  for (int c = 0; c < channels; c++) {
    v8i32 gi;
    GATHER_IDX(gr->box + (size_t)c * gr->nb, idx, gi);
    // a table filled as corners meet it (a sparse demand reads few of the box's points): the
    // points no corner met before hashed now
    if (gr->lazy) {
      const v8i32 miss = gi == 255;
      if (ANY(miss))
        for (int l = 0; l < LANES; l++)
          if (miss[l]) gi[l] = gradient_at(gr, c, idx[l]);
    }
    v8d gx, gy, gz;
    GRADS(gi, gx, gy, gz);
    const v8d add = ns[c] + f * (gx * x + gy * y + gz * z);
    ns[c] = NAME(sel)(in, add, ns[c]);
  }
}

/** simplex_octave's pixels of one run, `channels` a constant in each copy. */
static TARGET __attribute__((always_inline)) inline void NAME(simplex_run)(const double *X, const double *Z, v8d py, int w, int row, int c0, int n,
                                                                         const Grads *gr, const int channels, double weight, double *acc, size_t m,
                                                                         int first) {
  const int sI = gr->sI, sJ = gr->sJ, i0 = gr->i0, j0 = gr->j0, k0 = gr->k0;
  const double F3 = 1.0 / 3, G3 = 1.0 / 6;
  const double G2 = 2 * G3, G3x3 = 3 * G3, half = SIMPLEX_GAIN / 2;
  const v8d one = {1, 1, 1, 1, 1, 1, 1, 1}, zero = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int i = 0; i < n; i += LANES) {
    const int live = n - i < LANES ? n - i : LANES;
    v8d px, pz;
    if (live == LANES) {
      memcpy(&px, X + c0 + i, sizeof px);
      memcpy(&pz, Z + c0 + i, sizeof pz);
    } else
      for (int l = 0; l < LANES; l++) {
        const int c = c0 + i + (l < live ? l : live - 1);
        px[l] = X[c];
        pz[l] = Z[c];
      }
    // simplexNoise: the skew, the cell, the point within it, the simplex's ordering
    const v8d s = (px + py + pz) * F3;
    const v8d si = NAME(vfloor)(px + s), sj = NAME(vfloor)(py + s), sk = NAME(vfloor)(pz + s);
    const v8d t = (si + sj + sk) * G3;
    const v8d x0 = px - (si - t), y0 = py - (sj - t), z0 = pz - (sk - t);
    const v8l c1 = x0 >= y0, c2 = y0 >= z0, c3 = x0 >= z0;
    const v8l i1 = c1 & (c2 | c3), j1 = ~c1 & c2, k1 = ~(i1 | j1);
    const v8l i2 = c1 | (c2 & c3), j2 = ~c1 | c2, k2 = ~c2 | (~c1 & ~c3);
#define AS_D(mask) ((v8d)((mask) & (v8l)one))
#define AS_I(mask) __builtin_convertvector((mask), v8i32)
    const v8i32 base =
        (__builtin_convertvector(si, v8i32) - i0) * sI + (__builtin_convertvector(sj, v8i32) - j0) * sJ + (__builtin_convertvector(sk, v8i32) - k0);
    v8d ns[3] = {zero, zero, zero};
    NAME(corner)(ns, x0, y0, z0, base, gr, channels);
    NAME(corner)(ns, x0 - AS_D(i1) + G3, y0 - AS_D(j1) + G3, z0 - AS_D(k1) + G3, base + ((AS_I(i1) & sI) + (AS_I(j1) & sJ) + (AS_I(k1) & 1)), gr,
                 channels);
    NAME(corner)(ns, x0 - AS_D(i2) + G2, y0 - AS_D(j2) + G2, z0 - AS_D(k2) + G2, base + ((AS_I(i2) & sI) + (AS_I(j2) & sJ) + (AS_I(k2) & 1)), gr,
                 channels);
    NAME(corner)(ns, x0 - 1 + G3x3, y0 - 1 + G3x3, z0 - 1 + G3x3, base + (sI + sJ + 1), gr, channels);
#undef AS_D
#undef AS_I
    for (int c = 0; c < channels; c++) {
      const v8d v0 = 0.5 + half * ns[c];
      const v8d v = weight * NAME(sel)((v8l)(v0 < 0), zero, NAME(sel)((v8l)(v0 > 1), one, v0));
      double *a = acc + (size_t)c * m + (size_t)row * w + c0 + i;
      if (live == LANES) {
        v8d o;
        if (first) o = 0 + v;
        else {
          memcpy(&o, a, sizeof o);
          o = o + v;
        }
        memcpy(a, &o, sizeof o);
      } else
        for (int l = 0; l < live; l++) a[l] = first ? 0 + v[l] : a[l] + v[l];
    }
  }
}

/**
 * One octave of simplex noise over the runs (row, first column, count) into the planar sums
 * `acc` (channel c at acc + c m): X and Z per column, Y per row (plan.ts octaveLattice), `gr` the
 * octave's lattice box and its gradient table (kernels.c Grads).
 */
static TARGET void NAME(simplex_octave)(const double *X, const double *Y, const double *Z, int w, const int32_t *runs, int nruns, const Grads *gr,
                                        int channels, double weight, double *acc, size_t m, int first) {
  for (int r = 0; r < nruns; r++) {
    const int row = runs[r * 3], c0 = runs[r * 3 + 1], n = runs[r * 3 + 2];
    const double y1 = Y[row];
    const v8d py = {y1, y1, y1, y1, y1, y1, y1, y1};
    if (channels == 1) NAME(simplex_run)(X, Z, py, w, row, c0, n, gr, 1, weight, acc, m, first);
    else if (channels == 2) NAME(simplex_run)(X, Z, py, w, row, c0, n, gr, 2, weight, acc, m, first);
    else NAME(simplex_run)(X, Z, py, w, row, c0, n, gr, 3, weight, acc, m, first);
  }
}

/** valueNoise's lattice line iy of channel seed: each column's two cells' values (unit(hash)). */
static TARGET void NAME(value_line)(const uint32_t *ixa, const uint32_t *ixb, int w, uint32_t hy, double *la, double *lb) {
  int i = 0;
  for (; i + LANES <= w; i += LANES) {
    v8u32 a, b;
    memcpy(&a, ixa + i, sizeof a);
    memcpy(&b, ixb + i, sizeof b);
    const v8d va = __builtin_convertvector((v8i32)(NAME(vhash)(a ^ hy) >> 8), v8d) / 16777216.0; // < 2^24: exact as signed
    const v8d vb = __builtin_convertvector((v8i32)(NAME(vhash)(b ^ hy) >> 8), v8d) / 16777216.0;
    memcpy(la + i, &va, sizeof va);
    memcpy(lb + i, &vb, sizeof vb);
  }
  for (; i < w; i++) {
    la[i] = (double)(hash32(ixa[i] ^ hy) >> 8) / 16777216.0;
    lb[i] = (double)(hash32(ixb[i] ^ hy) >> 8) / 16777216.0;
  }
}

/**
 * One octave of value noise over every pixel into the planar sums: `ixa` / `ixb` / `sx` the
 * columns' cells and faded fractions, `rows` the plan's row entries of the octave (iy, iy + 1, fy
 * as f32 bits). `lines`: 4 w doubles of scratch.
 */
static TARGET void NAME(value_octave)(const uint32_t *ixa, const uint32_t *ixb, const double *sx, const uint32_t *rows, int w, int h,
                                      const uint32_t *seeds, int channels, double weight, double *acc, size_t m, int first, double *lines) {
  for (int c = 0; c < channels; c++) {
    double *aA = lines, *bA = lines + w, *aB = lines + 2 * w, *bB = lines + 3 * w;
    int64_t yA = -1, yB = -1;
    for (int j = 0; j < h; j++) {
      const uint32_t iy0 = rows[j * ENTRY], iy1 = rows[j * ENTRY + 1];
      float fy;
      memcpy(&fy, &rows[j * ENTRY + 2], sizeof fy);
      const double sy = fade(fy);
      if (yA != iy0) {
        if (yB == iy0) {
          double *t = aA;
          aA = aB;
          aB = t;
          t = bA;
          bA = bB;
          bB = t;
          yA = iy0;
          yB = -1;
        } else {
          NAME(value_line)(ixa, ixb, w, hash32(iy0 ^ seeds[c]), aA, bA);
          yA = iy0;
        }
      }
      if (yB != iy1) {
        NAME(value_line)(ixa, ixb, w, hash32(iy1 ^ seeds[c]), aB, bB);
        yB = iy1;
      }
      double *a = acc + (size_t)c * m + (size_t)j * w;
      const v8d vsy = {sy, sy, sy, sy, sy, sy, sy, sy};
      int i = 0;
      for (; i + LANES <= w; i += LANES) {
        v8d v00, v10, v01, v11, fx, o;
        memcpy(&v00, aA + i, sizeof v00);
        memcpy(&v10, bA + i, sizeof v10);
        memcpy(&v01, aB + i, sizeof v01);
        memcpy(&v11, bB + i, sizeof v11);
        memcpy(&fx, sx + i, sizeof fx);
        const v8d top = v00 + (v10 - v00) * fx;
        const v8d bottom = v01 + (v11 - v01) * fx;
        const v8d v = weight * (top + (bottom - top) * vsy);
        if (first) o = 0 + v;
        else {
          memcpy(&o, a + i, sizeof o);
          o = o + v;
        }
        memcpy(a + i, &o, sizeof o);
      }
      for (; i < w; i++) {
        const double top = aA[i] + (bA[i] - aA[i]) * sx[i];
        const double bottom = aB[i] + (bB[i] - aB[i]) * sx[i];
        const double v = weight * (top + (bottom - top) * sy);
        a[i] = first ? 0 + v : a[i] + v;
      }
    }
  }
}

/** The sums rounded to f32 into the field (w h values) or the RGBA raster (B +0 for two channels, A 1). */
static TARGET void NAME(finish)(const double *acc, float *out, size_t m, int channels, int raster) {
  size_t q = 0;
  if (!raster) {
    for (; q + LANES <= m; q += LANES) {
      v8d a;
      memcpy(&a, acc + q, sizeof a);
      const v8f32 f = __builtin_convertvector(a, v8f32);
      memcpy(out + q, &f, sizeof f);
    }
    for (; q < m; q++) out[q] = (float)acc[q];
    return;
  }
  const double *r = acc, *g = channels > 1 ? acc + m : NULL, *b = channels > 2 ? acc + 2 * m : NULL;
  for (; q < m; q++) {
    const v4f32 px = {(float)r[q], g ? (float)g[q] : 0.0f, b ? (float)b[q] : 0.0f, 1.0f};
    memcpy(out + q * 4, &px, sizeof px);
  }
}

#undef NAME
#undef CAT
#undef CAT_
