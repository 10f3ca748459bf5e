// The aclnn meta API (aclnn/acl_meta.h): tensors and their getters, scalars,
// arrays, lists that own their members, destroy functions with the exact
// type llama.cpp relies on, raw addresses and the null-pointer codes.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

// ---- Destroy functions: exactly aclnnStatus (*)(const T*) ----------------------------------------

static_assert(std::is_same_v<decltype(&aclDestroyTensor), aclnnStatus (*)(const aclTensor*)>);
static_assert(std::is_same_v<decltype(&aclDestroyScalar), aclnnStatus (*)(const aclScalar*)>);
static_assert(std::is_same_v<decltype(&aclDestroyIntArray), aclnnStatus (*)(const aclIntArray*)>);
static_assert(std::is_same_v<decltype(&aclDestroyFloatArray), aclnnStatus (*)(const aclFloatArray*)>);
static_assert(std::is_same_v<decltype(&aclDestroyBoolArray), aclnnStatus (*)(const aclBoolArray*)>);
static_assert(std::is_same_v<decltype(&aclDestroyTensorList), aclnnStatus (*)(const aclTensorList*)>);
static_assert(std::is_same_v<decltype(&aclDestroyScalarList), aclnnStatus (*)(const aclScalarList*)>);

// llama.cpp passes the destroy functions as template arguments like this.
template <typename T, aclnnStatus (*Destroy)(const T*)>
struct AclnnDeleter {
  void operator()(T* object) const { EXPECT_EQ(Destroy(object), ACLNN_SUCCESS); }
};
using TensorHandle = std::unique_ptr<aclTensor, AclnnDeleter<aclTensor, aclDestroyTensor>>;
using ScalarHandle = std::unique_ptr<aclScalar, AclnnDeleter<aclScalar, aclDestroyScalar>>;

// The getters allocate with new[]; the caller releases.
std::vector<int64_t> TakeArray(int64_t* data, uint64_t size) {
  std::vector<int64_t> values(data, data + size);
  delete[] data;
  return values;
}

// ---- aclCreateTensor and the getters ------------------------------------------------------------

struct TensorCase {
  std::string name;
  Shape view;
  std::vector<int64_t> strides;  // empty with nullStrides: pass NULL
  bool nullStrides;
  int64_t offset;
  aclFormat format;
  Shape storage;
  aclDataType dtype;
  Shape expectedStrides;
};

void PrintTo(const TensorCase& x, std::ostream* os) { *os << x.name; }

std::vector<TensorCase> TensorCases() {
  return {
      {"contiguous_rank3", {2, 3, 4}, {12, 4, 1}, false, 0, ACL_FORMAT_ND, {2, 3, 4}, ACL_FLOAT, {12, 4, 1}},
      {"transposed_view", {4, 2}, {1, 4}, false, 0, ACL_FORMAT_ND, {2, 4}, ACL_FLOAT16, {1, 4}},
      {"offset_into_storage", {3}, {2}, false, 5, ACL_FORMAT_ND, {16}, ACL_INT64, {2}},
      {"null_strides_are_contiguous", {2, 5, 3}, {}, true, 0, ACL_FORMAT_ND, {2, 5, 3}, ACL_BF16, {15, 3, 1}},
      {"broadcast_stride0", {4, 3}, {0, 1}, false, 0, ACL_FORMAT_ND, {3}, ACL_INT8, {0, 1}},
      {"rank0", {}, {}, false, 2, ACL_FORMAT_ND, {4}, ACL_DOUBLE, {}},
      {"empty", {0, 3}, {3, 1}, false, 0, ACL_FORMAT_ND, {0, 3}, ACL_BOOL, {3, 1}},
      {"nchw_format",
       {1, 2, 3, 3},
       {18, 9, 3, 1},
       false,
       0,
       ACL_FORMAT_NCHW,
       {1, 2, 3, 3},
       ACL_COMPLEX64,
       {18, 9, 3, 1}},
      {"rank8", {1, 2, 1, 2, 1, 2, 1, 2}, {}, true, 0, ACL_FORMAT_ND, {16}, ACL_UINT8, {16, 8, 8, 4, 4, 2, 2, 1}},
  };
}

class CreateTensorTest : public ::testing::TestWithParam<TensorCase> {};

TEST_P(CreateTensorTest, GettersReturnWhatWasCreated) {
  const TensorCase& x = GetParam();
  DeviceBuffer buffer(1024);
  static const int64_t kNoDims[1] = {0};
  TensorHandle tensor(aclCreateTensor(x.view.empty() ? kNoDims : x.view.data(), x.view.size(), x.dtype,
                                      x.nullStrides ? nullptr : (x.strides.empty() ? kNoDims : x.strides.data()),
                                      x.offset, x.format, x.storage.data(), x.storage.size(), buffer.get()));
  ASSERT_NE(tensor, nullptr);

  int64_t* dims = nullptr;
  uint64_t count = 0;
  ASSERT_EQ(aclGetViewShape(tensor.get(), &dims, &count), ACLNN_SUCCESS);
  EXPECT_EQ(TakeArray(dims, count), x.view);
  ASSERT_EQ(aclGetStorageShape(tensor.get(), &dims, &count), ACLNN_SUCCESS);
  EXPECT_EQ(TakeArray(dims, count), x.storage);
  ASSERT_EQ(aclGetViewStrides(tensor.get(), &dims, &count), ACLNN_SUCCESS);
  EXPECT_EQ(TakeArray(dims, count), x.expectedStrides);
  int64_t offset = -1;
  EXPECT_EQ(aclGetViewOffset(tensor.get(), &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, x.offset);
  aclFormat format = ACL_FORMAT_UNDEFINED;
  EXPECT_EQ(aclGetFormat(tensor.get(), &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, x.format);
  aclDataType dtype = ACL_DT_UNDEFINED;
  EXPECT_EQ(aclGetDataType(tensor.get(), &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, x.dtype);
  void* address = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(tensor.get(), &address), ACLNN_SUCCESS);
  EXPECT_EQ(address, buffer.get());
}

INSTANTIATE_TEST_SUITE_P(Cases, CreateTensorTest, ::testing::ValuesIn(TensorCases()),
                         [](const ::testing::TestParamInfo<TensorCase>& info) { return info.param.name; });

TEST(CreateTensor, RankZeroMayPassNullDims) {
  DeviceBuffer buffer(64);
  TensorHandle tensor(aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, buffer.get()));
  ASSERT_NE(tensor, nullptr);
  int64_t* dims = nullptr;
  uint64_t count = 99;
  ASSERT_EQ(aclGetViewShape(tensor.get(), &dims, &count), ACLNN_SUCCESS);
  EXPECT_EQ(count, 0u);
  delete[] dims;
}

TEST(CreateTensor, NullDimsWithNonZeroCountGiveNull) {
  DeviceBuffer buffer(64);
  const int64_t dims[2] = {2, 3};
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, buffer.get()), nullptr);
  EXPECT_EQ(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 2, buffer.get()), nullptr);
}

TEST(CreateTensor, NullDataIsAllowed) {
  const int64_t dims[2] = {2, 3};
  TensorHandle tensor(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, nullptr));
  EXPECT_NE(tensor, nullptr);
}

// Every getter with a null tensor or a null out-pointer.
struct NullGetterCase {
  const char* name;
  std::function<aclnnStatus(const aclTensor*)> call;
};

void PrintTo(const NullGetterCase& x, std::ostream* os) { *os << x.name; }

std::vector<NullGetterCase> NullGetterCases() {
  static int64_t* dims;
  static uint64_t count;
  static int64_t offset;
  static aclFormat format;
  static aclDataType dtype;
  static void* address;
  return {
      {"ViewShape_null_tensor", [](const aclTensor*) { return aclGetViewShape(nullptr, &dims, &count); }},
      {"ViewShape_null_dims", [](const aclTensor* t) { return aclGetViewShape(t, nullptr, &count); }},
      {"ViewShape_null_count", [](const aclTensor* t) { return aclGetViewShape(t, &dims, nullptr); }},
      {"StorageShape_null_tensor", [](const aclTensor*) { return aclGetStorageShape(nullptr, &dims, &count); }},
      {"StorageShape_null_dims", [](const aclTensor* t) { return aclGetStorageShape(t, nullptr, &count); }},
      {"StorageShape_null_count", [](const aclTensor* t) { return aclGetStorageShape(t, &dims, nullptr); }},
      {"ViewStrides_null_tensor", [](const aclTensor*) { return aclGetViewStrides(nullptr, &dims, &count); }},
      {"ViewStrides_null_strides", [](const aclTensor* t) { return aclGetViewStrides(t, nullptr, &count); }},
      {"ViewStrides_null_count", [](const aclTensor* t) { return aclGetViewStrides(t, &dims, nullptr); }},
      {"ViewOffset_null_tensor", [](const aclTensor*) { return aclGetViewOffset(nullptr, &offset); }},
      {"ViewOffset_null_offset", [](const aclTensor* t) { return aclGetViewOffset(t, nullptr); }},
      {"Format_null_tensor", [](const aclTensor*) { return aclGetFormat(nullptr, &format); }},
      {"Format_null_format", [](const aclTensor* t) { return aclGetFormat(t, nullptr); }},
      {"DataType_null_tensor", [](const aclTensor*) { return aclGetDataType(nullptr, &dtype); }},
      {"DataType_null_dtype", [](const aclTensor* t) { return aclGetDataType(t, nullptr); }},
      {"RawTensorAddr_null_tensor", [](const aclTensor*) { return aclGetRawTensorAddr(nullptr, &address); }},
      {"RawTensorAddr_null_addr", [](const aclTensor* t) { return aclGetRawTensorAddr(t, nullptr); }},
      {"SetRawTensorAddr_null_tensor", [](const aclTensor*) { return aclSetRawTensorAddr(nullptr, nullptr); }},
      {"InitTensor_null_tensor",
       [](const aclTensor*) {
         const int64_t d[1] = {4};
         return aclInitTensor(nullptr, d, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, d, 1, nullptr);
       }},
      {"IntArraySize_null_array", [](const aclTensor*) { return aclGetIntArraySize(nullptr, &count); }},
      {"FloatArraySize_null_array", [](const aclTensor*) { return aclGetFloatArraySize(nullptr, &count); }},
      {"BoolArraySize_null_array", [](const aclTensor*) { return aclGetBoolArraySize(nullptr, &count); }},
      {"TensorListSize_null_list", [](const aclTensor*) { return aclGetTensorListSize(nullptr, &count); }},
      {"ScalarListSize_null_list", [](const aclTensor*) { return aclGetScalarListSize(nullptr, &count); }},
  };
}

class NullGetterTest : public ::testing::TestWithParam<NullGetterCase> {};

TEST_P(NullGetterTest, Is161001) {
  DeviceBuffer buffer(64);
  const int64_t dims[2] = {2, 3};
  TensorHandle tensor(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, buffer.get()));
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ(GetParam().call(tensor.get()), ACLNN_ERR_PARAM_NULLPTR);
}

INSTANTIATE_TEST_SUITE_P(Cases, NullGetterTest, ::testing::ValuesIn(NullGetterCases()),
                         [](const ::testing::TestParamInfo<NullGetterCase>& info) { return info.param.name; });

TEST(ArraySizeGetters, NullSizePointerIs161001) {
  const int64_t ints[2] = {1, 2};
  const float floats[2] = {1.0f, 2.0f};
  const bool bools[2] = {true, false};
  aclIntArray* intArray = aclCreateIntArray(ints, 2);
  aclFloatArray* floatArray = aclCreateFloatArray(floats, 2);
  aclBoolArray* boolArray = aclCreateBoolArray(bools, 2);
  EXPECT_EQ(aclGetIntArraySize(intArray, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetFloatArraySize(floatArray, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetBoolArraySize(boolArray, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyIntArray(intArray), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(floatArray), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(boolArray), ACLNN_SUCCESS);
}

TEST(InitTensor, ReinitialisesEveryAttribute) {
  DeviceBuffer first(256), second(256);
  const int64_t dims[2] = {2, 3};
  TensorHandle tensor(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, first.get()));
  ASSERT_NE(tensor, nullptr);
  const int64_t view[3] = {4, 1, 2}, strides[3] = {2, 2, 1}, storage[1] = {12};
  ASSERT_EQ(aclInitTensor(tensor.get(), view, 3, ACL_INT16, strides, 3, ACL_FORMAT_NCHW, storage, 1, second.get()),
            ACLNN_SUCCESS);
  int64_t* out = nullptr;
  uint64_t count = 0;
  ASSERT_EQ(aclGetViewShape(tensor.get(), &out, &count), ACLNN_SUCCESS);
  EXPECT_EQ(TakeArray(out, count), Shape({4, 1, 2}));
  ASSERT_EQ(aclGetViewStrides(tensor.get(), &out, &count), ACLNN_SUCCESS);
  EXPECT_EQ(TakeArray(out, count), Shape({2, 2, 1}));
  ASSERT_EQ(aclGetStorageShape(tensor.get(), &out, &count), ACLNN_SUCCESS);
  EXPECT_EQ(TakeArray(out, count), Shape({12}));
  int64_t offset = -1;
  EXPECT_EQ(aclGetViewOffset(tensor.get(), &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 3);
  aclDataType dtype = ACL_DT_UNDEFINED;
  EXPECT_EQ(aclGetDataType(tensor.get(), &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_INT16);
  aclFormat format = ACL_FORMAT_UNDEFINED;
  EXPECT_EQ(aclGetFormat(tensor.get(), &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, ACL_FORMAT_NCHW);
  void* address = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(tensor.get(), &address), ACLNN_SUCCESS);
  EXPECT_EQ(address, second.get());
}

TEST(RawTensorAddr, SetThenGet) {
  DeviceBuffer first(64), second(64);
  const int64_t dims[1] = {4};
  TensorHandle tensor(aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, first.get()));
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ(aclSetRawTensorAddr(tensor.get(), second.get()), ACLNN_SUCCESS);
  void* address = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(tensor.get(), &address), ACLNN_SUCCESS);
  EXPECT_EQ(address, second.get());
}

// An op reads the data at the address set with aclSetRawTensorAddr.
TEST(RawTensorAddr, OpsUseTheNewAddress) {
  Rng rng = Rng::ForCurrentTest();
  const Shape shape = {3, 4};
  DeviceTensor first(ACL_FLOAT, shape), second(ACL_FLOAT, shape), other(ACL_FLOAT, shape), out(ACL_FLOAT, shape);
  first.FillRandom(rng, Range{});
  const Values s = second.FillRandom(rng, Range{}), o = other.FillRandom(rng, Range{});
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        aclTensor* self = args.Tensor(first);
        EXPECT_EQ(aclSetRawTensorAddr(self, second.data()), ACLNN_SUCCESS);
        return aclnnAddGetWorkspaceSize(self, args.Tensor(other), args.Scalar(ACL_FLOAT, 1.0), args.Tensor(out),
                                        workspaceSize, executor);
      },
      aclnnAdd);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(), ReferenceBinary(BinaryOp::kAdd, s, shape, o, shape, 1.0, ACL_FLOAT, ACL_FLOAT), "add");
}

// ---- Scalars ------------------------------------------------------------------------------------

class CreateScalarTest : public ::testing::TestWithParam<aclDataType> {};

TEST_P(CreateScalarTest, CreatesFromHostValueAndDestroys) {
  alignas(16) uint8_t value[16] = {};
  EncodeValue(IsBool(GetParam()) ? Value(1.0) : Value(3.0), GetParam(), value);
  aclScalar* scalar = aclCreateScalar(value, GetParam());
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Dtypes, CreateScalarTest, ::testing::ValuesIn(AllDtypes()),
                         [](const ::testing::TestParamInfo<aclDataType>& info) { return Name(info.param); });

TEST(CreateScalar, NullValueGivesNull) { EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr); }

// The scalar holds a copy: changing the host value afterwards changes nothing.
TEST(CreateScalar, CopiesTheHostValue) {
  Rng rng = Rng::ForCurrentTest();
  const Shape shape = {2, 5};
  DeviceTensor self(ACL_FLOAT, shape), out(ACL_FLOAT, shape);
  const Values s = self.FillRandom(rng, Range{});
  out.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        float host = 2.5f;
        ScalarHandle other(aclCreateScalar(&host, ACL_FLOAT));
        host = -100.0f;
        aclnnStatus status = aclnnAddsGetWorkspaceSize(args.Tensor(self), other.get(), args.Scalar(ACL_FLOAT, 1.0),
                                                       args.Tensor(out), workspaceSize, executor);
        return status;  // `other` is destroyed here, before phase 2, as clients do
      },
      aclnnAdds);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(out.ReadView(), ReferenceBinary(BinaryOp::kAdd, s, shape, {2.5}, {}, 1.0, ACL_FLOAT, ACL_FLOAT),
             "self + 2.5");
}

// ---- Arrays and lists ---------------------------------------------------------------------------

TEST(Arrays, CreateSizeDestroy) {
  const int64_t ints[4] = {3, -1, 7, 0};
  const float floats[3] = {0.5f, -2.0f, 8.0f};
  const bool bools[5] = {true, false, true, true, false};
  aclIntArray* intArray = aclCreateIntArray(ints, 4);
  aclFloatArray* floatArray = aclCreateFloatArray(floats, 3);
  aclBoolArray* boolArray = aclCreateBoolArray(bools, 5);
  ASSERT_NE(intArray, nullptr);
  ASSERT_NE(floatArray, nullptr);
  ASSERT_NE(boolArray, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetIntArraySize(intArray, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(aclGetFloatArraySize(floatArray, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(aclGetBoolArraySize(boolArray, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 5u);
  EXPECT_EQ(aclDestroyIntArray(intArray), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(floatArray), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(boolArray), ACLNN_SUCCESS);
}

TEST(Lists, TensorListOwnsItsTensors) {
  DeviceBuffer buffer(256);
  const int64_t dims[2] = {2, 3};
  std::vector<const aclTensor*> tensors;
  for (int i = 0; i < 3; ++i) {
    tensors.push_back(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, buffer.get()));
    ASSERT_NE(tensors.back(), nullptr);
  }
  aclTensorList* list = aclCreateTensorList(tensors.data(), tensors.size());
  ASSERT_NE(list, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(aclGetTensorListSize(list, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  // Destroys the three tensors too; destroying them again would be a double free.
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
}

TEST(Lists, ScalarListOwnsItsScalars) {
  std::vector<const aclScalar*> scalars;
  for (float v : {1.0f, -2.0f}) {
    scalars.push_back(aclCreateScalar(&v, ACL_FLOAT));
    ASSERT_NE(scalars.back(), nullptr);
  }
  aclScalarList* list = aclCreateScalarList(scalars.data(), scalars.size());
  ASSERT_NE(list, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetScalarListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(aclGetScalarListSize(list, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyScalarList(list), ACLNN_SUCCESS);
}

TEST(Destroy, NullIsSuccess) {
  EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensorList(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalarList(nullptr), ACLNN_SUCCESS);
}

TEST(AclnnInit, SucceedsAfterAclInit) {
  TestStream();  // aclInit has run
  EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
}

TEST(StatusCodes, HaveCannValues) {
  static_assert(ACLNN_SUCCESS == 0);
  static_assert(ACLNN_ERR_PARAM_NULLPTR == 161001);
  static_assert(ACLNN_ERR_PARAM_INVALID == 161002);
  static_assert(ACLNN_ERR_RUNTIME_ERROR == 361001);
  static_assert(ACLNN_ERR_INNER == 561000);
  static_assert(ACLNN_ERR_INNER_NULLPTR == 561103);
  static_assert(ACLNN_ERR_INNER_KEY_CONFILICT == ACLNN_ERR_INNER_KEY_CONFLICT);
  SUCCEED();
}

}  // namespace
}  // namespace canopy_test
