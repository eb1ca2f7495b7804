// Fused code generation with dynamic dims (SOD² Fig. 5.4, digest C3.3):
// sigmoid(reduce_mean(x, {1,2}, keepdims)) + x is one block of nn-fuse and
// one loop nest reading the [I,1,1] mean with a stride-0 broadcast, at any
// I, J, K -- as at static shapes. The CPU pipelines resolve the lowered
// ops' result dims (resolve-ranked-shaped-type-result-dims) before
// element-wise fusion: without it the dims read from the sigmoid's result
// are extra uses that keep the producer out of the consumer (APART).
// Numerics: test/e2e/dynamic/fusion.mlir.
// RUN: strata-opt %s --pass-pipeline='builtin.module(nn-fuse{cpu-kernels},nn-to-kernels,func.func(nn-to-linalg),func.func(resolve-ranked-shaped-type-result-dims),func.func(fused-blocks-remap),func.func(linalg-fuse-elementwise-ops),func.func(fused-blocks-tile),func.func(fused-blocks-inline))' | FileCheck %s
// RUN: strata-opt %s --pass-pipeline='builtin.module(nn-fuse{cpu-kernels},nn-to-kernels,func.func(nn-to-linalg),func.func(fused-blocks-remap),func.func(linalg-fuse-elementwise-ops),func.func(fused-blocks-tile),func.func(fused-blocks-inline))' | FileCheck %s --check-prefix=APART

// CHECK-LABEL: func.func @se
// the mean: the sum over J and K, then the division by J*K
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "reduction"]
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel"]
// CHECK: arith.divf
// then one nest: sigmoid of the broadcast mean, plus x
// CHECK: linalg.generic {indexing_maps = [#[[BCAST:map[0-9]*]], #{{map[0-9]*}}, #{{map[0-9]*}}]
// CHECK-SAME: ins(%{{.*}}, %arg0 : tensor<?x1x1xf32>, tensor<?x?x?xf32>)
// CHECK: math.exp
// CHECK: arith.divf
// CHECK: arith.addf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return

// APART-LABEL: func.func @se
// APART: math.exp
// APART: linalg.yield
// APART: linalg.generic
// APART-SAME: ins(%{{.*}}, %arg0 : tensor<?x1x1xf32>, tensor<?x?x?xf32>)
func.func @se(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %a = "nn.reduce_mean"(%x) {axes = array<i64: 1, 2>} : (tensor<?x?x?xf32>) -> tensor<?x1x1xf32>
  %s = "nn.sigmoid"(%a) : (tensor<?x1x1xf32>) -> tensor<?x1x1xf32>
  %y = "nn.add"(%s, %x) : (tensor<?x1x1xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}
