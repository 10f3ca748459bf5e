// aclnnAdvanceStep against an exact reference of what CANN's A2 kernel
// computes: for each query i, inputTokens[i] = sampledTokenIds[i],
// inputPositions[i] = seqLens[i], seqLens[i] + 1, and slotMapping[i] =
// (blockTables_flat[s / blockSize] + stride * i) * blockSize + s % blockSize
// (s the old seqLens[i], stride the table's row length); the padding
// sequences 0, 0 and -1. Strided views, a one-column table, a table read past
// its end (a stream error, nothing written) and every rejection.
#include <gtest/gtest.h>

#include "aclnnop/aclnn_advance_step.h"
#include "llm_test_support.h"

namespace canopy_test {
namespace {

struct Case {
  int64_t seqs = 9, queries = 6, block_size = 16, table_columns = 5;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

constexpr aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID;
constexpr aclnnStatus kTiling = ACLNN_ERR_INNER_TILING_ERROR;

struct Data {
  std::unique_ptr<DeviceTensor> tokens, sampled, positions, seq_lens, slots, tables;
  Values sampled_v, seq_v, table_v, tokens_v, positions_v, slots_v;
};

// seqLens below blockSize * the table's elements, so that every flattened read is inside the table.
Data Make(const Case& c, Rng& rng) {
  Data d;
  d.tokens = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs}, c.view);
  d.tokens_v = d.tokens->FillRandom(rng, Range{1, 30000});
  d.sampled = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.queries, 1}, c.view);
  d.sampled_v = d.sampled->FillRandom(rng, Range{1, 30000});
  d.positions = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs}, c.view);
  d.positions_v = d.positions->FillRandom(rng, Range{1, 500});
  d.seq_lens = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs}, c.view);
  const int64_t table_elements = c.seqs * c.table_columns;
  d.seq_v = d.seq_lens->FillRandom(rng, Range{1, static_cast<double>(c.block_size * table_elements - 1)});
  d.slots = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs}, c.view);
  d.slots_v = d.slots->FillRandom(rng, Range{1, 500});
  d.tables = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs, c.table_columns}, c.view);
  d.table_v = d.tables->FillRandom(rng, Range{0, 1000});
  return d;
}

OpRun RunStep(const Case& c, Data& d) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAdvanceStepGetWorkspaceSize(a.Tensor(*d.tokens), a.Tensor(*d.sampled), a.Tensor(*d.positions),
                                                a.Tensor(*d.seq_lens), a.Tensor(*d.slots), a.Tensor(*d.tables), c.seqs,
                                                c.queries, c.block_size, w, e);
      },
      aclnnAdvanceStep);
}

void Check(const Case& c, const Data& d) {
  Values tokens = d.tokens_v, positions = d.positions_v, seq_lens = d.seq_v, slots = d.slots_v;
  for (int64_t i = 0; i < c.seqs; ++i) {
    const auto at = static_cast<size_t>(i);
    if (i >= c.queries) {
      tokens[at] = 0.0;
      positions[at] = 0.0;
      slots[at] = -1.0;
      continue;
    }
    const auto s = static_cast<int64_t>(d.seq_v[at].real());
    const auto block = static_cast<int64_t>(d.table_v[static_cast<size_t>(s / c.block_size)].real());
    tokens[at] = d.sampled_v[at];
    positions[at] = static_cast<double>(s);
    seq_lens[at] = static_cast<double>(s + 1);
    slots[at] = static_cast<double>((block + c.table_columns * i) * c.block_size + s % c.block_size);
  }
  ExpectExact(d.tokens->ReadView(), tokens, "inputTokens");
  ExpectExact(d.positions->ReadView(), positions, "inputPositions");
  ExpectExact(d.seq_lens->ReadView(), seq_lens, "seqLens");
  ExpectExact(d.slots->ReadView(), slots, "slotMapping");
}

std::vector<Case> Cases() {
  Case base;
  base.name = "typical";
  Case strided = base;
  strided.view = View::kStepped;
  strided.name = "stepped_views";
  Case one_column;
  one_column.seqs = 40;
  one_column.queries = 33;
  one_column.block_size = 1;
  one_column.table_columns = 1;
  one_column.name = "block_size_1_one_column";
  Case large_block;
  large_block.block_size = 128;
  large_block.table_columns = 2;
  large_block.seqs = 3;
  large_block.queries = 2;
  large_block.name = "block_size_128";
  return {base, strided, one_column, large_block};
}

class AdvanceStepTest : public ::testing::TestWithParam<Case> {};
TEST_P(AdvanceStepTest, MatchesReference) {
  const Case& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  const OpRun run = RunStep(c, d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Check(c, d);
}
INSTANTIATE_TEST_SUITE_P(All, AdvanceStepTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) { return SanitizeName(info.param.name); });

// A sequence length whose block number passes the flattened table fails the run, every output untouched.
TEST(AdvanceStep, TableReadPastItsEndFailsTheRun) {
  for (double bad : {16.0 * 45, -17.0}) {
    Case c;
    Rng rng = Rng::ForCurrentTest();
    Data d = Make(c, rng);
    d.seq_v[3] = bad;
    d.seq_lens->WriteView(d.seq_v);
    const OpRun run = RunStep(c, d);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_FALSE(run.ok()) << Describe(run);
    EXPECT_NE(run.message.find("blockTables"), std::string::npos) << run.message;
    ExpectExact(d.seq_lens->ReadView(), d.seq_v, "seqLens");
    ExpectExact(d.tokens->ReadView(), d.tokens_v, "inputTokens");
    ExpectExact(d.slots->ReadView(), d.slots_v, "slotMapping");
  }
}

TEST(AdvanceStepRejects, EachCase) {
  const auto expect = [](Case c, const std::function<void(Case&, Data&)>& edit, aclnnStatus status,
                         std::vector<std::string> words) {
    Rng rng(3);
    Data d = Make(c, rng);
    edit(c, d);
    ExpectRejectedWith(RunStep(c, d), status, words);
  };
  const Case c;
  expect(c, [](Case&, Data& d) { d.tokens = std::make_unique<DeviceTensor>(ACL_INT32, Shape{9}); }, kInvalid,
         {"'inputTokens'"});
  expect(c,
         [](Case&, Data& d) {
           d.sampled = std::make_unique<DeviceTensor>(ACL_INT32, Shape{6, 1});
         },
         kInvalid, {"'sampledTokenIds'"});
  expect(c,
         [](Case&, Data& d) {
           d.tables = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{9, 5});
         },
         kInvalid, {"'blockTables'"});
  expect(c, [](Case& e, Data&) { e.seqs = 0; }, kTiling, {"'numSeqs'"});
  expect(c, [](Case& e, Data&) { e.queries = 0; }, kTiling, {"'numQueries'"});
  expect(c, [](Case& e, Data&) { e.block_size = 0; }, kTiling, {"'blockSize'"});
  expect(c, [](Case& e, Data&) { e.seqs = 6; }, kTiling, {"numQueries"});
  expect(c, [](Case& e, Data&) { e.seqs = 200000000; }, kTiling, {"'numSeqs'"});
  expect(c, [](Case&, Data& d) { d.tokens = std::make_unique<DeviceTensor>(ACL_INT64, Shape{8}); }, kTiling,
         {"'inputTokens'"});
  expect(c, [](Case&, Data& d) { d.positions = std::make_unique<DeviceTensor>(ACL_INT64, Shape{10}); }, kTiling,
         {"'inputPositions'"});
  expect(c, [](Case&, Data& d) { d.seq_lens = std::make_unique<DeviceTensor>(ACL_INT64, Shape{8}); }, kTiling,
         {"'seqLens'"});
  expect(c, [](Case&, Data& d) { d.slots = std::make_unique<DeviceTensor>(ACL_INT64, Shape{8}); }, kTiling,
         {"'slotMapping'"});
  expect(c,
         [](Case&, Data& d) {
           d.tables = std::make_unique<DeviceTensor>(ACL_INT64, Shape{8, 5});
         },
         kTiling, {"'blockTables'"});
  expect(c,
         [](Case&, Data& d) {
           d.sampled = std::make_unique<DeviceTensor>(ACL_INT64, Shape{5, 1});
         },
         kTiling, {"'sampledTokenIds'"});
  expect(c,
         [](Case&, Data& d) {
           d.sampled = std::make_unique<DeviceTensor>(ACL_INT64, Shape{6, 2});
         },
         kTiling, {"'sampledTokenIds'"});
}

}  // namespace
}  // namespace canopy_test
