// EmbeddingBag through the public API against a float64 reference of
// torch.nn.functional.embedding_bag: sum (with and without per-sample
// weights), mean and max, includeLastOffset, empty bags, a padding index,
// every weight dtype and index dtype pairing, offset2bag, bagSize and
// maxIndices, strided views, an empty offset2bag, indices and offsets that do
// not fit (stream errors, nothing written), CANN's example and the rejections.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_embedding_bag.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

struct BagCase {
  int64_t rows, dim;
  std::vector<int64_t> indices, offsets;
  int64_t mode;
  bool includeLast, perSample;
  int64_t padding;
};

struct BagWant {
  Expected output;
  Values offset2bag, bagSize, maxIndices;
};

BagWant Reference(const Values& w, const Values& scales, const BagCase& c, aclDataType dtype) {
  BagWant want;
  const auto n = static_cast<int64_t>(c.indices.size());
  const int64_t bags = static_cast<int64_t>(c.offsets.size()) - (c.includeLast ? 1 : 0);
  want.offset2bag.assign(static_cast<size_t>(n), Value(0));
  for (int64_t b = 0; b < bags; ++b) {
    const int64_t begin = c.offsets[static_cast<size_t>(b)];
    const int64_t end = b + 1 < static_cast<int64_t>(c.offsets.size()) ? c.offsets[static_cast<size_t>(b + 1)] : n;
    std::vector<double> acc(static_cast<size_t>(c.dim), 0), mag(static_cast<size_t>(c.dim), 0);
    std::vector<int64_t> chosen(static_cast<size_t>(c.dim), -1);
    int64_t count = 0;
    for (int64_t j = begin; j < end; ++j) {
      want.offset2bag[static_cast<size_t>(j)] = Value(static_cast<double>(b));
      const int64_t i = c.indices[static_cast<size_t>(j)];
      if (i == c.padding) continue;
      for (int64_t d = 0; d < c.dim; ++d) {
        const double v = w[static_cast<size_t>(i * c.dim + d)].real();
        const double s = c.perSample ? scales[static_cast<size_t>(j)].real() : 1.0;
        if (c.mode == 2) {
          if (count == 0 || v > acc[static_cast<size_t>(d)]) {
            acc[static_cast<size_t>(d)] = v;
            chosen[static_cast<size_t>(d)] = i;
          }
        } else {
          acc[static_cast<size_t>(d)] += s * v;
          mag[static_cast<size_t>(d)] += std::abs(s * v);
        }
      }
      ++count;
    }
    for (int64_t d = 0; d < c.dim; ++d) {
      double v = acc[static_cast<size_t>(d)];
      if (c.mode == 1 && count > 0) v /= static_cast<double>(count);
      want.output.values.emplace_back(v);
      want.output.tolerance.push_back(4 * UnitRoundoff(ACL_FLOAT) * mag[static_cast<size_t>(d)] +
                                      UnitRoundoff(dtype) * std::abs(v));
      if (c.mode == 2) want.maxIndices.emplace_back(static_cast<double>(chosen[static_cast<size_t>(d)]));
    }
    want.bagSize.emplace_back(static_cast<double>(count));
  }
  // Indices past includeLastOffset's last offset are in no bag: PyTorch numbers them one past the last.
  if (c.includeLast && !c.offsets.empty()) {
    for (int64_t j = c.offsets.back(); j < n; ++j)
      want.offset2bag[static_cast<size_t>(j)] = Value(static_cast<double>(bags));
  }
  return want;
}

Values AsValues(const std::vector<int64_t>& v) {
  Values out;
  for (int64_t x : v) out.emplace_back(static_cast<double>(x));
  return out;
}

TEST(EmbeddingBag, MatchesReference) {
  const std::vector<BagCase> cases = {
      {5, 3, {1, 2, 0, 2, 2, 1, 4}, {0, 2, 4, 5}, 0, false, false, -1},
      {5, 3, {1, 2, 0, 2, 2, 1, 4}, {0, 2, 4, 5}, 0, false, true, 1},
      {6, 4, {5, 0, 3, 3, 1}, {0, 0, 2, 5}, 1, true, false, 3},  // an empty first bag, the last offset an end
      {6, 4, {5, 0, 3, 3, 1, 2}, {0, 3, 3}, 2, false, false, -1},
      {4, 2, {0, 1, 2, 3, 0}, {0, 1, 1, 4, 5}, 2, true, false, 2},
      {7, 5, {6, 6, 6}, {0}, 1, false, false, 6},              // every index is padding: zeros, count 0
      {5, 2, {0, 1, 2, 3, 4}, {0, 1, 3}, 0, true, false, -1},  // indices past the last offset (offset2bag: 2)
  };
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const auto& [indexDtype, offsetDtype] :
         {std::pair{ACL_INT64, ACL_INT64}, std::pair{ACL_INT32, ACL_UINT8}, std::pair{ACL_INT16, ACL_INT32}}) {
      for (size_t k = 0; k < cases.size(); ++k) {
        const BagCase& c = cases[k];
        const aclDataType countDtype = k % 2 == 0 ? ACL_INT64 : ACL_INT32;
        SCOPED_TRACE(std::string(Name(dtype)) + " " + Name(indexDtype) + "/" + Name(offsetDtype) + " case " +
                     std::to_string(k));
        Rng rng = Rng::ForCurrentTest();
        DeviceTensor weight(dtype, {c.rows, c.dim}, View::kTransposed);
        const Values w = weight.FillRandom(rng, Range{-3, 3});
        const auto n = static_cast<int64_t>(c.indices.size());
        const auto indices = Upload(indexDtype, {n}, AsValues(c.indices));
        const auto offsets = Upload(offsetDtype, {static_cast<int64_t>(c.offsets.size())}, AsValues(c.offsets));
        DeviceTensor scales(dtype, {n}, View::kStepped);
        const Values s = scales.FillRandom(rng, Range{-2, 2});
        const int64_t bags = static_cast<int64_t>(c.offsets.size()) - (c.includeLast ? 1 : 0);
        DeviceTensor output(dtype, {bags, c.dim}, View::kStepped), offset2bag(countDtype, {n});
        DeviceTensor bagSize(countDtype, {bags});
        DeviceTensor maxIndices(countDtype, c.mode == 2 ? Shape{bags, c.dim} : Shape{bags});
        ExpectRuns(
            [&](OpArgs& a, uint64_t* ws, aclOpExecutor** e) {
              return aclnnEmbeddingBagGetWorkspaceSize(a.Tensor(weight), a.Tensor(*indices), a.Tensor(*offsets), false,
                                                       c.mode, false, c.perSample ? a.Tensor(scales) : nullptr,
                                                       c.includeLast, c.padding, a.Tensor(output), a.Tensor(offset2bag),
                                                       a.Tensor(bagSize), a.Tensor(maxIndices), ws, e);
            },
            aclnnEmbeddingBag);
        const BagWant want = Reference(w, s, c, dtype);
        ExpectNear(output.ReadView(), want.output, "output");
        ExpectExact(offset2bag.ReadView(), want.offset2bag, "offset2bag");
        ExpectExact(bagSize.ReadView(), want.bagSize, "bagSize");
        if (c.mode == 2) ExpectExact(maxIndices.ReadView(), want.maxIndices, "maxIndices");
      }
    }
  }
}

// CANN's example: index 1 is padding; output [[1, 1, 1], [2, 2, 2], [1, 1, 1], [0, 0, 0]].
TEST(EmbeddingBag, CannExample) {
  const auto weight = Upload(ACL_FLOAT, {3, 3}, Values(9, Value(1)));
  const auto indices = Upload(ACL_INT64, {6}, {1, 2, 0, 2, 2, 1});
  const auto offsets = Upload(ACL_INT64, {4}, {0, 2, 4, 5});
  const auto scales = Upload(ACL_FLOAT, {6}, Values(6, Value(1)));
  DeviceTensor output(ACL_FLOAT, {4, 3}), offset2bag(ACL_INT64, {6}), bagSize(ACL_INT64, {4});
  DeviceTensor maxIndices(ACL_INT64, {4});
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnEmbeddingBagGetWorkspaceSize(a.Tensor(*weight), a.Tensor(*indices), a.Tensor(*offsets), false, 0,
                                                 false, a.Tensor(*scales), false, 1, a.Tensor(output),
                                                 a.Tensor(offset2bag), a.Tensor(bagSize), a.Tensor(maxIndices), w, e);
      },
      aclnnEmbeddingBag);
  ExpectExact(output.ReadView(), {1, 1, 1, 2, 2, 2, 1, 1, 1, 0, 0, 0}, "output");
  ExpectExact(offset2bag.ReadView(), {0, 0, 1, 1, 2, 3}, "offset2bag");
}

OpRun RunBag(const std::vector<int64_t>& indices, const std::vector<int64_t>& offsets, DeviceTensor& output,
             int64_t offset2bagCount = 4) {
  const auto i = Upload(ACL_INT64, {static_cast<int64_t>(indices.size())}, AsValues(indices));
  const auto o = Upload(ACL_INT64, {static_cast<int64_t>(offsets.size())}, AsValues(offsets));
  const auto bags = static_cast<int64_t>(offsets.size());
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnEmbeddingBagGetWorkspaceSize(a.NewTensor(ACL_FLOAT, {3, 2}), a.Tensor(*i), a.Tensor(*o), false, 0,
                                                 false, nullptr, false, -1, a.Tensor(output),
                                                 a.NewTensor(ACL_INT64, {offset2bagCount}),
                                                 a.NewTensor(ACL_INT64, {bags}), a.NewTensor(ACL_INT64, {bags}), w, e);
      },
      aclnnEmbeddingBag);
}

TEST(EmbeddingBag, BadIndicesAndOffsetsAreStreamErrors) {
  struct Case {
    std::vector<int64_t> indices, offsets;
    std::string keyword;
  };
  const std::vector<Case> cases = {{{0, 1, 3, 2}, {0, 2}, "indices[2]"},
                                   {{0, 1, -1, 2}, {0, 2}, "indices[2]"},
                                   {{0, 1, 2, 2}, {1, 2}, "offsets[0]"},
                                   {{0, 1, 2, 2}, {0, 3, 2}, "offsets[2]"},
                                   {{0, 1, 2, 2}, {0, 5}, "offsets[1]"}};
  for (const Case& c : cases) {
    DeviceTensor output(ACL_FLOAT, {static_cast<int64_t>(c.offsets.size()), 2});
    output.Poison();
    const std::vector<uint8_t> before = output.DownloadBytes();
    const OpRun run = RunBag(c.indices, c.offsets, output);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_EQ(run.sync, ACL_ERROR_RT_AICORE_EXCEPTION) << Describe(run);
    EXPECT_NE(run.message.find(c.keyword), std::string::npos) << run.message;
    EXPECT_EQ(output.DownloadBytes(), before);
  }
  DeviceTensor output(ACL_FLOAT, {2, 2});
  EXPECT_TRUE(RunBag({0, 1, 2, 2}, {0, 2}, output, 0).ok()) << "an empty offset2bag is not written";
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

struct BagArgs {
  aclDataType weight = ACL_FLOAT, indices = ACL_INT64, offsets = ACL_INT64, output = ACL_FLOAT, counts = ACL_INT64;
  Shape weightShape = {3, 2}, indicesShape = {4}, offsetsShape = {2}, outputShape = {2, 2};
  Shape offset2bag = {4}, bagSize = {2}, maxIndices = {2};
  int64_t mode = 0;
  bool perSample = false;
};

std::function<aclnnStatus(A&, W, E)> Call(BagArgs b) {
  return [=](A& a, W w, E e) {
    return aclnnEmbeddingBagGetWorkspaceSize(
        a.NewTensor(b.weight, b.weightShape), a.NewTensorIn(Range{0, 0}, b.indices, b.indicesShape),
        a.NewTensorIn(Range{0, 0}, b.offsets, b.offsetsShape), false, b.mode, false,
        b.perSample ? a.NewTensor(b.weight, b.indicesShape) : nullptr, false, -1, a.NewTensor(b.output, b.outputShape),
        a.NewTensor(b.counts, b.offset2bag), a.NewTensor(b.counts, b.bagSize), a.NewTensor(b.counts, b.maxIndices), w,
        e);
  };
}

std::vector<RejectionCase> Rejections() {
  std::vector<RejectionCase> cases;
  auto add = [&](const char* name, const char* keyword, auto change) {
    BagArgs b;
    change(b);
    cases.push_back({name, Call(b), aclnnEmbeddingBag, keyword});
  };
  add("weight_double", "'weight'", [](BagArgs& b) { b.weight = b.output = ACL_DOUBLE; });
  add("indices_float", "'indices'", [](BagArgs& b) { b.indices = ACL_FLOAT; });
  add("both_narrow", "INT32 or INT64", [](BagArgs& b) { b.indices = b.offsets = ACL_INT16; });
  add("output_dtype", "'output'", [](BagArgs& b) { b.output = ACL_FLOAT16; });
  add("counts_float", "'offset2bag'", [](BagArgs& b) { b.counts = ACL_FLOAT; });
  add("weight_1d", "'weight'", [](BagArgs& b) { b.weightShape = {6}; });
  add("indices_2d", "'indices'", [](BagArgs& b) { b.indicesShape = {2, 2}; });
  add("max_indices_1d_in_max", "'maxIndices'", [](BagArgs& b) { b.mode = 2; });
  add("per_sample_mean", "'perSampleWeights'", [](BagArgs& b) {
    b.mode = 1;
    b.perSample = true;
  });
  add("output_shape", "'output'", [](BagArgs& b) { b.outputShape = {3, 2}; });
  add("offset2bag_count", "'offset2bag'", [](BagArgs& b) { b.offset2bag = {3}; });
  add("bag_size_count", "'bagSize'", [](BagArgs& b) { b.bagSize = {3}; });
  add("max_indices_count", "'maxIndices'", [](BagArgs& b) { b.maxIndices = {1}; });
  return cases;
}

class EmbeddingBagRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(EmbeddingBagRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, EmbeddingBagRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
