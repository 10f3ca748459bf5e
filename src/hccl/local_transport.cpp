#include "local_transport.h"

#include <algorithm>
#include <cstring>

#include "dtype.h"
#include "error.h"

namespace canopy::hccl {
namespace {

enum class Kind {
  kAllReduce,
  kBroadcast,
  kAllGather,
  kReduceScatter,
  kReduce,
  kScatter,
  kAllToAll,
  kBarrier,
  kAllGatherV,
  kReduceScatterV
};

// One rank's call, as its peers see it.
struct Call {
  Kind kind = Kind::kBarrier;
  HcclDataType type = HCCL_DATA_TYPE_RESERVED;
  HcclReduceOp op = HCCL_REDUCE_RESERVED;
  uint32_t root = 0;
  size_t count = 0;
  const void* send = nullptr;
  void* recv = nullptr;
  const AllToAllPlan* plan = nullptr;
  const VariableBlocks* blocks = nullptr;
};

// A send posted on a channel, waiting for its receiver.
struct Posted {
  enum class State { kPosted, kTaken, kDone } state = State::kPosted;
  const void* data = nullptr;
  size_t bytes = 0;
  std::string error;  // set by the receiver when the sizes disagree
};

uint64_t Total(const std::vector<uint64_t>& counts) {
  uint64_t total = 0;
  for (const uint64_t count : counts) total += count;
  return total;
}

// Reductions walk the data in blocks so that the accumulator stays in cache.
constexpr size_t kReduceBlockBytes = 64 << 10;

}  // namespace

class LocalGroup {
 public:
  LocalGroup(uint32_t size, std::chrono::milliseconds timeout)
      : size_(size), timeout_(timeout), calls_(size), channels_(size * size) {}

  uint32_t size() const { return size_; }

  // Publishes `call` and waits for every rank's; returns all of them.
  const std::vector<Call>& Arrive(uint32_t rank, const Call& call) {
    std::unique_lock lock(mutex_);
    calls_[rank] = call;
    Meet(lock, "a collective");
    return calls_;
  }
  // Waits until every rank has done its share.
  void Depart() {
    std::unique_lock lock(mutex_);
    Meet(lock, "a collective's end");
  }

  void SendRecv(uint32_t rank, const std::vector<PointToPoint>& transfers);

 private:
  // A reusable barrier: the last rank to come releases the others.
  void Meet(std::unique_lock<std::mutex>& lock, const char* what) {
    ThrowIfBroken();
    const uint64_t generation = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return;
    }
    const bool met = changed_.wait_for(lock, timeout_, [&] { return generation_ != generation || broken_; });
    if (!met) {
      Break("not every rank reached " + std::string(what) + " within HCCL_EXEC_TIMEOUT (" +
            std::to_string(timeout_.count()) + " ms)");
    }
    ThrowIfBroken();
  }
  // A rank that gave up leaves the group unusable: its peers fail at once
  // instead of waiting for a rank that will not come.
  void Break(const std::string& reason) {
    if (!broken_) {
      broken_ = true;
      reason_ = reason;
    }
    changed_.notify_all();
    Throw(HCCL_E_TIMEOUT, "%s", reason_.c_str());
  }
  void ThrowIfBroken() const {
    if (broken_) Throw(HCCL_E_TIMEOUT, "the communicator failed earlier: %s", reason_.c_str());
  }
  std::deque<std::shared_ptr<Posted>>& Channel(uint32_t from, uint32_t to) { return channels_[from * size_ + to]; }

  const uint32_t size_;
  const std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<Call> calls_;  // guarded by mutex_ (read without it between the meetings)
  uint32_t arrived_ = 0;     // guarded by mutex_
  uint64_t generation_ = 0;  // guarded by mutex_
  bool broken_ = false;      // guarded by mutex_
  std::string reason_;       // guarded by mutex_
  std::vector<std::deque<std::shared_ptr<Posted>>> channels_;  // [from * size + to], guarded by mutex_
};

void LocalGroup::SendRecv(uint32_t rank, const std::vector<PointToPoint>& transfers) {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  std::vector<std::shared_ptr<Posted>> sends;
  std::unique_lock lock(mutex_);
  ThrowIfBroken();
  // Every send is posted before any receive waits: a batch never waits for itself.
  for (const PointToPoint& transfer : transfers) {
    if (!transfer.send) continue;
    auto posted = std::make_shared<Posted>();
    posted->data = transfer.buffer;
    posted->bytes = transfer.bytes;
    Channel(rank, transfer.peer).push_back(posted);
    sends.push_back(std::move(posted));
  }
  changed_.notify_all();

  // Withdraws what was posted and not taken, then fails.
  auto fail = [&](HcclResult code, const std::string& message) {
    for (const auto& posted : sends) {
      if (posted->state == Posted::State::kPosted) {
        for (auto& channel : channels_) std::erase(channel, posted);
      }
      changed_.wait(lock, [&] { return posted->state != Posted::State::kTaken; });
    }
    Throw(code, "%s", message.c_str());
  };

  for (const PointToPoint& transfer : transfers) {
    if (transfer.send) continue;
    auto& channel = Channel(transfer.peer, rank);
    if (!changed_.wait_until(lock, deadline, [&] { return !channel.empty() || broken_; })) {
      fail(HCCL_E_TIMEOUT, "rank " + std::to_string(transfer.peer) + " sent nothing to rank " + std::to_string(rank) +
                               " within HCCL_EXEC_TIMEOUT");
    }
    if (broken_) fail(HCCL_E_TIMEOUT, "the communicator failed earlier: " + reason_);
    std::shared_ptr<Posted> posted = channel.front();
    channel.pop_front();
    if (posted->bytes != transfer.bytes) {
      posted->error = "rank " + std::to_string(rank) + " expected " + std::to_string(transfer.bytes) +
                      " bytes from rank " + std::to_string(transfer.peer) + ", which sent " +
                      std::to_string(posted->bytes);
      posted->state = Posted::State::kDone;
      changed_.notify_all();
      fail(HCCL_E_PARA, posted->error);
    }
    posted->state = Posted::State::kTaken;
    lock.unlock();
    std::memcpy(transfer.buffer, posted->data, transfer.bytes);
    lock.lock();
    posted->state = Posted::State::kDone;
    changed_.notify_all();
  }

  for (const auto& posted : sends) {
    if (!changed_.wait_until(lock, deadline, [&] { return posted->state == Posted::State::kDone; })) {
      fail(HCCL_E_TIMEOUT, "a send of rank " + std::to_string(rank) + " was not received within HCCL_EXEC_TIMEOUT");
    }
    if (!posted->error.empty()) Throw(HCCL_E_PARA, "%s", posted->error.c_str());
  }
}

namespace {

bool SameSignature(const Call& a, const Call& b) {
  return a.kind == b.kind && a.type == b.type && a.op == b.op && a.root == b.root && a.count == b.count;
}

class LocalTransport final : public Transport {
 public:
  LocalTransport(std::shared_ptr<LocalGroup> group, uint32_t rank) : group_(std::move(group)), rank_(rank) {}

  void AllReduce(const void* send, void* recv, size_t count, HcclDataType type, HcclReduceOp op) override {
    Run({Kind::kAllReduce, type, op, 0, count, send, recv, nullptr}, [&](const std::vector<Call>& calls) {
      const auto [begin, end] = Share(count);
      std::vector<void*> outputs;
      for (const Call& call : calls) outputs.push_back(call.recv);
      ReduceRange(calls, begin, end, outputs);
    });
  }

  void Broadcast(void* buffer, size_t count, HcclDataType type, uint32_t root) override {
    Run({Kind::kBroadcast, type, HCCL_REDUCE_RESERVED, root, count, buffer, buffer, nullptr},
        [&](const std::vector<Call>& calls) {
          if (rank_ != root) std::memcpy(buffer, calls[root].send, count * ElementSize(type));
        });
  }

  void AllGather(const void* send, void* recv, size_t count, HcclDataType type) override {
    Run({Kind::kAllGather, type, HCCL_REDUCE_RESERVED, 0, count, send, recv, nullptr},
        [&](const std::vector<Call>& calls) {
          const size_t bytes = count * ElementSize(type);
          for (const Call& call : calls) {
            char* dst = static_cast<char*>(call.recv) + rank_ * bytes;
            if (dst != send) std::memmove(dst, send, bytes);
          }
        });
  }

  void ReduceScatter(const void* send, void* recv, size_t recv_count, HcclDataType type, HcclReduceOp op) override {
    Run({Kind::kReduceScatter, type, op, 0, recv_count, send, recv, nullptr}, [&](const std::vector<Call>& calls) {
      // This rank's block of every input, reduced into its own output.
      std::vector<Call> shifted = calls;
      const size_t offset = rank_ * recv_count * ElementSize(type);
      for (Call& call : shifted) call.send = static_cast<const char*>(call.send) + offset;
      ReduceRange(shifted, 0, recv_count, {recv});
    });
  }

  void AllGatherV(const void* send, void* recv, const VariableBlocks& blocks, HcclDataType type) override {
    Call call{Kind::kAllGatherV, type, HCCL_REDUCE_RESERVED, 0, Total(blocks.counts), send, recv, nullptr, &blocks};
    Run(call, [&](const std::vector<Call>& calls) {
      // This rank writes its block into every rank's output.
      const size_t es = ElementSize(type);
      const size_t bytes = blocks.own * es;
      if (bytes == 0) return;
      for (const Call& peer : calls)
        std::memcpy(static_cast<char*>(peer.recv) + blocks.displs[rank_] * es, send, bytes);
    });
  }

  void ReduceScatterV(const void* send, void* recv, const VariableBlocks& blocks, HcclDataType type,
                      HcclReduceOp op) override {
    Call call{Kind::kReduceScatterV, type, op, 0, Total(blocks.counts), send, recv, nullptr, &blocks};
    Run(call, [&](const std::vector<Call>& calls) {
      // This rank's block of every input, reduced into its own output.
      std::vector<Call> shifted = calls;
      const size_t offset = blocks.displs[rank_] * ElementSize(type);
      for (Call& peer : shifted) peer.send = static_cast<const char*>(peer.send) + offset;
      ReduceRange(shifted, 0, blocks.own, {recv});
    });
  }

  void Reduce(const void* send, void* recv, size_t count, HcclDataType type, HcclReduceOp op, uint32_t root) override {
    Run({Kind::kReduce, type, op, root, count, send, recv, nullptr}, [&](const std::vector<Call>& calls) {
      const auto [begin, end] = Share(count);
      ReduceRange(calls, begin, end, {calls[root].recv});
    });
  }

  void Scatter(const void* send, void* recv, size_t recv_count, HcclDataType type, uint32_t root) override {
    Run({Kind::kScatter, type, HCCL_REDUCE_RESERVED, root, recv_count, send, recv, nullptr},
        [&](const std::vector<Call>& calls) {
          const size_t bytes = recv_count * ElementSize(type);
          const char* src = static_cast<const char*>(calls[root].send) + rank_ * bytes;
          if (src != recv) std::memmove(recv, src, bytes);
        });
  }

  void AllToAll(const AllToAllPlan& plan) override {
    Call call{Kind::kAllToAll,
              HCCL_DATA_TYPE_RESERVED,
              HCCL_REDUCE_RESERVED,
              0,
              plan.element_size,
              plan.send,
              plan.recv,
              &plan};
    Run(call, [&](const std::vector<Call>& calls) {
      const size_t es = plan.element_size;
      for (uint32_t peer = 0; peer < calls.size(); ++peer) {
        const AllToAllPlan& from = *calls[peer].plan;
        const size_t bytes = plan.recv_counts[peer] * es;
        if (bytes == 0) continue;
        std::memcpy(static_cast<char*>(plan.recv) + plan.recv_offsets[peer] * es,
                    static_cast<const char*>(from.send) + from.send_offsets[rank_] * es, bytes);
      }
    });
  }

  void SendRecv(const std::vector<PointToPoint>& transfers) override { group_->SendRecv(rank_, transfers); }

  void Barrier() override {
    Run({}, [](const std::vector<Call>&) {});
  }

 private:
  // This rank's share [begin, end) of `count` elements.
  std::pair<size_t, size_t> Share(size_t count) const {
    const size_t ranks = group_->size();
    const size_t chunk = (count + ranks - 1) / ranks;
    const size_t begin = std::min(count, rank_ * chunk);
    return {begin, std::min(count, begin + chunk)};
  }

  // Elements [begin, end) of every call's send, reduced with op, into each of `outputs`.
  void ReduceRange(const std::vector<Call>& calls, size_t begin, size_t end, const std::vector<void*>& outputs) {
    const HcclDataType type = calls[0].type;
    const HcclReduceOp op = calls[0].op;
    const size_t es = ElementSize(type);
    const bool half = IsHalfFloat(type);
    const size_t block = kReduceBlockBytes / (half ? sizeof(float) : es);
    std::vector<char> accumulator(block * (half ? sizeof(float) : es));
    std::vector<float> converted(half ? block : 0);
    float* sum = reinterpret_cast<float*>(accumulator.data());
    for (size_t first = begin; first < end; first += block) {
      const size_t n = std::min(block, end - first);
      const size_t offset = first * es;
      for (size_t r = 0; r < calls.size(); ++r) {
        const void* src = static_cast<const char*>(calls[r].send) + offset;
        if (half) {
          HalfToFloat(type, src, r == 0 ? sum : converted.data(), n);
          if (r > 0) ReduceFloatInto(op, sum, converted.data(), n);
        } else if (r == 0) {
          std::memcpy(accumulator.data(), src, n * es);
        } else {
          ReduceInto(type, op, accumulator.data(), src, n);
        }
      }
      for (void* output : outputs) {
        char* dst = static_cast<char*>(output) + offset;
        if (half) {
          FloatToHalf(type, sum, dst, n);
        } else {
          std::memcpy(dst, accumulator.data(), n * es);
        }
      }
    }
  }

  // Publishes `call`, checks every rank's against it, runs this rank's share
  // and waits for the others' to finish, also when the check failed.
  template <typename Work>
  void Run(const Call& call, Work work) {
    const std::vector<Call>& calls = group_->Arrive(rank_, call);
    std::string mismatch;
    for (uint32_t r = 0; r < calls.size() && mismatch.empty(); ++r) {
      if (!SameSignature(calls[r], calls[0])) {
        mismatch = "rank " + std::to_string(r) + " called another operation, count, type or root than rank 0";
      }
    }
    if (mismatch.empty() && call.kind == Kind::kAllToAll) mismatch = CheckAllToAll(calls);
    if (mismatch.empty() && call.blocks != nullptr) mismatch = CheckVariable(calls);
    if (mismatch.empty()) {
      try {
        work(calls);
      } catch (...) {
        group_->Depart();
        throw;
      }
    }
    group_->Depart();
    if (!mismatch.empty()) Throw(HCCL_E_PARA, "%s", mismatch.c_str());
  }

  // What each rank sends to each peer is what that peer expects from it.
  static std::string CheckAllToAll(const std::vector<Call>& calls) {
    for (uint32_t from = 0; from < calls.size(); ++from) {
      for (uint32_t to = 0; to < calls.size(); ++to) {
        if (calls[from].plan->send_counts[to] != calls[to].plan->recv_counts[from]) {
          return "rank " + std::to_string(from) + " sends " + std::to_string(calls[from].plan->send_counts[to]) +
                 " elements to rank " + std::to_string(to) + ", which expects " +
                 std::to_string(calls[to].plan->recv_counts[from]);
        }
      }
    }
    return {};
  }

  // AllGatherV / ReduceScatterV: the same counts and displacements on every
  // rank, and each rank's own count its entry.
  static std::string CheckVariable(const std::vector<Call>& calls) {
    const VariableBlocks& first = *calls[0].blocks;
    for (uint32_t r = 0; r < calls.size(); ++r) {
      const VariableBlocks& blocks = *calls[r].blocks;
      if (blocks.counts != first.counts || blocks.displs != first.displs) {
        return "rank " + std::to_string(r) + " passed other counts or displacements than rank 0";
      }
      if (blocks.own != first.counts[r]) {
        return "rank " + std::to_string(r) + " has its own count " + std::to_string(blocks.own) +
               ", but the counts give it " + std::to_string(first.counts[r]);
      }
    }
    return {};
  }

  std::shared_ptr<LocalGroup> group_;
  const uint32_t rank_;
};

}  // namespace

std::vector<std::unique_ptr<Transport>> MakeLocalTransports(uint32_t size, std::chrono::milliseconds timeout) {
  auto group = std::make_shared<LocalGroup>(size, timeout);
  std::vector<std::unique_ptr<Transport>> transports;
  for (uint32_t rank = 0; rank < size; ++rank) transports.push_back(std::make_unique<LocalTransport>(group, rank));
  return transports;
}

}  // namespace canopy::hccl
