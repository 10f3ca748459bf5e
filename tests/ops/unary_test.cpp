// Unary pointwise ops through the public C API against float64 references: one
// row per op (unary_test_rows below), and the cases every row gets: each listed
// dtype pair, contiguous / offset / transposed / stepped / reversed views, rank
// 0, high rank, empty, in place, special values, and the rejections with codes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "aclnnop/aclnn_abs.h"
#include "aclnnop/aclnn_cos.h"
#include "aclnnop/aclnn_exp.h"
#include "aclnnop/aclnn_hardswish.h"
#include "aclnnop/aclnn_log.h"
#include "aclnnop/aclnn_neg.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_silu.h"
#include "aclnnop/aclnn_sin.h"
#include "aclnnop/aclnn_sqrt.h"
#include "aclnnop/aclnn_tanh.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

using OutPhase1 = aclnnStatus (*)(const aclTensor*, aclTensor*, uint64_t*, aclOpExecutor**);
using InplacePhase1 = aclnnStatus (*)(aclTensor*, uint64_t*, aclOpExecutor**);

struct UnaryRow {
  const char* name;
  OutPhase1 out1;
  Phase2 out2;
  InplacePhase1 inplace1;
  Phase2 inplace2;
  std::function<Value(Value)> reference;                   // in float64 / complex<double>
  std::vector<std::pair<aclDataType, aclDataType>> pairs;  // accepted (self, out)
  std::vector<aclDataType> inplaceDtypes;
  Range range;
  std::vector<std::pair<aclDataType, aclDataType>> rejected;  // (self, out), 161002
  aclDataType inplaceRejected = ACL_INT32;                    // a selfRef dtype the in-place form refuses
  bool promotesIntegers = true;                               // bool / integer self computes in FLOAT
};

const std::vector<UnaryRow>& Rows();

// The dtype the op rounds its result to: self's own, FLOAT for bool and integers where the op promotes them.
aclDataType ResultDtype(const UnaryRow& row, aclDataType self) {
  return IsFloating(self) || !row.promotesIntegers ? self : ACL_FLOAT;
}

// A few units of roundoff of the coarser of result and out, relative, plus the
// same below the smallest normal (results that underflow), plus |x| subnormal
// spacings (x times an intermediate that underflowed: silu's x * sigmoid(x)).
double Tolerance(Value x, Value want, aclDataType result, aclDataType out) {
  const double u = std::max(UnitRoundoff(result), UnitRoundoff(out));
  const double tiny = out == ACL_DOUBLE ? 1e-300 : (out == ACL_FLOAT16 ? 6.1e-5 : 1.2e-38);
  return 4 * u * std::abs(want) + 4 * u * tiny + 2 * u * tiny * std::abs(x);
}

Expected Reference(const UnaryRow& row, const Values& in, aclDataType self, aclDataType out) {
  Expected e;
  for (Value x : in) {
    const Value want = ConvertValue(ConvertValue(row.reference(x), ResultDtype(row, self)), out);
    e.values.push_back(want);
    e.tolerance.push_back(std::isfinite(std::abs(want)) ? Tolerance(x, want, ResultDtype(row, self), out) : 0.0);
  }
  return e;
}

void RunOutOfPlace(const UnaryRow& row, aclDataType selfDtype, aclDataType outDtype, const Shape& shape, View view,
                   const Values* values = nullptr) {
  Rng rng = Rng::ForCurrentTest();
  DeviceTensor self(selfDtype, shape, view);
  DeviceTensor out(outDtype, shape, view == View::kReversed ? View::kTransposed : view);
  Values in = self.FillRandom(rng, row.range);
  if (values != nullptr) self.WriteView(in = *values);
  out.Poison();
  const std::vector<uint8_t> outBefore = out.DownloadBytes();
  const OpRun run = RunOp([&](OpArgs& args, uint64_t* ws,
                              aclOpExecutor** ex) { return row.out1(args.Tensor(self), args.Tensor(out), ws, ex); },
                          row.out2);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const std::string what = std::string(row.name) + " " + Name(selfDtype) + "->" + Name(outDtype) + " " + ViewName(view);
  ExpectNear(out.ReadView(), Reference(row, in, selfDtype, outDtype), what);
  ExpectOutsideViewUnchanged(out, outBefore, what + " out storage");
  ExpectExact(self.ReadView(), in, what + ": self must not change");
}

class UnaryTest : public ::testing::TestWithParam<const UnaryRow*> {};

TEST_P(UnaryTest, EveryDtypePairAndView) {
  const UnaryRow& row = *GetParam();
  for (const auto& [selfDtype, outDtype] : row.pairs) {
    for (View view : {View::kContiguous, View::kOffset, View::kTransposed, View::kStepped, View::kReversed}) {
      RunOutOfPlace(row, selfDtype, outDtype, {5, 37}, view);
    }
  }
}

TEST_P(UnaryTest, RankZeroHighRankLargeAndEmpty) {
  const UnaryRow& row = *GetParam();
  const aclDataType dtype = row.pairs.front().first;
  RunOutOfPlace(row, dtype, dtype, {}, View::kContiguous);
  RunOutOfPlace(row, dtype, dtype, {2, 3, 1, 2, 3, 2, 1, 2}, View::kTransposed);
  RunOutOfPlace(row, dtype, dtype, {3, 70001}, View::kContiguous);  // several threads, vector tails
  RunOutOfPlace(row, dtype, dtype, {3, 0, 2}, View::kContiguous);
}

class UnaryInplaceTest : public ::testing::TestWithParam<const UnaryRow*> {};

TEST_P(UnaryInplaceTest, InPlace) {
  const UnaryRow& row = *GetParam();
  for (aclDataType dtype : row.inplaceDtypes) {
    for (View view : {View::kContiguous, View::kStepped, View::kTransposed}) {
      Rng rng = Rng::ForCurrentTest();
      DeviceTensor self(dtype, {4, 33}, view);
      const Values in = self.FillRandom(rng, row.range);
      const OpRun run =
          RunOp([&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) { return row.inplace1(args.Tensor(self), ws, ex); },
                row.inplace2);
      ASSERT_TRUE(run.ok()) << Describe(run);
      ExpectNear(self.ReadView(), Reference(row, in, dtype, dtype),
                 std::string(row.name) + " in place " + Name(dtype) + " " + ViewName(view));
    }
  }
}

TEST_P(UnaryTest, SpecialValues) {
  const UnaryRow& row = *GetParam();
  const Values special = {0.0, -0.0, 1.0, -1.0, INFINITY, -INFINITY, NAN, 80.0, -80.0, -100.0, 1e-30, -1e-30, 30.0};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    Values quantised;
    for (Value v : special) quantised.push_back(ConvertValue(v, dtype));
    RunOutOfPlace(row, dtype, dtype, {static_cast<int64_t>(special.size())}, View::kContiguous, &quantised);
  }
}

TEST_P(UnaryTest, Rejections) {
  const UnaryRow& row = *GetParam();
  for (const auto& pair : row.rejected) {
    // Not a structured binding: clang 14 cannot capture bindings in a lambda.
    const aclDataType selfDtype = pair.first, outDtype = pair.second;
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
          return row.out1(args.NewTensor(selfDtype, {2, 3}), args.NewTensor(outDtype, {2, 3}), ws, ex);
        },
        row.out2);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << row.name << " " << Name(selfDtype) << "->" << Name(outDtype);
  }
  const OpRun shape = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return row.out1(args.NewTensor(ACL_FLOAT, {2, 3}), args.NewTensor(ACL_FLOAT, {3, 2}), ws, ex);
      },
      row.out2);
  EXPECT_EQ(shape.phase1, ACLNN_ERR_PARAM_INVALID) << row.name << ": out's shape differs from self's";
  if (row.inplace1 == nullptr) return;
  const OpRun inplace = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return row.inplace1(args.NewTensor(row.inplaceRejected, {2, 3}), ws, ex);
      },
      row.inplace2);
  EXPECT_EQ(inplace.phase1, ACLNN_ERR_PARAM_INVALID) << row.name << ": in place on " << Name(row.inplaceRejected);
}

std::vector<const UnaryRow*> RowsWhere(bool inplaceOnly) {
  std::vector<const UnaryRow*> rows;
  for (const UnaryRow& row : Rows()) {
    if (!inplaceOnly || row.inplace1 != nullptr) rows.push_back(&row);
  }
  return rows;
}
std::string RowName(const ::testing::TestParamInfo<const UnaryRow*>& info) { return info.param->name; }

INSTANTIATE_TEST_SUITE_P(Ops, UnaryTest, ::testing::ValuesIn(RowsWhere(false)), RowName);
INSTANTIATE_TEST_SUITE_P(Ops, UnaryInplaceTest, ::testing::ValuesIn(RowsWhere(true)), RowName);

// ---- the rows ---------------------------------------------------------------------------------

constexpr aclDataType F32 = ACL_FLOAT, F16 = ACL_FLOAT16, BF16 = ACL_BF16, F64 = ACL_DOUBLE, C64 = ACL_COMPLEX64,
                      C128 = ACL_COMPLEX128, S8 = ACL_INT8, U8 = ACL_UINT8, S16 = ACL_INT16, S32 = ACL_INT32,
                      S64 = ACL_INT64, BOOL = ACL_BOOL;
Value Real(double (*f)(double), Value x) { return f(x.real()); }

const std::vector<UnaryRow>& Rows() {
  // Sqrt, Sin, Cos and Log share CANN's dtype list: floats and complex keep
  // their dtype, bool and integers compute in FLOAT; out may be a wider float.
  static const std::vector<std::pair<aclDataType, aclDataType>> kMathPairs = {
      {F32, F32}, {F16, F16},  {BF16, BF16}, {F64, F64}, {C64, C64}, {C128, C128},
      {S32, F32}, {BOOL, F16}, {U8, BF16},   {S64, F32}, {F16, F32}};
  static const std::vector<std::pair<aclDataType, aclDataType>> kMathRejected = {
      {F32, S32}, {C64, F32}, {ACL_UINT16, F32}, {F32, S64}, {S32, S32}};
  static const std::vector<UnaryRow> rows = {
      {"Exp",
       aclnnExpGetWorkspaceSize,
       aclnnExp,
       aclnnInplaceExpGetWorkspaceSize,
       aclnnInplaceExp,
       [](Value x) { return x.imag() == 0 ? Value(std::exp(x.real())) : std::exp(x); },
       {{F32, F32},
        {F16, F16},
        {BF16, BF16},
        {F64, F64},
        {C64, C64},
        {C128, C128},
        {ACL_INT64, F32},
        {ACL_BOOL, F16},
        {F16, F32},
        {F32, F16},
        {BF16, F32},
        {F32, C64}},
       {F32, F16, BF16, F64, C64, C128},
       {-10, 10},
       {{ACL_INT32, F32}, {ACL_INT8, F32}, {ACL_INT64, ACL_INT64}, {ACL_BOOL, ACL_BOOL}, {F32, ACL_INT32}, {C64, F32}}},
      {"Sigmoid",
       aclnnSigmoidGetWorkspaceSize,
       aclnnSigmoid,
       aclnnInplaceSigmoidGetWorkspaceSize,
       aclnnInplaceSigmoid,
       [](Value x) { return Value(1.0) / (Value(1.0) + (x.imag() == 0 ? Value(std::exp(-x.real())) : std::exp(-x))); },
       {{F32, F32}, {F16, F16}, {BF16, BF16}, {F16, F32}, {F32, BF16}},
       {F32, F16, BF16, F64, C64, C128},
       {-20, 20},
       {{F64, F64}, {ACL_INT32, F32}, {ACL_BOOL, F32}, {F32, F64}, {C64, C64}}},
      {"Tanh",
       aclnnTanhGetWorkspaceSize,
       aclnnTanh,
       aclnnInplaceTanhGetWorkspaceSize,
       aclnnInplaceTanh,
       [](Value x) { return Real(std::tanh, x); },
       {{F32, F32},
        {F16, F16},
        {BF16, BF16},
        {BOOL, F32},
        {U8, F16},
        {S8, F32},
        {S16, F32},
        {S32, BF16},
        {S64, F32},
        {F16, F32}},
       {F32, F16, BF16},
       {-6, 6},
       {{F64, F64}, {S32, S32}, {F32, S32}, {C64, C64}, {F32, F64}}},
      {"Relu",  // its out is `const aclTensor*`
       [](const aclTensor* self, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
         return aclnnReluGetWorkspaceSize(self, out, ws, ex);
       },
       aclnnRelu,
       aclnnInplaceReluGetWorkspaceSize,
       aclnnInplaceRelu,
       [](Value x) { return Value(x.real() > 0 || std::isnan(x.real()) ? x.real() : 0.0); },
       {{F32, F32}, {F16, F16}, {BF16, BF16}, {S8, S8}, {S32, S32}, {S64, S64}},
       {F32, F16, BF16, S8, S32, S64, U8},
       {-5, 5},
       {{F32, F16}, {S32, S64}, {F64, F64}, {U8, U8}, {S16, S16}, {BOOL, BOOL}},
       F64,
       false},
      {"Abs",
       aclnnAbsGetWorkspaceSize,
       aclnnAbs,
       nullptr,
       nullptr,
       [](Value x) { return Value(std::abs(x)); },
       {{F32, F32},
        {F16, F16},
        {BF16, BF16},
        {F64, F64},
        {S8, S8},
        {S16, S16},
        {S32, S32},
        {S64, S64},
        {U8, U8},
        {BOOL, BOOL},
        {C64, F32}},
       {},
       {-5, 5},
       {{F32, F16}, {S32, S64}, {C64, C64}, {C128, F64}, {F32, F64}, {ACL_UINT16, ACL_UINT16}},
       F64,
       false},
      {"Neg",
       aclnnNegGetWorkspaceSize,
       aclnnNeg,
       aclnnInplaceNegGetWorkspaceSize,
       aclnnInplaceNeg,
       [](Value x) { return -x; },
       {{F32, F32},
        {F16, F16},
        {BF16, BF16},
        {F64, F64},
        {S8, S8},
        {S32, S32},
        {S64, S64},
        {C64, C64},
        {C128, C128},
        {F16, F32},
        {S32, F32},
        {S8, S64}},
       {F32, F16, BF16, F64, S8, S32, S64, C64, C128},
       {-5, 5},
       {{U8, U8}, {S16, S16}, {BOOL, BOOL}, {F32, S32}, {C64, F32}},
       U8,
       false},
      {"Sqrt",
       aclnnSqrtGetWorkspaceSize,
       aclnnSqrt,
       aclnnInplaceSqrtGetWorkspaceSize,
       aclnnInplaceSqrt,
       [](Value x) { return x.imag() == 0 ? Value(std::sqrt(x.real())) : std::sqrt(x); },
       kMathPairs,
       {F32, F16, BF16, F64, C64, C128},
       {-1, 50},
       kMathRejected,
       S32},
      {"Sin",
       aclnnSinGetWorkspaceSize,
       aclnnSin,
       aclnnInplaceSinGetWorkspaceSize,
       aclnnInplaceSin,
       [](Value x) { return x.imag() == 0 ? Value(std::sin(x.real())) : std::sin(x); },
       kMathPairs,
       {F32, F16, BF16},
       {-10, 10},
       kMathRejected,
       F64},
      {"Cos",
       aclnnCosGetWorkspaceSize,
       aclnnCos,
       aclnnInplaceCosGetWorkspaceSize,
       aclnnInplaceCos,
       [](Value x) { return x.imag() == 0 ? Value(std::cos(x.real())) : std::cos(x); },
       kMathPairs,
       {F32, F16, BF16, F64, C64, C128},
       {-10, 10},
       kMathRejected,
       S32},
      {"Log",
       aclnnLogGetWorkspaceSize,
       aclnnLog,
       aclnnInplaceLogGetWorkspaceSize,
       aclnnInplaceLog,
       [](Value x) { return x.imag() == 0 ? Value(std::log(x.real())) : std::log(x); },
       kMathPairs,
       {F32, F16, BF16, F64, C64, C128},
       {-1, 50},
       kMathRejected,
       S32},
      {"Silu",
       aclnnSiluGetWorkspaceSize,
       aclnnSilu,
       nullptr,
       nullptr,
       [](Value x) { return Value(x.real() / (1 + std::exp(-x.real()))); },
       {{F32, F32}, {F16, F16}, {BF16, BF16}},
       {},
       {-20, 20},
       {{F32, F16}, {F64, F64}, {S32, S32}}},
      {"Hardswish",  // its out and in-place self are `const aclTensor*`
       [](const aclTensor* self, aclTensor* out, uint64_t* ws, aclOpExecutor** ex) {
         return aclnnHardswishGetWorkspaceSize(self, out, ws, ex);
       },
       aclnnHardswish,
       [](aclTensor* self, uint64_t* ws, aclOpExecutor** ex) {
         return aclnnInplaceHardswishGetWorkspaceSize(self, ws, ex);
       },
       aclnnInplaceHardswish,
       [](Value x) {
         const double v = x.real();
         return Value(v > 3 ? v : (v <= -3 ? 0.0 : v * (v + 3) / 6));
       },
       {{F32, F32}, {F16, F16}, {BF16, BF16}, {F16, F32}, {F32, BF16}},
       {F32, F16, BF16},
       {-6, 6},
       {{F64, F64}, {S32, F32}, {F32, F64}},
       F64},
  };
  return rows;
}

}  // namespace
}  // namespace canopy_test
