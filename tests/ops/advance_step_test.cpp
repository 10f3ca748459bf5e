// aclnnAdvanceStep against an exact reference of what CANN's A2 kernel
// computes: for each query i, inputTokens[i] = sampledTokenIds[i],
// inputPositions[i] = seqLens[i], seqLens[i] + 1, and slotMapping[i] =
// (blockTables_flat[s / blockSize] + stride * i) * blockSize + s % blockSize
// (s the old seqLens[i], stride the table's row length); the padding
// sequences 0, 0 and -1. Strided views, a one-column table, a table read past
// its end (a stream error, nothing written) and every rejection. Then
// aclnnAdvanceStepV2's speculative form against its int32 reference (the last
// accepted token before the first -1, the spec tokens after it, positions
// advanced by acceptedNum + 1, slots from each request's table row), its
// fallback to AdvanceStep without spec tokens, its stream errors and rejections.
#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "aclnnop/aclnn_advance_step.h"
#include "aclnnop/aclnn_advance_step_v2.h"
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

// int64 arithmetic wraps as the kernel's does: seqLens INT64_MAX with blockSize
// INT64_MAX reads block 1 (inside the table) and gives seqLens INT64_MIN and the
// slot (3 + 0) * INT64_MAX + 0, mod 2^64: INT64_MAX - 2 (signed overflow before).
TEST(AdvanceStep, Int64ArithmeticWraps) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  auto bytes = [](const std::vector<int64_t>& v) {
    std::vector<uint8_t> b(v.size() * 8);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
  };
  auto values = [](const DeviceTensor& t) {
    const std::vector<uint8_t> b = t.DownloadBytes();
    std::vector<int64_t> v(b.size() / 8);
    std::memcpy(v.data(), b.data(), b.size());
    return v;
  };
  DeviceTensor tokens(ACL_INT64, {2}), sampled(ACL_INT64, {1, 1}), positions(ACL_INT64, {2}), seqLens(ACL_INT64, {2}),
      slots(ACL_INT64, {2}), tables(ACL_INT64, {2, 2});
  tokens.UploadBytes(bytes({7, 7}));
  sampled.UploadBytes(bytes({42}));
  positions.UploadBytes(bytes({1, 1}));
  seqLens.UploadBytes(bytes({kMax, 5}));
  slots.UploadBytes(bytes({9, 9}));
  tables.UploadBytes(bytes({3, 3, 3, 3}));
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAdvanceStepGetWorkspaceSize(a.Tensor(tokens), a.Tensor(sampled), a.Tensor(positions),
                                                a.Tensor(seqLens), a.Tensor(slots), a.Tensor(tables), 2, 1, kMax, w, e);
      },
      aclnnAdvanceStep);
  EXPECT_EQ(values(seqLens)[0], std::numeric_limits<int64_t>::min());
  EXPECT_EQ(values(positions)[0], kMax);
  EXPECT_EQ(values(slots)[0], kMax - 2);
  EXPECT_EQ(values(tokens)[0], 42);
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

// ---- AdvanceStepV2 (speculative) ----

struct SpecCase {
  int64_t seqs = 5, spec = 2, block_size = 8, columns = 4;
  View view = View::kContiguous;
  std::string name;
};

void PrintTo(const SpecCase& c, std::ostream* os) { *os << c.name; }

struct SpecData {
  std::unique_ptr<DeviceTensor> tokens, sampled, positions, seq_lens, slots, tables, spec, accepted;
  Values sampled_v, positions_v, table_v, spec_v, accepted_v;
};

// Sampled rows: the first token accepted, then each later one rejected (-1) from a random point on.
SpecData MakeSpec(const SpecCase& c, Rng& rng) {
  SpecData d;
  const int64_t t = c.spec + 1, n = c.seqs * t;
  d.tokens = std::make_unique<DeviceTensor>(ACL_INT64, Shape{n}, c.view);
  d.tokens->FillRandom(rng, Range{1, 100});
  d.sampled = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs, t}, c.view);
  d.sampled_v = d.sampled->FillRandom(rng, Range{1, 30000});
  for (int64_t i = 0; i < c.seqs; ++i) {
    const auto kept = static_cast<int64_t>(rng.Uniform(1, static_cast<double>(t + 1)));
    for (int64_t j = kept; j < t; ++j) d.sampled_v[static_cast<size_t>(i * t + j)] = -1.0;
  }
  d.sampled->WriteView(d.sampled_v);
  d.positions = std::make_unique<DeviceTensor>(ACL_INT64, Shape{n}, c.view);
  const double max_position = static_cast<double>(c.block_size * c.columns - c.spec - 3);
  d.positions_v = d.positions->FillRandom(rng, Range{0, max_position});
  d.seq_lens = std::make_unique<DeviceTensor>(ACL_INT64, Shape{n}, c.view);
  d.seq_lens->FillRandom(rng, Range{1, 100});
  d.slots = std::make_unique<DeviceTensor>(ACL_INT64, Shape{n}, c.view);
  d.slots->FillRandom(rng, Range{1, 100});
  d.tables = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs, c.columns}, c.view);
  d.table_v = d.tables->FillRandom(rng, Range{0, 1000});
  d.spec = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs, c.spec}, c.view);
  d.spec_v = d.spec->FillRandom(rng, Range{1, 30000});
  d.accepted = std::make_unique<DeviceTensor>(ACL_INT64, Shape{c.seqs}, c.view);
  d.accepted_v = d.accepted->FillRandom(rng, Range{0, static_cast<double>(c.spec)});
  return d;
}

OpRun RunSpec(const SpecCase& c, SpecData& d, int64_t num_queries = -1) {
  return RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAdvanceStepV2GetWorkspaceSize(a.Tensor(*d.tokens), a.Tensor(*d.sampled), a.Tensor(*d.positions),
                                                  a.Tensor(*d.seq_lens), a.Tensor(*d.slots), a.Tensor(*d.tables),
                                                  a.Tensor(*d.spec), a.Tensor(*d.accepted), c.seqs,
                                                  num_queries < 0 ? c.seqs : num_queries, c.block_size, w, e);
      },
      aclnnAdvanceStepV2);
}

void CheckSpec(const SpecCase& c, const SpecData& d) {
  const int64_t t = c.spec + 1;
  Values tokens, positions, seq_lens, slots;
  for (int64_t i = 0; i < c.seqs; ++i) {
    int64_t first_rejected = t;
    for (int64_t j = t - 1; j >= 0; --j) {
      if (d.sampled_v[static_cast<size_t>(i * t + j)].real() == -1.0) first_rejected = j;
    }
    tokens.push_back(d.sampled_v[static_cast<size_t>(i * t + first_rejected - 1)]);
    for (int64_t j = 0; j < c.spec; ++j) tokens.push_back(d.spec_v[static_cast<size_t>(i * c.spec + j)]);
    for (int64_t j = 0; j < t; ++j) {
      const auto pos = static_cast<int64_t>(d.positions_v[static_cast<size_t>(i * t + j)].real() +
                                            d.accepted_v[static_cast<size_t>(i)].real() + 1);
      const auto block =
          static_cast<int64_t>(d.table_v[static_cast<size_t>(i * c.columns + pos / c.block_size)].real());
      positions.push_back(static_cast<double>(pos));
      seq_lens.push_back(static_cast<double>(pos + 1));
      slots.push_back(static_cast<double>(block * c.block_size + pos % c.block_size));
    }
  }
  ExpectExact(d.tokens->ReadView(), tokens, "inputTokens");
  ExpectExact(d.positions->ReadView(), positions, "inputPositions");
  ExpectExact(d.seq_lens->ReadView(), seq_lens, "seqLens");
  ExpectExact(d.slots->ReadView(), slots, "slotMapping");
}

class AdvanceStepV2Test : public ::testing::TestWithParam<SpecCase> {};
TEST_P(AdvanceStepV2Test, MatchesReference) {
  const SpecCase& c = GetParam();
  Rng rng = Rng::ForCurrentTest();
  SpecData d = MakeSpec(c, rng);
  const OpRun run = RunSpec(c, d);
  ASSERT_TRUE(run.ok()) << Describe(run);
  CheckSpec(c, d);
}
INSTANTIATE_TEST_SUITE_P(
    All, AdvanceStepV2Test,
    ::testing::Values(SpecCase{.name = "typical"}, SpecCase{.view = View::kStepped, .name = "stepped_views"},
                      SpecCase{.seqs = 12, .spec = 1, .block_size = 1, .columns = 6, .name = "one_spec_block_size_1"},
                      SpecCase{
                          .seqs = 3, .spec = 5, .block_size = 128, .columns = 2, .name = "five_spec_block_size_128"}),
    [](const ::testing::TestParamInfo<SpecCase>& info) { return SanitizeName(info.param.name); });

// Empty specToken: AdvanceStep, with its shapes and the padding sequences.
TEST(AdvanceStepV2, WithoutSpecTokensIsAdvanceStep) {
  Case c;
  Rng rng = Rng::ForCurrentTest();
  Data d = Make(c, rng);
  DeviceTensor spec(ACL_INT64, {c.seqs, 0}), accepted(ACL_INT64, {c.seqs});
  const OpRun run = RunOp(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnAdvanceStepV2GetWorkspaceSize(a.Tensor(*d.tokens), a.Tensor(*d.sampled), a.Tensor(*d.positions),
                                                  a.Tensor(*d.seq_lens), a.Tensor(*d.slots), a.Tensor(*d.tables),
                                                  a.Tensor(spec), a.Tensor(accepted), c.seqs, c.queries, c.block_size,
                                                  w, e);
      },
      aclnnAdvanceStepV2);
  ASSERT_TRUE(run.ok()) << Describe(run);
  Check(c, d);
}

TEST(AdvanceStepV2, BadReadsFailTheRun) {
  const SpecCase c;
  Rng rng = Rng::ForCurrentTest();
  SpecData d = MakeSpec(c, rng);
  d.positions_v[4] = static_cast<double>(c.block_size * c.columns * c.seqs);  // past the table
  d.positions->WriteView(d.positions_v);
  OpRun run = RunSpec(c, d);
  EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
  EXPECT_FALSE(run.ok()) << Describe(run);
  EXPECT_NE(run.message.find("blockTables"), std::string::npos) << run.message;
  d = MakeSpec(c, rng);
  d.sampled_v[3] = -1.0;  // row 1 starts rejected: no token before it
  d.sampled->WriteView(d.sampled_v);
  run = RunSpec(c, d);
  EXPECT_FALSE(run.ok()) << Describe(run);
  EXPECT_NE(run.message.find("sampledTokenIds"), std::string::npos) << run.message;
}

TEST(AdvanceStepV2Rejects, EachCase) {
  const auto expect = [](const std::function<void(SpecData&)>& edit, aclnnStatus status, std::vector<std::string> words,
                         int64_t block_size = 8) {
    SpecCase c;
    c.block_size = block_size;
    Rng rng(3);
    SpecData d = MakeSpec(c, rng);
    edit(d);
    ExpectRejectedWith(RunSpec(c, d), status, words);
  };
  const auto none = [](SpecData&) {};
  expect(
      [](SpecData& d) {
        d.spec = std::make_unique<DeviceTensor>(ACL_INT32, Shape{5, 2});
      },
      kInvalid, {"'specToken'"});
  expect([](SpecData& d) { d.accepted = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{5}); }, kInvalid,
         {"'acceptedNum'"});
  expect([](SpecData& d) { d.slots = std::make_unique<DeviceTensor>(ACL_INT32, Shape{15}); }, kInvalid,
         {"'slotMapping'"});
  expect(none, kTiling, {"'blockSize'"}, 0);
  // Positions are int32 in the kernel: 2^32 was truncated to 0 and divided by (SIGFPE).
  expect(none, kTiling, {"'blockSize'"}, int64_t{1} << 32);
  expect(
      [](SpecData& d) {
        d.spec = std::make_unique<DeviceTensor>(ACL_INT64, Shape{4, 2});
      },
      kTiling, {"'specToken'"});
  expect(
      [](SpecData& d) {
        d.accepted = std::make_unique<DeviceTensor>(ACL_INT64, Shape{5, 1});
      },
      kTiling, {"'acceptedNum'"});
  expect(
      [](SpecData& d) {
        d.tokens = std::make_unique<DeviceTensor>(ACL_INT64, Shape{5, 3});
      },
      kTiling, {"'inputTokens'"});
  expect(
      [](SpecData& d) {
        d.sampled = std::make_unique<DeviceTensor>(ACL_INT64, Shape{5, 1});
      },
      kTiling, {"'sampledTokenIds'"});
  expect([](SpecData& d) { d.positions = std::make_unique<DeviceTensor>(ACL_INT64, Shape{14}); }, kTiling,
         {"'inputPositions'"});
  expect([](SpecData& d) { d.seq_lens = std::make_unique<DeviceTensor>(ACL_INT64, Shape{16}); }, kTiling,
         {"'seqLens'"});
  expect(
      [](SpecData& d) {
        d.slots = std::make_unique<DeviceTensor>(ACL_INT64, Shape{15, 1});
      },
      kTiling, {"'slotMapping'"});
  expect([](SpecData& d) { d.tables = std::make_unique<DeviceTensor>(ACL_INT64, Shape{20}); }, kTiling,
         {"'blockTables'"});
}

}  // namespace
}  // namespace canopy_test
