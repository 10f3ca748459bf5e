/* The meta API, aclnnCast and aclDataTypeSize called from C with plain ints for enum parameters (see K7). */
#ifndef CANOPY_FUZZ_REGRESSIONS_C_ENUM_CALLS_H_
#define CANOPY_FUZZ_REGRESSIONS_C_ENUM_CALLS_H_

#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_cast.h"

#ifdef __cplusplus
extern "C" {
#endif

aclScalar *canopy_regression_create_scalar(void *value, int dataType);
aclTensor *canopy_regression_create_tensor(const int64_t *dims, uint64_t rank, int dataType, int format);
int canopy_regression_get_data_type(const aclTensor *tensor, int *dataType);
aclnnStatus canopy_regression_cast_workspace(const aclTensor *self, int dtype, aclTensor *out, uint64_t *workspaceSize,
                                             aclOpExecutor **executor);
size_t canopy_regression_data_type_size(int dataType);

#ifdef __cplusplus
}
#endif

#endif /* CANOPY_FUZZ_REGRESSIONS_C_ENUM_CALLS_H_ */
