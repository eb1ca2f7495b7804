// A grouped QLinearConv: no dsp plan (nn-to-dsp refuses it), so the hexagon
// target cannot compile it.
func.func @f(%x: tensor<1x4x5x5xui8>, %w: tensor<4x1x3x3xi8>) -> tensor<1x4x3x3xui8> {
  %s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<7> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %g = "nn.qlinear_conv"(%x, %s, %zu, %w, %s, %zi, %s, %zu) {group = 4 : i64} : (tensor<1x4x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<4x1x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x3x3xui8>
  return %g : tensor<1x4x3x3xui8>
}
