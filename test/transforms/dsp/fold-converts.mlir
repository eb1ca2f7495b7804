// dsp-fold-converts: an identity conversion and an inverse pair fold to
// the value; a chain becomes one conversion; a conversion with another use
// stays.
// RUN: strata-opt %s --dsp-fold-converts | FileCheck %s

// CHECK-LABEL: func.func @inverse
// CHECK-NOT: dsp.convert_layout
// CHECK: return %arg0
func.func @inverse(%x: tensor<64x64xui8>) -> tensor<64x64xui8> {
  %a = "dsp.convert_layout"(%x) {from = "col2", to = "col4"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  %b = "dsp.convert_layout"(%a) {from = "col4", to = "col2"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  return %b : tensor<64x64xui8>
}

// CHECK-LABEL: func.func @identity
// CHECK-NOT: dsp.convert_layout
// CHECK: return %arg0
func.func @identity(%x: tensor<64x64xui8>) -> tensor<64x64xui8> {
  %a = "dsp.convert_layout"(%x) {from = "col1", to = "col1"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  return %a : tensor<64x64xui8>
}

// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[C:.*]] = "dsp.convert_layout"(%arg0) {from = "col1", to = "col4"}
// CHECK-NEXT: return %[[C]]
func.func @chain(%x: tensor<64x64xui8>) -> tensor<64x64xui8> {
  %a = "dsp.convert_layout"(%x) {from = "col1", to = "col2"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  %b = "dsp.convert_layout"(%a) {from = "col2", to = "col4"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  return %b : tensor<64x64xui8>
}

// The inner conversion has a second use: it stays, the outer one folds.
// CHECK-LABEL: func.func @shared
// CHECK-NEXT: %[[A:.*]] = "dsp.convert_layout"(%arg0) {from = "col2", to = "col4"}
// CHECK-NEXT: return %arg0, %[[A]]
func.func @shared(%x: tensor<64x64xui8>) -> (tensor<64x64xui8>, tensor<64x64xui8>) {
  %a = "dsp.convert_layout"(%x) {from = "col2", to = "col4"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  %b = "dsp.convert_layout"(%a) {from = "col4", to = "col2"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  return %b, %a : tensor<64x64xui8>, tensor<64x64xui8>
}

// Not inverse: col1 -> col2 then col4 -> col1 is no chain (the second does
// not read what the first wrote); both stay.
// CHECK-LABEL: func.func @mismatch
// CHECK-COUNT-2: dsp.convert_layout
func.func @mismatch(%x: tensor<64x64xui8>) -> tensor<64x64xui8> {
  %a = "dsp.convert_layout"(%x) {from = "col1", to = "col2"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  %b = "dsp.convert_layout"(%a) {from = "col4", to = "col1"} : (tensor<64x64xui8>) -> tensor<64x64xui8>
  return %b : tensor<64x64xui8>
}
