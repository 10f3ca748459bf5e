#include "matmul_planner.h"

#include <algorithm>
#include <limits>
#include <string>
#include <tuple>
#include <utility>

#include "canopy/canopy_runtime.h"
#include "common/env.h"
#include "kernels/bf16_split.h"
#include "kernels/cpu_features.h"
#include "kernels/matmul.h"
#include "kernels/skinny_matmul.h"
#include "ops/framework/plan.h"
#include "ops/framework/tensor_view.h"

namespace canopy::ops {
namespace {

constexpr int8_t kUseFp16 = 2;
constexpr int8_t kMinCubeMathType = 0;
constexpr int8_t kMaxCubeMathType = 4;

// oneDNN reads every stride, even of extent-1 dimensions, whose strides a view may
// set to anything: give those the dense value, which names the same elements.
kernels::MatmulOperand OperandOf(const TensorRef& t) {
  kernels::MatmulOperand operand{t.buffer, t.dtype, t.shape, t.strides};
  int64_t dense = 1;
  for (size_t d = t.shape.size(); d-- > 0;) {
    if (t.shape[d] == 1) operand.strides[d] = dense;
    dense = std::max<int64_t>(dense, operand.strides[d] * std::max<int64_t>(t.shape[d], 1));
  }
  return operand;
}

// The dtype the product runs in: CANN promotes to f32 when either side is f32 or
// fp16 meets bf16; cubeMathType 2 rounds the operands to fp16 first.
aclDataType ProductDtype(aclDataType a, aclDataType b) {
  if (a == b) return a;
  return ACL_FLOAT;
}

kernels::MatmulDesc ProductDesc(const TensorRef& a, const TensorRef& b, const TensorRef& dst, float alpha, float beta) {
  kernels::MatmulDesc desc;
  desc.src = OperandOf(a);
  desc.weights = OperandOf(b);
  desc.dst = OperandOf(dst);
  desc.alpha = alpha;
  desc.beta = beta;
  return desc;
}

// A oneDNN step whose scratchpad is booked in the call's workspace.
std::unique_ptr<Step> MatmulStepFor(Plan& plan, const kernels::MatmulDesc& desc, std::string& reason) {
  return kernels::MakeMatmulStep(
      desc, [&plan](int64_t bytes) { return plan.Temporary(ACL_UINT8, {bytes}).buffer; }, reason);
}

// Candidate 1 for a bias that repeats one row ([N] or [1, N], as Linear layers
// have): oneDNN adds it inside the product, instead of it being copied into
// every row of dst first and accumulated onto. With alpha == beta it is oneDNN's
// bias, dst = alpha * (a @ b + bias); otherwise beta * bias is added after alpha
// scales the product. (Folding beta / alpha into the bias would leave f32's
// range for extreme coefficients: alpha = 1e-20, beta = 1e20.)
bool FuseRowBias(Plan& plan, const TensorRef& a, const TensorRef& b, const TensorRef& dst, aclDataType engine_dtype,
                 const ProductTerms& terms) {
  if (terms.bias == nullptr || terms.beta == 0.0f) return false;
  const TensorRef& bias = *terms.bias;
  const size_t rank = bias.shape.size();
  for (size_t d = 0; d + 1 < rank; ++d) {
    if (bias.strides[d] != 0 && bias.shape[d] != 1) return false;  // not one repeated row
  }
  const int64_t n = bias.shape[rank - 1];
  TensorRef row = bias;  // the repeated row: index 0 of every leading dimension
  while (row.rank() > 1) row = Select(row, 0, 0);
  // Inside the product oneDNN adds the bias before scaling by alpha: only when
  // both are 1 does that give beta * bias + alpha * product without an
  // unscaled sum that can overflow (0.5 * (3e38 + 3e38) is inf in f32).
  const bool inside = terms.alpha == 1.0f && terms.beta == 1.0f;
  const float row_scale = inside ? 1.0f : terms.beta;
  // A bias inside the product may be in the engine dtype; a post-op one is read as f32.
  const bool usable =
      row_scale == 1.0f && row.strides[0] == 1 && (row.dtype == ACL_FLOAT || (inside && row.dtype == engine_dtype));
  const TensorRef fused = usable ? row : plan.Temporary(ACL_FLOAT, {n});
  kernels::MatmulDesc desc = ProductDesc(a, b, dst, terms.alpha, 0.0f);
  desc.has_bias = true;
  desc.bias_after_alpha = !inside;
  desc.bias.buffer = fused.buffer;
  desc.bias.dtype = fused.dtype;
  desc.bias.dims.assign(rank, 1);
  desc.bias.dims[rank - 1] = n;
  desc.bias.strides.assign(rank, n);
  desc.bias.strides[rank - 1] = 1;
  std::string reason;
  auto step = MatmulStepFor(plan, desc, reason);
  if (!step) return false;  // the general path (copy, then accumulate) follows
  if (!usable && row_scale == 1.0f) {
    plan.Copy(row, fused);
  } else if (!usable) {
    plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {row}, fused, ScalarValue::Integer(1),
                     ScalarValue::Real(row_scale));
  }
  plan.AddStep(std::move(step));
  return true;
}

// The skinny kernel streams B as stored: 1.4-2.5x oneDNN at M = 1, where oneDNN
// leaves most of the bandwidth unused, and fp16 B is never converted to f32 in
// full (docs/perf.md, "Skinny products"). For bf16 oneDNN multiplies with
// vdpbf16ps, twice the f32 FMA rate: it stays ahead at M > 4 while B fits in
// cache, and the skinny kernel takes over once B streams from memory.
// CANOPY_SKINNY_MATMUL=0 turns the kernel off (to compare).
bool SkinnyKernelServes(aclDataType b_dtype, int64_t m, int64_t b_bytes) {
  static const bool enabled = EnvSwitch("CANOPY_SKINNY_MATMUL", true);
  // Where B stops fitting in cache between calls (half a Zen CCD's 32 MiB L3; VMs
  // report the host's total through sysconf, so it is not asked).
  constexpr int64_t kCachedWeightBytes = int64_t{16} << 20;
  // With AMX oneDNN's bf16 kernel catches up from 16 rows on streamed weights
  // too (16 x 4096 x 4096: 1.90 ms against the skinny kernel's 2.09; 8 rows:
  // 1.88 against 1.35).
  constexpr int64_t kAmxRows = 12;
  if (!enabled) return false;
  if (b_dtype == ACL_FLOAT16 || b_dtype == ACL_FLOAT) return true;
  if (b_dtype != ACL_BF16) return false;
  return m <= 4 || (b_bytes > kCachedWeightBytes && !(kernels::Cpu().amx && m > kAmxRows));
}

// B's (K, N) strides as the skinny kernel reads them: an extent-1 dimension may
// carry any stride, and that of a dense layout names the same elements.
std::pair<int64_t, int64_t> SkinnyStridesOf(const TensorRef& b) {
  const size_t rank = b.shape.size();
  return {b.shape[rank - 2] == 1 ? b.shape[rank - 1] : b.strides[rank - 2],
          b.shape[rank - 1] == 1 ? 1 : b.strides[rank - 1]};
}

// Few rows against B of one matrix, in a storage the skinny kernel streams
// directly: decode and small-batch projections, bound by reading B once.
// `b_product_dtype`: the dtype B is multiplied in (fp16 where cubeMathType
// USE_FP16 rounds it as it loads), which decides whether the kernel serves.
bool UseSkinnyKernel(const TensorRef& a, const TensorRef& b, const TensorRef& out, aclDataType b_product_dtype) {
#if !defined(__x86_64__)
  return false;  // the skinny kernel is AVX-512 code, built on x86-64 only
#endif
  const size_t rank = out.shape.size();
  for (size_t d = 0; d + 2 < rank; ++d) {
    if (out.shape[d] != 1) return false;
  }
  const int64_t m = out.shape[rank - 2];
  if (m < 1 || m > kernels::kSkinnyMaxRows || a.shape[rank - 1] == 0) return false;
  const int64_t b_bytes = b.shape[rank - 2] * b.shape[rank - 1] * static_cast<int64_t>(DtypeSize(b.dtype));
  if (!SkinnyKernelServes(b_product_dtype, m, b_bytes)) return false;
  const auto [stride_k, stride_n] = SkinnyStridesOf(b);
  return kernels::SkinnyMatmulSupports(b.dtype, stride_k, stride_n);
}

// How many bf16 piece products (kernels/bf16_split.h) a product computed in
// `product` takes, or 0: it runs as it is.
//  - f32 under ALLOW_FP32_DOWN_PRECISION (1) or USE_HF32 (3), which let the NPU
//    multiply in HF32: three (bf16x3: hi*hi + lo*hi + hi*lo), more accurate
//    than HF32 and faster than f32 where AMX does bf16 (docs/perf.md, "Matmul
//    on AMX").
//  - fp16 (no fp16 product in oneDNN here): four, the exact fp16 products
//    summed in f32, what the NPU's cube computes.
// Only where kernels::Bf16SplitEnabled(); the size rule (PiecesProductPays)
// follows unless kernels::Bf16SplitForced().
int PiecesProductsFor(aclDataType product, int8_t cube_math_type) {
  constexpr int8_t kAllowFp32DownPrecision = 1, kUseHf32 = 3;
  if (!kernels::Bf16SplitEnabled() || !kernels::MatmulSupportsDtype(ACL_BF16)) return 0;
  // Deterministic mode runs its own one-thread tiles (kernels/matmul.h).
  if (canopyDeterministicMode() != 0) return 0;
  if (product == ACL_FLOAT && (cube_math_type == kAllowFp32DownPrecision || cube_math_type == kUseHf32)) return 3;
  if (product == ACL_FLOAT16 && !kernels::MatmulSupportsDtype(ACL_FLOAT16)) return 4;
  return 0;
}

// Whether the pieces' products beat the plain product of an
// M x K x N problem: splitting both operands and reordering the weight's pieces
// cost in proportion to M·K and K·N, the faster products save in proportion to
// M·K·N, and each K chunk beyond the first adds a pass over dst per product.
// Measured on a 2-core Xeon with AMX (docs/perf.md, "Matmul on AMX"): three
// products (f32 down-precision) win from M = 256 at K <= 2048 and from M = 1024
// beyond (64 x 4096 x 4096 runs at 0.39 of f32); four (fp16) from M = 512 at
// K <= 1024, 1024 at K <= 2048 and 2048 beyond.
bool PiecesProductPays(int products, int64_t m, int64_t n, int64_t k) {
  constexpr int64_t kMinN = 256;
  if (n < kMinN || k < 64) return false;
  if (products == 3) return m >= (k <= 2048 ? 256 : 1024);
  return m >= (k <= 1024 ? 512 : k <= 2048 ? 1024 : 2048);
}

// out = alpha * a @ b + beta * bias as products of the operands' bf16 pieces
// (kernels/bf16_split.h), on dense operands in `source` (a weight passed transposed,
// as ggml passes it, stays transposed: its pieces are reordered into oneDNN's
// blocked layout either way). False, with the plan unchanged but for dense
// copies the general path may use, where oneDNN has no such product.
bool AddPiecesProduct(Plan& plan, const TensorRef& a_in, const TensorRef& b_in, const TensorRef& out,
                      const ProductTerms& terms, aclDataType source, int pairs) {
  const int64_t last = out.rank() - 1;
  const TensorRef a = plan.Contiguous(a_in, source);
  const bool transposed = b_in.strides[last] != 1 && b_in.strides[last - 1] == 1 && b_in.shape[last - 1] > 1;
  const TensorRef b = transposed ? Transpose(plan.Contiguous(Transpose(b_in, last - 1, last), source), last - 1, last)
                                 : plan.Contiguous(b_in, source);
  const bool direct = out.dtype == ACL_FLOAT && out.IsContiguous();
  const TensorRef dst = direct ? out : plan.Temporary(ACL_FLOAT, out.shape);
  float beta = terms.beta;
  if (terms.bias == nullptr || beta == 0.0f) beta = 0.0f;
  std::string reason;
  auto step = kernels::MakePiecesMatmulStep(
      ProductDesc(a, b, dst, terms.alpha, beta), pairs,
      [&plan](int64_t bytes) { return plan.Temporary(ACL_UINT8, {bytes}).buffer; }, reason);
  if (!step) return false;
  // The bias goes into dst first; the first product accumulates onto it.
  if (beta != 0.0f && !SameView(*terms.bias, dst)) plan.Copy(*terms.bias, dst);
  plan.AddStep(std::move(step), {a, b}, dst);
  if (!direct) plan.Copy(dst, out);
  return true;
}

#if defined(__x86_64__)
// dst (f32, [.., M, N]) = alpha * a @ b + beta * dst through the skinny kernel.
void AddSkinnyProduct(Plan& plan, const TensorRef& a_in, const TensorRef& b, const TensorRef& dst, float alpha,
                      float beta, bool b_rounded_to_fp16) {
  const size_t rank = dst.shape.size();
  const TensorRef a = a_in.dtype == ACL_FLOAT && (a_in.shape[rank - 1] == 1 || a_in.strides[rank - 1] == 1)
                          ? a_in
                          : plan.Contiguous(a_in, ACL_FLOAT);
  kernels::SkinnyMatmulDesc desc;
  desc.m = dst.shape[rank - 2];
  desc.n = dst.shape[rank - 1];
  desc.k = a.shape[rank - 1];
  desc.a = a.buffer;
  desc.a_row_stride = a.strides[rank - 2];
  desc.b = b.buffer;
  desc.b_dtype = b.dtype;
  desc.b_rounded_to_fp16 = b_rounded_to_fp16;
  std::tie(desc.b_stride_k, desc.b_stride_n) = SkinnyStridesOf(b);
  desc.c = dst.buffer;
  desc.c_row_stride = dst.strides[rank - 2];
  desc.alpha = alpha;
  desc.beta = beta;
  BufferRef scratch;
  if (const int64_t bytes = kernels::SkinnyMatmulScratchBytes(desc); bytes > 0) {
    scratch = plan.Temporary(ACL_FLOAT, {bytes / static_cast<int64_t>(sizeof(float))}).buffer;
  }
  plan.AddStep(kernels::MakeSkinnyMatmulStep(desc, scratch), {a, b}, dst);
}
#endif

}  // namespace

kernels::MatmulOperand MatmulOperandOf(const TensorRef& t) { return OperandOf(t); }

aclnnStatus CheckCubeMathType(Plan& plan, int8_t cube_math_type) {
  if (cube_math_type >= kMinCubeMathType && cube_math_type <= kMaxCubeMathType) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "cubeMathType %d is not one of 0 (KEEP_DTYPE), 1 (ALLOW_FP32_DOWN_PRECISION), 2 (USE_FP16), "
                     "3 (USE_HF32), 4 (USE_FP32_ADD)",
                     static_cast<int>(cube_math_type));
}

aclnnStatus CheckMatmulOperand(Plan& plan, const char* name, const aclTensor* tensor) {
  CANOPY_CHECK(plan.CheckDtype(name, tensor->dtype, kMatmulDtypes));
  // oneDNN's blocking heuristics work in 32-bit extents.
  constexpr int64_t kMaxExtent = std::numeric_limits<int32_t>::max();
  for (int64_t extent : tensor->view_shape) {
    if (extent > kMaxExtent) {
      return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument '%s' has an extent of %lld; at most %lld is supported",
                         name, static_cast<long long>(extent), static_cast<long long>(kMaxExtent));
    }
  }
  return ACLNN_SUCCESS;
}

float MatmulScaleOf(const aclScalar* scalar) {
  const ScalarValue value = ValueOf(*scalar);
  return static_cast<float>(value.As<double>());
}

aclnnStatus CheckMatmulScales(Plan& plan, const aclScalar* beta, const aclScalar* alpha) {
  CANOPY_CHECK(plan.CheckDtype("beta", beta->dtype, kMatmulScaleDtypes));
  return plan.CheckDtype("alpha", alpha->dtype, kMatmulScaleDtypes);
}

aclnnStatus CheckBiasAndOut(Plan& plan, const char* bias_name, const aclTensor* bias, const Shape& product,
                            const char* out_name, const aclTensor* out) {
  Shape broadcast;
  CANOPY_CHECK(plan.CheckBroadcast(bias_name, bias->view_shape, "the product", product, broadcast));
  if (broadcast != product) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s of shape %s does not broadcast to the product's shape %s",
                       bias_name, ShapeToString(bias->view_shape).c_str(), ShapeToString(product).c_str());
  }
  return plan.CheckShape(out_name, out, product);
}

aclnnStatus CheckWeightNzFormats(Plan& plan, const char* weight_name, const aclTensor* weight,
                                 std::initializer_list<std::pair<const char*, const aclTensor*>> plain) {
  if (weight->format != ACL_FORMAT_FRACTAL_NZ) CANOPY_CHECK(plan.CheckPlainFormat(weight_name, weight));
  for (const auto& [name, tensor] : plain) CANOPY_CHECK(plan.CheckPlainFormat(name, tensor));
  return ACLNN_SUCCESS;
}

aclnnStatus CheckWeightNzExtents(Plan& plan, const char* weight_name, const aclTensor* weight) {
  const Shape& shape = weight->view_shape;
  const int64_t k = shape[shape.size() - 2], n = shape.back();
  if (k == 1 || n == 1) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "%s %s: an NZ weight's k and n must not be 1", weight_name,
                       ShapeToString(shape).c_str());
  }
  return ACLNN_SUCCESS;
}

namespace {

// Matrices of a batched product planned one by one, at most this many, and
// only where each B is large enough to pay for a step of its own (an expert's
// weight is megabytes; small batched products stay one oneDNN primitive).
constexpr int64_t kMaxSkinnyBatch = 64;
constexpr int64_t kMinSkinnyBatchBBytes = int64_t{256} << 10;

// A batch of few-row products whose matrices the skinny kernel would each take
// (ggml's MUL_MAT_ID: each selected expert's 1-16 rows through BatchMatMul):
// planned matrix by matrix, so each B is streamed where it lies. The batched
// oneDNN product would first convert every B to f32 (an fp16 weight under
// USE_FP16, ggml's case: gathered column by column, 50 ms for 8 experts of
// 768 x 2048) and then run oneDNN's weak M = 1 path. False (nothing planned)
// where the batch does not qualify. a, b padded to out's rank; no bias.
bool PlanSkinnyBatch(Plan& plan, const TensorRef& a, const TensorRef& b, const TensorRef& out, int8_t cube_math_type,
                     const ProductTerms& terms, aclnnStatus& status) {
  const size_t rank = out.shape.size();
  int64_t batch = 1;
  for (size_t d = 0; d + 2 < rank; ++d) batch *= out.shape[d];
  if (batch < 2 || batch > kMaxSkinnyBatch || terms.bias != nullptr || terms.alpha == 0.0f) return false;
  // Matrix `index` of the batch (row-major over the batch dims; a and b broadcast where their extent is 1).
  const auto matrix = [&](const TensorRef& t, int64_t index) {
    TensorRef view = t;
    for (size_t d = rank - 2; d-- > 0;) {
      const int64_t at = index % out.shape[d];
      index /= out.shape[d];
      view = Narrow(view, static_cast<int64_t>(d), t.shape[d] == 1 ? 0 : at, 1);
    }
    return view;
  };
  const TensorRef a0 = matrix(a, 0), b0 = matrix(b, 0), out0 = matrix(out, 0);
  if (b0.NumElements() * static_cast<int64_t>(DtypeSize(b0.dtype)) < kMinSkinnyBatchBBytes) return false;
  const bool rounds_to_fp16 = cube_math_type == kUseFp16 && ProductDtype(a.dtype, b.dtype) == ACL_FLOAT;
  if (!UseSkinnyKernel(a0, b0, out0, rounds_to_fp16 ? ACL_FLOAT16 : b.dtype)) return false;
  for (int64_t index = 0; index < batch && status == ACLNN_SUCCESS; ++index) {
    status = PlanProduct(plan, matrix(a, index), matrix(b, index), matrix(out, index), cube_math_type, terms);
  }
  return true;
}

}  // namespace

aclnnStatus PlanProduct(Plan& plan, const TensorRef& a_in, const TensorRef& b_in, const TensorRef& out,
                        int8_t cube_math_type, const ProductTerms& terms) {
  if (out.NumElements() == 0) return ACLNN_SUCCESS;
  if (!ElementsAreDistinct(out.shape, out.strides)) {
    // oneDNN cannot write a view whose elements share addresses: compute densely,
    // then store it through the view as a strided copy does (one of the values
    // that share an address lands there, as on the NPU).
    const TensorRef dense = plan.Temporary(out.dtype, out.shape);
    CANOPY_CHECK(PlanProduct(plan, a_in, b_in, dense, cube_math_type, terms));
    plan.Copy(dense, out);
    return ACLNN_SUCCESS;
  }
  const size_t rank = out.shape.size();
  TensorRef a = PadRank(a_in, static_cast<int64_t>(rank));
  TensorRef b = PadRank(b_in, static_cast<int64_t>(rank));
  const int64_t k = a.shape[rank - 1];
  if (aclnnStatus status = ACLNN_SUCCESS; k > 0 && PlanSkinnyBatch(plan, a, b, out, cube_math_type, terms, status)) {
    return status;
  }

  // What the product is computed in, and what oneDNN is handed.
  aclDataType product = ProductDtype(a.dtype, b.dtype);
  bool round_b_on_load = false;
  if (cube_math_type == kUseFp16 && product == ACL_FLOAT) {
    // Only an f32 operand needs rounding; an fp16 one is read where it lies (a
    // transposed fp16 weight, as ggml's CANN backend passes it every decode
    // step, would otherwise be copied whole on each call).
    // The others are rounded in their own order: a transposed weight (a bf16
    // one, as ggml passes it) stays transposed, so the conversion streams
    // through it instead of gathering a column per row (30x slower at 4096 x
    // 14336).
    const auto to_fp16 = [&](const TensorRef& t) {
      const auto last = static_cast<int64_t>(t.shape.size()) - 1;
      if (last >= 1 && t.strides[last - 1] == 1 && t.strides[last] != 1 && t.shape[last - 1] > 1) {
        return Transpose(plan.Contiguous(Transpose(t, last - 1, last), ACL_FLOAT16), last - 1, last);
      }
      return plan.Contiguous(t, ACL_FLOAT16);
    };
    // A weight the skinny kernel streams is rounded as it loads, not copied
    // (ggml's bf16 decode step: 117 MB written and read again per call).
    if (a.dtype != ACL_FLOAT16) a = to_fp16(a);
    round_b_on_load = b.dtype != ACL_FLOAT16 && UseSkinnyKernel(a, b, out, ACL_FLOAT16);
    if (b.dtype != ACL_FLOAT16 && !round_b_on_load) b = to_fp16(b);
    product = ACL_FLOAT16;
  }
  // The skinny kernel reads B as it is stored and computes in f32.
  const bool skinny = round_b_on_load || UseSkinnyKernel(a, b, out, b.dtype);
  // alpha == 0 leaves only the bias term, as an empty sum does: no product is
  // run (oneDNN's SSE4.1 kernels scale a poisoned dst by beta = 0 into NaN).
  const bool no_product = k == 0 || terms.alpha == 0.0f;
  int pieces = skinny || no_product ? 0 : PiecesProductsFor(product, cube_math_type);
  if (pieces > 0 && !kernels::Bf16SplitForced() &&
      !PiecesProductPays(pieces, out.shape[rank - 2], out.shape[rank - 1], k)) {
    pieces = 0;
  }
  if (pieces > 0 && AddPiecesProduct(plan, a, b, out, terms, product == ACL_FLOAT ? ACL_FLOAT : ACL_FLOAT16, pieces)) {
    return ACLNN_SUCCESS;
  }
  const aclDataType engine_dtype = !skinny && kernels::MatmulSupportsDtype(product) ? product : ACL_FLOAT;
  if (!skinny) {
    if (a.dtype != engine_dtype) a = plan.Contiguous(a, engine_dtype);
    if (b.dtype != engine_dtype) b = plan.Contiguous(b, engine_dtype);
  }

  // oneDNN writes f32 or the engine dtype; anything else is staged in f32.
  const bool direct_out = out.dtype == ACL_FLOAT || out.dtype == engine_dtype;
  TensorRef dst = direct_out ? out : plan.Temporary(ACL_FLOAT, out.shape);

  float beta = terms.beta;
  if (!no_product && !skinny && FuseRowBias(plan, a, b, dst, engine_dtype, terms)) {
    if (!direct_out) plan.Copy(dst, out);
    return ACLNN_SUCCESS;
  }
  if (terms.bias != nullptr && beta != 0.0f) {
    // The bias goes into dst first; the product then accumulates onto it.
    if (!SameView(*terms.bias, dst)) plan.Copy(*terms.bias, dst);
  } else {
    beta = 0.0f;
  }

  if (no_product) {  // only the bias term remains
    if (beta == 0.0f) {
      plan.Fill(dst, ScalarValue::Integer(0));
    } else if (beta != 1.0f) {
      plan.Elementwise(ElementwiseOp::kMul, kernels::ComputeTypeOf(dst.dtype), {dst}, dst, ScalarValue::Integer(1),
                       ScalarValue::Real(beta));
    }
    if (!direct_out) plan.Copy(dst, out);
    return ACLNN_SUCCESS;
  }

#if defined(__x86_64__)  // UseSkinnyKernel says no elsewhere
  if (skinny) {
    const bool unit_columns = dst.shape[rank - 1] == 1 || dst.strides[rank - 1] == 1;
    const TensorRef c = unit_columns ? dst : plan.Temporary(ACL_FLOAT, dst.shape);
    if (!unit_columns && beta != 0.0f) plan.Copy(dst, c);
    AddSkinnyProduct(plan, a, b, c, terms.alpha, beta, round_b_on_load);
    if (!unit_columns) plan.Copy(c, dst);
    if (!direct_out) plan.Copy(dst, out);
    return ACLNN_SUCCESS;
  }
#endif

  kernels::MatmulDesc desc = ProductDesc(a, b, dst, terms.alpha, beta);
  std::string reason;
  auto step = MatmulStepFor(plan, desc, reason);
  if (!step) {
    // Candidate 2: dense operands with their batch broadcast spelled out, and a
    // dense output: the layout every oneDNN build takes.
    Shape a_shape(out.shape.begin(), out.shape.end() - 2), b_shape = a_shape;
    a_shape.insert(a_shape.end(), a.shape.end() - 2, a.shape.end());
    b_shape.insert(b_shape.end(), b.shape.end() - 2, b.shape.end());
    a = plan.Contiguous(BroadcastTo(a, a_shape), engine_dtype);
    b = plan.Contiguous(BroadcastTo(b, b_shape), engine_dtype);
    if (!dst.IsContiguous()) {
      TensorRef dense = plan.Temporary(dst.dtype, dst.shape);
      if (beta != 0.0f) plan.Copy(dst, dense);
      desc.dst = OperandOf(dense);
      desc.src = OperandOf(a);
      desc.weights = OperandOf(b);
      step = MatmulStepFor(plan, desc, reason);
      if (step) {
        plan.AddStep(std::move(step), {a, b}, dense);
        plan.Copy(dense, dst);
        if (!direct_out) plan.Copy(dst, out);
        return ACLNN_SUCCESS;
      }
    } else {
      desc.src = OperandOf(a);
      desc.weights = OperandOf(b);
      step = MatmulStepFor(plan, desc, reason);
    }
  }
  if (!step) return plan.Reject(ACLNN_ERR_INNER, "no matmul implementation: %s", reason.c_str());
  // The product reads a and b and accumulates onto dst (where a bias was copied):
  // an input it does not read, such as InplaceAddmm's selfRef, may be dst itself.
  plan.AddStep(std::move(step), {a, b}, dst);
  if (!direct_out) plan.Copy(dst, out);
  return ACLNN_SUCCESS;
}

}  // namespace canopy::ops
