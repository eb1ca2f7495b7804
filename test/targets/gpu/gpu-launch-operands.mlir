// gpu-launch-operands: a scalar the host would load from a buffer, and the
// arithmetic on it, is computed inside each gpu.launch that uses it, unless
// an op from the load up to the launch may write the buffer (or a view of
// it); constant globals named inside a launch move before it.
// RUN: strata-opt %s --gpu-launch-operands | FileCheck %s

// The load and the arithmetic on it move into the launch; the host's copy
// is left for canonicalization to drop.
// CHECK-LABEL: func.func @sink(
// CHECK: gpu.launch
// CHECK-NEXT: %[[I:.+]] = arith.constant 1 : index
// CHECK-NEXT: %[[V:.+]] = memref.load %arg0[%[[I]]] : memref<4xf32>
// CHECK-NEXT: %[[W:.+]] = arith.mulf %[[V]], %[[V]] : f32
// CHECK: memref.store %[[W]], %arg1[%{{.+}}]
func.func @sink(%a: memref<4xf32>, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %v = memref.load %a[%c1] : memref<4xf32>
  %w = arith.mulf %v, %v : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %w, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// A launch in between writes the buffer (through a view): the load stays.
// CHECK-LABEL: func.func @written_between(
// CHECK: %[[V:.+]] = memref.load %arg0
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: memref.load
// CHECK: memref.store %[[V]], %arg1
func.func @written_between(%a: memref<4xf32>, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  %v = memref.load %a[%c1] : memref<4xf32>
  %view = memref.subview %a[1] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1], offset: 1>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %view[%tx] : memref<2xf32, strided<[1], offset: 1>>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// The launch that uses the value also writes the buffer: its work-items
// could read another's store, so the load stays on the host.
// CHECK-LABEL: func.func @written_by_launch(
// CHECK: %[[V:.+]] = memref.load %arg0
// CHECK: gpu.launch
// CHECK-NOT: memref.load
// CHECK: memref.store %[[V]], %arg0
func.func @written_by_launch(%a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %v = memref.load %a[%c1] : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %a[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// Reading the buffer elsewhere (a copy's source) does not stop it.
// CHECK-LABEL: func.func @read_between(
// CHECK: memref.copy
// CHECK: gpu.launch
// CHECK: memref.load %arg0
func.func @read_between(%a: memref<4xf32>, %b: memref<4xf32>, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %v = memref.load %a[%c1] : memref<4xf32>
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}

// A constant global (an error site's text) named in a launch, and its cast,
// move before it.
memref.global "private" constant @site : memref<3xi8> = dense<[1, 2, 3]>
func.func private @use(memref<*xi8>)
// CHECK-LABEL: func.func @globals(
// CHECK: %[[G:.+]] = memref.get_global @site
// CHECK-NEXT: %[[C:.+]] = memref.cast %[[G]]
// CHECK-NEXT: gpu.launch
// CHECK: func.call @use(%[[C]])
func.func @globals() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %g = memref.get_global @site : memref<3xi8>
    %u = memref.cast %g : memref<3xi8> to memref<*xi8>
    func.call @use(%u) : (memref<*xi8>) -> ()
    gpu.terminator
  }
  return
}

// The load reads a reshape of a buffer that a launch in between writes
// through the buffer itself: the load stays.
// CHECK-LABEL: func.func @reshaped(
// CHECK: %[[V:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<4xf32>
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: memref.load
// CHECK: memref.store %[[V]], %arg2
func.func @reshaped(%a: memref<2x2xf32>, %shape: memref<1xindex>, %out: memref<8xf32>) {
  %c1 = arith.constant 1 : index
  %f = arith.constant 2.0 : f32
  %r = memref.reshape %a(%shape) : (memref<2x2xf32>, memref<1xindex>) -> memref<4xf32>
  %v = memref.load %r[%c1] : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %f, %a[%tx, %tx] : memref<2x2xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %v, %out[%tx] : memref<8xf32>
    gpu.terminator
  }
  return
}
