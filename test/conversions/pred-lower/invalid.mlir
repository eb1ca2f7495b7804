// RUN: not strata-opt %s --pred-lower=mode=sometimes 2>&1 | FileCheck %s
// CHECK: pred-lower: mode 'sometimes' is neither 'masked' nor 'skip'
func.func @f() {
  return
}
