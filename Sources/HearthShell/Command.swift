import Hearth

/// One shell command: what help shows about it and what runs it. The table of every
/// command is `Command.all`; dispatch, help and suggestions all read it.
struct Command: Sendable {
  let name: String
  /// One line for the command list.
  let summary: String
  /// The synopsis: `get DOC [--meta]`.
  let usage: String
  /// A paragraph for `help COMMAND`.
  let details: String
  /// Command lines to copy, without the leading `hearth`; one that pipes into hearth is
  /// written whole (`gunzip -c backup.jsonl.gz | hearth import -`).
  let examples: [String]
  let options: [OptionSpec]
  /// The placeholders of its positional arguments (`DOC`, `JSON`), optional ones last.
  let argumentNames: [String]
  /// How many positional arguments it takes.
  let arity: ClosedRange<Int>
  /// Its arguments after the first are query text (`query`, `explain`): the interactive
  /// shell passes them with their quotes, which the query language reads.
  let readsQueryText: Bool
  /// Its last argument may run over several words, which it joins with spaces (an index
  /// SPEC: `indexes add posts ownerId, createdAt desc`).
  let variadic: Bool
  let access: DatabaseAccess
  /// Words people may type for it, offered as "did you mean" (`delete` → `rm`).
  let aliases: [String]
  let run: @Sendable (Invocation) throws -> Void

  init(
    name: String, summary: String, usage: String, details: String, examples: [String],
    options: [OptionSpec] = [], arguments argumentNames: [String], required: Int, access: DatabaseAccess,
    aliases: [String] = [], readsQueryText: Bool = false, variadic: Bool = false,
    run: @escaping @Sendable (Invocation) throws -> Void
  ) {
    self.name = name
    self.summary = summary
    self.usage = usage
    self.details = details
    self.examples = examples
    self.options = options
    self.argumentNames = argumentNames
    // Query text, and a variadic last argument, are any number of words.
    self.arity = required...(readsQueryText || variadic ? Int.max : argumentNames.count)
    self.readsQueryText = readsQueryText
    self.variadic = variadic
    self.access = access
    self.aliases = aliases
    self.run = run
  }

  /// Every command, in the order help lists them.
  static let all: [Command] = [
    .ls, .tree, .get, .set, .update, .add, .rm, .query, .explain, .watch, .export, .import, .backup, .restore, .indexes,
    .stats, .check, .serve, .help, .exit,
  ]

  static func named(_ name: String) -> Command? { all.first { $0.name == name } }

  /// The command `name` was probably meant to be: by alias, prefix or edit distance.
  static func suggestion(for name: String) -> String? {
    if let command = all.first(where: { $0.aliases.contains(name.lowercased()) }) { return command.name }
    return Suggestions.nearest(to: name, in: all.map(\.name))
  }
}
