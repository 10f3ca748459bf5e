// Cached plans under concurrency: several threads run the same ops with the
// same shapes (so they share one cached plan, oneDNN primitives included) at
// the same time, on two devices and on several streams of one device, and
// every result is checked against a float64 reference. The suite runs with
// CANOPY_DEVICE_COUNT=2 (tests/ops/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_batch_matmul.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mm.h"
#include "op_test_support.h"
#include "reference.h"

namespace canopy_test {
namespace {

// Far beyond what the runs need; a hang fails instead of stalling CI.
constexpr auto kWatchdog = std::chrono::seconds(300);
constexpr double kF32Roundoff = 0x1p-24;
const Range kDataRange{-1, 1};

enum class Op { kMm, kMatmul, kBatchMatMul, kAddmm, kAdd };

const char* OpName(Op op) {
  switch (op) {
    case Op::kMm:
      return "Mm";
    case Op::kMatmul:
      return "Matmul";
    case Op::kBatchMatMul:
      return "BatchMatMul";
    case Op::kAddmm:
      return "Addmm";
    case Op::kAdd:
      return "Add";
  }
  return "?";
}

// One problem every thread runs with its own data. Products: out[batch, m, n] =
// alpha * self @ mat2 (+ beta * bias for Addmm); mat2 has batch 1 (broadcast) for
// Matmul. Add: out[m * n] = self + alpha * other.
struct Problem {
  Op op;
  int64_t batch, m, k, n;
  double alpha = 1.0, beta = 0.0;
  bool rowBias = false;  // Addmm: self is [n] (the fused bias), else [m, n]
};

const std::vector<Problem>& Problems() {
  static const std::vector<Problem> problems = {
      {Op::kMm, 1, 320, 384, 288},
      {Op::kMatmul, 2, 256, 256, 320, 1.0, 0.0},
      {Op::kBatchMatMul, 2, 256, 320, 256},
      {Op::kAddmm, 1, 288, 384, 320, 2.0, 0.5, true},
      {Op::kAddmm, 1, 256, 256, 256, -1.5, 2.0, false},
      {Op::kAdd, 1, 512, 0, 1024, 2.0},
  };
  return problems;
}

// The float64 result with a per-element tolerance: f32 accumulation over K and
// the rounding of each term.
struct Reference {
  std::vector<double> values, tolerance;
};

Reference ReferenceOf(const Problem& p, const std::vector<double>& self, const std::vector<double>& other,
                      const std::vector<double>& bias) {
  Reference ref;
  if (p.op == Op::kAdd) {
    for (size_t i = 0; i < self.size(); ++i) {
      const double value = self[i] + p.alpha * other[i];
      ref.values.push_back(value);
      ref.tolerance.push_back(4 * kF32Roundoff * (std::fabs(self[i]) + std::fabs(p.alpha * other[i])));
    }
    return ref;
  }
  const bool broadcastMat2 = p.op == Op::kMatmul;
  std::vector<double> sum(static_cast<size_t>(p.n)), scale(static_cast<size_t>(p.n));
  for (int64_t b = 0; b < p.batch; ++b) {
    const double* a = self.data() + b * p.m * p.k;
    const double* w = other.data() + (broadcastMat2 ? 0 : b * p.k * p.n);
    for (int64_t i = 0; i < p.m; ++i) {
      std::fill(sum.begin(), sum.end(), 0.0);
      std::fill(scale.begin(), scale.end(), 0.0);
      for (int64_t q = 0; q < p.k; ++q) {
        const double x = a[i * p.k + q];
        for (int64_t j = 0; j < p.n; ++j) {
          sum[j] += x * w[q * p.n + j];
          scale[j] += std::fabs(x * w[q * p.n + j]);
        }
      }
      for (int64_t j = 0; j < p.n; ++j) {
        const double biasTerm = p.op == Op::kAddmm ? p.beta * bias[p.rowBias ? j : i * p.n + j] : 0.0;
        const double value = p.alpha * sum[j] + biasTerm;
        const double terms = std::fabs(p.alpha) * scale[j] + std::fabs(biasTerm);
        ref.values.push_back(value);
        ref.tolerance.push_back((static_cast<double>(p.k) + 8) * kF32Roundoff * terms + 1e-30);
      }
    }
  }
  return ref;
}

// A problem's device tensors and expected result on one thread.
struct Prepared {
  Problem problem;
  std::unique_ptr<DeviceTensor> self, other, bias, out;
  Reference reference;
};

Prepared Prepare(const Problem& p, Rng& rng) {
  Prepared prepared{p, nullptr, nullptr, nullptr, nullptr, {}};
  std::vector<double> bias;
  if (p.op == Op::kAdd) {
    prepared.self = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{p.m, p.n});
    prepared.other = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{p.m, p.n});
    prepared.out = std::make_unique<DeviceTensor>(ACL_FLOAT, Shape{p.m, p.n});
  } else {
    const bool batched = p.op == Op::kMatmul || p.op == Op::kBatchMatMul;
    prepared.self = std::make_unique<DeviceTensor>(ACL_FLOAT, batched ? Shape{p.batch, p.m, p.k} : Shape{p.m, p.k});
    const Shape mat2 = p.op == Op::kBatchMatMul ? Shape{p.batch, p.k, p.n} : Shape{p.k, p.n};
    prepared.other = std::make_unique<DeviceTensor>(ACL_FLOAT, mat2);
    prepared.out = std::make_unique<DeviceTensor>(ACL_FLOAT, batched ? Shape{p.batch, p.m, p.n} : Shape{p.m, p.n});
    if (p.op == Op::kAddmm) {
      prepared.bias = std::make_unique<DeviceTensor>(ACL_FLOAT, p.rowBias ? Shape{p.n} : Shape{p.m, p.n});
      bias = RealParts(prepared.bias->FillRandom(rng, kDataRange));
    }
  }
  const std::vector<double> self = RealParts(prepared.self->FillRandom(rng, kDataRange));
  const std::vector<double> other = RealParts(prepared.other->FillRandom(rng, kDataRange));
  prepared.reference = ReferenceOf(p, self, other, bias);
  return prepared;
}

aclnnStatus PlanOp(const Prepared& x, OpArgs& args, uint64_t* workspaceSize, aclOpExecutor** executor) {
  const Problem& p = x.problem;
  aclTensor* self = args.Tensor(*x.self);
  aclTensor* other = args.Tensor(*x.other);
  aclTensor* out = args.Tensor(*x.out);
  switch (p.op) {
    case Op::kMm:
      return aclnnMmGetWorkspaceSize(self, other, out, 0, workspaceSize, executor);
    case Op::kMatmul:
      return aclnnMatmulGetWorkspaceSize(self, other, out, 0, workspaceSize, executor);
    case Op::kBatchMatMul:
      return aclnnBatchMatMulGetWorkspaceSize(self, other, out, 0, workspaceSize, executor);
    case Op::kAddmm:
      return aclnnAddmmGetWorkspaceSize(args.Tensor(*x.bias), self, other, args.Scalar(ACL_FLOAT, p.beta),
                                        args.Scalar(ACL_FLOAT, p.alpha), out, 0, workspaceSize, executor);
    case Op::kAdd:
      return aclnnAddGetWorkspaceSize(self, other, args.Scalar(ACL_FLOAT, p.alpha), out, workspaceSize, executor);
  }
  return -1;
}

Phase2 Phase2Of(Op op) {
  switch (op) {
    case Op::kMm:
      return aclnnMm;
    case Op::kMatmul:
      return aclnnMatmul;
    case Op::kBatchMatMul:
      return aclnnBatchMatMul;
    case Op::kAddmm:
      return aclnnAddmm;
    case Op::kAdd:
      return aclnnAdd;
  }
  return nullptr;
}

// What one thread saw: results off the reference, and the first few reports.
struct Outcome {
  int runs = 0;
  int wrongResults = 0;
  std::vector<std::string> reports;
  void Report(const std::string& text) {
    if (reports.size() < 5) reports.push_back(text);
  }
};

// Elements of `got` off the reference, and a line about the worst one.
int64_t CountWrong(const Values& got, const Reference& want, std::string& worst) {
  int64_t wrong = 0;
  double worstError = -1;
  for (size_t i = 0; i < got.size(); ++i) {
    const double error = std::fabs(got[i].real() - want.values[i]);
    if (!(error <= want.tolerance[i])) {
      ++wrong;
      if (!(error <= worstError)) {
        worstError = error;
        std::ostringstream text;
        text << "element " << i << ": got " << got[i].real() << ", want " << want.values[i] << " +- "
             << want.tolerance[i];
        worst = text.str();
      }
    }
  }
  return wrong;
}

// A client thread's device, stream and workspace; what it saw goes to `outcome`.
class Client {
 public:
  Client(int32_t device, Outcome& outcome) : device_(device), outcome_(outcome) {
    if (aclrtSetDevice(device) != ACL_SUCCESS) {
      outcome.Report("aclrtSetDevice(" + std::to_string(device) + ") failed: " + aclGetRecentErrMsg());
      return;
    }
    deviceSet_ = true;
    if (aclrtCreateStream(&stream_) != ACL_SUCCESS) {
      outcome.Report(std::string("aclrtCreateStream failed: ") + aclGetRecentErrMsg());
      stream_ = nullptr;
    }
  }
  ~Client() {
    workspace_.reset();
    if (stream_ != nullptr) aclrtDestroyStream(stream_);
    if (deviceSet_) aclrtResetDevice(device_);
  }
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  bool ready() const { return stream_ != nullptr; }

  // One call of `x`'s op as a client makes it (the workspace reused from call
  // to call), checked against the reference; `afterPhase1` runs between the phases.
  void Run(const Prepared& x, const std::string& what, const std::function<void()>& afterPhase1 = {}) {
    x.out->Poison();
    OpArgs args;
    uint64_t workspaceSize = 0;
    aclOpExecutor* executor = nullptr;
    const aclnnStatus planned = PlanOp(x, args, &workspaceSize, &executor);
    if (afterPhase1) afterPhase1();
    if (planned != ACLNN_SUCCESS) {
      Fail(what + ": phase 1 failed: " + aclGetRecentErrMsg());
      return;
    }
    if (workspaceSize > workspaceCapacity_) {
      workspace_ = std::make_unique<DeviceBuffer>(workspaceSize);
      workspaceCapacity_ = workspaceSize;
    }
    const aclnnStatus launched =
        Phase2Of(x.problem.op)(workspaceSize > 0 ? workspace_->get() : nullptr, workspaceSize, executor, stream_);
    args.DestroyDescriptors();
    if (launched != ACLNN_SUCCESS || aclrtSynchronizeStream(stream_) != ACL_SUCCESS) {
      Fail(what + ": phase 2 failed: " + aclGetRecentErrMsg());
      return;
    }
    ++outcome_.runs;
    std::string worst;
    if (const int64_t wrong = CountWrong(x.out->ReadView(), x.reference, worst); wrong > 0) {
      Fail(what + ": " + std::to_string(wrong) + " wrong elements; worst " + worst);
    }
  }

 private:
  void Fail(const std::string& report) {
    ++outcome_.wrongResults;
    outcome_.Report(report);
  }

  int32_t device_;
  Outcome& outcome_;
  bool deviceSet_ = false;
  aclrtStream stream_ = nullptr;
  std::unique_ptr<DeviceBuffer> workspace_;
  uint64_t workspaceCapacity_ = 0;
};

// Runs the bodies on threads of their own at once; fails (and ends the process,
// since hung threads cannot be joined) if they are not done in time.
void RunThreads(const std::vector<std::function<void()>>& bodies) {
  std::mutex mutex;
  std::condition_variable done;
  size_t finished = 0;
  std::vector<std::thread> threads;
  for (const auto& body : bodies) {
    threads.emplace_back([&] {
      body();
      std::lock_guard lock(mutex);
      ++finished;
      done.notify_all();
    });
  }
  {
    std::unique_lock lock(mutex);
    if (!done.wait_for(lock, kWatchdog, [&] { return finished == threads.size(); })) {
      std::fprintf(stderr, "concurrent clients still running after %lld s\n",
                   static_cast<long long>(kWatchdog.count()));
      std::abort();
    }
  }
  for (std::thread& thread : threads) thread.join();
}

void ExpectDevices(const std::vector<int32_t>& devices) {
  uint32_t count = 0;
  ASSERT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  for (int32_t device : devices) {
    ASSERT_LT(static_cast<uint32_t>(device), count) << "run through ctest, which sets CANOPY_DEVICE_COUNT=2";
  }
}

void ExpectClean(const std::vector<Outcome>& outcomes, int runs, uint64_t seed) {
  for (size_t t = 0; t < outcomes.size(); ++t) {
    const Outcome& outcome = outcomes[t];
    EXPECT_EQ(outcome.runs, runs) << "client " << t;
    EXPECT_EQ(outcome.wrongResults, 0) << "client " << t << ", seed " << seed + t;
    for (const std::string& report : outcome.reports) ADD_FAILURE() << "client " << t << ": " << report;
  }
}

// One client thread per entry of `devices`, each with its own stream on that
// device and its own data: every problem `iterations` times, in the same order
// on every thread, so all of them run the same cached plans at once.
void RunClients(const std::vector<int32_t>& devices, int iterations) {
  ExpectDevices(devices);
  if (::testing::Test::HasFatalFailure()) return;
  std::vector<Outcome> outcomes(devices.size());
  const uint64_t seed = Rng::ForCurrentTest().seed();
  std::vector<std::function<void()>> bodies;
  for (size_t t = 0; t < devices.size(); ++t) {
    bodies.push_back([&, t] {
      Client client(devices[t], outcomes[t]);
      if (!client.ready()) return;
      Rng rng(seed + t);
      std::vector<Prepared> prepared;
      for (const Problem& p : Problems()) prepared.push_back(Prepare(p, rng));
      for (int iteration = 0; iteration < iterations; ++iteration) {
        for (const Prepared& x : prepared) {
          client.Run(x, std::string(OpName(x.problem.op)) + " on device " + std::to_string(devices[t]) +
                            ", iteration " + std::to_string(iteration));
        }
      }
    });
  }
  RunThreads(bodies);
  ExpectClean(outcomes, iterations * static_cast<int>(Problems().size()), seed);
}

// The devices' engines run the same primitives at the same time: enough
// iterations that overlapping runs are certain.
TEST(ConcurrentOps, SameOpsOnTwoDevicesAtOnce) { RunClients({0, 1}, 30); }

// One engine runs the streams' tasks in turn; the threads plan at once.
TEST(ConcurrentOps, SameOpsOnStreamsOfOneDeviceAtOnce) { RunClients({0, 0, 0}, 8); }

TEST(ConcurrentOps, SameOpsOnTwoStreamsOfEachOfTwoDevices) { RunClients({0, 1, 0, 1}, 15); }

}  // namespace
}  // namespace canopy_test
