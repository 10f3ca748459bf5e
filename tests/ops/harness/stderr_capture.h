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

}  // namespace canopy_test::harness

#endif  // CANOPY_TESTS_OPS_HARNESS_STDERR_CAPTURE_H_
