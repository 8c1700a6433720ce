;; The PNG encoder's passes over the pixels (src/render/encode.ts, whose TypeScript loops are the
;; reference, bit for bit) in WebAssembly SIMD: premultiplied float RGBA -> packed straight RGBA8,
;; the truecolour filter choice's two counts, and the truecolour scanlines. Compiled by
;; scripts/gen-wasm.mjs; called from encode.ts.
(module
  ;; Imported: a scratch memory of its own (the raster copied in), or the canvas arena
  ;; (src/util/wasm-arena.ts), where a raster lying there is read in place (encode.ts).
  (import "env" "mem" (memory 1))

  ;; convert(in, out, n) -> every alpha 255 (1) or not (0). n pixels of four f32 at `in` to n packed
  ;; RGBA8 (r | g << 8 | b << 16 | a << 24, little-endian bytes r g b a) at `out`, as toRGBA8: alpha
  ;; >= 1: each colour channel ToUint8Clamp(c * 255), alpha 255; 0 < alpha < 1: ToUint8Clamp(c *
  ;; (255 / a)) and ToUint8Clamp(a * 255); else (0, negative, NaN) all zero. The products in f64
  ;; as the TypeScript does; ToUint8Clamp is round half to even (f64x2.nearest), NaN and negatives
  ;; 0 (trunc_sat, then the unsigned saturating narrow), past 255 255. A pixel whose 16 bytes equal
  ;; the previous pixel's takes its result (runs of one colour, most of a map tile).
  (func (export "convert") (param $in i32) (param $out i32) (param $n i32) (result i32)
    (local $end i32) (local $v v128) (local $prev v128) (local $w i32) (local $all i32)
    (local $a f64) (local $f f64) (local $alpha i32) (local $c v128)
    (local.set $all (i32.const -1))
    (local.set $end (i32.add (local.get $in) (i32.shl (local.get $n) (i32.const 4))))
    (block $done
      (br_if $done (i32.eqz (local.get $n)))
      ;; not the first pixel, so that it converts
      (local.set $prev (v128.not (v128.load align=4 (local.get $in))))
      (loop $pixel
        (local.set $v (v128.load align=4 (local.get $in)))
        (if (v128.any_true (v128.xor (local.get $v) (local.get $prev)))
          (then
            (local.set $prev (local.get $v))
            (local.set $a (f64.promote_f32 (f32x4.extract_lane 3 (local.get $v))))
            (if (f64.ge (local.get $a) (f64.const 1))
              (then
                (local.set $f (f64.const 255))
                (local.set $alpha (i32.const 255)))
              (else
                (if (f64.gt (local.get $a) (f64.const 0))
                  (then
                    (local.set $f (f64.div (f64.const 255) (local.get $a)))
                    (local.set $alpha (i32.trunc_sat_f64_s (f64.nearest (f64.mul (local.get $a) (f64.const 255))))))
                  (else
                    (local.set $f (f64.const 0))
                    (local.set $alpha (i32.const -1))))))
            (if (i32.lt_s (local.get $alpha) (i32.const 0))
              (then (local.set $w (i32.const 0)))
              (else
                ;; (r, g) and (b, a) as f64 pairs, times f, rounded; lanes as i32 r g b _
                (local.set $c
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                    (i32x4.trunc_sat_f64x2_s_zero
                      (f64x2.nearest (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.splat (local.get $f)))))
                    (i32x4.trunc_sat_f64x2_s_zero
                      (f64x2.nearest
                        (f64x2.mul
                          (f64x2.promote_low_f32x4
                            (i8x16.shuffle 8 9 10 11 12 13 14 15 8 9 10 11 12 13 14 15 (local.get $v) (local.get $v)))
                          (f64x2.splat (local.get $f)))))))
                (local.set $c (i32x4.replace_lane 3 (local.get $c) (local.get $alpha)))
                (local.set $c (i8x16.narrow_i16x8_u (i16x8.narrow_i32x4_s (local.get $c) (local.get $c)) (local.get $c)))
                (local.set $w (i32x4.extract_lane 0 (local.get $c)))))
            (local.set $all (i32.and (local.get $all) (local.get $w)))))
        (i32.store align=1 (local.get $out) (local.get $w))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (br_if $pixel (i32.lt_u (local.tee $in (i32.add (local.get $in) (i32.const 16))) (local.get $end)))))
    (i32.eq (i32.shr_u (local.get $all) (i32.const 24)) (i32.const 255)))

  ;; palette(px, n, idx, tab) -> the colour count, or 257 past 256 colours (then idx is partial):
  ;; encode.ts paletteOf over n packed pixels at px. The palette in the order colours first appear
  ;; (i32 each at tab + 8192), each pixel's index a byte at idx. tab: 1024 slots of an
  ;; open-addressing table (keys i32 at tab, indices i32 at tab + 4096, -1 empty: cleared here).
  ;; Each run of one colour is looked up once, found 4 pixels a compare and its indices stored by
  ;; memory.fill (long runs) or byte by byte.
  (func (export "palette") (param $px i32) (param $n i32) (param $idx i32) (param $tab i32) (result i32)
    (local $p i32) (local $end i32) (local $v i32) (local $h i32) (local $k i32) (local $at i32)
    (local $count i32) (local $q i32) (local $run i32) (local $splat v128)
    (memory.fill (i32.add (local.get $tab) (i32.const 4096)) (i32.const 255) (i32.const 4096))
    (local.set $p (local.get $px))
    (local.set $end (i32.add (local.get $px) (i32.shl (local.get $n) (i32.const 2))))
    (block $done
      (br_if $done (i32.eqz (local.get $n)))
      (loop $pixel
        (local.set $v (i32.load align=1 (local.get $p)))
        ;; the colour's index: found, or the next one
        (local.set $h (i32.and (i32.shr_u (i32.mul (local.get $v) (i32.const 0x9e3779b1)) (i32.const 22)) (i32.const 1023)))
        (block $found
          (loop $probe
            (local.set $k (i32.load (i32.add (i32.add (local.get $tab) (i32.const 4096)) (i32.shl (local.get $h) (i32.const 2)))))
            (if (i32.lt_s (local.get $k) (i32.const 0))
              (then
                (if (i32.eq (local.get $count) (i32.const 256)) (then (return (i32.const 257))))
                (i32.store (i32.add (local.get $tab) (i32.shl (local.get $h) (i32.const 2))) (local.get $v))
                (i32.store (i32.add (i32.add (local.get $tab) (i32.const 4096)) (i32.shl (local.get $h) (i32.const 2))) (local.get $count))
                (i32.store (i32.add (i32.add (local.get $tab) (i32.const 8192)) (i32.shl (local.get $count) (i32.const 2))) (local.get $v))
                (local.set $at (local.get $count))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))
                (br $found)))
            (if (i32.eq (i32.load (i32.add (local.get $tab) (i32.shl (local.get $h) (i32.const 2)))) (local.get $v))
              (then
                (local.set $at (local.get $k))
                (br $found)))
            (local.set $h (i32.and (i32.add (local.get $h) (i32.const 1)) (i32.const 1023)))
            (br $probe)))
        ;; the run of this colour: four pixels a compare, then one at a time
        (local.set $q (i32.add (local.get $p) (i32.const 4)))
        (local.set $splat (i32x4.splat (local.get $v)))
        (block $wideDone
          (loop $four
            (br_if $wideDone (i32.gt_u (i32.add (local.get $q) (i32.const 16)) (local.get $end)))
            (br_if $wideDone (i32.eqz (i32x4.all_true (i32x4.eq (v128.load align=1 (local.get $q)) (local.get $splat)))))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (br $four)))
        (block $oneDone
          (loop $one
            (br_if $oneDone (i32.ge_u (local.get $q) (local.get $end)))
            (br_if $oneDone (i32.ne (i32.load align=1 (local.get $q)) (local.get $v)))
            (local.set $q (i32.add (local.get $q) (i32.const 4)))
            (br $one)))
        (local.set $run (i32.shr_u (i32.sub (local.get $q) (local.get $p)) (i32.const 2)))
        (if (i32.gt_u (local.get $run) (i32.const 16))
          (then (memory.fill (local.get $idx) (local.get $at) (local.get $run)))
          (else
            (local.set $k (local.get $idx))
            (loop $bytes
              (i32.store8 (local.get $k) (local.get $at))
              (br_if $bytes (i32.lt_u (local.tee $k (i32.add (local.get $k) (i32.const 1))) (i32.add (local.get $idx) (local.get $run)))))))
        (local.set $idx (i32.add (local.get $idx) (local.get $run)))
        (br_if $pixel (i32.lt_u (local.tee $p (local.get $q)) (local.get $end)))))
    (local.get $count))

  ;; delta(b, a): each byte of a minus the same byte of b, modulo 256 (the Sub filter of a pixel).
  (func $delta (param $a i32) (param $b i32) (result i32)
    (i32x4.extract_lane 0 (i8x16.sub (i32x4.splat (local.get $a)) (i32x4.splat (local.get $b)))))

  ;; stats(px, width, height, res): the filter choice's counts of encode.ts truecolourImage, over
  ;; packed pixels at px: at res, the number of pixels (x >= 1 in each row) that differ from the one
  ;; before (i32), then the number whose Sub delta differs from the one before (i32; the delta
  ;; before x = 1 counts as 0), then the number of pixels (x >= 1) equal to the one before in every
  ;; 8th row from row min(4, height - 1) (i32: encode.ts equalLeftCount, the deflate level's test).
  (func (export "stats") (param $px i32) (param $width i32) (param $height i32) (param $res i32)
    (local $base i32) (local $y i32) (local $x i32) (local $p i32)
    (local $none i32) (local $sub i32) (local $wide i32) (local $d i32)
    (local $eqN v128) (local $eqS v128) (local $A v128) (local $B v128) (local $C v128)
    (local $sample i32) (local $before i32) (local $equal i32)
    (local.set $y (i32.const 0))
    ;; the first row sampled for the equal-left count: min(4, height - 1)
    (local.set $sample (select (i32.const 4) (i32.sub (local.get $height) (i32.const 1)) (i32.lt_s (i32.const 4) (local.get $height))))
    (block $rows
      (br_if $rows (i32.or (i32.lt_s (local.get $width) (i32.const 2)) (i32.eqz (local.get $height))))
      (loop $row
        (local.set $base (i32.add (local.get $px) (i32.shl (i32.mul (local.get $y) (local.get $width)) (i32.const 2))))
        ;; the differing pixels counted before this row (as res's first count sums them)
        (local.set $before (i32.sub (i32.add (local.get $none) (local.get $wide)) (call $sum (local.get $eqN))))
        ;; x = 1: against a delta of 0
        (local.set $d (call $delta (i32.load offset=4 align=1 (local.get $base)) (i32.load align=1 (local.get $base))))
        (local.set $none (i32.add (local.get $none)
          (i32.ne (i32.load offset=4 align=1 (local.get $base)) (i32.load align=1 (local.get $base)))))
        (local.set $sub (i32.add (local.get $sub) (i32.ne (local.get $d) (i32.const 0))))
        (local.set $x (i32.const 2))
        ;; four pixels at a time: x .. x + 3 against x - 1 .. x + 2, whose deltas against x - 2 ..
        (block $wideDone
          (loop $four
            (br_if $wideDone (i32.gt_s (i32.add (local.get $x) (i32.const 4)) (local.get $width)))
            (local.set $p (i32.add (local.get $base) (i32.shl (local.get $x) (i32.const 2))))
            (local.set $A (v128.load align=1 (local.get $p)))
            (local.set $B (v128.load align=1 (i32.sub (local.get $p) (i32.const 4))))
            (local.set $C (v128.load align=1 (i32.sub (local.get $p) (i32.const 8))))
            ;; equal lanes are -1: subtracting counts them
            (local.set $eqN (i32x4.sub (local.get $eqN) (i32x4.eq (local.get $A) (local.get $B))))
            (local.set $eqS (i32x4.sub (local.get $eqS)
              (i32x4.eq (i8x16.sub (local.get $A) (local.get $B)) (i8x16.sub (local.get $B) (local.get $C)))))
            (local.set $wide (i32.add (local.get $wide) (i32.const 4)))
            (local.set $x (i32.add (local.get $x) (i32.const 4)))
            (br $four)))
        ;; the rest of the row, one pixel at a time
        (block $tail
          (loop $one
            (br_if $tail (i32.ge_s (local.get $x) (local.get $width)))
            (local.set $p (i32.add (local.get $base) (i32.shl (local.get $x) (i32.const 2))))
            (local.set $none (i32.add (local.get $none)
              (i32.ne (i32.load align=1 (local.get $p)) (i32.load align=1 (i32.sub (local.get $p) (i32.const 4))))))
            (local.set $sub (i32.add (local.get $sub)
              (i32.ne
                (call $delta (i32.load align=1 (local.get $p)) (i32.load align=1 (i32.sub (local.get $p) (i32.const 4))))
                (call $delta (i32.load align=1 (i32.sub (local.get $p) (i32.const 4))) (i32.load align=1 (i32.sub (local.get $p) (i32.const 8)))))))
            (local.set $x (i32.add (local.get $x) (i32.const 1)))
            (br $one)))
        ;; a sampled row: its width - 1 comparisons less those that differed
        (if (i32.eq (local.get $y) (local.get $sample))
          (then
            (local.set $equal (i32.add (local.get $equal)
              (i32.sub (i32.sub (local.get $width) (i32.const 1))
                (i32.sub (i32.sub (i32.add (local.get $none) (local.get $wide)) (call $sum (local.get $eqN))) (local.get $before)))))
            (local.set $sample (i32.add (local.get $sample) (i32.const 8)))))
        (br_if $row (i32.lt_s (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $height)))))
    ;; each wide lane was one comparison: it differs unless counted equal
    (i32.store (local.get $res) (i32.sub (i32.add (local.get $none) (local.get $wide)) (call $sum (local.get $eqN))))
    (i32.store offset=4 (local.get $res) (i32.sub (i32.add (local.get $sub) (local.get $wide)) (call $sum (local.get $eqS))))
    (i32.store offset=8 (local.get $res) (local.get $equal)))

  (func $sum (param $v v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $v)) (i32x4.extract_lane 1 (local.get $v)))
      (i32.add (i32x4.extract_lane 2 (local.get $v)) (i32x4.extract_lane 3 (local.get $v)))))

;; rows(px, width, height, out, filter, channels): the truecolour scanlines of encode.ts
  ;; truecolourImage at out: each row its filter byte (0 none, 1 sub, 2 up) then its pixels as RGB
  ;; (channels 3) or RGBA (4) bytes, Sub: each byte minus the same byte of the pixel to its left (0
  ;; left of the row), Up: minus the same byte of the pixel above (0 above the first row), modulo
  ;; 256. Four pixels a store; an RGB store writes 4 bytes past its 12, which the next store (or
  ;; row) overwrites: out needs 16 bytes of room past the last row.
  (func (export "rows") (param $px i32) (param $width i32) (param $height i32) (param $out i32) (param $filter i32) (param $channels i32)
    (local $y i32) (local $x i32) (local $p i32) (local $end i32) (local $v v128) (local $w i32) (local $left i32)
    (local $back i32) (local $minus i32)
    ;; the bytes back to the pixel each one is coded against: the one to the left, or above
    (local.set $back (select (i32.shl (local.get $width) (i32.const 2)) (i32.const 4) (i32.eq (local.get $filter) (i32.const 2))))
    (local.set $y (i32.const 0))
    (block $rows
      (br_if $rows (i32.eqz (local.get $height)))
      (loop $row
        (i32.store8 (local.get $out) (local.get $filter))
        (local.set $out (i32.add (local.get $out) (i32.const 1)))
        (local.set $p (i32.add (local.get $px) (i32.shl (i32.mul (local.get $y) (local.get $width)) (i32.const 2))))
        (local.set $end (i32.add (local.get $p) (i32.shl (local.get $width) (i32.const 2))))
        (local.set $x (i32.const 0))
        ;; whether this row's pixels are coded as differences (Up: not the first row, as it is)
        (local.set $minus (i32.and (i32.ne (local.get $filter) (i32.const 0))
          (i32.or (i32.ne (local.get $filter) (i32.const 2)) (i32.ne (local.get $y) (i32.const 0)))))
        ;; Sub: the first pixel against 0, as it is
        (if (i32.and (i32.eq (local.get $filter) (i32.const 1)) (i32.gt_s (local.get $width) (i32.const 0)))
          (then
            (local.set $out (call $put (local.get $out) (i32.load align=1 (local.get $p)) (local.get $channels)))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))))
        (block $wideDone
          (loop $four
            (br_if $wideDone (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
            (local.set $v (v128.load align=1 (local.get $p)))
            (if (local.get $minus)
              (then (local.set $v (i8x16.sub (local.get $v) (v128.load align=1 (i32.sub (local.get $p) (local.get $back)))))))
            (if (i32.eq (local.get $channels) (i32.const 4))
              (then
                (v128.store align=1 (local.get $out) (local.get $v))
                (local.set $out (i32.add (local.get $out) (i32.const 16))))
              (else
                (v128.store align=1 (local.get $out)
                  (i8x16.shuffle 0 1 2 4 5 6 8 9 10 12 13 14 15 15 15 15 (local.get $v) (local.get $v)))
                (local.set $out (i32.add (local.get $out) (i32.const 12)))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br $four)))
        (block $tail
          (loop $one
            (br_if $tail (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $w (i32.load align=1 (local.get $p)))
            (if (local.get $minus)
              (then (local.set $w (call $delta (local.get $w) (i32.load align=1 (i32.sub (local.get $p) (local.get $back)))))))
            (local.set $out (call $put (local.get $out) (local.get $w) (local.get $channels)))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $one)))
        (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $height))))))

  ;; put(out, w, channels) -> out after it: the bytes r g b (a) of w at out.
  (func $put (param $out i32) (param $w i32) (param $channels i32) (result i32)
    (i32.store16 align=1 (local.get $out) (local.get $w))
    (i32.store8 offset=2 (local.get $out) (i32.shr_u (local.get $w) (i32.const 16)))
    (if (i32.eq (local.get $channels) (i32.const 4))
      (then (i32.store8 offset=3 (local.get $out) (i32.shr_u (local.get $w) (i32.const 24)))))
    (i32.add (local.get $out) (local.get $channels)))
)
