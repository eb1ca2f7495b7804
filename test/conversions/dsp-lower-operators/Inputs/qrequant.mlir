// dsp.qrequant and dsp.qsum with every parameter a function argument, so
// that the requantization's multiplier m = a_scale * b_scale / y_scale is
// computed at run time from any f32 values (qrequant.test feeds zeros,
// infinities, NaN, denormals, huge and negative scales, exact halves) and
// full-range i32 sums. @u8: per-row a and y parameters, per-column b
// parameters and bias, a u8 result with relu; @s8: per-tensor parameters, an
// i8 result; @sum: dsp.qsum.
func.func @u8(%acc: tensor<7x5xi32>, %rs: tensor<7x1xi32>, %cs: tensor<1x5xi32>, %as: tensor<7xf32>, %az: tensor<7xi8>, %bs: tensor<5xf32>, %bz: tensor<5xui8>, %ys: tensor<7xf32>, %yz: tensor<7xui8>, %bias: tensor<5xi32>) -> tensor<7x5xui8> {
  %y = "dsp.qrequant"(%acc, %rs, %cs, %as, %az, %bs, %bz, %ys, %yz, %bias) {k = 1000, relu} : (tensor<7x5xi32>, tensor<7x1xi32>, tensor<1x5xi32>, tensor<7xf32>, tensor<7xi8>, tensor<5xf32>, tensor<5xui8>, tensor<7xf32>, tensor<7xui8>, tensor<5xi32>) -> tensor<7x5xui8>
  return %y : tensor<7x5xui8>
}
func.func @s8(%acc: tensor<7x5xi32>, %rs: tensor<7x1xi32>, %cs: tensor<1x5xi32>, %as: tensor<f32>, %az: tensor<1xui8>, %bs: tensor<1xf32>, %bz: tensor<i8>, %ys: tensor<f32>, %yz: tensor<i8>) -> tensor<7x5xi8> {
  %y = "dsp.qrequant"(%acc, %rs, %cs, %as, %az, %bs, %bz, %ys, %yz) {k = 3} : (tensor<7x5xi32>, tensor<7x1xi32>, tensor<1x5xi32>, tensor<f32>, tensor<1xui8>, tensor<1xf32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<7x5xi8>
  return %y : tensor<7x5xi8>
}
func.func @sum(%acc: tensor<7x5xi32>, %rs: tensor<7x1xi32>, %cs: tensor<1x5xi32>, %az: tensor<7xi8>, %bz: tensor<5xui8>) -> tensor<7x5xi32> {
  %y = "dsp.qsum"(%acc, %rs, %cs, %az, %bz) {k = 123457} : (tensor<7x5xi32>, tensor<7x1xi32>, tensor<1x5xi32>, tensor<7xi8>, tensor<5xui8>) -> tensor<7x5xi32>
  return %y : tensor<7x5xi32>
}
