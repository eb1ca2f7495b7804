// Recurrent ops: an scf.for over the steps by default (carrying h, c and y;
// the step's x W^T rows sliced at the loop index, reversed for the backward
// direction); unroll-rnn (the GPU and Hexagon pipelines) unrolls a static
// sequence instead. Numerics: test/e2e/nn/rnn.mlir (CPU: the loop;
// vulkan/opencl nn-numerics: unrolled), test/e2e/dynamic/rnn.mlir.
// RUN: strata-opt %s --nn-to-linalg | FileCheck %s --check-prefix=LOOP
// RUN: strata-opt %s --nn-to-linalg=unroll-rnn=true | FileCheck %s --check-prefix=UNROLL

// LOOP-LABEL: func.func @lstm_bidirectional
// LOOP: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (tensor<3x3xf32>, tensor<4x2x3x3xf32>, tensor<3x3xf32>)
// LOOP: tensor.extract_slice %{{.*}}[%[[I]], 0, 0, 0] [1, 3, 4, 3]
// LOOP: tensor.insert_slice %{{.*}}[%[[I]], %{{.*}}, 0, 0] [1, 1, 3, 3]
// LOOP: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step
// LOOP: %[[T:.*]] = arith.subi %{{.*}}, %[[J]] : index
// LOOP: tensor.extract_slice %{{.*}}[%[[T]], 0, 0, 0] [1, 3, 4, 3]
// LOOP: tensor.insert_slice %{{.*}}[%[[T]], %{{.*}}, 0, 0] [1, 1, 3, 3]
// LOOP-NOT: scf.for
// UNROLL-LABEL: func.func @lstm_bidirectional
// UNROLL-NOT: scf.for
// UNROLL: tensor.insert_slice %{{.*}}[3, 1, 0, 0] [1, 1, 3, 3]
// UNROLL-NOT: scf.for
func.func @lstm_bidirectional(%x: tensor<4x3x5xf32>, %w: tensor<2x12x5xf32>, %r: tensor<2x12x3xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r) {direction = "bidirectional", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>} : (tensor<4x3x5xf32>, tensor<2x12x5xf32>, tensor<2x12x3xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<4x2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>
}
