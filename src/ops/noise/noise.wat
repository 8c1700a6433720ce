;; noise's octaves in WebAssembly (cpu.ts `noise`, the same values as `noiseReference` bit for
;; bit): the f64 arithmetic of plan.ts's simplexNoise / valueNoise in the same order per sample,
;; the lattice hashes (lowbias32) as i32 arithmetic, the fBm sum kept in f64 and rounded to f32
;; once, as cpu.ts's TypeScript octaves do. simplex1, simplex2 and simplex3 are one body written
;; out for 1, 2 and 3 channels: two pixels of a row per f64x2 (each lane the scalar IEEE
;; operations, f64x2.floor included), a row in passes (issue 25, ninth round): the geometry of
;; every pair (the skew, the floors, x0 y0 z0 and the first corner's lattice-table offset, an i64
;; from the f64 floors), then each of the four corners over every pair (the simplex's ordering
;; from its three comparisons as lane masks, the falloff, the term added to the pair's sums in
;; the reference's corner order; a corner out of reach adds a masked +0, which leaves the sum's
;; value as it was), then the clamp and the fBm sum. Small passes keep V8's register allocator
;; from spilling the ~40 vectors one pass over all four corners held. A pair's two gradients are
;; read from a 12 x 12 table of gradient pairs (three 16-byte loads, not six lane loads); each
;; lane's gradient index from the lattice box's table, filled as corners first meet it.
;; value interpolates each lattice line along x once per line, then a row is one f64x2 pass over
;; the two interpolated lines. Compiled by scripts/gen-wasm.mjs; called from wasm.ts.
(module
  ;; the memory: wasm.ts gives one instance a scratch memory of its own (grown from JavaScript) and
  ;; one the canvas arena (src/util/wasm-arena.ts), whose first ARENA_RESERVED_BYTES hold this data
  ;; segment (written at instantiation) and whose canvases it writes the result into in place
  (import "env" "mem" (memory 1))
  ;; The 12 gradients of 3-D simplex noise (plan.ts GX, GY, GZ) as f64 (x, y, z, 0) at 32 g.
  (data (i32.const 0)
    "\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\00\00\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\00\00\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\00\00\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\00\00\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\f0\3f\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\00\00"
    "\00\00\00\00\00\00\00\00\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\f0\bf\00\00\00\00\00\00\00\00"
  )
  ;; simplex's per-call state, read by $gradient
  (global $seeds (mut i32) (i32.const 0))
  (global $cx (mut i32) (i32.const 0))
  (global $cy (mut i32) (i32.const 0))
  (global $cz (mut i32) (i32.const 0))
  ;; the lattice box's origin and table strides, read by $gradientAt
  (global $i0 (mut i32) (i32.const 0))
  (global $j0 (mut i32) (i32.const 0))
  (global $k0 (mut i32) (i32.const 0))
  (global $sI (mut i32) (i32.const 0))
  (global $sJ (mut i32) (i32.const 0))
  (global $sK (mut i32) (i32.const 1))

  ;; plan.ts hash32 (lowbias32)
  (func $hash (param $v i32) (result i32)
    (local.set $v (i32.xor (local.get $v) (i32.shr_u (local.get $v) (i32.const 16))))
    (local.set $v (i32.mul (local.get $v) (i32.const 0x7feb352d)))
    (local.set $v (i32.xor (local.get $v) (i32.shr_u (local.get $v) (i32.const 15))))
    (local.set $v (i32.mul (local.get $v) (i32.const 0x846ca68b)))
    (i32.xor (local.get $v) (i32.shr_u (local.get $v) (i32.const 16))))

  ;; The gradient index (plan.ts latticeHash3 % 12) of channel c at lattice point (li, lj, lk)
  ;; relative to the origin cell.
  (func $gradient (param $li i32) (param $lj i32) (param $lk i32) (param $c i32) (result i32)
    (i32.rem_u
      (call $hash (i32.xor (i32.add (global.get $cx) (local.get $li))
        (call $hash (i32.xor (i32.add (global.get $cy) (local.get $lj))
          (call $hash (i32.xor (i32.add (global.get $cz) (local.get $lk))
            (i32.load (i32.add (global.get $seeds) (i32.shl (local.get $c) (i32.const 2))))))))))
      (i32.const 12)))

  ;; The gradient index of channel c at table offset idx of the lattice box (its point
  ;; (i0 + idx / sI, j0 + (idx mod sI) / sJ, k0 + (idx mod sJ) / sK)): a corner that meets it first.
  (func $gradientAt (param $idx i32) (param $c i32) (result i32)
    (local $li i32) (local $rem i32) (local $lj i32)
    (local.set $li (i32.div_u (local.get $idx) (global.get $sI)))
    (local.set $rem (i32.sub (local.get $idx) (i32.mul (local.get $li) (global.get $sI))))
    (local.set $lj (i32.div_u (local.get $rem) (global.get $sJ)))
    (call $gradient (i32.add (global.get $i0) (local.get $li)) (i32.add (global.get $j0) (local.get $lj))
      (i32.add (global.get $k0) (i32.div_u (i32.sub (local.get $rem) (i32.mul (local.get $lj) (global.get $sJ))) (global.get $sK)))
      (local.get $c)))

  ;; simplex1(X, Y, Z, w, h, grads, sI, sJ, i0, j0, k0, cx, cy, cz, seeds, weight, acc, first, pairs, rb, spans, ns): one
  ;; octave of simplex noise of 1 channel (cpu.ts simplexOctave) added to `acc` (f64, pixel-major;
  ;; first: acc = 0 + v). X, Z: f64 per column (w + 1 of them: the last one again, so a pair
  ;; never reads past them), Y: f64 per row; the gradient table of the lattice box [i0, ..) x
  ;; [j0, ..) x [k0, ..) at `grads`, strides sI, sJ, 1 byte; `seeds`: 1 u32; `pairs`: the gradient pair
  ;; table (pairs below); `rb`: scratch of (w + 1) / 2 (64 + 16) bytes; `spans`: the ns runs
  ;; of pixels it computes (three i32 each: row, first column, count; (j, 0, w) for every row j of a
  ;; whole canvas: wasm.ts), the other sums left as they are. Two pixels of a row per f64x2 (lanes:
  ;; columns i, i + 1), each lane the scalar IEEE operations of plan.ts's simplexNoise in its order, a
  ;; row in passes: the geometry of every pair (x0, y0, z0 and the first corner's table offset),
  ;; then each corner in turn for every pair (its term added to the pair's sums in the reference's
  ;; corner order), then the clamp and the fBm sum; an odd last pixel is a pair whose second lane is not stored.
  (func (export "simplex1")
    (param $X i32) (param $Y i32) (param $Z i32) (param $w i32) (param $h i32)
    (param $grads i32) (param $sI i32) (param $sJ i32) (param $i0 i32) (param $j0 i32) (param $k0 i32)
    (param $cx i32) (param $cy i32) (param $cz i32) (param $seeds i32)
    (param $weight f64) (param $acc i32) (param $first i32) (param $pairs i32) (param $rb i32) (param $spans i32) (param $ns i32)
    (local $j i32) (local $k i32) (local $cnt i32) (local $sp i32) (local $p i32) (local $np i32) (local $q i32) (local $g i32) (local $n i32) (local $sums i32) (local $xa i32)
    (local $at0 i32) (local $at1 i32) (local $ix0 i32) (local $ix1 i32) (local $w0 i32) (local $w1 i32) (local $gp i32)
    (local $px v128) (local $py v128) (local $pz v128) (local $s v128) (local $fi v128) (local $fj v128) (local $fk v128) (local $t v128)
    (local $x0 v128) (local $y0 v128) (local $z0 v128) (local $x v128) (local $y v128) (local $z v128)
    (local $a v128) (local $b v128) (local $c v128) (local $mi v128) (local $mj v128) (local $mk v128) (local $idx v128)
    (local $r v128) (local $f v128) (local $v v128) (local $one v128) (local $keep v128) (local $zero v128) (local $half v128)
    (local $weight2 v128) (local $sIf v128) (local $sJf v128) (local $sKf v128) (local $magic v128) (local $orig v128)
    (local $sI2 v128) (local $sJ2 v128) (local $sK2 v128) (local $far v128)
    (global.set $seeds (local.get $seeds))
    (global.set $cx (local.get $cx))
    (global.set $cy (local.get $cy))
    (global.set $cz (local.get $cz))
    (global.set $i0 (local.get $i0))
    (global.set $j0 (local.get $j0))
    (global.set $k0 (local.get $k0))
    (global.set $sI (local.get $sI))
    (global.set $sJ (local.get $sJ))
    (global.set $sK (i32.const 1))
    (local.set $one (f64x2.splat (f64.const 1)))
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $half (f64x2.splat (f64.const 0.5)))
    (local.set $weight2 (f64x2.splat (local.get $weight)))
    ;; the sum so far, or +0 on the first octave (the reference's 0 + v)
    (local.set $keep (i64x2.splat (i64.sub (i64.const 0) (i64.extend_i32_u (i32.eqz (local.get $first))))))
    ;; the first corner's table offset (si - i0) sI + (sj - j0) sJ + (sk - k0) 1 from the floors in f64 (small
    ;; integers: exact), as an i64 by adding 1.5 2^52 (then bits(1.5 2^52 + v) = bits(1.5 2^52) + v)
    (local.set $sIf (f64x2.splat (f64.convert_i32_s (local.get $sI))))
    (local.set $sJf (f64x2.splat (f64.convert_i32_s (local.get $sJ))))
    (local.set $sKf (f64x2.splat (f64.const 1)))
    (local.set $magic (f64x2.splat (f64.const 0x1.8p52)))
    (local.set $orig (i64x2.splat (i64.add (i64.const 0x4338000000000000) (i64.extend_i32_s (i32.add (i32.add
      (i32.mul (local.get $i0) (local.get $sI)) (i32.mul (local.get $j0) (local.get $sJ))) (i32.mul (local.get $k0) (i32.const 1)))))))
    (local.set $sI2 (i64x2.splat (i64.extend_i32_u (local.get $sI))))
    (local.set $sJ2 (i64x2.splat (i64.extend_i32_u (local.get $sJ))))
    (local.set $sK2 (i64x2.splat (i64.const 1)))
    (local.set $far (i64x2.splat (i64.extend_i32_u (i32.add (i32.add (local.get $sI) (local.get $sJ)) (i32.const 1)))))
    (local.set $np (i32.shr_u (i32.add (local.get $w) (i32.const 1)) (i32.const 1)))
    (local.set $sums (i32.add (local.get $rb) (i32.shl (local.get $np) (i32.const 6))))
    (local.set $sp (local.get $spans))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $ns)))
        ;; span k (three i32 at sp): row j, columns x .. x + cnt - 1; its sums from acc + (j w + x) 1 8
        (local.set $j (i32.load (local.get $sp)))
        (local.set $xa (i32.load offset=4 (local.get $sp)))
        (local.set $cnt (i32.load offset=8 (local.get $sp)))
        (local.set $np (i32.shr_u (i32.add (local.get $cnt) (i32.const 1)) (i32.const 1)))
        (local.set $q (i32.add (local.get $acc) (i32.shl (i32.mul (i32.add (i32.mul (local.get $j) (local.get $w)) (local.get $xa)) (i32.const 1)) (i32.const 3))))
        (local.set $xa (i32.shl (local.get $xa) (i32.const 3)))
        (local.set $py (v128.load64_splat (i32.add (local.get $Y) (i32.shl (local.get $j) (i32.const 3)))))
        ;; the geometry of every pair: plan.ts simplexNoise's arithmetic in its order
        (local.set $g (local.get $rb))
        (local.set $p (i32.const 0))
        (block $geometryDone
          (loop $geometry
            (br_if $geometryDone (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $px (v128.load (i32.add (local.get $X) (local.get $xa))))
            (local.set $pz (v128.load (i32.add (local.get $Z) (local.get $xa))))
            (local.set $s (f64x2.mul (f64x2.add (f64x2.add (local.get $px) (local.get $py)) (local.get $pz)) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $fi (f64x2.floor (f64x2.add (local.get $px) (local.get $s))))
            (local.set $fj (f64x2.floor (f64x2.add (local.get $py) (local.get $s))))
            (local.set $fk (f64x2.floor (f64x2.add (local.get $pz) (local.get $s))))
            (local.set $t (f64x2.mul (f64x2.add (f64x2.add (local.get $fi) (local.get $fj)) (local.get $fk)) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (v128.store (local.get $g) (f64x2.sub (local.get $px) (f64x2.sub (local.get $fi) (local.get $t))))
            (v128.store offset=16 (local.get $g) (f64x2.sub (local.get $py) (f64x2.sub (local.get $fj) (local.get $t))))
            (v128.store offset=32 (local.get $g) (f64x2.sub (local.get $pz) (f64x2.sub (local.get $fk) (local.get $t))))
            (v128.store offset=48 (local.get $g) (i64x2.sub (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $fi) (local.get $sIf))
              (f64x2.mul (local.get $fj) (local.get $sJf))) (f64x2.mul (local.get $fk) (local.get $sKf))) (local.get $magic)) (local.get $orig)))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $xa (i32.add (local.get $xa) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $geometry)))
        ;; corner 0 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c0Done
          (loop $c0
            (br_if $c0Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            (local.set $x (local.get $x0)) (local.set $y (local.get $y0)) (local.set $z (local.get $z0))
            (local.set $idx (v128.load offset=48 (local.get $g)))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load8_s (local.get $at0)))
            (local.set $w1 (i32.load8_s (local.get $at1)))
            (if (i32.lt_s (i32.or (local.get $w0) (local.get $w1)) (i32.const 0)) (then
              (if (i32.lt_s (local.get $w0) (i32.const 0)) (then (local.set $w0 (call $gradientAt (local.get $ix0) (i32.const 0))) (i32.store8 (local.get $at0) (local.get $w0))))
              (if (i32.lt_s (local.get $w1) (i32.const 0)) (then (local.set $w1 (call $gradientAt (local.get $ix1) (i32.const 0))) (i32.store8 (local.get $at1) (local.get $w1))))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (local.get $w0) (i32.const 576)) (i32.mul (local.get $w1) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (local.get $zero) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c0)))
        ;; corner 1 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c1Done
          (loop $c1
            (br_if $c1Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            ;; plan.ts's ordering: a: x0 >= y0, b: y0 >= z0, c: x0 >= z0; i1 = a c, j1 = !a b, k1 = !(a ? c : b)
            (local.set $a (f64x2.ge (local.get $x0) (local.get $y0)))
            (local.set $b (f64x2.ge (local.get $y0) (local.get $z0)))
            (local.set $c (f64x2.ge (local.get $x0) (local.get $z0)))
            (local.set $mi (v128.and (local.get $a) (local.get $c)))
            (local.set $mj (v128.andnot (local.get $b) (local.get $a)))
            (local.set $mk (v128.bitselect (local.get $c) (local.get $b) (local.get $a)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (v128.and (local.get $mi) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (v128.and (local.get $mj) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (v128.andnot (local.get $one) (local.get $mk))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (i64x2.add (i64x2.add (v128.and (local.get $mi) (local.get $sI2))
              (v128.and (local.get $mj) (local.get $sJ2))) (v128.andnot (local.get $sK2) (local.get $mk)))))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load8_s (local.get $at0)))
            (local.set $w1 (i32.load8_s (local.get $at1)))
            (if (i32.lt_s (i32.or (local.get $w0) (local.get $w1)) (i32.const 0)) (then
              (if (i32.lt_s (local.get $w0) (i32.const 0)) (then (local.set $w0 (call $gradientAt (local.get $ix0) (i32.const 0))) (i32.store8 (local.get $at0) (local.get $w0))))
              (if (i32.lt_s (local.get $w1) (i32.const 0)) (then (local.set $w1 (call $gradientAt (local.get $ix1) (i32.const 0))) (i32.store8 (local.get $at1) (local.get $w1))))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (local.get $w0) (i32.const 576)) (i32.mul (local.get $w1) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c1)))
        ;; corner 2 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c2Done
          (loop $c2
            (br_if $c2Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            ;; i2 = a | c, j2 = !(a !b), k2 = !(a ? b : c)
            (local.set $a (f64x2.ge (local.get $x0) (local.get $y0)))
            (local.set $b (f64x2.ge (local.get $y0) (local.get $z0)))
            (local.set $c (f64x2.ge (local.get $x0) (local.get $z0)))
            (local.set $mi (v128.or (local.get $a) (local.get $c)))
            (local.set $mj (v128.andnot (local.get $a) (local.get $b)))
            (local.set $mk (v128.bitselect (local.get $b) (local.get $c) (local.get $a)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (v128.and (local.get $mi) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (v128.andnot (local.get $one) (local.get $mj))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (v128.andnot (local.get $one) (local.get $mk))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (i64x2.add (i64x2.add (v128.and (local.get $mi) (local.get $sI2))
              (v128.andnot (local.get $sJ2) (local.get $mj))) (v128.andnot (local.get $sK2) (local.get $mk)))))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load8_s (local.get $at0)))
            (local.set $w1 (i32.load8_s (local.get $at1)))
            (if (i32.lt_s (i32.or (local.get $w0) (local.get $w1)) (i32.const 0)) (then
              (if (i32.lt_s (local.get $w0) (i32.const 0)) (then (local.set $w0 (call $gradientAt (local.get $ix0) (i32.const 0))) (i32.store8 (local.get $at0) (local.get $w0))))
              (if (i32.lt_s (local.get $w1) (i32.const 0)) (then (local.set $w1 (call $gradientAt (local.get $ix1) (i32.const 0))) (i32.store8 (local.get $at1) (local.get $w1))))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (local.get $w0) (i32.const 576)) (i32.mul (local.get $w1) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c2)))
        ;; corner 3 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c3Done
          (loop $c3
            (br_if $c3Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (local.get $one)) (local.get $half)))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (local.get $one)) (local.get $half)))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (local.get $one)) (local.get $half)))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (local.get $far)))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load8_s (local.get $at0)))
            (local.set $w1 (i32.load8_s (local.get $at1)))
            (if (i32.lt_s (i32.or (local.get $w0) (local.get $w1)) (i32.const 0)) (then
              (if (i32.lt_s (local.get $w0) (i32.const 0)) (then (local.set $w0 (call $gradientAt (local.get $ix0) (i32.const 0))) (i32.store8 (local.get $at0) (local.get $w0))))
              (if (i32.lt_s (local.get $w1) (i32.const 0)) (then (local.set $w1 (call $gradientAt (local.get $ix1) (i32.const 0))) (i32.store8 (local.get $at1) (local.get $w1))))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (local.get $w0) (i32.const 576)) (i32.mul (local.get $w1) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c3)))
        ;; the clamp, the weight and the fBm sum
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $finalDone
          (loop $final
            (br_if $finalDone (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $v (f64x2.add (local.get $half) (f64x2.mul (f64x2.splat (f64.const 38)) (v128.load offset=0 (local.get $n)))))
            (local.set $v (v128.bitselect (local.get $one) (local.get $v) (f64x2.gt (local.get $v) (local.get $one))))
            (local.set $x (f64x2.mul (local.get $weight2) (v128.andnot (local.get $v) (f64x2.lt (local.get $v) (local.get $zero)))))
            ;; added to the sums, pixel-major (1 channel): both pixels, or only the first where it is the row's last
            (if (i32.and (i32.eq (i32.add (local.get $p) (i32.const 1)) (local.get $np)) (i32.and (local.get $cnt) (i32.const 1)))
              (then (f64.store (local.get $q) (f64.add (select (f64.const 0) (f64.load (local.get $q)) (local.get $first)) (f64x2.extract_lane 0 (local.get $x))))
                (local.set $q (i32.add (local.get $q) (i32.const 8))))
              (else (v128.store (local.get $q) (f64x2.add (v128.and (v128.load (local.get $q)) (local.get $keep)) (local.get $x)))
                (local.set $q (i32.add (local.get $q) (i32.const 16)))))
            (local.set $n (i32.add (local.get $n) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $final)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (local.set $sp (i32.add (local.get $sp) (i32.const 12)))
        (br $rows))))

  ;; simplex3(X, Y, Z, w, h, grads, sI, sJ, i0, j0, k0, cx, cy, cz, seeds, weight, acc, first, pairs, rb, spans, ns): one
  ;; octave of simplex noise of 3 channels (cpu.ts simplexOctave) added to `acc` (f64, pixel-major;
  ;; first: acc = 0 + v). X, Z: f64 per column (w + 1 of them: the last one again, so a pair
  ;; never reads past them), Y: f64 per row; the gradient table of the lattice box [i0, ..) x
  ;; [j0, ..) x [k0, ..) at `grads`, strides sI, sJ, 3 bytes; `seeds`: 3 u32; `pairs`: the gradient pair
  ;; table (pairs below); `rb`: scratch of (w + 1) / 2 (64 + 48) bytes; `spans`: the ns runs
  ;; of pixels it computes (three i32 each: row, first column, count; (j, 0, w) for every row j of a
  ;; whole canvas: wasm.ts), the other sums left as they are. Two pixels of a row per f64x2 (lanes:
  ;; columns i, i + 1), each lane the scalar IEEE operations of plan.ts's simplexNoise in its order, a
  ;; row in passes: the geometry of every pair (x0, y0, z0 and the first corner's table offset),
  ;; then each corner in turn for every pair (its term added to the pair's sums in the reference's
  ;; corner order), then the clamp and the fBm sum; an odd last pixel is a pair whose second lane is not stored.
  (func (export "simplex3")
    (param $X i32) (param $Y i32) (param $Z i32) (param $w i32) (param $h i32)
    (param $grads i32) (param $sI i32) (param $sJ i32) (param $i0 i32) (param $j0 i32) (param $k0 i32)
    (param $cx i32) (param $cy i32) (param $cz i32) (param $seeds i32)
    (param $weight f64) (param $acc i32) (param $first i32) (param $pairs i32) (param $rb i32) (param $spans i32) (param $ns i32)
    (local $j i32) (local $k i32) (local $cnt i32) (local $sp i32) (local $p i32) (local $np i32) (local $q i32) (local $g i32) (local $n i32) (local $sums i32) (local $xa i32)
    (local $at0 i32) (local $at1 i32) (local $ix0 i32) (local $ix1 i32) (local $w0 i32) (local $w1 i32) (local $gp i32)
    (local $px v128) (local $py v128) (local $pz v128) (local $s v128) (local $fi v128) (local $fj v128) (local $fk v128) (local $t v128)
    (local $x0 v128) (local $y0 v128) (local $z0 v128) (local $x v128) (local $y v128) (local $z v128)
    (local $a v128) (local $b v128) (local $c v128) (local $mi v128) (local $mj v128) (local $mk v128) (local $idx v128)
    (local $r v128) (local $f v128) (local $v v128) (local $one v128) (local $keep v128) (local $zero v128) (local $half v128)
    (local $weight2 v128) (local $sIf v128) (local $sJf v128) (local $sKf v128) (local $magic v128) (local $orig v128)
    (local $sI2 v128) (local $sJ2 v128) (local $sK2 v128) (local $far v128)
    (global.set $seeds (local.get $seeds))
    (global.set $cx (local.get $cx))
    (global.set $cy (local.get $cy))
    (global.set $cz (local.get $cz))
    (global.set $i0 (local.get $i0))
    (global.set $j0 (local.get $j0))
    (global.set $k0 (local.get $k0))
    (global.set $sI (local.get $sI))
    (global.set $sJ (local.get $sJ))
    (global.set $sK (i32.const 3))
    (local.set $one (f64x2.splat (f64.const 1)))
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $half (f64x2.splat (f64.const 0.5)))
    (local.set $weight2 (f64x2.splat (local.get $weight)))
    ;; the sum so far, or +0 on the first octave (the reference's 0 + v)
    (local.set $keep (i64x2.splat (i64.sub (i64.const 0) (i64.extend_i32_u (i32.eqz (local.get $first))))))
    ;; the first corner's table offset (si - i0) sI + (sj - j0) sJ + (sk - k0) 3 from the floors in f64 (small
    ;; integers: exact), as an i64 by adding 1.5 2^52 (then bits(1.5 2^52 + v) = bits(1.5 2^52) + v)
    (local.set $sIf (f64x2.splat (f64.convert_i32_s (local.get $sI))))
    (local.set $sJf (f64x2.splat (f64.convert_i32_s (local.get $sJ))))
    (local.set $sKf (f64x2.splat (f64.const 3)))
    (local.set $magic (f64x2.splat (f64.const 0x1.8p52)))
    (local.set $orig (i64x2.splat (i64.add (i64.const 0x4338000000000000) (i64.extend_i32_s (i32.add (i32.add
      (i32.mul (local.get $i0) (local.get $sI)) (i32.mul (local.get $j0) (local.get $sJ))) (i32.mul (local.get $k0) (i32.const 3)))))))
    (local.set $sI2 (i64x2.splat (i64.extend_i32_u (local.get $sI))))
    (local.set $sJ2 (i64x2.splat (i64.extend_i32_u (local.get $sJ))))
    (local.set $sK2 (i64x2.splat (i64.const 3)))
    (local.set $far (i64x2.splat (i64.extend_i32_u (i32.add (i32.add (local.get $sI) (local.get $sJ)) (i32.const 3)))))
    (local.set $np (i32.shr_u (i32.add (local.get $w) (i32.const 1)) (i32.const 1)))
    (local.set $sums (i32.add (local.get $rb) (i32.shl (local.get $np) (i32.const 6))))
    (local.set $sp (local.get $spans))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $ns)))
        ;; span k (three i32 at sp): row j, columns x .. x + cnt - 1; its sums from acc + (j w + x) 3 8
        (local.set $j (i32.load (local.get $sp)))
        (local.set $xa (i32.load offset=4 (local.get $sp)))
        (local.set $cnt (i32.load offset=8 (local.get $sp)))
        (local.set $np (i32.shr_u (i32.add (local.get $cnt) (i32.const 1)) (i32.const 1)))
        (local.set $q (i32.add (local.get $acc) (i32.shl (i32.mul (i32.add (i32.mul (local.get $j) (local.get $w)) (local.get $xa)) (i32.const 3)) (i32.const 3))))
        (local.set $xa (i32.shl (local.get $xa) (i32.const 3)))
        (local.set $py (v128.load64_splat (i32.add (local.get $Y) (i32.shl (local.get $j) (i32.const 3)))))
        ;; the geometry of every pair: plan.ts simplexNoise's arithmetic in its order
        (local.set $g (local.get $rb))
        (local.set $p (i32.const 0))
        (block $geometryDone
          (loop $geometry
            (br_if $geometryDone (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $px (v128.load (i32.add (local.get $X) (local.get $xa))))
            (local.set $pz (v128.load (i32.add (local.get $Z) (local.get $xa))))
            (local.set $s (f64x2.mul (f64x2.add (f64x2.add (local.get $px) (local.get $py)) (local.get $pz)) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $fi (f64x2.floor (f64x2.add (local.get $px) (local.get $s))))
            (local.set $fj (f64x2.floor (f64x2.add (local.get $py) (local.get $s))))
            (local.set $fk (f64x2.floor (f64x2.add (local.get $pz) (local.get $s))))
            (local.set $t (f64x2.mul (f64x2.add (f64x2.add (local.get $fi) (local.get $fj)) (local.get $fk)) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (v128.store (local.get $g) (f64x2.sub (local.get $px) (f64x2.sub (local.get $fi) (local.get $t))))
            (v128.store offset=16 (local.get $g) (f64x2.sub (local.get $py) (f64x2.sub (local.get $fj) (local.get $t))))
            (v128.store offset=32 (local.get $g) (f64x2.sub (local.get $pz) (f64x2.sub (local.get $fk) (local.get $t))))
            (v128.store offset=48 (local.get $g) (i64x2.sub (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $fi) (local.get $sIf))
              (f64x2.mul (local.get $fj) (local.get $sJf))) (f64x2.mul (local.get $fk) (local.get $sKf))) (local.get $magic)) (local.get $orig)))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $xa (i32.add (local.get $xa) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $geometry)))
        ;; corner 0 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c0Done
          (loop $c0
            (br_if $c0Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            (local.set $x (local.get $x0)) (local.set $y (local.get $y0)) (local.set $z (local.get $z0))
            (local.set $idx (v128.load offset=48 (local.get $g)))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load (local.get $at0)))
            (local.set $w1 (i32.load (local.get $at1)))
            (if (i32.and (i32.or (local.get $w0) (local.get $w1)) (i32.const 0x808080)) (then
              (local.set $w0 (call $gradients3 (local.get $ix0) (local.get $at0)))
              (local.set $w1 (call $gradients3 (local.get $ix1) (local.get $at1)))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (local.get $w0) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (local.get $zero) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 1: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=16 (local.get $n) (f64x2.add (local.get $zero) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 2: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 16)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 16)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=32 (local.get $n) (f64x2.add (local.get $zero) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 48)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c0)))
        ;; corner 1 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c1Done
          (loop $c1
            (br_if $c1Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            ;; plan.ts's ordering: a: x0 >= y0, b: y0 >= z0, c: x0 >= z0; i1 = a c, j1 = !a b, k1 = !(a ? c : b)
            (local.set $a (f64x2.ge (local.get $x0) (local.get $y0)))
            (local.set $b (f64x2.ge (local.get $y0) (local.get $z0)))
            (local.set $c (f64x2.ge (local.get $x0) (local.get $z0)))
            (local.set $mi (v128.and (local.get $a) (local.get $c)))
            (local.set $mj (v128.andnot (local.get $b) (local.get $a)))
            (local.set $mk (v128.bitselect (local.get $c) (local.get $b) (local.get $a)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (v128.and (local.get $mi) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (v128.and (local.get $mj) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (v128.andnot (local.get $one) (local.get $mk))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (i64x2.add (i64x2.add (v128.and (local.get $mi) (local.get $sI2))
              (v128.and (local.get $mj) (local.get $sJ2))) (v128.andnot (local.get $sK2) (local.get $mk)))))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load (local.get $at0)))
            (local.set $w1 (i32.load (local.get $at1)))
            (if (i32.and (i32.or (local.get $w0) (local.get $w1)) (i32.const 0x808080)) (then
              (local.set $w0 (call $gradients3 (local.get $ix0) (local.get $at0)))
              (local.set $w1 (call $gradients3 (local.get $ix1) (local.get $at1)))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (local.get $w0) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 1: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=16 (local.get $n) (f64x2.add (v128.load offset=16 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 2: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 16)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 16)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=32 (local.get $n) (f64x2.add (v128.load offset=32 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 48)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c1)))
        ;; corner 2 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c2Done
          (loop $c2
            (br_if $c2Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            ;; i2 = a | c, j2 = !(a !b), k2 = !(a ? b : c)
            (local.set $a (f64x2.ge (local.get $x0) (local.get $y0)))
            (local.set $b (f64x2.ge (local.get $y0) (local.get $z0)))
            (local.set $c (f64x2.ge (local.get $x0) (local.get $z0)))
            (local.set $mi (v128.or (local.get $a) (local.get $c)))
            (local.set $mj (v128.andnot (local.get $a) (local.get $b)))
            (local.set $mk (v128.bitselect (local.get $b) (local.get $c) (local.get $a)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (v128.and (local.get $mi) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (v128.andnot (local.get $one) (local.get $mj))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (v128.andnot (local.get $one) (local.get $mk))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (i64x2.add (i64x2.add (v128.and (local.get $mi) (local.get $sI2))
              (v128.andnot (local.get $sJ2) (local.get $mj))) (v128.andnot (local.get $sK2) (local.get $mk)))))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load (local.get $at0)))
            (local.set $w1 (i32.load (local.get $at1)))
            (if (i32.and (i32.or (local.get $w0) (local.get $w1)) (i32.const 0x808080)) (then
              (local.set $w0 (call $gradients3 (local.get $ix0) (local.get $at0)))
              (local.set $w1 (call $gradients3 (local.get $ix1) (local.get $at1)))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (local.get $w0) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 1: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=16 (local.get $n) (f64x2.add (v128.load offset=16 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 2: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 16)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 16)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=32 (local.get $n) (f64x2.add (v128.load offset=32 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 48)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c2)))
        ;; corner 3 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c3Done
          (loop $c3
            (br_if $c3Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (local.get $one)) (local.get $half)))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (local.get $one)) (local.get $half)))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (local.get $one)) (local.get $half)))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (local.get $far)))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load (local.get $at0)))
            (local.set $w1 (i32.load (local.get $at1)))
            (if (i32.and (i32.or (local.get $w0) (local.get $w1)) (i32.const 0x808080)) (then
              (local.set $w0 (call $gradients3 (local.get $ix0) (local.get $at0)))
              (local.set $w1 (call $gradients3 (local.get $ix1) (local.get $at1)))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (local.get $w0) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 1: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=16 (local.get $n) (f64x2.add (v128.load offset=16 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 2: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 16)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 16)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=32 (local.get $n) (f64x2.add (v128.load offset=32 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 48)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c3)))
        ;; the clamp, the weight and the fBm sum
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $finalDone
          (loop $final
            (br_if $finalDone (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $v (f64x2.add (local.get $half) (f64x2.mul (f64x2.splat (f64.const 38)) (v128.load offset=0 (local.get $n)))))
            (local.set $v (v128.bitselect (local.get $one) (local.get $v) (f64x2.gt (local.get $v) (local.get $one))))
            (local.set $x (f64x2.mul (local.get $weight2) (v128.andnot (local.get $v) (f64x2.lt (local.get $v) (local.get $zero)))))
            (local.set $v (f64x2.add (local.get $half) (f64x2.mul (f64x2.splat (f64.const 38)) (v128.load offset=16 (local.get $n)))))
            (local.set $v (v128.bitselect (local.get $one) (local.get $v) (f64x2.gt (local.get $v) (local.get $one))))
            (local.set $y (f64x2.mul (local.get $weight2) (v128.andnot (local.get $v) (f64x2.lt (local.get $v) (local.get $zero)))))
            (local.set $v (f64x2.add (local.get $half) (f64x2.mul (f64x2.splat (f64.const 38)) (v128.load offset=32 (local.get $n)))))
            (local.set $v (v128.bitselect (local.get $one) (local.get $v) (f64x2.gt (local.get $v) (local.get $one))))
            (local.set $z (f64x2.mul (local.get $weight2) (v128.andnot (local.get $v) (f64x2.lt (local.get $v) (local.get $zero)))))
            ;; added to the sums, pixel-major (3 channels): both pixels, or only the first where it is the row's last
            ;; pixel i: (R G) (B of i, R of i + 1) (G B of i + 1)
            (v128.store (local.get $q) (f64x2.add (v128.and (v128.load (local.get $q)) (local.get $keep))
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $x) (local.get $y))))
            (if (i32.and (i32.eq (i32.add (local.get $p) (i32.const 1)) (local.get $np)) (i32.and (local.get $cnt) (i32.const 1)))
              (then (f64.store offset=16 (local.get $q) (f64.add (select (f64.const 0) (f64.load offset=16 (local.get $q)) (local.get $first)) (f64x2.extract_lane 0 (local.get $z))))
                (local.set $q (i32.add (local.get $q) (i32.const 24))))
              (else (v128.store offset=16 (local.get $q) (f64x2.add (v128.and (v128.load offset=16 (local.get $q)) (local.get $keep))
                  (i8x16.shuffle 0 1 2 3 4 5 6 7 24 25 26 27 28 29 30 31 (local.get $z) (local.get $x))))
                (v128.store offset=32 (local.get $q) (f64x2.add (v128.and (v128.load offset=32 (local.get $q)) (local.get $keep))
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $y) (local.get $z))))
                (local.set $q (i32.add (local.get $q) (i32.const 48)))))
            (local.set $n (i32.add (local.get $n) (i32.const 48)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $final)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (local.set $sp (i32.add (local.get $sp) (i32.const 12)))
        (br $rows))))

  ;; simplex2(X, Y, Z, w, h, grads, sI, sJ, i0, j0, k0, cx, cy, cz, seeds, weight, acc, first, pairs, rb, spans, ns): one
  ;; octave of simplex noise of 2 channels (cpu.ts simplexOctave) added to `acc` (f64, pixel-major;
  ;; first: acc = 0 + v). X, Z: f64 per column (w + 1 of them: the last one again, so a pair
  ;; never reads past them), Y: f64 per row; the gradient table of the lattice box [i0, ..) x
  ;; [j0, ..) x [k0, ..) at `grads`, strides sI, sJ, 2 bytes; `seeds`: 2 u32; `pairs`: the gradient pair
  ;; table (pairs below); `rb`: scratch of (w + 1) / 2 (64 + 32) bytes; `spans`: the ns runs
  ;; of pixels it computes (three i32 each: row, first column, count; (j, 0, w) for every row j of a
  ;; whole canvas: wasm.ts), the other sums left as they are. Two pixels of a row per f64x2 (lanes:
  ;; columns i, i + 1), each lane the scalar IEEE operations of plan.ts's simplexNoise in its order, a
  ;; row in passes: the geometry of every pair (x0, y0, z0 and the first corner's table offset),
  ;; then each corner in turn for every pair (its term added to the pair's sums in the reference's
  ;; corner order), then the clamp and the fBm sum; an odd last pixel is a pair whose second lane is not stored.
  (func (export "simplex2")
    (param $X i32) (param $Y i32) (param $Z i32) (param $w i32) (param $h i32)
    (param $grads i32) (param $sI i32) (param $sJ i32) (param $i0 i32) (param $j0 i32) (param $k0 i32)
    (param $cx i32) (param $cy i32) (param $cz i32) (param $seeds i32)
    (param $weight f64) (param $acc i32) (param $first i32) (param $pairs i32) (param $rb i32) (param $spans i32) (param $ns i32)
    (local $j i32) (local $k i32) (local $cnt i32) (local $sp i32) (local $p i32) (local $np i32) (local $q i32) (local $g i32) (local $n i32) (local $sums i32) (local $xa i32)
    (local $at0 i32) (local $at1 i32) (local $ix0 i32) (local $ix1 i32) (local $w0 i32) (local $w1 i32) (local $gp i32)
    (local $px v128) (local $py v128) (local $pz v128) (local $s v128) (local $fi v128) (local $fj v128) (local $fk v128) (local $t v128)
    (local $x0 v128) (local $y0 v128) (local $z0 v128) (local $x v128) (local $y v128) (local $z v128)
    (local $a v128) (local $b v128) (local $c v128) (local $mi v128) (local $mj v128) (local $mk v128) (local $idx v128)
    (local $r v128) (local $f v128) (local $v v128) (local $one v128) (local $keep v128) (local $zero v128) (local $half v128)
    (local $weight2 v128) (local $sIf v128) (local $sJf v128) (local $sKf v128) (local $magic v128) (local $orig v128)
    (local $sI2 v128) (local $sJ2 v128) (local $sK2 v128) (local $far v128)
    (global.set $seeds (local.get $seeds))
    (global.set $cx (local.get $cx))
    (global.set $cy (local.get $cy))
    (global.set $cz (local.get $cz))
    (global.set $i0 (local.get $i0))
    (global.set $j0 (local.get $j0))
    (global.set $k0 (local.get $k0))
    (global.set $sI (local.get $sI))
    (global.set $sJ (local.get $sJ))
    (global.set $sK (i32.const 2))
    (local.set $one (f64x2.splat (f64.const 1)))
    (local.set $zero (f64x2.splat (f64.const 0)))
    (local.set $half (f64x2.splat (f64.const 0.5)))
    (local.set $weight2 (f64x2.splat (local.get $weight)))
    ;; the sum so far, or +0 on the first octave (the reference's 0 + v)
    (local.set $keep (i64x2.splat (i64.sub (i64.const 0) (i64.extend_i32_u (i32.eqz (local.get $first))))))
    ;; the first corner's table offset (si - i0) sI + (sj - j0) sJ + (sk - k0) 2 from the floors in f64 (small
    ;; integers: exact), as an i64 by adding 1.5 2^52 (then bits(1.5 2^52 + v) = bits(1.5 2^52) + v)
    (local.set $sIf (f64x2.splat (f64.convert_i32_s (local.get $sI))))
    (local.set $sJf (f64x2.splat (f64.convert_i32_s (local.get $sJ))))
    (local.set $sKf (f64x2.splat (f64.const 2)))
    (local.set $magic (f64x2.splat (f64.const 0x1.8p52)))
    (local.set $orig (i64x2.splat (i64.add (i64.const 0x4338000000000000) (i64.extend_i32_s (i32.add (i32.add
      (i32.mul (local.get $i0) (local.get $sI)) (i32.mul (local.get $j0) (local.get $sJ))) (i32.mul (local.get $k0) (i32.const 2)))))))
    (local.set $sI2 (i64x2.splat (i64.extend_i32_u (local.get $sI))))
    (local.set $sJ2 (i64x2.splat (i64.extend_i32_u (local.get $sJ))))
    (local.set $sK2 (i64x2.splat (i64.const 2)))
    (local.set $far (i64x2.splat (i64.extend_i32_u (i32.add (i32.add (local.get $sI) (local.get $sJ)) (i32.const 2)))))
    (local.set $np (i32.shr_u (i32.add (local.get $w) (i32.const 1)) (i32.const 1)))
    (local.set $sums (i32.add (local.get $rb) (i32.shl (local.get $np) (i32.const 6))))
    (local.set $sp (local.get $spans))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_u (local.get $k) (local.get $ns)))
        ;; span k (three i32 at sp): row j, columns x .. x + cnt - 1; its sums from acc + (j w + x) 2 8
        (local.set $j (i32.load (local.get $sp)))
        (local.set $xa (i32.load offset=4 (local.get $sp)))
        (local.set $cnt (i32.load offset=8 (local.get $sp)))
        (local.set $np (i32.shr_u (i32.add (local.get $cnt) (i32.const 1)) (i32.const 1)))
        (local.set $q (i32.add (local.get $acc) (i32.shl (i32.mul (i32.add (i32.mul (local.get $j) (local.get $w)) (local.get $xa)) (i32.const 2)) (i32.const 3))))
        (local.set $xa (i32.shl (local.get $xa) (i32.const 3)))
        (local.set $py (v128.load64_splat (i32.add (local.get $Y) (i32.shl (local.get $j) (i32.const 3)))))
        ;; the geometry of every pair: plan.ts simplexNoise's arithmetic in its order
        (local.set $g (local.get $rb))
        (local.set $p (i32.const 0))
        (block $geometryDone
          (loop $geometry
            (br_if $geometryDone (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $px (v128.load (i32.add (local.get $X) (local.get $xa))))
            (local.set $pz (v128.load (i32.add (local.get $Z) (local.get $xa))))
            (local.set $s (f64x2.mul (f64x2.add (f64x2.add (local.get $px) (local.get $py)) (local.get $pz)) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $fi (f64x2.floor (f64x2.add (local.get $px) (local.get $s))))
            (local.set $fj (f64x2.floor (f64x2.add (local.get $py) (local.get $s))))
            (local.set $fk (f64x2.floor (f64x2.add (local.get $pz) (local.get $s))))
            (local.set $t (f64x2.mul (f64x2.add (f64x2.add (local.get $fi) (local.get $fj)) (local.get $fk)) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (v128.store (local.get $g) (f64x2.sub (local.get $px) (f64x2.sub (local.get $fi) (local.get $t))))
            (v128.store offset=16 (local.get $g) (f64x2.sub (local.get $py) (f64x2.sub (local.get $fj) (local.get $t))))
            (v128.store offset=32 (local.get $g) (f64x2.sub (local.get $pz) (f64x2.sub (local.get $fk) (local.get $t))))
            (v128.store offset=48 (local.get $g) (i64x2.sub (f64x2.add (f64x2.add (f64x2.add (f64x2.mul (local.get $fi) (local.get $sIf))
              (f64x2.mul (local.get $fj) (local.get $sJf))) (f64x2.mul (local.get $fk) (local.get $sKf))) (local.get $magic)) (local.get $orig)))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $xa (i32.add (local.get $xa) (i32.const 16)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $geometry)))
        ;; corner 0 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c0Done
          (loop $c0
            (br_if $c0Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            (local.set $x (local.get $x0)) (local.set $y (local.get $y0)) (local.set $z (local.get $z0))
            (local.set $idx (v128.load offset=48 (local.get $g)))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load (local.get $at0)))
            (local.set $w1 (i32.load (local.get $at1)))
            (if (i32.and (i32.or (local.get $w0) (local.get $w1)) (i32.const 0x8080)) (then
              (local.set $w0 (call $gradients2 (local.get $ix0) (local.get $at0)))
              (local.set $w1 (call $gradients2 (local.get $ix1) (local.get $at1)))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (local.get $w0) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (local.get $zero) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 1: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=16 (local.get $n) (f64x2.add (local.get $zero) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 32)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c0)))
        ;; corner 1 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c1Done
          (loop $c1
            (br_if $c1Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            ;; plan.ts's ordering: a: x0 >= y0, b: y0 >= z0, c: x0 >= z0; i1 = a c, j1 = !a b, k1 = !(a ? c : b)
            (local.set $a (f64x2.ge (local.get $x0) (local.get $y0)))
            (local.set $b (f64x2.ge (local.get $y0) (local.get $z0)))
            (local.set $c (f64x2.ge (local.get $x0) (local.get $z0)))
            (local.set $mi (v128.and (local.get $a) (local.get $c)))
            (local.set $mj (v128.andnot (local.get $b) (local.get $a)))
            (local.set $mk (v128.bitselect (local.get $c) (local.get $b) (local.get $a)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (v128.and (local.get $mi) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (v128.and (local.get $mj) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (v128.andnot (local.get $one) (local.get $mk))) (f64x2.splat (f64.const 0x1.5555555555555p-3))))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (i64x2.add (i64x2.add (v128.and (local.get $mi) (local.get $sI2))
              (v128.and (local.get $mj) (local.get $sJ2))) (v128.andnot (local.get $sK2) (local.get $mk)))))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load (local.get $at0)))
            (local.set $w1 (i32.load (local.get $at1)))
            (if (i32.and (i32.or (local.get $w0) (local.get $w1)) (i32.const 0x8080)) (then
              (local.set $w0 (call $gradients2 (local.get $ix0) (local.get $at0)))
              (local.set $w1 (call $gradients2 (local.get $ix1) (local.get $at1)))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (local.get $w0) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 1: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=16 (local.get $n) (f64x2.add (v128.load offset=16 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 32)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c1)))
        ;; corner 2 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c2Done
          (loop $c2
            (br_if $c2Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            ;; i2 = a | c, j2 = !(a !b), k2 = !(a ? b : c)
            (local.set $a (f64x2.ge (local.get $x0) (local.get $y0)))
            (local.set $b (f64x2.ge (local.get $y0) (local.get $z0)))
            (local.set $c (f64x2.ge (local.get $x0) (local.get $z0)))
            (local.set $mi (v128.or (local.get $a) (local.get $c)))
            (local.set $mj (v128.andnot (local.get $a) (local.get $b)))
            (local.set $mk (v128.bitselect (local.get $b) (local.get $c) (local.get $a)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (v128.and (local.get $mi) (local.get $one))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (v128.andnot (local.get $one) (local.get $mj))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (v128.andnot (local.get $one) (local.get $mk))) (f64x2.splat (f64.const 0x1.5555555555555p-2))))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (i64x2.add (i64x2.add (v128.and (local.get $mi) (local.get $sI2))
              (v128.andnot (local.get $sJ2) (local.get $mj))) (v128.andnot (local.get $sK2) (local.get $mk)))))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load (local.get $at0)))
            (local.set $w1 (i32.load (local.get $at1)))
            (if (i32.and (i32.or (local.get $w0) (local.get $w1)) (i32.const 0x8080)) (then
              (local.set $w0 (call $gradients2 (local.get $ix0) (local.get $at0)))
              (local.set $w1 (call $gradients2 (local.get $ix1) (local.get $at1)))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (local.get $w0) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 1: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=16 (local.get $n) (f64x2.add (v128.load offset=16 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 32)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c2)))
        ;; corner 3 of every pair of the row
        (local.set $g (local.get $rb))
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $c3Done
          (loop $c3
            (br_if $c3Done (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $x0 (v128.load (local.get $g)))
            (local.set $y0 (v128.load offset=16 (local.get $g)))
            (local.set $z0 (v128.load offset=32 (local.get $g)))
            (local.set $x (f64x2.add (f64x2.sub (local.get $x0) (local.get $one)) (local.get $half)))
            (local.set $y (f64x2.add (f64x2.sub (local.get $y0) (local.get $one)) (local.get $half)))
            (local.set $z (f64x2.add (f64x2.sub (local.get $z0) (local.get $one)) (local.get $half)))
            (local.set $idx (i64x2.add (v128.load offset=48 (local.get $g)) (local.get $far)))
            ;; falloff r = ((0.5 - x^2) - y^2) - z^2; f = r^4 where r >= 0, +0 elsewhere (a masked +0 adds nothing)
            (local.set $r (f64x2.sub (f64x2.sub (f64x2.sub (local.get $half) (f64x2.mul (local.get $x) (local.get $x)))
              (f64x2.mul (local.get $y) (local.get $y))) (f64x2.mul (local.get $z) (local.get $z))))
            (local.set $f (v128.and (f64x2.ge (local.get $r) (local.get $zero)) (f64x2.mul (f64x2.mul (local.get $r) (local.get $r)) (f64x2.mul (local.get $r) (local.get $r)))))
            (local.set $ix0 (i32.wrap_i64 (i64x2.extract_lane 0 (local.get $idx))))
            (local.set $ix1 (i32.wrap_i64 (i64x2.extract_lane 1 (local.get $idx))))
            (local.set $at0 (i32.add (local.get $grads) (local.get $ix0)))
            (local.set $at1 (i32.add (local.get $grads) (local.get $ix1)))
            (local.set $w0 (i32.load (local.get $at0)))
            (local.set $w1 (i32.load (local.get $at1)))
            (if (i32.and (i32.or (local.get $w0) (local.get $w1)) (i32.const 0x8080)) (then
              (local.set $w0 (call $gradients2 (local.get $ix0) (local.get $at0)))
              (local.set $w1 (call $gradients2 (local.get $ix1) (local.get $at1)))))
            ;; channel 0: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (local.get $w0) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (local.get $w1) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=0 (local.get $n) (f64x2.add (v128.load offset=0 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            ;; channel 1: the pair's gradients at pairs + (12 g0 + g1) 48; the corner's term added to the channel's sum
            (local.set $gp (i32.add (local.get $pairs) (i32.add (i32.mul (i32.and (i32.shr_u (local.get $w0) (i32.const 8)) (i32.const 0xff)) (i32.const 576)) (i32.mul (i32.and (i32.shr_u (local.get $w1) (i32.const 8)) (i32.const 0xff)) (i32.const 48)))))
            (v128.store offset=16 (local.get $n) (f64x2.add (v128.load offset=16 (local.get $n)) (f64x2.mul (local.get $f) (f64x2.add
              (f64x2.add (f64x2.mul (v128.load (local.get $gp)) (local.get $x)) (f64x2.mul (v128.load offset=16 (local.get $gp)) (local.get $y)))
              (f64x2.mul (v128.load offset=32 (local.get $gp)) (local.get $z))))))
            (local.set $g (i32.add (local.get $g) (i32.const 64)))
            (local.set $n (i32.add (local.get $n) (i32.const 32)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $c3)))
        ;; the clamp, the weight and the fBm sum
        (local.set $n (local.get $sums))
        (local.set $p (i32.const 0))
        (block $finalDone
          (loop $final
            (br_if $finalDone (i32.ge_u (local.get $p) (local.get $np)))
            (local.set $v (f64x2.add (local.get $half) (f64x2.mul (f64x2.splat (f64.const 38)) (v128.load offset=0 (local.get $n)))))
            (local.set $v (v128.bitselect (local.get $one) (local.get $v) (f64x2.gt (local.get $v) (local.get $one))))
            (local.set $x (f64x2.mul (local.get $weight2) (v128.andnot (local.get $v) (f64x2.lt (local.get $v) (local.get $zero)))))
            (local.set $v (f64x2.add (local.get $half) (f64x2.mul (f64x2.splat (f64.const 38)) (v128.load offset=16 (local.get $n)))))
            (local.set $v (v128.bitselect (local.get $one) (local.get $v) (f64x2.gt (local.get $v) (local.get $one))))
            (local.set $y (f64x2.mul (local.get $weight2) (v128.andnot (local.get $v) (f64x2.lt (local.get $v) (local.get $zero)))))
            ;; added to the sums, pixel-major (2 channels): both pixels, or only the first where it is the row's last
            (v128.store (local.get $q) (f64x2.add (v128.and (v128.load (local.get $q)) (local.get $keep))
              (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $x) (local.get $y))))
            (if (i32.and (i32.eq (i32.add (local.get $p) (i32.const 1)) (local.get $np)) (i32.and (local.get $cnt) (i32.const 1)))
              (then (local.set $q (i32.add (local.get $q) (i32.const 16))))
              (else (v128.store offset=16 (local.get $q) (f64x2.add (v128.and (v128.load offset=16 (local.get $q)) (local.get $keep))
                  (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $x) (local.get $y))))
                (local.set $q (i32.add (local.get $q) (i32.const 32)))))
            (local.set $n (i32.add (local.get $n) (i32.const 32)))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (br $final)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (local.set $sp (i32.add (local.get $sp) (i32.const 12)))
        (br $rows))))

  ;; pairs(at): the gradient pair table: for gradient indices g0, g1 (0-11), at + (12 g0 + g1) 48 holds
  ;; (GX[g0], GX[g1]), (GY[g0], GY[g1]), (GZ[g0], GZ[g1]) as f64x2 (from the table at 0), so the two
  ;; lanes of a pixel pair read their gradients as three 16-byte loads.
  (func (export "pairs") (param $at i32)
    (local $g0 i32) (local $g1 i32)
    (loop $outer
      (local.set $g1 (i32.const 0))
      (loop $inner
        (v128.store (local.get $at) (v128.load64_lane 1 (i32.shl (local.get $g1) (i32.const 5)) (v128.load64_zero (i32.shl (local.get $g0) (i32.const 5)))))
        (v128.store offset=16 (local.get $at) (v128.load64_lane offset=8 1 (i32.shl (local.get $g1) (i32.const 5)) (v128.load64_zero offset=8 (i32.shl (local.get $g0) (i32.const 5)))))
        (v128.store offset=32 (local.get $at) (v128.load64_lane offset=16 1 (i32.shl (local.get $g1) (i32.const 5)) (v128.load64_zero offset=16 (i32.shl (local.get $g0) (i32.const 5)))))
        (local.set $at (i32.add (local.get $at) (i32.const 48)))
        (local.set $g1 (i32.add (local.get $g1) (i32.const 1)))
        (br_if $inner (i32.lt_u (local.get $g1) (i32.const 12))))
      (local.set $g0 (i32.add (local.get $g0) (i32.const 1)))
      (br_if $outer (i32.lt_u (local.get $g0) (i32.const 12)))))

  ;; $gradients2(idx, at): simplex2's two channels' gradient indices of the lattice point at table
  ;; offset idx (bytes at, at + 1), those not yet met filled; returns the word at `at`.
  (func $gradients2 (param $idx i32) (param $at i32) (result i32)
    (if (i32.lt_s (i32.load8_s (local.get $at)) (i32.const 0))
      (then (i32.store8 (local.get $at) (call $gradientAt (local.get $idx) (i32.const 0)))))
    (if (i32.lt_s (i32.load8_s offset=1 (local.get $at)) (i32.const 0))
      (then (i32.store8 offset=1 (local.get $at) (call $gradientAt (local.get $idx) (i32.const 1)))))
    (i32.load (local.get $at)))

  ;; $gradients3(idx, at): the three channels' gradient indices of the lattice point at table
  ;; offset idx (bytes at, at + 1, at + 2), those not yet met filled; returns the word at `at`.
  (func $gradients3 (param $idx i32) (param $at i32) (result i32)
    (if (i32.lt_s (i32.load8_s (local.get $at)) (i32.const 0))
      (then (i32.store8 (local.get $at) (call $gradientAt (local.get $idx) (i32.const 0)))))
    (if (i32.lt_s (i32.load8_s offset=1 (local.get $at)) (i32.const 0))
      (then (i32.store8 offset=1 (local.get $at) (call $gradientAt (local.get $idx) (i32.const 1)))))
    (if (i32.lt_s (i32.load8_s offset=2 (local.get $at)) (i32.const 0))
      (then (i32.store8 offset=2 (local.get $at) (call $gradientAt (local.get $idx) (i32.const 2)))))
    (i32.load (local.get $at)))

  ;; Lattice line iy of value noise: line[s ch + c] = unit(hash(cellX[s] ^ hash(iy ^ seeds[c])))
  ;; for the nc lattice columns the canvas touches (cpu.ts valueOctave's fill).
  ;; $hash on four lanes (i32x4: the same wrapping multiplies and shifts)
  (func $hash4 (param $v v128) (result v128)
    (local.set $v (v128.xor (local.get $v) (i32x4.shr_u (local.get $v) (i32.const 16))))
    (local.set $v (i32x4.mul (local.get $v) (i32x4.splat (i32.const 0x7feb352d))))
    (local.set $v (v128.xor (local.get $v) (i32x4.shr_u (local.get $v) (i32.const 15))))
    (local.set $v (i32x4.mul (local.get $v) (i32x4.splat (i32.const 0x846ca68b))))
    (v128.xor (local.get $v) (i32x4.shr_u (local.get $v) (i32.const 16))))

  ;; Lattice line iy of value noise: line[s ch + c] = unit(hash(cellX[s] ^ hash(iy ^ seeds[c])))
  ;; for the nc lattice columns the canvas touches (cpu.ts valueOctave's fill); four slots at a
  ;; time (unit: (h >>> 8) / 2^24, as (h >>> 8) 2^-24: exact in f64 either way), the last few one
  ;; by one.
  (func $fill (param $line i32) (param $iy i32) (param $cellX i32) (param $nc i32) (param $seeds i32) (param $ch i32)
    (local $c i32) (local $s i32) (local $hy i32) (local $at i32) (local $step i32) (local $u v128)
    (local $lo v128) (local $hi v128)
    (local.set $step (i32.shl (local.get $ch) (i32.const 3)))
    (loop $channels
      (local.set $hy (call $hash (i32.xor (local.get $iy) (i32.load (i32.add (local.get $seeds) (i32.shl (local.get $c) (i32.const 2)))))))
      (local.set $at (i32.add (local.get $line) (i32.shl (local.get $c) (i32.const 3))))
      (local.set $s (i32.const 0))
      (block $done4
        (loop $slots4
          (br_if $done4 (i32.gt_u (i32.add (local.get $s) (i32.const 4)) (local.get $nc)))
          (local.set $u (i32x4.shr_u
            (call $hash4 (v128.xor (v128.load (i32.add (local.get $cellX) (i32.shl (local.get $s) (i32.const 2)))) (i32x4.splat (local.get $hy))))
            (i32.const 8)))
          (local.set $lo (f64x2.mul (f64x2.convert_low_i32x4_u (local.get $u)) (f64x2.splat (f64.const 0x1p-24))))
          (local.set $hi (f64x2.mul
            (f64x2.convert_low_i32x4_u (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $u) (local.get $u)))
            (f64x2.splat (f64.const 0x1p-24))))
          (if (i32.eq (local.get $ch) (i32.const 1))
            (then
              (v128.store (local.get $at) (local.get $lo))
              (v128.store offset=16 (local.get $at) (local.get $hi))
              (local.set $at (i32.add (local.get $at) (i32.const 32))))
            (else
              (f64.store (local.get $at) (f64x2.extract_lane 0 (local.get $lo)))
              (local.set $at (i32.add (local.get $at) (local.get $step)))
              (f64.store (local.get $at) (f64x2.extract_lane 1 (local.get $lo)))
              (local.set $at (i32.add (local.get $at) (local.get $step)))
              (f64.store (local.get $at) (f64x2.extract_lane 0 (local.get $hi)))
              (local.set $at (i32.add (local.get $at) (local.get $step)))
              (f64.store (local.get $at) (f64x2.extract_lane 1 (local.get $hi)))
              (local.set $at (i32.add (local.get $at) (local.get $step)))))
          (local.set $s (i32.add (local.get $s) (i32.const 4)))
          (br $slots4)))
      (block $done
        (loop $slots
          (br_if $done (i32.ge_u (local.get $s) (local.get $nc)))
          (f64.store (local.get $at)
            (f64.mul (f64.convert_i32_u (i32.shr_u
              (call $hash (i32.xor (i32.load (i32.add (local.get $cellX) (i32.shl (local.get $s) (i32.const 2)))) (local.get $hy)))
              (i32.const 8))) (f64.const 0x1p-24)))
          (local.set $at (i32.add (local.get $at) (local.get $step)))
          (local.set $s (i32.add (local.get $s) (i32.const 1)))
          (br $slots)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br_if $channels (i32.lt_u (local.get $c) (local.get $ch)))))

  ;; $interp(line, row, a, b, sx, w, ch): a lattice line interpolated along x for every column:
  ;; row[i ch + c] = v0 + (v1 - v0) sx[i], v0 = line[a[i] ch + c], v1 = line[b[i] ch + c] (cpu.ts
  ;; valueOctave's `top` / `bottom`, which depend on the column and the line only).
  (func $interp (param $line i32) (param $row i32) (param $a i32) (param $b i32) (param $sx i32) (param $w i32) (param $ch i32)
    (local $i i32) (local $c i32) (local $ai i32) (local $bi i32) (local $fx f64) (local $v0 f64) (local $stride i32) (local $v2 v128)
    (local.set $stride (i32.shl (local.get $ch) (i32.const 3)))
    ;; one channel: two columns per f64x2 (the values gathered lane by lane), then the odd last one
    (if (i32.eq (local.get $ch) (i32.const 1))
      (then
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.gt_u (i32.add (local.get $i) (i32.const 2)) (local.get $w)))
            (local.set $ai (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2))))
            (local.set $bi (i32.add (local.get $b) (i32.shl (local.get $i) (i32.const 2))))
            (local.set $v2 (v128.load64_lane 1 (i32.add (local.get $line) (i32.shl (i32.load offset=4 (local.get $ai)) (i32.const 3)))
              (v128.load64_zero (i32.add (local.get $line) (i32.shl (i32.load (local.get $ai)) (i32.const 3))))))
            (v128.store (local.get $row) (f64x2.add (local.get $v2) (f64x2.mul
              (f64x2.sub
                (v128.load64_lane 1 (i32.add (local.get $line) (i32.shl (i32.load offset=4 (local.get $bi)) (i32.const 3)))
                  (v128.load64_zero (i32.add (local.get $line) (i32.shl (i32.load (local.get $bi)) (i32.const 3)))))
                (local.get $v2))
              (v128.load (i32.add (local.get $sx) (i32.shl (local.get $i) (i32.const 3)))))))
            (local.set $row (i32.add (local.get $row) (i32.const 16)))
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $pairs)))))
    (block $done
      (loop $cols
        (br_if $done (i32.ge_u (local.get $i) (local.get $w)))
        (local.set $ai (i32.add (local.get $line) (i32.mul (i32.load (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))
        (local.set $bi (i32.add (local.get $line) (i32.mul (i32.load (i32.add (local.get $b) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride))))
        (local.set $fx (f64.load (i32.add (local.get $sx) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $c (i32.const 0))
        (loop $channels
          (local.set $v0 (f64.load (local.get $ai)))
          (f64.store (local.get $row)
            (f64.add (local.get $v0) (f64.mul (f64.sub (f64.load (local.get $bi)) (local.get $v0)) (local.get $fx))))
          (local.set $row (i32.add (local.get $row) (i32.const 8)))
          (local.set $ai (i32.add (local.get $ai) (i32.const 8)))
          (local.set $bi (i32.add (local.get $bi) (i32.const 8)))
          (local.set $c (i32.add (local.get $c) (i32.const 1)))
          (br_if $channels (i32.lt_u (local.get $c) (local.get $ch))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $cols))))

  ;; value(a, b, sx, cellX, nc, w, h, rows, seeds, ch, weight, acc, first, line, rowA, rowB): one
  ;; octave of value noise (cpu.ts valueOctave) added to `acc` (f64, pixel-major, ch channels).
  ;; Column i reads lattice slots a[i], b[i] (i32) at fade sx[i] (f64); slot s is lattice column
  ;; cellX[s] (u32); `rows`: the plan's row entries of this octave (iy0, iy1, fy as f32, -);
  ;; scratch: `line` nc ch f64 (a lattice line's values), rowA / rowB w ch f64 each (lattice lines
  ;; iy0 / iy1 interpolated along x, kept while consecutive rows read them). A pixel is then
  ;; weight (top + (bottom - top) sy) of rowA and rowB at its own offset: two values per f64x2 (the
  ;; same IEEE operations per lane as the scalar ones).
  (func (export "value")
    (param $a i32) (param $b i32) (param $sx i32) (param $cellX i32) (param $nc i32) (param $w i32) (param $h i32)
    (param $rows i32) (param $seeds i32) (param $ch i32) (param $weight f64) (param $acc i32) (param $first i32)
    (param $line i32) (param $rowA i32) (param $rowB i32)
    (local $j i32) (local $q i32) (local $r i32) (local $tmp i32) (local $k i32) (local $n i32) (local $n2 i32)
    (local $yA i64) (local $yB i64) (local $iy0 i32) (local $iy1 i32)
    (local $t f64) (local $sy f64) (local $top f64) (local $sy2 v128) (local $weight2 v128) (local $top2 v128) (local $keep v128)
    (local.set $yA (i64.const -1))
    (local.set $yB (i64.const -1))
    (local.set $q (local.get $acc))
    (local.set $n (i32.mul (local.get $w) (local.get $ch)))
    (local.set $n2 (i32.and (local.get $n) (i32.const -2)))
    (local.set $weight2 (f64x2.splat (local.get $weight)))
    ;; the sum so far, or +0 on the first octave (the reference's 0 + v)
    (local.set $keep (i64x2.splat (i64.sub (i64.const 0) (i64.extend_i32_u (i32.eqz (local.get $first))))))
    (block $rowsDone
      (loop $rowLoop
        (br_if $rowsDone (i32.ge_u (local.get $j) (local.get $h)))
        (local.set $r (i32.add (local.get $rows) (i32.shl (local.get $j) (i32.const 4))))
        (local.set $iy0 (i32.load (local.get $r)))
        (local.set $iy1 (i32.load offset=4 (local.get $r)))
        ;; plan.ts fade
        (local.set $t (f64.promote_f32 (f32.load offset=8 (local.get $r))))
        (local.set $sy (f64.mul (f64.mul (f64.mul (local.get $t) (local.get $t)) (local.get $t))
          (f64.add (f64.mul (local.get $t) (f64.sub (f64.mul (local.get $t) (f64.const 6)) (f64.const 15))) (f64.const 10))))
        ;; line iy0 into A and iy1 into B, reusing what the last rows filled
        (if (i64.ne (local.get $yA) (i64.extend_i32_u (local.get $iy0)))
          (then
            (if (i64.eq (local.get $yB) (i64.extend_i32_u (local.get $iy0)))
              (then
                (local.set $tmp (local.get $rowA))
                (local.set $rowA (local.get $rowB))
                (local.set $rowB (local.get $tmp))
                (local.set $yB (i64.const -1)))
              (else
                (call $fill (local.get $line) (local.get $iy0) (local.get $cellX) (local.get $nc) (local.get $seeds) (local.get $ch))
                (call $interp (local.get $line) (local.get $rowA) (local.get $a) (local.get $b) (local.get $sx) (local.get $w) (local.get $ch))))
            (local.set $yA (i64.extend_i32_u (local.get $iy0)))))
        (if (i64.ne (local.get $yB) (i64.extend_i32_u (local.get $iy1)))
          (then
            (call $fill (local.get $line) (local.get $iy1) (local.get $cellX) (local.get $nc) (local.get $seeds) (local.get $ch))
            (call $interp (local.get $line) (local.get $rowB) (local.get $a) (local.get $b) (local.get $sx) (local.get $w) (local.get $ch))
            (local.set $yB (i64.extend_i32_u (local.get $iy1)))))
        ;; the row's w ch values, two at a time, then the odd last one
        (local.set $sy2 (f64x2.splat (local.get $sy)))
        (local.set $k (i32.const 0))
        (block $pairsDone
          (loop $pairs
            (br_if $pairsDone (i32.ge_u (local.get $k) (local.get $n2)))
            (local.set $top2 (v128.load (i32.add (local.get $rowA) (i32.shl (local.get $k) (i32.const 3)))))
            (v128.store (local.get $q) (f64x2.add
              (v128.and (v128.load (local.get $q)) (local.get $keep))
              (f64x2.mul (local.get $weight2) (f64x2.add (local.get $top2)
                (f64x2.mul (f64x2.sub (v128.load (i32.add (local.get $rowB) (i32.shl (local.get $k) (i32.const 3)))) (local.get $top2)) (local.get $sy2))))))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (local.set $k (i32.add (local.get $k) (i32.const 2)))
            (br $pairs)))
        (if (i32.lt_u (local.get $k) (local.get $n))
          (then
            (local.set $top (f64.load (i32.add (local.get $rowA) (i32.shl (local.get $k) (i32.const 3)))))
            (f64.store (local.get $q) (f64.add (select (f64.const 0) (f64.load (local.get $q)) (local.get $first))
              (f64.mul (local.get $weight)
                (f64.add (local.get $top) (f64.mul (f64.sub (f64.load (i32.add (local.get $rowB) (i32.shl (local.get $k) (i32.const 3)))) (local.get $top)) (local.get $sy))))))
            (local.set $q (i32.add (local.get $q) (i32.const 8)))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $rowLoop))))

  ;; finish(acc, out, m, raster): the f64 sums rounded to f32 into `out`: m values (raster 3: m
  ;; pixels of 3 channels into RGBA with alpha 1; raster 2: of 2 channels, B +0).
  (func (export "finish") (param $acc i32) (param $out i32) (param $m i32) (param $raster i32)
    (local $q i32)
    (if (i32.eq (local.get $raster) (i32.const 2))
      (then
        (block $done3
          (loop $px3
            (br_if $done3 (i32.ge_u (local.get $q) (local.get $m)))
            (f32.store (local.get $out) (f32.demote_f64 (f64.load (local.get $acc))))
            (f32.store offset=4 (local.get $out) (f32.demote_f64 (f64.load offset=8 (local.get $acc))))
            (f32.store offset=8 (local.get $out) (f32.const 0))
            (f32.store offset=12 (local.get $out) (f32.const 1))
            (local.set $acc (i32.add (local.get $acc) (i32.const 16)))
            (local.set $out (i32.add (local.get $out) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $px3)))
        (return)))
    (if (local.get $raster)
      (then
        (block $done
          (loop $px
            (br_if $done (i32.ge_u (local.get $q) (local.get $m)))
            (f32.store (local.get $out) (f32.demote_f64 (f64.load (local.get $acc))))
            (f32.store offset=4 (local.get $out) (f32.demote_f64 (f64.load offset=8 (local.get $acc))))
            (f32.store offset=8 (local.get $out) (f32.demote_f64 (f64.load offset=16 (local.get $acc))))
            (f32.store offset=12 (local.get $out) (f32.const 1))
            (local.set $acc (i32.add (local.get $acc) (i32.const 24)))
            (local.set $out (i32.add (local.get $out) (i32.const 16)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $px))))
      (else
        (block $done2
          (loop $px2
            (br_if $done2 (i32.ge_u (local.get $q) (local.get $m)))
            (f32.store (local.get $out) (f32.demote_f64 (f64.load (local.get $acc))))
            (local.set $acc (i32.add (local.get $acc) (i32.const 8)))
            (local.set $out (i32.add (local.get $out) (i32.const 4)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $px2))))))
)
