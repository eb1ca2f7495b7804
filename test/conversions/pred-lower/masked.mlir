// --pred-lower (mode=masked, the default) after --pred-if-to-guard: no
// branch is left; bodies run unconditionally where that is safe and
// arith.select picks the results.
// RUN: strata-opt %s --pred-if-to-guard --pred-lower | FileCheck %s
// RUN: strata-opt %s --pred-if-to-guard --pred-lower=mode=masked | FileCheck %s

// T2 (masked): the store becomes load old value, select, store, at an
// index forced to 0 (in bounds) when the predicate is false.
// CHECK-LABEL: func.func @t2
// CHECK-SAME: (%[[C:.*]]: i1, %[[M:.*]]: memref<4xf32>, %[[I:.*]]: index, %[[V:.*]]: f32)
// CHECK-NOT: scf.if
// CHECK: %[[J:.*]] = arith.select %[[C]], %[[I]], %{{.*}} : index
// CHECK: %[[OLD:.*]] = memref.load %[[M]][%[[J]]]
// CHECK: %[[S:.*]] = arith.select %[[C]], %[[V]], %[[OLD]] : f32
// CHECK: memref.store %[[S]], %[[M]][%[[J]]]

// T7: nested predicates are conjoined with arith.andi.
// CHECK-LABEL: func.func @t7
// CHECK-SAME: (%[[P:.*]]: i1, %[[Q:.*]]: i1, %[[R:.*]]: i1, %{{.*}}: f32)
// CHECK-NOT: scf.if
// CHECK-NOT: pred.guard
// CHECK: %[[PQ:.*]] = arith.andi %[[P]], %[[Q]] : i1
// CHECK: %[[PQR:.*]] = arith.andi %[[PQ]], %[[R]] : i1
// CHECK: %[[M:.*]] = arith.mulf
// CHECK: arith.select %[[PQR]], %[[M]]

// T8: the division runs with its divisor forced to 1 when b = 0: no SIGFPE.
// CHECK-LABEL: func.func @t8
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK: %[[NZ:.*]] = arith.cmpi ne, %[[B]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : i32
// CHECK: %[[D:.*]] = arith.select %[[NZ]], %[[B]], %[[ONE]] : i32
// CHECK: %[[Q:.*]] = arith.divsi %[[A]], %[[D]] : i32
// CHECK: arith.select %[[NZ]], %[[Q]], %{{.*}} : i32

// T9: the load's index is forced to 0 when the predicate is false.
// CHECK-LABEL: func.func @t9
// CHECK-SAME: (%[[P:.*]]: i1, %[[M:.*]]: memref<8xf32>, %[[IDX:.*]]: index, %[[D:.*]]: f32)
// CHECK: %[[J:.*]] = arith.select %[[P]], %[[IDX]], %{{.*}} : index
// CHECK: %[[V:.*]] = memref.load %[[M]][%[[J]]]
// CHECK: arith.select %[[P]], %[[V]], %[[D]] : f32

// T12: `if p: acc += x` is select(p, acc + x, acc) -- never acc + p*x.
// CHECK-LABEL: func.func @t12
// CHECK-SAME: (%[[P:.*]]: i1, %[[ACC:.*]]: f32, %[[X:.*]]: f32)
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[X]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[P]], %[[S]], %[[ACC]] : f32
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: arith.mulf
// CHECK-NOT: arith.uitofp
func.func @t2(%c: i1, %m: memref<4xf32>, %i: index, %v: f32) {
  scf.if %c {
    memref.store %v, %m[%i] : memref<4xf32>
  }
  return
}
func.func @t7(%p: i1, %q: i1, %r: i1, %x: f32) -> f32 {
  %a = scf.if %p -> f32 {
    %b = scf.if %q -> f32 {
      %c = scf.if %r -> f32 {
        %m = arith.mulf %x, %x : f32
        scf.yield %m : f32
      } else {
        scf.yield %x : f32
      }
      scf.yield %c : f32
    } else {
      scf.yield %x : f32
    }
    scf.yield %b : f32
  } else {
    scf.yield %x : f32
  }
  return %a : f32
}
func.func @t8(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %nz = arith.cmpi ne, %b, %c0 : i32
  %r = scf.if %nz -> i32 {
    %d = arith.divsi %a, %b : i32
    scf.yield %d : i32
  } else {
    scf.yield %c0 : i32
  }
  return %r : i32
}
func.func @t9(%p: i1, %m: memref<8xf32>, %idx: index, %d: f32) -> f32 {
  %r = scf.if %p -> f32 {
    %v = memref.load %m[%idx] : memref<8xf32>
    scf.yield %v : f32
  } else {
    scf.yield %d : f32
  }
  return %r : f32
}
func.func @t12(%p: i1, %acc: f32, %x: f32) -> f32 {
  %r = scf.if %p -> f32 {
    %s = arith.addf %acc, %x : f32
    scf.yield %s : f32
  } else {
    scf.yield %acc : f32
  }
  return %r : f32
}

// nn ops that fail on garbage operands run unconditionally with operand 1
// forced: a gather's indices to zeros, an integer division's divisor to
// ones (a float division needs nothing: it does not trap).
// CHECK-LABEL: func.func @nn_operands
// CHECK-SAME: (%[[P:[^:]*]]: i1, %[[X:[^:]*]]: tensor<6xf32>, %[[I:[^:]*]]: tensor<1xi64>, %[[N:[^:]*]]: tensor<2xi32>, %[[D:[^:]*]]: tensor<2xi32>)
// CHECK-NOT: scf.if
// CHECK: %[[Z:.*]] = arith.constant dense<0> : tensor<1xi64>
// CHECK: %[[SI:.*]] = arith.select %[[P]], %[[I]], %[[Z]] : tensor<1xi64>
// CHECK: "nn.gather"(%[[X]], %[[SI]])
// CHECK: %[[ONES:.*]] = arith.constant dense<1> : tensor<2xi32>
// CHECK: %[[SD:.*]] = arith.select %[[P]], %[[D]], %[[ONES]] : tensor<2xi32>
// CHECK: "nn.div"(%[[N]], %[[SD]])
// CHECK-NOT: scf.if
func.func @nn_operands(%p: i1, %x: tensor<6xf32>, %i: tensor<1xi64>, %n: tensor<2xi32>,
                       %d: tensor<2xi32>) -> (tensor<1xf32>, tensor<2xi32>) {
  %r:2 = scf.if %p -> (tensor<1xf32>, tensor<2xi32>) {
    %g = "nn.gather"(%x, %i) {axis = 0 : i64} : (tensor<6xf32>, tensor<1xi64>) -> tensor<1xf32>
    %q = "nn.div"(%n, %d) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    scf.yield %g, %q : tensor<1xf32>, tensor<2xi32>
  } else {
    %a = arith.constant dense<-1.0> : tensor<1xf32>
    %b = arith.constant dense<0> : tensor<2xi32>
    scf.yield %a, %b : tensor<1xf32>, tensor<2xi32>
  }
  return %r#0, %r#1 : tensor<1xf32>, tensor<2xi32>
}
