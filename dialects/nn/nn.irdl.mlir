// The `nn` dialect: one op per DNN operator, on ranked tensors, ONNX semantics.
//
// IRDL states each op's operand/result/attribute structure. What IRDL cannot
// express -- shape agreement between operands, optional attributes with
// defaults, attribute value ranges -- is verified in C (dialects/nn/*.c), which
// names the offending operand and the expected shape in its diagnostics.
//
// Each operand gets its own constraint variable: an IRDL variable binds one
// type for the whole op, and operands of one op may differ in shape.
irdl.dialect @nn {
  // Weights and other compile-time tensors: `value` is a dense elements attr.
  irdl.operation @constant {
    %dense = irdl.base "#builtin.dense_int_or_fp_elements"
    %resource = irdl.base "#builtin.dense_resource_elements"
    %value = irdl.any_of(%dense, %resource)
    irdl.attributes {"value" = %value}
    %out = irdl.base "!builtin.tensor"
    irdl.results(output: %out)
  }

  // Y = max(X, 0), elementwise.
  irdl.operation @relu {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(input: %x)
    irdl.results(output: %y)
  }

  // C = A + B with numpy/ONNX multidirectional broadcasting.
  irdl.operation @add {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(output: %c)
  }

  // ONNX MatMul: numpy.matmul semantics (1-D promotion, batched, broadcast
  // batch dimensions).
  irdl.operation @matmul {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %c = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(output: %c)
  }

  // 2-D convolution, NCHW input, FCHW (Cout, Cin/groups, Kh, Kw) filter,
  // optional bias of shape [Cout]. Optional attributes (verified in C):
  // strides = array<i64: sh, sw>, pads = array<i64: top, left, bottom, right>,
  // dilations = array<i64: dh, dw>, groups = i64.
  irdl.operation @conv2d {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    irdl.operands(input: %x, filter: %w, bias: optional %b)
    irdl.results(output: %y)
  }
}
