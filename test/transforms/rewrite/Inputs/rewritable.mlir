// One function with something for every Table 3.4 row and rule family.
// Inputs that reach sqrt or a reciprocal go through exp first, so they are
// positive and away from 0 (random inputs are in [-1, 1)).
func.func @main(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>, %u: tensor<4x8xui8>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>,
        tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xui8>, tensor<4x1xf32>, tensor<4x8xf32>,
        tensor<4x8xf32>, tensor<4x1xf32>) {
  %pa = "nn.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %pb = "nn.exp"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  // Row 1.
  %r1a = "nn.reciprocal"(%pa) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r1ab = "nn.mul"(%pa, %pb) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r1b = "nn.reciprocal"(%r1ab) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %o1 = "nn.mul"(%r1a, %r1b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // Row 2.
  %s1 = "nn.sqrt"(%pb) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %s2 = "nn.sqrt"(%pb) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l2 = "nn.mul"(%a, %s1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %m2 = "nn.mul"(%s2, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o2 = "nn.mul"(%l2, %m2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // Row 3.
  %aa = "nn.abs"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t3 = "nn.mul"(%aa, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ac = "nn.abs"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %o3 = "nn.mul"(%t3, %ac) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // Row 4.
  %rs1 = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %rs2 = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %l4 = "nn.mul"(%a, %rs1) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %m4 = "nn.mul"(%rs2, %c) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o4 = "nn.mul"(%l4, %m4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // Row 5.
  %ac5 = "nn.mul"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ab5 = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o5 = "nn.add"(%ac5, %ab5) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // Row 6.
  %ab6 = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o6 = "nn.add"(%a, %ab6) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // Row 7.
  %p7 = "nn.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq7 = "nn.mul"(%p7, %p7) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %q7 = "nn.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t7 = "nn.mul"(%q7, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o7 = "nn.sub"(%sq7, %t7) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  // Row 9 (ui8 wraps: exact).
  %two = "nn.constant"() {value = dense<2> : tensor<ui8>} : () -> tensor<ui8>
  %sh = "nn.bit_shift"(%u, %two) {direction = "LEFT"} : (tensor<4x8xui8>, tensor<ui8>) -> tensor<4x8xui8>
  %o9 = "nn.reduce_sum"(%sh) {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4x1xui8>
  // Row 10.
  %e10 = "nn.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %o10 = "nn.reduce_prod"(%e10) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  // Families: constant chains of Mul, Add/Sub and Div.
  %k1 = "nn.constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %k2 = "nn.constant"() {value = dense<[0.5, 1.0, 2.0, 4.0, -1.0, -2.0, 0.25, 3.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %f1 = "nn.mul"(%a, %k1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %f2 = "nn.sub"(%f1, %k2) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %f3 = "nn.add"(%f2, %k1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %f4 = "nn.mul"(%f3, %k2) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %of = "nn.mul"(%f4, %k1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %d1 = "nn.div"(%b, %k1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %od = "nn.div"(%d1, %k2) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  // Family: a scalar out of a reduction.
  %m8 = "nn.mul"(%c, %k1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %or = "nn.reduce_mean"(%m8) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o9, %o10, %of, %od, %or
    : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>,
      tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x1xui8>, tensor<4x1xf32>, tensor<4x8xf32>,
      tensor<4x8xf32>, tensor<4x1xf32>
}
