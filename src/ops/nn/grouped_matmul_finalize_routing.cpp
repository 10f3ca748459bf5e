// aclnnGroupedMatmulFinalizeRouting, V2 and V3, and the WeightNz forms: MoE experts'
// grouped products with their dequantisation, then the finalize-routing scatter-add of
// each row into its token row of y, with the shared expert's rows
// (kernels/grouped_matmul_finalize.h).
// CANN's ND entry points take only the A8W4 form: x INT8 [m, k], w INT32 [e, k, n / 8]
// (eight int4 each), scale INT64 [e, 1, n], bias FLOAT [e, n], pertokenScale, logit
// FLOAT [m], groupList INT64 [e] of counts (groupListType 1), sharedInput BF16
// [s, n], rowIndex INT64 [m], y FLOAT [bs, n]; every one required (161001), V2 and
// V3 adding offsetOptional FLOAT [e, 1, n] (x's row sums times it) and antiquant
// lists that must be null (161001, as CANN's code). The checks are CANN's host
// code's, in its order, with its codes; its tiling's K limit is 561002. w in
// FRACTAL_NZ is read through its view (Canopy's NZ is ND), with NZ's N alignment.
// WeightNz and WeightNzV2 add the A8W8 form: x2 INT8 [e, k, n] in FRACTAL_NZ (or ND,
// as Canopy's TransMatmulWeight leaves a weight), scale FLOAT or BF16 [e, n], bias BF16
// [e, n] or null, pertokenScale optional, sharedInput and logit both given (scatter-add
// after the shared rows) or both null (each row replaces its target, the rest of out
// is kept), rowIndex INT64 or INT32; WeightNzV2 also takes the INT32-packed A8W4 form.
// CANN's host code takes an INT64 scale for INT8 weights, but its op definition has no
// such kernel (phase 1 fails finding one, 561103); it reads an A8W8 bias as [e, n]
// without checking its shape, which Canopy checks.
#include "aclnnop/aclnn_grouped_matmul_finalize_routing.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_v2.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_v3.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz_v2.h"
#include "kernels/grouped_matmul_finalize.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kFinalizeDtypes = {ACL_INT8, ACL_INT32, ACL_INT64, ACL_FLOAT, ACL_BF16};
constexpr int64_t kA8W8KAlign = 16, kA8W8NAlign = 32, kA8W8MinN = 256;
constexpr int64_t kInt4PerInt32 = 8;
constexpr int64_t kKAlign = 64, kNAlignNd = 8, kNAlignNz = 64;
constexpr int64_t kMinKExclusive = 128, kMinNExclusive = 64;
constexpr int64_t kMaxKExclusive = 18432;  // CANN's A8W4 tiling
constexpr int64_t kCountsListType = 1;

// The prototype's names of the arguments after x and w (the ND entry points' by default).
struct FinalizeNames {
  const char* scale = "scaleOptional";
  const char* bias = "biasOptional";
  const char* group_list = "groupListOptional";
  const char* shared = "sharedInputOptional";
  const char* logit = "logitOptional";
  const char* row_index = "rowIndexOptional";
};

constexpr FinalizeNames kWeightNzNames{.scale = "scale",
                                       .bias = "bias",
                                       .group_list = "groupList",
                                       .shared = "sharedInput",
                                       .logit = "logit",
                                       .row_index = "rowIndex"};

struct FinalizeArgs {
  const char* op = "";
  FinalizeNames names = {};
  const char* x_name = "x";
  const char* w_name = "w";
  const char* transpose_x_name = "transposeX";
  const char* transpose_w_name = "transposeW";
  const char* y_name = "y";
  const aclTensor *x = nullptr, *w = nullptr, *scale = nullptr, *bias = nullptr, *offset = nullptr;
  const aclTensor *pertoken = nullptr, *group_list = nullptr, *shared = nullptr, *logit = nullptr;
  const aclTensor *row_index = nullptr, *y = nullptr;
  int64_t dtype = 0, shared_offset = 0, group_list_type = 0;
  float shared_weight = 1.0f;
  bool transpose_x = false, transpose_w = false;
  const aclIntArray* tuning_config = nullptr;
  bool has_offset_argument = false;  // V2, V3: offsetOptional and the antiquant lists
  bool weight_nz_entry = false;      // WeightNz, WeightNzV2: CANN's scene checks, optional tensors
  const aclTensor *antiquant_scale = nullptr, *antiquant_offset = nullptr;  // WeightNzV2: not used
};

bool Int8Weight(const FinalizeArgs& a) { return a.w->dtype == ACL_INT8; }

aclnnStatus Invalid(Plan& plan, const char* format, auto... values) {
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, format, values...);
}

aclnnStatus CheckDtypes(Plan& plan, const FinalizeArgs& a) {
  const FinalizeNames& names = a.names;
  CANOPY_CHECK(plan.CheckDtype(a.x_name, a.x->dtype, DtypeSet{ACL_INT8}));
  if (Int8Weight(a)) {
    CANOPY_CHECK(plan.CheckDtype(names.scale, a.scale->dtype, DtypeSet{ACL_FLOAT, ACL_INT64, ACL_BF16}));
    CANOPY_CHECK(plan.CheckDtype(names.row_index, a.row_index->dtype, DtypeSet{ACL_INT64, ACL_INT32}));
    if (a.bias != nullptr) CANOPY_CHECK(plan.CheckDtype(names.bias, a.bias->dtype, DtypeSet{ACL_BF16}));
  } else {
    CANOPY_CHECK(plan.CheckDtype(names.scale, a.scale->dtype, DtypeSet{ACL_INT64}));
    CANOPY_CHECK(plan.CheckDtype(names.row_index, a.row_index->dtype, DtypeSet{ACL_INT64}));
    if (a.offset != nullptr) CANOPY_CHECK(plan.CheckDtype("offsetOptional", a.offset->dtype, DtypeSet{ACL_FLOAT}));
    CANOPY_CHECK(plan.CheckDtype(names.bias, a.bias->dtype, DtypeSet{ACL_FLOAT}));
  }
  if (a.pertoken != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("pertokenScaleOptional", a.pertoken->dtype, DtypeSet{ACL_FLOAT}));
  }
  CANOPY_CHECK(plan.CheckDtype(names.group_list, a.group_list->dtype, DtypeSet{ACL_INT64}));
  if (a.shared != nullptr) CANOPY_CHECK(plan.CheckDtype(names.shared, a.shared->dtype, DtypeSet{ACL_BF16}));
  if (a.logit != nullptr) CANOPY_CHECK(plan.CheckDtype(names.logit, a.logit->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype(a.y_name, a.y->dtype, DtypeSet{ACL_FLOAT}));
  if (Int8Weight(a) && a.scale->dtype == ACL_INT64) {
    return plan.Reject(ACLNN_ERR_INNER_NULLPTR, "%s is INT64: no kernel takes it with INT8 weights", names.scale);
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckRanks(Plan& plan, const FinalizeArgs& a) {
  const FinalizeNames& names = a.names;
  CANOPY_CHECK(plan.CheckRank(a.w_name, a.w, 3, 3));
  CANOPY_CHECK(plan.CheckRank(a.x_name, a.x, 2, 2));
  CANOPY_CHECK(plan.CheckRank(a.y_name, a.y, 2, 2));
  const int64_t scale_rank = Int8Weight(a) ? 2 : 3;
  CANOPY_CHECK(plan.CheckRank(names.scale, a.scale, scale_rank, scale_rank));
  if (!Int8Weight(a)) {
    if (a.offset != nullptr) CANOPY_CHECK(plan.CheckRank("offsetOptional", a.offset, 3, 3));
    CANOPY_CHECK(plan.CheckRank(names.bias, a.bias, 2, 2));
  }
  if (a.pertoken != nullptr) CANOPY_CHECK(plan.CheckRank("pertokenScaleOptional", a.pertoken, 1, 1));
  CANOPY_CHECK(plan.CheckRank(names.group_list, a.group_list, 1, 1));
  if (a.shared != nullptr) CANOPY_CHECK(plan.CheckRank(names.shared, a.shared, 2, 2));
  if (a.logit != nullptr) CANOPY_CHECK(plan.CheckRank(names.logit, a.logit, 1, 1));
  return plan.CheckRank(names.row_index, a.row_index, 1, 1);
}

// The weight's k and n: A8W4's alignment (NZ's n stricter) or A8W8's.
aclnnStatus CheckExtents(Plan& plan, const FinalizeArgs& a, int64_t k, int64_t n) {
  if (Int8Weight(a)) {
    if (k % kA8W8KAlign != 0 || n % kA8W8NAlign != 0 || n < kA8W8MinN) {
      return Invalid(
          plan,
          "%s: k %lld and n %lld are not supported; k must be a multiple of %lld, n a multiple of %lld of at "
          "least %lld",
          a.w_name, static_cast<long long>(k), static_cast<long long>(n), static_cast<long long>(kA8W8KAlign),
          static_cast<long long>(kA8W8NAlign), static_cast<long long>(kA8W8MinN));
    }
    return ACLNN_SUCCESS;
  }
  const bool nz = a.w->format == ACL_FORMAT_FRACTAL_NZ;
  const int64_t n_align = nz ? kNAlignNz : kNAlignNd;
  if (n % n_align != 0 || k % kKAlign != 0 || n <= kMinNExclusive || k <= kMinKExclusive) {
    return Invalid(plan,
                   "%s: k %lld and n %lld (eight int4 per INT32) are not supported; k must be a multiple of %lld above "
                   "%lld, n a multiple of %lld above %lld",
                   a.w_name, static_cast<long long>(k), static_cast<long long>(n), static_cast<long long>(kKAlign),
                   static_cast<long long>(kMinKExclusive), static_cast<long long>(n_align),
                   static_cast<long long>(kMinNExclusive));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShapes(Plan& plan, const FinalizeArgs& a, int64_t& m, int64_t& k, int64_t& n, int64_t& e) {
  const FinalizeNames& names = a.names;
  m = a.x->view_shape[0];
  k = a.x->view_shape[1];
  e = a.w->view_shape[0];
  const int64_t wk = a.w->view_shape[1];
  n = a.w->view_shape[2] * (Int8Weight(a) ? 1 : kInt4PerInt32);
  if (k != wk)
    return Invalid(plan, "%s's k (%lld) and %s's k (%lld) differ", a.x_name, static_cast<long long>(k), a.w_name,
                   static_cast<long long>(wk));
  CANOPY_CHECK(CheckExtents(plan, a, k, n));
  const int64_t rows = a.y->view_shape[0];
  if (rows > m)
    return Invalid(plan, "%s has %lld rows, more than x's %lld", a.y_name, static_cast<long long>(rows),
                   static_cast<long long>(m));
  if (a.y->view_shape[1] != n) {
    return Invalid(plan, "%s's last dimension is %lld; the weight's n is %lld", a.y_name,
                   static_cast<long long>(a.y->view_shape[1]), static_cast<long long>(n));
  }
  if (a.shared_offset < 0) {
    return Invalid(plan, "argument 'sharedInputOffset' is %lld; it must not be negative",
                   static_cast<long long>(a.shared_offset));
  }
  if (a.group_list_type != kCountsListType) {
    return Invalid(plan, "argument 'groupListType' is %lld; only 1 (counts) is supported",
                   static_cast<long long>(a.group_list_type));
  }
  if (Int8Weight(a)) {
    CANOPY_CHECK(plan.CheckShape(names.scale, a.scale, {e, n}));
  } else {
    CANOPY_CHECK(plan.CheckShape(names.scale, a.scale, {e, 1, n}));
    if (a.offset != nullptr) CANOPY_CHECK(plan.CheckShape("offsetOptional", a.offset, {e, 1, n}));
    CANOPY_CHECK(plan.CheckShape(names.bias, a.bias, {e, n}));
  }
  if (a.pertoken != nullptr) CANOPY_CHECK(plan.CheckShape("pertokenScaleOptional", a.pertoken, {m}));
  CANOPY_CHECK(plan.CheckShape(names.group_list, a.group_list, {e}));
  const int64_t shared_rows = a.shared != nullptr ? a.shared->view_shape[0] : 0;
  if (a.shared != nullptr && (shared_rows > rows || a.shared->view_shape[1] != n)) {
    return Invalid(plan, "%s %s must have at most %lld rows of %lld", names.shared,
                   ShapeToString(a.shared->view_shape).c_str(), static_cast<long long>(rows),
                   static_cast<long long>(n));
  }
  if (a.logit != nullptr) CANOPY_CHECK(plan.CheckShape(names.logit, a.logit, {m}));
  CANOPY_CHECK(plan.CheckShape(names.row_index, a.row_index, {m}));
  if (a.shared_offset > rows - shared_rows) {  // offset + rows past out's, written without the sum's overflow
    return Invalid(plan, "sharedInputOffset %lld plus %s's %lld rows pass %s's %lld rows",
                   static_cast<long long>(a.shared_offset), names.shared, static_cast<long long>(shared_rows), a.y_name,
                   static_cast<long long>(rows));
  }
  for (const auto& [name, t] :
       {std::pair{a.x_name, a.x}, std::pair{a.w_name, a.w}, std::pair{names.scale, a.scale},
        std::pair{"pertokenScaleOptional", a.pertoken}, std::pair{names.group_list, a.group_list},
        std::pair{names.shared, a.shared}, std::pair{names.logit, a.logit}, std::pair{names.row_index, a.row_index}}) {
    if (t != nullptr && t->NumElements() == 0) {
      return Invalid(plan, "argument '%s' is empty; empty tensors are not supported", name);
    }
  }
  // CANN reads an A8W8 bias as [e, n] without checking it.
  if (Int8Weight(a) && a.bias != nullptr) CANOPY_CHECK(plan.CheckShape(names.bias, a.bias, {e, n}));
  return ACLNN_SUCCESS;
}

aclnnStatus CheckFormats(Plan& plan, const FinalizeArgs& a) {
  const FinalizeNames& names = a.names;
  for (const auto& [name, t] :
       {std::pair{a.x_name, a.x}, std::pair{names.scale, a.scale}, std::pair{names.bias, a.bias},
        std::pair{"pertokenScaleOptional", a.pertoken}, std::pair{names.group_list, a.group_list},
        std::pair{names.shared, a.shared}, std::pair{names.logit, a.logit}, std::pair{names.row_index, a.row_index},
        std::pair{"offsetOptional", a.offset}, std::pair{a.y_name, a.y}}) {
    if (t != nullptr && t->format != ACL_FORMAT_ND) {
      return Invalid(plan, "argument '%s' has format %d; it must be ND", name, static_cast<int>(t->format));
    }
  }
  if (a.w->format != ACL_FORMAT_ND && a.w->format != ACL_FORMAT_FRACTAL_NZ) {
    return Invalid(plan, "argument '%s' has format %d; it must be ND or FRACTAL_NZ", a.w_name,
                   static_cast<int>(a.w->format));
  }
  return ACLNN_SUCCESS;
}

// The ND entry points' first checks.
aclnnStatus CheckNdScene(Plan& plan, const FinalizeArgs& a) {
  if (a.dtype != 0)
    return Invalid(plan, "argument 'dtype' is %lld; it must be 0 (FLOAT)", static_cast<long long>(a.dtype));
  if (a.w->rank() < 2)
    return Invalid(plan, "argument '%s' has %lld dimensions; at least 2", a.w_name,
                   static_cast<long long>(a.w->rank()));
  if (a.transpose_x || a.transpose_w) {
    return Invalid(plan, "arguments '%s' and '%s' must be false", a.transpose_x_name, a.transpose_w_name);
  }
  if (a.w->dtype != ACL_INT32) {
    return Invalid(plan, "argument '%s' is %s; it must be INT32 (eight int4 each)", a.w_name, DtypeName(a.w->dtype));
  }
  return ACLNN_SUCCESS;
}

// The WeightNz entry points' first checks (CANN's CheckSupportScene): sharedInput and
// logit both given or both null, dtype 0, no transposes, x1 ND and x2 NZ (or ND, as
// Canopy's TransMatmulWeight leaves it).
aclnnStatus CheckWeightNzScene(Plan& plan, const FinalizeArgs& a) {
  const FinalizeNames& names = a.names;
  if (a.w->dtype == ACL_INT32 && a.pertoken == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "pertokenScaleOptional is null: an INT32 %s needs it", a.w_name);
  }
  if ((a.shared == nullptr) != (a.logit == nullptr)) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "%s and %s must both be given or both be null", names.shared,
                       names.logit);
  }
  if (a.dtype != 0)
    return Invalid(plan, "argument 'dtype' is %lld; it must be 0 (FLOAT)", static_cast<long long>(a.dtype));
  if (a.w->rank() < 2)
    return Invalid(plan, "argument '%s' has %lld dimensions; at least 2", a.w_name,
                   static_cast<long long>(a.w->rank()));
  if (a.transpose_x || a.transpose_w) {
    return Invalid(plan, "arguments '%s' and '%s' must be false", a.transpose_x_name, a.transpose_w_name);
  }
  if (a.x->format != ACL_FORMAT_ND) {
    return Invalid(plan, "argument '%s' has format %d; it must be ND", a.x_name, static_cast<int>(a.x->format));
  }
  if (a.w->format != ACL_FORMAT_FRACTAL_NZ && a.w->format != ACL_FORMAT_ND) {
    return Invalid(plan, "argument '%s' has format %d; it must be FRACTAL_NZ", a.w_name, static_cast<int>(a.w->format));
  }
  if (a.w->dtype == ACL_INT4) {
    return plan.Reject(ACLNN_ERR_INNER_FIND_KERNEL_ERROR,
                       "%s is INT4: Canopy takes int4 weights packed eight to an INT32 (WeightNzV2)", a.w_name);
  }
  if (a.w->dtype != ACL_INT8 && a.w->dtype != ACL_INT32) {
    return Invalid(plan, "argument '%s' is %s; it must be INT8 (or INT32 holding eight int4 on WeightNzV2)", a.w_name,
                   DtypeName(a.w->dtype));
  }
  if (a.w->dtype == ACL_INT32 && a.bias == nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR, "%s is null: an INT32 %s needs it", names.bias, a.w_name);
  }
  return ACLNN_SUCCESS;
}

// A tensor argument that may be null: its operand, or its parameter skipped.
TensorRef InputOrSkip(Plan& plan, const aclTensor* t, const char* name) {
  if (t == nullptr) {
    plan.SkipInput();
    return TensorRef{};
  }
  return plan.Input(t, name);
}

aclnnStatus PlanFinalize(Plan& plan, const FinalizeArgs& a) {
  CANOPY_CHECK(a.weight_nz_entry ? CheckWeightNzScene(plan, a) : CheckNdScene(plan, a));
  CANOPY_CHECK(CheckDtypes(plan, a));
  CANOPY_CHECK(CheckRanks(plan, a));
  int64_t m = 0, k = 0, n = 0, e = 0;
  CANOPY_CHECK(CheckShapes(plan, a, m, k, n, e));
  CANOPY_CHECK(CheckFormats(plan, a));
  if (a.tuning_config != nullptr && !a.tuning_config->values.empty()) {
    const int64_t expected = a.tuning_config->values[0];
    if (expected < 0 || expected > m) {
      return Invalid(plan, "argument 'tuningConfigOptional' starts with %lld; it must be in [0, %lld]",
                     static_cast<long long>(expected), static_cast<long long>(m));
    }
  }
  const bool int8_weight = Int8Weight(a);
  if (!int8_weight && k >= kMaxKExclusive) {
    return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "k is %lld; the A8W4 form takes k below %lld",
                       static_cast<long long>(k), static_cast<long long>(kMaxKExclusive));
  }

  const FinalizeNames& names = a.names;
  kernels::GroupedMatmulFinalizeDesc d;
  d.op = a.op;
  d.m = m;
  d.k = k;
  d.n = n;
  d.experts = e;
  d.rows = a.y->view_shape[0];
  d.shared_rows = a.shared != nullptr ? a.shared->view_shape[0] : 0;
  d.shared_offset = a.shared_offset;
  d.shared_weight = a.shared_weight;
  d.int8_weight = int8_weight;
  d.scatter_add = a.shared != nullptr;  // with the logit (both or neither)
  // Operands in prototype order.
  const TensorRef x = plan.Input(a.x, a.x_name);
  const TensorRef w = plan.Input(a.w, a.w_name);
  const TensorRef scale = plan.Input(a.scale, names.scale);
  const TensorRef bias = InputOrSkip(plan, a.bias, names.bias);
  TensorRef offset;
  if (a.has_offset_argument) {
    offset = InputOrSkip(plan, a.offset, "offsetOptional");
    InputOrSkip(plan, a.antiquant_scale, "antiquantScaleOptional");  // not used
    InputOrSkip(plan, a.antiquant_offset, "antiquantOffsetOptional");
  }
  const TensorRef pertoken = InputOrSkip(plan, a.pertoken, "pertokenScaleOptional");
  const TensorRef group_list = plan.Input(a.group_list, names.group_list);
  const TensorRef shared = InputOrSkip(plan, a.shared, names.shared);
  const TensorRef logit = InputOrSkip(plan, a.logit, names.logit);
  const TensorRef row_index = plan.Input(a.row_index, names.row_index);
  const TensorRef y = plan.Output(a.y, a.y_name);

  d.x = plan.Contiguous(x, ACL_INT8).buffer;
  if (int8_weight) {
    d.w = plan.Contiguous(w, ACL_INT8).buffer;
    d.scale = plan.Contiguous(scale, ACL_FLOAT).buffer;
  } else {
    d.w = plan.Contiguous(w, ACL_INT32).buffer;
    d.scale = plan.Contiguous(scale, ACL_INT64).buffer;
    d.weight_scratch = plan.Temporary(ACL_INT8, {k, n}).buffer;
  }
  d.has_bias = a.bias != nullptr;
  if (d.has_bias) d.bias = plan.Contiguous(bias, ACL_FLOAT).buffer;
  if (a.offset != nullptr && !int8_weight) {
    d.has_offset = true;
    d.offset = plan.Contiguous(offset, ACL_FLOAT).buffer;
  }
  d.has_pertoken = a.pertoken != nullptr;
  if (d.has_pertoken) d.pertoken = plan.Contiguous(pertoken, ACL_FLOAT).buffer;
  d.group_list = plan.Contiguous(group_list, ACL_INT64).buffer;
  if (a.shared != nullptr) d.shared = plan.Contiguous(shared, ACL_FLOAT).buffer;
  d.has_logit = a.logit != nullptr;
  if (d.has_logit) d.logit = plan.Contiguous(logit, ACL_FLOAT).buffer;
  d.row_index = plan.Contiguous(row_index, ACL_INT64).buffer;
  d.values = plan.Temporary(ACL_FLOAT, {m, n}).buffer;
  const TensorRef result = plan.Temporary(ACL_FLOAT, y.shape);
  if (!d.scatter_add) plan.Copy(y, result);  // rows no expert writes keep their values
  d.y = result.buffer;
  plan.AddStep(kernels::MakeGroupedMatmulFinalizeStep(d));
  plan.Copy(result, y);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanV1(Plan& plan, const aclTensor* x, const aclTensor* w, const aclTensor* scale, const aclTensor* bias,
                   const aclTensor* pertoken, const aclTensor* group_list, const aclTensor* shared,
                   const aclTensor* logit, const aclTensor* row_index, int64_t dtype, float shared_weight,
                   int64_t shared_offset, bool transpose_x, bool transpose_w, int64_t group_list_type,
                   const aclTensor* y) {
  FinalizeArgs a{.op = "aclnnGroupedMatmulFinalizeRouting",
                 .x = x,
                 .w = w,
                 .scale = scale,
                 .bias = bias,
                 .pertoken = pertoken,
                 .group_list = group_list,
                 .shared = shared,
                 .logit = logit,
                 .row_index = row_index,
                 .y = y,
                 .dtype = dtype,
                 .shared_offset = shared_offset,
                 .group_list_type = group_list_type,
                 .shared_weight = shared_weight,
                 .transpose_x = transpose_x,
                 .transpose_w = transpose_w};
  return PlanFinalize(plan, a);
}

aclnnStatus PlanV3(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale, const aclTensor* bias,
                   const aclTensor* offset, const aclTensor* antiquant_scale, const aclTensor* antiquant_offset,
                   const aclTensor* pertoken, const aclTensor* group_list, const aclTensor* shared,
                   const aclTensor* logit, const aclTensor* row_index, int64_t dtype, float shared_weight,
                   int64_t shared_offset, bool transpose_x1, bool transpose_x2, int64_t group_list_type,
                   const aclIntArray* tuning_config, const aclTensor* out) {
  if (antiquant_scale != nullptr || antiquant_offset != nullptr) {
    return plan.Reject(ACLNN_ERR_PARAM_NULLPTR,
                       "antiquantScaleOptional and antiquantOffsetOptional are not used and must be null");
  }
  FinalizeArgs a{.op = "aclnnGroupedMatmulFinalizeRoutingV2/V3",
                 .x_name = "x1",
                 .w_name = "x2",
                 .transpose_x_name = "transposeX1",
                 .transpose_w_name = "transposeX2",
                 .y_name = "out",
                 .x = x1,
                 .w = x2,
                 .scale = scale,
                 .bias = bias,
                 .offset = offset,
                 .pertoken = pertoken,
                 .group_list = group_list,
                 .shared = shared,
                 .logit = logit,
                 .row_index = row_index,
                 .y = out,
                 .dtype = dtype,
                 .shared_offset = shared_offset,
                 .group_list_type = group_list_type,
                 .shared_weight = shared_weight,
                 .transpose_x = transpose_x1,
                 .transpose_w = transpose_x2,
                 .tuning_config = tuning_config,
                 .has_offset_argument = true};
  return PlanFinalize(plan, a);
}

aclnnStatus PlanV2(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale, const aclTensor* bias,
                   const aclTensor* offset, const aclTensor* antiquant_scale, const aclTensor* antiquant_offset,
                   const aclTensor* pertoken, const aclTensor* group_list, const aclTensor* shared,
                   const aclTensor* logit, const aclTensor* row_index, int64_t dtype, float shared_weight,
                   int64_t shared_offset, bool transpose_x1, bool transpose_x2, int64_t group_list_type,
                   const aclTensor* out) {
  return PlanV3(plan, x1, x2, scale, bias, offset, antiquant_scale, antiquant_offset, pertoken, group_list, shared,
                logit, row_index, dtype, shared_weight, shared_offset, transpose_x1, transpose_x2, group_list_type,
                nullptr, out);
}

// The arguments WeightNz and WeightNzV2 share.
FinalizeArgs WeightNzArgs(const char* op, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                          const aclTensor* bias, const aclTensor* pertoken, const aclTensor* group_list,
                          const aclTensor* shared, const aclTensor* logit, const aclTensor* row_index, int64_t dtype,
                          float shared_weight, int64_t shared_offset, bool transpose_x1, bool transpose_x2,
                          int64_t group_list_type, const aclTensor* out) {
  return FinalizeArgs{.op = op,
                      .names = kWeightNzNames,
                      .x_name = "x1",
                      .w_name = "x2",
                      .transpose_x_name = "transposeX1",
                      .transpose_w_name = "transposeX2",
                      .y_name = "out",
                      .x = x1,
                      .w = x2,
                      .scale = scale,
                      .bias = bias,
                      .pertoken = pertoken,
                      .group_list = group_list,
                      .shared = shared,
                      .logit = logit,
                      .row_index = row_index,
                      .y = out,
                      .dtype = dtype,
                      .shared_offset = shared_offset,
                      .group_list_type = group_list_type,
                      .shared_weight = shared_weight,
                      .transpose_x = transpose_x1,
                      .transpose_w = transpose_x2,
                      .weight_nz_entry = true};
}

// WeightNz: INT8 weights only (CANN's V1 does not unpack INT32).
aclnnStatus PlanWeightNz(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                         const aclTensor* bias, const aclTensor* pertoken, const aclTensor* group_list,
                         const aclTensor* shared, const aclTensor* logit, const aclTensor* row_index, int64_t dtype,
                         float shared_weight, int64_t shared_offset, bool transpose_x1, bool transpose_x2,
                         int64_t group_list_type, const aclTensor* out) {
  if (x2->dtype == ACL_INT32) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'x2' is INT32; it must be INT8 (int4 weights: WeightNzV2)");
  }
  return PlanFinalize(plan, WeightNzArgs("aclnnGroupedMatmulFinalizeRoutingWeightNz", x1, x2, scale, bias, pertoken,
                                         group_list, shared, logit, row_index, dtype, shared_weight, shared_offset,
                                         transpose_x1, transpose_x2, group_list_type, out));
}

// WeightNzV2: the antiquant tensors are not used (CANN ignores them); x2 INT32 is V2's
// A8W4 form behind the WeightNz scene checks.
aclnnStatus PlanWeightNzV2(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* scale,
                           const aclTensor* bias, const aclTensor* offset, const aclTensor* antiquant_scale,
                           const aclTensor* antiquant_offset, const aclTensor* pertoken, const aclTensor* group_list,
                           const aclTensor* shared, const aclTensor* logit, const aclTensor* row_index, int64_t dtype,
                           float shared_weight, int64_t shared_offset, bool transpose_x1, bool transpose_x2,
                           int64_t group_list_type, const aclIntArray* tuning_config, const aclTensor* out) {
  FinalizeArgs a = WeightNzArgs("aclnnGroupedMatmulFinalizeRoutingWeightNzV2", x1, x2, scale, bias, pertoken,
                                group_list, shared, logit, row_index, dtype, shared_weight, shared_offset, transpose_x1,
                                transpose_x2, group_list_type, out);
  a.offset = offset;
  a.tuning_config = tuning_config;
  a.has_offset_argument = true;
  a.antiquant_scale = antiquant_scale;
  a.antiquant_offset = antiquant_offset;
  return PlanFinalize(plan, a);
}

}  // namespace

CANOPY_ACLNN_OP(GroupedMatmulFinalizeRouting, PlanV1,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_finalize_routing.h",
                          .dtypes = kFinalizeDtypes,
                          .private_formats = true,
                          .example = "i8[2,256] i32[1,256,16] i64[1,1,128] f32[1,128] f32[2] i64[1]{2:2} bf16[1,128] "
                                     "f32[2] i64[2]{0:1} 0 1 0 false false 1 f32[2,128]"}),
                (const aclTensor*, x), (aclTensor*, w), (const aclTensor*, scaleOptional),
                (const aclTensor*, biasOptional), (const aclTensor*, pertokenScaleOptional),
                (const aclTensor*, groupListOptional), (const aclTensor*, sharedInputOptional),
                (const aclTensor*, logitOptional), (const aclTensor*, rowIndexOptional), (int64_t, dtype),
                (float, sharedInputWeight), (int64_t, sharedInputOffset), (bool, transposeX), (bool, transposeW),
                (int64_t, groupListType), (aclTensor*, y))

CANOPY_ACLNN_OP(GroupedMatmulFinalizeRoutingV2, PlanV2,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_finalize_routing_v2.h",
                          .dtypes = kFinalizeDtypes,
                          .private_formats = true,
                          .example = "i8[2,256] i32[1,256,16] i64[1,1,128] f32[1,128] f32[1,1,128] - - f32[2] "
                                     "i64[1]{2:2} bf16[1,128] f32[2] i64[2]{0:1} 0 1 0 false false 1 f32[2,128]"}),
                (const aclTensor*, x1), (aclTensor*, x2), (const aclTensor*, scaleOptional),
                (const aclTensor*, biasOptional), (const aclTensor*, offsetOptional, optional),
                (const aclTensor*, antiquantScaleOptional, optional),
                (const aclTensor*, antiquantOffsetOptional, optional), (const aclTensor*, pertokenScaleOptional),
                (const aclTensor*, groupListOptional), (const aclTensor*, sharedInputOptional),
                (const aclTensor*, logitOptional), (const aclTensor*, rowIndexOptional), (int64_t, dtype),
                (float, sharedInputWeight), (int64_t, sharedInputOffset), (bool, transposeX1), (bool, transposeX2),
                (int64_t, groupListType), (aclTensor*, out))

CANOPY_ACLNN_OP(GroupedMatmulFinalizeRoutingV3, PlanV3,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_finalize_routing_v3.h",
                          .dtypes = kFinalizeDtypes,
                          .private_formats = true,
                          .example = "i8[2,256] i32[1,256,16] i64[1,1,128] f32[1,128] f32[1,1,128] - - f32[2] "
                                     "i64[1]{2:2} bf16[1,128] f32[2] i64[2]{0:1} 0 1 0 false false 1 ints[1] "
                                     "f32[2,128]"}),
                (const aclTensor*, x1), (aclTensor*, x2), (const aclTensor*, scaleOptional),
                (const aclTensor*, biasOptional), (const aclTensor*, offsetOptional, optional),
                (const aclTensor*, antiquantScaleOptional, optional),
                (const aclTensor*, antiquantOffsetOptional, optional), (const aclTensor*, pertokenScaleOptional),
                (const aclTensor*, groupListOptional), (const aclTensor*, sharedInputOptional),
                (const aclTensor*, logitOptional), (const aclTensor*, rowIndexOptional), (int64_t, dtype),
                (float, sharedInputWeight), (int64_t, sharedInputOffset), (bool, transposeX1), (bool, transposeX2),
                (int64_t, groupListType), (const aclIntArray*, tuningConfigOptional, optional), (aclTensor*, out))

CANOPY_ACLNN_OP(GroupedMatmulFinalizeRoutingWeightNz, PlanWeightNz,
                (OpTraits{.header = "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz.h",
                          .dtypes = kFinalizeDtypes,
                          .private_formats = true,
                          // sharedInput and logit null: the other form (each alone is 161001).
                          .example = "i8[2,16] i8[1,16,256] f32[1,256] - f32[2] i64[1]{2:2} - - i64[2]{0:1} 0 1 0 "
                                     "false false 1 f32[2,256]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, scale),
                (const aclTensor*, bias, optional), (const aclTensor*, pertokenScaleOptional, optional),
                (const aclTensor*, groupList), (const aclTensor*, sharedInput, optional),
                (const aclTensor*, logit, optional), (const aclTensor*, rowIndex), (int64_t, dtype),
                (float, sharedInputWeight), (int64_t, sharedInputOffset), (bool, transposeX1), (bool, transposeX2),
                (int64_t, groupListType), (aclTensor*, out))

CANOPY_ACLNN_OP(GroupedMatmulFinalizeRoutingWeightNzV2, PlanWeightNzV2,
                (OpTraits{
                    .header = "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz_v2.h",
                    .dtypes = kFinalizeDtypes,
                    .private_formats = true,
                    .example = "i8[2,16] i8[1,16,256] f32[1,256] - - - - f32[2] i64[1]{2:2} - - i64[2]{0:1} 0 1 0 "
                               "false false 1 ints[1] f32[2,256]"}),
                (const aclTensor*, x1), (aclTensor*, x2), (const aclTensor*, scale), (const aclTensor*, bias, optional),
                (const aclTensor*, offsetOptional, optional), (const aclTensor*, antiquantScaleOptional, optional),
                (const aclTensor*, antiquantOffsetOptional, optional),
                (const aclTensor*, pertokenScaleOptional, optional), (const aclTensor*, groupList),
                (const aclTensor*, sharedInput, optional), (const aclTensor*, logit, optional),
                (const aclTensor*, rowIndex), (int64_t, dtype), (float, sharedInputWeight),
                (int64_t, sharedInputOffset), (bool, transposeX1), (bool, transposeX2), (int64_t, groupListType),
                (const aclIntArray*, tuningConfigOptional, optional), (aclTensor*, out))
