// --driver=movement: the data-movement ops llama.cpp leans on (Cat, Permute,
// GatherV2 of rows, Repeat) on contiguous tensors, against a plain two-thread
// copy loop over the same bytes (read the output's bytes once, write them
// once; memcpy on two threads, between buffers from the same allocator),
// measured alternately in the same run (--mode=P), or bit for bit against a
// host loop (--mode=C). The target (issue 15) is a ratio of at least 0.8.
//
// Problem: SHAPE[:dD][:nN][:iI][:xBITS][:rRxR..][:pPxP..]
//   cat       N members of SHAPE (n, default 2) along dim D (d, default 0)
//   permute   SHAPE permuted by P (p; default: the two inner dims swapped)
//   gatherv2  rows of the table SHAPE along dim D (default 0) picked by I
//             random indices (i, default half of the extent), int64 (x64,
//             default) or int32 (x32); --mode=C adds negative ones
//   repeat    SHAPE tiled R times (r, default 2 along dim 0)
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>

#include "aclnnop/aclnn_cat.h"
#include "aclnnop/aclnn_gather_v2.h"
#include "aclnnop/aclnn_permute.h"
#include "aclnnop/aclnn_repeat.h"
#include "driver.h"
#include "reference_loops.h"

namespace canopy_bench {
namespace {

constexpr int kCopyThreads = 2;
constexpr int64_t kDefaultMembers = 2;
constexpr int64_t kDefaultRepeat = 2;

struct Problem {
  std::vector<int64_t> shape;
  int64_t dim = 0;
  int64_t members = kDefaultMembers;
  int64_t indices = -1;  // -1: half of the gathered extent
  int index_bits = 64;
  std::vector<int64_t> repeats;  // empty: (2, 1, ...)
  std::vector<int64_t> order;    // empty: the two inner dims swapped
};

// "4x1" or "3x0x2x1" (the CSV keeps problems unquoted, so no commas).
bool ParseList(const std::string& text, std::vector<int64_t>& values) {
  values.clear();
  std::string spaced = text;
  std::replace(spaced.begin(), spaced.end(), 'x', ',');
  for (const std::string& item : SplitList(spaced)) {
    char* end = nullptr;
    values.push_back(std::strtoll(item.c_str(), &end, 10));
    if (end == item.c_str() || *end != '\0') return false;
  }
  return !values.empty();
}

bool ParseProblem(const std::string& text, Problem& p) {
  std::vector<std::string> parts;
  size_t position = 0;
  while (position <= text.size()) {
    const size_t colon = std::min(text.find(':', position), text.size());
    parts.push_back(text.substr(position, colon - position));
    position = colon + 1;
  }
  if (!ParseDims(parts[0], p.shape) || p.shape.empty()) return false;
  for (size_t k = 1; k < parts.size(); ++k) {
    const std::string& part = parts[k];
    if (part.size() < 2) return false;
    std::vector<int64_t> values;
    if (!ParseList(part.substr(1), values)) return false;
    const bool one = values.size() == 1;
    switch (part[0]) {
      case 'd':
        if (!one) return false;
        p.dim = values[0];
        break;
      case 'n':
        if (!one || values[0] < 1) return false;
        p.members = values[0];
        break;
      case 'i':
        if (!one || values[0] < 0) return false;
        p.indices = values[0];
        break;
      case 'x':
        if (!one || (values[0] != 32 && values[0] != 64)) return false;
        p.index_bits = static_cast<int>(values[0]);
        break;
      case 'r':
        p.repeats = values;
        break;
      case 'p':
        p.order = values;
        break;
      default:
        return false;
    }
  }
  const auto rank = static_cast<int64_t>(p.shape.size());
  if (p.dim < -rank || p.dim >= rank) return false;
  if (p.dim < 0) p.dim += rank;
  if (p.repeats.empty()) {
    p.repeats.assign(p.shape.size(), 1);
    p.repeats[0] = kDefaultRepeat;
  }
  if (p.order.empty()) {
    p.order.resize(p.shape.size());
    std::iota(p.order.begin(), p.order.end(), 0);
    if (rank >= 2) std::swap(p.order[rank - 1], p.order[rank - 2]);
  }
  return true;
}

int64_t Product(const std::vector<int64_t>& dims, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= dims[i];
  return n;
}

// Random bytes that are finite in every float dtype: the exponent's top bit
// of each element cleared (no Inf, no NaN, so any copy keeps them bit for bit).
std::vector<unsigned char> RandomBytes(const DtypeInfo& dtype, int64_t elements, Random& random) {
  std::vector<unsigned char> bytes(static_cast<size_t>(elements) * dtype.size + sizeof(uint64_t));
  for (size_t i = 0; i + sizeof(uint64_t) <= bytes.size(); i += sizeof(uint64_t)) {
    const uint64_t word = random.Next();
    std::memcpy(bytes.data() + i, &word, sizeof word);
  }
  bytes.resize(static_cast<size_t>(elements) * dtype.size);
  if (dtype.floating) {
    const size_t top = dtype.size - 1;  // little-endian: the sign and exponent's top bits
    for (size_t i = top; i < bytes.size(); i += dtype.size) bytes[i] &= 0xbf;
  }
  return bytes;
}

void UploadBytes(DeviceBuffer& device, const std::vector<unsigned char>& host) {
  device.Reserve(std::max<size_t>(host.size(), 1));
  if (!host.empty()) {
    BENCH_CHECK_ACL(aclrtMemcpy(device.get(), device.bytes(), host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  }
}

// One op on one problem: its operands, the call and the host reference's bytes.
struct Case {
  std::vector<DeviceBuffer> inputs;
  std::vector<std::unique_ptr<Tensor>> tensors;  // inputs, then out
  std::vector<int64_t> out_shape;
  DeviceBuffer out;
  aclTensorList* list = nullptr;
  aclIntArray* array = nullptr;
  CanopyCall call;
  std::vector<unsigned char> expected;  // --mode=C only
  std::string note;

  Case() = default;
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;
  ~Case() {
    if (list != nullptr) aclDestroyTensorList(list);  // it owns the member tensors
    if (array != nullptr) aclDestroyIntArray(array);
  }
};

void MakeOut(Case& c, const DtypeInfo& dtype) {
  c.out.Reserve(std::max<size_t>(static_cast<size_t>(Product(c.out_shape, 0, c.out_shape.size())) * dtype.size, 1));
  c.out.Poison();
  c.tensors.push_back(std::make_unique<Tensor>(c.out_shape, dtype.acl, c.out.get()));
}

void BuildCat(Case& c, const Problem& p, const DtypeInfo& dtype, Random& random, bool check) {
  const auto d = static_cast<size_t>(p.dim);
  const int64_t elements = Product(p.shape, 0, p.shape.size());
  std::vector<std::vector<unsigned char>> hosts;
  std::vector<aclTensor*> members;
  c.inputs.resize(static_cast<size_t>(p.members));
  for (int64_t m = 0; m < p.members; ++m) {
    hosts.push_back(RandomBytes(dtype, elements, random));
    UploadBytes(c.inputs[static_cast<size_t>(m)], hosts.back());
    const std::vector<int64_t> strides = ContiguousStrides(p.shape);
    members.push_back(aclCreateTensor(p.shape.data(), p.shape.size(), dtype.acl, strides.data(), 0, ACL_FORMAT_ND,
                                      p.shape.data(), p.shape.size(), c.inputs[static_cast<size_t>(m)].get()));
  }
  c.list = aclCreateTensorList(members.data(), members.size());
  c.out_shape = p.shape;
  c.out_shape[d] *= p.members;
  MakeOut(c, dtype);
  aclTensor* out = c.tensors.back()->get();
  const int64_t dim = p.dim;
  aclTensorList* list = c.list;
  c.call.phase1 = [list, dim, out](uint64_t* size, aclOpExecutor** executor) {
    return aclnnCatGetWorkspaceSize(list, dim, out, size, executor);
  };
  c.call.phase2 = aclnnCat;
  if (!check) return;
  const int64_t outer = Product(p.shape, 0, d);
  const size_t block = static_cast<size_t>(Product(p.shape, d, p.shape.size())) * dtype.size;
  c.expected.resize(static_cast<size_t>(elements * p.members) * dtype.size);
  unsigned char* to = c.expected.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (const auto& host : hosts) {
      std::memcpy(to, host.data() + static_cast<size_t>(o) * block, block);
      to += block;
    }
  }
}

void BuildPermute(Case& c, const Problem& p, const DtypeInfo& dtype, Random& random, bool check) {
  const size_t rank = p.shape.size();
  if (p.order.size() != rank) Die("permute: p lists %zu dims for a rank-%zu shape", p.order.size(), rank);
  const int64_t elements = Product(p.shape, 0, rank);
  const std::vector<unsigned char> host = RandomBytes(dtype, elements, random);
  c.inputs.resize(1);
  UploadBytes(c.inputs[0], host);
  c.tensors.push_back(std::make_unique<Tensor>(p.shape, dtype.acl, c.inputs[0].get()));
  for (const int64_t o : p.order) c.out_shape.push_back(p.shape[static_cast<size_t>((o + rank) % rank)]);
  MakeOut(c, dtype);
  c.array = aclCreateIntArray(p.order.data(), p.order.size());
  aclTensor* self = c.tensors[0]->get();
  aclTensor* out = c.tensors[1]->get();
  aclIntArray* dims = c.array;
  c.call.phase1 = [self, dims, out](uint64_t* size, aclOpExecutor** executor) {
    return aclnnPermuteGetWorkspaceSize(self, dims, out, size, executor);
  };
  c.call.phase2 = aclnnPermute;
  if (!check) return;
  // out[i] = self[j] with j[order[k]] = i[k], walked in out's row-major order.
  const std::vector<int64_t> in_strides = ContiguousStrides(p.shape);
  std::vector<int64_t> walk_strides(rank);
  for (size_t k = 0; k < rank; ++k) walk_strides[k] = in_strides[static_cast<size_t>((p.order[k] + rank) % rank)];
  c.expected.resize(host.size());
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < elements; ++i) {
    std::memcpy(c.expected.data() + static_cast<size_t>(i) * dtype.size,
                host.data() + static_cast<size_t>(offset) * dtype.size, dtype.size);
    for (size_t k = rank; k-- > 0;) {
      offset += walk_strides[k];
      if (++index[k] < c.out_shape[k]) break;
      offset -= walk_strides[k] * c.out_shape[k];
      index[k] = 0;
    }
  }
}

void BuildGatherV2(Case& c, const Problem& p, const DtypeInfo& dtype, Random& random, bool check) {
  const auto d = static_cast<size_t>(p.dim);
  const size_t rank = p.shape.size();
  const int64_t extent = p.shape[d];
  const int64_t count = p.indices >= 0 ? p.indices : extent / 2;
  const int64_t elements = Product(p.shape, 0, rank);
  const std::vector<unsigned char> host = RandomBytes(dtype, elements, random);
  c.inputs.resize(2);
  UploadBytes(c.inputs[0], host);
  // Random rows; --mode=C also takes every third one counted from the end (negative).
  std::vector<int64_t> values(static_cast<size_t>(count));
  for (size_t k = 0; k < values.size(); ++k) {
    values[k] = static_cast<int64_t>(random.Next() % static_cast<uint64_t>(std::max<int64_t>(extent, 1)));
    if (check && k % 3 == 2) values[k] -= extent;
  }
  const DtypeInfo& index_dtype = DtypeOf(p.index_bits == 32 ? "i32" : "i64");
  std::vector<unsigned char> index_bytes(values.size() * index_dtype.size);
  for (size_t k = 0; k < values.size(); ++k) {
    if (p.index_bits == 32) {
      const auto narrow = static_cast<int32_t>(values[k]);
      std::memcpy(index_bytes.data() + k * 4, &narrow, 4);
    } else {
      std::memcpy(index_bytes.data() + k * 8, &values[k], 8);
    }
  }
  UploadBytes(c.inputs[1], index_bytes);
  c.tensors.push_back(std::make_unique<Tensor>(p.shape, dtype.acl, c.inputs[0].get()));
  c.tensors.push_back(std::make_unique<Tensor>(std::vector<int64_t>{count}, index_dtype.acl, c.inputs[1].get()));
  c.out_shape = p.shape;
  c.out_shape[d] = count;
  MakeOut(c, dtype);
  aclTensor* self = c.tensors[0]->get();
  aclTensor* index = c.tensors[1]->get();
  aclTensor* out = c.tensors[2]->get();
  const int64_t dim = p.dim;
  c.call.phase1 = [self, dim, index, out](uint64_t* size, aclOpExecutor** executor) {
    return aclnnGatherV2GetWorkspaceSize(self, dim, index, out, size, executor);
  };
  c.call.phase2 = aclnnGatherV2;
  if (!check) return;
  const int64_t outer = Product(p.shape, 0, d);
  const size_t row = static_cast<size_t>(Product(p.shape, d + 1, rank)) * dtype.size;
  c.expected.resize(static_cast<size_t>(outer * count) * row);
  unsigned char* to = c.expected.data();
  for (int64_t o = 0; o < outer; ++o) {
    for (const int64_t v : values) {
      const int64_t r = v < 0 ? v + extent : v;
      std::memcpy(to, host.data() + static_cast<size_t>(o * extent + r) * row, row);
      to += row;
    }
  }
}

void BuildRepeat(Case& c, const Problem& p, const DtypeInfo& dtype, Random& random, bool check) {
  const size_t rank = p.shape.size();
  if (p.repeats.size() < rank) Die("repeat: r lists %zu repeats for a rank-%zu shape", p.repeats.size(), rank);
  const int64_t elements = Product(p.shape, 0, rank);
  const std::vector<unsigned char> host = RandomBytes(dtype, elements, random);
  c.inputs.resize(1);
  UploadBytes(c.inputs[0], host);
  c.tensors.push_back(std::make_unique<Tensor>(p.shape, dtype.acl, c.inputs[0].get()));
  const size_t lead = p.repeats.size() - rank;
  std::vector<int64_t> self_shape(lead, 1);  // self with repeats' rank
  self_shape.insert(self_shape.end(), p.shape.begin(), p.shape.end());
  for (size_t k = 0; k < p.repeats.size(); ++k) c.out_shape.push_back(p.repeats[k] * self_shape[k]);
  MakeOut(c, dtype);
  c.array = aclCreateIntArray(p.repeats.data(), p.repeats.size());
  aclTensor* self = c.tensors[0]->get();
  aclTensor* out = c.tensors[1]->get();
  aclIntArray* repeats = c.array;
  c.call.phase1 = [self, repeats, out](uint64_t* size, aclOpExecutor** executor) {
    return aclnnRepeatGetWorkspaceSize(self, repeats, out, size, executor);
  };
  c.call.phase2 = aclnnRepeat;
  if (!check) return;
  // out[i] = self[i mod self_shape], walked in out's row-major order.
  const size_t out_rank = c.out_shape.size();
  const std::vector<int64_t> self_strides = ContiguousStrides(self_shape);
  const int64_t total = Product(c.out_shape, 0, out_rank);
  c.expected.resize(static_cast<size_t>(total) * dtype.size);
  std::vector<int64_t> index(out_rank, 0);
  for (int64_t i = 0; i < total; ++i) {
    int64_t offset = 0;
    for (size_t k = 0; k < out_rank; ++k) offset += index[k] % self_shape[k] * self_strides[k];
    std::memcpy(c.expected.data() + static_cast<size_t>(i) * dtype.size,
                host.data() + static_cast<size_t>(offset) * dtype.size, dtype.size);
    for (size_t k = out_rank; k-- > 0;) {
      if (++index[k] < c.out_shape[k]) break;
      index[k] = 0;
    }
  }
}

void RunOne(const Settings& settings, const std::string& op, const DtypeInfo& dtype, const std::string& problem,
            const Problem& p, Session& session) {
  Result result;
  result.driver = "movement";
  result.op = op;
  result.dtype = dtype.name;
  result.problem = problem;
  const std::string label = "[movement] op=" + op + " dt=" + dtype.name + " " + problem;
  const uint64_t seed = settings.seed != Settings::kFreshSeed ? settings.seed : FreshSeed();
  Random random(seed);
  const bool check = settings.mode == Mode::kCorrectness;
  Case c;
  if (op == "cat") {
    BuildCat(c, p, dtype, random, check);
  } else if (op == "permute") {
    BuildPermute(c, p, dtype, random, check);
  } else if (op == "gatherv2") {
    BuildGatherV2(c, p, dtype, random, check);
  } else if (op == "repeat") {
    BuildRepeat(c, p, dtype, random, check);
  } else {
    Die("movement: no op '%s' (cat, permute, gatherv2, repeat)", op.c_str());
  }
  const size_t out_bytes = static_cast<size_t>(Product(c.out_shape, 0, c.out_shape.size())) * dtype.size;
  result.bytes = 2.0 * static_cast<double>(out_bytes);
  result.peak_gflops = session.machine().f32_gflops;
  result.peak_gbps = session.machine().BandwidthGbps();

  DeviceBuffer workspace;
  std::string message;
  if (const aclnnStatus status = RunCanopyOnce(c.call, workspace, message, &result.path); status != 0) {
    std::printf("%s: ERROR status %d: %s\n", label.c_str(), status, message.c_str());
    result.status = "error";
    result.note = message;
    session.Record(result);
    return;
  }
  if (check) {
    std::vector<unsigned char> got(out_bytes);
    c.out.Download(got.data(), got.size());
    size_t first = got.size();
    for (size_t i = 0; i < got.size(); ++i) {
      if (got[i] != c.expected[i]) {
        first = i;
        break;
      }
    }
    const bool passed = first == got.size();
    if (!passed) {
      char note[96];
      std::snprintf(note, sizeof note, "first difference at element %zu", first / dtype.size);
      result.note = note;
      result.status = "fail";
      std::printf("%s: FAILED (%s; seed %llu)\n  %s\n", label.c_str(), note, static_cast<unsigned long long>(seed),
                  Reproducer(settings, op, std::string("--dt=") + dtype.name, seed, problem).c_str());
    } else {
      std::printf("%s: PASSED (%zu bytes exact)\n", label.c_str(), got.size());
    }
    session.Record(result);
    return;
  }
  std::function<double()> reference_once;
  DeviceBuffer copy_src, copy_dst;
  if (settings.reference) {
    copy_src.Reserve(out_bytes);
    copy_dst.Reserve(out_bytes);
    void* s = copy_src.get();
    void* d = copy_dst.get();
    RunOnEngine([&] { return PlainCopyLoop(s, d, out_bytes, kCopyThreads, true); });  // first touch
    result.reference_name = "copy-loop:" + std::to_string(kCopyThreads) + "t";
    reference_once = [=] { return RunOnEngine([=] { return PlainCopyLoop(s, d, out_bytes, kCopyThreads, false); }); };
  }
  const PairTiming timing = MeasurePair(settings, c.call, workspace, reference_once);
  SetTiming(result, timing);
  PrintTimingLine(label, result, true);
  session.Record(result);
}

}  // namespace

void RunMovementDriver(const Settings& settings, const std::string& problem, Session& session) {
  Problem p;
  if (!ParseProblem(problem, p)) {
    Die("movement problem '%s' is not like 4096x4096[:dD][:nN][:iI][:x32][:rRxR][:pPxP]", problem.c_str());
  }
  for (const std::string& op : OpsOf(settings, *FindDriver("movement"))) {
    for (const std::string& dtype : settings.dtypes) RunOne(settings, op, DtypeOf(dtype), problem, p, session);
  }
}

}  // namespace canopy_bench
