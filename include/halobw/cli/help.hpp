// --help as plain text that fits a terminal of kHelpWidth columns, and the
// nearest known option to a mistyped one. Pure text: options.cpp feeds it
// the options CLI11 was given, so that every option is listed from the one
// place it is declared.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace halobw {

constexpr std::size_t kHelpWidth = 100;

// One option as --help lists it: "--sizes LIST" and what it does.
struct HelpOption {
  std::string names;  // "--sizes", "-h, --help"
  std::string value;  // "LIST", "x|y|z"; empty for a flag
  std::string text;
};
// A section: its title ("Decomposition"), one line about it, its options.
struct HelpSection {
  std::string title;
  std::string about;
  std::vector<HelpOption> options;
};

// `text` cut at spaces into lines of at most `width` characters (a word
// longer than that stays whole on its own line).
[[nodiscard]] std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

// The whole --help: `intro` (paragraphs), the sections, then `footer`
// (paragraphs; a line that starts with two spaces is kept as it is, every
// other is wrapped). Every line at most kHelpWidth columns.
[[nodiscard]] std::string render_help(const std::string& intro, const std::vector<HelpSection>& sections,
                                      const std::string& footer);

// The known name closest to `typed` ("--size" -> "--sizes"): within a small
// edit distance (a letter left out, added, changed or two swapped, per three
// letters typed), or the one known name that `typed` begins; none when
// nothing is close.
[[nodiscard]] std::optional<std::string> nearest_name(const std::string& typed,
                                                      const std::vector<std::string>& known);

}  // namespace halobw
