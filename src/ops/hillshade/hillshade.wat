;; hillshade's default case (one light, no accent) in WebAssembly SIMD: four pixels of a row per
;; f32x4, the same arithmetic as the TypeScript kernel (cpu.ts, the reference) in f32 (the scalar
;; kernel in f64; they differ by ~1e-6 of full scale). No data is the same test: a pixel whose 3x3
;; window holds a NaN or an infinity is transparent. Compiled by scripts/gen-wasm.mjs; called from
;; simd.ts.
(module
  ;; the memory: simd.ts gives one instance a scratch memory it copies the field into (grown from
  ;; JavaScript) and one the canvas arena, whose canvases it reads and writes in place
  ;; (src/util/wasm-arena.ts)
  (import "env" "mem" (memory 1))
  ;; shade(in, sw, out, w, h, ew, consts, groups): the shaded RGBA pixels (16 bytes each, w x h at
  ;; `out`) of the elevation field at `in` (f32, sw = w + 2 a row, pad 1). ew: one f32 a row, the
  ;; inverse resolution (1 / 8 of the cell size east-west, per row: Mercator). consts: the shadow
  ;; colour, highlight - shadow (two f32x4), then K, A, B, Q of the shading terms (plan.ts):
  ;;   c = (K - (y A - x B)) / sqrt(1 + Q (x^2 + y^2)),  g = (1 + max(c, 0)) / 255,
  ;;   pixel = shadow + g (highlight - shadow).
  ;; A row is `groups` groups of four pixels; the last group overlaps the one before when w is not
  ;; a multiple of 4 (w >= 4).
  (func (export "shade") (param $in i32) (param $sw i32) (param $out i32) (param $w i32) (param $h i32)
    (param $ew i32) (param $consts i32) (param $groups i32)
    (local $y i32) (local $g i32) (local $rowBytes i32) (local $t i32) (local $m i32) (local $b i32)
    (local $o i32) (local $xs i32) (local $rowTop i32) (local $outRow i32)
    (local $x v128) (local $yv v128) (local $gv v128) (local $ok v128) (local $base v128) (local $delta v128)
    (local $K v128) (local $A v128) (local $B v128) (local $Q v128) (local $one v128) (local $zero v128)
    (local $c255 v128) (local $ewv v128) (local $nw v128)
    (local.set $rowBytes (i32.mul (local.get $sw) (i32.const 4)))
    (local.set $base (v128.load align=1 (local.get $consts)))
    (local.set $delta (v128.load offset=16 align=1 (local.get $consts)))
    (local.set $K (f32x4.splat (f32.load offset=32 align=1 (local.get $consts))))
    (local.set $A (f32x4.splat (f32.load offset=36 align=1 (local.get $consts))))
    (local.set $B (f32x4.splat (f32.load offset=40 align=1 (local.get $consts))))
    (local.set $Q (f32x4.splat (f32.load offset=44 align=1 (local.get $consts))))
    (local.set $one (f32x4.splat (f32.const 1)))
    (local.set $c255 (f32x4.splat (f32.const 255)))
    (local.set $y (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $y) (local.get $h))))
      (loop $row
        (local.set $rowTop (i32.add (local.get $in) (i32.mul (local.get $y) (local.get $rowBytes))))
        (local.set $outRow (i32.add (local.get $out) (i32.mul (i32.mul (local.get $y) (local.get $w)) (i32.const 16))))
        ;; ewv = ew[y] in every lane, nw = -ewv
        (local.set $nw
          (f32x4.neg
            (local.tee $ewv
              (f32x4.splat (f32.load align=1 (i32.add (local.get $ew) (i32.mul (local.get $y) (i32.const 4))))))))
        (local.set $g (i32.const 0))
        (block $rowDone
          (br_if $rowDone (i32.eqz (i32.lt_u (local.get $g) (local.get $groups))))
          (loop $group
            ;; xs = min(4 g, w - 4)
            (local.set $xs
              (select
                (i32.mul (local.get $g) (i32.const 4))
                (i32.sub (local.get $w) (i32.const 4))
                (i32.lt_u (i32.mul (local.get $g) (i32.const 4)) (i32.sub (local.get $w) (i32.const 4)))))
            ;; t, m, b: the window's top, middle and bottom rows at column xs
            (local.set $b
              (i32.add
                (local.tee $m
                  (i32.add
                    (local.tee $t (i32.add (local.get $rowTop) (i32.mul (local.get $xs) (i32.const 4))))
                    (local.get $rowBytes)))
                (local.get $rowBytes)))
            (local.set $o (i32.add (local.get $outRow) (i32.mul (local.get $xs) (i32.const 16))))
            ;; the window a0 a1 a2 / a3 a4 a5 / a6 a7 a8 is t, m, b at byte offsets 0, 4, 8 (four
            ;; neighbouring pixels a vector); each sum is ((a + b) + b) + c
            ;; x = ((a0 + 2 a3) + a6 - ((a2 + 2 a5) + a8)) ew
            (local.set $x
              (f32x4.mul
                (f32x4.sub
                  (f32x4.add
                    (f32x4.add
                      (f32x4.add (v128.load align=1 (local.get $t)) (v128.load align=1 (local.get $m)))
                      (v128.load align=1 (local.get $m)))
                    (v128.load align=1 (local.get $b)))
                  (f32x4.add
                    (f32x4.add
                      (f32x4.add (v128.load offset=8 align=1 (local.get $t)) (v128.load offset=8 align=1 (local.get $m)))
                      (v128.load offset=8 align=1 (local.get $m)))
                    (v128.load offset=8 align=1 (local.get $b))))
                (local.get $ewv)))
            ;; y = ((a6 + 2 a7) + a8 - ((a0 + 2 a1) + a2)) (-ew)
            (local.set $yv
              (f32x4.mul
                (f32x4.sub
                  (f32x4.add
                    (f32x4.add
                      (f32x4.add (v128.load align=1 (local.get $b)) (v128.load offset=4 align=1 (local.get $b)))
                      (v128.load offset=4 align=1 (local.get $b)))
                    (v128.load offset=8 align=1 (local.get $b)))
                  (f32x4.add
                    (f32x4.add
                      (f32x4.add (v128.load align=1 (local.get $t)) (v128.load offset=4 align=1 (local.get $t)))
                      (v128.load offset=4 align=1 (local.get $t)))
                    (v128.load offset=8 align=1 (local.get $t))))
                (local.get $nw)))
            ;; ok = (x - x) + (y - y) + (a4 - a4) == 0: false where any of them is NaN or infinite
            (local.set $ok
              (f32x4.eq
                (f32x4.add
                  (f32x4.add
                    (f32x4.sub (local.get $x) (local.get $x))
                    (f32x4.sub (local.get $yv) (local.get $yv)))
                  (f32x4.sub (v128.load offset=4 align=1 (local.get $m)) (v128.load offset=4 align=1 (local.get $m))))
                (local.get $zero)))
            ;; c = (K - (y A - x B)) / sqrt(1 + Q (x x + y y))
            (local.set $gv
              (f32x4.div
                (f32x4.sub
                  (local.get $K)
                  (f32x4.sub (f32x4.mul (local.get $yv) (local.get $A)) (f32x4.mul (local.get $x) (local.get $B))))
                (f32x4.sqrt
                  (f32x4.add
                    (local.get $one)
                    (f32x4.mul
                      (local.get $Q)
                      (f32x4.add (f32x4.mul (local.get $x) (local.get $x)) (f32x4.mul (local.get $yv) (local.get $yv))))))))
            ;; g = (1 + max(c, 0)) / 255
            (local.set $gv
              (f32x4.div
                (f32x4.add (local.get $one) (f32x4.pmax (local.get $zero) (local.get $gv)))
                (local.get $c255)))
            ;; the four pixels: base + delta g_k, zero where the window is not ok
            (v128.store align=1
              (local.get $o)
              (v128.and
                (f32x4.add
                  (local.get $base)
                  (f32x4.mul
                    (local.get $delta)
                    (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $gv) (local.get $gv))))
                (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $ok) (local.get $ok))))
            (v128.store offset=16 align=1
              (local.get $o)
              (v128.and
                (f32x4.add
                  (local.get $base)
                  (f32x4.mul
                    (local.get $delta)
                    (i8x16.shuffle 4 5 6 7 4 5 6 7 4 5 6 7 4 5 6 7 (local.get $gv) (local.get $gv))))
                (i8x16.shuffle 4 5 6 7 4 5 6 7 4 5 6 7 4 5 6 7 (local.get $ok) (local.get $ok))))
            (v128.store offset=32 align=1
              (local.get $o)
              (v128.and
                (f32x4.add
                  (local.get $base)
                  (f32x4.mul
                    (local.get $delta)
                    (i8x16.shuffle 8 9 10 11 8 9 10 11 8 9 10 11 8 9 10 11 (local.get $gv) (local.get $gv))))
                (i8x16.shuffle 8 9 10 11 8 9 10 11 8 9 10 11 8 9 10 11 (local.get $ok) (local.get $ok))))
            (v128.store offset=48 align=1
              (local.get $o)
              (v128.and
                (f32x4.add
                  (local.get $base)
                  (f32x4.mul
                    (local.get $delta)
                    (i8x16.shuffle 12 13 14 15 12 13 14 15 12 13 14 15 12 13 14 15 (local.get $gv) (local.get $gv))))
                (i8x16.shuffle 12 13 14 15 12 13 14 15 12 13 14 15 12 13 14 15 (local.get $ok) (local.get $ok))))
            (br_if $group (i32.lt_u (local.tee $g (i32.add (local.get $g) (i32.const 1))) (local.get $groups)))))
        (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $h))))))

  )
