// Reordered copies of an operand that is usually the same call after call:
// a convolution's weights, which oneDNN wants in a blocked layout of its own.
// Reordering them on every call costs as much as the convolution itself on
// small inputs (a 512x512x3x3 f32 weight takes ~10 ms to reorder, ~1 ms to
// compare), so a oneDNN step keeps, per source address, the reordered copy
// together with the exact bytes it was made from.
//
// Staleness: a copy is used only after the operand's bytes, compared in full
// (memcmp) at execution time on the stream, equal the bytes it was made from.
// A client that rewrites the weights in place, frees and reallocates the
// buffer, or aliases another tensor there gets a fresh reorder; no hash, no
// version counter a write path could forget to bump.
//
// Threads: a cached plan runs on several streams at once. Copies are immutable
// once made and handed out as shared_ptr, so a run keeps its copy alive while
// another replaces or evicts it; the mutex guards only the list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>

namespace canopy::kernels {

class ReorderedCopies {
 public:
  // Copies kept per step: a network repeats a layer shape a few times (ResNet-50's
  // third stage six times), each an address of its own in the same cached plan.
  static constexpr size_t kMaxCopies = 8;
  // All steps of the process together keep at most this much (sources and
  // reordered copies); beyond it a step reorders into its workspace per call.
  static constexpr int64_t kBudgetBytes = int64_t{1} << 30;

  class Copy {
   public:
    Copy(const void* source, size_t source_bytes, size_t reordered_bytes);
    ~Copy();
    Copy(const Copy&) = delete;
    Copy& operator=(const Copy&) = delete;
    const void* source() const { return source_; }
    // The bytes the source held when the copy was made (the reorder read these).
    const void* source_bytes() const { return snapshot_.get(); }
    void* reordered() const { return reordered_.get(); }
    // Whether `source` still holds the snapshot's bytes.
    bool Matches(const void* source) const;

   private:
    struct Free {
      void operator()(void* p) const;
    };
    const void* source_;
    size_t source_bytes_, reordered_bytes_;
    std::unique_ptr<unsigned char, Free> snapshot_, reordered_;
  };

  // `source_bytes`: the span of the operand; `reordered_bytes`: of its layout for the primitive.
  ReorderedCopies(size_t source_bytes, size_t reordered_bytes)
      : source_bytes_(source_bytes), reordered_bytes_(reordered_bytes) {}
  ~ReorderedCopies();
  ReorderedCopies(const ReorderedCopies&) = delete;
  ReorderedCopies& operator=(const ReorderedCopies&) = delete;

  // The copy for `source`: a kept one whose bytes still match, else a new one
  // made by `reorder(from, to)` (from: a snapshot of source with source's
  // layout, to: the reordered buffer) and kept. Null when the budget has no
  // room: the caller reorders into its workspace.
  std::shared_ptr<const Copy> Get(const void* source, const std::function<void(void* from, void* to)>& reorder);

 private:
  std::shared_ptr<const Copy> Find(const void* source);
  void Forget(const std::shared_ptr<const Copy>& copy);
  void Keep(std::shared_ptr<const Copy> copy);

  const size_t source_bytes_, reordered_bytes_;
  std::mutex mutex_;
  std::list<std::shared_ptr<const Copy>> copies_;  // most recently used first
};

// The bytes every ReorderedCopies of the process keeps now (for tests and CANOPY_VERBOSE).
int64_t ReorderedCopyBytes();

}  // namespace canopy::kernels
