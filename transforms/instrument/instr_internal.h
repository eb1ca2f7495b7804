/* transforms/instrument internals: the tool and op-context structures the
 * driver (instrument.c), the tool API (instr_tool.c) and the built-in tools
 * (tools_*.c) share. Not public API. */
#ifndef STRATA_INSTR_INTERNAL_H
#define STRATA_INSTR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/instrument.h"

struct StrataInstrTool {
  char *name;
  struct {
    StrataInstrCallback fn;
    void *user;
  } points[STRATA_INSTR_NUM_POINTS];
  StrataInstrFinishFn finish;
  void *finishUser;
  StrataInstrTool **deps;
  size_t numDeps, capDeps;
  void (*cleanup)(void *); /* built-in tools free their state with it */
  void *cleanupUser;
};

typedef enum { INSTR_ACT_BEFORE, INSTR_ACT_AFTER, INSTR_ACT_REPLACE } InstrActionKind;

typedef struct {
  InstrActionKind kind;
  intptr_t index;
  StrataInstrBuildFn build; /* NULL with `probe` */
  StrataInstrReplaceFn replace;
  void *user;
  bool probe;
  const char *tool; /* the recording tool's name (outlives the run) */
} InstrAction;

typedef struct {
  char *key;
  StrataInstrValueKind kind;
  int64_t i;
  double d;
  char *s;
} InstrKeyValue;

struct StrataInstrOpContext {
  StrataContext *ctx;
  MlirOperation op;
  int64_t id;
  char *name;
  StrataInstrPoint point;
  const StrataInstrTool *tool; /* whose callback is running */
  InstrKeyValue *kv;
  size_t numKv, capKv;
  InstrAction *actions;
  size_t numActions, capActions;
  const char *replacedBy; /* tool that recorded the replace, or NULL */
  bool failed;
  bool applied; /* its actions have been applied (by the pattern) */
};

/* Frees what a context owns (not the struct). */
void instrContextFree(StrataInstrOpContext *c);

/* The tools and their dependencies in dependency order (each once), into a
 * malloc'd array; NULL with a located error at `loc` naming the tools on a
 * cycle. */
StrataInstrTool **instrToolOrder(StrataInstrTool *const *tools, size_t n, MlirLocation loc,
                                 size_t *count);

/* True if `name` matches one of the comma-separated globs ('*', '?'). */
bool instrMatchGlobs(const char *globs, const char *name);
/* False (located error) unless `globs` is a well-formed list of op-name globs. */
bool instrCheckGlobs(const char *globs, MlirLocation loc);

/* Registers `fn(user)` to run when the tool is destroyed. */
void instrToolSetCleanup(StrataInstrTool *tool, void (*fn)(void *), void *user);

/* ---- Built-in tools (one file each) ---- */
StrataInstrTool *instrFlopsTool(void);
StrataInstrTool *instrNoopTool(bool before, bool after);
StrataInstrTool *instrTraceTool(bool before, bool after);
StrataInstrTool *instrProfileTool(void);
StrataInstrTool *instrPruneTool(double sparsity);
StrataInstrTool *instrFakeQuantTool(void);
StrataInstrTool *instrDumpTool(void);

#endif /* STRATA_INSTR_INTERNAL_H */
