#include "gloo_transport.h"

#include <gloo/allgather.h>
#include <gloo/allgatherv.h>
#include <gloo/allreduce.h>
#include <gloo/broadcast.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/scatter.h>
#include <gloo/transport/tcp/device.h>
#include <gloo/transport/unbound_buffer.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "dtype.h"
#include "error.h"
#include "sigpipe_guard.h"
#include "store.h"

namespace canopy::hccl {
namespace {

// Slot prefixes of our own point-to-point messages, beside Gloo's (0x01-0x08).
constexpr uint64_t kPointToPointSlot = uint64_t{0x20} << 56;
constexpr uint64_t kProofSlot = uint64_t{0x21} << 56;
// The most data an operation's first exchange carries inline (see Check),
// per rank and over all ranks: every rank receives every rank's frame, so a
// large communicator gets smaller frames.
constexpr size_t kMaxInlineBytes = size_t{64} << 10;
constexpr size_t kMaxInlineTotal = size_t{256} << 10;

// What every rank checks about every other's call before data moves.
struct Signature {
  uint32_t kind = 0;
  uint32_t type = 0;
  uint32_t op = 0;
  uint32_t root = 0;
  uint64_t count = 0;
  uint64_t sequence = 0;
  bool operator==(const Signature&) const = default;
};

enum Kind : uint32_t {
  kAllReduce = 1,
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

uint64_t Total(const std::vector<uint64_t>& counts) {
  uint64_t total = 0;
  for (const uint64_t count : counts) total += count;
  return total;
}

// c = a op b over n elements of `type` (Gloo's reduce-function contract).
gloo::AllreduceOptions::Func ReduceFunction(HcclDataType type, HcclReduceOp op) {
  const size_t es = IsHalfFloat(type) ? sizeof(float) : ElementSize(type);
  const bool half = IsHalfFloat(type);
  return [type, op, es, half](void* c, const void* a, const void* b, size_t n) {
    const void* other = b;
    if (c != a) {
      if (c == b) {
        other = a;
      } else {
        std::memcpy(c, a, n * es);
      }
    }
    if (half) {
      ReduceFloatInto(op, static_cast<float*>(c), static_cast<const float*>(other), n);
    } else {
      ReduceInto(type, op, c, other, n);
    }
  };
}

// Calls fn with a null pointer of the unsigned type of `bytes` bytes, so that
// Gloo's templates get the right element size.
template <typename Fn>
void WithElement(size_t bytes, Fn fn) {
  switch (bytes) {
    case 1:
      return fn(static_cast<uint8_t*>(nullptr));
    case 2:
      return fn(static_cast<uint16_t*>(nullptr));
    case 4:
      return fn(static_cast<uint32_t*>(nullptr));
    default:
      return fn(static_cast<uint64_t*>(nullptr));
  }
}

class GlooTransport final : public Transport {
 public:
  GlooTransport(std::shared_ptr<gloo::Context> context, std::chrono::milliseconds timeout)
      : context_(std::move(context)), timeout_(timeout) {}

  void AllReduce(const void* send, void* recv, size_t count, HcclDataType type, HcclReduceOp op) override {
    std::lock_guard lock(mutex_);
    if (Check({kAllReduce, uint32_t(type), uint32_t(op), 0, count}, send)) return ReduceFrames(recv, count, type, op);
    if (count == 0) return;
    if (IsHalfFloat(type)) {
      std::vector<float> wide(count);
      HalfToFloat(type, send, wide.data(), count);
      RunAllReduce(wide.data(), wide.data(), count, sizeof(float), type, op);
      FloatToHalf(type, wide.data(), recv, count);
    } else {
      RunAllReduce(send, recv, count, ElementSize(type), type, op);
    }
  }

  void Broadcast(void* buffer, size_t count, HcclDataType type, uint32_t root) override {
    std::lock_guard lock(mutex_);
    if (Check({kBroadcast, uint32_t(type), 0, root, count}, buffer)) {
      if (static_cast<uint32_t>(context_->rank) != root) {
        std::memcpy(buffer, FrameData(static_cast<int>(root)), count * ElementSize(type));
      }
      return;
    }
    if (count == 0) return;
    gloo::BroadcastOptions opts(context_);
    opts.setOutput(static_cast<uint8_t*>(buffer), count * ElementSize(type));
    opts.setRoot(static_cast<int>(root));
    opts.setTimeout(timeout_);
    gloo::broadcast(opts);
  }

  void AllGather(const void* send, void* recv, size_t count, HcclDataType type) override {
    std::lock_guard lock(mutex_);
    const bool done = Check({kAllGather, uint32_t(type), 0, 0, count}, send);
    const size_t bytes = count * ElementSize(type);
    if (done) {
      for (int r = 0; r < context_->size; ++r) std::memcpy(static_cast<char*>(recv) + r * bytes, FrameData(r), bytes);
      return;
    }
    if (count == 0) return;
    gloo::AllgatherOptions opts(context_);
    char* own = static_cast<char*>(recv) + context_->rank * bytes;
    // Gloo takes an input apart from the output, or the output alone with this rank's block in place.
    if (own != send) std::memmove(own, send, bytes);
    opts.setOutput(static_cast<uint8_t*>(recv), bytes * context_->size);
    opts.setTimeout(timeout_);
    gloo::allgather(opts);
  }

  void ReduceScatter(const void* send, void* recv, size_t recv_count, HcclDataType type, HcclReduceOp op) override {
    std::lock_guard lock(mutex_);
    Check({kReduceScatter, uint32_t(type), uint32_t(op), 0, recv_count});
    if (recv_count == 0) return;
    // All-reduce the whole input, keep this rank's block.
    const size_t total = recv_count * context_->size;
    const size_t es = IsHalfFloat(type) ? sizeof(float) : ElementSize(type);
    std::vector<char> reduced(total * es);
    if (IsHalfFloat(type)) {
      HalfToFloat(type, send, reinterpret_cast<float*>(reduced.data()), total);
      RunAllReduce(reduced.data(), reduced.data(), total, es, type, op);
      FloatToHalf(type, reinterpret_cast<float*>(reduced.data()) + context_->rank * recv_count, recv, recv_count);
    } else {
      RunAllReduce(send, reduced.data(), total, es, type, op);
      std::memcpy(recv, reduced.data() + context_->rank * recv_count * es, recv_count * es);
    }
  }

  void AllGatherV(const void* send, void* recv, const VariableBlocks& blocks, HcclDataType type) override {
    std::lock_guard lock(mutex_);
    CheckVariable(kAllGatherV, type, HCCL_REDUCE_RESERVED, blocks);
    const size_t es = ElementSize(type);
    const int size = context_->size;
    // Gloo gathers the blocks back to back: straight into recvBuf when the
    // displacements say that, else into a staging buffer first.
    bool packed = true;
    uint64_t next = 0;
    for (int r = 0; r < size; ++r) {
      packed = packed && blocks.displs[r] == next;
      next += blocks.counts[r];
    }
    std::vector<char> staging(packed ? 0 : next * es);
    char* out = packed ? static_cast<char*>(recv) : staging.data();
    WithElement(es, [&](auto* element) {
      using T = std::remove_pointer_t<decltype(element)>;
      gloo::AllgathervOptions opts(context_);
      opts.setInput(static_cast<T*>(const_cast<void*>(send)), blocks.own);
      opts.setOutput(reinterpret_cast<T*>(out), std::vector<size_t>(blocks.counts.begin(), blocks.counts.end()));
      opts.setTimeout(timeout_);
      gloo::allgatherv(opts);
    });
    if (!packed) {
      size_t at = 0;
      for (int r = 0; r < size; ++r) {
        std::memcpy(static_cast<char*>(recv) + blocks.displs[r] * es, staging.data() + at, blocks.counts[r] * es);
        at += blocks.counts[r] * es;
      }
    }
  }

  void ReduceScatterV(const void* send, void* recv, const VariableBlocks& blocks, HcclDataType type,
                      HcclReduceOp op) override {
    std::lock_guard lock(mutex_);
    CheckVariable(kReduceScatterV, type, op, blocks);
    // Every rank packs its blocks back to back, the packed vectors are
    // all-reduced, and each rank keeps its own block.
    const bool half = IsHalfFloat(type);
    const size_t es = ElementSize(type);
    const size_t wide = half ? sizeof(float) : es;
    const int size = context_->size;
    std::vector<char> packed(Total(blocks.counts) * wide);
    size_t at = 0, mine = 0;
    for (int r = 0; r < size; ++r) {
      const char* block = static_cast<const char*>(send) + blocks.displs[r] * es;
      if (r == context_->rank) mine = at;
      if (half) {
        HalfToFloat(type, block, reinterpret_cast<float*>(packed.data() + at), blocks.counts[r]);
      } else {
        std::memcpy(packed.data() + at, block, blocks.counts[r] * es);
      }
      at += blocks.counts[r] * wide;
    }
    RunAllReduce(packed.data(), packed.data(), at / wide, wide, type, op);
    if (blocks.own == 0) return;
    if (half) {
      FloatToHalf(type, reinterpret_cast<const float*>(packed.data() + mine), recv, blocks.own);
    } else {
      std::memcpy(recv, packed.data() + mine, blocks.own * es);
    }
  }

  void Reduce(const void* send, void* recv, size_t count, HcclDataType type, HcclReduceOp op, uint32_t root) override {
    std::lock_guard lock(mutex_);
    Check({kReduce, uint32_t(type), uint32_t(op), root, count});
    if (count == 0) return;
    const bool half = IsHalfFloat(type);
    const size_t es = half ? sizeof(float) : ElementSize(type);
    const bool is_root = static_cast<uint32_t>(context_->rank) == root;
    // Gloo uses the output of every rank as scratch: only the root's is the client's.
    std::vector<char> input(half ? count * es : 0), scratch((half || !is_root) ? count * es : 0);
    const void* in = send;
    void* out = is_root && !half ? recv : scratch.data();
    if (half) {
      HalfToFloat(type, send, reinterpret_cast<float*>(input.data()), count);
      in = input.data();
    }
    WithElement(es, [&](auto* element) {
      using T = std::remove_pointer_t<decltype(element)>;
      gloo::ReduceOptions opts(context_);
      opts.setInput(static_cast<T*>(const_cast<void*>(in)), count);
      opts.setOutput(static_cast<T*>(out), count);
      opts.setRoot(static_cast<int>(root));
      opts.setReduceFunction(ReduceFunction(type, op));
      opts.setTimeout(timeout_);
      gloo::reduce(opts);
    });
    if (half && is_root) FloatToHalf(type, reinterpret_cast<float*>(scratch.data()), recv, count);
  }

  void Scatter(const void* send, void* recv, size_t recv_count, HcclDataType type, uint32_t root) override {
    std::lock_guard lock(mutex_);
    Check({kScatter, uint32_t(type), 0, root, recv_count});
    if (recv_count == 0) return;
    const size_t bytes = recv_count * ElementSize(type);
    gloo::ScatterOptions opts(context_);
    std::vector<uint8_t*> inputs;
    if (static_cast<uint32_t>(context_->rank) == root) {
      for (int r = 0; r < context_->size; ++r) {
        inputs.push_back(static_cast<uint8_t*>(const_cast<void*>(send)) + r * bytes);
      }
      opts.setInputs(inputs, bytes);
    }
    opts.setOutput(static_cast<uint8_t*>(recv), bytes);
    opts.setRoot(static_cast<int>(root));
    opts.setTimeout(timeout_);
    gloo::scatter(opts);
  }

  void AllToAll(const AllToAllPlan& plan) override {
    std::lock_guard lock(mutex_);
    Check({kAllToAll, 0, 0, 0, plan.element_size});
    // Every rank learns what every other sends to whom and checks it against
    // what it expects to receive, before any data moves.
    const int size = context_->size;
    std::vector<uint64_t> all_counts(static_cast<size_t>(size) * size);
    {
      std::vector<uint64_t> mine = plan.send_counts;
      gloo::AllgatherOptions opts(context_);
      opts.setInput(mine.data(), mine.size());
      opts.setOutput(all_counts.data(), all_counts.size());
      opts.setTimeout(timeout_);
      gloo::allgather(opts);
    }
    const int me = context_->rank;
    for (int peer = 0; peer < size; ++peer) {
      const uint64_t sent = all_counts[static_cast<size_t>(peer) * size + me];
      if (sent != plan.recv_counts[peer]) {
        Throw(HCCL_E_PARA, "rank %d sends %llu elements to rank %d, which expects %llu", peer,
              static_cast<unsigned long long>(sent), me, static_cast<unsigned long long>(plan.recv_counts[peer]));
      }
    }
    std::vector<PointToPoint> transfers;
    const size_t es = plan.element_size;
    for (int peer = 0; peer < size; ++peer) {
      const auto p = static_cast<uint32_t>(peer);
      if (peer == me) {
        std::memmove(static_cast<char*>(plan.recv) + plan.recv_offsets[p] * es,
                     static_cast<const char*>(plan.send) + plan.send_offsets[p] * es, plan.recv_counts[p] * es);
        continue;
      }
      if (plan.send_counts[p] > 0) {
        transfers.push_back({true, static_cast<char*>(const_cast<void*>(plan.send)) + plan.send_offsets[p] * es,
                             plan.send_counts[p] * es, p});
      }
      if (plan.recv_counts[p] > 0) {
        transfers.push_back(
            {false, static_cast<char*>(plan.recv) + plan.recv_offsets[p] * es, plan.recv_counts[p] * es, p});
      }
    }
    Exchange(transfers, /*checked=*/true);
  }

  void SendRecv(const std::vector<PointToPoint>& transfers) override {
    std::lock_guard lock(mutex_);
    Exchange(transfers, /*checked=*/false);
  }

  void Barrier() override {
    std::lock_guard lock(mutex_);
    // The check's all-gather returns only when every rank has sent its frame: it is the barrier.
    Check({kBarrier, 0, 0, 0, 0});
  }

 private:
  void RunAllReduce(const void* send, void* recv, size_t count, size_t es, HcclDataType type, HcclReduceOp op) {
    WithElement(es, [&](auto* element) {
      using T = std::remove_pointer_t<decltype(element)>;
      gloo::AllreduceOptions opts(context_);
      if (send != recv) opts.setInput(static_cast<T*>(const_cast<void*>(send)), count);
      opts.setOutput(static_cast<T*>(recv), count);
      opts.setReduceFunction(ReduceFunction(type, op));
      opts.setTimeout(timeout_);
      gloo::allreduce(opts);
    });
  }

  // Every operation starts with one all-gather of a frame per rank: the
  // operation's signature, which each rank checks against its own before any
  // data moves (Gloo itself would abort the process on a size mismatch), and
  // room for data. An all-reduce or all-gather whose data fits the room
  // travels in that same exchange and needs no second round, which is most
  // of what a small message costs. Gloo needs every rank's frame to be the
  // same size, so the room is not this operation's size (a rank cannot know
  // its peers' before the exchange) but the last operation's, which every
  // rank reads from the same signatures. A loop of same-sized small
  // operations thus goes in one round each from its second call on.
  // Returns whether `payload` (count elements of the signature's type, or
  // null for operations that never go inline) travelled in the frames.
  bool Check(Signature mine, const void* payload = nullptr) {
    mine.sequence = ++sequence_;
    const size_t bytes = mine.count * ElementSize(static_cast<HcclDataType>(mine.type));
    const bool inline_data = payload != nullptr && bytes > 0 && bytes <= room_;
    frame_bytes_ = sizeof(Signature) + room_;
    frames_.resize(frame_bytes_ * static_cast<size_t>(context_->size));
    char* own = frames_.data() + frame_bytes_ * static_cast<size_t>(context_->rank);
    std::memcpy(own, &mine, sizeof mine);
    if (inline_data) std::memcpy(own + sizeof mine, payload, bytes);
    gloo::AllgatherOptions opts(context_);
    opts.setOutput(reinterpret_cast<uint8_t*>(frames_.data()), frames_.size());
    opts.setTimeout(timeout_);
    gloo::allgather(opts);
    for (int r = 0; r < context_->size; ++r) {
      Signature theirs;
      std::memcpy(&theirs, frames_.data() + frame_bytes_ * static_cast<size_t>(r), sizeof theirs);
      if (!(theirs == mine)) {
        Throw(HCCL_E_PARA,
              "rank %d called another operation, count, type or root than rank %d (operation %llu of the "
              "communicator)",
              r, context_->rank, static_cast<unsigned long long>(mine.sequence));
      }
    }
    // A multiple of 8, so that every frame's data is aligned for its widest
    // element (8 bytes) when the folds read it in place: 256 KiB / 6 ranks
    // would put odd ranks' data 2 bytes off a float. The power of two above
    // `bytes` is capped too, or 5-7 ranks would get more than the total (and
    // taken only below the cap: a huge count's would overflow).
    const size_t most = std::min(kMaxInlineBytes, kMaxInlineTotal / static_cast<size_t>(context_->size)) & ~size_t{7};
    room_ = bytes == 0 ? 0 : bytes >= most ? most : std::min(most, std::bit_ceil(bytes));
    return inline_data;
  }

  // Rank r's data from the last Check that carried it inline.
  const char* FrameData(int r) const {
    return frames_.data() + frame_bytes_ * static_cast<size_t>(r) + sizeof(Signature);
  }

  // An all-reduce whose data came inline: every rank folds the frames in rank
  // order, so all get the same result; fp16 / bf16 accumulate in f32, as the
  // Gloo path does.
  void ReduceFrames(void* recv, size_t count, HcclDataType type, HcclReduceOp op) const {
    if (IsHalfFloat(type)) {
      std::vector<float> sum(count), next(count);
      HalfToFloat(type, FrameData(0), sum.data(), count);
      for (int r = 1; r < context_->size; ++r) {
        HalfToFloat(type, FrameData(r), next.data(), count);
        ReduceFloatInto(op, sum.data(), next.data(), count);
      }
      FloatToHalf(type, sum.data(), recv, count);
      return;
    }
    std::memmove(recv, FrameData(0), count * ElementSize(type));
    for (int r = 1; r < context_->size; ++r) ReduceInto(type, op, recv, FrameData(r), count);
  }

  // AllGatherV and ReduceScatterV: every rank passed the same counts and
  // displacements, and its own count is its entry. Each rank sees every
  // rank's arrays, so all reach the same verdict and none moves data
  // another rank refuses.
  void CheckVariable(Kind kind, HcclDataType type, HcclReduceOp op, const VariableBlocks& blocks) {
    const size_t size = static_cast<size_t>(context_->size);
    Check({kind, uint32_t(type), uint32_t(op), 0, Total(blocks.counts)});
    const size_t row = 1 + 2 * size;
    std::vector<uint64_t> mine(row), all(row * size);
    mine[0] = blocks.own;
    std::copy(blocks.counts.begin(), blocks.counts.end(), mine.begin() + 1);
    std::copy(blocks.displs.begin(), blocks.displs.end(), mine.begin() + 1 + static_cast<ptrdiff_t>(size));
    gloo::AllgatherOptions opts(context_);
    opts.setInput(mine.data(), mine.size());
    opts.setOutput(all.data(), all.size());
    opts.setTimeout(timeout_);
    gloo::allgather(opts);
    const char* const what = kind == kAllGatherV ? "recvCounts and recvDispls" : "sendCounts and sendDispls";
    const char* const own = kind == kAllGatherV ? "sendCount" : "recvCount";
    for (size_t r = 0; r < size; ++r) {
      const uint64_t* theirs = all.data() + r * row;
      if (!std::equal(mine.begin() + 1, mine.end(), theirs + 1)) {
        Throw(HCCL_E_PARA, "rank %zu passed other %s than rank %d (they must be the same on every rank)", r, what,
              context_->rank);
      }
      if (theirs[0] != blocks.counts[r]) {
        Throw(HCCL_E_PARA, "rank %zu has %s %llu, but the counts give it %llu", r, own,
              static_cast<unsigned long long>(theirs[0]), static_cast<unsigned long long>(blocks.counts[r]));
      }
    }
  }

  // Point-to-point transfers: each message is a header with its size, then
  // the data, each on a slot numbered per direction, so that the k-th send
  // from a to b meets the k-th receive at b from a. A receiver checks the
  // header against the size it expects before it takes the data.
  void Exchange(const std::vector<PointToPoint>& transfers, bool checked) {
    struct Pending {
      std::unique_ptr<gloo::transport::UnboundBuffer> header, data;
      uint64_t size = 0;
      const PointToPoint* transfer = nullptr;
      uint64_t slot = 0;
    };
    std::vector<Pending> pending(transfers.size());
    for (size_t i = 0; i < transfers.size(); ++i) {
      const PointToPoint& t = transfers[i];
      if (t.peer >= static_cast<uint32_t>(context_->size) || t.peer == static_cast<uint32_t>(context_->rank)) {
        Throw(HCCL_E_PARA, "rank %u is not a peer of rank %d", t.peer, context_->rank);
      }
      Pending& p = pending[i];
      p.transfer = &t;
      uint64_t& sequence = t.send ? sent_[t.peer] : received_[t.peer];
      p.slot = kPointToPointSlot | ((sequence++ & 0xffffffffffffull) << 1);
      p.size = t.bytes;
      p.header = context_->createUnboundBuffer(&p.size, sizeof(p.size));
      if (t.send) {
        p.header->send(static_cast<int>(t.peer), p.slot);
        if (t.bytes > 0) {
          p.data = context_->createUnboundBuffer(t.buffer, t.bytes);
          p.data->send(static_cast<int>(t.peer), p.slot | 1);
        }
      } else {
        p.header->recv(static_cast<int>(t.peer), p.slot);
      }
    }
    for (Pending& p : pending) {
      if (p.transfer->send) continue;
      p.header->waitRecv(timeout_);
      if (p.size != p.transfer->bytes) {
        // Take the sender's data aside before failing: its send completes only
        // when received, and would otherwise wait until HCCL_EXEC_TIMEOUT. The
        // error is the receiver's, as a truncated receive is in MPI.
        if (p.size > 0) {
          std::vector<char> discarded(p.size);
          auto drain = context_->createUnboundBuffer(discarded.data(), discarded.size());
          drain->recv(static_cast<int>(p.transfer->peer), p.slot | 1);
          drain->waitRecv(timeout_);
        }
        Throw(HCCL_E_PARA, "rank %d expected %llu bytes from rank %u, which sends %llu", context_->rank,
              static_cast<unsigned long long>(p.transfer->bytes), p.transfer->peer,
              static_cast<unsigned long long>(p.size));
      }
      if (p.transfer->bytes > 0) {
        p.data = context_->createUnboundBuffer(p.transfer->buffer, p.transfer->bytes);
        p.data->recv(static_cast<int>(p.transfer->peer), p.slot | 1);
      }
    }
    for (Pending& p : pending) {
      if (p.transfer->send) {
        p.header->waitSend(timeout_);
        if (p.data) p.data->waitSend(timeout_);
      } else if (p.data) {
        p.data->waitRecv(timeout_);
      }
    }
    (void)checked;
  }

  std::shared_ptr<gloo::Context> context_;
  const std::chrono::milliseconds timeout_;
  std::mutex mutex_;  // one operation of the communicator at a time
  uint64_t sequence_ = 0;
  size_t room_ = 0;         // bytes of data each rank's next frame has room for
  size_t frame_bytes_ = 0;  // of the last Check's frames: its signature and room
  std::vector<char> frames_;
  std::map<uint32_t, uint64_t> sent_, received_;
};

// Each pair proves the secret both ways over Gloo's own connection: a
// connection that someone else took over (Gloo's listeners accept anyone)
// cannot answer, and the communicator is not made.
void ProvePairs(gloo::Context& context, const Secret& secret, std::chrono::milliseconds timeout) {
  const int size = context.size;
  const int me = context.rank;
  std::vector<Nonce> mine(size), theirs(size);
  std::vector<Proof> proofs_out(size), proofs_in(size);
  std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> buffers;
  auto context_of = [](int from, int to) { return (static_cast<uint64_t>(from) << 32) | static_cast<uint32_t>(to); };
  for (int peer = 0; peer < size; ++peer) {
    if (peer == me) continue;
    RandomBytes(mine[peer].data(), kNonceBytes);
  }
  auto exchange = [&](auto& out, auto& in, uint64_t slot) {
    std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> sends, recvs;
    for (int peer = 0; peer < size; ++peer) {
      if (peer == me) continue;
      sends.push_back(context.createUnboundBuffer(out[peer].data(), out[peer].size()));
      sends.back()->send(peer, slot);
      recvs.push_back(context.createUnboundBuffer(in[peer].data(), in[peer].size()));
      recvs.back()->recv(peer, slot);
    }
    for (auto& buffer : recvs) buffer->waitRecv(timeout);
    for (auto& buffer : sends) buffer->waitSend(timeout);
  };
  exchange(mine, theirs, kProofSlot);
  for (int peer = 0; peer < size; ++peer) {
    if (peer != me) proofs_out[peer] = Prove(secret, "canopy-hccl pair", theirs[peer], context_of(me, peer));
  }
  exchange(proofs_out, proofs_in, kProofSlot | 1);
  for (int peer = 0; peer < size; ++peer) {
    if (peer == me) continue;
    if (!SameProof(proofs_in[peer], Prove(secret, "canopy-hccl pair", mine[peer], context_of(peer, me)))) {
      LogWarning("a connection to rank " + std::to_string(me) + " did not prove the communicator secret");
      Throw(HCCL_E_TCP_CONNECT, "the connection from rank %d did not prove the communicator secret", peer);
    }
  }
}

}  // namespace

std::unique_ptr<Transport> ConnectGlooTransport(const RootInfo& root, uint32_t rank, uint32_t size,
                                                std::chrono::milliseconds connect_timeout,
                                                std::chrono::milliseconds exec_timeout, const std::string& local_host) {
  // Gloo's event-loop thread, started with the device, inherits this
  // thread's blocked SIGPIPE and keeps it; the connecting below is covered too.
  const SigpipeGuard no_sigpipe;
  StoreClient store(root.host, root.port, root.secret, connect_timeout);
  // Gloo's listeners bind where this rank reaches the root from (loopback when
  // the root is local), unless HCCL_IF_IP or the rank table names the address.
  gloo::transport::tcp::attr attr;
  const char* if_ip = std::getenv("HCCL_IF_IP");
  if (!local_host.empty()) {
    attr.hostname = local_host;
  } else {
    attr.hostname = if_ip != nullptr && *if_ip != '\0' ? std::string(if_ip) : store.local_address();
  }
  // Every rank must be given the same rank count (Gloo's own check aborts
  // with an internal error deep in its address exchange): each posts its own
  // and compares a peer's, rank 0 against rank 1, the others against rank 0.
  if (size > 1) {
    const auto key = [](uint32_t r) { return "canopy/nranks/" + std::to_string(r); };
    std::vector<char> mine(sizeof(size));
    std::memcpy(mine.data(), &size, sizeof(size));
    store.set(key(rank), mine);
    const uint32_t peer = rank == 0 ? 1 : 0;
    const std::vector<char> theirs = store.get(key(peer));
    uint32_t their_size = 0;
    if (theirs.size() == sizeof(their_size)) std::memcpy(&their_size, theirs.data(), sizeof(their_size));
    if (their_size != size) {
      Throw(HCCL_E_PARA, "rank %u was given %u ranks, rank %u %u: every rank must pass the same nRanks", rank, size,
            peer, their_size);
    }
  }
  auto device = gloo::transport::tcp::CreateDevice(attr);
  auto context = std::make_shared<gloo::rendezvous::Context>(static_cast<int>(rank), static_cast<int>(size));
  context->setTimeout(connect_timeout);
  context->connectFullMesh(store, device);
  ProvePairs(*context, root.secret, connect_timeout);
  context->setTimeout(exec_timeout);
  store.ReportDone(rank, size);
  return std::make_unique<GlooTransport>(std::move(context), exec_timeout);
}

}  // namespace canopy::hccl
