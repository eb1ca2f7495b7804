// dsp.matmul shapes for matmul.test: panels (32 rows) and groups (4
// columns) with ragged edges, sizes beyond one vector, the smallest one,
// and a plan written by dsp-select-layouts.
func.func @odd(%a: tensor<70x37xui8>, %b: tensor<37x7xi8>) -> tensor<70x7xi32> {
  %c = "dsp.matmul"(%a, %b) {inst = "vrmpy", layout = "col4"} : (tensor<70x37xui8>, tensor<37x7xi8>) -> tensor<70x7xi32>
  return %c : tensor<70x7xi32>
}
func.func @wide(%a: tensor<130x131xui8>, %b: tensor<131x3xi8>) -> tensor<130x3xi32> {
  %c = "dsp.matmul"(%a, %b) : (tensor<130x131xui8>, tensor<131x3xi8>) -> tensor<130x3xi32>
  return %c : tensor<130x3xi32>
}
func.func @full(%a: tensor<64x128xui8>, %b: tensor<128x4xi8>) -> tensor<64x4xi32> {
  %c = "dsp.matmul"(%a, %b) : (tensor<64x128xui8>, tensor<128x4xi8>) -> tensor<64x4xi32>
  return %c : tensor<64x4xi32>
}
func.func @one(%a: tensor<1x1xui8>, %b: tensor<1x1xi8>) -> tensor<1x1xi32> {
  %c = "dsp.matmul"(%a, %b) : (tensor<1x1xui8>, tensor<1x1xi8>) -> tensor<1x1xi32>
  return %c : tensor<1x1xi32>
}
func.func @requant(%x: tensor<70x7xi32>) -> tensor<70x7xui8> {
  %y = "dsp.requant"(%x) {shift = 7, layout = "col4"} : (tensor<70x7xi32>) -> tensor<70x7xui8>
  return %y : tensor<70x7xui8>
}
// GCD²'s quantized layer: a MatMul, then its accumulators back to u8 (the
// intermediate on the stack), with a conversion selection inserted.
func.func @layer(%a: tensor<70x37xui8>, %b: tensor<37x7xi8>) -> tensor<70x7xui8> {
  %c = "dsp.matmul"(%a, %b) {inst = "vrmpy", layout = "col4"} : (tensor<70x37xui8>, tensor<37x7xi8>) -> tensor<70x7xi32>
  %d = "dsp.convert_layout"(%c) {from = "col4", to = "col1"} : (tensor<70x7xi32>) -> tensor<70x7xi32>
  %y = "dsp.requant"(%d) {shift = 9, layout = "col1"} : (tensor<70x7xi32>) -> tensor<70x7xui8>
  return %y : tensor<70x7xui8>
}
