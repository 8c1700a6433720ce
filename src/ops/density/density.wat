;; density's splat of one point (cpu.ts `splatPointReference`, the reference) in WebAssembly: the
;; disk's span per row, settled on the same exact test, and the row's multiply-adds two pixels an
;; f64x2 (the same f64 product and sum per pixel, no fused multiply-add), so the field is bit for
;; bit the reference's. The exp() factors per column and row come from JavaScript (Math.exp), in
;; `ex` and `ey`. Compiled by scripts/gen-wasm.mjs; called from simd.ts.
(module
  ;; the memory: cpu.ts gives one instance a memory of its own (grown from JavaScript) and one the
  ;; canvas arena (src/util/wasm-arena.ts), where the sum and factors are arena blocks and the
  ;; field is written into its canvas in place
  (import "env" "mem" (memory 1))
  ;; Whether column i's centre lies in the support, with the row's dy^2: (i + 0.5 - px)^2 + dy2 <= r2.
  (func $inDisk (param $i i32) (param $px f64) (param $dy2 f64) (param $r2 f64) (result i32)
    (local $dx f64)
    (local.set $dx (f64.sub (f64.add (f64.convert_i32_s (local.get $i)) (f64.const 0.5)) (local.get $px)))
    (f64.le (f64.add (f64.mul (local.get $dx) (local.get $dx)) (local.get $dy2)) (local.get $r2)))

  ;; splat(sum, W, ex, ey, i0, i1, j0, j1, px, py, r2, s): rows j0..j1 (inclusive) of the point at
  ;; (px, py): sum[j W + i] += (s ey[j - j0]) ex[i - i0] for the columns i in i0..i1 with
  ;; (i + 0.5 - px)^2 + (j + 0.5 - py)^2 <= r2. sum, ex, ey: byte offsets of f64 arrays.
  (func (export "splat")
    (param $sum i32) (param $W i32) (param $ex i32) (param $ey i32)
    (param $i0 i32) (param $i1 i32) (param $j0 i32) (param $j1 i32)
    (param $px f64) (param $py f64) (param $r2 f64) (param $s f64)
    (local $j i32) (local $a0 i32) (local $a1 i32) (local $o i32) (local $e i32) (local $end i32)
    (local $dy f64) (local $dy2 f64) (local $half f64) (local $fy f64) (local $vfy v128)
    (local.set $j (local.get $j0))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.gt_s (local.get $j) (local.get $j1)))
        (block $nextRow
          (local.set $dy (f64.sub (f64.add (f64.convert_i32_s (local.get $j)) (f64.const 0.5)) (local.get $py)))
          (local.set $dy2 (f64.mul (local.get $dy) (local.get $dy)))
          (br_if $nextRow (f64.gt (local.get $dy2) (local.get $r2)))
          ;; this row's span of dx^2 + dy^2 <= r^2, settled on the exact test
          (local.set $half (f64.sqrt (f64.sub (local.get $r2) (local.get $dy2))))
          (local.set $a0 (i32.trunc_sat_f64_s (f64.max (f64.convert_i32_s (local.get $i0))
            (f64.ceil (f64.sub (f64.sub (local.get $px) (local.get $half)) (f64.const 0.5))))))
          (local.set $a1 (i32.trunc_sat_f64_s (f64.min (f64.convert_i32_s (local.get $i1))
            (f64.floor (f64.sub (f64.add (local.get $px) (local.get $half)) (f64.const 0.5))))))
          (block $b1 (loop $l1
            (br_if $b1 (i32.le_s (local.get $a0) (local.get $i0)))
            (br_if $b1 (i32.eqz (call $inDisk (i32.sub (local.get $a0) (i32.const 1)) (local.get $px) (local.get $dy2) (local.get $r2))))
            (local.set $a0 (i32.sub (local.get $a0) (i32.const 1)))
            (br $l1)))
          (block $b2 (loop $l2
            (br_if $b2 (i32.gt_s (local.get $a0) (local.get $a1)))
            (br_if $b2 (call $inDisk (local.get $a0) (local.get $px) (local.get $dy2) (local.get $r2)))
            (local.set $a0 (i32.add (local.get $a0) (i32.const 1)))
            (br $l2)))
          (block $b3 (loop $l3
            (br_if $b3 (i32.ge_s (local.get $a1) (local.get $i1)))
            (br_if $b3 (i32.eqz (call $inDisk (i32.add (local.get $a1) (i32.const 1)) (local.get $px) (local.get $dy2) (local.get $r2))))
            (local.set $a1 (i32.add (local.get $a1) (i32.const 1)))
            (br $l3)))
          (block $b4 (loop $l4
            (br_if $b4 (i32.lt_s (local.get $a1) (local.get $a0)))
            (br_if $b4 (call $inDisk (local.get $a1) (local.get $px) (local.get $dy2) (local.get $r2)))
            (local.set $a1 (i32.sub (local.get $a1) (i32.const 1)))
            (br $l4)))
          (br_if $nextRow (i32.gt_s (local.get $a0) (local.get $a1)))
          (local.set $fy (f64.mul (local.get $s)
            (f64.load (i32.add (local.get $ey) (i32.shl (i32.sub (local.get $j) (local.get $j0)) (i32.const 3))))))
          (local.set $vfy (f64x2.splat (local.get $fy)))
          ;; o: sum[j W + a0], e: ex[a0 - i0], end: sum[j W + a1 + 1] (byte offsets)
          (local.set $o (i32.add (local.get $sum)
            (i32.shl (i32.add (i32.mul (local.get $j) (local.get $W)) (local.get $a0)) (i32.const 3))))
          (local.set $e (i32.add (local.get $ex) (i32.shl (i32.sub (local.get $a0) (local.get $i0)) (i32.const 3))))
          (local.set $end (i32.add (local.get $o) (i32.shl (i32.add (i32.sub (local.get $a1) (local.get $a0)) (i32.const 1)) (i32.const 3))))
          (block $pairsDone
            (loop $pairs
              (br_if $pairsDone (i32.gt_u (i32.add (local.get $o) (i32.const 16)) (local.get $end)))
              (v128.store (local.get $o)
                (f64x2.add (v128.load (local.get $o)) (f64x2.mul (local.get $vfy) (v128.load (local.get $e)))))
              (local.set $o (i32.add (local.get $o) (i32.const 16)))
              (local.set $e (i32.add (local.get $e) (i32.const 16)))
              (br $pairs)))
          (if (i32.lt_u (local.get $o) (local.get $end))
            (then
              (f64.store (local.get $o)
                (f64.add (f64.load (local.get $o)) (f64.mul (local.get $fy) (f64.load (local.get $e))))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $row))))

  ;; demote(src, dst, n): dst[i] = src[i] rounded to f32 (to nearest, ties to even, as JavaScript's
  ;; Float32Array stores a double) for i < n: four values a step (two f64x2 demoted and joined),
  ;; the rest one at a time. src: f64 array, dst: f32 array (byte offsets).
  (func (export "demote") (param $src i32) (param $dst i32) (param $n i32)
    (local $i i32) (local $n4 i32) (local $p i32)
    (local.set $n4 (i32.and (local.get $n) (i32.const -4)))
    (block $quadsDone
      (loop $quads
        (br_if $quadsDone (i32.ge_u (local.get $i) (local.get $n4)))
        (local.set $p (i32.add (local.get $src) (i32.shl (local.get $i) (i32.const 3))))
        (v128.store (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 2)))
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
            (f32x4.demote_f64x2_zero (v128.load (local.get $p)))
            (f32x4.demote_f64x2_zero (v128.load (i32.add (local.get $p) (i32.const 16))))))
        (local.set $i (i32.add (local.get $i) (i32.const 4)))
        (br $quads)))
    (block $restDone
      (loop $rest
        (br_if $restDone (i32.ge_u (local.get $i) (local.get $n)))
        (f32.store (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 2)))
          (f32.demote_f64 (f64.load (i32.add (local.get $src) (i32.shl (local.get $i) (i32.const 3))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $rest)))))
