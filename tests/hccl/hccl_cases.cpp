#include "hccl_cases.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <iterator>
#include <random>
#include <sstream>

namespace hccl_test {
namespace {

// Buffers are poisoned with this byte before the operation runs.
constexpr int kPoison = 0x5a;

size_t SizeOf(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
    case HCCL_DATA_TYPE_UINT8:
      return 1;
    case HCCL_DATA_TYPE_INT16:
    case HCCL_DATA_TYPE_UINT16:
    case HCCL_DATA_TYPE_FP16:
    case HCCL_DATA_TYPE_BFP16:
      return 2;
    case HCCL_DATA_TYPE_INT32:
    case HCCL_DATA_TYPE_UINT32:
    case HCCL_DATA_TYPE_FP32:
      return 4;
    default:
      return 8;
  }
}

bool IsFloat(HcclDataType type) {
  return type == HCCL_DATA_TYPE_FP16 || type == HCCL_DATA_TYPE_BFP16 || type == HCCL_DATA_TYPE_FP32 ||
         type == HCCL_DATA_TYPE_FP64;
}

uint16_t FloatToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

float Bf16ToFloat(uint16_t bits) {
  const uint32_t wide = uint32_t{bits} << 16;
  float value;
  std::memcpy(&value, &wide, 4);
  return value;
}

// IEEE binary16, written out: not every compiler has _Float16 on x86.
float HalfToFloat(uint16_t bits) {
  const int sign = bits >> 15, exponent = (bits >> 10) & 31, mantissa = bits & 1023;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    magnitude = mantissa == 0 ? INFINITY : NAN;
  } else {
    magnitude = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return static_cast<float>(sign ? -magnitude : magnitude);
}

// Round to nearest even (the test values are finite and in range).
uint16_t FloatToHalf(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  value = std::fabs(value);
  if (value == 0) return sign;
  int exponent = std::ilogb(value);                                        // value = m * 2^exponent, 1 <= m < 2
  if (exponent < -14) exponent = -14;                                      // subnormal
  const double scaled = std::nearbyint(std::ldexp(value, 10 - exponent));  // mantissa with the hidden bit
  double mantissa = scaled;
  if (mantissa >= 2048) {
    mantissa /= 2;
    ++exponent;
  }
  if (exponent > 15) return sign | 0x7c00;
  if (mantissa < 1024) return sign | static_cast<uint16_t>(mantissa);  // subnormal
  return sign | static_cast<uint16_t>((exponent + 15) << 10) | static_cast<uint16_t>(mantissa - 1024);
}

// Stores `value` (already representable) as element i of a buffer of `type`.
void Store(HcclDataType type, std::vector<char>& buffer, size_t i, double value) {
  char* at = buffer.data() + i * SizeOf(type);
  auto put = [at](auto v) { std::memcpy(at, &v, sizeof(v)); };
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      return put(static_cast<int8_t>(value));
    case HCCL_DATA_TYPE_UINT8:
      return put(static_cast<uint8_t>(value));
    case HCCL_DATA_TYPE_INT16:
      return put(static_cast<int16_t>(value));
    case HCCL_DATA_TYPE_UINT16:
      return put(static_cast<uint16_t>(value));
    case HCCL_DATA_TYPE_INT32:
      return put(static_cast<int32_t>(value));
    case HCCL_DATA_TYPE_UINT32:
      return put(static_cast<uint32_t>(value));
    case HCCL_DATA_TYPE_INT64:
      return put(static_cast<int64_t>(value));
    case HCCL_DATA_TYPE_UINT64:
      return put(static_cast<uint64_t>(value));
    case HCCL_DATA_TYPE_FP16:
      return put(FloatToHalf(value));
    case HCCL_DATA_TYPE_BFP16:
      return put(FloatToBf16(static_cast<float>(value)));
    case HCCL_DATA_TYPE_FP32:
      return put(static_cast<float>(value));
    default:
      return put(value);
  }
}

double Load(HcclDataType type, const std::vector<char>& buffer, size_t i) {
  const char* at = buffer.data() + i * SizeOf(type);
  auto get = [at](auto v) {
    std::memcpy(&v, at, sizeof(v));
    return v;
  };
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      return get(int8_t{});
    case HCCL_DATA_TYPE_UINT8:
      return get(uint8_t{});
    case HCCL_DATA_TYPE_INT16:
      return get(int16_t{});
    case HCCL_DATA_TYPE_UINT16:
      return get(uint16_t{});
    case HCCL_DATA_TYPE_INT32:
      return get(int32_t{});
    case HCCL_DATA_TYPE_UINT32:
      return get(uint32_t{});
    case HCCL_DATA_TYPE_INT64:
      return static_cast<double>(get(int64_t{}));
    case HCCL_DATA_TYPE_UINT64:
      return static_cast<double>(get(uint64_t{}));
    case HCCL_DATA_TYPE_FP16:
      return HalfToFloat(get(uint16_t{}));
    case HCCL_DATA_TYPE_BFP16:
      return Bf16ToFloat(get(uint16_t{}));
    case HCCL_DATA_TYPE_FP32:
      return get(float{});
    default:
      return get(double{});
  }
}

// Rounds `value` to what `type` can hold.
double Representable(HcclDataType type, double value) {
  std::vector<char> one(SizeOf(type));
  Store(type, one, 0, value);
  return Load(type, one, 0);
}

// A deterministic, non-zero pseudo-random value for (seed, rank, index) in a
// range that no sum or product of up to 8 ranks overflows.
double InputValue(HcclDataType type, HcclReduceOp op, uint64_t seed, uint32_t rank, size_t index) {
  uint64_t x = seed * 0x9e3779b97f4a7c15ull ^ (uint64_t{rank} << 40) ^ index;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  const double unit = static_cast<double>(x >> 11) / static_cast<double>(uint64_t{1} << 53);  // [0, 1)
  double value;
  if (IsFloat(type)) {
    value = op == HCCL_REDUCE_PROD ? 0.5 + unit : (unit * 4 - 2);
    if (std::fabs(value) < 0.01) value = 0.5;
  } else {
    const bool is_unsigned = type == HCCL_DATA_TYPE_UINT8 || type == HCCL_DATA_TYPE_UINT16 ||
                             type == HCCL_DATA_TYPE_UINT32 || type == HCCL_DATA_TYPE_UINT64;
    const int span = op == HCCL_REDUCE_PROD ? 3 : 15;
    value = std::floor(unit * (2 * span + 1)) - span;
    if (is_unsigned) value = std::fabs(value);
    if (value == 0) value = 1;
  }
  return Representable(type, value);
}

double Combine(HcclReduceOp op, double a, double b) {
  switch (op) {
    case HCCL_REDUCE_SUM:
      return a + b;
    case HCCL_REDUCE_PROD:
      return a * b;
    case HCCL_REDUCE_MAX:
      return std::max(a, b);
    default:
      return std::min(a, b);
  }
}

// Allowed distance of a result from the float64 reference.
bool Close(HcclDataType type, double got, double want) {
  double relative = 0;
  switch (type) {
    case HCCL_DATA_TYPE_FP16:
      relative = 2e-3;
      break;
    case HCCL_DATA_TYPE_BFP16:
      relative = 1.6e-2;
      break;
    case HCCL_DATA_TYPE_FP32:
      relative = 1e-5;
      break;
    case HCCL_DATA_TYPE_FP64:
      relative = 1e-12;
      break;
    default:
      return got == want;
  }
  return std::fabs(got - want) <= relative * std::max(1.0, std::fabs(want));
}

// A device buffer with a host image.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) : bytes_(bytes) {
    if (bytes_ > 0 && aclrtMalloc(&device_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) device_ = nullptr;
  }
  ~DeviceBuffer() {
    if (device_ != nullptr) aclrtFree(device_);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return device_; }
  void Upload(const std::vector<char>& host) {
    if (bytes_ > 0) aclrtMemcpy(device_, bytes_, host.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE);
  }
  void Poison() {
    if (bytes_ > 0) aclrtMemset(device_, bytes_, kPoison, bytes_);
  }
  std::vector<char> Download() const {
    std::vector<char> host(bytes_);
    if (bytes_ > 0) aclrtMemcpy(host.data(), bytes_, device_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST);
    return host;
  }

 private:
  size_t bytes_;
  void* device_ = nullptr;
};

enum class Op { kAllReduce, kReduce, kReduceScatter, kBroadcast, kAllGather, kScatter, kAllToAll };

const char* OpName(Op op) {
  switch (op) {
    case Op::kAllReduce:
      return "AllReduce";
    case Op::kReduce:
      return "Reduce";
    case Op::kReduceScatter:
      return "ReduceScatter";
    case Op::kBroadcast:
      return "Broadcast";
    case Op::kAllGather:
      return "AllGather";
    case Op::kScatter:
      return "Scatter";
    default:
      return "AlltoAll";
  }
}

// Compares `got` with `want` element by element; "" when all match.
std::string Compare(const std::string& name, HcclDataType type, const std::vector<char>& got,
                    const std::vector<double>& want, size_t first = 0) {
  for (size_t i = 0; i < want.size(); ++i) {
    const double value = Load(type, got, first + i);
    if (!Close(type, value, want[i])) {
      std::ostringstream out;
      out << name << ": element " << i << " is " << value << ", expected " << want[i];
      return out.str();
    }
  }
  return "";
}

// One collective of `op` on `count` elements (per rank's block where the op has blocks).
class CollectiveCase final : public RankCase {
 public:
  // after_barrier: an HcclBarrier first, on the same stream. in_place: an
  // all-reduce's send and receive buffers are one, an all-gather's input is
  // its own block of the output (other ops ignore it).
  CollectiveCase(Op op, HcclDataType type, HcclReduceOp reduce, uint64_t count, uint64_t seed,
                 bool after_barrier = false, bool in_place = false)
      : op_(op),
        type_(type),
        reduce_(reduce),
        count_(count),
        seed_(seed),
        after_barrier_(after_barrier),
        in_place_(in_place && (op == Op::kAllReduce || op == Op::kAllGather)) {}

  std::string Name() const override {
    std::ostringstream out;
    out << OpName(op_) << "/" << TypeName(type_);
    if (op_ == Op::kAllReduce || op_ == Op::kReduce || op_ == Op::kReduceScatter) out << "/" << int(reduce_);
    out << "/" << count_;
    if (after_barrier_) out << "/after-barrier";
    if (in_place_) out << "/in-place";
    return out.str();
  }

  HcclResult Launch(const Rank& rank) override {
    rank_ = rank;
    const size_t es = SizeOf(type_);
    const uint32_t n = rank.size;
    root_ = (seed_ + 1) % n;
    // Input and output sizes in elements.
    size_t in = count_, out = count_;
    switch (op_) {
      case Op::kReduceScatter:
        in = count_ * n;
        break;
      case Op::kAllGather:
        out = count_ * n;
        break;
      case Op::kScatter:
        in = count_ * n;
        break;
      case Op::kAllToAll:
        in = out = count_ * n;
        break;
      default:
        break;
    }
    in_elements_ = in;
    // At least one element, so that a zero count passes real buffers.
    send_ = std::make_unique<DeviceBuffer>(std::max<size_t>(in, 1) * es);
    recv_ = std::make_unique<DeviceBuffer>(std::max<size_t>(out, 1) * es);
    std::vector<char> host(std::max<size_t>(in, 1) * es);
    for (size_t i = 0; i < in; ++i) Store(type_, host, i, InputValue(type_, reduce_, seed_, rank.rank, i));
    send_->Upload(host);
    recv_->Poison();
    out_elements_ = out;
    void* send = send_->get();
    void* recv = recv_->get();
    if (in_place_ && op_ == Op::kAllReduce) {
      recv = send;
    } else if (in_place_) {
      const size_t block = count_ * es;
      send = static_cast<char*>(recv) + rank.rank * block;
      if (block > 0) aclrtMemcpy(send, block, host.data(), block, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    if (after_barrier_) {
      if (const HcclResult status = HcclBarrier(rank.comm, rank.stream); status != HCCL_SUCCESS) return status;
    }
    switch (op_) {
      case Op::kAllReduce:
        return HcclAllReduce(send, recv, count_, type_, reduce_, rank.comm, rank.stream);
      case Op::kReduce:
        return HcclReduce(send_->get(), recv_->get(), count_, type_, reduce_, root_, rank.comm, rank.stream);
      case Op::kReduceScatter:
        return HcclReduceScatter(send_->get(), recv_->get(), count_, type_, reduce_, rank.comm, rank.stream);
      case Op::kBroadcast:
        // In place: the root's buffer holds its input.
        return HcclBroadcast(send_->get(), count_, type_, root_, rank.comm, rank.stream);
      case Op::kAllGather:
        return HcclAllGather(send, recv, count_, type_, rank.comm, rank.stream);
      case Op::kScatter:
        return HcclScatter(send_->get(), recv_->get(), count_, type_, root_, rank.comm, rank.stream);
      default:
        return HcclAlltoAll(send_->get(), count_, type_, recv_->get(), count_, type_, rank.comm, rank.stream);
    }
  }

  std::string Verify() override {
    const uint32_t n = rank_.size, me = rank_.rank;
    auto input = [&](uint32_t r, size_t i) { return InputValue(type_, reduce_, seed_, r, i); };
    auto reduced = [&](size_t i) {
      double value = input(0, i);
      for (uint32_t r = 1; r < n; ++r) value = Combine(reduce_, value, input(r, i));
      return value;
    };
    std::vector<double> want;
    switch (op_) {
      case Op::kAllReduce:
        for (size_t i = 0; i < count_; ++i) want.push_back(reduced(i));
        return Compare(Name(), type_, (in_place_ ? send_ : recv_)->Download(), want);
      case Op::kReduce:
        if (me != root_) return "";
        for (size_t i = 0; i < count_; ++i) want.push_back(reduced(i));
        return Compare(Name(), type_, recv_->Download(), want);
      case Op::kReduceScatter:
        for (size_t i = 0; i < count_; ++i) want.push_back(reduced(me * count_ + i));
        return Compare(Name(), type_, recv_->Download(), want);
      case Op::kBroadcast:
        for (size_t i = 0; i < count_; ++i) want.push_back(input(root_, i));
        return Compare(Name(), type_, send_->Download(), want);
      case Op::kAllGather:
        for (uint32_t r = 0; r < n; ++r) {
          for (size_t i = 0; i < count_; ++i) want.push_back(input(r, i));
        }
        return Compare(Name(), type_, recv_->Download(), want);
      case Op::kScatter:
        for (size_t i = 0; i < count_; ++i) want.push_back(input(root_, me * count_ + i));
        return Compare(Name(), type_, recv_->Download(), want);
      default:
        for (uint32_t r = 0; r < n; ++r) {
          for (size_t i = 0; i < count_; ++i) want.push_back(input(r, me * count_ + i));
        }
        return Compare(Name(), type_, recv_->Download(), want);
    }
  }

 private:
  const Op op_;
  const HcclDataType type_;
  const HcclReduceOp reduce_;
  const uint64_t count_;
  const uint64_t seed_;
  const bool after_barrier_;
  const bool in_place_;
  uint32_t root_ = 0;
  Rank rank_;
  size_t in_elements_ = 0, out_elements_ = 0;
  std::unique_ptr<DeviceBuffer> send_, recv_;
};

// AlltoAllV with uneven counts (some zero) and gaps between the blocks.
class AllToAllVCase final : public RankCase {
 public:
  explicit AllToAllVCase(uint64_t seed) : seed_(seed) {}
  std::string Name() const override { return "AlltoAllV/int32/uneven"; }

  static uint64_t Count(uint32_t from, uint32_t to) { return (from * 3 + to * 5) % 7; }

  HcclResult Launch(const Rank& rank) override {
    rank_ = rank;
    const uint32_t n = rank.size;
    uint64_t send_at = 0, recv_at = 0;
    for (uint32_t peer = 0; peer < n; ++peer) {
      send_counts_.push_back(Count(rank.rank, peer));
      send_offsets_.push_back(send_at);
      send_at += send_counts_.back() + 2;  // a gap of two elements
      recv_counts_.push_back(Count(peer, rank.rank));
      recv_offsets_.push_back(recv_at);
      recv_at += recv_counts_.back() + 1;
    }
    recv_elements_ = recv_at;
    send_ = std::make_unique<DeviceBuffer>(send_at * 4);
    recv_ = std::make_unique<DeviceBuffer>(recv_at * 4);
    std::vector<char> host(send_at * 4);
    for (size_t i = 0; i < send_at; ++i) {
      Store(HCCL_DATA_TYPE_INT32, host, i, InputValue(HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, seed_, rank.rank, i));
    }
    send_->Upload(host);
    recv_->Poison();
    return HcclAlltoAllV(send_->get(), send_counts_.data(), send_offsets_.data(), HCCL_DATA_TYPE_INT32, recv_->get(),
                         recv_counts_.data(), recv_offsets_.data(), HCCL_DATA_TYPE_INT32, rank.comm, rank.stream);
  }

  std::string Verify() override {
    const std::vector<char> got = recv_->Download();
    const uint32_t n = rank_.size;
    for (uint32_t peer = 0; peer < n; ++peer) {
      // Where `peer` sent our block from, in its own send buffer.
      uint64_t peer_offset = 0;
      for (uint32_t to = 0; to < rank_.rank; ++to) peer_offset += Count(peer, to) + 2;
      std::vector<double> want;
      for (uint64_t i = 0; i < recv_counts_[peer]; ++i) {
        want.push_back(InputValue(HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, seed_, peer, peer_offset + i));
      }
      std::string failure =
          Compare(Name() + " from rank " + std::to_string(peer), HCCL_DATA_TYPE_INT32, got, want, recv_offsets_[peer]);
      if (!failure.empty()) return failure;
      // The gap after the block is untouched.
      const double gap = Load(HCCL_DATA_TYPE_INT32, got, recv_offsets_[peer] + recv_counts_[peer]);
      std::vector<char> poison(4, static_cast<char>(kPoison));
      if (gap != Load(HCCL_DATA_TYPE_INT32, poison, 0)) return Name() + ": wrote past a block";
    }
    return "";
  }

 private:
  const uint64_t seed_;
  Rank rank_;
  std::vector<uint64_t> send_counts_, send_offsets_, recv_counts_, recv_offsets_;
  uint64_t recv_elements_ = 0;
  std::unique_ptr<DeviceBuffer> send_, recv_;
};

// HcclAllGatherV / HcclReduceScatterV with uneven counts (rank 1's is zero)
// and, unless `packed`, a gap of one element after each block, which must
// stay untouched (AllGatherV's output) or be ignored (ReduceScatterV's input).
class VariableCase final : public RankCase {
 public:
  VariableCase(bool gather, HcclDataType type, HcclReduceOp op, bool packed, uint64_t seed)
      : gather_(gather), type_(type), op_(op), packed_(packed), seed_(seed) {}

  std::string Name() const override {
    std::ostringstream out;
    out << (gather_ ? "AllGatherV/" : "ReduceScatterV/") << TypeName(type_);
    if (!gather_) out << "/" << int(op_);
    out << (packed_ ? "/packed" : "/gaps");
    return out.str();
  }

  static uint64_t Count(uint32_t rank) { return (rank * 5 + 2) % 7; }

  HcclResult Launch(const Rank& rank) override {
    rank_ = rank;
    const size_t es = SizeOf(type_);
    uint64_t at = 0;
    for (uint32_t r = 0; r < rank.size; ++r) {
      counts_.push_back(Count(r));
      displs_.push_back(at);
      at += Count(r) + (packed_ ? 0 : 1);
    }
    total_ = at;
    const uint64_t own = Count(rank.rank);
    const size_t in = gather_ ? own : total_, out = gather_ ? total_ : own;
    send_ = std::make_unique<DeviceBuffer>(in * es);
    recv_ = std::make_unique<DeviceBuffer>(out * es);
    std::vector<char> host(in * es);
    for (size_t i = 0; i < in; ++i) Store(type_, host, i, InputValue(type_, op_, seed_, rank.rank, i));
    send_->Upload(host);
    recv_->Poison();
    if (gather_) {
      return HcclAllGatherV(send_->get(), own, recv_->get(), counts_.data(), displs_.data(), type_, rank.comm,
                            rank.stream);
    }
    return HcclReduceScatterV(send_->get(), counts_.data(), displs_.data(), recv_->get(), own, type_, op_, rank.comm,
                              rank.stream);
  }

  std::string Verify() override {
    const std::vector<char> got = recv_->Download();
    const uint32_t n = rank_.size, me = rank_.rank;
    std::vector<double> want;
    if (!gather_) {
      for (uint64_t i = 0; i < counts_[me]; ++i) {
        double value = InputValue(type_, op_, seed_, 0, displs_[me] + i);
        for (uint32_t r = 1; r < n; ++r) value = Combine(op_, value, InputValue(type_, op_, seed_, r, displs_[me] + i));
        want.push_back(value);
      }
      return Compare(Name(), type_, got, want);
    }
    std::vector<char> poison(SizeOf(type_), static_cast<char>(kPoison));
    for (uint32_t r = 0; r < n; ++r) {
      want.clear();
      for (uint64_t i = 0; i < counts_[r]; ++i) want.push_back(InputValue(type_, op_, seed_, r, i));
      std::string failure = Compare(Name() + " from rank " + std::to_string(r), type_, got, want, displs_[r]);
      if (!failure.empty()) return failure;
      const size_t gap = displs_[r] + counts_[r];
      if (!packed_ && std::memcmp(got.data() + gap * SizeOf(type_), poison.data(), poison.size()) != 0) {
        return Name() + ": wrote into the gap after rank " + std::to_string(r) + "'s block";
      }
    }
    return "";
  }

 private:
  const bool gather_;
  const HcclDataType type_;
  const HcclReduceOp op_;
  const bool packed_;
  const uint64_t seed_;
  Rank rank_;
  std::vector<uint64_t> counts_, displs_;
  uint64_t total_ = 0;
  std::unique_ptr<DeviceBuffer> send_, recv_;
};

// Each rank sends to the next and receives from the previous one: with
// HcclSend/HcclRecv (rank 0 sends first, the others receive first, so the
// ring never waits on itself) or with one HcclBatchSendRecv.
class RingCase final : public RankCase {
 public:
  RingCase(bool batched, uint64_t count, uint64_t seed) : batched_(batched), count_(count), seed_(seed) {}
  std::string Name() const override { return batched_ ? "BatchSendRecv ring" : "Send/Recv ring"; }

  HcclResult Launch(const Rank& rank) override {
    rank_ = rank;
    const uint32_t next = (rank.rank + 1) % rank.size, prev = (rank.rank + rank.size - 1) % rank.size;
    send_ = std::make_unique<DeviceBuffer>(count_ * 4);
    recv_ = std::make_unique<DeviceBuffer>(count_ * 4);
    std::vector<char> host(count_ * 4);
    for (size_t i = 0; i < count_; ++i) {
      Store(HCCL_DATA_TYPE_FP32, host, i, InputValue(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, seed_, rank.rank, i));
    }
    send_->Upload(host);
    recv_->Poison();
    if (batched_) {
      // The receive first: a batch does not depend on the order of its items.
      items_[0] = {HCCL_RECV, recv_->get(), count_, HCCL_DATA_TYPE_FP32, prev};
      items_[1] = {HCCL_SEND, send_->get(), count_, HCCL_DATA_TYPE_FP32, next};
      return HcclBatchSendRecv(items_, 2, rank.comm, rank.stream);
    }
    if (rank.rank == 0) {
      HcclResult status = HcclSend(send_->get(), count_, HCCL_DATA_TYPE_FP32, next, rank.comm, rank.stream);
      if (status != HCCL_SUCCESS) return status;
      return HcclRecv(recv_->get(), count_, HCCL_DATA_TYPE_FP32, prev, rank.comm, rank.stream);
    }
    HcclResult status = HcclRecv(recv_->get(), count_, HCCL_DATA_TYPE_FP32, prev, rank.comm, rank.stream);
    if (status != HCCL_SUCCESS) return status;
    return HcclSend(send_->get(), count_, HCCL_DATA_TYPE_FP32, next, rank.comm, rank.stream);
  }

  std::string Verify() override {
    const uint32_t prev = (rank_.rank + rank_.size - 1) % rank_.size;
    std::vector<double> want;
    for (size_t i = 0; i < count_; ++i)
      want.push_back(InputValue(HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, seed_, prev, i));
    return Compare(Name(), HCCL_DATA_TYPE_FP32, recv_->Download(), want);
  }

 private:
  const bool batched_;
  const uint64_t count_;
  const uint64_t seed_;
  Rank rank_;
  HcclSendRecvItem items_[2] = {};
  std::unique_ptr<DeviceBuffer> send_, recv_;
};

}  // namespace

const char* TypeName(HcclDataType type) {
  switch (type) {
    case HCCL_DATA_TYPE_INT8:
      return "int8";
    case HCCL_DATA_TYPE_INT16:
      return "int16";
    case HCCL_DATA_TYPE_INT32:
      return "int32";
    case HCCL_DATA_TYPE_FP16:
      return "fp16";
    case HCCL_DATA_TYPE_FP32:
      return "fp32";
    case HCCL_DATA_TYPE_INT64:
      return "int64";
    case HCCL_DATA_TYPE_UINT64:
      return "uint64";
    case HCCL_DATA_TYPE_UINT8:
      return "uint8";
    case HCCL_DATA_TYPE_UINT16:
      return "uint16";
    case HCCL_DATA_TYPE_UINT32:
      return "uint32";
    case HCCL_DATA_TYPE_FP64:
      return "fp64";
    case HCCL_DATA_TYPE_BFP16:
      return "bfp16";
    default:
      return "?";
  }
}

std::vector<HcclDataType> ReducibleTypes() {
  return {HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT16, HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_INT64,
          HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_FP32,  HCCL_DATA_TYPE_BFP16};
}

std::vector<HcclDataType> MovableTypes() {
  return {HCCL_DATA_TYPE_INT8,  HCCL_DATA_TYPE_INT16,  HCCL_DATA_TYPE_INT32,  HCCL_DATA_TYPE_INT64,
          HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_UINT16, HCCL_DATA_TYPE_UINT32, HCCL_DATA_TYPE_UINT64,
          HCCL_DATA_TYPE_FP16,  HCCL_DATA_TYPE_FP32,   HCCL_DATA_TYPE_FP64,   HCCL_DATA_TYPE_BFP16};
}

std::vector<HcclDataType> ReduceScatterVTypes() {
  return {HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT16, HCCL_DATA_TYPE_INT32,
          HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_FP32,  HCCL_DATA_TYPE_BFP16};
}

bool ReduceOpSupported(HcclDataType type, HcclReduceOp op) {
  return op != HCCL_REDUCE_PROD || (type != HCCL_DATA_TYPE_INT16 && type != HCCL_DATA_TYPE_BFP16);
}

std::vector<std::unique_ptr<RankCase>> AllCases(uint32_t ranks) {
  std::vector<std::unique_ptr<RankCase>> cases;
  uint64_t seed = 1;
  // Odd counts: the blocks of the ring algorithms do not divide evenly.
  constexpr uint64_t kCount = 37;
  for (HcclDataType type : ReducibleTypes()) {
    for (HcclReduceOp op : {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN}) {
      if (!ReduceOpSupported(type, op)) continue;
      for (Op kind : {Op::kAllReduce, Op::kReduce, Op::kReduceScatter}) {
        cases.push_back(std::make_unique<CollectiveCase>(kind, type, op, kCount, seed++));
      }
    }
  }
  for (HcclDataType type : MovableTypes()) {
    for (Op kind : {Op::kBroadcast, Op::kAllGather, Op::kScatter, Op::kAllToAll}) {
      cases.push_back(std::make_unique<CollectiveCase>(kind, type, HCCL_REDUCE_SUM, kCount, seed++));
    }
  }
  // Large enough for Gloo's segmented ring (several segments per rank).
  cases.push_back(
      std::make_unique<CollectiveCase>(Op::kAllReduce, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 300001, seed++));
  cases.push_back(
      std::make_unique<CollectiveCase>(Op::kAllReduce, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_MAX, 70001, seed++));
  cases.push_back(std::make_unique<AllToAllVCase>(seed++));
  for (HcclDataType type : MovableTypes()) {
    cases.push_back(std::make_unique<VariableCase>(true, type, HCCL_REDUCE_SUM, false, seed++));
  }
  cases.push_back(std::make_unique<VariableCase>(true, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, true, seed++));
  for (HcclDataType type : ReduceScatterVTypes()) {
    for (HcclReduceOp op : {HCCL_REDUCE_SUM, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN}) {
      cases.push_back(std::make_unique<VariableCase>(false, type, op, false, seed++));
    }
  }
  cases.push_back(std::make_unique<VariableCase>(false, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_SUM, true, seed++));
  // Over Gloo, an operation's data rides in its first exchange when it fits
  // the room the operation before left (libhccl's gloo_transport.cpp): the
  // cases above mostly go that way. A barrier leaves no room, so these take
  // the separate data round.
  for (Op kind : {Op::kAllReduce, Op::kAllGather, Op::kBroadcast}) {
    cases.push_back(std::make_unique<CollectiveCase>(kind, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_MAX, kCount, seed++,
                                                     /*after_barrier=*/true));
  }
  if (ranks > 1) {
    cases.push_back(std::make_unique<RingCase>(false, 1001, seed++));
    cases.push_back(std::make_unique<RingCase>(true, 1001, seed++));
  }
  return cases;
}

std::vector<std::unique_ptr<RankCase>> InlineSequence(uint32_t ranks, uint64_t seed, size_t length) {
  std::vector<std::unique_ptr<RankCase>> cases;
  std::mt19937_64 random(seed);
  auto pick = [&](size_t n) { return static_cast<size_t>(random() % n); };
  const std::vector<HcclDataType> reducible = ReducibleTypes(), movable = MovableTypes();
  constexpr HcclReduceOp kReduceOps[] = {HCCL_REDUCE_SUM, HCCL_REDUCE_PROD, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};
  constexpr Op kKinds[] = {Op::kAllReduce,     Op::kBroadcast, Op::kAllGather, Op::kReduce,
                           Op::kReduceScatter, Op::kScatter,   Op::kAllToAll};
  // The transport's room for the next operation's data (gloo_transport.cpp):
  // the last checked operation's bytes, rounded up to a power of two, at
  // most 64 KiB per rank and 256 KiB over all.
  const size_t most = std::min<size_t>(size_t{64} << 10, (size_t{256} << 10) / ranks) & ~size_t{7};
  size_t room = 0;
  auto leave = [&](size_t bytes) { room = bytes == 0 ? 0 : std::min(most, std::bit_ceil(bytes)); };
  for (size_t i = 0; i < length; ++i) {
    const size_t roll = pick(20);
    if (roll == 0) {
      cases.push_back(std::make_unique<AllToAllVCase>(seed + i));
      leave(4);  // AlltoAll(V)'s signature counts one element of its size
      continue;
    }
    if (roll == 1 && ranks > 1) {
      cases.push_back(std::make_unique<RingCase>(pick(2) == 0, 1 + pick(300), seed + i));
      continue;  // point-to-point: no signature exchange
    }
    if (roll == 2) {
      const bool gather = pick(2) == 0;
      const std::vector<HcclDataType> types = gather ? movable : ReduceScatterVTypes();
      const HcclDataType type = types[pick(types.size())];
      const HcclReduceOp op = gather ? HCCL_REDUCE_SUM : kReduceOps[2 + pick(2)];
      cases.push_back(std::make_unique<VariableCase>(gather, type, op, pick(2) == 0, seed + i));
      uint64_t total = 0;
      for (uint32_t r = 0; r < ranks; ++r) total += VariableCase::Count(r);
      leave(total * SizeOf(type));
      continue;
    }
    const Op kind = kKinds[pick(std::size(kKinds))];
    const bool reduces = kind == Op::kAllReduce || kind == Op::kReduce || kind == Op::kReduceScatter;
    const std::vector<HcclDataType>& types = reduces ? reducible : movable;
    const HcclDataType type = types[pick(types.size())];
    HcclReduceOp op = HCCL_REDUCE_SUM;
    if (reduces) {
      do {
        op = kReduceOps[pick(4)];
        // An int8 product of more than 4 ranks of values up to 3 leaves int8.
      } while (!ReduceOpSupported(type, op) || (op == HCCL_REDUCE_PROD && type == HCCL_DATA_TYPE_INT8 && ranks > 4));
    }
    const size_t es = SizeOf(type);
    const bool after_barrier = pick(8) == 0;
    if (after_barrier) room = 0;
    // Around the room: exactly it, one element more or less; or none, a
    // small count, the most a frame carries or one element past it.
    const uint64_t fits = room / es;
    uint64_t count = 0;
    switch (pick(8)) {
      case 0:
      case 1:
        count = fits;
        break;
      case 2:
        count = fits + 1;
        break;
      case 3:
        count = fits > 1 ? fits - 1 : 1;
        break;
      case 4:
        count = 0;
        break;
      case 5:
        count = most / es + pick(2);
        break;
      default:
        count = 1 + pick(100);
        break;
    }
    // AlltoAll and the block operations' buffers grow with the ranks: keep them small.
    if (kind == Op::kAllToAll || kind == Op::kScatter || kind == Op::kReduceScatter)
      count = std::min<uint64_t>(count, 4096);
    cases.push_back(std::make_unique<CollectiveCase>(kind, type, op, count, seed + i, after_barrier, pick(2) == 0));
    if (count > 0) leave(kind == Op::kAllToAll ? es : count * es);
  }
  return cases;
}

namespace {

// What the odd rank calls instead of the others' operation (16 f32
// elements, which fit the room a 16-element all-reduce leaves).
struct Disagreement {
  Op kind, odd_kind;
  HcclDataType odd_type;
  HcclReduceOp odd_op;
  uint64_t odd_count;
  uint64_t odd_seed;  // the root is (seed + 1) % ranks
};

constexpr Disagreement kDisagreements[] = {
    {Op::kAllReduce, Op::kAllGather, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 16, 0},   // the kind
    {Op::kAllReduce, Op::kAllReduce, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, 16, 0},  // the type, same bytes
    {Op::kAllReduce, Op::kAllReduce, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_MAX, 16, 0},   // the reduce op
    {Op::kBroadcast, Op::kBroadcast, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 16, 1},   // the root
    {Op::kBroadcast, Op::kAllGather, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 16, 0},   // the kind
    {Op::kAllReduce, Op::kAllReduce, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 15, 0},   // the count, both inline
    {Op::kAllReduce, Op::kAllReduce, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, uint64_t{1} << 22, 0},  // enormous
};

}  // namespace

size_t DisagreementCount() { return std::size(kDisagreements); }

std::unique_ptr<RankCase> DisagreeingCase(size_t index, bool odd) {
  const Disagreement& d = kDisagreements[index];
  if (!odd) return std::make_unique<CollectiveCase>(d.kind, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 16, 0);
  return std::make_unique<CollectiveCase>(d.odd_kind, d.odd_type, d.odd_op, d.odd_count, d.odd_seed);
}

std::unique_ptr<RankCase> AllReduceCase(HcclDataType type, HcclReduceOp op, uint64_t count) {
  return std::make_unique<CollectiveCase>(Op::kAllReduce, type, op, count, 99);
}

}  // namespace hccl_test
