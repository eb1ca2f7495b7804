/* The ELF x86-64 relocatable-object loader (elfload.h). One anonymous
 * mapping holds, page-aligned in turn: the code sections and a jump stub
 * per undefined function a call reaches (its target may lie beyond the
 * +-2 GiB a call's offset spans), then the read-only sections and the GOT
 * built here, then the writable sections, .bss and COMMON symbols. It is
 * written while writable, then each part takes its final protection. */
#define _GNU_SOURCE
#include "elfload.h"
#include <elf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef SHT_X86_64_UNWIND
#define SHT_X86_64_UNWIND 0x70000001
#endif
#ifndef R_X86_64_GOTPCRELX
#define R_X86_64_GOTPCRELX 41
#endif
#ifndef R_X86_64_REX_GOTPCRELX
#define R_X86_64_REX_GOTPCRELX 42
#endif

enum { kPage = 4096, kStub = 16 };
/* At most this much mapped: every PC-relative reference must reach. */
#define MAX_MAP ((size_t)1 << 31)
enum { NONE, TEXT, RODATA, DATA, NUM_PARTS }; /* where a section goes */

typedef struct {
  char *name;
  void *addr;
} Symbol;

struct StrataRtObject {
  unsigned char *base;
  size_t size;
  Symbol *syms;
  size_t numSyms;
};

/* Everything a load works on, freed by its end. */
typedef struct {
  const unsigned char *data;
  size_t size;
  const Elf64_Ehdr *eh;
  const Elf64_Shdr *sh;
  const Elf64_Sym *sym;
  size_t numSyms;
  const char *strtab;
  size_t strtabSize;
  int *part;          /* per section: NONE, TEXT, RODATA or DATA */
  size_t *offset;     /* per section: its offset in the mapping */
  uintptr_t *symAddr; /* per symbol: its address */
  bool *symKnown;     /* per symbol: the address is known */
  size_t *got, *stub; /* per symbol: offset of its GOT entry / stub, or 0 */
  size_t *commonOff;  /* per symbol: offset of a COMMON symbol's storage */
  size_t partStart[NUM_PARTS + 1];
  unsigned char *base;
  size_t mapSize;
  char *why;
  size_t whySize;
} Load;

static bool fail(Load *l, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(l->why, l->whySize, fmt, ap);
  va_end(ap);
  return false;
}

static size_t alignUp(size_t n, size_t a) { return a > 1 ? (n + a - 1) / a * a : n; }

static const char *symName(const Load *l, const Elf64_Sym *s) {
  return s->st_name < l->strtabSize ? l->strtab + s->st_name : "?";
}

/* The header and the section table, each section inside the file. */
static bool checkHeader(Load *l) {
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)l->data;
  if (l->size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG)) return fail(l, "not an ELF file");
  if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_REL ||
      eh->e_machine != EM_X86_64)
    return fail(l, "not an x86-64 relocatable object");
  if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 || eh->e_shoff > l->size ||
      (l->size - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum || eh->e_shoff % 8)
    return fail(l, "bad section table");
  l->eh = eh;
  l->sh = (const Elf64_Shdr *)(const void *)(l->data + eh->e_shoff);
  for (size_t i = 0; i < eh->e_shnum; i++) {
    const Elf64_Shdr *s = &l->sh[i];
    if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL &&
        (s->sh_offset > l->size || s->sh_size > l->size - s->sh_offset))
      return fail(l, "section %zu lies outside the file", i);
  }
  return true;
}

/* The symbol table and its strings. */
static bool findSymbols(Load *l) {
  for (size_t i = 0; i < l->eh->e_shnum; i++) {
    const Elf64_Shdr *s = &l->sh[i];
    if (s->sh_type != SHT_SYMTAB) continue;
    if (l->sym) return fail(l, "more than one symbol table");
    if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_offset % 8 || s->sh_link >= l->eh->e_shnum ||
        l->sh[s->sh_link].sh_type != SHT_STRTAB)
      return fail(l, "bad symbol table");
    l->sym = (const Elf64_Sym *)(const void *)(l->data + s->sh_offset);
    l->numSyms = s->sh_size / sizeof(Elf64_Sym);
    const Elf64_Shdr *str = &l->sh[s->sh_link];
    l->strtab = (const char *)l->data + str->sh_offset, l->strtabSize = str->sh_size;
    if (!l->strtabSize || l->strtab[l->strtabSize - 1]) return fail(l, "bad string table");
  }
  return l->sym ? true : fail(l, "no symbol table");
}

/* Where each section goes; false for one the loader cannot honour. */
static bool classify(Load *l) {
  for (size_t i = 0; i < l->eh->e_shnum; i++) {
    const Elf64_Shdr *s = &l->sh[i];
    l->part[i] = NONE;
    if (!(s->sh_flags & SHF_ALLOC) || s->sh_type == SHT_X86_64_UNWIND || s->sh_type == SHT_NOTE) continue;
    if ((s->sh_type == SHT_INIT_ARRAY || s->sh_type == SHT_FINI_ARRAY || s->sh_type == SHT_PREINIT_ARRAY) &&
        s->sh_size)
      return fail(l, "section %zu holds initializers or finalizers", i);
    if (s->sh_type != SHT_PROGBITS && s->sh_type != SHT_NOBITS && s->sh_type != SHT_INIT_ARRAY &&
        s->sh_type != SHT_FINI_ARRAY && s->sh_type != SHT_PREINIT_ARRAY)
      return fail(l, "section %zu has type %#x", i, (unsigned)s->sh_type);
    if (s->sh_flags & SHF_TLS) return fail(l, "section %zu is thread-local", i);
    if (s->sh_addralign > kPage) return fail(l, "section %zu wants %llu-byte alignment", i,
                                             (unsigned long long)s->sh_addralign);
    bool exec = s->sh_flags & SHF_EXECINSTR, write = s->sh_flags & SHF_WRITE;
    if (exec && write) return fail(l, "section %zu is writable and executable", i);
    l->part[i] = exec ? TEXT : write ? DATA : RODATA;
  }
  return true;
}

static bool isGotReloc(uint32_t t) {
  return t == R_X86_64_GOTPCREL || t == R_X86_64_GOTPCRELX || t == R_X86_64_REX_GOTPCRELX ||
         t == R_X86_64_GOTPCREL64;
}

/* The relocation sections that apply to a loaded section, each checked. */
static const Elf64_Rela *relocsOf(Load *l, size_t i, size_t *n, bool *bad) {
  const Elf64_Shdr *s = &l->sh[i];
  *n = 0, *bad = false;
  if (s->sh_type != SHT_RELA && s->sh_type != SHT_REL) return NULL;
  if (s->sh_info >= l->eh->e_shnum || l->part[s->sh_info] == NONE) return NULL;
  if (s->sh_type == SHT_REL || s->sh_entsize != sizeof(Elf64_Rela) || s->sh_offset % 8 ||
      s->sh_link >= l->eh->e_shnum || l->sh[s->sh_link].sh_type != SHT_SYMTAB) {
    *bad = true;
    fail(l, "bad relocation section %zu", i);
    return NULL;
  }
  *n = s->sh_size / sizeof(Elf64_Rela);
  return (const Elf64_Rela *)(const void *)(l->data + s->sh_offset);
}

/* The layout: sections, stubs, GOT entries and COMMON symbols. */
static bool layOut(Load *l) {
  size_t at = kStub; /* no stub or GOT entry at offset 0, which means none */
  for (int part = TEXT; part < NUM_PARTS; part++) {
    at = alignUp(at, kPage);
    l->partStart[part] = at;
    for (size_t i = 0; i < l->eh->e_shnum; i++)
      if (l->part[i] == part) {
        if (l->sh[i].sh_size > MAX_MAP) return fail(l, "section %zu is too large", i);
        at = alignUp(at, l->sh[i].sh_addralign);
        l->offset[i] = at;
        at += l->sh[i].sh_size;
      }
    for (size_t k = 0; k < l->numSyms; k++) {
      const Elf64_Sym *s = &l->sym[k];
      if (part == TEXT && l->stub[k]) at = alignUp(at, kStub), l->stub[k] = at, at += kStub;
      if (part == RODATA && l->got[k]) at = alignUp(at, 8), l->got[k] = at, at += 8;
      if (part == DATA && s->st_shndx == SHN_COMMON) {
        if (s->st_value > kPage) return fail(l, "COMMON symbol '%s' wants alignment %llu", symName(l, s),
                                             (unsigned long long)s->st_value);
        if (s->st_size > MAX_MAP) return fail(l, "COMMON symbol '%s' is too large", symName(l, s));
        at = alignUp(at, s->st_value ? s->st_value : 1), l->commonOff[k] = at, at += s->st_size;
      }
    }
    if (at > MAX_MAP) return fail(l, "more than %zu bytes to map", MAX_MAP);
  }
  l->partStart[NUM_PARTS] = l->mapSize = alignUp(at, kPage);
  return true;
}

/* Marks the symbols that need a GOT entry or a call stub. */
static bool markIndirect(Load *l) {
  for (size_t i = 0; i < l->eh->e_shnum; i++) {
    size_t n;
    bool bad;
    const Elf64_Rela *r = relocsOf(l, i, &n, &bad);
    if (bad) return false;
    for (size_t k = 0; k < n; k++) {
      size_t sym = ELF64_R_SYM(r[k].r_info);
      uint32_t type = ELF64_R_TYPE(r[k].r_info);
      if (sym >= l->numSyms) return fail(l, "relocation against symbol %zu of %zu", sym, l->numSyms);
      if (isGotReloc(type)) l->got[sym] = 1;
      if (type == R_X86_64_PLT32 && l->sym[sym].st_shndx == SHN_UNDEF && sym) l->stub[sym] = 1;
    }
  }
  return true;
}

/* Every symbol's address, undefined ones from the resolver. */
static bool resolveSymbols(Load *l, StrataRtSymbolResolver resolve, void *user) {
  for (size_t k = 1; k < l->numSyms; k++) {
    const Elf64_Sym *s = &l->sym[k];
    int type = ELF64_ST_TYPE(s->st_info), bind = ELF64_ST_BIND(s->st_info);
    if (type == STT_TLS || type == STT_GNU_IFUNC) return fail(l, "symbol '%s' has type %d", symName(l, s), type);
    if (s->st_shndx == SHN_UNDEF) {
      /* the GOT is the loader's own (GCC names it in every PIC object) */
      void *addr = !strcmp(symName(l, s), "_GLOBAL_OFFSET_TABLE_") ? l->base + l->partStart[RODATA]
                                                                    : resolve(user, symName(l, s));
      if (!addr && bind != STB_WEAK) return fail(l, "undefined symbol '%s'", symName(l, s));
      l->symAddr[k] = (uintptr_t)addr, l->symKnown[k] = true;
    } else if (s->st_shndx == SHN_ABS) {
      l->symAddr[k] = s->st_value, l->symKnown[k] = true;
    } else if (s->st_shndx == SHN_COMMON) {
      l->symAddr[k] = (uintptr_t)(l->base + l->commonOff[k]), l->symKnown[k] = true;
    } else if (s->st_shndx < l->eh->e_shnum && l->part[s->st_shndx] != NONE) {
      if (type != STT_SECTION && s->st_value > l->sh[s->st_shndx].sh_size)
        return fail(l, "symbol '%s' lies outside its section", symName(l, s));
      l->symAddr[k] = (uintptr_t)(l->base + l->offset[s->st_shndx]) + (type == STT_SECTION ? 0 : s->st_value);
      l->symKnown[k] = true;
    } else if (s->st_shndx >= SHN_LORESERVE && s->st_shndx != SHN_XINDEX) {
      return fail(l, "symbol '%s' has section index %#x", symName(l, s), (unsigned)s->st_shndx);
    } /* else: in a section not loaded (unwind tables); no relocation may use it */
  }
  return true;
}

static bool put32(Load *l, unsigned char *p, int64_t v, bool isSigned, const char *what) {
  if (isSigned ? (v < INT32_MIN || v > INT32_MAX) : (v < 0 || v > (int64_t)UINT32_MAX))
    return fail(l, "%s out of range", what);
  uint32_t w = (uint32_t)v;
  memcpy(p, &w, 4);
  return true;
}

/* Applies the relocations of every loaded section. */
static bool relocate(Load *l) {
  uintptr_t gotBase = (uintptr_t)(l->base + l->partStart[RODATA]);
  for (size_t i = 0; i < l->eh->e_shnum; i++) {
    size_t n;
    bool bad;
    const Elf64_Rela *r = relocsOf(l, i, &n, &bad);
    if (bad) return false;
    size_t target = l->sh[i].sh_info;
    if (n && l->sh[target].sh_type == SHT_NOBITS) return fail(l, "relocations in a section with no bytes");
    for (size_t k = 0; k < n; k++) {
      size_t sym = ELF64_R_SYM(r[k].r_info);
      uint32_t type = ELF64_R_TYPE(r[k].r_info);
      size_t width = type == R_X86_64_64 || type == R_X86_64_PC64 || type == R_X86_64_GOTPCREL64 ||
                     type == R_X86_64_GOTOFF64 || type == R_X86_64_GOTPC64 ? 8 : 4;
      if (type == R_X86_64_NONE) continue;
      if (r[k].r_offset > l->sh[target].sh_size || l->sh[target].sh_size - r[k].r_offset < width)
        return fail(l, "relocation outside its section");
      if (sym && !l->symKnown[sym]) return fail(l, "relocation against '%s', which is not loaded", symName(l, &l->sym[sym]));
      unsigned char *p = l->base + l->offset[target] + r[k].r_offset;
      int64_t S = (int64_t)l->symAddr[sym], A = r[k].r_addend, P = (int64_t)(uintptr_t)p;
      int64_t G = l->got[sym] ? (int64_t)(uintptr_t)(l->base + l->got[sym]) : 0;
      uint64_t v64;
      switch (type) {
      case R_X86_64_64: v64 = (uint64_t)(S + A); memcpy(p, &v64, 8); break;
      case R_X86_64_PC64: v64 = (uint64_t)(S + A - P); memcpy(p, &v64, 8); break;
      case R_X86_64_GOTPCREL64: v64 = (uint64_t)(G + A - P); memcpy(p, &v64, 8); break;
      case R_X86_64_GOTOFF64: v64 = (uint64_t)(S + A - (int64_t)gotBase); memcpy(p, &v64, 8); break;
      case R_X86_64_GOTPC64: v64 = (uint64_t)((int64_t)gotBase + A - P); memcpy(p, &v64, 8); break;
      case R_X86_64_PLT32:
        if (l->stub[sym]) S = (int64_t)(uintptr_t)(l->base + l->stub[sym]);
        /* fall through */
      case R_X86_64_PC32:
        if (!put32(l, p, S + A - P, true, "a PC-relative reference")) return false;
        break;
      case R_X86_64_GOTPC32:
        if (!put32(l, p, (int64_t)gotBase + A - P, true, "a GOT-relative reference")) return false;
        break;
      case R_X86_64_GOTPCREL:
      case R_X86_64_GOTPCRELX:
      case R_X86_64_REX_GOTPCRELX:
        if (!put32(l, p, G + A - P, true, "a GOT reference")) return false;
        break;
      case R_X86_64_32:
      case R_X86_64_32S:
        if (!put32(l, p, S + A, type == R_X86_64_32S, "an absolute 32-bit reference")) return false;
        break;
      default:
        return fail(l, "relocation type %u", (unsigned)type);
      }
    }
  }
  return true;
}

/* Section contents, GOT entries and stubs: jmp *0(%rip) and the address. */
static void fill(Load *l) {
  for (size_t i = 0; i < l->eh->e_shnum; i++)
    if (l->part[i] != NONE && l->sh[i].sh_type != SHT_NOBITS)
      memcpy(l->base + l->offset[i], l->data + l->sh[i].sh_offset, l->sh[i].sh_size);
  for (size_t k = 0; k < l->numSyms; k++) {
    uint64_t addr = l->symAddr[k];
    if (l->got[k]) memcpy(l->base + l->got[k], &addr, 8);
    if (l->stub[k]) {
      static const unsigned char jmp[6] = {0xff, 0x25, 0, 0, 0, 0};
      memcpy(l->base + l->stub[k], jmp, sizeof jmp);
      memcpy(l->base + l->stub[k] + sizeof jmp, &addr, 8);
    }
  }
}

static bool protect(Load *l) {
  static const int prot[NUM_PARTS] = {0, PROT_READ | PROT_EXEC, PROT_READ, PROT_READ | PROT_WRITE};
  for (int part = TEXT; part < NUM_PARTS; part++) {
    size_t lo = l->partStart[part], hi = part + 1 < NUM_PARTS ? l->partStart[part + 1] : l->mapSize;
    if (hi > lo && mprotect(l->base + lo, hi - lo, prot[part]) != 0) return fail(l, "mprotect failed");
  }
  return true;
}

/* The defined global symbols, copied (the object's bytes are borrowed). */
static StrataRtObject *collect(Load *l) {
  StrataRtObject *o = calloc(1, sizeof *o);
  if (!o || !(o->syms = calloc(l->numSyms ? l->numSyms : 1, sizeof *o->syms))) {
    free(o);
    fail(l, "out of memory");
    return NULL;
  }
  o->base = l->base, o->size = l->mapSize;
  for (size_t k = 1; k < l->numSyms; k++) {
    const Elf64_Sym *s = &l->sym[k];
    int bind = ELF64_ST_BIND(s->st_info);
    if ((bind != STB_GLOBAL && bind != STB_WEAK) || s->st_shndx == SHN_UNDEF || !l->symKnown[k]) continue;
    Symbol *y = &o->syms[o->numSyms];
    if (!(y->name = strdup(symName(l, s)))) {
      o->base = NULL;
      strataRtObjectUnload(o);
      fail(l, "out of memory");
      return NULL;
    }
    y->addr = (void *)l->symAddr[k];
    o->numSyms++;
  }
  return o;
}

StrataRtObject *strataRtObjectLoad(const void *data, size_t size, StrataRtSymbolResolver resolve, void *user,
                                   char *why, size_t whySize) {
  Load l = {.data = data, .size = size, .why = why, .whySize = whySize};
  StrataRtObject *o = NULL;
  if (!checkHeader(&l) || !findSymbols(&l)) return NULL;
  size_t ns = l.eh->e_shnum, ny = l.numSyms;
  l.part = calloc(ns, sizeof *l.part), l.offset = calloc(ns, sizeof *l.offset);
  l.symAddr = calloc(ny, sizeof *l.symAddr), l.symKnown = calloc(ny, sizeof *l.symKnown);
  l.got = calloc(ny, sizeof *l.got), l.stub = calloc(ny, sizeof *l.stub), l.commonOff = calloc(ny, sizeof *l.commonOff);
  bool ok = l.part && l.offset && l.symAddr && l.symKnown && l.got && l.stub && l.commonOff;
  if (!ok) fail(&l, "out of memory");
  ok = ok && classify(&l) && markIndirect(&l) && layOut(&l);
  if (ok) {
    l.base = mmap(NULL, l.mapSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (l.base == MAP_FAILED) l.base = NULL, ok = fail(&l, "cannot map %zu bytes", l.mapSize);
  }
  ok = ok && resolveSymbols(&l, resolve, user);
  if (ok) fill(&l);
  ok = ok && relocate(&l) && protect(&l) && (o = collect(&l)) != NULL;
  if (!ok && l.base) munmap(l.base, l.mapSize);
  free(l.part), free(l.offset), free(l.symAddr), free(l.symKnown), free(l.got), free(l.stub), free(l.commonOff);
  return o;
}

void *strataRtObjectSymbol(const StrataRtObject *o, const char *name) {
  for (size_t i = 0; o && i < o->numSyms; i++)
    if (!strcmp(o->syms[i].name, name)) return o->syms[i].addr;
  return NULL;
}

void strataRtObjectUnload(StrataRtObject *o) {
  if (!o) return;
  if (o->base) munmap(o->base, o->size);
  for (size_t i = 0; i < o->numSyms; i++) free(o->syms[i].name);
  free(o->syms);
  free(o);
}
