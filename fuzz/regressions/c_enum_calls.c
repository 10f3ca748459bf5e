/* In C any int converts to an enum parameter, so this is how a C client passes
 * a dtype or format value outside the C++ enum's range. */
#include "c_enum_calls.h"

aclScalar *canopy_regression_create_scalar(void *value, int dataType) { return aclCreateScalar(value, dataType); }

aclTensor *canopy_regression_create_tensor(const int64_t *dims, uint64_t rank, int dataType, int format) {
  return aclCreateTensor(dims, rank, dataType, 0, 0, format, 0, 0, 0);
}

int canopy_regression_get_data_type(const aclTensor *tensor, int *dataType) {
  aclDataType dtype;
  const aclnnStatus status = aclGetDataType(tensor, &dtype);
  if (status == 0) *dataType = (int)dtype;
  return status;
}

aclnnStatus canopy_regression_cast_workspace(const aclTensor *self, int dtype, aclTensor *out, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
  return aclnnCastGetWorkspaceSize(self, dtype, out, workspaceSize, executor);
}

size_t canopy_regression_data_type_size(int dataType) { return aclDataTypeSize(dataType); }
