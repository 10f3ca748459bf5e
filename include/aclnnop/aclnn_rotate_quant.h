/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_rotate_quant.h: aclnnRotateQuant, x [m, n] rotated in groups of
 * k columns (Y = (x.reshape(-1, k) @ rotation).reshape(m, n)), then quantised
 * per row (symmetric dynamic quantisation: scaleOut = max|Y row| / q_max).
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_ROTATE_QUANT_H_
#define CANOPY_ACLNNOP_ACLNN_ROTATE_QUANT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x, rotation: FLOAT16 or BFLOAT16 (one dtype), rotation [k, k]; alpha: null
 * (Atlas A2); axis -1 or 1; roundMode "rint" (null), "round" or "floor";
 * scaleAlg 0; dstTypeMax 0.0; trans false. yOut: INT8 [m, n], INT4 [m, n] or
 * INT32 [m, n / 8] (eight INT4 a word); scaleOut: FLOAT [m]. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnRotateQuantGetWorkspaceSize(const aclTensor *x, const aclTensor *rotation,
                                                                 const aclTensor *alpha, int64_t axis, char *roundMode,
                                                                 int64_t scaleAlg, double dstTypeMax, bool trans,
                                                                 aclTensor *yOut, aclTensor *scaleOut,
                                                                 uint64_t *workspaceSize, aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnRotateQuant(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_ROTATE_QUANT_H_ */
