// aclnnDequantSituQuant (CANN's quant/dequant_situ_quant, A2 kernels). x's rows [rows, 2H] in f32:
//   INT8 x:  x * weightScale (one value or one per column) + biasOptional (likewise);
//   INT32 x: x * weightScale * activationScale[row] + biasOptional (kernels/dequant_bias.h), with
//            groupIndexOptional group g's row of weightScale and bias: groupIndex[g] counts the
//            rows of group g in order (negative as 0, clipped to the rows left); rows past the sum
//            are not written;
//   f16 / bf16 x: taken as it is.
// The gate half (the first where activateLeft, else the second) and the up half give
// s = beta * tanh(gate / beta) * sigmoid(gate) * up', up' = linearBeta * tanh(up / linearBeta)
// when linearBeta > 0, else up. Then y = saturate(rint(q)) to INT8 (CANN's kernel rounds half to
// even; its doc says trunc):
//   static (INT8 x only): q = s / quantScale[c] + quantOffset[c], or s * (1 / quantScale) +
//            quantOffset[0] with one scale (a zero one taken as 1); yScaleOut not written.
//   dynamic: s times quantScaleOptional (the smooth scale, INT8 x only), yScaleOut = max|s| / 127
//            and q = s / yScaleOut (a zero scale divides as 1; it is written as 1 where CANN's
//            kernel does: every non-INT8 x, and INT8 rows too wide for one unified-buffer tile).
// CANN generates this op's aclnn layer from its op definition: the checks are the definition's
// dtypes, the doc's codes (161001 for a missing tensor the path needs, 161002 for the rest) in the
// tiling's order, and 561002 for the tiling's unified-buffer bound on the INT32 / f16 / bf16 rows.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aclnnop/aclnn_dequant_situ_quant.h"
#include "kernels/abs_max.h"
#include "kernels/dequant_bias.h"
#include "kernels/parallel_for.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kXDtypes = {ACL_INT8, ACL_INT32, ACL_BF16, ACL_FLOAT16};
constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR;
constexpr int64_t kRowGrain = 4;
constexpr float kQMax = 127.0F;
constexpr float kInverseQMax = 1.0F / 127.0F;  // the kernels' factor
// A2's unified buffer and what the tiling keeps back of it.
constexpr int64_t kUnifiedBuffer = 196608;
constexpr int64_t kReserved = 1024;
constexpr int64_t kBlock = 32;

enum class Path { kInt8, kInt32, kFloat };

struct Desc {
  Path path = Path::kInt8;
  int64_t rows = 0, n = 0, groups = 0;  // groups 0: no groupIndexOptional
  float beta = 0, linear_beta = 0;
  bool activate_left = true, dynamic = true, zero_scale_written_as_one = false;
  bool weight_one = false, has_bias = false, bias_one = false;
  bool has_quant_scale = false, quant_one = false, has_offset = false;
};

struct Buffers {
  BufferRef x, weight, activation, bias, scale, offset, group, y, scale_out;
};

class DequantSituQuantStep final : public Step {
 public:
  DequantSituQuantStep(const Desc& desc, const Buffers& buffers) : d_(desc), b_(buffers) {}

  aclnnStatus Run(const RunContext& context) const override {
    std::vector<int64_t> row_group(static_cast<size_t>(d_.rows), d_.groups > 0 ? -1 : 0);
    if (d_.groups > 0) GroupOfRows(context, row_group);
    kernels::ParallelFor(d_.rows, kRowGrain, [&](int64_t begin, int64_t end) {
      std::vector<float> row(static_cast<size_t>(2 * d_.n)), s(static_cast<size_t>(d_.n));
      for (int64_t r = begin; r < end; ++r) {
        const int64_t g = row_group[static_cast<size_t>(r)];
        if (g < 0) continue;
        Dequantise(context, r, g, row.data());
        Situ(row.data(), s.data());
        Quantise(context, r, s.data());
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    static constexpr const char* kPaths[] = {"int8", "int32", "float"};
    return std::string("dequant situ quant ") + kPaths[static_cast<int>(d_.path)] +
           (d_.dynamic ? " dynamic" : " static") + " rows=" + std::to_string(d_.rows) + " H=" + std::to_string(d_.n) +
           (d_.groups > 0 ? " groups=" + std::to_string(d_.groups) : std::string());
  }

 private:
  // Group g takes the next groupIndex[g] rows (negative as 0, clipped to the rows left), as
  // CANN's kernel walks them; rows past the sum keep -1.
  void GroupOfRows(const RunContext& context, std::vector<int64_t>& row_group) const {
    const auto* counts = reinterpret_cast<const int64_t*>(context.Resolve(b_.group));
    int64_t offset = 0;
    for (int64_t g = 0; g < d_.groups && offset < d_.rows; ++g) {
      const int64_t count = std::clamp<int64_t>(counts[g], 0, d_.rows - offset);
      std::fill(row_group.begin() + offset, row_group.begin() + offset + count, g);
      offset += count;
    }
  }

  void Dequantise(const RunContext& context, int64_t r, int64_t g, float* row) const {
    const int64_t width = 2 * d_.n;
    const auto* weight = reinterpret_cast<const float*>(context.Resolve(b_.weight));
    const float* bias = d_.has_bias ? reinterpret_cast<const float*>(context.Resolve(b_.bias)) : nullptr;
    if (d_.path == Path::kFloat) {
      const auto* x = reinterpret_cast<const float*>(context.Resolve(b_.x)) + r * width;
      std::copy(x, x + width, row);
    } else if (d_.path == Path::kInt32) {
      const auto* x = reinterpret_cast<const int32_t*>(context.Resolve(b_.x)) + r * width;
      const float activation = reinterpret_cast<const float*>(context.Resolve(b_.activation))[r];
      kernels::DequantiseRow(x, width, weight + g * width, activation, nullptr,
                             bias == nullptr ? nullptr : bias + g * width, row);
    } else {
      const auto* x = reinterpret_cast<const int8_t*>(context.Resolve(b_.x)) + r * width;
      for (int64_t c = 0; c < width; ++c) {
        float v = static_cast<float>(x[c]) * weight[d_.weight_one ? 0 : c];
        if (bias != nullptr) v += bias[d_.bias_one ? 0 : c];
        row[c] = v;
      }
    }
  }

  void Situ(const float* row, float* s) const {
    const float* gate = d_.activate_left ? row : row + d_.n;
    const float* up = d_.activate_left ? row + d_.n : row;
    const float inverse_beta = 1.0F / d_.beta;
    const float inverse_linear = d_.linear_beta > 0.0F ? 1.0F / d_.linear_beta : 0.0F;
    for (int64_t j = 0; j < d_.n; ++j) {
      const float g = gate[j];
      const float a = std::tanh(g * inverse_beta) * d_.beta * (1.0F / (1.0F + std::exp(-g)));
      const float u = d_.linear_beta > 0.0F ? std::tanh(up[j] * inverse_linear) * d_.linear_beta : up[j];
      s[j] = a * u;
    }
  }

  void Quantise(const RunContext& context, int64_t r, float* s) const {
    const int64_t n = d_.n;
    const auto* scale = d_.has_quant_scale ? reinterpret_cast<const float*>(context.Resolve(b_.scale)) : nullptr;
    const auto* offset = d_.has_offset ? reinterpret_cast<const float*>(context.Resolve(b_.offset)) : nullptr;
    if (d_.dynamic) {
      float max = 0.0F;
      for (int64_t j = 0; j < n; ++j) {
        if (scale != nullptr) s[j] *= scale[d_.quant_one ? 0 : j];
        max = kernels::AbsMaxKeepingNan(max, s[j]);
      }
      const float row_scale = max * kInverseQMax;
      // A NaN row keeps its NaN scale (its values then quantise to 0); only a zero row divides by 1.
      const bool zero = row_scale == 0.0F;
      const float divisor = zero ? 1.0F : row_scale;
      reinterpret_cast<float*>(context.Resolve(b_.scale_out))[r] =
          zero && d_.zero_scale_written_as_one ? 1.0F : row_scale;
      const float multiplier = 1.0F / divisor;
      for (int64_t j = 0; j < n; ++j) s[j] *= multiplier;
    } else if (d_.quant_one) {
      const float inverse = scale[0] == 0.0F ? 1.0F : 1.0F / scale[0];
      const float shift = offset != nullptr ? offset[0] : 0.0F;
      for (int64_t j = 0; j < n; ++j) s[j] = s[j] * inverse + shift;
    } else {
      for (int64_t j = 0; j < n; ++j) s[j] = s[j] / scale[j] + (offset != nullptr ? offset[j] : 0.0F);
    }
    auto* y = reinterpret_cast<int8_t*>(context.Resolve(b_.y)) + r * n;
    for (int64_t j = 0; j < n; ++j) {
      const float v = std::nearbyint(s[j]);  // half to even
      y[j] = std::isnan(v) ? int8_t{0} : static_cast<int8_t>(std::clamp(v, -kQMax - 1.0F, kQMax));
    }
  }

  Desc d_;
  Buffers b_;
};

aclnnStatus RejectShape(Plan& plan, const char* name, const aclTensor* t, const std::string& want) {
  return plan.Reject(kInvalid, "argument '%s' has shape %s; %s", name, ShapeToString(t->view_shape).c_str(),
                     want.c_str());
}

aclnnStatus RejectPresent(Plan& plan, const char* name, const char* path) {
  return plan.Reject(kInvalid, "argument '%s' must be null for %s", name, path);
}

// A tensor of `count` values or of one (the INT8 path's weight, bias and quant tensors).
aclnnStatus CheckCountOrOne(Plan& plan, const char* name, const aclTensor* t, int64_t count, const char* what) {
  const int64_t have = t->NumElements();
  if (have == count || have == 1) return ACLNN_SUCCESS;
  return RejectShape(plan, name, t, "it must hold 1 or " + std::to_string(count) + " values (" + what + ")");
}

// The INT32 path's weight and bias: [groups, 2H] with groups, else [2H] or [1, 2H].
aclnnStatus CheckInt32Rows(Plan& plan, const char* name, const aclTensor* t, int64_t width, int64_t groups) {
  const Shape& s = t->view_shape;
  const bool fits = groups > 0 ? s.size() == 2 && s[0] == groups && s[1] == width
                               : (s.size() == 1 && s[0] == width) || (s.size() == 2 && s[0] == 1 && s[1] == width);
  if (fits) return ACLNN_SUCCESS;
  const std::string w = std::to_string(width);
  return RejectShape(
      plan, name, t,
      groups > 0 ? "it must be [" + std::to_string(groups) + ", " + w + "] (groupIndexOptional's length, x's last dim)"
                 : "it must be [" + w + "] or [1, " + w + "] (x's last dim)");
}

// The INT8 path's tensors, in the tiling's order.
aclnnStatus CheckInt8(Plan& plan, const aclTensor* x, const aclTensor* weight, const aclTensor* activation,
                      const aclTensor* bias, const aclTensor* quant_scale, const aclTensor* quant_offset,
                      const aclTensor* group, int64_t width, Desc& d) {
  if (x->rank() < 2) return RejectShape(plan, "x", x, "an INT8 x must have at least 2 dims");
  if (weight == nullptr) return plan.Reject(kNull, "argument 'weightScaleOptional' is null; an INT8 x needs it");
  CANOPY_CHECK(CheckCountOrOne(plan, "weightScaleOptional", weight, width, "x's last dim"));
  if (activation != nullptr) return RejectPresent(plan, "activationScaleOptional", "an INT8 x");
  if (bias != nullptr) CANOPY_CHECK(CheckCountOrOne(plan, "biasOptional", bias, width, "x's last dim"));
  if (quant_scale != nullptr) CANOPY_CHECK(CheckCountOrOne(plan, "quantScaleOptional", quant_scale, d.n, "H"));
  if (!d.dynamic) {
    if (quant_scale == nullptr) {
      return plan.Reject(kNull, "argument 'quantScaleOptional' is null; the static quant type needs it");
    }
    if (quant_offset != nullptr) {
      CANOPY_CHECK(CheckCountOrOne(plan, "quantOffsetOptional", quant_offset, d.n, "H"));
      // The kernel reads H offsets beside H scales: one would take it past the tensor.
      if (quant_scale->NumElements() != 1 && quant_offset->NumElements() != d.n) {
        return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                           "argument 'quantOffsetOptional' holds 1 value; with H quant scales it must hold H (%lld)",
                           static_cast<long long>(d.n));
      }
    }
  }
  if (group != nullptr) return RejectPresent(plan, "groupIndexOptional", "an INT8 x");
  d.weight_one = weight->NumElements() == 1;
  d.has_bias = bias != nullptr;
  d.bias_one = d.has_bias && bias->NumElements() == 1;
  d.has_quant_scale = quant_scale != nullptr;
  d.quant_one = d.has_quant_scale && quant_scale->NumElements() == 1;
  d.has_offset = !d.dynamic && quant_offset != nullptr;
  return ACLNN_SUCCESS;
}

// The INT32 path's tensors, in the tiling's order.
aclnnStatus CheckInt32(Plan& plan, const aclTensor* weight, const aclTensor* activation, const aclTensor* bias,
                       const aclTensor* quant_scale, const aclTensor* quant_offset, const aclTensor* group,
                       int64_t width, Desc& d) {
  if (quant_scale != nullptr) return RejectPresent(plan, "quantScaleOptional", "an INT32 x");
  if (quant_offset != nullptr) return RejectPresent(plan, "quantOffsetOptional", "an INT32 x");
  if (!d.dynamic) return plan.Reject(kInvalid, "argument 'quantTypeOptional' must be \"dynamic\" for an INT32 x");
  if (weight == nullptr) return plan.Reject(kNull, "argument 'weightScaleOptional' is null; an INT32 x needs it");
  if (activation == nullptr) {
    return plan.Reject(kNull, "argument 'activationScaleOptional' is null; an INT32 x needs it");
  }
  if (group != nullptr) {
    if (group->rank() != 1 || group->view_shape[0] <= 0) {
      return RejectShape(plan, "groupIndexOptional", group, "it must be a non-empty 1-D tensor");
    }
    d.groups = group->view_shape[0];
  }
  CANOPY_CHECK(CheckInt32Rows(plan, "weightScaleOptional", weight, width, d.groups));
  const Shape& as = activation->view_shape;
  if (!(as.size() == 1 || (as.size() == 2 && as[1] == 1)) || activation->NumElements() != d.rows) {
    return RejectShape(
        plan, "activationScaleOptional", activation,
        "it must be [" + std::to_string(d.rows) + "] or [" + std::to_string(d.rows) + ", 1] (one value per row of x)");
  }
  if (bias != nullptr) CANOPY_CHECK(CheckInt32Rows(plan, "biasOptional", bias, width, d.groups));
  d.has_bias = bias != nullptr;
  return ACLNN_SUCCESS;
}

aclnnStatus CheckFloat(Plan& plan, const aclTensor* weight, const aclTensor* activation, const aclTensor* bias,
                       const aclTensor* quant_scale, const aclTensor* quant_offset, const aclTensor* group,
                       const Desc& d) {
  if (!d.dynamic) {
    return plan.Reject(kInvalid, "argument 'quantTypeOptional' must be \"dynamic\" for a FLOAT16 / BFLOAT16 x");
  }
  const struct {
    const char* name;
    const aclTensor* t;
  } unused[] = {
      {"weightScaleOptional", weight},     {"activationScaleOptional", activation}, {"biasOptional", bias},
      {"quantScaleOptional", quant_scale}, {"quantOffsetOptional", quant_offset},   {"groupIndexOptional", group}};
  for (const auto& u : unused) {
    if (u.t != nullptr) return RejectPresent(plan, u.name, "a FLOAT16 / BFLOAT16 x");
  }
  return ACLNN_SUCCESS;
}

aclnnStatus PlanDequantSituQuant(Plan& plan, const aclTensor* x, const aclTensor* weight, const aclTensor* activation,
                                 const aclTensor* bias, const aclTensor* quant_scale, const aclTensor* quant_offset,
                                 const aclTensor* group, float beta, float linearBeta, bool activateLeft,
                                 const char* quantType, const aclTensor* y, const aclTensor* y_scale) {
  // The op definition's dtypes.
  CANOPY_CHECK(plan.CheckDtype("x", x->dtype, kXDtypes));
  const struct {
    const char* name;
    const aclTensor* t;
  } floats[] = {{"weightScaleOptional", weight},
                {"activationScaleOptional", activation},
                {"biasOptional", bias},
                {"quantScaleOptional", quant_scale},
                {"quantOffsetOptional", quant_offset}};
  for (const auto& f : floats) {
    if (f.t != nullptr) CANOPY_CHECK(plan.CheckDtype(f.name, f.t->dtype, {ACL_FLOAT}));
  }
  if (group != nullptr) CANOPY_CHECK(plan.CheckDtype("groupIndexOptional", group->dtype, {ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("yOut", y->dtype, {ACL_INT8}));
  CANOPY_CHECK(plan.CheckDtype("yScaleOut", y_scale->dtype, {ACL_FLOAT}));
  for (const auto& [name, t] : {std::pair{"x", x}, std::pair{"yOut", y}, std::pair{"yScaleOut", y_scale}}) {
    if (t->NumElements() == 0) return plan.Reject(kInvalid, "argument '%s' is empty; CANN takes no empty tensor", name);
  }
  if (x->rank() < 1) return RejectShape(plan, "x", x, "it must have at least 1 dim");

  // The tiling's attributes: beta, then the quant type (case ignored; null is the default "dynamic").
  Desc d;
  d.beta = beta;
  d.linear_beta = linearBeta;
  d.activate_left = activateLeft;
  if (d.beta == 0.0F) return plan.Reject(kInvalid, "argument 'beta' must not be 0");
  std::string type = quantType == nullptr ? "dynamic" : quantType;
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char c) { return std::tolower(c); });
  if (type != "static" && type != "dynamic") {
    return plan.Reject(kInvalid, "argument 'quantTypeOptional' (\"%s\") must be \"static\" or \"dynamic\"", quantType);
  }
  d.dynamic = type == "dynamic";

  const Shape& xs = x->view_shape;
  const int64_t width = xs.back();
  if (width % 2 != 0) return RejectShape(plan, "x", x, "its last dim must be even");
  d.n = width / 2;
  d.rows = x->NumElements() / width;
  d.path = x->dtype == ACL_INT8 ? Path::kInt8 : x->dtype == ACL_INT32 ? Path::kInt32 : Path::kFloat;
  if (d.path != Path::kInt8 && x->rank() != 2) {
    return RejectShape(plan, "x", x, "an INT32 / FLOAT16 / BFLOAT16 x must be 2-D");
  }
  if (d.path == Path::kInt8) {
    CANOPY_CHECK(CheckInt8(plan, x, weight, activation, bias, quant_scale, quant_offset, group, width, d));
    // The tiling compares y's rank and last dim and yScaleOut's count; the counts keep writes inside.
    if (y->rank() != x->rank() || y->view_shape.back() != d.n || y->NumElements() != d.rows * d.n) {
      Shape want(xs.begin(), xs.end() - 1);
      want.push_back(d.n);
      return RejectShape(plan, "yOut", y, "it must be " + ShapeToString(want) + " (x's with the last dim halved)");
    }
    if (y_scale->NumElements() != d.rows) {
      return RejectShape(plan, "yScaleOut", y_scale,
                         "it must hold one value per row of x (" + std::to_string(d.rows) + ")");
    }
  } else {
    if (d.path == Path::kInt32) {
      CANOPY_CHECK(CheckInt32(plan, weight, activation, bias, quant_scale, quant_offset, group, width, d));
    } else {
      CANOPY_CHECK(CheckFloat(plan, weight, activation, bias, quant_scale, quant_offset, group, d));
    }
    if (y->view_shape != Shape{d.rows, d.n}) {
      return RejectShape(plan, "yOut", y, "it must be " + ShapeToString(Shape{d.rows, d.n}));
    }
    if (y_scale->view_shape != Shape{d.rows}) {
      return RejectShape(plan, "yScaleOut", y_scale, "it must be " + ShapeToString(Shape{d.rows}));
    }
    // What one row takes of the unified buffer (x double-buffered, f32 copies, y double-buffered).
    const int64_t per_column = d.path == Path::kInt32 ? 4 * 2 + 4 + (d.has_bias ? 4 : 0) + 4 : 2 * 2 + 4 + 4;
    const int64_t required = width * per_column + (d.n + kBlock) * 2 + kReserved;
    if (required > kUnifiedBuffer) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR,
                         "argument 'x' has last dim %lld; a row needs %lld bytes of the %lld-byte unified buffer",
                         static_cast<long long>(width), static_cast<long long>(required),
                         static_cast<long long>(kUnifiedBuffer));
    }
  }
  // Where the INT8 kernel tiles a row's columns (two passes), and the other kernels, a zero row
  // scale is written as 1.
  if (d.path == Path::kInt8) {
    const int64_t per_column =
        46 + (d.has_bias ? 8 : 0) + (d.has_quant_scale && !d.quant_one ? (d.dynamic ? 4 : 8) : 0);
    const int64_t max_tile = (kUnifiedBuffer - kReserved - kBlock) / per_column / kBlock * kBlock;
    d.zero_scale_written_as_one = d.n > max_tile;
  } else {
    d.zero_scale_written_as_one = true;
  }

  // Operands in prototype order; the optional ones the path reads made contiguous f32 (the group
  // counts INT64), the others skipped.
  const TensorRef src = plan.Input(x, "x");
  Buffers b;
  const struct {
    const aclTensor* tensor;
    const char* name;
    bool read;
    BufferRef* buffer;
  } optionals[] = {
      {weight, "weightScaleOptional", d.path != Path::kFloat, &b.weight},
      {activation, "activationScaleOptional", d.path == Path::kInt32, &b.activation},
      {bias, "biasOptional", d.has_bias, &b.bias},
      {quant_scale, "quantScaleOptional", d.has_quant_scale, &b.scale},
      {quant_offset, "quantOffsetOptional", d.has_offset, &b.offset},
      {group, "groupIndexOptional", d.groups > 0, &b.group},
  };
  std::vector<std::pair<TensorRef, BufferRef*>> read;
  for (const auto& o : optionals) {
    if (o.tensor == nullptr) {
      plan.SkipInput();
      continue;
    }
    const TensorRef in = plan.Input(o.tensor, o.name);
    if (o.read) read.emplace_back(in, o.buffer);
  }
  const TensorRef dst = plan.Output(y, "yOut");
  const TensorRef scale_out = plan.Output(y_scale, "yScaleOut");
  b.x = plan.Contiguous(src, d.path == Path::kFloat ? ACL_FLOAT : x->dtype).buffer;
  for (const auto& [in, buffer] : read)
    *buffer = plan.Contiguous(in, in.dtype == ACL_INT64 ? ACL_INT64 : ACL_FLOAT).buffer;
  // Outputs written in place where contiguous, else staged.
  const TensorRef y_dst = dst.IsContiguous() ? dst : plan.Temporary(dst.dtype, dst.shape);
  const TensorRef scale_dst = scale_out.IsContiguous() ? scale_out : plan.Temporary(ACL_FLOAT, scale_out.shape);
  b.y = y_dst.buffer;
  b.scale_out = scale_dst.buffer;
  plan.AddStep(std::make_unique<DequantSituQuantStep>(d, b));
  if (!dst.IsContiguous()) plan.Copy(y_dst, dst);
  if (d.dynamic && !scale_out.IsContiguous()) plan.Copy(scale_dst, scale_out);
  return ACLNN_SUCCESS;
}

constexpr DtypeSet kDequantSituQuantDtypes = kXDtypes | DtypeSet{ACL_FLOAT, ACL_INT64};

}  // namespace

CANOPY_ACLNN_OP(DequantSituQuant, PlanDequantSituQuant,
                (OpTraits{.header = "aclnnop/aclnn_dequant_situ_quant.h",
                          .dtypes = kDequantSituQuantDtypes,
                          .example = "bf16[2,64] - - - - - - 4.0 25.0 true 'dynamic' i8[2,32] f32[2]"}),
                (const aclTensor*, x), (const aclTensor*, weightScaleOptional, optional),
                (const aclTensor*, activationScaleOptional, optional), (const aclTensor*, biasOptional, optional),
                (const aclTensor*, quantScaleOptional, optional), (const aclTensor*, quantOffsetOptional, optional),
                (const aclTensor*, groupIndexOptional, optional), (float, beta), (float, linearBeta),
                (bool, activateLeft), (char*, quantTypeOptional, optional), (const aclTensor*, yOut),
                (const aclTensor*, yScaleOut))
