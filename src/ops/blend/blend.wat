;; blend's `normal` + `over` without a mask (cpu.ts `normalOver`, the reference) in WebAssembly
;; SIMD: one f32x4 per premultiplied RGBA pixel, the reference's formula in f32 (the TypeScript loop
;; in f64): the two differ by ~1e-7. `multiply` (over and atop) and the `erase` composite, without a
;; mask, bit for bit their TypeScript loops in f64. Compiled by scripts/gen-wasm.mjs; called from simd.ts.
(module
  ;; the memory: simd.ts gives one instance a scratch memory it copies rasters into (grown from
  ;; JavaScript) and one the canvas arena, whose canvases it reads and writes in place
  ;; (src/util/wasm-arena.ts)
  (import "env" "mem" (memory 1))
  ;; over(base, over, out, bytes, opacity): out = `over` source-over `base` at `opacity`, all three
  ;; `bytes` long (a multiple of 16) at those byte offsets:
  ;;   co = f cs + (1 - as) cb,  ao = as + (1 - as) ab,  as = min(srcA, 1) f,
  ;; and the base unchanged where srcA <= 0.
  (func (export "over") (param $base i32) (param $over i32) (param $out i32) (param $bytes i32) (param $opacity f32)
    (local $p i32)
    (local $f v128) (local $one v128) (local $zero v128)
    (local $s v128) (local $sa v128) (local $as v128) (local $b v128)
    (local.set $f (f32x4.splat (local.get $opacity)))
    (local.set $one (f32x4.splat (f32.const 1)))
    (local.set $zero (f32x4.splat (f32.const 0)))
    (local.set $p (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $p) (local.get $bytes))))
      (loop $pixel
        ;; s: the source pixel; sa: its alpha in every lane
        (local.set $sa
          (i8x16.shuffle 12 13 14 15 12 13 14 15 12 13 14 15 12 13 14 15
            (local.tee $s (v128.load align=1 (i32.add (local.get $over) (local.get $p))))
            (local.get $s)))
        (local.set $as (f32x4.mul (f32x4.pmin (local.get $sa) (local.get $one)) (local.get $f)))
        (local.set $b (v128.load align=1 (i32.add (local.get $base) (local.get $p))))
        (v128.store align=1 (i32.add (local.get $out) (local.get $p))
          (v128.bitselect
            ;; (f rgb_s, as) + (1 - as) base: lanes 0-2 of f s, lane 3 of as
            (f32x4.add
              (i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 28 29 30 31
                (f32x4.mul (local.get $f) (local.get $s))
                (local.get $as))
              (f32x4.mul (f32x4.sub (local.get $one) (local.get $as)) (local.get $b)))
            ;; where srcA <= 0, the base as it is
            (local.get $b)
            (f32x4.gt (local.get $sa) (local.get $zero))))
        (br_if $pixel (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 16))) (local.get $bytes))))))

  ;; first(over, n) / last(over, n): the first / the last of n pixels (four f32 each) at `over` whose
  ;; alpha (lane 3) is > 0 in f32 (NaN, -0 and negatives are not), n / -1 where none: simd.ts
  ;; normalOverSimd's span (its TypeScript loops, the reference, where a layer is not in the
  ;; arena). Eight pixels a test: their lanes compared with +0, or'd, and kept at the alpha lane.
  (func (export "first") (param $over i32) (param $n i32) (result i32)
    (local $i i32)
    (block $scan
      (loop $step
        (br_if $scan (i32.gt_u (i32.add (local.get $i) (i32.const 8)) (local.get $n)))
        (br_if $scan (call $anyCover (i32.add (local.get $over) (i32.shl (local.get $i) (i32.const 4)))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $step)))
    (block $found
      (loop $px
        (br_if $found (i32.ge_u (local.get $i) (local.get $n)))
        (br_if $found (f32.gt (f32.load offset=12 align=4 (i32.add (local.get $over) (i32.shl (local.get $i) (i32.const 4)))) (f32.const 0)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $px)))
    (local.get $i))

  (func (export "last") (param $over i32) (param $n i32) (result i32)
    (local $i i32)
    ;; pixels [i - 8, i) a test
    (local.set $i (local.get $n))
    (block $scan
      (loop $step
        (br_if $scan (i32.lt_s (local.get $i) (i32.const 8)))
        (br_if $scan (call $anyCover (i32.add (local.get $over) (i32.shl (i32.sub (local.get $i) (i32.const 8)) (i32.const 4)))))
        (local.set $i (i32.sub (local.get $i) (i32.const 8)))
        (br $step)))
    (local.set $i (i32.sub (local.get $i) (i32.const 1)))
    (block $found
      (loop $px
        (br_if $found (i32.lt_s (local.get $i) (i32.const 0)))
        (br_if $found (f32.gt (f32.load offset=12 align=4 (i32.add (local.get $over) (i32.shl (local.get $i) (i32.const 4)))) (f32.const 0)))
        (local.set $i (i32.sub (local.get $i) (i32.const 1)))
        (br $px)))
    (local.get $i))

  ;; Whether any of the eight pixels at $p has an alpha > 0.
  (func $anyCover (param $p i32) (result i32)
    (v128.any_true (v128.and
      (v128.or
        (v128.or
          (v128.or (f32x4.gt (v128.load align=4 (local.get $p)) (v128.const f32x4 0 0 0 0))
            (f32x4.gt (v128.load offset=16 align=4 (local.get $p)) (v128.const f32x4 0 0 0 0)))
          (v128.or (f32x4.gt (v128.load offset=32 align=4 (local.get $p)) (v128.const f32x4 0 0 0 0))
            (f32x4.gt (v128.load offset=48 align=4 (local.get $p)) (v128.const f32x4 0 0 0 0))))
        (v128.or
          (v128.or (f32x4.gt (v128.load offset=64 align=4 (local.get $p)) (v128.const f32x4 0 0 0 0))
            (f32x4.gt (v128.load offset=80 align=4 (local.get $p)) (v128.const f32x4 0 0 0 0)))
          (v128.or (f32x4.gt (v128.load offset=96 align=4 (local.get $p)) (v128.const f32x4 0 0 0 0))
            (f32x4.gt (v128.load offset=112 align=4 (local.get $p)) (v128.const f32x4 0 0 0 0)))))
      (v128.const i32x4 0 0 0 -1))))

  ;; multiply(base, over, out, bytes, opacity, atop): cpu.ts `multiply` without a mask (its
  ;; reference) with the same f64 operations in the same order per channel, (r, g) and (b, a) as
  ;; f64x2 pairs: bit for bit. Its shortcuts are exact: x / 1 is x, and with ab = 1 the mix
  ;; (1 - ab) s + ab (b s) is b s; where the source coverage is 0 the pixel is the base with its
  ;; alpha clamped. clamp01 is written out (x > 0 ? (x < 1 ? x : 1) : +0; NaN and -0 give +0):
  ;; a call per use cost more than the kernel saved. On f64x2 it is pmin(pmax(+0, x), 1): pmax(+0,
  ;; x) is (+0 < x ? x : +0), so NaN, -0 and negatives give +0, and pmin(y, 1) is (1 < y ? 1 : y),
  ;; the same selects as the scalar form, one minpd / maxpd each instead of two compares and two
  ;; bitselects.
  (func (export "multiply") (param $base i32) (param $over i32) (param $out i32) (param $bytes i32) (param $opacity f64) (param $atop i32) (param $uni i32)
    (local $p i32) (local $B v128) (local $O v128)
    (local $oa f64) (local $ab f64) (local $srcA f64) (local $as f64) (local $fa f64) (local $k f64) (local $alpha f64)
    (local $cbRG v128) (local $cbBA v128) (local $sRG v128) (local $sBA v128) (local $mRG v128) (local $mBA v128)
    (local $d v128) (local $abv v128) (local $omab v128) (local $t1 f64) (local $zero v128) (local $one v128)
    (local $fast i32) (local $t32 f32) (local $fav v128) (local $kv v128) (local $alpha1 f32)
    (local $B0 v128) (local $B1 v128) (local $B2 v128) (local $B3 v128) (local $one32 v128) (local $chk i32)
    (local $uOpaque i32) (local $uclRG v128) (local $uclBA v128) (local $ukRG v128) (local $ukBA v128)
    (local.set $zero (v128.const f64x2 0 0))
    (local.set $one (v128.const f64x2 1 1))
    (local.set $one32 (v128.const f32x4 1 1 1 1))
    ;; An opaque pixel over an opaque base (both alphas >= 1, so clamped to 1) at opacity > 0, the
    ;; common case: as = 1 opacity = opacity, no division (d = 1), m = clamp01(cb) s, fa = as (over)
    ;; or as 1 (atop) = opacity, k = 1 - opacity, alpha = as + 1 k = opacity + k (over) or 1
    ;; (atop). Those are the same per call: computed once here, the same f64 values as below.
    (local.set $fast (f64.ne (local.get $opacity) (f64.const 0)))
    (local.set $fav (f64x2.splat (local.get $opacity)))
    (local.set $kv (f64x2.splat (f64.sub (f64.const 1) (local.get $opacity))))
    (local.set $alpha1 (select (f32.const 1)
      (f32.demote_f64 (f64.add (local.get $opacity) (f64.sub (f64.const 1) (local.get $opacity)))) (local.get $atop)))
    ;; $uni: every base pixel holds the first one's bits (a solid paper under a grain): an opaque
    ;; one's clamp01(cb) and k cb per channel pair are the same for every pixel, taken once here
    ;; (the same f64 operations as the shortcut below takes per pixel).
    (if (i32.and (local.get $uni) (i32.lt_u (i32.const 0) (local.get $bytes)))
      (then
        (local.set $B (v128.load align=4 (local.get $base)))
        (local.set $uOpaque (f32.ge (f32x4.extract_lane 3 (local.get $B)) (f32.const 1)))
        (local.set $cbRG (f64x2.promote_low_f32x4 (local.get $B)))
        (local.set $cbBA (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $B) (local.get $B))))
        (local.set $uclRG (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbRG)) (local.get $one)))
        (local.set $uclBA (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbBA)) (local.get $one)))
        (local.set $ukRG (f64x2.mul (local.get $kv) (local.get $cbRG)))
        (local.set $ukBA (f64x2.mul (local.get $kv) (local.get $cbBA)))))
    (local.set $p (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $p) (local.get $bytes))))
      (loop $pixel
        (block $next
          ;; Four pixels at once where none of their source alphas is > 0 (a stroke or pattern
          ;; layer is mostly transparent) and every base alpha is in (0, 1]: each is the base
          ;; with its alpha clamped (below), and clamp01 keeps an alpha in (0, 1] as it is (1
          ;; gives the constant 1, the same bits), so the four base pixels are stored unchanged;
          ;; for atop the base is not four +0. Any other four pixels go one by one before the
          ;; next test (an opaque source is not tested at every pixel).
          (if (i32.and (i32.ge_u (local.get $p) (local.get $chk)) (i32.le_u (i32.add (local.get $p) (i32.const 64)) (local.get $bytes)))
            (then
              (local.set $chk (i32.add (local.get $p) (i32.const 64)))
              ;; atop over four base pixels of four +0: four +0 pixels (below), the source unread
              (if (local.get $atop)
                (then
                  (if (i32.eqz (v128.any_true (v128.or
                        (v128.or (v128.load align=4 (i32.add (local.get $base) (local.get $p)))
                          (v128.load offset=16 align=4 (i32.add (local.get $base) (local.get $p))))
                        (v128.or (v128.load offset=32 align=4 (i32.add (local.get $base) (local.get $p)))
                          (v128.load offset=48 align=4 (i32.add (local.get $base) (local.get $p)))))))
                    (then
                      (v128.store align=4 (i32.add (local.get $out) (local.get $p)) (v128.const i32x4 0 0 0 0))
                      (v128.store offset=16 align=4 (i32.add (local.get $out) (local.get $p)) (v128.const i32x4 0 0 0 0))
                      (v128.store offset=32 align=4 (i32.add (local.get $out) (local.get $p)) (v128.const i32x4 0 0 0 0))
                      (v128.store offset=48 align=4 (i32.add (local.get $out) (local.get $p)) (v128.const i32x4 0 0 0 0))
                      (local.set $p (i32.add (local.get $p) (i32.const 48)))
                      (br $next)))))
              (if (i32.eqz (i32x4.extract_lane 3 (v128.or
                    (v128.or
                      (f32x4.gt (v128.load align=4 (i32.add (local.get $over) (local.get $p))) (local.get $zero))
                      (f32x4.gt (v128.load offset=16 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $zero)))
                    (v128.or
                      (f32x4.gt (v128.load offset=32 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $zero))
                      (f32x4.gt (v128.load offset=48 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $zero))))))
                (then
                  (local.set $B0 (v128.load align=4 (i32.add (local.get $base) (local.get $p))))
                  (local.set $B1 (v128.load offset=16 align=4 (i32.add (local.get $base) (local.get $p))))
                  (local.set $B2 (v128.load offset=32 align=4 (i32.add (local.get $base) (local.get $p))))
                  (local.set $B3 (v128.load offset=48 align=4 (i32.add (local.get $base) (local.get $p))))
                  (if (i32x4.extract_lane 3 (v128.and
                        (v128.and
                          (v128.and (f32x4.gt (local.get $B0) (local.get $zero)) (f32x4.le (local.get $B0) (local.get $one32)))
                          (v128.and (f32x4.gt (local.get $B1) (local.get $zero)) (f32x4.le (local.get $B1) (local.get $one32))))
                        (v128.and
                          (v128.and (f32x4.gt (local.get $B2) (local.get $zero)) (f32x4.le (local.get $B2) (local.get $one32)))
                          (v128.and (f32x4.gt (local.get $B3) (local.get $zero)) (f32x4.le (local.get $B3) (local.get $one32))))))
                    (then
                      ;; in place (out is the base: blend's takeInput) they are there already
                      (if (i32.ne (local.get $out) (local.get $base)) (then
                      (v128.store align=4 (i32.add (local.get $out) (local.get $p)) (local.get $B0))
                      (v128.store offset=16 align=4 (i32.add (local.get $out) (local.get $p)) (local.get $B1))
                      (v128.store offset=32 align=4 (i32.add (local.get $out) (local.get $p)) (local.get $B2))
                      (v128.store offset=48 align=4 (i32.add (local.get $out) (local.get $p)) (local.get $B3))))
                      ;; the loop's step adds the last 16
                      (local.set $p (i32.add (local.get $p) (i32.const 48)))
                      (br $next)))))
              ;; The same over one opaque base pixel everywhere ($uni): its per-channel terms from
              ;; the call's start, the base not read.
              (if (i32.and (local.get $fast) (local.get $uOpaque)) (then
              (if (i32x4.extract_lane 3
                    (v128.and
                      (v128.and (f32x4.ge (v128.load align=4 (i32.add (local.get $over) (local.get $p))) (local.get $one32))
                        (f32x4.ge (v128.load offset=16 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $one32)))
                      (v128.and (f32x4.ge (v128.load offset=32 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $one32))
                        (f32x4.ge (v128.load offset=48 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $one32)))))
                (then
                  (local.set $O (v128.load align=4 (i32.add (local.get $over) (local.get $p))))
                  (v128.store align=4 (i32.add (local.get $out) (local.get $p))
                    (f32x4.replace_lane 3
                      (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                        (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                            (f64x2.mul (local.get $uclRG)
                              (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                          (local.get $ukRG)))
                        (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                            (f64x2.mul (local.get $uclBA)
                              (f64x2.pmin (f64x2.pmax (local.get $zero)
                                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                          (local.get $ukBA))))
                      (local.get $alpha1)))
                  (local.set $O (v128.load offset=16 align=4 (i32.add (local.get $over) (local.get $p))))
                  (v128.store offset=16 align=4 (i32.add (local.get $out) (local.get $p))
                    (f32x4.replace_lane 3
                      (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                        (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                            (f64x2.mul (local.get $uclRG)
                              (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                          (local.get $ukRG)))
                        (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                            (f64x2.mul (local.get $uclBA)
                              (f64x2.pmin (f64x2.pmax (local.get $zero)
                                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                          (local.get $ukBA))))
                      (local.get $alpha1)))
                  (local.set $O (v128.load offset=32 align=4 (i32.add (local.get $over) (local.get $p))))
                  (v128.store offset=32 align=4 (i32.add (local.get $out) (local.get $p))
                    (f32x4.replace_lane 3
                      (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                        (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                            (f64x2.mul (local.get $uclRG)
                              (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                          (local.get $ukRG)))
                        (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                            (f64x2.mul (local.get $uclBA)
                              (f64x2.pmin (f64x2.pmax (local.get $zero)
                                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                          (local.get $ukBA))))
                      (local.get $alpha1)))
                  (local.set $O (v128.load offset=48 align=4 (i32.add (local.get $over) (local.get $p))))
                  (v128.store offset=48 align=4 (i32.add (local.get $out) (local.get $p))
                    (f32x4.replace_lane 3
                      (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                        (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                            (f64x2.mul (local.get $uclRG)
                              (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                          (local.get $ukRG)))
                        (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                            (f64x2.mul (local.get $uclBA)
                              (f64x2.pmin (f64x2.pmax (local.get $zero)
                                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                          (local.get $ukBA))))
                      (local.get $alpha1)))
                  (local.set $p (i32.add (local.get $p) (i32.const 48)))
                  (br $next)))))
              ;; Four opaque source pixels over four opaque base pixels (alphas >= 1) at opacity
              ;; > 0: each as the one-pixel shortcut below computes it (the same operations).
              (if (i32.and (local.get $fast) (i32x4.extract_lane 3 (v128.and
                    (v128.and
                      (v128.and (f32x4.ge (v128.load align=4 (i32.add (local.get $over) (local.get $p))) (local.get $one32))
                        (f32x4.ge (v128.load offset=16 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $one32)))
                      (v128.and (f32x4.ge (v128.load offset=32 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $one32))
                        (f32x4.ge (v128.load offset=48 align=4 (i32.add (local.get $over) (local.get $p))) (local.get $one32))))
                    (v128.and
                      (v128.and (f32x4.ge (v128.load align=4 (i32.add (local.get $base) (local.get $p))) (local.get $one32))
                        (f32x4.ge (v128.load offset=16 align=4 (i32.add (local.get $base) (local.get $p))) (local.get $one32)))
                      (v128.and (f32x4.ge (v128.load offset=32 align=4 (i32.add (local.get $base) (local.get $p))) (local.get $one32))
                        (f32x4.ge (v128.load offset=48 align=4 (i32.add (local.get $base) (local.get $p))) (local.get $one32)))))))
                (then
                      (local.set $B (v128.load align=4 (i32.add (local.get $base) (local.get $p))))
                      (local.set $O (v128.load align=4 (i32.add (local.get $over) (local.get $p))))
                      (local.set $cbRG (f64x2.promote_low_f32x4 (local.get $B)))
                      (local.set $cbBA (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $B) (local.get $B))))
                      (v128.store align=4 (i32.add (local.get $out) (local.get $p))
                        (f32x4.replace_lane 3
                          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                                (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbRG)) (local.get $one))
                                  (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                              (f64x2.mul (local.get $kv) (local.get $cbRG))))
                            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                                (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbBA)) (local.get $one))
                                  (f64x2.pmin (f64x2.pmax (local.get $zero)
                                    (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                              (f64x2.mul (local.get $kv) (local.get $cbBA)))))
                          (local.get $alpha1)))
                      (local.set $B (v128.load offset=16 align=4 (i32.add (local.get $base) (local.get $p))))
                      (local.set $O (v128.load offset=16 align=4 (i32.add (local.get $over) (local.get $p))))
                      (local.set $cbRG (f64x2.promote_low_f32x4 (local.get $B)))
                      (local.set $cbBA (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $B) (local.get $B))))
                      (v128.store offset=16 align=4 (i32.add (local.get $out) (local.get $p))
                        (f32x4.replace_lane 3
                          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                                (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbRG)) (local.get $one))
                                  (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                              (f64x2.mul (local.get $kv) (local.get $cbRG))))
                            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                                (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbBA)) (local.get $one))
                                  (f64x2.pmin (f64x2.pmax (local.get $zero)
                                    (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                              (f64x2.mul (local.get $kv) (local.get $cbBA)))))
                          (local.get $alpha1)))
                      (local.set $B (v128.load offset=32 align=4 (i32.add (local.get $base) (local.get $p))))
                      (local.set $O (v128.load offset=32 align=4 (i32.add (local.get $over) (local.get $p))))
                      (local.set $cbRG (f64x2.promote_low_f32x4 (local.get $B)))
                      (local.set $cbBA (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $B) (local.get $B))))
                      (v128.store offset=32 align=4 (i32.add (local.get $out) (local.get $p))
                        (f32x4.replace_lane 3
                          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                                (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbRG)) (local.get $one))
                                  (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                              (f64x2.mul (local.get $kv) (local.get $cbRG))))
                            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                                (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbBA)) (local.get $one))
                                  (f64x2.pmin (f64x2.pmax (local.get $zero)
                                    (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                              (f64x2.mul (local.get $kv) (local.get $cbBA)))))
                          (local.get $alpha1)))
                      (local.set $B (v128.load offset=48 align=4 (i32.add (local.get $base) (local.get $p))))
                      (local.set $O (v128.load offset=48 align=4 (i32.add (local.get $over) (local.get $p))))
                      (local.set $cbRG (f64x2.promote_low_f32x4 (local.get $B)))
                      (local.set $cbBA (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $B) (local.get $B))))
                      (v128.store offset=48 align=4 (i32.add (local.get $out) (local.get $p))
                        (f32x4.replace_lane 3
                          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                                (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbRG)) (local.get $one))
                                  (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                              (f64x2.mul (local.get $kv) (local.get $cbRG))))
                            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                                (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbBA)) (local.get $one))
                                  (f64x2.pmin (f64x2.pmax (local.get $zero)
                                    (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                              (f64x2.mul (local.get $kv) (local.get $cbBA)))))
                          (local.get $alpha1)))
                  (local.set $p (i32.add (local.get $p) (i32.const 48)))
                  (br $next)))))
          (local.set $B (v128.load align=4 (i32.add (local.get $base) (local.get $p))))
          ;; atop over a base pixel of four +0 (the sea under watercolour's land wash): ab = +0, so
          ;; fa = as ab = +0, k = 1 - as >= 0, each channel fa m + k (+0) = +0 (m is clamped, finite)
          ;; and alpha ab = +0, as every path below gives it: +0 without reading the source.
          (if (i32.and (local.get $atop) (i32.eqz (v128.any_true (local.get $B))))
            (then
              (v128.store align=4 (i32.add (local.get $out) (local.get $p)) (v128.const i32x4 0 0 0 0))
              (br $next)))
          (local.set $O (v128.load align=4 (i32.add (local.get $over) (local.get $p))))
          ;; A source alpha not > 0 (NaN, zeros, negatives: srcA = +0, so as = +0): the base with its
          ;; alpha clamped, clamp01 in f32 (promoting to f64 and back changes no f32 value).
          (if (i32.eqz (f32.gt (f32x4.extract_lane 3 (local.get $O)) (f32.const 0)))
            (then
              (local.set $t32 (f32x4.extract_lane 3 (local.get $B)))
              (v128.store align=4 (i32.add (local.get $out) (local.get $p))
                (f32x4.replace_lane 3 (local.get $B)
                  (select (select (local.get $t32) (f32.const 1) (f32.lt (local.get $t32) (f32.const 1))) (f32.const 0) (f32.gt (local.get $t32) (f32.const 0)))))
              (br $next)))
          (if (i32.and (local.get $fast)
                (i32.and (f32.ge (f32x4.extract_lane 3 (local.get $B)) (f32.const 1)) (f32.ge (f32x4.extract_lane 3 (local.get $O)) (f32.const 1))))
            (then
              (local.set $cbRG (f64x2.promote_low_f32x4 (local.get $B)))
              (local.set $cbBA (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $B) (local.get $B))))
              (v128.store align=4 (i32.add (local.get $out) (local.get $p))
                (f32x4.replace_lane 3
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                    (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                        (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbRG)) (local.get $one))
                          (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.promote_low_f32x4 (local.get $O))) (local.get $one))))
                      (f64x2.mul (local.get $kv) (local.get $cbRG))))
                    (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (local.get $fav)
                        (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbBA)) (local.get $one))
                          (f64x2.pmin (f64x2.pmax (local.get $zero)
                            (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O)))) (local.get $one))))
                      (f64x2.mul (local.get $kv) (local.get $cbBA)))))
                  (local.get $alpha1)))
              (br $next)))
          (local.set $ab (select (select (local.tee $t1 (f64.promote_f32 (f32x4.extract_lane 3 (local.get $B)))) (f64.const 1) (f64.lt (local.get $t1) (f64.const 1))) (f64.const 0) (f64.gt (local.get $t1) (f64.const 0))))
          (local.set $oa (f64.promote_f32 (f32x4.extract_lane 3 (local.get $O))))
          (local.set $srcA (select (select (local.get $oa) (f64.const 1) (f64.lt (local.get $oa) (f64.const 1))) (f64.const 0) (f64.gt (local.get $oa) (f64.const 0))))
          (local.set $as (f64.mul (local.get $srcA) (local.get $opacity)))
          (if (f64.eq (local.get $as) (f64.const 0))
            (then
              (v128.store align=4 (i32.add (local.get $out) (local.get $p))
                (f32x4.replace_lane 3 (local.get $B) (f32.demote_f64 (local.get $ab))))
              (br $next)))
          (local.set $cbRG (f64x2.promote_low_f32x4 (local.get $B)))
          (local.set $cbBA (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $B) (local.get $B))))
          (local.set $sRG (f64x2.promote_low_f32x4 (local.get $O)))
          (local.set $sBA (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $O) (local.get $O))))
          (if (f64.ne (local.get $srcA) (f64.const 1))
            (then
              (local.set $d (f64x2.splat (local.get $srcA)))
              (local.set $sRG (f64x2.div (local.get $sRG) (local.get $d)))
              (local.set $sBA (f64x2.div (local.get $sBA) (local.get $d)))))
          (local.set $sRG (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $sRG)) (local.get $one)))
          (local.set $sBA (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $sBA)) (local.get $one)))
          (local.set $mRG (local.get $sRG))
          (local.set $mBA (local.get $sBA))
          (if (f64.eq (local.get $ab) (f64.const 1))
            (then
              (local.set $mRG (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbRG)) (local.get $one)) (local.get $sRG)))
              (local.set $mBA (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (local.get $cbBA)) (local.get $one)) (local.get $sBA))))
            (else
              (if (f64.gt (local.get $ab) (f64.const 0))
                (then
                  (local.set $abv (f64x2.splat (local.get $ab)))
                  (local.set $omab (f64x2.splat (f64.sub (f64.const 1) (local.get $ab))))
                  (local.set $mRG (f64x2.add (f64x2.mul (local.get $omab) (local.get $sRG))
                    (f64x2.mul (local.get $abv) (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.div (local.get $cbRG) (local.get $abv))) (local.get $one)) (local.get $sRG)))))
                  (local.set $mBA (f64x2.add (f64x2.mul (local.get $omab) (local.get $sBA))
                    (f64x2.mul (local.get $abv) (f64x2.mul (f64x2.pmin (f64x2.pmax (local.get $zero) (f64x2.div (local.get $cbBA) (local.get $abv))) (local.get $one)) (local.get $sBA)))))))))
          (local.set $fa (select (f64.mul (local.get $as) (local.get $ab)) (local.get $as) (local.get $atop)))
          (local.set $k (f64.sub (f64.const 1) (local.get $as)))
          (local.set $alpha (select (local.get $ab) (f64.add (local.get $as) (f64.mul (local.get $ab) (local.get $k))) (local.get $atop)))
          ;; out = fa m + k cb per channel; alpha from its own formula
          (v128.store align=4 (i32.add (local.get $out) (local.get $p))
            (f32x4.replace_lane 3
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (f64x2.splat (local.get $fa)) (local.get $mRG))
                  (f64x2.mul (f64x2.splat (local.get $k)) (local.get $cbRG))))
                (f32x4.demote_f64x2_zero (f64x2.add (f64x2.mul (f64x2.splat (local.get $fa)) (local.get $mBA))
                  (f64x2.mul (f64x2.splat (local.get $k)) (local.get $cbBA)))))
              (f32.demote_f64 (local.get $alpha)))))
        (br_if $pixel (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 16))) (local.get $bytes))))))

  ;; erase(base, over, out, bytes, opacity): cpu.ts's `erase` composite without a mask, bit for
  ;; bit: k = 1 - clamp01(over alpha) opacity; out = base k, alpha clamp01(base alpha) k. Where the
  ;; over alpha is not > 0 (watercolour's sea under no land), k = 1: the base, its alpha clamped.
  (func (export "erase") (param $base i32) (param $over i32) (param $out i32) (param $bytes i32) (param $opacity f64)
    (local $p i32) (local $B v128) (local $k f64) (local $kv v128) (local $t1 f64) (local $t32 f32)
    (local.set $p (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $p) (local.get $bytes))))
      (loop $pixel
        (local.set $B (v128.load align=4 (i32.add (local.get $base) (local.get $p))))
        (block $next
        ;; A source alpha not > 0 (NaN, zeros, negatives: clamp01 gives +0): k = 1 - (+0) opacity = 1,
        ;; so the base with its alpha clamped (x 1 changes no value; clamp01 in f32 as multiply's).
        (if (i32.eqz (f32.gt (f32.load offset=12 align=4 (i32.add (local.get $over) (local.get $p))) (f32.const 0)))
          (then
            (local.set $t32 (f32x4.extract_lane 3 (local.get $B)))
            (v128.store align=4 (i32.add (local.get $out) (local.get $p))
              (f32x4.replace_lane 3 (local.get $B)
                (select (select (local.get $t32) (f32.const 1) (f32.lt (local.get $t32) (f32.const 1))) (f32.const 0) (f32.gt (local.get $t32) (f32.const 0)))))
            (br $next)))
        (local.set $k (f64.sub (f64.const 1) (f64.mul
          (select (select (local.tee $t1 (f64.promote_f32 (f32.load offset=12 align=4 (i32.add (local.get $over) (local.get $p))))) (f64.const 1) (f64.lt (local.get $t1) (f64.const 1))) (f64.const 0) (f64.gt (local.get $t1) (f64.const 0)))
          (local.get $opacity))))
        (local.set $kv (f64x2.splat (local.get $k)))
        (v128.store align=4 (i32.add (local.get $out) (local.get $p))
          (f32x4.replace_lane 3
            (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
              (f32x4.demote_f64x2_zero (f64x2.mul (f64x2.promote_low_f32x4 (local.get $B)) (local.get $kv)))
              (f32x4.demote_f64x2_zero (f64x2.mul
                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $B) (local.get $B)))
                (local.get $kv))))
            (f32.demote_f64 (f64.mul (select (select (local.tee $t1 (f64.promote_f32 (f32x4.extract_lane 3 (local.get $B)))) (f64.const 1) (f64.lt (local.get $t1) (f64.const 1))) (f64.const 0) (f64.gt (local.get $t1) (f64.const 0))) (local.get $k))))))
        (br_if $pixel (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 16))) (local.get $bytes))))))

  )
