// Redirects file descriptor 2 into a temporary file; see stderr_capture.h.
#include "harness/stderr_capture.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace canopy_test::harness {

[[maybe_unused]] const bool kVerboseSet = setenv("CANOPY_VERBOSE", "1", 1) == 0;

bool PlanCacheOn() {
  const char* value = std::getenv("CANOPY_PLAN_CACHE");
  return value == nullptr || std::strcmp(value, "0") != 0;
}

StderrCapture::~StderrCapture() {
  if (saved_ >= 0) Stop();
}

void StderrCapture::Start() {
  if (saved_ >= 0) return;
  std::fflush(stderr);
  file_ = std::tmpfile();
  if (file_ == nullptr) return;  // nothing captured: a hit then reads as a miss, which fails loudly
  saved_ = dup(STDERR_FILENO);
  dup2(fileno(file_), STDERR_FILENO);
}

std::string StderrCapture::Stop() {
  std::string text;
  if (saved_ < 0) return text;
  std::fflush(stderr);
  dup2(saved_, STDERR_FILENO);
  close(saved_);
  saved_ = -1;
  std::rewind(file_);
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, file_)) > 0;) text.append(buffer, n);
  std::fclose(file_);
  file_ = nullptr;
  return text;
}

}  // namespace canopy_test::harness
