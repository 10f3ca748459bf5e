// Addr and InplaceAddr (beta * self + alpha * outer(vec1, vec2)) as a harness
// row: every A2 dtype, mixed promotions, each input's views, self broadcast
// from rank 0, 1 and 2, empty vectors, the in-place form and the beta / alpha
// combinations CANN treats apart (absent, one, zero, bool); then CANN's
// example and the rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "aclnnop/aclnn_addr.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

constexpr aclDataType kAddrDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_DOUBLE, ACL_INT8, ACL_INT16,
                                       ACL_INT32, ACL_INT64,   ACL_UINT8,  ACL_BOOL, ACL_BF16};

aclDataType Promoted(const std::vector<aclDataType>& dtypes) {
  aclDataType promoted = dtypes[0];
  for (aclDataType d : dtypes) promoted = Promote(promoted, d).value_or(ACL_FLOAT);
  return promoted;
}

// `x` as the promoted dtype stores it: rounded, integers wrapped, bools 0 / 1.
double In(aclDataType dtype, double x) {
  if (IsBool(dtype)) return x != 0 ? 1 : 0;
  if (!IsFloating(dtype)) return Wrapped(static_cast<int64_t>(x), dtype);
  return ConvertValue(x, dtype).real();
}

// What CANN computes: alpha * vec1, times vec2, plus beta * self, each rounded
// to the promoted dtype (and / or for BOOL); a zero beta drops self.
Expected AddrReference(const RefCall& call) {
  const aclDataType p = Promoted({call.inputs[0].dtype, call.inputs[1].dtype, call.inputs[2].dtype});
  const bool logical = IsBool(p);
  // A missing factor is 1, which CANN skips like an explicit 1.
  const bool hasBeta = call.attrs.Has("beta");
  const double beta = hasBeta ? call.attrs.Scalar("beta").value.real() : 1.0;
  const double alpha = call.attrs.Has("alpha") ? call.attrs.Scalar("alpha").value.real() : 1.0;
  const Operand& self = call.inputs[0];
  const Values& v1 = call.inputs[1].values;
  const Values& v2 = call.inputs[2].values;
  const int64_t n = call.outShape[0], m = call.outShape[1];
  // self broadcast to [n, m]: rank 0, [m], [1, m], [n, 1] or [n, m].
  auto selfAt = [&](int64_t i, int64_t j) {
    const Shape& s = self.shape;
    const int64_t rows = s.size() == 2 ? s[0] : 1, cols = s.empty() ? 1 : s.back();
    return self.values[(rows == 1 ? 0 : i) * cols + (cols == 1 ? 0 : j)].real();
  };
  auto mul = [&](double a, double b) { return logical ? double(a != 0 && b != 0) : In(p, a * b); };
  Expected want;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      const double scaled = alpha != 1 ? mul(In(p, alpha), v1[i].real()) : v1[i].real();
      const double product = mul(scaled, v2[j].real());
      double result = product, magnitude = std::abs(product);
      if (!hasBeta || beta != 0) {
        const double s = beta != 1 ? mul(selfAt(i, j), In(p, beta)) : selfAt(i, j);
        result = logical ? double(s != 0 || product != 0) : In(p, s + product);
        magnitude += std::abs(s);
      }
      want.values.push_back(ConvertValue(result, call.out));
      // Three roundings in the promoted dtype on the terms, one into out.
      want.tolerance.push_back(IsFloating(p)
                                   ? 4 * UnitRoundoff(p) * magnitude +
                                         (IsFloating(call.out) ? 2 * UnitRoundoff(call.out) * std::abs(result) : 0.0)
                                   : 0.0);
    }
  }
  return want;
}

OpRow AddrRow() {
  OpRow row;
  row.name = "Addr";
  auto range = RangeRule([](aclDataType dtype, const CaseInfo&) {
    if (dtype == ACL_UINT8) return Range{0, 5};
    if (dtype == ACL_INT8) return Range{-3, 3};
    return Range{-4, 4};
  });
  row.inputs = {Arg{.name = "self", .range = range}, Arg{.name = "vec1", .range = range},
                Arg{.name = "vec2", .range = range}};
  auto factor = [](Call& c, const char* name) { return c.info().attrs.Has(name) ? c.ScalarAttr(name) : nullptr; };
  row.out = {[factor](Call& c) {
               return aclnnAddrGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), factor(c, "beta"),
                                                factor(c, "alpha"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnAddr};
  row.inplace = {[factor](Call& c) {
                   return aclnnInplaceAddrGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), factor(c, "beta"),
                                                           factor(c, "alpha"), c.workspaceSize, c.executor);
                 },
                 aclnnInplaceAddr};
  row.inplace.accepts = [](const DtypeCase& dc, aclDataType) { return dc.out == ACL_DT_UNDEFINED; };
  row.dtypes = Concat(EachDtype({std::begin(kAddrDtypes), std::end(kAddrDtypes)}),
                      Singly({{{ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT16}},
                              {{ACL_BF16, ACL_FLOAT16, ACL_BF16}},
                              {{ACL_INT8, ACL_UINT8, ACL_INT8}},
                              {{ACL_BOOL, ACL_INT32, ACL_INT16}},
                              {{ACL_INT32, ACL_FLOAT16, ACL_FLOAT16}},
                              {{ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16}, ACL_FLOAT},
                              {{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT}, ACL_INT32},
                              {{ACL_DOUBLE, ACL_INT64, ACL_DOUBLE}, ACL_FLOAT}}));
  row.outDtype = PromotedDtype();
  row.shapes = {{"typical", {{5, 7}, {5}, {7}}, true}, {"large", {{67, 131}, {67}, {131}}, true},
                {"self_row", {{7}, {5}, {7}}},         {"self_column", {{5, 1}, {5}, {7}}},
                {"self_rank0", {{}, {5}, {7}}},        {"empty_vec1", {{0, 7}, {0}, {7}}},
                {"empty_vec2", {{5, 1}, {5}, {0}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet&) -> std::optional<Shape> {
    return Shape{in[1][0], in[2][0]};
  };
  auto promoted = [](const DtypeCase& dc) {
    return Promoted(dc.inputs.size() == 1 ? std::vector{dc.inputs[0]} : dc.inputs);
  };
  row.attrs = {
      {"", {}},
      {"beta_f32_alpha_f32",
       {{"beta", ScalarAttr{ACL_FLOAT, 0.5}}, {"alpha", ScalarAttr{ACL_FLOAT, -1.5}}},
       [promoted](const DtypeCase& dc) { return IsFloating(promoted(dc)); }},
      {"beta_s64_alpha_s32",
       {{"beta", ScalarAttr{ACL_INT64, 2.0}}, {"alpha", ScalarAttr{ACL_INT32, 3.0}}},
       [promoted](const DtypeCase& dc) { return !IsBool(promoted(dc)); }},
      {"beta_zero_alpha_one", {{"beta", ScalarAttr{ACL_INT32, 0.0}}, {"alpha", ScalarAttr{ACL_INT32, 1.0}}}},
      {"beta_one_alpha_f16",
       {{"beta", ScalarAttr{ACL_FLOAT16, 1.0}}, {"alpha", ScalarAttr{ACL_FLOAT16, 0.3}}},
       [promoted](const DtypeCase& dc) { return IsFloating(promoted(dc)); }},
      {"beta_false_alpha_true",
       {{"beta", ScalarAttr{ACL_BOOL, 0.0}}, {"alpha", ScalarAttr{ACL_BOOL, 1.0}}},
       [promoted](const DtypeCase& dc) { return IsBool(promoted(dc)); }},
      {"beta_true_alpha_false",
       {{"beta", ScalarAttr{ACL_BOOL, 1.0}}, {"alpha", ScalarAttr{ACL_BOOL, 0.0}}},
       [promoted](const DtypeCase& dc) { return IsBool(promoted(dc)); }},
  };
  row.reference = AddrReference;
  return row;
}

std::vector<OpRow> AddrRows() { return {AddrRow()}; }
CANOPY_HARNESS_ROWS(AddrRows);

// ---- CANN's example and the rejections ------------------------------------------------------------

struct AddrArgs {
  aclDataType self = ACL_FLOAT, vec1 = ACL_FLOAT, vec2 = ACL_FLOAT, out = ACL_FLOAT;
  Shape selfShape = {2, 3}, vec1Shape = {2}, vec2Shape = {3}, outShape = {2, 3};
  std::optional<aclDataType> beta = std::nullopt, alpha = std::nullopt;
  double betaValue = 1, alphaValue = 1;
};

OpRun RunAddr(const AddrArgs& a) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAddrGetWorkspaceSize(
            args.NewTensor(a.self, a.selfShape), args.NewTensor(a.vec1, a.vec1Shape),
            args.NewTensor(a.vec2, a.vec2Shape), a.beta ? args.Scalar(*a.beta, a.betaValue) : nullptr,
            a.alpha ? args.Scalar(*a.alpha, a.alphaValue) : nullptr, args.NewTensor(a.out, a.outShape), ws, ex);
      },
      aclnnAddr);
}

OpRun RunInplaceAddr(const Shape& selfShape, const Shape& vec1Shape, const Shape& vec2Shape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnInplaceAddrGetWorkspaceSize(args.NewTensor(ACL_FLOAT, selfShape),
                                                args.NewTensor(ACL_FLOAT, vec1Shape),
                                                args.NewTensor(ACL_FLOAT, vec2Shape), nullptr, nullptr, ws, ex);
      },
      aclnnInplaceAddr);
}

// CANN's example: self [3, 2], vec1 [1, 2, 3], vec2 [4, 5], FLOAT beta and alpha 1.5.
TEST(AddrExample, CannShapesAndScalars) {
  auto self = Upload(ACL_FLOAT, {3, 2}, {6, 0, 6, 0, 6, 0});
  auto vec1 = Upload(ACL_FLOAT, {3}, {1, 2, 3});
  auto vec2 = Upload(ACL_FLOAT, {2}, {4, 5});
  auto out = Poisoned(ACL_FLOAT, {3, 2});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAddrGetWorkspaceSize(args.Tensor(*self), args.Tensor(*vec1), args.Tensor(*vec2),
                                         args.Scalar(ACL_FLOAT, 1.5), args.Scalar(ACL_FLOAT, 1.5), args.Tensor(*out),
                                         ws, ex);
      },
      aclnnAddr);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(out->ReadView(), {15, 7.5, 21, 15, 27, 22.5}, "addr");
}

TEST(AddrEdges, EmptyVectorSkipsOutShape) {
  // CANN returns before comparing out's shape when a vector is empty.
  EXPECT_TRUE(RunAddr({.selfShape = {0, 3}, .vec1Shape = {0}, .outShape = {4}}).ok());
  EXPECT_TRUE(RunInplaceAddr({3, 0}, {3}, {0}).ok());
}

TEST(AddrRejects, WithCannCodes) {
  EXPECT_EQ(RunAddr({.self = ACL_UINT16}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.vec1 = ACL_COMPLEX64}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.vec2 = ACL_UINT32}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.out = ACL_COMPLEX64}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.beta = ACL_COMPLEX64}).phase1, ACLNN_ERR_PARAM_INVALID);
  // A bool factor needs bool tensors; integral tensors take no floating factor.
  EXPECT_EQ(RunAddr({.beta = ACL_BOOL}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.alpha = ACL_BOOL}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.self = ACL_INT32, .vec1 = ACL_INT8, .vec2 = ACL_BOOL, .alpha = ACL_FLOAT}).phase1,
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.self = ACL_INT32, .vec1 = ACL_INT32, .vec2 = ACL_INT32, .beta = ACL_FLOAT16}).phase1,
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RunAddr({.self = ACL_INT32, .vec1 = ACL_INT32, .vec2 = ACL_INT32, .beta = ACL_BOOL}).phase1 ==
              ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(
      RunAddr(
          {.self = ACL_BOOL, .vec1 = ACL_BOOL, .vec2 = ACL_BOOL, .out = ACL_BOOL, .beta = ACL_INT32, .alpha = ACL_BOOL})
          .ok());
  // Ranks and shapes.
  EXPECT_EQ(RunAddr({.vec1Shape = {2, 1}}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.vec2Shape = {}}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.selfShape = {1, 2, 3}}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.selfShape = {3}, .vec1Shape = {2}, .vec2Shape = {2}, .outShape = {2, 2}}).phase1,
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.selfShape = {2, 3}, .vec1Shape = {1}, .outShape = {1, 3}}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.outShape = {3, 2}}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunAddr({.outShape = {6}}).phase1, ACLNN_ERR_PARAM_INVALID);
  // In place, selfRef is the 2-D outer shape itself.
  EXPECT_EQ(RunInplaceAddr({3}, {2}, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunInplaceAddr({1, 3}, {2}, {3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(RunInplaceAddr({2, 3}, {2}, {3}).ok());
  const OpRun null_vec = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnAddrGetWorkspaceSize(args.NewTensor(ACL_FLOAT, {2, 3}), nullptr, args.NewTensor(ACL_FLOAT, {3}),
                                         nullptr, nullptr, args.NewTensor(ACL_FLOAT, {2, 3}), ws, ex);
      },
      aclnnAddr);
  EXPECT_EQ(null_vec.phase1, ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(null_vec.message.find("vec1"), std::string::npos) << null_vec.message;
}

}  // namespace
}  // namespace canopy_test
