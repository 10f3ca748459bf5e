// aclnnFFN, FFNV2 and FFNV3 (ops-transformer ffn/): the feed-forward layer
//   y = act(x @ W1 + b1) @ W2 + b2
// over x [..., K1] viewed as M rows, with the weights [K1, N1] and [K2, N2], or a
// mixture of experts: weights [E, K, N], biases [E, N], and expertTokens giving
// each expert's rows in order (counts; cumulative row ends with V2 / V3's
// tokensIndexFlag). V1 and V2 take the tokens as a host int array (checked to
// sum to M), V3 as an INT64 device tensor read when the op runs (rows past the
// last expert become zeros).
//
// Activations: fastgelu x * sigmoid(1.702 x), gelu (tanh form), relu, silu; the
// gated geglu, swiglu and reglu split x @ W1 + b1 into halves L and R (N1 = 2 K2)
// and give L * act(R). The paths CANN's host code selects, with the hidden
// activation stored in x's dtype between the two products as its kernels do:
//   * FLOAT16, innerPrecise 1 (high performance, and the gated forms): the first
//     product rounded to f16 before the activation;
//   * FLOAT16, innerPrecise 0 (high precision) and BFLOAT16: activation in f32;
//   * weight quantisation (x f16 / bf16, weights INT8 / INT4): each weight
//     (w + antiquantOffset) * antiquantScale, per channel or per group of K rows
//     (INT4 only), rounded to x's dtype; the f16 path rounds the first product
//     to f16 as the high-performance one does;
//   * quantisation (x and weights INT8, INT32 biases): h = (x @ W1 + b1) *
//     deqScale1 (f16 for an f16 y, f32 for bf16), act(h), quantised to INT8 as
//     round(a * scale + offset) (f16 arithmetic where y is f16 or the scale per
//     channel), then (q @ W2 + b2) * deqScale2 into y. UINT64 / INT64 deqScales
//     hold an f32 in their low 32 bits (TransQuantParam's encoding).
// Products accumulate in f32 (grouped products on kernels/grouped_matmul when
// there are experts). Checks follow CANN's host code in its order with its codes;
// the tiling's (innerPrecise 0 or 1, at most 256 experts) are 561002.
//
// Atlas A2: ffn/README.md's product table marks A2 unsupported, but the host
// code registers the op for ascend910b and rejects only Ascend310P; Canopy
// follows the code.
//
// Deviations: y must have x's shape (CANN checks its rank only, then copies into
// it), so the gated forms need weight2's N equal to K1 too; an INT4 weight must
// be contiguous; INT8 x INT8 products accumulate in f32 (exact while the sums
// stay below 2^24).
#include <cctype>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "aclnnop/aclnn_ffn.h"
#include "aclnnop/aclnn_ffn_v2.h"
#include "aclnnop/aclnn_ffn_v3.h"
#include "kernels/grouped_matmul.h"
#include "kernels/quant_matmul.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/nn/matmul_planner.h"
#include "ops/nn/quant_rows.h"
#include "ops/nn/weight_quant_matmul.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr DtypeSet kXDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8};
constexpr DtypeSet kWeightDtypes = {ACL_FLOAT16, ACL_BF16, ACL_INT8, ACL_INT4};
constexpr int64_t kMinRank = 2, kMaxRank = 8;
constexpr int64_t kMaxK = 65535;
constexpr int64_t kMaxExperts = 256;
constexpr int64_t kHighPrecision = 0, kHighPerformance = 1;
constexpr double kFastGeluBeta = 1.702;
constexpr int64_t kMaxAlignedRows = (int64_t{1} << 31) - 1;

enum class Activation { kFastGelu, kRelu, kSilu, kGelu, kGeGlu, kSwiGlu, kReGlu, kInvalid };

// CANN's names, matched regardless of case.
Activation ActivationOf(const char* name) {
  static constexpr struct {
    const char* name;
    Activation activation;
  } kNames[] = {{"fastgelu", Activation::kFastGelu}, {"relu", Activation::kRelu},   {"silu", Activation::kSilu},
                {"gelu", Activation::kGelu},         {"geglu", Activation::kGeGlu}, {"swiglu", Activation::kSwiGlu},
                {"reglu", Activation::kReGlu}};
  for (const auto& entry : kNames) {
    if (std::strlen(name) != std::strlen(entry.name)) continue;
    bool same = true;
    for (size_t i = 0; same && name[i] != '\0'; ++i) {
      same = std::tolower(static_cast<unsigned char>(name[i])) == entry.name[i];
    }
    if (same) return entry.activation;
  }
  return Activation::kInvalid;
}

bool IsGated(Activation a) { return a == Activation::kGeGlu || a == Activation::kSwiGlu || a == Activation::kReGlu; }

enum class Path { kF16Performance, kF16Precision, kBf16, kAntiquant, kQuant };

// The arguments of any version; V3's optional tensors carry "Optional" in their names.
struct FfnCall {
  const aclTensor* x = nullptr;
  const aclTensor* weight1 = nullptr;
  const aclTensor* weight2 = nullptr;
  const aclIntArray* tokens_array = nullptr;  // V1, V2
  const aclTensor* tokens_tensor = nullptr;   // V3
  const aclTensor* bias1 = nullptr;
  const aclTensor* bias2 = nullptr;
  const aclTensor* scale = nullptr;
  const aclTensor* offset = nullptr;
  const aclTensor* deq_scale1 = nullptr;
  const aclTensor* deq_scale2 = nullptr;
  const aclTensor* antiquant_scale1 = nullptr;
  const aclTensor* antiquant_scale2 = nullptr;
  const aclTensor* antiquant_offset1 = nullptr;
  const aclTensor* antiquant_offset2 = nullptr;
  const char* activation = nullptr;
  int64_t inner_precise = 0;
  bool tokens_index = false;
  const aclTensor* y = nullptr;
  bool v3 = false;
};

// What the checks establish for planning.
struct FfnShape {
  Activation activation = Activation::kInvalid;
  Path path = Path::kF16Performance;
  int64_t experts = 0;  // 0: none
  int64_t m = 0, k1 = 0, n1 = 0, k2 = 0, n2 = 0;
  bool per_group = false;  // antiquant
};

// An optional argument's name in the version's prototype (V3 appends "Optional").
class Names {
 public:
  explicit Names(bool v3) : v3_(v3) {}
  std::string operator()(const char* base) const { return v3_ ? std::string(base) + "Optional" : std::string(base); }

 private:
  bool v3_;
};

const Shape& ShapeOf(const aclTensor* t) { return t->view_shape; }
long long Ll(int64_t v) { return static_cast<long long>(v); }

aclnnStatus CheckExpertTokens(Plan& plan, const FfnCall& c, int64_t m) {
  const std::vector<int64_t>& values = c.tokens_array->values;
  int64_t total = 0, previous = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    const int64_t v = values[i];
    if (c.tokens_index) {
      if (v < previous) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                           "argument 'expertTokens' holds row ends that decrease (%lld then %lld at index %zu)",
                           Ll(previous), Ll(v), i);
      }
      previous = v;
      total = v;
    } else {
      if (v < 0) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'expertTokens'[%zu] is %lld; counts must be >= 0", i,
                           Ll(v));
      }
      total = v > m - total ? m + 1 : total + v;  // past m: the sum is wrong whatever follows
    }
  }
  if (total != m) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'expertTokens' covers %s%lld rows; x has %lld (the product of its leading dims)",
                       total > m ? "more than " : "", Ll(total > m ? m : total), Ll(m));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckShapes(Plan& plan, const FfnCall& c, FfnShape& s) {
  const aclTensor* x = c.x;
  if (c.y->rank() != x->rank()) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'y' has rank %lld; it must have x's rank %lld",
                       Ll(c.y->rank()), Ll(x->rank()));
  }
  CANOPY_CHECK(plan.CheckRank("x", x, kMinRank, kMaxRank));
  const bool experts = s.experts > 0;
  const int64_t weight_rank = experts ? 3 : 2;
  for (const auto& [name, w] : {std::pair{"weight1", c.weight1}, std::pair{"weight2", c.weight2}}) {
    if (w->rank() != weight_rank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be %lld (%s experts)", name,
                         Ll(w->rank()), Ll(weight_rank), experts ? "with" : "without");
    }
  }
  const Shape& w1 = ShapeOf(c.weight1);
  const Shape& w2 = ShapeOf(c.weight2);
  s.k1 = x->view_shape.back();
  s.n1 = w1.back();
  s.k2 = w2[w2.size() - 2];
  s.n2 = w2.back();
  s.m = 1;
  for (size_t d = 0; d + 1 < x->view_shape.size(); ++d) s.m *= x->view_shape[d];
  if (w1[w1.size() - 2] > kMaxK || s.k2 > kMaxK) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "the K extents of weight1 (%lld) and weight2 (%lld) must be <= %lld",
                       Ll(w1[w1.size() - 2]), Ll(s.k2), Ll(kMaxK));
  }
  if (w1[w1.size() - 2] != s.k1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "x's last extent %lld differs from weight1's K %lld", Ll(s.k1),
                       Ll(w1[w1.size() - 2]));
  }
  if (IsGated(s.activation)) {
    if (s.n1 % 2 != 0 || s.k2 != s.n1 / 2) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "a gated activation needs weight1's N (%lld) even and weight2's K (%lld) its half", Ll(s.n1),
                         Ll(s.k2));
    }
    // CANN does not check this here; its kernel would write rows of weight2's N into y's rows of K1.
    if (s.n2 != s.k1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight2's N (%lld) must equal weight1's K (%lld)", Ll(s.n2),
                         Ll(s.k1));
    }
  } else {
    if (s.n2 != s.k1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight2's N (%lld) must equal weight1's K (%lld)", Ll(s.n2),
                         Ll(s.k1));
    }
    if (s.k2 != s.n1) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "weight2's K (%lld) must equal weight1's N (%lld)", Ll(s.k2),
                         Ll(s.n1));
    }
    if (experts && (w1[0] != s.experts || w2[0] != s.experts)) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "weight1 %s and weight2 %s must hold one matrix per expert (%lld experts in expertTokens)",
                         ShapeToString(w1).c_str(), ShapeToString(w2).c_str(), Ll(s.experts));
    }
  }
  const Names names(c.v3);
  for (const auto& [base, bias, n] : {std::tuple{"bias1", c.bias1, s.n1}, std::tuple{"bias2", c.bias2, s.n2}}) {
    if (bias == nullptr) continue;
    const std::string name = names(base);
    const Shape want = experts ? Shape{s.experts, n} : Shape{n};
    if (bias->view_shape != want) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be %s", name.c_str(),
                         ShapeToString(bias->view_shape).c_str(), ShapeToString(want).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckBiasDtypes(Plan& plan, const FfnCall& c, aclDataType dtype) {
  const Names names(c.v3);
  if (c.bias1 != nullptr) CANOPY_CHECK(plan.CheckDtype(names("bias1").c_str(), c.bias1->dtype, DtypeSet{dtype}));
  if (c.bias2 != nullptr) CANOPY_CHECK(plan.CheckDtype(names("bias2").c_str(), c.bias2->dtype, DtypeSet{dtype}));
  return ACLNN_SUCCESS;
}

aclnnStatus CheckAbsent(Plan& plan, const FfnCall& c, bool quant, const char* path) {
  const Names names(c.v3);
  const auto check = [&](const char* base, const aclTensor* t) {
    if (t == nullptr) return ACLNN_SUCCESS;
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' must be null on the %s path", names(base).c_str(), path);
  };
  if (quant) {
    CANOPY_CHECK(check("scale", c.scale));
    CANOPY_CHECK(check("offset", c.offset));
    CANOPY_CHECK(check("deqScale1", c.deq_scale1));
    return check("deqScale2", c.deq_scale2);
  }
  CANOPY_CHECK(check("antiquantScale1", c.antiquant_scale1));
  CANOPY_CHECK(check("antiquantScale2", c.antiquant_scale2));
  CANOPY_CHECK(check("antiquantOffset1", c.antiquant_offset1));
  return check("antiquantOffset2", c.antiquant_offset2);
}

aclnnStatus RequirePresent(Plan& plan, const char* name, const aclTensor* t, const char* path) {
  if (t != nullptr) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' is required on the %s path", name, path);
}

aclnnStatus CheckAntiquant(Plan& plan, const FfnCall& c, FfnShape& s) {
  const Names names(c.v3);
  const char* path = "weight-quantised";
  const aclTensor* params[] = {c.antiquant_scale1, c.antiquant_scale2, c.antiquant_offset1, c.antiquant_offset2};
  const char* bases[] = {"antiquantScale1", "antiquantScale2", "antiquantOffset1", "antiquantOffset2"};
  for (int i = 0; i < 4; ++i) CANOPY_CHECK(RequirePresent(plan, names(bases[i]).c_str(), params[i], path));
  const DtypeSet scale_dtypes{c.x->dtype};
  for (int i = 0; i < 4; ++i) CANOPY_CHECK(plan.CheckDtype(names(bases[i]).c_str(), params[i]->dtype, scale_dtypes));
  CANOPY_CHECK(CheckAbsent(plan, c, true, path));
  CANOPY_CHECK(CheckBiasDtypes(plan, c, c.x->dtype == ACL_BF16 ? ACL_FLOAT : ACL_FLOAT16));
  const bool experts = s.experts > 0;
  const int64_t channel_rank = experts ? 2 : 1;
  const int64_t rank = c.antiquant_scale1->rank();
  if (rank != channel_rank && rank != channel_rank + 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument '%s' has rank %lld; it must be %lld (per channel) or %lld (per group)",
                       names("antiquantScale1").c_str(), Ll(rank), Ll(channel_rank), Ll(channel_rank + 1));
  }
  for (int i = 1; i < 4; ++i) {
    if (params[i]->rank() != rank) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has rank %lld; it must be antiquantScale1's %lld",
                         names(bases[i]).c_str(), Ll(params[i]->rank()), Ll(rank));
    }
  }
  for (int i = 0; i < 2; ++i) {
    if (params[i + 2]->view_shape != params[i]->view_shape) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' %s must have %s's shape %s",
                         names(bases[i + 2]).c_str(), ShapeToString(params[i + 2]->view_shape).c_str(), bases[i],
                         ShapeToString(params[i]->view_shape).c_str());
    }
  }
  const int64_t n[2] = {s.n1, s.n2};
  const int64_t k[2] = {s.k1, s.k2};
  for (int i = 0; i < 4; ++i) {
    if (params[i]->view_shape.back() != n[i % 2]) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has last extent %lld; it must be weight%d's N %lld",
                         names(bases[i]).c_str(), Ll(params[i]->view_shape.back()), i % 2 + 1, Ll(n[i % 2]));
    }
  }
  if (c.weight1->dtype == ACL_INT4 && (s.n1 % 2 != 0 || s.n2 % 2 != 0)) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "INT4 weights need even N extents (weight1 %lld, weight2 %lld)",
                       Ll(s.n1), Ll(s.n2));
  }
  if (experts) {
    for (int i = 0; i < 4; ++i) {
      if (params[i]->view_shape[0] != s.experts) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has %lld expert rows; expertTokens has %lld",
                           names(bases[i]).c_str(), Ll(params[i]->view_shape[0]), Ll(s.experts));
      }
    }
  }
  s.per_group = rank == channel_rank + 1;
  if (s.per_group) {
    for (int i = 0; i < 2; ++i) {
      const int64_t groups = params[i]->view_shape[static_cast<size_t>(rank - 2)];
      if (groups < 1 || k[i] % groups != 0) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has %lld groups; they must divide weight%d's K %lld",
                           names(bases[i]).c_str(), Ll(groups), i + 1, Ll(k[i]));
      }
    }
    if (c.weight1->dtype != ACL_INT4) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "per-group weight quantisation needs INT4 weights, not %s",
                         DtypeName(c.weight1->dtype));
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckQuant(Plan& plan, const FfnCall& c, const FfnShape& s) {
  const Names names(c.v3);
  const char* path = "quantised";
  CANOPY_CHECK(RequirePresent(plan, names("scale").c_str(), c.scale, path));
  CANOPY_CHECK(RequirePresent(plan, names("offset").c_str(), c.offset, path));
  CANOPY_CHECK(RequirePresent(plan, names("deqScale1").c_str(), c.deq_scale1, path));
  CANOPY_CHECK(RequirePresent(plan, names("deqScale2").c_str(), c.deq_scale2, path));
  const bool bf16_out = c.y->dtype == ACL_BF16;
  const DtypeSet deq_dtypes = bf16_out ? DtypeSet{ACL_BF16} : DtypeSet{ACL_UINT64, ACL_INT64, ACL_FLOAT};
  CANOPY_CHECK(plan.CheckDtype(names("deqScale1").c_str(), c.deq_scale1->dtype, deq_dtypes));
  CANOPY_CHECK(plan.CheckDtype(names("deqScale2").c_str(), c.deq_scale2->dtype, DtypeSet{c.deq_scale1->dtype}));
  CANOPY_CHECK(plan.CheckDtype(names("scale").c_str(), c.scale->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype(names("offset").c_str(), c.offset->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(CheckAbsent(plan, c, false, path));
  const bool experts = s.experts > 0;
  const Shape want1 = experts ? Shape{s.experts, s.n1} : Shape{s.n1};
  const Shape want2 = experts ? Shape{s.experts, s.n2} : Shape{s.n2};
  for (const auto& [base, t, want] :
       {std::tuple{"deqScale1", c.deq_scale1, want1}, std::tuple{"deqScale2", c.deq_scale2, want2}}) {
    if (t->view_shape != want) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be %s", names(base).c_str(),
                         ShapeToString(t->view_shape).c_str(), ShapeToString(want).c_str());
    }
  }
  const int64_t one = experts ? s.experts : 1;
  if (c.offset->view_shape != Shape{one}) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be [%lld]",
                       names("offset").c_str(), ShapeToString(c.offset->view_shape).c_str(), Ll(one));
  }
  const Shape& ss = c.scale->view_shape;
  const bool per_tensor = ss == Shape{one};
  const bool per_channel = experts ? ss == Shape{s.experts, s.n1} : ss == Shape{s.n1};
  if (!per_tensor && !per_channel) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has shape %s; it must be [%lld] or %s",
                       names("scale").c_str(), ShapeToString(ss).c_str(), Ll(one),
                       ShapeToString(experts ? Shape{s.experts, s.n1} : Shape{s.n1}).c_str());
  }
  if (per_channel && (experts || s.n1 != 1) && c.deq_scale1->dtype == ACL_FLOAT) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "a per-channel '%s' needs '%s' UINT64 or INT64 (FLOAT16 y) or BFLOAT16 (BFLOAT16 y), not FLOAT",
                       names("scale").c_str(), names("deqScale1").c_str());
  }
  return ACLNN_SUCCESS;
}

// CANN's CheckOptionalParams: the path from the dtypes, and its checks.
aclnnStatus CheckDtypes(Plan& plan, const FfnCall& c, FfnShape& s) {
  const aclDataType x = c.x->dtype, w = c.weight1->dtype, y = c.y->dtype;
  CANOPY_CHECK(plan.CheckDtype("x", x, kXDtypes));
  CANOPY_CHECK(plan.CheckDtype("weight2", c.weight2->dtype, DtypeSet{w}));
  CANOPY_CHECK(plan.CheckDtype("weight1", w, kWeightDtypes));
  if (IsGated(s.activation)) {
    CANOPY_CHECK(plan.CheckDtype("x", x, DtypeSet{ACL_FLOAT16}));
    CANOPY_CHECK(plan.CheckDtype("weight1", w, DtypeSet{ACL_FLOAT16}));
    if (c.inner_precise != kHighPerformance) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                         "a gated activation needs innerPrecise 1 (high performance), not %lld", Ll(c.inner_precise));
    }
    if (s.experts > 0) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "a gated activation takes no expertTokens");
    }
    CANOPY_CHECK(CheckBiasDtypes(plan, c, ACL_FLOAT16));
    // CANN leaves y's dtype to its kernel, which writes FLOAT16.
    CANOPY_CHECK(plan.CheckDtype("y", y, DtypeSet{ACL_FLOAT16}));
    s.path = Path::kF16Performance;
    return ACLNN_SUCCESS;
  }
  if (x == ACL_BF16) {
    CANOPY_CHECK(plan.CheckDtype("y", y, DtypeSet{ACL_BF16}));
    if (w == ACL_BF16) {
      if (c.inner_precise != kHighPrecision) {
        return plan.Reject(ACLNN_ERR_PARAM_INVALID, "BFLOAT16 takes innerPrecise 0 (high precision) only, not %lld",
                           Ll(c.inner_precise));
      }
      CANOPY_CHECK(CheckAbsent(plan, c, true, "BFLOAT16"));
      CANOPY_CHECK(CheckAbsent(plan, c, false, "BFLOAT16"));
      CANOPY_CHECK(CheckBiasDtypes(plan, c, ACL_FLOAT));
      s.path = Path::kBf16;
      return ACLNN_SUCCESS;
    }
    if (w == ACL_INT8 || w == ACL_INT4) {
      s.path = Path::kAntiquant;
      return CheckAntiquant(plan, c, s);
    }
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "BFLOAT16 x takes BFLOAT16, INT8 or INT4 weights, not %s",
                       DtypeName(w));
  }
  if (x == ACL_INT8) {
    CANOPY_CHECK(plan.CheckDtype("weight1", w, DtypeSet{ACL_INT8}));
    CANOPY_CHECK(CheckBiasDtypes(plan, c, ACL_INT32));
    CANOPY_CHECK(plan.CheckDtype("y", y, DtypeSet{ACL_FLOAT16, ACL_BF16}));
    s.path = Path::kQuant;
    return CheckQuant(plan, c, s);
  }
  CANOPY_CHECK(plan.CheckDtype("y", y, DtypeSet{ACL_FLOAT16}));
  if (w == ACL_INT8 || w == ACL_INT4) {
    s.path = Path::kAntiquant;
    return CheckAntiquant(plan, c, s);
  }
  CANOPY_CHECK(plan.CheckDtype("weight1", w, DtypeSet{ACL_FLOAT16}));
  CANOPY_CHECK(CheckAbsent(plan, c, true, "FLOAT16"));
  CANOPY_CHECK(CheckAbsent(plan, c, false, "FLOAT16"));
  CANOPY_CHECK(CheckBiasDtypes(plan, c, ACL_FLOAT16));
  s.path = c.inner_precise == kHighPrecision ? Path::kF16Precision : Path::kF16Performance;
  return ACLNN_SUCCESS;
}

// ---- planning

// The experts' rows: none, or a group list (counts or cumulative ends) for the grouped products.
struct Experts {
  int64_t count = 0;
  TensorRef list;  // INT64 [count]
  bool counts = true;
};

// out [m, n] f32 = a [m, k] f32 @ w[e] + bias[e] for the rows of expert e; w [E, k, n] and bias [E, n]
// dense f32 (E = 1 without experts).
aclnnStatus PlanExpertProduct(Plan& plan, const TensorRef& a, const TensorRef& w, const TensorRef* bias,
                              const Experts& ex, const TensorRef& out) {
  const int64_t m = a.shape[0], k = a.shape[1], n = w.shape[2];
  if (ex.count == 0) {
    ProductTerms terms;
    TensorRef rows;
    if (bias != nullptr) {
      rows = BroadcastTo(*bias, {m, n});
      terms.beta = 1.0f;
      terms.bias = &rows;
    }
    return PlanProduct(plan, a, Select(w, 0, 0), out, 0, terms);
  }
  kernels::GroupedGemmDesc desc;
  desc.groups = ex.count;
  desc.m = m;
  desc.k = k;
  desc.n = n;
  desc.x = plan.Contiguous(a, ACL_FLOAT).buffer;
  desc.weight = w.buffer;
  if (bias != nullptr) {
    desc.bias = bias->buffer;
    desc.has_bias = true;
  }
  desc.group_list = ex.list.buffer;
  desc.group_list_stride = ex.list.shape[0] > 1 ? ex.list.strides[0] : 1;
  desc.counts = ex.counts;
  plan.Fill(out, ScalarValue::Integer(0));  // rows past the last expert
  desc.y = out.buffer;
  plan.AddStep(kernels::MakeGroupedGemmStep(desc));
  return ACLNN_SUCCESS;
}

// A [E, ...] parameter (E = 1 without experts, where the tensor lacks the dim) as dense f32.
TensorRef PerExpert(Plan& plan, const TensorRef& t, bool experts) {
  return plan.Contiguous(experts ? t : Unsqueeze(t, 0), ACL_FLOAT);
}

// The weight as dense f32 [E, k, n]: converted, or dequantised ((w + offset) * scale) and
// rounded to x's dtype as the cube's operand is.
TensorRef DenseWeight(Plan& plan, const TensorRef& w, const TensorRef* scale, const TensorRef* offset, bool experts,
                      aclDataType x_dtype) {
  const TensorRef w3 = experts ? w : Unsqueeze(w, 0);
  if (scale == nullptr) return plan.Contiguous(w3, ACL_FLOAT);
  const int64_t k = w3.shape[1], n = w3.shape[2];
  TensorRef dense = plan.Temporary(ACL_FLOAT, w3.shape);
  if (k == 0 || n == 0) return dense;
  const TensorRef src = w.dtype == ACL_INT4 ? w3 : plan.Contiguous(w3, w.dtype);
  const auto grid = [&](const TensorRef& t) {  // [E, G, n], dense
    const TensorRef per_expert = PerExpert(plan, t, experts);
    return per_expert.rank() == 2 ? Unsqueeze(per_expert, 1) : per_expert;
  };
  const TensorRef scales = grid(*scale);
  const TensorRef offsets = grid(*offset);
  PlanDequantizeExperts(plan, src, scales, &offsets, dense);
  const TensorRef rounded = plan.Temporary(x_dtype, w3.shape);
  plan.Copy(dense, rounded);
  plan.Copy(rounded, dense);
  return dense;
}

// A [E, n] table (E = 1 without experts) expanded to one row per row of x: row i holds
// the row of the expert that owns row i (a product of a column of ones), [m, n] f32.
aclnnStatus PerRow(Plan& plan, const TensorRef& table, const Experts& ex, int64_t m, TensorRef& rows) {
  const int64_t n = table.shape[1];
  if (ex.count == 0) {
    rows = BroadcastTo(Narrow(table, 0, 0, 1), {m, n});
    return ACLNN_SUCCESS;
  }
  const TensorRef ones = plan.Temporary(ACL_FLOAT, {m, 1});
  plan.Fill(ones, ScalarValue::Real(1.0));
  const TensorRef w = plan.Contiguous(Unsqueeze(table, 1), ACL_FLOAT);  // [E, 1, n]
  rows = plan.Temporary(ACL_FLOAT, {m, n});
  return PlanExpertProduct(plan, ones, w, nullptr, ex, rows);
}

void PlanActivation(Plan& plan, Activation act, const TensorRef& h, const TensorRef& out) {
  UnaryParams params;
  UnaryOp op = UnaryOp::kRelu;
  switch (act) {
    case Activation::kFastGelu:
      op = UnaryOp::kSwish;
      params.a = kFastGeluBeta;
      break;
    case Activation::kSilu:
    case Activation::kSwiGlu:
      op = UnaryOp::kSilu;
      break;
    case Activation::kGelu:
    case Activation::kGeGlu:
      op = UnaryOp::kGeluTanh;
      break;
    default:
      break;
  }
  if (!IsGated(act)) {
    plan.Unary(op, ComputeType::kF32, h, out, params);
    return;
  }
  const int64_t half = h.shape[1] / 2;
  const TensorRef gate = plan.Temporary(ACL_FLOAT, {h.shape[0], half});
  plan.Unary(op, ComputeType::kF32, Narrow(h, 1, half, half), gate, params);
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {Narrow(h, 1, 0, half), gate}, out, ScalarValue::Integer(1));
}

struct Operands {
  TensorRef x, w1, w2, b1, b2, scale, offset, deq1, deq2, as1, as2, ao1, ao2, y;
};

// round(a * scale + offset) saturated to INT8, as AscendQuant computes it.
aclnnStatus PlanQuantise(Plan& plan, const FfnCall& c, const Operands& o, const Experts& ex, const TensorRef& a,
                         const TensorRef& q) {
  const int64_t m = a.shape[0], n = a.shape[1];
  const bool experts = ex.count > 0;
  const bool per_channel = c.scale->view_shape != Shape{experts ? ex.count : 1};
  TensorRef scale_rows, offset_rows;
  const TensorRef scale_table = experts ? (per_channel ? o.scale : Unsqueeze(o.scale, 1)) : Unsqueeze(o.scale, 0);
  CANOPY_CHECK(PerRow(plan, scale_table, ex, m, scale_rows));
  CANOPY_CHECK(PerRow(plan, experts ? Unsqueeze(o.offset, 1) : Unsqueeze(o.offset, 0), ex, m, offset_rows));
  // f16 arithmetic for an f16 y and for per-channel scales; else f32 cast through f16.
  const bool half = c.y->dtype == ACL_FLOAT16 || per_channel;
  const aclDataType work = half ? ACL_FLOAT16 : ACL_FLOAT;
  const TensorRef a_work = plan.Contiguous(a, work);
  const TensorRef s = plan.Contiguous(BroadcastTo(scale_rows, {m, n}), work);
  const TensorRef off = plan.Contiguous(BroadcastTo(offset_rows, {m, n}), work);
  const TensorRef product = plan.Temporary(work, {m, n});
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {a_work, s}, product, ScalarValue::Integer(1));
  const TensorRef sum = plan.Temporary(work, {m, n});
  plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {product, off}, sum, ScalarValue::Integer(1));
  const TensorRef unit = plan.Temporary(ACL_FLOAT, {1});
  plan.Fill(unit, ScalarValue::Real(1.0));
  kernels::QuantAffineDesc desc;
  desc.in_dtype = work;
  desc.out_dtype = ACL_INT8;
  desc.elements = m * n;
  desc.through_half = !half;
  AddAffineStep(plan, desc, sum, unit, nullptr, q);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanCompute(Plan& plan, const FfnCall& c, const FfnShape& s, const Operands& o, const Experts& ex) {
  const int64_t m = s.m;
  const bool experts = ex.count > 0;
  const aclDataType x_dtype = c.x->dtype;
  const std::optional<TensorRef> x2d = Reshape(plan.Contiguous(o.x, ACL_FLOAT), {m, s.k1});
  const bool anti = s.path == Path::kAntiquant;
  const TensorRef w1 = DenseWeight(plan, o.w1, anti ? &o.as1 : nullptr, anti ? &o.ao1 : nullptr, experts, x_dtype);
  const TensorRef w2 = DenseWeight(plan, o.w2, anti ? &o.as2 : nullptr, anti ? &o.ao2 : nullptr, experts, x_dtype);
  TensorRef b1, b2;
  if (c.bias1 != nullptr) b1 = PerExpert(plan, o.b1, experts);
  if (c.bias2 != nullptr) b2 = PerExpert(plan, o.b2, experts);
  const TensorRef h = plan.Temporary(ACL_FLOAT, {m, s.n1});
  CANOPY_CHECK(PlanExpertProduct(plan, *x2d, w1, c.bias1 != nullptr ? &b1 : nullptr, ex, h));
  const TensorRef out = plan.Temporary(ACL_FLOAT, {m, s.n2});
  const TensorRef* b2p = c.bias2 != nullptr ? &b2 : nullptr;
  if (s.path != Path::kQuant) {
    // The f16 kernels other than high precision store the first product in f16.
    const bool f16_hidden = x_dtype == ACL_FLOAT16 && s.path != Path::kF16Precision;
    const TensorRef hidden = f16_hidden ? plan.Contiguous(h, ACL_FLOAT16) : h;
    const TensorRef a = plan.Temporary(x_dtype, {m, s.k2});
    PlanActivation(plan, s.activation, hidden, a);
    CANOPY_CHECK(PlanExpertProduct(plan, plan.Contiguous(a, ACL_FLOAT), w2, b2p, ex, out));
  } else {
    const aclDataType act_dtype = c.y->dtype == ACL_FLOAT16 ? ACL_FLOAT16 : ACL_FLOAT;
    TensorRef deq1;
    CANOPY_CHECK(PerRow(plan, experts ? DeqScaleValues(o.deq1) : Unsqueeze(DeqScaleValues(o.deq1), 0), ex, m, deq1));
    const TensorRef dequantised = plan.Temporary(act_dtype, {m, s.n1});
    plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {h, deq1}, dequantised, ScalarValue::Integer(1));
    const TensorRef a = plan.Temporary(act_dtype, {m, s.k2});
    PlanActivation(plan, s.activation, dequantised, a);
    const TensorRef q = plan.Temporary(ACL_INT8, {m, s.k2});
    CANOPY_CHECK(PlanQuantise(plan, c, o, ex, a, q));
    const TensorRef acc = plan.Temporary(ACL_FLOAT, {m, s.n2});
    CANOPY_CHECK(PlanExpertProduct(plan, plan.Contiguous(q, ACL_FLOAT), w2, b2p, ex, acc));
    TensorRef deq2;
    CANOPY_CHECK(PerRow(plan, experts ? DeqScaleValues(o.deq2) : Unsqueeze(DeqScaleValues(o.deq2), 0), ex, m, deq2));
    plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {acc, deq2}, out, ScalarValue::Integer(1));
  }
  plan.Copy(*Reshape(out, c.x->view_shape), o.y);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanFfn(Plan& plan, const FfnCall& c) {
  FfnShape s;
  s.activation = ActivationOf(c.activation);
  if (s.activation == Activation::kInvalid) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                       "argument 'activation' is '%s'; it must be fastgelu, gelu, relu, silu, geglu, swiglu or reglu",
                       c.activation);
  }
  const Names names(c.v3);
  if (c.deq_scale1 != nullptr && c.deq_scale2 != nullptr) {
    CANOPY_CHECK(plan.CheckDtype(names("deqScale2").c_str(), c.deq_scale2->dtype, DtypeSet{c.deq_scale1->dtype}));
  }
  // Experts: a non-empty int array (checked against x's rows) or a tensor of at least one element.
  if (c.tokens_array != nullptr && !c.tokens_array->values.empty()) {
    if (c.x->rank() >= 1) {
      int64_t m = 1;
      for (size_t d = 0; d + 1 < c.x->view_shape.size(); ++d) m *= c.x->view_shape[d];
      CANOPY_CHECK(CheckExpertTokens(plan, c, m));
    }
    s.experts = static_cast<int64_t>(c.tokens_array->values.size());
  }
  if (c.tokens_tensor != nullptr) {
    const aclTensor* t = c.tokens_tensor;
    if (t->rank() != 1 || t->dtype != ACL_INT64) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'expertTokensOptional' (%s %s) must be a 1-D INT64 tensor",
                         DtypeName(t->dtype), ShapeToString(t->view_shape).c_str());
    }
    s.experts = t->view_shape[0];
  }
  CANOPY_CHECK(CheckShapes(plan, c, s));
  CANOPY_CHECK(CheckDtypes(plan, c, s));

  const bool empty = c.x->NumElements() == 0;
  if (!empty) {
    // The tiling's checks, and the copy into y.
    if (c.inner_precise != kHighPrecision && c.inner_precise != kHighPerformance) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "argument 'innerPrecise' is %lld; it must be 0 or 1",
                         Ll(c.inner_precise));
    }
    if (s.experts > kMaxExperts) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "expertTokens names %lld experts; at most %lld are supported",
                         Ll(s.experts), Ll(kMaxExperts));
    }
    if (s.m > kMaxAlignedRows) {
      return plan.Reject(ACLNN_ERR_INNER_TILING_ERROR, "x has %lld rows; at most 2^31 - 1 are supported", Ll(s.m));
    }
    CANOPY_CHECK(plan.CheckShape("y", c.y, c.x->view_shape));
    if (s.path == Path::kAntiquant && c.weight1->dtype == ACL_INT4) {
      for (const auto& [name, w] : {std::pair{"weight1", c.weight1}, std::pair{"weight2", c.weight2}}) {
        const TensorRef probe{{}, w->dtype, w->view_shape, w->strides};
        if (!probe.IsContiguous() || w->offset % 2 != 0) {
          return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                             "an INT4 '%s' must be contiguous from an even offset on Canopy (strides %s, offset %lld)",
                             name, ShapeToString(w->strides).c_str(), Ll(w->offset));
        }
      }
    }
  }

  // Operands in prototype order.
  Operands o;
  o.x = plan.Input(c.x, "x");
  o.w1 = plan.Input(c.weight1, "weight1");
  o.w2 = plan.Input(c.weight2, "weight2");
  Experts ex;
  ex.count = s.experts;
  ex.counts = !c.tokens_index;
  if (c.tokens_tensor != nullptr) {
    ex.list = plan.Input(c.tokens_tensor, "expertTokensOptional");
  } else {
    plan.SkipInput();
  }
  const aclTensor* optional[] = {c.bias1,
                                 c.bias2,
                                 c.scale,
                                 c.offset,
                                 c.deq_scale1,
                                 c.deq_scale2,
                                 c.antiquant_scale1,
                                 c.antiquant_scale2,
                                 c.antiquant_offset1,
                                 c.antiquant_offset2};
  // The kit keeps the names it is given: literals.
  static constexpr const char* kNames[] = {
      "bias1",     "bias2",           "scale",           "offset",           "deqScale1",
      "deqScale2", "antiquantScale1", "antiquantScale2", "antiquantOffset1", "antiquantOffset2"};
  static constexpr const char* kV3Names[] = {
      "bias1Optional",           "bias2Optional",           "scaleOptional",
      "offsetOptional",          "deqScale1Optional",       "deqScale2Optional",
      "antiquantScale1Optional", "antiquantScale2Optional", "antiquantOffset1Optional",
      "antiquantOffset2Optional"};
  TensorRef* refs[] = {&o.b1, &o.b2, &o.scale, &o.offset, &o.deq1, &o.deq2, &o.as1, &o.as2, &o.ao1, &o.ao2};
  for (size_t i = 0; i < std::size(optional); ++i) {
    if (optional[i] != nullptr) {
      *refs[i] = plan.Input(optional[i], c.v3 ? kV3Names[i] : kNames[i]);
    } else {
      plan.SkipInput();
    }
  }
  o.y = plan.Output(c.y, "y");
  if (empty) return ACLNN_SUCCESS;
  if (c.tokens_array != nullptr && s.experts > 0) {  // the host counts, written for the grouped kernel
    ex.list = plan.Temporary(ACL_INT64, {s.experts});
    for (int64_t e = 0; e < s.experts; ++e) {
      plan.Fill(Select(ex.list, 0, e), ScalarValue::Integer(c.tokens_array->values[static_cast<size_t>(e)]));
    }
  }
  return PlanCompute(plan, c, s, o, ex);
}

// V2 (expertTokens a host int array) and V3 (a device tensor, where one of no
// elements means no experts, as CANN treats it).
template <typename Tokens>
aclnnStatus PlanFfnVersion(Plan& plan, const aclTensor* x, const aclTensor* weight1, const aclTensor* weight2,
                           Tokens expert_tokens, const aclTensor* bias1, const aclTensor* bias2, const aclTensor* scale,
                           const aclTensor* offset, const aclTensor* deq_scale1, const aclTensor* deq_scale2,
                           const aclTensor* antiquant_scale1, const aclTensor* antiquant_scale2,
                           const aclTensor* antiquant_offset1, const aclTensor* antiquant_offset2,
                           const char* activation, int64_t inner_precise, bool tokens_index_flag, const aclTensor* y) {
  FfnCall c{.x = x,
            .weight1 = weight1,
            .weight2 = weight2,
            .bias1 = bias1,
            .bias2 = bias2,
            .scale = scale,
            .offset = offset,
            .deq_scale1 = deq_scale1,
            .deq_scale2 = deq_scale2,
            .antiquant_scale1 = antiquant_scale1,
            .antiquant_scale2 = antiquant_scale2,
            .antiquant_offset1 = antiquant_offset1,
            .antiquant_offset2 = antiquant_offset2,
            .activation = activation,
            .inner_precise = inner_precise,
            .tokens_index = tokens_index_flag,
            .y = y};
  if constexpr (std::is_same_v<Tokens, const aclIntArray*>) {
    c.tokens_array = expert_tokens;
  } else {
    c.tokens_tensor = expert_tokens != nullptr && expert_tokens->NumElements() == 0 ? nullptr : expert_tokens;
    c.v3 = true;
  }
  return PlanFfn(plan, c);
}

// V1: V2 with counts.
aclnnStatus PlanFFN(Plan& plan, const aclTensor* x, const aclTensor* weight1, const aclTensor* weight2,
                    const aclIntArray* expert_tokens, const aclTensor* bias1, const aclTensor* bias2,
                    const aclTensor* scale, const aclTensor* offset, const aclTensor* deq_scale1,
                    const aclTensor* deq_scale2, const aclTensor* antiquant_scale1, const aclTensor* antiquant_scale2,
                    const aclTensor* antiquant_offset1, const aclTensor* antiquant_offset2, const char* activation,
                    int64_t inner_precise, const aclTensor* y) {
  return PlanFfnVersion(plan, x, weight1, weight2, expert_tokens, bias1, bias2, scale, offset, deq_scale1, deq_scale2,
                        antiquant_scale1, antiquant_scale2, antiquant_offset1, antiquant_offset2, activation,
                        inner_precise, false, y);
}

}  // namespace

CANOPY_ACLNN_OP(FFN, PlanFFN,
                (OpTraits{.header = "aclnnop/aclnn_ffn.h",
                          .dtypes = kXDtypes,
                          .example = "f16[4,2] f16[2,2] f16[2,2] - - - - - - - - - - - 'relu' 1 f16[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, weight1), (const aclTensor*, weight2),
                (const aclIntArray*, expertTokens, optional), (const aclTensor*, bias1, optional),
                (const aclTensor*, bias2, optional), (const aclTensor*, scale, optional),
                (const aclTensor*, offset, optional), (const aclTensor*, deqScale1, optional),
                (const aclTensor*, deqScale2, optional), (const aclTensor*, antiquantScale1, optional),
                (const aclTensor*, antiquantScale2, optional), (const aclTensor*, antiquantOffset1, optional),
                (const aclTensor*, antiquantOffset2, optional), (const char*, activation), (int64_t, innerPrecise),
                (const aclTensor*, y))

CANOPY_ACLNN_OP(FFNV2, PlanFfnVersion<const aclIntArray*>,
                (OpTraits{.header = "aclnnop/aclnn_ffn_v2.h",
                          .dtypes = kXDtypes,
                          .example = "f16[4,2] f16[2,2] f16[2,2] - - - - - - - - - - - 'relu' 1 false f16[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, weight1), (const aclTensor*, weight2),
                (const aclIntArray*, expertTokens, optional), (const aclTensor*, bias1, optional),
                (const aclTensor*, bias2, optional), (const aclTensor*, scale, optional),
                (const aclTensor*, offset, optional), (const aclTensor*, deqScale1, optional),
                (const aclTensor*, deqScale2, optional), (const aclTensor*, antiquantScale1, optional),
                (const aclTensor*, antiquantScale2, optional), (const aclTensor*, antiquantOffset1, optional),
                (const aclTensor*, antiquantOffset2, optional), (const char*, activation), (int64_t, innerPrecise),
                (bool, tokensIndexFlag), (const aclTensor*, y))

CANOPY_ACLNN_OP(FFNV3, PlanFfnVersion<const aclTensor*>,
                (OpTraits{.header = "aclnnop/aclnn_ffn_v3.h",
                          .dtypes = kXDtypes,
                          .example = "f16[4,2] f16[2,2] f16[2,2] - - - - - - - - - - - 'relu' 1 false f16[4,2]"}),
                (const aclTensor*, x), (const aclTensor*, weight1), (const aclTensor*, weight2),
                (const aclTensor*, expertTokensOptional, optional), (const aclTensor*, bias1Optional, optional),
                (const aclTensor*, bias2Optional, optional), (const aclTensor*, scaleOptional, optional),
                (const aclTensor*, offsetOptional, optional), (const aclTensor*, deqScale1Optional, optional),
                (const aclTensor*, deqScale2Optional, optional), (const aclTensor*, antiquantScale1Optional, optional),
                (const aclTensor*, antiquantScale2Optional, optional),
                (const aclTensor*, antiquantOffset1Optional, optional),
                (const aclTensor*, antiquantOffset2Optional, optional), (const char*, activation),
                (int64_t, innerPrecise), (bool, tokensIndexFlag), (const aclTensor*, y))
