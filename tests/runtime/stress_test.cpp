// Many threads enqueueing on many streams at once, with events between the
// streams and host functions among the tasks: nothing is lost, order per
// (thread, stream) holds, nothing deadlocks.
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "runtime_test_util.h"

namespace {

using namespace canopy_test;

constexpr int kThreads = 8;
constexpr int kStreams = 8;
// Per thread and stream: 8 x 8 x 10^4 tasks by default; CANOPY_STRESS_TASKS=100000
// gives the long run (8 x 8 x 10^5) that CI does once in the Release build.
const int kTasksPerStream = [] {
  const char* value = std::getenv("CANOPY_STRESS_TASKS");
  const int tasks = value != nullptr ? std::atoi(value) : 0;
  return tasks > 0 ? tasks : 10000;
}();
constexpr int kEventEvery = 1000;  // iterations between cross-stream event edges
constexpr int kHostFunctionEvery = 500;

// What one thread has seen happen on one stream.
struct Lane {
  uint32_t next = 0;  // touched only by the engine, in stream order
  std::atomic<int> out_of_order{0};
};

struct Ticket {
  Lane* lane;
  uint32_t sequence;
};

std::atomic<int64_t> tasks_run{0};
std::atomic<int64_t> host_functions_run{0};

int32_t RunTicket(void* arg) {
  auto* ticket = static_cast<Ticket*>(arg);
  if (ticket->lane->next != ticket->sequence) ticket->lane->out_of_order.fetch_add(1);
  ticket->lane->next = ticket->sequence + 1;
  tasks_run.fetch_add(1, std::memory_order_relaxed);
  return 0;
}

void CountHostFunction(void*) { host_functions_run.fetch_add(1, std::memory_order_relaxed); }

TEST(Stress, ManyThreadsManyStreamsEventsAndHostFunctions) {
  tasks_run = 0;
  host_functions_run = 0;
  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&context));
  std::vector<aclrtStream> streams(kStreams);
  for (auto& stream : streams) ACL_ASSERT_OK(aclrtCreateStream(&stream));

  std::vector<std::unique_ptr<Lane[]>> lanes(kThreads);
  std::vector<std::vector<Ticket>> tickets(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    lanes[t].reset(new Lane[kStreams]);
    tickets[t].resize(static_cast<size_t>(kStreams) * kTasksPerStream);
    for (int s = 0; s < kStreams; ++s) {
      for (int i = 0; i < kTasksPerStream; ++i) {
        tickets[t][static_cast<size_t>(s) * kTasksPerStream + i] = {&lanes[t][s], static_cast<uint32_t>(i)};
      }
    }
  }

  std::atomic<int> failures{0};
  std::atomic<int64_t> host_functions_launched{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const auto check = [&](aclError status) {
        if (status != ACL_SUCCESS) failures.fetch_add(1);
      };
      check(aclrtSetCurrentContext(context));
      aclrtEvent events[kStreams];
      for (auto& event : events) check(aclrtCreateEvent(&event));
      // A private stream too, created and destroyed while the others are busy.
      aclrtStream own = nullptr;
      check(aclrtCreateStream(&own));
      int64_t launched = 0;
      for (int i = 0; i < kTasksPerStream; ++i) {
        for (int s = 0; s < kStreams; ++s) {
          check(canopyLaunchTask(streams[s], "ticket", RunTicket, nullptr,
                                 &tickets[t][static_cast<size_t>(s) * kTasksPerStream + i]));
        }
        if (i % kEventEvery == kEventEvery - 1) {
          for (int s = 0; s < kStreams; ++s) {
            check(aclrtRecordEvent(events[s], streams[s]));
            check(aclrtStreamWaitEvent(streams[(s + 1 + t) % kStreams], events[s]));
          }
          check(aclrtStreamWaitEvent(own, events[t % kStreams]));
          check(aclrtLaunchHostFunc(own, CountHostFunction, nullptr));
          ++launched;
        }
        if (i % kHostFunctionEvery == t) {
          check(aclrtLaunchHostFunc(streams[(i / kHostFunctionEvery + t) % kStreams], CountHostFunction, nullptr));
          ++launched;
        }
      }
      check(aclrtDestroyStream(own));                              // drains its waits and host functions
      for (auto& event : events) check(aclrtDestroyEvent(event));  // records may still be queued
      host_functions_launched.fetch_add(launched);
    });
  }
  for (auto& thread : threads) thread.join();
  for (auto& stream : streams) ACL_ASSERT_OK(aclrtSynchronizeStream(stream));

  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(tasks_run.load(), int64_t{kThreads} * kStreams * kTasksPerStream);
  EXPECT_EQ(host_functions_run.load(), host_functions_launched.load());
  for (int t = 0; t < kThreads; ++t) {
    for (int s = 0; s < kStreams; ++s) {
      EXPECT_EQ(lanes[t][s].out_of_order.load(), 0) << "thread " << t << " stream " << s;
      EXPECT_EQ(lanes[t][s].next, static_cast<uint32_t>(kTasksPerStream));
    }
  }
  for (auto& stream : streams) ACL_EXPECT_OK(aclrtDestroyStream(stream));
}

TEST(Stress, StreamsComeAndGoWhileOthersRun) {
  aclrtContext context = nullptr;
  ACL_ASSERT_OK(aclrtGetCurrentContext(&context));
  ScopedStream shared;
  std::atomic<int> counter{0};
  std::atomic<int> failures{0};
  constexpr int kRounds = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      if (aclrtSetCurrentContext(context) != ACL_SUCCESS) failures.fetch_add(1);
      for (int round = 0; round < kRounds; ++round) {
        aclrtStream stream = nullptr;
        aclrtEvent event = nullptr;
        if (aclrtCreateStream(&stream) != ACL_SUCCESS || aclrtCreateEvent(&event) != ACL_SUCCESS) {
          failures.fetch_add(1);
          continue;
        }
        canopyLaunchTask(shared, "count", IncrementCounterTask, nullptr, &counter);
        aclrtRecordEvent(event, shared);
        aclrtStreamWaitEvent(stream, event);
        canopyLaunchTask(stream, "count", IncrementCounterTask, nullptr, &counter);
        aclrtLaunchHostFunc(stream, IncrementCounter, &counter);
        if (aclrtDestroyEvent(event) != ACL_SUCCESS) failures.fetch_add(1);
        if (aclrtDestroyStream(stream) != ACL_SUCCESS) failures.fetch_add(1);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ACL_ASSERT_OK(aclrtSynchronizeStream(shared));
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(counter.load(), 4 * kRounds * 3);
}

}  // namespace
