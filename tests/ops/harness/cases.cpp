// From a row to its list of cases: the factors, the constraints between them,
// the pairwise covering, the names; see harness.h.
#include <algorithm>
#include <map>
#include <set>

#include "harness/covering.h"
#include "harness/harness.h"

namespace canopy_test::harness {
namespace {

// The row with its defaults filled in and its dtype and shape cases expanded
// to one entry per input.
struct Expanded {
  const OpRow& row;
  std::vector<DtypeCase> dtypes;           // inputs: one per row input
  std::vector<std::string> shapeNames;     //
  std::vector<std::vector<Shape>> shapes;  // per shape case: one per row input ({} for scalars)
  std::vector<bool> shapeEveryDtype;
  std::vector<AttrSet> attrs;
  // The output factor: the out form with each out view, then the in-place form.
  struct Output {
    bool inplace;
    View view;
  };
  std::vector<Output> forms;
  DtypeRule outDtype;
  ShapeRule outShape;
};

// Which factor holds what.
struct Factors {
  int dtype = -1, attr = -1, shape = -1, form = -1;
  std::vector<int> ownDtype;  // per input: its own-dtype factor, or -1
  std::vector<int> view;      // per input: its view factor, or -1 (scalars)
  std::vector<int> sizes;
  int Add(int size) {
    sizes.push_back(size);
    return static_cast<int>(sizes.size()) - 1;
  }
};

bool IsTensor(const Arg& arg) { return arg.kind == ArgKind::kTensor; }

Expanded Expand(const OpRow& row, std::vector<std::string>* problems) {
  Expanded e{row, {}, {}, {}, {}, {}, {}, {}, {}};
  const size_t arity = row.inputs.size();
  for (const DtypeCase& dc : row.dtypes) {
    DtypeCase expanded = dc;
    if (dc.inputs.size() == 1) expanded.inputs.assign(arity, dc.inputs[0]);
    if (expanded.inputs.size() != arity) {
      problems->push_back("a dtype case has " + std::to_string(dc.inputs.size()) + " dtypes for " +
                          std::to_string(arity) + " inputs");
      continue;
    }
    e.dtypes.push_back(expanded);
  }
  // Shapes, with duplicates (the same tensor shapes under another name) dropped.
  std::set<std::vector<Shape>> seen;
  const std::vector<ShapeCase>& shapes = row.shapes.empty() ? ElementwiseShapes() : row.shapes;
  for (const ShapeCase& sc : shapes) {
    if (sc.inputs.empty()) {
      problems->push_back("shape case " + sc.name + " has no shapes");
      continue;
    }
    std::vector<Shape> perInput(arity);
    size_t tensor = 0;
    for (size_t i = 0; i < arity; ++i) {
      if (IsTensor(row.inputs[i])) perInput[i] = sc.inputs[std::min(tensor++, sc.inputs.size() - 1)];
    }
    if (!seen.insert(perInput).second) continue;
    e.shapeNames.push_back(sc.name);
    e.shapes.push_back(perInput);
    e.shapeEveryDtype.push_back(sc.everyDtype);
  }
  e.attrs = row.attrs.empty() ? std::vector<AttrSet>{AttrSet{}} : row.attrs;
  if (row.out.phase1) {
    for (View view : row.outViews) e.forms.push_back({false, view});
  }
  if (row.inplace.phase1) e.forms.push_back({true, View::kContiguous});
  if (e.forms.empty()) problems->push_back("the row has neither an out form nor an in-place form");
  if ((row.out.phase1 && !row.out.phase2) || (row.inplace.phase1 && !row.inplace.phase2)) {
    problems->push_back("a form has phase 1 but no phase 2");
  }
  if (!row.reference) problems->push_back("the row has no reference");
  if (row.inputs.empty()) problems->push_back("the row has no inputs");
  if (row.inplace.phase1 && (row.inputs.empty() || !IsTensor(row.inputs[0]))) {
    problems->push_back("the in-place form needs input 0 to be a tensor (selfRef)");
  }
  e.outDtype = row.outDtype ? row.outDtype : SameAsInput(0);
  e.outShape = row.outShape ? row.outShape : BroadcastShape();
  return e;
}

Factors MakeFactors(const Expanded& e) {
  Factors l;
  l.dtype = l.Add(static_cast<int>(std::max<size_t>(e.dtypes.size(), 1)));
  l.attr = l.Add(static_cast<int>(e.attrs.size()));
  l.shape = l.Add(static_cast<int>(std::max<size_t>(e.shapes.size(), 1)));
  l.form = l.Add(static_cast<int>(std::max<size_t>(e.forms.size(), 1)));
  for (const Arg& arg : e.row.inputs) l.ownDtype.push_back(arg.dtypes.empty() ? -1 : l.Add(arg.dtypes.size()));
  for (const Arg& arg : e.row.inputs) {
    l.view.push_back(IsTensor(arg) && !arg.views.empty() ? l.Add(static_cast<int>(arg.views.size())) : -1);
  }
  return l;
}

// What an assignment of the factors fixes so far (nullopt: not yet known).
struct Partial {
  std::optional<DtypeCase> dtypeCase;
  std::vector<std::optional<aclDataType>> dtypes;  // per input
  bool dtypesKnown = false;
  std::optional<aclDataType> outDtype;  // the out form's
  const AttrSet* attrs = nullptr;
  const std::vector<Shape>* shapes = nullptr;
  std::optional<bool> inplace;
};

Partial Resolve(const Expanded& e, const Factors& l, const std::vector<int>& a) {
  Partial p;
  const size_t arity = e.row.inputs.size();
  p.dtypes.resize(arity);
  if (a[l.dtype] >= 0 && !e.dtypes.empty()) p.dtypeCase = e.dtypes[a[l.dtype]];
  p.dtypesKnown = true;
  for (size_t i = 0; i < arity; ++i) {
    if (l.ownDtype[i] >= 0) {
      if (a[l.ownDtype[i]] >= 0) p.dtypes[i] = e.row.inputs[i].dtypes[a[l.ownDtype[i]]];
    } else if (p.dtypeCase) {
      p.dtypes[i] = p.dtypeCase->inputs[i];
    }
    p.dtypesKnown = p.dtypesKnown && p.dtypes[i].has_value();
  }
  if (p.dtypesKnown && p.dtypeCase) {
    if (p.dtypeCase->out != ACL_DT_UNDEFINED) {
      p.outDtype = p.dtypeCase->out;
    } else {
      std::vector<aclDataType> inputs;
      for (const auto& d : p.dtypes) inputs.push_back(*d);
      p.outDtype = e.outDtype(inputs);
    }
  }
  if (a[l.attr] >= 0) p.attrs = &e.attrs[a[l.attr]];
  if (a[l.shape] >= 0 && !e.shapes.empty()) p.shapes = &e.shapes[a[l.shape]];
  if (a[l.form] >= 0 && !e.forms.empty()) p.inplace = e.forms[a[l.form]].inplace;
  return p;
}

// The dtype case as attribute sets' `when` sees it: out resolved by the rule
// where the case leaves it open (inputs with dtypes of their own keep the
// case's placeholder).
DtypeCase WithOut(const Expanded& e, DtypeCase dc) {
  if (dc.out == ACL_DT_UNDEFINED) dc.out = e.outDtype(dc.inputs).value_or(ACL_DT_UNDEFINED);
  return dc;
}

bool InPlaceAccepts(const Expanded& e, const Partial& p) {
  if (e.row.inplace.accepts) return e.row.inplace.accepts(*p.dtypeCase, p.outDtype.value_or(ACL_DT_UNDEFINED));
  return p.outDtype.has_value() && *p.outDtype == *p.dtypes[0];
}

bool Valid(const Expanded& e, const Factors& l, const std::vector<int>& a) {
  if (e.dtypes.empty() || e.shapes.empty() || e.forms.empty()) return false;
  const Partial p = Resolve(e, l, a);
  // The out form needs an out dtype; the in-place form its own acceptance.
  if (p.dtypesKnown && p.dtypeCase && p.inplace.has_value()) {
    if (!*p.inplace && !p.outDtype) return false;
    if (*p.inplace && !InPlaceAccepts(e, p)) return false;
  }
  if (p.attrs && p.dtypeCase && p.attrs->when && !p.attrs->when(WithOut(e, *p.dtypeCase))) return false;
  std::optional<Shape> outShape;
  if (p.attrs && p.shapes) {
    outShape = e.outShape(*p.shapes, *p.attrs);
    if (!outShape) return false;
  }
  if (p.inplace.value_or(false)) {
    if (outShape && *outShape != (*p.shapes)[0]) return false;
    if (l.view[0] >= 0 && a[l.view[0]] >= 0 && e.row.inputs[0].views[a[l.view[0]]] == View::kBroadcast) return false;
  }
  for (size_t i = 0; i < e.row.inputs.size(); ++i) {
    const Arg& arg = e.row.inputs[i];
    if (l.view[i] < 0 || a[l.view[i]] < 0 || !arg.viewAllowed || !p.dtypes[i]) continue;
    if (!arg.viewAllowed(*p.dtypes[i], arg.views[a[l.view[i]]])) return false;
  }
  return true;
}

std::string DtypesName(const CaseInfo& info) {
  const bool same =
      std::all_of(info.dtypes.begin(), info.dtypes.end(), [&info](aclDataType d) { return d == info.dtypes[0]; });
  std::string name = Name(info.dtypes[0]);
  if (!same) {
    for (size_t i = 1; i < info.dtypes.size(); ++i) name += std::string("_") + Name(info.dtypes[i]);
  }
  if (!info.inplace && (!same || info.out != info.dtypes[0])) name += std::string("_to_") + Name(info.out);
  return name;
}

CaseInfo Build(const Expanded& e, const Factors& l, const std::vector<int>& a) {
  const Partial p = Resolve(e, l, a);
  CaseInfo info;
  for (const auto& d : p.dtypes) info.dtypes.push_back(*d);
  info.inplace = *p.inplace;
  info.out = info.inplace ? info.dtypes[0] : *p.outDtype;
  info.shapes = *p.shapes;
  info.attrs = *p.attrs;
  info.outShape = info.inplace ? info.shapes[0] : *e.outShape(info.shapes, info.attrs);
  for (auto& [key, value] : info.attrs.values) {
    if (auto* scalar = std::get_if<ScalarAttr>(&value)) {
      if (scalar->dtype == ACL_DT_UNDEFINED) scalar->dtype = info.out;
      scalar->value = ConvertValue(scalar->value, scalar->dtype);
    }
  }
  info.views.assign(e.row.inputs.size(), View::kContiguous);
  std::string views;
  for (size_t i = 0; i < e.row.inputs.size(); ++i) {
    if (l.view[i] < 0) continue;
    info.views[i] = e.row.inputs[i].views[a[l.view[i]]];
    if (info.views[i] != View::kContiguous) views += "_" + e.row.inputs[i].name + "_" + ViewName(info.views[i]);
  }
  info.outView = info.inplace ? info.views[0] : e.forms[a[l.form]].view;
  if (!info.inplace && info.outView != View::kContiguous) views += std::string("_out_") + ViewName(info.outView);
  info.name = DtypesName(info) + "_" + e.shapeNames[a[l.shape]] + views + (info.inplace ? "_inplace" : "") +
              (info.attrs.name.empty() ? "" : "_" + info.attrs.name);
  return info;
}

// One case per invalid value of each input that has them, on the first valid
// contiguous assignment.
void AddInvalidValueCases(const Expanded& e, const Factors& l, std::vector<CaseInfo>* cases) {
  for (size_t i = 0; i < e.row.inputs.size(); ++i) {
    const Arg& arg = e.row.inputs[i];
    if (!arg.invalidValues) continue;
    const int ownValues = l.ownDtype[i] >= 0 ? l.sizes[l.ownDtype[i]] : 1;
    for (int own = 0; own < ownValues; ++own) {
      std::vector<int> a(l.sizes.size(), 0);
      if (l.ownDtype[i] >= 0) a[l.ownDtype[i]] = own;
      // The first dtype case, shape and attribute set that make a valid call.
      bool found = false;
      for (int d = 0; d < l.sizes[l.dtype] && !found; ++d) {
        for (int s = 0; s < l.sizes[l.shape] && !found; ++s) {
          a[l.dtype] = d;
          a[l.shape] = s;
          found = Valid(e, l, a) && NumElements((*Resolve(e, l, a).shapes)[i]) > 0;
        }
      }
      if (!found) continue;
      const CaseInfo base = Build(e, l, a);
      const std::vector<Value> invalid = arg.invalidValues(base);
      for (size_t k = 0; k < invalid.size(); ++k) {
        CaseInfo info = base;
        info.invalidInput = static_cast<int>(i);
        info.invalidValue = invalid[k];
        info.name += "_" + arg.name + "_" + Name(info.dtypes[i]) + "_invalid" + std::to_string(k);
        cases->push_back(info);
      }
    }
  }
}

}  // namespace

std::vector<CaseInfo> GenerateCases(const OpRow& row, std::vector<std::string>* problems) {
  const size_t before = problems->size();
  const Expanded e = Expand(row, problems);
  if (problems->size() != before) return {};
  const Factors l = MakeFactors(e);
  CoveringProblem problem;
  problem.sizes = l.sizes;
  problem.valid = [&e, &l](const std::vector<int>& a) { return Valid(e, l, a); };
  problem.pairWanted = [&e, &l](int fa, int a, int fb, int b) {
    if (fa != l.dtype) return true;
    if (!e.dtypes[a].pairwise) return fb == l.attr || (fb == l.form && e.forms[b].inplace);
    return fb != l.shape || e.shapeEveryDtype[b];  // dtype x shape: only the shapes every dtype meets
  };
  std::vector<CaseInfo> cases;
  for (const std::vector<int>& a : CoverPairs(problem)) cases.push_back(Build(e, l, a));
  AddInvalidValueCases(e, l, &cases);
  if (cases.empty()) problems->push_back("no dtype, shape, attribute and form combination is valid");
  // Unique names: a repeated one gets _2, _3, ...
  std::map<std::string, int> uses;
  for (CaseInfo& info : cases) {
    info.name = SanitizeName(info.name);
    if (const int n = ++uses[info.name]; n > 1) info.name.append("_").append(std::to_string(n));
  }
  return cases;
}

}  // namespace canopy_test::harness
