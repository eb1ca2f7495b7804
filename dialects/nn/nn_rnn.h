/* The recurrent ops nn.rnn, nn.gru and nn.lstm (ONNX RNN, GRU, LSTM): their
 * attributes and operand shapes read once into an NnRnn, shared by shape
 * inference, the interpreter kernel (ops_rnn.c) and the CPU lowering
 * (conversions/nn-to-linalg/lower_rnn.c).
 *
 * Operands: x, w, r, b?, sequence_lens?, initial_h? (and initial_c?, p? for
 * nn.lstm); results y, y_h (and y_c), always all of them. Gate order in w,
 * r and b is ONNX's: GRU z, r, h; LSTM i, o, f, c; peepholes p: i, o, f. */
#ifndef STRATA_NN_RNN_H
#define STRATA_NN_RNN_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/dialect.h"

typedef enum { NN_CELL_RNN, NN_CELL_GRU, NN_CELL_LSTM } NnCellKind;

typedef enum {
  NN_ACT_RELU, NN_ACT_TANH, NN_ACT_SIGMOID, NN_ACT_AFFINE, NN_ACT_LEAKY_RELU, NN_ACT_THRESHOLDED_RELU,
  NN_ACT_SCALED_TANH, NN_ACT_HARD_SIGMOID, NN_ACT_ELU, NN_ACT_SOFTSIGN, NN_ACT_SOFTPLUS,
} NnActKind;

typedef struct {
  NnActKind kind;
  double alpha, beta;
} NnActivation;

typedef struct {
  NnCellKind cell;
  int gates;     /* 1 (RNN), 3 (GRU), 4 (LSTM) */
  int numActs;   /* activations per direction: f; f, g; f, g, h */
  int dirs;      /* 1 or 2 */
  bool reverse;  /* direction = "reverse" (direction 1 of "bidirectional" always is) */
  int layout;    /* 0: x [seq, batch, input]; 1: x [batch, seq, input] */
  int64_t seq, batch, input, hidden; /* -1: dynamic */
  bool hasClip;
  double clip;
  bool linearBeforeReset, inputForget;
  NnActivation act[2][3];  /* [direction][f, g, h] */
  /* Operand positions, -1 when absent. */
  int b, seqLens, initH, initC, p;
} NnRnn;

/* Reads the attributes and operand shapes of op (an nn.rnn, nn.gru or
 * nn.lstm) and checks them; false after a located error. */
bool nnRnnOf(MlirOperation op, NnRnn *r);
/* Applies an activation in double. */
double nnRnnActivate(const NnActivation *a, double x);
/* Whether direction d runs from the last step to the first. */
static inline bool nnRnnBackward(const NnRnn *r, int d) { return d == 1 || r->reverse; }

#endif /* STRATA_NN_RNN_H */
