// Cast, InplaceCopy, InplaceZero and InplaceFillScalar: every dtype pair of
// Cast and Copy, broadcasting into selfRef, strided and offset views, rank 0,
// rank 8 and empty tensors. Results are checked against C-cast semantics
// (truncation toward zero, non-zero to true, complex to real keeps the real
// part) and storage outside the view must stay untouched.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_zero.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

// A2 support lists.
const std::vector<aclDataType>& CastDtypes() { return AllDtypes(); }  // all 15
const std::vector<aclDataType>& CopyDtypes() { return AllDtypes(); }  // all 15
const std::vector<aclDataType>& ZeroDtypes() {
  static const std::vector<aclDataType> dtypes = {ACL_INT8,       ACL_INT32,     ACL_INT64,  ACL_UINT8, ACL_FLOAT16,
                                                  ACL_FLOAT,      ACL_BOOL,      ACL_DOUBLE, ACL_INT16, ACL_UINT16,
                                                  ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};
  return dtypes;
}
const std::vector<aclDataType>& FillDtypes() { return AllDtypes(); }  // all 15 on A2

// Source values every target dtype holds: within +-100 (non-negative when
// either side is unsigned), with fractions to exercise truncation and exact
// zeros so that conversions to bool see both values.
Range ConversionRange(aclDataType src, aclDataType dst) {
  Range range{-100, 100};
  if (IsUnsigned(src) || IsUnsigned(dst)) range.lo = 0;
  range.zeroEvery = 4;
  return range;
}

// Strided sources of these dtypes are outside the documented contract.
bool MustBeContiguous(aclDataType dtype) { return IsBool(dtype) || IsComplex(dtype); }

const View c = View::kContiguous;

// ---- Cast ---------------------------------------------------------------------------------------

struct CastCase {
  std::string name;
  aclDataType src, dst;
  Shape shape = {3, 5};
  View srcView = View::kContiguous;
  View dstView = View::kContiguous;
};

void PrintTo(const CastCase& x, std::ostream* os) { *os << x.name; }

std::vector<CastCase> CastCases() {
  std::vector<CastCase> cases;
  for (aclDataType src : CastDtypes()) {
    for (aclDataType dst : CastDtypes()) {
      cases.push_back({std::string("pair_") + Name(src) + "_to_" + Name(dst), src, dst});
    }
  }
  cases.push_back({"stepped_src_f32_to_f16", ACL_FLOAT, ACL_FLOAT16, {4, 6}, View::kStepped, c});
  cases.push_back({"transposed_src_s32_to_f64", ACL_INT32, ACL_DOUBLE, {4, 6}, View::kTransposed, c});
  cases.push_back({"stepped_dst_f16_to_f32", ACL_FLOAT16, ACL_FLOAT, {4, 6}, c, View::kStepped});
  cases.push_back({"offsets_bf16_to_s8", ACL_BF16, ACL_INT8, {4, 6}, View::kOffset, View::kOffset});
  cases.push_back({"reversed_rank3_f64_to_bf16", ACL_DOUBLE, ACL_BF16, {2, 3, 4}, View::kReversed, View::kTransposed});
  cases.push_back({"broadcast_src_u8_to_f32", ACL_UINT8, ACL_FLOAT, {4, 6}, View::kBroadcast, c});
  cases.push_back({"rank0_f64_to_s32", ACL_DOUBLE, ACL_INT32, {}});
  cases.push_back({"rank0_offset_f32_to_u8", ACL_FLOAT, ACL_UINT8, {}, View::kOffset, View::kOffset});
  cases.push_back({"rank8_f32_to_bf16", ACL_FLOAT, ACL_BF16, {2, 1, 2, 1, 2, 1, 2, 2}});
  cases.push_back(
      {"rank8_stepped_s64_to_f16", ACL_INT64, ACL_FLOAT16, {2, 1, 2, 1, 2, 1, 2, 2}, View::kStepped, View::kStepped});
  cases.push_back({"empty_f32_to_s32", ACL_FLOAT, ACL_INT32, {0, 3}});
  cases.push_back({"empty_rank3_c64_to_f16", ACL_COMPLEX64, ACL_FLOAT16, {2, 0, 3}});
  // Large enough for the vectorised conversions and their tails.
  const std::vector<std::pair<aclDataType, aclDataType>> largePairs = {
      {ACL_FLOAT, ACL_FLOAT16}, {ACL_FLOAT16, ACL_FLOAT}, {ACL_FLOAT, ACL_BF16},   {ACL_BF16, ACL_FLOAT},
      {ACL_FLOAT16, ACL_BF16},  {ACL_FLOAT, ACL_INT32},   {ACL_INT32, ACL_FLOAT},  {ACL_DOUBLE, ACL_FLOAT},
      {ACL_UINT8, ACL_FLOAT},   {ACL_FLOAT, ACL_BOOL},    {ACL_BOOL, ACL_FLOAT16}, {ACL_INT64, ACL_INT8},
  };
  for (const auto& [src, dst] : largePairs) {
    cases.push_back({std::string("large_") + Name(src) + "_to_" + Name(dst), src, dst, {130, 257}});
  }
  cases.push_back({"large_f16_to_f32_transposed", ACL_FLOAT16, ACL_FLOAT, {96, 40}, View::kTransposed, c});
  cases.push_back({"large_f32_to_bf16_stepped_out", ACL_FLOAT, ACL_BF16, {64, 130}, c, View::kStepped});
  return cases;
}

class CastTest : public ::testing::TestWithParam<CastCase> {};

TEST_P(CastTest, MatchesCSemantics) {
  const CastCase& x = GetParam();
  ASSERT_FALSE(MustBeContiguous(x.src) && x.srcView != View::kContiguous) << "bad test case";
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor src(x.src, x.shape, x.srcView);
  const Values values = src.FillRandom(rng, ConversionRange(x.src, x.dst));
  DeviceTensor dst(x.dst, x.shape, x.dstView);
  dst.Poison();
  const std::vector<uint8_t> before = dst.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnCastGetWorkspaceSize(args.Tensor(src), x.dst, args.Tensor(dst), workspaceSize, executor);
      },
      aclnnCast);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(dst.ReadView(), ReferenceCast(values, x.dst), x.name);
  ExpectOutsideViewUnchanged(dst, before, "cast out storage");
  ExpectExact(src.ReadView(), values, "self must not change");
  if (NumElements(x.shape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, CastTest, ::testing::ValuesIn(CastCases()),
                         [](const ::testing::TestParamInfo<CastCase>& info) { return SanitizeName(info.param.name); });

// ---- Cast: rounding ties, subnormals, overflow, infinities, NaN ----------------------------------

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// Values at the edges of f16 / bf16 / f32: exact ties (round to even),
// subnormals, the largest finite values and just past them, infinities, NaN.
const std::vector<double> kFloatEdges = {
    0.0,        -0.0,       1.0,     -1.0,        0.1,         -2.5,
    65504.0,    65519.0,    65520.0, 1e5,         6e-5,        0x1p-24,
    0x1.8p-24,  0x1p-25,    1e-8,    1 + 0x1p-11, 1 + 0x3p-11, -(1 + 0x1p-11),
    1 + 0x1p-8, 1 + 0x3p-8, 257.0,   259.0,       1e30,        1e39,
    -1e-40,     0x1p-149,   kInf,    -kInf,       kNan,        3.4028234663852886e38,
};
// Float to integer (values every float dtype holds): truncation toward zero;
// NaN becomes 0.
const std::vector<double> kFloatToInt = {0.0, -0.0, 1.9, -1.9, 2.5, -2.5, 60000.0, -65000.0, 0.999, 1e-30, kNan};
const std::vector<double> kFloatToBool = {0.0, -0.0, kNan, kInf, -kInf, 1e-30, -2.0, 0.5, 0x1p-24};

struct CastSpecialCase {
  std::string name;
  aclDataType src, dst;
  const std::vector<double>* values;
};

void PrintTo(const CastSpecialCase& x, std::ostream* os) { *os << x.name; }

std::vector<CastSpecialCase> CastSpecialCases() {
  std::vector<CastSpecialCase> cases;
  const std::vector<aclDataType> floats = {ACL_FLOAT, ACL_DOUBLE, ACL_FLOAT16, ACL_BF16};
  for (aclDataType src : floats) {
    for (aclDataType dst : floats) {
      if (src != dst) cases.push_back({std::string("edges_") + Name(src) + "_to_" + Name(dst), src, dst, &kFloatEdges});
    }
    for (aclDataType dst : {ACL_INT32, ACL_INT64}) {
      cases.push_back({std::string("truncate_") + Name(src) + "_to_" + Name(dst), src, dst, &kFloatToInt});
    }
    cases.push_back({std::string("nonzero_") + Name(src) + "_to_bool", src, ACL_BOOL, &kFloatToBool});
  }
  return cases;
}

class CastSpecialValuesTest : public ::testing::TestWithParam<CastSpecialCase> {};

TEST_P(CastSpecialValuesTest, RoundToNearestEven) {
  const CastSpecialCase& x = GetParam();
  constexpr size_t kCount = 97;  // cycles the list across vector bodies and tails
  const Shape shape = {static_cast<int64_t>(kCount)};
  Values values(kCount);
  for (size_t i = 0; i < kCount; ++i) values[i] = (*x.values)[i % x.values->size()];
  DeviceTensor src(x.src, shape);
  src.WriteView(values);
  const Values stored = src.ReadView();  // the list rounded to the source dtype
  DeviceTensor dst(x.dst, shape);
  dst.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnCastGetWorkspaceSize(args.Tensor(src), x.dst, args.Tensor(dst), workspaceSize, executor);
      },
      aclnnCast);
  ASSERT_TRUE(run.ok()) << Describe(run);
  // One correct rounding (none of the values is one that rounding through
  // f32 first would change): compare exactly.
  Values want(kCount);
  for (size_t i = 0; i < kCount; ++i) want[i] = ConvertValue(stored[i], x.dst);
  ExpectExact(dst.ReadView(), want, x.name);
}

INSTANTIATE_TEST_SUITE_P(Cases, CastSpecialValuesTest, ::testing::ValuesIn(CastSpecialCases()),
                         [](const ::testing::TestParamInfo<CastSpecialCase>& info) { return info.param.name; });

// ---- InplaceCopy --------------------------------------------------------------------------------

struct CopyCase {
  std::string name;
  aclDataType self, src;
  Shape selfShape = {3, 5};
  Shape srcShape = {3, 5};
  View selfView = View::kContiguous;
  View srcView = View::kContiguous;
};

void PrintTo(const CopyCase& x, std::ostream* os) { *os << x.name; }

std::vector<CopyCase> CopyCases() {
  std::vector<CopyCase> cases;
  for (aclDataType self : CopyDtypes()) {
    for (aclDataType src : CopyDtypes()) {
      cases.push_back({std::string("pair_") + Name(src) + "_into_" + Name(self), self, src});
    }
  }
  const Shape m = {3, 5};
  cases.push_back({"broadcast_row", ACL_FLOAT, ACL_FLOAT, m, {5}});
  cases.push_back({"broadcast_row_keepdim", ACL_INT32, ACL_INT32, m, {1, 5}});
  cases.push_back({"broadcast_rank0", ACL_FLOAT16, ACL_FLOAT16, {2, 3}, {}});
  cases.push_back({"broadcast_column_rank3", ACL_DOUBLE, ACL_DOUBLE, {2, 3, 4}, {3, 1}});
  cases.push_back({"broadcast_and_cast_f32_into_bf16", ACL_BF16, ACL_FLOAT, m, {5}});
  cases.push_back({"broadcast_and_cast_s64_into_f16", ACL_FLOAT16, ACL_INT64, {4, 3, 2}, {1, 2}});
  cases.push_back({"broadcast_and_cast_bool_into_s32", ACL_INT32, ACL_BOOL, m, {1, 1}});
  cases.push_back({"self_transposed", ACL_FLOAT, ACL_FLOAT, {4, 6}, {4, 6}, View::kTransposed, c});
  cases.push_back(
      {"self_stepped_src_transposed", ACL_FLOAT, ACL_FLOAT16, {4, 6}, {4, 6}, View::kStepped, View::kTransposed});
  cases.push_back(
      {"self_offset_src_stepped_s32_into_f16", ACL_FLOAT16, ACL_INT32, {4, 6}, {4, 6}, View::kOffset, View::kStepped});
  cases.push_back({"self_reversed_rank3", ACL_INT16, ACL_INT8, {2, 3, 4}, {2, 3, 4}, View::kReversed, c});
  cases.push_back({"src_broadcast_view", ACL_FLOAT, ACL_DOUBLE, {4, 6}, {4, 6}, c, View::kBroadcast});
  cases.push_back({"self_stepped_broadcast_src", ACL_UINT8, ACL_FLOAT, {4, 6}, {6}, View::kStepped, View::kStepped});
  cases.push_back({"rank0", ACL_INT64, ACL_FLOAT, {}, {}});
  cases.push_back({"rank8", ACL_FLOAT, ACL_BF16, {2, 1, 2, 1, 2, 1, 2, 2}, {2, 1, 2, 1, 2, 1, 2, 2}});
  cases.push_back({"rank8_broadcast", ACL_FLOAT16, ACL_FLOAT, {2, 1, 2, 1, 2, 1, 2, 2}, {2, 2}});
  cases.push_back({"large_broadcast_f32_into_f16", ACL_FLOAT16, ACL_FLOAT, {130, 257}, {257}});
  cases.push_back(
      {"large_transposed_bf16_into_f32", ACL_FLOAT, ACL_BF16, {130, 257}, {130, 257}, c, View::kTransposed});
  cases.push_back({"large_same_dtype_s32", ACL_INT32, ACL_INT32, {130, 257}, {130, 257}});
  cases.push_back({"empty", ACL_FLOAT, ACL_FLOAT, {0, 5}, {5}});
  cases.push_back({"empty_cast", ACL_INT32, ACL_FLOAT16, {3, 0}, {3, 0}});
  return cases;
}

class InplaceCopyTest : public ::testing::TestWithParam<CopyCase> {};

TEST_P(InplaceCopyTest, CastsBroadcastsAndWritesThroughStrides) {
  const CopyCase& x = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(x.self, x.selfShape, x.selfView);
  self.FillRandom(rng, Range{-100, 100});
  DeviceTensor src(x.src, x.srcShape, x.srcView);
  const Values srcValues = src.FillRandom(rng, ConversionRange(x.src, x.self));
  const std::vector<uint8_t> before = self.DownloadBytes();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        return aclnnInplaceCopyGetWorkspaceSize(args.Tensor(self), args.Tensor(src), workspaceSize, executor);
      },
      aclnnInplaceCopy);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values expanded = BroadcastTo(srcValues, x.srcShape, x.selfShape);
  ExpectNear(self.ReadView(), ReferenceCast(expanded, x.self), x.name);
  ExpectOutsideViewUnchanged(self, before, "selfRef storage");
  ExpectExact(src.ReadView(), srcValues, "src must not change");
  if (NumElements(x.selfShape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, InplaceCopyTest, ::testing::ValuesIn(CopyCases()),
                         [](const ::testing::TestParamInfo<CopyCase>& info) { return SanitizeName(info.param.name); });

// ---- InplaceZero --------------------------------------------------------------------------------

struct FillCase {
  std::string name;
  aclDataType self;
  Shape shape = {3, 5};
  View view = View::kContiguous;
  aclDataType valueDtype = ACL_FLOAT;  // InplaceFillScalar only
  Value value = 0.0;
};

void PrintTo(const FillCase& x, std::ostream* os) { *os << x.name; }

// Views, ranks and empty shapes shared by Zero and FillScalar.
struct LayoutRow {
  const char* name;
  aclDataType dtype;
  Shape shape;
  View view;
};

const std::vector<LayoutRow>& FillLayouts() {
  static const std::vector<LayoutRow> rows = {
      {"stepped_f32", ACL_FLOAT, {4, 6}, View::kStepped},
      {"transposed_s32", ACL_INT32, {4, 6}, View::kTransposed},
      {"offset_f16", ACL_FLOAT16, {4, 6}, View::kOffset},
      {"reversed_rank3_c64", ACL_COMPLEX64, {2, 3, 4}, View::kReversed},
      {"stepped_rank3_bf16", ACL_BF16, {2, 3, 4}, View::kStepped},
      {"rank0_f64", ACL_DOUBLE, {}, View::kContiguous},
      {"rank0_offset_s8", ACL_INT8, {}, View::kOffset},
      {"rank8_f32", ACL_FLOAT, {2, 1, 2, 1, 2, 1, 2, 2}, View::kContiguous},
      {"rank8_stepped_s16", ACL_INT16, {2, 1, 2, 1, 2, 1, 2, 2}, View::kStepped},
      {"large_f32", ACL_FLOAT, {100, 130}, View::kContiguous},
      {"empty_f32", ACL_FLOAT, {0, 4}, View::kContiguous},
      {"empty_rank3_s64", ACL_INT64, {2, 0, 3}, View::kContiguous},
  };
  return rows;
}

std::vector<FillCase> ZeroCases() {
  std::vector<FillCase> cases;
  for (aclDataType dt : ZeroDtypes()) cases.push_back({std::string("dtype_") + Name(dt), dt});
  for (const LayoutRow& row : FillLayouts()) cases.push_back({row.name, row.dtype, row.shape, row.view});
  return cases;
}

// Runs one Zero or FillScalar case and checks that the view holds `expected`.
void CheckFill(const FillCase& x, bool zero) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  DeviceTensor self(x.self, x.shape, x.view);
  // Non-zero start values, so that "nothing happened" cannot pass.
  self.FillRandom(rng, Range{1, 100});
  const std::vector<uint8_t> before = self.DownloadBytes();
  const OpRun run = zero ? RunOp(
                               [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                                 return aclnnInplaceZeroGetWorkspaceSize(args.Tensor(self), workspaceSize, executor);
                               },
                               aclnnInplaceZero)
                         : RunOp(
                               [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
                                 return aclnnInplaceFillScalarGetWorkspaceSize(
                                     args.Tensor(self), args.Scalar(x.valueDtype, x.value), workspaceSize, executor);
                               },
                               aclnnInplaceFillScalar);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Value expected = zero ? Value(0.0) : ConvertValue(ConvertValue(x.value, x.valueDtype), x.self);
  ExpectExact(self.ReadView(), Values(static_cast<size_t>(NumElements(x.shape)), expected), x.name);
  ExpectOutsideViewUnchanged(self, before, "selfRef storage");
  if (NumElements(x.shape) == 0) {
    EXPECT_EQ(run.workspaceSize, 0u);
  }
}

class InplaceZeroTest : public ::testing::TestWithParam<FillCase> {};

TEST_P(InplaceZeroTest, WritesZerosIntoTheView) { CheckFill(GetParam(), /*zero=*/true); }

INSTANTIATE_TEST_SUITE_P(Cases, InplaceZeroTest, ::testing::ValuesIn(ZeroCases()),
                         [](const ::testing::TestParamInfo<FillCase>& info) { return SanitizeName(info.param.name); });

// ---- InplaceFillScalar --------------------------------------------------------------------------

Value NaturalFillValue(aclDataType dtype) {
  if (IsBool(dtype)) return 1.0;
  if (IsComplex(dtype)) return {0.5, -2.0};
  if (IsUnsigned(dtype)) return 7.0;
  if (IsIntegral(dtype)) return -7.0;
  return -1.25;
}

std::vector<FillCase> FillScalarCases() {
  std::vector<FillCase> cases;
  for (aclDataType dt : FillDtypes()) {
    cases.push_back({std::string("dtype_") + Name(dt), dt, {3, 5}, c, dt, NaturalFillValue(dt)});
  }
  // A value of another dtype is converted to selfRef's dtype (the pair must promote).
  struct MixedRow {
    aclDataType self, value;
    Value v;
  };
  const std::vector<MixedRow> mixed = {
      {ACL_FLOAT, ACL_INT32, 3.0},
      {ACL_INT32, ACL_FLOAT, 3.0},
      {ACL_FLOAT16, ACL_DOUBLE, 0.5},
      {ACL_BOOL, ACL_INT8, 1.0},
      {ACL_INT64, ACL_BOOL, 1.0},
      {ACL_COMPLEX64, ACL_FLOAT, 1.5},
      {ACL_BF16, ACL_INT64, -2.0},
      {ACL_UINT8, ACL_INT16, 7.0},
      {ACL_DOUBLE, ACL_FLOAT16, -0.75},
      {ACL_INT8, ACL_DOUBLE, -5.0},
      {ACL_COMPLEX128, ACL_COMPLEX64, Value(1.0, 2.0)},
      {ACL_FLOAT, ACL_FLOAT, 0.0},
  };
  for (const MixedRow& r : mixed) {
    cases.push_back({std::string("value_") + Name(r.value) + "_into_" + Name(r.self) + (r.v == 0.0 ? "_zero" : ""),
                     r.self,
                     {3, 5},
                     c,
                     r.value,
                     r.v});
  }
  for (const LayoutRow& row : FillLayouts()) {
    cases.push_back({row.name, row.dtype, row.shape, row.view, row.dtype, NaturalFillValue(row.dtype)});
  }
  return cases;
}

class InplaceFillScalarTest : public ::testing::TestWithParam<FillCase> {};

TEST_P(InplaceFillScalarTest, WritesTheValueIntoTheView) { CheckFill(GetParam(), /*zero=*/false); }

INSTANTIATE_TEST_SUITE_P(Cases, InplaceFillScalarTest, ::testing::ValuesIn(FillScalarCases()),
                         [](const ::testing::TestParamInfo<FillCase>& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
