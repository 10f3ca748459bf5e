// --driver=layout: an op over dense but permuted operands against the same op
// over row-major ones, both Canopy, measured alternately in the same run. The
// elementwise engine orders dimensions by stride, so the ratio should be near 1
// (before it, a transposed 2048x2048 Add ran 60-100x slower). Reports the ratio;
// no threshold.
#include <algorithm>
#include <cstdio>
#include <memory>

#include "driver.h"

namespace canopy_bench {
namespace {

// An aclTensor over `data` holding `shape` with its last two dims swapped in memory.
aclTensor* TransposedTensor(const std::vector<int64_t>& shape, aclDataType dtype, void* data) {
  std::vector<int64_t> storage = shape;
  const size_t rank = shape.size();
  std::swap(storage[rank - 1], storage[rank - 2]);
  const std::vector<int64_t> storage_strides = ContiguousStrides(storage);
  std::vector<int64_t> strides = storage_strides;
  std::swap(strides[rank - 1], strides[rank - 2]);
  aclTensor* tensor =
      aclCreateTensor(shape.data(), rank, dtype, strides.data(), 0, ACL_FORMAT_ND, storage.data(), rank, data);
  if (tensor == nullptr) Die("aclCreateTensor(%s) failed: %s", FormatDims(shape).c_str(), aclGetRecentErrMsg());
  return tensor;
}

void RunOne(const Settings& settings, const std::string& op, const DtypeInfo& dtype, const std::string& problem,
            const std::vector<int64_t>& shape, Session& session) {
  Result result;
  result.driver = "layout";
  result.op = op;
  result.dtype = dtype.name;
  result.problem = problem;
  const std::string label = "[layout] op=" + op + " dt=" + dtype.name + " " + problem;
  Random random(settings.seed != Settings::kFreshSeed ? settings.seed : FreshSeed());
  const HostTensor a = RandomTensor(dtype, shape, random, -1, 1);
  const HostTensor b = RandomTensor(dtype, shape, random, -1, 1);
  const int64_t n = a.Elements();
  DeviceBuffer a_device, b_device, out_device, workspace, workspace_ref;
  a_device.Upload(a);
  b_device.Upload(b);
  out_device.Reserve(static_cast<size_t>(n) * dtype.size);
  float one = 1.0f;
  aclScalar* alpha = aclCreateScalar(&one, ACL_FLOAT);
  Tensor a_rows(shape, dtype.acl, a_device.get()), b_rows(shape, dtype.acl, b_device.get());
  Tensor out_rows(shape, dtype.acl, out_device.get());
  aclTensor* a_t = TransposedTensor(shape, dtype.acl, a_device.get());
  aclTensor* b_t = TransposedTensor(shape, dtype.acl, b_device.get());
  aclTensor* out_t = TransposedTensor(shape, dtype.acl, out_device.get());
  std::string error;
  const auto permuted = RegisteredCall(op, {a_t, b_t, out_t}, {alpha}, {}, error);
  const auto rows = RegisteredCall(op, {a_rows.get(), b_rows.get(), out_rows.get()}, {alpha}, {}, error);
  if (permuted == nullptr || rows == nullptr) Die("layout: %s", error.c_str());
  std::string message;
  if (RunCanopyOnce(*permuted, workspace, message) != 0 || RunCanopyOnce(*rows, workspace_ref, message) != 0) {
    Die("layout: %s failed: %s", op.c_str(), message.c_str());
  }
  result.bytes = 3.0 * static_cast<double>(n) * static_cast<double>(dtype.size);
  result.flops = static_cast<double>(n);
  result.peak_gflops = session.machine().f32_gflops;
  result.peak_gbps = session.machine().BandwidthGbps();
  result.reference_name = "canopy-row-major";
  const PairTiming timing =
      MeasurePair(settings, *permuted, workspace, [&] { return TimeCanopyOnce(*rows, workspace_ref).device_us; });
  SetTiming(result, timing);
  std::printf("%s: transposed %.3f ms %.1f GB/s | row-major %.3f ms %.1f GB/s | transposed/row-major rate %.3f\n",
              label.c_str(), result.time_us * 1e-3, result.Gbps(), result.reference_us * 1e-3, result.ReferenceGbps(),
              result.Ratio());
  session.Record(result);
  aclDestroyTensor(a_t);
  aclDestroyTensor(b_t);
  aclDestroyTensor(out_t);
  aclDestroyScalar(alpha);
}

}  // namespace

void RunLayoutDriver(const Settings& settings, const std::string& problem, Session& session) {
  std::vector<int64_t> shape;
  if (!ParseDims(problem, shape) || shape.size() < 2) Die("layout problem '%s' is not like 2048x2048", problem.c_str());
  for (const std::string& op : OpsOf(settings, *FindDriver("layout"))) {
    for (const std::string& dtype : settings.dtypes) RunOne(settings, op, DtypeOf(dtype), problem, shape, session);
  }
}

}  // namespace canopy_bench
