// Host tasks (canopyLaunchHostTask): compute tasks that run on a host thread
// instead of the device engine, for work that waits on something outside the
// process (an HCCL collective waiting for its peers) and so must not hold the
// engine's other streams. The stream is held while one runs, as for a host
// function, and its status is the stream's as a task's is.
//
// Whoever comes first runs it: a thread of the host callback pool, to which it
// is always handed, or a thread that synchronises the stream (without a
// timeout) while it is still unclaimed. On a stream with nothing else queued
// or running it starts straight from the enqueue, without the engine; a client
// that then synchronises runs it on its own thread, which costs none of the
// thread hand-offs (the engine's, the callback thread's and back) that made a
// small collective twice as slow as the same collective called directly.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "task.h"

namespace canopy::runtime {

class Stream;

// One started host task, shared by the pool thread it was handed to and the
// stream (for a synchronising thread); the first to claim it runs it.
class HostTaskClaim {
 public:
  // `position`: the task's place in its stream's order (the EnqueuedCount it was given).
  HostTaskClaim(const Task& task, uint64_t position) : task_(task), position_(position) {}
  bool TryClaim() { return !claimed_.exchange(true, std::memory_order_acq_rel); }
  uint64_t position() const { return position_; }
  // Runs the task on the calling thread (its status to the stream), releases its payload and
  // the stream's hold. Only after TryClaim returned true.
  void Run(Stream& stream);
  // Never runs it: releases its payload and the stream's hold with `status`.
  void Drop(Stream& stream, int32_t status, const char* message);

 private:
  Task task_;
  const uint64_t position_;
  std::atomic<bool> claimed_{false};
};

// Queues a host task (kind kHostTask) on `stream`; false when the stream is
// closed. Starts it at once when the stream is idle, else the engine starts it
// when the stream reaches it (StartHostTask).
bool EnqueueHostTask(const std::shared_ptr<Stream>& stream, const Task& task);
// Engine side: the stream's head task is a host task. Holds the stream and
// hands the task to the host callback pool.
void StartHostTask(const std::shared_ptr<Stream>& stream, const Task& task);
// A synchronising thread's turn: runs the stream's started host task on the
// calling thread if no pool thread has claimed it yet and it is one of the
// tasks the thread waits for (its position at most `target`). Never on a
// device engine's thread (a host task must not hold up an engine), nor while
// a graph capture is active (the task's calls would be this thread's). The thread
// keeps its own state: recent error message, last error code and current
// context (the task's failure reaches it through the stream).
void RunPendingHostTask(Stream& stream, uint64_t target);

}  // namespace canopy::runtime
