/// An option a command accepts: a flag (`--merge`) or one with a value (`--limit N`,
/// also written `--limit=N`).
struct OptionSpec: Sendable {
  let name: String
  /// The value's placeholder in help (`N`), or `nil` for a flag.
  let valueName: String?
  let summary: String

  static func flag(_ name: String, _ summary: String) -> OptionSpec {
    OptionSpec(name: name, valueName: nil, summary: summary)
  }

  static func value(_ name: String, _ valueName: String, _ summary: String) -> OptionSpec {
    OptionSpec(name: name, valueName: valueName, summary: summary)
  }

  /// `--limit N` or `--merge`, for help.
  var synopsis: String { valueName.map { "\(name) \($0)" } ?? name }
}

/// The options every command accepts, before or after its name.
enum GlobalOption {
  static let database = OptionSpec.value(
    "--db", "PATH", "the database directory (default: $HEARTH_DATABASE, else ./default.hearth)")
  static let json = OptionSpec.flag("--json", "machine output: compact JSON, also for ls and tree")
  static let help = OptionSpec.flag("--help", "show help (for a command: hearth COMMAND --help)")

  static let all = [database, json, help]
}

/// A command's arguments, after options were taken out.
struct Arguments {
  var positionals: [String] = []
  var flags: Set<String> = []
  var values: [String: String] = [:]

  func has(_ flag: String) -> Bool { flags.contains(flag) }
  func value(_ option: String) -> String? { values[option] }

  /// An integer option's value, checked against `range`; `nil` when not given.
  ///
  /// - Throws: `UsageError.invalidValue` for anything but a whole number in range.
  func integer(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = values[option] else { return nil }
    guard let number = Int(text), range.contains(number) else {
      let expected =
        range.upperBound == .max ? "a whole number of at least \(range.lowerBound)" : "a whole number in \(range)"
      throw .invalidValue(option: option, value: text, expected: expected)
    }
    return number
  }

  /// Splits `words` into options and positional arguments. Options may come anywhere;
  /// `--` ends them (so a path may start with `-`); a lone `-` (standard input) and a
  /// negative number (`-5`, `-Infinity`, in a query) are positional.
  ///
  /// - Throws: `UsageError.unknownOption` (with the nearest known option) or
  ///   `.missingValue`.
  static func parse(_ words: some Sequence<String>, options: [OptionSpec], command: String?) throws(UsageError)
    -> Arguments
  {
    var arguments = Arguments()
    var iterator = words.makeIterator()
    var optionsEnded = false
    while let word = iterator.next() {
      guard !optionsEnded, word.hasPrefix("-"), word != "-", !isNegativeNumber(word) else {
        arguments.positionals.append(word)
        continue
      }
      if word == "--" {
        optionsEnded = true
        continue
      }
      let name: String
      var inlineValue: String?
      if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
        name = String(word[..<equals])
        inlineValue = String(word[word.index(after: equals)...])
      } else {
        name = word == "-h" ? "--help" : word
      }
      guard let spec = options.first(where: { $0.name == name }) else {
        throw .unknownOption(
          name, command: command, suggestion: Suggestions.nearest(to: name, in: options.map(\.name)))
      }
      if spec.valueName == nil {
        if inlineValue != nil { throw .invalidValue(option: name, value: inlineValue!, expected: "no value") }
        arguments.flags.insert(name)
      } else {
        guard let value = inlineValue ?? iterator.next() else { throw .missingValue(option: name) }
        arguments.values[name] = value
      }
    }
    return arguments
  }

  /// `-5`, `-0.5` or `-Infinity`: a value in a query, not an option.
  private static func isNegativeNumber(_ word: String) -> Bool {
    guard let second = word.dropFirst().first else { return false }
    return second.isASCII && (second.isNumber || second == ".") || word == "-Infinity"
  }
}
