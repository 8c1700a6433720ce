;; The MapLibre line profile's triangle fill (maplibre.ts `drawMeshTs`, its reference)
;; in WebAssembly: the same f64 operations in the same order, so the canvas gets the same bits. The
;; mesh (vertex x, y, normal x, y as f64 arrays, triangles as i32 vertex indices) and the canvas
;; (premultiplied f32 RGBA) lie in the canvas arena (src/util/wasm-arena.ts), where maplibre.ts's
;; Mesh keeps its arrays; arguments are byte offsets into it. Each triangle's pixels whose centre
;; it covers (a shared edge belongs to the triangle where it is a top-left edge) take the shader's
;; alpha from the interpolated normal and are blended source-over in turn. Compiled by
;; scripts/gen-wasm.mjs.
(module
  (import "env" "mem" (memory 1))

  ;; Whether edge A x + B y + C owns its pixels on the edge (top-left rule): A > 0, or A = 0 and B < 0.
  (func $owns (param $A f64) (param $B f64) (result i32)
    (i32.or (f64.gt (local.get $A) (f64.const 0))
      (i32.and (f64.eq (local.get $A) (f64.const 0)) (f64.lt (local.get $B) (f64.const 0)))))

  ;; The texel at index $idx (a whole number or NaN) of the dash pattern's $len bytes at $tex, as
  ;; maplibre.ts reads `data[idx]`: NaN where that is undefined (outside [0, len), NaN).
  (func $texel (param $tex i32) (param $len i32) (param $idx f64) (result f64)
    (if (result f64) (i32.and (f64.ge (local.get $idx) (f64.const 0)) (f64.lt (local.get $idx) (f64.convert_i32_u (local.get $len))))
      (then (f64.convert_i32_u (i32.load8_u (i32.add (local.get $tex) (i32.trunc_f64_u (local.get $idx))))))
      (else (f64.const nan))))

  ;; maplibre.ts dashCoverage and DashPattern.sample: the line_sdf shader's dash alpha at `along`
  ;; (render pixels) and the normal's y $vy, for the pattern of $len bytes at $tex, $n rows either
  ;; side of the middle (0: one row), one pattern $period pixels long, its edge $edge.
  (func $dash (param $tex i32) (param $len i32) (param $n i32) (param $period f64) (param $edge f64)
    (param $along f64) (param $vy f64) (result f64)
    (local $s f64) (local $i0 f64) (local $i1 f64) (local $f f64) (local $nf f64) (local $r f64) (local $r0 f64)
    (local $r1 f64) (local $g f64) (local $a f64) (local $b f64) (local $v f64) (local $tt f64)
    ;; sample(along / period, vy): the pattern repeats every 256 texels (ATLAS_WIDTH)
    (local.set $s (f64.sub (f64.mul (f64.div (local.get $along) (local.get $period)) (f64.const 256)) (f64.const 0.5)))
    (local.set $s (f64.sub (local.get $s) (f64.mul (f64.floor (f64.div (local.get $s) (f64.const 256))) (f64.const 256))))
    (local.set $i0 (f64.floor (local.get $s)))
    (local.set $f (f64.sub (local.get $s) (local.get $i0)))
    (local.set $i1 (select (f64.const 0) (f64.add (local.get $i0) (f64.const 1))
      (f64.eq (f64.add (local.get $i0) (f64.const 1)) (f64.const 256))))
    (if (i32.eqz (local.get $n))
      (then
        (local.set $v (f64.div
          (f64.add
            (f64.mul (call $texel (local.get $tex) (local.get $len) (local.get $i0)) (f64.sub (f64.const 1) (local.get $f)))
            (f64.mul (call $texel (local.get $tex) (local.get $len) (local.get $i1)) (local.get $f)))
          (f64.const 255))))
      (else
        (local.set $nf (f64.convert_i32_s (local.get $n)))
        (local.set $r (f64.min (f64.mul (f64.const 2) (local.get $nf))
          (f64.max (f64.const 0) (f64.sub (local.get $nf) (f64.mul (local.get $vy) (local.get $nf))))))
        (local.set $r0 (f64.floor (local.get $r)))
        (local.set $g (f64.sub (local.get $r) (local.get $r0)))
        (local.set $r1 (f64.min (f64.mul (f64.const 2) (local.get $nf)) (f64.add (local.get $r0) (f64.const 1))))
        (local.set $a (f64.add
          (f64.mul (call $texel (local.get $tex) (local.get $len) (f64.add (f64.mul (local.get $r0) (f64.const 256)) (local.get $i0)))
            (f64.sub (f64.const 1) (local.get $f)))
          (f64.mul (call $texel (local.get $tex) (local.get $len) (f64.add (f64.mul (local.get $r0) (f64.const 256)) (local.get $i1)))
            (local.get $f))))
        (local.set $b (f64.add
          (f64.mul (call $texel (local.get $tex) (local.get $len) (f64.add (f64.mul (local.get $r1) (f64.const 256)) (local.get $i0)))
            (f64.sub (f64.const 1) (local.get $f)))
          (f64.mul (call $texel (local.get $tex) (local.get $len) (f64.add (f64.mul (local.get $r1) (f64.const 256)) (local.get $i1)))
            (local.get $f))))
        (local.set $v (f64.div
          (f64.add (f64.mul (local.get $a) (f64.sub (f64.const 1) (local.get $g))) (f64.mul (local.get $b) (local.get $g)))
          (f64.const 255)))))
    ;; smoothstep of the signed distance across the dash's edge
    (local.set $tt (f64.min (f64.const 1) (f64.max (f64.const 0)
      (f64.div (f64.sub (local.get $v) (f64.sub (f64.const 0.5) (local.get $edge))) (f64.mul (f64.const 2) (local.get $edge))))))
    (f64.mul (f64.mul (local.get $tt) (local.get $tt)) (f64.sub (f64.const 3) (f64.mul (f64.const 2) (local.get $tt)))))

  ;; Blends triangles [0, nt) (nt a multiple of 3) of the mesh into the W-wide canvas at $data,
  ;; translated by (-dx, -dy), pixel centres kept within columns [cx0, cx1) and rows [cy0, cy1)
  ;; (f64, as maplibre.ts computes them). Returns 1 where a pixel was written. Dashed: $ld the
  ;; vertices' distances along the line (f64), $tex the dash pattern's $texLen bytes ($tn rows either
  ;; side of the middle; one pattern $period pixels, its edge $edge); $tex -1 where not dashed (the
  ;; canvas arena is at most 1 GiB: an offset into it is never negative).
  (func (export "draw")
    (param $px i32) (param $py i32) (param $nx i32) (param $ny i32) (param $tri i32) (param $nt i32)
    (param $data i32) (param $W i32)
    (param $outset f64) (param $inset f64) (param $blur2 f64)
    (param $pr f64) (param $pg f64) (param $pb f64) (param $pa f64)
    (param $dx f64) (param $dy f64) (param $cx0 f64) (param $cy0 f64) (param $cx1 f64) (param $cy1 f64)
    (param $ld i32) (param $tex i32) (param $texLen i32) (param $tn i32) (param $period f64) (param $edge f64)
    (result i32)
    (local $wrote i32) (local $unblurred i32) (local $t i32) (local $a i32) (local $b i32) (local $c i32) (local $s i32)
    (local $ax f64) (local $ay f64) (local $bx f64) (local $by f64) (local $qx f64) (local $qy f64)
    (local $area f64) (local $tmp f64)
    (local $ymin f64) (local $ymax f64) (local $xlo f64) (local $xhi f64)
    (local $A0 f64) (local $B0 f64) (local $C0 f64) (local $A1 f64) (local $B1 f64) (local $C1 f64)
    (local $A2 f64) (local $B2 f64) (local $C2 f64)
    (local $in0 i32) (local $in1 i32) (local $in2 i32)
    (local $nax f64) (local $nay f64) (local $nbx f64) (local $nby f64) (local $ncx f64) (local $ncy f64)
    (local $inv f64) (local $y f64) (local $yc f64) (local $d0 f64) (local $d1 f64) (local $d2 f64)
    (local $lo f64) (local $hi f64) (local $v f64) (local $xc f64)
    (local $wa f64) (local $wb f64) (local $wc f64) (local $vx f64) (local $vy f64) (local $dist f64)
    (local $alpha f64) (local $sa f64) (local $k f64) (local $p i32) (local $row i32)
    (local $lda f64) (local $ldb f64) (local $ldc f64) (local $xe f64) (local $xi i32) (local $xend i32)
    (local.set $unblurred (f64.eq (local.get $blur2) (f64.const 1)))
    (local.set $t (i32.const 0))
    (block $tris
      (loop $tri_loop
        (br_if $tris (i32.ge_s (local.get $t) (local.get $nt)))
        (local.set $s (i32.add (local.get $tri) (i32.shl (local.get $t) (i32.const 2))))
        (local.set $a (i32.load (local.get $s)))
        (local.set $b (i32.load offset=4 (local.get $s)))
        (local.set $c (i32.load offset=8 (local.get $s)))
        (local.set $t (i32.add (local.get $t) (i32.const 3)))
        (local.set $ax (f64.sub (f64.load (i32.add (local.get $px) (i32.shl (local.get $a) (i32.const 3)))) (local.get $dx)))
        (local.set $ay (f64.sub (f64.load (i32.add (local.get $py) (i32.shl (local.get $a) (i32.const 3)))) (local.get $dy)))
        (local.set $bx (f64.sub (f64.load (i32.add (local.get $px) (i32.shl (local.get $b) (i32.const 3)))) (local.get $dx)))
        (local.set $by (f64.sub (f64.load (i32.add (local.get $py) (i32.shl (local.get $b) (i32.const 3)))) (local.get $dy)))
        (local.set $qx (f64.sub (f64.load (i32.add (local.get $px) (i32.shl (local.get $c) (i32.const 3)))) (local.get $dx)))
        (local.set $qy (f64.sub (f64.load (i32.add (local.get $py) (i32.shl (local.get $c) (i32.const 3)))) (local.get $dy)))
        (local.set $area
          (f64.sub
            (f64.mul (f64.sub (local.get $bx) (local.get $ax)) (f64.sub (local.get $qy) (local.get $ay)))
            (f64.mul (f64.sub (local.get $by) (local.get $ay)) (f64.sub (local.get $qx) (local.get $ax)))))
        ;; zero, NaN or infinite: nothing
        (br_if $tri_loop (f64.eq (local.get $area) (f64.const 0)))
        (br_if $tri_loop (f64.ne (f64.sub (local.get $area) (local.get $area)) (f64.const 0)))
        (if (f64.lt (local.get $area) (f64.const 0))
          (then
            ;; Orient every triangle the same way (swap a and b).
            (local.set $s (local.get $a))
            (local.set $a (local.get $b))
            (local.set $b (local.get $s))
            (local.set $tmp (local.get $ax))
            (local.set $ax (local.get $bx))
            (local.set $bx (local.get $tmp))
            (local.set $tmp (local.get $ay))
            (local.set $ay (local.get $by))
            (local.set $by (local.get $tmp))
            (local.set $area (f64.neg (local.get $area)))))
        (local.set $ymin (f64.max (local.get $cy0)
          (f64.ceil (f64.sub (f64.min (f64.min (local.get $ay) (local.get $by)) (local.get $qy)) (f64.const 0.5)))))
        (local.set $ymax (f64.min (f64.sub (local.get $cy1) (f64.const 1))
          (f64.floor (f64.sub (f64.max (f64.max (local.get $ay) (local.get $by)) (local.get $qy)) (f64.const 0.5)))))
        (br_if $tri_loop (f64.gt (local.get $ymin) (local.get $ymax)))
        (local.set $xlo (f64.max (local.get $cx0)
          (f64.ceil (f64.sub (f64.min (f64.min (local.get $ax) (local.get $bx)) (local.get $qx)) (f64.const 0.5)))))
        (local.set $xhi (f64.min (f64.sub (local.get $cx1) (f64.const 1))
          (f64.floor (f64.sub (f64.max (f64.max (local.get $ax) (local.get $bx)) (local.get $qx)) (f64.const 0.5)))))
        (br_if $tri_loop (f64.gt (local.get $xlo) (local.get $xhi)))
        ;; Edge functions E(p) = A x + B y + C, positive inside; w_a = E_bc / area etc.
        (local.set $A0 (f64.sub (local.get $by) (local.get $qy)))
        (local.set $B0 (f64.sub (local.get $qx) (local.get $bx)))
        (local.set $C0 (f64.sub (f64.mul (local.get $bx) (local.get $qy)) (f64.mul (local.get $qx) (local.get $by))))
        (local.set $A1 (f64.sub (local.get $qy) (local.get $ay)))
        (local.set $B1 (f64.sub (local.get $ax) (local.get $qx)))
        (local.set $C1 (f64.sub (f64.mul (local.get $qx) (local.get $ay)) (f64.mul (local.get $ax) (local.get $qy))))
        (local.set $A2 (f64.sub (local.get $ay) (local.get $by)))
        (local.set $B2 (f64.sub (local.get $bx) (local.get $ax)))
        (local.set $C2 (f64.sub (f64.mul (local.get $ax) (local.get $by)) (f64.mul (local.get $bx) (local.get $ay))))
        (local.set $in0 (call $owns (local.get $A0) (local.get $B0)))
        (local.set $in1 (call $owns (local.get $A1) (local.get $B1)))
        (local.set $in2 (call $owns (local.get $A2) (local.get $B2)))
        (local.set $nax (f64.load (i32.add (local.get $nx) (i32.shl (local.get $a) (i32.const 3)))))
        (local.set $nay (f64.load (i32.add (local.get $ny) (i32.shl (local.get $a) (i32.const 3)))))
        (local.set $nbx (f64.load (i32.add (local.get $nx) (i32.shl (local.get $b) (i32.const 3)))))
        (local.set $nby (f64.load (i32.add (local.get $ny) (i32.shl (local.get $b) (i32.const 3)))))
        (local.set $ncx (f64.load (i32.add (local.get $nx) (i32.shl (local.get $c) (i32.const 3)))))
        (local.set $ncy (f64.load (i32.add (local.get $ny) (i32.shl (local.get $c) (i32.const 3)))))
        (if (i32.ge_s (local.get $tex) (i32.const 0))
          (then
            (local.set $lda (f64.load (i32.add (local.get $ld) (i32.shl (local.get $a) (i32.const 3)))))
            (local.set $ldb (f64.load (i32.add (local.get $ld) (i32.shl (local.get $b) (i32.const 3)))))
            (local.set $ldc (f64.load (i32.add (local.get $ld) (i32.shl (local.get $c) (i32.const 3)))))))
        (local.set $inv (f64.div (f64.const 1) (local.get $area)))
        (local.set $y (local.get $ymin))
        (block $rows
          (loop $row_loop
            (br_if $rows (f64.gt (local.get $y) (local.get $ymax)))
            (block $next_row
              (local.set $yc (f64.add (local.get $y) (f64.const 0.5)))
              (local.set $d0 (f64.add (f64.mul (local.get $B0) (local.get $yc)) (local.get $C0)))
              (local.set $d1 (f64.add (f64.mul (local.get $B1) (local.get $yc)) (local.get $C1)))
              (local.set $d2 (f64.add (f64.mul (local.get $B2) (local.get $yc)) (local.get $C2)))
              (local.set $lo (local.get $xlo))
              (local.set $hi (local.get $xhi))
              ;; Each edge bounds x on one side; a horizontal one keeps the row or none of it.
              (if (f64.ne (local.get $A0) (f64.const 0))
                (then
                  ;; maplibre.ts edgeBound (the first column inside for A > 0, the last for A < 0), inlined: a call
                  ;; here spilled every live f64 local once per edge and row (~20% of this kernel's time)
                  (local.set $xe (f64.sub (f64.div (f64.neg (local.get $d0)) (local.get $A0)) (f64.const 0.5)))
                  (if (f64.gt (local.get $A0) (f64.const 0))
                    (then
                      (local.set $v (if (result f64) (local.get $in0)
                        (then (f64.ceil (local.get $xe)))
                        (else (f64.add (f64.floor (local.get $xe)) (f64.const 1)))))
                      (if (f64.gt (local.get $v) (local.get $lo)) (then (local.set $lo (local.get $v)))))
                    (else
                      (local.set $v (if (result f64) (local.get $in0)
                        (then (f64.floor (local.get $xe)))
                        (else (f64.sub (f64.ceil (local.get $xe)) (f64.const 1)))))
                      (if (f64.lt (local.get $v) (local.get $hi)) (then (local.set $hi (local.get $v)))))))
                (else
                  (br_if $next_row (f64.lt (local.get $d0) (f64.const 0)))
                  (br_if $next_row (i32.and (f64.eq (local.get $d0) (f64.const 0)) (i32.eqz (local.get $in0))))))
              (if (f64.ne (local.get $A1) (f64.const 0))
                (then
                  ;; edgeBound, inlined
                  (local.set $xe (f64.sub (f64.div (f64.neg (local.get $d1)) (local.get $A1)) (f64.const 0.5)))
                  (if (f64.gt (local.get $A1) (f64.const 0))
                    (then
                      (local.set $v (if (result f64) (local.get $in1)
                        (then (f64.ceil (local.get $xe)))
                        (else (f64.add (f64.floor (local.get $xe)) (f64.const 1)))))
                      (if (f64.gt (local.get $v) (local.get $lo)) (then (local.set $lo (local.get $v)))))
                    (else
                      (local.set $v (if (result f64) (local.get $in1)
                        (then (f64.floor (local.get $xe)))
                        (else (f64.sub (f64.ceil (local.get $xe)) (f64.const 1)))))
                      (if (f64.lt (local.get $v) (local.get $hi)) (then (local.set $hi (local.get $v)))))))
                (else
                  (br_if $next_row (f64.lt (local.get $d1) (f64.const 0)))
                  (br_if $next_row (i32.and (f64.eq (local.get $d1) (f64.const 0)) (i32.eqz (local.get $in1))))))
              (if (f64.ne (local.get $A2) (f64.const 0))
                (then
                  ;; edgeBound, inlined
                  (local.set $xe (f64.sub (f64.div (f64.neg (local.get $d2)) (local.get $A2)) (f64.const 0.5)))
                  (if (f64.gt (local.get $A2) (f64.const 0))
                    (then
                      (local.set $v (if (result f64) (local.get $in2)
                        (then (f64.ceil (local.get $xe)))
                        (else (f64.add (f64.floor (local.get $xe)) (f64.const 1)))))
                      (if (f64.gt (local.get $v) (local.get $lo)) (then (local.set $lo (local.get $v)))))
                    (else
                      (local.set $v (if (result f64) (local.get $in2)
                        (then (f64.floor (local.get $xe)))
                        (else (f64.sub (f64.ceil (local.get $xe)) (f64.const 1)))))
                      (if (f64.lt (local.get $v) (local.get $hi)) (then (local.set $hi (local.get $v)))))))
                (else
                  (br_if $next_row (f64.lt (local.get $d2) (f64.const 0)))
                  (br_if $next_row (i32.and (f64.eq (local.get $d2) (f64.const 0)) (i32.eqz (local.get $in2))))))
              (br_if $next_row (f64.gt (local.get $lo) (local.get $hi)))
              ;; The row's pixels: x and y are whole numbers within the canvas (the clip box is); the columns
              ;; counted in i32 (x + 0.5 is the same f64 from either).
              (local.set $row (i32.mul (i32.trunc_sat_f64_s (local.get $y)) (local.get $W)))
              (local.set $p (i32.add (local.get $data)
                (i32.shl (i32.add (local.get $row) (i32.trunc_sat_f64_s (local.get $lo))) (i32.const 4))))
              (local.set $xi (i32.trunc_sat_f64_s (local.get $lo)))
              (local.set $xend (i32.trunc_sat_f64_s (local.get $hi)))
              (block $cols
                (loop $col_loop
                  (br_if $cols (i32.gt_s (local.get $xi) (local.get $xend)))
                  (block $next_col
                    (local.set $xc (f64.add (f64.convert_i32_s (local.get $xi)) (f64.const 0.5)))
                    (local.set $wa (f64.mul (f64.add (f64.mul (local.get $A0) (local.get $xc)) (local.get $d0)) (local.get $inv)))
                    (local.set $wb (f64.mul (f64.add (f64.mul (local.get $A1) (local.get $xc)) (local.get $d1)) (local.get $inv)))
                    (local.set $wc (f64.sub (f64.sub (f64.const 1) (local.get $wa)) (local.get $wb)))
                    (local.set $vx (f64.add (f64.add (f64.mul (local.get $wa) (local.get $nax)) (f64.mul (local.get $wb) (local.get $nbx)))
                      (f64.mul (local.get $wc) (local.get $ncx))))
                    (local.set $vy (f64.add (f64.add (f64.mul (local.get $wa) (local.get $nay)) (f64.mul (local.get $wb) (local.get $nby)))
                      (f64.mul (local.get $wc) (local.get $ncy))))
                    (local.set $dist (f64.mul
                      (f64.sqrt (f64.add (f64.mul (local.get $vx) (local.get $vx)) (f64.mul (local.get $vy) (local.get $vy))))
                      (local.get $outset)))
                    (local.set $alpha (f64.min
                      (f64.sub (local.get $dist) (f64.sub (local.get $inset) (local.get $blur2)))
                      (f64.sub (local.get $outset) (local.get $dist))))
                    (if (i32.eqz (local.get $unblurred)) (then (local.set $alpha (f64.div (local.get $alpha) (local.get $blur2)))))
                    (br_if $next_col (i32.eqz (f64.gt (local.get $alpha) (f64.const 0))))
                    (if (f64.gt (local.get $alpha) (f64.const 1)) (then (local.set $alpha (f64.const 1))))
                    ;; dashed: times the dash's coverage at the interpolated distance along the line
                    (if (i32.ge_s (local.get $tex) (i32.const 0))
                      (then
                        (local.set $alpha (f64.mul (local.get $alpha)
                          (call $dash (local.get $tex) (local.get $texLen) (local.get $tn) (local.get $period) (local.get $edge)
                            (f64.add
                              (f64.add (f64.mul (local.get $wa) (local.get $lda)) (f64.mul (local.get $wb) (local.get $ldb)))
                              (f64.mul (local.get $wc) (local.get $ldc)))
                            (local.get $vy))))
                        (br_if $next_col (i32.eqz (f64.gt (local.get $alpha) (f64.const 0))))))
                    (local.set $sa (f64.mul (local.get $pa) (local.get $alpha)))
                    (local.set $k (f64.sub (f64.const 1) (local.get $sa)))
                    (f32.store (local.get $p) (f32.demote_f64 (f64.add (f64.mul (local.get $pr) (local.get $alpha))
                      (f64.mul (f64.promote_f32 (f32.load (local.get $p))) (local.get $k)))))
                    (f32.store offset=4 (local.get $p) (f32.demote_f64 (f64.add (f64.mul (local.get $pg) (local.get $alpha))
                      (f64.mul (f64.promote_f32 (f32.load offset=4 (local.get $p))) (local.get $k)))))
                    (f32.store offset=8 (local.get $p) (f32.demote_f64 (f64.add (f64.mul (local.get $pb) (local.get $alpha))
                      (f64.mul (f64.promote_f32 (f32.load offset=8 (local.get $p))) (local.get $k)))))
                    (f32.store offset=12 (local.get $p) (f32.demote_f64 (f64.add (local.get $sa)
                      (f64.mul (f64.promote_f32 (f32.load offset=12 (local.get $p))) (local.get $k)))))
                    (local.set $wrote (i32.const 1)))
                  (local.set $xi (i32.add (local.get $xi) (i32.const 1)))
                  (local.set $p (i32.add (local.get $p) (i32.const 16)))
                  (br $col_loop))))
            (local.set $y (f64.add (local.get $y) (f64.const 1)))
            (br $row_loop)))
        (br $tri_loop)))
    (local.get $wrote))
)
