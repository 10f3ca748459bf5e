// A growable ring buffer of tasks. A stream's queue fills and drains all the
// time; std::deque would allocate and free a block every few tasks (on
// different threads), this reuses its storage and only grows.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "task.h"

namespace canopy::runtime {

class TaskQueue {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }

  void push_back(const Task& task) {
    if (size_ == slots_.size()) Grow();
    slots_[(head_ + size_) & (slots_.size() - 1)] = task;
    ++size_;
  }
  Task& front() { return slots_[head_]; }
  Task& back() { return slots_[(head_ + size_ - 1) & (slots_.size() - 1)]; }
  void pop_front() {
    head_ = (head_ + 1) & (slots_.size() - 1);
    --size_;
  }

  // Visits the queued tasks in order.
  template <typename Visit>
  void ForEach(Visit visit) {
    for (size_t i = 0; i < size_; ++i) visit(slots_[(head_ + i) & (slots_.size() - 1)]);
  }
  template <typename Visit>
  void ForEach(Visit visit) const {
    for (size_t i = 0; i < size_; ++i) visit(slots_[(head_ + i) & (slots_.size() - 1)]);
  }
  void clear() {
    head_ = 0;
    size_ = 0;
  }
  void swap(TaskQueue& other) {
    slots_.swap(other.slots_);
    std::swap(head_, other.head_);
    std::swap(size_, other.size_);
  }

 private:
  static constexpr size_t kInitialSlots = 64;  // a power of two, as every later size

  void Grow() {
    std::vector<Task> grown(slots_.empty() ? kInitialSlots : slots_.size() * 2);
    for (size_t i = 0; i < size_; ++i) grown[i] = slots_[(head_ + i) & (slots_.size() - 1)];
    slots_.swap(grown);
    head_ = 0;
  }

  std::vector<Task> slots_;
  size_t head_ = 0;
  size_t size_ = 0;
};

}  // namespace canopy::runtime
