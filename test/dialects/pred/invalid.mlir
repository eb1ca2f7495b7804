// pred.guard's checks: IRDL the structure, the C verifier the rest, each
// with a located message. (T13: an unlikely guard inside another.)
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @not_i1(%p: i32, %x: f32) -> f32 {
  // expected-error@+1 {{expected 'i1' but got 'i32'}}
  %r = "pred.guard"(%p, %x) ({
    "gpu.yield"(%x) : (f32) -> ()
  }) : (i32, f32) -> f32
  return %r : f32
}

// -----

func.func @no_else(%p: i1, %x: f32) -> f32 {
  // expected-error@+1 {{'pred.guard' op has 1 results but 0 else operands}}
  %r = "pred.guard"(%p) ({
    "gpu.yield"(%x) : (f32) -> ()
  }) : (i1) -> f32
  return %r : f32
}

// -----

func.func @else_type(%p: i1, %x: f32, %i: i32) -> f32 {
  // expected-error@+1 {{'pred.guard' op result #0 has type f32 but its else operand is i32 and the body yields f32}}
  %r = "pred.guard"(%p, %i) ({
    "gpu.yield"(%x) : (f32) -> ()
  }) : (i1, i32) -> f32
  return %r : f32
}

// -----

func.func @wrong_terminator(%p: i1, %x: f32) -> f32 {
  // expected-error@+1 {{'pred.guard' op body must end with 'gpu.yield' of 1 value (one per result)}}
  %r = "pred.guard"(%p, %x) ({
    "gpu.yield"() : () -> ()
  }) : (i1, f32) -> f32
  return %r : f32
}

// -----

func.func @nested_unlikely(%p: i1, %q: i1, %x: f32) -> f32 {
  %r = "pred.guard"(%p, %x) ({
    // expected-error@+1 {{'pred.guard' op is 'unlikely' inside an 'unlikely' guard; unlikely guards cannot be nested}}
    %s = "pred.guard"(%q, %x) ({
      %y = arith.mulf %x, %x : f32
      "gpu.yield"(%y) : (f32) -> ()
    }) {unlikely} : (i1, f32) -> f32
    "gpu.yield"(%s) : (f32) -> ()
  }) {unlikely} : (i1, f32) -> f32
  return %r : f32
}

// -----

func.func @unlikely_not_unit(%p: i1, %x: f32) -> f32 {
  // expected-error@+1 {{'pred.guard' op needs attribute 'unlikely': a unit attribute}}
  %r = "pred.guard"(%p, %x) ({
    "gpu.yield"(%x) : (f32) -> ()
  }) {unlikely = 1 : i64} : (i1, f32) -> f32
  return %r : f32
}
