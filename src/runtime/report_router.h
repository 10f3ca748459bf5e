// aclrtSubscribeReport / aclrtLaunchCallback / aclrtProcessReport: callbacks
// launched on a subscribed stream are queued for the subscribed thread, which
// runs them when it calls aclrtProcessReport.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "task.h"

namespace canopy::runtime {

class Stream;

struct PendingReport {
  HostFn fn = nullptr;
  void* user_data = nullptr;
  std::shared_ptr<Stream> blocked_stream;  // set when the stream waits for the callback
};

class ReportRouter {
 public:
  static ReportRouter& Get();

  // Counts subscriptions per thread: a thread may serve several streams, all
  // of one device (CANN's rule). False when it serves another device's streams.
  bool Subscribe(uint64_t thread_id, int32_t device_id);
  // Returns false when the thread was not subscribed.
  bool Unsubscribe(uint64_t thread_id);
  bool IsSubscribed(uint64_t thread_id);
  enum class DeliverResult { kDelivered, kNotSubscribed, kStreamDiscarding };
  // Queues a callback for the thread. A blocking callback of a stream being
  // force-destroyed (Stream::discarding) is refused: it is dropped like any
  // task that has not started.
  DeliverResult Deliver(uint64_t thread_id, PendingReport report);
  // aclrtDestroyStreamForce: drops the blocking callbacks of `stream` that no
  // report thread has taken yet and lets the stream go on.
  void DropBlockedReports(const Stream& stream);

  enum class ProcessResult { kProcessed, kTimeout, kNotSubscribed };
  // Runs one callback queued for the calling thread; timeout_ms < 0 waits forever.
  ProcessResult ProcessOne(uint64_t thread_id, int64_t timeout_ms);

 private:
  struct Mailbox {
    int subscriptions = 0;
    int32_t device_id = -1;  // the device of the streams served, while subscriptions > 0
    std::deque<PendingReport> queue;
    std::condition_variable arrived;
  };
  ReportRouter() = default;

  std::mutex mutex_;
  std::unordered_map<uint64_t, std::unique_ptr<Mailbox>> mailboxes_;
};

}  // namespace canopy::runtime
