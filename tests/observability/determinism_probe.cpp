// Runs a fixed set of ops on fixed pseudo-random data and prints one hash per
// result, so that a test can compare runs (and thread counts) bit for bit.
//   determinism_probe [deterministic 0|1]
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"
#include "aclnnop/aclnn_addmm.h"
#include "aclnnop/aclnn_cast.h"
#include "aclnnop/aclnn_convolution.h"
#include "aclnnop/aclnn_div.h"
#include "aclnnop/aclnn_matmul.h"
#include "aclnnop/aclnn_mul.h"

namespace {

aclrtStream stream = nullptr;

void Check(int status, const char* what) {
  if (status != 0) {
    std::fprintf(stderr, "%s: %d %s\n", what, status, aclGetRecentErrMsg());
    std::exit(2);
  }
}

struct Buffer {
  void* data = nullptr;
  size_t bytes = 0;
  aclDataType dtype;
  std::vector<int64_t> shape;
  Buffer(aclDataType t, std::vector<int64_t> s, uint32_t seed) : dtype(t), shape(std::move(s)) {
    size_t n = 1;
    for (int64_t d : shape) n *= static_cast<size_t>(d);
    bytes = n * (t == ACL_FLOAT ? 4 : 2);
    Check(aclrtMalloc(&data, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "malloc");
    std::vector<uint8_t> host(bytes);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    for (size_t i = 0; i < n; ++i) {
      float v = uniform(rng);
      if (t == ACL_FLOAT) {
        std::memcpy(&host[4 * i], &v, 4);
      } else {  // keep the top 16 bits: a valid bf16, and a finite fp16 for |v| < 1 after masking
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        const uint16_t half =
            t == ACL_BF16 ? static_cast<uint16_t>(bits >> 16) : static_cast<uint16_t>(0x3800 | (bits & 0x83ff));
        std::memcpy(&host[2 * i], &half, 2);
      }
    }
    Check(aclrtMemcpy(data, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE), "upload");
  }
  aclTensor* Tensor(aclFormat format = ACL_FORMAT_ND) const {
    return aclCreateTensor(shape.data(), shape.size(), dtype, nullptr, 0, format, shape.data(), shape.size(), data);
  }
  uint64_t Hash() const {
    std::vector<uint8_t> host(bytes);
    Check(aclrtMemcpy(host.data(), bytes, data, bytes, ACL_MEMCPY_DEVICE_TO_HOST), "download");
    uint64_t h = 1469598103934665603ull;
    for (uint8_t b : host) h = (h ^ b) * 1099511628211ull;
    return h;
  }
};

template <typename Phase1, typename Phase2>
void Run(Phase1 phase1, Phase2 phase2) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  Check(phase1(&workspace_size, &executor), "phase 1");
  void* workspace = nullptr;
  if (workspace_size > 0) Check(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), "workspace");
  Check(phase2(workspace, workspace_size, executor, stream), "phase 2");
  Check(aclrtSynchronizeStream(stream), "sync");
  if (workspace != nullptr) aclrtFree(workspace);
}

}  // namespace

int main(int argc, char** argv) {
  Check(aclInit(nullptr), "init");
  if (argc > 1) Check(aclrtSetSysParamOpt(ACL_OPT_DETERMINISTIC, std::atoi(argv[1])), "deterministic");
  Check(aclrtSetDevice(0), "device");
  Check(aclrtCreateStream(&stream), "stream");
  float one = 1.0f, half = 0.5f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  aclScalar* beta = aclCreateScalar(&half, ACL_FLOAT);

  constexpr int64_t kLarge = 1 << 20;  // big enough to run on every thread
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    Buffer a(dt, {kLarge}, 1), b(dt, {kLarge}, 2), out(dt, {kLarge}, 3);
    aclTensor *ta = a.Tensor(), *tb = b.Tensor(), *to = out.Tensor();
    Run([&](uint64_t* w, aclOpExecutor** e) { return aclnnAddGetWorkspaceSize(ta, tb, alpha, to, w, e); }, aclnnAdd);
    std::printf("add %d %016" PRIx64 "\n", dt, out.Hash());
    Run([&](uint64_t* w, aclOpExecutor** e) { return aclnnMulGetWorkspaceSize(ta, tb, to, w, e); }, aclnnMul);
    std::printf("mul %d %016" PRIx64 "\n", dt, out.Hash());
    Run([&](uint64_t* w, aclOpExecutor** e) { return aclnnDivGetWorkspaceSize(ta, tb, to, w, e); }, aclnnDiv);
    std::printf("div %d %016" PRIx64 "\n", dt, out.Hash());
    Buffer cast(ACL_FLOAT, {kLarge}, 4);
    aclTensor* tc = cast.Tensor();
    Run([&](uint64_t* w, aclOpExecutor** e) { return aclnnCastGetWorkspaceSize(ta, ACL_FLOAT, tc, w, e); }, aclnnCast);
    std::printf("cast %d %016" PRIx64 "\n", dt, cast.Hash());
    for (aclTensor* t : {ta, tb, to, tc}) aclDestroyTensor(t);
  }
  // Shapes where a matmul library might split K across threads.
  const int64_t shapes[][3] = {{256, 256, 256}, {1, 4096, 512}, {8, 8192, 8}, {64, 1024, 192}};
  for (aclDataType dt : {ACL_FLOAT, ACL_BF16, ACL_FLOAT16}) {
    for (const auto& s : shapes) {
      Buffer a(dt, {s[0], s[1]}, 5), b(dt, {s[1], s[2]}, 6), out(dt, {s[0], s[2]}, 7), bias(dt, {s[2]}, 8);
      aclTensor *ta = a.Tensor(), *tb = b.Tensor(), *to = out.Tensor(), *tbias = bias.Tensor();
      Run([&](uint64_t* w, aclOpExecutor** e) { return aclnnMatmulGetWorkspaceSize(ta, tb, to, 0, w, e); },
          aclnnMatmul);
      std::printf("matmul %d %lldx%lldx%lld %016" PRIx64 "\n", dt, static_cast<long long>(s[0]),
                  static_cast<long long>(s[1]), static_cast<long long>(s[2]), out.Hash());
      Run([&](uint64_t* w,
              aclOpExecutor** e) { return aclnnAddmmGetWorkspaceSize(tbias, ta, tb, beta, alpha, to, 0, w, e); },
          aclnnAddmm);
      std::printf("addmm %d %lldx%lldx%lld %016" PRIx64 "\n", dt, static_cast<long long>(s[0]),
                  static_cast<long long>(s[1]), static_cast<long long>(s[2]), out.Hash());
      for (aclTensor* t : {ta, tb, to, tbias}) aclDestroyTensor(t);
    }
  }
  // Convolutions oneDNN runs as im2col and a gemm below AVX-512 (few output
  // channels), whose reduction a thread count split.
  struct Conv {
    std::vector<int64_t> x, w, y, stride, padding;
    bool transposed;
  };
  const Conv convs[] = {{{1, 1024, 33}, {1024, 3, 4}, {1, 3, 66}, {2}, {1}, true},
                        {{2, 256, 21, 19}, {13, 256, 3, 3}, {2, 13, 21, 19}, {1, 1}, {1, 1}, false}};
  for (aclDataType dt : {ACL_FLOAT, ACL_BF16}) {
    for (const Conv& c : convs) {
      Buffer x(dt, c.x, 9), w(dt, c.w, 10), y(dt, c.y, 11);
      const aclFormat format = c.x.size() == 3 ? ACL_FORMAT_NCL : ACL_FORMAT_NCHW;
      aclTensor *tx = x.Tensor(format), *tw = w.Tensor(format), *ty = y.Tensor(format);
      const std::vector<int64_t> ones(c.stride.size(), 1), zeros(c.stride.size(), 0);
      aclIntArray* stride = aclCreateIntArray(c.stride.data(), c.stride.size());
      aclIntArray* padding = aclCreateIntArray(c.padding.data(), c.padding.size());
      aclIntArray* dilation = aclCreateIntArray(ones.data(), ones.size());
      aclIntArray* output_padding = aclCreateIntArray(zeros.data(), zeros.size());
      Run(
          [&](uint64_t* ws, aclOpExecutor** e) {
            return aclnnConvolutionGetWorkspaceSize(tx, tw, nullptr, stride, padding, dilation, c.transposed,
                                                    output_padding, 1, ty, 0, ws, e);
          },
          aclnnConvolution);
      std::printf("convolution %d %s %016" PRIx64 "\n", dt, c.transposed ? "transposed" : "forward", y.Hash());
      for (aclIntArray* a : {stride, padding, dilation, output_padding}) aclDestroyIntArray(a);
      for (aclTensor* t : {tx, tw, ty}) aclDestroyTensor(t);
    }
  }
  aclDestroyScalar(alpha);
  aclDestroyScalar(beta);
  return 0;
}
