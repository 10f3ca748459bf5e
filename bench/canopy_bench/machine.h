// The machine's ceilings, measured at start: peak multiply-add throughput of all
// OpenMP threads (AVX-512 where the CPU has it, else AVX2) and memory bandwidth of
// STREAM-like copy and triad loops over buffers far larger than the last-level cache.
#pragma once

#include <string>

namespace canopy_bench {

struct MachinePeak {
  int threads = 1;
  std::string isa = "scalar";  // the vector ISA of the FMA loop
  double f32_gflops = 0;       // FMA throughput
  double bf16_gflops = 0;      // bf16 dot-product throughput (vdpbf16ps); 0 where absent
  double copy_gbps = 0;        // b = a: bytes read + bytes written
  double triad_gbps = 0;       // a = b + s * c
  bool measured = false;

  double BandwidthGbps() const { return copy_gbps > triad_gbps ? copy_gbps : triad_gbps; }
  // The compute ceiling of a dtype: bf16 has its own where the CPU has dot-product
  // instructions for it; everything else computes in f32.
  double ComputeCeiling(const std::string& dtype) const {
    return dtype == "bf16" && bf16_gflops > 0 ? bf16_gflops : f32_gflops;
  }
};

MachinePeak MeasureMachine();
void PrintMachine(const MachinePeak& machine);

}  // namespace canopy_bench
