/* ONNX TensorProto -> host tensors: every storage form (raw_data, the typed
 * repeated fields, external data files), with size checks, since a tensor
 * whose byte count disagrees with its dims must be an error, not a crash. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "onnx_internal.h"
#include "strata/support.h"

StrataDType onnxDType(int32_t t) {
  switch (t) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT: return STRATA_DTYPE_F32;
  case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE: return STRATA_DTYPE_F64;
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16: return STRATA_DTYPE_F16;
  case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL: return STRATA_DTYPE_I1;
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT8: return STRATA_DTYPE_I8;
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8: return STRATA_DTYPE_U8;
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT32: return STRATA_DTYPE_I32;
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64: return STRATA_DTYPE_I64;
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT16: return STRATA_DTYPE_I16;
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16: return STRATA_DTYPE_U16;
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32: return STRATA_DTYPE_U32;
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64: return STRATA_DTYPE_U64;
  case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16: return STRATA_DTYPE_BF16;
  default: return STRATA_DTYPE_INVALID;
  }
}

const char *onnxDTypeName(int32_t t) {
  const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(&onnx__tensor_proto__data_type__descriptor, t);
  return v ? v->name : "unknown";
}

/* A non-negative decimal integer (atoll is undefined beyond long long). */
static bool parseCount(const char *v, long long *out) {
  char *end;
  errno = 0;
  *out = strtoll(v, &end, 10);
  return end != v && !*end && errno == 0 && *out >= 0;
}

static bool readExternal(const Onnx__TensorProto *t, const char *baseDir, StrataTensor *out, char *err,
                         size_t errSize) {
  const char *location = NULL;
  long long offset = 0, length = -1;
  for (size_t i = 0; i < t->n_external_data; i++) {
    const char *k = t->external_data[i]->key, *v = t->external_data[i]->value;
    if (!k || !v) continue;
    if (!strcmp(k, "location")) location = v;
    else if ((!strcmp(k, "offset") && !parseCount(v, &offset)) ||
             (!strcmp(k, "length") && !parseCount(v, &length))) {
      snprintf(err, errSize, "external data '%s' is not a non-negative integer: '%s'", k, v);
      return false;
    }
  }
  size_t want = strataTensorNumBytes(out);
  if (!location || !baseDir || strstr(location, "..") || location[0] == '/') {
    snprintf(err, errSize, "external data needs a relative 'location' beside the model");
    return false;
  }
  if (length >= 0 && (size_t)length != want) {
    snprintf(err, errSize, "external data length %lld disagrees with its %zu-byte shape", length, want);
    return false;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", baseDir, location);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errSize, "cannot open external data file '%s'", path);
    return false;
  }
  bool ok = offset >= 0 && fseek(f, offset, SEEK_SET) == 0 && fread(out->data, 1, want, f) == want;
  fclose(f);
  if (!ok) snprintf(err, errSize, "external data file '%s' is too short for %zu bytes at offset %lld", path, want, offset);
  return ok;
}

bool onnxIsExternal(const Onnx__TensorProto *t) {
  return t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
}

StrataTensor *onnxReadTensor(const Onnx__TensorProto *t, const char *baseDir, char *err, size_t errSize) {
  StrataDType dt = onnxDType(t->data_type);
  if (dt == STRATA_DTYPE_INVALID) {
    snprintf(err, errSize, "element type %s is not supported", onnxDTypeName(t->data_type));
    return NULL;
  }
  if (t->n_dims > STRATA_MAX_RANK) {
    snprintf(err, errSize, "rank %zu is above %d", t->n_dims, STRATA_MAX_RANK);
    return NULL;
  }
  int64_t dims[STRATA_MAX_RANK];
  for (size_t i = 0; i < t->n_dims; i++) {
    if (t->dims[i] < 0) {
      snprintf(err, errSize, "negative dimension %lld", (long long)t->dims[i]);
      return NULL;
    }
    dims[i] = t->dims[i];
  }
  /* The data is checked against the shape before anything is allocated: a
   * few bytes of protobuf must not make the importer ask for gigabytes. */
  int64_t n, need;
  if (!strataShapeNumElements(dims, (int)t->n_dims, &n) ||
      !strataCheckedMul(n, (int64_t)strataDTypeSize(dt), &need)) {
    snprintf(err, errSize, "shape too large");
    return NULL;
  }
  size_t bytes = (size_t)need;
  bool external = onnxIsExternal(t);
  /* Typed fields: float_data (f32), double_data, int64_data, uint64_data
   * (u32 and u64), and int32_data (also holding i8/u8/i16/u16/bool/f16/bf16 bits). */
  size_t have = dt == STRATA_DTYPE_F32 ? t->n_float_data
              : dt == STRATA_DTYPE_F64 ? t->n_double_data
              : dt == STRATA_DTYPE_I64 ? t->n_int64_data
              : dt == STRATA_DTYPE_U32 || dt == STRATA_DTYPE_U64 ? t->n_uint64_data
                                       : t->n_int32_data;
  if (!external && t->has_raw_data && t->raw_data.len != bytes) {
    snprintf(err, errSize, "raw data has %zu bytes, but %zu are needed for its shape and type",
             t->raw_data.len, bytes);
    return NULL;
  }
  if (!external && !t->has_raw_data && (int64_t)have != n) {
    snprintf(err, errSize, "has %zu values, but its shape needs %lld", have, (long long)n);
    return NULL;
  }
  StrataTensor *out = strataTensorCreate(dt, (int)t->n_dims, dims);
  if (!out) {
    snprintf(err, errSize, "tensor too large");
    return NULL;
  }
  bool ok = true;
  if (external) {
    ok = readExternal(t, baseDir, out, err, errSize);
  } else if (t->has_raw_data) {
    if (bytes) memcpy(out->data, t->raw_data.data, bytes); /* an empty tensor may have no data pointer */
  } else {
    for (int64_t i = 0; ok && i < n; i++) {
      switch (dt) {
      case STRATA_DTYPE_F32: ((float *)out->data)[i] = t->float_data[i]; break;
      case STRATA_DTYPE_F64: ((double *)out->data)[i] = t->double_data[i]; break;
      case STRATA_DTYPE_I64: ((int64_t *)out->data)[i] = t->int64_data[i]; break;
      case STRATA_DTYPE_I32: ((int32_t *)out->data)[i] = t->int32_data[i]; break;
      case STRATA_DTYPE_F16: ((uint16_t *)out->data)[i] = (uint16_t)t->int32_data[i]; break;
      case STRATA_DTYPE_BF16: ((uint16_t *)out->data)[i] = (uint16_t)t->int32_data[i]; break;
      case STRATA_DTYPE_I8: ((int8_t *)out->data)[i] = (int8_t)t->int32_data[i]; break;
      case STRATA_DTYPE_I16: ((int16_t *)out->data)[i] = (int16_t)t->int32_data[i]; break;
      case STRATA_DTYPE_U16: ((uint16_t *)out->data)[i] = (uint16_t)t->int32_data[i]; break;
      case STRATA_DTYPE_U32: ((uint32_t *)out->data)[i] = (uint32_t)t->uint64_data[i]; break;
      case STRATA_DTYPE_U64: ((uint64_t *)out->data)[i] = t->uint64_data[i]; break;
      default: ((uint8_t *)out->data)[i] = (uint8_t)t->int32_data[i]; break;
      }
    }
  }
  if (!ok) {
    strataTensorDestroy(out);
    return NULL;
  }
  if (dt == STRATA_DTYPE_I1)
    for (int64_t i = 0; i < n; i++) ((uint8_t *)out->data)[i] = ((uint8_t *)out->data)[i] != 0;
  return out;
}
