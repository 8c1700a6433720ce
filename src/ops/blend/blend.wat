;; blend's `normal` + `over` without a mask (cpu.ts `normalOver`, the reference) in WebAssembly
;; SIMD: one f32x4 per premultiplied RGBA pixel, the reference's formula in f32 (the TypeScript loop
;; in f64): the two differ by ~1e-7. Compiled by scripts/gen-wasm.mjs; called from simd.ts.
(module
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

  ;; the scratch memory simd.ts copies the rasters into (grown from JavaScript)
  (memory (export "mem") 1))
