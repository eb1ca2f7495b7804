# Reductions, softmax, cumsum, topk against torch.
f32 = np.float32
X = 'tensor<2x3x5xf32>'
CASES = [
    Case('softmax', [([2, 3, 5], f32, (-5, 5))], ['%r = "nn.softmax"(%arg0) {axis = 1 : i64} : (' + X + ') -> ' + X], X,
         lambda x: torch.softmax(x, 1)),
    Case('log_softmax', [([2, 3, 5], f32, (-5, 5))], ['%r = "nn.log_softmax"(%arg0) : (' + X + ') -> ' + X], X,
         lambda x: torch.log_softmax(x, -1)),
    Case('logsumexp', [([2, 3, 5], f32, (-50, 50))], ['%r = "nn.reduce_log_sum_exp"(%arg0) {axes = array<i64: 2>, keepdims = 0 : i64} : (' + X + ') -> tensor<2x3xf32>'],
         'tensor<2x3xf32>', lambda x: torch.logsumexp(x, 2)),
    Case('l2', [([2, 3, 5], f32)], ['%r = "nn.reduce_l2"(%arg0) {axes = array<i64: 0, 2>} : (' + X + ') -> tensor<1x3x1xf32>'],
         'tensor<1x3x1xf32>', lambda x: torch.linalg.vector_norm(x, 2, dim=(0, 2), keepdim=True)),
    Case('mean', [([2, 3, 5], f32)], ['%r = "nn.reduce_mean"(%arg0) {axes = array<i64: -1>, keepdims = 0 : i64} : (' + X + ') -> tensor<2x3xf32>'],
         'tensor<2x3xf32>', lambda x: x.mean(-1)),
    Case('argmax', [([2, 3, 5], f32)], ['%r = "nn.arg_max"(%arg0) {axis = 2 : i64, keepdims = 0 : i64} : (' + X + ') -> tensor<2x3xi64>'],
         'tensor<2x3xi64>', lambda x: torch.argmax(x, 2)),
    Case('cumsum_rev', [([2, 3, 5], f32)], ['%r = "nn.cum_sum"(%arg0) {axis = 2 : i64, reverse = 1 : i64} : (' + X + ') -> ' + X], X,
         lambda x: torch.flip(torch.cumsum(torch.flip(x, [2]), 2), [2])),
    Case('topk', [([4, 10], f32)], ['%k = "nn.constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>',
                                    '%r, %i = "nn.top_k"(%arg0, %k) : (tensor<4x10xf32>, tensor<1xi64>) -> (tensor<4x4xf32>, tensor<4x4xi64>)'],
         'tensor<4x4xf32>', lambda x: torch.topk(x, 4).values),
    Case('topk_indices_smallest', [([4, 10], f32)], ['%k = "nn.constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>',
                                    '%v, %r = "nn.top_k"(%arg0, %k) {largest = 0 : i64} : (tensor<4x10xf32>, tensor<1xi64>) -> (tensor<4x3xf32>, tensor<4x3xi64>)'],
         'tensor<4x3xi64>', lambda x: torch.topk(x, 3, largest=False).indices),
]
