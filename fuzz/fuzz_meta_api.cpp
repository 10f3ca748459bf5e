// fuzz_meta_api: random sequences over the aclnn meta API (acl_meta.h):
// aclCreateTensor / aclInitTensor with random dims, strides, offsets, dtypes,
// formats and nulls; scalars of every dtype (invalid enum values included);
// int/float/bool arrays; tensor and scalar lists; every getter (null outputs
// included) and every destroy.
//
// Invariants checked besides "no crash, no leak, no undefined behaviour":
//  * a created tensor reads back exactly what it was given (contiguous strides when none);
//  * a call that fails leaves a message in aclGetRecentErrMsg();
//  * documented rejections are rejections (null dims with a non-zero count, null
//    getter outputs -> 161001, destroy(nullptr) -> 0).
#include <algorithm>
#include <memory>
#include <vector>

#include "common/c_calls.h"
#include "common/fuzz_support.h"
#include "common/fuzz_values.h"

using namespace canopy::fuzz;

namespace {

constexpr int kMaxSteps = 48;
constexpr uint64_t kMaxArraySize = 512;
constexpr size_t kMaxLiveObjects = 32;

// A tensor description as the harness built it, so a created tensor can be read back.
struct TensorDescription {
  std::vector<int64_t> view;
  uint64_t view_count = 0;  // what is passed as viewDimsNum (may disagree with view.size() when view is null)
  bool view_null = false;
  int dtype = ACL_FLOAT;
  std::vector<int64_t> strides;
  bool strides_null = true;
  int64_t offset = 0;
  int format = ACL_FORMAT_ND;
  std::vector<int64_t> storage;
  uint64_t storage_count = 0;
  bool storage_null = false;
  void* data = nullptr;
};

uint64_t PickRank(FuzzedDataProvider& in) {
  switch (in.ConsumeIntegralInRange(0, 31)) {
    case 0:
      return 64;
    case 1:
      return 65;  // just past Canopy's limit
    case 2:
      return in.ConsumeIntegralInRange<uint64_t>(10, 70);
    case 3:
      return std::numeric_limits<uint64_t>::max();  // only ever passed with null dims
    default:
      return in.ConsumeIntegralInRange<uint64_t>(0, 9);
  }
}

// True when the contiguous strides of `dims` (and their product) fit in int64.
bool ContiguousStridesFit(const std::vector<int64_t>& dims) {
  int64_t stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    if (__builtin_mul_overflow(stride, std::max<int64_t>(dims[i], 1), &stride)) return false;
  }
  return true;
}

TensorDescription PickDescription(FuzzedDataProvider& in) {
  TensorDescription d;
  uint64_t rank = PickRank(in);
  d.view_null = in.ConsumeIntegralInRange(0, 15) == 0;
  if (!d.view_null && rank > 70) rank = 3;  // a real array of 2^64 entries cannot exist
  d.view_count = rank;
  if (!d.view_null) {
    for (uint64_t i = 0; i < rank; ++i) d.view.push_back(PickDim(in));
  }
  d.dtype = PickDtype(in);
  d.strides_null = in.ConsumeBool();
  if (!d.strides_null && !d.view_null) {
    for (uint64_t i = 0; i < rank; ++i) d.strides.push_back(PickStride(in));
  }
  d.offset = PickOffset(in);
  d.format = PickFormat(in);
  const uint64_t storage_rank = in.ConsumeIntegralInRange(0, 7) == 0 ? PickRank(in) : (rank == 0 ? 0 : 1);
  d.storage_null = in.ConsumeIntegralInRange(0, 15) == 0;
  d.storage_count = d.storage_null || storage_rank <= 70 ? storage_rank : 2;
  if (!d.storage_null) {
    for (uint64_t i = 0; i < d.storage_count; ++i) d.storage.push_back(PickDim(in));
  }
  static int dummy_device_word;  // tensors are never executed here: any address will do
  switch (in.ConsumeIntegralInRange(0, 3)) {
    case 0:
      d.data = nullptr;
      break;
    case 1:
      d.data = reinterpret_cast<void*>(uintptr_t{0x1000});
      break;
    default:
      d.data = &dummy_device_word;
      break;
  }
  return d;
}

// What aclCreateTensor must reject, whatever else it does: dims null with a
// count, and (K1) a shape whose contiguous strides it would have to derive and
// cannot represent in int64.
bool MustReject(const TensorDescription& d) {
  return (d.view_null && d.view_count > 0) || (d.storage_null && d.storage_count > 0) ||
         (d.strides_null && !d.view_null && !ContiguousStridesFit(d.view));
}

// The row-major contiguous strides Canopy derives when none are given.
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size());
  int64_t stride = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= std::max<int64_t>(dims[i], 1);
  }
  return strides;
}

void ExpectArray(const char* what, int64_t* values, uint64_t count, const std::vector<int64_t>& expected) {
  CANOPY_FUZZ_CHECK(values != nullptr, "%s: null array", what);
  CANOPY_FUZZ_CHECK(count == expected.size(), "%s: %llu entries, expected %zu", what,
                    static_cast<unsigned long long>(count), expected.size());
  CANOPY_FUZZ_CHECK(std::equal(expected.begin(), expected.end(), values), "%s: values differ", what);
  delete[] values;  // the getters' arrays are the caller's, released with delete[]
}

// Reads every attribute back and compares it with what was given.
void CheckReadBack(const aclTensor* tensor, const TensorDescription& d) {
  int64_t* values = nullptr;
  uint64_t count = 0;
  CANOPY_FUZZ_CHECK(aclGetViewShape(tensor, &values, &count) == ACLNN_SUCCESS, "aclGetViewShape failed");
  ExpectArray("view shape", values, count, d.view);
  CANOPY_FUZZ_CHECK(aclGetStorageShape(tensor, &values, &count) == ACLNN_SUCCESS, "aclGetStorageShape failed");
  ExpectArray("storage shape", values, count, d.storage);
  CANOPY_FUZZ_CHECK(aclGetViewStrides(tensor, &values, &count) == ACLNN_SUCCESS, "aclGetViewStrides failed");
  ExpectArray("strides", values, count, d.strides_null ? ContiguousStrides(d.view) : d.strides);
  int64_t offset = -1;
  CANOPY_FUZZ_CHECK(aclGetViewOffset(tensor, &offset) == ACLNN_SUCCESS && offset == d.offset, "offset");
  int format = 0;
  CANOPY_FUZZ_CHECK(canopy_fuzz_get_format(tensor, &format) == ACLNN_SUCCESS && format == d.format, "format");
  int dtype = 0;
  CANOPY_FUZZ_CHECK(canopy_fuzz_get_data_type(tensor, &dtype) == ACLNN_SUCCESS && dtype == d.dtype, "dtype");
  void* data = nullptr;
  CANOPY_FUZZ_CHECK(aclGetRawTensorAddr(tensor, &data) == ACLNN_SUCCESS && data == d.data, "data address");
}

// The getters with a null object or a null output: 161001 and a message, never a crash.
void CheckNullGetters(const aclTensor* tensor) {
  int64_t* values = nullptr;
  uint64_t count = 0;
  const auto expect_null_error = [](const char* call, aclnnStatus status) {
    CANOPY_FUZZ_CHECK(status == ACLNN_ERR_PARAM_NULLPTR, "%s returned %d, expected 161001", call, status);
    RequireErrorMessage(call, status);
  };
  expect_null_error("aclGetViewShape(t, null, n)", aclGetViewShape(tensor, nullptr, &count));
  expect_null_error("aclGetViewShape(t, v, null)", aclGetViewShape(tensor, &values, nullptr));
  expect_null_error("aclGetStorageShape(null)", aclGetStorageShape(nullptr, &values, &count));
  expect_null_error("aclGetViewStrides(t, null, n)", aclGetViewStrides(tensor, nullptr, &count));
  expect_null_error("aclGetViewOffset(t, null)", aclGetViewOffset(tensor, nullptr));
  expect_null_error("aclGetFormat(null)", canopy_fuzz_get_format(nullptr, nullptr));
  expect_null_error("aclGetDataType(t, null)", canopy_fuzz_get_data_type(tensor, nullptr));
  expect_null_error("aclGetRawTensorAddr(t, null)", aclGetRawTensorAddr(tensor, nullptr));
  expect_null_error("aclSetRawTensorAddr(null)", aclSetRawTensorAddr(nullptr, nullptr));
  expect_null_error("aclInitTensor(null)",
                    aclInitTensor(nullptr, nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr));
}

aclTensor* CreateTensor(const TensorDescription& d) {
  return canopy_fuzz_create_tensor(d.view_null ? nullptr : d.view.data(), d.view_count, d.dtype,
                                   d.strides_null ? nullptr : d.strides.data(), d.offset, d.format,
                                   d.storage_null ? nullptr : d.storage.data(), d.storage_count, d.data);
}

class Session {
 public:
  ~Session() {
    for (auto& t : tensors_) CheckDestroyed("aclDestroyTensor", aclDestroyTensor(t.first));
    for (aclScalar* s : scalars_) CheckDestroyed("aclDestroyScalar", aclDestroyScalar(s));
    for (aclIntArray* a : int_arrays_) CheckDestroyed("aclDestroyIntArray", aclDestroyIntArray(a));
    for (aclFloatArray* a : float_arrays_) CheckDestroyed("aclDestroyFloatArray", aclDestroyFloatArray(a));
    for (aclBoolArray* a : bool_arrays_) CheckDestroyed("aclDestroyBoolArray", aclDestroyBoolArray(a));
    for (aclTensorList* l : tensor_lists_) CheckDestroyed("aclDestroyTensorList", aclDestroyTensorList(l));
    for (aclScalarList* l : scalar_lists_) CheckDestroyed("aclDestroyScalarList", aclDestroyScalarList(l));
  }

  void Step(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange(0, 13)) {
      case 0:
      case 1:
      case 2:
        CreateTensorStep(in);
        break;
      case 3:
        InitTensorStep(in);
        break;
      case 4:
        ReadBackStep(in);
        break;
      case 5:
        CreateScalarStep(in);
        break;
      case 6:
        CreateArrayStep(in);
        break;
      case 7:
        CreateTensorListStep(in);
        break;
      case 8:
        CreateScalarListStep(in);
        break;
      case 9:
        SizesStep();
        break;
      case 10:
        DestroyStep(in);
        break;
      case 11:
        NullStep();
        break;
      case 12:
        RawAddressStep(in);
        break;
      default:
        CreateTensorStep(in);
        break;
    }
  }

 private:
  static void CheckDestroyed(const char* call, aclnnStatus status) {
    CANOPY_FUZZ_CHECK(status == ACLNN_SUCCESS, "%s returned %d", call, status);
  }

  bool Full() const {
    return tensors_.size() + scalars_.size() + int_arrays_.size() + float_arrays_.size() + bool_arrays_.size() +
               tensor_lists_.size() + scalar_lists_.size() >=
           kMaxLiveObjects;
  }

  void CreateTensorStep(FuzzedDataProvider& in) {
    const TensorDescription d = PickDescription(in);
    ClearErrorMessage();
    aclTensor* tensor = CreateTensor(d);
    if (MustReject(d)) CANOPY_FUZZ_CHECK(tensor == nullptr, "aclCreateTensor accepted what it must refuse");
    if (tensor == nullptr) {
      RequireErrorMessage("aclCreateTensor", 0);
      return;
    }
    CheckReadBack(tensor, d);
    if (Full()) {
      CheckDestroyed("aclDestroyTensor", aclDestroyTensor(tensor));
    } else {
      tensors_.emplace_back(tensor, d);
    }
  }

  void InitTensorStep(FuzzedDataProvider& in) {
    if (tensors_.empty()) return;
    auto& [tensor, current] = tensors_[in.ConsumeIntegralInRange<size_t>(0, tensors_.size() - 1)];
    const TensorDescription d = PickDescription(in);
    ClearErrorMessage();
    const aclnnStatus status =
        canopy_fuzz_init_tensor(tensor, d.view_null ? nullptr : d.view.data(), d.view_count, d.dtype,
                                d.strides_null ? nullptr : d.strides.data(), d.offset, d.format,
                                d.storage_null ? nullptr : d.storage.data(), d.storage_count, d.data);
    CANOPY_FUZZ_CHECK(IsDocumentedAclnnStatus(status), "aclInitTensor returned %d", status);
    if (MustReject(d)) CANOPY_FUZZ_CHECK(status != ACLNN_SUCCESS, "aclInitTensor accepted what it must refuse");
    if (status != ACLNN_SUCCESS) {
      RequireErrorMessage("aclInitTensor", status);
      CheckReadBack(tensor, current);  // a rejected re-initialisation changes nothing
      return;
    }
    current = d;
    CheckReadBack(tensor, current);
  }

  void ReadBackStep(FuzzedDataProvider& in) {
    if (tensors_.empty()) return;
    const auto& [tensor, d] = tensors_[in.ConsumeIntegralInRange<size_t>(0, tensors_.size() - 1)];
    CheckReadBack(tensor, d);
    CheckNullGetters(tensor);
  }

  void CreateScalarStep(FuzzedDataProvider& in) {
    const int dtype = PickDtype(in);
    ScalarBytes value = PickScalarBytes(in, dtype);
    const bool null_value = in.ConsumeIntegralInRange(0, 15) == 0;
    ClearErrorMessage();
    aclScalar* scalar = canopy_fuzz_create_scalar(null_value ? nullptr : value.bytes, dtype);
    if (null_value) CANOPY_FUZZ_CHECK(scalar == nullptr, "aclCreateScalar accepted a null value");
    if (scalar == nullptr) {
      RequireErrorMessage("aclCreateScalar", 0);
      return;
    }
    // The value was copied: scribbling over the caller's bytes changes nothing inside.
    std::memset(value.bytes, 0xA5, sizeof(value.bytes));
    if (Full()) {
      CheckDestroyed("aclDestroyScalar", aclDestroyScalar(scalar));
    } else {
      scalars_.push_back(scalar);
    }
  }

  void CreateArrayStep(FuzzedDataProvider& in) {
    ClearErrorMessage();
    const bool null_values = in.ConsumeIntegralInRange(0, 7) == 0;
    const uint64_t size = in.ConsumeIntegralInRange(0, 15) == 0 ? std::numeric_limits<uint64_t>::max()
                                                                : in.ConsumeIntegralInRange<uint64_t>(0, kMaxArraySize);
    // A real array cannot hold 2^64 entries: the huge size is only ever passed with null values.
    const uint64_t real_size = size > kMaxArraySize ? 0 : size;
    const bool pass_null = null_values || size > kMaxArraySize;
    uint64_t got = 0;
    switch (in.ConsumeIntegralInRange(0, 2)) {
      case 0: {
        std::vector<int64_t> values(real_size);
        for (auto& v : values) v = in.ConsumeIntegral<int64_t>();
        aclIntArray* array = aclCreateIntArray(pass_null ? nullptr : values.data(), size);
        if (pass_null && size > 0)
          CANOPY_FUZZ_CHECK(array == nullptr, "aclCreateIntArray(null, %llu) succeeded",
                            static_cast<unsigned long long>(size));
        if (array == nullptr) return RequireArrayMessage("aclCreateIntArray");
        CANOPY_FUZZ_CHECK(aclGetIntArraySize(array, &got) == ACLNN_SUCCESS && got == size, "int array size");
        Keep(int_arrays_, array, aclDestroyIntArray);
        break;
      }
      case 1: {
        std::vector<float> values(real_size);
        for (auto& v : values) v = in.ConsumeFloatingPoint<float>();
        aclFloatArray* array = aclCreateFloatArray(pass_null ? nullptr : values.data(), size);
        if (pass_null && size > 0) CANOPY_FUZZ_CHECK(array == nullptr, "aclCreateFloatArray(null, n) succeeded");
        if (array == nullptr) return RequireArrayMessage("aclCreateFloatArray");
        CANOPY_FUZZ_CHECK(aclGetFloatArraySize(array, &got) == ACLNN_SUCCESS && got == size, "float array size");
        Keep(float_arrays_, array, aclDestroyFloatArray);
        break;
      }
      default: {
        std::unique_ptr<bool[]> values(new bool[real_size + 1]);
        for (uint64_t i = 0; i < real_size; ++i) values[i] = in.ConsumeBool();
        aclBoolArray* array = aclCreateBoolArray(pass_null ? nullptr : values.get(), size);
        if (pass_null && size > 0) CANOPY_FUZZ_CHECK(array == nullptr, "aclCreateBoolArray(null, n) succeeded");
        if (array == nullptr) return RequireArrayMessage("aclCreateBoolArray");
        CANOPY_FUZZ_CHECK(aclGetBoolArraySize(array, &got) == ACLNN_SUCCESS && got == size, "bool array size");
        Keep(bool_arrays_, array, aclDestroyBoolArray);
        break;
      }
    }
  }

  // The array and list constructors say why they refuse (null, n > 0) (K2).
  static void RequireArrayMessage(const char* call) { RequireErrorMessage(call, 0); }

  template <typename T, typename Destroy>
  void Keep(std::vector<T*>& pool, T* object, Destroy destroy) {
    if (Full()) {
      CheckDestroyed("aclDestroy*Array", destroy(object));
    } else {
      pool.push_back(object);
    }
  }

  // A list takes ownership of its elements: they leave the harness's pools.
  void CreateTensorListStep(FuzzedDataProvider& in) {
    std::vector<const aclTensor*> members;
    const size_t count = in.ConsumeIntegralInRange<size_t>(0, tensors_.size() + 2);
    for (size_t i = 0; i < count; ++i) {
      if (!tensors_.empty() && in.ConsumeIntegralInRange(0, 7) != 0) {
        const size_t pick = in.ConsumeIntegralInRange<size_t>(0, tensors_.size() - 1);
        members.push_back(tensors_[pick].first);
        tensors_.erase(tensors_.begin() + static_cast<std::ptrdiff_t>(pick));  // each element once
      } else {
        members.push_back(nullptr);  // a null element is stored and skipped when destroyed
      }
    }
    const bool null_values = count > 0 && in.ConsumeIntegralInRange(0, 15) == 0;
    ClearErrorMessage();
    aclTensorList* list = aclCreateTensorList(null_values ? nullptr : members.data(), members.size());
    if (list == nullptr) {
      CANOPY_FUZZ_CHECK(null_values, "aclCreateTensorList failed on a valid array");
      RequireArrayMessage("aclCreateTensorList");
      for (const aclTensor* t : members) CheckDestroyed("aclDestroyTensor", aclDestroyTensor(t));
      return;
    }
    CANOPY_FUZZ_CHECK(!null_values, "aclCreateTensorList(null, %zu) succeeded", members.size());
    uint64_t size = 0;
    CANOPY_FUZZ_CHECK(aclGetTensorListSize(list, &size) == ACLNN_SUCCESS && size == members.size(), "list size");
    tensor_lists_.push_back(list);
  }

  void CreateScalarListStep(FuzzedDataProvider& in) {
    std::vector<const aclScalar*> members;
    const size_t count = in.ConsumeIntegralInRange<size_t>(0, scalars_.size() + 2);
    for (size_t i = 0; i < count; ++i) {
      if (!scalars_.empty() && in.ConsumeIntegralInRange(0, 7) != 0) {
        const size_t pick = in.ConsumeIntegralInRange<size_t>(0, scalars_.size() - 1);
        members.push_back(scalars_[pick]);
        scalars_.erase(scalars_.begin() + static_cast<std::ptrdiff_t>(pick));
      } else {
        members.push_back(nullptr);
      }
    }
    const bool null_values = count > 0 && in.ConsumeIntegralInRange(0, 15) == 0;
    ClearErrorMessage();
    aclScalarList* list = aclCreateScalarList(null_values ? nullptr : members.data(), members.size());
    if (list == nullptr) {
      CANOPY_FUZZ_CHECK(null_values, "aclCreateScalarList failed on a valid array");
      RequireArrayMessage("aclCreateScalarList");
      for (const aclScalar* s : members) CheckDestroyed("aclDestroyScalar", aclDestroyScalar(s));
      return;
    }
    CANOPY_FUZZ_CHECK(!null_values, "aclCreateScalarList(null, %zu) succeeded", members.size());
    uint64_t size = 0;
    CANOPY_FUZZ_CHECK(aclGetScalarListSize(list, &size) == ACLNN_SUCCESS && size == members.size(), "list size");
    scalar_lists_.push_back(list);
  }

  void SizesStep() {
    uint64_t size = 0;
    for (aclTensorList* l : tensor_lists_) CANOPY_FUZZ_CHECK(aclGetTensorListSize(l, &size) == 0, "list size");
    for (aclScalarList* l : scalar_lists_) CANOPY_FUZZ_CHECK(aclGetScalarListSize(l, &size) == 0, "list size");
    const auto expect_null = [](const char* call, aclnnStatus status) {
      CANOPY_FUZZ_CHECK(status == ACLNN_ERR_PARAM_NULLPTR, "%s returned %d, expected 161001", call, status);
      RequireErrorMessage(call, status);
    };
    expect_null("aclGetIntArraySize(null)", aclGetIntArraySize(nullptr, &size));
    expect_null("aclGetFloatArraySize(null)", aclGetFloatArraySize(nullptr, &size));
    expect_null("aclGetBoolArraySize(null)", aclGetBoolArraySize(nullptr, &size));
    expect_null("aclGetTensorListSize(null)", aclGetTensorListSize(nullptr, &size));
    expect_null("aclGetScalarListSize(null)", aclGetScalarListSize(nullptr, &size));
    if (!int_arrays_.empty()) expect_null("aclGetIntArraySize(a, null)", aclGetIntArraySize(int_arrays_[0], nullptr));
    if (!tensor_lists_.empty()) {
      expect_null("aclGetTensorListSize(l, null)", aclGetTensorListSize(tensor_lists_[0], nullptr));
    }
  }

  template <typename T, typename Destroy>
  void DestroyOne(FuzzedDataProvider& in, std::vector<T>& pool, Destroy destroy) {
    if (pool.empty()) return;
    const size_t pick = in.ConsumeIntegralInRange<size_t>(0, pool.size() - 1);
    CheckDestroyed("aclDestroy*", destroy(pool[pick]));
    pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(pick));
  }

  void DestroyStep(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange(0, 6)) {
      case 0:
        if (!tensors_.empty()) {
          const size_t pick = in.ConsumeIntegralInRange<size_t>(0, tensors_.size() - 1);
          CheckDestroyed("aclDestroyTensor", aclDestroyTensor(tensors_[pick].first));
          tensors_.erase(tensors_.begin() + static_cast<std::ptrdiff_t>(pick));
        }
        break;
      case 1:
        DestroyOne(in, scalars_, aclDestroyScalar);
        break;
      case 2:
        DestroyOne(in, int_arrays_, aclDestroyIntArray);
        break;
      case 3:
        DestroyOne(in, float_arrays_, aclDestroyFloatArray);
        break;
      case 4:
        DestroyOne(in, bool_arrays_, aclDestroyBoolArray);
        break;
      case 5:
        DestroyOne(in, tensor_lists_, aclDestroyTensorList);
        break;
      default:
        DestroyOne(in, scalar_lists_, aclDestroyScalarList);
        break;
    }
  }

  // Destroying nothing succeeds; getters on nothing fail cleanly.
  void NullStep() {
    CheckDestroyed("aclDestroyTensor(null)", aclDestroyTensor(nullptr));
    CheckDestroyed("aclDestroyScalar(null)", aclDestroyScalar(nullptr));
    CheckDestroyed("aclDestroyIntArray(null)", aclDestroyIntArray(nullptr));
    CheckDestroyed("aclDestroyFloatArray(null)", aclDestroyFloatArray(nullptr));
    CheckDestroyed("aclDestroyBoolArray(null)", aclDestroyBoolArray(nullptr));
    CheckDestroyed("aclDestroyTensorList(null)", aclDestroyTensorList(nullptr));
    CheckDestroyed("aclDestroyScalarList(null)", aclDestroyScalarList(nullptr));
    CheckNullGetters(nullptr);
    // An empty array may come from a null pointer (nothing is read).
    aclIntArray* empty = aclCreateIntArray(nullptr, 0);
    CANOPY_FUZZ_CHECK(empty != nullptr, "aclCreateIntArray(null, 0) failed");
    uint64_t size = 1;
    CANOPY_FUZZ_CHECK(aclGetIntArraySize(empty, &size) == ACLNN_SUCCESS && size == 0, "empty array size");
    CheckDestroyed("aclDestroyIntArray", aclDestroyIntArray(empty));
  }

  void RawAddressStep(FuzzedDataProvider& in) {
    if (tensors_.empty()) return;
    auto& [tensor, d] = tensors_[in.ConsumeIntegralInRange<size_t>(0, tensors_.size() - 1)];
    void* address = reinterpret_cast<void*>(in.ConsumeIntegral<uintptr_t>());
    CANOPY_FUZZ_CHECK(aclSetRawTensorAddr(tensor, address) == ACLNN_SUCCESS, "aclSetRawTensorAddr failed");
    d.data = address;
    CheckReadBack(tensor, d);
  }

  std::vector<std::pair<aclTensor*, TensorDescription>> tensors_;
  std::vector<aclScalar*> scalars_;
  std::vector<aclIntArray*> int_arrays_;
  std::vector<aclFloatArray*> float_arrays_;
  std::vector<aclBoolArray*> bool_arrays_;
  std::vector<aclTensorList*> tensor_lists_;
  std::vector<aclScalarList*> scalar_lists_;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  InitRuntimeOnce();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Session session;
  for (int step = 0; step < kMaxSteps && in.remaining_bytes() > 0; ++step) session.Step(in);
  return 0;
}
