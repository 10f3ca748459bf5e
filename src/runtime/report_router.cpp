#include "report_router.h"

#include <chrono>

#include "host_callback_pool.h"
#include "stream.h"

namespace canopy::runtime {

ReportRouter& ReportRouter::Get() {
  static auto* router = new ReportRouter();
  return *router;
}

void ReportRouter::Subscribe(uint64_t thread_id) {
  std::lock_guard lock(mutex_);
  auto& mailbox = mailboxes_[thread_id];
  if (!mailbox) mailbox = std::make_unique<Mailbox>();
  ++mailbox->subscriptions;
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

bool ReportRouter::Deliver(uint64_t thread_id, PendingReport report) {
  std::lock_guard lock(mutex_);
  auto it = mailboxes_.find(thread_id);
  if (it == mailboxes_.end() || it->second->subscriptions == 0) return false;
  it->second->queue.push_back(std::move(report));
  it->second->arrived.notify_one();
  return true;
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
