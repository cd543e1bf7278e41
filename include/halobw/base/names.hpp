// The one way an enum becomes text: each enum's table of spellings,
// Names<E>::list, written once beside the enum. It serves to_string (the
// header, CSV, JSON, messages), the command line (name_map, name_choices)
// and, where a value needs a sentence, meaning_of (--help's exit codes).
// halobw-columns prints every table, and tests/tools/test_names.py holds the
// CLI, --help, the schema, the Python reader, the docs and the test lists to
// them. Pure.
#pragma once

#include <map>
#include <string>

namespace halobw {

// One spelling of one value, and what it means where a sentence is wanted.
template <class E>
struct Spelling {
  const char* name;
  E value;
  const char* meaning = "";
};

// The table of each enum: Names<E>::list, an array of Spelling<E>.
template <class E>
struct Names;

template <class E>
[[nodiscard]] std::string to_string(E value) {
  for (const Spelling<E>& s : Names<E>::list) {
    if (s.value == value) return s.name;
  }
  return "?";
}

template <class E>
[[nodiscard]] constexpr const char* meaning_of(E value) {
  for (const Spelling<E>& s : Names<E>::list) {
    if (s.value == value) return s.meaning;
  }
  return "";
}

// name -> value, for the command line.
template <class E>
[[nodiscard]] std::map<std::string, E> name_map() {
  std::map<std::string, E> m;
  for (const Spelling<E>& s : Names<E>::list) m.emplace(s.name, s.value);
  return m;
}

// "a|b|c", for --help.
template <class E>
[[nodiscard]] std::string name_choices() {
  std::string out;
  for (const Spelling<E>& s : Names<E>::list) out += (out.empty() ? "" : "|") + std::string(s.name);
  return out;
}

}  // namespace halobw
