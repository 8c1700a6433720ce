;; Paeth rows of an RGB PNG unfiltered into RGBA8 words in WebAssembly: scalar i32, `select` for
;; the predictor's choice (no branches on the data). Paeth is most rows of a typical DEM tile and the
;; slowest filter in JavaScript; the other filters stay in png-decode.ts. Compiled by
;; scripts/gen-wasm.mjs; called from png-decode.ts (png-paeth.ts loads it).
(module
  ;; paeth(s, o, width, ostride): one RGB row at byte `s` (after its filter byte) into RGBA words
  ;; (alpha 255) at `o`; the row above, already unfiltered, at o - ostride. Paeth's predictor of a
  ;; (left), b (above), c (above-left) is the nearest of them to a + b - c, ties to a, then b:
  ;;   pa = |b - c|, pb = |a - c|, pc = |a + b - 2c|;  a if pa <= pb and pa <= pc, else b if pb <= pc, else c.
  ;; |x| is (x ^ (x >> 31)) - (x >> 31).
  (func (export "paeth") (param $s i32) (param $o i32) (param $width i32) (param $ostride i32)
    (local $x i32) (local $r i32) (local $g i32) (local $b i32) (local $cr i32) (local $cg i32) (local $cb i32)
    (local $u i32) (local $v i32) (local $ww i32) (local $up i32) (local $tmp i32)
    (local $pa i32) (local $pb i32) (local $pc i32)
    ;; r, g, b: the pixel to the left (0 at the row's start); u, v, ww: the one above; cr, cg, cb: above-left
    (local.set $x (i32.const 0))
    (block $done
      (br_if $done (i32.eqz (i32.lt_u (local.get $x) (local.get $width))))
      (loop $pixel
        (local.set $up (i32.load align=4 (i32.sub (local.get $o) (local.get $ostride))))
        (local.set $u (i32.and (local.get $up) (i32.const 255)))
        (local.set $v (i32.and (i32.shr_u (local.get $up) (i32.const 8)) (i32.const 255)))
        (local.set $ww (i32.and (i32.shr_u (local.get $up) (i32.const 16)) (i32.const 255)))
        ;; r = (the filtered byte + Paeth(r, u, cr)) mod 256; the byte waits on the stack
        (i32.load8_u align=1 (local.get $s))
        (local.set $pa (i32.sub (i32.xor (local.tee $tmp (i32.sub (local.get $u) (local.get $cr))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $pb (i32.sub (i32.xor (local.tee $tmp (i32.sub (local.get $r) (local.get $cr))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $pc (i32.sub (i32.xor (local.tee $tmp (i32.sub (i32.sub (i32.add (local.get $r) (local.get $u)) (local.get $cr)) (local.get $cr))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $r
          (i32.and
            (i32.add
              (select
                (local.get $r)
                (select (local.get $u) (local.get $cr) (i32.le_s (local.get $pb) (local.get $pc)))
                (i32.and (i32.le_s (local.get $pa) (local.get $pb)) (i32.le_s (local.get $pa) (local.get $pc)))))
            (i32.const 255)))
        ;; g = (the filtered byte + Paeth(g, v, cg)) mod 256; the byte waits on the stack
        (i32.load8_u offset=1 align=1 (local.get $s))
        (local.set $pa (i32.sub (i32.xor (local.tee $tmp (i32.sub (local.get $v) (local.get $cg))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $pb (i32.sub (i32.xor (local.tee $tmp (i32.sub (local.get $g) (local.get $cg))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $pc (i32.sub (i32.xor (local.tee $tmp (i32.sub (i32.sub (i32.add (local.get $g) (local.get $v)) (local.get $cg)) (local.get $cg))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $g
          (i32.and
            (i32.add
              (select
                (local.get $g)
                (select (local.get $v) (local.get $cg) (i32.le_s (local.get $pb) (local.get $pc)))
                (i32.and (i32.le_s (local.get $pa) (local.get $pb)) (i32.le_s (local.get $pa) (local.get $pc)))))
            (i32.const 255)))
        ;; b = (the filtered byte + Paeth(b, ww, cb)) mod 256; the byte waits on the stack
        (i32.load8_u offset=2 align=1 (local.get $s))
        (local.set $pa (i32.sub (i32.xor (local.tee $tmp (i32.sub (local.get $ww) (local.get $cb))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $pb (i32.sub (i32.xor (local.tee $tmp (i32.sub (local.get $b) (local.get $cb))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $pc (i32.sub (i32.xor (local.tee $tmp (i32.sub (i32.sub (i32.add (local.get $b) (local.get $ww)) (local.get $cb)) (local.get $cb))) (i32.shr_s (local.get $tmp) (i32.const 31))) (i32.shr_s (local.get $tmp) (i32.const 31))))
        (local.set $b
          (i32.and
            (i32.add
              (select
                (local.get $b)
                (select (local.get $ww) (local.get $cb) (i32.le_s (local.get $pb) (local.get $pc)))
                (i32.and (i32.le_s (local.get $pa) (local.get $pb)) (i32.le_s (local.get $pa) (local.get $pc)))))
            (i32.const 255)))
        (i32.store align=4
          (local.get $o)
          (i32.or
            (i32.or
              (i32.or (local.get $r) (i32.shl (local.get $g) (i32.const 8)))
              (i32.shl (local.get $b) (i32.const 16)))
            (i32.const 0xff000000)))
        (local.set $cr (local.get $u))
        (local.set $cg (local.get $v))
        (local.set $cb (local.get $ww))
        (local.set $s (i32.add (local.get $s) (i32.const 3)))
        (local.set $o (i32.add (local.get $o) (i32.const 4)))
        (br_if $pixel (i32.lt_u (local.tee $x (i32.add (local.get $x) (i32.const 1))) (local.get $width))))))

  ;; the rows png-decode.ts copies in (grown from JavaScript)
  (memory (export "mem") 1))
