;; density's splat of one point (cpu.ts `splatPointReference`, the reference) in WebAssembly: the
;; disk's span per row, settled on the same exact test, and the row's multiply-adds two pixels an
;; f64x2 (the same f64 product and sum per pixel, no fused multiply-add), so the field is bit for
;; bit the reference's. The exp() factors per column and row come from JavaScript (Math.exp), in
;; `ex` and `ey`. Compiled by scripts/gen-wasm.mjs; called from simd.ts.
(module
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

  ;; the memory simd.ts keeps the field and the factors in (grown from JavaScript)
  (memory (export "mem") 1))
