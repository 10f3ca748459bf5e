// Runs and registers the generated cases; see harness.h.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <sstream>

#include "harness/harness.h"
#include "harness/stderr_capture.h"

namespace canopy_test::harness {
namespace {

// The buffers of one call: a device tensor per tensor input, a value per
// scalar input, and the out tensor of the out form.
struct Buffers {
  std::vector<std::unique_ptr<DeviceTensor>> tensors;  // per input; null for scalars
  std::vector<Value> scalars;                          // per input; the scalar inputs' values
  std::vector<Values> values;                          // per input: the values the op sees
  std::unique_ptr<DeviceTensor> out;                   // null in the in-place form
  const DeviceTensor& Out() const { return out ? *out : *tensors[0]; }
};

Buffers Allocate(const OpRow& row, const CaseInfo& info) {
  Buffers b;
  const size_t arity = row.inputs.size();
  b.tensors.resize(arity);
  b.scalars.assign(arity, 0.0);
  b.values.resize(arity);
  for (size_t i = 0; i < arity; ++i) {
    if (row.inputs[i].kind == ArgKind::kTensor) {
      b.tensors[i] = std::make_unique<DeviceTensor>(info.dtypes[i], info.shapes[i], info.views[i]);
    }
  }
  if (!info.inplace) b.out = std::make_unique<DeviceTensor>(info.out, info.outShape, info.outView);
  return b;
}

// New random tensor inputs (within their ranges), the invalid value where the
// case has one, and a poisoned output. Scalar inputs are drawn once per case:
// their values are part of the call (and of its plan-cache key), so the
// repeated calls pass the same ones.
void Fill(const OpRow& row, const CaseInfo& info, Rng& rng, Buffers& b, const Buffers* sameScalarsAs = nullptr) {
  for (size_t i = 0; i < row.inputs.size(); ++i) {
    const aclDataType dtype = info.dtypes[i];
    const Range range = row.inputs[i].range.For(dtype, info);
    const bool invalid = info.invalidInput == static_cast<int>(i);
    if (!b.tensors[i]) {
      if (sameScalarsAs != nullptr) {
        b.scalars[i] = sameScalarsAs->scalars[i];
      } else {
        b.scalars[i] = invalid ? ConvertValue(info.invalidValue, dtype) : rng.Draw(dtype, range);
      }
      b.values[i] = {b.scalars[i]};
      continue;
    }
    DeviceTensor& tensor = *b.tensors[i];
    if (i == 0 && info.inplace && row.inplace.overwrites) {
      tensor.Poison();  // selfRef's values are not read: every element must be written
      b.values[i] = tensor.ReadView();
      continue;
    }
    b.values[i] = tensor.FillRandom(rng, range);
    if (invalid && !b.values[i].empty()) {
      b.values[i][b.values[i].size() / 2] = ConvertValue(info.invalidValue, dtype);
      tensor.WriteView(b.values[i]);
    }
  }
  if (b.out) b.out->Poison();
}

struct Outcome {
  OpRun run;
  std::string verbose;  // what phase 1 wrote to stderr
};

Outcome Invoke(const OpRow& row, const CaseInfo& info, const Buffers& b) {
  const Phase1Fn& phase1 = info.inplace ? row.inplace.phase1 : row.out.phase1;
  const Phase2 phase2 = info.inplace ? row.inplace.phase2 : row.out.phase2;
  Outcome outcome;
  outcome.run = RunOp(
      [&](OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
        std::vector<const DeviceTensor*> tensors;
        for (const auto& t : b.tensors) tensors.push_back(t.get());
        Call call(args, info, std::move(tensors), b.scalars, b.out.get(), workspaceSize, executor);
        StderrCapture capture;
        capture.Start();
        const aclnnStatus status = phase1(call);
        outcome.verbose = capture.Stop();
        return status;
      },
      phase2);
  return outcome;
}

// Exact values rounded to the out dtype, and the row's tolerance around them.
void ApplyTolerance(const Tolerance& tolerance, aclDataType out, Expected* want) {
  const double unit = UnitRoundoff(out) * tolerance.UlpsFor(out);
  want->tolerance.clear();
  for (Value& v : want->values) {
    v = ConvertValue(v, out);
    want->tolerance.push_back(unit * std::max(std::abs(v), tolerance.minMagnitude));
  }
}

Expected ReferenceFor(const OpRow& row, const CaseInfo& info, const Buffers& b) {
  std::vector<Operand> operands;
  for (size_t i = 0; i < row.inputs.size(); ++i) {
    operands.push_back(Operand{info.dtypes[i], b.tensors[i] ? info.shapes[i] : Shape{}, b.values[i]});
  }
  Expected want = row.reference(RefCall{operands, info.attrs, info.out, info.outShape, info.inplace});
  if (want.tolerance.empty()) ApplyTolerance(row.tolerance, info.out, &want);
  return want;
}

std::vector<std::vector<uint8_t>> Snapshot(const Buffers& b) {
  std::vector<std::vector<uint8_t>> bytes;
  for (const auto& t : b.tensors) bytes.push_back(t ? t->DownloadBytes() : std::vector<uint8_t>{});
  bytes.push_back(b.out ? b.out->DownloadBytes() : std::vector<uint8_t>{});
  return bytes;
}

// One call on `b` and every check on its result.
void RunAndCheck(const OpRow& row, const CaseInfo& info, const Buffers& b, const std::string& what, bool expectHit) {
  const std::vector<std::vector<uint8_t>> before = Snapshot(b);
  const Outcome outcome = Invoke(row, info, b);
  ASSERT_TRUE(outcome.run.ok()) << what << ": " << Describe(outcome.run) << "\nphase 1 said:\n" << outcome.verbose;
  if (expectHit && row.expectCacheHit && PlanCacheOn()) {
    EXPECT_NE(outcome.verbose.find(kCacheHitMessage), std::string::npos)
        << what << ": phase 1 with the same dtypes, shapes, views and attributes was not a plan-cache hit "
        << "(CANOPY_VERBOSE output: '" << outcome.verbose << "'"
        << (outcome.verbose.empty() ? "; empty: was CANOPY_VERBOSE=0 read before the harness set it?" : "") << ")";
  }
  const Expected want = ReferenceFor(row, info, b);
  ASSERT_EQ(static_cast<int64_t>(want.values.size()), NumElements(info.outShape))
      << "harness row: the reference returned " << want.values.size() << " values for out shape "
      << ShapeString(info.outShape);
  ExpectNear(b.Out().ReadView(), want, what + ": out");
  ExpectOutsideViewUnchanged(b.Out(), before[info.inplace ? 0 : b.tensors.size()], what + ": out storage");
  for (size_t i = 0; i < b.tensors.size(); ++i) {
    if (!b.tensors[i] || (info.inplace && i == 0)) continue;
    EXPECT_TRUE(b.tensors[i]->DownloadBytes() == before[i]) << what << ": input " << row.inputs[i].name << " changed";
  }
  if (NumElements(info.outShape) == 0) {
    EXPECT_EQ(outcome.run.workspaceSize, 0u) << what << ": an empty out needs no workspace";
  }
}

void RunInvalidValue(const OpRow& row, const CaseInfo& info, const Buffers& b) {
  const Outcome outcome = Invoke(row, info, b);
  ASSERT_EQ(outcome.run.phase1, ACLNN_SUCCESS)
      << "phase 1 cannot see values, so it must accept the call: " << Describe(outcome.run) << "\n"
      << outcome.verbose;
  EXPECT_FALSE(outcome.run.phase2 == ACLNN_SUCCESS && outcome.run.sync == ACL_SUCCESS)
      << "input " << row.inputs[info.invalidInput].name << " holds " << info.invalidValue.real()
      << ": phase 2 or the stream must report an error";
}

class HarnessCase : public ::testing::Test {
 public:
  HarnessCase(std::shared_ptr<const OpRow> row, CaseInfo info) : row_(std::move(row)), info_(std::move(info)) {}
  void TestBody() override { RunCase(*row_, info_); }

 private:
  std::shared_ptr<const OpRow> row_;
  CaseInfo info_;
};

class InvalidRow : public ::testing::Test {
 public:
  explicit InvalidRow(std::string problems) : problems_(std::move(problems)) {}
  void TestBody() override { ADD_FAILURE() << "harness row is not valid:" << problems_; }

 private:
  std::string problems_;
};

}  // namespace

void RunCase(const OpRow& row, const CaseInfo& info) {
  Rng rng = Rng::ForCurrentTest();
  SCOPED_TRACE("seed " + std::to_string(rng.seed()) + ", case " + info.name);
  Buffers first = Allocate(row, info);
  Fill(row, info, rng, first);
  if (info.invalidInput >= 0) {
    RunInvalidValue(row, info, first);
    return;
  }
  RunAndCheck(row, info, first, "first call", /*expectHit=*/false);
  if (::testing::Test::HasFatalFailure()) return;
  // The same call again: new values in the same buffers, out poisoned again.
  Fill(row, info, rng, first, &first);
  RunAndCheck(row, info, first, "second call (same buffers)", /*expectHit=*/true);
  if (::testing::Test::HasFatalFailure()) return;
  // The same shapes on new buffers: the cached plan must use the new addresses.
  Buffers second = Allocate(row, info);
  Fill(row, info, rng, second, &first);
  const std::vector<std::vector<uint8_t>> firstBytes = Snapshot(first);
  RunAndCheck(row, info, second, "third call (new buffers)", /*expectHit=*/true);
  EXPECT_TRUE(Snapshot(first) == firstBytes) << "the third call wrote into the first call's buffers";
}

bool RegisterRows(std::vector<OpRow> rows, const char* file, int line) {
  for (OpRow& row : rows) {
    auto shared = std::make_shared<const OpRow>(std::move(row));
    std::vector<std::string> problems;
    std::vector<CaseInfo> cases = GenerateCases(*shared, &problems);
    if (!problems.empty()) {
      std::ostringstream text;
      for (const std::string& p : problems) text << "\n  " << p;
      ::testing::RegisterTest(shared->name.c_str(), "RowIsValid", nullptr, nullptr, file, line,
                              [message = text.str()]() -> ::testing::Test* { return new InvalidRow(message); });
      continue;
    }
    for (CaseInfo& info : cases) {
      const std::string name = info.name;
      ::testing::RegisterTest(
          shared->name.c_str(), name.c_str(), nullptr, nullptr, file, line,
          [shared, info = std::move(info)]() -> ::testing::Test* { return new HarnessCase(shared, info); });
    }
  }
  return true;
}

}  // namespace canopy_test::harness
