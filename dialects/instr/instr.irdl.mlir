// The `instr` dialect: instrumentation probes (issue 7, Amanda-style tools).
//
// Written by hand (strata-gen-irdl generates `nn` only). IRDL states the
// structure; the attributes (op_id, point, tool, op_name, index) and the
// pass-through typing are checked in C (dialects/instr/instr_ops.c), which
// names the attribute at fault. A probe carries one tensor: an IRDL
// constraint variable binds one type per op, so a variadic group would have
// to be homogeneous; one probe per value keeps any mix of types possible.
irdl.dialect @instr {
  irdl.operation @probe {
    %t0 = irdl.base "!builtin.tensor"
    %t1 = irdl.base "!builtin.tensor"
    irdl.operands(input: %t0)
    irdl.results(output: %t1)
  }
}
