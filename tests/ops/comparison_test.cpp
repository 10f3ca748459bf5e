// What the comparison harness rows (harness_binary_pointwise_test.cpp) do not
// draw: NaN, infinities and signed zeros in GtTensor, Ge, Lt, Le, Ne and
// EqScalar (tensor and scalar forms), and each op's rejections with CANN's
// code and a message naming the argument.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_eq_scalar.h"
#include "aclnnop/aclnn_ge_scalar.h"
#include "aclnnop/aclnn_ge_tensor.h"
#include "aclnnop/aclnn_gt_tensor.h"
#include "aclnnop/aclnn_le_scalar.h"
#include "aclnnop/aclnn_le_tensor.h"
#include "aclnnop/aclnn_lt_scalar.h"
#include "aclnnop/aclnn_lt_tensor.h"
#include "aclnnop/aclnn_ne_scalar.h"
#include "aclnnop/aclnn_ne_tensor.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

using W = uint64_t*;
using E = aclOpExecutor**;
// Phase 1 of a form, other given as a tensor or a scalar by the caller.
using TensorForm = aclnnStatus (*)(OpArgs&, aclTensor* self, aclTensor* other, aclTensor* out, W, E);
using ScalarForm = aclnnStatus (*)(OpArgs&, aclTensor* self, aclScalar* other, aclTensor* out, W, E);
using InplaceTensorForm = aclnnStatus (*)(OpArgs&, aclTensor* self, aclTensor* other, W, E);
using InplaceScalarForm = aclnnStatus (*)(OpArgs&, aclTensor* self, aclScalar* other, W, E);

#define TENSOR_OP(op)                                                                \
  [](OpArgs&, aclTensor* s, aclTensor* o, aclTensor* out, W w, E e) -> aclnnStatus { \
    return aclnn##op##GetWorkspaceSize(s, o, out, w, e);                             \
  },                                                                                 \
      aclnn##op,                                                                     \
      [](OpArgs&, aclTensor* s, aclTensor* o, W w, E e) -> aclnnStatus {             \
        return aclnnInplace##op##GetWorkspaceSize(s, o, w, e);                       \
      },                                                                             \
      aclnnInplace##op
#define SCALAR_OP(op)                                                                \
  [](OpArgs&, aclTensor* s, aclScalar* o, aclTensor* out, W w, E e) -> aclnnStatus { \
    return aclnn##op##GetWorkspaceSize(s, o, out, w, e);                             \
  },                                                                                 \
      aclnn##op,                                                                     \
      [](OpArgs&, aclTensor* s, aclScalar* o, W w, E e) -> aclnnStatus {             \
        return aclnnInplace##op##GetWorkspaceSize(s, o, w, e);                       \
      },                                                                             \
      aclnnInplace##op

struct TensorComparison {
  const char* name;
  TensorForm out;
  Phase2 outPhase2;
  InplaceTensorForm inplace;
  Phase2 inplacePhase2;
  bool (*compare)(double, double);
  aclDataType unlisted;  // a dtype the A2 column leaves out of self and other
};

struct ScalarComparison {
  const char* name;
  ScalarForm out;
  Phase2 outPhase2;
  InplaceScalarForm inplace;
  Phase2 inplacePhase2;
  bool (*compare)(double, double);
  aclDataType unlisted;
};

bool Gt(double a, double b) { return a > b; }
bool Ge(double a, double b) { return a >= b; }
bool Lt(double a, double b) { return a < b; }
bool Le(double a, double b) { return a <= b; }
bool Ne(double a, double b) { return a != b; }
bool Eq(double a, double b) { return a == b; }

const std::vector<TensorComparison>& TensorComparisons() {
  static const std::vector<TensorComparison> ops = {
      {"GtTensor", TENSOR_OP(GtTensor), Gt, ACL_COMPLEX64},  {"GeTensor", TENSOR_OP(GeTensor), Ge, ACL_COMPLEX64},
      {"LtTensor", TENSOR_OP(LtTensor), Lt, ACL_COMPLEX128}, {"LeTensor", TENSOR_OP(LeTensor), Le, ACL_UINT64},
      {"NeTensor", TENSOR_OP(NeTensor), Ne, ACL_UINT32},
  };
  return ops;
}

const std::vector<ScalarComparison>& ScalarComparisons() {
  static const std::vector<ScalarComparison> ops = {
      {"GeScalar", SCALAR_OP(GeScalar), Ge, ACL_COMPLEX64}, {"LtScalar", SCALAR_OP(LtScalar), Lt, ACL_COMPLEX64},
      {"LeScalar", SCALAR_OP(LeScalar), Le, ACL_UINT64},    {"NeScalar", SCALAR_OP(NeScalar), Ne, ACL_UINT16},
      {"EqScalar", SCALAR_OP(EqScalar), Eq, ACL_UINT16},
  };
  return ops;
}

const Values kA = {1.0, -0.0, kNan, kInf, -kInf, 0.5, 2.0, kNan, -kInf};
const Values kB = {1.0, 0.0, kNan, kInf, kInf, 0.25, 3.0, 1.0, -kInf};

Values Expect(bool (*compare)(double, double), const Values& a, const Values& b) {
  Values want;
  for (size_t i = 0; i < a.size(); ++i) want.push_back(compare(a[i].real(), b[i % b.size()].real()) ? 1.0 : 0.0);
  return want;
}

// NaN compares false except with !=, -0 equals 0, inf equals inf: in each float
// dtype, out of place into BOOL and in place (the 1 / 0 in selfRef's dtype).
TEST(ComparisonValues, TensorFormsOnNanInfinitiesAndSignedZeros) {
  for (const TensorComparison& op : TensorComparisons()) {
    for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
      SCOPED_TRACE(std::string(op.name) + " " + Name(dtype));
      DeviceTensor a(dtype, {9}), b(dtype, {9}), out(ACL_BOOL, {9});
      a.WriteView(kA);
      b.WriteView(kB);
      out.Poison();
      const OpRun run = RunOp(
          [&](OpArgs& x, W w, E e) { return op.out(x, x.Tensor(a), x.Tensor(b), x.Tensor(out), w, e); }, op.outPhase2);
      ASSERT_TRUE(run.ok()) << Describe(run);
      ExpectExact(out.ReadView(), Expect(op.compare, kA, kB), op.name);
      const OpRun inplace =
          RunOp([&](OpArgs& x, W w, E e) { return op.inplace(x, x.Tensor(a), x.Tensor(b), w, e); }, op.inplacePhase2);
      ASSERT_TRUE(inplace.ok()) << Describe(inplace);
      ExpectExact(a.ReadView(), Expect(op.compare, kA, kB), std::string("Inplace") + op.name);
    }
  }
}

// Against a NaN, an infinity and -0 scalar; a FLOAT16 self compares with the
// scalar rounded to FLOAT16 (0.1 as FLOAT16 is 0.0999755859375).
TEST(ComparisonValues, ScalarFormsOnNanInfinitiesAndSignedZeros) {
  for (const ScalarComparison& op : ScalarComparisons()) {
    for (double scalar : {kNan, kInf, -0.0, 0.5}) {
      for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        SCOPED_TRACE(std::string(op.name) + " " + Name(dtype) + " " + std::to_string(scalar));
        DeviceTensor a(dtype, {9}), out(ACL_BOOL, {9});
        a.WriteView(kA);
        out.Poison();
        const OpRun run =
            RunOp([&](OpArgs& x, W w,
                      E e) { return op.out(x, x.Tensor(a), x.Scalar(ACL_DOUBLE, scalar), x.Tensor(out), w, e); },
                  op.outPhase2);
        ASSERT_TRUE(run.ok()) << Describe(run);
        ExpectExact(out.ReadView(), Expect(op.compare, kA, {scalar}), op.name);
      }
    }
    DeviceTensor h(ACL_FLOAT16, {2}), hout(ACL_BOOL, {2});
    h.WriteView({0.1, 0.2});
    const OpRun run = RunOp(
        [&](OpArgs& x, W w, E e) { return op.out(x, x.Tensor(h), x.Scalar(ACL_DOUBLE, 0.1), x.Tensor(hout), w, e); },
        op.outPhase2);
    ASSERT_TRUE(run.ok()) << Describe(run);
    const double h01 = ConvertValue(0.1, ACL_FLOAT16).real(), h02 = ConvertValue(0.2, ACL_FLOAT16).real();
    ExpectExact(hout.ReadView(), {op.compare(h01, h01) ? 1.0 : 0.0, op.compare(h02, h01) ? 1.0 : 0.0},
                std::string(op.name) + " f16 vs 0.1");
  }
}

void ExpectRejected(const std::string& what, const Phase1& phase1, Phase2 phase2, aclnnStatus code,
                    const std::string& keyword) {
  const OpRun run = RunOp(phase1, phase2);
  EXPECT_EQ(run.phase1, code) << what << ": " << Describe(run);
  EXPECT_NE(run.message.find(keyword), std::string::npos)
      << what << ": message should name '" << keyword << "': " << run.message;
}

// A dtype outside the A2 column (self, other, selfRef), shapes that do not
// broadcast, an out of the wrong shape, an in-place broadcast that would grow
// selfRef, a null other: 161002 / 161001 naming the argument.
TEST(ComparisonRejections, TensorForms) {
  const Shape m = {2, 3};
  for (const TensorComparison& op : TensorComparisons()) {
    const std::string n = op.name;
    const aclDataType bad = op.unlisted;
    ExpectRejected(
        n + " self unlisted",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(bad, m), a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_BOOL, m), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_INVALID, "self");
    ExpectRejected(
        n + " other unlisted",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(ACL_FLOAT, m), a.NewTensor(bad, m), a.NewTensor(ACL_BOOL, m), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_INVALID, "other");
    ExpectRejected(
        n + " no broadcast",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, {4}), a.NewTensor(ACL_BOOL, m), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_INVALID, "other");
    ExpectRejected(
        n + " out shape",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(ACL_FLOAT, m), a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_BOOL, {3}), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_INVALID, "out");
    ExpectRejected(
        n + " null other",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(ACL_FLOAT, m), nullptr, a.NewTensor(ACL_BOOL, m), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_NULLPTR, "other");
    ExpectRejected(
        "Inplace" + n + " selfRef unlisted",
        [&](OpArgs& a, W w, E e) { return op.inplace(a, a.NewTensor(bad, m), a.NewTensor(ACL_FLOAT, m), w, e); },
        op.inplacePhase2, ACLNN_ERR_PARAM_INVALID, "selfRef");
    ExpectRejected(
        "Inplace" + n + " broadcast grows selfRef",
        [&](OpArgs& a, W w, E e) {
          return op.inplace(a, a.NewTensor(ACL_FLOAT, {3}), a.NewTensor(ACL_FLOAT, m), w, e);
        },
        op.inplacePhase2, ACLNN_ERR_PARAM_INVALID, "selfRef");
  }
}

TEST(ComparisonRejections, ScalarForms) {
  const Shape m = {2, 3};
  for (const ScalarComparison& op : ScalarComparisons()) {
    const std::string n = op.name;
    const aclDataType bad = op.unlisted;
    ExpectRejected(
        n + " self unlisted",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(bad, m), a.Scalar(ACL_FLOAT, 1), a.NewTensor(ACL_BOOL, m), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_INVALID, "self");
    ExpectRejected(
        n + " other unlisted",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(ACL_FLOAT, m), a.Scalar(bad, 1), a.NewTensor(ACL_BOOL, m), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_INVALID, "other");
    ExpectRejected(
        n + " out shape",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(ACL_FLOAT, m), a.Scalar(ACL_FLOAT, 1), a.NewTensor(ACL_BOOL, {3}), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_INVALID, "out");
    ExpectRejected(
        n + " null other",
        [&](OpArgs& a, W w, E e) {
          return op.out(a, a.NewTensor(ACL_FLOAT, m), nullptr, a.NewTensor(ACL_BOOL, m), w, e);
        },
        op.outPhase2, ACLNN_ERR_PARAM_NULLPTR, "other");
    ExpectRejected(
        "Inplace" + n + " selfRef unlisted",
        [&](OpArgs& a, W w, E e) { return op.inplace(a, a.NewTensor(bad, m), a.Scalar(ACL_FLOAT, 1), w, e); },
        op.inplacePhase2, ACLNN_ERR_PARAM_INVALID, "selfRef");
  }
}

}  // namespace
}  // namespace canopy_test
