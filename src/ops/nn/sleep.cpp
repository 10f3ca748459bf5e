// aclnnSleep (ops-nn experimental/control/sleep, the variant that runs on Atlas
// A2): the stream waits `cycles` device clock cycles before its next task.
// The NPU spins on its system counter; Canopy's engine sleeps for the same
// time at the 1.65 GHz clock CANN's document and example reckon with
// (1650000000 cycles, about a second), so a program's timing is kept.
#include <chrono>
#include <string>
#include <thread>

#include "aclnnop/aclnn_sleep.h"
#include "ops/framework/aclnn_op.h"

using namespace canopy;
using namespace canopy::ops;

namespace {

constexpr double kCyclesPerSecond = 1.65e9;
// No tensors: the registry row lists the type of cycles, INT64 in CANN's table.
constexpr DtypeSet kSleepDtypes = {ACL_INT64};

class SleepStep final : public Step {
 public:
  explicit SleepStep(int64_t cycles) : cycles_(cycles) {}

  aclnnStatus Run(const RunContext& /*context*/) const override {
    const std::chrono::duration<double> seconds(static_cast<double>(cycles_) / kCyclesPerSecond);
    std::this_thread::sleep_for(seconds);
    return ACLNN_SUCCESS;
  }

  std::string Describe() const override { return "sleep " + std::to_string(cycles_) + " cycles"; }

 private:
  int64_t cycles_;
};

aclnnStatus PlanSleep(Plan& plan, int64_t cycles) {
  if (cycles < 0) {
    return plan.Reject(ACLNN_ERR_PARAM_INVALID, "argument 'cycles' is %lld; it must not be negative",
                       static_cast<long long>(cycles));
  }
  if (cycles > 0) plan.AddStep(std::make_unique<SleepStep>(cycles));
  return ACLNN_SUCCESS;
}

}  // namespace

CANOPY_ACLNN_OP(Sleep, PlanSleep,
                (OpTraits{.header = "aclnnop/aclnn_sleep.h", .dtypes = kSleepDtypes, .example = "1000"}),
                (int64_t, cycles))
