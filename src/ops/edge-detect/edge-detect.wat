;; edge-detect's Sobel in WebAssembly SIMD: one f32x4 per premultiplied RGBA pixel, the same sums
;; in the same order as the TypeScript kernel (cpu.ts `sobelScalar`, the reference) but in f32 (the
;; scalar kernel in f64): the two differ by ~1e-7. Compiled by scripts/gen-wasm.mjs; called from
;; simd.ts.
(module
  ;; the memory: simd.ts gives one instance a scratch memory it copies bands of rows into (grown
  ;; from JavaScript), and one the canvas arena (src/util/wasm-arena.ts), where it reads and writes
  ;; the canvases in place
  (import "env" "mem" (memory 1))
  ;; sobel(in, sw, out, w, h, strength): out (w x h pixels, 16 bytes each) from the source at `in`
  ;; (sw pixels a row, pad 1: output pixel (x, y) reads source rows y..y+2, columns x..x+2).
  ;; Per channel: v = min(1, sqrt(gx^2 + gy^2) strength), then alpha = max(alpha, r, g, b).
  (func (export "sobel") (param $in i32) (param $sw i32) (param $out i32) (param $w i32) (param $h i32) (param $strength f32)
    (local $y i32) (local $x i32) (local $rowBytes i32)
    (local $t i32) (local $m i32) (local $b i32) (local $o i32)
    (local $s v128) (local $one v128) (local $gx v128) (local $gy v128) (local $v v128)
    (local.set $rowBytes (i32.mul (local.get $sw) (i32.const 16)))
    (local.set $s (f32x4.splat (local.get $strength)))
    (local.set $one (f32x4.splat (f32.const 1)))
    (local.set $o (local.get $out))
    (local.set $y (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $y) (local.get $h))))
      (loop $row
        ;; t, m, b: the window's top, middle and bottom rows
        (local.set $b
          (i32.add
            (local.tee $m
              (i32.add
                (local.tee $t (i32.add (local.get $in) (i32.mul (local.get $y) (local.get $rowBytes))))
                (local.get $rowBytes)))
            (local.get $rowBytes)))
        (local.set $x (i32.const 0))
        (block $rowDone
          (br_if $rowDone (i32.eqz (i32.lt_u (local.get $x) (local.get $w))))
          (loop $pixel
            ;; the window a0 a1 a2 / a3 a4 a5 / a6 a7 a8 is t, m, b at byte offsets 0, 16, 32
            ;; gx = ((a2 + 2 a5) + a8) - ((a0 + 2 a3) + a6)
            (local.set $gx
              (f32x4.sub
                (f32x4.add
                  (f32x4.add
                    (v128.load offset=32 align=1 (local.get $t))
                    (f32x4.add (v128.load offset=32 align=1 (local.get $m)) (v128.load offset=32 align=1 (local.get $m))))
                  (v128.load offset=32 align=1 (local.get $b)))
                (f32x4.add
                  (f32x4.add
                    (v128.load align=1 (local.get $t))
                    (f32x4.add (v128.load align=1 (local.get $m)) (v128.load align=1 (local.get $m))))
                  (v128.load align=1 (local.get $b)))))
            ;; gy = ((a6 + 2 a7) + a8) - ((a0 + 2 a1) + a2)
            (local.set $gy
              (f32x4.sub
                (f32x4.add
                  (f32x4.add
                    (v128.load align=1 (local.get $b))
                    (f32x4.add (v128.load offset=16 align=1 (local.get $b)) (v128.load offset=16 align=1 (local.get $b))))
                  (v128.load offset=32 align=1 (local.get $b)))
                (f32x4.add
                  (f32x4.add
                    (v128.load align=1 (local.get $t))
                    (f32x4.add (v128.load offset=16 align=1 (local.get $t)) (v128.load offset=16 align=1 (local.get $t))))
                  (v128.load offset=32 align=1 (local.get $t)))))
            ;; v = min(sqrt(gx^2 + gy^2) strength, 1)
            (local.set $v
              (f32x4.pmin
                (f32x4.mul
                  (f32x4.sqrt
                    (f32x4.add
                      (f32x4.mul (local.get $gx) (local.get $gx))
                      (f32x4.mul (local.get $gy) (local.get $gy))))
                  (local.get $s))
                (local.get $one)))
            ;; alpha = max(max(alpha, r), max(g, b))
            (local.set $v
              (f32x4.replace_lane 3
                (local.get $v)
                (f32.max
                  (f32.max (f32x4.extract_lane 3 (local.get $v)) (f32x4.extract_lane 0 (local.get $v)))
                  (f32.max (f32x4.extract_lane 1 (local.get $v)) (f32x4.extract_lane 2 (local.get $v))))))
            (v128.store align=1 (local.get $o) (local.get $v))
            (local.set $o (i32.add (local.get $o) (i32.const 16)))
            (local.set $t (i32.add (local.get $t) (i32.const 16)))
            (local.set $m (i32.add (local.get $m) (i32.const 16)))
            (local.set $b (i32.add (local.get $b) (i32.const 16)))
            (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $w)))))
        (br_if $row (i32.lt_u (local.tee $y (i32.add (local.get $y) (i32.const 1))) (local.get $h)))))))
