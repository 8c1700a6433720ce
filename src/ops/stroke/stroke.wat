;; stroke's round dabs (cpu.ts `drawDabsReference`, the reference) in WebAssembly: the same
;; arithmetic in the same order (f64, Float32 stores), so the output is bit for bit the reference's.
;; Each group's dabs and runs combine by maximum alpha into a layer, which is composited
;; source-over onto `out` (flush) before the next group. `lay` (below) lays jittered dabs as
;; plan.ts DabLayout.push does. Compiled by scripts/gen-wasm.mjs; called from simd.ts. Byte
;; offsets below are into the one memory; simd.ts lays the arrays out.
(module
  ;; the memory: simd.ts gives one instance a scratch memory (the lay kernel's dabs, and the
  ;; arrays it copies in for draw; grown from JavaScript), and draws on a second instance on the
  ;; canvas arena (src/util/wasm-arena.ts) where the output canvas lies there: in place.
  (import "env" "mem" (memory 1))
  ;; the call's settings and the arrays' byte offsets (set by draw)
  (global $W (mut i32) (i32.const 0))
  (global $H (mut i32) (i32.const 0))
  (global $geom (mut i32) (i32.const 0))
  (global $paints (mut i32) (i32.const 0))
  (global $runs (mut i32) (i32.const 0))
  (global $runGroup (mut i32) (i32.const 0))
  (global $out (mut i32) (i32.const 0))
  ;; the group's layer as two planes: per pixel its alpha (f32, -1 where no dab of the group has
  ;; been) and the strength c m of the dab that set it (f64): its colour is the group's paint times
  ;; that, rounded to f32 as the reference stores it. The alpha plane, read for every pixel a dab
  ;; covers, is a quarter of an RGBA layer's bytes.
  (global $layer (mut i32) (i32.const 0))
  (global $cms (mut i32) (i32.const 0))
  (global $touched (mut i32) (i32.const 0))
  (global $nt (mut i32) (i32.const 0))
  (global $hardness (mut f64) (f64.const 0))
  (global $aa (mut f64) (f64.const 0))
  (global $invAa (mut f64) (f64.const 0))
  (global $halfAa (mut f64) (f64.const 0))

  ;; JavaScript's Math.round (ties toward +infinity), exactly: x - floor(x) is exact.
  (func $round (param $x f64) (result f64)
    (local $f f64)
    (local.set $f (f64.floor (local.get $x)))
    (select
      (f64.add (local.get $f) (f64.const 1))
      (local.get $f)
      (f64.ge (f64.sub (local.get $x) (local.get $f)) (f64.const 0.5))))

  ;; The layer's touched pixels (of group $g) source-over onto out; the list empties and their
  ;; layer alpha goes back to -1 (no group's). The layer pixel is (paint rgb x c m rounded to f32,
  ;; alpha), as the reference's RGBA layer holds it:
  ;;   o = l + o (1 - la), in f64 per channel (two channels an f64x2), stored as f32.
  (func $flush (param $g i32)
    (local $k i32) (local $pi i32) (local $o i32) (local $pp i32) (local $cm f64)
    (local $lv v128) (local $ov v128) (local $q v128) (local $prg v128) (local $pb f64)
    (if (i32.eqz (global.get $nt)) (then (return)))
    (local.set $pp (i32.add (global.get $paints) (i32.shl (local.get $g) (i32.const 4))))
    (local.set $prg (f64x2.promote_low_f32x4 (v128.load64_zero (local.get $pp))))
    (local.set $pb (f64.promote_f32 (f32.load offset=8 (local.get $pp))))
    (local.set $k (i32.const 0))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (global.get $nt)))
        (local.set $pi (i32.load (i32.add (global.get $touched) (i32.shl (local.get $k) (i32.const 2)))))
        (local.set $cm (f64.load (i32.add (global.get $cms) (i32.shl (local.get $pi) (i32.const 3)))))
        (local.set $lv
          (f32x4.replace_lane 3
            (f32x4.replace_lane 2
              (f32x4.demote_f64x2_zero (f64x2.mul (local.get $prg) (f64x2.splat (local.get $cm))))
              (f32.demote_f64 (f64.mul (local.get $pb) (local.get $cm))))
            (f32.load (i32.add (global.get $layer) (i32.shl (local.get $pi) (i32.const 2))))))
        (local.set $o (i32.add (global.get $out) (i32.shl (local.get $pi) (i32.const 4))))
        (local.set $ov (v128.load (local.get $o)))
        (local.set $q (f64x2.sub (v128.const f64x2 1 1)
          (f64x2.splat (f64.promote_f32 (f32x4.extract_lane 3 (local.get $lv))))))
        (v128.store (local.get $o)
          (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
            (f32x4.demote_f64x2_zero (f64x2.add (f64x2.promote_low_f32x4 (local.get $lv))
              (f64x2.mul (f64x2.promote_low_f32x4 (local.get $ov)) (local.get $q))))
            (f32x4.demote_f64x2_zero (f64x2.add
              (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $lv) (local.get $lv)))
              (f64x2.mul
                (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $ov) (local.get $ov)))
                (local.get $q))))))
        (f32.store (i32.add (global.get $layer) (i32.shl (local.get $pi) (i32.const 2))) (f32.const -1))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (global.set $nt (i32.const 0)))

  ;; Dab $i of group $g (cpu.ts drawDab, round tips): roundProfile written out.
  (func $dab (param $i i32) (param $g i32)
    (local $gp i32) (local $pp i32)
    (local $cx f64) (local $cy f64) (local $r f64) (local $m f64) (local $pa f64)
    (local $rim f64) (local $rim2 f64) (local $softW f64)
    (local $core f64) (local $core2 f64)
    (local $xa i32) (local $xb i32) (local $ya i32) (local $yb i32)
    (local $x i32) (local $y i32) (local $x0 i32) (local $x1 i32) (local $pi i32) (local $lp i32)
    (local $dy f64) (local $dy2 f64) (local $h2 f64) (local $h f64)
    (local $cp i32) (local $tp i32) (local $nt i32) (local $fresh i32)
    (local $cxv v128) (local $rv v128) (local $mv v128) (local $pav v128) (local $rim2v v128) (local $core2v v128)
    (local $softWv v128) (local $invAav v128) (local $dy2v v128)
    (local $hasAa i32) (local $dyB f64) (local $wb i32) (local $fx f64) (local $fy f64) (local $lbw v128) (local $xv v128) (local $nv v128) (local $dxv v128) (local $law v128) (local $distv v128)
    (local $cv v128) (local $sv v128)
    (local $d2A v128) (local $laA v128) (local $cA v128) (local $vaA v128) (local $maskA v128)
    (local $d2B v128) (local $laB v128) (local $cB v128) (local $vaB v128) (local $maskB v128)
    (local.set $gp (i32.add (global.get $geom) (i32.shl (local.get $i) (i32.const 4))))
    (local.set $cx (f64.promote_f32 (f32.load (local.get $gp))))
    (local.set $cy (f64.promote_f32 (f32.load offset=4 (local.get $gp))))
    (local.set $r (f64.promote_f32 (f32.load offset=8 (local.get $gp))))
    (local.set $m (f64.promote_f32 (f32.load offset=12 (local.get $gp))))
    (local.set $pp (i32.add (global.get $paints) (i32.shl (local.get $g) (i32.const 4))))
    (local.set $pa (f64.promote_f32 (f32.load offset=12 (local.get $pp))))
    ;; The reference visits every pixel within r + aa / 2. With hardness < 1 the fade
    ;; s = (r - dist) softW is <= 0 at dist >= r, so the profile is too and the reference skips the
    ;; pixel: here the rim is r then (r, an f32, squares exactly in f64, and sqrt(d2) >= r exactly
    ;; when d2 >= r r). The gallery's pencils (r ~0.75, aa 1): 0.4 of the pixels tested.
    (local.set $rim (select
      (f64.add (local.get $r) (global.get $halfAa))
      (local.get $r)
      (i32.and (f64.gt (global.get $aa) (f64.const 0)) (i32.eqz (f64.lt (global.get $hardness) (f64.const 1))))))
    (local.set $rim2 (f64.mul (local.get $rim) (local.get $rim)))
    (local.set $softW (select
      (f64.div (f64.const 1) (f64.mul (f64.sub (f64.const 1) (global.get $hardness)) (local.get $r)))
      (f64.const 0)
      (f64.lt (global.get $hardness) (f64.const 1))))
    ;; radius within which the profile is 1 (no square root there)
    (local.set $core (f64.min
      (select (f64.sub (local.get $r) (global.get $halfAa)) (local.get $r) (f64.gt (global.get $aa) (f64.const 0)))
      (select (f64.mul (global.get $hardness) (local.get $r)) (f64.const inf) (f64.lt (global.get $hardness) (f64.const 1)))))
    (local.set $core2 (select (f64.mul (local.get $core) (local.get $core)) (f64.const -1) (f64.gt (local.get $core) (f64.const 0))))
    (local.set $cxv (f64x2.splat (local.get $cx)))
    (local.set $rv (f64x2.splat (local.get $r)))
    (local.set $mv (f64x2.splat (local.get $m)))
    (local.set $pav (f64x2.splat (local.get $pa)))
    (local.set $rim2v (f64x2.splat (local.get $rim2)))
    (local.set $core2v (f64x2.splat (local.get $core2)))
    (local.set $softWv (f64x2.splat (local.get $softW)))
    (local.set $invAav (f64x2.splat (global.get $invAa)))
    (local.set $hasAa (f64.gt (global.get $aa) (f64.const 0)))
    ;; Dabs with rim < 1 (most pencil dabs) reach at most the 2 x 2 pixels from
    ;; (floor(cx - 0.5), floor(cy - 0.5)): any other pixel has |dx| >= 1 or |dy| >= 1, so d2 >= 1 >
    ;; rim2. Where that block lies inside the canvas it is one step without loops: the row above
    ;; (lanes A) and the row below (lanes B), as the rows' steps below compute them.
    (if (f64.lt (local.get $rim) (f64.const 1))
      (then
        (local.set $fx (f64.floor (f64.sub (local.get $cx) (f64.const 0.5))))
        (local.set $fy (f64.floor (f64.sub (local.get $cy) (f64.const 0.5))))
        (if (i32.and
              (i32.and (f64.ge (local.get $fx) (f64.const 0)) (f64.lt (f64.add (local.get $fx) (f64.const 1)) (f64.convert_i32_s (global.get $W))))
              (i32.and (f64.ge (local.get $fy) (f64.const 0)) (f64.lt (f64.add (local.get $fy) (f64.const 1)) (f64.convert_i32_s (global.get $H)))))
          (then
            (local.set $pi (i32.add (i32.mul (i32.trunc_f64_s (local.get $fy)) (global.get $W)) (i32.trunc_f64_s (local.get $fx))))
            (local.set $lp (i32.add (global.get $layer) (i32.shl (local.get $pi) (i32.const 2))))
            (local.set $cp (i32.add (global.get $cms) (i32.shl (local.get $pi) (i32.const 3))))
            (local.set $wb (i32.shl (global.get $W) (i32.const 2)))
            ;; dx = (x + 0.5) - cx for x = fx, fx + 1 (both exact sums); dy alike per row
            (local.set $dxv (f64x2.sub (f64x2.add (f64x2.splat (local.get $fx)) (v128.const f64x2 0.5 1.5)) (local.get $cxv)))
            (local.set $dy (f64.sub (f64.add (local.get $fy) (f64.const 0.5)) (local.get $cy)))
            (local.set $dyB (f64.sub (f64.add (local.get $fy) (f64.const 1.5)) (local.get $cy)))
            (local.set $law (v128.load64_zero (local.get $lp)))
            (local.set $lbw (v128.load64_zero (i32.add (local.get $lp) (local.get $wb))))
        (local.set $d2A (f64x2.add (f64x2.mul (local.get $dxv) (local.get $dxv)) (f64x2.splat (f64.mul (local.get $dy) (local.get $dy)))))
        (local.set $laA (f64x2.promote_low_f32x4 (local.get $law)))
        (local.set $distv (f64x2.sqrt (local.get $d2A)))
        (local.set $cv (if (result v128) (local.get $hasAa)
          (then (f64x2.add (f64x2.mul (f64x2.sub (local.get $rv) (local.get $distv)) (local.get $invAav)) (v128.const f64x2 0.5 0.5)))
          (else (v128.and (f64x2.le (local.get $distv) (local.get $rv)) (v128.const f64x2 1 1)))))
        (local.set $cv (v128.bitselect (v128.const f64x2 1 1) (local.get $cv) (f64x2.gt (local.get $cv) (v128.const f64x2 1 1))))
        (if (f64.gt (local.get $softW) (f64.const 0))
          (then
            (local.set $sv (f64x2.mul (f64x2.sub (local.get $rv) (local.get $distv)) (local.get $softWv)))
            (local.set $cv (v128.bitselect (local.get $sv) (local.get $cv) (f64x2.lt (local.get $sv) (local.get $cv))))))
        (local.set $cv (v128.bitselect (local.get $cv) (v128.const f64x2 1 1) (f64x2.gt (local.get $d2A) (local.get $core2v))))
        (local.set $cA (f64x2.mul (local.get $cv) (local.get $mv)))
        (local.set $vaA (f64x2.mul (local.get $pav) (local.get $cA)))
        (local.set $maskA (v128.and
          (v128.and (f64x2.lt (local.get $d2A) (local.get $rim2v)) (f64x2.gt (local.get $cA) (v128.const f64x2 0 0)))
          (f64x2.gt (local.get $vaA) (local.get $laA))))
          (local.set $d2B (f64x2.add (f64x2.mul (local.get $dxv) (local.get $dxv)) (f64x2.splat (f64.mul (local.get $dyB) (local.get $dyB)))))
          (local.set $laB (f64x2.promote_low_f32x4 (local.get $lbw)))
          (local.set $distv (f64x2.sqrt (local.get $d2B)))
          (local.set $cv (if (result v128) (local.get $hasAa)
            (then (f64x2.add (f64x2.mul (f64x2.sub (local.get $rv) (local.get $distv)) (local.get $invAav)) (v128.const f64x2 0.5 0.5)))
            (else (v128.and (f64x2.le (local.get $distv) (local.get $rv)) (v128.const f64x2 1 1)))))
          (local.set $cv (v128.bitselect (v128.const f64x2 1 1) (local.get $cv) (f64x2.gt (local.get $cv) (v128.const f64x2 1 1))))
          (if (f64.gt (local.get $softW) (f64.const 0))
            (then
              (local.set $sv (f64x2.mul (f64x2.sub (local.get $rv) (local.get $distv)) (local.get $softWv)))
              (local.set $cv (v128.bitselect (local.get $sv) (local.get $cv) (f64x2.lt (local.get $sv) (local.get $cv))))))
          (local.set $cv (v128.bitselect (local.get $cv) (v128.const f64x2 1 1) (f64x2.gt (local.get $d2B) (local.get $core2v))))
          (local.set $cB (f64x2.mul (local.get $cv) (local.get $mv)))
          (local.set $vaB (f64x2.mul (local.get $pav) (local.get $cB)))
          (local.set $maskB (v128.and
            (v128.and (f64x2.lt (local.get $d2B) (local.get $rim2v)) (f64x2.gt (local.get $cB) (v128.const f64x2 0 0)))
            (f64x2.gt (local.get $vaB) (local.get $laB))))

            (v128.store64_lane 0 (local.get $lp)
              (v128.bitselect (f32x4.demote_f64x2_zero (local.get $vaA)) (local.get $law)
                (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.get $maskA) (local.get $maskA))))
            (v128.store64_lane 0 (i32.add (local.get $lp) (local.get $wb))
              (v128.bitselect (f32x4.demote_f64x2_zero (local.get $vaB)) (local.get $lbw)
                (i8x16.shuffle 0 1 2 3 8 9 10 11 0 1 2 3 8 9 10 11 (local.get $maskB) (local.get $maskB))))
            (v128.store (local.get $cp) (v128.bitselect (local.get $cA) (v128.load (local.get $cp)) (local.get $maskA)))
            (local.set $cp (i32.add (local.get $cp) (i32.shl (global.get $W) (i32.const 3))))
            (v128.store (local.get $cp) (v128.bitselect (local.get $cB) (v128.load (local.get $cp)) (local.get $maskB)))
            (local.set $fresh (i32.or
              (i64x2.bitmask (v128.and (local.get $maskA) (f64x2.lt (local.get $laA) (v128.const f64x2 0 0))))
              (i32.shl (i64x2.bitmask (v128.and (local.get $maskB) (f64x2.lt (local.get $laB) (v128.const f64x2 0 0)))) (i32.const 2))))
            (local.set $nt (global.get $nt))
            (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nt) (i32.const 2))) (local.get $pi))
            (local.set $nt (i32.add (local.get $nt) (i32.and (local.get $fresh) (i32.const 1))))
            (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nt) (i32.const 2))) (i32.add (local.get $pi) (i32.const 1)))
            (local.set $nt (i32.add (local.get $nt) (i32.and (i32.shr_u (local.get $fresh) (i32.const 1)) (i32.const 1))))
            (local.set $pi (i32.add (local.get $pi) (global.get $W)))
            (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nt) (i32.const 2))) (local.get $pi))
            (local.set $nt (i32.add (local.get $nt) (i32.and (i32.shr_u (local.get $fresh) (i32.const 2)) (i32.const 1))))
            (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nt) (i32.const 2))) (i32.add (local.get $pi) (i32.const 1)))
            (global.set $nt (i32.add (local.get $nt) (i32.shr_u (local.get $fresh) (i32.const 3))))
            (return)))))
    ;; The pixels whose centres can lie inside the rim, |x + 0.5 - cx| < rim and alike in y, with
    ;; 1e-3 px to spare (far above the rounding of d2 against rim2): x from floor(cx - rim - 0.501)
    ;; + 1 to below ceil(cx + rim - 0.499). The reference's box reaches half a pixel further
    ;; (dabReach); those pixels fail its d2 < rim2 test. A pencil dab of r 0.5 is one pixel in
    ;; most places and its box now too (before, 2 x 2).
    (local.set $xa (i32.trunc_sat_f64_s (f64.max (f64.const 0) (f64.add (f64.floor (f64.sub (local.get $cx) (f64.add (local.get $rim) (f64.const 0.501)))) (f64.const 1)))))
    (local.set $xb (i32.trunc_sat_f64_s (f64.min (f64.convert_i32_s (global.get $W)) (f64.ceil (f64.add (local.get $cx) (f64.sub (local.get $rim) (f64.const 0.499)))))))
    (local.set $ya (i32.trunc_sat_f64_s (f64.max (f64.const 0) (f64.add (f64.floor (f64.sub (local.get $cy) (f64.add (local.get $rim) (f64.const 0.501)))) (f64.const 1)))))
    (local.set $yb (i32.trunc_sat_f64_s (f64.min (f64.convert_i32_s (global.get $H)) (f64.ceil (f64.add (local.get $cy) (f64.sub (local.get $rim) (f64.const 0.499)))))))
    (if (i32.or (i32.ge_s (local.get $xa) (local.get $xb)) (i32.ge_s (local.get $ya) (local.get $yb))) (then (return)))
    (local.set $nt (global.get $nt))
    (local.set $y (local.get $ya))
    (loop $row
      (block $nextRow
        (local.set $dy (f64.sub (f64.add (f64.convert_i32_s (local.get $y)) (f64.const 0.5)) (local.get $cy)))
        (local.set $dy2 (f64.mul (local.get $dy) (local.get $dy)))
        (local.set $h2 (f64.sub (local.get $rim2) (local.get $dy2)))
        (br_if $nextRow (f64.le (local.get $h2) (f64.const 0)))
        ;; Small dabs (rim < 2 px: the gallery's pencils) test every column of the dab's box: a
        ;; square root and a span per row cost more than the few pixels they leave out.
        (local.set $x0 (local.get $xa))
        (local.set $x1 (local.get $xb))
        (if (f64.ge (local.get $rim) (f64.const 2))
          (then
            (local.set $h (f64.sqrt (local.get $h2)))
            ;; The columns whose centres can lie inside the rim: |x + 0.5 - cx| < h, with 1e-3 px to
            ;; spare (far above the rounding of d2 against rim2). The reference visits a pixel more on
            ;; each side; those fail its d2 < rim2 test.
            (local.set $x0 (i32.trunc_sat_f64_s (f64.max (f64.convert_i32_s (local.get $xa))
              (f64.add (f64.floor (f64.sub (f64.sub (local.get $cx) (local.get $h)) (f64.const 0.501))) (f64.const 1)))))
            (local.set $x1 (i32.trunc_sat_f64_s (f64.min (f64.convert_i32_s (local.get $xb))
              (f64.ceil (f64.sub (f64.add (local.get $cx) (local.get $h)) (f64.const 0.499))))))))
        ;; Two pixels a step (f64x2), without branches: each lane computes what the reference
        ;; computes for its pixel (the same f64 operations in the same order; the reference's early
        ;; skips become a lane mask: d2 < rim2, c > 0 and va > la, where its test la >= full is
        ;; implied by va <= full), and a masked lane writes its old bytes back. A second lane past
        ;; the row's end (or the canvas's: simd.ts pads each plane) is masked out.
        ;; Four pixels a step (two f64x2 halves), without branches: each lane computes what the
        ;; reference computes for its pixel (the same f64 operations in the same order; the
        ;; reference's early skips become a lane mask: d2 < rim2, c > 0 and va > la, where its test
        ;; la >= full is implied by va <= full), and a masked lane writes its old bytes back. Lanes
        ;; past the row's end (or the canvas's: simd.ts pads each plane) are masked out. The
        ;; gallery's pencils (rim < 1.5 px) take one step a row.
        (local.set $x (local.get $x0))
        (local.set $pi (i32.add (i32.mul (local.get $y) (global.get $W)) (local.get $x0)))
        (local.set $dy2v (f64x2.splat (local.get $dy2)))
        (block $rowDone
          (loop $px
            (br_if $rowDone (i32.ge_s (local.get $x) (local.get $x1)))
            (local.set $lp (i32.add (global.get $layer) (i32.shl (local.get $pi) (i32.const 2))))
            (local.set $cp (i32.add (global.get $cms) (i32.shl (local.get $pi) (i32.const 3))))
            (local.set $xv (f64x2.splat (f64.convert_i32_s (local.get $x))))
            ;; lanes left in the row
            (local.set $nv (i64x2.splat (i64.extend_i32_s (i32.sub (local.get $x1) (local.get $x)))))
            ;; the layer's alpha: -1 where no dab of this group has been (fresh)
            (local.set $law (v128.load (local.get $lp)))
            (local.set $dxv (f64x2.sub
              (f64x2.add (local.get $xv) (v128.const f64x2 0.5 1.5))
              (local.get $cxv)))
            (local.set $d2A (f64x2.add (f64x2.mul (local.get $dxv) (local.get $dxv)) (local.get $dy2v)))
            (local.set $laA (f64x2.promote_low_f32x4 (local.get $law)))
            (local.set $distv (f64x2.sqrt (local.get $d2A)))
            (local.set $cv (if (result v128) (local.get $hasAa)
              (then (f64x2.add (f64x2.mul (f64x2.sub (local.get $rv) (local.get $distv)) (local.get $invAav)) (v128.const f64x2 0.5 0.5)))
              (else (v128.and (f64x2.le (local.get $distv) (local.get $rv)) (v128.const f64x2 1 1)))))
            (local.set $cv (v128.bitselect (v128.const f64x2 1 1) (local.get $cv) (f64x2.gt (local.get $cv) (v128.const f64x2 1 1))))
            (if (f64.gt (local.get $softW) (f64.const 0))
              (then
                (local.set $sv (f64x2.mul (f64x2.sub (local.get $rv) (local.get $distv)) (local.get $softWv)))
                (local.set $cv (v128.bitselect (local.get $sv) (local.get $cv) (f64x2.lt (local.get $sv) (local.get $cv))))))
            (local.set $cv (v128.bitselect (local.get $cv) (v128.const f64x2 1 1) (f64x2.gt (local.get $d2A) (local.get $core2v))))
            (local.set $cA (f64x2.mul (local.get $cv) (local.get $mv)))
            (local.set $vaA (f64x2.mul (local.get $pav) (local.get $cA)))
            (local.set $maskA (v128.and
              (v128.and (f64x2.lt (local.get $d2A) (local.get $rim2v)) (f64x2.gt (local.get $cA) (v128.const f64x2 0 0)))
              (v128.and (f64x2.gt (local.get $vaA) (local.get $laA))
                (i64x2.lt_s (v128.const i64x2 0 1) (local.get $nv)))))
            (local.set $dxv (f64x2.sub
              (f64x2.add (local.get $xv) (v128.const f64x2 2.5 3.5))
              (local.get $cxv)))
            (local.set $d2B (f64x2.add (f64x2.mul (local.get $dxv) (local.get $dxv)) (local.get $dy2v)))
            (local.set $laB (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $law) (local.get $law))))
            (local.set $distv (f64x2.sqrt (local.get $d2B)))
            (local.set $cv (if (result v128) (local.get $hasAa)
              (then (f64x2.add (f64x2.mul (f64x2.sub (local.get $rv) (local.get $distv)) (local.get $invAav)) (v128.const f64x2 0.5 0.5)))
              (else (v128.and (f64x2.le (local.get $distv) (local.get $rv)) (v128.const f64x2 1 1)))))
            (local.set $cv (v128.bitselect (v128.const f64x2 1 1) (local.get $cv) (f64x2.gt (local.get $cv) (v128.const f64x2 1 1))))
            (if (f64.gt (local.get $softW) (f64.const 0))
              (then
                (local.set $sv (f64x2.mul (f64x2.sub (local.get $rv) (local.get $distv)) (local.get $softWv)))
                (local.set $cv (v128.bitselect (local.get $sv) (local.get $cv) (f64x2.lt (local.get $sv) (local.get $cv))))))
            (local.set $cv (v128.bitselect (local.get $cv) (v128.const f64x2 1 1) (f64x2.gt (local.get $d2B) (local.get $core2v))))
            (local.set $cB (f64x2.mul (local.get $cv) (local.get $mv)))
            (local.set $vaB (f64x2.mul (local.get $pav) (local.get $cB)))
            (local.set $maskB (v128.and
              (v128.and (f64x2.lt (local.get $d2B) (local.get $rim2v)) (f64x2.gt (local.get $cB) (v128.const f64x2 0 0)))
              (v128.and (f64x2.gt (local.get $vaB) (local.get $laB))
                (i64x2.lt_s (v128.const i64x2 2 3) (local.get $nv)))))
            (v128.store (local.get $lp)
              (v128.bitselect
                (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23
                  (f32x4.demote_f64x2_zero (local.get $vaA)) (f32x4.demote_f64x2_zero (local.get $vaB)))
                (local.get $law)
                (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (local.get $maskA) (local.get $maskB))))
            (v128.store (local.get $cp) (v128.bitselect (local.get $cA) (v128.load (local.get $cp)) (local.get $maskA)))
            (v128.store offset=16 (local.get $cp) (v128.bitselect (local.get $cB) (v128.load offset=16 (local.get $cp)) (local.get $maskB)))
            ;; fresh pixels written (la < 0) join the touched list: every lane stored, counted if fresh
            (local.set $fresh (i32.or
              (i64x2.bitmask (v128.and (local.get $maskA) (f64x2.lt (local.get $laA) (v128.const f64x2 0 0))))
              (i32.shl (i64x2.bitmask (v128.and (local.get $maskB) (f64x2.lt (local.get $laB) (v128.const f64x2 0 0)))) (i32.const 2))))
            (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nt) (i32.const 2))) (local.get $pi))
            (local.set $nt (i32.add (local.get $nt) (i32.and (local.get $fresh) (i32.const 1))))
            (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nt) (i32.const 2))) (i32.add (local.get $pi) (i32.const 1)))
            (local.set $nt (i32.add (local.get $nt) (i32.and (i32.shr_u (local.get $fresh) (i32.const 1)) (i32.const 1))))
            (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nt) (i32.const 2))) (i32.add (local.get $pi) (i32.const 2)))
            (local.set $nt (i32.add (local.get $nt) (i32.and (i32.shr_u (local.get $fresh) (i32.const 2)) (i32.const 1))))
            (i32.store (i32.add (global.get $touched) (i32.shl (local.get $nt) (i32.const 2))) (i32.add (local.get $pi) (i32.const 3)))
            (local.set $nt (i32.add (local.get $nt) (i32.shr_u (local.get $fresh) (i32.const 3))))
            (local.set $x (i32.add (local.get $x) (i32.const 4)))
            (local.set $pi (i32.add (local.get $pi) (i32.const 4)))
            (br $px))))
      (br_if $row (i32.lt_s (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $yb))))
    (global.set $nt (local.get $nt)))

  ;; Run $ri (cpu.ts drawRun): alike round dabs on a segment, the nearest one per pixel.
  (func $run (param $ri i32)
    (local $o i32) (local $pp i32)
    (local $ax f64) (local $ay f64) (local $ux f64) (local $uy f64) (local $d0 f64) (local $sp f64)
    (local $count f64) (local $r f64) (local $m f64)
    (local $pr f64) (local $pg f64) (local $pb f64) (local $pa f64)
    (local $rim f64) (local $rim2 f64) (local $full f64) (local $softW f64)
    (local $tEnd f64) (local $ex f64) (local $ey f64) (local $sx f64) (local $sy f64)
    (local $xa i32) (local $xb i32) (local $ya i32) (local $yb i32)
    (local $invSp f64) (local $last f64)
    (local $x i32) (local $y i32) (local $x0 i32) (local $x1 i32) (local $pi i32) (local $lp i32)
    (local $px f64) (local $py f64) (local $xc f64) (local $half f64) (local $k f64) (local $t f64)
    (local $dx f64) (local $dy f64) (local $d2 f64) (local $dist f64) (local $c f64) (local $s f64)
    (local $va f64) (local $cm f64) (local $la f64)
    (local.set $o (i32.add (global.get $runs) (i32.mul (local.get $ri) (i32.const 72))))
    (local.set $ax (f64.load (local.get $o)))
    (local.set $ay (f64.load offset=8 (local.get $o)))
    (local.set $ux (f64.load offset=16 (local.get $o)))
    (local.set $uy (f64.load offset=24 (local.get $o)))
    (local.set $d0 (f64.load offset=32 (local.get $o)))
    (local.set $sp (f64.load offset=40 (local.get $o)))
    (local.set $count (f64.load offset=48 (local.get $o)))
    (local.set $r (f64.load offset=56 (local.get $o)))
    (local.set $m (f64.load offset=64 (local.get $o)))
    (local.set $pp (i32.add (global.get $paints)
      (i32.shl (i32.load (i32.add (global.get $runGroup) (i32.shl (local.get $ri) (i32.const 2)))) (i32.const 4))))
    (local.set $pr (f64.promote_f32 (f32.load (local.get $pp))))
    (local.set $pg (f64.promote_f32 (f32.load offset=4 (local.get $pp))))
    (local.set $pb (f64.promote_f32 (f32.load offset=8 (local.get $pp))))
    (local.set $pa (f64.promote_f32 (f32.load offset=12 (local.get $pp))))
    ;; With hardness < 1 the profile is 0 at dist >= r (as in $dab): the rim is r then, and the
    ;; test d2 < rim2 leaves out only pixels with d2 >= r r (1 + 2^-50) > r^2 (r, an f64 here, does
    ;; not square exactly), where sqrt(d2) >= r and the reference skips the pixel.
    (local.set $rim (select
      (f64.add (local.get $r) (global.get $halfAa))
      (local.get $r)
      (i32.and (f64.gt (global.get $aa) (f64.const 0)) (i32.eqz (f64.lt (global.get $hardness) (f64.const 1))))))
    (local.set $rim2 (f64.mul (local.get $rim) (local.get $rim)))
    (if (f64.lt (global.get $hardness) (f64.const 1))
      (then (local.set $rim2 (f64.mul (local.get $rim2) (f64.const 0x1.0000000000004p+0)))))
    (local.set $full (f64.mul (local.get $pa) (local.get $m)))
    (local.set $softW (select
      (f64.div (f64.const 1) (f64.mul (f64.sub (f64.const 1) (global.get $hardness)) (local.get $r)))
      (f64.const 0)
      (f64.lt (global.get $hardness) (f64.const 1))))
    (local.set $tEnd (f64.add (local.get $d0) (f64.mul (f64.sub (local.get $count) (f64.const 1)) (local.get $sp))))
    (local.set $ex (f64.add (local.get $ax) (f64.mul (local.get $ux) (local.get $tEnd))))
    (local.set $ey (f64.add (local.get $ay) (f64.mul (local.get $uy) (local.get $tEnd))))
    (local.set $sx (f64.add (local.get $ax) (f64.mul (local.get $ux) (local.get $d0))))
    (local.set $sy (f64.add (local.get $ay) (f64.mul (local.get $uy) (local.get $d0))))
    (local.set $xa (i32.trunc_sat_f64_s (f64.max (f64.const 0) (f64.floor (f64.sub (f64.min (local.get $sx) (local.get $ex)) (local.get $rim))))))
    (local.set $xb (i32.trunc_sat_f64_s (f64.min (f64.convert_i32_s (global.get $W)) (f64.ceil (f64.add (f64.max (local.get $sx) (local.get $ex)) (local.get $rim))))))
    (local.set $ya (i32.trunc_sat_f64_s (f64.max (f64.const 0) (f64.floor (f64.sub (f64.min (local.get $sy) (local.get $ey)) (local.get $rim))))))
    (local.set $yb (i32.trunc_sat_f64_s (f64.min (f64.convert_i32_s (global.get $H)) (f64.ceil (f64.add (f64.max (local.get $sy) (local.get $ey)) (local.get $rim))))))
    (local.set $invSp (f64.div (f64.const 1) (local.get $sp)))
    (local.set $last (f64.sub (local.get $count) (f64.const 1)))
    (local.set $y (local.get $ya))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_s (local.get $y) (local.get $yb)))
        (local.set $py (f64.add (f64.convert_i32_s (local.get $y)) (f64.const 0.5)))
        (local.set $x0 (local.get $xa))
        (local.set $x1 (local.get $xb))
        ;; columns whose centres lie within rim of the segment's line in this row
        (if (f64.gt (f64.abs (local.get $uy)) (f64.const 1e-9))
          (then
            (local.set $xc (f64.add (local.get $ax)
              (f64.div (f64.mul (local.get $ux) (f64.sub (local.get $py) (local.get $ay))) (local.get $uy))))
            (local.set $half (f64.div (local.get $rim) (f64.abs (local.get $uy))))
            (local.set $x0 (i32.trunc_sat_f64_s (f64.max (f64.convert_i32_s (local.get $xa))
              (f64.floor (f64.sub (f64.sub (local.get $xc) (local.get $half)) (f64.const 0.5))))))
            (local.set $x1 (i32.trunc_sat_f64_s (f64.min (f64.convert_i32_s (local.get $xb))
              (f64.ceil (f64.add (f64.add (local.get $xc) (local.get $half)) (f64.const 0.5))))))))
        (local.set $x (local.get $x0))
        (local.set $pi (i32.add (i32.mul (local.get $y) (global.get $W)) (local.get $x0)))
        (block $rowDone
          (loop $pxl
            (br_if $rowDone (i32.ge_s (local.get $x) (local.get $x1)))
            (block $nextPx
              (local.set $px (f64.add (f64.convert_i32_s (local.get $x)) (f64.const 0.5)))
              (local.set $lp (i32.add (global.get $layer) (i32.shl (local.get $pi) (i32.const 2))))
              (local.set $la (f64.promote_f32 (f32.load (local.get $lp))))
              (br_if $nextPx (f64.ge (local.get $la) (local.get $full)))
              (local.set $k (call $round (f64.mul
                (f64.sub
                  (f64.add (f64.mul (f64.sub (local.get $px) (local.get $ax)) (local.get $ux))
                           (f64.mul (f64.sub (local.get $py) (local.get $ay)) (local.get $uy)))
                  (local.get $d0))
                (local.get $invSp))))
              (local.set $k (select (f64.const 0)
                (select (local.get $last) (local.get $k) (f64.gt (local.get $k) (local.get $last)))
                (f64.lt (local.get $k) (f64.const 0))))
              (local.set $t (f64.add (local.get $d0) (f64.mul (local.get $k) (local.get $sp))))
              (local.set $dx (f64.sub (local.get $px) (f64.add (local.get $ax) (f64.mul (local.get $ux) (local.get $t)))))
              (local.set $dy (f64.sub (local.get $py) (f64.add (local.get $ay) (f64.mul (local.get $uy) (local.get $t)))))
              (local.set $d2 (f64.add (f64.mul (local.get $dx) (local.get $dx)) (f64.mul (local.get $dy) (local.get $dy))))
              (br_if $nextPx (f64.ge (local.get $d2) (local.get $rim2)))
              (local.set $dist (f64.sqrt (local.get $d2)))
              (local.set $c
                (if (result f64) (f64.gt (global.get $aa) (f64.const 0))
                  (then (f64.add (f64.mul (f64.sub (local.get $r) (local.get $dist)) (global.get $invAa)) (f64.const 0.5)))
                  (else (select (f64.const 1) (f64.const 0) (f64.le (local.get $dist) (local.get $r))))))
              (if (f64.gt (local.get $c) (f64.const 1)) (then (local.set $c (f64.const 1))))
              (if (f64.gt (local.get $softW) (f64.const 0))
                (then
                  (local.set $s (f64.mul (f64.sub (local.get $r) (local.get $dist)) (local.get $softW)))
                  (if (f64.lt (local.get $s) (local.get $c)) (then (local.set $c (local.get $s))))))
              (br_if $nextPx (f64.le (local.get $c) (f64.const 0)))
              (local.set $va (f64.mul (f64.mul (local.get $pa) (local.get $c)) (local.get $m)))
              (br_if $nextPx (f64.le (local.get $va) (local.get $la)))
              (if (f64.lt (local.get $la) (f64.const 0))
                (then
                  (i32.store (i32.add (global.get $touched) (i32.shl (global.get $nt) (i32.const 2))) (local.get $pi))
                  (global.set $nt (i32.add (global.get $nt) (i32.const 1)))))
              (local.set $cm (f64.mul (local.get $c) (local.get $m)))
              (f64.store (i32.add (global.get $cms) (i32.shl (local.get $pi) (i32.const 3))) (local.get $cm))
              (f32.store (local.get $lp) (f32.demote_f64 (local.get $va))))
            (local.set $x (i32.add (local.get $x) (i32.const 1)))
            (local.set $pi (i32.add (local.get $pi) (i32.const 1)))
            (br $pxl)))
        (local.set $y (i32.add (local.get $y) (i32.const 1)))
        (br $row))))

  ;; draw(...): every dab and run of a round-tipped stroke, group by group (cpu.ts drawDabs).
  ;; geom: f32 [cx, cy, r, m] x count; group: u32 x count; paints: f32 RGBA x groups; runs: f64 x 9
  ;; x runCount; runGroup: u32 x runCount; out: f32 RGBA W x H (composited onto); layer: f32 W x H,
  ;; -1 on entry (no group's pixel; the reference tracks an owner per pixel); cms: f64 W x H
  ;; (scratch); touched: u32 W x H (scratch).
  (func (export "draw")
    (param $w i32) (param $h i32) (param $count i32) (param $runCount i32) (param $groups i32)
    (param $geom i32) (param $group i32) (param $paints i32) (param $runs i32) (param $runGroup i32)
    (param $out i32) (param $layer i32) (param $cms i32) (param $touched i32)
    (param $hardness f64) (param $aa f64)
    (local $i i32) (local $g i32) (local $cur i32) (local $ri i32) (local $rg i32)
    (global.set $W (local.get $w))
    (global.set $H (local.get $h))
    (global.set $geom (local.get $geom))
    (global.set $paints (local.get $paints))
    (global.set $runs (local.get $runs))
    (global.set $runGroup (local.get $runGroup))
    (global.set $out (local.get $out))
    (global.set $layer (local.get $layer))
    (global.set $cms (local.get $cms))
    (global.set $touched (local.get $touched))
    (global.set $nt (i32.const 0))
    (global.set $hardness (local.get $hardness))
    (global.set $aa (local.get $aa))
    (global.set $halfAa (f64.div (local.get $aa) (f64.const 2)))
    (global.set $invAa (select (f64.div (f64.const 1) (local.get $aa)) (f64.const 0) (f64.gt (local.get $aa) (f64.const 0))))
    (local.set $cur (i32.const -1))
    (local.set $ri (i32.const 0))
    (local.set $i (i32.const 0))
    (block $end
      (loop $dabs
        ;; past the last dab, the group after the last (not a select: it would load group[count],
        ;; beyond the memory when every later array is empty)
        (local.set $g (local.get $groups))
        (if (i32.lt_u (local.get $i) (local.get $count))
          (then (local.set $g (i32.load (i32.add (local.get $group) (i32.shl (local.get $i) (i32.const 2)))))))
        (if (i32.ne (local.get $g) (local.get $cur))
          (then
            ;; runs of the groups up to this one, then the group's own dabs
            (block $runsDone
              (loop $runsLoop
                (br_if $runsDone (i32.ge_u (local.get $ri) (local.get $runCount)))
                (local.set $rg (i32.load (i32.add (local.get $runGroup) (i32.shl (local.get $ri) (i32.const 2)))))
                (br_if $runsDone (i32.gt_u (local.get $rg) (local.get $g)))
                (if (i32.ne (local.get $rg) (local.get $cur))
                  (then
                    (call $flush (local.get $cur))
                    (local.set $cur (local.get $rg))))
                (call $run (local.get $ri))
                (local.set $ri (i32.add (local.get $ri) (i32.const 1)))
                (br $runsLoop)))
            (br_if $end (i32.eq (local.get $i) (local.get $count)))
            (if (i32.ne (local.get $g) (local.get $cur))
              (then
                (call $flush (local.get $cur))
                (local.set $cur (local.get $g))))))
        (call $dab (local.get $i) (local.get $g))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $dabs)))
    (call $flush (local.get $cur)))

;; ---- Laying jittered dabs (plan.ts DabLayout.push, the reference): the same f64 arithmetic in
  ;; the same order and the same 32-bit integer hash, so the dabs are bit for bit the reference's.

  ;; the node's settings (set by setup)
  (global $lx0 (mut f64) (f64.const 0))
  (global $ly0 (mut f64) (f64.const 0))
  (global $lW (mut f64) (f64.const 0))
  (global $lH (mut f64) (f64.const 0))
  (global $reachMax (mut f64) (f64.const 0))
  (global $opacity (mut f64) (f64.const 0))
  (global $sizeJitter (mut f64) (f64.const 0))
  (global $opacityJitter (mut f64) (f64.const 0))
  (global $scatter (mut f64) (f64.const 0))
  (global $widthMax (mut f64) (f64.const 0))
  (global $seed (mut i32) (i32.const 0))

  (func (export "setup")
    (param $x0 f64) (param $y0 f64) (param $w f64) (param $h f64) (param $reachMax f64) (param $opacity f64)
    (param $sizeJitter f64) (param $opacityJitter f64) (param $scatter f64) (param $widthMax f64) (param $seed i32)
    (global.set $lx0 (local.get $x0))
    (global.set $ly0 (local.get $y0))
    (global.set $lW (local.get $w))
    (global.set $lH (local.get $h))
    (global.set $reachMax (local.get $reachMax))
    (global.set $opacity (local.get $opacity))
    (global.set $sizeJitter (local.get $sizeJitter))
    (global.set $opacityJitter (local.get $opacityJitter))
    (global.set $scatter (local.get $scatter))
    (global.set $widthMax (local.get $widthMax))
    (global.set $seed (local.get $seed)))

  ;; plan.ts hash01: a murmur3-style mix of four int32s, as (h >>> 0) / 2^32.
  (func $hash01 (param $a i32) (param $b i32) (param $c i32) (param $d i32) (result f64)
    (local $h i32)
    (local.set $h (i32.mul (i32.xor (local.get $a) (i32.const 0x9e3779b9)) (i32.const 0x85ebca6b)))
    (local.set $h (i32.mul (i32.xor (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))) (local.get $b)) (i32.const 0xc2b2ae35)))
    (local.set $h (i32.mul (i32.xor (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))) (local.get $c)) (i32.const 0x27d4eb2f)))
    (local.set $h (i32.mul (i32.xor (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 15))) (local.get $d)) (i32.const 0x165667b1)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (f64.div (f64.convert_i32_u (local.get $h)) (f64.const 4294967296)))

  ;; JavaScript's Math.round(x) | 0 (ToInt32: modulo 2^32) for |x| < 2^63.
  (func $roundInt32 (param $x f64) (result i32)
    (i32.wrap_i64 (i64.trunc_sat_f64_s (call $round (local.get $x)))))

  ;; lay(...): the lattice dabs k, k + 1, ... <= kEnd of one segment piece (plan.ts walk's loop:
  ;; s = k sp while s < end, dab at A + u (s - sA)), each through DabLayout.push without a pressure
  ;; curve ($hash01 and $roundInt32 above, kept as the readable form, are written out: a call per
  ;; dab cost more than the hashing). Writes the dabs that reach the canvas as f32 [cx, cy, r, m]
  ;; from byte $at; returns how many.
  (func (export "lay")
    (param $at i32) (param $ax f64) (param $ay f64) (param $ux f64) (param $uy f64) (param $sA f64)
    (param $k f64) (param $kEnd f64) (param $end f64) (param $shift f64) (param $sp f64)
    (param $baseW f64) (param $fkey i32) (param $quad i32)
    (result i32)
    (local $axv v128) (local $ayv v128) (local $uxv v128) (local $uyv v128) (local $sAv v128) (local $spv v128)
    (local $shiftv v128) (local $baseWv v128) (local $wMaxv v128) (local $x0v v128) (local $y0v v128)
    (local $nReachv v128) (local $xMaxv v128) (local $yMaxv v128) (local $gSizev v128) (local $gOpacityv v128)
    (local $gScatterv v128) (local $fv v128) (local $rv v128) (local $hv v128) (local $qxv v128) (local $qyv v128)
    (local $hSize v128) (local $hOpacity v128) (local $hScatter v128) (local $ov v128) (local $t v128) (local $t2 v128)
    (local $bits i32)
    (local $d0 v128) (local $wx0 v128) (local $wy0 v128) (local $qx0 v128) (local $qy0 v128) (local $w0 v128) (local $m0 v128) (local $keep0 v128)
    (local $d1 v128) (local $wx1 v128) (local $wy1 v128) (local $qx1 v128) (local $qy1 v128) (local $w1 v128) (local $m1 v128) (local $keep1 v128)
    (local $n i32) (local $p i32) (local $s f64) (local $d f64) (local $wx f64) (local $wy f64)
    (local $qx i32) (local $qy i32) (local $h i32) (local $gSize i32) (local $gOpacity i32) (local $gScatter i32) (local $rx f64) (local $rf f64) (local $w f64) (local $m f64) (local $o f64) (local $cx f64) (local $cy f64)
    ;; The hashes' first two rounds (the seed's and the feature's) are the same for every dab of
    ;; the call: each hash's state after them. (h >>> 0) / 2^32 is the exact product by 2^-32.
    (local.set $gSize (i32.xor (local.tee $h (i32.mul (i32.xor (i32.xor (local.tee $h (i32.mul (i32.xor (global.get $seed) (i32.const 0x9e3779b9)) (i32.const 0x85ebca6b))) (i32.shr_u (local.get $h) (i32.const 13))) (local.get $fkey)) (i32.const 0xc2b2ae35))) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $gOpacity (i32.xor (local.tee $h (i32.mul (i32.xor (i32.xor (local.tee $h (i32.mul (i32.xor (i32.xor (global.get $seed) (i32.const 0x2545f491)) (i32.const 0x9e3779b9)) (i32.const 0x85ebca6b))) (i32.shr_u (local.get $h) (i32.const 13))) (local.get $fkey)) (i32.const 0xc2b2ae35))) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $gScatter (i32.xor (local.tee $h (i32.mul (i32.xor (i32.xor (local.tee $h (i32.mul (i32.xor (i32.xor (global.get $seed) (i32.const 0x68e31da4)) (i32.const 0x9e3779b9)) (i32.const 0x85ebca6b))) (i32.shr_u (local.get $h) (i32.const 13))) (local.get $fkey)) (i32.const 0xc2b2ae35))) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $n (i32.const 0))
    ;; Four lattice dabs a step where $quad says their 1/8 px cells fit in an int32 (layPiece:
    ;; then the saturating conversion is ToInt32's): the scalar loop's f64 arithmetic per lane, in
    ;; the same order, the hashes on i32x4, a dab stored at once and counted if kept (the scalar
    ;; loop's skips as a mask). The scalar loop below lays what is left.
    (if (local.get $quad)
      (then
        (local.set $axv (f64x2.splat (local.get $ax)))
        (local.set $ayv (f64x2.splat (local.get $ay)))
        (local.set $uxv (f64x2.splat (local.get $ux)))
        (local.set $uyv (f64x2.splat (local.get $uy)))
        (local.set $sAv (f64x2.splat (local.get $sA)))
        (local.set $spv (f64x2.splat (local.get $sp)))
        (local.set $shiftv (f64x2.splat (local.get $shift)))
        (local.set $baseWv (f64x2.splat (local.get $baseW)))
        (local.set $wMaxv (f64x2.splat (global.get $widthMax)))
        (local.set $x0v (f64x2.splat (global.get $lx0)))
        (local.set $y0v (f64x2.splat (global.get $ly0)))
        (local.set $nReachv (f64x2.splat (f64.neg (global.get $reachMax))))
        (local.set $xMaxv (f64x2.splat (f64.add (global.get $lW) (global.get $reachMax))))
        (local.set $yMaxv (f64x2.splat (f64.add (global.get $lH) (global.get $reachMax))))
        (local.set $gSizev (i32x4.splat (local.get $gSize)))
        (local.set $gOpacityv (i32x4.splat (local.get $gOpacity)))
        (local.set $gScatterv (i32x4.splat (local.get $gScatter)))
        (block $quadsDone
          (loop $quads
            (br_if $quadsDone (f64.gt (f64.add (local.get $k) (f64.const 3)) (local.get $kEnd)))
            (br_if $quadsDone (i32.eqz (f64.lt (f64.mul (f64.add (local.get $k) (f64.const 3)) (local.get $sp)) (local.get $end))))
            (local.set $d0 (f64x2.sub (f64x2.mul (f64x2.add (f64x2.splat (local.get $k)) (v128.const f64x2 0 1)) (local.get $spv)) (local.get $sAv)))
            (local.set $wx0 (f64x2.add (local.get $axv) (f64x2.mul (local.get $uxv) (local.get $d0))))
            (local.set $wy0 (f64x2.add (local.get $ayv) (f64x2.mul (local.get $uyv) (local.get $d0))))
            (local.set $qx0 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect (f64x2.add (local.tee $fv (f64x2.floor (local.tee $rv (f64x2.mul (f64x2.sub (local.get $wx0) (local.get $shiftv)) (v128.const f64x2 8 8))))) (v128.const f64x2 1 1)) (local.get $fv) (f64x2.ge (f64x2.sub (local.get $rv) (local.get $fv)) (v128.const f64x2 0.5 0.5)))))
            (local.set $qy0 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect (f64x2.add (local.tee $fv (f64x2.floor (local.tee $rv (f64x2.mul (local.get $wy0) (v128.const f64x2 8 8))))) (v128.const f64x2 1 1)) (local.get $fv) (f64x2.ge (f64x2.sub (local.get $rv) (local.get $fv)) (v128.const f64x2 0.5 0.5)))))
            (local.set $d1 (f64x2.sub (f64x2.mul (f64x2.add (f64x2.splat (local.get $k)) (v128.const f64x2 2 3)) (local.get $spv)) (local.get $sAv)))
            (local.set $wx1 (f64x2.add (local.get $axv) (f64x2.mul (local.get $uxv) (local.get $d1))))
            (local.set $wy1 (f64x2.add (local.get $ayv) (f64x2.mul (local.get $uyv) (local.get $d1))))
            (local.set $qx1 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect (f64x2.add (local.tee $fv (f64x2.floor (local.tee $rv (f64x2.mul (f64x2.sub (local.get $wx1) (local.get $shiftv)) (v128.const f64x2 8 8))))) (v128.const f64x2 1 1)) (local.get $fv) (f64x2.ge (f64x2.sub (local.get $rv) (local.get $fv)) (v128.const f64x2 0.5 0.5)))))
            (local.set $qy1 (i32x4.trunc_sat_f64x2_s_zero (v128.bitselect (f64x2.add (local.tee $fv (f64x2.floor (local.tee $rv (f64x2.mul (local.get $wy1) (v128.const f64x2 8 8))))) (v128.const f64x2 1 1)) (local.get $fv) (f64x2.ge (f64x2.sub (local.get $rv) (local.get $fv)) (v128.const f64x2 0.5 0.5)))))
            (local.set $qxv (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $qx0) (local.get $qx1)))
            (local.set $qyv (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $qy0) (local.get $qy1)))
            (local.set $hv (i32x4.mul (v128.xor (local.get $gSizev) (local.get $qxv)) (v128.const i32x4 0x27d4eb2f 0x27d4eb2f 0x27d4eb2f 0x27d4eb2f)))
            (local.set $hv (i32x4.mul (v128.xor (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 15))) (v128.xor (local.get $qyv) (v128.const i32x4 0x51ed27 0x51ed27 0x51ed27 0x51ed27))) (v128.const i32x4 0x165667b1 0x165667b1 0x165667b1 0x165667b1)))
            (local.set $hSize (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 16))))
            (local.set $hv (i32x4.mul (v128.xor (local.get $gOpacityv) (local.get $qxv)) (v128.const i32x4 0x27d4eb2f 0x27d4eb2f 0x27d4eb2f 0x27d4eb2f)))
            (local.set $hv (i32x4.mul (v128.xor (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 15))) (local.get $qyv)) (v128.const i32x4 0x165667b1 0x165667b1 0x165667b1 0x165667b1)))
            (local.set $hOpacity (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 16))))
            (local.set $hv (i32x4.mul (v128.xor (local.get $gScatterv) (local.get $qxv)) (v128.const i32x4 0x27d4eb2f 0x27d4eb2f 0x27d4eb2f 0x27d4eb2f)))
            (local.set $hv (i32x4.mul (v128.xor (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 15))) (local.get $qyv)) (v128.const i32x4 0x165667b1 0x165667b1 0x165667b1 0x165667b1)))
            (local.set $hScatter (v128.xor (local.get $hv) (i32x4.shr_u (local.get $hv) (i32.const 16))))
            (local.set $w0 (local.get $baseWv))
            (local.set $m0 (f64x2.splat (global.get $opacity)))
            (if (f64.gt (global.get $sizeJitter) (f64.const 0))
              (then (local.set $w0 (f64x2.mul (local.get $w0) (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (f64x2.splat (global.get $sizeJitter))
                (f64x2.sub (f64x2.mul (v128.const f64x2 2 2) (f64x2.mul (f64x2.convert_low_i32x4_u (local.get $hSize)) (v128.const f64x2 0x1p-32 0x1p-32))) (v128.const f64x2 1 1))))))))
            (if (f64.gt (global.get $opacityJitter) (f64.const 0))
              (then (local.set $m0 (f64x2.mul (local.get $m0) (f64x2.sub (v128.const f64x2 1 1) (f64x2.mul (f64x2.splat (global.get $opacityJitter))
                (f64x2.mul (f64x2.convert_low_i32x4_u (local.get $hOpacity)) (v128.const f64x2 0x1p-32 0x1p-32))))))))
            (if (f64.gt (global.get $scatter) (f64.const 0))
              (then
                (local.set $ov (f64x2.mul (f64x2.splat (global.get $scatter)) (f64x2.sub (f64x2.mul (v128.const f64x2 2 2) (f64x2.mul (f64x2.convert_low_i32x4_u (local.get $hScatter)) (v128.const f64x2 0x1p-32 0x1p-32))) (v128.const f64x2 1 1))))
                (local.set $wx0 (f64x2.sub (local.get $wx0) (f64x2.mul (local.get $uyv) (local.get $ov))))
                (local.set $wy0 (f64x2.add (local.get $wy0) (f64x2.mul (local.get $uxv) (local.get $ov))))))
            (local.set $keep0 (v128.and (f64x2.gt (local.get $w0) (v128.const f64x2 0 0)) (f64x2.gt (local.get $m0) (v128.const f64x2 0 0))))
            (local.set $w0 (v128.bitselect (local.get $wMaxv) (local.get $w0) (f64x2.gt (local.get $w0) (local.get $wMaxv))))
            (local.set $t (f64x2.lt (local.get $w0) (v128.const f64x2 1 1)))
            (local.set $m0 (v128.bitselect (f64x2.mul (local.get $m0) (local.get $w0)) (local.get $m0) (local.get $t)))
            (local.set $w0 (v128.bitselect (v128.const f64x2 1 1) (local.get $w0) (local.get $t)))
            (local.set $wx0 (f64x2.sub (local.get $wx0) (local.get $x0v)))
            (local.set $wy0 (f64x2.sub (local.get $wy0) (local.get $y0v)))
            (local.set $keep0 (v128.andnot (v128.andnot (v128.andnot (v128.andnot (local.get $keep0)
              (f64x2.lt (local.get $wx0) (local.get $nReachv)))
              (f64x2.lt (local.get $wy0) (local.get $nReachv)))
              (f64x2.gt (local.get $wx0) (local.get $xMaxv)))
              (f64x2.gt (local.get $wy0) (local.get $yMaxv))))
        ;; f32 [cx, cy, w / 2, m] per dab: (cx0, cy0, cx1, cy1) and (r0, m0, r1, m1), then per dab
            (local.set $t (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23
              (f32x4.demote_f64x2_zero (local.get $wx0)) (f32x4.demote_f64x2_zero (local.get $wy0))))
            (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23
              (f32x4.demote_f64x2_zero (f64x2.mul (local.get $w0) (v128.const f64x2 0.5 0.5))) (f32x4.demote_f64x2_zero (local.get $m0))))
            (local.set $bits (i64x2.bitmask (local.get $keep0)))
            (v128.store (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 4)))
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t) (local.get $t2)))
            (local.set $n (i32.add (local.get $n) (i32.and (local.get $bits) (i32.const 1))))
            (v128.store (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 4)))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t) (local.get $t2)))
            (local.set $n (i32.add (local.get $n) (i32.shr_u (local.get $bits) (i32.const 1))))
            (local.set $w1 (local.get $baseWv))
            (local.set $m1 (f64x2.splat (global.get $opacity)))
            (if (f64.gt (global.get $sizeJitter) (f64.const 0))
              (then (local.set $w1 (f64x2.mul (local.get $w1) (f64x2.add (v128.const f64x2 1 1) (f64x2.mul (f64x2.splat (global.get $sizeJitter))
                (f64x2.sub (f64x2.mul (v128.const f64x2 2 2) (f64x2.mul (f64x2.convert_low_i32x4_u (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $hSize) (local.get $hSize))) (v128.const f64x2 0x1p-32 0x1p-32))) (v128.const f64x2 1 1))))))))
            (if (f64.gt (global.get $opacityJitter) (f64.const 0))
              (then (local.set $m1 (f64x2.mul (local.get $m1) (f64x2.sub (v128.const f64x2 1 1) (f64x2.mul (f64x2.splat (global.get $opacityJitter))
                (f64x2.mul (f64x2.convert_low_i32x4_u (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $hOpacity) (local.get $hOpacity))) (v128.const f64x2 0x1p-32 0x1p-32))))))))
            (if (f64.gt (global.get $scatter) (f64.const 0))
              (then
                (local.set $ov (f64x2.mul (f64x2.splat (global.get $scatter)) (f64x2.sub (f64x2.mul (v128.const f64x2 2 2) (f64x2.mul (f64x2.convert_low_i32x4_u (i8x16.shuffle 8 9 10 11 12 13 14 15 0 0 0 0 0 0 0 0 (local.get $hScatter) (local.get $hScatter))) (v128.const f64x2 0x1p-32 0x1p-32))) (v128.const f64x2 1 1))))
                (local.set $wx1 (f64x2.sub (local.get $wx1) (f64x2.mul (local.get $uyv) (local.get $ov))))
                (local.set $wy1 (f64x2.add (local.get $wy1) (f64x2.mul (local.get $uxv) (local.get $ov))))))
            (local.set $keep1 (v128.and (f64x2.gt (local.get $w1) (v128.const f64x2 0 0)) (f64x2.gt (local.get $m1) (v128.const f64x2 0 0))))
            (local.set $w1 (v128.bitselect (local.get $wMaxv) (local.get $w1) (f64x2.gt (local.get $w1) (local.get $wMaxv))))
            (local.set $t (f64x2.lt (local.get $w1) (v128.const f64x2 1 1)))
            (local.set $m1 (v128.bitselect (f64x2.mul (local.get $m1) (local.get $w1)) (local.get $m1) (local.get $t)))
            (local.set $w1 (v128.bitselect (v128.const f64x2 1 1) (local.get $w1) (local.get $t)))
            (local.set $wx1 (f64x2.sub (local.get $wx1) (local.get $x0v)))
            (local.set $wy1 (f64x2.sub (local.get $wy1) (local.get $y0v)))
            (local.set $keep1 (v128.andnot (v128.andnot (v128.andnot (v128.andnot (local.get $keep1)
              (f64x2.lt (local.get $wx1) (local.get $nReachv)))
              (f64x2.lt (local.get $wy1) (local.get $nReachv)))
              (f64x2.gt (local.get $wx1) (local.get $xMaxv)))
              (f64x2.gt (local.get $wy1) (local.get $yMaxv))))
        ;; f32 [cx, cy, w / 2, m] per dab: (cx0, cy0, cx1, cy1) and (r0, m0, r1, m1), then per dab
            (local.set $t (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23
              (f32x4.demote_f64x2_zero (local.get $wx1)) (f32x4.demote_f64x2_zero (local.get $wy1))))
            (local.set $t2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23
              (f32x4.demote_f64x2_zero (f64x2.mul (local.get $w1) (v128.const f64x2 0.5 0.5))) (f32x4.demote_f64x2_zero (local.get $m1))))
            (local.set $bits (i64x2.bitmask (local.get $keep1)))
            (v128.store (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 4)))
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $t) (local.get $t2)))
            (local.set $n (i32.add (local.get $n) (i32.and (local.get $bits) (i32.const 1))))
            (v128.store (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 4)))
              (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $t) (local.get $t2)))
            (local.set $n (i32.add (local.get $n) (i32.shr_u (local.get $bits) (i32.const 1))))
                (local.set $k (f64.add (local.get $k) (f64.const 4)))
                (br $quads)))))
    (local.set $s (f64.mul (local.get $k) (local.get $sp)))
    (block $done
      (loop $dab
        (br_if $done (i32.eqz (f64.lt (local.get $s) (local.get $end))))
        (br_if $done (f64.gt (local.get $k) (local.get $kEnd)))
        (block $next
          (local.set $d (f64.sub (local.get $s) (local.get $sA)))
          (local.set $wx (f64.add (local.get $ax) (f64.mul (local.get $ux) (local.get $d))))
          (local.set $wy (f64.add (local.get $ay) (f64.mul (local.get $uy) (local.get $d))))
          ;; jitter from the dab's world position in 1/8 px cells (x modulo the world) and the feature
          (local.set $qx (i32.wrap_i64 (i64.trunc_sat_f64_s (select (f64.add (local.tee $rf (f64.floor (local.tee $rx (f64.mul (f64.sub (local.get $wx) (local.get $shift)) (f64.const 8))))) (f64.const 1)) (local.get $rf) (f64.ge (f64.sub (local.get $rx) (local.get $rf)) (f64.const 0.5))))))
          (local.set $qy (i32.wrap_i64 (i64.trunc_sat_f64_s (select (f64.add (local.tee $rf (f64.floor (local.tee $rx (f64.mul (local.get $wy) (f64.const 8))))) (f64.const 1)) (local.get $rf) (f64.ge (f64.sub (local.get $rx) (local.get $rf)) (f64.const 0.5))))))
          (local.set $w (local.get $baseW))
          (local.set $m (global.get $opacity))
          (if (f64.gt (global.get $sizeJitter) (f64.const 0))
            (then (local.set $w (f64.mul (local.get $w) (f64.add (f64.const 1) (f64.mul (global.get $sizeJitter)
              (f64.sub (f64.mul (f64.const 2)
                (f64.mul (f64.convert_i32_u (i32.xor (local.tee $h (i32.mul (i32.xor (i32.xor (local.tee $h (i32.mul (i32.xor (local.get $gSize) (local.get $qx)) (i32.const 0x27d4eb2f))) (i32.shr_u (local.get $h) (i32.const 15))) (i32.xor (local.get $qy) (i32.const 0x51ed27))) (i32.const 0x165667b1))) (i32.shr_u (local.get $h) (i32.const 16)))) (f64.const 0x1p-32)))
                (f64.const 1))))))))
          (if (f64.gt (global.get $opacityJitter) (f64.const 0))
            (then (local.set $m (f64.mul (local.get $m) (f64.sub (f64.const 1) (f64.mul (global.get $opacityJitter)
              (f64.mul (f64.convert_i32_u (i32.xor (local.tee $h (i32.mul (i32.xor (i32.xor (local.tee $h (i32.mul (i32.xor (local.get $gOpacity) (local.get $qx)) (i32.const 0x27d4eb2f))) (i32.shr_u (local.get $h) (i32.const 15))) (local.get $qy)) (i32.const 0x165667b1))) (i32.shr_u (local.get $h) (i32.const 16)))) (f64.const 0x1p-32))))))))
          (if (f64.gt (global.get $scatter) (f64.const 0))
            (then
              (local.set $o (f64.mul (global.get $scatter) (f64.sub (f64.mul (f64.const 2)
                (f64.mul (f64.convert_i32_u (i32.xor (local.tee $h (i32.mul (i32.xor (i32.xor (local.tee $h (i32.mul (i32.xor (local.get $gScatter) (local.get $qx)) (i32.const 0x27d4eb2f))) (i32.shr_u (local.get $h) (i32.const 15))) (local.get $qy)) (i32.const 0x165667b1))) (i32.shr_u (local.get $h) (i32.const 16)))) (f64.const 0x1p-32)))
                (f64.const 1))))
              ;; perpendicular to the segment
              (local.set $wx (f64.sub (local.get $wx) (f64.mul (local.get $uy) (local.get $o))))
              (local.set $wy (f64.add (local.get $wy) (f64.mul (local.get $ux) (local.get $o))))))
          (br_if $next (i32.eqz (f64.gt (local.get $w) (f64.const 0))))
          (br_if $next (i32.eqz (f64.gt (local.get $m) (f64.const 0))))
          (if (f64.gt (local.get $w) (global.get $widthMax)) (then (local.set $w (global.get $widthMax))))
          ;; narrower than a pixel: a pixel wide, fainter in proportion (MIN_DAB_WIDTH = 1)
          (if (f64.lt (local.get $w) (f64.const 1))
            (then
              (local.set $m (f64.mul (local.get $m) (local.get $w)))
              (local.set $w (f64.const 1))))
          (local.set $cx (f64.sub (local.get $wx) (global.get $lx0)))
          (local.set $cy (f64.sub (local.get $wy) (global.get $ly0)))
          (br_if $next (f64.lt (local.get $cx) (f64.neg (global.get $reachMax))))
          (br_if $next (f64.lt (local.get $cy) (f64.neg (global.get $reachMax))))
          (br_if $next (f64.gt (local.get $cx) (f64.add (global.get $lW) (global.get $reachMax))))
          (br_if $next (f64.gt (local.get $cy) (f64.add (global.get $lH) (global.get $reachMax))))
          (local.set $p (i32.add (local.get $at) (i32.shl (local.get $n) (i32.const 4))))
          (f32.store (local.get $p) (f32.demote_f64 (local.get $cx)))
          (f32.store offset=4 (local.get $p) (f32.demote_f64 (local.get $cy)))
          (f32.store offset=8 (local.get $p) (f32.demote_f64 (f64.mul (local.get $w) (f64.const 0.5))))
          (f32.store offset=12 (local.get $p) (f32.demote_f64 (local.get $m)))
          (local.set $n (i32.add (local.get $n) (i32.const 1))))
        (local.set $k (f64.add (local.get $k) (f64.const 1)))
        (local.set $s (f64.mul (local.get $k) (local.get $sp)))
        (br $dab)))
    (local.get $n)))
