// Every documented rejection of the first ops, with its exact status code and
// a non-empty aclGetRecentErrMsg(): a null pointer for each pointer argument
// of each phase-1 function (161001), and the invalid dtypes, shapes, ranks,
// formats and attributes of the fact sheet (161002).
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_copy.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_fill_scalar.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_sub.h"
#include "aclnnop/aclnn_zero.h"
#include "op_test_support.h"
#include "registry_example.h"

namespace canopy_test {
namespace {

const Shape kRank9 = {1, 1, 1, 1, 1, 1, 1, 1, 2};

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return text;
}

// Checks a rejected phase 1: the exact code and a message that names the op
// (and, for null pointers, the argument).
void ExpectRejected(const OpRun& run, aclnnStatus expected, const std::vector<std::string>& keywords) {
  EXPECT_EQ(run.phase1, expected) << Describe(run);
  EXPECT_FALSE(run.message.empty()) << "aclGetRecentErrMsg() is empty after a rejection";
  for (const std::string& keyword : keywords) {
    EXPECT_NE(Lower(run.message).find(Lower(keyword)), std::string::npos)
        << "the message should name '" << keyword << "': '" << run.message << "'";
  }
}

// ---- Checks every op gets from the kit, generated from the op registry -----------------------

aclTensor* F32(OpArgs& a, const Shape& shape = {2, 3}) { return a.NewTensor(ACL_FLOAT, shape); }
aclScalar* One(OpArgs& a) { return a.Scalar(ACL_FLOAT, 1.0); }

// What one generated case changes in an otherwise valid call of a registered op.
enum class Change {
  kNone,           // the valid call itself: it must succeed
  kNull,           // pointer argument `arg` is null (arg == argCount: workspaceSize, argCount + 1: executor)
  kNullOptional,   // optional pointer argument `arg` is null: accepted
  kNullElement,    // list argument `arg` has a null element
  kPrivateFormat,  // tensor argument `arg` is FRACTAL_NZ
  kRankTooHigh,    // tensor argument `arg` has rank maxRank + 1
};

struct KitCase {
  const canopyOpInfo* op;
  Change change;
  size_t arg;
};

std::string ArgName(const KitCase& x) {
  if (x.arg < x.op->argCount) return x.op->args[x.arg].name;
  return x.arg == x.op->argCount ? "workspaceSize" : "executor";
}

std::string KitCaseName(const KitCase& x) {
  std::string op = x.op->name;
  switch (x.change) {
    case Change::kNone:
      return op + "_valid_call";
    case Change::kNull:
      return op + "_null_" + ArgName(x);
    case Change::kNullOptional:
      return op + "_absent_" + ArgName(x);
    case Change::kNullElement:
      return op + "_null_element_" + ArgName(x);
    case Change::kPrivateFormat:
      return op + "_fractal_nz_" + ArgName(x);
    case Change::kRankTooHigh:
      return op + "_rank_too_high_" + ArgName(x);
  }
  return op;
}

void PrintTo(const KitCase& x, std::ostream* os) { *os << KitCaseName(x); }

// Every registered op: its valid call, a null for each pointer argument (and for
// workspaceSize and executor), and for each tensor argument a private format and
// a rank past the op's limit.
std::vector<KitCase> KitCases() {
  std::vector<KitCase> cases;
  for (const canopyOpInfo* op : RegisteredOps()) {
    cases.push_back({op, Change::kNone, 0});
    for (size_t arg = 0; arg < op->argCount + 2; ++arg) {
      const int kind = arg < op->argCount ? op->args[arg].kind : CANOPY_ARG_TENSOR;
      const bool pointer = kind == CANOPY_ARG_TENSOR || kind == CANOPY_ARG_SCALAR || kind == CANOPY_ARG_STRING ||
                           (kind >= CANOPY_ARG_INT_ARRAY && kind <= CANOPY_ARG_SCALAR_LIST);
      const bool optional = arg < op->argCount && op->args[arg].optional != 0;
      if (pointer) cases.push_back({op, optional ? Change::kNullOptional : Change::kNull, arg});
      if (kind == CANOPY_ARG_TENSOR_LIST || kind == CANOPY_ARG_SCALAR_LIST) {
        cases.push_back({op, Change::kNullElement, arg});
      }
      const bool tensors = kind == CANOPY_ARG_TENSOR || kind == CANOPY_ARG_TENSOR_LIST;
      if (arg < op->argCount && tensors) {
        if (op->privateFormats == 0) cases.push_back({op, Change::kPrivateFormat, arg});
        cases.push_back({op, Change::kRankTooHigh, arg});
      }
    }
  }
  return cases;
}

class KitCheckTest : public ::testing::TestWithParam<KitCase> {};

TEST_P(KitCheckTest, IsRejectedAsCannDoes) {
  const KitCase& x = GetParam();
  const canopyOpInfo& op = *x.op;
  RegistryCall call = RegistryValidCall(op);
  ASSERT_FALSE(call.shape.empty()) << "no call of " << op.name << " with f32 [2,2], [2,2,2] or [2] tensors succeeds";
  const std::string entry = std::string("aclnn") + op.name;
  const int arg = static_cast<int>(x.arg);
  std::string quoted = "'";  // built in steps: GCC 12 warns falsely (-Wrestrict) on "'" + name
  quoted += ArgName(x);
  quoted += '\'';
  switch (x.change) {
    case Change::kNone: {
      const OpRun run = RunOp(RegistryPhase1(op, call), op.run);
      EXPECT_TRUE(call.needsPeers ? StopsAtRankCount(run) : run.ok()) << Describe(run);
      return;
    }
    case Change::kNull: {
      if (x.arg < op.argCount) {
        call.nullArg = arg;
        ExpectRejected(RunOp(RegistryPhase1(op, call), op.run), ACLNN_ERR_PARAM_NULLPTR, {entry, quoted});
        return;
      }
      const bool workspace = x.arg == op.argCount;
      const Phase1 valid = RegistryPhase1(op, call);
      const OpRun run = RunOp(
          [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
            return valid(args, workspace ? nullptr : workspaceSize, workspace ? executor : nullptr);
          },
          op.run);
      ExpectRejected(run, ACLNN_ERR_PARAM_NULLPTR, {entry, ArgName(x)});
      return;
    }
    case Change::kNullOptional: {
      call.nullArg = arg;
      // Optional only in some combinations (CANN's doc): the example's token
      // says with which code its call fails without it (registry_example.h).
      std::string error;
      const auto example = op.example != nullptr ? ParseExample(op, error) : std::nullopt;
      if (const int32_t status = example ? (*example)[x.arg].statusWhenLeftOut : 0; status != 0) {
        ExpectRejected(RunOp(RegistryPhase1(op, call), op.run), status, {entry});
        return;
      }
      const OpRun run = RunOp(RegistryPhase1(op, call), op.run);
      EXPECT_TRUE(call.needsPeers ? StopsAtRankCount(run) : run.ok()) << "an absent optional " << quoted;
      return;
    }
    case Change::kNullElement:
      call.nullElementArg = arg;
      ExpectRejected(RunOp(RegistryPhase1(op, call), op.run), ACLNN_ERR_PARAM_NULLPTR, {entry, quoted, "element 1"});
      return;
    case Change::kPrivateFormat:
      call.formatArg = arg;
      call.format = ACL_FORMAT_FRACTAL_NZ;
      if (op.args[arg].kind == CANOPY_ARG_TENSOR_LIST) quoted.insert(quoted.size() - 1, "[0]");  // its first element
      ExpectRejected(RunOp(RegistryPhase1(op, call), op.run), ACLNN_ERR_PARAM_INVALID, {entry, quoted, "format"});
      return;
    case Change::kRankTooHigh:
      call.rankArg = arg;
      if (op.args[arg].kind == CANOPY_ARG_TENSOR_LIST) quoted.insert(quoted.size() - 1, "[0]");
      call.rankShape = Shape(static_cast<size_t>(op.maxRank), 1);
      call.rankShape.push_back(2);
      ExpectRejected(RunOp(RegistryPhase1(op, call), op.run), ACLNN_ERR_PARAM_INVALID, {entry, quoted, "rank"});
      return;
  }
}

INSTANTIATE_TEST_SUITE_P(Registry, KitCheckTest, ::testing::ValuesIn(KitCases()),
                         [](const ::testing::TestParamInfo<KitCase>& info) { return KitCaseName(info.param); });

// A null required argument is reported first, whatever else is wrong with the
// call: here the dtype attribute of Cast is invalid too.
TEST(NullArgumentOrder, NullIsReportedBeforeInvalidAttributes) {
  const OpRun run = RunOp(
      [](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        aclDataType invalid;
        const int raw = 1000;
        std::memcpy(&invalid, &raw, sizeof raw);
        return aclnnCastGetWorkspaceSize(F32(a), invalid, nullptr, w, e);
      },
      aclnnCast);
  ExpectRejected(run, ACLNN_ERR_PARAM_NULLPTR, {"aclnnCast", "'out'"});
}

// The first null argument in prototype order is the one named.
TEST(NullArgumentOrder, FirstNullArgumentIsNamed) {
  const OpRun run = RunOp(
      [](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAddmmGetWorkspaceSize(F32(a, {2, 2}), nullptr, F32(a, {2, 2}), nullptr, One(a), nullptr, 0, w, e);
      },
      aclnnAddmm);
  ExpectRejected(run, ACLNN_ERR_PARAM_NULLPTR, {"aclnnAddmm", "'mat1'"});
}

// Add accepted a FRACTAL_NZ tensor while Cast rejected one: the format check was
// written into some recipes and not others. The kit now checks every op.
TEST(PrivateFormat, AddRejectsFractalNzOperands) {
  for (int position = 0; position < 3; ++position) {
    const OpRun run = RunOp(
        [position](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          aclTensor* t[3];
          for (int i = 0; i < 3; ++i) {
            t[i] = a.NewTensor(ACL_FLOAT, {16, 16}, View::kContiguous,
                               i == position ? ACL_FORMAT_FRACTAL_NZ : ACL_FORMAT_ND);
          }
          return aclnnAddGetWorkspaceSize(t[0], t[1], One(a), t[2], w, e);
        },
        aclnnAdd);
    ExpectRejected(run, ACLNN_ERR_PARAM_INVALID, {"aclnnAdd", "format"});
  }
}

// ---- Invalid parameters -------------------------------------------------------------------------

struct InvalidCase {
  std::string name;
  const char* keyword;  // the op name the message should contain
  Phase1 phase1;
  Phase2 phase2;  // releases the executor if phase 1 wrongly succeeds
  aclnnStatus expected = ACLNN_ERR_PARAM_INVALID;
};

void PrintTo(const InvalidCase& x, std::ostream* os) { *os << x.name; }

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

aclTensor* T(A& a, aclDataType dtype, const Shape& shape, View view = View::kContiguous,
             aclFormat format = ACL_FORMAT_ND) {
  return a.NewTensor(dtype, shape, view, format);
}
aclScalar* S(A& a, aclDataType dtype, Value value) { return a.Scalar(dtype, value); }

// Add, Sub (alpha) and Mul, Div (no alpha) share these rows; `op` picks the call.
enum class Family { kAdd, kSub, kMul, kDiv };

aclnnStatus TensorCall(Family f, A& a, aclTensor* self, aclTensor* other, aclScalar* alpha, aclTensor* out, W w, E e) {
  switch (f) {
    case Family::kAdd:
      return aclnnAddGetWorkspaceSize(self, other, alpha ? alpha : One(a), out, w, e);
    case Family::kSub:
      return aclnnSubGetWorkspaceSize(self, other, alpha ? alpha : One(a), out, w, e);
    case Family::kMul:
      return aclnnMulGetWorkspaceSize(self, other, out, w, e);
    case Family::kDiv:
      return aclnnDivGetWorkspaceSize(self, other, out, w, e);
  }
  return -1;
}

aclnnStatus ScalarCall(Family f, A& a, aclTensor* self, aclScalar* other, aclScalar* alpha, aclTensor* out, W w, E e) {
  switch (f) {
    case Family::kAdd:
      return aclnnAddsGetWorkspaceSize(self, other, alpha ? alpha : One(a), out, w, e);
    case Family::kSub:
      return aclnnSubsGetWorkspaceSize(self, other, alpha ? alpha : One(a), out, w, e);
    case Family::kMul:
      return aclnnMulsGetWorkspaceSize(self, other, out, w, e);
    case Family::kDiv:
      return aclnnDivsGetWorkspaceSize(self, other, out, w, e);
  }
  return -1;
}

aclnnStatus InplaceTensorCall(Family f, A& a, aclTensor* self, aclTensor* other, aclScalar* alpha, W w, E e) {
  switch (f) {
    case Family::kAdd:
      return aclnnInplaceAddGetWorkspaceSize(self, other, alpha ? alpha : One(a), w, e);
    case Family::kSub:
      return aclnnInplaceSubGetWorkspaceSize(self, other, alpha ? alpha : One(a), w, e);
    case Family::kMul:
      return aclnnInplaceMulGetWorkspaceSize(self, other, w, e);
    case Family::kDiv:
      return aclnnInplaceDivGetWorkspaceSize(self, other, w, e);
  }
  return -1;
}

aclnnStatus InplaceScalarCall(Family f, A& a, aclTensor* self, aclScalar* other, aclScalar* alpha, W w, E e) {
  switch (f) {
    case Family::kAdd:
      return aclnnInplaceAddsGetWorkspaceSize(self, other, alpha ? alpha : One(a), w, e);
    case Family::kSub:
      return aclnnInplaceSubsGetWorkspaceSize(self, other, alpha ? alpha : One(a), w, e);
    case Family::kMul:
      return aclnnInplaceMulsGetWorkspaceSize(self, other, w, e);
    case Family::kDiv:
      return aclnnInplaceDivsGetWorkspaceSize(self, other, w, e);
  }
  return -1;
}

const char* FamilyName(Family f) {
  switch (f) {
    case Family::kAdd:
      return "Add";
    case Family::kSub:
      return "Sub";
    case Family::kMul:
      return "Mul";
    case Family::kDiv:
      return "Div";
  }
  return "?";
}

Phase2 TensorPhase2(Family f) {
  switch (f) {
    case Family::kAdd:
      return aclnnAdd;
    case Family::kSub:
      return aclnnSub;
    case Family::kMul:
      return aclnnMul;
    case Family::kDiv:
      return aclnnDiv;
  }
  return nullptr;
}
Phase2 ScalarPhase2(Family f) {
  switch (f) {
    case Family::kAdd:
      return aclnnAdds;
    case Family::kSub:
      return aclnnSubs;
    case Family::kMul:
      return aclnnMuls;
    case Family::kDiv:
      return aclnnDivs;
  }
  return nullptr;
}
Phase2 InplaceTensorPhase2(Family f) {
  switch (f) {
    case Family::kAdd:
      return aclnnInplaceAdd;
    case Family::kSub:
      return aclnnInplaceSub;
    case Family::kMul:
      return aclnnInplaceMul;
    case Family::kDiv:
      return aclnnInplaceDiv;
  }
  return nullptr;
}
Phase2 InplaceScalarPhase2(Family f) {
  switch (f) {
    case Family::kAdd:
      return aclnnInplaceAdds;
    case Family::kSub:
      return aclnnInplaceSubs;
    case Family::kMul:
      return aclnnInplaceMuls;
    case Family::kDiv:
      return aclnnInplaceDivs;
  }
  return nullptr;
}

void AddElementwiseCases(std::vector<InvalidCase>& cases) {
  const Shape m = {3, 4};
  for (Family f : {Family::kAdd, Family::kSub, Family::kMul, Family::kDiv}) {
    const std::string p = FamilyName(f);
    const bool alpha = f == Family::kAdd || f == Family::kSub;
    auto tensor = [&](std::string name, std::function<aclnnStatus(A&, W, E)> call) {
      cases.push_back(
          {p + "_" + name, FamilyName(f), [call](A& a, W w, E e) { return call(a, w, e); }, TensorPhase2(f)});
    };
    auto scalar = [&](std::string name, std::function<aclnnStatus(A&, W, E)> call) {
      cases.push_back(
          {p + "s_" + name, FamilyName(f), [call](A& a, W w, E e) { return call(a, w, e); }, ScalarPhase2(f)});
    };
    auto inplace = [&](std::string name, std::function<aclnnStatus(A&, W, E)> call) {
      cases.push_back({"Inplace" + p + "_" + name, FamilyName(f), [call](A& a, W w, E e) { return call(a, w, e); },
                       InplaceTensorPhase2(f)});
    };
    auto inplaceScalar = [&](std::string name, std::function<aclnnStatus(A&, W, E)> call) {
      cases.push_back({"Inplace" + p + "s_" + name, FamilyName(f), [call](A& a, W w, E e) { return call(a, w, e); },
                       InplaceScalarPhase2(f)});
    };

    // Tensor (op) tensor.
    tensor("self_dtype_u16", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_UINT16, m), T(a, ACL_UINT16, m), S(a, ACL_INT32, 1), T(a, ACL_UINT16, m), w, e);
    });
    tensor("other_dtype_u32", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_UINT32, m), nullptr, T(a, ACL_FLOAT, m), w, e);
    });
    tensor("self_dtype_c32", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_COMPLEX32, m), T(a, ACL_FLOAT, m), nullptr, T(a, ACL_COMPLEX64, m), w, e);
    });
    tensor("f32_result_into_s32_out", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_FLOAT, m), nullptr, T(a, ACL_INT32, m), w, e);
    });
    tensor("f16_and_s32_into_s32_out", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT16, m), T(a, ACL_INT32, m), nullptr, T(a, ACL_INT32, m), w, e);
    });
    tensor("c64_result_into_f32_out", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_COMPLEX64, m), T(a, ACL_FLOAT, m), nullptr, T(a, ACL_FLOAT, m), w, e);
    });
    tensor("f32_result_into_bool_out", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_FLOAT, m), nullptr, T(a, ACL_BOOL, m), w, e);
    });
    tensor("s32_result_into_bool_out", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_INT32, m), T(a, ACL_INT32, m), S(a, ACL_INT32, 1), T(a, ACL_BOOL, m), w, e);
    });
    tensor("not_broadcastable", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_FLOAT, {5}), nullptr, T(a, ACL_FLOAT, m), w, e);
    });
    tensor("not_broadcastable_rank3", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, {2, 3, 4}), T(a, ACL_FLOAT, {3, 3, 4}), nullptr,
                        T(a, ACL_FLOAT, {3, 3, 4}), w, e);
    });
    tensor("out_shape_not_broadcast_shape", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_FLOAT, {4}), nullptr, T(a, ACL_FLOAT, {4, 4}), w, e);
    });
    tensor("out_would_need_broadcast", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_FLOAT, {4}), nullptr, T(a, ACL_FLOAT, {1, 4}), w, e);
    });
    tensor("out_rank_differs", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_FLOAT, m), nullptr, T(a, ACL_FLOAT, {12}), w, e);
    });
    tensor("self_rank9", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, kRank9), T(a, ACL_FLOAT, {2}), nullptr, T(a, ACL_FLOAT, kRank9), w, e);
    });
    tensor("other_rank9", [=](A& a, W w, E e) {
      return TensorCall(f, a, T(a, ACL_FLOAT, {2}), T(a, ACL_FLOAT, kRank9), nullptr, T(a, ACL_FLOAT, kRank9), w, e);
    });
    if (f == Family::kMul) {
      tensor("out_dtype_u32", [=](A& a, W w, E e) {
        return TensorCall(f, a, T(a, ACL_INT32, m), T(a, ACL_INT32, m), nullptr, T(a, ACL_UINT32, m), w, e);
      });
    }
    if (alpha) {
      tensor("alpha_f32_on_s32", [=](A& a, W w, E e) {
        return TensorCall(f, a, T(a, ACL_INT32, m), T(a, ACL_INT32, m), S(a, ACL_FLOAT, 1.5), T(a, ACL_INT32, m), w, e);
      });
      tensor("alpha_f32_on_bool", [=](A& a, W w, E e) {
        return TensorCall(f, a, T(a, ACL_BOOL, m), T(a, ACL_BOOL, m), S(a, ACL_FLOAT, 1.0), T(a, ACL_BOOL, m), w, e);
      });
      tensor("alpha_c64_on_f32", [=](A& a, W w, E e) {
        return TensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_FLOAT, m), S(a, ACL_COMPLEX64, Value(1, 1)),
                          T(a, ACL_FLOAT, m), w, e);
      });
    }

    // Tensor (op) scalar.
    scalar("self_dtype_u16", [=](A& a, W w, E e) {
      return ScalarCall(f, a, T(a, ACL_UINT16, m), S(a, ACL_INT32, 2), S(a, ACL_INT32, 1), T(a, ACL_UINT16, m), w, e);
    });
    // CANN's A2 Muls checks no castability: its result is cast to any listed out.
    if (f != Family::kMul) {
      scalar("f32_self_into_s32_out", [=](A& a, W w, E e) {
        return ScalarCall(f, a, T(a, ACL_FLOAT, m), S(a, ACL_FLOAT, 2), nullptr, T(a, ACL_INT32, m), w, e);
      });
      scalar("c64_self_into_f32_out", [=](A& a, W w, E e) {
        return ScalarCall(f, a, T(a, ACL_COMPLEX64, m), S(a, ACL_FLOAT, 2), nullptr, T(a, ACL_FLOAT, m), w, e);
      });
    }
    scalar("out_shape_differs", [=](A& a, W w, E e) {
      return ScalarCall(f, a, T(a, ACL_FLOAT, m), S(a, ACL_FLOAT, 2), nullptr, T(a, ACL_FLOAT, {4, 3}), w, e);
    });
    scalar("self_rank9", [=](A& a, W w, E e) {
      return ScalarCall(f, a, T(a, ACL_FLOAT, kRank9), S(a, ACL_FLOAT, 2), nullptr, T(a, ACL_FLOAT, kRank9), w, e);
    });
    if (f != Family::kDiv && f != Family::kMul) {
      // Divs validates CanCast(self, out) only, Muls nothing; the others the compute dtype.
      scalar("s32_self_f32_scalar_into_s32_out", [=](A& a, W w, E e) {
        return ScalarCall(f, a, T(a, ACL_INT32, m), S(a, ACL_FLOAT, 1.5), nullptr, T(a, ACL_INT32, m), w, e);
      });
    }
    if (alpha) {
      scalar("alpha_f32_on_s32", [=](A& a, W w, E e) {
        return ScalarCall(f, a, T(a, ACL_INT32, m), S(a, ACL_INT32, 2), S(a, ACL_FLOAT, 1.5), T(a, ACL_INT32, m), w, e);
      });
    }

    // In-place tensor (op) tensor.
    inplace("self_dtype_u16", [=](A& a, W w, E e) {
      return InplaceTensorCall(f, a, T(a, ACL_UINT16, m), T(a, ACL_UINT16, m), S(a, ACL_INT32, 1), w, e);
    });
    inplace("broadcast_would_grow_self", [=](A& a, W w, E e) {
      return InplaceTensorCall(f, a, T(a, ACL_FLOAT, {1, 4}), T(a, ACL_FLOAT, m), nullptr, w, e);
    });
    inplace("broadcast_would_grow_rank0_self", [=](A& a, W w, E e) {
      return InplaceTensorCall(f, a, T(a, ACL_FLOAT, {}), T(a, ACL_FLOAT, {3}), nullptr, w, e);
    });
    inplace("not_broadcastable", [=](A& a, W w, E e) {
      return InplaceTensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_FLOAT, {5}), nullptr, w, e);
    });
    inplace("f32_result_into_s32_self", [=](A& a, W w, E e) {
      return InplaceTensorCall(f, a, T(a, ACL_INT32, m), T(a, ACL_FLOAT, m), nullptr, w, e);
    });
    inplace("c64_result_into_f32_self", [=](A& a, W w, E e) {
      return InplaceTensorCall(f, a, T(a, ACL_FLOAT, m), T(a, ACL_COMPLEX64, m), nullptr, w, e);
    });
    inplace("self_rank9", [=](A& a, W w, E e) {
      return InplaceTensorCall(f, a, T(a, ACL_FLOAT, kRank9), T(a, ACL_FLOAT, {2}), nullptr, w, e);
    });
    if (alpha) {
      inplace("alpha_f32_on_s32", [=](A& a, W w, E e) {
        return InplaceTensorCall(f, a, T(a, ACL_INT32, m), T(a, ACL_INT32, m), S(a, ACL_FLOAT, 1.5), w, e);
      });
    }

    // In-place tensor (op) scalar.
    inplaceScalar("self_dtype_u16", [=](A& a, W w, E e) {
      return InplaceScalarCall(f, a, T(a, ACL_UINT16, m), S(a, ACL_INT32, 2), S(a, ACL_INT32, 1), w, e);
    });
    if (f == Family::kMul || f == Family::kDiv) {  // the InplaceAdds / InplaceSubs docs list no rank limit
      inplaceScalar("self_rank9", [=](A& a, W w, E e) {
        return InplaceScalarCall(f, a, T(a, ACL_FLOAT, kRank9), S(a, ACL_FLOAT, 2), nullptr, w, e);
      });
    }
    if (alpha) {
      inplaceScalar("f32_scalar_into_s32_self", [=](A& a, W w, E e) {
        return InplaceScalarCall(f, a, T(a, ACL_INT32, m), S(a, ACL_FLOAT, 1.5), nullptr, w, e);
      });
      inplaceScalar("alpha_c64_on_f32", [=](A& a, W w, E e) {
        return InplaceScalarCall(f, a, T(a, ACL_FLOAT, m), S(a, ACL_FLOAT, 2), S(a, ACL_COMPLEX64, Value(0, 1)), w, e);
      });
    }
  }
}

void AddCastCopyFillCases(std::vector<InvalidCase>& cases) {
  auto add = [&](std::string name, const char* keyword, Phase2 phase2, std::function<aclnnStatus(A&, W, E)> call) {
    cases.push_back({name, keyword, [call](A& a, W w, E e) { return call(a, w, e); }, phase2});
  };
  const Shape m = {2, 3};
  add("Cast_self_dtype_c32", "Cast", aclnnCast, [=](A& a, W w, E e) {
    return aclnnCastGetWorkspaceSize(T(a, ACL_COMPLEX32, m), ACL_COMPLEX64, T(a, ACL_COMPLEX64, m), w, e);
  });
  add("Cast_target_dtype_c32", "Cast", aclnnCast, [=](A& a, W w, E e) {
    return aclnnCastGetWorkspaceSize(T(a, ACL_FLOAT, m), ACL_COMPLEX32, T(a, ACL_COMPLEX32, m), w, e);
  });
  add("Cast_target_dtype_fp8", "Cast", aclnnCast, [=](A& a, W w, E e) {
    return aclnnCastGetWorkspaceSize(T(a, ACL_FLOAT, m), ACL_FLOAT8_E5M2, T(a, ACL_FLOAT8_E5M2, m), w, e);
  });
  add("Cast_target_dtype_undefined", "Cast", aclnnCast, [=](A& a, W w, E e) {
    return aclnnCastGetWorkspaceSize(T(a, ACL_FLOAT, m), ACL_DT_UNDEFINED, T(a, ACL_FLOAT, m), w, e);
  });
  add("Cast_shape_differs", "Cast", aclnnCast, [=](A& a, W w, E e) {
    return aclnnCastGetWorkspaceSize(T(a, ACL_FLOAT, m), ACL_FLOAT16, T(a, ACL_FLOAT16, {3, 2}), w, e);
  });
  add("Cast_out_is_broadcast_of_self", "Cast", aclnnCast, [=](A& a, W w, E e) {
    return aclnnCastGetWorkspaceSize(T(a, ACL_FLOAT, {3}), ACL_FLOAT16, T(a, ACL_FLOAT16, {2, 3}), w, e);
  });
  add("InplaceCopy_rank9", "Copy", aclnnInplaceCopy, [=](A& a, W w, E e) {
    return aclnnInplaceCopyGetWorkspaceSize(T(a, ACL_FLOAT, kRank9), T(a, ACL_FLOAT, kRank9), w, e);
  });
  add("InplaceCopy_src_not_broadcastable", "Copy", aclnnInplaceCopy, [=](A& a, W w, E e) {
    return aclnnInplaceCopyGetWorkspaceSize(T(a, ACL_FLOAT, {3, 4}), T(a, ACL_FLOAT, {2, 4}), w, e);
  });
  add("InplaceCopy_src_larger_than_self", "Copy", aclnnInplaceCopy, [=](A& a, W w, E e) {
    return aclnnInplaceCopyGetWorkspaceSize(T(a, ACL_FLOAT, {1, 4}), T(a, ACL_FLOAT, {3, 4}), w, e);
  });
  add("InplaceCopy_src_higher_rank", "Copy", aclnnInplaceCopy, [=](A& a, W w, E e) {
    return aclnnInplaceCopyGetWorkspaceSize(T(a, ACL_FLOAT, {4}), T(a, ACL_FLOAT, {1, 4, 4}), w, e);
  });
  add("InplaceCopy_src_dtype_c32", "Copy", aclnnInplaceCopy, [=](A& a, W w, E e) {
    return aclnnInplaceCopyGetWorkspaceSize(T(a, ACL_COMPLEX64, m), T(a, ACL_COMPLEX32, m), w, e);
  });
  add("InplaceCopy_self_dtype_c32", "Copy", aclnnInplaceCopy, [=](A& a, W w, E e) {
    return aclnnInplaceCopyGetWorkspaceSize(T(a, ACL_COMPLEX32, m), T(a, ACL_FLOAT, m), w, e);
  });
  for (aclDataType dt : {ACL_UINT32, ACL_UINT64, ACL_COMPLEX32}) {
    add(std::string("InplaceZero_dtype_") + Name(dt), "Zero", aclnnInplaceZero,
        [=](A& a, W w, E e) { return aclnnInplaceZeroGetWorkspaceSize(T(a, dt, m), w, e); });
  }
  add("InplaceFillScalar_dtype_c32", "Fill", aclnnInplaceFillScalar, [=](A& a, W w, E e) {
    return aclnnInplaceFillScalarGetWorkspaceSize(T(a, ACL_COMPLEX32, m), S(a, ACL_FLOAT, 1), w, e);
  });
  add("InplaceFillScalar_rank9", "Fill", aclnnInplaceFillScalar, [=](A& a, W w, E e) {
    return aclnnInplaceFillScalarGetWorkspaceSize(T(a, ACL_FLOAT, kRank9), S(a, ACL_FLOAT, 1), w, e);
  });
  // u16/u32/u64 only promote with themselves.
  add("InplaceFillScalar_u16_with_f32_value", "Fill", aclnnInplaceFillScalar, [=](A& a, W w, E e) {
    return aclnnInplaceFillScalarGetWorkspaceSize(T(a, ACL_UINT16, m), S(a, ACL_FLOAT, 1), w, e);
  });
  add("InplaceFillScalar_u64_with_s32_value", "Fill", aclnnInplaceFillScalar, [=](A& a, W w, E e) {
    return aclnnInplaceFillScalarGetWorkspaceSize(T(a, ACL_UINT64, m), S(a, ACL_INT32, 1), w, e);
  });
}

void AddMatmulCases(std::vector<InvalidCase>& cases) {
  auto add = [&](std::string name, const char* keyword, Phase2 phase2, std::function<aclnnStatus(A&, W, E)> call) {
    cases.push_back({name, keyword, [call](A& a, W w, E e) { return call(a, w, e); }, phase2});
  };
  const aclDataType f = ACL_FLOAT;
  auto matmul = [&](std::string name, Shape self, Shape mat2, Shape out, aclDataType dtype = ACL_FLOAT,
                    aclDataType outDtype = ACL_FLOAT, int8_t cube = 0, aclFormat selfFormat = ACL_FORMAT_ND) {
    add("Matmul_" + name, "Matmul", aclnnMatmul, [=](A& a, W w, E e) {
      return aclnnMatmulGetWorkspaceSize(T(a, dtype, self, View::kContiguous, selfFormat), T(a, dtype, mat2),
                                         T(a, outDtype, out), cube, w, e);
    });
  };
  matmul("dtype_f64", {2, 3}, {3, 4}, {2, 4}, ACL_DOUBLE, ACL_DOUBLE);
  matmul("dtype_s32", {2, 3}, {3, 4}, {2, 4}, ACL_INT32, ACL_INT32);
  matmul("dtype_s8", {2, 3}, {3, 4}, {2, 4}, ACL_INT8, ACL_INT32);
  matmul("out_dtype_s32", {2, 3}, {3, 4}, {2, 4}, f, ACL_INT32);
  matmul("self_rank0", {}, {3, 4}, {4});
  matmul("mat2_rank0", {3}, {}, {});
  matmul("self_rank7", {1, 1, 1, 1, 1, 2, 3}, {3, 4}, {1, 1, 1, 1, 1, 2, 4});
  matmul("mat2_rank7", {2, 3}, {1, 1, 1, 1, 1, 3, 4}, {1, 1, 1, 1, 1, 2, 4});
  matmul("k_mismatch", {2, 3}, {4, 5}, {2, 5});
  matmul("k_mismatch_vectors", {3}, {4}, {});
  matmul("k_mismatch_vector_matrix", {3}, {4, 5}, {5});
  matmul("k_mismatch_batch", {2, 3, 4}, {2, 5, 6}, {2, 3, 6});
  matmul("batch_not_broadcastable", {2, 3, 4}, {3, 4, 5}, {3, 3, 5});
  matmul("out_shape_mismatch", {2, 3}, {3, 4}, {2, 5});
  matmul("out_batch_mismatch", {2, 2, 3}, {3, 4}, {3, 2, 4});
  matmul("cube_5", {2, 3}, {3, 4}, {2, 4}, f, f, 5);
  matmul("cube_negative_2", {2, 3}, {3, 4}, {2, 4}, f, f, -2);
  matmul("self_fractal_nz", {2, 16, 16}, {16, 16}, {2, 16, 16}, f, f, 0, ACL_FORMAT_FRACTAL_NZ);

  auto mm = [&](std::string name, Shape self, Shape mat2, Shape out, aclDataType dtype = ACL_FLOAT, int8_t cube = 0,
                aclFormat selfFormat = ACL_FORMAT_ND) {
    add("Mm_" + name, "Mm", aclnnMm, [=](A& a, W w, E e) {
      return aclnnMmGetWorkspaceSize(T(a, dtype, self, View::kContiguous, selfFormat), T(a, dtype, mat2),
                                     T(a, dtype, out), cube, w, e);
    });
  };
  mm("self_rank3", {1, 2, 3}, {3, 4}, {2, 4});
  mm("self_rank1", {3}, {3, 4}, {4});
  mm("mat2_rank1", {2, 3}, {3}, {2});
  mm("out_rank3", {2, 3}, {3, 4}, {1, 2, 4});
  mm("k_mismatch", {2, 3}, {4, 5}, {2, 5});
  mm("out_shape_mismatch", {2, 3}, {3, 4}, {4, 2});
  mm("dtype_f64", {2, 3}, {3, 4}, {2, 4}, ACL_DOUBLE);
  mm("dtype_s32", {2, 3}, {3, 4}, {2, 4}, ACL_INT32);
  mm("cube_5", {2, 3}, {3, 4}, {2, 4}, f, 5);
  mm("self_fractal_nz", {16, 16}, {16, 16}, {16, 16}, f, 0, ACL_FORMAT_FRACTAL_NZ);

  auto bmm = [&](std::string name, Shape self, Shape mat2, Shape out, aclDataType dtype = ACL_FLOAT, int8_t cube = 0,
                 aclFormat selfFormat = ACL_FORMAT_ND) {
    add("BatchMatMul_" + name, "BatchMatMul", aclnnBatchMatMul, [=](A& a, W w, E e) {
      return aclnnBatchMatMulGetWorkspaceSize(T(a, dtype, self, View::kContiguous, selfFormat), T(a, dtype, mat2),
                                              T(a, dtype, out), cube, w, e);
    });
  };
  bmm("self_rank2", {2, 3}, {1, 3, 4}, {1, 2, 4});
  bmm("mat2_rank4", {1, 2, 3}, {1, 1, 3, 4}, {1, 2, 4});
  bmm("k_mismatch", {2, 2, 3}, {2, 4, 5}, {2, 2, 5});
  bmm("batch_mismatch", {2, 2, 3}, {3, 3, 4}, {3, 2, 4});
  bmm("out_batch_mismatch", {2, 2, 3}, {2, 3, 4}, {1, 2, 4});
  bmm("out_shape_mismatch", {2, 2, 3}, {2, 3, 4}, {2, 4, 2});
  bmm("dtype_f64", {2, 2, 3}, {2, 3, 4}, {2, 2, 4}, ACL_DOUBLE);
  bmm("cube_5", {2, 2, 3}, {2, 3, 4}, {2, 2, 4}, f, 5);
  bmm("self_fractal_nz", {2, 16, 16}, {2, 16, 16}, {2, 16, 16}, f, 0, ACL_FORMAT_FRACTAL_NZ);

  auto addmm = [&](std::string name, Shape self, Shape mat1, Shape mat2, Shape out, aclDataType dtype = ACL_FLOAT,
                   int8_t cube = 0, aclFormat selfFormat = ACL_FORMAT_ND) {
    add("Addmm_" + name, "Addmm", aclnnAddmm, [=](A& a, W w, E e) {
      return aclnnAddmmGetWorkspaceSize(T(a, dtype, self, View::kContiguous, selfFormat), T(a, dtype, mat1),
                                        T(a, dtype, mat2), One(a), One(a), T(a, dtype, out), cube, w, e);
    });
  };
  addmm("self_rank3", {1, 2, 4}, {2, 3}, {3, 4}, {2, 4});
  addmm("self_rank0", {}, {2, 3}, {3, 4}, {2, 4});
  addmm("self_not_broadcastable", {3, 4}, {2, 3}, {3, 4}, {2, 4});
  addmm("self_row_wrong_length", {5}, {2, 3}, {3, 4}, {2, 4});
  addmm("mat1_rank3", {4}, {1, 2, 3}, {3, 4}, {2, 4});
  addmm("mat2_rank1", {4}, {2, 3}, {3}, {2, 4});
  addmm("k_mismatch", {4}, {2, 3}, {5, 4}, {2, 4});
  addmm("out_shape_mismatch", {4}, {2, 3}, {3, 4}, {4, 2});
  addmm("dtype_f64", {4}, {2, 3}, {3, 4}, {2, 4}, ACL_DOUBLE);
  addmm("dtype_s32", {4}, {2, 3}, {3, 4}, {2, 4}, ACL_INT32);
  addmm("cube_5", {4}, {2, 3}, {3, 4}, {2, 4}, f, 5);
  addmm("self_fractal_nz", {16, 16}, {16, 16}, {16, 16}, {16, 16}, f, 0, ACL_FORMAT_FRACTAL_NZ);

  auto inplaceAddmm = [&](std::string name, Shape self, Shape mat1, Shape mat2, int8_t cube = 0) {
    add("InplaceAddmm_" + name, "Addmm", aclnnInplaceAddmm, [=](A& a, W w, E e) {
      return aclnnInplaceAddmmGetWorkspaceSize(T(a, f, self), T(a, f, mat1), T(a, f, mat2), One(a), One(a), cube, w, e);
    });
  };
  inplaceAddmm("self_is_row", {4}, {2, 3}, {3, 4});
  inplaceAddmm("self_is_column", {2, 1}, {2, 3}, {3, 4});
  inplaceAddmm("self_shape_mismatch", {4, 2}, {2, 3}, {3, 4});
  inplaceAddmm("k_mismatch", {2, 4}, {2, 3}, {5, 4});
  inplaceAddmm("cube_5", {2, 4}, {2, 3}, {3, 4}, 5);
}

std::vector<InvalidCase> InvalidCases() {
  std::vector<InvalidCase> cases;
  AddElementwiseCases(cases);
  AddCastCopyFillCases(cases);
  AddMatmulCases(cases);
  return cases;
}

class InvalidArgumentTest : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(InvalidArgumentTest, IsRejectedWithItsStatus) {
  const InvalidCase& x = GetParam();
  ExpectRejected(RunOp(x.phase1, x.phase2), x.expected, {x.keyword});
}

INSTANTIATE_TEST_SUITE_P(Cases, InvalidArgumentTest, ::testing::ValuesIn(InvalidCases()),
                         [](const ::testing::TestParamInfo<InvalidCase>& info) {
                           return SanitizeName(info.param.name);
                         });

}  // namespace
}  // namespace canopy_test
