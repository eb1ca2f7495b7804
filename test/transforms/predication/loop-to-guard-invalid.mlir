// --pred-loop-to-guard refuses a bounded loop whose body has effects a
// predicate cannot hold back (R1), with the error at the op.
// RUN: strata-opt %s --pred-loop-to-guard --verify-diagnostics
// RUN: not strata-opt %s --pred-loop-to-guard=bound=-1 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: pred-loop-to-guard: bound=-1 is negative

func.func @prints(%x: f32) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.while (%i = %c0) : (index) -> index {
    %lt = arith.cmpi slt, %i, %c4 : index
    scf.condition(%lt) %i : index
  } do {
  ^bb0(%i: index):
    // expected-error@+1 {{cannot predicate this scf.while: 'vector.print' has side effects Strata does not know}}
    vector.print %x : f32
    %j = arith.addi %i, %c1 : index
    scf.yield %j : index
  }
  return %r : index
}
