/* What a cache key takes of the machine (cachefile.h): this build's ELF
 * build ID, read from the loaded object or from an executable's file, and
 * LLVM's names for the host CPU and its features, kept in the cache
 * directory for processes that do not load LLVM (the launcher). LLVM
 * derives those names from CPUID and XGETBV alone, so they are stored under
 * the CPUID leaves LLVM reads (less the APIC ID, which changes with the
 * core a process runs on) and the identity of the LLVM library file: a
 * file made on another CPU or by another LLVM is not read. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include <cpuid.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cachefile.h"
#include "outfile.h"

#ifndef STRATA_VERSION
#define STRATA_VERSION "unknown"
#endif

static void hashString(StrataCacheHash *h, const char *s) { strataCacheHashBytes(h, s, strlen(s) + 1); }

void strataCacheHashFacts(StrataCacheHash *h, const StrataHostFacts *f, int optLevel) {
  char head[128];
  snprintf(head, sizeof head, "strata %s llvm %u.%u.%u O%d", STRATA_VERSION, f->llvm[0], f->llvm[1], f->llvm[2],
           optLevel);
  hashString(h, head);
  strataCacheHashBytes(h, f->buildId, f->buildIdSize);
  hashString(h, f->cpu);
  hashString(h, f->features);
}

void strataCpuModelKey(const StrataHostFacts *f, const void *const *parts, const size_t *sizes, size_t n,
                       char key[33]) {
  StrataCacheHash h = strataCacheHashInit();
  strataCacheHashFacts(&h, f, -1); /* the caller's parts name the LLVM level */
  static const char kind[] = "model";
  strataCacheHashBlock(&h, kind, sizeof kind);
  for (size_t i = 0; i < n; i++) strataCacheHashBlock(&h, parts[i], sizes[i]);
  strataCacheHashHex(&h, key);
}

/* The NT_GNU_BUILD_ID note among the notes in [p, end). */
static bool buildIdIn(const char *p, const char *end, StrataHostFacts *f) {
  while (p + sizeof(ElfW(Nhdr)) <= end) {
    const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(const void *)p;
    const char *desc = p + sizeof *n + ((n->n_namesz + 3) & ~3u);
    if (desc > end || n->n_descsz > (size_t)(end - desc)) return false;
    if (n->n_type == NT_GNU_BUILD_ID && n->n_descsz <= sizeof f->buildId) {
      memcpy(f->buildId, desc, n->n_descsz);
      f->buildIdSize = n->n_descsz;
      return true;
    }
    if ((size_t)(end - desc) < ((n->n_descsz + 3) & ~3u)) return false;
    p = desc + ((n->n_descsz + 3) & ~3u);
  }
  return false;
}

typedef struct {
  const void *addr;
  StrataHostFacts *f;
  bool found;
} Search;

static int searchObject(struct dl_phdr_info *info, size_t size, void *user) {
  (void)size;
  Search *s = user;
  bool mine = false;
  for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    mine = ph->p_type == PT_LOAD && (uintptr_t)s->addr >= lo && (uintptr_t)s->addr < lo + ph->p_memsz;
  }
  if (!mine) return 0;
  for (int i = 0; i < info->dlpi_phnum && !s->found; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
    if (ph->p_type == PT_NOTE) s->found = buildIdIn(p, p + ph->p_memsz, s->f);
  }
  return 1;
}

bool strataBuildIdOfAddress(const void *addr, StrataHostFacts *f) {
  Search s = {addr, f, false};
  dl_iterate_phdr(searchObject, &s);
  return s.found;
}

bool strataBuildIdOfFile(const char *path, StrataHostFacts *f) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0) return false;
  char *map = fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(ElfW(Ehdr))
                  ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
                  : MAP_FAILED;
  close(fd);
  if (map == MAP_FAILED) return false;
  size_t size = (size_t)st.st_size;
  const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)(const void *)map;
  bool found = false;
  if (!memcmp(eh->e_ident, ELFMAG, SELFMAG) && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
      eh->e_phentsize == sizeof(ElfW(Phdr)) && eh->e_phoff <= size &&
      (size - eh->e_phoff) / sizeof(ElfW(Phdr)) >= eh->e_phnum && eh->e_phoff % 8 == 0) {
    const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(const void *)(map + eh->e_phoff);
    for (size_t i = 0; i < eh->e_phnum && !found; i++)
      if (ph[i].p_type == PT_NOTE && ph[i].p_offset <= size && ph[i].p_filesz <= size - ph[i].p_offset &&
          ph[i].p_offset % 4 == 0)
        found = buildIdIn(map + ph[i].p_offset, map + ph[i].p_offset + ph[i].p_filesz, f);
  }
  munmap(map, size);
  return found;
}

/* ---- The stored LLVM facts ---- */
typedef struct {
  char magic[16];
  StrataCacheHash cpu; /* cpuIdentity */
  char lib[1024];      /* the LLVM library file and its identity */
  uint64_t dev, ino, size, mtimeSec, mtimeNsec;
  unsigned llvm[3];
  char cpuName[64];
  char features[2048];
  uint64_t sum; /* of everything before it */
} FactsFile;

static const char kFactsMagic[16] = "STRATA-HOST-1";

/* The CPUID leaves LLVM's host detection reads, and XGETBV. */
static StrataCacheHash cpuIdentity(void) {
  static const unsigned kLeaves[][2] = {{0, 0},   {1, 0},   {7, 0},          {7, 1},          {0xd, 0},
                                        {0xd, 1}, {0x14, 0}, {0x19, 0},       {0x24, 0},       {0x80000000, 0},
                                        {0x80000001, 0},     {0x80000008, 0}};
  StrataCacheHash h = strataCacheHashInit();
  unsigned max = __get_cpuid_max(0, NULL), maxExt = __get_cpuid_max(0x80000000, NULL);
  unsigned ecx1 = 0;
  for (size_t i = 0; i < sizeof kLeaves / sizeof kLeaves[0]; i++) {
    unsigned r[4] = {0, 0, 0, 0}, leaf = kLeaves[i][0];
    if (leaf < 0x80000000 ? leaf <= max : leaf <= maxExt) __cpuid_count(leaf, kLeaves[i][1], r[0], r[1], r[2], r[3]);
    if (leaf == 1) r[1] &= 0x00ffffffu, ecx1 = r[2]; /* no initial APIC ID */
    strataCacheHashBytes(&h, r, sizeof r);
  }
  unsigned xcr0[2] = {0, 0};
  if (ecx1 & (1u << 27)) __asm__ volatile("xgetbv" : "=a"(xcr0[0]), "=d"(xcr0[1]) : "c"(0));
  strataCacheHashBytes(&h, xcr0, sizeof xcr0);
  return h;
}

static bool factsPath(char *buf, size_t size, const char *dir, const StrataCacheHash *cpu) {
  char hex[33];
  strataCacheHashHex(cpu, hex);
  int n = snprintf(buf, size, "%s/host-%s.facts", dir, hex);
  return n > 0 && (size_t)n < size;
}

static bool sameFile(const FactsFile *ff) {
  struct stat st;
  return stat(ff->lib, &st) == 0 && ff->dev == (uint64_t)st.st_dev && ff->ino == (uint64_t)st.st_ino &&
         ff->size == (uint64_t)st.st_size && ff->mtimeSec == (uint64_t)st.st_mtim.tv_sec &&
         ff->mtimeNsec == (uint64_t)st.st_mtim.tv_nsec;
}

/* The facts file for this CPU, read and checked; false if none is valid. */
static bool readFacts(const char *dir, FactsFile *ff) {
  StrataCacheHash cpu = cpuIdentity();
  char path[4096];
  FILE *f = factsPath(path, sizeof path, dir, &cpu) ? fopen(path, "rb") : NULL;
  if (!f) return false;
  bool ok = fread(ff, sizeof *ff, 1, f) == 1 && fgetc(f) == EOF;
  fclose(f);
  return ok && !memcmp(ff->magic, kFactsMagic, sizeof kFactsMagic) &&
         strataCacheChecksum(ff, offsetof(FactsFile, sum)) == ff->sum && ff->cpu.a == cpu.a && ff->cpu.b == cpu.b &&
         memchr(ff->lib, 0, sizeof ff->lib) && memchr(ff->cpuName, 0, sizeof ff->cpuName) &&
         memchr(ff->features, 0, sizeof ff->features) && sameFile(ff);
}

bool strataHostFactsLoad(const char *dir, StrataHostFacts *f) {
  FactsFile ff;
  if (!readFacts(dir, &ff)) return false;
  memcpy(f->llvm, ff.llvm, sizeof f->llvm);
  memcpy(f->cpu, ff.cpuName, sizeof f->cpu);
  memcpy(f->features, ff.features, sizeof f->features);
  return true;
}

bool strataHostFactsStore(const char *dir, const StrataHostFacts *f, const char *llvmLib, char *why,
                          size_t whySize) {
  FactsFile ff, old;
  memset(&ff, 0, sizeof ff);
  memcpy(ff.magic, kFactsMagic, sizeof kFactsMagic);
  ff.cpu = cpuIdentity();
  struct stat st;
  if (snprintf(ff.lib, sizeof ff.lib, "%s", llvmLib) >= (int)sizeof ff.lib || stat(llvmLib, &st) != 0 ||
      snprintf(ff.cpuName, sizeof ff.cpuName, "%s", f->cpu) >= (int)sizeof ff.cpuName ||
      snprintf(ff.features, sizeof ff.features, "%s", f->features) >= (int)sizeof ff.features) {
    snprintf(why, whySize, "the LLVM library or the host's names do not fit");
    return false;
  }
  ff.dev = (uint64_t)st.st_dev, ff.ino = (uint64_t)st.st_ino, ff.size = (uint64_t)st.st_size;
  ff.mtimeSec = (uint64_t)st.st_mtim.tv_sec, ff.mtimeNsec = (uint64_t)st.st_mtim.tv_nsec;
  memcpy(ff.llvm, f->llvm, sizeof ff.llvm);
  ff.sum = strataCacheChecksum(&ff, offsetof(FactsFile, sum));
  if (readFacts(dir, &old) && !memcmp(&old, &ff, sizeof ff)) return true; /* there already */
  char path[4096];
  StrataRtOutFile out;
  if (!factsPath(path, sizeof path, dir, &ff.cpu)) {
    snprintf(why, whySize, "the path is too long");
    return false;
  }
  if (strataRtOutFileOpen(&out, path, why, whySize) != 0) return false;
  if (fwrite(&ff, sizeof ff, 1, out.f) == 1) return strataRtOutFileCommit(&out, why, whySize) == 0;
  snprintf(why, whySize, "cannot write '%s'", path);
  strataRtOutFileAbort(&out);
  return false;
}
