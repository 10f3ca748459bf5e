// A quick all-reduce bandwidth comparison of libhccl and Gloo itself, the
// engine under it, on loopback (not a test; docs/hccl.md quotes its output):
//   hccl_allreduce_bandwidth <ranks> [largest MiB]
// For each size it forks <ranks> processes twice: once calling gloo::allreduce
// directly (FileStore rendezvous, TCP on 127.0.0.1), once HcclAllReduce on a
// stream (root info, synchronised after each call). Rank 0 prints the time per
// call and the bus bandwidth, nccl-tests' definition: 2 (n - 1) / n x bytes / time.
#include <gloo/allreduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/file_store.h>
#include <gloo/transport/tcp/device.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"

namespace {

using Clock = std::chrono::steady_clock;

int Repetitions(size_t bytes) { return bytes <= (1 << 20) ? 200 : bytes <= (16 << 20) ? 20 : 5; }

double Report(const char* engine, uint32_t ranks, size_t bytes, double seconds) {
  const double bus = 2.0 * (ranks - 1) / ranks * static_cast<double>(bytes) / seconds / 1e9;
  std::printf("%-5s ranks=%u bytes=%10zu  %10.1f us  busbw %7.3f GB/s\n", engine, ranks, bytes, seconds * 1e6, bus);
  std::fflush(stdout);
  return bus;
}

int GlooRank(uint32_t rank, uint32_t ranks, size_t bytes, const std::string& dir) {
  gloo::rendezvous::FileStore store(dir);
  gloo::transport::tcp::attr attr;
  attr.hostname = "127.0.0.1";
  auto device = gloo::transport::tcp::CreateDevice(attr);
  auto context = std::make_shared<gloo::rendezvous::Context>(static_cast<int>(rank), static_cast<int>(ranks));
  context->connectFullMesh(store, device);
  std::vector<float> data(bytes / sizeof(float), 1.0f);
  auto once = [&] {
    gloo::AllreduceOptions opts(context);
    opts.setOutput(data.data(), data.size());
    opts.setReduceFunction([](void* c, const void* a, const void* b, size_t n) {
      auto* out = static_cast<float*>(c);
      const auto* x = static_cast<const float*>(a);
      const auto* y = static_cast<const float*>(b);
      for (size_t i = 0; i < n; ++i) out[i] = x[i] + y[i];
    });
    gloo::allreduce(opts);
  };
  once();
  const int reps = Repetitions(bytes);
  const auto start = Clock::now();
  for (int i = 0; i < reps; ++i) once();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count() / reps;
  if (rank == 0) Report("gloo", ranks, bytes, seconds);
  return 0;
}

int HcclRank(uint32_t rank, uint32_t ranks, size_t bytes, const std::string& dir) {
  const std::string root_file = dir + "/root_info";
  HcclRootInfo root{};
  if (rank == 0) {
    if (HcclGetRootInfo(&root) != HCCL_SUCCESS) return 1;
    const std::string partial = root_file + ".tmp";
    std::ofstream(partial, std::ios::binary).write(root.internal, sizeof(root.internal));
    std::rename(partial.c_str(), root_file.c_str());
  } else {
    for (;;) {
      std::ifstream in(root_file, std::ios::binary);
      if (in.read(root.internal, sizeof(root.internal))) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  HcclComm comm = nullptr;
  if (HcclCommInitRootInfo(ranks, &root, rank, &comm) != HCCL_SUCCESS) return 1;
  void* data = nullptr;
  aclrtMalloc(&data, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMemset(data, bytes, 0, bytes);
  const uint64_t count = bytes / sizeof(float);
  auto once = [&] {
    HcclAllReduce(data, data, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, stream);
    aclrtSynchronizeStream(stream);
  };
  once();
  const int reps = Repetitions(bytes);
  const auto start = Clock::now();
  for (int i = 0; i < reps; ++i) once();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count() / reps;
  if (rank == 0) Report("hccl", ranks, bytes, seconds);
  aclrtFree(data);
  HcclCommDestroy(comm);
  aclrtDestroyStream(stream);
  aclFinalize();
  return 0;
}

// Forks `ranks` processes running `body`; false when one failed.
template <typename Body>
bool Fork(uint32_t ranks, Body body) {
  char dir[] = "/tmp/canopy_bw_XXXXXX";
  if (mkdtemp(dir) == nullptr) return false;
  std::vector<pid_t> children;
  for (uint32_t rank = 0; rank < ranks; ++rank) {
    const pid_t pid = fork();
    if (pid == 0) _exit(body(rank, std::string(dir)));
    children.push_back(pid);
  }
  bool ok = true;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    ok = ok && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }
  std::system((std::string("rm -rf ") + dir).c_str());
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const uint32_t ranks = argc > 1 ? static_cast<uint32_t>(std::atoi(argv[1])) : 2;
  const size_t largest = (argc > 2 ? static_cast<size_t>(std::atoi(argv[2])) : 64) << 20;
  for (size_t bytes = 4096; bytes <= largest; bytes *= 16) {
    if (!Fork(ranks, [&](uint32_t rank, const std::string& dir) { return GlooRank(rank, ranks, bytes, dir); })) {
      return 1;
    }
    if (!Fork(ranks, [&](uint32_t rank, const std::string& dir) { return HcclRank(rank, ranks, bytes, dir); })) {
      return 1;
    }
  }
  return 0;
}
