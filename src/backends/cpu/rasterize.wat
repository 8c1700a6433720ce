;; The exact-area rasterizer's edge accumulation (rasterize.ts `Rasterizer.addRingTs`, its
;; reference, with area coverage) in WebAssembly: the same f64 operations in the same order, so the
;; cells hold the same bits. One instance per Rasterizer, on a memory of its own laid out by
;; accumulate.ts: the cells (f64), each row's first and last touched cell (i32), the touched-block
;; flags (u8), and the ring coordinates (f64) and ring starts (i32) copied in for each call. The
;; sweep stays in TypeScript, on views of the same memory. The cell updates are written out at each
;; use rather than called: V8 (Node 20) does not inline WebAssembly calls, and a call per cell cost
;; more than the accumulation saved; so are acrossCells (and its touch) in addRings' row loop and
;; paintRun in composite's runs, where a call spilled the loop's live f64 locals each time (4-7% of
;; this module's time on the examples' tiles). Compiled by scripts/gen-wasm.mjs.
(module
  (import "env" "mem" (memory 1))
  ;; The canvas and the arrays' byte offsets (init).
  (global $W (mut i32) (i32.const 0))
  (global $H (mut i32) (i32.const 0))
  (global $nb (mut i32) (i32.const 0))
  (global $acc (mut i32) (i32.const 0))
  (global $rmin (mut i32) (i32.const 0))
  (global $rmax (mut i32) (i32.const 0))
  (global $blk (mut i32) (i32.const 0))
  ;; The cell box of the call (Rasterizer.confine): row stride and origin.
  (global $sw (mut i32) (i32.const 0))
  (global $ox (mut i32) (i32.const 0))
  (global $oy (mut i32) (i32.const 0))
  ;; The rows touched (Rasterizer.yMin / yMax): set by JavaScript before a call, read after it.
  (global $yLo (export "yLo") (mut i32) (i32.const 0))
  (global $yHi (export "yHi") (mut i32) (i32.const 0))

  (func (export "init") (param $W i32) (param $H i32) (param $nb i32) (param $acc i32) (param $rmin i32) (param $rmax i32) (param $blk i32)
    (global.set $W (local.get $W))
    (global.set $H (local.get $H))
    (global.set $nb (local.get $nb))
    (global.set $acc (local.get $acc))
    (global.set $rmin (local.get $rmin))
    (global.set $rmax (local.get $rmax))
    (global.set $blk (local.get $blk)))

  ;; Rasterizer.touch: the row's span widened to c0..c1 and the blocks of those cells flagged.
  (func $touch (param $row i32) (param $c0 i32) (param $c1 i32)
    (local $ta i32) (local $b i32) (local $e i32)
    (local.set $ta (i32.add (global.get $rmin) (i32.shl (local.get $row) (i32.const 2))))
        (if (i32.lt_s (local.get $c0) (i32.load (local.get $ta))) (then (i32.store (local.get $ta) (local.get $c0))))
        (local.set $ta (i32.add (global.get $rmax) (i32.shl (local.get $row) (i32.const 2))))
        (if (i32.gt_s (local.get $c1) (i32.load (local.get $ta))) (then (i32.store (local.get $ta) (local.get $c1))))
    (local.set $b (i32.shr_s (local.get $c0) (i32.const 4)))
    (local.set $e (i32.shr_s (local.get $c1) (i32.const 4)))
    (block $done
      (loop $next
        (br_if $done (i32.gt_s (local.get $b) (local.get $e)))
        (i32.store8 (i32.add (global.get $blk) (i32.add (i32.mul (local.get $row) (global.get $nb)) (local.get $b))) (i32.const 1))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $next))))

  ;; Rasterizer.acrossCells: a piece within row `row` from x = lo to hi (0 <= lo < hi <= W) across cells.
  (func $acrossCells (param $row i32) (param $lo f64) (param $hi f64) (param $h f64)
    (local $ta i32) (local $base i32) (local $c0 i32) (local $c1 i32) (local $c i32) (local $p i32)
    (local $k f64) (local $w f64) (local $hc f64) (local $half f64)
    (local.set $base (i32.sub (i32.mul (i32.sub (local.get $row) (global.get $oy)) (global.get $sw)) (global.get $ox)))
    (local.set $c0 (i32.trunc_sat_f64_s (local.get $lo)))
    (local.set $c1 (i32.trunc_sat_f64_s (local.get $hi)))
    (if (f64.eq (f64.convert_i32_s (local.get $c1)) (local.get $hi)) (then (local.set $c1 (i32.sub (local.get $c1) (i32.const 1)))))
    (local.set $k (f64.div (local.get $h) (f64.sub (local.get $hi) (local.get $lo))))
    ;; first cell: x in [lo, c0 + 1]
    (local.set $w (f64.sub (f64.convert_i32_s (i32.add (local.get $c0) (i32.const 1))) (local.get $lo)))
    (local.set $hc (f64.mul (local.get $k) (local.get $w)))
    (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $base) (local.get $c0)) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (f64.mul (local.get $hc) (local.get $w)) (f64.const 0.5))))
    (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $base) (i32.add (local.get $c0) (i32.const 1))) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $hc) (f64.sub (f64.const 1) (f64.mul (local.get $w) (f64.const 0.5))))))
    ;; whole cells between: each adds k, half in its cell and half carried
    (local.set $half (f64.mul (local.get $k) (f64.const 0.5)))
    (local.set $c (i32.add (local.get $c0) (i32.const 1)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_s (local.get $c) (local.get $c1)))
        (local.set $p (i32.add (local.get $base) (local.get $c)))
        (local.set $ta (i32.add (global.get $acc) (i32.shl (local.get $p) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (local.get $half)))
        (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $p) (i32.const 1)) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (local.get $half)))
        (local.set $c (i32.add (local.get $c) (i32.const 1)))
        (br $next)))
    ;; last cell: x in [c1, hi]
    (local.set $w (f64.sub (local.get $hi) (f64.convert_i32_s (local.get $c1))))
    (local.set $hc (f64.mul (local.get $k) (local.get $w)))
    (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $base) (local.get $c1)) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $hc) (f64.sub (f64.const 1) (f64.mul (local.get $w) (f64.const 0.5))))))
    (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $base) (i32.add (local.get $c1) (i32.const 1))) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (f64.mul (local.get $hc) (local.get $w)) (f64.const 0.5))))
    (call $touch (local.get $row) (local.get $c0) (i32.add (local.get $c1) (i32.const 1))))

  ;; Rasterizer.cells: the general case of a row piece from x = xa to xb (clipped to the canvas in x).
  (func $cells (param $row i32) (param $xa f64) (param $xb f64) (param $h f64)
    (local $ta i32) (local $tp i32) (local $tf f64)
    (local $lo f64) (local $hi f64) (local $k f64) (local $base i32) (local $c0 i32) (local $Wf f64)
    (local.set $Wf (f64.convert_i32_s (global.get $W)))
    (local.set $base (i32.sub (i32.mul (i32.sub (local.get $row) (global.get $oy)) (global.get $sw)) (global.get $ox)))
    (local.set $lo (select (local.get $xa) (local.get $xb) (f64.lt (local.get $xa) (local.get $xb))))
    (local.set $hi (select (local.get $xb) (local.get $xa) (f64.lt (local.get $xa) (local.get $xb))))
    ;; right of the canvas: changes no pixel inside it
    (if (f64.ge (local.get $lo) (local.get $Wf)) (then (return)))
    (if (f64.le (local.get $hi) (f64.const 0))
      (then
        ;; left of the canvas: covers every pixel of the row to its right
        (local.set $ta (i32.add (global.get $acc) (i32.shl (local.get $base) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (local.get $h)))
        (call $touch (local.get $row) (i32.const 0) (i32.const 0))
        (return)))
    (if (i32.or (f64.lt (local.get $lo) (f64.const 0)) (f64.gt (local.get $hi) (local.get $Wf)))
      (then
        ;; clip the piece in x; heights are proportional to x along a straight piece
        (local.set $k (f64.div (local.get $h) (f64.sub (local.get $hi) (local.get $lo))))
        (if (f64.lt (local.get $lo) (f64.const 0))
          (then
            (local.set $ta (i32.add (global.get $acc) (i32.shl (local.get $base) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $k) (f64.neg (local.get $lo)))))
            (call $touch (local.get $row) (i32.const 0) (i32.const 0))
            (local.set $h (f64.sub (local.get $h) (f64.mul (local.get $k) (f64.neg (local.get $lo)))))
            (local.set $lo (f64.const 0))))
        (if (f64.gt (local.get $hi) (local.get $Wf))
          (then
            (local.set $h (f64.sub (local.get $h) (f64.mul (local.get $k) (f64.sub (local.get $hi) (local.get $Wf)))))
            (local.set $hi (local.get $Wf))))))
    (local.set $c0 (i32.trunc_sat_f64_s (local.get $lo)))
    (if (f64.le (local.get $hi) (f64.convert_i32_s (i32.add (local.get $c0) (i32.const 1))))
      (then
        (local.set $tf (f64.sub (f64.mul (f64.add (local.get $lo) (local.get $hi)) (f64.const 0.5)) (f64.convert_i32_s (local.get $c0))))
        (local.set $tp (i32.add (i32.sub (i32.mul (i32.sub (local.get $row) (global.get $oy)) (global.get $sw)) (global.get $ox)) (local.get $c0)))
        (local.set $ta (i32.add (global.get $acc) (i32.shl (local.get $tp) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $h) (f64.sub (f64.const 1) (local.get $tf)))))
        (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $tp) (i32.const 1)) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $h) (local.get $tf))))
        (call $touch (local.get $row) (local.get $c0) (i32.add (local.get $c0) (i32.const 1)))
        (return)))
    (call $acrossCells (local.get $row) (local.get $lo) (local.get $hi) (local.get $h)))

  ;; Rasterizer.addRingTs over the rings [starts[k], starts[k + 1]) (float indices into the
  ;; coordinates at byte offset `coords`), k < count: each closed (the closing edge implied),
  ;; shifted by (dx, dy), its winding scaled by `sign`; sw, ox, oy: the cell box (Rasterizer.confine).
  (func (export "addRings") (param $coords i32) (param $starts i32) (param $count i32)
    (param $dx f64) (param $dy f64) (param $sign f64) (param $sw i32) (param $ox i32) (param $oy i32)
    (local $ta i32) (local $tp i32) (local $tf f64)
    (local $k i32) (local $from i32) (local $to i32) (local $q i32) (local $end i32)
    (local $px f64) (local $py f64) (local $x0 f64) (local $y0 f64) (local $x1 f64) (local $y1 f64)
    (local $sum f64) (local $d f64) (local $t f64) (local $Hf f64) (local $Wf f64)
    (local $oneRow i32) (local $lo f64) (local $hi f64) (local $c0 i32) (local $row i32)
    (local $h f64) (local $dxdy f64) (local $ya f64) (local $xa f64) (local $yEnd f64) (local $rLast i32)
    (local $yb f64) (local $xb f64) (local $yLo i32) (local $yHi i32)
    (local $abase i32) (local $ac1 i32) (local $ac i32) (local $ap i32) (local $ak f64) (local $aw f64) (local $ahc f64) (local $ahalf f64) (local $atb i32) (local $ate i32)
    (global.set $sw (local.get $sw))
    (global.set $ox (local.get $ox))
    (global.set $oy (local.get $oy))
    (local.set $Hf (f64.convert_i32_s (global.get $H)))
    (local.set $Wf (f64.convert_i32_s (global.get $W)))
    (local.set $yLo (global.get $yLo))
    (local.set $yHi (global.get $yHi))
    (local.set $k (i32.const 0))
    (block $rings
      (loop $ring
        (br_if $rings (i32.ge_s (local.get $k) (local.get $count)))
        (local.set $from (i32.load (i32.add (local.get $starts) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $to (i32.load (i32.add (local.get $starts) (i32.shl (i32.add (local.get $k) (i32.const 1)) (i32.const 2)))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        ;; fewer than two points: nothing
        (br_if $ring (i32.lt_s (i32.shr_s (i32.sub (local.get $to) (local.get $from)) (i32.const 1)) (i32.const 2)))
        (local.set $q (i32.add (local.get $coords) (i32.shl (local.get $from) (i32.const 3))))
        (local.set $end (i32.add (local.get $coords) (i32.shl (local.get $to) (i32.const 3))))
        (local.set $px (f64.add (f64.load (i32.sub (local.get $end) (i32.const 16))) (local.get $dx)))
        (local.set $py (f64.add (f64.load (i32.sub (local.get $end) (i32.const 8))) (local.get $dy)))
        (block $edges
          (loop $edge
            (br_if $edges (i32.ge_u (local.get $q) (local.get $end)))
            (local.set $x0 (local.get $px))
            (local.set $y0 (local.get $py))
            (local.set $x1 (f64.add (f64.load (local.get $q)) (local.get $dx)))
            (local.set $y1 (f64.add (f64.load offset=8 (local.get $q)) (local.get $dy)))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (local.set $px (local.get $x1))
            (local.set $py (local.get $y1))
            (local.set $sum (f64.add (f64.add (f64.add (local.get $x0) (local.get $y0)) (local.get $x1)) (local.get $y1)))
            ;; horizontal, or NaN / infinite
            (br_if $edge (f64.eq (local.get $y0) (local.get $y1)))
            (br_if $edge (f64.ne (f64.sub (local.get $sum) (local.get $sum)) (f64.const 0)))
            (local.set $d (local.get $sign))
            (if (f64.gt (local.get $y0) (local.get $y1))
              (then
                (local.set $t (local.get $x0)) (local.set $x0 (local.get $x1)) (local.set $x1 (local.get $t))
                (local.set $t (local.get $y0)) (local.set $y0 (local.get $y1)) (local.set $y1 (local.get $t))
                (local.set $d (f64.neg (local.get $d)))))
            (br_if $edge (f64.le (local.get $y1) (f64.const 0)))
            (br_if $edge (f64.ge (local.get $y0) (local.get $Hf)))
            ;; within one row of the canvas (y0 >= 0, so 0 <= y0 < H: truncation is ToInt32)
            (local.set $oneRow (i32.const 0))
            (if (f64.ge (local.get $y0) (f64.const 0))
              (then
                (local.set $oneRow
                  (i32.and
                    (f64.le (local.get $y1) (f64.convert_i32_s (i32.add (i32.trunc_sat_f64_s (local.get $y0)) (i32.const 1))))
                    (f64.le (local.get $y1) (local.get $Hf))))))
            (if (local.get $oneRow)
              (then
                (local.set $lo (select (local.get $x0) (local.get $x1) (f64.lt (local.get $x0) (local.get $x1))))
                (local.set $hi (select (local.get $x1) (local.get $x0) (f64.lt (local.get $x0) (local.get $x1))))
                (if (i32.and (f64.ge (local.get $lo) (f64.const 0)) (f64.lt (local.get $hi) (local.get $Wf)))
                  (then
                    (local.set $c0 (i32.trunc_sat_f64_s (local.get $lo)))
                    (if (f64.le (local.get $hi) (f64.convert_i32_s (i32.add (local.get $c0) (i32.const 1))))
                      (then
                        ;; and within one cell: the most common edge of a thin stroke
                        (local.set $row (i32.trunc_sat_f64_s (local.get $y0)))
                        (if (i32.lt_s (local.get $row) (local.get $yLo)) (then (local.set $yLo (local.get $row))))
                        (if (i32.gt_s (local.get $row) (local.get $yHi)) (then (local.set $yHi (local.get $row))))
                        (local.set $tf (f64.sub (f64.mul (f64.add (local.get $lo) (local.get $hi)) (f64.const 0.5)) (f64.convert_i32_s (local.get $c0))))
        (local.set $tp (i32.add (i32.sub (i32.mul (i32.sub (local.get $row) (global.get $oy)) (global.get $sw)) (global.get $ox)) (local.get $c0)))
        (local.set $ta (i32.add (global.get $acc) (i32.shl (local.get $tp) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (f64.mul (f64.sub (local.get $y1) (local.get $y0)) (local.get $d)) (f64.sub (f64.const 1) (local.get $tf)))))
        (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $tp) (i32.const 1)) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (f64.mul (f64.sub (local.get $y1) (local.get $y0)) (local.get $d)) (local.get $tf))))
                        (local.set $ta (i32.add (global.get $rmin) (i32.shl (local.get $row) (i32.const 2))))
        (if (i32.lt_s (local.get $c0) (i32.load (local.get $ta))) (then (i32.store (local.get $ta) (local.get $c0))))
        (local.set $ta (i32.add (global.get $rmax) (i32.shl (local.get $row) (i32.const 2))))
        (if (i32.gt_s (i32.add (local.get $c0) (i32.const 1)) (i32.load (local.get $ta))) (then (i32.store (local.get $ta) (i32.add (local.get $c0) (i32.const 1)))))
                        (i32.store8 (i32.add (global.get $blk) (i32.add (i32.mul (local.get $row) (global.get $nb)) (i32.shr_s (local.get $c0) (i32.const 4)))) (i32.const 1))
                        (i32.store8 (i32.add (global.get $blk) (i32.add (i32.mul (local.get $row) (global.get $nb)) (i32.shr_s (i32.add (local.get $c0) (i32.const 1)) (i32.const 4)))) (i32.const 1))
                        (br $edge)))))))
            (local.set $dxdy (f64.div (f64.sub (local.get $x1) (local.get $x0)) (f64.sub (local.get $y1) (local.get $y0))))
            (local.set $ya (f64.max (local.get $y0) (f64.const 0)))
            (local.set $xa (select
              (f64.sub (local.get $x0) (f64.mul (local.get $y0) (local.get $dxdy)))
              (local.get $x0)
              (f64.lt (local.get $y0) (f64.const 0))))
            (local.set $yEnd (f64.min (local.get $y1) (local.get $Hf)))
            (local.set $row (i32.trunc_sat_f64_s (local.get $ya)))
            (if (i32.lt_s (local.get $row) (local.get $yLo)) (then (local.set $yLo (local.get $row))))
            (local.set $rLast (select
              (local.get $row)
              (i32.sub (i32.trunc_sat_f64_s (f64.ceil (local.get $yEnd))) (i32.const 1))
              (local.get $oneRow)))
            (if (i32.gt_s (local.get $rLast) (local.get $yHi)) (then (local.set $yHi (local.get $rLast))))
            (block $rows
              (loop $next
                (br_if $rows (i32.eqz (f64.lt (local.get $ya) (local.get $yEnd))))
                (local.set $yb (select
                  (f64.convert_i32_s (i32.add (local.get $row) (i32.const 1)))
                  (local.get $yEnd)
                  (f64.lt (f64.convert_i32_s (i32.add (local.get $row) (i32.const 1))) (local.get $yEnd))))
                ;; x from the edge's own start at every row, so long edges do not drift
                (local.set $xb (select
                  (local.get $x1)
                  (f64.add (local.get $x0) (f64.mul (f64.sub (local.get $yb) (local.get $y0)) (local.get $dxdy)))
                  (f64.eq (local.get $yb) (local.get $y1))))
                (local.set $h (f64.mul (f64.sub (local.get $yb) (local.get $ya)) (local.get $d)))
                (local.set $lo (select (local.get $xa) (local.get $xb) (f64.lt (local.get $xa) (local.get $xb))))
                (local.set $hi (select (local.get $xb) (local.get $xa) (f64.lt (local.get $xa) (local.get $xb))))
                (if (i32.and (f64.ge (local.get $lo) (f64.const 0)) (f64.lt (local.get $hi) (local.get $Wf)))
                  (then
                    (local.set $c0 (i32.trunc_sat_f64_s (local.get $lo)))
                    (if (f64.le (local.get $hi) (f64.convert_i32_s (i32.add (local.get $c0) (i32.const 1))))
                      (then
                        ;; the common piece (a steep edge) inside one cell of the canvas
                        (local.set $tf (f64.sub (f64.mul (f64.add (local.get $lo) (local.get $hi)) (f64.const 0.5)) (f64.convert_i32_s (local.get $c0))))
        (local.set $tp (i32.add (i32.sub (i32.mul (i32.sub (local.get $row) (global.get $oy)) (global.get $sw)) (global.get $ox)) (local.get $c0)))
        (local.set $ta (i32.add (global.get $acc) (i32.shl (local.get $tp) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $h) (f64.sub (f64.const 1) (local.get $tf)))))
        (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $tp) (i32.const 1)) (i32.const 3))))
        (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $h) (local.get $tf))))
                        (local.set $ta (i32.add (global.get $rmin) (i32.shl (local.get $row) (i32.const 2))))
        (if (i32.lt_s (local.get $c0) (i32.load (local.get $ta))) (then (i32.store (local.get $ta) (local.get $c0))))
        (local.set $ta (i32.add (global.get $rmax) (i32.shl (local.get $row) (i32.const 2))))
        (if (i32.gt_s (i32.add (local.get $c0) (i32.const 1)) (i32.load (local.get $ta))) (then (i32.store (local.get $ta) (i32.add (local.get $c0) (i32.const 1)))))
                        (i32.store8 (i32.add (global.get $blk) (i32.add (i32.mul (local.get $row) (global.get $nb)) (i32.shr_s (local.get $c0) (i32.const 4)))) (i32.const 1))
                        (i32.store8 (i32.add (global.get $blk) (i32.add (i32.mul (local.get $row) (global.get $nb)) (i32.shr_s (i32.add (local.get $c0) (i32.const 1)) (i32.const 4)))) (i32.const 1)))
                      (else
                        ;; acrossCells, inlined (a call here spilled the loop's live f64 locals)
                        (local.set $abase (i32.sub (i32.mul (i32.sub (local.get $row) (global.get $oy)) (global.get $sw)) (global.get $ox)))
                        (local.set $c0 (i32.trunc_sat_f64_s (local.get $lo)))
                        (local.set $ac1 (i32.trunc_sat_f64_s (local.get $hi)))
                        (if (f64.eq (f64.convert_i32_s (local.get $ac1)) (local.get $hi)) (then (local.set $ac1 (i32.sub (local.get $ac1) (i32.const 1)))))
                        (local.set $ak (f64.div (local.get $h) (f64.sub (local.get $hi) (local.get $lo))))
                        ;; first cell: x in [lo, c0 + 1]
                        (local.set $aw (f64.sub (f64.convert_i32_s (i32.add (local.get $c0) (i32.const 1))) (local.get $lo)))
                        (local.set $ahc (f64.mul (local.get $ak) (local.get $aw)))
                        (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $abase) (local.get $c0)) (i32.const 3))))
                            (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (f64.mul (local.get $ahc) (local.get $aw)) (f64.const 0.5))))
                        (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $abase) (i32.add (local.get $c0) (i32.const 1))) (i32.const 3))))
                            (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $ahc) (f64.sub (f64.const 1) (f64.mul (local.get $aw) (f64.const 0.5))))))
                        ;; whole cells between: each adds k, half in its cell and half carried
                        (local.set $ahalf (f64.mul (local.get $ak) (f64.const 0.5)))
                        (local.set $ac (i32.add (local.get $c0) (i32.const 1)))
                        (block $adone
                          (loop $anext
                            (br_if $adone (i32.ge_s (local.get $ac) (local.get $ac1)))
                            (local.set $ap (i32.add (local.get $abase) (local.get $ac)))
                            (local.set $ta (i32.add (global.get $acc) (i32.shl (local.get $ap) (i32.const 3))))
                            (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (local.get $ahalf)))
                            (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $ap) (i32.const 1)) (i32.const 3))))
                            (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (local.get $ahalf)))
                            (local.set $ac (i32.add (local.get $ac) (i32.const 1)))
                            (br $anext)))
                        ;; last cell: x in [c1, hi]
                        (local.set $aw (f64.sub (local.get $hi) (f64.convert_i32_s (local.get $ac1))))
                        (local.set $ahc (f64.mul (local.get $ak) (local.get $aw)))
                        (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $abase) (local.get $ac1)) (i32.const 3))))
                            (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (local.get $ahc) (f64.sub (f64.const 1) (f64.mul (local.get $aw) (f64.const 0.5))))))
                        (local.set $ta (i32.add (global.get $acc) (i32.shl (i32.add (local.get $abase) (i32.add (local.get $ac1) (i32.const 1))) (i32.const 3))))
                            (f64.store (local.get $ta) (f64.add (f64.load (local.get $ta)) (f64.mul (f64.mul (local.get $ahc) (local.get $aw)) (f64.const 0.5))))
                        ;; touch, inlined
                        (local.set $ta (i32.add (global.get $rmin) (i32.shl (local.get $row) (i32.const 2))))
                        (if (i32.lt_s (local.get $c0) (i32.load (local.get $ta))) (then (i32.store (local.get $ta) (local.get $c0))))
                        (local.set $ta (i32.add (global.get $rmax) (i32.shl (local.get $row) (i32.const 2))))
                        (if (i32.gt_s (i32.add (local.get $ac1) (i32.const 1)) (i32.load (local.get $ta))) (then (i32.store (local.get $ta) (i32.add (local.get $ac1) (i32.const 1)))))
                        (local.set $atb (i32.shr_s (local.get $c0) (i32.const 4)))
                        (local.set $ate (i32.shr_s (i32.add (local.get $ac1) (i32.const 1)) (i32.const 4)))
                        (block $atdone
                          (loop $atnext
                            (br_if $atdone (i32.gt_s (local.get $atb) (local.get $ate)))
                            (i32.store8 (i32.add (global.get $blk) (i32.add (i32.mul (local.get $row) (global.get $nb)) (local.get $atb))) (i32.const 1))
                            (local.set $atb (i32.add (local.get $atb) (i32.const 1)))
                            (br $atnext))))))
                  (else (call $cells (local.get $row) (local.get $xa) (local.get $xb) (local.get $h))))
                (local.set $ya (local.get $yb))
                (local.set $xa (local.get $xb))
                (local.set $row (i32.add (local.get $row) (i32.const 1)))
                (br $next)))
            (br $edge)))
        (br $ring)))
    (global.set $yLo (local.get $yLo))
    (global.set $yHi (local.get $yHi)))

  ;; paintRun (rasterize.ts): source-over of the paint (r, g, b, a) times coverage c onto n pixels
  ;; from byte offset p; an opaque paint at coverage 1 replaces them (Float32 stores of the f64
  ;; values, as a Float32Array takes them).
  (func $paintRun (param $p i32) (param $n i32) (param $r f64) (param $g f64) (param $b f64) (param $a f64) (param $c f64)
    (local $e i32) (local $k f64) (local $px v128) (local $kv v128) (local $crg v128) (local $cba v128)
    (local.set $e (i32.add (local.get $p) (i32.shl (local.get $n) (i32.const 4))))
    (if (i32.and (f64.ge (local.get $c) (f64.const 1)) (f64.ge (local.get $a) (f64.const 1)))
      (then
        (local.set $px (f32x4.replace_lane 2
          (f32x4.replace_lane 1
            (f32x4.replace_lane 0 (f32x4.splat (f32.const 1)) (f32.demote_f64 (local.get $r)))
            (f32.demote_f64 (local.get $g)))
          (f32.demote_f64 (local.get $b))))
        (block $done
          (loop $next
            (br_if $done (i32.ge_u (local.get $p) (local.get $e)))
            (v128.store (local.get $p) (local.get $px))
            (local.set $p (i32.add (local.get $p) (i32.const 16)))
            (br $next)))
        (return)))
    ;; Two channels an f64x2 (r, g) and (b, a): each lane the scalar's multiply and add, so the same bits.
    (local.set $k (f64.sub (f64.const 1) (f64.mul (local.get $a) (local.get $c))))
    (local.set $kv (f64x2.splat (local.get $k)))
    (local.set $crg (f64x2.replace_lane 1 (f64x2.splat (f64.mul (local.get $r) (local.get $c))) (f64.mul (local.get $g) (local.get $c))))
    (local.set $cba (f64x2.replace_lane 1 (f64x2.splat (f64.mul (local.get $b) (local.get $c))) (f64.mul (local.get $a) (local.get $c))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $e)))
        (local.set $px (v128.load (local.get $p)))
        (v128.store (local.get $p)
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
            (f32x4.demote_f64x2_zero (f64x2.add (local.get $crg) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $px)) (local.get $kv))))
            (f32x4.demote_f64x2_zero (f64x2.add (local.get $cba)
              (f64x2.mul (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $px) (local.get $px))) (local.get $kv))))))
        (local.set $p (i32.add (local.get $p) (i32.const 16)))
        (br $next))))

  ;; Whether the last composite painted a pixel (Compositor.painted).
  (global $painted (export "painted") (mut i32) (i32.const 0))

  ;; Rasterizer.compositeWalk (its reference): the coverage of the rows yMin..yMax, run by run,
  ;; source-over the paint (r, g, b, a) onto the canvas at byte offset `data` (W pixels a row),
  ;; clearing the cells, spans and flags it reads; a row whose touched cells span fewer than 16
  ;; columns is composited cell by cell. Returns the pixels replaced by an opaque paint at coverage 1.
  (func (export "composite") (param $data i32) (param $r f64) (param $g f64) (param $b f64) (param $a f64)
    (param $yMin i32) (param $yMax i32) (param $sw i32) (param $ox i32) (param $oy i32) (result i32)
    (local $ta i32) (local $y i32) (local $c0 i32) (local $c1 i32) (local $base i32) (local $bb i32) (local $last i32)
    (local $rowP i32) (local $x i32) (local $run i32) (local $p i32) (local $q i32) (local $bi i32) (local $end i32)
    (local $s f64) (local $c f64) (local $m f64) (local $n f64) (local $v f64) (local $k f64)
    (local $opaque i32) (local $painted i32) (local $replaced i32) (local $W i32)
    (local $pp i32) (local $pn i32) (local $pe i32) (local $ppx v128) (local $pkv v128) (local $pcrg v128) (local $pcba v128)
    (global.set $sw (local.get $sw))
    (global.set $ox (local.get $ox))
    (global.set $oy (local.get $oy))
    (local.set $W (global.get $W))
    (local.set $opaque (f64.ge (local.get $a) (f64.const 1)))
    (local.set $y (local.get $yMin))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.gt_s (local.get $y) (local.get $yMax)))
        (block $rowEnd
          (local.set $ta (i32.add (global.get $rmin) (i32.shl (local.get $y) (i32.const 2))))
          (local.set $c0 (i32.load (local.get $ta)))
          (local.set $c1 (i32.load (i32.add (global.get $rmax) (i32.shl (local.get $y) (i32.const 2)))))
          (br_if $rowEnd (i32.lt_s (local.get $c1) (local.get $c0)))
          (i32.store (local.get $ta) (i32.const 0x7fffffff))
          (i32.store (i32.add (global.get $rmax) (i32.shl (local.get $y) (i32.const 2))) (i32.const -1))
          (local.set $base (i32.sub (i32.mul (i32.sub (local.get $y) (global.get $oy)) (global.get $sw)) (global.get $ox)))
          (local.set $bb (i32.mul (local.get $y) (global.get $nb)))
          (local.set $last (select (local.get $c1) (i32.sub (local.get $W) (i32.const 1)) (i32.lt_s (local.get $c1) (local.get $W))))
          ;; byte offset of the row's first pixel
          (local.set $rowP (i32.add (local.get $data) (i32.shl (i32.mul (local.get $y) (local.get $W)) (i32.const 4))))
          (local.set $s (f64.const 0))
          (local.set $c (f64.const 0))
          (local.set $run (local.get $c0))
          (local.set $x (local.get $c0))
          (if (i32.lt_s (i32.sub (local.get $last) (local.get $c0)) (i32.const 16))
            (then
              ;; a narrow row: cell by cell
              (local.set $p (i32.add (local.get $rowP) (i32.shl (local.get $x) (i32.const 4))))
              (block $cellsDone
                (loop $cell
                  (br_if $cellsDone (i32.gt_s (local.get $x) (local.get $last)))
                  (block $cellEnd
                    (local.set $q (i32.add (global.get $acc) (i32.shl (i32.add (local.get $base) (local.get $x)) (i32.const 3))))
                    (local.set $s (f64.add (local.get $s) (f64.load (local.get $q))))
                    (f64.store (local.get $q) (f64.const 0))
                    (local.set $m (f64.abs (local.get $s)))
                    (local.set $c (select
                      (select (local.get $m) (f64.const 0) (f64.gt (local.get $m) (f64.const 1e-9)))
                      (f64.const 1)
                      (f64.lt (local.get $m) (f64.const 1))))
                    (br_if $cellEnd (f64.le (local.get $c) (f64.const 0)))
                    (local.set $painted (i32.const 1))
                    (if (i32.and (f64.ge (local.get $c) (f64.const 1)) (local.get $opaque))
                      (then
                        (f32.store (local.get $p) (f32.demote_f64 (local.get $r)))
                        (f32.store offset=4 (local.get $p) (f32.demote_f64 (local.get $g)))
                        (f32.store offset=8 (local.get $p) (f32.demote_f64 (local.get $b)))
                        (f32.store offset=12 (local.get $p) (f32.const 1))
                        (local.set $replaced (i32.add (local.get $replaced) (i32.const 1)))
                        (br $cellEnd)))
                    (local.set $k (f64.sub (f64.const 1) (f64.mul (local.get $a) (local.get $c))))
                    (f32.store (local.get $p) (f32.demote_f64 (f64.add (f64.mul (local.get $r) (local.get $c)) (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (local.get $k)))))
                    (f32.store offset=4 (local.get $p) (f32.demote_f64 (f64.add (f64.mul (local.get $g) (local.get $c)) (f64.mul (f64.promote_f32 (f32.load offset=4 (local.get $p))) (local.get $k)))))
                    (f32.store offset=8 (local.get $p) (f32.demote_f64 (f64.add (f64.mul (local.get $b) (local.get $c)) (f64.mul (f64.promote_f32 (f32.load offset=8 (local.get $p))) (local.get $k)))))
                    (f32.store offset=12 (local.get $p) (f32.demote_f64 (f64.add (f64.mul (local.get $a) (local.get $c)) (f64.mul (f64.promote_f32 (f32.load offset=12 (local.get $p))) (local.get $k))))))
                  (local.set $x (i32.add (local.get $x) (i32.const 1)))
                  (local.set $p (i32.add (local.get $p) (i32.const 16)))
                  (br $cell)))
              ;; fewer than 16 columns: two blocks at most
              (i32.store8 (i32.add (global.get $blk) (i32.add (local.get $bb) (i32.shr_s (local.get $c0) (i32.const 4)))) (i32.const 0))
              (i32.store8 (i32.add (global.get $blk) (i32.add (local.get $bb) (i32.shr_s (local.get $last) (i32.const 4)))) (i32.const 0))
              (local.set $run (local.get $x))))
          ;; the touched blocks: runs of one coverage
          (block $blocksDone
            (loop $block
              (br_if $blocksDone (i32.gt_s (local.get $x) (local.get $last)))
              (local.set $bi (i32.add (global.get $blk) (i32.add (local.get $bb) (i32.shr_s (local.get $x) (i32.const 4)))))
              (local.set $end (select
                (i32.or (local.get $x) (i32.const 15))
                (local.get $last)
                (i32.lt_s (i32.or (local.get $x) (i32.const 15)) (local.get $last))))
              (if (i32.eqz (i32.load8_u (local.get $bi)))
                (then
                  (local.set $x (i32.add (local.get $end) (i32.const 1)))
                  (br $block)))
              (i32.store8 (local.get $bi) (i32.const 0))
              (block $cellsDone
                (loop $cell
                  (br_if $cellsDone (i32.gt_s (local.get $x) (local.get $end)))
                  (block $cellEnd
                    (local.set $q (i32.add (global.get $acc) (i32.shl (i32.add (local.get $base) (local.get $x)) (i32.const 3))))
                    (local.set $v (f64.load (local.get $q)))
                    (br_if $cellEnd (f64.eq (local.get $v) (f64.const 0)))
                    (f64.store (local.get $q) (f64.const 0))
                    (local.set $s (f64.add (local.get $s) (local.get $v)))
                    (local.set $m (f64.abs (local.get $s)))
                    (local.set $n (select
                      (select (local.get $m) (f64.const 0) (f64.gt (local.get $m) (f64.const 1e-9)))
                      (f64.const 1)
                      (f64.lt (local.get $m) (f64.const 1))))
                    (br_if $cellEnd (f64.eq (local.get $n) (local.get $c)))
                    (if (f64.ne (local.get $c) (f64.const 0))
                      (then
                        ;; paintRun, inlined (a call per run, a pixel on antialiased edges, spilled the walk's f64 locals)
                        (local.set $pp (i32.add (local.get $rowP) (i32.shl (local.get $run) (i32.const 4))))
                        (local.set $pn (i32.sub (local.get $x) (local.get $run)))
                        (block $prun
                            (local.set $pe (i32.add (local.get $pp) (i32.shl (local.get $pn) (i32.const 4))))
                            (if (i32.and (f64.ge (local.get $c) (f64.const 1)) (f64.ge (local.get $a) (f64.const 1)))
                              (then
                                (local.set $ppx (f32x4.replace_lane 2
                                  (f32x4.replace_lane 1
                                    (f32x4.replace_lane 0 (f32x4.splat (f32.const 1)) (f32.demote_f64 (local.get $r)))
                                    (f32.demote_f64 (local.get $g)))
                                  (f32.demote_f64 (local.get $b))))
                                (block $prDone
                                  (loop $prNext
                                    (br_if $prDone (i32.ge_u (local.get $pp) (local.get $pe)))
                                    (v128.store (local.get $pp) (local.get $ppx))
                                    (local.set $pp (i32.add (local.get $pp) (i32.const 16)))
                                    (br $prNext)))
                                (br $prun)))
                            ;; Two channels an f64x2 (r, g) and (b, a): each lane the scalar's multiply and add, so the same bits.
                            (local.set $k (f64.sub (f64.const 1) (f64.mul (local.get $a) (local.get $c))))
                            (local.set $pkv (f64x2.splat (local.get $k)))
                            (local.set $pcrg (f64x2.replace_lane 1 (f64x2.splat (f64.mul (local.get $r) (local.get $c))) (f64.mul (local.get $g) (local.get $c))))
                            (local.set $pcba (f64x2.replace_lane 1 (f64x2.splat (f64.mul (local.get $b) (local.get $c))) (f64.mul (local.get $a) (local.get $c))))
                            (block $prDone
                              (loop $prNext
                                (br_if $prDone (i32.ge_u (local.get $pp) (local.get $pe)))
                                (local.set $ppx (v128.load (local.get $pp)))
                                (v128.store (local.get $pp)
                                  (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                                    (f32x4.demote_f64x2_zero (f64x2.add (local.get $pcrg) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $ppx)) (local.get $pkv))))
                                    (f32x4.demote_f64x2_zero (f64x2.add (local.get $pcba)
                                      (f64x2.mul (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $ppx) (local.get $ppx))) (local.get $pkv))))))
                                (local.set $pp (i32.add (local.get $pp) (i32.const 16)))
                                (br $prNext))))
                        (local.set $painted (i32.const 1))
                        (if (i32.and (f64.ge (local.get $c) (f64.const 1)) (local.get $opaque))
                          (then (local.set $replaced (i32.add (local.get $replaced) (i32.sub (local.get $x) (local.get $run))))))))
                    (local.set $c (local.get $n))
                    (local.set $run (local.get $x)))
                  (local.set $x (i32.add (local.get $x) (i32.const 1)))
                  (br $cell)))
              (br $block)))
          ;; the last run: coverage c holds to the canvas edge
          (if (f64.ne (local.get $c) (f64.const 0))
            (then
              (call $paintRun (i32.add (local.get $rowP) (i32.shl (local.get $run) (i32.const 4))) (i32.sub (local.get $W) (local.get $run))
                (local.get $r) (local.get $g) (local.get $b) (local.get $a) (local.get $c))
              (local.set $painted (i32.const 1))
              (if (i32.and (f64.ge (local.get $c) (f64.const 1)) (local.get $opaque))
                (then (local.set $replaced (i32.add (local.get $replaced) (i32.sub (local.get $W) (local.get $run))))))))
          (if (i32.ge_s (local.get $c1) (local.get $W))
            (then
              ;; the spill cells right of the canvas
              (local.set $q (i32.add (global.get $acc) (i32.shl (i32.add (local.get $base) (local.get $W)) (i32.const 3))))
              (f64.store (local.get $q) (f64.const 0))
              (f64.store offset=8 (local.get $q) (f64.const 0))
              (i32.store8 (i32.add (global.get $blk) (i32.add (local.get $bb) (i32.shr_s (local.get $W) (i32.const 4)))) (i32.const 0))
              (i32.store8 (i32.add (global.get $blk) (i32.add (local.get $bb) (i32.shr_s (i32.add (local.get $W) (i32.const 1)) (i32.const 4)))) (i32.const 0)))))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $row)))
    (global.set $painted (local.get $painted))
    (local.get $replaced))
)
