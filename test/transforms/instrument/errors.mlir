// --instrument's diagnostics: unknown tools and bad options are errors with
// a location and a non-zero exit; the IR is not written.
// RUN: not strata-opt %s --instrument="tool=tracer" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not strata-opt %s --instrument="ops=nn.relu" 2>&1 | FileCheck %s --check-prefix=NOTOOL
// RUN: not strata-opt %s --instrument="tool=trace point=middle" 2>&1 | FileCheck %s --check-prefix=POINT
// RUN: not strata-opt %s --instrument="tool=profile point=after" 2>&1 | FileCheck %s --check-prefix=PROFILE
// RUN: not strata-opt %s --instrument="tool=flops point=after" 2>&1 | FileCheck %s --check-prefix=FLOPS
// RUN: not strata-opt %s --instrument="tool=prune sparsity=1.5" 2>&1 | FileCheck %s --check-prefix=SPARSITY
// RUN: not strata-opt %s --instrument="tool=trace,nope" 2>&1 | FileCheck %s --check-prefix=UNKNOWN2
// RUN: not strata-opt %s --instrument="tool=trace oops=nn.relu" 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not strata-opt %s --instrument="tool=trace sparsity=lots" 2>&1 | FileCheck %s --check-prefix=NUMBER
// RUN: not strata-opt %s "--instrument=tool=trace ops=[[[" 2>&1 | FileCheck %s --check-prefix=GLOB
// RUN: not strata-opt %s --instrument="tool=trace ops=nn.relu,,nn.add" 2>&1 | FileCheck %s --check-prefix=EMPTYGLOB
// RUN: not strata-run %s --instrument "tool=trace ops=nn.re[lu]" 2>&1 | FileCheck %s --check-prefix=GLOB

// UNKNOWN: errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: instrument: unknown tool 'tracer' (built-in tools: flops, trace, profile, prune, fakequant, dump, noop)
// UNKNOWN-NOT: func.func
// NOTOOL: errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: instrument: option 'tool' is required
// POINT: errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: instrument: option 'point' must be before, after or both, not 'middle'
// PROFILE: error: instrument: tool 'profile' takes point=both, not 'after'
// FLOPS: error: instrument: tool 'flops' is static and takes no point (got 'after')
// SPARSITY: error: instrument: tool 'prune' needs sparsity in [0, 1], got 1.5
// UNKNOWN2: error: instrument: unknown tool 'nope'
// OPTION: <pass-pipeline>:1:1: error: pass 'instrument' has no option 'oops'; did you mean 'ops'?
// GLOB: errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error: instrument: ops='{{.*}}': bad character in an op-name glob (a comma-separated list of op-name globs: letters, digits, '_', '.', '*', '?')
// GLOB-NOT: func.func
// EMPTYGLOB: error: instrument: ops='nn.relu,,nn.add': empty glob
// NUMBER: <pass-pipeline>:1:1: error: pass 'instrument': option 'sparsity' expects a number, got 'lots'
module {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    return %a : tensor<4xf32>
  }
}
