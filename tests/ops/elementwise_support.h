// Shared pieces of the Add/Sub/Mul/Div suites: dtype lists, operand ranges
// that cannot overflow, default alpha values and the phase functions of every
// form of the four ops.
#ifndef CANOPY_TESTS_OPS_ELEMENTWISE_SUPPORT_H_
#define CANOPY_TESTS_OPS_ELEMENTWISE_SUPPORT_H_

#include <utility>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {

// Atlas A2 dtype list shared by self, other, alpha and out of Add, Sub, Mul, Div.
inline const std::vector<aclDataType>& ElementwiseDtypes() {
  static const std::vector<aclDataType> dtypes = {ACL_FLOAT, ACL_FLOAT16,    ACL_DOUBLE,    ACL_INT32,
                                                  ACL_INT64, ACL_INT16,      ACL_INT8,      ACL_UINT8,
                                                  ACL_BOOL,  ACL_COMPLEX128, ACL_COMPLEX64, ACL_BF16};
  return dtypes;
}

inline const std::vector<BinaryOp>& AllBinaryOps() {
  static const std::vector<BinaryOp> ops = {BinaryOp::kAdd, BinaryOp::kSub, BinaryOp::kMul, BinaryOp::kDiv};
  return ops;
}

inline bool HasAlpha(BinaryOp op) { return op == BinaryOp::kAdd || op == BinaryOp::kSub; }

// Ranges that keep every integer result (with |alpha| <= 3) inside the
// narrowest dtype involved, keep divisors away from zero and keep unsigned
// differences non-negative.
inline Range OperandRange(BinaryOp op, aclDataType dtype, bool isOther) {
  if (IsBool(dtype)) {
    // bool - bool is only well defined as self - false; x / bool only as x / true.
    if (isOther && op == BinaryOp::kSub) return Range{0, 0, 0, 0, true};
    if (isOther && op == BinaryOp::kDiv) return Range{1, 1};
    return Range{0, 1};
  }
  if (IsFloating(dtype)) {
    if (isOther && op == BinaryOp::kDiv) return Range{-2, 2, 0.5};
    return Range{-2, 2};
  }
  if (IsUnsigned(dtype)) {
    switch (op) {
      case BinaryOp::kAdd:
        return isOther ? Range{0, 20} : Range{0, 60};
      case BinaryOp::kSub:
        return isOther ? Range{0, 20} : Range{64, 120};
      case BinaryOp::kMul:
        return Range{0, 11};
      case BinaryOp::kDiv:
        return isOther ? Range{1, 10, 1} : Range{0, 200};
    }
  }
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kSub:
      return Range{-20, 20};
    case BinaryOp::kMul:
      return Range{-11, 11};
    case BinaryOp::kDiv:
      return isOther ? Range{-10, 10, 1} : Range{-100, 100};
  }
  return Range{};
}

// The dtype the reference computes in for tensor (op) tensor: the promoted
// dtype, except that integer division is true division (done in f32, then
// truncated if `out` is an integer type).
inline aclDataType BinaryComputeDtype(BinaryOp op, aclDataType self, aclDataType other) {
  const aclDataType promoted = Promote(self, other).value_or(ACL_FLOAT);
  if (op == BinaryOp::kDiv && IsIntegral(promoted)) return ACL_FLOAT;
  return promoted;
}

// An alpha that the compute dtype accepts (bool compute: integral or bool).
inline std::pair<aclDataType, Value> DefaultAlpha(aclDataType compute) {
  if (IsBool(compute)) return {ACL_BOOL, 1.0};
  if (IsIntegral(compute)) return {ACL_INT32, 2.0};
  return {ACL_FLOAT, 1.5};
}

// ---- Phase functions of every form ------------------------------------------------------------

inline aclnnStatus TensorOpPhase1(BinaryOp op, aclTensor* self, aclTensor* other, aclScalar* alpha, aclTensor* out,
                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  switch (op) {
    case BinaryOp::kAdd:
      return aclnnAddGetWorkspaceSize(self, other, alpha, out, workspaceSize, executor);
    case BinaryOp::kSub:
      return aclnnSubGetWorkspaceSize(self, other, alpha, out, workspaceSize, executor);
    case BinaryOp::kMul:
      return aclnnMulGetWorkspaceSize(self, other, out, workspaceSize, executor);
    case BinaryOp::kDiv:
      return aclnnDivGetWorkspaceSize(self, other, out, workspaceSize, executor);
  }
  return -1;
}

inline aclnnStatus InplaceTensorOpPhase1(BinaryOp op, aclTensor* selfRef, aclTensor* other, aclScalar* alpha,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  switch (op) {
    case BinaryOp::kAdd:
      return aclnnInplaceAddGetWorkspaceSize(selfRef, other, alpha, workspaceSize, executor);
    case BinaryOp::kSub:
      return aclnnInplaceSubGetWorkspaceSize(selfRef, other, alpha, workspaceSize, executor);
    case BinaryOp::kMul:
      return aclnnInplaceMulGetWorkspaceSize(selfRef, other, workspaceSize, executor);
    case BinaryOp::kDiv:
      return aclnnInplaceDivGetWorkspaceSize(selfRef, other, workspaceSize, executor);
  }
  return -1;
}

inline aclnnStatus ScalarOpPhase1(BinaryOp op, aclTensor* self, aclScalar* other, aclScalar* alpha, aclTensor* out,
                                  uint64_t* workspaceSize, aclOpExecutor** executor) {
  switch (op) {
    case BinaryOp::kAdd:
      return aclnnAddsGetWorkspaceSize(self, other, alpha, out, workspaceSize, executor);
    case BinaryOp::kSub:
      return aclnnSubsGetWorkspaceSize(self, other, alpha, out, workspaceSize, executor);
    case BinaryOp::kMul:
      return aclnnMulsGetWorkspaceSize(self, other, out, workspaceSize, executor);
    case BinaryOp::kDiv:
      return aclnnDivsGetWorkspaceSize(self, other, out, workspaceSize, executor);
  }
  return -1;
}

inline aclnnStatus InplaceScalarOpPhase1(BinaryOp op, aclTensor* selfRef, aclScalar* other, aclScalar* alpha,
                                         uint64_t* workspaceSize, aclOpExecutor** executor) {
  switch (op) {
    case BinaryOp::kAdd:
      return aclnnInplaceAddsGetWorkspaceSize(selfRef, other, alpha, workspaceSize, executor);
    case BinaryOp::kSub:
      return aclnnInplaceSubsGetWorkspaceSize(selfRef, other, alpha, workspaceSize, executor);
    case BinaryOp::kMul:
      return aclnnInplaceMulsGetWorkspaceSize(selfRef, other, workspaceSize, executor);
    case BinaryOp::kDiv:
      return aclnnInplaceDivsGetWorkspaceSize(selfRef, other, workspaceSize, executor);
  }
  return -1;
}

inline Phase2 TensorOpPhase2(BinaryOp op, bool inplace) {
  switch (op) {
    case BinaryOp::kAdd:
      return inplace ? aclnnInplaceAdd : aclnnAdd;
    case BinaryOp::kSub:
      return inplace ? aclnnInplaceSub : aclnnSub;
    case BinaryOp::kMul:
      return inplace ? aclnnInplaceMul : aclnnMul;
    case BinaryOp::kDiv:
      return inplace ? aclnnInplaceDiv : aclnnDiv;
  }
  return nullptr;
}

inline Phase2 ScalarOpPhase2(BinaryOp op, bool inplace) {
  switch (op) {
    case BinaryOp::kAdd:
      return inplace ? aclnnInplaceAdds : aclnnAdds;
    case BinaryOp::kSub:
      return inplace ? aclnnInplaceSubs : aclnnSubs;
    case BinaryOp::kMul:
      return inplace ? aclnnInplaceMuls : aclnnMuls;
    case BinaryOp::kDiv:
      return inplace ? aclnnInplaceDivs : aclnnDivs;
  }
  return nullptr;
}

}  // namespace canopy_test

#endif  // CANOPY_TESTS_OPS_ELEMENTWISE_SUPPORT_H_
