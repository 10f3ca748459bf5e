// The op kit: one declaration per op. An op file writes its recipe (checks and
// steps on a Plan) and declares the op once:
//
//   constexpr OpTraits kAddTraits{.header = "aclnnop/aclnn_add.h", .dtypes = kArithmeticDtypes};
//   CANOPY_ACLNN_OP(Add, PlanAdd, kAddTraits,
//                   (const aclTensor*, self), (const aclTensor*, other), (const aclScalar*, alpha), (aclTensor*, out))
//
// From that line come both exported entry points with CANN's prototypes
// (aclnnAddGetWorkspaceSize and aclnnAdd, neither letting a C++ exception out),
// and the op's row in the registry (canopy/canopy_ops.h). Phase 1 then checks
// workspaceSize and executor and every pointer argument in prototype order
// (161001 naming the first null one); looks the call up in the plan cache, keyed
// by exactly the arguments the recipe receives; and only on a miss checks every
// tensor's format (private NPU formats are 161002 unless the traits allow them),
// rank (at most traits.max_rank) and addressability, and runs the recipe
// PlanAdd(Plan&, self, other, alpha, out). The recipe's parameter types are the
// prototype's, except that enums arrive as their raw int (a C caller may pass any
// int) and tensors as const pointers.
#pragma once

#include <cstring>
#include <type_traits>

#include "canopy/canopy_ops.h"
#include "canopy/canopy_runtime.h"
#include "common/c_boundary.h"
#include "op_registry.h"
#include "overlap.h"
#include "plan.h"

namespace canopy::ops {

// What an op declares about itself besides its arguments.
struct OpTraits {
  const char* header = nullptr;  // "aclnnop/aclnn_add.h", the CANN header declaring it
  DtypeSet dtypes;               // tensor dtypes it supports (the recipe checks each argument's own rule)
  int64_t max_rank = 8;          // of every tensor argument
  bool private_formats = false;  // true: FRACTAL_NZ etc. reach the recipe
  bool in_place = false;         // it writes its first tensor argument
  // A valid call, one token per argument ("f32[2,3] f32[2,3] f32:1 f32[2,3]"): the registry's
  // generic tests (null, format and rank rejections, phase 1 without memory) start from it.
  // Notation in docs/adding-an-op.md; null: they derive a call from the argument names.
  const char* example = nullptr;
};

// The same traits for the in-place form of an op, whose valid call is `example`.
constexpr OpTraits InPlace(OpTraits traits, const char* example = nullptr) {
  traits.in_place = true;
  traits.example = example;
  return traits;
}

// The same traits with another valid call (ops of one file that share their traits).
constexpr OpTraits WithExample(OpTraits traits, const char* example) {
  traits.example = example;
  return traits;
}

// ---- argument kinds ----------------------------------------------------------------------------

// The pointee of a pointer argument, without const: aclTensor, aclIntArray, char, ...
template <typename T>
using PointeeOf = std::remove_cv_t<std::remove_pointer_t<std::remove_cv_t<T>>>;

template <typename T>
constexpr canopyArgKind ArgKindOf() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_pointer_v<U>) {
    using P = PointeeOf<U>;
    if constexpr (std::is_same_v<P, aclTensor>) {
      return CANOPY_ARG_TENSOR;
    } else if constexpr (std::is_same_v<P, aclScalar>) {
      return CANOPY_ARG_SCALAR;
    } else if constexpr (std::is_same_v<P, aclIntArray>) {
      return CANOPY_ARG_INT_ARRAY;
    } else if constexpr (std::is_same_v<P, aclFloatArray>) {
      return CANOPY_ARG_FLOAT_ARRAY;
    } else if constexpr (std::is_same_v<P, aclBoolArray>) {
      return CANOPY_ARG_BOOL_ARRAY;
    } else if constexpr (std::is_same_v<P, aclTensorList>) {
      return CANOPY_ARG_TENSOR_LIST;
    } else if constexpr (std::is_same_v<P, aclScalarList>) {
      return CANOPY_ARG_SCALAR_LIST;
    } else {
      // A string: `const char*`, or `char*` where CANN's prototype says so (inputLayout).
      static_assert(std::is_same_v<P, char>, "pointer arguments are tensors, scalars, arrays, lists or strings");
      return CANOPY_ARG_STRING;
    }
  } else if constexpr (std::is_same_v<U, bool>) {
    return CANOPY_ARG_BOOL;
  } else if constexpr (std::is_floating_point_v<U>) {
    return CANOPY_ARG_FLOAT;
  } else if constexpr (std::is_enum_v<U>) {
    return CANOPY_ARG_ENUM;
  } else {
    static_assert(std::is_integral_v<U>, "unsupported phase-1 argument type");  // uint64_t too (splitSections)
    return CANOPY_ARG_INT;
  }
}

// `(type, name, optional)` in a declaration: the pointer argument may be null
// (an absent bias, a mean output not asked for). Null reaches the recipe there;
// anywhere else it is 161001.
inline constexpr bool kArgMarker_optional = true;
template <typename T, bool kOptional>
constexpr int32_t ArgOptional() {
  static_assert(!kOptional || std::is_pointer_v<T>, "only a pointer argument can be optional");
  return kOptional ? 1 : 0;
}

// What the recipe (and the plan-cache key) receives for an argument: pointers
// and numbers as they are, enums as the int the caller passed.
template <typename T>
auto ToRecipeArg(const T& argument) {
  if constexpr (std::is_enum_v<T>) {
    return RawEnumValue(argument);
  } else {
    return argument;
  }
}

// Reads one argument of a packed call (canopyOpPhase1Call) as the recipe takes
// it. An enum is read as its int: an out-of-range value is never held in the
// enum type; a bool is read as a byte (any non-zero byte is true).
template <typename T>
auto UnpackRecipeArg(const void* pointer) {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_enum_v<U>) {
    static_assert(sizeof(U) == sizeof(int));
    int raw;
    std::memcpy(&raw, pointer, sizeof raw);
    return raw;
  } else if constexpr (std::is_same_v<U, bool>) {
    unsigned char byte;
    std::memcpy(&byte, pointer, sizeof byte);
    return byte != 0;
  } else {
    U value;
    std::memcpy(&value, pointer, sizeof value);
    return value;
  }
}

// ---- the phases ----------------------------------------------------------------------------------

namespace detail {

// (The checks below test inline and call out only to reject: phase 1 on a
// plan-cache hit is a fraction of a microsecond.)
aclnnStatus RejectNullElement(Plan& plan, const char* name, size_t index);
template <typename T>
[[gnu::always_inline]] inline aclnnStatus CheckPresent(Plan& plan, const canopyOpArg& arg, const T& value) {
  if constexpr (std::is_pointer_v<T>) {
    if (value == nullptr) return arg.optional != 0 ? ACLNN_SUCCESS : plan.CheckNotNull(arg.name, value);
    // A list is present only with every element: the key and the checks read each one.
    if constexpr (std::is_same_v<PointeeOf<T>, aclTensorList>) {
      for (size_t i = 0; i < value->tensors.size(); ++i) {
        if (value->tensors[i] == nullptr) return RejectNullElement(plan, arg.name, i);
      }
    } else if constexpr (std::is_same_v<PointeeOf<T>, aclScalarList>) {
      for (size_t i = 0; i < value->scalars.size(); ++i) {
        if (value->scalars[i] == nullptr) return RejectNullElement(plan, arg.name, i);
      }
    }
  }
  return ACLNN_SUCCESS;
}

// The checks every tensor argument gets: format, rank, addressability.
aclnnStatus CheckTensor(Plan& plan, const canopyOpInfo& op, const char* name, const aclTensor* tensor);
aclnnStatus CheckTensorList(Plan& plan, const canopyOpInfo& op, const char* name, const aclTensorList* list);
template <typename T>
[[gnu::always_inline]] inline aclnnStatus CheckArgument(Plan& plan, const canopyOpInfo& op, const canopyOpArg& arg,
                                                        const T& value) {
  if constexpr (std::is_pointer_v<T> && std::is_same_v<PointeeOf<T>, aclTensor>) {
    if (value == nullptr) return ACLNN_SUCCESS;  // an optional tensor left out
    const bool format_ok = op.privateFormats != 0 || IsPlainFormat(value->format);
    if (format_ok && value->rank() <= op.maxRank) {
      return plan.CheckViewRepresentable(value);
    }
    return CheckTensor(plan, op, arg.name, value);
  } else if constexpr (std::is_pointer_v<T> && std::is_same_v<PointeeOf<T>, aclTensorList>) {
    return value == nullptr ? ACLNN_SUCCESS : CheckTensorList(plan, op, arg.name, value);
  } else {
    return ACLNN_SUCCESS;
  }
}

// Adds one argument, as the recipe receives it, to the plan-cache key.
template <typename T>
[[gnu::always_inline]] inline void AddToKey(PlanKey& key, const T& value) {
  if constexpr (std::is_pointer_v<T>) {
    using P = PointeeOf<T>;
    if constexpr (std::is_same_v<P, aclTensor> || std::is_same_v<P, aclScalar>) {
      key.Add(value);
    } else if constexpr (std::is_same_v<P, aclIntArray>) {
      key.AddIntArray(value);
    } else if constexpr (std::is_same_v<P, aclFloatArray>) {
      key.AddFloatArray(value);
    } else if constexpr (std::is_same_v<P, aclBoolArray>) {
      key.AddBoolArray(value);
    } else if constexpr (std::is_same_v<P, aclTensorList>) {
      key.AddTensorList(value);
    } else if constexpr (std::is_same_v<P, aclScalarList>) {
      key.AddScalarList(value);
    } else {
      key.AddString(value);
    }
  } else if constexpr (std::is_floating_point_v<T>) {
    key.AddDouble(static_cast<double>(value));
  } else {
    key.Add(static_cast<int64_t>(value));  // integers, enums (as int) and bools
  }
}

// Adds " name=value" to the key's description (only while tracing).
template <typename T>
void DescribeToKey(PlanKey& key, const canopyOpArg& arg, const T& value) {
  if constexpr (std::is_pointer_v<T>) {
    if constexpr (std::is_same_v<PointeeOf<T>, char>) {
      DescribeArgument(key.description(), arg.name, static_cast<const char*>(value));
    } else {
      DescribeArgument(key.description(), arg.name, static_cast<const PointeeOf<T>*>(value));
    }
  } else if constexpr (std::is_same_v<T, bool>) {
    DescribeArgument(key.description(), arg.name, value);
  } else if constexpr (std::is_floating_point_v<T>) {
    DescribeArgument(key.description(), arg.name, static_cast<double>(value));
  } else {
    DescribeArgument(key.description(), arg.name, static_cast<int64_t>(value));
  }
}

// What phase 1 answered from the plan cache logs and traces (CANOPY_VERBOSE, tracing).
void ReportCacheHit(const Plan& plan, const PlanKey& key, aclOpExecutor* executor, bool tracing, int64_t begin_ns);
// Phase 1 on a plan-cache miss: `plan_steps(plan, context)` runs the recipe, then
// the plan is finished and, when `cacheable`, published. Compiled once, not per op.
aclnnStatus PlanAndPublish(Plan& plan, const PlanKey& key, uint64_t* workspace_size, aclOpExecutor** executor,
                           aclnnStatus (*plan_steps)(Plan&, const void*), const void* context, bool cacheable,
                           bool tracing, int64_t begin_ns);

}  // namespace detail

// Phase 1 of `op`: the checks, the plan cache and, on a miss, `recipe`. The
// arguments take the recipe's parameter types, so the key holds exactly what the
// recipe receives.
template <typename... R>
aclnnStatus RunPhase1(const canopyOpInfo& op, const char* entry_name, uint64_t* workspace_size,
                      aclOpExecutor** executor, aclnnStatus (*recipe)(Plan&, R...),
                      std::type_identity_t<R>... arguments) {
  static_assert(sizeof...(R) > 0);
  const bool tracing = canopyTraceEnabled() != 0;
  const int64_t begin_ns = tracing ? canopyTraceNowNs() : 0;
  Plan plan(entry_name);
  if (aclnnStatus s = plan.CheckNotNull("workspaceSize", workspace_size); s != ACLNN_SUCCESS) return s;
  if (aclnnStatus s = plan.CheckNotNull("executor", executor); s != ACLNN_SUCCESS) return s;
  aclnnStatus status = ACLNN_SUCCESS;
  size_t index = 0;
  ((status = status != ACLNN_SUCCESS ? status : detail::CheckPresent(plan, op.args[index], arguments), ++index), ...);
  if (status != ACLNN_SUCCESS) return status;
  // One key per thread, reused: its buffers keep their capacity, so a hit
  // allocates only the executor. (No recipe runs another op's phase 1.)
  thread_local PlanKey key;
  key.Reset(entry_name);
  const bool cacheable = PlanCacheEnabled();
  if (cacheable || tracing) (detail::AddToKey(key, arguments), ...);
  if (cacheable && op.privateFormats != 0) key.AddStorageShapes();
  if (tracing) {
    index = 0;
    ((detail::DescribeToKey(key, op.args[index], arguments), ++index), ...);
  }
  if (cacheable) {
    AddOverlapPattern(key);
    if (auto cached = PlanCache::Get().Find(key)) {
      aclOpExecutor* created = PlanCache::Instantiate(entry_name, *cached, key);
      *workspace_size = cached->plan->workspace_size;
      if (tracing || VerboseEnabled()) detail::ReportCacheHit(plan, key, created, tracing, begin_ns);
      // The client gets a handle to the executor, not its address (nnopbase/executor_handles.h).
      return PublishExecutor(created, executor);
    }
  }
  // A hit skips the tensors' checks: the key holds every property they look at
  // (dtype, format, rank, shape, strides, offset), and only accepted calls are cached.
  index = 0;
  ((status = status != ACLNN_SUCCESS ? status : detail::CheckArgument(plan, op, op.args[index], arguments), ++index),
   ...);
  if (status != ACLNN_SUCCESS) return status;
  const auto run_recipe = [&](Plan& p) { return recipe(p, arguments...); };
  using RunRecipe = decltype(run_recipe);
  return detail::PlanAndPublish(
      plan, key, workspace_size, executor,
      [](Plan& p, const void* context) { return (*static_cast<const RunRecipe*>(context))(p); }, &run_recipe, cacheable,
      tracing, begin_ns);
}

}  // namespace canopy::ops

// ---- the declaration macro --------------------------------------------------------------------

// CANOPY_OP_FOR_EACH(M, a, b, c) is M(0, a) M(1, b) M(2, c); up to 48 arguments
// (FusedInferAttentionScoreV2 takes 39).
#define CANOPY_OP_COUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, _19, _20, \
                         _21, _22, _23, _24, _25, _26, _27, _28, _29, _30, _31, _32, _33, _34, _35, _36, _37, _38,  \
                         _39, _40, _41, _42, _43, _44, _45, _46, _47, _48, N, ...)                                  \
  N
#define CANOPY_OP_COUNT(...)                                                                                          \
  CANOPY_OP_COUNT_(__VA_ARGS__, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28,   \
                   27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, \
                   0)
#define CANOPY_OP_CAT_(a, b) a##b
#define CANOPY_OP_CAT(a, b) CANOPY_OP_CAT_(a, b)
#define CANOPY_OP_EACH_1(M, x) M(0, x)
#define CANOPY_OP_EACH_2(M, x, ...) M(1, x) CANOPY_OP_EACH_1(M, __VA_ARGS__)
#define CANOPY_OP_EACH_3(M, x, ...) M(2, x) CANOPY_OP_EACH_2(M, __VA_ARGS__)
#define CANOPY_OP_EACH_4(M, x, ...) M(3, x) CANOPY_OP_EACH_3(M, __VA_ARGS__)
#define CANOPY_OP_EACH_5(M, x, ...) M(4, x) CANOPY_OP_EACH_4(M, __VA_ARGS__)
#define CANOPY_OP_EACH_6(M, x, ...) M(5, x) CANOPY_OP_EACH_5(M, __VA_ARGS__)
#define CANOPY_OP_EACH_7(M, x, ...) M(6, x) CANOPY_OP_EACH_6(M, __VA_ARGS__)
#define CANOPY_OP_EACH_8(M, x, ...) M(7, x) CANOPY_OP_EACH_7(M, __VA_ARGS__)
#define CANOPY_OP_EACH_9(M, x, ...) M(8, x) CANOPY_OP_EACH_8(M, __VA_ARGS__)
#define CANOPY_OP_EACH_10(M, x, ...) M(9, x) CANOPY_OP_EACH_9(M, __VA_ARGS__)
#define CANOPY_OP_EACH_11(M, x, ...) M(10, x) CANOPY_OP_EACH_10(M, __VA_ARGS__)
#define CANOPY_OP_EACH_12(M, x, ...) M(11, x) CANOPY_OP_EACH_11(M, __VA_ARGS__)
#define CANOPY_OP_EACH_13(M, x, ...) M(12, x) CANOPY_OP_EACH_12(M, __VA_ARGS__)
#define CANOPY_OP_EACH_14(M, x, ...) M(13, x) CANOPY_OP_EACH_13(M, __VA_ARGS__)
#define CANOPY_OP_EACH_15(M, x, ...) M(14, x) CANOPY_OP_EACH_14(M, __VA_ARGS__)
#define CANOPY_OP_EACH_16(M, x, ...) M(15, x) CANOPY_OP_EACH_15(M, __VA_ARGS__)
#define CANOPY_OP_EACH_17(M, x, ...) M(16, x) CANOPY_OP_EACH_16(M, __VA_ARGS__)
#define CANOPY_OP_EACH_18(M, x, ...) M(17, x) CANOPY_OP_EACH_17(M, __VA_ARGS__)
#define CANOPY_OP_EACH_19(M, x, ...) M(18, x) CANOPY_OP_EACH_18(M, __VA_ARGS__)
#define CANOPY_OP_EACH_20(M, x, ...) M(19, x) CANOPY_OP_EACH_19(M, __VA_ARGS__)
#define CANOPY_OP_EACH_21(M, x, ...) M(20, x) CANOPY_OP_EACH_20(M, __VA_ARGS__)
#define CANOPY_OP_EACH_22(M, x, ...) M(21, x) CANOPY_OP_EACH_21(M, __VA_ARGS__)
#define CANOPY_OP_EACH_23(M, x, ...) M(22, x) CANOPY_OP_EACH_22(M, __VA_ARGS__)
#define CANOPY_OP_EACH_24(M, x, ...) M(23, x) CANOPY_OP_EACH_23(M, __VA_ARGS__)
#define CANOPY_OP_EACH_25(M, x, ...) M(24, x) CANOPY_OP_EACH_24(M, __VA_ARGS__)
#define CANOPY_OP_EACH_26(M, x, ...) M(25, x) CANOPY_OP_EACH_25(M, __VA_ARGS__)
#define CANOPY_OP_EACH_27(M, x, ...) M(26, x) CANOPY_OP_EACH_26(M, __VA_ARGS__)
#define CANOPY_OP_EACH_28(M, x, ...) M(27, x) CANOPY_OP_EACH_27(M, __VA_ARGS__)
#define CANOPY_OP_EACH_29(M, x, ...) M(28, x) CANOPY_OP_EACH_28(M, __VA_ARGS__)
#define CANOPY_OP_EACH_30(M, x, ...) M(29, x) CANOPY_OP_EACH_29(M, __VA_ARGS__)
#define CANOPY_OP_EACH_31(M, x, ...) M(30, x) CANOPY_OP_EACH_30(M, __VA_ARGS__)
#define CANOPY_OP_EACH_32(M, x, ...) M(31, x) CANOPY_OP_EACH_31(M, __VA_ARGS__)
#define CANOPY_OP_EACH_33(M, x, ...) M(32, x) CANOPY_OP_EACH_32(M, __VA_ARGS__)
#define CANOPY_OP_EACH_34(M, x, ...) M(33, x) CANOPY_OP_EACH_33(M, __VA_ARGS__)
#define CANOPY_OP_EACH_35(M, x, ...) M(34, x) CANOPY_OP_EACH_34(M, __VA_ARGS__)
#define CANOPY_OP_EACH_36(M, x, ...) M(35, x) CANOPY_OP_EACH_35(M, __VA_ARGS__)
#define CANOPY_OP_EACH_37(M, x, ...) M(36, x) CANOPY_OP_EACH_36(M, __VA_ARGS__)
#define CANOPY_OP_EACH_38(M, x, ...) M(37, x) CANOPY_OP_EACH_37(M, __VA_ARGS__)
#define CANOPY_OP_EACH_39(M, x, ...) M(38, x) CANOPY_OP_EACH_38(M, __VA_ARGS__)
#define CANOPY_OP_EACH_40(M, x, ...) M(39, x) CANOPY_OP_EACH_39(M, __VA_ARGS__)
#define CANOPY_OP_EACH_41(M, x, ...) M(40, x) CANOPY_OP_EACH_40(M, __VA_ARGS__)
#define CANOPY_OP_EACH_42(M, x, ...) M(41, x) CANOPY_OP_EACH_41(M, __VA_ARGS__)
#define CANOPY_OP_EACH_43(M, x, ...) M(42, x) CANOPY_OP_EACH_42(M, __VA_ARGS__)
#define CANOPY_OP_EACH_44(M, x, ...) M(43, x) CANOPY_OP_EACH_43(M, __VA_ARGS__)
#define CANOPY_OP_EACH_45(M, x, ...) M(44, x) CANOPY_OP_EACH_44(M, __VA_ARGS__)
#define CANOPY_OP_EACH_46(M, x, ...) M(45, x) CANOPY_OP_EACH_45(M, __VA_ARGS__)
#define CANOPY_OP_EACH_47(M, x, ...) M(46, x) CANOPY_OP_EACH_46(M, __VA_ARGS__)
#define CANOPY_OP_EACH_48(M, x, ...) M(47, x) CANOPY_OP_EACH_47(M, __VA_ARGS__)
// The index counts down (M(n-1, first) ... M(0, last)); CANOPY_OP_POS turns it into the position.
#define CANOPY_OP_FOR_EACH(M, ...) CANOPY_OP_CAT(CANOPY_OP_EACH_, CANOPY_OP_COUNT(__VA_ARGS__))(M, __VA_ARGS__)

#define CANOPY_OP_TYPE_(type, name, ...) type
#define CANOPY_OP_NAME_(type, name, ...) name
// 1 for `(type, name, optional)`; a misspelt marker does not compile.
#define CANOPY_OP_OPTIONAL_(type, name, ...) \
  ::canopy::ops::ArgOptional<type, false __VA_OPT__(|| ::canopy::ops::kArgMarker_##__VA_ARGS__)>()
#define CANOPY_OP_PARAM(i, arg) CANOPY_OP_TYPE_ arg CANOPY_OP_NAME_ arg,
#define CANOPY_OP_RECIPE_ARG(i, arg) , ::canopy::ops::ToRecipeArg(CANOPY_OP_NAME_ arg)
#define CANOPY_OP_ARG_ROW(i, arg)                                            \
  {CANOPY_OP_STR_(CANOPY_OP_NAME_ arg), CANOPY_OP_STR_(CANOPY_OP_TYPE_ arg), \
   ::canopy::ops::ArgKindOf<CANOPY_OP_TYPE_ arg>(), sizeof(CANOPY_OP_TYPE_ arg), CANOPY_OP_OPTIONAL_ arg},
#define CANOPY_OP_STR_(x) CANOPY_OP_STR2_(x)
#define CANOPY_OP_STR2_(x) #x
#define CANOPY_OP_UNPACK_(count, i, type) , ::canopy::ops::UnpackRecipeArg<type>(args[(count)-1 - (i)])
#define CANOPY_OP_UNPACK(i, arg) CANOPY_OP_UNPACK_(canopy_op_arg_count, i, CANOPY_OP_TYPE_ arg)

// Declares op aclnn<Name>: `Recipe` plans it, `Traits` (an OpTraits) describes
// it, and the rest are its prototype's arguments as (type, name) pairs, in order,
// without workspaceSize and executor.
#define CANOPY_ACLNN_OP(Name, Recipe, Traits, ...)                                                              \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(                                                         \
      CANOPY_OP_FOR_EACH(CANOPY_OP_PARAM, __VA_ARGS__) uint64_t* workspaceSize, aclOpExecutor** executor);      \
  extern "C" aclnnStatus aclnn##Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,          \
                                     aclrtStream stream);                                                       \
  namespace {                                                                                                   \
  const canopyOpArg canopy_op_args_##Name[] = {CANOPY_OP_FOR_EACH(CANOPY_OP_ARG_ROW, __VA_ARGS__)};             \
  aclnnStatus canopy_op_call_##Name(void* const* args, uint64_t* workspaceSize, aclOpExecutor** executor);      \
  const canopyOpInfo canopy_op_info_##Name = ::canopy::ops::MakeOpInfo(                                         \
      #Name, Traits, canopy_op_args_##Name, CANOPY_OP_COUNT(__VA_ARGS__),                                       \
      reinterpret_cast<void (*)(void)>(&aclnn##Name##GetWorkspaceSize), &canopy_op_call_##Name, &aclnn##Name);  \
  const ::canopy::ops::OpRegistrar canopy_op_registrar_##Name{canopy_op_info_##Name};                           \
  /* The packed call runs the same phase 1 as the entry point, and fails as it does. */                         \
  aclnnStatus canopy_op_call_##Name(void* const* args, uint64_t* workspaceSize, aclOpExecutor** executor) try { \
    constexpr int canopy_op_arg_count = CANOPY_OP_COUNT(__VA_ARGS__);                                           \
    return ::canopy::ops::RunPhase1(canopy_op_info_##Name, "aclnn" #Name, workspaceSize, executor,              \
                                    &Recipe CANOPY_OP_FOR_EACH(CANOPY_OP_UNPACK, __VA_ARGS__));                 \
  } catch (...) {                                                                                               \
    return ::canopy::AclnnStatusOfCurrentException("aclnn" #Name "GetWorkspaceSize");                           \
  }                                                                                                             \
  }                                                                                                             \
  extern "C" aclnnStatus aclnn##Name##GetWorkspaceSize(                                                         \
      CANOPY_OP_FOR_EACH(CANOPY_OP_PARAM, __VA_ARGS__) uint64_t* workspaceSize, aclOpExecutor** executor) try { \
    return ::canopy::ops::RunPhase1(canopy_op_info_##Name, "aclnn" #Name, workspaceSize, executor,              \
                                    &Recipe CANOPY_OP_FOR_EACH(CANOPY_OP_RECIPE_ARG, __VA_ARGS__));             \
  }                                                                                                             \
  CANOPY_C_BOUNDARY_ACLNN                                                                                       \
  extern "C" aclnnStatus aclnn##Name(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,          \
                                     aclrtStream stream) try {                                                  \
    return ::canopy::LaunchExecutor("aclnn" #Name, workspace, workspaceSize, executor, stream);                 \
  }                                                                                                             \
  CANOPY_C_BOUNDARY_ACLNN
