(module
  ;; The scan behind bit-scan.ts: Hamming distances between 512-bit codes (64 bytes: eight i64 words, each an
  ;; xor and a popcount), a histogram of them so the caller finds the k-th smallest without sorting, then the
  ;; indexes at or under that distance. Compiled into hamming-kernel.ts; hamming-kernel.test.ts checks the two agree.
  (memory (export "memory") 1)
  ;; Hamming distances of n 512-bit codes (64 bytes each, from $codes) to the query at $q: one u16 per code
  ;; at $out, and a histogram of the distances (513 u32 counters at $hist, zeroed by the caller).
  (func (export "scan") (param $q i32) (param $codes i32) (param $n i32) (param $out i32) (param $hist i32)
    (local $q0 i64) (local $q1 i64) (local $q2 i64) (local $q3 i64)
    (local $q4 i64) (local $q5 i64) (local $q6 i64) (local $q7 i64)
    (local $end i32) (local $d i32) (local $h i32)
    (local.set $q0 (i64.load offset=0 (local.get $q)))
    (local.set $q1 (i64.load offset=8 (local.get $q)))
    (local.set $q2 (i64.load offset=16 (local.get $q)))
    (local.set $q3 (i64.load offset=24 (local.get $q)))
    (local.set $q4 (i64.load offset=32 (local.get $q)))
    (local.set $q5 (i64.load offset=40 (local.get $q)))
    (local.set $q6 (i64.load offset=48 (local.get $q)))
    (local.set $q7 (i64.load offset=56 (local.get $q)))
    (local.set $end (i32.add (local.get $codes) (i32.shl (local.get $n) (i32.const 6))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $codes) (local.get $end)))
        (local.set $d (i32.wrap_i64
          (i64.add
            (i64.add
              (i64.add (i64.popcnt (i64.xor (i64.load offset=0 (local.get $codes)) (local.get $q0)))
                       (i64.popcnt (i64.xor (i64.load offset=8 (local.get $codes)) (local.get $q1))))
              (i64.add (i64.popcnt (i64.xor (i64.load offset=16 (local.get $codes)) (local.get $q2)))
                       (i64.popcnt (i64.xor (i64.load offset=24 (local.get $codes)) (local.get $q3)))))
            (i64.add
              (i64.add (i64.popcnt (i64.xor (i64.load offset=32 (local.get $codes)) (local.get $q4)))
                       (i64.popcnt (i64.xor (i64.load offset=40 (local.get $codes)) (local.get $q5))))
              (i64.add (i64.popcnt (i64.xor (i64.load offset=48 (local.get $codes)) (local.get $q6)))
                       (i64.popcnt (i64.xor (i64.load offset=56 (local.get $codes)) (local.get $q7))))))))
        (i32.store16 (local.get $out) (local.get $d))
        (local.set $h (i32.add (local.get $hist) (i32.shl (local.get $d) (i32.const 2))))
        (i32.store (local.get $h) (i32.add (i32.load (local.get $h)) (i32.const 1)))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (local.set $codes (i32.add (local.get $codes) (i32.const 64)))
        (br $next))))
  ;; Writes the index (u32, at $res) of every distance at $out (n of them) below $limit, then of the first
  ;; $ties equal to it, in index order; returns how many it wrote.
  (func (export "collect") (param $out i32) (param $n i32) (param $limit i32) (param $ties i32) (param $res i32) (result i32)
    (local $i i32) (local $d i32) (local $w i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $d (i32.load16_u (local.get $out)))
        (if (i32.or (i32.lt_u (local.get $d) (local.get $limit))
                    (i32.and (i32.eq (local.get $d) (local.get $limit)) (i32.gt_s (local.get $ties) (i32.const 0))))
          (then
            (if (i32.eq (local.get $d) (local.get $limit))
              (then (local.set $ties (i32.sub (local.get $ties) (i32.const 1)))))
            (i32.store (i32.add (local.get $res) (i32.shl (local.get $w) (i32.const 2))) (local.get $i))
            (local.set $w (i32.add (local.get $w) (i32.const 1)))))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $w)))
