// aclnnIsInScalarTensor and aclnnIsInTensorScalar (torch.isin with one side a
// scalar): whether the scalar is among testElements' values (a BOOL scalar
// tensor), or where element's values equal the scalar (BOOL, element's
// shape); invert negates. Both compare in a promoted dtype, the scalar
// converted into it as a tensor of that dtype holds it (integers wrap).
// IsInScalarTensor promotes as tensors do once testElements has 10 elements;
// with fewer, and in IsInTensorScalar always, the tensor's dtype wins unless
// only the scalar is floating. An empty testElements or a NaN element gives
// invert.
#include <cmath>

#include "aclnnop/aclnn_isin.h"
#include "aclnnop/aclnn_isin_tensor_scalar.h"
#include "binary_pointwise.h"
#include "ops/reduce/reduction.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

// The A2 lists of the host code; the docs list UINT16, BOOL and the complex
// dtypes too, which the code rejects.
constexpr DtypeSet kScalarTensorDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_INT8,   ACL_INT32, ACL_INT64,
                                          ACL_UINT8, ACL_BF16,    ACL_DOUBLE, ACL_INT16};
constexpr DtypeSet kTensorScalarDtypes = kScalarTensorDtypes;
// From this many test elements on, IsInScalarTensor promotes as two tensors do.
constexpr int64_t kPromoteAsTensorsFrom = 10;

// The tensor's dtype, unless only the scalar is floating.
aclDataType TensorFirst(aclDataType tensor, aclDataType scalar) {
  if (IsFloating(tensor) || !IsFloating(scalar)) return tensor;
  return PromoteTypes(scalar, tensor);
}

aclnnStatus PlanScalarTensor(Plan& plan, const aclScalar* element, const aclTensor* test_elements,
                             bool /*assume_unique*/, bool invert, const aclTensor* out) {
  CANOPY_CHECK(CheckScalarDtype(plan, "element", element, kScalarTensorDtypes));
  CANOPY_CHECK(plan.CheckDtype("testElements", test_elements->dtype, kScalarTensorDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_BOOL}));
  int64_t count = 1;
  for (int64_t extent : test_elements->view_shape) count *= extent;
  const aclDataType promoted = count >= kPromoteAsTensorsFrom ? PromoteTypes(test_elements->dtype, element->dtype)
                                                              : TensorFirst(test_elements->dtype, element->dtype);
  CANOPY_CHECK(plan.CheckCastable(element->dtype, "the promoted dtype", promoted));
  CANOPY_CHECK(plan.CheckCastable(test_elements->dtype, "the promoted dtype", promoted));
  CANOPY_CHECK(plan.CheckRank("out", out, 0, 0));

  const TensorRef test = plan.Input(test_elements, "testElements");
  const TensorRef dst = plan.Output(out, "out");
  const ScalarValue value = ValueOf(*element);
  if (count == 0 || (IsFloating(element->dtype) && std::isnan(value.real))) {
    plan.Fill(dst, ScalarValue::Integer(invert ? 1 : 0));
    return ACLNN_SUCCESS;
  }
  // isin: some element equal; invert: every element different.
  const TensorRef compared = plan.Temporary(ACL_BOOL, test.shape);
  AddPointwise(plan, invert ? PointwiseOp::kNe : PointwiseOp::kEq, promoted, ACL_BOOL,
               {PointwiseOperand::Tensor(test), PointwiseOperand::Scalar(RoundedTo(ValueOf(*element), promoted))},
               compared);
  PlanReduceInto(plan, invert ? kernels::ReduceKind::kAll : kernels::ReduceKind::kAny, compared,
                 std::vector<bool>(test.shape.size(), true), false, ACL_BOOL, dst);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanTensorScalar(Plan& plan, const aclTensor* element, const aclScalar* test_element,
                             bool /*assume_unique*/, bool invert, const aclTensor* out) {
  CANOPY_CHECK(plan.CheckDtype("element", element->dtype, kTensorScalarDtypes));
  CANOPY_CHECK(CheckScalarDtype(plan, "testElement", test_element, kTensorScalarDtypes));
  CANOPY_CHECK(plan.CheckDtype("out", out->dtype, DtypeSet{ACL_BOOL}));
  const aclDataType promoted = TensorFirst(element->dtype, test_element->dtype);
  CANOPY_CHECK(plan.CheckDtype("the promoted dtype", promoted, kTensorScalarDtypes));
  CANOPY_CHECK(plan.CheckShape("out", out, element->view_shape));
  const TensorRef x = plan.Input(element, "element");
  AddPointwise(plan, invert ? PointwiseOp::kNe : PointwiseOp::kEq, promoted, ACL_BOOL,
               {PointwiseOperand::Tensor(x), PointwiseOperand::Scalar(RoundedTo(ValueOf(*test_element), promoted))},
               plan.Output(out, "out"));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(IsInScalarTensor, PlanScalarTensor,
                (OpTraits{.header = "aclnnop/aclnn_isin.h",
                          .dtypes = kScalarTensorDtypes,
                          .example = "f32:1 f32[2,3] false false bool[]"}),
                (const aclScalar*, element), (const aclTensor*, testElements), (bool, assumeUnique), (bool, invert),
                (aclTensor*, out))
CANOPY_ACLNN_OP(IsInTensorScalar, PlanTensorScalar,
                (OpTraits{.header = "aclnnop/aclnn_isin_tensor_scalar.h",
                          .dtypes = kTensorScalarDtypes,
                          .example = "f32[2,3] f32:1 false false bool[2,3]"}),
                (const aclTensor*, element), (const aclScalar*, testElement), (bool, assumeUnique), (bool, invert),
                (aclTensor*, out))
