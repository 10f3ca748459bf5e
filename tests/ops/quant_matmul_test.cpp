// WeightQuantBatchMatmulV2 through the public C API against a float64
// dequantise-then-multiply reference on random non-zero data: FLOAT16 and
// BFLOAT16 x, INT8 and INT4 weights (two values a byte, the even element in
// the low nibble) stored K-contiguous (transposed, as ggml passes them) or
// N-contiguous, scales per tensor, per channel and per group (a partial last
// group too), with and without offsets and bias, decode (fused kernel) and
// prefill (dequantise + oneDNN) row counts, transposed x and scales, ggml's
// exact calls (Q8_0 / Q4_0 weights with their scales behind them in one
// buffer, the N > 65535 split, MUL_MAT_ID's expert views), FRACTAL_NZ weights,
// and each rejection with its status code.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_weight_quant_batch_matmul_v2.h"
#include "aclnnop/aclnn_weight_quant_batch_matmul_v3.h"
#include "op_test_support.h"
#include "quant_weight_support.h"

namespace canopy_test {
namespace {

const View kC = View::kContiguous;

enum class Mode { kPerTensor, kPerChannel, kPerGroup };

struct QuantCase {
  std::string name;
  aclDataType xDtype;
  aclDataType wDtype;
  int64_t m, k, n;
  Mode mode;
  int64_t groupSize = 0;  // per group
  bool kContiguous = true;
  bool withOffset = false;
  bool withBias = false;
  bool twoDimScale = true;  // [1, n] / [1, 1] rather than [n] / [1]
  View xView = kC, scaleView = kC;
  int64_t weightOffset = 0;
  aclFormat weightFormat = ACL_FORMAT_ND;
  int innerPrecise = -1;  // 0 or 1: through aclnnWeightQuantBatchMatmulV3
};
void PrintTo(const QuantCase& c, std::ostream* os) { *os << c.name; }

Shape ScaleShape(const QuantCase& c) {
  switch (c.mode) {
    case Mode::kPerTensor:
      return c.twoDimScale ? Shape{1, 1} : Shape{1};
    case Mode::kPerChannel:
      return c.twoDimScale ? Shape{1, c.n} : Shape{c.n};
    case Mode::kPerGroup:
      return {(c.k + c.groupSize - 1) / c.groupSize, c.n};
  }
  return {};
}

// y = x @ ((q + offset) * scale) + bias in float64, with a sum's tolerance.
Expected Reference(const QuantCase& c, const Values& x, const std::vector<int64_t>& q, const Values& scale,
                   const Values& offset, const Values& bias) {
  const Shape ss = ScaleShape(c);
  const int64_t groupSize = c.mode == Mode::kPerGroup ? c.groupSize : c.k;
  auto at = [&](const Values& v, int64_t kk, int64_t nn) {
    if (c.mode == Mode::kPerTensor) return v[0].real();
    if (c.mode == Mode::kPerChannel) return v[nn].real();
    return v[(kk / groupSize) * c.n + nn].real();
  };
  Expected want;
  for (int64_t r = 0; r < c.m; ++r) {
    for (int64_t nn = 0; nn < c.n; ++nn) {
      double sum = 0, magnitude = 0;
      for (int64_t kk = 0; kk < c.k; ++kk) {
        const double w =
            (static_cast<double>(q[kk * c.n + nn]) + (c.withOffset ? at(offset, kk, nn) : 0.0)) * at(scale, kk, nn);
        sum += x[r * c.k + kk].real() * w;
        magnitude += std::abs(x[r * c.k + kk].real() * w);
      }
      if (c.withBias) {
        sum += bias[nn].real();
        magnitude += std::abs(bias[nn].real());
      }
      // With bf16 activations the dequantised weight may be rounded to bf16
      // (as the NPU's antiquantisation makes it): one more rounding per term.
      const double weight_rounding = c.xDtype == ACL_BF16 ? UnitRoundoff(ACL_BF16) : 0.0;
      want.values.push_back(sum);
      want.tolerance.push_back(2 * UnitRoundoff(c.xDtype) * std::abs(sum) +
                               (static_cast<double>(c.k + 4) * UnitRoundoff(ACL_FLOAT) + weight_rounding) * magnitude);
    }
  }
  return want;
}

class WeightQuantBatchMatmulV2Test : public ::testing::TestWithParam<QuantCase> {};

// One case's operands on fresh random data; Check() calls the op on them
// (twice: the second call is a plan-cache hit) against the float64 formula.
// `infinities`: +inf in x's first row, -inf in its last and, from three rows,
// a NaN in its second.
class CaseRun {
 public:
  CaseRun(const QuantCase& c, bool infinities)
      : c_(c),
        rng_(Rng::ForCurrentTest()),
        w_(MakeWeight(rng_, c.wDtype, c.k, c.n, c.kContiguous, c.weightOffset)),
        x_(c.xDtype, {c.m, c.k}, c.xView),
        y_(c.xDtype, {c.m, c.n}),
        scale_(c.xDtype, ScaleShape(c), c.scaleView),
        offset_(c.xDtype, ScaleShape(c), c.scaleView),
        bias_(c.xDtype == ACL_BF16 ? ACL_FLOAT : ACL_FLOAT16, c.twoDimScale ? Shape{1, c.n} : Shape{c.n}) {
    xv_ = x_.FillRandom(rng_, Range{-1, 1, 0.01});
    if (infinities) {
      xv_[1] = std::numeric_limits<double>::infinity();
      xv_[(c.m - 1) * c.k + 2] = -std::numeric_limits<double>::infinity();
      if (c.m >= 3) xv_[c.k] = std::numeric_limits<double>::quiet_NaN();  // row 1: NaN throughout
      x_.WriteView(xv_);
    }
    sv_ = scale_.FillRandom(rng_, Range{0.002, 0.05});
    ov_ = offset_.FillRandom(rng_, Range{-4, 4, 0.1});
    bv_ = bias_.FillRandom(rng_, Range{-1, 1, 0.01});
  }

  void Check(const std::string& what) {
    for (int call = 0; call < 2; ++call) {
      y_.Poison();
      const OpRun run = RunOp(
          [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
            aclTensor* weight = w_.Create(c_.weightFormat);
            const aclTensor* offset = c_.withOffset ? args.Tensor(offset_) : nullptr;
            const aclTensor* bias = c_.withBias ? args.Tensor(bias_) : nullptr;
            const auto group = static_cast<int>(c_.groupSize);
            const aclnnStatus status = c_.innerPrecise < 0
                                           ? aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
                                                 args.Tensor(x_), weight, args.Tensor(scale_), offset, nullptr, nullptr,
                                                 bias, group, args.Tensor(y_), ws, ex)
                                           : aclnnWeightQuantBatchMatmulV3GetWorkspaceSize(
                                                 args.Tensor(x_), weight, args.Tensor(scale_), offset, nullptr, nullptr,
                                                 bias, group, c_.innerPrecise, args.Tensor(y_), ws, ex);
            aclDestroyTensor(weight);
            return status;
          },
          c_.innerPrecise < 0 ? aclnnWeightQuantBatchMatmulV2 : aclnnWeightQuantBatchMatmulV3);
      ASSERT_TRUE(run.ok()) << Describe(run);
      ExpectNear(y_.ReadView(), Reference(c_, xv_, w_.q, sv_, ov_, bv_), what);
    }
  }

 private:
  const QuantCase& c_;
  Rng rng_;
  QuantWeightBuffer w_;
  DeviceTensor x_, y_, scale_, offset_, bias_;
  Values xv_, sv_, ov_, bv_;
};

TEST_P(WeightQuantBatchMatmulV2Test, MatchesDequantisedFloat64) { CaseRun(GetParam(), false).Check(GetParam().name); }

// The same with an infinity in x: +inf in the first row, -inf in the last
// (a row of its own when there are several) and a NaN in the second (from
// three rows), each output the float64 formula's infinity or NaN, the other
// rows as before (every layout, group and offset of the table; both the
// fused rows and the dequantised product).
TEST_P(WeightQuantBatchMatmulV2Test, InfiniteActivationsAsTheFormula) {
  if (GetParam().k < 3) GTEST_SKIP() << "too short for two infinities";
  CaseRun(GetParam(), true).Check(GetParam().name + " with infinities");
}

std::vector<QuantCase> QuantCases() {
  std::vector<QuantCase> cases;
  const Mode modes[] = {Mode::kPerTensor, Mode::kPerChannel, Mode::kPerGroup};
  const char* modeNames[] = {"tensor", "channel", "group32"};
  for (aclDataType xd : {ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType wd : {ACL_INT8, ACL_INT4}) {
      for (int mi = 0; mi < 3; ++mi) {
        for (bool kContiguous : {true, false}) {
          for (int64_t m : {int64_t{1}, int64_t{5}, int64_t{24}}) {
            QuantCase c;
            c.xDtype = xd;
            c.wDtype = wd;
            c.m = m;
            c.k = 96;
            c.n = 70;
            c.mode = modes[mi];
            c.groupSize = modes[mi] == Mode::kPerGroup ? 32 : 0;
            c.kContiguous = kContiguous;
            c.withOffset = m != 5;
            c.withBias = m != 1;
            c.twoDimScale = m != 24;
            c.name = std::string(Name(xd)) + "_" + (wd == ACL_INT4 ? "int4" : "int8") + "_" + modeNames[mi] +
                     (kContiguous ? "_kcontig" : "_ncontig") + "_m" + std::to_string(m);
            cases.push_back(c);
          }
        }
      }
    }
  }
  // A partial last group (k = 100, groups of 64), large k and n, transposed x and scales, a weight offset.
  cases.push_back({"partial_group", ACL_FLOAT16, ACL_INT8, 3, 100, 40, Mode::kPerGroup, 64, true, true, true});
  cases.push_back({"partial_group_int4_ncontig", ACL_BF16, ACL_INT4, 2, 100, 40, Mode::kPerGroup, 64, false, true});
  cases.push_back({"large_decode_int4", ACL_FLOAT16, ACL_INT4, 4, 1024, 300, Mode::kPerGroup, 32, true});
  cases.push_back({"large_prefill_int8", ACL_BF16, ACL_INT8, 40, 512, 130, Mode::kPerGroup, 128, false, true, true});
  cases.push_back({"transposed_x_and_scale", ACL_FLOAT16, ACL_INT8, 6, 64, 48, Mode::kPerGroup, 32, true, true, false,
                   true, View::kTransposed, View::kTransposed});
  cases.push_back({"transposed_x_prefill", ACL_BF16, ACL_INT4, 20, 64, 48, Mode::kPerChannel, 0, true, false, false,
                   true, View::kTransposed});
  cases.push_back({"weight_offset_int4", ACL_FLOAT16, ACL_INT4, 2, 64, 10, Mode::kPerGroup, 32, true, true, false, true,
                   kC, kC, 64});
  cases.push_back({"weight_offset_int8", ACL_FLOAT16, ACL_INT8, 2, 64, 10, Mode::kPerChannel, 0, false, true, false,
                   true, kC, kC, 5});
  cases.push_back({"k1_n1", ACL_FLOAT16, ACL_INT8, 3, 1, 1, Mode::kPerTensor, 0, true});
  // K-contiguous INT4 as the bf16-pair kernel takes it (AVX-512 BF16; the
  // other ISAs' loops elsewhere): one group over a K that is no multiple of
  // 32, groups of 64 with a partial last one and 16 rows, groups of 128.
  cases.push_back({"pairs_channel_k100", ACL_BF16, ACL_INT4, 3, 100, 37, Mode::kPerChannel, 0, true, true, true});
  cases.push_back({"pairs_group64_k200", ACL_FLOAT16, ACL_INT4, 16, 200, 45, Mode::kPerGroup, 64, true, true, true});
  cases.push_back({"pairs_group128_k384", ACL_BF16, ACL_INT4, 7, 384, 66, Mode::kPerGroup, 128, true, false, true});
  // A FRACTAL_NZ weight (Canopy's NZ is its ND layout).
  cases.push_back({"fractal_nz_int8", ACL_FLOAT16, ACL_INT8, 2, 64, 32, Mode::kPerChannel, 0, false, false, false, true,
                   kC, kC, 0, ACL_FORMAT_FRACTAL_NZ});
  cases.push_back({"fractal_nz_int4_prefill", ACL_BF16, ACL_INT4, 20, 64, 32, Mode::kPerGroup, 32, true, true, false,
                   true, kC, kC, 0, ACL_FORMAT_FRACTAL_NZ});
  return cases;
}
INSTANTIATE_TEST_SUITE_P(WeightQuantBatchMatmulV2, WeightQuantBatchMatmulV2Test, ::testing::ValuesIn(QuantCases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// The bf16-pair kernel's corners (AVX-512 BF16; the other ISAs' loops
// elsewhere): every m of 1 to 16 (row blocks of 4 and their tails), n of 1 to
// 9 and a large one (columns in blocks of 4, 2 and 1), each group size the op
// takes over a K with a partial last group (96: groups that straddle a
// 128-element block's 32-element lanes), K past one slice of x for 4-row
// blocks (several slices a column), offsets, bias, in-place (transposed) and
// copied scales, and weights at an offset into a larger buffer.
std::vector<QuantCase> CornerCases(aclDataType weight, const std::string& prefix) {
  std::vector<QuantCase> cases;
  const int64_t ns[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 131};
  struct Grouping {
    int64_t k, group;  // group 0: per channel
  };
  const Grouping groupings[] = {{34, 0}, {100, 32}, {290, 64}, {200, 96}, {522, 128}, {1100, 256}, {1090, 96}};
  int i = 0;
  for (int64_t m = 1; m <= 16; ++m) {
    for (int j = 0; j < 2; ++j, ++i) {
      const Grouping g = groupings[i % 7];
      QuantCase c;
      c.xDtype = i % 3 == 0 ? ACL_BF16 : ACL_FLOAT16;
      c.wDtype = weight;
      c.m = m;
      c.k = g.k;
      c.n = ns[i % 10];
      c.mode = g.group == 0 ? Mode::kPerChannel : Mode::kPerGroup;
      c.groupSize = g.group;
      c.withOffset = i % 2 == 0;
      c.withBias = i % 4 < 2;
      c.twoDimScale = i % 5 != 0;
      c.scaleView = i % 3 == 1 && (c.mode == Mode::kPerGroup || c.twoDimScale) ? View::kTransposed : kC;
      c.weightOffset = i % 4 == 3 ? 2 * (i + 1) : 0;
      c.name = prefix + "_m" + std::to_string(m) + "_k" + std::to_string(c.k) + "_n" + std::to_string(c.n) + "_g" +
               std::to_string(g.group) + "_" + Name(c.xDtype) + (c.withOffset ? "_offset" : "") +
               (c.withBias ? "_bias" : "") + (c.scaleView == kC ? "" : "_tscale") +
               (c.weightOffset != 0 ? "_at" + std::to_string(c.weightOffset) : "");
      cases.push_back(c);
    }
  }
  // Several slices of x at one term (bf16, 4-row blocks) and at two (f16, one row).
  cases.push_back(
      {prefix + "_slices_bf16_m8_k2200_g96", ACL_BF16, weight, 8, 2200, 5, Mode::kPerGroup, 96, true, true, true});
  cases.push_back({prefix + "_slices_f16_m1_k4200_g128", ACL_FLOAT16, weight, 1, 4200, 7, Mode::kPerGroup, 128, true,
                   true, false, true, kC, View::kTransposed});
  // One row against many columns (bf16 and f16 x): blocks of columns and
  // their remainder, groups straddling the lanes, and two slices of x.
  cases.push_back(
      {prefix + "_wide_bf16_m1_k8300_g32", ACL_BF16, weight, 1, 8300, 21, Mode::kPerGroup, 32, true, true, true});
  cases.push_back({prefix + "_wide_f16_m1_k1090_g96", ACL_FLOAT16, weight, 1, 1090, 131, Mode::kPerGroup, 96, true,
                   false, false, true, kC, View::kTransposed});
  // Several chunks of columns (a 4096-long column takes 2-4 KiB) per thread, in
  // the AMX kernel's row blocks of 16 (bf16) and 8 (f16).
  cases.push_back(
      {prefix + "_chunks_bf16_m16_k4096_g32", ACL_BF16, weight, 16, 4096, 300, Mode::kPerGroup, 32, true, false, true});
  cases.push_back({prefix + "_chunks_f16_m12_k4096_g64", ACL_FLOAT16, weight, 12, 4096, 300, Mode::kPerGroup, 64, true,
                   true, false});
  // Many rows: on AMX the tiles take f16 activations at any count and bf16 up
  // to 64 rows, unpacking each block of columns once for all row blocks;
  // 70 f16 rows with k = 4096 are nine row blocks (the last of 6 rows) in two
  // groups that share a panel, 64 bf16 rows the most the tiles take.
  cases.push_back(
      {prefix + "_rows_f16_m70_k4096_g128", ACL_FLOAT16, weight, 70, 4096, 40, Mode::kPerGroup, 128, true, true, true});
  cases.push_back(
      {prefix + "_rows_bf16_m64_k1024_g32", ACL_BF16, weight, 64, 1024, 19, Mode::kPerGroup, 32, true, false, true});
  cases.push_back(
      {prefix + "_rows_bf16_m65_k512_channel", ACL_BF16, weight, 65, 512, 33, Mode::kPerChannel, 0, true, true, false});
  return cases;
}
// INT4 runs as bf16 pairs on AVX-512 BF16 and on AMX tiles from a few rows on;
// INT8 on AMX tiles too (kernels/quant_matmul_isa.h): corners of both.
INSTANTIATE_TEST_SUITE_P(Int4PairsCorners, WeightQuantBatchMatmulV2Test,
                         ::testing::ValuesIn(CornerCases(ACL_INT4, "pairs")),
                         [](const auto& info) { return SanitizeName(info.param.name); });
INSTANTIATE_TEST_SUITE_P(Int8Corners, WeightQuantBatchMatmulV2Test, ::testing::ValuesIn(CornerCases(ACL_INT8, "w8")),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// WeightQuantBatchMatmulV3 (V2 with innerPrecise): every third of V2's cases, each innerPrecise in turn.
std::vector<QuantCase> V3Cases() {
  std::vector<QuantCase> cases;
  const std::vector<QuantCase> all = QuantCases();
  for (size_t i = 0; i < all.size(); i += 3) {
    QuantCase c = all[i];
    c.innerPrecise = static_cast<int>(i / 3 % 2);
    c.name += "_inner_precise" + std::to_string(c.innerPrecise);
    cases.push_back(c);
  }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(WeightQuantBatchMatmulV3, WeightQuantBatchMatmulV2Test, ::testing::ValuesIn(V3Cases()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

// ---- ggml's calls ---------------------------------------------------------------------------------

// ggml_cann_mul_mat_quant: the Q8_0 / Q4_0 weight [N rows of K] followed in the
// same buffer by its f16 scales [N rows of K / 32]; the weight and scales are
// passed as transposed views, groups of 32 (0 when K is 32), N split in pieces
// of at most 65535 columns, each piece a view at an offset into the buffers.
void GgmlMulMatQuant(aclDataType wtype, int64_t m, int64_t k, int64_t n) {
  Rng rng = Rng::ForCurrentTest();
  constexpr int64_t kQk = 32, kMaxN = 65535;
  const int64_t wElements = n * k, sElements = n * (k / kQk);
  const int64_t wBytes = wtype == ACL_INT4 ? wElements / 2 : wElements;
  std::vector<int64_t> q(k * n);  // logical [k][n]
  for (int64_t& v : q) {
    v = 0;
    while (v == 0)
      v = static_cast<int64_t>(std::floor(rng.Uniform(wtype == ACL_INT4 ? -8 : -128, wtype == ACL_INT4 ? 8 : 128)));
  }
  std::vector<uint8_t> bytes = PackWeight(wtype, k, n, true, 0, q);
  Values scales = RandomValues(rng, ACL_FLOAT16, sElements, Range{0.002, 0.05});  // [n][k / 32]
  bytes.resize(wBytes + 2 * sElements);
  for (int64_t i = 0; i < sElements; ++i) EncodeValue(scales[i], ACL_FLOAT16, bytes.data() + wBytes + 2 * i);
  DeviceBuffer src0(bytes.size());
  ASSERT_EQ(aclrtMemcpy(src0.get(), bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  DeviceTensor x(ACL_FLOAT16, {m, k}), y(ACL_FLOAT16, {m * n});
  const Values xv = x.FillRandom(rng, Range{-1, 1, 0.01});
  y.Poison();
  const int64_t groupSize = k > kQk ? kQk : 0;
  for (int64_t n0 = 0; n0 < n; n0 += kMaxN) {
    const int64_t piece = std::min(kMaxN, n - n0);
    const OpRun run = RunOp(
        [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
          const int64_t wDims[2] = {k, piece}, wStrides[2] = {1, k}, wStorage = wElements;
          const int64_t sDims[2] = {k / kQk, piece}, sStrides[2] = {1, k / kQk}, sStorage = sElements;
          const int64_t yDims[2] = {m, piece}, yStrides[2] = {piece, 1}, yStorage = m * n;
          aclTensor* weight =
              aclCreateTensor(wDims, 2, wtype, wStrides, n0 * k, ACL_FORMAT_ND, &wStorage, 1, src0.get());
          aclTensor* scale = aclCreateTensor(sDims, 2, ACL_FLOAT16, sStrides, n0 * (k / kQk), ACL_FORMAT_ND, &sStorage,
                                             1, static_cast<char*>(src0.get()) + wBytes);
          aclTensor* out =
              aclCreateTensor(yDims, 2, ACL_FLOAT16, yStrides, m * n0, ACL_FORMAT_ND, &yStorage, 1, y.data());
          const aclnnStatus status =
              aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(args.Tensor(x), weight, scale, nullptr, nullptr, nullptr,
                                                            nullptr, static_cast<int>(groupSize), out, ws, ex);
          aclDestroyTensor(weight);
          aclDestroyTensor(scale);
          aclDestroyTensor(out);
          return status;
        },
        aclnnWeightQuantBatchMatmulV2);
    ASSERT_TRUE(run.ok()) << Describe(run);
  }
  // Piece p holds [m, piece] row-major at m * n0.
  Expected want;
  want.values.resize(m * n);
  want.tolerance.resize(m * n);
  for (int64_t n0 = 0; n0 < n; n0 += kMaxN) {
    const int64_t piece = std::min(kMaxN, n - n0);
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t j = 0; j < piece; ++j) {
        const int64_t col = n0 + j;
        double sum = 0, magnitude = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          const double wv = static_cast<double>(q[kk * n + col]) * scales[col * (k / kQk) + kk / kQk].real();
          sum += xv[r * k + kk].real() * wv;
          magnitude += std::abs(xv[r * k + kk].real() * wv);
        }
        want.values[m * n0 + r * piece + j] = sum;
        want.tolerance[m * n0 + r * piece + j] = 2 * UnitRoundoff(ACL_FLOAT16) * std::abs(sum) +
                                                 static_cast<double>(k + 4) * UnitRoundoff(ACL_FLOAT) * magnitude;
      }
    }
  }
  ExpectNear(y.ReadView(), want, "ggml mul_mat_quant");
}

TEST(WeightQuantBatchMatmulV2Ggml, MulMatQ8_0) { GgmlMulMatQuant(ACL_INT8, 3, 128, 200); }
TEST(WeightQuantBatchMatmulV2Ggml, MulMatQ4_0) { GgmlMulMatQuant(ACL_INT4, 3, 128, 200); }
TEST(WeightQuantBatchMatmulV2Ggml, MulMatQ8_0SingleGroup) { GgmlMulMatQuant(ACL_INT8, 2, 32, 40); }
TEST(WeightQuantBatchMatmulV2Ggml, MulMatQ4_0PrefillRows) { GgmlMulMatQuant(ACL_INT4, 20, 64, 48); }
// Decode-sized row counts over several row blocks, with K long enough that
// each thread's columns span several cache chunks (quant_matmul_impl.h's
// ColumnChunk): every row block visits every chunk.
TEST(WeightQuantBatchMatmulV2Ggml, MulMatQ8_0RowBlocksOverColumnChunks) { GgmlMulMatQuant(ACL_INT8, 9, 4096, 300); }
TEST(WeightQuantBatchMatmulV2Ggml, MulMatQ4_0RowBlocksOverColumnChunks) { GgmlMulMatQuant(ACL_INT4, 14, 4096, 260); }
// N above 65535: ggml splits the weight into two views, the second at an offset.
TEST(WeightQuantBatchMatmulV2Ggml, MulMatQ4_0SplitAbove65535) { GgmlMulMatQuant(ACL_INT4, 1, 32, 65600); }

// Runs x [m, k] @ the K-contiguous INT4 weight q (column c scaled by
// scales[c], per channel, no offset) and returns y's values.
Values RunPerChannel(aclDataType weightDtype, aclDataType dtype, int64_t m, int64_t k, int64_t n,
                     const std::vector<int64_t>& q, const Values& xv, const Values& scales,
                     const Values& offsets = {}) {
  const std::vector<uint8_t> bytes = PackWeight(weightDtype, k, n, true, 0, q);
  DeviceBuffer wbuf(bytes.size());
  EXPECT_EQ(aclrtMemcpy(wbuf.get(), bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  DeviceTensor x(dtype, {m, k}), s(dtype, {1, n}), o(dtype, {1, n}), y(dtype, {m, n});
  x.WriteView(xv);
  s.WriteView(scales);
  if (!offsets.empty()) o.WriteView(offsets);
  y.Poison();
  const OpRun run = RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        const int64_t dims[2] = {k, n}, strides[2] = {1, k}, storage = k * n;
        aclTensor* weight = aclCreateTensor(dims, 2, weightDtype, strides, 0, ACL_FORMAT_ND, &storage, 1, wbuf.get());
        const aclnnStatus status = aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
            args.Tensor(x), weight, args.Tensor(s), offsets.empty() ? nullptr : args.Tensor(o), nullptr, nullptr,
            nullptr, 0, args.Tensor(y), ws, ex);
        aclDestroyTensor(weight);
        return status;
      },
      aclnnWeightQuantBatchMatmulV2);
  EXPECT_TRUE(run.ok()) << Describe(run);
  return y.ReadView();
}

// f16 activations carry 11 significant bits, which no single bf16 holds: a
// product that keeps only bf16's 8 would give 128 here, not 128.375 (an f16
// value, the sum exact in f32).
TEST(WeightQuantBatchMatmulV2Exact, Int4WithFloat16ActivationsKeepsEveryBit) {
  constexpr int64_t m = 2, k = 128, n = 8;
  const Values got = RunPerChannel(ACL_INT4, ACL_FLOAT16, m, k, n, std::vector<int64_t>(k * n, 1),
                                   Values(m * k, 1.0 + 3.0 / 1024), Values(n, 1.0));
  ASSERT_EQ(got.size(), static_cast<size_t>(m * n));
  for (const auto& v : got) EXPECT_EQ(v.real(), 128.375);
}

// f16 activations at the ends of their range: 65504, subnormals, infinities
// and NaN. Each row's sum follows IEEE arithmetic whatever the order of its
// terms: a NaN or infinities of both signs give NaN, one sign of infinity that
// infinity, and finite rows their float64 value (the pair kernel's terms and
// the f32 loops alike; run at CANOPY_MAX_ISA=avx512 too).
TEST(WeightQuantBatchMatmulV2Exact, Int4Float16ExtremeActivations) {
  constexpr int64_t m = 6, k = 160, n = 11;
  Rng rng = Rng::ForCurrentTest();
  const QuantWeightBuffer w = MakeWeight(rng, ACL_INT4, k, n, true);
  Values xv = RandomValues(rng, ACL_FLOAT16, m * k, Range{-1, 1, 0.01});
  const double inf = std::numeric_limits<double>::infinity();
  xv[0 * k + 3] = 65504.0;  // row 0: the largest f16 values, finite sums
  xv[0 * k + 150] = -65504.0;
  for (int64_t kk = 0; kk < k; kk += 3) xv[1 * k + kk] = std::ldexp(kk % 2 == 0 ? 1.0 : -3.0, -24);  // subnormals
  xv[2 * k + 7] = inf;                                                                               // one +inf
  xv[3 * k + 130] = -inf;
  xv[4 * k + 1] = std::numeric_limits<double>::quiet_NaN();
  xv[5 * k + 0] = inf;  // both signs: NaN wherever the weights' signs agree, else an infinity
  xv[5 * k + 159] = -inf;
  const double scale = 0.001;
  const Values got = RunPerChannel(ACL_INT4, ACL_FLOAT16, m, k, n, w.q, xv, Values(n, scale));
  Expected want;
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      double sum = 0, magnitude = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        const double term = xv[r * k + kk].real() * static_cast<double>(w.q[kk * n + c]) * scale;
        sum += term;
        magnitude += std::abs(term);
      }
      want.values.push_back(sum);
      want.tolerance.push_back(2 * UnitRoundoff(ACL_FLOAT16) * std::abs(sum) +
                               static_cast<double>(k + 4) * UnitRoundoff(ACL_FLOAT) * magnitude);
    }
  }
  ExpectNear(got, want, "extreme f16 activations");
}

// bf16 activations below bf16's normal range (and tiny ones whose products
// cancel below it), scaled back up by a large scale: vdpbf16ps treats such
// inputs and sums as zero, so the pair kernel must leave them to the f32
// loops. Every sum here is exact in f32. INT4 and INT8 weights (both run as
// bf16 pairs).
TEST(WeightQuantBatchMatmulV2Exact, Bf16SubnormalActivations) {
  for (aclDataType weightDtype : {ACL_INT4, ACL_INT8}) {
    SCOPED_TRACE(Name(weightDtype));
    constexpr int64_t m = 3, k = 256, n = 6;
    const std::vector<int64_t> q(k * n, 1);
    Values xv(m * k, 0.0);
    for (int64_t kk = 0; kk < k; ++kk) xv[0 * k + kk] = std::ldexp(1.0, -130);  // bf16 subnormals
    xv[1 * k + 0] = std::ldexp(1.0 + 1.0 / 128, -126);                          // normal, the pair's sum 2^-133 is not
    xv[1 * k + 2] = -std::ldexp(1.0, -126);
    for (int64_t kk = 0; kk < k; ++kk) xv[2 * k + kk] = 0.5;  // an ordinary row beside them
    const double scale = std::ldexp(1.0, 100);
    const Values got = RunPerChannel(weightDtype, ACL_BF16, m, k, n, q, xv, Values(n, scale));
    const double want[m] = {std::ldexp(1.0, -30) * 256 * 1, std::ldexp(1.0, -33), 128 * scale};
    ASSERT_EQ(got.size(), static_cast<size_t>(m * n));
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t c = 0; c < n; ++c) EXPECT_EQ(got[r * n + c].real(), want[r]) << "row " << r << " column " << c;
    }
  }
}

// An infinite scale over weights and activations of 1: every term of the
// doc's formula x @ (w * scale) is +inf, so is every output. The kernels'
// padding (lanes past K, lanes of a group shorter than a vector) holds sums
// of 0, which must not meet the scale (0 * inf is NaN): INT4 and INT8, bf16
// and f16 x, K below, at and past whole blocks of every kernel, one, three
// and five rows (run at every ISA cap). From four columns of x (rows times
// bf16 terms) the AMX kernel takes the product where the CPU has it: it
// scales each bf16 term of x apart, and an f16 term of 0 times an infinite
// scale is NaN there; such rows of y are computed again as the formula reads.
TEST(WeightQuantBatchMatmulV2Exact, InfiniteScaleWithoutZeroTermsIsInfinite) {
  constexpr int64_t n = 3;
  for (aclDataType weightDtype : {ACL_INT4, ACL_INT8}) {
    for (aclDataType dtype : {ACL_BF16, ACL_FLOAT16}) {
      for (int64_t m : {1, 3, 5}) {
        for (int64_t k : {2, 14, 33, 34, 64, 100, 128, 130}) {
          if (weightDtype == ACL_INT4 && k % 2 != 0) continue;  // INT4 pairs share a byte along K
          SCOPED_TRACE(std::string(Name(weightDtype)) + " " + Name(dtype) + " m " + std::to_string(m) + " k " +
                       std::to_string(k));
          const Values got = RunPerChannel(weightDtype, dtype, m, k, n, std::vector<int64_t>(k * n, 1),
                                           Values(m * k, 1.0), Values(n, std::numeric_limits<double>::infinity()));
          ASSERT_EQ(got.size(), static_cast<size_t>(m * n));
          for (const auto& v : got) EXPECT_EQ(v.real(), std::numeric_limits<double>::infinity());
        }
      }
    }
  }
}

// Infinite activations with an offset: x @ ((w + offset) * scale) is an
// infinity of the sign of (w + offset) * scale where x's one infinity meets a
// weight, also where w is 0 or of the other sign than w + offset, and NaN
// where the two infinities of a row meet terms of opposite signs. The
// kernels add the offset's term apart (inf - inf, inf * 0 gave NaN); rows of
// x without an infinity stay as they were. INT4 and INT8, bf16 and f16 x,
// one and three rows (all kernels: run at every ISA cap).
TEST(WeightQuantBatchMatmulV2Exact, InfiniteActivationWithOffsetAsTheFormula) {
  constexpr int64_t k = 64, n = 6;
  const double inf = std::numeric_limits<double>::infinity();
  // Column c's weights: 0 at k = 5, -1 at k = 20, 2 elsewhere; offsets make
  // w + offset positive, negative or zero at the infinities.
  std::vector<int64_t> q(k * n, 2);
  for (int64_t c = 0; c < n; ++c) {
    q[5 * n + c] = 0;
    q[20 * n + c] = -1;
  }
  const Values offsets = {3.0, -2.0, 1.0, 0.5, -4.0, 2.0};
  const Values scales = {1.0, 0.5, 2.0, -1.0, 0.25, 4.0};
  for (aclDataType weightDtype : {ACL_INT4, ACL_INT8}) {
    for (aclDataType dtype : {ACL_BF16, ACL_FLOAT16}) {
      for (int64_t m : {1, 3}) {
        SCOPED_TRACE(std::string(Name(weightDtype)) + " " + Name(dtype) + " m " + std::to_string(m));
        Values xv(m * k, 0.25);
        xv[5] = inf;  // row 0: +inf on the zero weight
        if (m > 1) {
          xv[1 * k + 20] = -inf;  // row 1: -inf on the weight of the other sign, +inf on a zero weight
          xv[1 * k + 5] = inf;
          xv[2 * k + 7] = -1.5;  // row 2: finite
        }
        const Values got = RunPerChannel(weightDtype, dtype, m, k, n, q, xv, scales, offsets);
        ASSERT_EQ(got.size(), static_cast<size_t>(m * n));
        // ExpectNear takes NaN for NaN and an infinity only for itself.
        Expected want;
        for (int64_t r = 0; r < m; ++r) {
          for (int64_t c = 0; c < n; ++c) {
            double sum = 0;
            for (int64_t kk = 0; kk < k; ++kk) {
              sum +=
                  xv[r * k + kk].real() * ((static_cast<double>(q[kk * n + c]) + offsets[c].real()) * scales[c].real());
            }
            want.values.push_back(sum);
            want.tolerance.push_back(2 * UnitRoundoff(dtype) * std::abs(sum) + 1e-3);
          }
        }
        ExpectNear(got, want, "infinite activations with an offset");
      }
    }
  }
}

// bf16 activations near bf16's largest value times INT8 weights of 100: x . w
// is past f32's range, x @ (w * scale) with a scale of 2^-20 is not (64 terms
// of 100 x 2^107). The kernels multiply first and scale after; such rows are
// computed again as the formula reads. Rows of ordinary values beside them
// (three rows: the bf16-pair kernel's INT8 loops on CPUs with AVX-512 BF16;
// run at every ISA cap).
TEST(WeightQuantBatchMatmulV2Exact, LargeActivationsScaledBackIntoRange) {
  constexpr int64_t m = 3, k = 64, n = 5;
  const double large = std::ldexp(1.0, 127);
  Values xv(m * k, 0.5);
  for (int64_t kk = 0; kk < k; ++kk) xv[kk] = large;
  const Values got =
      RunPerChannel(ACL_INT8, ACL_BF16, m, k, n, std::vector<int64_t>(k * n, 100), xv, Values(n, std::ldexp(1.0, -20)));
  ASSERT_EQ(got.size(), static_cast<size_t>(m * n));
  for (int64_t c = 0; c < n; ++c) {
    EXPECT_EQ(got[c].real(), 64 * 100 * std::ldexp(1.0, 107)) << "column " << c;  // exact in bf16: 6400 = 25 x 2^8
    for (int64_t r = 1; r < m; ++r) EXPECT_EQ(got[r * n + c].real(), 64 * 0.5 * 100 * std::ldexp(1.0, -20)) << r;
  }
}

// A bf16 scale near bf16's largest value times INT8 weights of 120 passes
// f32's range while the formula's result need not: x . (w * scale) with x =
// [1, -0.5] is 1.8e40 (inf in bf16, not NaN from inf - inf), with x = [1e-3,
// -5e-4] 1.8e37. The rows recomputed as the formula reads take (w + offset)
// * scale in f64 (one and three rows; run at every ISA cap).
TEST(WeightQuantBatchMatmulV2Exact, LargeScaleTimesWeightPastF32) {
  const double scale = 0x1.c4p127;  // a bf16 value, 3.0e38
  for (int64_t m : {1, 3}) {
    SCOPED_TRACE("m " + std::to_string(m));
    for (const auto& [x0, x1] : {std::pair{1.0, -0.5}, std::pair{0x1.06p-10, -0x1.06p-11}}) {
      Values xv;
      for (int64_t r = 0; r < m; ++r) xv.insert(xv.end(), {x0, x1});
      const Values got = RunPerChannel(ACL_INT8, ACL_BF16, m, 2, 1, {120, 120}, xv, Values(1, scale));
      const double want = (x0 + x1) * 120 * scale;                        // exact in f64
      const double rounded = ConvertValue(Value(want), ACL_BF16).real();  // 1.8e40: inf
      for (int64_t r = 0; r < m; ++r) EXPECT_EQ(got[r].real(), rounded) << "x " << x0 << " row " << r;
    }
  }
}

// Scales at the ends of their dtype's range, read where the client's tensor
// holds them (per channel, m <= 16): f16's 65504 and subnormals, bf16's
// largest and subnormal values; x small enough that y stays finite. INT4 and
// INT8 weights.
TEST(WeightQuantBatchMatmulV2Exact, ExtremeScalesInPlace) {
  constexpr int64_t m = 3, k = 64, n = 6;
  for (aclDataType weightDtype : {ACL_INT4, ACL_INT8}) {
    for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
      SCOPED_TRACE(std::string(Name(weightDtype)) + " " + Name(dtype));
      Rng rng = Rng::ForCurrentTest();
      const QuantWeightBuffer w = MakeWeight(rng, weightDtype, k, n, true);
      const bool half = dtype == ACL_FLOAT16;
      const Values scales = {half ? 65504.0 : 0x1.fep127,   half ? std::ldexp(1.0, -24) : std::ldexp(1.0, -133),
                             half ? -65504.0 : -0x1p100,    half ? std::ldexp(3.0, -20) : std::ldexp(1.0, -126),
                             half ? 0x1.ffcp-15 : 0x1p-120, 1.0};
      const double x_magnitude = half ? std::ldexp(1.0, -12) : std::ldexp(1.0, -40);
      const Values xv = RandomValues(rng, dtype, m * k, Range{-x_magnitude, x_magnitude});
      const Values got = RunPerChannel(weightDtype, dtype, m, k, n, w.q, xv, scales);
      Expected want;
      for (int64_t r = 0; r < m; ++r) {
        for (int64_t c = 0; c < n; ++c) {
          double sum = 0, magnitude = 0;
          for (int64_t kk = 0; kk < k; ++kk) {
            const double term = xv[r * k + kk].real() * static_cast<double>(w.q[kk * n + c]) * scales[c].real();
            sum += term;
            magnitude += std::abs(term);
          }
          want.values.push_back(sum);
          // y is rounded to the dtype, subnormals included: half an ulp of its smallest normal at least.
          want.tolerance.push_back(2 * UnitRoundoff(dtype) * std::abs(sum) +
                                   static_cast<double>(k + 4) * UnitRoundoff(ACL_FLOAT) * magnitude +
                                   (half ? std::ldexp(1.0, -25) : std::ldexp(1.0, -134)));
        }
      }
      ExpectNear(got, want, "extreme scales");
    }
  }
}

// bf16 activations beyond the fused kernel's rows take the dequantised weight
// rounded once to bf16: (q + offset) * scale in f32, then to nearest even. x's
// first k rows are the identity, so those rows of y are the dequantised
// weight itself (one product by 1, exact), bit for bit; the rows after them
// are random. INT4 and INT8, both layouts, groups of 32 with a partial last
// one, an odd n (even for INT4 stored along n, which packs it), with and
// without offsets (the AVX-512 loops, their BF16
// rounding and, capped, the portable one).
TEST(WeightQuantBatchMatmulV2Exact, Bf16PrefillWeightRoundsOnceToBf16) {
  // Rows of 88 and 53 or 54 end in a vector and a part of another.
  constexpr int64_t k = 88, m = k + 6, group = 32, groups = (k + group - 1) / group;
  for (aclDataType dtype : {ACL_INT4, ACL_INT8}) {
    for (bool k_contiguous : {true, false}) {
      const int64_t n = dtype == ACL_INT4 && !k_contiguous ? 54 : 53;
      for (bool with_offset : {false, true}) {
        SCOPED_TRACE(std::string(Name(dtype)) + (k_contiguous ? " K-contiguous" : " N-contiguous") +
                     (with_offset ? " with offset" : ""));
        Rng rng = Rng::ForCurrentTest();
        const QuantWeightBuffer w = MakeWeight(rng, dtype, k, n, k_contiguous);
        DeviceTensor x(ACL_BF16, {m, k}), scale(ACL_BF16, {groups, n}), offset(ACL_BF16, {groups, n});
        DeviceTensor y(ACL_BF16, {m, n});
        Values xv = RandomValues(rng, ACL_BF16, m * k, Range{-1, 1, 0.01});
        for (int64_t r = 0; r < k; ++r) {
          for (int64_t kk = 0; kk < k; ++kk) xv[r * k + kk] = r == kk ? 1.0 : 0.0;
        }
        x.WriteView(xv);
        const Values sv = scale.FillRandom(rng, Range{0.002, 0.05});
        const Values ov = offset.FillRandom(rng, Range{-4, 4, 0.1});
        y.Poison();
        const OpRun run = RunOp(
            [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
              aclTensor* weight = w.Create();
              const aclnnStatus status = aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(
                  args.Tensor(x), weight, args.Tensor(scale), with_offset ? args.Tensor(offset) : nullptr, nullptr,
                  nullptr, nullptr, static_cast<int>(group), args.Tensor(y), ws, ex);
              aclDestroyTensor(weight);
              return status;
            },
            aclnnWeightQuantBatchMatmulV2);
        ASSERT_TRUE(run.ok()) << Describe(run);
        const Values got = y.ReadView();
        std::vector<double> dense(static_cast<size_t>(k * n));  // the bf16 weight, [k][n]
        for (int64_t kk = 0; kk < k; ++kk) {
          for (int64_t c = 0; c < n; ++c) {
            const size_t at = static_cast<size_t>((kk / group) * n + c);
            const float q = static_cast<float>(w.q[kk * n + c]);
            const float value =
                (with_offset ? q + static_cast<float>(ov[at].real()) : q) * static_cast<float>(sv[at].real());
            dense[kk * n + c] = ConvertValue(Value(static_cast<double>(value)), ACL_BF16).real();
          }
        }
        for (int64_t r = 0; r < k; ++r) {
          for (int64_t c = 0; c < n; ++c) {
            ASSERT_EQ(got[r * n + c].real(), dense[r * n + c]) << "weight row " << r << " column " << c;
          }
        }
        Expected want;
        for (int64_t r = k; r < m; ++r) {
          for (int64_t c = 0; c < n; ++c) {
            double sum = 0, magnitude = 0;
            for (int64_t kk = 0; kk < k; ++kk) {
              sum += xv[r * k + kk].real() * dense[kk * n + c];
              magnitude += std::abs(xv[r * k + kk].real() * dense[kk * n + c]);
            }
            want.values.push_back(sum);
            want.tolerance.push_back(2 * UnitRoundoff(ACL_BF16) * std::abs(sum) +
                                     static_cast<double>(k + 4) * UnitRoundoff(ACL_FLOAT) * magnitude);
          }
        }
        ExpectNear(Values(got.begin() + k * n, got.end()), want, "random rows");
      }
    }
  }
}

// ---- rejections -----------------------------------------------------------------------------------

struct Call {
  aclDataType x = ACL_FLOAT16, w = ACL_INT8, scale = ACL_FLOAT16, offset = ACL_FLOAT16, bias = ACL_FLOAT16,
              y = ACL_FLOAT16;
  Shape xs{2, 64}, ws{64, 16}, ss{16}, os{16}, bs{16}, ys{2, 16};
  bool withOffset = false, withBias = false, withQuantScale = false, withQuantOffset = false;
  int groupSize = 0;
  View xView = kC;
  aclFormat xFormat = ACL_FORMAT_ND;
  int64_t weightOffset = 0;
  bool nullX = false;
  bool v3 = false;  // through aclnnWeightQuantBatchMatmulV3 with innerPrecise
  int innerPrecise = 0;
};

OpRun RunCall(const Call& c) {
  std::vector<std::unique_ptr<DeviceBuffer>> keep;  // the weights' storage, alive until the run is done
  return RunOp(
      [&](OpArgs& args, uint64_t* ws, aclOpExecutor** ex) {
        const int64_t k = c.ws.size() == 2 ? c.ws[0] : 1, n = c.ws.size() == 2 ? c.ws[1] : c.ws[0];
        auto* storage =
            keep.emplace_back(std::make_unique<DeviceBuffer>(static_cast<size_t>(k * n + c.weightOffset + 16))).get();
        const Shape strides = c.ws.size() == 2 ? Shape{n, 1} : Shape{1};
        const int64_t elements = k * n + c.weightOffset;
        aclTensor* weight = aclCreateTensor(c.ws.data(), c.ws.size(), c.w, strides.data(), c.weightOffset,
                                            ACL_FORMAT_ND, &elements, 1, storage->get());
        aclTensor* quantScale = c.withQuantScale ? args.NewTensor(ACL_UINT64, {16}) : nullptr;
        aclTensor* quantOffset = c.withQuantOffset ? args.NewTensor(ACL_FLOAT, {16}) : nullptr;
        const aclTensor* x = c.nullX ? nullptr : args.NewTensor(c.x, c.xs, c.xView, c.xFormat);
        const aclTensor* scale = args.NewTensor(c.scale, c.ss);
        const aclTensor* offset = c.withOffset ? args.NewTensor(c.offset, c.os) : nullptr;
        const aclTensor* bias = c.withBias ? args.NewTensor(c.bias, c.bs) : nullptr;
        const aclTensor* y = args.NewTensor(c.y, c.ys);
        const aclnnStatus status =
            c.v3 ? aclnnWeightQuantBatchMatmulV3GetWorkspaceSize(x, weight, scale, offset, quantScale, quantOffset,
                                                                 bias, c.groupSize, c.innerPrecise, y, ws, ex)
                 : aclnnWeightQuantBatchMatmulV2GetWorkspaceSize(x, weight, scale, offset, quantScale, quantOffset,
                                                                 bias, c.groupSize, y, ws, ex);
        aclDestroyTensor(weight);
        return status;
      },
      c.v3 ? aclnnWeightQuantBatchMatmulV3 : aclnnWeightQuantBatchMatmulV2);
}

// V3's own argument: innerPrecise 0 or 1 (checked before the operands); the rest is V2's.
TEST(WeightQuantBatchMatmulV3Rejects, InnerPrecise) {
  Call c;
  c.v3 = true;
  for (int precise : {0, 1}) {
    c.innerPrecise = precise;
    EXPECT_TRUE(RunCall(c).ok()) << Describe(RunCall(c));
  }
  for (int precise : {2, -1}) {
    c.innerPrecise = precise;
    const OpRun run = RunCall(c);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << Describe(run);
    EXPECT_NE(run.message.find("'innerPrecise'"), std::string::npos) << run.message;
  }
  c.x = c.scale = c.y = ACL_FLOAT;
  c.innerPrecise = 1;
  EXPECT_EQ(RunCall(c).phase1, ACLNN_ERR_PARAM_INVALID);  // V2's checks
}

TEST(WeightQuantBatchMatmulV2Rejects, WithCannCodes) {
  EXPECT_TRUE(RunCall(Call{}).ok()) << Describe(RunCall(Call{}));
  const auto expectInvalid = [](const char* what, Call c) {
    const OpRun run = RunCall(c);
    EXPECT_EQ(run.phase1, ACLNN_ERR_PARAM_INVALID) << what << ": " << Describe(run);
  };
  Call c;
  c.nullX = true;
  EXPECT_EQ(RunCall(c).phase1, ACLNN_ERR_PARAM_NULLPTR);
  c = Call{};
  c.x = c.scale = c.y = ACL_FLOAT;
  expectInvalid("f32 x", c);
  c = Call{};
  c.w = ACL_INT32;
  c.ws = {64, 2};
  expectInvalid("INT32 (INT4Pack) weight", c);
  c = Call{};
  c.w = ACL_FLOAT16;
  expectInvalid("f16 weight", c);
  c = Call{};
  c.scale = ACL_BF16;
  expectInvalid("scale dtype unlike x", c);
  c = Call{};
  c.scale = ACL_UINT64;
  expectInvalid("UINT64 scale", c);
  c = Call{};
  c.withOffset = true;
  c.offset = ACL_INT32;
  expectInvalid("INT32 offset", c);
  c = Call{};
  c.withQuantScale = true;
  expectInvalid("quantScale (INT8 y)", c);
  c = Call{};
  c.withQuantOffset = true;
  expectInvalid("quantOffset without quantScale", c);
  c = Call{};
  c.withBias = true;
  c.bias = ACL_FLOAT;
  expectInvalid("f32 bias with f16 x", c);
  c = Call{};
  c.x = c.scale = c.y = ACL_BF16;
  c.withBias = true;
  c.bias = ACL_BF16;
  expectInvalid("bf16 bias with bf16 x", c);
  c = Call{};
  c.y = ACL_FLOAT;
  expectInvalid("f32 y", c);
  c = Call{};
  c.xs = {2, 2, 64};
  expectInvalid("3-D x", c);
  c = Call{};
  c.xs = {2, 32};
  expectInvalid("k mismatch", c);
  c = Call{};
  c.xs = {0, 64};
  c.ys = {0, 16};
  expectInvalid("empty m", c);
  c = Call{};
  c.xs = {2, 65536};
  c.ws = {65536, 16};
  expectInvalid("k above 65535", c);
  c = Call{};
  c.groupSize = 16;
  c.ss = {4, 16};
  expectInvalid("group of 16", c);
  c = Call{};
  c.groupSize = 48;
  c.ss = {2, 16};
  expectInvalid("group of 48", c);
  c = Call{};
  c.groupSize = 64;
  c.ss = {1, 16};
  expectInvalid("group of k", c);
  c = Call{};
  c.groupSize = 32;
  c.ss = {3, 16};
  expectInvalid("group scale rows", c);
  c = Call{};
  c.ss = {2, 16};
  expectInvalid("per-channel scale of 2 rows", c);
  c = Call{};
  c.withOffset = true;
  c.os = {1, 16};
  expectInvalid("offset shape unlike scale", c);
  c = Call{};
  c.withBias = true;
  c.bs = {2, 16};
  expectInvalid("bias [2, n]", c);
  c = Call{};
  c.ys = {2, 15};
  expectInvalid("y shape", c);
  c = Call{};
  c.xView = View::kStepped;
  expectInvalid("stepped x", c);
  c = Call{};
  c.xFormat = ACL_FORMAT_FRACTAL_NZ;
  expectInvalid("FRACTAL_NZ x", c);
  c = Call{};
  c.w = ACL_INT4;
  c.weightOffset = 1;
  expectInvalid("INT4 weight at an odd element", c);
  c = Call{};
  c.w = ACL_INT4;
  c.ws = {64, 15};
  c.ss = {15};
  c.ys = {2, 15};
  expectInvalid("INT4 weight with an odd contiguous axis", c);
}

}  // namespace
}  // namespace canopy_test
