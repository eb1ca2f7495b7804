// --pred-if-to-guard refuses what predication cannot hold back, with the
// error at the op at fault and nothing rewritten.
// RUN: strata-opt %s --pred-if-to-guard --split-input-file --verify-diagnostics

// T10 (R1): a call to a function without a body (printf: host effects).
func.func private @printf(i32) -> i32
func.func @calls_printf(%c: i1, %x: i32) {
  scf.if %c {
    // expected-error@+1 {{cannot predicate this scf.if: it calls '@printf', a function without a body whose host side effects a predicate cannot suppress (R1)}}
    %n = func.call @printf(%x) : (i32) -> i32
  }
  return
}

// -----

// T10 (R1): an op whose effects Strata does not know.
func.func @unknown_effects(%c: i1, %x: f32) {
  scf.if %c {
    // expected-error@+1 {{cannot predicate this scf.if: 'vector.print' has side effects Strata does not know}}
    vector.print %x : f32
  }
  return
}

// -----

// R1 through a call: the callee's body is checked too.
func.func private @host(f32)
func.func @helper(%x: f32) {
  // expected-error@+1 {{it calls '@host', a function without a body}}
  func.call @host(%x) : (f32) -> ()
  return
}
func.func @calls_helper(%c: i1, %x: f32) {
  scf.if %c {
    func.call @helper(%x) : (f32) -> ()
  }
  return
}

// -----

// T11 (R4): the branches yield tensors whose shape depends on the predicate:
// the scf.if is left as a branch, with a remark.
func.func @shape_depends(%c: i1, %d1: index, %d2: index) -> tensor<?xf32> {
  // expected-remark@+1 {{pred-if-to-guard: left as a branch: result #0 of type tensor<?xf32> has a dynamic shape, which may depend on the predicate (R4)}}
  %r = scf.if %c -> tensor<?xf32> {
    %a = tensor.empty(%d1) : tensor<?xf32>
    scf.yield %a : tensor<?xf32>
  } else {
    %b = tensor.empty(%d2) : tensor<?xf32>
    scf.yield %b : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Values of two types and a branch that writes memory: one guard per type
// would write twice.
func.func @two_types_store(%c: i1, %x: f32, %n: i32, %m: memref<f32>) -> (f32, i32) {
  // expected-error@+1 {{cannot predicate this scf.if: its results have 2 types and its then branch writes memory or calls}}
  %r:2 = scf.if %c -> (f32, i32) {
    memref.store %x, %m[] : memref<f32>
    scf.yield %x, %n : f32, i32
  } else {
    scf.yield %x, %n : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
