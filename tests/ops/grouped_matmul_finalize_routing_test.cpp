// GroupedMatmulFinalizeRouting, V2 and V3 (CANN's A8W4 form) through the public C
// API against a float64 reference written out here: INT8 x, int4 weights packed
// eight to an INT32 (ND and FRACTAL_NZ), INT64 scales holding an f32, the
// documented bias (8 * sum_k w * scale) and an arbitrary one, per-token scale and
// logit, counts with an empty expert and rows past the last group, rowIndex
// scatter-adding several rows into one token, the shared expert's rows at an
// offset with its weight, V2's offset, V3's tuning hint, a strided y, the doc
// example's call (all zeros), run-time failures, and the rejections with codes.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_grouped_matmul_finalize_routing.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_v2.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_v3.h"
#include "aclnnop/aclnn_grouped_matmul_finalize_routing_weight_nz_v2.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

using TensorPtr = std::unique_ptr<DeviceTensor>;

constexpr int64_t kInt4PerInt32 = 8;

struct Problem {
  int64_t m = 6, k = 192, n = 72, e = 3, rows = 5, sharedRows = 2, sharedOffset = 1;
  std::vector<int64_t> counts = {2, 0, 3};  // row 5 in no group
  float sharedWeight = 0.75f;
  bool documentedBias = true, withOffset = false;
  aclFormat wFormat = ACL_FORMAT_ND;
  View yView = View::kContiguous;

  // Host values (the reference reads these).
  std::vector<int8_t> x, w;  // w unpacked [e, k, n]
  std::vector<float> scale, bias, offset, pertoken, logit, shared;
  std::vector<int64_t> rowIndex;
  TensorPtr xT, wT, scaleT, biasT, offsetT, pertokenT, groupListT, sharedT, logitT, rowIndexT, yT;
};

std::vector<uint8_t> Bytes(const void* data, size_t size) {
  std::vector<uint8_t> bytes(size);
  std::memcpy(bytes.data(), data, size);
  return bytes;
}

TensorPtr Device(aclDataType dtype, const Shape& shape, const std::vector<uint8_t>& bytes) {
  auto t = std::make_unique<DeviceTensor>(dtype, shape);
  t->UploadBytes(bytes);
  return t;
}

void Build(Problem& p, Rng& rng) {
  const int64_t m = p.m, k = p.k, n = p.n, e = p.e;
  p.x.resize(static_cast<size_t>(m * k));
  for (int8_t& v : p.x) v = static_cast<int8_t>(std::lround(rng.Uniform(-128, 127)));
  p.w.resize(static_cast<size_t>(e * k * n));
  for (int8_t& v : p.w) v = static_cast<int8_t>(std::lround(rng.Uniform(-8, 7)));
  std::vector<uint8_t> packed(p.w.size() / 2);
  for (size_t i = 0; i < p.w.size(); i += 2) {
    packed[i / 2] = static_cast<uint8_t>((p.w[i] & 0x0F) | ((p.w[i + 1] & 0x0F) << 4));
  }
  p.scale.resize(static_cast<size_t>(e * n));
  std::vector<int64_t> words(p.scale.size());
  for (size_t i = 0; i < p.scale.size(); ++i) {
    p.scale[i] = static_cast<float>(rng.Uniform(1e-4, 2e-3));
    uint32_t bits = 0;
    std::memcpy(&bits, &p.scale[i], sizeof bits);
    words[i] = static_cast<int64_t>(bits);
  }
  p.bias.resize(static_cast<size_t>(e * n));
  for (int64_t g = 0; g < e; ++g) {
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t kk = 0; kk < k; ++kk) sum += p.w[(g * k + kk) * n + j];
      const size_t at = static_cast<size_t>(g * n + j);
      p.bias[at] =
          p.documentedBias ? static_cast<float>(8.0 * sum * p.scale[at]) : static_cast<float>(rng.Uniform(-1, 1));
    }
  }
  p.offset.resize(static_cast<size_t>(e * n));
  for (float& v : p.offset) v = static_cast<float>(rng.Uniform(-1e-3, 1e-3));
  p.pertoken.resize(static_cast<size_t>(m));
  p.logit.resize(static_cast<size_t>(m));
  p.rowIndex.resize(static_cast<size_t>(m));
  for (int64_t r = 0; r < m; ++r) {
    p.pertoken[static_cast<size_t>(r)] = static_cast<float>(rng.Uniform(0.5, 1.5));
    p.logit[static_cast<size_t>(r)] = static_cast<float>(rng.Uniform(0.1, 1));
    p.rowIndex[static_cast<size_t>(r)] = std::lround(rng.Uniform(0, static_cast<double>(p.rows - 1)));
  }
  p.xT = Device(ACL_INT8, {m, k}, Bytes(p.x.data(), p.x.size()));
  p.wT = Device(ACL_INT32, {e, k, n / kInt4PerInt32}, packed);
  p.scaleT = Device(ACL_INT64, {e, 1, n}, Bytes(words.data(), words.size() * sizeof(int64_t)));
  p.biasT = Device(ACL_FLOAT, {e, n}, Bytes(p.bias.data(), p.bias.size() * sizeof(float)));
  p.offsetT = Device(ACL_FLOAT, {e, 1, n}, Bytes(p.offset.data(), p.offset.size() * sizeof(float)));
  p.pertokenT = Device(ACL_FLOAT, {m}, Bytes(p.pertoken.data(), p.pertoken.size() * sizeof(float)));
  p.logitT = Device(ACL_FLOAT, {m}, Bytes(p.logit.data(), p.logit.size() * sizeof(float)));
  p.rowIndexT = Device(ACL_INT64, {m}, Bytes(p.rowIndex.data(), p.rowIndex.size() * sizeof(int64_t)));
  p.groupListT = Device(ACL_INT64, {static_cast<int64_t>(p.counts.size())},
                        Bytes(p.counts.data(), p.counts.size() * sizeof(int64_t)));
  p.sharedT = std::make_unique<DeviceTensor>(ACL_BF16, Shape{p.sharedRows, n});
  const Values shared = p.sharedT->FillRandom(rng, Range{-2, 2});
  for (const Value& v : shared) p.shared.push_back(static_cast<float>(v.real()));
  p.yT = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{p.rows, n}, p.yView);
  p.yT->Poison();
}

// The float64 reference and each element's magnitude sum.
Expected Reference(const Problem& p) {
  const int64_t k = p.k, n = p.n;
  Values want(static_cast<size_t>(p.rows * n), 0.0);
  std::vector<double> scale(want.size(), 0.0);
  for (int64_t i = 0; i < p.sharedRows; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      const double v = p.sharedWeight * static_cast<double>(p.shared[static_cast<size_t>(i * n + j)]);
      want[static_cast<size_t>((p.sharedOffset + i) * n + j)] = v;
      scale[static_cast<size_t>((p.sharedOffset + i) * n + j)] = std::abs(v);
    }
  }
  int64_t r = 0;
  for (int64_t g = 0; g < p.e; ++g) {
    for (int64_t c = 0; c < p.counts[static_cast<size_t>(g)]; ++c, ++r) {
      const double token = static_cast<double>(p.pertoken[static_cast<size_t>(r)]) * p.logit[static_cast<size_t>(r)];
      double xSum = 0;
      for (int64_t kk = 0; kk < k; ++kk) xSum += p.x[static_cast<size_t>(r * k + kk)];
      const size_t target = static_cast<size_t>(p.rowIndex[static_cast<size_t>(r)] * n);
      for (int64_t j = 0; j < n; ++j) {
        double dot = 0, wSum = 0, magnitude = 0;
        for (int64_t kk = 0; kk < k; ++kk) {
          const double wv = p.w[static_cast<size_t>((g * k + kk) * n + j)];
          dot += p.x[static_cast<size_t>(r * k + kk)] * wv;
          wSum += wv;
          magnitude += std::abs(p.x[static_cast<size_t>(r * k + kk)] * wv) + 8 * std::abs(wv);
        }
        const size_t gj = static_cast<size_t>(g * n + j);
        double v = p.scale[gj] * (dot - 8 * wSum) + p.bias[gj];
        magnitude = p.scale[gj] * magnitude + std::abs(p.bias[gj]);
        if (p.withOffset) {
          v += p.offset[gj] * xSum;
          magnitude += std::abs(p.offset[gj] * xSum);
        }
        want[target + static_cast<size_t>(j)] += token * v;
        scale[target + static_cast<size_t>(j)] += std::abs(token) * magnitude;
      }
    }
  }
  return RelativeTolerance(want, ACL_FLOAT, 16, scale);
}

enum class Version { kV1, kV2, kV3, kWeightNzV2 };

struct Overrides {
  int64_t dtype = 0, groupListType = 1, tuning = 1;
  bool transposeX = false, transposeW = false;
  bool antiquant = false;
};

OpRun RunFinalize(const Problem& p, Version version, const Overrides& o = {}) {
  const Phase2 phase2 = version == Version::kV1   ? aclnnGroupedMatmulFinalizeRouting
                        : version == Version::kV2 ? aclnnGroupedMatmulFinalizeRoutingV2
                        : version == Version::kV3 ? aclnnGroupedMatmulFinalizeRoutingV3
                                                  : aclnnGroupedMatmulFinalizeRoutingWeightNzV2;
  return RunOp(
      [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
        aclTensor* x = a.Tensor(*p.xT);
        aclTensor* w = a.Tensor(*p.wT, p.wFormat);
        aclTensor* y = a.Tensor(*p.yT);
        aclTensor* scale = a.Tensor(*p.scaleT);
        aclTensor* bias = a.Tensor(*p.biasT);
        aclTensor* pertoken = a.Tensor(*p.pertokenT);
        aclTensor* groupList = a.Tensor(*p.groupListT);
        aclTensor* shared = a.Tensor(*p.sharedT);
        aclTensor* logit = a.Tensor(*p.logitT);
        aclTensor* rowIndex = a.Tensor(*p.rowIndexT);
        if (version == Version::kV1) {
          return aclnnGroupedMatmulFinalizeRoutingGetWorkspaceSize(
              x, w, scale, bias, pertoken, groupList, shared, logit, rowIndex, o.dtype, p.sharedWeight, p.sharedOffset,
              o.transposeX, o.transposeW, o.groupListType, y, ws, ex);
        }
        aclTensor* offset = p.withOffset ? a.Tensor(*p.offsetT) : nullptr;
        aclTensor* antiquant = o.antiquant ? a.NewTensor(ACL_FLOAT, {p.e, p.n}) : nullptr;
        if (version == Version::kV2) {
          return aclnnGroupedMatmulFinalizeRoutingV2GetWorkspaceSize(
              x, w, scale, bias, offset, antiquant, nullptr, pertoken, groupList, shared, logit, rowIndex, o.dtype,
              p.sharedWeight, p.sharedOffset, o.transposeX, o.transposeW, o.groupListType, y, ws, ex);
        }
        if (version == Version::kWeightNzV2) {
          return aclnnGroupedMatmulFinalizeRoutingWeightNzV2GetWorkspaceSize(
              x, w, scale, bias, offset, antiquant, nullptr, pertoken, groupList, shared, logit, rowIndex, o.dtype,
              p.sharedWeight, p.sharedOffset, o.transposeX, o.transposeW, o.groupListType, a.IntArray({o.tuning}), y,
              ws, ex);
        }
        return aclnnGroupedMatmulFinalizeRoutingV3GetWorkspaceSize(
            x, w, scale, bias, offset, antiquant, nullptr, pertoken, groupList, shared, logit, rowIndex, o.dtype,
            p.sharedWeight, p.sharedOffset, o.transposeX, o.transposeW, o.groupListType, a.IntArray({o.tuning}), y, ws,
            ex);
      },
      phase2);
}

void ExpectMatches(Problem& p, Version version, const std::string& what) {
  Rng rng = Rng::ForCurrentTest();
  Build(p, rng);
  const auto before = p.yT->DownloadBytes();
  const OpRun run = RunFinalize(p, version);
  ASSERT_TRUE(run.ok()) << what << ": " << Describe(run);
  ExpectNear(p.yT->ReadView(), Reference(p), what);
  ExpectOutsideViewUnchanged(*p.yT, before, what);
}

TEST(GroupedMatmulFinalizeRouting, MatchesFloat64) {
  for (const aclFormat format : {ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ}) {
    for (const bool documented : {true, false}) {
      Problem p;
      p.n = format == ACL_FORMAT_FRACTAL_NZ ? 128 : 72;  // NZ needs n a multiple of 64
      p.wFormat = format;
      p.documentedBias = documented;
      ExpectMatches(p, Version::kV1,
                    std::string(format == ACL_FORMAT_ND ? "ND" : "NZ") + (documented ? " documented bias" : " bias"));
    }
  }
}

TEST(GroupedMatmulFinalizeRouting, StridedOutAndSharedAtTheEnd) {
  Problem p;
  p.yView = View::kStepped;
  p.sharedOffset = 3;  // rows 3 and 4 of 5
  p.counts = {1, 4, 1};
  ExpectMatches(p, Version::kV1, "stepped y");
}

TEST(GroupedMatmulFinalizeRouting, V2AndV3AddTheOffset) {
  for (const Version version : {Version::kV2, Version::kV3}) {
    for (const bool offset : {false, true}) {
      Problem p;
      p.withOffset = offset;
      ExpectMatches(p, version, std::string(version == Version::kV2 ? "V2" : "V3") + (offset ? " offset" : ""));
    }
  }
}

// WeightNzV2's INT32-packed form is V2's A8W4 product behind the WeightNz checks (which
// ignore the antiquant tensors).
TEST(GroupedMatmulFinalizeRouting, WeightNzV2TakesTheA8W4Form) {
  for (const aclFormat format : {ACL_FORMAT_ND, ACL_FORMAT_FRACTAL_NZ}) {
    for (const bool offset : {false, true}) {
      Problem p;
      p.n = 128;
      p.wFormat = format;
      p.withOffset = offset;
      ExpectMatches(p, Version::kWeightNzV2,
                    std::string("WeightNzV2") + (format == ACL_FORMAT_ND ? " ND" : " NZ") + (offset ? " offset" : ""));
    }
  }
  Problem p;
  Rng rng = Rng::ForCurrentTest();
  Build(p, rng);
  EXPECT_TRUE(RunFinalize(p, Version::kWeightNzV2, {.antiquant = true}).ok()) << "antiquantScaleOptional is ignored";
}

// The doc's example call (V3, e 1, k 2048, n 7168, 8 rows, one shared row) on its
// all-zero host buffers: no expert has a row, y is zero.
TEST(GroupedMatmulFinalizeRouting, DocExampleGivesZeros) {
  Problem p;
  p.m = 8;
  p.k = 2048;
  p.n = 7168;
  p.e = 1;
  p.rows = 8;
  p.sharedRows = 1;
  p.sharedOffset = 0;
  p.counts = {0};
  p.sharedWeight = 1.0f;
  p.withOffset = true;
  Rng rng = Rng::ForCurrentTest();
  Build(p, rng);
  for (TensorPtr* t : {&p.xT, &p.wT, &p.scaleT, &p.biasT, &p.offsetT, &p.pertokenT, &p.groupListT, &p.sharedT,
                       &p.logitT, &p.rowIndexT}) {
    (*t)->UploadBytes(std::vector<uint8_t>((*t)->bytes(), 0));
  }
  const OpRun run = RunFinalize(p, Version::kV3);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectExact(p.yT->ReadView(), Values(static_cast<size_t>(p.rows * p.n), 0.0), "y");
}

TEST(GroupedMatmulFinalizeRouting, BadRunTimeValuesFailTheRun) {
  Rng rng = Rng::ForCurrentTest();
  Problem tooMany;
  tooMany.counts = {2, 3, 2};  // 7 rows counted, x has 6
  Build(tooMany, rng);
  OpRun run = RunFinalize(tooMany, Version::kV1);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
  Problem badIndex;
  Build(badIndex, rng);
  badIndex.rowIndex[1] = badIndex.rows;
  badIndex.rowIndexT->UploadBytes(Bytes(badIndex.rowIndex.data(), badIndex.rowIndex.size() * sizeof(int64_t)));
  run = RunFinalize(badIndex, Version::kV1);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
}

TEST(GroupedMatmulFinalizeRouting, Rejects) {
  Rng rng = Rng::ForCurrentTest();
  const int invalid = ACLNN_ERR_PARAM_INVALID;
  auto rejected = [&](const std::string& what, auto change, Version version, const Overrides& o, int status,
                      const std::vector<std::string>& words) {
    Problem p;
    change(p);
    Build(p, rng);
    SCOPED_TRACE(what);
    ExpectRejectedWith(RunFinalize(p, version, o), status, words);
  };
  auto none = [](Problem&) {};
  rejected("dtype 1", none, Version::kV1, {.dtype = 1}, invalid, {"dtype"});
  rejected("transposeW", none, Version::kV1, {.transposeW = true}, invalid, {"transposeW"});
  rejected("transposeX1", none, Version::kV2, {.transposeX = true}, invalid, {"transposeX1"});
  rejected("groupListType 0", none, Version::kV1, {.groupListType = 0}, invalid, {"groupListType"});
  rejected("antiquant given", none, Version::kV2, {.antiquant = true}, ACLNN_ERR_PARAM_NULLPTR, {"antiquant"});
  rejected("tuning past m", none, Version::kV3, {.tuning = 7}, invalid, {"tuningConfigOptional"});
  rejected("k not a multiple of 64", [](Problem& p) { p.k = 160; }, Version::kV1, {}, invalid, {"w", "k"});
  rejected("k at most 128", [](Problem& p) { p.k = 128; }, Version::kV1, {}, invalid, {"w", "k"});
  rejected("n at most 64", [](Problem& p) { p.n = 64; }, Version::kV1, {}, invalid, {"w", "n"});
  rejected("NZ n not a multiple of 64", [](Problem& p) { p.wFormat = ACL_FORMAT_FRACTAL_NZ; }, Version::kV1, {},
           invalid, {"w"});
  rejected("k at the tiling limit", [](Problem& p) { p.k = 18432; }, Version::kV1, {}, ACLNN_ERR_INNER_TILING_ERROR,
           {"k"});
  rejected("y rows past m", [](Problem& p) { p.rows = 7; }, Version::kV1, {}, invalid, {"y"});
  rejected("shared rows past y", [](Problem& p) { p.sharedOffset = 4; }, Version::kV1, {}, invalid,
           {"sharedInputOffset"});
  rejected("negative shared offset", [](Problem& p) { p.sharedOffset = -1; }, Version::kV1, {}, invalid,
           {"sharedInputOffset"});
  // The offset plus the shared rows overflowed int64 and passed (UBSan: signed overflow); the rows were dropped.
  rejected("shared offset near INT64_MAX", [](Problem& p) { p.sharedOffset = std::numeric_limits<int64_t>::max(); },
           Version::kV1, {}, invalid, {"sharedInputOffset"});
  rejected("group list of another length",
           [](Problem& p) {
             p.counts = {2, 3};
           },
           Version::kV1, {}, invalid, {"groupListOptional"});

  // Dtypes and shapes of one argument at a time, on V1's call.
  auto call = [&](const std::function<void(OpArgs&, std::vector<aclTensor*>&)>& change) {
    Problem p;
    Build(p, rng);
    return RunOp(
        [&](OpArgs& a, uint64_t* ws, aclOpExecutor** ex) {
          std::vector<aclTensor*> t = {a.Tensor(*p.xT),      a.Tensor(*p.wT),        a.Tensor(*p.scaleT),
                                       a.Tensor(*p.biasT),   a.Tensor(*p.pertokenT), a.Tensor(*p.groupListT),
                                       a.Tensor(*p.sharedT), a.Tensor(*p.logitT),    a.Tensor(*p.rowIndexT),
                                       a.Tensor(*p.yT)};
          change(a, t);
          return aclnnGroupedMatmulFinalizeRoutingGetWorkspaceSize(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8],
                                                                   0, 1.0f, 0, false, false, 1, t[9], ws, ex);
        },
        aclnnGroupedMatmulFinalizeRouting);
  };
  const std::vector<std::pair<std::string, std::function<void(OpArgs&, std::vector<aclTensor*>&)>>> cases = {
      {"w",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[1] = a.NewTensor(ACL_INT8, {3, 192, 72});
       }},
      {"x",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[0] = a.NewTensor(ACL_FLOAT16, {6, 192});
       }},
      {"scaleOptional",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_FLOAT, {3, 1, 72});
       }},
      {"biasOptional",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[3] = a.NewTensor(ACL_BF16, {3, 72});
       }},
      {"sharedInputOptional",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[6] = a.NewTensor(ACL_FLOAT, {2, 72});
       }},
      {"rowIndexOptional",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[8] = a.NewTensorIn(Range{0, 4}, ACL_INT32, {6});
       }},
      {"y",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[9] = a.NewTensor(ACL_FLOAT16, {5, 72});
       }},
      {"scaleOptional",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[2] = a.NewTensor(ACL_INT64, {3, 2, 72});
       }},
      {"biasOptional",
       [](OpArgs& a, std::vector<aclTensor*>& t) {
         t[3] = a.NewTensor(ACL_FLOAT, {3, 1, 72});
       }},
      {"logitOptional", [](OpArgs& a, std::vector<aclTensor*>& t) { t[7] = a.NewTensor(ACL_FLOAT, {5}); }},
      {"pertokenScaleOptional", [](OpArgs& a, std::vector<aclTensor*>& t) { t[4] = a.NewTensor(ACL_FLOAT, {0}); }},
      {"sharedInputOptional", [](OpArgs& a, std::vector<aclTensor*>& t) { t[6] = a.NewTensor(ACL_BF16, {0, 72}); }},
      {"x",
       [](OpArgs& a,
          std::vector<aclTensor*>& t) { t[0] = a.NewTensor(ACL_INT8, {6, 192}, View::kContiguous, ACL_FORMAT_NCHW); }},
  };
  for (const auto& [name, change] : cases) {
    SCOPED_TRACE(name);
    ExpectRejectedWith(call(change), invalid, {name});
  }
  const OpRun null = call([](OpArgs&, std::vector<aclTensor*>& t) { t[7] = nullptr; });
  ExpectRejectedWith(null, ACLNN_ERR_PARAM_NULLPTR, {"logitOptional"});
}

}  // namespace
}  // namespace canopy_test
