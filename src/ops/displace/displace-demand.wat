;; displace's demand (demand.ts `displaceDemand`, the same marks as its TypeScript loops) in
;; WebAssembly SIMD over the canvas arena: the input pixels that differ from their left or upper
;; neighbour (all 16 bytes of a pixel compared at once), dilated along each row, then down each
;; column, 16 bytes at a time, into the demand mask. Compiled by scripts/gen-wasm.mjs; called from demand.ts.
(module
  ;; the memory: the canvas arena (src/util/wasm-arena.ts); demand.ts runs this only on the arena's
  ;; instance, where the input, the mask and the scratch lie
  (import "env" "mem" (memory 1))
  ;; demand(src, sw, rw, rh, w, h, span, tall, edges, across, mask, mw): `src` the region's top-left
  ;; input pixel (RGBA f32, sw pixels a row; rh + 1 rows of rw + 1 pixels are read, from the one
  ;; above and left of it); edges: rw x rh bytes, across: w x rh bytes (scratch, each with 16 + span
  ;; bytes to spare after it). Sets to 1 mask byte mask + j mw + i of each output pixel (i, j) of
  ;; w x h where some edge lies in region columns [i, i + span) and rows [j, j + tall).
  (func (export "demand")
    (param $src i32) (param $sw i32) (param $rw i32) (param $rh i32) (param $w i32) (param $h i32)
    (param $span i32) (param $tall i32) (param $edges i32) (param $across i32)
    (param $mask i32) (param $mw i32)
    (local $y i32) (local $x i32) (local $p i32) (local $e i32) (local $row i32) (local $n i32) (local $a v128)
    (local $c i32) (local $m i32)
    (local.set $row (i32.shl (local.get $sw) (i32.const 4)))
    ;; the edges: a pixel whose bits differ from its left or upper neighbour's
    (local.set $e (local.get $edges))
    (block $edgesDone
      (loop $edgeRows
        (br_if $edgesDone (i32.ge_u (local.get $y) (local.get $rh)))
        (local.set $p (i32.add (local.get $src) (i32.mul (local.get $y) (local.get $row))))
        (local.set $x (i32.const 0))
        (block $rowDone
          (loop $pixels
            (br_if $rowDone (i32.ge_u (local.get $x) (local.get $rw)))
            (local.set $a (v128.load (local.get $p)))
            (i32.store8 (local.get $e) (v128.any_true (v128.or
              (v128.xor (local.get $a) (v128.load (i32.sub (local.get $p) (i32.const 16))))
              (v128.xor (local.get $a) (v128.load (i32.sub (local.get $p) (local.get $row)))))))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (local.set $e (i32.add (local.get $e) (i32.const 1)))
            (local.set $x (i32.add (local.get $x) (i32.const 1)))
            (br $pixels)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $edgeRows)))
    ;; along each row: across[y w + i] = some edge in columns [i, i + span), 16 columns at a time
    ;; (the last chunk of a row spills into the next row's, which is written after it; `edges` and
    ;; `across` have 16 + span bytes to spare after them)
    (local.set $y (i32.const 0))
    (block $acrossDone
      (loop $acrossRows
        (br_if $acrossDone (i32.ge_u (local.get $y) (local.get $rh)))
        (local.set $e (i32.add (local.get $edges) (i32.mul (local.get $y) (local.get $rw))))
        (local.set $p (i32.add (local.get $across) (i32.mul (local.get $y) (local.get $w))))
        (local.set $x (i32.const 0))
        (block $chunksDone
          (loop $chunks
            (br_if $chunksDone (i32.ge_u (local.get $x) (local.get $w)))
            (local.set $a (v128.const i32x4 0 0 0 0))
            (local.set $n (i32.const 0))
            (block $orDone
              (loop $or
                (br_if $orDone (i32.ge_u (local.get $n) (local.get $span)))
                (local.set $a (v128.or (local.get $a) (v128.load (i32.add (i32.add (local.get $e) (local.get $x)) (local.get $n)))))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))
                (br $or)))
            (v128.store (i32.add (local.get $p) (local.get $x)) (local.get $a))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $chunks)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $acrossRows)))
    ;; down each column: mask (j, i) |= some across mark in rows [j, j + tall), 16 columns at a time,
    ;; the row's last w mod 16 one by one (the mask's rows lie side by side)
    (local.set $y (i32.const 0))
    (block $downDone
      (loop $down
        (br_if $downDone (i32.ge_u (local.get $y) (local.get $h)))
        (local.set $e (i32.add (local.get $across) (i32.mul (local.get $y) (local.get $w))))
        (local.set $m (i32.add (local.get $mask) (i32.mul (local.get $y) (local.get $mw))))
        (local.set $x (i32.const 0))
        (block $colsDone
          (loop $cols
            (br_if $colsDone (i32.ge_u (local.get $x) (local.get $w)))
            (local.set $a (v128.const i32x4 0 0 0 0))
            (local.set $n (i32.const 0))
            (local.set $p (i32.add (local.get $e) (local.get $x)))
            (block $orDone
              (loop $or
                (br_if $orDone (i32.ge_u (local.get $n) (local.get $tall)))
                (local.set $a (v128.or (local.get $a) (v128.load (local.get $p))))
                (local.set $p (i32.add (local.get $p) (local.get $w)))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))
                (br $or)))
            (if (i32.le_u (i32.add (local.get $x) (i32.const 16)) (local.get $w))
              (then (v128.store (i32.add (local.get $m) (local.get $x)) (v128.or (v128.load (i32.add (local.get $m) (local.get $x))) (local.get $a))))
              (else
                (local.set $c (i32.const 0))
                (block $tailDone
                  (loop $tail
                    (br_if $tailDone (i32.ge_u (i32.add (local.get $x) (local.get $c)) (local.get $w)))
                    (if (i8x16.extract_lane_u 0 (local.get $a))
                      (then (i32.store8 (i32.add (i32.add (local.get $m) (local.get $x)) (local.get $c)) (i32.const 1))))
                    (local.set $a (i8x16.shuffle 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 0 (local.get $a) (local.get $a)))
                    (local.set $c (i32.add (local.get $c) (i32.const 1)))
                    (br $tail)))))
            (local.set $x (i32.add (local.get $x) (i32.const 16)))
            (br $cols)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $down)))
  )
)
