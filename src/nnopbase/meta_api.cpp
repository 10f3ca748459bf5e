// aclTensor, aclScalar, the arrays and lists: creation, getters, destruction.
#include <cstddef>
#include <cstring>
#include <limits>
#include <new>

#include "common/c_boundary.h"
#include "common/dtype.h"
#include "common/shape.h"
#include "executor.h"
#include "live_objects.h"
#include "live_tensor.h"

using canopy::SetErrorMessage;

namespace {

// Fills `tensor`; false (and a message) when the description is unusable.
bool DescribeTensor(const char* function, aclTensor& tensor, const int64_t* view_dims, uint64_t view_rank,
                    int raw_dtype, const int64_t* stride, int64_t offset, int raw_format, const int64_t* storage_dims,
                    uint64_t storage_rank, void* data) {
  constexpr uint64_t kMaxRank = 64;  // far beyond any op's limit; guards absurd sizes
  if ((view_dims == nullptr && view_rank > 0) || (storage_dims == nullptr && storage_rank > 0)) {
    SetErrorMessage("%s: dims are null but their count is non-zero", function);
    return false;
  }
  if (view_rank > kMaxRank || storage_rank > kMaxRank) {
    SetErrorMessage("%s: rank %llu exceeds %llu", function, static_cast<unsigned long long>(view_rank),
                    static_cast<unsigned long long>(kMaxRank));
    return false;
  }
  if (offset < 0) {
    SetErrorMessage("%s: offset %lld is negative", function, static_cast<long long>(offset));
    return false;
  }
  // C clients may pass any integer; only enumerator values may be stored in the enums.
  if (!canopy::IsDtypeValue(raw_dtype) || !canopy::IsFormatValue(raw_format)) {
    SetErrorMessage("%s: dtype %d or format %d is not a value of aclDataType / aclFormat", function, raw_dtype,
                    raw_format);
    return false;
  }
  tensor.view_shape.assign(view_dims, view_dims + view_rank);
  for (int64_t d : tensor.view_shape) {
    if (d < 0) {
      SetErrorMessage("%s: view dimension %lld is negative", function, static_cast<long long>(d));
      return false;
    }
  }
  if (stride != nullptr) {
    tensor.strides.assign(stride, stride + view_rank);
  } else {
    // Derived strides are products of the extents: they must fit in int64.
    int64_t elements = 1;
    for (int64_t d : tensor.view_shape) {
      if (d > 0 && elements > std::numeric_limits<int64_t>::max() / d) {
        SetErrorMessage("%s: the view's element count does not fit in int64", function);
        return false;
      }
      elements *= std::max<int64_t>(d, 1);
    }
    tensor.strides = canopy::ContiguousStrides(tensor.view_shape);
  }
  tensor.storage_shape.assign(storage_dims, storage_dims + storage_rank);
  tensor.offset = offset;
  tensor.dtype = static_cast<aclDataType>(raw_dtype);
  tensor.format = static_cast<aclFormat>(raw_format);
  tensor.data = data;
  return true;
}

// An array of `size` elements at `value`: not null unless empty, and not so
// long that its end would wrap the address space (2^61 int64 values became an
// empty array).
bool ArrayArgsValid(const char* function, const void* value, uint64_t size, size_t element) {
  if (value == nullptr && size > 0) {
    SetErrorMessage("%s: argument 'value' is null but size is %llu", function, static_cast<unsigned long long>(size));
    return false;
  }
  if (size > static_cast<uint64_t>(std::numeric_limits<std::ptrdiff_t>::max()) / element) {
    SetErrorMessage("%s: size %llu is more elements than memory holds", function,
                    static_cast<unsigned long long>(size));
    return false;
  }
  return true;
}

// Each object type's registry and name, for the getters' liveness check.
canopy::LiveObjects& RegistryOf(const aclTensor*) { return canopy::LiveTensors(); }
canopy::LiveObjects& RegistryOf(const aclTensorList*) { return canopy::LiveTensorLists(); }
canopy::LiveObjects& RegistryOf(const aclScalarList*) { return canopy::LiveScalarLists(); }
canopy::LiveObjects& RegistryOf(const aclIntArray*) { return canopy::LiveIntArrays(); }
canopy::LiveObjects& RegistryOf(const aclFloatArray*) { return canopy::LiveFloatArrays(); }
canopy::LiveObjects& RegistryOf(const aclBoolArray*) { return canopy::LiveBoolArrays(); }

// The getters' arguments: neither null, and the object not destroyed (read
// through a stale handle it was a use after free).
template <typename O, typename T>
aclnnStatus RequireArgs(const char* function, const O* object, const T* out) {
  if (object == nullptr || out == nullptr) {
    SetErrorMessage("%s: argument '%s' is null", function, object == nullptr ? "object" : "output");
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  if (!RegistryOf(object).Contains(object)) {
    SetErrorMessage("%s: the argument is not a live object (destroyed already?)", function);
    return ACLNN_ERR_PARAM_INVALID;
  }
  return ACLNN_SUCCESS;
}

aclnnStatus NotLive(const char* function, const char* type) {
  SetErrorMessage("%s: the argument is not a live %s (destroyed already?)", function, type);
  return ACLNN_ERR_PARAM_INVALID;
}

// A tensor a client destroyed is reported, not read or written.
aclnnStatus RequireLive(const char* function, const aclTensor* tensor) {
  return canopy::LiveTensors().Contains(tensor) ? ACLNN_SUCCESS : NotLive(function, "aclTensor");
}

// The getters hand out arrays the caller releases with delete[], as CANN's do.
aclnnStatus CopyOut(const std::vector<int64_t>& values, int64_t** out, uint64_t* count) {
  *out = new (std::nothrow) int64_t[values.empty() ? 1 : values.size()];
  if (*out == nullptr) return ACLNN_ERR_INNER;
  std::copy(values.begin(), values.end(), *out);
  *count = values.size();
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) try {
  auto* tensor = new aclTensor();
  if (!DescribeTensor(__func__, *tensor, viewDims, viewDimsNum, canopy::RawEnumValue(dataType), stride, offset,
                      canopy::RawEnumValue(format), storageDims, storageDimsNum, tensorData)) {
    delete tensor;
    return nullptr;
  }
  canopy::LiveTensors().Add(tensor);
  return tensor;
}
CANOPY_C_BOUNDARY(nullptr)

aclnnStatus aclInitTensor(aclTensor* tensor, const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                          const int64_t* stride, int64_t offset, aclFormat format, const int64_t* storageDims,
                          uint64_t storageDimsNum, void* tensorDataAddr) try {
  if (tensor == nullptr) {
    SetErrorMessage("aclInitTensor: argument 'tensor' is null");
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  if (aclnnStatus s = RequireLive(__func__, tensor); s != ACLNN_SUCCESS) return s;
  aclTensor updated;
  if (!DescribeTensor(__func__, updated, viewDims, viewDimsNum, canopy::RawEnumValue(dataType), stride, offset,
                      canopy::RawEnumValue(format), storageDims, storageDimsNum, tensorDataAddr)) {
    return ACLNN_ERR_PARAM_INVALID;
  }
  *tensor = std::move(updated);
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclScalar* aclCreateScalar(void* value, aclDataType dataType) try {
  const int raw_dtype = canopy::RawEnumValue(dataType);
  if (!canopy::IsDtypeValue(raw_dtype)) {
    SetErrorMessage("aclCreateScalar: dtype %d is not a value of aclDataType", raw_dtype);
    return nullptr;
  }
  const size_t size = canopy::DtypeSize(dataType);
  if (value == nullptr || size == 0) {
    SetErrorMessage("aclCreateScalar: %s",
                    value == nullptr ? "argument 'value' is null" : "the data type cannot hold a scalar");
    return nullptr;
  }
  auto* scalar = new aclScalar();
  scalar->dtype = dataType;
  std::memcpy(scalar->value, value, size);
  canopy::LiveScalars().Add(scalar);
  return scalar;
}
CANOPY_C_BOUNDARY(nullptr)

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) try {
  if (!ArrayArgsValid("aclCreateIntArray", value, size, sizeof(*value))) return nullptr;
  auto* array = new aclIntArray{std::vector<int64_t>(value, value + size)};
  canopy::LiveIntArrays().Add(array);
  return array;
}
CANOPY_C_BOUNDARY(nullptr)

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) try {
  if (!ArrayArgsValid("aclCreateFloatArray", value, size, sizeof(*value))) return nullptr;
  auto* array = new aclFloatArray{std::vector<float>(value, value + size)};
  canopy::LiveFloatArrays().Add(array);
  return array;
}
CANOPY_C_BOUNDARY(nullptr)

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) try {
  if (!ArrayArgsValid("aclCreateBoolArray", value, size, sizeof(*value))) return nullptr;
  auto* array = new aclBoolArray{std::vector<bool>(value, value + size)};
  canopy::LiveBoolArrays().Add(array);
  return array;
}
CANOPY_C_BOUNDARY(nullptr)

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) try {
  if (!ArrayArgsValid("aclCreateTensorList", value, size, sizeof(*value))) return nullptr;
  auto* list = new aclTensorList();
  for (uint64_t i = 0; i < size; ++i) list->tensors.push_back(const_cast<aclTensor*>(value[i]));
  canopy::LiveTensorLists().Add(list);
  return list;
}
CANOPY_C_BOUNDARY(nullptr)

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) try {
  if (!ArrayArgsValid("aclCreateScalarList", value, size, sizeof(*value))) return nullptr;
  auto* list = new aclScalarList();
  for (uint64_t i = 0; i < size; ++i) list->scalars.push_back(const_cast<aclScalar*>(value[i]));
  canopy::LiveScalarLists().Add(list);
  return list;
}
CANOPY_C_BOUNDARY(nullptr)

aclnnStatus aclDestroyTensor(const aclTensor* tensor) try {
  if (tensor == nullptr) return ACLNN_SUCCESS;
  if (!canopy::LiveTensors().Remove(tensor)) return NotLive(__func__, "aclTensor");
  delete tensor;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN
// Scalars and arrays are looked up like tensors: destroying one twice (or one a
// scalar list destroyed with itself) is an error code, not a double free.
aclnnStatus aclDestroyScalar(const aclScalar* scalar) try {
  if (scalar == nullptr) return ACLNN_SUCCESS;
  if (!canopy::LiveScalars().Remove(scalar)) return NotLive(__func__, "aclScalar");
  delete scalar;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN
aclnnStatus aclDestroyIntArray(const aclIntArray* array) try {
  if (array == nullptr) return ACLNN_SUCCESS;
  if (!canopy::LiveIntArrays().Remove(array)) return NotLive(__func__, "aclIntArray");
  delete array;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) try {
  if (array == nullptr) return ACLNN_SUCCESS;
  if (!canopy::LiveFloatArrays().Remove(array)) return NotLive(__func__, "aclFloatArray");
  delete array;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) try {
  if (array == nullptr) return ACLNN_SUCCESS;
  if (!canopy::LiveBoolArrays().Remove(array)) return NotLive(__func__, "aclBoolArray");
  delete array;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN
aclnnStatus aclDestroyTensorList(const aclTensorList* array) try {
  if (array == nullptr) return ACLNN_SUCCESS;
  if (!canopy::LiveTensorLists().Remove(array)) return NotLive(__func__, "aclTensorList");
  // A member the client destroyed on its own (or listed twice) is deleted once.
  for (const aclTensor* tensor : array->tensors) {
    if (tensor != nullptr && canopy::LiveTensors().Remove(tensor)) delete tensor;
  }
  delete array;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN
aclnnStatus aclDestroyScalarList(const aclScalarList* array) try {
  if (array == nullptr) return ACLNN_SUCCESS;
  if (!canopy::LiveScalarLists().Remove(array)) return NotLive(__func__, "aclScalarList");
  // A member the client destroyed on its own (or listed twice) is deleted once.
  for (const aclScalar* scalar : array->scalars) {
    if (scalar != nullptr && canopy::LiveScalars().Remove(scalar)) delete scalar;
  }
  delete array;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) try {
  if (aclnnStatus s = RequireArgs(__func__, tensor, viewDims); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = RequireArgs(__func__, tensor, viewDimsNum); s != ACLNN_SUCCESS) return s;
  return CopyOut(tensor->view_shape, viewDims, viewDimsNum);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) try {
  if (aclnnStatus s = RequireArgs(__func__, tensor, storageDims); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = RequireArgs(__func__, tensor, storageDimsNum); s != ACLNN_SUCCESS) return s;
  return CopyOut(tensor->storage_shape, storageDims, storageDimsNum);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) try {
  if (aclnnStatus s = RequireArgs(__func__, tensor, stridesValue); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = RequireArgs(__func__, tensor, stridesNum); s != ACLNN_SUCCESS) return s;
  return CopyOut(tensor->strides, stridesValue, stridesNum);
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) try {
  if (aclnnStatus s = RequireArgs(__func__, tensor, offset); s != ACLNN_SUCCESS) return s;
  *offset = tensor->offset;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) try {
  if (aclnnStatus s = RequireArgs(__func__, tensor, format); s != ACLNN_SUCCESS) return s;
  *format = tensor->format;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) try {
  if (aclnnStatus s = RequireArgs(__func__, tensor, dataType); s != ACLNN_SUCCESS) return s;
  *dataType = tensor->dtype;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) try {
  if (aclnnStatus s = RequireArgs(__func__, array, size); s != ACLNN_SUCCESS) return s;
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) try {
  if (aclnnStatus s = RequireArgs(__func__, array, size); s != ACLNN_SUCCESS) return s;
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) try {
  if (aclnnStatus s = RequireArgs(__func__, array, size); s != ACLNN_SUCCESS) return s;
  *size = array->values.size();
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) try {
  if (aclnnStatus s = RequireArgs(__func__, tensorList, size); s != ACLNN_SUCCESS) return s;
  *size = tensorList->tensors.size();
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) try {
  if (aclnnStatus s = RequireArgs(__func__, scalarList, size); s != ACLNN_SUCCESS) return s;
  *size = scalarList->scalars.size();
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclSetRawTensorAddr(aclTensor* tensor, void* addr) try {
  if (tensor == nullptr) {
    SetErrorMessage("aclSetRawTensorAddr: argument 'tensor' is null");
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  if (aclnnStatus s = RequireLive(__func__, tensor); s != ACLNN_SUCCESS) return s;
  tensor->data = addr;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclGetRawTensorAddr(const aclTensor* tensor, void** addr) try {
  if (aclnnStatus s = RequireArgs(__func__, tensor, addr); s != ACLNN_SUCCESS) return s;
  *addr = tensor->data;
  return ACLNN_SUCCESS;
}
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclDumpOpTensors(const char* opType, const char* opName, aclTensor** tensors, size_t /*inputTensorNum*/,
                             size_t /*outputTensorNum*/, aclrtStream stream) try {
  if (opType == nullptr || opName == nullptr || tensors == nullptr || stream == nullptr) {
    SetErrorMessage("aclDumpOpTensors: opType, opName, tensors and stream must not be null");
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  return ACLNN_SUCCESS;  // dumping is off unless configured, and Canopy has no dump config
}
CANOPY_C_BOUNDARY_ACLNN

int canopyNnopbaseSetContiguousView(aclTensor* tensor, const int64_t* dims, uint64_t rank) try {
  if (dims == nullptr && rank > 0) return 0;
  std::vector<int64_t> shape(dims, dims + rank);
  std::vector<int64_t> strides = canopy::ContiguousStrides(shape);
  return canopy::LiveTensors().WhileLive(tensor,
                                         [&] {
                                           tensor->view_shape = std::move(shape);
                                           tensor->strides = std::move(strides);
                                         })
             ? 1
             : 0;
}
CANOPY_C_BOUNDARY(0)

aclnnStatus aclnnInit(const char* /*configPath*/) try { return ACLNN_SUCCESS; }
CANOPY_C_BOUNDARY_ACLNN

aclnnStatus aclnnFinalize(void) try { return ACLNN_SUCCESS; }
CANOPY_C_BOUNDARY_ACLNN

}  // extern "C"
