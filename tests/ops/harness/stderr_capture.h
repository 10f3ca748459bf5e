// Captures what the process writes to file descriptor 2 between Start and
// Stop. The harness runs phase 1 under it with CANOPY_VERBOSE=1, which is how
// it sees that a call was a plan-cache hit ("...: plan cache hit") without a
// hook in the library; the capture also keeps the verbose plan dumps out of
// the test log (they are shown when a call fails).
#ifndef CANOPY_TESTS_OPS_HARNESS_STDERR_CAPTURE_H_
#define CANOPY_TESTS_OPS_HARNESS_STDERR_CAPTURE_H_

#include <cstdio>
#include <string>

namespace canopy_test::harness {

class StderrCapture {
 public:
  StderrCapture() = default;
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  void Start();
  // Restores stderr and returns what was written since Start.
  std::string Stop();

 private:
  std::FILE* file_ = nullptr;
  int saved_ = -1;
};

// What phase 1 prints under CANOPY_VERBOSE=1 when it reuses a cached plan.
// Every binary that links this file runs with CANOPY_VERBOSE=1: the library
// reads it once, at the first phase 1, so stderr_capture.cpp sets it before main.
inline constexpr const char* kCacheHitMessage = "plan cache hit";

// Whether the plan cache is on: CANOPY_PLAN_CACHE=0 (EnvSwitch: "0" is off)
// turns it off, and then nothing can hit.
bool PlanCacheOn();

}  // namespace canopy_test::harness

#endif  // CANOPY_TESTS_OPS_HARNESS_STDERR_CAPTURE_H_
