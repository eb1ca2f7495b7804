/* The runtime's ELF loader (runtime/elfload.h) on an object cc compiles:
 * its code runs with its data, constants, zeros, pointer table, a call to
 * an external function and a read of an external variable bound; a symbol
 * the resolver lacks, a relocation type it does not know, another machine
 * and a truncated file are refused with the reason; and every one-byte
 * corruption of the headers and tables loads or is refused, never crashes.
 * RUN: cc -c -fPIC -O1 %S/Inputs/elf_object.c -o %t.o
 * RUN: %capi/elf_loader %t.o 2>&1 | FileCheck %s
 */
#include <elf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "elfload.h"

int ext_value = 10;
static float scale(float x) { return 100 * x; }

static void *resolve(void *user, const char *name) {
  (void)user;
  if (!strcmp(name, "ext_scale")) return (void *)scale;
  if (!strcmp(name, "ext_value")) return &ext_value;
  return NULL;
}

static void *resolveNoScale(void *user, const char *name) {
  return strcmp(name, "ext_scale") ? resolve(user, name) : NULL;
}

static void tryLoad(const char *what, const void *data, size_t size, StrataRtSymbolResolver r) {
  char why[256];
  StrataRtObject *o = strataRtObjectLoad(data, size, r, NULL, why, sizeof why);
  printf("%s: %s\n", what, o ? "loaded" : why);
  strataRtObjectUnload(o);
}

int main(int argc, char **argv) {
  FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
  static unsigned char obj[1 << 20];
  size_t size = f ? fread(obj, 1, sizeof obj, f) : 0;
  if (f) fclose(f);
  char why[256];
  StrataRtObject *o = strataRtObjectLoad(obj, size, resolve, NULL, why, sizeof why);
  if (!o) return printf("load failed: %s\n", why), 1;
  float (*compute)(int) = (float (*)(int))strataRtObjectSymbol(o, "elf_compute");
  int *counter = strataRtObjectSymbol(o, "counter");
  // CHECK: compute(1) = 288, compute(2) = 379, compute(1) = 291, counter = 11
  float a = compute(1), b = compute(2), c = compute(1);
  printf("compute(1) = %g, compute(2) = %g, compute(1) = %g, counter = %d\n", a, b, c, *counter);
  // CHECK: missing: (nil)
  printf("missing: %p\n", strataRtObjectSymbol(o, "table_not_there"));
  strataRtObjectUnload(o);

  // CHECK: no ext_scale: undefined symbol 'ext_scale'
  tryLoad("no ext_scale", obj, size, resolveNoScale);
  // CHECK: truncated: {{bad section table|section .* lies outside the file}}
  tryLoad("truncated", obj, size / 2, resolve);
  static unsigned char bad[1 << 20];
  memcpy(bad, obj, size);
  ((Elf64_Ehdr *)(void *)bad)->e_machine = EM_AARCH64;
  // CHECK: aarch64: not an x86-64 relocatable object
  tryLoad("aarch64", bad, size, resolve);
  /* The first relocation of the first RELA section: type 23 (TPOFF32). */
  memcpy(bad, obj, size);
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)bad;
  Elf64_Shdr *sh = (Elf64_Shdr *)(void *)(bad + eh->e_shoff);
  for (int i = 0; i < eh->e_shnum; i++)
    if (sh[i].sh_type == SHT_RELA && sh[i].sh_size && (sh[sh[i].sh_info].sh_flags & SHF_ALLOC)) {
      Elf64_Rela *r = (Elf64_Rela *)(void *)(bad + sh[i].sh_offset);
      r->r_info = ELF64_R_INFO(ELF64_R_SYM(r->r_info), 23);
      break;
    }
  // CHECK: relocation 23: relocation type 23
  tryLoad("relocation 23", bad, size, resolve);

  /* Each byte of the ELF header, the section table and the symbol and
   * relocation tables xored in turn: loaded or refused, no crash. */
  size_t variants = 0;
  for (size_t at = 0; at < size; at++) {
    bool table = at < sizeof(Elf64_Ehdr) || (at >= eh->e_shoff && at < eh->e_shoff + eh->e_shnum * sizeof(Elf64_Shdr));
    for (int i = 0; i < eh->e_shnum && !table; i++)
      table = (sh[i].sh_type == SHT_SYMTAB || sh[i].sh_type == SHT_RELA) && at >= sh[i].sh_offset &&
              at < sh[i].sh_offset + sh[i].sh_size;
    if (!table) continue;
    memcpy(bad, obj, size);
    bad[at] ^= 0xa5;
    StrataRtObject *v = strataRtObjectLoad(bad, size, resolve, NULL, why, sizeof why);
    strataRtObjectUnload(v);
    variants++;
  }
  // CHECK: corrupted: {{[0-9]+}} variants, no crash
  printf("corrupted: %zu variants, no crash\n", variants);
  return 0;
}
