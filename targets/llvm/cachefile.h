/* The cpu target's cache files in plain C (no MLIR, no LLVM): the hashes
 * that make their keys (cachehash.c), the object cache's reader, the host
 * facts a key takes from LLVM (hostfacts.c) and the model cache's reader
 * (modelfile.c). The compiler (cpu_internal.h) and the launcher
 * (tools/strata-run/launcher/), which serves a model cache hit without
 * loading LLVM or MLIR, share them. */
#ifndef STRATA_CPU_CACHEFILE_H
#define STRATA_CPU_CACHEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernels.h"

/* ---- Hashes (cachehash.c): two FNV-1a streams, 128 bits ---- */
typedef struct {
  uint64_t a, b;
} StrataCacheHash;
StrataCacheHash strataCacheHashInit(void);
/* Adds n bytes to the streams as they are. */
void strataCacheHashBytes(StrataCacheHash *h, const void *data, size_t n);
/* Adds n bytes (fast on megabytes: eight word lanes, then the streams). */
void strataCacheHashBlock(StrataCacheHash *h, const void *data, size_t n);
/* 32 hex digits and a NUL. */
void strataCacheHashHex(const StrataCacheHash *h, char key[33]);
/* A 64-bit checksum of n bytes (strataCacheHashBlock's). */
uint64_t strataCacheChecksum(const void *data, size_t n);
/* mkdir -p; 0 or an errno. */
int strataCacheMakeDirs(const char *dir);
/* DIR/<key>.o's object (malloc'd) when the file is whole; NULL otherwise. */
char *strataObjCacheRead(const char *dir, const char *key, size_t *size);

/* ---- What a key takes of the machine (hostfacts.c) ---- */
/* This build (its ELF build ID), LLVM's version and its names for the host
 * CPU and its features: strataCacheHashMachine hashes them. */
typedef struct {
  unsigned char buildId[64];
  size_t buildIdSize;
  unsigned llvm[3];
  char cpu[64];
  char features[2048];
} StrataHostFacts;
/* Adds the facts and the LLVM level, as every cache key starts. */
void strataCacheHashFacts(StrataCacheHash *h, const StrataHostFacts *f, int optLevel);
/* The model cache's key of byte strings `parts` on a machine of facts `f`
 * (strataExecutableCacheKey's for the cpu target). */
void strataCpuModelKey(const StrataHostFacts *f, const void *const *parts, const size_t *sizes, size_t n,
                       char key[33]);
/* The ELF build ID of the loaded object holding `addr` (false: none). */
bool strataBuildIdOfAddress(const void *addr, StrataHostFacts *f);
/* The ELF build ID of the executable file `path` (false: none). */
bool strataBuildIdOfFile(const char *path, StrataHostFacts *f);
/* LLVM's part of the facts (version, CPU, features) is stored in DIR under
 * the host's CPUID identity and the LLVM library file's identity
 * (`llvmLib`: its path), so a process that does not load LLVM can make the
 * same keys. Store writes it when it is not there (false with the reason
 * when it cannot); load fills f's LLVM part and is false when the file is
 * missing, damaged, or for another CPU or another LLVM library. */
bool strataHostFactsStore(const char *dir, const StrataHostFacts *f, const char *llvmLib, char *why,
                          size_t whySize);
bool strataHostFactsLoad(const char *dir, StrataHostFacts *f);

/* ---- The weights of a lowered module (params.c extracts them) ---- */
/* Each entry is an external global of the module and its bytes, 64-byte
 * aligned, in the blob or where the importer or a cache file put them. */
typedef struct {
  char *name;
  const unsigned char *data;
  size_t bytes;
} StrataParam;
typedef struct {
  unsigned char *blob; /* 64-byte aligned; the bytes Strata had to copy */
  size_t bytes;
  StrataParam *entries;
  int count;
} StrataParams;
void strataParamsDestroy(StrataParams *p);

/* ---- The model cache's files (modelfile.c) ---- */
/* DIR/<key>.model: header, meta and weights (modelcache.c writes them). */
#define STRATA_MODEL_MAGIC "STRATA-MODEL-2"
enum { STRATA_MODEL_PAGE = 4096, STRATA_MODEL_ALIGN = 64 };
typedef struct {
  char magic[16];
  uint64_t fileSize, metaSize, metaSum, dataOffset, dataSize;
} StrataModelHeader;

/* A tensor argument or result of the entry: its element type (a
 * StrataDType, 0 when host tensors have none for it) and dims, -1 for a
 * dynamic one; rank -1 when it is not a ranked tensor. */
typedef struct {
  int dtype, rank;
  int64_t dims[16];
} StrataModelArg;

/* A model file read: the mapping (the weights point into it), what the
 * meta holds, and the packed forms of the weights the runtime made, when
 * made for this instruction set. */
typedef struct {
  char *map;
  size_t mapSize;
  char objKey[33];
  char *iface, *entryText; /* the interface module and the caller's text */
  StrataParams *params;
  StrataRtPacked *packed;
  size_t numPacked;
  char entry[256]; /* the entry function's name */
  size_t numIn, numOut;
  StrataModelArg *args; /* numIn inputs, then numOut results */
  bool *runtimeResult;  /* per result: delivered through the runtime */
} StrataModelFile;
/* Reads DIR/<key>.model; false on a miss (no file, a damaged one). */
bool strataModelFileRead(const char *dir, const char *key, StrataModelFile *m);
/* Frees what Read made; `keepMap` leaves the mapping (and the weights the
 * params point to) to the caller. */
void strataModelFileFree(StrataModelFile *m, bool keepMap);
/* What compiled code's undefined symbols are bound to (a
 * StrataRtSymbolResolver, elfload.h): the weights of `params` (a
 * StrataParams), the runtime's entry points (rt_symbols.h), then the
 * process's symbols (libc, libm), as the JIT binds them. */
void *strataCpuResolveSymbol(void *params, const char *name);
/* Lets the kernel take back the whole pages of [p, p + n). */
void strataModelDropPages(const void *p, size_t n);

#endif /* STRATA_CPU_CACHEFILE_H */
