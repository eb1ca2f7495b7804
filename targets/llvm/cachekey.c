/* The cache keys' machine part from LLVM (cachefile.h has the plain rest):
 * LLVM's version and its names for the host CPU and features, this build's
 * ID; the object cache's key of a lowered module. */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "llvm-c/Core.h"
#include "llvm-c/TargetMachine.h"
#include "mlir-c/IR.h"
#include "cpu_internal.h"

/* The facts of this process: LLVM's, and the build ID of the object that
 * holds this code (else its file's identity). */
void strataCpuHostFacts(StrataHostFacts *f) {
  memset(f, 0, sizeof *f);
  char *cpu = LLVMGetHostCPUName(), *features = LLVMGetHostCPUFeatures();
  LLVMGetVersion(&f->llvm[0], &f->llvm[1], &f->llvm[2]);
  snprintf(f->cpu, sizeof f->cpu, "%s", cpu);
  snprintf(f->features, sizeof f->features, "%s", features);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  Dl_info info;
  struct stat st;
  if (!strataBuildIdOfAddress((const void *)strataCpuHostFacts, f) && dladdr((const void *)strataCpuHostFacts, &info) &&
      info.dli_fname && stat(info.dli_fname, &st) == 0) {
    long long id[4] = {(long long)st.st_dev, (long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtime};
    memcpy(f->buildId, id, sizeof id);
    f->buildIdSize = sizeof id;
  }
}

void strataCacheHashMachine(StrataCacheHash *h, int optLevel) {
  StrataHostFacts f;
  strataCpuHostFacts(&f);
  strataCacheHashFacts(h, &f, optLevel);
}

bool strataCpuHostFactsStore(const char *dir, char *why, size_t whySize) {
  StrataHostFacts f;
  strataCpuHostFacts(&f);
  Dl_info info;
  if (!dladdr((const void *)LLVMGetVersion, &info) || !info.dli_fname || info.dli_fname[0] != '/') {
    snprintf(why, whySize, "the LLVM library's file is unknown");
    return false;
  }
  return strataHostFactsStore(dir, &f, info.dli_fname, why, whySize);
}

static void hashChunk(MlirStringRef s, void *user) { strataCacheHashBytes(user, s.data, s.length); }

void strataObjCacheKey(MlirModule lowered, int optLevel, char key[33]) {
  StrataCacheHash h = strataCacheHashInit();
  strataCacheHashMachine(&h, optLevel);
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsPrintGenericOpForm(flags);
  mlirOperationPrintWithFlags(mlirModuleGetOperation(lowered), flags, hashChunk, &h);
  mlirOpPrintingFlagsDestroy(flags);
  strataCacheHashHex(&h, key);
}
