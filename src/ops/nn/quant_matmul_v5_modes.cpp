// QuantMatmulV5 on Atlas A2 beyond V4's INT8 product: the A8W4 mode (per channel, or
// per group of K: CANN's K-G mode), K-G A4W4 and the G-B mode (per-block scales). Checks follow
// CANN's host code for 910B / 910_93 (aclnn_quant_matmul_v5.cpp, QuantMatmulChecker),
// in its order, then what its tiling rejects (561002, as Canopy reports a tiling's
// refusal at phase 1).
//
// A8W4: x1 INT8 [m, k], x2 INT32 words of eight INT4 values, low nibble first ([k, n / 8],
// or [n, k / 8] transposed, which only the per-channel kernel takes), x1Scale f32 per
// token, x2Scale UINT64 / INT64 words holding an f32 in their low 32 bits
// (TransQuantParamV2's), one per column ([n]: per channel, groupSize 0) or per column and
// group of 256 rows of K ([k / 256, n] with x1Scale [m, 1]: K-G, groupSize 256), yOffset
// f32 [n]. The kernel (quant_batch_matmul_v4_msd.h) splits each x1 value into a high and a
// low INT4 part, 16 * high + low = x1 - 8, multiplies both with x2 group by group (INT32
// sums, each scaled by its group's x2Scale), adds them and yOffset, then scales by x1Scale:
//   out = (sum over groups g of ((x1 - 8) @ x2_g) * x2Scale[g] + yOffset) * x1Scale
// yOffset is the client's auxiliary row that puts the 8 back (the doc asks for
// 8 * sum over k of x2 * x2Scale), so the doc's out = (x1 @ (x2 * x2Scale) + yOffset) *
// x1Scale holds for the yOffset it prescribes. Canopy plans it on WeightQuantBatchMatmul's
// building block (weight_quant_matmul.h: the fused decode kernel for a few rows, the
// weight dequantised once for a oneDNN product for more) with x1 - 8 in f32, so the group
// sums are f32 sums of x1 - 8 times the dequantised weight: the same value, where the NPU
// rounds each group's scaled sum to fp16 and accumulates them in fp16.
//
// G-B: x1 INT8 [m, k], x2 INT8 [n, k] (transposeX2), x1Scale f32 [m, ceil(k / 128)] (one
// per row and block of 128 along K), x2Scale f32 [ceil(n / 128), ceil(k / 128)], bias f32
// [n] (the kernel requires it), out BFLOAT16:
//   out[i, j] = sum over blocks b of (x1[i, b] @ x2[j, b]) * x1Scale[i, b] * x2Scale[j / 128, b] + bias[j]
// Canopy multiplies each operand by its block scales (f32) and runs one f32 oneDNN
// product with the bias, in place of the kernel's per-block INT32 sums scaled in f32:
// equal up to f32 rounding. groupSize = groupSizeK | groupSizeN << 16 | groupSizeM << 32
// (16 bits each; a 0 field is inferred as the operand's extent over the scale's, which
// must divide it); the tiling then requires [1, 128, 128], k a multiple of 512, n of 256,
// transposeX1 false and transposeX2 true.
//
// K-G A4W4 (IsA4W4PergroupNonSymmetric, quant_batch_matmul_v4_pergroup.h): x1 INT4 [m, k],
// x2 INT4 [n, k] (transposeX2; INT32 words of eight are taken too, as CANN unpacks them),
// x1Scale FLOAT [m, 1], x2Scale FLOAT and x2Offset FLOAT16 [k / 256, n], no bias, k a
// multiple of 1024 and n of 256, out FLOAT16 or BFLOAT16 (CANN's A2 kernels have both;
// the doc lists BFLOAT16). Per group the kernel subtracts the row sum of x1 times the
// offset from the INT32 product, scales by x2Scale and accumulates in f32, then x1Scale:
//   out = x1Scale * sum over groups g of (x1_g @ (x2_g - x2Offset[g])) * x2Scale[g]
// Canopy plans it as WeightQuantBatchMatmul's product with offset -x2Offset (f32 sums).
// The kernel reads x2 as [n, k] whatever transposeX2 says; Canopy takes transposeX2 false
// as the [k, n] layout it names.
//
// As in CANN, a view that is the transpose of contiguous storage counts as that storage
// with its transpose flag flipped, and m = 0 is rejected in both modes (161002).
#include "quant_matmul_v5_modes.h"

#include <utility>

#include "common/shape.h"
#include "kernels/quant_matmul.h"
#include "matmul_planner.h"
#include "ops/framework/tensor_view.h"
#include "quant_matmul.h"
#include "transposed_storage.h"
#include "weight_quant_matmul.h"

namespace canopy::ops {
namespace {

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kNull = ACLNN_ERR_PARAM_NULLPTR;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

// A8W4
constexpr int64_t kInt4PerWord = 8;
constexpr int64_t kA8W4Group = 256;   // the only K-G group size
constexpr int64_t kA8W4MaxK = 29576;  // the host's k limit on 910B / 910_93
constexpr int64_t kA8W4ChannelKAlign = 2;
constexpr int64_t kMsdShift = 8;  // the kernel's low INT4 part is x1's low nibble minus 8

// G-B
constexpr int64_t kBlock = 128;            // groupSizeK and groupSizeN of G-B
constexpr int64_t kBlockKAlign = 4 * 128;  // the tiling's k alignment
constexpr int64_t kBlockNAlign = 256;      // and its n alignment
constexpr uint64_t kGroupFieldMask = 0xFFFF;
constexpr int64_t kMinRank = 2, kMaxRank = 6;  // x1, x2 (ND) and out
constexpr int kGroupNShift = 16, kGroupMShift = 32;

bool IsEmpty(const aclTensor* t) { return t != nullptr && t->NumElements() == 0; }

// A tensor as CANN's host code sees it after TensorContiguousProcess: a transposed view of
// contiguous storage becomes that storage (shape swapped) and its flag flips.
struct Oriented {
  Shape shape;
  bool flipped = false;
};
Oriented Orient(const aclTensor* t) {
  Oriented o{t->view_shape, IsTransposedStorage(t)};
  if (o.flipped) std::swap(o.shape[o.shape.size() - 1], o.shape[o.shape.size() - 2]);
  return o;
}
TensorRef OrientRef(const TensorRef& t, const Oriented& o) {
  return o.flipped ? Transpose(t, t.rank() - 2, t.rank() - 1) : t;
}

std::string Str(const Shape& s) { return ShapeToString(s); }
long long L(int64_t v) { return static_cast<long long>(v); }

aclnnStatus RequireNd(Plan& plan, const char* name, const aclTensor* t) {
  if (t == nullptr || t->format == ACL_FORMAT_ND) return ACLNN_SUCCESS;
  return plan.Reject(kInvalid, "argument '%s' is in format %d; this mode takes ND only", name,
                     static_cast<int>(t->format));
}

}  // namespace

// ---------------------------------------------------------------- A8W4

aclnnStatus PlanQuantMatmulV5A8W4(Plan& plan, const QuantMatmulV5Args& a) {
  // ---- CheckInputExistence (161001): yScale is not checked in this mode
  if (a.x1_offset != nullptr && !IsEmpty(a.x1_offset)) {
    return plan.Reject(kNull, "argument 'x1Offset' must be null or empty (it has shape %s)",
                       Str(a.x1_offset->view_shape).c_str());
  }
  if (a.x2_offset != nullptr) {
    return plan.Reject(kNull, "argument 'x2Offset' must be null with an INT32 x2 (A8W4)");
  }
  const Oriented x1o = Orient(a.x1), x2o = Orient(a.x2);
  const bool t1 = a.transpose_x1 != x1o.flipped, t2 = a.transpose_x2 != x2o.flipped;
  // ---- attributes
  if (t1) return plan.Reject(kInvalid, "transposeX1 must be false with an INT32 x2 (A8W4)");
  const bool per_group = a.x2_scale->rank() != 1;
  if (per_group ? a.group_size != kA8W4Group : a.group_size != 0) {
    return plan.Reject(kInvalid, "groupSize is %lld; A8W4 takes 0 per channel (x2Scale 1-D) and %lld per group",
                       L(a.group_size), L(kA8W4Group));
  }
  // ---- ranks
  CANOPY_CHECK(plan.CheckRank("x1", a.x1, 2, 2));
  CANOPY_CHECK(plan.CheckRank("x2", a.x2, 2, 2));
  if (a.bias != nullptr) CANOPY_CHECK(plan.CheckRank("bias", a.bias, 2, 2));
  CANOPY_CHECK(plan.CheckRank("x2Scale", a.x2_scale, 1, 2));
  if (a.x1_scale != nullptr && a.x1_scale->rank() != a.x2_scale->rank()) {
    return plan.Reject(kInvalid, "x1Scale has rank %lld and x2Scale %lld; A8W4 takes them of one rank",
                       L(a.x1_scale->rank()), L(a.x2_scale->rank()));
  }
  if (a.y_scale != nullptr) CANOPY_CHECK(plan.CheckRank("yScale", a.y_scale, 2, 2));
  if (a.y_offset != nullptr) CANOPY_CHECK(plan.CheckRank("yOffset", a.y_offset, 1, 1));
  CANOPY_CHECK(plan.CheckRank("out", a.out, 2, 2));
  // ---- dtypes (CheckDtypeA8W4Int)
  if (a.x1_scale == nullptr || IsEmpty(a.x1_scale)) {
    return plan.Reject(kInvalid, "argument 'x1Scale' is null or empty; A8W4 requires it");
  }
  if (IsEmpty(a.x2_scale)) return plan.Reject(kInvalid, "argument 'x2Scale' is empty");
  if (a.bias != nullptr || a.y_scale != nullptr) {
    return plan.Reject(kInvalid, "A8W4 takes no %s", a.bias != nullptr ? "bias" : "yScale");
  }
  if (a.y_offset == nullptr || IsEmpty(a.y_offset)) {
    return plan.Reject(kInvalid, "argument 'yOffset' is null or empty; A8W4 requires it");
  }
  CANOPY_CHECK(plan.CheckDtype("x1Scale", a.x1_scale->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("x2Scale", a.x2_scale->dtype, DtypeSet{ACL_UINT64, ACL_INT64}));
  CANOPY_CHECK(plan.CheckDtype("yOffset", a.y_offset->dtype, DtypeSet{ACL_FLOAT}));
  CANOPY_CHECK(plan.CheckDtype("out", a.out->dtype, DtypeSet{ACL_BF16, ACL_FLOAT16}));
  // ---- formats
  for (const auto& [name, t] :
       {std::pair{"x1", a.x1}, std::pair{"x2", a.x2}, std::pair{"x1Scale", a.x1_scale},
        std::pair{"x2Scale", a.x2_scale}, std::pair{"yOffset", a.y_offset}, std::pair{"out", a.out}}) {
    CANOPY_CHECK(RequireNd(plan, name, t));
  }
  // ---- shapes: x2 counted in INT4 values (eight a word along its last dim, as stored)
  const int64_t m = x1o.shape[0], k = x1o.shape[1];
  const int64_t x2_rows = x2o.shape[0], x2_values = x2o.shape[1] * kInt4PerWord;
  const int64_t k2 = t2 ? x2_values : x2_rows, n = t2 ? x2_rows : x2_values;
  if (m <= 0) return plan.Reject(kInvalid, "m is %lld; it must be positive", L(m));
  if (k <= 0 || k > kA8W4MaxK) return plan.Reject(kInvalid, "k is %lld; it must be in [1, %lld]", L(k), L(kA8W4MaxK));
  if (n <= 0) return plan.Reject(kInvalid, "n is %lld; it must be positive", L(n));
  if (k != k2) return plan.Reject(kInvalid, "x1's k (%lld) and x2's k (%lld, INT4 values) differ", L(k), L(k2));
  const int64_t k_align = per_group ? kA8W4Group : kA8W4ChannelKAlign;
  if (k % k_align != 0) return plan.Reject(kInvalid, "k is %lld; it must be a multiple of %lld", L(k), L(k_align));
  const int64_t groups = per_group ? k / kA8W4Group : 1;
  CANOPY_CHECK(plan.CheckShape("x1Scale", a.x1_scale, per_group ? Shape{m, 1} : Shape{m}));
  CANOPY_CHECK(plan.CheckShape("x2Scale", a.x2_scale, per_group ? Shape{groups, n} : Shape{n}));
  CANOPY_CHECK(plan.CheckShape("yOffset", a.y_offset, {n}));
  CANOPY_CHECK(plan.CheckShape("out", a.out, {m, n}));
  // ---- the tiling: the per-group kernel reads x2 as [k, n] only
  if (per_group && t2) return plan.Reject(kTiling, "the per-group A8W4 kernel takes transposeX2 false only");

  // ---- operands, in the prototype's order
  const TensorRef x1 = plan.Input(a.x1, "x1");
  const TensorRef x2 = plan.Input(a.x2, "x2");
  const TensorRef x1_scale = plan.Input(a.x1_scale, "x1Scale");
  const TensorRef x2_scale = plan.Input(a.x2_scale, "x2Scale");
  plan.SkipInput();  // yScale (null)
  InputOrSkip(plan, a.x1_offset, "x1Offset");
  plan.SkipInput();  // x2Offset (null)
  const TensorRef y_offset = plan.Input(a.y_offset, "yOffset");
  plan.SkipInput();  // bias (null)
  const TensorRef out = plan.Output(a.out, "out");

  // x2's words, dense as stored, read as INT4 [rows, 8 * words] (little-endian: value 8c is word c's low nibble).
  const TensorRef words = plan.Contiguous(OrientRef(x2, x2o), ACL_INT32);
  const Shape values_shape = {x2_rows, x2_values};
  const TensorRef values{words.buffer, ACL_INT4, values_shape, ContiguousStrides(values_shape)};
  kernels::QuantWeight w;
  w.dtype = ACL_INT4;
  w.k = k;
  w.n = n;
  w.k_contiguous = t2;
  w.ld = x2_values;
  w.group_size = per_group ? kA8W4Group : k;

  const TensorRef shifted = plan.Temporary(ACL_FLOAT, {m, k});  // x1 - 8: 16 * high + low
  plan.Elementwise(ElementwiseOp::kAdd, ComputeType::kF32, {x1}, shifted, ScalarValue::Integer(1),
                   ScalarValue::Integer(-kMsdShift));
  const TensorRef product = plan.Temporary(ACL_FLOAT, {m, n});
  CANOPY_CHECK(PlanWeightQuantProduct(plan, w, shifted, values, DeqScaleValues(x2_scale), nullptr, &y_offset, product));
  const TensorRef token_scale = x1_scale.rank() == 1 ? Unsqueeze(x1_scale, 1) : x1_scale;  // [m, 1]
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {product, token_scale}, out, ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

// ---------------------------------------------------------------- G-B

namespace {

// QuantMatmulChecker::ReCalcGroupSize: a 0 group size is the operand's extent over the scale's.
aclnnStatus InferGroup(Plan& plan, const char* dim, int64_t extent, int64_t scale_extent, uint64_t& group) {
  if (scale_extent == 0) return plan.Reject(kInvalid, "the scale's %s dimension is 0; it must be positive", dim);
  if (group != 0) return ACLNN_SUCCESS;
  if (extent % scale_extent != 0) {
    return plan.Reject(kInvalid,
                       "groupSize's %s field is 0 and the operand's %s (%lld) is not a multiple of the scale's (%lld): "
                       "the group size cannot be inferred",
                       dim, dim, L(extent), L(scale_extent));
  }
  group = static_cast<uint64_t>(extent / scale_extent);
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus PlanQuantMatmulV5PerBlock(Plan& plan, const QuantMatmulV5Args& a) {
  // ---- CheckDimRange
  CANOPY_CHECK(plan.CheckRank("x1", a.x1, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("x2", a.x2, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("out", a.out, kMinRank, kMaxRank));
  const Oriented x1o = Orient(a.x1), x2o = Orient(a.x2), s1o = Orient(a.x1_scale), s2o = Orient(a.x2_scale);
  const bool t1 = a.transpose_x1 != x1o.flipped, t2 = a.transpose_x2 != x2o.flipped;
  const Shape &s1 = x1o.shape, &s2 = x2o.shape, &c1 = s1o.shape, &c2 = s2o.shape;
  const size_t r1 = s1.size(), r2 = s2.size(), q1 = c1.size(), q2 = c2.size();
  const int64_t m = t1 ? s1[r1 - 1] : s1[r1 - 2], k = t1 ? s1[r1 - 2] : s1[r1 - 1];
  const int64_t k2 = t2 ? s2[r2 - 1] : s2[r2 - 2], n = t2 ? s2[r2 - 2] : s2[r2 - 1];
  // ---- InferGroupSize
  const auto field = [&](int shift) { return (static_cast<uint64_t>(a.group_size) >> shift) & kGroupFieldMask; };
  uint64_t gs_m = field(kGroupMShift), gs_n = field(kGroupNShift), gs_k = field(0);
  CANOPY_CHECK(InferGroup(plan, "m", m, t1 ? c1[q1 - 1] : c1[q1 - 2], gs_m));
  CANOPY_CHECK(InferGroup(plan, "k", k, t1 ? c1[q1 - 2] : c1[q1 - 1], gs_k));
  CANOPY_CHECK(InferGroup(plan, "n", n, t2 ? c2[q2 - 2] : c2[q2 - 1], gs_n));
  // ---- dtypes (CheckOnlyL0c2outPertoken)
  CANOPY_CHECK(plan.CheckDtype("x2", a.x2->dtype, DtypeSet{ACL_INT8, ACL_INT4}));
  CANOPY_CHECK(plan.CheckDtype("x1Scale", a.x1_scale->dtype, DtypeSet{ACL_FLOAT}));
  if (a.out->dtype == ACL_BF16) {
    CANOPY_CHECK(plan.CheckDtype("x2Scale", a.x2_scale->dtype, DtypeSet{ACL_FLOAT, ACL_BF16}));
    if (a.bias != nullptr)
      CANOPY_CHECK(plan.CheckDtype("bias", a.bias->dtype, DtypeSet{ACL_INT32, ACL_BF16, ACL_FLOAT}));
  } else if (a.out->dtype == ACL_FLOAT16) {
    CANOPY_CHECK(plan.CheckDtype("x2Scale", a.x2_scale->dtype, DtypeSet{ACL_FLOAT}));
    if (a.bias != nullptr) {
      CANOPY_CHECK(plan.CheckDtype("bias", a.bias->dtype, DtypeSet{ACL_INT32, ACL_FLOAT16, ACL_FLOAT}));
    }
  } else {
    return plan.Reject(kInvalid, "argument 'out' is %s; with x1Scale it must be BFLOAT16 or FLOAT16",
                       DtypeName(a.out->dtype));
  }
  // ---- shapes (CheckShape): per-block scales have their operand's rank
  if (a.x2->dtype != ACL_INT8 || a.x2_scale->dtype != ACL_FLOAT || q1 != r1 || q2 != r2) {
    return plan.Reject(kInvalid,
                       "x1Scale %s and x2Scale %s (%s) are per-block scales only with INT8 x2, FLOAT scales and each "
                       "of its operand's rank (x1 %s, x2 %s); otherwise x1Scale must be 1-D",
                       Str(a.x1_scale->view_shape).c_str(), Str(a.x2_scale->view_shape).c_str(),
                       DtypeName(a.x2_scale->dtype), Str(a.x1->view_shape).c_str(), Str(a.x2->view_shape).c_str());
  }
  if (k != k2) return plan.Reject(kInvalid, "x1's k (%lld) and x2's k (%lld) differ", L(k), L(k2));
  for (size_t d = 0; d + 2 < r1; ++d) {
    if (c1[d] != s1[d])
      return plan.Reject(kInvalid, "x1Scale's batch dims must be x1's (%s, %s)", Str(c1).c_str(), Str(s1).c_str());
  }
  for (size_t d = 0; d + 2 < r2; ++d) {
    if (c2[d] != s2[d])
      return plan.Reject(kInvalid, "x2Scale's batch dims must be x2's (%s, %s)", Str(c2).c_str(), Str(s2).c_str());
  }
  const int64_t blocks_m = CeilDiv(m, static_cast<int64_t>(std::max<uint64_t>(gs_m, 1)));
  const int64_t blocks_k = CeilDiv(k, kBlock), blocks_n = CeilDiv(n, kBlock);
  const Shape want1 = t1 ? Shape{blocks_k, blocks_m} : Shape{blocks_m, blocks_k};
  const Shape want2 = t2 ? Shape{blocks_n, blocks_k} : Shape{blocks_k, blocks_n};
  if (Shape(c1.end() - 2, c1.end()) != want1) {
    return plan.Reject(kInvalid,
                       "argument 'x1Scale' has shape %s; its last two dims must be %s (ceil(m / %llu), ceil(k / 128))",
                       Str(a.x1_scale->view_shape).c_str(), Str(want1).c_str(),
                       static_cast<unsigned long long>(std::max<uint64_t>(gs_m, 1)));
  }
  if (Shape(c2.end() - 2, c2.end()) != want2) {
    return plan.Reject(kInvalid,
                       "argument 'x2Scale' has shape %s; its last two dims must be %s (ceil(n / 128), ceil(k / 128))",
                       Str(a.x2_scale->view_shape).c_str(), Str(want2).c_str());
  }
  Shape batch;
  CANOPY_CHECK(
      plan.CheckBroadcast("x1", Shape(s1.begin(), s1.end() - 2), "x2", Shape(s2.begin(), s2.end() - 2), batch));
  Shape out_shape = batch;
  out_shape.insert(out_shape.end(), {m, n});
  if (a.bias != nullptr) {
    const Shape& b = a.bias->view_shape;
    const bool ok = (b.size() == 1 && b[0] == n) ||
                    (b.size() == 3 && batch.size() == 1 && b[0] == batch[0] && b[1] == 1 && b[2] == n);
    if (!ok)
      return plan.Reject(kInvalid, "argument 'bias' has shape %s; it must be [%lld] or [batch, 1, n]", Str(b).c_str(),
                         L(n));
  }
  CANOPY_CHECK(plan.CheckShape("out", a.out, out_shape));
  for (const auto& [name, t] : {std::pair{"x1", a.x1}, std::pair{"x1Scale", a.x1_scale},
                                std::pair{"x2Scale", a.x2_scale}, std::pair{"bias", a.bias}, std::pair{"out", a.out}}) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckPlainFormat(name, t));
  }
  if (a.x2->format != ACL_FORMAT_FRACTAL_NZ) CANOPY_CHECK(plan.CheckPlainFormat("x2", a.x2));
  if (a.x1->NumElements() == 0 || a.x2->NumElements() == 0) {
    return plan.Reject(kInvalid, "x1 %s or x2 %s is empty", Str(a.x1->view_shape).c_str(),
                       Str(a.x2->view_shape).c_str());
  }
  // ---- the tiling (QuantBatchMatmulV4PerblockTiling)
  if (a.bias == nullptr) return plan.Reject(kTiling, "the G-B kernel requires a FLOAT bias [n]");
  if (gs_k != kBlock || gs_n != kBlock) {
    return plan.Reject(kTiling, "groupSizeK and groupSizeN are %llu and %llu; G-B takes 128 and 128",
                       static_cast<unsigned long long>(gs_k), static_cast<unsigned long long>(gs_n));
  }
  if (t1 || !t2) return plan.Reject(kTiling, "the G-B kernel takes transposeX1 false and transposeX2 true only");
  if (a.bias->dtype != ACL_FLOAT)
    return plan.Reject(kTiling, "the G-B kernel takes a FLOAT bias (it is %s)", DtypeName(a.bias->dtype));
  if (a.out->dtype != ACL_BF16)
    return plan.Reject(kTiling, "the G-B kernel writes BFLOAT16 only (out is %s)", DtypeName(a.out->dtype));
  if (r1 != 2 || r2 != 2) return plan.Reject(kTiling, "the G-B kernel takes 2-D x1 and x2");
  if (n % kBlockNAlign != 0)
    return plan.Reject(kTiling, "n is %lld; the G-B kernel needs a multiple of %lld", L(n), L(kBlockNAlign));
  if (k % kBlockKAlign != 0)
    return plan.Reject(kTiling, "k is %lld; the G-B kernel needs a multiple of %lld", L(k), L(kBlockKAlign));
  if (a.x2->format == ACL_FORMAT_FRACTAL_NZ) return plan.Reject(kTiling, "the G-B kernel takes an ND x2 only");
  if (c1[0] != m)
    return plan.Reject(kTiling, "x1Scale has %lld rows; the G-B kernel takes one per row of x1 (%lld)", L(c1[0]), L(m));
  if (a.bias->rank() != 1) return plan.Reject(kTiling, "the G-B kernel takes a 1-D bias");

  // ---- operands, in the prototype's order
  const TensorRef x1 = plan.Input(a.x1, "x1");
  const TensorRef x2 = plan.Input(a.x2, "x2");
  const TensorRef x1_scale = plan.Input(a.x1_scale, "x1Scale");
  const TensorRef x2_scale = plan.Input(a.x2_scale, "x2Scale");
  InputOrSkip(plan, a.y_scale, "yScale");  // null or empty
  InputOrSkip(plan, a.x1_offset, "x1Offset");
  InputOrSkip(plan, a.x2_offset, "x2Offset");  // the kernel does not read it
  InputOrSkip(plan, a.y_offset, "yOffset");
  const TensorRef bias = plan.Input(a.bias, "bias");
  const TensorRef out = plan.Output(a.out, "out");

  // Logical operands: x1 [m, k] = [m, bk, 128], x2 [n, k] = [bn, 128, bk, 128], their scales [m, bk] and [bn, bk].
  const TensorRef lhs = OrientRef(x1, x1o), rhs = OrientRef(x2, x2o);  // as stored; t1 false, t2 true here
  const TensorRef lhs_scale = OrientRef(x1_scale, s1o), rhs_scale = OrientRef(x2_scale, s2o);
  const TensorRef a_dense = plan.Temporary(ACL_FLOAT, {m, blocks_k, kBlock});
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32,
                   {*Reshape(plan.Contiguous(lhs, ACL_INT8), {m, blocks_k, kBlock}), Unsqueeze(lhs_scale, 2)}, a_dense,
                   ScalarValue::Integer(1));
  const TensorRef b_dense = plan.Temporary(ACL_FLOAT, {blocks_n, kBlock, blocks_k, kBlock});
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32,
                   {*Reshape(plan.Contiguous(rhs, ACL_INT8), {blocks_n, kBlock, blocks_k, kBlock}),
                    Unsqueeze(Unsqueeze(rhs_scale, 1), 3)},
                   b_dense, ScalarValue::Integer(1));
  const TensorRef a_rows = *Reshape(a_dense, {m, k});
  const TensorRef b_cols = Transpose(*Reshape(b_dense, {n, k}), 0, 1);  // [k, n]
  const TensorRef bias_rows = BroadcastTo(Unsqueeze(bias, 0), {m, n});
  ProductTerms terms;
  terms.beta = 1.0f;
  terms.bias = &bias_rows;
  return PlanProduct(plan, a_rows, b_cols, out, 0, terms);
}

// ---------------------------------------------------------------- K-G A4W4

namespace {

constexpr int64_t kA4W4Group = 256;    // the pergroup kernel's only group size
constexpr int64_t kA4W4KAlign = 1024;  // IsA4W4PergroupNonSymmetric's k and n alignments
constexpr int64_t kA4W4NAlign = 256;

// CANN's CeilDiv, which gives x for a divisor of 0.
int64_t CannCeilDiv(int64_t x, int64_t y) { return y == 0 ? x : (x + y - 1) / y; }

// The INT4 values of an INT4 or INT32 operand `t` (`ref`, oriented as stored: `o`) as packed bytes, row-major
// [rows, cols] INT4 with an even row pitch `ld`; 161002 when an INT4 view splits the bytes it is packed in.
aclnnStatus PackedInt4Rows(Plan& plan, const char* name, const aclTensor* t, const TensorRef& ref, const Oriented& o,
                           TensorRef& values, int64_t& ld) {
  const TensorRef stored = OrientRef(ref, o);
  if (t->dtype == ACL_INT32) {
    const TensorRef words = plan.Contiguous(stored, ACL_INT32);
    const Shape shape = {o.shape[0], o.shape[1] * kInt4PerWord};
    values = TensorRef{words.buffer, ACL_INT4, shape, ContiguousStrides(shape)};
    ld = shape[1];
    return ACLNN_SUCCESS;
  }
  const int64_t rows = stored.shape[0], cols = stored.shape[1];
  ld = rows > 1 ? stored.strides[0] : cols;
  if ((cols > 1 && stored.strides[1] != 1) || ld % 2 != 0 || cols % 2 != 0 || t->offset % 2 != 0) {
    return plan.Reject(kInvalid,
                       "argument '%s' (INT4 %s, strides %s) must be row-major with an even row pitch, width and "
                       "offset (two values a byte)",
                       name, Str(t->view_shape).c_str(), Str(t->strides).c_str());
  }
  values = stored;
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus PlanQuantMatmulV5A4W4Group(Plan& plan, const QuantMatmulV5Args& a) {
  // ---- CheckDimRange
  CANOPY_CHECK(plan.CheckRank("x1", a.x1, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("x2", a.x2, kMinRank, kMaxRank));
  CANOPY_CHECK(plan.CheckRank("out", a.out, kMinRank, kMaxRank));
  const Oriented x1o = Orient(a.x1), x2o = Orient(a.x2), s1o = Orient(a.x1_scale), s2o = Orient(a.x2_scale);
  const bool t1 = a.transpose_x1 != x1o.flipped, t2 = a.transpose_x2 != x2o.flipped;
  // INT32 words hold eight INT4 values along their last stored dim (A4W4CaseProcess).
  Shape s1 = x1o.shape, s2 = x2o.shape;
  if (a.x1->dtype == ACL_INT32) s1.back() *= kInt4PerWord;
  if (a.x2->dtype == ACL_INT32) s2.back() *= kInt4PerWord;
  const Shape &c1 = s1o.shape, &c2 = s2o.shape;
  const size_t r1 = s1.size(), r2 = s2.size(), q1 = c1.size(), q2 = c2.size();
  const int64_t m = t1 ? s1[r1 - 1] : s1[r1 - 2], k = t1 ? s1[r1 - 2] : s1[r1 - 1];
  const int64_t k2 = t2 ? s2[r2 - 1] : s2[r2 - 2], n = t2 ? s2[r2 - 2] : s2[r2 - 1];
  const auto field = [&](int shift) { return (static_cast<uint64_t>(a.group_size) >> shift) & kGroupFieldMask; };
  const auto group_k = static_cast<int64_t>(field(0));
  // ---- IsA4W4PergroupNonSymmetric for a group size along K (on 2-D operands, as it reads them)
  const auto is_mode = [&](int64_t gk) {
    const aclTensor* offset = a.x2_offset;
    if (offset == nullptr || a.x1_scale->dtype != ACL_FLOAT || q1 <= 1 || a.x2_scale->dtype != ACL_FLOAT || q2 <= 1 ||
        offset->dtype != ACL_FLOAT16 || offset->rank() <= 1 || a.bias != nullptr || r1 != 2 || r2 != 2) {
      return false;
    }
    const Shape co = Orient(offset).shape;
    const int64_t groups = CannCeilDiv(k2, gk);
    return k2 % kA4W4KAlign == 0 && n % kA4W4NAlign == 0 && c1 == Shape{m, 1} && c2 == Shape{groups, n} &&
           co == Shape{groups, n};
  };
  // ---- InferGroupSize
  uint64_t gs_m = field(kGroupMShift), gs_n = field(kGroupNShift), gs_k = field(0);
  CANOPY_CHECK(InferGroup(plan, "m", m, t1 ? c1[q1 - 1] : c1[q1 - 2], gs_m));
  CANOPY_CHECK(InferGroup(plan, "k", k, t1 ? c1[q1 - 2] : c1[q1 - 1], gs_k));
  const bool n_from_last = is_mode(static_cast<int64_t>(gs_k)) ? t2 : !t2;
  CANOPY_CHECK(InferGroup(plan, "n", n, n_from_last ? c2[q2 - 1] : c2[q2 - 2], gs_n));
  // ---- the mode (V5 also requires every tensor in ND for it)
  bool nd = true;
  for (const aclTensor* t : {a.x1, a.x2, a.x1_scale, a.x2_scale, a.x2_offset, a.out}) {
    nd = nd && (t == nullptr || t->format == ACL_FORMAT_ND);
  }
  if (!is_mode(group_k) || !nd) {
    return plan.Reject(kInvalid,
                       "INT4 x1 and x2 with 2-D scales are the K-G A4W4 mode only: 2-D x1 and x2 (ND), k a multiple "
                       "of %lld, n of %lld, FLOAT x1Scale [m, 1], FLOAT x2Scale and FLOAT16 x2Offset [ceil(k / "
                       "groupSizeK), n], no bias (x1Scale %s, x2Scale %s, k %lld, n %lld, groupSizeK %lld)",
                       L(kA4W4KAlign), L(kA4W4NAlign), Str(a.x1_scale->view_shape).c_str(),
                       Str(a.x2_scale->view_shape).c_str(), L(k2), L(n), L(group_k));
  }
  // ---- CheckParams
  if (a.out->dtype != ACL_BF16 && a.out->dtype != ACL_FLOAT16) {
    return plan.Reject(kInvalid, "argument 'out' is %s; with x1Scale it must be BFLOAT16 or FLOAT16",
                       DtypeName(a.out->dtype));
  }
  if (t1) return plan.Reject(kInvalid, "transposeX1 must be false with an INT4 x1 (A4W4)");
  if (k != k2) return plan.Reject(kInvalid, "x1's k (%lld) and x2's k (%lld) differ", L(k), L(k2));
  CANOPY_CHECK(plan.CheckShape("out", a.out, {m, n}));
  // ---- the tiling
  if (group_k != kA4W4Group) {
    return plan.Reject(kTiling, "groupSizeK is %lld; the A4W4 per-group kernel takes %lld", L(group_k), L(kA4W4Group));
  }

  // ---- operands, in the prototype's order
  const TensorRef x1 = plan.Input(a.x1, "x1");
  const TensorRef x2 = plan.Input(a.x2, "x2");
  const TensorRef x1_scale = plan.Input(a.x1_scale, "x1Scale");
  const TensorRef x2_scale = plan.Input(a.x2_scale, "x2Scale");
  InputOrSkip(plan, a.y_scale, "yScale");  // null or empty
  InputOrSkip(plan, a.x1_offset, "x1Offset");
  const TensorRef x2_offset = plan.Input(a.x2_offset, "x2Offset");
  InputOrSkip(plan, a.y_offset, "yOffset");
  plan.SkipInput();  // bias (null)
  const TensorRef out = plan.Output(a.out, "out");

  TensorRef x1_values, x2_values;
  int64_t x1_ld = 0, x2_ld = 0;
  CANOPY_CHECK(PackedInt4Rows(plan, "x1", a.x1, x1, x1o, x1_values, x1_ld));
  CANOPY_CHECK(PackedInt4Rows(plan, "x2", a.x2, x2, x2o, x2_values, x2_ld));
  // x1 in f32: its INT4 rows "dequantised" with a scale of 1.
  kernels::QuantWeight rows;
  rows.dtype = ACL_INT4;
  rows.data = x1_values.buffer;
  rows.k_contiguous = false;
  rows.ld = x1_ld;
  rows.k = m;
  rows.n = k;
  rows.group_size = m;
  const TensorRef ones = plan.Temporary(ACL_FLOAT, {1, k});
  plan.Fill(ones, ScalarValue::Integer(1));
  rows.scale = ones.buffer;
  const TensorRef x = plan.Temporary(ACL_FLOAT, {m, k});
  plan.AddStep(kernels::MakeDequantizeWeightStep(rows, x.buffer), {x1_values, ones}, x);
  // out = x1Scale * x1 @ ((x2 - x2Offset) * x2Scale): the weight-quantised product with offset -x2Offset.
  kernels::QuantWeight w;
  w.dtype = ACL_INT4;
  w.k = k;
  w.n = n;
  w.k_contiguous = t2;
  w.ld = x2_ld;
  w.group_size = kA4W4Group;
  const TensorRef negated = plan.Temporary(ACL_FLOAT, {k / kA4W4Group, n});
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {OrientRef(x2_offset, Orient(a.x2_offset))}, negated,
                   ScalarValue::Integer(1), ScalarValue::Integer(-1));
  const TensorRef product = plan.Temporary(ACL_FLOAT, {m, n});
  CANOPY_CHECK(PlanWeightQuantProduct(plan, w, x, x2_values, OrientRef(x2_scale, s2o), &negated, nullptr, product));
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {product, OrientRef(x1_scale, s1o)}, out,
                   ScalarValue::Integer(1));
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
