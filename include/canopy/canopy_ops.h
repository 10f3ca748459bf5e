/* The registry of Canopy's aclnn ops: every op libopapi provides, with its
 * prototype's arguments, its supported dtypes and properties, and its two entry
 * points. Tests, fuzzers and canopy-bench list ops from here, so an op added to
 * libopapi reaches all of them without editing any list. */
#ifndef CANOPY_CANOPY_OPS_H_
#define CANOPY_CANOPY_OPS_H_

#include <stddef.h>
#include <stdint.h>

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an argument of a phase-1 prototype is. */
typedef enum canopyArgKind {
  CANOPY_ARG_TENSOR = 1,      /* const aclTensor * / aclTensor * */
  CANOPY_ARG_SCALAR = 2,      /* const aclScalar * */
  CANOPY_ARG_INT = 3,         /* an integer of `size` bytes (int8_t, int, int64_t, uint64_t) */
  CANOPY_ARG_ENUM = 4,        /* a C enum (aclDataType, ...) of `size` bytes; any int may be passed */
  CANOPY_ARG_INT_ARRAY = 5,   /* const aclIntArray * */
  CANOPY_ARG_FLOAT_ARRAY = 6, /* const aclFloatArray * */
  CANOPY_ARG_BOOL_ARRAY = 7,  /* const aclBoolArray * */
  CANOPY_ARG_TENSOR_LIST = 8, /* const aclTensorList * / aclTensorList * */
  CANOPY_ARG_SCALAR_LIST = 9, /* const aclScalarList * */
  CANOPY_ARG_BOOL = 10,       /* bool (1 byte) */
  CANOPY_ARG_FLOAT = 11,      /* a float or double of `size` bytes */
  CANOPY_ARG_STRING = 12      /* const char *: a NUL-terminated name (a mode, a reduction) */
} canopyArgKind;

typedef struct canopyOpArg {
  const char *name; /* as in the CANN prototype: "self", "selfRef", "cubeMathType" */
  const char *type; /* the C type as declared: "const aclTensor*" */
  int32_t kind;     /* a canopyArgKind */
  int32_t size;     /* bytes of the value passed (a pointer's size for pointer kinds) */
  int32_t optional; /* 1: a pointer argument that may be null (an absent bias); else null is 161001 */
} canopyOpArg;

/* Runs phase 1 exactly as aclnnXxxGetWorkspaceSize does, with args[i] pointing at the value of argument i
 * (for a pointer argument: at a variable holding the pointer, e.g. an aclTensor *; for a bool: at a bool). */
typedef aclnnStatus (*canopyOpPhase1Call)(void *const *args, uint64_t *workspaceSize, aclOpExecutor **executor);
typedef aclnnStatus (*canopyOpPhase2)(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                      aclrtStream stream);

typedef struct canopyOpInfo {
  const char *name;   /* "Add": the entry points are aclnnAddGetWorkspaceSize and aclnnAdd */
  const char *header; /* "aclnnop/aclnn_add.h" */
  size_t argCount;    /* the prototype's arguments before workspaceSize and executor */
  const canopyOpArg *args;
  uint64_t dtypes;                /* bit d set: tensors of aclDataType d are supported (per-argument rules apply) */
  int32_t maxRank;                /* every tensor argument has at most this rank */
  int32_t inPlace;                /* 1: the op writes its first tensor argument (selfRef) */
  int32_t privateFormats;         /* 1: private NPU formats (FRACTAL_NZ, ...) are accepted; else 161002 */
  void (*getWorkspaceSize)(void); /* the exported aclnnXxxGetWorkspaceSize (cast to its prototype) */
  canopyOpPhase1Call callGetWorkspaceSize;
  canopyOpPhase2 run; /* the exported aclnnXxx */
  /* One valid call, one token per argument in prototype order ("f32[2,3] f32[2,3] f32:1 f32[2,3]"
   * for Add), in the notation of docs/adding-an-op.md ("A valid example call"); NULL where the op
   * declares none and the registry's tests derive one from the argument kinds and names. */
  const char *example;
} canopyOpInfo;

/* The number of registered ops, and each of them in order of name (index < count). */
ACL_FUNC_VISIBILITY size_t canopyOpCount(void);
ACL_FUNC_VISIBILITY const canopyOpInfo *canopyOpAt(size_t index);
/* The op named `name` ("Add", without the aclnn prefix), or NULL. */
ACL_FUNC_VISIBILITY const canopyOpInfo *canopyFindOp(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_CANOPY_OPS_H_ */
