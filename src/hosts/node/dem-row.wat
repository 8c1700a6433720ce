;; The rows of an RGB-encoded elevation PNG (Terrain-RGB, Terrarium) to metres in WebAssembly SIMD: each row
;; unfiltered (PNG filters 0-4) in 16-bit lanes, then converted to f32 elevations four pixels a
;; step. Compiled by scripts/gen-wasm.mjs; called from png-decode.ts (png-paeth.ts loads it).
(module
  ;; demRow(s, prev, cur, out, width, filter, scale, offset): one RGB row at byte `s` (after its
  ;; filter byte), filter `filter` (0-4), unfiltered against the row above at `prev` into `cur`
  ;; (8 bytes a pixel: R, G, B as 16-bit lanes and one spare lane) and converted to metres at `out`
  ;; (f32): (R 65536 + G 256 + B) scale + offset, computed in f64 and rounded once to f32, as the
  ;; TypeScript loop of src/sources/dem.ts does.
  ;; a, b, c: the pixel to the left, above, above-left (16-bit lanes); a byte sum wraps in the low
  ;; byte of its lane (i8x16.add) and leaves the high byte 0.
  (func (export "demRow") (param $s i32) (param $prev i32) (param $cur i32) (param $out i32) (param $width i32)
    (param $filter i32) (param $scale f64) (param $offset f64)
    (local $x i32)
    (local $a v128) (local $b v128) (local $c v128) (local $xv v128)
    (local $pa v128) (local $pb v128) (local $pc v128) (local $sm v128) (local $m v128)
    (local.set $a (v128.const i64x2 0 0))
    (local.set $c (v128.const i64x2 0 0))
    ;; filter 0, none: 0
    (if (i32.eq (local.get $filter) (i32.const 0))
      (then
        (local.set $x (i32.const 0))
        (block $done
          (br_if $done (i32.eqz (i32.lt_u (local.get $x) (local.get $width))))
          (loop $pixel
            (local.set $xv (i16x8.extend_low_i8x16_u (v128.load32_zero align=1 (local.get $s))))
            (local.set $b (v128.load64_zero align=1 (local.get $prev)))
            (local.set $a (i8x16.add (local.get $xv) (v128.const i64x2 0 0)))
            (v128.store64_lane align=1 0 (i32.add (local.get $cur) (i32.shl (local.get $x) (i32.const 3))) (local.get $a))
            (local.set $c (local.get $b))
            (local.set $s (i32.add (local.get $s) (i32.const 3)))
            (local.set $prev (i32.add (local.get $prev) (i32.const 8)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $width)))))))
    ;; filter 1, sub: a
    (if (i32.eq (local.get $filter) (i32.const 1))
      (then
        (local.set $x (i32.const 0))
        (block $done
          (br_if $done (i32.eqz (i32.lt_u (local.get $x) (local.get $width))))
          (loop $pixel
            (local.set $xv (i16x8.extend_low_i8x16_u (v128.load32_zero align=1 (local.get $s))))
            (local.set $b (v128.load64_zero align=1 (local.get $prev)))
            (local.set $a (i8x16.add (local.get $xv) (local.get $a)))
            (v128.store64_lane align=1 0 (i32.add (local.get $cur) (i32.shl (local.get $x) (i32.const 3))) (local.get $a))
            (local.set $c (local.get $b))
            (local.set $s (i32.add (local.get $s) (i32.const 3)))
            (local.set $prev (i32.add (local.get $prev) (i32.const 8)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $width)))))))
    ;; filter 2, up: b
    (if (i32.eq (local.get $filter) (i32.const 2))
      (then
        (local.set $x (i32.const 0))
        (block $done
          (br_if $done (i32.eqz (i32.lt_u (local.get $x) (local.get $width))))
          (loop $pixel
            (local.set $xv (i16x8.extend_low_i8x16_u (v128.load32_zero align=1 (local.get $s))))
            (local.set $b (v128.load64_zero align=1 (local.get $prev)))
            (local.set $a (i8x16.add (local.get $xv) (local.get $b)))
            (v128.store64_lane align=1 0 (i32.add (local.get $cur) (i32.shl (local.get $x) (i32.const 3))) (local.get $a))
            (local.set $c (local.get $b))
            (local.set $s (i32.add (local.get $s) (i32.const 3)))
            (local.set $prev (i32.add (local.get $prev) (i32.const 8)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $width)))))))
    ;; filter 3, average: (a + b) >> 1
    (if (i32.eq (local.get $filter) (i32.const 3))
      (then
        (local.set $x (i32.const 0))
        (block $done
          (br_if $done (i32.eqz (i32.lt_u (local.get $x) (local.get $width))))
          (loop $pixel
            (local.set $xv (i16x8.extend_low_i8x16_u (v128.load32_zero align=1 (local.get $s))))
            (local.set $b (v128.load64_zero align=1 (local.get $prev)))
            (local.set $a (i8x16.add (local.get $xv) (i16x8.shr_u (i16x8.add (local.get $a) (local.get $b)) (i32.const 1))))
            (v128.store64_lane align=1 0 (i32.add (local.get $cur) (i32.shl (local.get $x) (i32.const 3))) (local.get $a))
            (local.set $c (local.get $b))
            (local.set $s (i32.add (local.get $s) (i32.const 3)))
            (local.set $prev (i32.add (local.get $prev) (i32.const 8)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $width)))))))
    ;; filter 4, Paeth: pa = |b - c|, pb = |a - c|, pc = |(a - c) + (b - c)| (only a - c waits for
    ;; the pixel to the left); the nearest of a, b, c to a + b - c, ties to a, then b
    (if (i32.eq (local.get $filter) (i32.const 4))
      (then
        (local.set $x (i32.const 0))
        (block $done
          (br_if $done (i32.eqz (i32.lt_u (local.get $x) (local.get $width))))
          (loop $pixel
            (local.set $xv (i16x8.extend_low_i8x16_u (v128.load32_zero align=1 (local.get $s))))
            (local.set $b (v128.load64_zero align=1 (local.get $prev)))
            (local.get $xv) ;; waits on the stack for the predictor
            (local.set $pa (i16x8.abs (local.tee $m (i16x8.sub (local.get $b) (local.get $c)))))
            (local.set $pb (i16x8.abs (local.tee $sm (i16x8.sub (local.get $a) (local.get $c)))))
            (local.set $pc (i16x8.abs (i16x8.add (local.get $sm) (local.get $m))))
            (local.set $sm (i16x8.min_u (i16x8.min_u (local.get $pa) (local.get $pb)) (local.get $pc)))
            (local.set $a
              (i8x16.add
                (v128.bitselect
                  (local.get $a)
                  (v128.bitselect (local.get $b) (local.get $c) (i16x8.eq (local.get $pb) (local.get $sm)))
                  (i16x8.eq (local.get $pa) (local.get $sm)))))
            (v128.store64_lane align=1 0 (i32.add (local.get $cur) (i32.shl (local.get $x) (i32.const 3))) (local.get $a))
            (local.set $c (local.get $b))
            (local.set $s (i32.add (local.get $s) (i32.const 3)))
            (local.set $prev (i32.add (local.get $prev) (i32.const 8)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $width)))))))
    ;; Metres, four pixels a step: R << 16 | G << 8 | B as 32-bit lanes (bytes B, G, R and R's zero
    ;; high byte of each 8-byte pixel), then f64 scale and offset, rounded to f32. A row whose width
    ;; is not a multiple of 4 writes up to 3 values past its end (the next row's, written after; the
    ;; memory has room). m and sm hold the scale and the offset from here.
    (local.set $m (f64x2.splat (local.get $scale)))
    (local.set $sm (f64x2.splat (local.get $offset)))
    (local.set $x (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $x) (local.get $width))))
      (loop $four
        (local.set $xv
          (i8x16.shuffle 4 2 0 1 12 10 8 9 20 18 16 17 28 26 24 25
            (v128.load align=1 (local.tee $s (i32.add (local.get $cur) (i32.shl (local.get $x) (i32.const 3)))))
            (v128.load align=1 (i32.add (local.get $s) (i32.const 16)))))
        (v128.store align=1
          (i32.add (local.get $out) (i32.shl (local.get $x) (i32.const 2)))
          ;; pixels 0, 1 (the low half of each f32 result) and 2, 3
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
            (f32x4.demote_f64x2_zero
              (f64x2.add
                (f64x2.mul (f64x2.convert_low_i32x4_u (local.get $xv)) (local.get $m))
                (local.get $sm)))
            (f32x4.demote_f64x2_zero
              (f64x2.add
                (f64x2.mul
                  (f64x2.convert_low_i32x4_u
                    (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $xv) (local.get $xv)))
                  (local.get $m))
                (local.get $sm)))))
        (br_if $four (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 4))) (local.get $width))))))

  ;; the rows png-decode.ts copies in (grown from JavaScript)
  (memory (export "mem") 1))
