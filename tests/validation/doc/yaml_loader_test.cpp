// SPDX-License-Identifier: Apache-2.0
#include "doc/load.hpp"

#include <chrono>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

using namespace kpw;

namespace {
doc::value load_one(const std::string& text)
{
    auto r = doc::load_yaml(text);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    REQUIRE(r->size() == 1);
    return (*r)[0].root;
}

// Each text fails to load, with go-yaml's words in the message.
void check_refused(std::span<const std::pair<const char*, const char*>> cases)
{
    for (const auto& c : cases) {
        const char* text = c.first; // no structured binding: clang 14 cannot capture one in CAPTURE
        CAPTURE(std::string(text));
        auto r = doc::load_yaml(text);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find(c.second) != std::string::npos);
    }
}
} // namespace

TEST_CASE("yaml: positions of keys and values in nested maps and sequences are 1-based")
{
    const doc::value v = load_one("spec:\n"
                                  "  placement:\n"
                                  "    clusterAffinities:\n"
                                  "      - affinityName: a\n"
                                  "        clusterNames: [x, y]\n");
    const doc::value* term = &v.find_path({"spec", "placement", "clusterAffinities"})->items()[0];
    const doc::value* name = term->find("affinityName");
    CHECK(name->pos() == position{4, 23});
    CHECK(name->key_pos() == position{4, 9});
    CHECK(term->find("clusterNames")->key_pos() == position{5, 9});
    CHECK(term->find("clusterNames")->items()[1].pos() == position{5, 27});
    CHECK(v.find("spec")->key_pos() == position{1, 1});
}

TEST_CASE("yaml: scalars resolve like kubectl (YAML 1.1 plain scalars, quoted strings stay strings)")
{
    const doc::value v = load_one("a: 3\nb: '3'\nc: yes\nd: ~\ne: 1.5\nf: abc\ng: \"true\"\nh: 0x10\ni: -4\n");
    CHECK(v.find("a")->is_int());
    CHECK(v.find("b")->is_string());
    CHECK(v.find("c")->is_bool());
    CHECK(v.find("d")->is_null());
    CHECK(v.find("e")->kind() == doc::type::number);
    CHECK(v.find("f")->text() == "abc");
    CHECK(v.find("g")->is_string());
    CHECK(v.find("h")->as_int() == 16);
    CHECK(v.find("i")->as_int() == -4);
}

TEST_CASE("yaml: a number's text is the JSON sigs.k8s.io/yaml hands on (what Go's errors quote)")
{
    const doc::value v = load_one("a: 012345678901234567890\nb: 1e-7\nc: 3.0\nd: 1e21\ne: 18446744073709551615\n"
                                  "f: 0.000001\ng: -2.50\nh: 1_000.5\ni: 1e3\nj: 0.1\n");
    CHECK(v.find("a")->text() == "12345678901234567000"); // no octal: a float64, shortest digits, %f form
    CHECK(v.find("b")->text() == "1e-7");
    CHECK(v.find("c")->text() == "3");
    CHECK(v.find("d")->text() == "1e+21");
    CHECK(v.find("e")->text() == "18446744073709552000"); // beyond int64: a float64 in kubectl's unstructured object
    CHECK(v.find("f")->text() == "0.000001");
    CHECK(v.find("g")->text() == "-2.5");
    CHECK(v.find("h")->text() == "1000.5");
    CHECK(v.find("i")->text() == "1000");
    CHECK(v.find("j")->text() == "0.1");
}

TEST_CASE("yaml: !!binary is its base64-decoded bytes, as go-yaml v2 decodes it; bad base64 is refused")
{
    const doc::value v = load_one("a: !!binary aGk=\nb: !!binary |\n  aGVs\n  bG8=\nc: !!binary //4=\n");
    CHECK(v.find("a")->text() == "hi");
    CHECK(v.find("b")->text() == "hello");
    CHECK(v.find("c")->text() == "\xEF\xBF\xBD\xEF\xBF\xBD"); // 0xFF 0xFE: each byte U+FFFD, as Go's JSON writes it
    static constexpr std::pair<const char*, const char*> refused[] = {
        {"a: !!binary aGk\n", "!!binary value contains invalid base64 data"},
        {"a: !!binary a*k=\n", "!!binary value contains invalid base64 data"},
    };
    check_refused(refused);
}

TEST_CASE("yaml: multi-document streams keep indices and skip empty documents")
{
    auto r = doc::load_yaml("a: 1\n---\n---\nb: 2\n");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 2);
    CHECK((*r)[0].index == 0);
    CHECK((*r)[1].index == 2);
    CHECK((*r)[1].root.find("b")->as_int() == 2);
    CHECK(doc::load_yaml("").ok());
    CHECK(doc::load_yaml("").value().empty());
}

TEST_CASE("yaml: JSON text loads with positions")
{
    const doc::value v = load_one("{\n  \"kind\": \"X\",\n\t\"n\": [1, 2]\n}\n");
    CHECK(v.find("kind")->text() == "X");
    CHECK(v.find("n")->key_pos().line == 3);
}

TEST_CASE("yaml: anchors, aliases and merge keys expand")
{
    const doc::value v = load_one("base: &b {x: 1, z: 2}\nuse:\n  <<: *b\n  z: 3\nref: *b\n");
    CHECK(v.find("use")->find("x")->as_int() == 1);
    CHECK(v.find("use")->find("z")->as_int() == 3);
    CHECK(v.find("ref")->find("z")->as_int() == 2);
}

TEST_CASE("yaml: a repeated key keeps its last value, as go-yaml v2 (kubectl's reader, non-strict) stores it")
{
    const doc::value v = load_one("a: 1\nb:\n  c: 1\n  d: x\n  c: 2\n");
    const doc::value& b = *v.find("b");
    CHECK(b.find("c")->as_int() == 2);
    CHECK(b.find("c")->key_pos() == position{5, 3});
    REQUIRE(b.members().size() == 2);
    CHECK(b.members().back().first == "c"); // stored where it was set last
}

TEST_CASE("yaml: a merge key sets its members in the order written: it replaces the keys before it")
{
    // go-yaml v2 decode.go merge: the merged mapping is stored into the same map at the merge key.
    const doc::value v = load_one("base: &b {x: 1, z: 2}\nuse:\n  z: 0\n  <<: *b\n  x: 3\n"
                                  "list:\n  <<: [{k: first}, {k: second, m: 1}]\n");
    CHECK(v.find("use")->find("z")->as_int() == 2);
    CHECK(v.find("use")->find("x")->as_int() == 3);
    CHECK(v.find("list")->find("k")->text() == "first"); // of a list, the earlier mapping wins
    CHECK(v.find("list")->find("m")->as_int() == 1);
}

TEST_CASE("yaml: every double-quoted escape reads as UTF-8, \\N and \\_ too (finding 12)")
{
    // yaml-cpp 0.7 writes \N and \_ as the bytes 0x85 and 0xA0; go-yaml reads U+0085 and U+00A0.
    const doc::value v = load_one("a: \"x\\Ny\\_z\"\n"
                                  "\"k\\N\": \"\\x85\\u00a0\\L\\P\\u00e9\\N\"\n"
                                  "b: \"\xc3\xa9\\N\xe2\x82\xac\\_\"\n");
    CHECK(v.find("a")->text() == "x\xc2\x85y\xc2\xa0z");
    REQUIRE(v.find("k\xc2\x85") != nullptr); // keys are scalars too
    CHECK(v.find("k\xc2\x85")->text() == "\xc2\x85\xc2\xa0\xe2\x80\xa8\xe2\x80\xa9\xc3\xa9\xc2\x85");
    CHECK(v.find("b")->text() == "\xc3\xa9\xc2\x85\xe2\x82\xac\xc2\xa0"); // beside multi-byte characters
    std::size_t bad = 0;
    for (const auto& [key, value] : v.members()) {
        CHECK(doc::is_clean_utf8(key, bad));
        CHECK(doc::is_clean_utf8(value.text(), bad));
    }
}

TEST_CASE("yaml: malformed and hostile input fails fast with a position")
{
    SUBCASE("syntax error")
    {
        auto r = doc::load_yaml("a: [1, 2\nb: 3\n");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().where.known());
    }
    SUBCASE("invalid UTF-8")
    {
        auto r = doc::load_yaml("a: 1\nb: \xc3\x28\n");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("UTF-8") != std::string::npos);
        CHECK(r.error().where == position{2, 4});
    }
    SUBCASE("a quoted scalar never closed (yaml-cpp 0.7 reads it to the end of the text)")
    {
        auto r = doc::load_yaml("metadata:\n  name: \"web\nspec: {}\n");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("unterminated quoted string: the closing \" is missing") == 0);
        CHECK(r.error().where == position{2, 9});
        r = doc::load_yaml("- 'it''s'\n- 'open''\n");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().where == position{2, 3});
        r = doc::load_yaml("a: \"ends in an escaped quote\\\"\n");
        REQUIRE_FALSE(r.ok());
        // Closed ones, with escaped quotes, '' and multi-byte text before them, still load.
        auto ok = doc::load_yaml("\xc3\xa9: \"\\\"x\\\\\"\nb: 'it''s'\n\"k\": |\n  \"block\n");
        REQUIRE(ok.ok());
        CHECK(ok->front().root.find("\xc3\xa9")->text() == "\"x\\");
        CHECK(ok->front().root.find("b")->text() == "it's");
    }
    SUBCASE("a stray ',' at the top level is named, not taken for an alias bomb")
    {
        auto r = doc::load_yaml(",");
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("not valid YAML: the parser makes no progress here") == 0);
        // After a first document, as kubectl reads a piece: the document only ("foo", no object).
        for (const char* text : {"\"foo\",\"bar\"", "\"top\"\n,\n"}) {
            CAPTURE(std::string(text));
            auto first = doc::load_yaml(text);
            REQUIRE(first.ok());
            REQUIRE(first->size() == 1);
            CHECK(first->front().root.is_string());
        }
    }
    SUBCASE("binary with NUL bytes")
    {
        auto r = doc::load_yaml(std::string("\x7f" "ELF\0\0\0", 7));
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("NUL") != std::string::npos);
    }
    SUBCASE("deep nesting")
    {
        std::string deep;
        for (int i = 0; i < 100000; ++i)
            deep += "[";
        auto r = doc::load_yaml(deep);
        REQUIRE_FALSE(r.ok());
    }
    SUBCASE("tab indentation")
    {
        auto r = doc::load_yaml("a:\n\tb: 1\n");
        CHECK_FALSE(r.ok());
    }
    SUBCASE("billion laughs is refused in milliseconds")
    {
        std::string bomb = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n";
        for (char c = 'b'; c <= 'j'; ++c) {
            const char prev = static_cast<char>(c - 1);
            bomb += std::string(1, c) + ": &" + c + " [";
            for (int i = 0; i < 9; ++i)
                bomb += std::string(i ? "," : "") + "*" + prev;
            bomb += "]\n";
        }
        const auto t0 = std::chrono::steady_clock::now();
        auto r = doc::load_yaml(bomb);
        const auto elapsed = std::chrono::steady_clock::now() - t0;
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("alias bomb") != std::string::npos);
        CHECK(elapsed < std::chrono::seconds(1));
    }
}

TEST_CASE("yaml: a syntax error says what was found and what YAML expects, at yaml-cpp's position")
{
    struct example {
        const char* name;
        std::string text;
        position where;
        std::string starts; // the explanation
        std::string yaml_cpp; // yaml-cpp's own words, kept at the end
    };
    const example cases[] = {
        {"backquote", "a: 1\nb: `x`\n", {2, 4}, "a backquote (`) cannot start a YAML value", "unknown token"},
        {"at sign", "a: @x\n", {1, 4}, "'@' is reserved in YAML", "unknown token"},
        {"indented deeper", "a: 1\n  b: 2\n", {2, 4},
         "this line is indented deeper than the mapping above it: line 1's key already has a value",
         "illegal map value"},
        {"second colon", "a: 1\nb: 2: 3\n", {2, 5}, "a second ': ' on this line", "illegal map value"},
        {"list item among keys", "a: 1\n- b\n", {2, 1}, "a list item ('- ') where the mapping above expects a key",
         "end of map not found"},
        {"indentation matching no mapping", "spec:\n  a: 1\n b: 2\n", {3, 2},
         "this line's indentation (column 2) lines up with no mapping above it: line 2 starts at column 3",
         "end of map not found"},
        {"text after a quoted value", "a: \"x\" y\n", {1, 8}, "found 'y' after a complete value",
         "end of map not found"},
        {"unclosed flow list", "a: [1, 2\nb: 3\n", {2, 2}, "the [ ... ] list opened on line 1 is not closed",
         "end of sequence flow not found"},
        {"unclosed flow mapping", "a: {x: 1\nb: 3\n", {2, 2}, "the { ... } mapping opened on line 1 is not closed",
         "end of map flow not found"},
        {"stray closing bracket", "a: ]\n", {1, 4}, "found ']' with no '[' or '{' open to close", "illegal flow end"},
        {"unknown escape", "a: \"x\\qy\"\n", {1, 8}, "unknown escape '\\q' in a double-quoted string",
         "unknown escape character: q"},
    };
    for (const auto& e : cases) {
        CAPTURE(e.name);
        auto r = doc::load_yaml(e.text);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().where == e.where);
        CHECK_MESSAGE(r.error().message.starts_with(e.starts), r.error().message);
        CHECK(r.error().message.ends_with(" (yaml-cpp: " + e.yaml_cpp + ")"));
    }
}

TEST_CASE("yaml: a Helm template is named as one, at its marker, with the command that renders it")
{
    const std::string hint = "render it first: helm template RELEASE CHART | karmada-policy-webhook lint -";
    struct example {
        const char* name;
        std::string text;
        position where;
    };
    const example cases[] = {
        {"a marker as a value", "metadata:\n  name: {{ .Values.name }}\n", {2, 9}},
        {"a control line", "metadata:\n  name: x\nspec:\n{{- if .Values.x }}\n  a: 1\n{{- end }}\n", {4, 1}},
        {"a quoted marker, then an include", "metadata:\n  name: \"{{ .Values.name }}\"\n{{ include \"x\" . }}\n",
         {3, 1}},
    };
    for (const auto& e : cases) {
        CAPTURE(e.name);
        auto r = doc::load_yaml(e.text);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().where == e.where);
        CHECK_MESSAGE(r.error().message.starts_with("this is a Go template"), r.error().message);
        CHECK(r.error().message.find(hint) != std::string::npos);
    }
    // Quoted markers are plain YAML strings: such a file loads, and a marker only in a comment or after
    // the error does not make a syntax error a template.
    CHECK(doc::load_yaml("metadata:\n  name: \"{{ .Values.name }}\"\n").ok());
    auto comment = doc::load_yaml("# {{ not a template }}\na: 1\nb: `x`\n");
    REQUIRE_FALSE(comment.ok());
    CHECK(comment.error().message.starts_with("a backquote"));
    auto later = doc::load_yaml("a: 1\nb: `x`\nc: {{ .Values.c }}\n");
    REQUIRE_FALSE(later.ok());
    CHECK(later.error().message.starts_with("a backquote"));
}

TEST_CASE("yaml: a control character anywhere is refused as go-yaml's reader refuses it; JSON only a C0 one")
{
    auto r = doc::load_yaml("a: 1\n# note \x07\nb: 2\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("a control character (U+0007) is not allowed in YAML") == 0);
    CHECK(r.error().where == position{2, 8});
    CHECK_FALSE(doc::load_yaml("a: \"x\xc2\x80y\"\n").ok()); // U+0080, a C1 control
    CHECK_FALSE(doc::load_yaml("a: x\x7fy\n").ok());
    CHECK(doc::load_yaml("a: \"tab\there\xc2\x85\xc2\xa0\"\r\n").ok()); // tab, NEL, NBSP and CR are allowed
    CHECK(doc::load_yaml("{\"a\": \"x\x7fy\xc2\x80\"}").ok());           // Go's JSON decoder takes them
    CHECK_FALSE(doc::load_yaml("{\"a\": \"x\x01y\"}").ok());
    CHECK_FALSE(doc::load_yaml("{\"a\": \"x\x7fy\", 4\": 1}").ok()); // JSON Go refuses goes to go-yaml next
}

TEST_CASE("yaml: an empty scalar with a tag other than !!null is the string \"\", as go-yaml v2 resolves it")
{
    const doc::value v = load_one("a: !!str\nb: !!null\nc:\nd: !\ne: &x !custom\n");
    CHECK(v.find("a")->is_string());
    CHECK(v.find("a")->text().empty());
    CHECK(v.find("b")->is_null());
    CHECK(v.find("c")->is_null());
    CHECK(v.find("d")->is_string());
    CHECK(v.find("e")->is_string());
    // A document that is only a tag is a string, no object (kubectl: cannot unmarshal string).
    auto docs = doc::load_yaml(" !!sr\n");
    REQUIRE(docs.ok());
    REQUIRE(docs->size() == 1);
    CHECK(docs->front().root.is_string());
}

TEST_CASE("yaml: a line of a block mapping without its ':' is refused, as go-yaml refuses it")
{
    // yaml-cpp 0.7 reads the last line `clu` as a key with a null value.
    auto r = doc::load_yaml("metadata:\n  name: a\n  clu");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("could not find expected ':'") == 0);
    CHECK(r.error().where == position{3, 3});
    // Explicit keys, quoted keys holding ':', comments, flow mappings and block scalars still load.
    CHECK(doc::load_yaml("a: 1 # b: c\n\"d:e\": f\n? g\n: h\ni: {j, k}\nl: |\n  m\n  n: o\n").ok());
}

TEST_CASE("yaml: an empty entry of a flow collection is refused, as go-yaml refuses it")
{
    // yaml-cpp 0.7 reads it as a null.
    for (const char* text : {"a: [1,,2]\n", "a: {,b: 1}\n", "a: [ , ]\n", "a: {b: 1,,c: 2}\n"}) {
        CAPTURE(text);
        auto r = doc::load_yaml(text);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("an empty entry in a flow collection") == 0);
    }
    // A null value after a flow key, nulls written out and a trailing comma still load.
    CHECK(doc::load_yaml("a: {b: , c: 1}\nd: [1, null, ~]\ne: [f, ]\ng: {h: 1,}\n").ok());
}

TEST_CASE("yaml: an anchor or alias name with a character go-yaml does not take is refused there")
{
    // go-yaml v2 takes letters, digits, '_' and '-' and then needs a blank or one of ?:,]}%@`; yaml-cpp
    // 0.7 read `&3"` as the anchor named 3".
    // (An alias such as *x" names no anchor for yaml-cpp either: refused as undefined.)
    for (std::string text : {"a: &3\"\n  b\n", "a:\n  - &&&&-9y\n", "&@\"\nb: 1\n", "a: !t &q\" v\n"}) {
        CAPTURE(text);
        auto r = doc::load_yaml(text);
        REQUIRE_FALSE(r.ok());
        CHECK(r.error().message.find("did not find expected alphabetic or numeric character") != std::string::npos);
    }
    auto r = doc::load_yaml("a: &3\"\n  b\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().where.line == 1);
    CHECK(r.error().where.column == 6);
    // Names go-yaml takes still load, with the value they anchor.
    auto ok = doc::load_yaml("a: &x-1_B v\nb: *x-1_B\nc: [&y 1, *y]\nd: {&z e: f, g: *z}\nh: &w\ni: !!str &k 2\n");
    REQUIRE(ok.ok());
    CHECK((*ok)[0].root.string_at("b") == "v");
}

TEST_CASE("yaml: a directive line before a document is refused, as kubectl's reader makes go-yaml refuse it")
{
    // kubectl cuts the stream at each --- line, so go-yaml never sees the --- a directive needs.
    const std::pair<const char*, const char*> cases[] = {
        {"%\na: 1\n", "could not find expected directive name"},
        {"# c\n%icWeated copy\na: 1\n", "found unknown directive name"},
        {"%YAML1.1\n---\na: 1\n", "found unexpected non-alphabetical character"},
        {"%YAML 1.1\n---\na: 1\n", "did not find expected <document start>"},
        {"a: 1\n---\n%TAG ! tag:x,2000:\n---\nb: 2\n", "did not find expected <document start>"},
    };
    check_refused(cases);
    // A '%' that is no directive line: inside a document, indented, or in a scalar.
    CHECK(doc::load_yaml("a: 1\nb: \"x\n%y\"\nc: |\n  %z\nd: 50%\n").ok());
}

TEST_CASE("yaml: a ':' with no key, a ':' starting a key in { } and &name: are refused, as go-yaml refuses them")
{
    const std::pair<const char*, const char*> cases[] = {
        {"a: 1\n: 2\n", "did not find expected key"},
        {"a:\n  b: 1\n  :\n    c\n", "did not find expected key"},
        {"a:\n  - &eAffinities:\n  - b\n", "unsupported map key of type: <nil>"},
        {"{\"labels\": {\"app\",:\"x\"}}\n", "did not find expected node content"},
        {"{\"labels\": {\"app\", : x}}\n", "did not find expected node content"},
    };
    check_refused(cases);
    // A quoted key over several lines is refused by yaml-cpp too; an explicit key may span lines, and
    // a ':' inside a block key is text.
    CHECK_FALSE(doc::load_yaml("x: 1\n\"a\nb\": 1\n").ok());
    CHECK(doc::load_yaml("? \"a\n  b\"\n: 1\nc: \"d\n  e\"\n:x: 2\n").ok());
}

TEST_CASE("yaml: a lone CR is a line break, as go-yaml reads it; CRLF is unchanged")
{
    auto r = doc::load_yaml("a: \"ch\reckout\"\rb: 1\r\nc: 2\r\n");
    REQUIRE(r.ok());
    CHECK((*r)[0].root.string_at("a") == "ch eckout");
    CHECK((*r)[0].root.find("b")->as_int() == 1);
    CHECK((*r)[0].root.find("c")->as_int() == 2);
    CHECK((*r)[0].root.find("c")->pos().line == 4); // go-yaml counts the CR in the string as a line too
}

TEST_CASE("yaml: only the first document of each piece between --- lines is read, as kubectl reads a stream")
{
    // apimachinery's YAMLReader cuts at each "---" line and sigs.k8s.io/yaml.Unmarshal parses one
    // document of the piece: a stray '}' after it, or a document after "...", is never read.
    auto stray = doc::load_yaml("{a: 1}}\n---\nc: [3,\n  4]\n");
    REQUIRE(stray.ok());
    REQUIRE(stray->size() == 2);
    CHECK((*stray)[0].root.find("a")->as_int() == 1);
    CHECK((*stray)[1].index == 1); // the index yaml-cpp gives the document after the "---"
    CHECK((*stray)[1].root.find("c")->pos().line == 3);
    CHECK((*stray)[1].root.find("c")->items()[1].pos().line == 4);
    auto ended = doc::load_yaml("a: 1\n...\nb: 2\n---\nc: 3\n");
    REQUIRE(ended.ok());
    REQUIRE(ended->size() == 2);
    CHECK((*ended)[0].root.find("a") != nullptr);
    CHECK((*ended)[1].root.find("c") != nullptr);
    CHECK(doc::load_yaml("[1]]\n").ok());
    // A stream that starts with a JSON object: kubectl's JSON decoder reads it, and the rest ("}") as
    // YAML fails the file.
    CHECK_FALSE(doc::load_yaml("{\"a\": 1}\n}\n").ok());
    CHECK_FALSE(doc::load_yaml("{\"a\": 1},\n").ok());
    CHECK(doc::load_yaml("a: 1\n...\n}\n").ok());
    // A block mapping is still open at a '}' on the next line: go-yaml refuses it (did not find expected key).
    CHECK_FALSE(doc::load_yaml("a: 1\n}\n").ok());
    // An error in a piece's first document is still the file's error, at its line.
    auto bad = doc::load_yaml("a: 1\n---\nb: [1\n");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().where.line >= 3);
    auto after = doc::load_yaml("{a: 1}}\n---\nb: 1\n  c: 2\n");
    REQUIRE_FALSE(after.ok());
    CHECK(after.error().where.line == 4);
}

TEST_CASE("yaml: .nan and .inf values are refused as kubectl's JSON conversion refuses them; 1e400 is a string")
{
    const std::pair<const char*, const char*> cases[] = {
        {"a: .nan\n", "json: unsupported value: NaN"},
        {"a: [1, .Inf]\n", "json: unsupported value: +Inf"},
        {"a: {b: -.INF}\n", "json: unsupported value: -Inf"},
    };
    check_refused(cases);
    // go-yaml keeps a float out of float64's range a string, and formats a float key as text.
    CHECK(load_one("a: 1e400\n").find("a")->is_string());
    CHECK(load_one(".nan: 1\n").is_mapping());
}

namespace {

// "path key first-line:col again-line:col" per repeated key of the only document of `text`.
std::vector<std::string> repeats_of(const std::string& text)
{
    auto r = doc::load_yaml(text);
    REQUIRE_MESSAGE(r.ok(), (r.ok() ? "" : r.error().message));
    REQUIRE(r->size() == 1);
    std::vector<std::string> out;
    for (const auto& k : (*r)[0].repeated_keys)
        out.push_back(k.path + " " + k.key + " " + std::to_string(k.first.line) + ":" + std::to_string(k.first.column) +
                      " " + std::to_string(k.again.line) + ":" + std::to_string(k.again.column));
    return out;
}

} // namespace

TEST_CASE("yaml: a repeated key keeps its last value and is recorded at each later key, with the first")
{
    const std::string text = "apiVersion: v1\n"
                             "kind: X\n"
                             "metadata:\n"
                             "  name: a\n"
                             "  name: b\n"
                             "spec:\n"
                             "  list:\n"
                             "  - k: 1\n"
                             "    k: 2\n"
                             "    k: 3\n"
                             "  flow: {x: 1, y: 2, x: 3}\n";
    CHECK(repeats_of(text) == std::vector<std::string>{"metadata.name name 4:3 5:3", "spec.list[0].k k 8:5 9:5",
                                                       "spec.list[0].k k 8:5 10:5", "spec.flow.x x 11:10 11:22"});
    const doc::value root = load_one(text);
    CHECK(root.find_path({"metadata", "name"})->text() == "b");
    CHECK(root.find_path({"spec", "list"})->items()[0].find("k")->as_int() == 3);
    CHECK(root.find_path({"spec", "flow", "x"})->as_int() == 3);
    // kubectl's JSON has one key for `1` and "1": so has lint.
    CHECK(repeats_of("m:\n  1: a\n  \"1\": b\n") == std::vector<std::string>{"m.1 1 2:3 3:3"});
}

TEST_CASE("yaml: a key a merge key set is overridden, not repeated; a key written twice around one is")
{
    CHECK(repeats_of("base: &b {x: 1, y: 2}\nm:\n  <<: *b\n  x: 2\n").empty());
    CHECK(repeats_of("base: &b {x: 1}\nm:\n  x: 0\n  <<: *b\n  y: 1\n  x: 2\n") ==
          std::vector<std::string>{"m.x x 3:3 6:3"});
    // Merge keys may repeat (yamllint's default too): their mappings are merged, no key is written twice.
    CHECK(repeats_of("a: &a {x: 1}\nb: &b {y: 1}\nm:\n  <<: *a\n  <<: *b\n").empty());
    // An anchored mapping with a repeat is recorded once, where it is written, not at each alias.
    CHECK(repeats_of("base: &b {x: 1, x: 2}\nm: *b\nn: *b\n") == std::vector<std::string>{"base.x x 1:11 1:17"});
}

TEST_CASE("yaml: repeated keys belong to their document of a stream")
{
    auto r = doc::load_yaml("a: 1\na: 2\n---\nb: 1\n---\nc: 1\nc: 2\n");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 3);
    REQUIRE((*r)[0].repeated_keys.size() == 1);
    CHECK((*r)[0].repeated_keys[0].again == position{2, 1});
    CHECK((*r)[1].repeated_keys.empty());
    REQUIRE((*r)[2].repeated_keys.size() == 1);
    CHECK((*r)[2].repeated_keys[0].first == position{6, 1});
    CHECK((*r)[2].repeated_keys[0].again == position{7, 1});
}
