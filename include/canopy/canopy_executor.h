/* What an executor will run: the steps phase 1 planned, for tools and
 * benchmarks that report which kernel (and instruction set) served a call. */
#ifndef CANOPY_CANOPY_EXECUTOR_H_
#define CANOPY_CANOPY_EXECUTOR_H_

#include <stddef.h>

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the executor's steps, one per line ("matmul (oneDNN brg:avx512_core_amx) ..."),
 * into text (NUL-terminated, cut at capacity bytes; text may be null when capacity is 0)
 * and the full length without the NUL into *length. The executor stays usable.
 * 161001: executor or length null; 161002: not a live executor (launched or destroyed). */
ACL_FUNC_VISIBILITY aclnnStatus canopyDescribeExecutor(aclOpExecutor *executor, char *text, size_t capacity,
                                                       size_t *length);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_CANOPY_EXECUTOR_H_ */
