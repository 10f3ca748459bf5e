// --driver=conv: aclnnConvolution, aclnnAvgPool2d and aclnnMaxPool over NCHW
// tensors, against a float64 reference (--mode=C) or against the same oneDNN
// primitive created directly in this process (--mode=P).
//
// The performance reference is what a oneDNN client holding NCHW data does
// best: the convolution primitive with layouts of its choosing
// (format_tag::any, as Canopy makes it), its weights reordered once before the
// timing, and per call the source reordered in, the primitive run and the
// destination reordered out. Pooling runs on the NCHW tensors directly, as in
// Canopy.
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

constexpr int8_t kKeepDtype = 0;
constexpr double kFlopsPerMultiplyAdd = 2;
constexpr double kF32UnitRoundoff = 0x1p-24;

// "1x64x56x56:64x3x3:s1:p1:g1" (convolution: input, then out channels and
// kernel) or "1x64x112x112:3x3:s2:p1" (pooling: input, then kernel); options
// s (stride), p (padding, both sides), d (dilation, convolution), g (groups).
struct ConvProblem {
  int64_t n = 0, c = 0, h = 0, w = 0;
  int64_t oc = 0, kh = 0, kw = 0;
  int64_t stride = 1, pad = 0, dilation = 1, groups = 1;
  int64_t oh = 0, ow = 0;
};

bool ParseProblem(const std::string& text, bool pooling, ConvProblem& p, std::string& why) {
  std::vector<std::string> fields;
  size_t position = 0;
  while (position <= text.size()) {
    const size_t colon = std::min(text.find(':', position), text.size());
    fields.push_back(text.substr(position, colon - position));
    position = colon + 1;
  }
  std::vector<int64_t> input, kernel;
  if (fields.size() < 2 || !ParseDims(fields[0], input) || input.size() != 4 || !ParseDims(fields[1], kernel) ||
      kernel.size() != (pooling ? 2u : 3u)) {
    why = pooling ? "a pooling problem is NxCxHxW:KHxKW[:sS][:pP]"
                  : "a convolution problem is NxCxHxW:OCxKHxKW[:sS][:pP][:dD][:gG]";
    return false;
  }
  p.n = input[0], p.c = input[1], p.h = input[2], p.w = input[3];
  if (pooling) {
    p.oc = p.c, p.kh = kernel[0], p.kw = kernel[1];
  } else {
    p.oc = kernel[0], p.kh = kernel[1], p.kw = kernel[2];
  }
  p.stride = pooling ? p.kh : 1;
  for (size_t i = 2; i < fields.size(); ++i) {
    const std::string& f = fields[i];
    if (f.size() < 2) continue;
    const int64_t value = std::stoll(f.substr(1));
    switch (f[0]) {
      case 's':
        p.stride = value;
        break;
      case 'p':
        p.pad = value;
        break;
      case 'd':
        p.dilation = value;
        break;
      case 'g':
        p.groups = value;
        break;
      default:
        why = "unknown option '" + f + "'";
        return false;
    }
  }
  const int64_t eh = p.dilation * (p.kh - 1) + 1, ew = p.dilation * (p.kw - 1) + 1;
  p.oh = (p.h + 2 * p.pad - eh) / p.stride + 1;
  p.ow = (p.w + 2 * p.pad - ew) / p.stride + 1;
  if (p.oh < 1 || p.ow < 1 || p.c % p.groups != 0 || p.oc % p.groups != 0) {
    why = "no output (or groups do not divide the channels)";
    return false;
  }
  return true;
}

std::vector<int64_t> InputShape(const ConvProblem& p) { return {p.n, p.c, p.h, p.w}; }
std::vector<int64_t> WeightShape(const ConvProblem& p) { return {p.oc, p.c / p.groups, p.kh, p.kw}; }
std::vector<int64_t> OutputShape(const ConvProblem& p) { return {p.n, p.oc, p.oh, p.ow}; }

// ---- float64 reference ------------------------------------------------------------------

// The definition: convolution with groups, stride, padding, dilation and bias;
// max pooling (padding never wins); average pooling counting the padding.
void Reference(const std::string& op, const ConvProblem& p, const HostTensor& x, const HostTensor& w,
               const HostTensor& b, std::vector<double>& out, std::vector<double>& magnitude) {
  const int64_t outputs = p.n * p.oc * p.oh * p.ow;
  out.assign(static_cast<size_t>(outputs), 0);
  magnitude.assign(static_cast<size_t>(outputs), 0);
  const int64_t in_per_group = p.c / p.groups, out_per_group = p.oc / p.groups;
#pragma omp parallel for schedule(static)
  for (int64_t index = 0; index < outputs; ++index) {
    const int64_t ox = index % p.ow, oy = index / p.ow % p.oh, oc = index / (p.ow * p.oh) % p.oc,
                  n = index / (p.ow * p.oh * p.oc);
    double sum = op == "conv" ? b.values[static_cast<size_t>(oc)] : 0, mag = std::fabs(sum);
    double best = -INFINITY;
    const int64_t first = op == "conv" ? oc / out_per_group * in_per_group : oc;
    const int64_t count = op == "conv" ? in_per_group : 1;
    for (int64_t ic = first; ic < first + count; ++ic) {
      for (int64_t ky = 0; ky < p.kh; ++ky) {
        for (int64_t kx = 0; kx < p.kw; ++kx) {
          const int64_t iy = oy * p.stride - p.pad + ky * p.dilation, ix = ox * p.stride - p.pad + kx * p.dilation;
          if (iy < 0 || iy >= p.h || ix < 0 || ix >= p.w) continue;
          const double v = x.values[static_cast<size_t>(((n * p.c + ic) * p.h + iy) * p.w + ix)];
          if (op == "conv") {
            const double wv = w.values[static_cast<size_t>(((oc * in_per_group + ic - first) * p.kh + ky) * p.kw + kx)];
            sum += v * wv;
            mag += std::fabs(v * wv);
          } else {
            sum += v;
            mag += std::fabs(v);
            best = std::max(best, v);
          }
        }
      }
    }
    if (op == "maxpool") sum = best, mag = std::fabs(best);
    if (op == "avgpool") sum /= static_cast<double>(p.kh * p.kw), mag /= static_cast<double>(p.kh * p.kw);
    out[static_cast<size_t>(index)] = sum;
    magnitude[static_cast<size_t>(index)] = mag;
  }
}

// ---- standalone oneDNN --------------------------------------------------------------------

dnnl::memory::data_type DnnlType(const DtypeInfo& dtype) {
  switch (dtype.acl) {
    case ACL_BF16:
      return dnnl::memory::data_type::bf16;
    case ACL_FLOAT16:
      return dnnl::memory::data_type::f16;
    default:
      return dnnl::memory::data_type::f32;
  }
}

class OneDnnReference {
 public:
  // False (with `why`) when this oneDNN has no implementation of the dtype here
  // (a reference implementation counts as none).
  bool Create(const std::string& op, const DtypeInfo& dtype, const ConvProblem& p, std::string& why) {
    try {
      using tag = dnnl::memory::format_tag;
      const auto dt = DnnlType(dtype);
      const dnnl::memory::dims src_dims = InputShape(p), dst_dims = OutputShape(p);
      const dnnl::memory::dims strides = {p.stride, p.stride}, pads = {p.pad, p.pad};
      user_src_ = dnnl::memory({src_dims, dt, tag::nchw}, engine_);
      user_dst_ = dnnl::memory({dst_dims, dt, tag::nchw}, engine_);
      if (op == "conv") {
        dnnl::memory::dims w_dims = {p.oc, p.c / p.groups, p.kh, p.kw};
        tag w_tag = tag::oihw;
        if (p.groups > 1) w_dims = {p.groups, p.oc / p.groups, p.c / p.groups, p.kh, p.kw}, w_tag = tag::goihw;
        user_weights_ = dnnl::memory({w_dims, dt, w_tag}, engine_);
        bias_ = dnnl::memory({{p.oc}, dnnl::memory::data_type::f32, tag::a}, engine_);
        const auto any = [dt](const dnnl::memory::dims& dims) { return dnnl::memory::desc(dims, dt, tag::any); };
        const dnnl::memory::dims dilates = {p.dilation - 1, p.dilation - 1};
        const dnnl::convolution_forward::desc desc(dnnl::prop_kind::forward_inference,
                                                   dnnl::algorithm::convolution_direct, any(src_dims), any(w_dims),
                                                   bias_.get_desc(), any(dst_dims), strides, dilates, pads, pads);
        const dnnl::convolution_forward::primitive_desc pd(desc, engine_);
        implementation_ = pd.impl_info_str();
        primitive_ = dnnl::convolution_forward(pd);
        src_ = pd.src_desc() == user_src_.get_desc() ? user_src_ : dnnl::memory(pd.src_desc(), engine_);
        dst_ = pd.dst_desc() == user_dst_.get_desc() ? user_dst_ : dnnl::memory(pd.dst_desc(), engine_);
        weights_ =
            pd.weights_desc() == user_weights_.get_desc() ? user_weights_ : dnnl::memory(pd.weights_desc(), engine_);
      } else {
        const dnnl::memory::dims kernel = {p.kh, p.kw};
        const auto algorithm =
            op == "maxpool" ? dnnl::algorithm::pooling_max : dnnl::algorithm::pooling_avg_include_padding;
        const dnnl::pooling_forward::desc desc(dnnl::prop_kind::forward_inference, algorithm, user_src_.get_desc(),
                                               user_dst_.get_desc(), strides, kernel, pads, pads);
        const dnnl::pooling_forward::primitive_desc pd(desc, engine_);
        implementation_ = pd.impl_info_str();
        primitive_ = dnnl::pooling_forward(pd);
        src_ = user_src_;
        dst_ = user_dst_;
      }
      if (implementation_.find("ref") != std::string::npos) {
        why = "only oneDNN's reference implementation (" + implementation_ + ")";
        return false;
      }
      return true;
    } catch (const dnnl::error& e) {
      why = e.what();
      return false;
    }
  }

  // The same bytes Canopy gets; the weights are reordered here, once.
  void Fill(const HostTensor& x, const HostTensor* w, const std::vector<float>& bias) {
    std::memcpy(user_src_.get_data_handle(), x.bytes.data(), x.bytes.size());
    if (w == nullptr) return;
    std::memcpy(user_weights_.get_data_handle(), w->bytes.data(), w->bytes.size());
    std::memcpy(bias_.get_data_handle(), bias.data(), bias.size() * sizeof(float));
    if (weights_ != user_weights_) {
      dnnl::reorder(user_weights_, weights_).execute(stream_, user_weights_, weights_);
      stream_.wait();
    }
  }

  double RunOnce() {
    const auto start = Clock::now();
    if (src_ != user_src_) dnnl::reorder(user_src_, src_).execute(stream_, user_src_, src_);
    std::unordered_map<int, dnnl::memory> arguments = {{DNNL_ARG_SRC, src_}, {DNNL_ARG_DST, dst_}};
    if (weights_) arguments[DNNL_ARG_WEIGHTS] = weights_, arguments[DNNL_ARG_BIAS] = bias_;
    primitive_.execute(stream_, arguments);
    if (dst_ != user_dst_) dnnl::reorder(dst_, user_dst_).execute(stream_, dst_, user_dst_);
    stream_.wait();
    return MicrosecondsBetween(start, Clock::now());
  }

  const std::string& implementation() const { return implementation_; }

 private:
  dnnl::engine engine_{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream_{engine_};
  dnnl::primitive primitive_;
  dnnl::memory user_src_, user_weights_, user_dst_, src_, weights_, dst_, bias_;
  std::string implementation_;
};

// ---- one problem -----------------------------------------------------------------------------

void Report(Result& result, Session& session, const std::string& label, const char* status, const std::string& why) {
  std::printf("%s: %s (%s)\n", label.c_str(), status, why.c_str());
  result.status = std::string(status) == "SKIPPED" ? "skip" : "error";
  result.note = why;
  session.Record(result);
}

void RunOne(const Settings& settings, const std::string& op, const std::string& dtype_name,
            const std::string& problem_text, Session& session) {
  Result result;
  result.driver = "conv";
  result.op = op;
  // cubeMathType (--cube) applies to the convolution.
  const int8_t cube = op == "conv" ? settings.cube_math_type : kKeepDtype;
  const std::string cube_text = cube != 0 ? " cube=" + std::to_string(cube) : "";
  result.dtype = dtype_name + (cube != 0 ? ":cube" + std::to_string(cube) : "");
  result.problem = problem_text;
  const uint64_t seed = settings.seed != Settings::kFreshSeed ? settings.seed : FreshSeed();
  const std::string reproducer = Reproducer(settings, op, "--dt=" + dtype_name, seed, problem_text);
  const std::string label = "[conv] op=" + op + " dt=" + dtype_name + cube_text + " " + problem_text;
  const DtypeInfo* dtype = FindDtype(dtype_name);
  ConvProblem p;
  std::string why;
  if (op != "conv" && op != "avgpool" && op != "maxpool") why = "unknown op '" + op + "' (conv, avgpool, maxpool)";
  if (why.empty() && (dtype == nullptr || !(dtype->acl == ACL_FLOAT || dtype->acl == ACL_FLOAT16 ||
                                            (dtype->acl == ACL_BF16 && op != "maxpool")))) {
    why = op == "maxpool" ? "MaxPool takes f32 or f16" : "dtype must be f32, f16 or bf16";
  }
  if (why.empty()) ParseProblem(problem_text, op != "conv", p, why);
  if (!why.empty()) return Report(result, session, label, "SKIPPED", why);

  const bool conv = op == "conv";
  Random random(seed);
  const HostTensor x = RandomTensor(*dtype, InputShape(p), random, -1, 1);
  HostTensor w, b;
  if (conv) {
    w = RandomTensor(*dtype, WeightShape(p), random, -1, 1);
    b = RandomTensor(*dtype, {p.oc}, random, -1, 1);
  }
  const std::vector<int64_t> out_shape = OutputShape(p);
  const int64_t out_elements = p.n * p.oc * p.oh * p.ow;
  DeviceBuffer x_device, w_device, b_device, out_device;
  x_device.Upload(x);
  out_device.Reserve(static_cast<size_t>(out_elements) * dtype->size);
  out_device.Poison();
  const Tensor x_tensor(InputShape(p), dtype->acl, x_device.get(), ACL_FORMAT_NCHW);
  const Tensor out_tensor(out_shape, dtype->acl, out_device.get(), ACL_FORMAT_NCHW);
  std::unique_ptr<Tensor> w_tensor, b_tensor;
  const std::vector<int64_t> stride = {p.stride, p.stride}, pad = {p.pad, p.pad}, dilation = {p.dilation, p.dilation},
                             zeros = {0, 0}, kernel = {p.kh, p.kw}, ones = {1, 1};
  aclIntArray* stride_array = aclCreateIntArray(stride.data(), 2);
  aclIntArray* pad_array = aclCreateIntArray(pad.data(), 2);
  aclIntArray* dilation_array = aclCreateIntArray(dilation.data(), 2);
  aclIntArray* zeros_array = aclCreateIntArray(zeros.data(), 2);
  aclIntArray* kernel_array = aclCreateIntArray(kernel.data(), 2);
  aclIntArray* ones_array = aclCreateIntArray(ones.data(), 2);
  std::string error;
  std::unique_ptr<CanopyCall> call;
  if (conv) {
    w_device.Upload(w);
    b_device.Upload(b);
    w_tensor = std::make_unique<Tensor>(WeightShape(p), dtype->acl, w_device.get(), ACL_FORMAT_NCHW);
    b_tensor = std::make_unique<Tensor>(std::vector<int64_t>{p.oc}, dtype->acl, b_device.get());
    // (input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups, output, cubeMathType)
    call = RegisteredCall("Convolution", {x_tensor.get(), w_tensor->get(), b_tensor->get(), out_tensor.get()}, {},
                          {0, p.groups, cube}, {stride_array, pad_array, dilation_array, zeros_array}, error);
  } else if (op == "avgpool") {
    // (self, kernelSize, strides, paddings, ceilMode, countIncludePad, divisorOverride, cubeMathType, out)
    call = RegisteredCall("AvgPool2d", {x_tensor.get(), out_tensor.get()}, {}, {0, 1, 0, kKeepDtype},
                          {kernel_array, stride_array, pad_array}, error);
  } else {
    // (self, kernelShape, strides, autoPad, pads, dilations, ceilMode, out)
    call = RegisteredCall("MaxPool", {x_tensor.get(), out_tensor.get()}, {}, {0, 0},
                          {kernel_array, stride_array, pad_array, ones_array}, error);
  }
  const auto destroy_arrays = [&] {
    for (aclIntArray* a : {stride_array, pad_array, dilation_array, zeros_array, kernel_array, ones_array}) {
      aclDestroyIntArray(a);
    }
  };
  if (call == nullptr) {
    destroy_arrays();
    return Report(result, session, label, "ERROR", error);
  }
  DeviceBuffer workspace;
  const int64_t taps = conv ? p.c / p.groups * p.kh * p.kw : p.kh * p.kw;
  result.flops = (conv ? kFlopsPerMultiplyAdd : 1.0) * static_cast<double>(out_elements * taps);
  result.bytes = static_cast<double>(x.bytes.size() + w.bytes.size() + b.bytes.size() +
                                     static_cast<size_t>(out_elements) * dtype->size);
  result.peak_gflops = session.machine().ComputeCeiling(dtype_name);
  result.peak_gbps = session.machine().BandwidthGbps();
  std::string message;
  if (aclnnStatus s = RunCanopyOnce(*call, workspace, message, &result.path); s != 0) {
    destroy_arrays();
    std::printf("  reproducer: %s\n", reproducer.c_str());
    return Report(result, session, label, "ERROR", "status " + std::to_string(s) + ": " + message);
  }

  if (settings.mode == Mode::kCorrectness) {
    std::vector<unsigned char> got(static_cast<size_t>(out_elements) * dtype->size);
    out_device.Download(got.data(), got.size());
    std::vector<double> want, magnitude;
    RunOnEngine([&] {
      Reference(op, p, x, w, b, want, magnitude);
      return 0.0;
    });
    // f32 accumulation over the taps, one rounding to the dtype.
    const double u = UnitRoundoff(*dtype), accumulation = 2.0 * static_cast<double>(taps + 1) * kF32UnitRoundoff;
    double worst = 0;
    int64_t first_bad = -1;
    for (int64_t i = 0; i < out_elements; ++i) {
      const double value = LoadDouble(*dtype, got.data(), static_cast<size_t>(i));
      const double bound =
          2 * u * std::fabs(want[static_cast<size_t>(i)]) + accumulation * magnitude[static_cast<size_t>(i)] + 1e-30;
      const double ratio = std::isfinite(value) ? std::fabs(value - want[static_cast<size_t>(i)]) / bound : INFINITY;
      worst = std::max(worst, ratio);
      if (!(ratio <= 1) && first_bad < 0) first_bad = i;
    }
    char note[96];
    std::snprintf(note, sizeof(note), "max error %.3g of bound", worst);
    result.note = note;
    if (first_bad >= 0) {
      result.status = "fail";
      std::printf("%s: FAILED (%s; first at %lld)\n  reproducer: %s\n", label.c_str(), note,
                  static_cast<long long>(first_bad), reproducer.c_str());
    } else {
      std::printf("%s: PASSED (%s)\n", label.c_str(), note);
    }
    session.Record(result);
    destroy_arrays();
    return;
  }

  // The reference: oneDNN in the same dtype where it has one here, else in f32
  // (fp16 without fp16 arithmetic), on the same values.
  OneDnnReference reference;
  std::function<double()> reference_once;
  if (settings.reference) {
    std::string reason;
    bool created = reference.Create(op, *dtype, p, reason);
    result.reference_name = "onednn:" + dtype_name;
    const DtypeInfo& f32 = DtypeOf("f32");
    HostTensor x_ref = x, w_ref = w;
    if (!created && dtype->acl != ACL_FLOAT) {
      created = reference.Create(op, f32, p, reason);
      result.reference_name = "onednn:f32(" + dtype_name + " n/a)";
      for (HostTensor* t : {&x_ref, &w_ref}) {
        t->bytes.resize(t->values.size() * f32.size);
        for (size_t i = 0; i < t->values.size(); ++i) StoreDouble(f32, t->bytes.data(), i, t->values[i]);
      }
    }
    if (created) {
      std::vector<float> bias(b.values.begin(), b.values.end());
      reference.Fill(x_ref, conv ? &w_ref : nullptr, bias);
      reference_once = [&] { return RunOnEngine([&] { return reference.RunOnce(); }); };
      result.reference_name += " " + reference.implementation();
    } else {
      result.reference_name = "none: " + reason;
    }
  }
  const PairTiming timing = MeasurePair(settings, *call, workspace, reference_once);
  SetTiming(result, timing);
  PrintTimingLine(label, result, false);
  session.Record(result);
  destroy_arrays();
}

}  // namespace

void RunConvDriver(const Settings& settings, const std::string& problem, Session& session) {
  for (const std::string& op : OpsOf(settings, *FindDriver("conv"))) {
    for (const std::string& dtype : settings.dtypes) RunOne(settings, op, dtype, problem, session);
  }
}

}  // namespace canopy_bench
