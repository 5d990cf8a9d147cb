;; The float32 kernel search used before issue 17 (commit 977bda7), kept for experiments/scan-dims.ts.
;; Dot products of one query with every row of a row-major f32 matrix, 8 lanes at a time (SIMD).
;; Rows are `stride` floats long, stride a multiple of 8 (rows are zero-padded); results go to `out`.
(module
  (import "env" "memory" (memory 1))
  (func (export "scores")
    (param $matrix i32) (param $query i32) (param $rows i32) (param $stride i32) (param $out i32)
    (local $r i32) (local $row i32) (local $q i32) (local $end i32) (local $a v128) (local $b v128)
    (local.set $end (i32.add (local.get $query) (i32.shl (local.get $stride) (i32.const 2))))
    (local.set $row (local.get $matrix))
    (block $rows_done
      (loop $rows_loop
        (br_if $rows_done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $a (v128.const f32x4 0 0 0 0))
        (local.set $b (v128.const f32x4 0 0 0 0))
        (local.set $q (local.get $query))
        (block $dims_done
          (loop $dims_loop
            (br_if $dims_done (i32.ge_u (local.get $q) (local.get $end)))
            (local.set $a (f32x4.add (local.get $a)
              (f32x4.mul (v128.load (local.get $row)) (v128.load (local.get $q)))))
            (local.set $b (f32x4.add (local.get $b)
              (f32x4.mul (v128.load offset=16 (local.get $row)) (v128.load offset=16 (local.get $q)))))
            (local.set $row (i32.add (local.get $row) (i32.const 32)))
            (local.set $q (i32.add (local.get $q) (i32.const 32)))
            (br $dims_loop)))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (local.get $out)
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rows_loop)))))
