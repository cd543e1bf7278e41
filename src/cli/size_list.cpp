#include "halobw/cli/size_list.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "halobw/cli/whole_number.hpp"

namespace halobw {

namespace {

// parse_whole into v: whether s is a whole number in [lo, hi].
bool read_whole(const std::string& s, std::int64_t lo, std::int64_t hi, std::int64_t& v) {
  const auto parsed = parse_whole(s, lo, hi);
  if (parsed) v = *parsed;
  return parsed.has_value();
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (const char c : s) {
    if (c == sep) {
      out.emplace_back();
    } else {
      out.back().push_back(c);
    }
  }
  return out;
}

constexpr const char* kForms = "N, NXxNYxNZ, or a range A:B, A:B:S or A:B:xF";

// Collects the boxes of every item, refusing the one that would pass the limit.
class Boxes {
 public:
  Boxes(std::int64_t max_side, std::size_t limit, std::size_t before)
      : max_(max_side), limit_(limit), before_(before) {}

  Status item(const std::string& text) {
    if (text.find(':') != std::string::npos) return range(text);
    if (text.find('x') != std::string::npos) return extents(text);
    std::int64_t n = 0;
    if (!read_whole(text, 1, max_, n)) return fail(side_text(text));
    return add({n, n, n}, text);
  }

  std::vector<Index3> take() { return std::move(out_); }

 private:
  [[nodiscard]] std::string side_text(const std::string& s) const {
    return "'" + s + "' is not a whole number from 1 to " + std::to_string(max_);
  }

  Status add(const Index3& box, const std::string& item) {
    if (before_ + out_.size() >= limit_) {
      return fail("'" + item + "' makes more than " + std::to_string(limit_) + " sizes; a run has at most " +
                  std::to_string(kMaxRows) + " rows");
    }
    out_.push_back(box);
    return {};
  }

  Status extents(const std::string& text) {
    const auto parts = split(text, 'x');
    if (parts.size() != 3) return fail("'" + text + "' is not " + kForms);
    Index3 box{};
    for (std::size_t a = 0; a < 3; ++a) {
      if (!read_whole(parts[a], 1, max_, box[a])) {
        return fail("'" + text + "': the extent " + side_text(parts[a]) + " (NXxNYxNZ)");
      }
    }
    return add(box, text);
  }

  Status range(const std::string& text) {
    const auto parts = split(text, ':');
    if (parts.size() < 2 || parts.size() > 3) return fail("'" + text + "' is not " + kForms);
    for (std::size_t i = 0; i < 2; ++i) {
      if (parts[i].find('x') != std::string::npos) {
        return fail("'" + text +
                    "': a range runs over cube sides, not extents NXxNYxNZ; list the boxes instead");
      }
    }
    std::int64_t a = 0;
    std::int64_t b = 0;
    if (!read_whole(parts[0], 1, max_, a)) return fail("'" + text + "': " + side_text(parts[0]));
    if (!read_whole(parts[1], 1, max_, b)) return fail("'" + text + "': " + side_text(parts[1]));
    if (b < a) {
      return fail("'" + text + "' gives no size: it ends below where it starts (write " + parts[1] + ":" +
                  parts[0] + (parts.size() == 3 ? ":" + parts[2] : std::string()) + ")");
    }
    if (parts.size() == 2) return doubling(a, b, text);
    if (!parts[2].empty() && parts[2].front() == 'x') return geometric(a, b, parts[2], text);
    std::int64_t step = 0;
    if (!read_whole(parts[2], 1, max_, step)) {
      return fail("'" + text + "': the step " + side_text(parts[2]) + " (or xF for a factor F)");
    }
    for (std::int64_t v = a; v <= b; v += step) {
      if (Status s = add({v, v, v}, text)) return s;
    }
    return {};
  }

  Status doubling(std::int64_t a, std::int64_t b, const std::string& text) {
    for (std::int64_t v = a; v <= b; v *= 2) {
      if (Status s = add({v, v, v}, text)) return s;
    }
    return {};
  }

  // A, A*F, A*F^2, ... up to B, rounded; from each value straight to the first
  // power of F whose value rounds above it, so a factor near 1 costs no more
  // steps than the sizes it yields.
  Status geometric(std::int64_t a, std::int64_t b, const std::string& factor, const std::string& text) {
    const std::string digits = factor.substr(1);
    const bool plain = !digits.empty() &&
                       std::all_of(digits.begin(), digits.end(),
                                   [](char c) { return (c >= '0' && c <= '9') || c == '.'; }) &&
                       std::count(digits.begin(), digits.end(), '.') <= 1 && digits.front() != '.';
    const double f = plain ? std::strtod(digits.c_str(), nullptr) : 0.0;
    if (!(f > 1.0) || !std::isfinite(f)) {
      return fail("'" + text + "': the factor '" + factor +
                  "' is not x followed by a number above 1 (x2, x1.5)");
    }
    const double top = static_cast<double>(b) * (1.0 + 1e-12);  // F^k that lands on B by rounding error
    const double lf = std::log(f);
    double k = 0;
    std::int64_t previous = 0;
    for (auto v = static_cast<double>(a); v <= top; v = static_cast<double>(a) * std::pow(f, k)) {
      const std::int64_t r = std::min<std::int64_t>(std::llround(v), b);
      if (r != previous) {
        if (Status s = add({r, r, r}, text)) return s;
        previous = r;
      }
      const double next = std::ceil(std::log((static_cast<double>(r) + 0.5) / static_cast<double>(a)) / lf);
      k = std::max(k + 1, next);
    }
    return {};
  }

  std::int64_t max_;
  std::size_t limit_;
  std::size_t before_;
  std::vector<Index3> out_;
};

}  // namespace

Expected<std::vector<Index3>> parse_size_list(const std::string& text, std::int64_t max_side,
                                              std::size_t limit, std::size_t before) {
  Boxes boxes(max_side, limit, before);
  for (const std::string& item : split(text, ',')) {
    if (item.empty()) return Failure{ExitCode::bad_input, "'" + text + "' has an empty item"};
    if (Status s = boxes.item(item)) return *s;
  }
  return boxes.take();
}

}  // namespace halobw
