// --driver=overhead: what the framework itself costs, measured on a tiny op
// (aclnnAdd of 16 f32 elements) the way a client calls it, and the runtime calls
// around it; oneDNN executing a tiny eltwise primitive is the reference.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>

#include "aclnnop/aclnn_add.h"
#include "canopy/canopy_runtime.h"
#include "driver.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace canopy_bench {
namespace {

constexpr int64_t kTinyElements = 16;
constexpr int kLoopCalls = 20000;  // the tiny-op loop of the target
constexpr int kMissCalls = 2000;   // phase-1 misses per round (each needs its own shape)
// Misses use shapes [1 + c / kMissColumns, 1 + c % kMissColumns] for a counter c
// that only grows, so no shape is ever seen twice in a process.
constexpr int64_t kMissColumns = 64;
// "Small" independent ops for the two-stream test: below and above the size at
// which Canopy's elementwise kernel goes parallel.
constexpr int64_t kSmallElements = 64 * 1024;
constexpr int kSmallCalls = 2000;

// Targets of issue 6, printed next to the measurements.
constexpr double kPhase1HitTargetUs = 1.0;
constexpr double kEnqueueTargetUs = 0.5;

struct Measurement {
  std::string name;
  double value_us = 0;   // median over rounds of the mean cost per call
  double median_us = 0;  // median of all individual calls (where timed one by one)
  std::string note;
  double p90_us = 0;  // 90th percentile of individual calls
};

double Percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  const size_t index = static_cast<size_t>(fraction * static_cast<double>(values.size() - 1));
  std::nth_element(values.begin(), values.begin() + index, values.end());
  return values[index];
}

constexpr double kTailFraction = 0.9;

Measurement PerCall(const std::string& name, const std::vector<double>& means, const std::vector<double>& calls,
                    const std::string& note) {
  return {name, Median(means), Median(calls), note, Percentile(calls, kTailFraction)};
}

// The cost of reading the clock twice, subtracted from calls timed one by one.
double ClockOverheadUs() {
  constexpr int kSamples = 10000;
  std::vector<double> samples(kSamples);
  for (double& sample : samples) {
    const auto start = Clock::now();
    sample = MicrosecondsBetween(start, Clock::now());
  }
  return Median(samples);
}

// An Add of `elements` f32 values on `stream`, with its own buffers and tensors.
class AddProblem {
 public:
  explicit AddProblem(const std::vector<int64_t>& shape) : shape_(shape) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    const size_t bytes = static_cast<size_t>(n) * sizeof(float);
    for (DeviceBuffer* buffer : {&a_, &b_, &out_}) {
      buffer->Reserve(bytes);
      BENCH_CHECK_ACL(aclrtMemset(buffer->get(), bytes, 0, bytes));
    }
    a_tensor_ = std::make_unique<Tensor>(shape, ACL_FLOAT, a_.get());
    b_tensor_ = std::make_unique<Tensor>(shape, ACL_FLOAT, b_.get());
    out_tensor_ = std::make_unique<Tensor>(shape, ACL_FLOAT, out_.get());
    float one = 1.0f;
    alpha_ = aclCreateScalar(&one, ACL_FLOAT);
  }
  ~AddProblem() { aclDestroyScalar(alpha_); }

  aclOpExecutor* Phase1() const {
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    BENCH_CHECK_ACL(aclnnAddGetWorkspaceSize(a_tensor_->get(), b_tensor_->get(), alpha_, out_tensor_->get(),
                                             &workspace_size, &executor));
    return executor;
  }
  static void Phase2(aclOpExecutor* executor, aclrtStream stream) {
    BENCH_CHECK_ACL(aclnnAdd(nullptr, 0, executor, stream));
  }
  // What ggml's CANN backend does for every op: fresh descriptors, destroyed right after phase 2.
  void ClientCall(aclrtStream stream) const {
    const std::vector<int64_t> strides = ContiguousStrides(shape_);
    const uint64_t rank = shape_.size();
    aclTensor* a = aclCreateTensor(shape_.data(), rank, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape_.data(),
                                   rank, a_.get());
    aclTensor* b = aclCreateTensor(shape_.data(), rank, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape_.data(),
                                   rank, b_.get());
    aclTensor* out = aclCreateTensor(shape_.data(), rank, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND, shape_.data(),
                                     rank, out_.get());
    float one = 1.0f;
    aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    BENCH_CHECK_ACL(aclnnAddGetWorkspaceSize(a, b, alpha, out, &workspace_size, &executor));
    BENCH_CHECK_ACL(aclnnAdd(nullptr, 0, executor, stream));
    aclDestroyTensor(a);
    aclDestroyTensor(b);
    aclDestroyTensor(out);
    aclDestroyScalar(alpha);
  }

 private:
  std::vector<int64_t> shape_;
  DeviceBuffer a_, b_, out_;
  std::unique_ptr<Tensor> a_tensor_, b_tensor_, out_tensor_;
  aclScalar* alpha_ = nullptr;
};

class OverheadBench {
 public:
  explicit OverheadBench(const Settings& settings)
      : rounds_(std::max(1, settings.repetitions)), stream_(AclSession::Get().stream()), tiny_({kTinyElements}) {
    BENCH_CHECK_ACL(aclrtCreateStream(&second_stream_));
    BENCH_CHECK_ACL(aclrtCreateEvent(&event_));
    clock_us_ = ClockOverheadUs();
  }
  ~OverheadBench() {
    aclrtSynchronizeStream(second_stream_);
    aclrtDestroyEvent(event_);
    aclrtDestroyStream(second_stream_);
  }

  double clock_us() const { return clock_us_; }
  int rounds() const { return rounds_; }

  Measurement Phase1Miss() {
    static int64_t counter = 0;  // grows for the life of the process: every shape is new
    std::vector<double> means, calls;
    for (int round = 0; round < rounds_; ++round) {
      std::vector<std::unique_ptr<AddProblem>> problems;
      problems.reserve(kMissCalls);
      for (int i = 0; i < kMissCalls; ++i, ++counter) {
        problems.push_back(
            std::make_unique<AddProblem>(std::vector<int64_t>{1 + counter / kMissColumns, 1 + counter % kMissColumns}));
      }
      double total = 0;
      for (const auto& problem : problems) {
        const auto start = Clock::now();
        aclOpExecutor* executor = problem->Phase1();
        const double us = MicrosecondsBetween(start, Clock::now()) - clock_us_;
        AddProblem::Phase2(executor, stream_);
        total += us;
        calls.push_back(us);
      }
      BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
      means.push_back(total / kMissCalls);
    }
    return PerCall("phase1-miss", means, calls, "aclnnAddGetWorkspaceSize, new shape every call");
  }

  Measurement Phase1Hit() {
    std::vector<double> means, calls;
    for (int round = 0; round < rounds_; ++round) {
      double total = 0;
      for (int i = 0; i < kLoopCalls; ++i) {
        const auto start = Clock::now();
        aclOpExecutor* executor = tiny_.Phase1();
        const double us = MicrosecondsBetween(start, Clock::now()) - clock_us_;
        AddProblem::Phase2(executor, stream_);
        total += us;
        calls.push_back(us);
      }
      BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
      means.push_back(total / kLoopCalls);
    }
    return PerCall("phase1-hit", means, calls, "aclnnAddGetWorkspaceSize, same shapes");
  }

  Measurement Phase2() {
    std::vector<double> means, calls;
    for (int round = 0; round < rounds_; ++round) {
      double total = 0;
      for (int i = 0; i < kLoopCalls; ++i) {
        aclOpExecutor* executor = tiny_.Phase1();
        const auto start = Clock::now();
        AddProblem::Phase2(executor, stream_);
        const double us = MicrosecondsBetween(start, Clock::now()) - clock_us_;
        total += us;
        calls.push_back(us);
      }
      BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
      means.push_back(total / kLoopCalls);
    }
    return PerCall("phase2", means, calls, "aclnnAdd: checks + enqueue of the executor");
  }

  // The runtime's own enqueue, without the executor around it.
  Measurement Enqueue() {
    std::vector<double> means, calls;
    const canopyTaskFn empty = [](void*) -> int32_t { return 0; };
    for (int round = 0; round < rounds_; ++round) {
      double total = 0;
      for (int i = 0; i < kLoopCalls; ++i) {
        const auto start = Clock::now();
        BENCH_CHECK_ACL(canopyLaunchTask(stream_, "empty", empty, nullptr, nullptr));
        const double us = MicrosecondsBetween(start, Clock::now()) - clock_us_;
        total += us;
        calls.push_back(us);
      }
      BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
      means.push_back(total / kLoopCalls);
    }
    return PerCall("enqueue", means, calls, "canopyLaunchTask of an empty task");
  }

  Measurement Tiny() {
    std::vector<double> means;
    for (int round = 0; round < rounds_; ++round) {
      const auto start = Clock::now();
      for (int i = 0; i < kLoopCalls; ++i) AddProblem::Phase2(tiny_.Phase1(), stream_);
      BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
      means.push_back(MicrosecondsBetween(start, Clock::now()) / kLoopCalls);
    }
    return {"tiny", Median(means), 0, "Add of 16 f32: phase 1 + phase 2 + 1/20000 of a final sync"};
  }

  Measurement TinyClient() {
    std::vector<double> means;
    for (int round = 0; round < rounds_; ++round) {
      const auto start = Clock::now();
      for (int i = 0; i < kLoopCalls; ++i) tiny_.ClientCall(stream_);
      BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
      means.push_back(MicrosecondsBetween(start, Clock::now()) / kLoopCalls);
    }
    return {"tiny-client", Median(means), 0, "as tiny, plus 3 aclCreateTensor + aclCreateScalar + destroys per call"};
  }

  Measurement Sync() {
    std::vector<double> means;
    BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
    for (int round = 0; round < rounds_; ++round) {
      const auto start = Clock::now();
      for (int i = 0; i < kLoopCalls; ++i) BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
      means.push_back(MicrosecondsBetween(start, Clock::now()) / kLoopCalls);
    }
    return {"sync", Median(means), 0, "aclrtSynchronizeStream on an idle stream"};
  }

  Measurement EventPair() {
    std::vector<double> means;
    for (int round = 0; round < rounds_; ++round) {
      const auto start = Clock::now();
      for (int i = 0; i < kLoopCalls; ++i) {
        BENCH_CHECK_ACL(aclrtRecordEvent(event_, stream_));
        BENCH_CHECK_ACL(aclrtStreamWaitEvent(second_stream_, event_));
      }
      means.push_back(MicrosecondsBetween(start, Clock::now()) / kLoopCalls);
      BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
      BENCH_CHECK_ACL(aclrtSynchronizeStream(second_stream_));
    }
    return {"event", Median(means), 0, "aclrtRecordEvent on stream 1 + aclrtStreamWaitEvent on stream 2"};
  }

  // Independent ops spread over two streams vs all on one: time per op (lower is
  // better); the ratio one/two is the throughput ratio two/one.
  std::vector<Measurement> Streams() {
    std::vector<Measurement> out;
    for (const int64_t elements : {kTinyElements, kSmallElements}) {
      const int calls = elements == kTinyElements ? kLoopCalls : kSmallCalls;
      AddProblem first({elements}), second({elements});
      std::vector<double> one, two;
      for (int round = 0; round < rounds_; ++round) {
        auto start = Clock::now();
        for (int i = 0; i < calls; ++i) AddProblem::Phase2((i % 2 ? second : first).Phase1(), stream_);
        BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
        one.push_back(MicrosecondsBetween(start, Clock::now()) / calls);
        start = Clock::now();
        for (int i = 0; i < calls; ++i) {
          AddProblem::Phase2((i % 2 ? second : first).Phase1(), i % 2 ? second_stream_ : stream_);
        }
        BENCH_CHECK_ACL(aclrtSynchronizeStream(stream_));
        BENCH_CHECK_ACL(aclrtSynchronizeStream(second_stream_));
        two.push_back(MicrosecondsBetween(start, Clock::now()) / calls);
      }
      const std::string size = std::to_string(elements);
      out.push_back({"streams1-" + size, Median(one), 0, "independent Adds of " + size + " f32, one stream"});
      out.push_back({"streams2-" + size, Median(two), 0, "the same ops alternating over two streams"});
    }
    return out;
  }

  // The reference: oneDNN executing a tiny relu primitive (created once) in a loop,
  // with all OpenMP threads (threads = 0) or with the given number. The loop runs
  // as one task on the engine's thread (see RunOnEngine), so it pays no hand-off.
  Measurement OneDnnTiny(int threads) {
    Measurement result;
    RunOnEngine([&] {
      result = OneDnnTinyHere(threads);
      return 0.0;
    });
    return result;
  }

 private:
  Measurement OneDnnTinyHere(int threads) {
    const int saved = omp_get_max_threads();
    if (threads > 0) omp_set_num_threads(threads);
    dnnl::engine engine(dnnl::engine::kind::cpu, 0);
    dnnl::stream stream(engine);
    const dnnl::memory::desc md({kTinyElements}, dnnl::memory::data_type::f32, dnnl::memory::format_tag::a);
    const dnnl::eltwise_forward::desc operation(dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_relu, md,
                                                0.0f);
    const dnnl::eltwise_forward primitive(dnnl::eltwise_forward::primitive_desc(operation, engine));
    dnnl::memory src(md, engine), dst(md, engine);
    std::fill_n(static_cast<float*>(src.get_data_handle()), kTinyElements, -0.5f);
    const std::unordered_map<int, dnnl::memory> arguments = {{DNNL_ARG_SRC, src}, {DNNL_ARG_DST, dst}};
    std::vector<double> means;
    for (int round = 0; round < rounds_; ++round) {
      const auto start = Clock::now();
      for (int i = 0; i < kLoopCalls; ++i) {
        primitive.execute(stream, arguments);
        stream.wait();
      }
      means.push_back(MicrosecondsBetween(start, Clock::now()) / kLoopCalls);
    }
    omp_set_num_threads(saved);
    if (threads > 0) {
      return {"onednn-tiny-" + std::to_string(threads) + "t", Median(means), 0,
              "the same primitive created and run with OMP threads = " + std::to_string(threads)};
    }
    return {"onednn-tiny", Median(means), 0,
            "dnnl::eltwise_forward relu on 16 f32: execute + wait, " + std::to_string(saved) + " OMP threads"};
  }

  const int rounds_;
  aclrtStream stream_;
  aclrtStream second_stream_ = nullptr;
  aclrtEvent event_ = nullptr;
  AddProblem tiny_;
  double clock_us_ = 0;
};

void Report(const Measurement& m, double reference_us, const std::string& reference_name, const std::string& verdict,
            Session& session) {
  Result result;
  result.driver = "overhead";
  result.op = m.name;
  result.dtype = "f32";
  result.problem = std::to_string(kTinyElements);
  result.time_us = m.value_us;
  result.reference_us = reference_us;
  result.reference_name = reference_name;
  result.note = m.note;
  if (m.median_us > 0) {
    char calls[96];
    std::snprintf(calls, sizeof(calls), "; single calls: median %.3f us, p90 %.3f us", m.median_us, m.p90_us);
    result.note += calls;
  }
  if (!verdict.empty()) result.note += "; " + verdict;
  std::printf("[overhead] %-16s %8.3f us per call", m.name.c_str(), m.value_us);
  if (m.median_us > 0) std::printf(" (single calls: median %.3f us, p90 %.3f us)", m.median_us, m.p90_us);
  if (reference_us > 0) {
    std::printf(" | %s %.3f us | canopy/ref %.3f", reference_name.c_str(), reference_us, reference_us / m.value_us);
  }
  if (!verdict.empty()) std::printf(" | %s", verdict.c_str());
  std::printf("  -- %s\n", m.note.c_str());
  session.Record(result);
}

std::string Target(bool met, const char* text) { return std::string(met ? "target met: " : "target MISSED: ") + text; }

}  // namespace

void RunOverheadDriver(const Settings& settings, const std::string& problem, Session& session) {
  static const char* const kNames[] = {"phase1-miss", "phase1-hit", "phase2", "enqueue", "tiny",
                                       "tiny-client", "sync",       "event",  "streams", "onednn-tiny"};
  const bool all = problem == "all";
  if (!all && std::find_if(std::begin(kNames), std::end(kNames), [&](const char* n) { return problem == n; }) ==
                  std::end(kNames)) {
    Die("overhead: unknown measurement '%s'", problem.c_str());
  }
  const auto wanted = [&](const char* name) { return all || problem == name; };
  OverheadBench bench(settings);
  std::printf("[overhead] %d round(s) per measurement; clock read pair %.3f us (subtracted from single calls)\n",
              bench.rounds(), bench.clock_us());

  double onednn_us = 0;
  const std::string onednn_name = "onednn-tiny";
  if (wanted("onednn-tiny") || wanted("tiny") || wanted("tiny-client")) {
    const Measurement reference = bench.OneDnnTiny(0);
    onednn_us = reference.value_us;
    Report(reference, 0, "", "", session);
    // oneDNN parallelises even 16 elements; on one thread it shows the bare primitive cost.
    if (omp_get_max_threads() > 1) Report(bench.OneDnnTiny(1), 0, "", "", session);
  }
  if (wanted("phase1-miss")) Report(bench.Phase1Miss(), 0, "", "", session);
  if (wanted("phase1-hit")) {
    const Measurement m = bench.Phase1Hit();
    Report(m, 0, "", Target(m.value_us <= kPhase1HitTargetUs, "<= 1 us"), session);
  }
  if (wanted("phase2")) {
    const Measurement m = bench.Phase2();
    Report(m, 0, "", Target(m.value_us <= kEnqueueTargetUs, "enqueue <= 0.5 us"), session);
  }
  if (wanted("enqueue")) {
    const Measurement m = bench.Enqueue();
    Report(m, 0, "", Target(m.value_us <= kEnqueueTargetUs, "<= 0.5 us"), session);
  }
  if (wanted("tiny")) {
    const Measurement m = bench.Tiny();
    Report(m, onednn_us, onednn_name, Target(m.value_us <= onednn_us, "<= oneDNN tiny eltwise"), session);
  }
  if (wanted("tiny-client")) Report(bench.TinyClient(), onednn_us, onednn_name, "", session);
  if (wanted("sync")) Report(bench.Sync(), 0, "", "", session);
  if (wanted("event")) Report(bench.EventPair(), 0, "", "", session);
  if (wanted("streams")) {
    const std::vector<Measurement> streams = bench.Streams();
    for (size_t i = 0; i + 1 < streams.size(); i += 2) {
      Report(streams[i], 0, "", "", session);
      // Reference: the one-stream time per op; ratio = two-stream throughput / one-stream throughput.
      Report(streams[i + 1], streams[i].value_us, streams[i].name,
             Target(streams[i + 1].value_us <= streams[i].value_us, "two streams >= one"), session);
    }
  }
}

}  // namespace canopy_bench
