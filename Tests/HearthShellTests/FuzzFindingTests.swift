import Hearth
import HearthCore
import Testing

@testable import HearthShell

/// What the fuzz targets found in the shell (Tools/Fuzz/Regressions/README.md), as unit
/// tests.
@Suite struct ShellFuzzFindingTests {
  @Test(arguments: ["\u{301}$", "a\u{301} b", "'\u{301}", "\u{301}", "x\r\ny"])
  func quotedWordsWithCombiningMarksSplitBack(_ word: String) throws {
    let quoted = Tokenizer.quotedIfNeeded(word)
    let words = try Tokenizer.split(quoted)
    #expect(words.count == 1 && words[0].utf8.elementsEqual(word.utf8))
  }

  @Test func quotesFollowedByCombiningMarksStillQuote() throws {
    #expect(try Tokenizer.split("'\u{301} x'") == ["\u{301} x"])
    #expect(try Tokenizer.splitKeepingQuotes("a == '\u{301} x'") == ["a", "==", "'\u{301} x'"])
  }

  /// Found by reading the shell's readers side by side: an index spec was read by
  /// grapheme clusters, so a backtick followed by a combining mark did not open a name
  /// there as it did in a query.
  @Test func fieldPathsWithCombiningMarksReadAlikeInQueriesAndIndexSpecs() throws {
    let spec = try IndexSpec.parse("group:posts `\u{301}a`, b desc")
    let clauses = try QueryClauses.parse("order by `\u{301}a`, b desc")
    #expect(spec.fields.map(\.path) == clauses.orders.map(\.field))
    #expect(spec.fields.map(\.path) == [FieldPath(["\u{301}a"]), FieldPath(["b"])])
  }

  @Test func stringsWithCombiningMarksAreQueryValues() throws {
    let clauses = try QueryClauses.parse("where a == \"\\\\\u{301}\" and b == '\u{301}'")
    #expect(clauses.literals.map(\.json) == [.string("\\\u{301}"), .string("\u{301}")])
  }

  @Test(arguments: [
    "where a == " + String(repeating: "[", count: 5_000), "where " + String(repeating: "(", count: 5_000),
  ])
  func deepNestingIsAnErrorNotACrash(_ text: String) {
    #expect(throws: QueryTextError.self) { try QueryClauses.parse(text) }
  }

  @Test func nestingUpToTheLimitParses() throws {
    let list = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    let parentheses = String(repeating: "(", count: 64) + "a == 1" + String(repeating: ")", count: 64)
    #expect(try QueryClauses.parse("where a == \(list) and \(parentheses)").literals.count == 2)
    #expect(throws: QueryTextError.self) { try QueryClauses.parse("where a == [\(list)]") }
  }

  @Test func theCaretLinesUpUnderCombiningMarks() throws {
    let error = #expect(throws: QueryTextError.self) { try QueryClauses.parse("where e\u{301} ~ 1") }
    #expect(error?.column == 10)
    #expect(error?.failure.detail.last == "  " + String(repeating: " ", count: 8) + "^")
  }
}
