#include "report_router.h"

#include <chrono>
#include <vector>

#include "host_callback_pool.h"
#include "stream.h"

namespace canopy::runtime {

ReportRouter& ReportRouter::Get() {
  static auto* router = new ReportRouter();
  return *router;
}

bool ReportRouter::Subscribe(uint64_t thread_id, int32_t device_id) {
  std::lock_guard lock(mutex_);
  auto& mailbox = mailboxes_[thread_id];
  if (!mailbox) mailbox = std::make_unique<Mailbox>();
  if (mailbox->subscriptions > 0 && mailbox->device_id != device_id) return false;
  mailbox->device_id = device_id;
  ++mailbox->subscriptions;
  return true;
}

bool ReportRouter::Unsubscribe(uint64_t thread_id) {
  std::lock_guard lock(mutex_);
  auto it = mailboxes_.find(thread_id);
  if (it == mailboxes_.end() || it->second->subscriptions == 0) return false;
  --it->second->subscriptions;
  it->second->arrived.notify_all();  // a thread waiting forever learns it is done
  return true;
}

bool ReportRouter::IsSubscribed(uint64_t thread_id) {
  std::lock_guard lock(mutex_);
  auto it = mailboxes_.find(thread_id);
  return it != mailboxes_.end() && it->second->subscriptions > 0;
}

ReportRouter::DeliverResult ReportRouter::Deliver(uint64_t thread_id, PendingReport report) {
  std::lock_guard lock(mutex_);
  // Checked under mutex_, which DropBlockedReports takes after the flag is set:
  // a callback is either refused here or found and dropped there.
  if (report.blocked_stream && report.blocked_stream->discarding()) return DeliverResult::kStreamDiscarding;
  auto it = mailboxes_.find(thread_id);
  if (it == mailboxes_.end() || it->second->subscriptions == 0) return DeliverResult::kNotSubscribed;
  it->second->queue.push_back(std::move(report));
  it->second->arrived.notify_one();
  return DeliverResult::kDelivered;
}

void ReportRouter::DropBlockedReports(const Stream& stream) {
  std::vector<std::shared_ptr<Stream>> dropped;
  {
    std::lock_guard lock(mutex_);
    for (auto& [thread_id, mailbox] : mailboxes_) {
      std::erase_if(mailbox->queue, [&](PendingReport& report) {
        if (report.blocked_stream.get() != &stream) return false;
        dropped.push_back(std::move(report.blocked_stream));
        return true;
      });
    }
  }
  // Outside mutex_: releasing wakes the engine and the stream's waiters.
  for (const auto& blocked : dropped) blocked->ReleaseFromHost(0, nullptr);
}

ReportRouter::ProcessResult ReportRouter::ProcessOne(uint64_t thread_id, int64_t timeout_ms) {
  PendingReport report;
  {
    std::unique_lock lock(mutex_);
    auto it = mailboxes_.find(thread_id);
    if (it == mailboxes_.end()) return ProcessResult::kNotSubscribed;
    Mailbox& mailbox = *it->second;  // mailboxes are never erased, so this stays valid
    // Callbacks delivered before an unsubscribe still run.
    const auto ready = [&] { return !mailbox.queue.empty() || mailbox.subscriptions == 0; };
    if (timeout_ms < 0) {
      mailbox.arrived.wait(lock, ready);
    } else if (!mailbox.arrived.wait_for(lock, std::chrono::milliseconds(timeout_ms), ready)) {
      return ProcessResult::kTimeout;
    }
    if (mailbox.queue.empty()) return ProcessResult::kNotSubscribed;
    report = std::move(mailbox.queue.front());
    mailbox.queue.pop_front();
  }
  HostCallbackPool::RunHolding(report.blocked_stream.get(), report.fn, report.user_data);
  if (report.blocked_stream) report.blocked_stream->ReleaseFromHost(0, nullptr);
  return ProcessResult::kProcessed;
}

}  // namespace canopy::runtime
