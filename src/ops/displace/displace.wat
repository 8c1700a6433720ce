;; displace's rows whose reads lie inside the world and the input view (cpu.ts `displace`, the
;; same values as `displaceReference` bit for bit) in WebAssembly SIMD: per pixel the offset in
;; f64 as there, then the bilinear read of all four channels two at a time (f64x2: the same f64
;; subtract, multiply and add per channel, rounded to f32 once), so the output is bit for bit the
;; reference's. Compiled by scripts/gen-wasm.mjs; called from simd.ts.
(module
  ;; the memory: simd.ts gives one instance a scratch memory it copies rasters into (grown from
  ;; JavaScript) and one the canvas arena, whose canvases it reads and writes in place
  ;; (src/util/wasm-arena.ts)
  (import "env" "mem" (memory 1))
;; occupancy(src, sw, sh, occ, nb, c) -> 1 where a colour C was found: for each row r of `src`
  ;; (RGBA f32, sw pixels a row, sh rows) and each block b of 16 pixels of it (the last one shorter),
  ;; the byte occ[r nb + b] has bit 0 set where any bit of the block's pixels is set (a -0 counts)
  ;; and bit 1 set unless every pixel of the block has the bits of C; C (written at `c`) is the
  ;; pixel of the first whole block whose 16 pixels have the same bits, not all +0, every channel
  ;; finite and none -0 (a fill's inside); without one, bit 1 is set everywhere. The bytes from
  ;; ceil(sw / 16) to nb (a multiple of 16) are 0.
  (func (export "occupancy") (param $src i32) (param $sw i32) (param $sh i32) (param $occ i32) (param $nb i32) (param $c i32) (result i32)
    (local $r i32) (local $p i32) (local $rowEnd i32) (local $blockEnd i32) (local $q i32) (local $k i32)
    (local $v v128) (local $first v128) (local $diff v128) (local $cv v128) (local $found i32) (local $byte i32) (local $start i32)
    (local.set $p (local.get $src))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_s (local.get $r) (local.get $sh)))
        (local.set $q (i32.add (local.get $occ) (i32.mul (local.get $r) (local.get $nb))))
        (local.set $k (i32.const 0))
        (loop $zero
          (v128.store (i32.add (local.get $q) (local.get $k)) (v128.const i32x4 0 0 0 0))
          (local.set $k (i32.add (local.get $k) (i32.const 16)))
          (br_if $zero (i32.lt_s (local.get $k) (local.get $nb))))
        (local.set $rowEnd (i32.add (local.get $p) (i32.shl (local.get $sw) (i32.const 4))))
        (block $blocksDone
          (loop $blocks
            (br_if $blocksDone (i32.ge_u (local.get $p) (local.get $rowEnd)))
            (local.set $blockEnd (select (local.get $rowEnd) (i32.add (local.get $p) (i32.const 256))
              (i32.lt_u (local.get $rowEnd) (i32.add (local.get $p) (i32.const 256)))))
            (local.set $start (local.get $p))
            (local.set $first (v128.load (local.get $p)))
            (local.set $v (v128.const i32x4 0 0 0 0))
            (local.set $diff (v128.const i32x4 0 0 0 0))
            (loop $px
              (local.set $v (v128.or (local.get $v) (v128.load (local.get $p))))
              (local.set $diff (v128.or (local.get $diff) (v128.xor (local.get $first) (v128.load (local.get $p)))))
              (local.set $p (i32.add (local.get $p) (i32.const 16)))
              (br_if $px (i32.lt_u (local.get $p) (local.get $blockEnd))))
            ;; bit 0: any bit set; bit 2 (for the second pass): the block's pixels all have the first one's bits
            (local.set $byte (i32.or (v128.any_true (local.get $v))
              (i32.shl (i32.eqz (v128.any_true (local.get $diff))) (i32.const 2))))
            (i32.store8 (local.get $q) (local.get $byte))
            ;; C: the first whole such block, not +0, its channels finite (x - x = +0) and none -0
            (if (i32.and (i32.eqz (local.get $found))
                  (i32.and (i32.eq (local.get $byte) (i32.const 5))
                    (i32.and (i32.eq (i32.sub (local.get $blockEnd) (local.get $start)) (i32.const 256))
                      (i32.and (i32.eqz (v128.any_true (f32x4.sub (local.get $first) (local.get $first))))
                        (i32.eqz (v128.any_true (i32x4.eq (local.get $first) (v128.const i32x4 0x80000000 0x80000000 0x80000000 0x80000000))))))))
              (then
                (v128.store (local.get $c) (local.get $first))
                (local.set $found (i32.const 1))))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $blocks)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows)))
    ;; second pass: bit 1 unless the block is all C (one value, set, the first pixel's bits C's)
    (local.set $cv (v128.load (local.get $c)))
    (local.set $r (i32.const 0))
    (block $rows2Done
      (loop $rows2
        (br_if $rows2Done (i32.ge_s (local.get $r) (local.get $sh)))
        (local.set $q (i32.add (local.get $occ) (i32.mul (local.get $r) (local.get $nb))))
        (local.set $p (i32.add (local.get $src) (i32.shl (i32.mul (local.get $r) (local.get $sw)) (i32.const 4))))
        (local.set $k (i32.const 0))
        (block $blocks2Done
          (loop $blocks2
            (br_if $blocks2Done (i32.ge_s (i32.shl (local.get $k) (i32.const 4)) (local.get $sw)))
            (local.set $byte (i32.load8_u (i32.add (local.get $q) (local.get $k))))
            (i32.store8 (i32.add (local.get $q) (local.get $k))
              (select (i32.const 1) (i32.or (i32.and (local.get $byte) (i32.const 1)) (i32.const 2))
                (i32.and (i32.and (local.get $found) (i32.eq (local.get $byte) (i32.const 5)))
                  (i32.eqz (v128.any_true (v128.xor (local.get $cv)
                    (v128.load (i32.add (local.get $p) (i32.shl (local.get $k) (i32.const 8))))))))))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $blocks2)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows2)))
    (local.get $found))

  ;; finite(disp, n) -> 1 where the R, G and A of all `n` pixels at `disp` (RGBA f32) are finite
  ;; (x - x is +0 for a finite x and NaN for NaN and +-Infinity), else 0. B is not read by rows().
  (func (export "finite") (param $disp i32) (param $n i32) (result i32)
    (local $end i32) (local $v v128) (local $acc v128)
    (local.set $end (i32.add (local.get $disp) (i32.shl (local.get $n) (i32.const 4))))
    (block $done
      (br_if $done (i32.ge_u (local.get $disp) (local.get $end)))
      (loop $px
        (local.set $v (v128.load (local.get $disp)))
        (local.set $acc (v128.or (local.get $acc) (f32x4.sub (local.get $v) (local.get $v))))
        (local.set $disp (i32.add (local.get $disp) (i32.const 16)))
        (br_if $px (i32.lt_u (local.get $disp) (local.get $end)))))
    (i32.eqz (v128.any_true (v128.and (local.get $acc) (v128.const i32x4 -1 -1 0 -1)))))

  ;; rows(src, sw, disp, w, out, j0, j1, pad, ampX, ampY, kx, ky, nan, occ, nb, sh, ax, ay, acc, c)
  ;; -> count: output rows j0..j1 - 1 (w pixels each, RGBA f32) from `src` (RGBA f32, sw pixels a
  ;; row) at the offsets of `disp` (RGBA f32, w a row). A pixel whose offset is NaN is not written:
  ;; its index (pixel number) goes onto the i32 list at `nan`, and the count of those is returned.
  ;; `occ` (0: none): occupancy()'s bytes of `src` (sh rows of nb, C at `c`), given only where every
  ;; offset is finite; `ax` >= ceil(ampX) + 1 and `ay` >= ceil(ampY) + 1 bound the columns and rows
  ;; a pixel reads (i + pad +- ax, j + pad +- ay: its offsets clamp to the amplitudes, then floor
  ;; and + 1); `acc`: nb bytes. A pixel whose reachable blocks are all +0 reads four +0 neighbours,
  ;; so it is +0 (the shortcut below); one whose reachable blocks are all C reads four C
  ;; neighbours, so each channel is v + (v - v) f = v + 0 = v (v finite, not -0; f finite) in f64
  ;; and v again in f32: such pixels are stored without their offsets. Along a row the reachable
  ;; blocks change only where i + pad - ax or i + pad + ax + 1 crosses a multiple of 16: the row
  ;; goes by those segments.
  (func (export "rows")
    (param $src i32) (param $sw i32) (param $disp i32) (param $w i32) (param $out i32)
    (param $j0 i32) (param $j1 i32) (param $pad i32)
    (param $ampX f64) (param $ampY f64) (param $kx f64) (param $ky f64) (param $nan i32)
    (param $occ i32) (param $nb i32) (param $sh i32) (param $ax i32) (param $ay i32) (param $acc i32) (param $c i32) (result i32)
    (local $runEnd i32) (local $segEnd i32) (local $bl i32) (local $bh i32) (local $bits i32) (local $fillv v128) (local $cv v128)
    (local $r0 i32) (local $r1 i32) (local $r i32) (local $k i32) (local $ov v128)
    (local $j i32) (local $i i32) (local $pi i32) (local $dp i32) (local $count i32)
    (local $da f64) (local $dx f64) (local $dy f64) (local $sx f64) (local $sy f64)
    (local $x0 f64) (local $y0 f64) (local $a i32) (local $b i32) (local $row i32)
    (local $fx v128) (local $fy v128)
    (local $p00 v128) (local $p10 v128) (local $p01 v128) (local $p11 v128)
    (local $v00 v128) (local $v10 v128) (local $v01 v128) (local $v11 v128)
    (local $top v128) (local $lo v128) (local $hi v128)
    (local.set $row (i32.shl (local.get $sw) (i32.const 4)))
    (if (local.get $occ) (then (local.set $cv (v128.load (local.get $c)))))
    (local.set $j (local.get $j0))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_s (local.get $j) (local.get $j1)))
        (local.set $i (i32.const 0))
        (local.set $pi (i32.mul (local.get $j) (local.get $w)))
        (local.set $runEnd (local.get $w))
        (if (local.get $occ)
          (then
            ;; acc: the blocks of the input rows this row can read, j + pad +- ay in the input
            (local.set $r0 (i32.sub (i32.add (local.get $j) (local.get $pad)) (local.get $ay)))
            (if (i32.lt_s (local.get $r0) (i32.const 0)) (then (local.set $r0 (i32.const 0))))
            (local.set $r1 (i32.add (i32.add (local.get $j) (local.get $pad)) (local.get $ay)))
            (if (i32.ge_s (local.get $r1) (local.get $sh)) (then (local.set $r1 (i32.sub (local.get $sh) (i32.const 1)))))
            (local.set $k (i32.const 0))
            (loop $cols
              (local.set $ov (v128.const i32x4 0 0 0 0))
              (local.set $r (local.get $r0))
              (block $orDone
                (loop $or
                  (br_if $orDone (i32.gt_s (local.get $r) (local.get $r1)))
                  (local.set $ov (v128.or (local.get $ov)
                    (v128.load (i32.add (i32.add (local.get $occ) (i32.mul (local.get $r) (local.get $nb))) (local.get $k)))))
                  (local.set $r (i32.add (local.get $r) (i32.const 1)))
                  (br $or)))
              (v128.store (i32.add (local.get $acc) (local.get $k)) (local.get $ov))
              (local.set $k (i32.add (local.get $k) (i32.const 16)))
              (br_if $cols (i32.lt_s (local.get $k) (local.get $nb))))
            (local.set $runEnd (i32.const 0))))
        (block $rowDone
          (loop $pixels
            (if (i32.ge_s (local.get $i) (local.get $runEnd))
              (then
                (br_if $rowDone (i32.ge_s (local.get $i) (local.get $w)))
                ;; (occ only) the segment [i, segEnd) over which the reachable blocks bl..bh stay
                (local.set $k (i32.sub (i32.add (local.get $i) (local.get $pad)) (local.get $ax)))
                (local.set $segEnd (i32.sub (i32.add (local.get $i) (i32.const 16)) (i32.and (local.get $k) (i32.const 15))))
                (local.set $bl (i32.shr_s (local.get $k) (i32.const 4)))
                (if (i32.lt_s (local.get $bl) (i32.const 0)) (then (local.set $bl (i32.const 0))))
                (local.set $k (i32.add (i32.add (local.get $i) (local.get $pad)) (local.get $ax)))
                (local.set $r (i32.sub (i32.add (local.get $i) (i32.const 16)) (i32.and (local.get $k) (i32.const 15))))
                (if (i32.lt_s (local.get $r) (local.get $segEnd)) (then (local.set $segEnd (local.get $r))))
                (if (i32.gt_s (local.get $segEnd) (local.get $w)) (then (local.set $segEnd (local.get $w))))
                (local.set $bh (i32.shr_s (local.get $k) (i32.const 4)))
                (if (i32.ge_s (local.get $bh) (local.get $nb)) (then (local.set $bh (i32.sub (local.get $nb) (i32.const 1)))))
                (local.set $bits (i32.const 0))
                (block $orDone
                  (loop $orBlocks
                    (br_if $orDone (i32.gt_s (local.get $bl) (local.get $bh)))
                    (local.set $bits (i32.or (local.get $bits) (i32.load8_u (i32.add (local.get $acc) (local.get $bl)))))
                    (local.set $bl (i32.add (local.get $bl) (i32.const 1)))
                    (br $orBlocks)))
                (local.set $runEnd (local.get $segEnd))
                ;; no set bit within reach: +0; all C within reach: C; else the kernel
                (if (i32.ne (i32.and (local.get $bits) (i32.const 3)) (i32.const 3))
                  (then
                    (local.set $fillv (select (v128.const i32x4 0 0 0 0) (local.get $cv) (i32.eqz (i32.and (local.get $bits) (i32.const 1)))))
                    (loop $fill
                      (v128.store (i32.add (local.get $out) (i32.shl (local.get $pi) (i32.const 4))) (local.get $fillv))
                      (local.set $i (i32.add (local.get $i) (i32.const 1)))
                      (local.set $pi (i32.add (local.get $pi) (i32.const 1)))
                      (br_if $fill (i32.lt_s (local.get $i) (local.get $segEnd))))
                    (br $pixels)))))
            (block $next
              (local.set $dp (i32.add (local.get $disp) (i32.shl (local.get $pi) (i32.const 4))))
              (local.set $da (f64.promote_f32 (f32.load offset=12 (local.get $dp))))
              (local.set $dx (f64.mul (f64.sub (f64.promote_f32 (f32.load (local.get $dp))) (f64.mul (f64.const 0.5) (local.get $da))) (local.get $kx)))
              (local.set $dy (f64.mul (f64.sub (f64.promote_f32 (f32.load offset=4 (local.get $dp))) (f64.mul (f64.const 0.5) (local.get $da))) (local.get $ky)))
              ;; offsets clamp to the amplitudes (NaN stays NaN, as there)
              (local.set $dx (select (f64.neg (local.get $ampX))
                (select (local.get $ampX) (local.get $dx) (f64.gt (local.get $dx) (local.get $ampX)))
                (f64.lt (local.get $dx) (f64.neg (local.get $ampX)))))
              (local.set $dy (select (f64.neg (local.get $ampY))
                (select (local.get $ampY) (local.get $dy) (f64.gt (local.get $dy) (local.get $ampY)))
                (f64.lt (local.get $dy) (f64.neg (local.get $ampY)))))
              (local.set $sx (f64.add (f64.convert_i32_s (i32.add (local.get $i) (local.get $pad))) (local.get $dx)))
              (local.set $sy (f64.add (f64.convert_i32_s (i32.add (local.get $j) (local.get $pad))) (local.get $dy)))
              (local.set $x0 (f64.floor (local.get $sx)))
              (local.set $y0 (f64.floor (local.get $sy)))
              (if (i32.or (f64.ne (local.get $x0) (local.get $x0)) (f64.ne (local.get $y0) (local.get $y0)))
                (then
                  (i32.store (i32.add (local.get $nan) (i32.shl (local.get $count) (i32.const 2))) (local.get $pi))
                  (local.set $count (i32.add (local.get $count) (i32.const 1)))
                  (br $next)))
              (local.set $fx (f64x2.splat (f64.sub (local.get $sx) (local.get $x0))))
              (local.set $fy (f64x2.splat (f64.sub (local.get $sy) (local.get $y0))))
              (local.set $a (i32.add (local.get $src)
                (i32.shl (i32.add (i32.mul (i32.trunc_f64_s (local.get $y0)) (local.get $sw)) (i32.trunc_f64_s (local.get $x0))) (i32.const 4))))
              (local.set $b (i32.add (local.get $a) (local.get $row)))
              (local.set $p00 (v128.load (local.get $a)))
              (local.set $p10 (v128.load offset=16 (local.get $a)))
              (local.set $p01 (v128.load (local.get $b)))
              (local.set $p11 (v128.load offset=16 (local.get $b)))
              ;; four transparent +0 neighbours (the most of a line or shape layer): every channel is
              ;; 0 + (0 - 0) f = +0 with f in [0, 1), as below
              (if (i32.eqz (v128.any_true (v128.or (v128.or (local.get $p00) (local.get $p10)) (v128.or (local.get $p01) (local.get $p11)))))
                (then
                  (v128.store (i32.add (local.get $out) (i32.shl (local.get $pi) (i32.const 4))) (v128.const i32x4 0 0 0 0))
                  (br $next)))
              ;; channels R, G
              (local.set $v00 (f64x2.promote_low_f32x4 (local.get $p00)))
              (local.set $v10 (f64x2.promote_low_f32x4 (local.get $p10)))
              (local.set $v01 (f64x2.promote_low_f32x4 (local.get $p01)))
              (local.set $v11 (f64x2.promote_low_f32x4 (local.get $p11)))
              (local.set $top (f64x2.add (local.get $v00) (f64x2.mul (f64x2.sub (local.get $v10) (local.get $v00)) (local.get $fx))))
              (local.set $lo (f32x4.demote_f64x2_zero (f64x2.add (local.get $top)
                (f64x2.mul
                  (f64x2.sub (f64x2.add (local.get $v01) (f64x2.mul (f64x2.sub (local.get $v11) (local.get $v01)) (local.get $fx))) (local.get $top))
                  (local.get $fy)))))
              ;; channels B, A
              (local.set $v00 (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $p00) (local.get $p00))))
              (local.set $v10 (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $p10) (local.get $p10))))
              (local.set $v01 (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $p01) (local.get $p01))))
              (local.set $v11 (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $p11) (local.get $p11))))
              (local.set $top (f64x2.add (local.get $v00) (f64x2.mul (f64x2.sub (local.get $v10) (local.get $v00)) (local.get $fx))))
              (local.set $hi (f32x4.demote_f64x2_zero (f64x2.add (local.get $top)
                (f64x2.mul
                  (f64x2.sub (f64x2.add (local.get $v01) (f64x2.mul (f64x2.sub (local.get $v11) (local.get $v01)) (local.get $fx))) (local.get $top))
                  (local.get $fy)))))
              (v128.store (i32.add (local.get $out) (i32.shl (local.get $pi) (i32.const 4)))
                (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $lo) (local.get $hi))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $pi (i32.add (local.get $pi) (i32.const 1)))
            (br $pixels)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $rows)))
    (local.get $count))

  )
