/* C entry points of the fuzz harnesses: see c_calls.c. */
#ifndef CANOPY_FUZZ_C_CALLS_H_
#define CANOPY_FUZZ_C_CALLS_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_cast.h"

#ifdef __cplusplus
extern "C" {
#endif

aclTensor *canopy_fuzz_create_tensor(const int64_t *viewDims, uint64_t viewDimsNum, int dataType, const int64_t *stride,
                                     int64_t offset, int format, const int64_t *storageDims, uint64_t storageDimsNum,
                                     void *tensorData);
aclnnStatus canopy_fuzz_init_tensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, int dataType,
                                    const int64_t *stride, int64_t offset, int format, const int64_t *storageDims,
                                    uint64_t storageDimsNum, void *tensorData);
aclScalar *canopy_fuzz_create_scalar(void *value, int dataType);
int canopy_fuzz_get_data_type(const aclTensor *tensor, int *dataType);
int canopy_fuzz_get_format(const aclTensor *tensor, int *format);
aclnnStatus canopy_fuzz_cast_get_workspace_size(const aclTensor *self, int dtype, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_FUZZ_C_CALLS_H_ */
