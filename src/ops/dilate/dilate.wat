;; dilate / erode in WebAssembly SIMD: the passes of van Herk's doubling (simd.ts `morphSimd` says
;; how they combine into the (2r+1)^2 max or min) over 16-byte lanes: one f32x4 per RGBA pixel, or
;; four samples of a one-channel plane. The operation is f32x4.pmax (a < b ? b : a) or f32x4.pmin
;; (b < a ? b : a), the reference's comparison (morphScalar in morph.ts), so the results equal the
;; reference's bit for bit. Compiled by scripts/gen-wasm.mjs.
;;
;; Each pass: for i in 0, 32, .. < n (bytes, n > 0: whole pairs of vectors),
;; dst[i ..] = op over the sources p_t[i ..], lane by lane, folded as op(op(p0, p1), op(p2, p3)).
;; In place (dst = p0, the other sources above it) is safe: each vector is read before it is stored
;; and no later read goes below what has been stored. The four functions differ only in the
;; operation and the number of sources: one function with a choice inside would branch per vector.
(module
  ;; max2(dst, p0, p1, n): dst = max(p0, p1)
  (func (export "max2") (param $dst i32) (param $p0 i32) (param $p1 i32) (param $n i32)
    (local $i i32)
    (local.set $i (i32.const 0))
    (loop $pair
      (v128.store align=16 (i32.add (local.get $dst) (local.get $i))
        (f32x4.pmax
          (v128.load align=16 (i32.add (local.get $p0) (local.get $i)))
          (v128.load align=16 (i32.add (local.get $p1) (local.get $i)))))
      (v128.store offset=16 align=16 (i32.add (local.get $dst) (local.get $i))
        (f32x4.pmax
          (v128.load offset=16 align=16 (i32.add (local.get $p0) (local.get $i)))
          (v128.load offset=16 align=16 (i32.add (local.get $p1) (local.get $i)))))
      (br_if $pair (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 32))) (local.get $n)))))

  ;; min2(dst, p0, p1, n): dst = min(p0, p1)
  (func (export "min2") (param $dst i32) (param $p0 i32) (param $p1 i32) (param $n i32)
    (local $i i32)
    (local.set $i (i32.const 0))
    (loop $pair
      (v128.store align=16 (i32.add (local.get $dst) (local.get $i))
        (f32x4.pmin
          (v128.load align=16 (i32.add (local.get $p0) (local.get $i)))
          (v128.load align=16 (i32.add (local.get $p1) (local.get $i)))))
      (v128.store offset=16 align=16 (i32.add (local.get $dst) (local.get $i))
        (f32x4.pmin
          (v128.load offset=16 align=16 (i32.add (local.get $p0) (local.get $i)))
          (v128.load offset=16 align=16 (i32.add (local.get $p1) (local.get $i)))))
      (br_if $pair (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 32))) (local.get $n)))))

  ;; max4(dst, p0, p1, p2, p3, n): dst = max(max(p0, p1), max(p2, p3))
  (func (export "max4") (param $dst i32) (param $p0 i32) (param $p1 i32) (param $p2 i32) (param $p3 i32) (param $n i32)
    (local $i i32)
    (local.set $i (i32.const 0))
    (loop $pair
      (v128.store align=16 (i32.add (local.get $dst) (local.get $i))
        (f32x4.pmax
          (f32x4.pmax
            (v128.load align=16 (i32.add (local.get $p0) (local.get $i)))
            (v128.load align=16 (i32.add (local.get $p1) (local.get $i))))
          (f32x4.pmax
            (v128.load align=16 (i32.add (local.get $p2) (local.get $i)))
            (v128.load align=16 (i32.add (local.get $p3) (local.get $i))))))
      (v128.store offset=16 align=16 (i32.add (local.get $dst) (local.get $i))
        (f32x4.pmax
          (f32x4.pmax
            (v128.load offset=16 align=16 (i32.add (local.get $p0) (local.get $i)))
            (v128.load offset=16 align=16 (i32.add (local.get $p1) (local.get $i))))
          (f32x4.pmax
            (v128.load offset=16 align=16 (i32.add (local.get $p2) (local.get $i)))
            (v128.load offset=16 align=16 (i32.add (local.get $p3) (local.get $i))))))
      (br_if $pair (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 32))) (local.get $n)))))

  ;; min4(dst, p0, p1, p2, p3, n): dst = min(min(p0, p1), min(p2, p3))
  (func (export "min4") (param $dst i32) (param $p0 i32) (param $p1 i32) (param $p2 i32) (param $p3 i32) (param $n i32)
    (local $i i32)
    (local.set $i (i32.const 0))
    (loop $pair
      (v128.store align=16 (i32.add (local.get $dst) (local.get $i))
        (f32x4.pmin
          (f32x4.pmin
            (v128.load align=16 (i32.add (local.get $p0) (local.get $i)))
            (v128.load align=16 (i32.add (local.get $p1) (local.get $i))))
          (f32x4.pmin
            (v128.load align=16 (i32.add (local.get $p2) (local.get $i)))
            (v128.load align=16 (i32.add (local.get $p3) (local.get $i))))))
      (v128.store offset=16 align=16 (i32.add (local.get $dst) (local.get $i))
        (f32x4.pmin
          (f32x4.pmin
            (v128.load offset=16 align=16 (i32.add (local.get $p0) (local.get $i)))
            (v128.load offset=16 align=16 (i32.add (local.get $p1) (local.get $i))))
          (f32x4.pmin
            (v128.load offset=16 align=16 (i32.add (local.get $p2) (local.get $i)))
            (v128.load offset=16 align=16 (i32.add (local.get $p3) (local.get $i))))))
      (br_if $pair (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 32))) (local.get $n)))))

  ;; the rows and rings morphSimd lays out (grown from JavaScript)
  (memory (export "mem") 1))
