// IsInScalarTensor and IsInTensorScalar as harness rows: every A2 dtype and
// the promotions (IsInScalarTensor's differs below and from 10 test
// elements), each view, rank 0, empty tensors, invert; then the wrap of an
// integer scalar into a narrow dtype, a NaN element, CANN's examples and the
// rejections with their codes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_isin.h"
#include "aclnnop/aclnn_isin_tensor_scalar.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

const std::vector<aclDataType> kIsInDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,   ACL_INT32, ACL_INT64,
                                              ACL_UINT8, ACL_BF16,    ACL_DOUBLE, ACL_INT16};

// The tensor's dtype unless only the scalar is floating.
aclDataType TensorFirst(aclDataType tensor, aclDataType scalar) {
  if (IsFloating(tensor) || !IsFloating(scalar)) return tensor;
  return *Promote(scalar, tensor);
}

// `v` as a tensor of `dtype` holds it (integers wrap).
double In(aclDataType dtype, Value v) {
  return IsFloating(dtype) ? ConvertValue(v, dtype).real() : Wrapped(static_cast<int64_t>(v.real()), dtype);
}

// Tensor values with repeats and zeros; the scalar 0 (floating) or within the values (integers), so both answers occur.
RangeRule TensorValues() {
  return RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsFloating(dtype) ? Range{-2, 2, 0, 3} : Range{0, 3, 0, 0, true};
  });
}
RangeRule ScalarValue() {
  return RangeRule([](aclDataType dtype, const CaseInfo&) {
    return IsFloating(dtype) ? Range{0, 0, 0, 0, true} : Range{0, 3, 0, 0, true};
  });
}

std::vector<AttrSet> InvertSets() {
  return {{"", {{"assumeUnique", false}, {"invert", false}}}, {"invert", {{"assumeUnique", true}, {"invert", true}}}};
}

OpRow ScalarTensorRow() {
  OpRow row;
  row.name = "IsInScalarTensor";
  row.inputs = {Arg{.name = "element", .kind = ArgKind::kScalar, .range = ScalarValue()},
                Arg{.name = "testElements", .range = TensorValues()}};
  row.out = {[](Call& c) {
               return aclnnIsInScalarTensorGetWorkspaceSize(c.Scalar(0), c.Tensor(1), c.BoolAttr("assumeUnique"),
                                                            c.BoolAttr("invert"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnIsInScalarTensor};
  row.dtypes = Concat(EachDtype(kIsInDtypes), Singly({{{ACL_INT64, ACL_INT8}},
                                                      {{ACL_FLOAT, ACL_INT32}},
                                                      {{ACL_DOUBLE, ACL_FLOAT16}},
                                                      {{ACL_INT32, ACL_BF16}},
                                                      {{ACL_FLOAT16, ACL_UINT8}}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.shapes = {{"few", {{5}}, true},
                {"many", {{4, 5}}, true},
                {"large", {{37, 129}}},
                {"rank0", {Shape{}}},
                {"rank8", {{2, 1, 2, 1, 2, 1, 2, 1}}},
                {"empty", {{0, 3}}}};
  row.outShape = [](const std::vector<Shape>&, const AttrSet&) -> std::optional<Shape> { return Shape{}; };
  row.attrs = InvertSets();
  row.reference = [](const RefCall& call) {
    const Operand& element = call.inputs[0];
    const Operand& test = call.inputs[1];
    const bool many = static_cast<int64_t>(test.values.size()) >= 10;
    const aclDataType p = many ? *Promote(test.dtype, element.dtype) : TensorFirst(test.dtype, element.dtype);
    const double x = In(p, element.values[0]);
    bool found = false;
    for (const Value& v : test.values) found = found || In(p, v) == x;
    return Expected{{found != call.attrs.Bool("invert") ? 1.0 : 0.0}, {}};
  };
  return row;
}

OpRow TensorScalarRow() {
  OpRow row;
  row.name = "IsInTensorScalar";
  row.inputs = {Arg{.name = "element", .range = TensorValues()},
                Arg{.name = "testElement", .kind = ArgKind::kScalar, .range = ScalarValue()}};
  row.out = {[](Call& c) {
               return aclnnIsInTensorScalarGetWorkspaceSize(c.Tensor(0), c.Scalar(1), c.BoolAttr("assumeUnique"),
                                                            c.BoolAttr("invert"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnIsInTensorScalar};
  row.dtypes = Concat(EachDtype(kIsInDtypes), Singly({{{ACL_INT8, ACL_INT64}},
                                                      {{ACL_INT32, ACL_FLOAT}},
                                                      {{ACL_FLOAT16, ACL_DOUBLE}},
                                                      {{ACL_BF16, ACL_INT32}},
                                                      {{ACL_UINT8, ACL_FLOAT16}}}));
  row.outDtype = FixedDtype(ACL_BOOL);
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.attrs = InvertSets();
  row.reference = [](const RefCall& call) {
    const Operand& element = call.inputs[0];
    const Operand& test = call.inputs[1];
    const aclDataType p = TensorFirst(element.dtype, test.dtype);
    const double t = In(p, test.values[0]);
    Expected e;
    for (const Value& v : element.values) e.values.push_back((In(p, v) == t) != call.attrs.Bool("invert") ? 1.0 : 0.0);
    return e;
  };
  return row;
}

std::vector<OpRow> IsInRows() { return {ScalarTensorRow(), TensorScalarRow()}; }
CANOPY_HARNESS_ROWS(IsInRows);

// ---- Values the rows do not reach ------------------------------------------------------------------

bool ScalarTensor(aclDataType elementDtype, Value element, aclDataType testDtype, const Values& test, bool invert) {
  auto tensor = Upload(testDtype, {static_cast<int64_t>(test.size())}, test);
  auto out = Poisoned(ACL_BOOL, {});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnIsInScalarTensorGetWorkspaceSize(args.Scalar(elementDtype, element), args.Tensor(*tensor), false,
                                                     invert, args.Tensor(*out), ws, ex);
      },
      aclnnIsInScalarTensor);
  EXPECT_TRUE(run.ok()) << Describe(run);
  return out->ReadView()[0].real() != 0;
}

Values TensorScalar(aclDataType elementDtype, const Values& element, aclDataType testDtype, Value test, bool invert) {
  auto tensor = Upload(elementDtype, {static_cast<int64_t>(element.size())}, element);
  auto out = Poisoned(ACL_BOOL, {static_cast<int64_t>(element.size())});
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnIsInTensorScalarGetWorkspaceSize(args.Tensor(*tensor), args.Scalar(testDtype, test), false, invert,
                                                     args.Tensor(*out), ws, ex);
      },
      aclnnIsInTensorScalar);
  EXPECT_TRUE(run.ok()) << Describe(run);
  return out->ReadView();
}

TEST(IsInValues, ScalarTensor) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // An INT64 257 compared among fewer than 10 INT8 values becomes INT8 1; among 10 or more, INT64 257.
  EXPECT_TRUE(ScalarTensor(ACL_INT64, 257, ACL_INT8, {5, 1, 7}, false));
  EXPECT_FALSE(ScalarTensor(ACL_INT64, 257, ACL_INT8, {5, 1, 7, 0, 0, 0, 0, 0, 0, 0}, false));
  // A DOUBLE 0.1 among FLOAT16 values is FLOAT16(0.1) below 10 elements.
  EXPECT_TRUE(ScalarTensor(ACL_DOUBLE, 0.1, ACL_FLOAT16, {ConvertValue(0.1, ACL_FLOAT16)}, false));
  // A NaN element is never found; NaN test values never match.
  EXPECT_FALSE(ScalarTensor(ACL_FLOAT, nan, ACL_FLOAT, {nan, 1}, false));
  EXPECT_TRUE(ScalarTensor(ACL_FLOAT, nan, ACL_FLOAT, {nan, 1}, true));
  EXPECT_TRUE(ScalarTensor(ACL_FLOAT, 1, ACL_FLOAT, {nan, 2}, true));
  // CANN's example: element 2 (FLOAT) in FLOAT [1, 2, 3, 4].
  EXPECT_TRUE(ScalarTensor(ACL_FLOAT, 2, ACL_FLOAT, {1, 2, 3, 4}, false));
}

TEST(IsInValues, TensorScalar) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(TensorScalar(ACL_INT8, {1, 2, 1}, ACL_INT64, 257, false), Values({1, 0, 1}));
  EXPECT_EQ(TensorScalar(ACL_INT32, {1, 2, 1}, ACL_FLOAT, 1.5, false), Values({0, 0, 0}));
  EXPECT_EQ(TensorScalar(ACL_FLOAT, {nan, 2, 3}, ACL_FLOAT, nan, false), Values({0, 0, 0}));
  EXPECT_EQ(TensorScalar(ACL_FLOAT, {nan, 2, 3}, ACL_FLOAT, 2, true), Values({1, 0, 1}));
}

// ---- Rejections ------------------------------------------------------------------------------------

OpRun RunScalarTensor(aclDataType element, aclDataType test, aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnIsInScalarTensorGetWorkspaceSize(args.Scalar(element, 1), args.NewTensor(test, {4}), false, false,
                                                     args.NewTensor(out, outShape), ws, ex);
      },
      aclnnIsInScalarTensor);
}
OpRun RunTensorScalar(aclDataType element, aclDataType test, aclDataType out, const Shape& outShape) {
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnIsInTensorScalarGetWorkspaceSize(args.NewTensor(element, {2, 3}), args.Scalar(test, 1), false,
                                                     false, args.NewTensor(out, outShape), ws, ex);
      },
      aclnnIsInTensorScalar);
}

TEST(IsInRejects, WithCannCodes) {
  EXPECT_EQ(RunScalarTensor(ACL_BOOL, ACL_FLOAT, ACL_BOOL, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScalarTensor(ACL_FLOAT, ACL_UINT16, ACL_BOOL, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScalarTensor(ACL_FLOAT, ACL_COMPLEX64, ACL_BOOL, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScalarTensor(ACL_FLOAT, ACL_FLOAT, ACL_INT8, {}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunScalarTensor(ACL_FLOAT, ACL_FLOAT, ACL_BOOL, {1}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunTensorScalar(ACL_BOOL, ACL_FLOAT, ACL_BOOL, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunTensorScalar(ACL_FLOAT, ACL_UINT16, ACL_BOOL, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunTensorScalar(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {2, 3}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunTensorScalar(ACL_FLOAT, ACL_FLOAT, ACL_BOOL, {3, 2}).phase1, ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(RunTensorScalar(ACL_FLOAT, ACL_FLOAT, ACL_BOOL, {6}).phase1, ACLNN_ERR_PARAM_INVALID);
  const OpRun null_element = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        return aclnnIsInScalarTensorGetWorkspaceSize(nullptr, args.NewTensor(ACL_FLOAT, {4}), false, false,
                                                     args.NewTensor(ACL_BOOL, {}), ws, ex);
      },
      aclnnIsInScalarTensor);
  EXPECT_EQ(null_element.phase1, ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(null_element.message.find("element"), std::string::npos) << null_element.message;
}

}  // namespace
}  // namespace canopy_test
