// Rasterizer through the public API against a float64 z-buffer written from the
// document's formulas: random meshes on screens of several sizes (1x1 up to
// 37x23), strided and transposed views of every tensor, dOptional given or
// null, degenerate and off-screen faces, no faces at all, the document's
// example, a face naming a vertex that is not there (a stream error), and the
// rejections with CANN's codes (161002 dtypes, 561002 what its tiling checks).
// Pixels whose centre lies within a hair of a face's edge, or whose two
// nearest faces are within a hair in depth, are left out of the comparison:
// there FLOAT arithmetic (CANN's too) may decide either way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "aclnnop/aclnn_rasterizer.h"
#include "op_test_support.h"

namespace canopy_test {
namespace {

constexpr double kMargin = 1e-3;  // barycentric or depth closer than this to a decision is not compared

struct Raster {
  std::vector<int32_t> findices;
  std::vector<double> barycentric;
  std::vector<bool> decided;  // far enough from every edge and depth tie to compare
};

struct Screen {
  double x, y, z;
};

Screen ToScreen(const double* p, int64_t width, int64_t height) {
  return {(p[0] / p[3] * 0.5 + 0.5) * static_cast<double>(width - 1) + 0.5,
          (0.5 + 0.5 * p[1] / p[3]) * static_cast<double>(height - 1) + 0.5, p[2] / p[3] * 0.49999 + 0.5};
}

// Barycentric coordinates (alpha, beta, gamma) of (px, py); false for a face of zero area.
bool Barycentric(const Screen& a, const Screen& b, const Screen& c, double px, double py, double out[3]) {
  const double area = (c.x - a.x) * (b.y - a.y) - (b.x - a.x) * (c.y - a.y);
  if (area == 0) return false;
  out[1] = ((c.x - a.x) * (py - a.y) - (px - a.x) * (c.y - a.y)) / area;
  out[2] = ((px - a.x) * (b.y - a.y) - (b.x - a.x) * (py - a.y)) / area;
  out[0] = 1 - out[1] - out[2];
  return true;
}

// Face k's vertices (vs) and their screen positions (s).
void FaceOnScreen(const std::vector<double>& v, const std::vector<int32_t>& f, int64_t k, int64_t width, int64_t height,
                  const double* vs[3], Screen s[3]) {
  for (int64_t j = 0; j < 3; ++j) {
    const int64_t vertex = f[static_cast<size_t>(3 * k + j)];
    const int64_t at = 4 * vertex;
    vs[j] = &v[static_cast<size_t>(at)];
    s[j] = ToScreen(vs[j], width, height);
  }
}

Raster Reference(const std::vector<double>& v, const std::vector<int32_t>& f, int64_t width, int64_t height) {
  const int64_t pixels = width * height, faces = static_cast<int64_t>(f.size()) / 3;
  Raster r{std::vector<int32_t>(static_cast<size_t>(pixels), 0),
           std::vector<double>(static_cast<size_t>(3 * pixels), 0.0),
           std::vector<bool>(static_cast<size_t>(pixels), true)};
  for (int64_t p = 0; p < pixels; ++p) {
    const int64_t row = p / width, col = p % width;
    const double px = static_cast<double>(col) + 0.5, py = static_cast<double>(row) + 0.5;
    double best = std::numeric_limits<double>::infinity(), second = best;
    int64_t nearest = -1;
    for (int64_t k = 0; k < faces; ++k) {
      const double* vs[3];
      Screen s[3];
      FaceOnScreen(v, f, k, width, height, vs, s);
      double bc[3];
      if (!Barycentric(s[0], s[1], s[2], px, py, bc)) continue;
      bool inside = true;
      for (double t : bc) {
        if (std::abs(t) < kMargin || std::abs(t - 1) < kMargin) r.decided[static_cast<size_t>(p)] = false;
        inside = inside && t >= 0 && t <= 1;
      }
      if (!inside) continue;
      const double depth = bc[0] * s[0].z + bc[1] * s[1].z + bc[2] * s[2].z;
      if (depth < best) {
        second = best;
        best = depth;
        nearest = k;
      } else {
        second = std::min(second, depth);
      }
    }
    if (second - best < kMargin) r.decided[static_cast<size_t>(p)] = false;
    if (nearest < 0) continue;
    r.findices[static_cast<size_t>(p)] = static_cast<int32_t>(nearest + 1);
    double bc[3];
    Screen s[3];
    const double* vs[3];
    FaceOnScreen(v, f, nearest, width, height, vs, s);
    Barycentric(s[0], s[1], s[2], px, py, bc);
    double sum = 0;
    for (int j = 0; j < 3; ++j) sum += bc[j] / vs[j][3];
    for (int j = 0; j < 3; ++j) r.barycentric[static_cast<size_t>(3 * p + j)] = bc[j] / vs[j][3] / sum;
  }
  return r;
}

struct Mesh {
  std::vector<double> v;  // [numVertices, 4], float-exact
  std::vector<int32_t> f;
};

Mesh RandomMesh(Rng& rng, int64_t numVertices, int64_t numFaces) {
  Mesh m;
  for (int64_t i = 0; i < numVertices; ++i) {
    const double w = rng.Uniform(0.6, 1.8);
    for (double c : {rng.Uniform(-1.3, 1.3) * w, rng.Uniform(-1.3, 1.3) * w, rng.Uniform(-0.9, 0.9) * w, w}) {
      m.v.push_back(ConvertValue(c, ACL_FLOAT).real());
    }
  }
  for (int64_t i = 0; i < numFaces * 3; ++i) {
    m.f.push_back(static_cast<int32_t>(std::min<double>(std::floor(rng.Uniform(0, static_cast<double>(numVertices))),
                                                        static_cast<double>(numVertices - 1))));
  }
  return m;
}

struct Views {
  View v = View::kContiguous, f = View::kContiguous, findices = View::kContiguous, barycentric = View::kContiguous;
};

// Runs the op on `mesh` and compares with the reference; returns how many pixels were compared.
int64_t RunAndCompare(const Mesh& mesh, int64_t width, int64_t height, const Views& views, bool withDepth) {
  const auto numVertices = static_cast<int64_t>(mesh.v.size() / 4), numFaces = static_cast<int64_t>(mesh.f.size() / 3);
  DeviceTensor v(ACL_FLOAT, {numVertices, 4}, views.v), f(ACL_INT32, {numFaces, 3}, views.f);
  DeviceTensor d(ACL_FLOAT, {height, width});
  DeviceTensor findices(ACL_INT32, {height, width}, views.findices);
  DeviceTensor barycentric(ACL_FLOAT, {height, width, 3}, views.barycentric);
  v.WriteView(Values(mesh.v.begin(), mesh.v.end()));
  f.WriteView(Values(mesh.f.begin(), mesh.f.end()));
  findices.Poison();
  barycentric.Poison();
  const std::vector<uint8_t> findicesBefore = findices.DownloadBytes(), baryBefore = barycentric.DownloadBytes();
  ExpectRuns(
      [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
        return aclnnRasterizerGetWorkspaceSize(a.Tensor(v), a.Tensor(f), withDepth ? a.Tensor(d) : nullptr, width,
                                               height, 0.25, 0, a.Tensor(findices), a.Tensor(barycentric), w, e);
      },
      aclnnRasterizer);
  const Raster want = Reference(mesh.v, mesh.f, width, height);
  const Values gotIdx = findices.ReadView(), gotBary = barycentric.ReadView();
  Values gotI, wantI, gotB;
  Expected wantB;
  for (size_t p = 0; p < want.decided.size(); ++p) {
    if (!want.decided[p]) continue;
    gotI.push_back(gotIdx[p]);
    wantI.emplace_back(want.findices[p]);
    for (size_t j = 0; j < 3; ++j) {
      gotB.push_back(gotBary[3 * p + j]);
      wantB.values.emplace_back(want.barycentric[3 * p + j]);
      wantB.tolerance.push_back(2e-4 * std::max(1.0, std::abs(want.barycentric[3 * p + j])));
    }
  }
  ExpectExact(gotI, wantI, "findicesOut");
  ExpectNear(gotB, wantB, "barycentricOut");
  ExpectOutsideViewUnchanged(findices, findicesBefore, "findicesOut");
  ExpectOutsideViewUnchanged(barycentric, baryBefore, "barycentricOut");
  return static_cast<int64_t>(wantI.size());
}

TEST(Rasterizer, MatchesReferenceOnRandomMeshes) {
  struct Case {
    int64_t width, height, vertices, faces;
    Views views;
    bool withDepth;
  };
  const Case cases[] = {
      {16, 12, 12, 9, {}, true},
      {37, 23, 20, 30, {View::kTransposed, View::kStepped, View::kStepped, View::kTransposed}, false},
      {9, 31, 7, 5, {View::kStepped, View::kTransposed, View::kTransposed, View::kStepped}, true},
      {1, 1, 4, 3, {View::kReversed, View::kOffset, View::kOffset, View::kReversed}, false},
      {24, 1, 6, 4, {}, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.height) + "x" + std::to_string(c.width) + " faces " + std::to_string(c.faces));
    Rng rng = Rng::ForCurrentTest();
    const Mesh mesh = RandomMesh(rng, c.vertices, c.faces);
    const int64_t compared = RunAndCompare(mesh, c.width, c.height, c.views, c.withDepth);
    EXPECT_GE(compared, c.width * c.height * 3 / 4) << "too many pixels undecided to be a useful test";
    if (c.width > 1 && c.height > 1) {  // a screen of one row or column maps every face to a line
      const Raster want = Reference(mesh.v, mesh.f, c.width, c.height);
      EXPECT_GT(std::count_if(want.findices.begin(), want.findices.end(), [](int32_t i) { return i > 0; }),
                c.width * c.height / 8);
    }
  }
}

TEST(Rasterizer, CoveredPixelsTakeTheNearestFaceOfTwo) {
  // Two overlapping full-screen-ish triangles at depths 0.2 and -0.4 (clip): the
  // second is nearer wherever both cover, the first shows elsewhere.
  Mesh mesh;
  mesh.v = {-0.9, -0.9, 0.2,  1, 0.9,  -0.9, 0.2,  1, -0.9, 0.9,  0.2,  1,
            0.9,  0.9,  -0.4, 2, -0.3, 0.9,  -0.4, 2, 0.9,  -0.3, -0.4, 2};
  mesh.f = {0, 1, 2, 3, 4, 5};
  const Raster want = Reference(mesh.v, mesh.f, 20, 20);
  EXPECT_NE(std::count(want.findices.begin(), want.findices.end(), 1), 0);
  EXPECT_NE(std::count(want.findices.begin(), want.findices.end(), 2), 0);
  EXPECT_NE(std::count(want.findices.begin(), want.findices.end(), 0), 0);
  EXPECT_GT(RunAndCompare(mesh, 20, 20, {}, true), 300);
}

TEST(Rasterizer, DegenerateAndOffScreenFacesCoverNothing) {
  Mesh mesh;
  mesh.v = {-0.5, -0.5, 0, 1, 0.5, 0.5, 0, 1, 0.8, 0.8, 0, 1, 3, 3, 0, 1, 4, 3, 0, 1, 3, 4, 0, 1};
  mesh.f = {0, 1, 2, 0, 0, 1, 3, 4, 5};  // collinear, a repeated vertex, outside the screen
  RunAndCompare(mesh, 8, 6, {}, false);
  const Raster want = Reference(mesh.v, mesh.f, 8, 6);
  EXPECT_EQ(std::count(want.findices.begin(), want.findices.end(), 0), 48);
}

TEST(Rasterizer, NoFacesGiveZeros) {
  for (const int64_t vertices : {0, 3}) {
    Rng rng = Rng::ForCurrentTest();
    const Mesh mesh = RandomMesh(rng, vertices, 0);
    RunAndCompare(mesh, 5, 4, {}, vertices != 0);
  }
}

TEST(Rasterizer, DocumentExample) {
  Mesh mesh;
  const float v[] = {6.0F,       4.0F,       1.0F,      6.9F,       7.0928106F, 0.3491799F,
                     3.0046327F, 6.6574745F, 7.308903F, 7.6934705F, 0.1315008F, 3.9899914F};
  mesh.v.assign(std::begin(v), std::end(v));
  mesh.f = {2, 1, 0};
  EXPECT_GT(RunAndCompare(mesh, 10, 10, {}, true), 80);
  const Raster want = Reference(mesh.v, mesh.f, 10, 10);
  EXPECT_EQ(std::count(want.findices.begin(), want.findices.end(), 1), 2);  // its face covers two pixel centres
}

TEST(Rasterizer, AFaceNamingAMissingVertexFailsOnTheStream) {
  Mesh mesh;
  mesh.v = {-0.5, -0.5, 0, 1, 0.5, -0.5, 0, 1, 0, 0.5, 0, 1};
  DeviceTensor findices(ACL_INT32, {4, 4}), barycentric(ACL_FLOAT, {4, 4, 3});
  const auto v = Upload(ACL_FLOAT, {3, 4}, Values(mesh.v.begin(), mesh.v.end()));
  for (const int32_t bad : {3, -1}) {
    const auto f = Upload(ACL_INT32, {1, 3}, {0, 1, static_cast<double>(bad)});
    const OpRun run = RunOp(
        [&](OpArgs& a, uint64_t* w, aclOpExecutor** e) {
          return aclnnRasterizerGetWorkspaceSize(a.Tensor(*v), a.Tensor(*f), nullptr, 4, 4, 0.0, 0, a.Tensor(findices),
                                                 a.Tensor(barycentric), w, e);
        },
        aclnnRasterizer);
    EXPECT_EQ(run.phase1, ACLNN_SUCCESS) << Describe(run);
    EXPECT_NE(run.sync, ACL_SUCCESS) << Describe(run);
  }
}

using A = OpArgs;
using W = uint64_t*;
using E = aclOpExecutor**;

std::vector<RejectionCase> Rejections() {
  struct Args {
    aclDataType vt = ACL_FLOAT;
    Shape vs = {3, 4};
    aclDataType ft = ACL_INT32;
    Shape fs = {1, 3};
    aclDataType dt = ACL_FLOAT;
    int64_t width = 6, height = 5, useDepthPrior = 0;
    aclDataType it = ACL_INT32;
    Shape is = {5, 6};
    aclDataType bt = ACL_FLOAT;
    Shape bs = {5, 6, 3};
  };
  auto call = [](Args x) {
    return [=](A& a, W w, E e) {
      return aclnnRasterizerGetWorkspaceSize(a.NewTensor(x.vt, x.vs), a.NewTensorIn(Range{0, 2}, x.ft, x.fs),
                                             a.NewTensor(x.dt, {5, 6}), x.width, x.height, 0.0, x.useDepthPrior,
                                             a.NewTensor(x.it, x.is), a.NewTensor(x.bt, x.bs), w, e);
    };
  };
  const aclnnStatus tiling = ACLNN_ERR_INNER_TILING_ERROR;
  return {
      {"v_f16", call({.vt = ACL_FLOAT16}), aclnnRasterizer, "'v'"},
      {"f_i64", call({.ft = ACL_INT64}), aclnnRasterizer, "'f'"},
      {"d_f16", call({.dt = ACL_FLOAT16}), aclnnRasterizer, "'dOptional'"},
      {"findices_f32", call({.it = ACL_FLOAT}), aclnnRasterizer, "'findicesOut'"},
      {"barycentric_f16", call({.bt = ACL_FLOAT16}), aclnnRasterizer, "'barycentricOut'"},
      {"v_rank3", call({.vs = {3, 4, 1}}), aclnnRasterizer, "'v'", tiling},
      {"v_three", call({.vs = {3, 3}}), aclnnRasterizer, "'v'", tiling},
      {"f_four", call({.fs = {1, 4}}), aclnnRasterizer, "'f'", tiling},
      {"f_rank1", call({.fs = {3}}), aclnnRasterizer, "'f'", tiling},
      {"findices_rank3", call({.is = {5, 6, 1}}), aclnnRasterizer, "'findicesOut'", tiling},
      {"barycentric_rank2", call({.bs = {5, 18}}), aclnnRasterizer, "'barycentricOut'", tiling},
      {"barycentric_two", call({.bs = {5, 6, 2}}), aclnnRasterizer, "'barycentricOut'", tiling},
      {"findices_not_screen", call({.is = {6, 5}}), aclnnRasterizer, "'findicesOut'", tiling},
      {"barycentric_not_screen", call({.bs = {5, 5, 3}}), aclnnRasterizer, "'barycentricOut'", tiling},
      {"width_zero", call({.width = 0, .is = {5, 0}, .bs = {5, 0, 3}}), aclnnRasterizer, "'width'", tiling},
      {"height_over", call({.height = 4097, .is = {4097, 6}, .bs = {4097, 6, 3}}), aclnnRasterizer, "'height'", tiling},
      {"width_negative", call({.width = -6}), aclnnRasterizer, "'width'", tiling},
      {"use_depth_prior", call({.useDepthPrior = 1}), aclnnRasterizer, "'useDepthPrior'", tiling},
  };
}

class RasterizerRejects : public ::testing::TestWithParam<RejectionCase> {};
TEST_P(RasterizerRejects, WithItsCodeAndAMessageNamingTheArgument) { ExpectRejection(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, RasterizerRejects, ::testing::ValuesIn(Rejections()),
                         [](const auto& info) { return SanitizeName(info.param.name); });

}  // namespace
}  // namespace canopy_test
