// --driver=matmul: aclnnMatmul, aclnnMm, aclnnBatchMatMul and aclnnAddmm against
// a float64 reference (--mode=C) or against the same matmul primitive created
// directly with oneDNN in this process (--mode=P); op "quantmatmul" (--dt=i8) is
// aclnnQuantMatmulV3's INT8 x INT8 product with one f32 scale per column into
// bf16, against oneDNN's s8 x s8 -> bf16 matmul with the same output scales.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <unordered_map>

#include "driver.h"
#include "oneapi/dnnl/dnnl.hpp"

namespace canopy_bench {
namespace {

constexpr int8_t kAllowFp32DownPrecision = 1, kUseHf32 = 3;  // cubeMathType: HF32 on the NPU
constexpr double kFlopsPerMultiplyAdd = 2;
constexpr double kF32UnitRoundoff = 0x1p-24;  // accumulation happens in f32 for every dtype
constexpr double kOperandRange = 1.0;         // operands are uniform in [-1, 1)
constexpr double kInt8Range = 127.0;          // int8 operands: the whole symmetric range

struct MatmulProblem {
  int64_t batch = 0;  // 0: no batch dimension
  int64_t m = 0, k = 0, n = 0;
  int64_t Batches() const { return std::max<int64_t>(batch, 1); }
};

bool ParseProblem(const std::string& text, MatmulProblem& problem) {
  std::vector<int64_t> dims;
  if (!ParseDims(text, dims)) return false;
  if (dims.size() == 3) {
    problem = {0, dims[0], dims[1], dims[2]};
    return true;
  }
  if (dims.size() == 4) {
    problem = {dims[0], dims[1], dims[2], dims[3]};
    return true;
  }
  return false;
}

// The shapes an op is called with (empty bias: none).
struct OperandShapes {
  std::vector<int64_t> a, b, out, bias;
};

bool ShapesFor(const std::string& op, const std::string& bias_mode, const MatmulProblem& p, OperandShapes& shapes,
               std::string& why) {
  const bool batched = p.batch > 0;
  if (op == "matmul") {
    shapes.a = batched ? std::vector<int64_t>{p.batch, p.m, p.k} : std::vector<int64_t>{p.m, p.k};
    shapes.b = batched ? std::vector<int64_t>{p.batch, p.k, p.n} : std::vector<int64_t>{p.k, p.n};
    shapes.out = batched ? std::vector<int64_t>{p.batch, p.m, p.n} : std::vector<int64_t>{p.m, p.n};
  } else if (op == "bmm") {
    shapes.a = {p.Batches(), p.m, p.k};
    shapes.b = {p.Batches(), p.k, p.n};
    shapes.out = {p.Batches(), p.m, p.n};
  } else if (op == "mm" || op == "addmm" || op == "quantmatmul") {
    if (p.Batches() != 1) {
      why = op + " is 2-D here: give MxKxN";
      return false;
    }
    shapes.a = {p.m, p.k};
    shapes.b = {p.k, p.n};
    shapes.out = {p.m, p.n};
    if (op == "addmm") shapes.bias = bias_mode == "mn" ? std::vector<int64_t>{p.m, p.n} : std::vector<int64_t>{p.n};
    if (op == "quantmatmul") shapes.bias = {p.n};  // the per-column scale
  } else {
    why = "unknown op '" + op + "' (matmul, mm, bmm, addmm, quantmatmul)";
    return false;
  }
  return true;
}

// ---- Canopy, through the public API -------------------------------------------------

struct CanopyOperands {
  DeviceBuffer a, b, out, bias;
  std::unique_ptr<Tensor> a_tensor, b_tensor, out_tensor, bias_tensor;
  aclScalar* alpha = nullptr;
  aclScalar* beta = nullptr;
  ~CanopyOperands() {
    if (alpha != nullptr) aclDestroyScalar(alpha);
    if (beta != nullptr) aclDestroyScalar(beta);
  }
};

// The op from the registry: Matmul, Mm, BatchMatMul take (self, mat2, out,
// cubeMathType), Addmm (self, mat1, mat2, beta, alpha, out, cubeMathType).
std::unique_ptr<CanopyCall> CallFor(const std::string& op, CanopyOperands& d, int8_t cube, std::string& error) {
  aclTensor* a = d.a_tensor->get();
  aclTensor* b = d.b_tensor->get();
  aclTensor* out = d.out_tensor->get();
  if (op == "addmm") return RegisteredCall(op, {d.bias_tensor->get(), a, b, out}, {d.beta, d.alpha}, {cube}, error);
  // (x1, x2, scale, offset, bias, transposeX1, transposeX2, out)
  if (op == "quantmatmul") {
    return RegisteredCall("QuantMatmulV3", {a, b, d.bias_tensor->get(), nullptr, nullptr, out}, {}, {0, 0}, error);
  }
  return RegisteredCall(op, {a, b, out}, {}, {cube}, error);
}

// ---- standalone oneDNN: the same matmul, created directly ---------------------------------

dnnl::memory::data_type DnnlType(const DtypeInfo& dtype) {
  switch (dtype.acl) {
    case ACL_BF16:
      return dnnl::memory::data_type::bf16;
    case ACL_FLOAT16:
      return dnnl::memory::data_type::f16;
    case ACL_INT8:
      return dnnl::memory::data_type::s8;
    default:
      return dnnl::memory::data_type::f32;
  }
}

class OneDnnMatmul {
 public:
  // False (with `why`) when this oneDNN has no implementation for the dtype here.
  // `column_scales`: an int8 product into bf16 with these output scales (the
  // shapes' bias entry is then their shape, not a bias).
  bool Create(const DtypeInfo& dtype, const OperandShapes& shapes, std::string& why,
              const std::vector<float>* column_scales = nullptr) {
    try {
      using tag = dnnl::memory::format_tag;
      const auto dt = DnnlType(dtype);
      const auto plain = shapes.a.size() == 3 ? tag::abc : tag::ab;
      const auto out_dt = column_scales != nullptr ? dnnl::memory::data_type::bf16 : dt;
      const dnnl::memory::desc a_md(shapes.a, dt, plain), b_md(shapes.b, dt, plain), out_md(shapes.out, out_dt, plain);
      dnnl::primitive_attr attr;
      dnnl::memory::desc bias_md;
      dnnl::memory::desc binary_md;
      if (column_scales != nullptr) {
        attr.set_output_scales(1 << 1, *column_scales);
      } else if (shapes.bias.size() == 1) {
        bias_md = dnnl::memory::desc({1, shapes.bias[0]}, dt, tag::ab);  // oneDNN's own bias argument
      } else if (shapes.bias.size() == 2) {
        binary_md = dnnl::memory::desc(shapes.bias, dt, tag::ab);  // a full [M, N] addend: binary post-op
        dnnl::post_ops post_ops;
        post_ops.append_binary(dnnl::algorithm::binary_add, binary_md);
        attr.set_post_ops(post_ops);
      }
      const dnnl::matmul::desc operation = shapes.bias.size() == 1 ? dnnl::matmul::desc(a_md, b_md, bias_md, out_md)
                                                                   : dnnl::matmul::desc(a_md, b_md, out_md);
      const dnnl::matmul::primitive_desc primitive_desc(operation, attr, engine_);
      implementation_ = primitive_desc.impl_info_str();
      primitive_ = dnnl::matmul(primitive_desc);
      arguments_ = {{DNNL_ARG_SRC, dnnl::memory(a_md, engine_)},
                    {DNNL_ARG_WEIGHTS, dnnl::memory(b_md, engine_)},
                    {DNNL_ARG_DST, dnnl::memory(out_md, engine_)}};
      if (column_scales == nullptr && shapes.bias.size() == 1)
        arguments_[DNNL_ARG_BIAS] = dnnl::memory(bias_md, engine_);
      if (shapes.bias.size() == 2) {
        arguments_[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = dnnl::memory(binary_md, engine_);
      }
      return true;
    } catch (const dnnl::error& e) {
      why = e.what();
      return false;
    }
  }

  // The same bytes Canopy gets.
  void Fill(int argument, const HostTensor& host) {
    dnnl::memory& memory = arguments_.at(argument);
    std::memcpy(memory.get_data_handle(), host.bytes.data(), host.bytes.size());
  }

  double RunOnce() {
    const auto start = Clock::now();
    primitive_.execute(stream_, arguments_);
    stream_.wait();
    return MicrosecondsBetween(start, Clock::now());
  }

  const std::string& implementation() const { return implementation_; }

 private:
  dnnl::engine engine_{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream_{engine_};
  dnnl::matmul primitive_;
  std::unordered_map<int, dnnl::memory> arguments_;
  std::string implementation_;
};

// ---- float64 reference --------------------------------------------------------------------

struct Verdict {
  bool passed = true;
  double worst = 0;         // max |error| / bound
  double worst_scaled = 0;  // max |error| / sum |a||b|: the mode's accuracy
  double hf32_scaled = 0;   // the same for HF32 operands (11 bits) summed exactly, where asked
  std::string first_failure;
};

// x rounded to HF32: f32's range, 11 significant bits (nearest even).
double ToHf32(double x) {
  int exponent = 0;
  const double mantissa = std::frexp(x, &exponent);
  return std::ldexp(std::nearbyint(std::ldexp(mantissa, 11)), exponent - 11);
}

// Errors are bounded by the output dtype's rounding plus f32 accumulation over K
// (the classic gamma_K * sum |a||b| bound).
// With `hf32`, also the error HF32 operands would give (the NPU's
// ALLOW_FP32_DOWN_PRECISION and USE_HF32), for the same scaled measure.
// With `column_scale` (quantmatmul) the bias entry scales each column instead.
Verdict CheckAgainstReference(const MatmulProblem& p, const OperandShapes& shapes, const HostTensor& a,
                              const HostTensor& b, const HostTensor* bias, const DtypeInfo& out_dtype,
                              const std::vector<unsigned char>& got, bool hf32, bool column_scale = false) {
  const int64_t batches = p.Batches();
  const double u_out = UnitRoundoff(out_dtype);
  const double accumulation = static_cast<double>(p.k) * kF32UnitRoundoff;
  const double floor = u_out * SmallestNormal(out_dtype);
  Verdict verdict;
  const auto rows = static_cast<size_t>(batches * p.m);
  std::vector<double> worst_per_row(rows, 0), scaled_per_row(rows, 0), hf32_per_row(rows, 0);
  std::vector<int64_t> failing_column(rows, -1);
#pragma omp parallel
  {
    std::vector<double> sum(p.n), magnitude(p.n), hf32_sum(hf32 ? p.n : 0);
#pragma omp for schedule(static)
    for (int64_t row = 0; row < batches * p.m; ++row) {
      const int64_t batch = row / p.m, i = row % p.m;
      std::fill(sum.begin(), sum.end(), 0.0);
      std::fill(magnitude.begin(), magnitude.end(), 0.0);
      std::fill(hf32_sum.begin(), hf32_sum.end(), 0.0);
      const double* a_row = a.values.data() + (batch * p.m + i) * p.k;
      for (int64_t kk = 0; kk < p.k; ++kk) {
        const double x = a_row[kk];
        const double* b_row = b.values.data() + (batch * p.k + kk) * p.n;
        for (int64_t j = 0; j < p.n; ++j) {
          sum[j] += x * b_row[j];
          magnitude[j] += std::fabs(x * b_row[j]);
        }
        if (hf32) {
          const double x_hf32 = ToHf32(x);
          for (int64_t j = 0; j < p.n; ++j) hf32_sum[j] += x_hf32 * ToHf32(b_row[j]);
        }
      }
      for (int64_t j = 0; j < p.n; ++j) {
        double expected = sum[j];
        if (column_scale) {
          expected *= bias->values[j];
          magnitude[j] *= std::fabs(bias->values[j]);
        } else if (bias != nullptr) {
          expected += bias->values[shapes.bias.size() == 2 ? i * p.n + j : j];
        }
        const double value = LoadDouble(out_dtype, got.data(), static_cast<size_t>(row * p.n + j));
        const double bound = 2 * u_out * std::fabs(expected) + accumulation * magnitude[j] + floor;
        const double ratio = std::isfinite(value) ? std::fabs(value - expected) / bound : INFINITY;
        if (ratio > worst_per_row[row]) worst_per_row[row] = ratio;
        if (magnitude[j] > 0) {
          scaled_per_row[row] = std::max(scaled_per_row[row], std::fabs(value - expected) / magnitude[j]);
          if (hf32) hf32_per_row[row] = std::max(hf32_per_row[row], std::fabs(hf32_sum[j] - sum[j]) / magnitude[j]);
        }
        if (!(ratio <= 1) && failing_column[row] < 0) failing_column[row] = j;
      }
    }
  }
  for (int64_t row = 0; row < batches * p.m; ++row) {
    verdict.worst = std::max(verdict.worst, worst_per_row[row]);
    verdict.worst_scaled = std::max(verdict.worst_scaled, scaled_per_row[row]);
    verdict.hf32_scaled = std::max(verdict.hf32_scaled, hf32_per_row[row]);
    if (failing_column[row] >= 0 && verdict.passed) {
      verdict.passed = false;
      const int64_t j = failing_column[row];
      char text[160];
      std::snprintf(text, sizeof(text), "first mismatch at batch %lld row %lld col %lld: got %g",
                    static_cast<long long>(row / p.m), static_cast<long long>(row % p.m), static_cast<long long>(j),
                    LoadDouble(out_dtype, got.data(), static_cast<size_t>(row * p.n + j)));
      verdict.first_failure = text;
    }
  }
  return verdict;
}

// ---- one problem -----------------------------------------------------------------------------

void RunOne(const Settings& settings, const std::string& op, const std::string& dtype_name,
            const std::string& problem_text, const MatmulProblem& p, Session& session) {
  Result result;
  result.driver = "matmul";
  result.op = op;
  const int8_t cube = settings.cube_math_type;
  const std::string cube_text = cube != 0 ? " cube=" + std::to_string(cube) : "";
  result.dtype = dtype_name + (cube != 0 ? ":cube" + std::to_string(cube) : "");
  result.problem = problem_text;
  const uint64_t seed = settings.seed != Settings::kFreshSeed ? settings.seed : FreshSeed();
  const std::string reproducer = Reproducer(settings, op, "--dt=" + dtype_name, seed, problem_text);
  const std::string label = "[matmul] op=" + op + " dt=" + dtype_name + cube_text + " " + problem_text;

  OperandShapes shapes;
  std::string why;
  const DtypeInfo* dtype = FindDtype(dtype_name);
  const bool quant = op == "quantmatmul";
  if (quant && (dtype == nullptr || dtype->acl != ACL_INT8)) {
    why = "quantmatmul multiplies i8";
  } else if (!quant &&
             (dtype == nullptr || !(dtype->acl == ACL_FLOAT || dtype->acl == ACL_FLOAT16 || dtype->acl == ACL_BF16))) {
    why = "dtype must be f32, f16 or bf16";
  }
  if (why.empty()) ShapesFor(op, settings.bias, p, shapes, why);
  if (!why.empty()) {
    std::printf("%s: SKIPPED (%s)\n", label.c_str(), why.c_str());
    result.status = "skip";
    result.note = why;
    session.Record(result);
    return;
  }

  Random random(seed);
  // int8 operands take the whole range; their column scales keep the bf16 result near 1.
  const double range = quant ? kInt8Range : kOperandRange;
  const HostTensor a = RandomTensor(*dtype, shapes.a, random, -range, range);
  const HostTensor b = RandomTensor(*dtype, shapes.b, random, -range, range);
  const DtypeInfo& out_dtype = quant ? DtypeOf("bf16") : *dtype;
  HostTensor bias;
  if (quant) {
    const double scale = 1.0 / (kInt8Range * kInt8Range * std::sqrt(static_cast<double>(p.k)));
    bias = RandomTensor(DtypeOf("f32"), shapes.bias, random, 0.5 * scale, 2 * scale);
  } else if (!shapes.bias.empty()) {
    bias = RandomTensor(*dtype, shapes.bias, random, -kOperandRange, kOperandRange);
  }

  CanopyOperands d;
  d.a.Upload(a);
  d.b.Upload(b);
  const int64_t out_elements = p.Batches() * p.m * p.n;
  d.out.Reserve(static_cast<size_t>(out_elements) * out_dtype.size);
  d.out.Poison();
  d.a_tensor = std::make_unique<Tensor>(shapes.a, dtype->acl, d.a.get());
  d.b_tensor = std::make_unique<Tensor>(shapes.b, dtype->acl, d.b.get());
  d.out_tensor = std::make_unique<Tensor>(shapes.out, out_dtype.acl, d.out.get());
  if (quant) {
    d.bias.Upload(bias);
    d.bias_tensor = std::make_unique<Tensor>(shapes.bias, ACL_FLOAT, d.bias.get());
  } else if (!shapes.bias.empty()) {
    d.bias.Upload(bias);
    d.bias_tensor = std::make_unique<Tensor>(shapes.bias, dtype->acl, d.bias.get());
    float one = 1.0f;
    d.alpha = aclCreateScalar(&one, ACL_FLOAT);
    d.beta = aclCreateScalar(&one, ACL_FLOAT);
  }
  std::string lookup_error;
  const std::unique_ptr<CanopyCall> registered = CallFor(op, d, cube, lookup_error);
  if (registered == nullptr) {
    std::printf("%s: ERROR %s\n", label.c_str(), lookup_error.c_str());
    result.status = "error";
    result.note = lookup_error;
    session.Record(result);
    return;
  }
  const CanopyCall& call = *registered;
  DeviceBuffer workspace;

  result.flops = kFlopsPerMultiplyAdd * static_cast<double>(p.Batches() * p.m * p.n * p.k);
  result.bytes = static_cast<double>(a.bytes.size() + b.bytes.size() + bias.bytes.size() +
                                     static_cast<size_t>(out_elements) * out_dtype.size);
  result.peak_gflops = session.machine().ComputeCeiling(quant ? "bf16" : dtype_name);
  result.peak_gbps = session.machine().BandwidthGbps();

  std::string message;
  if (aclnnStatus s = RunCanopyOnce(call, workspace, message, &result.path); s != 0) {
    std::printf("%s: ERROR status %d: %s\n  reproducer: %s\n", label.c_str(), s, message.c_str(), reproducer.c_str());
    result.status = "error";
    result.note = message;
    session.Record(result);
    return;
  }

  if (settings.mode == Mode::kCorrectness) {
    std::vector<unsigned char> got(static_cast<size_t>(out_elements) * out_dtype.size);
    d.out.Download(got.data(), got.size());
    // On the engine's team, so that a later performance problem in this process
    // still meets a single OpenMP team (RunOnEngine).
    Verdict verdict;
    RunOnEngine([&] {
      const bool hf32 = dtype->acl == ACL_FLOAT && (cube == kAllowFp32DownPrecision || cube == kUseHf32);
      verdict =
          CheckAgainstReference(p, shapes, a, b, shapes.bias.empty() ? nullptr : &bias, out_dtype, got, hf32, quant);
      return 0.0;
    });
    char note[128];
    const int used = std::snprintf(note, sizeof(note), "max error %.3g of bound, %.3g of sum |a||b|", verdict.worst,
                                   verdict.worst_scaled);
    if (verdict.hf32_scaled > 0 && used > 0 && static_cast<size_t>(used) < sizeof(note)) {
      std::snprintf(note + used, sizeof(note) - static_cast<size_t>(used), " (HF32 operands: %.3g)",
                    verdict.hf32_scaled);
    }
    result.note = note;
    if (verdict.passed) {
      std::printf("%s: PASSED (%s)\n", label.c_str(), note);
    } else {
      result.status = "fail";
      result.note += "; " + verdict.first_failure;
      std::printf("%s: FAILED (%s; %s)\n  reproducer: %s\n", label.c_str(), note, verdict.first_failure.c_str(),
                  reproducer.c_str());
    }
    session.Record(result);
    return;
  }

  // Performance: the reference is oneDNN with the same dtype where it has one here;
  // where it has none (fp16 without fp16 matrix units) it is oneDNN in f32.
  OneDnnMatmul reference;
  std::function<double()> reference_once;
  if (settings.reference) {
    std::string reason;
    const std::vector<float> column_scales(bias.values.begin(), bias.values.end());
    bool created = reference.Create(*dtype, shapes, reason, quant ? &column_scales : nullptr);
    result.reference_name = "onednn:" + dtype_name;
    const DtypeInfo& f32 = DtypeOf("f32");
    HostTensor a_ref = a, b_ref = b, bias_ref = bias;
    if (!created && !quant && dtype->acl != ACL_FLOAT) {
      created = reference.Create(f32, shapes, reason);
      result.reference_name = "onednn:f32(" + dtype_name + " n/a)";
      for (HostTensor* t : {&a_ref, &b_ref, &bias_ref}) {
        if (t->values.empty()) continue;
        t->bytes.resize(t->values.size() * f32.size);
        for (size_t i = 0; i < t->values.size(); ++i) StoreDouble(f32, t->bytes.data(), i, t->values[i]);
      }
    }
    if (created) {
      reference.Fill(DNNL_ARG_SRC, a_ref);
      reference.Fill(DNNL_ARG_WEIGHTS, b_ref);
      if (shapes.bias.size() == 1 && !quant) reference.Fill(DNNL_ARG_BIAS, bias_ref);
      if (shapes.bias.size() == 2) reference.Fill(DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1, bias_ref);
      reference_once = [&] { return RunOnEngine([&] { return reference.RunOnce(); }); };
      result.reference_name += " " + reference.implementation();
    } else {
      result.reference_name = "none: " + reason;
    }
  }
  const PairTiming timing = MeasurePair(settings, call, workspace, reference_once);
  SetTiming(result, timing);
  std::printf("%s: canopy %.3f ms %.1f GFLOP/s (%.1f%% of roofline, %s-bound)", label.c_str(), result.time_us * 1e-3,
              result.Gflops(), result.PercentOfRoofline(), result.MemoryBound() ? "memory" : "compute");
  if (result.reference_us > 0) {
    std::printf(" | %s %.3f ms %.1f GFLOP/s | canopy/ref %.3f (paired %.3f)", result.reference_name.c_str(),
                result.reference_us * 1e-3, result.ReferenceGflops(), result.Ratio(), result.paired_ratio);
  }
  std::printf("\n  path: %s\n", result.path.c_str());
  session.Record(result);
}

}  // namespace

void RunMatmulDriver(const Settings& settings, const std::string& problem_text, Session& session) {
  MatmulProblem problem;
  if (!ParseProblem(problem_text, problem)) {
    Die("matmul problem '%s' is not MxKxN or BxMxKxN", problem_text.c_str());
  }
  for (const std::string& op : OpsOf(settings, *FindDriver("matmul"))) {
    for (const std::string& dtype : settings.dtypes) RunOne(settings, op, dtype, problem_text, problem, session);
  }
}

}  // namespace canopy_bench
