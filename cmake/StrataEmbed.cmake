# strata_embed_file(<input> <symbol> <output.c>)
# Generates a C file defining `const char <symbol>[]` (NUL-terminated) and
# `const unsigned long <symbol>_len` holding the bytes of <input>, rebuilt when
# the input changes.
function(strata_embed_file input symbol output)
  add_custom_command(
    OUTPUT "${output}"
    COMMAND "${CMAKE_COMMAND}" -DINPUT=${input} -DSYMBOL=${symbol} -DOUTPUT=${output}
            -P "${CMAKE_SOURCE_DIR}/cmake/StrataEmbedRun.cmake"
    DEPENDS "${input}" "${CMAKE_SOURCE_DIR}/cmake/StrataEmbedRun.cmake"
    COMMENT "Embedding ${input}")
endfunction()
