// Data-parallel training of a small MLP across processes, written as an
// Ascend client writes it: every rank runs the forward and backward pass of
// its share of the batch with aclnn ops, all-reduces the gradients with
// HcclAllReduce on the same stream, and applies the same SGD step, so the
// weights stay identical on every rank. The launcher (no arguments) makes the
// root info, starts one process per rank, trains the same model in one
// process on the whole batch, and checks that every rank ends with those
// weights.
//
//   hccl_data_parallel_mlp [ranks]                          the launcher (default 2 ranks)
//   hccl_data_parallel_mlp rank <r> <ranks> <root info> <weights out>
//
// The model: y = relu(x W1) W2, loss = mean((y - t)^2) over the global batch.
// With the loss normalised by the global batch, the sum of the ranks' local
// gradients is the gradient of the whole batch: the all-reduce is a SUM.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"
#include "aclnnop/aclnn_relu.h"
#include "aclnnop/aclnn_sign.h"
#include "aclnnop/aclnn_sub.h"
#include "hccl/hccl.h"

extern char** environ;

#define CHECK(expr)                                                                                         \
  do {                                                                                                      \
    const auto status_ = (expr);                                                                            \
    if (status_ != 0) {                                                                                     \
      std::fprintf(stderr, "%s failed: %d (%s)\n", #expr, static_cast<int>(status_), aclGetRecentErrMsg()); \
      std::exit(1);                                                                                         \
    }                                                                                                       \
  } while (0)

namespace {

constexpr int64_t kIn = 16, kHidden = 32, kOut = 8;
constexpr int64_t kRowsPerRank = 24;
constexpr int kSteps = 8;
constexpr float kLearningRate = 0.05f;

// A deterministic value in [-1, 1) for (stream, index): every process
// computes the same data and initial weights without exchanging them.
float Value(uint64_t stream, uint64_t index) {
  uint64_t x = stream * 0x9e3779b97f4a7c15ull + index * 0xbf58476d1ce4e5b9ull + 1;
  x ^= x >> 31;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 29;
  return static_cast<float>(static_cast<double>(x >> 11) / static_cast<double>(uint64_t{1} << 52) - 1.0);
}

// Rows [first, first + rows) of the global batch: inputs and targets.
void MakeBatch(int64_t first, int64_t rows, std::vector<float>& x, std::vector<float>& t) {
  x.resize(rows * kIn);
  t.resize(rows * kOut);
  for (int64_t i = 0; i < rows * kIn; ++i) x[i] = Value(1, first * kIn + i);
  for (int64_t i = 0; i < rows * kOut; ++i) t[i] = Value(2, first * kOut + i);
}

void* DeviceCopyOf(const std::vector<float>& host) {
  void* device = nullptr;
  const size_t bytes = host.size() * sizeof(float);
  CHECK(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(aclrtMemcpy(device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
  return device;
}

void* DeviceBuffer(int64_t elements) {
  void* device = nullptr;
  CHECK(aclrtMalloc(&device, elements * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST));
  return device;
}

// A row-major [rows, cols] fp32 tensor over `device`, or its transpose (a
// strided view of the same memory, no copy).
aclTensor* Matrix(void* device, int64_t rows, int64_t cols, bool transposed = false) {
  const int64_t shape[] = {transposed ? cols : rows, transposed ? rows : cols};
  const int64_t strides[] = {transposed ? 1 : cols, transposed ? cols : 1};
  const int64_t storage[] = {rows * cols};
  return aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, device);
}

void ReleaseWorkspace(void* workspace) {
  if (workspace != nullptr) aclrtFree(workspace);
}

// Both phases of one aclnn op: the workspace is released in stream order.
template <typename Phase1, typename Phase2>
void Launch(Phase1 phase1, Phase2 phase2, aclrtStream stream) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK(phase1(&workspace_size, &executor));
  void* workspace = nullptr;
  if (workspace_size > 0) CHECK(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST));
  CHECK(phase2(workspace, workspace_size, executor, stream));
  CHECK(aclrtLaunchHostFunc(stream, ReleaseWorkspace, workspace));
}

struct Weights {
  std::vector<float> w1, w2;
};

Weights InitialWeights() {
  Weights weights{std::vector<float>(kIn * kHidden), std::vector<float>(kHidden * kOut)};
  for (size_t i = 0; i < weights.w1.size(); ++i) weights.w1[i] = 0.5f * Value(3, i);
  for (size_t i = 0; i < weights.w2.size(); ++i) weights.w2[i] = 0.5f * Value(4, i);
  return weights;
}

// Trains on rows [first, first + rows) of a global batch of `global_rows`;
// with `comm`, the gradients are summed over its ranks before each step.
// Returns the final weights; `losses` receives each step's local sum of
// squared errors.
Weights Train(int64_t first, int64_t rows, int64_t global_rows, HcclComm comm, std::vector<double>& losses) {
  aclrtStream stream = nullptr;
  CHECK(aclrtCreateStream(&stream));
  std::vector<float> x, t;
  MakeBatch(first, rows, x, t);
  const Weights initial = InitialWeights();
  void* dx = DeviceCopyOf(x);
  void* dt = DeviceCopyOf(t);
  void* dw1 = DeviceCopyOf(initial.w1);
  void* dw2 = DeviceCopyOf(initial.w2);
  void* dh_pre = DeviceBuffer(rows * kHidden);
  void* dh = DeviceBuffer(rows * kHidden);
  void* dy = DeviceBuffer(rows * kOut);
  void* ddiff = DeviceBuffer(rows * kOut);
  void* dgrad_y = DeviceBuffer(rows * kOut);
  void* dgrad_h = DeviceBuffer(rows * kHidden);
  void* dmask = DeviceBuffer(rows * kHidden);
  void* dgrad_w1 = DeviceBuffer(kIn * kHidden);
  void* dgrad_w2 = DeviceBuffer(kHidden * kOut);

  aclTensor* tx = Matrix(dx, rows, kIn);
  aclTensor* tx_t = Matrix(dx, rows, kIn, true);
  aclTensor* tt = Matrix(dt, rows, kOut);
  aclTensor* tw1 = Matrix(dw1, kIn, kHidden);
  aclTensor* tw2 = Matrix(dw2, kHidden, kOut);
  aclTensor* tw2_t = Matrix(dw2, kHidden, kOut, true);
  aclTensor* th_pre = Matrix(dh_pre, rows, kHidden);
  aclTensor* th = Matrix(dh, rows, kHidden);
  aclTensor* th_t = Matrix(dh, rows, kHidden, true);
  aclTensor* ty = Matrix(dy, rows, kOut);
  aclTensor* tdiff = Matrix(ddiff, rows, kOut);
  aclTensor* tgrad_y = Matrix(dgrad_y, rows, kOut);
  aclTensor* tgrad_h = Matrix(dgrad_h, rows, kHidden);
  aclTensor* tmask = Matrix(dmask, rows, kHidden);
  aclTensor* tgrad_w1 = Matrix(dgrad_w1, kIn, kHidden);
  aclTensor* tgrad_w2 = Matrix(dgrad_w2, kHidden, kOut);
  float one = 1.0f, loss_scale = 2.0f / static_cast<float>(global_rows * kOut), rate = kLearningRate;
  aclScalar* alpha_one = aclCreateScalar(&one, ACL_FLOAT);
  aclScalar* scale = aclCreateScalar(&loss_scale, ACL_FLOAT);
  aclScalar* alpha_rate = aclCreateScalar(&rate, ACL_FLOAT);

  std::vector<float> diff(rows * kOut);
  for (int step = 0; step < kSteps; ++step) {
    // Forward: h = relu(x W1), y = h W2, diff = y - t.
    Launch([&](uint64_t* w, aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(tx, tw1, th_pre, 0, w, e); },
           aclnnMatmul, stream);
    Launch([&](uint64_t* w, aclOpExecutor** e) { return aclnnReluGetWorkspaceSize(th_pre, th, w, e); }, aclnnRelu,
           stream);
    Launch([&](uint64_t* w, aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(th, tw2, ty, 0, w, e); },
           aclnnMatmul, stream);
    Launch([&](uint64_t* w, aclOpExecutor** e) { return aclnnSubGetWorkspaceSize(ty, tt, alpha_one, tdiff, w, e); },
           aclnnSub, stream);
    // Backward: dL/dy = 2 diff / (global rows * outputs); dW2 = h^T dy;
    // dh = dy W2^T masked where relu was off (sign(h) is 0 or 1); dW1 = x^T dh.
    Launch([&](uint64_t* w, aclOpExecutor** e) { return aclnnMulsGetWorkspaceSize(tdiff, scale, tgrad_y, w, e); },
           aclnnMuls, stream);
    Launch(
        [&](uint64_t* w, aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(th_t, tgrad_y, tgrad_w2, 0, w, e); },
        aclnnMatmul, stream);
    Launch(
        [&](uint64_t* w, aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(tgrad_y, tw2_t, tgrad_h, 0, w, e); },
        aclnnMatmul, stream);
    Launch([&](uint64_t* w, aclOpExecutor** e) { return aclnnSignGetWorkspaceSize(th, tmask, w, e); }, aclnnSign,
           stream);
    Launch([&](uint64_t* w, aclOpExecutor** e) { return aclnnInplaceMulGetWorkspaceSize(tgrad_h, tmask, w, e); },
           aclnnInplaceMul, stream);
    Launch(
        [&](uint64_t* w, aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(tx_t, tgrad_h, tgrad_w1, 0, w, e); },
        aclnnMatmul, stream);
    // The gradients of every rank's rows, summed: queued on the same stream.
    if (comm != nullptr) {
      CHECK(HcclAllReduce(dgrad_w1, dgrad_w1, kIn * kHidden, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
      CHECK(HcclAllReduce(dgrad_w2, dgrad_w2, kHidden * kOut, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream));
    }
    // SGD: W -= rate * dW.
    Launch([&](uint64_t* w,
               aclOpExecutor** e) { return aclnnInplaceSubGetWorkspaceSize(tw1, tgrad_w1, alpha_rate, w, e); },
           aclnnInplaceSub, stream);
    Launch([&](uint64_t* w,
               aclOpExecutor** e) { return aclnnInplaceSubGetWorkspaceSize(tw2, tgrad_w2, alpha_rate, w, e); },
           aclnnInplaceSub, stream);
    // The loss of this step's forward pass (the only wait of the step).
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(diff.data(), diff.size() * sizeof(float), ddiff, diff.size() * sizeof(float),
                      ACL_MEMCPY_DEVICE_TO_HOST));
    double squares = 0;
    for (const float d : diff) squares += double{d} * d;
    losses.push_back(squares);
  }

  Weights result{std::vector<float>(kIn * kHidden), std::vector<float>(kHidden * kOut)};
  CHECK(aclrtMemcpy(result.w1.data(), result.w1.size() * sizeof(float), dw1, result.w1.size() * sizeof(float),
                    ACL_MEMCPY_DEVICE_TO_HOST));
  CHECK(aclrtMemcpy(result.w2.data(), result.w2.size() * sizeof(float), dw2, result.w2.size() * sizeof(float),
                    ACL_MEMCPY_DEVICE_TO_HOST));
  for (aclTensor* tensor :
       {tx, tx_t, tt, tw1, tw2, tw2_t, th_pre, th, th_t, ty, tdiff, tgrad_y, tgrad_h, tmask, tgrad_w1, tgrad_w2}) {
    aclDestroyTensor(tensor);
  }
  for (aclScalar* scalar : {alpha_one, scale, alpha_rate}) aclDestroyScalar(scalar);
  for (void* p : {dx, dt, dw1, dw2, dh_pre, dh, dy, ddiff, dgrad_y, dgrad_h, dmask, dgrad_w1, dgrad_w2}) {
    CHECK(aclrtFree(p));
  }
  CHECK(aclrtDestroyStream(stream));
  return result;
}

// One rank: joins the communicator, trains on its rows, writes its weights.
int RunRank(uint32_t rank, uint32_t ranks, const std::string& root_file, const std::string& out_file) {
  HcclRootInfo root{};
  std::ifstream in(root_file, std::ios::binary);
  if (!in.read(root.internal, sizeof(root.internal))) {
    std::fprintf(stderr, "rank %u: cannot read %s\n", rank, root_file.c_str());
    return 1;
  }
  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  HcclComm comm = nullptr;
  CHECK(HcclCommInitRootInfo(ranks, &root, rank, &comm));
  std::vector<double> losses;
  const Weights weights = Train(rank * kRowsPerRank, kRowsPerRank, ranks * kRowsPerRank, comm, losses);
  CHECK(HcclCommDestroy(comm));
  std::ofstream out(out_file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(weights.w1.data()), weights.w1.size() * sizeof(float));
  out.write(reinterpret_cast<const char*>(weights.w2.data()), weights.w2.size() * sizeof(float));
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return out.good() ? 0 : 1;
}

bool ReadWeights(const std::string& path, Weights& weights) {
  weights = {std::vector<float>(kIn * kHidden), std::vector<float>(kHidden * kOut)};
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(weights.w1.data()), weights.w1.size() * sizeof(float));
  in.read(reinterpret_cast<char*>(weights.w2.data()), weights.w2.size() * sizeof(float));
  return static_cast<bool>(in);
}

// Starts the ranks, trains the single-process reference meanwhile, and compares.
int RunLauncher(const char* self, uint32_t ranks) {
  HcclRootInfo root{};
  CHECK(HcclGetRootInfo(&root));
  char directory[] = "/tmp/canopy_mlp_XXXXXX";
  if (mkdtemp(directory) == nullptr) return 1;
  const std::string root_file = std::string(directory) + "/root_info";
  std::ofstream(root_file, std::ios::binary).write(root.internal, sizeof(root.internal));

  std::vector<pid_t> pids;
  std::vector<std::string> outputs;
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    outputs.push_back(std::string(directory) + "/weights" + std::to_string(rank));
    std::string program = self, mode = "rank", rank_text = std::to_string(rank), ranks_text = std::to_string(ranks);
    std::string root_arg = root_file, out_arg = outputs.back();
    char* argv[] = {program.data(),  mode.data(),    rank_text.data(), ranks_text.data(),
                    root_arg.data(), out_arg.data(), nullptr};
    pid_t pid = -1;
    if (posix_spawn(&pid, self, nullptr, nullptr, argv, environ) != 0) {
      std::fprintf(stderr, "cannot start rank %u\n", rank);
      return 1;
    }
    pids.push_back(pid);
  }

  CHECK(aclInit(nullptr));
  CHECK(aclrtSetDevice(0));
  std::vector<double> losses;
  const Weights reference = Train(0, ranks * kRowsPerRank, ranks * kRowsPerRank, nullptr, losses);
  std::printf("MLP %lldx%lldx%lld, %u ranks x %lld rows, %d SGD steps (single-process reference over all %lld rows)\n",
              static_cast<long long>(kIn), static_cast<long long>(kHidden), static_cast<long long>(kOut), ranks,
              static_cast<long long>(kRowsPerRank), kSteps, static_cast<long long>(ranks) * kRowsPerRank);
  for (int step = 0; step < kSteps; ++step) {
    std::printf("  step %d: loss %.6f\n", step, losses[step] / static_cast<double>(ranks * kRowsPerRank * kOut));
  }

  // Every rank must finish; a rank that hangs is killed after two minutes.
  bool ranks_ok = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    int status = 0;
    while (waitpid(pids[rank], &status, WNOHANG) == 0) {
      if (std::chrono::steady_clock::now() > deadline) {
        kill(pids[rank], SIGKILL);
        waitpid(pids[rank], &status, 0);
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "rank %u failed\n", rank);
      ranks_ok = false;
    }
  }

  bool identical = ranks_ok, matches = ranks_ok;
  double max_difference = 0;
  std::vector<Weights> trained(ranks);
  for (uint32_t rank = 0; ranks_ok && rank < ranks; ++rank) {
    if (!ReadWeights(outputs[rank], trained[rank])) {
      identical = matches = false;
      break;
    }
    identical = identical && trained[rank].w1 == trained[0].w1 && trained[rank].w2 == trained[0].w2;
    for (auto [got, want] :
         {std::pair{&trained[rank].w1, &reference.w1}, std::pair{&trained[rank].w2, &reference.w2}}) {
      for (size_t i = 0; i < want->size(); ++i) {
        max_difference = std::max(max_difference, std::fabs(double{(*got)[i]} - (*want)[i]));
      }
    }
  }
  // The ranks sum per-rank partial products, the reference sums all rows at
  // once: the rounding differs by a few ulps, nothing more.
  matches = matches && max_difference <= 1e-5;
  std::printf("  the ranks' weights are %s; largest difference from the single-process run %.3g: %s\n",
              identical ? "bitwise identical" : "NOT identical", max_difference,
              identical && matches ? "PASS" : "FAIL");
  for (const std::string& path : outputs) std::remove(path.c_str());
  std::remove(root_file.c_str());
  rmdir(directory);
  CHECK(aclrtResetDevice(0));
  CHECK(aclFinalize());
  return identical && matches ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 6 && std::strcmp(argv[1], "rank") == 0) {
    return RunRank(static_cast<uint32_t>(std::atoi(argv[2])), static_cast<uint32_t>(std::atoi(argv[3])), argv[4],
                   argv[5]);
  }
  const int ranks = argc > 1 ? std::atoi(argv[1]) : 2;
  if (argc > 2 || ranks < 1 || ranks > 8) {
    std::fprintf(stderr, "usage: %s [ranks 1..8]\n", argv[0]);
    return 2;
  }
  // The ranks are this same program, started by path.
  char self[4096] = {};
  const ssize_t length = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (length <= 0) return 1;
  return RunLauncher(self, static_cast<uint32_t>(ranks));
}
