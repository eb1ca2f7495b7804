/* An object for test/capi/elf_loader.c: code, constants (.rodata), data
 * (.data), zeros (.bss), a table of function pointers (absolute 64-bit
 * relocations), an external function (a call through a stub) and an
 * external variable (through the GOT). */
extern int ext_value;
extern float ext_scale(float x);

static const float table[4] = {1.5f, 2.5f, 3.5f, 4.5f};
int counter = 7;
static int zeros[1000];

static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }
int (*const ops[2])(int) = {twice, thrice};

float elf_compute(int i) {
  zeros[i] += 1;
  counter += zeros[i];
  return ext_scale(table[i & 3]) + (float)ops[i & 1](ext_value) + (float)counter;
}
