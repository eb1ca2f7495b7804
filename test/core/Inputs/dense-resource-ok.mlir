// A dense_resource constant whose blob (a quoted key) holds its two floats.
func.func @f() -> tensor<2xf32> {
  %w = arith.constant dense_resource<"a blob"> : tensor<2xf32>
  return %w : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      "a blob": "0x040000000000803F00000040"
    }
  }
#-}
