#include "halobw/cli/help.hpp"

#include <algorithm>
#include <sstream>

namespace halobw {

namespace {

constexpr std::size_t kNameIndent = 2;   // where an option's names start
constexpr std::size_t kTextColumn = 30;  // where its description starts

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Paragraphs wrapped to the width; a line that starts with two spaces is kept as it is.
void add_paragraphs(std::string& out, const std::string& text) {
  std::string paragraph;
  auto flush = [&] {
    for (const auto& l : wrap_words(paragraph, kHelpWidth)) out += l + "\n";
    paragraph.clear();
  };
  for (const std::string& line : lines_of(text)) {
    if (line.rfind("  ", 0) == 0 || line.empty()) {
      flush();
      out += line + "\n";
    } else {
      paragraph += (paragraph.empty() ? "" : " ") + line;
    }
  }
  flush();
}

void add_option(std::string& out, const HelpOption& o) {
  std::string head = std::string(kNameIndent, ' ') + o.names + (o.value.empty() ? "" : " " + o.value);
  const std::vector<std::string> text = wrap_words(o.text, kHelpWidth - kTextColumn);
  std::size_t first = 0;
  if (head.size() + 2 <= kTextColumn && !text.empty()) {
    out += head + std::string(kTextColumn - head.size(), ' ') + text[0] + "\n";
    first = 1;
  } else {
    out += head + "\n";
  }
  for (std::size_t i = first; i < text.size(); ++i) out += std::string(kTextColumn, ' ') + text[i] + "\n";
}

// Optimal string alignment distance: insertions, deletions, substitutions
// and swaps of two neighbouring letters each cost one.
std::size_t distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string undashed(const std::string& s) { return s.substr(std::min(s.find_first_not_of('-'), s.size())); }

}  // namespace

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  for (std::string word; in >> word;) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

std::string render_help(const std::string& intro, const std::vector<HelpSection>& sections,
                        const std::string& footer) {
  std::string out;
  add_paragraphs(out, intro);
  for (const HelpSection& s : sections) {
    out += "\n";
    for (const auto& l : wrap_words(s.title + ": " + s.about, kHelpWidth)) out += l + "\n";
    for (const HelpOption& o : s.options) add_option(out, o);
  }
  out += "\n";
  add_paragraphs(out, footer);
  return out;
}

std::optional<std::string> nearest_name(const std::string& typed, const std::vector<std::string>& known) {
  const std::string t = undashed(typed);
  if (t.empty()) return std::nullopt;
  std::optional<std::string> best;
  std::size_t best_distance = t.size() / 3 + 1;  // at most one edit per three letters typed, at least one
  for (const std::string& k : known) {
    const std::size_t d = distance(t, undashed(k));
    if (d < best_distance) {
      best = k;
      best_distance = d;
    }
  }
  if (best) return best;
  // A beginning of exactly one option ("--break" for --breakdown).
  std::vector<std::string> starts;
  for (const std::string& k : known) {
    if (t.size() >= 3 && undashed(k).rfind(t, 0) == 0) starts.push_back(k);
  }
  if (starts.size() == 1) return starts.front();
  return std::nullopt;
}

}  // namespace halobw
