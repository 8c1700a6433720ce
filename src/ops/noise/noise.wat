;; noise's octaves in WebAssembly (cpu.ts `noise`, the same values as `noiseReference` bit for
;; bit): the f64 arithmetic of plan.ts's simplexNoise / valueNoise in the same order per sample,
;; the lattice hashes (lowbias32) as i32 arithmetic, the fBm sum kept in f64 and rounded to f32
;; once, as cpu.ts's TypeScript octaves do. simplex1 and simplex3 are one body written out for 1
;; and 3 channels (a field, a raster): the four corners inline, each channel's corner sum in a
;; local (a call per corner and a loop over channels cost more than the arithmetic). Compiled by
;; scripts/gen-wasm.mjs; called from wasm.ts.
(module
  (memory (export "mem") 1)
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

  ;; simplex1(X, Y, Z, w, h, grads, sI, sJ, i0, j0, k0, cx, cy, cz, seeds, weight, acc, first): one
  ;; octave of simplex noise of 1 channel (cpu.ts simplexOctave) added to `acc` (f64, pixel-major;
  ;; first: acc = 0 + v). X, Z: f64 per column, Y: f64 per row; the gradient table of the lattice
  ;; box [i0, ..) x [j0, ..) x [k0, ..) at `grads`, strides sI, sJ, 1 byte; `seeds`: 1 u32.
  (func (export "simplex1")
    (param $X i32) (param $Y i32) (param $Z i32) (param $w i32) (param $h i32)
    (param $grads i32) (param $sI i32) (param $sJ i32) (param $i0 i32) (param $j0 i32) (param $k0 i32)
    (param $cx i32) (param $cy i32) (param $cz i32) (param $seeds i32)
    (param $weight f64) (param $acc i32) (param $first i32)
    (local $i i32) (local $j i32) (local $q i32)
    (local $px f64) (local $py f64) (local $pz f64) (local $s f64) (local $t f64)
    (local $fi f64) (local $fj f64) (local $fk f64) (local $si i32) (local $sj i32) (local $sk i32)
    (local $x0 f64) (local $y0 f64) (local $z0 f64) (local $x f64) (local $y f64) (local $z f64) (local $r f64)
    (local $i1 i32) (local $j1 i32) (local $k1 i32) (local $i2 i32) (local $j2 i32) (local $k2 i32)
    (local $base i32) (local $v f64) (local $f f64) (local $at i32) (local $g i32) (local $gp i32)
    (local $li i32) (local $lj i32) (local $lk i32)
    (local $n0 f64)
    (global.set $seeds (local.get $seeds))
    (global.set $cx (local.get $cx))
    (global.set $cy (local.get $cy))
    (global.set $cz (local.get $cz))
    (local.set $q (local.get $acc))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_u (local.get $j) (local.get $h)))
        (local.set $py (f64.load (i32.add (local.get $Y) (i32.shl (local.get $j) (i32.const 3)))))
        (local.set $i (i32.const 0))
        (block $rowDone
          (loop $pixels
            (br_if $rowDone (i32.ge_u (local.get $i) (local.get $w)))
            (local.set $px (f64.load (i32.add (local.get $X) (i32.shl (local.get $i) (i32.const 3)))))
            (local.set $pz (f64.load (i32.add (local.get $Z) (i32.shl (local.get $i) (i32.const 3)))))
            ;; plan.ts simplexNoise, its arithmetic in the same order
            (local.set $s (f64.mul (f64.add (f64.add (local.get $px) (local.get $py)) (local.get $pz)) (f64.const 0x1.5555555555555p-2)))
            (local.set $fi (f64.floor (f64.add (local.get $px) (local.get $s))))
            (local.set $fj (f64.floor (f64.add (local.get $py) (local.get $s))))
            (local.set $fk (f64.floor (f64.add (local.get $pz) (local.get $s))))
            (local.set $t (f64.mul (f64.add (f64.add (local.get $fi) (local.get $fj)) (local.get $fk)) (f64.const 0x1.5555555555555p-3)))
            (local.set $x0 (f64.sub (local.get $px) (f64.sub (local.get $fi) (local.get $t))))
            (local.set $y0 (f64.sub (local.get $py) (f64.sub (local.get $fj) (local.get $t))))
            (local.set $z0 (f64.sub (local.get $pz) (f64.sub (local.get $fk) (local.get $t))))
            (local.set $si (i32.trunc_f64_s (local.get $fi)))
            (local.set $sj (i32.trunc_f64_s (local.get $fj)))
            (local.set $sk (i32.trunc_f64_s (local.get $fk)))
            ;; the simplex holding the point: (i1, j1, k1), (i2, j2, k2) (plan.ts's branches)
            (local.set $i1 (i32.const 0)) (local.set $j1 (i32.const 0)) (local.set $k1 (i32.const 0))
            (local.set $i2 (i32.const 0)) (local.set $j2 (i32.const 0)) (local.set $k2 (i32.const 0))
            (if (f64.ge (local.get $x0) (local.get $y0))
              (then
                (if (f64.ge (local.get $y0) (local.get $z0))
                  (then (local.set $i1 (i32.const 1)) (local.set $i2 (i32.const 1)) (local.set $j2 (i32.const 1)))
                  (else
                    (if (f64.ge (local.get $x0) (local.get $z0))
                      (then (local.set $i1 (i32.const 1)) (local.set $i2 (i32.const 1)) (local.set $k2 (i32.const 1)))
                      (else (local.set $k1 (i32.const 1)) (local.set $i2 (i32.const 1)) (local.set $k2 (i32.const 1)))))))
              (else
                (if (f64.lt (local.get $y0) (local.get $z0))
                  (then (local.set $k1 (i32.const 1)) (local.set $j2 (i32.const 1)) (local.set $k2 (i32.const 1)))
                  (else
                    (if (f64.lt (local.get $x0) (local.get $z0))
                      (then (local.set $j1 (i32.const 1)) (local.set $j2 (i32.const 1)) (local.set $k2 (i32.const 1)))
                      (else (local.set $j1 (i32.const 1)) (local.set $i2 (i32.const 1)) (local.set $j2 (i32.const 1))))))))
            (local.set $base (i32.add (i32.add
              (i32.mul (i32.sub (local.get $si) (local.get $i0)) (local.get $sI))
              (i32.mul (i32.sub (local.get $sj) (local.get $j0)) (local.get $sJ)))
              (i32.mul (i32.sub (local.get $sk) (local.get $k0)) (i32.const 1))))
            (local.set $n0 (f64.const 0))
            ;; corner 0 (plan.ts corner)
            (local.set $r (f64.sub (f64.sub (f64.sub (f64.const 0.5) (f64.mul (local.get $x0) (local.get $x0)))
              (f64.mul (local.get $y0) (local.get $y0))) (f64.mul (local.get $z0) (local.get $z0))))
            (if (f64.ge (local.get $r) (f64.const 0))
              (then
                (local.set $f (f64.mul (f64.mul (local.get $r) (local.get $r)) (f64.mul (local.get $r) (local.get $r))))
                (local.set $at (i32.add (local.get $grads) (local.get $base)))
                (local.set $li (local.get $si)) (local.set $lj (local.get $sj)) (local.set $lk (local.get $sk))
                (local.set $g (i32.load8_s offset=0 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 0))) (i32.store8 offset=0 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n0 (f64.add (local.get $n0) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x0)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y0)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z0))))))
                ))
            ;; corner 1: x0 - i1 + G3 (plan.ts corner)
            (local.set $x (f64.add (f64.sub (local.get $x0) (f64.convert_i32_s (local.get $i1))) (f64.const 0x1.5555555555555p-3)))
            (local.set $y (f64.add (f64.sub (local.get $y0) (f64.convert_i32_s (local.get $j1))) (f64.const 0x1.5555555555555p-3)))
            (local.set $z (f64.add (f64.sub (local.get $z0) (f64.convert_i32_s (local.get $k1))) (f64.const 0x1.5555555555555p-3)))
            (local.set $r (f64.sub (f64.sub (f64.sub (f64.const 0.5) (f64.mul (local.get $x) (local.get $x)))
              (f64.mul (local.get $y) (local.get $y))) (f64.mul (local.get $z) (local.get $z))))
            (if (f64.ge (local.get $r) (f64.const 0))
              (then
                (local.set $f (f64.mul (f64.mul (local.get $r) (local.get $r)) (f64.mul (local.get $r) (local.get $r))))
                (local.set $at (i32.add (local.get $grads) (i32.add (i32.add (i32.add (local.get $base) (i32.mul (local.get $i1) (local.get $sI))) (i32.mul (local.get $j1) (local.get $sJ))) (i32.mul (local.get $k1) (i32.const 1)))))
                (local.set $li (i32.add (local.get $si) (local.get $i1))) (local.set $lj (i32.add (local.get $sj) (local.get $j1))) (local.set $lk (i32.add (local.get $sk) (local.get $k1)))
                (local.set $g (i32.load8_s offset=0 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 0))) (i32.store8 offset=0 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n0 (f64.add (local.get $n0) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                ))
            ;; corner 2: x0 - i2 + 2 G3 (plan.ts corner)
            (local.set $x (f64.add (f64.sub (local.get $x0) (f64.convert_i32_s (local.get $i2))) (f64.const 0x1.5555555555555p-2)))
            (local.set $y (f64.add (f64.sub (local.get $y0) (f64.convert_i32_s (local.get $j2))) (f64.const 0x1.5555555555555p-2)))
            (local.set $z (f64.add (f64.sub (local.get $z0) (f64.convert_i32_s (local.get $k2))) (f64.const 0x1.5555555555555p-2)))
            (local.set $r (f64.sub (f64.sub (f64.sub (f64.const 0.5) (f64.mul (local.get $x) (local.get $x)))
              (f64.mul (local.get $y) (local.get $y))) (f64.mul (local.get $z) (local.get $z))))
            (if (f64.ge (local.get $r) (f64.const 0))
              (then
                (local.set $f (f64.mul (f64.mul (local.get $r) (local.get $r)) (f64.mul (local.get $r) (local.get $r))))
                (local.set $at (i32.add (local.get $grads) (i32.add (i32.add (i32.add (local.get $base) (i32.mul (local.get $i2) (local.get $sI))) (i32.mul (local.get $j2) (local.get $sJ))) (i32.mul (local.get $k2) (i32.const 1)))))
                (local.set $li (i32.add (local.get $si) (local.get $i2))) (local.set $lj (i32.add (local.get $sj) (local.get $j2))) (local.set $lk (i32.add (local.get $sk) (local.get $k2)))
                (local.set $g (i32.load8_s offset=0 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 0))) (i32.store8 offset=0 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n0 (f64.add (local.get $n0) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                ))
            ;; corner 3: x0 - 1 + 3 G3 (plan.ts corner)
            (local.set $x (f64.add (f64.sub (local.get $x0) (f64.const 1)) (f64.const 0x1.0p-1)))
            (local.set $y (f64.add (f64.sub (local.get $y0) (f64.const 1)) (f64.const 0x1.0p-1)))
            (local.set $z (f64.add (f64.sub (local.get $z0) (f64.const 1)) (f64.const 0x1.0p-1)))
            (local.set $r (f64.sub (f64.sub (f64.sub (f64.const 0.5) (f64.mul (local.get $x) (local.get $x)))
              (f64.mul (local.get $y) (local.get $y))) (f64.mul (local.get $z) (local.get $z))))
            (if (f64.ge (local.get $r) (f64.const 0))
              (then
                (local.set $f (f64.mul (f64.mul (local.get $r) (local.get $r)) (f64.mul (local.get $r) (local.get $r))))
                (local.set $at (i32.add (local.get $grads) (i32.add (i32.add (i32.add (local.get $base) (local.get $sI)) (local.get $sJ)) (i32.const 1))))
                (local.set $li (i32.add (local.get $si) (i32.const 1))) (local.set $lj (i32.add (local.get $sj) (i32.const 1))) (local.set $lk (i32.add (local.get $sk) (i32.const 1)))
                (local.set $g (i32.load8_s offset=0 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 0))) (i32.store8 offset=0 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n0 (f64.add (local.get $n0) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                ))
            ;; v = weight clamp(0.5 + 38 n, 0, 1) added to the sum
            (local.set $v (f64.add (f64.const 0.5) (f64.mul (f64.const 38) (local.get $n0))))
            (local.set $v (f64.mul (local.get $weight)
              (select (f64.const 0) (select (f64.const 1) (local.get $v) (f64.gt (local.get $v) (f64.const 1))) (f64.lt (local.get $v) (f64.const 0)))))
            (f64.store offset=0 (local.get $q) (f64.add (select (f64.const 0) (f64.load offset=0 (local.get $q)) (local.get $first)) (local.get $v)))
            (local.set $q (i32.add (local.get $q) (i32.const 8)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $pixels)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $rows))))

  ;; simplex3(X, Y, Z, w, h, grads, sI, sJ, i0, j0, k0, cx, cy, cz, seeds, weight, acc, first): one
  ;; octave of simplex noise of 3 channels (cpu.ts simplexOctave) added to `acc` (f64, pixel-major;
  ;; first: acc = 0 + v). X, Z: f64 per column, Y: f64 per row; the gradient table of the lattice
  ;; box [i0, ..) x [j0, ..) x [k0, ..) at `grads`, strides sI, sJ, 3 bytes; `seeds`: 3 u32.
  (func (export "simplex3")
    (param $X i32) (param $Y i32) (param $Z i32) (param $w i32) (param $h i32)
    (param $grads i32) (param $sI i32) (param $sJ i32) (param $i0 i32) (param $j0 i32) (param $k0 i32)
    (param $cx i32) (param $cy i32) (param $cz i32) (param $seeds i32)
    (param $weight f64) (param $acc i32) (param $first i32)
    (local $i i32) (local $j i32) (local $q i32)
    (local $px f64) (local $py f64) (local $pz f64) (local $s f64) (local $t f64)
    (local $fi f64) (local $fj f64) (local $fk f64) (local $si i32) (local $sj i32) (local $sk i32)
    (local $x0 f64) (local $y0 f64) (local $z0 f64) (local $x f64) (local $y f64) (local $z f64) (local $r f64)
    (local $i1 i32) (local $j1 i32) (local $k1 i32) (local $i2 i32) (local $j2 i32) (local $k2 i32)
    (local $base i32) (local $v f64) (local $f f64) (local $at i32) (local $g i32) (local $gp i32)
    (local $li i32) (local $lj i32) (local $lk i32)
    (local $n0 f64) (local $n1 f64) (local $n2 f64)
    (global.set $seeds (local.get $seeds))
    (global.set $cx (local.get $cx))
    (global.set $cy (local.get $cy))
    (global.set $cz (local.get $cz))
    (local.set $q (local.get $acc))
    (block $rowsDone
      (loop $rows
        (br_if $rowsDone (i32.ge_u (local.get $j) (local.get $h)))
        (local.set $py (f64.load (i32.add (local.get $Y) (i32.shl (local.get $j) (i32.const 3)))))
        (local.set $i (i32.const 0))
        (block $rowDone
          (loop $pixels
            (br_if $rowDone (i32.ge_u (local.get $i) (local.get $w)))
            (local.set $px (f64.load (i32.add (local.get $X) (i32.shl (local.get $i) (i32.const 3)))))
            (local.set $pz (f64.load (i32.add (local.get $Z) (i32.shl (local.get $i) (i32.const 3)))))
            ;; plan.ts simplexNoise, its arithmetic in the same order
            (local.set $s (f64.mul (f64.add (f64.add (local.get $px) (local.get $py)) (local.get $pz)) (f64.const 0x1.5555555555555p-2)))
            (local.set $fi (f64.floor (f64.add (local.get $px) (local.get $s))))
            (local.set $fj (f64.floor (f64.add (local.get $py) (local.get $s))))
            (local.set $fk (f64.floor (f64.add (local.get $pz) (local.get $s))))
            (local.set $t (f64.mul (f64.add (f64.add (local.get $fi) (local.get $fj)) (local.get $fk)) (f64.const 0x1.5555555555555p-3)))
            (local.set $x0 (f64.sub (local.get $px) (f64.sub (local.get $fi) (local.get $t))))
            (local.set $y0 (f64.sub (local.get $py) (f64.sub (local.get $fj) (local.get $t))))
            (local.set $z0 (f64.sub (local.get $pz) (f64.sub (local.get $fk) (local.get $t))))
            (local.set $si (i32.trunc_f64_s (local.get $fi)))
            (local.set $sj (i32.trunc_f64_s (local.get $fj)))
            (local.set $sk (i32.trunc_f64_s (local.get $fk)))
            ;; the simplex holding the point: (i1, j1, k1), (i2, j2, k2) (plan.ts's branches)
            (local.set $i1 (i32.const 0)) (local.set $j1 (i32.const 0)) (local.set $k1 (i32.const 0))
            (local.set $i2 (i32.const 0)) (local.set $j2 (i32.const 0)) (local.set $k2 (i32.const 0))
            (if (f64.ge (local.get $x0) (local.get $y0))
              (then
                (if (f64.ge (local.get $y0) (local.get $z0))
                  (then (local.set $i1 (i32.const 1)) (local.set $i2 (i32.const 1)) (local.set $j2 (i32.const 1)))
                  (else
                    (if (f64.ge (local.get $x0) (local.get $z0))
                      (then (local.set $i1 (i32.const 1)) (local.set $i2 (i32.const 1)) (local.set $k2 (i32.const 1)))
                      (else (local.set $k1 (i32.const 1)) (local.set $i2 (i32.const 1)) (local.set $k2 (i32.const 1)))))))
              (else
                (if (f64.lt (local.get $y0) (local.get $z0))
                  (then (local.set $k1 (i32.const 1)) (local.set $j2 (i32.const 1)) (local.set $k2 (i32.const 1)))
                  (else
                    (if (f64.lt (local.get $x0) (local.get $z0))
                      (then (local.set $j1 (i32.const 1)) (local.set $j2 (i32.const 1)) (local.set $k2 (i32.const 1)))
                      (else (local.set $j1 (i32.const 1)) (local.set $i2 (i32.const 1)) (local.set $j2 (i32.const 1))))))))
            (local.set $base (i32.add (i32.add
              (i32.mul (i32.sub (local.get $si) (local.get $i0)) (local.get $sI))
              (i32.mul (i32.sub (local.get $sj) (local.get $j0)) (local.get $sJ)))
              (i32.mul (i32.sub (local.get $sk) (local.get $k0)) (i32.const 3))))
            (local.set $n0 (f64.const 0))
            (local.set $n1 (f64.const 0))
            (local.set $n2 (f64.const 0))
            ;; corner 0 (plan.ts corner)
            (local.set $r (f64.sub (f64.sub (f64.sub (f64.const 0.5) (f64.mul (local.get $x0) (local.get $x0)))
              (f64.mul (local.get $y0) (local.get $y0))) (f64.mul (local.get $z0) (local.get $z0))))
            (if (f64.ge (local.get $r) (f64.const 0))
              (then
                (local.set $f (f64.mul (f64.mul (local.get $r) (local.get $r)) (f64.mul (local.get $r) (local.get $r))))
                (local.set $at (i32.add (local.get $grads) (local.get $base)))
                (local.set $li (local.get $si)) (local.set $lj (local.get $sj)) (local.set $lk (local.get $sk))
                (local.set $g (i32.load8_s offset=0 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 0))) (i32.store8 offset=0 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n0 (f64.add (local.get $n0) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x0)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y0)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z0))))))
                (local.set $g (i32.load8_s offset=1 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 1))) (i32.store8 offset=1 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n1 (f64.add (local.get $n1) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x0)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y0)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z0))))))
                (local.set $g (i32.load8_s offset=2 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 2))) (i32.store8 offset=2 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n2 (f64.add (local.get $n2) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x0)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y0)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z0))))))
                ))
            ;; corner 1: x0 - i1 + G3 (plan.ts corner)
            (local.set $x (f64.add (f64.sub (local.get $x0) (f64.convert_i32_s (local.get $i1))) (f64.const 0x1.5555555555555p-3)))
            (local.set $y (f64.add (f64.sub (local.get $y0) (f64.convert_i32_s (local.get $j1))) (f64.const 0x1.5555555555555p-3)))
            (local.set $z (f64.add (f64.sub (local.get $z0) (f64.convert_i32_s (local.get $k1))) (f64.const 0x1.5555555555555p-3)))
            (local.set $r (f64.sub (f64.sub (f64.sub (f64.const 0.5) (f64.mul (local.get $x) (local.get $x)))
              (f64.mul (local.get $y) (local.get $y))) (f64.mul (local.get $z) (local.get $z))))
            (if (f64.ge (local.get $r) (f64.const 0))
              (then
                (local.set $f (f64.mul (f64.mul (local.get $r) (local.get $r)) (f64.mul (local.get $r) (local.get $r))))
                (local.set $at (i32.add (local.get $grads) (i32.add (i32.add (i32.add (local.get $base) (i32.mul (local.get $i1) (local.get $sI))) (i32.mul (local.get $j1) (local.get $sJ))) (i32.mul (local.get $k1) (i32.const 3)))))
                (local.set $li (i32.add (local.get $si) (local.get $i1))) (local.set $lj (i32.add (local.get $sj) (local.get $j1))) (local.set $lk (i32.add (local.get $sk) (local.get $k1)))
                (local.set $g (i32.load8_s offset=0 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 0))) (i32.store8 offset=0 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n0 (f64.add (local.get $n0) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                (local.set $g (i32.load8_s offset=1 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 1))) (i32.store8 offset=1 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n1 (f64.add (local.get $n1) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                (local.set $g (i32.load8_s offset=2 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 2))) (i32.store8 offset=2 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n2 (f64.add (local.get $n2) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                ))
            ;; corner 2: x0 - i2 + 2 G3 (plan.ts corner)
            (local.set $x (f64.add (f64.sub (local.get $x0) (f64.convert_i32_s (local.get $i2))) (f64.const 0x1.5555555555555p-2)))
            (local.set $y (f64.add (f64.sub (local.get $y0) (f64.convert_i32_s (local.get $j2))) (f64.const 0x1.5555555555555p-2)))
            (local.set $z (f64.add (f64.sub (local.get $z0) (f64.convert_i32_s (local.get $k2))) (f64.const 0x1.5555555555555p-2)))
            (local.set $r (f64.sub (f64.sub (f64.sub (f64.const 0.5) (f64.mul (local.get $x) (local.get $x)))
              (f64.mul (local.get $y) (local.get $y))) (f64.mul (local.get $z) (local.get $z))))
            (if (f64.ge (local.get $r) (f64.const 0))
              (then
                (local.set $f (f64.mul (f64.mul (local.get $r) (local.get $r)) (f64.mul (local.get $r) (local.get $r))))
                (local.set $at (i32.add (local.get $grads) (i32.add (i32.add (i32.add (local.get $base) (i32.mul (local.get $i2) (local.get $sI))) (i32.mul (local.get $j2) (local.get $sJ))) (i32.mul (local.get $k2) (i32.const 3)))))
                (local.set $li (i32.add (local.get $si) (local.get $i2))) (local.set $lj (i32.add (local.get $sj) (local.get $j2))) (local.set $lk (i32.add (local.get $sk) (local.get $k2)))
                (local.set $g (i32.load8_s offset=0 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 0))) (i32.store8 offset=0 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n0 (f64.add (local.get $n0) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                (local.set $g (i32.load8_s offset=1 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 1))) (i32.store8 offset=1 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n1 (f64.add (local.get $n1) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                (local.set $g (i32.load8_s offset=2 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 2))) (i32.store8 offset=2 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n2 (f64.add (local.get $n2) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                ))
            ;; corner 3: x0 - 1 + 3 G3 (plan.ts corner)
            (local.set $x (f64.add (f64.sub (local.get $x0) (f64.const 1)) (f64.const 0x1.0p-1)))
            (local.set $y (f64.add (f64.sub (local.get $y0) (f64.const 1)) (f64.const 0x1.0p-1)))
            (local.set $z (f64.add (f64.sub (local.get $z0) (f64.const 1)) (f64.const 0x1.0p-1)))
            (local.set $r (f64.sub (f64.sub (f64.sub (f64.const 0.5) (f64.mul (local.get $x) (local.get $x)))
              (f64.mul (local.get $y) (local.get $y))) (f64.mul (local.get $z) (local.get $z))))
            (if (f64.ge (local.get $r) (f64.const 0))
              (then
                (local.set $f (f64.mul (f64.mul (local.get $r) (local.get $r)) (f64.mul (local.get $r) (local.get $r))))
                (local.set $at (i32.add (local.get $grads) (i32.add (i32.add (i32.add (local.get $base) (local.get $sI)) (local.get $sJ)) (i32.const 3))))
                (local.set $li (i32.add (local.get $si) (i32.const 1))) (local.set $lj (i32.add (local.get $sj) (i32.const 1))) (local.set $lk (i32.add (local.get $sk) (i32.const 1)))
                (local.set $g (i32.load8_s offset=0 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 0))) (i32.store8 offset=0 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n0 (f64.add (local.get $n0) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                (local.set $g (i32.load8_s offset=1 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 1))) (i32.store8 offset=1 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n1 (f64.add (local.get $n1) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                (local.set $g (i32.load8_s offset=2 (local.get $at)))
                (if (i32.lt_s (local.get $g) (i32.const 0)) (then (local.set $g (call $gradient (local.get $li) (local.get $lj) (local.get $lk) (i32.const 2))) (i32.store8 offset=2 (local.get $at) (local.get $g))))
                (local.set $gp (i32.shl (local.get $g) (i32.const 5)))
                (local.set $n2 (f64.add (local.get $n2) (f64.mul (local.get $f) (f64.add
                  (f64.add (f64.mul (f64.load (local.get $gp)) (local.get $x)) (f64.mul (f64.load offset=8 (local.get $gp)) (local.get $y)))
                  (f64.mul (f64.load offset=16 (local.get $gp)) (local.get $z))))))
                ))
            ;; v = weight clamp(0.5 + 38 n, 0, 1) added to the sum
            (local.set $v (f64.add (f64.const 0.5) (f64.mul (f64.const 38) (local.get $n0))))
            (local.set $v (f64.mul (local.get $weight)
              (select (f64.const 0) (select (f64.const 1) (local.get $v) (f64.gt (local.get $v) (f64.const 1))) (f64.lt (local.get $v) (f64.const 0)))))
            (f64.store offset=0 (local.get $q) (f64.add (select (f64.const 0) (f64.load offset=0 (local.get $q)) (local.get $first)) (local.get $v)))
            (local.set $v (f64.add (f64.const 0.5) (f64.mul (f64.const 38) (local.get $n1))))
            (local.set $v (f64.mul (local.get $weight)
              (select (f64.const 0) (select (f64.const 1) (local.get $v) (f64.gt (local.get $v) (f64.const 1))) (f64.lt (local.get $v) (f64.const 0)))))
            (f64.store offset=8 (local.get $q) (f64.add (select (f64.const 0) (f64.load offset=8 (local.get $q)) (local.get $first)) (local.get $v)))
            (local.set $v (f64.add (f64.const 0.5) (f64.mul (f64.const 38) (local.get $n2))))
            (local.set $v (f64.mul (local.get $weight)
              (select (f64.const 0) (select (f64.const 1) (local.get $v) (f64.gt (local.get $v) (f64.const 1))) (f64.lt (local.get $v) (f64.const 0)))))
            (f64.store offset=16 (local.get $q) (f64.add (select (f64.const 0) (f64.load offset=16 (local.get $q)) (local.get $first)) (local.get $v)))
            (local.set $q (i32.add (local.get $q) (i32.const 24)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $pixels)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $rows))))

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
  ;; time (unit: (h >>> 8) / 2^24, exact in f64 either way), the last few one by one.
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
          (local.set $lo (f64x2.div (f64x2.convert_low_i32x4_u (local.get $u)) (f64x2.splat (f64.const 16777216))))
          (local.set $hi (f64x2.div
            (f64x2.convert_low_i32x4_u (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $u) (local.get $u)))
            (f64x2.splat (f64.const 16777216))))
          (f64.store (local.get $at) (f64x2.extract_lane 0 (local.get $lo)))
          (local.set $at (i32.add (local.get $at) (local.get $step)))
          (f64.store (local.get $at) (f64x2.extract_lane 1 (local.get $lo)))
          (local.set $at (i32.add (local.get $at) (local.get $step)))
          (f64.store (local.get $at) (f64x2.extract_lane 0 (local.get $hi)))
          (local.set $at (i32.add (local.get $at) (local.get $step)))
          (f64.store (local.get $at) (f64x2.extract_lane 1 (local.get $hi)))
          (local.set $at (i32.add (local.get $at) (local.get $step)))
          (local.set $s (i32.add (local.get $s) (i32.const 4)))
          (br $slots4)))
      (block $done
        (loop $slots
          (br_if $done (i32.ge_u (local.get $s) (local.get $nc)))
          (f64.store (local.get $at)
            (f64.div (f64.convert_i32_u (i32.shr_u
              (call $hash (i32.xor (i32.load (i32.add (local.get $cellX) (i32.shl (local.get $s) (i32.const 2)))) (local.get $hy)))
              (i32.const 8))) (f64.const 16777216)))
          (local.set $at (i32.add (local.get $at) (local.get $step)))
          (local.set $s (i32.add (local.get $s) (i32.const 1)))
          (br $slots)))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br_if $channels (i32.lt_u (local.get $c) (local.get $ch)))))

  ;; value(a, b, sx, cellX, nc, w, h, rows, seeds, ch, weight, acc, first, lineA, lineB): one
  ;; octave of value noise (cpu.ts valueOctave) added to `acc` (f64, pixel-major, ch channels).
  ;; Column i reads lattice slots a[i], b[i] (i32) at fade sx[i] (f64); slot s is lattice column
  ;; cellX[s] (u32); `rows`: the plan's row entries of this octave (iy0, iy1, fy as f32, -);
  ;; lineA / lineB: nc ch f64 each of scratch.
  (func (export "value")
    (param $a i32) (param $b i32) (param $sx i32) (param $cellX i32) (param $nc i32) (param $w i32) (param $h i32)
    (param $rows i32) (param $seeds i32) (param $ch i32) (param $weight f64) (param $acc i32) (param $first i32)
    (param $lineA i32) (param $lineB i32)
    (local $i i32) (local $j i32) (local $c i32) (local $q i32) (local $r i32) (local $tmp i32)
    (local $yA i64) (local $yB i64) (local $iy0 i32) (local $iy1 i32)
    (local $t f64) (local $sy f64) (local $fx f64) (local $ai i32) (local $bi i32)
    (local $v00 f64) (local $v10 f64) (local $v01 f64) (local $v11 f64) (local $top f64) (local $bottom f64)
    (local.set $yA (i64.const -1))
    (local.set $yB (i64.const -1))
    (local.set $q (local.get $acc))
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
                (local.set $tmp (local.get $lineA))
                (local.set $lineA (local.get $lineB))
                (local.set $lineB (local.get $tmp))
                (local.set $yB (i64.const -1)))
              (else (call $fill (local.get $lineA) (local.get $iy0) (local.get $cellX) (local.get $nc) (local.get $seeds) (local.get $ch))))
            (local.set $yA (i64.extend_i32_u (local.get $iy0)))))
        (if (i64.ne (local.get $yB) (i64.extend_i32_u (local.get $iy1)))
          (then
            (call $fill (local.get $lineB) (local.get $iy1) (local.get $cellX) (local.get $nc) (local.get $seeds) (local.get $ch))
            (local.set $yB (i64.extend_i32_u (local.get $iy1)))))
        (local.set $i (i32.const 0))
        (block $rowDone
          (loop $pixels
            (br_if $rowDone (i32.ge_u (local.get $i) (local.get $w)))
            (local.set $ai (i32.mul (i32.load (i32.add (local.get $a) (i32.shl (local.get $i) (i32.const 2)))) (i32.shl (local.get $ch) (i32.const 3))))
            (local.set $bi (i32.mul (i32.load (i32.add (local.get $b) (i32.shl (local.get $i) (i32.const 2)))) (i32.shl (local.get $ch) (i32.const 3))))
            (local.set $fx (f64.load (i32.add (local.get $sx) (i32.shl (local.get $i) (i32.const 3)))))
            (local.set $c (i32.const 0))
            (loop $channels
              (local.set $v00 (f64.load (i32.add (local.get $lineA) (local.get $ai))))
              (local.set $v10 (f64.load (i32.add (local.get $lineA) (local.get $bi))))
              (local.set $v01 (f64.load (i32.add (local.get $lineB) (local.get $ai))))
              (local.set $v11 (f64.load (i32.add (local.get $lineB) (local.get $bi))))
              (local.set $top (f64.add (local.get $v00) (f64.mul (f64.sub (local.get $v10) (local.get $v00)) (local.get $fx))))
              (local.set $bottom (f64.add (local.get $v01) (f64.mul (f64.sub (local.get $v11) (local.get $v01)) (local.get $fx))))
              (f64.store (local.get $q) (f64.add (select (f64.const 0) (f64.load (local.get $q)) (local.get $first))
                (f64.mul (local.get $weight)
                  (f64.add (local.get $top) (f64.mul (f64.sub (local.get $bottom) (local.get $top)) (local.get $sy))))))
              (local.set $q (i32.add (local.get $q) (i32.const 8)))
              (local.set $ai (i32.add (local.get $ai) (i32.const 8)))
              (local.set $bi (i32.add (local.get $bi) (i32.const 8)))
              (local.set $c (i32.add (local.get $c) (i32.const 1)))
              (br_if $channels (i32.lt_u (local.get $c) (local.get $ch))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $pixels)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $rowLoop))))

  ;; finish(acc, out, m, raster): the f64 sums rounded to f32 into `out`: m values (raster: m
  ;; pixels of 3 channels into RGBA with alpha 1).
  (func (export "finish") (param $acc i32) (param $out i32) (param $m i32) (param $raster i32)
    (local $q i32)
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
