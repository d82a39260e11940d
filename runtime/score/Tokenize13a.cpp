//===- Tokenize13a.cpp - sacreBLEU's default BLEU tokenisation ------------===//

#include "runtime/score/Tokenize13a.h"
#include "runtime/score/Unicode.h"

namespace tc::rt {
namespace {

/// Python's text.replace(from, to): every non-overlapping occurrence, left
/// to right.
std::u32string replaceAll(std::u32string_view text, std::u32string_view from,
                          std::u32string_view to) {
  std::u32string out;
  out.reserve(text.size());
  size_t at = 0;
  while (true) {
    size_t found = text.find(from, at);
    if (found == std::u32string_view::npos)
      break;
    out.append(text.substr(at, found - at));
    out.append(to);
    at = found + from.size();
  }
  out.append(text.substr(at));
  return out;
}

bool isDigit(char32_t c) { return c >= U'0' && c <= U'9'; }
bool isPeriodOrComma(char32_t c) { return c == U'.' || c == U','; }

/// The character class of the first regular expression,
/// [\{-\~\[-\` -\&\(-\+\:-\@\/]: the space and every ASCII symbol but
/// the apostrophe, comma, hyphen and period.
bool isSplitSymbol(char32_t c) {
  return (c >= U'{' && c <= U'~') || (c >= U'[' && c <= U'`') ||
         (c >= U' ' && c <= U'&') || (c >= U'(' && c <= U'+') ||
         (c >= U':' && c <= U'@') || c == U'/';
}

/// re.sub('(A)(B)', replacement, text) for a pattern of two one-character
/// classes: a match starts at i when text[i] is in A and text[i + 1] in B;
/// the scan resumes after it. `emit` appends the replacement of (a, b).
template <typename First, typename Second, typename Emit>
std::u32string substitutePairs(std::u32string_view text, First first,
                               Second second, Emit emit) {
  std::u32string out;
  out.reserve(text.size() + text.size() / 4);
  size_t i = 0;
  while (i < text.size()) {
    if (i + 1 < text.size() && first(text[i]) && second(text[i + 1])) {
      emit(out, text[i], text[i + 1]);
      i += 2;
    } else {
      out.push_back(text[i]);
      ++i;
    }
  }
  return out;
}

} // namespace

std::u32string tokenize13a(std::u32string_view segment) {
  // The language-independent part (Tokenizer13a.__call__).
  std::u32string line = replaceAll(segment, U"<skipped>", U"");
  line = replaceAll(line, U"-\n", U"");
  line = replaceAll(line, U"\n", U" ");
  if (line.find(U'&') != std::u32string::npos) {
    line = replaceAll(line, U"&quot;", U"\"");
    line = replaceAll(line, U"&amp;", U"&");
    line = replaceAll(line, U"&lt;", U"<");
    line = replaceAll(line, U"&gt;", U">");
  }

  // The language-dependent part (TokenizerRegexp), on " line ".
  std::u32string spaced;
  spaced.reserve(line.size() * 2 + 2);
  spaced.push_back(U' ');
  for (char32_t c : line) {
    if (isSplitSymbol(c)) {
      spaced.push_back(U' ');
      spaced.push_back(c);
      spaced.push_back(U' ');
    } else {
      spaced.push_back(c);
    }
  }
  spaced.push_back(U' ');

  auto notDigit = [](char32_t c) { return !isDigit(c); };
  // ([^0-9])([\.,]) -> \1 \2 : period and comma unless preceded by a digit.
  spaced = substitutePairs(spaced, notDigit, isPeriodOrComma,
                           [](std::u32string &out, char32_t a, char32_t b) {
                             out.push_back(a);
                             out.push_back(U' ');
                             out.push_back(b);
                             out.push_back(U' ');
                           });
  // ([\.,])([^0-9]) -> " \1 \2": unless followed by a digit.
  spaced = substitutePairs(spaced, isPeriodOrComma, notDigit,
                           [](std::u32string &out, char32_t a, char32_t b) {
                             out.push_back(U' ');
                             out.push_back(a);
                             out.push_back(U' ');
                             out.push_back(b);
                           });
  // ([0-9])(-) -> \1 \2 : a hyphen after a digit.
  spaced = substitutePairs(
      spaced, isDigit, [](char32_t c) { return c == U'-'; },
      [](std::u32string &out, char32_t a, char32_t b) {
        out.push_back(a);
        out.push_back(U' ');
        out.push_back(b);
        out.push_back(U' ');
      });

  // ' '.join(line.split())
  std::u32string tokens;
  tokens.reserve(spaced.size());
  for (std::u32string_view word : splitAtWhitespace(spaced)) {
    if (!tokens.empty())
      tokens.push_back(U' ');
    tokens.append(word);
  }
  return tokens;
}

std::string tokenize13a(std::string_view segment) {
  return encodeUtf8(tokenize13a(decodeUtf8(segment)));
}

} // namespace tc::rt
