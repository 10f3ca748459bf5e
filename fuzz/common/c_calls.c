/* The meta API called the way a C client calls it: dtype and format as plain
 * ints. In C any int converts to an enum parameter; a C++ caller could not pass
 * a value outside the enum's range without undefined behaviour of its own. */
#include "common/c_calls.h"

aclTensor *canopy_fuzz_create_tensor(const int64_t *viewDims, uint64_t viewDimsNum, int dataType, const int64_t *stride,
                                     int64_t offset, int format, const int64_t *storageDims, uint64_t storageDimsNum,
                                     void *tensorData) {
  return aclCreateTensor(viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                         tensorData);
}

aclnnStatus canopy_fuzz_init_tensor(aclTensor *tensor, const int64_t *viewDims, uint64_t viewDimsNum, int dataType,
                                    const int64_t *stride, int64_t offset, int format, const int64_t *storageDims,
                                    uint64_t storageDimsNum, void *tensorData) {
  return aclInitTensor(tensor, viewDims, viewDimsNum, dataType, stride, offset, format, storageDims, storageDimsNum,
                       tensorData);
}

aclScalar *canopy_fuzz_create_scalar(void *value, int dataType) { return aclCreateScalar(value, dataType); }

int canopy_fuzz_get_data_type(const aclTensor *tensor, int *dataType) {
  aclDataType dtype;
  const aclnnStatus status = aclGetDataType(tensor, dataType == 0 ? 0 : &dtype);
  if (status == 0) *dataType = (int)dtype;
  return status;
}

int canopy_fuzz_get_format(const aclTensor *tensor, int *format) {
  aclFormat value;
  const aclnnStatus status = aclGetFormat(tensor, format == 0 ? 0 : &value);
  if (status == 0) *format = (int)value;
  return status;
}

aclnnStatus canopy_fuzz_cast_get_workspace_size(const aclTensor *self, int dtype, aclTensor *out,
                                                uint64_t *workspaceSize, aclOpExecutor **executor) {
  return aclnnCastGetWorkspaceSize(self, dtype, out, workspaceSize, executor);
}
