// aclnnMlaProlog, aclnnMlaPrologV2WeightNz and aclnnMlaPrologV3WeightNz (CANN's attention/mla_prolog,
// mla_prolog_v2 and mla_prolog_v3, Atlas A2 path; V3: PlanMlaPrologV3): the pre-processing of DeepSeek's multi-head
// latent attention for T tokens x [T, He] (or [B, S, He], T = B * S), N heads:
//   cQ = RmsNorm(x @ weightDq) * rmsnormGammaCq                                  [T, Hcq]
//   [qC | qR] = cQ @ weightUqQr, head n's D + Dr columns at n * (D + Dr)          [T, N, D + Dr]
//   queryOut[t, n] = qC[t, n] @ weightUk[n]                                       [T, N, Hckv]
//   queryRopeOut[t, n] = RoPE(qR[t, n])                                           [T, N, Dr]
//   [cKV | kR] = x @ weightDkvKr                                                  [T, Hckv + Dr]
//   kvCacheRef[slot] = RmsNorm(cKV[t]) * rmsnormGammaCkv, krCacheRef[slot] = RoPE(kR[t]),
//   slot = cacheIndex[t] (negative: the token is not written; BlockNum 0: no cache is written).
// As the kernel does, every product and norm result is rounded to bf16 before the next step reads it,
// and RoPE takes the Dr values' even elements then their odd ones and rotates those halves
// (kernels/rope.h, kInterleaveHalf): y[i] = x[2i] cos[i] - x[2i+1] sin[i],
// y[i + Dr/2] = x[2i+1] cos[i + Dr/2] + x[2i] sin[i + Dr/2].
// Caches: PA_BSND is [BlockNum, BlockSize, Nkv, H] row-major; PA_NZ stores each block as NZ fractals
// [H / c0, BlockSize, c0] (c0: 32 bytes of elements). Slot s is row s % BlockSize of block
// s / BlockSize. A slot past BlockNum * BlockSize fails the run before anything is written.
// Weights: a 2-D weightDq / weightUqQr / weightDkvKr is (k, n), read through its view (FRACTAL_NZ
// prepared by Canopy's TransMatmulWeight, which keeps the ND layout, or ND); a 4-D one is the NZ blocks
// [n / c0, k / 16, 16, c0] (element [j1, k1, k0, j0] is W[k1 * 16 + k0][j1 * c0 + j0]), as CANN's
// example builds it. CANN generates the entry points from the op definition: its dtype
// combinations are 161002; the rest is checked while tiling (561002), in the tiling's order.
// The quantised scenarios (an INT8 weightUqQr: partial; INT8 tokenX and weights too: full; each with
// BF16 or INT8 caches) follow the kernel's stages and roundings (PlanQuantised). MlaProlog's kernel
// has no branch for full quantisation (its tiling accepts it, and the launch then computes nothing):
// Canopy computes it as MlaPrologV2WeightNz's kernel does.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "aclnnop/aclnn_mla_prolog.h"
#include "aclnnop/aclnn_mla_prolog_v2_weight_nz.h"
#include "aclnnop/aclnn_mla_prolog_v3_weight_nz.h"
#include "common/half.h"
#include "kernels/parallel_for.h"
#include "kernels/quant_affine.h"
#include "kernels/quant_int8_matmul.h"
#include "kernels/reduce_norm.h"
#include "ops/framework/aclnn_op.h"
#include "ops/framework/tensor_view.h"
#include "ops/nn/matmul_planner.h"
#include "ops/nn/quant_rows.h"
#include "rope_plan.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;
constexpr aclnnStatus kSlotFault = ACL_ERROR_RT_AICORE_EXCEPTION;  // what a kernel writing past the cache reports

// The tiling's fixed dimensions and limits.
constexpr int64_t kHcq = 1536, kHckv = 512, kD = 128, kDr = 64, kNkv = 1;
constexpr int64_t kMaxB = 65536, kMaxS = 16, kMaxT = int64_t{1} << 20;
constexpr int64_t kHeSizes[] = {7168, 7680, 6144};  // the code also takes 6144 (the document: 7168, 7680)
constexpr int64_t kHeadCounts[] = {1, 2, 4, 8, 16, 32, 64, 128};
constexpr int64_t kBlockSizes[] = {16, 128};
constexpr int64_t kNzRows = 16;        // k rows of an NZ fractal
constexpr int64_t kFractalBytes = 32;  // an NZ fractal row: 32 bytes of elements
constexpr int64_t kWeightNdRank = 2, kWeightNzRank = 4;

enum class Version { kV1, kV2, kV3 };

// The op definitions' dtype columns: tokenX, weightDq, weightUqQr, weightDkvKr, kvCache, krCache, query.
struct DtypeColumn {
  aclDataType x, dq, uq_qr, dkv_kr, kv, kr, query;
};
constexpr aclDataType kB = ACL_BF16, kI8 = ACL_INT8;
constexpr DtypeColumn kV1Columns[] = {{kB, kB, kB, kB, kB, kB, kB},
                                      {kB, kB, kI8, kB, kI8, kI8, kB},
                                      {kB, kB, kI8, kB, kB, kB, kB},
                                      {kI8, kI8, kI8, kI8, kI8, kI8, kB},
                                      {kI8, kI8, kI8, kI8, kB, kB, kB}};
constexpr DtypeColumn kV2Columns[] = {{kB, kB, kB, kB, kB, kB, kB},     {kB, kB, kI8, kB, kI8, kI8, kB},
                                      {kB, kB, kI8, kB, kB, kB, kB},    {kI8, kI8, kI8, kI8, kI8, kI8, kB},
                                      {kI8, kI8, kI8, kI8, kB, kB, kB}, {kI8, kI8, kI8, kI8, kI8, kB, kI8}};

struct MlaArgs {
  Version version = Version::kV1;
  const aclTensor *x = nullptr, *dq = nullptr, *uq_qr = nullptr, *uk = nullptr, *dkv_kr = nullptr;
  const aclTensor *gamma_cq = nullptr, *gamma_ckv = nullptr, *sin = nullptr, *cos = nullptr, *index = nullptr;
  const aclTensor *kv = nullptr, *kr = nullptr;
  const aclTensor *scale_x = nullptr, *scale_w_dq = nullptr, *scale_w_uq_qr = nullptr, *scale_w_dkv_kr = nullptr;
  const aclTensor *scale_ckv = nullptr, *scale_ckr = nullptr, *smooth_cq = nullptr;
  double eps_cq = 0, eps_ckv = 0;
  const char* cache_mode = nullptr;
  const aclTensor *query = nullptr, *query_rope = nullptr;
  const aclTensor* scale_q_nope = nullptr;  // V2's dequantScaleQNopeOutOptional
  // V3's: actualSeqLenOptional and the query-norm outputs (neither read nor written on A2), and the
  // factors on RmsNorm(cQ) and RmsNorm(cKV) (attributes of type float in the op definition).
  const aclTensor *actual_seq_len = nullptr, *query_norm = nullptr, *scale_q_norm = nullptr;
  float qc_qr_scale = 1.0f, kc_scale = 1.0f;
};

enum class QuantMode { kNone, kPartialKvPlain, kPartialKvQuant, kFullKvPlain, kFullKvQuant };

// The problem's dimensions as the tiling reads them.
struct Dims {
  bool fused = false;  // tokenX is [T, He]
  int64_t b = 0, s = 0, t = 0, he = 0, hcq = 0, n = 0, d = 0, dr = 0, hckv = 0, nkv = 0;
  int64_t block_num = 0, block_size = 0;
  bool nz_cache = false;
};

int64_t NzColumns(aclDataType dtype) { return kFractalBytes / static_cast<int64_t>(DtypeSize(dtype)); }

template <size_t kCount>
bool OneOf(int64_t value, const int64_t (&list)[kCount]) {
  for (const int64_t v : list) {
    if (v == value) return true;
  }
  return false;
}

aclnnStatus CheckDtypes(Plan& plan, const MlaArgs& a) {
  const std::pair<const char*, const aclTensor*> bf16_args[] = {
      {"weightUk", a.uk}, {"rmsnormGammaCq", a.gamma_cq}, {"rmsnormGammaCkv", a.gamma_ckv}, {"ropeSin", a.sin},
      {"ropeCos", a.cos}, {"queryRopeOut", a.query_rope}};
  for (const auto& [name, t] : bf16_args) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {ACL_BF16}));
  if (a.index != nullptr) CANOPY_CHECK(plan.CheckDtype("cacheIndex", a.index->dtype, {ACL_INT64}));
  if (a.actual_seq_len != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("actualSeqLenOptional", a.actual_seq_len->dtype, {ACL_INT32}));
  }
  if (a.query_norm != nullptr) {
    CANOPY_CHECK(plan.CheckDtype("queryNormOutOptional", a.query_norm->dtype, {ACL_INT8, ACL_BF16}));
  }
  const std::pair<const char*, const aclTensor*> float_args[] = {{"dequantScaleXOptional", a.scale_x},
                                                                 {"dequantScaleWDqOptional", a.scale_w_dq},
                                                                 {"dequantScaleWUqQrOptional", a.scale_w_uq_qr},
                                                                 {"dequantScaleWDkvKrOptional", a.scale_w_dkv_kr},
                                                                 {"quantScaleCkvOptional", a.scale_ckv},
                                                                 {"quantScaleCkrOptional", a.scale_ckr},
                                                                 {"smoothScalesCqOptional", a.smooth_cq},
                                                                 {"dequantScaleQNopeOutOptional", a.scale_q_nope},
                                                                 {"dequantScaleQNormOutOptional", a.scale_q_norm}};
  for (const auto& [name, t] : float_args) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckDtype(name, t->dtype, {ACL_FLOAT}));
  }
  const DtypeColumn given{a.x->dtype,  a.dq->dtype, a.uq_qr->dtype, a.dkv_kr->dtype,
                          a.kv->dtype, a.kr->dtype, a.query->dtype};
  const auto matches = [&given](const DtypeColumn& c) {
    return c.x == given.x && c.dq == given.dq && c.uq_qr == given.uq_qr && c.dkv_kr == given.dkv_kr &&
           c.kv == given.kv && c.kr == given.kr && c.query == given.query;
  };
  bool found = false;
  if (a.version == Version::kV1) {
    for (const DtypeColumn& c : kV1Columns) found = found || matches(c);
  } else {
    for (const DtypeColumn& c : kV2Columns) found = found || matches(c);
  }
  if (found) return ACLNN_SUCCESS;
  return plan.Reject(ACLNN_ERR_PARAM_INVALID,
                     "the dtypes of tokenX (%s), weightDq (%s), weightUqQr (%s), weightDkvKr (%s), kvCacheRef (%s), "
                     "krCacheRef (%s) and queryOut (%s) are not one of the op's combinations (all BFLOAT16; or an INT8 "
                     "weightUqQr with BFLOAT16 or INT8 caches; or INT8 tokenX and weights)",
                     DtypeName(given.x), DtypeName(given.dq), DtypeName(given.uq_qr), DtypeName(given.dkv_kr),
                     DtypeName(given.kv), DtypeName(given.kr), DtypeName(given.query));
}

aclnnStatus CheckRankIn(Plan& plan, const char* name, const aclTensor* t, const std::vector<int64_t>& ranks) {
  for (const int64_t r : ranks) {
    if (t->rank() == r) return ACLNN_SUCCESS;
  }
  std::string list;
  for (const int64_t r : ranks) list += (list.empty() ? "" : " or ") + std::to_string(r);
  return plan.Reject(kTiling, "argument '%s' has rank %lld; it must be %s", name, static_cast<long long>(t->rank()),
                     list.c_str());
}

// The tiling's per-argument checks (format and rank; the dtypes are the op definition's, checked before).
aclnnStatus CheckEachRequired(Plan& plan, const MlaArgs& a) {
  CANOPY_CHECK(plan.CheckPlainFormat("tokenX", a.x));
  CANOPY_CHECK(CheckRankIn(plan, "tokenX", a.x, {2, 3}));
  const std::pair<const char*, const aclTensor*> weights[] = {
      {"weightDq", a.dq}, {"weightUqQr", a.uq_qr}, {"weightDkvKr", a.dkv_kr}};
  for (const auto& [name, w] : weights) {
    CANOPY_CHECK(CheckRankIn(plan, name, w, {kWeightNdRank, kWeightNzRank}));
    // A 2-D ND weight is what Canopy's TransMatmulWeight leaves (CANN's turns the descriptor into NZ).
    if (w->format != ACL_FORMAT_FRACTAL_NZ && !(w->rank() == kWeightNdRank && w->format == ACL_FORMAT_ND)) {
      return plan.Reject(kTiling, "argument '%s' has format %d; it must be FRACTAL_NZ", name,
                         static_cast<int>(w->format));
    }
    // Also with the first one checked: CANN checks the weights in prototype order, uk among them.
    if (w == a.uq_qr) {
      CANOPY_CHECK(plan.CheckPlainFormat("weightUk", a.uk));
      CANOPY_CHECK(CheckRankIn(plan, "weightUk", a.uk, {3}));
    }
  }
  const std::tuple<const char*, const aclTensor*, std::vector<int64_t>> rest[] = {{"rmsnormGammaCq", a.gamma_cq, {1}},
                                                                                  {"rmsnormGammaCkv", a.gamma_ckv, {1}},
                                                                                  {"ropeSin", a.sin, {2, 3}},
                                                                                  {"ropeCos", a.cos, {2, 3}},
                                                                                  {"cacheIndex", a.index, {1, 2}},
                                                                                  {"kvCacheRef", a.kv, {4}},
                                                                                  {"krCacheRef", a.kr, {4}}};
  for (const auto& [name, t, ranks] : rest) {
    // V3's cacheIndexOptional is optional in the op definition only: its tiling reads it as required.
    if (t == nullptr) return plan.Reject(kTiling, "argument '%s' should not be null", name);
    CANOPY_CHECK(plan.CheckPlainFormat(name, t));
    CANOPY_CHECK(CheckRankIn(plan, name, t, ranks));
  }
  const std::pair<const char*, const aclTensor*> others[] = {{"dequantScaleXOptional", a.scale_x},
                                                             {"dequantScaleWDqOptional", a.scale_w_dq},
                                                             {"dequantScaleWUqQrOptional", a.scale_w_uq_qr},
                                                             {"dequantScaleWDkvKrOptional", a.scale_w_dkv_kr},
                                                             {"quantScaleCkvOptional", a.scale_ckv},
                                                             {"quantScaleCkrOptional", a.scale_ckr},
                                                             {"smoothScalesCqOptional", a.smooth_cq},
                                                             {"queryOut", a.query},
                                                             {"queryRopeOut", a.query_rope},
                                                             {"dequantScaleQNopeOutOptional", a.scale_q_nope}};
  for (const auto& [name, t] : others) {
    if (t != nullptr) CANOPY_CHECK(plan.CheckPlainFormat(name, t));
  }
  return ACLNN_SUCCESS;
}

aclnnStatus ReadDims(Plan& plan, const MlaArgs& a, Dims& d) {
  if (a.cache_mode == nullptr ||
      (std::strcmp(a.cache_mode, "PA_BSND") != 0 && std::strcmp(a.cache_mode, "PA_NZ") != 0)) {
    return plan.Reject(kTiling, "cacheModeOptional is '%s'; it must be 'PA_BSND' or 'PA_NZ'",
                       a.cache_mode == nullptr ? "(null)" : a.cache_mode);
  }
  d.nz_cache = std::strcmp(a.cache_mode, "PA_NZ") == 0;
  const Shape& xs = a.x->view_shape;
  d.fused = xs.size() == 2;
  d.b = d.fused ? 0 : xs[0];
  d.s = d.fused ? 0 : xs[1];
  d.t = d.fused ? xs[0] : d.b * d.s;
  d.he = xs.back();
  const Shape& dq = a.dq->view_shape;
  d.hcq = dq.size() == kWeightNdRank ? dq[1] : dq[0] * NzColumns(a.dq->dtype);
  d.n = a.uk->view_shape[0];
  d.d = a.uk->view_shape[1];
  d.dr = a.cos->view_shape.back();
  const Shape& kv = a.kv->view_shape;
  d.block_num = kv[0];
  d.block_size = kv[1];
  d.nkv = kv[2];
  d.hckv = kv[3];
  const auto reject = [&plan](const char* what, int64_t value, const char* allowed) {
    return plan.Reject(kTiling, "%s is %lld; it must be %s", what, static_cast<long long>(value), allowed);
  };
  if (!d.fused && d.b > kMaxB) return reject("B (tokenX's dim 0)", d.b, "at most 65536");
  if (!d.fused && d.s > kMaxS) return reject("S (tokenX's dim 1)", d.s, "at most 16");
  if (!OneOf(d.he, kHeSizes)) return reject("He (tokenX's last dim)", d.he, "7168, 7680 or 6144");
  if (d.hcq != kHcq) return reject("Hcq (weightDq's n)", d.hcq, "1536");
  if (!OneOf(d.n, kHeadCounts)) return reject("N (weightUk's dim 0)", d.n, "1, 2, 4, 8, 16, 32, 64 or 128");
  if (d.hckv != kHckv) return reject("Hckv (kvCacheRef's dim 3)", d.hckv, "512");
  if (d.d != kD) return reject("D (weightUk's dim 1)", d.d, "128");
  if (d.dr != kDr) return reject("Dr (ropeCos's last dim)", d.dr, "64");
  if (d.nkv != kNkv) return reject("Nkv (kvCacheRef's dim 2)", d.nkv, "1");
  if (!OneOf(d.block_size, kBlockSizes)) return reject("BlockSize (kvCacheRef's dim 1)", d.block_size, "16 or 128");
  if (d.t > kMaxT) return reject("T (the token count)", d.t, "at most 1048576");
  return ACLNN_SUCCESS;
}

QuantMode QuantModeOf(const MlaArgs& a) {
  const bool kv_quant = a.kv->dtype == ACL_INT8;
  if (a.x->dtype == ACL_INT8) return kv_quant ? QuantMode::kFullKvQuant : QuantMode::kFullKvPlain;
  if (a.uq_qr->dtype == ACL_INT8) return kv_quant ? QuantMode::kPartialKvQuant : QuantMode::kPartialKvPlain;
  return QuantMode::kNone;
}

// One argument against what the scenario expects: absent (null) or of `shape` (the tiling's
// comparison, which the dtypes have passed already).
aclnnStatus Expect(Plan& plan, const char* name, const aclTensor* t, const std::optional<Shape>& shape) {
  if (!shape) {
    if (t == nullptr) return ACLNN_SUCCESS;
    return plan.Reject(kTiling,
                       "argument '%s' must be null in this scenario (the dtypes of tokenX, weightUqQr and "
                       "kvCacheRef decide it)",
                       name);
  }
  if (t == nullptr) return plan.Reject(kTiling, "argument '%s' is required in this scenario", name);
  if (t->view_shape != *shape) {
    return plan.Reject(kTiling, "argument '%s' has shape %s; it must be %s", name, ShapeToString(t->view_shape).c_str(),
                       ShapeToString(*shape).c_str());
  }
  return ACLNN_SUCCESS;
}

Shape WeightShape(const aclTensor* w, int64_t k, int64_t n) {
  if (w->rank() == kWeightNdRank) return {k, n};
  const int64_t c0 = NzColumns(w->dtype);
  return {n / c0, k / kNzRows, kNzRows, c0};
}

aclnnStatus CheckScenario(Plan& plan, const MlaArgs& a, const Dims& d, QuantMode mode) {
  const Shape tokens = d.fused ? Shape{d.t} : Shape{d.b, d.s};
  const auto with = [&tokens](std::initializer_list<int64_t> tail) {
    Shape s = tokens;
    s.insert(s.end(), tail);
    return s;
  };
  const int64_t uq_qr_n = d.n * (d.d + d.dr);
  CANOPY_CHECK(Expect(plan, "tokenX", a.x, with({d.he})));
  CANOPY_CHECK(Expect(plan, "weightDq", a.dq, WeightShape(a.dq, d.he, d.hcq)));
  CANOPY_CHECK(Expect(plan, "weightUqQr", a.uq_qr, WeightShape(a.uq_qr, d.hcq, uq_qr_n)));
  CANOPY_CHECK(Expect(plan, "weightUk", a.uk, Shape{d.n, d.d, d.hckv}));
  CANOPY_CHECK(Expect(plan, "weightDkvKr", a.dkv_kr, WeightShape(a.dkv_kr, d.he, d.hckv + d.dr)));
  CANOPY_CHECK(Expect(plan, "rmsnormGammaCq", a.gamma_cq, Shape{d.hcq}));
  CANOPY_CHECK(Expect(plan, "rmsnormGammaCkv", a.gamma_ckv, Shape{d.hckv}));
  CANOPY_CHECK(Expect(plan, "ropeSin", a.sin, with({d.dr})));
  CANOPY_CHECK(Expect(plan, "ropeCos", a.cos, with({d.dr})));
  CANOPY_CHECK(Expect(plan, "cacheIndex", a.index, tokens));
  CANOPY_CHECK(Expect(plan, "kvCacheRef", a.kv, Shape{d.block_num, d.block_size, d.nkv, d.hckv}));
  CANOPY_CHECK(Expect(plan, "krCacheRef", a.kr, Shape{d.block_num, d.block_size, d.nkv, d.dr}));
  CANOPY_CHECK(Expect(plan, "queryOut", a.query, with({d.n, d.hckv})));
  CANOPY_CHECK(Expect(plan, "queryRopeOut", a.query_rope, with({d.n, d.dr})));
  const bool partial_or_full = mode != QuantMode::kNone;
  const bool full = mode == QuantMode::kFullKvPlain || mode == QuantMode::kFullKvQuant;
  const bool partial_kv_quant = mode == QuantMode::kPartialKvQuant;
  using Want = std::optional<Shape>;
  CANOPY_CHECK(Expect(plan, "dequantScaleXOptional", a.scale_x, full ? Want(Shape{d.t, 1}) : std::nullopt));
  CANOPY_CHECK(Expect(plan, "dequantScaleWDqOptional", a.scale_w_dq, full ? Want(Shape{1, d.hcq}) : std::nullopt));
  CANOPY_CHECK(Expect(plan, "dequantScaleWUqQrOptional", a.scale_w_uq_qr,
                      partial_or_full ? Want(Shape{1, uq_qr_n}) : std::nullopt));
  CANOPY_CHECK(Expect(plan, "dequantScaleWDkvKrOptional", a.scale_w_dkv_kr,
                      full ? Want(Shape{1, d.hckv + d.dr}) : std::nullopt));
  const bool ckv = partial_kv_quant || mode == QuantMode::kFullKvQuant;
  CANOPY_CHECK(Expect(plan, "quantScaleCkvOptional", a.scale_ckv, ckv ? Want(Shape{1, d.hckv}) : std::nullopt));
  CANOPY_CHECK(
      Expect(plan, "quantScaleCkrOptional", a.scale_ckr, partial_kv_quant ? Want(Shape{1, d.dr}) : std::nullopt));
  // smoothScalesCq is optional where the scenario takes it.
  if (a.smooth_cq != nullptr || !partial_or_full) {
    CANOPY_CHECK(
        Expect(plan, "smoothScalesCqOptional", a.smooth_cq, partial_or_full ? Want(Shape{1, d.hcq}) : std::nullopt));
  }
  if (mode == QuantMode::kFullKvQuant) {
    // V1 has no dequantScaleQNope output, which this scenario needs.
    if (a.version == Version::kV1) {
      return plan.Reject(kTiling, "an INT8 tokenX with INT8 caches needs dequantScaleQNope, which MlaProlog lacks");
    }
    CANOPY_CHECK(Expect(plan, "dequantScaleQNopeOutOptional", a.scale_q_nope, Shape{d.t, d.n, 1}));
  }
  return ACLNN_SUCCESS;
}

// `a` [M, K] @ `weight` into `out` [M, N]. A 4-D weight is the NZ blocks: block column j1 is a
// row-major [K, c0] matrix, so the product runs as a batch over j1 writing columns j1 * c0 onwards.
aclnnStatus PlanWeightProduct(Plan& plan, const TensorRef& a, const TensorRef& weight, const TensorRef& out) {
  if (weight.rank() == kWeightNdRank) return PlanProduct(plan, a, weight, out, 0);
  const int64_t n1 = weight.shape[0], k = weight.shape[1] * weight.shape[2], c0 = weight.shape[3];
  std::optional<TensorRef> blocks = Reshape(weight, {n1, k, c0});
  if (!blocks) blocks = Reshape(plan.Contiguous(weight, weight.dtype), {n1, k, c0});
  TensorRef columns = out;
  columns.shape = {n1, out.shape[0], c0};
  columns.strides = {c0 * out.strides[1], out.strides[0], out.strides[1]};
  return PlanProduct(plan, a, *blocks, columns, 0);
}

// RmsNorm of `rows` [T, L] (any strides) times gamma [L] into `y` [T, L].
void PlanRmsRows(Plan& plan, const TensorRef& rows, const TensorRef& gamma, double eps, const TensorRef& y) {
  kernels::NormDesc desc;
  desc.kind = kernels::NormKind::kRms;
  desc.rows = rows.shape[0];
  desc.length = rows.shape[1];
  desc.eps = eps;
  desc.x = {true, rows.buffer, rows.dtype, rows.strides[0], rows.strides[1]};
  desc.gamma = {true, gamma.buffer, gamma.dtype, 0, gamma.strides[0]};
  desc.y = {true, y.buffer, y.dtype, y.strides[0], y.strides[1]};
  plan.AddStep(kernels::MakeNormStep(desc), {rows, gamma}, y);
}

// PlanRmsRows times `scale` where it is not 1 (V3's qcQrScale and kcScale: the kernel multiplies its
// f32 norm when |scale - 1| >= FLT_EPSILON, before any rounding or quantisation).
void PlanScaledRmsRows(Plan& plan, const TensorRef& rows, const TensorRef& gamma, double eps, float scale,
                       const TensorRef& y) {
  if (std::fabs(scale - 1.0f) < std::numeric_limits<float>::epsilon()) {
    PlanRmsRows(plan, rows, gamma, eps, y);
    return;
  }
  const TensorRef norm = plan.Temporary(ACL_FLOAT, y.shape);
  PlanRmsRows(plan, rows, gamma, eps, norm);
  plan.Elementwise(ElementwiseOp::kMul, ComputeType::kF32, {norm}, y, ScalarValue::Real(1), ScalarValue::Real(scale));
}

// Writes each token's row of `rows` (contiguous [T, width]) into a paged cache (contiguous) at its
// slot: every slot is checked before anything is written; a negative one is skipped.
class CacheScatterStep final : public Step {
 public:
  struct Desc {
    BufferRef slots, rows, cache;
    aclDataType dtype = ACL_BF16;
    int64_t tokens = 0, width = 0, block_num = 0, block_size = 0;
    bool nz = false;
  };
  explicit CacheScatterStep(const Desc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* slots = reinterpret_cast<const int64_t*>(context.Resolve(d_.slots));
    const int64_t capacity = d_.block_num * d_.block_size;
    for (int64_t t = 0; t < d_.tokens; ++t) {
      if (slots[t] >= capacity) {
        SetErrorMessage(
            "MlaProlog: cacheIndex[%lld] is %lld, outside the caches' %lld slots (BlockNum %lld x BlockSize %lld)",
            static_cast<long long>(t), static_cast<long long>(slots[t]), static_cast<long long>(capacity),
            static_cast<long long>(d_.block_num), static_cast<long long>(d_.block_size));
        return kSlotFault;
      }
    }
    const auto element = static_cast<int64_t>(DtypeSize(d_.dtype));
    char* cache = context.Resolve(d_.cache);
    const char* rows = context.Resolve(d_.rows);
    const int64_t c0 = NzColumns(d_.dtype), width = d_.width;
    // In token order, so that of two tokens naming one slot the later wins.
    for (int64_t t = 0; t < d_.tokens; ++t) {
      const int64_t slot = slots[t];
      if (slot < 0) continue;
      const char* src = rows + t * width * element;
      if (!d_.nz) {
        std::memcpy(cache + slot * width * element, src, static_cast<size_t>(width * element));
        continue;
      }
      const int64_t block = slot / d_.block_size, row = slot % d_.block_size;
      char* base = cache + (block * d_.block_size * width + row * c0) * element;
      for (int64_t j = 0; j < width; j += c0) {
        std::memcpy(base + j * d_.block_size * element, src + j * element, static_cast<size_t>(c0 * element));
      }
    }
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return std::string("mla cache scatter ") + DtypeName(d_.dtype) + " tokens " + std::to_string(d_.tokens) +
           " width " + std::to_string(d_.width) + (d_.nz ? " PA_NZ" : " PA_BSND");
  }

 private:
  Desc d_;
};

// The INT32 product of two INT8 matrices dequantised as the kernel does it in f32:
// out[i, j] = (float(acc[i, j]) * row_scale[i]) * column_scale[j]. Operands are contiguous.
class MlaDequantStep final : public Step {
 public:
  struct Desc {
    BufferRef acc, row_scale, column_scale, out;
    int64_t rows = 0, columns = 0;
  };
  explicit MlaDequantStep(const Desc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* acc = reinterpret_cast<const int32_t*>(context.Resolve(d_.acc));
    const auto* row_scale = reinterpret_cast<const float*>(context.Resolve(d_.row_scale));
    const auto* column_scale = reinterpret_cast<const float*>(context.Resolve(d_.column_scale));
    auto* out = reinterpret_cast<float*>(context.Resolve(d_.out));
    const int64_t columns = d_.columns;
    kernels::ParallelFor(d_.rows, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const float r = row_scale[i];
        for (int64_t j = 0; j < columns; ++j) {
          out[i * columns + j] = static_cast<float>(acc[i * columns + j]) * r * column_scale[j];
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "mla dequant rows " + std::to_string(d_.rows) + " columns " + std::to_string(d_.columns);
  }

 private:
  Desc d_;
};

// f32 to f16 and f16 to an integer, each rounded to nearest with ties away from zero (the vector
// unit's CAST_ROUND); for the |v| <= 127 this is used on, no value leaves f16's normal range.
float RoundThroughHalfAway(float v) {
  const double magnitude = std::fabs(static_cast<double>(v));
  if (magnitude == 0.0) return 0.0f;
  constexpr int kHalfMantissaBits = 10, kHalfMinExponent = -14;
  const int exponent = std::max(static_cast<int>(std::floor(std::log2(magnitude))), kHalfMinExponent);
  const double quantum = std::ldexp(1.0, exponent - kHalfMantissaBits);
  const double half = std::floor(magnitude / quantum + 0.5) * quantum;
  return static_cast<float>(std::copysign(std::floor(half + 0.5), static_cast<double>(v)));
}

// The full-quantisation KV-quant epilogue of the query, per row (token, head) of qN [rows, Hckv]
// (bf16): scale = max|row| / 127, queryOut = round(row * (127 / max|row|)) through f16 (ties away);
// queryRopeOut = bf16(qR * (quantScaleCkv[0] / scale)). Operands are contiguous.
class MlaQueryQuantStep final : public Step {
 public:
  struct Desc {
    BufferRef qn, qr, ckv_scale, query, scale, query_rope;
    int64_t rows = 0, width = 0, rope_width = 0;
  };
  explicit MlaQueryQuantStep(const Desc& desc) : d_(desc) {}

  aclnnStatus Run(const RunContext& context) const override {
    const auto* qn = reinterpret_cast<const uint16_t*>(context.Resolve(d_.qn));
    const auto* qr = reinterpret_cast<const uint16_t*>(context.Resolve(d_.qr));
    const float ckv_scale = *reinterpret_cast<const float*>(context.Resolve(d_.ckv_scale));
    auto* query = reinterpret_cast<int8_t*>(context.Resolve(d_.query));
    auto* scale = reinterpret_cast<float*>(context.Resolve(d_.scale));
    auto* query_rope = reinterpret_cast<uint16_t*>(context.Resolve(d_.query_rope));
    constexpr float kInt8Max = 127.0f, kInt8Min = -128.0f;
    kernels::ParallelFor(d_.rows, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const uint16_t* row = qn + i * d_.width;
        float max = 0.0f;
        for (int64_t j = 0; j < d_.width; ++j) max = std::max(max, std::fabs(Bf16ToFloat(row[j])));
        const float s = max / kInt8Max;
        const float inverse = max > 0.0f ? kInt8Max / max : 0.0f;
        scale[i] = s;
        for (int64_t j = 0; j < d_.width; ++j) {
          const float q = RoundThroughHalfAway(Bf16ToFloat(row[j]) * inverse);
          query[i * d_.width + j] = static_cast<int8_t>(std::clamp(q, kInt8Min, kInt8Max));
        }
        const float factor = ckv_scale / s;
        for (int64_t j = 0; j < d_.rope_width; ++j) {
          const int64_t at = i * d_.rope_width + j;
          query_rope[at] = FloatToBf16(Bf16ToFloat(qr[at]) * factor);
        }
      }
    });
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override {
    return "mla query quant rows " + std::to_string(d_.rows) + " width " + std::to_string(d_.width);
  }

 private:
  Desc d_;
};

// a (INT8 [M, K], any view) @ weight (INT8: a 2-D (K, N) view or the 4-D NZ blocks) as an INT32
// temporary [M, N]: the weight is transposed into a contiguous [N, K] first.
TensorRef PlanInt8WeightProduct(Plan& plan, const TensorRef& a, const TensorRef& weight) {
  TensorRef bt;
  if (weight.rank() == kWeightNdRank) {
    bt = plan.Contiguous(Permute(weight, {1, 0}), ACL_INT8);
  } else {
    const int64_t n1 = weight.shape[0], k = weight.shape[1] * weight.shape[2], c0 = weight.shape[3];
    std::optional<TensorRef> blocks = Reshape(weight, {n1, k, c0});
    if (!blocks) blocks = Reshape(plan.Contiguous(weight, ACL_INT8), {n1, k, c0});
    bt = *Reshape(plan.Contiguous(Permute(*blocks, {0, 2, 1}), ACL_INT8), {n1 * c0, k});
  }
  const TensorRef rows = plan.Contiguous(a, ACL_INT8);
  TensorRef acc = plan.Temporary(ACL_INT32, {rows.shape[0], bt.shape[0]});
  kernels::Int8MatmulDesc desc;
  desc.batch = 1;
  desc.m = rows.shape[0];
  desc.n = bt.shape[0];
  desc.k = rows.shape[1];
  desc.a = rows.buffer;
  desc.bt = bt.buffer;
  desc.acc = acc.buffer;
  plan.AddStep(kernels::MakeInt8MatmulStep(desc), {rows, bt}, acc);
  return acc;
}

// acc (INT32 [M, N], contiguous) dequantised into an f32 temporary: row_scale one value per row
// (any view of M values), column_scale one per column (any view of N values).
TensorRef PlanDequant(Plan& plan, const TensorRef& acc, const TensorRef& row_scale, const TensorRef& column_scale) {
  const TensorRef rows = plan.Contiguous(row_scale, ACL_FLOAT);
  const TensorRef columns = plan.Contiguous(column_scale, ACL_FLOAT);
  TensorRef out = plan.Temporary(ACL_FLOAT, acc.shape);
  MlaDequantStep::Desc desc{acc.buffer, rows.buffer, columns.buffer, out.buffer, acc.shape[0], acc.shape[1]};
  plan.AddStep(std::make_unique<MlaDequantStep>(desc), {acc, rows, columns}, out);
  return out;
}

// rows (f32 / bf16, contiguous [T, W]) times a scale (f32: one per column, or its first value for
// all) into INT8, rounded half to even and saturated, as the kernel's Quant per channel / tensor.
TensorRef PlanQuantRows(Plan& plan, const TensorRef& rows, const TensorRef& scale, bool per_channel) {
  TensorRef out = plan.Temporary(ACL_INT8, rows.shape);
  kernels::QuantAffineDesc desc;
  desc.in_dtype = rows.dtype;
  desc.out_dtype = ACL_INT8;
  desc.elements = rows.NumElements();
  desc.axis_extent = rows.shape[1];
  desc.param_dtype = ACL_FLOAT;
  desc.param_count = per_channel ? rows.shape[1] : 1;
  AddAffineStep(plan, desc, rows, scale, nullptr, out);
  return out;
}

// The registered operands, in prototype order.
struct MlaOperands {
  TensorRef x, dq, uq_qr, uk, dkv_kr, gamma_cq, gamma_ckv, sin, cos, index;
  std::optional<TensorRef> scale_x, scale_w_dq, scale_w_uq_qr, scale_w_dkv_kr, scale_ckv, scale_ckr, smooth_cq;
  TensorRef query, query_rope, kv_cache, kr_cache;
  std::optional<TensorRef> scale_q_nope;
};

MlaOperands RegisterOperands(Plan& plan, const MlaArgs& a) {
  MlaOperands o;
  o.x = plan.Input(a.x, "tokenX");
  o.dq = plan.Input(a.dq, "weightDq");
  o.uq_qr = plan.Input(a.uq_qr, "weightUqQr");
  o.uk = plan.Input(a.uk, "weightUk");
  o.dkv_kr = plan.Input(a.dkv_kr, "weightDkvKr");
  o.gamma_cq = plan.Input(a.gamma_cq, "rmsnormGammaCq");
  o.gamma_ckv = plan.Input(a.gamma_ckv, "rmsnormGammaCkv");
  o.sin = plan.Input(a.sin, "ropeSin");
  o.cos = plan.Input(a.cos, "ropeCos");
  // Rows of the caches are written, none read. V3 takes cacheIndex after them.
  if (a.version != Version::kV3) o.index = plan.Input(a.index, "cacheIndex");
  plan.Input(a.kv, "kvCacheRef");
  plan.Input(a.kr, "krCacheRef");
  if (a.version == Version::kV3) o.index = plan.Input(a.index, "cacheIndexOptional");
  const std::tuple<const char*, const aclTensor*, std::optional<TensorRef>*> scales[] = {
      {"dequantScaleXOptional", a.scale_x, &o.scale_x},
      {"dequantScaleWDqOptional", a.scale_w_dq, &o.scale_w_dq},
      {"dequantScaleWUqQrOptional", a.scale_w_uq_qr, &o.scale_w_uq_qr},
      {"dequantScaleWDkvKrOptional", a.scale_w_dkv_kr, &o.scale_w_dkv_kr},
      {"quantScaleCkvOptional", a.scale_ckv, &o.scale_ckv},
      {"quantScaleCkrOptional", a.scale_ckr, &o.scale_ckr},
      {"smoothScalesCqOptional", a.smooth_cq, &o.smooth_cq}};
  for (const auto& [name, t, ref] : scales) {
    if (t != nullptr) {
      *ref = plan.Input(t, name);
    } else {
      plan.SkipInput();
    }
  }
  if (a.version == Version::kV3) {  // actualSeqLenOptional: not read on A2
    if (a.actual_seq_len != nullptr) {
      plan.Input(a.actual_seq_len, "actualSeqLenOptional");
    } else {
      plan.SkipInput();
    }
  }
  o.query = plan.Output(a.query, "queryOut");
  o.query_rope = plan.Output(a.query_rope, "queryRopeOut");
  if (a.version != Version::kV1) {
    // Written in full quantisation with INT8 caches; left as it is otherwise.
    if (a.scale_q_nope != nullptr) {
      o.scale_q_nope = plan.Output(a.scale_q_nope, "dequantScaleQNopeOutOptional");
    } else {
      plan.SkipOutput();
    }
  }
  if (a.version == Version::kV3) {
    // The query-norm outputs: not written on A2 (its kernel has no queryNormFlag path).
    for (const auto& [t, name] :
         {std::pair{a.query_norm, "queryNormOutOptional"}, std::pair{a.scale_q_norm, "dequantScaleQNormOutOptional"}}) {
      if (t != nullptr) {
        plan.Output(t, name);
      } else {
        plan.SkipOutput();
      }
    }
  }
  o.kv_cache = plan.Output(a.kv, "kvCacheRef");
  o.kr_cache = plan.Output(a.kr, "krCacheRef");
  return o;
}

// Writes `rows` into `cache` at the slots (contiguous INT64 [T]); a cache that is not contiguous
// is staged.
void PlanScatter(Plan& plan, const TensorRef& slots, const TensorRef& rows, const TensorRef& cache, const Dims& d) {
  const TensorRef dst = cache.IsContiguous() ? cache : plan.Contiguous(cache, cache.dtype);
  CacheScatterStep::Desc scatter;
  scatter.slots = slots.buffer;
  scatter.tokens = d.t;
  scatter.block_num = d.block_num;
  scatter.block_size = d.block_size;
  scatter.nz = d.nz_cache;
  scatter.rows = rows.buffer;
  scatter.cache = dst.buffer;
  scatter.dtype = dst.dtype;
  scatter.width = rows.shape[1];
  plan.AddStep(std::make_unique<CacheScatterStep>(scatter), {slots, rows}, dst);
  if (!SameView(dst, cache)) plan.Copy(dst, cache);
}

// RoPE of `x` ([T, n, 1, Dr] view) with each token's rows of cos / sin ([T, 1, 1, Dr]) into `y`:
// in bf16 where x is bf16, else in f32 (the tables converted, exactly).
void PlanTokenRope(Plan& plan, const TensorRef& x, const TensorRef& cos_rows, const TensorRef& sin_rows,
                   const TensorRef& y) {
  if (x.dtype == ACL_BF16) {
    PlanRopeStep(plan, kernels::RopeMode::kInterleaveHalf, x, cos_rows, sin_rows, y);
    return;
  }
  PlanRopeStep(plan, kernels::RopeMode::kInterleaveHalf, x, plan.Contiguous(cos_rows, ACL_FLOAT),
               plan.Contiguous(sin_rows, ACL_FLOAT), y);
}

// The quantised scenarios, stage by stage as the kernel computes them:
//   full (INT8 tokenX and down weights): cQ and [cKV | kR] are INT32 products dequantised in f32 by
//   dequantScaleX (per token) and the weight's scale (per column), not rounded to bf16;
//   partial and full: RmsNorm(cQ) in f32, times smoothScalesCq where given, quantised per token
//   (scale max / 127, y = round(x * (127 / max)), half to even); [qC | qR] its INT32 product with
//   weightUqQr dequantised by that scale and dequantScaleWUqQr; qC rounded to bf16 for weightUk,
//   qR rotated in f32 and rounded to bf16;
//   INT8 kvCache: RmsNorm(cKV) in f32 times quantScaleCkv (per channel; full: its first value for
//   all) rounded half to even and saturated; partial INT8 krCache: RoPE(kR) rounded to bf16, times
//   quantScaleCkr per channel, quantised the same way; full: krCache stays bf16;
//   full with an INT8 kvCache: queryOut quantised per token and head (dequantScaleQNopeOut), and
//   queryRopeOut scaled by quantScaleCkv / that scale.
aclnnStatus PlanQuantised(Plan& plan, const MlaOperands& o, const MlaArgs& a, const Dims& d, QuantMode mode) {
  const bool full = mode == QuantMode::kFullKvPlain || mode == QuantMode::kFullKvQuant;
  const bool kv_quant = mode == QuantMode::kPartialKvQuant || mode == QuantMode::kFullKvQuant;
  const int64_t t = d.t, width_qc_qr = d.d + d.dr, h_ckv_kr = d.hckv + d.dr;
  const TensorRef x_rows = InputAs(plan, o.x, {t, d.he});
  TensorRef cq, ckv_kr;
  if (full) {
    const TensorRef scale_x = *Reshape(plan.Contiguous(*o.scale_x, ACL_FLOAT), {t});
    cq = PlanDequant(plan, PlanInt8WeightProduct(plan, x_rows, o.dq), scale_x, *o.scale_w_dq);
    ckv_kr = PlanDequant(plan, PlanInt8WeightProduct(plan, x_rows, o.dkv_kr), scale_x, *o.scale_w_dkv_kr);
  } else {
    cq = plan.Temporary(ACL_BF16, {t, d.hcq});
    CANOPY_CHECK(PlanWeightProduct(plan, x_rows, o.dq, cq));
    ckv_kr = plan.Temporary(ACL_BF16, {t, h_ckv_kr});
    CANOPY_CHECK(PlanWeightProduct(plan, x_rows, o.dkv_kr, ckv_kr));
  }

  // RmsNorm(cQ) quantised per token, then [qC | qR].
  const TensorRef cq_norm = plan.Temporary(ACL_FLOAT, {t, d.hcq});
  PlanScaledRmsRows(plan, cq, o.gamma_cq, a.eps_cq, a.qc_qr_scale, cq_norm);
  const TensorRef cq_int8 = plan.Temporary(ACL_INT8, {t, d.hcq});
  const TensorRef cq_scale = plan.Temporary(ACL_FLOAT, {t});
  // clip ratio 1: y = round(x * (127 / max)), as the kernel multiplies by the reciprocal.
  PlanDynamicQuantRows(plan, cq_norm, o.smooth_cq ? &*o.smooth_cq : nullptr, cq_int8, cq_scale, nullptr, nullptr, 1.0f);
  const TensorRef qc_qr = PlanDequant(plan, PlanInt8WeightProduct(plan, cq_int8, o.uq_qr), cq_scale, *o.scale_w_uq_qr);

  // queryOut (or qN) = bf16(qC) @ weightUk per head.
  const TensorRef qc_qr_heads = *Reshape(qc_qr, {t, d.n, width_qc_qr});
  const TensorRef qc = plan.Temporary(ACL_BF16, {t, d.n, d.d});
  plan.Copy(Narrow(qc_qr_heads, 2, 0, d.d), qc);
  const bool quant_query = mode == QuantMode::kFullKvQuant;
  const TensorRef qn = quant_query ? plan.Temporary(ACL_BF16, {t, d.n, d.hckv}) : o.query;
  const StagedOutput q_out = OutputAs(plan, qn, {t, d.n, d.hckv});
  CANOPY_CHECK(PlanProduct(plan, Permute(qc, {1, 0, 2}), o.uk, Permute(q_out.view, {1, 0, 2}), 0));
  if (q_out.copy_back) plan.Copy(*Reshape(q_out.view, qn.shape), qn);

  // queryRopeOut = bf16(RoPE(qR)) in f32.
  const TensorRef cos_rows = Unsqueeze(Unsqueeze(InputAs(plan, o.cos, {t, d.dr}), 1), 1);
  const TensorRef sin_rows = Unsqueeze(Unsqueeze(InputAs(plan, o.sin, {t, d.dr}), 1), 1);
  const TensorRef qr_f32 = plan.Temporary(ACL_FLOAT, {t, d.n, 1, d.dr});
  PlanTokenRope(plan, Unsqueeze(Narrow(qc_qr_heads, 2, d.d, d.dr), 2), cos_rows, sin_rows, qr_f32);
  if (quant_query) {
    const TensorRef qr = plan.Temporary(ACL_BF16, {t, d.n, d.dr});
    plan.Copy(*Reshape(qr_f32, qr.shape), qr);
    const TensorRef query = plan.Temporary(ACL_INT8, {t, d.n, d.hckv});
    const TensorRef scale = plan.Temporary(ACL_FLOAT, {t, d.n});
    const TensorRef query_rope = plan.Temporary(ACL_BF16, {t, d.n, d.dr});
    const TensorRef ckv_scale = plan.Contiguous(*o.scale_ckv, ACL_FLOAT);
    MlaQueryQuantStep::Desc desc{qn.buffer,         qr.buffer, ckv_scale.buffer, query.buffer, scale.buffer,
                                 query_rope.buffer, t * d.n,   d.hckv,           d.dr};
    plan.AddStep(std::make_unique<MlaQueryQuantStep>(desc));
    plan.Copy(*Reshape(query, o.query.shape), o.query);
    plan.Copy(*Reshape(query_rope, o.query_rope.shape), o.query_rope);
    plan.Copy(*Reshape(scale, o.scale_q_nope->shape), *o.scale_q_nope);
  } else {
    plan.Copy(*Reshape(qr_f32, o.query_rope.shape), o.query_rope);
  }
  if (d.block_num == 0) return ACLNN_SUCCESS;  // empty caches: nothing is written

  // The caches' rows.
  const TensorRef slots = plan.Contiguous(o.index, ACL_INT64);
  TensorRef kv_rows = plan.Temporary(kv_quant ? ACL_FLOAT : ACL_BF16, {t, d.hckv});
  PlanScaledRmsRows(plan, Narrow(ckv_kr, 1, 0, d.hckv), o.gamma_ckv, a.eps_ckv, a.kc_scale, kv_rows);
  if (kv_quant) kv_rows = PlanQuantRows(plan, kv_rows, *o.scale_ckv, /*per_channel=*/!full);
  const TensorRef kr = Unsqueeze(Unsqueeze(Narrow(ckv_kr, 1, d.hckv, d.dr), 1), 1);
  TensorRef kr_rows = plan.Temporary(ACL_BF16, {t, d.dr});
  if (full) {
    const TensorRef kr_f32 = plan.Temporary(ACL_FLOAT, {t, 1, 1, d.dr});
    PlanTokenRope(plan, kr, cos_rows, sin_rows, kr_f32);
    plan.Copy(*Reshape(kr_f32, kr_rows.shape), kr_rows);
  } else {
    PlanTokenRope(plan, kr, cos_rows, sin_rows, Unsqueeze(Unsqueeze(kr_rows, 1), 1));
    if (kv_quant) kr_rows = PlanQuantRows(plan, kr_rows, *o.scale_ckr, /*per_channel=*/true);
  }
  PlanScatter(plan, slots, kv_rows, o.kv_cache, d);
  PlanScatter(plan, slots, kr_rows, o.kr_cache, d);
  return ACLNN_SUCCESS;
}

aclnnStatus PlanMlaProlog(Plan& plan, const MlaArgs& a) {
  CANOPY_CHECK(CheckDtypes(plan, a));
  CANOPY_CHECK(CheckEachRequired(plan, a));
  Dims d;
  CANOPY_CHECK(ReadDims(plan, a, d));
  const QuantMode mode = QuantModeOf(a);
  CANOPY_CHECK(CheckScenario(plan, a, d, mode));

  const MlaOperands o = RegisterOperands(plan, a);
  if (d.t == 0) return ACLNN_SUCCESS;  // empty queries; the caches are left as they are
  if (mode != QuantMode::kNone) return PlanQuantised(plan, o, a, d, mode);

  const int64_t t = d.t, width_qc_qr = d.d + d.dr, h_ckv_kr = d.hckv + d.dr;
  // The down projections and the query's RmsNorm and up projection, each rounded to bf16.
  const TensorRef x_rows = InputAs(plan, o.x, {t, d.he});
  const TensorRef cq = plan.Temporary(ACL_BF16, {t, d.hcq});
  CANOPY_CHECK(PlanWeightProduct(plan, x_rows, o.dq, cq));
  const TensorRef ckv_kr = plan.Temporary(ACL_BF16, {t, h_ckv_kr});
  CANOPY_CHECK(PlanWeightProduct(plan, x_rows, o.dkv_kr, ckv_kr));
  const TensorRef cq_norm = plan.Temporary(ACL_BF16, {t, d.hcq});
  PlanScaledRmsRows(plan, cq, o.gamma_cq, a.eps_cq, a.qc_qr_scale, cq_norm);
  const TensorRef qc_qr = plan.Temporary(ACL_BF16, {t, d.n * width_qc_qr});
  CANOPY_CHECK(PlanWeightProduct(plan, cq_norm, o.uq_qr, qc_qr));

  // queryOut[t, n] = qC[t, n] @ weightUk[n], as a batch over the heads.
  const StagedOutput q_out = OutputAs(plan, o.query, {t, d.n, d.hckv});
  TensorRef qc = *Reshape(qc_qr, {t, d.n, width_qc_qr});
  qc = Permute(Narrow(qc, 2, 0, d.d), {1, 0, 2});
  CANOPY_CHECK(PlanProduct(plan, qc, o.uk, Permute(q_out.view, {1, 0, 2}), 0));
  if (q_out.copy_back) plan.Copy(*Reshape(q_out.view, o.query.shape), o.query);

  // RoPE of the query's and the key's rope parts with each token's sin and cos.
  const TensorRef cos_rows = Unsqueeze(Unsqueeze(InputAs(plan, o.cos, {t, d.dr}), 1), 1);
  const TensorRef sin_rows = Unsqueeze(Unsqueeze(InputAs(plan, o.sin, {t, d.dr}), 1), 1);
  const StagedOutput qr_out = OutputAs(plan, o.query_rope, {t, d.n, 1, d.dr});
  const TensorRef qr = Unsqueeze(Narrow(*Reshape(qc_qr, {t, d.n, width_qc_qr}), 2, d.d, d.dr), 2);
  PlanTokenRope(plan, qr, cos_rows, sin_rows, qr_out.view);
  if (qr_out.copy_back) plan.Copy(*Reshape(qr_out.view, o.query_rope.shape), o.query_rope);
  if (d.block_num == 0) return ACLNN_SUCCESS;  // empty caches: nothing is written

  const TensorRef kv_rows = plan.Temporary(ACL_BF16, {t, d.hckv});
  PlanScaledRmsRows(plan, Narrow(ckv_kr, 1, 0, d.hckv), o.gamma_ckv, a.eps_ckv, a.kc_scale, kv_rows);
  const TensorRef kr_rows = plan.Temporary(ACL_BF16, {t, d.dr});
  PlanTokenRope(plan, Unsqueeze(Unsqueeze(Narrow(ckv_kr, 1, d.hckv, d.dr), 1), 1), cos_rows, sin_rows,
                Unsqueeze(Unsqueeze(kr_rows, 1), 1));
  const TensorRef slots = plan.Contiguous(o.index, ACL_INT64);
  PlanScatter(plan, slots, kv_rows, o.kv_cache, d);
  PlanScatter(plan, slots, kr_rows, o.kr_cache, d);
  return ACLNN_SUCCESS;
}

// The arguments every version has, in V1 / V2's prototype order.
MlaArgs SharedArgs(Version version, const aclTensor* tokenX, const aclTensor* weightDq, const aclTensor* weightUqQr,
                   const aclTensor* weightUk, const aclTensor* weightDkvKr, const aclTensor* rmsnormGammaCq,
                   const aclTensor* rmsnormGammaCkv, const aclTensor* ropeSin, const aclTensor* ropeCos,
                   const aclTensor* cacheIndex, const aclTensor* kvCacheRef, const aclTensor* krCacheRef,
                   const aclTensor* dequantScaleXOptional, const aclTensor* dequantScaleWDqOptional,
                   const aclTensor* dequantScaleWUqQrOptional, const aclTensor* dequantScaleWDkvKrOptional,
                   const aclTensor* quantScaleCkvOptional, const aclTensor* quantScaleCkrOptional,
                   const aclTensor* smoothScalesCqOptional, double rmsnormEpsilonCq, double rmsnormEpsilonCkv,
                   const char* cacheModeOptional, const aclTensor* queryOut, const aclTensor* queryRopeOut) {
  MlaArgs a;
  a.version = version;
  a.x = tokenX;
  a.dq = weightDq;
  a.uq_qr = weightUqQr;
  a.uk = weightUk;
  a.dkv_kr = weightDkvKr;
  a.gamma_cq = rmsnormGammaCq;
  a.gamma_ckv = rmsnormGammaCkv;
  a.sin = ropeSin;
  a.cos = ropeCos;
  a.index = cacheIndex;
  a.kv = kvCacheRef;
  a.kr = krCacheRef;
  a.scale_x = dequantScaleXOptional;
  a.scale_w_dq = dequantScaleWDqOptional;
  a.scale_w_uq_qr = dequantScaleWUqQrOptional;
  a.scale_w_dkv_kr = dequantScaleWDkvKrOptional;
  a.scale_ckv = quantScaleCkvOptional;
  a.scale_ckr = quantScaleCkrOptional;
  a.smooth_cq = smoothScalesCqOptional;
  a.eps_cq = rmsnormEpsilonCq;
  a.eps_ckv = rmsnormEpsilonCkv;
  a.cache_mode = cacheModeOptional;
  a.query = queryOut;
  a.query_rope = queryRopeOut;
  return a;
}

aclnnStatus PlanMlaPrologV1(Plan& plan, const aclTensor* tokenX, const aclTensor* weightDq, const aclTensor* weightUqQr,
                            const aclTensor* weightUk, const aclTensor* weightDkvKr, const aclTensor* rmsnormGammaCq,
                            const aclTensor* rmsnormGammaCkv, const aclTensor* ropeSin, const aclTensor* ropeCos,
                            const aclTensor* cacheIndex, const aclTensor* kvCacheRef, const aclTensor* krCacheRef,
                            const aclTensor* dequantScaleXOptional, const aclTensor* dequantScaleWDqOptional,
                            const aclTensor* dequantScaleWUqQrOptional, const aclTensor* dequantScaleWDkvKrOptional,
                            const aclTensor* quantScaleCkvOptional, const aclTensor* quantScaleCkrOptional,
                            const aclTensor* smoothScalesCqOptional, double rmsnormEpsilonCq, double rmsnormEpsilonCkv,
                            const char* cacheModeOptional, const aclTensor* queryOut, const aclTensor* queryRopeOut) {
  return PlanMlaProlog(
      plan, SharedArgs(Version::kV1, tokenX, weightDq, weightUqQr, weightUk, weightDkvKr, rmsnormGammaCq,
                       rmsnormGammaCkv, ropeSin, ropeCos, cacheIndex, kvCacheRef, krCacheRef, dequantScaleXOptional,
                       dequantScaleWDqOptional, dequantScaleWUqQrOptional, dequantScaleWDkvKrOptional,
                       quantScaleCkvOptional, quantScaleCkrOptional, smoothScalesCqOptional, rmsnormEpsilonCq,
                       rmsnormEpsilonCkv, cacheModeOptional, queryOut, queryRopeOut));
}

aclnnStatus PlanMlaPrologV2(Plan& plan, const aclTensor* tokenX, const aclTensor* weightDq, const aclTensor* weightUqQr,
                            const aclTensor* weightUk, const aclTensor* weightDkvKr, const aclTensor* rmsnormGammaCq,
                            const aclTensor* rmsnormGammaCkv, const aclTensor* ropeSin, const aclTensor* ropeCos,
                            const aclTensor* cacheIndex, const aclTensor* kvCacheRef, const aclTensor* krCacheRef,
                            const aclTensor* dequantScaleXOptional, const aclTensor* dequantScaleWDqOptional,
                            const aclTensor* dequantScaleWUqQrOptional, const aclTensor* dequantScaleWDkvKrOptional,
                            const aclTensor* quantScaleCkvOptional, const aclTensor* quantScaleCkrOptional,
                            const aclTensor* smoothScalesCqOptional, double rmsnormEpsilonCq, double rmsnormEpsilonCkv,
                            const char* cacheModeOptional, const aclTensor* queryOut, const aclTensor* queryRopeOut,
                            const aclTensor* dequantScaleQNopeOutOptional) {
  MlaArgs a = SharedArgs(Version::kV2, tokenX, weightDq, weightUqQr, weightUk, weightDkvKr, rmsnormGammaCq,
                         rmsnormGammaCkv, ropeSin, ropeCos, cacheIndex, kvCacheRef, krCacheRef, dequantScaleXOptional,
                         dequantScaleWDqOptional, dequantScaleWUqQrOptional, dequantScaleWDkvKrOptional,
                         quantScaleCkvOptional, quantScaleCkrOptional, smoothScalesCqOptional, rmsnormEpsilonCq,
                         rmsnormEpsilonCkv, cacheModeOptional, queryOut, queryRopeOut);
  a.scale_q_nope = dequantScaleQNopeOutOptional;
  return PlanMlaProlog(plan, a);
}

// V3 on A2 runs V2's tiling and kernel with cacheIndex after the caches and two factors: qcQrScale on
// RmsNorm(cQ), kcScale on RmsNorm(cKV). Its other attributes (queryNormFlag, the quant and repo
// modes, tileSize, kNopeClipAlpha) are read by no A2 tiling or kernel: the dtypes choose the scenario.
aclnnStatus PlanMlaPrologV3(Plan& plan, const aclTensor* tokenX, const aclTensor* weightDq, const aclTensor* weightUqQr,
                            const aclTensor* weightUk, const aclTensor* weightDkvKr, const aclTensor* rmsnormGammaCq,
                            const aclTensor* rmsnormGammaCkv, const aclTensor* ropeSin, const aclTensor* ropeCos,
                            const aclTensor* kvCacheRef, const aclTensor* krCacheRef,
                            const aclTensor* cacheIndexOptional, const aclTensor* dequantScaleXOptional,
                            const aclTensor* dequantScaleWDqOptional, const aclTensor* dequantScaleWUqQrOptional,
                            const aclTensor* dequantScaleWDkvKrOptional, const aclTensor* quantScaleCkvOptional,
                            const aclTensor* quantScaleCkrOptional, const aclTensor* smoothScalesCqOptional,
                            const aclTensor* actualSeqLenOptional, double rmsnormEpsilonCq, double rmsnormEpsilonCkv,
                            const char* cacheModeOptional, bool /*queryNormFlag*/, int64_t /*weightQuantMode*/,
                            int64_t /*kvCacheQuantMode*/, int64_t /*queryQuantMode*/, int64_t /*ckvkrRepoMode*/,
                            int64_t /*quantScaleRepoMode*/, int64_t /*tileSize*/, double /*kNopeClipAlpha*/,
                            double qcQrScale, double kcScale, const aclTensor* queryOut, const aclTensor* queryRopeOut,
                            const aclTensor* dequantScaleQNopeOutOptional, const aclTensor* queryNormOutOptional,
                            const aclTensor* dequantScaleQNormOutOptional) {
  MlaArgs a = SharedArgs(
      Version::kV3, tokenX, weightDq, weightUqQr, weightUk, weightDkvKr, rmsnormGammaCq, rmsnormGammaCkv, ropeSin,
      ropeCos, cacheIndexOptional, kvCacheRef, krCacheRef, dequantScaleXOptional, dequantScaleWDqOptional,
      dequantScaleWUqQrOptional, dequantScaleWDkvKrOptional, quantScaleCkvOptional, quantScaleCkrOptional,
      smoothScalesCqOptional, rmsnormEpsilonCq, rmsnormEpsilonCkv, cacheModeOptional, queryOut, queryRopeOut);
  a.scale_q_nope = dequantScaleQNopeOutOptional;
  a.actual_seq_len = actualSeqLenOptional;
  a.query_norm = queryNormOutOptional;
  a.scale_q_norm = dequantScaleQNormOutOptional;
  a.qc_qr_scale = static_cast<float>(qcQrScale);
  a.kc_scale = static_cast<float>(kcScale);
  return PlanMlaProlog(plan, a);
}

constexpr DtypeSet kMlaDtypes = {ACL_BF16, ACL_INT8, ACL_INT64, ACL_FLOAT};
// CANN's example with one token and one head (2-D weights, as TransMatmulWeight leaves them).
constexpr const char* kMlaExample =
    "bf16[1,7168]{-1:1} bf16[7168,1536]{-0.05:0.05} bf16[1536,192]{-0.05:0.05} bf16[1,128,512]{-0.1:0.1} "
    "bf16[7168,576]{-0.05:0.05} bf16[1536] bf16[512] bf16[1,64] bf16[1,64] i64[1]{0:15} bf16[1,16,1,512] "
    "bf16[1,16,1,64] - - - - - - - 1e-5 1e-5 'PA_BSND' bf16[1,1,512] bf16[1,1,64]";

}  // namespace

CANOPY_ACLNN_OP(
    MlaProlog, PlanMlaPrologV1,
    (OpTraits{
        .header = "aclnnop/aclnn_mla_prolog.h", .dtypes = kMlaDtypes, .private_formats = true, .example = kMlaExample}),
    (const aclTensor*, tokenX), (const aclTensor*, weightDq), (const aclTensor*, weightUqQr),
    (const aclTensor*, weightUk), (const aclTensor*, weightDkvKr), (const aclTensor*, rmsnormGammaCq),
    (const aclTensor*, rmsnormGammaCkv), (const aclTensor*, ropeSin), (const aclTensor*, ropeCos),
    (const aclTensor*, cacheIndex), (const aclTensor*, kvCacheRef), (const aclTensor*, krCacheRef),
    (const aclTensor*, dequantScaleXOptional, optional), (const aclTensor*, dequantScaleWDqOptional, optional),
    (const aclTensor*, dequantScaleWUqQrOptional, optional), (const aclTensor*, dequantScaleWDkvKrOptional, optional),
    (const aclTensor*, quantScaleCkvOptional, optional), (const aclTensor*, quantScaleCkrOptional, optional),
    (const aclTensor*, smoothScalesCqOptional, optional), (double, rmsnormEpsilonCq), (double, rmsnormEpsilonCkv),
    (const char*, cacheModeOptional), (const aclTensor*, queryOut), (const aclTensor*, queryRopeOut))

CANOPY_ACLNN_OP(MlaPrologV2WeightNz, PlanMlaPrologV2,
                (OpTraits{.header = "aclnnop/aclnn_mla_prolog_v2_weight_nz.h",
                          .dtypes = kMlaDtypes,
                          .private_formats = true,
                          .example = "bf16[1,7168]{-1:1} bf16[7168,1536]{-0.05:0.05} bf16[1536,192]{-0.05:0.05} "
                                     "bf16[1,128,512]{-0.1:0.1} bf16[7168,576]{-0.05:0.05} bf16[1536] bf16[512] "
                                     "bf16[1,64] bf16[1,64] i64[1]{0:15} bf16[1,16,1,512] bf16[1,16,1,64] - - - - - - "
                                     "- 1e-5 1e-5 'PA_BSND' bf16[1,1,512] bf16[1,1,64] f32[1]"}),
                (const aclTensor*, tokenX), (const aclTensor*, weightDq), (const aclTensor*, weightUqQr),
                (const aclTensor*, weightUk), (const aclTensor*, weightDkvKr), (const aclTensor*, rmsnormGammaCq),
                (const aclTensor*, rmsnormGammaCkv), (const aclTensor*, ropeSin), (const aclTensor*, ropeCos),
                (const aclTensor*, cacheIndex), (const aclTensor*, kvCacheRef), (const aclTensor*, krCacheRef),
                (const aclTensor*, dequantScaleXOptional, optional),
                (const aclTensor*, dequantScaleWDqOptional, optional),
                (const aclTensor*, dequantScaleWUqQrOptional, optional),
                (const aclTensor*, dequantScaleWDkvKrOptional, optional),
                (const aclTensor*, quantScaleCkvOptional, optional),
                (const aclTensor*, quantScaleCkrOptional, optional),
                (const aclTensor*, smoothScalesCqOptional, optional), (double, rmsnormEpsilonCq),
                (double, rmsnormEpsilonCkv), (const char*, cacheModeOptional), (const aclTensor*, queryOut),
                (const aclTensor*, queryRopeOut), (const aclTensor*, dequantScaleQNopeOutOptional, optional))

CANOPY_ACLNN_OP(
    MlaPrologV3WeightNz, PlanMlaPrologV3,
    (OpTraits{.header = "aclnnop/aclnn_mla_prolog_v3_weight_nz.h",
              .dtypes = kMlaDtypes,
              .private_formats = true,
              .example = "bf16[1,7168]{-1:1} bf16[7168,1536]{-0.05:0.05} bf16[1536,192]{-0.05:0.05} "
                         "bf16[1,128,512]{-0.1:0.1} bf16[7168,576]{-0.05:0.05} bf16[1536] bf16[512] "
                         "bf16[1,64] bf16[1,64] bf16[1,16,1,512] bf16[1,16,1,64] i64[1]{0:15}!561002 - - "
                         "- - - - - - 1e-5 1e-5 'PA_BSND' false 0 0 0 0 0 128 1 1 1 bf16[1,1,512] "
                         "bf16[1,1,64] f32[1] - -"}),
    (const aclTensor*, tokenX), (const aclTensor*, weightDq), (const aclTensor*, weightUqQr),
    (const aclTensor*, weightUk), (const aclTensor*, weightDkvKr), (const aclTensor*, rmsnormGammaCq),
    (const aclTensor*, rmsnormGammaCkv), (const aclTensor*, ropeSin), (const aclTensor*, ropeCos),
    (aclTensor*, kvCacheRef), (aclTensor*, krCacheRef), (const aclTensor*, cacheIndexOptional, optional),
    (const aclTensor*, dequantScaleXOptional, optional), (const aclTensor*, dequantScaleWDqOptional, optional),
    (const aclTensor*, dequantScaleWUqQrOptional, optional), (const aclTensor*, dequantScaleWDkvKrOptional, optional),
    (const aclTensor*, quantScaleCkvOptional, optional), (const aclTensor*, quantScaleCkrOptional, optional),
    (const aclTensor*, smoothScalesCqOptional, optional), (const aclTensor*, actualSeqLenOptional, optional),
    (double, rmsnormEpsilonCq), (double, rmsnormEpsilonCkv), (const char*, cacheModeOptional), (bool, queryNormFlag),
    (int64_t, weightQuantMode), (int64_t, kvCacheQuantMode), (int64_t, queryQuantMode), (int64_t, ckvkrRepoMode),
    (int64_t, quantScaleRepoMode), (int64_t, tileSize), (double, kNopeClipAlpha), (double, qcQrScale),
    (double, kcScale), (const aclTensor*, queryOut), (const aclTensor*, queryRopeOut),
    (const aclTensor*, dequantScaleQNopeOutOptional, optional), (const aclTensor*, queryNormOutOptional, optional),
    (const aclTensor*, dequantScaleQNormOutOptional, optional))
