// Harness rows of the loss ops (src/ops/loss): L1Loss, MseLoss, MseLossOut,
// SmoothL1Loss, SoftMarginLoss, BinaryCrossEntropy (with and without weight),
// BinaryCrossEntropyWithLogits, KlDiv, Logit, and CANN's generated losses
// (GaussianNllLoss, HingeEmbeddingLoss, HingeLoss, HuberLoss, LpLoss), each
// reduction (none, mean, sum, KlDiv's batchmean) against a float64 reference. Below the rows: empty
// inputs, special values and the documented rejections with CANN's codes.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include "aclnnop/aclnn_binary_cross_entropy.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_gaussian_nll_loss.h"
#include "aclnnop/aclnn_hinge_embedding_loss.h"
#include "aclnnop/aclnn_hinge_loss.h"
#include "aclnnop/aclnn_huber_loss.h"
#include "aclnnop/aclnn_kl_div.h"
#include "aclnnop/aclnn_l1_loss.h"
#include "aclnnop/aclnn_logit.h"
#include "aclnnop/aclnn_lp_loss.h"
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_smooth_l1_loss.h"
#include "aclnnop/aclnn_soft_margin_loss.h"
#include "harness/harness.h"
#include "reference.h"

namespace canopy_test {
namespace {

using namespace harness;  // NOLINT(google-build-using-namespace): the rows read as a table

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
const std::vector<aclDataType> kFloats = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};

// The per-element loss of the inputs' values (broadcast to the loss shape).
using LossFn = std::function<double(const std::vector<double>& x, const AttrSet& attrs)>;

// Reduction 0 keeps the elementwise loss, 1 its mean, 2 its sum (and 3, KlDiv's
// batchmean, the sum over the first dim's extent). The per-element losses are
// rounded to `compute` first when CANN keeps them there (reduction none); the
// reductions accumulate in FLOAT or wider, so their error follows the sum of
// the terms' magnitudes. `terms` bounds the magnitude of the terms of one
// element's loss where they cancel (BCE with logits: x and log sigmoid(x)).
Reference LossReference(LossFn fn, std::function<aclDataType(const RefCall&)> compute, double terms = 1) {
  return [fn = std::move(fn), compute = std::move(compute), terms](const RefCall& call) {
    Shape shape;
    for (const Operand& in : call.inputs) shape = BroadcastShapes(shape, in.shape).value();
    std::vector<Values> expanded;
    for (const Operand& in : call.inputs) expanded.push_back(BroadcastTo(in.values, in.shape, shape));
    const auto count = static_cast<size_t>(NumElements(shape));
    const int64_t reduction = call.attrs.Int("reduction");
    const aclDataType c = compute(call);
    const double unitCompute = UnitRoundoff(c), unitOut = UnitRoundoff(call.out);
    Expected want;
    double sum = 0, magnitude = 0;
    std::vector<double> x(expanded.size());
    for (size_t i = 0; i < count; ++i) {
      for (size_t k = 0; k < expanded.size(); ++k) x[k] = expanded[k][i].real();
      const double l = fn(x, call.attrs);
      if (reduction == 0) {
        want.values.push_back(ConvertValue(ConvertValue(l, c), call.out));
        want.tolerance.push_back(8 * std::max(unitCompute, unitOut) * std::max(std::abs(l), terms));
      }
      sum += l;
      magnitude += std::max(std::abs(l), terms);
    }
    if (reduction == 0) return want;
    double r = sum;
    if (reduction == 1) r = count == 0 ? kNan : sum / static_cast<double>(count);
    if (reduction == 3) r = sum / static_cast<double>(shape.empty() ? 1 : shape[0]);
    const double scale = std::abs(r) < std::abs(sum) && sum != 0 ? std::abs(r / sum) : 1.0;
    want.values.push_back(ConvertValue(r, call.out));
    want.tolerance.push_back(8 * std::max(unitCompute, UnitRoundoff(ACL_FLOAT)) * magnitude * scale +
                             2 * unitOut * std::abs(r));
    return want;
  };
}

aclDataType PromotedOfFirstTwo(const RefCall& call) {
  return Promote(call.inputs[0].dtype, call.inputs[1].dtype).value_or(call.inputs[0].dtype);
}

// Out: the loss shape for reduction none, rank 0 (or, `reducedShape`, that) otherwise.
ShapeRule LossOutShape(std::optional<Shape> reducedShape = Shape{}) {
  return [reducedShape](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    Shape shape;
    for (const Shape& s : in) {
      const auto b = BroadcastShapes(shape, s);
      if (!b) return std::nullopt;
      shape = *b;
    }
    if (a.Int("reduction") == 0) return shape;
    return reducedShape;
  };
}

std::vector<AttrSet> Reductions(std::function<bool(const DtypeCase&)> meanAllowed = {}) {
  return {{"none", {{"reduction", int64_t{0}}}},
          {"mean", {{"reduction", int64_t{1}}}, std::move(meanAllowed)},
          {"sum", {{"reduction", int64_t{2}}}}};
}

// ---- L1, MSE, SmoothL1, SoftMargin --------------------------------------------------------------------

OpRow L1Row() {
  OpRow row;
  row.name = "L1Loss";
  row.inputs = {Arg{.name = "self", .range = Range{-4, 4}}, Arg{.name = "target", .range = Range{-4, 4}}};
  row.out = {[](Call& c) {
               return aclnnL1LossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.IntAttr("reduction"), c.Out(),
                                                  c.workspaceSize, c.executor);
             },
             aclnnL1Loss};
  // INT64 exact (no integer mean); a floating self with an integer target.
  row.dtypes = Concat(EachDtype({ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT64}),
                      Singly({{{ACL_FLOAT16, ACL_FLOAT}}, {{ACL_FLOAT, ACL_INT64}}, {{ACL_INT32, ACL_INT64}}}));
  row.outDtype = PromotedDtype();
  row.attrs =
      Reductions([](const DtypeCase& dc) { return IsRealFloat(dc.inputs[0]) || IsRealFloat(dc.inputs.back()); });
  row.outShape = LossOutShape();
  row.reference = LossReference([](const std::vector<double>& x, const AttrSet&) { return std::abs(x[0] - x[1]); },
                                PromotedOfFirstTwo);
  return row;
}

OpRow MseRow(bool outForm) {
  OpRow row;
  row.name = outForm ? "MseLossOut" : "MseLoss";
  row.inputs = {Arg{.name = "self", .range = Range{-4, 4}}, Arg{.name = "target", .range = Range{-4, 4}}};
  if (outForm) {
    row.out = {[](Call& c) {
                 return aclnnMseLossOutGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.IntAttr("reduction"), c.Out(),
                                                        c.workspaceSize, c.executor);
               },
               aclnnMseLossOut};
  } else {
    row.out = {[](Call& c) {
                 return aclnnMseLossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.IntAttr("reduction"), c.Out(),
                                                     c.workspaceSize, c.executor);
               },
               aclnnMseLoss};
  }
  row.dtypes = Concat(EachDtype(kFloats), Singly({{{ACL_FLOAT16, ACL_BF16}, ACL_FLOAT}, {{ACL_FLOAT16, ACL_FLOAT}}}));
  row.outDtype = PromotedDtype();
  row.attrs = Reductions();
  auto fn = [](const std::vector<double>& x, const AttrSet&) { return (x[0] - x[1]) * (x[0] - x[1]); };
  if (!outForm) {
    row.outShape = LossOutShape();
    row.reference = LossReference(fn, PromotedOfFirstTwo);
    return row;
  }
  // MseLossOut: mean and sum over dim 0 of the broadcast shape only.
  row.shapes = {{"typical", {{4, 3}, {4, 3}}, true},
                {"rank3_broadcast", {{2, 3, 2}, {3, 1}}},
                {"rank1", {{5}, {5}}},
                {"large", {{3, 700}, {700}}, true}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    auto b = BroadcastShapes(in[0], in[1]);
    if (!b) return std::nullopt;
    if (a.Int("reduction") == 0 || b->empty()) return b;
    return Shape(b->begin() + 1, b->end());
  };
  row.reference = [fn](const RefCall& call) {
    const int64_t reduction = call.attrs.Int("reduction");
    if (reduction == 0) return LossReference(fn, PromotedOfFirstTwo)(call);
    const Shape shape = BroadcastShapes(call.inputs[0].shape, call.inputs[1].shape).value();
    const Values a = BroadcastTo(call.inputs[0].values, call.inputs[0].shape, shape);
    const Values b = BroadcastTo(call.inputs[1].values, call.inputs[1].shape, shape);
    const int64_t rows = shape[0], inner = NumElements(shape) / std::max<int64_t>(rows, 1);
    Expected want;
    for (int64_t j = 0; j < inner; ++j) {
      double sum = 0, magnitude = 0;
      for (int64_t i = 0; i < rows; ++i) {
        const double d = a[i * inner + j].real() - b[i * inner + j].real();
        sum += d * d;
        magnitude += d * d;
      }
      const double r = reduction == 1 ? sum / static_cast<double>(rows) : sum;
      want.values.push_back(ConvertValue(r, call.out));
      want.tolerance.push_back(8 * UnitRoundoff(ACL_FLOAT) * magnitude + 2 * UnitRoundoff(call.out) * std::abs(r));
    }
    return want;
  };
  return row;
}

OpRow SmoothL1Row() {
  OpRow row;
  row.name = "SmoothL1Loss";
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3}}, Arg{.name = "target", .range = Range{-3, 3}}};
  row.out = {[](Call& c) {
               return aclnnSmoothL1LossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.IntAttr("reduction"),
                                                        static_cast<float>(c.DoubleAttr("beta")), c.Out(),
                                                        c.workspaceSize, c.executor);
             },
             aclnnSmoothL1Loss};
  row.dtypes = Concat(EachDtype(kFloats), Singly({{{ACL_FLOAT16, ACL_FLOAT}}, {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16}}));
  row.outDtype = PromotedDtype();
  row.attrs = {{"none_beta1", {{"reduction", int64_t{0}}, {"beta", 1.0}}},
               {"mean_beta0_5", {{"reduction", int64_t{1}}, {"beta", 0.5}}},
               {"sum_beta0", {{"reduction", int64_t{2}}, {"beta", 0.0}}}};
  row.outShape = LossOutShape();
  row.reference = LossReference(
      [](const std::vector<double>& x, const AttrSet& a) {
        const double d = std::abs(x[0] - x[1]), beta = static_cast<float>(a.Double("beta"));
        return d < beta ? 0.5 * d * d / beta : d - 0.5 * beta;
      },
      PromotedOfFirstTwo);
  return row;
}

OpRow SoftMarginRow() {
  OpRow row;
  row.name = "SoftMarginLoss";
  row.inputs = {Arg{.name = "self", .range = Range{-3, 3}}, Arg{.name = "target", .range = Range{-1, 1}}};
  row.out = {[](Call& c) {
               return aclnnSoftMarginLossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.IntAttr("reduction"), c.Out(),
                                                          c.workspaceSize, c.executor);
             },
             aclnnSoftMarginLoss};
  row.dtypes = Concat(EachDtype(kFloats), Singly({{{ACL_BF16, ACL_FLOAT}}}));
  row.outDtype = PromotedDtype();
  // CANN does not check reduction: a value other than 0 and 1 sums.
  row.attrs = Reductions();
  row.attrs.push_back({"reduction_7_sums", {{"reduction", int64_t{7}}}});
  row.outShape = LossOutShape();
  row.reference = [](const RefCall& call) {
    AttrSet attrs = call.attrs;
    if (attrs.Int("reduction") > 2) attrs.values = {{"reduction", int64_t{2}}};
    const RefCall summed{call.inputs, attrs, call.out, call.outShape, call.inplace};
    return LossReference(
        [](const std::vector<double>& x, const AttrSet&) { return std::log1p(std::exp(-x[1] * x[0])); },
        PromotedOfFirstTwo)(summed);
  };
  return row;
}

// ---- binary cross entropy ----------------------------------------------------------------------------

OpRow BceRow(bool weighted) {
  OpRow row;
  row.name = weighted ? "BinaryCrossEntropyWeighted" : "BinaryCrossEntropy";
  row.inputs = {Arg{.name = "self", .range = Range{0.02, 0.98}}, Arg{.name = "target", .range = Range{0, 1}}};
  if (weighted) {
    row.inputs.push_back(Arg{.name = "weight", .range = Range{0, 2}});
    row.out = {[](Call& c) {
                 return aclnnBinaryCrossEntropyGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2),
                                                                c.IntAttr("reduction"), c.Out(), c.workspaceSize,
                                                                c.executor);
               },
               aclnnBinaryCrossEntropy};
    row.dtypes = EachDtype(kFloats);
  } else {
    row.out = {[](Call& c) {
                 return aclnnBinaryCrossEntropyGetWorkspaceSize(
                     c.Tensor(0), c.Tensor(1), nullptr, c.IntAttr("reduction"), c.Out(), c.workspaceSize, c.executor);
               },
               aclnnBinaryCrossEntropy};
    // Without a weight CANN takes mixed dtypes.
    row.dtypes = Concat(EachDtype(kFloats), Singly({{{ACL_FLOAT16, ACL_FLOAT}, ACL_FLOAT}}));
  }
  row.shapes = {{"typical", {{4, 5}, {4, 5}, {4, 5}}, true},
                {"weight_row", {{3, 4}, {3, 4}, {4}}},
                {"rank0", {{}, {}, {}}},
                {"large", {{3, 3000}, {3, 3000}, {3000}}, true},
                {"empty", {{0, 4}, {0, 4}, {4}}}};
  row.attrs = Reductions();
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    return a.Int("reduction") == 0 ? in[0] : Shape{};
  };
  row.reference = LossReference(
      [weighted](const std::vector<double>& x, const AttrSet&) {
        const double w = weighted ? x[2] : 1.0;
        return -w * (x[1] * std::max(std::log(x[0]), -100.0) + (1 - x[1]) * std::max(std::log(1 - x[0]), -100.0));
      },
      PromotedOfFirstTwo);
  return row;
}

OpRow BceWithLogitsRow() {
  OpRow row;
  row.name = "BinaryCrossEntropyWithLogits";
  row.inputs = {Arg{.name = "self", .range = Range{-5, 5}}, Arg{.name = "target", .range = Range{0, 1}},
                Arg{.name = "weightOptional", .range = Range{0, 2}},
                Arg{.name = "posWeightOptional", .range = Range{0.5, 3}}};
  row.out = {[](Call& c) {
               return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2),
                                                                        c.Tensor(3), c.IntAttr("reduction"), c.Out(),
                                                                        c.workspaceSize, c.executor);
             },
             aclnnBinaryCrossEntropyWithLogits};
  // out has target's dtype; the weights may be another float.
  row.dtypes = Concat(EachDtype(kFloats), Singly({{{ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16, ACL_BF16}, ACL_FLOAT}}));
  row.outDtype = [](const std::vector<aclDataType>& in) -> std::optional<aclDataType> { return in[1 % in.size()]; };
  row.shapes = {{"typical", {{4, 5}, {4, 5}, {4, 5}, {5}}, true},
                {"rank3", {{2, 3, 4}, {2, 3, 4}, {3, 1}, {4}}},
                {"large", {{3, 3000}, {3, 3000}, {1}, {3000}}, true},
                {"empty", {{0, 4}, {0, 4}, {4}, {4}}}};
  row.attrs = Reductions();
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    return a.Int("reduction") == 0 ? in[0] : Shape{};
  };
  row.reference = LossReference(
      [](const std::vector<double>& x, const AttrSet&) {
        const double s = x[0], y = x[1], w = x[2], pw = x[3];
        const double logSigmoid = std::min(s, 0.0) - std::log1p(std::exp(-std::abs(s)));
        const double logOneMinus = logSigmoid - s;  // log(1 - sigmoid(s))
        return -w * (pw * y * logSigmoid + (1 - y) * logOneMinus);
      },
      PromotedOfFirstTwo, 40);
  return row;
}

// ---- KlDiv, Logit ----------------------------------------------------------------------------------

OpRow KlDivRow() {
  OpRow row;
  row.name = "KlDiv";
  row.inputs = {Arg{.name = "self", .range = Range{-3, 1}}, Arg{.name = "target", .range = Range{0, 1, 0, 5}}};
  row.out = {[](Call& c) {
               return aclnnKlDivGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.IntAttr("reduction"),
                                                 c.BoolAttr("logTarget"), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnKlDiv};
  row.dtypes = Concat(EachDtype(kFloats), Singly({{{ACL_FLOAT16, ACL_FLOAT}}, {{ACL_FLOAT, ACL_FLOAT}, ACL_FLOAT16}}));
  row.outDtype = PromotedDtype();
  row.attrs = {{"none", {{"reduction", int64_t{0}}, {"logTarget", false}}},
               {"mean_log", {{"reduction", int64_t{1}}, {"logTarget", true}}},
               {"sum", {{"reduction", int64_t{2}}, {"logTarget", false}}},
               {"batchmean", {{"reduction", int64_t{3}}, {"logTarget", false}}},
               {"none_log", {{"reduction", int64_t{0}}, {"logTarget", true}}}};
  row.outShape = LossOutShape();
  row.reference = LossReference(
      [](const std::vector<double>& x, const AttrSet& a) {
        const double s = x[0], t = x[1];
        if (a.Bool("logTarget")) return std::exp(t) * (t - s);
        return t == 0 ? 0.0 : t * (std::log(t) - s);
      },
      PromotedOfFirstTwo);
  return row;
}

OpRow LogitRow() {
  OpRow row;
  row.name = "Logit";
  row.inputs = {Arg{.name = "input", .range = Range{0.02, 0.98}}};
  row.out = {[](Call& c) {
               return aclnnLogitGetWorkspaceSize(c.Tensor(0), c.DoubleAttr("eps"), c.Out(), c.workspaceSize,
                                                 c.executor);
             },
             aclnnLogit};
  row.dtypes = EachDtype(kFloats);
  row.shapes = SameShapes();
  row.outShape = ShapeOfInput(0);
  row.attrs = {{"no_clamp", {{"eps", -1.0}}}, {"eps_0_1", {{"eps", 0.1}}}, {"eps_0", {{"eps", 0.0}}}};
  row.reference = ComputedIn([](const std::vector<aclDataType>&) { return std::optional(ACL_FLOAT); },
                             [](const std::vector<Value>& x, const AttrSet& a) {
                               const double eps = static_cast<float>(a.Double("eps")), v = x[0].real();
                               double z = v;
                               if (eps >= 0) z = std::clamp(v, eps, 1 - eps);
                               return Value(std::log(z / (1 - z)));
                             },
                             8, 1);
  return row;
}

// ---- NLLLoss, NLLLoss2d -------------------------------------------------------------------------

// The ignore index the rows pass: one of the classes, so that some rows are ignored.
constexpr int64_t kIgnoredClass = 1;

// out (and the total weight) of a negative log-likelihood over rows of `classes`,
// self's class stride 1 inside a row (NLLLoss) or H * W (2d): rows in target's order.
Expected NllReference(const RefCall& call, bool twoD) {
  const Shape& s = call.inputs[0].shape;
  const Values& x = call.inputs[0].values;
  const Values& t = call.inputs[1].values;
  const Values& w = call.inputs[2].values;
  const int64_t classes = twoD ? s[1] : s.back();
  const int64_t plane = twoD ? s[2] * s[3] : 1;
  const int64_t reduction = call.attrs.Int("reduction");
  Expected want;
  double sum = 0, weights = 0, magnitude = 0;
  for (size_t n = 0; n < t.size(); ++n) {
    const auto c = static_cast<int64_t>(t[n].real());
    double l = 0;
    if (c != kIgnoredClass) {
      const int64_t batch = static_cast<int64_t>(n) / plane, pos = static_cast<int64_t>(n) % plane;
      const double xv = x[static_cast<size_t>((batch * classes + c) * plane + pos)].real();
      l = -w[static_cast<size_t>(c)].real() * xv;
      weights += w[static_cast<size_t>(c)].real();
    }
    sum += l;
    magnitude += std::abs(l);
    if (reduction == 0) {
      want.values.push_back(ConvertValue(l, call.out));
      want.tolerance.push_back(2 * UnitRoundoff(call.out) * std::abs(l));
    }
  }
  if (reduction == 0) return want;
  const bool singleIgnored = !twoD && s.size() == 1 && static_cast<int64_t>(t[0].real()) == kIgnoredClass;
  const double r = reduction == 1 ? (singleIgnored ? 0.0 : sum / weights) : sum;
  want.values.push_back(ConvertValue(r, call.out));
  want.tolerance.push_back(4 * UnitRoundoff(call.out) *
                           (magnitude / std::max(std::abs(weights), 1e-300) + std::abs(r)));
  return want;
}

OpRow NllRow(bool twoD) {
  OpRow row;
  row.name = twoD ? "NLLLoss2d" : "NLLLoss";
  auto classesOf = [twoD](const CaseInfo& c) { return twoD ? c.shapes[0][1] : c.shapes[0].back(); };
  row.inputs = {
      Arg{.name = "self", .range = Range{-3, 0}},
      Arg{.name = "target",
          .range = RangeRule([classesOf](aclDataType, const CaseInfo& c) {
            return Range{0, static_cast<double>(classesOf(c) - 1), 0, 0, true};
          }),
          .dtypes = {ACL_INT64, ACL_INT32, ACL_UINT8},
          .invalidValues =
              [classesOf](const CaseInfo& c) { return std::vector<Value>{static_cast<double>(classesOf(c))}; }},
      Arg{.name = "weight", .range = Range{0.5, 2}}};
  auto phase1 = [twoD](Call& c, aclTensor* totalWeight) {
    return twoD ? aclnnNLLLoss2dGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.IntAttr("reduction"),
                                                 kIgnoredClass, c.Out(), totalWeight, c.workspaceSize, c.executor)
                : aclnnNLLLossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.IntAttr("reduction"),
                                               kIgnoredClass, c.Out(), totalWeight, c.workspaceSize, c.executor);
  };
  // totalWeightOut: a second output the row does not check (LossValues.NllTotalWeight does).
  row.out = {[phase1](Call& c) { return phase1(c, c.args().NewTensor(c.OutDtype(), Shape{})); },
             twoD ? aclnnNLLLoss2d : aclnnNLLLoss};
  // self and weight share a dtype; target's come from its own list.
  row.dtypes = Concat(EachDtype(kFloats), Singly({{{ACL_FLOAT16}, ACL_FLOAT}}));
  if (twoD) {
    row.shapes = {{"typical", {{2, 3, 2, 4}, {2, 2, 4}, {3}}, true}, {"empty", {{0, 3, 2, 2}, {0, 2, 2}, {3}}}};
  } else {
    row.shapes = {{"typical", {{6, 4}, {6}, {4}}, true},
                  {"one_row", {{4}, {}, {4}}},
                  {"large", {{500, 10}, {500}, {10}}, true},
                  {"empty", {{0, 4}, {0}, {4}}}};
  }
  row.attrs = Reductions();
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    if (a.Int("reduction") != 0) return Shape{};
    return in[0].size() == 1 ? Shape{} : in[1];
  };
  row.reference = [twoD](const RefCall& call) { return NllReference(call, twoD); };
  return row;
}

// ---- CANN's generated losses (experimental/loss): one dtype, string reductions ------------------------

// The reduction attribute's name, as the string-reduction ops take it.
std::string ReductionName(int64_t reduction) { return reduction == 0 ? "none" : reduction == 1 ? "mean" : "sum"; }

// SameShapes without the empty ones (LpLoss rejects them).
std::vector<ShapeCase> NonEmptySameShapes() {
  std::vector<ShapeCase> cases;
  for (const ShapeCase& c : SameShapes()) {
    if (NumElements(c.inputs[0]) != 0) cases.push_back(c);
  }
  return cases;
}

OpRow HingeRow() {
  OpRow row;
  row.name = "HingeLoss";
  row.inputs = {Arg{.name = "predict", .range = Range{-3, 3}}, Arg{.name = "target", .range = Range{-1.5, 1.5}}};
  row.out = {[](Call& c) {
               return aclnnHingeLossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnHingeLoss};
  row.dtypes = EachDtype(kFloats);
  row.shapes = SameShapes();
  row.attrs = {{"none", {{"reduction", int64_t{0}}}}};
  row.outShape = LossOutShape();
  row.reference = LossReference(
      [](const std::vector<double>& x, const AttrSet&) { return std::max(0.0, 1 - x[1] * x[0]); }, PromotedOfFirstTwo);
  return row;
}

OpRow HuberRow() {
  OpRow row;
  row.name = "HuberLoss";
  row.inputs = {Arg{.name = "predictions", .range = Range{-3, 3}}, Arg{.name = "targets", .range = Range{-3, 3}}};
  row.out = {[](Call& c) {
               return aclnnHuberLossGetWorkspaceSize(c.Tensor(0), c.Tensor(1),
                                                     static_cast<float>(c.DoubleAttr("delta")), c.Out(),
                                                     c.workspaceSize, c.executor);
             },
             aclnnHuberLoss};
  row.dtypes = EachDtype(kFloats);
  row.shapes = SameShapes();
  row.attrs = {{"delta1", {{"reduction", int64_t{0}}, {"delta", 1.0}}},
               {"delta0_3", {{"reduction", int64_t{0}}, {"delta", 0.3}}}};
  row.outShape = LossOutShape();
  row.reference = LossReference(
      [](const std::vector<double>& x, const AttrSet& a) {
        const double e = std::abs(x[0] - x[1]), delta = static_cast<float>(a.Double("delta"));
        return e <= delta ? 0.5 * e * e : delta * (e - 0.5 * delta);
      },
      PromotedOfFirstTwo);
  return row;
}

OpRow HingeEmbeddingRow() {
  OpRow row;
  row.name = "HingeEmbeddingLoss";
  // target is 1 or -1 by the document; between them CANN's kernel blends the two branches, as the reference
  // does (LossValues.HingeEmbeddingLossPicksByTarget has exact labels).
  row.inputs = {Arg{.name = "input", .range = Range{-3, 3}}, Arg{.name = "target", .range = Range{-1, 1}}};
  row.out = {[](Call& c) {
               std::string reduction = ReductionName(c.IntAttr("reduction"));
               return aclnnHingeEmbeddingLossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.DoubleAttr("margin"),
                                                              reduction.data(), c.Out(), c.workspaceSize, c.executor);
             },
             aclnnHingeEmbeddingLoss};
  row.dtypes = EachDtype(kFloats);
  row.shapes = SameShapes();
  row.attrs = {{"none_margin1", {{"reduction", int64_t{0}}, {"margin", 1.0}}},
               {"mean_margin0_5", {{"reduction", int64_t{1}}, {"margin", 0.5}}},
               {"sum_margin2", {{"reduction", int64_t{2}}, {"margin", 2.0}}}};
  row.outShape = LossOutShape();
  row.reference = LossReference(
      [](const std::vector<double>& x, const AttrSet& a) {
        const double negative = std::max(0.0, static_cast<float>(a.Double("margin")) - x[0]);
        return negative + (x[0] - negative) * (x[1] + 1) / 2;
      },
      PromotedOfFirstTwo);
  return row;
}

OpRow LpRow() {
  OpRow row;
  row.name = "LpLoss";
  row.inputs = {Arg{.name = "predict", .range = Range{-4, 4}}, Arg{.name = "label", .range = Range{-4, 4}}};
  row.out = {[](Call& c) {
               return aclnnLpLossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), 1,
                                                  ReductionName(c.IntAttr("reduction")).c_str(), c.Out(),
                                                  c.workspaceSize, c.executor);
             },
             aclnnLpLoss};
  row.dtypes = EachDtype(kFloats);
  row.shapes = NonEmptySameShapes();
  row.attrs = Reductions();
  row.outShape = LossOutShape();
  row.reference = LossReference([](const std::vector<double>& x, const AttrSet&) { return std::abs(x[0] - x[1]); },
                                PromotedOfFirstTwo);
  return row;
}

// GaussianNllLoss: target of input's shape or with one dim of 1; var of input's shape, with a last dim of 1,
// without its last dim, or a scalar; eps 0.5 clamps some of var's values.
OpRow GaussianNllRow() {
  OpRow row;
  row.name = "GaussianNllLoss";
  row.inputs = {Arg{.name = "input", .range = Range{-3, 3}}, Arg{.name = "target", .range = Range{-3, 3}},
                Arg{.name = "var", .range = Range{0.05, 2}}};
  row.out = {[](Call& c) {
               std::string reduction = ReductionName(c.IntAttr("reduction"));
               return aclnnGaussianNllLossGetWorkspaceSize(c.Tensor(0), c.Tensor(1), c.Tensor(2), c.BoolAttr("full"),
                                                           c.DoubleAttr("eps"), reduction.data(), c.Out(),
                                                           c.workspaceSize, c.executor);
             },
             aclnnGaussianNllLoss};
  row.dtypes = EachDtype(kFloats);
  row.shapes = {{"same", {{2, 3, 4}, {2, 3, 4}, {2, 3, 4}}, true},
                {"target_axis", {{2, 3, 4}, {2, 1, 4}, {2, 3, 4}}},
                {"var_last_1", {{3, 5}, {3, 5}, {3, 1}}},
                {"var_no_last", {{2, 3, 4}, {1, 3, 4}, {2, 3}}},
                {"var_scalar", {{3, 5}, {3, 5}, {}}},
                {"rank0", {{}, {}, {}}},
                {"empty", {{0, 4}, {0, 4}, {0, 4}}},
                {"large", {{70, 130}, {70, 130}, {70}}, true}};
  row.attrs = {{"none", {{"reduction", int64_t{0}}, {"full", false}, {"eps", 1e-6}}},
               {"mean_full", {{"reduction", int64_t{1}}, {"full", true}, {"eps", 1e-6}}},
               {"sum_eps0_5", {{"reduction", int64_t{2}}, {"full", false}, {"eps", 0.5}}}};
  row.outShape = [](const std::vector<Shape>& in, const AttrSet& a) -> std::optional<Shape> {
    return a.Int("reduction") == 0 ? in[0] : Shape{};
  };
  const Reference loss = LossReference(
      [](const std::vector<double>& x, const AttrSet& a) {
        const double v = std::max(x[2], static_cast<double>(static_cast<float>(a.Double("eps")))), d = x[0] - x[1];
        return 0.5 * (std::log(v) + d * d / v) + (a.Bool("full") ? 0.5 * std::log(2 * std::numbers::pi) : 0.0);
      },
      PromotedOfFirstTwo, 4);
  row.reference = [loss](const RefCall& call) {
    // var without input's last dim broadcasts along it.
    std::vector<Operand> inputs = call.inputs;
    if (!inputs[2].shape.empty() && inputs[2].shape.size() + 1 == inputs[0].shape.size()) inputs[2].shape.push_back(1);
    return loss(RefCall{inputs, call.attrs, call.out, call.outShape, call.inplace});
  };
  return row;
}

std::vector<OpRow> LossRows() {
  return {L1Row(),      MseRow(false),      MseRow(true),        SmoothL1Row(), SoftMarginRow(), BceRow(false),
          BceRow(true), BceWithLogitsRow(), KlDivRow(),          LogitRow(),    NllRow(false),   NllRow(true),
          HingeRow(),   HuberRow(),         HingeEmbeddingRow(), LpRow(),       GaussianNllRow()};
}
CANOPY_HARNESS_ROWS(LossRows);

// ---- empty inputs, special values -----------------------------------------------------------------

// The mean of no elements is NaN, their sum 0 (and KlDiv's batchmean of an
// empty first dim NaN); MseLossOut writes nothing.
TEST(LossValues, EmptyInputs) {
  DeviceTensor self(ACL_FLOAT, {0, 3}), target(ACL_FLOAT, {0, 3});
  for (int64_t reduction : {1, 2}) {
    auto out = Poisoned(ACL_FLOAT, {});
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnMseLossGetWorkspaceSize(a.Tensor(self), a.Tensor(target), reduction, a.Tensor(*out), w, e);
        },
        aclnnMseLoss);
    ExpectExact(out->ReadView(), {reduction == 1 ? kNan : 0.0}, "MseLoss of nothing");
  }
  auto kl = Poisoned(ACL_FLOAT, {1});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnKlDivGetWorkspaceSize(a.Tensor(self), a.Tensor(target), 3, false, a.Tensor(*kl), w, e);
      },
      aclnnKlDiv);
  ExpectExact(kl->ReadView(), {kNan}, "KlDiv batchmean of nothing");
  auto untouched = Poisoned(ACL_FLOAT, {3});
  const std::vector<uint8_t> poison = untouched->DownloadBytes();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnMseLossOutGetWorkspaceSize(a.Tensor(self), a.Tensor(target), 1, a.Tensor(*untouched), w, e);
      },
      aclnnMseLossOut);
  EXPECT_TRUE(untouched->DownloadBytes() == poison) << "MseLossOut of an empty input wrote its out";
}

// BCE clamps each log at -100 (x = 0 with y = 1 costs 100, not inf); Logit
// without a clamp gives +-inf at 1 and 0, with eps the clamped value.
TEST(LossValues, ClampsAtTheEdges) {
  DeviceTensor x(ACL_FLOAT, {3}), y(ACL_FLOAT, {3});
  x.WriteView({0, 1, 0.5});
  y.WriteView({1, 0, 1});
  auto out = Poisoned(ACL_FLOAT, {3});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnBinaryCrossEntropyGetWorkspaceSize(a.Tensor(x), a.Tensor(y), nullptr, 0, a.Tensor(*out), w, e);
      },
      aclnnBinaryCrossEntropy);
  ExpectNear(out->ReadView(), {{100, 100, std::log(2.0)}, {0, 0, 1e-6}}, "BinaryCrossEntropy at 0 and 1");
  auto logit = Poisoned(ACL_FLOAT, {3});
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnLogitGetWorkspaceSize(a.Tensor(x), -1.0, a.Tensor(*logit), w, e); },
             aclnnLogit);
  const double inf = std::numeric_limits<double>::infinity();
  ExpectExact(logit->ReadView(), {-inf, inf, 0}, "Logit without eps");
  ExpectRuns([&](OpArgs& a, uint64_t* w,
                 aclOpExecutor** e) { return aclnnLogitGetWorkspaceSize(a.Tensor(x), 0.25, a.Tensor(*logit), w, e); },
             aclnnLogit);
  ExpectNear(logit->ReadView(), {{std::log(1.0 / 3), std::log(3.0), 0}, {1e-6, 1e-6, 0}}, "Logit with eps 0.25");
}

// NLLLoss's total weight is the summed weights of the rows not ignored; the
// mean over rows that are all ignored is 0 / 0, NaN (a single 1-D row: 0).
TEST(LossValues, NllTotalWeightAndIgnoredRows) {
  DeviceTensor self(ACL_FLOAT, {3, 2}), target(ACL_INT64, {3}), weight(ACL_FLOAT, {2});
  self.WriteView({-1, -2, -3, -4, -5, -6});
  target.WriteView({0, 1, -100});
  weight.WriteView({2, 0.5});
  auto run = [&](const DeviceTensor& t, int64_t reduction, DeviceTensor& out, DeviceTensor& total) {
    ExpectRuns(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnNLLLossGetWorkspaceSize(a.Tensor(self), a.Tensor(t), a.Tensor(weight), reduction, -100,
                                              a.Tensor(out), a.Tensor(total), w, e);
        },
        aclnnNLLLoss);
  };
  DeviceTensor out(ACL_FLOAT, Shape{}), total(ACL_FLOAT, Shape{});
  run(target, 2, out, total);
  ExpectExact(out.ReadView(), {2 * 1 + 0.5 * 4}, "NLLLoss sum");
  ExpectExact(total.ReadView(), {2.5}, "NLLLoss total weight");
  run(target, 1, out, total);
  ExpectExact(out.ReadView(), {ConvertValue(4.0 / 2.5, ACL_FLOAT)}, "NLLLoss mean");
  DeviceTensor ignored(ACL_INT64, {3});
  ignored.WriteView({-100, -100, -100});
  run(ignored, 1, out, total);
  ExpectExact(out.ReadView(), {kNan}, "NLLLoss mean of ignored rows");
  ExpectExact(total.ReadView(), {0}, "NLLLoss total weight of ignored rows");
}

// ---- rejections ----------------------------------------------------------------------------------

using Rejection = RejectionCase;

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<Rejection> Rejections() {
  const Shape m = {2, 3};
  auto t = [m](A& a, aclDataType dtype) { return a.NewTensor(dtype, m); };
  auto scalarOut = [](A& a, aclDataType dtype) { return a.NewTensor(dtype, {}); };
  return {
      {"L1Loss_reduction_3",
       [=](A& a, W w, E e) {
         return aclnnL1LossGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), 3, scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnL1Loss, "reduction"},
      {"L1Loss_integer_mean",
       [=](A& a, W w, E e) {
         return aclnnL1LossGetWorkspaceSize(t(a, ACL_INT64), t(a, ACL_INT64), 1, scalarOut(a, ACL_INT64), w, e);
       },
       aclnnL1Loss, "mean"},
      {"L1Loss_out_rank1_for_sum",
       [=](A& a, W w, E e) {
         return aclnnL1LossGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), 2, a.NewTensor(ACL_FLOAT, {1}), w, e);
       },
       aclnnL1Loss, "out"},
      {"MseLoss_double",
       [=](A& a, W w, E e) {
         return aclnnMseLossGetWorkspaceSize(t(a, ACL_DOUBLE), t(a, ACL_DOUBLE), 0, t(a, ACL_DOUBLE), w, e);
       },
       aclnnMseLoss, "DOUBLE"},
      {"MseLossOut_out_shape",
       [=](A& a, W w, E e) {
         return aclnnMseLossOutGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), 1, a.NewTensor(ACL_FLOAT, {2}), w, e);
       },
       aclnnMseLossOut, "out"},
      {"SmoothL1Loss_negative_beta",
       [=](A& a, W w, E e) {
         return aclnnSmoothL1LossGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), 1, -1.0F, scalarOut(a, ACL_FLOAT),
                                                  w, e);
       },
       aclnnSmoothL1Loss, "beta"},
      {"SoftMarginLoss_no_broadcast",
       [=](A& a, W w, E e) {
         return aclnnSoftMarginLossGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {4}), 1,
                                                    scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnSoftMarginLoss, "target"},
      {"BinaryCrossEntropy_shapes_differ",
       [=](A& a, W w, E e) {
         return aclnnBinaryCrossEntropyGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {3}), nullptr, 1,
                                                        scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnBinaryCrossEntropy, "target"},
      {"BinaryCrossEntropy_weight_dtype",
       [=](A& a, W w, E e) {
         return aclnnBinaryCrossEntropyGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), t(a, ACL_FLOAT16), 0,
                                                        t(a, ACL_FLOAT), w, e);
       },
       aclnnBinaryCrossEntropy, "weight"},
      {"BinaryCrossEntropyWithLogits_out_dtype",
       [=](A& a, W w, E e) {
         return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), nullptr, nullptr, 0,
                                                                  t(a, ACL_FLOAT16), w, e);
       },
       aclnnBinaryCrossEntropyWithLogits, "out"},
      {"KlDiv_reduction_4",
       [=](A& a, W w, E e) {
         return aclnnKlDivGetWorkspaceSize(t(a, ACL_FLOAT), t(a, ACL_FLOAT), 4, false, scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnKlDiv, "reduction"},
      {"NLLLoss_weight_dtype",
       [=](A& a, W w, E e) {
         return aclnnNLLLossGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_INT64, {2}),
                                             a.NewTensor(ACL_FLOAT16, {3}), 1, -100, scalarOut(a, ACL_FLOAT),
                                             scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnNLLLoss, "weight"},
      {"NLLLoss_target_float",
       [=](A& a, W w, E e) {
         return aclnnNLLLossGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_FLOAT, {2}), a.NewTensor(ACL_FLOAT, {3}),
                                             1, -100, scalarOut(a, ACL_FLOAT), scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnNLLLoss, "target"},
      {"NLLLoss_target_length",
       [=](A& a, W w, E e) {
         return aclnnNLLLossGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_INT64, {3}), a.NewTensor(ACL_FLOAT, {3}),
                                             1, -100, scalarOut(a, ACL_FLOAT), scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnNLLLoss, "target"},
      {"NLLLoss_weight_length",
       [=](A& a, W w, E e) {
         return aclnnNLLLossGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_INT64, {2}), a.NewTensor(ACL_FLOAT, {2}),
                                             1, -100, scalarOut(a, ACL_FLOAT), scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnNLLLoss, "weight"},
      {"NLLLoss_none_out_shape",
       [=](A& a, W w, E e) {
         return aclnnNLLLossGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(ACL_INT64, {2}), a.NewTensor(ACL_FLOAT, {3}),
                                             0, -100, scalarOut(a, ACL_FLOAT), scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnNLLLoss, "out"},
      // CANN's host code: no classes for targets that exist, whatever their values and ignoreIndex.
      {"NLLLoss_no_classes",
       [=](A& a, W w, E e) {
         return aclnnNLLLossGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {2, 0}), a.NewTensor(ACL_INT64, {2}),
                                             a.NewTensor(ACL_FLOAT, {0}), 1, -100, scalarOut(a, ACL_FLOAT),
                                             scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnNLLLoss, "out of bounds"},
      {"NLLLoss_no_classes_1d",
       [=](A& a, W w, E e) {
         return aclnnNLLLossGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {0}), a.NewTensor(ACL_INT64, {}),
                                             a.NewTensor(ACL_FLOAT, {0}), 2, -100, scalarOut(a, ACL_FLOAT),
                                             scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnNLLLoss, "out of bounds"},
      {"NLLLoss2d_rank3_self",
       [=](A& a, W w, E e) {
         return aclnnNLLLoss2dGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {2, 3, 4}), a.NewTensor(ACL_INT64, {2, 4}),
                                               a.NewTensor(ACL_FLOAT, {3}), 1, -100, scalarOut(a, ACL_FLOAT),
                                               scalarOut(a, ACL_FLOAT), w, e);
       },
       aclnnNLLLoss2d, "self"},
      {"Logit_out_dtype",
       [=](A& a, W w, E e) { return aclnnLogitGetWorkspaceSize(t(a, ACL_FLOAT), -1.0, t(a, ACL_FLOAT16), w, e); },
       aclnnLogit, "out"},
  };
}

// CANN's generated losses: the op definition's dtype table is 161002, what their tilings check 561002
// (HingeLoss's shapes 161002: its document has the first phase check them).
std::vector<Rejection> GeneratedLossRejections() {
  const aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Shape m = {2, 3};
  auto t = [m](A& a, aclDataType dtype) { return a.NewTensor(dtype, m); };
  auto f32 = [](A& a, const Shape& shape) { return a.NewTensor(ACL_FLOAT, shape); };
  auto hinge = [=](aclDataType p, aclDataType target, aclDataType loss, Shape targetShape, Shape lossShape) {
    return [=](A& a, W w, E e) {
      return aclnnHingeLossGetWorkspaceSize(t(a, p), a.NewTensor(target, targetShape), a.NewTensor(loss, lossShape), w,
                                            e);
    };
  };
  auto huber = [=](aclDataType p, aclDataType loss, Shape targetShape, Shape lossShape, float delta) {
    return [=](A& a, W w, E e) {
      return aclnnHuberLossGetWorkspaceSize(t(a, p), a.NewTensor(p, targetShape), delta, a.NewTensor(loss, lossShape),
                                            w, e);
    };
  };
  auto embedding = [=](aclDataType target, Shape targetShape, double margin, std::string reduction, Shape lossShape) {
    return [=](A& a, W w, E e) mutable {
      return aclnnHingeEmbeddingLossGetWorkspaceSize(t(a, ACL_FLOAT), a.NewTensor(target, targetShape), margin,
                                                     reduction.data(), f32(a, lossShape), w, e);
    };
  };
  auto lp = [=](Shape predictShape, Shape labelShape, aclDataType out, int64_t p, std::string reduction,
                Shape outShape) {
    return [=](A& a, W w, E e) {
      return aclnnLpLossGetWorkspaceSize(f32(a, predictShape), f32(a, labelShape), p, reduction.c_str(),
                                         a.NewTensor(out, outShape), w, e);
    };
  };
  struct Gauss {
    Shape input{2, 3}, target{2, 3}, var{2, 3};
    aclDataType varDtype = ACL_FLOAT, outDtype = ACL_FLOAT;
    double eps = 1e-6;
    std::string reduction = "none";
    Shape out{2, 3};
  };
  auto gauss = [](Gauss g) {
    return [g](A& a, W w, E e) mutable {
      return aclnnGaussianNllLossGetWorkspaceSize(a.NewTensor(ACL_FLOAT, g.input), a.NewTensor(ACL_FLOAT, g.target),
                                                  a.NewTensor(g.varDtype, g.var), false, g.eps, g.reduction.data(),
                                                  a.NewTensor(g.outDtype, g.out), w, e);
    };
  };
  const double inf = std::numeric_limits<double>::infinity();
  const aclDataType f = ACL_FLOAT, h = ACL_FLOAT16;
  return {
      {"HingeLoss_double", hinge(ACL_DOUBLE, ACL_DOUBLE, ACL_DOUBLE, m, m), aclnnHingeLoss, "predict"},
      {"HingeLoss_target_dtype", hinge(f, h, f, m, m), aclnnHingeLoss, "target"},
      {"HingeLoss_loss_dtype", hinge(h, h, ACL_BF16, m, m), aclnnHingeLoss, "loss"},
      {"HingeLoss_target_broadcast", hinge(f, f, f, {1, 3}, m), aclnnHingeLoss, "target"},
      {"HingeLoss_loss_shape", hinge(f, f, f, m, {3, 2}), aclnnHingeLoss, "loss"},
      {"HuberLoss_int32", huber(ACL_INT32, ACL_INT32, m, m, 1), aclnnHuberLoss, "predictions"},
      {"HuberLoss_loss_dtype", huber(f, h, m, m, 1), aclnnHuberLoss, "loss"},
      {"HuberLoss_targets_shape", huber(f, f, {2, 1}, m, 1), aclnnHuberLoss, "targets", kTiling},
      {"HuberLoss_loss_shape", huber(f, f, m, {6}, 1), aclnnHuberLoss, "loss", kTiling},
      {"HuberLoss_delta_0", huber(f, f, m, m, 0), aclnnHuberLoss, "delta", kTiling},
      {"HuberLoss_delta_nan", huber(f, f, m, m, std::numeric_limits<float>::quiet_NaN()), aclnnHuberLoss, "delta",
       kTiling},
      {"HingeEmbeddingLoss_target_dtype", embedding(h, m, 1, "mean", {}), aclnnHingeEmbeddingLoss, "target"},
      {"HingeEmbeddingLoss_target_shape", embedding(f, {1, 3}, 1, "mean", {}), aclnnHingeEmbeddingLoss, "target",
       kTiling},
      {"HingeEmbeddingLoss_margin_inf", embedding(f, m, inf, "mean", {}), aclnnHingeEmbeddingLoss, "margin", kTiling},
      {"HingeEmbeddingLoss_margin_above_float", embedding(f, m, 1e39, "mean", {}), aclnnHingeEmbeddingLoss, "margin",
       kTiling},
      {"HingeEmbeddingLoss_reduction_avg", embedding(f, m, 1, "avg", {}), aclnnHingeEmbeddingLoss, "reduction",
       kTiling},
      {"HingeEmbeddingLoss_none_loss_shape", embedding(f, m, 1, "none", {}), aclnnHingeEmbeddingLoss, "loss", kTiling},
      {"HingeEmbeddingLoss_sum_loss_two_elements", embedding(f, m, 1, "sum", {2}), aclnnHingeEmbeddingLoss, "loss",
       kTiling},
      {"LpLoss_out_dtype", lp(m, m, h, 1, "mean", {}), aclnnLpLoss, "out"},
      {"LpLoss_empty", lp({0, 3}, {0, 3}, f, 1, "sum", {}), aclnnLpLoss, "predict", kTiling},
      {"LpLoss_label_shape", lp(m, {3, 2}, f, 1, "sum", {}), aclnnLpLoss, "label", kTiling},
      {"LpLoss_p_2", lp(m, m, f, 2, "sum", {}), aclnnLpLoss, "'p'", kTiling},
      {"LpLoss_reduction_batchmean", lp(m, m, f, 1, "batchmean", {}), aclnnLpLoss, "reduction", kTiling},
      {"LpLoss_none_out_shape", lp(m, m, f, 1, "none", {6}), aclnnLpLoss, "out", kTiling},
      {"GaussianNllLoss_var_dtype", gauss({.varDtype = h}), aclnnGaussianNllLoss, "var"},
      {"GaussianNllLoss_out_dtype", gauss({.outDtype = h}), aclnnGaussianNllLoss, "out"},
      {"GaussianNllLoss_target_two_axes", gauss({.target = {1, 1}}), aclnnGaussianNllLoss, "target", kTiling},
      {"GaussianNllLoss_target_rank", gauss({.target = {3}}), aclnnGaussianNllLoss, "target", kTiling},
      {"GaussianNllLoss_var_not_leading", gauss({.var = {3}}), aclnnGaussianNllLoss, "var", kTiling},
      {"GaussianNllLoss_var_broadcast_first", gauss({.var = {1, 3}}), aclnnGaussianNllLoss, "var", kTiling},
      {"GaussianNllLoss_var_for_scalar_input",
       gauss({.input = {}, .target = {}, .var = {1}, .reduction = "sum", .out = {}}), aclnnGaussianNllLoss, "var",
       kTiling},
      {"GaussianNllLoss_eps_0", gauss({.eps = 0}), aclnnGaussianNllLoss, "eps", kTiling},
      {"GaussianNllLoss_eps_below_float", gauss({.eps = 1e-50}), aclnnGaussianNllLoss, "eps", kTiling},
      {"GaussianNllLoss_eps_inf", gauss({.eps = inf}), aclnnGaussianNllLoss, "eps", kTiling},
      {"GaussianNllLoss_reduction_capital", gauss({.reduction = "Mean", .out = {}}), aclnnGaussianNllLoss,
       "reductionOptional", kTiling},
      {"GaussianNllLoss_none_out_shape", gauss({.out = {}}), aclnnGaussianNllLoss, "out", kTiling},
      {"GaussianNllLoss_mean_out_two_elements", gauss({.reduction = "mean", .out = {2}}), aclnnGaussianNllLoss, "out",
       kTiling},
  };
}

// HingeEmbeddingLoss with labels 1 and -1: input itself, or max(0, margin - input).
TEST(LossValues, HingeEmbeddingLossPicksByTarget) {
  DeviceTensor input(ACL_FLOAT, {4}), target(ACL_FLOAT, {4});
  input.WriteView({0.5, -2, 0.25, 3});
  target.WriteView({1, 1, -1, -1});
  auto loss = Poisoned(ACL_FLOAT, {4});
  char none[] = "none";
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnHingeEmbeddingLossGetWorkspaceSize(a.Tensor(input), a.Tensor(target), 1.5, none, a.Tensor(*loss), w,
                                                       e);
      },
      aclnnHingeEmbeddingLoss);
  ExpectExact(loss->ReadView(), {0.5, -2, 1.25, 0}, "HingeEmbeddingLoss by label");
}

// GaussianNllLoss with a null reductionOptional takes the mean; a full loss adds 0.5 log(2 pi).
TEST(LossValues, GaussianNllLossDefaultsToTheMean) {
  DeviceTensor input(ACL_FLOAT, {2}), target(ACL_FLOAT, {2}), var(ACL_FLOAT, {2});
  input.WriteView({1, 3});
  target.WriteView({0, 1});
  var.WriteView({1, 0});  // 0 clamps to eps 0.5
  auto out = Poisoned(ACL_FLOAT, {});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnGaussianNllLossGetWorkspaceSize(a.Tensor(input), a.Tensor(target), a.Tensor(var), true, 0.5,
                                                    nullptr, a.Tensor(*out), w, e);
      },
      aclnnGaussianNllLoss);
  const double halfLog2Pi = 0.5 * std::log(2 * std::numbers::pi);
  const double want = (0.5 * (0 + 1) + 0.5 * (std::log(0.5) + 4 / 0.5)) / 2 + halfLog2Pi;
  ExpectNear(out->ReadView(), {{want}, {1e-6}}, "GaussianNllLoss mean of two");
}

class LossRejects : public ::testing::TestWithParam<Rejection> {};

TEST_P(LossRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Cases, LossRejects, ::testing::ValuesIn(Rejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return info.param.name; });
INSTANTIATE_TEST_SUITE_P(Generated, LossRejects, ::testing::ValuesIn(GeneratedLossRejections()),
                         [](const ::testing::TestParamInfo<Rejection>& info) { return info.param.name; });

}  // namespace
}  // namespace canopy_test
