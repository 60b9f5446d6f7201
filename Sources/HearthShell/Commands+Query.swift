import Foundation
import Hearth

// MARK: - The table entries

extension Command {
  static let query = Command(
    name: "query", summary: "run a query and print its documents, or count, sum or avg them",
    usage: "query TARGET [CLAUSES] [--ids | --table]",
    details: """
      Runs a query on TARGET, a collection path (users/alice/posts) or group:ID for every
      collection with that ID, and prints one {"path", "fields"} object per line in query
      order; --ids prints the paths only, --table the top-level fields in columns. The
      CLAUSES, in any order (keywords in any case):

        where EXPR                  comparisons FIELD OP VALUE joined by and, or and
                                    parentheses (and binds tighter); OP is one of
                                    == != < <= > >= in not-in array-contains
                                    array-contains-any
        order by F [asc|desc]       repeatable: order by a, b desc
        limit N, limit last N
        start at|after V[, V...]    cursors: values of the order-by fields, in order
        end at|before V[, V...]
        count, sum F, avg F         last: print {"count": N}, {"sum": N} or {"avg": N}
                                    instead of the documents (avg is null for none)

      Fields are dotted paths; a name with special characters goes in backticks
      (`a.b`.c); __name__ is the document ID (a plain ID, or a full path in a group).
      Values: JSON (a number without fraction or exponent is an integer), 'single' or
      "double" quoted strings, ts("2026-01-01T00:00:00Z"), ref("users/alice"),
      geo(40.4, -3.7), bytes("AAEC"), NaN, Infinity, -Infinity; in, not-in and
      array-contains-any take a list: [1, 2]. From a Unix shell, put the clauses in
      single quotes (they hold quotes, < and >). A syntax error exits with 65 and points
      at its column; a query Firestore would refuse exits with 65 too (invalidArgument).
      """,
    examples: [
      "query users 'where age >= 18 order by age desc limit 10'",
      #"query users 'where name in ["Alice", "Bob"]' --ids"#,
      #"query users 'where (age < 18 or age > 65) and address.city == "Madrid"'"#,
      "query users 'order by __name__ start after \"alice\" limit 20' --table",
      "query users 'where age > 30' count",
      "query users avg age",
      "query group:posts 'order by createdAt desc limit 5'",
    ],
    options: [
      .flag("--ids", "print only the documents' paths, one per line"),
      .flag("--table", "print the top-level fields in aligned columns"),
    ],
    arguments: ["TARGET", "CLAUSES"], required: 1, access: .read,
    aliases: ["find", "select", "search", "filter", "where", "count", "sum", "avg"], readsQueryText: true,
    run: QueryCommands.query)

  static let explain = Command(
    name: "explain", summary: "run a query and show its plan: the index or scan, and what it read",
    usage: "explain TARGET [CLAUSES]",
    details: """
      Runs the query (TARGET and CLAUSES as for 'query') and shows how: the index or scan
      used with its key ranges, the index entries and documents read, and the results
      returned. Off a terminal or with --json, one object:
      {"plan": "…", "indexEntriesRead": N, "documentsRead": N, "resultsReturned": N}.
      With a final count, sum or avg it explains the aggregation: a count whose filters
      an index's keys prove reads no document.
      """,
    examples: [
      "explain users 'where age >= 18 order by age desc limit 10'",
      "explain group:posts 'where likes > 3' --json",
    ],
    arguments: ["TARGET", "CLAUSES"], required: 1, access: .read, aliases: ["plan", "analyze", "analyse"],
    readsQueryText: true,
    run: QueryCommands.explain)
}

// MARK: - Running them

/// `query` and `explain`: a query typed as clauses, run through Hearth's query API.
enum QueryCommands {
  static func query(_ invocation: Invocation) throws {
    let ids = invocation.arguments.has("--ids")
    let table = invocation.arguments.has("--table")
    if ids && table { throw UsageError.notAllowed("--ids and --table cannot be used together") }
    let (target, clauses) = try parse(invocation)
    if let aggregation = clauses.aggregations.first, ids || table {
      throw UsageError.notAllowed(
        "\(ids ? "--ids" : "--table") lists documents; with '\(aggregation.key)' the query prints one object")
    }
    let database = try invocation.database()
    let query = try build(target, clauses, database)

    if !clauses.aggregations.isEmpty {
      let fields = clauses.aggregateFields
      let snapshot = try query.aggregate(fields).getAggregation()
      let members: [(String, Any)] = zip(clauses.aggregations, fields).map { aggregation, field in
        (aggregation.key, aggregation == .count ? snapshot.count : snapshot.get(field) ?? NSNull())
      }
      invocation.printJSON(members)
      return
    }

    let documents = try query.getDocuments().documents
    if documents.isEmpty, !invocation.json, invocation.session.stdout.isTerminal {
      invocation.session.note("no documents match")
      return
    }
    if ids {
      for document in documents { invocation.session.writeLine(document.reference.path) }
    } else if table {
      let grouped = if case .group = target { true } else { false }
      for line in QueryTable(documents, showingPaths: grouped).lines(bold: invocation.session.supportsColor) {
        invocation.session.writeLine(line)
      }
    } else {
      for document in documents {
        invocation.printJSON([("path", document.reference.path), ("fields", document.data())] as [(String, Any)])
      }
    }
  }

  static func explain(_ invocation: Invocation) throws {
    let (target, clauses) = try parse(invocation)
    let database = try invocation.database()
    let query = try build(target, clauses, database)
    let explanation =
      try clauses.aggregations.isEmpty ? query.explain() : query.aggregate(clauses.aggregateFields).explain()
    if invocation.json || !invocation.session.stdout.isTerminal {
      let members: [(String, Any)] = [
        ("plan", explanation.plan),
        ("indexEntriesRead", explanation.indexEntriesRead),
        ("documentsRead", explanation.documentsRead),
        ("resultsReturned", explanation.resultsReturned),
      ]
      invocation.printJSON(members)
    } else {
      let entries = explanation.indexEntriesRead == 1 ? "index entry" : "index entries"
      let documents = explanation.documentsRead == 1 ? "document" : "documents"
      invocation.session.writeLine("plan:     \(explanation.plan)")
      invocation.session.writeLine(
        "read:     \(explanation.indexEntriesRead) \(entries), \(explanation.documentsRead) \(documents)")
      invocation.session.writeLine("returned: \(explanation.resultsReturned)")
    }
  }

  // MARK: - Pieces

  /// TARGET and the clauses (every argument after it, joined by spaces), read before the
  /// database is opened so that a typo never needs one.
  static func parse(_ invocation: Invocation) throws -> (QueryTarget, QueryClauses) {
    var targetText = invocation.arguments.positionals[0]
    // The interactive shell keeps quotes in query commands' words; TARGET is a path.
    if invocation.session.isInteractive, let words = try? Tokenizer.split(targetText), words.count == 1 {
      targetText = words[0]
    }
    let target = try QueryTarget.parse(targetText, for: invocation.command.name)
    do {
      let text = invocation.arguments.positionals.dropFirst().joined(separator: " ")
      return (target, try QueryClauses.parse(text))
    } catch {
      throw error.failure
    }
  }

  static func build(_ target: QueryTarget, _ clauses: QueryClauses, _ database: Database) throws -> Query {
    do {
      return try clauses.query(from: target.query(in: database), database: database)
    } catch {
      throw error.failure
    }
  }
}

/// `query --table`: a column for the ID (or the path, in a collection group) and one for
/// each top-level field, nested values abbreviated.
struct QueryTable {
  let header: [String]
  let rows: [[String]]

  /// The widest a cell is shown; longer ones end in `…`.
  static let cellWidth = 32

  init(_ documents: [QueryDocumentSnapshot], showingPaths: Bool) {
    let data = documents.map { $0.data() }
    let names = Set(data.flatMap(\.keys)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    header = [showingPaths ? "path" : "id"] + names
    rows = zip(documents, data).map { document, fields in
      [showingPaths ? document.reference.path : document.documentID]
        + names.map { fields[$0].map(QueryTable.cell) ?? "" }
    }
  }

  /// The header and the rows, columns padded to the widest cell; the header in bold
  /// when `bold`.
  func lines(bold: Bool) -> [String] {
    var widths = header.map(\.count)
    for row in rows {
      for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    func line(_ cells: [String]) -> String {
      var text = ""
      for (column, cell) in cells.enumerated() {
        text += column == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count + 2)
      }
      while text.last == " " { text.removeLast() }
      return text
    }
    let title = line(header)
    return [bold ? "\u{1B}[1m" + title + "\u{1B}[0m" : title] + rows.map(line)
  }

  /// A value in one line: strings as they are, times in RFC 3339, references as paths,
  /// maps as their keys, anything else as compact JSON; cut at `cellWidth`.
  static func cell(_ value: Any) -> String {
    let text: String
    switch value {
    case let string as String: text = string
    case let timestamp as Timestamp: text = timestamp.rfc3339
    case let reference as DocumentReference: text = reference.path
    case let point as GeoPoint: text = "geo(\(point.latitude), \(point.longitude))"
    case let data as Data: text = "bytes(\(data.count))"
    case let map as [String: Any]:
      text = "{" + map.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.joined(separator: ", ") + "}"
    default: text = ExtendedJSON.string(from: value)
    }
    let oneLine = text.replacingOccurrences(of: "\n", with: "⏎")
    return oneLine.count > cellWidth ? String(oneLine.prefix(cellWidth - 1)) + "…" : oneLine
  }
}
