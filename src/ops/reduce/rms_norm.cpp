// aclnnRmsNorm and aclnnAddRmsNorm: x / sqrt(mean(x^2) + epsilon) * gamma over
// the trailing dims gamma spans (AddRmsNorm: of x1 + x2, which xOut receives).
// aclnnGemmaRmsNorm scales by 1 + gamma (gamma of x's dtype); aclnnInplaceAddRmsNorm
// writes the normalised x1Ref + x2Ref into x1Ref and the sum into x2Ref. aclnnAddRmsNormCast
// gives AddRmsNorm's result twice, FLOAT (y1Out) and in x1's dtype (y2Out). aclnnFusedAddRmsNorm
// (CANN's experimental/norm/fused_add_rms_norm, MiniCPM's scaled residual) normalises x1 * scale + x2.
#include <algorithm>
#include <initializer_list>
#include <utility>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_add_rms_norm_cast.h"
#include "aclnnop/aclnn_fused_add_rms_norm.h"
#include "aclnnop/aclnn_gemma_rms_norm.h"
#include "aclnnop/aclnn_inplace_add_rms_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "row_norm.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kRmsNormDtypes = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
// AddRmsNorm without rstdOut (CANN's pre- and post-norm forms) takes only the 16-bit floats.
constexpr DtypeSet kAddRmsNormShortDtypes = {ACL_FLOAT16, ACL_BF16};

// rstdOut's dims: each of its leading dims 1 or x's, and one value per row.
aclnnStatus CheckRstdShape(Plan& plan, aclnnStatus status, const aclTensor* x, const aclTensor* rstd, int64_t rows) {
  if (rstd->rank() > x->rank()) {
    return plan.Reject(status, "argument 'rstdOut' has rank %lld, more than x's %lld",
                       static_cast<long long>(rstd->rank()), static_cast<long long>(x->rank()));
  }
  for (int64_t d = 0; d < rstd->rank(); ++d) {
    const int64_t extent = rstd->view_shape[static_cast<size_t>(d)];
    if (extent != 1 && extent != x->view_shape[static_cast<size_t>(d)]) {
      return plan.Reject(status, "dim %lld of 'rstdOut' is %lld; it must be 1 or x's %lld", static_cast<long long>(d),
                         static_cast<long long>(extent), static_cast<long long>(x->view_shape[static_cast<size_t>(d)]));
    }
  }
  if (rstd->NumElements() != rows) {
    return plan.Reject(status, "argument 'rstdOut' has shape %s: %lld elements for %lld normalised rows",
                       ShapeToString(rstd->view_shape).c_str(), static_cast<long long>(rstd->NumElements()),
                       static_cast<long long>(rows));
  }
  return ACLNN_SUCCESS;
}

// How many trailing dims of x gamma spans (its shape must equal them); -1 when it does not.
int64_t TrailingDims(const aclTensor* x, const aclTensor* gamma) {
  const int64_t n = gamma->rank();
  if (n < 1 || n > x->rank()) return -1;
  for (int64_t d = 0; d < n; ++d) {
    if (gamma->view_shape[static_cast<size_t>(d)] != x->view_shape[static_cast<size_t>(x->rank() - n + d)]) return -1;
  }
  return n;
}

int64_t LeadingCount(const aclTensor* x, int64_t trailing) {
  int64_t rows = 1;
  for (int64_t d = 0; d < x->rank() - trailing; ++d) rows *= x->view_shape[static_cast<size_t>(d)];
  return rows;
}

// Each of `tensors` has x1's shape (`status` otherwise).
aclnnStatus CheckShapesOfX1(Plan& plan, aclnnStatus status, const aclTensor* x1,
                            std::initializer_list<std::pair<const char*, const aclTensor*>> tensors) {
  for (const auto& [name, t] : tensors) {
    if (t->view_shape != x1->view_shape) {
      return plan.Reject(status, "argument '%s' has shape %s; expected x1's %s", name,
                         ShapeToString(t->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

// The RMS row norm of `rows` rows of gamma's element count.
NormPlan RmsPlan(double epsilon, int64_t rows, const aclTensor* gamma) {
  NormPlan norm;
  norm.kind = kernels::NormKind::kRms;
  norm.eps = epsilon;
  norm.rows = rows;
  norm.length = gamma->NumElements();
  return norm;
}

// RmsNorm, and GemmaRmsNorm (`gemma`: y scales by 1 + gamma, whose dtype is x's).
aclnnStatus PlanRmsNormCommon(Plan& plan, const aclTensor* x, const aclTensor* gamma, double epsilon,
                              const aclTensor* y, const aclTensor* rstd, bool gemma) {
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kRmsNormDtypes));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, kRmsNormDtypes));
  if (gamma->dtype != x->dtype && (gemma || gamma->dtype != ACL_FLOAT)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'gamma' has dtype %s; it must be x's (%s)%s",
                       DtypeName(gamma->dtype), DtypeName(x->dtype), gemma ? "" : " or FLOAT");
  }
  CANOPY_CHECK(plan.CheckDtype("yOut", y->dtype, {x->dtype}));
  CANOPY_CHECK(plan.CheckDtype("rstdOut", rstd->dtype, {ACL_FLOAT}));
  // Shapes are checked where CANN's tiling checks them: 561002.
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;
  if (x->rank() < 1) return plan.Reject(kShape, "argument 'x' has rank 0; it needs at least one dim");
  const int64_t trailing = TrailingDims(x, gamma);
  if (trailing < 0) {
    return plan.Reject(kShape, "argument 'gamma' has shape %s; it must equal trailing dims of x's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x->view_shape).c_str());
  }
  if (gamma->NumElements() == 0) return plan.Reject(kShape, "argument 'gamma' is empty");
  if (y->view_shape != x->view_shape) {
    return plan.Reject(kShape, "argument 'yOut' has shape %s; expected x's %s", ShapeToString(y->view_shape).c_str(),
                       ShapeToString(x->view_shape).c_str());
  }
  const int64_t rows = LeadingCount(x, trailing);
  CANOPY_CHECK(CheckRstdShape(plan, kShape, x, rstd, rows));
  if (gemma && x->NumElements() == 0) return plan.Reject(kShape, "argument 'x' is empty");
  if (gemma && epsilon < 0) return plan.Reject(kShape, "argument 'epsilon' is %g; it may not be negative", epsilon);
  NormPlan norm = RmsPlan(epsilon, rows, gamma);
  norm.gamma_offset = gemma ? 1 : 0;
  norm.x = Given(x, "x");
  norm.gamma = Given(gamma, "gamma");
  norm.y = Given(y, "yOut");
  norm.rstd = Given(rstd, "rstdOut");
  return PlanRowNorm(plan, norm);
}

aclnnStatus PlanRmsNorm(Plan& plan, const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* y,
                        const aclTensor* rstd) {
  return PlanRmsNormCommon(plan, x, gamma, epsilon, y, rstd, false);
}
aclnnStatus PlanGemmaRmsNorm(Plan& plan, const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* y,
                             const aclTensor* rstd) {
  return PlanRmsNormCommon(plan, x, gamma, epsilon, y, rstd, true);
}

// InplaceAddRmsNorm: x = x1Ref + x2Ref; x1Ref receives the normalised x, x2Ref the sum.
aclnnStatus PlanInplaceAddRmsNorm(Plan& plan, const aclTensor* x1Ref, const aclTensor* x2Ref, const aclTensor* gamma,
                                  double epsilon, const aclTensor* rstdOut) {
  CANOPY_CHECK(plan.CheckDtype("x1Ref", x1Ref->dtype, kRmsNormDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2Ref", x2Ref->dtype, {x1Ref->dtype}));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {x1Ref->dtype}));
  CANOPY_CHECK(plan.CheckDtype("rstdOut", rstdOut->dtype, {ACL_FLOAT}));
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;  // CANN's tiling checks the shapes
  if (x1Ref->rank() < 1) return plan.Reject(kShape, "argument 'x1Ref' has rank 0");
  if (x2Ref->view_shape != x1Ref->view_shape) {
    return plan.Reject(kShape, "argument 'x2Ref' has shape %s; expected x1Ref's %s",
                       ShapeToString(x2Ref->view_shape).c_str(), ShapeToString(x1Ref->view_shape).c_str());
  }
  if (x1Ref->NumElements() == 0) return plan.Reject(kShape, "argument 'x1Ref' is empty");
  const int64_t trailing = TrailingDims(x1Ref, gamma);
  if (trailing < 0) {
    return plan.Reject(kShape, "argument 'gamma' has shape %s; it must equal trailing dims of x1Ref's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x1Ref->view_shape).c_str());
  }
  const int64_t rows = LeadingCount(x1Ref, trailing);
  CANOPY_CHECK(CheckRstdShape(plan, kShape, x1Ref, rstdOut, rows));
  if (epsilon < 0) return plan.Reject(kShape, "argument 'epsilon' is %g; it may not be negative", epsilon);
  NormPlan norm = RmsPlan(epsilon, rows, gamma);
  norm.x = Given(x1Ref, "x1Ref");
  norm.x2 = Given(x2Ref, "x2Ref");
  norm.gamma = Given(gamma, "gamma");
  norm.y = Given(x1Ref, "x1Ref");
  norm.rstd = Given(rstdOut, "rstdOut");
  norm.sum = Given(x2Ref, "x2Ref");
  return PlanRowNorm(plan, norm);
}

aclnnStatus PlanAddRmsNorm(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, double epsilon,
                           const aclTensor* y, const aclTensor* rstd, const aclTensor* x_out) {
  if (rstd != nullptr && x_out == nullptr) return plan.CheckNotNull("xOut", x_out);  // rstdOut needs xOut
  const bool full = rstd != nullptr;
  const DtypeSet dtypes = full ? kRmsNormDtypes : kAddRmsNormShortDtypes;
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, dtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("yOut", y->dtype, {x1->dtype}));
  if (x_out != nullptr) CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, {x1->dtype}));
  if (full) CANOPY_CHECK(plan.CheckDtype("rstdOut", rstd->dtype, {ACL_FLOAT}));
  for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"x2", x2}, std::pair{"gamma", gamma}}) {
    if (t->rank() < 1) return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank 0", name);
  }
  CANOPY_CHECK(plan.CheckShape("x2", x2, x1->view_shape));
  CANOPY_CHECK(plan.CheckShape("yOut", y, x1->view_shape));
  if (x_out != nullptr) CANOPY_CHECK(plan.CheckShape("xOut", x_out, x1->view_shape));
  int64_t trailing = TrailingDims(x1, gamma);
  if (!full) {
    if (gamma->rank() > 2) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'gamma' has rank %lld; without rstdOut it is [D] or [1, D]",
                         static_cast<long long>(gamma->rank()));
    }
    // [1, D]: the last dim of x1.
    if (trailing < 0 && gamma->view_shape[0] == 1 && gamma->view_shape.back() == x1->view_shape.back()) trailing = 1;
  }
  if (trailing < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'gamma' has shape %s; it must equal trailing dims of x1's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  const int64_t rows = LeadingCount(x1, trailing);
  if (full) CANOPY_CHECK(CheckRstdShape(plan, ACLNN_ERR_PARAM_INVALID, x1, rstd, rows));
  // An empty x1 or gamma computes nothing, as CANN returns at once.
  NormPlan norm = RmsPlan(epsilon, x1->NumElements() == 0 || gamma->NumElements() == 0 ? 0 : rows, gamma);
  norm.x = Given(x1, "x1");
  norm.x2 = Given(x2, "x2");
  norm.gamma = Given(gamma, "gamma");
  norm.y = Given(y, "yOut");
  norm.rstd = Given(rstd, "rstdOut");
  norm.sum = Given(x_out, "xOut");
  return PlanRowNorm(plan, norm);
}

// AddRmsNormCast: CANN's dtype table (A2) is x1, x2, gamma, y2Out and xOut one of FLOAT16 / BFLOAT16,
// y1Out and rstdOut FLOAT (161002); its tiling checks the shapes (561002). The doc takes an empty x1
// with an empty rstdOut, which computes nothing.
aclnnStatus PlanAddRmsNormCast(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                               double epsilon, const aclTensor* y1, const aclTensor* y2, const aclTensor* rstd,
                               const aclTensor* x_out) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kAddRmsNormShortDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("y1Out", y1->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("y2Out", y2->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("rstdOut", rstd->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, {x1->dtype}));
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;
  for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"gamma", gamma}}) {
    if (t->rank() < 1) return plan.Reject(kShape, "argument '%s' has rank 0; it must be 1 to 8", name);
  }
  CANOPY_CHECK(CheckShapesOfX1(plan, kShape, x1, {{"x2", x2}, {"y1Out", y1}, {"y2Out", y2}, {"xOut", x_out}}));
  const int64_t trailing = TrailingDims(x1, gamma);
  if (trailing < 0) {
    return plan.Reject(kShape, "argument 'gamma' has shape %s; it must equal trailing dims of x1's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  const int64_t rows = LeadingCount(x1, trailing);
  if (x1->NumElements() == 0 && rstd->NumElements() != 0) {
    return plan.Reject(kShape, "argument 'rstdOut' has shape %s; it must be empty when x1 (%s) is",
                       ShapeToString(rstd->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  if (x1->NumElements() != 0) CANOPY_CHECK(CheckRstdShape(plan, kShape, x1, rstd, rows));
  if (epsilon < 0) return plan.Reject(kShape, "argument 'epsilon' is %g; it may not be negative", epsilon);
  NormPlan norm = AddRmsRows(epsilon, x1->NumElements() == 0 ? 0 : rows, gamma->NumElements(), x1, x2, gamma, x_out);
  norm.y = Given(y1, "y1Out");
  norm.y2 = Given(y2, "y2Out");
  norm.rstd = Given(rstd, "rstdOut");
  return PlanRowNorm(plan, norm);
}

// FusedAddRmsNorm: CANN generates its aclnn entry from the op definition, so the dtype table (x1, x2,
// gamma, yOut, xOut one of FLOAT / FLOAT16 / BFLOAT16, rstdOut FLOAT) is 161002 and everything its
// tiling checks is 561002: ranks, shapes (rstdOut exactly x1's leading dims, then 1 for each of gamma's),
// no empty dim, epsilon not negative, and rows of at most one UB tile (its first version's limit).
aclnnStatus PlanFusedAddRmsNorm(Plan& plan, const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                double epsilon, double scale, const aclTensor* y, const aclTensor* rstd,
                                const aclTensor* x_out) {
  CANOPY_CHECK(plan.CheckDtype("x1", x1->dtype, kRmsNormDtypes));
  CANOPY_CHECK(plan.CheckDtype("x2", x2->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("gamma", gamma->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("yOut", y->dtype, {x1->dtype}));
  CANOPY_CHECK(plan.CheckDtype("rstdOut", rstd->dtype, {ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("xOut", x_out->dtype, {x1->dtype}));
  constexpr aclnnStatus kShape = ACLNN_ERR_INNER_TILING_ERROR;
  for (const auto& [name, t] : {std::pair{"x1", x1}, std::pair{"gamma", gamma}}) {
    if (t->rank() < 1) return plan.Reject(kShape, "argument '%s' has rank 0; it must be 1 to 8", name);
  }
  for (const auto& [name, t] :
       {std::pair{"yOut", y}, std::pair{"x2", x2}, std::pair{"xOut", x_out}, std::pair{"rstdOut", rstd}}) {
    if (t->rank() != x1->rank()) {
      return plan.Reject(kShape, "argument '%s' has rank %lld; it must be x1's %lld", name,
                         static_cast<long long>(t->rank()), static_cast<long long>(x1->rank()));
    }
  }
  if (gamma->rank() > x1->rank()) {
    return plan.Reject(kShape, "argument 'gamma' has rank %lld, more than x1's %lld",
                       static_cast<long long>(gamma->rank()), static_cast<long long>(x1->rank()));
  }
  if (x1->NumElements() == 0) {
    return plan.Reject(kShape, "argument 'x1' has shape %s; empty tensors are not supported",
                       ShapeToString(x1->view_shape).c_str());
  }
  CANOPY_CHECK(CheckShapesOfX1(plan, kShape, x1, {{"x2", x2}, {"yOut", y}, {"xOut", x_out}}));
  const int64_t trailing = TrailingDims(x1, gamma);
  if (trailing < 0) {
    return plan.Reject(kShape, "argument 'gamma' has shape %s; it must equal trailing dims of x1's %s",
                       ShapeToString(gamma->view_shape).c_str(), ShapeToString(x1->view_shape).c_str());
  }
  Shape rstd_shape = x1->view_shape;
  std::fill(rstd_shape.end() - trailing, rstd_shape.end(), 1);
  if (rstd->view_shape != rstd_shape) {
    return plan.Reject(kShape, "argument 'rstdOut' has shape %s; expected %s (x1's leading dims, 1 for gamma's)",
                       ShapeToString(rstd->view_shape).c_str(), ShapeToString(rstd_shape).c_str());
  }
  if (epsilon < 0) return plan.Reject(kShape, "argument 'epsilon' is %g; it may not be negative", epsilon);
  // CANN's kernel holds a whole row in one UB tile: 10240 FLOAT or 12288 16-bit elements.
  const int64_t max_row = x1->dtype == ACL_FLOAT ? 10240 : 12288;
  if (gamma->NumElements() > max_row) {
    return plan.Reject(kShape, "argument 'gamma' has %lld elements; rows of %s are at most %lld long",
                       static_cast<long long>(gamma->NumElements()), DtypeName(x1->dtype),
                       static_cast<long long>(max_row));
  }
  NormPlan norm = AddRmsRows(epsilon, LeadingCount(x1, trailing), gamma->NumElements(), x1, x2, gamma, x_out);
  norm.x_scale = scale;
  norm.y = Given(y, "yOut");
  norm.rstd = Given(rstd, "rstdOut");
  return PlanRowNorm(plan, norm);
}

}  // namespace

CANOPY_ACLNN_OP(FusedAddRmsNorm, PlanFusedAddRmsNorm,
                (OpTraits{.header = "aclnnop/aclnn_fused_add_rms_norm.h",
                          .dtypes = kRmsNormDtypes,
                          .example = "f32[2,16] f32[2,16] f32[16] 1e-6 0.5 f32[2,16] f32[2,1] f32[2,16]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma), (double, epsilon),
                (double, scale), (const aclTensor*, yOut), (const aclTensor*, rstdOut), (const aclTensor*, xOut))
CANOPY_ACLNN_OP(AddRmsNormCast, PlanAddRmsNormCast,
                (OpTraits{.header = "aclnnop/aclnn_add_rms_norm_cast.h",
                          .dtypes = kAddRmsNormShortDtypes,
                          .example = "f16[2,3] f16[2,3] f16[3] 1e-6 f32[2,3] f16[2,3] f32[2,1] f16[2,3]"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma), (double, epsilon),
                (const aclTensor*, y1Out), (const aclTensor*, y2Out), (const aclTensor*, rstdOut),
                (const aclTensor*, xOut))
CANOPY_ACLNN_OP(RmsNorm, PlanRmsNorm,
                (OpTraits{.header = "aclnnop/aclnn_rms_norm.h",
                          .dtypes = kRmsNormDtypes,
                          .example = "f32[2,3] f32[3] 1e-6 f32[2,3] f32[2,1]"}),
                (const aclTensor*, x), (const aclTensor*, gamma), (double, epsilon), (const aclTensor*, yOut),
                (const aclTensor*, rstdOut))
CANOPY_ACLNN_OP(AddRmsNorm, PlanAddRmsNorm,
                (OpTraits{.header = "aclnnop/aclnn_add_rms_norm.h",
                          .dtypes = kRmsNormDtypes,
                          // !CODE (registry_example.h): without rstdOut only f16 / bf16 run; xOut comes with rstdOut
                          .example = "f32[2,3] f32[2,3] f32[3] 1e-6 f32[2,3] f32[2,1]!161002 f32[2,3]!161001"}),
                (const aclTensor*, x1), (const aclTensor*, x2), (const aclTensor*, gamma), (double, epsilon),
                (aclTensor*, yOut), (aclTensor*, rstdOut, optional), (aclTensor*, xOut, optional))
CANOPY_ACLNN_OP(GemmaRmsNorm, PlanGemmaRmsNorm,
                (OpTraits{.header = "aclnnop/aclnn_gemma_rms_norm.h",
                          .dtypes = kRmsNormDtypes,
                          .example = "f32[2,3] f32[3] 1e-6 f32[2,3] f32[2,1]"}),
                (const aclTensor*, x), (const aclTensor*, gamma), (double, epsilon), (const aclTensor*, yOut),
                (const aclTensor*, rstdOut))
CANOPY_ACLNN_OP(InplaceAddRmsNorm, PlanInplaceAddRmsNorm,
                (OpTraits{.header = "aclnnop/aclnn_inplace_add_rms_norm.h",
                          .dtypes = kRmsNormDtypes,
                          .in_place = true,
                          .example = "f32[2,3] f32[2,3] f32[3] 1e-6 f32[2,1]"}),
                (aclTensor*, x1Ref), (aclTensor*, x2Ref), (const aclTensor*, gamma), (double, epsilon),
                (const aclTensor*, rstdOut))
