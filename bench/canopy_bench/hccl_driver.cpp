// The hccl driver: HcclAllReduce and HcclAllGather bus bandwidth across
// processes on loopback, next to Gloo's own allreduce / allgather (the engine
// under libhccl) in the same processes, alternating call by call.
//
// Problem: RANKS:BYTES (2:64M), RANKS:LOW-HIGH (4:4K-256M, sizes x4), or
// "all" (2 and 4 ranks, 4K to 256M). BYTES is nccl-tests' size: the all-reduce
// buffer, or the all-gather's whole output (each rank sends BYTES / RANKS).
// Bus bandwidth, nccl-tests' definition: all-reduce 2 (n-1)/n x BYTES / time,
// all-gather (n-1)/n x BYTES / time. fp32 sum.
//
// The driver starts RANKS copies of canopy-bench in worker mode
// (canopy-bench --hccl-worker ..., see RunHcclWorker): each joins a Gloo
// context (file-store rendezvous, TCP on 127.0.0.1) and an HCCL communicator
// (root info made here), then runs the two back to back; rank 0 writes the
// medians and best times.
#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <thread>

#include "driver.h"
#include "hccl/hccl.h"

extern char** environ;

namespace canopy_bench {
namespace {

constexpr auto kRankDeadline = std::chrono::minutes(10);

struct Timings {
  double gloo_us = 0, gloo_best_us = 0, hccl_us = 0, hccl_best_us = 0;
};

// Bus bytes per call (nccl-tests): bandwidth = this / time.
double BusBytes(const std::string& op, uint32_t ranks, double bytes) {
  const double n = ranks;
  return op == "allreduce" ? 2 * (n - 1) / n * bytes : (n - 1) / n * bytes;
}

// Enough calls for a stable median on a shared machine, not minutes at 256M.
int RepetitionsFor(size_t bytes, const Settings& settings) {
  if (settings.repetitions != Settings::kDefaultRepetitions) return settings.repetitions;
  const size_t budget = size_t{256} << 20;
  return static_cast<int>(std::clamp<size_t>(budget / std::max<size_t>(bytes, 1), 5, 200));
}

std::string SelfPath() {
  char self[4096] = {};
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) Die("hccl: cannot find this program (/proc/self/exe)");
  return self;
}

bool RunRanks(const std::string& op, uint32_t ranks, size_t bytes, int reps, Timings& timings) {
  HcclRootInfo root{};
  if (HcclGetRootInfo(&root) != HCCL_SUCCESS) Die("hccl: HcclGetRootInfo failed: %s", aclGetRecentErrMsg());
  char directory[] = "/tmp/canopy_bench_hccl_XXXXXX";
  if (mkdtemp(directory) == nullptr) Die("hccl: mkdtemp failed");
  const std::string dir = directory, root_file = dir + "/root_info", out_file = dir + "/timings",
                    store_dir = dir + "/gloo";
  mkdir(store_dir.c_str(), 0700);
  std::ofstream(root_file, std::ios::binary).write(root.internal, sizeof(root.internal));
  const std::string self = SelfPath();
  std::vector<pid_t> pids;
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    std::vector<std::string> args = {self,
                                     "--hccl-worker",
                                     op,
                                     std::to_string(ranks),
                                     std::to_string(rank),
                                     std::to_string(bytes),
                                     std::to_string(reps),
                                     store_dir,
                                     root_file,
                                     out_file};
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    pid_t pid = -1;
    if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ) != 0) Die("hccl: cannot start a rank");
    pids.push_back(pid);
  }
  bool ok = true;
  const auto deadline = Clock::now() + kRankDeadline;
  for (const pid_t pid : pids) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (Clock::now() > deadline) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  std::ifstream in(out_file);
  ok =
      ok && static_cast<bool>(in >> timings.gloo_us >> timings.gloo_best_us >> timings.hccl_us >> timings.hccl_best_us);
  std::system(("rm -rf " + dir).c_str());
  return ok;
}

void RunOne(const Settings& settings, const std::string& op, uint32_t ranks, size_t bytes, Session& session) {
  Result result;
  result.driver = "hccl";
  result.op = op;
  result.dtype = "f32";
  result.problem = std::to_string(ranks) + ":" + std::to_string(bytes);
  result.reference_name = "gloo";
  result.bytes = BusBytes(op, ranks, static_cast<double>(bytes));
  const std::string label = "[hccl] op=" + op + " ranks=" + std::to_string(ranks) + " bytes=" + std::to_string(bytes);
  Timings timings;
  if (!RunRanks(op, ranks, bytes, RepetitionsFor(bytes, settings), timings)) {
    result.status = "error";
    std::printf("%s: a rank failed\n", label.c_str());
    session.Record(result);
    return;
  }
  result.time_us = result.wall_us = timings.hccl_us;
  result.best_us = timings.hccl_best_us;
  result.reference_us = timings.gloo_us;
  result.reference_best_us = timings.gloo_best_us;
  std::printf("%s: hccl %.1f us busbw %.3f GB/s | gloo %.1f us busbw %.3f GB/s | hccl/gloo bandwidth %.3f\n",
              label.c_str(), result.time_us, result.Gbps(), result.reference_us, result.ReferenceGbps(),
              result.Ratio());
  session.Record(result);
}

size_t ParseBytes(const std::string& text, const std::string& problem) {
  std::vector<int64_t> dims;
  if (!ParseDims(text, dims) || dims.size() != 1 || dims[0] <= 0) {
    Die("hccl problem '%s': '%s' is not a size like 4K or 256M", problem.c_str(), text.c_str());
  }
  return static_cast<size_t>(dims[0]);
}

double Seconds(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

void RunHcclDriver(const Settings& settings, const std::string& problem, Session& session) {
  if (problem == "all") {
    for (const char* sweep : {"2:4K-256M", "4:4K-256M"}) RunHcclDriver(settings, sweep, session);
    return;
  }
  const size_t colon = problem.find(':');
  if (colon == std::string::npos) Die("hccl problem '%s' is not like 2:64M, 4:4K-256M or all", problem.c_str());
  const int ranks = std::atoi(problem.substr(0, colon).c_str());
  if (ranks < 2 || ranks > 64) Die("hccl problem '%s': ranks must be 2 to 64", problem.c_str());
  const std::string sizes = problem.substr(colon + 1);
  const size_t dash = sizes.find('-');
  const size_t low = ParseBytes(sizes.substr(0, dash), problem);
  const size_t high = dash == std::string::npos ? low : ParseBytes(sizes.substr(dash + 1), problem);
  for (const std::string& dtype : settings.dtypes) {
    if (dtype != "f32") Die("hccl: only --dt=f32 (got %s)", dtype.c_str());
  }
  for (const std::string& op : OpsOf(settings, *FindDriver("hccl"))) {
    if (op != "allreduce" && op != "allgather") Die("hccl: ops are allreduce and allgather, not '%s'", op.c_str());
    for (size_t bytes = low; bytes <= high; bytes *= 4) {
      // The all-gather's output holds a whole number of fp32 elements per rank.
      const size_t unit = op == "allgather" ? sizeof(float) * ranks : sizeof(float);
      RunOne(settings, op, static_cast<uint32_t>(ranks), std::max(unit, bytes / unit * unit), session);
    }
  }
}

int RunHcclWorker(int argc, char** argv) {
  if (argc != 8) {
    std::fprintf(stderr, "usage: canopy-bench --hccl-worker op ranks rank bytes reps store_dir root_file out_file\n");
    return 2;
  }
  const std::string op = argv[0];
  const int ranks = std::atoi(argv[1]), rank = std::atoi(argv[2]);
  const size_t bytes = std::strtoull(argv[3], nullptr, 10);
  const int reps = std::atoi(argv[4]);
  const bool gather = op == "allgather";
  const size_t out_count = bytes / sizeof(float), in_count = gather ? out_count / ranks : out_count;

  // Gloo's own context, its rendezvous a directory.
  gloo::rendezvous::FileStore store(argv[5]);
  gloo::transport::tcp::attr attr;
  attr.hostname = "127.0.0.1";
  auto device = gloo::transport::tcp::CreateDevice(attr);
  auto context = std::make_shared<gloo::rendezvous::Context>(rank, ranks);
  context->setTimeout(std::chrono::minutes(5));
  context->connectFullMesh(store, device);

  HcclRootInfo root{};
  std::ifstream root_in(argv[6], std::ios::binary);
  if (!root_in.read(root.internal, sizeof(root.internal))) return 1;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 1;
  HcclComm comm = nullptr;
  if (HcclCommInitRootInfo(static_cast<uint32_t>(ranks), &root, static_cast<uint32_t>(rank), &comm) != HCCL_SUCCESS) {
    std::fprintf(stderr, "rank %d: %s\n", rank, aclGetRecentErrMsg());
    return 1;
  }
  // Both engines work on the same device buffers (host memory on Canopy).
  void *send = nullptr, *recv = nullptr;
  if (aclrtMalloc(&send, in_count * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
      aclrtMalloc(&recv, out_count * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return 1;
  }
  aclrtMemset(send, in_count * sizeof(float), 0, in_count * sizeof(float));
  aclrtMemset(recv, out_count * sizeof(float), 0, out_count * sizeof(float));
  float* const send_f = static_cast<float*>(send);
  float* const recv_f = static_cast<float*>(recv);

  const auto gloo_once = [&] {
    if (gather) {
      gloo::AllgatherOptions opts(context);
      opts.setInput(send_f, in_count);
      opts.setOutput(recv_f, out_count);
      gloo::allgather(opts);
    } else {
      gloo::AllreduceOptions opts(context);
      opts.setOutput(recv_f, out_count);
      opts.setReduceFunction([](void* c, const void* a, const void* b, size_t n) {
        auto* out = static_cast<float*>(c);
        const auto* x = static_cast<const float*>(a);
        const auto* y = static_cast<const float*>(b);
        for (size_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
      });
      gloo::allreduce(opts);
    }
  };
  bool hccl_ok = true;
  const auto hccl_once = [&] {
    const HcclResult status =
        gather ? HcclAllGather(send, recv, in_count, HCCL_DATA_TYPE_FP32, comm, stream)
               : HcclAllReduce(recv, recv, out_count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
    hccl_ok = hccl_ok && status == HCCL_SUCCESS && aclrtSynchronizeStream(stream) == ACL_SUCCESS;
  };
  gloo_once();
  hccl_once();
  std::vector<double> gloo_us, hccl_us;
  for (int i = 0; i < reps; ++i) {
    // Alternating, so both meet the same moments of a shared machine.
    auto start = Clock::now();
    gloo_once();
    gloo_us.push_back(Seconds(start) * 1e6);
    start = Clock::now();
    hccl_once();
    hccl_us.push_back(Seconds(start) * 1e6);
  }
  if (!hccl_ok) {
    std::fprintf(stderr, "rank %d: %s\n", rank, aclGetRecentErrMsg());
    return 1;
  }
  if (rank == 0) {
    std::ofstream out(argv[7]);
    out << Median(gloo_us) << " " << *std::min_element(gloo_us.begin(), gloo_us.end()) << " " << Median(hccl_us) << " "
        << *std::min_element(hccl_us.begin(), hccl_us.end()) << "\n";
  }
  aclrtFree(send);
  aclrtFree(recv);
  HcclCommDestroy(comm);
  aclrtDestroyStream(stream);
  aclFinalize();
  return 0;
}

}  // namespace canopy_bench
