// aclnnNsaCompressWithCache against a float64 reference: every batch whose
// length has just completed a window has its last compressBlockSize tokens,
// read through the block table from the paged input, weighted per head and
// summed into its slotMapping row of outputCache; other rows keep their
// values. f16 and bf16, windows across pages, batches that do not compress,
// strided views, no lengths, the doc's example, run-time index faults and
// every rejection with its code.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "aclnnop/aclnn_nsa_compress_with_cache.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  aclDataType dtype = ACL_FLOAT16;
  std::vector<int64_t> lengths = {32, 80, 40, 96, 10};
  int64_t heads = 2, dim = 16, block = 32, stride = 16, page = 64, pages_per_batch = 2, out_rows = 8;
  View input_view = View::kContiguous, weight_view = View::kContiguous, output_view = View::kContiguous;
  std::string name = {};
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

bool Compresses(const Case& c, int64_t len) { return len >= c.block && (len - c.block) % c.stride == 0; }

// outputCache after the op, from its values before.
Expected Reference(const Case& c, const Values& in, const Values& w, const std::vector<int64_t>& slots,
                   const std::vector<int64_t>& table, const Values& before) {
  Values out = before;
  const int64_t row = c.heads * c.dim;
  std::vector<double> magnitude(before.size(), 0.0);
  for (size_t b = 0; b < c.lengths.size(); ++b) {
    const int64_t len = c.lengths[b];
    if (!Compresses(c, len)) continue;
    const int64_t slot = slots[b];
    for (int64_t i = 0; i < row; ++i) {
      double sum = 0, size = 0;
      for (int64_t j = 0; j < c.block; ++j) {
        const int64_t token = len - c.block + j;
        const int64_t page = table[b * static_cast<size_t>(c.pages_per_batch) + static_cast<size_t>(token / c.page)];
        const double term = w[static_cast<size_t>(j * c.heads + i / c.dim)].real() *
                            in[static_cast<size_t>((page * c.page + token % c.page) * row + i)].real();
        sum += term;
        size += std::abs(term);
      }
      out[static_cast<size_t>(slot * row + i)] = sum;
      magnitude[static_cast<size_t>(slot * row + i)] = size;
    }
  }
  return RelativeTolerance(out, c.dtype, 2, magnitude);
}

std::vector<int64_t> ToInts(const Values& v) {
  std::vector<int64_t> ints;
  for (const Value& x : v) ints.push_back(static_cast<int64_t>(x.real()));
  return ints;
}

struct Tensors {
  DeviceTensor input, weight, slots, table, output;
  Tensors(const Case& c, int64_t pages)
      : input(c.dtype, {pages, c.page, c.heads, c.dim}, c.input_view),
        weight(c.dtype, {c.block, c.heads}, c.weight_view),
        slots(ACL_INT32, {static_cast<int64_t>(c.lengths.size())}),
        table(ACL_INT32, {static_cast<int64_t>(c.lengths.size()), c.pages_per_batch}),
        output(c.dtype, {c.out_rows, c.heads, c.dim}, c.output_view) {}
};

OpRun RunCompress(const Case& c, const Tensors& t, bool with_lengths = true) {
  char layout[] = "TND";
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaCompressWithCacheGetWorkspaceSize(
            a.Tensor(t.input), a.Tensor(t.weight), a.Tensor(t.slots), with_lengths ? a.IntArray(c.lengths) : nullptr,
            a.Tensor(t.table), layout, c.block, c.stride, 1, c.page, a.Tensor(t.output), w, e);
      },
      aclnnNsaCompressWithCache);
}

// Distinct slots and pages, shuffled, so that every index matters.
void FillIndices(const Case& c, Rng& rng, Tensors& t, int64_t pages) {
  std::vector<double> slots(static_cast<size_t>(c.out_rows)), table(static_cast<size_t>(pages));
  std::iota(slots.begin(), slots.end(), 0.0);
  std::iota(table.begin(), table.end(), 0.0);
  std::shuffle(slots.begin(), slots.end(), std::mt19937_64(rng.seed()));
  std::shuffle(table.begin(), table.end(), std::mt19937_64(rng.seed() + 1));
  slots.resize(c.lengths.size());
  table.resize(c.lengths.size() * static_cast<size_t>(c.pages_per_batch));
  t.slots.WriteView(Values(slots.begin(), slots.end()));
  t.table.WriteView(Values(table.begin(), table.end()));
}

// Random input, weight and cache values; returns the cache's.
Values FillValues(Rng& rng, Tensors& t) {
  t.input.FillRandom(rng, Range{-2, 2});
  t.weight.FillRandom(rng, Range{-1, 1});
  return t.output.FillRandom(rng, Range{-3, 3});
}

class NsaCompressWithCacheTest : public ::testing::TestWithParam<Case> {};

TEST_P(NsaCompressWithCacheTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  const int64_t pages = static_cast<int64_t>(c.lengths.size()) * c.pages_per_batch + 1;
  Tensors t(c, pages);
  const Values in = t.input.FillRandom(rng, Range{-2, 2}), w = t.weight.FillRandom(rng, Range{-1, 1});
  const Values before = t.output.FillRandom(rng, Range{-3, 3});
  FillIndices(c, rng, t, pages);
  const std::vector<uint8_t> storage = t.output.DownloadBytes();
  const OpRun run = RunCompress(c, t);
  ASSERT_TRUE(run.ok()) << Describe(run);
  ExpectNear(t.output.ReadView(), Reference(c, in, w, ToInts(t.slots.ReadView()), ToInts(t.table.ReadView()), before),
             "outputCache");
  ExpectOutsideViewUnchanged(t.output, storage, "outputCache");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (aclDataType dtype : {ACL_FLOAT16, ACL_BF16}) {
    const std::string n = Name(dtype);
    cases.push_back({.dtype = dtype, .name = n + "_windows_across_pages"});
    cases.push_back({.dtype = dtype,
                     .lengths = {64, 128, 48, 112, 0, 200},
                     .heads = 64,
                     .dim = 32,
                     .block = 64,
                     .stride = 48,
                     .page = 128,
                     .pages_per_batch = 2,
                     .out_rows = 12,
                     .name = n + "_largest_block_and_heads"});
    cases.push_back({.dtype = dtype,
                     .lengths = {48, 32, 64},
                     .heads = 3,
                     .dim = 48,
                     .block = 16,
                     .stride = 16,
                     .page = 64,
                     .pages_per_batch = 1,
                     .out_rows = 5,
                     .input_view = View::kStepped,
                     .weight_view = View::kTransposed,
                     .output_view = View::kStepped,
                     .name = n + "_stepped_input_and_cache"});
    cases.push_back({.dtype = dtype,
                     .lengths = {96, 160},
                     .heads = 50 + 2,
                     .dim = 16,
                     .block = 64,
                     .stride = 32,
                     .page = 128,
                     .pages_per_batch = 2,
                     .out_rows = 3,
                     .input_view = View::kOffset,
                     .output_view = View::kTransposed,
                     .name = n + "_even_heads_above_50_transposed_cache"});
  }
  return cases;
}

INSTANTIATE_TEST_SUITE_P(All, NsaCompressWithCacheTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// The doc's example: 4 batches, 24 heads of 192, pages of 128, block 32 and
// stride 16, lengths {32, 0, 0, 0}, zero slots and block table, every value 1:
// row 0 becomes 32, the other 511 rows keep their 1.
TEST(NsaCompressWithCache, DocExample) {
  const Case c{.lengths = {32, 0, 0, 0},
               .heads = 24,
               .dim = 192,
               .block = 32,
               .stride = 16,
               .page = 128,
               .pages_per_batch = 4,
               .out_rows = 512};
  Tensors t(c, 16);
  t.input.WriteView(Values(static_cast<size_t>(t.input.numel()), 1.0));
  t.weight.WriteView(Values(static_cast<size_t>(t.weight.numel()), 1.0));
  t.slots.WriteView(Values(4, 0.0));
  t.table.WriteView(Values(16, 0.0));
  t.output.WriteView(Values(static_cast<size_t>(t.output.numel()), 1.0));
  const OpRun run = RunCompress(c, t);
  ASSERT_TRUE(run.ok()) << Describe(run);
  const Values out = t.output.ReadView();
  for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i].real(), i < 24 * 192 ? 32.0 : 1.0) << i;
}

// No lengths: no batch compresses, and the cache keeps its values.
TEST(NsaCompressWithCache, NoLengthsWritesNothing) {
  const Case c;
  Rng rng = Rng::ForCurrentTest();
  Tensors t(c, 11);
  const Values before = FillValues(rng, t);
  FillIndices(c, rng, t, 11);
  const OpRun run = RunCompress(c, t, /*with_lengths=*/false);
  ASSERT_TRUE(run.ok()) << Describe(run);
  EXPECT_EQ(run.workspaceSize, 0U);
  ExpectNear(t.output.ReadView(), RelativeTolerance(before, c.dtype, 0), "outputCache");
}

// A slot or page index out of range fails the run and leaves the cache alone.
TEST(NsaCompressWithCache, IndexOutOfRangeFailsTheRun) {
  for (const auto& [slot, page] :
       {std::pair{8.0, 0.0}, std::pair{-1.0, 0.0}, std::pair{0.0, 11.0}, std::pair{0.0, -2.0}}) {
    const Case c;
    Rng rng = Rng::ForCurrentTest();
    Tensors t(c, 11);
    const Values before = FillValues(rng, t);
    t.slots.WriteView({1.0, slot, 2.0, 3.0, 4.0});
    // batch 1 (length 80) reads its pages 0 and 1
    t.table.WriteView({0.0, 1.0, 2.0, page, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0});
    const OpRun run = RunCompress(c, t);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
    ExpectNear(t.output.ReadView(), RelativeTolerance(before, c.dtype, 0), "outputCache");
  }
}

struct Call {
  aclDataType input = ACL_FLOAT16, weight = ACL_FLOAT16, output = ACL_FLOAT16, slots = ACL_INT32, table = ACL_INT32;
  Shape is = {4, 64, 2, 16}, ws = {32, 2}, os = {4, 2, 16}, ss = {2}, ts = {2, 2};
  std::vector<int64_t> lengths = {32, 80};
  bool null_table = false, null_layout = false;
  std::string layout = "TND";
  int64_t block = 32, stride = 16, type = 1, page = 64;
};

OpRun RunCall(const Call& c) {
  std::string layout = c.layout;
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnNsaCompressWithCacheGetWorkspaceSize(
            a.NewTensor(c.input, c.is), a.NewTensor(c.weight, c.ws),
            a.NewTensorIn(Range{0, 3, 0, 0, true}, c.slots, c.ss), a.IntArray(c.lengths),
            c.null_table ? nullptr : a.NewTensorIn(Range{0, 3, 0, 0, true}, c.table, c.ts),
            c.null_layout ? nullptr : layout.data(), c.block, c.stride, c.type, c.page, a.NewTensor(c.output, c.os), w,
            e);
      },
      aclnnNsaCompressWithCache);
}

template <typename Edit>
Call With(Edit edit) {
  Call c;
  edit(c);
  return c;
}

TEST(NsaCompressWithCacheRejects, EachCase) {
  constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  EXPECT_TRUE(RunCall(Call{}).ok());
  ExpectRejectedWith(RunCall(With([](Call& c) { c.input = c.weight = c.output = ACL_FLOAT; })), kInvalid, {"'input'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.weight = ACL_INT8; })), kInvalid, {"'weight'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.output = ACL_FLOAT; })), kInvalid, {"'outputCache'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.slots = ACL_INT64; })), kInvalid, {"'slotMapping'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.table = ACL_INT64; })), kInvalid, {"'blockTableOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.weight = ACL_BF16; })), kInvalid, {"'weight'", "match"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.output = ACL_BF16; })), kInvalid, {"'outputCache'", "match"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.block = 24;
                       c.ws = {24, 2};
                     })),
                     kTiling, {"'compressBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.stride = 8; })), kTiling, {"'compressStride'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.stride = 0; })), kTiling, {"'compressStride'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.stride = 48; })), kTiling, {"'compressStride'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.type = 0; })), kTiling, {"'actSeqLenType'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.is = {256, 2, 16}; })), kTiling, {"'input'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ws = {32, 2, 1}; })), kTiling, {"'weight'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.os = {4, 32}; })), kTiling, {"'outputCache'", "rank"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ws = {32, 3}; })), kTiling, {"'weight'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ws = {16, 2}; })), kTiling, {"'weight'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.os = {4, 1, 16}; })), kTiling, {"'outputCache'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.os = {4, 2, 32}; })), kTiling, {"'outputCache'"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {4, 64, 2, 24};
                       c.os = {4, 2, 24};
                     })),
                     kTiling, {"head dim"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.block = 80;
                       c.ws = {80, 2};
                       c.lengths = {80, 96};
                     })),
                     kTiling, {"'compressBlockSize'", "64"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {4, 64, 0, 16};
                       c.ws = {32, 0};
                       c.os = {4, 0, 16};
                     })),
                     kTiling, {"heads"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {4, 64, 66, 16};
                       c.ws = {32, 66};
                       c.os = {4, 66, 16};
                     })),
                     kTiling, {"heads"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.is = {4, 64, 51, 16};
                       c.ws = {32, 51};
                       c.os = {4, 51, 16};
                     })),
                     kTiling, {"heads"});
  ExpectRejectedWith(RunCall(With([](Call& c) {
                       c.lengths = std::vector<int64_t>(2049, 0);
                       c.ss = {2049};
                       c.ts = {2049, 2};
                     })),
                     kTiling, {"'actSeqLenOptional'", "2048"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.layout = "NTD"; })), kTiling, {"'layoutOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.page = 32; })), kTiling, {"'pageBlockSize'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.page = 128; })), kTiling, {"'input'", "pageBlockSize"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ss = {3}; })), kTiling, {"'slotMapping'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.null_table = true; })), kTiling, {"'blockTableOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.ts = {3, 2}; })), kTiling, {"'blockTableOptional'"});
  ExpectRejectedWith(RunCall(With([](Call& c) { c.lengths = {32, 144}; })), kTiling, {"actSeqLenOptional[1]"});
  // What CANN's checks let through: a lower-case layout, none at all, a null
  // block table when no batch compresses (lengths 0 and 40, and 40 - 32 is no
  // multiple of 16), a batch longer than its pages that does not compress now.
  EXPECT_TRUE(RunCall(With([](Call& c) { c.layout = "bsnd"; })).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.null_layout = true; })).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) {
                c.null_table = true;
                c.lengths = {0, 40};
              })).ok());
  EXPECT_TRUE(RunCall(With([](Call& c) { c.lengths = {32, 150}; })).ok());
}

}  // namespace
}  // namespace canopy_test
