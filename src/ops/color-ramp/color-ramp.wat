;; color-ramp's stops over a scalar field in WebAssembly SIMD: the arithmetic of cpu.ts `rampField`
;; (the reference: `rampFieldReference`) in the same f64 operations, one pixel's four channels in
;; two f64x2 (r, g) and (b, a), so the pixels are the same bits. Compiled by scripts/gen-wasm.mjs;
;; called from simd.ts.
(module
  ;; ramp(src, n, out, table, values, scale, last, size, ends, opacity, opaque): `n` pixels of the field at
  ;; `src` (f32) as premultiplied RGBA at `out` (4 f32 a pixel). `table`: `size` straight RGBA f32
  ;; entries per segment; `values`: the last + 1 stop values (f64, ascending); `scale`: per segment
  ;; (size - 1) / (values[s + 1] - values[s]) (f64); `ends`: the two end colours (8 f32).
  ;; Per pixel t (cpu.ts `rampField`, in this order):
  ;;   NaN: transparent (0, 0, 0, 0);
  ;;   t < values[0] or t >= values[last]: end e, a = ends[e].a opacity, (end.rgb a, a);
  ;;   else the highest s with values[s] <= t (the segment of the pixel before is tried first),
  ;;   p = (t - values[s]) scale[s], j = min(floor(p), size - 2), f = p - j, entries c0 = table[s
  ;;   size + j] and c1 the next: rgb = c0 + f (c1 - c0), a = (c0.a + f (c1.a - c0.a)) opacity,
  ;;   (rgb a, a), each channel f64 rounded to f32 once. A pixel whose value has the bits of the one
  ;;   before copies its colour (the same t gives the same colour). `opaque` (1: every entry's alpha
  ;;   is 1 and opacity is 1): a = (1 + f (1 - 1)) 1 = 1 exactly and rgb 1 = rgb, so the lerped
  ;;   (r, g) and (b, 1) are stored as they are, without the products (cpu.ts `rampFieldOpaque`).
  ;; the memory: simd.ts gives one instance a scratch memory it copies spans into (grown from
  ;; JavaScript) and one the canvas arena, whose canvases it reads and writes in place
  ;; (src/util/wasm-arena.ts)
  (import "env" "mem" (memory 1))
  (func (export "ramp") (param $src i32) (param $n i32) (param $out i32) (param $table i32) (param $values i32)
    (param $scale i32) (param $last i32) (param $size i32) (param $ends i32) (param $opacity f64) (param $opaque i32)
    (local $end i32) (local $q i32) (local $t f64) (local $s i32) (local $vs f64) (local $ve f64) (local $sc f64)
    (local $base i32) (local $lo f64) (local $hi f64) (local $top i32) (local $p f64) (local $j i32) (local $f f64)
    (local $e i32) (local $rg v128) (local $ba v128) (local $ff v128) (local $a f64)
    (local $aa v128) (local $prev i32)
    (local.set $end (i32.add (local.get $src) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $q (local.get $out))
    (local.set $lo (f64.load (local.get $values)))
    (local.set $hi (f64.load (i32.add (local.get $values) (i32.shl (local.get $last) (i32.const 3)))))
    (local.set $top (i32.sub (local.get $size) (i32.const 2)))
    ;; The segment of the pixel before: the last one to start with (cpu.ts).
    (local.set $s (i32.sub (local.get $last) (i32.const 1)))
    (local.set $vs (f64.load (i32.add (local.get $values) (i32.shl (local.get $s) (i32.const 3)))))
    (local.set $ve (f64.load offset=8 (i32.add (local.get $values) (i32.shl (local.get $s) (i32.const 3)))))
    (local.set $sc (f64.load (i32.add (local.get $scale) (i32.shl (local.get $s) (i32.const 3)))))
    (local.set $base (i32.mul (local.get $s) (local.get $size)))
    (block $done
      (br_if $done (i32.ge_u (local.get $src) (local.get $end)))
      (loop $px
        (block $next
          ;; A pixel with the bits of the one before copies its colour (a heat field's zeros).
          (if (i32.and (i32.eq (i32.load (local.get $src)) (local.get $prev)) (i32.gt_u (local.get $q) (local.get $out)))
            (then
              (v128.store (local.get $q) (v128.load offset=0 (i32.sub (local.get $q) (i32.const 16))))
              (br $next)))
          (local.set $prev (i32.load (local.get $src)))
          (local.set $t (f64.promote_f32 (f32.load (local.get $src))))
          (if (i32.eqz (i32.and (f64.ge (local.get $t) (local.get $vs)) (f64.lt (local.get $t) (local.get $ve))))
            (then
              (if (f64.ne (local.get $t) (local.get $t))
                (then
                  (v128.store (local.get $q) (v128.const i32x4 0 0 0 0))
                  (br $next)))
              (if (i32.or (f64.lt (local.get $t) (local.get $lo)) (f64.ge (local.get $t) (local.get $hi)))
                (then
                  (local.set $e (select (local.get $ends) (i32.add (local.get $ends) (i32.const 16)) (f64.lt (local.get $t) (local.get $lo))))
                  (local.set $a (f64.mul (f64.promote_f32 (f32.load offset=12 (local.get $e))) (local.get $opacity)))
                  (local.set $aa (f64x2.splat (local.get $a)))
                  (v128.store64_lane 0 (local.get $q)
                    (f32x4.demote_f64x2_zero (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $e))) (local.get $aa))))
                  (v128.store64_lane offset=8 0 (local.get $q)
                    (f32x4.demote_f64x2_zero (f64x2.replace_lane 1
                      (f64x2.mul (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $e))) (local.get $aa)) (local.get $a))))
                  (br $next)))
              ;; The highest s with values[s] <= t.
              (local.set $s (i32.sub (local.get $last) (i32.const 1)))
              (block $found
                (loop $down
                  (br_if $found (i32.eqz (f64.gt (f64.load (i32.add (local.get $values) (i32.shl (local.get $s) (i32.const 3))))
                    (local.get $t))))
                  (local.set $s (i32.sub (local.get $s) (i32.const 1)))
                  (br $down)))
              (local.set $vs (f64.load (i32.add (local.get $values) (i32.shl (local.get $s) (i32.const 3)))))
              (local.set $ve (f64.load offset=8 (i32.add (local.get $values) (i32.shl (local.get $s) (i32.const 3)))))
              (local.set $sc (f64.load (i32.add (local.get $scale) (i32.shl (local.get $s) (i32.const 3)))))
              (local.set $base (i32.mul (local.get $s) (local.get $size)))))
          (local.set $p (f64.mul (f64.sub (local.get $t) (local.get $vs)) (local.get $sc)))
          ;; p >= 0 and at most size - 1 (and a rounding): truncation is floor.
          (local.set $j (i32.trunc_sat_f64_s (local.get $p)))
          (if (i32.gt_s (local.get $j) (local.get $top)) (then (local.set $j (local.get $top))))
          (local.set $f (f64.sub (local.get $p) (f64.convert_i32_s (local.get $j))))
          (local.set $e (i32.add (local.get $table) (i32.shl (i32.add (local.get $base) (local.get $j)) (i32.const 4))))
          (local.set $ff (f64x2.splat (local.get $f)))
          ;; (r, g) and (b, a) of c0 + f (c1 - c0), in f64.
          (local.set $rg (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $e))))
          (local.set $rg (f64x2.add (local.get $rg)
            (f64x2.mul (local.get $ff) (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero offset=16 (local.get $e))) (local.get $rg)))))
          (local.set $ba (f64x2.promote_low_f32x4 (v128.load64_zero offset=8 (local.get $e))))
          (local.set $ba (f64x2.add (local.get $ba)
            (f64x2.mul (local.get $ff) (f64x2.sub (f64x2.promote_low_f32x4 (v128.load64_zero offset=24 (local.get $e))) (local.get $ba)))))
          (if (local.get $opaque)
            (then
              (v128.store64_lane 0 (local.get $q) (f32x4.demote_f64x2_zero (local.get $rg)))
              (v128.store64_lane offset=8 0 (local.get $q) (f32x4.demote_f64x2_zero (local.get $ba)))
              (br $next)))
          (local.set $a (f64.mul (f64x2.extract_lane 1 (local.get $ba)) (local.get $opacity)))
          (local.set $aa (f64x2.splat (local.get $a)))
          (v128.store64_lane 0 (local.get $q) (f32x4.demote_f64x2_zero (f64x2.mul (local.get $rg) (local.get $aa))))
          (v128.store64_lane offset=8 0 (local.get $q)
            (f32x4.demote_f64x2_zero (f64x2.replace_lane 1 (f64x2.mul (local.get $ba) (local.get $aa)) (local.get $a)))))
        (local.set $q (i32.add (local.get $q) (i32.const 16)))
        (local.set $src (i32.add (local.get $src) (i32.const 4)))
        (br_if $px (i32.lt_u (local.get $src) (local.get $end)))))))
