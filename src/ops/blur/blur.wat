;; blur's fast path in WebAssembly SIMD (simd.ts drives it; blurFast with useSimd false in cpu.ts is the
;; reference): every stage of the decimated blur is a weighted gather of whole rows (`rows`) or of
;; pixels (`pixels`), by a tap table of (index, weight) pairs that simd.ts fills from the same tap
;; plans as the scalar path. On RGBA a vector is one pixel; on one plane it is four neighbouring
;; columns, and the horizontal stages run on the transposed plane (`transpose`). The exact kernel's
;; passes whose taps all lie inside the source (the op's pad covers the radius) run as sliding
;; convolutions instead (`convX`, `convY`: one weight table, one load feeding four outputs), the
;; same sums in the same order as the tables give. `tint` and `mono`
;; are the one-colour shortcut (blur the alpha plane only). Accumulates in f32 (the scalar path in
;; f64): the two differ by ~1e-6, far below 1/255. Compiled by scripts/gen-wasm.mjs.
(module
  ;; the memory: simd.ts gives one instance a scratch memory it lays out tables and copied planes in
  ;; (grown from JavaScript), and one the canvas arena (src/util/wasm-arena.ts), where the canvases
  ;; are read and written in place and the tables and intermediate planes are blocks of the arena
  (import "env" "mem" (memory 1))
  ;; rows(in, rowBytes, out, nOut, idx, wts, taps): output row y (rowBytes bytes, a multiple of 16)
  ;; = sum over t < taps of wts[y taps + t] * input row idx[y taps + t]. The output row is the
  ;; accumulator (it stays in L1); each pair of taps streams two input rows through it.
  (func (export "rows") (param $in i32) (param $rowBytes i32) (param $out i32) (param $nOut i32)
    (param $idx i32) (param $wts i32) (param $taps i32)
    (local $y i32) (local $t i32) (local $j i32) (local $outRow i32) (local $inRow i32) (local $inRow2 i32) (local $k i32) (local $tEnd i32)
    (local $w v128) (local $w2 v128)
    (local.set $y (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $y) (local.get $nOut))))
      (loop $row
        (local.set $outRow (i32.add (local.get $out) (i32.mul (local.get $y) (local.get $rowBytes))))
        ;; the output row = 0
        (local.set $j (i32.const 0))
        (block $zeroDone
          (br_if $zeroDone (i32.eqz (i32.lt_u (local.get $j) (local.get $rowBytes))))
          (loop $zero
            (v128.store align=16 (i32.add (local.get $outRow) (local.get $j)) (v128.const i64x2 0 0))
            (br_if $zero (i32.lt_u (local.tee $j (i32.add (local.get $j) (i32.const 16))) (local.get $rowBytes)))))
        ;; the taps y taps .. y taps + taps - 1, two at a time: the output row += w0 * row a, then
        ;; += w1 * row b, in one pass (the same two f32 additions in the same order as one tap a
        ;; pass, half the loads and stores of the output row); an odd last tap alone
        (local.set $tEnd (i32.add (i32.mul (local.get $y) (local.get $taps)) (local.get $taps)))
        (local.set $t (i32.mul (local.get $y) (local.get $taps)))
        (block $pairsDone
          (loop $pair
            (br_if $pairsDone (i32.ge_u (i32.add (local.get $t) (i32.const 1)) (local.get $tEnd)))
            ;; k: the first tap's byte offset in the tables; inRow, inRow2: in + idx[k] rowBytes, in + idx[k + 4] rowBytes
            (local.set $k (i32.mul (local.get $t) (i32.const 4)))
            (local.set $inRow
              (i32.add (local.get $in) (i32.mul (i32.load align=4 (i32.add (local.get $idx) (local.get $k))) (local.get $rowBytes))))
            (local.set $inRow2
              (i32.add (local.get $in) (i32.mul (i32.load offset=4 align=4 (i32.add (local.get $idx) (local.get $k))) (local.get $rowBytes))))
            (local.set $w (f32x4.splat (f32.load align=4 (i32.add (local.get $wts) (local.get $k)))))
            (local.set $w2 (f32x4.splat (f32.load offset=4 align=4 (i32.add (local.get $wts) (local.get $k)))))
            (local.set $j (i32.const 0))
            (block $addDone2
              (br_if $addDone2 (i32.eqz (i32.lt_u (local.get $j) (local.get $rowBytes))))
              (loop $add2
                (v128.store align=16
                  (i32.add (local.get $outRow) (local.get $j))
                  (f32x4.add
                    (f32x4.add
                      (v128.load align=16 (i32.add (local.get $outRow) (local.get $j)))
                      (f32x4.mul (v128.load align=16 (i32.add (local.get $inRow) (local.get $j))) (local.get $w)))
                    (f32x4.mul (v128.load align=16 (i32.add (local.get $inRow2) (local.get $j))) (local.get $w2))))
                (br_if $add2 (i32.lt_u (local.tee $j (i32.add (local.get $j) (i32.const 16))) (local.get $rowBytes)))))
            (local.set $t (i32.add (local.get $t) (i32.const 2)))
            (br $pair)))
        (block $tapsDone
          (br_if $tapsDone (i32.eqz (i32.lt_u (local.get $t) (local.get $tEnd))))
          ;; k: the tap's byte offset in the tables; inRow = in + idx[k] rowBytes; w = wts[k] in every lane
          (local.set $k (i32.mul (local.get $t) (i32.const 4)))
          (local.set $inRow
            (i32.add (local.get $in) (i32.mul (i32.load align=4 (i32.add (local.get $idx) (local.get $k))) (local.get $rowBytes))))
          (local.set $w (f32x4.splat (f32.load align=4 (i32.add (local.get $wts) (local.get $k)))))
          ;; the output row += w * the input row
          (local.set $j (i32.const 0))
          (block $addDone
            (br_if $addDone (i32.eqz (i32.lt_u (local.get $j) (local.get $rowBytes))))
            (loop $add
              (v128.store align=16
                (i32.add (local.get $outRow) (local.get $j))
                (f32x4.add
                  (v128.load align=16 (i32.add (local.get $outRow) (local.get $j)))
                  (f32x4.mul (v128.load align=16 (i32.add (local.get $inRow) (local.get $j))) (local.get $w))))
              (br_if $add (i32.lt_u (local.tee $j (i32.add (local.get $j) (i32.const 16))) (local.get $rowBytes))))))
        (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $nOut))))))

  ;; pixels(in, inRowBytes, rows, out, nOut, idx, wts, taps): in each of `rows` rows, output pixel x
  ;; (16 bytes) = sum over t < taps of wts[x taps + t] * the input pixel at byte offset
  ;; idx[x taps + t] of the row. The output is nOut pixels a row, written contiguously.
  (func (export "pixels") (param $in i32) (param $inRowBytes i32) (param $rows i32) (param $out i32) (param $nOut i32)
    (param $idx i32) (param $wts i32) (param $taps i32)
    (local $y i32) (local $x i32) (local $k i32) (local $kEnd i32) (local $inRow i32) (local $o i32) (local $tapBytes i32)
    (local $acc v128)
    (local.set $tapBytes (i32.mul (local.get $taps) (i32.const 4)))
    (local.set $o (local.get $out))
    (local.set $y (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $y) (local.get $rows))))
      (loop $row
        (local.set $inRow (i32.add (local.get $in) (i32.mul (local.get $y) (local.get $inRowBytes))))
        (local.set $x (i32.const 0))
        (block $rowDone
          (br_if $rowDone (i32.eqz (i32.lt_u (local.get $x) (local.get $nOut))))
          (loop $pixel
            (local.set $acc (v128.const i64x2 0 0))
            ;; k .. kEnd: the pixel's taps, as byte offsets in the tables
            (local.set $kEnd (i32.add (local.tee $k (i32.mul (local.get $x) (local.get $tapBytes))) (local.get $tapBytes)))
            (block $tapsDone
              (br_if $tapsDone (i32.eqz (i32.lt_u (local.get $k) (local.get $kEnd))))
              (loop $tap
                (local.set $acc
                  (f32x4.add
                    (local.get $acc)
                    (f32x4.mul
                      (v128.load align=16 (i32.add (local.get $inRow) (i32.load align=4 (i32.add (local.get $idx) (local.get $k)))))
                      (f32x4.splat (f32.load align=4 (i32.add (local.get $wts) (local.get $k)))))))
                (br_if $tap (i32.lt_u (local.tee $k (i32.add (local.get $k) (i32.const 4))) (local.get $kEnd)))))
            (v128.store align=16 (local.get $o) (local.get $acc))
            (local.set $o (i32.add (local.get $o) (i32.const 16)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $nOut)))))
        (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $rows))))))

  ;; convY(in, rowBytes, out, outRowBytes, lenBytes, nOut, wts, taps): rows' gathers where output
  ;; row y reads input rows y .. y + taps - 1 with the same weights for every row (an interior
  ;; Gaussian pass): output row y (lenBytes, a multiple of 16, at out + y outRowBytes) = sum over
  ;; t < taps of W[t] * input row y + t (at in + (y + t) rowBytes), W at `wts` one f32x4 (the weight
  ;; in every lane) a tap. A row stride that is a multiple of 4096 bytes puts a column's rows in one
  ;; L1 set: the callers pad it. Four output rows at a time, one vector column: at tap t they read input rows
  ;; y + t .. y + t + 3, three of them the previous tap's, so one load feeds four multiply-adds.
  ;; Each value is 0 + W[0] x0 + W[1] x1 + ... in tap order (f32, no fused multiply-add): the bits
  ;; `rows` gives with the same weights. The last rows (fewer than four) one at a time.
  (func (export "convY") (param $in i32) (param $rowBytes i32) (param $out i32) (param $outRowBytes i32) (param $lenBytes i32) (param $nOut i32)
    (param $wts i32) (param $taps i32)
    (local $y i32) (local $n4 i32) (local $j i32) (local $p i32) (local $q i32) (local $t i32) (local $tEnd i32) (local $o i32)
    (local $w v128) (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $n4 (i32.and (local.get $nOut) (i32.const -4)))
    (local.set $tEnd (i32.mul (local.get $taps) (i32.const 16)))
    (local.set $y (i32.const 0))
    (block $quadsDone
      (br_if $quadsDone (i32.eqz (i32.lt_u (local.get $y) (local.get $n4))))
      (br_if $quadsDone (i32.eqz (local.get $taps)))
      (br_if $quadsDone (i32.eqz (local.get $lenBytes)))
      (loop $quad
        (local.set $j (i32.const 0))
        (loop $column
          ;; p: input row y at column j; v0, v1, v2: input rows y, y + 1, y + 2
          (local.set $p (i32.add (i32.add (local.get $in) (i32.mul (local.get $y) (local.get $rowBytes))) (local.get $j)))
          (local.set $v0 (v128.load align=16 (local.get $p)))
          (local.set $v1 (v128.load align=16 (local.tee $q (i32.add (local.get $p) (local.get $rowBytes)))))
          (local.set $v2 (v128.load align=16 (local.tee $q (i32.add (local.get $q) (local.get $rowBytes)))))
          (local.set $q (i32.add (local.get $q) (local.get $rowBytes)))
          (local.set $a0 (v128.const i64x2 0 0))
          (local.set $a1 (v128.const i64x2 0 0))
          (local.set $a2 (v128.const i64x2 0 0))
          (local.set $a3 (v128.const i64x2 0 0))
          (local.set $t (i32.const 0))
          (loop $tap
            ;; v3: input row y + t + 3 (q)
            (local.set $v3 (v128.load align=16 (local.get $q)))
            (local.set $w (v128.load align=16 (i32.add (local.get $wts) (local.get $t))))
            (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $v0) (local.get $w))))
            (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $v1) (local.get $w))))
            (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $v2) (local.get $w))))
            (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $v3) (local.get $w))))
            (local.set $v0 (local.get $v1))
            (local.set $v1 (local.get $v2))
            (local.set $v2 (local.get $v3))
            (local.set $q (i32.add (local.get $q) (local.get $rowBytes)))
            (br_if $tap (i32.lt_u (local.tee $t (i32.add (local.get $t) (i32.const 16))) (local.get $tEnd))))
          (local.set $o (i32.add (i32.add (local.get $out) (i32.mul (local.get $y) (local.get $outRowBytes))) (local.get $j)))
          (v128.store align=16 (local.get $o) (local.get $a0))
          (v128.store align=16 (local.tee $o (i32.add (local.get $o) (local.get $outRowBytes))) (local.get $a1))
          (v128.store align=16 (local.tee $o (i32.add (local.get $o) (local.get $outRowBytes))) (local.get $a2))
          (v128.store align=16 (i32.add (local.get $o) (local.get $outRowBytes)) (local.get $a3))
          (br_if $column (i32.lt_u (local.tee $j (i32.add (local.get $j) (i32.const 16))) (local.get $lenBytes))))
        (br_if $quad (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 4))) (local.get $n4)))))
    ;; the last rows, one at a time
    (block $restDone
      (br_if $restDone (i32.eqz (i32.lt_u (local.get $y) (local.get $nOut))))
      (br_if $restDone (i32.eqz (local.get $lenBytes)))
      (loop $row
        (local.set $j (i32.const 0))
        (loop $column1
          (local.set $a0 (v128.const i64x2 0 0))
          (local.set $q (i32.add (i32.add (local.get $in) (i32.mul (local.get $y) (local.get $rowBytes))) (local.get $j)))
          (local.set $t (i32.const 0))
          (block $tapsDone1
            (br_if $tapsDone1 (i32.eqz (local.get $taps)))
            (loop $tap1
              (local.set $a0 (f32x4.add (local.get $a0)
                (f32x4.mul (v128.load align=16 (local.get $q)) (v128.load align=16 (i32.add (local.get $wts) (local.get $t))))))
              (local.set $q (i32.add (local.get $q) (local.get $rowBytes)))
              (br_if $tap1 (i32.lt_u (local.tee $t (i32.add (local.get $t) (i32.const 16))) (local.get $tEnd)))))
          (v128.store align=16 (i32.add (i32.add (local.get $out) (i32.mul (local.get $y) (local.get $outRowBytes))) (local.get $j)) (local.get $a0))
          (br_if $column1 (i32.lt_u (local.tee $j (i32.add (local.get $j) (i32.const 16))) (local.get $lenBytes))))
        (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $nOut))))))

  ;; convX(in, inRowBytes, rows, out, outRowBytes, nOut, wts, taps): `pixels` gathers where output
  ;; pixel x of a row reads input pixels x .. x + taps - 1 (16 bytes each) with the same weights for
  ;; every pixel: output pixel x = sum over t < taps of W[t] * input pixel x + t, W as in convY;
  ;; nOut pixels a row out, row y at out + y outRowBytes. Four output pixels at a time, sliding as convY's rows
  ;; do (one load a tap), each value the same sum in the same order, so the bits of `pixels`.
  (func (export "convX") (param $in i32) (param $inRowBytes i32) (param $rows i32) (param $out i32) (param $outRowBytes i32) (param $nOut i32)
    (param $wts i32) (param $taps i32)
    (local $y i32) (local $x i32) (local $n4 i32) (local $p i32) (local $q i32) (local $t i32) (local $tEnd i32) (local $o i32)
    (local $w v128) (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $n4 (i32.and (local.get $nOut) (i32.const -4)))
    (local.set $tEnd (i32.mul (local.get $taps) (i32.const 16)))
    (local.set $y (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $y) (local.get $rows))))
      (br_if $done (i32.eqz (local.get $nOut)))
      (loop $row
        (local.set $p (i32.add (local.get $in) (i32.mul (local.get $y) (local.get $inRowBytes))))
        (local.set $o (i32.add (local.get $out) (i32.mul (local.get $y) (local.get $outRowBytes))))
        (local.set $x (i32.const 0))
        (block $quadsDone
          (br_if $quadsDone (i32.eqz (i32.lt_u (local.get $x) (local.get $n4))))
          (br_if $quadsDone (i32.eqz (local.get $taps)))
          (loop $quad
            ;; v0, v1, v2: input pixels x, x + 1, x + 2; q: pixel x + 3
            (local.set $v0 (v128.load align=16 (local.get $p)))
            (local.set $v1 (v128.load offset=16 align=16 (local.get $p)))
            (local.set $v2 (v128.load offset=32 align=16 (local.get $p)))
            (local.set $q (i32.add (local.get $p) (i32.const 48)))
            (local.set $a0 (v128.const i64x2 0 0))
            (local.set $a1 (v128.const i64x2 0 0))
            (local.set $a2 (v128.const i64x2 0 0))
            (local.set $a3 (v128.const i64x2 0 0))
            (local.set $t (i32.const 0))
            (loop $tap
              (local.set $v3 (v128.load align=16 (local.get $q)))
              (local.set $w (v128.load align=16 (i32.add (local.get $wts) (local.get $t))))
              (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $v0) (local.get $w))))
              (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $v1) (local.get $w))))
              (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $v2) (local.get $w))))
              (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $v3) (local.get $w))))
              (local.set $v0 (local.get $v1))
              (local.set $v1 (local.get $v2))
              (local.set $v2 (local.get $v3))
              (local.set $q (i32.add (local.get $q) (i32.const 16)))
              (br_if $tap (i32.lt_u (local.tee $t (i32.add (local.get $t) (i32.const 16))) (local.get $tEnd))))
            (v128.store align=16 (local.get $o) (local.get $a0))
            (v128.store offset=16 align=16 (local.get $o) (local.get $a1))
            (v128.store offset=32 align=16 (local.get $o) (local.get $a2))
            (v128.store offset=48 align=16 (local.get $o) (local.get $a3))
            (local.set $o (i32.add (local.get $o) (i32.const 64)))
            (local.set $p (i32.add (local.get $p) (i32.const 64)))
            (br_if $quad (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 4))) (local.get $n4)))))
        ;; the row's last pixels, one at a time
        (block $restDone
          (br_if $restDone (i32.eqz (i32.lt_u (local.get $x) (local.get $nOut))))
          (loop $pixel
            (local.set $a0 (v128.const i64x2 0 0))
            (local.set $q (local.get $p))
            (local.set $t (i32.const 0))
            (block $tapsDone1
              (br_if $tapsDone1 (i32.eqz (local.get $taps)))
              (loop $tap1
                (local.set $a0 (f32x4.add (local.get $a0)
                  (f32x4.mul (v128.load align=16 (local.get $q)) (v128.load align=16 (i32.add (local.get $wts) (local.get $t))))))
                (local.set $q (i32.add (local.get $q) (i32.const 16)))
                (br_if $tap1 (i32.lt_u (local.tee $t (i32.add (local.get $t) (i32.const 16))) (local.get $tEnd)))))
            (v128.store align=16 (local.get $o) (local.get $a0))
            (local.set $o (i32.add (local.get $o) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $nOut)))))
        (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $rows))))))

  ;; transpose(src, srcRowBytes, rows, cols, dst, dstRowBytes): dst (cols x rows f32) = src
  ;; (rows x cols) transposed, in 4 x 4 blocks (four loads, eight shuffles, four stores). rows and
  ;; cols are rounded up to multiples of 4: the caller gives both planes that many rows and columns
  ;; (padding lanes carry values no valid lane reads).
  (func (export "transpose") (param $src i32) (param $srcRowBytes i32) (param $rows i32) (param $cols i32)
    (param $dst i32) (param $dstRowBytes i32)
    (local $y i32) (local $x i32) (local $p i32) (local $q i32)
    (local $a v128) (local $b v128) (local $c v128) (local $d v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local.set $y (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $y) (local.get $rows))))
      (loop $blockRow
        (local.set $x (i32.const 0))
        (block $rowDone
          (br_if $rowDone (i32.eqz (i32.lt_u (local.get $x) (local.get $cols))))
          (loop $block
            ;; a, b, c, d: four rows of four values at (x, y)
            (local.set $p
              (i32.add
                (i32.add (local.get $src) (i32.mul (local.get $y) (local.get $srcRowBytes)))
                (i32.mul (local.get $x) (i32.const 4))))
            (local.set $a (v128.load align=16 (local.get $p)))
            (local.set $b (v128.load align=16 (local.tee $p (i32.add (local.get $p) (local.get $srcRowBytes)))))
            (local.set $c (v128.load align=16 (local.tee $p (i32.add (local.get $p) (local.get $srcRowBytes)))))
            (local.set $d (v128.load align=16 (i32.add (local.get $p) (local.get $srcRowBytes))))
            ;; the shuffles pick f32 lanes: bytes 0-15 of the first vector, 16-31 of the second
            (local.set $t0 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $a) (local.get $b))) ;; a0 b0 a1 b1
            (local.set $t1 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $a) (local.get $b))) ;; a2 b2 a3 b3
            (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $c) (local.get $d))) ;; c0 d0 c1 d1
            (local.set $t3 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $c) (local.get $d))) ;; c2 d2 c3 d3
            ;; four rows of four values at (y, x) in dst
            (local.set $q
              (i32.add
                (i32.add (local.get $dst) (i32.mul (local.get $x) (local.get $dstRowBytes)))
                (i32.mul (local.get $y) (i32.const 4))))
            (v128.store align=16 (local.get $q)
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t0) (local.get $t2))) ;; a0 b0 c0 d0
            (v128.store align=16 (local.tee $q (i32.add (local.get $q) (local.get $dstRowBytes)))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t0) (local.get $t2))) ;; a1 b1 c1 d1
            (v128.store align=16 (local.tee $q (i32.add (local.get $q) (local.get $dstRowBytes)))
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t1) (local.get $t3))) ;; a2 b2 c2 d2
            (v128.store align=16 (i32.add (local.get $q) (local.get $dstRowBytes))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t1) (local.get $t3))) ;; a3 b3 c3 d3
            (br_if $block (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 4))) (local.get $cols)))))
        (br_if $blockRow (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 4))) (local.get $rows))))))

  ;; tint(plane, planeBytes, out, r, g, b): out pixel i (RGBA) = (r A, g A, b A, A) for A = plane[i]:
  ;; a one-colour blur's result. planeBytes a multiple of 16 (four values a vector, four pixels out).
  (func (export "tint") (param $plane i32) (param $planeBytes i32) (param $out i32) (param $r f32) (param $g f32) (param $b f32)
    (local $p i32) (local $o i32)
    (local $c v128) (local $v v128)
    (local.set $c
      (f32x4.replace_lane 2
        (f32x4.replace_lane 1
          (f32x4.replace_lane 0 (f32x4.splat (f32.const 1)) (local.get $r))
          (local.get $g))
        (local.get $b)))
    (local.set $o (local.get $out))
    (local.set $p (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $p) (local.get $planeBytes))))
      (loop $four
        (local.set $v (v128.load align=16 (i32.add (local.get $plane) (local.get $p))))
        ;; pixel j = value j in every lane, times c
        (v128.store align=16 (i32.add (local.get $o) (i32.const 0))
          (f32x4.mul (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $v) (local.get $v)) (local.get $c)))
        (v128.store align=16 (i32.add (local.get $o) (i32.const 16))
          (f32x4.mul (i8x16.shuffle 4 5 6 7 4 5 6 7 4 5 6 7 4 5 6 7 (local.get $v) (local.get $v)) (local.get $c)))
        (v128.store align=16 (i32.add (local.get $o) (i32.const 32))
          (f32x4.mul (i8x16.shuffle 8 9 10 11 8 9 10 11 8 9 10 11 8 9 10 11 (local.get $v) (local.get $v)) (local.get $c)))
        (v128.store align=16 (i32.add (local.get $o) (i32.const 48))
          (f32x4.mul (i8x16.shuffle 12 13 14 15 12 13 14 15 12 13 14 15 12 13 14 15 (local.get $v) (local.get $v)) (local.get $c)))
        (local.set $o (i32.add (local.get $o) (i32.const 64)))
        (br_if $four (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 16))) (local.get $planeBytes))))))

  ;; mono(src, srcRowBytes, rows, cols, alpha, stats, r, g, b, rel): the one-colour test of monoPlane
  ;; (cpu.ts) over rows x cols RGBA pixels: each pixel's alpha A into the plane `alpha` (cols a row),
  ;; and at `stats` three vectors: a lane mask set where some |rgb - c A| > rel A (c = (r, g, b)),
  ;; the minimum and the maximum of A (the same in every lane).
  (func (export "mono") (param $src i32) (param $srcRowBytes i32) (param $rows i32) (param $cols i32)
    (param $alpha i32) (param $stats i32) (param $r f32) (param $g f32) (param $b f32) (param $rel f32)
    (local $y i32) (local $x i32) (local $p i32) (local $o i32)
    (local $c v128) (local $relv v128) (local $bad v128) (local $lo v128) (local $hi v128) (local $v v128) (local $a v128)
    (local $v1 v128) (local $v2 v128) (local $v3 v128) (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local $tol v128) (local $rv v128) (local $gv v128) (local $bv v128)
    (local.set $rv (f32x4.splat (local.get $r)))
    (local.set $gv (f32x4.splat (local.get $g)))
    (local.set $bv (f32x4.splat (local.get $b)))
    (local.set $c
      (f32x4.replace_lane 2
        (f32x4.replace_lane 1
          (f32x4.replace_lane 0 (f32x4.splat (f32.const 1)) (local.get $r))
          (local.get $g))
        (local.get $b)))
    (local.set $relv (f32x4.splat (local.get $rel)))
    (local.set $lo (f32x4.splat (f32.const inf)))
    (local.set $hi (f32x4.splat (f32.const -inf)))
    (local.set $o (local.get $alpha))
    (local.set $y (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $y) (local.get $rows))))
      (loop $row
        (local.set $p (i32.add (local.get $src) (i32.mul (local.get $y) (local.get $srcRowBytes))))
        (local.set $x (i32.const 0))
        ;; four pixels a step, transposed into planes R, G, B, A: the same f32 tests per pixel and
        ;; channel as one pixel a step (whose lane 3 never fails: c is 1 there), A stored whole;
        ;; lo and hi per lane, taken across the lanes at the end
        (block $quadsDone
          (loop $quad
            (br_if $quadsDone (i32.gt_u (i32.add (local.get $x) (i32.const 4)) (local.get $cols)))
            (local.set $v (v128.load align=16 (local.get $p)))
            (local.set $v1 (v128.load offset=16 align=16 (local.get $p)))
            (local.set $v2 (v128.load offset=32 align=16 (local.get $p)))
            (local.set $v3 (v128.load offset=48 align=16 (local.get $p)))
            (local.set $t0 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $v) (local.get $v1))) ;; r0 r1 g0 g1
            (local.set $t1 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $v) (local.get $v1))) ;; b0 b1 a0 a1
            (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $v2) (local.get $v3))) ;; r2 r3 g2 g3
            (local.set $t3 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $v2) (local.get $v3))) ;; b2 b3 a2 a3
            (local.set $a (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t1) (local.get $t3)))
            (local.set $tol (f32x4.mul (local.get $relv) (local.get $a)))
            (local.set $bad
              (v128.or
                (local.get $bad)
                (v128.or
                  (f32x4.gt
                    (f32x4.abs (f32x4.sub
                      (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t0) (local.get $t2))
                      (f32x4.mul (local.get $rv) (local.get $a))))
                    (local.get $tol))
                  (v128.or
                    (f32x4.gt
                      (f32x4.abs (f32x4.sub
                        (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t0) (local.get $t2))
                        (f32x4.mul (local.get $gv) (local.get $a))))
                      (local.get $tol))
                    (f32x4.gt
                      (f32x4.abs (f32x4.sub
                        (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t1) (local.get $t3))
                        (f32x4.mul (local.get $bv) (local.get $a))))
                      (local.get $tol))))))
            (local.set $lo (f32x4.pmin (local.get $lo) (local.get $a)))
            (local.set $hi (f32x4.pmax (local.get $hi) (local.get $a)))
            (v128.store align=4 (local.get $o) (local.get $a))
            (local.set $o (i32.add (local.get $o) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 64)))
            (local.set $x (i32.add (local.get $x) (i32.const 4)))
            (br $quad)))
        (block $rowDone
          (br_if $rowDone (i32.eqz (i32.lt_u (local.get $x) (local.get $cols))))
          (loop $pixel
            ;; v: the pixel; a: its alpha in every lane
            (local.set $a
              (i8x16.shuffle 12 13 14 15 12 13 14 15 12 13 14 15 12 13 14 15
                (local.tee $v (v128.load align=16 (local.get $p)))
                (local.get $v)))
            ;; bad |= |v - c a| > rel a (lane 3: c is 1, the difference 0)
            (local.set $bad
              (v128.or
                (local.get $bad)
                (f32x4.gt
                  (f32x4.abs (f32x4.sub (local.get $v) (f32x4.mul (local.get $c) (local.get $a))))
                  (f32x4.mul (local.get $relv) (local.get $a)))))
            (local.set $lo (f32x4.pmin (local.get $lo) (local.get $a)))
            (local.set $hi (f32x4.pmax (local.get $hi) (local.get $a)))
            (f32.store align=4 (local.get $o) (f32x4.extract_lane 3 (local.get $v)))
            (local.set $o (i32.add (local.get $o) (i32.const 4)))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $cols)))))
        (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $rows)))))
    ;; the least and greatest A across the lanes, in every lane
    (local.set $lo (f32x4.pmin (local.get $lo) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $lo) (local.get $lo))))
    (local.set $lo (f32x4.pmin (local.get $lo) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $lo) (local.get $lo))))
    (local.set $hi (f32x4.pmax (local.get $hi) (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $hi) (local.get $hi))))
    (local.set $hi (f32x4.pmax (local.get $hi) (i8x16.shuffle 4 5 6 7 0 1 2 3 12 13 14 15 8 9 10 11 (local.get $hi) (local.get $hi))))
    (v128.store align=16 (local.get $stats) (local.get $bad))
    (v128.store align=16 (i32.add (local.get $stats) (i32.const 16)) (local.get $lo))
    (v128.store align=16 (i32.add (local.get $stats) (i32.const 32)) (local.get $hi))))
