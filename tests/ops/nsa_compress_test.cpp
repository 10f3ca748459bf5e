// aclnnNsaCompress against a float64 reference: each sequence's windows of
// compressBlockSize tokens every compressStride tokens, rows weighted per head
// and summed; f16 and bf16, strided input, weight and output views, sequences
// shorter than a window (no output row) or empty, overlapping windows, the
// doc's limits and example, and every rejection with its code.
#include <gtest/gtest.h>

#include <cmath>

#include "aclnnop/aclnn_nsa_compress.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT16;
  std::vector<int64_t> lengths = {64};  // per sequence
  int64_t heads = 4, dim = 32, block = 32, stride = 32;
  View input_view = View::kContiguous, weight_view = View::kContiguous, output_view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

std::vector<int64_t> WindowStarts(const Case& c) {
  std::vector<int64_t> starts;
  int64_t begin = 0;
  for (int64_t n : c.lengths) {
    for (int64_t s = 0; s + c.block <= n; s += c.stride) starts.push_back(begin + s);
    begin += n;
  }
  return starts;
}

// The output and, per element, the sum of the magnitudes of its terms.
Expected Reference(const Case& c, const Values& x, const Values& w) {
  Values out;
  std::vector<double> magnitude;
  for (int64_t start : WindowStarts(c)) {
    for (int64_t n = 0; n < c.heads; ++n) {
      for (int64_t d = 0; d < c.dim; ++d) {
        double sum = 0, size = 0;
        for (int64_t j = 0; j < c.block; ++j) {
          const double term = w[static_cast<size_t>(j * c.heads + n)].real() *
                              x[static_cast<size_t>(((start + j) * c.heads + n) * c.dim + d)].real();
          sum += term;
          size += std::abs(term);
        }
        out.emplace_back(sum);
        magnitude.push_back(size);
      }
    }
  }
  return RelativeTolerance(out, c.dtype, 2, magnitude);
}

OpRun RunCompress(const DeviceTensor& input, const DeviceTensor& weight, const std::vector<int64_t>& ends,
                  int64_t block, int64_t stride, const DeviceTensor& output) {
  char layout[] = "TND";
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaCompressGetWorkspaceSize(a.Tensor(input), a.Tensor(weight), a.IntArray(ends), layout, block,
                                                stride, 0, a.Tensor(output), w, e);
      },
      aclnnNsaCompress);
}

class NsaCompressTest : public ::testing::TestWithParam<Case> {};

TEST_P(NsaCompressTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const std::vector<int64_t> ends = PrefixSums(c.lengths);
  const auto windows = static_cast<int64_t>(WindowStarts(c).size());
  DeviceTensor input(c.dtype, {ends.back(), c.heads, c.dim}, c.input_view);
  DeviceTensor weight(c.dtype, {c.block, c.heads}, c.weight_view);
  DeviceTensor output(c.dtype, {windows, c.heads, c.dim}, c.output_view);
  const Values x = input.FillRandom(rng, Range{-2, 2}), w = weight.FillRandom(rng, Range{-1, 1});
  output.Poison();
  const std::vector<uint8_t> before = output.DownloadBytes();
  const OpRun run = RunCompress(input, weight, ends, c.block, c.stride, output);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(output.ReadView(), Reference(c, x, w), "output");
  ExpectOutsideViewUnchanged(output, before, "output");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string t = Name(dtype);
    cases.push_back({.dtype = dtype, .name = t + "_one_sequence"});
    cases.push_back({.dtype = dtype,
                     .lengths = {80, 16, 0, 96, 47},
                     .heads = 3,
                     .dim = 48,
                     .block = 32,
                     .stride = 16,
                     .name = t + "_overlapping_windows_short_and_empty_sequences"});
    cases.push_back({.dtype = dtype,
                     .lengths = {70, 33},
                     .heads = 2,
                     .dim = 16,
                     .block = 32,
                     .stride = 32,
                     .input_view = View::kStepped,
                     .weight_view = View::kTransposed,
                     .output_view = View::kStepped,
                     .name = t + "_stepped_input_and_output_transposed_weight"});
    cases.push_back({.dtype = dtype,
                     .lengths = {48, 64},
                     .heads = 5,
                     .dim = 32,
                     .block = 48,
                     .stride = 16,
                     .input_view = View::kTransposed,
                     .weight_view = View::kStepped,
                     .output_view = View::kTransposed,
                     .name = t + "_transposed_input_and_output"});
    cases.push_back({.dtype = dtype,
                     .lengths = {256},
                     .heads = 2,
                     .dim = 256,
                     .block = 128,
                     .stride = 64,
                     .input_view = View::kOffset,
                     .output_view = View::kOffset,
                     .name = t + "_largest_block_and_dim"});
    cases.push_back({.dtype = dtype,
                     .lengths = {32, 32},
                     .heads = 128,
                     .dim = 16,
                     .block = 16,
                     .stride = 16,
                     .name = t + "_most_heads"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, NsaCompressTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: one sequence of 64 tokens, 4 heads of 32, block and
// stride 32, every input and weight 1: two rows of 32s.
TEST(NsaCompress, DocExample) {
  DeviceTensor input(ACL_FLOAT16, {64, 4, 32}), weight(ACL_FLOAT16, {32, 4}), output(ACL_FLOAT16, {2, 4, 32});
  input.WriteView(Values(static_cast<size_t>(input.numel()), 1.0));
  weight.WriteView(Values(static_cast<size_t>(weight.numel()), 1.0));
  output.Poison();
  const OpRun run = RunCompress(input, weight, {64}, 32, 32, output);
  ASSERT_TRUE(run.ok()) << Describe(run);
  for (const Value& v : output.ReadView()) ASSERT_EQ(v.real(), 32.0);
}

// A second call of the same shapes reads the new values and addresses (plan-cache hit).
TEST(NsaCompress, RepeatedCallUsesNewBuffers) {
  const Case c{.dtype = ACL_BF16, .lengths = {40, 72}, .heads = 2, .dim = 16, .block = 32, .stride = 16};
  for (int round = 0; round < 2; ++round) {
    Rng rng(static_cast<uint64_t>(round) + 7);
    DeviceTensor input(c.dtype, {112, 2, 16}), weight(c.dtype, {32, 2}), output(c.dtype, {4, 2, 16});
    const Values x = input.FillRandom(rng, Range{-2, 2}), w = weight.FillRandom(rng, Range{-1, 1});
    output.Poison();
    const OpRun run = RunCompress(input, weight, PrefixSums(c.lengths), c.block, c.stride, output);
    ASSERT_TRUE(run.ok()) << Describe(run);
    ExpectNear(output.ReadView(), Reference(c, x, w), "output");
  }
}

struct Call {
  aclDataType input = ACL_FLOAT16, weight = ACL_FLOAT16, output = ACL_FLOAT16;
  Shape is = {64, 4, 32}, ws = {32, 4}, os = {2, 4, 32};
  std::vector<int64_t> ends = {64};
  bool null_ends = false;
  std::string layout = "TND";
  int64_t block = 32, stride = 32, type = 0;
};

OpRun RunCall(const Call& c) {
  std::string layout = c.layout;
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaCompressGetWorkspaceSize(a.NewTensor(c.input, c.is), a.NewTensor(c.weight, c.ws),
                                                c.null_ends ? nullptr : a.IntArray(c.ends), layout.data(), c.block,
                                                c.stride, c.type, a.NewTensor(c.output, c.os), w, e);
      },
      aclnnNsaCompress);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(NsaCompressRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
  EXPECT_TRUE(RunCall(Call{}).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.null_ends = true; })), ACLNN_ERR_PARAM_NULLPTR,
                     {"actSeqLenOptional"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.weight = ACL_BF16; })), kInvalid, {"'weight'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.output = ACL_BF16; })), kInvalid, {"'output'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.input = c.weight = c.output = ACL_FLOAT; })), kInvalid, {"'input'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.is = {64, 128}; })), kInvalid, {"'input'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ws = {32, 4, 1}; })), kInvalid, {"'weight'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.os = {2, 128}; })), kInvalid, {"'output'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {64, 0, 32};
                       c.ws = {32, 0};
                       c.os = {2, 0, 32};
                     })),
                     kInvalid, {"'input'", "positive"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ws = {16, 4}; })), kInvalid, {"'weight'", "compressBlockSize"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ws = {32, 2}; })), kInvalid, {"'weight'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.layout = "BSND"; })), kInvalid, {"'layoutOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ends = {}; })), kInvalid, {"'actSeqLenOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.type = 1; })), kInvalid, {"'actSeqLenType'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {64, 129, 32};
                       c.ws = {32, 129};
                       c.os = {2, 129, 32};
                     })),
                     kInvalid, {"'input'", "heads"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {64, 4, 24};
                       c.os = {2, 4, 24};
                     })),
                     kInvalid, {"'input'", "head dim"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {64, 4, 272};
                       c.os = {2, 4, 272};
                     })),
                     kInvalid, {"'input'", "head dim"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.block = 24;
                       c.ws = {24, 4};
                     })),
                     kInvalid, {"'compressBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.block = 144;
                       c.ws = {144, 4};
                       c.is = {144, 4, 32};
                       c.ends = {144};
                       c.os = {1, 4, 32};
                     })),
                     kInvalid, {"'compressBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.stride = 0; })), kInvalid, {"'compressStride'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.stride = 8; })), kInvalid, {"'compressStride'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.stride = 48; })), kInvalid, {"'compressStride'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {0, 4, 32};
                       c.ends = {0};
                       c.os = {0, 4, 32};
                     })),
                     kInvalid, {"'input'", "empty"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ends = {40, 30, 64}; })), kInvalid, {"'actSeqLenOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ends = {32}; })), kInvalid, {"actSeqLenOptional", "64"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ends = {96}; })), kInvalid, {"actSeqLenOptional", "64"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.os = {3, 4, 32}; })), kInvalid, {"'output'", "[2,4,32]"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {16, 4, 32};
                       c.ends = {16};
                       c.os = {0, 4, 32};
                     })),
                     kInvalid, {"'output'", "empty"});
  // Two sequences of 32 give one row each; one of 64 with stride 16 gives three.
  EXPECT_TRUE(RunCall(With([](Call& c) { c.ends = {32, 64}; })).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.stride = 16;
                c.os = {3, 4, 32};
              })).ok());
}

}  // namespace
}  // namespace canopy_test
