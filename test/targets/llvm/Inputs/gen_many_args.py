"""Writes a function of 40 inputs and 40 results (80 memref arguments once
results are out-params): the JIT's packed entry takes any number.
Usage: gen_many_args.py > OUT.mlir"""
n=40
args=', '.join('%%a%d: tensor<4xf32>' % i for i in range(n))
res=', '.join('tensor<4xf32>' for i in range(n))
body=''.join('  %%r%d = "nn.relu"(%%a%d) : (tensor<4xf32>) -> tensor<4xf32>\n' % (i,i) for i in range(n))
ret=', '.join('%%r%d' % i for i in range(n))
print('func.func @many(%s) -> (%s) {\n%s  return %s : %s\n}' % (args,res,body,ret,res))
