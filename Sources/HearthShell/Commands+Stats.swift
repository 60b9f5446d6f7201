import Hearth

// MARK: - The table entry

extension Command {
  static let stats = Command(
    name: "stats", summary: "count documents, collections and index entries; show the size, map size and readers",
    usage: "stats",
    details: """
      Counts without reading documents (LMDB keeps each table's number of entries).
      Opening verifies every page of a data.mdb of up to 64 MiB; on a larger one, stats
      verifies them first (one read of the whole file), so that no damaged page is
      followed:

        documents         documents stored
        collections       collections holding documents (subcollections count apart)
        index entries     entries of the automatic and the declared indexes
        declared indexes  composite and collection-group indexes ('indexes' lists them)
        size (bytes)      the used part of data.mdb: pages up to the highest in use ×
                          the page size (from mdb_env_info and mdb_env_stat); free
                          pages LMDB reuses count, so 'backup' can write less
        map size          the memory map: what the database can grow to before the map
                          grows, which it does by itself
        readers           reader slots held by the processes that have the database
                          open (this one included), of the most there can be

      A table on a terminal; off a terminal or with --json, one object: {"path",
      "documents", "collections", "bytes", "indexEntries", "declaredIndexes", "mapSize",
      "pageSize", "readers", "maxReaders", "processes"}.
      """,
    examples: ["stats", "stats --json"],
    arguments: [], required: 0, access: .read, aliases: ["stat", "status", "statistics", "du", "df", "size"],
    run: StatsCommands.stats)
}

// MARK: - Running it

/// `stats`: the database's counts and sizes, from `Database.stats()`.
enum StatsCommands {
  static func stats(_ invocation: Invocation) throws {
    let database = try invocation.database()
    let stats = try database.stats()
    guard !invocation.json, invocation.session.stdout.isTerminal else {
      invocation.printJSON(
        [
          ("path", database.path), ("documents", stats.documents), ("collections", stats.collections),
          ("bytes", stats.bytes), ("indexEntries", stats.indexEntries), ("declaredIndexes", stats.declaredIndexes),
          ("mapSize", stats.mapSize), ("pageSize", stats.pageSize), ("readers", stats.readers),
          ("maxReaders", stats.maxReaders), ("processes", stats.processes),
        ] as [(String, Any)])
      return
    }
    let processes = stats.processes == 1 ? "1 process" : "\(stats.processes) processes"
    let rows = [
      ("database", database.path),
      ("documents", "\(stats.documents)"),
      ("collections", "\(stats.collections)"),
      ("index entries", "\(stats.indexEntries)"),
      ("declared indexes", "\(stats.declaredIndexes)"),
      (
        "size",
        "\(ByteCount.text(stats.bytes)) (\(stats.bytes / max(stats.pageSize, 1)) pages of \(stats.pageSize) bytes)"
      ),
      ("map size", ByteCount.text(stats.mapSize)),
      ("readers", "\(stats.readers) of \(stats.maxReaders) slots, held by \(processes)"),
    ]
    let width = rows.map(\.0.count).max() ?? 0
    for (label, value) in rows {
      invocation.session.writeLine(label + String(repeating: " ", count: width - label.count + 2) + value)
    }
  }
}
