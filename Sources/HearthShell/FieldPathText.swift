import Hearth

/// Reads a dotted field path as the shell takes it, in query text and in index specs
/// alike: plain names, or names in backticks with `\` escaping (`` `first name`.city ``).
struct FieldPathText {
  /// Why no field path could be read, and at which character.
  struct Failure: Error {
    let message: String
    let position: Int
  }

  let characters: [Character]
  /// Which characters make up a plain name (the parser's own word characters).
  let isNameCharacter: (Character) -> Bool
  /// The column a person counts for a character's position, for messages.
  let column: (Int) -> Int

  /// The path at `index` (which moves past it); `context` is what came before, for the
  /// message when no name follows.
  func read(at index: inout Int, after context: String) throws(Failure) -> FieldPath {
    var segments: [String] = []
    while true {
      if index < characters.count, characters[index] == "`" {
        let open = index
        index += 1
        var segment = ""
        while true {
          guard index < characters.count else {
            throw Failure(message: "the backtick at column \(column(open)) is not closed", position: open)
          }
          let character = characters[index]
          index += 1
          if character == "`" { break }
          if character == "\\", index < characters.count {
            segment.append(characters[index])
            index += 1
          } else {
            segment.append(character)
          }
        }
        guard !segment.isEmpty else {
          throw Failure(message: "a field name in backticks cannot be empty", position: open)
        }
        segments.append(segment)
      } else {
        let start = index
        while index < characters.count, isNameCharacter(characters[index]) { index += 1 }
        guard index > start else {
          var message = "expected a field name after '\(segments.isEmpty ? context : ".")'\(found(at: start))"
          if segments.isEmpty, start < characters.count, characters[start] == "'" || characters[start] == "\"" {
            message += "; field names with special characters go in backticks: `first name`"
          }
          throw Failure(message: message, position: start)
        }
        segments.append(String(characters[start..<index]))
      }
      guard index < characters.count, characters[index] == "." else { break }
      index += 1
    }
    return FieldPath(segments)
  }

  /// `, found 'X'` for the word (or character) at `position`; nothing at the end.
  func found(at position: Int) -> String {
    guard position < characters.count else { return "" }
    var end = position
    while end < characters.count, isNameCharacter(characters[end]) { end += 1 }
    if end == position { end += 1 }
    return ", found '\(String(characters[position..<end]))'"
  }
}
