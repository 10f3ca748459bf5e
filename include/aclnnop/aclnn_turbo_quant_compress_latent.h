/*
 * Canopy - CPU implementation of the CANN aclnn API.
 * aclnnop/aclnn_turbo_quant_compress_latent.h: aclnnTurboQuantCompressLatent, MLA latents to TurboQuant 4-bit slots.
 * Every operator has two phases: aclnnXxxGetWorkspaceSize validates the
 * arguments and builds an executor, aclnnXxx runs it on a stream.
 */
#ifndef CANOPY_ACLNNOP_ACLNN_TURBO_QUANT_COMPRESS_LATENT_H_
#define CANOPY_ACLNNOP_ACLNN_TURBO_QUANT_COMPRESS_LATENT_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Each row of latent [numTokens, headDim] (FLOAT, headDim 512) divided by its L2 norm, each value the index of
 * its nearest centroid (16 ascending FLOAT values), two indices a byte (even dim low), then the norm as FLOAT16
 * and zero padding: out [numTokens, slotSize] UINT8, slotSize = ceil((headDim / 2 + 2) / 64) * 64. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnTurboQuantCompressLatentGetWorkspaceSize(const aclTensor *latent,
                                                                              const aclTensor *centroids,
                                                                              const aclTensor *out,
                                                                              uint64_t *workspaceSize,
                                                                              aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnTurboQuantCompressLatent(void *workspace, uint64_t workspaceSize,
                                                              aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_ACLNNOP_ACLNN_TURBO_QUANT_COMPRESS_LATENT_H_ */
